"""A glued value's text in the prose: its ``text/plain`` with a format spec, as myst-nb writes it.

At build time myst-nb's ``{glue:text}`key:spec``` role pastes a value a
cell glued as ``format(value, spec)``, the value read back from its
``text/plain`` (``myst_nb.core.variables.format_plain_text``).  The same
text must appear where that value is pasted elsewhere: in the reader's
browser after their run (the in-browser kernel formats it, kernel.py's
``glue``), and in the downloadable notebook (the build writes it into the
Markdown, docs/_ext/executed_notebooks/download.py).  Neither place has
myst-nb, so both call :func:`format_glued`, which takes myst-nb's steps; a
browser test checks it against myst-nb's own function.  Standard library only.
"""

from __future__ import annotations

from ast import literal_eval
from typing import Any


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
