"""Editing a cell, as a reader sees it and with the keyboard alone.

- Every runnable cell offers Edit before any Run; the editor (CodeMirror 6)
  opens without loading Python, highlights Python, and says Shift+Enter runs.
- Each control says what it does to which cell ("Run cell 3"), and state
  changes are announced through the page's one polite live region.
- With no mouse event at all: Tab to a cell's Run, run it, open its editor,
  change the code, run it again with Shift+Enter, and get the new result;
  then run the stepper cell and step the reader's stepper to its last frame.
- Reset puts back the page's code and the build's output (on the keyboard's run:
  one Python for both, runner_tab.Walk).
- For a reader who prefers reduced motion, nothing of the runner moves (not
  even the editor's blinking cursor).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from runner_tab import DONE, Tab, Walk
from steppers import STEPPER_STATE_JS

NEURON = "neuron.html"
NEURON_X2 = 'x2 = Value(0.0, label="x2")'
#: The mark on an edited cell's code (docs/_static/runner/cells.js).
EDITED = "Edited: your code, not the page's."
#: Counts every mouse and pointer event the page receives (there must be none).
COUNT_MOUSE = (
    "window.mouseEvents = 0; for (const type of ['mousedown', 'mouseup', 'click', 'pointerdown']) "
    "document.addEventListener(type, (e) => { if (e.detail > 0 || e.pointerType) "
    "window.mouseEvents += 1; }, true);"
)


def tab_to(keyboard: Any, target: Any, what: str) -> None:
    """Press Tab until ``target`` has the focus (at most 400 times)."""
    for _ in range(400):
        keyboard.press("Tab")
        if target.evaluate("(el) => el === document.activeElement"):
            return
    raise AssertionError(f"Tab never reached {what}")


def test_edit_is_offered_before_any_run_and_loads_no_python(tab: Tab) -> None:
    tab.open(NEURON)
    tab.evaluate("document.querySelectorAll('article details').forEach((d) => { d.open = true; })")
    count = tab.cell_count()
    for index in range(count):
        cell = tab.cell(index)
        edit = cell.locator("button.runner-edit")
        assert edit.is_visible()
        number = tab.evaluate(f"microgradTest.cell({index}).number")
        assert edit.get_attribute("aria-label") == f"Edit cell {number}"
        assert cell.locator("button.runner-run").get_attribute("aria-label") == f"Run cell {number}"
    tab.cell(0).locator("button.runner-edit").click()
    tab.wait_editor(0)
    editor = tab.cell(0).locator("div.runner-editor")
    assert editor.is_visible()
    assert "Shift+Enter runs" in tab.cell(0).inner_text()
    # Python highlighting: keywords, strings and numbers are told apart.
    for token in ("tok-keyword", "tok-string", "tok-number"):
        assert editor.locator(f".{token}").count() > 0, token
    # Nothing of Python was fetched to edit.
    fetched = tab.runtime_requests()
    assert not [u for u in fetched if re.search(r"pyodide|\.whl|worker\.js|kernel\.py", u)]
    assert tab.evaluate("microgradTest.status()") == "off"
    assert not tab.errors, tab.errors


def by_keyboard(tab: Tab) -> None:
    """The neuron's first cell run, edited and run again, and the reader's stepper stepped to
    its last frame, by keyboard alone; each step checked on the way."""
    tab.open(NEURON)
    tab.evaluate(COUNT_MOUSE)
    tab.evaluate(
        "window.said = []; new MutationObserver(() => { const r = "
        "document.querySelector('.runner-announcer'); if (r) window.said.push(r.textContent); })"
        ".observe(document.body, {subtree: true, childList: true, characterData: true});"
    )
    keyboard = tab.page.keyboard
    run = tab.cell(0).locator("button.runner-run")
    tab_to(keyboard, run, "the first cell's Run button")
    outline = run.evaluate("(b) => getComputedStyle(b).outlineStyle")
    assert outline != "none", "the focused Run button shows no focus"
    keyboard.press("Enter")
    assert tab.wait_state(0, DONE, 60_000) == "done", tab.output_text(0)
    # Into the editor (Run opened it): Tab from Run goes on to the editor's code.
    run.focus()
    content = tab.cell(0).locator(".cm-content")
    for _ in range(10):
        if content.evaluate("(c) => c === document.activeElement"):
            break
        keyboard.press("Shift+Tab")
    assert content.evaluate("(c) => c === document.activeElement"), "the editor is not reachable"
    keyboard.press("Control+Home")
    source = tab.evaluate("microgradTest.cell(0).code")
    line = source.split("\n").index(NEURON_X2)
    for _ in range(line):
        keyboard.press("ArrowDown")
    keyboard.press("Home")
    keyboard.press("Shift+End")
    keyboard.type('x2 = Value(1.0, label="x2")')
    mark = tab.cell(0).locator(".runner-edited-mark")
    assert mark.inner_text() == EDITED  # above the code, as soon as it is the reader's
    keyboard.press("Shift+Enter")
    tab.page.wait_for_function("microgradTest.timings().runs.length >= 2")
    assert tab.wait_state(0, DONE, 60_000) == "done", tab.output_text(0)
    assert mark.is_visible()  # and after its run, in the same words
    assert mark.inner_text() == EDITED
    dot = next(o["data"] for o in tab.outputs(0) if o["kind"] == "display")
    assert "{ w2 | data 1.0000 | grad 0.0887 }" in dot
    assert tab.evaluate("window.mouseEvents") == 0
    said = tab.evaluate("window.said")
    assert "cell 1: running" in said, said
    assert "cell 1: done" in said, said
    assert "Cell 1 is edited: your code, not the page's." in said, said
    assert tab.page.locator(".runner-announcer[aria-live=polite]").count() == 1
    # (The editor's own region, CodeMirror's, reads out its editing commands.)
    others = ".runner-bar [aria-live], .runner-output[aria-live], .runner-output [aria-live]"
    assert tab.page.locator(others).count() == 0
    # Out of the editor (Escape, then Tab), on to the stepper cell's Run, and
    # through the reader's own stepper to its last frame.
    keyboard.press("Escape")
    sources = tab.evaluate("microgradTest.cells().map((c) => c.source)")
    stepping = next(i for i, code in enumerate(sources) if "BackwardStepper(o)" in code)
    tab_to(keyboard, tab.cell(stepping).locator("button.runner-run"), "the stepper cell's Run")
    keyboard.press("Enter")
    assert tab.wait_state(stepping, DONE, 60_000) == "done", tab.output_text(stepping)
    stepper = tab.cell(stepping).locator("div.runner-output .mg-stepper.mg-ready")
    stepper.wait_for(timeout=60_000)
    tab_to(keyboard, stepper, "the reader's stepper")
    keyboard.press("End")
    state = stepper.evaluate(STEPPER_STATE_JS)
    assert state["shown"] == [state["total"] - 1]
    last = stepper.locator(".mg-stepper-frame.mg-current svg.micrograd-graph text")
    assert "w2 | data 1.0000 | grad 0.0887" in " | ".join(last.all_text_contents())
    assert tab.evaluate("window.mouseEvents") == 0
    assert not tab.errors, tab.errors


def edited_and_run(tab: Tab) -> str:
    """The neuron's first cell run, then edited to ``x2 = 1`` and run: the page's code."""
    tab.run_first_cell(NEURON)
    page_code = str(tab.evaluate("microgradTest.cell(0).source"))
    tab.edit(0, page_code.replace(NEURON_X2, 'x2 = Value(1.0, label="x2")'))
    tab.run_cell(0)
    return page_code


def reset_puts_back(tab: Tab, page_code: str) -> None:
    """Reset on the first cell, edited and run: the page's code and the build's output."""
    reset = tab.cell(0).locator("button.runner-reset")
    assert reset.is_visible()
    reset.click()
    tab.page.wait_for_function("microgradTest.cell(0).outputs.length === 0")
    assert tab.evaluate("microgradTest.cell(0).code") == page_code
    assert tab.cell(0).locator("div.runner-output").count() == 0
    assert tab.cell(0).locator("div.cell_output").is_visible()
    assert not reset.is_visible()
    assert tab.cell(0).locator(".runner-edited-mark").count() == 0
    assert not tab.errors, tab.errors


@pytest.fixture(scope="module")
def edited_neuron(offline_browser: Any, server: str) -> Walk:
    """The neuron's first cell edited and run by keyboard alone (:func:`by_keyboard`), then
    Reset on it: one Python for both.  Were the keyboard's part to fail, Reset is tried on
    a tab of its own, where the cell is edited and run as a reader with a mouse does."""
    tabs = [Tab(offline_browser, server)]
    walk = Walk()
    try:
        walk.step("by keyboard", lambda: by_keyboard(tabs[0]))

        def reset() -> None:
            if isinstance(walk.results["by keyboard"], Exception):
                tabs.append(Tab(offline_browser, server))
                page_code = edited_and_run(tabs[-1])
            else:
                page_code = str(tabs[-1].evaluate("microgradTest.cell(0).source"))
            reset_puts_back(tabs[-1], page_code)

        walk.step("reset", reset)
    finally:
        walk.foreign = [url for tab in tabs for url in tab.foreign]
        for tab in tabs:
            tab.close()
    return walk


def test_a_cell_runs_is_edited_and_runs_again_with_the_keyboard_alone(
    edited_neuron: Walk,
) -> None:
    assert edited_neuron["by keyboard"] is None  # or raises what that part raised
    assert not edited_neuron.foreign, edited_neuron.foreign


def test_reset_puts_back_the_pages_code_and_the_builds_output(edited_neuron: Walk) -> None:
    assert edited_neuron["reset"] is None  # or raises what that part raised
    assert not edited_neuron.foreign, edited_neuron.foreign


#: The runner's elements that move: a CSS animation or a transition.
MOVING = (
    "Array.from(document.querySelectorAll('.runner-bar *, .runner-editor *, .runner-output *'))"
    ".filter((el) => { const s = getComputedStyle(el); return s.animationName !== 'none' "
    "|| parseFloat(s.transitionDuration) > 0; }).map((el) => el.className)"
)


def test_the_runner_keeps_still_for_a_reader_who_prefers_reduced_motion(tab: Tab) -> None:
    tab.open(NEURON)
    tab.cell(0).locator("button.runner-edit").click()
    tab.wait_editor(0)
    tab.cell(0).locator(".cm-content").focus()
    # Otherwise the editor's cursor blinks (an animation)...
    assert tab.evaluate(MOVING), "nothing moves: this test would not see motion"
    # ... and for a reader who prefers reduced motion, nothing of the runner moves.
    tab.page.emulate_media(reduced_motion="reduce")
    tab.cell(0).locator(".cm-content").focus()
    assert tab.evaluate(MOVING) == []
    assert not tab.errors, tab.errors
