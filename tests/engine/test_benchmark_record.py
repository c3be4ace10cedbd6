"""The recorded benchmark run, and everything that quotes it, say the same numbers.

``benchmarks/RESULTS.json`` is the run that ``nox -s bench -- --record`` kept.
``benchmarks/RESULTS.md`` is written from it (``benchmarks/report.py``), the
README quotes it, and the docs page "Why it's fast" builds its table from it.
After a new record, ``python benchmarks/report.py`` writes RESULTS.md again,
and the README's numbers are edited to the ones these tests name.
"""

from __future__ import annotations

import builtins
import datetime
import importlib.util
import re
import statistics
import types
from pathlib import Path
from typing import Any

import pytest
from pages import DOCS, PageRun, _importer, code_cells

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"


def _report_module() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("bench_report", BENCHMARKS / "report.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


report = _report_module()
RECORD: dict[str, Any] = report.load()


def test_results_md_is_written_from_the_record() -> None:
    written = (BENCHMARKS / "RESULTS.md").read_text(encoding="utf-8")
    expected = report.markdown(
        RECORD,
        report.load_browser(),
        report.load_checks(),
        report.load_nudges(),
        report.load_gpt(),
        report.load_gpt_browser(),
    )
    assert written == expected, "run `python benchmarks/report.py`"


def test_the_gpt_record_trains_microgpts_run_with_every_side_giving_microgpts_losses() -> None:
    gpt = report.load_gpt()
    assert gpt is not None, "run `python benchmarks/report.py --gpt ...`"
    datetime.date.fromisoformat(gpt["date"])
    assert gpt["settings"]["steps"] == len(gpt["losses"]) == 1000  # microgpt's whole run
    assert gpt["verdicts"]["loss_difference_book"]["met"]
    assert gpt["verdicts"]["loss_difference_our_value"]["met"]
    assert gpt["first_and_last_loss"] == [gpt["losses"][0], gpt["losses"][-1]]
    step = gpt["seconds_per_step"]
    lines = report.gpt_lines(gpt)
    assert f"book_speedup: {step['microgpt'] / step['book']:.4g}" in "\n".join(lines)


def test_the_check_times_cover_every_step_in_the_tracks_order_against_the_target() -> None:
    from book_runtime.features.track.checks import EXERCISES

    checks = report.load_checks()
    assert checks is not None, "run `python benchmarks/report.py --checks ...`"
    datetime.date.fromisoformat(checks["date"])
    assert [step for step, _ in checks["check_seconds"]] == list(EXERCISES)
    lines = report.check_lines(checks)
    passing = lines[: len(checks["check_seconds"])]
    for (step, seconds), line in zip(checks["check_seconds"], passing, strict=True):
        assert line.startswith(step)
        assert f"{seconds:.2f} s" in line
        if step in checks["training_steps"]:
            assert "no target" in line
        else:
            assert ("meets" if seconds <= checks["target_seconds"] else "MISSES") in line
    # The slowest failing Check of each step, its detectors run too, within the target also.
    failing = dict(checks["slowest_failing_seconds"])
    assert list(failing) == list(EXERCISES)
    assert all(
        seconds <= checks["target_seconds"]
        for step, seconds in failing.items()
        if step not in checks["training_steps"]
    )
    assert "\n".join(lines) in (BENCHMARKS / "RESULTS.md").read_text(encoding="utf-8")


def test_the_nudge_times_are_kept_with_their_median_against_the_target() -> None:
    nudges = report.load_nudges()
    assert nudges is not None, "run `python benchmarks/report.py --nudges ...`"
    datetime.date.fromisoformat(nudges["date"])
    assert len(nudges["milliseconds"]) == nudges["presses"]
    assert nudges["median_ms"] == statistics.median(nudges["milliseconds"])
    lines = report.nudge_lines(nudges)
    met = nudges["median_ms"] <= report.NUDGE_TARGET_MS
    assert ("meets" if met else "MISSES") in lines[0]
    assert "\n".join(lines) in (BENCHMARKS / "RESULTS.md").read_text(encoding="utf-8")


def test_the_record_says_when_and_on_what_it_was_measured() -> None:
    datetime.date.fromisoformat(RECORD["date"])
    machine = RECORD["machine"]
    assert re.fullmatch(r"3\.\d+\.\d+", machine["python"])
    assert machine["platform"]
    assert machine["processor"]
    assert machine["cpu"]
    assert machine["cpus"] >= 1
    assert RECORD["date"] in report.markdown(RECORD)
    assert f"Python {machine['python']} on {machine['cpu']}" in report.machine(RECORD)


def test_the_records_verdicts_follow_from_its_medians() -> None:
    demo, chain = RECORD["cases"]["moons_demo"], RECORD["cases"]["chain"]
    verdicts = RECORD["verdicts"]
    original = demo["original"]["seconds_per_step"]
    assert verdicts["demo_speedup"]["value"] == original / demo["ours"]["seconds_per_step"]
    paused = original / demo["ours_paused_loop"]["seconds_per_step"]
    assert verdicts["demo_paused_loop_speedup"]["value"] == paused
    ours = chain["ours"]["seconds_per_node"]
    assert verdicts["chain_speedup_vs_original"]["value"] == (
        chain["original"]["seconds_per_node"] / ours
    )
    assert verdicts["chain_speedup_vs_torch"]["value"] == chain["torch"]["seconds_per_node"] / ours
    growth = report.growth(RECORD)
    assert (
        verdicts["cost_per_sample_growth_ours_paused_loop"]["value"] == (growth["ours_paused_loop"])
    )
    for name, verdict in verdicts.items():
        if "target" in verdict and name != "demo_final_loss_difference":
            better = (
                verdict["value"] <= verdict["target"]
                if name.startswith(("cost_per_sample", "bytes"))
                else verdict["value"] >= verdict["target"]
            )
            assert verdict["met"] == better, name


def _readme_quote() -> str:
    """The README's summary of the recorded run, up to the next section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("From the run recorded in")
    end = text.find("\n## ", start)
    return text[start : end if end >= 0 else len(text)]


def _quoted_numbers() -> dict[str, str]:
    """Each number the README quotes from the record, formatted as the README shows it."""
    r, settings, cases = RECORD, RECORD["settings"], RECORD["cases"]
    samples = settings["samples"]
    first, last = str(min(samples)), str(max(samples))
    demo = cases["moons_demo"]
    original = demo["original"]["seconds_per_step"]
    ours = demo["ours"]["seconds_per_step"]
    paused = demo["ours_paused_loop"]["seconds_per_step"]
    chain = {side: v["seconds_per_node"] * 1e6 for side, v in cases["chain"].items()}
    step = cases["moons_step"]
    growth = report.growth(r)
    growth_target = r["verdicts"]["cost_per_sample_growth_ours_paused_loop"]["target"]
    memory = cases["bytes_per_node"]
    return {
        "date": r["date"],
        "python": r["machine"]["python"],
        "cpus": str(r["machine"]["cpus"]),
        "minutes of benchmarks": f"{r['wall_seconds'] / 60:.1f}",
        "demo steps": str(settings["demo_steps"]),
        "demo speed-up": f"{original / ours:.1f}x",
        "demo, original s/step": f"{original:.3f}",
        "demo, ours s/step": f"{ours:.3f}",
        "demo in paused_gc(), speed-up": f"{original / paused:.1f}x",
        "demo in paused_gc(), s/step": f"{paused:.3f}",
        "demo, final loss difference": (
            f"{r['verdicts']['demo_final_loss_difference']['value']:.1e}"
        ),
        "chain depth": f"{settings['chain_depth']:,}",
        "chain, ours us/node": f"{chain['ours']:.2f}",
        "chain, speed-up": f"{chain['original'] / chain['ours']:.1f}x",
        "chain, original us/node": f"{chain['original']:.2f}",
        "chain, speed-up vs torch": f"{chain['torch'] / chain['ours']:.1f}x",
        "chain, torch us/node": f"{chain['torch']:.2f}",
        "paused step, ratio at the smallest size": (
            f"{step[first]['original'] / step[first]['ours_paused_loop']:.1f}x"
        ),
        "paused step, ratio at the largest size": (
            f"{step[last]['original'] / step[last]['ours_paused_loop']:.1f}x"
        ),
        "paused step, growth": f"{growth['ours_paused_loop']:.2f}x",
        "smallest size": first,
        "largest size": last,
        "original, growth": f"{growth['original']:.2f}x",
        "growth target": f"{growth_target:g}x",
        "step, growth": f"{growth['ours']:.2f}x",
        "step, ratio at the smallest size": f"{step[first]['original'] / step[first]['ours']:.1f}x",
        "step, ratio at the largest size": f"{step[last]['original'] / step[last]['ours']:.1f}x",
        "bytes per node, ours": f"{memory['ours']:.0f}",
        "bytes per node, original": f"{memory['original']:.0f}",
        "deep chain links": f"{settings['deep_depth']:,}",
        "deep chain, ours s": f"{cases['deep_chain']['ours']['backward_seconds']:.2f}",
    }


NUMBER = re.compile(r"\d{4}-\d{2}-\d{2}|\d[\d,]*(?:\.\d+)*(?:e[+-]\d+)?x?")


def test_readme_quotes_the_recorded_run() -> None:
    quote = _readme_quote()
    found = NUMBER.findall(quote.replace("paused_gc()", ""))
    expected = _quoted_numbers()
    missing = {name: value for name, value in expected.items() if value not in found}
    assert not missing, f"the README does not quote these numbers of the record: {missing}"
    stray = sorted(set(found) - set(expected.values()))
    assert not stray, f"the README quotes numbers that are not the record's: {stray}"
    met = RECORD["verdicts"]["cost_per_sample_growth_ours_paused_loop"]["met"]
    assert ("is met here" in quote or "meets the target" in quote) == met
    deep = RECORD["cases"]["deep_chain"]["original"]
    if not deep["ok"]:
        assert f"the original stops\n  with `{deep['error'].split(':')[0]}`" in quote
    assert "benchmarks/RESULTS.md" in quote


@pytest.fixture
def in_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DOCS)  # where the build runs the page's cells


@pytest.mark.usefixtures("in_docs")
def test_why_its_fast_builds_its_table_from_the_record() -> None:
    cell = next(c for c in code_cells("why-its-fast") if "bench.load()" in c.source)
    assert "remove-cell" in cell.tags
    run = PageRun()
    namespace: dict[str, Any] = {"__builtins__": {**vars(builtins), "__import__": _importer(run)}}
    exec("from myst_nb import glue", namespace)
    exec(compile(cell.source, "docs/why-its-fast.md", "exec"), namespace)
    glued = run.glued
    assert glued["bench_table"].data == report.markdown_table(RECORD)
    assert glued["bench_notes"].data == report.markdown_notes(RECORD)
    assert glued["bench_date"] == RECORD["date"]
    assert glued["bench_machine"] == report.machine(RECORD)
    demo, steps = RECORD["cases"]["moons_demo"], RECORD["settings"]["demo_steps"]
    assert glued["bench_demo_ours_seconds"] == demo["ours"]["seconds_per_step"] * steps
    page = (DOCS / "why-its-fast.md").read_text(encoding="utf-8")
    assert "```{glue:md} bench_table\n:format: myst\n```" in page


def test_the_table_shows_the_records_ratios() -> None:
    """The page's table, which RESULTS.md shows too, says the ratios the verdicts judge."""
    table = report.markdown_table(RECORD)
    shown = set(re.findall(r"\d+\.\dx", table))
    for name, verdict in RECORD["verdicts"].items():
        if name.endswith(("_speedup", "_vs_original", "_vs_torch")):
            assert f"{verdict['value']:.1f}x" in shown, name
    assert report.text_table(RECORD).startswith(report.PAGE_HEADER[0])
    depth = f"{RECORD['settings']['chain_depth']:,}"
    assert f"depth {depth}" in table


def test_every_numbered_row_of_the_pages_table_says_what_it_measures_above_it() -> None:
    numbers = {case.split()[0] for case, *_ in report.page_rows(RECORD)} - {"final"}
    notes = report.markdown_notes(RECORD)
    assert numbers == {line.split()[1].strip("*") for line in notes.splitlines()}
    assert set(report.PAGE_NOTES) == numbers, "a note for a row the table does not have"
    page = (DOCS / "why-its-fast.md").read_text(encoding="utf-8")
    table = page.index("```{glue:md} bench_table")
    assert page.index("```{glue:md} bench_notes\n:format: myst\n```") < table  # read first


def test_the_hot_path_before_the_last_change_is_measured_in_the_records_run() -> None:
    """``nox -s bench -- --record --before REV``: both sides of the change, alternating."""
    measured = RECORD["cases"]["before_after"]
    assert RECORD["settings"]["before"], "the revision the comparison ran against"
    assert set(measured) == set(report.BEFORE_AFTER)
    lines = report.before_after_lines(RECORD)
    for (name, (title, _, _)), line in zip(report.BEFORE_AFTER.items(), lines[2:], strict=True):
        ratio = measured[name]["ours"] / measured[name]["before"]
        assert line.strip().startswith(title)
        assert line.endswith(f"after/before {ratio:.3f}")
    assert "\n".join(lines) in (BENCHMARKS / "RESULTS.md").read_text(encoding="utf-8")
