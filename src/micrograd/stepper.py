"""The backward pass one node at a time: the frames of a step-by-step picture.

:func:`backward_frames` runs a real backward pass, exactly as
:meth:`micrograd.engine.Value.backward` does (seed the output's gradient with
1, then run each node's rule in reverse :func:`~micrograd.engine.topological_order`),
but stops after every node to draw the graph with :func:`~micrograd.draw.draw_dot`:
the node whose rule just ran is highlighted, the inputs it passed a gradient
to are outlined, and every ``grad`` shows what has arrived so far.  The last
frame is the plain drawing of the finished graph, the same DOT source as
``draw_dot(root)`` after ``root.backward()``.

:class:`BackwardStepper` turns the frames into one piece of HTML: every frame
as an inline SVG with a caption, and *Previous* / *Next* buttons.  The page
that shows it needs a small script to show one frame at a time (the book's
``micrograd-figures.js``); without it, every frame is shown, one under the
other.  Nothing runs in a kernel: the frames are computed when the page is built.

This module needs the ``graphviz`` Python package and a ``dot`` program,
like :mod:`micrograd.draw`.
"""

from __future__ import annotations

import hashlib
import html
from dataclasses import dataclass
from typing import TYPE_CHECKING

from micrograd.draw import _dot_names, _fmt, _name_of, draw_dot, inline_svg, render_svg
from micrograd.engine import Value, topological_order

if TYPE_CHECKING:  # pragma: no cover - only for the type checker
    import graphviz

__all__ = ["MAX_STEPPER_NODES", "BackwardStepper", "Frame", "backward_frames"]

#: The most Value nodes a stepper draws: one frame per node, each a whole graph.
MAX_STEPPER_NODES = 40

_CURRENT_FILL = "#ffd33d"  # the node whose rule runs: yellow
_RECEIVING = "#bc4c00"  # the inputs it passes a gradient to: an orange outline
_RECEIVING_FILL = "#fff1e5"


@dataclass(frozen=True)
class Frame:
    """One picture of the backward pass.

    Attributes
    ----------
    caption : str
        What happened in this step, with the numbers.
    dot : graphviz.Digraph
        The drawing: :func:`~micrograd.draw.draw_dot` of the graph as it is
        after this step, with the step's nodes highlighted.
    node : Value or None
        The node whose rule ran in this step (the output for the seed);
        None for the first and the last frame.
    """

    caption: str
    dot: graphviz.Digraph
    node: Value | None


def backward_frames(
    root: Value, rankdir: str = "TB", max_nodes: int = MAX_STEPPER_NODES
) -> list[Frame]:
    """Run ``root.backward()`` one node at a time and draw the graph after each.

    This *is* a backward pass: afterwards every ``grad`` in the graph is what
    ``root.backward()`` would have left (gradients accumulate, as always, on
    top of whatever the graph held before).

    The frames are: the graph before anything runs; the seed (``root.grad``
    set to 1); one frame per node in reverse topological order, the engine's
    own order, in which the node's backward rule (``node._rule(node)``) runs,
    or a leaf is reached that has nothing to pass on; and the finished graph.

    Parameters
    ----------
    root : Value
        The output node.
    rankdir : {"TB", "LR", "BT", "RL"}, default "TB"
        Direction of the drawings (see :func:`~micrograd.draw.draw_dot`).
    max_nodes : int, default 40
        The largest graph (in Value nodes) to step through: each frame draws
        the whole graph.

    Returns
    -------
    list of Frame
        ``len(topological_order(root)) + 3`` frames.  The last one's ``dot``
        has the same source as ``draw_dot(root, rankdir)`` after ``root.backward()``.

    Raises
    ------
    TypeError
        If ``root`` is not a Value.
    ValueError
        If the graph has more than ``max_nodes`` nodes, or ``rankdir`` is invalid.

    Examples
    --------
    >>> a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    >>> c = a * b
    >>> c.label = "c"
    >>> for frame in backward_frames(c):
    ...     print(frame.caption)
    Before backward(): every grad is 0.
    backward() sets c.grad = 1, then runs the rules from c back to the leaves.
    c = a * b: its rule (*) adds to a.grad (0.0000 → -3.0000) and b.grad (0.0000 → 2.0000).
    b is a leaf: nothing to pass on; its grad, 2.0000, is final.
    a is a leaf: nothing to pass on; its grad, -3.0000, is final.
    Done: every grad is filled in, as c.backward() leaves it.
    >>> a.grad, b.grad
    (-3.0, 2.0)
    """
    if not isinstance(root, Value):
        raise TypeError(f"backward_frames needs a Value, got {type(root).__name__} {root!r}")
    order = topological_order(root)
    if len(order) > max_nodes:
        raise ValueError(
            f"the graph has {len(order)} nodes; a stepper draws at most {max_nodes} "
            "(raise max_nodes, or step through a smaller graph)"
        )
    names = _dot_names(order)  # the names draw_dot gives the nodes
    out = _name_of(root)
    before = "every grad is 0" if all(node.grad == 0 for node in order) else "the grads it holds"
    frames = [Frame(f"Before backward(): {before}.", draw_dot(root, rankdir=rankdir), None)]

    root.grad = 1.0  # the seed, as in Value.backward
    seed = draw_dot(root, rankdir=rankdir)
    _mark(seed, names[root], _CURRENT_FILL)
    frames.append(
        Frame(
            f"backward() sets {_grad_of(root)} = 1, "
            f"then runs the rules from {out} back to the leaves.",
            seed,
            root,
        )
    )
    for node in reversed(order):
        # each input once, in operand order; none when there is no rule to run
        rule = node._rule
        inputs = list(dict.fromkeys(node._prev)) if rule is not None else []
        was = [child.grad for child in inputs]
        if rule is not None:
            rule(node)  # the node's own rule, called exactly as backward() calls it
        dot = draw_dot(root, rankdir=rankdir)
        _mark(dot, names[node], _CURRENT_FILL, with_op=bool(node._op))
        for child in inputs:
            _mark(dot, names[child], _RECEIVING_FILL, outline=_RECEIVING)
        frames.append(Frame(_caption(node, inputs, was), dot, node))
    frames.append(
        Frame(
            f"Done: every grad is filled in, as {out}.backward() leaves it.",
            draw_dot(root, rankdir=rankdir),
            None,
        )
    )
    return frames


