"""A ``dot`` program on ``PATH`` for the tests of the library's drawing, on any machine.

The ``graphviz`` Python package renders by running a program called ``dot``,
and so does :func:`micrograd.viz.svg.render_svg` where it finds one.  Where
Graphviz is not installed, :func:`dot_on_path` puts a ``dot`` script for
``graphviz-pure`` (the library's own fallback, :func:`micrograd.viz.svg.find_dot`)
on ``PATH`` for as long as the ``with`` block lasts.  (The book's build lays its
graphs out with a program of its own: ``docs/_ext/layout_program.py``.)
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def graphviz_pure(bin_dir: str | Path | None = None) -> str | None:
    """The ``graphviz-pure`` program: in ``bin_dir`` (default: beside this Python), else on PATH."""
    folder = Path(sys.executable).parent if bin_dir is None else Path(bin_dir)
    beside = folder / "graphviz-pure"
    if beside.is_file():
        return str(beside)
    return shutil.which("graphviz-pure")


def write_dot_shim(directory: str | Path, bin_dir: str | Path | None = None) -> Path:
    """Write an executable ``dot`` script into ``directory`` that runs ``graphviz-pure``.

    Raises
    ------
    RuntimeError
        If ``graphviz-pure`` is not installed.
    """
    program = graphviz_pure(bin_dir)
    if program is None:
        raise RuntimeError(
            "neither Graphviz's `dot` nor `graphviz-pure` is installed: pip install graphviz-pure"
        )
    shim = Path(directory) / "dot"
    shim.write_text(f'#!/bin/sh\nexec "{program}" "$@"\n', encoding="utf-8")
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return shim


@contextmanager
def dot_on_path(directory: Path) -> Iterator[str]:
    """Inside the block, ``dot`` runs Graphviz (if installed) or graphviz-pure.

    Yields the path of the ``dot`` program that will be used.  ``PATH`` is
    restored on exit.
    """
    real = shutil.which("dot")
    if real is not None:
        yield real
        return
    shim = write_dot_shim(directory)
    old = os.environ.get("PATH", "")
    os.environ["PATH"] = str(shim.parent) + os.pathsep + old
    try:
        yield str(shim)
    finally:
        os.environ["PATH"] = old
