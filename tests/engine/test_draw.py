"""Tests for micrograd.viz.draw: graph and network drawings."""

from __future__ import annotations

import random
import re
import sys

import pytest
from labelled_neuron import NeuronBuilder
from scripts import run_python

from micrograd import MLP, Layer, Neuron, Value
from micrograd.engine import topological_order
from micrograd.viz.draw import DEFAULT_MAX_NODES, draw_dot, draw_mlp
from micrograd.viz.svg import render_svg


def records(source: str) -> dict[str, str]:
    """Node name -> record label, from DOT source."""
    return dict(re.findall(r'^\s*(n\d+) \[label="\{ (.*?) \}"', source, flags=re.M))


def svg_texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_each_value_is_a_record_with_label_data_and_grad(neuron: NeuronBuilder) -> None:
    source = draw_dot(neuron(backward=True).o).source
    labels = set(records(source).values())
    assert labels == {
        "x1 | data 2.0000 | grad -1.5000",
        "w1 | data -3.0000 | grad 1.0000",
        "x2 | data 0.0000 | grad 0.5000",
        "w2 | data 1.0000 | grad 0.0000",
        "b | data 6.8814 | grad 0.5000",
        "x1*w1 | data -6.0000 | grad 0.5000",
        "x2*w2 | data 0.0000 | grad 0.5000",
        "x1*w1 + x2*w2 | data -6.0000 | grad 0.5000",
        "n | data 0.8814 | grad 0.5000",
        "o | data 0.7071 | grad 1.0000",
    }
    assert source.count("shape=record") == 10


def test_node_names_follow_topological_order(neuron: NeuronBuilder) -> None:
    root = neuron(backward=True).o
    order = topological_order(root)
    recs = records(draw_dot(root).source)
    assert list(recs) == [f"n{i}" for i in range(len(order))]
    for i, node in enumerate(order):
        assert recs[f"n{i}"].startswith(node.label + " | ")


def test_each_operation_is_an_op_node_between_inputs_and_result(neuron: NeuronBuilder) -> None:
    root = neuron(backward=True).o
    order = topological_order(root)
    source = draw_dot(root).source
    ops = dict(re.findall(r"^\s*(n\d+)_op \[label=\"?([^\" ]+)\"?", source, flags=re.M))
    assert ops == {f"n{i}": node._op for i, node in enumerate(order) if node._op}
    edges = re.findall(r"^\s*(\w+) -> (\w+)", source, flags=re.M)
    expected = set()
    for i, node in enumerate(order):
        if node._op:
            expected.add((f"n{i}_op", f"n{i}"))
            for child in node._prev:
                expected.add((f"n{order.index(child)}", f"n{i}_op"))
    assert set(edges) == expected
    assert len(edges) == len(expected)


def test_same_graph_gives_identical_source_every_time(neuron: NeuronBuilder) -> None:
    assert draw_dot(neuron(backward=True).o).source == draw_dot(neuron(backward=True).o).source


def test_source_is_identical_in_a_fresh_interpreter(neuron: NeuronBuilder) -> None:
    code = (
        "import sys; sys.path.insert(0, 'tests'); from labelled_neuron import build_neuron; "
        "from micrograd.viz.draw import draw_dot; "
        "print(draw_dot(build_neuron(backward=True).o).source, end='')"
    )
    out = run_python("-c", code).stdout
    assert out == draw_dot(neuron(backward=True).o).source


def test_show_grad_false_leaves_the_grad_out(neuron: NeuronBuilder) -> None:
    source = draw_dot(neuron(backward=True).o, show_grad=False).source
    assert "grad" not in source
    assert "o | data 0.7071" in records(source).values()


@pytest.mark.parametrize("rankdir", ["LR", "TB", "RL", "BT"])
def test_rankdir_sets_the_direction(rankdir: str, neuron: NeuronBuilder) -> None:
    assert f"rankdir={rankdir}" in draw_dot(neuron(backward=True).o, rankdir=rankdir).source


