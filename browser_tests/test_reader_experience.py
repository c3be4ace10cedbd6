"""What a reader gets: every built page driven in headless Chromium.

Each page is loaded once per theme (light, dark) and what happened is recorded
(page_visits.py, through conftest.py's ``visits``): console messages, uncaught
errors, every request the page made, the images' load state, and a full-page
screenshot saved to ``artifacts/screenshots``.  The light visit is a first
visit, nothing in storage, which starts in the theme's mode ``auto``; the dark
one has the mode stored.  The light visit of an authored page ends by pressing
every copy button and recording what each put on the clipboard.  The tests then
assert on those records.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from accessibility import check
from sitefiles import backing_and_ink, notebook_code_sources

#: Dark mode keeps a plot or graph readable when the image is shown on a backing
#: whose colour has at least this WCAG contrast ratio with the darkest colour the
#: image draws in (its text and lines): 4.5:1 is WCAG AA for normal text.
MIN_DARK_MODE_CONTRAST = 4.5

# --- every page -------------------------------------------------------------------------------


def test_page_loads_without_console_errors(visits: Any, page_path: str) -> None:
    visit = visits(page_path)
    problems = visit.console_errors + visit.page_errors + visit.failed
    assert not problems, f"{visit.url}:\n" + "\n".join(problems)


def test_a_first_visit_logs_no_console_error(visits: Any, page_path: str) -> None:
    """A first visit (nothing in storage) starts in the theme's mode ``auto``, and stores it
    (test_theme.py checks that this check hears the theme complain)."""
    visit = visits(page_path)
    errors = visit.console_errors + visit.page_errors
    assert not errors, f"{page_path}, first visit:\n" + "\n".join(errors)
    assert visit.mode == "auto"
    assert visit.data_theme in ("light", "dark")
    assert visit.stored == "auto"


def test_a_visit_with_the_mode_stored_logs_no_console_error(
    visits: Any, content_page_path: str
) -> None:
    """The light visit is a first one, nothing stored; the dark one has the mode stored,
    the theme's other way in (the visit the dark-mode test below reads too)."""
    visit = visits(content_page_path, "dark")
    problems = visit.console_errors + visit.page_errors + visit.failed
    assert not problems, f"{visit.url}, mode dark stored:\n" + "\n".join(problems)


def test_page_makes_no_request_to_another_origin(visits: Any, page_path: str, server: str) -> None:
    visit = visits(page_path)
    here = urlsplit(server)
    foreign = [
        url
        for url in visit.requests
        if urlsplit(url).scheme not in ("data", "blob")
        and (urlsplit(url).scheme, urlsplit(url).netloc) != (here.scheme, here.netloc)
    ]
    assert visit.requests, "the page made no request at all: the request log is not working"
    assert not foreign, f"{visit.url} fetched from other origins:\n" + "\n".join(foreign)


def test_every_image_loads_with_a_nonzero_size(visits: Any, page_path: str) -> None:
    visit = visits(page_path)
    broken = [
        img
        for img in visit.images
        if not img["complete"]
        or img["naturalWidth"] == 0
        or img["naturalHeight"] == 0
        or (img["displayed"] and (img["width"] == 0 or img["height"] == 0))
    ]
    broken += [
        svg
        for svg in visit.inline_svgs
        if svg["displayed"] and (svg["width"] == 0 or svg["height"] == 0)
    ]
    assert not broken, f"{visit.url}: images that did not load or have no size:\n" + "\n".join(
        map(str, broken)
    )


def test_math_is_typeset(visits: Any, content_page_path: str) -> None:
    """Every formula is rendered by MathJax: none is left as raw LaTeX for the reader."""
    visit = visits(content_page_path)
    assert not visit.untypeset_math, (
        f"{visit.url}: {len(visit.untypeset_math)} of {visit.math} formulas left as raw LaTeX, "
        f"e.g. {visit.untypeset_math[:3]}"
    )


