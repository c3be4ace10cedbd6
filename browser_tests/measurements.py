"""What the browser tests measure, kept across the processes that run them.

The browser session's tests run in several processes (pytest-xdist's
workers, then the timed tests alone): each adds what it measured to the same
file, under a lock, instead of writing over the others'.  ``nox -s browser``
removes the files before a whole run.
"""

from __future__ import annotations

import fcntl
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def _locked_json(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON object in ``path`` (empty if there is none), written back after, under a lock."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        yield data
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def merge_into(path: Path, measured: dict[str, Any]) -> None:
    """Merge ``measured`` into the JSON object in ``path``, one level of keys deep.

    A run of one file updates its own entries and keeps the others'.
    """
    with _locked_json(path) as merged:
        for key, value in measured.items():
            if isinstance(value, dict) and isinstance(merged.get(key), dict):
                merged[key].update(value)
            else:
                merged[key] = value


def add_counts(path: Path, counts: dict[str, int]) -> None:
    """Add ``counts`` to the counts in ``path`` (a JSON object of numbers)."""
    with _locked_json(path) as total:
        for key, count in counts.items():
            total[key] = total.get(key, 0) + count
