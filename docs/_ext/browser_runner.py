"""Sphinx extension: the runtime that runs every page's code cells in the reader's browser.

The site ships its own Python: Pyodide (CPython compiled to WebAssembly), the
``micrograd`` package the site was built from, the book's runtime
(``book_runtime``, docs/_runtime: the kernel the worker imports, and the features'
runtime, docs/_features, the track's checks among it) and the pure-Python
``graphviz`` package (wheels: runtime_wheels.py),
viz.js (Graphviz compiled to WebAssembly) to lay drawings out, marked to show
Markdown outputs, Observable Plot (with d3, which it needs) to draw the charts a
cell shows in place of matplotlib's figures, and CodeMirror 6 for the cell
editor.  ``runner/runner.js`` (``docs/_static/runner/``, ES modules, bundled by
esbuild: bundle.py) adds Run and Edit buttons to each code cell; nothing of the
runtime is fetched until the first Run (nor of the editor until the first Edit
or Run).  Cells tagged ``build-only`` (they need NumPy, matplotlib, PyTorch or
the build machine) keep their build-time output and get a one-line note instead.

At build time the extension

* bundles the runner's JavaScript once (bundle.py), and adds runner.js to every
  page with the runtime's paths, the files starting Python fetches and their
  size (the runtime's cache keeps them; the status names the size); the
  wheels' names are a config value, so that a build that ships another wheel
  writes every page again, not only those it read again;
* checks that ``npm ci`` installed the versions ``package-lock.json`` pins
  (``nox -s docs`` runs it), and puts into ``_static/runner/``: the bundle, in
  place of the sources Sphinx copied there; Pyodide, viz.js, marked, d3 and
  Observable Plot as they are; the wheels; and the licences
  (site_licences.py).  Nothing else stays there: the folder holds what this
  build ships, whatever an earlier build left.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import zlib
from pathlib import Path
from typing import Any

from book_runtime.output_kinds import output_kind
from bundle import SOURCES, Bundle, BundleError, bundle, loaded_files
from bundle import bundled_packages as bundled_package_names
from executed_notebooks.scripts import BUILD_ONLY_TAG
from layout_program import installed_version
from runtime_wheels import SITE_FOLDER, graphviz_wheel, runtime_wheels
from site_licences import LicenceError, as_shipped_licences, bundled_licences, notice
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ExtensionError

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

#: Where in the built site the runtime goes (under _static, next to runner.js).
RUNNER_DIR = Path(SITE_FOLDER)
#: The runner's stylesheet, in its sources and in the site.
STYLESHEET = "runner.css"
#: A comment of a stylesheet, with the blanks before it and the line's end after it.
CSS_COMMENT = re.compile(rb"[ \t]*/\*.*?\*/[ \t]*\n?", re.DOTALL)
#: The reader-facing features' folders: each one's ``<name>.css`` ships inside
#: :data:`STYLESHEET`, so that a page loads the same one file of style.
FEATURES = ROOT / "docs" / "_features"
#: The files of the npm packages that the site ships as they are, by package.
NPM_FILES = {
    "pyodide": [
        "pyodide.mjs",
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
    ],
    "@viz-js/viz": ["dist/viz.js"],
    "marked": ["lib/marked.esm.js"],
    # Scripts (UMD bundles), not ES modules: Plot's bundle uses the global d3.
    "d3": ["dist/d3.min.js"],
    "@observablehq/plot": ["dist/plot.umd.min.js"],
}
#: The runner's attributes that name the script of an npm package, by the package.
SCRIPTS = {
    "data-viz": "@viz-js/viz",
    "data-marked": "marked",
    "data-d3": "d3",
    "data-plot": "@observablehq/plot",
}
#: The runner's entry points, by the build that bundles them (bundle.BUILDS): the
#: page's, and the worker's with the runtime cache's service worker (python.js
#: registers it).
PAGE_ENTRY = "runner.js"
WORKER_ENTRIES = ("worker.js", "runtime-cache.js")


def with_their_page() -> frozenset[str]:
    """Page modules a page loads with itself when it has what they serve, never part of what
    a first Run fetches: each feature's the registry (``book_runtime.features``) says so of."""
    from book_runtime import features

    return frozenset(f.page_module for f in features.registry() if f.with_its_page)


