"""Nudge an input of a small graph and set the output's change beside the gradient's prediction.

The book defines a gradient as what you see when you nudge one input a little
and watch the output.  A :class:`Nudge` lets the reader do exactly that on a
graph the page built: it moves a leaf's ``data``, computes the graph's forward
pass again with micrograd's own operations, and reports the output's measured
change next to the first-order prediction, ``grad × Δx``, with the gradients
of the point where ``backward()`` last ran (the point the reader left).  Their
difference is the curvature's share: the gradient is a slope, and the slope
itself changes along a large nudge.

Every number the page shows of a nudge is computed here (:class:`Reply`); the
page only sends the reader's value and draws the answer.  Standard library and
micrograd only.

Examples
--------
>>> from micrograd.engine import Value
>>> x1, w1 = Value(2.0, label="x1"), Value(-3.0, label="w1")
>>> x2, w2 = Value(0.0, label="x2"), Value(1.0, label="w2")
>>> b = Value(6.8813735870195432, label="b")
>>> o = (x1 * w1 + x2 * w2 + b).tanh()
>>> o.backward()
>>> reply = Nudge(o).set("w1", -3.0 + 0.001)
>>> round(reply.delta_out, 6), round(reply.predicted, 6)
(0.000999, 0.001)
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from micrograd.engine import Value, topological_order

#: micrograd's operations by the name a node records (``_op``), each applied to Values:
#: a nudge computes a node again with the engine's own code, never a copy of its formula.
OPERATIONS: dict[str, Callable[..., Value]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "neg": operator.neg,
    "tanh": Value.tanh,
    "exp": Value.exp,
    "log": Value.log,
    "ReLU": Value.relu,
    "sigmoid": Value.sigmoid,
}
#: Operations whose output is a straight line of each input alone: they bend no nudge.
LINEAR = frozenset({"+", "-", "neg"})
#: The decimals the page shows a nudge's numbers with.
DECIMALS = 4


def operation(op: str) -> Callable[..., Value]:
    """The engine's operation a node named ``op`` was made by (``"**2"`` is a power)."""
    if op.startswith("**"):
        exponent = float(op[2:])
        return lambda a: a ** (int(exponent) if exponent.is_integer() else exponent)
    try:
        return OPERATIONS[op]
    except KeyError:
        raise ValueError(
            f"a {op!r} node cannot be computed again: a nudge knows micrograd's own "
            f"operations ({', '.join(OPERATIONS)} and powers)"
        ) from None


def replay(root: Value) -> dict[Value, Value]:
    """A copy of ``root``'s graph made by the same operations on its leaves' data now.

    Returns each node of the graph -> its copy.  The copy's gradients are its
    own: running ``backward()`` on it leaves the page's graph as it was.
    """
    copies: dict[Value, Value] = {}
    for node in topological_order(root):
        if not node._prev:
            copies[node] = Value(node.data, label=node.label)
        else:
            copies[node] = operation(node._op)(*(copies[x] for x in node._prev))
    return copies


def gradients(root: Value) -> dict[Value, float]:
    """d(root)/d(node) for every node of ``root``'s graph at its data now, from a copy."""
    copies = replay(root)
    copies[root].backward()
    return {node: copy.grad for node, copy in copies.items()}


def _bends(root: Value, moved: list[Value]) -> list[str]:
    """The operations between the ``moved`` leaves and ``root`` that make the output curve.

    A linear operation does not; a product or quotient does only when both of
    its inputs move with the nudge (``x * w`` is a line in ``w`` alone, but not in
    ``x`` and ``w`` moved together: their product adds Δx × Δw).
    """
    depends: set[Value] = set()
    bending: list[str] = []
    for node in topological_order(root):
        reached = [x for x in node._prev if x in depends]
        if any(node is x for x in moved) or reached:
            depends.add(node)
        if not reached or node._op in LINEAR:
            continue
        if node._op in ("*", "/") and len(reached) < 2:
            continue
        if node._op not in bending:
            bending.append(node._op)
    return bending


