"""Tests for micrograd.training_log.TrainingLog."""

from __future__ import annotations

import math
import sys
import textwrap
import threading
from pathlib import Path

import matplotlib
import pytest
from csv_log import read_log
from scripts import run_python

from micrograd import Value
from micrograd.training_log import _WATCHERS, COLUMNS, LogRow, TrainingLog, watching

matplotlib.use("Agg")
import matplotlib.pyplot as plt

HEADER = ",".join(COLUMNS) + "\n"


pytestmark = pytest.mark.usefixtures("close_figures")


def sample_log(path: Path | None = None) -> TrainingLog:
    log = TrainingLog(path)
    log.record(0, 0.8958441028683222, accuracy=0.5, learning_rate=1.0, predictions=[0.1, -0.2])
    log.record(1, 1.723590533697202, accuracy=0.81, learning_rate=0.991)
    log.record(2, 0.1 + 0.2, accuracy=0.77, learning_rate=0.982, predictions=[])
    return log


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


def test_plot_draws_loss_and_accuracy_on_one_axis() -> None:
    log = sample_log()
    ax = log.plot(title="run")
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert set(lines) == {"loss", "accuracy"}
    assert list(lines["loss"].get_xdata()) == [0, 1, 2]
    assert list(lines["loss"].get_ydata()) == [r.loss for r in log.rows]
    assert list(lines["accuracy"].get_ydata()) == [0.5, 0.81, 0.77]
    assert ax.get_xlabel() == "step"
    assert ax.get_ylabel() == "loss, accuracy"
    assert ax.get_title() == "run"
    legend = ax.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == ["loss", "accuracy"]
    bottom, top = ax.get_ylim()
    assert bottom == 0.0
    assert top >= 1.723590533697202


def test_plot_without_accuracy_draws_only_the_loss_on_a_given_axis() -> None:
    log = TrainingLog()
    log.record(0, 0.5)
    log.record(1, 0.25)
    _, ax = plt.subplots()
    assert log.plot(ax=ax) is ax
    assert [line.get_label() for line in ax.get_lines()] == ["loss"]
    assert ax.get_ylabel() == "loss"
    assert ax.get_ylim() == (0.0, 1.05)


def test_plot_of_an_empty_log_is_an_error() -> None:
    with pytest.raises(ValueError, match="no rows to plot"):
        TrainingLog().plot()


def test_plot_without_matplotlib_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r'pip install "micrograd-book\[plot\]"'):
        sample_log().plot()


def test_the_chart_is_what_plot_draws_and_needs_no_matplotlib(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = sample_log()
    ax = log.plot(title="run")
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    chart = log.chart(title="run")
    loss, accuracy = chart.marks
    assert (loss.label, loss.colour, loss.x, loss.y) == (  # type: ignore[union-attr]
        "loss",
        "#d62728",
        [0.0, 1.0, 2.0],
        [r.loss for r in log.rows],
    )
    assert (accuracy.label, accuracy.colour) == ("accuracy", "#1f77b4")  # type: ignore[union-attr]
    assert chart.y_limits() == (0.0, 1.723590533697202 * 1.05)
    assert ax.get_ylim() == pytest.approx(chart.y_limits())
    assert ax.get_xticks().tolist() == chart.x_ticks() == [0.0, 1.0, 2.0]
    assert chart.integer_x
    assert chart.grid
    assert chart.title == "run"


def test_watching_sees_every_row_recorded_in_the_block_and_nothing_after() -> None:
    seen: list[tuple[TrainingLog, LogRow]] = []
    first, second = TrainingLog(), TrainingLog()
    with watching(lambda log, row: seen.append((log, row))):
        first.record(0, 0.9)
        second.record(0, 0.8, accuracy=0.5)
    first.record(1, 0.5)
    assert seen == [(first, first.rows[0]), (second, second.rows[0])]


def test_watching_blocks_nest_and_each_leaves_nothing_behind() -> None:
    calls: list[str] = []
    log = TrainingLog()
    before = _WATCHERS.get()
    with watching(lambda log, row: calls.append("outer")):
        with watching(lambda log, row: calls.append("inner")):
            log.record(0, 1.0)
        log.record(1, 1.0)
    assert calls == ["outer", "inner", "outer"]
    assert _WATCHERS.get() == before == ()


def test_watching_ends_however_its_block_ends() -> None:
    log = TrainingLog()
    with pytest.raises(ValueError, match="accuracy must be a fraction"), watching(print):
        log.record(0, 1.0, accuracy=2.0)
    assert _WATCHERS.get() == ()

    def failing(log: TrainingLog, row: LogRow) -> None:
        raise RuntimeError("the host failed")

    with pytest.raises(RuntimeError, match="the host failed"), watching(failing):
        log.record(0, 1.0)
    assert len(log.rows) == 1  # the row was recorded before the host was told
    assert _WATCHERS.get() == ()


def test_watching_sees_only_its_own_thread() -> None:
    seen: list[float] = []
    log = TrainingLog()
    with watching(lambda log, row: seen.append(row.loss)):
        thread = threading.Thread(target=log.record, args=(0, 0.5))
        thread.start()
        thread.join()
        log.record(1, 0.25)
    assert seen == [0.25]


def test_watching_refuses_what_cannot_be_called() -> None:
    with pytest.raises(TypeError, match="callback must be callable"), watching(3):  # type: ignore[arg-type]
        pass
