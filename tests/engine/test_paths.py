"""Tests for micrograd.viz.paths: the chain rule as a sum, over paths, of products."""

from __future__ import annotations

import html
import itertools
import math
import re
from collections.abc import Callable
from xml.etree import ElementTree

import pytest
from graphs import ALL_OPS, Program, programs, run_engine
from hypothesis import given

from micrograd import Value
from micrograd.engine import new_node, topological_order
from micrograd.viz.paths import (
    DEFAULT_MAX_PATHS,
    Edge,
    Path,
    chain_paths,
    draw_paths,
    local_derivatives,
)
from micrograd.viz.svg import render_svg

#: Enough paths for any graph the strategy draws that is worth listing.
MANY = 4096


def used_twice() -> tuple[Value, Value]:
    """The local-rules page's picture: a feeds b = a * x and c = a + y; L = b * c.  (L, a)"""
    a, x, y = Value(2.0, label="a"), Value(-3.0, label="x"), Value(5.0, label="y")
    b = a * x
    b.label = "b"
    c = a + y
    c.label = "c"
    L = b * c
    L.label = "L"
    return L, a


def count_paths(root: Value, node: Value) -> int:
    """How many paths lead from ``node`` up to ``root`` (each input once per operation)."""
    if root is node:
        return 1
    return sum(count_paths(child, node) for child in dict.fromkeys(root._prev))


def test_each_path_is_the_product_of_its_edges_local_derivatives() -> None:
    L, a = used_twice()
    first, second = chain_paths(L, a)
    assert [node.label for node in first.nodes] == ["a", "b", "L"]
    assert [node.label for node in second.nodes] == ["a", "c", "L"]
    # d(a*x)/da = x, dL/db = c; d(a+y)/da = 1, dL/dc = b
    assert [edge.local for edge in first.edges] == [-3.0, 7.0]
    assert [edge.local for edge in second.edges] == [1.0, -6.0]
    assert (first.product, second.product) == (-21.0, -6.0)


def test_where_paths_meet_their_products_add_up_to_the_engines_grad() -> None:
    L, a = used_twice()
    paths = chain_paths(L, a)
    L.backward()
    assert sum(path.product for path in paths) == a.grad == -27.0


@given(programs(ops=ALL_OPS))
def test_on_random_graphs_the_paths_of_every_node_add_up_to_its_grad(program: Program) -> None:
    _, nodes = run_engine(program)
    root = nodes[-1]
    for node in topological_order(root):
        if count_paths(root, node) > MANY:  # more paths than are worth listing
            continue
        paths = chain_paths(root, node, max_paths=MANY)
        assert len(paths) == count_paths(root, node)
        total = math.fsum(path.product for path in paths)
        assert math.isclose(total, node.grad, rel_tol=1e-9, abs_tol=1e-9), (
            f"{program}\nnode {node!r}: paths add up to {total}"
        )


@given(programs(ops=ALL_OPS))
def test_listing_the_paths_leaves_every_grad_as_it_was(program: Program) -> None:
    leaves, nodes = run_engine(program)
    root = nodes[-1]
    graph = topological_order(root)
    before = [node.grad for node in graph]
    for leaf in dict.fromkeys(leaves):
        if leaf in set(graph) and count_paths(root, leaf) <= MANY:
            chain_paths(root, leaf, max_paths=MANY)
    assert [node.grad for node in graph] == before


def test_an_input_used_twice_by_one_operation_is_one_edge_that_counts_both_uses() -> None:
    a = Value(3.0, label="a")
    b = a + a
    (path,) = chain_paths(b, a)
    assert path.edges == (Edge(a, b, 2.0),)
    square = a * a
    (path,) = chain_paths(square, a)
    assert path.product == 6.0


def test_a_rule_of_ones_own_and_a_closure_give_their_local_derivatives() -> None:
    def sin_backward(out: Value, x: Value) -> None:
        x.grad += math.cos(x.data) * out.grad

    x = Value(0.8, label="x")
    s = new_node(math.sin(x.data), "sin", sin_backward, x)
    assert local_derivatives(s) == {x: math.cos(0.8)}

    a, b = Value(2.0), Value(-3.0)
    out = Value(a.data * b.data, (a, b), "*")

    def _backward() -> None:  # the original micrograd's way: a closure over out, a and b
        a.grad += b.data * out.grad
        b.grad += a.data * out.grad

    out._backward = _backward
    assert local_derivatives(out) == {a: -3.0, b: 2.0}
    assert [path.product for path in chain_paths(out, b)] == [2.0]


