"""The notebook a reader downloads: the page as they read it, and runnable anywhere.

myst-nb writes each executed page to ``jupyter_execute/<page>.ipynb``.  That
notebook still holds the cells the page hides (``remove-cell``): the setup
cell, which imports ``myst_nb`` (a reader may not have it), and the cells
that ``glue`` numbers into the prose, which, run in Jupyter, show every glued
number a second time.  Its Markdown still says ``{glue:text}`name:.4f```
where the page shows the number, ``{{ name }}`` where it shows a
substitution of conf.py, and the book's roles (a claim's, a stepper pair's
words) as they were written.

:func:`reader_notebook` drops those cells and writes each glued value into
the Markdown, formatted as the page formats it (and each substitution's
text, each claim's wording and each pair's words, :func:`fill_roles`; each
predict-then-run prompt as a question and its answer, :func:`fill_prompts`), so
that the download reads like the page and runs in a plain Jupyter kernel.
It also leaves out the memory address in an object's plain-text fallback (``<graphviz.graphs.Digraph
at 0x7f86...>``, next to the drawing itself), and joins the pieces a cell
printed one after the other into one output (the kernel sends printed text
in pieces whose boundaries depend on timing, and ``nb_merge_streams`` joins
them only on the page), so that two builds of the same commit offer the same
file; for the same reason it leaves out when each cell ran (the build
records it: ``execution`` in a cell's metadata).  Plain Python: the tests use
it without Sphinx.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from book_runtime.features.claims.directive import ROLE as CLAIM_ROLE
from book_runtime.features.claims.directive import parse as parse_claim
from book_runtime.features.glue.runtime import format_glued
from book_runtime.features.predict.directive import question_length
from forward_refs import LATER_ROLE, later_words
from pair_words import WORDS as PAIR_WORDS

from .streams import join_stream_pieces
from .text import joined

#: Tags with which a code cell is left out of the page, and so of the download.
REMOVED = frozenset({"remove-cell", "remove_cell"})

#: ``{glue}`key```, ``{glue:text}`key:format```, ``{glue:md}`key```, ``{glue:any}`key```
GLUE_ROLE = re.compile(r"\{glue(?::(any|text|md))?\}`([^`]+)`")

#: The block form of ``{glue:md}`` (a table, say): a fenced directive with the
#: key as its argument and only option lines (``:format: myst``) in its body.
GLUE_MD_BLOCK = re.compile(
    r"^(?P<fence>`{3,}|:{3,})\{glue:md\}[ \t]+(?P<key>[\w-]+)[ \t]*\n"
    r"(?:[ \t]*:[\w-]+:.*\n)*(?P=fence)[ \t]*$",
    re.MULTILINE,
)

#: A MyST substitution, ``{{ name }}``: text the build's configuration gives the page.
SUBSTITUTION = re.compile(r"\{\{\s*([A-Za-z_]\w*)\s*\}\}")

#: The mime prefix under which myst-nb keeps a value glued with display=True.
_RECORD = "application/papermill.record/"

#: ``<module.Class at 0x7f867a074150>``: Python's default repr, different in every run.
_ADDRESS = re.compile(r"(<[\w.]+) at 0x[0-9a-fA-F]+>")


def glued_values(notebook: dict[str, Any], side: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Every value the page glued: name -> mime type -> text.

    ``side`` is the page's ``<page>.glue.json`` (values glued with
    ``display=False``); values glued with ``display=True`` are outputs of
    the notebook itself.
    """
    values: dict[str, dict[str, str]] = {}
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            record = output.get("metadata", {}).get("scrapbook")
            if record:
                values[record["name"]] = {
                    mime.removeprefix(_RECORD): joined(data)
                    for mime, data in output.get("data", {}).items()
                }
    for name, output in side.items():
        values[name] = {mime: joined(data) for mime, data in output.get("data", {}).items()}
    return values


#: A glued value's text/plain with a format spec, as the page shows it: the glue's runtime,
#: the one Python function that does it outside myst-nb (the reader's browser runs it too).


def fill_glue(markdown: str, values: dict[str, dict[str, str]]) -> str:
    """``markdown`` with each glue role replaced by its value, as the page shows it.

    A ``{glue:md}`` directive (the block form, for a table) is replaced by
    the Markdown it pastes.

    Raises
    ------
    KeyError
        If a role or directive names a value the page never glued.
    """

    def glued(key: str) -> dict[str, str]:
        if key not in values:
            raise KeyError(f"the page pastes {key!r}, which it never glued")
        return values[key]

    def paste(match: re.Match[str]) -> str:
        kind, content = match.group(1) or "any", match.group(2)
        key, _, fmt_spec = content.partition(":")
        data = glued(key)
        if kind == "md" or (kind == "any" and "text/markdown" in data):
            return data["text/markdown"]
        return format_glued(data["text/plain"], fmt_spec)

    def paste_block(match: re.Match[str]) -> str:
        return glued(match.group("key"))["text/markdown"].rstrip("\n")

    return GLUE_ROLE.sub(paste, GLUE_MD_BLOCK.sub(paste_block, markdown))


#: ``{pair}`first``` and the like (docs/_ext/pair_words.py).
PAIR_ROLE = re.compile(r"\{pair\}`\s*(?P<which>\w+)\s*`")


