"""Compare two clean builds: glued numbers, graph SVGs, pages, downloads and runtime must match.

Usage::

    python tools/repro.py BUILD_A BUILD_B
    python tools/repro.py --numbers-and-pictures BUILD_A BUILD_B

Each ``BUILD_*`` is a Sphinx output root holding ``html/`` (the site) and
``jupyter_execute/`` (the notebooks myst-nb executed for it). Exits 1 and
prints a diff for every glued value, SVG, HTML page or download that differs,
or a file of the in-browser runtime (``html/_static/runner/``: the micrograd
wheel named after the source hash, the graphviz wheel, Pyodide, viz.js) whose
bytes differ; 0 when the two builds publish the same numbers, graphs, pages
and runtime.  The page and download of a notebook with declared measurements
are exempt (see ``MEASUREMENTS``); other files that differ are listed.

With ``--numbers-and-pictures`` only the glued values and the SVGs (matplotlib
figures, graphs, stepper frames) are compared: what a reader reads and sees
must not change when only the code that computes it did, while the pages,
the downloads and the runtime (the micrograd wheel itself) then differ.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
import sys
from pathlib import Path

#: myst-nb stores glued values as display outputs with this mime prefix.
GLUE_PREFIX = "application/papermill.record/"
SVG = "image/svg+xml"
HTML = "text/html"

#: A graph drawn into a page as inline SVG (docs/_ext/inline_graphs.py, and the
#: frames of the backward stepper).
INLINE_GRAPH = re.compile(r'<svg [^>]*class="micrograd-graph".*?</svg>', re.DOTALL)

#: Glued values that are measurements of the machine building the page, not
#: results of the code: wall-clock timings, tracemalloc byte counts, the number of
#: objects alive in the kernel.  They cannot be identical across builds, so they
#: are exempt from the comparison, each named here on purpose (the page itself
#: says these are one build's measurements).  They must still be glued in both
#: builds (a stale entry fails), and their two values are printed.  Every other
#: glued value must be identical.
MEASUREMENTS: dict[str, frozenset[str]] = {
    "why-its-fast.ipynb": frozenset(
        {
            "chain_speedup",  # ratio of two timings
            "bytes_closure",  # tracemalloc average bytes per node
            "bytes_ratio",  # ratio of two tracemalloc averages
            "free_gc_share",  # timings
            "paused_speedup",
            "deep_seconds",
            # claims about those timings: whether they hold, and the timing in words
            "claim:chain_faster",
            "claim:paused_faster",
        }
    ),
}


def is_measurement(key: str) -> bool:
    """Whether a ``"<notebook>:<name>[<mime>]"`` glue key is a declared measurement."""
    notebook, _, rest = key.partition(":")
    return rest.split("[", 1)[0] in MEASUREMENTS.get(notebook, frozenset())


def _joined(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def _notebooks(build: Path) -> dict[str, dict[str, object]]:
    folder = build / "jupyter_execute"
    return {
        path.relative_to(folder).as_posix(): json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(folder.rglob("*.ipynb"))
    }


def _record(glued: dict[str, str], notebook: str, name: str, data: dict[str, object]) -> None:
    for mime, value in sorted(data.items()):
        text = _joined(value) if isinstance(value, str | list) else json.dumps(value)
        glued[f"{notebook}:{name}[{mime.removeprefix(GLUE_PREFIX)}]"] = text


def published(build: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Return ``(glued, svgs)`` of one build.

    ``glued`` maps ``"<notebook>:<glue name>[<mime>]"`` to the glued value's
    representation (myst-nb keeps a glued value either as an output of the
    executed notebook or, for ``glue(..., display=False)``, in the
    ``<page>.glue.json`` next to it); ``svgs`` maps
    ``"<notebook>:cell<i>:output<j>"`` (SVG outputs of executed cells, and
    HTML outputs that hold SVG, such as the backward stepper),
    ``"html/_images/<file>"`` (SVG files the site serves) and
    ``"html/<page>:graph<k>"`` (graphs drawn inline in a page) to the SVG text.
    """
    glued: dict[str, str] = {}
    svgs: dict[str, str] = {}
    for name, notebook in _notebooks(build).items():
        for i, cell in enumerate(notebook["cells"]):  # type: ignore[attr-defined]
            for j, output in enumerate(cell.get("outputs", [])):
                data = output.get("data", {})
                record = output.get("metadata", {}).get("scrapbook")
                if record:
                    _record(glued, name, record["name"], data)
                elif SVG in data:
                    svgs[f"{name}:cell{i}:output{j}"] = _joined(data[SVG])
                elif HTML in data and "<svg" in _joined(data[HTML]):
                    svgs[f"{name}:cell{i}:output{j}"] = _joined(data[HTML])
    folder = build / "jupyter_execute"
    for path in sorted(folder.rglob("*.glue.json")):
        notebook = path.relative_to(folder).as_posix().removesuffix(".glue.json") + ".ipynb"
        for name, output in json.loads(path.read_text(encoding="utf-8")).items():
            _record(glued, notebook, name, output.get("data", {}))
    for path in sorted((build / "html" / "_images").glob("*.svg")):
        svgs[f"html/_images/{path.name}"] = path.read_text(encoding="utf-8")
    for path in sorted((build / "html").glob("*.html")):
        inline = INLINE_GRAPH.findall(path.read_text(encoding="utf-8"))
        for k, svg in enumerate(inline):
            svgs[f"html/{path.name}:graph{k}"] = svg
    return glued, svgs


