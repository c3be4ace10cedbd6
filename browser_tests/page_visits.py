"""One visit of a page in one theme, recorded once for every test that reads it.

A visit loads the page in a fresh browser context and records what happened:
console messages, uncaught errors, every request the page made, the theme's
mode, the images' load state, the content images as rendered, and a full-page
screenshot saved to ``artifacts/screenshots``; then, if asked, what the
accessibility audit finds in the page as loaded, and what each code cell's Copy
and each code block's copy button put on the clipboard.  conftest.py's ``visits``
fixture keeps each record for the session, so that every test of
test_reader_experience.py asserts on the same load of each page.

The light visit is a reader's first: nothing in storage, the browser
preferring light, so the theme starts in mode ``auto``.  The dark one is a
reader's who chose dark: the mode stored as the theme's switch stores it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from accessibility import Finding, audit
from PIL import Image
from runner_tab import clipboard_once_written
from screenshots import full_page_screenshot

#: The window of a visit: a laptop's, wider than the theme's widest breakpoint (1200 px),
#: the accessibility audit's laptop (test_accessibility.py's VIEWPORTS).
VIEWPORT = {"width": 1366, "height": 768}

#: Content images: plots, graphs and figures in the article body.
CONTENT_IMAGES = (
    "article.bd-article img, article.bd-article div.cell_output svg:not(button *), "
    "article.bd-article figure svg:not(button *), article.bd-article object"
)

IMAGE_STATE_JS = """
() => Array.from(document.querySelectorAll('img')).map((img) => {
  const box = img.getBoundingClientRect();
  return {src: img.getAttribute('src'), complete: img.complete,
          naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight,
          width: box.width, height: box.height,
          displayed: img.getClientRects().length > 0};
})
"""

INLINE_SVG_STATE_JS = """
() => Array.from(document.querySelectorAll(
    'article.bd-article div.cell_output svg:not(button *), '
    + 'article.bd-article figure svg:not(button *)')).map((svg) => {
  const box = svg.getBoundingClientRect();
  return {id: svg.id || svg.outerHTML.slice(0, 80), width: box.width, height: box.height,
          displayed: svg.getClientRects().length > 0};
})
"""

#: The pager's links (the theme's "previous" and "next" at the foot of the page): for each
#: one the page has, whether a click at its middle reaches it (shown, and under nothing).
PAGER_JS = """
() => Object.fromEntries(['a.left-prev', 'a.right-next'].flatMap((selector) => {
  const links = document.querySelectorAll(selector);
  if (!links.length) return [];
  const link = links[0];
  link.scrollIntoView({block: 'center'});
  const box = link.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return [[selector, {count: links.length, clickable: box.width > 0 && box.height > 0
                      && hit !== null && link.contains(hit)}]];
}))
"""

UNTYPESET_MATH_JS = """
() => Array.from(document.querySelectorAll('span.math, div.math'))
  .filter((el) => !el.querySelector('mjx-container'))
  .map((el) => el.textContent.slice(0, 60))
"""

#: What the theme made of the reader's mode once the page has loaded.
THEME_STATE_JS = """
() => ({mode: document.documentElement.dataset.mode,
        theme: document.documentElement.dataset.theme,
        stored: localStorage.getItem('mode')})
