"""What the browser tests measure, kept across the processes that run them."""

from __future__ import annotations

import fcntl
import json
from pathlib import Path
from typing import Any


def merge_into(path: Path, measured: dict[str, Any]) -> None:
    """Merge ``measured`` into the JSON object in ``path``, one level of keys deep.

    The browser session's tests run in several processes (pytest-xdist's
    workers, then the timed tests alone): each adds what it measured to the
    same file, under a lock, instead of writing over the others'.  ``nox -s
    browser`` removes the files before a whole run; a run of one file updates
    its own entries.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        merged = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        for key, value in measured.items():
            if isinstance(value, dict) and isinstance(merged.get(key), dict):
                merged[key].update(value)
            else:
                merged[key] = value
        path.write_text(json.dumps(merged, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def add_counts(path: Path, counts: dict[str, int]) -> None:
    """Add ``counts`` to the counts in ``path`` (a JSON object of numbers), under the same lock."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        total = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        for key, count in counts.items():
            total[key] = total.get(key, 0) + count
        path.write_text(json.dumps(dict(sorted(total.items())), indent=1) + "\n", encoding="utf-8")
