"""Which cells a cell needs, and the cell as a script that runs by itself: one analysis, two uses.

The book's build and the reader's browser both use this module, so that what
the runner runs before a cell and what "Copy as a script" puts before it
cannot disagree:

* :func:`needed_cells` is the rule.  From the cells' dependency facts
  (cell_names.py), the cells above cell ``k`` that bind or may change a name
  ``k`` reads (its *providers*), and, for each of those, the providers of the
  names it reads, and so on, in page order.  Only cells that run where ``k``
  runs count: in the reader's browser, every cell but the ``build-only`` ones
  (:func:`runner_needs`, which the build publishes in each page's cell
  manifest for the runner, and the worker computes for the reader's edits:
  :func:`runner_analysis`; the runner keeps no copy of the rule); in a
  script, every cell the page shows, ``build-only`` ones included, and none
  of the hidden ones
  (:func:`script_needs`): the hidden setup cell is the book's machinery, and
  the hidden glue cells only read the page's values
  (tests/site/test_docs_claims.py checks that no cell a reader sees needs a name
  only a hidden cell binds).
* :func:`script` assembles the script: a short header (where the cell comes
  from, what it needs beyond the standard library, and the pip command that
  installs it: :func:`install_command`, micrograd-book from the repository
  the build names, else from the wheel its site offers, else from the folder
  that holds its ``pyproject.toml``), the
  code of the cells it needs, then the cell.  The build writes one per shown cell
  (``_sources/<page>/cell-<n>.py``) and puts its text in the page's manifest,
  which "Copy as a script" copies; for a page the reader has edited, the
  worker assembles the reader's version with this same function.

A script takes a cell it needs whole, or only its imports where the names it
needs of that cell are all bound by them (the rest of the cell leaves them be):
an import reads nothing, so nothing more is followed from it, and the
assignments the script does not need stay out.  It leaves the book's machinery
out (``ast`` finds the statements; the text around them is kept as written,
comments included): IPython magics, ``glue(...)`` and ``claim(...)`` calls and
``myst_nb`` imports.  The cells it needs run silently: their ``print(...)``
calls (outside functions) are left out, and so is their last expression when
it only showed something on the page.  The cell's own last expression is
shown as Jupyter would show it (nothing after a trailing ``;``), by what
the build showed for it (:func:`shown_kind`): a plain value is printed with
``repr``; Markdown is printed as its text (``Markdown(text)`` becomes
``print(text)``, and the cell's ``IPython.display`` import goes where nothing
else uses it); a picture is written to a file named after the page and the
cell (``neuron-cell-1.svg``: a drawing laid out by ``render_svg``, a figure
by its ``save``, a stepper as its HTML) and a printed line says where it went
(``drawing written to neuron-cell-1.svg``); before that line, a drawing's
numbers are printed, as the page gives them in words: its text alternative
(``graph_description``: every box, with its data and grad), so that a
script of a cell whose numbers the page shows in a drawing prints them.  An
edited last expression keeps the build's form when it calls what the page's
did; otherwise a value that is not ``None`` is printed with ``repr``.

Standard library only (it runs in the reader's browser too).
"""

from __future__ import annotations

import ast
import copy
import json
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from book_runtime.cell_names import cell_names, ends_with_semicolon, is_magic, without_magics
from book_runtime.output_kinds import output_kind

#: A cell as these functions take it: a cell manifest's entry (docs/_ext/cell_manifest.py):
#: ``source``, ``hidden``, ``buildOnly``, ``shows`` (:func:`shows`), and, from the page,
#: ``edited`` (the source is the reader's).
Cell = Mapping[str, Any]

#: What a cell's last expression shows, by the kind of output the build made of it:
#: the file a picture goes to ("svg" or "html"), and the word the script prints for it.
SHOWN_AS: dict[str, tuple[str, str]] = {
    "drawing": ("svg", "drawing"),
    "figure": ("svg", "figure"),
    "stepper": ("html", "stepper"),
}
#: The calls that are the book's machinery: they mean nothing outside its build or runner.
MACHINERY_CALLS = frozenset({"glue", "claim"})
MACHINERY_MODULES = frozenset({"myst_nb"})
#: The distribution a script's ``import micrograd`` needs.
DISTRIBUTION = "micrograd-book"
#: The extra of micrograd-book a script needs when it draws or plots (Graphviz bindings, a
#: ``dot`` that needs no system Graphviz, matplotlib): what the examples/ scripts use.
DRAWING_EXTRA = f"{DISTRIBUTION}[examples]"


