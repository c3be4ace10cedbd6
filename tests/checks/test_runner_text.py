"""What the runner shows of the track's texts: rendered Markdown, and a mistake's words that fit.

The checks' messages, the mistakes' titles and whys and the steps' hints carry
inline Markdown; one rule (book_runtime.inline_markup) makes them HTML for the
page and plain words for its live region, in the worker's results
(``Result.to_json``) and in the build's hints (docs/_features/track/directive.py).  A mistake
shown under a failure says what the reader's code did, not more.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import pytest
from book_runtime.features.track import directive as track
from book_runtime.features.track.checks import EXERCISES, Result
from book_runtime.inline_markup import inline_html, inline_text
from pages import DOCS
from track_namespace import FIXTURES, IDS, check, page_namespace

pytestmark = pytest.mark.usefixtures("recursion_limit_kept")

#: The page's rules of a Check's heading (verdict), whose leads a message must not repeat.
EXERCISE_PROGRESS = DOCS / "_features" / "track" / "track.js"


# -- the rule -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("`Value.__add__` gave 6", "<code>Value.__add__</code> gave 6"),
        ("a < b & c > d", "a &lt; b &amp; c &gt; d"),
        ("`a < b` and `x & y`", "<code>a &lt; b</code> and <code>x &amp; y</code>"),
        ("the reader's <script>", "the reader&#x27;s &lt;script&gt;"),
        ("a lone ` backtick", "a lone ` backtick"),
        ("`one` and a lone ` backtick", "<code>one</code> and a lone ` backtick"),
        ("``a ` b`` c", "<code>a ` b</code> c"),
        ("` padded `", "<code>padded</code>"),
        ("the *other* input", "the <em>other</em> input"),
        ("`a *b* c` is code", "<code>a *b* c</code> is code"),
    ],
)
def test_inline_markup_renders_code_spans_and_emphasis_and_escapes_the_rest(
    text: str, html: str
) -> None:
    assert inline_html(text) == html


@pytest.mark.parametrize(
    "text",
    [
        "1 - t**2 for tanh",
        "d tanh(a)/da = 1 - tanh(a)**2: the output squared",
        "In c = a * b, dc/da = b",
        "only + and *, so write",
        "your own __add__ and __mul__",
        "a*b*c",
    ],
)
def test_an_asterisk_or_underscore_that_marks_nothing_stays_as_it_is(text: str) -> None:
    assert inline_html(text) == text
    assert inline_text(text) == text


def test_the_plain_text_says_the_words_without_their_marks() -> None:
    text = "Your `Value.__add__`: `a + 1` is *not* `1 + a`, a < b, a lone ` stays"
    assert inline_text(text) == "Your Value.__add__: a + 1 is not 1 + a, a < b, a lone ` stays"


# -- every text the runner shows -------------------------------------------------------------


def _texts() -> list[tuple[str, str]]:
    """(where, text) of every hint, mistake title and why of the track."""
    found = []
    for step in EXERCISES.values():
        found += [(f"{step.id} hint {n}", hint) for n, hint in enumerate(step.hints, 1)]
        for mistake in step.mistakes:
            found += [(f"{mistake.id} title", mistake.title), (f"{mistake.id} why", mistake.why)]
    return found


@pytest.mark.parametrize(("where", "text"), _texts(), ids=[w for w, _ in _texts()])
def test_every_hint_and_mistake_renders_with_no_mark_left(where: str, text: str) -> None:
    assert "`" not in inline_text(text), "a code span that does not close"
    assert "`" not in re.sub(r"<code>.*?</code>", "", inline_html(text))


def test_the_builds_hints_are_rendered_html_and_plain_words() -> None:
    hint = EXERCISES["value"].hints[1]
    assert "`__init__`" in hint
    assert track.hint_json(hint) == {"html": inline_html(hint), "text": inline_text(hint)}
    assert "<code>__init__</code>" in track.hint_json(hint)["html"]
    assert "`" not in track.hint_json(hint)["text"]


def _results() -> list[tuple[str, Result]]:
    """(what, result) of the checks on every program the track knows of: each step's
    starter and solution, each known-wrong solution and near miss, and micrograd's own."""
    found = []
    for step in IDS:
        exercise = EXERCISES[step]
        programs = {"starter": exercise.starter, "solution": exercise.solution}
        programs |= {f"wrong {m}": code for m, code in exercise.known_wrong.items()}
        near = FIXTURES / step / "near"
        if near.is_dir():
            for file in near.iterdir():
                code = file.read_text(encoding="utf-8")
                programs[f"near {file.name}"] = f"{exercise.solution}\n\n{code}"
        for name, code in programs.items():
            found.append((f"{step}: {name}", check(step, page_namespace(step, code))))
    imported = page_namespace("value")
    imported["Value"] = __import__("micrograd").Value
    found.append(("value: micrograd's Value", check("value", imported)))
    found.append(("value: an empty page", check("value", {})))
    return found


