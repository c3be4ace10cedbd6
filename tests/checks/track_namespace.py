"""The page's namespace as the in-browser runner makes it, for the checks of the track.

Each step's code runs as a cell of its own (file name ``<cell N>``, N the
step's place in the track, its lines in ``linecache``), in one namespace, in
the track's order; :data:`CELLS` tells the checks which step each cell is,
as the page's runner does.
"""

from __future__ import annotations

import builtins
import linecache
from pathlib import Path
from typing import Any

from book_runtime.features.track.checks import EXERCISES, Result
from book_runtime.features.track.checks import check as check_cells

IDS = list(EXERCISES)
#: Which step each cell of page_namespace is.
CELLS = {f"<cell {number}>": step for number, step in enumerate(IDS, start=1)}
#: The track's test inputs, a folder a step: ``<step>/near/`` holds its near misses.
FIXTURES = Path(__file__).parent / "fixtures"


def run_cell(namespace: dict[str, Any], code: str, number: int) -> None:
    """Run ``code`` as the runner runs a cell: its file name ``<cell N>``, its lines kept."""
    filename = f"<cell {number}>"
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    exec(compile(code, filename, "exec"), namespace)


def page_namespace(step: str, last: str | None = None) -> dict[str, Any]:
    """The namespace after the steps' solutions up to ``step``, whose code is ``last`` if given."""
    namespace: dict[str, Any] = {"__builtins__": builtins, "__name__": "__main__"}
    for number, exercise in enumerate(EXERCISES.values(), start=1):
        mine = exercise.id == step
        run_cell(namespace, last if mine and last is not None else exercise.solution, number)
        if mine:
            return namespace
    raise KeyError(step)


def check(step: str, namespace: Any) -> Result:
    """The check of ``step``, told which step each cell is (as the page's runner does)."""
    return check_cells(step, namespace, CELLS)
