"""The exercises' checks in the worker: an add-on of the in-browser kernel (kernel.py).

"Build your own micrograd" asks the reader to write their own ``Value`` (and
later ``Neuron``, ``Layer``, ``MLP``, a training loop) in the page's cells.
:func:`check` runs the book's checks of one exercise (:mod:`book_runtime.features.track.checks`,
in the same wheel as this module) against the page's
namespace, as the reader's cells left it, and gives the result as JSON for
the page (track.js).  The checks never raise for what the reader wrote:
a mistake, an exception in the reader's code, an untouched starter, all are
results.
"""

from __future__ import annotations

import json

from book_runtime import kernel


def check(exercise_id: str, cells: str = "{}") -> str:
    """The result of checking exercise ``exercise_id`` against the page's namespace, as JSON.

    ``cells`` maps each exercise cell's file name (``<cell 5>``) to its step's
    id, as JSON: a failure then says which step's code it comes from.
    """
    # At the first Check: the kernel of a page without exercises never imports the checks.
    from .checks import check as check_exercise

    steps = json.loads(cells)
    return json.dumps(check_exercise(exercise_id, kernel.NAMESPACE, steps).to_json())


def answer(question: str, fields: str) -> str:
    """The page's question to the exercises (the runner's registry: ``check``), as JSON.

    ``fields`` is ``{"exercise": id, "cells": {file name: step}}`` as JSON (:func:`check`).

    Raises
    ------
    ValueError
        If the question is not one the exercises answer.
    """
    if question != "check":
        raise ValueError(f"the exercises answer no question {question!r}")
    given = json.loads(fields)
    return check(given["exercise"], json.dumps(given.get("cells") or {}))
