"""The theme as a first-time reader meets it.

* the check that a first visit (nothing in localStorage) logs no console error
  and starts in mode ``auto`` would hear the theme complain (that check reads the
  visit test_reader_experience.py records, so it is there: one visit per page);
* one search box, not two (sphinx-book-theme 1.4 with pydata-sphinx-theme
  0.20 shows pydata's header bar, with a second search field, unless the
  navbar is switched off);
* the repository, source, edit and issue buttons appear only when the build
  knows the repository (docs/_ext/repository_links.py: an explicit setting,
  Read the Docs', the clone's public https remote, pyproject.toml's
  [project.urls]); a build that knows none has no link to any repository, and
  no sentence that speaks of one.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from page_visits import Visit, listen, new_context
from repository_links import repository_url
from sitefiles import article, is_external, parse

VIEWPORTS = {"laptop": (1366, 768), "phone": (390, 844)}


def test_the_first_visit_check_hears_the_theme_complain(browser: Any, server: str) -> None:
    """The check above would see the error: a stored mode the theme rejects makes it."""
    context = new_context(browser, "light", stored={"mode": "sepia"})
    visit = Visit(url=f"{server}/index.html")
    try:
        tab = context.new_page()
        listen(tab, visit)
        # The console event may reach the test after the load settles: wait for it (or fail
        # after Playwright's timeout), instead of reading the list at once.
        with tab.expect_console_message(lambda m: m.type == "error"):
            tab.goto(visit.url, wait_until="networkidle")
    finally:
        context.close()
    errors = visit.console_errors + visit.page_errors
    assert any("Got invalid theme mode" in e for e in errors), errors


@pytest.fixture(params=list(VIEWPORTS))
def tab(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    width, height = VIEWPORTS[request.param]
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.viewport_name = request.param  # type: ignore[attr-defined]
        yield page
    finally:
        context.close()


SEARCH_CONTROLS_JS = """
() => {
  // (the search page's own query form is the page's content, not a second box)
  const visible = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== 'hidden'
    && !el.closest('dialog, article, .bd-search-container');
  const fields = Array.from(document.querySelectorAll(
    '.search-button-field, form.bd-search input, input[type="search"]')).filter(visible);
  const buttons = Array.from(document.querySelectorAll('.search-button__button'))
    .filter(visible).filter((b) => !b.closest('.search-button-field'));
  return {fields: fields.length, buttons: buttons.length,
          header: document.querySelector('#pst-header') ?
            document.querySelector('#pst-header').children.length : 0};
}
"""


@pytest.mark.parametrize("search_page", ["index.html", "backward.html", "search.html"])
def test_there_is_one_search_box(tab: Any, server: str, search_page: str) -> None:
    tab.goto(f"{server}/{search_page}", wait_until="networkidle")
    found = tab.evaluate(SEARCH_CONTROLS_JS)
    assert found["header"] == 0, "pydata's header bar (with its own search field) is back"
    if tab.viewport_name == "laptop":
        assert found["fields"] == 1, found
    else:  # a phone: the sidebar folds away, one search button or field remains
        assert found["fields"] + found["buttons"] >= 1, found
        assert found["fields"] <= 1, found


def test_a_local_build_has_no_repository_links(html: Path, page_path: str) -> None:
    """Unless the build knows the repository, no page links to one, nor speaks of one.

    The browser session builds the site in the environment and the folder the
    tests run in, so ``repository_url`` finds what the build found: where it
    finds a repository, every header link goes into it and the page gives its
    address wherever it speaks of it.
    """
    soup = parse(html, page_path)
    header_links = [
        str(a["href"])
        for a in soup.select(".article-header-buttons a[href]")
        if is_external(str(a["href"]))
    ]
    known = repository_url(os.environ)
    if known is None:
        assert not header_links, f"{page_path} links to a repository: {header_links}"
        assert "micrograd-book/micrograd-book" not in (html / page_path).read_text("utf-8")
        for label in ("Edit", "Open issue", "Repository", "Show source"):
            assert not soup.select(f'.article-header-buttons [title="{label}"]'), label
    else:
        assert header_links, f"{page_path}: the build knows {known} but shows no link to it"
        assert all(link.startswith(known) for link in header_links), header_links
    words = article(soup).get_text(" ").lower()
    for word in ("repository", "clone"):
        assert word not in words or (known and known.lower() in words), (page_path, word)
