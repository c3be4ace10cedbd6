"""A page of the site in a browser tab, as the in-browser runner's tests drive it.

Shared by the runner's test modules (test_runner*.py); the fixtures that make
tabs are in conftest.py.
"""

from __future__ import annotations

import datetime
import os
import platform
import time
from typing import Any
from urllib.parse import urlsplit

import pytest
from sitefiles import ROOT

#: The states a cell's run ends in.
DONE = ("done", "raised", "crashed")
#: What still crashes the runtime: a list inside a list, 100,000 deep, freed.
#: A list frees the next one inside its own freeing without moving the stack
#: pointer CPython watches, so CPython never defers it (worker.js), and the
#: browser's stack runs out: "Maximum call stack size exceeded", fatal for Pyodide.
NESTED_LISTS_FREED = "nested = []\nfor _ in range(100_000):\n    nested = [nested]\ndel nested"
#: A generous ceiling for running a whole page (the moons page trains for 100 steps).
PAGE_TIMEOUT_MS = 240_000
TIMINGS_FILE = ROOT / "artifacts" / "runner" / "timings.json"
#: What the runner's tests measured (written to TIMINGS_FILE at the end of the session).
TIMINGS: dict[str, Any] = {}


def where_measured(tab: Tab) -> dict[str, Any]:
    """When and on what a browser measurement was made: the date, the machine, the runtime.

    The fields benchmarks/report.py reads of a browser test's measurements.
    """
    return {
        "date": datetime.date.today().isoformat(),
        "machine": {
            "platform": platform.platform(),
            "processor": platform.machine(),
            "cpus": os.cpu_count(),
            "load_average": os.getloadavg()[0],
        },
        "chromium": tab.context.browser.version,
        "pyodide": tab.evaluate("document.getElementById('micrograd-runner').dataset.pyodide"),
    }


def report(capsys: pytest.CaptureFixture[str], line: str) -> None:
    """Print a measurement to the terminal, outside pytest's capture."""
    with capsys.disabled():
        print(f"\n[runner] {line}", end="")


class Tab:
    """One page in a fresh browser context (empty cache and storage), with what it did."""

    def __init__(self, browser: Any, server: str, route: bool = True) -> None:
        self.server = server
        self.context = browser.new_context(viewport={"width": 1366, "height": 768})
        self.context.add_init_script(
            "localStorage.setItem('mode', 'light'); localStorage.setItem('theme', 'light');"
        )
        self.requests: list[str] = []
        self.foreign: list[str] = []
        self.errors: list[str] = []
        here = urlsplit(server)

        def handle(route: Any) -> None:
            url = urlsplit(route.request.url)
            if url.scheme in ("data", "blob") or (url.scheme, url.netloc) == (
                here.scheme,
                here.netloc,
            ):
                route.continue_()
            else:
                route.abort()

        if route:  # the host resolver already blocks other origins; this also names them
            self.context.route("**/*", handle)
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.context.on(
            "request",
            lambda r: (
                urlsplit(r.url).scheme not in ("data", "blob")
                and urlsplit(r.url).netloc != here.netloc
                and self.foreign.append(r.url)
            ),
        )
        self.page = self.context.new_page()
        self.page.on(
            "console", lambda m: m.type == "error" and self.errors.append(f"console: {m.text}")
        )
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))

    def open(self, page: str) -> Tab:
        self.page.goto(f"{self.server}/{page}", wait_until="networkidle")
        return self

    def close(self) -> None:
        self.context.close()

    def evaluate(self, script: str, arg: Any = None) -> Any:
        return self.page.evaluate(script, arg)

    def cell_count(self) -> int:
        return int(self.evaluate("microgradTest.cellCount()"))

    def cell(self, index: int) -> Any:
        """The page's ``index``-th runnable cell (those the runner marks with their state)."""
        return self.page.locator("div.cell[data-runner-state]").nth(index)

    def run_first_cell(self, page: str) -> Tab:
        """Open ``page``, run its first cell as it is, and check that it ran."""
        self.open(page)
        self.run_cell(0, timeout=60_000)
        return self

    def run_cell(self, index: int, expect: str = "done", timeout: float = 30_000) -> None:
        """Run cell ``index`` and check that its run ended ``expect`` within ``timeout`` ms.

        Fails with the cell's output when it ended otherwise.
        """
        self.click_run(index)
        state = self.wait_state(index, DONE, timeout)
        assert state == expect, f"cell {index} {state}:\n{self.output_text(index)}"

    def run_edited(
        self, index: int, code: str, expect: str = "done", timeout: float = 30_000
    ) -> str:
        """Put ``code`` in cell ``index``, :meth:`run_cell` it, and return what it shows."""
        self.edit(index, code)
        self.run_cell(index, expect, timeout)
        return self.output_text(index)

    def click_run(self, index: int) -> float:
        """Click cell ``index``'s Run button; return the time of the click (perf clock)."""
        cell = self.cell(index)
        cell.evaluate("(el) => { const d = el.querySelector('details'); if (d) d.open = true; }")
        start = time.perf_counter()
        cell.locator("button.runner-run").click()
        return start

    def wait_state(self, index: int, states: tuple[str, ...], timeout: float = 30_000) -> str:
        self.page.wait_for_function(
            "([i, states]) => states.includes(microgradTest.cell(i).state)",
            arg=[index, list(states)],
            timeout=timeout,
        )
        return str(self.evaluate(f"microgradTest.cell({index}).state"))

    def wait_editor(self, index: int) -> None:
        """Wait until cell ``index`` has its editor (opened by Edit or a first Run)."""
        self.page.wait_for_function(f"microgradTest.cell({index}).hasEditor")

    def edit(self, index: int, code: str) -> None:
        """Replace the code of cell ``index`` in its editor (opened with Edit if need be)."""
        if self.evaluate(f"!microgradTest.cell({index}).hasEditor"):
            cell = self.cell(index)
            cell.evaluate(
                "(el) => { const d = el.querySelector('details'); if (d) d.open = true; }"
            )
            cell.locator("button.runner-edit").click()
        self.wait_editor(index)
        self.evaluate("([i, code]) => { microgradTest.setCode(i, code); }", [index, code])

    def state(self, index: int) -> str:
        return str(self.evaluate(f"microgradTest.cell({index}).state"))

    def status(self, index: int) -> str:
        return str(self.cell(index).locator(".runner-status").inner_text())

    def outputs(self, index: int) -> list[dict[str, Any]]:
        return list(
            self.evaluate(
                f"microgradTest.cell({index}).outputs.map(o => ({{kind: o.kind, "
                "name: o.name || null, mime: o.mime || null, text: o.text || null, "
                "data: o.data || null}))"
            )
        )

    def output_text(self, index: int) -> str:
        return str(self.cell(index).locator("div.runner-output").inner_text()).rstrip("\n")

    def runtime_requests(self) -> list[str]:
        return [url for url in self.requests if "/_static/runner/" in url]


