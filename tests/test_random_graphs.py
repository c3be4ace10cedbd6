"""Random expression graphs: the Hypothesis strategy, and what must hold on every graph it builds.

A *program* is a list of steps over a few leaves.  Step ``k`` makes node
``n_leaves + k`` from earlier nodes (any earlier node, so sub-expressions are
reused: a node can feed several later ones).  The same program can be run on
:class:`micrograd.engine.Value` leaves or on ``torch`` float64 tensors, since both
support the operators and the ``.relu() .tanh() .exp() .log() .sigmoid()`` methods;
``test_torch_parity.py`` and ``test_finite_differences.py`` import the strategy
from here.

Domains are guarded by construction, never by filtering: ``log`` only sees
``a*a + 1``, a division's denominator is ``b*b + c`` with ``c >= 0.5`` or a
constant away from 0, a fractional or negative power has base ``a*a + 1``, a
bare ``exp`` is only used when its input is known to be small, and otherwise
``exp`` is applied to ``tanh(a)``.  Every node carries an upper bound on its
magnitude; a step that could exceed ``MAGNITUDE_LIMIT`` becomes ``tanh``.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st

from micrograd.engine import Value, topological_order

LEAF_BOUND = 3.0
MAGNITUDE_LIMIT = 1e4

leaf_values = st.floats(min_value=-LEAF_BOUND, max_value=LEAF_BOUND, allow_nan=False)
# Constants for reflected / constant forms, and denominators bounded away from 0.
constants = st.floats(min_value=-4.0, max_value=4.0, allow_nan=False)
positive_offsets = st.floats(min_value=0.5, max_value=2.0)
nonzero_constants = st.builds(
    lambda sign, size: sign * size, st.sampled_from([-1.0, 1.0]), st.floats(0.5, 4.0)
)
int_exponents = st.sampled_from([1, 2, 3])
# Exponents for a base a*a + 1 >= 1: negative, fractional, int and float.
safe_exponents = st.sampled_from([-2, -1, -1.5, -0.5, 0.5, 1.5, 2.0, 2.5, 3])


@dataclass(frozen=True)
class Step:
    """One operation: ``op`` applied to earlier nodes ``args`` (and a constant)."""

    op: str
    args: tuple[int, ...]
    const: float = 0.0


@dataclass(frozen=True)
class Program:
    """Leaves plus steps; the last step's node is the output."""

    leaves: tuple[float, ...]
    steps: tuple[Step, ...]

    def expressions(self) -> list[str]:
        """A readable formula for every node, for failure messages."""
        names = [f"x{i}" for i in range(len(self.leaves))]
        for step in self.steps:
            names.append(OPS[step.op].show([names[i] for i in step.args], step.const))
        return names

    def __str__(self) -> str:
        lines = [f"x{i} = {x!r}" for i, x in enumerate(self.leaves)]
        exprs = self.expressions()
        n = len(self.leaves)
        lines += [f"n{n + k} = {exprs[n + k]}" for k in range(len(self.steps))]
        return "\n".join(lines)

    def uses(self) -> list[int]:
        """How many steps read each node."""
        counts = [0] * (len(self.leaves) + len(self.steps))
        for step in self.steps:
            for i in step.args:
                counts[i] += 1
        return counts


@dataclass(frozen=True)
class OpSpec:
    """How to build an op on any backend, bound its output, and print it."""

    arity: int
    build: Callable[[Sequence[Any], float], Any]
    bound: Callable[[Sequence[float], float], float]
    show: Callable[[Sequence[str], float], str]
    const: st.SearchStrategy[Any] | None = None
    smooth: bool = True
    original: bool = True  # expressible in the original micrograd (no tanh/exp/log/sigmoid)
    # The original builds `a - b`, `c - a` and `a / b` from extra nodes (`a + (b * -1)`,
    # `a * b**-1`); their intermediate grads make a *second* backward() differ.
    same_graph_in_original: bool = True


def _exp_bound(b: float) -> float:
    return math.exp(b) if b < 700 else math.inf


