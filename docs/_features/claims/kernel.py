"""IPython start-up file for the docs build's kernel: ``claim``, for the pages' hidden cells.

A page's hidden cell states a claim next to the numbers it glues:
``claim("moons_loss_rises", log.rows[1].loss > log.rows[0].loss, about=...)``.
The function is the one the reader's browser runs
(:func:`book_runtime.features.claims.runtime.claim`); here it glues the claim,
and the prose's ``claim`` role (:mod:`.directive`) fails the build at a
sentence whose claim does not hold.
"""


def _install_claim() -> None:
    from book_runtime.features.claims.runtime import claim
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return
    shell.user_ns["claim"] = claim


_install_claim()
del _install_claim
