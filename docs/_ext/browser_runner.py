"""Sphinx extension: the runtime that runs every page's code cells in the reader's browser.

The site ships its own Python: Pyodide (CPython compiled to WebAssembly), the
``micrograd`` package the site was built from, the book's runtime
(``book_runtime``, docs/_runtime: the kernel the worker imports), the book's
checks and the pure-Python ``graphviz`` package (wheels: runtime_wheels.py),
viz.js (Graphviz compiled to WebAssembly) to lay drawings out, marked to show
Markdown outputs, Observable Plot (with d3, which it needs) to draw the charts
a cell shows in place of matplotlib's figures, and CodeMirror 6 for the cell
editor (ES modules, named in each notebook page's import map).
``runner/runner.js`` (``docs/_static/runner/``, ES modules) adds Run and Edit
buttons to each code cell; nothing of the runtime is fetched until the first
Run (nor of the editor until the first Edit or Run). Cells tagged
``build-only`` (they need NumPy, matplotlib, PyTorch or the build machine)
keep their build-time output and get a one-line note instead.

At build time the extension

* checks that ``npm ci`` installed the versions ``package-lock.json`` pins
  (``nox -s docs`` runs it), and copies Pyodide, viz.js, marked, d3,
  Observable Plot and CodeMirror, with their licence texts, into
  ``_static/runner/``;
* puts the wheels there, and adds runner.js to every page with the
  runtime's paths, the files starting Python fetches and their size (the
  runtime's cache keeps them; the status names the size), and the editor's
  import map to every page with code cells.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from book_runtime.output_kinds import output_kind
from executed_notebooks import executed_notebook
from executed_notebooks.scripts import BUILD_ONLY_TAG
from runtime_wheels import graphviz_wheel, runtime_wheels
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent
ROOT = DOCS.parent

#: The MIME types the book's kernels show what the page draws itself under (by what they
#: are: chart, stepper, graphviz), from the one file that spells them, which the page
#: and the worker read too.
MIME_TYPES: dict[str, str] = json.loads(
    (DOCS / "_static" / "runner" / "mime_types.json").read_text(encoding="utf-8")
)
#: Where in the built site the runtime goes (under _static, next to runner.js).
RUNNER_DIR = Path("_static") / "runner"
#: The files of the npm packages that the site needs, by package.
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
#: Packages that a shipped file has bundled inside it: their licences ship too.
BUNDLED = {"@observablehq/plot": ("interval-tree-1d", "binary-search-bounds", "isoformat")}
#: What the cell editor (editor.js) imports: CodeMirror 6.  These packages and
#: every package they import are shipped, one ES module file each, and named in
#: every notebook page's import map.
EDITOR_IMPORTS = (
    "@codemirror/commands",
    "@codemirror/lang-python",
    "@codemirror/language",
    "@codemirror/state",
    "@codemirror/view",
    "@lezer/highlight",
)
#: An import (or re-export) statement's package: ``import {a} from "name";``,
#: ``import "name";`` (a statement starts a line; a relative path is no package).
_PACKAGE_IMPORT = re.compile(
    r"""^(?:import|export)\b(?:[^;'"]*?\bfrom)?\s*['"]((?:@[\w.-]+/)?\w[\w.-]*)['"]""", re.M
)
#: The runner's ES modules where loading starts: the page's (runner.js, with the page),
#: the worker's, and the runtime cache's service worker (session.js registers it).
PAGE_ENTRY = "runner.js"
WORKER_ENTRIES = ("worker.js", "runtime-cache.js")
#: Page modules a page with exercises loads with itself (runner.js imports them when
#: the page has a ``#micrograd-track``): never part of what a first Run fetches.
WITH_TRACK_PAGE = frozenset({"exercises.js"})
#: A relative module a runner's module imports, statically or not: ``"./queue.js"``.
_RELATIVE_MODULE = re.compile(r"""["']\./([\w-]+\.(?:js|json))["']""")
#: A static import (or re-export) of a relative module, at the start of a line.
_STATIC_IMPORT = re.compile(
    r"""^(?:import|export)\b(?:[^;'"]*?\bfrom)?\s*["']\./([\w-]+\.(?:js|json))["']""", re.M
)
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


def npm_packages(node_modules: Path, lock_file: Path) -> dict[str, tuple[str, Path]]:
    """Name -> (version, folder) of each npm package the site ships, checked against the lock.

    The packages of NPM_FILES, and the editor's: EDITOR_IMPORTS and all they import.

    Raises
    ------
    ExtensionError
        If a package is missing or its installed version is not the locked one.
    """
    locked = _locked_versions(lock_file)
    found: dict[str, tuple[str, Path]] = {}
    wanted = [*NPM_FILES, *EDITOR_IMPORTS]
    while wanted:
        name = wanted.pop(0)
        if name in found:
            continue
        folder = node_modules / name
        manifest = folder / "package.json"
        installed = (
            json.loads(manifest.read_text(encoding="utf-8"))["version"]
            if manifest.is_file()
            else None
        )
        if name not in locked or installed != locked[name]:
            raise ExtensionError(
                f"the in-browser runner needs npm package {name} {locked.get(name, '?')} "
                f"(package-lock.json) in {node_modules}, found {installed or 'nothing'}: "
                f"run `npm ci` in {lock_file.parent} (`python -m nox -s docs` does)"
            )
        found[name] = (installed, folder)
        if name not in NPM_FILES:
            wanted += _PACKAGE_IMPORT.findall(es_module_entry(folder).read_text(encoding="utf-8"))
    return found


def editor_packages(packages: dict[str, tuple[str, Path]]) -> list[str]:
    """The names of the editor's packages among ``packages``, sorted."""
    return sorted(name for name in packages if name not in NPM_FILES)


def es_module_entry(folder: Path) -> Path:
    """The ES module an npm package offers for ``import "name"``: ``module``, or ``main``.

    Raises
    ------
    ExtensionError
        If the package names no ES module.
    """
    manifest = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    exports = manifest.get("exports", {})
    exported = exports.get(".", exports) if isinstance(exports, dict) else {}
    candidates = [
        manifest.get("module"),
        exported.get("import") if isinstance(exported, dict) else None,
        manifest.get("main") if manifest.get("type") == "module" else None,
    ]
    for candidate in candidates:
        if isinstance(candidate, str) and (folder / candidate).is_file():
            return folder / candidate
    raise ExtensionError(f"npm package {folder.name}: no ES module to ship (package.json)")


def editor_file(name: str, version: str) -> str:
    """Where an editor module goes in the site: ``editor/codemirror-view-6.43.15.js``."""
    return f"editor/{name.lstrip('@').replace('/', '-')}-{version}.js"


# -- build hooks ------------------------------------------------------------------------------


def _licence_notice(versions: dict[str, str], graphviz_version: str) -> str:
    return f"""\
Third-party software in this folder: it runs the pages' code in the reader's browser.

pyodide-*/  Pyodide {versions["pyodide"]}: CPython {versions["python"]} and its standard
            library compiled to WebAssembly. Mozilla Public License 2.0 (MPL-2.0.txt).
            CPython is under the PSF License Agreement (https://docs.python.org/3/license.html).
            Source: https://github.com/pyodide/pyodide
viz-*/      viz.js {versions["@viz-js/viz"]} (npm @viz-js/viz), MIT License
            (viz.js-LICENSE.txt); it contains Graphviz (Eclipse Public License,
            https://graphviz.org/license/) and Expat (MIT License) in object code form.
marked-*/   marked {versions["marked"]}, MIT License (marked-LICENSE.md).
d3-*/       d3 {versions["d3"]}, ISC License (d3-LICENSE.txt).
plot-*/     Observable Plot {versions["@observablehq/plot"]} (npm @observablehq/plot),
            ISC License (plot-LICENSE.txt); its bundle contains interval-tree-1d and
            binary-search-bounds (MIT License) and isoformat (ISC License), each with
            its licence in <name>-LICENSE.txt.
editor/     CodeMirror 6 (npm @codemirror/*, @lezer/*, and crelt, style-mod, w3c-keyname,
            @marijn/find-cluster-break), the cell editor, one file per package, each
            under the MIT License (licenses/<file name>-LICENSE.txt).
graphviz-{graphviz_version}-py3-none-any.whl
            the graphviz Python package, MIT License (graphviz-LICENSE.txt).
micrograd_book-*.whl
            this site's own package, built from src/micrograd, MIT License.
micrograd_book_runtime-*.whl
            the book's runtime, its kernel in the browser (docs/_runtime), MIT License.
micrograd_book_checks-*.whl
            the book's checks of the reader's own micrograd (docs/_checks), MIT License.
"""


def _write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` unless it already holds exactly that."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_bytes() != data:
        path.write_bytes(data)


def _npm_base(name: str) -> str:
    """An npm package's name without its scope: ``@viz-js/viz`` -> ``viz``."""
    return name.split("/")[-1]


def _npm_dir(name: str, version: str) -> str:
    """The folder of an npm package in the site: ``pyodide-314.0.7``, ``viz-3.31.0``."""
    return f"{_npm_base(name)}-{version}"


def _packages(app: Sphinx) -> dict[str, tuple[str, Path]]:
    return npm_packages(Path(app.config.browser_runner_node_modules), ROOT / "package-lock.json")


def _runtime_wheels(app: Sphinx) -> dict[str, bytes]:
    return runtime_wheels(app.config.micrograd_source_hash)


def _pyodide_lock(pyodide_folder: Path) -> tuple[bytes, str]:
    """The site's ``pyodide-lock.json`` (no packages) and the Python version it names.

    Pyodide's lock file lists packages this site does not ship: with an empty
    list Pyodide neither offers nor tries to fetch any of them.
    """
    lock = json.loads((pyodide_folder / "pyodide-lock.json").read_text(encoding="utf-8"))
    info = lock["info"]
    data = (json.dumps({"info": info, "packages": {}}, indent=1, sort_keys=True) + "\n").encode()
    return data, str(info.get("python", "?"))


def runner_modules(entries: tuple[str, ...], static_only: bool) -> set[str]:
    """The runner's files (names in docs/_static/runner) that loading ``entries`` loads.

    Follows every relative import, the dynamic ones too (``import("./editor.js")``
    and the module names runner.js lists), unless ``static_only``.
    """
    own = DOCS / "_static" / "runner"
    found: set[str] = set()
    todo = list(entries)
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        if name.endswith(".js"):
            text = (own / name).read_text(encoding="utf-8")
            if static_only:
                todo += _STATIC_IMPORT.findall(text)
            else:
                todo += _RELATIVE_MODULE.findall(text)
    return found


def _sizes(app: Sphinx, packages: dict[str, tuple[str, Path]]) -> dict[str, dict[str, int]]:
    """What a first Run fetches, by part: path in the runner's folder -> size in bytes.

    ``python``: starting Python (the worker's files, the runtime cache's service
    worker, Pyodide and its lock file, the wheels); ``run``: the page's run
    machinery (the modules the page loads at the first Run, not with itself)
    and the cell editor; and one part per kind of output (:data:`EXTRA_PACKAGES`),
    fetched with the first output of that kind.
    """
    version, folder = packages["pyodide"]
    pyodide = _npm_dir("pyodide", version)
    own = DOCS / "_static" / "runner"
    worker_side = runner_modules(WORKER_ENTRIES, static_only=False)
    python = {name: (own / name).stat().st_size for name in worker_side}
    for relative in NPM_FILES["pyodide"]:
        python[f"{pyodide}/{Path(relative).name}"] = (folder / relative).stat().st_size
    python[f"{pyodide}/pyodide-lock.json"] = len(_pyodide_lock(folder)[0])
    python.update((name, len(data)) for name, data in _runtime_wheels(app).items())
    with_page = runner_modules((PAGE_ENTRY,), static_only=True)
    at_first_run = runner_modules((PAGE_ENTRY,), static_only=False) - with_page - WITH_TRACK_PAGE
    run = {name: (own / name).stat().st_size for name in at_first_run}
    for name in editor_packages(packages):
        version, folder = packages[name]
        run[editor_file(name, version)] = es_module_entry(folder).stat().st_size
    parts = {"python": python, "run": run}
    for kind, names in EXTRA_PACKAGES.items():
        parts[kind] = {
            f"{_npm_dir(name, packages[name][0])}/{Path(relative).name}": (
                packages[name][1] / relative
            )
            .stat()
            .st_size
            for name in names
            for relative in NPM_FILES[name]
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


def first_run_bytes(app: Sphinx, kinds: list[set[str]]) -> list[int]:
    """For each code cell, what a first Run on it fetches, in bytes.

    ``kinds[k]`` is what kinds of output cell ``k`` makes (:func:`output_kinds`;
    an empty set for a cell that does not run in the browser).  A first Run on
    cell ``k`` starts Python, loads the run machinery and the editor, and runs
    the cells above ``k`` and ``k`` itself (and the hidden cells right after it,
    which make no outputs the page shows): whatever their outputs need comes too.
    """
    parts = _sizes(app, _packages(app))
    totals = []
    seen = {"python", "run"}
    for cell_kinds in kinds:
        seen |= cell_kinds
        # A file both sides load (protocol.js, say) is fetched, and counted, once.
        files = {path: size for part in sorted(seen) for path, size in parts[part].items()}
        totals.append(sum(files.values()))
    return totals


def _on_builder_inited(app: Sphinx) -> None:
    """Add runner.js (an ES module) to every page, with what it needs to know."""
    if app.builder.format != "html":
        return
    packages = _packages(app)
    start = _sizes(app, packages)["python"]
    app.add_js_file(
        "runner/runner.js",
        type="module",
        id="micrograd-runner",
        **{
            "data-pyodide": _npm_dir("pyodide", packages["pyodide"][0]) + "/",
            "data-viz": _npm_dir("@viz-js/viz", packages["@viz-js/viz"][0]) + "/viz.js",
            "data-marked": _npm_dir("marked", packages["marked"][0]) + "/marked.esm.js",
            "data-d3": _npm_dir("d3", packages["d3"][0]) + "/d3.min.js",
            "data-plot": _npm_dir("@observablehq/plot", packages["@observablehq/plot"][0])
            + "/plot.umd.min.js",
            "data-wheels": " ".join(_runtime_wheels(app)),
            "data-start-files": " ".join(sorted(start)),
            "data-build-only-tag": BUILD_ONLY_TAG,
        },
    )
    app.add_css_file("runner/runner.css")


def _add_import_map(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """A page with code cells gets the import map through which the editor's modules load."""
    if app.builder.format != "html" or executed_notebook(app, pagename) is None:
        return
    packages = _packages(app)

    def url(name: str) -> str:
        path = context["pathto"](
            f"{RUNNER_DIR.as_posix()}/{editor_file(name, packages[name][0])}", 1
        )
        # An import map's address must start with "./", "../" or "/" (or be absolute).
        return path if path.startswith(("./", "../", "/")) else f"./{path}"

    imports = {name: url(name) for name in editor_packages(packages)}
    # Before any module script: an import map must come first.
    app.add_js_file(None, type="importmap", body=json.dumps({"imports": imports}), priority=100)


def _on_build_finished(app: Sphinx, exception: BaseException | None) -> None:
    """Put the runtime, the wheels and the licences into ``_static/runner``."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir) / RUNNER_DIR
    packages = _packages(app)
    versions = {name: version for name, (version, _) in packages.items()}
    for name, (version, folder) in packages.items():
        for relative in NPM_FILES.get(name, ()):
            _write(
                out / _npm_dir(name, version) / Path(relative).name,
                (folder / relative).read_bytes(),
            )
    lock, versions["python"] = _pyodide_lock(packages["pyodide"][1])
    _write(out / _npm_dir("pyodide", versions["pyodide"]) / "pyodide-lock.json", lock)
    for name in editor_packages(packages):
        version, folder = packages[name]
        shipped_as = editor_file(name, version)
        _write(out / shipped_as, es_module_entry(folder).read_bytes())
        licence = out / "licenses" / f"{Path(shipped_as).stem}-LICENSE.txt"
        _write(licence, _licence_file(folder).read_bytes())
    wheels = _runtime_wheels(app)
    for name, data in wheels.items():
        _write(out / name, data)
    # An output folder reused across builds keeps what older builds put there:
    # the wheel of an older source, an older Pyodide.  Only this build's stay.
    current = {_npm_dir(name, version) for name, version in versions.items() if name in NPM_FILES}
    editor = {Path(editor_file(name, versions[name])).name for name in editor_packages(packages)}
    shipped = {_npm_base(name) for name in NPM_FILES}
    for path in sorted(out.iterdir()):
        stale_wheel = path.suffix == ".whl" and path.name not in wheels
        stale_npm = (
            path.is_dir() and path.name.rsplit("-", 1)[0] in shipped and path.name not in current
        )
        if stale_wheel:
            path.unlink()
        elif stale_npm:
            shutil.rmtree(path)
    for path in sorted((out / "editor").iterdir()):
        if path.name not in editor:
            path.unlink()
    licences = out / "licenses"
    for name in ("MPL-2.0.txt", "viz.js-LICENSE.txt"):
        _write(licences / name, (HERE / "licenses" / name).read_bytes())
    _write(licences / "marked-LICENSE.md", (packages["marked"][1] / "LICENSE").read_bytes())
    node_modules = Path(app.config.browser_runner_node_modules)
    for name in ("d3", "@observablehq/plot"):
        folders = [packages[name][1], *(node_modules / inner for inner in BUNDLED.get(name, ()))]
        for folder in folders:
            _write(licences / f"{folder.name}-LICENSE.txt", _licence_file(folder).read_bytes())
    gv_name, _, gv_licence = graphviz_wheel()
    _write(licences / "graphviz-LICENSE.txt", gv_licence.encode())
    _write(licences / "README.txt", _licence_notice(versions, gv_name.split("-")[1]).encode())


def _licence_file(folder: Path) -> Path:
    """An npm package's licence text.

    Raises
    ------
    ExtensionError
        If the package has none.
    """
    for path in sorted(folder.iterdir()):
        if path.name.upper().startswith(("LICENSE", "LICENCE")):
            return path
    raise ExtensionError(f"npm package {folder}: no licence file")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("browser_runner_node_modules", str(ROOT / "node_modules"), "env")
    app.connect("builder-inited", _on_builder_inited)
    app.connect("html-page-context", _add_import_map)
    app.connect("build-finished", _on_build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