#: The page module the Edit button loads (runner.js's ``import("./editor.js")``): a Run
#: opens the editor through the run queue's own import of it, and fetches no file of its.
EDIT_ONLY = frozenset({"editor.js"})
#: What kind of output makes a Run fetch more (the first drawing, Markdown, chart):
#: the npm packages it loads, by the kind (see :func:`output_kinds`).
EXTRA_PACKAGES = {
    "graphviz": ("@viz-js/viz",),
    "markdown": ("marked",),
    "chart": ("d3", "@observablehq/plot"),
}
#: The part of :data:`EXTRA_PACKAGES` an output of each kind (``output_kind``) needs.
FETCHED_FOR = {
    "drawing": "graphviz",
    "stepper": "graphviz",
    "figure": "chart",
    "markdown": "markdown",
}


# -- npm packages ---------------------------------------------------------------------------------


def _locked_versions(lock_file: Path) -> dict[str, str]:
    """Package name -> version, for every package ``package-lock.json`` pins."""
    lock = json.loads(lock_file.read_text(encoding="utf-8"))
    prefix = "node_modules/"
    return {
        path[len(prefix) :]: entry["version"]
        for path, entry in lock.get("packages", {}).items()
        if path.startswith(prefix)
    }


def npm_packages(
    names: list[str], node_modules: Path, lock_file: Path
) -> dict[str, tuple[str, Path]]:
    """Name -> (version, folder) of the npm packages ``names``, checked against the lock.

    Raises
    ------
    ExtensionError
        If a package is missing or its installed version is not the locked one.
    """
    locked = _locked_versions(lock_file)
    found: dict[str, tuple[str, Path]] = {}
    for name in names:
        folder = node_modules / name
        installed = installed_version(folder)
        if name not in locked or installed != locked[name]:
            raise ExtensionError(
                f"the in-browser runner needs npm package {name} {locked.get(name, '?')} "
                f"(package-lock.json) in {node_modules}, found {installed or 'nothing'}: "
                f"run `npm ci` in {lock_file.parent} (`python -m nox -s docs` does)"
            )
        found[name] = (installed, folder)
    return found


def _node_modules(app: Sphinx) -> Path:
    return Path(app.config.browser_runner_node_modules)


def _packages(app: Sphinx) -> dict[str, tuple[str, Path]]:
    """The npm packages the site ships as they are (:data:`NPM_FILES`)."""
    return npm_packages(list(NPM_FILES), _node_modules(app), ROOT / "package-lock.json")


def _npm_dir(name: str, version: str) -> str:
    """The folder of an npm package in the site: ``pyodide-314.0.7``, ``viz-3.31.0``."""
    return f"{name.split('/')[-1]}-{version}"


def _npm_files(packages: dict[str, tuple[str, Path]], *names: str) -> dict[str, Path]:
    """Path in the runner's folder -> file: the :data:`NPM_FILES` of ``names`` (default all)."""
    return {
        f"{_npm_dir(name, packages[name][0])}/{Path(relative).name}": packages[name][1] / relative
        for name in names or packages
        for relative in NPM_FILES[name]
    }


@functools.cache
def _bundle(node_modules: str, work: str) -> Bundle:
    """The runner's bundle, made once per build (and not at all when its inputs are unchanged)."""
    try:
        return bundle(Path(node_modules), Path(work))
    except BundleError as error:
        raise ExtensionError(str(error)) from error


def _runner_bundle(app: Sphinx) -> Bundle:
    return _bundle(str(_node_modules(app)), str(Path(app.doctreedir) / "runner-bundle"))


def _runtime_wheels(app: Sphinx) -> dict[str, bytes]:
    return runtime_wheels(app.config.micrograd_source_hash)


def name_the_wheels(app: Sphinx, config: Config) -> None:
    """Set ``browser_runner_wheels``: the names of the wheels this build ships, in order.

    Every page names them (runner.js's ``data-wheels``), and a wheel's name
    carries the hash of its files.  Sphinx writes again only the pages it read
    again, unless an ``"html"`` config value changed: this one changes with any
    wheel's name, so that after a change to the runtime alone (a check, say) no
    page names a wheel the build no longer ships.
    """
    config.browser_runner_wheels = list(runtime_wheels(config.micrograd_source_hash))


