"""Sphinx extension: a graph the reader can nudge, declared after the cell that builds it.

A page marks a small graph whose inputs the reader may move (the Nudge control,
nudge.js beside this file; the numbers it shows, runtime.py)::

    ```{nudge} o
    :leaves: x1 w1 x2 w2 b
    :step: 0.001
    :rate: 0.1
    ```

The argument names the graph's output in the page's namespace, as the code cell
above the directive binds it; ``leaves`` are the labels of the inputs the
control offers, in its order (or ``names``, for inputs made without a label:
the names the page's code binds them to, ``a`` for ``a = Value(2.0)``);
``step`` is how far an arrow key moves one (Shift: ten times as far); ``rate``
is the learning rate of "Take a gradient step".
The build writes one sentence, which paper and a page without scripts show as
it is (the graph above stays as the build drew it), and the settings the
page's control reads, as data: with them, ``teach``, true for the book's first
nudgeable graph in reading order only, whose control says in full how to nudge
(the others say it in one line, the rest folded away).
"""

from __future__ import annotations

import html
import json
import re
from typing import Any, ClassVar

from docutils import nodes
from forward_refs import first_in_order, reading_order
from sphinx.util.docutils import SphinxDirective

#: A name the page's code binds, or a leaf's label.
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class nudge_graph(nodes.General, nodes.Element):  # docutils names its node classes in lower case
    """A graph the reader can nudge: its settings, and the sentence paper shows."""


def _positive(text: str | None) -> float:
    """``:step:`` and ``:rate:``: a number above 0."""
    try:
        value = float(text or "")
    except ValueError:
        raise ValueError(f"a number is needed, got {text!r}") from None
    if not value > 0:
        raise ValueError(f"a number above 0 is needed, got {text!r}")
    return value


def _names(text: str | None) -> list[str]:
    """``:leaves:``: labels separated by spaces, each a plain name."""
    names = (text or "").split()
    bad = [name for name in names if not NAME.match(name)]
    if not names or bad:
        raise ValueError(f"leaves are labels separated by spaces, got {text!r}")
    return names


def sentence(root: str, leaves: list[str]) -> str:
    """What paper and a page without scripts say of the graph: where it can be nudged, and
    what that shows.  True wherever it is read: on paper, and on the site with scripts off."""
    named = ", ".join(leaves[:-1]) + f" or {leaves[-1]}" if len(leaves) > 1 else leaves[0]
    return (
        f"On the book's web pages, with JavaScript on, this graph can be nudged: move {named} "
        f"a little and watch {root} change by about its gradient times the nudge."
    )


class NudgeGraph(SphinxDirective):
    """``{nudge} <output>`` (see the module's docstring)."""

    required_arguments = 1
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {
        "leaves": _names,
        "names": _names,
        "step": _positive,
        "rate": _positive,
    }

    def run(self) -> list[nodes.Node]:
        root = self.arguments[0]
        if not NAME.match(root):
            raise self.error(f"nudge {root}: the output is a name the cell above binds")
        if ("leaves" in self.options) == ("names" in self.options):
            raise self.error(f"nudge {root}: needs :leaves: (labels) or :names:, one of them")
        missing = [name for name in ("step", "rate") if name not in self.options]
        if missing:
            raise self.error(f"nudge {root}: needs :{': and :'.join(missing)}:")
        by_name = "names" in self.options
        settings = {
            "root": root,
            "leaves": self.options["names" if by_name else "leaves"],
            "byName": by_name,
            **{key: self.options[key] for key in ("step", "rate")},
        }
        node = nudge_graph(settings=settings)
        node += nodes.paragraph(text=sentence(root, settings["leaves"]))
        self.set_source_info(node)
        return [node]


def _read(app: Any, doctree: nodes.document) -> None:
    pages = app.env.__dict__.setdefault("nudge_pages", set())
    if any(True for _ in doctree.findall(nudge_graph)):
        pages.add(app.env.docname)
    else:
        pages.discard(app.env.docname)


def _purge(app: Any, env: Any, docname: str) -> None:
    env.__dict__.setdefault("nudge_pages", set()).discard(docname)


def _merge(app: Any, env: Any, docnames: Any, other: Any) -> None:
    mine = env.__dict__.setdefault("nudge_pages", set())
    mine.update(doc for doc in other.__dict__.get("nudge_pages", set()) if doc in docnames)


def _teaches(translator: Any, node: nudge_graph) -> bool:
    """Whether ``node`` is the book's first nudgeable graph in reading order."""
    builder = translator.builder
    env = builder.env
    order = reading_order(env.toctree_includes, builder.config.root_doc)
    teacher = first_in_order(env.__dict__.get("nudge_pages", set()), order)
    first_here = next(translator.document.findall(nudge_graph), None)
    return teacher == builder.current_docname and first_here is node


def _visit_html(translator: Any, node: nudge_graph) -> None:
    found = {**node["settings"], "teach": _teaches(translator, node)}
    settings = html.escape(json.dumps(found, sort_keys=True))
    translator.body.append(f'<div class="mg-nudge" data-nudge="{settings}">\n')


def _depart_html(translator: Any, node: nudge_graph) -> None:
    translator.body.append("</div>\n")


def setup(app: Any) -> dict[str, Any]:
    app.add_node(
        nudge_graph,
        html=(_visit_html, _depart_html),
        latex=(lambda t, n: None, lambda t, n: None),
        text=(lambda t, n: None, lambda t, n: None),
    )
    app.add_directive("nudge", NudgeGraph)
    app.connect("doctree-read", _read)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
