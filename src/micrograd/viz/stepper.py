"""The backward pass one rule at a time: the frames of a step-by-step picture.

:func:`backward_frames` runs a real backward pass, exactly as
:meth:`micrograd.engine.Value.backward` does (seed the output's gradient with
1, then run each node's rule in reverse :func:`~micrograd.engine.topological_order`),
but stops after every rule to draw the graph with :func:`~micrograd.viz.draw.draw_dot`:
the node whose rule just ran is highlighted, the inputs it passed a gradient
to are outlined, and every ``grad`` shows what has arrived so far.  Leaves
have no rule, so they get no frame of their own: the step that sends a leaf
its last share says that its grad is final.  The frames share one layout:
each box is as wide in every frame as where its grad is widest (by the
metrics Graphviz's estimate and graphviz-pure size Helvetica by), so that no
node moves from step to step.  The last frame is the plain drawing of the
finished graph, the same DOT source as ``draw_dot(root)`` after
``root.backward()``, where no grad was wider on its way than at the end (a
gradient that only grows from 0, as in most graphs).  Given another ``order``,
the same rules run in that order instead, to show what goes wrong.

:class:`BackwardStepper` turns the frames into one piece of HTML: every frame
as an inline SVG with a caption, and *Previous* / *Next* buttons.
:class:`StepperPair` steps two of them side by side with one set of buttons
(say, the engine's order against a wrong one) and marks the step where they
part; its buttons include a switch, a button per side, for a page that shows
one side at a time where two do not fit.  The page that shows them needs a
small script to show one frame at a time; without it, every frame is shown,
one under the other.

A stepper is data first: :meth:`~Stepper.to_json` gives its label, and each
frame's caption and DOT source, as plain JSON-ready data.  In Jupyter it
displays itself as HTML (``_repr_html_``), its frames laid out by ``dot``
(:func:`~micrograd.viz.svg.render_svg`).  Where the DOT sources are laid out
some other way, :func:`html_from_json` assembles the same HTML from the data
and the SVG of each source.

This module needs the ``graphviz`` Python package, like
:mod:`micrograd.viz.draw`, and its HTML a ``dot`` program.
"""

from __future__ import annotations

__all__ = [
    "MAX_STEPPER_NODES",
    "BackwardStepper",
    "Frame",
    "Share",
    "Step",
    "Stepper",
    "StepperPair",
    "backward_frames",
    "html_from_json",
]

import hashlib
import html
import json
import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from micrograd.engine import Value, topological_order
from micrograd.viz.draw import _INK, draw_dot, grad_field_width
from micrograd.viz.labels import dot_names, format_number, formula, name_of, operand
from micrograd.viz.paths import local_derivatives
from micrograd.viz.svg import inline_svg, render_svg

if TYPE_CHECKING:  # pragma: no cover - only for the type checker
    import graphviz


#: The most Value nodes a stepper draws: one frame per rule, each a whole graph.
MAX_STEPPER_NODES = 40

_CURRENT_FILL = "#ffd33d"  # the node whose rule runs: yellow
_RECEIVING = "#bc4c00"  # the inputs it passes a gradient to: an orange outline
_RECEIVING_FILL = "#fff1e5"
_TITLE_SIZE = 14  # a pair side's title above its graph, a little over the boxes' 12
#: SVG classes of the node at work and of the inputs it passes to (the page keeps them in view).
ACTIVE_CLASS = "mg-active"
RECEIVING_CLASS = "mg-receiving"


@dataclass(frozen=True)
class Share:
    """What one rule passed to one of its inputs, with the numbers that made it.

    Attributes
    ----------
    name : str
        The input's name (:func:`~micrograd.viz.labels.name_of`).
    data : float
        The input's value.
    local : float
        The local derivative: d(node)/d(input), what the rule adds per unit of
        the node's grad (found by running the node's own rule once with a grad
        of 1, so it is the engine's rule, whatever it is).
    before, after : float
        The input's grad before and after the rule ran: the rule added
        ``after - before``, which is ``local * node.grad``.
    final : float
        The input's grad once ``backward()`` has finished (all of its users' rules have run).
    """

    name: str
    data: float
    local: float
    before: float
    after: float
    final: float


