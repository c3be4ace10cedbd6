"""Sphinx extension: every page's code cells run and edit in the reader's browser.

The site ships its own Python: Pyodide (CPython compiled to WebAssembly), the
``micrograd`` package the site was built from (a wheel named after the source
hash), the pure-Python ``graphviz`` package that builds ``draw_dot`` and
``draw_mlp`` drawings, viz.js (Graphviz compiled to WebAssembly) to lay the
drawings out, and marked to show Markdown outputs.  ``runner/runner.js``
(``docs/_static/runner/``) adds a Run button to each code cell; nothing is
fetched until the first click.  Cells tagged ``build-only`` (they need NumPy,
matplotlib, PyTorch or the build machine) keep their build-time output and
get a one-line note instead.

At build time the extension

* checks that ``npm ci`` installed the versions ``package-lock.json`` pins
  (``nox -s docs`` runs it), and copies Pyodide, viz.js and marked, with
  their licence texts, into ``_static/runner/``;
* packs ``src/micrograd`` and the installed ``graphviz`` package into wheels
  with fixed timestamps, so two builds give the same bytes;
* gives the notebook kernel an IPython startup file that records each
  graphviz drawing's DOT source next to its SVG (``text/vnd.graphviz``), so
  the browser tests can compare the drawings the reader's browser makes with
  the build's.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import importlib.metadata
import io
import json
import os
import shutil
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent
ROOT = DOCS.parent

#: The cell tag that keeps a cell out of the browser (it runs at build time only).
BUILD_ONLY_TAG = "build-only"
#: Where in the built site the runtime goes (under _static, next to runner.js).
RUNNER_DIR = Path("_static") / "runner"
#: A zip entry's timestamp: the earliest a zip can hold, the same in every build.
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
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
#: The kernel's startup file (see module docstring); its hash keys the execution cache.
KERNEL_STARTUP = HERE / "record_dot.py"


def _startup_digest() -> str:
    return hashlib.sha256(KERNEL_STARTUP.read_bytes()).hexdigest()[:12]


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


# -- wheels with fixed bytes --------------------------------------------------------------------


def _zip(entries: Iterable[tuple[str, bytes]]) -> bytes:
    """A zip of ``(name, data)`` entries in name order, with fixed dates and modes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3  # Unix, whatever builds it
            archive.writestr(info, data, compresslevel=9)
    return buffer.getvalue()


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def wheel(distribution: str, version: str, files: dict[str, bytes], metadata: str) -> bytes:
    """A pure-Python wheel: ``files`` plus the ``.dist-info`` a wheel needs, fixed bytes."""
    info = f"{distribution.replace('-', '_')}-{version}.dist-info"
    entries = dict(files)
    entries[f"{info}/METADATA"] = metadata.encode()
    entries[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: micrograd-book docs\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n"
    )
    record = [_record_line(name, data) for name, data in sorted(entries.items())]
    entries[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    return _zip(entries.items())


def package_files(folder: Path, prefix: str) -> dict[str, bytes]:
    """The ``.py`` files and ``py.typed`` of a package folder, keyed by their path in a wheel."""
    return {
        f"{prefix}/{path.relative_to(folder).as_posix()}": path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
        and "__pycache__" not in path.parts
        and (path.suffix == ".py" or path.name == "py.typed")
    }


def micrograd_wheel(source: Path, version: str, source_hash: str) -> tuple[str, bytes]:
    """The wheel of ``src/micrograd`` (file name, bytes); its version carries the source hash."""
    full_version = f"{version}+{source_hash}"
    metadata = (
        f"Metadata-Version: 2.1\nName: micrograd-book\nVersion: {full_version}\n"
        "Summary: micrograd, as the docs site was built from it\nLicense: MIT\n"
    )
    data = wheel("micrograd-book", full_version, package_files(source, "micrograd"), metadata)
    return f"micrograd_book-{full_version}-py3-none-any.whl", data


@functools.cache  # the installed package does not change during a build
def graphviz_wheel() -> tuple[str, bytes, str]:
    """The installed ``graphviz`` package as a wheel: (file name, bytes, licence text)."""
    try:
        dist = importlib.metadata.distribution("graphviz")
        import graphviz
    except (importlib.metadata.PackageNotFoundError, ImportError) as error:
        raise ExtensionError(
            "the in-browser runner ships the `graphviz` Python package: "
            'pip install "micrograd-book[draw]"'
        ) from error
    version = dist.version
    licence = next(
        (
            f.read_text(encoding="utf-8")
            for f in dist.files or []
            if f.name.upper().startswith(("LICENSE", "COPYING"))
        ),
        "",
    )
    if not licence:
        raise ExtensionError(f"graphviz {version}: no licence file in its distribution")
    metadata = dist.read_text("METADATA") or ""
    files = package_files(Path(graphviz.__file__).parent, "graphviz")
    files[f"graphviz-{version}.dist-info/licenses/LICENSE.txt"] = licence.encode()
    return (
        f"graphviz-{version}-py3-none-any.whl",
        wheel("graphviz", version, files, metadata),
        licence,
    )


# -- build hooks ------------------------------------------------------------------------------


def _on_config_inited(app: Sphinx, config: Any) -> None:
    # Outputs now include each drawing's DOT, so the execution cache gets its own
    # folder per version of the startup file (old caches lack the DOT).
    config.nb_execution_cache_path = str(
        Path(config.nb_execution_cache_path) / f"record-dot-{_startup_digest()}"
    )
    config.browser_runner_kernel_startup = _startup_digest()


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


_WHEELS: dict[str, dict[str, bytes]] = {}


def _runtime_wheels(app: Sphinx) -> dict[str, bytes]:
    """File name -> bytes of the micrograd and graphviz wheels (made once per source hash)."""
    key = app.config.micrograd_source_hash
    if key not in _WHEELS:
        import micrograd

        source = Path(micrograd.__file__).resolve().parent
        mg_name, mg_data = micrograd_wheel(source, micrograd.__version__, key)
        gv_name, gv_data, _ = graphviz_wheel()
        _WHEELS[key] = {mg_name: mg_data, gv_name: gv_data}
    return _WHEELS[key]


def _download_bytes(app: Sphinx, packages: dict[str, tuple[str, Path]]) -> int:
    """What the first Run fetches: the npm files, the wheels and the worker's own files."""
    npm = sum(
        (folder / relative).stat().st_size
        for name, (_, folder) in packages.items()
        for relative in NPM_FILES[name]
    )
    wheels = sum(len(data) for data in _runtime_wheels(app).values())
    own = DOCS / "_static" / "runner"
    runner = sum((own / name).stat().st_size for name in ("worker.js", "kernel.py"))
    return npm + wheels + runner


def _on_builder_inited(app: Sphinx) -> None:
    """Add runner.js to every page, and give the kernel the DOT-recording startup file."""
    profile = Path(app.doctreedir) / "ipython" / "profile_default" / "startup"
    profile.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(KERNEL_STARTUP, profile / KERNEL_STARTUP.name)
    # The kernel that myst-nb starts inherits this environment.
    os.environ["IPYTHONDIR"] = str(profile.parent.parent)
    if app.builder.format != "html":
        return
    packages = _packages(app)
    app.add_js_file(
        "runner/runner.js",
        loading_method="defer",
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


def _on_env_updated(app: Sphinx, env: Any) -> None:
    """Give ``jupyter_execute/<page>.ipynb`` the outputs the kernel made, as the cache holds them.

    myst-nb (1.4) writes that notebook as it was *before* the cache's outputs
    were merged into it, so on a rebuild it has none.  The browser tests and
    the notebook download offered on each page read this file, so every
    notebook the cache knows is given the cache's outputs (the kernel's own
    messages, however they were split; see also printed_text.py), and written
    again where that changes it.
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


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("browser_runner_node_modules", str(ROOT / "node_modules"), "env")
    # The kernel's startup file changes what pages output: re-read them all when it does.
    app.add_config_value("browser_runner_kernel_startup", "", "env")
    app.connect("config-inited", _on_config_inited)
    app.connect("builder-inited", _on_builder_inited)
    app.connect("env-updated", _on_env_updated)
    app.connect("build-finished", _on_build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
