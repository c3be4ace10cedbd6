"""Drawings of computation graphs and networks, as Graphviz graphs.

:func:`draw_dot` draws the graph behind a :class:`~micrograd.engine.Value`:
one box per value (its label, data and grad) and one oval per operation.
:func:`draw_mlp` draws a :class:`~micrograd.nn.MLP` as columns of neurons,
with each connection coloured by the sign of its weight and as thick as the
weight is large.

Both return a :class:`graphviz.Digraph`.  In Jupyter it displays itself;
elsewhere call ``.render()`` or ``.pipe(format="svg")``, which need Graphviz's
``dot`` program (or any dot-compatible one, such as ``graphviz-pure`` from
PyPI, installed under the name ``dot``).  Both draw top to bottom by default,
so that a long graph grows down the page instead of off its right edge,
every node and arrow carries a tooltip with its exact numbers, and the graph
carries its own text alternative (its ``comment``): every node it draws, with
its data and grad.  Laying a drawing out as SVG, and making the SVG ready for
an HTML page, is the job of :mod:`micrograd.viz.svg` (:func:`~micrograd.viz.svg.render_svg`,
:func:`~micrograd.viz.svg.inline_svg`).  What a drawing calls each node comes
from :mod:`micrograd.viz.labels`.

The drawings are deterministic: node names come from the graph's structure
(``n0``, ``n1``, ... in :func:`~micrograd.engine.topological_order`), never
from ``id()``, so the same graph gives the same DOT source, and the same SVG,
on every run.  Nodes are filled with light colours and dark text on a
transparent background, so they read on light and dark pages alike.

This module needs the ``graphviz`` Python package: ``pip install
"micrograd-book[draw]"``.  Importing :mod:`micrograd` does not import it.
"""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_NODES", "draw_dot", "draw_mlp"]

import itertools
import numbers
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from micrograd.engine import Value, topological_order
from micrograd.nn import MLP, Layer, Neuron
from micrograd.viz.labels import dot_names, format_number, formula, name_of

if TYPE_CHECKING:  # pragma: no cover - only for the type checker
    import graphviz


#: How many Value nodes :func:`draw_dot` draws before it summarises the rest.
DEFAULT_MAX_NODES = 200

_RANKDIRS = ("LR", "RL", "TB", "BT")
_FONT = "Helvetica"  # one name: Graphviz knows its metrics, SVG adds sans-serif
_INK = "#1f2328"  # text and outlines inside filled nodes
_EDGE = "#8c959f"  # mid grey: visible on white and on near-black pages
_VALUE_FILL = "#ffffff"
_OP_FILL = "#dbe9f6"
#: An operation's ellipse is this tall (inches; Graphviz's default is 0.5): its one symbol
#: needs no more, and a deep graph's height is mostly its ellipses and its ranks' gaps.
_OP_HEIGHT = "0.3"
_NOTE_FILL = "#fff4ce"
_POSITIVE = "#1f77b4"  # blue
_NEGATIVE = "#d62728"  # red
_RECORD_SPECIAL = '{}|<>"\\'
#: The drawings' text size, in points.
_FONT_SIZE = 12
#: Helvetica's advance widths, in thousandths of its size, of the characters of a box's
#: grad field (``grad``, a space, and a number as format_number writes it): Graphviz
#: sizes Helvetica's text by these (its estimate), as graphviz-pure does.
_HELVETICA = {
    **dict.fromkeys("0123456789adgn", 556),
    **dict.fromkeys("-r", 333),
    **dict.fromkeys(". f", 278),
    "i": 222,
}
#: The room Graphviz leaves around a field of a record: 8 points on each side.
_FIELD_PADDING = 16


def _graphviz() -> Any:
    """Import the ``graphviz`` package, or explain how to install it."""
    try:
        import graphviz
    except ImportError as error:
        raise ImportError(
            "micrograd.viz.draw needs the graphviz Python package: pip install graphviz "
            "(the draw extra of micrograd-book brings it)"
        ) from error
    return graphviz


def _escape(text: str, special: str = '"\\') -> str:
    """``text`` made safe as a Graphviz label (``special``: ``_RECORD_SPECIAL`` inside a record):
    each character of ``special`` backslash-escaped, line breaks as spaces."""
    out = []
    for ch in text:
        if ch in special:
            out.append("\\" + ch)
        elif ch in "\r\n\t":
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


def _exact(x: float) -> str:
    """A number with every digit it has (``repr``), for tooltips."""
    return repr(float(x))


