"""Sphinx extension: every page's download menu offers the whole book as one PDF.

The PDF is not made by this build: ``nox -s pdf`` (and ``nox -s browser``)
print the single-page build of the same sources, with the same execution
cache, into the HTML build's folder as :data:`BOOK_PDF` (see
browser_tests/print_book.py), and Read the Docs does the same in its PDF
job (.readthedocs.yaml).  This extension only adds the link, next to the
theme's own entries (the page's notebook, its source, "print this page").
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

#: The book's PDF, at the top of the built site.
BOOK_PDF = "micrograd-book.pdf"


def offer_book_pdf(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Add the book's PDF to the theme's download menu of this page (where it has one)."""
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
    # After sphinx-book-theme has made its header buttons (priority 501).
    app.connect("html-page-context", offer_book_pdf, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
