"""The page follows the reader's run: steppers and drawings made in the browser.

A stepper cell (micrograd.viz.stepper) runs in the reader's browser and steps
through the reader's own graph, laid out by viz.js in the runner's worker
(docs/_static/runner/worker.js, outputs.js).  In a Chromium that can
reach 127.0.0.1 only, these tests check that

- the neuron edited to ``x2 = 1`` gets a stepper whose frames show ``x2 = 1``
  and whose last frame shows ``w2``'s gradient 0.0887, which its predict questions ask for;
- the "q used twice" pair, run in the browser, parts where the build's does
  and ends on -33/22 (the engine's order) against -3/2 (breadth first);
- at 1366x768 and 390x844, every frame of a stepper made in the browser shows
  its controls, its captions and the node at work together, without scrolling;
- a drawing made in the browser fits the column on a phone, as the build's do
  (test_runner.py, on the run its phone test makes);
- the local-rules page's picture of the chain rule, edited, draws the reader's paths,
  and the number and the sentence about it follow them;
- numbers in the prose follow the reader's run (docs/_features/glue: the kernel
  formats them with its runtime.py, which formats as myst-nb does, a rule
  tests/features/glue/test_glue.py checks without a browser);
- pictures follow the run (outputs.js, live_charts.py): the moons training edited
  to 30 steps draws its loss and accuracy curve as it trains, the loss plot
  and the decision boundary are drawn from the reader's run, and Reset brings
  back the build's page; the mlp page's plots are drawn in the browser from
  the descriptions the build drew with matplotlib.  The moons test measures
  the first point's delay, the page's responsiveness during the training and
  the time per step against this CPython, for benchmarks/RESULTS.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from runner_tab import (
    DONE,
    PAGE_TIMEOUT_MS,
    Tab,
    Walk,
    cell_with,
    edit,
    report,
    run,
    where_measured,
)
from sitefiles import MIME_TYPES, ROOT, executed_notebooks_dir
from steppers import STEPPER_STATE_JS, off_screen_stepping_through

VIEWPORTS = {"laptop": (1366, 768), "phone": (390, 844)}
NEURON_X2 = 'x2 = Value(0.0, label="x2")'
STEPPER_MIME = MIME_TYPES["stepper"]


def browser_stepper(tab: Tab, index: int) -> Any:
    """The stepper cell ``index`` made in the browser, once the page has set it up."""
    stepper = tab.cell(index).locator("div.runner-output .mg-stepper.mg-ready")
    stepper.wait_for(timeout=PAGE_TIMEOUT_MS)
    return stepper


def last_frame_boxes(stepper: Any) -> list[list[str]]:
    """Go to the last frame (End); the text of each of its drawings' boxes, side by side."""
    stepper.focus()
    stepper.page.keyboard.press("End")
    state = stepper.evaluate(STEPPER_STATE_JS)
    assert state["shown"] == [state["total"] - 1]
    sides = stepper.locator(".mg-stepper-frame.mg-current svg.micrograd-graph")
    return [sides.nth(i).locator("text").all_text_contents() for i in range(sides.count())]


def test_the_neuron_edited_to_x2_equal_1_steps_through_the_readers_neuron(tab: Tab) -> None:
    from micrograd import Value

    x1, x2, w1, w2 = Value(2.0), Value(1.0), Value(-3.0), Value(1.0)
    (x1 * w1 + x2 * w2 + Value(6.8813735870195432)).tanh().backward()
    expected = f"{w2.grad:.4f}"
    assert expected == "0.0887"  # what the issue promises the reader

    tab.open("neuron.html")
    edit(tab, 0, (NEURON_X2, 'x2 = Value(1.0, label="x2")'))
    run(tab, 0)
    stepping = cell_with(tab, "BackwardStepper(o)")
    run(tab, stepping)
    stepper = browser_stepper(tab, stepping)
    assert [o["mime"] for o in tab.outputs(stepping)] == [STEPPER_MIME]
    first_frame = stepper.locator(".mg-stepper-frame").first
    first = " | ".join(first_frame.locator("text").all_text_contents())
    assert "x2 | data 1.0000 | grad 0.0000" in first
    (last,) = last_frame_boxes(stepper)
    assert f"w2 | data 1.0000 | grad {expected}" in " | ".join(last)
    # Predict mode asks about the reader's neuron: its questions came with the stepper.
    assert stepper.locator(".mg-predict-switch").count() == 1
    answers = stepper.evaluate(
        """(s) => JSON.parse(s.nextElementSibling.textContent).frames
             .filter(Boolean).flatMap((f) => f.asks).map((a) => [a.input, a.answer])"""
    )
    assert ["w2", expected] in answers, answers
    # The build's stepper (x2 = 0) is not what the reader sees under the cell.
    assert tab.cell(stepping).locator("div.cell_output").is_hidden()
    assert not tab.errors, tab.errors


