"""The accessibility audit (axe-core) on every page, as readers meet it.

Every page (of the modules' source listings, those that hold every kind of
element the others hold), in light and dark mode: on a phone (390x844) here, a
first visit with nothing in storage but the mode (light), dark then chosen with
the page's own colour-mode control; on a laptop (1366x768) on the visits that
test_reader_experience.py records (page_visits.py: light a first visit, dark
with the mode stored).  No finding of impact "serious" or "critical", and no
"moderate" or "minor" one of a rule that accessibility.ACCEPTED does not list
with its reason.  The
same audit with the in-browser runner at work (a cell run, its editor open,
a traceback shown, a crash note with its restart button) and with each
backward stepper on every one of its frames.  (Each page with its first cell
run is audited by test_runner.py's run of every cell of the page.)

Every finding, accepted or not, is counted by rule and impact in
artifacts/accessibility/findings.json.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from accessibility import Finding, audit, check
from runner_tab import NESTED_LISTS_FREED, Tab
from sitefiles import contrast_ratio
from steppers import STEPPER_PAGES

VIEWPORTS = {"laptop": (1366, 768), "phone": (390, 844)}
THEMES = ("light", "dark")


def test_the_site_does_not_ship_axe_core(html: Path) -> None:
    """axe-core is for the tests: no file of it in the built site."""
    shipped = [p.relative_to(html).as_posix() for p in html.rglob("axe*.js")]
    assert not shipped, shipped


def open_as_reader(browser: Any, server: str, page: str, theme: str, viewport: str) -> Any:
    """A new context (empty storage but the mode) showing ``page``; its Playwright page."""
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=theme)
    context.add_init_script(
        f"localStorage.setItem('mode', '{theme}'); localStorage.setItem('theme', '{theme}');"
    )
    tab = context.new_page()
    tab.goto(f"{server}/{page}", wait_until="networkidle")
    tab.evaluate(
        "async () => { if (window.MathJax && MathJax.startup && MathJax.startup.promise)"
        " await MathJax.startup.promise; }"
    )
    return tab


#: Choose a mode with the theme's own control: its menu item's click, the menu left
#: closed (an open menu, or the tooltip a pointer over it shows, would be audited too).
CHOOSE_MODE_JS = (
    "(mode) => document.querySelector(`.theme-change-button[data-mode=${mode}]`).click()"
)
#: The mode is shown: the theme applied, and no colour still on its way (the theme's
#: buttons fade their colours: axe-core must see the colours a dark first visit shows).
MODE_SHOWN_JS = """(mode) => document.documentElement.dataset.theme === mode
  && !document.getAnimations().some((a) => a instanceof CSSTransition)"""


def show_theme(tab: Any, theme: str) -> None:
    """Show ``tab``'s page as a reader who prefers ``theme`` and chose it; return once shown.

    The browser's preference changes too (myst-nb's stylesheet reads it), so the page is
    in the state a first visit in ``theme`` starts in, with the mode stored as chosen.
    """
    tab.emulate_media(color_scheme=theme)
    tab.evaluate(CHOOSE_MODE_JS, theme)
    tab.wait_for_function(MODE_SHOWN_JS, arg=theme)


@dataclass(frozen=True)
class Audited:
    """What axe-core found on a page, and the theme the page showed then."""

    theme: str
    findings: list[Finding]


def audited_now(tab: Any) -> Audited:
    """The audit of what ``tab`` shows now."""
    return Audited(tab.evaluate("document.documentElement.dataset.theme"), audit(tab))


def audits_of(browser: Any, server: str, page: str, viewport: str) -> dict[str, Audited]:
    """``page`` audited at ``viewport`` in each theme: a first visit in light, then dark.

    Switching the mode changes the page's colours and nothing else (no script of the
    book's or the theme's lays anything out by the mode), so the dark page is the one
    a dark first visit shows, without loading and typesetting it again.
    """
    tab = open_as_reader(browser, server, page, THEMES[0], viewport)
    audited = {}
    try:
        for theme in THEMES:
            show_theme(tab, theme)
            audited[theme] = audited_now(tab)
    finally:
        tab.context.close()
    return audited


@pytest.fixture(scope="module")
def page_audits(browser: Any, server: str) -> Callable[[str, str], dict[str, Audited]]:
    """``page_audits(page, viewport)``: :func:`audits_of`, once per page and viewport."""
    cache: dict[tuple[str, str], dict[str, Audited]] = {}

    def get(page: str, viewport: str) -> dict[str, Audited]:
        if (page, viewport) not in cache:
            cache[page, viewport] = audits_of(browser, server, page, viewport)
        return cache[page, viewport]

    return get


@pytest.mark.parametrize("theme", THEMES)
def test_on_a_phone_the_page_passes_the_accessibility_audit(
    page_audits: Any, covering_page: str, theme: str
) -> None:
    """Of the modules' source listings, only those that hold a kind of element no other does.

    On a laptop, the page is audited on test_reader_experience.py's visits of it
    (page_visits.py, 1366x768): light a first visit, dark a reader's who chose it.

    The listings are one template and stylesheet around highlighted code: one
    whose every kind of element (tag and classes, in its parent's) an audited
    listing has is seen by axe-core as that one is (``sitefiles.covering_pages``).

    Each theme at each size is a first visit of its own.  Fewer pages would
    not do on the phone: what a phone changes is the layout, and that depends on
    what each element holds, not only on its kind (a code line or a table
    wider than 390 px scrolls sideways, and axe-core's
    ``scrollable-region-focusable`` then wants it reachable by keyboard; a
    short one of the same kind does not scroll), so no set of pages that
    holds every kind of element stands for the others at the phone's size.
    Over all pages, ``sitefiles.element_kinds`` would keep 17 of 20 anyway.
    """
    page_path = covering_page
    audited = page_audits(page_path, "phone")[theme]
    assert audited.theme == theme
    check(audited.findings, f"{page_path}, {theme}, phone")


@dataclass(frozen=True)
class RunnerAudits:
    """The runner at work on the neuron page at one size, audited in each theme."""

    #: By theme: (what the page showed, the theme it showed it in, what axe-core found).
    audits: dict[str, list[tuple[str, str, list[Finding]]]]
    #: Requests to other origins the page made meanwhile.
    foreign: list[str]


def runner_audits(browser: Any, server: str, viewport: str) -> RunnerAudits:
    """A cell run (its drawing shown, its editor open), then a traceback, then a crash note,
    each audited in both themes: one Python at work, the mode switched in between."""
    tab = Tab(browser, server)
    width, height = VIEWPORTS[viewport]
    tab.page.set_viewport_size({"width": width, "height": height})
    audits: dict[str, list[tuple[str, str, list[Finding]]]] = {theme: [] for theme in THEMES}

    def audit_each_theme(shown: str) -> None:
        for theme in THEMES:
            show_theme(tab.page, theme)
            found = audited_now(tab.page)
            audits[theme].append((shown, found.theme, found.findings))

    try:
        tab.run_first_cell("neuron.html")
        audit_each_theme("first cell run")
        tab.run_edited(0, "from micrograd import Value\n\nValue(-1.0).log()", "raised")
        audit_each_theme("a traceback shown")
        # What still overflows the browser's stack, fatally for Pyodide (runner_tab.py).
        tab.run_edited(0, NESTED_LISTS_FREED, "crashed", 60_000)
        audit_each_theme("the crash note shown")
    finally:
        tab.close()
    return RunnerAudits(audits, list(tab.foreign))


@pytest.fixture(scope="module")
def runner_at_work(browser: Any, server: str) -> Callable[[str], RunnerAudits]:
    """``runner_at_work(viewport)``: :func:`runner_audits`, once per viewport."""
    cache: dict[str, RunnerAudits] = {}

    def get(viewport: str) -> RunnerAudits:
        if viewport not in cache:
            cache[viewport] = runner_audits(browser, server, viewport)
        return cache[viewport]

    return get


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("theme", THEMES)
def test_the_runner_at_work_passes_the_audit(
    runner_at_work: Callable[[str], RunnerAudits], theme: str, viewport: str
) -> None:
    """A cell run (its drawing shown, its editor open), then a traceback, then a crash note."""
    audited = runner_at_work(viewport)
    assert [shown for shown, _, _ in audited.audits[theme]] == [
        "first cell run",
        "a traceback shown",
        "the crash note shown",
    ]
    for shown, shown_in, findings in audited.audits[theme]:
        assert shown_in == theme
        check(findings, f"neuron.html, {shown}, {theme}, {viewport}")
    assert not audited.foreign, audited.foreign


def rewind(stepper: Any, frames: int) -> None:
    """Step ``stepper`` back from its last frame to its first (Previous, as a reader goes back)."""
    for frame in range(frames - 1, 0, -1):
        current = ":scope > .mg-stepper-frame.mg-current"
        assert stepper.locator(current).get_attribute("data-frame") == str(frame)
        stepper.locator(".mg-stepper-prev").click()


def stepper_audits(browser: Any, server: str, page: str) -> dict[str, list[list[Finding]]]:
    """The first backward stepper of ``page`` audited on every frame, in each theme: by theme,
    the findings of each frame in order.  One visit: each theme chosen once, then every frame
    stepped through (and back to the first for the next theme)."""
    tab = open_as_reader(browser, server, page, THEMES[0], "laptop")
    audits: dict[str, list[list[Finding]]] = {theme: [] for theme in THEMES}
    try:
        stepper = tab.locator(".mg-stepper").first
        frames = stepper.locator(":scope > .mg-stepper-frame").count()
        assert frames > 2, "no stepper on the page"
        stepper_id = stepper.get_attribute("id")
        for theme in THEMES:
            show_theme(tab, theme)
            for frame in range(frames):
                shown = stepper.locator(".mg-stepper-frame.mg-current").get_attribute("data-frame")
                assert shown == str(frame)
                audits[theme].append(audit(tab, f"#{stepper_id}"))
                if frame + 1 < frames:
                    stepper.locator(".mg-stepper-next").click()
            rewind(stepper, frames)
    finally:
        tab.context.close()
    return audits


@pytest.fixture(scope="module")
def stepper_frames(browser: Any, server: str) -> Callable[[str], dict[str, list[list[Finding]]]]:
    """``stepper_frames(page)``: :func:`stepper_audits`, once per page."""
    cache: dict[str, dict[str, list[list[Finding]]]] = {}

    def get(page: str) -> dict[str, list[list[Finding]]]:
        if page not in cache:
            cache[page] = stepper_audits(browser, server, page)
        return cache[page]

    return get


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_the_stepper_passes_the_audit_on_every_frame(
    stepper_frames: Callable[[str], dict[str, list[list[Finding]]]], stepper_page: str, theme: str
) -> None:
    for frame, findings in enumerate(stepper_frames(stepper_page)[theme]):
        check(findings, f"{stepper_page}, frame {frame + 1}, {theme}")


#: Each stepper caption's ink and weight, whether it is a pair's note of where its orders
#: part, and the colour behind it: that of the nearest element (itself or above) with a
#: background of its own.
CAPTION_INK_JS = """() => Array.from(
  document.querySelectorAll(".mg-stepper-frame figcaption"), (caption) => {
    let behind = caption;
    while (behind && getComputedStyle(behind).backgroundColor === "rgba(0, 0, 0, 0)") {
      behind = behind.parentElement;
    }
    const style = getComputedStyle(caption);
    return {
      ink: style.color,
      weight: style.fontWeight,
      part: caption.parentElement.matches(".mg-stepper-frame[data-part]"),
      backing: behind ? getComputedStyle(behind).backgroundColor : null,
      behind: behind ? `${behind.tagName.toLowerCase()}.${behind.className}` : null,
    };
  })"""


def _rgb(css: str) -> tuple[int, int, int]:
    """``rgb(34, 40, 50)`` as numbers (an opaque colour: a translucent one is not text's)."""
    numbers = css[css.index("(") + 1 : css.index(")")].replace(",", " ").split()
    assert css.startswith("rgb("), f"not an opaque colour: {css}"
    assert len(numbers) == 3, f"not an opaque colour: {css}"
    r, g, b = (int(float(n)) for n in numbers)
    return r, g, b


@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_stepper_captions_are_body_text_in_contrast_and_weight_in_both_modes(
    browser: Any, server: str, stepper_page: str
) -> None:
    """A step's words meet WCAG AA (4.5:1) against what is behind them, at normal weight
    (the theme's captions are muted and light, weight 300), in light and dark mode."""
    tab = open_as_reader(browser, server, stepper_page, THEMES[0], "laptop")
    try:
        for theme in THEMES:
            show_theme(tab, theme)
            captions = tab.evaluate(CAPTION_INK_JS)
            assert captions, f"{stepper_page} has no stepper caption"
            for caption in captions:
                assert caption["backing"] is not None, "nothing behind the caption has a colour"
                ratio = contrast_ratio(_rgb(caption["ink"]), _rgb(caption["backing"]))
                assert ratio >= 4.5, f"{stepper_page}, {theme}: {caption}, {ratio:.2f}:1"
                # Where a pair's two orders part, the note is bold on purpose.
                weight = "600" if caption["part"] else "400"
                assert caption["weight"] == weight, f"{stepper_page}, {theme}: {caption}"
    finally:
        tab.context.close()


def pair_audits(browser: Any, server: str) -> dict[str, list[tuple[str, list[Finding]]]]:
    """On a phone, the backward page's pair audited on every frame with each side of its
    switch, in each theme: by theme, (where, findings) in order.  One visit: each theme
    chosen once, then every frame stepped through (and back to the first for the next)."""
    tab = open_as_reader(browser, server, "backward.html", THEMES[0], "phone")
    audits: dict[str, list[tuple[str, list[Finding]]]] = {theme: [] for theme in THEMES}
    try:
        pair = tab.locator(".mg-stepper-pair.mg-ready").first
        frames = pair.locator(":scope > .mg-stepper-frame").count()
        switch = pair.locator(".mg-stepper-switch button")
        assert switch.count() == 2
        assert switch.first.is_visible(), "no switch on a phone"
        pair_id = pair.get_attribute("id")
        for theme in THEMES:
            show_theme(tab, theme)
            for frame in range(frames):
                for side in (1, 0):
                    switch.nth(side).click()
                    assert switch.nth(side).get_attribute("aria-pressed") == "true"
                    where = f"backward.html pair, frame {frame + 1}, side {side + 1}, {theme}"
                    audits[theme].append((where, audit(tab, f"#{pair_id}")))
                if frame + 1 < frames:
                    pair.locator(".mg-stepper-next").click()
            rewind(pair, frames)
    finally:
        tab.context.close()
    return audits


@pytest.fixture(scope="module")
def pair_frames(browser: Any, server: str) -> dict[str, list[tuple[str, list[Finding]]]]:
    """:func:`pair_audits`, once for the module."""
    return pair_audits(browser, server)


@pytest.mark.parametrize("theme", THEMES)
def test_the_pair_passes_the_audit_in_every_state_of_its_switch(
    pair_frames: dict[str, list[tuple[str, list[Finding]]]], theme: str
) -> None:
    """On a phone the backward page's pair shows one side at a time: every frame, each side."""
    assert pair_frames[theme], "no frame audited"
    for where, findings in pair_frames[theme]:
        check(findings, f"{where}, phone")
