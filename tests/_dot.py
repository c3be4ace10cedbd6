"""Make Graphviz's ``dot`` command available to the tests on any machine.

The ``graphviz`` Python package renders by running a program called ``dot``.
A fresh machine may not have Graphviz installed; the ``graphviz-pure`` wheel
(in the ``test`` extra) provides a dot-compatible program under the name
``graphviz-pure``.  :func:`dot_on_path` puts a tiny ``dot`` script that runs
it on ``PATH`` for as long as the ``with`` block lasts, when there is no real
``dot``.  Reuse it from any test or build script::

    from _dot import dot_on_path  # with tests/ on sys.path

    with dot_on_path(some_temporary_directory):
        svg = draw_dot(root).pipe(format="svg")
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def find_graphviz_pure() -> str | None:
    """The path of the ``graphviz-pure`` program, next to this Python or on PATH."""
    beside = Path(sys.executable).parent / "graphviz-pure"
    if beside.is_file():
        return str(beside)
    return shutil.which("graphviz-pure")


def write_dot_shim(directory: Path) -> Path:
    """Write an executable ``dot`` script into ``directory`` that runs graphviz-pure."""
    program = find_graphviz_pure()
    if program is None:
        raise RuntimeError(
            "neither Graphviz's `dot` nor `graphviz-pure` is installed: "
            'pip install graphviz-pure (it is in the "test" dependency group)'
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
    shim = write_dot_shim(Path(directory))
    old = os.environ.get("PATH", "")
    os.environ["PATH"] = str(shim.parent) + os.pathsep + old
    try:
        yield str(shim)
    finally:
        os.environ["PATH"] = old
