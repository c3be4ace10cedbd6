"""A differential run of a step's code: what it computes on many inputs, as plain data to compare.

:func:`trace` runs one battery of a step on the page's namespace and returns
everything the reader's code computed (numbers exactly, as ``repr``; the
shape of the graph as indices; the type of what was returned; the name of an
exception raised) as a list of tuples, free of the namespace's own classes.
The same battery on two namespaces gives equal traces when, on these inputs,
the two codes compute the same: how ``test_checker_mutants.py`` proves a
listed equivalent mutant equivalent, and tells a surviving mutant from one.

The batteries, by step:

* the engine steps (value, rules, backward): random expression graphs with
  the Value API the step has (``+``, ``*`` with numbers on either side, then
  ``tanh``, ``exp`` and ``**``), reusing nodes; for rules, every node's
  ``_backward()`` called in reverse order after some gradients were preset;
  for backward, ``backward()`` from the output and from an inner node, twice,
  and on a deep chain;
* nn: networks of several shapes after ``random.seed``, their parameters,
  outputs on numbers and on Values, and the gradients after ``backward()``;
* training: a few trainings of the namespace's own MLP;
* finale: the worked neuron on several inputs.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable
from typing import Any

Trace = list[tuple[Any, ...]]

#: How many random cases a battery runs for each step, when proving a mutant equivalent.
RUNS = {"value": 40, "rules": 40, "backward": 30, "nn": 4, "training": 3, "finale": 6}


def _number(x: Any) -> tuple[str, str]:
    """A number as data that compares exactly (``-0.0`` and ``0.0`` differ, as do 1 and 1.0)."""
    if type(x) in (int, float, bool):
        return (type(x).__name__, repr(x))
    return ("other", type(x).__name__)


def _error(error: BaseException) -> tuple[str, str]:
    return ("raised", type(error).__name__)


# -- the engine ------------------------------------------------------------------------------------

#: The operations of each engine step's Value: the step's own and the ones before it.
ENGINE_OPS = {
    "value": ("a + b", "a * b", "a + k", "k + a", "a * k", "k * a"),
    "rules": ("a + b", "a * b", "a + k", "k + a", "a * k", "k * a", "tanh", "exp", "pow"),
}
ENGINE_OPS["backward"] = ENGINE_OPS["rules"]

#: The exponents ``**`` is tried with (ints and floats; the fractional one on positive bases).
EXPONENTS = (2, 3, 2.0, -1, 1, 0, 0.5)


def _leaf(rng: random.Random) -> float:
    return rng.choice([round(rng.uniform(-2, 2), 3), float(rng.randint(-2, 2)), rng.randint(-3, 3)])


def _shadow(op: str, a: float, b: float, k: float) -> float:
    """What the operation gives on plain numbers (the program is kept within bounds by it)."""
    if op == "a + b":
        return a + b
    if op == "a * b":
        return a * b
    if op in ("a + k", "k + a"):
        return a + k
    if op in ("a * k", "k * a"):
        return a * k
    if op == "tanh":
        return math.tanh(a)
    if op == "exp":
        return math.exp(a)
    return float(a**k)


def engine_program(step: str, rng: random.Random) -> tuple[list[float], list[tuple[Any, ...]]]:
    """Leaves, and steps ``(op, i, j, k)``: each makes a node of ``op``, nodes i and j, number k."""
    leaves = [_leaf(rng) for _ in range(rng.randint(1, 4))]
    shadow = [float(x) for x in leaves]
    steps: list[tuple[Any, ...]] = []
    for _ in range(rng.randint(2, 12)):
        for _attempt in range(30):
            op = rng.choice(ENGINE_OPS[step])
            # Mostly the latest nodes, so that the graph is deep as well as wide.
            i = rng.choice([len(shadow) - 1, rng.randrange(len(shadow))])
            j = rng.randrange(len(shadow))
            k: float = rng.choice([_leaf(rng), 0.5, -1])
            a = shadow[i]
            if op == "pow":
                k = rng.choice(EXPONENTS)
                if (k == 0.5 and a <= 0.01) or (k in (-1, 0) and abs(a) < 0.2):
                    continue
            if op == "exp" and abs(a) > 4:
                continue
            try:
                made = _shadow(op, a, shadow[j], k)
            except (ArithmeticError, ValueError):
                continue
            if isinstance(made, complex) or not math.isfinite(made) or abs(made) > 1e3:
                continue
            break
        else:
            op, i, j, k, made = "a + k", len(shadow) - 1, 0, 0.5, shadow[-1] + 0.5
        shadow.append(made)
        steps.append((op, i, j, k))
    return leaves, steps


def _apply(op: str, a: Any, b: Any, k: float) -> Any:
    if op == "a + b":
        return a + b
    if op == "a * b":
        return a * b
    if op == "a + k":
        return a + k
    if op == "k + a":
        return k + a
    if op == "a * k":
        return a * k
    if op == "k * a":
        return k * a
    if op == "tanh":
        return a.tanh()
    if op == "exp":
        return a.exp()
    return a**k


class _Graph:
    """Every node reached from the program's nodes, numbered in a fixed order."""

    def __init__(self, value_type: type, nodes: list[Any]) -> None:
        self.value_type = value_type
        self.nodes: list[Any] = []
        self.index: dict[int, int] = {}
        for node in nodes:
            self.add(node)

    def add(self, node: Any) -> int:
        if id(node) not in self.index:
            self.index[id(node)] = len(self.nodes)
            self.nodes.append(node)
        return self.index[id(node)]

    def describe(self, with_grads: bool) -> Trace:
        """Each node (the inputs found through ``_prev`` added as they come): what it holds."""
        out: Trace = []
        n = 0
        while n < len(self.nodes):
            node = self.nodes[n]
            n += 1
            if not isinstance(node, self.value_type):
                out.append(("not a Value", _number(node)))
                continue
            prev = getattr(node, "_prev", None)
            try:
                children = tuple(self.add(c) for c in prev) if prev is not None else None
            except TypeError:
                children = ("not iterable",)
            row: tuple[Any, ...] = (
                _number(getattr(node, "data", None)),
                repr(getattr(node, "_op", None)),
                type(prev).__name__,
                children,
            )
            if with_grads:
                row += (_number(getattr(node, "grad", None)),)
            out.append(row)
        return out


