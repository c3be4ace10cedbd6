"""The hidden checks of "Build your own micrograd": the reader's code against micrograd's numbers.

The page's reader writes their own ``Value`` (and then ``Neuron``, ``Layer``,
``MLP`` and ``train``) in the exercise cells; the in-browser runner's Check
button calls :func:`check` with the page's namespace (book_runtime.exercises)
and shows the one :class:`Result`.  A part of the book's runtime, it uses the
standard library and ``micrograd`` only, so that it runs in the reader's
browser (Pyodide) as well as in CPython.

>>> from book_runtime.checks import EXERCISES, check
>>> list(EXERCISES)
['value', 'rules', 'backward', 'nn', 'training', 'finale']
>>> check("value", {}).to_json()["status"]
'not-done'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from book_runtime.checks import step_backward
from book_runtime.checks import step_finale
from book_runtime.checks import step_nn
from book_runtime.checks import step_rules
from book_runtime.checks import step_training
from book_runtime.checks import step_value
from book_runtime.checks.core import Case
from book_runtime.checks.core import Example
from book_runtime.checks.core import Exercise
from book_runtime.checks.core import Finding
from book_runtime.checks.core import Mistake
from book_runtime.checks.core import Result
from book_runtime.checks.core import run_check

__all__ = ["EXERCISES", "Case", "Example", "Exercise", "Finding", "Mistake", "Result", "check"]

#: The track's steps, in order, by id.
EXERCISES: dict[str, Exercise] = {
    step.id: step
    for step in (
        step_value.exercise(),
        step_rules.exercise(),
        step_backward.exercise(),
        step_nn.exercise(),
        step_training.exercise(),
        step_finale.exercise(),
    )
}


def check(exercise_id: str, namespace: Mapping[str, Any]) -> Result:
    """Check the reader's code for one step of the track.

    Parameters
    ----------
    exercise_id : str
        A key of :data:`EXERCISES` (``"value"``, ``"rules"``...).
    namespace : mapping
        The page's namespace after the reader's cells ran.

    Returns
    -------
    Result
        ``passed`` when the visible example and every hidden case give
        micrograd's numbers; else the first failure (``failed``, naming the
        mistake where it is a known one), ``raised`` (the reader's code
        raised; its traceback, the checker's frames left out) or
        ``not-done`` (a part is still the starter's).  Nothing the reader
        wrote makes it raise.

    Raises
    ------
    KeyError
        If ``exercise_id`` is not a step of the track.
    TypeError
        If ``namespace`` is not a mapping.
    """
    if exercise_id not in EXERCISES:
        raise KeyError(f"no exercise {exercise_id!r}; the track's are {list(EXERCISES)}")
    if not isinstance(namespace, Mapping):
        raise TypeError(
            f"check needs the page's namespace (a mapping), got {type(namespace).__name__}"
        )
    exercise = EXERCISES[exercise_id]
    return run_check(exercise, namespace, [EXERCISES[e] for e in exercise.builds_on])
