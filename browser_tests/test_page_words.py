"""The page's words follow the reader's run, and the reader's changes last.

A sentence whose truth depends on a value is a claim (docs/_features/claims):
the page shows the wording that is true of the run its cells show, or marks
the sentence.  These tests make the edits a first-time reader made, and read
every claim of the page through its own predicate, as the page's Python
decided it: no test names a sentence, so a new claim is covered by them as
it is written.  Then the reader's changes survive a reload, and "Reset page"
brings back the build's page, exactly.  Tests that ask about the same edit read
one walk through the page (``runner_tab.Walk``): one Python, one run of it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from accessibility import audit, check, describe, unacceptable
from runner_tab import DONE, PAGE_TIMEOUT_MS, Tab, Walk, cell_with, edit, run, wait_saved

#: What every claim span of the page shows: its key, which wording, its marks, and those
#: of the claims after it in its paragraph (claims of one paragraph that carry one mark
#: share it, after the last of them: claims.js).
CLAIMS_JS = """() => {
const all = Array.from(document.querySelectorAll('span.mg-claim[data-claim-key]'));
const block = (el) => el.parentElement
  .closest('p, li, dt, dd, td, th, figcaption, blockquote, div');
const marksOf = (el) => Array.from(el.querySelectorAll(':scope > .mg-claim-mark'),
  (m) => m.textContent);
return all.map((s, k) => {
  const holds = s.querySelector(':scope > .mg-claim-holds');
  const fails = s.querySelector(':scope > .mg-claim-fails');
  const visible = (el) => el !== null && !el.hidden && el.getClientRects().length > 0;
  return {
    key: s.dataset.claimKey,
    holdsShown: visible(holds),
    failsShown: visible(fails),
    hasFails: fails !== null,
    marks: marksOf(s),
    later: all.slice(k + 1).filter((o) => block(o) === block(s)).flatMap(marksOf),
    shown: s.dataset.shown || 'build',
  };
});
}"""

#: Every glued number of the page: its key, what it shows, and how it is marked.
NUMBERS_JS = """() => Array.from(document.querySelectorAll('span.pasted-text[data-glue-key]'),
  (s) => ({key: s.dataset.glueKey, format: s.dataset.glueFormat, shown: s.dataset.shown || 'build',
           note: (s.querySelector('.mg-glue-note') || {}).textContent || null,
           text: s.textContent, html: s.innerHTML}))"""


def false_and_unmarked(tab: Tab) -> list[str]:
    """Every claim or number of the page that says something its run does not, unmarked.

    A claim's truth is its predicate, as the page's Python decided it for
    the reader's run (``microgradTest.prose()``); a claim the reader's run did
    not decide shows the build's wording, which the build checked, and must
    then not be stale unmarked.
    """
    prose = tab.evaluate("microgradTest.prose()")
    wrong = []
    for span in tab.evaluate(CLAIMS_JS):
        state = prose.get(f"claim:{span['key']}", {"value": None, "from": "build", "stale": False})
        verdict, marked = state["value"], bool(span["marks"])
        if state["stale"] or state["from"] == "earlier-run":
            said = ("out of date", "earlier", "not re-run")  # its own, or a later one for both
            if not marked and not any(w in m for m in span["later"] for w in said):
                wrong.append(f"{span['key']}: out of date, unmarked")
        elif verdict is None:
            if not span["holdsShown"] or span["failsShown"]:
                wrong.append(f"{span['key']}: the build's claim, not in the build's wording")
        elif verdict["holds"]:
            if not span["holdsShown"] or span["failsShown"] or marked:
                wrong.append(f"{span['key']}: holds, but does not show its wording")
        elif span["hasFails"] and verdict.get("otherwise", True):
            if not span["failsShown"] or span["holdsShown"]:
                wrong.append(f"{span['key']}: broken, and its other wording is not shown")
        elif not (marked and "not true of your run" in span["marks"][0]):
            wrong.append(f"{span['key']}: broken ({verdict['about']}), unmarked")
    for number in tab.evaluate(NUMBERS_JS):
        state = prose.get(number["key"], {"value": None, "from": "build", "stale": False})
        if number["note"] is not None or not (state["stale"] or state["value"] is not None):
            continue
        # The reader's current number that reads as the build's shows plain (glue.js).
        if state["stale"] or state["value"].get(number["format"]) != number["text"]:
            wrong.append(f"number {number['key']}: the reader's or out of date, unmarked")
    return wrong


def decided(tab: Tab) -> dict[str, dict[str, Any]]:
    """The claims the reader's run decided: key -> {holds, about}."""
    prose = tab.evaluate("microgradTest.prose()")
    return {
        key.removeprefix("claim:"): state["value"]
        for key, state in prose.items()
        if key.startswith("claim:") and state["value"] is not None and not state["stale"]
    }


