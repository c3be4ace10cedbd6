"""Step 1, "value": a ``Value`` that records its inputs and operation; ``+`` and ``*`` forward."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .core import Case
from .core import Exercise
from .core import Finding
from .core import Mistake
from .core import Namespace
from .core import attempt
from .core import attempt_error
from .core import left_number
from .engine_cases import EngineCase
from .engine_cases import Look
from .engine_cases import node_probe
from .engine_cases import number
from .engine_cases import readers_own
from .engine_cases import short

#: The step's folder of code (steps/value/) and its id in the track.
STEP = "value"

HINTS = (
    "A Value keeps three things: its number, the Values it was made from, and the name of "
    "the operation that made it. `a + b` makes a new Value out of the two old ones.",
    "In `__init__`, store `data` as it comes, keep `_children` in `_prev` (a tuple, or a set "
    "as in the original) and `_op` as it comes. `__add__` returns "
    '`Value(self.data + other.data, (self, other), "+")`.',
    "`a + 1`: in `__add__`, `other` may be a plain number, which has no `.data` and is no "
    "input of a graph: make it a Value first. `1 + a` is another matter: Python asks the int "
    "first, and when the int does not know your Value, it asks your Value's `__radd__`.",
    "`other = other if isinstance(other, Value) else Value(other)` at the top of `__add__` "
    "and `__mul__`; then `def __radd__(self, other): return self + other` and "
    "`def __rmul__(self, other): return self * other` (both operations commute).",
)


def _case(leaves: list[tuple[str, float]], body: str) -> EngineCase:
    """A hidden case: the number, operation and inputs of each node ``body``'s lines make."""
    given = ", ".join(f"{name} = Value({short(x)})" for name, x in leaves)
    looks = []
    for name in (line.split(" = ")[0] for line in body.splitlines()):
        looks += [Look(f"{name}.data"), Look(f"{name}._op"), Look(name, kind="inputs")]
    title = f"`{'; '.join(body.splitlines())}` with {given}"
    return EngineCase(title, tuple(leaves), body, "", tuple(looks))


def _cases(rng: random.Random) -> tuple[EngineCase, ...]:
    def x() -> float:
        return number(rng, -4, 4)

    a, b, c, k, m = x(), x(), x(), x(), x()
    return (
        _case([("a", a), ("b", b)], "c = a + b"),
        _case([("a", a), ("b", b)], "c = a * b"),
        _case([("a", b)], f"c = a + {short(k)}"),
        _case([("a", c)], f"c = {short(m)} * a"),
        _case([("a", a)], f"c = {short(k)} + a"),
        _case([("a", b)], f"c = a * {short(m)}"),
        _case([("a", c)], "c = a * a"),
        _case([("a", a), ("b", b), ("c", c)], "e = a * b\nd = e + c"),
        _case([("a", c), ("b", a)], f"e = a + {short(k)}\nf = {short(m)} * b\nd = e * f"),
        _case([("a", b)], "c = 3 * a + 2"),
        _case([("a", a), ("b", c)], "c = a + b\nd = c * c"),
    )


# -- each method alone ----------------------------------------------------------------------------

#: The Values the probes make, a and b (a plain number in a probe is 1.5).
_LEAVES = (("a", 2.0), ("b", -3.5))


def _probe(
    part: str,
    expression: str,
    compute: Callable[[Any, Any], Any],
    node: bool = True,
    op: str | None = None,
) -> Case:
    """The probe of ``c = <expression>``: c's number and, for a ``node`` of the step, its
    operation and inputs.  A method the step does not ask for is probed where the reader
    wrote it, on its number alone (micrograd makes it of other operations)."""
    if not node:
        return node_probe(part, expression, compute, _LEAVES, ("data",), applies=readers_own(part))
    return node_probe(part, expression, compute, _LEAVES, fields=(("op", op),))


