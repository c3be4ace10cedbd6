"""Ready-made charts: classification data, a classifier's regions, a training run.

:func:`moons_chart` describes the points of :func:`micrograd.datasets.make_moons`
coloured by label; :func:`decision_boundary_chart` shades the plane by what a
trained model predicts at each point of a grid (as the original micrograd
demo does) and puts the data on top; :func:`training_chart` draws the loss
and accuracy of a :class:`~micrograd.training_log.TrainingLog` against the
step.  They are :class:`~micrograd.viz.chart.Chart` descriptions, made with
the standard library only.  :func:`plot_moons`, :func:`plot_decision_boundary`
and :func:`plot_training` put each in a :class:`~micrograd.viz.chart.Figure`
sized to fit a phone's column, which Jupyter shows, and which matplotlib
draws, saves or turns into SVG (``pip install "micrograd-book[plot]"``).  Any chart can
also be drawn on an Axes of one's own with :func:`micrograd.viz.chart.draw`.
"""

from __future__ import annotations

__all__ = [
    "ACCURACY_COLOUR",
    "CLASS_COLOURS",
    "LOSS_COLOUR",
    "MAX_GRID_POINTS",
    "SPIKE_FACTOR",
    "decision_boundary_chart",
    "moons_chart",
    "plot_decision_boundary",
    "plot_moons",
    "plot_training",
    "training_chart",
]

import math
import numbers
from collections.abc import Callable
from typing import Any

from micrograd.engine import Value
from micrograd.training_log import TrainingLog
from micrograd.viz.chart import Chart, Figure, legend_entry

#: The most grid points :func:`decision_boundary_chart` evaluates the model at.
MAX_GRID_POINTS = 250_000

#: The colour of each class, smaller label first (orange for -1, blue for +1):
#: the points and the region predicted for the class share it.  Okabe and Ito's
#: orange and blue, told apart with every common kind of colour blindness.
CLASS_COLOURS = ("#e69f00", "#0072b2")

#: The colours of the loss and accuracy lines of :func:`training_chart`.
LOSS_COLOUR = "#d62728"
ACCURACY_COLOUR = "#1f77b4"


def _check_data(X: Any, y: Any) -> tuple[list[tuple[float, float]], list[float]]:
    """``X`` as a list of (x1, x2) and ``y`` as a list of labels, or a clear error."""
    try:
        rows = [list(row) for row in X]
        labels = list(y)
    except TypeError as error:
        raise TypeError(f"X and y must be arrays of numbers: {error}") from error
    if not rows or any(len(row) != 2 for row in rows):
        shape = (len(rows), len(rows[0])) if rows else (0,)
        raise ValueError(f"X must have shape (n, 2) with n >= 1, got shape {shape}")
    if len(labels) != len(rows):
        raise ValueError(
            f"y must have one label per row of X, shape ({len(rows)},); got ({len(labels)},)"
        )
    for value in [v for row in rows for v in row] + labels:
        if isinstance(value, (bool, str, bytes)) or not isinstance(value, numbers.Real):
            raise TypeError(
                f"X and y must be arrays of numbers: got {type(value).__name__} {value!r}"
            )
    return [(float(a), float(b)) for a, b in rows], [float(v) for v in labels]


def _classes(labels: list[float]) -> list[float]:
    """The labels in ``y``, smallest first; at most two (one colour each)."""
    classes = sorted(set(labels))
    if len(classes) > len(CLASS_COLOURS):
        raise ValueError(
            f"y must hold at most {len(CLASS_COLOURS)} classes (one colour each), "
            f"got {len(classes)}: {classes}"
        )
    return classes


def _class_names(classes: list[float]) -> list[str]:
    """``class -1``, ``class +1`` when some label is negative, else ``class 0``, ``class 1``."""
    signed = any(c < 0 for c in classes)
    return [f"class {c:+g}" if signed else f"class {c:g}" for c in classes]


def _points(chart: Chart, points: list[tuple[float, float]], labels: list[float]) -> None:
    """The points, each in its class's colour, on labelled axes, with a legend entry per class."""
    classes = _classes(labels)
    colour_of = dict(zip(classes, CLASS_COLOURS, strict=False))
    chart.points([a for a, _ in points], [b for _, b in points], [colour_of[v] for v in labels])
    chart.x_label, chart.y_label = "x\u2081", "x\u2082"
    chart.legend_extra += [
        legend_entry(name, colour_of[c], "point")
        for c, name in zip(classes, _class_names(classes), strict=True)
    ]


def moons_chart(X: Any, y: Any) -> Chart:
    """Two-dimensional points coloured by their label, with a legend, as a chart.

    Parameters
    ----------
    X : array of shape (n, 2)
        The points (a list of pairs, or a NumPy array).
    y : array of shape (n,)
        Their labels (e.g. -1 and +1): at most two different ones, drawn in
        :data:`CLASS_COLOURS` (smaller label first).

    Returns
    -------
    Chart
        One set of points, in the order given, axes labelled x₁ and x₂, and a
        legend naming each class.

    Raises
    ------
    TypeError
        If ``X`` or ``y`` holds something other than numbers.
    ValueError
        If ``X`` is not of shape (n, 2), ``y`` not of shape (n,), or ``y``
        holds more than two labels.
    """
    points, labels = _check_data(X, y)
    chart = Chart()
    _points(chart, points, labels)
    return chart


