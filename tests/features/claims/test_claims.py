"""Claims: a sentence whose truth depends on a value, stated as code and checked.

``claim(key, holds, about)`` (docs/_features/claims/runtime.py) is what a page's
hidden cells call, in the build's kernel and in the reader's browser alike;
the prose's ``claim`` role (its directive.py) reads the key and the
wordings and fails the build at a sentence whose claim does not hold.
"""

from __future__ import annotations

from typing import Any

import pytest
from book_runtime.features.claims import runtime as runtime_claims
from book_runtime.features.claims.directive import (
    ROLE,
    Said,
    parse,
    problem,
    tex_as_text,
    verdict,
)


class Kernel:
    """``claim`` as a kernel gives it to a page's cells, and what it sent."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        module = runtime_claims
        self.sent: list[tuple[str, dict[str, Any]]] = []
        monkeypatch.setattr(module, "send", lambda key, record: self.sent.append((key, record)))
        self.claim = module.claim


@pytest.fixture
def kernel(monkeypatch: pytest.MonkeyPatch) -> Kernel:
    return Kernel(monkeypatch)


def test_a_claim_is_sent_with_whether_it_holds_and_what_it_is_about(kernel: Kernel) -> None:
    kernel.claim("loss_falls", 0.4 < 0.9, about="from 0.9 to 0.4")
    kernel.claim("x2_is_zero", False)
    kernel.claim("loss_rises", 0.5 > 0.5, about="from 0.5 to 0.5", otherwise=0.5 < 0.5)
    kernel.claim("by_hand", 3.0 == 3.0, any_input=True)
    assert kernel.sent == [
        ("loss_falls", {"holds": True, "otherwise": True, "about": "from 0.9 to 0.4", **VALUES}),
        ("x2_is_zero", {"holds": False, "otherwise": True, "about": "", **VALUES}),
        ("loss_rises", {"holds": False, "otherwise": False, "about": "from 0.5 to 0.5", **VALUES}),
        ("by_hand", {"holds": True, "otherwise": True, "about": "", "anyInput": True}),
    ]


#: What a claim says by default: its truth depends on the values of the page's inputs.
VALUES = {"anyInput": False}


def test_a_claim_that_holds_for_any_input_says_so_with_a_bool(kernel: Kernel) -> None:
    with pytest.raises(TypeError, match=r"any_input must be a bool \(True for an identity\), got"):
        kernel.claim("by_hand", True, any_input=1)  # type: ignore[arg-type]
    assert kernel.sent == []


def test_the_cell_manifest_lists_the_claims_that_hold_for_any_input() -> None:
    """The runner never marks these out of date when values change (queue.js's staleKeys)."""
    from cell_manifest import manifest

    def glued(key: str, record: object) -> dict[str, Any]:
        prefix = "application/papermill.record/"
        return {
            "output_type": "display_data",
            "metadata": {"scrapbook": {"mime_prefix": prefix, "name": key}},
            "data": {f"{prefix}text/plain": repr(record)},
        }

    record = {"holds": True, "otherwise": True, "about": ""}
    hidden = {
        "cell_type": "code",
        "source": "glue('c', 3.0)\nclaim('lowers', True)\nclaim('by_hand', True, any_input=True)",
        "metadata": {"tags": ["remove-cell"]},
        "outputs": [
            glued("c", 3.0),
            glued("claim:lowers", {**record, "anyInput": False}),
            glued("claim:by_hand", {**record, "anyInput": True}),
            glued("claim:older", record),  # glued before claims said it
        ],
    }
    page = {"title": "A page", "name": "page", "file": "page.md", "book": "the book"}
    page |= {"url": None, "requirements": {}, "repository": None}
    found = manifest({"cells": [hidden]}, {}, page)["cells"][0]
    assert found["glue"] == ["c", "claim:lowers", "claim:by_hand", "claim:older"]
    assert found["anyInput"] == ["claim:by_hand"]


def test_a_claims_otherwise_must_be_a_comparison(kernel: Kernel) -> None:
    with pytest.raises(TypeError, match=r"otherwise must be a bool \(a comparison\), got float"):
        kernel.claim("loss_rises", True, "", 0.5)
    assert kernel.sent == []


@pytest.mark.parametrize(
    ("key", "holds", "about", "error", "message"),
    [
        ("loss falls", True, "", ValueError, "a name such as"),
        ("", True, "", ValueError, "a name such as"),
        (3, True, "", ValueError, "a name such as"),
        ("loss", 1, "", TypeError, r"holds must be a bool \(a comparison\), got int"),
        ("loss", [0.5], "", TypeError, r"holds must be a bool \(a comparison\), got list"),
        ("loss", True, 0.5, TypeError, "about must be a str, got float"),
    ],
)
def test_a_claim_that_is_not_stated_right_is_refused_with_what_was_wrong(
    kernel: Kernel, key: Any, holds: Any, about: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        kernel.claim(key, holds, about)
    assert kernel.sent == []


# -- the prose's role -----------------------------------------------------------------------


def test_the_role_names_the_key_the_wording_that_holds_and_the_other() -> None:
    assert parse("moons_loss_rises: rises || falls") == Said("moons_loss_rises", "rises", "falls")
    assert parse("x2_zero: is zero") == Said("x2_zero", "is zero", None)
    with_glue = parse("x2: is zero || is {glue:text}`neuron_x2:.1f`, so $w_2$ moves")
    assert with_glue.fails == "is {glue:text}`neuron_x2:.1f`, so $w_2$ moves"


@pytest.mark.parametrize(
    "content", ["no key here", "two words: a", "k:", "k: a || ", "k: a || b || c", ": a"]
)
def test_a_role_that_is_not_key_and_wordings_is_refused(content: str) -> None:
    with pytest.raises(ValueError, match="claim"):
        parse(content)


def test_a_claim_cut_short_by_the_backtick_that_ends_its_text_says_what_it_needs() -> None:
    # The role ends at the first two backticks in a row: here, the number's and the claim's.
    (found,) = ROLE.finditer("It {claim}``grew: grew to {glue:text}`x:.1f```.")
    assert found["content"] == "grew: grew to {glue:text}`x:.1f"
    with pytest.raises(ValueError, match="needs a space before the claim's closing ``"):
        parse(found["content"])
    (spaced,) = ROLE.finditer("It {claim}``grew: grew to {glue:text}`x:.1f` ``.")
    assert parse(spaced["content"]) == Said("grew", "grew to {glue:text}`x:.1f`", None)


def test_the_role_is_found_in_a_pages_markdown_with_double_backticks() -> None:
    text = "The loss {claim}``rises: *rises* || falls`` after {glue:text}`x:.1f` steps."
    (found,) = ROLE.finditer(text)
    assert parse(found["content"]) == Said("rises", "*rises*", "falls")


def test_a_claim_that_holds_is_no_problem_and_one_that_does_not_names_the_wording() -> None:
    said = Said("moons_loss_rises", "rises", "falls")
    assert problem(said, {"holds": True, "about": "from 0.8958 to 0.4726"}) is None
    wrong = problem(said, {"holds": False, "about": "from 0.8958 to 0.4726"})
    assert wrong is not None
    assert "'rises'" in wrong
    assert "'moons_loss_rises'" in wrong
    assert "from 0.8958 to 0.4726" in wrong


def test_a_glued_claim_is_read_back_from_its_text() -> None:
    assert verdict("{'holds': True, 'about': 'o = 0.7071'}") == {
        "holds": True,
        "about": "o = 0.7071",
    }


@pytest.mark.parametrize(
    ("tex", "text"),
    [
        (r"n = \operatorname{atanh}(1/\sqrt{2})", "n = atanh(1/√2)"),
        (r"\partial o/\partial w_2 = x_2 \cdot \partial o/\partial n", "∂o/∂w2 = x2 · ∂o/∂n"),
        (r"1 - o^2", "1 - o²"),
        (r"w_{2}", "w2"),
        (r"\tanh(n)", "tanh(n)"),
    ],
)
def test_a_claims_math_reads_as_text_in_the_words_a_tooltip_shows(tex: str, text: str) -> None:
    assert tex_as_text(tex) == text
