"""Code written for the original micrograd (and Karpathy's lecture) runs unchanged."""

from __future__ import annotations

import math

import pytest
from labelled_neuron import NeuronBuilder

import micrograd
from micrograd.engine import Value, topological_order
from micrograd.nn import MLP, Layer, Neuron


def test_the_original_import_paths_work() -> None:
    from micrograd.engine import Value as EngineValue
    from micrograd.nn import MLP as NnMLP
    from micrograd.nn import Layer as NnLayer
    from micrograd.nn import Module as NnModule
    from micrograd.nn import Neuron as NnNeuron

    assert EngineValue is micrograd.Value is Value
    assert (NnMLP, NnLayer, NnNeuron) == (MLP, Layer, Neuron)
    assert issubclass(NnMLP, NnModule)


# -- a custom operation, defined the original way ------------------------------------


def sin(self: Value) -> Value:
    """The original's recipe: a new Value with its children and op, and a closure."""
    out = Value(math.sin(self.data), (self,), "sin")

    def _backward() -> None:
        self.grad += math.cos(self.data) * out.grad

    out._backward = _backward
    return out


def hypot(a: Value, b: Value) -> Value:
    """A two-input custom op: sqrt(a**2 + b**2)."""
    out = Value(math.hypot(a.data, b.data), (a, b), "hypot")

    def _backward() -> None:
        a.grad += a.data / out.data * out.grad
        b.grad += b.data / out.data * out.grad

    out._backward = _backward
    return out


def test_a_custom_op_defined_with_a_closure_takes_part_in_backward() -> None:
    x = Value(0.7)
    y = (sin(x) * x + 1).tanh()
    assert y._prev[0]._prev[0]._prev[0]._op == "sin"
    y.backward()
    # y = tanh(x sin x + 1): dy/dx = (1 - y^2) (sin x + x cos x)
    t = math.tanh(0.7 * math.sin(0.7) + 1)
    expected = (1 - t**2) * (math.sin(0.7) + 0.7 * math.cos(0.7))
    assert y.data == pytest.approx(t, rel=1e-15)
    assert x.grad == pytest.approx(expected, rel=1e-14)


def test_a_custom_op_can_be_added_to_the_class(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Value, "sin", sin, raising=False)
    x = Value(1.2)
    y = x.sin() * 2  # type: ignore[attr-defined]
    y.backward()
    assert x.grad == pytest.approx(2 * math.cos(1.2), rel=1e-15)


def test_a_two_input_custom_op_used_twice_accumulates_both_paths() -> None:
    a, b = Value(3.0), Value(4.0)
    h = hypot(a, b)
    y = h * h + h
    assert h._prev == (a, b)
    y.backward()
    # dy/dh = 2h + 1 = 11, dh/da = 3/5, dh/db = 4/5
    assert a.grad == pytest.approx(11 * 3 / 5, rel=1e-15)
    assert b.grad == pytest.approx(11 * 4 / 5, rel=1e-15)


def test_a_node_made_with_children_but_no_backward_rule_passes_nothing_on() -> None:
    # the original's default _backward is `lambda: None`
    a = Value(2.0)
    out = Value(5.0, (a,), "opaque")
    (out * 3).backward()
    assert out.grad == 3.0
    assert a.grad == 0.0
    out._backward()  # callable, and does nothing


# -- backprop by hand, as in the lecture ---------------------------------------------


def test_the_lecture_neuron_has_the_lecture_gradients(neuron: NeuronBuilder) -> None:
    lecture = neuron(backward=True)
    x1, x2, w1, w2, o = lecture.x1, lecture.x2, lecture.w1, lecture.w2, lecture.o
    assert o.data == pytest.approx(math.sqrt(0.5), rel=1e-12)
    assert x1.grad == pytest.approx(-1.5, rel=1e-9)
    assert w1.grad == pytest.approx(1.0, rel=1e-9)
    assert x2.grad == pytest.approx(0.5, rel=1e-9)
    assert w2.grad == 0.0


def test_calling_backward_node_by_node_with_the_lectures_build_topo_matches_backward(
    neuron: NeuronBuilder,
) -> None:
    lecture = neuron()
    leaves, o = lecture.leaves, lecture.o
    topo: list[Value] = []
    visited = set()

    def build_topo(v: Value) -> None:
        if v not in visited:
            visited.add(v)
            for child in v._prev:
                build_topo(child)
            topo.append(v)

    build_topo(o)
    o.grad = 1.0
    for node in reversed(topo):
        node._backward()

    twin = neuron(backward=True)
    assert [v.grad for v in leaves] == [v.grad for v in twin.leaves]
    assert [v.label for v in topo] == [v.label for v in topological_order(twin.o)]


def test_calling_backward_by_hand_one_node_at_a_time_matches_backward(
    neuron: NeuronBuilder,
) -> None:
    lecture = neuron()
    x1, x2, w1, w2, b = lecture.leaves
    o = lecture.o
    n = o._prev[0]
    x1w1x2w2 = n._prev[0]
    x1w1, x2w2 = x1w1x2w2._prev
    o.grad = 1.0
    o._backward()
    assert n.grad == pytest.approx(1 - o.data**2)
    n._backward()
    assert b.grad == x1w1x2w2.grad == n.grad
    x1w1x2w2._backward()
    x1w1._backward()
    x2w2._backward()
    got = [x1.grad, x2.grad, w1.grad, w2.grad, b.grad]
    assert got == [v.grad for v in neuron(backward=True).leaves]


def test_the_lectures_trace_function_walks_the_graph(neuron: NeuronBuilder) -> None:
    o = neuron().o
    nodes, edges = set(), set()

    def build(v: Value) -> None:
        if v not in nodes:
            nodes.add(v)
            for child in v._prev:
                edges.add((child, v))
                build(child)

    build(o)
    assert len(nodes) == 10
    assert len(edges) == 9
    assert {v._op for v in nodes} == {"", "*", "+", "tanh"}


# -- the original's training idioms ---------------------------------------------------


def test_the_original_training_loop_idioms_work() -> None:
    import random

    random.seed(0)
    model = MLP(3, [4, 4, 1])
    xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    ys = [1.0, -1.0, -1.0, 1.0]
    first = None
    for _ in range(10):
        ypred = [model(x) for x in xs]
        loss = sum((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred, strict=True))
        for p in model.parameters():
            p.grad = 0  # the original resets with an int
        loss.backward()
        for p in model.parameters():
            p.data += -0.05 * p.grad
        first = loss.data if first is None else first
    assert loss.data < first
