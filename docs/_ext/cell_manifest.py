"""Sphinx extension: each notebook page tells the in-browser runner about all its code cells.

A page shows only some of its code cells: myst-nb leaves out the cells
tagged ``remove-cell`` (the page's setup, and the cells that glue numbers
into the text).  The runner must run those too, in page order, for the page's
state and its glued numbers to follow a reader's run.  So every page with an
executed notebook gets, in its ``<head>``, the manifest of its code cells::

    <script type="application/json" id="micrograd-cells">{"cells": [...]}</script>

one entry per code cell, in page order (an entry's position is its index):
``source``, ``tags``, ``hidden`` (the page does not show its code),
``buildOnly`` (tagged ``build-only``: it never runs in the browser), ``glue``
(the keys of the values it glues, from the ``scrapbook`` metadata myst-nb
gives each glued output) and ``names``: which names the code defines, reads
and may change (``docs/_static/runner/cell_names.py``, which the worker also
uses for code a reader edits).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

from browser_runner import BUILD_ONLY_TAG
from executed_notebooks import executed_notebook
from sphinx.errors import ExtensionError

CELL_NAMES = Path(__file__).resolve().parent.parent / "_static" / "runner" / "cell_names.py"
#: Tags with which myst-nb leaves a cell's code out of the page.
HIDDEN_TAGS = frozenset({"remove-cell", "remove_cell", "remove-input", "remove_input"})


def _cell_names() -> ModuleType:
    """cell_names.py, which lives with the runner's files (the worker ships it)."""
    spec = importlib.util.spec_from_file_location("micrograd_cell_names", CELL_NAMES)
    if spec is None or spec.loader is None:
        raise ExtensionError(f"cell_manifest: cannot load {CELL_NAMES}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _text(data: str | list[str]) -> str:
    return data if isinstance(data, str) else "".join(data)


def manifest(notebook: dict[str, Any]) -> dict[str, Any]:
    """The manifest of a notebook's code cells (see the module's docstring)."""
    cell_names = _cell_names().cell_names
    cells = []
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        tags = list(cell.get("metadata", {}).get("tags", []))
        source = _text(cell.get("source", ""))
        glue = [
            output["metadata"]["scrapbook"]["name"]
            for output in cell.get("outputs", [])
            if "scrapbook" in output.get("metadata", {})
        ]
        cells.append(
            {
                "source": source,
                "tags": tags,
                "hidden": bool(HIDDEN_TAGS & set(tags)),
                "buildOnly": BUILD_ONLY_TAG in tags,
                "glue": glue,
                "names": cell_names(source),
            }
        )
    return {"cells": cells}


def _add_manifest(
    app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    notebook = executed_notebook(app, pagename)
    if app.builder.format != "html" or notebook is None:
        return
    body = json.dumps(manifest(notebook), ensure_ascii=False, sort_keys=True)
    # "</" cannot end the script early once escaped; JSON reads "<\/" as "</".
    body = body.replace("</", "<\\/")
    app.add_js_file(None, type="application/json", id="micrograd-cells", body=body)


def setup(app: Any) -> dict[str, Any]:
    app.connect("html-page-context", _add_manifest)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
