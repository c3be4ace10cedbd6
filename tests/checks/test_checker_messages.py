"""Every known mistake's and near miss's check result is kept, word for word.

``checker_messages.json`` holds, for each ``wrong/`` file of the track and
each near miss (``checks/fixtures/<step>/near/``), the result of its step's
check (status, method, step, mistake, its title, the message): what the
reader reads.  A change to how the checker finds
a mistake must leave what it says the same; a change meant to alter a message
rewrites the file, and its diff is the review:
``python tests/checks/test_checker_messages.py`` (in the tests' environment).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from book_runtime.features.track.checks import EXERCISES
from track_namespace import FIXTURES, IDS, check, page_namespace

# Recorded on the tests' full Python (noxfile.TORCH_PYTHON): a message names the reader's
# function by its qualified name, which Python 3.10 does not have (`build`, not
# `Value.backward.<locals>.build`), and the judgement is the same pure Python everywhere.
pytestmark = [pytest.mark.usefixtures("recursion_limit_kept"), pytest.mark.one_python]

GOLDEN = Path(__file__).with_name("checker_messages.json")


def programs() -> dict[str, tuple[str, str]]:
    """Each wrong program's key (``rules/wrong/overwrite``), its step and its cell's code."""
    found: dict[str, tuple[str, str]] = {}
    for exercise in EXERCISES.values():
        for mistake, code in exercise.known_wrong.items():
            found[f"{exercise.id}/wrong/{mistake.replace('-', '_')}"] = (exercise.id, code)
    for step in IDS:
        folder = FIXTURES / step / "near"
        if not folder.is_dir():
            continue
        for file in sorted(folder.iterdir(), key=lambda f: f.name):
            code = f"{EXERCISES[step].solution}\n\n{file.read_text(encoding='utf-8')}"
            found[f"{step}/near/{file.name.removesuffix('.py')}"] = (step, code)
    return found


def result_of(step: str, code: str) -> dict[str, Any]:
    """What the reader reads of the check of ``code`` in ``step``'s cell."""
    result = check(step, page_namespace(step, code))
    mistake = result.mistake
    return {
        "status": result.status,
        "part": result.part,
        "step": result.step,
        "mistake": None if mistake is None else mistake.id,
        "title": None if mistake is None else mistake.title,
        "message": result.message,
    }


PROGRAMS = programs()


def golden() -> dict[str, dict[str, Any]]:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_every_wrong_program_has_its_golden_result() -> None:
    assert set(golden()) <= set(PROGRAMS), "a golden result whose program is gone"
    assert set(PROGRAMS) <= set(golden()), "a wrong program without its golden result"


@pytest.mark.parametrize("key", sorted(PROGRAMS))
def test_a_wrong_programs_result_is_the_golden_one(key: str) -> None:
    want = golden().get(key)
    if want is None:
        pytest.fail(f"{key} has no golden result: run python tests/checks/test_checker_messages.py")
    assert result_of(*PROGRAMS[key]) == want


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parents[1]))  # the tests' shared helpers
    limit, results = sys.getrecursionlimit(), {}
    for key in sorted(PROGRAMS):
        results[key] = result_of(*PROGRAMS[key])
        sys.setrecursionlimit(limit)  # as the fixture does: one program's limit is not the next's
    GOLDEN.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(results)} results to {GOLDEN}")
