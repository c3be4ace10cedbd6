"""Every cell the site shows runs where it is pasted: its script, and the copy actions.

Each code cell a page shows has a script that runs by itself
(book_runtime.snippets: the cells above it that it needs, then the
cell), which the build writes to ``_sources/<page>/cell-<n>.py`` and into the
page's cell manifest for "Copy as a script".  These tests check that

- every shown cell of every page (build-only ones too) has its script, the
  same text in the download and in the manifest; run in a fresh CPython
  (this session's: micrograd, torch==2.13.0, a ``dot`` on PATH) in an empty
  folder, it exits without error and prints what the cell printed at build
  time (exactly, but for the numbers of declared measurements:
  test_runner.PRINTED_MEASUREMENTS), then what the cell's last value showed
  (its repr, Markdown's text; a drawing's numbers, the text alternative the
  build's drawing carries) or the line that says where its picture went;
  the picture says what the build's says (its words, in order, whichever
  layout program placed them); and its CPU time is no more than the build took
  for the cell and the cells it repeats (their ``execution`` times, which the
  build records), times SLACK, plus what the run itself spent starting Python
  and importing, lazily too (``-X importtime``), and MARGIN.  The closing line
  says how many cells were checked, the longest script, how long it all took
  and how much of its budget a script used (median and most);
- in the browser, "Copy as a script" on the neuron page's backward cell (the
  stepper, which reads the neuron of cell 1) and on the moons training cell,
  reached from Run with the arrow keys and pressed with Enter, puts on the
  clipboard exactly that verified script and says so in the page's live
  region; after the neuron's ``x2`` is edited to 1.0, the copied script is the
  reader's version (``x2 = Value(1.0, ...)``), and run here it gives ``w2``
  the gradient 0.0887; the needs the runner plans with for edited code (the
  worker's analysis of it) are snippets.py's for that code; and the page with its copy
  actions passes the accessibility audit.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from accessibility import audit, describe, unacceptable
from book_runtime import snippets
from bs4 import BeautifulSoup
from conftest import CONTENT_PAGES
from runner_tab import Tab, cell_with, clipboard_once_written, report, run
from sitefiles import MIME_TYPES, executed_notebooks_dir, page_side_files
from test_runner import without_measurements

from micrograd.viz.svg import graph_description

#: How much slower than the build a script may run its cells (another moment, another
#: load on a shared machine, two scripts at a time), and what it may add to that.
SLACK = 2.0
MARGIN_SECONDS = 3.0
#: Scripts run two at a time: this machine has two cores.
WORKERS = 2
#: The ids matplotlib writes into an SVG follow this salt, which every page's setup
#: cell sets (so that two builds draw the same bytes); the scripts run with it too.
BUILD_HASHSALT = "micrograd-book"
#: What the script prints for a picture (snippets.py), by what the build recorded of it.
PICTURES = {
    MIME_TYPES["graphviz"]: ("drawing", "svg", "image/svg+xml"),
    MIME_TYPES["chart"]: ("figure", "svg", "image/svg+xml"),
    MIME_TYPES["stepper"]: ("stepper", "html", "text/html"),
}
NEURON_X2 = 'x2 = Value(0.0, label="x2")'
NOT_COPIED = "<not copied>"
#: Keeps every text the status line of runnable cell ``i`` shows, in window.statuses.
WATCH_STATUS = """(i) => {
  const status = document.querySelectorAll("div.cell:has(button.runner-run)")[i]
    .querySelector(".runner-status");
  window.statuses = [];
  new MutationObserver(() => window.statuses.push(status.textContent))
    .observe(status, {childList: true, characterData: true, subtree: true});
}"""


def _text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


# -- what the build made -----------------------------------------------------------------------


@dataclass
class Shown:
    """A code cell the page shows, as the build executed it, and its script."""

    page: str
    number: int  # "cell 3"
    cell: dict[str, Any]  # from the executed notebook
    script: str
    needed: dict[int, set[str] | None]  # what the script takes of the cells above (snippets.py)
    seconds: float  # the build's time for the cell and the cells it takes whole

    @property
    def name(self) -> str:
        return f"{self.page} cell {self.number}"


def cell_seconds(cell: dict[str, Any]) -> float:
    """How long the build's kernel took to run a cell (its ``execution`` metadata)."""
    ran = cell.get("metadata", {}).get("execution", {})
    if "iopub.execute_input" not in ran or "shell.execute_reply" not in ran:
        pytest.fail("the executed notebooks do not say when each cell ran: build the site again")
    start = datetime.fromisoformat(ran["iopub.execute_input"])
    return (datetime.fromisoformat(ran["shell.execute_reply"]) - start).total_seconds()