def run_to_the_end(tab: Tab) -> None:
    """Run the page's last cell before its exercises: every cell above it runs first.

    (An exercise's solution checks the page's own run: after an edit it may
    rightly raise.)
    """
    last = tab.evaluate(
        """() => Array.from(document.querySelectorAll('div.cell:has(button.runner-run)'))
             .map((cell, i) => cell.classList.contains('tag_hide-cell') ? -1 : i)
             .reduce((a, b) => Math.max(a, b), -1)"""
    )
    run(tab, last)


# -- the edits a first-time reader made ----------------------------------------------------


NEURON_X2 = ('x2 = Value(0.0, label="x2")', 'x2 = Value(1.0, label="x2")')


def reload_the_run(tab: Tab, cell: int) -> list[Any]:
    """Reload the page once its run is saved; what the audit finds once ``cell`` is back."""
    tab.page.reload(wait_until="networkidle")
    tab.page.wait_for_function(f"microgradTest.cell({cell}).shows === 'earlier-run'")
    return audit(tab.page)


@pytest.fixture(scope="module")
def neuron_x2(offline_browser: Any, server: str) -> Walk:
    """The neuron edited to ``x2 = 1`` and run; then the page run to its end; then reloaded.

    One walk for the tests of this edit: what its first run decided (and the audit of
    the page then), what the run to the end leaves, and the audit after the reload.
    """
    tab, walk = Tab(offline_browser, server), Walk()
    try:
        tab.open("neuron.html")
        first = cell_with(tab, NEURON_X2[0])
        edit(tab, first, NEURON_X2)
        run(tab, first)
        walk.step(
            "first run",
            lambda: {
                "wrong": false_and_unmarked(tab),
                "decided": decided(tab),
                "state": tab.wait_state(first, DONE, PAGE_TIMEOUT_MS),
                "audit": audit(tab.page),
            },
        )
        walk.step("to the end", lambda: (run_to_the_end(tab), false_and_unmarked(tab))[1])
        walk.step("errors to the end", lambda: list(tab.errors))
        walk.step("reloaded audit", lambda: reload_the_run(tab, first))
    finally:
        walk.foreign = list(tab.foreign)
        tab.close()
    return walk


def test_the_neuron_with_x2_equal_1_says_what_its_run_shows(neuron_x2: Walk) -> None:
    first = neuron_x2["first run"]
    assert first["wrong"] == []
    verdicts = first["decided"]
    assert verdicts["neuron_x2_is_zero"]["holds"] is False  # "w2 has no influence": not now
    assert verdicts["neuron_n_lifted_to_atanh"]["holds"] is False  # "one half": not now
    assert neuron_x2["to the end"] == []
    assert not neuron_x2["errors to the end"], neuron_x2["errors to the end"]
    assert not neuron_x2.foreign, neuron_x2.foreign


MOONS_EDIT = (
    ("steps = 100", "steps = 30"),
    ("learning_rate = 1.0 - 0.9 * k / steps", "learning_rate = 0.1"),
)


