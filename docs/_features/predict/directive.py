"""Sphinx extension: predict, then run: a page asks for a number before the reader's run gives it.

Where a page invites a run with a numeric outcome (the neuron edited to
``x2 = 1``: ``w2``'s gradient; ``=`` where ``+=`` belongs: which number), the
prose declares a prompt next to the sentence that glues the number::

    ```{predict-run} neuron_dw2
    :format: .4f
    :close: 0.01
    :edit:

    Predict, then run: edit the first cell to `x2 = Value(1.0, label="x2")`. Before you
    run it, what will `w2`'s gradient be?

    $\\partial o/\\partial w_2 = x_2 \\cdot \\partial o/\\partial n$ =
    {glue:text}`neuron_x2:.4f` × {glue:text}`neuron_dn:.4f` = {glue:text}`neuron_dw2:.4f`.
    ```

The argument is the glued key whose value the run gives, ``format`` the
format the body pastes it with (the number compared is that text, as the page
shows it), ``close`` how near counts as close, and ``edit`` (a flag, for
either kind of prompt) says that the question is about a run of the reader's
edit, whose answer the build's numbers are not: its explanation, worked out
in them, waits for that run.  Any other prompt is about the cell as the book
wrote it, whose answer the book's own run gave: a prediction kept there is
judged at once against it (the box's ``data-built``).  A run that gives that
same answer to a question about an edit answers nothing: the edit is not made.
The body's first paragraph is the question, which the reader sees before the run; the rest is the
explanation shown with the verdict, whose glued numbers follow the reader's
run as all of the prose's do.  The question is a paragraph, not an option,
because MyST reads an option as one line: a ``:question:`` that goes on over
a second line would lose that line to the hidden explanation.  The build
writes a box the page's script (docs/_features/predict/predict.js) gives an
answer field; it compares the reader's number with the run's and keeps the
verdict in the page's score.  Without the script (paper, a page with scripts
off) the box is the question and its explanation.  A body that does not paste
the key in the format fails the build: the page would have nothing to compare.
So does a prompt whose question is not whole before the run
(:func:`prompt_problems`): a question that does not end in a question mark,
or an explanation that opens as a question's continuation would.

Where the outcome is a yes or no (the moons trained at a constant rate of 0.1:
does the loss rise or fall?), the prompt asks about a claim (the claims feature)::

    ```{predict-claim} moons_loss_rises
    Predict, then run: ... will the loss rise or fall after the first step?

    The loss {claim}``moons_loss_rises: rises || falls`` after the first step, ...
    ```

The choices are the two wordings of the claim in the body (the one true when
the claim holds first), which must be plain words: the reader picks one, and
the run's claim (the runner's micrograd:prose, under ``claim:<key>``) says
which was true.  The body's sentence follows the reader's run as every
claim's does.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from typing import Any, ClassVar

from book_runtime.features.claims.directive import GLUE_PREFIX as CLAIM_PREFIX
from book_runtime.features.claims.directive import ROLE as CLAIM_ROLE
from book_runtime.features.claims.directive import parse as parse_claim
from book_runtime.features.glue.directive import glued_number
from book_runtime.features.predict.runtime import EXACT
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective


class predict_run(nodes.General, nodes.Element):  # docutils names its node classes in lower case
    """A predict-then-run prompt: its question, and the explanation shown with the verdict."""


def _non_negative_number(text: str | None) -> float:
    """``:close:``: how near counts as close, a number at least 0."""
    try:
        value = float(text or "")
    except ValueError:
        raise ValueError(f"a number is needed, got {text!r}") from None
    if not value >= 0:
        raise ValueError(f"a number at least 0 is needed, got {text!r}")
    return value


#: Why a prompt takes no ``:question:``: MyST reads an option as one line.
QUESTION_IS_A_PARAGRAPH = (
    "the question is the body's first paragraph, not :question: (an option is one line: "
    "MyST gives what goes on over the next line to the hidden explanation)"
)


def question_length(lines: Sequence[str]) -> int:
    """How many of a prompt's body lines are its question: those before the first blank one."""
    return next((n for n, line in enumerate(lines) if not line.strip()), len(lines))


