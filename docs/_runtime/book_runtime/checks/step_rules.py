"""Step 2, "rules": the backward rules of ``+``, ``*``, ``tanh``, and ``exp`` or ``**``.

The rules are checked one node at a time, without ``backward()``: a case
sets the output's ``grad`` and calls its ``_backward()`` directly, then reads
the inputs' gradients.
"""

from __future__ import annotations

import math
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
from book_runtime.checks.engine_cases import micrograd_scope
from book_runtime.checks.engine_cases import number
from book_runtime.checks.engine_cases import short
from book_runtime.checks.engine_cases import value_with_grad
from book_runtime.checks.engine_cases import values_case

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

_CROSSED = "a = Value(2.0)\nb = Value(-3.0)\nc = a * b\nc.grad = 1.0\nc._backward()"


def _crossed(names: Namespace) -> tuple[Any, Any]:
    """``_CROSSED``, on the reader's Value: a and b."""
    a, b = names["Value"](2.0), names["Value"](-3.0)
    c = a * b
    c.grad = 1.0
    c._backward()
    return a, b


def _mul_not_crossed(namespace: Namespace) -> Finding | None:
    made = probe(_crossed, namespace)
    if made is None:
        return None
    a, b = made
    if not (same(a.grad, a.data) and same(b.grad, b.data)):
        return None
    return Finding(
        f"`*`'s rule not crossed over: `c = a * b` with a = {show(a.data)} and b = "
        f"{show(b.data)}, then `c._backward()` with c.grad = 1.0, gave a.grad = "
        f"{show(a.grad)}; expected b.data = {show(b.data)} (and b.grad = {show(a.data)}, "
        f"not {show(b.grad)}). Each input received its own number. In a * b, a "
        "change in a is scaled by b (dc/da = b), so a receives b's number and b receives a's: "
        "`self.grad += other.data * out.grad` and `other.grad += self.data * out.grad`.",
        _CROSSED,
    )


#: A probe's graph: the leaf a and the output c, made with ``names["Value"]``.
Graph = Callable[[Namespace], tuple[Any, Any]]


def _sum(names: Namespace) -> tuple[Any, Any]:
    a, b = names["Value"](1.5), names["Value"](-2.0)
    return a, a + b


def _product(names: Namespace) -> tuple[Any, Any]:
    a, b = names["Value"](1.5), names["Value"](-2.0)
    return a, a * b


def _tanh(names: Namespace) -> tuple[Any, Any]:
    a = names["Value"](0.5)
    return a, a.tanh()


def _exp(names: Namespace) -> tuple[Any, Any]:
    a = names["Value"](0.5)
    return a, a.exp()


def _cube(names: Namespace) -> tuple[Any, Any]:
    a = names["Value"](1.5)
    return a, a**3


#: (operation, the probe's graph as the message writes it, that graph, its output, and its
#: local derivative as the message writes it)
_LOCAL: tuple[tuple[str, str, Graph, str, str], ...] = (
    ("+", "a = Value(1.5)\nb = Value(-2.0)\nc = a + b", _sum, "c", "1.0"),
    ("*", "a = Value(1.5)\nb = Value(-2.0)\nc = a * b", _product, "c", "b.data"),
    ("tanh", "a = Value(0.5)\nc = a.tanh()", _tanh, "c", "1 - c.data**2"),
    ("exp", "a = Value(0.5)\nc = a.exp()", _exp, "c", "c.data"),
    ("**", "a = Value(1.5)\nc = a**3", _cube, "c", "3 * a.data**2"),
)


def _rule_run(graph: Graph, out_grad: float) -> Callable[[Namespace], Any]:
    """A probe: ``graph``'s output given ``out_grad``, its rule run once; it returns the leaf a."""

    def look(names: Namespace) -> Any:
        a, out = graph(names)
        out.grad = out_grad
        out._backward()
        return a

    return look


def _a_grad(a: Any) -> float | None:
    if a is None:
        return None
    grad = a.grad
    return grad if isinstance(grad, (int, float)) else None


def _no_out_grad(namespace: Namespace) -> Finding | None:
    for op, body, graph, out, local_text in _LOCAL:
        code = f"{body}\n{out}.grad = 2.0\n{out}._backward()"
        got = _a_grad(probe(_rule_run(graph, 2.0), namespace))
        local = _a_grad(_micrograd(_rule_run(graph, 1.0)))
        if got is None or local is None or not same(float(got), local) or same(local, 2 * local):
            continue
        local_is = local_text if local_text == show(local) else f"{local_text} = {show(local)}"
        return Finding(
            f"The chain rule without out.grad: `{'; '.join(code.splitlines())}` gave "
            f"a.grad = {show(float(got))}, which is the local derivative alone ({local_is}). "
            f"The rule of {op} must multiply it by the gradient that "
            f"reached the output, {out}.grad = 2.0: a.grad should be {show(2 * local)}. "
            "With out.grad left out, every gradient would be as if each node were the output.",
            code,
        )
    return None


