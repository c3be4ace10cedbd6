"""The package's metadata: one version, published extras a user needs, pinned linters.

pyproject.toml is read with ``tomllib`` (``tomli``, a dependency of pytest,
on Python 3.10).
"""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import micrograd

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_version_is_the_installed_distributions_version() -> None:
    assert micrograd.__version__ == importlib.metadata.version("micrograd-book")


def test_installed_version_is_the_one_pyproject_declares() -> None:
    # An editable install keeps the metadata of when it was made: nox installs again
    # when pyproject.toml changes, so the two agree.
    assert importlib.metadata.version("micrograd-book") == PYPROJECT["project"]["version"]


def test_version_without_installed_metadata_says_it_is_unknown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    # The package's __init__ run again as the package ``micrograd``, into a second module
    # object (sys.modules is left alone).  Under that name coverage measures it: coverage
    # knows the package's files by the name of the module that runs them.
    spec = importlib.util.spec_from_file_location("micrograd", micrograd.__file__)
    assert spec is not None
    assert spec.loader is not None
    fresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fresh)
    assert fresh.__version__ == "0+unknown"


def test_importing_micrograd_leaves_the_metadata_machinery_unloaded() -> None:
    # importlib.metadata costs more to import than the engine (in the reader's
    # browser too, where the first cell imports micrograd); the version reads it.
    code = "import sys, micrograd; print('importlib.metadata' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_published_extras_are_what_a_user_of_the_package_needs() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert set(extras) == {"draw", "plot", "datasets", "all", "examples"}
    tools = {"torch", "pytest", "sphinx", "ruff", "mypy", "playwright", "hypothesis"}
    for name, requirements in extras.items():
        names = {re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0].lower() for r in requirements}
        assert not names & tools, f"extra {name!r} publishes a tool set: {names & tools}"


def test_tool_sets_are_dependency_groups() -> None:
    assert {"test", "docs", "lint", "browser", "torch"} <= set(PYPROJECT["dependency-groups"])


def test_linters_are_pinned_exactly() -> None:
    lint = PYPROJECT["dependency-groups"]["lint"]
    assert {r.split("==")[0] for r in lint} == {"ruff", "mypy"}
    assert all(re.fullmatch(r"[a-z]+==\d+(\.\d+)+", r) for r in lint), lint


def test_nox_tests_every_python_the_classifiers_name() -> None:
    classifiers = PYPROJECT["project"]["classifiers"]
    promised = [c.rsplit(" :: ", 1)[1] for c in classifiers if re.fullmatch(r".*:: 3\.\d+", c)]
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    tested = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        and ast.unparse(node.targets[0] if isinstance(node, ast.Assign) else node.target)
        == "TEST_PYTHONS"
    )
    assert tested == promised
    assert PYPROJECT["project"]["requires-python"] == f">={promised[0]}"
