"""Cases on the reader's ``Value``: a few lines run with it and with micrograd's, results compared.

An :class:`EngineCase` is code that makes some leaves, builds a graph on them
and does something with it (``c._backward()``, ``L.backward()``).  It runs
twice, in a scratch copy of the reader's namespace and with micrograd's
``Value`` in its place, and then each observed expression (``a.grad``,
``c.data``, the inputs ``c._prev`` holds) must agree.  Where the case names
its output, a failing gradient of a leaf is also set against a central
difference of that output, computed with micrograd.

The same mechanism checks each of the reader's methods alone: a probe
(:meth:`EngineCase.probe`) is an engine case on fixed numbers, put down to
one method, and its failure carries the numbers it names (``got``, ``want``,
the expression) for a known mistake's message template.
"""

from __future__ import annotations

import builtins
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType
from typing import Any

import micrograd

from .core import MICROGRAD
from .core import READER_ERRORS
from .core import Case
from .core import Failure
from .core import Namespace
from .core import attempt
from .core import defined
from .core import is_micrograds_code
from .core import reader_scope
from .core import run_code
from .core import same
from .core import show

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
    fields: tuple[tuple[str, Any], ...] = ()  # more numbers a failure names, for a template
    #: The case as a function of a scope's Value (its Values by name), where it is a probe: a
    #: probe runs as functions alone, never compiling source; ``code`` is what it shows.
    make: Callable[[Namespace], dict[str, Any]] | None = None

    @property
    def code(self) -> str:
        return "\n".join([*self._leaf_lines(dict(self.leaves)), self.body, self.action]).strip()

    def probe(
        self, part: str, run: Callable[[Namespace], str | None] | None = None, **options: Any
    ) -> Case:
        """This case as the probe of the reader's method ``part`` (see core.Case); ``run``,
        where given, runs it (``self.run`` with more around it), ``options`` are the probe's.

        Its code, as the reader can paste it, prints what the case compares.
        """
        shown = ", ".join(dict.fromkeys(_shown(look) for look in self.looks))
        code = f"{self.code}\nprint({shown})"
        return Case(code, run or self.run, part, **options)

    def hidden(self) -> Case:
        """This case as a hidden case of its step."""
        return Case(self.code, self.run)

    def _leaf_lines(self, leaves: dict[str, float]) -> list[str]:
        return [f"{name} = Value({value!r})" for name, value in leaves.items()]

    def _made(self, namespace: Namespace | None) -> dict[str, Any]:
        """The case's names, run on the reader's Value (``namespace``) or on micrograd's (None)."""
        scope = micrograd_scope() if namespace is None else reader_scope(namespace)
        if self.make is None:
            return run_code(self.code, scope)
        return {**scope, **self.make(scope)}

    def run(self, namespace: Namespace) -> str | None:
        mine = self._made(namespace)
        theirs = MICROGRAD.answer(self, lambda: self._made(None))
        for look in self.looks:
            node = look.expression.split(".")[0]
            made, value = mine.get(node), mine["Value"]
            if isinstance(theirs.get(node), micrograd.Value) and not isinstance(made, value):
                return f"{self.title} gave {node} = {made!r}, not a Value; expected one."
            want = read(look, theirs)
            shown = f"[{', '.join(want)}]" if look.kind == "inputs" else show(want)
            prev = getattr(made, "_prev", ())
            if look.kind == "inputs" and not _iterable(prev):
                # Iterating it here would raise in the checker, and put it down to the reader's
                # method as an exception the method never raised.
                return (
                    f"{self.title} gave {node}._prev = {prev!r}, which cannot be iterated; "
                    f"expected {shown}."
                )
            try:
                got = read(look, mine)
            except AttributeError as error:
                if getattr(error, "obj", None) is not made:
                    raise  # not the Value looked at: the reader's code, which raised
                attribute = f"no {error.name} (keep it in __init__)"
                return f"{self.title} gave {node} with {attribute}; expected {shown}."
            if not same(got, want):
                return self.failure(look, got, want, mine)
        return None

    def failure(self, look: Look, got: Any, want: Any, mine: dict[str, Any]) -> str:
        """The message for a look that differs: the operation, the input, got against expected.

        Its fields are the node looked at (``name``), the numbers as the message shows them
        (``got``, ``want``), every number the case looks at (``seen``: two programs with the
        same failure gave the same numbers) and the case's own :attr:`fields`.
        """
        if look.kind == "inputs":
            got_text, want_text = f"[{', '.join(got)}]", f"[{', '.join(want)}]"
        else:
            got_text, want_text = show(got, want), show(want, got)
        message = f"{self.title} gave {_shown(look)} = {got_text}; expected {want_text}"
        if look.because:
            message += f" ({look.because})"
        slope = self.central_difference(look.expression)
        if slope is not None:
            message += f"; a central difference gives {slope:.6f}"
        seen = tuple((other.expression, _seen(other, mine)) for other in self.looks)
        fields = {"name": look.expression.split(".")[0], "got": got_text, "want": want_text}
        return Failure(message + ".", **dict(self.fields), **fields, seen=seen)

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


