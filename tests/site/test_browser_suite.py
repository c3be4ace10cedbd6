"""The browser suite waits on events and states, never on time: a fixed sleep passes only
on a machine quiet enough, and fails under load (CI's two workers, a second session)."""

from __future__ import annotations

import re
from pathlib import Path

BROWSER_TESTS = Path(__file__).resolve().parents[2] / "browser_tests"
#: A wait for a length of time: Playwright's, the standard library's, asyncio's.
FIXED_WAIT = re.compile(r"\bwait_for_timeout\(|\btime\.sleep\(|\basyncio\.sleep\(|\bsleep\(")


def test_no_browser_test_waits_for_a_fixed_time() -> None:
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(BROWSER_TESTS.glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if FIXED_WAIT.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == []


def test_the_rule_sees_each_kind_of_fixed_wait() -> None:
    for line in ("page.wait_for_timeout(50)", "time.sleep(0.2)", "await asyncio.sleep(1)"):
        assert FIXED_WAIT.search(line), line
    assert not FIXED_WAIT.search('page.wait_for_function("microgradTest.saved()")')
