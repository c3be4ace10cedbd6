"""Reading a training log's CSV file back into rows, as the tests compare them."""

from __future__ import annotations

import csv
from pathlib import Path

from micrograd.training_log import COLUMNS, LogRow


def read_log(path: Path) -> list[LogRow]:
    """The rows of a CSV file that a :class:`~micrograd.training_log.TrainingLog` wrote.

    Raises
    ------
    ValueError
        If the header is not the log's columns.
    """
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None or tuple(header) != COLUMNS:
            raise ValueError(f"{path} is not a training log: its header is {header!r}")
        return [_row(*cells) for cells in reader]


def _row(step: str, loss: str, accuracy: str, learning_rate: str, predictions: str) -> LogRow:
    def number(cell: str) -> float | None:
        return None if cell == "" else float(cell)

    preds = None if predictions == "" else tuple(map(float, predictions.strip("[]").split()))
    return LogRow(int(step), float(loss), number(accuracy), number(learning_rate), preds)