def stepped_through(tab: Tab, stepper_page: str, code: str) -> Walk:
    """``stepper_page``'s cell holding ``code`` run in ``tab`` (its viewport set), its stepper
    stepped through from Home to the last frame, then shown on its last frame (End)."""
    walk = Walk()
    try:
        tab.open(stepper_page)
        index = cell_with(tab, code)
        run(tab, index)
        stepper = browser_stepper(tab, index)
        walk.step("class", lambda: stepper.get_attribute("class") or "")
        part = stepper.locator(".mg-stepper-frame[data-part] > figcaption")
        walk.step("part", lambda: (part.text_content() or "") if part.count() else "")
        walk.step("off screen", lambda: off_screen_stepping_through(stepper))
        walk.step("last frame", lambda: last_frame_boxes(stepper))
    finally:
        walk.foreign = list(tab.foreign)
        tab.close()
    return walk


@pytest.fixture(scope="module")
def stepped(offline_browser: Any, server: str) -> Callable[[str, str, str], Walk]:
    """``stepped(page, code, viewport)``: :func:`stepped_through` in a new tab of that size,
    once for every test that reads it."""
    cache: dict[tuple[str, str, str], Walk] = {}

    def get(stepper_page: str, code: str, viewport: str) -> Walk:
        if (stepper_page, code, viewport) not in cache:
            tab = Tab(offline_browser, server)
            width, height = VIEWPORTS[viewport]
            tab.page.set_viewport_size({"width": width, "height": height})
            cache[stepper_page, code, viewport] = stepped_through(tab, stepper_page, code)
        return cache[stepper_page, code, viewport]

    return get


def test_the_wrong_order_stepper_in_the_browser_ends_on_minus_3_and_2_the_right_on_minus_33_and_22(
    stepped: Callable[[str, str, str], Walk],
) -> None:
    pair = stepped("backward.html", "StepperPair(", "laptop")
    assert "mg-stepper-pair" in pair["class"]
    assert "Here the orders part: backward() runs r's rule, breadth first runs q's." in pair["part"]
    right, wrong = (" | ".join(side) for side in pair["last frame"])
    assert "a | data 2.0000 | grad -33.0000" in right
    assert "b | data -3.0000 | grad 22.0000" in right
    assert "a | data 2.0000 | grad -3.0000" in wrong
    assert "b | data -3.0000 | grad 2.0000" in wrong
    assert not pair.foreign, pair.foreign


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize(
    ("stepper_page", "code"),
    [("neuron.html", "BackwardStepper(o)"), ("backward.html", "StepperPair(")],
)
def test_every_frame_of_a_stepper_made_in_the_browser_shows_controls_captions_and_active_node(
    stepped: Callable[[str, str, str], Walk], viewport: str, stepper_page: str, code: str
) -> None:
    walk = stepped(stepper_page, code, viewport)
    problems = walk["off screen"]
    assert not problems, "\n".join(problems)
    assert not walk.foreign, walk.foreign


#: How a stepper lays out its current frame: its width, its buttons' height (one row or
#: two), each shown drawing's width (CSS px), and whether a view crops it (a phone's
#: window too short to hold it whole at a size to read).
FIT_JS = """(stepper) => {
  const views = Array.from(
    stepper.querySelectorAll('.mg-stepper-frame.mg-current .mg-stepper-view'),
  ).filter((view) => view.getClientRects().length);
  const width = (view) => Math.round(view.firstElementChild.getBoundingClientRect().width);
  const controls = stepper.querySelector(':scope > .mg-stepper-controls');
  return {width: Math.round(stepper.getBoundingClientRect().width),
          controls: Math.round(controls.getBoundingClientRect().height),
          widths: views.map(width),
          cropped: views.some((view) => view.classList.contains('mg-cropped'))};
}"""


