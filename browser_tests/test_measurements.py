"""The browser tests' measurements, merged from the processes that take them."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

from measurements import add_counts, merge_into


def test_a_merge_keeps_the_other_processes_entries_one_level_deep(tmp_path: Path) -> None:
    path = tmp_path / "timings.json"
    merge_into(path, {"pages": {"a.html": {"seconds": 1.0}}, "load": [1, 2]})
    merge_into(path, {"pages": {"b.html": {"seconds": 2.0}}, "load": [3]})
    assert json.loads(path.read_text()) == {
        "load": [3],
        "pages": {"a.html": {"seconds": 1.0}, "b.html": {"seconds": 2.0}},
    }


def _merge_one(path: Path, index: int) -> None:
    merge_into(path, {"pages": {f"page-{index}.html": {"seconds": float(index)}}})


def test_processes_merging_at_once_lose_no_entry(tmp_path: Path) -> None:
    path = tmp_path / "timings.json"
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_merge_one, args=(path, i)) for i in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
        assert worker.exitcode == 0
    assert sorted(json.loads(path.read_text())["pages"]) == sorted(
        f"page-{i}.html" for i in range(8)
    )


def test_counts_from_two_processes_add_up(tmp_path: Path) -> None:
    path = tmp_path / "findings.json"
    add_counts(path, {"minor region": 2, "serious color-contrast": 1})
    add_counts(path, {"minor region": 3})
    assert json.loads(path.read_text()) == {"minor region": 5, "serious color-contrast": 1}
