"""The in-browser runner after a crash or a Stop: no recovery loops, true status text.

- A crash keeps what the cell printed before it; the note says which cell
  crashed and what the reader can do; Restart clears every status and the
  crashed session's messages; the next cell's Run then works first time,
  without running the crashed cell again.
- After Stop on an endless loop, Run on a later cell does not run the loop
  again: the cell below that needs the loop's names asks (run it, skip it,
  edit it), and shows a status and a Stop button while it waits.
- Starting Python says "downloading" only when it downloads, and the size it
  names is what that first Run fetches: Python, the run machinery and the
  editor, what the cell's outputs need (viz.js for a drawing) and what the
  runtime's cache keeps for later starts (viz.js, marked); the very files the
  build counted for the cell, as the site's server sent them.
- After the first start (its files copied into the runtime's cache once its
  first cell has run), Python starts again with no connection at all.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from runner_tab import DONE, ENDLESS_LOOP, NESTED_LISTS_FREED, STILL_GOING, TIMINGS, Tab, report
from sitefiles import editor_files, first_run_files

INDEX = "index.html"
NEURON = "neuron.html"
#: Where the runner's files are served from.
RUNNER = "/_static/runner/"
#: What still crashes the runtime (runner_tab.NESTED_LISTS_FREED), after a print.
CRASH = "print('before the crash', flush=True)\n" + NESTED_LISTS_FREED
LOOP = ENDLESS_LOOP


def _megabytes(status: str) -> float:
    found = re.search(r"downloading Python and the runner \(([\d.]+) MB", status)
    assert found, status
    return float(found.group(1))


def test_a_crash_keeps_what_the_cell_printed_and_restart_leaves_no_loop(tab: Tab) -> None:
    tab.run_first_cell(NEURON)
    shown = tab.run_edited(0, CRASH, "crashed", 60_000)
    assert "before the crash" in shown  # what it printed is kept
    assert "Python crashed while running cell 1" in shown
    assert "Restart Python, then Run" in shown

    tab.cell(0).locator("div.runner-crashed button.runner-restart").click()
    tab.page.wait_for_function("['starting', 'ready'].includes(microgradTest.status())")
    states = tab.evaluate("microgradTest.cells().map((c) => c.state)")
    assert states == ["idle"] * len(states), states  # every status of the old session is gone
    assert not tab.evaluate("microgradTest.log().filter((e) => e.level === 'error').length")

    # The next cell runs first time: the crashed cell above does not run again.
    runs = len(tab.evaluate("microgradTest.timings().runs"))
    shown = tab.run_edited(1, "print(1 + 1)", timeout=60_000)
    ran = [r["cell"] for r in tab.evaluate(f"microgradTest.timings().runs.slice({runs})")]
    assert 0 not in ran, ran
    assert "2" in shown.splitlines(), shown
    assert "Not run again: cell 1" in shown, shown
    # A second crash shows this session's messages only.
    tab.run_edited(1, CRASH, "crashed", 60_000)
    details = tab.cell(1).locator(".runner-crash-details").inner_text()
    assert details.count("Pyodide has suffered a fatal error") == 1, details


def test_after_stop_a_later_cell_does_not_run_the_loop_again(tab: Tab) -> None:
    tab.run_first_cell(NEURON)
    tab.edit(0, "from micrograd import Value\n" + LOOP)
    tab.click_run(0)
    tab.cell(0).locator("div.runner-output").get_by_text(STILL_GOING).wait_for()
    tab.cell(0).locator("button.runner-stop").click()
    assert tab.wait_state(0, ("stopped",)) == "stopped"
    assert "Stopped" in tab.output_text(0)
    # A cell that does not need the loop's names runs at once, and says what it left out.
    assert "Not run again: cell 1" in tab.run_edited(1, "print(6 * 7)", timeout=60_000)
    # One that needs them (Value) asks first, with a status and a Stop button while it waits.
    tab.edit(2, "print(Value(2.0) * 3)")
    tab.click_run(2)
    assert tab.wait_state(2, ("waiting",), 60_000) == "waiting"
    assert tab.cell(2).locator("button.runner-stop").is_visible()
    assert "cell 1" in tab.status(2)
    prompt = tab.cell(2).locator(".runner-prompt")
    assert "was stopped" in prompt.inner_text()
    for choice in ("run", "skip", "edit"):
        assert prompt.locator(f"button.runner-prompt-{choice}").count() == 1
    prompt.locator("button.runner-prompt-skip").click()
    assert tab.wait_state(2, DONE, 60_000) == "raised"  # skipped: Value was never defined
    assert "NameError" in tab.output_text(2)
    ran = [r["cell"] for r in tab.evaluate("microgradTest.timings().runs")]
    assert ran.count(0) == 1, ran  # the loop's cell ran once (the run then stopped), never again
    assert not tab.errors, tab.errors


def test_the_status_names_the_download_it_makes_and_only_then(
    tab: Tab, html: Path, served: list[tuple[str, int]], capsys: pytest.CaptureFixture[str]
) -> None:
    tab.open(NEURON)
    entry = int(tab.cell(0).get_attribute("data-micrograd-cell"))
    expected = first_run_files(html, NEURON)[entry]  # what the build counted for the status
    before = len(served)  # the page has loaded: runner.js and the modules it loads with it
    tab.click_run(0)
    tab.page.wait_for_function("microgradTest.cell(0).state === 'starting'")
    status = tab.status(0)
    tab.page.wait_for_function("microgradTest.status() === 'ready'", timeout=60_000)
    tab.wait_state(0, DONE, 60_000)
    # The first Run's download ends when the runtime's cache has kept its copy (python.js).
    tab.page.wait_for_function("'runtimeKept' in microgradTest.timings().phases", timeout=60_000)
    run: dict[str, int] = {}
    for path, size in served[before:]:
        if path.startswith(RUNNER):
            # A file sent again (the cache's copy of one the browser did not keep) is one file.
            run.setdefault(path.removeprefix(RUNNER), size)
    total = sum(run.values())
    TIMINGS["first_run_download_bytes"] = total
    report(capsys, f"first Run: '{status}'; fetched {total:,} bytes in {len(run)} files")
    missing, extra = sorted(expected.keys() - run.keys()), sorted(run.keys() - expected.keys())
    assert run == expected, f"not fetched: {missing}; not counted: {extra}"
    assert any(path.startswith("viz-") for path in run), sorted(run)  # the cell draws its graph
    editor = editor_files()  # Run opens the editor: its CodeMirror comes
    assert any(path in editor for path in run), sorted(run)
    assert abs(_megabytes(status) - total / 1e6) < 0.05, (status, sorted(run))

    # Restart: nothing to download, and the status does not say it does.
    tab.cell(0).locator("button.runner-restart").click()
    tab.click_run(0)
    tab.page.wait_for_function("microgradTest.cell(0).state === 'starting'")
    again = tab.status(0)
    assert "download" not in again, again
    tab.wait_state(0, DONE, 60_000)


def test_after_the_first_start_python_starts_again_offline(tab: Tab) -> None:
    tab.run_first_cell(NEURON)
    # The first start does not wait for the runtime's cache: once a cell has run,
    # the runner copies what Python's start fetched into it (python.js).
    tab.page.wait_for_function("'runtimeKept' in microgradTest.timings().phases")
    tab.context.set_offline(True)
    try:
        started = time.perf_counter()
        tab.cell(0).locator("button.runner-restart").click()
        tab.run_cell(1, timeout=60_000)
        TIMINGS["offline_restart_seconds"] = time.perf_counter() - started
    finally:
        tab.context.set_offline(False)
    assert not tab.errors, tab.errors
