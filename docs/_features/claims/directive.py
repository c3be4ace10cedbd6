"""Sphinx extension: a sentence whose truth depends on a value says so, and the build checks it.

A page's hidden cell states a claim as code, next to the numbers it glues
(``claim(key, holds, about)``: :mod:`.runtime`).  The prose
says it with the ``claim`` role, whose content is the claim's key, then the
wording that is true when the claim holds, then, after ``||``, the wording
for when it does not::

    The loss {claim}``moons_loss_rises: rises || falls`` after the first step.

(double backticks, so that a wording may hold roles of its own: glued
numbers, say).  The role ends at the first two backticks in a row, so a
claim whose text ends with a backtick (a glued number, code) has a space
before its closing backticks, as a Markdown code span would::

    The loss fell to {claim}``loss_fell: {glue:text}`loss:.4f` ``.

A sentence that has no other wording leaves out ``||``: in
the reader's browser it is then marked "not true of your run", with the
claim's ``about``, when the reader's run breaks it.

At build time the role

* fails the build, at the sentence, when the claim does not hold for the
  build's run (a warning, an error under ``-W``), or when no cell states it;
* shows the first wording, and keeps the other, hidden, for the page's
  runner (``claims.js``), which shows the wording that is
  true of the reader's run.

:func:`parse`, :func:`problem` and :func:`check` are plain Python: the tests
find a page's claims and judge them as the build does.
"""

from __future__ import annotations

import re
from ast import literal_eval
from dataclasses import dataclass
from typing import Any

from book_runtime.features.claims import runtime as runtime_claims
from docutils import nodes

#: The claim role as it stands in a page's Markdown, for the tools that read
#: pages without Sphinx (the download, the tests): its content in ``content``.
ROLE = re.compile(r"\{claim\}(?P<ticks>`+)(?P<content>.+?)(?P=ticks)", re.S)
#: What the kernels glue a claim under (:mod:`.runtime`).
GLUE_PREFIX: str = runtime_claims.GLUE_PREFIX


@dataclass(frozen=True)
class Said:
    """A claim as the prose says it: its key, the wording when it holds, the one when not."""

    key: str
    holds: str
    fails: str | None


def parse(content: str) -> Said:
    """The claim role's content, ``key: wording || other wording``, read.

    Raises
    ------
    ValueError
        If it is not of that form, or holds a backtick that nothing closes (the role
        ended at the closing backtick of a role or code inside it).
    """
    if content.count("`") % 2:
        raise ValueError(
            "a claim's text holds a backtick that nothing closes: one that ends the text "
            "(a glued number, code) needs a space before the claim's closing ``, "
            f"got {content!r}"
        )
    key, colon, rest = content.partition(":")
    wordings = [part.strip() for part in rest.split("||")]
    if not colon or not re.fullmatch(r"[A-Za-z_][\w-]*", key.strip()) or "" in wordings:
        raise ValueError(
            f"a claim is written {{claim}}``key: wording || other wording``, got {content!r}"
        )
    if len(wordings) > 2:
        raise ValueError(f"a claim has at most two wordings, got {len(wordings)}: {content!r}")
    return Said(key.strip(), wordings[0], wordings[1] if len(wordings) == 2 else None)


def verdict(text_plain: str) -> dict[str, Any]:
    """A glued claim, as the build's kernel recorded it (its text/plain): holds, about."""
    record: dict[str, Any] = literal_eval(text_plain)
    return record


def problem(said: Said, record: dict[str, Any]) -> str | None:
    """Why the build must not print this sentence (the claim does not hold), or None."""
    if record["holds"]:
        return None
    about = f" ({record['about']})" if record["about"] else ""
    return (
        f"this sentence says {said.holds!r}, which the claim {said.key!r} says is not true "
        f"of the build's run{about}: change the code, the claim or the sentence"
    )


def check(markdown: str, stated: dict[str, dict[str, Any]], path: str) -> list[str]:
    """What the build says of a page's claims: ``path:line: claim: ...`` for each that fails.

    ``markdown`` is the page's text, ``stated`` its cells' claims (key ->
    ``{"holds", "about"}``).  A claim the prose names but no cell states fails
    too, as in the build.
    """
    found = []
    for match in ROLE.finditer(markdown):
        line = markdown.count("\n", 0, match.start()) + 1
        said = parse(match["content"])
        if said.key not in stated:
            found.append(f"{path}:{line}: claim: no cell states the claim {said.key!r}")
        elif (wrong := problem(said, stated[said.key])) is not None:
            found.append(f"{path}:{line}: claim: {wrong}")
    return found


#: What the lint of a claim's sentence sees through: a role (a glued number, code), inline
#: code and math, each one word of the sentence, whatever punctuation it holds.
_OPAQUE = re.compile(r"\{[\w:-]+\}(`+).*?\1|(`+).*?\2|\$[^$]*\$", re.S)
#: Where a sentence ends: a full stop (or ! or ?) before a space, or a blank line.
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n\s*\n")
#: Where a clause ends inside a sentence: the words before it state something of their own.
_CLAUSE_END = re.compile(r"[:;](?=\s)")