_LEAF = EngineCase(
    "`a = Value(2.0)`",
    (("a", 2.0),),
    "",
    "",
    (
        Look("a.data"),
        Look("a._op", "no operation made it"),
        Look("a", "a number you typed is a leaf", kind="inputs"),
    ),
    make=lambda names: {"a": names["Value"](2.0)},
)
PROBES = (
    _LEAF.probe("Value.__init__"),
    node_probe(
        "Value.__init__",
        'Value(4.0, (a, b), "*")',
        lambda a, b: type(a)(4.0, (a, b), "*"),
        (("a", 1.0), ("b", 4.0)),
    ),
    _probe("Value.__add__", "a + b", lambda a, b: a + b, op="+"),
    _probe("Value.__add__", "a + 1.5", lambda a, b: a + 1.5, op="+"),
    _probe("Value.__mul__", "a * b", lambda a, b: a * b, op="*"),
    _probe("Value.__mul__", "a * 1.5", lambda a, b: a * 1.5, op="*"),
    _probe("Value.__radd__", "1.5 + a", lambda a, b: left_number(1.5) + a, op="+"),
    _probe("Value.__rmul__", "1.5 * a", lambda a, b: left_number(1.5) * a, op="*"),
    # Not asked for, but tested in both orders where the reader wrote them.
    _probe("Value.__neg__", "-a", lambda a, b: -a, node=False),
    _probe("Value.__sub__", "a - b", lambda a, b: a - b, node=False),
    _probe("Value.__sub__", "a - 1.5", lambda a, b: a - 1.5, node=False),
    _probe("Value.__rsub__", "1.5 - a", lambda a, b: left_number(1.5) - a, node=False),
    _probe("Value.__truediv__", "a / b", lambda a, b: a / b, node=False),
    _probe("Value.__truediv__", "a / 1.5", lambda a, b: a / 1.5, node=False),
    _probe("Value.__rtruediv__", "1.5 / a", lambda a, b: left_number(1.5) / a, node=False),
)

#: The methods the reader writes in this step.
PARTS = ("Value.__init__", "Value.__add__", "Value.__mul__", "Value.__radd__", "Value.__rmul__")


# -- the known mistakes ------------------------------------------------------------------------

_TWO_VALUES = "a = Value(2.0)\nb = Value(-3.0)\nc = a + b"


def _two_values(names: Namespace) -> tuple[Any, Any, Any]:
    """``_TWO_VALUES``, on the reader's Value: a, b and c."""
    a, b = names["Value"](2.0), names["Value"](-3.0)
    return a, b, a + b


def _copy_of(node: Any, prev: list[Any], value: type) -> bool:
    """Whether ``prev`` holds a new Value in ``node``'s place: of its number, or of ``node``
    itself (``Value(b)`` of a Value b)."""

    def copies(p: Any) -> bool:
        data = getattr(p, "data", None)
        return isinstance(p, value) and (data is node or data == node.data)

    return not any(p is node for p in prev) and any(copies(p) for p in prev)


def _init_keeps_children(namespace: Namespace) -> bool:
    """Whether the reader's ``__init__`` keeps the Values it is given as ``_children`` in ``_prev``.

    When it does not, ``__add__`` may pass the right ones and still make a node without
    them: the mistake is then ``__init__``'s, and the result must send the reader there.
    """

    def made(names: Namespace) -> tuple[Any, Any, list[Any]]:
        a, b = names["Value"](2.0), names["Value"](-3.0)
        return a, b, list(names["Value"](-1.0, (a, b), "+")._prev)

    kept = attempt(made, namespace)
    if kept is None:  # an __init__ of other arguments: the operation is then the place
        return True
    a, b, prev = kept
    return any(p is a for p in prev) and any(p is b for p in prev)


def _inputs_not_recorded(namespace: Namespace) -> Finding | None:
    made = attempt(_two_values, namespace)
    if made is None:
        return None
    a, b, c = made
    part = "Value.__add__"
    if not isinstance(c, type(a)):
        return None  # no Value at all: the probe of __add__ says so
    if not hasattr(c, "_prev"):
        what, part = "c has no _prev at all", "Value.__init__"
    else:
        try:
            prev = list(c._prev)
        except TypeError:
            return None
        if any(p is a for p in prev) and any(p is b for p in prev):
            return None
        if _copy_of(b, prev, type(a)) or _copy_of(a, prev, type(a)):
            return None  # the inputs are there, one of them copied: another mistake
        what = f"c._prev holds {prev!r}" if prev else "c._prev is empty"
        if not _init_keeps_children(namespace):
            part = "Value.__init__"
    return Finding(_TWO_VALUES, part, {"what": what})


def _operation(op: str) -> Callable[[Namespace], tuple[Any, Any]]:
    """A probe: a = Value(2.0) and ``a <op> 1.5``: a and the result."""

    def look(names: Namespace) -> tuple[Any, Any]:
        a = names["Value"](2.0)
        return a, (a + 1.5 if op == "+" else a * 1.5)

    return look


