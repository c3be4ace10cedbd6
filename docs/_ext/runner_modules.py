"""The in-browser runner's Python modules (docs/_static/runner/*.py), loaded from their files.

They are not a package: the site ships them to the reader's browser, where
the worker installs them under the names it gives them (worker.js).  The
build uses two of them too (cell_names.py for the page's cell manifest,
glue_text.py for the downloadable notebook), and the tests all of them:
both load them here, under the names the worker gives them.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

RUNNER = Path(__file__).resolve().parent.parent / "_static" / "runner"
#: The name worker.js installs each module under (kernel.py imports the others by it).
INSTALLED_AS = {
    "cell_names": "micrograd_cell_names",
    "claims": "micrograd_claims",
    "exercises": "micrograd_exercises",
    "glue_text": "micrograd_glue_text",
    "kernel": "micrograd_browser_kernel",
    "live_charts": "micrograd_live_charts",
    "snippets": "micrograd_snippets",
}


def load(name: str) -> ModuleType:
    """The runner's module ``name`` (``"cell_names"``), loaded afresh from its file.

    It is registered in ``sys.modules`` under the name the worker gives it, so
    that the modules that import it find it; the runner's modules it imports
    are loaded first, where they are not loaded yet.
    """
    for needed in _runner_imports(name):
        if INSTALLED_AS[needed] not in sys.modules:
            load(needed)
    installed = INSTALLED_AS[name]
    spec = importlib.util.spec_from_file_location(installed, RUNNER / f"{name}.py")
    if spec is None or spec.loader is None:
        raise ImportError(RUNNER / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[installed] = module
    spec.loader.exec_module(module)
    return module


def _runner_imports(name: str) -> list[str]:
    """The runner's modules that the module ``name`` imports (by the worker's names for them)."""
    by_installed = {installed: module for module, installed in INSTALLED_AS.items()}
    tree = ast.parse((RUNNER / f"{name}.py").read_text(encoding="utf-8"))
    imported = [
        alias.name for node in tree.body if isinstance(node, ast.Import) for alias in node.names
    ]
    imported += [n.module for n in tree.body if isinstance(n, ast.ImportFrom) and n.module]
    return [by_installed[module] for module in imported if module in by_installed]
