"""Sphinx extension: a page that shows markup as text fails the build, at the sentence.

A role or directive that the parser did not take as one is printed as it was
written: the reader sees ``{glue:text}`loss:.4f``` where the number should
be, and Sphinx, which never saw a role, does not warn.  So after an HTML
build every page's visible text is read (:func:`raw_markup`), and each
sentence that still holds markup is a warning (an error under ``-W``) that
names the page and quotes the sentence:

* a role, ``{name}`` followed by a backtick, and any ``{glue`` or ``{claim``;
* a fence of a block, ``````` or ``:::``;
* a backtick: Markdown's code spans become ``<code>``, so a backtick left in
  prose is the half of a pair that the parser did not match.

Text that is code (``<code>``, ``<pre>``, ``<kbd>``, ``<samp>``), and what is
not text at all (``<script>``, among them the runner's JSON, ``<style>``,
pictures in ``<svg>``, ``<math>``), is not read: backticks are at home there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: Markup as a reader would see it printed: the most telling first, a lone backtick last.
MARKUP = re.compile(
    r"\{(?:glue|claim)[^}`\s]*\}?`?"  # the book's own roles, whole or cut short
    r"|\{[A-Za-z][\w:+-]*\}`"  # any other role
    r"|```|:::"  # a fenced block's fence
    r"|`"  # a backtick of a code span that did not close
)
#: Elements whose text is code: quoted with the sentence, but not read.
CODE = frozenset({"code", "pre", "kbd", "samp", "tt"})
#: Elements whose content is no text of the page: left out.
NOT_TEXT = frozenset({"script", "style", "svg", "math", "template", "textarea"})
#: Elements that hold a sentence (or a few): a finding is quoted from the one it is in.
BLOCKS = frozenset(
    {
        *("p", "li", "dt", "dd", "td", "th", "caption", "figcaption", "blockquote"),
        *("h1", "h2", "h3", "h4", "h5", "h6", "summary", "div", "section", "main", "body"),
    }
)
#: Elements without an end tag: they open nothing to skip.
VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
#: At most this many characters of a sentence are quoted.
QUOTE = 200


@dataclass(frozen=True)
class Finding:
    """Markup shown as text: what it is, and the sentence it is in (whitespace joined)."""

    markup: str
    sentence: str


class _Prose(HTMLParser):
    """The text of each block of a page, in document order, and where in it code is."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        #: Each block's text, and the same text with its code blanked out (``\0``).
        self.blocks: list[tuple[str, str]] = []
        self._open: list[tuple[str, list[tuple[str, bool]]]] = []  # innermost last
        self._left_out = 0  # depth inside an element of NOT_TEXT
        self._code = 0  # depth inside an element of CODE

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        if self._left_out or tag in NOT_TEXT:
            self._left_out += 1
        elif self._code or tag in CODE:
            self._code += 1
        elif tag in BLOCKS:
            self._open.append((tag, []))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if self._left_out:
            self._left_out -= 1
        elif self._code:
            self._code -= 1
        elif tag in BLOCKS and tag in (name for name, _ in self._open):
            while self._open:  # an end tag closes the blocks left unclosed inside it
                name, pieces = self._open.pop()
                self._finish(pieces)
                if name == tag:
                    break

    def handle_data(self, data: str) -> None:
        if not self._left_out and self._open:
            self._open[-1][1].append((data, self._code > 0))

    def close(self) -> None:
        super().close()
        while self._open:
            self._finish(self._open.pop()[1])

    def _finish(self, pieces: list[tuple[str, bool]]) -> None:
        text = "".join(piece for piece, _ in pieces)
        if text.strip():
            prose = "".join("\0" * len(piece) if code else piece for piece, code in pieces)
            self.blocks.append((text, prose))


def sentence_at(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` that holds ``text[start:end]``, its whitespace joined, and cut
    to :data:`QUOTE` characters around that."""
    begin = max((m.end() for m in re.finditer(r"[.!?]\s", text[:start])), default=0)
    after = re.search(r"[.!?](?=\s|$)", text[end:])
    stop = end + after.end() if after else len(text)
    sentence = " ".join(text[begin:stop].split())
    if len(sentence) <= QUOTE:
        return sentence
    at = len(" ".join(text[begin:start].split()))  # where the markup is, give or take a space
    first = max(0, min(at - QUOTE // 2, len(sentence) - QUOTE))
    last = first + QUOTE
    # Whole words: from the first space after the cut, to the last space before it.
    space = sentence.find(" ", first, at)
    if first and space >= 0:
        first = space + 1
    space = sentence.rfind(" ", at, last)
    if last < len(sentence) and space > at:
        last = space
    return ("…" if first else "") + sentence[first:last] + ("…" if last < len(sentence) else "")


def raw_markup(html: str) -> list[Finding]:
    """Each sentence of the page ``html`` that shows markup as text (once per sentence)."""
    parser = _Prose()
    parser.feed(html)
    parser.close()
    found: dict[str, Finding] = {}
    for text, prose in parser.blocks:
        for match in MARKUP.finditer(prose):
            sentence = sentence_at(text, match.start(), match.end())
            found.setdefault(sentence, Finding(match.group(), sentence))
    return list(found.values())


def _check_pages(app: Sphinx, exception: Exception | None) -> None:
    """After an HTML build: a warning for each sentence of a page that shows markup."""
    if exception is not None or app.builder.format != "html":
        return
    for docname in sorted(app.env.found_docs):
        page = Path(app.builder.get_outfilename(docname))
        if not page.is_file():  # singlehtml: only the root document is a file
            continue
        for finding in raw_markup(page.read_text(encoding="utf-8")):
            logger.warning(
                "the page shows markup as text, %r, in: %r (a role or a code span "
                "the parser did not close; inside a claim, a wording that ends with "
                "a backtick needs a space before the closing ``)",
                finding.markup,
                finding.sentence,
                location=docname,
                type="raw_markup",
            )


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("build-finished", _check_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
