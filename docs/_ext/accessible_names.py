"""Sphinx extension: a hidden cell's toggle is named by what it shows.

myst-nb writes the toggle of a hidden cell as ``<summary aria-label="Toggle
hidden content">`` while it shows "Show solution" (the page's code_prompt_show,
or myst-nb's "Show code cell content"): a screen reader
says one name and the reader sees another (WCAG 2.5.3, label in name; axe-core's
``label-content-name-mismatch``).  Without the ``aria-label``, the name is the
text the toggle shows ("Show solution" or "Hide solution", whichever is visible).

The toggle also says which cell it hides ("Show solution (cell 7)"): the runner numbers
every cell that shows its code, hidden ones too, so without it the numbers a reader
sees skip one at a folded cell.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from myst_nb.sphinx_ import HideCodeCellNode
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

#: The toggle as myst-nb 1.4 writes it (myst_nb/sphinx_.py, HideCodeCellNode).
MYST_NB_SUMMARY = '<summary aria-label="Toggle hidden content">'


def name_toggles_by_their_text(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Drop the fixed ``aria-label`` of hidden cells' toggles from the page's body."""
    body = context.get("body")
    if isinstance(body, str) and MYST_NB_SUMMARY in body:
        context["body"] = body.replace(MYST_NB_SUMMARY, "<summary>")


def _shows_code(cell: nodes.Element) -> bool:
    """Whether a code cell shows its code (the page's div.cell_input), folded or not."""
    return any(n.get("nb_element") == "cell_code_source" for n in cell.findall(nodes.container))


class NumberFoldedCells(SphinxPostTransform):
    """Each folded cell's toggle says its number among the cells that show their code."""

    default_priority = 200  # after myst-nb's HideInputCells (199) made the toggles
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        number = 0
        for cell in self.document.findall(nodes.container):
            if cell.get("nb_element") != "cell_code" or not _shows_code(cell):
                continue
            number += 1
            for toggle in cell.findall(HideCodeCellNode):
                for key in ("prompt_show", "prompt_hide"):
                    toggle[key] = f"{toggle[key]} (cell {number})"


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_post_transform(NumberFoldedCells)
    app.connect("html-page-context", name_toggles_by_their_text)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
