"""Step 3, "backward": the topological order, the seed, and each rule once, in reverse order.

Some detectors watch the reader's ``backward()`` at work: before it runs,
every node's ``_backward`` is wrapped in a function that notes the node and
then runs the rule, so the detector sees which rules ran, how often and in
what order.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .core import MICROGRAD
from .core import READER_ERRORS
from .core import RECURSION_LIMIT
from .core import Case
from .core import Exercise
from .core import Finding
from .core import Mistake
from .core import Namespace
from .core import attempt
from .core import attempt_error
from .core import limit_put_back
from .core import readers
from .core import show
from .core import stack_depth
from .engine_cases import EngineCase
from .engine_cases import Look
from .engine_cases import micrograd_scope
from .engine_cases import number
from .engine_cases import short
from .engine_cases import value_with_grad
from .step_rules import OPTIONAL_PROBES

#: The step's folder of code (steps/backward/) and its id in the track.
STEP = "backward"

HINTS = (
    "A Value may pass its gradient on only once it has all of it, that is after every "
    'Value made from it has run its rule. (The page "backward() and the topological sort".)',
    "Order the nodes so that each comes after its inputs (a topological sort, depth first "
    "through _prev, each node once), set self.grad = 1.0, then call node._backward() for "
    "each node of that order, reversed.",
    "The original sorts with a function that calls itself for each input; on a chain of "
    "5,000 links that is 5,000 nested calls, past Python's limit. Keep the nodes still to "
    "visit in a list instead, and a set of the nodes already visited.",
    "`stack = [(self, False)]`; while it is not empty, pop `(node, done)`: if done, append "
    "node to the order; else, if node is not visited, mark it, push `(node, True)`, then "
    "push `(child, False)` for each child in node._prev. Then `self.grad = 1.0` and "
    "`for node in reversed(order): node._backward()`.",
)

#: The method the reader writes in this step.
PARTS = ("Value.backward",)


def _worked(names: Namespace) -> dict[str, Any]:
    """The worked example, on the given Value: its nodes by name."""
    made = {name: names["Value"](x) for name, x in WORKED.leaves}
    made["e"] = made["a"] * made["b"]
    made["d"] = made["e"] + made["c"]
    made["L"] = made["d"] * made["f"]
    return made


def _shared(names: Namespace) -> dict[str, Any]:
    """s used by both t and u, on the given Value: its nodes by name."""
    x, y = names["Value"](2.0), names["Value"](-1.5)
    s = x * y
    t, u = s + 1.0, s * 3.0
    return {"x": x, "y": y, "s": s, "t": t, "u": u, "out": t + u}


def _twins(names: Namespace) -> dict[str, Any]:
    """Two different Values of the same number, on the given Value: its nodes by name."""
    x, y = names["Value"](1.5), names["Value"](1.5)
    p, q = x * 2.0, y * 2.0
    return {"x": x, "y": y, "p": p, "q": q, "out": p * q}


def _chain_links(names: Namespace) -> dict[str, Any]:
    """The chain of 5,000 links, not yet run backward: x and y, every 50th link sounded."""
    x = y = names["Value"](0.5)
    for link in range(5000):
        y = y * 1.0001
        if link % 50 == 0:
            _sound(y)
    _sound(x)
    return {"x": x, "y": y}


def _sound(node: Any) -> None:
    """Make ``node._prev`` a copy that, when a sort goes through it, fails as Python would past
    :data:`RECURSION_LIMIT` frames: the check never lowers the page's recursion limit, and the
    browser's stack takes no sort as deep as the chain, whatever the limit says."""
    prev = node._prev
    try:
        sounded = type(type(prev).__name__, (type(prev),), {"__iter__": _sounding_iter})
        node._prev = sounded(prev)
    except READER_ERRORS:  # a _prev of the reader's that takes no copy goes unsounded
        return


def _sounding_iter(inputs: Any) -> Any:
    if stack_depth() > min(sys.getrecursionlimit(), RECURSION_LIMIT):
        raise RecursionError("maximum recursion depth exceeded")
    return super(type(inputs), inputs).__iter__()