#: The moons page's choice prompt (docs/_features/predict/directive.py): does the loss rise or fall?
LOSS_PROMPT = "div.mg-predict-choice[data-key='claim:moons_loss_rises']"


def keep_falls_by_keyboard(tab: Tab) -> dict[str, Any]:
    """The loss prompt's choices and whether its answer waits; then "falls" kept by keyboard."""
    prompt = tab.page.locator(LOSS_PROMPT)
    choices = prompt.locator("input[type=radio]").evaluate_all("(r) => r.map((x) => x.value)")
    waits = prompt.locator(".mg-predict-run-why").is_hidden()  # the answer waits for the run
    prompt.locator("input[value=falls]").focus()
    tab.page.keyboard.press("Space")
    tab.page.keyboard.press("Tab")  # to Keep
    tab.page.keyboard.press("Enter")
    status = prompt.locator(".mg-predict-run-status").text_content() or ""
    # The question is about the reader's edit: the worked answer, in the build's run
    # (a first rate of 1.0, and the loss rises), waits for the reader's.
    still_waits = prompt.locator(".mg-predict-run-why").is_hidden()
    return {"choices": choices, "answer waits": waits, "status": status, "still waits": still_waits}


def judged(tab: Tab) -> dict[str, Any]:
    """What the loss prompt says once the run decided its claim, and what it shows."""
    prompt = tab.page.locator(LOSS_PROMPT)
    why = prompt.locator(".mg-predict-run-why")
    claim = why.locator("span.mg-claim[data-claim-key=moons_loss_rises]")
    return {
        "status": prompt.locator(".mg-predict-run-status").text_content(),
        "why shown": why.is_visible(),
        "fails shown": claim.locator(":scope > .mg-claim-fails").is_visible(),  # "falls"
        "holds hidden": claim.locator(":scope > .mg-claim-holds").is_hidden(),
        "score": prompt.locator(".mg-predict-score").text_content(),
    }


def the_solution_after_the_scratch_run(tab: Tab) -> dict[str, Any]:
    """The scratch cell run on the reader's model; then the solution's state and words."""
    closest = "min(yi * model([Value(a), Value(b)]).data for (a, b), yi in zip(X, y))"
    ran = run_in_scratch(tab, f"print(len(log.rows), {closest}, 'margins' in globals())")
    solution = tab.evaluate(SOLUTION_JS)
    return {
        "scratch": ran,
        "state": tab.state(solution),
        "raised": tab.cell(solution).locator("pre.runner-error").text_content() or "",
        "printed": "".join(o["text"] for o in tab.outputs(solution) if o["kind"] == "stream"),
        "errors": list(tab.errors),
    }


def reset_the_training(tab: Tab, training: int) -> dict[str, Any]:
    """Reset on the training cell; what the page's words then say, and the errors so far."""
    tab.cell(training).locator("button.runner-reset").click()
    tab.page.wait_for_function(f"microgradTest.cell({training}).shows === 'build'")
    return {"wrong": false_and_unmarked(tab), "errors": list(tab.errors)}


@pytest.fixture(scope="module")
def moons_30(offline_browser: Any, server: str) -> Walk:
    """The moons page as a reader takes it: "falls" kept in the loss prompt, the training
    edited to 30 steps at a constant 0.1 and run, the page run to its end, the scratch cell
    run (which runs the solution below the page), then Reset on the training cell."""
    tab, walk = Tab(offline_browser, server), Walk()
    try:
        tab.open("moons.html")
        training = cell_with(tab, "learning_rate = 1.0 - 0.9 * k / steps")
        walk.step("kept", lambda: keep_falls_by_keyboard(tab))
        edit(tab, training, *MOONS_EDIT)
        run(tab, training)
        walk.step("trained", lambda: {"wrong": false_and_unmarked(tab), "decided": decided(tab)})
        walk.step(
            "to the end",
            lambda: (
                run_to_the_end(tab),
                {"wrong": false_and_unmarked(tab), "decided": decided(tab), **judged(tab)},
            )[1],
        )
        walk.step("scratch", lambda: the_solution_after_the_scratch_run(tab))
        walk.step("reset", lambda: reset_the_training(tab, training))
    finally:
        walk.foreign = list(tab.foreign)
        tab.close()
    return walk


