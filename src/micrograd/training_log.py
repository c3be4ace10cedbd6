"""A record of a training run: step, loss, accuracy, learning rate, predictions.

:class:`TrainingLog` keeps one row per recorded step.  Given a ``path`` it
also appends each row to a CSV file as soon as it is recorded, so a run that
is interrupted (Ctrl-C, a crash, a killed process) keeps every row it had
recorded (floats are written with ``repr``, which round-trips).  The log
prints as a fixed-width table and charts loss and accuracy against the step
(:meth:`TrainingLog.chart`, drawn by :meth:`TrainingLog.plot`).

:func:`watching` lets a host see every row as it is recorded, for as long as
a ``with`` block lasts: the book's in-browser runner uses it to draw the loss
curve while a training cell runs.

The table, CSV and chart need only the standard library; :meth:`TrainingLog.plot`
needs matplotlib (``pip install "micrograd-book[plot]"``), except in the
reader's browser, where the page draws the chart (see :mod:`micrograd.viz.chart`).
"""

from __future__ import annotations

import csv
import math
import numbers
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from micrograd.engine import Value
from micrograd.viz.chart import Chart, draw, show

if TYPE_CHECKING:  # pragma: no cover - only for the type checker
    from matplotlib.axes import Axes

__all__ = ["COLUMNS", "LogRow", "TrainingLog", "watching"]

#: The CSV header, in order.
COLUMNS = ("step", "loss", "accuracy", "learning_rate", "predictions")

PathLike = str | os.PathLike[str]

#: The colours of the loss and accuracy lines.
LOSS_COLOUR = "#d62728"
ACCURACY_COLOUR = "#1f77b4"


@dataclass(frozen=True)
class LogRow:
    """One recorded step."""

    step: int
    loss: float
    accuracy: float | None = None
    learning_rate: float | None = None
    predictions: tuple[float, ...] | None = None

    def csv_fields(self) -> list[str]:
        """The row's CSV cells: ``repr`` of each float, empty for a missing value."""
        return [
            str(self.step),
            repr(self.loss),
            "" if self.accuracy is None else repr(self.accuracy),
            "" if self.learning_rate is None else repr(self.learning_rate),
            _format_predictions(self.predictions),
        ]


def _format_predictions(predictions: tuple[float, ...] | None) -> str:
    # "[0.5 -0.25]": space-separated reprs, so the cell holds no comma; "" is None.
    if predictions is None:
        return ""
    return "[" + " ".join(repr(p) for p in predictions) + "]"


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
    step: object,
    loss: object,
    accuracy: object = None,
    learning_rate: object = None,
    predictions: object = None,
) -> LogRow:
    if isinstance(step, bool) or not isinstance(step, numbers.Integral):
        raise TypeError(f"step must be an int, got {type(step).__name__} {step!r}")
    if step < 0:
        raise ValueError(f"step must be >= 0, got {step}")
    loss_f = _number("loss", loss)
    acc = _optional_number("accuracy", accuracy)
    if acc is not None and not 0.0 <= acc <= 1.0:
        raise ValueError(f"accuracy must be a fraction between 0 and 1, got {acc!r}")
    lr = _optional_number("learning_rate", learning_rate)
    preds: tuple[float, ...] | None
    if predictions is None:
        preds = None
    else:
        if isinstance(predictions, (str, bytes)) or not isinstance(predictions, Iterable):
            raise TypeError(
                f"predictions must be a list of numbers, got {type(predictions).__name__}"
            )
        preds = tuple(_number(f"predictions[{i}]", p) for i, p in enumerate(predictions))
    return LogRow(int(step), loss_f, acc, lr, preds)


#: The callbacks of the :func:`watching` blocks the current context is in.
_WATCHERS: ContextVar[tuple[Callable[[TrainingLog, LogRow], None], ...]] = ContextVar(
    "micrograd_training_log_watchers", default=()
)


@contextmanager
def watching(callback: Callable[[TrainingLog, LogRow], None]) -> Iterator[None]:
    """Call ``callback(log, row)`` after each row any :class:`TrainingLog` records in this block.

    For a host that shows a run as it goes (the book's in-browser runner
    redraws the loss curve while a cell trains).  The callback runs in the
    thread that records, right after the row is added (and written to the
    log's file); an exception it raises propagates out of ``record``, so it
    should be quick and not fail.  Blocks nest; each callback is called in
    the order the blocks were entered.  When the block ends, however it
    ends, the callback is dropped and nothing of it is left behind.  Only
    the current thread (``contextvars`` context) is watched.

    Parameters
    ----------
    callback : callable
        Called as ``callback(log, row)`` with the log and its new :class:`LogRow`.

    Raises
    ------
    TypeError
        If ``callback`` is not callable.

    Examples
    --------
    >>> seen = []
    >>> log = TrainingLog()
    >>> with watching(lambda log, row: seen.append(row.loss)):
    ...     log.record(0, 0.9)
    ...     log.record(1, 0.5)
    >>> log.record(2, 0.25)  # after the block: not watched
    >>> seen
    [0.9, 0.5]
    """
    if not callable(callback):
        raise TypeError(f"callback must be callable, got {type(callback).__name__}")
    token = _WATCHERS.set((*_WATCHERS.get(), callback))
    try:
        yield
    finally:
        _WATCHERS.reset(token)


