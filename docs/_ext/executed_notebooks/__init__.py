"""Sphinx extension: the notebooks myst-nb executes, from the kernel to the reader.

myst-nb runs every page's cells in a Jupyter kernel and writes the executed
notebook to ``jupyter_execute/<page>.ipynb``; its execution cache keeps the
outputs between builds.  This extension owns what the book does with them:

* **the cache**, set here and nowhere else: next to the build's output
  (``<outdir>/../.jupyter_cache``, shared by the builders that write next
  to each other), in a folder named after what changes a page's outputs
  while myst-nb keys its cache on the cells' code only: conf.py's
  ``executed_notebooks_cache_keys`` (the hashes of ``src/micrograd`` and of
  the benchmark record) and the hash of the kernel's start-up files.  Older
  caches there are removed;
* **the kernel's start-up files** (``docs/_kernel/``, e.g. record_sources.py, which
  keeps each drawing's DOT source next to its SVG, and a feature's ``kernel.py``,
  ``docs/_features/<name>/``, as ``<name>.py``): installed into the
  IPython profile of the kernel myst-nb starts, with a copy of the book's MIME
  types (``docs/_static/runner/mime_types.json``), which they read; they
  import the book's runtime (``book_runtime``) by its name;
* **printed text** as the cell printed it, however the kernel split it
  (:mod:`.streams`);
* **when each cell ran**: nbclient records it in each code cell's metadata
  (``execution``: when the kernel took the cell and when it replied) where it
  is asked to, which myst-nb does not do; a patch asks it (:mod:`.patches`, where
  every patch of myst-nb and jupyter-cache is).
  The browser tests read how long each cell took (a cell's script must not
  take longer than the cells it repeats); the download leaves the times out;
* **the notebooks on disk** given the cache's outputs: myst-nb (1.4) writes
  ``jupyter_execute/<page>.ipynb`` as it was *before* the cache's outputs
  were merged into it, so on a rebuild it has none.  The browser tests and the
  download read that file;
* **the downloads** offered on each page: the notebook (:mod:`.download`), and
  each cell the page shows as a script that runs by itself (:mod:`.scripts`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from forward_refs import story_numbers
from repository_links import repository_url

from . import patches
from .download import reader_notebook
from .scripts import offer_scripts

DOCS = Path(__file__).resolve().parents[2]
#: IPython start-up files for the build's kernel (not Sphinx extensions).
KERNEL_STARTUP = DOCS / "_kernel"
#: The reader-facing features' folders: a feature's ``kernel.py`` is a start-up file too.
FEATURES = DOCS / "_features"
#: The book's MIME types, the one file that spells them (the runner's JavaScript imports it).
MIME_TYPES = DOCS / "_static" / "runner" / "mime_types.json"
#: The modules of the book's runtime that the kernel's start-up files import.
KERNEL_IMPORTS = (
    "book_runtime",
    "book_runtime.features.claims.runtime",
    "book_runtime.inline_markup",
    "book_runtime.features.predict.runtime",
)


#: Part of the execution cache's name: a cache made before cells' times were recorded, or
#: whose keys held them (none of its notebooks matched a page again), is left behind.
TIMED = "timed-unkeyed"


def kernel_startup_files() -> list[Path]:
    """The kernel's start-up files: docs/_kernel's, and each feature's ``kernel.py``."""
    return [*sorted(KERNEL_STARTUP.glob("*.py")), *sorted(FEATURES.glob("*/kernel.py"))]


def startup_name(path: Path) -> str:
    """A start-up file's name in the kernel's profile: a feature's is named after it.

    IPython runs the profile's start-up files in their names' order.
    """
    return f"{path.parent.name}.py" if path.parent.parent == FEATURES else path.name


def kernel_files() -> list[Path]:
    """What the kernel runs or reads besides the pages: its start-up files, the book's
    MIME types and the modules of the runtime they import (:data:`KERNEL_IMPORTS`)."""
    return [*kernel_startup_files(), MIME_TYPES, *map(_module_file, KERNEL_IMPORTS)]


