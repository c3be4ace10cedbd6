"""The wheels the in-browser runner installs: micrograd, the book's runtime, graphviz.

Pyodide installs pure-Python wheels by unpacking them. The site ships three,
made here rather than by a build backend so that two builds give the same bytes
(fixed timestamps, modes and order): ``micrograd`` as the site was built from
it (``src/micrograd``, with the data files it ships; its version carries the
source hash, so a reader's browser never mixes an old wheel with a new page);
the book's runtime (``docs/_runtime/book_runtime``: the kernel the worker
imports and what it imports, and the runtime of each reader-facing feature,
``docs/_features/<name>``, as ``book_runtime.features``, without its Sphinx
directives: the track's with the checks of the "Build your own micrograd"
exercises, ``book_runtime.features.track.checks``, and each step's code files;
its version carries the hash of its files); and the installed pure-Python
``graphviz`` package, which builds ``draw_dot`` and ``draw_mlp`` drawings
(viz.js lays them out).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import importlib.metadata
import io
import re
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sphinx.errors import ExtensionError

#: A zip entry's timestamp: the earliest a zip can hold, the same in every build.
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


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


def wheel(
    distribution: str, version: str, files: dict[str, bytes], metadata: str
) -> tuple[str, bytes]:
    """A pure-Python wheel (file name, bytes): ``files`` plus the ``.dist-info`` a wheel
    needs, fixed bytes."""
    name = f"{distribution.replace('-', '_')}-{version}"
    info = f"{name}.dist-info"
    entries = dict(files)
    entries[f"{info}/METADATA"] = metadata.encode()
    entries[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: micrograd-book docs\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n"
    )
    record = [_record_line(name, data) for name, data in sorted(entries.items())]
    entries[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    return f"{name}-py3-none-any.whl", _zip(entries.items())


def book_wheel(
    distribution: str, version: str, files: dict[str, bytes], summary: str, requires: str = ""
) -> tuple[str, bytes]:
    """A wheel of the book's own (MIT, as the repository), its METADATA written from ``summary``
    and ``requires`` (the lines of :func:`requirements_metadata`, or none)."""
    metadata = (
        f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n"
        f"Summary: {summary}\nLicense: MIT\n{requires}"
    )
    return wheel(distribution, version, files, metadata)


#: A requirement of a project on itself with extras: ``micrograd-book[draw,plot]``.
_SELF = re.compile(r"(?P<name>[A-Za-z0-9._-]+)\[(?P<extras>[^\]]*)\]")


def _normal(name: str) -> str:
    """A distribution's name as PEP 503 compares names."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirements_metadata(pyproject: Path) -> str:
    """The METADATA lines that say what the project of ``pyproject`` needs, and its extras.

    ``Requires-Python``, its ``dependencies``, and each extra of
    ``[project.optional-dependencies]`` with what it needs; an extra that names
    the project's own extras (``examples = ["micrograd-book[all]", ...]``) gets
    what those need, spelled out, so that any installer reads it alike.
    """
    project = read_toml(pyproject)["project"]
    extras: dict[str, list[str]] = project.get("optional-dependencies", {})

    def needs(extra: str, seen: tuple[str, ...] = ()) -> list[str]:
        found: list[str] = []
        for requirement in extras[extra]:
            own = _SELF.fullmatch(requirement.strip())
            if own and _normal(own["name"]) == _normal(project["name"]):
                for other in own["extras"].split(","):
                    if other.strip() not in seen:
                        found += needs(other.strip(), (*seen, extra))
            else:
                found.append(requirement)
        return list(dict.fromkeys(found))

    lines = [f"Requires-Python: {project['requires-python']}"]
    lines += [f"Requires-Dist: {requirement}" for requirement in project.get("dependencies", [])]
    for extra in extras:
        lines.append(f"Provides-Extra: {extra}")
        for requirement in needs(extra):
            name, semicolon, marker = requirement.partition(";")
            when = f"({marker.strip()}) and " if semicolon else ""
            lines.append(f'Requires-Dist: {name.strip()}; {when}extra == "{extra}"')
    return "".join(f"{line}\n" for line in lines)


def package_files(folder: Path, prefix: str) -> dict[str, bytes]:
    """The ``.py`` files and ``py.typed`` of a package folder, keyed by their path in a wheel."""
    return {
        f"{prefix}/{path.relative_to(folder).as_posix()}": path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
        and "__pycache__" not in path.parts
        and (path.suffix == ".py" or path.name == "py.typed")
    }


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML file at ``path``, read with tomllib (tomli on Python 3.10)."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10, where the tests of the helpers run too
        import tomli as tomllib
    return tomllib.loads(path.read_text(encoding="utf-8"))


