"""Sphinx extension: the runtime that runs every page's code cells in the reader's browser.

The site ships its own Python: Pyodide (CPython compiled to WebAssembly), the
``micrograd`` package the site was built from and the pure-Python ``graphviz``
package (wheels: runtime_wheels.py), viz.js (Graphviz compiled to
WebAssembly) to lay drawings out, and marked to show Markdown outputs.
``runner/runner.js`` (``docs/_static/runner/``, ES modules) adds a Run button
to each code cell; nothing of the runtime is fetched until the first click.
Cells tagged ``build-only`` (they need NumPy, matplotlib, PyTorch or the
build machine) keep their build-time output and get a one-line note instead.

At build time the extension

* checks that ``npm ci`` installed the versions ``package-lock.json`` pins
  (``nox -s docs`` runs it), and copies Pyodide, viz.js and marked, with
  their licence texts, into ``_static/runner/``;
* puts the two wheels there, and adds runner.js to every page with the
  runtime's paths and the size of its first download.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from runtime_wheels import graphviz_wheel, runtime_wheels
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent
ROOT = DOCS.parent

#: The cell tag that keeps a cell out of the browser (it runs at build time only).
BUILD_ONLY_TAG = "build-only"
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
}


# -- npm packages ---------------------------------------------------------------------------------


def _locked_versions(lock_file: Path) -> dict[str, str]:
    """Package name -> version, for the packages ``package-lock.json`` pins."""
    lock = json.loads(lock_file.read_text(encoding="utf-8"))
    prefix = "node_modules/"
    return {
        path[len(prefix) :]: entry["version"]
        for path, entry in lock.get("packages", {}).items()
        if path.startswith(prefix) and path[len(prefix) :] in NPM_FILES
    }


def npm_packages(node_modules: Path, lock_file: Path) -> dict[str, tuple[str, Path]]:
    """Name -> (version, folder) of each npm package the site ships, checked against the lock.

    Raises
    ------
    ExtensionError
        If a package is missing or its installed version is not the locked one.
    """
    locked = _locked_versions(lock_file)
    found: dict[str, tuple[str, Path]] = {}
    for name in NPM_FILES:
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
    return found


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
graphviz-{graphviz_version}-py3-none-any.whl
            the graphviz Python package, MIT License (graphviz-LICENSE.txt).
micrograd_book-*.whl
            this site's own package, built from src/micrograd, MIT License.
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


def _download_bytes(app: Sphinx, packages: dict[str, tuple[str, Path]]) -> int:
    """What the first Run fetches: the npm files, the wheels and the worker's own files."""
    npm = sum(
        (folder / relative).stat().st_size
        for name, (_, folder) in packages.items()
        for relative in NPM_FILES[name]
    )
    wheels = sum(len(data) for data in _runtime_wheels(app).values())
    own = DOCS / "_static" / "runner"
    runner = sum((own / name).stat().st_size for name in ("worker.js", "layouts.js", "kernel.py"))
    return npm + wheels + runner


def _on_builder_inited(app: Sphinx) -> None:
    """Add runner.js (an ES module) to every page, with what it needs to know."""
    if app.builder.format != "html":
        return
    packages = _packages(app)
    app.add_js_file(
        "runner/runner.js",
        type="module",
        id="micrograd-runner",
        **{
            "data-pyodide": _npm_dir("pyodide", packages["pyodide"][0]) + "/",
            "data-viz": _npm_dir("@viz-js/viz", packages["@viz-js/viz"][0]) + "/viz.js",
            "data-marked": _npm_dir("marked", packages["marked"][0]) + "/marked.esm.js",
            "data-wheels": " ".join(_runtime_wheels(app)),
            "data-download-bytes": str(_download_bytes(app, packages)),
            "data-build-only-tag": BUILD_ONLY_TAG,
        },
    )
    app.add_css_file("runner/runner.css")


def _on_build_finished(app: Sphinx, exception: BaseException | None) -> None:
    """Put the runtime, the two wheels and the licences into ``_static/runner``."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir) / RUNNER_DIR
    packages = _packages(app)
    versions = {name: version for name, (version, _) in packages.items()}
    for name, (version, folder) in packages.items():
        for relative in NPM_FILES[name]:
            _write(
                out / _npm_dir(name, version) / Path(relative).name,
                (folder / relative).read_bytes(),
            )
    # Pyodide's lock file lists packages this site does not ship: with an empty
    # list Pyodide neither offers nor tries to fetch any of them.
    pyodide_lock = packages["pyodide"][1] / "pyodide-lock.json"
    info = json.loads(pyodide_lock.read_text(encoding="utf-8"))["info"]
    versions["python"] = info.get("python", "?")
    _write(
        out / _npm_dir("pyodide", versions["pyodide"]) / "pyodide-lock.json",
        (json.dumps({"info": info, "packages": {}}, indent=1, sort_keys=True) + "\n").encode(),
    )
    wheels = _runtime_wheels(app)
    for name, data in wheels.items():
        _write(out / name, data)
    # An output folder reused across builds keeps what older builds put there:
    # the wheel of an older source, an older Pyodide.  Only this build's stay.
    current = {_npm_dir(name, version) for name, version in versions.items() if name in NPM_FILES}
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
    licences = out / "licenses"
    for name in ("MPL-2.0.txt", "viz.js-LICENSE.txt"):
        _write(licences / name, (HERE / "licenses" / name).read_bytes())
    _write(licences / "marked-LICENSE.md", (packages["marked"][1] / "LICENSE").read_bytes())
    gv_name, _, gv_licence = graphviz_wheel()
    _write(licences / "graphviz-LICENSE.txt", gv_licence.encode())
    _write(licences / "README.txt", _licence_notice(versions, gv_name.split("-")[1]).encode())


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("browser_runner_node_modules", str(ROOT / "node_modules"), "env")
    app.connect("builder-inited", _on_builder_inited)
    app.connect("build-finished", _on_build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
