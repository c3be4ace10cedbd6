"""What ``nox -s release`` builds from, and what it checks the release against.

The session (noxfile.py) builds the sdist and the wheel from a copy of the
package (:func:`copy_project`), checks them with ``twine check``, installs
the wheel into a fresh virtual environment and runs the README's example
there (:func:`readme_example`: the README is where the example and its
output are written, so the release checks what a reader of PyPI's page
reads).  Where the build knows the repository (as the site's links do:
docs/_ext/repository_links.py), the copy's metadata links to it (unless
pyproject.toml writes its own ``[project.urls]``) and its README's relative links point into
it, so that they work on PyPI's page too.  Build tooling, not part of the
package, run by the session as ``python tools/release.py`` (:func:`main`) in an
environment that has ``build`` and ``twine``; the rest is the standard library.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Mapping
from email.parser import Parser
from pathlib import Path
from typing import Any

__all__ = [
    "copy_project",
    "has_project_urls",
    "metadata_problems",
    "project_version",
    "readme_example",
    "tag_problem",
    "with_absolute_links",
    "with_project_urls",
]

#: What the package's sdist is made of: the rest of the repository is the book and its tools.
PROJECT_FILES = ("pyproject.toml", "README.md", "LICENSE")
#: The README's section whose first Python block, and the text block after it, are the example.
EXAMPLE_SECTION = "## Ten lines"
#: The branch the README's relative links point into (as the site's source links).
BRANCH = "main"
ROOT = Path(__file__).resolve().parents[1]


def readme_example(readme: str) -> tuple[str, str]:
    """The README's example: its code and the output the README says it prints.

    Raises
    ------
    ValueError
        If the README has no :data:`EXAMPLE_SECTION` with a ``python`` block
        followed by a ``text`` block.
    """
    _, found, rest = readme.partition(f"\n{EXAMPLE_SECTION}\n")
    section = rest.split("\n## ", 1)[0]
    blocks = re.findall(r"^```(\w*)\n(.*?)^```$", section, flags=re.M | re.S)
    languages = [language for language, _ in blocks]
    if not found or languages[:2] != ["python", "text"]:
        raise ValueError(
            f"the README's {EXAMPLE_SECTION!r} section must hold a python block and, "
            f"next, the text block it prints; found {languages}"
        )
    return blocks[0][1], blocks[1][1]


def project_version(pyproject: str) -> str:
    """The ``version`` of pyproject.toml's ``[project]`` table."""
    table = pyproject.split("\n[project]\n", 1)[1].split("\n[", 1)[0]
    found = re.search(r'^version\s*=\s*"([^"]+)"', table, flags=re.M)
    if found is None:
        raise ValueError("pyproject.toml's [project] names no version")
    return found.group(1)


def tag_problem(version: str, environ: Mapping[str, str]) -> str | None:
    """Why a release built for a pushed tag must stop (the tag is not ``v`` and the version).

    A tag is known from GitHub Actions' ``GITHUB_REF_TYPE`` and ``GITHUB_REF_NAME``;
    without a tag there is nothing to compare.
    """
    if environ.get("GITHUB_REF_TYPE") != "tag":
        return None
    tag = environ.get("GITHUB_REF_NAME", "")
    if tag == f"v{version}":
        return None
    return f"the tag {tag!r} does not name pyproject.toml's version {version} (tag it v{version})"


def has_project_urls(pyproject: str) -> bool:
    """Whether pyproject.toml writes its own ``[project.urls]`` table."""
    return re.search(r"^\[project\.urls\]", pyproject, flags=re.M) is not None


def with_project_urls(pyproject: str, repository: str) -> str:
    """pyproject.toml with a ``[project.urls]`` table linking to ``repository``.

    Raises
    ------
    ValueError
        If it has one already: the URLs are then the file's own.
    """
    if has_project_urls(pyproject):
        raise ValueError("pyproject.toml has its own [project.urls]")
    base = repository.rstrip("/")
    table = (
        "\n[project.urls]\n"
        f'Homepage = "{base}"\n'
        f'Repository = "{base}"\n'
        f'Issues = "{base}/issues"\n'
        f'Changelog = "{base}/blob/{BRANCH}/CHANGELOG.md"\n'
    )
    return pyproject.rstrip("\n") + "\n" + table


def with_absolute_links(readme: str, repository: str) -> str:
    """The README with each relative Markdown link pointing into ``repository``'s files."""
    base = f"{repository.rstrip('/')}/blob/{BRANCH}/"

    def absolute(match: re.Match[str]) -> str:
        return f"]({base}{match.group(1)})"

    return re.sub(r"\]\((?![a-z][a-z0-9+.-]*:|#|/)([^)\s]+)\)", absolute, readme)