def _value_tooltip(name: str, node: Value, show_grad: bool) -> str:
    """``name: data = <exact>, grad = <exact>``, made safe for a DOT string."""
    text = f"{name}: data = {_exact(node.data)}"
    if show_grad:
        text += f", grad = {_exact(node.grad)}"
    return _escape(text)


def _grad_field(grad: float) -> str:
    """A box's grad field: ``grad -1.5000``."""
    return f"grad {format_number(grad)}"


def grad_field_width(grad: float) -> float:
    """How wide Graphviz draws the grad field of a :func:`draw_dot` box, in points.

    A box is as wide as its widest field, and only its grad changes as gradients
    arrive: :mod:`micrograd.viz.stepper` gives a box, in every frame, the width of
    its widest grad, so that the frames share one layout.
    """
    text = _grad_field(grad)
    return sum(_HELVETICA[ch] for ch in text) * _FONT_SIZE / 1000 + _FIELD_PADDING


def _new_digraph(rankdir: str) -> Any:
    graphviz = _graphviz()
    return graphviz.Digraph(
        graph_attr={
            "rankdir": rankdir,
            "bgcolor": "transparent",
            "fontname": _FONT,
            "fontcolor": _EDGE,
        },
        node_attr={
            "fontname": _FONT,
            "fontsize": str(_FONT_SIZE),
            "style": "filled",
            "fillcolor": _VALUE_FILL,
            "color": _INK,
            "fontcolor": _INK,
        },
        edge_attr={"color": _EDGE, "arrowsize": "0.7"},
    )


def _check_rankdir(rankdir: object) -> str:
    if not isinstance(rankdir, str) or rankdir not in _RANKDIRS:
        raise ValueError(f"rankdir must be one of {', '.join(_RANKDIRS)}; got {rankdir!r}")
    return rankdir


def _nearest(root: Value, limit: int) -> set[Value]:
    """The ``limit`` nodes closest to ``root`` (breadth first, operands in order)."""
    kept: set[Value] = {root}
    queue = deque([root])
    while queue and len(kept) < limit:
        node = queue.popleft()
        for child in node._prev:
            if child not in kept:
                kept.add(child)
                queue.append(child)
                if len(kept) == limit:
                    break
    return kept


