"""Tests for micrograd.viz.plot: the data, a classifier's decision regions, a training run."""

from __future__ import annotations

import math
import sys

import matplotlib
import numpy as np
import pytest
from sample_log import sample_log

from micrograd import MLP, Value
from micrograd.datasets import make_moons
from micrograd.training_log import TrainingLog
from micrograd.viz.chart import Figure, draw
from micrograd.viz.plot import (
    ACCURACY_COLOUR,
    CLASS_COLOURS,
    LOSS_COLOUR,
    MAX_GRID_POINTS,
    decision_boundary_chart,
    moons_chart,
    plot_decision_boundary,
    plot_moons,
    plot_training,
    training_chart,
)

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.colors import to_hex
from matplotlib.contour import ContourSet

pytestmark = pytest.mark.usefixtures("close_figures")


def axes_of(figure: Figure) -> Axes:
    """The one Axes matplotlib draws a one-chart figure on."""
    assert isinstance(figure, Figure)
    (ax,) = figure.draw().axes
    return ax


def scatter_of(ax: object) -> PathCollection:
    found = [c for c in ax.collections if isinstance(c, PathCollection)]  # type: ignore[attr-defined]
    assert len(found) == 1
    return found[0]


def filled(ax: object) -> ContourSet:
    """The filled regions of a decision-boundary plot."""
    (found,) = [c for c in ax.collections if isinstance(c, ContourSet) and c.filled]  # type: ignore[attr-defined]
    return found


def boundary_lines(ax: object) -> list[ContourSet]:
    """The decision boundary's line (a contour that is not filled), if drawn."""
    return [c for c in ax.collections if isinstance(c, ContourSet) and not c.filled]  # type: ignore[attr-defined]


def point_colours(ax: object) -> list[str]:
    return [to_hex(c) for c in scatter_of(ax).get_facecolors()]


def legend_texts(ax: object) -> list[str]:
    # in the axes, or below them (the figure's)
    legends = [ax.get_legend(), *ax.figure.legends]  # type: ignore[attr-defined]
    legend = next((found for found in legends if found is not None), None)
    assert legend is not None, "the plot has no legend"
    return [t.get_text() for t in legend.get_texts()]


def test_plot_moons_scatters_every_point_coloured_by_label() -> None:
    X, y = make_moons()
    ax = axes_of(plot_moons(X, y))
    points = scatter_of(ax)
    np.testing.assert_array_equal(points.get_offsets(), X)
    expected = [CLASS_COLOURS[0] if label < 0 else CLASS_COLOURS[1] for label in y]
    assert point_colours(ax) == expected
    assert ax.get_xlabel() == "x\u2081"
    assert ax.get_ylabel() == "x\u2082"


def test_plot_moons_has_a_legend_with_one_entry_per_class_in_its_colour() -> None:
    X, y = make_moons(n_samples=20)
    ax = axes_of(plot_moons(X, y))
    assert legend_texts(ax) == ["class -1", "class +1"]
    handles = ax.get_legend().legend_handles
    assert [to_hex(h.get_markerfacecolor()) for h in handles] == list(CLASS_COLOURS)
    # labels 0 and 1 are named without a sign
    assert legend_texts(axes_of(plot_moons(X, [int(v > 0) for v in y]))) == ["class 0", "class 1"]


def test_plot_moons_refuses_more_classes_than_colours() -> None:
    with pytest.raises(ValueError, match="at most 2 classes"):
        plot_moons([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], [0, 1, 2])


def test_the_moons_chart_draws_on_a_given_axis() -> None:
    _, ax = plt.subplots()
    X, y = make_moons(n_samples=10)
    assert draw(moons_chart(np.asarray(X), np.asarray(y)), ax) is ax
    np.testing.assert_array_equal(scatter_of(ax).get_offsets(), X)


def test_the_plots_are_figures_a_phones_column_wide() -> None:
    X, y = make_moons(n_samples=10)
    for figure in (plot_moons(X, y), plot_decision_boundary(Counting(), X, y, resolution=0.5)):
        assert figure.size == (3.5, 2.8)
        assert len(figure.charts) == 1
    assert plot_moons(X, y).to_json()["charts"] == [moons_chart(X, y).to_json()]