# -- the rule: which cells a cell needs --------------------------------------------------------


_EMPTY: dict[str, Any] = {
    "defines": [],
    "uses": [],
    "changes": [],
    "method_calls": [],
    "calls": {},
    "functions": {},
    "imports": [],
    "imported": {},
}


def facts_of(source: str) -> dict[str, Any]:
    """The dependency facts of ``source`` (cell_names.py); none for code that does not parse."""
    found = cell_names(source)
    return _EMPTY if "error" in found else found


@dataclass
class PageFacts:
    """What the whole page's code says about calls: its functions and its modules."""

    functions: dict[str, list[str]] = field(default_factory=dict)
    modules: set[str] = field(default_factory=set)


def page_facts(facts: Sequence[Mapping[str, Any]]) -> PageFacts:
    """The page's functions (name -> globals a call may change) and the names bound to modules."""
    page = PageFacts()
    for found in facts:
        page.functions.update(found["functions"])
        page.modules.update(found["imports"])
    return page


def touches(found: Mapping[str, Any], page: PageFacts) -> set[str]:
    """The names code with these facts binds or may change (the runner watches these).

    Besides what it binds and changes, a method call may change the object it is
    called on (not a module), and a call of a function the page defines may
    change what is passed to it and the globals the function changes.
    """
    names = set(found["defines"]) | set(found["changes"])
    names |= {name for name in found["method_calls"] if name not in page.modules}
    for callee, passed in found["calls"].items():
        if callee in page.functions:
            names |= {name for name in passed if name not in page.modules}
            names |= set(page.functions[callee])
    return names


def needed_cells(
    facts: Sequence[Mapping[str, Any]],
    k: int,
    runs: Callable[[int], bool],
    imported_alone: Sequence[set[str]] | None = None,
) -> dict[int, set[str] | None]:
    """The cells cell ``k`` needs: the providers of what it reads, transitively, by index.

    A provider of a name is a cell above ``k`` that binds or may change it
    (:func:`touches`).  The names ``k`` reads are followed to their providers,
    and the names those read to theirs, and so on; only cells for which
    ``runs(index)`` holds are taken, and followed.  Each is needed whole
    (None), or, with ``imported_alone`` (for each cell, the names only its
    top-level imports touch: :func:`imported_names`), for those imports alone
    (the set of names) where they are all that is needed of it: an import
    reads nothing, so nothing more is followed from it.
    """
    page = page_facts(facts)
    touched = [touches(found, page) for found in facts[:k]]
    names = list(dict.fromkeys(facts[k]["uses"]))
    taken: dict[int, set[str] | None] = {}
    for name in names:  # grows while it is read
        for code, names_touched in enumerate(touched):
            if name not in names_touched or not runs(code) or taken.get(code, set()) is None:
                continue
            if imported_alone is not None and name in imported_alone[code]:
                taken.setdefault(code, set()).add(name)  # type: ignore[union-attr]
                continue
            taken[code] = None
            names += [used for used in facts[code]["uses"] if used not in names]
    return dict(sorted(taken.items()))


def imported_names(source: str) -> set[str]:
    """The names only the top-level imports of ``source`` touch: the rest of it leaves them be.

    A cell that calls a method of a module it imports (``random.seed(1)``) is
    not one: the call may be what a later cell relies on.
    """
    parsed = _parse(source)
    if parsed is None:
        return set()
    tree = parsed[1]
    imports = [s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom))]
    rest = ast.Module([s for s in tree.body if s not in imports], [])
    bound = set(facts_of("\n".join(ast.unparse(s) for s in imports))["defines"])
    found = facts_of(ast.unparse(rest))
    return bound - set(found["defines"]) - set(found["changes"]) - set(found["method_calls"])


def runner_needs(cells: Sequence[Cell]) -> list[list[int]]:
    """For each cell, the cells the runner runs before it on a fresh page (not ``build-only``)."""
    facts = [facts_of(cell["source"]) for cell in cells]
    return [
        list(needed_cells(facts, k, lambda code: not cells[code]["buildOnly"]))
        for k in range(len(cells))
    ]


