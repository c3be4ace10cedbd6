"""Tests for micrograd.viz.stepper: the backward pass drawn one rule at a time."""

from __future__ import annotations

import json
import re
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path

import pytest
from labelled_neuron import build_neuron

from micrograd import Value
from micrograd.engine import topological_order
from micrograd.viz.draw import draw_dot
from micrograd.viz.stepper import (
    MAX_STEPPER_NODES,
    BackwardStepper,
    Stepper,
    StepperPair,
    backward_frames,
    html_from_json,
)
from micrograd.viz.svg import inline_svg, render_svg

#: A frame's drawing in a stepper's HTML (the buttons' arrows are drawings too, of another class).
DRAWING = re.compile(r'<svg [^>]*class="micrograd-graph"')


def worked_example() -> Value:
    """The backward page's L = (a * b + c) * f."""
    a, b, c, f = (Value(v, label=n) for v, n in [(2.0, "a"), (-3.0, "b"), (10.0, "c"), (-2.0, "f")])
    e = a * b
    e.label = "e"
    d = e + c
    d.label = "d"
    L = d * f
    L.label = "L"
    return L


def neuron() -> Value:
    """The lecture's labelled neuron's output, before backward."""
    return build_neuron().o


def shared_input() -> Value:
    """q is used twice, a * a once: gradients arrive in several pieces."""
    a = Value(1.5, label="a")
    q = a * a
    q.label = "q"
    out = (q * Value(-2.0, label="k") + q).exp() / (2 - a) ** 2
    out.label = "out"
    return out


def every_operation() -> Value:
    a, b = Value(-1.2, label="a"), Value(0.7, label="b")
    out = (a - b).relu() + (a / b).tanh() * (b.log() - (-a).sigmoid()) + (b**-0.5).exp()
    out.label = "out"
    return out


GRAPHS: list[Callable[[], Value]] = [worked_example, neuron, shared_input, every_operation]


def grads_in(source: str) -> dict[str, str]:
    """Node name -> the grad its box shows, from DOT source."""
    return dict(re.findall(r'^\s*(n\d+) \[label="\{ .*? \| grad (\S+) \}"', source, flags=re.M))


def with_rules(root: Value) -> list[Value]:
    """The nodes of the graph that have a backward rule, in reverse topological order."""
    return [node for node in reversed(topological_order(root)) if node._rule is not None]


def breadth_first(root: Value) -> list[Value]:
    """The backward page's wrong order: nearest the output first."""
    order, seen, queue = [], {root}, deque([root])
    while queue:
        node = queue.popleft()
        order.append(node)
        for child in node._prev:
            if child not in seen:
                seen.add(child)
                queue.append(child)
    return order


def q_used_twice() -> Value:
    """The backward page's example of the wrong order: L = q + q * c with q = a * b."""
    a, b, c = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c")
    q = a * b
    q.label = "q"
    r = q * c
    r.label = "r"
    L = q + r
    L.label = "L"
    return L


@pytest.mark.parametrize("build", GRAPHS)
def test_there_is_a_frame_per_rule_plus_before_seed_and_done(build: Callable[[], Value]) -> None:
    root = build()
    frames = backward_frames(root)
    assert len(frames) == len(with_rules(root)) + 3
    assert frames[0].caption == "Before backward(): every grad is 0."
    assert frames[0].node is None
    assert frames[1].node is root
    assert frames[-1].node is None
    assert frames[-1].caption.startswith("Done:")


@pytest.mark.parametrize("build", GRAPHS)
def test_leaves_get_no_frame_of_their_own(build: Callable[[], Value]) -> None:
    frames = backward_frames(build())
    assert all(frame.node is None or frame.node._prev for frame in frames)
    assert not any(" is a leaf: nothing to pass on" in frame.caption for frame in frames)


@pytest.mark.parametrize("build", GRAPHS)
def test_rules_run_in_the_engines_reverse_topological_order(build: Callable[[], Value]) -> None:
    root = build()
    frames = backward_frames(root)
    assert [frame.node for frame in frames[2:-1]] == with_rules(root)
    names = {node: f"n{i}" for i, node in enumerate(topological_order(root))}
    assert [frame.name for frame in frames[1:-1]] == [names[f.node] for f in frames[1:-1]]