OPS: dict[str, OpSpec] = {
    "add": OpSpec(
        2, lambda x, c: x[0] + x[1], lambda b, c: b[0] + b[1], lambda s, c: f"({s[0]} + {s[1]})"
    ),
    "sub": OpSpec(
        2,
        lambda x, c: x[0] - x[1],
        lambda b, c: b[0] + b[1],
        lambda s, c: f"({s[0]} - {s[1]})",
        same_graph_in_original=False,
    ),
    "mul": OpSpec(
        2, lambda x, c: x[0] * x[1], lambda b, c: b[0] * b[1], lambda s, c: f"({s[0]} * {s[1]})"
    ),
    "div": OpSpec(
        2,
        lambda x, c: x[0] / (x[1] * x[1] + c),
        lambda b, c: b[0] / c,
        lambda s, c: f"({s[0]} / ({s[1]} * {s[1]} + {c!r}))",
        positive_offsets,
        same_graph_in_original=False,
    ),
    "neg": OpSpec(1, lambda x, c: -x[0], lambda b, c: b[0], lambda s, c: f"(-{s[0]})"),
    "radd": OpSpec(
        1,
        lambda x, c: c + x[0],
        lambda b, c: abs(c) + b[0],
        lambda s, c: f"({c!r} + {s[0]})",
        constants,
    ),
    "rsub": OpSpec(
        1,
        lambda x, c: c - x[0],
        lambda b, c: abs(c) + b[0],
        lambda s, c: f"({c!r} - {s[0]})",
        constants,
        same_graph_in_original=False,
    ),
    "rmul": OpSpec(
        1,
        lambda x, c: c * x[0],
        lambda b, c: abs(c) * b[0],
        lambda s, c: f"({c!r} * {s[0]})",
        constants,
    ),
    "rdiv": OpSpec(
        1,
        lambda x, c: c / (x[0] * x[0] + 1.0),
        lambda b, c: abs(c),
        lambda s, c: f"({c!r} / ({s[0]} * {s[0]} + 1.0))",
        constants,
        same_graph_in_original=False,
    ),
    "add_const": OpSpec(
        1,
        lambda x, c: x[0] + c,
        lambda b, c: b[0] + abs(c),
        lambda s, c: f"({s[0]} + {c!r})",
        constants,
    ),
    "sub_const": OpSpec(
        1,
        lambda x, c: x[0] - c,
        lambda b, c: b[0] + abs(c),
        lambda s, c: f"({s[0]} - {c!r})",
        constants,
    ),
    "mul_const": OpSpec(
        1,
        lambda x, c: x[0] * c,
        lambda b, c: b[0] * abs(c),
        lambda s, c: f"({s[0]} * {c!r})",
        constants,
    ),
    "div_const": OpSpec(
        1,
        lambda x, c: x[0] / c,
        lambda b, c: b[0] / abs(c),
        lambda s, c: f"({s[0]} / {c!r})",
        nonzero_constants,
    ),
    "pow_int": OpSpec(
        1,
        lambda x, c: x[0] ** c,
        lambda b, c: b[0] ** c,
        lambda s, c: f"({s[0]} ** {c!r})",
        int_exponents,
    ),
    "pow_safe": OpSpec(
        1,
        lambda x, c: (x[0] * x[0] + 1.0) ** c,
        lambda b, c: (b[0] * b[0] + 1.0) ** c if c > 0 else 1.0,
        lambda s, c: f"(({s[0]} * {s[0]} + 1.0) ** {c!r})",
        safe_exponents,
    ),
    "relu": OpSpec(
        1, lambda x, c: x[0].relu(), lambda b, c: b[0], lambda s, c: f"relu({s[0]})", smooth=False
    ),
    "tanh": OpSpec(
        1, lambda x, c: x[0].tanh(), lambda b, c: 1.0, lambda s, c: f"tanh({s[0]})", original=False
    ),
    "sigmoid": OpSpec(
        1,
        lambda x, c: x[0].sigmoid(),
        lambda b, c: 1.0,
        lambda s, c: f"sigmoid({s[0]})",
        original=False,
    ),
    "exp": OpSpec(
        1,
        lambda x, c: x[0].exp(),
        lambda b, c: _exp_bound(b[0]),
        lambda s, c: f"exp({s[0]})",
        original=False,
    ),
    "exp_tanh": OpSpec(
        1,
        lambda x, c: x[0].tanh().exp(),
        lambda b, c: math.e,
        lambda s, c: f"exp(tanh({s[0]}))",
        original=False,
    ),
    "log": OpSpec(
        1,
        lambda x, c: (x[0] * x[0] + 1.0).log(),
        lambda b, c: math.log(b[0] * b[0] + 1.0),
        lambda s, c: f"log({s[0]} * {s[0]} + 1.0)",
        original=False,
    ),
}

