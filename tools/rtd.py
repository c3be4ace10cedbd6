"""Build the site as Read the Docs builds it, from ``.readthedocs.yaml`` itself, and check it.

    python tools/rtd.py [--work DIR] [--project NAME] [--against BUILD]

Run by ``nox -s rtd``.  The steps are Read the Docs' own, in its order:

1. a checkout: the working tree's files (tracked, and untracked but not
   ignored), copied into ``DIR/checkout`` and committed there as a repository
   of its own, so nothing built earlier (``node_modules/``, ``docs/_build/``)
   comes along;
2. the config's ``build.apt_packages`` (the system dependencies);
3. a fresh virtual environment of the config's Python (``build.tools.python``),
   made as Read the Docs makes it: ``venv``, then pip and setuptools upgraded;
4. every job of ``build.jobs``, phase by phase in Read the Docs' order, each
   command through ``bash -c`` in the checkout, with the environment
   variables Read the Docs sets (:func:`rtd_environment`) and the virtual
   environment first on ``PATH``;
5. for the build phase, the HTML as Read the Docs builds it where the config
   does not replace it (:func:`sphinx_html_command`: its own command, from
   the folder of ``sphinx.configuration``), then each other format's job.

Only what cannot run on this machine is substituted, and each substitution is
printed with its reason (:func:`substitute`): a package index other than
PyPI, which this machine cannot reach, and Playwright's download of a browser
of its own, where the system's Chromium prints instead.  The apt packages are
not installed (that needs root): a system Chromium brings the libraries the
config lists for Playwright's.  Nothing stands in for the program that lays out
the graphs: the build brings its own (viz.js, ``docs/_ext/layout_program.py``),
here as on the host.

Then the output is checked (:func:`output_problems`): every page of
``docs/`` is there, the in-browser runtime every page names is shipped (the
wheels, Pyodide's WebAssembly), the pages link the repository of
``READTHEDOCS_GIT_CLONE_URL``, and the PDF is in Read the Docs' PDF folder and
where every page's download menu links it; with ``--against BUILD``, its glued
numbers and its pictures are those of another build (``tools/repro.py``):
``.ci/run`` compares them with the build the browser tests read.  Any failing
command or problem exits non-zero.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml
from repro import compare_numbers_and_pictures

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ".readthedocs.yaml"

#: Read the Docs' phases, in the order it runs them; ``build`` holds one job per format.
PHASES = (
    "post_checkout",
    "pre_system_dependencies",
    "post_system_dependencies",
    "pre_create_environment",
    "create_environment",
    "post_create_environment",
    "pre_install",
    "install",
    "post_install",
    "pre_build",
    "build",
    "post_build",
)
#: The formats of the build phase, in Read the Docs' order.
FORMATS = ("html", "htmlzip", "pdf", "epub")
#: The one package index this machine reaches.
PYPI_HOSTS = {"pypi.org", "files.pythonhosted.org"}
#: A stand-in for the repository Read the Docs would clone, where none is given: on a host
#: the theme knows (sphinx-book-theme links only into GitHub, GitLab and Bitbucket).
STAND_IN_CLONE_URL = "https://github.com/micrograd-book/micrograd-book.git"

_INDEX_OPTION = re.compile(r"\s+(--index-url|--extra-index-url|-i)(?:\s+|=)(\S+)")
_PLAYWRIGHT_INSTALL = re.compile(r"^python -m playwright install\b")


def load_config(path: Path) -> dict[str, Any]:
    """The YAML config, with the parts this tool reads checked.

    Raises
    ------
    ValueError
        If the file is not a version 2 config with a Sphinx configuration.
    """
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(config, dict) or config.get("version") != 2:
        raise ValueError(f"{path}: not a Read the Docs version 2 config")
    if not config.get("sphinx", {}).get("configuration"):
        raise ValueError(f"{path}: no sphinx.configuration")
    return config


def jobs_in_order(config: Mapping[str, Any]) -> Iterator[tuple[str, list[str]]]:
    """``(phase, commands)`` for every phase the config gives jobs for, in Read the Docs' order.

    The build phase is ``build.<format>`` for each format, html first; where the
    config gives no HTML job, Read the Docs' own command
    (:func:`sphinx_html_command`) is that phase's job.  A format listed under
    ``formats`` must have a job of its own: this tool does not run Read the
    Docs' LaTeX or ePub builders.

    Raises
    ------
    ValueError
        For a phase Read the Docs does not have, or a format without a job.
    """
    jobs = config.get("build", {}).get("jobs", {}) or {}
    unknown = set(jobs) - set(PHASES)
    if unknown:
        raise ValueError(f"build.jobs has phases Read the Docs does not run: {sorted(unknown)}")
    builds = jobs.get("build", {}) or {}
    formats = ["html", *(f for f in config.get("formats", []) or [] if f != "all")]
    for phase in PHASES:
        if phase != "build":
            if jobs.get(phase):
                yield phase, list(jobs[phase])
            continue
        for fmt in FORMATS:
            if fmt in builds:
                yield f"build.{fmt}", list(builds[fmt])
            elif fmt == "html":
                yield "build.html", [sphinx_html_command(config)]
            elif fmt in formats:
                raise ValueError(f"formats lists {fmt} but build.jobs.build has no {fmt} job")


def sphinx_html_command(config: Mapping[str, Any]) -> str:
    """Read the Docs' own HTML build, run from the folder of ``sphinx.configuration``."""
    sphinx = config["sphinx"]
    folder = str(Path(sphinx["configuration"]).parent)
    strict = "-W --keep-going " if sphinx.get("fail_on_warning") else ""
    builder = sphinx.get("builder", "html")
    builder = {"html": "html", "dirhtml": "dirhtml", "singlehtml": "singlehtml"}[builder]
    return (
        f"cd {shlex.quote(folder)} && python -m sphinx -T {strict}-b {builder} "
        "-d _build/doctrees -D language=en . $READTHEDOCS_OUTPUT/html"
    )