@dataclass(frozen=True)
class Step:
    """One rule's run, as numbers: the node, its grad, and what each input received.

    Attributes
    ----------
    node : str
        The node's name.
    op : str
        Its operation (``"*"``, ``"tanh"``, ...).
    formula : str
        How it was computed from its inputs (``"x1 * w1"``).
    data, grad : float
        The node's value, and its grad when the rule ran (the ``out.grad`` of the chain rule).
    final : float
        The node's grad once ``backward()`` has finished: ``grad`` in the engine's
        order, where every user of the node has run before it; maybe not in another.
    inputs : tuple of Share
        Each input once, in operand order.
    engine_order : bool
        Whether the rules run in the engine's order (reverse topological);
        False for another ``order`` given to :func:`backward_frames`.
    """

    node: str
    op: str
    formula: str
    data: float
    grad: float
    final: float
    inputs: tuple[Share, ...]
    engine_order: bool = True

    def to_json(self) -> dict[str, Any]:
        """The step as plain data (what a page needs to ask the reader for its numbers)."""
        data = {key: value for key, value in vars(self).items() if key != "inputs"}
        return {**data, "inputs": [vars(share).copy() for share in self.inputs]}


@dataclass(frozen=True)
class Frame:
    """One picture of the backward pass.

    Attributes
    ----------
    caption : str
        What happened in this step, with the numbers.
    dot : graphviz.Digraph
        The drawing: :func:`~micrograd.viz.draw.draw_dot` of the graph as it is
        after this step, with the step's nodes highlighted.
    node : Value or None
        The node whose rule ran in this step (the output for the seed);
        None for the first and the last frame.
    name : str or None
        ``node``'s name in the drawing (``n4``, see :func:`~micrograd.viz.labels.dot_names`):
        the same for the same node of two copies of one graph.
    step : Step or None
        What the node's rule did, as numbers; None where no rule ran (the
        first and last frames, the seed, a node without a rule).
    sums : tuple of str
        The rule's arithmetic, one line per input, in operand order, with this
        step's numbers: ``w2.grad += x2.data × n.grad = 0.0000 × 0.5000 = 0.0000``
        (the local derivative in the rule's own terms, times the node's grad);
        empty where no rule ran.
    """

    caption: str
    dot: graphviz.Digraph
    node: Value | None
    name: str | None = None
    step: Step | None = None
    sums: tuple[str, ...] = ()


def _check_order(order: Sequence[Value], graph: list[Value]) -> list[Value]:
    """``order`` as a list of nodes of ``graph``, each once, or an error that says what is wrong."""
    if isinstance(order, (str, bytes)) or not isinstance(order, Sequence):
        raise TypeError(f"order must be a list of Values, got {type(order).__name__}")
    members = set(graph)
    seen: set[Value] = set()
    for i, node in enumerate(order):
        if not isinstance(node, Value):
            raise TypeError(f"order must hold Values; item {i} is {type(node).__name__} {node!r}")
        if node not in members:
            raise ValueError(f"order item {i} ({name_of(node)}) is not a node of this graph")
        if node in seen:
            raise ValueError(f"order names {name_of(node)} twice: each rule runs once")
        seen.add(node)
    return list(order)


