"""The runner's JavaScript as the site ships it: bundled by esbuild, with a metafile.

esbuild (a devDependency that package-lock.json pins; its binary comes in the npm
package ``@esbuild/<platform>-<cpu>``, so ``npm ci --ignore-scripts`` is enough)
is run as a program, not through Node: the docs build needs no ``node`` on
``PATH``.  Two builds, each given as esbuild's command-line options (:data:`BUILDS`):

* ``page``: ``runner.js`` and everything it imports, as ES modules split into
  chunks.  What ``runner.js`` imports statically loads with the page; what it
  imports with ``import()`` (the run machinery, the add-ons, the editor and its
  CodeMirror packages, the exercises) is in chunks of its own, fetched only when
  a reader first runs or edits a cell.
* ``worker``: ``worker.js`` (a module worker) and ``runtime-cache.js`` (the
  service worker, a classic script: it may import nothing), each one file.

Every file esbuild writes is named after its content (``queue-3KXQ2B7Z.js``),
but the entry points, which the pages and ``python.js`` name.  The output is
the same bytes on every machine: paths are relative to the repository, there
is no source map, and the code is minified (names kept: ``--keep-names``).

The metafile says which source files went into which output, and so which npm
packages the site ships inside its bundles (:func:`bundled_packages`): their
licences ship with them.
"""

from __future__ import annotations

import hashlib
import json
import platform
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
#: The runner's sources, as esbuild is given them: relative to the repository.
SOURCES = Path("docs") / "_static" / "runner"
#: esbuild's options common to both builds.
COMMON = ("--bundle", "--format=esm", "--minify", "--keep-names", "--charset=utf8")
#: Each build: its entry points (in SOURCES) and its own options.
BUILDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "page": (("runner.js",), ("--splitting", "--chunk-names=[name]-[hash]")),
    "worker": (("worker.js", "runtime-cache.js"), ()),
}
#: What ``npm`` calls this machine, by what Python calls it: the esbuild package for it.
_PLATFORMS = {
    ("Linux", "x86_64"): "linux-x64",
    ("Linux", "aarch64"): "linux-arm64",
    ("Darwin", "x86_64"): "darwin-x64",
    ("Darwin", "arm64"): "darwin-arm64",
    ("Windows", "AMD64"): "win32-x64",
}


class BundleError(RuntimeError):
    """esbuild is missing or failed."""


@dataclass(frozen=True)
class Bundle:
    """What :func:`bundle` made: the folder of the files to ship, and each build's metafile."""

    files: Path
    metafiles: dict[str, dict[str, Any]]


def esbuild_binary(node_modules: Path) -> Path:
    """The esbuild program that ``npm ci`` installed for this machine.

    Raises
    ------
    BundleError
        If there is none (``npm ci`` has not run, or not on this kind of machine).
    """
    name = _PLATFORMS.get((platform.system(), platform.machine()), "unknown")
    folder = node_modules / "@esbuild" / name
    binary = folder / "esbuild.exe" if name.startswith("win32") else folder / "bin" / "esbuild"
    if not binary.is_file():
        raise BundleError(
            f"no esbuild for {name} in {node_modules}: run `npm ci --ignore-scripts` in "
            f"{node_modules.parent} (`python -m nox -s docs` does)"
        )
    return binary


def _fingerprint(binary: Path, metafiles: dict[str, dict[str, Any]]) -> str:
    """A digest of the esbuild program, the options and every input a previous bundle read."""
    digest = hashlib.sha256(binary.read_bytes())
    digest.update(json.dumps([COMMON, BUILDS]).encode())
    for metafile in metafiles.values():
        for path in sorted(metafile["inputs"]):
            source = ROOT / path
            digest.update(path.encode() + b"\0")
            digest.update(source.read_bytes() if source.is_file() else b"(gone)")
    return digest.hexdigest()


def _previous(work: Path, binary: Path) -> Bundle | None:
    """The bundle in ``work`` if none of its inputs changed since it was made."""
    stamp = work / "inputs.sha256"
    try:
        metafiles = {name: json.loads((work / f"{name}.meta.json").read_text()) for name in BUILDS}
        unchanged = stamp.read_text().strip() == _fingerprint(binary, metafiles)
    except (OSError, ValueError, KeyError):
        return None
    return Bundle(work / "files", metafiles) if unchanged else None


def bundle(node_modules: Path, work: Path) -> Bundle:
    """Bundle the runner's JavaScript into ``work``/files (and its metafiles into ``work``).

    Nothing is run when ``work`` holds a bundle of the same inputs.

    Raises
    ------
    BundleError
        If esbuild is missing or reports an error.
    """
    binary = esbuild_binary(node_modules)
    previous = _previous(work, binary)
    if previous is not None:
        return previous
    shutil.rmtree(work, ignore_errors=True)
    files = work / "files"
    metafiles = {}
    for name, (entries, options) in BUILDS.items():
        metafile = work / f"{name}.meta.json"
        command = [
            str(binary),
            *(str(SOURCES / entry) for entry in entries),
            *COMMON,
            *options,
            f"--outdir={files}",
            f"--metafile={metafile}",
            "--log-level=warning",
        ]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
        if done.returncode != 0 or done.stderr.strip():
            raise BundleError(f"esbuild ({name}): {done.stderr.strip() or done.returncode}")
        metafiles[name] = json.loads(metafile.read_text(encoding="utf-8"))
    (work / "inputs.sha256").write_text(_fingerprint(binary, metafiles) + "\n")
    return Bundle(files, metafiles)


# -- what the metafile says ------------------------------------------------------------------------


def _outputs(metafile: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The metafile's outputs by file name (esbuild keys them by a path from the build's folder)."""
    return {Path(path).name: output for path, output in metafile["outputs"].items()}


def loaded_files(
    metafile: dict[str, Any], entry: str, static_only: bool, skip: frozenset[str] = frozenset()
) -> set[str]:
    """The output files (names) that loading the output of source ``entry`` loads.

    Follows every import between outputs, the ``import()`` ones too unless
    ``static_only``, but not into the output of a source named in ``skip``.
    """
    outputs = _outputs(metafile)
    source = {name: Path(out.get("entryPoint", "")).name for name, out in outputs.items()}
    todo = [name for name, out in outputs.items() if source[name] == entry]
    found: set[str] = set()
    while todo:
        name = todo.pop()
        if name in found or source[name] in skip:
            continue
        found.add(name)
        for imported in outputs[name]["imports"]:
            if imported.get("external") or (static_only and imported["kind"] != "import-statement"):
                continue
            todo.append(Path(imported["path"]).name)
    return found


def sources_in(metafile: dict[str, Any], files: set[str]) -> set[str]:
    """The source files (paths from the repository) bundled into the output ``files``."""
    outputs = _outputs(metafile)
    return {path for name in files for path in outputs[name]["inputs"]}


def bundled_packages(metafile: dict[str, Any]) -> set[str]:
    """The npm packages (names) whose files went into the bundle.

    An input ``node_modules/@codemirror/view/dist/index.js`` is of ``@codemirror/view``;
    one of a package installed inside another's folder
    (``node_modules/a/node_modules/b/x.js``) is of ``b``.
    """
    names = set()
    for path in metafile["inputs"]:
        parts = Path(path).parts
        if "node_modules" not in parts:
            continue
        at = len(parts) - 1 - parts[::-1].index("node_modules")
        scoped = parts[at + 1].startswith("@")
        names.add("/".join(parts[at + 1 : at + 3 if scoped else at + 2]))
    return names