def package_data(folder: Path, package: str, pyproject: Path) -> dict[str, bytes]:
    """The data files ``pyproject`` ships in ``package`` (``[tool.setuptools.package-data]``,
    its patterns read in ``folder``), keyed by their path in a wheel.

    Raises
    ------
    ExtensionError
        If a pattern matches no file: the wheel would lack what the package reads.
    """
    setuptools = read_toml(pyproject).get("tool", {}).get("setuptools", {})
    files = {}
    for pattern in setuptools.get("package-data", {}).get(package, []):
        found = sorted(path for path in folder.glob(pattern) if path.is_file())
        if not found:
            raise ExtensionError(
                f"{pyproject}: package data {pattern!r} matches no file in {folder}"
            )
        for path in found:
            files[f"{package}/{path.relative_to(folder).as_posix()}"] = path.read_bytes()
    return files


def micrograd_wheel(
    source: Path, version: str, source_hash: str, pyproject: Path | None = None
) -> tuple[str, bytes]:
    """The wheel of ``src/micrograd`` (file name, bytes); its version carries the source hash.

    Its METADATA says what ``pyproject`` (by default the project's, the folder
    above ``docs/``: the package may be installed elsewhere, as on the host) says
    the package needs, with its extras, so that the wheel the site offers
    installs with them from the site alone: ``pip install
    "<site>/_static/runner/micrograd_book-...whl[examples]"`` (a page's
    scripts name it).  The in-browser runner unpacks it and reads none of that.
    """
    pyproject = pyproject or DOCS.parent / "pyproject.toml"
    # The code, and the data it reads (makemore's names): Pyodide installs what the wheel holds.
    files = {**package_files(source, "micrograd"), **package_data(source, "micrograd", pyproject)}
    summary = "micrograd, as the docs site was built from it"
    requires = requirements_metadata(pyproject)
    return book_wheel("micrograd-book", f"{version}+{source_hash}", files, summary, requires)


#: Where in the built site the wheels go, beside the runner (browser_runner.RUNNER_DIR).
SITE_FOLDER = "_static/runner"
DOCS = Path(__file__).resolve().parent.parent
#: The book's runtime, the worker's Python: a package of the book (docs/_runtime), not of
#: micrograd.
RUNTIME = DOCS / "_runtime" / "book_runtime"
#: The reader-facing features' folders: the package ``book_runtime.features``.
FEATURES = DOCS / "_features"
#: What of a feature's folder runs in the browser: these files, and the packages below
#: them (the track's checks); the rest (its Sphinx directives, its build kernel's
#: start-up file) is for the build only, and Sphinx is not there.
IN_THE_BROWSER = frozenset({"__init__.py", "runtime.py"})


def feature_files(folder: Path = FEATURES) -> dict[str, bytes]:
    """The features' Python the browser runs, keyed by their path in the runtime's wheel.

    The files of ``folder`` (``docs/_features``) named in :data:`IN_THE_BROWSER`,
    and every file of a package in a feature's folder (its step files too), under
    ``book_runtime/features``.
    """
    files = package_files(folder, "book_runtime/features")
    return {
        name: data
        for name, data in files.items()
        if name.split("/")[-1] in IN_THE_BROWSER or name.count("/") > 3
    }


def runtime_package_wheel(folder: Path = RUNTIME, features: Path = FEATURES) -> tuple[str, bytes]:
    """The wheel of the book's runtime in ``folder``, with ``features``' (file name, bytes).

    Its version carries the hash of the package's files, the checks and their
    steps' code and the features' runtime among them: a change to any of them
    is a wheel of another name.
    """
    files = {**package_files(folder, "book_runtime"), **feature_files(features)}
    digest = hashlib.sha256()
    for name, data in sorted(files.items()):
        digest.update(name.encode() + b"\0" + data + b"\0")
    summary = "the book's runtime: its kernel and its checks in the reader's browser"
    return book_wheel("micrograd-book-runtime", f"1.0+{digest.hexdigest()[:16]}", files, summary)


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
    found = [f for f in dist.files or [] if f.name.upper().startswith(("LICENSE", "COPYING"))]
    licence = found[0].read_text(encoding="utf-8") if found else ""
    if not licence:
        raise ExtensionError(f"graphviz {version}: no licence file in its distribution")
    metadata = dist.read_text("METADATA") or ""
    files = package_files(Path(graphviz.__file__).parent, "graphviz")
    files[f"graphviz-{version}.dist-info/licenses/LICENSE.txt"] = licence.encode()
    return (*wheel("graphviz", version, files, metadata), licence)


@functools.cache  # one set of wheels per source hash and build
def runtime_wheels(source_hash: str) -> dict[str, bytes]:
    """File name -> bytes of the micrograd, runtime and graphviz wheels."""
    import micrograd

    source = Path(micrograd.__file__).resolve().parent
    mg_name, mg_data = micrograd_wheel(source, micrograd.__version__, source_hash)
    runtime_name, runtime_data = runtime_package_wheel()
    gv_name, gv_data, _ = graphviz_wheel()
    return {mg_name: mg_data, runtime_name: runtime_data, gv_name: gv_data}
