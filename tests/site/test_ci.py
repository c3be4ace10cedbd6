"""The GitHub Actions workflow runs what .ci/run runs, so CI where contributors look is the same."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
TEST_PYTHONS = ["3.10", "3.11", "3.12", "3.13"]


def _sessions(commands: list[str]) -> set[str]:
    """The nox sessions these shell lines run (``${{ matrix.python }}`` read as ``{python}``)."""
    found = set()
    for command in commands:
        line = command.replace("${{ matrix.python }}", "{python}")
        match = re.search(r"python -m nox -s (.*)$", line.strip())
        # The names up to the first other word ("--", a redirection, "||"); a shell
        # variable standing for a name is none.
        for word in match[1].split() if match else ():
            if not re.fullmatch(r"[\w{][\w.{}-]*", word):
                break
            found.add(word)
        # .ci/run's sessions that run beside others, each its own `python -m nox -s NAME`.
        match = re.fullmatch(r"in_background ([\w.-]+)( -- .*)?", line.strip())
        if match:
            found.add(match[1])
    return found


def test_the_workflow_runs_every_session_of_ci_run_on_every_push_and_pull_request() -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text("utf-8"))
    assert set(workflow[True]) == {"push", "pull_request"}  # YAML 1.1 reads `on` as True
    runs = [
        step["run"] for job in workflow["jobs"].values() for step in job["steps"] if "run" in step
    ]
    ours = _sessions(runs)
    matrix = workflow["jobs"]["tests"]["strategy"]["matrix"]["python"]
    assert matrix == TEST_PYTHONS
    assert "tests-{python}" in ours
    ci_run = _sessions((ROOT / ".ci" / "run").read_text("utf-8").splitlines())
    assert ours - {"tests-{python}"} == ci_run - {"tests"}
    assert "tests" in ci_run
