"""The training curve while a cell trains: the charts' add-on of the in-browser kernel.

While a cell runs, every :class:`~micrograd.training_log.TrainingLog` it
records to is sent to the page as it grows: its figure
(:func:`micrograd.viz.plot.plot_training`, the one the build draws, as its
``to_json()``, titled by :func:`live_title`: the cell's own title comes with its
chart, at the end) goes as the add-on message
``"live-chart"`` (``{figure, points}``: the description and the number of rows)
after the log's first row, then at most every :data:`LIVE_INTERVAL` seconds,
and once more, if rows came after the last one sent, before the cell shows
anything (``kernel.BEFORE_DISPLAY``: the figure it previews comes after it) and
when the cell ends.  The page (charts.js) draws it under the cell, until the
run's own chart is shown.

The library records rows and knows nothing of a page: this add-on sees each
row by wrapping ``TrainingLog.record`` for as long as the cell runs, and puts
the method back when the cell ends, however it ends.

The kernel imports this module when it starts (:func:`book_runtime.kernel.addons`);
importing it adds :func:`live_charts` to the kernel's ``CELL_CONTEXTS``.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from book_runtime import kernel

#: The shortest time between two drawings of one log's chart, in seconds.
LIVE_INTERVAL = 0.25


def live_title(log: Any) -> str:
    """The live chart's title: that the run is going on, and the step it has reached."""
    return f"as it trains: step {log.rows[-1].step}"


@contextmanager
def live_charts() -> Iterator[None]:
    """While the block runs, send the chart of every training log that records a row."""
    from micrograd.training_log import TrainingLog
    from micrograd.viz.plot import plot_training

    sent: dict[int, tuple[TrainingLog, float, int]] = {}  # id(log) -> (log, when, rows sent)

    def send(log: TrainingLog) -> None:
        figure = plot_training(log, title=live_title(log)).to_json()
        kernel.post_message("live-chart", figure=figure, points=len(log.rows))
        sent[id(log)] = (log, time.monotonic(), len(log.rows))

    record = TrainingLog.record

    @functools.wraps(record)
    def recording(log: TrainingLog, *args: Any, **kwargs: Any) -> None:
        record(log, *args, **kwargs)
        last = sent.get(id(log))
        if last is None or time.monotonic() - last[1] >= LIVE_INTERVAL:
            send(log)

    def catch_up() -> None:
        for log, _, rows in list(sent.values()):
            if rows != len(log.rows):
                send(log)

    TrainingLog.record = recording  # type: ignore[method-assign, assignment]
    kernel.BEFORE_DISPLAY.append(catch_up)
    try:
        yield
    finally:
        TrainingLog.record = record  # type: ignore[method-assign]
        kernel.BEFORE_DISPLAY.remove(catch_up)
        catch_up()


kernel.CELL_CONTEXTS.append(live_charts)
