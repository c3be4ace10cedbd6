"""A three-step training run with awkward values, shared by the log's and the plots' tests.

Its losses and rates include a number with a long repr (0.1 + 0.2) and the
predictions are recorded, omitted and empty, so a table, a CSV and a chart each
meet every case a real run can give them.
"""

from __future__ import annotations

from pathlib import Path

from micrograd.training_log import TrainingLog


def sample_log(path: Path | None = None) -> TrainingLog:
    """The run, written to ``path`` as it is recorded (a CSV) when a path is given."""
    log = TrainingLog(path)
    log.record(0, 0.8958441028683222, accuracy=0.5, learning_rate=1.0, predictions=[0.1, -0.2])
    log.record(1, 1.723590533697202, accuracy=0.81, learning_rate=0.991)
    log.record(2, 0.1 + 0.2, accuracy=0.77, learning_rate=0.982, predictions=[])
    return log
