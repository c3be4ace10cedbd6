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
so that a long graph grows down the page instead of off its right edge, and
every node and arrow carries a tooltip with its exact numbers.
:func:`inline_svg` makes a rendered drawing ready to sit inside an HTML page,
where those tooltips show when the pointer rests on a node or an arrow.

The drawings are deterministic: node names come from the graph's structure
(``n0``, ``n1``, ... in :func:`~micrograd.engine.topological_order`), never
from ``id()``, so the same graph gives the same DOT source, and the same SVG,
on every run.  Nodes are filled with light colours and dark text on a
transparent background, so they read on light and dark pages alike.

This module needs the ``graphviz`` Python package: ``pip install
"micrograd-book[draw]"``.  Importing :mod:`micrograd` does not import it.
"""

from __future__ import annotations

import itertools
import numbers
import subprocess
import xml.etree.ElementTree as ET
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from micrograd.dot_program import find_dot
from micrograd.engine import Value, topological_order
from micrograd.nn import MLP, Layer, Neuron

if TYPE_CHECKING:  # pragma: no cover - only for the type checker
    import graphviz

__all__ = ["DEFAULT_MAX_NODES", "draw_dot", "draw_mlp", "inline_svg", "render_svg"]

#: How many Value nodes :func:`draw_dot` draws before it summarises the rest.
DEFAULT_MAX_NODES = 200

_RANKDIRS = ("LR", "RL", "TB", "BT")
_FONT = "Helvetica"  # one name: Graphviz knows its metrics, SVG adds sans-serif
_INK = "#1f2328"  # text and outlines inside filled nodes
_EDGE = "#8c959f"  # mid grey: visible on white and on near-black pages
_VALUE_FILL = "#ffffff"
_OP_FILL = "#dbe9f6"
_NOTE_FILL = "#fff4ce"
_POSITIVE = "#1f77b4"  # blue
_NEGATIVE = "#d62728"  # red
_RECORD_SPECIAL = '{}|<>"\\'


def _graphviz() -> Any:
    """Import the ``graphviz`` package, or explain how to install it."""
    try:
        import graphviz
    except ImportError as error:
        raise ImportError(
            'micrograd.draw needs the graphviz Python package: pip install "micrograd-book[draw]"'
        ) from error
    return graphviz


def _escape_record(text: str) -> str:
    """``text`` made safe inside a Graphviz record label."""
    return _escape(text, _RECORD_SPECIAL)


def _escape_plain(text: str) -> str:
    """``text`` made safe as an ordinary (non-record) Graphviz label."""
    return _escape(text, '"\\')


def _escape(text: str, special: str) -> str:
    """``text`` with each character of ``special`` backslash-escaped and line breaks as spaces."""
    out = []
    for ch in text:
        if ch in special:
            out.append("\\" + ch)
        elif ch in "\r\n\t":
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


def _fmt(x: float) -> str:
    """A number with 4 decimals, as in the drawings and the docs."""
    return f"{x:.4f}"


def _exact(x: float) -> str:
    """A number with every digit it has (``repr``), for tooltips."""
    return repr(float(x))


def _value_tooltip(name: str, node: Value, show_grad: bool) -> str:
    """``name: data = <exact>, grad = <exact>``, made safe for a DOT string."""
    text = f"{name}: data = {_exact(node.data)}"
    if show_grad:
        text += f", grad = {_exact(node.grad)}"
    return _escape_plain(text)


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
            "fontsize": "12",
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
    n2_op [label="*" fillcolor="#dbe9f6" shape=ellipse
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
    names = _dot_names(order)
    if len(order) > max_nodes:
        kept = _nearest(root, max_nodes)
        drawn = [node for node in order if node in kept]
    else:
        kept = set(order)
        drawn = order
    omitted = len(order) - len(drawn)

    dot = _new_digraph(rankdir)
    dot.attr(ranksep="0.3", nodesep="0.2")
    for node in drawn:
        name = names[node]
        fields = [_escape_record(node.label), f"data {_fmt(node.data)}"]
        if show_grad:
            fields.append(f"grad {_fmt(node.grad)}")
        dot.node(
            name,
            label="{ " + " | ".join(fields) + " }",
            shape="record",
            tooltip=_value_tooltip(_name_of(node), node, show_grad),
        )
        if node._op:
            dot.node(
                name + "_op",
                label=_escape_plain(node._op),
                shape="ellipse",
                fillcolor=_OP_FILL,
                tooltip=_escape_plain(f"{node._op} makes {_name_of(node)}"),
            )
            dot.edge(
                name + "_op",
                name,
                tooltip=_value_tooltip(f"{node._op} -> {_name_of(node)}", node, show_grad),
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
        for child in node._prev:
            if child in kept:
                into = f"{_name_of(child)} -> {node._op or _name_of(node)}"
                dot.edge(names[child], target, tooltip=_value_tooltip(into, child, show_grad))
            elif not from_more:
                from_more = True
                dot.edge("more", target, style="dashed")
    return dot


def _dot_names(order: list[Value]) -> dict[Value, str]:
    """Each node's name in the DOT source: ``n0``, ``n1``, ... in topological order."""
    return {node: f"n{i}" for i, node in enumerate(order)}