def plot_moons(X: Any, y: Any) -> Figure:
    """Two-dimensional points coloured by their label, with a legend, as a figure.

    Parameters
    ----------
    X : array of shape (n, 2)
        The points.
    y : array of shape (n,)
        Their labels (e.g. -1 and +1): at most two different ones.

    Returns
    -------
    Figure
        :func:`moons_chart`, 5 by 4 inches.

    Raises
    ------
    TypeError, ValueError
        As :func:`moons_chart`.
    """
    return Figure([moons_chart(X, y)])


def _score(model: Callable[[list[Value]], Any], point: tuple[float, float]) -> float:
    out = model([Value(point[0]), Value(point[1])])
    if isinstance(out, Value):
        return out.data
    if isinstance(out, numbers.Real) and not isinstance(out, bool):
        return float(out)
    raise TypeError(
        "the model must return one Value (a single score) for a 2-number input, "
        f"got {type(out).__name__}"
    )


def _grid(low: float, high: float, step: float) -> list[float]:
    """``low``, ``low + step``, ... below ``high`` (NumPy's ``arange``)."""
    return [low + i * step for i in range(math.ceil((high - low) / step))]


def decision_boundary_chart(
    model: Callable[[list[Value]], Any], X: Any, y: Any, resolution: float = 0.25
) -> Chart:
    """The plane shaded by the model's prediction, with the data on top, as a chart.

    As in the original micrograd demo: a grid with spacing ``resolution``
    covers the data with a margin of 1 on each side, and the model scores
    every grid point (a forward pass of :class:`~micrograd.engine.Value`
    objects).  The plane is filled where the score is > 0 in the colour of
    the larger label (``+1``), and where it is <= 0 in the colour of the
    smaller one, the same colours as the points.  The boundary between them,
    drawn as a line, is where the score, interpolated between grid points,
    crosses 0: it is smooth even on a coarse grid.

    Parameters
    ----------
    model : callable
        Takes a list of two Values and returns one Value (e.g.
        ``MLP(2, [16, 16, 1])``).
    X : array of shape (n, 2)
        The points.
    y : array of shape (n,)
        Their labels (e.g. -1 and +1); at most two different ones.
    resolution : float, default 0.25
        The grid spacing (the demo's ``h``).  Smaller is finer and slower:
        the number of forward passes grows as ``1 / resolution**2``.

    Returns
    -------
    Chart
        The regions (with the boundary line when the score changes sign),
        the points, axes limited to the grid, and a legend for the points
        and the regions.

    Raises
    ------
    TypeError
        If ``model`` is not callable or does not return one number, or
        ``resolution`` is not a number.
    ValueError
        If the data have the wrong shape or more than two labels,
        ``resolution`` is not positive, or the grid would exceed
        :data:`MAX_GRID_POINTS` points.
    """
    if not callable(model):
        raise TypeError(f"model must be callable, got {type(model).__name__}")
    if isinstance(resolution, bool) or not isinstance(resolution, numbers.Real):
        raise TypeError(f"resolution must be a number, got {type(resolution).__name__}")
    if not 0 < resolution < float("inf"):
        raise ValueError(f"resolution must be a positive number, got {resolution!r}")
    points, labels = _check_data(X, y)
    classes = _classes(labels)
    x_min, x_max = min(a for a, _ in points) - 1, max(a for a, _ in points) + 1
    y_min, y_max = min(b for _, b in points) - 1, max(b for _, b in points) + 1
    n_points = int((x_max - x_min) / resolution + 1) * int((y_max - y_min) / resolution + 1)
    if n_points > MAX_GRID_POINTS:
        raise ValueError(
            f"resolution {resolution!r} makes a grid of about {n_points} points "
            f"(limit {MAX_GRID_POINTS}); use a larger resolution"
        )
    xs = _grid(x_min, x_max, float(resolution))
    ys = _grid(y_min, y_max, float(resolution))
    scores = [[_score(model, (a, b)) for a in xs] for b in ys]
    # Two regions, split at score 0.  With a single class the smaller label's colour is not used.
    above = CLASS_COLOURS[1 if len(classes) > 1 else 0]
    # The legend below the plane: its four entries, two abreast, are wider than the axes of
    # a figure a phone's column wide, and inside them they would cover the tick labels.
    chart = Chart(
        legend="below", legend_columns=2, x_range=(xs[0], xs[-1]), y_range=(ys[0], ys[-1])
    )
    chart.regions(xs, ys, scores, below=CLASS_COLOURS[0], above=above)
    _points(chart, points, labels)
    alpha = chart.marks[0]["alpha"]  # a patch in the legend is shaded as the regions are
    chart.legend_extra += [
        legend_entry(f"predicted {name}", colour, "patch", alpha=alpha)
        for name, colour in zip(_class_names(classes), CLASS_COLOURS, strict=False)
    ]
    return chart


