"""Build your own micrograd (docs/build-your-own.md) as its reader meets it.

- The whole track, solved by keyboard alone from a first visit: each step
  first with one of its known mistakes (the result names that mistake, in the
  page and in the live region, its code spans shown as code and said without
  their backticks), a hint, then the book's solution typed in,
  which passes and is shown beside the book's; halfway, a reload keeps the
  reader's code and progress; the finale prints the book's numbers, the
  worked neuron's and the MLP page's table, from the reader's own engine.
- Check answers within 1 s of the press once Python is loaded, for every step
  but training's, on the solution and on each known-wrong program (a test
  marked ``timed``: a time is measured on a machine doing nothing else); the
  times go to artifacts/runner/checks.json (benchmarks/report.py --checks
  keeps them for benchmarks/RESULTS.md).
- In Pyodide as in CPython (tests/checks/test_exercises.py, tests/checks/test_checker_blame.py),
  every known-wrong solution and near miss of book_runtime.features.track.checks gets the same
  result: its mistake, its method and its step, the recursion probes included.
- The audit (axe-core) in every state of a step (failed, a hint shown, the
  solution offered and shown, passed), on a laptop and on a phone, with
  nothing wider than the phone's screen; and Check works offline once the
  page has run a cell.
"""

from __future__ import annotations

import builtins
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from accessibility import audit, describe, unacceptable
from book_runtime.features.track.checks import EXERCISES, Result
from book_runtime.features.track.checks import check as check_in_cpython
from book_runtime.inline_markup import inline_text
from runner_tab import DONE, PAGE_TIMEOUT_MS, Tab, report, wait_saved, where_measured
from sitefiles import ROOT, executed_notebooks_dir

PAGE = "build-your-own.html"
STEPS = list(EXERCISES)
#: The mistake the keyboard run makes first at each step: the issue's examples.
TYPED_MISTAKES = {
    "value": "no-reflected",
    "rules": "overwrite",
    "backward": "recursive-sort",
    "nn": "no-bias",
    "training": "no-zero-grad",
    "finale": "weights-drawn-differently",
}
#: Where the run reloads the page: after this step passed.
RELOAD_AFTER = "backward"
#: Steps whose Check trains a network, and may take longer than CHECK_SECONDS.
TRAINING_STEPS = frozenset({"training"})
#: How soon a Check must answer once Python is loaded (every step but the training ones).
CHECK_SECONDS = 1.0
CHECKS_ARTIFACT = ROOT / "artifacts" / "runner" / "checks.json"
#: The most key presses from one place to the next a reader wants (Tabs along the prose).
MOST_TABS = 40

FOCUS_JS = """() => {
  const el = document.activeElement;
  const cells = Array.from(document.querySelectorAll('div.cell:has(button.runner-run)'));
  return {
    cell: el ? cells.findIndex((c) => c.contains(el)) : -1,
    className: el && typeof el.className === 'string' ? el.className : '',
    inBar: !!(el && el.closest('.runner-bar')),
    inEditor: !!(el && el.closest('.cm-editor')),
    text: el ? (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 60) : '',
  };
}"""


def focus(tab: Tab) -> dict[str, Any]:
    return dict(tab.evaluate(FOCUS_JS))


def press_until(
    tab: Tab, key: str, reached: Callable[[dict[str, Any]], bool], limit: int, what: str
) -> int:
    """Press ``key`` until the focus is where ``reached`` says; how many presses it took."""
    for presses in range(limit + 1):
        where = focus(tab)
        if reached(where):
            return presses
        if where["inEditor"] and key in ("Tab", "Shift+Tab"):
            tab.page.keyboard.press("Escape")  # an editor's Tab indents: Escape, then Tab leaves
        tab.page.keyboard.press(key)
    raise AssertionError(f"{what}: not reached in {limit} presses of {key}: {focus(tab)}")


def to_toolbar(tab: Tab, index: int) -> None:
    """Tab forward to cell ``index``'s toolbar (one Tab stop)."""
    press_until(
        tab, "Tab", lambda f: f["cell"] == index and f["inBar"], MOST_TABS, f"cell {index}'s bar"
    )


def to_button(tab: Tab, name: str) -> None:
    """Move along the focused toolbar with the arrow keys to the button of class ``name``."""
    press_until(tab, "ArrowRight", lambda f: name in f["className"].split(), 8, name)


