"""The in-browser runner follows the page's flow: no silent state, stale outputs marked.

- Every notebook page carries the manifest of all its code cells, hidden ones
  included, as the build executed them (sources, tags, the keys they glue).
- A training cell run again after an edit starts from the state the page
  defines (the cells above that define the model run again, and a note says
  so), not from the model its first run trained; a cell that only reads the
  model does not retrain it.
- After an edited run, every output below that depends on what it changed is
  marked, the build's ("From the build") and earlier runs' alike, and
  ``micrograd:stale`` names those cells and the glue keys of the hidden ones;
  running them again clears the marks.
- The hidden cells right after a cell run right after it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bs4 import BeautifulSoup
from runner_tab import DONE, PAGE_TIMEOUT_MS, Tab
from sitefiles import REMOVED_INPUT_TAGS, executed_notebooks_dir

MOONS = "moons.html"
#: The moons page's runnable cells used here, by what they do: a line of each one's code.
MOONS_CELLS = {
    "data": "X, y = make_moons(",
    "model": "model = MLP(2, [16, 16, 1])",
    "loss": "def loss_and_accuracy(net):",
    "training": "steps = 100",
    "spike": "untrained = MLP(2, [16, 16, 1])",
    "solution": "# Solution",
}
#: The reader's edit of the issue: 30 steps at a constant learning rate of 0.1.
STEPS_30 = ("steps = 100", "steps = 30")
RATE_01 = ("learning_rate = 1.0 - 0.9 * k / steps", "learning_rate = 0.1")
#: Collects every micrograd:stale event's detail on the page.
LISTEN = (
    "window.staleEvents = []; document.addEventListener('micrograd:stale', "
    "(e) => window.staleEvents.push(e.detail));"
)


def _text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def test_every_notebook_page_lists_all_its_code_cells_for_the_runner(
    html: Path, content_page: str
) -> None:
    notebook = executed_notebooks_dir(html) / Path(content_page).with_suffix(".ipynb")
    soup = BeautifulSoup((html / content_page).read_text(encoding="utf-8"), "html.parser")
    found = soup.select("script#micrograd-cells")
    if not notebook.is_file():
        assert not found, "a cell manifest on a page without a notebook"
        return
    assert len(found) == 1
    manifest = json.loads(found[0].string or "")["cells"]
    cells = [c for c in json.loads(notebook.read_text(encoding="utf-8"))["cells"]]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert [entry["source"] for entry in manifest] == [_text(c["source"]) for c in code]
    for entry, cell in zip(manifest, code, strict=True):
        tags = set(cell.get("metadata", {}).get("tags", []))
        assert entry["hidden"] == bool(tags & REMOVED_INPUT_TAGS)
        assert entry["buildOnly"] == ("build-only" in tags)
        glued = [
            o["metadata"]["scrapbook"]["name"]
            for o in cell.get("outputs", [])
            if "scrapbook" in o.get("metadata", {})
        ]
        assert entry["glue"] == glued
        assert "error" not in entry["names"] or entry["buildOnly"], entry["source"]
    # The glued numbers of the text all come from cells the manifest lists.
    side = notebook.with_name(f"{notebook.stem}.glue.json")
    if side.is_file():
        keys = {key for entry in manifest for key in entry["glue"]}
        assert set(json.loads(side.read_text(encoding="utf-8"))) <= keys


def _moons_cells(tab: Tab) -> dict[str, int]:
    """Where the cells of MOONS_CELLS are among the page's runnable cells (by their code)."""
    sources = tab.evaluate("microgradTest.cells().map((c) => c.source)")
    found = {}
    for role, line in MOONS_CELLS.items():
        (found[role],) = [i for i, source in enumerate(sources) if line in source]
    return found


def _edit_training(tab: Tab, training: int) -> None:
    source = tab.evaluate(f"microgradTest.cell({training}).source")
    for old, new in (STEPS_30, RATE_01):
        assert old in source
        source = source.replace(old, new)
    tab.edit(training, source)


def _runs_since(tab: Tab, start: int) -> list[dict[str, Any]]:
    return list(tab.evaluate(f"microgradTest.timings().runs.slice({start})"))


def _table(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines() if re.match(r"\s*\d+\s+\d", line)]