def copy_project(root: Path, target: Path, repository: str | None) -> None:
    """Copy the package's files (:data:`PROJECT_FILES`, ``src/``) from ``root`` into ``target``,
    linked to ``repository`` where it is known."""
    target.mkdir(parents=True)
    for name in PROJECT_FILES:
        shutil.copy(root / name, target / name)
    ignored = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(root / "src", target / "src", ignore=ignored)
    if repository:
        for name, link in (
            ("pyproject.toml", with_project_urls),
            ("README.md", with_absolute_links),
        ):
            path = target / name
            text = path.read_text(encoding="utf-8")
            if link is with_project_urls and has_project_urls(text):
                continue  # the file's own URLs, which the repository may have come from
            path.write_text(link(text, repository), encoding="utf-8")


def metadata_problems(metadata: str, version: str, repository: str | None) -> list[str]:
    """What is missing from a wheel's ``METADATA`` that PyPI's page shows."""
    found = Parser().parsestr(metadata)
    expected = {
        "Name": "micrograd-book",
        "Version": version,
        "License-Expression": "MIT",
        "Description-Content-Type": "text/markdown",
    }
    problems = [
        f"{field} is {found.get(field)!r}, not {value!r}"
        for field, value in expected.items()
        if found.get(field) != value
    ]
    for field in ("Summary", "Requires-Python", "License-File"):
        if not found.get(field):
            problems.append(f"no {field}")
    if not found.get_all("Classifier"):
        problems.append("no classifiers")
    if not found.get_payload().strip():
        problems.append("no description (the README)")
    urls = found.get_all("Project-URL") or []
    if repository and not any(url.endswith(f", {repository.rstrip('/')}") for url in urls):
        problems.append(f"no Project-URL links to {repository}")
    return problems


def _repository(environ: Mapping[str, str]) -> str | None:
    """The repository the build is told, as the site's links know it."""
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        from repository_links import repository_url
    finally:
        sys.path.pop(0)
    return repository_url(environ)  # type: ignore[no-any-return]


def _run(*command: str | Path, **options: Any) -> subprocess.CompletedProcess[str]:
    print("release >", *command, flush=True)
    return subprocess.run([str(c) for c in command], text=True, **options)


def main() -> int:
    """Build dist/ from a copy of the package, check it, and run the README's example on it."""
    version = project_version((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    problem = tag_problem(version, os.environ)
    if problem:
        sys.exit(problem)
    repository = _repository(os.environ)
    if repository is None:
        print("release > no repository known (repository_links.py): the metadata links to none")
    work = Path(tempfile.mkdtemp(prefix="micrograd-release-"))
    copy_project(ROOT, work / "source", repository)
    dist = ROOT / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    _run(sys.executable, "-m", "build", "--outdir", dist, work / "source", check=True)
    names = sorted(path.name for path in dist.iterdir())
    expected = [f"micrograd_book-{version}-py3-none-any.whl", f"micrograd_book-{version}.tar.gz"]
    if names != expected:
        sys.exit(f"dist/ holds {names}, not {expected}")
    _run(sys.executable, "-m", "twine", "check", "--strict", *sorted(dist.iterdir()), check=True)
    wheel = dist / expected[0]
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"micrograd_book-{version}.dist-info/METADATA").decode("utf-8")
    missing = metadata_problems(metadata, version, repository)
    if missing:
        sys.exit(f"the wheel's metadata: {'; '.join(missing)}")

    # The wheel alone, in a fresh environment, run from an empty folder: nothing else imported.
    _run(sys.executable, "-m", "venv", work / "venv", check=True)
    python = work / "venv" / "bin" / "python"
    _run(python, "-m", "pip", "install", "--quiet", wheel, check=True)
    empty = work / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME"}}
    where = _run(
        python,
        "-c",
        "import micrograd; print(micrograd.__version__, micrograd.__file__)",
        cwd=empty,
        env=env,
        capture_output=True,
        check=True,
    ).stdout.split()
    if where[0] != version or not Path(where[1]).is_relative_to(work / "venv"):
        sys.exit(f"the fresh environment imported micrograd {where}, not the wheel's")
    code, printed = readme_example((ROOT / "README.md").read_text(encoding="utf-8"))
    ran = _run(python, "-c", code, cwd=empty, env=env, capture_output=True, check=False)
    if ran.returncode != 0 or ran.stdout != printed:
        sys.exit(f"the README's example printed\n{ran.stdout}{ran.stderr}\ninstead of\n{printed}")
    shutil.rmtree(work)
    print(f"release > the README's example runs against the wheel; dist/ holds {', '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