def prompt_problems(question: list[nodes.Node], explanation: list[nodes.Node]) -> list[str]:
    """What keeps a prompt's question from being whole before the run, in words ([]: nothing).

    ``question`` is what the body's first paragraph parses to, which the
    reader sees before the run, ``explanation`` what the rest does, hidden
    until then.  A question is one paragraph ending in a question mark.  An
    explanation that opens in lower case goes on with a sentence begun above
    it (a question split by a blank line), and one whose first paragraph ends
    in a question mark asks what the reader would only see after the run: both
    were meant for the question.
    """
    if len(question) != 1 or not isinstance(question[0], nodes.paragraph):
        return ["it must open with its question, one paragraph"]
    problems = []
    asked = " ".join(question[0].astext().split())
    if not asked.endswith("?"):
        problems.append(f"its question must end in a question mark: {asked!r}")
    if not explanation:
        return [*problems, "it needs an explanation after its question (and a blank line)"]
    opening = explanation[0]
    if isinstance(opening, nodes.paragraph):
        said = " ".join(opening.astext().split())
        first = opening.children[0] if opening.children else None
        if isinstance(first, nodes.Text) and first.astext()[:1].islower():
            problems.append(
                f"its explanation opens in lower case, as the rest of a question would: {said!r}"
            )
        if said.endswith("?"):
            problems.append(
                f"its explanation opens with a question, hidden until the run: {said!r}"
            )
    return problems


class _Prompt(SphinxDirective):
    """What both prompts are: ``{<name>} <key>``, the question, then the explanation shown
    with the verdict; each kind makes its node (:meth:`node`) from the key."""

    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "question": directives.unchanged,  # taken only to say where the question goes
        # The question is about a run of the reader's own edit, not of the cell as the
        # book wrote it: the build's numbers are not its answer.
        "edit": directives.flag,
    }

    def node(self, key: str, where: str) -> predict_run:
        """The prompt's node, before its question and explanation (``where``: its name and
        key, for a message)."""
        raise NotImplementedError

    def _explanation(self) -> str:
        """The body after its question, as written."""
        return "\n".join(self.content[question_length(self.content) :])

    def run(self) -> list[nodes.Node]:
        key = self.arguments[0]
        where = f"{self.name} {key}"
        if "question" in self.options:
            raise self.error(f"{where}: {QUESTION_IS_A_PARAGRAPH}")
        node = self.node(key, where)
        node["edit"] = "edit" in self.options
        asked = question_length(self.content)
        question = self.parse_text_to_nodes(self.content[:asked], offset=self.content_offset)
        explanation = self.parse_text_to_nodes(
            self.content[asked:], offset=self.content_offset + asked
        )
        problems = prompt_problems(question, explanation)
        if problems:
            raise self.error(f"{where}: {'; '.join(problems)}")
        question[0]["classes"].append("mg-predict-run-question")
        why = nodes.container(classes=["mg-predict-run-why"])
        why += explanation
        node += [question[0], why]
        self.set_source_info(node)
        return [node]


class PredictRun(_Prompt):
    """``{predict-run} <key>`` (see the module's docstring)."""

    option_spec: ClassVar[dict[str, Any]] = {
        **_Prompt.option_spec,
        "format": directives.unchanged_required,
        "close": _non_negative_number,
    }

    def node(self, key: str, where: str) -> predict_run:
        missing = [name for name in ("format", "close") if name not in self.options]
        if missing:
            raise self.error(f"{where}: needs :{': and :'.join(missing)}:")
        fmt = self.options["format"]
        pasted = re.compile(r"\{glue(?::text)?\}`" + re.escape(f"{key}:{fmt}") + "`")
        if not pasted.search(self._explanation()):
            raise self.error(
                f"{where}: its explanation must paste the number it compares, "
                f"{{glue:text}}`{key}:{fmt}`"
            )
        return predict_run(key=key, format=fmt, close=self.options["close"])


