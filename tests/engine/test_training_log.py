"""Tests for micrograd.training_log.TrainingLog (its charts: test_plot.py)."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pytest
from csv_log import read_log
from sample_log import sample_log
from scripts import run_python

from micrograd import Value
from micrograd.training_log import COLUMNS, LogRow, TrainingLog

HEADER = ",".join(COLUMNS) + "\n"


def test_record_keeps_rows_and_columns() -> None:
    log = sample_log()
    assert len(log.rows) == 3
    first = log.rows[0]
    assert first == LogRow(0, 0.8958441028683222, 0.5, 1.0, (0.1, -0.2))
    assert first.loss == 0.8958441028683222
    assert log.rows[1].predictions is None
    assert log.rows[2].predictions == ()
    assert log.column("step") == [0, 1, 2]
    assert log.column("loss") == [row.loss for row in log.rows]
    with pytest.raises(KeyError, match="'lr' is not a column"):
        log.column("lr")


def test_record_takes_values_from_value_objects() -> None:
    log = TrainingLog()
    log.record(3, Value(0.25), predictions=[Value(0.5), 1])
    assert log.rows == [LogRow(3, 0.25, None, None, (0.5, 1.0))]
    assert isinstance(log.rows[0].predictions[0], float)  # type: ignore[index]


def test_a_log_says_what_its_loss_is() -> None:
    assert TrainingLog().loss_label == "loss"
    assert TrainingLog(loss_label="mean loss").loss_label == "mean loss"
    with pytest.raises(TypeError, match="loss_label must be a string"):
        TrainingLog(loss_label=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="must name the loss"):
        TrainingLog(loss_label=" ")


def test_table_is_fixed_width() -> None:
    assert sample_log().table() == textwrap.dedent(
        """\
        step      loss  accuracy  learning_rate
           0  0.895844    0.5000         1.0000
           1  1.723591    0.8100         0.9910
           2  0.300000    0.7700         0.9820"""
    )


def test_table_columns_follow_what_was_recorded() -> None:
    log = TrainingLog()
    for step in range(12):
        log.record(step, 1.0 / (step + 1))
    table = log.table(every=5)
    assert table.splitlines() == [
        "step      loss",
        "   0  1.000000",
        "   5  0.166667",
        "  10  0.090909",
        "  11  0.083333",
    ]
    assert TrainingLog().table() == "step  loss"
    with pytest.raises(ValueError, match="every must be an int >= 1"):
        log.table(every=0)


def test_a_column_of_zeros_is_shown_and_an_empty_cell_stays_empty() -> None:
    log = TrainingLog()
    log.record(0, 1.0, accuracy=0.0)
    log.record(1, 0.5, accuracy=0.0, learning_rate=0.0)
    assert log.table().splitlines() == [
        "step      loss  accuracy  learning_rate",
        "   0  1.000000    0.0000               ",
        "   1  0.500000    0.0000         0.0000",
    ]


def test_csv_keeps_every_digit(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "log.csv"
    log = sample_log(path)
    log.record(3, 1e-300, accuracy=1.0, predictions=[1 / 3, -2.5e-17, 123456789.123456789])
    assert read_log(path) == log.rows
    assert path.read_text(encoding="utf-8").splitlines()[1] == (
        "0,0.8958441028683222,0.5,1.0,[0.1 -0.2]"
    )


def test_csv_keeps_nan_and_infinity(tmp_path: Path) -> None:
    log = TrainingLog(tmp_path / "log.csv")
    log.record(0, float("nan"))
    log.record(1, float("inf"), predictions=[float("-inf")])
    back = read_log(tmp_path / "log.csv")
    assert math.isnan(back[0].loss)
    assert back[1].loss == math.inf
    assert back[1].predictions == (-math.inf,)


def test_log_with_a_path_writes_each_row_as_it_is_recorded(tmp_path: Path) -> None:
    path = tmp_path / "runs" / "log.csv"
    log = TrainingLog(path)
    assert path.read_text(encoding="utf-8") == HEADER
    log.record(0, 0.5, accuracy=0.25)
    # Readable before the log object is closed or garbage collected:
    assert path.read_text(encoding="utf-8") == HEADER + "0,0.5,0.25,,\n"
    log.record(1, 0.375, learning_rate=0.1, predictions=[1.0])
    assert read_log(path) == log.rows
    assert repr(log) == f"TrainingLog(2 rows, path={str(path)!r})"


def test_a_log_with_a_path_replaces_the_file_that_was_there(tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    sample_log(path)
    log = TrainingLog(path)
    assert log.rows == []
    assert path.read_text(encoding="utf-8") == HEADER


def test_rows_survive_an_exception_mid_run(tmp_path: Path) -> None:
    path = tmp_path / "log.csv"

    def train() -> None:
        log = TrainingLog(path)
        for step in range(10):
            if step == 4:
                raise RuntimeError("boom")
            log.record(step, 1.0 / (step + 1))

    with pytest.raises(RuntimeError, match="boom"):
        train()
    assert [row.step for row in read_log(path)] == [0, 1, 2, 3]


def test_rows_survive_a_killed_process(tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    script = textwrap.dedent(
        f"""
        import os, signal
        from micrograd.training_log import TrainingLog
        log = TrainingLog({str(path)!r})
        for step in range(5):
            log.record(step, 1.0 / (step + 1), accuracy=step / 4)
        os.kill(os.getpid(), signal.SIGKILL)  # no clean-up, no atexit, no flush at exit
        log.record(99, 0.0)
        """
    )
    run_python("-c", script, returncode=-9)
    rows = read_log(path)
    assert [row.step for row in rows] == [0, 1, 2, 3, 4]
    assert rows[-1].accuracy == 1.0


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"step": -1}, ValueError, "step must be >= 0"),
        ({"step": 1.0}, TypeError, "step must be an int"),
        ({"step": True}, TypeError, "step must be an int"),
        ({"loss": "0.5"}, TypeError, "loss must be a number"),
        ({"loss": None}, TypeError, "loss must be a number"),
        ({"accuracy": 1.5}, ValueError, "accuracy must be a fraction between 0 and 1"),
        ({"accuracy": "high"}, TypeError, "accuracy must be a number or None"),
        ({"learning_rate": [0.1]}, TypeError, "learning_rate must be a number or None"),
        ({"predictions": "0.5"}, TypeError, "predictions must be a list of numbers"),
        ({"predictions": [0.5, "x"]}, TypeError, r"predictions\[1\] must be a number"),
    ],
)
def test_record_rejects_bad_fields(
    kwargs: dict[str, object], error: type[Exception], message: str, tmp_path: Path
) -> None:
    path = tmp_path / "log.csv"
    log = TrainingLog(path)
    args: dict[str, object] = {"step": 0, "loss": 0.5}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        log.record(**args)  # type: ignore[arg-type]
    assert log.rows == []
    assert path.read_text(encoding="utf-8") == HEADER  # nothing half-written
