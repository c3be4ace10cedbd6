"""What kind an output is: the one rule the build's manifest and the scripts both read.

A cell's output (an output of its executed notebook: ``data`` by MIME type,
``metadata``) is a drawing, a figure, a stepper, Markdown or a plain value.
The build's kernel records a drawing's, a figure's and a stepper's source in
the output's metadata under the book's MIME types (mime_types.json, by what
they are: ``graphviz``, ``chart``, ``stepper``).  Markdown is an output whose
Markdown is what a page shows: one with HTML or SVG beside it shows those.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The kinds recorded under a MIME type of the book, by that type's name in mime_types.json.
RECORDED = {"graphviz": "drawing", "chart": "figure", "stepper": "stepper"}


def output_kind(output: Mapping[str, Any], mime_types: Mapping[str, str]) -> str:
    """What ``output`` is: "drawing", "figure", "stepper", "markdown" or "value".

    ``mime_types`` are the book's (mime_types.json).
    """
    data = output.get("data", {})
    recorded = set(output.get("metadata", {})) | set(data)
    for name, kind in RECORDED.items():
        if mime_types[name] in recorded:
            return kind
    if "text/markdown" in data and not {"text/html", "image/svg+xml"} & set(data):
        return "markdown"
    return "value"
