"""A record of a training run: step, loss, accuracy, learning rate, predictions.

:class:`TrainingLog` keeps one row per recorded step and prints as a
fixed-width table.  Given a ``path`` it also appends each row to a CSV file
as soon as it is recorded, so a run that is interrupted (Ctrl-C, a crash, a
killed process) keeps every row it had recorded; floats are written with
``repr``, which round-trips.  It uses the standard library only; to chart a
log, see :func:`micrograd.viz.plot.training_chart`.
"""

from __future__ import annotations

__all__ = ["COLUMNS", "LogRow", "TrainingLog"]

import csv
import numbers
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from micrograd.engine import Value

#: The CSV header, in order.
COLUMNS = ("step", "loss", "accuracy", "learning_rate", "predictions")


@dataclass(frozen=True)
class LogRow:
    """One recorded step."""

    step: int
    loss: float
    accuracy: float | None = None
    learning_rate: float | None = None
    predictions: tuple[float, ...] | None = None


def _csv_fields(row: LogRow) -> list[str]:
    """The row's CSV cells: ``repr`` of each float, empty for a missing value.

    Predictions are space-separated in brackets (``[0.5 -0.25]``), so that the
    cell holds no comma.
    """
    predictions = "" if row.predictions is None else " ".join(map(repr, row.predictions))
    return [
        str(row.step),
        repr(row.loss),
        "" if row.accuracy is None else repr(row.accuracy),
        "" if row.learning_rate is None else repr(row.learning_rate),
        "" if row.predictions is None else f"[{predictions}]",
    ]


def _number(name: str, x: object) -> float:
    if isinstance(x, Value):
        return x.data
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type(x).__name__} {x!r}")
    return float(x)


def _optional_number(name: str, x: object) -> float | None:
    if x is None:
        return None
    if isinstance(x, bool) or not isinstance(x, (numbers.Real, Value)):
        raise TypeError(f"{name} must be a number or None, got {type(x).__name__} {x!r}")
    return _number(name, x)


def _make_row(
    step: object, loss: object, accuracy: object, learning_rate: object, predictions: object
) -> LogRow:
    """A row of checked fields, or the TypeError or ValueError of the first bad one."""
    if isinstance(step, bool) or not isinstance(step, numbers.Integral):
        raise TypeError(f"step must be an int, got {type(step).__name__} {step!r}")
    if step < 0:
        raise ValueError(f"step must be >= 0, got {step}")
    loss_f = _number("loss", loss)
    acc = _optional_number("accuracy", accuracy)
    if acc is not None and not 0.0 <= acc <= 1.0:
        raise ValueError(f"accuracy must be a fraction between 0 and 1, got {acc!r}")
    lr = _optional_number("learning_rate", learning_rate)
    preds: tuple[float, ...] | None = None
    if predictions is not None:
        if isinstance(predictions, (str, bytes)) or not isinstance(predictions, Iterable):
            raise TypeError(
                f"predictions must be a list of numbers, got {type(predictions).__name__}"
            )
        preds = tuple(_number(f"predictions[{i}]", p) for i, p in enumerate(predictions))
    return LogRow(int(step), loss_f, acc, lr, preds)


