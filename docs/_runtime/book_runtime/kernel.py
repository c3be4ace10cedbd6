"""The Python side of the in-browser runner: runs a page's cells inside Pyodide.

worker.js imports this module (book_runtime.kernel), calls :func:`start` once, and calls
:func:`run_cell` for each cell, as a notebook kernel would: the cell's last
expression is displayed unless the cell ends with ``;``, printed text goes to
the cell as it is written, and an exception ends the cell with its traceback
(the runner's own frames left out).

A page has two namespaces.  The cells the page shows, and the reader's scratch
cell after them, run in :data:`NAMESPACE`; the cells whose code the build hides
(the set-up, the cells that glue numbers and state claims, the exercises'
folded solutions: ``apart`` in the page's manifest) run in :data:`BEHIND`,
which holds the shown cells' names as they are when such a cell starts, and
the hidden cells' own names besides.  What a hidden cell binds stays behind:
the scratch cell sees the names of the cells the reader sees, as those cells
left them.

Values are displayed by their rich reprs (``_repr_mimebundle_``,
``_repr_html_``, ``_repr_svg_``, ``_repr_markdown_``) and ``repr``, except
where the book shows a kind of value differently in the browser, which this
kernel says by type (:func:`for_type_by_name`), as a notebook kernel's
display formatters do: a graphviz graph (``draw_dot``, ``draw_mlp``) by its
DOT source, which the worker lays out with viz.js (graphviz's own reprs run
the ``dot`` program, which a browser does not have); a
``micrograd.viz.chart.Figure`` by its description, which the page draws
(there is no matplotlib here); a ``micrograd.viz.stepper`` stepper by its
frames' data, which the worker lays out.  Their MIME types are the book's
(mime_types.json, handed over by :func:`start`).  There is no IPython in the
browser either, so ``IPython.display`` here offers what pages use of it:
``display``, ``HTML``, ``Markdown`` and ``SVG``; nor is there myst-nb, whose
``glue`` (the pages' hidden cells glue numbers into the text with it) here
sends the page the value's text in each format the page shows it in (an
add-on: the glue feature's runtime).  The pages' hidden cells also state
claims (``claim``, an add-on: the claims feature's runtime): here a claim goes
to the page, which shows the wording of its sentence that is true of the
reader's run.

An add-on sends the page a message of its own while a cell runs with
:func:`post_message` (the page hands it to the handler registered for that
name: outputs.js's ``registerAddon``), and can wrap every cell in a context
manager of its own by appending its factory to :data:`CELL_CONTEXTS`
(the charts' runtime draws the training curve that way).

For the runner's view of the page's flow, :func:`run_cell` also reports which
of the names it was asked to watch the cell actually changed (rebound, or
whose contents differ: :func:`fingerprint`).
"""

from __future__ import annotations

import ast
import importlib
import io
import json
import linecache
import sys
import traceback
import types
from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack
from typing import Any, Protocol

from book_runtime.cell_names import ends_with_semicolon

#: The namespace the page's shown cells and the scratch cell run in.
NAMESPACE: dict[str, Any] = {"__name__": "__main__", "__builtins__": __builtins__}
#: The namespace the hidden cells run in (:func:`behind`).  It starts with ``glue``:
#: every page's setup cell imports it (``from myst_nb import glue``) and is build-only
#: (it also sets up matplotlib, which the browser does not have); and ``claim``: the
#: glue's and the claims' add-ons give them (:func:`addons`).
BEHIND: dict[str, Any] = {"__name__": "__main__", "__builtins__": __builtins__}
_lent: set[str] = set()  # the names BEHIND holds from NAMESPACE

#: Rich reprs, in the order a notebook prefers them.
REPR_METHODS = (
    ("text/html", "_repr_html_"),
    ("image/svg+xml", "_repr_svg_"),
    ("text/markdown", "_repr_markdown_"),
    ("text/latex", "_repr_latex_"),
)