def backward_frames(
    root: Value,
    rankdir: str = "TB",
    max_nodes: int = MAX_STEPPER_NODES,
    order: Sequence[Value] | None = None,
) -> list[Frame]:
    """Run ``root.backward()`` one rule at a time and draw the graph after each.

    This *is* a backward pass: afterwards every ``grad`` in the graph is what
    ``root.backward()`` would have left (gradients accumulate, as always, on
    top of whatever the graph held before).

    The frames are: the graph before anything runs; the seed (``root.grad``
    set to 1); one frame per node that has a backward rule (``node._backward()``
    runs, as in ``backward()``), in reverse topological order, the engine's
    own order; and the finished graph.  A leaf has no rule and no frame: the
    caption of the step that sends it its last share says its grad is final.

    Parameters
    ----------
    root : Value
        The output node.
    rankdir : {"TB", "LR", "BT", "RL"}, default "TB"
        Direction of the drawings (see :func:`~micrograd.viz.draw.draw_dot`).
    max_nodes : int, default 40
        The largest graph (in Value nodes) to step through: each frame draws
        the whole graph.
    order : list of Value, optional
        Run the rules in this order instead (nodes of the graph, each at
        most once; a node left out never passes anything on), to show what
        another order does.  The last frame then shows what that order
        leaves, which is not what ``backward()`` leaves unless the order is
        a reverse topological one.

    Returns
    -------
    list of Frame
        3 frames more than the graph (or ``order``) has nodes with a rule.
        They share one layout: a box is given, in every frame, the width it
        has where its grad is widest.  With the engine's order, the last
        one's ``dot`` has the same source as ``draw_dot(root, rankdir)``
        after ``root.backward()``, where no box showed a wider grad before.

    Raises
    ------
    TypeError
        If ``root`` is not a Value, or ``order`` is not a list of Values.
    ValueError
        If the graph has more than ``max_nodes`` nodes, ``rankdir`` is
        invalid, or ``order`` names a node twice or one from another graph.

    Examples
    --------
    >>> a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    >>> c = a * b
    >>> c.label = "c"
    >>> for frame in backward_frames(c):
    ...     print(*frame.caption.split("; "), sep=";\\n  ")
    Before backward(): every grad is 0.
    backward() sets c.grad = 1, then runs the rules from c back to the leaves.
    c = a * b: its rule (*) adds to a.grad (0.0000 → -3.0000) and b.grad (0.0000 → 2.0000);
      a and b are leaves: their grads are final.
    Done: every grad is filled in, as c.backward() leaves it.
    >>> a.grad, b.grad
    (-3.0, 2.0)
    """
    return _frames(root, rankdir, max_nodes, order).frames


@dataclass(frozen=True)
class _Frames:
    """What :func:`backward_frames` draws, and how: the frames; the DOT source of the graph
    before backward() (``plain``, before any box was widened); and each box's width where
    its grad is widest (``widths``, points, by its name in the DOT source)."""

    frames: list[Frame]
    plain: str
    widths: dict[str, float]


def _frames(root: Value, rankdir: str, max_nodes: int, order: Sequence[Value] | None) -> _Frames:
    """:func:`backward_frames`, with how the frames share one layout."""
    if not isinstance(root, Value):
        raise TypeError(f"backward_frames needs a Value, got {type(root).__name__} {root!r}")
    graph = topological_order(root)
    if len(graph) > max_nodes:
        raise ValueError(
            f"the graph has {len(graph)} nodes; a stepper draws at most {max_nodes} "
            "(raise max_nodes, or step through a smaller graph)"
        )
    engine_order = order is None
    steps = list(reversed(graph)) if order is None else _check_order(order, graph)
    names = dot_names(graph)  # the names draw_dot gives the nodes
    out = name_of(root)
    called = f"({out})" if " " in out else out  # (x1*w1 + c).backward()
    before = "every grad is 0" if all(node.grad == 0 for node in graph) else "the grads it holds"
    frames: list[Frame] = []
    shown: list[list[float]] = []  # each frame's grads, in graph's order

    def add(frame: Frame) -> None:
        frames.append(frame)
        shown.append([node.grad for node in graph])

    add(Frame(f"Before backward(): {before}.", draw_dot(root, rankdir=rankdir), None))

    root.grad = 1.0  # the seed, as in Value.backward
    seed = draw_dot(root, rankdir=rankdir)
    _mark(seed, names[root], _CURRENT_FILL, ACTIVE_CLASS)
    if engine_order:
        seeded = (
            f"backward() sets {_grad_of(root)} = 1, "
            f"then runs the rules from {out} back to the leaves."
        )
    else:
        ran = ", ".join(name_of(node) for node in steps if _runs(node))
        seeded = f"{_grad_of(root)} is set to 1, then the rules run in another order: {ran}."
    add(Frame(seeded, seed, root, names[root]))
    last_share = _last_shares(steps)
    # Each step says what its inputs end with; another order is judged against what
    # backward() leaves: each leaf it finishes, and the last frame, say which grads end wrong.
    leaves = _what_backward_leaves(root, graph)
    right = None if engine_order else leaves
    ran_before: set[Value] = set()  # in another order, a rule may run before its node is done
    for k, node in enumerate(steps):
        if not _runs(node):
            continue  # a leaf: nothing to pass on, no frame
        # each input once, in operand order; none when there is no rule to run
        rule = node._rule
        inputs = list(dict.fromkeys(node._prev)) if rule is not None else []
        was = [child.grad for child in inputs]
        derivatives = local_derivatives(node) if inputs else {}
        local = [derivatives[child] for child in inputs]
        if rule is not None:
            node._backward()  # the node's own rule, with its inputs, as backward() runs it
        dot = draw_dot(root, rankdir=rankdir)
        _mark(dot, names[node], _CURRENT_FILL, ACTIVE_CLASS, with_op=bool(node._op))
        for child in inputs:
            _mark(dot, names[child], _RECEIVING_FILL, RECEIVING_CLASS, outline=_RECEIVING)
        final = [child for child in inputs if not child._prev and last_share.get(child) == k]
        caption = _caption(node, inputs, was, final)
        if late := [child for child in inputs if child in ran_before]:
            caption = caption[:-1] + _too_late(late)
        ran_before.add(node)
        if right is not None and (wrong := _wrong(final, right)):
            caption = caption[:-1] + f", and wrong: {_against(wrong, right)}."
        step = None
        sums = tuple(_sum(node, inputs, k, d, was[k]) for k, d in enumerate(local))
        if inputs:
            shares = tuple(
                Share(name_of(c), c.data, d, old, c.grad, leaves[c])
                for c, d, old in zip(inputs, local, was, strict=True)
            )
            step = Step(
                name_of(node),
                node._op,
                formula(node),
                node.data,
                node.grad,
                leaves[node],
                shares,
                engine_order,
            )
        add(Frame(caption, dot, node, names[node], step, sums))
    if right is None:
        done = f"Done: every grad is filled in, as {called}.backward() leaves it."
    elif wrong := _wrong(graph, right):
        done = (
            "Done: every rule has run, in the order given. "
            f"{_names(wrong, grads=True)} end wrong: {_against(wrong, right)}."
        )
    else:
        done = (
            "Done: every rule has run, in the order given; "
            f"the grads are those {called}.backward() leaves."
        )
    add(Frame(done, draw_dot(root, rankdir=rankdir), None))
    plain = frames[0].dot.source
    widths = _hold_widths(frames, [names[node] for node in graph], shown)
    return _Frames(frames, plain, widths)


