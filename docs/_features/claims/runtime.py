"""A claim: a sentence of the prose whose truth depends on a value, stated as code.

A page's hidden cell states each claim next to the numbers it glues::

    claim("moons_loss_rises", log.rows[1].loss > log.rows[0].loss,
          about=f"the loss went from {log.rows[0].loss:.4f} to {log.rows[1].loss:.4f}")

and the prose says it with the ``claim`` role (:mod:`.directive`), which
holds the wording that is true when the claim holds, and the one for when it
does not, if the sentence has one.  Whoever runs the page decides what a
claim becomes: at build time it is glued (:data:`GLUE_PREFIX` and the key)
and the build fails at the sentence of a claim that does not hold; in the
reader's browser the kernel sends it to the page (this module is an add-on of
the in-browser kernel, whose start calls :func:`start`), which shows the
wording that is true of the reader's run, or marks the sentence with
``about``.  Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from book_runtime import kernel

#: What a claim is glued under at build time: the prefix, then the claim's key.
GLUE_PREFIX = "claim:"
#: A claim's key: what its role in the prose names.
KEY = re.compile(r"[A-Za-z_][\w-]*")


def glue_claim(key: str, record: dict[str, Any]) -> None:
    """At build time: glue the claim (myst-nb), for the ``claim`` role to check and show."""
    from myst_nb import glue

    glue(GLUE_PREFIX + key, record, display=False)


#: Where a claim goes once stated: ``send(key, {"holds": bool, "otherwise": bool,
#: "about": str, "anyInput": bool})``.
send: Callable[[str, dict[str, Any]], None] = glue_claim


def claim(
    key: str, holds: bool, about: str = "", otherwise: bool = True, any_input: bool = False
) -> None:
    """State that the sentence of ``key`` is true of this run when ``holds`` is.

    Parameters
    ----------
    key : str
        The name the prose's ``claim`` role uses.
    holds : bool
        Whether the claim is true of the values this run computed.
    about : str, optional
        The values the claim is about, in words (``"o**2 = 0.5000"``): shown
        next to a sentence that is not true of a reader's run, and in the
        build's error for a claim that does not hold.
    otherwise : bool, optional
        Whether the sentence's other wording is true when ``holds`` is not:
        true unless a third case makes neither true (``rises || falls`` of a
        loss that stays where it was).  Where neither is, the page keeps the
        first wording, marked with ``about``, and a prediction of either is
        wrong.
    any_input : bool, optional
        Whether the sentence holds whatever values the page's inputs take (an
        identity of the page's formula, ``∂c/∂a = b``): a change of those values
        alone, such as a nudge, cannot make it out of date, so the page never
        marks it so (the cell manifest lists such claims:
        docs/_ext/cell_manifest.py).  A run of changed code still checks it.

    Raises
    ------
    TypeError
        If ``holds`` is not a bool (a number or a list would be true by
        accident) or ``about`` is not a str.
    ValueError
        If ``key`` is not a name.
    """
    if not isinstance(key, str) or not KEY.fullmatch(key):
        raise ValueError(f"a claim's key is a name such as 'loss_falls', got {key!r}")
    # Each argument's type, and what a value of it is in the page's code.
    for name, value, kind, what in (
        ("holds", holds, bool, " (a comparison)"),
        ("about", about, str, ""),
        ("otherwise", otherwise, bool, " (a comparison)"),
        ("any_input", any_input, bool, " (True for an identity)"),
    ):
        if not isinstance(value, kind):
            raise TypeError(
                f"claim {key!r}: {name} must be a {kind.__name__}{what}, got {type(value).__name__}"
            )
    send(key, {"holds": holds, "otherwise": otherwise, "about": about, "anyInput": any_input})


def _to_page(key: str, record: dict[str, Any]) -> None:
    kernel.post_message("claim", key=key, **record)


def start() -> None:
    """In the reader's browser: the hidden cells' ``claim`` sends each claim to the page.

    The in-browser kernel calls this when it starts, not the import: the build's
    kernel imports this module too, and glues its claims.
    """
    global send
    send = _to_page
    kernel.BEHIND["claim"] = claim
