"""Plots of two-dimensional classification data and a classifier's regions.

:func:`plot_moons` scatters the points of :func:`micrograd.datasets.make_moons`
coloured by label; :func:`plot_decision_boundary` shades the plane by what a
trained model predicts at each point of a grid (as the original micrograd
demo does) and draws the data on top.

This module needs matplotlib and NumPy: ``pip install "micrograd-book[plot]"``.
Importing :mod:`micrograd` does not import them.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from micrograd.engine import Value

if TYPE_CHECKING:  # pragma: no cover - only for the type checker
    from matplotlib.axes import Axes

__all__ = ["CLASS_COLOURS", "MAX_GRID_POINTS", "plot_decision_boundary", "plot_moons"]

#: The most grid points :func:`plot_decision_boundary` evaluates the model at.
MAX_GRID_POINTS = 250_000

#: The colour of each class, smaller label first (orange for -1, blue for +1):
#: the points and the region predicted for the class share it.  Okabe and Ito's
#: orange and blue, told apart with every common kind of colour blindness.
CLASS_COLOURS = ("#e69f00", "#0072b2")

_INK = "#1f2328"  # point outlines and the boundary line
_REGION_ALPHA = 0.35


def _imports() -> tuple[Any, Any]:
    """NumPy and matplotlib.pyplot, or an ImportError naming the extra."""
    try:
        import matplotlib.pyplot as plt
        import numpy  # type: ignore[import-not-found, unused-ignore]
    except ImportError as error:
        raise ImportError(
            'micrograd.plot needs matplotlib and numpy: pip install "micrograd-book[plot]"'
        ) from error
    return numpy, plt


def _check_data(np_: Any, X: Any, y: Any) -> tuple[Any, Any]:
    """``X`` as an (n, 2) float array and ``y`` as an (n,) array, or a ValueError."""
    try:
        X_arr = np_.asarray(X, dtype=float)
        y_arr = np_.asarray(y, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"X and y must be arrays of numbers: {error}") from error
    if X_arr.ndim != 2 or X_arr.shape[1] != 2 or X_arr.shape[0] == 0:
        raise ValueError(f"X must have shape (n, 2) with n >= 1, got shape {X_arr.shape}")
    if y_arr.shape != (X_arr.shape[0],):
        raise ValueError(
            f"y must have one label per row of X, shape ({X_arr.shape[0]},); got {y_arr.shape}"
        )
    return X_arr, y_arr


def _new_axes(plt: Any, ax: Axes | None) -> Axes:
    if ax is not None:
        return ax
    new: Axes = plt.subplots(figsize=(5.0, 4.0))[1]
    return new


def _classes(np_: Any, y_arr: Any) -> list[float]:
    """The labels in ``y``, smallest first; at most two (one colour each)."""
    classes: list[float] = sorted({float(v) for v in np_.unique(y_arr)})
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


def _points(ax: Axes, X_arr: Any, y_arr: Any, classes: list[float]) -> list[Any]:
    """The points, each in its class's colour, on labelled axes; returns legend handles."""
    from matplotlib.lines import Line2D

    colour_of = dict(zip(classes, CLASS_COLOURS, strict=False))
    colours = [colour_of[float(v)] for v in y_arr]
    ax.scatter(X_arr[:, 0], X_arr[:, 1], c=colours, s=40, edgecolors=_INK, linewidths=0.5)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    return [
        Line2D(
            [],
            [],
            linestyle="",
            marker="o",
            markersize=6,
            markerfacecolor=colour_of[c],
            markeredgecolor=_INK,
            markeredgewidth=0.5,
            label=name,
        )
        for c, name in zip(classes, _class_names(classes), strict=True)
    ]


def plot_moons(X: Any, y: Any, ax: Axes | None = None) -> Axes:
    """Scatter two-dimensional points coloured by their label, with a legend.

    Parameters
    ----------
    X : array of shape (n, 2)
        The points.
    y : array of shape (n,)
        Their labels (e.g. -1 and +1): at most two different ones, drawn in
        :data:`CLASS_COLOURS` (smaller label first).
    ax : matplotlib Axes, optional
        Where to draw; a new figure (via pyplot) if not given.

    Returns
    -------
    matplotlib.axes.Axes
        With one scatter of all the points, in the order given, and a legend
        naming each class.

    Raises
    ------
    ValueError
        If ``X`` is not of shape (n, 2), ``y`` not of shape (n,), or ``y``
        holds more than two labels.
    ImportError
        If matplotlib or NumPy is missing (``pip install "micrograd-book[plot]"``).
    """
    np_, plt = _imports()
    X_arr, y_arr = _check_data(np_, X, y)
    classes = _classes(np_, y_arr)
    ax = _new_axes(plt, ax)
    handles = _points(ax, X_arr, y_arr, classes)
    ax.legend(handles=handles, loc="best", framealpha=0.9)
    return ax


