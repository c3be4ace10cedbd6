"""Tests for tests/_dot.py: a ``dot`` command that runs graphviz-pure, for the library's tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import _dot
import pytest


def test_graphviz_pure_is_found_in_the_given_folder_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    beside_python = str(Path(sys.executable).parent / "graphviz-pure")
    assert _dot.graphviz_pure() == beside_python
    assert _dot.graphviz_pure(Path(sys.executable).parent) == beside_python
    assert _dot.graphviz_pure(tmp_path) is None  # not there, and not on PATH


def test_the_shim_is_a_dot_that_lays_out_a_graph(tmp_path: Path) -> None:
    shim = _dot.write_dot_shim(tmp_path)
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
        _dot.write_dot_shim(tmp_path, bin_dir=tmp_path)
    assert not (tmp_path / "dot").exists()


def test_inside_the_block_dot_is_on_path_and_after_it_path_is_as_it_was(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with _dot.dot_on_path(tmp_path) as program:
        done = subprocess.run(["dot", "-Tsvg"], input=b"digraph {}", capture_output=True)
        assert done.returncode == 0
        assert program == str(tmp_path / "dot")
    assert os.environ["PATH"] == str(tmp_path / "empty")
