"""Where the book's source lives, when the build knows it.

The theme's repository, source, edit and issue buttons, the start page's
install line and every script's header link into a repository.  They name
one only where :func:`repository_url` finds it, the first of:

1. ``MICROGRAD_REPOSITORY_URL``: an explicit setting (CI, a release);
2. ``READTHEDOCS_GIT_CLONE_URL``: set by Read the Docs for every build;
3. the clone's git remote ``origin``, when it is a public https address
   (no user or token in it): a clone of a published repository builds a site
   that links to it, and a remote over ssh or on a local path says nothing
   about where readers can fetch it;
4. a ``Repository`` (or ``Source``) entry of ``pyproject.toml``'s
   ``[project.urls]``, if the project writes one.

``MICROGRAD_REPOSITORY_BRANCH`` names the branch the edit and source
buttons point into (default ``main``).  Where none of them says, the site
links to no repository, and what would have pointed at one says to install
from the folder that holds ``pyproject.toml`` instead.  Build tooling: the
noxfile loads this file with :func:`runpy.run_path`, so it uses the standard
library only.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

EXPLICIT = "MICROGRAD_REPOSITORY_URL"
READ_THE_DOCS = "READTHEDOCS_GIT_CLONE_URL"
BRANCH = "MICROGRAD_REPOSITORY_BRANCH"
#: The project's folder, the one that holds pyproject.toml (this file is docs/_ext/).
ROOT = Path(__file__).resolve().parents[2]
#: The labels of ``[project.urls]`` that name the repository, as PyPA normalises them.
REPOSITORY_LABELS = ("repository", "source", "sourcecode")

#: The theme options that show a link into the repository.
BUTTONS = (
    "use_repository_button",
    "use_source_button",
    "use_edit_page_button",
    "use_issues_button",
)

_SCP_LIKE = re.compile(r"(?:[\w.-]+@)?([\w.-]+):(?!//)(.+?)(?:\.git)?/?")
_URL = re.compile(r"(?:https?|ssh|git)://(?:[^@/]+@)?([^/:]+)(?::\d+)?/(.+?)(?:\.git)?/?")


def web_url(clone_url: str) -> str:
    """The repository's web address for a clone URL (https, ssh or ``git@host:path``).

    Raises
    ------
    ValueError
        If ``clone_url`` is none of those forms.
    """
    text = clone_url.strip()
    for pattern in (_URL, _SCP_LIKE):
        found = pattern.fullmatch(text)
        if found:
            return f"https://{found.group(1)}/{found.group(2)}"
    raise ValueError(
        f"cannot tell the repository's web address from {clone_url!r}: "
        f"set {EXPLICIT}=https://host/owner/name"
    )


def repository_url(environ: Mapping[str, str], root: Path | None = ROOT) -> str | None:
    """The repository's web address, or None: the first the module's docstring lists.

    ``root`` is the project's folder, whose git remote and ``pyproject.toml``
    are read; None reads the environment only.
    """
    for name in (EXPLICIT, READ_THE_DOCS):
        value = environ.get(name, "").strip()
        if value:
            return web_url(value)
    if root is None:
        return None
    remote = git_remote(root)
    if remote is not None and is_public_https(remote):
        return web_url(remote)
    declared = declared_repository(root / "pyproject.toml")
    return web_url(declared) if declared else None


def git_remote(root: Path) -> str | None:
    """The URL of the remote ``origin`` of the clone at ``root``, or None.

    Only a clone whose top is ``root`` counts, not one that happens to hold it.
    """
    if not (root / ".git").exists():
        return None
    try:
        found = subprocess.run(
            ["git", "-C", str(root), "config", "--get", "remote.origin.url"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:  # no git on this machine
        return None
    return found.stdout.strip() or None


def is_public_https(url: str) -> bool:
    """Whether ``url`` is an https address anyone could fetch: a named host, no user or token."""
    parts = urlsplit(url.strip())
    host = parts.hostname or ""
    return (
        parts.scheme == "https"
        and parts.username is None
        and "." in host
        and not host.replace(".", "").isdigit()
        and parts.path.strip("/").count("/") >= 1
    )


def declared_repository(pyproject: Path) -> str | None:
    """The repository ``pyproject.toml``'s ``[project.urls]`` names, or None.

    Read with a regular expression, not tomllib, which Python 3.10 lacks.
    """
    try:
        text = pyproject.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    _, found, rest = text.partition("\n[project.urls]\n")
    if not found:
        return None
    table = re.split(r"^\[", rest, maxsplit=1, flags=re.M)[0]
    for label, url in re.findall(r'^\s*"?([^"=\n]+?)"?\s*=\s*"([^"]+)"', table, flags=re.M):
        if re.sub(r"[^a-z]", "", label.lower()) in REPOSITORY_LABELS:
            return url
    return None


def theme_options(environ: Mapping[str, str], root: Path | None = ROOT) -> dict[str, Any]:
    """sphinx-book-theme options: the repository buttons on, with their target, or all off."""
    url = repository_url(environ, root)
    if url is None:
        return dict.fromkeys(BUTTONS, False)
    return {
        "repository_url": url,
        "repository_branch": environ.get(BRANCH, "").strip() or "main",
        "path_to_docs": "docs",
        **dict.fromkeys(BUTTONS, True),
    }