def manifest(html: Path, page: str) -> dict[str, Any]:
    soup = BeautifulSoup((html / page).read_text(encoding="utf-8"), "html.parser")
    found = soup.select_one("script#micrograd-cells")
    assert found is not None, f"{page} has no cell manifest"
    return json.loads(found.string or "")  # type: ignore[no-any-return]


def shown_cells(html: Path, page: str) -> list[Shown]:
    """Every code cell ``page`` shows, with its script (the download) and its build time."""
    notebook = executed_notebooks_dir(html) / Path(page).with_suffix(".ipynb")
    if not notebook.is_file():
        return []
    code = [c for c in json.loads(notebook.read_text())["cells"] if c["cell_type"] == "code"]
    entries = manifest(html, page)["cells"]
    found = []
    for index, (entry, cell) in enumerate(zip(entries, code, strict=True)):
        if entry["hidden"]:
            continue
        number = snippets.cell_number(entries, index)
        name = Path(page).with_suffix("").as_posix()
        script = (html / "_sources" / name / f"cell-{number}.py").read_text(encoding="utf-8")
        assert entry["script"] == script, f"{page} cell {number}: the copy is not the download"
        needed = snippets.script_needs(entries, index)
        whole = [c for c, names in needed.items() if names is None]
        seconds = sum(cell_seconds(code[c]) for c in [*whole, index])
        found.append(Shown(page, number, cell, script, needed, seconds))
    return found


def _library_html(text: str) -> str:
    """A picture's HTML as the library makes it: a stepper's without the page's questions.

    The book's kernel follows a stepper's HTML with its predict questions
    (docs/_features/predict/kernel.py); a script, run without the book, writes the
    stepper alone.
    """
    from book_runtime.features.predict.answers import QUESTIONS

    return re.sub(QUESTIONS.pattern + r"\n?", "", text, flags=re.DOTALL)


def expected_output(shown: Shown) -> tuple[str, tuple[str, str, str] | None]:
    """What the script must print, and (file, its text, what it is) for a picture it writes."""
    printed = "".join(
        _text(o["text"])
        for o in shown.cell["outputs"]
        if o["output_type"] == "stream" and o["name"] == "stdout"
    )
    for output in shown.cell["outputs"]:
        if output["output_type"] != "execute_result":
            continue
        recorded = set(output.get("metadata", {}))
        for mime, (word, suffix, data) in PICTURES.items():
            if mime in recorded:
                file = f"{Path(shown.page).stem}-cell-{shown.number}.{suffix}"
                picture = _library_html(_text(output["data"][data]))
                said = f"{word} written to {file}\n"
                if word == "drawing":  # its numbers first, as the page says them in words
                    said = f"{graph_description(picture)}\n{said}"
                return printed + said, (file, picture, word)
        data = output["data"]
        value = data.get("text/markdown", data.get("text/plain"))
        return printed + _text(value) + "\n", None
    return printed, None


# -- running a script --------------------------------------------------------------------------


@dataclass
class Ran:
    shown: Shown
    returncode: int
    stdout: str
    stderr: str
    seconds: float  # wall time
    cpu_seconds: float  # what the budget holds: the work done, whatever else runs
    start_seconds: float  # what the run spent importing (-X importtime), lazy imports too
    picture: str | None  # the text of the file the script wrote, if it should write one


def _timed_run(where: Path, file: str) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """Run ``file`` in ``where`` with a fresh CPython (matplotlib as the build draws).

    Returns what it did, its wall time and its CPU time.  The CPU time is the work the
    script did (its own and that of the programs it ran and waited for, its layout
    program among them: what ``wait4`` reports), which another process on the machine
    does not inflate; the wall time is what a reader waits, reported beside it.  Python
    reports what each import cost (``-X importtime``, on stderr).
    """
    config = where / ".matplotlib"
    config.mkdir(exist_ok=True)
    (config / "matplotlibrc").write_text(f"svg.hashsalt: {BUILD_HASHSALT}\n")
    env = {**os.environ, "MPLBACKEND": "Agg", "MPLCONFIGDIR": str(config)}
    out, err = where / ".stdout", where / ".stderr"
    started = time.perf_counter()
    with out.open("w") as stdout, err.open("w") as stderr:
        child = subprocess.Popen(
            [sys.executable, "-X", "importtime", file],
            cwd=where,
            env=env,
            stdout=stdout,
            stderr=stderr,
        )
        _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    result = subprocess.CompletedProcess(
        child.args, child.returncode, out.read_text(encoding="utf-8"), err.read_text("utf-8")
    )
    return result, seconds, usage.ru_utime + usage.ru_stime