@pytest.fixture(scope="module")
def results() -> list[tuple[str, Result]]:
    # Set up before any test's recursion_limit_kept, which would keep a limit that a wrong
    # solution raised here: the next module's checks would run under the page's raised limit.
    limit = sys.getrecursionlimit()
    try:
        return _results()
    finally:
        sys.setrecursionlimit(limit)


def _leads() -> dict[str, str]:
    """The lead the page's verdict puts before a message, by status: ``Not yet: ``..."""
    source = EXERCISE_PROGRESS.read_text(encoding="utf-8")
    leads = dict(re.findall(r'case "([\w-]+)":\s*return heading\("([^"]+)"\);', source))
    assert set(leads) == {"failed", "not-done"}, leads
    return leads


def test_no_message_repeats_the_lead_the_page_puts_before_it(
    results: list[tuple[str, Result]],
) -> None:
    statuses = {result.status for _, result in results}
    assert statuses >= {"passed", "failed", "raised", "not-done", "not-yours"}, statuses
    leads = _leads()
    for what, result in results:
        lead = leads.get(result.status)
        if lead is not None:
            assert not inline_text(result.message).startswith(lead.strip()), (what, result.message)


def test_every_result_carries_its_message_as_html_and_as_plain_words(
    results: list[tuple[str, Result]],
) -> None:
    for what, result in results:
        data = json.loads(json.dumps(result.to_json()))
        assert data["message_html"] == inline_html(result.message), what
        assert data["message_text"] == inline_text(result.message), what
        assert "`" not in data["message_text"], (what, result.message)
        if result.mistake is not None:
            mistake = data["mistake"]
            assert mistake["title_html"] == inline_html(mistake["title"]), what
            assert mistake["why_text"] == inline_text(mistake["why"]), what
            assert "`" not in mistake["title_text"] + mistake["why_text"], what


def test_a_result_shows_the_readers_code_escaped() -> None:
    code = EXERCISES["value"].solution + (
        "\n\nclass Value(Value):\n"
        "    def __repr__(self):\n"
        "        return '<b>&`x`'\n"
        "    def __add__(self, other):\n"
        "        other = other if isinstance(other, Value) else Value(other)\n"
        "        return Value(self.data + other.data, (self,), '+')\n"
    )
    data = check("value", page_namespace("value", code)).to_json()
    assert data["status"] == "failed", data["message"]
    assert "<b>" in data["message"]
    assert "<b>" not in data["message_html"]
    assert "&lt;b&gt;&amp;" in data["message_html"]


# -- a mistake's words fit the reader's code ----------------------------------------------------


def _mistake(step: str, code: str) -> dict[str, Any]:
    result = check(step, page_namespace(step, f"{EXERCISES[step].solution}\n\n{code}"))
    assert result.mistake is not None, result.message
    return dict(result.to_json()["mistake"])


@pytest.mark.parametrize(
    ("missing", "kept", "op"), [("__radd__", "__rmul__", "+"), ("__rmul__", "__radd__", "*")]
)
def test_a_missing_reflected_method_is_named_alone(missing: str, kept: str, op: str) -> None:
    mistake = _mistake("value", f"class Value(Value):\n    {missing} = None\n")
    assert mistake["id"] == "no-reflected"
    assert mistake["title"] == f"No {missing}"
    assert f"`2 {op} a`" in mistake["why"]
    assert missing in mistake["why"]
    assert kept not in mistake["title"] + mistake["why"]


@pytest.mark.parametrize(("method", "op"), [("__radd__", "+"), ("__rmul__", "*")])
def test_a_reflected_method_that_calls_itself_is_named_alone(method: str, op: str) -> None:
    code = f"class Value(Value):\n    def {method}(self, other):\n        return other {op} self\n"
    mistake = _mistake("value", code)
    assert mistake["id"] == "reflected-calls-itself"
    assert mistake["title"] == f"{method} that computes `other {op} self`"
    assert mistake["title_html"] == f"{method} that computes <code>other {op} self</code>"
    assert mistake["title_text"] == f"{method} that computes other {op} self"


def test_a_number_not_wrapped_in_mul_alone_is_told_of_mul() -> None:
    code = (
        "class Value(Value):\n"
        "    def __mul__(self, other):\n"
        "        return Value(self.data * other.data, (self, other), '*')\n"
    )
    mistake = _mistake("value", code)
    assert mistake["id"] == "number-not-wrapped"
    assert "`a * 1`" in mistake["why"]
    assert "__mul__" in mistake["why"]
    assert "__add__" not in mistake["why"]


def test_a_finding_without_words_of_its_own_keeps_the_mistakes() -> None:
    step = EXERCISES["rules"]
    result = check("rules", page_namespace("rules", step.known_wrong["overwrite"]))
    assert result.mistake is not None
    (overwrite,) = [m for m in step.mistakes if m.id == "overwrite"]
    assert (result.mistake.title, result.mistake.why) == (overwrite.title, overwrite.why)
    assert result.to_json()["mistake"]["title_html"] == "<code>=</code> instead of <code>+=</code>"