@pytest.mark.parametrize(
    ("stepper_page", "code", "viewport"),
    [("backward.html", "StepperPair(", "phone"), ("neuron.html", "BackwardStepper(o)", "laptop")],
)
def test_a_stepper_made_in_the_browser_is_laid_out_as_the_builds_is(
    tab: Tab, stepper_page: str, code: str, viewport: str
) -> None:
    # Under the output's side rule, 15 px narrower: on a phone the pair's words wrapped onto
    # more lines, and the window no longer held its drawing whole (it was cropped in a box
    # of its own); on a laptop the neuron's buttons wrapped onto two rows.
    width, height = VIEWPORTS[viewport]
    tab.page.set_viewport_size({"width": width, "height": height})
    tab.open(stepper_page)
    index = cell_with(tab, code)
    built = tab.cell(index).locator("div.cell_output .mg-stepper.mg-ready").evaluate(FIT_JS)
    assert built["widths"], built
    assert not built["cropped"], built
    run(tab, index)
    made = browser_stepper(tab, index).evaluate(FIT_JS)
    assert made == built
    assert not tab.errors, tab.errors


# -- numbers in the prose ---------------------------------------------------------------------

SPANS_JS = """() => Array.from(document.querySelectorAll('span.pasted-text[data-glue-key]'),
  (s) => ({key: s.dataset.glueKey, format: s.dataset.glueFormat, html: s.outerHTML,
           text: s.firstChild ? s.firstChild.textContent : '', shown: s.dataset.shown || null,
           note: (s.querySelector('.mg-glue-note') || {}).textContent || null}))"""


#: The reader's edit of the moons training: 30 steps at a constant learning rate.
MOONS_EDIT = (
    ("steps = 100", "steps = 30"),
    ("learning_rate = 1.0 - 0.9 * k / steps", "learning_rate = 0.1"),
)
MOONS_STEPS = 30


def check_the_prose_follows_the_edited_moons_run(
    tab: Tab, built: dict[Any, Any], rows: list[list[str]]
) -> None:
    """The prose after the training says 30 steps, the reader's final loss and 92 %, marked
    as theirs with the build's number in a note; the numbers below that the run made stale
    say "From the build"."""
    # The hidden cell after the training glues its numbers right after it.
    tab.page.wait_for_function(
        "document.querySelector('span[data-glue-key=moons_final_loss]').dataset.shown === 'yours'",
        timeout=PAGE_TIMEOUT_MS,
    )
    spans = {(s["key"], s["format"], i): s for i, s in enumerate(tab.evaluate(SPANS_JS))}
    by_key = {key: span for (key, _, _), span in spans.items()}
    expected = {"moons_steps": "30", "moons_final_loss": rows[-1][1], "moons_final_acc": "92"}
    expected["moons_lr_last"] = "0.100"
    for key, text in expected.items():
        span = by_key[key]
        assert (span["text"], span["shown"]) == (text, "yours"), span
        build_text = next(s["text"] for (k, _, _), s in built.items() if k == key)
        assert span["note"] == f"Your run's value; the build's value: {build_text}.", span
    # The spike's numbers below depend on the model this run trained: marked, not silent.
    spike = by_key["spike_step"]
    assert spike["shown"] == "stale", spike
    assert spike["note"].startswith("From the build"), spike
    # The build's number is one focus away (the note is shown on focus, not only on hover).
    final = tab.page.locator("span.pasted-text[data-glue-key=moons_final_loss]")
    final.focus()
    assert final.locator(".mg-glue-note").is_visible()


def test_numbers_and_pictures_that_read_a_name_the_readers_edit_took_away_say_from_the_build(
    tab: Tab,
) -> None:
    """The moons training edited to keep its log as ``history`` (and to train 3 steps): the
    hidden cell after it glues its numbers from ``log``, so it cannot run, and the loss plot
    draws ``log``.  Next to the reader's 3-step table, their numbers and picture say "From
    the build", never unmarked."""
    tab.open("moons.html")
    training = cell_with(tab, "steps = 100")
    edit(
        tab,
        training,
        ("log = TrainingLog()", "history = TrainingLog()"),
        ("    log.record(", "    history.record("),
        ("print(log.table(", "print(history.table("),
        ("for k in range(steps):", "for k in range(3):"),
    )
    run(tab, training)
    tab.page.wait_for_function(
        "document.querySelector('span[data-glue-key=moons_final_loss]').dataset.shown === 'stale'",
        timeout=PAGE_TIMEOUT_MS,
    )
    by_key = {s["key"]: s for s in tab.evaluate(SPANS_JS)}
    for key in ("moons_steps", "moons_final_loss", "moons_final_acc", "moons_lr_last"):
        assert by_key[key]["shown"] == "stale", by_key[key]
        assert by_key[key]["note"].startswith("From the build"), by_key[key]
    plotting = cell_with(tab, 'plot_training(log, title="the moons: loss and accuracy")')
    note = tab.cell(plotting).locator(".runner-stale-note").inner_text()
    assert note.startswith("From the build"), note
    assert tab.page.locator(".runner-hidden-error").count() == 0
    assert not tab.errors, tab.errors


