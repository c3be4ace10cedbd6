"""Helpers shared by the browser and static checks of the built site.

Everything here reads the *built* HTML site (``docs/_build/html`` by default,
or the directory named by the ``MICROGRAD_SITE_HTML`` environment variable) and
the executed notebooks myst-nb writes next to it (``../jupyter_execute``).
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

import numpy as np
from bs4 import BeautifulSoup
from PIL import Image

if TYPE_CHECKING:
    from bundle import Bundle

ROOT = Path(__file__).resolve().parent.parent
#: The book's MIME types, from the one file that spells them (the runner reads it too).
MIME_TYPES: dict[str, str] = json.loads(
    (ROOT / "docs" / "_static" / "runner" / "mime_types.json").read_text(encoding="utf-8")
)
SITE_ENV = "MICROGRAD_SITE_HTML"

#: Folders of the built site that hold assets, not pages a reader navigates to.
ASSET_DIRS = frozenset({"_static", "_sources", "_images", "_downloads", "jupyter_execute"})

#: Pages Sphinx generates for every site; they have no article body of their own.
GENERATED_PAGES = frozenset({"genindex.html", "search.html", "py-modindex.html"})
#: Folders of pages Sphinx generates (sphinx.ext.viewcode's highlighted sources).
GENERATED_DIRS = frozenset({"_modules"})

#: Notebook cell tags with which myst-nb leaves a cell's input out of the page.
REMOVED_INPUT_TAGS = frozenset({"remove-cell", "remove_cell", "remove-input", "remove_input"})


# The build's modules (docs/_ext, on pytest's path) are imported where they are used:
# print_book.py imports this module outside pytest.
@functools.cache
def runner_bundle() -> Bundle:
    """The runner's JavaScript bundled as the build bundles it (the same names: esbuild's
    output is the same bytes in every build of the same sources)."""
    from bundle import bundle

    return bundle(ROOT / "node_modules", Path(tempfile.mkdtemp(prefix="runner-bundle-")))


def page_side_files() -> set[str]:
    """What a page fetches of the runner before any Run: runner.css, runner.js and its chunks."""
    from browser_runner import page_side

    return {"runner.css", *page_side(runner_bundle())}


def add_on_files(module: str) -> set[str]:
    """What a page that has an add-on's feature (a nudgeable graph: nudge.js) fetches of it
    before any Run, besides :func:`page_side_files`."""
    from browser_runner import with_its_page

    return with_its_page(runner_bundle(), module)


def editor_files() -> set[str]:
    """The bundle's files holding the editor's CodeMirror (fetched at the first Edit or Run)."""
    from bundle import sources_in

    page = runner_bundle().metafiles["page"]
    outputs = {Path(path).name for path in page["outputs"]}
    return {
        name
        for name in outputs
        if any("/@codemirror/view/" in source for source in sources_in(page, {name}))
    }


def first_run_files(html: Path, page: str) -> list[dict[str, int]]:
    """What a first Run on each code cell of ``page`` fetches, as the build recorded it
    (``browser_runner.first_run_files``, whose sums the runner's status names):
    one ``{path in _static/runner/: bytes}`` per code cell, in the manifest's order."""
    from browser_runner import FIRST_RUN_RECORDS

    record = html / ".doctrees" / FIRST_RUN_RECORDS / Path(page).with_suffix(".json")
    return list(json.loads(record.read_text(encoding="utf-8")))


def site_dir() -> Path:
    """Return the directory of the built HTML site."""
    return Path(os.environ.get(SITE_ENV, ROOT / "docs" / "_build" / "html")).resolve()


def executed_notebooks_dir(html: Path) -> Path:
    """Return where myst-nb wrote the executed notebooks for the site in ``html``."""
    return html.parent / "jupyter_execute"


def discover_pages(html: Path) -> list[str]:
    """Return every HTML page of the site as a POSIX path relative to ``html``.

    Asset folders (``_static``, ``_sources``, ...) are left out.
    """
    if not (html / "index.html").is_file():
        return []
    pages = []
    for path in html.rglob("*.html"):
        rel = path.relative_to(html)
        if rel.parts[0] in ASSET_DIRS:
            continue
        pages.append(rel.as_posix())
    return sorted(pages)


def content_pages(pages: list[str]) -> list[str]:
    """Return the pages that have an article body written by the authors."""
    return [p for p in pages if p not in GENERATED_PAGES and p.split("/")[0] not in GENERATED_DIRS]


def is_source_listing(page: str) -> bool:
    """Whether ``page`` is a module's highlighted source (sphinx.ext.viewcode's ``_modules/``)."""
    return page.split("/")[0] == "_modules" and page != "_modules/index.html"


def element_kinds(html: Path, page: str) -> frozenset[tuple[Any, ...]]:
    """What kinds of element ``page`` has: each element's tag and classes, with its parent's."""

    def kind(element: Any) -> tuple[str, tuple[str, ...]]:
        return element.name, tuple(sorted(element.get("class") or []))

    return frozenset((kind(e.parent), kind(e)) for e in parse(html, page).find_all(True))


def covering_pages(html: Path, pages: list[str]) -> list[str]:
    """``pages`` with the fewest source listings that still hold every kind of element they hold.

    The source listings are one template and one stylesheet filled with
    highlighted code: a listing whose every kind of element (tag and classes,
    in its parent's) another kept listing has can look and read no different
    from it.  The others are kept whole.  Chosen greedily: the listing with
    the most kinds not yet held, until every kind is held.
    """
    listings = [p for p in pages if is_source_listing(p)]
    kinds = {p: element_kinds(html, p) for p in listings}
    wanted = frozenset().union(*kinds.values())
    kept: list[str] = []
    held: frozenset[tuple[Any, ...]] = frozenset()
    while held != wanted:
        best = max(listings, key=lambda p: (len(kinds[p] - held), p))
        kept.append(best)
        held |= kinds[best]
    return [p for p in pages if not is_source_listing(p) or p in kept]


@functools.cache
def parse(html: Path, page: str) -> BeautifulSoup:
    """Parse one built page (cached: callers must not modify the tree)."""
    return BeautifulSoup((html / page).read_text(encoding="utf-8"), "html.parser")


def article(soup: BeautifulSoup) -> BeautifulSoup:
    """Return the article body of a page (the part the authors wrote)."""
    found = soup.select_one("article.bd-article") or soup.select_one('[role="main"]')
    if found is None:
        raise ValueError("page has no <article class='bd-article'> or [role=main] element")
    return found


def iter_local_references(soup: BeautifulSoup) -> Iterator[tuple[str, str, str]]:
    """Yield ``(tag, attribute, value)`` for every URL-valued attribute of a page."""
    for tag, attr in (
        ("a", "href"),
        ("link", "href"),
        ("img", "src"),
        ("script", "src"),
        ("source", "src"),
        ("iframe", "src"),
        ("object", "data"),
    ):
        for element in soup.find_all(tag):
            value = element.get(attr)
            if value:
                yield tag, attr, str(value)


def is_external(url: str) -> bool:
    """Return True when ``url`` points at another origin (has a scheme or a host)."""
    parts = urlsplit(url)
    return bool(parts.netloc) or parts.scheme not in ("", "file")


def resolve_local(html: Path, page: str, url: str) -> tuple[Path, str]:
    """Resolve a relative ``url`` found on ``page`` to ``(file, fragment)``."""
    parts = urlsplit(url)
    if parts.path:
        target = (html / page).parent / unquote(parts.path)
        if parts.path.endswith("/"):
            target = target / "index.html"
    else:
        target = html / page
    return target.resolve(), unquote(parts.fragment)


def notebook_code_sources(html: Path, page: str) -> list[str] | None:
    """Return the sources of the code cells of ``page`` whose input the page shows.

    Reads the executed notebook myst-nb wrote for the page; returns None when
    the page is not a notebook.
    """
    notebook = executed_notebooks_dir(html) / Path(page).with_suffix(".ipynb")
    if not notebook.is_file():
        return None
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    sources = []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        tags = set(cell.get("metadata", {}).get("tags", []))
        if tags & REMOVED_INPUT_TAGS:
            continue
        source = cell["source"]
        sources.append(source if isinstance(source, str) else "".join(source))
    return sources


RGB = tuple[int, int, int]


def relative_luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour given as 0-255 ints."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio between two colours (1.0 to 21.0)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def backing_and_ink(image: Image.Image) -> tuple[RGB, RGB, float]:
    """Return ``(backing, ink, contrast)`` of a rendered picture.

    ``backing`` is its most frequent colour, ``ink`` its darkest colour, and
    ``contrast`` their WCAG contrast ratio.
    """
    pixels = np.asarray(image.convert("RGB"), dtype=np.int64).reshape(-1, 3)
    found, counts = np.unique(pixels, axis=0, return_counts=True)
    colours: list[RGB] = [(int(r), int(g), int(b)) for r, g, b in found]
    backing = colours[int(counts.argmax())]
    ink = min(colours, key=relative_luminance)
    return backing, ink, contrast_ratio(backing, ink)