def draw_dot(
    root: Value,
    rankdir: str = "TB",
    show_grad: bool = True,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> graphviz.Digraph:
    """Draw the computation graph that produced ``root``.

    Each :class:`~micrograd.engine.Value` becomes a box
    ``label | data 2.0000 | grad -1.5000``, and each operation an oval
    (``+``, ``*``, ``tanh``, ...) with arrows from its inputs to the oval and
    from the oval to its result.  Every box and arrow has a tooltip with the
    exact numbers (``x1: data = 2.0, grad = -1.4999999999999993``), which the
    box shows rounded to 4 decimals (``grad -1.5000``).

    Parameters
    ----------
    root : Value
        The output node; everything it was computed from is drawn.
    rankdir : {"TB", "LR", "BT", "RL"}, default "TB"
        Direction of the arrows: top to bottom (inputs at the top, the output
        at the bottom: a graph of any length keeps the width of a page), left
        to right (the original micrograd's drawing, wide), bottom to top,
        right to left.
    show_grad : bool, default True
        Show each node's ``grad`` (leave it out for a graph before ``backward``).
    max_nodes : int, default 200
        The most Value nodes to draw.  A bigger graph is summarised: only the
        ``max_nodes`` nodes nearest ``root`` (fewest operations away) are drawn,
        the inputs left out are drawn as one note ``... N more nodes``, and the
        graph's caption says how many nodes the whole graph has.  Graphviz
        layouts of thousands of nodes are slow and unreadable; raise the cap
        if you really want them.

    Returns
    -------
    graphviz.Digraph
        Node ``n{i}`` is the ``i``-th node of
        :func:`~micrograd.engine.topological_order` (leaves first), its
        operation is ``n{i}_op``, and the note is ``more``; the same graph
        therefore gives the same source and the same rendering every run.
        The graph's ``comment`` is its text alternative, which Graphviz
        writes into the SVG (and :func:`~micrograd.viz.svg.inline_svg` makes the
        picture's description): every drawn value, inputs first, with how it
        was computed, its data and its grad, e.g. ``A graph of 3 values: a
        (data 2.0000, grad -3.0000); b (data -3.0000, grad 2.0000); c = a * b
        (data -6.0000, grad 1.0000).``

    Raises
    ------
    TypeError
        If ``root`` is not a Value, or ``max_nodes`` is not an int.
    ValueError
        If ``rankdir`` is not one of the four directions, or ``max_nodes < 1``.
    ImportError
        If the ``graphviz`` package is missing (``pip install "micrograd-book[draw]"``).

    Examples
    --------
    >>> from micrograd import Value
    >>> a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    >>> c = a * b
    >>> c.label = "c"
    >>> c.backward()
    >>> dot = draw_dot(c)
    >>> for line in dot.body[1:5]:
    ...     print(line.strip().split(" tooltip=")[0])
    n0 [label="{ a | data 2.0000 | grad -3.0000 }" shape=record
    n1 [label="{ b | data -3.0000 | grad 2.0000 }" shape=record
    n2 [label="{ c | data -6.0000 | grad 1.0000 }" shape=record
    n2_op [label="*" fillcolor="#dbe9f6" height=0.3 shape=ellipse
    >>> print(dot.body[1].split(" tooltip=")[1])
    "a: data = 2.0, grad = -3.0"]
    <BLANKLINE>
    """
    if not isinstance(root, Value):
        raise TypeError(f"draw_dot needs a Value, got {type(root).__name__} {root!r}")
    rankdir = _check_rankdir(rankdir)
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int):
        raise TypeError(f"max_nodes must be an int, got {type(max_nodes).__name__} {max_nodes!r}")
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1, got {max_nodes}")

    order = topological_order(root)
    names = dot_names(order)
    if len(order) > max_nodes:
        kept = _nearest(root, max_nodes)
        drawn = [node for node in order if node in kept]
    else:
        kept = set(order)
        drawn = order
    omitted = len(order) - len(drawn)

    dot = _new_digraph(rankdir)
    description = _dot_description(drawn, len(order), show_grad)
    # Neighbours a tenth of an inch apart: a wide rank (the inputs, abreast) stays
    # narrow enough for a narrow screen to show its numbers at a size to read.  Ranks
    # 0.15 in apart, and operations' ellipses 0.3 in tall: a deep graph (the neuron's
    # nine ranks) stays short enough for a laptop's window to hold it whole with its
    # text at 14 px, where the height of its empty space took it down to 11 px.
    dot.attr(ranksep="0.15", nodesep="0.1", comment=_escape(description))
    for node in drawn:
        name = names[node]
        fields = [_escape(node.label, _RECORD_SPECIAL), f"data {format_number(node.data)}"]
        if show_grad:
            fields.append(_grad_field(node.grad))
        dot.node(
            name,
            label="{ " + " | ".join(fields) + " }",
            shape="record",
            tooltip=_value_tooltip(name_of(node), node, show_grad),
        )
        if node._op:
            dot.node(
                name + "_op",
                label=_escape(node._op),
                shape="ellipse",
                height=_OP_HEIGHT,
                fillcolor=_OP_FILL,
                tooltip=_escape(f"{node._op} makes {name_of(node)}"),
            )
            dot.edge(
                name + "_op",
                name,
                tooltip=_value_tooltip(f"{node._op} -> {name_of(node)}", node, show_grad),
            )
    if omitted:
        noun = "node" if omitted == 1 else "nodes"
        dot.node(
            "more",
            label=f"... {omitted} more {noun}",
            shape="note",
            fillcolor=_NOTE_FILL,
        )
        dot.attr(
            label=(
                f"Summarised: the {len(drawn)} nodes nearest the output of {len(order)}; "
                f"{omitted} more not drawn (max_nodes={max_nodes})"
            ),
            labelloc="t",
        )
    for node in drawn:
        from_more = False
        # A node made with children but no _op name gets its arrows directly.
        target = names[node] + "_op" if node._op else names[node]
        uses = dict.fromkeys(node._prev, 0)
        for child in node._prev:
            if child in kept:
                into = f"{name_of(child)} -> {node._op or name_of(node)}"
                ports = _twin_ports(rankdir, uses[child]) if node._prev.count(child) == 2 else {}
                uses[child] += 1
                dot.edge(
                    names[child],
                    target,
                    tooltip=_value_tooltip(into, child, show_grad),
                    **ports,
                )
            elif not from_more:
                from_more = True
                dot.edge("more", target, style="dashed")
    return dot


# A value used twice by one operation (``a + a``) has two arrows into it.  Drawn
# from the same points they lie on top of each other, and the reader sees one
# path where the gradient takes two; each arrow leaves and enters on its own side.
_TWIN_PORTS = {
    "TB": (("sw", "nw"), ("se", "ne")),
    "BT": (("nw", "sw"), ("ne", "se")),
    "LR": (("ne", "nw"), ("se", "sw")),
    "RL": (("nw", "ne"), ("sw", "se")),
}


def _twin_ports(rankdir: str, use: int) -> dict[str, str]:
    """The tail and head ports of the ``use``-th (0 or 1) of two arrows from one value."""
    tail, head = _TWIN_PORTS[rankdir][use]
    return {"tailport": tail, "headport": head}


