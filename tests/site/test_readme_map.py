"""The README's list of the book's pages follows the site's table of contents."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _toctree_pages() -> list[str]:
    """The documents of the start page's tables of contents, in reading order."""
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    pages = []
    for block in re.findall(r"```\{toctree\}\n(.*?)```", index, re.DOTALL):
        pages += [line for line in block.splitlines() if line and not line.startswith(":")]
    return pages


def _title(page: str) -> str:
    """A page's title: its first level-one heading outside a code cell."""
    in_code = False
    for line in (DOCS / f"{page}.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("# "):
            return line[2:].strip()
    raise AssertionError(f"{page}.md has no title")


def _readme_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The book, page by page", 1)[1].split("\n## ", 1)[0]
    return " ".join(section.split())


def test_readme_names_every_page_of_the_book_in_reading_order() -> None:
    section = _readme_section()
    pages = _toctree_pages()
    assert len(pages) >= 19, pages
    positions = []
    for page in pages:
        title = " ".join(_title(page).split())
        assert title in section, f"the README's list of pages lacks {title!r} ({page}.md)"
        positions.append(section.index(title))
    assert positions == sorted(positions), "the README lists the pages out of reading order"


def test_readme_names_part_two() -> None:
    assert "Part II" in _readme_section()
