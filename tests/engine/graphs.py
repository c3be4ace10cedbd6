"""Random expression graphs over the operations of ``ops.py``: a Hypothesis strategy and runners.

A *program* is a list of steps over a few leaves.  Step ``k`` makes node
``n_leaves + k`` by applying one operation of :data:`ops.OPS` to earlier nodes
(any earlier node, so sub-expressions are reused: a node can feed several
later ones).  The same program runs on :class:`micrograd.engine.Value` leaves,
on the original micrograd's, or on ``torch`` float64 tensors
(:meth:`ops.Op.on_torch`).

Domains are kept by construction, never by filtering: an input that an
operation wants away from 0 (a denominator) or above 0 (``log``, a fractional
power) is ``x * x + 0.5``.  While drawing, the strategy computes every node's
value with plain floats; a step whose value would not be finite or would
exceed ``MAGNITUDE_LIMIT`` becomes ``tanh`` (or ``1 / (x * x + 0.5)`` where
``tanh`` is not among the operations) instead.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st
from ops import BY_NAME, OPS, REAL, Op

from micrograd.engine import Value

LEAF_BOUND = 3.0
MAGNITUDE_LIMIT = 1e4

ALL_OPS = [op.name for op in OPS]
#: Without kinks: where a difference quotient is a derivative everywhere.
SMOOTH_OPS = [op.name for op in OPS if not op.kinks]
ORIGINAL_OPS = [op.name for op in OPS if op.in_original]
SAME_GRAPH_OPS = [name for name in ORIGINAL_OPS if BY_NAME[name].same_graph_in_original]

leaf_values = st.floats(min_value=-LEAF_BOUND, max_value=LEAF_BOUND, allow_nan=False)


@dataclass(frozen=True)
class Step:
    """One operation (a name of ``ops.BY_NAME``) applied to earlier nodes ``args``."""

    op: str
    args: tuple[int, ...]


@dataclass(frozen=True)
class Program:
    """Leaves plus steps; the last step's node is the output."""

    leaves: tuple[float, ...]
    steps: tuple[Step, ...]

    def expressions(self) -> list[str]:
        """A readable formula for every node, for failure messages."""
        names = [f"x{i}" for i in range(len(self.leaves))]
        for step in self.steps:
            names.append(_show(BY_NAME[step.op], [names[i] for i in step.args]))
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


def _guarded(op: Op, inputs: Sequence[Any]) -> list[Any]:
    """The inputs, each kept in its domain: ``x * x + 0.5`` where it must not be any number."""
    return [
        x if d == REAL else _square_plus_half(x) for x, d in zip(inputs, op.domains, strict=True)
    ]


def _square_plus_half(x: Any) -> Any:
    return f"({x} * {x} + 0.5)" if isinstance(x, str) else x * x + 0.5


def _show(op: Op, names: Sequence[str]) -> str:
    shown = _guarded(op, names)
    return "(" + re.sub(r"\b[ab]\b", lambda m: shown["ab".index(m[0])], op.name) + ")"


def _value(op: Op, inputs: Sequence[float]) -> float:
    """The step's value in plain floats; infinity where it overflows."""
    try:
        return float(op.expected(*_guarded(op, inputs)))
    except OverflowError:
        return math.inf


@st.composite
def programs(
    draw: st.DrawFn,
    *,
    ops: Sequence[str] = ALL_OPS,
    max_leaves: int = 4,
    max_steps: int = 12,
) -> Program:
    """A random program over 1..max_leaves leaves with 1..max_steps steps drawn from ``ops``."""
    fallback = "tanh(a)" if "tanh(a)" in ops else "a ** -1"
    leaves = tuple(draw(st.lists(leaf_values, min_size=1, max_size=max_leaves)))
    values = list(leaves)
    steps: list[Step] = []
    for _ in range(draw(st.integers(1, max_steps))):
        op = BY_NAME[draw(st.sampled_from(ops))]
        newest = len(values) - 1
        # The first operand is often the newest node (deep graphs); any node can be reused.
        args = (draw(st.one_of(st.just(newest), st.integers(0, newest))),)
        args += tuple(draw(st.integers(0, newest)) for _ in range(op.arity - 1))
        value = _value(op, [values[i] for i in args])
        if not abs(value) <= MAGNITUDE_LIMIT:  # squash instead
            op, args = BY_NAME[fallback], args[:1]
            value = _value(op, [values[args[0]]])
        steps.append(Step(op.name, args))
        values.append(value)
    return Program(leaves, tuple(steps))


def run(program: Program, leaves: Sequence[Any], *, torch: bool = False) -> list[Any]:
    """Every node of ``program`` built on the given leaf objects (Values, or tensors with torch)."""
    nodes = list(leaves)
    for step in program.steps:
        op = BY_NAME[step.op]
        inputs = _guarded(op, [nodes[i] for i in step.args])
        nodes.append(op.on_torch(*inputs) if torch else op.build(*inputs))
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