def fill_roles(markdown: str, pages: Mapping[str, int] | None = None) -> str:
    """``markdown`` with the book's own roles as the build's page shows them.

    A claim reads as its wording that holds (the build fails where a claim
    does not); a pair's words are those for side by side, as on paper; a link
    said to be later (``{later}``) is followed by the page's number in the map
    (``pages``: each page's), as on the page.  A notebook has no runner to change
    them, and Jupyter shows a role as raw text.
    """
    markdown = CLAIM_ROLE.sub(lambda m: parse_claim(m["content"]).holds, markdown)
    markdown = LATER_ROLE.sub(lambda m: m["link"] + later_words((pages or {})[m["page"]]), markdown)
    return PAIR_ROLE.sub(lambda m: PAIR_WORDS[m["which"]]["beside"], markdown)


#: A prompt of docs/_features/predict/directive.py (``{predict-run}`` or ``{predict-claim}``):
#: its option lines (one line each, as MyST reads them), the body: its question, the
#: explanation.
PROMPT = re.compile(
    r"^(?P<fence>`{3,})\{predict-(?:run|claim)\}[ \t]+[\w-]+[ \t]*\n"
    r"(?P<options>(?:[ \t]*:[\w-]+:.*\n)*)"
    r"\n?(?P<body>(?:.*\n)*?)(?P=fence)[ \t]*$",
    re.MULTILINE,
)


#: Prose a page holds back until its prompt (the one above, or the one it names) is answered
#: (docs/_features/predict/spoilers.py): a notebook, as paper, shows it where it stands.
AFTER_PREDICT = re.compile(
    r"^(?P<fence>`{3,})\{after-predict\}(?:[ \t]+\S+)?[ \t]*\n"
    r"(?P<body>(?:.*\n)*?)(?P=fence)[ \t]*$",
    re.MULTILINE,
)


def fill_prompts(markdown: str) -> str:
    """``markdown`` with each predict-then-run prompt as a reader of a notebook can use it.

    The question (the body's first paragraph, as the page reads it:
    :func:`book_runtime.features.predict.directive.question_length`), then the
    explanation folded away under "The answer" (an HTML ``<details>``, which
    Jupyter's Markdown shows as such), so that the reader predicts before reading
    it; nothing of the directive is left.  Prose held back until the answer
    (``{after-predict}``) stands as it is, without its fence.
    """

    def prompt(match: re.Match[str]) -> str:
        lines = match["body"].strip("\n").split("\n")
        asked = question_length(lines)
        question = " ".join(" ".join(lines[:asked]).split())
        body = "\n".join(lines[asked:]).strip("\n")
        return f"{question}\n\n<details><summary>The answer</summary>\n\n{body}\n\n</details>"

    return AFTER_PREDICT.sub(r"\g<body>", PROMPT.sub(prompt, markdown))


def fill_substitutions(markdown: str, substitutions: Mapping[str, str]) -> str:
    """``markdown`` with each ``{{ name }}`` replaced by its text, as the page shows it.

    Raises
    ------
    KeyError
        If the page names a substitution the configuration does not define.
    """

    def text(match: re.Match[str]) -> str:
        if match.group(1) not in substitutions:
            raise KeyError(f"the page substitutes {match.group(1)!r}, which conf.py never defines")
        return substitutions[match.group(1)]

    return SUBSTITUTION.sub(text, markdown)


def _printed_as_lines(outputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Adjacent printed pieces joined, each stream's text as a list of lines (nbformat's form)."""
    pieces = join_stream_pieces(outputs, adjacent_only=True)
    for output in pieces:
        if output["output_type"] == "stream":
            output["text"] = output["text"].splitlines(keepends=True)
    return pieces


def reader_notebook(
    notebook: dict[str, Any],
    side: dict[str, Any],
    substitutions: Mapping[str, str] | None = None,
    pages: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The downloadable notebook: hidden cells out, glued values and substitutions in the
    Markdown (``substitutions``: conf.py's ``myst_substitutions``; ``pages``: each page's
    number in the start page's map, for the links said to be later).

    Printed text that follows printed text of the same stream is joined into
    one output (:func:`~executed_notebooks.streams.join_stream_pieces`), so
    however the kernel split it, the file is the same.

    Cell ids are numbered (``cell-0``, ``cell-1``, ...): myst-nb's are random
    in every execution, and two builds of the same commit must offer the
    same file.
    """
    values = glued_values(notebook, side)
    result = copy.deepcopy(notebook)
    cells = []
    for cell in result.get("cells", []):
        tags = set(cell.get("metadata", {}).get("tags", []))
        if cell.get("cell_type") == "code" and tags & REMOVED:
            continue
        if cell.get("cell_type") == "markdown":
            markdown = joined(cell.get("source", ""))
            markdown = fill_glue(fill_roles(fill_prompts(markdown), pages), values)
            cell["source"] = fill_substitutions(markdown, substitutions or {})
        cell.get("metadata", {}).pop("execution", None)
        if "outputs" in cell:
            cell["outputs"] = _printed_as_lines(cell["outputs"])
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/plain" in data:
                data["text/plain"] = _ADDRESS.sub(r"\1>", joined(data["text/plain"]))
        cells.append(cell)
    for number, cell in enumerate(cells):
        if "id" in cell:
            cell["id"] = f"cell-{number}"
    result["cells"] = cells
    return result
