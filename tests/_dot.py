"""A ``dot`` program on ``PATH`` for the tests that need one, on any machine.

The ``graphviz`` Python package renders by running a program called ``dot``.
Where Graphviz is not installed, :func:`dot_on_path` puts a ``dot`` script
for ``graphviz-pure`` (``tools/dot_shim.py``, the build's own tool, which
``noxfile.py`` uses too) on ``PATH`` for as long as the ``with`` block lasts.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from scripts import import_tool

write_dot_shim = import_tool("dot_shim").write_dot_shim


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
