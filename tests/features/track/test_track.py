"""What a page with exercises tells its runner (docs/_features/track/directive.py).

The exercises themselves, their checks, hints and solutions, are a part of the
track's runtime, ``book_runtime.features.track.checks`` (tests/checks/test_exercises.py); here,
a small stand-in of it shows what the build takes from it and when it refuses a page.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from book_runtime.features.track import directive as track
from sphinx.errors import ExtensionError


@dataclass(frozen=True)
class Exercise:
    title: str
    starter: str
    hints: tuple[str, ...]
    solution: str


EXERCISES = {
    "value": Exercise("A Value", "class Value:\n    pass\n", ("keep `data`",), "class Value: ..."),
    "rules": Exercise("The rules", "def rule():\n    pass\n", ("one", "two"), "def rule(): ..."),
}


@pytest.fixture(autouse=True)
def _stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(track, "_exercises", lambda: dict(EXERCISES))


def cell(source: str, *tags: str) -> dict:
    return {"cell_type": "code", "source": source, "metadata": {"tags": list(tags)}}


def test_a_page_without_exercise_cells_gets_no_track() -> None:
    notebook = {"cells": [cell("x = 1"), cell("y = 2", "hide-input")]}
    assert track.track_data(notebook, "value") is None


def test_each_exercise_cell_gets_its_title_rendered_hints_solution_and_place_in_the_track() -> None:
    notebook = {
        "cells": [
            cell("print('setup')", "hide-input"),
            # a cell's source may come as a list of lines, as Jupyter writes it
            cell(["def rule():\n", "    pass\n"], "exercise", "exercise-rules"),
            cell("class Value:\n    pass", "exercise", "exercise-value"),
        ]
    }
    data = track.track_data(notebook, "build-your-own")
    assert data == {
        "exercises": [
            {
                "id": "rules",
                "number": 2,
                "title": "The rules",
                "hints": [{"html": "one", "text": "one"}, {"html": "two", "text": "two"}],
                "solution": "def rule(): ...",
            },
            {
                "id": "value",
                "number": 1,
                "title": "A Value",
                "hints": [{"html": "keep <code>data</code>", "text": "keep data"}],
                "solution": "class Value: ...",
            },
        ]
    }


def test_an_exercise_cell_naming_no_exercise_fails_the_build_with_its_name() -> None:
    notebook = {"cells": [cell("pass", "exercise-valeu")]}
    with pytest.raises(ExtensionError, match=r"build-your-own: no exercise 'valeu'"):
        track.track_data(notebook, "build-your-own")


def test_an_exercise_cell_that_is_not_the_packages_starter_fails_the_build() -> None:
    notebook = {"cells": [cell("class Value:\n    data = 1\n", "exercise-value")]}
    with pytest.raises(ExtensionError, match=r"exercise cell of 'value' is not the starter"):
        track.track_data(notebook, "build-your-own")


def test_the_script_body_is_json_that_cannot_close_its_script_element() -> None:
    data = {"exercises": [{"solution": "s = '</script><script>alert(1)</script>'"}]}
    body = track.script_body(data)
    assert "</" not in body
    assert json.loads(body) == data


def test_an_exercise_cell_holds_its_starter_file_without_the_files_last_newline() -> None:
    heard: list[str] = []
    docs = Path(__file__).resolve().parents[3] / "docs"
    file = docs / track.CHECKS / "steps" / "value" / "starter.py"
    cell = "```{code-cell} ipython3\n:tags: [exercise-value]\n:load: %s\n```\n"
    path = "_features/track/checks/steps/value/starter.py"
    loaded = track.load_starters(cell % path, docs, heard.append)
    starter = file.read_text(encoding="utf-8")
    assert starter.endswith("\n")
    assert loaded == cell.replace(":load: %s\n", starter.rstrip("\n") + "\n")
    assert heard == [str(file)]


def test_the_workers_question_check_is_the_check_of_its_fields(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The runner's worker asks each feature's runtime answer(question, fields as JSON).
    from book_runtime import kernel
    from book_runtime.features.track import runtime

    monkeypatch.setattr(kernel, "NAMESPACE", {})
    cells = {"<cell 1>": "value"}
    asked = runtime.answer("check", json.dumps({"exercise": "value", "cells": cells}))
    assert asked == runtime.check("value", json.dumps(cells))
    assert runtime.answer("check", json.dumps({"exercise": "value"})) == runtime.check("value")
    with pytest.raises(ValueError, match="no question 'hint'"):
        runtime.answer("hint", "{}")