# -- pictures that follow the run --------------------------------------------------------------


def claim_shown(tab: Tab, key: str) -> str:
    """Which wording of the claim ``key`` the page shows: "holds" or "fails"."""
    claim = tab.page.locator(f"span.mg-claim[data-claim-key={key}]")
    holds = claim.locator(":scope > .mg-claim-holds").is_visible()
    fails = claim.locator(":scope > .mg-claim-fails").is_visible()
    assert holds != fails, (key, holds, fails)
    return "holds" if holds else "fails"


def test_the_chain_rule_picture_follows_the_readers_graph_and_its_words_follow_it(
    tab: Tab,
) -> None:
    """The local-rules page's picture of the chain rule, its cell edited so that ``a`` is
    used a third time: drawn in the browser with three paths, their sum the engine's
    -96, and the words under it saying so; without ``L.backward()``, the sum is still -96
    but ``a.grad`` 0, and the words say it is not their sum."""
    tab.open("local-rules.html")
    picture = cell_with(tab, "draw_paths(L, a)")
    edit(tab, picture, ("L = b * c\n", "L = b * c * a\n"))
    run(tab, picture)
    drawing = tab.cell(picture).locator("div.runner-drawing svg")
    words = drawing.text_content() or ""
    assert "sum of the 3 paths: -96.0000" in words, words
    assert "a.grad: -96.0000" in words, words
    paths = tab.page.locator("span.pasted-text[data-glue-key=cr_paths]")
    assert paths.get_attribute("data-shown") == "yours"
    assert paths.inner_text().splitlines() == ["3", "Your run's value; the build's value: 2."]
    assert claim_shown(tab, "cr_sum_is_grad") == "holds"

    edit(tab, picture, ("L = b * c\n", "L = b * c * a\n"), ("L.backward()\n", ""))
    run(tab, picture)
    words = tab.cell(picture).locator("div.runner-drawing svg").text_content() or ""
    assert "sum of the 3 paths: -96.0000" in words, words
    assert "a.grad: 0.0000" in words, words
    assert claim_shown(tab, "cr_sum_is_grad") == "fails"
    assert tab.page.locator(".runner-hidden-error").count() == 0
    assert not tab.errors, tab.errors


CHART_MIME = MIME_TYPES["chart"]
#: What the live-chart test measured, for benchmarks/RESULTS.md (benchmarks/report.py --browser).
LIVE_ARTIFACT = ROOT / "artifacts" / "runner" / "live_charts.json"
#: Pictures of the charts drawn in the browser, for a person to compare with the build's.
SCREENSHOTS = ROOT / "artifacts" / "screenshots" / "browser-charts"

#: A probe of the page's responsiveness while a cell runs: a button in a corner whose
#: pointerdown handler notes how long the input waited (its handling time less the event's
#: time stamp), a timer every 50 ms that notes how late it fires, and the time of each Run.
PROBE_JS = """() => {
  const probe = {delays: [], lags: [], runClicked: [], done: []};
  window.mgProbe = probe;
  const button = document.createElement('button');
  button.id = 'mg-probe';
  button.textContent = 'probe';
  button.style.cssText = 'position:fixed;right:0;bottom:0;z-index:10000;width:48px;height:32px';
  button.addEventListener('pointerdown', (e) => probe.delays.push(performance.now() - e.timeStamp));
  document.body.append(button);
  document.addEventListener('click', (e) => {
    if (e.target.closest('button.runner-run')) probe.runClicked.push(performance.now());
  }, true);
  document.addEventListener('micrograd:run-done',
    (e) => probe.done.push({cell: e.detail.cell, at: performance.now()}));
  let last = performance.now();
  const tick = () => {
    const t = performance.now();
    probe.lags.push(t - last - 50);
    last = t;
    if (window.mgProbe === probe) setTimeout(tick, 50);
  };
  setTimeout(tick, 50);
}"""

