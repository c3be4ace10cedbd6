"""Finding a program that lays out Graphviz graphs: Graphviz's ``dot``, else ``graphviz-pure``.

Drawings become pictures by a program called ``dot``.  Where Graphviz is not
installed, the dot-compatible ``graphviz-pure`` from PyPI (in the
``examples`` extra) serves instead: pip and uv put its program next to the
Python that installed it.  This module is the one place that looks for
either.  :func:`micrograd.svg.render_svg` runs :func:`find_dot`; the tests
and ``noxfile.py`` put :func:`write_dot_shim`'s script on ``PATH`` for tools
that call ``dot`` by name (the ``graphviz`` package's ``pipe``, the docs
build).  It imports only the standard library, so ``noxfile.py`` can load it
from its file without installing the package.
"""

from __future__ import annotations

import shutil
import stat
import sys
from pathlib import Path

__all__ = ["find_dot", "graphviz_pure", "write_dot_shim"]


def graphviz_pure(bin_dir: str | Path | None = None) -> str | None:
    """The ``graphviz-pure`` program: in ``bin_dir`` (default: beside this Python), else on PATH."""
    folder = Path(sys.executable).parent if bin_dir is None else Path(bin_dir)
    beside = folder / "graphviz-pure"
    if beside.is_file():
        return str(beside)
    return shutil.which("graphviz-pure")


def find_dot() -> str | None:
    """Graphviz's ``dot`` on PATH, else :func:`graphviz_pure`, else None."""
    return shutil.which("dot") or graphviz_pure()


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