def substitute(command: str, chromium: str | None) -> tuple[str | None, list[str]]:
    """``command`` as it can run here (None: not at all), and what was changed, with why."""
    said = []
    for match in _INDEX_OPTION.finditer(command):
        host = urlsplit(match[2]).hostname or ""
        if host not in PYPI_HOSTS:
            said.append(f"dropped `{match[0].strip()}`: this machine reaches no index but PyPI")
            command = command.replace(match[0], "")
    if _PLAYWRIGHT_INSTALL.match(command) and chromium:
        said.append(
            "skipped Playwright's download of a browser of its own, which cannot run here: "
            f"the system Chromium ({chromium}) prints instead"
        )
        return None, said
    return command, said


def rtd_environment(
    checkout: Path, venv: Path, environ: Mapping[str, str], project: str = "micrograd-book"
) -> dict[str, str]:
    """The variables Read the Docs sets for every command, on top of ``environ``.

    ``READTHEDOCS_GIT_CLONE_URL`` is kept where ``environ`` sets it, else a
    stand-in (:data:`STAND_IN_CLONE_URL`); the commit is the checkout's.  The
    book's own settings (``MICROGRAD_*``) are left out, as Read the Docs has none.
    """
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=checkout, capture_output=True, text=True, check=True
    ).stdout.strip()
    # Read the Docs sets none of the book's own settings (MICROGRAD_REPOSITORY_URL would
    # win over its clone URL).
    env = {k: v for k, v in environ.items() if not k.startswith(("READTHEDOCS", "MICROGRAD_"))}
    env.update(
        READTHEDOCS="True",
        READTHEDOCS_PROJECT=project,
        READTHEDOCS_LANGUAGE="en",
        READTHEDOCS_VERSION="latest",
        READTHEDOCS_VERSION_NAME="latest",
        READTHEDOCS_VERSION_TYPE="branch",
        READTHEDOCS_CANONICAL_URL=f"https://{project}.readthedocs.io/en/latest/",
        READTHEDOCS_PRODUCTION_DOMAIN="readthedocs.org",
        READTHEDOCS_GIT_CLONE_URL=environ.get("READTHEDOCS_GIT_CLONE_URL") or STAND_IN_CLONE_URL,
        READTHEDOCS_GIT_IDENTIFIER="main",
        READTHEDOCS_GIT_COMMIT_HASH=commit,
        READTHEDOCS_REPOSITORY_PATH=str(checkout),
        READTHEDOCS_OUTPUT=str(checkout / "_readthedocs"),
        READTHEDOCS_VIRTUALENV_PATH=str(venv),
        VIRTUAL_ENV=str(venv),
        PATH=os.pathsep.join([str(venv / "bin"), environ.get("PATH", "")]),
    )
    env.pop("PYTHONHOME", None)
    return env