class Counting:
    """A model whose score is x1 (so the boundary is the line x1 = 0), counting calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, x: list[Value]) -> Value:
        assert all(isinstance(v, Value) for v in x)
        self.calls += 1
        return x[0] * 1.0


def test_decision_boundary_scores_every_grid_point_and_splits_by_sign() -> None:
    X = np.array([[-1.0, 0.0], [1.0, 1.0], [0.5, -0.5]])
    y = np.array([-1, 1, 1])
    model = Counting()
    ax = axes_of(plot_decision_boundary(model, X, y, resolution=0.5))
    # The demo's grid: from min - 1 to max + 1 (exclusive) in steps of h.
    xs = np.arange(-2.0, 2.0, 0.5)
    ys = np.arange(-1.5, 2.0, 0.5)
    assert model.calls == len(xs) * len(ys)
    assert ax.get_xlim() == (xs.min(), xs.max())
    assert ax.get_ylim() == (ys.min(), ys.max())
    contours = filled(ax)
    # split at 0, from below the lowest score to above the highest (x1 in [-2, 1.5])
    assert list(contours.levels) == [-3.0, 0.0, 2.5]
    below, above = contours.get_paths()  # region "score <= 0", region "score > 0"
    # The boundary is where the interpolated score crosses 0: exactly x1 = 0.
    assert below.vertices[:, 0].max() == pytest.approx(0.0)
    assert above.vertices[:, 0].min() == pytest.approx(0.0)
    np.testing.assert_array_equal(scatter_of(ax).get_offsets(), X)


def test_regions_take_the_colour_of_their_class_and_the_boundary_is_drawn() -> None:
    X = np.array([[-1.0, 0.0], [1.0, 1.0], [0.5, -0.5]])
    y = np.array([-1, 1, 1])
    ax = axes_of(plot_decision_boundary(Counting(), X, y, resolution=0.5))
    regions = filled(ax)
    assert [to_hex(c) for c in regions.get_facecolor()] == list(CLASS_COLOURS)
    assert point_colours(ax) == [CLASS_COLOURS[0], CLASS_COLOURS[1], CLASS_COLOURS[1]]
    (line,) = boundary_lines(ax)
    assert list(line.levels) == [0.0]
    assert legend_texts(ax) == ["class -1", "class +1", "predicted class -1", "predicted class +1"]


def test_a_finer_grid_draws_a_smoother_boundary() -> None:
    # score = x1**2 + x2**2 - 1: the boundary is the unit circle.
    X = np.array([[-1.0, -1.0], [1.0, 1.0]])
    y = np.array([-1, 1])

    def circle(x: list[Value]) -> Value:
        return x[0] * x[0] + x[1] * x[1] - 1

    def worst_error(resolution: float) -> float:
        _, ax = plt.subplots()
        draw(decision_boundary_chart(circle, X, y, resolution=resolution), ax)
        (line,) = boundary_lines(ax)
        points = np.concatenate([path.vertices for path in line.get_paths()])
        return float(np.abs(np.hypot(points[:, 0], points[:, 1]) - 1).max())

    coarse, fine = worst_error(0.25), worst_error(0.05)
    assert fine < coarse / 5
    assert fine < 0.01


def test_decision_boundary_of_an_mlp_follows_its_weights() -> None:
    # A one-neuron linear MLP with score = x2 - 0.3: the boundary is the line x2 = 0.3.
    model = MLP(2, [1])
    neuron = model.layers[0].neurons[0]
    neuron.w[0].data, neuron.w[1].data, neuron.b.data = 0.0, 1.0, -0.3
    X, y = make_moons(n_samples=30)
    _, ax = plt.subplots()
    assert draw(decision_boundary_chart(model, X, y, resolution=0.1), ax) is ax
    below, above = filled(ax).get_paths()
    assert below.vertices[:, 1].max() <= 0.3 + 0.1
    assert above.vertices[:, 1].min() >= 0.3 - 0.1
    assert below.vertices[:, 1].min() == pytest.approx(ax.get_ylim()[0])
    assert above.vertices[:, 1].max() == pytest.approx(ax.get_ylim()[1])


def test_one_class_everywhere_still_plots() -> None:
    X, y = make_moons(n_samples=10)
    ax = axes_of(plot_decision_boundary(lambda x: Value(1.0), X, y))
    below, above = filled(ax).get_paths()
    assert len(below.vertices) == 0
    assert len(above.vertices) > 0
    assert not boundary_lines(ax)


@pytest.mark.parametrize(
    ("X", "y", "kwargs", "error", "message"),
    [
        (np.zeros((3, 3)), np.zeros(3), {}, ValueError, r"X must have shape \(n, 2\)"),
        (np.zeros((0, 2)), np.zeros(0), {}, ValueError, r"X must have shape \(n, 2\)"),
        (np.zeros((3, 2)), np.zeros(4), {}, ValueError, "y must have one label per row"),
        ([["a", "b"]], [1], {}, TypeError, "X and y must be arrays of numbers"),
        (3, [1], {}, TypeError, "X and y must be arrays of numbers"),
        (np.zeros((3, 2)), np.zeros(3), {"resolution": 0}, ValueError, "resolution must be"),
        (np.zeros((3, 2)), np.zeros(3), {"resolution": "1"}, TypeError, "resolution must be"),
        (np.zeros((3, 2)), np.zeros(3), {"resolution": 1e-3}, ValueError, f"{MAX_GRID_POINTS}"),
        (np.zeros((3, 2)), np.zeros(3), {"model": 3}, TypeError, "model must be callable"),
        (
            np.zeros((3, 2)),
            np.zeros(3),
            {"model": lambda x: [x[0], x[1]]},
            TypeError,
            "the model must return one Value",
        ),
    ],
)
def test_decision_boundary_rejects_bad_input(
    X: object, y: object, kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    args: dict[str, object] = {"model": Counting()}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        plot_decision_boundary(X=X, y=y, **args)  # type: ignore[arg-type]


def test_missing_matplotlib_says_an_install_that_works_as_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    figure = plot_moons([[0.0, 0.0]], [1])  # a description: no matplotlib needed yet
    with pytest.raises(ImportError, match=r"pip install matplotlib \(the plot extra"):
        figure.to_svg()


def test_a_model_returning_plain_numbers_works_too() -> None:
    X, y = make_moons(n_samples=10)
    ax = axes_of(plot_decision_boundary(lambda x: x[0].data - 0.5, X, y))
    below, above = filled(ax).get_paths()
    assert below.vertices[:, 0].max() <= 0.75
    assert above.vertices[:, 0].min() >= 0.25


# -- the descriptions, which the browser draws too ------------------------------------------


def test_the_charts_are_built_without_matplotlib_or_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.pyplot", "numpy"):
        monkeypatch.setitem(sys.modules, name, None)
    X, y = make_moons(n_samples=20)
    chart = moons_chart(X, y)
    (points,) = chart.marks
    assert points["kind"] == "points"
    assert list(zip(points["x"], points["y"], strict=True)) == [tuple(p) for p in X]
    boundary = decision_boundary_chart(Counting(), X, y, resolution=0.5)
    assert [mark["kind"] for mark in boundary.marks] == ["regions", "points"]
    figures = [plot_moons(X, y), plot_decision_boundary(Counting(), X, y, 0.5)]
    figures.append(plot_training(sample_log()))
    assert [len(figure.to_json()["charts"]) for figure in figures] == [1, 1, 1]


def test_the_boundary_chart_is_the_grid_the_matplotlib_plot_draws() -> None:
    X = np.array([[-1.0, 0.0], [1.0, 1.0], [0.5, -0.5]])
    y = np.array([-1, 1, 1])
    chart = decision_boundary_chart(Counting(), X, y, resolution=0.5)
    regions = chart.marks[0]
    assert regions["kind"] == "regions"
    np.testing.assert_allclose(regions["xs"], np.arange(-2.0, 2.0, 0.5))
    np.testing.assert_allclose(regions["ys"], np.arange(-1.5, 2.0, 0.5))
    assert regions["scores"][0] == regions["xs"]  # the score is x1, at every row
    assert (regions["below"], regions["above"]) == CLASS_COLOURS
    assert chart.limits("x") == (regions["xs"][0], regions["xs"][-1])
    entries = [(e["label"], e["colour"], e["shape"]) for e in chart.legend_entries()]
    assert entries == [
        ("class -1", CLASS_COLOURS[0], "point"),
        ("class +1", CLASS_COLOURS[1], "point"),
        ("predicted class -1", CLASS_COLOURS[0], "patch"),
        ("predicted class +1", CLASS_COLOURS[1], "patch"),
    ]
    ax = axes_of(plot_decision_boundary(Counting(), X, y, resolution=0.5))
    assert legend_texts(ax) == [e[0] for e in entries]
    assert ax.get_xticks().tolist() == chart.ticks("x")


# -- a training run -----------------------------------------------------------------------------


def test_plot_training_draws_loss_and_accuracy_on_one_axis() -> None:
    log = sample_log()
    figure = plot_training(log, title="run")
    assert figure.size == (3.5, 2.5)
    ax = axes_of(figure)
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


def test_the_training_chart_without_accuracy_draws_only_the_loss_on_a_given_axis() -> None:
    log = TrainingLog()
    log.record(0, 0.5)
    log.record(1, 0.25)
    _, ax = plt.subplots()
    assert draw(training_chart(log), ax) is ax
    assert [line.get_label() for line in ax.get_lines()] == ["loss"]
    assert ax.get_ylabel() == "loss"
    assert ax.get_ylim() == (0.0, 1.05)


def test_the_training_charts_loss_axis_says_what_the_log_recorded() -> None:
    log = TrainingLog(loss_label="loss (mean of the last 20 names)")
    log.record(0, 0.5)
    assert training_chart(log).y_label == "loss (mean of the last 20 names)"
    log.record(1, 0.25, accuracy=0.5)
    assert training_chart(log).y_label == "loss (mean of the last 20 names), accuracy"


def test_a_loss_drawn_alone_that_stays_far_from_zero_gets_an_axis_that_fits_it() -> None:
    log = TrainingLog()
    for step, loss in enumerate([3.4, 3.0, 2.6, 2.4, 2.2]):
        log.record(step, loss)
    bottom, top = training_chart(log).limits("y")
    assert (bottom, top) == pytest.approx((2.2 - 0.06, 3.4 + 0.06))
    log.record(5, 1.6)  # below half the highest: the axis starts at 0 again
    assert training_chart(log).limits("y") == (0.0, 3.4 * 1.05)
    accuracy = TrainingLog()
    for step, loss in enumerate([3.4, 2.2]):
        accuracy.record(step, loss, accuracy=0.5)
    assert training_chart(accuracy).limits("y") == (0.0, 3.4 * 1.05)  # accuracy needs 0 to 1


def test_a_flat_loss_drawn_alone_gets_an_axis_around_it() -> None:
    log = TrainingLog()
    log.record(0, 2.0)
    log.record(1, 2.0)
    assert training_chart(log).limits("y") == pytest.approx((1.9, 2.1))


def test_the_training_chart_starts_at_a_negative_loss_and_ignores_infinite_ones() -> None:
    log = TrainingLog()
    log.record(0, float("inf"))
    log.record(1, -0.5)
    log.record(2, 2.0)
    chart = training_chart(log)
    assert chart.limits("y") == (-0.5, 2.0 * 1.05)


def test_a_training_chart_of_an_empty_log_or_of_no_log_is_an_error() -> None:
    with pytest.raises(ValueError, match="no rows to plot"):
        training_chart(TrainingLog())
    with pytest.raises(ValueError, match="no rows to plot"):
        plot_training(TrainingLog())
    with pytest.raises(TypeError, match="log must be a TrainingLog, got list"):
        training_chart([0.5, 0.25])  # type: ignore[arg-type]


def test_plot_training_without_matplotlib_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ImportError, match=r"pip install matplotlib \(the plot extra"):
        plot_training(sample_log()).draw()


def test_the_training_chart_is_what_plot_training_draws_and_needs_no_matplotlib(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = sample_log()
    ax = axes_of(plot_training(log, title="run"))
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    chart = training_chart(log, title="run")
    loss, accuracy = chart.marks
    assert (loss["label"], loss["colour"], loss["x"], loss["y"]) == (
        "loss",
        LOSS_COLOUR,
        [0.0, 1.0, 2.0],
        [r.loss for r in log.rows],
    )
    assert (LOSS_COLOUR, ACCURACY_COLOUR) == ("#d62728", "#1f77b4")
    assert (accuracy["label"], accuracy["colour"]) == ("accuracy", ACCURACY_COLOUR)
    assert chart.limits("y") == (0.0, 1.723590533697202 * 1.05)
    assert ax.get_ylim() == pytest.approx(chart.limits("y"))
    assert ax.get_xticks().tolist() == chart.ticks("x") == [0.0, 1.0, 2.0]
    assert chart.integer_x
    assert chart.grid
    assert chart.title == "run"


def test_a_spike_is_clipped_so_the_rest_of_the_curve_stays_readable_and_the_title_says_so() -> None:
    log = TrainingLog()
    for step, loss in enumerate([2.0, 125.3, 3.0, 1.5, 1.0, 0.8, 0.6, 0.5, 0.4, 0.3]):
        log.record(step, loss)
    chart = training_chart(log, title="moons")
    assert chart.title == "moons\n(loss clipped at 4.5: it peaks at 125.3, step 1)"
    assert chart.limits("y") == pytest.approx((0.0, 4.5 * 1.05))
    assert chart.marks[0]["y"][1] == 125.3  # the data stays whole
    untitled = training_chart(log)
    assert untitled.title == "loss clipped at 4.5: it peaks at 125.3, step 1"


def test_a_curve_that_only_starts_high_is_not_clipped() -> None:
    log = TrainingLog()
    for step, loss in enumerate([4.3, 2.0, 1.0, 0.5, 0.2, 0.1, 0.05, 0.02]):
        log.record(step, loss)
    chart = training_chart(log)
    assert chart.title is None
    assert chart.limits("y") == pytest.approx((0.0, 4.3 * 1.05))


def test_a_log_with_no_finite_loss_still_charts_on_the_unit_axis() -> None:
    log = TrainingLog()
    log.record(0, math.inf)
    log.record(1, math.nan)
    chart = training_chart(log)
    assert chart.limits("y") == pytest.approx((0.0, 1.05))
    assert chart.title is None