#: The pictures the runner drew in the browser, as the reader sees them.
CHARTS_JS = """() => Array.from(
  document.querySelectorAll('article .runner-output .mg-chart-figure'), (figure) => {
    const article = document.querySelector('article.bd-article');
    const column = article.getBoundingClientRect();
    const style = getComputedStyle(article);
    const left = column.left + parseFloat(style.paddingLeft);
    const right = column.right - parseFloat(style.paddingRight);
    const box = figure.getBoundingClientRect();
    const scrolled = [];
    for (let p = figure.parentElement; p && p !== article; p = p.parentElement) {
      if (p.scrollWidth > p.clientWidth + 1 && getComputedStyle(p).overflowX !== 'visible') {
        scrolled.push(p.className || p.tagName);
      }
    }
    let smallest = Infinity;
    for (const svg of figure.querySelectorAll('svg.mg-chart-axes')) {
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      for (const text of svg.querySelectorAll('text')) {
        smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * scale);
      }
    }
    const lines = Array.from(figure.querySelectorAll('g[aria-label=line] path'),
      (path) => (path.getAttribute('d').match(/L/g) || []).length + 1);
    const cell = figure.closest('div.cell');
    const cells = Array.from(document.querySelectorAll('div.cell'))
      .filter((c) => c.querySelector('button.runner-run'));
    return {
      cell: cells.indexOf(cell),
      left: box.left - left, right: right - box.right, scrolled, label_px: smallest, lines,
      live: Boolean(figure.closest('.runner-live-chart')),
      head: cell.querySelector('.runner-output-label').textContent,
      build_shown: Boolean(cell.querySelector('div.cell_output:not([hidden])')),
      titles: Array.from(figure.querySelectorAll('.mg-chart-title'), (t) => t.textContent),
      legend: Array.from(figure.querySelectorAll('.mg-chart-legend-entry'), (e) => e.textContent),
      name: figure.getAttribute('aria-label'),
    };
  })"""


def browser_charts(tab: Tab) -> list[dict[str, Any]]:
    """Every chart drawn in the browser, once each has its axes."""
    tab.page.wait_for_function(
        """() => Array.from(document.querySelectorAll('.runner-chart'))
                  .every((box) => box.querySelector('svg.mg-chart-axes'))""",
        timeout=60_000,
    )
    return list(tab.evaluate(CHARTS_JS))


def check_the_charts_fit(charts: list[dict[str, Any]], where: str) -> None:
    """Each chart in the column, scrolling nowhere, with labels drawn at 9 px or more."""
    assert charts, f"no chart drawn in the browser ({where})"
    for chart in charts:
        assert chart["left"] >= -1, (where, chart)
        assert chart["right"] >= -1, (where, chart)
        assert not chart["scrolled"], (where, chart)
        assert chart["label_px"] >= 9.0, (where, chart)


def numbers_close(a: Any, b: Any) -> bool:
    """Two JSON values equal, their numbers to within 1e-9 (Pyodide's libm: test_runner.py)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(numbers_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(numbers_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float | int) and isinstance(b, float | int):
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return bool(a == b)


def build_chart(html: Path, page: str, code: str) -> dict[str, Any]:
    """The chart description the build recorded for the one figure of the cell holding ``code``."""
    notebook = executed_notebooks_dir(html) / Path(page).with_suffix(".ipynb")
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    (cell,) = [c for c in cells if c["cell_type"] == "code" and code in "".join(c["source"])]
    (described,) = [
        o["metadata"][CHART_MIME]["json"] for o in cell["outputs"] if CHART_MIME in o["metadata"]
    ]
    return dict(json.loads(described))


#: The moons page's cells natively, in this test's CPython: the training timed, then the
#: page's decision-boundary cell, whose figure keeps its chart's description (micrograd.viz.chart).
NATIVE_MOONS = """
import ast, contextlib, io, json, sys, time
cells = json.load(sys.stdin)
namespace = {"__name__": "__main__"}
boundary = ast.parse(cells["boundary"])  # the cell ends with the Figure it shows
shown = ast.Expression(boundary.body.pop().value)
with contextlib.redirect_stdout(io.StringIO()):
    for source in cells["before"]:
        exec(source, namespace)
    started = time.perf_counter()
    exec(cells["training"], namespace)
    seconds = time.perf_counter() - started
    exec(compile(boundary, "boundary", "exec"), namespace)
    figure = eval(compile(shown, "boundary", "eval"), namespace)
