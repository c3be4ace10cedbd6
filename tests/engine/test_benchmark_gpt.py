"""The GPT benchmark's runner: its verdicts say what its numbers say, and the book's side runs.

microgpt's sides need strands-microgpt, which is not a dependency of the
project (benchmarks/gpt_run.py installs it in a scratch environment); these
tests run only what needs this package.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load(name: str, monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # gpt_run imports sides.py beside it
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def runs(seconds: list[float], losses: list[float]) -> list[dict[str, Any]]:
    return [{"seconds_per_step": s, "losses": losses} for s in seconds]


def test_summary_gives_median_speedups_and_loss_differences(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gpt_run = load("gpt_run", monkeypatch)
    losses = [3.4, 3.1, 2.9]
    report = gpt_run.summary(
        {
            "microgpt": runs([0.2, 0.18, 0.5], losses),
            "microgpt_our_value": runs([0.05, 0.04, 0.06], losses),
            "book": runs([0.02, 0.01, 0.03], [3.4, 3.1, 2.9 + 1e-6]),
        }
    )
    assert report["seconds_per_step"] == {
        "microgpt": 0.2,
        "microgpt_our_value": 0.05,
        "book": 0.02,
    }
    verdicts = report["verdicts"]
    assert verdicts["our_value_speedup"]["value"] == pytest.approx(4.0)
    assert verdicts["our_value_speedup"]["met"]
    assert verdicts["book_speedup"]["value"] == pytest.approx(10.0)
    assert verdicts["book_speedup"]["met"]
    assert verdicts["loss_difference_our_value"] == {"value": 0.0, "target": 1e-9, "met": True}
    assert verdicts["loss_difference_book"]["value"] == pytest.approx(1e-6)
    assert not verdicts["loss_difference_book"]["met"]
    assert report["first_and_last_loss"] == [3.4, 2.9]


def test_the_books_side_trains_and_times_its_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    gpt_cases = load("gpt_cases", monkeypatch)
    result = gpt_cases.run("book", Path("unused-by-the-book"), 2)
    assert (result["side"], result["steps"], len(result["losses"])) == ("book", 2, 2)
    assert result["seconds_per_step"] > 0
    assert all(2.0 < loss < 4.0 for loss in result["losses"])


# A side of the benchmark that works for longer than a turn (so it is paused and resumed),
# then prints its result; or, as FAILING_CASE, fails on the book's side.
WORKING_CASE = """
import json, sys, time
start = time.process_time()
while time.process_time() - start < 0.3:
    pass
print(json.dumps({"side": sys.argv[1], "argv": sys.argv[2:]}))
"""
FAILING_CASE = """
import sys
if sys.argv[1] == "book":
    sys.exit("the book's side failed")
print("{}")
"""


def cases(monkeypatch: pytest.MonkeyPatch, folder: Path, code: str) -> types.ModuleType:
    """gpt_run, with ``code`` for every side's process and short turns."""
    gpt_run = load("gpt_run", monkeypatch)
    case = folder / "case.py"
    case.write_text(code, encoding="utf-8")
    monkeypatch.setattr(gpt_run, "CASES", case)
    monkeypatch.setattr(gpt_run, "TURN", 0.05)
    return gpt_run


def test_the_sides_take_turns_and_each_reports_its_result(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    gpt_run = cases(monkeypatch, tmp_path, WORKING_CASE)
    results = gpt_run.run_in_turns(sys.executable, Path("engine.py"), 7)
    assert list(results) == list(gpt_run.SIDES)
    for side, result in results.items():
        assert result == {"side": side, "argv": ["--engine", "engine.py", "--steps", "7"]}


def test_a_side_that_fails_stops_the_run_with_its_output(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    gpt_run = cases(monkeypatch, tmp_path, FAILING_CASE)
    with pytest.raises(RuntimeError, match="the book's side failed"):
        gpt_run.run_in_turns(sys.executable, Path("engine.py"), 7)