def _hold_widths(
    frames: list[Frame], names: list[str], shown: list[list[float]]
) -> dict[str, float]:
    """Give each box, in every frame, the width it has where its grad is widest.

    A box is as wide as its widest field, and only its grad changes from frame to
    frame: so the frames share one layout, each node in its place.  A width is
    the least Graphviz draws a box with (a wider name or data keeps its own); the
    frame where a box's grad is widest has none to give, and stays as
    :func:`~micrograd.viz.draw.draw_dot` draws it.  Returns each box's widest width
    (points), by its name.
    """
    held = {}
    for i, name in enumerate(names):
        widths = [grad_field_width(grads[i]) for grads in shown]
        widest = held[name] = max(widths)
        for frame, width in zip(frames, widths, strict=True):
            if width < widest:
                frame.dot.node(name, width=_inches(widest))
    return held


def _inches(width: float) -> str:
    """A width in points as Graphviz's attribute, in inches."""
    return f"{width / 72:.4f}"


def _what_backward_leaves(root: Value, graph: list[Value]) -> dict[Value, float]:
    """Each node's grad after ``root.backward()``; the graph's grads are left as they were."""
    held = [node.grad for node in graph]
    root.grad = 1.0
    for node in reversed(graph):
        node._backward()
    right = {node: node.grad for node in graph}
    for node, grad in zip(graph, held, strict=True):
        node.grad = grad
    return right


def _wrong(nodes: list[Value], right: dict[Value, float]) -> list[Value]:
    """The nodes whose grad is not what backward() leaves (rounding aside)."""
    return [
        node
        for node in nodes
        if not math.isclose(node.grad, right[node], rel_tol=1e-9, abs_tol=1e-12)
    ]


def _names(nodes: list[Value], grads: bool = False) -> str:
    """``a``, ``a and b``, ``a, b and c`` (with ``grads``: ``a.grad and b.grad``)."""
    named = [_grad_of(node) if grads else name_of(node) for node in nodes]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + f" and {named[-1]}"


def _against(wrong: list[Value], right: dict[Value, float]) -> str:
    """``-3.0000 and 2.0000, where backward() gives -33.0000 and 22.0000``."""
    got = " and ".join(format_number(node.grad) for node in wrong)
    wanted = " and ".join(format_number(right[node]) for node in wrong)
    return f"{got}, where backward() gives {wanted}"


def _runs(node: Value) -> bool:
    """Whether a step of ``node`` gets a frame: it is not a leaf."""
    return node._rule is not None or bool(node._prev)