def _dot_description(drawn: list[Value], total: int, show_grad: bool) -> str:
    """The text alternative of a :func:`draw_dot` drawing: each drawn value, from the inputs."""
    items = []
    for node in drawn:
        made = formula(node)
        figures = f"data {format_number(node.data)}"
        if show_grad:
            figures += f", grad {format_number(node.grad)}"
        items.append(f"{name_of(node)}{' = ' + made if made else ''} ({figures})")
    noun = "value" if total == 1 else "values"
    shown = "" if len(drawn) == total else f", the {len(drawn)} nearest the output drawn"
    return f"A graph of {total} {noun}{shown}: " + "; ".join(items) + "."


def _layers_of(model: object) -> list[list[Neuron]]:
    """The model's neurons, layer by layer."""
    if isinstance(model, MLP):
        return [layer.neurons for layer in model.layers]
    if isinstance(model, Layer):
        return [model.neurons]
    if isinstance(model, Neuron):
        return [[model]]
    raise TypeError(f"draw_mlp needs an MLP, Layer or Neuron, got {type(model).__name__}")


def _input_label(i: int, item: object) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, Value):
        return f"x{i + 1} = {format_number(item.data)}"
    if isinstance(item, numbers.Real) and not isinstance(item, bool):
        return f"x{i + 1} = {format_number(float(item))}"
    raise TypeError(
        f"inputs must hold input names (str) or input values (numbers); "
        f"item {i} is {type(item).__name__} {item!r}"
    )


def _ends(name: str, given: object, count: int) -> Sequence[Any]:
    """``inputs`` or ``outputs`` of :func:`draw_mlp`, checked: a list of ``count`` entries."""
    if isinstance(given, (str, bytes)) or not isinstance(given, Sequence):
        raise TypeError(f"{name} must be a list, got {type(given).__name__} {given!r}")
    if len(given) != count:
        raise ValueError(f"the network has {count} {name} but {name} has {len(given)} entries")
    return given


def _layer_title(i: int, layers: list[list[Neuron]]) -> str:
    """``hidden 1 (4, tanh)``, ..., ``output (1, tanh)``."""
    title = "output" if i == len(layers) - 1 else f"hidden {i + 1}"
    return f"{title} ({len(layers[i])}, {layers[i][0].activation})"


def _mlp_description(layers: list[list[Neuron]], inputs: list[str], outputs: list[str]) -> str:
    """The text alternative of a :func:`draw_mlp` drawing: every neuron's bias and weights."""
    parts = [f"A network. Inputs: {', '.join(inputs)}."]
    for i, neurons in enumerate(layers):
        described = [
            f"neuron {j + 1} with bias {format_number(neuron.b.data)} and weights "
            + ", ".join(format_number(w.data) for w in neuron.w)
            for j, neuron in enumerate(neurons)
        ]
        parts.append(f"Layer {_layer_title(i, layers)}: " + "; ".join(described) + ".")
    parts.append(f"Outputs: {', '.join(outputs)}.")
    return " ".join(parts)


def _penwidth(weight: float, max_penwidth: float) -> str:
    # Absolute, not relative to the largest weight: a freshly initialised
    # network (|w| <= 1) is drawn thin, a trained one with big weights thick.
    return f"{min(max_penwidth, 0.3 + 1.5 * abs(weight)):.2f}"


