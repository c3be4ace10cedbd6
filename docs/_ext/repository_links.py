"""Where the book's source lives, when the build knows it.

The theme's repository, source, edit and issue buttons link into a
repository.  They are shown only when the build is told which one:

* ``MICROGRAD_REPOSITORY_URL`` (an explicit setting, e.g. in CI), or
* ``READTHEDOCS_GIT_CLONE_URL`` (set by Read the Docs for every build).

``MICROGRAD_REPOSITORY_BRANCH`` names the branch the edit and source
buttons point into (default ``main``).  A local build knows neither and
shows no repository links at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

EXPLICIT = "MICROGRAD_REPOSITORY_URL"
READ_THE_DOCS = "READTHEDOCS_GIT_CLONE_URL"
BRANCH = "MICROGRAD_REPOSITORY_BRANCH"

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


def repository_url(environ: Mapping[str, str]) -> str | None:
    """The repository's web address the build was told, or None (a local build)."""
    for name in (EXPLICIT, READ_THE_DOCS):
        value = environ.get(name, "").strip()
        if value:
            return web_url(value)
    return None


def theme_options(environ: Mapping[str, str]) -> dict[str, Any]:
    """sphinx-book-theme options: the repository buttons on, with their target, or all off."""
    url = repository_url(environ)
    if url is None:
        return dict.fromkeys(BUTTONS, False)
    return {
        "repository_url": url,
        "repository_branch": environ.get(BRANCH, "").strip() or "main",
        "path_to_docs": "docs",
        **dict.fromkeys(BUTTONS, True),
    }
