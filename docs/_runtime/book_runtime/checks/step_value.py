"""Step 1, "value": a ``Value`` that records its inputs and operation; ``+`` and ``*`` forward."""

from __future__ import annotations

import random
from typing import Any

from book_runtime.checks.core import Example
from book_runtime.checks.core import Exercise
from book_runtime.checks.core import Finding
from book_runtime.checks.core import Mistake
from book_runtime.checks.core import Namespace
from book_runtime.checks.core import probe
from book_runtime.checks.core import probe_error
from book_runtime.checks.core import step_file
from book_runtime.checks.engine_cases import EngineCase
from book_runtime.checks.engine_cases import Look
from book_runtime.checks.engine_cases import number
from book_runtime.checks.engine_cases import short
from book_runtime.checks.engine_cases import values_case

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

EXAMPLE = Example(
    code=step_file(STEP, "example.py"),
    prints="4.0 + 2\n4.0 3.0\n",
)


def _case(leaves: list[tuple[str, float]], body: str, results: list[str]) -> EngineCase:
    given = ", ".join(f"{name} = Value({short(x)})" for name, x in leaves)
    looks = []
    for name in results:
        looks += [Look(f"{name}.data"), Look(f"{name}._op"), Look(name, kind="inputs")]
    title = f"`{'; '.join(body.splitlines())}` with {given}"
    return values_case(title, leaves, body, looks)


def _cases(rng: random.Random) -> tuple[EngineCase, ...]:
    def x() -> float:
        return number(rng, -4, 4)

    a, b, c, k, m = x(), x(), x(), x(), x()
    return (
        _case([("a", a), ("b", b)], "c = a + b", ["c"]),
        _case([("a", a), ("b", b)], "c = a * b", ["c"]),
        _case([("a", b)], f"c = a + {short(k)}", ["c"]),
        _case([("a", c)], f"c = {short(m)} * a", ["c"]),
        _case([("a", a)], f"c = {short(k)} + a", ["c"]),
        _case([("a", b)], f"c = a * {short(m)}", ["c"]),
        _case([("a", c)], "c = a * a", ["c"]),
        _case([("a", a), ("b", b), ("c", c)], "e = a * b\nd = e + c", ["e", "d"]),
        _case(
            [("a", c), ("b", a)],
            f"e = a + {short(k)}\nf = {short(m)} * b\nd = e * f",
            ["e", "f", "d"],
        ),
        _case([("a", b)], "c = 3 * a + 2", ["c"]),
        _case([("a", a), ("b", c)], "c = a + b\nd = c * c", ["c", "d"]),
    )


# -- the known mistakes ------------------------------------------------------------------------

_TWO_VALUES = "a = Value(2.0)\nb = Value(-3.0)\nc = a + b"


def _two_values(names: Namespace) -> tuple[Any, Any, Any]:
    """``_TWO_VALUES``, on the reader's Value: a, b and c."""
    a, b = names["Value"](2.0), names["Value"](-3.0)
    return a, b, a + b


def _inputs_not_recorded(namespace: Namespace) -> Finding | None:
    made = probe(_two_values, namespace)
    if made is None:
        return None
    a, b, c = made
    if not hasattr(c, "_prev"):
        what = "c has no _prev at all"
    else:
        try:
            prev = list(c._prev)
        except TypeError:
            return None
        if any(p is a for p in prev) and any(p is b for p in prev):
            return None
        what = f"c._prev holds {prev!r}" if prev else "c._prev is empty"
    return Finding(
        f"Inputs not recorded: `c = a + b` made c, but {what}. backward() will walk the "
        "graph from the output back to the leaves through _prev, so each new Value must "
        "record the Values it was made from: pass (self, other) as its _children, and keep "
        "them in _prev.",
        _TWO_VALUES,
    )


_PLUS_NUMBER = "a = Value(2.0)\nc = a + 1.5"


def _plus_number(names: Namespace) -> tuple[Any, Any]:
    """``_PLUS_NUMBER``, on the reader's Value: a and c."""
    a = names["Value"](2.0)
    return a, a + 1.5


