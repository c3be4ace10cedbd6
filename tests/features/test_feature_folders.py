"""What every feature folder (docs/_features/<name>/) keeps to, wherever it is installed."""

from __future__ import annotations

import re
from pathlib import Path

FEATURES = Path(__file__).resolve().parents[2] / "docs" / "_features"


def test_no_feature_finds_the_books_files_from_where_its_own_file_is() -> None:
    """Read the Docs installs the features into site-packages, not editable: a path built
    from ``__file__`` would point there, not into the pages' folder (Sphinx's srcdir)."""
    found = [
        f"{path.relative_to(FEATURES)}:{number}: {line.strip()}"
        for path in sorted(FEATURES.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\b__file__\b", line)
    ]
    assert not found, "\n".join(found)