def test_the_moons_at_30_steps_and_a_constant_rate_say_what_their_run_shows(
    moons_30: Walk,
) -> None:
    # Its prompt first, by keyboard: "falls" chosen and kept before the run.
    kept = moons_30["kept"]
    assert kept["choices"] == ["rises", "falls"]
    assert kept["answer waits"]
    assert kept["status"].startswith("Kept: falls."), kept["status"]
    assert kept["still waits"]
    trained = moons_30["trained"]
    assert trained["wrong"] == []
    verdicts = trained["decided"]  # the hidden cell after it
    assert verdicts["moons_lr_decays_linearly"]["holds"] is False
    assert verdicts["moons_is_the_demo"]["holds"] is False  # not "reproduced exactly" now
    end = moons_30["to the end"]
    assert end["wrong"] == []
    verdicts = end["decided"]
    assert verdicts["moons_loss_rises"]["holds"] is False  # it falls, at 0.1
    # The prompt judged the choice by the run's claim, with the explanation's sentence in
    # the wording the run made true.
    said = "You predicted “falls”, and your run says “falls”: right."
    assert end["status"] == said
    assert end["why shown"]
    assert end["fails shown"]  # "falls"
    assert end["holds hidden"]
    score = end["score"]
    assert score == "Your predictions on this page: 1 judged, 1 right, 0 close.", score
    assert verdicts["moons_lr_shrinks"]["holds"] is False

    # Reset on the training cell: what was computed from it says it is out of date.
    reset = moons_30["reset"]
    assert reset["wrong"] == []
    assert not reset["errors"], reset["errors"]
    assert not moons_30.foreign, moons_30.foreign


def test_a_moons_run_whose_loss_stays_says_neither_rises_nor_falls(tab: Tab) -> None:
    """At a learning rate of 0 the loss does not move: the page says neither wording,
    and a prediction of "falls" kept before the run is wrong."""
    tab.open("moons.html")
    training = cell_with(tab, "learning_rate = 1.0 - 0.9 * k / steps")
    prompt = tab.page.locator(LOSS_PROMPT)
    prompt.locator("input[value=falls]").check()
    prompt.locator("button", has_text="Keep").click()
    status = prompt.locator(".mg-predict-run-status")
    assert (status.text_content() or "").startswith("Kept: falls."), status.text_content()
    edit(tab, training, ("steps = 100", "steps = 3"), (MOONS_EDIT[1][0], "learning_rate = 0.0"))
    run(tab, training)
    rises = decided(tab)["moons_loss_rises"]
    assert (rises["holds"], rises["otherwise"]) == (False, False), rises
    assert false_and_unmarked(tab) == []
    said = status.text_content() or ""
    assert said.startswith(
        "You predicted “falls”; in your run it neither rises nor falls (from "
    ), said
    claim = prompt.locator(".mg-predict-run-why span.mg-claim[data-claim-key=moons_loss_rises]")
    assert claim.locator(":scope > .mg-claim-fails").is_hidden()  # never "falls"
    assert "not true of your run" in (claim.locator(".mg-claim-mark").text_content() or "")
    score = prompt.locator(".mg-predict-score").text_content()
    assert score == "Your predictions on this page: 1 judged, 0 right, 0 close.", score
    assert not tab.errors, tab.errors


