"""Glue: the numbers in the prose follow the reader's run, with the build's in words.

A page's hidden cells glue numbers (``myst_nb.glue``) that the prose pastes
with ``{glue:text}``; :mod:`.directive` makes each pasted number name its key
and its format.  :mod:`.runtime` writes a glued value's text as myst-nb does
(for the download, and in the browser), and is the in-browser kernel's
``myst_nb.glue``, an add-on, which sends the page the value in each format
the page shows it in.  The page's add-on (``glue.js``, styled by
``glue.css``) shows the reader's number, marked, with the build's in words
for a screen reader and on hover.
"""

from .. import Feature

#: What the core needs from this feature (the registry, book_runtime.features).
FEATURE = Feature("glue", kernel_addon=True, sphinx=("directive",))