def _entries(app: Sphinx) -> dict[str, bytes]:
    """The two files every page names, as the site ships them: runner.js and runner.css."""
    runner = _runner_bundle(app)
    return {PAGE_ENTRY: (runner.files / PAGE_ENTRY).read_bytes(), STYLESHEET: runner_stylesheet()}


def name_the_entries(app: Sphinx, config: Config) -> None:
    """Set ``browser_runner_entries``: runner.js and runner.css by the CRC-32 of their bytes.

    A page names each with Sphinx's ``?v=`` (the same checksum), so that a reader's
    browser fetches it again when it changes.  This ``"html"`` config value changes with
    either, so that every page is written again, with the new ``?v=``.
    """
    config.browser_runner_entries = " ".join(
        f"{name}={zlib.crc32(data):08x}" for name, data in sorted(_entries(app).items())
    )


def _forget_stale_module_pages(app: Sphinx) -> None:
    """Remove the highlighted-source pages (``_modules/``) when runner.js or runner.css changed.

    sphinx.ext.viewcode writes such a page again only when its module's source is newer,
    whatever the config: an old page would name the old ``?v=``.
    """
    out = Path(app.outdir)
    if any(
        (out / RUNNER_DIR / name).is_file() and (out / RUNNER_DIR / name).read_bytes() != data
        for name, data in _entries(app).items()
    ):
        shutil.rmtree(out / "_modules", ignore_errors=True)


def _ship_entries(app: Sphinx, *_: Any) -> None:
    """Put the shipped runner.js and runner.css in the output before a page names them.

    Sphinx copies the sources of ``_static`` first and takes a page's ``?v=`` from the
    output's copy while it writes the page: without this, the checksum would be the
    source's, not the bundle's (runner.js) or the stylesheet with its features' rules.
    """
    for name, data in _entries(app).items():
        _write(Path(app.outdir) / RUNNER_DIR / name, data)


def _pyodide_lock(packages: dict[str, tuple[str, Path]]) -> tuple[str, bytes, str]:
    """The site's ``pyodide-lock.json`` (no packages): its path there, its bytes, and the
    Python version it names.

    Pyodide's lock file lists packages this site does not ship: with an empty
    list Pyodide neither offers nor tries to fetch any of them.
    """
    version, folder = packages["pyodide"]
    info = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    data = (json.dumps({"info": info, "packages": {}}, indent=1, sort_keys=True) + "\n").encode()
    return f"{_npm_dir('pyodide', version)}/pyodide-lock.json", data, str(info.get("python", "?"))


def page_side(runner: Bundle) -> set[str]:
    """The bundle's files (names) a page loads with itself: runner.js and what it imports."""
    return loaded_files(runner.metafiles["page"], PAGE_ENTRY, static_only=True)


def with_its_page(runner: Bundle, module: str) -> set[str]:
    """The files an add-on of :func:`with_their_page` adds to the load of a page that has it."""
    if module not in with_their_page():
        raise ValueError(f"{module} is not loaded with a page: {sorted(with_their_page())}")
    page = runner.metafiles["page"]
    return loaded_files(page, module, static_only=True) - page_side(runner)


def _sizes(app: Sphinx, packages: dict[str, tuple[str, Path]]) -> dict[str, dict[str, int]]:
    """What a first Run fetches, by part: path in the runner's folder -> size in bytes.

    ``python``: starting Python (the worker and the runtime cache's service
    worker, Pyodide and its lock file, the wheels); ``run``: the page's run
    machinery and the cell editor (what the page loads at the first Run, not
    with itself); and one part per kind of output
    (:data:`EXTRA_PACKAGES`), fetched with the first output of that kind.
    """
    runner = _runner_bundle(app)
    worker = set().union(
        *(loaded_files(runner.metafiles["worker"], e, static_only=False) for e in WORKER_ENTRIES)
    )
    python = {name: (runner.files / name).stat().st_size for name in worker}
    python.update(
        (path, file.stat().st_size) for path, file in _npm_files(packages, "pyodide").items()
    )
    lock, data, _ = _pyodide_lock(packages)
    python[lock] = len(data)
    python.update((name, len(data)) for name, data in _runtime_wheels(app).items())
    page = runner.metafiles["page"]
    skip = with_their_page() | EDIT_ONLY
    at_first_run = loaded_files(page, PAGE_ENTRY, static_only=False, skip=skip)
    run = {name: (runner.files / name).stat().st_size for name in at_first_run - page_side(runner)}
    parts = {"python": python, "run": run}
    for kind, names in EXTRA_PACKAGES.items():
        parts[kind] = {
            path: file.stat().st_size for path, file in _npm_files(packages, *names).items()
        }
    return parts