def test_the_mlp_with_sigmoid_hidden_layers_at_0_15_says_what_its_run_shows(tab: Tab) -> None:
    tab.open("mlp.html")
    model = cell_with(tab, 'activation="tanh", output_activation="tanh")\nprint(model)')
    edit(
        tab,
        model,
        ('activation="tanh", output_activation', 'activation="sigmoid", output_activation'),
    )
    # At 0.15 the run without zero_grad() climbs to 8.0 and stays: no peak, no fit on the way.
    training = cell_with(tab, "learning_rate = 0.1\n")
    edit(tab, training, ("learning_rate = 0.1", "learning_rate = 0.15"))
    run_to_the_end(tab)
    assert false_and_unmarked(tab) == []
    verdicts = decided(tab)
    assert verdicts["zg_spike_peaks"]["holds"] is False
    assert verdicts["zg_fit_below"]["holds"] is False
    assert not tab.errors, tab.errors


def test_the_sin_cell_edited_marks_what_pytorch_checked_at_the_build(tab: Tab) -> None:
    tab.open("local-rules.html")
    sin_cell = cell_with(tab, "def sin_backward(out, a):")
    edit(tab, sin_cell, ("y = s * x\n", "y = s * x + x\n"))
    run(tab, sin_cell)
    assert false_and_unmarked(tab) == []
    assert decided(tab)["sin_in_y"]["holds"] is False  # y is no longer sin(x**2) * x
    number = tab.evaluate(f"microgradTest.cell({sin_cell}).number")
    said = f"from the build, not re-run: depends on cell {number}, which you changed"
    torch_cell = tab.page.locator("div.cell:has(.runner-build-only)", has_text="import torch")
    assert torch_cell.locator(".runner-not-rerun").inner_text() == f"F{said[1:]}."
    marks = {span["key"]: span["marks"] for span in tab.evaluate(CLAIMS_JS)}
    assert marks["sin_all_agree"] == [f" [{said}]"]
    assert not tab.errors, tab.errors


def test_why_its_fast_run_in_the_browser_says_what_its_run_shows(tab: Tab) -> None:
    tab.open("why-its-fast.html")
    run_to_the_end(tab)
    assert false_and_unmarked(tab) == []
    verdicts = decided(tab)
    assert {"chain_faster", "paused_faster", "gc_generational"} <= set(verdicts)
    assert not tab.errors, tab.errors


# -- the reader's changes last, and Reset page gives back the build's page -----------------


def page_as_read(tab: Tab) -> dict[str, Any]:
    """What the page shows: every cell's code and output, every number's and claim's HTML."""
    return tab.evaluate(
        """() => ({
          cells: microgradTest.cells().map((c) => ({code: c.code, shows: c.shows})),
          outputs: document.querySelectorAll('.runner-output').length,
          hidden: Array.from(document.querySelectorAll('div.cell_output'), (o) => o.hidden),
          stale: document.querySelectorAll('.runner-stale, .runner-stale-note').length,
          numbers: Array.from(document.querySelectorAll('span.pasted-text'), (s) => s.outerHTML),
          claims: Array.from(document.querySelectorAll('span.mg-claim'), (s) => s.outerHTML),
        })"""
    )


#: The mark on an edited cell's code (docs/_static/runner/cells.js), and what the live
#: region says of it.
EDITED = "Edited: your code, not the page's."
EDITED_SAID = "edited: your code, not the page's."


def edited_mark(tab: Tab, index: int) -> str | None:
    """What marks cell ``index``'s code as the reader's, visible above it (None: nothing)."""
    mark = tab.cell(index).locator(".runner-edited-mark")
    return str(mark.inner_text()) if mark.count() == 1 and mark.is_visible() else None


