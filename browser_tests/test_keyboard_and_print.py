"""The runner by keyboard alone, and a page on paper.

- From the top of a page, the first cell's Run is at most 3 Tabs away (a
  skip link leads there); after Enter on Run the focus stays in that cell,
  and Run where it was, though the editor opens above it;
  from one cell's Run to the next cell's takes at most 4 Tabs on every page,
  besides the prose's own links and code blocks' copy buttons between them
  (formulas and live numbers are read out, not Tab stops).
- A page printed from the browser has every stepper frame, and none of the
  runner's controls.
- On a phone no floating button lies over a figure, and a stepper pair shows one
  side at a time, with a switch that keeps the step, without an inner scroll box.
"""

from __future__ import annotations

import io
import unicodedata
from typing import Any

import pytest
from runner_tab import DONE, Tab

#: The most Tabs between one runnable cell's Run and the next one's, besides the prose's
#: own stops between the two cells (PROSE_STOP_JS: its links, its code blocks' copy buttons).
TABS_BETWEEN_RUNS = 4
#: Whether the focused element is a stop of the prose itself: a link or a code block's copy
#: button, outside every cell (a page that says more between two cells has more of them).
PROSE_STOP_JS = """() => {
  const el = document.activeElement;
  return !!el && !el.closest('div.cell')
    && (el.matches('a[href]') || el.matches('button.copybtn'));
}"""
#: The most Tabs from the top of a page to its first Run (with Enter on a skip link).
TABS_TO_FIRST_RUN = 3

FOCUSED_JS = """() => {
  const el = document.activeElement;
  const cells = Array.from(document.querySelectorAll('div.cell:has(button.runner-run)'));
  return {
    run: el ? cells.findIndex((c) => c.querySelector('button.runner-run') === el) : -1,
    inCell: el ? cells.findIndex((c) => c.contains(el)) : -1,
    skip: el ? el.classList.contains('runner-skip-link') : false,
    what: el ? `${el.tagName}.${el.className}` : null,
  };
}"""


def focused(tab: Tab) -> dict[str, Any]:
    return dict(tab.evaluate(FOCUSED_JS))


@pytest.mark.parametrize("where", ["index.html", "neuron.html", "moons.html"])
def test_the_first_run_is_at_most_three_tabs_from_the_top(tab: Tab, where: str) -> None:
    tab.open(where)
    for _ in range(TABS_TO_FIRST_RUN):
        tab.page.keyboard.press("Tab")
        if focused(tab)["skip"]:
            tab.page.keyboard.press("Enter")
        if focused(tab)["run"] == 0:
            break
    assert focused(tab)["run"] == 0, focused(tab)


#: Where a cell's Run button is in the window, and whether its editor is open.
RUN_PLACE_JS = """(cell) => {
  const box = cell.querySelector('button.runner-run').getBoundingClientRect();
  return {top: box.top, bottom: box.bottom, height: innerHeight,
          editor: !!cell.querySelector('.runner-editor')};
}"""


def test_after_enter_on_run_the_focus_and_the_run_button_stay_where_they_were(tab: Tab) -> None:
    """On a phone, with Run at the bottom of the screen: the editor opens, Run stays put."""
    tab.page.set_viewport_size({"width": 390, "height": 844})
    tab.open("neuron.html")
    # The parts of the page above the cell are made by now (once the page is idle), as a
    # reader who scrolled there finds them: their making is no move of Run's.
    tab.page.wait_for_function("microgradTest.setUp()")
    run = tab.cell(1).locator("button.runner-run")
    run.evaluate("(b) => window.scrollBy(0, b.getBoundingClientRect().bottom - innerHeight + 8)")
    run.focus()
    before = tab.cell(1).evaluate(RUN_PLACE_JS)
    assert before["bottom"] <= before["height"], before
    assert not before["editor"], before
    tab.page.keyboard.press("Enter")
    assert tab.wait_state(1, DONE, 60_000) == "done", tab.output_text(1)
    assert focused(tab)["inCell"] == 1, focused(tab)
    after = tab.cell(1).evaluate(RUN_PLACE_JS)
    assert after["editor"], "Run opened no editor"
    assert abs(after["top"] - before["top"]) <= 1, (before, after)


def test_from_the_first_cells_run_to_the_seconds_takes_at_most_four_tabs(
    tab: Tab, content_page: str
) -> None:
    tab.open(content_page)
    if tab.cell_count() < 2:  # the start page's one cell, the API page: no second Run
        return
    tab.cell(0).locator("button.runner-run").focus()
    stops, prose = [], 0
    while len(stops) - prose < TABS_BETWEEN_RUNS:
        tab.page.keyboard.press("Tab")
        stops.append(focused(tab)["what"])
        if focused(tab)["run"] == 1:
            break
        prose += bool(tab.evaluate(PROSE_STOP_JS))
    assert focused(tab)["run"] == 1, f"{content_page}: from cell 1's Run, {stops}"


