"""The mutation test's report: what the checker said of each mutant, as a table and as JSON.

Each test of ``test_checker_mutants.py`` records its mutant's :class:`Outcome`
as a property of its report (pytest-xdist carries it from the worker that
ran it); at the end of the run :func:`summary` (called from conftest.py's
``pytest_terminal_summary``, in the controlling process) gathers them, prints
the table per step, and writes ``artifacts/mutants/report.json`` and
``artifacts/mutants/report.md``.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
REPORT_DIR = ROOT / "artifacts" / "mutants"

#: The name of the report property that carries an outcome.
PROPERTY = "mutant-outcome"

#: Verdicts that pass: killed and put down to the mutant's own method and step, or proven
#: equivalent (and listed).  Excluded mutants do not run as a cell at all.
GOOD = ("located", "equivalent")
EXCLUDED = "excluded"
#: Verdicts that fail the test, in the order the report lists them.
BAD = ("survived", "not-done", "mislocated", "timeout")

#: How much of a result's message the report keeps.
MESSAGE_CHARS = 150


@dataclass
class Outcome:
    """What the check said of one mutant, and the verdict on it."""

    id: str
    step: str
    part: str
    operator: str
    description: str
    verdict: str
    status: str | None = None
    result_part: str | None = None
    result_step: str | None = None
    message: str = ""
    note: str = ""  #: for a survivor, what the differential run found
    seconds: float = 0.0

    def line(self) -> str:
        """One line for a failing mutant: its id, the verdict, and what the check said."""
        said = f"status={self.status} part={self.result_part} step={self.result_step}"
        text = " ".join(self.message.split())[:MESSAGE_CHARS]
        note = f" [{self.note}]" if self.note else ""
        return f"{self.id}: {self.verdict} ({said}): {text!r}{note} -- {self.description}"


def record(outcome: Outcome) -> tuple[str, str]:
    return PROPERTY, json.dumps(asdict(outcome))


def gather(reports: list[Any]) -> list[Outcome]:
    """The outcomes in these test reports, one per mutant, in the mutants' order."""
    found: dict[str, Outcome] = {}
    for report in reports:
        for name, value in getattr(report, "user_properties", ()):
            if name == PROPERTY:
                outcome = Outcome(**json.loads(value))
                found[outcome.id] = outcome
    from mutants import all_mutants

    order = {m.id: n for n, m in enumerate(all_mutants())}
    return sorted(found.values(), key=lambda o: order.get(o.id, len(order)))


def tables(outcomes: list[Outcome], total: int) -> dict[str, Any]:
    """The report as data: per step, the counts and the bad mutants; and every outcome."""
    from mutants import STEPS

    steps: dict[str, Any] = {}
    for step in STEPS:
        mine = [o for o in outcomes if o.step == step]
        if not mine:
            continue
        verdicts = Counter(o.verdict for o in mine)
        run = [o for o in mine if o.verdict != EXCLUDED]
        steps[step] = {
            "mutants": len(mine),
            "excluded": verdicts[EXCLUDED],
            "equivalent": [o.id for o in mine if o.verdict == "equivalent"],
            "killed": sum(1 for o in run if o.verdict in ("located", "mislocated")),
            "located": verdicts["located"],
            "judged": len(run) - verdicts["equivalent"],
            "bad": [asdict(o) for o in mine if o.verdict in BAD],
        }
    return {
        "total": total,
        "ran": len(outcomes),
        "partial": len(outcomes) < total,
        "verdicts": dict(Counter(o.verdict for o in outcomes)),
        "steps": steps,
        "mutants": [asdict(o) for o in outcomes],
    }


def markdown(data: dict[str, Any]) -> str:
    """The report as a markdown table per step, then the bad mutants by step and part."""
    lines = [
        "| step | mutants | killed | killed and located | excluded | equivalents |",
        "|---|---:|---:|---:|---:|---|",
    ]
    sums = Counter[str]()
    for step, row in data["steps"].items():
        equivalents = ", ".join(f"`{i}`" for i in row["equivalent"]) or "none"
        lines.append(
            f"| {step} | {row['mutants']} | {row['killed']} / {row['judged']} | "
            f"{row['located']} / {row['judged']} | {row['excluded']} | {equivalents} |"
        )
        for key in ("mutants", "killed", "located", "judged", "excluded"):
            sums[key] += row[key]
    lines.append(
        f"| **all** | {sums['mutants']} | {sums['killed']} / {sums['judged']} | "
        f"{sums['located']} / {sums['judged']} | {sums['excluded']} | |"
    )
    if data["partial"]:
        lines.append(f"\n(partial run: {data['ran']} of {data['total']} mutants)")
    bad = [o for row in data["steps"].values() for o in row["bad"]]
    if bad:
        lines += ["", "Mutants that survive, are mislocated or time out, by step and part:"]
        # Grouped by method, the methods in the order of the code (a stable sort).
        first: dict[tuple[str, str], int] = {}
        for o in bad:
            first.setdefault((o["step"], o["part"]), len(first))
        last: tuple[str, str] | None = None
        for o in sorted(bad, key=lambda o: first[o["step"], o["part"]]):
            if (o["step"], o["part"]) != last:
                lines += ["", f"**{o['step']}: `{o['part']}`**", ""]
                last = (o["step"], o["part"])
            text = " ".join(o["message"].split())[:MESSAGE_CHARS]
            note = f" [{o['note']}]" if o["note"] else ""
            lines.append(
                f"- `{o['id']}` **{o['verdict']}** ({o['description']}); the check: "
                f"status {o['status']}, part `{o['result_part']}`, step `{o['result_step']}`, "
                f"{text!r}{note}"
            )
    return "\n".join(lines) + "\n"


def summary(terminalreporter: Any) -> None:
    """Print the table and write the report files, if this run judged any mutant."""
    config = terminalreporter.config
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the controller reports
        return
    reports = [r for rs in terminalreporter.stats.values() for r in rs if hasattr(r, "when")]
    outcomes = gather(reports)
    if not outcomes:
        return
    from mutants import all_mutants

    data = tables(outcomes, len(all_mutants()))
    text = markdown(data)
    REPORT_DIR.mkdir(parents=True, exist_ok=True)
    (REPORT_DIR / "report.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    (REPORT_DIR / "report.md").write_text(text, encoding="utf-8")
    terminalreporter.write_sep("=", "mutants of the checker's steps")
    terminalreporter.write_line(text.split("\n\nMutants that survive", 1)[0].rstrip())
    bad = [o for o in outcomes if o.verdict in BAD]
    if bad:
        terminalreporter.write_line(f"{len(bad)} bad mutants, one a line (also in report.md):")
        for outcome in bad:
            terminalreporter.write_line(outcome.line())
    terminalreporter.write_line(f"report: {REPORT_DIR / 'report.md'} and report.json")