#: What every cell runs inside: each add-on's factory of a context manager, entered
#: in order after the cell's outputs go to it and before its code runs.
CELL_CONTEXTS: list[Callable[[], AbstractContextManager[object]]] = []
#: What runs before the running cell shows an object (:func:`display`): each add-on's
#: function, in order (a live chart is brought up to date before the figure it previews).
BEFORE_DISPLAY: list[Callable[[], None]] = []

#: The book's MIME types, by what they are (mime_types.json; :func:`start` sets them).
MIME_TYPES: dict[str, str] = {}
#: The formats each glued key is shown in on the page: key -> format specs (:func:`start`;
#: the glue's add-on formats a glued value in each).
GLUE_FORMATS: dict[str, list[str]] = {}
#: How the book shows a kind of value in the browser: (module, class name) ->
#: a function of the value that gives its bundle (:func:`for_type_by_name`).
FORMATTERS: dict[tuple[str, str], Callable[[Any], dict[str, str]]] = {}


class Output(Protocol):
    """Where a running cell's outputs go: the worker's messages (worker.js, protocol.js)."""

    def stream(self, name: str, text: str) -> None:
        """Printed text (``name``: stdout or stderr)."""

    def display(self, bundle: str) -> None:
        """A displayed value's bundle, as JSON."""

    def addon(self, name: str, fields: str) -> None:
        """An add-on's message and its fields, as JSON."""


_out: Output | None = None  # the running cell's, while one runs


class _CellStream(io.TextIOBase):
    """``sys.stdout`` / ``sys.stderr``: text goes to the running cell as it is written."""

    def __init__(self, name: str) -> None:
        self.name = name

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text and _out is not None:
            _out.stream(self.name, text)
        return len(text)


def for_type_by_name(module: str, name: str, formatter: Callable[[Any], dict[str, str]]) -> None:
    """Show values of the class ``module.name`` (and its subclasses) as ``formatter(value)``.

    By name, as IPython's formatters register, so that the module is not
    imported before a cell imports it.
    """
    FORMATTERS[(module, name)] = formatter


def _formatter(obj: object) -> Callable[[Any], dict[str, str]] | None:
    for cls in type(obj).__mro__:
        found = FORMATTERS.get((cls.__module__, cls.__qualname__))
        if found is not None:
            return found
    return None


def _without_metadata(found: object) -> object:
    """What a repr method gave, without the metadata it may give beside it (``data, meta``)."""
    return found[0] if isinstance(found, tuple) else found


def mimebundle(obj: object) -> dict[str, str]:
    """What the page shows for ``obj``: ``{mime type: data}``."""
    book = _formatter(obj)
    if book is not None:
        return {**book(obj), "text/plain": repr(obj)}
    bundle: dict[str, str] = {}
    if not isinstance(obj, type):
        method = getattr(obj, "_repr_mimebundle_", None)
        if callable(method):
            data = _without_metadata(method(include=None, exclude=None))
            if isinstance(data, dict):
                bundle.update({k: v for k, v in data.items() if isinstance(v, str)})
        for mime, name in REPR_METHODS:
            method = getattr(obj, name, None)
            if mime not in bundle and callable(method):
                data = _without_metadata(method())
                if isinstance(data, str):
                    bundle[mime] = data
    bundle.setdefault("text/plain", repr(obj))
    return bundle


def display(*objs: object) -> None:
    """Show each object in the running cell (``IPython.display.display``)."""
    for obj in objs:
        if _out is not None:
            for before in BEFORE_DISPLAY:
                before()
            _out.display(json.dumps(mimebundle(obj)))


def post_message(name: str, **fields: Any) -> None:
    """Send the page the add-on message ``name`` with ``fields``, as part of the running cell's run.

    Raises
    ------
    RuntimeError
        If no cell is running (the message would belong to no run).
    """
    if _out is None:
        raise RuntimeError(f"post_message({name!r}): no cell is running")
    _out.addon(name, json.dumps(fields))


