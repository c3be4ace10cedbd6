"""A predict-then-run prompt's question is whole before the run (predict's directive.py).

The directives run here under plain docutils with MyST's parser, as the build
parses a page (the book's roles aside, but for a glued number, which a question
may paste: its name stands for it); an error of the directive is a system
message of level 3, which the build, run with ``-W``, fails on.  The book's own
prompts are read the same way, and as the download reads them (``fill_prompts``).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from book_runtime.features.predict.directive import (
    QUESTION_IS_A_PARAGRAPH,
    PredictClaim,
    PredictRun,
    predict_run,
    prompt_problems,
    question_length,
)
from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import directives, roles
from executed_notebooks.download import PROMPT, fill_prompts
from myst_parser.parsers.docutils_ import Parser

DOCS = Path(__file__).resolve().parents[3] / "docs"


def glued_name(
    name: str, rawtext: str, text: str, lineno: int, inliner: object, options=None, content=None
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """A glued number as its name: a question may paste one (its input, not its answer)."""
    return [nodes.inline(rawtext, text.split(":", 1)[0])], []


@pytest.fixture(autouse=True)
def prompt_directives() -> None:
    directives.register_directive("predict-run", PredictRun)
    directives.register_directive("predict-claim", PredictClaim)
    roles.register_local_role("glue:text", glued_name)


def parsed(markdown: str) -> tuple[nodes.document, list[str]]:
    """The page's doctree, and the errors its directives raised."""
    doctree = publish_doctree(
        markdown,
        parser=Parser(),
        settings_overrides={"report_level": 3, "halt_level": 5, "warning_stream": io.StringIO()},
    )
    errors = [m.astext() for m in doctree.findall(nodes.system_message) if m["level"] >= 3]
    return doctree, errors


def shown_before_the_run(doctree: nodes.document) -> list[str]:
    """Each prompt's question as the page shows it before a run: the explanation is hidden."""
    return [
        " ".join(question.astext().split())
        for prompt in doctree.findall(predict_run)
        for question in prompt.findall(nodes.paragraph)
        if "mg-predict-run-question" in question["classes"]
    ]


NUMBER = (
    "```{{predict-run}} dw2\n"
    ":format: .4f\n"
    ":close: 0.01\n"
    "{question}"
    "\n"
    "It is {{glue:text}}`dw2:.4f`.\n"
    "```\n"
)
CHOICE = (
    "```{{predict-claim}} rises\n{question}\nThe loss {{claim}}``rises: rises || falls``.\n```\n"
)


def test_a_question_over_two_lines_of_the_body_is_shown_whole() -> None:
    question = "\nPredict, then run: edit `x2`. Before you\nrun it, what will `w2`'s grad be?\n"
    doctree, errors = parsed(NUMBER.format(question=question))
    assert errors == []
    assert shown_before_the_run(doctree) == [
        "Predict, then run: edit x2. Before you run it, what will w2's grad be?"
    ]
    (why,) = [c for c in doctree.findall(nodes.container) if "mg-predict-run-why" in c["classes"]]
    assert why.astext().startswith("It is")
    doctree, errors = parsed(CHOICE.format(question="Will the loss\nrise or fall?\n"))
    assert errors == []
    assert shown_before_the_run(doctree) == ["Will the loss rise or fall?"]


@pytest.mark.parametrize("page", [NUMBER, CHOICE], ids=["number", "choice"])
def test_a_prompt_about_the_readers_edit_says_so_to_the_page(page: str) -> None:
    question = "\nPredict, then run: edit `x2`. What will it be?\n"
    flagged = page.replace("}} dw2\n", "}} dw2\n:edit:\n").replace(
        "}} rises\n", "}} rises\n:edit:\n"
    )
    for markdown, edit in [(page, False), (flagged, True)]:
        doctree, errors = parsed(markdown.format(question=question))
        assert errors == []
        (prompt,) = doctree.findall(predict_run)
        assert prompt["edit"] is edit


