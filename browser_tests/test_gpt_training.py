"""The GPT trains in the reader's browser: microgpt's whole run, its loss drawn as it goes.

On "Training on names" (docs/gpt-training.md), the training cell edited to
microgpt's 1,000 steps runs in Pyodide, once Python and the names are loaded.
Stop ends a training run part way: the chart keeps the steps it drew, the
sentences of the whole run are marked out of date, and the page's Python starts
again for the next run.
Its live chart grows while it runs and ends on every step; it prints the same
losses and made-up names as this test's CPython prints for the same cells; and
its time, with this CPython's for the same cells, goes to
artifacts/runner/gpt_training.json, which ``benchmarks/report.py --gpt-browser``
keeps for benchmarks/RESULTS.md (the goal: 60 s or less).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from runner_tab import PAGE_TIMEOUT_MS, Tab, cell_with, edit, report, run, where_measured
from sitefiles import ROOT

PAGE = "gpt-training.html"
#: microgpt's run; the page's build trains fewer steps.
STEPS = 1000
BUILT_STEPS = "steps = 300"
GPT_ARTIFACT = ROOT / "artifacts" / "runner" / "gpt_training.json"

#: The page's cells in this CPython: what they print, and the training cell's seconds.
NATIVE = """
import contextlib, io, json, platform, sys, time
cells = json.load(sys.stdin)
namespace = {"__name__": "__main__"}
with contextlib.redirect_stdout(io.StringIO()):
    exec(cells["before"], namespace)
printed = io.StringIO()
start = time.perf_counter()
with contextlib.redirect_stdout(printed):
    exec(cells["training"], namespace)
seconds = time.perf_counter() - start
print(json.dumps({"printed": printed.getvalue(), "seconds": seconds,
                  "python": platform.python_version()}))
"""


def native_training(before: str, training: str) -> dict[str, Any]:
    cells = json.dumps({"before": before, "training": training})
    done = subprocess.run(
        [sys.executable, "-c", NATIVE],
        input=cells,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return dict(json.loads(done.stdout))


def test_microgpts_whole_run_trains_in_the_browser_drawing_its_loss_and_printing_cpythons_names(
    tab: Tab, capsys: pytest.CaptureFixture[str]
) -> None:
    tab.open(PAGE)
    names = cell_with(tab, "docs = names()")
    run(tab, names)  # Python and the names are loaded: what follows times the training
    training = cell_with(tab, BUILT_STEPS)
    edit(tab, training, (BUILT_STEPS, f"steps = {STEPS}"))
    run(tab, training)

    tab.page.wait_for_function(  # the last drawing (maybe just after the run ended)
        f"microgradTest.liveCharts().some(u => u.cell === {training} && u.points === {STEPS})",
        timeout=PAGE_TIMEOUT_MS,
    )
    updates = tab.evaluate(f"microgradTest.liveCharts().filter(u => u.cell === {training})")
    assert len(updates) > 1, updates  # drawn while it trained, not only at the end
    runs = tab.evaluate("microgradTest.timings().runs")
    browser_seconds = [r["seconds"] for r in runs if r["cell"] == training][-1]
    printed = "".join(o["text"] for o in tab.outputs(training) if o["kind"] == "stream")
    native = native_training(  # the cells as the browser ran them: the reader's edit too
        tab.evaluate(f"microgradTest.cell({names}).code"),
        tab.evaluate(f"microgradTest.cell({training}).code"),
    )
    assert printed == native["printed"]  # the same losses, the same made-up names
    assert f"held-out loss after {STEPS} steps" in printed

    measured = {
        **where_measured(tab),
        "steps": STEPS,
        "browser_seconds": browser_seconds,
        "native_seconds": native["seconds"],
        "native_python": native["python"],
        "live_updates": len(updates),
    }
    GPT_ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
    GPT_ARTIFACT.write_text(json.dumps(measured, indent=1, sort_keys=True) + "\n")
    report(
        capsys,
        f"GPT, {STEPS} steps: {browser_seconds:.1f} s in the browser, "
        f"{native['seconds']:.1f} s in CPython {native['python']}, {len(updates)} drawings",
    )


#: Each glued number and claim of a section, and whether it is marked out of date.
MARKED_JS = """
(section) => Array.from(section.querySelectorAll('span.pasted-text, span.mg-claim'), (e) => ({
  key: e.dataset.glueKey || e.dataset.claimKey,
  stale: e.classList.contains('mg-glue-stale') || e.classList.contains('mg-claim-stale'),
}))
"""


def test_stop_ends_the_training_part_way_and_the_chart_keeps_what_it_drew(tab: Tab) -> None:
    tab.open(PAGE)
    names = cell_with(tab, "docs = names()")
    run(tab, names)
    training = cell_with(tab, BUILT_STEPS)
    tab.click_run(training)
    tab.page.wait_for_function(  # some steps drawn, and the run going on
        f"microgradTest.liveCharts().some(u => u.cell === {training} && u.points >= 20)",
        timeout=PAGE_TIMEOUT_MS,
    )
    tab.cell(training).locator("button.runner-stop").click()
    assert tab.wait_state(training, ("stopped",)) == "stopped"
    live = tab.cell(training).locator("figure.runner-live-chart")
    drawn = int(live.get_attribute("data-points") or 0)
    assert 20 <= drawn < 300, drawn  # what it drew before the Stop, not the whole run
    # The sentences of the whole run no longer follow the chart of its first steps: each
    # number and claim of it is marked so; the benchmark's record, below, still holds.
    the_run = tab.page.locator("section#the-run").evaluate(MARKED_JS)
    assert len(the_run) >= 10, the_run
    # The names held out and the tokens: the names cell's, which ran to its end.
    assert {m["key"] for m in the_run if not m["stale"]} == {"train_held_out", "train_vocab"}
    record = tab.page.locator("section#the-full-run").evaluate(MARKED_JS)
    assert record
    assert [m for m in record if m["stale"]] == []
    run(tab, names)  # a fresh Python runs the page again


def test_an_edit_of_the_steps_leaves_the_benchmarks_record_the_builds_and_current(
    tab: Tab,
) -> None:
    # The record reads the benchmark's file only: no edit of the training makes it out of date.
    tab.open(PAGE)
    run(tab, cell_with(tab, "docs = names()"))
    training = cell_with(tab, BUILT_STEPS)
    edit(tab, training, (BUILT_STEPS, "steps = 20"))
    run(tab, training)
    the_run = tab.page.locator("section#the-run").evaluate(MARKED_JS)
    assert the_run
    assert [m for m in the_run if m["stale"]] == []  # the sentences follow the edited run
    record = tab.page.locator("section#the-full-run")
    assert record.evaluate(MARKED_JS)
    assert [m for m in record.evaluate(MARKED_JS) if m["stale"]] == []
    assert "not re-run" not in record.inner_text()
    assert not tab.errors, tab.errors
