"""Sphinx extension: no predict prompt's answer shows on the page before the reader answers it.

A predict-then-run prompt (:mod:`.directive`) asks for a number, or a claim's
wording, before the reader runs; the page must not show it below the question
meanwhile.  A reader may read on to the page's end without answering, so the
build reads everything below the prompt, in its section and in those after it,
for what names the answer (:func:`spoilers`):

* a number pasted from the prompt's own key, in any format;
* a number pasted from another key that is the answer, as near as the prompt's
  ``close`` counts (the count of the model's parameters, pasted again as the
  trained model's), unless the answer is 0, which many other quantities are
  (another graph's gradient);
* a claim's sentence, for a prompt that asks about that claim;
* for a prompt about a claim, a number its explanation pastes as the claim's
  evidence (``a.grad`` is -0.3410: the loss falls), unless the page showed it
  above the prompt.

For a number prompt, it also reads the pictures below it, to the page's end: a
picture drawn by a cell that needs the run that answers the prompt (the cell that
glues its key, or a cell below the prompt that that one needs, as Python's
analysis of the page's cells says, :func:`book_runtime.snippets.runner_needs`)
shows what the answer is drawn from (the heat map of the rows a loss reached,
under a prompt that asks how many).

Up to the next heading, the prompt's part of the page, it also reads any text, a
cell's output among it (printed, HTML, a picture's alt text), that holds the
answer as the prompt's explanation pastes it (``1.0``; the same number written
with more decimals, ``1.0000``, too).  Further down, the same digits are most
often another quantity (a count, another graph's ``0.0000``).

Each is a warning (an error under ``-W``) that names the page and the element,
unless the page holds it back until the reader answers:

* a code cell tagged ``after-predict``: its output;
* prose inside ``{after-predict}``::

      ```{after-predict}
      {glue:text}`acc_wrong_twice:.1f` instead of {glue:text}`acc_twice:.1f`: ...
      ```

Either belongs to the prompt above it in its section (one that has none fails
the build).  Prose further down, in a later section, names its prompt::

      ```{after-predict} sm_a_grad_negative
      `a.grad` is {glue:text}`sm_da:.4f` ...
      ```

(the prompt's key, without ``claim:``; one that names no prompt above it fails
the build).  The build gives each an id, and the prompt's box the
list of them (``data-withholds``, JSON ``[{"id", "kind"}]``, ``kind`` being
``"output"`` or ``"prose"``); the page's script (the feature's predict.js)
hides them, each behind a neutral line, until the reader keeps a prediction,
runs the cell that gives the answer, or asks to see it.  On paper, and without
the script, everything shows: a printed book has no reader to answer.

The code of a cell is never read: a reader needs it to run the cell.  A prompt
about an edit (the neuron with ``x2 = 1``) has, in the build, the answer of the
page as built, not of the edit; the guard reads for that number all the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from book_runtime.features.claims.directive import GLUE_PREFIX as CLAIM_PREFIX
from book_runtime.features.claims.directive import claim_fails, claim_node
from book_runtime.features.glue.directive import glued_number
from book_runtime.features.predict.directive import built_answer, predict_run
from book_runtime.snippets import runner_needs
from docutils import nodes
from executed_notebooks import executed_notebook
from executed_notebooks.scripts import code_cells
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

#: The tag of a code cell whose output waits for the prompt above it.
TAG = "after-predict"
#: The class of prose that waits for the prompt above it (the directive's box).
PROSE_CLASS = "mg-after-predict"
#: What is held back, as the page's script is told (its ``kind``).
KINDS = ("output", "prose")
#: A number as prose and outputs write it: ``-1.5``, ``0.7071``, ``3``.
NUMBER = re.compile(r"(?<![\w.])[-−]?\d+(?:\.(?P<decimals>\d+))?(?![\w.]*\d)")
#: What a cell's HTML output shows that is no text: scripts (a stepper's questions), styles.
_NOT_SHOWN = re.compile(r"<(script|style)\b.*?</\1\s*>", re.S | re.I)
_TAG = re.compile(r"<[^>]*>")
#: At most this many characters of an element are quoted.
QUOTE = 80
#: How far apart two decimals written alike may be as floats (``0.95`` is 0.05 from ``1.0``).
ROUNDING = 1e-9
#: The attribute of ``{after-predict} KEY``'s box that names its prompt.
PROMPT_ATTRIBUTE = "after_prompt"


class AfterPredict(SphinxDirective):
    """``{after-predict} [KEY]``: prose the page shows once a prompt is answered: the one
    above it in its section, or the one named ``KEY`` (above it, anywhere on the page)."""

    has_content = True
    optional_arguments = 1

    def run(self) -> list[nodes.Node]:
        box = nodes.container(classes=[PROSE_CLASS])
        if self.arguments:
            box[PROMPT_ATTRIBUTE] = self.arguments[0]
        self.set_source_info(box)
        self.state.nested_parse(self.content, self.content_offset, box)
        return [box]


# -- what a prompt asks, and what would give it away ---------------------------------------------


@dataclass(frozen=True)
class Answer:
    """A prompt's answer as the build has it: its key, and the number as its explanation pastes it
    (``number``: None for a prompt about a claim); ``evidence``: the keys of the numbers a claim
    prompt's explanation pastes, which the page had not shown above the prompt."""

    key: str
    number: str | None
    evidence: frozenset[str] = frozenset()
    close: float = 0.0


