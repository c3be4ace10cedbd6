"""Cases on the reader's ``Value``: a few lines run with it and with micrograd's, results compared.

An :class:`EngineCase` is code that makes some leaves, builds a graph on them
and does something with it (``c._backward()``, ``L.backward()``).  It runs
twice, in a scratch copy of the reader's namespace and with micrograd's
``Value`` in its place, and then each observed expression (``a.grad``,
``c.data``, the inputs ``c._prev`` holds) must agree.  Where the case names
its output, a failing gradient of a leaf is also set against a central
difference of that output, computed with micrograd.
"""

from __future__ import annotations

import builtins
import random
from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import micrograd
from book_runtime.checks.core import Failure
from book_runtime.checks.core import Namespace
from book_runtime.checks.core import defined
from book_runtime.checks.core import evaluate
from book_runtime.checks.core import locate
from book_runtime.checks.core import probe
from book_runtime.checks.core import probe_error
from book_runtime.checks.core import reader_scope
from book_runtime.checks.core import run_code
from book_runtime.checks.core import same
from book_runtime.checks.core import show

#: The step of a central difference.
STEP = 1e-6


@dataclass(frozen=True)
class Look:
    """One thing a case compares: an expression, how to read it, and why the number is right.

    ``kind`` is ``"value"`` (the expression's value) or ``"inputs"`` (the
    inputs the node ``expression`` records in ``_prev``, by name, as a set).
    """

    expression: str
    because: str = ""
    kind: str = "value"


@dataclass(frozen=True)
class EngineCase:
    """A case on the reader's ``Value`` (see the module's docstring)."""

    title: str
    leaves: tuple[tuple[str, float], ...]
    body: str
    action: str
    looks: tuple[Look, ...]
    root: str | None = None
    needs: str | None = None

    @property
    def code(self) -> str:
        return "\n".join([*self._leaf_lines(dict(self.leaves)), self.body, self.action]).strip()

    def _leaf_lines(self, leaves: dict[str, float]) -> list[str]:
        return [f"{name} = Value({value!r})" for name, value in leaves.items()]

    def run(self, namespace: Namespace) -> str | None:
        mine = run_code(self.code, reader_scope(namespace))
        theirs = run_code(self.code, micrograd_scope())
        for look in self.looks:
            got, want = read(look, mine), read(look, theirs)
            if not same(got, want):
                return self.failure(look, got, want)
        return None

    def failure(self, look: Look, got: Any, want: Any) -> str:
        """The message for a look that differs: the operation, the input, got against expected."""
        label = f"{look.expression}._prev" if look.kind == "inputs" else look.expression
        message = f"{self.title} gave {label} = {show(got, want)}; expected {show(want, got)}"
        if look.because:
            message += f" ({look.because})"
        slope = self.central_difference(look.expression)
        if slope is not None:
            message += f"; a central difference gives {slope:.6f}"
        return message + "."

    def central_difference(self, expression: str) -> float | None:
        """d root / d leaf by a central difference (micrograd), for a look at a leaf's grad."""
        name = expression.removesuffix(".grad")
        leaves, root = dict(self.leaves), self.root
        if root is None or name == expression or name not in leaves:
            return None

        def root_at(value: float) -> float:
            nudged = {**leaves, name: value}
            code = "\n".join([*self._leaf_lines(nudged), self.body])
            return float(run_code(code, micrograd_scope())[root].data)

        x = leaves[name]
        return (root_at(x + STEP) - root_at(x - STEP)) / (2 * STEP)


def micrograd_scope() -> dict[str, Any]:
    """A fresh scope where ``Value`` is micrograd's: the reference run of a case."""
    return {"__builtins__": builtins, "Value": micrograd.Value}


def read(look: Look, scope: dict[str, Any]) -> Any:
    """What ``look`` sees in ``scope``."""
    value = evaluate(look.expression, scope)
    if look.kind == "inputs":
        return inputs_of(value, scope)
    if look.kind != "value":
        raise ValueError(f"a Look's kind is 'value' or 'inputs', not {look.kind!r}")
    return value