def _last_shares(steps: list[Value]) -> dict[Value, int]:
    """Each leaf -> the step (index in ``steps``) after which nothing more is sent to it."""
    last: dict[Value, int] = {}
    for k, node in enumerate(steps):
        if node._rule is not None:
            for child in node._prev:
                if not child._prev:
                    last[child] = k
    return last


def _too_late(late: list[Value]) -> str:
    """What a step says of the inputs whose own rule ran at an earlier step."""
    whose = " and ".join(f"{name_of(child)}'s" for child in late)
    if len(late) == 1:
        return f"; {whose} rule ran at an earlier step: this share never reaches its inputs."
    return f"; {whose} rules ran at earlier steps: these shares never reach their inputs."


def _caption(node: Value, inputs: list[Value], was: list[float], final: list[Value]) -> str:
    """What one step did, with the numbers, and which leaves it finished."""
    name = name_of(node)
    if not inputs:
        return (
            f"{name} is a node without a backward rule: nothing to pass on; "
            f"its grad, {format_number(node.grad)}, is final."
        )
    changes = " and ".join(
        f"{_grad_of(child)} ({format_number(old)} \u2192 {format_number(child.grad)})"
        for child, old in zip(inputs, was, strict=True)
    )
    made = formula(node)
    # A node labelled with its own formula ("x1*w1 + x2*w2") is named once.
    caption = f"{name}: " if made == name else f"{name} = {made}: "
    caption += f"its rule ({node._op}) adds to {changes}"
    if len(final) == 1:
        caption += f"; {name_of(final[0])} is a leaf: its grad is final"
    elif final:
        caption += f"; {_names(final)} are leaves: their grads are final"
    return caption + "."


def _term(node: Value) -> str:
    """A node's name as a term of a product: ``x2``, or ``(x1*w1 + b)``."""
    return operand(name_of(node))


def _d(node: Value) -> str:
    """``dx``, or ``d(x1*w1 + b)``."""
    return "d" + _term(node)


def _data_of(node: Value) -> str:
    """``a.data``, or ``(x2*w2).data``: a node's value, never its name alone."""
    return f"{_term(node)}.data"


def _local_term(node: Value, inputs: list[Value], k: int) -> str:
    """The local derivative d(node)/d(input ``k``), written as the rule makes it.

    The engine's own operations say it in their terms, with the values they
    read written as values (``x2.data`` for ``x2 * w2``'s ``w2``,
    ``(1 - o.data²)`` for ``tanh``), so that a name is never taken for its
    value; any other rule as ``do/dx``.
    """
    op, x = node._op, inputs[k]
    if op == "+" or (op == "-" and k == 0):
        return "1"
    if op in ("neg", "-"):
        return "-1"
    if op == "*":
        return f"2·{_data_of(x)}" if len(inputs) == 1 else _data_of(inputs[1 - k])
    if op == "tanh":
        return f"(1 - {_data_of(node)}²)"
    if op == "exp":
        return _data_of(node)
    return f"{_d(node)}/{_d(x)}"


def _sum(node: Value, inputs: list[Value], k: int, local: float, before: float) -> str:
    """One line of a rule's arithmetic: ``w2.grad += x2.data × n.grad = 0.0000 × 0.5000 = 0.0000``.

    Where the grad already held something, the line ends with the sum it now holds
    (``..., added to 1.0000: 11.0000``): the amount added is not the grad.
    """
    line = (
        f"{_grad_of(inputs[k])} += {_local_term(node, inputs, k)} \u00d7 {_grad_of(node)} = "
        f"{format_number(local)} \u00d7 {format_number(node.grad)} = "
        f"{format_number(local * node.grad)}"
    )
    if before == 0:
        return line
    return f"{line}, added to {format_number(before)}: {format_number(before + local * node.grad)}"


def _grad_of(node: Value) -> str:
    """``a.grad``, or ``(x2*w2).grad`` for a name that is not a plain one."""
    return f"{_term(node)}.grad"


def _mark(
    dot: graphviz.Digraph,
    name: str,
    fill: str,
    css_class: str,
    outline: str | None = None,
    with_op: bool = False,
) -> None:
    """Restyle a drawn node (a DOT statement later in the source wins)."""
    style = {"fillcolor": fill, "penwidth": "2.5", "class": css_class}
    if outline is not None:
        style["color"] = outline
    dot.node(name, **style)
    if with_op:
        dot.node(name + "_op", **style)