def _score(model: Callable[[list[Value]], Any], point: list[float]) -> float:
    out = model([Value(point[0]), Value(point[1])])
    if isinstance(out, Value):
        return out.data
    if isinstance(out, numbers.Real) and not isinstance(out, bool):
        return float(out)
    raise TypeError(
        "the model must return one Value (a single score) for a 2-number input, "
        f"got {type(out).__name__}"
    )


def plot_decision_boundary(
    model: Callable[[list[Value]], Any],
    X: Any,
    y: Any,
    ax: Axes | None = None,
    resolution: float = 0.25,
) -> Axes:
    """Shade the plane by the model's prediction, with the data on top.

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
    ax : matplotlib Axes, optional
        Where to draw; a new figure (via pyplot) if not given.
    resolution : float, default 0.25
        The grid spacing (the demo's ``h``).  Smaller is finer and slower:
        the number of forward passes grows as ``1 / resolution**2``.

    Returns
    -------
    matplotlib.axes.Axes
        With the filled regions (a contour set with levels ``[low, 0, high]``),
        the boundary line (when the score changes sign), the scattered
        points and a legend for the points and the regions.

    Raises
    ------
    TypeError
        If ``model`` is not callable or does not return one number, or
        ``resolution`` is not a number.
    ValueError
        If the data have the wrong shape or more than two labels,
        ``resolution`` is not positive, or the grid would exceed
        :data:`MAX_GRID_POINTS` points.
    ImportError
        If matplotlib or NumPy is missing (``pip install "micrograd-book[plot]"``).
    """
    if not callable(model):
        raise TypeError(f"model must be callable, got {type(model).__name__}")
    if isinstance(resolution, bool) or not isinstance(resolution, numbers.Real):
        raise TypeError(f"resolution must be a number, got {type(resolution).__name__}")
    if not 0 < resolution < float("inf"):
        raise ValueError(f"resolution must be a positive number, got {resolution!r}")
    np_, plt = _imports()
    X_arr, y_arr = _check_data(np_, X, y)
    classes = _classes(np_, y_arr)
    x_min, x_max = X_arr[:, 0].min() - 1, X_arr[:, 0].max() + 1
    y_min, y_max = X_arr[:, 1].min() - 1, X_arr[:, 1].max() + 1
    n_points = int((x_max - x_min) / resolution + 1) * int((y_max - y_min) / resolution + 1)
    if n_points > MAX_GRID_POINTS:
        raise ValueError(
            f"resolution {resolution!r} makes a grid of about {n_points} points "
            f"(limit {MAX_GRID_POINTS}); use a larger resolution"
        )
    xx, yy = np_.meshgrid(
        np_.arange(x_min, x_max, float(resolution)), np_.arange(y_min, y_max, float(resolution))
    )
    grid = np_.c_[xx.ravel(), yy.ravel()]
    scores = np_.array([_score(model, [float(a), float(b)]) for a, b in grid]).reshape(xx.shape)
    ax = _new_axes(plt, ax)
    # Two regions, split at score 0: (low, 0] and (0, high].  With a single
    # class the smaller label's colour is not used.
    low = min(float(scores.min()), 0.0) - 1.0
    high = max(float(scores.max()), 0.0) + 1.0
    regions = (CLASS_COLOURS[0], CLASS_COLOURS[1 if len(classes) > 1 else 0])
    ax.contourf(xx, yy, scores, levels=[low, 0.0, high], colors=regions, alpha=_REGION_ALPHA)
    if scores.min() < 0 < scores.max():
        ax.contour(xx, yy, scores, levels=[0.0], colors=_INK, linewidths=1.0)
    point_handles = _points(ax, X_arr, y_arr, classes)
    ax.set_xlim(xx.min(), xx.max())
    ax.set_ylim(yy.min(), yy.max())
    from matplotlib.patches import Patch

    region_handles = [
        Patch(facecolor=colour, alpha=_REGION_ALPHA, edgecolor=_INK, label=f"predicted {name}")
        for name, colour in zip(_class_names(classes), CLASS_COLOURS, strict=False)
    ]
    ax.legend(handles=point_handles + region_handles, loc="best", framealpha=0.9, ncol=2)
    return ax