@dataclass(frozen=True)
class Graph:
    """A graph that probes and detectors run ``root.backward()`` on: its leaves and its code,
    and ``make``, which builds the same graph from a scope's Value (its nodes by name, not yet
    run backward)."""

    leaves: tuple[tuple[str, float], ...]
    body: str
    root: str
    make: Callable[[Namespace], dict[str, Any]]

    @property
    def code(self) -> str:
        """The graph as code the reader can paste, then ``root.backward()``."""
        leaves = [f"{name} = Value({x!r})" for name, x in self.leaves]
        return "\n".join([*leaves, self.body, f"{self.root}.backward()"])

    def run(self, names: Namespace) -> dict[str, Any]:
        """The graph built with the given Value, then ``root.backward()``: its nodes by name."""
        made = self.make(names)
        made[self.root].backward()
        return made


WORKED = Graph(
    (("a", 2.0), ("b", -3.0), ("c", 10.0), ("f", -2.0)),
    "e = a * b\nd = e + c\nL = d * f",
    "L",
    _worked,
)
SHARED = Graph(
    (("x", 2.0), ("y", -1.5)), "s = x * y\nt = s + 1.0\nu = s * 3.0\nout = t + u", "out", _shared
)
TWINS = Graph((("x", 1.5), ("y", 1.5)), "p = x * 2.0\nq = y * 2.0\nout = p * q", "out", _twins)
CHAIN = Graph((("x", 0.5),), "y = x\nfor _ in range(5000):\n    y = y * 1.0001", "y", _chain_links)


def _graph_case(
    title: str, leaves: tuple[tuple[str, float], ...], body: str, names: Sequence[str]
) -> EngineCase:
    """A hidden case: ``root.backward()`` (the node of ``body``'s last line) gives the seed and
    each of the nodes ``names`` micrograd's gradient."""
    root = body.splitlines()[-1].split(" = ")[0]
    looks = [Look(f"{root}.grad", "the seed: d(output)/d(output) = 1")]
    looks += [Look(f"{name}.grad") for name in names]
    return EngineCase(title, leaves, body, f"{root}.backward()", tuple(looks), root)


def _random_graph(rng: random.Random) -> EngineCase:
    """A random expression of +, *, tanh and numbers on two or three leaves, reusing nodes."""
    leaves = [(name, number(rng, -1.5, 1.5)) for name in "abc"[: rng.randint(2, 3)]]
    nodes = [name for name, _ in leaves]
    lines = []
    for i in range(1, rng.randint(5, 8) + 1):
        x, y, k = rng.choice(nodes[-3:]), rng.choice(nodes), short(number(rng, -1.5, 1.5))
        form = rng.choice([f"{x} + {y}", f"{x} * {y}", f"{x}.tanh()", f"{x} + {k}", f"{k} * {x}"])
        lines.append(f"n{i} = {form}")
        nodes.append(f"n{i}")
    title = f"`{nodes[-1]}.backward()` on the case's graph ({len(lines)} operations)"
    return _graph_case(title, tuple(leaves), "\n".join(lines), nodes[:-1])


def _cases(rng: random.Random) -> tuple[EngineCase, ...]:
    x, y = number(rng, -2, 2), number(rng, -2, 2)
    twice = f"`c.backward()` with a = Value({short(x)}), b = a + a and c = b + b"
    cubed = f"`c.backward()` with c = a * a * a, a = {short(y)}"
    return (
        _graph_case("`L.backward()` on the worked example", WORKED.leaves, WORKED.body, "dfecab"),
        _graph_case(twice, (("a", x),), "b = a + a\nc = b + b", "ba"),
        _graph_case(
            "`out.backward()`, where s is used by both t and u",
            (("x", x), ("y", y)),
            SHARED.body,
            "tusxy",
        ),
        _graph_case(cubed, (("a", y),), "c = a * a * a", "a"),
        *(_random_graph(rng) for _ in range(6)),
    )


# -- watching the reader's backward() at work --------------------------------------------------


def _nodes(root: Any) -> list[Any]:
    """Every node ``root`` was made from, itself included (by identity, without recursion)."""
    found, stack, seen = [], [root], {id(root)}
    while stack:
        node = stack.pop()
        found.append(node)
        for child in node._prev:
            if id(child) not in seen:
                seen.add(id(child))
                stack.append(child)
    return found


