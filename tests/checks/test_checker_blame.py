"""The checks blame the right method in the right step, and each detector claims only its own.

Besides each step's known-wrong solutions (the package's ``steps/<step>/wrong/``),
the tests hold near misses (``checks/fixtures/<step>/near/``): realistic bugs
that no known mistake describes, or that look like one but are not, each headed by the result it
must get (``# Check: <status> <method> [<mistake>]``).  Each is code run on
top of the step's solution, in the step's cell.
"""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from typing import Any

import pytest
from book_runtime.features.track.checks import EXERCISES
from book_runtime.features.track.checks.core import (
    Case,
    Finding,
    Guard,
    Mistake,
    fingerprint,
    run_check,
)
from track_namespace import FIXTURES, IDS, check, page_namespace, run_cell

pytestmark = pytest.mark.usefixtures("recursion_limit_kept")

HEADER = re.compile(r"\A# Check: (?P<status>[\w-]+) (?P<part>[\w.]+)(?: (?P<mistake>[\w-]+))?\n")


def near_misses() -> list[tuple[str, str]]:
    """(step, file name) of every near miss of the track."""
    found = []
    for step in IDS:
        folder = FIXTURES / step / "near"
        if folder.is_dir():
            found += [(step, f.name) for f in sorted(folder.iterdir(), key=lambda f: f.name)]
    return found


def near_code(step: str, name: str) -> str:
    return (FIXTURES / step / "near" / name).read_text(encoding="utf-8")


NEAR = near_misses()


def test_every_step_before_training_has_near_misses() -> None:
    assert {step for step, _ in NEAR} >= {"value", "rules", "backward", "nn"}
    for step, name in NEAR:
        assert HEADER.match(near_code(step, name)), (step, name)


@pytest.mark.parametrize(("step", "name"), NEAR, ids=[f"{s}-{n}" for s, n in NEAR])
def test_each_near_miss_gets_its_method_its_step_and_no_other_mistake(step: str, name: str) -> None:
    code = near_code(step, name)
    header = HEADER.match(code)
    assert header is not None
    exercise = EXERCISES[step]
    namespace = page_namespace(step, f"{exercise.solution}\n\n{code}")
    result = check(step, namespace)
    assert result.status == header["status"], result.message
    assert result.part == header["part"], result.message
    if result.status != "not-yours":
        assert result.step == step, result.message
        assert f"`{header['part']}`" in result.message, "the message names the method"
        assert not result.message.startswith("This comes from"), result.message
    want = header["mistake"]
    assert (result.mistake.id if result.mistake else None) == want, result.message


def test_a_page_that_raised_the_recursion_limit_is_told_why_it_does_not_count() -> None:
    code = near_code("backward", "page_raises_limit.py")
    namespace = page_namespace("backward", f"{EXERCISES['backward'].solution}\n\n{code}")
    assert sys.getrecursionlimit() == 100_000, "the page's cell raised it"
    result = check("backward", namespace)
    assert "Your page raised Python's recursion limit to 100,000" in result.message
    assert "does not count" in result.message
    assert sys.getrecursionlimit() == 100_000, "the check puts the page's limit back"


def test_not_yours_names_micrograds_class_and_asks_for_the_readers_own() -> None:
    namespace = page_namespace("value", "from micrograd import Value\n")
    result = check("value", namespace)
    assert result.status == "not-yours"
    assert "`Value` is micrograd's own (micrograd.engine.Value)" in result.message
    # Every later step sees it too: the track is about the reader's own Value.
    for step in IDS[1:4]:
        later = page_namespace(step)
        run_cell(later, "from micrograd import Value\n", 9)
        assert check(step, later).status in {"not-yours", "not-done"}, step


def _full_track(step: str, code: str) -> dict[str, Any]:
    """Every step's solution in the page, ``code`` in ``step``'s cell."""
    namespace = page_namespace(step, code)
    for number, exercise in enumerate(EXERCISES.values(), start=1):
        if IDS.index(exercise.id) > IDS.index(step):
            run_cell(namespace, exercise.solution, number)
    return namespace


def _all_mistakes() -> list[Mistake]:
    return [m for exercise in EXERCISES.values() for m in exercise.mistakes]


def _wrong_programs() -> list[tuple[str, str, str | None]]:
    """(step, its cell's code, the one mistake that may claim it) of every wrong program."""
    programs = []
    for exercise in EXERCISES.values():
        for mistake, code in exercise.known_wrong.items():
            programs.append((exercise.id, code, mistake))
    for step, name in NEAR:
        code = near_code(step, name)
        header = HEADER.match(code)
        assert header is not None
        programs.append((step, f"{EXERCISES[step].solution}\n\n{code}", header["mistake"]))
    return programs


WRONG = _wrong_programs()


@pytest.mark.parametrize(
    ("step", "code", "own"),
    WRONG,
    ids=[f"{step}-{own or i}" for i, (step, _, own) in enumerate(WRONG)],
)
def test_no_detector_claims_another_mistakes_wrong_program(
    step: str, code: str, own: str | None
) -> None:
    # Each wrong program is in the page with every other step right; only its own mistake
    # (if it has one) may recognise it.
    namespace = _full_track(step, code)
    claimed = []
    with Guard():
        for mistake in _all_mistakes():
            if mistake.id == own:
                continue
            try:
                finding = mistake.detect(namespace)
            except Exception as error:
                claimed.append(f"{mistake.id} raised {error!r}")
                continue
            if finding is not None:
                claimed.append(f"{mistake.id}: {mistake.message(finding)[:120]}")
    assert not claimed, claimed