@dataclass(frozen=True)
class Reply:
    """What a nudge shows: the output's change measured, and the gradient's prediction."""

    leaf: str
    value: float
    delta_x: float
    out: float
    delta_out: float
    grad: float
    predicted: float
    difference: float
    why: str

    def to_json(self) -> dict[str, Any]:
        """The reply as the page receives it."""
        return asdict(self)


def _shown(x: float) -> str:
    """A number as the page shows it: its decimals, and a true minus sign."""
    text = f"{x:.{DECIMALS}f}"
    return "0." + "0" * DECIMALS if float(text) == 0 else text.replace("-", "−")


def _bracketed(x: float) -> str:
    """A number after an operator: a negative one in brackets, −3 − (−1.5)."""
    return f"({_shown(x)})" if _shown(x).startswith("−") else _shown(x)


class Nudge:
    """A graph whose named leaves the reader moves, and the point its gradients belong to.

    Parameters
    ----------
    root : Value
        The graph's output.  Its gradients are those of the last ``backward()``;
        a graph never run backward gets them computed here, on a copy.
    names : dict of str to Value, optional
        The leaves to nudge, by the name the page's code gives them (``a`` for
        ``a = Value(2.0)``).  Without it, the leaves with a label, by their label.

    Raises
    ------
    ValueError
        If the graph has a node no nudge can compute again (an operation of the
        reader's own), a name for a Value that is no input of it, no named leaf,
        or two leaves of the same name.
    """

    def __init__(self, root: Value, names: dict[str, Value] | None = None) -> None:
        self.root = root
        order = topological_order(root)
        for node in order:
            if node._prev:
                operation(node._op)
        inputs = [node for node in order if not node._prev]
        if names is None:
            labelled = [node for node in inputs if node.label]
            labels = [node.label for node in labelled]
            twice = sorted({label for label in labels if labels.count(label) > 1})
            if twice:
                raise ValueError(
                    f"two leaves share a name, {', '.join(twice)}: a nudge needs one each"
                )
            names = {node.label: node for node in labelled}
        strangers = [name for name, node in names.items() if all(node is not x for x in inputs)]
        if strangers:
            raise ValueError(f"{', '.join(strangers)}: not an input of the graph, so not nudged")
        if not names:
            raise ValueError("the graph has no named leaf to nudge: give an input a label")
        self.leaves = dict(names)
        self._names = {node: name for name, node in names.items()}
        self._built = {node: (node.data, node.grad) for node in order}
        # Whether the page's cell ran backward() on the graph: backward_again does too.
        self.had_gradients = any(grad != 0 for _, grad in self._built.values())
        # The leaf the reader moved last: the reply is about it, and the page's step moves it.
        self._last: Value | None = None
        self._rebase()

    def _rebase(self) -> None:
        """Make the graph as it is now the point that nudges start from."""
        self._base = {node: node.data for node in self._built}
        self._grads = gradients(self.root)

    def base(self, node: Value) -> float:
        """The data ``node`` had at the point the gradients belong to."""
        return self._base[node]

    def rebased(self) -> bool:
        """Whether ``backward()`` ran again at a point other than the one the page built."""
        return any(self._base[node] != data for node, (data, _) in self._built.items())

    def grad(self, node: Value) -> float:
        """d(root)/d(node) at the point the gradients belong to."""
        return self._grads[node]

    def restore(
        self, base: dict[str, float], now: dict[str, float], last: str | None = None
    ) -> None:
        """Bring back a saved nudge: backward() run at ``base``'s values, the leaves at ``now``'s.

        A base that is the build's is the point the page left (no ``backward()`` again).
        ``last`` names the leaf the reader moved last (without it, the last of ``now``).
        """
        self.reset()
        if any(base[name] != self.base(self._leaf(name)) for name in base):
            for name, value in base.items():
                self.set(name, value)
            self.backward_again()
        for name, value in now.items():
            self.set(name, value)
        if last is not None:
            self._last = self._leaf(last)

    def drawn(self) -> Value:
        """The graph as the control draws it: its data now, with the gradients of the point.

        A copy: each node keeps its label, a leaf without one takes its name, and
        each grad is d(root)/d(node) where the gradients belong (the point left).
        """
        copies = replay(self.root)
        for node, copy in copies.items():
            copy.label = node.label or self._names.get(node, "")
            copy.grad = self._grads[node]
        return copies[self.root]

    def reply(self) -> Reply | None:
        """The comparison for the graph as it is now, about the leaf moved last (None: no
        input moved)."""
        moved = [x for x in self.leaves.values() if x.data != self._base[x]]
        if not moved:
            return None
        return self._reply(moved[-1] if self._last is None else self._last)

    def _leaf(self, name: str) -> Value:
        try:
            return self.leaves[name]
        except KeyError:
            known = ", ".join(self.leaves)
            raise ValueError(f"no leaf named {name!r} to nudge (the graph's: {known})") from None

    def set(self, name: str, value: float) -> Reply:
        """Move leaf ``name`` to ``value``, compute the forward pass again, and compare."""
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"a nudge needs a finite number for {name}, got {value!r}")
        leaf = self._leaf(name)
        leaf.data = float(value)
        self._last = leaf
        copies = replay(self.root)
        for node, copy in copies.items():
            node.data = copy.data
        return self._reply(leaf)

    def step(self, name: str, learning_rate: float) -> Reply:
        """One step of gradient descent on leaf ``name``: ``x -= learning_rate * grad``."""
        leaf = self._leaf(name)
        return self.set(name, leaf.data - learning_rate * self._grads[leaf])

    def backward_again(self) -> None:
        """Make the graph's point now the one its gradients belong to.

        A graph its page ran ``backward()`` on gets it again, at this point, as the
        page's cell did (its grads zeroed first); one the page built without it keeps
        its grads (zero), so that what the page runs next starts as the page meant,
        and the gradients are computed on a copy.
        """
        if self.had_gradients:
            for node in self._built:
                node.grad = 0.0
            self.root.backward()
        self._rebase()

    def reset(self) -> None:
        """Give every node back the data and gradient it had when the page built it."""
        for node, (data, grad) in self._built.items():
            node.data, node.grad = data, grad
        self._last = None
        self._rebase()

    def _reply(self, leaf: Value) -> Reply:
        moved = [x for x in self.leaves.values() if x.data != self._base[x]]
        delta_out = self.root.data - self._base[self.root]
        predicted = sum(self._grads[x] * (x.data - self._base[x]) for x in moved)
        difference = delta_out - predicted
        return Reply(
            leaf=self._names[leaf],
            value=leaf.data,
            delta_x=leaf.data - self._base[leaf],
            out=self.root.data,
            delta_out=delta_out,
            grad=self._grads[leaf],
            predicted=predicted,
            difference=difference,
            why=self._why(moved, difference),
        )

    def _why(self, moved: list[Value], difference: float) -> str:
        """One sentence on why the measured change and the prediction agree, or part."""
        bends = sorted(_bends(self.root, moved))
        names = " and ".join(self._names[x] for x in moved)
        if not bends:
            move = "moves" if len(moved) == 1 else "move"
            return (
                f"The prediction is exact: no operation between {names} and the output "
                f"bends, so the output changes in a straight line as {names} {move}, for a "
                "nudge of any size."
            )
        if round(difference, DECIMALS) == 0:
            return (
                "The gradient's prediction and the measured change agree to "
                f"{DECIMALS} decimals: over a small nudge the output moves in a straight line."
            )
        now = gradients(self.root)
        slopes = "; ".join(
            f"{self._names[x]}'s gradient from {_shown(self._grads[x])} to {_shown(now[x])}"
            for x in moved
        )
        terms = " + ".join(
            f"½ × ({_shown(now[x])} − {_bracketed(self._grads[x])}) × "
            f"{_bracketed(x.data - self._base[x])}"
            for x in moved
        )
        estimate = sum(0.5 * (now[x] - self._grads[x]) * (x.data - self._base[x]) for x in moved)
        close = abs(estimate - difference) <= 0.1 * abs(difference)
        share = (
            "is about what the straight line misses: the second-order term"
            if close
            else f"is the second-order term's share of the {_shown(difference)}; over a nudge "
            "this large, the higher-order terms add the rest"
        )
        return (
            f"They differ by {_shown(difference)}: a gradient is the slope where backward() "
            f"last ran, and along this nudge the slope itself changed "
            f"({', '.join(bends)} curves), {slopes}. {terms} = {_shown(estimate)} {share}."
        )


