"""The page follows the reader's run: steppers and drawings made in the browser (#16).

A stepper cell (micrograd.stepper) runs in the reader's browser and steps
through the reader's own graph, laid out by viz.js in the runner's worker
(docs/_static/runner/stepper_layout.js, steppers.js).  In a Chromium that can
reach 127.0.0.1 only, these tests check that

- the neuron edited to ``x2 = 1`` gets a stepper whose frames show ``x2 = 1``
  and whose last frame shows ``w2``'s gradient 0.0887;
- the "q used twice" pair, run in the browser, parts where the build's does
  and ends on -33/22 (the engine's order) against -3/2 (breadth first);
- at 1366x768 and 390x844, every frame of a stepper made in the browser shows
  its controls, its captions and the node at work together, without scrolling;
- a drawing made in the browser fits the column on a phone, as the build's do.
"""

from __future__ import annotations

from typing import Any

import pytest
from runner_tab import DONE, PAGE_TIMEOUT_MS, Tab
from steppers import STEPPER_STATE_JS, off_screen_stepping_through

VIEWPORTS = {"laptop": (1366, 768), "phone": (390, 844)}
NEURON_X2 = 'x2 = Value(0.0, label="x2")'
STEPPER_MIME = "application/vnd.micrograd.stepper+json"


def cell_with(tab: Tab, text: str) -> int:
    """The index (among the runnable cells) of the one cell whose code holds ``text``."""
    found = tab.evaluate(
        "(text) => microgradRunner.cells.flatMap((c, i) => c.source.includes(text) ? [i] : [])",
        text,
    )
    assert len(found) == 1, f"{len(found)} runnable cells hold {text!r}"
    return int(found[0])


def run(tab: Tab, index: int) -> None:
    """Run cell ``index`` (and what it needs) and check that it ran without error."""
    tab.click_run(index)
    state = tab.wait_state(index, DONE, PAGE_TIMEOUT_MS)
    assert state == "ok", f"cell {index} {state}:\n{tab.output_text(index)}"


def edit(tab: Tab, index: int, *changes: tuple[str, str]) -> None:
    """Make each (old, new) change in cell ``index``'s code."""
    source = tab.evaluate(f"microgradRunner.cells[{index}].source")
    for old, new in changes:
        assert old in source
        source = source.replace(old, new)
    tab.edit(index, source)


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
    # The build's stepper (x2 = 0) is not what the reader sees under the cell.
    assert tab.cell(stepping).locator("div.cell_output").is_hidden()
    assert not tab.errors, tab.errors


def test_the_wrong_order_stepper_in_the_browser_ends_on_minus_3_and_2_the_right_on_minus_33_and_22(
    tab: Tab,
) -> None:
    tab.open("backward.html")
    pair_cell = cell_with(tab, "StepperPair(")
    run(tab, pair_cell)
    pair = browser_stepper(tab, pair_cell)
    assert "mg-stepper-pair" in (pair.get_attribute("class") or "")
    part = pair.locator(".mg-stepper-frame[data-part] > figcaption").text_content() or ""
    assert "Here the orders part: backward() runs r's rule, breadth first runs q's." in part
    right, wrong = (" | ".join(side) for side in last_frame_boxes(pair))
    assert "a | data 2.0000 | grad -33.0000" in right
    assert "b | data -3.0000 | grad 22.0000" in right
    assert "a | data 2.0000 | grad -3.0000" in wrong
    assert "b | data -3.0000 | grad 2.0000" in wrong


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize(
    ("stepper_page", "code"),
    [("neuron.html", "BackwardStepper(o)"), ("backward.html", "StepperPair(")],
)
def test_every_frame_of_a_stepper_made_in_the_browser_shows_controls_captions_and_active_node(
    tab: Tab, viewport: str, stepper_page: str, code: str
) -> None:
    width, height = VIEWPORTS[viewport]
    tab.page.set_viewport_size({"width": width, "height": height})
    tab.open(stepper_page)
    index = cell_with(tab, code)
    run(tab, index)
    stepper = browser_stepper(tab, index)
    problems = off_screen_stepping_through(stepper)
    assert not problems, "\n".join(problems)


def test_on_a_phone_a_drawing_made_in_the_browser_fits_the_column_as_the_builds_do(
    tab: Tab,
) -> None:
    width, height = VIEWPORTS["phone"]
    tab.page.set_viewport_size({"width": width, "height": height})
    tab.open("neuron.html")
    run(tab, 0)
    drawing = tab.cell(0).locator("div.runner-drawing svg")
    assert drawing.count() == 1
    fit = drawing.evaluate(
        """(svg) => {
          const column = svg.closest('article.bd-article').getBoundingClientRect();
          const shown = svg.getBoundingClientRect();
          return {left: shown.left, right: shown.right, column_left: column.left,
                  column_right: column.right, natural: svg.width.baseVal.value,
                  zoomable: svg.classList.contains('mg-zoomable'),
                  titles: svg.querySelectorAll('g.node > title').length,
                  page: document.documentElement.scrollWidth};
        }"""
    )
    assert fit["column_left"] - 1 <= fit["left"], fit
    assert fit["right"] <= fit["column_right"] + 1, fit
    assert fit["page"] <= VIEWPORTS["phone"][0], fit
    # Wider than the column: scaled down, and full size on click, as the build's.
    assert fit["natural"] > fit["right"] - fit["left"] + 1
    tab.page.wait_for_function(
        "(svg) => svg.classList.contains('mg-zoomable')", arg=drawing.element_handle()
    )
    # Hovering a node gives its numbers, as on the build's drawing.
    assert fit["titles"] > 0