def test_drawings_run_top_to_bottom_by_default(neuron: NeuronBuilder) -> None:
    assert "rankdir=TB" in draw_dot(neuron(backward=True).o).source
    random.seed(1337)
    assert "rankdir=TB" in draw_mlp(MLP(2, [3, 1])).source


def test_top_to_bottom_keeps_a_long_graph_narrow(dot_program: str, neuron: NeuronBuilder) -> None:
    def width(svg: str) -> float:
        found = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
        assert found is not None
        return float(found.group(1))

    tall = render_svg(draw_dot(neuron(backward=True).o))
    wide = render_svg(draw_dot(neuron(backward=True).o, rankdir="LR"))
    # The docs' reading column is about 570 pt wide on a laptop.
    assert width(tall) < 450 < width(wide)


def tooltips(source: str) -> dict[str, str]:
    """DOT statement (node name or 'a -> b') -> its tooltip."""
    found = re.findall(r'^\s*(\w+(?: -> \w+)?) \[.*tooltip="([^"]*)"', source, flags=re.M)
    return dict(found)


def test_every_box_and_arrow_has_a_tooltip_with_the_exact_numbers(neuron: NeuronBuilder) -> None:
    root = neuron(backward=True).o
    order = topological_order(root)
    source = draw_dot(root).source
    tips = tooltips(source)
    for i, node in enumerate(order):
        # repr: every digit, not the 4 decimals of the box
        assert tips[f"n{i}"] == f"{node.label}: data = {node.data!r}, grad = {node.grad!r}"
    b = next(node for node in order if node.label == "b")
    assert repr(b.data) == "6.881373587019543"  # the box says 6.8814
    n = order.index(next(node for node in order if node.label == "n"))
    assert tips[f"n{n}_op"] == "+ makes n"
    assert tips[f"n{n}_op -> n{n}"] == (
        f"+ -> n: data = {order[n].data!r}, grad = {order[n].grad!r}"
    )
    assert order[0].label == "x1"
    x1 = order[0]
    assert tips["n0 -> n2_op"] == f"x1 -> *: data = 2.0, grad = {x1.grad!r}"
    assert f"{x1.grad:.4f}" == "-1.5000" != repr(x1.grad)  # rounding in the box, not the tip
    edges = re.findall(r"^\s*\w+ -> \w+ .*$", source, flags=re.M)
    assert edges
    assert all("tooltip=" in edge for edge in edges)


def test_tooltips_leave_out_the_grad_when_the_drawing_does(neuron: NeuronBuilder) -> None:
    tips = tooltips(draw_dot(neuron(backward=True).o, show_grad=False).source)
    assert tips["n0"] == "x1: data = 2.0"
    assert not any("grad" in tip for tip in tips.values())


def test_unlabelled_nodes_are_named_by_what_made_them() -> None:
    a = Value(2.0, label="a")
    out = (a * 3).tanh()
    tips = tooltips(draw_dot(out).source)
    assert tips["n1"].startswith("the constant 3.0000: data = 3.0")
    assert tips["n2"].startswith("the result of *: data = 6.0")
    assert tips["n3_op"] == "tanh makes the result of tanh"


def test_tooltip_text_from_labels_is_escaped() -> None:
    a = Value(1.0, label='say "hi" \\ there')
    assert r'tooltip="say \"hi\" \\ there: data = 1.0' in draw_dot(a).source


def test_colours_read_on_light_and_dark_pages(neuron: NeuronBuilder) -> None:
    source = draw_dot(neuron(backward=True).o).source
    assert "bgcolor=transparent" in source
    assert 'fillcolor="#ffffff"' in source
    assert "style=filled" in source


def test_record_special_characters_in_labels_are_escaped(dot_program: str) -> None:
    a = Value(1.0, label='a{b}|<c>"d\\e')
    source = draw_dot(a).source
    assert r"a\{b\}\|\<c\>\"d\\e | data 1.0000" in source
    svg = draw_dot(a).pipe(format="svg", encoding="utf-8")
    assert "a{b}|&lt;c&gt;&quot;d\\e" in svg_texts(svg)