def _module_file(name: str) -> Path:
    """The source file of module ``name``, found without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(
            f"{name}: install the book's runtime (pip install -e docs/_runtime)"
        )
    return Path(spec.origin)


def kernel_startup_digest() -> str:
    """A digest of what the kernel runs besides the pages (names and contents)."""
    digest = hashlib.sha256()
    startup = kernel_startup_files()
    for path in kernel_files():
        name = startup_name(path) if path in startup else path.name
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def _on_config_inited(app: Any, config: Any) -> None:
    """The execution cache: next to the output, per source hash and kernel start-up."""
    caches = Path(app.outdir).parent / ".jupyter_cache"
    digest = kernel_startup_digest()
    keys = [*config.executed_notebooks_cache_keys, f"kernel-{digest}", TIMED]
    current = caches / "-".join(keys)
    config.nb_execution_cache_path = str(current)
    config.executed_notebooks_kernel_startup = digest
    if caches.is_dir():  # drop the caches made for older sources or start-up files
        for old in caches.iterdir():
            if old != current:
                shutil.rmtree(old, ignore_errors=True)


def _on_builder_inited(app: Any) -> None:
    """Give the kernel myst-nb starts an IPython profile with the start-up files."""
    startup = Path(app.doctreedir) / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    files = {startup_name(path): path for path in kernel_startup_files()}
    for stale in startup.glob("*.py"):  # one an earlier build installed, gone since
        if stale.name not in files:
            stale.unlink()
    for name, path in files.items():
        shutil.copyfile(path, startup / name)
    # record_sources.py reads the MIME types from its profile's folder.
    shutil.copyfile(MIME_TYPES, startup.parent / MIME_TYPES.name)
    # The kernel that myst-nb starts inherits this environment.
    os.environ["IPYTHONDIR"] = str(startup.parent.parent)


def _on_env_updated(app: Any, env: Any) -> None:
    """Give ``jupyter_execute/<page>.ipynb`` the outputs the kernel made, as the cache holds them.

    Every notebook the cache knows is given the cache's outputs (the
    kernel's own messages, however they were split), and written again
    where that changes it.
    """
    if app.config.nb_execution_mode != "cache":
        return
    import nbformat
    from jupyter_cache import get_cache

    cache = get_cache(app.config.nb_execution_cache_path)
    for path in sorted((Path(app.outdir).parent / "jupyter_execute").glob("**/*.ipynb")):
        written = path.read_bytes()
        notebook = nbformat.reads(written.decode("utf-8"), as_version=4)
        if not any(cell.cell_type == "code" for cell in notebook.cells):
            continue
        try:
            _, merged = cache.merge_match_into_notebook(notebook)
        except KeyError:  # not in the cache: written by a fresh execution, as it is
            continue
        content = nbformat.writes(merged).encode("utf-8")
        if content != written:
            path.write_bytes(content)


def executed_notebook(app: Any, pagename: str) -> dict[str, Any] | None:
    """The page's executed notebook (``jupyter_execute/<page>.ipynb``), or None (not a notebook)."""
    path = Path(app.outdir).parent / "jupyter_execute" / f"{pagename}.ipynb"
    if not path.is_file():
        return None
    notebook: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return notebook


#: What :func:`on_notebook_pages` calls: ``handler(app, pagename, notebook, context, doctree)``.
NotebookPageHandler = Callable[[Any, str, dict[str, Any], dict[str, Any], Any], None]


def on_notebook_pages(app: Any, handler: NotebookPageHandler, priority: int = 500) -> None:
    """Call ``handler`` as Sphinx writes each HTML page that is an executed notebook.

    An ``html-page-context`` handler (at ``priority``) that passes over the
    builders that write no HTML, the pages without a doctree (those Sphinx
    makes, such as the search page) and the pages that are no notebook, and
    gives ``handler`` the page's executed notebook (:func:`executed_notebook`).
    """

    def on_page(
        app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
    ) -> None:
        if app.builder.format != "html" or doctree is None:
            return
        notebook = executed_notebook(app, pagename)
        if notebook is not None:
            handler(app, pagename, notebook, context, doctree)

    app.connect("html-page-context", on_page, priority=priority)


def _offer_notebook(
    app: Any, pagename: str, notebook: dict[str, Any], context: dict[str, Any], doctree: Any
) -> None:
    """Offer each executed page as a ``.ipynb`` download (the theme's download menu).

    The reader's copy of ``jupyter_execute/<page>.ipynb`` (:mod:`.download`:
    without the cells the page hides, glued numbers written into the text,
    cell ids numbered so that two builds offer the same file) goes next to
    the page's source under ``_sources/``, and ``ipynb_source`` tells
    sphinx-book-theme to list it in the download menu (the theme itself does
    this only when a launch button such as Binder is configured).
    """
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    side = Path(app.outdir).parent / "jupyter_execute" / f"{pagename}.glue.json"
    glued = json.loads(side.read_text(encoding="utf-8")) if side.is_file() else {}
    pages = story_numbers(app)
    download = reader_notebook(notebook, glued, app.config.myst_substitutions, pages)
    target.write_text(json.dumps(download, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    context["ipynb_source"] = f"{pagename}.ipynb"


def setup(app: Any) -> dict[str, Any]:
    patches.apply()
    # The kernel's start-up files change what pages output: re-read them all when they do.
    app.add_config_value("executed_notebooks_kernel_startup", "", "env")
    # What else keys the cache (conf.py: hashes of what pages read besides their code).
    app.add_config_value("executed_notebooks_cache_keys", [], "env")
    app.connect("config-inited", _on_config_inited)
    app.connect("builder-inited", _on_builder_inited)
    app.connect("env-updated", _on_env_updated)
    # Before sphinx-book-theme builds its header buttons (priority 501).
    on_notebook_pages(app, _offer_notebook, priority=400)
    # The page's address in a script's header, where the build knows it (Read the Docs).
    app.add_config_value(
        "executed_notebooks_page_url", os.environ.get("READTHEDOCS_CANONICAL_URL", ""), "html"
    )
    # Where a script's header installs micrograd-book from: the repository the site links
    # to, where the build knows one (repository_links.py); else the folder that holds
    # pyproject.toml (book_runtime.snippets.install_source).
    app.add_config_value(
        "executed_notebooks_repository_url", repository_url(os.environ) or "", "html"
    )
    # After sphinx-book-theme has made its download menu (priority 501).
    on_notebook_pages(app, offer_scripts, priority=550)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