def _micrograd(look: Callable[[Namespace], Any]) -> Any:
    return probe(look, micrograd_scope())


def _twice(names: Namespace) -> Any:
    a = names["Value"](3.0)
    b = a + a
    b.grad = 1.0
    b._backward()
    return a


def _squared(names: Namespace) -> Any:
    a = names["Value"](3.0)
    b = a * a
    b.grad = 1.0
    b._backward()
    return a


def _tanh_of_used(names: Namespace) -> Any:
    a = names["Value"](0.5)
    a.grad = 1.0
    t = a.tanh()
    t.grad = 1.0
    t._backward()
    return a


#: (the probe as the message shows it, the probe, what the message says, the gradient a held
#: before the rule ran)
_OVERWRITES: tuple[tuple[str, Callable[[Namespace], Any], str, float], ...] = (
    (
        "a = Value(3.0)\nb = a + a\nb.grad = 1.0\nb._backward()",
        _twice,
        "`b = a + a` sends a its gradient twice, along two edges, and the second "
        "assignment overwrote the first",
        0.0,
    ),
    (
        "a = Value(3.0)\nb = a * a\nb.grad = 1.0\nb._backward()",
        _squared,
        "`b = a * a` sends a a share along each of its two edges (a.data each), and the "
        "second assignment overwrote the first",
        0.0,
    ),
    (
        "a = Value(0.5)\na.grad = 1.0\nt = a.tanh()\nt.grad = 1.0\nt._backward()",
        _tanh_of_used,
        "a already held a gradient of 1.0 (a share from another use of a), and tanh's rule "
        "overwrote it instead of adding its own share",
        1.0,
    ),
)


def _overwrite(namespace: Namespace) -> Finding | None:
    for code, look, story, held in _OVERWRITES:
        got = _a_grad(probe(look, namespace))
        want = _a_grad(_micrograd(look))
        if got is None or want is None or same(float(got), want):
            continue
        if not _overwritten(held, float(got), want):
            continue
        return Finding(
            f"`=` instead of `+=`: {story}, so a.grad is {show(float(got))} instead of "
            f"{show(want)}. A Value used more than once receives a share of its gradient "
            "along each edge; each rule must add its share: `self.grad += ...`.",
            code,
        )
    return None


def _overwritten(held: float, got: float, want: float) -> bool:
    """Whether ``got`` is the last share alone: what an ``=`` leaves behind.

    ``held`` is the gradient a held before: the other share, when it has one;
    else a's two shares are equal.
    """
    if held:
        return same(got, want - held)
    return same(got, want / 2)


_TANH = "a = Value(0.5)\nt = a.tanh()\nt.grad = 1.0\nt._backward()"


def _tanh_from_input(namespace: Namespace) -> Finding | None:
    got = _a_grad(probe(_rule_run(_tanh, 1.0), namespace))
    if got is None or not same(float(got), 1 - 0.5**2):
        return None
    t = math.tanh(0.5)
    return Finding(
        "tanh's derivative taken from its input: `t = a.tanh()` with a = 0.5, then "
        f"`t._backward()` with t.grad = 1.0, gave a.grad = {show(float(got))}, which is "
        "1 - a.data**2. The derivative of tanh is 1 - tanh(a)**2: square the output, "
        f"t.data = {t:.6f}, not the input, and a.grad should be {1 - t * t:.6f}.",
        _TANH,
    )


MISTAKES = (
    Mistake(
        "mul-not-crossed",
        "`*`'s rule not crossed over",
        "In c = a * b, dc/da = b and dc/db = a: each input receives the other's number.",
        _mul_not_crossed,
        STEP,
    ),
    Mistake(
        "no-out-grad",
        "The chain rule without out.grad",
        "A rule multiplies its local derivative by the gradient that reached its output "
        "(out.grad): that product is the chain rule.",
        _no_out_grad,
        STEP,
    ),
    Mistake(
        "overwrite",
        "`=` instead of `+=`",
        "A Value used more than once gets a share of its gradient along each edge; with `=` "
        "each share replaces the one before instead of adding to it.",
        _overwrite,
        STEP,
    ),
    Mistake(
        "tanh-from-input",
        "tanh's derivative taken from its input",
        "d tanh(a)/da = 1 - tanh(a)**2: the output squared (out.data), not the input.",
        _tanh_from_input,
        STEP,
    ),
)


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
    )
