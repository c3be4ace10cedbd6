"""The notebook a reader downloads, and the outputs the page prints.

The download (``_sources/<page>.ipynb``, the theme's download menu) is the page
as it reads: without the cells the page hides (the setup cell imports
``myst_nb``; the glue cells, run in Jupyter, show every glued number a second
time) and with the glued numbers written into its text, as the page shows them.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import CONTENT_PAGES as PAGES
from sitefiles import article, parse


def downloads(html: Path) -> dict[str, dict[str, object]]:
    folder = html / "_sources"
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(folder.glob("*.ipynb"))
    }


def _source(cell: dict[str, object]) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)  # type: ignore[arg-type]


def test_every_notebook_page_offers_a_download(html: Path) -> None:
    offered = downloads(html)
    assert {"backward", "moons", "pytorch"} <= set(offered)
    for name in offered:
        page = parse(html, f"{name}.html")
        links = [a["href"] for a in page.select("a[href]") if str(a["href"]).endswith(".ipynb")]
        assert links, f"{name}.html does not offer its notebook"


def test_the_download_has_no_hidden_cells_and_no_glue(html: Path) -> None:
    for name, notebook in downloads(html).items():
        for cell in notebook["cells"]:  # type: ignore[attr-defined]
            text = _source(cell)
            tags = cell.get("metadata", {}).get("tags", [])
            assert "remove-cell" not in tags, f"{name}: a hidden cell in the download"
            assert "myst_nb" not in text, f"{name}: the download needs myst_nb"
            assert "glue(" not in text, f"{name}: a glue call would print its number again"
            assert "{glue" not in text, f"{name}: a glue role left in the text: {text[:80]!r}"
            for role in ("{claim}", "{pair}"):
                assert role not in text, f"{name}: a {role} role left in the text: {text[:80]!r}"
            for output in cell.get("outputs", []):
                assert "scrapbook" not in output.get("metadata", {}), name
                plain = output.get("data", {}).get("text/plain", "")
                assert " at 0x" not in "".join(plain), f"{name}: a memory address: {plain}"


def test_the_download_says_the_numbers_the_page_says(html: Path) -> None:
    checked = 0
    for name, notebook in downloads(html).items():
        markdown = "\n".join(
            _source(c)
            for c in notebook["cells"]  # type: ignore[attr-defined]
            if c["cell_type"] == "markdown"
        )
        position = 0
        # What the page shows: not a claim's other wording, hidden until a run needs it.
        shown = article(parse(html, f"{name}.html")).select(
            "span.pasted-text:not(.mg-claim-fails span)"
        )
        for span in shown:
            found = markdown.find(span.get_text(), position)
            assert found >= 0, f"{name}: the page says {span.get_text()!r}, the download does not"
            position = found
            checked += 1
    assert checked > 50, f"only {checked} glued numbers compared"


def test_no_output_ends_with_a_blank_line(html: Path) -> None:
    for page in PAGES:
        for pre in article(parse(html, page)).select("div.cell_output pre"):
            text = pre.get_text()
            assert not text.endswith("\n\n"), f"{page}: an output ends with a blank line"
            assert not text.startswith("\n"), f"{page}: an output starts with a blank line"


def _printed_lines(text: str) -> list[str]:
    """Printed text as lines, without trailing spaces or blank lines.

    The page joins a cell's printed pieces and strips each one's trailing
    whitespace (myst-nb's ``merge_streams``); the download keeps the text as
    the kernel sent it.  Blank lines and trailing spaces aside, both must say
    the same, each line once.
    """
    return [line.rstrip() for line in text.splitlines() if line.strip()]


def test_the_download_prints_what_the_page_prints(html: Path) -> None:
    checked = 0
    for name, notebook in downloads(html).items():
        code = [c for c in notebook["cells"] if c["cell_type"] == "code"]  # type: ignore[attr-defined]
        shown = article(parse(html, f"{name}.html")).select("div.cell")
        assert len(shown) == len(code), (
            f"{name}: {len(shown)} cells on the page, {len(code)} in the download"
        )
        for number, (cell, div) in enumerate(zip(code, shown, strict=True)):
            downloaded = "".join(
                _source({"source": o["text"]})
                for o in cell.get("outputs", [])
                if o["output_type"] == "stream"
            )
            on_page = "".join(pre.get_text() for pre in div.select("div.output.stream pre"))
            assert _printed_lines(downloaded) == _printed_lines(on_page), (
                f"{name}, code cell {number}: the download prints\n{downloaded}\n"
                f"and the page\n{on_page}"
            )
            checked += bool(on_page)
    assert checked > 20, f"only {checked} printed outputs compared"


def test_every_link_of_every_download_menu_answers(html: Path, server: str) -> None:
    """Each entry of the theme's download menu leads to a file the site serves (no 404).

    The book's PDF is offered only where it was printed into the site
    (docs/_ext/book_pdf.py): a site built by ``nox -s docs`` alone has no link to it.
    """
    from urllib.parse import urljoin
    from urllib.request import urlopen

    checked = set()
    for name in PAGES:
        page = parse(html, name)
        for menu in page.select(".dropdown-download-buttons"):
            for link in menu.select("a[href]"):
                url = urljoin(f"{server}/{name}", str(link["href"]))
                if url in checked or url.startswith("javascript:"):
                    continue
                with urlopen(url, timeout=30) as response:  # raises HTTPError on a 404
                    assert response.status == 200, url
                checked.add(url)
    assert any(url.endswith(".ipynb") for url in checked)
    book = (html / "micrograd-book.pdf").is_file()
    assert any(url.endswith("micrograd-book.pdf") for url in checked) == book