def test_svg_renders_identically_twice_and_shows_the_numbers(
    dot_program: str, neuron: NeuronBuilder
) -> None:
    first = draw_dot(neuron(backward=True).o).pipe(format="svg", encoding="utf-8")
    second = draw_dot(neuron(backward=True).o).pipe(format="svg", encoding="utf-8")
    assert first == second
    texts = svg_texts(first)
    for text in ["x1", "data 2.0000", "grad &#45;1.5000", "tanh", "o", "data 0.7071"]:
        assert text in texts


def test_big_graph_is_summarised_with_a_visible_note() -> None:
    random.seed(1337)
    model = MLP(2, [16, 16, 1])
    out = model([1.0, -2.0])
    assert isinstance(out, Value)
    total = len(topological_order(out))
    assert total > DEFAULT_MAX_NODES
    source = draw_dot(out).source
    assert len(records(source)) == DEFAULT_MAX_NODES
    omitted = total - DEFAULT_MAX_NODES
    assert f'more [label="... {omitted} more nodes"' in source
    assert f"of {total}; {omitted} more not drawn (max_nodes={DEFAULT_MAX_NODES})" in source
    # The output is always drawn, and its name is still its topological index.
    assert f"n{total - 1}" in records(source)


def test_summary_keeps_the_nodes_nearest_the_output(neuron: NeuronBuilder) -> None:
    root = neuron(backward=True).o  # o <- n <- (x1*w1 + x2*w2, b) <- ...
    source = draw_dot(root, max_nodes=4).source
    assert sorted(label.split(" | ")[0] for label in records(source).values()) == sorted(
        ["o", "n", "x1*w1 + x2*w2", "b"]
    )
    assert 'more [label="... 6 more nodes"' in source
    # The one kept node whose inputs were dropped gets a dashed arrow from the note.
    assert re.findall(r"more -> (\w+) \[style=dashed\]", source) == ["n6_op"]


def test_graph_within_the_cap_has_no_note(neuron: NeuronBuilder) -> None:
    source = draw_dot(neuron(backward=True).o, max_nodes=10).source
    assert "more" not in source
    assert "Summarised" not in source


def test_summarised_graph_renders(dot_program: str, neuron: NeuronBuilder) -> None:
    svg = draw_dot(neuron(backward=True).o, max_nodes=3).pipe(format="svg", encoding="utf-8")
    texts = svg_texts(svg)
    assert "... 7 more nodes" in texts
    assert any(t.startswith("Summarised: the 3 nodes nearest the output of 10") for t in texts)


def test_a_leaf_alone_is_one_node() -> None:
    source = draw_dot(Value(3.0, label="x")).source
    assert records(source) == {"n0": "x | data 3.0000 | grad 0.0000"}
    assert "->" not in source


def test_repeated_operand_draws_both_arrows() -> None:
    a = Value(3.0, label="a")
    b = a * a
    source = draw_dot(b).source
    assert re.findall(r"n0 -> n1_op", source) == ["n0 -> n1_op", "n0 -> n1_op"]


@pytest.mark.parametrize("rankdir", ["TB", "LR", "BT", "RL"])
def test_a_value_used_twice_draws_two_arrows_apart(dot_program: str, rankdir: str) -> None:
    # Two arrows from the same points lie on top of each other: the reader
    # would see one path where the gradient takes two.
    a = Value(3.0, label="a")
    svg = draw_dot(a + a, rankdir=rankdir).pipe(format="svg", encoding="utf-8")
    edges = re.findall(
        r"<title>n0[:\w]*&#45;&gt;n1_op[:\w]*</title>\s*<g[^>]*><a[^>]*>\s*"
        r"<path[^>]* d=\"M([-\d.]+),([-\d.]+)",
        svg,
    )
    assert len(edges) == 2
    (x1, y1), (x2, y2) = ((float(x), float(y)) for x, y in edges)
    assert abs(x1 - x2) + abs(y1 - y2) > 30


