"""Predict mode's questions: each step's numbers, the answers and the misconceptions' numbers.

The stepper's data carries what each rule did (micrograd.viz.stepper.Step);
book_runtime.features.predict.runtime makes the questions the page asks from it.  The page's
answer checking (docs/_features/predict/predict.js) is tested in Node on
tests/js/predictions.fixture.json, which is the questions of :func:`reused_graph`:
a test here keeps that file what this module makes.

Run ``python tests/features/predict/test_predictions.py`` to write the fixture again.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from book_runtime.features.predict.runtime import EXACT, markup, number, questions

from micrograd import Value
from micrograd.viz.stepper import BackwardStepper, StepperPair

FIXTURE = Path(__file__).parents[2] / "js" / "predictions.fixture.json"


def reused_graph() -> Value:
    """``L = (a*b*a) * e``: ``a`` is used twice, so every misconception has its number."""
    a, b, e = Value(2.0, label="a"), Value(-3.0, label="b"), Value(0.25, label="e")
    c = a * b
    c.label = "c"
    d = c * a
    d.label = "d"
    out = d * e
    out.label = "L"
    return out


def fixture_data() -> dict:
    return questions(json.loads(json.dumps(BackwardStepper(reused_graph()).to_json())))


def asks_by_input(data: dict) -> dict[tuple[str, str], dict]:
    return {
        (frame["node"], ask["input"]): ask
        for frame in data["frames"]
        if frame
        for ask in frame["asks"]
    }


def test_each_steps_shares_are_its_local_derivative_times_the_nodes_grad() -> None:
    for frame in BackwardStepper(reused_graph()).frames:
        if frame.step is None:
            continue
        for share in frame.step.inputs:
            assert math.isclose(share.after - share.before, share.local * frame.step.grad)


def test_a_shares_final_grad_is_what_backward_leaves(neuron) -> None:
    # Here, not at the top: the fixture's writer (this file run as a script) needs none of it.
    from labelled_neuron import build_neuron

    n = neuron()
    stepper = BackwardStepper(n.o)
    fresh = build_neuron()
    fresh.o.backward()
    finals = {s.name: s.final for f in stepper.frames if f.step for s in f.step.inputs}
    assert finals["x1"] == pytest.approx(fresh.x1.grad)
    assert finals["w1"] == pytest.approx(fresh.w1.grad)
    assert finals["b"] == pytest.approx(fresh.b.grad)


def test_the_neurons_answers_are_its_gradients(neuron) -> None:
    asks = asks_by_input(questions(BackwardStepper(neuron().o).to_json()))
    want = {name: ask["want"] for (_, name), ask in asks.items()}
    assert want["x1"] == pytest.approx(-1.5)
    assert want["w1"] == pytest.approx(1.0)
    assert want["b"] == pytest.approx(0.5)


def test_a_wrong_answer_is_explained_by_the_rule_and_the_numbers(neuron) -> None:
    asks = asks_by_input(questions(BackwardStepper(neuron().o).to_json()))
    x1 = next(ask for (_, name), ask in asks.items() if name == "x1")
    assert x1["explain"]["text"] == (
        "The local derivative of x1 * w1 with respect to x1 is w1 = -3.0, "
        "times (x1*w1).grad 0.5: -1.5."
    )
    assert "of <code>x1 * w1</code> with respect to <code>x1</code>" in x1["explain"]["html"]
    assert x1["answer"] == "-1.5"


def test_the_explanation_reads_clearly_for_a_node_named_d() -> None:
    """In notation, ``d``'s derivative would stutter (``d(d * e)/dd``): it is said in words."""
    ask = asks_by_input(fixture_data())[("L", "d")]
    assert ask["explain"]["text"] == (
        "The local derivative of d * e with respect to d is e = 0.25, times L.grad 1.0: 0.25."
    )
    assert "/dd" not in ask["explain"]["html"]


