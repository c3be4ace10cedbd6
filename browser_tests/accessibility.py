"""The accessibility audit: axe-core, as package-lock.json pins it, run in a Playwright page.

axe-core is a development dependency (``devDependencies`` in package.json):
``npm ci`` puts it in ``node_modules/``, the browser tests inject it into the
page they are looking at, and the site never ships it (the build copies only
the runtime's own files).  :func:`audit` runs it on whatever the page shows
at that moment, so a test can audit a page as it loads, with a cell run, an
editor open, a crash note shown, or the stepper on any frame.

A finding of impact "serious" or "critical" fails a test.  A "moderate" or
"minor" one fails it too, unless its rule is listed in :data:`ACCEPTED`
with the reason it stays (the same list is in browser_tests/README.md).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import Any

from sitefiles import ROOT

AXE_SCRIPT = ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: Impacts that no page may have, whatever the rule.
BLOCKING = frozenset({"serious", "critical"})
#: Rules whose moderate or minor findings stay, with the reason (see browser_tests/README.md).
ACCEPTED: dict[str, str] = {}

RUN_AXE_JS = """
async (selector) => {
  const results = await axe.run(selector ? document.querySelector(selector) : document,
                                {resultTypes: ['violations']});
  return results.violations.flatMap((v) => v.nodes.map((n) => ({
    rule: v.id, impact: n.impact || v.impact, help: v.help,
    target: n.target.join(' '), html: n.html.slice(0, 160),
    summary: n.failureSummary || ''})));
}
"""


@dataclass(frozen=True)
class Finding:
    """One element that breaks one axe-core rule."""

    rule: str
    impact: str
    help: str
    target: str
    html: str
    summary: str

    def __str__(self) -> str:
        return f"[{self.impact}] {self.rule}: {self.help}\n    at {self.target}: {self.html}"


@functools.cache
def _axe_source() -> str:
    if not AXE_SCRIPT.is_file():
        raise FileNotFoundError(
            f"{AXE_SCRIPT} is missing: run `npm ci` (`python -m nox -s browser` does)"
        )
    return AXE_SCRIPT.read_text(encoding="utf-8")


def audit(page: Any, selector: str | None = None) -> list[Finding]:
    """Run axe-core on what ``page`` (a Playwright page) shows now; every violation found.

    ``selector`` limits the audit to one element and what it holds.  axe-core
    is injected on first use in each document (a navigation drops it).
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=_axe_source())
    found = page.evaluate(RUN_AXE_JS, selector)
    return [Finding(**item) for item in found]


def unacceptable(findings: list[Finding]) -> list[Finding]:
    """The findings a page may not have: serious or critical, or of a rule not in ACCEPTED."""
    return [f for f in findings if f.impact in BLOCKING or f.rule not in ACCEPTED]


def describe(findings: list[Finding]) -> str:
    """The findings, one per line, for an assertion message."""
    return "\n".join(map(str, findings))


#: Every finding of this process's audits, accepted or not, by impact and rule
#: (conftest.py adds them to FINDINGS_FILE at the end of the session).
COUNTS: Counter[str] = Counter()
FINDINGS_FILE = ROOT / "artifacts" / "accessibility" / "findings.json"


def check(findings: list[Finding], where: str) -> None:
    """Count ``findings`` and fail, saying ``where``, on any that is not acceptable."""
    COUNTS.update(f"{f.impact} {f.rule}" for f in findings)
    bad = unacceptable(findings)
    assert not bad, f"{where}:\n{describe(bad)}"


def check_audit(page: Any, where: str) -> None:
    """Audit the whole of ``page`` and :func:`check` what axe-core finds."""
    check(audit(page), where)