def _uid(sources: list[str]) -> str:
    """An id for a stepper's HTML, from its frames' DOT sources (the same every build)."""
    digest = hashlib.sha256()
    for source in sources:
        digest.update(source.encode("utf-8"))
    return "mg-step-" + digest.hexdigest()[:10]


@dataclass(frozen=True)
class _Source:
    """A DOT source as :func:`~micrograd.viz.svg.render_svg` takes it."""

    source: str


class Stepper(ABC):
    """What every stepper shares: it is data (:meth:`to_json`) and HTML (:meth:`to_html`).

    :class:`BackwardStepper` and :class:`StepperPair` say what their frames
    are (:meth:`to_json`); the HTML, and how a stepper displays itself in
    Jupyter (as that HTML), are the same for both.
    """

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The stepper as data: its label, and each frame's captions and DOT sources."""

    def to_html(self) -> str:
        """The stepper as one HTML element (renders every frame with ``dot``).

        The same frames give the same text, byte for byte: ids come from a
        digest of the frames' DOT sources.

        Raises
        ------
        RuntimeError
            If there is no ``dot`` program (see :func:`~micrograd.viz.svg.render_svg`).
        """
        data = self.to_json()
        return html_from_json(data, [render_svg(_Source(dot)) for dot in _dots(data)])

    def _repr_html_(self) -> str:
        """How Jupyter shows a stepper: :meth:`to_html`."""
        return self.to_html()


class BackwardStepper(Stepper):
    """The frames of :func:`backward_frames`, as HTML a reader steps through.

    In Jupyter (or any page built from a notebook) it displays itself as
    HTML: a *Previous* and a *Next* button, and every frame as an inline SVG
    with its caption ("Step 3 of 9: ...").  A page's script shows one frame
    at a time, says "Step 3 of 9" between the buttons, and puts each new
    caption in a live region for screen readers; the arrow keys step when
    the stepper has the focus.  Without the script the buttons stay hidden
    and the frames are shown one under the other.

    Parameters
    ----------
    root : Value
        The output node; its graph is stepped through (this runs a backward
        pass on it, see :func:`backward_frames`).
    rankdir : {"TB", "LR", "BT", "RL"}, default "TB"
        Direction of the drawings.
    label : str, optional
        An accessible name for the whole stepper.  Default:
        ``"backward() on L, step by step"`` for an output labelled ``L``.
    max_nodes : int, default 40
        See :func:`backward_frames`.
    order : list of Value, optional
        Run the rules in this order (see :func:`backward_frames`).

    Attributes
    ----------
    frames : list of Frame
    label : str
    """

    def __init__(
        self,
        root: Value,
        rankdir: str = "TB",
        label: str | None = None,
        max_nodes: int = MAX_STEPPER_NODES,
        order: Sequence[Value] | None = None,
    ) -> None:
        drawn = _frames(root, rankdir, max_nodes, order)
        self.frames = drawn.frames
        self._drawn = drawn
        self.label = label if label is not None else f"backward() on {name_of(root)}, step by step"

    def __repr__(self) -> str:
        return f"<BackwardStepper: {len(self.frames)} frames>"

    def to_json(self) -> dict[str, Any]:
        """The stepper as data: its label, and each frame's caption and DOT source."""
        return {"label": self.label, "frames": [_frame_json(f) for f in self.frames]}


