"""The training curve while a cell trains: an add-on of the in-browser kernel (kernel.py).

While a cell runs, every :class:`~micrograd.training_log.TrainingLog` it
records to is sent to the page as it grows (seen through
:func:`micrograd.training_log.watching`): its chart,
:meth:`~micrograd.training_log.TrainingLog.chart` as
:func:`micrograd.chart.figure_json` (the description the build's
``log.plot()`` draws with matplotlib), goes as a ``"chart-live"`` message
(``{figure, points}``: the JSON and the number of rows) after the log's first
row, then at most every :data:`LIVE_INTERVAL` seconds, and once more when the
cell ends if rows came after the last one sent.  The page (charts.js) draws it
under the cell.

worker.js installs this module next to the kernel and imports it once the
kernel is loaded; importing it adds :func:`live_charts` to the kernel's
``CELL_CONTEXTS``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import micrograd_browser_kernel as kernel

if TYPE_CHECKING:  # pragma: no cover - only for the type checker
    from micrograd.training_log import LogRow, TrainingLog

#: The shortest time between two drawings of one log's chart, in seconds.
LIVE_INTERVAL = 0.25
#: The size the live chart is drawn at, in inches: that of the build's ``log.plot()``.
LIVE_SIZE = (5.0, 3.5)


@contextmanager
def live_charts() -> Iterator[None]:
    """While the block runs, send the chart of every training log that records a row."""
    from micrograd.chart import figure_json
    from micrograd.training_log import watching

    sent: dict[int, tuple[TrainingLog, float, int]] = {}  # id(log) -> (log, when, rows sent)

    def send(log: TrainingLog) -> None:
        figure = figure_json([log.chart()], size=LIVE_SIZE)
        kernel.post_message("chart-live", figure=figure, points=len(log.rows))
        sent[id(log)] = (log, time.monotonic(), len(log.rows))

    def on_record(log: TrainingLog, row: LogRow) -> None:
        last = sent.get(id(log))
        if last is None or time.monotonic() - last[1] >= LIVE_INTERVAL:
            send(log)

    try:
        with watching(on_record):
            yield
    finally:
        for log, _, rows in list(sent.values()):
            if rows != len(log.rows):
                send(log)


kernel.CELL_CONTEXTS.append(live_charts)
