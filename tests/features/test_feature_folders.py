"""What every feature folder (docs/_features/<name>/) keeps to, wherever it is installed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from book_runtime import features

FEATURES = Path(__file__).resolve().parents[2] / "docs" / "_features"
#: The core files that read the registry (book_runtime.features) instead of naming a feature.
CORE = (
    FEATURES.parent / "_runtime" / "book_runtime" / "kernel.py",
    FEATURES.parent / "_ext" / "browser_runner.py",
)


def test_no_feature_finds_the_books_files_from_where_its_own_file_is() -> None:
    """Read the Docs installs the features into site-packages, not editable: a path built
    from ``__file__`` would point there, not into the pages' folder (Sphinx's srcdir)."""
    found = [
        f"{path.relative_to(FEATURES)}:{number}: {line.strip()}"
        for path in sorted(FEATURES.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\b__file__\b", line)
    ]
    assert not found, "\n".join(found)


def _code_words(source: str) -> list[tuple[int, str]]:
    """Each name and string of a module's code, with its line: docstrings and comments left out."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    words = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                words.append((node.lineno, node.value))
        elif isinstance(node, ast.Name):
            words.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            words.append((node.lineno, node.attr))
        elif isinstance(node, ast.alias):
            words.append((node.lineno, node.name))
    return words


def _naming_a_feature(source: str, names: tuple[str, ...]) -> list[str]:
    feature = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    return [f"line {line}: {word!r}" for line, word in _code_words(source) if feature.search(word)]


def test_no_core_file_names_a_feature_in_its_code() -> None:
    """The kernel and the build's runner extension ask the registry; adding a feature touches
    its folder and the registry's one list, and none of these."""
    names = tuple(feature.name for feature in features.registry())
    assert names == features.names()
    found = [
        f"{path.name}: {said}"
        for path in CORE
        for said in _naming_a_feature(path.read_text(encoding="utf-8"), names)
    ]
    assert not found, "\n".join(found)


def test_a_core_file_that_names_a_feature_is_caught() -> None:
    code = 'ADDONS = ("book_runtime.features.track.runtime",)\nif "nudge.js" in loaded: pass\n'
    assert len(_naming_a_feature(code, ("track", "nudge"))) == 2
    docstring = '"""The track\'s page loads track.js."""\nTRACKS = 1  # a comment: track\n'
    assert _naming_a_feature(docstring, ("track",)) == []


def test_every_feature_folder_declares_what_the_core_needs() -> None:
    folders = sorted(p.name for p in FEATURES.iterdir() if (p / "__init__.py").is_file())
    assert folders == list(features.names())
    for feature in features.registry():
        runtime, page_module = FEATURES / feature.name / "runtime.py", feature.page_module
        assert runtime.is_file() or not feature.kernel_addon, feature
        assert (FEATURES / feature.name / page_module).is_file() or not feature.with_its_page


def test_the_features_sphinx_extensions_are_their_folders_modules() -> None:
    """docs/conf.py takes each feature's extensions from its declaration, so a new
    feature's directive needs no line there."""
    for name in features.sphinx_extensions():
        feature, module = name.removeprefix("book_runtime.features.").split(".")
        assert (FEATURES / feature / f"{module}.py").is_file(), name
    conf = (FEATURES.parent / "conf.py").read_text(encoding="utf-8")
    assert "*features.sphinx_extensions()" in conf
    assert "book_runtime.features." not in conf
