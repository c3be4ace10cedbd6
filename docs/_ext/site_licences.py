"""The licences of the third-party software the site ships to run its pages in the browser.

Two kinds, each found its own way:

* the files shipped as they are (Pyodide, viz.js, marked, d3, Observable Plot,
  the graphviz wheel): each is named here, with what its licence says and
  which other packages its prebuilt file holds (:data:`AS_SHIPPED`, :func:`notice`);
* the npm packages esbuild put into the runner's bundles: whatever the
  bundle's metafile names (bundle.bundled_packages), each with the licence
  text of its package and the licence its package.json declares.

The result is the folder ``_static/runner/licenses/``: a README.txt that lists
everything, and each licence text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


class LicenceError(RuntimeError):
    """An npm package the site ships has no licence text."""


@dataclass(frozen=True)
class NpmLicence:
    """An npm package's version, declared licence and licence text."""

    name: str
    version: str
    licence: str
    text: bytes

    @property
    def file_name(self) -> str:
        """Its licence text's name in licenses/: ``codemirror-view-LICENSE.txt``."""
        return f"{self.name.lstrip('@').replace('/', '-')}-LICENSE.txt"


def licence_file(folder: Path) -> Path:
    """An npm package's licence text (its LICENSE or LICENCE file).

    Raises
    ------
    LicenceError
        If the package has none.
    """
    for path in sorted(folder.iterdir()):
        if path.name.upper().startswith(("LICENSE", "LICENCE")):
            return path
    raise LicenceError(f"npm package {folder}: no licence file")


def npm_licence(node_modules: Path, name: str) -> NpmLicence:
    """What ``node_modules`` holds of npm package ``name``'s licence."""
    folder = node_modules / name
    manifest = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    text = licence_file(folder).read_bytes()
    return NpmLicence(name, manifest["version"], str(manifest.get("license", "?")), text)


def bundled_licences(names: set[str], node_modules: Path) -> list[NpmLicence]:
    """The licences of the bundled npm packages ``names``, by name."""
    return [npm_licence(node_modules, name) for name in sorted(names)]


def notice(versions: dict[str, str], graphviz_version: str, bundled: list[NpmLicence]) -> str:
    """licenses/README.txt: what third-party software the runner's folder holds, and its terms.

    ``versions``: the version of each package shipped as it is (and ``python``,
    Pyodide's CPython); ``bundled``: the packages in the bundles.
    """
    lines = [
        f"{entry.name} {entry.version}, {entry.licence} ({entry.file_name})" for entry in bundled
    ]
    in_bundles = "\n".join(f"            {line}" for line in lines) or "            (none)"
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
*.js        the runner's own code (MIT License) and, bundled into it by esbuild, these
            npm packages (each licence text under the name in brackets):
{in_bundles}
graphviz-{graphviz_version}-py3-none-any.whl
            the graphviz Python package, MIT License (graphviz-LICENSE.txt).
micrograd_book-*.whl
            this site's own package, built from src/micrograd, MIT License.
micrograd_book_runtime-*.whl
            the book's runtime, its kernel in the browser and its checks of the
            reader's own micrograd (docs/_runtime), MIT License.
"""


#: Packages that a file shipped as it is has bundled inside it: their licences ship too.
INSIDE = {"@observablehq/plot": ("interval-tree-1d", "binary-search-bounds", "isoformat")}


def as_shipped_licences(node_modules: Path) -> dict[str, bytes]:
    """The licence texts of the files shipped as they are, by their name in licenses/."""
    texts = {
        name: (HERE / "licenses" / name).read_bytes()
        for name in ("MPL-2.0.txt", "viz.js-LICENSE.txt")
    }
    texts["marked-LICENSE.md"] = (node_modules / "marked" / "LICENSE").read_bytes()
    for name in ("d3", "@observablehq/plot"):
        for folder in [
            node_modules / name,
            *(node_modules / inner for inner in INSIDE.get(name, ())),
        ]:
            texts[f"{folder.name}-LICENSE.txt"] = licence_file(folder).read_bytes()
    return texts