def test_dark_mode_keeps_graphs_and_plots_readable(visits: Any, content_page_path: str) -> None:
    """In dark mode each plot and graph sits on a backing that its ink stands out from.

    Backing = the most frequent colour of the image as rendered in the page
    (a transparent SVG shows the page's dark background there); ink = the
    darkest colour rendered in it.  Their WCAG contrast must be >= 4.5:1.
    Black text on a transparent graph over the dark page fails (about 1.1:1);
    the same graph on a light backing passes.
    """
    light, dark = visits(content_page_path, "light"), visits(content_page_path, "dark")
    assert dark.data_theme == "dark", f"{dark.url} did not switch to dark mode"
    assert light.data_theme == "light", f"{light.url} did not stay in light mode"
    assert len(light.content_images) == len(dark.content_images), "images differ between themes"
    unreadable = []
    for index, (lit, dim) in enumerate(zip(light.content_images, dark.content_images, strict=True)):
        backing, ink, ratio = backing_and_ink(dim)
        if ratio < MIN_DARK_MODE_CONTRAST:
            light_backing, light_ink, light_ratio = backing_and_ink(lit)
            unreadable.append(
                f"image #{index}: dark mode backing {backing} vs ink {ink} = {ratio:.2f}:1 "
                f"(light mode: {light_backing} vs {light_ink} = {light_ratio:.2f}:1)"
            )
    assert not unreadable, f"{dark.url} in dark mode:\n" + "\n".join(unreadable)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_on_a_laptop_the_page_passes_the_accessibility_audit(
    visits: Any, covering_page: str, theme: str
) -> None:
    """The audit of test_accessibility.py (which audits the phone's size), on the visits:
    light, a first visit; dark, a reader's who chose it.  Of the modules' source listings,
    those that hold a kind of element no other does (``sitefiles.covering_pages``)."""
    visit = visits(covering_page, theme)
    assert not visit.audit_error, visit.audit_error
    assert visit.findings is not None, "the visit was not audited"
    assert visit.data_theme == theme
    check(visit.findings, f"{covering_page}, {theme}, laptop")


# --- interactions -----------------------------------------------------------------------------


def test_each_cells_copy_puts_exactly_its_code_on_the_clipboard_and_code_blocks_keep_theirs(
    visits: Any, html: Path, content_page_path: str
) -> None:
    """A code cell's bar has Copy ("Copy cell 3"), in place of sphinx-copybutton's button;
    a plain code block keeps sphinx-copybutton's, which copies its code.

    The buttons are pressed at the end of the page's light visit (page_visits.record_copies).
    """
    expected = notebook_code_sources(html, content_page_path)
    copies = visits(content_page_path).copies
    assert copies is not None, "the visit did not press the copy buttons"
    assert not copies.error, copies.error
    if expected is None:
        assert copies.cells == 0, "code cells on a page that has no executed notebook"
    else:
        assert copies.cells == len(expected), (
            f"page shows {copies.cells} code cells, its notebook has {len(expected)}"
        )
        assert copies.cell_copybuttons == 0
        for index, (copied, source) in enumerate(zip(copies.copied_cells, expected, strict=True)):
            assert copied == source, f"cell #{index}: copied {copied!r}, expected {source!r}"
    for index, (code, copied) in enumerate(copies.copied_blocks):
        # The block's code, without its prompts (">>> ") and outputs (conf.py's copybutton_*).
        assert copied.strip(), f"code block #{index} copied nothing"
        assert all(line in code for line in copied.splitlines()), (
            f"code block #{index}: copied {copied!r}, not its code {code!r}"
        )


def test_search_page_finds_backward(context: Any, server: str, html: Path) -> None:
    tab = context.new_page()
    tab.goto(f"{server}/search.html?q=backward", wait_until="networkidle")
    tab.wait_for_function(
        "() => { const s = document.querySelector('#search-results p.search-summary');"
        " return s && s.innerText.length > 0; }"
    )
    summary = tab.inner_text("#search-results p.search-summary")
    hits = tab.locator("#search-results ul.search li a").evaluate_all(
        "(links) => links.map((a) => a.getAttribute('href'))"
    )
    assert hits, f"searching 'backward' found nothing: {summary!r}"
    for href in hits:
        target = html / urlsplit(href).path
        assert target.is_file(), f"search result {href} is not a page of the site"
        assert "backward" in target.read_text(encoding="utf-8").lower()


def test_the_pagers_links_can_be_clicked(visits: Any, content_page_path: str) -> None:
    """Each page's "previous" and "next" (the order they walk: test_static_site.py) is one
    link, shown, and under nothing, so that a click at its middle reaches it."""
    pager = visits(content_page_path).pager
    assert pager, f"{content_page_path} has neither previous nor next"
    for selector, link in pager.items():
        assert link["count"] == 1, (content_page_path, selector, link)
        assert link["clickable"], (content_page_path, selector, link)
