"""Every operation of ``Value``: its value, its gradient, its ``_op`` name and its ``_prev`` inputs.

The operations, their points and expected numbers come from the op table
(``ops.py``); the expected numbers are written from calculus with :mod:`math`,
never read back from the engine.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from ops import OPS, Op, inside

from micrograd.engine import Value, new_node, topological_order

A = 3.0

CASES = [pytest.param(op, point, id=f"{op.name} at {point}") for op in OPS for point in op.points]


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_every_point_of_the_op_table_lies_in_its_ops_domain(op: Op) -> None:
    for point in op.points:
        assert len(point) == op.arity
        assert all(inside(d, x) for d, x in zip(op.domains, point, strict=True)), point


@pytest.mark.parametrize(("op", "point"), CASES)
def test_op_value_gradients_op_name_and_inputs(op: Op, point: tuple[float, ...]) -> None:
    inputs = [Value(x) for x in point]
    out = op.build(*inputs)
    assert type(out) is Value
    assert out.data == pytest.approx(op.expected(*point), rel=1e-14, abs=1e-300)
    assert out._op == op.op
    if op.number is None:
        assert out._prev == tuple(inputs)
        assert all(p is x for p, x in zip(out._prev, inputs, strict=True))
    out.backward()
    assert out.grad == 1.0
    for x, expected in zip(inputs, op.derivatives(*point), strict=True):
        assert x.grad == pytest.approx(expected, rel=1e-14, abs=1e-300)


BINARY = [op for op in OPS if op.arity == 2]
WITH_NUMBER = [op for op in OPS if op.number is not None]


@pytest.mark.parametrize("op", BINARY, ids=lambda op: op.name)
def test_binary_op_with_the_same_value_on_both_sides_adds_both_gradients(op: Op) -> None:
    a = Value(A)
    out = op.build(a, a)
    out.backward()
    # d f(a, a) / da = df/da + df/db at (a, a)
    assert a.grad == pytest.approx(sum(op.derivatives(A, A)), abs=1e-15)
    assert out._prev == (a, a)


def test_power_zero_has_gradient_zero_even_at_zero() -> None:
    # x ** 0 is the constant 1, so its derivative is 0 everywhere (torch agrees).
    a = Value(0.0)
    out = a**0
    assert out.data == 1.0
    out.backward()
    assert a.grad == 0.0


@pytest.mark.parametrize("op", WITH_NUMBER, ids=lambda op: op.name)
def test_op_with_a_number_makes_the_number_a_leaf_value(op: Op) -> None:
    a = Value(A)
    out = op.build(a)
    assert len(out._prev) == 2
    assert sum(p is a for p in out._prev) == 1
    (constant,) = (p for p in out._prev if p is not a)
    assert constant.data == op.number
    assert constant._op == ""
    assert constant._prev == ()


@pytest.mark.parametrize("op", WITH_NUMBER, ids=lambda op: op.name)
def test_op_with_a_number_keeps_the_written_operand_order_in_prev(op: Op) -> None:
    # `_prev` is "the inputs, in operand order": for `2 * a` that is (2, a).
    a = Value(A)
    out = op.build(a)
    expected_index_of_a = 1 if op.number_first else 0
    assert out._prev[expected_index_of_a] is a, [p.data for p in out._prev]
    assert out._prev[1 - expected_index_of_a].data == op.number


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
    a, b = Value(A), Value(-2.0)
    _ = (a * b + a.tanh() - b.exp() / a) ** 2
    assert (a.data, b.data, a.grad, b.grad) == (A, -2.0, 0.0, 0.0)


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


def _sin_backward(out: Value, a: Value) -> None:
    a.grad += math.cos(a.data) * out.grad


def _hypot(x: Value, y: Value) -> Value:
    return new_node(math.hypot(x.data, y.data), "hypot", _hypot_backward, x, y)


def _hypot_backward(out: Value, x: Value, y: Value) -> None:
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


# -- operations of many inputs: Value.sum and Value.dot ------------------------------------------

XS = [0.5, -1.25, 2.0, 3.5, -0.75]
YS = [1.5, 0.25, -2.0, 0.125, 4.0]


def chain_sum(terms: list[Value]) -> Value:
    """The same sum as a chain of ``+``, as Python's ``sum`` builds it."""
    total = terms[0]
    for t in terms[1:]:
        total = total + t
    return total


