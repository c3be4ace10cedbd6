"""A page uses only what it or an earlier page has taught (docs/_ext/forward_refs.py).

Each page here is a small doctree made by hand, as the build reads it before
its links are resolved: code cells (folded away or not), prose, links.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from docutils import nodes
from docutils.utils import new_document
from executed_notebooks.download import fill_roles
from forward_refs import (
    LATER,
    LATER_ROLE,
    Page,
    api_names,
    names_in_code,
    problems,
    read_page,
    reading_order,
)
from sphinx import addnodes

API = api_names()
DOCS = Path(__file__).resolve().parents[2] / "docs"


def cell(code: str, *, folded: bool = False) -> nodes.container:
    box = nodes.container(classes=["cell", *(["tag_hide-cell"] if folded else [])])
    source = nodes.container(classes=["cell_input"])
    source += nodes.literal_block(code, code)
    box += source
    return box


def link(to: str, words: str, *, later: bool = False, line: int = 7) -> nodes.Node:
    xref = addnodes.pending_xref("", nodes.inline("", words), refdomain="doc", reftarget=to)
    xref.line = line
    paragraph = nodes.paragraph("", "See ")
    paragraph.line = line
    paragraph += nodes.inline("", "", xref, classes=[LATER]) if later else xref
    return paragraph


def doctree(*parts: nodes.Node) -> nodes.document:
    document = new_document("page.md")
    document += parts
    return document


STORY = ["value", "local-rules", "backward"]


def test_the_api_is_the_engines_and_its_companions_not_the_drawing_helpers() -> None:
    assert {"Value", "topological_order", "new_node", "MLP", "make_moons"} <= API
    assert "draw_dot" not in API  # micrograd.viz: the book's tools
    assert not {"ACTIVATIONS", "COLUMNS", "__version__"} & API  # constants aside


def test_part_two_teaches_the_gpts_names_in_its_order() -> None:
    """A Part II page that uses ``GPT`` or ``softmax`` before the page that imports it fails."""
    assert {"GPT", "Tokenizer", "softmax", "cross_entropy", "Attention"} <= API
    pages = {
        "gpt-tokens": Page(uses={"GPT": 9}),
        "gpt-embeddings": Page(teaches={"GPT": 4}, uses={"GPT": 4}),
    }
    found = problems(pages, ["gpt-tokens", "gpt-embeddings"])
    assert [(page, line) for page, line, _ in found] == [("gpt-tokens", 9)]


@pytest.mark.parametrize(
    ("code", "names"),
    [
        ("from micrograd.engine import topological_order", {"topological_order"}),
        ("from micrograd import (\n    MLP,\n    Value,\n)", {"MLP", "Value"}),
        ("micrograd.engine.new_node(x, 1.0)", {"new_node"}),
        ("import micrograd\nfrom mine import Value", set()),
        (  # each import on its own line: the second is not read as the first's names
            "from micrograd.datasets import names\nfrom micrograd.gpt import GPT, Tokenizer",
            {"names", "GPT", "Tokenizer"},
        ),
    ],
)
def test_a_cell_names_the_api_it_imports_or_reaches_by_its_dotted_name(
    code: str, names: set[str]
) -> None:
    assert names_in_code(code, API) == names


def test_shown_code_teaches_a_name_folded_code_and_prose_only_use_it() -> None:
    page = read_page(
        doctree(
            cell("from micrograd import Value"),
            cell("from micrograd.engine import topological_order", folded=True),
            nodes.paragraph("", "", nodes.literal("", "micrograd.nn.MLP")),
        ),
        API,
    )
    assert set(page.teaches) == {"Value"}
    assert set(page.uses) == {"Value", "topological_order", "MLP"}


def test_a_link_is_read_with_whether_the_page_says_it_is_later() -> None:
    page = read_page(doctree(link("backward", "the backward page", later=True)), API)
    assert page.links == [("backward", True, 7, "the backward page")]


def test_a_doc_or_ref_role_is_read_as_a_link_a_python_reference_is_not() -> None:
    roles = nodes.paragraph("", "See ")
    for kind, target in (("doc", "/mlp"), ("ref", "track-value"), ("func", "micrograd.Value")):
        xref = addnodes.pending_xref("", nodes.inline("", target), reftype=kind, reftarget=target)
        xref["refdomain"] = "py" if kind == "func" else "std"
        roles += xref
    targets = [target for target, *_ in read_page(doctree(roles), API).links]
    assert targets == ["mlp", "#track-value"]


def test_a_name_used_before_the_page_that_teaches_it_points_forward() -> None:
    pages = {
        "value": Page(uses={"topological_order": 12}),
        "backward": Page(teaches={"topological_order": 3}, uses={"topological_order": 3}),
    }
    [(doc, line, message)] = problems(pages, STORY)
    assert (doc, line) == ("value", 12)
    assert message.startswith(
        "it uses topological_order, which the book teaches later, on backward (page 3; "
        "this is page 1)"
    )
    # Said, in the page's words, where it is taught: allowed.
    pages["value"].links.append(("backward", True, 11, "the backward page"))
    assert problems(pages, STORY) == []


def test_a_name_taught_on_the_same_or_an_earlier_page_is_no_forward_reference() -> None:
    pages = {
        "value": Page(teaches={"Value": 3}, uses={"Value": 3}),
        "local-rules": Page(uses={"Value": 1, "new_node": 9}, teaches={"new_node": 20}),
    }
    assert problems(pages, STORY) == []


def test_a_link_to_a_later_page_points_forward_unless_it_says_so() -> None:
    plain = {"value": Page(links=[("backward", False, 5, "the backward page")])}
    [(doc, line, message)] = problems(plain, STORY)
    assert (doc, line) == ("value", 5)
    assert "points ahead, to backward (page 3; this is page 1)" in message
    assert "{later}`[the backward page](backward.md)`" in message
    said = {"value": Page(links=[("backward", True, 5, "the backward page")])}
    assert problems(said, STORY) == []


def test_later_around_a_link_that_is_not_ahead_is_untrue() -> None:
    pages = {"backward": Page(links=[("value", True, 4, "The Value object")])}
    [(_, _, message)] = problems(pages, STORY)
    assert "says value is later in the book, but it is page 1 and this is page 3" in message
    assert problems({"backward": Page(links=[("value", False, 4, "Value")])}, STORY) == []


def test_a_ref_counts_as_a_link_to_its_labels_page() -> None:
    pages = {"value": Page(links=[("#track-value", False, 2, "Build your own")])}
    assert problems(pages, STORY, {"track-value": "backward"})[0][2].startswith(
        "the link 'Build your own' points ahead, to backward"
    )
    assert problems(pages, STORY, {"track-value": "value"}) == []


def test_the_start_page_and_the_reference_stand_outside_the_story() -> None:
    pages = {"value": Page(links=[("index", False, 1, "Start"), ("api", False, 2, "API")])}
    assert problems(pages, STORY) == []


def test_the_reading_order_is_the_start_pages_toctree() -> None:
    includes = {"index": ["value", "local-rules", "backward", "api"], "value": []}
    assert reading_order(includes, "index") == ["index", "value", "local-rules", "backward", "api"]


def test_a_downloaded_notebook_says_a_later_link_as_the_page_does() -> None:
    markdown = (
        "the subject of\n{later}``[Why `+=`](accumulate.md)``. And {later}`[B](backward.md#x)`."
    )
    assert fill_roles(markdown, {"accumulate": 4, "backward": 3}) == (
        "the subject of\n[Why `+=`](accumulate.md) (page 4, later in the book). "
        "And [B](backward.md#x) (page 3, later in the book)."
    )


def test_the_download_reads_every_later_link_of_the_book() -> None:
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        assert text.count("{later}") == len(LATER_ROLE.findall(text)), page.name
