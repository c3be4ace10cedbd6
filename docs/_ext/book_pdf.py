"""Sphinx extension: every page's download menu offers the book as one PDF, where there is one.

The PDF is not made by this build: ``nox -s pdf`` (and ``nox -s browser``)
print the single-page build of the same sources, with the same execution
cache, into the HTML build's folder as :data:`BOOK_PDF` (see
browser_tests/print_book.py), then build the HTML again so that its pages
offer it; Read the Docs does the same in its PDF job (.readthedocs.yaml).
This extension adds the link, next to the theme's own entries (the page's
notebook, its source, "print this page"), only where the file is there to
be downloaded: a site built by ``nox -s docs`` alone has no PDF, and no link
to one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config

#: The book's PDF, at the top of the built site.
BOOK_PDF = "micrograd-book.pdf"


def pdf_is_offered(outdir: Path, environ: dict[str, str]) -> bool:
    """Whether the site has the book's PDF: printed into ``outdir``, or on Read the Docs.

    Read the Docs' PDF job, which puts the file there, runs after the HTML build.
    """
    return (outdir / BOOK_PDF).is_file() or "READTHEDOCS" in environ


def _decide(app: Sphinx, config: Config) -> None:
    # A config value, so that the pages are written again when the PDF comes or goes.
    config.book_pdf_offered = pdf_is_offered(Path(app.outdir), dict(os.environ))


def offer_book_pdf(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Add the book's PDF to the theme's download menu of this page (where it has one)."""
    if not app.config.book_pdf_offered:
        return
    for button in context.get("header_buttons", []):
        if button.get("label") == "download-buttons":
            button["buttons"].append(
                {
                    "type": "link",
                    "url": context["pathto"](BOOK_PDF, 1),
                    "text": "book .pdf",
                    "tooltip": "Download the whole book as a PDF",
                    "icon": "fas fa-book",
                    "label": "download-book-pdf-button",
                }
            )


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("book_pdf_offered", False, "html")
    app.connect("config-inited", _decide)
    # After sphinx-book-theme has made its header buttons (priority 501).
    app.connect("html-page-context", offer_book_pdf, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