def script_needs(cells: Sequence[Cell], k: int) -> dict[int, set[str] | None]:
    """What a script of cell ``k`` takes of the cells above: the cells it needs that the page
    shows, whole or (None) their imports of the names in the set."""
    facts = [facts_of(cell["source"]) for cell in cells]
    alone = [imported_names(cell["source"]) for cell in cells]
    return needed_cells(facts, k, lambda code: not cells[code]["hidden"], alone)


def runner_analysis(cells: Sequence[Cell]) -> list[dict[str, Any]]:
    """What the runner plans with, for each cell of the page as its code is now.

    ``names``: its dependency facts (cell_names.py, with ``error`` for code
    that does not parse); ``watches``: the names it binds or may change
    (:func:`touches`, on the whole page's facts: the kernel watches these
    while it runs, and they make it a provider of each); ``needs``: the
    cells the runner runs before it on a fresh page (:func:`runner_needs`).
    The build writes the page's in its manifest; the worker answers with the
    reader's (an ``analyse`` message).
    """
    names = [cell_names(cell["source"]) for cell in cells]
    facts = [_EMPTY if "error" in found else found for found in names]
    page = page_facts(facts)
    needs = runner_needs(cells)
    return [
        {"names": found, "watches": sorted(touches(fact, page)), "needs": needed}
        for found, fact, needed in zip(names, facts, needs, strict=True)
    ]


def analysis_from_json(request: str) -> str:
    """:func:`runner_analysis` of ``{"cells": [{"source", "buildOnly"}, ...]}`` given as JSON,
    as JSON (what the worker calls for an ``analyse`` message)."""
    return json.dumps(runner_analysis(json.loads(request)["cells"]))


def cell_number(cells: Sequence[Cell], k: int) -> int:
    """Cell ``k``'s number as the page shows it ("cell 3"): its place among the shown cells.

    Raises
    ------
    ValueError
        If the page does not show cell ``k``'s code.
    """
    if cells[k]["hidden"]:
        raise ValueError(f"code cell {k} is hidden: the page shows no cell {k}")
    return sum(not cell["hidden"] for cell in cells[: k + 1])


# -- what the build showed of a cell's last expression -----------------------------------------


def shown_kind(outputs: Sequence[Mapping[str, Any]], mime_types: Mapping[str, str]) -> str | None:
    """What a built cell's last expression showed: a kind of :data:`SHOWN_AS`, value, markdown.

    ``outputs`` are the cell's outputs in its executed notebook, ``mime_types``
    the book's (mime_types.json); the kind is its result's
    (:func:`~book_runtime.output_kinds.output_kind`).  None: the cell shows no
    value (it ends with a statement, with ``;``, or its last expression is None).
    """
    for output in outputs:
        if output.get("output_type") == "execute_result":
            return output_kind(output, mime_types)
    return None


def last_expression(source: str) -> ast.expr | None:
    """The expression a notebook shows the value of: the last statement's, unless ``;`` ends it."""
    parsed = _parse(source)
    return None if parsed is None else _shown_expression(parsed[1], source)


def _shown_expression(tree: ast.Module, source: str) -> ast.expr | None:
    if not tree.body or not isinstance(tree.body[-1], ast.Expr) or ends_with_semicolon(source):
        return None
    return tree.body[-1].value


def shows(source: str, outputs: Sequence[Mapping[str, Any]], mime_types: Mapping[str, str]) -> Any:
    """What the manifest says a cell's last expression showed: ``{"kind", "expression"}``
    (``kind``: :func:`shown_kind`, None for nothing), or None: the cell has no such expression."""
    expression = last_expression(source)
    if expression is None:
        return None
    return {"kind": shown_kind(outputs, mime_types), "expression": ast.unparse(expression)}