def _seen(look: Look, scope: dict[str, Any]) -> str:
    """What ``look`` sees in the reader's ``scope``, as a message shows it ("?": it raised)."""
    try:
        return show(read(look, scope))
    except READER_ERRORS:
        return "?"


def _shown(look: Look) -> str:
    """What the probe's code prints for ``look``: the expression, or the node's inputs."""
    return f"{look.expression}._prev" if look.kind == "inputs" else look.expression


#: Why a node's inputs must be the Values it was made from.
RECORDS = "the Values c was made from: backward() finds its way back through them"


def node_probe(
    part: str,
    expression: str,
    compute: Callable[[Any, Any], Any],
    numbers: tuple[tuple[str, float], ...],
    reads: tuple[str, ...] = ("data", "_op", "inputs"),
    fields: tuple[tuple[str, Any], ...] = (),
    **options: Any,
) -> Case:
    """The probe of ``c = <expression>`` (``compute(a, b)``), on the leaves of ``numbers`` it
    names: what it ``reads`` of c (its number, operation and inputs), against micrograd's."""
    leaves = tuple(leaf for leaf in numbers if re.search(rf"\b{leaf[0]}\b", expression))

    def make(names: Namespace) -> dict[str, Any]:
        made = {name: names["Value"](x) for name, x in leaves}
        return {**made, "c": compute(made["a"], made.get("b"))}

    looks = [Look("c", RECORDS, "inputs") if r == "inputs" else Look(f"c.{r}") for r in reads]
    given = ", ".join(f"{name} = Value({x!r})" for name, x in leaves)
    case = EngineCase(
        f"`c = {expression}` with {given}",
        leaves,
        f"c = {expression}",
        "",
        tuple(looks),
        fields=fields,
        make=make,
    )
    return case.probe(part, **options)


def micrograd_scope() -> dict[str, Any]:
    """A fresh scope where ``Value`` is micrograd's: the reference run of a case."""
    return {"__builtins__": builtins, "Value": micrograd.Value}


def _iterable(value: object) -> bool:
    """Whether ``value`` can be iterated (``iter`` takes it)."""
    try:
        iter(value)  # type: ignore[call-overload]
    except TypeError:
        return False
    return True


def read(look: Look, scope: dict[str, Any]) -> Any:
    """What ``look`` sees in ``scope`` (its expression is a name and attributes: ``c.data``)."""
    name, *attributes = look.expression.split(".")
    value = scope[name]
    for attribute in attributes:
        value = getattr(value, attribute)
    return inputs_of(value, scope) if look.kind == "inputs" else value


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


def as_float(x: Any) -> Any:
    """An int or float as a float (a reader's Value may hold an int); anything else as it is."""
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else x


def readers_own(part: str) -> Callable[[Namespace], bool]:
    """A probe's ``applies``: the reader's Value defines ``part`` in code of their own."""

    def applies(namespace: Namespace) -> bool:
        function = defined(namespace, part)
        code = getattr(function, "__code__", None)
        return isinstance(code, CodeType) and not is_micrograds_code(function)

    return applies


def value_with_grad(namespace: Namespace) -> str | None:
    """None when the reader's Value has step 2's grad and _backward, else a not-done message.

    Making a Value may itself raise (a starter's ``__init__``): that
    exception goes up to the check, which says which part is the starter's.
    """
    value = namespace["Value"](1.0)
    if attempt(lambda names: (value.grad, value._backward), namespace):
        return None
    return (
        "Your Value has no grad or _backward yet: run the cell of step 2 "
        "(it starts `class Value(Value):`)."
    )
