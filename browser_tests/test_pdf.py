"""The book as one PDF (``micrograd-book.pdf`` in the built site; browser_tests/print_book.py).

* every page of the book is in it, in the order of the table of contents;
* the worked neuron's numbers are there as text, as micrograd computes them;
* figures are vector drawings whose labels are text, and there is no raster
  image anywhere in the PDF (not in a form, a soft mask, a pattern, a glyph or
  an annotation either: :func:`raster_images`, tested on small PDFs below);
* no text is faded or under a soft mask (:func:`faded_text`), and every
  solution prints opened, all its code and not its "Show solution" toggle;
* the in-browser parts show their build output: every frame of a stepper;
* internal links lead to places in the PDF, and no link points at the local
  server that printed it;
* the page count is reasonable for the book's length;
* "Build your own micrograd" prints each step with its starter, and the
  solutions in an appendix after the last step;
* every page's download menu offers it.
"""

from __future__ import annotations

import io
import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ArrayObject, ContentStream, DictionaryObject, IndirectObject, StreamObject
from sitefiles import ROOT, article, parse, resolve_local

BOOK_PDF = "micrograd-book.pdf"
#: A4 pages: the book prints to about a hundred; far fewer means missing chapters,
#: far more means something printed huge or a page per frame.
PAGE_COUNT_RANGE = (40, 250)


@cache
def _reader(html: Path) -> Any:
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


def test_the_track_prints_each_exercise_with_its_starter_and_the_solutions_after(
    html: Path, pdf: Any
) -> None:
    """ "Build your own micrograd" on paper: each step's starter, then an appendix of solutions."""
    from book_runtime.features.track.checks import EXERCISES

    starts = chapter_starts(html, pdf)
    order = list(starts)
    page = "build-your-own.html"
    following = order[order.index(page) + 1] if order.index(page) + 1 < len(order) else None
    end = starts[following] + 1 if following else len(pdf.pages)
    # In reading order: Chromium draws a code block's text after the prose around it,
    # so the plain extraction puts a step's heading after its starter.
    # Typographic apostrophes as typed ones, as the titles are in
    # book_runtime.features.track.checks.
    chapter = _normal(
        " ".join(
            pdf.pages[n].extract_text(extraction_mode="layout") for n in range(starts[page], end)
        )
    ).replace("\u2019", "'")

    def printed(heading: str, code: str, at: int, what: str) -> int:
        """Find ``heading`` after ``at``, then each line of ``code`` in order: where the last is."""
        at = _find(chapter, heading, at)
        assert at >= 0, f"{what}: no heading {heading!r} after the one before, in order"
        for line in (_normal(line) for line in code.splitlines() if line.strip()):
            found = _find(chapter, line, at)
            assert found >= 0, f"{what}: the line {line!r} is not printed"
            at = found
        return at

    at = 0
    for number, exercise in enumerate(EXERCISES.values(), 1):
        at = printed(
            f"{number}. {exercise.title}", exercise.starter, at, f"{exercise.id}'s starter"
        )
    at = _find(chapter, "Solutions", at)
    assert at >= 0, "no appendix of solutions after the last step"
    for number, exercise in enumerate(EXERCISES.values(), 1):
        heading = f"Step {number}, {exercise.title}"
        at = printed(heading, exercise.solution, at, f"{exercise.id}'s solution")
    for control in ("Check step", "Show hint", "Reset all progress", "steps done"):
        assert _find(chapter, control) < 0, f"the runner's {control!r} is printed"


#: Where an inline image starts (``BI`` then its first key): a content stream without it
#: is not parsed for inline images (parsing all the book's pages takes about 10 s).
_INLINE_IMAGE_START = re.compile(rb"(?:^|[\s\x00\])>}])BI\s*/")


def _inline_images(stream: Any, reader: Any) -> int:
    """How many inline images (``BI`` ... ``EI``) the content stream ``stream`` draws."""
    if not _INLINE_IMAGE_START.search(stream.get_data()):
        return 0
    return sum(op == b"INLINE IMAGE" for _, op in ContentStream(stream, reader).operations)


