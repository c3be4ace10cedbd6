"""A glued value's text in the prose: its ``text/plain`` with a format spec, as myst-nb writes it.

At build time myst-nb's ``{glue:text}`key:spec``` role pastes a value a
cell glued as ``format(value, spec)``, the value read back from its
``text/plain`` (``myst_nb.core.variables.format_plain_text``).  The same
text must appear where that value is pasted elsewhere: in the reader's
browser after their run (:func:`glue`, the in-browser kernel's
``myst_nb.glue``), and in the downloadable notebook (the build writes it into
the Markdown, docs/_ext/executed_notebooks/download.py).  Neither place has
myst-nb, so both call :func:`format_glued`, which takes myst-nb's steps; a
browser test checks it against myst-nb's own function.  Standard library only.

In the reader's browser this module is an add-on of the kernel, whose start
calls :func:`start`.
"""

from __future__ import annotations

import sys
import types
from ast import literal_eval
from typing import Any

from book_runtime import kernel


def format_glued(text: str, spec: str) -> str:
    """``text`` (a value's ``text/plain``) formatted with ``spec``, as myst-nb pastes it.

    The text is read back as a Python literal where it is one (a number, a
    quoted string), then turned into an ``int`` or a ``float`` as the spec's
    type asks, and formatted with :func:`format`.

    Raises
    ------
    ValueError, TypeError
        If the value cannot be formatted so (``"abc"`` with ``.4f``), as in myst-nb.
    """
    try:
        value: Any = literal_eval(text)  # removes the quotes around a string
    except (SyntaxError, ValueError):
        value = text
    if spec == "":
        return str(value)
    kind = spec[-1]
    if kind == "s":
        value = str(value)
    elif kind in "bcdoxX":
        value = int(value)
    elif kind in "eEfFgGn%":
        value = float(value)
    return format(value, spec)


def glue_texts(name: str, variable: object) -> dict[str, str]:
    """The value's text in each format the page shows ``name`` in (a misfit left out)."""
    plain = kernel.mimebundle(variable)["text/plain"]
    texts = {}
    for spec in kernel.GLUE_FORMATS.get(name, []):
        try:
            texts[spec] = format_glued(plain, spec)
        except (TypeError, ValueError):  # "abc" with ".4f": the page keeps the build's number
            continue
    return texts


def glue(name: str, variable: object, display: bool = True) -> None:
    """``myst_nb.glue`` in the browser: send the page the value a hidden cell glues into the text.

    The page gets the add-on message ``glue`` with ``key`` and ``texts``: the
    value formatted in each of the formats the page shows it in, by
    :func:`format_glued`, as myst-nb formats it at build time.  With
    ``display``, the value is also shown, as myst-nb shows it.
    """
    kernel.post_message("glue", key=name, texts=glue_texts(name, variable))
    if display:
        kernel.display(variable)


def start() -> None:
    """In the reader's browser: ``myst_nb`` with ``glue`` (myst-nb is not in Pyodide), which
    the pages' setup imports, and ``glue`` among the names the hidden cells start with.

    The in-browser kernel calls this when it starts, not the import: the build
    imports this module too (the download's numbers), where myst-nb is itself.
    """
    package = types.ModuleType("myst_nb", "What the in-browser runner offers of myst-nb: glue.")
    package.glue = glue  # type: ignore[attr-defined]
    sys.modules.setdefault("myst_nb", package)
    kernel.BEHIND["glue"] = glue