class TrainingLog:
    """Rows of (step, loss, accuracy, learning rate, predictions), one per step.

    Parameters
    ----------
    path : str or path-like, optional
        A CSV file to write as the run goes: each :meth:`record` appends one
        row and flushes it, so an interrupted run keeps its earlier rows.
        The file is written afresh, header first, replacing any file there.

    Attributes
    ----------
    rows : list of LogRow
        The recorded rows, oldest first.
    path : pathlib.Path or None
        The CSV file written as the run goes, if any.

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

    def __init__(self, path: PathLike | None = None) -> None:
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
                csv.writer(f, lineterminator="\n").writerow(row.csv_fields())
                f.flush()
        self.rows.append(row)
        for watcher in _WATCHERS.get():
            watcher(self, row)

    def __repr__(self) -> str:
        where = "" if self.path is None else f", path={str(self.path)!r}"
        return f"TrainingLog({len(self.rows)} rows{where})"

    def column(self, name: str) -> list[Any]:
        """Every row's value of one column (``"step"``, ``"loss"``, ...)."""
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
            decimals, the others to 4); the accuracy and
            learning-rate columns appear only if some row has them.
            Predictions are left out (see :attr:`rows` or the CSV).
        """
        if isinstance(every, bool) or not isinstance(every, int) or every < 1:
            raise ValueError(f"every must be an int >= 1, got {every!r}")
        shown = [row for i, row in enumerate(self.rows) if i % every == 0]
        if self.rows and (not shown or shown[-1] is not self.rows[-1]):
            shown.append(self.rows[-1])
        has_acc = any(row.accuracy is not None for row in self.rows)
        has_lr = any(row.learning_rate is not None for row in self.rows)
        headers = ["step", "loss"]
        if has_acc:
            headers.append("accuracy")
        if has_lr:
            headers.append("learning_rate")
        cells = []
        for row in shown:
            line = [str(row.step), f"{row.loss:.6f}"]
            if has_acc:
                line.append("" if row.accuracy is None else f"{row.accuracy:.4f}")
            if has_lr:
                line.append("" if row.learning_rate is None else f"{row.learning_rate:.4f}")
            cells.append(line)
        widths = [max([len(h)] + [len(c[i]) for c in cells]) for i, h in enumerate(headers)]
        lines = [
            "  ".join(
                h.ljust(w) if i == 0 else h.rjust(w)
                for i, (h, w) in enumerate(zip(headers, widths, strict=True))
            )
        ]
        for line in cells:
            lines.append("  ".join(c.rjust(w) for c, w in zip(line, widths, strict=True)))
        return "\n".join(lines)

    def chart(self, title: str | None = None) -> Chart:
        """Loss and accuracy against the step, on one axis, as a chart.

        Both usually live between 0 and 1 (a loss can start above 1), so one
        y axis serves both: from 0 (or the lowest loss, if negative) to 5 %
        above the highest loss or 1.

        Parameters
        ----------
        title : str, optional
            The chart's title.

        Returns
        -------
        Chart
            With a ``"loss"`` line (red), an ``"accuracy"`` line (blue) if any
            row has an accuracy, axis labels, whole-number steps, a grid and a legend.

        Raises
        ------
        ValueError
            If the log has no rows.
        """
        if not self.rows:
            raise ValueError("the log has no rows to plot")
        acc_points = [(row.step, row.accuracy) for row in self.rows if row.accuracy is not None]
        finite = [row.loss for row in self.rows if math.isfinite(row.loss)]
        top = max([1.0, *finite])
        chart = Chart(
            title=title,
            x_label="step",
            y_label="loss, accuracy" if acc_points else "loss",
            integer_x=True,
            grid=True,
            y_range=(min(0.0, *finite) if finite else 0.0, top * 1.05),
        )
        chart.line(self.column("step"), self.column("loss"), label="loss", colour=LOSS_COLOUR)
        if acc_points:
            chart.line(
                [step for step, _ in acc_points],
                [acc for _, acc in acc_points],
                label="accuracy",
                colour=ACCURACY_COLOUR,
            )
        return chart

    def plot(self, ax: Axes | None = None, title: str | None = None) -> Any:
        """Plot loss and accuracy against the step, on one axis: draw :meth:`chart`.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw; a new figure if not given (see :func:`micrograd.viz.chart.show`).
        title : str, optional
            The axis title.

        Returns
        -------
        matplotlib.axes.Axes
            With a ``"loss"`` line, an ``"accuracy"`` line if any row has an
            accuracy, axis labels and a legend (in the reader's browser,
            which draws it itself: the Chart).

        Raises
        ------
        ValueError
            If the log has no rows.
        ImportError
            If matplotlib is missing (``pip install "micrograd-book[plot]"``).
        """
        chart = self.chart(title)
        # 5 x 3.5 inches: fits a phone's column, readable
        return draw(chart, ax) if ax is not None else show(chart, size=(5.0, 3.5))