def raster_images(reader: Any) -> list[str]:
    """Every raster image in the PDF, as "page N: where it is (its size)".

    Everything a page reaches is searched, not only its own XObjects: forms in
    forms, the groups of soft masks in its graphics states (where Chromium
    puts a blurred shadow), an image's own /SMask and /Mask, tiling patterns,
    Type 3 glyphs, annotations' appearance streams, and inline images in any
    of their content streams.  Other pages are not entered (an annotation's
    /P, a link's destination); an object shared by pages is counted once.
    """
    seen: set[tuple[int, int]] = set()
    found: list[str] = []

    def walk(obj: Any, where: str, page: Any, number: int, content: bool = False) -> None:
        if isinstance(obj, IndirectObject):
            if (obj.idnum, obj.generation) in seen:
                return
            seen.add((obj.idnum, obj.generation))
            obj = obj.get_object()
        if isinstance(obj, ArrayObject):
            for index, item in enumerate(obj):
                walk(item, f"{where}[{index}]", page, number, content)
            return
        if not isinstance(obj, DictionaryObject):
            return
        if obj.get("/Type") in ("/Page", "/Pages") and obj is not page:
            return
        if obj.get("/Subtype") == "/Image":
            found.append(f"page {number}: {where} ({obj.get('/Width')}x{obj.get('/Height')})")
        elif isinstance(obj, StreamObject) and (
            content or obj.get("/Subtype") == "/Form" or obj.get("/PatternType") == 1
        ):
            inline = _inline_images(obj, reader)
            found.extend([f"page {number}: {where}, an inline image"] * inline)
        for key, value in obj.items():
            # A page's /Contents and a Type 3 font's glyphs are content streams without a type.
            draws = (obj is page and key == "/Contents") or where.endswith("/CharProcs")
            walk(value, f"{where}{key}", page, number, draws)

    for number, page in enumerate(reader.pages, 1):
        walk(page, "", page, number)
    return found


#: The operators that show text.
_TEXT_SHOWING = {b"Tj", b"TJ", b"'", b'"'}


def _resource_kind(resources: Any, kind: str) -> Any:
    """The dictionary of one kind of resource (``/XObject``...), empty where there is none."""
    entries = resources.get_object().get(kind) if resources is not None else None
    return entries.get_object() if entries is not None else DictionaryObject()


def faded_text(reader: Any) -> dict[str, int]:
    """Text drawn faded: "page N: opacity x" or "page N: under a soft mask" -> how often.

    Follows each page's drawing in order, into the forms it draws (a form
    drawn at opacity 0.5 draws its text at half its own opacity); a graphics
    state sets the fill opacity (/ca) and the soft mask (/SMask), q and Q
    keep and restore them.
    """
    found: dict[str, int] = {}

    def draw(stream: Any, resources: Any, number: int, opacity: float, masked: bool) -> None:
        states, xobjects = (_resource_kind(resources, kind) for kind in ("/ExtGState", "/XObject"))
        fill, mask, saved = 1.0, False, []
        for operands, operator in ContentStream(stream, reader).operations:
            if operator == b"q":
                saved.append((fill, mask))
            elif operator == b"Q" and saved:
                fill, mask = saved.pop()
            elif operator == b"gs" and operands[0] in states:
                state = states[operands[0]].get_object()
                fill = float(state.get("/ca", fill))
                if "/SMask" in state:
                    mask = state["/SMask"] != "/None"
            elif operator == b"Do" and operands[0] in xobjects:
                form = xobjects[operands[0]].get_object()
                if form.get("/Subtype") == "/Form":
                    inner = form.get("/Resources", resources)
                    draw(form, inner, number, opacity * fill, masked or mask)
            elif operator in _TEXT_SHOWING and (opacity * fill < 1 or masked or mask):
                how = "under a soft mask" if masked or mask else f"opacity {opacity * fill:.3g}"
                key = f"page {number}: {how}"
                found[key] = found.get(key, 0) + 1

    for number, page in enumerate(reader.pages, 1):
        draw(page.get_contents(), page.get("/Resources"), number, 1.0, False)
    return found


