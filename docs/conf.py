"""Sphinx configuration for the micrograd book.

The pages are MyST markdown notebooks: myst-nb runs their cells at build time
against the installed ``micrograd`` (an editable install of ``src/``), so
every number, table and picture on the site comes from the package itself.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

import micrograd

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
SOURCE = ROOT / "src" / "micrograd"

# docs/_ext holds the book's own Sphinx extensions and helpers.
sys.path.insert(0, str(DOCS / "_ext"))
from book_runtime import features
from book_runtime.snippets import install_command
from repository_links import repository_url
from repository_links import theme_options as _repository_options


def _source_hash() -> str:
    """A digest of every file under ``src/micrograd``, its data among them (names and contents)."""
    digest = hashlib.sha256()
    files = (p for p in SOURCE.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for path in sorted(files):
        digest.update(path.relative_to(SOURCE).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


# myst-nb's execution cache keys a notebook on its code cells only, so a change
# in the engine would otherwise be served from stale cached outputs.  The
# source hash is part of the cache's path (a new cache for new source) and a
# Sphinx config value that marks the environment stale (every page re-read).
# So is the hash of the benchmark record that "Why it's fast" shows
# (benchmarks/RESULTS.json, written by `nox -s bench -- --record`) and of the
# module that makes its table (benchmarks/report.py).  The
# executed_notebooks extension names the cache after them.
micrograd_source_hash = _source_hash()
benchmark_record_hash = hashlib.sha256(
    b"\0".join((ROOT / "benchmarks" / name).read_bytes() for name in ("RESULTS.json", "report.py"))
).hexdigest()[:16]
executed_notebooks_cache_keys = [micrograd_source_hash, f"record-{benchmark_record_hash}"]

# -- project -------------------------------------------------------------------

project = "micrograd, the executable book"
author = "The micrograd book maintainers"
copyright = "2026, The micrograd book maintainers"
release = micrograd.__version__
version = release

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx_copybutton",
    "sphinx_togglebutton",
    # MathJax served from the site itself (_static/mathjax), not from a CDN:
    # readers behind a firewall and local builds get typeset formulas.
    "sphinx-mathjax-offline",
    # A Run button on every code cell: the reader's browser runs it with
    # Pyodide, against the micrograd the site was built from (docs/_static/runner/;
    # npm packages from package-lock.json, `npm ci`).  Cells tagged
    # `build-only` keep their build-time output.
    "browser_runner",
    # Each notebook page's code cells, hidden ones included, for the runner.
    "cell_manifest",
    # viewcode's _modules pages would keep an earlier build's header: see the extension.
    "fresh_source_pages",
    # Figures: graphs inline (tooltips), full size on click, the backward
    # stepper; its script and style sheet are in _static.
    "inline_graphs",
    # What the prose calls a stepper pair's sides ("on the left", "above") follows the
    # pair's layout: the pair role, its words for every layout.
    "pair_words",
    # One layout program for every graph, on every machine: Graphviz as viz.js, the
    # program the reader's browser runs too; its version keys the execution cache.
    "layout_program",
    # The executed notebooks: the execution cache, the kernel's start-up files
    # (docs/_kernel/), printed text as the cell printed it, the download.
    "executed_notebooks",
    # A hidden cell's toggle named by the text it shows (screen readers).
    "accessible_names",
    # The whole book as one PDF in every page's download menu (nox -s pdf prints it).
    "book_pdf",
    # The reader-facing features' extensions (docs/_features, one folder each: glue,
    # claims, predict, nudge, track...), as each folder's __init__.py declares them.
    *features.sphinx_extensions(),
    # A role or code span the parser did not take as one is printed as it was
    # written, and nothing warns: the built pages are read for it.
    "raw_markup",
    # A page uses only what it or an earlier page has taught: a link or a name of the
    # API that points ahead fails the build, unless the page says it is later ({later}).
    "forward_refs",
]
# The pages outside the story's order, besides the start page (forward_refs): the reference.
book_reference_pages = ["api"]

# _runtime: the book's runtime, a Python package (docs/_runtime), no page of the book;
# _features: each reader-facing feature's folder (its directive, runtime, script, style).
exclude_patterns = [
    "_build",
    "_runtime",
    "_features",
    "jupyter_execute",
    "Thumbs.db",
    ".DS_Store",
    "**.ipynb_checkpoints",
]
source_suffix = {".md": "myst-nb", ".rst": "restructuredtext"}
root_doc = "index"

# -- MyST and notebook execution ------------------------------------------------

myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist", "substitution"]
# How the start page says to install the package, and where to build the site from: from
# the repository the build knows (repository_links.py, as the site's links and a script's
# header, book_runtime.snippets), else from the folder that holds pyproject.toml.
_repository = repository_url(os.environ)
_source = "the book's source, in the folder that holds its `pyproject.toml`"
myst_substitutions = {
    "install_from": f"its repository, <{_repository}>" if _repository else _source,
    "install_command": f"`{install_command(['micrograd-book'], _repository)}`",
    "install_examples_command": f"`{install_command(['micrograd-book[examples]'], _repository)}`",
    "build_from": (
        f"A clone of its repository (`git clone {_repository}`), in the clone's folder"
        if _repository
        else "In the folder that holds the book's `pyproject.toml`, the source this site was "
        "built from"
    ),
}
myst_heading_anchors = 3

nb_execution_mode = "cache"
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_timeout = 600
nb_merge_streams = True
# Markdown that a cell outputs (IPython.display.Markdown) is parsed as MyST,
# so tables in it render as tables.
nb_render_markdown_format = "myst"
# Anything a cell writes to stderr (a library warning, a font problem) is a
# build warning, hence an error under -W: pages stay clean.
nb_output_stderr = "warn"
# Pictures as SVG: graphviz.Digraph offers image/svg+xml, matplotlib is set to
# SVG in each page's setup cell; prefer SVG over PNG where an output has both.
nb_mime_priority_overrides = [
    ("html", "image/svg+xml", 5),
    ("html", "image/png", 15),
]

# -- autodoc --------------------------------------------------------------------

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"show-inheritance": True}
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_rtype = False
nitpicky = True  # as `sphinx-build -n`, also on Read the Docs
# Every reference into micrograd must resolve.  References to other
# projects (the standard library, graphviz, matplotlib, NumPy) and NumPy-style
# type prose ("path-like", '{"relu", "tanh"}') have no target: the build runs
# offline, so there is no intersphinx inventory to resolve them against.
nitpick_ignore_regex = [(r"py:.*", r"(?!micrograd(\.|$)).*")]

# -- HTML -----------------------------------------------------------------------

html_theme = "sphinx_book_theme"
html_title = "micrograd, the executable book"
html_static_path = ["_static"]
# Theme fixes for keyboard, screen reader and print (micrograd-theme.css, _templates/).
html_css_files = ["micrograd-theme.css"]
templates_path = ["_templates"]
# An icon of our own: without one, browsers ask for /favicon.ico and log a 404.
html_favicon = "_static/favicon.svg"
html_theme_options: dict[str, Any] = {
    "use_download_button": True,
    "show_toc_level": 2,
    "navigation_with_keys": False,
    # The floating "Back to top" button covered figures (a stepper's data, on a
    # phone); the Home key and the header do its job.
    "back_to_top_button": False,
}
# Formulas are read out by screen readers (MathJax's assistive MathML) but are not
# Tab stops: a reader moving from one code cell's Run to the next passes no formula.
mathjax3_config = {"options": {"menuOptions": {"settings": {"inTabOrder": False}}}}
html_last_updated_fmt = None  # no build date: the same source gives the same site

# -- the theme: one search box, a clean first visit, repository links only when known --
# pydata-sphinx-theme 0.20 under sphinx-book-theme 1.4 shows pydata's header
# bar, whose only item is a second search field (executablebooks/sphinx-book-theme
# issue 986).  With no navbar items at all, the header is not rendered.
html_theme_options["navbar_persistent"] = []
# Without a default, a first visit (nothing in localStorage) sets the mode to ""
# and the theme logs "Got invalid theme mode".  "auto" follows the reader's system.
html_context = {"default_mode": "auto"}
# The repository, source, edit and issue buttons: only for a build that knows the
# repository (repository_links.py: an explicit setting, Read the Docs', the clone's
# public https remote, pyproject.toml's [project.urls]); else no repository link.
html_theme_options.update(_repository_options(os.environ))

# Copy buttons copy the code only: no ">>> " / "... " / "$ " prompts and no outputs.
copybutton_exclude = ".linenos, .gp, .go"
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
# Plain code blocks only: not cell outputs (class "output"), nor the code cells, whose
# bar has its own Copy and Copy as a script (the runner's copy.js), nor the scratch
# cell (the reader's own code).
copybutton_selector = (
    ":not(.cell_input) > div:not(.output):not(.runner-scratch-input) > div.highlight pre"
)


def setup(app: Any) -> dict[str, Any]:
    # Registered as an "env" value: when src/micrograd changes, the hash
    # changes and Sphinx re-reads (so re-executes) every page.
    app.add_config_value("micrograd_source_hash", "", "env")
    app.add_config_value("benchmark_record_hash", "", "env")  # the same, for the record
    return {"parallel_read_safe": True}
