"""Tests for tools/dot_shim.py: a ``dot`` command that runs graphviz-pure, for builds and tests."""

from __future__ import annotations

import ast
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from scripts import ROOT, import_tool

dot_shim = import_tool("dot_shim")
TOOL = ROOT / "tools" / "dot_shim.py"


def test_graphviz_pure_is_found_in_the_given_folder_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    beside_python = str(Path(sys.executable).parent / "graphviz-pure")
    assert dot_shim.graphviz_pure() == beside_python
    assert dot_shim.graphviz_pure(Path(sys.executable).parent) == beside_python
    assert dot_shim.graphviz_pure(tmp_path) is None  # not there, and not on PATH


def test_the_shim_is_a_dot_that_lays_out_a_graph(tmp_path: Path) -> None:
    shim = dot_shim.write_dot_shim(tmp_path)
    assert shim == tmp_path / "dot"
    svg = subprocess.run(
        [str(shim), "-Tsvg"], input=b"digraph { a -> b }", capture_output=True, check=True
    ).stdout
    assert b"<svg" in svg


def test_without_graphviz_pure_the_shim_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(RuntimeError, match="pip install graphviz-pure"):
        dot_shim.write_dot_shim(tmp_path, bin_dir=tmp_path)
    assert not (tmp_path / "dot").exists()


def test_the_tool_imports_only_the_standard_library() -> None:
    # noxfile.py runs it from its file before anything is installed.
    tree = ast.parse(TOOL.read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    tops = {name.split(".")[0] for name in imported}
    assert tops - {"__future__"} <= set(sys.stdlib_module_names), tops


def test_the_tool_runs_from_its_file_as_noxfile_loads_it(tmp_path: Path) -> None:
    tool = runpy.run_path(str(TOOL))
    assert tool["write_dot_shim"](tmp_path).name == "dot"
