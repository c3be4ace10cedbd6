"""The package as published: its metadata, the wheel's files, and its boundary.

One version, published extras a user needs, pinned linters; a wheel of the
package's modules and nothing else; and a core (the modules directly in
``micrograd/``) that imports only the standard library and itself, beside
the views of ``micrograd.viz``, none of which knows anything of the book
that is built with it (its MIME types, the reader's browser).

pyproject.toml is read with ``tomllib`` (``tomli``, a dependency of pytest,
on Python 3.10).
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import importlib.util
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from scripts import run_python

import micrograd

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PACKAGE = ROOT / "src" / "micrograd"
#: The core: every module directly in the package (the views are in micrograd/viz/).
CORE = sorted(PACKAGE.glob("*.py"))
#: What only the book knows: where its pages run and how it labels what they display.
BOOK_WORDS = re.compile(r"emscripten|pyodide|sys\.platform|vnd\.micrograd|micrograd_chart", re.I)


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


# -- the wheel ----------------------------------------------------------------------------------


@functools.cache
def wheel_files(folder: Path) -> dict[str, bytes]:
    """The files of the wheel that the project's build backend makes of a copy of the project."""
    project = folder / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, project / name)
    ignored = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(ROOT / "src", project / "src", ignore=ignored)
    dist = folder / "dist"
    build = (
        "import sys; from setuptools import build_meta; print(build_meta.build_wheel(sys.argv[1]))"
    )
    name = run_python("-c", build, str(dist), cwd=project).stdout.strip().splitlines()[-1]
    with zipfile.ZipFile(dist / name) as wheel:
        return {info.filename: wheel.read(info) for info in wheel.infolist()}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    return wheel_files(tmp_path_factory.mktemp("wheel"))


def test_the_wheel_holds_the_package_modules_and_data_and_nothing_else(
    wheel: dict[str, bytes],
) -> None:
    package = {name for name in wheel if not name.startswith("micrograd_book-")}
    expected = {
        f"micrograd/{path.relative_to(PACKAGE).as_posix()}"
        for path in PACKAGE.rglob("*")
        if path.suffix == ".py" or path.name == "py.typed"
    } | {"micrograd/data/names.txt", "micrograd/data/NOTICE"}
    assert package == expected
    assert wheel["micrograd/data/names.txt"] == (PACKAGE / "data" / "names.txt").read_bytes()
    assert {"micrograd/viz/__init__.py", "micrograd/viz/chart.py", "micrograd/py.typed"} <= package
    assert not [name for name in wheel if "dot_shim" in name or "dot_program" in name]
    assert not [name for name in wheel if name.startswith(("tools/", "tests/", "docs/"))]


def test_no_module_of_the_wheel_knows_the_book(wheel: dict[str, bytes]) -> None:
    for name, data in wheel.items():
        if name.endswith(".py"):
            assert not BOOK_WORDS.search(data.decode("utf-8")), name


# -- the boundary -------------------------------------------------------------------------------


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (``from a import b``: ``a`` and ``a.b``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: a relative import"
            module = node.module or ""
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


@pytest.mark.parametrize("path", CORE, ids=lambda path: path.name)
def test_a_core_module_imports_only_the_standard_library_and_the_core(path: Path) -> None:
    imported = imported_modules(path)
    outside = {
        name
        for name in imported
        if name.split(".")[0] not in {*sys.stdlib_module_names, "micrograd", "__future__"}
    }
    assert not outside, f"{path.name} imports {sorted(outside)}"
    views = sorted(n for n in imported if n == "micrograd.viz" or n.startswith("micrograd.viz."))
    assert not views, f"{path.name} imports {views}"


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda path: path.relative_to(PACKAGE).as_posix()
)
def test_no_module_knows_the_book_that_is_built_with_it(path: Path) -> None:
    found = BOOK_WORDS.findall(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)} mentions {sorted(set(found))}"


def test_importing_the_package_and_its_views_imports_no_optional_package() -> None:
    code = (
        "import sys, micrograd, micrograd.collector, micrograd.datasets, micrograd.engine, "
        "micrograd.nn, micrograd.training_log\n"
        "core = sorted(m for m in sys.modules if m.startswith('micrograd.viz'))\n"
        "import micrograd.viz\n"
        "optional = ('graphviz', 'matplotlib', 'numpy', 'sklearn', 'IPython')\n"
        "print(core, sorted(m for m in optional if m in sys.modules))\n"
    )
    assert run_python("-c", code).stdout.strip() == "[] []"