def test_node_with_children_but_no_op_name_gets_direct_arrows() -> None:
    a, b = Value(1.0, label="a"), Value(2.0, label="b")
    c = Value(3.0, (a, b), label="c")
    source = draw_dot(c).source
    assert "n2_op" not in source
    assert set(re.findall(r"(n\d) -> (n\d)", source)) == {("n0", "n2"), ("n1", "n2")}


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"root": 3.0}, TypeError, "draw_dot needs a Value"),
        ({"rankdir": "XY"}, ValueError, "rankdir must be one of"),
        ({"max_nodes": 0}, ValueError, "max_nodes must be at least 1"),
        ({"max_nodes": 2.5}, TypeError, "max_nodes must be an int"),
        ({"max_nodes": True}, TypeError, "max_nodes must be an int"),
    ],
)
def test_draw_dot_rejects_bad_arguments(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    args: dict[str, object] = {"root": Value(1.0)}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        draw_dot(**args)  # type: ignore[arg-type]


def test_missing_graphviz_says_an_install_that_works_as_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "graphviz", None)
    with pytest.raises(ImportError, match=r"pip install graphviz \(the draw extra"):
        draw_dot(Value(1.0))
    with pytest.raises(ImportError, match=r"pip install graphviz \(the draw extra"):
        draw_mlp(MLP(2, [1]))


def test_importing_micrograd_does_not_import_the_optional_packages() -> None:
    code = (
        "import sys, micrograd, micrograd.engine, micrograd.nn; "
        "print(sorted(m for m in ('graphviz', 'matplotlib', 'numpy', 'sklearn') "
        "if m in sys.modules))"
    )
    out = run_python("-c", code).stdout
    assert out.strip() == "[]"


# -- draw_mlp -------------------------------------------------------------------


def mlp_edges(source: str) -> list[tuple[str, str, str, float]]:
    """(from, to, colour, penwidth) of each weight arrow."""
    return [
        (a, b, colour, float(width))
        for a, b, colour, width in re.findall(
            r'(\w+) -> (\w+) \[arrowhead=none color="(#\w+)" penwidth=([\d.]+)', source
        )
    ]


def test_draw_mlp_has_a_column_per_layer_with_labelled_inputs_and_output() -> None:
    random.seed(1337)
    model = MLP(3, [4, 4, 1], activation="tanh", output_activation="tanh")
    source = draw_mlp(model).source
    for i in range(3):
        assert f"in{i} [label=x{i + 1}" in source
    for i, size in enumerate([4, 4, 1]):
        for j in range(size):
            assert f"L{i}_{j} [label=" in source
        assert f"L{i}_{size} " not in source
    assert "out0 [label=out" in source
    assert "label=input" in source
    assert 'label="hidden 1 (4, tanh)"' in source
    assert 'label="hidden 2 (4, tanh)"' in source
    assert 'label="output (1, tanh)"' in source
    assert "L2_0 -> out0" in source


def test_draw_mlp_has_one_arrow_per_weight_coloured_by_sign() -> None:
    random.seed(1337)
    model = MLP(3, [4, 4, 1])
    edges = mlp_edges(draw_mlp(model).source)
    assert len(edges) == 3 * 4 + 4 * 4 + 4 * 1
    weights = [w.data for layer in model.layers for n in layer.neurons for w in n.w]
    assert len(weights) == len(edges)
    for (_, _, colour, width), w in zip(edges, weights, strict=True):
        assert colour == ("#1f77b4" if w >= 0 else "#d62728")
        assert width == pytest.approx(min(6.0, 0.3 + 1.5 * abs(w)), abs=0.006)
    assert edges[0][:2] == ("in0", "L0_0")
    assert edges[1][:2] == ("in1", "L0_0")