def _watching(
    graph: Graph, judge: Callable[[dict[str, Any], list[str]], Finding | None]
) -> Callable[[Namespace], Finding | None]:
    """A detector: build ``graph`` and run its ``root.backward()``, every rule watched, then
    ``judge(nodes, ran)``: its nodes, and the names of the nodes whose rules ran, in order
    ("?": a node the graph does not name).  None when the reader's code raises first."""

    def detect(namespace: Namespace) -> Finding | None:
        made = attempt(graph.make, namespace)
        if made is None:
            return None
        runs: list[Any] = []
        for node in _nodes(made[graph.root]):
            if node._prev:
                node._backward = _watcher(node, node._backward, runs)
        try:
            with limit_put_back():
                made[graph.root].backward()
        except READER_ERRORS:
            return None
        by_id = {id(v): k for k, v in made.items() if not k.startswith("_")}
        return judge(made, [by_id.get(id(node), "?") for node in runs])

    return detect


def _watcher(node: Any, rule: Any, runs: list[Any]) -> Any:
    def watched() -> None:
        runs.append(node)
        rule()

    return watched


def _micrograd_grad(graph: Graph, leaf: str) -> float:
    """``leaf.grad`` after ``root.backward()`` on ``graph``, with micrograd."""

    def grads() -> dict[str, float]:
        return {name: float(node.grad) for name, node in graph.run(micrograd_scope()).items()}

    return MICROGRAD.answer(graph, grads)[leaf]


def _raised(asked: list[int]) -> int | None:
    """The recursion limit above the usual that the reader's code set (see limit_put_back)."""
    return max((n for n in asked if n > RECURSION_LIMIT), default=None)


def _all_ones(made: dict[str, Any], root: str) -> bool:
    """Whether every Value but ``root`` ended with a gradient of exactly 1.0: seeded, each one."""
    return all(node.grad == 1.0 for name, node in made.items() if name != root)


def _no_seed(made: dict[str, Any], ran: list[str]) -> Finding | None:
    if any(made[name].grad != 0 for name in "abcdef"):
        return None
    return Finding(WORKED.code, says="late" if made["L"].grad == 1 else "")


def _not_reversed(made: dict[str, Any], order: list[str]) -> Finding | None:
    if order[:1] == ["L"] or "L" not in order or _all_ones(made, "L"):
        return None
    # Each rule ran before its output had any gradient: all but L's inputs are left at 0.
    if any(made[name].grad != 0 for name in "abce"):
        return None
    want = _micrograd_grad(WORKED, "a")
    fields = {"order": ", ".join(order), "first": order[0], "want": show(want)}
    fields["got"] = show(made["a"].grad, want)
    return Finding(WORKED.code, fields=fields)


def _no_visited(made: dict[str, Any], ran: list[str]) -> Finding | None:
    count = Counter(ran)["s"]
    if count < 2 or _all_ones(made, "out") or made["out"].grad != 1.0:
        return None
    want = _micrograd_grad(SHARED, "x")
    fields = {"count": count, "got": show(made["x"].grad, want), "want": show(want)}
    return Finding(SHARED.code, fields=fields)


def _visited_by_number(made: dict[str, Any], ran: list[str]) -> Finding | None:
    missing = [name for name in ("p", "q") if name not in ran]
    if len(missing) != 1 or len(ran) != len(set(ran)):
        return None
    leaf = "x" if missing == ["p"] else "y"
    fields = {"missing": missing[0], "other": "q" if missing == ["p"] else "p", "leaf": leaf}
    fields["graph"] = "; ".join(TWINS.code.splitlines()[:-1])
    fields |= {"got": show(made[leaf].grad), "want": show(_micrograd_grad(TWINS, leaf))}
    return Finding(TWINS.code + "\nprint(x.grad, y.grad)", fields=fields)


def _recursive_sort(namespace: Namespace) -> Finding | None:
    with limit_put_back() as asked:
        error = attempt_error(CHAIN.run, namespace)
    if not isinstance(error, RecursionError) or not _right_on_the_worked_example(namespace):
        return None  # a sort that recurses is right on a small graph: else it is another mistake
    if _raised(asked) is not None:
        return None  # it asked for a higher limit: that is the mistake to name
    page = sys.getrecursionlimit()  # a limit the page raised before the check does not count
    fields = {"name": _deepest_function(error), "limit": f"{min(page, RECURSION_LIMIT):,}"}
    fields |= {"page": f"{page:,}", "usual": f"{RECURSION_LIMIT:,}"}
    return Finding(CHAIN.code, fields=fields, says="page" if page > RECURSION_LIMIT else "")


