"""Figures as a first-time reader meets them, on a laptop and on a phone.

* every figure (plot or graph) and every table fits the reading column, with
  labels still large enough to read, or scrolls sideways in a labelled region the
  keyboard can scroll, with its labels at 11 px or more;
* a figure shown smaller than its natural size opens full size on click (or Enter);
* hovering a node or an arrow of a graph shows its exact numbers;
* the backward stepper changes the picture, from the keyboard too, and its
  last frame is the drawing ``draw_dot`` makes after ``backward()``; no box cuts
  a node of any frame of any stepper, on a laptop and on a phone;
* every plot has a legend.

Each page is opened in a fresh browser context: nothing in localStorage.  The
checks of every page at every viewport read one load of it there (``layouts``).
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import CONTENT_PAGES as PAGES
from PIL import Image, ImageChops
from sitefiles import article, parse
from steppers import (
    SIDEWAYS_JS,
    STEPPER_PAGES,
    STEPPER_STATE_JS,
    clipped_stepping_through,
    off_screen_stepping_through,
    pages_with_steppers,
)

#: The reader's screens: a laptop and a phone (CSS pixels).
VIEWPORTS = {"laptop": (1366, 768), "phone": (390, 844)}
#: A small phone's screen (CSS pixels): its column is too narrow for the neuron's
#: stepper at 12 px, which scrolls sideways there.
SMALL_PHONE = {"width": 320, "height": 568}
#: A phone's window with less height (CSS pixels): a browser's bars take some of the
#: screen.  The steppers' drawings, whole at 390x844, are cropped to it.
SHORT_PHONE = {"width": 390, "height": 780}

#: The smallest a label may be drawn, in CSS pixels: the graphs' 12 pt text at
#: their natural size is 16 px, a plot's 10 pt tick labels 13.3 px.  (A graph
#: as wide as 2,400 pt squeezed into a laptop's column would be about 5 px.)
MIN_LABEL_PX = 9.0
#: The smallest a label may be drawn in a figure that scrolls sideways (it was not
#: shrunk to the column: it has the room to be read comfortably).
MIN_SIDEWAYS_LABEL_PX = 11.0
#: The smallest a graph's label may be drawn on a phone, a stepper's frame fitted to the
#: window too, a pair's side too: read there without a zoom (the page draws them at 12 px
#: or more).  A laptop's graphs too: a node's text is read, not glanced at.
MIN_GRAPH_LABEL_PX = 11.0
#: The smallest the backward page's pair draws its labels at 1366x768, whole in the
#: window, its two sides' words beside it: their height bounds it (it was 11.0 px, then
#: 11.8 with the words in body type).
MIN_LAPTOP_PAIR_LABEL_PX = 12.8
#: The smallest the neuron's and the backward page's steppers draw their labels at
#: 1366x768, whole in the window: near a plain graph's 16 px (they were 11.4 px).
MIN_LAPTOP_ONE_STEPPER_LABEL_PX = 14.0

#: Every visible figure and table of the article, with what the tests need to know.
FIGURES_JS = """
async () => {
  const article = document.querySelector('article.bd-article');
  const column = article.getBoundingClientRect();
  const style = getComputedStyle(article);
  const left = column.left + parseFloat(style.paddingLeft);
  const right = column.right - parseFloat(style.paddingRight);
  const found = [];
  const shown = (el) => el.getClientRects().length > 0;
  // Anything between the figure and the article that scrolls sideways, and whether it
  // is a region the keyboard can scroll: named, role=region, tabindex=0.
  const scrolled = (el) => {
    const out = [];
    for (let p = el.parentElement; p && p !== article; p = p.parentElement) {
      if (p.scrollWidth > p.clientWidth + 1 && getComputedStyle(p).overflowX !== 'visible') {
        const box = p.getBoundingClientRect();
        out.push({name: p.className || p.tagName,
                  region: p.getAttribute('role') === 'region' && !!p.getAttribute('aria-label')
                          && p.getAttribute('tabindex') === '0',
                  left: box.left - left, right: right - box.right});
      }
    }
    return out;
  };
  const place = (el) => {
    const box = el.getBoundingClientRect();
    return {left: box.left - left, right: right - box.right, width: box.width,
            scrolled: scrolled(el)};
  };
  for (const svg of article.querySelectorAll('svg.micrograd-graph')) {
    if (!shown(svg)) continue;
    let smallest = Infinity;
    for (const text of svg.querySelectorAll('text')) {
      smallest = Math.min(smallest,
        parseFloat(text.getAttribute('font-size')) * text.getScreenCTM().a);
    }
    found.push({kind: 'graph', name: svg.getAttribute('aria-label') || '', ...place(svg),
                natural: svg.width.baseVal.value, label_px: smallest,
                pair: !!svg.closest('.mg-stepper-pair')});
  }
  for (const img of article.querySelectorAll('div.cell_output img')) {
    if (!shown(img)) continue;
    // A matplotlib SVG draws each text as glyphs scaled by (font size in pt) / 100.
    const doc = new DOMParser().parseFromString(
      await (await fetch(img.src)).text(), 'image/svg+xml');
    const viewWidth = doc.documentElement.viewBox.baseVal.width;
    let smallest = Infinity;
    for (const group of doc.querySelectorAll('g[id^="text_"]')) {
      let size = 0;
      for (const el of group.querySelectorAll('[transform*="scale("]')) {
        const m = /scale\\(([\\d.]+)/.exec(el.getAttribute('transform'));
        if (m) size = Math.max(size, parseFloat(m[1]) * 100);
      }
      if (size) smallest = Math.min(smallest, size);
    }
    const box = img.getBoundingClientRect();
    found.push({kind: 'plot', name: img.getAttribute('alt') || img.src, ...place(img),
                natural: img.naturalWidth, label_px: smallest * box.width / viewWidth});
  }
  for (const table of article.querySelectorAll('table')) {
    if (!shown(table)) continue;
    const size = parseFloat(getComputedStyle(table).fontSize);
    found.push({kind: 'table', name: table.innerText.slice(0, 40), ...place(table),
                natural: table.scrollWidth, label_px: size});
  }
  return found;
}
"""


def fresh_page(browser: Any, viewport: str, theme: str = "light") -> Iterator[Any]:
    """A tab in a fresh context at ``viewport``; in dark mode, the mode a reader chose."""
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=theme)
    if theme != "light":
        # pydata-sphinx-theme reads the reader's choice from localStorage before painting.
        context.add_init_script(
            f"localStorage.setItem('mode', {theme!r}); localStorage.setItem('theme', {theme!r});"
        )
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture(params=list(VIEWPORTS))
def viewport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def tab(browser: Any, server: str, viewport: str) -> Iterator[Any]:
    yield from fresh_page(browser, viewport)


@pytest.fixture
def phone(browser: Any, server: str) -> Iterator[Any]:
    yield from fresh_page(browser, "phone")


@pytest.fixture
def laptop(browser: Any, server: str) -> Iterator[Any]:
    yield from fresh_page(browser, "laptop")


def open_page(tab: Any, server: str, page: str) -> None:
    tab.goto(f"{server}/{page}", wait_until="networkidle")
    tab.wait_for_function("document.readyState === 'complete'")


@dataclass(frozen=True)
class Layout:
    """What one load of a page at one viewport shows of its figures (read, not changed)."""

    #: Every visible figure and table: :data:`FIGURES_JS`.
    figures: list[dict[str, Any]]
    #: Every visible plot and graph, zoomable or not: :func:`zoomable_figures`.
    zoomable: list[dict[str, Any]]


@pytest.fixture(scope="session")
def layouts(browser: Any, server: str) -> Callable[[str, str], Layout]:
    """``layouts(page, viewport)``: the figures of one fresh load of ``page`` at ``viewport``.

    Both checks of every page at every viewport read the same load: each only
    reads the page as it loaded, so neither can change what the other sees.
    """
    cache: dict[tuple[str, str], Layout] = {}

    def get(page: str, viewport: str) -> Layout:
        if (page, viewport) not in cache:
            for tab in fresh_page(browser, viewport):
                open_page(tab, server, page)
                zoomable = zoomable_figures(tab)
                cache[page, viewport] = Layout(figures=tab.evaluate(FIGURES_JS), zoomable=zoomable)
        return cache[page, viewport]

    return get


# -- every figure and table fits, and can be read -------------------------------------------


def test_every_figure_and_table_fits_the_column_with_readable_labels(
    layouts: Any, content_page_path: str, viewport: str
) -> None:
    page = content_page_path
    problems = []
    for item in layouts(page, viewport).figures:
        where = f"{item['kind']} {item['name'][:60]!r}"
        # A figure that scrolls sideways: the region it scrolls in fits the column.
        for box in [*item["scrolled"], item][:1]:
            if box["left"] < -1 or box["right"] < -1:
                problems.append(f"{where} sticks out of the column ({item})")
        regions = all(box["region"] for box in item["scrolled"])
        if item["scrolled"] and not regions:
            problems.append(f"{where} scrolls sideways in {item['scrolled']}, not a region")
        least = MIN_SIDEWAYS_LABEL_PX if item["scrolled"] else MIN_LABEL_PX
        if item["kind"] == "graph":
            least = max(least, MIN_GRAPH_LABEL_PX)
        if item["label_px"] < least:
            problems.append(f"{where}: labels drawn at {item['label_px']:.1f} px")
    assert not problems, f"{page} at {viewport}:\n" + "\n".join(problems)


def test_on_a_phone_the_neurons_graphs_are_drawn_at_11_px_or_more(layouts: Any) -> None:
    """The neuron's graph, drawn and in the stepper, is read on a phone without a zoom."""
    graphs = [item for item in layouts("neuron.html", "phone").figures if item["kind"] == "graph"]
    assert len(graphs) >= 3, graphs  # the neuron, the stepper's frame, the neuron with exp
    small = [(g["name"][:50], round(g["label_px"], 1)) for g in graphs if g["label_px"] < 11.0]
    assert not small, small


def test_in_dark_mode_a_phone_draws_the_neurons_graphs_at_11_px_or_more(
    browser: Any, server: str
) -> None:
    """The light backing dark mode gives a graph takes nothing from its width: drawn, and
    in the stepper, the neuron's graph is read on a phone in dark mode too."""
    for tab in fresh_page(browser, "phone", "dark"):
        open_page(tab, server, "neuron.html")
        assert tab.evaluate("document.documentElement.dataset.theme") == "dark"
        graphs = [item for item in tab.evaluate(FIGURES_JS) if item["kind"] == "graph"]
    assert len(graphs) >= 3, graphs
    small = [(g["name"][:50], round(g["label_px"], 1)) for g in graphs if g["label_px"] < 11.0]
    assert not small, small


#: A stepper's shown drawing against its view: their widths, its edges' place in the view,
#: how far the view scrolls sideways, and the drawing's smallest label (CSS px).
FITS_ITS_BOX_JS = """
(stepper) => {
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  const view = frame.querySelector('.mg-stepper-view');
  const svg = view.querySelector('svg.micrograd-graph');
  const v = view.getBoundingClientRect();
  const b = svg.getBoundingClientRect();
  const sizes = Array.from(svg.querySelectorAll('text'),
    (t) => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a);
  return {drawing: b.width, view: v.width, left: b.left - v.left, right: v.right - b.right,
          scrolls: view.scrollWidth - view.clientWidth, label: Math.min(...sizes),
          sideways: view.classList.contains('mg-sideways')};
}
"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_on_a_phone_the_neuron_stepper_fits_its_box_without_scrolling_sideways(
    browser: Any, server: str, theme: str
) -> None:
    """On a 390 px phone every frame of the neuron's stepper is whole in its box, its
    labels at 11 px or more (the page draws them at 12 px): no node is cut at either
    edge, and the view neither scrolls sideways nor says it does."""
    for phone in fresh_page(browser, "phone", theme):
        open_page(phone, server, "neuron.html")
        stepper = phone.locator(".mg-stepper.mg-ready").first
        stepper.press("Home")
        total = stepper.evaluate(STEPPER_STATE_JS)["total"]
        seen = []
        for step in range(total):
            seen.append(stepper.evaluate(FITS_ITS_BOX_JS))
            if step < total - 1:
                stepper.locator(".mg-stepper-next").click()
        note = stepper.locator(".mg-stepper-frame.mg-current .mg-stepper-scroll-note")
        # A note may say that the drawing is cropped to the window's height, not sideways.
        assert note.is_hidden() or "sideways" not in (note.text_content() or "")
    for step, fit in enumerate(seen, start=1):
        assert not fit["sideways"], (step, fit)
        assert fit["scrolls"] <= 0, (step, fit)
        assert fit["left"] >= -0.5, (step, fit)
        assert fit["right"] >= -0.5, (step, fit)
        assert fit["label"] >= MIN_GRAPH_LABEL_PX, (step, fit)


def test_on_a_small_phone_the_neurons_stepper_scrolls_sideways_in_a_region_at_11_px(
    phone: Any, server: str
) -> None:
    """Too wide for a small phone's column at 11 px, every frame of the neuron's stepper
    scrolls sideways in a region the keyboard can scroll, named, its labels at 11 px or
    more."""
    phone.set_viewport_size(SMALL_PHONE)
    open_page(phone, server, "neuron.html")
    stepper = phone.locator(".mg-stepper").first
    total = stepper.evaluate(STEPPER_STATE_JS)["total"]
    for step in range(total):
        regions = stepper.evaluate(SIDEWAYS_JS)
        assert len(regions) == 1, (step, regions)
        (region,) = regions
        assert region["role"] == "region", (step, region)
        assert region["tabindex"] == "0", (step, region)
        assert region["label"], (step, region)
        assert region["label_px"] >= 11.0, (step, region)
        if step < total - 1:
            stepper.locator(".mg-stepper-next").click()
    # The keyboard scrolls it: the region takes the focus, and an arrow key moves the
    # drawing, not the stepper.
    view = stepper.locator(".mg-stepper-frame.mg-current .mg-stepper-view")
    view.evaluate("(v) => { v.scrollLeft = 0; }")
    view.focus()
    phone.keyboard.press("ArrowRight")
    phone.wait_for_function("(v) => v.scrollLeft > 0", arg=view.element_handle(), polling="raf")
    assert stepper.evaluate(STEPPER_STATE_JS)["shown"] == [total - 1]


def test_on_a_phone_the_backward_pages_printed_orders_fit_the_column(
    phone: Any, server: str
) -> None:
    """The output with the "engine order:" and "breadth first:" lines is read whole on a
    phone: it does not scroll sideways."""
    open_page(phone, server, "backward.html")
    outputs = phone.evaluate(
        """() => Array.from(document.querySelectorAll('article div.cell_output pre'))
              .filter((pre) => pre.getClientRects().length)
              .map((pre) => ({text: pre.textContent.slice(0, 40),
                              wide: pre.scrollWidth > pre.clientWidth + 1}))"""
    )
    orders = [o for o in outputs if o["text"].startswith("engine order:")]
    assert len(orders) == 1, outputs
    assert not orders[0]["wide"], orders


def test_the_figure_check_sees_the_figures(browser: Any, server: str) -> None:
    """The check above measures real figures: the graphs, a plot and the rules table."""
    for viewport in VIEWPORTS:
        for tab in fresh_page(browser, viewport):
            open_page(tab, server, "mlp.html")
            kinds = [item["kind"] for item in tab.evaluate(FIGURES_JS)]
            assert kinds.count("graph") == 2
            assert kinds.count("plot") == 2
            open_page(tab, server, "local-rules.html")
            assert "table" in [item["kind"] for item in tab.evaluate(FIGURES_JS)]


# -- full size on click ----------------------------------------------------------------------

LIGHTBOX_JS = """
() => {
  const dialog = document.querySelector('dialog.mg-lightbox');
  if (!dialog) return null;
  const figure = dialog.querySelector('svg, img');
  const style = getComputedStyle(figure);
  const width = figure.getBoundingClientRect().width
    - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return {open: dialog.open, width: width,
          scrollable: dialog.scrollWidth > dialog.clientWidth};
}
"""


def zoomable_figures(tab: Any) -> list[dict[str, Any]]:
    return tab.evaluate(
        """() => Array.from(document.querySelectorAll(
              '.bd-article div.cell_output img, .bd-article svg.micrograd-graph'))
            .filter((el) => el.getClientRects().length)
            .map((el) => ({zoomable: el.classList.contains('mg-zoomable'),
                           shown: el.getBoundingClientRect().width,
                           natural: el instanceof SVGSVGElement ? el.width.baseVal.value
                                                                : el.naturalWidth}))"""
    )


def test_a_figure_shown_smaller_than_its_natural_size_is_marked_zoomable(
    layouts: Any, content_page_path: str, viewport: str
) -> None:
    page = content_page_path
    for figure in layouts(page, viewport).zoomable:
        smaller = figure["natural"] - figure["shown"] > 1
        assert figure["zoomable"] == smaller, f"{page} at {viewport}: {figure}"


@pytest.mark.parametrize(
    ("zoom_page", "selector"),
    [
        ("neuron.html", "svg.micrograd-graph"),  # a graph, inline
        ("mlp.html", "div.cell_output img"),  # a plot, an image
    ],
)
def test_clicking_a_shrunk_figure_opens_it_full_size(
    phone: Any, server: str, zoom_page: str, selector: str
) -> None:
    open_page(phone, server, zoom_page)
    figure = phone.locator(f".bd-article {selector}.mg-zoomable").first
    natural = figure.evaluate(
        "(el) => el instanceof SVGSVGElement ? el.width.baseVal.value : el.naturalWidth"
    )
    shown = figure.bounding_box()["width"]
    assert shown < natural - 1, "on a phone this figure is shown smaller"
    assert phone.evaluate(LIGHTBOX_JS) is None
    figure.click()
    box = phone.evaluate(LIGHTBOX_JS)
    assert box is not None, "no dialog opened"
    assert box["open"]
    assert abs(box["width"] - natural) <= 1, f"shown at {box['width']} px, natural {natural}"
    assert box["scrollable"], "the full-size figure is wider than the phone: it scrolls"
    phone.keyboard.press("Escape")
    phone.wait_for_function("!document.querySelector('dialog.mg-lightbox')")
    # The keyboard does the same: focus the figure, press Enter.
    figure.focus()
    phone.keyboard.press("Enter")
    assert phone.evaluate(LIGHTBOX_JS)["open"]
    phone.locator("dialog.mg-lightbox .mg-lightbox-close").click()
    phone.wait_for_function("!document.querySelector('dialog.mg-lightbox')")


def test_figures_added_later_are_set_up_too(phone: Any, server: str) -> None:
    """A cell output replaced in the browser (say, by running the cell) gets the same care:
    a graph shown smaller than drawn opens full size.  (A stepper a run shows is set up by
    the run itself: test_live_page.py, and tests/js/features/steppers in Node.)"""
    open_page(phone, server, "backward.html")
    phone.evaluate(
        """() => {
          const output = document.querySelector('.bd-article div.cell_output');
          // A graph the phone shows smaller than drawn (the first may just fit the column).
          const graph = document.querySelector('div.cell_output > svg.mg-zoomable').cloneNode(true);
          graph.id = 'added-graph';
          graph.classList.remove('mg-zoomable');
          output.append(graph);
        }"""
    )
    phone.wait_for_function(
        "document.querySelector('#added-graph').classList.contains('mg-zoomable')"
    )


def test_a_figure_at_natural_size_does_not_open_on_click(laptop: Any, server: str) -> None:
    open_page(laptop, server, "accumulate.html")
    graph = laptop.locator(".bd-article svg.micrograd-graph").first
    assert "mg-zoomable" not in (graph.get_attribute("class") or "")
    graph.click()
    assert laptop.evaluate(LIGHTBOX_JS) is None


# -- tooltips --------------------------------------------------------------------------------

#: A point of the page where the element whose ``<title>`` starts with ``prefix``
#: (a node or an arrow of a graph) is what the pointer would be on: for a node,
#: the middle of its shape; for an arrow, the first point along its line that
#: no other arrow crosses.  The element is scrolled to the middle of the screen.
POINT_ON_JS = """
([graph, prefix]) => {
  const item = Array.from(graph.querySelectorAll('g.node, g.edge')).find((g) => {
    const title = g.querySelector(':scope > title');
    return title && title.textContent.startsWith(prefix);
  });
  if (!item) return null;
  item.scrollIntoView({block: 'center'});
  const shape = item.querySelector('path, polygon, ellipse');
  const hits = (x, y) => item.contains(document.elementFromPoint(x, y));
  if (item.classList.contains('node')) {
    const box = shape.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    return hits(x, y) ? [x, y] : null;
  }
  const m = shape.getScreenCTM(), length = shape.getTotalLength();
  for (let f = 0.2; f <= 0.8; f += 0.05) {
    const q = shape.getPointAtLength(length * f);
    const x = q.x * m.a + q.y * m.c + m.e, y = q.x * m.b + q.y * m.d + m.f;
    if (hits(x, y)) return [x, y];
  }
  return null;
}
"""

#: The tooltip a reader gets at a point: the nearest ``<title>`` of the element
#: under the pointer or of its ancestors, as the browser chooses it.
TOOLTIP_AT_JS = """
([x, y]) => {
  for (let el = document.elementFromPoint(x, y); el; el = el.parentElement) {
    const title = Array.from(el.children).find((c) => c.tagName.toLowerCase() === 'title');
    if (title) return title.textContent;
  }
  return null;
}
"""


def tooltip_of(tab: Any, graph: Any, prefix: str) -> str | None:
    """Rest the pointer on the node or arrow whose tooltip starts with ``prefix``."""
    point = tab.evaluate(POINT_ON_JS, [graph.element_handle(), prefix])
    assert point is not None, f"no node or arrow {prefix!r} to point at"
    tab.mouse.move(*point)
    return tab.evaluate(TOOLTIP_AT_JS, point)


def test_hovering_a_value_or_an_arrow_of_draw_dot_shows_its_exact_data_and_grad(
    laptop: Any, server: str
) -> None:
    from micrograd import Value

    open_page(laptop, server, "neuron.html")
    graph = laptop.locator(".bd-article div.cell_output svg.micrograd-graph").first
    # The same neuron as the page's first cell, for the exact numbers.
    x1, w1 = Value(2.0), Value(-3.0)
    o = (x1 * w1 + Value(0.0) * Value(1.0) + Value(6.8813735870195432)).tanh()
    o.backward()
    assert tooltip_of(laptop, graph, "x1: ") == f"x1: data = 2.0, grad = {x1.grad!r}"
    assert repr(x1.grad) != "-1.5"  # the box says -1.5000; the tooltip has every digit
    assert tooltip_of(laptop, graph, "x1 -> *") == f"x1 -> *: data = 2.0, grad = {x1.grad!r}"
    assert tooltip_of(laptop, graph, "o: ") == f"o: data = {o.data!r}, grad = 1.0"


def test_hovering_draw_mlp_shows_each_exact_weight_and_bias(laptop: Any, server: str) -> None:
    from micrograd import MLP

    random.seed(1337)  # the mlp page's model, untrained
    model = MLP(3, [4, 4, 1], activation="tanh", output_activation="tanh")
    open_page(laptop, server, "mlp.html")
    network = laptop.locator(".bd-article div.cell_output svg.micrograd-graph").first
    first = model.layers[0].neurons[0]
    tip = tooltip_of(laptop, network, f"w = {first.w[0].data!r}:")
    assert tip == f"w = {first.w[0].data!r}: input 1 of hidden 1 (4, tanh), neuron 1"
    last = model.layers[2].neurons[0]
    tip = tooltip_of(laptop, network, f"w = {last.w[3].data!r}:")
    assert tip == f"w = {last.w[3].data!r}: input 4 of output (1, tanh), neuron 1"
    tip = tooltip_of(laptop, network, "hidden 1 (4, tanh), neuron 1:")
    assert tip == f"hidden 1 (4, tanh), neuron 1: {first!r}, bias = 0.0"


def test_graphs_are_inline_svg_not_images(html: Path) -> None:
    """An <img> never shows its SVG's tooltips: every Graphviz drawing is inline."""
    for page in PAGES:
        body = article(parse(html, page))
        for img in body.find_all("img"):
            source = (html / page).parent / str(img["src"])
            if source.suffix == ".svg" and source.is_file():
                assert "Generated by graphviz" not in source.read_text(encoding="utf-8")[:500], (
                    f"{page}: a graph is an <img> ({img['src']})"
                )


# -- the backward stepper --------------------------------------------------------------------


def _normalised(svg_markup: str) -> str:
    """An inline graph's markup without its page-specific ids and accessible name."""
    markup = re.sub(r' id="[^"]*"', "", svg_markup)
    return re.sub(r' (aria-label|class|tabindex|aria-keyshortcuts|style)="[^"]*"', "", markup)


def _shot(locator: Any) -> Image.Image:
    return Image.open(io.BytesIO(locator.screenshot(animations="disabled"))).convert("RGB")


@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_the_stepper_changes_the_picture_with_its_buttons(
    laptop: Any, server: str, stepper_page: str
) -> None:
    open_page(laptop, server, stepper_page)
    stepper = laptop.locator(".mg-stepper").first
    state = stepper.evaluate(STEPPER_STATE_JS)
    assert state["controls"], "the buttons are hidden: the stepper's script did not run"
    assert state["shown"] == [0]
    assert state["status"] == f"Step 1 of {state['total']}"
    assert state["previous"], "Previous is enabled on the first frame"
    assert not state["next"]
    frame = stepper.locator(".mg-stepper-frame.mg-current svg")
    before = _shot(frame)
    stepper.locator(".mg-stepper-next").click()
    state = stepper.evaluate(STEPPER_STATE_JS)
    assert state["shown"] == [1]
    assert state["status"] == f"Step 2 of {state['total']}"
    assert state["live"].startswith(f"Step 2 of {state['total']}: backward() sets ")
    after = _shot(stepper.locator(".mg-stepper-frame.mg-current svg"))
    assert before.size != after.size or ImageChops.difference(before, after).getbbox(), (
        "Next did not change the picture"
    )
    stepper.locator(".mg-stepper-prev").click()
    assert stepper.evaluate(STEPPER_STATE_JS)["shown"] == [0]


@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_the_stepper_works_from_the_keyboard(laptop: Any, server: str, stepper_page: str) -> None:
    open_page(laptop, server, stepper_page)
    stepper = laptop.locator(".mg-stepper").first
    total = stepper.evaluate(STEPPER_STATE_JS)["total"]
    # Tab reaches the stepper and its buttons; the arrow keys step when it has the focus.
    stepper.focus()
    assert laptop.evaluate("document.activeElement.classList.contains('mg-stepper')")
    laptop.keyboard.press("ArrowRight")
    laptop.keyboard.press("ArrowRight")
    assert stepper.evaluate(STEPPER_STATE_JS)["shown"] == [2]
    laptop.keyboard.press("ArrowLeft")
    assert stepper.evaluate(STEPPER_STATE_JS)["shown"] == [1]
    laptop.keyboard.press("End")
    state = stepper.evaluate(STEPPER_STATE_JS)
    assert state["shown"] == [total - 1]
    assert state["next"], "Next is enabled on the last frame"
    assert not state["previous"]
    laptop.keyboard.press("ArrowRight")  # nothing after the last frame
    assert stepper.evaluate(STEPPER_STATE_JS)["shown"] == [total - 1]
    laptop.keyboard.press("Home")
    assert stepper.evaluate(STEPPER_STATE_JS)["shown"] == [0]
    laptop.keyboard.press("Tab")  # into the controls: the enabled button
    focused = laptop.evaluate("document.activeElement.className")
    assert focused == "mg-stepper-next"
    laptop.keyboard.press("Enter")
    assert stepper.evaluate(STEPPER_STATE_JS)["shown"] == [1]


@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_the_arrow_keys_still_step_after_next_is_clicked_to_the_last_frame(
    laptop: Any, server: str, stepper_page: str
) -> None:
    # Next, disabled on the last frame while it has the focus, must not drop the focus to
    # the page: the arrow keys would stop stepping until the reader clicks the stepper again.
    open_page(laptop, server, stepper_page)
    stepper = laptop.locator(".mg-stepper").first
    total = stepper.evaluate(STEPPER_STATE_JS)["total"]
    next_button = stepper.locator(".mg-stepper-next")
    for _ in range(total - 1):
        next_button.focus()
        laptop.keyboard.press("Enter")
    assert stepper.evaluate(STEPPER_STATE_JS)["shown"] == [total - 1]
    assert stepper.evaluate("(s) => s.contains(document.activeElement)"), (
        "the focus left the stepper: " + laptop.evaluate("document.activeElement.tagName")
    )
    laptop.keyboard.press("ArrowLeft")
    assert stepper.evaluate(STEPPER_STATE_JS)["shown"] == [total - 2]


@pytest.mark.parametrize(
    ("stepper_page", "after_backward"),
    [
        ("backward.html", "The same computation graph of L = (a * b + c) * f after L.backward()"),
        ("neuron.html", "Computation graph of the neuron:"),
    ],
)
def test_the_steppers_last_frame_is_the_drawing_after_backward(
    laptop: Any, server: str, stepper_page: str, after_backward: str
) -> None:
    open_page(laptop, server, stepper_page)
    stepper = laptop.locator(".mg-stepper").first
    total = stepper.evaluate(STEPPER_STATE_JS)["total"]
    for _ in range(total - 1):
        stepper.locator(".mg-stepper-next").click()
    state = stepper.evaluate(STEPPER_STATE_JS)
    assert state["shown"] == [total - 1]
    output = "L" if stepper_page == "backward.html" else "o"
    done = f"Done: every grad is filled in, as {output}.backward() leaves it."
    assert state["live"].endswith(done)
    last = stepper.locator(".mg-stepper-frame.mg-current svg").evaluate("(s) => s.outerHTML")
    drawing = laptop.locator(f'svg.micrograd-graph[aria-label^="{after_backward}"]')
    assert drawing.count() == 1
    assert _normalised(last) == _normalised(drawing.evaluate("(s) => s.outerHTML"))
    # and not merely any frame: the first one differs
    first = stepper.locator(".mg-stepper-frame").first.locator("svg").evaluate("(s) => s.outerHTML")
    assert _normalised(first) != _normalised(last)


def test_the_stepper_follows_the_engines_order(html: Path) -> None:
    """The backward page's frames run L's rule, then d's, then e's: reverse topological
    order, the leaves (a, b, c, f) folded into the steps that send them their gradient."""
    stepper = article(parse(html, "backward.html")).select_one(".mg-stepper")
    sums = [
        [s.extract().get_text() for s in c.select(".mg-stepper-sum")]
        for c in stepper.select("figcaption")
    ]
    captions = [c.get_text(" ", strip=True) for c in stepper.select("figcaption")]
    named = [re.match(r"Step \d+ of \d+: (\w+) (=|is)", c) for c in captions[2:-1]]
    assert [m.group(1) for m in named if m] == ["L", "d", "e"]
    assert captions[4].endswith("a and b are leaves: their grads are final.")
    # Each rule's arithmetic, with the step's numbers, under its caption.
    assert sums[4] == [
        "a.grad += b.data \u00d7 e.grad = -3.0000 \u00d7 -2.0000 = 6.0000",
        "b.grad += a.data \u00d7 e.grad = 2.0000 \u00d7 -2.0000 = -4.0000",
    ]
    assert sums[0] == sums[1] == sums[-1] == []


@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_every_frame_of_every_stepper_shows_its_controls_captions_and_active_node_at_once(
    tab: Any, server: str, stepper_page: str, viewport: str
) -> None:
    """Step through each stepper with Next, without scrolling: all that matters is in view."""
    open_page(tab, server, stepper_page)
    steppers = tab.locator(".mg-stepper")
    assert steppers.count() >= 1
    for k in range(steppers.count()):
        stepper = steppers.nth(k)
        problems = off_screen_stepping_through(stepper)
        assert not problems, f"{stepper_page} stepper {k} at {viewport}:\n" + "\n".join(problems)


#: Each shown drawing of a stepper's current frame: its size and its place in the stepper,
#: as much of it as its view shows (a phone's may be cropped to the window, and scroll).
DRAWINGS_JS = """
(stepper) => {
  const top = stepper.getBoundingClientRect().top;
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  return Array.from(frame.querySelectorAll('svg.micrograd-graph'))
    .filter((svg) => svg.getClientRects().length > 0)
    .map((svg) => { const b = svg.getBoundingClientRect();
                    const v = (svg.closest('.mg-stepper-view') || svg).getBoundingClientRect();
                    const [from, to] = [Math.max(b.top, v.top), Math.min(b.bottom, v.bottom)];
                    return [Math.round(b.width), Math.round(to - from), Math.round(from - top),
                            Math.round(to), innerHeight]; });
}
"""


@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_a_steppers_drawings_keep_their_size_and_place_from_step_to_step(
    tab: Any, server: str, stepper_page: str, viewport: str
) -> None:
    """A longer caption neither shrinks a drawing nor pushes it down; a pair's two
    drawings start level; on a laptop, each drawing of a pair is whole in the window."""
    open_page(tab, server, stepper_page)
    steppers = tab.locator(".mg-stepper")
    for k in range(steppers.count()):
        stepper = steppers.nth(k)
        stepper.press("Home")  # a step, to the first frame: it brings the stepper into view
        total = stepper.evaluate(STEPPER_STATE_JS)["total"]
        seen = []
        for step in range(total):
            if step:
                stepper.locator(".mg-stepper-next").click()
            seen.append(stepper.evaluate(DRAWINGS_JS))
        where = f"{stepper_page} stepper {k} at {viewport}"
        # The height and the place; a frame's layout may be a few px wider than another's
        # (a longer number in a box), at the same scale.  A stepper taller than the window,
        # its words above its drawings, keeps the size only: the page scrolls to each
        # step's node at work, under the step's words stuck below the buttons.  Its words
        # below its drawing (a phone), it keeps the place too.
        classes = (stepper.get_attribute("class") or "").split()
        tall = "mg-tall" in classes and "mg-words-below" not in classes
        kept = {tuple((h, 0 if tall else y) for _, h, y, _, _ in step) for step in seen}
        assert len(kept) == 1, f"{where}: {seen}"
        widths = [w for step in seen for w, *_ in step]
        assert max(widths) <= 1.03 * min(widths), f"{where}: {seen}"
        assert len({y for w, h, y, _, _ in seen[0]}) == 1, f"{where}: sides not level {seen[0]}"
        if viewport == "laptop" and "mg-stepper-pair" in (stepper.get_attribute("class") or ""):
            cut = [(step, d) for step, ds in enumerate(seen) for d in ds if d[3] > d[4]]
            assert not cut, f"{where}: a drawing's bottom below the window {cut}"


#: Each caption box of a stepper's current frame (its own, a pair's sides'): its place
#: across the page and its width, and its top in the stepper.
WORDS_JS = """
(stepper) => {
  const top = stepper.getBoundingClientRect().top;
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  return Array.from(frame.querySelectorAll('figcaption'))
    .filter((caption) => caption.getClientRects().length > 0)
    .map((caption) => caption.getBoundingClientRect())
    .map((b) => [Math.round(b.left), Math.round(b.width), Math.round(b.top - top)]);
}
"""


@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_a_steppers_words_keep_their_place_from_step_to_step(
    tab: Any, server: str, stepper_page: str, viewport: str
) -> None:
    """A short step's words lie where a long one's do, as wide: the reader's eye finds
    them in one place at every step (the theme centres a figure's caption)."""
    open_page(tab, server, stepper_page)
    steppers = tab.locator(".mg-stepper")
    for k in range(steppers.count()):
        stepper = steppers.nth(k)
        stepper.press("Home")  # a step, to the first frame: it brings the stepper into view
        total = stepper.evaluate(STEPPER_STATE_JS)["total"]
        seen = []
        for step in range(total):
            if step:
                stepper.locator(".mg-stepper-next").click()
            seen.append(stepper.evaluate(WORDS_JS))
        # Words stuck under the buttons of a stepper taller than the window keep their
        # place across the page and their width; their top follows the page's scroll.
        classes = (stepper.get_attribute("class") or "").split()
        stuck = "mg-tall" in classes and "mg-words-below" not in classes
        kept = {tuple((x, w, 0 if stuck else y) for x, w, y in step) for step in seen}
        assert len(kept) == 1, f"{stepper_page} stepper {k} at {viewport}: {seen}"


def test_a_drawing_that_scrolls_sideways_says_so_in_words_above_it(phone: Any, server: str) -> None:
    phone.set_viewport_size(SMALL_PHONE)
    open_page(phone, server, "neuron.html")
    stepper = phone.locator(".mg-stepper").first
    view = stepper.locator(".mg-stepper-frame.mg-current .mg-stepper-view")
    assert "mg-sideways" in (view.get_attribute("class") or "")
    note = stepper.locator(".mg-stepper-frame.mg-current .mg-stepper-scroll-note")
    assert note.is_visible()
    assert note.text_content() == "\u2190 Scroll the drawing sideways to see all of it \u2192"
    assert note.get_attribute("aria-hidden") == "true"  # the region's name says it to a reader
    below = note.evaluate("(n) => n.getBoundingClientRect().bottom")
    assert below <= view.evaluate("(v) => v.getBoundingClientRect().top") + 0.5
    # On a laptop the same drawing fits: no note.
    phone.set_viewport_size({"width": 1366, "height": 768})
    phone.wait_for_function(
        "(v) => !v.classList.contains('mg-sideways')", arg=view.element_handle(), polling="raf"
    )
    assert note.is_hidden()


#: The current frame's caption, the buttons and the nodes at work, on the screen.
WORDS_IN_VIEW_JS = """
(stepper) => {
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  const box = (el) => { const b = el.getBoundingClientRect(); return [b.top, b.bottom]; };
  return {
    caption: box(frame.querySelector(':scope > figcaption')),
    controls: box(stepper.querySelector('.mg-stepper-controls')),
    active: Array.from(frame.querySelectorAll('g.node.mg-active'), box),
    height: innerHeight,
  };
}
"""


#: A window in which the neuron's stepper is taller than the window, its words above its
#: drawing: not a phone's (their words lie below the drawing), too narrow for them beside.
SMALL_WINDOW = {"width": 600, "height": 600}


def test_in_a_small_window_a_tall_steppers_words_stay_in_view_under_its_buttons_at_every_step(
    laptop: Any, server: str
) -> None:
    """In a small window the neuron's stepper, its words above its drawing, is taller than
    the window: at every step its words and the node at work are both on the screen, the
    words under the buttons."""
    laptop.set_viewport_size(SMALL_WINDOW)
    open_page(laptop, server, "neuron.html")
    stepper = laptop.locator(".mg-stepper").first
    stepper.press("Home")
    total = stepper.evaluate(STEPPER_STATE_JS)["total"]
    problems = []
    for step in range(total):
        seen = stepper.evaluate(WORDS_IN_VIEW_JS)
        top, bottom = seen["caption"]
        if top < seen["controls"][1] - 1 or bottom > seen["height"] + 1:
            problems.append(f"step {step + 1}: words at {seen['caption']}, {seen}")
        if any(a < bottom - 1 or b > seen["height"] + 1 for a, b in seen["active"]):
            problems.append(f"step {step + 1}: node at work hidden, {seen}")
        if step < total - 1:
            stepper.locator(".mg-stepper-next").click()
    classes = (stepper.get_attribute("class") or "").split()
    assert "mg-tall" in classes
    assert not {"mg-words-below", "mg-words-beside"} & set(classes)
    assert not problems, "\n".join(problems)


#: Where a stepper's current drawing is on the screen against what could cover it: the
#: buttons (stuck to the top of the window), the step's words, the theme's header and the
#: window's bottom; and the nodes at work.
DRAWING_PLACE_JS = """
(stepper) => {
  let stuck = 0;
  for (const bar of document.querySelectorAll('.bd-header, .bd-header-article')) {
    const style = getComputedStyle(bar);
    if ((style.position === 'sticky' || style.position === 'fixed')
        && bar.getBoundingClientRect().top <= 0) {
      stuck = Math.max(stuck, bar.getBoundingClientRect().bottom);
    }
  }
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  const svg = frame.querySelector('svg.micrograd-graph');
  const box = (el) => { const b = el.getBoundingClientRect(); return [b.top, b.bottom]; };
  // The part of the drawing its view shows (a view may crop it, and scroll).
  const [top, bottom] = box(svg);
  const [viewTop, viewBottom] = box(svg.closest('.mg-stepper-view') || svg);
  const label = Math.min(...Array.from(svg.querySelectorAll('text'),
    (t) => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a));
  return {
    drawing: [Math.max(top, viewTop), Math.min(bottom, viewBottom)],
    controls: box(stepper.querySelector(':scope > .mg-stepper-controls')),
    caption: box(frame.querySelector(':scope > figcaption')),
    // The step's nodes: the one at work and those its rule adds to, which its words name.
    active: Array.from(frame.querySelectorAll('g.node.mg-active, g.node.mg-receiving'), box),
    label,
    stuck,
    height: innerHeight,
  };
}
"""


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_on_a_phone_a_steppers_drawing_and_its_words_are_read_together_at_any_step(
    browser: Any, server: str, stepper_page: str, theme: str
) -> None:
    """On a phone the stepper's drawing lies right under its buttons, its words under it:
    at every step, by Next or the arrow keys, the drawing's top is at one place on the
    screen, what its view shows of it is in the window with the step's nodes (the one at
    work and those its rule adds to) and its labels at 11 px or more, nothing lies over
    it (the buttons, the words, the theme's header), and the step's words are whole in
    the window under it: the reader reads the step's arithmetic without scrolling."""
    for phone in fresh_page(browser, "phone", theme):
        open_page(phone, server, stepper_page)
        stepper = phone.locator(".mg-stepper.mg-ready").first
        stepper.press("Home")
        total = stepper.evaluate(STEPPER_STATE_JS)["total"]
        seen = []
        for step in range(total):
            seen.append(stepper.evaluate(DRAWING_PLACE_JS))
            if step < total - 1:
                # Next, and on the way back the arrow key: each keeps the place.
                stepper.locator(".mg-stepper-next").click()
        stepper.press("ArrowLeft")
        seen.append(stepper.evaluate(DRAWING_PLACE_JS))
    where = f"{stepper_page} in {theme} mode"
    tops = {round(step["drawing"][0]) for step in seen}
    assert len(tops) == 1, f"{where}: the drawing moves, {seen}"
    for step, place in enumerate(seen, start=1):
        top, bottom = place["drawing"]
        assert top >= max(place["controls"][1], place["stuck"]) - 0.5, (where, step, place)
        assert bottom <= place["height"] + 0.5, (where, step, place)
        assert place["caption"][0] >= bottom - 0.5, (where, step, place)
        assert place["caption"][1] <= place["height"] + 0.5, (where, step, place)
        assert all(a >= top - 0.5 and b <= bottom + 0.5 for a, b in place["active"]), place
        assert place["label"] >= MIN_GRAPH_LABEL_PX, (where, step, place)


#: Each step of a stepper's cropped drawing (a phone's): how far its view is scrolled,
#: how tall it is, and where the nodes the step names lie in the drawing (CSS px from
#: its top): the node at work and those its rule adds to, and where there are none (the
#: first step and Done) the output, the node set to 1 at the step after the first.
CROPPED_STEP_JS = """
(stepper) => {
  const frames = Array.from(stepper.querySelectorAll(':scope > .mg-stepper-frame'));
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  const view = Array.from(frame.querySelectorAll('.mg-stepper-view'))
    .find((v) => v.getClientRects().length > 0);
  const svg = view.querySelector('svg.micrograd-graph');
  const nodes = Array.from(svg.querySelectorAll('g.node'));
  let named = nodes.filter((g) => g.matches('.mg-active, .mg-receiving'));
  if (!named.length) {
    const seed = Array.from(frames[1].querySelectorAll('svg.micrograd-graph'))
      .find((s) => s.querySelectorAll('g.node').length === nodes.length);
    const all = Array.from(seed.querySelectorAll('g.node'));
    named = all.flatMap((g, k) => g.matches('.mg-active') ? [nodes[k]] : []);
  }
  const top = svg.getBoundingClientRect().top;
  return {
    cropped: view.classList.contains('mg-cropped'),
    scrolled: view.scrollTop,
    height: view.clientHeight,
    nodes: named.map((g) => { const b = g.getBoundingClientRect();
                              return [b.top - top, b.bottom - top]; }),
  };
}
"""


@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_on_a_phone_a_cropped_drawing_shows_the_steps_nodes_and_moves_only_for_them(
    browser: Any, server: str, stepper_page: str
) -> None:
    """On a phone too short for it, a stepper's drawing cropped to the window shows, at
    every step, every node the step names (the node at work and those its rule adds to; at the first
    step and at Done the output), and it scrolls from one step to the next only where
    the next step's nodes are not already in view: no back and forth for nothing."""
    problems = []
    cropped = 0
    for phone in fresh_page(browser, "phone"):
        phone.set_viewport_size(SHORT_PHONE)
        open_page(phone, server, stepper_page)
        steppers = phone.locator(".mg-stepper.mg-ready")
        for k in range(steppers.count()):
            stepper = steppers.nth(k)
            stepper.press("Home")
            total = stepper.evaluate(STEPPER_STATE_JS)["total"]
            seen = [stepper.evaluate(CROPPED_STEP_JS)]
            for _ in range(total - 1):
                stepper.locator(".mg-stepper-next").click()
                seen.append(stepper.evaluate(CROPPED_STEP_JS))
            if not any(step["cropped"] for step in seen):
                continue  # whole in its view at every step
            cropped += 1
            for n, step in enumerate(seen):
                shown = (step["scrolled"] - 1, step["scrolled"] + step["height"] + 1)
                if not all(shown[0] <= a and b <= shown[1] for a, b in step["nodes"]):
                    problems.append(f"stepper {k}, step {n + 1}: nodes out of view {step}")
                if n and step["scrolled"] != seen[n - 1]["scrolled"]:
                    before = seen[n - 1]["scrolled"]
                    was = (before - 1, before + step["height"] + 1)
                    if all(was[0] <= a and b <= was[1] for a, b in step["nodes"]):
                        problems.append(f"stepper {k}, step {n + 1}: moved for nothing {step}")
    assert cropped, f"{stepper_page}: no stepper's drawing is cropped on a phone"
    assert not problems, f"{stepper_page}:\n" + "\n".join(problems)


#: The smallest label of the drawing a stepper shows now (CSS px): of the side shown.
LABEL_JS = """
(stepper) => {
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  const svg = Array.from(frame.querySelectorAll('svg.micrograd-graph'))
    .find((s) => s.getClientRects().length > 0);
  return Math.min(...Array.from(svg.querySelectorAll('text'),
    (t) => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a));
}
"""


@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_on_a_phone_every_steppers_drawing_is_whole_and_still_at_every_step(
    browser: Any, server: str, stepper_page: str
) -> None:
    """At 390x844 every stepper, each of the pair's two sides too, shows its whole drawing
    at every step, its labels at 11 px or more: no view crops it, none scrolls, nothing
    in it pans from one step to the next (its words, a little smaller, leave it the
    room), and the pair's switch moves nothing: both sides' drawings have one box."""
    seen = []
    for phone in fresh_page(browser, "phone"):
        open_page(phone, server, stepper_page)
        steppers = phone.locator(".mg-stepper.mg-ready")
        assert steppers.count(), stepper_page
        pairs = phone.locator(".mg-stepper-pair.mg-ready").count()
        for k in range(steppers.count()):
            stepper = steppers.nth(k)
            switch = stepper.locator(".mg-stepper-switch button")
            for side in range(max(1, switch.count())):
                if switch.count():
                    switch.nth(side).click()
                stepper.press("Home")
                total = stepper.evaluate(STEPPER_STATE_JS)["total"]
                for step in range(total):
                    state = stepper.evaluate(CROPPED_STEP_JS) | stepper.evaluate(WHOLE_DRAWING_JS)
                    state |= {"label": stepper.evaluate(LABEL_JS)}
                    seen.append((k, side, step + 1, state))
                    if step < total - 1:
                        stepper.locator(".mg-stepper-next").click()
    sides = {side for _, side, _, _ in seen}
    assert sides == ({0, 1} if pairs else {0}), f"{stepper_page}: sides {sides}, {pairs} pairs"
    for k, side, step, state in seen:
        where = f"{stepper_page}, stepper {k}, side {side}, step {step}: {state}"
        assert not state["cropped"], where
        assert state["scrolls"] <= 1, where
        assert state["scrolled"] == 0, where
        assert state["label"] >= MIN_GRAPH_LABEL_PX, where
    for k in {k for k, _, _, _ in seen}:
        boxes = {tuple(round(x) for x in s["drawing"]) for j, _, _, s in seen if j == k}
        assert len(boxes) == 1, f"{stepper_page}, stepper {k}: the drawing moves, {boxes}"


#: The current frame's drawing and its view, on the screen, and whether the view scrolls.
WHOLE_DRAWING_JS = """
(stepper) => {
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  const view = Array.from(frame.querySelectorAll('.mg-stepper-view'))
    .find((v) => v.getClientRects().length > 0);
  const box = (el) => { const b = el.getBoundingClientRect();
                        return [b.left, b.top, b.right, b.bottom]; };
  return {
    drawing: box(view.querySelector('svg.micrograd-graph')),
    view: box(view),
    scrolls: view.scrollHeight - view.clientHeight,
    height: innerHeight,
  };
}
"""


@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_on_a_phone_the_whole_graph_switch_shows_it_whole_and_still_at_every_step(
    browser: Any, server: str, stepper_page: str
) -> None:
    """On a phone too short for a stepper's drawing, which its window crops, the "Whole
    graph" switch under it fits the whole drawing in the window: at every step its box is the same,
    whole in its view, which scrolls nothing, and whole in the window; switched off,
    the drawing is cropped again."""
    for phone in fresh_page(browser, "phone"):
        phone.set_viewport_size(SHORT_PHONE)
        open_page(phone, server, stepper_page)
        steppers = phone.locator(".mg-stepper.mg-ready")
        offered = ".mg-stepper-frame.mg-current button.mg-stepper-whole"
        cropped = [k for k in range(steppers.count()) if steppers.nth(k).locator(offered).count()]
        assert cropped, f"{stepper_page}: no stepper's drawing is cropped on a phone"
        stepper = steppers.nth(cropped[0])
        stepper.press("Home")
        switch = stepper.locator(offered)
        assert switch.is_visible()
        assert switch.get_attribute("aria-pressed") == "false"
        assert stepper.evaluate(WHOLE_DRAWING_JS)["scrolls"] > 0, "not cropped: nothing to show"
        switch.click()
        assert switch.get_attribute("aria-pressed") == "true"
        total = stepper.evaluate(STEPPER_STATE_JS)["total"]
        seen = []
        for step in range(total):
            seen.append(stepper.evaluate(WHOLE_DRAWING_JS))
            if step < total - 1:
                stepper.locator(".mg-stepper-next").click()
        switch.click()
        assert switch.get_attribute("aria-pressed") == "false"
        assert stepper.evaluate(WHOLE_DRAWING_JS)["scrolls"] > 0
    boxes = {tuple(round(x) for x in step["drawing"]) for step in seen}
    assert len(boxes) == 1, f"{stepper_page}: the drawing moves, {seen}"
    for n, step in enumerate(seen, start=1):
        top, bottom = step["drawing"][1], step["drawing"][3]
        assert step["scrolls"] <= 1, (stepper_page, n, step)
        assert top >= max(0, step["view"][1] - 0.5), (stepper_page, n, step)
        assert bottom <= min(step["height"], step["view"][3]) + 0.5, (stepper_page, n, step)


#: A stepper's place in the window: its top, and where its content (its buttons to the
#: bottom of its current frame: no padding, no border) begins and ends.
STEPPER_PLACE_JS = """
(stepper) => {
  const controls = stepper.querySelector(':scope > .mg-stepper-controls').getBoundingClientRect();
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current')
    .getBoundingClientRect();
  return {top: stepper.getBoundingClientRect().top,
          content: [Math.min(controls.top, frame.top), Math.max(controls.bottom, frame.bottom)]};
}
"""


@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_on_a_laptop_a_stepper_whose_content_is_in_the_window_keeps_still_while_stepping(
    browser: Any, server: str, stepper_page: str
) -> None:
    """The reader scrolls a stepper up until its content (buttons, drawings, words) is
    whole in the window, at its bottom edge, its last padding and border below it (as
    a browser brings it into view), and steps on: the stepper does not move."""
    for laptop in fresh_page(browser, "laptop"):
        open_page(laptop, server, stepper_page)
        steppers = laptop.locator(".mg-stepper.mg-ready")
        for k in range(steppers.count()):
            stepper = steppers.nth(k)
            stepper.scroll_into_view_if_needed()
            height = laptop.evaluate("innerHeight")
            bottom = stepper.evaluate(STEPPER_PLACE_JS)["content"][1]
            by = bottom - height + 1
            laptop.evaluate("(by) => window.scrollBy({top: by, behavior: 'instant'})", by)
            place = stepper.evaluate(STEPPER_PLACE_JS)
            assert place["content"][1] <= height, place
            if place["content"][0] < 60:
                continue  # taller than the window: stepping scrolls it to the node at work
            seen = [place]
            for _ in range(3):
                stepper.locator(".mg-stepper-next").click()
                seen.append(stepper.evaluate(STEPPER_PLACE_JS))
            tops = [round(place["top"], 1) for place in seen]
            assert len(set(tops)) == 1, f"{stepper_page} stepper {k} moves: {tops}"


#: Where a stepper's buttons are against each shown drawing (the part its view shows).
BAR_OVER_DRAWING_JS = """
(stepper) => {
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  const rect = (el) => { const b = el.getBoundingClientRect();
                         return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
  const shown = (el) => el.getClientRects().length > 0;
  const drawings = Array.from(frame.querySelectorAll('svg.micrograd-graph')).filter(shown)
    .map((svg) => {
      const box = rect(svg);
      const view = rect(svg.closest('.mg-stepper-view') || svg);
      return {top: Math.max(box.top, view.top), bottom: Math.min(box.bottom, view.bottom),
              left: Math.max(box.left, view.left), right: Math.min(box.right, view.right)};
    });
  return {bar: rect(stepper.querySelector(':scope > .mg-stepper-controls')), drawings};
}
"""


@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_scrolled_past_its_top_a_steppers_buttons_cover_none_of_its_drawing(
    tab: Any, server: str, stepper_page: str, viewport: str
) -> None:
    """The reader steps, then scrolls the page on by a third of the stepper, and further:
    wherever the buttons are then, they lie over no part of a drawing (on one, they
    hide the top row of nodes)."""
    open_page(tab, server, stepper_page)
    steppers = tab.locator(".mg-stepper.mg-ready")
    assert steppers.count() >= 1
    problems = []
    for k in range(steppers.count()):
        stepper = steppers.nth(k)
        stepper.press("Home")  # a step, to the first frame: it brings the stepper into view
        stepper.locator(".mg-stepper-next").click()
        for share in (0.15, 0.33, 0.5):
            height = stepper.evaluate("(s) => s.getBoundingClientRect().height")
            tab.evaluate("(by) => window.scrollBy({top: by, behavior: 'instant'})", share * height)
            seen = stepper.evaluate(BAR_OVER_DRAWING_JS)
            bar = seen["bar"]
            problems += [
                f"stepper {k}, scrolled {share:.0%} on: buttons {bar} over drawing {d}"
                for d in seen["drawings"]
                if d["top"] < bar["bottom"] - 1
                and d["bottom"] > bar["top"] + 1
                and d["left"] < bar["right"] - 1
                and d["right"] > bar["left"] + 1
            ]
            tab.evaluate("(by) => window.scrollBy({top: -by, behavior: 'instant'})", share * height)
    assert not problems, f"{stepper_page} at {viewport}:\n" + "\n".join(problems)


#: A stepper's current step on the screen: whether the stepper (its buttons, its words,
#: its drawings) is whole in the window below the theme's header, and its shown drawings'
#: smallest label (CSS px).
STEPPER_IN_WINDOW_JS = """
(stepper) => {
  let stuck = 0;
  for (const bar of document.querySelectorAll('.bd-header, .bd-header-article')) {
    const style = getComputedStyle(bar);
    if ((style.position === 'sticky' || style.position === 'fixed')
        && bar.getBoundingClientRect().top <= 0) {
      stuck = Math.max(stuck, bar.getBoundingClientRect().bottom);
    }
  }
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  const shown = (el) => el.getClientRects().length > 0;
  const parts = [stepper, ...frame.querySelectorAll('figcaption, svg.micrograd-graph')]
    .filter(shown).map((el) => el.getBoundingClientRect());
  const sizes = Array.from(frame.querySelectorAll('svg.micrograd-graph')).filter(shown)
    .flatMap((svg) => Array.from(svg.querySelectorAll('text'),
      (t) => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a));
  const box = stepper.getBoundingClientRect();
  return {
    step: Number(frame.dataset.frame),
    whole: parts.every((b) => b.top >= stuck - 1 && b.bottom <= innerHeight + 1),
    top: box.top, height: box.height, room: innerHeight - stuck,
    label: Math.min(...sizes),
  };
}
"""


def stepping_through(tab: Any, stepper: Any) -> list[dict[str, Any]]:
    """Step through ``stepper`` with the keyboard, Home then the right arrow, as a reader
    does: where each step is on the screen (:data:`STEPPER_IN_WINDOW_JS`)."""
    stepper.focus()
    tab.keyboard.press("Home")  # a step, to the first frame: it brings the stepper into view
    total = stepper.evaluate(STEPPER_STATE_JS)["total"]
    seen = []
    for step in range(total):
        seen.append(stepper.evaluate(STEPPER_IN_WINDOW_JS))
        assert seen[-1]["step"] == step, seen[-1]
        if step < total - 1:
            tab.keyboard.press("ArrowRight")
    return seen


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_on_a_laptop_the_backward_pair_fits_the_screen_while_stepping_with_text_at_11_px(
    browser: Any, server: str, theme: str
) -> None:
    """Side by side, its words beside its drawings: at every step the pair's buttons, its
    two drawings and all its words are in the window at once, its labels at 11 px or
    more, so that nothing scrolls under the buttons."""
    for laptop in fresh_page(browser, "laptop", theme):
        open_page(laptop, server, "backward.html")
        laptop.wait_for_selector(".bd-article[data-mg-pairs='beside'] .mg-stepper-pair.mg-ready")
        seen = stepping_through(laptop, laptop.locator(".mg-stepper-pair"))
    assert all(step["whole"] for step in seen), seen
    assert min(step["label"] for step in seen) >= MIN_LAPTOP_PAIR_LABEL_PX, seen


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_on_a_laptop_a_pages_first_stepper_fits_the_screen_while_stepping_with_text_at_14_px(
    browser: Any, server: str, theme: str, stepper_page: str
) -> None:
    """Its words beside its drawing: at every step the buttons, the drawing and the words
    are in the window at once, its labels at 14 px or more, near a plain graph's 16."""
    for laptop in fresh_page(browser, "laptop", theme):
        open_page(laptop, server, stepper_page)
        seen = stepping_through(laptop, laptop.locator(".mg-stepper.mg-ready").first)
    assert all(step["whole"] for step in seen), seen
    assert min(step["label"] for step in seen) >= MIN_LAPTOP_ONE_STEPPER_LABEL_PX, seen


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_on_a_phone_the_backward_pair_draws_its_text_at_12_px(
    browser: Any, server: str, theme: str
) -> None:
    """One side at a time, each side at every step: its labels at 11 px or more (the page
    draws them at 12 px; test_keyboard_and_print holds the side to its height)."""
    for phone in fresh_page(browser, "phone", theme):
        open_page(phone, server, "backward.html")
        phone.wait_for_selector(".bd-article[data-mg-pairs='switch'] .mg-stepper-pair.mg-ready")
        pair = phone.locator(".mg-stepper-pair")
        seen = []
        for side in (0, 1):
            pair.locator(f".mg-stepper-switch button[data-side='{side}']").click()
            seen += stepping_through(phone, pair)
    assert min(step["label"] for step in seen) >= MIN_GRAPH_LABEL_PX, seen


def test_on_a_phone_no_page_scrolls_sideways(phone: Any, server: str) -> None:
    """A long signature, module name or line of text wraps: only a region made to scroll
    (a code block, a wide drawing) scrolls, never the page."""
    wide = {}
    for page in PAGES:
        open_page(phone, server, page)
        width = phone.evaluate("document.scrollingElement.scrollWidth")
        if width > VIEWPORTS["phone"][0]:
            wide[page] = width
    assert not wide, wide


def test_the_steppers_are_found_on_the_built_pages(html: Path) -> None:
    assert pages_with_steppers(html, PAGES) == STEPPER_PAGES


def test_no_box_cuts_a_node_on_any_frame_of_any_stepper(
    tab: Any, server: str, html: Path, viewport: str
) -> None:
    """Every frame of every stepper and pair (both sides, where a switch shows one),
    on every page that has one: each node box whole in whatever holds its drawing."""
    problems = []
    pages = pages_with_steppers(html, PAGES)
    assert pages, "no page with a stepper found"
    for page in pages:
        open_page(tab, server, page)
        steppers = tab.locator(".mg-stepper")
        for k in range(steppers.count()):
            found = clipped_stepping_through(steppers.nth(k))
            problems += [f"{page} stepper {k}: {p}" for p in found]
    assert not problems, f"at {viewport}:\n" + "\n".join(problems)


def test_the_wrong_order_stepper_ends_on_minus_3_and_2_and_the_right_one_on_minus_33_and_22(
    laptop: Any, server: str
) -> None:
    open_page(laptop, server, "backward.html")
    pair = laptop.locator(".mg-stepper.mg-stepper-pair")
    assert pair.count() == 1
    part = pair.locator(".mg-stepper-frame[data-part] > figcaption").text_content() or ""
    assert "Here the orders part: backward() runs r's rule, breadth first runs q's." in part
    pair.focus()
    laptop.keyboard.press("End")
    right, wrong = (
        pair.locator(".mg-stepper-frame.mg-current .mg-stepper-side").nth(i) for i in (0, 1)
    )
    texts = [side.locator("svg text").all_text_contents() for side in (right, wrong)]
    ends = [("-33.0000", "22.0000"), ("-3.0000", "2.0000")]  # backward(), breadth first
    for shown, (a_grad, b_grad) in zip(texts, ends, strict=True):
        boxes = " | ".join(shown)
        assert f"a | data 2.0000 | grad {a_grad}" in boxes
        assert f"b | data -3.0000 | grad {b_grad}" in boxes


# -- plots -----------------------------------------------------------------------------------


def test_every_plot_has_a_legend(html: Path) -> None:
    plots = 0
    missing = []
    for page in PAGES:
        for img in article(parse(html, page)).select("div.cell_output img"):
            source = (html / page).parent / str(img["src"])
            text = source.read_text(encoding="utf-8")
            if "Matplotlib" not in text[:1000]:
                continue
            plots += 1
            if 'id="legend_' not in text:
                missing.append(f"{page}: {img.get('alt', '')[:70]}")
    assert plots >= 5, f"only {plots} plots found: the check is not looking at them"
    assert not missing, "plots without a legend:\n" + "\n".join(missing)