class StepperPair(Stepper):
    """Two steppers side by side, stepped together: one set of buttons, two pictures.

    Meant for the same graph stepped in two orders (the engine's and
    another).  Each step shows frame ``k`` of both, each under its title; the
    first step at which the two run different nodes' rules says so ("Here
    the orders part").  If one has fewer frames, its last one stays shown.
    Where both draw the same graph (the same drawing before backward()), the
    two share one layout, as a stepper's frames do: each box, in every frame
    of both, is as wide as where its grad is widest on either side, so that
    each node has one place on both sides and the reader compares them at a
    glance.

    Parameters
    ----------
    left, right : BackwardStepper
        The two steppers.
    titles : (str, str)
        What each side shows (say, ``"backward()"`` and ``"breadth first"``).
    label : str, optional
        An accessible name for the pair.  Default: ``"<left> and <right>, step by step"``.

    Attributes
    ----------
    left, right : BackwardStepper
    titles : tuple of str
    label : str
    part : int or None
        The index of the first step at which the two run different nodes'
        rules (None if they never do).
    """

    def __init__(
        self,
        left: BackwardStepper,
        right: BackwardStepper,
        titles: tuple[str, str] = ("left", "right"),
        label: str | None = None,
    ) -> None:
        for side, stepper in (("left", left), ("right", right)):
            if not isinstance(stepper, BackwardStepper):
                raise TypeError(f"{side} must be a BackwardStepper, got {type(stepper).__name__}")
        if len(titles) != 2 or not all(isinstance(t, str) for t in titles):
            raise TypeError(f"titles must be two strings, got {titles!r}")
        self.left, self.right = left, right
        self.titles = (titles[0], titles[1])
        self.label = label if label is not None else f"{titles[0]} and {titles[1]}, step by step"
        self.part = next(
            (
                k
                for k, (a, b) in enumerate(zip(left.frames, right.frames, strict=False))
                if a.name is not None and b.name is not None and a.name != b.name
            ),
            None,
        )
        # One layout for both sides where they draw the same graph.
        mine, theirs = left._drawn, right._drawn
        self._widths = (
            {name: max(width, theirs.widths[name]) for name, width in mine.widths.items()}
            if mine.plain == theirs.plain
            else None
        )

    def __repr__(self) -> str:
        return f"<StepperPair: {max(len(self.left.frames), len(self.right.frames))} frames>"

    def _note(self, k: int) -> str:
        if k != self.part:
            return ""
        a, b = self.left.frames[k].node, self.right.frames[k].node
        if a is None or b is None:  # pragma: no cover - part is a step where both run a rule
            return ""
        return (
            f"Here the orders part: {self.titles[0]} runs {name_of(a)}'s rule, "
            f"{self.titles[1]} runs {name_of(b)}'s."
        )

    def to_json(self) -> dict[str, Any]:
        """The pair as data: its label, titles, and for each step a note and both frames."""
        total = max(len(self.left.frames), len(self.right.frames))
        frames = [
            {
                "note": self._note(k),
                "sides": [
                    _frame_json(s.frames[min(k, len(s.frames) - 1)], self._widths, title)
                    for s, title in zip((self.left, self.right), self.titles, strict=True)
                ],
            }
            for k in range(total)
        ]
        return {"label": self.label, "titles": list(self.titles), "frames": frames}


def _frame_json(
    frame: Frame, widths: dict[str, float] | None = None, title: str | None = None
) -> dict[str, Any]:
    """A frame as data: its caption, its DOT source, and what its rule did (None if none ran).

    ``widths`` (points, by a box's name): each box drawn at least that wide (a pair's
    shared layout); ``title``: drawn above the graph (a pair's side, which the reader
    tells from the other by it); the frame itself is left as it is.
    """
    step = frame.step.to_json() if frame.step is not None else None
    dot = frame.dot
    if widths is not None or title is not None:
        dot = dot.copy()
    for name, width in (widths or {}).items():
        dot.node(name, width=_inches(width))
    if title is not None:
        dot.attr(label=title, labelloc="t", fontcolor=_INK, fontsize=str(_TITLE_SIZE))
    return {
        "caption": frame.caption,
        "sums": list(frame.sums),
        "dot": dot.source,
        "step": step,
    }


def _arrow(path: str) -> str:
    """A button's arrow as a drawing, not a font's glyph (a font without one shows a box).

    Hidden from screen readers: the button is named by its word.
    """
    return (
        '<svg class="mg-stepper-icon" viewBox="0 0 24 24" width="14" height="14" '
        f'aria-hidden="true" focusable="false"><path d="{path}" fill="currentColor"/></svg>'
    )


def _sums_html(frame: dict[str, Any]) -> str:
    """A caption's lines of arithmetic (``sums`` of :func:`_frame_json`), as HTML.

    Each after a space: the caption's text reads as words, where a page shows it as lines.
    """
    return "".join(
        f' <span class="mg-stepper-sum">{html.escape(line)}</span>'
        for line in frame.get("sums", [])
    )


def _dots(data: dict[str, Any]) -> list[str]:
    """Every DOT source of a stepper's data, in page order."""
    return [side["dot"] for frame in data["frames"] for side in frame.get("sides", [frame])]


