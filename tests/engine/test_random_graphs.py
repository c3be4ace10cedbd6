"""What must hold on every random expression graph: the strategy's reach and the engine's rules.

The graphs come from ``graphs.py`` (over the operations of the op table,
``ops.py``); ``test_finite_differences.py`` and ``test_torch_parity.py``
check the same graphs against differences and PyTorch.
"""

from __future__ import annotations

import contextlib
import math
import types
from functools import cache
from typing import Any

import pytest
from graphs import (
    ALL_OPS,
    MAGNITUDE_LIMIT,
    ORIGINAL_OPS,
    SAME_GRAPH_OPS,
    Program,
    programs,
    run,
    run_engine,
)
from hypothesis import Phase, find, given, settings
from hypothesis.errors import NoSuchExample

from micrograd.engine import Value, topological_order

# -- the strategy itself -------------------------------------------------------------


# Finding one example is enough; shrinking it would only cost time.  What the strategy
# reaches does not depend on the Python, so every profile gets at least ci's 200 draws.
GENERATE_ONLY = settings(
    database=None, phases=[Phase.generate], max_examples=max(200, settings.default.max_examples)
)


def test_strategy_generates_graphs_that_reuse_a_node() -> None:
    example = find(programs(), lambda p: max(p.uses()) >= 3, settings=GENERATE_ONLY)
    assert max(example.uses()) >= 3


@cache
def ops_the_strategy_generates() -> frozenset[str]:
    """The ops in the graphs the strategy draws until it has drawn them all (one search).

    Hypothesis gives up after ``max_examples`` graphs; then the ops it had not
    drawn are missing.
    """
    seen: set[str] = set()

    def all_seen(program: Program) -> bool:
        seen.update(step.op for step in program.steps)
        return seen >= set(ALL_OPS)

    with contextlib.suppress(NoSuchExample):
        find(programs(), all_seen, settings=GENERATE_ONLY)
    return frozenset(seen)


@pytest.mark.parametrize("op", ALL_OPS)
def test_strategy_generates_every_op(op: str) -> None:
    assert op in ops_the_strategy_generates()


@given(programs())
def test_every_node_stays_finite_and_within_the_magnitude_limit(program: Program) -> None:
    _, nodes = run_engine(program)
    for node in nodes:
        assert math.isfinite(node.data), str(program)
        assert abs(node.data) <= MAGNITUDE_LIMIT, str(program)
        assert math.isfinite(node.grad), str(program)


# -- what the engine guarantees on any graph -----------------------------------------


@given(programs())
def test_topological_order_puts_every_node_after_its_inputs(program: Program) -> None:
    _, nodes = run_engine(program)
    root = nodes[-1]
    order = topological_order(root)
    position = {id(node): i for i, node in enumerate(order)}
    assert len(position) == len(order), "a node appears twice"
    assert order[-1] is root
    for node in order:
        for child in node._prev:
            assert position[id(child)] < position[id(node)]
    # every node the root depends on is there, and nothing else
    reachable: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) not in reachable:
            reachable.add(id(node))
            stack.extend(node._prev)
    assert set(position) == reachable


@given(programs())
def test_topological_order_is_the_same_for_two_builds_of_one_graph(program: Program) -> None:
    def shape(nodes: list[Value]) -> list[tuple[str, float]]:
        return [(node._op, node.data) for node in topological_order(nodes[-1])]

    first = shape(run(program, [Value(x) for x in program.leaves]))
    second = shape(run(program, [Value(x) for x in program.leaves]))
    assert first == second


@given(programs())
def test_leaves_the_output_does_not_depend_on_get_zero_gradient(program: Program) -> None:
    leaves, nodes = run_engine(program)
    reachable = {id(node) for node in topological_order(nodes[-1])}
    for leaf in leaves:
        if id(leaf) not in reachable:
            assert leaf.grad == 0.0


def on_both_engines(original: types.SimpleNamespace, program: Program) -> tuple[list[Any], ...]:
    """``program`` on our Values and on the original's: (our leaves, theirs, our root, theirs)."""
    ours = [Value(x) for x in program.leaves]
    theirs = [original.Value(x) for x in program.leaves]
    return ours, theirs, run(program, ours)[-1], run(program, theirs)[-1]


@given(programs(ops=ORIGINAL_OPS))
def test_random_graphs_give_the_original_engines_values_and_gradients(
    original: types.SimpleNamespace, program: Program
) -> None:
    ours, theirs, our_root, their_root = on_both_engines(original, program)
    assert our_root.data == pytest.approx(their_root.data, rel=1e-9, abs=1e-12), str(program)
    our_root.backward()
    their_root.backward()
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        assert a.grad == pytest.approx(b.grad, rel=1e-9, abs=1e-9), f"leaf x{i}\n{program}"


@given(programs(ops=SAME_GRAPH_OPS))
def test_a_second_backward_accumulates_exactly_like_the_originals(
    original: types.SimpleNamespace, program: Program
) -> None:
    # Gradients accumulate with `+=`, and a second backward() re-seeds only the
    # output, so the grads that intermediate nodes kept from the first call flow
    # again.  On graphs that both engines build node for node the same, the
    # leaf gradients after two calls must be the original's.
    ours, theirs, our_root, their_root = on_both_engines(original, program)
    for call in (1, 2):
        our_root.backward()
        their_root.backward()
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            assert a.grad == pytest.approx(b.grad, rel=1e-9, abs=1e-9), (
                f"backward call {call}, leaf x{i}\n{program}"
            )