@pytest.mark.parametrize("step", IDS)
def test_no_detector_claims_a_right_solution(step: str) -> None:
    namespace = _full_track(step, EXERCISES[step].solution)
    with Guard():
        claimed = [m.id for m in _all_mistakes() if m.detect(namespace) is not None]
    assert not claimed


def test_the_runners_check_passes_the_cells_steps_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # The page's runner sends each exercise cell's file name and step as JSON.
    import json

    from book_runtime import kernel
    from book_runtime.features.track import runtime as exercises

    wrong = EXERCISES["value"].solution.replace('(self, other), "+"', '(self,), "+"')
    namespace = page_namespace("value", wrong)
    monkeypatch.setattr(kernel, "NAMESPACE", namespace)
    result = json.loads(exercises.check("value", json.dumps({"<cell 1>": "value"})))
    assert (result["status"], result["part"], result["step"]) == (
        "failed",
        "Value.__add__",
        "value",
    )
    assert result["message"].startswith("Your `Value.__add__` (step 1's cell, line")
    unnamed = json.loads(exercises.check("value"))
    assert unnamed["step"] is None, "without the cells, no step is named"


@pytest.mark.parametrize(
    ("step", "mistake", "part"),
    [
        ("nn", "zero-grad-resets-data", "Module.zero_grad"),
        ("backward", "resets-grads", "Value.backward"),
    ],
)
def test_a_bug_only_training_would_show_is_put_down_to_its_own_step(
    step: str, mistake: str, part: str
) -> None:
    # A zero_grad that resets the numbers, or a backward() that resets the gradients, gives the
    # right numbers on every forward pass and every single backward(): its own step's probe
    # finds it, and the training step names that step's method, not `train`.
    code = EXERCISES[step].known_wrong[mistake]
    for later in IDS[IDS.index(step) :]:
        result = check(later, _full_track(step, code))
        assert result.status == "failed", (later, result.message)
        assert result.mistake is not None, result.message
        assert result.mistake.id == mistake, result.message
        assert (result.part, result.step) == (part, step), result.message


def test_a_wrong_files_header_says_its_mistake_and_a_fingerprint_its_message() -> None:
    for mistake in _all_mistakes():
        assert mistake.title, mistake.id
        assert mistake.why, mistake.id
        assert mistake.parts, mistake.id
        if mistake.detector is None:  # told by its numbers alone: its message is a template
            assert mistake.says, mistake.id
            assert fingerprint(mistake) is not None, f"{mistake.id} passes its step's probes"


def test_when_two_mistakes_fit_the_more_specific_is_named() -> None:
    training = EXERCISES["training"]
    code = training.known_wrong["sign-flipped"]

    def fits(namespace: Any) -> Finding:
        return Finding("print(1)")

    general = replace(training.mistakes[1], id="general", parts=("train", "Value.backward"))
    specific = replace(training.mistakes[1], id="specific", parts=("train",))
    for mistakes in ((general, specific), (specific, general)):
        mistakes = tuple(replace(m, detector=fits, says=(("", m.id),)) for m in mistakes)
        exercise = replace(training, mistakes=mistakes)
        steps = [EXERCISES[s] for s in exercise.builds_on]
        result = run_check(exercise, page_namespace("training", code), steps, None, EXERCISES)
        assert result.mistake is not None
        assert result.mistake.id == "specific", result.message


def test_a_case_no_mistake_explains_is_put_down_to_an_earlier_step_whose_check_fails() -> None:
    # Every probe passes and no mistake claims the failing case: the earliest step this one
    # builds on that fails its own check is named, with its message, in this step's result.
    def failing(said: str) -> tuple[Case, ...]:
        return (Case(f"print({said!r})", lambda namespace: said),)

    value = replace(EXERCISES["value"], hidden_cases=failing("The value case failed."))
    rules = replace(EXERCISES["rules"], hidden_cases=failing("The rules case failed."))
    namespace = page_namespace("rules", EXERCISES["rules"].solution)
    track = {**EXERCISES, "value": value, "rules": rules}
    result = run_check(rules, namespace, [value], None, track)
    assert (result.exercise, result.status, result.step) == ("rules", "failed", "value")
    assert result.message == (
        'This comes from step "The Value", whose check fails: The value case failed.'
    )
    assert result.case == "print('The value case failed.')"
    # With the earlier step right, the failure is this step's own, at the same case.
    alone = run_check(rules, namespace, [EXERCISES["value"]], None, track)
    assert (alone.status, alone.step, alone.message) == ("failed", None, "The rules case failed.")
    assert result.checked == alone.checked


def test_a_fingerprint_tells_its_mistake_from_every_other_known_one() -> None:
    # A mistake told by its numbers alone must not share them with another mistake's wrong file.
    mistakes = _all_mistakes()
    for mistake in mistakes:
        if mistake.detector is not None:
            continue
        mine = fingerprint(mistake)
        assert mine is not None
        others = [m.id for m in mistakes if m is not mistake and mine.same_as(fingerprint(m))]
        assert not others, (mistake.id, others)