def _raises_limit(namespace: Namespace) -> Finding | None:
    """The recursion limit the reader's backward() asked for on the chain, if higher."""
    with limit_put_back() as asked:
        attempt(CHAIN.run, namespace)
    limit = _raised(asked)
    if limit is None:
        return None
    return Finding(CHAIN.code, fields={"limit": f"{limit:,}"})


def _right_on_the_worked_example(namespace: Namespace) -> bool:
    try:
        return PROBES[0].run(namespace) is None
    except READER_ERRORS:
        return False


def _deepest_function(error: BaseException) -> str:
    """The reader's function that the traceback holds most often: the one that recursed."""
    calls = Counter(getattr(code, "co_qualname", code.co_name) for code in readers(error))
    return f"`{calls.most_common(1)[0][0]}`" if calls else "your sort"


# -- backward() alone ---------------------------------------------------------------------------


def _backward_probe(graph: Graph, text: str, calls: int = 1, later: bool = True) -> Case:
    """The probe: ``root.backward()``, ``calls`` times, on ``graph`` gives every Value
    micrograd's gradient, and asks for no higher recursion limit."""
    root = graph.root

    def make(scope: Namespace) -> dict[str, Any]:
        made = graph.make(scope)
        for _ in range(calls):
            made[root].backward()
        return made

    looks = tuple(Look(f"{name}.grad") for name in graph.make(micrograd_scope()))
    action = "\n".join([f"{root}.backward()"] * calls)
    # No root, so no central difference: the probe's message says the gradients alone.
    case = EngineCase(
        f"`{root}.backward()` on {text}", graph.leaves, graph.body, action, looks, make=make
    )

    def run(names: Namespace) -> str | None:
        with limit_put_back() as asked:
            failure = case.run(names)
        raised = _raised(asked)
        if raised is not None:
            return f"`{root}.backward()` on {text} raised the recursion limit to {raised:,}"
        return failure

    return case.probe("Value.backward", run, later=later)


#: backward() called twice: micrograd's adds the second call's gradients to the first's (its
#: seed is set, each rule adds), which training's zero_grad() is there to undo.
_TWICE = (
    "the worked example, called a second time (micrograd's backward() adds to every grad; "
    "only the seed, L.grad, is set)"
)


PROBES = (
    _backward_probe(WORKED, "the worked example"),
    _backward_probe(SHARED, "`out = t + u`, where s is used by both t and u"),
    _backward_probe(TWINS, "`out = p * q`, where p and q are two Values of the same number"),
    _backward_probe(WORKED, _TWICE, calls=2),
    _backward_probe(CHAIN, "a chain of 5,000 links (`y = y * 1.0001`)", later=False),
    *OPTIONAL_PROBES,
)


MISTAKES = (
    # A detector: the seed left out, or set only after the rules ran: one mistake, two sets of
    # numbers, and the message says which.
    Mistake.known(STEP, "no-seed", _watching(WORKED, _no_seed)),
    Mistake.known(STEP, "reseeds"),
    # A detector: the message lists the rules in the order the reader's backward() ran them,
    # which no gradient shows.
    Mistake.known(STEP, "not-reversed", _watching(WORKED, _not_reversed)),
    # A detector: how often the shared rule ran, which the message says, is seen by watching
    # the rules.
    Mistake.known(STEP, "no-visited", _watching(SHARED, _no_visited)),
    # A detector: which of p and q is skipped depends on the reader's set; the message says which.
    Mistake.known(STEP, "visited-by-number", _watching(TWINS, _visited_by_number)),
    Mistake.known(STEP, "resets-grads"),
    # A detector: the message names the reader's function that recursed; RecursionError's
    # words vary.
    Mistake.known(STEP, "recursive-sort", _recursive_sort),
    # A detector: the limit asked for is the reader's choice, and the message says it.
    Mistake.known(STEP, "raises-limit", _raises_limit),
)


def _ready(namespace: Namespace) -> str | None:
    value = namespace.get("Value")
    if not isinstance(value, type) or not hasattr(value, "backward"):
        return "There is no `Value.backward` yet: run the cells of steps 1 to 3."
    return value_with_grad(namespace)


#: The track's step 3.
EXERCISE = Exercise(
    STEP,
    "backward()",
    HINTS,
    "-8.0 6.0 -4.0 -2.0 4.0\n",  # what example.py prints
    tuple(case.hidden() for case in _cases(random.Random(1003))),
    MISTAKES,
    _ready,
    builds_on=("value", "rules"),
    probes=PROBES,
    parts=PARTS,
)