def test_two_edits_survive_a_reload_marked_and_reset_page_gives_back_the_build(tab: Tab) -> None:
    tab.open("neuron.html")
    built = page_as_read(tab)
    first = cell_with(tab, 'x2 = Value(0.0, label="x2")')
    edit(tab, first, ('x2 = Value(0.0, label="x2")', 'x2 = Value(1.0, label="x2")'))
    run(tab, first)
    printing = cell_with(tab, 'print(f"o = {o2.data:.4f}")')
    edit(tab, printing, ('print(f"o = {o2.data:.4f}")', 'print(f"o is {o2.data:.6f}")'))
    wait_saved(tab.page)
    ran = tab.evaluate(f"microgradTest.cell({first})")
    # Each edited cell's code is marked, the one run and the one only edited alike.
    marked = {i: edited_mark(tab, i) for i in (first, printing)}
    assert marked == {first: EDITED, printing: EDITED}, marked

    tab.page.reload(wait_until="networkidle")
    tab.page.wait_for_function(f"microgradTest.cell({first}).hasEditor")
    tab.page.wait_for_function(f"microgradTest.cell({printing}).hasEditor")
    said = tab.page.locator(".runner-announcer[aria-live=polite]")
    said.filter(has_text="from your last visit").wait_for()  # once all of it is back
    assert {i: edited_mark(tab, i) for i in (first, printing)} == marked  # the same words
    numbers = sorted(tab.evaluate(f"microgradTest.cell({i}).number") for i in (first, printing))
    edits = f"Cells {numbers[0]} and {numbers[1]} are {EDITED_SAID}"
    assert said.inner_text().endswith(edits), said.inner_text()
    again = tab.evaluate(f"microgradTest.cell({first})")
    assert 'x2 = Value(1.0, label="x2")' in again["code"]
    assert again["shows"] == "earlier-run"  # the reader's run, from a Python that is gone
    assert [o["text"] for o in again["outputs"]] == [o["text"] for o in ran["outputs"]]
    label = tab.cell(first).locator(".runner-output-label").inner_text()
    assert label == "Computed in your browser, by an earlier Python session"
    assert 'print(f"o is {o2.data:.6f}")' in tab.evaluate(f"microgradTest.cell({printing}).code")
    assert "back, from your last visit" in tab.page.locator(".runner-page-status").inner_text()
    assert false_and_unmarked(tab) == []

    tab.page.locator("button.runner-reset-page").click()
    tab.page.wait_for_function("microgradTest.cells().every((c) => c.shows === 'build')")
    assert page_as_read(tab) == built
    assert tab.page.locator(".runner-edited-mark").count() == 0
    assert "the build's again" in tab.page.locator(".runner-page-status").inner_text()
    tab.page.reload(wait_until="networkidle")
    assert page_as_read(tab) == built  # nothing of the reader's run is kept after Reset page
    assert not tab.errors, tab.errors


def test_a_window_that_keeps_nothing_says_so_once(tab: Tab) -> None:
    # The book's writes are refused (the theme's own, of its colour mode, still work).
    tab.context.add_init_script(
        "const setItem = Storage.prototype.setItem;"
        "Storage.prototype.setItem = function (key, value) {"
        " if (key.startsWith('micrograd-book:'))"
        "   throw new DOMException('full', 'QuotaExceededError');"
        " return setItem.call(this, key, value); };"
    )
    tab.open("index.html")
    tab.edit(0, "print(42)")
    wait_saved(tab.page)  # the write was tried, and refused
    status = tab.page.locator(".runner-page-status")
    assert "does not keep your changes" in status.inner_text()
    tab.edit(0, "print(43)")
    wait_saved(tab.page)
    assert status.inner_text().count("does not keep") == 1
    assert not tab.errors, tab.errors