def _name_of(node: Value) -> str:
    """What a tooltip or caption calls ``node``: its label, else what made it."""
    if node.label:
        return node.label
    if node._op:
        return f"the result of {node._op}"
    return f"the constant {_fmt(node.data)}" if not node._prev else "an unlabelled value"


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
        return f"x{i + 1} = {_fmt(item.data)}"
    if isinstance(item, numbers.Real) and not isinstance(item, bool):
        return f"x{i + 1} = {_fmt(float(item))}"
    raise TypeError(
        f"inputs must hold input names (str) or input values (numbers); "
        f"item {i} is {type(item).__name__} {item!r}"
    )


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
    (see :func:`inline_svg` for a web page).

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
        ``L{i}_{j}`` and output ``k`` is ``out{k}``.

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
        if isinstance(inputs, (str, bytes)) or not isinstance(inputs, Sequence):
            raise TypeError(f"inputs must be a list, got {type(inputs).__name__} {inputs!r}")
        if len(inputs) != nin:
            raise ValueError(f"the network has {nin} inputs but inputs has {len(inputs)} entries")
        in_labels = [_input_label(i, item) for i, item in enumerate(inputs)]
    if outputs is None:
        out_labels = ["out"] if nout == 1 else [f"out{k + 1}" for k in range(nout)]
    else:
        if isinstance(outputs, (str, bytes)) or not isinstance(outputs, Sequence):
            raise TypeError(f"outputs must be a list, got {type(outputs).__name__} {outputs!r}")
        if len(outputs) != nout:
            raise ValueError(
                f"the network has {nout} outputs but outputs has {len(outputs)} entries"
            )
        for k, name in enumerate(outputs):
            if not isinstance(name, str):
                raise TypeError(f"outputs must hold str names; item {k} is {name!r}")
        out_labels = list(outputs)

    dot = _new_digraph(rankdir)
    across = rankdir in ("LR", "RL")  # layers side by side: room for the many arrows
    dot.attr(nodesep="0.08", ranksep="1.2" if across else "0.8", splines="line")
    # Each column is a rank; an invisible chain title -> node 0 -> node 1 ...
    # keeps the nodes in their own order instead of Graphviz's.
    columns: list[tuple[str, list[str]]] = [("input", [f"in{i}" for i in range(nin)])]
    for i, neurons in enumerate(layers):
        title = "output" if i == len(layers) - 1 else f"hidden {i + 1}"
        columns.append(
            (
                f"{title} ({len(neurons)}, {neurons[0].activation})",
                [f"L{i}_{j}" for j in range(len(neurons))],
            )
        )
    columns.append(("", [f"out{k}" for k in range(nout)]))
    for c, (title, names) in enumerate(columns):
        with dot.subgraph(name=f"column{c}") as column:
            column.attr(rank="same")
            column.node(f"title{c}", label=title, shape="plaintext", style="", fontcolor=_EDGE)
            if c == 0:
                for name, label in zip(names, in_labels, strict=True):
                    column.node(name, label=_escape_plain(label), shape="box", fillcolor=_OP_FILL)
            elif c == len(columns) - 1:
                for name, label in zip(names, out_labels, strict=True):
                    column.node(name, label=_escape_plain(label), shape="box", fillcolor=_OP_FILL)
            else:
                for j, (name, neuron) in enumerate(zip(names, layers[c - 1], strict=True)):
                    column.node(
                        name,
                        label="",
                        shape="circle",
                        width="0.3",
                        fixedsize="true",
                        fillcolor=_VALUE_FILL,
                        tooltip=_escape_plain(
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
                    tooltip=_escape_plain(
                        f"w = {_exact(w.data)}: input {i + 1} of {layer_title}, neuron {j + 1}"
                    ),
                )
    for src, name in zip(columns[-2][1], columns[-1][1], strict=True):
        dot.edge(src, name)
    return dot


def render_svg(graph: graphviz.Digraph, path: str | Path | None = None) -> str:
    """Lay out ``graph`` and return (and optionally save) it as SVG text.

    Uses Graphviz's ``dot`` program if it is on ``PATH``, else the
    dot-compatible ``graphviz-pure`` program from PyPI (in the ``examples``
    and ``test`` extras), so a machine with only Python can draw too.

    Parameters
    ----------
    graph : graphviz.Digraph
        E.g. the result of :func:`draw_dot` or :func:`draw_mlp`.
    path : str or path-like, optional
        Also write the SVG to this file (its folder is created).

    Returns
    -------
    str
        The SVG document.

    Raises
    ------
    RuntimeError
        If neither ``dot`` nor ``graphviz-pure`` is installed, or the layout fails.
    """
    source: str = graph.source
    program = find_dot()
    if program is None:
        raise RuntimeError(
            "drawing needs Graphviz's `dot` program or its PyPI port: "
            'pip install graphviz-pure (or "micrograd-book[examples]"), '
            "or install Graphviz"
        )
    proc = subprocess.run(
        [program, "-Tsvg"], input=source.encode("utf-8"), capture_output=True, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(
            f"{program} failed with exit code {proc.returncode}: "
            f"{proc.stderr.decode('utf-8', 'replace').strip()}"
        )
    svg = proc.stdout.decode("utf-8")
    if path is not None:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(svg, encoding="utf-8")
    return svg


_SVG = "{http://www.w3.org/2000/svg}"
_XLINK = "{http://www.w3.org/1999/xlink}"
_ITEM_CLASSES = frozenset({"node", "edge", "cluster"})


def inline_svg(svg: str, id_prefix: str = "", label: str | None = None) -> str:
    """A rendered drawing made ready to sit inside an HTML page.

    Graphviz writes a standalone SVG file: an XML prolog and comments, ids
    (``node1``, ``edge3``...) that repeat in every drawing, a ``<title>`` with
    each node's internal name, and each tooltip as the ``xlink:title`` of a
    link.  Browsers show a tooltip for the nearest enclosing ``<title>``, so
    this function

    * gives every node and arrow the tooltip of :func:`draw_dot` or
      :func:`draw_mlp` as its ``<title>`` (and removes the links around it),
    * drops the titles that are only internal names (``n0``, the graph's own),
    * puts ``id_prefix`` in front of every id (and every reference to one),
      so that several drawings can share a page,
    * and, given a ``label``, makes the picture an image with that
      accessible name (``role="img"``, ``aria-label``).

    The result is the ``<svg>`` element alone, with its natural ``width``
    and ``height`` and the class ``micrograd-graph``.  The same input gives
    the same output, byte for byte.

    Parameters
    ----------
    svg : str
        An SVG document, e.g. from :func:`render_svg`.
    id_prefix : str, optional
        Put in front of every id; use a different one for each drawing on a page.
    label : str, optional
        A text alternative for the whole picture (what an ``alt`` says).

    Returns
    -------
    str
        The ``<svg>`` element as text.

    Raises
    ------
    ValueError
        If ``svg`` is not an SVG document.

    Examples
    --------
    >>> from micrograd import Value
    >>> svg = render_svg(draw_dot(Value(2.0, label="x")))
    >>> html = inline_svg(svg, id_prefix="fig1-", label="the leaf x")
    >>> html.startswith("<svg ") and 'class="micrograd-graph"' in html
    True
    >>> "<title>x: data = 2.0, grad = 0.0</title>" in html
    True
    """
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as error:
        raise ValueError(f"not an SVG document: {error}") from error
    if root.tag != _SVG + "svg":
        raise ValueError(f"not an SVG document: the root element is {root.tag!r}")
    for element in root.iter():
        _prefix_ids(element, id_prefix)
    _lift_tooltips(root)
    for element in root.iter():  # SVG's own namespace is the default in an HTML page
        element.tag = element.tag.removeprefix(_SVG)
    root.set("xmlns", _SVG[1:-1])
    root.set("class", "micrograd-graph")
    if label is not None:
        root.set("role", "img")
        root.set("aria-label", label)
    return ET.tostring(root, encoding="unicode")


def _prefix_ids(element: ET.Element, prefix: str) -> None:
    """Prefix the element's id and its references to ids (``#id``, ``url(#id)``)."""
    for key, value in list(element.attrib.items()):
        if key == "id":
            element.set(key, prefix + value)
        elif key in ("href", _XLINK + "href") and value.startswith("#"):
            del element.attrib[key]
            element.set("href", "#" + prefix + value[1:])
        elif "url(#" in value:
            element.set(key, value.replace("url(#", "url(#" + prefix))


def _lift_tooltips(root: ET.Element) -> None:
    """Move each link's tooltip into its node's ``<title>``; drop internal names."""
    for group in list(root.iter(_SVG + "g")):
        title = group.find(_SVG + "title")
        classes = set(group.get("class", "").split())
        tooltip = _unwrap_links(group)
        if title is None:
            continue
        if tooltip and classes & _ITEM_CLASSES:
            title.text = tooltip
        else:  # a Graphviz name (n0, n2_op, the graph's %3): nothing for a reader
            group.remove(title)


def _unwrap_links(group: ET.Element) -> str | None:
    """Replace the ``<g><a xlink:title=...>`` wrappers in ``group`` by their
    contents; return the first tooltip found."""
    tooltip = None
    position = 0
    for child in list(group):
        if child.tag != _SVG + "g" or len(child) != 1 or child[0].tag != _SVG + "a":
            position += 1
            continue
        link = child[0]
        found = link.get(_XLINK + "title") or link.get("title")
        if tooltip is None and found:
            tooltip = found
        group.remove(child)
        for item in list(link):
            group.insert(position, item)
            position += 1
    return tooltip
