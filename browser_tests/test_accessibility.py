"""The accessibility audit (axe-core) on every page, as readers meet it.

Every page (of the modules' source listings, those that hold every kind of
element the others hold), in light and dark mode, on a laptop (1366x768) and a
phone (390x844), each a first visit with nothing in storage but the mode: no
finding of impact "serious" or "critical", and no "moderate" or "minor" one
of a rule that accessibility.ACCEPTED does not list with its reason.  The
same audit with the in-browser runner at work (a cell run, its editor open,
a traceback shown, a crash note with its restart button) and with each
backward stepper on every one of its frames.  (Each page with its first cell
run is audited by test_runner.py's run of every cell of the page.)

Every finding, accepted or not, is counted by rule and impact in
artifacts/accessibility/findings.json.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from accessibility import Finding, audit, check, check_audit
from runner_tab import NESTED_LISTS_FREED, Tab
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


@dataclass(frozen=True)
class Audited:
    """What axe-core found on a page, and the theme the page showed then."""

    theme: str
    findings: list[Finding]


def audited_now(tab: Any) -> Audited:
    """The audit of what ``tab`` shows now."""
    return Audited(tab.evaluate("document.documentElement.dataset.theme"), audit(tab))


def audits_of(browser: Any, server: str, page: str, viewport: str) -> dict[str, Audited]:
    """``page`` audited at ``viewport`` in each theme, a first visit in each."""
    audited = {}
    for theme in THEMES:
        tab = open_as_reader(browser, server, page, theme, viewport)
        try:
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


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("theme", THEMES)
def test_the_page_passes_the_accessibility_audit(
    page_audits: Any, covering_page: str, theme: str, viewport: str
) -> None:
    """Of the modules' source listings, only those that hold a kind of element no other does.

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
    audited = page_audits(page_path, viewport)[theme]
    assert audited.theme == theme
    check(audited.findings, f"{page_path}, {theme}, {viewport}")


@pytest.fixture
def runner_tab(browser: Any, server: str, theme: str, viewport: str) -> Iterator[Tab]:
    """A :class:`runner_tab.Tab` (other origins blocked) in ``theme`` at ``viewport``."""
    tab = Tab(browser, server)
    tab.context.add_init_script(
        f"localStorage.setItem('mode', '{theme}'); localStorage.setItem('theme', '{theme}');"
    )
    width, height = VIEWPORTS[viewport]
    tab.page.set_viewport_size({"width": width, "height": height})
    try:
        yield tab
    finally:
        tab.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("theme", THEMES)
def test_the_runner_at_work_passes_the_audit(runner_tab: Tab, theme: str, viewport: str) -> None:
    """A cell run (its drawing shown, its editor open), then a traceback, then a crash note."""
    tab = runner_tab.run_first_cell("neuron.html")
    assert tab.evaluate("document.documentElement.dataset.theme") == theme
    check_audit(tab.page, f"neuron.html, first cell run, {theme}, {viewport}")

    tab.run_edited(0, "from micrograd import Value\n\nValue(-1.0).log()", "raised")
    check_audit(tab.page, f"neuron.html, a traceback shown, {theme}, {viewport}")

    # What still overflows the browser's stack, fatally for Pyodide (runner_tab.py).
    tab.run_edited(0, NESTED_LISTS_FREED, "crashed", 60_000)
    check_audit(tab.page, f"neuron.html, the crash note shown, {theme}, {viewport}")
    assert not tab.foreign, tab.foreign


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("stepper_page", STEPPER_PAGES)
def test_the_stepper_passes_the_audit_on_every_frame(
    browser: Any, server: str, stepper_page: str, theme: str
) -> None:
    tab = open_as_reader(browser, server, stepper_page, theme, "laptop")
    try:
        stepper = tab.locator(".mg-stepper").first
        frames = stepper.locator(":scope > .mg-stepper-frame").count()
        assert frames > 2, "no stepper on the page"
        stepper_id = stepper.get_attribute("id")
        for frame in range(frames):
            shown = stepper.locator(".mg-stepper-frame.mg-current").get_attribute("data-frame")
            assert shown == str(frame)
            check(audit(tab, f"#{stepper_id}"), f"{stepper_page}, frame {frame + 1}, {theme}")
            if frame + 1 < frames:
                stepper.locator(".mg-stepper-next").click()
    finally:
        tab.context.close()


@pytest.mark.parametrize("theme", THEMES)
def test_the_pair_passes_the_audit_in_every_state_of_its_switch(
    browser: Any, server: str, theme: str
) -> None:
    """On a phone the backward page's pair shows one side at a time: every frame, each side."""
    tab = open_as_reader(browser, server, "backward.html", theme, "phone")
    try:
        pair = tab.locator(".mg-stepper-pair.mg-ready").first
        frames = pair.locator(":scope > .mg-stepper-frame").count()
        switch = pair.locator(".mg-stepper-switch button")
        assert switch.count() == 2
        assert switch.first.is_visible(), "no switch on a phone"
        pair_id = pair.get_attribute("id")
        for frame in range(frames):
            for side in (1, 0):
                switch.nth(side).click()
                assert switch.nth(side).get_attribute("aria-pressed") == "true"
                where = f"backward.html pair, frame {frame + 1}, side {side + 1}, {theme}, phone"
                check(audit(tab, f"#{pair_id}"), where)
            if frame + 1 < frames:
                pair.locator(".mg-stepper-next").click()
    finally:
        tab.context.close()
