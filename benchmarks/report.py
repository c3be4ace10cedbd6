"""The recorded benchmark run: read it, and write it out as tables.

``nox -s bench -- --record`` (``run.py --record``) keeps one run as the
project's record: ``RESULTS.json``, every median, ratio and verdict of the
run with its date and machine, and ``RESULTS.md``, written from it.  The
README quotes the record, and the docs page "Why it's fast" shows its table,
built from the same file, so the three cannot disagree (the tests check it).

The moons training in the reader's browser is measured by a browser test
(``browser_tests/test_live_page.py``, ``nox -s browser -- -k moons_run``),
which writes ``artifacts/runner/live_charts.json``; ``--browser`` keeps that
file as ``RESULTS_BROWSER.json``, and RESULTS.md gets a section from it.
Check on "Build your own micrograd" is timed the same way
(``browser_tests/test_track.py``, ``nox -s browser -- -k check_answers``, which
writes ``artifacts/runner/checks.json``); ``--checks`` keeps that file as
``RESULTS_CHECKS.json``, for a section of its own.  A nudge on the neuron page
(``browser_tests/test_nudge.py``, ``nox -s browser -- -k nudging``, which writes
``artifacts/runner/nudges.json``) is kept by ``--nudges`` as ``RESULTS_NUDGE.json``.

The GPT benchmark (``gpt_run.py``, ``nox -s bench-gpt``, which writes
``results/gpt_latest.json``) is kept by ``--gpt`` as ``RESULTS_GPT.json``; the
training page's full run in the reader's browser (``browser_tests/test_gpt_training.py``,
``nox -s browser -- browser_tests/test_gpt_training.py``, which writes
``artifacts/runner/gpt_training.json``) by ``--gpt-browser`` as ``RESULTS_GPT_BROWSER.json``.
The page "Training on names" quotes the first.

Usage::

    python benchmarks/report.py    # write RESULTS.md again from RESULTS.json
    python benchmarks/report.py --browser artifacts/runner/live_charts.json
    python benchmarks/report.py --checks artifacts/runner/checks.json
    python benchmarks/report.py --nudges artifacts/runner/nudges.json
    python benchmarks/report.py --gpt benchmarks/results/gpt_latest.json
    python benchmarks/report.py --gpt-browser artifacts/runner/gpt_training.json
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: The recorded run, machine-readable.
RECORD = HERE / "RESULTS.json"
#: The recorded run, for people: written from RECORD by :func:`markdown`.
RECORD_MARKDOWN = HERE / "RESULTS.md"
#: The moons training in the reader's browser, as the browser test measured it.
BROWSER_RECORD = HERE / "RESULTS_BROWSER.json"
#: Check on "Build your own micrograd" in the reader's browser, as the browser test timed it.
CHECKS_RECORD = HERE / "RESULTS_CHECKS.json"
#: A nudge on the neuron page in the reader's browser, as the browser test timed it.
NUDGE_RECORD = HERE / "RESULTS_NUDGE.json"
#: The GPT benchmark: microgpt's code against this package's Value and GPT (gpt_run.py).
GPT_RECORD = HERE / "RESULTS_GPT.json"
#: The GPT page's full training run in the reader's browser, as the browser test timed it.
GPT_BROWSER_RECORD = HERE / "RESULTS_GPT_BROWSER.json"
#: The GPT page's full run in the browser is held to this (seconds, once Python is loaded).
GPT_BROWSER_TARGET_SECONDS = 60.0
#: A nudge answers within this, once Python is loaded: the reader sees the output move
#: as they press or drag.
NUDGE_TARGET_MS = 100.0
#: What the browser measurements are held to: what a reader watching a training cell needs.
FIRST_POINT_TARGET_SECONDS = 2.0
INPUT_DELAY_TARGET_MS = 100.0
UPDATE_GAP_TARGET_SECONDS = 1.0


def load(path: Path = RECORD) -> dict[str, Any]:
    """The report of a run, as ``run.py`` wrote it."""
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def load_browser(path: Path = BROWSER_RECORD) -> dict[str, Any] | None:
    """The browser test's measurements, as it wrote them (None if none were kept)."""
    return load(path) if path.is_file() else None


def load_checks(path: Path = CHECKS_RECORD) -> dict[str, Any] | None:
    """The track's Check times, as its browser test wrote them (None if none were kept)."""
    return load(path) if path.is_file() else None