# -- checking the output ------------------------------------------------------------------------

_RUNNER = re.compile(r'<script\b[^>]*\bid="micrograd-runner"[^>]*>')
_ATTRIBUTE = re.compile(r'\b(src|data-[a-z-]+)="([^"]*)"')
_HREFS = re.compile(r'\bhref="([^"#?]*)')
_PDF_LINK = re.compile(r'<a\b[^>]*\bhref="([^"]+)"[^>]*\bbtn-download-book-pdf-button\b')
#: The runner's attributes that name files of the runtime: lists of them, or one each.
_RUNTIME_LISTS = ("data-start-files", "data-wheels")
_RUNTIME_FILE = ("data-viz", "data-marked", "data-d3", "data-plot")


def source_pages(docs: Path) -> list[str]:
    """The book's pages: each ``.md`` of the docs folder, by name."""
    return sorted(p.stem for p in docs.glob("*.md"))


def web_address(clone_url: str) -> str:
    """The web address of a clone URL, as the site's repository links use it."""
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        from repository_links import web_url
    finally:
        sys.path.pop(0)
    return str(web_url(clone_url))


def runtime_files(page: Path, text: str) -> list[Path] | None:
    """The files of the in-browser runtime that a page names, or None if it loads no runner."""
    runner = _RUNNER.search(text)
    if runner is None:
        return None
    attributes = dict(_ATTRIBUTE.findall(runner[0]))
    base = (page.parent / attributes["src"].split("?")[0]).parent
    names = [f for key in _RUNTIME_LISTS for f in attributes.get(key, "").split()]
    names += [attributes[key] for key in _RUNTIME_FILE if key in attributes]
    return [base / name for name in dict.fromkeys(names)]


def page_problems(page: Path, pdf: Path, repository: str) -> list[str]:
    """What is wrong with one built page: its runtime, its repository links, its PDF link."""
    name, text = page.name, page.read_text(encoding="utf-8")
    files = runtime_files(page, text)
    problems = [] if files else [f"{name} loads no runner"]
    if files and not any(f.suffix == ".whl" for f in files):
        problems.append(f"{name} names no wheel of the runtime")
    problems += [
        f"{name} names {f.relative_to(page.parent)}, which is not shipped"
        for f in files or []
        if not f.is_file()
    ]
    if not any(href.startswith(repository) for href in _HREFS.findall(text)):
        problems.append(f"{name} links nowhere into {repository}")
    links = _PDF_LINK.findall(text)
    if not links:
        problems.append(f"{name}'s download menu offers no PDF")
    book = pdf.read_bytes() if pdf.is_file() else None
    for link in links:
        target = page.parent / link
        if book is None or not target.is_file() or target.read_bytes() != book:
            problems.append(f"{name}'s PDF link {link} leads to no copy of the PDF")
    return problems


def output_problems(output: Path, pages: Sequence[str], project: str, repository: str) -> list[str]:
    """What is wrong with Read the Docs' output folder: an empty list where nothing is."""
    html, pdf = output / "html", output / "pdf" / f"{project}.pdf"
    problems = [] if pdf.is_file() else [f"no PDF at {pdf.relative_to(output)}"]
    if pdf.is_file() and not pdf.read_bytes().startswith(b"%PDF-"):
        problems.append(f"{pdf.relative_to(output)} is not a PDF")
    wasm = False
    for name in pages:
        page = html / f"{name}.html"
        if not page.is_file():
            problems.append(f"no page {name}.html")
            continue
        problems += page_problems(page, pdf, repository)
        files = runtime_files(page, page.read_text(encoding="utf-8")) or []
        wasm = wasm or any(f.suffix == ".wasm" for f in files)
    if not wasm:
        problems.append("no page names the runtime's WebAssembly")
    return problems