def _build(namespace: dict[str, Any], leaves: list[float], steps: list[tuple[Any, ...]]) -> Any:
    value = namespace["Value"]
    nodes = [value(x) for x in leaves]
    for op, i, j, k in steps:
        nodes.append(_apply(op, nodes[i], nodes[j], k))
    return nodes


def engine_trace(step: str, namespace: dict[str, Any], seed: int) -> Trace:
    """One random graph of the engine's battery for ``step`` (see the module's docstring)."""
    rng = random.Random(f"{step}:{seed}")
    leaves, steps = engine_program(step, rng)
    value = namespace["Value"]
    out: Trace = [("program", repr(leaves), repr(steps))]
    try:
        nodes = _build(namespace, leaves, steps)
    except Exception as error:
        return [*out, _error(error)]
    graph = _Graph(value, nodes)
    if step == "value":
        return out + graph.describe(False)
    presets = [(i, round(rng.uniform(-2, 2), 2)) for i in range(len(nodes)) if rng.random() < 0.4]
    seed_grad = round(rng.uniform(-2, 2), 2)
    try:
        for i, grad in presets:
            nodes[i].grad = grad
        if step == "rules":
            nodes[-1].grad = seed_grad
            for node in reversed(nodes):
                node._backward()
            out.append(("rules ran",))
        else:
            nodes[-1].backward()
            out += graph.describe(True)
            inner = rng.randrange(len(nodes))
            nodes[inner].backward()  # a second pass, from an inner node: gradients add up
            out.append(("again", inner))
    except Exception as error:
        out.append(_error(error))
    out += graph.describe(True)
    if step == "backward" and seed % 10 == 0:
        out += _deep_chain(value)
    return out


