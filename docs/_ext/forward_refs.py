"""Sphinx extension: a page uses only what it or an earlier page has taught.

The book is read in its start page's order (the toctree of ``index.md``); the
start page (the map of the book) and the API reference stand outside that
story.  The build fails, naming the page and the line, on what points forward:

* a **link** to a later page of the story (a Markdown link, ``{ref}``);
* a **name** of micrograd's API (:data:`TAUGHT_MODULES`' ``__all__``: ``Value``,
  ``topological_order``, ``MLP``...) that the page uses before the page that
  teaches it.  A page *teaches* a name when its code, as shown (a code cell not
  folded away, as an exercise's solution is), imports it; a page *uses* it
  there too, and also in a folded cell, or by naming it in its prose as code
  (```micrograd.engine.topological_order(g)```).  The drawing helpers of
  ``micrograd.viz`` are the book's tools, not its lessons.

Unless the page says, in plain words, that what it points to is ahead: the
``later`` role around the link,

    ... is on {later}`[Why it's fast](why-its-fast.md)`, once the backward pass ...

shows the link followed by "(page 8, later in the book)", the page's number in
the start page's map.  A name the page uses before its time is allowed where
the page points, so, to the page that teaches it.  ``later`` around a link
that is not ahead fails too: its words would not be true.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: The modules whose public names (``__all__``) the book teaches.
TAUGHT_MODULES = (
    "micrograd",
    "micrograd.engine",
    "micrograd.nn",
    "micrograd.collector",
    "micrograd.datasets",
    "micrograd.training_log",
    "micrograd.gpt",
)
#: The class of the ``later`` role's words, and the attribute naming the page it points to.
LATER = "mg-later"
#: Where the build keeps what each page teaches, uses and links to (:func:`keep_per_page`).
PAGES = "forward_refs"
#: Tags with which a code cell's code is folded away: an exercise's solution.
FOLDED = frozenset({"tag_hide-cell", "tag_hide-input"})
#: ``from micrograd... import a, b``: the names on its line, or in its parentheses (which
#: may span lines); never the lines after it, another import among them.
_IMPORT = re.compile(
    r"^[ \t]*from[ \t]+(micrograd(?:\.\w+)*)[ \t]+import[ \t]+(?:\(([\w\s,]+)\)|([\w \t,]+))",
    re.M,
)
_DOTTED = re.compile(r"\bmicrograd(?:\.\w+)+")
_WORD = re.compile(r"[A-Za-z_]\w*")
#: The role as it stands in a page's Markdown (for the download): its link, and the page.
LATER_ROLE = re.compile(
    r"\{later\}(?P<ticks>`+)\s*(?P<link>\[.*?\]\((?P<page>[\w-]+)\.md(?:#[\w-]*)?\))\s*(?P=ticks)",
    re.S,
)


def later_words(number: int) -> str:
    """What the ``later`` role says after its link: the page's number, and that it is later."""
    return f" (page {number}, later in the book)"


def api_names() -> frozenset[str]:
    """The names the book teaches: :data:`TAUGHT_MODULES`' ``__all__``, its classes and
    functions (constants and ``__version__`` aside)."""
    names = set()
    for name in TAUGHT_MODULES:
        module = importlib.import_module(name)
        names.update(n for n in getattr(module, "__all__", []) if callable(getattr(module, n)))
    return frozenset(names)


def names_in_code(code: str, api: frozenset[str]) -> set[str]:
    """The names of ``api`` that ``code`` imports from micrograd, or reaches as
    ``micrograd.module.name``."""
    found = set()
    for match in _IMPORT.finditer(code):
        found.update(_WORD.findall(match.group(2) or match.group(3)))
    for dotted in _DOTTED.findall(code):
        found.add(dotted.rsplit(".", 1)[-1])
    return found & api


def names_in_prose(code: str, api: frozenset[str]) -> set[str]:
    """The names of ``api`` that a piece of inline code in the prose says."""
    return set(_WORD.findall(code)) & api


# -- what a page teaches, uses and links to ------------------------------------------------------


