"""The docs pages as the tests read them: their code cells, their prose, and a run of their cells.

Each page of the site is a MyST markdown notebook (``docs/*.md``).
:func:`run_page` runs a page's ``{code-cell}`` cells in order, in a fresh
namespace, with a stand-in ``myst_nb.glue`` that records what the page glues,
once per test process (later calls share the run); :func:`in_page_group`
keeps the tests that run one page on one pytest-xdist worker.

The cells run with CPython's cyclic garbage collector paused
(:func:`micrograd.paused_gc`, the opt-in the package offers for a training
loop).  A page's graphs have no reference cycles, so reference counting frees
them and no value depends on the collector; but while a training step's graph
is alive the collector scans it again and again, and in a test process, which
holds far more objects than the build's kernel, each scan is long: with the
collector on, the moons page took 3.4 times the CPU time (48 s against 14 s).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import types
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from book_runtime.cell_names import without_magics
from book_runtime.features.claims import runtime as claims
from markdown_it import MarkdownIt

from micrograd import paused_gc

DOCS = Path(__file__).resolve().parent.parent / "docs"


@dataclass
class Cell:
    """One ``{code-cell}`` of a page: its code, its tags and its other option lines."""

    source: str
    tags: list[str]
    line: int
    options: dict[str, str] = field(default_factory=dict)


def _fences(text: str) -> list[Any]:
    return [t for t in MarkdownIt("commonmark").parse(text) if t.type == "fence"]


def _split_options(content: str) -> tuple[dict[str, str], str]:
    """A code cell's ``:key: value`` (or ``---`` YAML) option lines, and its code."""
    lines = content.splitlines()
    options: dict[str, str] = {}
    if lines and lines[0].strip() == "---":
        end = lines.index("---", 1)
        for line in lines[1:end]:
            key, _, value = line.partition(":")
            options[key.strip()] = value.strip()
        lines = lines[end + 1 :]
    else:
        while lines and lines[0].startswith(":"):
            key, _, value = lines.pop(0)[1:].partition(":")
            options[key.strip()] = value.strip()
    return options, "\n".join(lines).strip("\n") + "\n"


def code_cells(page: str) -> list[Cell]:
    """The ``{code-cell}`` cells of ``docs/<page>.md``, in order."""
    cells = []
    for token in _fences((DOCS / f"{page}.md").read_text(encoding="utf-8")):
        if token.info.split()[:1] != ["{code-cell}"]:
            continue
        options, source = _split_options(token.content)
        if "load" in options:  # myst-nb's `:load: file`: the cell's code is that file's
            source = (DOCS / options["load"]).read_text(encoding="utf-8").strip("\n") + "\n"
        tags = [t.strip() for t in options.get("tags", "").strip("[]").split(",") if t.strip()]
        cells.append(Cell(source, tags, token.map[0] + 1, options))
    return cells


#: Fenced blocks that hold prose: only their fences and option lines are left out (the
#: prose that waits for a prompt's answer, docs/_features/predict/spoilers.py; a predict
#: prompt's question and explanation, docs/_features/predict/directive.py).
PROSE_BLOCKS = frozenset({"{after-predict}", "{predict-run}", "{predict-claim}"})


def prose(page: str) -> str:
    """The page's text outside fenced blocks (what a reader reads as prose), and inside those
    that hold prose."""
    lines = (DOCS / f"{page}.md").read_text(encoding="utf-8").splitlines()
    for token in _fences("\n".join(lines)):
        start, end = token.map
        if token.info.split()[:1] in [[kind] for kind in PROSE_BLOCKS]:
            options = start + 1
            while options < end - 1 and lines[options].startswith(":"):
                options += 1
            blank = [*range(start, options), end - 1]
        else:
            blank = list(range(start, end))
        for i in blank:
            lines[i] = ""
    return "\n".join(lines)


@dataclass
class PageRun:
    """What running a page produced: glued values, the namespace, the printed text, and
    what the last cell run shows (its last expression's value, as the build's kernel
    displays it; None if it ends with a statement)."""

    glued: dict[str, Any] = field(default_factory=dict)
    claims: dict[str, dict[str, Any]] = field(default_factory=dict)
    namespace: dict[str, Any] = field(default_factory=dict)
    stdout: str = ""
    markdown: list[str] = field(default_factory=list)
    shown: Any = None