"""

#: The part of an element a reader can see: its box clipped by every scrolling or
#: clipping ancestor (a wide graph in a sideways-scrolling output), as
#: [left, top, right, bottom] relative to the element's own box.
VISIBLE_PART_JS = """
(el) => {
  const box = el.getBoundingClientRect();
  let [l, t, r, b] = [box.left, box.top, box.right, box.bottom];
  for (let p = el.parentElement; p; p = p.parentElement) {
    const style = getComputedStyle(p);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const q = p.getBoundingClientRect();
    l = Math.max(l, q.left + p.clientLeft);
    t = Math.max(t, q.top + p.clientTop);
    r = Math.min(r, q.left + p.clientLeft + p.clientWidth);
    b = Math.min(b, q.top + p.clientTop + p.clientHeight);
  }
  return [l - box.left, t - box.top, r - box.left, b - box.top].map(Math.round);
}
"""

SCROLL_THROUGH_JS = """
async () => {
  for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
    window.scrollTo(0, y);
    await new Promise((r) => setTimeout(r, 20));
  }
  window.scrollTo(0, 0);
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
}
"""


@dataclass
class Visit:
    """What happened while one page was loaded in one theme."""

    url: str
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    images: list[dict[str, Any]] = field(default_factory=list)
    inline_svgs: list[dict[str, Any]] = field(default_factory=list)
    content_images: list[Image.Image] = field(default_factory=list)
    #: The theme's state once loaded: ``mode`` and ``theme`` on <html>, ``stored`` mode.
    mode: str = ""
    data_theme: str = ""
    stored: str | None = None
    math: int = 0
    untypeset_math: list[str] = field(default_factory=list)
    #: The pager's links, by selector: how many, and whether a click reaches the first.
    pager: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: What the accessibility audit found in the page as loaded, if it was audited; or
    #: why it could not run (a failure fails the audit's test alone).
    findings: list[Finding] | None = None
    audit_error: str = ""
    #: What the copy buttons put on the clipboard (:func:`record_copies`), if recorded.
    copies: Copies | None = None


@dataclass
class Copies:
    """What a page's copy buttons copied: each code cell's, then each plain code block's."""

    #: Code cells shown, and sphinx-copybutton's buttons among them (the cell's bar has Copy).
    cells: int = 0
    cell_copybuttons: int = 0
    #: What "Copy cell N" put on the clipboard, for N = 1, 2, ... (one per cell shown).
    copied_cells: list[str] = field(default_factory=list)
    #: Each plain code block (not a cell's): (its code as shown, what its button copied).
    copied_blocks: list[tuple[str, str]] = field(default_factory=list)
    #: Why the buttons could not all be pressed (the copy test fails with it), or "".
    error: str = ""


def new_context(browser: Any, theme: str, stored: dict[str, str] | None = None) -> Any:
    """A fresh browser context preferring ``theme`` with ``stored`` (or nothing) in storage."""
    ctx = browser.new_context(viewport=VIEWPORT, color_scheme=theme)
    if stored:
        # pydata-sphinx-theme reads the reader's choice from localStorage before painting.
        ctx.add_init_script(
            "".join(f"localStorage.setItem({k!r}, {v!r});" for k, v in stored.items())
        )
    return ctx


def listen(tab: Any, visit: Visit) -> None:
    """Record into ``visit`` what ``tab`` logs as an error, requests and fails to get."""
    tab.on(
        "console",
        lambda m: m.type == "error" and visit.console_errors.append(f"{m.text} @ {m.location}"),
    )
    tab.on("pageerror", lambda e: visit.page_errors.append(str(e)))
    tab.on("request", lambda r: visit.requests.append(r.url))
    tab.on("requestfailed", lambda r: visit.failed.append(f"{r.url}: {r.failure}"))
    tab.on(
        "response",
        lambda r: r.status >= 400 and visit.failed.append(f"{r.url}: HTTP {r.status}"),
    )