#: The two operations of the step: their methods, by operator.
_METHODS = {"+": "Value.__add__", "*": "Value.__mul__"}


def _number_not_wrapped(namespace: Namespace) -> Finding | None:
    for op, part in _METHODS.items():
        look = _operation(op)
        code = f"a = Value(2.0)\nc = a {op} 1.5"
        fields = {"op": op, "part": part, "method": part.split(".")[1]}
        error = attempt_error(look, namespace)
        if isinstance(error, AttributeError) and "data" in str(error):
            return Finding(code, part, {**fields, "error": error})
        made = attempt(look, namespace)
        if made is None:
            continue
        a, c = made
        prev = list(getattr(c, "_prev", ()))
        if not any(p is a for p in prev):
            continue
        # Not wrapped: the number itself is in _prev. (Nothing there for it: not recorded.)
        if not any(p == 1.5 and not isinstance(p, type(a)) for p in prev):
            continue
        recorded = {**fields, "data": repr(c.data), "prev": repr(prev)}
        return Finding(code, part, recorded, says="recorded")
    return None


def _number_first(op: str, x: float) -> Callable[[Namespace], Any]:
    """A probe: ``x <op> Value(2.0)``, the number on the left."""

    def look(names: Namespace) -> Any:
        number = left_number(x)  # a reflected method that calls itself: see left_number()
        return number + names["Value"](2.0) if op == "+" else number * names["Value"](2.0)

    return look


#: Each reflected method: its operation, the expression that needs it, and that expression as
#: a probe on the reader's Value (the message shows ``a = Value(2.0)`` and ``c = <expression>``).
_REFLECTED = {
    "__radd__": ("+", "1.5 + a", _number_first("+", 1.5)),
    "__rmul__": ("*", "3.0 * a", _number_first("*", 3.0)),
}


def _reflected(method: str, **fields: Any) -> Finding:
    """A finding of the reflected ``method``: the expression that needs it, and its fields."""
    op, expression, _ = _REFLECTED[method]
    fields |= {"method": method, "op": op, "expression": expression, "own": f"__{method[3:]}"}
    return Finding(f"a = Value(2.0)\nc = {expression}", f"Value.{method}", fields)


def _no_reflected(namespace: Namespace) -> Finding | None:
    value = namespace.get("Value")
    for method, (_, _, look) in _REFLECTED.items():
        error = attempt_error(look, namespace)
        if isinstance(error, TypeError) and getattr(value, method, None) is None:
            return _reflected(method, error=error)
    return None


def _reflected_calls_itself(namespace: Namespace) -> Finding | None:
    for method, (_, _, look) in _REFLECTED.items():
        if isinstance(attempt_error(look, namespace), RecursionError):
            return _reflected(method)
    return None


MISTAKES = (
    # A detector: _prev left empty, or holding self alone, in + or in *: one mistake, other numbers.
    Mistake.known(STEP, "inputs-not-recorded", _inputs_not_recorded),
    Mistake.known(STEP, "wraps-a-value"),
    # Its fingerprint: `Value(b)` of a Value b holds b as its data, and c.data is a Value.
    Mistake.known(STEP, "wraps-always"),
    # A detector: in + or in *, raising or recording the bare number: each way its own numbers.
    Mistake.known(STEP, "number-not-wrapped", _number_not_wrapped),
    # A detector: a method set to None and one left out raise other TypeErrors; the title
    # names which.
    Mistake.known(STEP, "no-reflected", _no_reflected),
    # A detector: in __radd__ or __rmul__ (the title names which); RecursionError's words vary.
    Mistake.known(STEP, "reflected-calls-itself", _reflected_calls_itself),
)


def _ready(namespace: Namespace) -> str | None:
    if not isinstance(namespace.get("Value"), type):
        return "There is no `Value` yet: run the cell of step 1 (it starts `class Value:`)."
    return None


#: The track's step 1.
EXERCISE = Exercise(
    STEP,
    "The Value",
    HINTS,
    "4.0 + 2\n4.0 3.0\n",  # what example.py prints
    tuple(case.hidden() for case in _cases(random.Random(1001))),
    MISTAKES,
    _ready,
    probes=PROBES,
    parts=PARTS,
)
