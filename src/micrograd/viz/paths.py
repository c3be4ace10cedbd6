"""The chain rule as paths: a gradient is a sum, over paths, of products of local derivatives.

Every edge of a computation graph, from an input to the node computed from it,
has a *local derivative*: d(node)/d(input), what the node's backward rule
sends the input per unit of the node's own gradient.  The chain rule says how
they make a gradient: along one path from a node ``x`` to the output, the
derivative is the **product** of the local derivatives of the path's edges;
and where several paths lead from ``x`` to the output, their contributions
**add**.  :meth:`micrograd.engine.Value.backward` computes the same sum
without listing a single path (each node passes its whole gradient on once),
which is why it is fast; listing the paths is how to see what it computes.

:func:`local_derivatives` asks a node's own backward rule for its local
derivatives (so they are the engine's, whatever the rule), :func:`chain_paths`
lists the paths with their products, and :func:`draw_paths` draws them, as a
Graphviz graph in the style of :func:`~micrograd.viz.draw.draw_dot`: each
path's edges labelled with their local derivatives, each path's product and
their sum written under the graph, and the node's ``grad`` in its box.

Examples
--------
>>> from micrograd import Value
>>> a, x, y = Value(2.0, label="a"), Value(-3.0, label="x"), Value(5.0, label="y")
>>> b, c = a * x, a + y
>>> b.label, c.label = "b", "c"
>>> L = b * c
>>> L.label = "L"
>>> L.backward()
>>> for path in chain_paths(L, a):
...     print(path)
a -> b -> L: -3.0000 * 7.0000 = -21.0000
a -> c -> L: 1.0000 * -6.0000 = -6.0000
>>> sum(path.product for path in chain_paths(L, a)), a.grad
(-27.0, -27.0)
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_MAX_PATHS",
    "Edge",
    "Path",
    "chain_paths",
    "draw_paths",
    "local_derivatives",
]

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from micrograd.engine import Value, topological_order
from micrograd.viz.draw import (
    _EDGE,
    _FONT,
    _FONT_SIZE,
    _INK,
    _RECORD_SPECIAL,
    _check_rankdir,
    _escape,
    _exact,
    _new_digraph,
)
from micrograd.viz.labels import dot_names, format_number, formula, name_of

if TYPE_CHECKING:  # pragma: no cover - only for the type checker
    import graphviz

#: How many paths :func:`chain_paths` lists before it gives up: their number can
#: grow exponentially with a graph's depth, and a picture of many paths is unreadable.
DEFAULT_MAX_PATHS = 16

#: The edges of the paths, and their local derivatives: a dark blue, which reads
#: on the drawings' light backing in either colour mode.
_PATH_COLOUR = "#0550ae"


@dataclass(frozen=True)
class Edge:
    """One edge of a path: an input, the node computed from it, and the local derivative.

    Attributes
    ----------
    input : Value
        The input.
    output : Value
        The node computed from it.
    local : float
        d(output)/d(input), as ``output``'s backward rule computes it.  An
        input used twice by one operation (``a * a``) is one edge, whose local
        derivative counts both uses (``2 * a``).
    """

    input: Value
    output: Value
    local: float


@dataclass(frozen=True)
class Path:
    """One path from a node up to the output, and its share of the node's gradient.

    Attributes
    ----------
    edges : tuple of Edge
        From the node (the first edge's ``input``) up to the output (the last
        edge's ``output``); empty for the path from the output to itself.
    """

    edges: tuple[Edge, ...]

    @property
    def nodes(self) -> tuple[Value, ...]:
        """The path's nodes, from the node up to the output (empty for the empty path)."""
        if not self.edges:
            return ()
        return (self.edges[0].input, *(edge.output for edge in self.edges))

    @property
    def product(self) -> float:
        """The product of the local derivatives: this path's share of the node's gradient.

        Multiplied from the output down, as ``backward()`` passes a gradient on;
        1.0 for the empty path.
        """
        product = 1.0
        for edge in reversed(self.edges):
            product = edge.local * product
        return product

    def __str__(self) -> str:
        """``a -> b -> L: 3.0000 * 6.0000 = 18.0000`` (plain ASCII: any layout program sizes it)."""
        if not self.edges:
            return "the output itself: 1.0000"
        route = " -> ".join(name_of(node) for node in self.nodes)
        factors = " * ".join(format_number(edge.local) for edge in self.edges)
        if len(self.edges) == 1:
            return f"{route}: {factors}"
        return f"{route}: {factors} = {format_number(self.product)}"


def local_derivatives(node: Value) -> dict[Value, float]:
    """d(node)/d(input) for each input of ``node``: its own rule, run once with a grad of 1.

    The rule runs as :meth:`~micrograd.engine.Value.backward` runs it, on the
    node's own inputs, so the numbers are the engine's, for a rule of one's
    own (:func:`~micrograd.engine.new_node`) as well.  Every grad it touches
    is put back as it was.

    Parameters
    ----------
    node : Value
        Any node; a leaf has no inputs, and a node without a rule passes nothing on.

    Returns
    -------
    dict of Value to float
        Each input once, in operand order; an input used twice (``a * a``)
        has the sum of its two uses.

    Raises
    ------
    TypeError
        If ``node`` is not a Value.
    """
    if not isinstance(node, Value):
        raise TypeError(f"local_derivatives needs a Value, got {type(node).__name__} {node!r}")
    inputs = list(dict.fromkeys(node._prev))
    if not inputs:
        return {}
    held = node.grad, [child.grad for child in inputs]
    node.grad = 1.0
    for child in inputs:
        child.grad = 0.0
    try:
        node._backward()
        return {child: child.grad for child in inputs}
    finally:
        node.grad = held[0]
        for child, grad in zip(inputs, held[1], strict=True):
            child.grad = grad


def _check_max_paths(max_paths: object) -> int:
    if isinstance(max_paths, bool) or not isinstance(max_paths, int):
        raise TypeError(f"max_paths must be an int, got {type(max_paths).__name__} {max_paths!r}")
    if max_paths < 1:
        raise ValueError(f"max_paths must be at least 1, got {max_paths}")
    return max_paths


def _path_counts(order: list[Value], wrt: Value) -> dict[Value, int]:
    """Each node -> how many paths lead from ``wrt`` up to it (0 if it does not depend on it)."""
    counts: dict[Value, int] = {}
    for node in order:  # inputs first: each count is the sum of its inputs' counts
        if node is wrt:
            counts[node] = 1
        else:
            counts[node] = sum(counts[child] for child in dict.fromkeys(node._prev))
    return counts


def chain_paths(root: Value, wrt: Value, max_paths: int = DEFAULT_MAX_PATHS) -> list[Path]:
    """Every path from ``wrt`` up to ``root``, each edge with its local derivative.

    By the chain rule, the products of the paths add up to d(root)/d(wrt): what
    ``root.backward()`` leaves in ``wrt.grad`` (rounding aside, and with every
    grad at 0 before).  The local derivatives come from the nodes' own rules
    (:func:`local_derivatives`); nothing is left changed in the graph.

    Parameters
    ----------
    root : Value
        The output.
    wrt : Value
        A node of ``root``'s graph (usually a leaf): the paths lead from it.
    max_paths : int, default 16
        The most paths to list.  Their number can double with every level of
        a graph; a graph with more raises instead.

    Returns
    -------
    list of Path
        Depth first from ``root``, each node's inputs in operand order, so
        the same graph gives the same list every time.  One empty path if
        ``wrt`` is ``root``.

    Raises
    ------
    TypeError
        If ``root`` or ``wrt`` is not a Value, or ``max_paths`` not an int.
    ValueError
        If ``wrt`` is not a node of ``root``'s graph, if no path leads from it
        to ``root`` (it cannot: a node of the graph has one), or if there are
        more than ``max_paths`` paths.
    """
    for name, node in (("root", root), ("wrt", wrt)):
        if not isinstance(node, Value):
            raise TypeError(f"chain_paths: {name} must be a Value, got {type(node).__name__}")
    max_paths = _check_max_paths(max_paths)
    order = topological_order(root)
    if wrt not in set(order):
        raise ValueError(
            f"chain_paths: {name_of(wrt)} is not a node of the graph of {name_of(root)}"
        )
    counts = _path_counts(order, wrt)
    if counts[root] > max_paths:
        raise ValueError(
            f"{counts[root]} paths lead from {name_of(wrt)} to {name_of(root)}; at most "
            f"{max_paths} are listed (raise max_paths, or ask about a smaller graph)"
        )
    local: dict[Value, dict[Value, float]] = {}
    paths: list[Path] = []
    # Depth first with an explicit stack (a graph of any depth): a node, and the
    # edges from it up to the root, the root's edge first.
    stack: list[tuple[Value, tuple[Edge, ...]]] = [(root, ())]
    while stack:
        node, above = stack.pop()
        if node is wrt:
            paths.append(Path(tuple(reversed(above))))
            continue
        if node not in local:
            local[node] = local_derivatives(node)
        # pushed in reverse, so that the first input comes off the stack first
        for child, derivative in reversed(local[node].items()):
            if counts[child]:
                stack.append((child, (*above, Edge(child, node, derivative))))
    return paths


def _title(node: Value) -> str:
    """A box's first field: ``b = a * x``, ``a``, or the formula of an unlabelled node."""
    made = formula(node)
    if not node.label:
        return made or name_of(node)
    return node.label if not made or made == node.label else f"{node.label} = {made}"


def _legend(paths: list[Path], wrt: Value) -> str:
    """The lines under the drawing: each path's product, then their sum (left-aligned)."""
    lines = [str(path) for path in paths]
    total = math.fsum(path.product for path in paths)
    if len(paths) > 1:
        lines.append(f"sum of the {len(paths)} paths: {format_number(total)}")
    lines.append(f"{name_of(wrt)}.grad: {format_number(wrt.grad)}")
    return "".join(_escape(line) + "\\l" for line in lines)


def _description(paths: list[Path], root: Value, wrt: Value) -> str:
    """The drawing's text alternative: every path, its local derivatives and product, the sum."""
    noun = "path" if len(paths) == 1 else "paths"
    items = []
    for path in paths:
        route = " to ".join(name_of(node) for node in path.nodes) or name_of(root)
        factors = " and ".join(format_number(edge.local) for edge in path.edges) or "none"
        items.append(f"{route}, local derivatives {factors}, product {format_number(path.product)}")
    total = math.fsum(path.product for path in paths)
    return (
        f"The chain rule for {name_of(wrt)}: {len(paths)} {noun} from {name_of(wrt)} "
        f"to {name_of(root)}. " + "; ".join(items) + ". "
        f"Their sum is {format_number(total)}; {name_of(wrt)}.grad is "
        f"{format_number(wrt.grad)}."
    )


def draw_paths(
    root: Value, wrt: Value, rankdir: str = "TB", max_paths: int = DEFAULT_MAX_PATHS
) -> graphviz.Digraph:
    """Draw the chain rule for ``wrt``: its paths to ``root``, their products, their sum.

    The nodes of the paths (:func:`chain_paths`) are drawn as boxes
    ``b = a * x | data 6.0000``, the other inputs of their nodes as grey
    boxes, and each input joined to the node computed from it by an arrow.
    The arrows of the paths are blue and labelled with their local
    derivatives; under the drawing, one line per path gives the product of
    its local derivatives, then the sum of the products, then ``wrt``'s
    ``grad`` as the engine holds it (``wrt``'s box shows it too): after
    ``root.backward()``, from grads at 0, the sum is that grad.

    Parameters
    ----------
    root : Value
        The output.
    wrt : Value
        A node of ``root``'s graph: the paths lead from it.
    rankdir : {"TB", "LR", "BT", "RL"}, default "TB"
        Direction of the arrows (see :func:`~micrograd.viz.draw.draw_dot`).
    max_paths : int, default 16
        The most paths to draw (see :func:`chain_paths`).

    Returns
    -------
    graphviz.Digraph
        Each node named as :func:`~micrograd.viz.draw.draw_dot` names it
        (``n{i}``), every box and arrow with a tooltip of exact numbers, and
        the graph's ``comment`` its text alternative: every path with its
        local derivatives and product, their sum, and ``wrt``'s grad.

    Raises
    ------
    TypeError
        If ``root`` or ``wrt`` is not a Value, or ``max_paths`` not an int.
    ValueError
        If ``wrt`` is not a node of ``root``'s graph, there are more than
        ``max_paths`` paths, or ``rankdir`` is not one of the four directions.
    ImportError
        If the ``graphviz`` package is missing (``pip install "micrograd-book[draw]"``).
    """
    rankdir = _check_rankdir(rankdir)
    paths = chain_paths(root, wrt, max_paths=max_paths)
    order = topological_order(root)
    names = dot_names(order)
    on_path = {node for path in paths for node in path.nodes} or {root}
    edges = {(edge.input, edge.output): edge for path in paths for edge in path.edges}
    others = {child for node in on_path for child in node._prev if child not in on_path}

    dot = _new_digraph(rankdir)
    # Each arrow's label sits at its right.  Where two arrows leave one node, the first
    # one's label lies between them: nodes 0.35 in apart leave a clear gap after it, so
    # that it reads as its own arrow's, not the next one's.
    dot.attr(
        ranksep="0.3",
        nodesep="0.35",
        comment=_escape(_description(paths, root, wrt)),
        label=_legend(paths, wrt),
        labelloc="b",
        labeljust="l",
        fontcolor=_INK,
        fontsize=str(_FONT_SIZE),
    )
    dot.attr("edge", fontname=_FONT, fontsize=str(_FONT_SIZE))
    for node in order:
        if node not in on_path and node not in others:
            continue
        fields = [_escape(_title(node), _RECORD_SPECIAL), f"data {format_number(node.data)}"]
        if node is wrt:
            fields.append(f"grad {format_number(node.grad)}")
        style = {} if node in on_path else {"color": _EDGE}
        tooltip = f"{name_of(node)}: data = {_exact(node.data)}"
        dot.node(
            names[node],
            label="{ " + " | ".join(fields) + " }",
            shape="record",
            tooltip=_escape(tooltip + (f", grad = {_exact(node.grad)}" if node is wrt else "")),
            **style,
        )
    for node in order:
        if node not in on_path:
            continue
        for child in dict.fromkeys(node._prev):
            edge = edges.get((child, node))
            if edge is None:
                dot.edge(names[child], names[node])
                continue
            dot.edge(
                names[child],
                names[node],
                label=" " + format_number(edge.local),
                color=_PATH_COLOUR,
                fontcolor=_PATH_COLOUR,
                penwidth="2",
                tooltip=_escape(f"d{name_of(node)}/d{name_of(child)} = {_exact(edge.local)}"),
            )
    return dot
