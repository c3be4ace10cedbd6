"""Step 2, "rules": the backward rules of ``+``, ``*``, ``tanh``, and ``exp`` or ``**``.

The rules are checked one node at a time, without ``backward()``: a case
sets the output's ``grad`` and calls its ``_backward()`` directly, then reads
the inputs' gradients.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import replace
from typing import Any
from typing import cast

from .core import MICROGRAD
from .core import Case
from .core import Exercise
from .core import Failure
from .core import Finding
from .core import Mistake
from .core import Namespace
from .core import attempt
from .core import attempt_error
from .core import same
from .core import show
from .core import starter_part
from .engine_cases import as_float
from .engine_cases import micrograd_scope
from .engine_cases import node_probe
from .engine_cases import number
from .engine_cases import readers_own
from .engine_cases import value_with_grad

#: The step's folder of code (steps/rules/) and its id in the track.
STEP = "rules"

HINTS = (
    "Each operation gets a rule that answers one local question: if the output's gradient "
    'is out.grad, how much does each input receive? (The page "The local rules".)',
    "Make the output node as in step 1, then define a function `_backward()` inside the "
    "method (it sees self, other and out) and store it: `out._backward = _backward`.",
    "The rule adds (`+=`, never `=`: an input used twice receives a share along each edge) "
    "out.grad times the local derivative: 1 for each input of `+`, the *other* input's "
    "number for `*`, and 1 - t**2 for tanh, where t is the output's number.",
    "For `*`: `self.grad += other.data * out.grad` and `other.grad += self.data * out.grad`. "
    "For tanh: `self.grad += (1 - out.data**2) * out.grad`. For exp: "
    "`self.grad += out.data * out.grad`; for `** n`: `self.grad += n * self.data**(n - 1) * "
    "out.grad`.",
)

# -- each rule alone ---------------------------------------------------------------------------
#
# Each backward rule alone: one node, its inputs already holding gradients, its rule run once.
#
# A rule probe makes a node from one or two leaves whose ``grad`` is already
# non-zero (as a Value used elsewhere too would have it), sets the node's
# ``grad`` and runs its rule: each input must then hold the gradient it held
# plus its share, ``out.grad`` times the local derivative.  The numbers are
# chosen so that every known way of getting a rule wrong gives another number:
# ``=`` for ``+=``, the rule without ``out.grad``, the input's own number in
# ``*``, the sign flipped, an input left out.  The same probe runs with
# micrograd's ``Value``, which gives the expected numbers.

#: The leaves' numbers, the gradients they hold before the rule runs, and the output's gradient.
A, B, HELD_A, HELD_B, OUT_GRAD = 1.5, -2.0, 0.25, -0.75, 1.3


@dataclass(frozen=True)
class RuleCase:
    """One rule probe: the operation as code, how to make it, and the inputs it reads.

    ``make(a, b)`` builds the node from the leaves a and b (b unused by a
    one-input operation); ``local`` gives each input's local derivative as
    the message words it.  ``composite`` rules (``a - b``, made of ``+`` and
    ``*``) run every rule under the node, in reverse topological order.
    """

    part: str
    text: str
    make: Callable[[Any, Any], Any]
    local: tuple[str, ...]
    needs: str | None = None
    composite: bool = False
    forward: bool = False
    #: The leaves' numbers, what they hold and the output's gradient (a hidden case's: others).
    a: float = A
    b: float = B
    held_a: float = HELD_A
    held_b: float = HELD_B
    out_grad: float = OUT_GRAD

    @property
    def inputs(self) -> tuple[str, ...]:
        """The leaves the node is made from: a, and b where the operation names it."""
        return ("a", "b") if "b" in self.text else ("a",)

    def held(self, name: str) -> float:
        return self.held_a if name == "a" else self.held_b

    def case(self, **options: Any) -> Case:
        """This rule's probe as a case: its code, and :func:`problem` of it."""
        return Case(self.code, functools.partial(problem, self), **options)

    @property
    def code(self) -> str:
        """The probe as code the reader can paste (their own Value's names)."""
        lines = [f"a = Value({self.a})", f"b = Value({self.b})"][: 2 if "b" in self.inputs else 1]
        lines += [f"{n}.grad = {self.held(n)}" for n in self.inputs]
        lines.append(f"c = {self.text}")
        lines += (
            ["c.backward()"] if self.composite else [f"c.grad = {self.out_grad}", "c._backward()"]
        )
        lines.append("print(" + ", ".join(f"{name}.grad" for name in self.inputs) + ")")
        return "\n".join(lines)


