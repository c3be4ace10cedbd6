"""Each code cell a page shows, as a script that runs by itself: a download, and a copy.

A reader who copies one cell into a fresh notebook or script needs the cells
above it that it reads from.  The runtime's :mod:`book_runtime.snippets`
knows which, by the rule with which the runner
decides what to run first, and assembles the script; this module gives it the
page's cells as the build executed them (:func:`code_cells`: what each cell's
last expression showed, so that the script shows it too) and where they come
from (:func:`page_of`), and:

* writes each script to ``_sources/<page>/cell-<n>.py`` (``n``: the cell's
  number as the page shows it, "cell 3") and lists it in the page's download
  menu, after the notebook (:func:`offer_scripts`);
* gives the page's cell manifest (``cell_manifest.py``) the same texts, which
  the runner's "Copy as a script" copies: the same bytes as the file.

Build-only cells (PyTorch, measured timings) get scripts too: their header,
and their menu entry, say what they need beyond micrograd-book.  Where the
build knows no repository, a script's header installs micrograd-book from the
wheel the site offers (:func:`offered_wheel`: the one the in-browser runner
runs, with its extras: runtime_wheels.py).
"""

from __future__ import annotations

import json
import posixpath
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from book_runtime import snippets
from runtime_wheels import SITE_FOLDER, read_toml

from .text import joined

DOCS = Path(__file__).resolve().parents[2]
ROOT = DOCS.parent
#: The cell tag that keeps a cell out of the browser (it runs at build time only).
BUILD_ONLY_TAG = "build-only"
#: Tags with which myst-nb leaves a cell's code out of the page.
HIDDEN_TAGS = frozenset({"remove-cell", "remove_cell", "remove-input", "remove_input"})
#: Tags with which myst-nb folds a cell's code away behind a toggle (an exercise's solution).
FOLDED_TAGS = frozenset({"hide-cell", "hide_cell", "hide-input", "hide_input"})
#: The book's MIME types (the one file that spells them), under which the build's kernel
#: records a drawing's, a figure's and a stepper's source.
MIME_TYPES: dict[str, str] = json.loads(
    (DOCS / "_static" / "runner" / "mime_types.json").read_text(encoding="utf-8")
)
#: The dependency group of pyproject.toml whose pins a script names (torch==2.13.0).
PINNED_GROUP = "torch"


def code_cells(notebook: dict[str, Any]) -> list[dict[str, Any]]:
    """The notebook's code cells as ``snippets.py`` takes them, in page order.

    Each: ``source``, ``tags``, ``hidden`` (the page does not show its code),
    ``apart`` (the page hides its code, or folds it away: what it binds stays out of
    the namespace of the cells the reader sees, in the browser's kernel, kernel.py),
    ``buildOnly`` and ``shows`` (what its last expression showed at build time).
    """
    shows = snippets.shows
    cells = []
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        tags = list(cell.get("metadata", {}).get("tags", []))
        source = joined(cell.get("source", ""))
        cells.append(
            {
                "source": source,
                "tags": tags,
                "hidden": bool(HIDDEN_TAGS & set(tags)),
                "apart": bool((HIDDEN_TAGS | FOLDED_TAGS) & set(tags)),
                "buildOnly": BUILD_ONLY_TAG in tags,
                "shows": shows(source, cell.get("outputs", []), MIME_TYPES),
            }
        )
    return cells


def pinned_requirements(pyproject: Path = ROOT / "pyproject.toml") -> dict[str, str]:
    """The pins of :data:`PINNED_GROUP`, by the module each installs (torch: torch==2.13.0)."""
    pins = read_toml(pyproject)["dependency-groups"][PINNED_GROUP]
    return {pin.split("==")[0].strip().replace("-", "_"): pin for pin in pins}


def page_of(app: Any, pagename: str) -> dict[str, Any]:
    """Where a page's scripts come from, as ``snippets.script`` takes it."""
    base = app.config.executed_notebooks_page_url
    url = base.rstrip("/") + "/" + app.builder.get_target_uri(pagename) if base else None
    return {
        "title": app.env.titles[pagename].astext(),
        "name": pagename,
        "file": Path(app.env.doc2path(pagename, base=False)).as_posix(),
        "book": app.config.project,
        "url": url,
        "requirements": pinned_requirements(),
        "repository": app.config.executed_notebooks_repository_url or None,
        "wheel": offered_wheel(pagename, url, getattr(app.config, "browser_runner_wheels", [])),
    }


def offered_wheel(pagename: str, url: str | None, wheels: list[str]) -> str | None:
    """The wheel of micrograd-book the site offers (runtime_wheels.py), for page ``pagename``:
    its address where the page's (``url``) is known, else its path from the page's.
    ``wheels``: the names of the wheels the site ships; None where none is micrograd-book's."""
    prefix = snippets.DISTRIBUTION.replace("-", "_") + "-"
    found = [name for name in wheels if name.startswith(prefix)]
    if not found:
        return None
    where = posixpath.dirname(pagename) or "."
    path = posixpath.relpath(f"{SITE_FOLDER}/{found[0]}", where)
    return urljoin(url, path) if url else path


def cell_scripts(cells: list[dict[str, Any]], page: dict[str, Any]) -> dict[int, str]:
    """Every shown cell's script, by the cell's index among the page's code cells."""
    script = snippets.script
    return {
        code: script(cells, code, page) for code, cell in enumerate(cells) if not cell["hidden"]
    }


def script_file(pagename: str, number: int) -> str:
    """Where cell ``number``'s script is, under ``_sources``: ``neuron/cell-2.py``."""
    return f"{pagename}/cell-{number}.py"


def beyond_the_package(text: str, page: dict[str, Any]) -> list[str]:
    """What a script needs besides micrograd-book (with its extras): ``["torch==2.13.0"]``."""
    return snippets.requirements(text, page["requirements"])[1:]


def offer_scripts(
    app: Any, pagename: str, notebook: dict[str, Any], context: dict[str, Any], doctree: Any
) -> None:
    """Write each shown cell's script next to the page's notebook, and list it in the menu."""
    cells = code_cells(notebook)
    page = page_of(app, pagename)
    number = snippets.cell_number
    entries = []
    for code, text in cell_scripts(cells, page).items():
        n = number(cells, code)
        target = Path(app.outdir) / "_sources" / script_file(pagename, n)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        needs = beyond_the_package(text, page)
        tooltip = f"Download cell {n} as a script that runs by itself"
        entries.append(
            {
                "type": "link",
                "url": context["pathto"](f"_sources/{script_file(pagename, n)}", 1),
                "text": f"cell {n} .py",
                "tooltip": tooltip + (f" (it needs {', '.join(needs)})" if needs else ""),
                "icon": "fab fa-python",
                "label": f"download-cell-{n}-script-button",
            }
        )
    _add_after_notebook(context, entries)


def _add_after_notebook(context: dict[str, Any], entries: list[dict[str, Any]]) -> None:
    """Put ``entries`` into the theme's download menu, right after the page's notebook."""
    for group in context.get("header_buttons", []):
        if group.get("label") != "download-buttons":
            continue
        buttons = group["buttons"]
        labels = [button.get("label") for button in buttons]
        at = (
            labels.index("download-notebook-button") + 1
            if "download-notebook-button" in labels
            else 0
        )
        buttons[at:at] = entries
