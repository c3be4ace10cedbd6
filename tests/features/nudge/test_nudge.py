"""Nudge: an input moved, the forward pass again, and the gradient's prediction beside it.

``book_runtime.features.nudge.runtime`` computes every number the page's Nudge control shows; these
tests check them on the book's neuron and on small graphs of every operation.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from book_runtime.features.nudge.runtime import OPERATIONS, Nudge, gradients, replay, state

from micrograd.engine import Value, new_node, topological_order

B = 6.8813735870195432


def neuron() -> tuple[Value, dict[str, Value]]:
    """The book's worked neuron, after backward(): o = 0.7071, w1.grad = 1.0."""
    x1, w1 = Value(2.0, label="x1"), Value(-3.0, label="w1")
    x2, w2 = Value(0.0, label="x2"), Value(1.0, label="w2")
    b = Value(B, label="b")
    o = (x1 * w1 + x2 * w2 + b).tanh()
    o.backward()
    return o, {"x1": x1, "w1": w1, "x2": x2, "w2": w2, "b": b}


def every_operation() -> Value:
    """One graph that uses each of micrograd's operations, on two named leaves."""
    a, b = Value(0.7, label="a"), Value(1.3, label="b")
    mixed = (a * b + a / b - b).tanh() + (-a).exp() + b.log() + a.relu() + b.sigmoid()
    return mixed + a**2 + b**0.5


def test_a_small_nudge_of_w1_moves_o_by_the_gradient_times_the_nudge() -> None:
    o, leaves = neuron()
    reply = Nudge(o).set("w1", -3.0 + 0.001)
    assert reply.grad == pytest.approx(leaves["x1"].data * (1 - 0.7071067811865476**2))
    assert reply.predicted == pytest.approx(reply.grad * 0.001)
    assert abs(reply.delta_out - reply.predicted) < 1e-4
    assert reply.why.startswith("The gradient's prediction and the measured change agree")


def test_a_nudge_of_one_parts_the_prediction_and_the_change_and_says_tanh_curves() -> None:
    o, _ = neuron()
    reply = Nudge(o).set("w1", -2.0)
    assert abs(reply.difference) > 0.1
    assert reply.difference == pytest.approx(reply.delta_out - reply.predicted)
    assert "(tanh curves)" in reply.why
    assert "w1's gradient from 1.0000 to" in reply.why


def test_the_second_order_estimate_in_the_sentence_is_near_the_difference() -> None:
    o, _ = neuron()
    reply = Nudge(o).set("w1", -3.0 + 0.1)
    arithmetic = reply.why.split("(tanh curves), w1's gradient from 1.0000 to ")[1]
    assert arithmetic.split(". ")[1].startswith("½ × (0.7401 − 1.0000) × 0.1000 = ")
    estimate = float(arithmetic.split(" = ")[1].split(" ")[0].replace("−", "-"))
    assert estimate == pytest.approx(0.5 * (0.7401 - 1.0) * 0.1, abs=1e-4)
    assert estimate == pytest.approx(reply.difference, rel=0.05)
    assert "is about what the straight line misses: the second-order term." in reply.why


def test_a_nudge_too_large_for_the_second_order_term_says_so_not_about() -> None:
    o, _ = neuron()
    reply = Nudge(o).set("w1", -2.0)
    assert "is about" not in reply.why
    assert f"is the second-order term's share of the −{abs(reply.difference):.4f}" in reply.why
    assert "− 1.0000) × 1.0000 = " in reply.why


def test_a_negative_number_after_a_minus_is_bracketed_with_a_true_minus_sign() -> None:
    o, _ = neuron()
    reply = Nudge(o).set("x1", 2.1)
    assert "− (−1.5000)) × 0.1000" in reply.why
    assert "-" not in reply.why.replace("second-order", "")


def test_a_graph_straight_in_the_nudged_input_is_predicted_exactly_at_any_size() -> None:
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    c = a * b + b**2
    reply = Nudge(c).set("a", 5.0)
    assert reply.difference == pytest.approx(0.0)
    assert reply.why == (
        "The prediction is exact: no operation between a and the output bends, so the output "
        "changes in a straight line as a moves, for a nudge of any size."
    )


def test_an_exact_prediction_names_the_inputs_moved_in_plain_words() -> None:
    a, b, c = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c")
    nudge = Nudge(a + b + c)
    nudge.set("a", 2.5)
    reply = nudge.set("c", 9.0)
    assert "a straight line as a and c move, for a nudge of any size" in reply.why
    assert "in them" not in reply.why