def _deep_chain(value: type) -> Trace:
    """A chain of 3,000 links: deeper than Python lets a function call itself.

    Under CPython's usual recursion limit, as a check runs it; a backward() that
    raises the limit shows in the trace too.
    """
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(min(limit, 1000))
    try:
        x = value(0.5)
        y = x
        for i in range(3000):
            y = y * 1.0001 if i % 2 else y + 0.001
        y.backward()
        raised = sys.getrecursionlimit()
        return [("chain", _number(x.grad), _number(y.grad), _number(y.data), raised)]
    except Exception as error:
        return [("chain", *_error(error))]
    finally:
        sys.setrecursionlimit(limit)


# -- nn --------------------------------------------------------------------------------------------

SHAPES: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("Neuron", (3,)),
    ("Neuron", (1,)),
    ("Layer", (3, 4)),
    ("Layer", (2, 1)),
    ("MLP", (3, [4, 4, 1])),
    ("MLP", (2, [1, 2])),
    ("MLP", (2, [3, 1, 1])),
    ("MLP", (1, [2, 1])),
    ("MLP", (4, [2, 3, 1])),
)


def _output(value: type, out: Any) -> tuple[Any, ...]:
    if isinstance(out, value):
        return ("Value", _number(getattr(out, "data", None)))
    if isinstance(out, list):
        return ("list", tuple(_output(value, o) for o in out))
    return ("other", type(out).__name__)


def _total(value: type, out: Any) -> Any:
    if isinstance(out, list):
        total = out[0]
        for o in out[1:]:
            total = total + o
        return total
    return out


def _parameters(value: type, model: Any) -> tuple[Any, ...]:
    params = model.parameters()
    if not isinstance(params, list):
        return ("not a list", type(params).__name__)
    return tuple(
        (_number(p.data), _number(p.grad)) if isinstance(p, value) else ("other",) for p in params
    )


def nn_trace(namespace: dict[str, Any], seed: int) -> Trace:
    """Every shape of :data:`SHAPES`, built after ``random.seed``, used and differentiated."""
    value = namespace["Value"]
    out: Trace = []
    rng = random.Random(f"nn:{seed}")
    for number, (kind, args) in enumerate(SHAPES):
        random.seed(seed * 100 + number)
        try:
            model = namespace[kind](*args)
            out.append((kind, repr(args), "drawn", random.random()))
            out.append(("parameters", _parameters(value, model)))
            x = [round(rng.uniform(-2, 2), 3) for _ in range(args[0])]
            first = model(x)
            out.append(("out", _output(value, first)))
            _total(value, first).backward()
            out.append(("grads", _parameters(value, model)))
            xv = [value(v) for v in x]
            second = model(xv)
            out.append(("out on Values", _output(value, second)))
            _total(value, second).backward()
            out.append(("grads again", _parameters(value, model)))
            out.append(("input grads", tuple(_number(v.grad) for v in xv)))
            model.zero_grad()
            out.append(("zeroed", _parameters(value, model)))
        except Exception as error:
            out.append((kind, repr(args), *_error(error)))
    return out


# -- training --------------------------------------------------------------------------------------

#: (seed, the MLP's sizes, the points or None for the page's, steps, learning rate)
TRAININGS: tuple[tuple[int, tuple[int, list[int]], Any, int, float], ...] = (
    (1337, (3, [4, 4, 1]), None, 6, 0.1),
    (7, (2, [3, 1]), ([[0.5, -1.0], [1.5, 2.0], [-0.3, 0.2]], [1.0, -1.0, 0.5]), 3, 0.2),
    (3, (3, [2, 1]), None, 1, 0.0),
    (5, (3, [4, 1]), None, 0, 0.1),
    (11, (3, [3, 1]), None, 2, -0.05),
    (2, (2, [1]), ([[1.0, 2.0]], [0.25]), 4, 0.3),
)


