"""``Value.backward()``: seed, order, each rule once, accumulation, graphs of any depth."""

from __future__ import annotations

import gc
import math
import sys
import textwrap
import types

import pytest
from scripts import run_python

import micrograd.collector
import micrograd.engine
from micrograd.collector import paused_gc
from micrograd.engine import Value, topological_order
from micrograd.nn import Neuron


def counted(x: Value, calls: list[str]) -> Value:
    """``2 * x`` as a custom op (defined the original's way) that records each backward call."""
    out = Value(2 * x.data, (x,), "twice")

    def _backward() -> None:
        calls.append("twice")
        x.grad += 2 * out.grad

    out._backward = _backward
    return out


# -- the seed -----------------------------------------------------------------------------


def test_backward_seeds_the_output_gradient_with_one() -> None:
    a = Value(3.0)
    out = a * 5
    out.backward()
    assert out.grad == 1.0
    assert type(out.grad) is float


def test_backward_reseeds_the_output_even_if_its_grad_was_set() -> None:
    a = Value(3.0)
    out = a * 5
    out.grad = 42.0
    out.backward()
    assert out.grad == 1.0
    assert a.grad == 5.0


def test_backward_on_a_leaf_sets_its_gradient_to_one() -> None:
    a = Value(7.0)
    a.backward()
    assert a.grad == 1.0


# -- the order ----------------------------------------------------------------------------


def test_topological_order_lists_inputs_first_in_operand_order_and_the_root_last() -> None:
    a, b = Value(2.0, label="a"), Value(3.0, label="b")
    c = a * b
    c.label = "c"
    d = c + a
    d.label = "d"
    e = d.tanh()
    e.label = "e"
    order = topological_order(e)
    # depth first from the root, each node's inputs in operand order, each node once
    assert [n.label for n in order] == ["a", "b", "c", "d", "e"]


def test_topological_order_of_a_leaf_is_just_the_leaf() -> None:
    a = Value(1.0)
    assert topological_order(a) == [a]


def test_topological_order_lists_a_node_used_many_times_once() -> None:
    a = Value(2.0)
    b = a * a
    c = b + b
    d = c * a + b
    order = topological_order(d)
    assert len(order) == len({id(n) for n in order}) == 5  # a, b, c, c * a, d
    assert order[0] is a
    assert order[-1] is d


ORDER_SCRIPT = textwrap.dedent(
    """
    import random
    from micrograd.engine import Value, topological_order

    random.seed(0)
    leaves = [Value(random.uniform(-1, 1), label=f"x{i}") for i in range(6)]
    nodes = list(leaves)
    for k in range(300):
        a, b = random.choice(nodes), random.choice(nodes)
        n = random.choice([a + b, a * b, a - b, (a * a + 1).log(), a.tanh(), b.relu()])
        n.label = f"n{k}"
        nodes.append(n)
    root = sum(nodes[-20:])
    print(" ".join(n.label or n._op for n in topological_order(root)))
    """
)


def test_topological_order_is_the_same_in_every_process() -> None:
    # Values hash by identity (memory address); the order must not depend on it.
    outputs = set()
    for seed in ("0", "1", "random"):
        outputs.add(run_python("-c", ORDER_SCRIPT, env={"PYTHONHASHSEED": seed}).stdout)
    assert len(outputs) == 1
    assert len(outputs.pop().split()) > 100


def test_each_backward_rule_runs_once_even_for_a_node_used_many_times() -> None:
    calls: list[str] = []
    x = Value(1.5)
    t = counted(x, calls)
    y = t * t + t + t.tanh() + 3 * t
    y.backward()
    assert calls == ["twice"]
    # dy/dt = 2t + 1 + (1 - tanh(t)^2) + 3, and dt/dx = 2
    t0 = 2 * 1.5
    assert x.grad == pytest.approx(2 * (2 * t0 + 1 + (1 - math.tanh(t0) ** 2) + 3), rel=1e-14)


def test_a_node_passes_its_gradient_on_only_after_receiving_all_of_it() -> None:
    seen: list[float] = []
    x = Value(0.5)
    s = Value(x.data, (x,), "spy")

    def _backward() -> None:
        seen.append(s.grad)
        x.grad += s.grad

    s._backward = _backward
    # s reaches the output through three paths of different length
    y = s * 2 + (s * 3).relu() + ((s + 1) * 4).tanh()
    y.backward()
    expected = 2 + 3 + 4 * (1 - math.tanh(4 * 1.5) ** 2)
    assert seen == [pytest.approx(expected, rel=1e-14)]
    assert x.grad == pytest.approx(expected, rel=1e-14)


# -- accumulation -------------------------------------------------------------------------


def test_a_value_used_twice_gets_both_contributions() -> None:
    a = Value(3.0)
    b = a + a
    b.backward()
    assert a.grad == 2.0
    c = Value(3.0)
    (c * c).backward()
    assert c.grad == 6.0