def test_the_forward_pass_again_is_the_engines_and_the_gradients_are_backwards() -> None:
    o, leaves = neuron()
    nudge = Nudge(o)
    nudge.set("x2", 0.5)
    fresh = (leaves["x1"] * leaves["w1"] + Value(0.5) * leaves["w2"] + leaves["b"]).tanh()
    assert o.data == fresh.data
    assert gradients(o)[leaves["w2"]] == pytest.approx(0.5 * (1 - fresh.data**2))


def test_gradients_come_from_a_copy_and_leave_the_pages_grads_as_they_were() -> None:
    o, _ = neuron()
    before = {node: node.grad for node in topological_order(o)}
    gradients(o)
    assert {node: node.grad for node in topological_order(o)} == before


def test_nudged_gradients_stay_those_of_the_point_left_until_backward_runs_again() -> None:
    o, leaves = neuron()
    nudge = Nudge(o)
    nudge.set("w1", -2.0)
    assert leaves["w1"].grad == pytest.approx(1.0)
    assert nudge.set("w1", -2.5).grad == pytest.approx(1.0)
    nudge.backward_again()
    assert leaves["w1"].grad == pytest.approx(2.0 * (1 - o.data**2))
    assert nudge.set("w1", leaves["w1"].data).delta_out == 0.0


def test_taking_the_step_moves_the_input_against_the_gradient_and_o_falls() -> None:
    o, _ = neuron()
    reply = Nudge(o).step("w1", learning_rate=0.1)
    assert reply.value == pytest.approx(-3.0 - 0.1 * 1.0)
    assert reply.delta_out < 0


def test_reset_gives_back_the_built_data_and_gradients() -> None:
    o, leaves = neuron()
    nudge = Nudge(o)
    nudge.set("b", 0.0)
    nudge.backward_again()
    nudge.reset()
    assert o.data == pytest.approx(0.7071067811865476)
    assert [leaves[n].grad for n in ("x1", "w1", "x2", "w2")] == pytest.approx(
        [-1.5, 1.0, 0.5, 0.0]
    )


def test_a_nudge_of_two_inputs_predicts_with_both_gradients() -> None:
    o, _ = neuron()
    nudge = Nudge(o)
    nudge.set("w1", -3.0 + 0.001)
    reply = nudge.set("x1", 2.0 + 0.002)
    assert reply.predicted == pytest.approx(1.0 * 0.001 + -1.5 * 0.002)
    assert abs(reply.difference) < 1e-4


def test_the_replayed_graph_has_every_nodes_data() -> None:
    root = every_operation()
    copies = replay(root)
    assert all(copies[node].data == node.data for node in topological_order(root))


def test_every_operation_of_the_engine_can_be_computed_again() -> None:
    ops = {node._op for node in topological_order(every_operation()) if node._prev}
    assert {op for op in ops if not op.startswith("**")} == set(OPERATIONS)


def test_a_product_bends_only_when_both_its_inputs_move_with_the_nudge() -> None:
    a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    c = a * b + b**2
    reply = Nudge(c).set("b", 4.0)
    assert "(**2 curves)" in reply.why
    d = a * a
    assert "(* curves)" in Nudge(d).set("a", -1.0).why


def test_a_product_of_two_inputs_moved_together_bends_and_is_not_called_exact() -> None:
    a, b, c = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c")
    d = a * b + c
    nudge = Nudge(d)
    assert nudge.set("a", 2.3).why.startswith("The prediction is exact")
    reply = nudge.set("b", -2.5)
    assert reply.difference == pytest.approx(0.3 * 0.5)
    assert "(* curves)" in reply.why
    assert "exact" not in reply.why


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("w9", 1.0, "no leaf named 'w9' to nudge (the graph's: x1, w1, x2, w2, b)"),
        ("w1", math.nan, "a nudge needs a finite number for w1, got nan"),
        ("w1", "2", "a nudge needs a finite number for w1, got '2'"),
    ],
)
def test_bad_nudges_say_what_was_wrong(name: str, value: object, message: str) -> None:
    o, _ = neuron()
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Nudge(o).set(name, value)  # type: ignore[arg-type]


def test_a_graph_nudge_cannot_compute_again_or_name_is_refused() -> None:
    x = Value(1.0, label="x")
    sin = new_node(math.sin(x.data), "sin", lambda out, a: None, x)
    with pytest.raises(ValueError, match="a 'sin' node cannot be computed again"):
        Nudge(sin)
    with pytest.raises(ValueError, match="no named leaf"):
        Nudge(Value(1.0) + 2)
    with pytest.raises(ValueError, match="two leaves share a name, x"):
        Nudge(Value(1.0, label="x") * Value(2.0, label="x"))


