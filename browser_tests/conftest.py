"""Fixtures for checking the built site as a reader gets it.

The site must already be built (``nox -s browser`` builds it first). It is
served from a stdlib HTTP server on 127.0.0.1 with an ephemeral port and
driven with the system's headless Chromium through Playwright.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import accessibility
import pytest
import screenshots
from measurements import add_counts, merge_into
from page_visits import Visit, record_visit
from runner_tab import TIMINGS, TIMINGS_FILE, Tab
from sitefiles import content_pages, covering_pages, discover_pages, site_dir

#: Flags for a quiet Chromium on a machine without internet: no sandbox (we
#: are root), and none of the browser's own background traffic.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
NOT_BUILT = "<site not built>"
_STARTED = pytest.StashKey[float]()

HTML = site_dir()
PAGES = discover_pages(HTML)
CONTENT_PAGES = content_pages(PAGES)
#: Every page but the source listings that hold no kind of element another one holds.
COVERING_PAGES = covering_pages(HTML, PAGES)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``page`` over every built page (``content_page``: authored ones).

    ``covering_page``: every page, but of the modules' source listings only those
    that some kind of element is on (:func:`sitefiles.covering_pages`).
    """
    params = (("page", PAGES), ("content_page", CONTENT_PAGES), ("covering_page", COVERING_PAGES))
    for name, pages in params:
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, pages or [NOT_BUILT])


@pytest.fixture(scope="session")
def html() -> Path:
    """The directory of the built site; fails (never skips) when it is missing."""
    if not PAGES:
        pytest.fail(f"no built site at {HTML}: run `python -m nox -s browser` (it builds first)")
    return HTML


#: Every file the site's server sent in this process, in order: (path, bytes sent).
SERVED: list[tuple[str, int]] = []


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def copyfile(self, source: Any, outputfile: Any) -> None:
        """Send the file, and note in :data:`SERVED` what was sent."""
        sent = 0
        while chunk := source.read(1 << 16):
            outputfile.write(chunk)
            sent += len(chunk)
        SERVED.append((urlsplit(self.path).path, sent))


@pytest.fixture(scope="session")
def server(html: Path) -> Iterator[str]:
    """Serve the built site on 127.0.0.1 with an ephemeral port; yield its base URL."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(html)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    host, port = httpd.server_address[:2]
    try:
        yield f"http://{host}:{port}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@pytest.fixture(scope="session")
def served(server: str) -> list[tuple[str, int]]:
    """What the site's server has sent so far, in order: (path, bytes), growing as it sends.

    Counted where the bytes leave, whoever asked for them (the page, its worker, the
    service worker) and whatever the browser tells Playwright about them.
    """
    return SERVED


def chromium_path() -> str:
    """Return the system Chromium binary (``CHROMIUM`` overrides)."""
    path = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if not path:
        pytest.fail("no Chromium found: `apt-get install -y chromium` (or set CHROMIUM=/path)")
    return path


@contextmanager
def launched_chromium(browser_type: Any, *args: str) -> Iterator[Any]:
    """The system Chromium, headless, with :data:`CHROMIUM_ARGS` and ``args``; closed after.

    ``browser_type``: the ``chromium`` of the Playwright that drives it.
    """
    launched = browser_type.launch(executable_path=chromium_path(), args=[*CHROMIUM_ARGS, *args])
    try:
        yield launched
    finally:
        launched.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, launched_chromium(playwright.chromium) as launched:
        yield launched


@pytest.fixture
def context(browser: Any, server: str) -> Iterator[Any]:
    """A fresh browser context (light theme) that may read and write the clipboard."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture(scope="session")
def visits(browser: Any, server: str) -> Callable[..., Visit]:
    """``visits(page, theme)``: the record of loading ``page`` in ``theme`` (page_visits.py).

    Made once per page and theme in a session: the tests of test_reader_experience.py
    (one file, so one process under ``--dist loadfile``) read the same visit of each page.
    """
    cache: dict[tuple[str, str], Visit] = {}

    def get(page: str, theme: str = "light") -> Visit:
        if (page, theme) not in cache:
            # A page the audit covers is audited as loaded; the light visit of an
            # authored page then presses its copy buttons.
            audited = page in COVERING_PAGES
            copies = theme == "light" and page in CONTENT_PAGES
            cache[page, theme] = record_visit(browser, server, page, theme, audited, copies)
        return cache[page, theme]

    return get


@pytest.fixture
def page_path(html: Path, page: str) -> str:
    """The page under test; fails when the site was not built."""
    return page


@pytest.fixture
def content_page_path(html: Path, content_page: str) -> str:
    """The authored page under test; fails when the site was not built."""
    return content_page


# -- the in-browser runner's tests (runner_tab.Tab) ---------------------------------------------


@pytest.fixture(scope="session")
def offline_browser(browser: Any) -> Iterator[Any]:
    """Headless Chromium that can reach 127.0.0.1 and nothing else.

    Launched through the Playwright that runs ``browser`` (one Playwright per
    thread), with a host resolver that knows no other host.
    """
    only_here = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
    with launched_chromium(browser.browser_type, only_here) as launched:
        yield launched


@pytest.fixture
def tab(offline_browser: Any, server: str) -> Iterator[Tab]:
    """A page in a fresh browser context that reaches this site only; no foreign request."""
    opened = Tab(offline_browser, server)
    try:
        yield opened
    finally:
        opened.close()
    assert not opened.foreign, f"requests to other origins: {opened.foreign}"


@pytest.fixture(scope="session", autouse=True)
def _write_runner_timings() -> Iterator[None]:
    """Add what the runner's tests measured to artifacts/runner/timings.json."""
    yield
    if TIMINGS:
        merge_into(TIMINGS_FILE, TIMINGS)


@pytest.fixture(scope="session", autouse=True)
def _write_accessibility_counts() -> Iterator[None]:
    """Add every audit's findings, by impact and rule, to artifacts/accessibility/findings.json."""
    yield
    if accessibility.COUNTS:
        add_counts(accessibility.FINDINGS_FILE, accessibility.COUNTS)


@pytest.fixture(scope="session", autouse=True)
def _write_screenshot_timings() -> Iterator[None]:
    """Add how long each page's screenshot took to artifacts/screenshots/timings.json."""
    yield
    if screenshots.TIMINGS:
        merge_into(screenshots.TIMINGS_FILE, screenshots.TIMINGS)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Note when this run began: the summary below prints only what the run wrote."""
    session.config.stash[_STARTED] = time.time()


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Print each page's screenshot times at the end of the run, slowest first.

    Read from the file, which this run's processes wrote (pytest-xdist's
    workers take the screenshots, not the process that prints this).
    """
    path = screenshots.TIMINGS_FILE
    if not path.is_file() or path.stat().st_mtime < config.stash.get(_STARTED, 0.0):
        return
    terminalreporter.write_sep("-", f"full-page screenshots ({path})")
    for line in screenshots.summary(json.loads(path.read_text(encoding="utf-8"))):
        terminalreporter.write_line(line)
