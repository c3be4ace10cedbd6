"""The inline Markdown of the runner's texts, as HTML for the page and as plain words to say.

The checks' messages, the mistakes' titles and whys and the steps' hints of
"Build your own micrograd" (:mod:`book_runtime.features.track.checks`) are written with the
two bits of Markdown the book's prose uses inline: code spans (```Value```)
and emphasis (``*other*``).  The reader sees them rendered: the worker's
check results carry :func:`inline_html` beside the text
(:meth:`book_runtime.features.track.checks.Result.to_json`), and the build writes the hints
so (docs/_features/track/directive.py).  The page inserts that HTML as it is and never
parses Markdown itself; its live region says :func:`inline_text`, the same
words without their marks.

Everything that is not one of these marks is text: it is escaped, whatever
the reader's code put in a message (a ``repr`` with ``<``).  The marks follow
CommonMark where the texts need it: a code span is a run of backticks closed
by a run of the same length, and its content is not read for emphasis; a
backtick without its pair is a backtick; a ``*`` is emphasis only when it
opens before a word and closes after one, outside words (``t**2``, ``a * b``
and ``__add__`` stay as they are).

>>> inline_html("`a + 1` is *not* `1 + a` & x < y")
'<code>a + 1</code> is <em>not</em> <code>1 + a</code> &amp; x &lt; y'
>>> inline_text("`a + 1` is *not* `1 + a`")
'a + 1 is not 1 + a'
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

#: A code span: a run of backticks, then anything, then a run of the same length (CommonMark).
CODE_SPAN = re.compile(r"(?<!`)(?P<fence>`+)(?!`)(?P<code>.+?)(?<!`)(?P=fence)(?!`)", re.DOTALL)
#: Emphasis with one ``*``: it opens before a non-space and closes after one, outside words.
EMPHASIS = re.compile(r"(?<![\w*])\*(?=[^\s*])(?P<text>[^*]+?)(?<=[^\s*])\*(?![\w*])")


def inline_html(text: str) -> str:
    """``text`` as HTML: code spans as ``<code>``, emphasis as ``<em>``, the rest escaped."""
    return _render(
        text,
        code=lambda code: f"<code>{html.escape(code)}</code>",
        prose=lambda prose: EMPHASIS.sub(lambda m: f"<em>{m['text']}</em>", html.escape(prose)),
    )


def inline_text(text: str) -> str:
    """``text`` in plain words, as a screen reader should say it: the marks left out."""
    return _render(
        text, code=lambda code: code, prose=lambda prose: EMPHASIS.sub(r"\g<text>", prose)
    )


def _render(text: str, code: Callable[[str], str], prose: Callable[[str], str]) -> str:
    """``text`` with each code span's content made by ``code`` and the text between by ``prose``."""
    parts = []
    at = 0
    for span in CODE_SPAN.finditer(text):
        parts.append(prose(text[at : span.start()]))
        parts.append(code(_span_content(span["code"])))
        at = span.end()
    parts.append(prose(text[at:]))
    return "".join(parts)


def _span_content(content: str) -> str:
    """A code span's content as CommonMark reads it: one space each side is padding."""
    if content.startswith(" ") and content.endswith(" ") and content.strip(" "):
        return content[1:-1]
    return content