# -- the kernel's add-on: the page's Nudge control asks, this answers -----------------------------

#: The page's graphs being nudged, by the name of their output in the page's namespace.
NUDGES: dict[str, Nudge] = {}


def nudge_of(namespace: dict[str, Any], root: str, leaves: list[str] | None = None) -> Nudge:
    """The Nudge of the graph ``root`` names in ``namespace`` now.

    ``leaves`` names its inputs as the page's code does; without them, the
    inputs are those with a label.  A run that rebuilt the graph (the reader's
    edit, a cell run again) binds the name to a new output: the nudge then starts
    afresh from that graph.
    """
    value = namespace.get(root)
    if not isinstance(value, Value):
        raise ValueError(f"{root!r} names no Value on this page yet: run its cell first")
    current = NUDGES.get(root)
    if current is None or current.root is not value:
        names = None
        if leaves is not None:
            missing = [name for name in leaves if not isinstance(namespace.get(name), Value)]
            if missing:
                raise ValueError(f"{', '.join(missing)}: no Value of that name on this page")
            names = {name: namespace[name] for name in leaves}
        current = NUDGES[root] = Nudge(value, names)
    return current


def bound(namespace: dict[str, Any], nudge: Nudge) -> list[str]:
    """The page's names bound to a node of the graph: what a nudge changes, for the page."""
    nodes = set(topological_order(nudge.root))
    return sorted(name for name, v in namespace.items() if isinstance(v, Value) and v in nodes)


