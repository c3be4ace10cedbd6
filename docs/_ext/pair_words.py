"""Sphinx extension: what the prose calls a stepper pair's sides follows the pair's layout.

A stepper pair (:class:`micrograd.viz.stepper.StepperPair`) shows its two steppers
side by side where the column has room for both, one at a time with a switch between
them where it has not (a phone).  The prose names the sides, or the two together,
with the ``pair`` role, whose content says which::

    Step through both orders {pair}`together`: the engine's {pair}`first`,
    breadth first {pair}`second`.

:data:`WORDS` is the one table of what each is called in each layout.  The role
writes the words for side by side (a page without its scripts, paper) and keeps
those for the switch with them, for the page's runner (docs/_features/steppers/steppers.js),
which shows the words of the layout the pairs have.
"""

from __future__ import annotations

import html
from typing import Any

from docutils import nodes
from docutils.parsers.rst.states import Inliner

#: The layouts of a pair, as the page's runner names them (steppers.js).
LAYOUTS = ("beside", "switch")

#: What the prose calls each side of a pair, and the two together, in each layout.
WORDS: dict[str, dict[str, str]] = {
    "together": {"beside": "side by side", "switch": "one at a time, with a switch between them"},
    "first": {"beside": "on the left", "switch": "shown first"},
    "second": {"beside": "on the right", "switch": "a press of the switch away"},
}


class pair_words(nodes.inline):  # docutils names its node classes in lower case
    """Words of the prose about a pair's sides: the side-by-side ones, with the others."""


def words_attributes(which: str) -> str:
    """The HTML attributes of the span that holds ``which``'s words (every layout's).

    Raises
    ------
    KeyError
        If ``which`` is not a key of :data:`WORDS`.
    """
    words = WORDS[which]
    return " ".join(
        f'data-{layout}="{html.escape(words[layout], quote=True)}"' for layout in LAYOUTS
    )


def _role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Inliner,
    options: dict[str, Any] | None = None,
    content: list[str] | None = None,
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    which = text.strip()
    if which not in WORDS:
        message = inliner.reporter.error(
            f"the pair role names one of {', '.join(WORDS)}, got {text!r}", line=lineno
        )
        return [inliner.problematic(rawtext, rawtext, message)], [message]
    node = pair_words(rawtext, WORDS[which]["beside"], which=which)
    return [node], []


def _visit_html(translator: Any, node: pair_words) -> None:
    translator.body.append(f'<span class="mg-pair-words" {words_attributes(node["which"])}>')


def _depart_html(translator: Any, node: pair_words) -> None:
    translator.body.append("</span>")


def _pass(translator: Any, node: pair_words) -> None:
    """Other writers write the side-by-side words, as text."""


def setup(app: Any) -> dict[str, Any]:
    app.add_node(
        pair_words,
        html=(_visit_html, _depart_html),
        latex=(_pass, _pass),
        text=(_pass, _pass),
    )
    app.add_role("pair", _role)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