def _kind_for(expression: ast.expr, shown: Mapping[str, Any] | None) -> str | None:
    """What ``expression`` shows: what the build's showed where it is the page's expression, or
    calls what the page's called.  Otherwise: nothing for a ``print(...)``, "call" for another
    call (its value printed unless it is None), and "value" for anything else."""
    if shown is not None:
        page = ast.parse(shown["expression"], mode="eval").body
        same_call = (
            isinstance(expression, ast.Call)
            and isinstance(page, ast.Call)
            and ast.unparse(expression.func) == ast.unparse(page.func)
        )
        if same_call or ast.unparse(expression) == shown["expression"]:
            return shown["kind"]  # type: ignore[no-any-return]
    if not isinstance(expression, ast.Call):
        return "value"
    is_print = isinstance(expression.func, ast.Name) and expression.func.id == "print"
    return None if is_print else "call"


# -- editing a cell's text by its statements ---------------------------------------------------


@dataclass
class _Text:
    """A cell's lines, edited statement by statement (whole lines), the rest kept as written."""

    lines: list[str]
    edits: dict[int, tuple[int, list[str]]] = field(default_factory=dict)  # first -> (last, new)

    def replace(self, statement: ast.stmt, new: list[str]) -> None:
        """Put ``new`` (lines, without indentation) in place of ``statement``'s lines.

        A statement that shares a line with another (``a = 1; print(a)``) stays as it is.
        """
        first, last = statement.lineno - 1, (statement.end_lineno or statement.lineno) - 1
        # ast's columns count bytes of UTF-8.
        before = self.lines[first].encode()[: statement.col_offset].decode()
        after = self.lines[last].encode()[statement.end_col_offset :].decode().strip()
        if before.strip() or (after and not after.startswith("#")):
            return
        indent = self.lines[first][: len(self.lines[first]) - len(self.lines[first].lstrip())]
        self.edits[first] = (last, [indent + line if line else line for line in new])

    def remove(self, statement: ast.stmt) -> None:
        self.replace(statement, [])

    def text(self) -> str:
        out: list[str] = []
        skip_to = -1
        for number, line in enumerate(self.lines):
            if number <= skip_to:
                continue
            if number in self.edits:
                skip_to, new = self.edits[number]
                out += new
            elif not is_magic(line):
                out.append(line)
        return "\n".join(out).strip("\n")