def test_bigger_weights_draw_thicker_arrows() -> None:
    random.seed(0)
    model = MLP(2, [1])
    neuron_ = model.layers[0].neurons[0]
    neuron_.w[0].data = 0.1
    neuron_.w[1].data = -4.0
    (_, _, c0, w0), (_, _, c1, w1) = mlp_edges(draw_mlp(model).source)
    assert (c0, c1) == ("#1f77b4", "#d62728")
    assert w0 < w1
    (_, _, _, capped), _ = mlp_edges(draw_mlp(model, max_penwidth=2.0).source)[::-1]
    assert capped == 2.0


def test_trained_network_looks_different_from_untrained() -> None:
    random.seed(1337)
    model = MLP(2, [4, 1])
    before = draw_mlp(model).source
    for p in model.parameters():
        p.data *= 3.0
    after = draw_mlp(model).source
    assert before != after
    widths_before = [e[3] for e in mlp_edges(before)]
    widths_after = [e[3] for e in mlp_edges(after)]
    assert sum(widths_after) > sum(widths_before)


def test_draw_mlp_input_names_and_values() -> None:
    random.seed(1337)
    model = MLP(2, [3, 2])
    source = draw_mlp(model, inputs=["x", Value(2.0)], outputs=["p", "q"]).source
    assert "in0 [label=x " in source
    assert 'in1 [label="x2 = 2.0000"' in source
    assert "out0 [label=p " in source
    assert "out1 [label=q " in source
    assert "out1 [label=out2" in draw_mlp(model).source


def test_draw_mlp_draws_a_single_neuron() -> None:
    random.seed(1337)
    source = draw_mlp(Neuron(2, activation="tanh")).source
    assert 'label="output (1, tanh)"' in source
    assert len(mlp_edges(source)) == 2


def test_draw_mlp_tooltips_give_each_exact_weight_and_bias() -> None:
    random.seed(1337)
    model = MLP(2, [3, 1], activation="tanh", output_activation="tanh")
    tips = tooltips(draw_mlp(model).source)
    first = model.layers[0].neurons[0]
    assert tips["in0 -> L0_0"] == (
        f"w = {first.w[0].data!r}: input 1 of hidden 1 (3, tanh), neuron 1"
    )
    assert tips["in1 -> L0_0"].startswith(f"w = {first.w[1].data!r}:")
    last = model.layers[1].neurons[0]
    assert tips["L0_2 -> L1_0"].startswith(f"w = {last.w[2].data!r}: input 3 of output")
    assert tips["L0_0"] == f"hidden 1 (3, tanh), neuron 1: {first!r}, bias = 0.0"
    last.b.data = 0.123456789
    assert tooltips(draw_mlp(model).source)["L1_0"].endswith("bias = 0.123456789")