def output_kinds(outputs: list[dict[str, Any]], mime_types: dict[str, str]) -> set[str]:
    """The kinds of :data:`EXTRA_PACKAGES` among a cell's build outputs.

    A drawing or a stepper is laid out by viz.js, a figure's chart drawn by
    Observable Plot, Markdown turned into HTML by marked; what each output is,
    :func:`book_runtime.output_kinds.output_kind` says.
    """
    kinds = (output_kind(output, mime_types) for output in outputs)
    return {FETCHED_FOR[kind] for kind in kinds if kind in FETCHED_FOR}


#: The parts (:data:`EXTRA_PACKAGES`) every first Run fetches, whatever its outputs: once
#: its first cell has run, the runtime's cache keeps viz.js and marked with Python's start
#: files (python.js's ``runtimeFiles``), from the network when the browser has not got them.
KEPT_AT_FIRST_RUN = frozenset({"graphviz", "markdown"})
#: Where, beside its doctrees, the build records what a first Run on each cell fetches
#: (``<page>.json``: one ``{path in the runner's folder: bytes}`` per code cell).
FIRST_RUN_RECORDS = "runner-first-run"


def first_run_files(app: Sphinx, kinds: list[set[str]]) -> list[dict[str, int]]:
    """For each code cell, the files a first Run on it fetches: path -> size in bytes.

    ``kinds[k]`` is what kinds of output cell ``k`` makes (:func:`output_kinds`;
    an empty set for a cell that does not run in the browser).  A first Run on
    cell ``k`` starts Python, loads the run machinery and the editor, and runs
    the cells above ``k`` and ``k`` itself (and the hidden cells right after it,
    which make no outputs the page shows): whatever their outputs need comes too,
    and so does what the runtime's cache keeps (:data:`KEPT_AT_FIRST_RUN`).
    """
    parts = _sizes(app, _packages(app))
    found = []
    seen = {"python", "run", *KEPT_AT_FIRST_RUN}
    for cell_kinds in kinds:
        seen |= cell_kinds
        # A file both sides load (protocol.js, say) is fetched, and counted, once.
        found.append({path: size for part in sorted(seen) for path, size in parts[part].items()})
    return found


def record_first_run(app: Sphinx, pagename: str, files: list[dict[str, int]]) -> None:
    """Write :func:`first_run_files` of page ``pagename`` where the browser tests read it
    (:data:`FIRST_RUN_RECORDS`, beside the doctrees: not part of the site)."""
    record = Path(app.doctreedir) / FIRST_RUN_RECORDS / f"{pagename}.json"
    _write(record, (json.dumps(files, indent=1, sort_keys=True) + "\n").encode())


def _on_builder_inited(app: Sphinx) -> None:
    """Add runner.js (an ES module) to every page, with what it needs to know."""
    if app.builder.format != "html":
        return
    _forget_stale_module_pages(app)
    packages = _packages(app)
    start = _sizes(app, packages)["python"]
    app.add_js_file(
        "runner/runner.js",
        type="module",
        id="micrograd-runner",
        **{
            "data-pyodide": _npm_dir("pyodide", packages["pyodide"][0]) + "/",
            # Each of these packages ships one file, the script the page loads.
            **{key: next(iter(_npm_files(packages, name))) for key, name in SCRIPTS.items()},
            "data-wheels": " ".join(app.config.browser_runner_wheels),
            "data-start-files": " ".join(sorted(start)),
            "data-build-only-tag": BUILD_ONLY_TAG,
        },
    )
    app.add_css_file(f"runner/{STYLESHEET}")


