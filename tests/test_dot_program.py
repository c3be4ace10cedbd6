"""Tests for micrograd.dot_program: the one place that finds a ``dot`` (or graphviz-pure)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from micrograd.dot_program import find_dot, graphviz_pure, write_dot_shim


def test_without_graphviz_find_dot_gives_graphviz_pure_next_to_python(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    program = find_dot()
    assert program == str(Path(sys.executable).parent / "graphviz-pure")
    assert graphviz_pure(Path(sys.executable).parent) == program


def test_the_shim_is_a_dot_that_lays_out_a_graph(tmp_path: Path) -> None:
    shim = write_dot_shim(tmp_path)
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
        write_dot_shim(tmp_path, bin_dir=tmp_path)
    assert not (tmp_path / "dot").exists()
