"""No predict prompt's answer shows below it before the reader answers (predict's spoilers.py).

Each page here is a small doctree made by hand, as the build's parser and
myst-nb leave it: a section, a prompt whose explanation pastes its number, the
cells and prose below it.
"""

from __future__ import annotations

import types

import pytest
from book_runtime.features.claims.directive import claim_fails, claim_node
from book_runtime.features.glue.directive import glued_number
from book_runtime.features.predict.directive import _visit_html, built_answer, predict_run
from book_runtime.features.predict.spoilers import (
    PROSE_CLASS,
    TAG,
    answer_of,
    cells_of,
    holds_number,
    near_answer,
    picture_spoilers,
    problems,
    spoilers,
    withhold,
)
from docutils import nodes
from docutils.utils import new_document
from executed_notebooks.download import fill_prompts


def pasted(key: str, text: str, fmt: str = ".1f") -> glued_number:
    return glued_number("", text, glue_key=key, glue_format=fmt)


def prompt(key: str = "wrong", answer: str = "1.0") -> predict_run:
    box = predict_run(key=key, format=".1f", close=0.05)
    box += nodes.paragraph("", "What will a.grad be?", classes=["mg-predict-run-question"])
    why = nodes.container(classes=["mg-predict-run-why"])
    why += nodes.paragraph("", "", nodes.Text("It is "), pasted(key, answer), nodes.Text("."))
    box += why
    return box


def claim_prompt(key: str = "rises") -> predict_run:
    box = predict_run(key=f"claim:{key}", choices=["rises", "falls"])
    box += nodes.paragraph("", "Will it rise or fall?", classes=["mg-predict-run-question"])
    why = nodes.container(classes=["mg-predict-run-why"])
    why += nodes.paragraph("", "", said(key, "rises", "falls"))
    box += why
    return box


def said(key: str, holds: str, fails: str) -> claim_node:
    node = claim_node("", key=key)
    node += nodes.inline("", holds, classes=["mg-claim-holds"])
    node += claim_fails("", fails)
    return node


def cell(code: str, *outputs: nodes.Node, tags: tuple[str, ...] = ()) -> nodes.container:
    box = nodes.container(classes=["cell", *(f"tag_{tag}" for tag in tags)])
    source = nodes.container(classes=["cell_input"])
    source += nodes.literal_block(code, code)
    box += source
    if outputs:
        shown = nodes.container(classes=["cell_output"])
        shown += outputs
        box += shown
    return box


def printed(text: str) -> nodes.literal_block:
    return nodes.literal_block(text, text, classes=["output", "stream"])


def after_predict(*children: nodes.Node) -> nodes.container:
    return nodes.container("", *children, classes=[PROSE_CLASS])


def page(*parts: nodes.Node, then: tuple[nodes.Node, ...] = ()) -> nodes.document:
    """A page of one section holding ``parts``, and a next section holding ``then``."""
    document = new_document("page.md")
    section = nodes.section("", nodes.title("", "Why +="), *parts, ids=["why"])
    document += section
    if then:
        document += nodes.section("", nodes.title("", "Next"), *then, ids=["next"])
    return document


def messages(document: nodes.document) -> list[str]:
    return [message for _, message in problems(document)]


def test_a_cells_output_below_the_prompt_that_prints_its_answer_gives_it_away() -> None:
    document = page(prompt(), cell("print(a.grad)", printed("1.0\n")))
    [message] = messages(document)
    assert message.startswith("predict-run wrong: its answer shows before the reader answers:")
    assert "the output of the cell that begins 'print(a.grad)' shows 1.0" in message


def test_a_number_pasted_from_the_prompts_key_gives_it_away_in_any_format() -> None:
    sentence = nodes.paragraph("", "", pasted("wrong", "1.0000", ".4f"), nodes.Text(" it is."))
    [message] = messages(page(prompt(), sentence))
    assert "the paragraph '1.0000 it is.' pastes wrong" in message


@pytest.mark.parametrize(
    ("text", "gives"),
    [
        *[("1.0", True), ("grad 1.0000", True), ("(1.0)", True), ("-1.0", False), ("1", False)],
        *[("1.04", False), ("x1.0", False), ("21.0", False), ("1.0.3", False), ("1.0e5", False)],
    ],
)
def test_a_number_gives_the_answer_away_written_with_at_least_its_decimals(
    text: str, gives: bool
) -> None:
    assert holds_number(text, "1.0") is gives


def test_a_picture_or_html_output_gives_it_away_by_its_text_not_by_its_scripts() -> None:
    picture = nodes.image(uri="graph.svg", alt="a graph whose leaf a has grad 1.0")
    shown = nodes.raw("", "<svg><text>grad 1.0000</text></svg>", format="html")
    data = nodes.raw(
        "", '<script type="application/json">{"answer": "1.0"}</script>', format="html"
    )
    found = messages(
        page(prompt(), cell("draw(a)", picture), cell("stepper", shown), cell("s", data))
    )
    assert len(found) == 2
    assert all("the output of the cell that begins" in message for message in found)