def state(nudge: Nudge) -> dict[str, Any]:
    """The graph as the control draws it: each leaf's value now, base and gradient, the output,
    and whether the prose may follow it (``settled``)."""
    leaves = [
        {"name": name, "value": x.data, "base": nudge.base(x), "grad": nudge.grad(x)}
        for name, x in nudge.leaves.items()
    ]
    moved = any(leaf["value"] != leaf["base"] for leaf in leaves)
    return {
        "out": nudge.root.data,
        "base_out": nudge.base(nudge.root),
        "leaves": leaves,
        "moved": moved,
        "rebased": nudge.rebased(),
        "page_grads": nudge.had_gradients,
        # The graph's data and gradients belong to one point, so the prose may follow
        # it: no input moved since backward() last ran, or the page never ran it (its
        # grads are zero at any point, and a nudge keeps them so).
        "settled": not moved or not nudge.had_gradients,
    }


def answer(question: str, fields: str) -> str:
    """The answer to the page's Nudge control (its worker asks), as JSON.

    ``question`` is ``state`` (``fields``: root, and names, the inputs by the
    names the page's code gives them, when they have no labels), ``set`` (root, leaf, value),
    ``step`` (root, leaf, rate), ``backward``, ``reset`` (root) or ``restore``
    (root, base and now: each leaf's value, and leaf, the one moved last, as a saved
    page kept them).  The
    answer is the graph's :func:`state`, ``reply`` (the :class:`Reply` for the
    graph now, null while no input is moved), ``bound`` (the page's names a nudge
    changes, :func:`bound`) and ``dot``, the graph drawn as it is now, with the
    gradients of the point (:meth:`Nudge.drawn`, as Graphviz's DOT).
    """
    from book_runtime import kernel

    from micrograd.viz.draw import draw_dot

    asked = json.loads(fields)
    nudge = nudge_of(kernel.NAMESPACE, asked["root"], asked.get("names"))
    if question == "set":
        nudge.set(asked["leaf"], asked["value"])
    elif question == "step":
        nudge.step(asked["leaf"], asked["rate"])
    elif question == "backward":
        nudge.backward_again()
    elif question == "reset":
        nudge.reset()
    elif question == "restore":
        nudge.restore(asked["base"], asked["now"], asked.get("leaf"))
    elif question != "state":
        raise ValueError(
            f"no nudge question {question!r}: state, set, step, backward, reset or restore"
        )
    reply = nudge.reply()
    return json.dumps(
        {
            **state(nudge),
            "reply": None if reply is None else reply.to_json(),
            "bound": bound(kernel.NAMESPACE, nudge),
            "dot": draw_dot(nudge.drawn()).source,
        }
    )
