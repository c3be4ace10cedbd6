"""Every operation of ``Value``: its value, its gradient, its ``_op`` name and its ``_prev`` inputs.

The expected numbers are written from calculus with :mod:`math`, never read
back from the engine.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from micrograd.engine import Value, new_node

A, B = 3.0, -2.0


@dataclass(frozen=True)
class Binary:
    build: Callable[[Value, Value], Value]
    value: float
    grad_a: float
    grad_b: float
    op: str


BINARY: dict[str, Binary] = {
    "a + b": Binary(lambda a, b: a + b, A + B, 1.0, 1.0, "+"),
    "a - b": Binary(lambda a, b: a - b, A - B, 1.0, -1.0, "-"),
    "a * b": Binary(lambda a, b: a * b, A * B, B, A, "*"),
    "a / b": Binary(lambda a, b: a / b, A / B, 1 / B, -A / B**2, "/"),
}


@pytest.mark.parametrize("name", BINARY)
def test_binary_op_value_gradients_op_name_and_inputs(name: str) -> None:
    case = BINARY[name]
    a, b = Value(A), Value(B)
    out = case.build(a, b)
    assert out.data == pytest.approx(case.value, rel=1e-15)
    assert out._op == case.op
    assert out._prev == (a, b)
    assert out._prev[0] is a
    assert out._prev[1] is b
    out.backward()
    assert out.grad == 1.0
    assert a.grad == pytest.approx(case.grad_a, rel=1e-15)
    assert b.grad == pytest.approx(case.grad_b, rel=1e-15)


@pytest.mark.parametrize("name", BINARY)
def test_binary_op_with_the_same_value_on_both_sides_adds_both_gradients(name: str) -> None:
    case = BINARY[name]
    a = Value(A)
    out = case.build(a, a)
    out.backward()
    # d f(a, a) / da = df/da + df/db at (a, a)
    expected = {"a + b": 2.0, "a - b": 0.0, "a * b": 2 * A, "a / b": 1 / A - A / A**2}[name]
    assert a.grad == pytest.approx(expected, abs=1e-15)
    assert out._prev == (a, a)


@dataclass(frozen=True)
class Unary:
    build: Callable[[Value], Value]
    x: float
    value: float
    grad: float
    op: str


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


UNARY: dict[str, Unary] = {
    "-a": Unary(lambda a: -a, A, -A, -1.0, "neg"),
    "a ** 2": Unary(lambda a: a**2, A, A**2, 2 * A, "**2"),
    "a ** 3": Unary(lambda a: a**3, B, B**3, 3 * B**2, "**3"),
    "a ** 0": Unary(lambda a: a**0, A, 1.0, 0.0, "**0"),
    "a ** 1": Unary(lambda a: a**1, B, B, 1.0, "**1"),
    "a ** -1": Unary(lambda a: a**-1, B, 1 / B, -1 / B**2, "**-1"),
    "a ** -2": Unary(lambda a: a**-2, A, A**-2, -2 * A**-3, "**-2"),
    "a ** 2.0": Unary(lambda a: a**2.0, B, B**2, 2 * B, "**2.0"),
    "a ** 0.5": Unary(lambda a: a**0.5, A, math.sqrt(A), 0.5 / math.sqrt(A), "**0.5"),
    "a ** -0.5": Unary(lambda a: a**-0.5, A, 1 / math.sqrt(A), -0.5 * A**-1.5, "**-0.5"),
    "a ** 1.5": Unary(lambda a: a**1.5, A, A**1.5, 1.5 * math.sqrt(A), "**1.5"),
    "a ** -2.0 (negative base)": Unary(lambda a: a**-2.0, B, B**-2, -2 * B**-3, "**-2.0"),
    "relu(a), a > 0": Unary(lambda a: a.relu(), A, A, 1.0, "ReLU"),
    "relu(a), a < 0": Unary(lambda a: a.relu(), B, 0.0, 0.0, "ReLU"),
    "relu(a), a = 0": Unary(lambda a: a.relu(), 0.0, 0.0, 0.0, "ReLU"),
    "tanh(a)": Unary(lambda a: a.tanh(), 0.5, math.tanh(0.5), 1 - math.tanh(0.5) ** 2, "tanh"),
    "tanh(a), a < 0": Unary(lambda a: a.tanh(), B, math.tanh(B), 1 - math.tanh(B) ** 2, "tanh"),
    "exp(a)": Unary(lambda a: a.exp(), B, math.exp(B), math.exp(B), "exp"),
    "log(a)": Unary(lambda a: a.log(), A, math.log(A), 1 / A, "log"),
    "log(a), a < 1": Unary(lambda a: a.log(), 0.25, math.log(0.25), 4.0, "log"),
    "sigmoid(a)": Unary(
        lambda a: a.sigmoid(), 0.5, _sigmoid(0.5), _sigmoid(0.5) * (1 - _sigmoid(0.5)), "sigmoid"
    ),
    "sigmoid(a), a < 0": Unary(
        lambda a: a.sigmoid(), B, _sigmoid(B), _sigmoid(B) * (1 - _sigmoid(B)), "sigmoid"
    ),
}


@pytest.mark.parametrize("name", UNARY)
def test_unary_op_value_gradient_op_name_and_input(name: str) -> None:
    case = UNARY[name]
    a = Value(case.x)
    out = case.build(a)
    assert out.data == pytest.approx(case.value, rel=1e-14)
    assert out._op == case.op
    assert out._prev == (a,)
    assert out._prev[0] is a
    out.backward()
    assert a.grad == pytest.approx(case.grad, rel=1e-14, abs=1e-300)


def test_power_zero_has_gradient_zero_even_at_zero() -> None:
    # x ** 0 is the constant 1, so its derivative is 0 everywhere (torch agrees).
    a = Value(0.0)
    out = a**0
    assert out.data == 1.0
    out.backward()
    assert a.grad == 0.0


@dataclass(frozen=True)
class Reflected:
    build: Callable[[Value], Value]
    value: float
    grad: float
    op: str
    constant: float
    constant_first: bool  # the constant is the left operand in the expression


REFLECTED: dict[str, Reflected] = {
    "2 * a": Reflected(lambda a: 2 * a, 2 * A, 2.0, "*", 2.0, True),
    "2 + a": Reflected(lambda a: 2 + a, 2 + A, 1.0, "+", 2.0, True),
    "1 - a": Reflected(lambda a: 1 - a, 1 - A, -1.0, "-", 1.0, True),
    "1 / a": Reflected(lambda a: 1 / a, 1 / A, -1 / A**2, "/", 1.0, True),
    "2.5 * a": Reflected(lambda a: 2.5 * a, 2.5 * A, 2.5, "*", 2.5, True),
    "-7 / a": Reflected(lambda a: -7 / a, -7 / A, 7 / A**2, "/", -7.0, True),
    "a * 2": Reflected(lambda a: a * 2, 2 * A, 2.0, "*", 2.0, False),
    "a + 2": Reflected(lambda a: a + 2, A + 2, 1.0, "+", 2.0, False),
    "a - 1": Reflected(lambda a: a - 1, A - 1, 1.0, "-", 1.0, False),
    "a / 4": Reflected(lambda a: a / 4, A / 4, 0.25, "/", 4.0, False),
}


@pytest.mark.parametrize("name", REFLECTED)
def test_op_with_a_number_value_gradient_and_op_name(name: str) -> None:
    case = REFLECTED[name]
    a = Value(A)
    out = case.build(a)
    assert isinstance(out, Value)
    assert out.data == pytest.approx(case.value, rel=1e-15)
    assert out._op == case.op
    # the number becomes a leaf Value next to `a`
    assert len(out._prev) == 2
    assert sum(p is a for p in out._prev) == 1
    (constant,) = (p for p in out._prev if p is not a)
    assert constant.data == case.constant
    assert constant._op == ""
    assert constant._prev == ()
    out.backward()
    assert a.grad == pytest.approx(case.grad, rel=1e-15)


@pytest.mark.parametrize("name", REFLECTED)
def test_op_with_a_number_keeps_the_written_operand_order_in_prev(name: str) -> None:
    # `_prev` is "the inputs, in operand order": for `2 * a` that is (2, a).
    case = REFLECTED[name]
    a = Value(A)
    out = case.build(a)
    expected_index_of_a = 1 if case.constant_first else 0
    assert out._prev[expected_index_of_a] is a, [p.data for p in out._prev]
    assert out._prev[1 - expected_index_of_a].data == case.constant


def test_numpy_scalars_on_the_left_make_values() -> None:
    a = Value(A)
    for out, expected, grad in [
        (np.float64(2.0) * a, 2 * A, 2.0),
        (np.int64(-1) * a, -A, -1.0),
        (np.float64(1.0) - a, 1 - A, -1.0),
        (np.float64(1.0) / a, 1 / A, -1 / A**2),
        (np.int64(2) + a, 2 + A, 1.0),
    ]:
        assert type(out) is Value
        assert out.data == pytest.approx(expected)
        a.grad = 0.0
        out.backward()
        assert a.grad == pytest.approx(grad)


@pytest.mark.parametrize(
    "number",
    [3, 3.0, True, np.float64(3.5), np.int64(-4), np.float32(0.5), np.int8(7)],
    ids=repr,
)
def test_any_real_number_is_stored_as_a_python_float(number: object) -> None:
    v = Value(number)  # type: ignore[arg-type]
    assert type(v.data) is float
    assert v.data == float(number)  # type: ignore[arg-type]
    assert type(v.grad) is float
    assert v.grad == 0.0


def test_a_new_value_is_a_leaf_with_an_empty_op_and_no_inputs() -> None:
    v = Value(1.5)
    assert v._op == ""
    assert v._prev == ()
    assert v.label == ""
    assert Value(1.5, label="w1").label == "w1"


def test_results_of_ops_are_leaves_of_nothing_else_they_do_not_modify_inputs() -> None:
    a, b = Value(A), Value(B)
    _ = (a * b + a.tanh() - b.exp() / a) ** 2
    assert (a.data, b.data, a.grad, b.grad) == (A, B, 0.0, 0.0)


@pytest.mark.parametrize(
    ("data", "expected"),
    [(2.5, "Value(data=2.5, grad=0.0)"), (-3, "Value(data=-3.0, grad=0.0)")],
)
def test_repr_shows_data_and_grad(data: float, expected: str) -> None:
    assert repr(Value(data)) == expected


def test_repr_shows_the_gradient_after_backward() -> None:
    a = Value(3.0)
    (a * 4).backward()
    assert repr(a) == "Value(data=3.0, grad=4.0)"
    assert str(a) == repr(a)


# -- huge inputs: saturate, never overflow --------------------------------------------


@pytest.mark.parametrize("x", [1e6, -1e6, 1e308, -1e308])
def test_tanh_of_a_huge_input_is_finite_with_a_zero_gradient(x: float) -> None:
    a = Value(x)
    out = a.tanh()
    assert out.data == math.copysign(1.0, x)
    out.backward()
    assert a.grad == 0.0


@pytest.mark.parametrize(("x", "expected"), [(1e6, 1.0), (-1e6, 0.0), (800.0, 1.0), (-800.0, 0.0)])
def test_sigmoid_of_a_huge_input_is_finite_with_a_zero_gradient(x: float, expected: float) -> None:
    a = Value(x)
    out = a.sigmoid()
    assert out.data == expected
    out.backward()
    assert a.grad == 0.0


def test_sigmoid_of_a_large_negative_input_keeps_its_tiny_value() -> None:
    # computed without overflow as exp(x) / (1 + exp(x)), not rounded to 0
    a = Value(-700.0)
    out = a.sigmoid()
    assert out.data == pytest.approx(math.exp(-700.0), rel=1e-12)
    out.backward()
    assert a.grad == pytest.approx(math.exp(-700.0), rel=1e-12)


def test_exp_of_a_huge_negative_input_is_zero() -> None:
    a = Value(-1e6)
    out = a.exp()
    assert out.data == 0.0
    out.backward()
    assert a.grad == 0.0


def test_exp_of_a_huge_input_raises_overflow_error_naming_exp() -> None:
    with pytest.raises(OverflowError, match=r"exp\(1000000\.0\)"):
        Value(1e6).exp()


def test_exp_just_below_the_float_limit_works() -> None:
    assert math.isfinite(Value(709.0).exp().data)


# -- new_node: the public way to add an operation --------------------------------------


def _sin(x: Value) -> Value:
    return new_node(math.sin(x.data), "sin", _sin_backward, x)


def _sin_backward(out: Value) -> None:
    out._a.grad += math.cos(out._a.data) * out.grad


def _hypot(x: Value, y: Value) -> Value:
    return new_node(math.hypot(x.data, y.data), "hypot", _hypot_backward, x, y)


def _hypot_backward(out: Value) -> None:
    x, y = out._a, out._b
    x.grad += x.data / out.data * out.grad
    y.grad += y.data / out.data * out.grad


def test_new_node_makes_a_one_input_operation_that_backward_runs() -> None:
    x = Value(0.7)
    y = _sin(x) * 3.0
    y.backward()
    assert y._a._op == "sin"
    assert y._a._prev == (x,)
    assert x.grad == pytest.approx(3.0 * math.cos(0.7), rel=1e-15)


def test_new_node_makes_a_two_input_operation_with_inputs_in_order() -> None:
    x, y = Value(3.0), Value(4.0)
    h = _hypot(x, y)
    h.backward()
    assert (h.data, h._op, h._prev) == (5.0, "hypot", (x, y))
    assert (x.grad, y.grad) == pytest.approx((0.6, 0.8), rel=1e-15)


def test_new_node_stores_an_int_result_as_a_float() -> None:
    out = new_node(2, "two", _sin_backward, Value(1.0))
    assert type(out.data) is float
    assert out.grad == 0.0