@dataclass(frozen=True)
class Seen:
    """What a rule probe saw: the node's number, and each input's gradient after the rule."""

    data: Any
    grads: dict[str, Any]


def run_rule(rule: RuleCase, value: type) -> Seen:
    """The probe ``rule`` with the Value class ``value`` (the reader's, or micrograd's)."""
    a, b = value(rule.a), value(rule.b)
    a.grad, b.grad = rule.held_a, rule.held_b
    out = rule.make(a, b)
    data = out.data
    if rule.composite:
        out.backward()
    else:
        out.grad = rule.out_grad
        out._backward()
    leaves = {"a": a, "b": b}
    return Seen(data, {n: leaves[n].grad for n in rule.inputs})


def expected(rule: RuleCase) -> Seen:
    """What micrograd's Value gives for ``rule``."""
    return MICROGRAD.answer(rule, lambda: run_rule(rule, micrograd_scope()["Value"]))


def share(rule: RuleCase, name: str) -> float:
    """The share the rule adds to input ``name``: micrograd's gradient less what it held."""
    return float(expected(rule).grads[name]) - rule.held(name)


def _number(x: Any) -> float | None:
    """The reader's number as a float, or None when it is not a number at all."""
    number = as_float(x)
    return number if isinstance(number, float) else None


def what_went_wrong(rule: RuleCase, name: str, got: float) -> str:
    """The rule's output for input ``name`` set against what the known ways of erring give."""
    before, part = rule.held(name), share(rule, name)
    if same(got, before):
        return f"your rule added nothing to {name}.grad"
    if same(got, before - part):
        return f"your rule subtracted {name}'s share instead of adding it"
    if same(got, before + 2 * part):
        return f"your rule added {name}'s share twice"
    return f"your rule added {show(got - before)} to {name}.grad, not its share {show(part)}"


def problem(rule: RuleCase, names: Namespace) -> str | None:
    """What differs between the reader's rule and micrograd's, as a sentence; or None."""
    value = names["Value"]
    mine, theirs = run_rule(rule, value), expected(rule)
    given = f"a = Value({rule.a})" + (f" and b = Value({rule.b})" if "b" in rule.inputs else "")
    if not same(_number(mine.data), float(theirs.data)):
        return (
            f"`c = {rule.text}` with {given} gave c.data = {show(mine.data)}; expected "
            f"{show(float(theirs.data))}"
        )
    fields = rule_fields(rule, mine.grads)
    holding = fields["held"]
    run = "`c.backward()`" if rule.composite else f"c.grad = {rule.out_grad} and `c._backward()`"
    for name, local in zip(rule.inputs, rule.local, strict=True):
        got, want = _number(mine.grads[name]), float(theirs.grads[name])
        if got is not None and same(got, want):
            continue
        before, part = rule.held(name), share(rule, name)
        times = f"d(c)/d{name} = {local}" if rule.composite else f"out.grad × {local}"
        why = f"the {before} it held, plus {times} = {show(part)}"
        start = f"`c = {rule.text}` with {given} holding {holding}, then {run},"
        if got is None:
            return (
                f"{start} left {name}.grad = {mine.grads[name]!r}, not a number; expected "
                f"{show(want)} ({why})"
            )
        return Failure(
            f"{start} gave {name}.grad = {show(got, want)}; expected {show(want, got)} ({why}): "
            f"{what_went_wrong(rule, name, got)}",
            name=name,
            want=show(want, got),
            data=float(theirs.data),
            **fields,
        )
    return None