def _install_ipython_display() -> None:
    """``IPython.display`` with display, HTML, Markdown and SVG (IPython is not in Pyodide)."""

    class _Data:
        def __init__(self, data: str | None = None) -> None:
            self.data = data

        def __repr__(self) -> str:
            return f"<IPython.core.display.{type(self).__name__} object>"

    package = types.ModuleType("IPython", "What the in-browser runner offers of IPython.")
    module = types.ModuleType("IPython.display", "IPython.display's display, HTML, Markdown, SVG.")
    module.display = display  # type: ignore[attr-defined]
    # Each shows its data by the rich repr of its kind (REPR_METHODS).
    kinds = {"HTML": "_repr_html_", "Markdown": "_repr_markdown_", "SVG": "_repr_svg_"}
    for name, method in kinds.items():
        setattr(module, name, type(name, (_Data,), {method: lambda self: self.data}))
    package.display = module  # type: ignore[attr-defined]
    sys.modules.setdefault("IPython", package)
    sys.modules.setdefault("IPython.display", module)


#: How many objects :func:`fingerprint` looks at before it gives up on a value.
FINGERPRINT_BUDGET = 200_000
#: How deep :func:`fingerprint` follows an object's attributes.
FINGERPRINT_DEPTH = 4
_OPAQUE = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType, type)


class _Unknown(Exception):
    """A value too large or too deep to compare: it counts as changed."""


def fingerprint(obj: object, budget: list[int] | None = None, depth: int = 0) -> object:
    """A comparable summary of ``obj``'s contents: it differs when a run changed them.

    A micrograd ``Value`` is its data and grad (not its graph), a network its
    parameters'; containers and objects are their items and attributes, down
    to :data:`FINGERPRINT_DEPTH`; modules, functions and classes are their
    identity.

    Raises
    ------
    _Unknown
        If the value holds more than :data:`FINGERPRINT_BUDGET` objects or is nested deeper.
    """
    from micrograd.engine import Value
    from micrograd.nn import Module

    budget = budget if budget is not None else [FINGERPRINT_BUDGET]
    budget[0] -= 1
    if budget[0] < 0 or depth > FINGERPRINT_DEPTH:
        raise _Unknown
    if obj is None or isinstance(obj, (bool, int, float, complex, str, bytes)):
        return obj
    if isinstance(obj, Value):
        return ("Value", obj.data, obj.grad)
    if isinstance(obj, Module):
        return ("Module", tuple((p.data, p.grad) for p in obj.parameters()))
    if isinstance(obj, _OPAQUE):
        return ("id", id(obj))
    inner = depth + 1
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, tuple(fingerprint(x, budget, inner) for x in obj))
    if isinstance(obj, dict):
        return ("dict", tuple(fingerprint(item, budget, inner) for item in obj.items()))
    if isinstance(obj, (set, frozenset)):
        return ("set", frozenset(fingerprint(x, budget, inner) for x in obj))
    names = list(getattr(obj, "__dict__", {}))
    names += [n for k in type(obj).__mro__ for n in getattr(k, "__slots__", ()) if n not in names]
    fields = tuple((n, fingerprint(getattr(obj, n, None), budget, inner)) for n in names)
    return (type(obj).__qualname__, fields)


def behind() -> dict[str, Any]:
    """:data:`BEHIND` as a hidden cell starts in: the shown cells' names as they are now,
    over the hidden cells' own (a name the shown cells no longer bind is gone here too)."""
    for name in _lent - NAMESPACE.keys():
        BEHIND.pop(name, None)
    BEHIND.update(NAMESPACE)
    _lent.clear()
    _lent.update(NAMESPACE)
    return BEHIND


def _summary(namespace: dict[str, Any], name: str) -> object:
    """What :func:`run_cell` compares for a watched name (``_Unknown()``: never equal)."""
    if name not in namespace:
        return ("unbound",)
    value = namespace[name]
    try:
        return (id(value), fingerprint(value))
    except Exception:  # _Unknown, or a property that raised: compare as changed
        return _Unknown()