@pytest.mark.parametrize("build", GRAPHS)
def test_last_frame_is_the_drawing_after_backward(build: Callable[[], Value]) -> None:
    stepped = build()
    frames = backward_frames(stepped)
    reference = build()
    reference.backward()
    assert frames[-1].dot.source == draw_dot(reference).source
    assert [n.grad for n in topological_order(stepped)] == [
        n.grad for n in topological_order(reference)
    ]


@pytest.mark.parametrize("build", GRAPHS)
def test_each_frame_shows_the_gradients_received_so_far(build: Callable[[], Value]) -> None:
    root = build()
    frames = backward_frames(root)
    # The same pass by hand on a copy: seed, then one rule at a time.
    copy = build()
    order = topological_order(copy)
    names = {node: f"n{i}" for i, node in enumerate(order)}

    def shown() -> dict[str, str]:
        return {names[node]: f"{node.grad:.4f}" for node in order}

    assert grads_in(frames[0].dot.source) == shown()
    copy.grad = 1.0
    assert grads_in(frames[1].dot.source) == shown()
    for frame, node in zip(frames[2:-1], with_rules(copy), strict=True):
        node._backward()
        assert grads_in(frame.dot.source) == shown(), frame.caption


def test_the_node_at_work_is_highlighted_and_its_inputs_outlined() -> None:
    root = worked_example()
    order = topological_order(root)
    frames = backward_frames(root)
    d = next(node for node in order if node.label == "d")
    frame = next(f for f in frames if f.node is d)
    i = order.index(d)
    source = frame.dot.source
    assert f'n{i} [class="mg-active" fillcolor="#ffd33d" penwidth=2.5]' in source
    assert f'n{i}_op [class="mg-active" fillcolor="#ffd33d" penwidth=2.5]' in source
    for child in d._prev:
        j = order.index(child)
        assert (
            f'n{j} [class="mg-receiving" color="#bc4c00" fillcolor="#fff1e5" penwidth=2.5]'
            in source
        )
    assert frame.caption == (
        "d = e + c: its rule (+) adds to e.grad (0.0000 \u2192 -2.0000) "
        "and c.grad (0.0000 \u2192 -2.0000); c is a leaf: its grad is final."
    )
    assert "#ffd33d" not in frames[0].dot.source
    assert "#ffd33d" not in frames[-1].dot.source


def test_a_repeated_input_is_named_once_with_its_whole_share() -> None:
    a = Value(3.0, label="a")
    b = a * a
    b.label = "b"
    caption = backward_frames(b)[2].caption
    assert caption == (
        "b = a * a: its rule (*) adds to a.grad (0.0000 \u2192 6.0000); "
        "a is a leaf: its grad is final."
    )


def test_each_rule_shows_its_arithmetic_for_each_input_with_the_steps_numbers() -> None:
    """The local derivative in the rule's terms, times the node's grad, and their product."""
    frames = backward_frames(neuron())
    by_node = {f.node.label: f for f in frames[2:-1] if f.node is not None}
    assert by_node["x2*w2"].sums == (
        "x2.grad += w2.data \u00d7 (x2*w2).grad = 1.0000 \u00d7 0.5000 = 0.5000",
        "w2.grad += x2.data \u00d7 (x2*w2).grad = 0.0000 \u00d7 0.5000 = 0.0000",
    )
    assert by_node["o"].sums == (
        "n.grad += (1 - o.data\u00b2) \u00d7 o.grad = 0.5000 \u00d7 1.0000 = 0.5000",
    )
    assert by_node["n"].sums == (
        "(x1*w1 + x2*w2).grad += 1 \u00d7 n.grad = 1.0000 \u00d7 0.5000 = 0.5000",
        "b.grad += 1 \u00d7 n.grad = 1.0000 \u00d7 0.5000 = 0.5000",
    )
    # No rule ran before the first rule's frame or in the last: no arithmetic.
    assert frames[0].sums == frames[1].sums == frames[-1].sums == ()


