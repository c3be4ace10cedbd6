"""Each backward rule alone: one node, its inputs already holding gradients, its rule run once.

A rule probe makes a node from one or two leaves whose ``grad`` is already
non-zero (as a Value used elsewhere too would have it), sets the node's
``grad`` and runs its rule: each input must then hold the gradient it held
plus its share, ``out.grad`` times the local derivative.  The numbers are
chosen so that every known way of getting a rule wrong gives another number:
``=`` for ``+=``, the rule without ``out.grad``, the input's own number in
``*``, the sign flipped, an input left out.  The same probe runs with
micrograd's ``Value``, which gives the expected numbers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from book_runtime.checks.core import Failure
from book_runtime.checks.core import Namespace
from book_runtime.checks.core import Probe
from book_runtime.checks.core import same
from book_runtime.checks.core import show
from book_runtime.checks.engine_cases import micrograd_scope
from book_runtime.checks.probes import as_float
from book_runtime.checks.probes import readers_own

#: The leaves' numbers, the gradients they hold before the rule runs, and the output's gradient.
A, B, HELD_A, HELD_B, OUT_GRAD = 1.5, -2.0, 0.25, -0.75, 1.3


@dataclass(frozen=True)
class Rule:
    """One rule probe: the operation as code, how to make it, and the inputs it reads.

    ``make(a, b)`` builds the node from the leaves a and b (b unused by a
    one-input operation); ``local`` gives each input's local derivative as
    the message words it.  ``composite`` rules (``a - b``, made of ``+`` and
    ``*``) run every rule under the node, in reverse topological order.
    """

    part: str
    text: str
    make: Callable[[Any, Any], Any]
    inputs: tuple[str, ...]
    local: tuple[str, ...]
    needs: str | None = None
    composite: bool = False
    forward: bool = False

    @property
    def code(self) -> str:
        """The probe as code the reader can paste (their own Value's names)."""
        lines = [f"a = Value({A})", f"b = Value({B})"][: 2 if "b" in self.inputs else 1]
        lines += [f"a.grad = {HELD_A}"] + ([f"b.grad = {HELD_B}"] if "b" in self.inputs else [])
        lines.append(f"c = {self.text}")
        lines += ["c.backward()"] if self.composite else [f"c.grad = {OUT_GRAD}", "c._backward()"]
        lines.append("print(" + ", ".join(f"{name}.grad" for name in self.inputs) + ")")
        return "\n".join(lines)


@dataclass(frozen=True)
class Seen:
    """What a rule probe saw: the node's number, and each input's gradient after the rule."""

    data: Any
    grads: dict[str, Any]


def run_rule(rule: Rule, value: type) -> Seen:
    """The probe ``rule`` with the Value class ``value`` (the reader's, or micrograd's)."""
    a, b = value(A), value(B)
    a.grad, b.grad = HELD_A, HELD_B
    out = rule.make(a, b)
    data = out.data
    if rule.composite:
        out.backward()
    else:
        out.grad = OUT_GRAD
        out._backward()
    leaves = {"a": a, "b": b}
    return Seen(data, {n: leaves[n].grad for n in rule.inputs})


@functools.cache  # micrograd's numbers for a probe do not change
def expected(rule: Rule) -> Seen:
    """What micrograd's Value gives for ``rule``."""
    return run_rule(rule, micrograd_scope()["Value"])


def held(name: str) -> float:
    return HELD_A if name == "a" else HELD_B


def share(rule: Rule, name: str) -> float:
    """The share the rule adds to input ``name``: micrograd's gradient less what it held."""
    return float(expected(rule).grads[name]) - held(name)


def _number(x: Any) -> float | None:
    """The reader's number as a float, or None when it is not a number at all."""
    number = as_float(x)
    return number if isinstance(number, float) else None


def what_went_wrong(rule: Rule, name: str, got: float) -> str:
    """The rule's output for input ``name`` set against what the known ways of erring give."""
    before, part = held(name), share(rule, name)
    if same(got, before):
        return f"your rule added nothing to {name}.grad"
    if same(got, before - part):
        return f"your rule subtracted {name}'s share instead of adding it"
    if same(got, before + 2 * part):
        return f"your rule added {name}'s share twice"
    return f"your rule added {show(got - before)} to {name}.grad, not its share {show(part)}"


def problem(rule: Rule, names: Namespace) -> str | None:
    """What differs between the reader's rule and micrograd's, as a sentence; or None."""
    value = names["Value"]
    mine, theirs = run_rule(rule, value), expected(rule)
    given = f"a = Value({A})" + (f" and b = Value({B})" if "b" in rule.inputs else "")
    if not same(_number(mine.data), float(theirs.data)):
        return (
            f"`c = {rule.text}` with {given} gave c.data = {show(mine.data)}; expected "
            f"{show(float(theirs.data))}"
        )
    holding = " and ".join(f"{n}.grad = {held(n)}" for n in rule.inputs)
    run = "`c.backward()`" if rule.composite else f"c.grad = {OUT_GRAD} and `c._backward()`"
    for name, local in zip(rule.inputs, rule.local, strict=True):
        got, want = _number(mine.grads[name]), float(theirs.grads[name])
        if got is not None and same(got, want):
            continue
        before, part = held(name), share(rule, name)
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
            a=A,
            b=B,
            out_grad=OUT_GRAD,
            held=holding,
            data=float(theirs.data),
            gave=", ".join(f"{n}.grad = {show(mine.grads[n])}" for n in rule.inputs),
            expected=", ".join(f"{n}.grad = {show(float(theirs.grads[n]))}" for n in rule.inputs),
        )
    return None