def _switch(titles: Sequence[str] | None) -> list[str]:
    """A pair's switch: a button per side, for a page that shows one side at a time.

    Hidden, as the buttons are, until a page's script offers it; the first side pressed.
    """
    if not titles:
        return []
    buttons = [
        f'<button type="button" class="mg-stepper-show" data-side="{s}" '
        f'aria-pressed="{"true" if s == 0 else "false"}">{html.escape(title)}</button>'
        for s, title in enumerate(titles)
    ]
    return [
        '<span class="mg-stepper-switch" role="group" aria-label="Show" hidden="">',
        *buttons,
        "</span>",
    ]


def html_from_json(data: dict[str, Any] | str, svgs: Sequence[str]) -> str:
    """A stepper's HTML from its data (``to_json()``) and the SVG of each DOT source.

    :meth:`Stepper.to_html` calls this with SVG from ``dot``; a host that lays
    the DOT sources out another way (Graphviz compiled to WebAssembly, say)
    gets the same HTML from the same SVG.

    Parameters
    ----------
    data : dict or str
        What :meth:`BackwardStepper.to_json` or :meth:`StepperPair.to_json`
        returns (or that as JSON text).
    svgs : list of str
        The SVG document of each frame's DOT source, in the order of the frames.

    Returns
    -------
    str
        One ``<div class="mg-stepper">`` element.

    Raises
    ------
    ValueError
        If the number of SVGs is not the number of DOT sources.
    """
    if isinstance(data, str):
        data = json.loads(data)
    if not isinstance(data, dict):
        raise TypeError(f"data must be a stepper's to_json(), got {type(data).__name__}")
    dots = _dots(data)
    if len(svgs) != len(dots):
        raise ValueError(f"the stepper has {len(dots)} drawings, got {len(svgs)} SVGs")
    uid = _uid(dots)
    frames = data["frames"]
    total = len(frames)
    titles = data.get("titles")
    parts = [
        f'<div class="mg-stepper{" mg-stepper-pair" if titles else ""}" id="{uid}" role="group" '
        f'aria-label="{html.escape(data["label"])}" data-frames="{total}">',
        '<div class="mg-stepper-controls" hidden="">',
        f'<button type="button" class="mg-stepper-prev">{_arrow("M17 4.5 L5 12 L17 19.5 Z")} '
        "Previous</button>",
        '<span class="mg-stepper-status"></span>',
        '<button type="button" class="mg-stepper-next">Next '
        f"{_arrow('M7 4.5 L19 12 L7 19.5 Z')}</button>",
        *_switch(titles),
        "</div>",
        '<p class="mg-stepper-live visually-hidden" aria-live="polite"></p>',
    ]
    drawing = iter(svgs)
    for k, frame in enumerate(frames):
        number = f"Step {k + 1} of {total}:"
        if titles is None:
            svg = inline_svg(
                next(drawing), id_prefix=f"{uid}-{k}-", label=f"{number} {frame['caption']}"
            )
            parts += [
                f'<figure class="mg-stepper-frame" data-frame="{k}">',
                f'<figcaption><span class="mg-stepper-number">{number}</span> '
                f"{html.escape(frame['caption'])}{_sums_html(frame)}</figcaption>",
                svg,
                "</figure>",
            ]
            continue
        note = frame["note"]
        part = ' data-part="true"' if note else ""
        parts += [
            f'<figure class="mg-stepper-frame" data-frame="{k}"{part}>',
            f'<figcaption><span class="mg-stepper-number">{number if note else number[:-1]}</span>'
            f"{' ' + html.escape(note) if note else ''}</figcaption>",
            '<div class="mg-stepper-sides">',
        ]
        for s, (title, side) in enumerate(zip(titles, frame["sides"], strict=True)):
            svg = inline_svg(
                next(drawing),
                id_prefix=f"{uid}-{k}-{s}-",
                label=f"{number} {title}: {side['caption']}",
            )
            # The caption under the drawing: the two drawings start level, right under
            # the buttons, however long either side's words are.
            parts += [
                '<figure class="mg-stepper-side">',
                svg,
                f'<figcaption><span class="mg-stepper-title">{html.escape(title)}:</span> '
                f"{html.escape(side['caption'])}{_sums_html(side)}</figcaption>",
                "</figure>",
            ]
        parts += ["</div>", "</figure>"]
    parts.append("</div>")
    return "\n".join(parts) + "\n"