# -- numbers in the prose ---------------------------------------------------------------------

#: Every format spec the pages paste numbers with (and a few more of the same grammar).
GLUE_SPECS = ["s", ",", "+.0f", "+.3f", ".0f", ".1f", ".2f", ".3f", ".4f", ".6f", ".1e", ".1%"]


def glue_values() -> list[str]:
    """Values as a cell's glue sends them (their text/plain): ties, signs, sizes, ints, text."""
    import random

    pick = random.Random(16)
    floats = [0.0, -0.0, 0.125, -0.125, 0.375, 2.5, 9.995, 99.95, 1e-7, 5e-324, 1e300, 0.010978]
    floats += [pick.uniform(-10, 10) for _ in range(150)]
    floats += [pick.uniform(-1, 1) * 10 ** pick.randint(-12, 12) for _ in range(150)]
    floats += [round(pick.uniform(0, 10), 3) for _ in range(100)]
    ints = [0, -5, 22, 1234567, 20000, -33]
    return [repr(x) for x in [*floats, *ints]] + ["'Intel Xeon'", "'2026-11-30'"]


def test_the_page_formats_a_readers_number_exactly_as_myst_nb_formats_the_builds(
    tab: Tab,
) -> None:
    """pyformat.js against myst-nb's own format_plain_text, on every spec the pages use."""
    from ast import literal_eval

    from myst_nb.core.variables import format_plain_text

    cases, expected = [], []
    for plain in glue_values():
        for spec in GLUE_SPECS:
            try:
                expected.append(format_plain_text(plain, spec))
            except ValueError:  # a string with a number's spec: the build fails there too
                continue
            cases.append([plain, spec])
    tab.open("index.html")
    shown = tab.page.evaluate(
        """async (cases) => {
          const { pythonFormat } = await import('./_static/runner/pyformat.js');
          return cases.map(([plain, spec]) => pythonFormat(plain, spec));
        }""",
        cases,
    )
    wrong = [(c, e, s) for c, e, s in zip(cases, expected, shown, strict=True) if s != e]
    # Declined (null, the build's number stays, marked): only a float with "," alone,
    # which Python writes in its general format.
    declined = [c for c, _, s in wrong if s is None]
    assert all(spec == "," and isinstance(literal_eval(plain), float) for plain, spec in declined)
    assert [w for w in wrong if w[2] is not None] == []


SPANS_JS = """() => Array.from(document.querySelectorAll('span.pasted-text[data-glue-key]'),
  (s) => ({key: s.dataset.glueKey, format: s.dataset.glueFormat, html: s.outerHTML,
           text: s.firstChild ? s.firstChild.textContent : '', shown: s.dataset.shown || null,
           note: (s.querySelector('.mg-glue-note') || {}).textContent || null}))"""


def test_an_edited_moons_run_puts_the_readers_numbers_in_the_prose_and_reset_the_builds(
    tab: Tab,
) -> None:
    """steps = 30, learning_rate = 0.1: the prose after the training says 30 steps, the
    reader's final loss and 92 %, marked as theirs with the build's number in a note; the
    numbers below that the run made stale say "From the build"; Reset brings the build's
    numbers back."""
    tab.open("moons.html")
    built = {(s["key"], s["format"], i): s for i, s in enumerate(tab.evaluate(SPANS_JS))}
    training = cell_with(tab, "steps = 100")
    edit(
        tab,
        training,
        ("steps = 100", "steps = 30"),
        ("learning_rate = 1.0 - 0.9 * k / steps", "learning_rate = 0.1"),
    )
    run(tab, training)
    rows = [line.split() for line in tab.output_text(training).splitlines()]
    rows = [row for row in rows if row and row[0].isdigit()]
    assert rows[0][:2] == ["0", "0.895844"]
    assert rows[-1][0] == "29"
    assert rows[-1][2] == "0.9200"
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
    assert not tab.errors, tab.errors

    tab.cell(training).locator("button.runner-reset").click()
    tab.page.wait_for_function(
        "document.querySelector('span[data-glue-key=moons_final_loss]').dataset.shown === undefined"
    )
    after = {(s["key"], s["format"], i): s for i, s in enumerate(tab.evaluate(SPANS_JS))}
    assert [s["text"] for s in after.values()] == [s["text"] for s in built.values()]
    reset_keys = {"moons_steps", "moons_final_loss", "moons_final_acc", "moons_lr_last"}
    for where, span in after.items():
        if where[0] in reset_keys or where[0].startswith("spike_"):
            assert span["html"] == built[where]["html"], span