def _pasted_above(prompt: predict_run) -> set[str]:
    """The keys of the numbers the page shows above ``prompt`` (outside prompts' explanations)."""
    shown: set[str] = set()
    page = [prompt, *_ancestors(prompt)][-1]
    for node in page.findall(nodes.Element):
        if node is prompt:
            return shown
        if isinstance(node, glued_number) and not any(
            isinstance(a, predict_run) for a in _ancestors(node)
        ):
            shown.add(node["glue_key"])
    return shown


def _ancestors(node: nodes.Node) -> Iterator[nodes.Node]:
    while node.parent is not None:
        node = node.parent
        yield node


def answer_of(prompt: predict_run) -> Answer:
    """The answer of ``prompt``: a number prompt's number is the one its explanation pastes."""
    key = prompt["key"]
    if key.startswith(CLAIM_PREFIX):
        pasted = {
            n["glue_key"]
            for why in prompt.findall(nodes.container)
            if "mg-predict-run-why" in why["classes"]
            for n in why.findall(glued_number)
        }
        return Answer(key, None, frozenset(pasted - _pasted_above(prompt)))
    return Answer(key, built_answer(prompt), close=float(prompt["close"]))


def _decimals(number: str) -> int:
    return len(number.partition(".")[2])


def _as_float(number: str) -> float:
    return float(number.replace("−", "-"))


def holds_number(text: str, number: str) -> bool:
    """Whether ``text`` says ``number``: the same value, written with at least its decimals.

    ``1.0`` is said by ``1.0`` and ``1.0000``, not by ``1`` (a count, a constant) nor
    ``1.04``.
    """
    want, places = _as_float(number), _decimals(number)
    said = (match.group(0) for match in NUMBER.finditer(text))
    return any(_decimals(s) >= places and _as_float(s) == want for s in said)


def _pasted_value(text: str) -> float | None:
    """The number a glued text says (``4,192``, ``-0.25``), or None for one that is none."""
    try:
        return _as_float(text.strip().replace(",", ""))
    except ValueError:
        return None


def near_answer(text: str, answer: Answer) -> bool:
    """Whether a pasted ``text`` is ``answer``'s number, as near as its prompt counts close.

    An answer of 0 is never near: a 0 pasted elsewhere is most often another quantity.
    """
    said = _pasted_value(text)
    if answer.number is None or said is None or _as_float(answer.number) == 0:
        return False
    return abs(said - _as_float(answer.number)) <= answer.close + ROUNDING


def _is_output(node: nodes.Node) -> bool:
    return isinstance(node, nodes.container) and "cell_output" in node["classes"]


def _withholds(node: nodes.Node) -> bool:
    """Whether the page holds ``node`` (and what it holds) back until the prompt is answered."""
    if not isinstance(node, nodes.Element):
        return False
    if PROSE_CLASS in node["classes"]:
        return True
    return _is_output(node) and f"tag_{TAG}" in node.parent["classes"]


def _hidden(node: nodes.Node) -> bool:
    """What the page shows no reader before an answer: code, another wording, an explanation."""
    if isinstance(node, claim_fails | nodes.system_message | nodes.comment):
        return True
    if isinstance(node, nodes.container):
        return bool({"cell_input", "mg-predict-run-why"} & set(node["classes"]))
    return isinstance(node, nodes.raw) and "html" not in node.get("format", "").split()


def region(prompt: predict_run) -> Iterator[tuple[nodes.Node, bool]]:
    """What follows ``prompt`` on its page, outermost first, to the page's end; each with
    whether it is in the prompt's part of the page (before the next heading).

    A node the page withholds or hides is given, and what it holds is not.
    """
    in_part = True
    todo: list[nodes.Node] = []
    node: nodes.Node = prompt
    while node.parent is not None:  # the prompt's next siblings, then its parents' ones
        parent = node.parent
        todo += parent.children[parent.index(node) + 1 :]
        node = parent
    while todo:
        node = todo.pop(0)
        in_part = in_part and not isinstance(node, nodes.section | nodes.title)
        yield node, in_part
        opaque = _withholds(node) or _hidden(node) or isinstance(node, nodes.raw)
        if not opaque and isinstance(node, nodes.Element):  # a raw node is read as a whole
            todo[:0] = list(node.children)