def _number_on_left(op: str) -> Callable[[Any, Any], Any]:
    return {"-": lambda a, b: 2.0 - a, "/": lambda a, b: 2.0 / a}[op]


RULES = (
    Rule("Value.__add__", "a + b", lambda a, b: a + b, ("a", "b"), ("1", "1")),
    Rule("Value.__add__", "a + a", lambda a, b: a + a, ("a",), ("2 (a is both inputs)",)),
    Rule("Value.__add__", "a + 2.0", lambda a, b: a + 2.0, ("a",), ("1",)),
    Rule("Value.__mul__", "a * b", lambda a, b: a * b, ("a", "b"), ("b.data", "a.data")),
    Rule("Value.__mul__", "a * a", lambda a, b: a * a, ("a",), ("2 * a.data",)),
    Rule("Value.__mul__", "a * 3.0", lambda a, b: a * 3.0, ("a",), ("3.0",)),
    Rule(
        "Value.tanh", "a.tanh()", lambda a, b: a.tanh(), ("a",), ("(1 - c.data**2)",), forward=True
    ),
    Rule("Value.exp", "a.exp()", lambda a, b: a.exp(), ("a",), ("c.data",), "exp", forward=True),
    Rule(
        "Value.__pow__", "a**3", lambda a, b: a**3, ("a",), ("3 * a.data**2",), "pow", forward=True
    ),
    Rule("Value.__pow__", "a**-1", lambda a, b: a**-1, ("a",), ("-1 * a.data**-2",), "pow"),
)

#: Rules of methods the step does not ask for, checked where the reader wrote them: both orders.
OPTIONAL_RULES = (
    Rule("Value.__neg__", "-a", lambda a, b: -a, ("a",), ("-1",), composite=True),
    Rule("Value.__sub__", "a - b", lambda a, b: a - b, ("a", "b"), ("1", "-1"), composite=True),
    Rule("Value.__rsub__", "2.0 - a", _number_on_left("-"), ("a",), ("-1",), composite=True),
    Rule(
        "Value.__truediv__",
        "a / b",
        lambda a, b: a / b,
        ("a", "b"),
        ("1 / b.data", "-a.data / b.data**2"),
        composite=True,
    ),
    Rule(
        "Value.__rtruediv__",
        "2.0 / a",
        _number_on_left("/"),
        ("a",),
        ("-2.0 / a.data**2",),
        composite=True,
    ),
)


def forward_problem(rule: Rule, names: Namespace) -> str | None:
    """The forward pass of a one-input operation new in this step: its number and its input."""
    value = names["Value"]
    a = value(A)
    out = rule.make(a, None)
    want = rule.make(micrograd_scope()["Value"](A), None).data
    if not isinstance(out, value):
        return f"`c = {rule.text}` with a = Value({A}) gave {out!r}; expected a new Value"
    if not same(_number(out.data), float(want)):
        return (
            f"`c = {rule.text}` with a = Value({A}) gave c.data = {show(out.data)}; expected "
            f"{show(want)}"
        )
    prev = list(getattr(out, "_prev", ()))
    if len(prev) != 1 or prev[0] is not a:
        return (
            f"`c = {rule.text}` with a = Value({A}) gave c._prev = {prev!r}; expected [a], the "
            "one Value c was made from"
        )
    return None


def _probe(rule: Rule) -> Probe:
    return Probe(rule.part, rule.code, lambda names: problem(rule, names), needs=rule.needs)


def _forward_probe(rule: Rule) -> Probe:
    code = f"a = Value({A})\nc = {rule.text}\nprint(c.data, c._prev)"
    return Probe(rule.part, code, lambda names: forward_problem(rule, names), needs=rule.needs)


def _optional_probe(rule: Rule) -> Probe:
    return Probe(
        rule.part, rule.code, lambda names: problem(rule, names), applies=readers_own(rule.part)
    )


#: Step 2's probes: the forward pass of each new operation, then each rule alone.
PROBES = (
    *(_forward_probe(rule) for rule in RULES if rule.forward),
    *(_probe(rule) for rule in RULES),
)

#: Step 3's probes of the operations the track does not ask for, where the reader wrote them.
OPTIONAL_PROBES = tuple(_optional_probe(rule) for rule in OPTIONAL_RULES)