def to_panel_button(tab: Tab, index: int, name: str) -> None:
    """Tab forward to the button of class ``name`` in cell ``index``'s exercise panel."""
    press_until(
        tab,
        "Tab",
        lambda f: f["cell"] == index and name in f["className"].split(),
        12,
        f"{name} of cell {index}",
    )


def type_code(tab: Tab, index: int, code: str) -> None:
    """From cell ``index``'s bar: into its editor, the code typed in, and back to the bar."""
    if tab.evaluate(f"microgradTest.cell({index}).hasEditor"):
        press_until(tab, "Shift+Tab", lambda f: f["inEditor"], 4, f"cell {index}'s editor")
    else:
        to_button(tab, "runner-edit")
        tab.page.keyboard.press("Enter")
        tab.wait_editor(index)
        assert focus(tab)["inEditor"], focus(tab)
    tab.page.keyboard.press("Control+A")
    tab.page.keyboard.insert_text(code)
    assert tab.evaluate(f"microgradTest.cell({index}).code") == code
    tab.page.keyboard.press("Escape")  # the editor's own Tab indents: Escape, then Tab leaves
    to_toolbar(tab, index)


def check(tab: Tab, index: int) -> dict[str, Any]:
    """Press Check in cell ``index``'s bar; the check's record once it answered."""
    before = len(tab.evaluate("microgradTest.checks()"))
    to_button(tab, "runner-check")
    tab.page.keyboard.press("Enter")
    tab.page.wait_for_function(f"microgradTest.checks().length > {before}", timeout=PAGE_TIMEOUT_MS)
    return dict(tab.evaluate("microgradTest.checks()")[-1])


def panel(tab: Tab, step: str) -> Any:
    return tab.page.locator(f"#mg-exercise-{step}")


def announced(tab: Tab) -> str:
    return str(tab.evaluate("document.querySelector('.runner-announcer').textContent"))


def audited(tab: Tab, where: str) -> None:
    bad = unacceptable(audit(tab.page))
    assert not bad, f"{where}:\n{describe(bad)}"


def progress(tab: Tab) -> str:
    return " ".join(tab.page.locator(".mg-track-progress").inner_text().split())


def why(step: str) -> str:
    """Why the mistake the keyboard run makes at ``step`` gives its numbers, in plain words,
    as CPython's check says it (a finding may say it as the reader made it)."""
    result = _cpython_result(step, EXERCISES[step].known_wrong[TYPED_MISTAKES[step]])
    assert result.mistake is not None, result.message
    return str(result.to_json()["mistake"]["why_text"])


def rendered(tab: Tab, step: str) -> str:
    """What the failed Check's heading and mistake show, once their Markdown is rendered."""
    shown = panel(tab, step).locator(".mg-exercise-verdict, .mg-exercise-mistake")
    assert shown.locator("code").count() > 0, "no code span rendered as <code>"
    return " ".join(shown.all_inner_texts())