def test_figures_are_vector_drawings_not_bitmaps(html: Path, pdf: Any) -> None:
    figures = sum(
        len(article(parse(html, page)).select("svg.micrograd-graph, div.cell_output img"))
        for page in book_order(html)
    )
    assert figures > 10, "the book has no figures to check"
    rasters = raster_images(pdf)
    where = "\n".join(rasters)
    assert not rasters, f"{len(rasters)} raster images in the PDF, which must be vector:\n{where}"


def test_no_text_prints_faded_or_masked(pdf: Any) -> None:
    """Every word prints at full opacity, solutions included (they are opened just before)."""
    faded = faded_text(pdf)
    assert not faded, "text printed faded (count of text runs):\n" + "\n".join(
        f"{where}: {count}" for where, count in faded.items()
    )


def test_solutions_print_opened_without_their_toggle(html: Path, pdf_text: str) -> None:
    """Every solution's code is in the PDF, and not the "Show/Hide solution" line above it."""
    solutions, toggles = [], set()
    for page in book_order(html):
        for cell in article(parse(html, page)).select("div.cell.tag_hide-cell"):
            code = cell.select_one("div.cell_input pre")
            assert code is not None, f"{page}: a solution without code"
            lines = [_normal(line) for line in code.get_text().splitlines() if line.strip()]
            solutions += [(page, line) for line in (lines[0], lines[-1])]
            toggles |= {p.get_text(strip=True) for p in cell.select("summary p")}
    assert solutions, "the book has no solutions to check"
    missing = [f"{page}: {line}" for page, line in solutions if _find(pdf_text, line) < 0]
    assert not missing, "solution code missing from the PDF:\n" + "\n".join(missing)
    printed = [toggle for toggle in sorted(toggles) if _find(pdf_text, toggle) >= 0]
    assert not printed, f"the solutions' toggle is printed: {printed}"


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


def test_a_nudgeable_graph_prints_as_built_with_its_line_about_the_site(
    html: Path, pdf_text: str
) -> None:
    """Paper cannot nudge: the graph prints as the build drew it, and its one sentence says
    that the site can (the directive's, docs/_features/nudge/directive.py)."""
    from book_runtime.features.nudge.directive import sentence

    found = []
    for page in book_order(html):
        for box in article(parse(html, page)).select("div.mg-nudge"):
            said = " ".join(box.get_text(" ", strip=True).split())
            assert _find(pdf_text, said[:60]) >= 0, f"{page}: not in the PDF: {said}"
            found.append(said)
    # One box for each nudge directive in the pages' sources: none lost on the way.
    directives = sum(
        len(re.findall(r"^```\{nudge\}", path.read_text(encoding="utf-8"), re.MULTILINE))
        for path in (ROOT / "docs").glob("*.md")
    )
    assert directives >= 4, f"only {directives} nudge directives in the pages"
    assert len(found) == directives, found
    assert sentence("o", ["x1", "w1", "x2", "w2", "b"]).replace("'", "’") in found


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


# -- the raster and fade checks, on PDFs whose answer is known ---------------------------------

#: A 1x1 grey image (an image XObject's dictionary and data).
IMAGE = (
    "/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8",
    b"\x80",
)
#: The same image inline in a content stream.
INLINE_IMAGE = b"q BI /W 1 /H 1 /CS /G /BPC 8 ID \x80 EI Q"
FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
TEXT = b"BT /F 1 Tf (a) Tj ET"


def _form(resources: str, content: bytes) -> tuple[str, bytes]:
    return f"/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources << {resources} >>", content