@dataclass
class Page:
    """What one page teaches and uses (name -> the first line), and where it links."""

    teaches: dict[str, int] = field(default_factory=dict)
    uses: dict[str, int] = field(default_factory=dict)
    #: (target page or ``{ref}`` label, said to be later, line, what the reader reads)
    links: list[tuple[str, bool, int, str]] = field(default_factory=list)


def _line(node: nodes.Node) -> int:
    while node is not None and node.line is None:
        node = node.parent
    return node.line if node is not None and node.line else 0


def _later(node: nodes.Node) -> bool:
    """Whether ``node`` is inside the words of a ``later`` role."""
    while node is not None:
        if isinstance(node, nodes.inline) and LATER in node["classes"]:
            return True
        node = node.parent
    return False


def read_page(doctree: nodes.Node, api: frozenset[str]) -> Page:
    """What a page's doctree (as read, its links not resolved yet) teaches, uses and links to."""
    page = Page()

    def note(where: dict[str, int], names: set[str], line: int) -> None:
        for name in names:
            where.setdefault(name, line)

    for cell in doctree.findall(nodes.container):
        if "cell" not in cell["classes"]:
            continue
        folded = bool(FOLDED & set(cell["classes"]))
        for source in cell.findall(nodes.container):
            if "cell_input" not in source["classes"]:
                continue
            names = names_in_code(source.astext(), api)
            note(page.uses, names, _line(cell))
            if not folded:
                note(page.teaches, names, _line(cell))
    for literal in doctree.findall(nodes.literal):
        note(page.uses, names_in_prose(literal.astext(), api), _line(literal))
    for xref in doctree.findall(addnodes.pending_xref):
        if xref.get("refdomain") == "doc" or xref.get("reftype") == "doc":  # Markdown, {doc}
            target = xref["reftarget"].lstrip("/")
        elif xref.get("reftype") == "ref":  # {ref}: its label's page, known once all are read
            target = "#" + xref["reftarget"]
        else:
            continue
        page.links.append((target, _later(xref), _line(xref), xref.astext()))
    return page


def reading_order(toctree_includes: dict[str, list[str]], root: str) -> list[str]:
    """The pages in the order the start page's toctree gives them, the start page first."""
    order: list[str] = []

    def walk(docname: str) -> None:
        if docname in order:
            return
        order.append(docname)
        for child in toctree_includes.get(docname, []):
            walk(child)

    walk(root)
    return order


def first_in_order(pages: Collection[str], order: list[str]) -> str | None:
    """The first of ``pages`` in reading order ``order`` (:func:`reading_order`), or None.

    The page where the book first shows something is where it explains it in full
    (how to nudge a graph, what the scratch cell sees); later pages say it briefly.
    """
    return next((doc for doc in order if doc in pages), None)


def problems(
    pages: dict[str, Page], story: list[str], labels: dict[str, str] | None = None
) -> list[tuple[str, int, str]]:
    """Every forward reference of the story's pages, and every ``later`` that is not.

    ``story`` is the pages in reading order (the start page and the reference
    left out); ``labels`` maps a ``{ref}`` label to its page.

    Returns
    -------
    list of (str, int, str)
        The page, the line, and what is wrong, in words.
    """
    labels = labels or {}
    place = {doc: n for n, doc in enumerate(story)}
    taught: dict[str, str] = {}
    for doc in story:
        for name in pages.get(doc, Page()).teaches:
            taught.setdefault(name, doc)
    found: list[tuple[str, int, str]] = []
    for doc in story:
        page = pages.get(doc, Page())
        here = f"this is page {place[doc] + 1}"
        said_later = set()
        for target, later, line, words in page.links:
            to = labels.get(target[1:], "") if target.startswith("#") else target
            if to not in place:
                continue  # the start page, the reference, another site: no step of the story
            ahead = place[to] > place[doc]
            if later:
                said_later.add(to)
            if ahead and not later:
                wrong = (
                    f"the link {words!r} points ahead, to {to} (page {place[to] + 1}; {here}): "
                    f"say so, {{later}}`[{words}]({to}.md)`, or point to what an earlier page "
                    "has taught"
                )
                found.append((doc, line, wrong))
            elif later and not ahead:
                wrong = (
                    f"the link {words!r} says {to} is later in the book, but it is page "
                    f"{place[to] + 1} and {here}: link it plainly"
                )
                found.append((doc, line, wrong))
        for name, line in sorted(page.uses.items()):
            teacher = taught.get(name)
            if teacher is None or place[teacher] <= place[doc] or teacher in said_later:
                continue
            wrong = (
                f"it uses {name}, which the book teaches later, on {teacher} (page "
                f"{place[teacher] + 1}; {here}): use what this or an earlier page has taught, "
                f"or say where it is taught, {{later}}`[...]({teacher}.md)`"
            )
            found.append((doc, line, wrong))
    return found