def _bodies(statements: list[ast.stmt], into_functions: bool) -> Iterator[list[ast.stmt]]:
    """``statements`` and every block of statements inside them (not function or class bodies,
    unless ``into_functions``)."""
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    yield statements
    for statement in statements:
        if isinstance(statement, scopes) and not into_functions:
            continue
        for name in ("body", "orelse", "finalbody"):
            block = getattr(statement, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield from _bodies(block, into_functions)
        for handler in getattr(statement, "handlers", []):
            yield from _bodies(handler.body, into_functions)
        for case in getattr(statement, "cases", []):
            yield from _bodies(case.body, into_functions)


def _called(statement: ast.stmt) -> str | None:
    """``f`` for the statement ``f(...)``, else None."""
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        func = statement.value.func
        if isinstance(func, ast.Name):
            return func.id
    return None


def _is_machinery(statement: ast.stmt) -> bool:
    """A ``glue(...)`` or ``claim(...)`` call, or an import of ``myst_nb``."""
    if _called(statement) in MACHINERY_CALLS:
        return True
    if isinstance(statement, ast.ImportFrom):
        return (statement.module or "").split(".")[0] in MACHINERY_MODULES
    if isinstance(statement, ast.Import):
        return all(alias.name.split(".")[0] in MACHINERY_MODULES for alias in statement.names)
    return False


def _remove_all(
    text: _Text,
    tree: ast.Module,
    anywhere: Callable[[ast.stmt], bool],
    outside_functions: Callable[[ast.stmt], bool] = lambda statement: False,
) -> None:
    """Remove the statements picked (in function bodies too, or outside them only); a block
    left empty keeps a ``pass``."""
    picked = {id(s) for block in _bodies(tree.body, True) for s in block if anywhere(s)}
    picked |= {id(s) for block in _bodies(tree.body, False) for s in block if outside_functions(s)}
    for block in _bodies(tree.body, True):
        gone = [statement for statement in block if id(statement) in picked]
        for statement in gone:
            text.remove(statement)
        if gone and len(gone) == len(block) and block is not tree.body:
            text.replace(gone[0], ["pass"])


# -- a cell's part of a script -----------------------------------------------------------------


def _parse(source: str) -> tuple[_Text, ast.Module] | None:
    try:
        tree = ast.parse(without_magics(source))
    except SyntaxError:
        return None
    return _Text(source.split("\n")), tree


def needed_part(cell: Cell, page: PageFacts) -> str:
    """A needed cell's code in a script: without the machinery, silent.

    Its ``print(...)`` calls (outside functions) go, and so does its last
    expression where the page shows it and it changes nothing (:func:`touches`).
    """
    source: str = cell["source"]
    parsed = _parse(source)
    if parsed is None:
        return source
    text, tree = parsed

    _remove_all(text, tree, _is_machinery, lambda statement: _called(statement) == "print")
    expression = _shown_expression(tree, source)
    if expression is not None and _shows_only(tree.body[-1], cell, page):
        text.remove(tree.body[-1])
    return text.text()


def _shows_only(statement: ast.stmt, cell: Cell, page: PageFacts) -> bool:
    """Whether the statement, a cell's last expression, only shows a value."""
    value = statement.value  # type: ignore[attr-defined]
    if _kind_for(value, cell.get("shows")) in (None, "call"):
        return False
    return not touches(facts_of(ast.unparse(statement)), page)


def imports_part(cell: Cell, names: set[str]) -> str:
    """A cell's top-level imports of ``names`` alone (all a script needs of it)."""
    parsed = _parse(cell["source"])
    if parsed is None:
        return ""
    text, tree = parsed
    for statement in tree.body:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            _keep_imports(text, statement, names.__contains__)
        else:
            text.remove(statement)
    return text.text()


def _keep_imports(
    text: _Text, statement: ast.Import | ast.ImportFrom, keep: Callable[[str], bool]
) -> None:
    """Keep of an import only what binds the names ``keep`` picks (none: it goes)."""
    kept = [alias for alias in statement.names if keep(_bound_by(alias, statement))]
    if not kept:
        text.remove(statement)
    elif len(kept) < len(statement.names):
        trimmed = copy.copy(statement)
        trimmed.names = kept
        text.replace(statement, [ast.unparse(trimmed)])


def _bound_by(alias: ast.alias, statement: ast.Import | ast.ImportFrom) -> str:
    """The name an import's alias binds: ``np`` (``import numpy as np``), ``os`` (``os.path``)."""
    if alias.asname:
        return alias.asname
    return alias.name.split(".")[0] if isinstance(statement, ast.Import) else alias.name


def target_part(cell: Cell, picture: str) -> str:
    """The cell's own code in its script: without the machinery, its value shown.

    ``picture`` is the file name a picture goes to, without its suffix.
    """
    source: str = cell["source"]
    parsed = _parse(source)
    if parsed is None:
        return source
    text, tree = parsed
    _remove_all(text, tree, _is_machinery)
    expression = _shown_expression(tree, source)
    if expression is None:
        return text.text()
    kind = _kind_for(expression, cell.get("shows"))
    if kind is None:
        return text.text()
    file = f"{picture}.{SHOWN_AS[kind][0]}" if kind in SHOWN_AS else ""
    bound = set(facts_of(source)["defines"])
    text.replace(tree.body[-1], _shown(expression, without_magics(source), kind, file, bound))
    if kind == "markdown":
        _drop_unused_import(text, tree, "Markdown", expression)
    return text.text()


def _written(node: ast.AST, code: str) -> str:
    """``node`` as ``code`` writes it (its comments and line breaks kept)."""
    return ast.get_source_segment(code, node) or ast.unparse(node)


def _shown(expression: ast.expr, code: str, kind: str, file: str, bound: set[str]) -> list[str]:
    """The lines that show ``expression`` (of ``code``) as :data:`SHOWN_AS` says, with the
    imports they need (unless ``bound`` has them already)."""
    source = _written(expression, code)
    if kind == "value":
        return [f"print(repr({source}))"]
    if kind == "call":
        return [f"shown = {source}", "if shown is not None:", "    print(repr(shown))"]
    if kind == "markdown":
        is_markdown_call = (
            isinstance(expression, ast.Call)
            and len(expression.args) == 1
            and not expression.keywords
        )
        argument = expression.args[0] if is_markdown_call else None  # type: ignore[attr-defined]
        text = _written(argument, code) if argument else f"{_callable(expression, source)}.data"
        return [f"print({text})"]
    if kind == "drawing":
        note = [
            "# The page shows this drawing; here it goes to a file (laid out by Graphviz's dot),",
            "# and its numbers are printed: the drawing's text alternative, every box in it.",
        ]
        names, module = ["graph_description", "render_svg"], "micrograd.viz.svg"
        write = f'print(graph_description(render_svg({source}, "{file}")))'
    elif kind == "figure":
        note = ["# The page shows this figure; here it goes to a file (drawn by matplotlib)."]
        names, module = [], ""
        write = f'{_callable(expression, source)}.save("{file}")'
    else:
        note = ["# The page shows this stepper; here its frames go to an HTML file."]
        names, module = ["Path"], "pathlib"
        html = f"{_callable(expression, source)}.to_html()"
        write = f'Path("{file}").write_text({html}, encoding="utf-8")'
    missing = [name for name in names if name not in bound]
    imports = [f"from {module} import {', '.join(missing)}", ""] if missing else []
    return [*note, *imports, write, f'print("{SHOWN_AS[kind][1]} written to {file}")']


def _callable(expression: ast.expr, source: str) -> str:
    """``source`` (``expression``'s), in parentheses where a method call on it needs them."""
    simple = (ast.Name, ast.Attribute, ast.Call, ast.Subscript)
    return source if isinstance(expression, simple) else f"({source})"


def _drop_unused_import(text: _Text, tree: ast.Module, name: str, shown: ast.expr) -> None:
    """Leave out the import of ``name`` where the cell no longer uses it (it showed it only)."""
    shown_nodes = {id(node) for node in ast.walk(shown)}
    loads = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and node.id == name and id(node) not in shown_nodes
    ]
    uses = [node for node in loads if isinstance(node.ctx, ast.Load)]
    if uses:
        return
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom):
            _keep_imports(text, statement, lambda bound: bound != name)


