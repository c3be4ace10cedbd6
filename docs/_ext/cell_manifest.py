"""Sphinx extension: each notebook page tells the in-browser runner about all its code cells.

A page shows only some of its code cells: myst-nb leaves out the cells
tagged ``remove-cell`` (the page's setup, and the cells that glue numbers
into the text).  The runner must run those too, in page order, for the page's
state and its glued numbers to follow a reader's run.  So every page with an
executed notebook gets, in its ``<head>``, the manifest of its code cells::

    <script type="application/json" id="micrograd-cells">{"cells": [...]}</script>

one entry per code cell, in page order (an entry's position is its index):
``source``, ``tags``, ``hidden`` (the page does not show its code),
``apart`` (the page hides or folds away its code: it runs apart from the shown
cells' namespace, so the scratch cell never sees what it binds), ``buildOnly``
(tagged ``build-only``: it never runs in the browser), ``glue`` (the keys of
the values it glues, from the ``scrapbook`` metadata myst-nb gives each glued
output), ``anyInput`` (the keys of those that are claims of a sentence that holds
whatever values the page's inputs take: ``claim(..., any_input=True)``, which the
runner never marks out of date), and ``firstRunBytes``: what a first Run on the cell fetches
(browser_runner.first_run_files, which the build also records for the browser
tests; its status names it).  And,
from :mod:`book_runtime.snippets`, the one analysis of which cells a
cell needs (``runner_analysis``, which the worker also answers for code a
reader edits): ``names``, which names the code defines, reads and may change
(:mod:`book_runtime.cell_names`), ``watches``, the names it binds or
may change on this page (what the kernel watches while it runs), ``needs``,
the cells the runner runs before it on a fresh page (queue.js plans with
these while the reader has edited nothing), ``shows``, what its last
expression showed at build time, and, for a cell the page shows, ``script``:
the cell as a script that runs by itself, the text "Copy as a script" copies
(the same as the page's download of it, executed_notebooks/scripts.py; in the
page, so that copying needs neither Python nor a connection).  Beside the
cells, ``glueFormats``: each key the prose pastes, with the format specs it
pastes it with (the in-browser kernel formats the reader's values so), and
``page``: where the page's scripts come from, with which the worker assembles
the script of a page the reader edited, and ``teachScratch``: whether this is
the first page in reading order with a cell the reader can run (so a scratch
cell, "Try your own code"), whose scratch cell says in full what it runs after
and which names it sees; the others say it in one line.

Each code cell the page shows carries its position in the manifest as
``data-micrograd-cell`` on its ``div.cell``: the runner binds a cell on the
page to its entry by that, never by its text.
"""

from __future__ import annotations

import json
from typing import Any

from book_runtime.features.claims.directive import GLUE_PREFIX as CLAIM_PREFIX
from book_runtime.features.claims.directive import verdict
from book_runtime.features.glue.directive import glued_number
from book_runtime.snippets import runner_analysis
from browser_runner import first_run_files, output_kinds, record_first_run
from docutils import nodes
from executed_notebooks import executed_notebook, on_notebook_pages
from executed_notebooks.scripts import (
    BUILD_ONLY_TAG,
    MIME_TYPES,
    cell_scripts,
    code_cells,
    page_of,
)
from forward_refs import first_in_order, keep_per_page, per_page, reading_order
from myst_parser.parsers.docutils_ import depart_container_html, visit_container_html

#: Where the build keeps, for each page, whether it runs in the browser (runs_in_the_browser).
SCRATCH_PAGES = "runs_in_the_browser"


def manifest(
    notebook: dict[str, Any], glue_formats: dict[str, list[str]], page: dict[str, Any]
) -> dict[str, Any]:
    """The manifest of a notebook's code cells (see the module's docstring), without sizes.

    ``page`` says where the page's scripts come from (executed_notebooks.scripts.page_of).
    """
    cells = code_cells(notebook)
    analysis = runner_analysis(cells)
    scripts = cell_scripts(cells, page)
    code = [cell for cell in notebook.get("cells", []) if cell.get("cell_type") == "code"]
    for index, (entry, cell) in enumerate(zip(cells, code, strict=True)):
        glued = glued_outputs(cell)
        entry["glue"] = list(glued)
        entry["anyInput"] = [
            key
            for key, output in glued.items()
            if key.startswith(CLAIM_PREFIX) and _claim_of(output).get("anyInput", False)
        ]
        entry.update(analysis[index])
        if index in scripts:
            entry["script"] = scripts[index]
    return {"cells": cells, "glueFormats": glue_formats, "page": page}