def record_visit(
    browser: Any, server: str, page: str, theme: str, audited: bool = False, copies: bool = False
) -> Visit:
    """Load ``page`` in ``theme`` and record everything the tests assert on.

    ``audited``: once the page is recorded as loaded, run the accessibility audit on it.
    ``copies``: last, press every copy button of the page and record what each copied.

    ``"light"``: a first visit, nothing in storage (the theme's mode is then
    ``auto``, which the browser's light preference makes light).  ``"dark"``:
    the mode ``dark`` stored, as a reader who chose it has it.
    """
    # Empty storage is the stricter first visit: the theme must then settle the mode itself
    # (``auto``, stored), which test_reader_experience asserts, on the path every reader's
    # first load takes; the stored-mode path stays checked on the dark visit.
    stored = None if theme == "light" else {"mode": theme, "theme": theme}
    ctx = new_context(browser, theme, stored)
    if copies:
        ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    visit = Visit(url=f"{server}/{page}")
    try:
        tab = ctx.new_page()
        listen(tab, visit)
        tab.goto(visit.url, wait_until="networkidle")
        state = tab.evaluate(THEME_STATE_JS)
        visit.mode, visit.stored = state["mode"], state["stored"]
        tab.evaluate(SCROLL_THROUGH_JS)
        tab.wait_for_load_state("networkidle")
        visit.images = tab.evaluate(IMAGE_STATE_JS)
        visit.inline_svgs = tab.evaluate(INLINE_SVG_STATE_JS)
        visit.data_theme = tab.evaluate("document.documentElement.dataset.theme")
        visit.math = tab.locator("span.math, div.math").count()
        visit.untypeset_math = tab.evaluate(UNTYPESET_MATH_JS)
        visit.content_images = content_images(tab)
        visit.pager = tab.evaluate(PAGER_JS)
        full_page_screenshot(tab, page, theme)
        if audited:  # before the copies, which open the collapsed cells
            try:
                tab.evaluate("window.scrollTo(0, 0)")  # where a reader's visit starts
                visit.findings = audit(tab)
            except Exception as error:  # the audit's test reports it
                visit.audit_error = f"{type(error).__name__}: {error}"
        if copies:  # last: it opens the collapsed cells
            visit.copies = record_copies(tab)
    finally:
        ctx.close()
    return visit


#: Plain code blocks, which keep sphinx-copybutton's button (conf.py's
#: copybutton_selector): not a cell's code, nor the scratch cell's (the runner's).
CODE_BLOCKS = (
    "article :not(.cell_input) > div:not(.output):not(.runner-scratch-input) > div.highlight"
)
NOT_WRITTEN = "<clipboard not written>"


def record_copies(tab: Any) -> Copies:
    """Press each code cell's Copy, then each code block's copy button; what each copied.

    A failure to press one is recorded, not raised: it fails the copy test alone.
    """
    copies = Copies()
    try:
        copies.cells = tab.locator("div.cell_input div.highlight").count()
        copies.cell_copybuttons = tab.locator("div.cell_input button.copybtn").count()
        # Open the collapsed (hide-cell) cells, as a reader would.
        tab.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        for index in range(copies.cells):
            copy = tab.get_by_role("button", name=f"Copy cell {index + 1}", exact=True)
            tab.evaluate(f"navigator.clipboard.writeText({NOT_WRITTEN!r})")
            copy.click()
            copies.copied_cells.append(clipboard_once_written(tab, NOT_WRITTEN))
        blocks = tab.locator(CODE_BLOCKS)
        for index in range(blocks.count()):
            block = blocks.nth(index)
            code = block.locator("pre").inner_text()
            tab.evaluate(f"navigator.clipboard.writeText({NOT_WRITTEN!r})")
            block.hover()
            block.locator("button.copybtn").click()
            copies.copied_blocks.append((code, tab.evaluate("navigator.clipboard.readText()")))
    except Exception as error:  # any failure is the copy test's to report
        copies.error = f"{type(error).__name__}: {error}"
    return copies


def content_images(tab: Any) -> list[Image.Image]:
    """Each visible content image of ``tab`` as rendered, cut to the part a reader sees."""
    shots = []
    for element in tab.locator(CONTENT_IMAGES).all():
        if element.is_visible():
            element.scroll_into_view_if_needed()
            left, top, right, bottom = element.evaluate(VISIBLE_PART_JS)
            shot = Image.open(io.BytesIO(element.screenshot(animations="disabled")))
            left, top = max(0, left), max(0, top)
            right, bottom = min(shot.width, right), min(shot.height, bottom)
            if right > left and bottom > top:
                shot = shot.crop((left, top, right, bottom))
            shots.append(shot.convert("RGB"))
    return shots
