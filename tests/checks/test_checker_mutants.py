"""Mutation testing of the checks of "Build your own micrograd": every small mistake is caught, and
put down to the method that makes it.

Each mutant (``mutants.py``: a step's solution with one change in one of the
reader's methods) runs as its step's cell, after the solutions of the steps
before it, as the page runs them; then ``check(step, namespace, cells)``
judges it.  The mutant is *killed* when the check does not pass (nor calls
the code unwritten, "not-done"), and *located* when the result puts the
failure down to the mutant's own method (``result.part``) in its own step's
cell (``result.step``).  Every mutant must be killed and located, except the
listed equivalents (``mutants.EQUIVALENTS``), each proven equivalent here by
running it: its check passes, and on the step's differential battery
(``mutant_battery.py``) it computes exactly what the solution computes.

The table of the run (per step: mutants, killed, killed and located,
excluded, equivalents) is printed at the end and written to
``artifacts/mutants/report.{json,md}`` (``mutant_report.py``).
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from book_runtime.features.track.checks import EXERCISES, check
from mutant_battery import first_difference, trace
from mutant_report import Outcome, record
from mutants import EQUIVALENTS, Mutant, all_mutants, by_id, cells
from track_namespace import page_namespace

# One Python is enough: the checker's judgement is the same pure Python on each; and the
# checks' calls of micrograd add nothing to its coverage.
pytestmark = [
    pytest.mark.one_python,
    pytest.mark.no_cover,
    pytest.mark.usefixtures("recursion_limit_kept"),
]

MUTANTS = all_mutants()
IDS = list(EXERCISES)

#: A check that takes longer than this on a mutant has hung on it (the slowest takes ~1 s).
TIME_LIMIT = 30.0


class TimeLimit(BaseException):
    """Raised into a check that runs too long (not an Exception: the checker must not catch it)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    if not hasattr(signal, "setitimer"):  # no interval timer (Windows): no limit
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise TimeLimit

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def judge(mutant: Mutant) -> Outcome:
    """Run the mutant's step's check on the page with the mutant as its cell."""
    outcome = Outcome(
        mutant.id, mutant.step, mutant.part, mutant.operator, mutant.description, "excluded"
    )
    try:
        namespace = page_namespace(mutant.step, mutant.code)
    except Exception as error:  # the cell itself does not run: no reader's code to check
        outcome.message = f"the cell raised {type(error).__name__}: {error}"
        return outcome
    start = time.perf_counter()
    try:
        with time_limit(TIME_LIMIT):
            result = check(mutant.step, namespace, cells(mutant.step))
    except TimeLimit:
        outcome.verdict = "timeout"
        outcome.message = f"the check did not return within {TIME_LIMIT:.0f} s"
        return outcome
    finally:
        outcome.seconds = round(time.perf_counter() - start, 3)
    outcome.status, outcome.message = result.status, result.message
    outcome.result_part, outcome.result_step = result.part, result.step
    if mutant.id in EQUIVALENTS:
        outcome.verdict = "equivalent"  # proven so by test_each_listed_equivalent_is_equivalent
    elif result.status == "passed":
        outcome.verdict = "survived"
        difference = first_difference(mutant.step, page_namespace(mutant.step), namespace)
        outcome.note = (
            "not equivalent: the differential run differs"
            if difference is not None
            else "the differential run finds no difference: prove it equivalent and list it"
        )
    elif result.status == "not-done":
        outcome.verdict = "not-done"
    elif (result.part, result.step) == (mutant.part, mutant.step) and (
        f"`{mutant.part}`" in result.message
    ):  # the reader reads the method's name in the message, not only in the result's fields
        outcome.verdict = "located"
    else:
        outcome.verdict = "mislocated"
    return outcome


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.id for m in MUTANTS])
def test_mutant(mutant: Mutant, record_property: Any) -> None:
    """The mutant's step's check fails on it, naming the mutant's method and step."""
    outcome = judge(mutant)
    record_property(*record(outcome))
    if outcome.verdict == "excluded":
        pytest.skip(f"{mutant.id}: excluded, {outcome.message}")
    if outcome.verdict not in ("located", "equivalent"):
        pytest.fail(outcome.line(), pytrace=False)