def inputs_of(node: Any, scope: dict[str, Any]) -> list[str]:
    """The inputs ``node._prev`` records, as a sorted set of names: ``a``, or ``Value(1.5)``.

    A set, because the original keeps ``_prev`` as a set (``a + a`` records
    ``a`` once) and a tuple is as good; a Value that no name of the case
    holds is shown by its number, and anything that is not a Value as itself.
    """
    value_type = scope["Value"]
    names = {id(v): k for k, v in scope.items() if isinstance(v, value_type)}
    seen: dict[int, str] = {}
    for item in node._prev:
        if id(item) in names:
            seen[id(item)] = names[id(item)]
        elif isinstance(item, value_type):
            seen[id(item)] = f"Value({_as_number(item.data)})"
        else:
            seen[id(item)] = f"{item!r} (not a Value)"
    return sorted(seen.values())


def _as_number(x: Any) -> str:
    """A Value's number as a float's repr (``Value(2)`` and ``Value(2.0)`` are the same input)."""
    try:
        return repr(float(x))
    except (TypeError, ValueError):
        return repr(x)


def short(x: float) -> str:
    """A number as a case's code writes it."""
    return repr(float(x))


def number(rng: random.Random, low: float, high: float, places: int = 2) -> float:
    """A random number with few digits, never 0 (a case reads better with short numbers)."""
    while True:
        x = round(rng.uniform(low, high), places)
        if x != 0:
            return x


# -- the probes' helpers ---------------------------------------------------------------------------
#
# What the probes of the engine's methods share: reading a node, and saying what differs.
#
# A probe (core.Probe) uses one method of the reader's ``Value`` on Values of
# its own and compares what it made with what micrograd makes of the same
# numbers.  These helpers read a node the way every probe does: its number,
# its operation and its inputs, each input by the name the probe gave it, so
# that a message can say "c._prev holds a and Value(1.5)" rather than print
# objects.


def inputs(node: Any, names: Mapping[str, Any]) -> list[str]:
    """The inputs ``node._prev`` records, by name (a name of ``names``, or ``Value(1.5)``), sorted.

    A set of names: the original keeps ``_prev`` as a set (``a + a`` records
    ``a`` once) and a tuple is as good.
    """
    value_type = type(next(iter(names.values())))
    return inputs_of(node, {**names, "Value": value_type})


def as_float(x: Any) -> Any:
    """An int or float as a float (a reader's Value may hold an int); anything else as it is."""
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else x


def node_problem(
    made: str,
    node: Any,
    value_type: type,
    data: float,
    op: str | None,
    names: Mapping[str, Any],
    want_inputs: list[str],
) -> str | None:
    """What differs in ``node`` from a node of ``data``, ``op`` and ``want_inputs``; or None.

    ``made`` is the probe's code as the message shows it (``c = a + b``).
    """
    if not isinstance(node, value_type):
        return f"`{made}` gave {node!r}, which is not a Value; expected a new Value"
    number = as_float(getattr(node, "data", None))
    if not same(number, data):
        return f"`{made}` gave c.data = {show(number, data)}; expected {show(data)}"
    if op is not None and getattr(node, "_op", None) != op:
        return f"`{made}` gave c._op = {getattr(node, '_op', None)!r}; expected {op!r}"
    try:
        got = inputs(node, names)
    except (AttributeError, TypeError):
        return f"`{made}` gave a c with no _prev to iterate; expected the inputs {want_inputs}"
    if got != want_inputs:
        return Failure(
            f"`{made}` gave c._prev = [{', '.join(got)}]; expected [{', '.join(want_inputs)}] "
            "(the Values c was made from: backward() finds its way back through them)",
            op=op,
        )
    return None


def readers_own(part: str) -> Callable[[Namespace], bool]:
    """A probe's ``applies``: the reader's Value defines ``part`` in code of their own."""

    def applies(namespace: Namespace) -> bool:
        function = defined(namespace, part)
        if function is None:
            return False
        where = locate(namespace, part, {})
        return where is not None and not where.micrograd

    return applies


def _a_value(names: Namespace) -> Any:
    return names["Value"](1.0)


def _grad_and_rule(names: Namespace) -> tuple[Any, Any]:
    a = _a_value(names)
    return a.grad, a._backward


def value_with_grad(namespace: Namespace) -> str | None:
    """None when the reader's Value has step 2's grad and _backward, else a not-done message.

    Making a Value may itself raise (a starter's ``__init__``): that
    exception goes up to the check, which says which part is the starter's.
    """
    if probe(_grad_and_rule, namespace) is not None:
        return None
    error = probe_error(_a_value, namespace)
    if error is not None:
        raise error
    return (
        "Your Value has no grad or _backward yet: run the cell of step 2 "
        "(it starts `class Value(Value):`)."
    )