@pytest.mark.parametrize("page", [NUMBER, CHOICE], ids=["number", "choice"])
def test_a_question_option_over_two_lines_fails_the_build(page: str) -> None:
    # MyST reads an option as one line: the second would open the hidden explanation.
    planted = ":question: Predict, then run: edit `x2`.\n  Before you run it, what will it be?\n"
    doctree, errors = parsed(page.format(question=planted))
    assert len(errors) == 1, errors
    assert QUESTION_IS_A_PARAGRAPH in errors[0]
    assert list(doctree.findall(predict_run)) == []


@pytest.mark.parametrize(
    ("question", "problem"),
    [
        # a question cut short by a blank line: the rest opens the explanation
        (
            "\nPredict, then run: edit `x2`. Before you run it,\n\nwhat will it be?\n",
            "its question must end in a question mark: 'Predict, then run: edit x2. Before you "
            "run it,'; its explanation opens in lower case, as the rest of a question would: "
            "'what will it be?'; its explanation opens with a question, hidden until the run: "
            "'what will it be?'",
        ),
        # an instruction, then the question in a paragraph of its own
        (
            "\nPredict, then run: edit `x2`.\n\nBefore you run it, what will it be?\n",
            "its question must end in a question mark: 'Predict, then run: edit x2.'; its "
            "explanation opens with a question, hidden until the run: 'Before you run it, "
            "what will it be?'",
        ),
        ("\nEdit `x2` and run it.\n", "its question must end in a question mark"),
        ("\n- what will it be?\n", "it must open with its question, one paragraph"),
    ],
    ids=["cut-short", "asked-below", "no-question", "a-list"],
)
def test_a_question_not_whole_before_the_run_fails_the_build(question: str, problem: str) -> None:
    _, errors = parsed(NUMBER.format(question=question))
    assert len(errors) == 1, errors
    assert problem in errors[0]


def test_an_explanation_may_open_with_code_or_a_formula_in_lower_case() -> None:
    for opening in ("`x2` is 1 now:", "$x_2$ is 1 now:"):
        page = NUMBER.replace("It is", opening).format(question="\nWhat will it be?\n")
        doctree, errors = parsed(page)
        assert errors == [], opening
        assert shown_before_the_run(doctree) == ["What will it be?"]


def test_the_rules_on_their_own() -> None:
    def paragraph(text: str) -> nodes.paragraph:
        return nodes.paragraph("", "", nodes.Text(text))

    assert prompt_problems([paragraph("Rise or fall?")], [paragraph("It falls.")]) == []
    assert prompt_problems([paragraph("Rise or fall?")], []) == [
        "it needs an explanation after its question (and a blank line)"
    ]
    assert question_length(["one", "two", "", "three"]) == 2
    assert question_length(["one"]) == 1


def book_prompts() -> list[tuple[str, str]]:
    """Every prompt of the book's pages: (page, the prompt's Markdown)."""
    return [
        (page.name, match[0])
        for page in sorted(DOCS.glob("*.md"))
        for match in PROMPT.finditer(page.read_text("utf-8"))
    ]


def test_the_book_has_prompts_of_both_kinds() -> None:
    kinds = {re.search(r"\{predict-(\w+)\}", prompt)[1] for _, prompt in book_prompts()}  # type: ignore[index]
    assert kinds == {"run", "claim"}


@pytest.mark.parametrize(("page", "prompt"), book_prompts(), ids=lambda x: x[:20])
def test_every_prompt_of_the_book_asks_its_whole_question_before_the_run(
    page: str, prompt: str
) -> None:
    doctree, errors = parsed(prompt)
    assert errors == [], page
    (asked,) = shown_before_the_run(doctree)
    assert asked.endswith("?"), page
    # The download asks the same question above its folded answer.
    question, folded = fill_prompts(prompt).split("\n\n", 1)
    assert folded.startswith("<details><summary>The answer</summary>")
    question = re.sub(r"\{glue:text\}`([^`:]*)[^`]*`", r"\1", question)
    assert re.sub(r"`([^`]*)`", r"\1", question) == asked
