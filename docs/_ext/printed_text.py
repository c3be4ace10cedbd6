"""Sphinx extension: a cell's printed text is shown as the cell printed it.

The kernel sends what a cell prints in pieces, split wherever its output
buffer happened to be flushed: ``print(a, b)`` may arrive as ``"a"`` and
``" b\\n"``, or whole.  myst-nb's ``nb_merge_streams`` joins the pieces of
each stream for the page, but (myst-nb 1.4, ``coalesce_streams``) it strips
each *piece* and ends it with a newline, so a split in the middle of a line
shows as a line break that the code never printed, different from one build
to the next; and it writes the joined text into the notebook's first stream
output in place, leaving the later pieces in the list as well.

This extension gives myst-nb's renderer a version that first joins the
pieces of each stream exactly as they were sent, in copies, and only then
lets myst-nb's own function tidy the whole text (trailing whitespace, ``\\r``
and ``\\b``, stdout before stderr).  The page then shows the same text
however the kernel split it, and the notebook keeps the kernel's outputs.
"""

from __future__ import annotations

import copy
from typing import Any

from sphinx.errors import ExtensionError


def join_stream_pieces(outputs: list[Any]) -> list[Any]:
    """``outputs`` with the pieces of each stream joined into its first, in copies.

    Like myst-nb, every piece of one stream (``stdout``, ``stderr``) goes to
    that stream's first output, which keeps its place among the other
    outputs; nothing in ``outputs`` is changed.
    """
    joined: list[Any] = []
    streams: dict[str, Any] = {}
    for output in outputs:
        if output["output_type"] == "stream":
            text = output["text"] if isinstance(output["text"], str) else "".join(output["text"])
            if output["name"] in streams:
                streams[output["name"]]["text"] += text
                continue
            output = copy.deepcopy(output)
            output["text"] = text
            streams[output["name"]] = output
        joined.append(output)
    return joined


def setup(app: Any) -> dict[str, Any]:
    from myst_nb.core import render

    tidy = getattr(render, "coalesce_streams", None)
    if tidy is None:
        raise ExtensionError(
            "printed_text: myst_nb.core.render.coalesce_streams is gone; "
            "check how this myst-nb version merges streams"
        )
    if not getattr(tidy, "joins_pieces_first", False):

        def coalesce_streams(outputs: list[Any]) -> list[Any]:
            return tidy(join_stream_pieces(outputs))

        coalesce_streams.joins_pieces_first = True  # type: ignore[attr-defined]
        render.coalesce_streams = coalesce_streams
    return {"parallel_read_safe": True, "parallel_write_safe": True}