def lead_ins(markdown: str) -> list[tuple[int, str]]:
    """The words outside a claim that state something of their own: ``(line, words)`` each.

    A claim's sentence is one unit: when the reader's run breaks the claim, the
    page rewrites or marks the claim, and nothing else of the sentence.  So the
    words of its sentence before it (from the sentence's start, or the end of a
    claim before it in the sentence) must not end a clause of their own (at a
    colon or a semicolon): "The bias was chosen for these two:" before a claim
    whose other wording says the bias does not do it would stay, false.  Such
    words go into the claim, or, where they hold for any run, are read and
    listed by the page's tests as such.

    Returns
    -------
    list of (int, str)
        For each claim that has such words, the line they start on and the
        words, their whitespace made single spaces, up to the colon or
        semicolon.
    """
    masked = list(markdown)
    for match in _OPAQUE.finditer(markdown):
        masked[match.start() : match.end()] = "x" * (match.end() - match.start())
    plain = "".join(masked)
    found = []
    previous_end = 0
    for match in ROLE.finditer(markdown):
        ends = [end.end() for end in _SENTENCE_END.finditer(plain, 0, match.start())]
        start = max([previous_end, *ends])
        clauses = [end.start() for end in _CLAUSE_END.finditer(plain, start, match.start())]
        if clauses and re.search(r"\w", markdown[start : clauses[-1]]):
            first = start + len(markdown[start:]) - len(markdown[start:].lstrip())
            line = markdown.count("\n", 0, first) + 1
            found.append((line, " ".join(markdown[start : clauses[-1] + 1].split())))
        previous_end = match.end()
    return found


# -- the role --------------------------------------------------------------------------------


class claim_node(nodes.inline):
    """A claim's wordings: the one that holds is shown, the other kept for the reader's run."""


class claim_fails(nodes.inline):
    """The wording for a run that breaks the claim: hidden, until the reader's run does."""


#: TeX in the book's sentences, and how it reads as text: names bare, symbols as symbols.
_TEX_AS_TEXT = (
    (re.compile(r"\\operatorname\{(\w+)\}"), r"\1"),
    (re.compile(r"\\sqrt\{([^{}]*)\}"), r"√\1"),
    (re.compile(r"\\partial\s*"), "∂"),
    (re.compile(r"\\cdot"), "·"),
    (re.compile(r"\\times"), "×"),
    (re.compile(r"\^\{?2\}?"), "²"),
    (re.compile(r"_\{?(\w+)\}?"), r"\1"),  # x_2 as the code names it, x2
    (re.compile(r"\\([A-Za-z]+)"), r"\1"),  # \tanh, \exp: the function's name
)


def tex_as_text(tex: str) -> str:
    """``tex``, a sentence's inline math, as plain text: ``\\operatorname{atanh}(1/\\sqrt{2})``
    reads ``atanh(1/√2)``, ``x_2`` reads ``x2``, ``o^2`` reads ``o²``."""
    for pattern, text in _TEX_AS_TEXT:
        tex = pattern.sub(text, tex)
    return tex.replace("{", "").replace("}", "")


def _visit_claim(translator: Any, node: claim_node) -> None:
    # The wording shown, as text: where the reader's run shows the other wording, a
    # glued number in it quotes it, on hover and for a screen reader (glue.js); its math
    # as plain text, which the typeset math on the page has none of.
    text = "".join(
        tex_as_text(piece.astext()) if isinstance(piece.parent, nodes.math) else piece.astext()
        for piece in node.children[0].findall(nodes.Text)
    )
    words = " ".join(text.split())
    attributes = {
        "data-claim-key": node["key"],
        "data-claim-holds-at-build": "true",
        "data-claim-words": words,
    }
    translator.body.append(translator.starttag(node, "span", "", CLASS="mg-claim", **attributes))


def _visit_fails(translator: Any, node: claim_fails) -> None:
    translator.body.append(translator.starttag(node, "span", "", CLASS="mg-claim-fails", hidden=""))


def _depart_span(translator: Any, node: nodes.Element) -> None:
    translator.body.append("</span>")


def _skip(translator: Any, node: nodes.Element) -> None:
    raise nodes.SkipNode


def _role() -> Any:
    from myst_nb.core.variables import RetrievalError
    from myst_nb.ext.glue.utils import retrieve_glue_data
    from myst_nb.ext.utils import RoleBase

    class ClaimRole(RoleBase):  # type: ignore[misc]
        """``{claim}``key: wording || other wording``` (see the module's docstring)."""

        def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
            reporter = self.inliner.reporter
            try:
                said = parse(self.text)
                data = retrieve_glue_data(self.document, GLUE_PREFIX + said.key)
            except (ValueError, RetrievalError) as error:
                return [], [reporter.warning(f"claim: {error}", line=self.line)]
            record = verdict("".join(data.data["text/plain"]))
            node = claim_node(self.rawtext, key=said.key)
            messages = []
            wordings = [(said.holds, nodes.inline(classes=["mg-claim-holds"]))]
            if said.fails is not None:
                wordings.append((said.fails, claim_fails()))
            for words, box in wordings:
                children, found = self.inliner.parse(words, self.line, self.inliner, box)
                box += children
                node += box
                messages += found
            wrong = problem(said, record)
            if wrong is not None:
                messages.append(reporter.warning(f"claim: {wrong}", line=self.line))
            self.set_source_info(node)
            return [node], messages

    return ClaimRole()


def setup(app: Any) -> dict[str, Any]:
    app.setup_extension("myst_nb")
    app.add_node(
        claim_node,
        html=(_visit_claim, _depart_span),
        latex=(lambda t, n: None, lambda t, n: None),
        text=(lambda t, n: None, lambda t, n: None),
    )
    app.add_node(
        claim_fails, html=(_visit_fails, _depart_span), latex=(_skip, None), text=(_skip, None)
    )
    app.add_role("claim", _role())
    return {"parallel_read_safe": True, "parallel_write_safe": True}
