"""A cell's printed text, joined from the pieces the kernel sent it in.

The kernel sends what a cell prints in pieces, split wherever its output
buffer happened to be flushed: ``print(a, b)`` may arrive as ``"a"`` and
``" b\\n"``, or whole.  Both the page and the download must show the same
text however it was split; :func:`join_stream_pieces` is the one way the
book joins them.

For the page, myst-nb's ``nb_merge_streams`` joins the pieces of each stream,
but (myst-nb 1.4, ``coalesce_streams``) it strips each *piece* and ends it
with a newline, so a split in the middle of a line shows as a line break that
the code never printed, different from one build to the next; and it writes
the joined text into the notebook's first stream output in place, leaving the
later pieces in the list as well.  A patch (:mod:`.patches`) gives myst-nb's
renderer a version that first joins the pieces exactly as they were sent, in
copies, and only then lets myst-nb's own function tidy the whole text
(trailing whitespace, ``\\r`` and ``\\b``, stdout before stderr).
"""

from __future__ import annotations

import copy
from typing import Any

from .text import joined


def join_stream_pieces(outputs: list[Any], *, adjacent_only: bool = False) -> list[Any]:
    """``outputs`` with the pieces of each stream joined, in copies.

    By default, as myst-nb does for the page, every piece of one stream
    (``stdout``, ``stderr``) goes to that stream's first output, which keeps
    its place among the other outputs.  With ``adjacent_only``, only pieces
    that follow each other are joined, so the order of printed text, other
    streams and displayed values is kept (the download).  Nothing in
    ``outputs`` is changed.
    """
    result: list[Any] = []
    streams: dict[str, Any] = {}
    for output in outputs:
        if output["output_type"] == "stream":
            first = streams.get(output["name"])
            if first is not None and (not adjacent_only or result[-1] is first):
                first["text"] += joined(output["text"])
                continue
            output = copy.deepcopy(output)
            output["text"] = joined(output["text"])
            streams[output["name"]] = output
        result.append(output)
    return result