def in_order(wanted: list[str], words: list[str]) -> bool:
    """Whether ``wanted`` appear in ``words`` in this order (other words between them)."""
    rest = iter(words)
    return all(any(word == found for found in rest) for word in wanted)


def test_a_printed_page_has_every_stepper_frame_and_no_runner_controls(tab: Tab) -> None:
    from pypdf import PdfReader

    tab.open("backward.html")
    # Each caption without its "Step 3 of 9:" (the buttons' status, which paper has not).
    captions = tab.evaluate(
        """() => Array.from(document.querySelectorAll('.mg-stepper-frame figcaption'), (c) => {
             const copy = c.cloneNode(true);
             copy.querySelectorAll('.mg-stepper-number').forEach((n) => n.remove());
             return copy.textContent.replace(/\\s+/g, ' ').trim();
           }).filter((t) => t)"""
    )
    assert len(captions) > 8
    tab.page.emulate_media(media="print")
    text = " ".join(
        page.extract_text() for page in PdfReader(io.BytesIO(tab.page.pdf(format="A4"))).pages
    )
    # Paper keeps the words in order; frames printed side by side interleave their lines
    # in the PDF's text, so each caption's words are looked for in order, not together
    # (and the font's ligatures, "ﬁ" for "fi", read as their letters).
    words = unicodedata.normalize("NFKC", text).split()
    missing = [c for c in captions if not in_order(c.split(), words)]
    assert not missing, missing[:3]
    flat = "".join(words)
    # A cell's bar reads "Run Edit" (its signs are drawings), words the prose never joins.
    for control in ("RunEdit", "Skiptothefirstcodecell"):
        assert control not in flat, control


#: Every figure of a page, and every element fixed to the window that has a size there.
#: Resolves once the page has drawn two frames: what a scroll changed is laid out and painted.
NEXT_FRAME_JS = (
    "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
)

COVERED_JS = """() => {
  const area = (r) => r.width > 1 && r.height > 1 && r.bottom > 0 && r.top < innerHeight;
  const fixed = Array.from(document.querySelectorAll('body *')).filter((el) => {
    const style = getComputedStyle(el);
    return style.position === 'fixed' && style.visibility !== 'hidden'
      && !el.closest('.bd-header, dialog') && area(el.getBoundingClientRect());
  });
  const figures = document.querySelectorAll(
    '.bd-article svg.micrograd-graph, .bd-article div.cell_output img, .bd-article .mg-stepper');
  const hits = [];
  for (const figure of figures) {
    const f = figure.getBoundingClientRect();
    if (!area(f)) continue;
    for (const el of fixed) {
      const r = el.getBoundingClientRect();
      if (r.left < f.right && f.left < r.right && r.top < f.bottom && f.top < r.bottom) {
        hits.push(`${el.tagName}#${el.id}.${el.className} over ${figure.tagName}`);
      }
    }
  }
  return hits;
}"""


@pytest.mark.parametrize("where", ["neuron.html", "backward.html", "moons.html"])
def test_on_a_phone_nothing_fixed_to_the_window_covers_a_figure(tab: Tab, where: str) -> None:
    tab.page.set_viewport_size({"width": 390, "height": 844})
    tab.open(where)
    height = tab.evaluate("document.documentElement.scrollHeight")
    for top in range(0, height, 400):  # every stretch of the page, as a reader scrolls
        tab.evaluate(f"window.scrollTo(0, {top})")
        tab.evaluate(NEXT_FRAME_JS)  # the page laid out and painted where it scrolled to
        assert tab.evaluate(COVERED_JS) == [], top


#: Every box inside a figure of the article that scrolls: sideways (a stepper's element,
#: or what holds a graph or a plot), or up and down inside a stepper pair.  The live
#: region, clipped to 1 px for screen readers only, is no box a reader sees.
INNER_SCROLL_JS = """() => {
  const article = document.querySelector('article.bd-article');
  const boxes = new Set();
  for (const stepper of article.querySelectorAll('.mg-stepper')) {
    [stepper, ...stepper.querySelectorAll('*')].forEach((el) => boxes.add(el));
  }
  for (const figure of article.querySelectorAll('svg.micrograd-graph, div.cell_output img')) {
    for (let p = figure.parentElement; p && p !== article; p = p.parentElement) boxes.add(p);
  }
  const found = [];
  for (const el of boxes) {
    if (!(el instanceof HTMLElement) || el.clientWidth <= 1) continue;
    if (!el.getClientRects().length) continue;
    const name = `${el.tagName}.${el.className}`;
    if (el.scrollWidth > el.clientWidth + 1) found.push(`sideways: ${name}`);
    // A phone's drawing cropped to the window scrolls up and down in a named region
    // the keyboard scrolls (steppers.js), the step's nodes in it: no other box.
    const region = el.getAttribute('role') === 'region' && !!el.getAttribute('aria-label')
      && el.getAttribute('tabindex') === '0' && el.classList.contains('mg-cropped');
    if (el.closest('.mg-stepper-pair') && getComputedStyle(el).overflowY !== 'visible'
        && el.scrollHeight > el.clientHeight + 1 && !region) found.push(`up and down: ${name}`);
  }
  return found;
}"""