# -- running ------------------------------------------------------------------------------------


def _say(text: str) -> None:
    print(f"rtd > {text}", flush=True)


def make_checkout(root: Path, checkout: Path) -> None:
    """The working tree's files, without what git ignores, as a repository of their own."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, (item.decode() for item in listed)):
        source = root / name
        if source.is_file():
            (checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, checkout / name)
    git = ["git", "-c", "user.name=rtd", "-c", "user.email=rtd@invalid"]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "checkout"]):
        subprocess.run([*git, *step], cwd=checkout, check=True)


def system_dependencies(config: Mapping[str, Any]) -> str | None:
    """Stand in for ``build.apt_packages``; returns the Chromium that prints, if any."""
    packages = list(config.get("build", {}).get("apt_packages", []) or [])
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if packages:
        where = f"the system Chromium ({chromium}) has" if chromium else "nothing here has"
        _say(f"substituted apt packages {' '.join(packages)}: {where} what they bring to Chromium")
    return chromium


def create_environment(python: str, venv: Path, env: Mapping[str, str]) -> None:
    """A fresh virtual environment, as Read the Docs' create_environment step makes it."""
    _run(f"{shlex.quote(python)} -m venv {shlex.quote(str(venv))}", venv.parent, env)
    _run("python -m pip install --upgrade pip setuptools", venv.parent, env)


def _run(command: str, cwd: Path, env: Mapping[str, str]) -> None:
    _say(f"$ {command}")
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=dict(env), check=False)
    if done.returncode != 0:
        raise SystemExit(f"rtd > failed ({done.returncode}): {command}")


def build(work: Path, project: str) -> dict[str, str]:
    """Run Read the Docs' steps in ``work``; returns the environment they ran in."""
    config = load_config(ROOT / CONFIG)
    wanted = str(config.get("build", {}).get("tools", {}).get("python", ""))
    have = f"{sys.version_info.major}.{sys.version_info.minor}"
    if wanted != have:
        raise SystemExit(f"rtd > the config asks for Python {wanted}; this is {have}")
    shutil.rmtree(work, ignore_errors=True)
    checkout, venv = work / "checkout", work / "env"
    checkout.mkdir(parents=True)
    make_checkout(ROOT, checkout)
    _say(f"checkout: {checkout}")
    env = rtd_environment(checkout, venv, os.environ, project)
    chromium = system_dependencies(config)
    if chromium:
        env["CHROMIUM"] = chromium
    jobs = list(jobs_in_order(config))
    if "create_environment" not in {phase for phase, _ in jobs}:
        _say("create_environment (Read the Docs' own)")
        create_environment(sys.executable, venv, env)
    for phase, commands in jobs:
        _say(f"{phase}")
        for command in commands:
            runnable, said = substitute(command, chromium)
            for line in said:
                _say(f"substituted: {line}")
            if runnable is not None:
                _run(runnable, checkout, env)
    return env


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=ROOT / ".nox" / "rtd-build")
    parser.add_argument("--project", default="micrograd-book", help="READTHEDOCS_PROJECT")
    parser.add_argument(
        "--against",
        type=Path,
        help="a build's output root (docs/_build): its numbers and pictures must be these",
    )
    args = parser.parse_args(argv)
    env = build(args.work.resolve(), args.project)
    output = Path(env["READTHEDOCS_OUTPUT"])
    repository = web_address(env["READTHEDOCS_GIT_CLONE_URL"])
    problems = output_problems(output, source_pages(ROOT / "docs"), args.project, repository)
    if args.against is not None:
        # What the host publishes is what the tests read: the same numbers and pictures.
        problems += compare_numbers_and_pictures(args.against.resolve(), output)
    for problem in problems:
        _say(f"problem: {problem}")
    if problems:
        return 1
    _say(f"built as Read the Docs builds it: {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
