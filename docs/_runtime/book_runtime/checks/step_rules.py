"""Step 2, "rules": the backward rules of ``+``, ``*``, ``tanh``, and ``exp`` or ``**``.

The rules are checked one node at a time, without ``backward()``: a case
sets the output's ``grad`` and calls its ``_backward()`` directly, then reads
the inputs' gradients.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from book_runtime.checks.core import Example
from book_runtime.checks.core import Exercise
from book_runtime.checks.core import Finding
from book_runtime.checks.core import Mistake
from book_runtime.checks.core import Namespace
from book_runtime.checks.core import probe
from book_runtime.checks.core import probe_error
from book_runtime.checks.core import same
from book_runtime.checks.core import show
from book_runtime.checks.core import starter_part
from book_runtime.checks.core import step_file
from book_runtime.checks.engine_cases import EngineCase
from book_runtime.checks.engine_cases import Look
from book_runtime.checks.engine_cases import number
from book_runtime.checks.engine_cases import short
from book_runtime.checks.engine_cases import value_with_grad
from book_runtime.checks.engine_cases import values_case
from book_runtime.checks.rule_probes import OUT_GRAD
from book_runtime.checks.rule_probes import PROBES
from book_runtime.checks.rule_probes import RULES
from book_runtime.checks.rule_probes import Rule
from book_runtime.checks.rule_probes import expected
from book_runtime.checks.rule_probes import held
from book_runtime.checks.rule_probes import run_rule
from book_runtime.checks.rule_probes import share

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

EXAMPLE = Example(
    code=step_file(STEP, "example.py"),
    prints="-3.0 2.0\n",
)

_EXPLAIN = {
    "+": ("{g}", "{g}"),
    "*": ("b.data * {g}", "a.data * {g}"),
}


def _rule_case(
    leaves: list[tuple[str, float]],
    body: str,
    out: str,
    grad: float,
    looks: list[Look],
    before: str = "",
    needs: str | None = None,
) -> EngineCase:
    given = ", ".join(f"{name} = Value({short(x)})" for name, x in leaves)
    action = f"{before}{out}.grad = {short(grad)}\n{out}._backward()"
    steps = "; ".join([*body.splitlines(), *action.splitlines()])
    title = f"`{steps}` with {given}"
    return values_case(title, leaves, body, [Look(f"{out}.data"), *looks], action, needs=needs)


def _common_cases(rng: random.Random) -> list[EngineCase]:
    def x() -> float:
        return number(rng, -3, 3)

    a, b, g, k, p = x(), x(), x(), x(), x()
    return [
        _rule_case([("a", a), ("b", b)], "c = a + b", "c", g, _looks("+", "c.grad")),
        _rule_case([("a", x()), ("b", x())], "c = a * b", "c", g, _looks("*", "c.grad")),
        _rule_case([("a", b)], f"c = a + {short(k)}", "c", g, [Look("a.grad", "c.grad")]),
        _rule_case(
            [("a", a)], f"c = {short(k)} * a", "c", g, [Look("a.grad", f"{short(k)} * c.grad")]
        ),
        _tanh_case(x(), g),
        _tanh_case(-abs(x()), x()),
        _rule_case([("a", a)], "c = a + a", "c", g, [Look("a.grad", _TWICE)]),
        _rule_case([("a", b)], "c = a * a", "c", g, [Look("a.grad", "2 * a.data * c.grad")]),
        _rule_case(
            [("a", a), ("b", b)],
            "c = a * b",
            "c",
            g,
            [Look("a.grad", _KEEPS.format(p=short(p), share="b.data * c.grad"))],
            before=f"a.grad = {short(p)}\n",
        ),
        _rule_case(
            [("a", k)],
            "t = a.tanh()",
            "t",
            g,
            [Look("a.grad", _KEEPS.format(p=short(p), share="(1 - t.data**2) * t.grad"))],
            before=f"a.grad = {short(p)}\n",
        ),
    ]


_TWICE = "c.grad twice: a is both inputs, and each adds its share"
_KEEPS = "a.grad keeps the {p} it had and adds {share}"


def _looks(op: str, g: str) -> list[Look]:
    first, second = _EXPLAIN[op]
    return [Look("a.grad", first.format(g=g)), Look("b.grad", second.format(g=g))]


def _tanh_case(a: float, g: float) -> EngineCase:
    return _rule_case(
        [("a", a)], "t = a.tanh()", "t", g, [Look("a.grad", "(1 - t.data**2) * t.grad")]
    )


def _optional_cases(rng: random.Random) -> list[EngineCase]:
    def x() -> float:
        return number(rng, -2, 2)

    exp = "e.data * e.grad: exp is its own derivative"
    cases = [
        _rule_case([("a", x())], "e = a.exp()", "e", x(), [Look("a.grad", exp)], needs="exp"),
        _rule_case([("a", x())], "e = a.exp()", "e", x(), [Look("a.grad", exp)], needs="exp"),
        _rule_case(
            [("a", x())],
            "e = a.exp()",
            "e",
            x(),
            [Look("a.grad", _KEEPS.format(p="0.5", share="e.data * e.grad"))],
            before="a.grad = 0.5\n",
            needs="exp",
        ),
    ]
    for n, base in ((3, x()), (2, -abs(x())), (-1, abs(x()))):
        share = f"{n} * a.data**{n - 1} * p.grad"
        cases.append(
            _rule_case([("a", base)], f"p = a**{n}", "p", x(), [Look("a.grad", share)], needs="pow")
        )
    return cases


# -- the known mistakes ------------------------------------------------------------------------
#
# Each detector re-runs the rule probes (rule_probes.py) and claims a rule only when every input
# got exactly what its mistake gives: the probes' numbers make each mistake's numbers differ from
# every other's, and from the right ones.

#: Every rule of the step, for the detectors that can be made in any of them.
_ALL_RULES = tuple(dict.fromkeys(rule.part for rule in RULES))


def _seen(rule: Rule, namespace: Namespace) -> dict[str, float] | None:
    """Each input's gradient after the reader's rule (None if the reader's code raised)."""
    seen = probe(lambda names: run_rule(rule, names["Value"]), namespace)
    if seen is None:
        return None
    grads = {}
    for name, grad in seen.grads.items():
        if isinstance(grad, bool) or not isinstance(grad, (int, float)):
            return None
        grads[name] = float(grad)
    return grads


def _signature(
    namespace: Namespace, rules: tuple[Rule, ...], wrong: Callable[[Rule, str], float]
) -> tuple[Rule, dict[str, float]] | None:
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


def _edges(rule: Rule) -> int:
    """How many edges lead from the node to its input a: 2 in ``a + a`` and ``a * a``."""
    return 2 if rule.text in ("a + a", "a * a") else 1


def _gave(rule: Rule, got: dict[str, float]) -> str:
    return ", ".join(f"{name}.grad = {show(got[name])}" for name in rule.inputs)


def _expected(rule: Rule) -> str:
    return ", ".join(
        f"{name}.grad = {show(float(expected(rule).grads[name]))}" for name in rule.inputs
    )


def _held(rule: Rule) -> str:
    return " and ".join(f"{name}.grad = {held(name)}" for name in rule.inputs)


def _no_out_grad(namespace: Namespace) -> Finding | None:
    found = _signature(namespace, RULES, lambda r, n: held(n) + share(r, n) / OUT_GRAD)
    if found is None:
        return None
    rule, got = found
    return Finding(
        f"The chain rule without out.grad: `c = {rule.text}` holding {_held(rule)}, then "
        f"c.grad = {OUT_GRAD} and `c._backward()`, gave {_gave(rule, got)}, which is what each "
        f"held plus the local derivative alone; expected {_expected(rule)}. Your "
        f"`{rule.part}`'s rule must multiply the local derivative by the gradient that reached "
        f"the output, out.grad = {OUT_GRAD}. With out.grad left out, every gradient would be as "
        "if each node were the output.",
        rule.code,
        rule.part,
    )


def _overwrite(namespace: Namespace) -> Finding | None:
    found = _signature(namespace, RULES, lambda r, n: share(r, n) / _edges(r))
    if found is None:
        return None
    rule, got = found
    story = (
        "a is both inputs, so the rule sends a its share twice, along two edges, and the "
        "second assignment overwrote the first"
        if _edges(rule) == 2
        else "each input already held a gradient (a share from another use of it), and the "
        "rule overwrote it instead of adding its own share"
    )
    return Finding(
        f"`=` instead of `+=`: in `c = {rule.text}` holding {_held(rule)}, then c.grad = "
        f"{OUT_GRAD} and `c._backward()`, {story}: it gave {_gave(rule, got)}; expected "
        f"{_expected(rule)}. A Value used more than once receives a share of its gradient along "
        "each edge; each rule must add its share: `self.grad += ...`.",
        rule.code,
        rule.part,
    )


MISTAKES = (
    Mistake.known(STEP, "mul-not-crossed"),
    # A detector: made in any of the rules, each with its own numbers, which the detector computes.
    Mistake.known(STEP, "no-out-grad", _no_out_grad),
    # A detector: made in any of the rules, each with its own numbers, which the detector computes.
    Mistake.known(STEP, "overwrite", _overwrite),
    Mistake.known(STEP, "tanh-from-input"),
)

#: The methods the reader writes in this step (exp and __pow__: one of the two).
PARTS = ("Value.__add__", "Value.__mul__", "Value.tanh", "Value.exp", "Value.__pow__")


def _exp_of_half(names: Namespace) -> Any:
    return names["Value"](0.5).exp()


def _square_of_half(names: Namespace) -> Any:
    return names["Value"](0.5) ** 2


#: The step's two optional parts, the reader writes at least one: the method, and a probe
#: that uses it.
_OPTIONAL: dict[str, tuple[str, Callable[[Namespace], Any]]] = {
    "exp": ("exp", _exp_of_half),
    "pow": ("__pow__", _square_of_half),
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
        error = probe_error(look, namespace)
        if error is None or starter_part(error) is None:
            written.add(part)
    return frozenset(written)


def _unfinished(written: frozenset[str]) -> str | None:
    if written:
        return None
    return "Write one of exp and __pow__ (both are still the starter's)."


def exercise() -> Exercise:
    """Step 2."""
    rng = random.Random(1002)
    return Exercise(
        STEP,
        "The backward rules",
        HINTS,
        EXAMPLE,
        (*_common_cases(rng), *_optional_cases(rng)),
        MISTAKES,
        _ready,
        written=_written,
        unfinished=_unfinished,
        builds_on=("value",),
        probes=PROBES,
        parts=PARTS,
    )
