"""The hidden checks of "Build your own micrograd" (the track's checks) judge rightly.

The reader's code reaches a check as the page's namespace after the reader's
cells ran.  These tests make that namespace the way the in-browser runner
does: each step's code runs as a cell of its own (file name ``<cell N>``, its
lines in ``linecache``), in one namespace, in the track's order.  Then a right
solution must pass; each known wrong solution must be named by its own
mistake; an untouched starter must be "not-done"; code that raises must get
the reader's own traceback; and no check may leave the interpreter changed.
"""

from __future__ import annotations

import builtins
import doctest
import gc
import io
import json
import random
import re
import sys
import warnings
import zipfile
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from book_runtime.features.track.checks import (
    EXERCISES,
    core,
    step_backward,
    step_rules,
    step_value,
)
from book_runtime.features.track.checks.core import (
    CASE_FILE,
    Guard,
    attempt,
    attempt_error,
    run_code,
)
from book_runtime.features.track.checks.engine_cases import micrograd_scope
from book_runtime.features.track.checks.reference import XS, YS, page_run
from book_runtime.features.track.checks.step_backward import _cases as backward_cases
from book_runtime.features.track.checks.step_finale import _table
from pages import DOCS, code_cells, in_page_group, run_page
from track_namespace import IDS, check, page_namespace, run_cell

pytestmark = pytest.mark.usefixtures("recursion_limit_kept")

PAGE = "build-your-own"
#: The checks, a part of the track feature's runtime, and their steps' code, as the page names it.
CHECKS = DOCS / "_features" / "track" / "checks"
STEPS = "_features/track/checks/steps"


def interpreter_state() -> dict[str, Any]:
    """What a check must leave as it found it."""
    return {
        "random state": random.getstate(),
        "recursion limit": sys.getrecursionlimit(),
        "gc enabled": gc.isenabled(),
        "gc thresholds": gc.get_threshold(),
        "gc freeze count": gc.get_freeze_count(),
        "streams": (sys.stdout, sys.stderr),
        "warnings filters": list(warnings.filters),
    }


KNOWN_WRONG = [(e.id, mistake) for e in EXERCISES.values() for mistake in e.known_wrong]


# -- the track ---------------------------------------------------------------------------------


def test_the_track_is_six_steps_in_order() -> None:
    assert IDS == ["value", "rules", "backward", "nn", "training", "finale"]
    assert all(e.id == key for key, e in EXERCISES.items())


@pytest.mark.parametrize("step", IDS)
def test_every_step_has_its_cases_hints_and_mistakes(step: str) -> None:
    exercise = EXERCISES[step]
    assert 1 <= len(exercise.hints) <= 5
    assert len(exercise.mistakes) >= 2
    assert len({m.id for m in exercise.mistakes}) == len(exercise.mistakes)
    # Every path through the step runs at least ten hidden cases (rules: with exp, or with **).
    optional = {c.needs for c in exercise.hidden_cases} - {None}
    for part in optional or {None}:
        running = [c for c in exercise.hidden_cases if c.needs in (None, part)]
        assert len(running) >= 10, (step, part)


@pytest.mark.parametrize("step", IDS)
def test_the_hints_go_from_vague_to_nearly_the_answer(step: str) -> None:
    hints = EXERCISES[step].hints
    code = [h.count("`") for h in hints]
    assert code[-1] >= 4, "the last hint shows code"
    assert code[0] < code[-1], "the first hint shows less code than the last"


@pytest.mark.parametrize("step", IDS)
def test_every_mistake_has_a_known_wrong_solution_unlike_the_right_one(step: str) -> None:
    exercise = EXERCISES[step]
    assert set(exercise.known_wrong) == {m.id for m in exercise.mistakes}
    for code in exercise.known_wrong.values():
        assert code != exercise.solution


@pytest.mark.parametrize("step", IDS)
def test_the_visible_example_prints_what_it_says(step: str) -> None:
    exercise = EXERCISES[step]
    namespace = page_namespace(step)
    printed = io.StringIO()
    with redirect_stdout(printed):
        run_cell(namespace, exercise.example.code, 99)
    assert printed.getvalue() == exercise.prints