@pytest.mark.parametrize("build", GRAPHS)
def test_the_arithmetic_adds_what_the_rule_added(build: Callable[[], Value]) -> None:
    """Each line's product is the change the caption reports for that input, and its
    factors are the step's local derivative and the node's grad, as the page's data has them."""
    for frame in backward_frames(build()):
        if frame.step is None:
            assert frame.sums == ()
            continue
        assert len(frame.sums) == len(frame.step.inputs)
        for line, share in zip(frame.sums, frame.step.inputs, strict=True):
            said = re.fullmatch(
                r"(.+)\.grad \+= .+ \u00d7 .+ = (\S+) \u00d7 (\S+) = (\S+?)"
                r"(?:, added to (\S+): (\S+))?",
                line,
            )
            assert said is not None, line
            name, local, grad, added, before, now = said.groups()
            assert name.strip("()") == share.name
            assert float(local) == pytest.approx(share.local, abs=5e-5)
            assert float(grad) == pytest.approx(frame.step.grad, abs=5e-5)
            assert float(added) == pytest.approx(share.after - share.before, abs=1e-4)
            # A grad that held something says what it holds now, the amount added apart.
            if share.before == 0:
                assert before is None, line
            else:
                assert float(before) == pytest.approx(share.before, abs=5e-5), line
                assert float(now) == pytest.approx(share.after, abs=5e-5), line


def test_a_rule_adding_to_a_grad_that_held_something_says_its_new_total() -> None:
    """q.grad += c.data × r.grad = 10 × 1 = 10 beside q.grad 1 -> 11 read as q.grad = 10."""
    a, b, c = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c")
    q = a * b
    q.label = "q"
    r = q * c
    r.label = "r"
    out = r + q
    out.label = "L"
    by_node = {f.node.label: f for f in backward_frames(out) if f.step is not None}
    assert by_node["r"].sums[0] == (
        "q.grad += c.data \u00d7 r.grad = 10.0000 \u00d7 1.0000 = 10.0000, added to 1.0000: 11.0000"
    )


def test_the_arithmetic_names_each_operations_local_derivative() -> None:
    a, b = Value(3.0, label="a"), Value(2.0, label="b")
    cases = {
        a * a: ["a.grad += 2\u00b7a.data \u00d7 "],
        a - b: ["a.grad += 1 \u00d7 ", "b.grad += -1 \u00d7 "],
        -a: ["a.grad += -1 \u00d7 "],
        a.exp(): ["a.grad += out.data \u00d7 "],
        a / b: ["a.grad += dout/da \u00d7 ", "b.grad += dout/db \u00d7 "],
        a.relu(): ["a.grad += dout/da \u00d7 "],
    }
    for out, starts in cases.items():
        out.label = "out"
        for x in (a, b):
            x.grad = 0.0
        sums = backward_frames(out)[2].sums
        assert [line[: len(start)] for line, start in zip(sums, starts, strict=True)] == starts


def test_the_arithmetic_is_in_the_data_and_in_every_caption_of_the_html(dot_program: str) -> None:
    stepper = BackwardStepper(neuron())
    data = stepper.to_json()
    assert [f["sums"] for f in data["frames"]] == [list(f.sums) for f in stepper.frames]
    html = stepper.to_html()
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", html)
    for frame, caption in zip(stepper.frames, captions, strict=True):
        lines = re.findall(r'<span class="mg-stepper-sum">(.*?)</span>', caption)
        assert lines == list(frame.sums)
    pair = wrong_order_pair()
    side_captions = re.findall(
        r"<figcaption><span class=\"mg-stepper-title\">(.*?)</figcaption>", pair.to_html()
    )
    sides = [side for frame in pair.to_json()["frames"] for side in frame["sides"]]
    assert len(side_captions) == len(sides)
    for side, caption in zip(sides, side_captions, strict=True):
        assert re.findall(r'<span class="mg-stepper-sum">(.*?)</span>', caption) == side["sums"]
    assert any(side["sums"] for side in sides)


def test_a_leaf_is_final_only_after_the_last_rule_that_feeds_it() -> None:
    a = Value(1.5, label="a")
    q = a * a
    q.label = "q"
    out = q + a  # a gets a share from out's rule first, then from q's
    out.label = "out"
    captions = [frame.caption for frame in backward_frames(out)]
    assert captions[2] == (
        "out = q + a: its rule (+) adds to q.grad (0.0000 \u2192 1.0000) "
        "and a.grad (0.0000 \u2192 1.0000)."
    )
    assert captions[3] == (
        "q = a * a: its rule (*) adds to a.grad (1.0000 \u2192 4.0000); "
        "a is a leaf: its grad is final."
    )