# -- the script --------------------------------------------------------------------------------


def script(cells: Sequence[Cell], k: int, page: Mapping[str, Any]) -> str:
    """Cell ``k`` as a script that runs by itself in a fresh Python with micrograd-book.

    ``cells`` are the page's code cells (:data:`Cell`), ``page`` says where
    they come from: ``title``, ``name`` (the page's name: ``neuron``), ``file``
    (its source file), ``book`` (the book's title), ``url`` (the page's address,
    or None), ``requirements`` (a pinned requirement by the module a script
    may import: ``{"torch": "torch==2.13.0"}``), ``repository`` (where
    micrograd-book is installed from, a URL git can clone, or None) and
    ``wheel`` (where a build that knows no repository has it installed from:
    the wheel the site offers, its address or its path from the page's; None
    or missing: from the folder that holds its ``pyproject.toml``;
    :func:`install_command`).

    Raises
    ------
    ValueError
        If the page does not show cell ``k``.
    """
    number = cell_number(cells, k)
    needed = script_needs(cells, k)
    facts = page_facts([facts_of(cell["source"]) for cell in cells])
    picture = f"{page['name'].rsplit('/', 1)[-1]}-cell-{number}"
    parts = [
        (code, imports_part(cells[code], names) if names else needed_part(cells[code], facts))
        for code, names in needed.items()
    ]
    parts.append((k, target_part(cells[k], picture)))
    body = _body(cells, parts, needed)
    edited = any(cells[code].get("edited") for code, _ in parts)
    header = _header(cells, k, needed, page, body, edited)
    return "\n".join(header) + "\n\n" + body + "\n"


def _body(
    cells: Sequence[Cell], parts: list[tuple[int, str]], needed: Mapping[int, set[str] | None]
) -> str:
    """The parts' code in page order, each under its cell's number when there are several."""
    pieces = []
    for code, code_text in parts:
        if len(parts) > 1:
            code_text = f"# -- {_taken(cells, code, needed.get(code))} --\n{code_text}"
        pieces.append(code_text)
    return "\n\n".join(pieces)


def _taken(cells: Sequence[Cell], code: int, names: set[str] | None) -> str:
    """What a script takes of cell ``code``: ``cell 3``, or ``cell 3's imports`` (``names``)."""
    return f"cell {cell_number(cells, code)}" + ("" if names is None else "'s imports")