def _number_not_wrapped(namespace: Namespace) -> Finding | None:
    error = probe_error(_plus_number, namespace)
    wrap = "other = other if isinstance(other, Value) else Value(other)"
    if isinstance(error, AttributeError) and "data" in str(error):
        return Finding(
            f"A plain number not wrapped: `a + 1.5` raised AttributeError ({error}): __add__ "
            f"reads other.data, and a plain number has none. Make it a Value first: `{wrap}`.",
            _PLUS_NUMBER,
        )
    made = probe(_plus_number, namespace)
    if made is None:
        return None
    a, c = made
    prev = list(getattr(c, "_prev", ()))
    if not any(p is a for p in prev):
        return None
    wrapped = [p for p in prev if p is not a and getattr(p, "data", None) == 1.5]
    if wrapped and all(isinstance(p, type(a)) for p in wrapped):
        return None
    return Finding(
        f"A plain number not wrapped: `c = a + 1.5` gave c.data = {c.data!r}, but c._prev "
        f"holds {prev!r}: the 1.5 went into the sum, but not into the graph as a Value. "
        f"Every input of a node is a Value (the number too: it is a leaf): `{wrap}`.",
        _PLUS_NUMBER,
    )


def _number_plus(names: Namespace) -> Any:
    return 1.5 + names["Value"](2.0)


def _number_times(names: Namespace) -> Any:
    return 3.0 * names["Value"](2.0)


#: Each reflected method: its operation, the expression that needs it, and that expression as
#: a probe on the reader's Value (the message shows ``a = Value(2.0)`` and ``c = <expression>``).
_REFLECTED = {
    "__radd__": ("+", "1.5 + a", _number_plus),
    "__rmul__": ("*", "3.0 * a", _number_times),
}


def _no_reflected(namespace: Namespace) -> Finding | None:
    value = namespace.get("Value")
    for method, (op, expression, look) in _REFLECTED.items():
        error = probe_error(look, namespace)
        if isinstance(error, TypeError) and getattr(value, method, None) is None:
            return Finding(
                f"No {method}: `{expression}` raised TypeError ({error}). Python asks the "
                f"number on the left first, and float's {op} knows nothing of your Value; "
                f"then it asks the Value on the right, through its {method}, which your Value "
                f"does not have. Add it: `def {method}(self, other): return self {op} other` "
                f"({op} commutes).",
                f"a = Value(2.0)\nc = {expression}",
            )
    return None


def _reflected_calls_itself(namespace: Namespace) -> Finding | None:
    for method, (op, expression, look) in _REFLECTED.items():
        if isinstance(probe_error(look, namespace), RecursionError):
            return Finding(
                f"{method} calls itself: `{expression}` raised RecursionError. Your {method} "
                f"computes `other {op} self`, which asks the number first, which hands it "
                f"back to your {method}, and so on until Python stops. Turn it round: "
                f"`return self {op} other`, which your own __{method[3:]} handles.",
                f"a = Value(2.0)\nc = {expression}",
            )
    return None


MISTAKES = (
    Mistake(
        "inputs-not-recorded",
        "Inputs not recorded",
        "A Value made by an operation must remember the Values it was made from (_prev): "
        "the backward pass finds its way back to the leaves through them.",
        _inputs_not_recorded,
        STEP,
    ),
    Mistake(
        "number-not-wrapped",
        "A plain number not wrapped in a Value",
        "In `a + 1`, the 1 reaches __add__ as a plain number: it has no .data, and it must "
        "become a Value (a leaf) to be an input of the graph.",
        _number_not_wrapped,
        STEP,
    ),
    Mistake(
        "no-reflected",
        "No __radd__ or __rmul__",
        "For `2 * a` Python asks int's __mul__ first, which does not know your Value, and "
        "then Value.__rmul__: without it, a plain number on the left is a TypeError.",
        _no_reflected,
        STEP,
    ),
    Mistake(
        "reflected-calls-itself",
        "__radd__ or __rmul__ that computes `other + self`",
        "A reflected method that writes the number on the left again hands the operation "
        "back to itself: an endless recursion.",
        _reflected_calls_itself,
        STEP,
    ),
)


def _ready(namespace: Namespace) -> str | None:
    if not isinstance(namespace.get("Value"), type):
        return "There is no `Value` yet: run the cell of step 1 (it starts `class Value:`)."
    return None


def exercise() -> Exercise:
    """Step 1."""
    rng = random.Random(1001)
    return Exercise(STEP, "The Value", HINTS, EXAMPLE, _cases(rng), MISTAKES, _ready)
