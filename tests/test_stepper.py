"""Tests for micrograd.stepper: the backward pass drawn one node at a time."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from labelled_neuron import build_neuron

from micrograd import Value
from micrograd.draw import draw_dot, inline_svg, render_svg
from micrograd.engine import topological_order
from micrograd.stepper import MAX_STEPPER_NODES, BackwardStepper, backward_frames


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


@pytest.mark.parametrize("build", GRAPHS)
def test_there_is_a_frame_per_node_plus_before_seed_and_done(build: Callable[[], Value]) -> None:
    root = build()
    frames = backward_frames(root)
    assert len(frames) == len(topological_order(root)) + 3
    assert frames[0].caption == "Before backward(): every grad is 0."
    assert frames[0].node is None
    assert frames[1].node is root
    assert frames[-1].node is None
    assert frames[-1].caption.startswith("Done:")


@pytest.mark.parametrize("build", GRAPHS)
def test_nodes_are_visited_in_the_engines_reverse_topological_order(
    build: Callable[[], Value],
) -> None:
    root = build()
    order = topological_order(root)
    frames = backward_frames(root)
    assert [frame.node for frame in frames[2:-1]] == list(reversed(order))


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
    for frame, node in zip(frames[2:-1], reversed(order), strict=True):
        if node._rule is not None:
            node._rule(node)
        assert grads_in(frame.dot.source) == shown(), frame.caption


def test_the_node_at_work_is_highlighted_and_its_inputs_outlined() -> None:
    root = worked_example()
    order = topological_order(root)
    frames = backward_frames(root)
    d = next(node for node in order if node.label == "d")
    frame = next(f for f in frames if f.node is d)
    i = order.index(d)
    source = frame.dot.source
    assert f'n{i} [fillcolor="#ffd33d" penwidth=2.5]' in source
    assert f'n{i}_op [fillcolor="#ffd33d" penwidth=2.5]' in source
    for child in d._prev:
        j = order.index(child)
        assert f'n{j} [color="#bc4c00" fillcolor="#fff1e5" penwidth=2.5]' in source
    assert frame.caption == (
        "d = e + c: its rule (+) adds to e.grad (0.0000 \u2192 -2.0000) "
        "and c.grad (0.0000 \u2192 -2.0000)."
    )
    assert "#ffd33d" not in frames[0].dot.source
    assert "#ffd33d" not in frames[-1].dot.source


def test_a_repeated_input_is_named_once_with_its_whole_share() -> None:
    a = Value(3.0, label="a")
    b = a * a
    b.label = "b"
    caption = backward_frames(b)[2].caption
    assert caption == "b = a * a: its rule (*) adds to a.grad (0.0000 \u2192 6.0000)."


def test_leaves_and_rule_less_nodes_pass_nothing_on() -> None:
    a, b = Value(1.0, label="a"), Value(2.0, label="b")
    c = Value(3.0, (a, b), label="c")  # children, but no operation and no rule
    captions = [frame.caption for frame in backward_frames(c)]
    assert captions[2] == (
        "c is a node without a backward rule: nothing to pass on; its grad, 1.0000, is final."
    )
    assert captions[3] == "b is a leaf: nothing to pass on; its grad, 0.0000, is final."


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
    assert html.count("<figure ") == total == html.count("<svg ")
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