def test_local_derivatives_put_back_every_grad_even_when_the_rule_fails() -> None:
    a = Value(1.0)

    def failing(out: Value, x: Value) -> None:
        x.grad += 5.0
        raise RuntimeError("a rule that fails")

    out = new_node(2.0, "f", failing, a)
    out.grad, a.grad = 0.25, 0.5
    with pytest.raises(RuntimeError, match="a rule that fails"):
        local_derivatives(out)
    assert (out.grad, a.grad) == (0.25, 0.5)
    assert local_derivatives(a) == {}


def test_the_output_itself_has_one_empty_path_of_product_one() -> None:
    L, _ = used_twice()
    (path,) = chain_paths(L, L)
    assert path == Path(())
    assert path.nodes == ()
    assert path.product == 1.0


def test_a_graph_of_any_depth_has_its_paths_listed() -> None:
    x = Value(1.0, label="x")
    node = x
    for _ in range(5000):
        node = node * 1.0 + 0.0
    (path,) = chain_paths(node, x)
    assert len(path.edges) == 10000
    assert path.product == 1.0


def test_a_path_reads_as_its_nodes_and_its_product() -> None:
    L, a = used_twice()
    assert [str(path) for path in chain_paths(L, a)] == [
        "a -> b -> L: -3.0000 * 7.0000 = -21.0000",
        "a -> c -> L: 1.0000 * -6.0000 = -6.0000",
    ]


def doubled(levels: int) -> tuple[Value, Value]:
    """x doubled ``levels`` times, as x * 1 + x * 1: 2**levels paths.  (output, x)"""
    x = Value(1.0, label="x")
    node = x
    for _ in range(levels):
        node = node * 1.0 + node * 1.0
    return node, x


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: chain_paths(2.0, Value(1.0)), TypeError, "root must be a Value"),  # type: ignore[arg-type]
        (lambda: chain_paths(Value(1.0), "a"), TypeError, "wrt must be a Value"),  # type: ignore[arg-type]
        (lambda: chain_paths(*used_twice(), max_paths=2.5), TypeError, "max_paths must be an int"),  # type: ignore[arg-type]
        (lambda: chain_paths(*used_twice(), max_paths=True), TypeError, "max_paths must be an int"),
        (lambda: chain_paths(*used_twice(), max_paths=0), ValueError, "at least 1"),
        (
            lambda: chain_paths(used_twice()[0], Value(2.0, label="a")),
            ValueError,
            "a is not a node of the graph of L",
        ),
        (lambda: chain_paths(*doubled(5)), ValueError, "32 paths lead from x to the result of"),
        (lambda: draw_paths(*used_twice(), rankdir="up"), ValueError, "rankdir must be one of"),
        (lambda: local_derivatives(1.0), TypeError, "local_derivatives needs a Value"),  # type: ignore[arg-type]
    ],
)
def test_bad_input_raises_a_clear_error(
    call: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        call()


def test_up_to_max_paths_are_listed() -> None:
    root, x = doubled(4)
    assert len(chain_paths(root, x)) == 16 == DEFAULT_MAX_PATHS
    assert len(chain_paths(*doubled(5), max_paths=32)) == 32


# -- the drawing -------------------------------------------------------------------------


def edge_lines(source: str) -> dict[tuple[str, str], str]:
    """(from, to) -> the edge's attributes, from DOT source."""
    return {
        (a, b): attrs
        for a, b, attrs in re.findall(r"^\s*(n\d+) -> (n\d+)(?: \[(.*)\])?$", source, flags=re.M)
    }


def test_the_paths_arrows_carry_their_local_derivatives_and_the_others_none() -> None:
    L, a = used_twice()
    L.backward()
    source = draw_paths(L, a).source
    edges = edge_lines(source)
    # n0 a, n1 x, n2 b, n3 y, n4 c, n5 L (topological order)
    labels = {pair: re.search(r'label=" ([^"]+)"', attrs) for pair, attrs in edges.items()}
    shown = {pair: m.group(1) for pair, m in labels.items() if m}
    assert shown == {
        ("n0", "n2"): "-3.0000",
        ("n0", "n4"): "1.0000",
        ("n2", "n5"): "7.0000",
        ("n4", "n5"): "-6.0000",
    }
    assert set(edges) - set(shown) == {("n1", "n2"), ("n3", "n4")}


def test_under_the_drawing_each_paths_product_their_sum_and_the_grad() -> None:
    L, a = used_twice()
    L.backward()
    source = draw_paths(L, a).source
    legend = re.search(r'\blabel="([^"]*\\l)"', source)
    assert legend is not None
    assert legend.group(1).split("\\l")[:-1] == [
        "a -> b -> L: -3.0000 * 7.0000 = -21.0000",
        "a -> c -> L: 1.0000 * -6.0000 = -6.0000",
        "sum of the 2 paths: -27.0000",
        "a.grad: -27.0000",
    ]
    assert 'label="{ a | data 2.0000 | grad -27.0000 }"' in source
    assert 'label="{ b = a * x | data -6.0000 }"' in source


def test_the_drawing_describes_every_path_in_words() -> None:
    L, a = used_twice()
    L.backward()
    comment = re.search(r'comment="([^"]*)"', draw_paths(L, a).source)
    assert comment is not None
    assert comment.group(1) == (
        "The chain rule for a: 2 paths from a to L. "
        "a to b to L, local derivatives -3.0000 and 7.0000, product -21.0000; "
        "a to c to L, local derivatives 1.0000 and -6.0000, product -6.0000. "
        "Their sum is -27.0000; a.grad is -27.0000."
    )


def test_the_drawing_is_laid_out_with_its_numbers(dot_program: None) -> None:
    L, a = used_twice()
    L.backward()
    svg = render_svg(draw_paths(L, a))
    texts = [html.unescape(text) for text in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]
    for expected in ("-3.0000", "7.0000", "-6.0000", "sum of the 2 paths: -27.0000"):
        assert any(expected in text for text in texts), (expected, texts)


def _points(d: str) -> list[tuple[float, float]]:
    """A path's points, its curves' control points among them: the line they join."""
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(numbers[::2], numbers[1::2], strict=True))


