"""Gradients against central finite differences, for every op and for random smooth graphs.

``(f(x + h) - f(x - h)) / (2h)`` approximates ``f'(x)`` with a truncation
error of about ``h**2 * f'''(x) / 6`` and a rounding error of about
``eps * |f| / h``.  For an operation, ``h`` is ``1e-6`` times ``|x|`` (and
at least ``1e-9``), so the truncation error stays small relative to ``f'``
near 0 and far from it alike; for a random graph, whose leaves lie in
[-3, 3], ``h = 1e-6``.  The tolerances allow for both errors, and nothing more.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import pytest
from graphs import SMOOTH_OPS, Program, forward_value, programs, run_engine
from hypothesis import given
from ops import OPS, Op

from micrograd.engine import Value

H = 1e-6
EPS = 2.0**-52

CASES = [
    pytest.param(op, point, id=f"{op.name} at {point}")
    for op in OPS
    for point in op.points
    if not set(point) & set(op.kinks)  # at a kink, a difference quotient is no derivative
]


def step_for(x: float) -> float:
    return H * max(abs(x), 1e-3)


def central_difference(f: Callable[[float], float], x: float, h: float = H) -> float:
    return (f(x + h) - f(x - h)) / (2 * h)


def assert_close_to_difference(grad: float, numeric: float, scale: float, h: float = H) -> None:
    """``scale`` bounds the magnitudes the forward pass went through (rounding error)."""
    tolerance = 1e-6 * (1.0 + abs(grad)) + 10 * EPS * scale / h
    assert abs(grad - numeric) <= tolerance, (grad, numeric, tolerance)


@pytest.mark.parametrize(("op", "point"), CASES)
def test_op_gradients_match_central_differences(op: Op, point: tuple[float, ...]) -> None:
    inputs = [Value(x) for x in point]
    out = op.build(*inputs)
    out.backward()
    for i, x in enumerate(point):

        def f(t: float, i: int = i) -> float:
            return op.build(*(Value(t if j == i else y) for j, y in enumerate(point))).data

        h = step_for(x)
        numeric = central_difference(f, x, h)
        assert_close_to_difference(inputs[i].grad, numeric, abs(out.data) + 1.0, h)


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