class Walk:
    """One reader's way through a page, taken once for every test that reads it.

    A way through a page costs a Python's start and its runs: the tests that ask
    about points on the same way read one walk.  Each step's result, or the
    exception it raised, is kept under the step's name; ``walk[name]`` gives the
    result or raises that exception, so a step that failed fails the tests that
    read it, and those only.  ``foreign``: the requests to other origins the tab
    made on the way (a test that reads the walk asserts there were none).
    """

    def __init__(self) -> None:
        self.results: dict[str, Any] = {}
        self.foreign: list[str] = []

    def step(self, name: str, take: Any) -> None:
        """Take the step ``take()`` and keep its result, or the exception it raised."""
        try:
            self.results[name] = take()
        except Exception as error:  # kept for the tests that read this step
            self.results[name] = error

    def __getitem__(self, name: str) -> Any:
        result = self.results[name]
        if isinstance(result, Exception):
            raise result
        return result


def clipboard_once_written(page: Any, before: str, timeout: float = 10) -> str:
    """What the clipboard holds once it no longer holds ``before`` (a copy may take a while:
    a script of the reader's version waits for Python)."""
    # The clipboard can be read only by a promise, which a polled predicate cannot wait for:
    # the page keeps the text it reads, and the predicate compares that.
    page.evaluate(
        """(before) => {
          window.__clipboardRead = before;
          const read = () => navigator.clipboard.readText().then((text) => {
            window.__clipboardRead = text;
            if (text === before) requestAnimationFrame(read);
          });
          read();
        }""",
        before,
    )
    page.wait_for_function(
        "(before) => window.__clipboardRead !== before", arg=before, timeout=timeout * 1000
    )
    return str(page.evaluate("window.__clipboardRead"))


#: A loop with no end that says, once, that it is under way: a test waits for those words.
ENDLESS_LOOP = "n = 0\nwhile True:\n    n += 1\n    if n == 100_000:\n        print('still going')"
STILL_GOING = "still going"


def click_where_it_is(locator: Any) -> None:
    """Click ``locator`` as a reader does: with the mouse at its centre, where it is.

    Playwright's own click scrolls the page when its check of what lies under the
    pointer fails (as it can while the page is still laying out), which moves what a
    test of places in the window measures.  A reader's click moves nothing: the element
    must be in the window already.
    """
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not shown"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    size = locator.page.viewport_size
    assert 0 <= x <= size["width"], f"{locator} is out of the window: {box}"
    assert 0 <= y <= size["height"], f"{locator} is out of the window: {box}"
    locator.page.mouse.click(x, y)


def wait_saved(page: Any) -> None:
    """Wait until the page's state holds every change so far (pagestate.js saves it soon after)."""
    page.wait_for_function("microgradTest.saved()")


def cell_with(tab: Tab, text: str) -> int:
    """The index (among the runnable cells) of the one cell whose code holds ``text``."""
    found = tab.evaluate(
        "(text) => microgradTest.cells().flatMap((c, i) => c.source.includes(text) ? [i] : [])",
        text,
    )
    assert len(found) == 1, f"{len(found)} runnable cells hold {text!r}"
    return int(found[0])


def run(tab: Tab, index: int) -> None:
    """Run cell ``index`` (and what it needs) and check that it ran without error.

    Returns once the hidden cells right after it have run too: the numbers and
    claims they send the prose are then the page's, not still on their way.
    """
    tab.run_cell(index, timeout=PAGE_TIMEOUT_MS)
    tab.page.wait_for_function("microgradTest.idle()", timeout=PAGE_TIMEOUT_MS)


def edit(tab: Tab, index: int, *changes: tuple[str, str]) -> None:
    """Make each (old, new) change in cell ``index``'s code."""
    source = tab.evaluate(f"microgradTest.cell({index}).source")
    for old, new in changes:
        assert old in source
        source = source.replace(old, new)
    tab.edit(index, source)