def load_nudges(path: Path = NUDGE_RECORD) -> dict[str, Any] | None:
    """The nudge times, as the browser test wrote them (None if none were kept)."""
    return load(path) if path.is_file() else None


def load_gpt(path: Path = GPT_RECORD) -> dict[str, Any] | None:
    """The GPT benchmark's report, as gpt_run.py wrote it (None if none was kept)."""
    return load(path) if path.is_file() else None


def load_gpt_browser(path: Path = GPT_BROWSER_RECORD) -> dict[str, Any] | None:
    """The GPT page's run in the browser, as its browser test wrote it (None if none was kept)."""
    return load(path) if path.is_file() else None


def growth(report: dict[str, Any]) -> dict[str, float]:
    """Cost per sample of a moons step at the largest size / at the smallest, per side."""
    samples = report["settings"]["samples"]
    step = report["cases"]["moons_step"]
    first, last = str(min(samples)), str(max(samples))
    return {side: step[last][side] / step[first][side] for side in step[first]}


def deep_result(run: dict[str, Any]) -> str:
    """A deep chain's backward: its time in seconds, or the exception that stopped it."""
    return f"{run['backward_seconds']:.2f}" if run["ok"] else run["error"].split(":")[0]


def verdict_lines(report: dict[str, Any]) -> list[str]:
    """One line per target of the performance issue: the measured value, met or not."""
    lines = []
    for name, v in report["verdicts"].items():
        if "met" not in v:
            continue
        met = "met" if v["met"] else "NOT met"
        if isinstance(v["value"], bool):
            lines.append(f"{name}: {v['value']} -> {met}")
        else:
            target = f" (target {v['target']})" if "target" in v else ""
            lines.append(f"{name}: {v['value']:.4g}{target} -> {met}")
    return lines


#: The hot-path cases of a before-and-after comparison (run.py's HOT_PATH):
#: name -> (title, scale to the unit, unit).
BEFORE_AFTER = {
    "chain": ("chain a*c+x, per node", 1e6, "us"),
    "moons_step_paused_loop": ("moons step, 100 samples, paused_gc(): per sample", 1e6, "us"),
    "moons_demo_paused_loop": ("moons demo, paused_gc(): per step", 1.0, "s"),
}


def before_after_lines(report: dict[str, Any]) -> list[str]:
    """The hot path before the change and after it, run alternating ([] for a run without)."""
    measured = report["cases"].get("before_after")
    if measured is None:
        return []
    lines = [
        "",
        f"the hot path before the change ({report['settings']['before']}) and after it,"
        " alternating in this run (medians):",
    ]
    for name, (title, scale, unit) in BEFORE_AFTER.items():
        before, after = measured[name]["before"], measured[name]["ours"]
        lines.append(
            f"  {title}: before {before * scale:,.3f} {unit}, after {after * scale:,.3f} {unit},"
            f" after/before {after / before:.3f}"
        )
    return lines


def text_table(report: dict[str, Any]) -> str:
    """The run as plain text: the table, the verdicts, how often each case ran."""
    table = page_rows(report)
    widths = [max(len(r[i]) for r in [PAGE_HEADER, *table]) for i in range(len(PAGE_HEADER))]

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    lines = [line(PAGE_HEADER), "  ".join("-" * w for w in widths), *map(line, table), ""]
    lines += verdict_lines(report)
    lines += before_after_lines(report)
    settings = report["settings"]
    lines.append(
        f"runs: quick cases and ours in paused_gc() {settings['runs']},"
        f" demo and moons steps {settings['slow_runs']};"
        f" wall time {report['wall_seconds'] / 60:.1f} min"
    )
    return "\n".join(lines)


#: The one table of the run, the docs page's and RESULTS.md's: four narrow columns, so
#: that it fits a phone's column.
PAGE_HEADER = ("case (medians)", "original 0.1.0", "ours", "original / ours")