def test_a_node_without_a_rule_keeps_its_frame() -> None:
    a, b = Value(1.0, label="a"), Value(2.0, label="b")
    c = Value(3.0, (a, b), label="c")  # children, but no operation and no rule
    captions = [frame.caption for frame in backward_frames(c)]
    assert captions[2] == (
        "c is a node without a backward rule: nothing to pass on; its grad, 1.0000, is final."
    )
    assert len(captions) == 4


def test_gradients_accumulate_like_backward_and_the_first_caption_says_so() -> None:
    root = worked_example()
    root.backward()
    frames = backward_frames(root)
    assert frames[0].caption == "Before backward(): the grads it holds."
    twice = worked_example()
    twice.backward()
    twice.backward()
    assert frames[-1].dot.source == draw_dot(twice).source


def test_unlabelled_nodes_get_a_descriptive_name() -> None:
    a = Value(2.0, label="a")
    out = (a * 3).tanh()
    captions = [frame.caption for frame in backward_frames(out)]
    assert captions[1].startswith("backward() sets (the result of tanh).grad = 1, then")
    assert captions[2].startswith("the result of tanh = tanh(the result of *): its rule (tanh)")


# -- another order ------------------------------------------------------------------------


def test_the_wrong_order_runs_q_before_r_and_leaves_a_and_b_short() -> None:
    root = q_used_twice()
    frames = backward_frames(root, order=breadth_first(root))
    assert [frame.node.label for frame in frames[1:-1]] == ["L", "L", "q", "r"]  # type: ignore[union-attr]
    assert frames[1].caption == "L.grad is set to 1, then the rules run in another order: L, q, r."
    assert frames[-1].caption.startswith("Done: every rule has run, in the order given")
    grads = {node.label: node.grad for node in topological_order(root)}
    assert (grads["a"], grads["b"], grads["q"]) == (-3.0, 2.0, 11.0)
    right = q_used_twice()
    right.backward()
    assert {n.label: n.grad for n in topological_order(right)}["a"] == -33.0


def test_the_wrong_order_says_which_grads_end_wrong_and_what_backward_gives() -> None:
    root = q_used_twice()
    frames = backward_frames(root, order=breadth_first(root))
    finishing_a_and_b = next(f for f in frames if f.node is not None and f.node.label == "q")
    assert finishing_a_and_b.caption.endswith(
        "a and b are leaves: their grads are final, and wrong: -3.0000 and 2.0000, "
        "where backward() gives -33.0000 and 22.0000."
    )
    assert frames[-1].caption == (
        "Done: every rule has run, in the order given. a.grad and b.grad end wrong: "
        "-3.0000 and 2.0000, where backward() gives -33.0000 and 22.0000."
    )
    # Judging the order ran backward() on the side: the graph holds what the order left.
    assert {n.label: n.grad for n in topological_order(root)}["a"] == -3.0


def test_the_wrong_order_says_when_a_share_arrives_after_its_nodes_rule_ran() -> None:
    root = q_used_twice()
    frames = backward_frames(root, order=breadth_first(root))
    r_step = next(f for f in frames if f.node is not None and f.node.label == "r")
    assert r_step.caption.endswith(
        "; q's rule ran at an earlier step: this share never reaches its inputs."
    )
    right = backward_frames(q_used_twice())
    assert not any("earlier step" in frame.caption for frame in right)


def test_another_order_that_is_topological_ends_with_backwards_grads() -> None:
    root = worked_example()
    frames = backward_frames(root, order=list(reversed(topological_order(root))))
    assert frames[-1].caption == (
        "Done: every rule has run, in the order given; the grads are those L.backward() leaves."
    )
    assert ", and wrong:" not in " ".join(frame.caption for frame in frames)


def test_a_node_labelled_with_its_own_formula_is_named_once() -> None:
    x1, w1, c = Value(2.0, label="x1"), Value(-3.0, label="w1"), Value(1.0, label="c")
    product = x1 * w1
    product.label = "x1*w1"
    total = product + c
    total.label = "x1*w1 + c"
    captions = [frame.caption for frame in backward_frames(total)]
    assert captions[2].startswith("x1*w1 + c: its rule (+) adds to (x1*w1).grad")
    assert captions[3].startswith("x1*w1 = x1 * w1: its rule (*)")
    assert captions[-1] == "Done: every grad is filled in, as (x1*w1 + c).backward() leaves it."