#: Where the in-browser runtime is in a built site (docs/_ext/browser_runner.py).
RUNTIME = Path("html") / "_static" / "runner"


def runtime_files(build: Path) -> dict[str, str]:
    """Map each file of the build's in-browser runtime to its size and SHA-256.

    Raises
    ------
    ValueError
        If the runtime has no micrograd wheel: the site would run nothing.
    """
    folder = build / RUNTIME
    files = {
        path.relative_to(folder).as_posix(): (
            f"{path.stat().st_size} bytes, sha256 {hashlib.sha256(path.read_bytes()).hexdigest()}"
        )
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
    if not any(name.startswith("micrograd_book-") and name.endswith(".whl") for name in files):
        raise ValueError(f"{build}: no micrograd wheel in {folder}")
    return files


def _compare(kind: str, a: dict[str, str], b: dict[str, str]) -> list[str]:
    problems = []
    for key in sorted(a.keys() - b.keys()):
        problems.append(f"{kind} {key}: only in the first build")
    for key in sorted(b.keys() - a.keys()):
        problems.append(f"{kind} {key}: only in the second build")
    for key in sorted(a.keys() & b.keys()):
        if a[key] != b[key]:
            diff = difflib.unified_diff(
                a[key].splitlines(), b[key].splitlines(), "first", "second", lineterm="", n=1
            )
            problems.append(f"{kind} {key} differs:\n" + "\n".join(list(diff)[:40]))
    return problems


def downloads(build: Path) -> dict[str, str]:
    """What the site offers for download, by path under ``html/_sources``: each page's
    notebook (``*.ipynb``) and each of its cells as a script (``<page>/cell-<n>.py``).

    The notebook of a page that prints declared measurements (see
    ``MEASUREMENTS``) is left out: its printed timings differ from build to
    build.  Its scripts, which hold code only, are not.
    """
    folder = build / "html" / "_sources"
    found = [p for p in folder.glob("*.ipynb") if p.name not in MEASUREMENTS]
    found += folder.glob("*/cell-*.py")
    return {
        path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(found)
    }


def pages(build: Path) -> dict[str, str]:
    """The site's HTML pages (``html/**/*.html``), by path, as a reader gets them.

    A page whose notebook prints declared measurements (see ``MEASUREMENTS``)
    is left out, as in :func:`downloads`.
    """
    folder = build / "html"
    measured = {Path(name).with_suffix(".html").as_posix() for name in MEASUREMENTS}
    return {
        path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*.html"))
        if path.relative_to(folder).as_posix() not in measured
    }


def compare_builds(first: Path, second: Path) -> list[str]:
    """Return the differences between two builds (empty if none).

    Their glued values and SVGs (:func:`compare_numbers_and_pictures`), the
    files of their runtime, their downloads and their pages.

    Raises
    ------
    ValueError
        If a build has no executed notebooks or no glued value, or no
        micrograd wheel in its runtime: there would be nothing to compare,
        and an empty comparison proves nothing.
    """
    return (
        compare_numbers_and_pictures(first, second)
        + _compare("runtime file", runtime_files(first), runtime_files(second))
        + _compare("download", downloads(first), downloads(second))
        + _compare("page", pages(first), pages(second))
    )


def compare_numbers_and_pictures(first: Path, second: Path) -> list[str]:
    """Return the differences between two builds' glued values and SVGs (empty if none).

    Declared measurements (``MEASUREMENTS``) may differ, but must be glued in both.

    Raises
    ------
    ValueError
        If a build has no executed notebooks or no glued value: there would be
        nothing to compare, and an empty comparison proves nothing.
    """
    results = []
    for build in (first, second):
        glued, svgs = published(build)
        if not glued:
            raise ValueError(f"{build}: no glued values found under {build / 'jupyter_execute'}")
        results.append((glued, svgs))
    (glued_a, svgs_a), (glued_b, svgs_b) = results
    problems = []
    for notebook, names in sorted(MEASUREMENTS.items()):
        for glued in (glued_a, glued_b):
            present = {
                k.partition(":")[2].split("[", 1)[0] for k in glued if k.startswith(notebook)
            }
            if not present:  # the page glues nothing in this build: nothing to check
                continue
            problems += [
                f"measurement {notebook}:{name} is declared in MEASUREMENTS but not glued"
                for name in sorted(names - present)
            ]
    problems = sorted(set(problems))
    kept_a = {k: v for k, v in glued_a.items() if not is_measurement(k)}
    kept_b = {k: v for k, v in glued_b.items() if not is_measurement(k)}
    return problems + _compare("glued value", kept_a, kept_b) + _compare("SVG", svgs_a, svgs_b)


def measurements(first: Path, second: Path) -> list[str]:
    """Return ``"<key>: <first> vs <second>"`` for each declared measurement."""
    (glued_a, _), (glued_b, _) = published(first), published(second)
    return [
        f"{key}: {glued_a[key]} vs {glued_b.get(key)}"
        for key in sorted(glued_a)
        if is_measurement(key)
    ]


def other_differences(first: Path, second: Path) -> list[str]:
    """Return the other files of the two sites that differ (for information only)."""
    a, b = first / "html", second / "html"
    names = {p.relative_to(a) for p in a.rglob("*") if p.is_file()}
    names |= {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    return sorted(
        name.as_posix()
        for name in names
        if name.parts[0] != ".doctrees"
        and name.name != ".buildinfo"
        and (
            not (a / name).is_file()
            or not (b / name).is_file()
            or (a / name).read_bytes() != (b / name).read_bytes()
        )
    )


#: The option that limits the comparison to glued values and SVGs.
NUMBERS_AND_PICTURES = "--numbers-and-pictures"


def main(argv: list[str]) -> int:
    """Command-line entry point; returns the exit status."""
    options = {arg for arg in argv if arg.startswith("--")}
    builds = [Path(arg) for arg in argv if not arg.startswith("--")]
    if len(builds) != 2 or options - {NUMBERS_AND_PICTURES}:
        print(__doc__, file=sys.stderr)
        return 2
    first, second = builds
    only = NUMBERS_AND_PICTURES in options  # numbers and pictures, not the whole site
    problems = (compare_numbers_and_pictures if only else compare_builds)(first, second)
    glued, svgs = published(first)
    for line in measurements(first, second):
        print(f"measurement (may differ): {line}")
    others = [] if only else other_differences(first, second)
    if others:
        print(f"note: {len(others)} other file(s) of the site differ: " + ", ".join(others))
    if problems:
        what = " in numbers or pictures" if only else ""
        print(f"{len(problems)} difference(s){what} between {first} and {second}:")
        print("\n\n".join(problems))
        return 1
    kept = [key for key in glued if not is_measurement(key)]
    exempt = f"({len(glued) - len(kept)} declared measurements exempt)"
    if only:
        print(
            f"the same numbers and pictures: {len(kept)} glued values and {len(svgs)} SVGs "
            f"identical in both builds {exempt}"
        )
        return 0
    runtime = runtime_files(first)
    wheels = ", ".join(name for name in runtime if name.endswith(".whl"))
    print(
        f"reproducible: {len(kept)} glued values, {len(svgs)} SVGs and {len(runtime)} runtime "
        f"files ({wheels}) identical in both builds {exempt}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