def _traceback(error: BaseException, filename: str) -> str:
    """The traceback from the cell's own frame on (the runner's frames left out)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(error), error, tb))


def run_cell(
    source: str, filename: str, out: Output, watch: str = "[]", apart: bool = False
) -> str:
    """Run one cell; return ``{"ok", "error", "changed"}`` as JSON.

    A shown cell (and the scratch cell) runs in :data:`NAMESPACE`; with
    ``apart``, a cell the build hides runs in :data:`BEHIND` (:func:`behind`).
    ``watch`` is a JSON list of names; ``changed`` lists those the cell
    rebound, deleted or bound anew, or whose contents it changed, in the
    namespace it ran in.

    ``out`` receives the cell's outputs as they happen:
    ``out.stream("stdout" or "stderr", text)``, ``out.display(bundle as JSON)``
    and ``out.addon(name, fields as JSON)`` (:func:`post_message`).
    """
    global _out
    namespace = behind() if apart else NAMESPACE
    watched = {name: _summary(namespace, name) for name in json.loads(watch)}
    _out = out
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    try:
        tree = ast.parse(source, filename)
        last = None
        final = tree.body[-1] if tree.body else None
        if isinstance(final, ast.Expr) and not ends_with_semicolon(source):
            tree.body.pop()
            last = ast.Expression(final.value)
        with ExitStack() as contexts:
            for make in CELL_CONTEXTS:
                contexts.enter_context(make())
            exec(compile(tree, filename, "exec"), namespace)
            if last is not None:
                value = eval(compile(last, filename, "eval"), namespace)
                if value is not None:
                    namespace["_"] = value
                    display(value)
        ok, error_text = True, None
    except BaseException as error:  # a cell's SystemExit or KeyboardInterrupt ends the cell only
        ok, error_text = False, _traceback(error, filename)
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        _out = None
    changed = [name for name, before in watched.items() if _summary(namespace, name) != before]
    return json.dumps({"ok": ok, "error": error_text, "changed": changed})


def _graphviz_bundle(graph: Any) -> dict[str, str]:
    return {MIME_TYPES["graphviz"]: graph.source}


def _figure_bundle(figure: Any) -> dict[str, str]:
    return {MIME_TYPES["chart"]: json.dumps(figure.to_json())}


def _stepper_bundle(stepper: Any) -> dict[str, str]:
    return {MIME_TYPES["stepper"]: json.dumps(stepper.to_json())}


def start(mime_types: str, glue_formats: str) -> None:
    """Make this interpreter the page's kernel: its streams, modules, formatters, glue, add-ons.

    ``mime_types`` is the book's mime_types.json; ``glue_formats`` maps each key
    the page's prose pastes to the format specs it pastes it with (JSON).
    """
    MIME_TYPES.update(json.loads(mime_types))
    GLUE_FORMATS.update(json.loads(glue_formats))
    sys.stdout = _CellStream("stdout")
    sys.stderr = _CellStream("stderr")
    _install_ipython_display()
    # Every graphviz graph class (Graph, Digraph, Source) derives from JupyterIntegration.
    for_type_by_name("graphviz.jupyter_integration", "JupyterIntegration", _graphviz_bundle)
    for_type_by_name("micrograd.viz.chart", "Figure", _figure_bundle)
    for_type_by_name("micrograd.viz.stepper", "Stepper", _stepper_bundle)
    for name in addons():
        addon = importlib.import_module(name)
        if hasattr(addon, "start"):
            addon.start()


def addons() -> tuple[str, ...]:
    """The kernel's add-ons, imported once it has started (:func:`start`), by module name.

    Each adds to the kernel (a :data:`CELL_CONTEXTS` factory, a function the page's
    add-on asks for, a name the hidden cells start with): the runtime of each feature
    the registry (``book_runtime.features``) says is one.  One
    that changes what the cells start with does it in a ``start()`` of its own, which
    :func:`start` calls: the build imports such a module too, where importing it must
    change nothing.  Named as strings: a feature's runtime is ``book_runtime.features``
    only once installed (docs/_runtime/pyproject.toml maps its folder), which a type
    checker cannot follow.
    """
    features = importlib.import_module("book_runtime.features")
    found = [feature.runtime for feature in features.registry() if feature.kernel_addon]
    return tuple(found)


def starting_names() -> str:
    """The names a hidden cell starts with, beyond Python's own (as JSON)."""
    return json.dumps(sorted(n for n in {**BEHIND, **NAMESPACE} if not n.startswith("__")))