def test_draw_mlp_is_deterministic(dot_program: str) -> None:
    random.seed(1337)
    model = MLP(2, [3, 1])
    assert draw_mlp(model).source == draw_mlp(model).source
    svg1 = draw_mlp(model).pipe(format="svg", encoding="utf-8")
    svg2 = draw_mlp(model).pipe(format="svg", encoding="utf-8")
    assert svg1 == svg2
    assert "w = " in svg1  # the weights are in the tooltips


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"model": [1, 2]}, TypeError, "draw_mlp needs an MLP, Layer or Neuron"),
        ({"inputs": ["a"]}, ValueError, "the network has 2 inputs but inputs has 1"),
        ({"inputs": "ab"}, TypeError, "inputs must be a list"),
        ({"inputs": ["a", None]}, TypeError, "item 1 is NoneType"),
        ({"outputs": ["a", "b"]}, ValueError, "the network has 1 outputs"),
        ({"outputs": [3]}, TypeError, "outputs must hold str names"),
        ({"rankdir": "up"}, ValueError, "rankdir must be one of"),
        ({"max_penwidth": 0}, ValueError, "max_penwidth must be a number above 0.3"),
    ],
)
def test_draw_mlp_rejects_bad_arguments(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    random.seed(0)
    args: dict[str, object] = {"model": MLP(2, [1])}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        draw_mlp(**args)  # type: ignore[arg-type]


def test_newlines_and_quotes_in_labels_become_safe(dot_program: str) -> None:
    a = Value(1.0, label="two\nlines")
    b = a.tanh()
    b._op = 'odd "op"\tname\\'  # a custom operation name with characters DOT treats specially
    source = draw_dot(b).source
    assert "two lines | data 1.0000" in source
    assert r'n1_op [label="odd \"op\" name\\"' in source
    texts = svg_texts(draw_dot(b).pipe(format="svg", encoding="utf-8"))
    assert "two lines" in texts
    assert "odd &quot;op&quot; name\\" in texts


def test_draw_mlp_draws_a_layer_and_numeric_inputs() -> None:
    random.seed(1337)
    layer = Layer(2, 3, activation="tanh")
    source = draw_mlp(layer, inputs=[0.5, 2]).source
    assert 'in0 [label="x1 = 0.5000"' in source
    assert 'in1 [label="x2 = 2.0000"' in source
    assert 'label="output (3, tanh)"' in source
    assert len(mlp_edges(source)) == 6
    with pytest.raises(TypeError, match="outputs must be a list"):
        draw_mlp(layer, outputs="abc")


# -- text alternatives ------------------------------------------------------------------


def comment_of(source: str) -> str:
    """The graph's comment attribute, its text alternative, from DOT source."""
    found = re.search(r'^\s*comment="((?:[^"\\]|\\.)*)"', source, flags=re.M)
    assert found is not None, "the drawing has no comment"
    return found.group(1)


def test_draw_dot_names_every_value_with_its_data_and_grad(neuron: NeuronBuilder) -> None:
    description = comment_of(draw_dot(neuron(backward=True).o).source)
    assert description == (
        "A graph of 10 values: x1 (data 2.0000, grad -1.5000); w1 (data -3.0000, grad 1.0000); "
        "x1*w1 = x1 * w1 (data -6.0000, grad 0.5000); x2 (data 0.0000, grad 0.5000); "
        "w2 (data 1.0000, grad 0.0000); x2*w2 = x2 * w2 (data 0.0000, grad 0.5000); "
        "x1*w1 + x2*w2 = x1*w1 + x2*w2 (data -6.0000, grad 0.5000); "
        "b (data 6.8814, grad 0.5000); n = x1*w1 + x2*w2 + b (data 0.8814, grad 0.5000); "
        "o = tanh(n) (data 0.7071, grad 1.0000)."
    )


def test_the_text_alternative_follows_the_graph_and_the_options() -> None:
    x = Value(-1.25, label="x")
    y = x.relu() * 2
    assert comment_of(draw_dot(y, show_grad=False).source) == (
        "A graph of 4 values: x (data -1.2500); the result of ReLU = ReLU(x) (data 0.0000); "
        "the constant 2.0000 (data 2.0000); the result of * = the result of ReLU * "
        "the constant 2.0000 (data 0.0000)."
    )
    chain = Value(0.0, label="x0")
    for _ in range(5):
        chain = chain + 1
    summary = comment_of(draw_dot(chain, max_nodes=3).source)
    assert summary.startswith("A graph of 11 values, the 3 nearest the output drawn: ")
    assert summary.count("(data ") == 3


def test_draw_mlp_names_every_neuron_with_its_bias_and_weights() -> None:
    random.seed(1337)
    model = MLP(2, [2, 1])
    first = model.layers[0].neurons[0]
    description = comment_of(draw_mlp(model, inputs=["x", "y"]).source)
    assert description.startswith("A network. Inputs: x, y. Layer hidden 1 (2, relu): neuron 1 ")
    assert (
        f"neuron 1 with bias 0.0000 and weights {first.w[0].data:.4f}, {first.w[1].data:.4f}; "
        in description
    )
    assert description.endswith(". Outputs: out.")
    assert description.count("with bias") == 3


def test_a_drawings_text_alternative_reaches_its_svg(
    dot_program: str, neuron: NeuronBuilder
) -> None:
    svg = render_svg(draw_dot(neuron(backward=True).o))
    assert "<!-- A graph of 10 values: x1 (data 2.0000, grad &#45;1.5000);" in svg