def page_rows(report: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """The table of the run: units in the case, short numbers, a ratio in the last column.

    PyTorch gets a row of its own, in the original's column, and the final
    losses are shown to seven digits with their exact difference.
    """
    cases, settings = report["cases"], report["settings"]
    demo, chain, steps = cases["moons_demo"], cases["chain"], cases["moons_step"]
    table: list[tuple[str, str, str, str]] = []

    def shown(x: float, digits: int) -> str:
        """A time to three significant digits (so that a ratio can be checked against the
        two numbers beside it), a count to ``digits`` decimals."""
        if digits == 0 or x == 0:
            return f"{x:,.{digits}f}"
        return f"{x:,.{max(0, 2 - math.floor(math.log10(abs(x))))}f}"

    def add(case: str, original: float | None, ours: float, digits: int, to: float = 0) -> None:
        """A row; ``original`` None shows "-" and puts ours against ``to``, the original's."""
        theirs = "-" if original is None else shown(original, digits)
        table.append((case, theirs, shown(ours, digits), f"{(original or to) / ours:.1f}x"))

    first = demo["original"]["seconds_per_step"]
    per_step = {side: demo[side]["seconds_per_step"] for side in ("ours", "ours_paused_loop")}
    demo_steps = f"{settings['demo_steps']} steps"
    add(f"(1) moons demo as written, {demo_steps}: s per step", first, per_step["ours"], 2)
    add("(1b) same, loop in paused_gc(): s per step", None, per_step["ours_paused_loop"], 2, first)
    losses = demo["original"]["final_loss"], demo["ours"]["final_loss"]
    differ = f"differ by {abs(losses[0] - losses[1]):.1e}"
    table.append(("final loss", f"{losses[0]:.7f}", f"{losses[1]:.7f}", differ))
    node = {side: chain[side]["seconds_per_node"] * 1e6 for side in chain}
    torch_version = chain["torch"]["library"].split()[-1].split("+")[0]
    ours, depth = node["ours"], f"depth {settings['chain_depth']:,}"
    add(f"(2) chain a*c+x, {depth}: µs per node", node["original"], ours, 1)
    add(f"(2t) the same chain in PyTorch {torch_version}: µs per node", node["torch"], ours, 1)
    ms = {n: {side: t * 1e3 for side, t in steps[str(n)].items()} for n in settings["samples"]}
    for n, step in ms.items():
        add(f"(3) moons step, {n} samples: ms per sample", step["original"], step["ours"], 1)
    for n, step in ms.items():
        paused = step["ours_paused_loop"]
        add(f"(3b) same in paused_gc(), {n} samples", None, paused, 1, step["original"])
    g, sizes = growth(report), f"{max(settings['samples'])} / {min(settings['samples'])}"
    table += [
        (f"(3) cost per sample, {sizes} samples", f"{g['original']:.2f}x", f"{g['ours']:.2f}x", ""),
        (f"(3b) the same in paused_gc(), {sizes}", "-", f"{g['ours_paused_loop']:.2f}x", ""),
    ]
    mem, deep = cases["bytes_per_node"], cases["deep_chain"]
    add("(4) bytes per graph node", mem["original"], mem["ours"], 0)
    deep_case = f"(5) backward, chain depth {settings['deep_depth']:,}: s"
    table.append((deep_case, deep_result(deep["original"]), deep_result(deep["ours"]), ""))
    return table


def markdown_table(report: dict[str, Any]) -> str:
    """The table of :func:`page_rows` as a Markdown table (for the docs page)."""

    def line(cells: tuple[str, ...]) -> str:
        return "| " + " | ".join(c.strip().replace("|", "\\|") for c in cells) + " |"

    rows_ = page_rows(report)
    return "\n".join([line(PAGE_HEADER), "|---" * len(PAGE_HEADER) + "|", *map(line, rows_)])


#: What each numbered row of :func:`page_rows` measures, for the list above the table.
PAGE_NOTES = {
    "(1)": "the original's moons demo run exactly as written, and the same script on this "
    "package: seconds per training step.",
    "(1b)": "the same demo on this package with its training loop inside `paused_gc()`, a "
    "line the original has no counterpart for; its ratio is against the original's (1).",
    "(2)": "a chain `x = a * c + x`, built and backpropagated: microseconds per node.",
    "(2t)": "the same chain in PyTorch (CPU, one thread, a scalar tensor per value). Its time "
    "stands in the first column, where the original's stands in the other rows, so the last "
    "column says how many times this package is faster than PyTorch on scalars.",
    "(3)": "one training step of the moons network at several data sizes: milliseconds per "
    "sample. The cost-per-sample row divides the largest size's by the smallest's: 1.00x "
    "would mean a sample costs the same however many there are.",
    "(3b)": "the same steps on this package with the loop inside `paused_gc()`; the ratios "
    "are against the original's (3) at the same size.",
    "(4)": "the memory one graph node takes, in bytes.",
    "(5)": "`backward()` through a chain as deep as the row says: seconds, or the exception "
    "that stopped it.",
}


def markdown_notes(report: dict[str, Any]) -> str:
    """What each numbered row of the page's table measures, as a Markdown list.

    Raises
    ------
    KeyError
        If a row's number has no note in :data:`PAGE_NOTES`.
    """
    numbers = dict.fromkeys(case.split()[0] for case, *_ in page_rows(report))
    return "\n".join(
        f"- **{number}** {PAGE_NOTES[number]}" for number in numbers if number.startswith("(")
    )


def machine(report: dict[str, Any]) -> str:
    """The machine of the run, in words: Python, processor, CPUs, operating system."""
    m = report["machine"]
    processor = f"{m['cpu']} ({m['processor']})" if m.get("cpu") else m["processor"]
    cpus = f", {m['cpus']} CPUs" if m.get("cpus") else ""
    return f"Python {m['python']} on {processor}{cpus}, {m['platform']}"


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def browser_lines(browser: dict[str, Any]) -> list[str]:
    """One line per measurement of the moons training in the browser, against its target."""
    first = browser["first_point_seconds"]
    delays = browser["input_delays_ms"]
    gap = browser["longest_gap_between_updates_seconds"]
    slowest = max(delays)
    soon = first <= FIRST_POINT_TARGET_SECONDS
    return [
        f"first point of the live loss curve: {first:.2f} s after Run"
        f" (target {FIRST_POINT_TARGET_SECONDS:g} s) -> {_met(soon)}",
        f"input during the training: handled within {slowest:.1f} ms, median"
        f" {statistics.median(delays):.1f} ms, {len(delays)} presses"
        f" (target {INPUT_DELAY_TARGET_MS:g} ms) -> {_met(slowest <= INPUT_DELAY_TARGET_MS)}",
        f"the page's timers during the training: late by {browser['timer_lag_ms_max']:.1f} ms"
        " at most",
        f"live chart: {browser['live_updates']} drawings, at most {gap:.2f} s apart"
        f" (target {UPDATE_GAP_TARGET_SECONDS:g} s) -> {_met(gap <= UPDATE_GAP_TARGET_SECONDS)}",
        f"moons training, {browser['steps']} steps: {browser['browser_seconds_per_step']:.3f} s"
        f" per step in the browser, {browser['native_seconds_per_step']:.3f} s in CPython"
        f" {browser['native_python']}: {browser['browser_over_native']:.2f}x",
    ]


def browser_markdown(browser: dict[str, Any]) -> str:
    """RESULTS.md's section on the moons training in the reader's browser."""
    return (
        "\n## In the reader's browser\n\n"
        "Measured by `browser_tests/test_live_page.py` (`python -m nox -s browser -- -k"
        " moons_run`) and kept by `python benchmarks/report.py --browser"
        f" artifacts/runner/live_charts.json`, {_browser_machine(browser)}: the moons page's"
        f" training edited to {browser['steps']} steps, run once Python was loaded, the same"
        " cells then run in the test's CPython.\n\n"
        f"```text\n" + "\n".join(browser_lines(browser)) + "\n```\n"
    )


def _browser_machine(record: dict[str, Any]) -> str:
    """Where a browser test measured: the date, Chromium, Pyodide and the machine."""
    m = record["machine"]
    pyodide = record["pyodide"].strip("/").split("-")[-1]
    return (
        f"on {record['date']} in headless Chromium {record['chromium']} with Pyodide"
        f" {pyodide}, on {m['processor']}, {m['cpus']} CPUs, {m['platform']} (load average"
        f" {m['load_average']:.1f})"
    )


def check_lines(checks: dict[str, Any]) -> list[str]:
    """One line per step of the track: its Check's time, against the target."""
    target = checks["target_seconds"]
    lines = []
    for step, seconds in checks["check_seconds"]:
        if step in checks["training_steps"]:
            verdict = "trains a network: no target"
        else:
            verdict = "meets" if seconds <= target else "MISSES"
            verdict += f" the {target:g} s target"
        lines.append(f"{step:<10} {seconds:6.2f} s   {verdict}")
    failing = dict(checks.get("slowest_failing_seconds", []))
    if failing:
        lines += ["", "the slowest Check of a wrong program (its detectors run too):"]
        for step, _ in checks["check_seconds"]:
            if step in failing:
                lines.append(f"{step:<10} {failing[step]:6.2f} s")
    return lines


def checks_markdown(checks: dict[str, Any]) -> str:
    """RESULTS.md's section on Check in "Build your own micrograd", in the reader's browser."""
    return (
        "\n## Check, in the reader's browser\n\n"
        "Measured by `browser_tests/test_track.py` (`python -m nox -s browser -- -k"
        " check_answers`) and kept by `python benchmarks/report.py --checks"
        f" artifacts/runner/checks.json`, {_browser_machine(checks)}. Each time runs from the"
        " press on a step's Check to its result, once Python is loaded, the steps in the"
        " order a reader meets them (the passing Check; then the slowest of each step's"
        " known-wrong programs):\n\n"
        "```text\n" + "\n".join(check_lines(checks)) + "\n```\n"
    )


def nudge_lines(nudges: dict[str, Any]) -> list[str]:
    """The nudge's median time from a key press to the answer drawn, against the target."""
    median = nudges["median_ms"]
    verdict = "meets" if median <= NUDGE_TARGET_MS else "MISSES"
    times = sorted(nudges["milliseconds"])
    return [
        f"median   {median:6.1f} ms   {verdict} the {NUDGE_TARGET_MS:g} ms target",
        f"fastest  {times[0]:6.1f} ms",
        f"slowest  {times[-1]:6.1f} ms   ({len(times)} presses)",
    ]


def nudges_markdown(nudges: dict[str, Any]) -> str:
    """RESULTS.md's section on a nudge of the neuron's w1, in the reader's browser."""
    return (
        "\n## A nudge, in the reader's browser\n\n"
        "Measured by `browser_tests/test_nudge.py` (`python -m nox -s browser -- -k"
        " nudging`) and kept by `python benchmarks/report.py --nudges"
        f" artifacts/runner/nudges.json`, {_browser_machine(nudges)}: on the neuron page,"
        f" once Python was loaded, {nudges['presses']} arrow-key nudges of `w1`, each"
        " answered before the next, timed from the key press to the answer drawn (the"
        " forward pass again and the graph laid out).\n\n"
        "```text\n" + "\n".join(nudge_lines(nudges)) + "\n```\n"
    )


def gpt_lines(gpt: dict[str, Any]) -> list[str]:
    """Each side's time a step and for the whole run, and the verdicts, one line each."""
    steps = gpt["settings"]["steps"]
    names = {
        "microgpt": "microgpt as published, its own Value",
        "microgpt_our_value": "microgpt as published, our Value",
        "book": "this book's GPT (micrograd.gpt)",
    }
    lines = [
        f"{names[side]:<38} {seconds * 1e3:7.1f} ms a step, {seconds * steps:6.1f} s"
        f" for {steps} steps (CPU)"
        for side, seconds in gpt["seconds_per_step"].items()
    ]
    lines.append("")
    for name, verdict in gpt["verdicts"].items():
        comparison = "target" if name.endswith("speedup") else "at most"
        lines.append(
            f"{name}: {verdict['value']:.4g} ({comparison} {verdict['target']:g})"
            f" -> {_met(verdict['met'])}"
        )
    first, last = gpt["first_and_last_loss"]
    lines.append(f"microgpt's loss: {first:.4f} at the first step, {last:.4f} at step {steps}")
    return lines


def gpt_markdown(gpt: dict[str, Any]) -> str:
    """RESULTS.md's section on the GPT benchmark."""
    m = gpt["machine"]
    settings = gpt["settings"]
    return (
        "\n## The GPT\n\n"
        "Measured by `benchmarks/gpt_run.py` (`python -m nox -s bench-gpt -- --steps"
        f" {settings['steps']} --runs {settings['runs']}`) and kept by `python"
        " benchmarks/report.py --gpt benchmarks/results/gpt_latest.json`, on"
        f" {gpt['date']} with Python {m['python']}, {m['cpus']} CPUs, {m['platform']} (load"
        f" average {m['load_average'][0]:.1f}): microgpt's model (strands-microgpt 0.1.0,"
        " its `engine.py`) as published, the same code with this package's `Value` put in"
        " the place of its own, and this package's GPT, each training the same model on the"
        " same names, one process each, the three taking turns of"
        f" {settings['turn_seconds']:g} s (the others paused) so that the shared"
        " machine's load falls on all three alike; a step is timed in its process's CPU"
        " seconds, which a pause or a wait for a busy core does not count; medians of each"
        " run's median step. The speed-ups are microgpt's own time a step over each"
        " side's.\n\n"
        "```text\n" + "\n".join(gpt_lines(gpt)) + "\n```\n"
    )


def gpt_browser_markdown(run: dict[str, Any]) -> str:
    """RESULTS.md's section on the GPT page's full training run in the reader's browser."""
    seconds = run["browser_seconds"]
    met = seconds <= GPT_BROWSER_TARGET_SECONDS
    return (
        "\n## The GPT, in the reader's browser\n\n"
        "Measured by `browser_tests/test_gpt_training.py` (`python -m nox -s browser --"
        " browser_tests/test_gpt_training.py`) and kept by `python benchmarks/report.py"
        f" --gpt-browser artifacts/runner/gpt_training.json`, {_browser_machine(run)}: the"
        f' training cell of "Training on names" edited to {run["steps"]} steps (microgpt\'s'
        " run), from Run to its end, once Python was loaded; the same cell then run in the"
        " test's CPython.\n\n"
        "```text\n"
        f"GPT training, {run['steps']} steps: {seconds:.1f} s in the browser"
        f" (target {GPT_BROWSER_TARGET_SECONDS:g} s) -> {_met(met)}\n"
        f"{run['browser_seconds'] / run['steps'] * 1e3:.1f} ms a step in the browser,"
        f" {run['native_seconds'] / run['steps'] * 1e3:.1f} ms in CPython"
        f" {run['native_python']}: {run['browser_seconds'] / run['native_seconds']:.2f}x\n"
        f"live chart: {run['live_updates']} drawings\n"
        "```\n"
    )


def markdown(
    report: dict[str, Any],
    browser: dict[str, Any] | None = None,
    checks: dict[str, Any] | None = None,
    nudges: dict[str, Any] | None = None,
    gpt: dict[str, Any] | None = None,
    gpt_browser: dict[str, Any] | None = None,
) -> str:
    """``RESULTS.md``: the run's command, date and machine, its table, and the browser's."""
    when = f" on {report['date']}" if "date" in report else ""
    return (
        (
            "# Benchmark results\n\n"
            "Written by `benchmarks/report.py` from `benchmarks/RESULTS.json`, the record of"
            f" one run of\n\n```bash\n{report['settings']['command']}\n```\n\n"
            f"made{when} with {machine(report)}."
            " Absolute times on this machine are noisy; the ratios, measured in the same"
            " run with the two libraries alternating, are what the targets are about.\n\n"
            f"```text\n{text_table(report)}\n```\n"
        )
        + (browser_markdown(browser) if browser is not None else "")
        + (checks_markdown(checks) if checks is not None else "")
        + (nudges_markdown(nudges) if nudges is not None else "")
        + (gpt_markdown(gpt) if gpt is not None else "")
        + (gpt_browser_markdown(gpt_browser) if gpt_browser is not None else "")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write RESULTS.md from the records.")
    parser.add_argument(
        "--browser",
        type=Path,
        help="keep this file (the browser test's live_charts.json) as RESULTS_BROWSER.json",
    )
    parser.add_argument(
        "--checks",
        type=Path,
        help="keep this file (the track's browser test's checks.json) as RESULTS_CHECKS.json",
    )
    parser.add_argument(
        "--nudges",
        type=Path,
        help="keep this file (the nudge's browser test's nudges.json) as RESULTS_NUDGE.json",
    )
    parser.add_argument(
        "--gpt", type=Path, help="keep this file (gpt_run.py's report) as RESULTS_GPT.json"
    )
    parser.add_argument(
        "--gpt-browser",
        type=Path,
        help="keep this file (the GPT page's browser test's gpt_training.json) as"
        " RESULTS_GPT_BROWSER.json",
    )
    args = parser.parse_args(argv)
    kept = (
        (args.browser, BROWSER_RECORD),
        (args.checks, CHECKS_RECORD),
        (args.nudges, NUDGE_RECORD),
        (args.gpt, GPT_RECORD),
        (args.gpt_browser, GPT_BROWSER_RECORD),
    )
    for given, record in kept:
        if given is not None:
            shutil.copyfile(given, record)
            print(f"kept {given} as {record}")
    RECORD_MARKDOWN.write_text(
        markdown(
            load(),
            load_browser(),
            load_checks(),
            load_nudges(),
            load_gpt(),
            load_gpt_browser(),
        ),
        encoding="utf-8",
    )
    print(f"wrote {RECORD_MARKDOWN} from {RECORD}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
