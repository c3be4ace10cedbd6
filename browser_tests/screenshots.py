"""Full-page screenshots of the site's pages (``artifacts/screenshots/``), and what each took.

A screenshot is a record for people to look at, not a check, so a slow one
must not fail a test, and one that times out fails the visit it is part of
(test_reader_experience.py), and with it every test of that visit.  Its time
grows with the page's length: the API page is about 43,000 CSS pixels tall at
a laptop's width, and its screenshot takes 4.7 s on a quiet 2-core machine and more
than Playwright's default 30 s on a busy one.  So each screenshot gets a
timeout in proportion to the page's height, still finite, so that a browser
that hangs fails the run instead of stalling it.  How long each one took goes
to ``artifacts/screenshots/timings.json`` and is printed at the end of the
session (conftest.py).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sitefiles import ROOT

SCREENSHOTS = ROOT / "artifacts" / "screenshots"
TIMINGS_FILE = SCREENSHOTS / "timings.json"
#: Theme -> page -> its screenshot's seconds, page height and timeout (written to TIMINGS_FILE).
TIMINGS: dict[str, dict[str, dict[str, float]]] = {}

#: Playwright's default timeout, which is plenty for a short page ...
BASE_TIMEOUT_MS = 30_000
#: ... and more for each 1,000 CSS pixels of the page's height: 0.11 s was needed on a quiet
#: machine (4.7 s for the API page), so this is over 25 times that (160 s for the API page).
TIMEOUT_MS_PER_1000_PX = 3_000

PAGE_HEIGHT_JS = "Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)"


def screenshot_path(page: str, theme: str) -> Path:
    """Where the screenshot of ``page`` in ``theme`` is saved."""
    base = SCREENSHOTS if theme == "light" else SCREENSHOTS / theme
    path = base / Path(page).with_suffix(".png")
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def full_page_screenshot(tab: Any, page: str, theme: str) -> Path:
    """Save a screenshot of the whole of ``page`` (open in ``tab``) and record its time."""
    height = tab.evaluate(PAGE_HEIGHT_JS)
    timeout = BASE_TIMEOUT_MS + TIMEOUT_MS_PER_1000_PX * height / 1000
    path = screenshot_path(page, theme)
    start = time.perf_counter()
    tab.screenshot(path=str(path), full_page=True, timeout=timeout)
    TIMINGS.setdefault(theme, {})[page] = {
        "seconds": round(time.perf_counter() - start, 2),
        "height_px": height,
        "timeout_seconds": round(timeout / 1000, 1),
    }
    return path


def summary(timings: dict[str, dict[str, dict[str, float]]]) -> list[str]:
    """One line per page: its height and its screenshot's seconds in each theme, slowest first.

    ``timings`` is as :data:`TIMINGS`: theme -> page -> its screenshot's numbers.
    """
    times: dict[str, list[str]] = {}
    heights: dict[str, float] = {}
    slowest: dict[str, float] = {}
    for theme, shots in sorted(timings.items()):
        for page, shot in shots.items():
            times.setdefault(page, []).append(f"{theme} {shot['seconds']:.1f} s")
            heights[page] = shot["height_px"]
            slowest[page] = max(slowest.get(page, 0.0), shot["seconds"])
    order = sorted(times, key=lambda page: -slowest[page])
    return [f"{page}: {heights[page]:.0f} px, {', '.join(times[page])}" for page in order]