def test_the_kernel_answers_a_nudge_with_the_reply_and_the_graph_drawn_now(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from book_runtime import kernel
    from book_runtime.features.nudge import runtime as nudge

    o, leaves = neuron()
    monkeypatch.setattr(kernel, "NAMESPACE", {"o": o})
    monkeypatch.setattr(nudge, "NUDGES", {})
    set_w1 = json.loads(nudge.answer("set", json.dumps({"root": "o", "leaf": "w1", "value": -2.0})))
    assert set_w1["reply"]["leaf"] == "w1"
    assert set_w1["moved"] is True
    w1 = next(leaf for leaf in set_w1["leaves"] if leaf["name"] == "w1")
    assert w1 == {"name": "w1", "value": -2.0, "base": -3.0, "grad": pytest.approx(1.0)}
    assert set_w1["base_out"] == pytest.approx(0.7071067811865476)
    assert set_w1["out"] == o.data
    assert f"data {o.data:.4f}" in set_w1["dot"]
    backward = json.loads(nudge.answer("backward", json.dumps({"root": "o"})))
    assert (backward["moved"], backward["rebased"]) == (False, True)
    assert leaves["w1"].grad == pytest.approx(2.0 * (1 - o.data**2))
    reset = json.loads(nudge.answer("reset", json.dumps({"root": "o"})))
    assert (reset["moved"], reset["rebased"]) == (False, False)
    assert "data 0.7071" in reset["dot"]


def backward_example() -> tuple[Value, dict[str, Value]]:
    """The backward page's graph, L = (a * b + c) * f, its leaves in the page's order."""
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    c, f = Value(10.0, label="c"), Value(-2.0, label="f")
    return (a * b + c) * f, {"a": a, "b": b, "c": c, "f": f}


def test_the_kernel_replies_about_the_input_nudged_last_and_steps_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from book_runtime import kernel
    from book_runtime.features.nudge import runtime as nudge

    L, leaves = backward_example()
    monkeypatch.setattr(kernel, "NAMESPACE", {"L": L})
    monkeypatch.setattr(nudge, "NUDGES", {})

    def asked(question: str, **fields: object) -> dict[str, Any]:
        return dict(json.loads(nudge.answer(question, json.dumps({"root": "L", **fields}))))

    asked("set", leaf="c", value=10.01)
    # a comes before c among the leaves: the reply is still a's, the one the reader moved.
    nudged_a = asked("set", leaf="a", value=2.01)
    assert (nudged_a["reply"]["leaf"], nudged_a["reply"]["value"]) == ("a", 2.01)
    stepped = asked("step", leaf=nudged_a["reply"]["leaf"], rate=0.01)
    assert stepped["reply"]["leaf"] == "a"
    assert leaves["a"].data == pytest.approx(2.01 - 0.01 * (-3.0 * -2.0))
    assert leaves["c"].data == 10.01
    # Moved back to where it was, a is still the input the reader nudged last.
    assert asked("set", leaf="a", value=2.0)["reply"]["leaf"] == "a"


def test_a_restored_nudge_replies_about_the_input_nudged_last() -> None:
    L, _ = backward_example()
    nudge = Nudge(L)
    nudge.restore({"a": 2.0, "c": 10.0}, {"a": 2.01, "c": 10.01}, last="a")
    reply = nudge.reply()
    assert reply is not None
    assert reply.leaf == "a"


def test_a_graph_rebuilt_by_a_run_is_nudged_afresh_and_an_unknown_name_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from book_runtime import kernel
    from book_runtime.features.nudge import runtime as nudge

    first, _ = neuron()
    namespace = {"o": first}
    monkeypatch.setattr(kernel, "NAMESPACE", namespace)
    monkeypatch.setattr(nudge, "NUDGES", {})
    assert nudge.nudge_of(namespace, "o").root is first
    namespace["o"], _ = neuron()
    assert nudge.nudge_of(namespace, "o").root is namespace["o"]
    with pytest.raises(ValueError, match="'L' names no Value on this page yet: run its cell first"):
        nudge.answer("set", json.dumps({"root": "L", "leaf": "a", "value": 1.0}))
    asked = json.loads(nudge.answer("state", json.dumps({"root": "o"})))
    assert asked["reply"] is None
    assert [leaf["name"] for leaf in asked["leaves"]] == ["x1", "w1", "x2", "w2", "b"]
    with pytest.raises(ValueError, match="no nudge question 'spin'"):
        nudge.answer("spin", json.dumps({"root": "o"}))


def test_a_saved_nudge_is_restored_with_the_point_its_gradients_belong_to() -> None:
    o, leaves = neuron()
    nudge = Nudge(o)
    nudge.set("w1", -2.5)
    nudge.backward_again()
    nudge.set("w1", -2.4)
    grad_there = leaves["w1"].grad

    fresh, fresh_leaves = neuron()
    again = Nudge(fresh)
    again.restore({"w1": -2.5}, {"w1": -2.4})
    assert fresh.data == o.data
    assert fresh_leaves["w1"].grad == pytest.approx(grad_there)
    assert again.base(fresh_leaves["w1"]) == -2.5


def test_a_saved_nudge_from_the_built_point_keeps_the_built_gradients() -> None:
    o, leaves = neuron()
    nudge = Nudge(o)
    nudge.restore({"w1": -3.0}, {"w1": -2.0})
    assert leaves["w1"].data == -2.0
    assert leaves["w1"].grad == pytest.approx(1.0)
    assert nudge.base(leaves["w1"]) == -3.0


def test_inputs_without_labels_are_nudged_by_the_names_the_page_gives_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from book_runtime import kernel
    from book_runtime.features.nudge import runtime as nudge

    a, b = Value(2.0), Value(-3.0)
    c = a * b + b**2
    monkeypatch.setattr(kernel, "NAMESPACE", {"a": a, "b": b, "c": c, "n": 1.0})
    monkeypatch.setattr(nudge, "NUDGES", {})
    fields = {"root": "c", "names": ["a", "b"], "leaf": "b", "value": -2.99}
    answer = json.loads(nudge.answer("set", json.dumps(fields)))
    assert answer["reply"]["leaf"] == "b"
    assert answer["reply"]["grad"] == pytest.approx(a.data + 2 * -3.0)
    assert "(**2 curves)" in answer["reply"]["why"]
    assert [leaf["name"] for leaf in answer["leaves"]] == ["a", "b"]
    monkeypatch.setattr(nudge, "NUDGES", {})
    with pytest.raises(ValueError, match="n: no Value of that name on this page"):
        nudge.answer("state", json.dumps({"root": "c", "names": ["a", "n"]}))
    with pytest.raises(ValueError, match="d: not an input of the graph, so not nudged"):
        Nudge(c, {"a": a, "d": Value(1.0)})


def test_the_drawing_is_a_labelled_copy_with_the_gradients_of_the_point_left() -> None:
    a, b = Value(2.0), Value(-3.0)
    c = a * b + b**2
    nudge = Nudge(c, {"a": a, "b": b})
    nudge.set("b", -2.0)
    drawn = nudge.drawn()
    leaves = {x.label: x for x in topological_order(drawn) if not x._prev}
    assert (leaves["a"].data, leaves["b"].data) == (2.0, -2.0)
    assert leaves["b"].grad == pytest.approx(2.0 + 2 * -3.0)  # the point left: b = -3
    assert drawn.grad == 1.0
    assert (a.grad, b.grad, c.grad) == (0.0, 0.0, 0.0)  # the page's graph keeps its grads


def test_backward_again_leaves_a_graph_built_without_backward_without_gradients() -> None:
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    c = a * b
    nudge = Nudge(c)
    nudge.set("a", 3.0)
    nudge.backward_again()
    assert (a.grad, b.grad) == (0.0, 0.0)
    assert nudge.grad(b) == 3.0
    assert nudge.reply() is None


def test_the_prose_follows_a_nudge_only_where_data_and_gradients_share_a_point() -> None:
    """A graph its page ran backward() on is settled only until an input moves, and again
    after backward() runs at the new point; one never run backward is settled at any
    point: its grads are zero wherever its inputs are."""
    o, _ = neuron()
    ran = Nudge(o)
    assert state(ran)["settled"]
    ran.set("w1", -2.9)
    assert not state(ran)["settled"]
    ran.backward_again()
    assert state(ran)["settled"]
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    never = Nudge(a * b)
    never.set("a", 3.0)
    assert state(never)["moved"]
    assert state(never)["settled"]


def test_a_restored_nudge_is_compared_again_without_a_new_one() -> None:
    o, _ = neuron()
    nudge = Nudge(o)
    nudge.restore({"w1": -3.0}, {"w1": -2.5})
    reply = nudge.reply()
    assert reply is not None
    assert (reply.leaf, reply.delta_x) == ("w1", 0.5)