def plot_decision_boundary(
    model: Callable[[list[Value]], Any], X: Any, y: Any, resolution: float = 0.25
) -> Figure:
    """The plane shaded by the model's prediction, with the data on top, as a figure.

    Parameters
    ----------
    model : callable
        Takes a list of two Values and returns one Value.
    X : array of shape (n, 2)
        The points.
    y : array of shape (n,)
        Their labels (e.g. -1 and +1); at most two different ones.
    resolution : float, default 0.25
        The grid spacing (the demo's ``h``).

    Returns
    -------
    Figure
        :func:`decision_boundary_chart`, 5 by 4 inches.  matplotlib draws
        its regions as a contour set with levels ``[low, 0, high]`` and the
        boundary (when the score changes sign) as the contour at 0.

    Raises
    ------
    TypeError, ValueError
        As :func:`decision_boundary_chart`.
    """
    return Figure([decision_boundary_chart(model, X, y, resolution)])


def training_chart(log: TrainingLog, title: str | None = None) -> Chart:
    """Loss and accuracy against the step, on one axis, as a chart.

    Both usually live between 0 and 1 (a loss can start above 1), so one
    y axis serves both: from 0 (or the lowest loss, if negative) to 5 %
    above the highest loss or 1.  A loss drawn alone that stays far from 0
    (its lowest above :data:`FIT_BELOW` of its highest: a language model's
    falling from 3.4 to 2.2, say) would be a flat line at the top of such an
    axis: its axis fits the curve instead, 5 % of its span beyond each end.
    A spike (a loss more than :data:`SPIKE_FACTOR` times the loss's usual level, three times its
    upper quartile or 1, whichever is more) would squash the rest of the
    curve flat: the axis then stops at that usual level, the curve is clipped
    there, and the title says so, with the peak's loss and step.

    Parameters
    ----------
    log : TrainingLog
        The run.
    title : str, optional
        The chart's title.

    Returns
    -------
    Chart
        With a ``"loss"`` line (:data:`LOSS_COLOUR`), an ``"accuracy"`` line
        (:data:`ACCURACY_COLOUR`) if any row has an accuracy, axis labels (the
        loss's is the log's ``loss_label``),
        whole-number steps, a grid and a legend.

    Raises
    ------
    TypeError
        If ``log`` is not a TrainingLog.
    ValueError
        If the log has no rows.
    """
    if not isinstance(log, TrainingLog):
        raise TypeError(f"log must be a TrainingLog, got {type(log).__name__}")
    if not log.rows:
        raise ValueError("the log has no rows to plot")
    acc_points = [(row.step, row.accuracy) for row in log.rows if row.accuracy is not None]
    finite = [row.loss for row in log.rows if math.isfinite(row.loss)]
    top = max([1.0, *finite])
    usual = _usual_level(finite)
    if top > SPIKE_FACTOR * usual:
        peak = max((row for row in log.rows if math.isfinite(row.loss)), key=lambda r: r.loss)
        clipped = f"loss clipped at {usual:.3g}: it peaks at {peak.loss:.4g}, step {peak.step}"
        title = clipped if title is None else f"{title}\n({clipped})"
        top = usual
    y_range = (min(0.0, *finite) if finite else 0.0, top * 1.05)
    if finite and not acc_points:
        high = min(top, max(finite))
        low = min(finite)
        if low > FIT_BELOW * high:
            margin = (high - low) * 0.05 or high * 0.05
            y_range = (low - margin, high + margin)
    chart = Chart(
        title=title,
        x_label="step",
        y_label=f"{log.loss_label}, accuracy" if acc_points else log.loss_label,
        integer_x=True,
        grid=True,
        y_range=y_range,
    )
    chart.line(log.column("step"), log.column("loss"), label="loss", colour=LOSS_COLOUR)
    if acc_points:
        chart.line(
            [step for step, _ in acc_points],
            [acc for _, acc in acc_points],
            label="accuracy",
            colour=ACCURACY_COLOUR,
        )
    return chart


#: How far above the loss's usual level a spike may reach before the axis clips it.
SPIKE_FACTOR = 10.0
#: A loss drawn alone gets an axis that fits it, not one from 0, when its lowest value is
#: above this share of its highest: from 0, it would be a nearly flat line.
FIT_BELOW = 0.5


def _usual_level(losses: list[float]) -> float:
    """Three times the losses' upper quartile, or 1 if that is more: where a curve lives."""
    if not losses:
        return 1.0
    ordered = sorted(losses)
    upper_quartile = ordered[(3 * (len(ordered) - 1)) // 4]
    return max(1.0, 3.0 * upper_quartile)


def plot_training(log: TrainingLog, title: str | None = None) -> Figure:
    """Loss and accuracy against the step, on one axis, as a figure.

    Parameters
    ----------
    log : TrainingLog
        The run.
    title : str, optional
        The chart's title.

    Returns
    -------
    Figure
        :func:`training_chart`, 3.5 by 2.5 inches.

    Raises
    ------
    TypeError, ValueError
        As :func:`training_chart`.
    """
    return Figure([training_chart(log, title)])