def import_seconds(stderr: str) -> tuple[float, str]:
    """What a ``-X importtime`` run spent importing (its top-level imports' cumulative
    times, lazy ones included), and its stderr without those lines."""
    spent, rest = 0.0, []
    for line in stderr.splitlines(keepends=True):
        if not line.startswith("import time:"):
            rest.append(line)
            continue
        fields = line.split("|")
        if len(fields) == 3 and fields[1].strip().isdigit() and not fields[2].startswith("  "):
            spent += int(fields[1]) / 1e6
    return spent, "".join(rest)


def run_script(shown: Shown) -> Ran:
    """Run the cell's script in an empty folder with a fresh CPython; time it and its start.

    The start is what this run spent importing, the modules its drawing imports when it
    draws among them: the build's kernel had imported them before the cell ran.
    """
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        (where / "cell.py").write_text(shown.script, encoding="utf-8")
        result, seconds, cpu_seconds = _timed_run(where, "cell.py")
        _, expected_picture = expected_output(shown)
        written = where / expected_picture[0] if expected_picture else None
        picture = written.read_text(encoding="utf-8") if written and written.is_file() else None
    start, stderr = import_seconds(result.stderr)
    return Ran(
        shown, result.returncode, result.stdout, stderr, seconds, cpu_seconds, start, picture
    )


def said(picture: str) -> list[str]:
    """What a drawing says, whichever program laid it out: its words in order (its labels,
    tooltips, captions).  The script draws with the reader's program (Graphviz's dot, else
    graphviz-pure), the build with its own: the same words, in other places.  The graph's
    own title is the program's, not the drawing's: older Graphviz names an unnamed graph
    ``%3``, newer ones and graphviz-pure leave it out."""
    picture = re.sub(r"<!--.*?-->", "", picture, flags=re.DOTALL)
    picture = re.sub(r'(<g [^>]*class="graph"[^>]*>\s*)<title>[^<]*</title>', r"\1", picture)
    return re.sub(r"<[^>]*>", " ", picture).split()


def allowed_seconds(ran: Ran) -> float:
    """A script's budget: the build's time for its cells, times SLACK, plus its start."""
    return SLACK * ran.shown.seconds + ran.start_seconds + MARGIN_SECONDS


def problems_of(ran: Ran) -> list[str]:
    """What is wrong with a script's run (nothing, if it ran as its cell did at build time)."""
    shown = ran.shown
    if ran.returncode != 0:
        return [f"{shown.name}: exited with {ran.returncode}:\n{ran.stderr[-2000:]}"]
    found = []
    expected, picture = expected_output(shown)
    page = shown.page
    if without_measurements(page, ran.stdout) != without_measurements(page, expected):
        found.append(f"{shown.name} printed\n{ran.stdout}\nthe build:\n{expected}")
    if picture is not None and (ran.picture is None or said(ran.picture) != said(picture[1])):
        found.append(f"{shown.name}: the {picture[2]} in {picture[0]} is not the build's")
    allowed = allowed_seconds(ran)
    if ran.cpu_seconds > allowed:
        found.append(
            f"{shown.name}: {ran.cpu_seconds:.1f} s of CPU ({ran.seconds:.1f} s on the clock), "
            f"more than {allowed:.1f} s (the build: "
            f"{shown.seconds:.1f} s for it and the cells it repeats; the start: "
            f"{ran.start_seconds:.1f} s)"
        )
    return found


# -- every shown cell of every page ------------------------------------------------------------


# Timed: each script must run about as fast as the build ran its cells, and its time is
# measured with nothing else running (the browser tests of the other worker would slow it).
@pytest.mark.timed
def test_every_shown_cell_runs_alone_as_its_script_and_prints_what_the_build_printed(
    html: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    every = [shown for page in CONTENT_PAGES for shown in shown_cells(html, page)]
    assert every, "no page shows a code cell"
    pages = {shown.page for shown in every}
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        runs = list(pool.map(run_script, every))
    total = time.perf_counter() - started
    longest = max(every, key=lambda shown: shown.script.count("\n"))
    used = sorted(
        ((ran.cpu_seconds / allowed_seconds(ran), ran) for ran in runs), key=lambda u: u[0]
    )
    most = used[-1][1]
    report(
        capsys,
        f"snippets: {len(every)} cells of {len(pages)} pages checked, each alone in a fresh "
        f"Python, in {total:.0f} s; the longest script: {longest.name} "
        f"({longest.script.count(chr(10))} lines); of its budget a script used "
        f"{statistics.median(u for u, _ in used):.0%} (median), at most {used[-1][0]:.0%} "
        f"({most.shown.name}: {most.cpu_seconds:.2f} s of CPU, {most.seconds:.2f} s on the "
        f"clock, of {allowed_seconds(most):.2f} s)",
    )
    problems = [problem for ran in runs for problem in problems_of(ran)]
    assert not problems, "\n\n".join(problems)


# -- in the browser: the copy actions ----------------------------------------------------------


def _clipboard(tab: Tab, server: str) -> None:
    tab.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)


