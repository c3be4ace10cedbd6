"""A notebook's text: nbformat keeps a source or an output's text as one string or as its lines."""

from __future__ import annotations

from typing import Any


def joined(data: Any) -> str:
    """The text of a notebook field, whether it was kept as a string or as a list of lines."""
    return "".join(data) if isinstance(data, list) else str(data)