def test_an_edited_training_run_starts_from_the_pages_model_and_says_so(tab: Tab) -> None:
    tab.open(MOONS)
    tab.evaluate(LISTEN)
    cells = _moons_cells(tab)
    data, model, loss, training, spike, solution = (cells[role] for role in MOONS_CELLS)
    tab.click_run(training)
    assert tab.wait_state(training, DONE, PAGE_TIMEOUT_MS) == "done", tab.output_text(training)
    first = _table(tab.output_text(training))
    assert first[0][:2] == ["0", "0.895844"]
    assert first[-1][0] == "99"
    # The hidden cells right after the training glue its numbers: they ran right after it.
    tab.page.wait_for_function("microgradTest.idle()", timeout=PAGE_TIMEOUT_MS)
    runs = _runs_since(tab, 0)
    at = max(i for i, r in enumerate(runs) if r["cell"] == training)
    assert runs[at + 1]["cell"] is None, runs
    assert runs[at + 1]["ok"], runs
    assert not tab.evaluate("window.staleEvents.some((d) => d.cells.length)"), "page order"

    _edit_training(tab, training)
    before = len(_runs_since(tab, 0))
    tab.click_run(training)
    assert tab.wait_state(training, DONE, PAGE_TIMEOUT_MS) == "done", tab.output_text(training)
    shown = tab.output_text(training)
    table = _table(shown)
    # A fresh run: the untrained model's loss at step 0, and the 30-step run's accuracy.
    assert table[0][:2] == ["0", "0.895844"], shown
    assert table[-1][0] == "29", shown
    assert table[-1][2] == "0.9200", shown
    note = tab.cell(training).locator(".runner-rerun").inner_text()
    assert "Re-ran cells 3–4" in note, note
    assert "because this cell's last run changed model" in note, note
    rerun = [r["cell"] for r in _runs_since(tab, before) if r["cell"] is not None]
    assert rerun == [model, loss, training], rerun

    # Below it, what depends on the model or the log is marked: the build's outputs too.
    for index in (spike, solution):
        assert "From the build: run this cell to update it" in tab.cell(index).text_content()
    last = tab.evaluate("window.staleEvents[window.staleEvents.length - 1]")
    assert {spike, solution} <= set(last["cells"]), last
    assert "spike_step" in last["glue"], last
    assert not ({data, model, loss, training} & set(last["cells"])), last

    # The solution reads the trained model: it runs on the reader's model, without
    # retraining.  (The reader's 30 steps leave points misclassified, which the
    # solution's own check then reports.)
    before = len(_runs_since(tab, 0))
    tab.click_run(solution)
    tab.wait_state(solution, DONE, PAGE_TIMEOUT_MS)
    assert "of 100 points have a margin" in tab.output_text(solution)
    ran = [r["cell"] for r in _runs_since(tab, before) if r["cell"] is not None]
    # The spike cell had not run, nor the two plots (they run in the browser too: the loss
    # plot and the decision boundary); the training not again.
    sources = tab.evaluate("microgradTest.cells().map((c) => c.source)")
    plots = [
        i
        for i, code in enumerate(sources)
        if "plot_training(log" in code or "boundary(model" in code
    ]
    assert ran == sorted([spike, *plots, solution]), ran
    before = len(_runs_since(tab, 0))
    tab.click_run(solution)
    tab.wait_state(solution, DONE, PAGE_TIMEOUT_MS)
    assert [r["cell"] for r in _runs_since(tab, before) if r["cell"] is not None] == [solution]
    assert tab.cell(solution).locator(".runner-rerun").count() == 0
    # Both ran after the edit, from its state: neither is marked any more.
    for index in (spike, solution):
        assert "run this cell to update it" not in tab.cell(index).text_content()
    assert not tab.evaluate("window.staleEvents[window.staleEvents.length - 1].cells.length")
    assert not tab.errors, tab.errors


def test_a_reset_brings_back_the_pages_code_and_output_and_the_marks_go(tab: Tab) -> None:
    tab.open(MOONS)
    cells = _moons_cells(tab)
    training, spike, solution = cells["training"], cells["spike"], cells["solution"]
    tab.evaluate(
        "window.resets = []; document.addEventListener('micrograd:reset', "
        "(e) => window.resets.push(e.detail));"
    )
    tab.click_run(training)
    assert tab.wait_state(training, DONE, PAGE_TIMEOUT_MS) == "done"
    _edit_training(tab, training)
    tab.click_run(training)
    assert tab.wait_state(training, DONE, PAGE_TIMEOUT_MS) == "done"
    assert "From the build" in tab.cell(spike).text_content()
    page_code = tab.evaluate(f"microgradTest.cell({training}).source")
    tab.cell(training).locator("button.runner-reset").click()
    tab.page.wait_for_function("window.resets.length === 1")
    assert tab.evaluate(f"microgradTest.cell({training}).code") == page_code
    assert tab.cell(training).locator("div.runner-output").count() == 0
    assert tab.cell(training).locator("div.cell_output").is_visible()
    reset = tab.evaluate("window.resets[0]")
    assert reset["cells"] == [training], reset
    assert "moons_final_loss" in reset["glue"], reset
    # The page is the build's again: nothing below is marked.
    assert tab.page.locator(".runner-stale-note").count() == 0
    # And the next run of a cell that reads the model retrains it with the page's code
    # first: the solution then counts what the build counted.
    built = tab.cell(solution).locator("div.cell_output").text_content() or ""
    tab.click_run(solution)
    assert tab.wait_state(solution, DONE, PAGE_TIMEOUT_MS) == "done"
    counted = tab.output_text(solution)
    assert "Re-ran cells 3–4" in counted, counted
    assert "a Reset put back" in counted, counted
    assert built.strip().splitlines()[0] in counted, (built, counted)
    assert not tab.errors, tab.errors