def test_a_saved_edit_of_a_cell_the_book_has_changed_since_is_kept_beside_it(tab: Tab) -> None:
    tab.open("neuron.html")
    key = tab.evaluate("`micrograd-book:${location.pathname}`")
    saved = {
        "version": "an older book",
        "cells": [
            {
                "source": "the page's code, as it was",
                "code": "print('my own neuron')",
                "state": "done",
                "detail": "",
                "shows": "run",
                "stale": False,
                "html": "<pre>my own neuron</pre>",
                "outputs": [],
            }
        ],
        "prose": {},
    }
    tab.evaluate("([key, saved]) => localStorage.setItem(key, JSON.stringify(saved))", [key, saved])
    tab.page.reload(wait_until="networkidle")
    note = tab.cell(0).locator(".runner-saved-code")
    assert "the page's code has changed since" in note.inner_text()
    assert "print('my own neuron')" in note.inner_text()
    assert tab.evaluate("microgradTest.cell(0).shows") == "build"  # no run of an older book
    note.locator("button").click()
    tab.page.wait_for_function("microgradTest.cell(0).hasEditor")
    assert tab.evaluate("microgradTest.cell(0).code") == "print('my own neuron')"
    assert not tab.errors, tab.errors


def test_a_claim_marked_on_the_page_passes_the_audit(neuron_x2: Walk) -> None:
    """The page after the ``x2 = 1`` run (claims marked), then reloaded with that run."""
    first = neuron_x2["first run"]
    assert first["state"] == "done"
    bad = unacceptable(first["audit"])
    assert not bad, describe(bad)
    bad = unacceptable(neuron_x2["reloaded audit"])
    assert not bad, describe(bad)
    assert not neuron_x2.foreign, neuron_x2.foreign


# -- the scratch cell: the reader's own code, after the page's --------------------------------

#: The last value of ``o`` the build printed on the neuron page ("o = 0.7071, ...").
BUILD_O_JS = """() => {
  const printed = Array.from(document.querySelectorAll('div.cell_output'), (o) => o.textContent);
  const found = printed.join('\\n').match(/\\bo = (-?\\d+\\.\\d{4})/g);
  return found ? found[found.length - 1].slice(4) : null;
}"""
#: The scratch cell's printed text (stdout may arrive in several pieces) and its box's label.
SCRATCH_JS = """() => {
  const s = microgradTest.scratch();
  const label = document.querySelector('.runner-scratch .runner-output-label');
  return {code: s.code, state: s.state, shows: s.shows, hasEditor: s.hasEditor,
          printed: s.outputs.filter((o) => o.kind === 'stream').map((o) => o.text).join(''),
          label: label ? label.textContent : null};
}"""


def run_in_scratch(tab: Tab, code: str) -> dict[str, Any]:
    """Type ``code`` into the scratch cell, Run it, and return SCRATCH_JS once it settled."""
    region = tab.page.get_by_role("region", name="Try your own code")
    region.get_by_role("button", name="Edit the scratch cell").click()
    tab.page.wait_for_function("microgradTest.scratch().hasEditor")
    region.locator(".cm-content").focus()
    tab.page.keyboard.type(code)
    region.get_by_role("button", name="Run the scratch cell").click()
    tab.page.wait_for_function(
        "['done', 'raised', 'skipped', 'crashed'].includes(microgradTest.scratch().state)",
        timeout=PAGE_TIMEOUT_MS,
    )
    return dict(tab.evaluate(SCRATCH_JS))


#: The text a glued number of the page shows (the build's, before any run), by its key.
GLUED_JS = "(key) => document.querySelector(`span.pasted-text[data-glue-key='${key}']`).textContent"
#: The index of the page's one exercise solution among the runnable cells.
SOLUTION_JS = """() => Array.from(document.querySelectorAll('div.cell:has(button.runner-run)'))
  .findIndex((cell) => cell.classList.contains('tag_hide-cell'))"""