def mlp_page_table(html: Path) -> str:
    """What the MLP page's table cell printed at build time."""
    notebook = json.loads((executed_notebooks_dir(html) / "mlp.ipynb").read_text("utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code" and "log.table(every=4)" in "".join(cell["source"]):
            return "".join("".join(o.get("text", "")) for o in cell["outputs"])
    raise AssertionError("the MLP page prints no table")


#: The finale's numbers, printed by the reader's engine after the finale passed.
FINALE_PRINTS = """

o, x1, w1, x2, w2 = neuron(2.0, -3.0, 0.0, 1.0, 6.8813735870195432)
print(f"o = {o.data:.4f}")
print(f"do/dx1 = {x1.grad:.4f}, do/dw1 = {w1.grad:.4f}")
print(f"do/dx2 = {x2.grad:.4f}, do/dw2 = {w2.grad:.4f}")

import random
from micrograd.training_log import TrainingLog

random.seed(1337)
model = MLP(3, [4, 4, 1])
log = TrainingLog()
for step, loss in enumerate(train(model, xs, ys, 20, 0.1)):
    log.record(step, loss, learning_rate=0.1)
print(log.table(every=4))
"""


def test_the_whole_track_by_keyboard_alone(tab: Tab, html: Path) -> None:
    tab.open(PAGE)
    assert tab.cell_count() == len(STEPS)
    assert progress(tab).startswith(f"0 of {len(STEPS)} steps done.")
    assert "Next: step 1" in progress(tab)
    assert f"Step 1, {EXERCISES[STEPS[0]].title}: open" in progress(tab)
    # The skip link leads to the first exercise's bar.
    press_until(tab, "Tab", lambda f: "runner-skip-link" in f["className"], 3, "the skip link")
    tab.page.keyboard.press("Enter")
    assert focus(tab)["cell"] == 0, focus(tab)
    assert focus(tab)["inBar"], focus(tab)
    for index, step in enumerate(STEPS):
        exercise = EXERCISES[step]
        if step == STEPS[STEPS.index(RELOAD_AFTER) + 1]:
            # After the reload, the progress links to the next open step's section.
            press_until(tab, "Tab", lambda f: f["text"].startswith("Next: step"), MOST_TABS, "Next")
            tab.page.keyboard.press("Enter")
            assert tab.page.url.endswith(f"#track-{step}"), tab.page.url
        if index:
            to_toolbar(tab, index)
        if step == STEPS[STEPS.index(RELOAD_AFTER) + 1]:
            # Reloaded: the code typed so far is back in its cells, the progress too.
            for earlier in range(index):
                assert tab.evaluate(f"microgradTest.cell({earlier}).code") == (
                    EXERCISES[STEPS[earlier]].solution
                )
            assert progress(tab).startswith(f"{index} of {len(STEPS)} steps done.")
            assert f"Next: step {index + 1}" in progress(tab)

        # A known mistake first: the result names it (its message's headline), in the page
        # and aloud, and says why under it.
        type_code(tab, index, exercise.known_wrong[TYPED_MISTAKES[step]])
        result = check(tab, index)
        assert result["status"] == "failed", (step, result, panel(tab, step).inner_text())
        assert result["mistake"] == TYPED_MISTAKES[step], panel(tab, step).inner_text()
        assert "`" not in rendered(tab, step), rendered(tab, step)
        assert f"Why: {why(step)}" in rendered(tab, step)
        assert f"Step {index + 1}: Not yet: " in announced(tab)
        assert "`" not in announced(tab), announced(tab)
        assert "The case, to paste into a cell and run" in panel(tab, step).inner_text()
        if index == 0:
            audited(tab, "a step failed")

        # A hint, by keyboard, read out as it appears.
        to_panel_button(tab, index, "mg-exercise-hint")
        tab.page.keyboard.press("Enter")
        hints = len(exercise.hints)
        assert f"Hint 1 of {hints}" in panel(tab, step).inner_text()
        assert f"Hint 1 of {hints}: {inline_text(exercise.hints[0])}" in announced(tab)
        if "`" in exercise.hints[0]:
            assert panel(tab, step).locator(".mg-exercise-hints li code").count() > 0
        if index == 0:
            audited(tab, "a hint shown")
            # The solution: offered after a first Check, shown only once the reader confirms.
            to_panel_button(tab, index, "mg-exercise-solve")
            tab.page.keyboard.press("Enter")
            assert "mg-exercise-yes" in focus(tab)["className"], focus(tab)
            audited(tab, "the solution offered")
            tab.page.keyboard.press("Enter")
            shown = panel(tab, step).locator(".mg-exercise-solution")
            assert shown.is_visible()
            assert exercise.solution.strip() in shown.inner_text()
            audited(tab, "the solution shown")
            tab.page.keyboard.press("Shift+Tab")

        # The book's solution, typed in: it passes, and shows beside the book's.
        press_until(
            tab, "Shift+Tab", lambda f, i=index: f["cell"] == i and f["inBar"], 12, "the bar"
        )
        type_code(tab, index, exercise.solution)
        result = check(tab, index)
        assert result["status"] == "passed", (step, panel(tab, step).inner_text())
        assert f"Passed: step {index + 1}" in announced(tab)
        beside = panel(tab, step).locator(".mg-exercise-beside")
        assert beside.locator("figcaption").all_inner_texts() == [
            "Your code",
            "The book's solution",
        ]
        assert f"{index + 1} of {len(STEPS)} steps done." in progress(tab)
        # The overview marks which: this step done, the next still open.
        assert f"Step {index + 1}, {EXERCISES[step].title}: done" in progress(tab)
        if index + 1 < len(STEPS):
            assert f"Step {index + 2}, {EXERCISES[STEPS[index + 1]].title}: open" in progress(tab)
        if index == 0:
            audited(tab, "a step passed")

        if step == RELOAD_AFTER:
            wait_saved(tab.page)
            tab.page.reload(wait_until="networkidle")

    # The finale's numbers, from the reader's engine, as the book prints them.
    last = len(STEPS) - 1
    type_code(tab, last, EXERCISES["finale"].solution + FINALE_PRINTS)
    to_button(tab, "runner-run")
    tab.page.keyboard.press("Enter")
    assert tab.wait_state(last, DONE, PAGE_TIMEOUT_MS) == "done", tab.output_text(last)
    printed = "".join(o["text"] for o in tab.outputs(last) if o["kind"] == "stream")
    assert printed == EXERCISES["finale"].prints + mlp_page_table(html)
    assert progress(tab).startswith(f"{len(STEPS)} of {len(STEPS)} steps done.")
    assert not tab.errors, tab.errors


def _click_check(tab: Tab, index: int) -> dict[str, Any]:
    """Click Check in cell ``index``; the check's record once it answered."""
    before = len(tab.evaluate("microgradTest.checks()"))
    tab.cell(index).locator("button.runner-check").click()
    tab.page.wait_for_function(f"microgradTest.checks().length > {before}", timeout=PAGE_TIMEOUT_MS)
    return dict(tab.evaluate("microgradTest.checks()")[-1])


@pytest.mark.timed
def test_check_answers_within_a_second_once_python_is_loaded(
    tab: Tab, capsys: pytest.CaptureFixture[str]
) -> None:
    """From the press to the result, every step but training's: the passing Check, and the
    slowest of its known-wrong programs' (a failing Check runs its detectors too)."""
    tab.open(PAGE)
    for index, step in enumerate(STEPS):
        tab.edit(index, EXERCISES[step].solution)
    tab.run_cell(0, timeout=PAGE_TIMEOUT_MS)  # Python loads: the times are of Checks alone
    passing: dict[str, float] = {}
    failing: dict[str, float] = {}
    for index, step in enumerate(STEPS):
        for code in EXERCISES[step].known_wrong.values():
            tab.edit(index, code)
            result = _click_check(tab, index)
            assert result["status"] == "failed", (step, result)
            failing[step] = max(failing.get(step, 0.0), float(result["seconds"]))
        tab.edit(index, EXERCISES[step].solution)
        result = _click_check(tab, index)
        assert result["status"] == "passed", (step, result)
        passing[step] = float(result["seconds"])
        # Run, not only put back: the next step's checks probe this step's methods too.
        tab.run_edited(index, EXERCISES[step].solution, timeout=PAGE_TIMEOUT_MS)
    assert not tab.errors, tab.errors
    measured = {
        **where_measured(tab),
        "target_seconds": CHECK_SECONDS,
        "training_steps": sorted(TRAINING_STEPS),
        # In the order a reader meets the steps (lists: the file's keys are sorted).
        "check_seconds": [[step, passing[step]] for step in STEPS],
        "slowest_failing_seconds": [[step, failing[step]] for step in STEPS],
    }
    CHECKS_ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
    CHECKS_ARTIFACT.write_text(json.dumps(measured, indent=1, sort_keys=True) + "\n")
    report(
        capsys,
        "Check, once Python is loaded (passing; the slowest failing): "
        + ", ".join(f"{step} {passing[step]:.2f} s; {failing[step]:.2f} s" for step in STEPS),
    )
    slow = {
        step: (passing[step], failing[step])
        for step in STEPS
        if step not in TRAINING_STEPS and max(passing[step], failing[step]) > CHECK_SECONDS
    }
    assert not slow, f"Check took longer than {CHECK_SECONDS} s (passing, failing): {slow}"


def _near_misses(step: str) -> dict[str, str]:
    """The step's near misses (tests/checks/fixtures/<step>/near/), each as its cell's code:
    on the solution."""
    folder = ROOT / "tests" / "checks" / "fixtures" / step / "near"
    if not folder.is_dir():
        return {}
    solution = EXERCISES[step].solution
    return {
        f"near/{f.name}": f"{solution}\n\n{f.read_text(encoding='utf-8')}"
        for f in sorted(folder.iterdir(), key=lambda f: f.name)
    }


def _in_cpython(step: str, code: str) -> dict[str, Any]:
    """What CPython's check says of ``code`` in ``step``'s cell, the steps before it solved."""
    result = _cpython_result(step, code)
    mistake = result.mistake.id if result.mistake else None
    return {"status": result.status, "mistake": mistake, "part": result.part, "step": result.step}


def _cpython_result(step: str, code: str) -> Result:
    """CPython's check of ``code`` in ``step``'s cell, the steps before it solved."""
    namespace: dict[str, Any] = {"__builtins__": builtins, "__name__": "__main__"}
    limit = sys.getrecursionlimit()
    try:
        for number, exercise in enumerate(EXERCISES.values(), start=1):
            mine = exercise.id == step
            source = code if mine else exercise.solution
            exec(compile(source, f"<cell {number}>", "exec"), namespace)
            if mine:
                break
        cells = {f"<cell {n}>": s for n, s in enumerate(STEPS, start=1)}
        result = check_in_cpython(step, namespace, cells)
    finally:
        sys.setrecursionlimit(limit)  # a near miss raises the page's limit
    return result


def test_every_known_mistake_and_near_miss_gets_the_same_result_in_the_browser(
    tab: Tab, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pyodide's Python, its small stack included, judges each wrong program as CPython does:
    the same status, the same mistake, the same method and the same step."""
    tab.open(PAGE)
    for index, step in enumerate(STEPS):
        tab.edit(index, EXERCISES[step].solution)
    tab.run_cell(0, timeout=PAGE_TIMEOUT_MS)  # Python loads, and every step's code is in
    judged = {}
    for index, step in enumerate(STEPS):
        programs = {**EXERCISES[step].known_wrong, **_near_misses(step)}
        for name, code in programs.items():
            tab.edit(index, code)
            got = _click_check(tab, index)
            want = _in_cpython(step, code)
            seen = {key: got[key] for key in want}
            if seen != want:  # what the reader is shown
                judged[(step, name)] = (seen, want, tab.cell(index).inner_text()[-600:])
            else:
                judged[(step, name)] = None
        # Run, not only put back: the next step's checks probe this step's methods too, and
        # a cell edited but not run still holds its last program's classes.
        tab.run_edited(index, EXERCISES[step].solution, timeout=PAGE_TIMEOUT_MS)
    wrong = {key: value for key, value in judged.items() if value is not None}
    assert not wrong, f"(step, program) -> (the browser's, CPython's, what is shown): {wrong}"
    assert tab.evaluate("microgradTest.status()") == "ready"
    assert not tab.errors, tab.errors
    report(capsys, f"Check of {len(judged)} wrong programs: each as CPython judges it")


def test_a_step_on_a_phone_in_the_dark_passes_the_audit_in_every_state(tab: Tab) -> None:
    tab.context.add_init_script(
        "localStorage.setItem('mode', 'dark'); localStorage.setItem('theme', 'dark');"
    )
    tab.page.set_viewport_size({"width": 390, "height": 844})
    tab.open(PAGE)
    exercise = EXERCISES["value"]

    def fits(where: str) -> None:
        audited(tab, f"phone, dark: {where}")
        wide = tab.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, f"{where}: the page is {wide} px wider than the phone's screen"

    fits("first visit")
    tab.edit(0, exercise.known_wrong["number-not-wrapped"])
    tab.cell(0).locator("button.runner-check").click()
    tab.page.wait_for_function("microgradTest.checks().length === 1", timeout=PAGE_TIMEOUT_MS)
    fits("a step failed")
    panel(tab, "value").locator(".mg-exercise-hint").click()
    fits("a hint shown")
    panel(tab, "value").locator(".mg-exercise-solve").click()
    fits("the solution offered")
    panel(tab, "value").locator(".mg-exercise-yes").click()
    fits("the solution shown")
    tab.edit(0, exercise.solution)
    tab.cell(0).locator("button.runner-check").click()
    tab.page.wait_for_function("microgradTest.checks().length === 2", timeout=PAGE_TIMEOUT_MS)
    assert tab.evaluate("microgradTest.checks()")[-1]["status"] == "passed"
    fits("a step passed, the two solutions side by side")


def test_check_works_offline_once_the_page_has_run_a_cell(tab: Tab) -> None:
    tab.open(PAGE)
    tab.edit(0, EXERCISES["value"].solution)
    tab.cell(0).locator("button.runner-check").click()
    tab.page.wait_for_function("microgradTest.checks().length === 1", timeout=PAGE_TIMEOUT_MS)
    tab.page.wait_for_function("'runtimeKept' in microgradTest.timings().phases")
    tab.context.set_offline(True)
    try:
        tab.cell(0).locator("button.runner-restart").click()
        tab.cell(0).locator("button.runner-check").click()
        tab.page.wait_for_function("microgradTest.checks().length === 2", timeout=60_000)
    finally:
        tab.context.set_offline(False)
    assert [c["status"] for c in tab.evaluate("microgradTest.checks()")] == ["passed", "passed"]
    assert not tab.errors, tab.errors
