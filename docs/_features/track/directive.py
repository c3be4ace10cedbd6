"""Sphinx extension: a page's exercises, from the book's checks, for the reader and the runner.

"Build your own micrograd" asks the reader to write their own micrograd in the
page's exercise cells (code cells tagged ``exercise-<id>``).  The checks, the
hints, the examples and the solutions are the book's own, ``book_runtime.features.track.checks``
(docs/_features/track/checks; the reader's browser gets it in the runtime's
wheel, runtime_wheels.py), and each step's code is a file of it: an exercise cell
loads its starter (``:load: _features/track/checks/steps/<id>/starter.py``,
which the build replaces by the file's code: :func:`load_starters`), and
the directive ``{exercise-example} <id>`` writes the step's example and what
it prints.  So that a hint or a solution needs no Python in the browser, every
page with exercise cells gets, in its ``<head>``::

    <script type="application/json" id="micrograd-track">{"exercises": [...]}</script>

one entry per exercise cell of the page, in page order: ``id``, ``number``
(the step's place in the track, from 1), ``title``, ``hints`` (each as
``html``, its inline Markdown rendered, and ``text``, in plain words for the
live region: :func:`hint_json`) and ``solution``
(track.js beside this file shows them).  An exercise cell
whose code is not the package's starter for its step (one written into the
page, not loaded from the package) fails the build: the page and the checks
would disagree about where the reader starts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from book_runtime.inline_markup import inline_html, inline_text
from docutils import nodes
from executed_notebooks import on_notebook_pages
from executed_notebooks.text import joined
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective

#: Where the book's checks live in the pages' folder (Sphinx's source folder, which a
#: ``:load:`` path starts from): the track's own, beside this file.  Found
#: from the pages, never from this file, which Read the Docs installs elsewhere.
CHECKS = Path("_features") / "track" / "checks"
#: The tag of an exercise cell, before the exercise's id.
TAG = "exercise-"
#: A code cell's ``:load:`` option naming a file of the checks (the page's folder is docs/).
LOAD = re.compile(r"^:load: (?P<path>_features/track/checks/\S+\.py)\n", flags=re.MULTILINE)


def _exercises() -> dict[str, Any]:
    from book_runtime.features.track.checks import EXERCISES

    return dict(EXERCISES)


def exercise_ids(notebook: dict[str, Any]) -> list[tuple[str, str]]:
    """``(id, code)`` of each exercise cell of an executed notebook, in page order."""
    return [
        (tag.removeprefix(TAG), joined(cell.get("source", "")))
        for cell in notebook.get("cells", [])
        for tag in cell.get("metadata", {}).get("tags", [])
        if tag.startswith(TAG)
    ]


def track_data(notebook: dict[str, Any], pagename: str) -> dict[str, Any] | None:
    """What the page's runner needs of its exercises (None: the page has none).

    Raises
    ------
    ExtensionError
        If an exercise cell names no exercise of the package, or does not hold its starter.
    """
    cells = exercise_ids(notebook)
    if not cells:
        return None
    known = _exercises()
    order = list(known)
    entries = []
    for exercise_id, code in cells:
        if exercise_id not in known:
            raise ExtensionError(
                f"{pagename}: no exercise {exercise_id!r} in book_runtime.features.track.checks"
            )
        exercise = known[exercise_id]
        if code.rstrip("\n") != exercise.starter.rstrip("\n"):
            raise ExtensionError(
                f"{pagename}: the exercise cell of {exercise_id!r} is not the starter of "
                "book_runtime.features.track.checks: the page and the checks must start the "
                "reader in the same place"
            )
        entries.append(
            {
                "id": exercise_id,
                "number": order.index(exercise_id) + 1,
                "title": exercise.title,
                "hints": [hint_json(hint) for hint in exercise.hints],
                "solution": exercise.solution,
            }
        )
    return {"exercises": entries}


def hint_json(hint: str) -> dict[str, str]:
    """A hint for the runner: HTML to show, plain text to say (the hint's inline Markdown).

    One rule renders the hints here and the checks' messages in the worker
    (:mod:`book_runtime.inline_markup`): the page inserts the HTML as it is.
    """
    return {"html": inline_html(hint), "text": inline_text(hint)}


def script_body(data: dict[str, Any]) -> str:
    """``data`` as the text of a ``<script>`` element: JSON that cannot end the element."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")


def _add_track(
    app: Any, pagename: str, notebook: dict[str, Any], context: dict[str, Any], doctree: Any
) -> None:
    data = track_data(notebook, pagename)
    if data is None:
        return
    app.add_js_file(None, type="application/json", id="micrograd-track", body=script_body(data))


class ExerciseExample(SphinxDirective):
    """``{exercise-example} <id>``: the step's visible example, and then what it prints."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        exercise_id = self.arguments[0]
        known = _exercises()
        if exercise_id not in known:
            raise self.error(f"no exercise {exercise_id!r} in book_runtime.features.track.checks")
        exercise = known[exercise_id]
        # The page shows this step's files (its cell loads the starter): a change to one
        # of them rebuilds the page.
        steps = Path(self.env.srcdir) / CHECKS / "steps" / exercise_id
        for name in ("example.py", "starter.py", "solution.py"):
            self.env.note_dependency(str(steps / name))
        code = _block(exercise.example.code, "python")
        self.set_source_info(code)
        return [code, nodes.paragraph("", "prints"), _block(exercise.prints, "text")]


def load_starters(source: str, docs: Path, note_dependency: Any) -> str:
    """A page's source with each ``:load:`` of a checks file replaced by that file's code.

    myst-nb's own ``:load:`` keeps the file's last newline in the cell's code, which
    the page's code block does not show: the runner, which compares the two, would
    take every untouched exercise cell for one the reader edited, and Copy would
    copy another text than the notebook's.  A cell holds the file's code as a cell
    holds code, without a final newline.  ``docs``: the pages' folder;
    ``note_dependency(path)`` hears each file.
    """

    def code(match: re.Match[str]) -> str:
        path = docs / match["path"]
        note_dependency(str(path))
        return path.read_text(encoding="utf-8").rstrip("\n") + "\n"

    return LOAD.sub(code, source)


def _load_starters(app: Any, docname: str, source: list[str]) -> None:
    source[0] = load_starters(source[0], Path(app.srcdir), app.env.note_dependency)


def _block(text: str, language: str) -> nodes.literal_block:
    """A block of code as ``{code-block}`` makes it.

    Sphinx highlights a literal block only when its source is its text.
    """
    text = text.rstrip("\n")
    return nodes.literal_block(text, text, language=language)


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("exercise-example", ExerciseExample)
    app.connect("source-read", _load_starters)
    on_notebook_pages(app, _add_track)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
