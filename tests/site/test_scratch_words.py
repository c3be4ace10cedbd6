"""The scratch cell ("Try your own code") says what it sees in full once, on the book's first.

The build marks that page in its cell manifest (``teachScratch``, cell_manifest.py):
the first page in reading order that shows a cell the reader can run.  The
runner's words for either case are tested in Node (tests/js/site/session.test.mjs).
"""

from __future__ import annotations

from cell_manifest import runs_in_the_browser
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.utils import new_document
from forward_refs import first_in_order


def page(*cells: tuple[list[str], bool]) -> nodes.document:
    """A page of code cells as myst-nb parses them: (tags, whether it shows its code)."""
    document = new_document("<page>", get_default_settings())
    for tags, shows_code in cells:
        cell = nodes.container(
            nb_element="cell_code", classes=["cell", *(f"tag_{t}" for t in tags)]
        )
        if shows_code:
            cell += nodes.container(nb_element="cell_code_source", classes=["cell_input"])
        cell += nodes.container(nb_element="cell_code_output", classes=["cell_output"])
        document += cell
    return document


def test_a_page_with_a_shown_runnable_cell_has_a_scratch_cell() -> None:
    assert runs_in_the_browser(page((["build-only"], True), ([], True)))


def test_a_page_of_build_only_or_hidden_code_has_none() -> None:
    assert not runs_in_the_browser(page((["build-only"], True), (["remove-input"], False)))
    assert not runs_in_the_browser(page())


def test_the_scratch_cells_words_are_whole_on_the_first_page_that_has_one() -> None:
    order = ["index", "value", "backward", "pytorch"]
    assert first_in_order({"pytorch", "value"}, order) == "value"
    assert first_in_order(set(), order) is None