print(json.dumps({"training_seconds": seconds, "boundary": json.dumps(figure.to_json()),
                  "python": sys.version.split()[0]}))
"""


def native_moons(before: list[str], training: str, boundary: str) -> dict[str, Any]:
    """Run the moons cells in a fresh CPython (this test's): its timing and boundary chart."""
    cells = json.dumps({"before": before, "training": training, "boundary": boundary})
    done = subprocess.run(
        [sys.executable, "-c", NATIVE_MOONS],
        input=cells,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return dict(json.loads(done.stdout))


#: The most points cell ``i``'s live chart has drawn so far.
POINTS_JS = (
    "(i) => Math.max(0, ...microgradTest.liveCharts().filter((u) => u.cell === i)"
    ".map((u) => u.points))"
)
#: Whether cell ``i``'s chart has drawn more than ``n`` points, or its run is over.
DREW_OR_DONE_JS = f"""([i, n, over]) =>
  ({POINTS_JS})(i) > n || over.includes(microgradTest.cell(i).state)"""


def train_with_probing(tab: Tab, index: int) -> list[tuple[float, int]]:
    """Run cell ``index`` and press the probe button at each new drawing of its chart, until
    the run is done (the presses are paced by the run, not by a clock).

    Returns what this test saw of the cell's live chart while it ran: (seconds since the
    click, points drawn) at each press.
    """
    probe = tab.page.locator("#mg-probe").bounding_box()
    assert probe is not None
    seen = []
    clicked = tab.click_run(index)
    while tab.state(index) not in DONE:
        tab.page.mouse.click(probe["x"] + probe["width"] / 2, probe["y"] + probe["height"] / 2)
        points = int(tab.evaluate(POINTS_JS, index))
        seen.append((time.perf_counter() - clicked, points))
        tab.page.wait_for_function(
            DREW_OR_DONE_JS, arg=[index, points, list(DONE)], timeout=PAGE_TIMEOUT_MS
        )
    state = tab.state(index)
    assert state == "done", f"cell {index} {state}:\n{tab.output_text(index)}"
    return seen


def test_an_edited_moons_run_draws_its_curve_as_it_trains_and_the_readers_boundary_and_numbers(
    tab: Tab, html: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """steps = 30, learning_rate = 0.1: a fresh run (step 0 loss 0.895844, accuracy 0.92 at
    the end) whose loss and accuracy curve grows under the cell as it trains, to 30 points;
    the loss plot and the decision boundary drawn again from the reader's run, marked as
    theirs, fitting the column on a laptop and a phone; the reader's numbers in the prose;
    Reset brings back exactly the build's page.  What it measured on the way (the first
    point's delay, the page's responsiveness while training, the time per step against
    this CPython's) goes to artifacts/runner/live_charts.json."""
    tab.open("moons.html")
    built = {(s["key"], s["format"], i): s for i, s in enumerate(tab.evaluate(SPANS_JS))}
    build_outputs = tab.evaluate(
        "Array.from(document.querySelectorAll('article div.cell_output'), (o) => o.outerHTML)"
    )
    run(tab, 0)  # Python is loaded: what follows measures the training, not the start
    tab.evaluate(PROBE_JS)
    training = cell_with(tab, "steps = 100")
    edit(tab, training, *MOONS_EDIT)
    seen = train_with_probing(tab, training)

    printed = "".join(o["text"] for o in tab.outputs(training) if o["kind"] == "stream")
    rows = [line.split() for line in printed.splitlines()]
    rows = [row for row in rows if row and row[0].isdigit()]
    assert rows[0][:2] == ["0", "0.895844"]
    assert rows[-1][0] == "29"
    assert rows[-1][2] == "0.9200"
    # The live chart grew while the cell ran, and ends on every step.
    probe = tab.evaluate("window.mgProbe")
    updates = tab.evaluate(f"microgradTest.liveCharts().filter(u => u.cell === {training})")
    (done,) = [d["at"] for d in probe["done"] if d["cell"] == training]
    during = [u for u in updates if u["at"] < done]
    assert len(during) > 1, updates
    assert [u["points"] for u in updates] == sorted({u["points"] for u in updates}), updates
    assert len({points for _, points in seen if points}) > 1, seen  # seen growing from here
    tab.page.wait_for_function(  # the last update is drawn (maybe just after the run ended)
        f"microgradTest.liveCharts().some(u => u.cell === {training} && u.points === 30)"
    )
    live = tab.cell(training).locator("figure.runner-live-chart")
    assert live.get_attribute("data-points") == str(MOONS_STEPS)
    assert "30 steps, drawn as it trains" in (live.locator("figcaption").text_content() or "")
    (live_chart,) = [c for c in browser_charts(tab) if c["live"]]
    assert live_chart["cell"] == training
    assert live_chart["lines"] == [MOONS_STEPS, MOONS_STEPS], live_chart  # loss, accuracy
    assert live_chart["legend"] == ["loss", "accuracy"]

    check_the_prose_follows_the_edited_moons_run(tab, built, rows)

    # The loss plot below, run: the reader's 30 steps, drawn as the build's 100 are.
    plotting = cell_with(tab, 'plot_training(log, title="the moons: loss and accuracy")')
    run(tab, plotting)
    # The decision boundary from the reader's model: the one this CPython draws for it.
    boundary = cell_with(tab, "plot_decision_boundary(model")
    sources = tab.evaluate("microgradTest.cells().map(c => c.source)")
    above = ("make_moons(", "model = MLP(2", "def loss_and")
    before = [sources[cell_with(tab, code)] for code in above]
    native = native_moons(
        before, tab.evaluate(f"microgradTest.cell({training}).code"), sources[boundary]
    )
    run(tab, boundary)
    (drawn,) = [o["data"] for o in tab.outputs(boundary) if o["mime"] == CHART_MIME]
    readers = json.loads(drawn)
    assert numbers_close(readers, json.loads(native["boundary"]))
    builds = build_chart(html, "moons.html", "plot_decision_boundary(model")
    regions = [m for m in readers["charts"][0]["marks"] if m["kind"] == "regions"]
    built_regions = [m for m in builds["charts"][0]["marks"] if m["kind"] == "regions"]
    assert regions[0]["scores"] != built_regions[0]["scores"]
    charts = browser_charts(tab)
    # The data's scatter (run before the training: it had not run), the live curve, the
    # loss plot and the boundary.
    scatter = cell_with(tab, "plot_moons(X, y)")
    assert [c["cell"] for c in charts] == [scatter, training, plotting, boundary], charts
    for chart in charts:
        assert chart["head"] == "Computed in your browser", chart
        assert not chart["build_shown"], chart  # the build's picture is one click away
    loss_chart, boundary_chart = charts[2:]
    assert loss_chart["titles"] == ["the moons: loss and accuracy"]
    assert loss_chart["lines"] == [MOONS_STEPS, MOONS_STEPS]
    assert boundary_chart["legend"] == [e["label"] for e in builds["charts"][0]["legend_entries"]]
    check_the_charts_fit(charts, "1366x768")
    for name, index in (("live", training), ("loss", plotting), ("boundary", boundary)):
        figure = tab.cell(index).locator(".runner-output .mg-chart-figure").first
        figure.screenshot(path=SCREENSHOTS / f"moons-{name}.png")
    tab.page.set_viewport_size({"width": VIEWPORTS["phone"][0], "height": VIEWPORTS["phone"][1]})
    check_the_charts_fit(browser_charts(tab), "390x844, drawn at 1366x768")
    tab.page.set_viewport_size({"width": 1366, "height": 768})
    assert not tab.errors, tab.errors

    record_live_measurements(tab, training, probe, updates, native, capsys)

    # Reset on every cell that ran: the page is exactly the build's again.
    for index in range(tab.cell_count()):
        reset = tab.cell(index).locator("button.runner-reset")
        if reset.is_visible():
            reset.click()
    tab.page.wait_for_function(
        "document.querySelector('span[data-glue-key=moons_final_loss]').dataset.shown === undefined"
    )
    after = {(s["key"], s["format"], i): s for i, s in enumerate(tab.evaluate(SPANS_JS))}
    assert [s["html"] for s in after.values()] == [s["html"] for s in built.values()]
    assert (
        tab.evaluate(
            "Array.from(document.querySelectorAll('article div.cell_output'), (o) => o.outerHTML)"
        )
        == build_outputs
    )
    assert tab.page.locator("article .runner-output").count() == 0
    assert tab.page.locator("article .runner-stale-note").count() == 0


def record_live_measurements(
    tab: Tab,
    training: int,
    probe: dict[str, Any],
    updates: list[dict[str, Any]],
    native: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Write what the moons test measured to LIVE_ARTIFACT, and print it."""
    (clicked,) = probe["runClicked"]
    runs = tab.evaluate("microgradTest.timings().runs")
    browser_seconds = [r["seconds"] for r in runs if r["cell"] == training][-1]
    times = [u["at"] for u in updates]
    measured = {
        **where_measured(tab),
        "native_python": native["python"],
        "steps": MOONS_STEPS,
        "first_point_seconds": (updates[0]["at"] - clicked) / 1000,
        "live_updates": len(updates),
        "longest_gap_between_updates_seconds": max(b - a for a, b in pairwise(times)) / 1000,
        "input_delays_ms": probe["delays"],
        "timer_lag_ms_max": max(probe["lags"]),
        "browser_seconds_per_step": browser_seconds / MOONS_STEPS,
        "native_seconds_per_step": native["training_seconds"] / MOONS_STEPS,
    }
    measured["browser_over_native"] = (
        measured["browser_seconds_per_step"] / measured["native_seconds_per_step"]
    )
    LIVE_ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
    LIVE_ARTIFACT.write_text(json.dumps(measured, indent=1, sort_keys=True) + "\n")
    delays = measured["input_delays_ms"]
    report(
        capsys,
        f"moons, {MOONS_STEPS} steps: first point {measured['first_point_seconds']:.2f} s "
        f"after Run; {len(updates)} updates, longest gap "
        f"{measured['longest_gap_between_updates_seconds']:.2f} s; input handled within "
        f"{max(delays, default=float('nan')):.1f} ms ({len(delays)} presses), timers late by "
        f"{measured['timer_lag_ms_max']:.1f} ms at most; "
        f"{measured['browser_seconds_per_step']:.3f} s per step in the browser, "
        f"{measured['native_seconds_per_step']:.3f} s in CPython {native['python']} "
        f"({measured['browser_over_native']:.2f}x)",
    )


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_mlp_pages_plots_are_drawn_in_the_browser_from_the_readers_run(
    tab: Tab, html: Path, viewport: str
) -> None:
    """Both plotting cells of the mlp page run in the browser: the charts the build drew
    with matplotlib, drawn from the same descriptions, under the label "Computed in your
    browser", fitting the column; the training cell's curve grew as it trained."""
    width, height = VIEWPORTS[viewport]
    tab.page.set_viewport_size({"width": width, "height": height})
    tab.open("mlp.html")
    last = cell_with(tab, "Figure([comparison]")
    run(tab, last)  # and every cell above it, the first plot's too
    first = cell_with(tab, "Figure([loss_chart, predictions]")
    assert tab.state(first) == "done"
    for index, code in ((first, "Figure([loss_chart, predictions]"), (last, "Figure([comparison]")):
        (drawn,) = [o["data"] for o in tab.outputs(index) if o["mime"] == CHART_MIME]
        assert numbers_close(json.loads(drawn), build_chart(html, "mlp.html", code))
    charts = browser_charts(tab)
    titles = [title for chart in charts if not chart["live"] for title in chart["titles"]]
    assert titles == [
        "loss",
        "predictions (dashed: the targets)",
        "the same training, with and without zero_grad()",
    ]
    live = [chart for chart in charts if chart["live"]]
    assert [chart["lines"] for chart in live] == [[20]]  # the training cell's 20 steps
    # Titled by the step it reached, numbered as its x-axis numbers them, from 0.
    assert [chart["titles"] for chart in live] == [["as it trains: step 19"]]
    for chart in charts:
        assert chart["head"] == "Computed in your browser", chart
        assert chart["name"], chart  # a text alternative: the charts' descriptions
    check_the_charts_fit(charts, viewport)
    for index in (first, last):
        figure = tab.cell(index).locator(".runner-output .mg-chart-figure").first
        figure.screenshot(path=SCREENSHOTS / f"mlp-{viewport}-cell-{index}.png")
    assert not tab.errors, tab.errors