def test_the_scratch_cell_sees_the_neuron_the_page_shows_not_its_solutions(tab: Tab) -> None:
    """The solution below the page rebinds ``w1`` and ``o`` in the hidden cells' namespace:
    the scratch cell still has the page's, and none of the solution's names."""
    tab.open("neuron.html")
    expected = tab.evaluate(GLUED_JS, "neuron_exp_dw1")  # the last shown w1's gradient
    run_to_the_end(tab)
    solution = tab.evaluate(SOLUTION_JS)
    assert solution >= 0
    assert tab.state(solution) == "idle"
    ran = run_in_scratch(tab, "print(f'{w1.grad:.4f}', o._op, 'sigmoid_neuron' in globals())")
    assert tab.state(solution) == "done", "the scratch cell's Run ran the solution above it"
    assert ran["state"] == "done", ran
    assert ran["printed"] == f"{expected} tanh False\n"
    assert not tab.errors, tab.errors


def test_the_scratch_cell_runs_after_the_moons_edit_whose_solution_then_raises(
    moons_30: Walk,
) -> None:
    """At 30 steps and a constant 0.1 the solution's assert fails on the reader's model: the
    cell says so, and the scratch cell runs on, with the reader's model."""
    after = moons_30["scratch"]
    ran = after["scratch"]
    assert after["state"] == "raised", "the solution's assert held on the reader's model"
    assert "AssertionError" in after["raised"], after["raised"]
    assert ran["state"] == "done", ran
    margin = re.search(r"margin (-?[\d.e-]+)\n", after["printed"])
    assert margin is not None, after["printed"]
    assert ran["printed"] == f"30 {margin.group(1)} False\n"  # the model the solution read
    assert not after["errors"], after["errors"]
    assert not moons_30.foreign, moons_30.foreign


def test_the_scratch_cell_runs_after_the_pages_cells_is_kept_and_reset_page_empties_it(
    tab: Tab,
) -> None:
    tab.open("neuron.html")
    region = tab.page.get_by_role("region", name="Try your own code")
    assert region.count() == 1
    assert tab.evaluate(
        "document.querySelector('article.bd-article').lastElementChild.matches('.runner-scratch')"
    ), "the scratch cell is not after the page's last cell"
    # The start page's scratch cell says it in full; here, one line.
    names = region.locator("p.runner-scratch-names").inner_text()
    assert names == "Runs after this page's cells, and sees the names of the cells shown above."
    assert tab.evaluate(SCRATCH_JS)["code"] == ""
    expected = tab.evaluate(BUILD_O_JS)
    assert expected is not None

    ran = run_in_scratch(tab, "print(round(o.data, 4))")
    assert ran["state"] == "done", region.inner_text()
    assert ran["printed"] == f"{expected}\n"
    assert all(c["state"] == "done" for c in tab.evaluate("microgradTest.cells()"))
    stale = "document.querySelectorAll('.runner-stale, .runner-stale-note').length"
    assert tab.evaluate(stale) == 0, "the scratch cell's run marked the page stale"
    said = tab.page.locator(".runner-announcer[aria-live=polite]").inner_text()
    assert said == "the scratch cell: done"
    check(audit(tab.page, ".runner-scratch"), "the scratch cell, run, its editor open")
    wait_saved(tab.page)

    tab.page.reload(wait_until="networkidle")
    tab.page.wait_for_function("microgradTest.scratch().shows !== 'build'")
    again = tab.evaluate(SCRATCH_JS)
    assert again["code"] == "print(round(o.data, 4))"
    assert again["printed"] == ran["printed"]
    assert again["label"] == "Computed in your browser, by an earlier Python session"
    check(audit(tab.page, ".runner-scratch"), "the scratch cell, brought back")
    tab.page.emulate_media(media="print")
    assert not region.is_visible(), "the scratch cell is printed"
    tab.page.emulate_media(media="screen")

    tab.page.locator("button.runner-reset-page").click()
    tab.page.wait_for_function("microgradTest.scratch().shows === 'build'")
    emptied = tab.evaluate(SCRATCH_JS)
    assert (emptied["code"], emptied["printed"], emptied["label"]) == ("", "", None)
    tab.page.reload(wait_until="networkidle")
    assert tab.evaluate(SCRATCH_JS)["code"] == ""
    assert not tab.errors, tab.errors