def test_the_code_of_a_cell_and_its_prompts_explanation_are_not_read() -> None:
    assert messages(page(prompt(), cell("a = Value(1.0)"))) == []


def test_the_answers_key_pasted_after_the_next_heading_gives_it_away_too() -> None:
    sentence = nodes.paragraph("", "", pasted("wrong", "1.0"))
    [message] = messages(page(prompt(), then=(sentence,)))
    assert "the paragraph '1.0' pastes wrong" in message


def test_another_keys_number_that_is_the_answer_gives_it_away_anywhere_below() -> None:
    again = nodes.paragraph("", "", nodes.Text("It has "), pasted("trained", "1.03", ".2f"))
    [message] = messages(page(prompt(), then=(again,)))
    assert "the paragraph 'It has 1.03' pastes trained = 1.03, the answer" in message


@pytest.mark.parametrize(("text", "gives"), [("0.95", True), ("1,0", False), ("0.9", False)])
def test_another_keys_number_is_the_answer_as_near_as_the_prompt_counts_close(
    text: str, gives: bool
) -> None:
    assert near_answer(text, answer_of(prompt())) is gives
    assert not near_answer("1.0", answer_of(claim_prompt()))
    assert not near_answer("0.0000", answer_of(prompt(answer="0.0")))  # many things are 0


def notebook(*sources: str, glues: dict[int, str]) -> dict:
    """An executed notebook of code cells; ``glues``: the key each glue cell glued."""
    cells = []
    for k, source in enumerate(sources):
        glued = {"metadata": {"scrapbook": {"name": glues[k]}}} if k in glues else None
        cells.append({"cell_type": "code", "source": source, "outputs": [glued] if glued else []})
    return {"cells": cells}


def at(index: int, box: nodes.container) -> nodes.container:
    box["cell_index"] = index
    return box


def drawn(code: str, tags: tuple[str, ...] = ()) -> nodes.container:
    return cell(code, nodes.image(uri="map.svg", alt="a map"), tags=tags)


def test_a_picture_drawn_from_the_run_that_answers_the_prompt_gives_it_away() -> None:
    cells = cells_of(
        notebook(
            "x = 1",
            "y = x + 1",
            "glue('wrong', y)",
            "draw(y)",
            "draw(x)",
            "draw(y)",
            glues={2: "wrong"},
        )
    )
    document = page(
        at(0, cell("x = 1")),
        prompt(),
        at(1, cell("y = x + 1", printed("2\n"), tags=(TAG,))),
        at(3, drawn("draw(y)")),  # needs the cell that answers: gives it away
        at(4, drawn("draw(x)")),  # drawn from what the page showed above the prompt
        at(5, drawn("draw(y)", tags=(TAG,))),  # held back until the answer
    )
    withhold(document)
    [(node, said)] = picture_spoilers(document.next_node(predict_run), cells)
    assert said == (
        "the output of the cell that begins 'draw(y)' draws from the run that gives wrong"
    )
    assert node.parent["cell_index"] == 3
    [message] = [m for _, m in problems(document, cells)]
    assert message.startswith("predict-run wrong: its answer shows before the reader answers")


def test_a_picture_is_read_for_a_number_prompt_whose_key_the_notebook_glues() -> None:
    cells = cells_of(notebook("y = 2", "draw(y)", glues={}))
    document = page(prompt(), at(0, cell("y = 2")), at(1, drawn("draw(y)")))
    assert picture_spoilers(document.next_node(predict_run), cells) == []
    assert (
        picture_spoilers(
            page(claim_prompt(), at(1, drawn("draw(y)"))).next_node(predict_run), cells
        )
        == []
    )


def test_the_same_digits_after_the_next_heading_are_another_quantity() -> None:
    assert messages(page(prompt(), then=(cell("print(x.data)", printed("1.0\n")),))) == []


def test_a_claim_prompts_claim_said_after_the_next_heading_gives_it_away() -> None:
    sentence = nodes.paragraph("", "", nodes.Text("The loss "), said("rises", "rises", "falls"))
    [message] = messages(page(claim_prompt(), then=(sentence,)))
    assert "says the claim 'rises' it asks about" in message


def test_a_number_a_claim_prompts_explanation_gives_as_evidence_gives_it_away_below() -> None:
    box = claim_prompt()
    box.children[-1] += nodes.paragraph("", "", pasted("grad", "-0.3410", ".4f"))
    later = nodes.paragraph("", "", nodes.Text("a.grad is "), pasted("grad", "-0.3410", ".4f"))
    [message] = messages(page(box, then=(later,)))
    assert message.startswith("predict-claim rises: its answer shows")
    assert "pastes grad, which its explanation gives as evidence" in message