@in_page_group("neuron")
def test_the_finale_example_prints_the_neuron_of_the_neuron_page() -> None:
    glued = run_page("neuron").glued
    expected = (
        f"o = {glued['neuron_o']:.4f}\n"
        f"do/dx1 = {glued['neuron_dx1']:.4f}, do/dw1 = {glued['neuron_dw1']:.4f}\n"
        f"do/dx2 = {glued['neuron_dx2']:.4f}, do/dw2 = {glued['neuron_dw2']:.4f}\n"
    )
    assert EXERCISES["finale"].prints == expected


# -- right, wrong, unfinished, raising ----------------------------------------------------------


@pytest.mark.parametrize("step", IDS)
def test_each_reference_solution_passes_its_check(step: str) -> None:
    result = check(step, page_namespace(step))
    assert result.status == "passed", result.message
    # Each method alone first, then the example and every case.
    assert result.checked > 1 + len(EXERCISES[step].hidden_cases)
    assert (result.mistake, result.case, result.traceback) == (None, None, None)


def rules_with_one_of(kept: str) -> str:
    """The rules step's solution with only ``kept`` of exp and ``**`` written (the other a stub)."""
    rules = EXERCISES["rules"]
    stubs = rules.starter[rules.starter.index("    def exp(self):") :]
    exp_stub, pow_stub = stubs.split("\n\n")
    written = rules.solution[: rules.solution.index("    def exp(self):")]
    exp, pow_ = rules.solution[len(written) :].split("\n\n    def __pow__")
    pow_ = "    def __pow__" + pow_
    if kept == "exp":
        return f"{written}{exp}\n\n{pow_stub}"
    return f"{written}{exp_stub}\n\n{pow_}"


@pytest.mark.parametrize("kept", ["exp", "pow"])
def test_the_rules_step_passes_with_exp_or_pow_alone(kept: str) -> None:
    code = rules_with_one_of(kept)
    assert "NotImplementedError" in code
    result = check("rules", page_namespace("rules", code))
    assert result.status == "passed", result.message
    cases = EXERCISES["rules"].hidden_cases
    assert result.checked > 1 + sum(c.needs in (None, kept) for c in cases)


def test_the_rules_step_is_not_done_without_exp_or_pow() -> None:
    rules = EXERCISES["rules"]
    stubs = rules.starter[rules.starter.index("    # One more on your own") :]
    neither = rules.solution[: rules.solution.index("    def exp(self)")] + stubs
    result = check("rules", page_namespace("rules", neither))
    assert result.status == "not-done"
    assert "exp" in result.message
    assert "__pow__" in result.message


@pytest.mark.parametrize(("step", "mistake"), KNOWN_WRONG)
def test_each_known_wrong_solution_gets_its_own_mistake(step: str, mistake: str) -> None:
    exercise = EXERCISES[step]
    result = check(step, page_namespace(step, exercise.known_wrong[mistake]))
    assert result.status == "failed", result.message
    assert result.mistake is not None
    assert result.mistake.id == mistake, result.message
    assert not result.message.startswith("This comes from step"), "its own step's mistake"
    assert result.case, "the code that shows the mistake"


@pytest.mark.parametrize(("step", "mistake"), KNOWN_WRONG)
def test_a_mistakes_code_runs_as_a_cell_with_the_right_solution(step: str, mistake: str) -> None:
    exercise = EXERCISES[step]
    case = check(step, page_namespace(step, exercise.known_wrong[mistake])).case
    assert case is not None
    with redirect_stdout(io.StringIO()):
        run_cell(page_namespace(step), case, 99)


class CompiledSource(BaseException):
    """Source text compiled where only functions should run (no check catches it)."""