def glued_outputs(cell: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The outputs a code cell glued (myst-nb's ``scrapbook`` metadata), by key, in order."""
    return {
        output["metadata"]["scrapbook"]["name"]: output
        for output in cell.get("outputs", [])
        if "scrapbook" in output.get("metadata", {})
    }


def _claim_of(output: dict[str, Any]) -> dict[str, Any]:
    """A glued claim's record (claims/runtime.py), from its text."""
    prefix = output["metadata"]["scrapbook"].get("mime_prefix", "")
    return verdict("".join(output["data"][f"{prefix}text/plain"]))


def glue_formats(doctree: nodes.document) -> dict[str, list[str]]:
    """Each key the page's prose pastes (the glue's directive), with its format specs, sorted."""
    formats: dict[str, set[str]] = {}
    for node in doctree.findall(glued_number):
        formats.setdefault(node["glue_key"], set()).add(node["glue_format"])
    return {key: sorted(specs) for key, specs in sorted(formats.items())}


def _add_manifest(
    app: Any, pagename: str, notebook: dict[str, Any], context: dict[str, Any], doctree: Any
) -> None:
    found = manifest(notebook, glue_formats(doctree), page_of(app, pagename))
    code = [cell for cell in notebook.get("cells", []) if cell.get("cell_type") == "code"]
    kinds = [
        set() if entry["buildOnly"] else output_kinds(cell.get("outputs", []), MIME_TYPES)
        for entry, cell in zip(found["cells"], code, strict=True)
    ]
    files = first_run_files(app, kinds)
    for entry, fetched in zip(found["cells"], files, strict=True):
        entry["firstRunBytes"] = sum(fetched.values())
    record_first_run(app, pagename, files)
    scratch_pages = {doc for doc, runs in per_page(app.env, SCRATCH_PAGES).items() if runs}
    order = reading_order(app.env.toctree_includes, app.config.root_doc)
    found["teachScratch"] = pagename == first_in_order(scratch_pages, order)
    body = json.dumps(found, ensure_ascii=False, sort_keys=True)
    # "</" cannot end the script early once escaped; JSON reads "<\/" as "</".
    body = body.replace("</", "<\\/")
    app.add_js_file(None, type="application/json", id="micrograd-cells", body=body)


def runs_in_the_browser(doctree: nodes.document) -> bool:
    """Whether the page shows a code cell the reader can run: one that shows its code and
    is not build-only (the runner gives such a page a scratch cell)."""
    for cell in doctree.findall(nodes.container):
        if cell.get("nb_element") != "cell_code" or f"tag_{BUILD_ONLY_TAG}" in cell["classes"]:
            continue
        if any(part.get("nb_element") == "cell_code_source" for part in cell.children):
            return True
    return False


#: The attribute of a shown cell's ``div.cell`` that holds its position in the manifest.
CELL_ATTRIBUTE = "data-micrograd-cell"


def _number_cells(app: Any, doctree: nodes.document, docname: str) -> None:
    """Give each code cell's container its position among the notebook's code cells."""
    notebook = executed_notebook(app, docname)
    if notebook is None:
        return
    kinds = [cell.get("cell_type") for cell in notebook.get("cells", [])]
    for node in doctree.findall(nodes.container):
        if node.get("nb_element") == "cell_code":
            node["micrograd_cell"] = kinds[: node["cell_index"]].count("code")


def _visit_container(translator: Any, node: nodes.container) -> None:
    """A code cell's ``<div class="docutils container">`` carries its position; any other
    container is myst-parser's (which this visitor replaces: Sphinx keeps one per node)."""
    if "micrograd_cell" not in node:
        visit_container_html(translator, node)
        return
    position = {CELL_ATTRIBUTE: str(node["micrograd_cell"])}
    translator.body.append(translator.starttag(node, "div", CLASS="docutils container", **position))


def setup(app: Any) -> dict[str, Any]:
    on_notebook_pages(app, _add_manifest)
    keep_per_page(app, SCRATCH_PAGES, runs_in_the_browser)
    app.connect("doctree-resolved", _number_cells)
    app.add_node(nodes.container, override=True, html=(_visit_container, depart_container_html))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