def css_rules(css: bytes) -> bytes:
    """A stylesheet without its comments: they are for whoever edits it, and what a page
    fetches of the runner before a Run is held to a budget of bytes."""
    return CSS_COMMENT.sub(b"", css)


def runner_stylesheet(sources: Path = ROOT / SOURCES, features: Path = FEATURES) -> bytes:
    """:data:`STYLESHEET` as the site ships it: the runner's own rules, then each feature's.

    The features' stylesheets (``docs/_features/<name>/<name>.css``) follow in their
    folders' name order, each after a blank line, all without their comments
    (:func:`css_rules`).
    """
    parts = [sources / STYLESHEET, *sorted(features.glob("*/*.css"))]
    return b"\n".join(css_rules(path.read_bytes()) for path in parts)


def shipped_files(app: Sphinx) -> dict[str, bytes]:
    """What this build puts into ``_static/runner``: path there -> content.

    The bundle, the runner's stylesheet with the features' (:func:`runner_stylesheet`),
    the npm files shipped as they are, Pyodide's lock file, the wheels, and the
    licences of all the third-party software among them.
    """
    packages = _packages(app)
    versions = {name: version for name, (version, _) in packages.items()}
    files = {path: file.read_bytes() for path, file in _npm_files(packages).items()}
    lock, files[lock], versions["python"] = _pyodide_lock(packages)
    runner = _runner_bundle(app)
    files.update((path.name, path.read_bytes()) for path in sorted(runner.files.iterdir()))
    files.update(_runtime_wheels(app))
    files[STYLESHEET] = runner_stylesheet()
    node_modules = _node_modules(app)
    names = set().union(*(bundled_package_names(m) for m in runner.metafiles.values()))
    npm_packages(sorted(names), node_modules, ROOT / "package-lock.json")  # the locked ones
    try:
        bundled = bundled_licences(names, node_modules)
        as_shipped = as_shipped_licences(node_modules)
    except LicenceError as error:
        raise ExtensionError(str(error)) from error
    licences = {**as_shipped, **{entry.file_name: entry.text for entry in bundled}}
    gv_name, _, gv_licence = graphviz_wheel()
    licences["graphviz-LICENSE.txt"] = gv_licence.encode()
    licences["README.txt"] = notice(versions, gv_name.split("-")[1], bundled).encode()
    files.update((f"licenses/{name}", data) for name, data in licences.items())
    return files


def _on_build_finished(app: Sphinx, exception: BaseException | None) -> None:
    """Make ``_static/runner`` hold exactly what this build ships.

    Sphinx has copied ``docs/_static/runner`` there: the sources that went into
    the bundle (its metafiles' inputs) go, the rest stays, and :func:`shipped_files`
    are written (runner.css among them, with the features' rules).  Anything else
    (an older build's chunk, wheel or Pyodide) is removed.
    """
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir) / RUNNER_DIR
    runner = _runner_bundle(app)
    bundled = set().union(*(metafile["inputs"] for metafile in runner.metafiles.values()))
    sources = (ROOT / SOURCES).iterdir()
    kept = {p.name for p in sources if (SOURCES / p.name).as_posix() not in bundled}
    files = shipped_files(app)
    for relative, data in files.items():
        _write(out / relative, data)
    for path in sorted(out.rglob("*"), reverse=True):
        relative = path.relative_to(out).as_posix()
        if path.is_file() and relative not in files and relative not in kept:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def _write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` unless it already holds exactly that."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_bytes() != data:
        path.write_bytes(data)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("browser_runner_node_modules", str(ROOT / "node_modules"), "env")
    app.add_config_value("browser_runner_wheels", [], "html", types=frozenset({list}))
    app.add_config_value("browser_runner_entries", "", "html", types=frozenset({str}))
    app.connect("config-inited", name_the_wheels)
    app.connect("config-inited", name_the_entries)
    app.connect("html-page-context", _ship_entries)
    app.connect("builder-inited", _on_builder_inited)
    app.connect("build-finished", _on_build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