def test_a_constant_local_derivative_is_said_once_not_as_itself_again(neuron) -> None:
    asks = asks_by_input(questions(BackwardStepper(neuron().o).to_json()))
    b = next(ask for (_, name), ask in asks.items() if name == "b")
    assert b["explain"]["text"] == (
        "The local derivative of x1*w1 + x2*w2 + b with respect to b is 1, times n.grad 0.5: 0.5."
    )
    n = next(ask for (_, name), ask in asks.items() if name == "n")
    assert n["explain"]["text"] == (
        "The local derivative of tanh(n) with respect to n is 1 - o² = 0.5, times o.grad 1.0: 0.5."
    )


def test_every_misconception_gets_its_own_number_and_words() -> None:
    asks = asks_by_input(fixture_data())
    first_use, second_use = asks[("d", "a")], asks[("c", "a")]
    kinds = {m["kind"]: m["value"] for m in first_use["mistakes"]}
    assert kinds["swapped"] == pytest.approx(0.5)  # a's own 2.0, times d.grad 0.25
    assert kinds["forgot-out-grad"] == pytest.approx(-6.0)  # d(c*a)/da = c, alone
    assert kinds["too-early"] == pytest.approx(-3.0)  # a.grad once c's rule has run too
    again = {m["kind"]: m["value"] for m in second_use["mistakes"]}
    assert again["assigned"] == pytest.approx(-1.5)  # c's share alone, with =
    assert second_use["want"] == pytest.approx(-3.0)
    assigned = next(m for m in second_use["mistakes"] if m["kind"] == "assigned")
    assert "gradients add up (+=)" in assigned["text"]


def test_no_misconception_gives_the_right_number() -> None:
    for ask in asks_by_input(fixture_data()).values():
        values = [ask["want"], *(m["value"] for m in ask["mistakes"])]
        for i, v in enumerate(values):
            assert all(abs(v - w) > EXACT for w in values[i + 1 :]), ask["input"]


def test_a_pair_asks_about_the_side_run_in_another_order() -> None:
    left, right = reused_graph(), reused_graph()
    order = [right, right._prev[0], right._prev[0]._prev[0]]  # L, d, c: here the engine's
    pair = StepperPair(BackwardStepper(left), BackwardStepper(right, order=order), ("a", "b"))
    data = questions(pair.to_json())
    assert (data["side"], data["title"]) == (1, "b")
    assert data["frames"][2]["lead"]["text"].endswith("in b.")


def test_another_order_names_the_grad_used_before_all_users_ran() -> None:
    a, b, c = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c")
    q = a * b
    q.label = "q"
    r = q * c
    r.label = "r"
    out = q + r
    out.label = "L"
    data = questions(BackwardStepper(out, order=[out, q, r]).to_json())
    a_early = asks_by_input(data)[("q", "a")]  # q's rule runs before r's has added to q.grad
    assert a_early["want"] == pytest.approx(-3.0)  # b times q.grad 1.0, all q holds yet
    kinds = {m["kind"]: m for m in a_early["mistakes"]}
    assert kinds["incomplete-out-grad"]["value"] == pytest.approx(-33.0)  # b times q's final 11
    assert "q.grad is only 1.0 here" in kinds["incomplete-out-grad"]["text"]


def test_an_overflowed_graph_asks_nothing() -> None:
    k = Value(1e300, label="k")
    c = k * k  # inf
    c.label = "c"
    out = c * k
    out.label = "L"
    assert not any(questions(BackwardStepper(out).to_json())["frames"])


def test_the_questions_follow_the_stepper_as_json_that_cannot_end_the_script() -> None:
    a = Value(1.0, label="</script>")
    b = a * a
    b.label = "b"
    text = markup(BackwardStepper(b).to_json())
    assert text.startswith('<script type="application/json" class="mg-predict-data">')
    assert text.count("</script>") == 1


def test_numbers_are_said_as_a_reader_types_them() -> None:
    assert [number(-1.4999999999999993), number(0.70710678), number(-0.0)] == [
        "-1.5",
        "0.7071",
        "0.0",
    ]


def test_the_js_tests_fixture_is_what_python_makes() -> None:
    assert json.loads(FIXTURE.read_text(encoding="utf-8")) == fixture_data(), (
        "run `python tests/features/predict/test_predictions.py` to write it again"
    )


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(fixture_data(), indent=1, sort_keys=True) + "\n", "utf-8")