def test_the_engines_order_given_explicitly_gives_the_same_frames() -> None:
    root = worked_example()
    given = backward_frames(root, order=list(reversed(topological_order(root))))
    default = backward_frames(worked_example())
    assert [f.dot.source for f in given[1:]] == [f.dot.source for f in default[1:]]


@pytest.mark.parametrize(
    ("order", "error", "message"),
    [
        ("abc", TypeError, "order must be a list of Values"),
        ([1.0], TypeError, "order must hold Values; item 0 is float"),
        ([Value(1.0, label="stranger")], ValueError, r"item 0 \(stranger\) is not a node"),
    ],
)
def test_a_bad_order_is_refused(order: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        backward_frames(worked_example(), order=order)  # type: ignore[arg-type]


def test_an_order_that_names_a_node_twice_is_refused() -> None:
    root = worked_example()
    with pytest.raises(ValueError, match="order names L twice"):
        backward_frames(root, order=[root, root])
    assert root.grad == 0.0  # refused before anything ran


def test_bad_input_is_refused() -> None:
    with pytest.raises(TypeError, match="backward_frames needs a Value"):
        backward_frames(3.0)  # type: ignore[arg-type]
    x = Value(1.0)
    for _ in range(MAX_STEPPER_NODES):
        x = x + 1
    with pytest.raises(ValueError, match=f"a stepper draws at most {MAX_STEPPER_NODES}"):
        backward_frames(x)
    assert x.grad == 0.0  # refused before anything ran
    with pytest.raises(ValueError, match="rankdir must be one of"):
        backward_frames(worked_example(), rankdir="diagonal")


# -- the HTML ---------------------------------------------------------------------------


def test_html_has_hidden_controls_and_one_captioned_figure_per_frame(dot_program: str) -> None:
    stepper = BackwardStepper(worked_example())
    html = stepper.to_html()
    total = len(stepper.frames)
    assert html.startswith('<div class="mg-stepper" id="mg-step-')
    assert f'data-frames="{total}"' in html
    assert 'aria-label="backward() on L, step by step"' in html
    assert '<div class="mg-stepper-controls" hidden="">' in html  # shown by the page's script
    assert html.count('<button type="button"') == 2
    assert html.count("<figure ") == total == len(DRAWING.findall(html))
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", html)
    assert captions[0] == (
        f'<span class="mg-stepper-number">Step 1 of {total}:</span> '
        "Before backward(): every grad is 0."
    )
    assert captions[-1].startswith(f'<span class="mg-stepper-number">Step {total} of {total}:')
    assert 'aria-live="polite"' in html
    labels = re.findall(r'<svg [^>]*aria-label="([^"]*)"', html)
    assert labels[0] == f"Step 1 of {total}: Before backward(): every grad is 0."
    ids = re.findall(r' id="([^"]+)"', html)
    assert len(ids) == len(set(ids)), "ids repeat between frames"
    assert stepper._repr_html_() == html
    assert repr(stepper) == f"<BackwardStepper: {total} frames>"


def test_the_buttons_are_named_by_their_words_and_their_arrows_are_drawings(
    dot_program: str,
) -> None:
    """A font glyph (a triangle) shows as an empty box where the font lacks it."""
    html = BackwardStepper(worked_example()).to_html()
    buttons = re.findall(r'<button type="button" class="mg-stepper-(\w+)">(.*?)</button>', html)
    words = [(kind, re.sub(r"<svg .*?</svg>", "", inner).strip()) for kind, inner in buttons]
    assert words == [("prev", "Previous"), ("next", "Next")]
    for _, inner in buttons:
        assert re.search(r'<svg class="mg-stepper-icon" [^>]*aria-hidden="true"', inner)
        assert all(ord(character) < 128 for character in inner), inner


def test_html_is_identical_for_the_same_graph(dot_program: str) -> None:
    assert BackwardStepper(neuron()).to_html() == BackwardStepper(neuron()).to_html()


def test_html_last_frame_is_byte_for_byte_the_inline_drawing_after_backward(
    dot_program: str,
) -> None:
    html = BackwardStepper(neuron()).to_html()
    last = html.split("<figure ")[-1]
    uid = re.search(r'id="(mg-step-\w+)"', html)
    assert uid is not None
    total = html.count("<figure ")
    reference = neuron()
    reference.backward()
    label = f"Step {total} of {total}: Done: every grad is filled in, as o.backward() leaves it."
    expected = inline_svg(
        render_svg(draw_dot(reference)), id_prefix=f"{uid.group(1)}-{total - 1}-", label=label
    )
    assert expected in last


def test_stepper_label_can_be_chosen(dot_program: str) -> None:
    html = BackwardStepper(worked_example(), label='the "worked" example').to_html()
    assert 'aria-label="the &quot;worked&quot; example"' in html


def test_every_frame_has_a_text_alternative_naming_each_node_with_data_and_grad(
    dot_program: str,
) -> None:
    html = BackwardStepper(worked_example()).to_html()
    descriptions = re.findall(r"<desc>(.*?)</desc>", html)
    assert len(descriptions) == html.count("<figure ")
    assert descriptions[0].startswith("A graph of 7 values: a (data 2.0000, grad 0.0000); ")
    assert descriptions[-1].endswith("L = d * f (data -8.0000, grad 1.0000).")
    assert "a (data 2.0000, grad 6.0000)" in descriptions[-1]


def test_the_node_at_work_carries_a_class_the_page_can_find(dot_program: str) -> None:
    html = BackwardStepper(worked_example()).to_html()
    frames = html.split("<figure ")[1:]
    assert 'class="node mg-active"' not in frames[0]
    for frame in frames[1:-1]:
        assert 'class="node mg-active"' in frame
    assert 'class="node mg-receiving"' in frames[2]


# -- two orders side by side ------------------------------------------------------------------


def wrong_order_pair() -> StepperPair:
    wrong = q_used_twice()
    return StepperPair(
        BackwardStepper(q_used_twice()),
        BackwardStepper(wrong, order=breadth_first(wrong)),
        titles=("backward()", "breadth first"),
    )


def test_a_pair_says_where_the_two_orders_part() -> None:
    pair = wrong_order_pair()
    assert pair.part == 3  # before, seed, L's rule: the same; then r against q
    data = pair.to_json()
    notes = [frame["note"] for frame in data["frames"]]
    assert notes[3] == "Here the orders part: backward() runs r's rule, breadth first runs q's."
    assert [note for k, note in enumerate(notes) if k != 3] == [""] * 5
    assert data["titles"] == ["backward()", "breadth first"]
    assert repr(pair) == "<StepperPair: 6 frames>"


def test_a_pair_ends_on_the_right_and_the_wrong_gradients(dot_program: str) -> None:
    html = wrong_order_pair().to_html()
    last = html.split('<figure class="mg-stepper-frame"')[-1]
    right, wrong = last.split('<figure class="mg-stepper-side">')[1:]
    assert "a (data 2.0000, grad -33.0000); b (data -3.0000, grad 22.0000)" in right
    assert "a (data 2.0000, grad -3.0000); b (data -3.0000, grad 2.0000)" in wrong
    assert html.count('data-part="true"') == 1
    assert html.count('<div class="mg-stepper-controls" hidden="">') == 1
    assert len(DRAWING.findall(html)) == 2 * 6


def test_a_pair_has_a_hidden_switch_with_a_button_per_side_the_first_pressed(
    dot_program: str,
) -> None:
    html = wrong_order_pair().to_html()
    controls = html.split('<div class="mg-stepper-controls" hidden="">')[1].split("</div>")[0]
    assert '<span class="mg-stepper-switch" role="group" aria-label="Show" hidden="">' in controls
    buttons = re.findall(
        r'<button type="button" class="mg-stepper-show" ([^>]*)>([^<]*)</button>', controls
    )
    assert buttons == [
        ('data-side="0" aria-pressed="true"', "backward()"),
        ('data-side="1" aria-pressed="false"', "breadth first"),
    ]
    assert "mg-stepper-switch" not in BackwardStepper(worked_example()).to_html()


#: A box's least width in a DOT source: ``name [width=1.2345]``.
BOX_WIDTH = re.compile(r"^\s*(\w+) \[width=([\d.]+)\]$", re.MULTILINE)


def test_a_pairs_two_sides_of_one_graph_give_each_box_one_width_in_every_frame() -> None:
    """The same graph in two orders: each box as wide in every frame of both sides (the
    widest its grad gets on either), so that both sides share one layout; the steppers'
    own frames are left as they were."""
    pair = wrong_order_pair()
    own = [frame.dot.source for frame in pair.left.frames + pair.right.frames]
    sides = [side["dot"] for frame in pair.to_json()["frames"] for side in frame["sides"]]
    widths = [dict(BOX_WIDTH.findall(dot)) for dot in sides]
    assert widths[0], "no box is given a width"
    assert all(found == widths[0] for found in widths), widths
    # a's grad is -33.0000 on the left, -3.0000 on the right: the wider one's width
    assert [frame.dot.source for frame in pair.left.frames + pair.right.frames] == own


def test_a_pair_of_two_graphs_keeps_each_sides_own_layout() -> None:
    short = BackwardStepper(Value(1.0, label="x") * 2)
    long = BackwardStepper(worked_example())
    data = StepperPair(short, long).to_json()
    titled = long.frames[0].dot.copy()
    titled.attr(label="right", labelloc="t", fontcolor="#1f2328", fontsize="14")
    assert data["frames"][0]["sides"][1]["dot"] == titled.source  # its title added, only


def test_each_side_of_a_pair_is_drawn_under_its_title() -> None:
    pair = StepperPair(BackwardStepper(worked_example()), BackwardStepper(worked_example()))
    svg = pair._repr_html_()
    for k, frame in enumerate(pair.to_json()["frames"]):
        for title, side in zip(("left", "right"), frame["sides"], strict=True):
            assert f"label={title} labelloc=t" in side["dot"], k
    assert svg.count(">right</text>") == len(pair.to_json()["frames"])


def test_a_pair_of_unequal_length_keeps_the_shorter_ones_last_frame() -> None:
    short = BackwardStepper(Value(1.0, label="x") * 2)
    long = BackwardStepper(worked_example())
    data = StepperPair(short, long).to_json()
    assert len(data["frames"]) == len(long.frames)
    assert data["frames"][-1]["sides"][0] == data["frames"][len(short.frames) - 1]["sides"][0]


def test_a_pair_refuses_what_is_not_a_stepper() -> None:
    with pytest.raises(TypeError, match="right must be a BackwardStepper"):
        StepperPair(BackwardStepper(worked_example()), "no")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="titles must be two strings"):
        StepperPair(BackwardStepper(worked_example()), BackwardStepper(neuron()), titles=("a",))  # type: ignore[arg-type]