def _x_at(points: list[tuple[float, float]], y: float) -> float | None:
    """Where the line through ``points`` crosses the height ``y`` (None: it does not)."""
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if y0 != y1 and min(y0, y1) <= y <= max(y0, y1):
            return x0 + (x1 - x0) * (y - y0) / (y1 - y0)
    return None


def test_each_local_derivative_sits_nearer_its_own_arrow_than_the_next(dot_program: None) -> None:
    # a's two arrows leave side by side, and each label sits at its arrow's right: the
    # first one's lies between them, where it must read as its own arrow's.
    L, a = used_twice()
    L.backward()
    ns = "{http://www.w3.org/2000/svg}"
    svg = ElementTree.fromstring(render_svg(draw_paths(L, a)))
    edges = [g for g in svg.iter(f"{ns}g") if g.get("class") == "edge"]
    lines = {id(edge): _points(next(edge.iter(f"{ns}path")).get("d", "")) for edge in edges}
    labelled = 0
    for edge in edges:
        text = edge.find(f"{ns}text")
        if text is None:
            continue
        labelled += 1
        size = float(text.get("font-size", "0"))
        width = 0.556 * size * len((text.text or "").strip())  # Helvetica's digits
        left = float(text.get("x", "0")) - width / 2
        middle = float(text.get("y", "0")) - size / 3
        own = _x_at(lines[id(edge)], middle)
        assert own is not None
        assert own < left, text.text  # at its arrow's right
        crossing = [_x_at(lines[id(other)], middle) for other in edges if other is not edge]
        after = [x - (left + width) for x in crossing if x is not None and x > left]
        if after:
            assert min(after) >= 1.5 * (left - own), (text.text, left - own, min(after))
    assert labelled == 4


def test_the_same_graph_gives_the_same_drawing() -> None:
    sources = []
    for _ in range(2):
        L, a = used_twice()
        L.backward()
        sources.append(draw_paths(L, a).source)
    assert sources[0] == sources[1]
