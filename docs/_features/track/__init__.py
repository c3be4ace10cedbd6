"""Track: "Build your own micrograd", the reader's own engine, step by step, with a Check.

A page's exercise cells (code cells tagged ``exercise-<id>``) start from each
step's starter; :mod:`.directive` loads the starters into the page, writes each
step's example, and puts the steps' titles, hints and solutions into the page
(``#micrograd-track``), so that no hint needs Python.  The page's add-on
(``track.js``, styled by ``track.css``) shows each step's panel and the page's
progress, and its Check asks :mod:`.runtime`, a kernel add-on in the reader's
browser, to run the book's hidden checks (:mod:`book_runtime.features.track.checks`) on the
reader's code.
"""

from .. import Feature

#: What the core needs from this feature (the registry, book_runtime.features).
FEATURE = Feature("track", kernel_addon=True, with_its_page=True, sphinx=("directive",))