@pytest.mark.parametrize(("step", "mistake"), KNOWN_WRONG)
def test_each_mistake_recognises_its_wrong_solution_with_functions_alone(
    step: str, mistake: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A detector's probes are functions of the reader's names: with the checker unable to
    # compile any source, each still recognises its own wrong solution.
    exercise = EXERCISES[step]
    namespace = page_namespace(step, exercise.known_wrong[mistake])
    (detector,) = (m for m in exercise.mistakes if m.id == mistake)

    def compiled(code: str, mode: str) -> None:
        raise CompiledSource(code)

    monkeypatch.setattr(core, "_compiled", compiled)
    with Guard():
        finding = detector.detect(namespace)
        ready = exercise.ready(namespace)
        written = exercise.written(namespace)
    assert finding is not None, mistake
    assert finding.case, "the code that shows the mistake"
    assert ready is None
    assert isinstance(written, frozenset)


def test_a_probe_is_a_function_of_the_readers_names() -> None:
    class Broken:
        def __init__(self, x: float) -> None:
            raise ValueError("the reader's bug")

    def make(names: Any) -> Any:
        return names["Value"](2.0)

    assert attempt(make, {"Value": float}) == 2.0
    assert attempt(make, {"Value": Broken}) is None, "a probe that trips recognises nothing"
    assert attempt(make, {}) is None
    assert attempt_error(make, {"Value": float}) is None
    error = attempt_error(make, {"Value": Broken})
    assert isinstance(error, ValueError)
    assert str(error) == "the reader's bug"

    def stopped(names: Any) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # the reader stopping the check goes through
        attempt(stopped, {})


def _shown_and_probed() -> list[tuple[str, str, Any]]:
    """(the code a message shows, what it computes, a probe that computes the same)."""
    pairs = []
    for rule in (*step_rules.RULES, *step_rules.OPTIONAL_RULES):
        for name in rule.inputs:
            pairs.append(
                (rule.code, f"{name}.grad", lambda names, r=rule, n=name: run_rule(r, names, n))
            )
    pairs += [
        (f"a = Value(2.0)\nc = {expression}", "c.data", lambda names, look=look: look(names).data)
        for _, expression, look in step_value._REFLECTED.values()
    ]
    return pairs


def run_rule(rule: Any, names: Any, name: str) -> Any:
    return step_rules.run_rule(rule, names["Value"]).grads[name]


@pytest.mark.parametrize(("shown", "read", "look"), _shown_and_probed())
def test_the_code_a_message_shows_computes_what_its_probe_computes(
    shown: str, read: str, look: Any
) -> None:
    with redirect_stdout(io.StringIO()):
        want = eval(read, run_code(shown, micrograd_scope()))  # an expression of the probe's
    assert look(micrograd_scope()) == want


@pytest.mark.parametrize(
    ("shown", "graph"),
    [
        (step_backward.WORKED.code, step_backward._worked),
        (step_backward.SHARED.code, step_backward._shared),
    ],
    ids=["worked", "shared"],
)
def test_a_backward_probe_builds_the_graph_its_message_shows(shown: str, graph: Any) -> None:
    scope = run_code(shown, micrograd_scope())
    made = graph(micrograd_scope())
    root = shown.rsplit("\n", 1)[1].removesuffix(".backward()")
    made[root].backward()
    assert set(made) <= set(scope)
    for name, node in made.items():
        assert (node.data, node.grad) == (scope[name].data, scope[name].grad), name


@pytest.mark.parametrize("step", IDS)
def test_an_untouched_starter_is_not_done(step: str) -> None:
    exercise = EXERCISES[step]
    result = check(step, page_namespace(step, exercise.starter))
    assert result.status == "not-done", result.message
    assert "is still the starter's" in result.message
    assert (result.traceback, result.mistake) == (None, None)


def test_the_page_as_built_is_not_done_at_every_step() -> None:
    # The build runs every starter in turn: each check then says what is still to write.
    namespace: dict[str, Any] = {"__builtins__": builtins}
    for number, exercise in enumerate(EXERCISES.values(), start=1):
        run_cell(namespace, exercise.starter, number)
    for step in IDS:
        result = check(step, namespace)
        assert result.status == "not-done", (step, result.message)
        starter = r"`[\w.]+`( \(step \d's cell, line \d+\))? is still the starter's"
        assert re.search(starter, result.message), result.message


def test_a_step_whose_cell_has_not_run_is_not_done() -> None:
    namespace = page_namespace("value")
    assert check("rules", namespace).status == "not-done"
    assert "run the cell of step 2" in check("rules", namespace).message
    assert check("nn", {}).status == "not-done"


RAISING = {
    # step: (what the step's code becomes, the line of it the traceback must show)
    "rules": ("other.grad += self.data * out.grad", "other.grad += self.data / 0 * out.grad"),
    "nn": ("return act.tanh()", "return act.tanh() + undefined_name"),
    "training": ("losses.append(loss.data)", "losses.append(loss.data[0])"),
}


@pytest.mark.parametrize("step", list(RAISING))
def test_code_that_raises_gets_the_readers_traceback_trimmed_to_the_readers_lines(
    step: str,
) -> None:
    old, new = RAISING[step]
    raising = EXERCISES[step].solution.replace(old, new)
    result = check(step, page_namespace(step, raising))
    assert result.status == "raised", result.message
    tb = result.traceback
    assert tb is not None
    assert tb.startswith("Traceback (most recent call last):")
    frames = re.findall(r'^  File "([^"]+)"', tb, re.MULTILINE)
    cell = f"<cell {IDS.index(step) + 1}>"
    assert frames, tb
    assert set(frames) == {cell}, tb  # the reader's frames, and only theirs
    assert new.strip() in tb, "the reader's line, from linecache"
    assert "book_runtime" not in tb
    assert CASE_FILE not in tb
    assert result.case, "the case that raised, as code to paste"


def test_a_raise_in_the_readers_own_code_keeps_the_frames_it_called() -> None:
    # A helper of the reader's, in another cell, called by the step's code.
    namespace = page_namespace("rules")
    run_cell(namespace, "def broken(x):\n    return 1 / (x - x)\n", 10)
    run_cell(
        namespace,
        "class Value(Value):\n    def tanh(self):\n        return broken(self.data)\n",
        11,
    )
    result = check("rules", namespace)
    assert result.status == "raised"
    assert re.findall(r'File "(<cell \d+>)"', result.traceback or "") == ["<cell 11>", "<cell 10>"]


class Exit:
    """A reader's class whose every use calls exit()."""

    def __init__(self, *args: object) -> None:
        raise SystemExit(3)


@pytest.mark.parametrize(
    "namespace",
    [{}, {"Value": 42}, {"Value": Exit}, {"Value": type("Value", (), {})}],
    ids=["empty", "not a class", "calls exit()", "an empty class"],
)
@pytest.mark.parametrize("step", IDS)
def test_nothing_the_reader_wrote_makes_a_check_raise(step: str, namespace: dict[str, Any]) -> None:
    result = check(step, {"__builtins__": builtins, **namespace})
    assert result.status in {"not-done", "raised", "failed"}
    json.dumps(result.to_json())


@pytest.mark.parametrize("module", [None, 42], ids=["None", "not a string"])
def test_a_class_of_no_module_is_checked_as_the_readers_own(module: object) -> None:
    # A class may set its own __module__ to anything; the checker asks it whether it is
    # micrograd's, and must not raise on the answer.
    solution = f"{EXERCISES['value'].solution}\n\nValue.__module__ = {module!r}\n"
    assert check("value", page_namespace("value", solution)).status == "passed"
    raising = (
        f"{EXERCISES['finale'].solution}\n\nclass neuron:\n    __module__ = {module!r}\n\n"
        "    def __init__(self, *numbers):\n        raise ValueError('not yet')\n"
    )
    result = check("finale", page_namespace("finale", raising))
    assert (result.status, result.part) == ("raised", "neuron")
    assert result.message == "Your `neuron` raised ValueError: not yet"


def test_the_packages_docstring_example_holds() -> None:
    import book_runtime.features.track.checks

    failures, tries = doctest.testmod(book_runtime.features.track.checks)
    assert (failures, tries > 0) == (0, True)


def test_check_says_what_is_wrong_with_its_own_arguments() -> None:
    with pytest.raises(KeyError, match="no exercise 'values'"):
        check("values", {})
    with pytest.raises(TypeError, match="a mapping"):
        check("value", [("Value", int)])  # type: ignore[arg-type]


def test_a_result_is_the_json_the_runner_reads() -> None:
    result = check("rules", page_namespace("rules", EXERCISES["rules"].known_wrong["overwrite"]))
    data = json.loads(json.dumps(result.to_json()))
    fields = {"exercise", "status", "message", "case", "mistake", "traceback", "checked"}
    assert set(data) == fields | {"part", "step", "message_html", "message_text"}
    assert (data["exercise"], data["status"]) == ("rules", "failed")
    assert data["step"] == "rules"
    assert data["part"].startswith("Value.")
    assert set(data["mistake"]) == {
        *("id", "title", "why"),
        *("title_html", "title_text", "why_html", "why_text"),
    }
    assert data["mistake"]["id"] == "overwrite"
    assert isinstance(data["checked"], int)
    assert data["checked"] >= 1


# -- what a failure says ------------------------------------------------------------------------


def test_the_page_runs_miss_blames_the_start_only_when_the_start_differs() -> None:
    # A train that stops moving after ten steps passes every short run and misses the page's
    # loss. Its network starts from the page's weights (step 4's probes see to that): the
    # message must not say that it starts elsewhere.
    stalls = (
        EXERCISES["training"]
        .solution.replace("for _ in range(steps):", "for step in range(steps):")
        .replace(
            "p.data -= learning_rate * p.grad", "p.data -= learning_rate * p.grad * (step < 10)"
        )
    )
    result = check("training", page_namespace("training", stalls))
    assert (result.status, result.part, result.mistake) == ("failed", "train", None)
    assert "the MLP page's run (its four points" in result.message, result.message
    assert "starts from other weights" not in result.message, result.message


def test_a_failure_names_the_method_the_input_and_the_numbers() -> None:
    # A ** rule off by one power: no known mistake, so the probe's own message.
    wrong = EXERCISES["rules"].solution.replace("n * self.data ** (n - 1)", "n * self.data**n")
    namespace = page_namespace("rules", wrong)
    result = check("rules", namespace)
    assert (result.status, result.mistake) == ("failed", None)
    assert (result.part, result.step) == ("Value.__pow__", "rules")
    line = 1 + wrong.splitlines().index("    def __pow__(self, n):")
    match = re.fullmatch(
        rf"Your `Value.__pow__` \(step 2's cell, line {line}\): `c = a\*\*(\S+)` with "
        r"a = Value\((\S+)\) holding a.grad = (\S+), then c.grad = (\S+) and `c._backward\(\)`, "
        r"gave a.grad = (\S+); expected (\S+) \(.*\): .*",
        result.message,
    )
    assert match, result.message
    n, a, held, grad, got, want = (float(g) for g in match.groups())
    assert math_close(want, held + n * a ** (n - 1) * grad)
    assert math_close(got, held + n * a**n * grad)
    # The case is code the reader can paste: it gives the reader's number again.
    assert result.case is not None
    with redirect_stdout(io.StringIO()):
        run_cell(namespace, result.case, 99)
    assert math_close(namespace["a"].grad, got)


def math_close(x: float, y: float) -> bool:
    return abs(x - y) <= 1e-5 * max(1.0, abs(y))


def test_a_graph_cases_failure_gives_the_central_difference_too() -> None:
    # tanh's rule forgets the square: a random graph of step 3 runs into it.
    wrong = EXERCISES["rules"].solution.replace("(1 - out.data**2)", "(1 - out.data)")
    namespace = page_namespace("rules", wrong)
    run_cell(namespace, EXERCISES["backward"].solution, 3)
    failures = [case.run(namespace) for case in EXERCISES["backward"].hidden_cases]
    failed = [f for f in failures if f is not None]
    assert failed, "the random graphs use tanh"
    assert all("a central difference gives" in f for f in failed), failed


def test_a_later_step_puts_an_earlier_steps_bug_down_to_that_steps_method() -> None:
    wrong = EXERCISES["rules"].solution.replace("(1 - out.data**2)", "(1 - out.data)")
    namespace = page_namespace("rules", wrong)
    run_cell(namespace, EXERCISES["backward"].solution, 3)
    result = check("backward", namespace)
    assert result.status == "failed"
    assert (result.part, result.step) == ("Value.tanh", "rules")
    assert result.message.startswith(
        'This comes from step 2 "The backward rules": your `Value.tanh` (step 2\'s cell, line'
    )


def test_a_later_step_names_an_earlier_steps_known_mistake() -> None:
    namespace = page_namespace("rules", EXERCISES["rules"].known_wrong["overwrite"])
    run_cell(namespace, EXERCISES["backward"].solution, 3)
    result = check("backward", namespace)
    assert result.status == "failed"
    assert result.mistake is not None
    assert result.mistake.id == "overwrite"
    assert (result.part, result.step) == ("Value.__add__", "rules")
    assert result.message.startswith('This comes from step 2 "The backward rules": ')


def test_a_step_2_bug_in_a_step_1_method_is_put_down_to_step_2() -> None:
    # Step 2's __add__ forgets to record other: step 1's probe of __add__ finds it, in
    # step 2's cell, and says so without blaming step 1.
    wrong = EXERCISES["rules"].solution.replace(
        'out = Value(self.data + other.data, (self, other), "+")',
        'out = Value(self.data + other.data, (self,), "+")',
    )
    result = check("rules", page_namespace("rules", wrong))
    assert result.status == "failed"
    assert (result.part, result.step) == ("Value.__add__", "rules")
    assert not result.message.startswith("This comes from")
    assert result.message.startswith("Your `Value.__add__` (step 2's cell, line")


def test_the_hidden_graphs_agree_with_central_differences() -> None:
    # The checker's own cases: micrograd's gradients are what the message sets them against.
    for case in backward_cases(random.Random(1003)):
        scope = run_code(case.code, micrograd_scope())
        for look in case.looks:
            slope = case.central_difference(look.expression)
            if slope is not None:
                leaf = scope[look.expression.removesuffix(".grad")]
                assert math_close(slope, leaf.grad), case.code


# -- the interpreter as the reader had it -------------------------------------------------------

NAMESPACES = [
    *((s, "solution") for s in IDS),
    *((s, "starter") for s in IDS),
    ("value", "reflected-calls-itself"),
    ("backward", "recursive-sort"),
    ("training", "no-zero-grad"),
]


@pytest.fixture(params=["collector on", "collector off"])
def collector(request: pytest.FixtureRequest) -> Iterator[None]:
    was_enabled = gc.isenabled()
    if request.param == "collector off":
        gc.disable()
    try:
        yield
    finally:
        (gc.enable if was_enabled else gc.disable)()


@pytest.mark.usefixtures("collector")
@pytest.mark.parametrize(("step", "code"), NAMESPACES)
def test_a_check_leaves_the_interpreter_as_it_found_it(step: str, code: str) -> None:
    exercise = EXERCISES[step]
    source = {"solution": exercise.solution, "starter": exercise.starter}.get(code)
    namespace = page_namespace(step, source or exercise.known_wrong[code])
    random.seed(12345)
    random.random()  # a state of the reader's own, mid-sequence
    before = interpreter_state()
    check(step, namespace)
    assert interpreter_state() == before


def test_a_check_puts_back_what_the_readers_code_changed() -> None:
    namespace = page_namespace("value")
    run_cell(
        namespace,
        "import sys\n\nclass Value(Value):\n    def __mul__(self, other):\n"
        "        sys.setrecursionlimit(4321)\n        return super().__mul__(other)\n",
        7,
    )
    before = interpreter_state()
    assert check("value", namespace).status == "passed"
    assert interpreter_state() == before


# -- the page -----------------------------------------------------------------------------------


def exercise_cells() -> list[tuple[str, str]]:
    """(id, code) of each exercise cell of the page, in page order."""
    cells = []
    for cell in code_cells(PAGE):
        if "exercise" in cell.tags:
            ids = [t.removeprefix("exercise-") for t in cell.tags if t.startswith("exercise-")]
            assert len(ids) == 1, cell.tags
            cells.append((ids[0], cell.source))
    return cells


def test_the_pages_exercise_cells_hold_the_packages_starters_in_order() -> None:
    cells = exercise_cells()
    assert [i for i, _ in cells] == IDS
    for step, source in cells:
        assert source == EXERCISES[step].starter, step


def test_each_exercise_cell_loads_its_starter_from_the_package() -> None:
    # One source: the page holds no copy of a starter, it names the package's file.
    loads = [c.options.get("load") for c in code_cells(PAGE) if "exercise" in c.tags]
    assert loads == [f"{STEPS}/{step}/starter.py" for step in IDS]


def _page_blocks(fence: str) -> list[str]:
    text = (DOCS / f"{PAGE}.md").read_text(encoding="utf-8")
    return re.findall(rf"^```{{code-block}} {fence}\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)


def test_the_page_writes_each_steps_example_from_the_package() -> None:
    text = (DOCS / f"{PAGE}.md").read_text(encoding="utf-8")
    assert re.findall(r"^```\{exercise-example\} (\w+)\n```$", text, re.MULTILINE) == IDS
    assert "```{code-block} python" not in text, "no example copied into the page"


def test_the_pdfs_appendix_holds_each_steps_solution() -> None:
    text = (DOCS / f"{PAGE}.md").read_text(encoding="utf-8")
    appendix = text[text.index("````{only} singlehtml") :]
    solutions = re.findall(
        r"^```\{literalinclude\} (\S+)\n:language: python\n```$", appendix, re.MULTILINE
    )
    assert solutions == [f"{STEPS}/{step}/solution.py" for step in IDS]
    for step, path in zip(IDS, solutions, strict=True):
        assert (DOCS / path).read_text(encoding="utf-8") == EXERCISES[step].solution


def test_the_page_links_each_step_and_leaves_the_runner_its_progress_element() -> None:
    text = (DOCS / f"{PAGE}.md").read_text(encoding="utf-8")
    assert '<div class="mg-track-progress"></div>' in text
    for step in IDS:
        assert f"(track-{step})=\n## " in text, step


@in_page_group("mlp")
@pytest.mark.torch  # the page checks its boxes against PyTorch
def test_the_checks_four_points_and_target_are_the_mlp_pages() -> None:
    run = run_page("mlp")
    assert [list(x) for x in XS] == run.namespace["xs"]
    assert list(YS) == run.namespace["ys"]
    assert page_run().losses == run.namespace["log"].column("loss")
    assert _table(page_run().losses) == run.namespace["log"].table(every=4)


def test_the_exercises_are_plain_python_for_the_browser() -> None:
    # Pyodide runs the package from a wheel of its .py files: nothing else may be needed.
    import book_runtime.features.track.checks

    assert book_runtime.features.track.checks.__file__ is not None
    assert CHECKS.samefile(Path(book_runtime.features.track.checks.__file__).parent)
    files = [p for p in CHECKS.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert CHECKS / "__init__.py" in files
    # Besides the code, only its lint settings (ruff.toml), which the browser never reads.
    others = [p for p in files if p.suffix != ".py"]
    assert others == [CHECKS / "ruff.toml"], others


def test_the_browsers_wheel_holds_every_steps_code_and_no_lint_settings() -> None:
    from runtime_wheels import runtime_package_wheel

    _, data = runtime_package_wheel()
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        names = set(wheel.namelist())
    steps = {
        f"book_runtime/features/track/checks/{p.relative_to(CHECKS).as_posix()}"
        for p in CHECKS.rglob("steps/*/**/*.py")
    }
    assert steps, "the steps' code files"
    assert steps <= names, steps - names
    assert "book_runtime/features/track/checks/__init__.py" in names
    assert not [name for name in names if name.endswith(".toml")]


@pytest.mark.parametrize("step", IDS)
def test_a_steps_folder_holds_its_code_and_one_wrong_solution_per_mistake(step: str) -> None:
    exercise = EXERCISES[step]
    folder = CHECKS / "steps" / step
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.py"))
    wrong = sorted(m.wrong_file for m in exercise.mistakes)
    assert files == sorted(["example.py", "solution.py", "starter.py", *wrong])
    assert all(m.step == step for m in exercise.mistakes)
    for mistake in exercise.mistakes:  # on top of the solution, the wrong file changes it
        assert mistake.wrong.strip()
        assert exercise.known_wrong[mistake.id] == f"{exercise.solution}\n\n{mistake.wrong}"


def test_a_value_whose_prev_cannot_be_iterated_is_named_not_put_down_as_raised() -> None:
    solution = EXERCISES["value"].solution
    # The solution's __init__, then _prev made a count of the inputs: a number, not a collection.
    counts = (
        "\n\n_init = Value.__init__\n\n\n"
        "def __init__(self, *args, **kwargs):\n"
        "    _init(self, *args, **kwargs)\n"
        "    self._prev = len(self._prev)\n\n\n"
        "Value.__init__ = __init__\n"
    )
    namespace = page_namespace("value", solution + counts)
    result = check("value", namespace)
    assert result.status == "failed"
    assert "`a = Value(2.0)` gave a._prev = 0, which cannot be iterated; expected []." in (
        result.message
    )


def test_inputs_not_kept_by_init_send_the_reader_to_init_not_to_add() -> None:
    solution = EXERCISES["value"].solution
    # The solution's __init__, then _prev made of the inputs' numbers instead of the inputs.
    numbers = (
        "\n\n_init = Value.__init__\n\n\n"
        "def __init__(self, data, _children=(), _op=''):\n"
        "    _init(self, data, _children, _op)\n"
        "    self._prev = set(c.data for c in _children)\n\n\n"
        "Value.__init__ = __init__\n"
    )
    result = check("value", page_namespace("value", solution + numbers))
    assert result.mistake is not None
    assert result.mistake.id == "inputs-not-recorded"
    assert result.part == "Value.__init__"
    assert result.message.startswith("Your `Value.__init__` (step 1's cell, line ")
    assert "c._prev holds [2.0, -3.0]" in result.message


@pytest.mark.parametrize("methods", [("+", "*"), ("+",), ("*",)])
def test_a_solution_that_wraps_other_even_when_it_is_a_value_is_named_so(
    methods: tuple[str, ...],
) -> None:
    # As a reader writes it: `other = Value(other)`, without asking whether other is a Value.
    solution = EXERCISES["value"].solution
    wrapped = solution
    for op in methods:
        line = f"Value(other)\n        return Value(self.data {op} other.data"
        wrapped = wrapped.replace(f"other if isinstance(other, Value) else {line}", line)
    assert wrapped.count("other = Value(other)\n") == len(methods)
    result = check("value", page_namespace("value", wrapped))
    assert result.mistake is not None, result.message
    assert result.mistake.id == "wraps-always", result.message
    part = "Value.__add__" if "+" in methods else "Value.__mul__"
    assert result.part == part
    assert f"your `{part}` wraps other even when it is already a Value" in result.message
    assert "c.data = Value(data=" in result.message
    assert "Inputs not recorded" not in result.message


def test_inputs_not_recorded_does_not_claim_inputs_recorded_in_a_wrapper() -> None:
    # c._prev holds a and a Value whose data is b: the inputs are there, b wrapped; the
    # mistake is the wrap, whichever way the reader's code reaches it.
    namespace = page_namespace("value", EXERCISES["value"].known_wrong["wraps-always"])
    with Guard():
        assert step_value._inputs_not_recorded(namespace) is None


# The step is found from the starter's qualified name (`Value.__init__`), which Python 3.10's code
# objects do not have; the reader's Pyodide has it.
@pytest.mark.one_python
def test_an_earlier_steps_starter_is_named_with_its_step() -> None:
    namespace: dict[str, Any] = {"__builtins__": builtins}
    for number, exercise in enumerate(EXERCISES.values(), start=1):
        run_cell(namespace, exercise.solution if number == 3 else exercise.starter, number)
        if number == 3:
            break
    result = check("backward", namespace)
    assert result.status == "not-done"
    # Step 2's starter holds the latest __init__ (a starter of its own): the one to write.
    assert result.message.startswith('This comes from step 2 "The backward rules": your ')
    assert "`Value.__init__` (step 2's cell, line " in result.message
    assert result.message.endswith(
        "is still the starter's (store data, _prev and _op): write it there first."
    )