def rule_fields(rule: RuleCase, grads: dict[str, Any]) -> dict[str, Any]:
    """What a message about ``rule``'s probe may say: the node and its numbers, what each input
    held, the gradients ``grads`` it gave, and micrograd's."""
    want = expected(rule).grads
    return {
        "text": rule.text,
        "part": rule.part,
        "a": rule.a,
        "b": rule.b,
        "out_grad": rule.out_grad,
        "held": " and ".join(f"{name}.grad = {rule.held(name)}" for name in rule.inputs),
        "gave": ", ".join(f"{name}.grad = {show(grads[name])}" for name in rule.inputs),
        "expected": ", ".join(f"{n}.grad = {show(float(want[n]))}" for n in rule.inputs),
    }


RULES = (
    RuleCase("Value.__add__", "a + b", lambda a, b: a + b, ("1", "1")),
    RuleCase("Value.__add__", "a + a", lambda a, b: a + a, ("2 (a is both inputs)",)),
    RuleCase("Value.__add__", "a + 2.0", lambda a, b: a + 2.0, ("1",)),
    RuleCase("Value.__mul__", "a * b", lambda a, b: a * b, ("b.data", "a.data")),
    RuleCase("Value.__mul__", "a * a", lambda a, b: a * a, ("2 * a.data",)),
    RuleCase("Value.__mul__", "a * 3.0", lambda a, b: a * 3.0, ("3.0",)),
    RuleCase("Value.tanh", "a.tanh()", lambda a, b: a.tanh(), ("(1 - c.data**2)",), forward=True),
    RuleCase("Value.exp", "a.exp()", lambda a, b: a.exp(), ("c.data",), "exp", forward=True),
    RuleCase("Value.__pow__", "a**3", lambda a, b: a**3, ("3 * a.data**2",), "pow", forward=True),
    RuleCase("Value.__pow__", "a**-1", lambda a, b: a**-1, ("-1 * a.data**-2",), "pow"),
)

#: Rules of methods the step does not ask for, checked where the reader wrote them: both orders.
OPTIONAL_RULES = (
    RuleCase("Value.__neg__", "-a", lambda a, b: -a, ("-1",), composite=True),
    RuleCase("Value.__sub__", "a - b", lambda a, b: a - b, ("1", "-1"), composite=True),
    RuleCase("Value.__rsub__", "2.0 - a", lambda a, b: 2.0 - a, ("-1",), composite=True),
    RuleCase(
        "Value.__truediv__",
        "a / b",
        lambda a, b: a / b,
        ("1 / b.data", "-a.data / b.data**2"),
        composite=True,
    ),
    RuleCase(
        "Value.__rtruediv__",
        "2.0 / a",
        lambda a, b: 2.0 / a,
        ("-2.0 / a.data**2",),
        composite=True,
    ),
)


#: Step 2's probes: the forward pass of each new operation, then each rule alone.
PROBES = (
    *(
        node_probe(
            rule.part, rule.text, rule.make, (("a", A),), ("data", "inputs"), needs=rule.needs
        )
        for rule in RULES
        if rule.forward
    ),
    *(rule.case(part=rule.part, needs=rule.needs) for rule in RULES),
)

#: Step 3's probes of the operations the track does not ask for, where the reader wrote them.
OPTIONAL_PROBES = tuple(
    rule.case(part=rule.part, applies=readers_own(rule.part)) for rule in OPTIONAL_RULES
)


def _cases(rng: random.Random) -> list[Case]:
    """The hidden cases: each rule's probe, twice, on other numbers (held gradients too)."""

    x = functools.partial(number, rng, -2, 2)
    others = [
        replace(rule, a=x(), b=x(), held_a=x(), held_b=x(), out_grad=x())
        for _ in range(2)
        for rule in RULES
    ]
    return [rule.case(needs=rule.needs) for rule in others]


# -- the known mistakes ------------------------------------------------------------------------
#
# Each detector re-runs the rule probes (PROBES, above) and claims a rule only when every input
# got exactly what its mistake gives: the probes' numbers make each mistake's numbers differ from
# every other's, and from the right ones.


def _seen(rule: RuleCase, namespace: Namespace) -> dict[str, float] | None:
    """Each input's gradient after the reader's rule (None if the reader's code raised)."""
    seen = attempt(lambda names: run_rule(rule, names["Value"]), namespace)
    if seen is None:
        return None
    grads = {name: _number(grad) for name, grad in seen.grads.items()}
    return None if None in grads.values() else cast(dict[str, float], grads)