# -- the equivalents, proven -----------------------------------------------------------------------


def test_each_listed_equivalent_is_equivalent() -> None:
    # Listed equivalents are few; one test, with a line for each that is not (or no longer).
    made, wrong = by_id(), []
    for mutant_id, why in sorted(EQUIVALENTS.items()):
        mutant = made.get(mutant_id)
        if mutant is None:
            wrong.append(f"{mutant_id}: listed, but no longer made; take it off the list")
            continue
        if not why.strip():
            wrong.append(f"{mutant_id}: the list must say why it is equivalent")
        namespace = page_namespace(mutant.step, mutant.code)
        result = check(mutant.step, namespace, cells(mutant.step))
        if result.status != "passed":
            wrong.append(
                f"{mutant_id}: listed as equivalent, but the check now says {result.status} "
                f"({' '.join(result.message.split())[:150]!r}); take it off the list"
            )
        difference = first_difference(mutant.step, page_namespace(mutant.step), namespace)
        if difference is not None:
            wrong.append(f"{mutant_id}: listed as equivalent, but it is not: {difference}")
    assert not wrong, "\n".join(wrong)


# -- the battery that proves them ------------------------------------------------------------------


@pytest.mark.parametrize("step", IDS)
def test_the_battery_gives_the_solution_the_same_trace_on_two_pages(step: str) -> None:
    assert first_difference(step, page_namespace(step), page_namespace(step)) is None
    assert all(trace(step, page_namespace(step), seed) for seed in range(3))


@pytest.mark.parametrize(
    ("step", "mistake"),
    [(step, m) for step, exercise in EXERCISES.items() for m in exercise.known_wrong],
)
def test_the_battery_tells_each_known_wrong_solution_from_the_solution(
    step: str, mistake: str
) -> None:
    # The battery's teeth: what the checker knows to be wrong computes otherwise on it.
    wrong = page_namespace(step, EXERCISES[step].known_wrong[mistake])
    assert first_difference(step, page_namespace(step), wrong) is not None


#: For each step, code that computes exactly what the solution computes, written otherwise
#: (float + and * commute exactly; ``x += y`` is ``x = x + y``): (the solution's text, the new).
REWRITES = {
    "value": ("self.data + other.data", "other.data + self.data"),
    "rules": (
        "self.grad += other.data * out.grad",
        "self.grad = self.grad + out.grad * other.data",
    ),
    "backward": ("in reversed(order):", "in order[::-1]:"),
    "nn": ("return [*self.w, self.b]", "return self.w + [self.b]"),
    "training": ("p.data -= learning_rate * p.grad", "p.data = p.data - p.grad * learning_rate"),
    "finale": ("x1 * w1 + x2 * w2", "w1 * x1 + x2 * w2"),
}


@pytest.mark.parametrize("step", IDS)
def test_the_battery_finds_no_difference_in_code_written_otherwise(step: str) -> None:
    # The other side of its teeth: an equivalent mutant listed would be proven so.
    old, new = REWRITES[step]
    solution = EXERCISES[step].solution
    assert solution.count(old) == 1
    rewritten = page_namespace(step, solution.replace(old, new))
    assert check(step, rewritten, cells(step)).status == "passed"
    assert first_difference(step, page_namespace(step), rewritten) is None


@pytest.mark.parametrize("step", IDS)
def test_the_solution_written_back_by_ast_passes_its_check(step: str) -> None:
    # Every mutant is ast.unparse's writing of the solution: that writing alone changes nothing.
    import ast

    code = ast.unparse(ast.parse(EXERCISES[step].solution)) + "\n"
    result = check(step, page_namespace(step, code), cells(step))
    assert result.status == "passed", result.message