def _shown_text(node: nodes.Node) -> str:
    if isinstance(node, nodes.Text):
        return node.astext()
    if isinstance(node, nodes.raw):
        return _TAG.sub(" ", _NOT_SHOWN.sub(" ", node.astext()))
    if isinstance(node, nodes.image):
        return str(node.get("alt", ""))
    return ""


def _visible_text(node: nodes.Node) -> str:
    """``node``'s text as the page shows it: without another wording of a claim, say."""
    if _hidden(node):
        return ""
    if isinstance(node, nodes.Text):
        return node.astext()
    return "".join(_visible_text(child) for child in node.children)


def _what(node: nodes.Node) -> str:
    """The element that shows ``node``, as a reader of the build's message finds it."""
    block = node
    while block.parent is not None and not (
        _is_output(block) or isinstance(block, nodes.paragraph | nodes.list_item | nodes.table)
    ):
        block = block.parent
    if _is_output(block):
        source = next(iter(block.parent.findall(nodes.literal_block)), None)
        first = source.astext().strip().splitlines()[0] if source is not None else ""
        return f"the output of the cell that begins {first[:QUOTE]!r}"
    quoted = " ".join(_visible_text(block).split())
    if len(quoted) > QUOTE:
        quoted = quoted[:QUOTE] + "…"
    return f"the {block.tagname.replace('_', ' ')} {quoted!r}"


def spoilers(prompt: predict_run) -> list[tuple[nodes.Node, str]]:
    """What shows ``prompt``'s answer below it on its page before the reader answers.

    Returns
    -------
    list of (node, str)
        Each element that gives the answer away (once each), and in words what it
        is and what it shows.
    """
    answer = answer_of(prompt)
    found: dict[str, tuple[nodes.Node, str]] = {}

    def spoiled(node: nodes.Node, shows: str) -> None:
        what = _what(node)
        found.setdefault(what, (node, f"{what} {shows}"))

    for node, in_part in region(prompt):
        if _withholds(node) or _hidden(node):
            continue
        if isinstance(node, glued_number) and node["glue_key"] == answer.key:
            spoiled(node, f"pastes {answer.key}")
        elif isinstance(node, glued_number) and node["glue_key"] in answer.evidence:
            spoiled(node, f"pastes {node['glue_key']}, which its explanation gives as evidence")
        elif isinstance(node, glued_number) and near_answer(node.astext(), answer):
            spoiled(node, f"pastes {node['glue_key']} = {node.astext().strip()}, the answer")
        elif isinstance(node, claim_node) and CLAIM_PREFIX + node["key"] == answer.key:
            spoiled(node, f"says the claim {node['key']!r} it asks about")
        elif (
            in_part and answer.number is not None and holds_number(_shown_text(node), answer.number)
        ):
            spoiled(node, f"shows {answer.number}")
    return list(found.values())


# -- the pictures drawn from a prompt's answer ---------------------------------------------------


@dataclass(frozen=True)
class Cells:
    """What the page's executed notebook says of its code cells: ``code``, each notebook
    cell's place among the code cells (by the notebook's index, as a cell's node has it);
    ``needs``, the code cells each one needs; ``glues``, the code cell that glues each key."""

    code: dict[int, int]
    needs: list[list[int]]
    glues: dict[str, int]


