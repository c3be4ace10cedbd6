"""Markup shown as text fails the build (docs/_ext/raw_markup.py), and a claim may hold numbers.

:func:`raw_markup` reads a built page's visible text for roles, fences and
stray backticks; these tests give it small pages.  The last test builds a
tiny site with the book's own roles (myst-nb's glue, the glued numbers, the
claims) and that check, from notebooks whose outputs are already there
(nothing runs), and looks at what a claim with a glued number became.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from raw_markup import Finding, raw_markup, sentence_at

DOCS_EXT = Path(__file__).resolve().parents[2] / "docs" / "_ext"


def page(body: str) -> str:
    """A page as Sphinx writes one, with ``body`` in its article."""
    return (
        "<!DOCTYPE html><html><head><title>A page</title>"
        "<style>code::before { content: '`'; }</style></head>"
        f'<body><main><article class="bd-article">{body}</article></main></body></html>'
    )


# -- what is found --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "markup"),
    [
        (
            "<p>a loss of 0.07 against {glue:text}`zg_ahead_with:.4f. But the sum grows.</p>",
            "{glue:text}`",
        ),
        ("<p>It {claim}``k: holds`` here.</p>", "{claim}`"),
        ("<p>The loss is {glue}key now.</p>", "{glue}"),
        ("<p>See {ref}`the start` for more.</p>", "{ref}`"),
        ("<p>```{code-cell} ipython3</p>", "```"),
        ("<p>:::{note}</p>", ":::"),
        ("<p>it is `a * b. Following <code>_prev</code> from it</p>", "`"),
        ("<li><p>grows from 5.75 to 6 `.</p></li>", "`"),
        ("<h2>Why `+=</h2>", "`"),
    ],
)
def test_markup_in_the_prose_is_found_with_its_sentence(body: str, markup: str) -> None:
    (found,) = raw_markup(page(body))
    assert found.markup == markup
    assert markup in found.sentence


def test_the_sentence_is_quoted_with_the_code_in_it_and_its_whitespace_joined() -> None:
    body = (
        "<p>The first sentence is fine.  But <code>d</code> also\n  remembers that it is "
        "<code>e + c</code>, and `a * b. The next one is fine too.</p>"
    )
    assert raw_markup(page(body)) == [
        Finding("`", "But d also remembers that it is e + c, and `a * b.")
    ]


def test_a_sentence_is_named_once_and_each_block_on_its_own() -> None:
    body = "<p>One `x` and `y`.</p><ul><li>Two {glue:text}`k</li></ul><p>Fine.</p>"
    found = raw_markup(page(body))
    assert [f.sentence for f in found] == ["One `x` and `y`.", "Two {glue:text}`k"]


def test_a_long_sentence_is_cut_around_the_markup() -> None:
    text = "word " * 100 + "{glue:text}`x" + " word" * 100
    quoted = sentence_at(text, text.index("{"), text.index("{") + 12)
    assert quoted.startswith("…")
    assert quoted.endswith("…")
    assert "{glue:text}`x" in quoted
    assert len(quoted) <= 202


# -- what is not --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        '<p>Write <code class="literal"><span class="pre">{glue:text}`key`</span></code>.</p>',
        "<pre>```{code-cell} ipython3\na = `b`\n:::\n```</pre>",
        '<div class="highlight"><pre><span></span>x = 1  # `quoted`<br>y = 2</pre></div>',
        "<p>Press <kbd>`</kbd> or run <samp>`ls`</samp>.</p>",
        '<script type="application/json" id="micrograd-cells">{"source": "`{claim}` :::"}</script>',
        "<script>const s = `template ${x}`;</script>",
        "<svg><text>a ``` b</text><path d='M0 0'/></svg><p>Fine.</p>",
        '<p>A number <span class="pasted-text" data-glue-key="k">0.5</span>, and math'
        ' <span class="math">\\(a^{b}\\)</span>.</p>',
        "<p>Unclosed <em>emphasis<br>and a line break, and <img src='x.png' alt='`'>.</p>",
    ],
)
def test_code_scripts_pictures_and_attributes_are_not_prose(body: str) -> None:
    assert raw_markup(page(body)) == []


def test_the_hidden_wording_of_a_claim_is_read_too() -> None:
    body = (
        '<p>It <span class="mg-claim" data-claim-key="k"><span class="mg-claim-holds">rose'
        '</span><span class="mg-claim-fails" hidden>fell to {glue:text}`k</span></span>.</p>'
    )
    (found,) = raw_markup(page(body))
    assert found.markup == "{glue:text}`"


# -- a tiny site: a claim that holds glued numbers -------------------------------------------


def notebook(markdown: str, glued: dict[str, str]) -> str:
    """A notebook: one code cell that glued ``glued`` (key -> text/plain), then ``markdown``."""
    record = "application/papermill.record/"
    outputs = [
        {
            "output_type": "display_data",
            "data": {record + "text/plain": text},
            "metadata": {"scrapbook": {"name": key, "mime_prefix": record}},
        }
        for key, text in glued.items()
    ]
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "# A page"},
        {
            "cell_type": "code",
            "execution_count": 1,
            "metadata": {},
            "outputs": outputs,
            "source": "glue(...)",
        },
        {"cell_type": "markdown", "metadata": {}, "source": markdown},
    ]
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return json.dumps(
        {"cells": cells, "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}
    )


GLUED = {"x": "2.5", "claim:k": "{'holds': True, 'about': 'x = 2.5'}"}
#: A wording that ends with a glued number, written as the claims extension says.
GOOD = "The value {claim}``k: is {glue:text}`x:.1f`, as built || is {glue:text}`x:.2f` ``."
#: The same with the claim's closing backticks right after the number's.
CUT = "The value {claim}``k: is {glue:text}`x:.1f```."
#: A wording with math in it: its words for a screen reader keep the math's TeX.
MATHS = "The root {claim}``k: is {math}`\\sqrt{2}` times {glue:text}`x:.1f` || is not ``."
#: A glue role with no closing backtick: no role, and nothing but the page check notices.
UNCLOSED = "Plain prose pastes {glue:text}`x:.1f here."


@pytest.fixture(scope="module")
def tiny_site(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The tiny site built strictly (-W --keep-going): the build and the site's folder."""
    source = tmp_path_factory.mktemp("tiny-site")
    conf = (
        f"import sys\nsys.path.insert(0, {str(DOCS_EXT)!r})\n"
        'extensions = ["myst_nb", "book_runtime.features.glue.directive",\n'
        '              "book_runtime.features.claims.directive", "raw_markup"]\n'
        'nb_execution_mode = "off"\n'
        'exclude_patterns = ["_build"]\n'
    )
    (source / "conf.py").write_text(conf, encoding="utf-8")
    (source / "index.md").write_text("# Tiny\n\n```{toctree}\ngood\ncut\nunclosed\nmaths\n```\n")
    for name, text in {"good": GOOD, "cut": CUT, "unclosed": UNCLOSED, "maths": MATHS}.items():
        (source / f"{name}.ipynb").write_text(notebook(text, GLUED), encoding="utf-8")
    # No colour: CI=true makes Sphinx colour its warnings, and the test reads them as text.
    build = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "--no-color", "-b", "html"]
    done = subprocess.run(
        [*build, str(source), str(source / "_build")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return done, source


def test_a_claim_whose_wordings_end_with_glued_numbers_shows_them(
    tiny_site: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    done, source = tiny_site
    html = (source / "_build" / "good.html").read_text(encoding="utf-8")
    assert raw_markup(html) == []
    assert "good.ipynb" not in done.stderr
    holds = html[html.index('class="mg-claim-holds"') : html.index('class="mg-claim-fails"')]
    fails = html[html.index('class="mg-claim-fails"') :]
    assert 'data-glue-key="x">2.5</span>, as built' in holds
    assert 'data-glue-key="x">2.50</span></span></span>.' in fails


def test_a_claims_shown_wording_is_written_in_words_with_its_maths_as_text(
    tiny_site: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    """The wording the build shows, as text a tooltip shows and a screen reader reads where
    the reader's run glues another wording's number (glue.js): typeset math has no such
    text, and its TeX is no words for a reader."""
    _, source = tiny_site
    html = (source / "_build" / "maths.html").read_text(encoding="utf-8")
    assert 'data-claim-words="is √2 times 2.5"' in html


def test_a_claim_cut_short_by_its_last_backtick_and_an_unclosed_role_fail_the_build(
    tiny_site: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    done, source = tiny_site
    assert done.returncode == 1
    warnings = [line for line in done.stderr.splitlines() if "WARNING" in line]
    cut = [line for line in warnings if "cut.ipynb" in line]
    assert any("a backtick that nothing closes" in line for line in cut), done.stderr
    unclosed = [line for line in warnings if "unclosed.ipynb" in line]
    assert unclosed == [
        f"{source / 'unclosed.ipynb'}: WARNING: the page shows markup as text, "
        "'{glue:text}`', in: 'Plain prose pastes {glue:text}`x:.1f here.' (a role or a code "
        "span the parser did not close; inside a claim, a wording that ends with a backtick "
        "needs a space before the closing ``) [raw_markup]"
    ]