class TrainingLog:
    """Rows of (step, loss, accuracy, learning rate, predictions), one per step.

    Parameters
    ----------
    path : str or path-like, optional
        A CSV file to write as the run goes: each :meth:`record` appends one
        row and flushes it, so an interrupted run keeps its earlier rows.
        The file is written afresh, header first, replacing any file there
        (its folder is created).
    loss_label : str, optional
        What the recorded loss is, as a chart's axis names it: ``"loss"``, or
        ``"loss (mean of the last 20 names)"`` for a running mean.

    Attributes
    ----------
    rows : list of LogRow
        The recorded rows, oldest first.
    path : pathlib.Path or None
        The CSV file written as the run goes, if any.
    loss_label : str
        What the recorded loss is.

    Raises
    ------
    TypeError
        If ``loss_label`` is not a string.
    ValueError
        If ``loss_label`` is empty.

    Examples
    --------
    >>> log = TrainingLog()
    >>> log.record(0, 0.9, accuracy=0.5, learning_rate=1.0)
    >>> log.record(1, 0.25, accuracy=0.75, learning_rate=0.991)
    >>> print(log.table())
    step      loss  accuracy  learning_rate
       0  0.900000    0.5000         1.0000
       1  0.250000    0.7500         0.9910
    >>> log.rows[-1].loss
    0.25
    """

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, loss_label: str = "loss"
    ) -> None:
        if not isinstance(loss_label, str):
            raise TypeError(f"loss_label must be a string, got {type(loss_label).__name__}")
        if not loss_label.strip():
            raise ValueError("loss_label must name the loss, got an empty string")
        self.loss_label = loss_label
        self.rows: list[LogRow] = []
        self.path: Path | None = None if path is None else Path(path)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("w", encoding="utf-8", newline="") as f:
                csv.writer(f, lineterminator="\n").writerow(COLUMNS)

    def record(
        self,
        step: int,
        loss: float | Value,
        accuracy: float | None = None,
        learning_rate: float | None = None,
        predictions: Sequence[float | Value] | None = None,
    ) -> None:
        """Add one row (and append it to the CSV file, if the log has one).

        Parameters
        ----------
        step : int
            The step number (>= 0).
        loss : float or Value
            The loss at this step (a ``Value``'s ``data`` is taken).
        accuracy : float, optional
            The fraction classified correctly, between 0 and 1.
        learning_rate : float, optional
            The learning rate used at this step.
        predictions : list of float or Value, optional
            The model's outputs at this step.

        Raises
        ------
        TypeError
            If a field has the wrong type.
        ValueError
            If ``step`` is negative or ``accuracy`` is outside 0..1.
        """
        row = _make_row(step, loss, accuracy, learning_rate, predictions)
        if self.path is not None:
            with self.path.open("a", encoding="utf-8", newline="") as f:
                csv.writer(f, lineterminator="\n").writerow(_csv_fields(row))
                f.flush()
        self.rows.append(row)

    def __repr__(self) -> str:
        where = "" if self.path is None else f", path={str(self.path)!r}"
        return f"TrainingLog({len(self.rows)} rows{where})"

    def column(self, name: str) -> list[Any]:
        """Every row's value of one column (``"step"``, ``"loss"``, ...).

        Raises
        ------
        KeyError
            If ``name`` is not one of :data:`COLUMNS`.
        """
        if name not in COLUMNS:
            raise KeyError(f"{name!r} is not a column; the columns are {', '.join(COLUMNS)}")
        return [getattr(row, name) for row in self.rows]

    def table(self, every: int = 1) -> str:
        """The log as a fixed-width text table.

        Parameters
        ----------
        every : int, default 1
            Show every ``every``-th row (the last row is always shown).

        Returns
        -------
        str
            A header line and one line per shown row (the loss to 6
            decimals, the others to 4); the accuracy and learning-rate
            columns appear only if some row has them.  Predictions are left
            out (see :attr:`rows` or the CSV).

        Raises
        ------
        ValueError
            If ``every`` is not an int >= 1.
        """
        if isinstance(every, bool) or not isinstance(every, int) or every < 1:
            raise ValueError(f"every must be an int >= 1, got {every!r}")
        shown = self.rows[::every]
        if self.rows and shown[-1] is not self.rows[-1]:
            shown.append(self.rows[-1])
        headers = ["step", "loss"]
        optional = [
            name
            for name in ("accuracy", "learning_rate")
            if any(value is not None for value in self.column(name))
        ]
        headers += optional
        cells = [
            [str(row.step), f"{row.loss:.6f}"]
            + [_optional_cell(getattr(row, name)) for name in optional]
            for row in shown
        ]
        widths = [max([len(h)] + [len(c[i]) for c in cells]) for i, h in enumerate(headers)]
        header = [headers[0].ljust(widths[0])] + [
            h.rjust(w) for h, w in zip(headers[1:], widths[1:], strict=True)
        ]
        lines = ["  ".join(header)]
        lines += [
            "  ".join(c.rjust(w) for c, w in zip(line, widths, strict=True)) for line in cells
        ]
        return "\n".join(lines)


def _optional_cell(value: float | None) -> str:
    """A table cell of an optional column: 4 decimals, empty where the row has no value."""
    return "" if value is None else f"{value:.4f}"