def tiny_pdf(page: str, *objects: str | tuple[str, bytes]) -> Any:
    """A one-page PDF, read back by pypdf: ``page`` holds the page dictionary's own entries.

    Objects 1 to 3 are the catalog, the page tree and the page; ``objects``
    are 4, 5, ...: a dictionary as text, or a stream as (its entries, its data).
    """
    bodies = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] {page} >>".encode(),
    ]
    for obj in objects:
        if isinstance(obj, tuple):
            entries, data = obj
            head = f"<< {entries} /Length {len(data)} >>\nstream\n".encode()
            bodies.append(head + data + b"\nendstream")
        else:
            bodies.append(obj.encode())
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(bodies, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(bodies) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    trailer = f"trailer\n<< /Size {len(bodies) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    return PdfReader(io.BytesIO(bytes(out + trailer.encode())))


RASTER_CASES = {
    "an image the page draws": (
        1,
        "/Resources << /XObject << /Im 5 0 R >> >> /Contents 4 0 R",
        ("", b"q /Im Do Q"),
        IMAGE,
    ),
    "an image in a form in a form": (
        1,
        "/Resources << /XObject << /F 5 0 R >> >> /Contents 4 0 R",
        ("", b"/F Do"),
        _form("/XObject << /G 6 0 R >>", b"/G Do"),
        _form("/XObject << /Im 7 0 R >>", b"/Im Do"),
        IMAGE,
    ),
    # What Chromium makes of a blurred box-shadow: the blur is an image in a soft mask.
    "an image in the group of a graphics state's soft mask": (
        1,
        "/Resources << /ExtGState << /S 5 0 R >> >> /Contents 4 0 R",
        ("", b"/S gs 0 0 1 1 re f"),
        "<< /Type /ExtGState /SMask << /Type /Mask /S /Luminosity /G 6 0 R >> >>",
        _form("/XObject << /Im 7 0 R >>", b"/Im Do"),
        IMAGE,
    ),
    "an image and its own soft mask": (
        2,
        "/Resources << /XObject << /Im 5 0 R >> >> /Contents 4 0 R",
        ("", b"/Im Do"),
        (IMAGE[0] + " /SMask 6 0 R", IMAGE[1]),
        IMAGE,
    ),
    "an inline image on the page": (1, "/Contents 4 0 R", ("", INLINE_IMAGE)),
    "an inline image in a form": (
        1,
        "/Resources << /XObject << /F 5 0 R >> >> /Contents [4 0 R]",
        ("", b"/F Do"),
        _form("", INLINE_IMAGE),
    ),
    "an image in a tiling pattern": (
        1,
        "/Resources << /Pattern << /P 5 0 R >> >> /Contents 4 0 R",
        ("", b"/Pattern cs /P scn 0 0 1 1 re f"),
        (
            "/PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 1 1] /XStep 1 /YStep 1"
            " /Resources << /XObject << /Im 6 0 R >> >>",
            b"/Im Do",
        ),
        IMAGE,
    ),
    "an image in an annotation's appearance": (
        1,
        "/Annots [4 0 R]",
        "<< /Type /Annot /Subtype /Stamp /Rect [0 0 1 1] /P 3 0 R /AP << /N 5 0 R >> >>",
        _form("/XObject << /Im 6 0 R >>", b"/Im Do"),
        IMAGE,
    ),
    "an inline image as a Type 3 glyph": (
        1,
        "/Resources << /Font << /T 5 0 R >> >> /Contents 4 0 R",
        ("", b"BT /T 1 Tf (a) Tj ET"),
        "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1 1] /FontMatrix [1 0 0 1 0 0]"
        " /CharProcs << /a 6 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >>"
        " /FirstChar 97 /LastChar 97 /Widths [1] >>",
        ("", b"1 0 0 0 1 1 d1 " + INLINE_IMAGE),
    ),
    "vector drawing only, faded, in a form": (
        0,
        "/Resources << /ExtGState << /A << /ca 0.5 >> >> /XObject << /F 5 0 R >> >>"
        " /Contents 4 0 R",
        ("", b"/A gs 0 0 1 1 re f /F Do"),
        _form("", b"0 0 m 1 1 l S ( BI /W) Tj"),
    ),
}


@pytest.mark.parametrize("case", list(RASTER_CASES))
def test_the_raster_check_finds_an_image_wherever_the_pdf_keeps_it(case: str) -> None:
    expected, page, *objects = RASTER_CASES[case]
    found = raster_images(tiny_pdf(page, *objects))
    assert len(found) == expected, found


FADE_CASES = {
    "opaque text": (0, "/Resources << /Font << /F 4 0 R >> >> /Contents 5 0 R", FONT, ("", TEXT)),
    "text after a fade is restored": (
        0,
        "/Resources << /Font << /F 4 0 R >> /ExtGState << /H << /ca 0.5 >> >> >> /Contents 5 0 R",
        FONT,
        ("", b"q /H gs 0 0 1 1 re f Q " + TEXT),
    ),
    "text at half opacity": (
        1,
        "/Resources << /Font << /F 4 0 R >> /ExtGState << /H << /ca 0.5 >> >> >> /Contents 5 0 R",
        FONT,
        ("", b"q /H gs " + TEXT + b" Q"),
    ),
    "text in a form drawn at half opacity": (
        1,
        "/Resources << /ExtGState << /H << /ca 0.5 >> >> /XObject << /X 6 0 R >> >>"
        " /Contents 5 0 R",
        FONT,
        ("", b"/H gs /X Do"),
        _form("/Font << /F 4 0 R >>", TEXT),
    ),
    "text under a soft mask": (
        1,
        "/Resources << /Font << /F 4 0 R >> /ExtGState << /M 6 0 R >> >> /Contents 5 0 R",
        FONT,
        ("", b"/M gs " + TEXT),
        "<< /Type /ExtGState /SMask << /Type /Mask /S /Luminosity /G 7 0 R >> >>",
        _form("", b"1 g 0 0 1 1 re f"),
    ),
    "text after the soft mask is taken off": (
        0,
        "/Resources << /Font << /F 4 0 R >> /ExtGState << /M 6 0 R /N << /SMask /None >> >> >>"
        " /Contents 5 0 R",
        FONT,
        ("", b"/M gs /N gs " + TEXT),
        "<< /Type /ExtGState /SMask << /Type /Mask /S /Luminosity /G 7 0 R >> >>",
        _form("", b"1 g 0 0 1 1 re f"),
    ),
}


@pytest.mark.parametrize("case", list(FADE_CASES))
def test_the_fade_check_finds_faded_text(case: str) -> None:
    expected, page, *objects = FADE_CASES[case]
    found = faded_text(tiny_pdf(page, *objects))
    assert sum(found.values()) == expected, found


@pytest.mark.parametrize(
    ("style", "rasters", "faded"),
    [
        ("", False, False),
        ("box-shadow: 0 0.2rem 0.5rem rgb(0 0 0 / 10%)", True, False),
        ("opacity: 0.5", False, True),
    ],
)
def test_the_checks_see_what_chromium_prints_for_a_shadow_and_a_fade(
    browser: Any, style: str, rasters: bool, faded: bool
) -> None:
    """The theme's shadow around a box, printed by Chromium, is found; and a fade."""
    tab = browser.new_page()
    try:
        tab.set_content(f'<pre style="margin: 2rem; padding: 1rem; {style}">x = 1</pre>')
        printed = PdfReader(io.BytesIO(tab.pdf(format="A4", print_background=True)))
    finally:
        tab.close()
    assert bool(raster_images(printed)) == rasters, raster_images(printed)
    assert bool(faded_text(printed)) == faded, faded_text(printed)


def test_the_steppers_questions_print_with_their_answers_after_the_last_page(
    html: Path, pdf_text: str
) -> None:
    """Paper cannot ask: every stepper's predict questions print at the end, with the answers."""
    from book_runtime.features.predict.answers import APPENDIX_TITLE, questions_in

    last = _title(html, "api.html")
    at = _find(pdf_text, APPENDIX_TITLE, _find(pdf_text, last))
    assert at >= 0, "no appendix of the steppers' questions after the last page"
    for page in ("backward.html", "neuron.html"):
        steppers = questions_in((html / page).read_text(encoding="utf-8"))
        assert steppers, f"{page} has no stepper with questions"
        for data in steppers:
            for frame in filter(None, data["frames"]):
                for ask in frame["asks"]:
                    line = _normal(f"{ask['grad']} = {ask['answer']}:")
                    found = _find(pdf_text, line, at)
                    assert found >= 0, f"{page}: {line!r} is not printed, in order"
                    at = found
