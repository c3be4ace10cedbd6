"""Claims: a sentence of the prose whose truth depends on a value, true of the reader's run.

A page's hidden cell states a claim as code, ``claim(key, holds, about)``
(:mod:`.runtime`, which the build's kernel gives the pages through
:mod:`.kernel`, a start-up file, and the browser's kernel as an add-on);
the prose says it with the ``claim`` role (:mod:`.directive`), which holds the
wording true when the claim holds and the one for when it does not, and fails
the build at a sentence whose claim does not hold for the build's run.  The
page's add-on (``claims.js``, styled by ``claims.css``) shows the wording that
is true of the reader's run, or marks the sentence, in words, with what the
claim is about.
"""

from .. import Feature

#: What the core needs from this feature (the registry, book_runtime.features).
FEATURE = Feature("claims", kernel_addon=True, sphinx=("directive",))
