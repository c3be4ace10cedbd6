"""The book's patches of myst-nb and jupyter-cache: every one of them, and what each relies on.

myst-nb runs the pages and renders their outputs, jupyter-cache keeps them
between builds; three of their functions do not do what the book needs, and
are wrapped here, nowhere else:

* myst-nb's ``coalesce_streams`` (the page's printed text): it joins a
  stream's pieces only after tidying each one (:mod:`.streams` says why);
  the wrapper joins them first (:func:`join_pieces_first`);
* myst-nb's ``single_nb_execution`` (its ``cache`` and ``direct`` modes):
  it passes nbclient ``record_timing=False``; the wrapper asks for the times
  (:func:`record_cell_timing`);
* jupyter-cache's ``create_hashed_notebook``: it keys a notebook on its
  cells' metadata, the recorded times included; the wrapper leaves them out
  of the key.

One upstream function is not wrapped but stood in for: myst-parser's
``visit_container_html``, which writes a container's ``<div>``.  The book's
visitor (``cell_manifest._visit_container``) writes a code cell's ``<div>``
as it does, with the cell's position added, and leaves every other container
to it (:data:`RELIED_ON`).

Each wrapper is written against the upstream function as :data:`PATCHES`
records it, by its source's hash, and so is the stand-in against
:data:`RELIED_ON`: :func:`upstream_changes` names every one that is gone or
whose source differs (tests/site/test_upstream_patches.py fails then, before any
build), and pyproject.toml bounds the three packages' versions.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import inspect
from dataclasses import dataclass
from typing import Any

from .streams import join_stream_pieces


@dataclass(frozen=True)
class Patch:
    """One upstream function the book wraps: where it is, and the source it was written for."""

    module: str
    #: The function's name in ``module``: ``"coalesce_streams"``, ``"Class.method"``.
    name: str
    #: The first 16 hex digits of the SHA-256 of its source (``inspect.getsource``).
    source_sha256: str
    #: What the wrapper relies on, for whoever finds the source changed.
    relies_on: str


PATCHES = (
    Patch(
        "myst_nb.core.render",
        "coalesce_streams",
        "d556bc58bd611257",
        "coalesce_streams(outputs) returns the outputs with each stream's pieces merged",
    ),
    *(
        Patch(
            f"myst_nb.core.execute.{mode}",  # the same function in both of myst-nb's modes
            "single_nb_execution",
            "32fd759976a34074",
            "single_nb_execution takes record_timing and passes it on to nbclient",
        )
        for mode in ("cache", "direct")
    ),
    Patch(
        "jupyter_cache.cache.main",
        "JupyterCacheBase.create_hashed_notebook",
        "cce0ad07adbb8af1",
        "create_hashed_notebook(self, nb, ...) returns (notebook, hash key) and keys the "
        "notebook on its cells' metadata",
    ),
)
#: The upstream functions the book stands in for without wrapping them, as it found them.
RELIED_ON = (
    Patch(
        "myst_parser.parsers.docutils_",
        "visit_container_html",
        "31de87ab94ac3587",
        "visit_container_html(self, node) opens a container's <div> with the classes "
        "'docutils container' (a code cell's) and no other attribute, as "
        "cell_manifest._visit_container opens a code cell's",
    ),
    Patch(
        "myst_parser.parsers.docutils_",
        "depart_container_html",
        "82a73fd44e31cb0a",
        "depart_container_html(self, node) closes the <div> visit_container_html opened",
    ),
)
#: The mark a wrapper of this module carries: ``True``, and the upstream function.
WRAPPED = "wrapped_by_the_book"


def _owner_and_name(patch: Patch) -> tuple[Any, str]:
    """The object holding the patched function (a module or a class), and its name there."""
    owner: Any = importlib.import_module(patch.module)
    *path, name = patch.name.split(".")
    for part in path:
        owner = getattr(owner, part)
    return owner, name


def upstream(patch: Patch) -> Any:
    """The upstream function of ``patch`` (the one the wrapper wraps, if it is applied), or None."""
    owner, name = _owner_and_name(patch)
    found = getattr(owner, name, None)
    return getattr(found, "__wrapped__", found) if getattr(found, WRAPPED, False) else found


def upstream_changes() -> list[str]:
    """What changed upstream since the wrappers were written: one message per patch, or none."""
    messages = []
    for patch in (*PATCHES, *RELIED_ON):
        where = f"{patch.module}.{patch.name}"
        function = upstream(patch)
        if function is None:
            messages.append(f"{where} is gone: the book relies on it ({patch.relies_on})")
            continue
        digest = hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]
        if digest != patch.source_sha256:
            messages.append(
                f"{where} changed (source sha256 {digest}, the patch was written for "
                f"{patch.source_sha256}): check that {patch.relies_on}, then record the new "
                f"hash in docs/_ext/executed_notebooks/patches.py"
            )
    return messages


def _replace(patch: Patch, wrap: Any) -> None:
    """Put ``wrap(upstream)`` in place of the upstream function of ``patch``, once.

    Raises
    ------
    ExtensionError
        If the upstream function is gone.
    """
    from sphinx.errors import ExtensionError

    owner, name = _owner_and_name(patch)
    found = getattr(owner, name, None)
    if found is None:
        raise ExtensionError(
            f"executed_notebooks: {patch.module}.{patch.name} is gone; the book's patch "
            f"relies on it ({patch.relies_on}): see docs/_ext/executed_notebooks/patches.py"
        )
    if getattr(found, WRAPPED, False):
        return
    wrapper = wrap(found)
    setattr(wrapper, WRAPPED, True)
    wrapper.__wrapped__ = found
    setattr(owner, name, wrapper)


def apply() -> None:
    """Apply every patch of :data:`PATCHES` (each once, however often this is called)."""
    wrappers = (_joined_first, _timed, _timed, _keyed_without_times)
    for patch, wrap in zip(PATCHES, wrappers, strict=True):
        _replace(patch, wrap)


def _joined_first(tidy: Any) -> Any:
    """myst-nb's ``coalesce_streams``, given the pieces joined exactly as they were sent."""

    def coalesce_streams(outputs: list[Any]) -> list[Any]:
        return tidy(join_stream_pieces(outputs))

    return coalesce_streams


def _timed(run: Any) -> Any:
    """myst-nb's ``single_nb_execution``, asking nbclient to record when each cell ran.

    The cache keys a notebook on its code cells, their metadata included, so
    the times are left out of the key (:func:`_keyed_without_times`):
    otherwise no executed notebook would match its source again, and every
    build would run every page anew, each with its own measured numbers.
    """

    def single_nb_execution(*args: Any, **kwargs: Any) -> Any:
        return run(*args, **{**kwargs, "record_timing": True})

    return single_nb_execution


def _keyed_without_times(key: Any) -> Any:
    """jupyter-cache's ``create_hashed_notebook``, its key made without the cells' times."""

    def create_hashed_notebook(self: Any, nb: Any, *args: Any, **kwargs: Any) -> Any:
        untimed = copy.deepcopy(nb)
        for cell in untimed.cells:
            cell.get("metadata", {}).pop("execution", None)
        _, hashkey = key(self, untimed, *args, **kwargs)
        notebook, _ = key(self, nb, *args, **kwargs)
        return notebook, hashkey

    return create_hashed_notebook