def _copy_as_script_from_run(tab: Tab, index: int) -> str:
    """Reach cell ``index``'s "Copy as a script" from its Run with the arrow keys, press Enter,
    and return what the clipboard then holds."""
    tab.evaluate("(text) => navigator.clipboard.writeText(text)", NOT_COPIED)
    run_button = tab.cell(index).locator("button.runner-run")
    run_button.focus()
    number = tab.evaluate(f"microgradTest.cell({index}).number")
    wanted = tab.page.get_by_role("button", name=f"Copy cell {number} as a script", exact=True)
    presses = 0
    while not wanted.evaluate("(el) => el === document.activeElement"):
        assert presses < 10, "the arrow keys do not reach Copy as a script from Run"
        tab.page.keyboard.press("ArrowRight")
        presses += 1
    tab.page.keyboard.press("Enter")
    copied = clipboard_once_written(tab.page, NOT_COPIED, timeout=120)
    said = tab.evaluate("document.querySelector('.runner-announcer').textContent")
    assert said == f"cell {number}: copied as a script", said
    return copied


def _download(html: Path, page: str, number: int) -> str:
    return (html / "_sources" / Path(page).stem / f"cell-{number}.py").read_text(encoding="utf-8")


def test_copy_as_a_script_copies_the_verified_script_and_after_an_edit_the_readers_version(
    tab: Tab, server: str, html: Path, tmp_path: Path
) -> None:
    _clipboard(tab, server)
    tab.open("moons.html")
    training = cell_with(tab, "steps = 100")
    number = tab.evaluate(f"microgradTest.cell({training}).number")
    assert _copy_as_script_from_run(tab, training) == _download(html, "moons.html", number)
    # Copying the build's script loads nothing beyond the page's own modules (no Python).
    page_side = page_side_files()
    fetched = {urlsplit(url).path.rsplit("/", 1)[1] for url in tab.runtime_requests()}
    assert fetched <= page_side, sorted(fetched - page_side)

    tab.open("neuron.html")
    backward = cell_with(tab, "BackwardStepper(o)")
    number = tab.evaluate(f"microgradTest.cell({backward}).number")
    copied = _copy_as_script_from_run(tab, backward)
    assert copied == _download(html, "neuron.html", number)
    assert "x2 = Value(0.0" in copied  # the neuron, from the cell above that it needs
    findings = unacceptable(audit(tab.page))
    assert not findings, describe(findings)

    neuron = cell_with(tab, NEURON_X2)
    page_code = tab.evaluate(f"microgradTest.cell({neuron}).source")
    tab.edit(neuron, page_code.replace(NEURON_X2, 'x2 = Value(1.0, label="x2")'))
    tab.evaluate(WATCH_STATUS, backward)
    copied = _copy_as_script_from_run(tab, backward)
    said = tab.evaluate("window.statuses")
    assert any("starting Python" in text for text in said), said  # Python was not running
    assert 'x2 = Value(1.0, label="x2")' in copied
    assert "Your edited version" in copied
    script = tmp_path / "copied.py"
    script.write_text(copied + 'print(f"w2.grad = {w2.grad:.4f}")\n', encoding="utf-8")
    ran = subprocess.run(
        [sys.executable, script.name], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines()[-1] == "w2.grad = 0.0887"
    assert "grad 0.0887" in (tmp_path / f"neuron-cell-{number}.html").read_text(encoding="utf-8")

    # What the runner plans with for edited code (the worker's analysis of it, which a Run
    # asks for: the runner keeps no copy of the rule) is snippets.py's rule on that code.
    run(tab, backward)
    entries = manifest(html, "neuron.html")["cells"]
    sources = tab.evaluate("microgradTest.cells().map((c) => c.code)")
    shown_runnable = [e for e in entries if not e["hidden"] and not e["buildOnly"]]
    for entry, source in zip(shown_runnable, sources, strict=True):
        entry["source"] = source
    assert tab.evaluate("microgradTest.needs()") == snippets.runner_needs(entries)
    findings = unacceptable(audit(tab.page))
    assert not findings, describe(findings)
    assert not tab.errors, tab.errors