ALL_OPS = sorted(OPS)
SMOOTH_OPS = sorted(name for name, spec in OPS.items() if spec.smooth)
ORIGINAL_OPS = sorted(name for name, spec in OPS.items() if spec.original)
SAME_GRAPH_OPS = sorted(n for n in ORIGINAL_OPS if OPS[n].same_graph_in_original)


@st.composite
def programs(
    draw: st.DrawFn,
    *,
    ops: Sequence[str] = ALL_OPS,
    max_leaves: int = 4,
    max_steps: int = 12,
) -> Program:
    """A random program over 1..max_leaves leaves with 1..max_steps steps drawn from ``ops``."""
    fallback = "tanh" if "tanh" in ops else "pow_safe"
    leaves = tuple(draw(st.lists(leaf_values, min_size=1, max_size=max_leaves)))
    bounds = [LEAF_BOUND] * len(leaves)
    steps: list[Step] = []
    for _ in range(draw(st.integers(1, max_steps))):
        op = draw(st.sampled_from(ops))
        spec = OPS[op]
        newest = len(bounds) - 1
        # The first operand is often the newest node (deep graphs); any node can be reused.
        args = (draw(st.one_of(st.just(newest), st.integers(0, newest))),)
        args += tuple(draw(st.integers(0, newest)) for _ in range(spec.arity - 1))
        const = draw(spec.const) if spec.const is not None else 0.0
        bound = spec.bound([bounds[i] for i in args], const)
        if not bound <= MAGNITUDE_LIMIT:  # squash instead: tanh(a), or 1 / (a*a + 1)
            op, args, bound = fallback, args[:1], 1.0
            const = 0.0 if fallback == "tanh" else -1
        steps.append(Step(op, args, const))
        bounds.append(bound)
    return Program(leaves, tuple(steps))


def run(program: Program, leaves: Sequence[Any]) -> list[Any]:
    """Every node of ``program`` built on the given leaf objects (Values or tensors)."""
    nodes = list(leaves)
    for step in program.steps:
        nodes.append(OPS[step.op].build([nodes[i] for i in step.args], step.const))
    return nodes


def run_engine(program: Program) -> tuple[list[Value], list[Value]]:
    """Build ``program`` on fresh Value leaves, backpropagate from the output; (leaves, nodes)."""
    leaves = [Value(x) for x in program.leaves]
    nodes = run(program, leaves)
    nodes[-1].backward()
    return leaves, nodes


def forward_value(program: Program, leaves: Sequence[float]) -> float:
    """The output of ``program`` at the given leaf values (forward pass only)."""
    return float(run(program, [Value(x) for x in leaves])[-1].data)


# -- the strategy itself -------------------------------------------------------------


# Finding one example is enough; shrinking it would only cost time.
GENERATE_ONLY = settings(database=None, phases=[Phase.generate])


def test_strategy_generates_graphs_that_reuse_a_node() -> None:
    example = find(programs(), lambda p: max(p.uses()) >= 3, settings=GENERATE_ONLY)
    assert max(example.uses()) >= 3


@pytest.mark.parametrize("op", ALL_OPS)
def test_strategy_generates_every_op(op: str) -> None:
    example = find(
        programs(),
        lambda p: any(s.op == op for s in p.steps),
        settings=GENERATE_ONLY,
    )
    assert any(s.op == op for s in example.steps)


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


@given(programs(ops=ORIGINAL_OPS))
def test_random_graphs_give_the_original_engines_values_and_gradients(
    original: types.SimpleNamespace, program: Program
) -> None:
    ours = [Value(x) for x in program.leaves]
    theirs = [original.Value(x) for x in program.leaves]
    our_root = run(program, ours)[-1]
    their_root = run(program, theirs)[-1]
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
    ours = [Value(x) for x in program.leaves]
    theirs = [original.Value(x) for x in program.leaves]
    our_root = run(program, ours)[-1]
    their_root = run(program, theirs)[-1]
    for call in (1, 2):
        our_root.backward()
        their_root.backward()
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            assert a.grad == pytest.approx(b.grad, rel=1e-9, abs=1e-9), (
                f"backward call {call}, leaf x{i}\n{program}"
            )
