"""The book as one PDF (``micrograd-book.pdf`` in the built site; browser_tests/print_book.py).

* every page of the book is in it, in the order of the table of contents;
* the worked neuron's numbers are there as text, as micrograd computes them;
* figures are vector drawings (no raster image anywhere) whose labels are text;
* the in-browser parts show their build output: every frame of a stepper;
* internal links lead to places in the PDF, and no link points at the local
  server that printed it;
* the page count is reasonable for the book's length;
* every page's download menu offers it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from sitefiles import article, parse, resolve_local

BOOK_PDF = "micrograd-book.pdf"
#: A4 pages: the book prints to about a hundred; far fewer means missing chapters,
#: far more means something printed huge or a page per frame.
PAGE_COUNT_RANGE = (40, 250)


@cache
def _reader(html: Path) -> Any:
    from pypdf import PdfReader

    path = html / BOOK_PDF
    if not path.is_file():
        pytest.fail(f"no {path}: `python -m nox -s pdf` (or `-s browser`) prints it")
    return PdfReader(str(path))


@pytest.fixture(scope="module")
def pdf(html: Path) -> Any:
    return _reader(html)


def _normal(text: str) -> str:
    """Ligatures as letters (NFKC: "ﬁ" is "fi"), any run of white space as one space."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


@pytest.fixture(scope="module")
def page_texts(pdf: Any) -> list[str]:
    """The text of each page of the PDF, normalised (:func:`_normal`)."""
    return [_normal(page.extract_text()) for page in pdf.pages]


@pytest.fixture(scope="module")
def pdf_text(page_texts: list[str]) -> str:
    return " ".join(page_texts)


def _title(html: Path, page: str) -> str:
    h1 = article(parse(html, page)).find("h1")
    assert h1 is not None, f"{page} has no title"
    return _normal(h1.get_text(" ", strip=True).rstrip("#"))


def book_order(html: Path) -> list[str]:
    """The pages of the book in the order of its table of contents (index first)."""
    links = parse(html, "index.html").select("nav.bd-docs-nav a.reference.internal")
    pages = [str(a["href"]).split("#")[0] for a in links]
    return list(dict.fromkeys(["index.html", *pages]))


def chapter_starts(html: Path, pdf: Any) -> dict[str, int]:
    """Book page -> the PDF page (from 0) where its chapter starts.

    The single-page build marks where each page begins with an anchor
    ``document-<name>``, which the contents link to, so the PDF has a named
    destination for it; the index is the start of the book.
    """
    destinations = pdf.named_destinations
    starts = {}
    for page in book_order(html):
        if page == "index.html":
            starts[page] = 0
            continue
        name = f"/document-{Path(page).with_suffix('').as_posix()}"
        assert name in destinations, f"{page}: the PDF has no destination {name}"
        starts[page] = pdf.get_destination_page_number(destinations[name])
    return starts


def _find(text: str, phrase: str, start: int = 0) -> int:
    """Where ``phrase`` is in ``text`` from ``start``, allowing any white space between words."""
    pattern = r"\s*".join(re.escape(word) for word in phrase.split())
    found = re.compile(pattern).search(text, start)
    return found.start() if found else -1


def test_every_page_of_the_book_is_in_the_pdf_in_order(
    html: Path, pdf: Any, page_texts: list[str]
) -> None:
    starts = chapter_starts(html, pdf)
    assert len(starts) > 5, starts
    order = list(starts.values())
    assert order == sorted(order), f"chapters out of the contents' order: {starts}"
    for page, first in starts.items():
        title = _title(html, page)
        opening = " ".join(page_texts[first : first + 2])  # a title may move to the next sheet
        assert _find(opening, title) >= 0, f"{page}: {title!r} is not where its chapter starts"


