"""The Python side of the in-browser runner: runs a page's cells inside Pyodide.

worker.js installs this module and calls :func:`run_cell` for each cell, in
one namespace per page, as a notebook kernel would: the cell's last
expression is displayed unless the cell ends with ``;``, printed text goes to
the cell as it is written, and an exception ends the cell with its traceback
(the runner's own frames left out).

Values are displayed by their rich reprs (``_repr_mimebundle_``,
``_repr_html_``, ``_repr_svg_``, ``_repr_markdown_``) and ``repr``.  A
graphviz graph (``draw_dot``, ``draw_mlp``) is shown by its DOT source, which
the worker lays out with viz.js: graphviz's own reprs run the ``dot`` program,
which a browser does not have.  There is no IPython in the browser either, so
``IPython.display`` here offers what pages use of it: ``display``, ``HTML``,
``Markdown`` and ``SVG``.

An add-on sends the page a message of its own kind while a cell runs with
:func:`post_message` (the page hands it to the handler registered for that
type: api.js's ``registerMessage``).
"""

from __future__ import annotations

import ast
import io
import json
import linecache
import sys
import tokenize
import traceback
import types
from collections.abc import Callable
from typing import Any

#: The namespace every cell of the page runs in.
NAMESPACE: dict[str, Any] = {"__name__": "__main__", "__builtins__": __builtins__}

#: Rich reprs, in the order a notebook prefers them.
REPR_METHODS = (
    ("text/html", "_repr_html_"),
    ("image/svg+xml", "_repr_svg_"),
    ("text/markdown", "_repr_markdown_"),
    ("text/latex", "_repr_latex_"),
)

_emit: Callable[[str, str, str], None] | None = None


class _CellStream(io.TextIOBase):
    """``sys.stdout`` / ``sys.stderr``: text goes to the running cell as it is written."""

    def __init__(self, name: str) -> None:
        self.name = name

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text and _emit is not None:
            _emit("stream", self.name, text)
        return len(text)


def _is_graphviz(obj: object) -> bool:
    return type(obj).__module__.split(".")[0] == "graphviz" and isinstance(
        getattr(obj, "source", None), str
    )


def mimebundle(obj: object) -> dict[str, str]:
    """What a notebook would show for ``obj``: ``{mime type: data}``."""
    if _is_graphviz(obj):
        return {"text/vnd.graphviz": obj.source, "text/plain": repr(obj)}  # type: ignore[attr-defined]
    bundle: dict[str, str] = {}
    if not isinstance(obj, type):
        method = getattr(obj, "_repr_mimebundle_", None)
        if callable(method):
            data = method(include=None, exclude=None)
            if isinstance(data, tuple):
                data = data[0]
            if isinstance(data, dict):
                bundle.update({k: v for k, v in data.items() if isinstance(v, str)})
        for mime, name in REPR_METHODS:
            method = getattr(obj, name, None)
            if mime not in bundle and callable(method):
                data = method()
                if isinstance(data, tuple):
                    data = data[0]
                if isinstance(data, str):
                    bundle[mime] = data
    bundle.setdefault("text/plain", repr(obj))
    return bundle


def display(*objs: object) -> None:
    """Show each object in the running cell (``IPython.display.display``)."""
    for obj in objs:
        if _emit is not None:
            _emit("display", "", json.dumps(mimebundle(obj)))


def post_message(message_type: str, **fields: Any) -> None:
    """Send the page ``{type: message_type, id, **fields}`` (id: the running cell's run).

    Raises
    ------
    RuntimeError
        If no cell is running (the message would belong to no run).
    """
    if _emit is None:
        raise RuntimeError(f"post_message({message_type!r}): no cell is running")
    _emit("message", message_type, json.dumps(fields))


def _install_ipython_display() -> None:
    """``IPython.display`` with display, HTML, Markdown and SVG (IPython is not in Pyodide)."""

    class _Data:
        def __init__(self, data: str | None = None) -> None:
            self.data = data

        def __repr__(self) -> str:
            return f"<IPython.core.display.{type(self).__name__} object>"

    class HTML(_Data):
        def _repr_html_(self) -> str | None:
            return self.data

    class Markdown(_Data):
        def _repr_markdown_(self) -> str | None:
            return self.data

    class SVG(_Data):
        def _repr_svg_(self) -> str | None:
            return self.data

    package = types.ModuleType("IPython", "What the in-browser runner offers of IPython.")
    module = types.ModuleType("IPython.display", "IPython.display's display, HTML, Markdown, SVG.")
    for name, value in {"display": display, "HTML": HTML, "Markdown": Markdown, "SVG": SVG}.items():
        setattr(module, name, value)
    package.display = module  # type: ignore[attr-defined]
    sys.modules.setdefault("IPython", package)
    sys.modules.setdefault("IPython.display", module)


def _ends_with_semicolon(source: str) -> bool:
    """True when the cell's last token is ``;`` (a notebook then shows no value)."""
    skip = {tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT, tokenize.ENDMARKER}
    skip |= {tokenize.INDENT, tokenize.DEDENT}
    last = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type not in skip:
                last = token
    except (tokenize.TokenError, SyntaxError):
        return False
    return last is not None and last.type == tokenize.OP and last.string == ";"


def _traceback(error: BaseException, filename: str) -> str:
    """The traceback from the cell's own frame on (the runner's frames left out)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(error), error, tb))


def run_cell(source: str, filename: str, emit: Callable[[str, str, str], None]) -> str:
    """Run one cell in the page's namespace; return ``{"ok": ..., "error": ...}`` as JSON.

    ``emit(kind, key, data)`` receives the cell's outputs as they happen:
    ``("stream", "stdout" or "stderr", text)``, ``("display", "", bundle as JSON)``
    and ``("message", type, fields as JSON)`` (:func:`post_message`).
    """
    global _emit
    _emit = emit
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    try:
        tree = ast.parse(source, filename)
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr) and not _ends_with_semicolon(source):
            last = ast.Expression(tree.body.pop().value)
        exec(compile(tree, filename, "exec"), NAMESPACE)
        if last is not None:
            value = eval(compile(last, filename, "eval"), NAMESPACE)
            if value is not None:
                NAMESPACE["_"] = value
                display(value)
    except BaseException as error:  # a cell's SystemExit or KeyboardInterrupt ends the cell only
        return json.dumps({"ok": False, "error": _traceback(error, filename)})
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        _emit = None
    return json.dumps({"ok": True, "error": None})


sys.stdout = _CellStream("stdout")
sys.stderr = _CellStream("stderr")
_install_ipython_display()
