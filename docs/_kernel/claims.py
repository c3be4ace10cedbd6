"""IPython start-up file for the docs build's kernel: ``claim``, for the pages' hidden cells.

A page's hidden cell states a claim next to the numbers it glues:
``claim("moons_loss_rises", log.rows[1].loss > log.rows[0].loss, about=...)``.
The function is the one the reader's browser runs (docs/_static/runner/claims.py,
found through ``MICROGRAD_BOOK_RUNNER``, which docs/_ext/executed_notebooks
sets for the kernel); here it glues the claim, and the prose's ``claim`` role
(docs/_ext/claims.py) fails the build at a sentence whose claim does not hold.
"""


def _install_claim() -> None:
    import os
    import runpy

    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return
    claims = runpy.run_path(os.path.join(os.environ["MICROGRAD_BOOK_RUNNER"], "claims.py"))
    shell.user_ns["claim"] = claims["claim"]


_install_claim()
del _install_claim
