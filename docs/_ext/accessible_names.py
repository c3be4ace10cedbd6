"""Sphinx extension: a hidden cell's toggle is named by what it shows.

myst-nb writes the toggle of a hidden cell as ``<summary aria-label="Toggle
hidden content">`` while it shows "Show solution" (the page's code_prompt_show,
or myst-nb's "Show code cell content"): a screen reader
says one name and the reader sees another (WCAG 2.5.3, label in name; axe-core's
``label-content-name-mismatch``).  Without the ``aria-label``, the name is the
text the toggle shows ("Show solution" or "Hide solution", whichever is visible).
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

#: The toggle as myst-nb 1.4 writes it (myst_nb/sphinx_.py, HideCodeCellNode).
MYST_NB_SUMMARY = '<summary aria-label="Toggle hidden content">'


def name_toggles_by_their_text(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Drop the fixed ``aria-label`` of hidden cells' toggles from the page's body."""
    body = context.get("body")
    if isinstance(body, str) and MYST_NB_SUMMARY in body:
        context["body"] = body.replace(MYST_NB_SUMMARY, "<summary>")


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("html-page-context", name_toggles_by_their_text)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