# -- the build -----------------------------------------------------------------------------------


def later_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Any,
    options: dict[str, Any] | None = None,
    content: list[str] | None = None,
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``{later}`[words](page.md)```: a link to a later page, which says that it is."""
    node = nodes.inline(rawtext, classes=[LATER])
    children, messages = inliner.parse(text, lineno, inliner, node)
    node += children
    targets = [x for x in node.findall(addnodes.pending_xref) if x.get("refdomain") == "doc"]
    if len(targets) != 1:
        message = inliner.reporter.error(
            f"later: one link to a page of the book is needed, got {text!r}", line=lineno
        )
        return [], [*messages, message]
    node["later_target"] = targets[0]["reftarget"]
    return [node], messages


def keep_per_page(app: Sphinx, key: str, read: Callable[[nodes.document], Any]) -> None:
    """Keep ``read(doctree)`` of each page the build reads, by docname, in the environment
    under ``key`` (:func:`per_page`): a page read again replaces what was kept of it, a page
    gone takes it away, and what a parallel reader kept is merged in."""

    def on_read(app: Sphinx, doctree: nodes.document) -> None:
        app.env.__dict__.setdefault(key, {})[app.env.docname] = read(doctree)

    def purge(app: Sphinx, env: Any, docname: str) -> None:
        env.__dict__.setdefault(key, {}).pop(docname, None)

    def merge(app: Sphinx, env: Any, docnames: Any, other: Any) -> None:
        theirs = other.__dict__.get(key, {})
        env.__dict__.setdefault(key, {}).update((d, theirs[d]) for d in docnames if d in theirs)

    app.connect("doctree-read", on_read)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)


def per_page(env: Any, key: str) -> dict[str, Any]:
    """What :func:`keep_per_page` keeps under ``key``: docname -> what was read of the page."""
    found: dict[str, Any] = env.__dict__.get(key, {})
    return found


def story_numbers(app: Sphinx) -> dict[str, int]:
    """Each page of the story, and its number in the start page's map (the first is 1)."""
    return {doc: n for n, doc in enumerate(_story(app, app.env), start=1)}


def _story(app: Sphinx, env: Any) -> list[str]:
    root = app.config.root_doc
    order = reading_order(env.toctree_includes, root)
    return [doc for doc in order if doc != root and doc not in app.config.book_reference_pages]


def _check(app: Sphinx, env: Any) -> None:
    labels = {label: where[0] for label, where in env.get_domain("std").labels.items()}
    for doc, line, message in problems(per_page(env, PAGES), _story(app, env), labels):
        logger.warning(message, location=(doc, line), type="forward", subtype="reference")


def _number_later(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Each ``later`` link is followed by its page's number in the start page's map."""
    story = _story(app, app.env)
    for node in doctree.findall(nodes.inline):
        target = node.get("later_target")
        if LATER in node["classes"] and target in story:
            node += nodes.Text(later_words(story.index(target) + 1))


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("book_reference_pages", [], "env", [list])
    app.add_role("later", later_role)
    keep_per_page(app, PAGES, lambda doctree: read_page(doctree, api_names()))
    app.connect("env-check-consistency", _check)
    app.connect("doctree-resolved", _number_later)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
