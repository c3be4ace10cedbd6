"""What the book's nudge panels say, and where: how to nudge is taught once, in full.

The build (``book_runtime.features.nudge.directive``) marks the book's first
nudgeable graph in reading order as the one that teaches (``teach``); every
other panel says it in one line (nudge.js, ``leadText``).  The sentence paper
and a page without scripts show is true wherever it is read.
"""

from __future__ import annotations

import re
from pathlib import Path

from book_runtime.features.nudge.directive import sentence
from forward_refs import first_in_order

DOCS = Path(__file__).resolve().parents[3] / "docs"


def _reading_order() -> list[str]:
    """The start page, then the documents of its tables of contents, in order."""
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    pages = ["index"]
    for block in re.findall(r"```\{toctree\}\n(.*?)```", index, re.DOTALL):
        pages += [line for line in block.splitlines() if line and not line.startswith(":")]
    return pages


def _nudge_pages() -> set[str]:
    return {
        path.stem
        for path in DOCS.glob("*.md")
        if re.search(r"^```\{nudge\}", path.read_text(encoding="utf-8"), re.MULTILINE)
    }


def test_the_nudge_instructions_are_taught_once_on_the_first_nudgeable_page() -> None:
    order = _reading_order()
    pages = _nudge_pages()
    assert len(pages) >= 4, pages
    teacher = first_in_order(pages, order)
    assert teacher == "index", teacher
    assert first_in_order(pages - {"index"}, order) == "value"
    assert first_in_order(set(), order) is None


def test_the_paper_sentence_is_true_on_paper_and_on_the_site_without_scripts() -> None:
    said = sentence("c", ["a", "b"])
    assert said == (
        "On the book's web pages, with JavaScript on, this graph can be nudged: move a or b "
        "a little and watch c change by about its gradient times the nudge."
    )
    assert "On the book's site, this graph" not in said
    assert sentence("o", ["w1"]).count("move w1 a little") == 1