def test_calling_backward_twice_doubles_the_leaf_gradients_of_one_operation() -> None:
    a, b = Value(3.0), Value(-2.0)
    out = a * b
    out.backward()
    first = (a.grad, b.grad)
    out.backward()
    assert (a.grad, b.grad) == (2 * first[0], 2 * first[1])


def test_calling_backward_twice_accumulates_intermediate_gradients_like_the_original(
    original: types.SimpleNamespace,
) -> None:
    # y = (x * 2) * 3.  Call 1: t = x*2 gets 3, x gets 2*3 = 6.  Call 2 re-seeds
    # only y: t accumulates to 6 and passes 2*6 = 12 more to x: 6 + 12 = 18.
    x = Value(1.0)
    y = (x * 2) * 3
    y.backward()
    assert x.grad == 6.0
    y.backward()
    assert x.grad == 18.0
    ox = original.Value(1.0)
    oy = (ox * 2) * 3
    oy.backward()
    oy.backward()
    assert x.grad == ox.grad


def test_gradients_from_two_outputs_add_up() -> None:
    a = Value(2.0)
    (a * 3).backward()
    (a**2).backward()
    assert a.grad == 3.0 + 4.0


def test_zero_grad_resets_parameters_so_the_next_backward_starts_fresh() -> None:
    import random

    random.seed(7)
    n = Neuron(3, activation="tanh")
    x = [0.5, -1.0, 2.0]
    n(x).backward()
    first = [p.grad for p in n.parameters()]
    assert any(g != 0.0 for g in first)
    n(x).backward()
    assert [p.grad for p in n.parameters()] == [2 * g for g in first]
    n.zero_grad()
    assert all(p.grad == 0.0 for p in n.parameters())
    n(x).backward()
    assert [p.grad for p in n.parameters()] == first


# -- the collector ------------------------------------------------------------------------


@pytest.mark.parametrize("enabled", [True, False])
def test_backward_leaves_the_garbage_collector_as_it_found_it(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        a = Value(2.0)
        (a * a).backward()
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_paused_gc_restores_the_collector_when_the_block_raises() -> None:
    inside: list[bool] = []

    def fail_while_paused() -> None:
        with paused_gc():
            inside.append(gc.isenabled())
            raise RuntimeError("boom")

    assert gc.isenabled()
    with pytest.raises(RuntimeError, match="boom"):
        fail_while_paused()
    assert inside == [False]
    assert gc.isenabled()


def test_paused_gc_lives_in_the_collector_module_only() -> None:
    # The engine is about autodiff: it neither defines nor re-exports the collector's pause.
    assert not hasattr(micrograd.engine, "paused_gc")
    with pytest.raises(ImportError, match="paused_gc"):
        from micrograd.engine import paused_gc  # noqa: F401
    assert micrograd.paused_gc is micrograd.collector.paused_gc


def test_paused_gc_nests() -> None:
    assert gc.isenabled()
    with paused_gc():
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


# -- depth ----------------------------------------------------------------------------------


# Coverage tracing would make this test four times slower and adds no coverage.
@pytest.mark.no_cover
@pytest.mark.slow
def test_a_million_deep_chain_backpropagates_without_recursion_and_can_be_dropped() -> None:
    limit = sys.getrecursionlimit()
    x = Value(0.0)
    v = x
    for _ in range(1_000_000):
        v = v + 1
    assert v.data == 1_000_000.0
    v.backward()  # a recursive topological sort would raise RecursionError here
    assert x.grad == 1.0
    assert v.grad == 1.0
    assert sys.getrecursionlimit() == limit
    del v  # freeing a million nested nodes must not overflow the C stack
    gc.collect()
    assert x.grad == 1.0


def test_a_deep_multiplicative_chain_gets_the_product_of_its_factors() -> None:
    x = Value(1.0)
    v = x
    for _ in range(100_000):
        v = v * 1.0000001
    v.backward()
    expected = 1.0000001**100_000
    assert v.data == pytest.approx(expected, rel=1e-10)
    assert x.grad == pytest.approx(expected, rel=1e-10)


RECURSION_LIMIT_SCRIPT = textwrap.dedent(
    """
    import sys
    default = sys.getrecursionlimit()
    from micrograd.engine import Value, topological_order
    import micrograd.nn
    x = Value(0.0)
    v = x
    for _ in range(20 * default):
        v = v * 1.0 + 1
    v.backward()
    assert len(topological_order(v)) > 20 * default
    print(default, sys.getrecursionlimit(), x.grad)
    """
)


def test_the_engine_never_raises_the_recursion_limit_in_a_fresh_interpreter() -> None:
    default, after, grad = run_python("-c", RECURSION_LIMIT_SCRIPT).stdout.split()
    assert after == default
    assert float(grad) == 1.0