#: The current frame of a pair: its step, the titles of the sides it shows, its switch's
#: buttons (shown or not, pressed or not), its drawings the stepper's buttons (stuck to
#: the top of the window as the page scrolls) lie over, and its height against the
#: window's below the theme's header.
PAIR_FRAME_JS = """(stepper) => {
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  const bar = stepper.querySelector(':scope > .mg-stepper-controls').getBoundingClientRect();
  const shown = (el) => el.getClientRects().length > 0;
  const covered = Array.from(frame.querySelectorAll('svg.micrograd-graph')).filter(shown)
    .filter((svg) => {
      // The part of it its view shows (a phone's may be cropped to the window).
      const drawn = svg.getBoundingClientRect();
      const view = (svg.closest('.mg-stepper-view') || svg).getBoundingClientRect();
      const box = {top: Math.max(drawn.top, view.top), bottom: Math.min(drawn.bottom, view.bottom)};
      return box.top < bar.bottom - 1 && box.bottom > bar.top;
    });
  let stuck = 0;
  for (const header of document.querySelectorAll('.bd-header, .bd-header-article')) {
    const style = getComputedStyle(header);
    if ((style.position === 'sticky' || style.position === 'fixed')
        && header.getBoundingClientRect().top <= 0) {
      stuck = Math.max(stuck, header.getBoundingClientRect().bottom);
    }
  }
  return {
    step: Number(frame.dataset.frame),
    titles: Array.from(frame.querySelectorAll('.mg-stepper-side')).filter(shown)
      .map((side) => side.querySelector('.mg-stepper-title').textContent),
    drawings: Array.from(frame.querySelectorAll('svg.micrograd-graph')).filter(shown).length,
    switch: Array.from(stepper.querySelectorAll('.mg-stepper-switch button')).filter(shown)
      .map((b) => [b.textContent, b.getAttribute('aria-pressed')]),
    covered: covered.map((svg) => svg.getAttribute('aria-label').slice(0, 60)),
    height: stepper.getBoundingClientRect().height,
    room: innerHeight - stuck,
  };
}"""

#: The stacked pair was 1,726 px tall on a phone: two screens to compare its orders.
#: One side at a time is at most this many screens tall.
PAIR_SCREENS = 1.25


def test_on_a_phone_the_backward_page_reads_without_inner_scroll_boxes_or_covered_drawings(
    tab: Tab,
) -> None:
    """The stepper pair shows one side at a time, its words say so, and its switch keeps
    the step.

    Each frame shows one side's drawing, the first's until the switch chose the other;
    pressing a side's button shows that side on the same step, the button pressed and
    the other not.  Nothing inside a figure scrolls sideways, nor up and down inside the
    pair (but a drawing cropped to the window, in a region the keyboard scrolls), and the
    pair is about a screen tall.  Stepping brings the pair's buttons back
    above its drawing, never over it.
    """
    tab.page.set_viewport_size({"width": 390, "height": 844})
    tab.open("backward.html")
    words = tab.page.locator(".mg-pair-words").all_inner_texts()
    assert words == [
        "one at a time, with a switch between them",
        "shown first",
        "a press of the switch away",
    ]
    assert tab.evaluate(INNER_SCROLL_JS) == []
    pair = tab.page.locator(".mg-stepper-pair.mg-ready").first
    pair.focus()
    tab.page.keyboard.press("Home")  # a step: the first frame, the pair brought into view
    frames = pair.locator(":scope > .mg-stepper-frame").count()
    switch = pair.locator(".mg-stepper-switch button")
    sides = [("backward()", ["true", "false"]), ("breadth first", ["false", "true"])]
    for frame in range(frames):
        for k, (title, pressed) in enumerate([*sides, sides[0]]):
            if frame or k:
                switch.nth(k % 2).click()
            shown = pair.evaluate(PAIR_FRAME_JS)
            where = f"frame {frame}, {title}: {shown}"
            assert shown["step"] == frame, where
            assert shown["titles"] == [title + ":"], where
            assert shown["drawings"] == 1, where
            assert shown["switch"] == [[t, p] for (t, _), p in zip(sides, pressed, strict=True)]
            assert shown["covered"] == [], where
            assert shown["height"] <= PAIR_SCREENS * shown["room"], where
            assert tab.evaluate(INNER_SCROLL_JS) == [], where
        if frame + 1 < frames:
            pair.locator(".mg-stepper-next").click()


def test_on_a_laptop_the_pair_stands_side_by_side_without_its_switch(tab: Tab) -> None:
    tab.open("backward.html")
    words = tab.page.locator(".mg-pair-words").all_inner_texts()
    assert words == ["side by side", "on the left", "on the right"]
    pair = tab.page.locator(".mg-stepper-pair.mg-ready").first
    shown = pair.evaluate(PAIR_FRAME_JS)
    assert shown["titles"] == ["backward():", "breadth first:"], shown
    assert shown["drawings"] == 2, shown
    assert shown["switch"] == [], shown