def test_evidence_the_page_showed_above_the_claim_prompt_gives_nothing_away() -> None:
    box = claim_prompt()
    box.children[-1] += nodes.paragraph("", "", pasted("grad", "-0.3410", ".4f"))
    before = nodes.paragraph("", "", pasted("grad", "-0.3410", ".4f"))
    after = nodes.paragraph("", "", pasted("grad", "-0.3410", ".4f"))
    assert messages(page(before, box, then=(after,))) == []


def test_a_claim_prompts_claim_said_below_it_gives_it_away_its_other_wording_does_not() -> None:
    sentence = nodes.paragraph("", "", nodes.Text("The loss "), said("rises", "rises", "falls"))
    [message] = messages(page(claim_prompt(), sentence))
    assert message.startswith("predict-claim rises: its answer shows")
    assert "says the claim 'rises' it asks about" in message
    other = nodes.paragraph("", "", nodes.Text("It "), said("other", "climbs", "falls"))
    assert messages(page(claim_prompt(), other)) == []


def test_an_output_and_prose_held_back_until_the_answer_give_nothing_away() -> None:
    held = after_predict(nodes.paragraph("", "", pasted("wrong", "1.0")))
    the_run = cell("print(a.grad)", printed("1.0\n"), tags=(TAG,))
    box = prompt()
    document = page(box, the_run, held)
    assert spoilers(box) == []
    assert problems(document) == []
    output = the_run.children[1]
    assert box["withholds"] == [
        {"id": output["ids"][0], "kind": "output"},
        {"id": held["ids"][0], "kind": "prose"},
    ]
    assert output["ids"] == ["mg-after-predict-wrong-0"]


def test_prose_in_a_later_section_waits_for_the_prompt_it_names() -> None:
    held = after_predict(nodes.paragraph("", "", pasted("wrong", "1.0")))
    held["after_prompt"] = "wrong"
    box = prompt()
    document = page(box, prompt("other"), then=(held,))
    assert problems(document) == []
    assert box["withholds"] == [{"id": "mg-after-predict-wrong-0", "kind": "prose"}]
    assert held["ids"] == ["mg-after-predict-wrong-0"]


def test_a_claim_prompt_is_named_by_its_claims_key() -> None:
    held = after_predict(nodes.paragraph("", "", said("rises", "rises", "falls")))
    held["after_prompt"] = "rises"
    box = claim_prompt()
    assert problems(page(box, then=(held,))) == []
    assert box["withholds"] == [{"id": "mg-after-predict-claim-rises-0", "kind": "prose"}]


def test_prose_that_names_no_prompt_above_it_fails_the_build() -> None:
    held = after_predict(nodes.paragraph("", "Nothing to wait for."))
    held["after_prompt"] = "wrong"
    found = withhold(page(held, then=(prompt(),)))
    assert [message for _, message in found] == [
        "{after-predict} has no predict prompt named 'wrong' above it on the page"
    ]


def test_what_is_held_back_with_no_prompt_above_it_in_its_section_fails_the_build() -> None:
    held = after_predict(nodes.paragraph("", "Nothing to wait for."))
    found = withhold(page(held, then=(prompt(),)))
    assert [message for _, message in found] == [
        "{after-predict} has no predict prompt above it in its section"
    ]
    below = cell("print(a.grad)", printed("1.0\n"), tags=(TAG,))
    found = withhold(page(prompt(), then=(below,)))
    assert [message for _, message in found] == [
        f"a cell tagged {TAG} has no predict prompt above it in its section"
    ]


@pytest.mark.parametrize("named", ["", " wrong"])
def test_a_downloaded_notebook_shows_held_back_prose_where_it_stands(named: str) -> None:
    fence = "```{after-predict}" + named
    markdown = f"Above.\n\n{fence}\nIt is {{glue:text}}`wrong:.1f`.\n```\n\nBelow.\n"
    assert fill_prompts(markdown) == "Above.\n\nIt is {glue:text}`wrong:.1f`.\n\n\nBelow.\n"


def box_html(prompt: predict_run) -> str:
    """The opening tag the build writes for a prompt's box."""
    translator = types.SimpleNamespace(body=[])
    _visit_html(translator, prompt)
    return "".join(translator.body)


def test_the_box_carries_the_books_answer_and_whether_its_question_is_about_an_edit() -> None:
    number, choice = prompt(answer="1.0"), claim_prompt()
    assert built_answer(number) == "1.0"  # as the explanation pastes it
    assert built_answer(choice) == "rises"  # the claim held in the build, or it failed
    assert 'data-built="1.0"' in box_html(number)
    assert 'data-built="rises"' in box_html(choice)
    assert "data-edit" not in box_html(number)
    for box in (number, choice):
        box["edit"] = True  # the reader's edit: a run that gives the book's answer did not make it
        assert "data-edit" in box_html(box)
        assert "data-built" in box_html(box)