def cells_of(notebook: dict[str, Any]) -> Cells:
    """:class:`Cells` of an executed notebook."""
    code: dict[int, int] = {}
    glues: dict[str, int] = {}
    for index, cell in enumerate(notebook.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        code[index] = len(code)
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if name is not None:
                glues[name] = code[index]
    return Cells(code, runner_needs(code_cells(notebook)), glues)


def _draws(node: nodes.Node) -> bool:
    """Whether a cell's output shows a picture: an image, or HTML that draws (SVG, a canvas)."""
    if isinstance(node, nodes.image):
        return True
    return isinstance(node, nodes.raw) and bool(re.search(r"<(svg|img|canvas)\b", node.astext()))


def picture_spoilers(prompt: predict_run, cells: Cells) -> list[tuple[nodes.Node, str]]:
    """The pictures below a number prompt drawn from the run that answers it, each with what
    it is (see the module's docstring)."""
    answer = answer_of(prompt)
    if answer.number is None or answer.key not in cells.glues:
        return []
    below = [
        node
        for node, _ in region(prompt)
        if isinstance(node, nodes.container) and node.get("cell_index") in cells.code
    ]
    if not below:
        return []
    first = cells.code[below[0]["cell_index"]]
    glue = cells.glues[answer.key]
    answering = {glue, *(d for d in cells.needs[glue] if d >= first)}
    found = []
    for node in below:
        output = next((n for n in node.children if _is_output(n)), None)
        k = cells.code[node["cell_index"]]
        if output is None or _withholds(output) or not any(output.findall(_draws)):
            continue
        if k in answering or answering & set(cells.needs[k]):
            found.append((output, f"{_what(output)} draws from the run that gives {answer.key}"))
    return found


# -- the prompts' parts of a page, and what waits in each ----------------------------------------


def _withheld_id(key: str, n: int) -> str:
    return f"mg-after-predict-{nodes.make_id(key)}-{n}"


def withhold(doctree: nodes.document) -> list[tuple[nodes.Node, str]]:
    """Give what a page withholds to its prompt (ids, and the prompt's ``withholds``): the one
    it names, else the one above it in its section.

    Returns
    -------
    list of (node, str)
        What withholds with no such prompt above it, and why that fails.
    """
    problems = []
    prompt: predict_run | None = None
    above: dict[str, predict_run] = {}  # every prompt so far, by its key without claim:
    for node in doctree.findall(nodes.Element):
        if isinstance(node, nodes.section):
            prompt = None
        elif isinstance(node, predict_run):
            prompt = node
            node["withholds"] = []
            above[node["key"].removeprefix(CLAIM_PREFIX)] = node
        elif _withholds(node):
            kind = "output" if _is_output(node) else "prose"
            named = node.get(PROMPT_ATTRIBUTE)
            waits_for = above.get(named) if named else prompt
            if waits_for is None:
                what = f"a cell tagged {TAG}" if kind == "output" else f"{{{TAG}}}"
                where = f"named {named!r}" if named else "above it in its section"
                why = f"{what} has no predict prompt {where}"
                problems.append((node, why + (" above it on the page" if named else "")))
                continue
            ident = _withheld_id(waits_for["key"], len(waits_for["withholds"]))
            node["ids"].append(ident)
            waits_for["withholds"].append({"id": ident, "kind": kind})
    return problems


def problems(doctree: nodes.document, cells: Cells | None = None) -> list[tuple[nodes.Node, str]]:
    """Every spoiler and misplaced ``after-predict`` of a page, each with its message;
    with ``cells`` (the page's code cells), only the pictures drawn from an answer."""
    found = withhold(doctree) if cells is None else []
    for prompt in doctree.findall(predict_run):
        name = "predict-claim" if prompt["key"].startswith(CLAIM_PREFIX) else "predict-run"
        key = prompt["key"].removeprefix(CLAIM_PREFIX)
        shown = spoilers(prompt) if cells is None else picture_spoilers(prompt, cells)
        hold = (
            f"Hold it back until the prompt is answered (a code cell: the tag {TAG}; prose: "
            f"{{{TAG}}}, or {{{TAG}}} {key} further down the page)"
        )
        found += [
            (node, f"{name} {key}: its answer shows before the reader answers: {said}. {hold}")
            for node, said in shown
        ]
    return found


def _location(node: nodes.Node, docname: str) -> tuple[str, int | None]:
    while node is not None and node.line is None:
        node = node.parent
    return docname, node.line if node is not None else None


def _check(app: Any, doctree: nodes.document) -> None:
    _warn(app.env.docname, problems(doctree))


def _check_pictures(app: Any, doctree: nodes.document, docname: str) -> None:
    """The pictures drawn from an answer: once the page's executed notebook is written (it
    is not yet when its doctree is read).  Only a builder that writes each page apart: one
    that joins the pages (singlehtml, LaTeX) resolves them all under the root's name."""
    if app.builder.name not in ("html", "dirhtml"):
        return
    notebook = executed_notebook(app, docname)  # None: the page is no notebook
    if notebook is not None:
        _warn(docname, problems(doctree, cells_of(notebook)))


def _warn(docname: str, found: list[tuple[nodes.Node, str]]) -> None:
    for node, message in found:
        logger.warning(
            message,
            location=_location(node, docname),
            type="predict",
            subtype="spoiler",
        )


def setup(app: Any) -> dict[str, Any]:
    app.setup_extension("book_runtime.features.predict.directive")
    app.add_directive(TAG, AfterPredict)
    app.connect("doctree-read", _check)
    app.connect("doctree-resolved", _check_pictures)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
