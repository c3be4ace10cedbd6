"""A ``dot`` command that runs ``graphviz-pure``, for tools that call Graphviz's ``dot`` by name.

The docs build (myst-nb running the pages, the ``graphviz`` package's
``pipe``) and some tests run a program called ``dot``.  Where Graphviz is not
installed, :func:`write_dot_shim` writes a ``dot`` script that runs
``graphviz-pure``, the dot-compatible port on PyPI; put its folder on
``PATH``.  Build and test tooling, not part of the package: ``noxfile.py``
loads this file with :func:`runpy.run_path` before micrograd is installed,
so it uses the standard library only.
"""

from __future__ import annotations

import shutil
import stat
import sys
from pathlib import Path

__all__ = ["graphviz_pure", "write_dot_shim"]


def graphviz_pure(bin_dir: str | Path | None = None) -> str | None:
    """The ``graphviz-pure`` program: in ``bin_dir`` (default: beside this Python), else on PATH."""
    folder = Path(sys.executable).parent if bin_dir is None else Path(bin_dir)
    beside = folder / "graphviz-pure"
    if beside.is_file():
        return str(beside)
    return shutil.which("graphviz-pure")


def write_dot_shim(directory: str | Path, bin_dir: str | Path | None = None) -> Path:
    """Write an executable ``dot`` script into ``directory`` that runs ``graphviz-pure``.

    Parameters
    ----------
    directory : str or path-like
        Where the script goes (put it on ``PATH`` to use it).
    bin_dir : str or path-like, optional
        Where to look for ``graphviz-pure`` first (see :func:`graphviz_pure`).

    Returns
    -------
    pathlib.Path
        The script.

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
