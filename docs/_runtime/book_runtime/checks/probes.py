"""What the probes of the engine's methods share: reading a node, and saying what differs.

A probe (core.Probe) uses one method of the reader's ``Value`` on Values of
its own and compares what it made with what micrograd makes of the same
numbers.  These helpers read a node the way every probe does: its number,
its operation and its inputs, each input by the name the probe gave it, so
that a message can say "c._prev holds a and Value(1.5)" rather than print
objects.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from typing import Any

from book_runtime.checks.core import Failure
from book_runtime.checks.core import Namespace
from book_runtime.checks.core import defined
from book_runtime.checks.core import locate
from book_runtime.checks.core import same
from book_runtime.checks.core import show
from book_runtime.checks.engine_cases import inputs_of


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