def _importer(run: PageRun) -> Any:
    """``__import__`` for the page's cells: stand-ins for ``myst_nb`` and ``IPython.display``.

    ``from myst_nb import glue`` gets a ``glue`` that records the value;
    ``from IPython.display import Markdown`` (IPython is not in the test
    extra) gets a ``Markdown`` that records the text.  Only the cells see the
    stand-ins: ``sys.modules`` is left alone, so matplotlib and the rest
    import as usual.
    """

    def glue(name: str, variable: Any, display: bool = True) -> None:
        if name in run.glued:
            raise AssertionError(f"glue key {name!r} glued twice")
        run.glued[name] = variable

    class Markdown:
        def __init__(self, data: str) -> None:
            self.data = data
            run.markdown.append(data)

    myst_nb = types.ModuleType("myst_nb")
    myst_nb.glue = glue  # type: ignore[attr-defined]
    display = types.ModuleType("IPython.display")
    display.Markdown = Markdown  # type: ignore[attr-defined]
    real_import = builtins.__import__

    def importer(
        name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
    ) -> Any:
        if name == "myst_nb":
            return myst_nb
        if name == "IPython.display" and fromlist:
            return display
        if name.split(".")[0] == "IPython":
            raise ImportError(f"the docs tests give the pages only IPython.display, not {name}")
        return real_import(name, globals, locals, fromlist, level)

    return importer


def _claim(run: PageRun) -> Any:
    """``claim`` as the kernels give it to the pages (the claims' runtime), recording each claim."""

    def record(key: str, verdict: dict[str, Any]) -> None:
        if key in run.claims:
            raise AssertionError(f"claim {key!r} stated twice")
        run.claims[key] = verdict

    claims.send = record
    return claims.claim


@cache
def run_page(page: str) -> PageRun:
    """Execute every code cell of ``docs/<page>.md`` in order, as the build does (once)."""
    return execute_page(page)


def execute_page(
    page: str, edits: Sequence[tuple[str, str]] = (), until: str | None = None
) -> PageRun:
    """Execute every code cell of ``docs/<page>.md`` in order, as the build does.

    ``edits``: a reader's edits, ``(old, new)`` each, made in the one cell whose
    code holds ``old`` before the page runs.  With edits, the exercises'
    solutions (cells tagged ``hide-cell``) do not run: they assert the page's
    own run, which an edit may rightly change.  ``until``: the page runs as far
    as the first cell whose code holds it (a build-only cell after it would
    check the build's numbers against the reader's).

    Raises
    ------
    ValueError
        If no cell, or more than one, holds an edit's ``old``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run = PageRun()
    run.namespace["__name__"] = f"docs_{page.replace('-', '_')}"
    run.namespace["__builtins__"] = {**vars(builtins), "__import__": _importer(run)}
    run.namespace["claim"] = _claim(run)
    out = io.StringIO()
    sources = [cell.source for cell in code_cells(page)]
    for old, new in edits:
        holding = [k for k, source in enumerate(sources) if old in source]
        if len(holding) != 1:
            raise ValueError(f"{len(holding)} cells of {page}.md hold {old!r}, not one")
        sources[holding[0]] = sources[holding[0]].replace(old, new)
    with contextlib.redirect_stdout(out), paused_gc():
        for cell, source in zip(code_cells(page), sources, strict=True):
            if edits and "hide-cell" in cell.tags:
                continue
            run.shown = _run_cell(without_magics(source), f"docs/{page}.md:{cell.line}", run)
            if until is not None and until in source:
                break
    plt.close("all")
    run.stdout = out.getvalue()
    return run


def _run_cell(source: str, filename: str, run: PageRun) -> Any:
    """Run a cell's code in the page's namespace; the value of its last expression, if any."""
    tree = ast.parse(source, filename)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, filename, "exec"), run.namespace)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), filename, "eval"), run.namespace)


def glued(page: str) -> dict[str, Any]:
    return run_page(page).glued


def claimed(page: str) -> dict[str, dict[str, Any]]:
    """The claims the page's cells state: key -> {holds, about}."""
    return run_page(page).claims


def in_page_group(page: str) -> pytest.MarkDecorator:
    """Keeps a test that runs ``page`` on the one pytest-xdist worker that runs that page."""
    return pytest.mark.xdist_group(f"page {page}")