def test_the_neurons_numbers_are_text_in_the_pdf(
    html: Path, pdf: Any, page_texts: list[str]
) -> None:
    from micrograd import Value

    x1, w1 = Value(2.0, label="x1"), Value(-3.0, label="w1")
    x2, w2 = Value(0.0, label="x2"), Value(1.0, label="w2")
    o = (x1 * w1 + x2 * w2 + Value(6.8813735870195432)).tanh()
    o.backward()
    starts = chapter_starts(html, pdf)
    order = list(starts)
    following = order[order.index("neuron.html") + 1]
    chapter = " ".join(page_texts[starts["neuron.html"] : starts[following] + 1])
    for value in (o.data, x1.grad, w1.grad, x2.grad, w2.grad):  # 0.7071 -1.5 1.0 0.5 0.0
        shown = f"{value:.4f}"
        assert shown in chapter, f"{shown} is not text in the neuron chapter of the PDF"
    # The numbers in the graph pictures are text too: the pictures are drawings.
    assert f"grad {x1.grad:.4f}" in chapter
    assert f"data {o.data:.4f}" in chapter


def _raster_images(resources: Any, seen: set[int]) -> int:
    """The raster images in a page's (or form's) resources, forms included."""
    if resources is None:
        return 0
    count = 0
    xobjects = resources.get_object().get("/XObject")
    for ref in xobjects.get_object().values() if xobjects is not None else ():
        obj = ref.get_object()
        key = id(obj)
        if key in seen:
            continue
        seen.add(key)
        if obj.get("/Subtype") == "/Image":
            count += 1
        elif obj.get("/Subtype") == "/Form":
            count += _raster_images(obj.get("/Resources"), seen)
    return count


def test_figures_are_vector_drawings_not_bitmaps(html: Path, pdf: Any) -> None:
    figures = sum(
        len(article(parse(html, page)).select("svg.micrograd-graph, div.cell_output img"))
        for page in book_order(html)
    )
    assert figures > 10, "the book has no figures to check"
    seen: set[int] = set()
    rasters = sum(_raster_images(page.get("/Resources"), seen) for page in pdf.pages)
    assert rasters == 0, f"{rasters} raster images in the PDF: figures must stay vector drawings"


def test_a_stepper_shows_every_frame_in_the_pdf(html: Path, pdf_text: str) -> None:
    """Paper has no buttons: every frame of every stepper, with its caption."""
    for page in book_order(html):
        for stepper in article(parse(html, page)).select(".mg-stepper"):
            captions = [
                " ".join(c.get_text(" ", strip=True).split())
                for c in stepper.select(".mg-stepper-frame figcaption")
            ]
            assert captions, f"{page}: a stepper without frame captions"
            missing = [c for c in captions if _find(pdf_text, c[:60]) < 0]
            assert not missing, f"{page}: frames missing from the PDF: {missing}"


def test_links_in_the_pdf_lead_into_it_or_to_other_sites(pdf: Any) -> None:
    names = set(pdf.named_destinations)
    internal, broken, local = 0, [], []
    for number, page in enumerate(pdf.pages, 1):
        for annotation in page.get("/Annots") or []:
            link = annotation.get_object()
            if link.get("/Subtype") != "/Link":
                continue
            if "/Dest" in link:
                internal += 1
                dest = link["/Dest"]
                if isinstance(dest, str) and dest.lstrip("/") not in names and dest not in names:
                    broken.append(f"page {number}: {dest}")
            elif "/A" in link and link["/A"].get("/S") == "/URI":
                uri = str(link["/A"]["/URI"])
                if re.match(r"(?i)(file:|https?://(127\.0\.0\.1|localhost))", uri):
                    local.append(f"page {number}: {uri}")
    assert internal >= 20, f"only {internal} internal links (the contents alone have more)"
    assert not broken, "links to places the PDF does not have:\n" + "\n".join(broken)
    assert not local, "links to the machine that printed the PDF:\n" + "\n".join(local)


def test_the_page_count_is_reasonable(pdf: Any) -> None:
    low, high = PAGE_COUNT_RANGE
    assert low <= len(pdf.pages) <= high, f"{len(pdf.pages)} pages"


def test_every_download_menu_offers_the_book_pdf(html: Path, page_path: str) -> None:
    soup = parse(html, page_path)
    menu = soup.select_one(".dropdown-download-buttons")
    if menu is None:  # generated pages (index, search, source listings) have no menu
        assert page_path not in book_order(html), f"{page_path} has no download menu"
        return
    links = [str(a["href"]) for a in menu.select("a[href]") if a["href"].endswith(BOOK_PDF)]
    assert len(links) == 1, f"{page_path}: the download menu does not offer {BOOK_PDF}"
    target, _ = resolve_local(html, page_path, links[0])
    assert target == (html / BOOK_PDF).resolve()