def _caption(node: Value, inputs: list[Value], was: list[float]) -> str:
    """What one step did, with the numbers."""
    name = _name_of(node)
    if not inputs:
        what = "a leaf" if not node._prev else "a node without a backward rule"
        return f"{name} is {what}: nothing to pass on; its grad, {_fmt(node.grad)}, is final."
    operands = f" {node._op} ".join(_name_of(child) for child in node._prev)
    if len(node._prev) == 1:
        operands = f"{node._op}({operands})"
    changes = " and ".join(
        f"{_grad_of(child)} ({_fmt(old)} \u2192 {_fmt(child.grad)})"
        for child, old in zip(inputs, was, strict=True)
    )
    return f"{name} = {operands}: its rule ({node._op}) adds to {changes}."


def _grad_of(node: Value) -> str:
    """``a.grad``, or ``(x1*w1 + x2*w2).grad`` for a name with spaces."""
    name = _name_of(node)
    return f"({name}).grad" if " " in name else f"{name}.grad"


def _mark(
    dot: graphviz.Digraph,
    name: str,
    fill: str,
    outline: str | None = None,
    with_op: bool = False,
) -> None:
    """Restyle a drawn node (a DOT statement later in the source wins)."""
    style = {"fillcolor": fill, "penwidth": "2.5"}
    if outline is not None:
        style["color"] = outline
    dot.node(name, **style)
    if with_op:
        dot.node(name + "_op", **style)


class BackwardStepper:
    """The frames of :func:`backward_frames`, as HTML a reader steps through.

    In Jupyter (or any page built from a notebook) it displays itself as
    HTML: a *Previous* and a *Next* button, and every frame as an inline SVG
    with its caption ("Step 3 of 13: ...").  A page's script shows one frame
    at a time, says "Step 3 of 13" between the buttons, and puts each new
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
    ) -> None:
        self.frames = backward_frames(root, rankdir=rankdir, max_nodes=max_nodes)
        self.label = label if label is not None else f"backward() on {_name_of(root)}, step by step"

    def __repr__(self) -> str:
        return f"<BackwardStepper: {len(self.frames)} frames>"

    def to_html(self) -> str:
        """The stepper as one HTML element (renders every frame with ``dot``).

        The same frames give the same text, byte for byte: ids come from a
        digest of the frames' DOT sources.
        """
        digest = hashlib.sha256()
        for frame in self.frames:
            digest.update(frame.dot.source.encode("utf-8"))
        uid = "mg-step-" + digest.hexdigest()[:10]
        total = len(self.frames)
        parts = [
            f'<div class="mg-stepper" id="{uid}" role="group" '
            f'aria-label="{html.escape(self.label)}" data-frames="{total}">',
            '<div class="mg-stepper-controls" hidden="">',
            '<button type="button" class="mg-stepper-prev">&#9664; Previous</button>',
            '<span class="mg-stepper-status"></span>',
            '<button type="button" class="mg-stepper-next">Next &#9654;</button>',
            "</div>",
            '<p class="mg-stepper-live visually-hidden" aria-live="polite"></p>',
        ]
        for k, frame in enumerate(self.frames):
            number = f"Step {k + 1} of {total}:"
            svg = inline_svg(
                render_svg(frame.dot), id_prefix=f"{uid}-{k}-", label=f"{number} {frame.caption}"
            )
            parts += [
                f'<figure class="mg-stepper-frame" data-frame="{k}">',
                f'<figcaption><span class="mg-stepper-number">{number}</span> '
                f"{html.escape(frame.caption)}</figcaption>",
                svg,
                "</figure>",
            ]
        parts.append("</div>")
        return "\n".join(parts) + "\n"

    def _repr_html_(self) -> str:
        return self.to_html()
