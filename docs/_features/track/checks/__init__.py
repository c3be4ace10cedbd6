"""The hidden checks of "Build your own micrograd": the reader's code against micrograd's numbers.

The page's reader writes their own ``Value`` (and then ``Neuron``, ``Layer``,
``MLP`` and ``train``) in the exercise cells; the in-browser runner's Check
button calls :func:`check` with the page's namespace (book_runtime.features.track.runtime)
and shows the one :class:`Result`.  A part of the book's runtime, it uses the
standard library and ``micrograd`` only, so that it runs in the reader's
browser (Pyodide) as well as in CPython.

>>> from book_runtime.features.track.checks import EXERCISES, check
>>> list(EXERCISES)
['value', 'rules', 'backward', 'nn', 'training', 'finale']
>>> check("value", {}).to_json()["status"]
'not-done'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import step_backward
from . import step_finale
from . import step_nn
from . import step_rules
from . import step_training
from . import step_value
from .core import Exercise
from .core import Result
from .core import run_check

__all__ = [
    "EXERCISES",
    "Exercise",
    "Result",
    "check",
]

#: The track's steps, in order, by id.
EXERCISES: dict[str, Exercise] = {
    step.id: step
    for step in (
        step_value.EXERCISE,
        step_rules.EXERCISE,
        step_backward.EXERCISE,
        step_nn.EXERCISE,
        step_training.EXERCISE,
        step_finale.EXERCISE,
    )
}


def check(
    exercise_id: str, namespace: Mapping[str, Any], cells: Mapping[str, str] | None = None
) -> Result:
    """Check the reader's code for one step of the track.

    Parameters
    ----------
    exercise_id : str
        A key of :data:`EXERCISES` (``"value"``, ``"rules"``...).
    namespace : mapping
        The page's namespace after the reader's cells ran.
    cells : mapping, optional
        The file name of each exercise cell of the page (``"<cell 5>"``) and
        its step's id: a failure then says which step's code it comes from,
        found from the failing method's own code, not from the step checked.

    Returns
    -------
    Result
        ``passed`` when each of the reader's methods alone, the visible
        example and every hidden case give micrograd's numbers; else the
        first failure (``failed``, naming the method and, where it is a
        known one, the mistake), ``raised`` (the reader's code raised; its
        traceback, the checker's frames left out), ``not-done`` (a part is
        still the starter's) or ``not-yours`` (a class is micrograd's own,
        imported or derived from).  Nothing the reader wrote makes it raise.

    Raises
    ------
    KeyError
        If ``exercise_id`` is not a step of the track.
    TypeError
        If ``namespace`` or ``cells`` is not a mapping.
    """
    if exercise_id not in EXERCISES:
        raise KeyError(f"no exercise {exercise_id!r}; the track's are {list(EXERCISES)}")
    if not isinstance(namespace, Mapping):
        raise TypeError(
            f"check needs the page's namespace (a mapping), got {type(namespace).__name__}"
        )
    if cells is not None and not isinstance(cells, Mapping):
        raise TypeError(f"check's cells map file names to steps, got {type(cells).__name__}")
    exercise = EXERCISES[exercise_id]
    builds_on = [EXERCISES[e] for e in exercise.builds_on]
    return run_check(exercise, namespace, builds_on, cells, EXERCISES)
