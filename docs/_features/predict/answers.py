"""Sphinx extension: the printed book ends with the steppers' questions and their answers.

On the site, predict mode (docs/_features/predict/predict.js) asks the reader, in
every backward stepper, for each gradient before its rule runs.  Paper cannot
ask, so the book's PDF (the single-page build, browser_tests/print_book.py)
prints the same questions after the last page, each with its answer and the
rule's explanation: an appendix like the track's solutions.

The questions are the ones the page has: each stepper's output in a page is
followed by its questions as JSON (``<script class="mg-predict-data">``, made by
book_runtime.features.predict.runtime, which the build's kernel adds to a stepper's HTML).
This extension reads them from the pages' cell outputs as it reads each page,
and adds the appendix to the root document of a ``singlehtml`` build only.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from docutils import nodes
from forward_refs import reading_order
from sphinx.application import Sphinx

#: A stepper's questions in a cell's HTML output.
QUESTIONS = re.compile(
    r'<script type="application/json" class="mg-predict-data">(?P<json>.*?)</script>', re.DOTALL
)
APPENDIX_TITLE = "Appendix: predict, then see, the answers"


def questions_in(text: str) -> list[dict[str, Any]]:
    """Every stepper's questions in a piece of HTML, in order."""
    return [json.loads(m.group("json").replace("<\\/", "</")) for m in QUESTIONS.finditer(text)]


def _collect(app: Sphinx, doctree: nodes.document) -> None:
    found = []
    for raw in doctree.findall(nodes.raw):
        if "html" in raw.get("format", "").split():
            found += questions_in(raw.astext())
    store = app.env.__dict__.setdefault("predict_questions", {})
    if found:
        store[app.env.docname] = found
    else:
        store.pop(app.env.docname, None)


def _purge(app: Sphinx, env: Any, docname: str) -> None:
    env.__dict__.setdefault("predict_questions", {}).pop(docname, None)


def _merge(app: Sphinx, env: Any, docnames: Any, other: Any) -> None:
    mine = env.__dict__.setdefault("predict_questions", {})
    for docname, found in other.__dict__.get("predict_questions", {}).items():
        if docname in docnames:
            mine[docname] = found


def _html(text: str) -> nodes.raw:
    return nodes.raw("", text, format="html")


def appendix(env: Any, root: str) -> nodes.section | None:
    """The appendix: for each page in reading order, each stepper's questions and answers."""
    store = env.__dict__.get("predict_questions", {})
    pages = [doc for doc in reading_order(env.toctree_includes, root) if doc in store]
    if not pages:
        return None
    section = nodes.section(ids=["predict-answers"], classes=["mg-predict-answers"])
    section += nodes.title("", APPENDIX_TITLE)
    section += nodes.paragraph(
        "",
        "Each backward stepper of the book asks, in predict mode, what each rule gives "
        "before it runs. Here are its questions, in order, each with its answer.",
    )
    for doc in pages:
        title = env.titles[doc].astext() if doc in env.titles else doc
        for k, data in enumerate(store[doc]):
            heading = f"{title}: stepper {k + 1}"
            if data.get("title"):
                heading += f" ({data['title']})"
            section += nodes.rubric("", heading)
            items = ['<ol class="mg-predict-answer-list">']
            for number, frame in enumerate(data["frames"], start=1):
                if not frame:
                    continue
                answers = " ".join(
                    f"<code>{html.escape(ask['grad'])}</code> = {html.escape(ask['answer'])}: "
                    f"{ask['explain']['html']}"
                    for ask in frame["asks"]
                )
                items.append(f'<li value="{number}">{frame["lead"]["html"]} {answers}</li>')
            items.append("</ol>")
            section += _html("\n".join(items))
    return section


def _add_appendix(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.name != "singlehtml" or docname != app.config.root_doc:
        return
    section = appendix(app.env, app.config.root_doc)
    if section is None:
        return
    # Inside the start page's section, as the pages are (their titles one level below its own).
    book = next(iter(doctree.findall(nodes.section)), None)
    (book if book is not None else doctree).append(section)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("doctree-read", _collect)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("doctree-resolved", _add_appendix)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