# -- the stepper as data -------------------------------------------------------------------------


@pytest.mark.parametrize("make", [lambda: BackwardStepper(neuron()), wrong_order_pair])
def test_a_stepper_is_plain_data_and_displays_itself_only_as_html(
    make: Callable[[], BackwardStepper | StepperPair],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    stepper = make()
    assert isinstance(stepper, Stepper)
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot, no graphviz-pure
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    with pytest.raises(RuntimeError, match="pip install graphviz-pure"):
        stepper._repr_html_()
    data = stepper.to_json()  # the data needs no dot program
    assert json.loads(json.dumps(data)) == data  # JSON-ready: nothing but dicts, lists, text
    frames = data["frames"]
    sides = [side for frame in frames for side in frame.get("sides", [frame])]
    assert all(side["dot"].startswith("digraph") for side in sides)
    assert all(isinstance(side["caption"], str) and side["caption"] for side in sides)
    display = {name for name in dir(stepper) if name.startswith("_repr_")}
    assert display == {"_repr_html_"}


@pytest.mark.parametrize("make", [lambda: BackwardStepper(neuron()), wrong_order_pair])
def test_html_from_json_assembles_the_same_html_from_the_same_data(
    make: Callable[[], BackwardStepper | StepperPair], dot_program: str
) -> None:
    stepper = make()
    data = json.loads(json.dumps(stepper.to_json()))  # as the page gets it
    dots = [side["dot"] for f in data["frames"] for side in f.get("sides", [f])]
    svgs = [render_svg(type("G", (), {"source": dot})()) for dot in dots]
    assert html_from_json(json.dumps(data), svgs) == stepper.to_html()
    assert stepper._repr_html_() == stepper.to_html()


def test_html_from_json_needs_one_svg_per_drawing() -> None:
    data = BackwardStepper(worked_example()).to_json()
    with pytest.raises(ValueError, match="the stepper has 6 drawings, got 0 SVGs"):
        html_from_json(data, [])
    with pytest.raises(TypeError, match="data must be a stepper's to_json"):
        html_from_json([], [])  # type: ignore[arg-type]