def draw_mlp(
    model: MLP | Layer | Neuron,
    inputs: Sequence[str | float | Value] | None = None,
    outputs: Sequence[str] | None = None,
    rankdir: str = "TB",
    max_penwidth: float = 6.0,
) -> graphviz.Digraph:
    """Draw a network as rows (or columns) of neurons joined by its weights.

    The inputs form the first row, each layer the next, and the output
    layer the last.  Every connection is an arrow coloured by the sign of
    its weight (blue positive, red negative) and ``0.3 + 1.5 * |w|`` points
    wide (at most ``max_penwidth``), so a trained network, whose weights
    have grown, looks different from a freshly initialised one.  Hovering
    over an arrow or a neuron in the SVG shows the exact weight or bias
    (see :func:`~micrograd.viz.svg.inline_svg` for a web page).

    Parameters
    ----------
    model : MLP, Layer or Neuron
        The network to draw.
    inputs : list of str or numbers, optional
        One entry per input: a name (``"x"``), or a value shown as
        ``x1 = 2.0000``.  Default ``x1``, ``x2``, ...
    outputs : list of str, optional
        Names of the outputs.  Default ``out`` for one output, else
        ``out1``, ``out2``, ...
    rankdir : {"TB", "LR", "BT", "RL"}, default "TB"
        Direction from inputs to outputs: top to bottom (layers as rows,
        narrow enough for a phone's screen), left to right (layers as
        columns), bottom to top or right to left.
    max_penwidth : float, default 6.0
        The widest an arrow gets, in points.

    Returns
    -------
    graphviz.Digraph
        Inputs are named ``in0``, ``in1``, ..., neuron ``j`` of layer ``i`` is
        ``L{i}_{j}`` and output ``k`` is ``out{k}``.  The graph's ``comment``
        is its text alternative: the inputs, then each layer's neurons with
        their bias and weights (4 decimals), then the outputs.

    Raises
    ------
    TypeError
        If ``model`` is not an MLP, Layer or Neuron, or an entry of
        ``inputs``/``outputs`` has the wrong type.
    ValueError
        If ``inputs`` or ``outputs`` has the wrong length, or ``rankdir`` or
        ``max_penwidth`` is invalid.
    ImportError
        If the ``graphviz`` package is missing (``pip install "micrograd-book[draw]"``).
    """
    layers = _layers_of(model)
    rankdir = _check_rankdir(rankdir)
    if (
        isinstance(max_penwidth, bool)
        or not isinstance(max_penwidth, numbers.Real)
        or not max_penwidth > 0.3
    ):
        raise ValueError(f"max_penwidth must be a number above 0.3, got {max_penwidth!r}")
    nin = len(layers[0][0].w)
    nout = len(layers[-1])
    if inputs is None:
        in_labels = [f"x{i + 1}" for i in range(nin)]
    else:
        in_labels = [_input_label(i, item) for i, item in enumerate(_ends("inputs", inputs, nin))]
    if outputs is None:
        out_labels = ["out"] if nout == 1 else [f"out{k + 1}" for k in range(nout)]
    else:
        for k, name in enumerate(_ends("outputs", outputs, nout)):
            if not isinstance(name, str):
                raise TypeError(f"outputs must hold str names; item {k} is {name!r}")
        out_labels = list(outputs)

    dot = _new_digraph(rankdir)
    dot.attr(comment=_escape(_mlp_description(layers, in_labels, out_labels)))
    across = rankdir in ("LR", "RL")  # layers side by side: room for the many arrows
    dot.attr(nodesep="0.08", ranksep="1.2" if across else "0.8", splines="line")
    # Each column is a rank; an invisible chain title -> node 0 -> node 1 ...
    # keeps the nodes in their own order instead of Graphviz's.
    columns: list[tuple[str, list[str]]] = [("input", [f"in{i}" for i in range(nin)])]
    for i, neurons in enumerate(layers):
        columns.append((_layer_title(i, layers), [f"L{i}_{j}" for j in range(len(neurons))]))
    columns.append(("", [f"out{k}" for k in range(nout)]))
    for c, (title, names) in enumerate(columns):
        with dot.subgraph(name=f"column{c}") as column:
            column.attr(rank="same")
            column.node(f"title{c}", label=title, shape="plaintext", style="", fontcolor=_EDGE)
            if c in (0, len(columns) - 1):
                for name, label in zip(names, out_labels if c else in_labels, strict=True):
                    column.node(name, label=_escape(label), shape="box", fillcolor=_OP_FILL)
            else:
                for j, (name, neuron) in enumerate(zip(names, layers[c - 1], strict=True)):
                    column.node(
                        name,
                        label="",
                        shape="circle",
                        width="0.3",
                        fixedsize="true",
                        fillcolor=_VALUE_FILL,
                        tooltip=_escape(
                            f"{title}, neuron {j + 1}: {neuron!r}, bias = {_exact(neuron.b.data)}"
                        ),
                    )
            chain = [f"title{c}", *names]
            for a, b in itertools.pairwise(chain):
                column.edge(a, b, style="invis")
    for c in range(1, len(columns) - 1):
        sources = columns[c - 1][1]
        layer_title = columns[c][0]
        for j, (name, neuron) in enumerate(zip(columns[c][1], layers[c - 1], strict=True)):
            for i, (src, w) in enumerate(zip(sources, neuron.w, strict=True)):
                dot.edge(
                    src,
                    name,
                    color=_POSITIVE if w.data >= 0 else _NEGATIVE,
                    penwidth=_penwidth(w.data, float(max_penwidth)),
                    arrowhead="none",
                    tooltip=_escape(
                        f"w = {_exact(w.data)}: input {i + 1} of {layer_title}, neuron {j + 1}"
                    ),
                )
    for src, name in zip(columns[-2][1], columns[-1][1], strict=True):
        dot.edge(src, name)
    return dot