def _signature(
    namespace: Namespace, rules: tuple[RuleCase, ...], wrong: Callable[[RuleCase, str], float]
) -> tuple[RuleCase, dict[str, float]] | None:
    """The first rule whose every input got either the right gradient or ``wrong``'s, not all right.

    ``wrong(rule, input)`` is the gradient the mistake leaves in that input.
    """
    for rule in rules:
        got = _seen(rule, namespace)
        if got is None:
            continue
        right = {name: float(expected(rule).grads[name]) for name in rule.inputs}
        if all(same(got[n], right[n]) for n in rule.inputs):
            continue
        if any(same(wrong(rule, n), right[n]) for n in rule.inputs if not same(got[n], right[n])):
            continue
        if all(same(got[n], right[n]) or same(got[n], wrong(rule, n)) for n in rule.inputs):
            return rule, got
    return None


def _edges(rule: RuleCase) -> int:
    """How many edges lead from the node to its input a: 2 in ``a + a`` and ``a * a``."""
    return 2 if rule.text in ("a + a", "a * a") else 1


def _found(rule: RuleCase, got: dict[str, float], says: str = "") -> Finding:
    """A finding of ``rule``'s probe: what each input held, got and should have got."""
    return Finding(rule.code, rule.part, rule_fields(rule, got), says)


def _no_out_grad(namespace: Namespace) -> Finding | None:
    found = _signature(namespace, RULES, lambda r, n: r.held(n) + share(r, n) / r.out_grad)
    return None if found is None else _found(*found)


def _overwrite(namespace: Namespace) -> Finding | None:
    found = _signature(namespace, RULES, lambda r, n: share(r, n) / _edges(r))
    if found is None:
        return None
    rule, got = found
    return _found(rule, got, "twice" if _edges(rule) == 2 else "")


MISTAKES = (
    Mistake.known(STEP, "mul-not-crossed"),
    # A detector: made in any rule, in one of its inputs or in both: the numbers it gives are
    # computed rule by rule and input by input, not read off one wrong file.
    Mistake.known(STEP, "no-out-grad", _no_out_grad),
    # A detector: made in any rule, in one of its inputs or in both: the numbers it gives are
    # computed rule by rule and input by input, not read off one wrong file.
    Mistake.known(STEP, "overwrite", _overwrite),
    Mistake.known(STEP, "tanh-from-input"),
)

#: The methods the reader writes in this step (exp and __pow__: one of the two).
PARTS = ("Value.__add__", "Value.__mul__", "Value.tanh", "Value.exp", "Value.__pow__")


#: The step's two optional parts, the reader writes at least one: the method, and a probe
#: that uses it.
_OPTIONAL: dict[str, tuple[str, Callable[[Namespace], Any]]] = {
    "exp": ("exp", lambda names: names["Value"](0.5).exp()),
    "pow": ("__pow__", lambda names: names["Value"](0.5) ** 2),
}


def _ready(namespace: Namespace) -> str | None:
    if not isinstance(namespace.get("Value"), type):
        return "There is no `Value` yet: run the cells of steps 1 and 2."
    return value_with_grad(namespace)


def _written(namespace: Namespace) -> frozenset[str]:
    """Which of exp and ``**`` the reader wrote (a starter's method raises NotImplementedError)."""
    value = namespace["Value"]
    written = set()
    for part, (method, look) in _OPTIONAL.items():
        if not hasattr(value, method):
            continue
        error = attempt_error(look, namespace)
        if error is None or starter_part(error) is None:
            written.add(part)
    return frozenset(written)


def _unfinished(written: frozenset[str]) -> str | None:
    if written:
        return None
    return "Write one of exp and __pow__ (both are still the starter's)."


#: The track's step 2.
EXERCISE = Exercise(
    STEP,
    "The backward rules",
    HINTS,
    "-3.0 2.0\n",  # what example.py prints
    tuple(_cases(random.Random(1002))),
    MISTAKES,
    _ready,
    written=_written,
    unfinished=_unfinished,
    builds_on=("value",),
    probes=PROBES,
    parts=PARTS,
)