#: A wording a choice prompt offers: plain words (the Markdown's emphasis aside).
PLAIN_WORDING = re.compile(r"[*_]*(?P<words>[A-Za-z][A-Za-z ,'-]*)[*_]*")


def claim_choices(key: str, body: str) -> list[str]:
    """A ``predict-claim`` prompt's two choices: the wordings of its claim in ``body``.

    Raises
    ------
    ValueError
        If the body says no claim ``key`` with two wordings, or a wording is not plain words.
    """
    for role in CLAIM_ROLE.finditer(body):
        said = parse_claim(role.group("content"))
        if said.key != key:
            continue
        if said.fails is None:
            raise ValueError(f"the claim {key!r} in its explanation has one wording: it needs two")
        choices = []
        for wording in (said.holds, said.fails):
            plain = PLAIN_WORDING.fullmatch(wording)
            if plain is None:
                raise ValueError(f"a choice is plain words, got {wording!r}")
            choices.append(" ".join(plain.group("words").split()))
        return choices
    raise ValueError(
        f"its explanation must say the claim it asks about, {{claim}}``{key}: ... || ...``"
    )


class PredictClaim(_Prompt):
    """``{predict-claim} <key>``: which wording of a claim a run will make true."""

    def node(self, key: str, where: str) -> predict_run:
        try:
            choices = claim_choices(key, self._explanation())
        except ValueError as error:
            raise self.error(f"{where}: {error}") from None
        return predict_run(key=CLAIM_PREFIX + key, choices=choices)


def built_answer(node: predict_run) -> str:
    """The book's run's answer to a prompt: a choice prompt's first wording (its claim held in
    the build, or the build failed), a number prompt's number as its explanation pastes it."""
    if "choices" in node:
        return node["choices"][0]
    for pasted in node.findall(glued_number):
        if pasted["glue_key"] == node["key"] and pasted["glue_format"] == node["format"]:
            return pasted.astext().strip()
    raise ValueError(f"the prompt {node['key']!r} does not paste {node['key']}:{node['format']}")


def _visit_html(translator: Any, node: predict_run) -> None:
    if "choices" in node:
        kind = 'class="mg-predict-run mg-predict-choice"'
        data = f'data-choices="{html.escape(json.dumps(node["choices"]))}"'
    else:
        kind = 'class="mg-predict-run"'
        data = (
            f'data-format="{html.escape(node["format"])}" '
            f'data-close="{node["close"]!r}" data-exact="{EXACT!r}"'
        )
    # The book's run's answer: a prompt about the cell as the book wrote it is judged by it
    # at once; one about the reader's edit waits for a run that gives another answer.
    data += f' data-built="{html.escape(built_answer(node))}"'
    if node.get("edit"):
        data += " data-edit"
    if node.get("withholds"):  # what waits for the answer (spoilers.py): the script hides it
        data += f' data-withholds="{html.escape(json.dumps(node["withholds"], sort_keys=True))}"'
    attributes = (
        f'{kind} role="group" aria-label="Predict, then run" '
        f'data-key="{html.escape(node["key"])}" {data}'
    )
    translator.body.append(f"<div {attributes}>\n")


def _depart_html(translator: Any, node: predict_run) -> None:
    translator.body.append("</div>\n")


def setup(app: Any) -> dict[str, Any]:
    app.add_node(
        predict_run,
        html=(_visit_html, _depart_html),
        latex=(lambda t, n: None, lambda t, n: None),
        text=(lambda t, n: None, lambda t, n: None),
    )
    app.add_directive("predict-run", PredictRun)
    app.add_directive("predict-claim", PredictClaim)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
