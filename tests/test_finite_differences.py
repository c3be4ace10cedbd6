"""Gradients against central finite differences, for every op and for random smooth graphs.

``(f(x + h) - f(x - h)) / (2h)`` with ``h = 1e-6`` approximates ``f'(x)`` with a
truncation error of about ``h**2 * f'''(x) / 6`` and a rounding error of about
``eps * |f| / h``; the tolerances below allow for both, and nothing more.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given
from test_random_graphs import SMOOTH_OPS, Program, forward_value, programs, run_engine

from micrograd.engine import Value

H = 1e-6
EPS = 2.0**-52

UnaryOp = Callable[[Value], Value]
BinaryOp = Callable[[Value, Value], Value]

UNARY: dict[str, tuple[UnaryOp, list[float]]] = {
    "-a": (lambda a: -a, [-1.5, 0.0, 2.0]),
    "2 * a": (lambda a: 2 * a, [-1.5, 0.0, 2.0]),
    "2 + a": (lambda a: 2 + a, [-1.5, 0.0, 2.0]),
    "1 - a": (lambda a: 1 - a, [-1.5, 0.0, 2.0]),
    "1 / a": (lambda a: 1 / a, [-1.5, 0.4, 2.0]),
    "a ** 2": (lambda a: a**2, [-1.5, 0.0, 2.0]),
    "a ** 3": (lambda a: a**3, [-1.5, 0.3, 2.0]),
    "a ** -1": (lambda a: a**-1, [-1.5, 0.4, 2.0]),
    "a ** -2": (lambda a: a**-2, [-1.5, 0.4, 2.0]),
    "a ** 0.5": (lambda a: a**0.5, [0.2, 1.0, 9.0]),
    "a ** 1.5": (lambda a: a**1.5, [0.2, 1.0, 9.0]),
    "a ** -0.5": (lambda a: a**-0.5, [0.2, 1.0, 9.0]),
    "a ** 2.0": (lambda a: a**2.0, [-1.5, 0.0, 2.0]),
    "relu(a)": (lambda a: a.relu(), [-1.5, -0.01, 0.01, 2.0]),
    "tanh(a)": (lambda a: a.tanh(), [-3.0, 0.0, 0.8]),
    "exp(a)": (lambda a: a.exp(), [-3.0, 0.0, 2.5]),
    "log(a)": (lambda a: a.log(), [0.1, 1.0, 30.0]),
    "sigmoid(a)": (lambda a: a.sigmoid(), [-4.0, 0.0, 1.2]),
}

BINARY: dict[str, BinaryOp] = {
    "a + b": lambda a, b: a + b,
    "a - b": lambda a, b: a - b,
    "a * b": lambda a, b: a * b,
    "a / b": lambda a, b: a / b,
}
BINARY_POINTS = [(1.5, -2.0), (-0.7, 0.3), (0.0, 4.0)]


def central_difference(f: Callable[[float], float], x: float) -> float:
    return (f(x + H) - f(x - H)) / (2 * H)


def assert_close_to_difference(grad: float, numeric: float, scale: float) -> None:
    """``scale`` bounds the magnitudes the forward pass went through (rounding error)."""
    tolerance = 1e-6 * (1.0 + abs(grad)) + 10 * EPS * scale / H
    assert abs(grad - numeric) <= tolerance, (grad, numeric, tolerance)


UNARY_CASES = [(name, x) for name, (_, points) in UNARY.items() for x in points]


@pytest.mark.parametrize(("name", "x"), UNARY_CASES)
def test_unary_op_gradient_matches_central_difference(name: str, x: float) -> None:
    op = UNARY[name][0]
    a = Value(x)
    out = op(a)
    out.backward()
    numeric = central_difference(lambda t: op(Value(t)).data, x)
    assert_close_to_difference(a.grad, numeric, abs(out.data) + 1.0)


@pytest.mark.parametrize(("x", "y"), BINARY_POINTS)
@pytest.mark.parametrize("name", BINARY)
def test_binary_op_gradients_match_central_differences(name: str, x: float, y: float) -> None:
    op = BINARY[name]
    a, b = Value(x), Value(y)
    out = op(a, b)
    out.backward()
    da = central_difference(lambda t: op(Value(t), Value(y)).data, x)
    db = central_difference(lambda t: op(Value(x), Value(t)).data, y)
    assert_close_to_difference(a.grad, da, abs(out.data) + 1.0)
    assert_close_to_difference(b.grad, db, abs(out.data) + 1.0)


def test_a_value_used_twice_gets_the_derivative_of_both_uses() -> None:
    def f(t: float) -> float:
        a = Value(t)
        return (a * a.tanh() + a.exp() / a).data

    a = Value(0.9)
    (a * a.tanh() + a.exp() / a).backward()
    assert_close_to_difference(a.grad, central_difference(f, 0.9), 10.0)


def check_program(program: Program) -> None:
    leaves, nodes = run_engine(program)
    scale = max(abs(n.data) for n in nodes) + 1.0
    for i, x in enumerate(program.leaves):

        def f(t: float, i: int = i) -> float:
            shifted: Sequence[float] = [*program.leaves[:i], t, *program.leaves[i + 1 :]]
            return forward_value(program, shifted)

        numeric = central_difference(f, x)
        assert math.isfinite(numeric)
        tolerance = 1e-6 * (1.0 + abs(leaves[i].grad)) + 10 * EPS * scale / H
        assert abs(leaves[i].grad - numeric) <= tolerance, (
            f"d out / d x{i}: backward {leaves[i].grad!r}, difference {numeric!r}\n{program}"
        )


@given(programs(ops=SMOOTH_OPS))
def test_random_smooth_graph_gradients_match_central_differences(program: Program) -> None:
    # relu is left out: at a kink (hypothesis loves 0.0) a difference quotient is
    # not a derivative.  relu's own difference check is above, away from 0.
    check_program(program)