def _header(
    cells: Sequence[Cell],
    k: int,
    needed: Mapping[int, set[str] | None],
    page: Mapping[str, Any],
    body: str,
    edited: bool,
) -> list[str]:
    """Where the script comes from, what it takes of the cells above, what it needs installed."""
    number = cell_number(cells, k)
    lines = [f'# Cell {number} of "{page["title"]}" ({page["file"]}), {page["book"]}']
    if page.get("url"):
        lines.append(f"# {page['url']}")
    version = "Your edited version, as a" if edited else "A"
    taken = [_taken(cells, code, names) for code, names in needed.items()]
    error = cell_names(cells[k]["source"]).get("error")
    if error:
        lines.append(f"# Its code does not parse ({error}): what it needs is not known.")
    elif taken:
        lines.append(f"# {version} script that runs by itself, with what it needs from above:")
        lines.append(f"# {', '.join(taken)}.")
    else:
        lines.append(f"# {version} script that runs by itself.")
    repository, wheel = page.get("repository"), page.get("wheel")
    lines.append(f"# micrograd-book is installed from {install_source(repository, wheel)}:")
    command = install_command(requirements(body, page["requirements"]), repository, wheel)
    lines.append(f"# Needs: {command}")
    return lines


def install_source(repository: str | None, wheel: str | None = None) -> str:
    """Where :func:`install_command` installs micrograd-book from, in words that name it.

    A build that knows no repository installs the wheel its site offers: at its
    address, or, where the build knows no address of its pages, at its path
    from the page's.  Without either, the script is installed from the source
    the site was built from, named by its ``pyproject.toml``.
    """
    if repository:
        return f"its repository, {repository}"
    if wheel and "://" in wheel:  # a whole address (https://...), not a path on the site
        return f"the wheel this site offers, {wheel}"
    if wheel:
        return f"the wheel this site offers, {wheel} (relative to this page's address)"
    return "the book's source, in the folder that holds its pyproject.toml"


def install_command(needed: Sequence[str], repository: str | None, wheel: str | None = None) -> str:
    """The pip command that installs ``needed`` (:func:`requirements`) as written.

    micrograd-book is not on PyPI: it comes from ``repository`` (a URL git can
    clone) with the extras it needs, ``pip install "micrograd-book[examples] @
    git+https://..."``; or, where the build knows no repository, from the
    wheel the site offers (``wheel``: its address, or its path from the
    page's), ``pip install "https://.../micrograd_book-...whl[examples]"``; or,
    without that either, from the folder that holds the book's
    ``pyproject.toml``, ``pip install -e ".[examples]"``.  The other
    requirements follow as they are.
    """
    package, *others = needed
    extras = package.removeprefix(DISTRIBUTION)
    if repository:
        source = [f'"{package} @ git+{repository}"']
    elif wheel:
        source = [f'"{wheel}{extras}"']
    else:
        source = ["-e", f'".{extras}"' if extras else "."]
    return " ".join(["pip install", *source, *others])


def requirements(code: str, pinned: Mapping[str, str]) -> list[str]:
    """What ``code`` needs installed: micrograd-book (with the drawing extra where it draws or
    plots) first, and every other module it imports that is not in the standard library
    (pinned where ``pinned`` names it)."""
    modules: dict[str, None] = {}
    try:
        tree = ast.parse(code)
    except SyntaxError:  # a reader's code that does not parse: it imports nothing known
        tree = ast.Module([], [])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(dict.fromkeys(alias.name for alias in node.names))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules[node.module] = None
    draws = any(name.startswith("micrograd.viz") for name in modules)
    needed = [DRAWING_EXTRA if draws else DISTRIBUTION]
    for top in dict.fromkeys(name.split(".")[0] for name in modules):
        if top != "micrograd" and top not in sys.stdlib_module_names:
            needed.append(pinned.get(top, top))
    return needed


def script_from_json(request: str) -> str:
    """:func:`script` of ``{"cells", "index", "page"}`` given as JSON (what the worker calls)."""
    found = json.loads(request)
    return script(found["cells"], int(found["index"]), found["page"])