def test_sum_is_one_node_with_the_chains_value_and_gradients() -> None:
    terms = [Value(x) for x in XS]
    chained = [Value(x) for x in XS]
    out = Value.sum(terms) * 3.0
    reference = chain_sum(chained) * 3.0
    out.backward()
    reference.backward()
    assert out._a._op == "sum"
    assert out._a._prev == tuple(terms)
    assert out.data == reference.data == 3.0 * math.fsum(XS)
    assert [t.grad for t in terms] == [3.0] * len(XS)


def test_dot_is_one_node_with_the_chains_value_and_gradients() -> None:
    a, b = [Value(x) for x in XS], [Value(y) for y in YS]
    out = Value.dot(a, b) * 2.0
    out.backward()
    node = out._a
    assert (node._op, node._prev) == ("dot", (*a, *b))
    assert node.data == sum(x * y for x, y in zip(XS, YS, strict=True))
    assert [v.grad for v in a] == [2.0 * y for y in YS]
    assert [v.grad for v in b] == [2.0 * x for x in XS]


def test_dot_of_a_vector_with_itself_is_its_sum_of_squares_with_gradient_two_x() -> None:
    x = [Value(v) for v in XS]
    out = Value.dot(x, x)
    out.backward()
    assert out.data == sum(v * v for v in XS)
    assert [v.grad for v in x] == [2.0 * v for v in XS]
    assert out._prev == (*x, *x)


def test_a_term_used_twice_in_a_sum_gets_both_gradients() -> None:
    a, b = Value(1.0), Value(2.0)
    out = Value.sum([a, b, a, a])
    out.backward()
    assert (out.data, a.grad, b.grad) == (5.0, 3.0, 1.0)


def test_many_input_nodes_come_after_all_their_inputs_in_topological_order() -> None:
    a = [Value(x) for x in XS]
    s = Value.sum(a)
    d = Value.dot([s, *a[:2]], a[2:])
    order = topological_order(d)
    assert order[-1] is d
    assert order.index(s) > max(order.index(v) for v in a)
    assert len(order) == len(set(order)) == len(a) + 2


def test_backward_property_runs_a_many_input_rule_as_backward_does() -> None:
    a, b = [Value(x) for x in XS], [Value(y) for y in YS]
    out = Value.dot(a, b)
    out.grad = 1.0
    out._backward()
    assert [v.grad for v in a] == YS
    s = Value.sum(b)
    s.grad = 2.0
    s._backward()
    assert [v.grad for v in b] == [x + 2.0 for x in XS]


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda: Value.sum([]), ValueError, "Value.sum needs at least one Value"),
        (lambda: Value.dot([], []), ValueError, "Value.dot needs at least one Value"),
        (lambda: Value.sum([Value(1.0), 2.0]), TypeError, "Value.sum takes Values only, got float"),
        (lambda: Value.dot([Value(1.0)], [3]), TypeError, "Value.dot takes Values only, got int"),
        (
            lambda: Value.dot([Value(1.0)], [Value(1.0), Value(2.0)]),
            ValueError,
            "Value.dot needs two sequences of one length, got 1 and 2",
        ),
    ],
)
def test_many_input_operations_reject_bad_input(
    build: Callable[[], Value], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        build()


def test_many_input_operations_take_values_of_a_subclass() -> None:
    class Labelled(Value):
        __slots__ = ()

    a, b = Labelled(2.0), Value(3.0)
    out = Value.dot([a, b], [b, a])
    out.backward()
    assert (out.data, a.grad, b.grad) == (12.0, 6.0, 4.0)