def training_trace(namespace: dict[str, Any], seed: int) -> Trace:
    """Two of :data:`TRAININGS` (by ``seed``): the losses, and the weights and grads after."""
    value = namespace["Value"]
    out: Trace = []
    for case in (TRAININGS[seed % len(TRAININGS)], TRAININGS[(seed + 3) % len(TRAININGS)]):
        start, (nin, nouts), points, steps, rate = case
        xs, ys = points if points is not None else (namespace["xs"], namespace["ys"])
        random.seed(start)
        model = namespace["MLP"](nin, nouts)
        try:
            losses = namespace["train"](model, xs, ys, steps, rate)
            shown = (
                tuple(_number(loss) for loss in losses)
                if isinstance(losses, list)
                else type(losses).__name__
            )
            out.append((repr(case), "losses", shown))
        except Exception as error:
            out.append((repr(case), *_error(error)))
        out.append(("after", _parameters(value, model), random.random()))
    return out


# -- finale ----------------------------------------------------------------------------------------


def finale_trace(namespace: dict[str, Any], seed: int) -> Trace:
    """The worked neuron (seed 0) or a random one: what it returns, with the gradients.

    The finale's cell runs last, so what it defines is what the page uses from then on:
    battery 0 also runs the nn battery on the namespace's classes.
    """
    value = namespace["Value"]
    rng = random.Random(f"finale:{seed}")
    rows: Trace = nn_trace(namespace, 0) if seed == 0 else []
    if seed == 0:
        inputs = (2.0, -3.0, 0.0, 1.0, 6.8813735870195432)
    else:
        inputs = tuple(round(rng.uniform(-2, 2), 3) for _ in range(5))
    try:
        made = namespace["neuron"](*inputs)
    except Exception as error:
        return [*rows, (repr(inputs), *_error(error))]
    if not isinstance(made, tuple):
        return [*rows, (repr(inputs), "returned", type(made).__name__)]
    rows.append((repr(inputs), "returned", len(made)))
    for v in made:
        if isinstance(v, value):
            rows.append((_number(v.data), _number(v.grad), repr(getattr(v, "_op", None))))
        else:
            rows.append(("other", type(v).__name__))
    return rows


# -- all of them -----------------------------------------------------------------------------------

BATTERIES: dict[str, Callable[[dict[str, Any], int], Trace]] = {
    "value": lambda namespace, seed: engine_trace("value", namespace, seed),
    "rules": lambda namespace, seed: engine_trace("rules", namespace, seed),
    "backward": lambda namespace, seed: engine_trace("backward", namespace, seed),
    "nn": nn_trace,
    "training": training_trace,
    "finale": finale_trace,
}


def trace(step: str, namespace: dict[str, Any], seed: int) -> Trace:
    """Battery ``seed`` of ``step`` on ``namespace``; the global random state is left as it was."""
    state = random.getstate()
    try:
        return BATTERIES[step](namespace, seed)
    finally:
        random.setstate(state)


def first_difference(
    step: str, solution: dict[str, Any], other: dict[str, Any], runs: int | None = None
) -> str | None:
    """Where ``other`` first computes otherwise than ``solution``, in words; None if nowhere."""
    for seed in range(RUNS[step] if runs is None else runs):
        mine, theirs = trace(step, solution, seed), trace(step, other, seed)
        if mine != theirs:
            for n, (a, b) in enumerate(zip(mine, theirs, strict=False)):
                if a != b:
                    return f"battery {seed}, row {n}: solution {a!r}, mutant {b!r}"
            return f"battery {seed}: solution {len(mine)} rows, mutant {len(theirs)}"
    return None
