"""Charts as data, and figures of them that matplotlib draws.

A :class:`Chart` is one set of axes described in plain Python: its marks
(lines, points, horizontal rules, regions split by a score's sign), its axis
labels, limits, ticks and tick labels, its title and its legend, every colour
spelled out.  A :class:`Figure` is one or more charts, one under the other, with a
size in inches.  Both are plain data (:meth:`Chart.to_json`,
:meth:`Figure.to_json`), so any renderer can draw them and draw the same
picture: the same data, axes, ticks, legend and colours.

matplotlib is one such renderer: :func:`draw` draws a chart on a matplotlib
Axes, and :meth:`Figure.draw` makes a new matplotlib figure of stacked axes
(without pyplot: it opens no window and leaves pyplot's list of figures
alone), which :meth:`Figure.to_svg` and :meth:`Figure.save` turn into SVG or
PNG.  In Jupyter a Figure shows itself as that SVG.  Drawing needs
matplotlib (``pip install "micrograd-book[plot]"``, else an ImportError says
so); describing charts and figures needs only the standard library.

Examples
--------
>>> chart = Chart(title="two lines", x_label="step", y_label="loss")
>>> chart.line([0, 1, 2], [1.0, 0.5, 0.25], label="loss", colour="#d62728")
>>> chart.rule(0.5, dashed=True)
>>> [entry["label"] for entry in chart.legend_entries()]
['loss']
>>> chart.limits("x"), chart.limits("y")
((-0.1, 2.1), (0.2125, 1.0375))
>>> Figure([chart])
<Figure: 1 chart, 3.5 x 2.5 in>
>>> Figure([chart, chart], size=(4.8, 5.6)).to_json()["size"]
[4.8, 5.6]
"""

from __future__ import annotations

__all__ = [
    "PALETTE",
    "Chart",
    "Figure",
    "draw",
    "legend_entry",
]

import errno
import io
import math
import numbers
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from micrograd.engine import Value

if TYPE_CHECKING:  # pragma: no cover - only for the type checker
    import matplotlib.figure
    from matplotlib.axes import Axes


#: The colours a line gets when none is given, in order (matplotlib's first six).
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")

#: Where a legend may go: inside the axes ("best" lets matplotlib choose), or below them.
LEGEND_PLACES = ("best", "upper right", "center right", "lower left", "below")

_INK = "#1f2328"  # outlines, rules and boundaries
_MARGIN = 0.05  # the share of the data's range added on each side (matplotlib's default)


def _numbers(name: str, values: Any) -> list[float]:
    """``values`` as a list of floats (a Value's ``data`` is taken), or a TypeError."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a list of numbers, got {type(values).__name__}")
    try:
        items = list(values)
    except TypeError:
        raise TypeError(f"{name} must be a list of numbers, got {type(values).__name__}") from None
    out = []
    for i, v in enumerate(items):
        data = v.data if isinstance(v, Value) else v
        if isinstance(data, bool) or not isinstance(data, numbers.Real):
            raise TypeError(f"{name}[{i}] must be a number, got {type(v).__name__} {v!r}")
        out.append(float(data))
    return out


def _colour(name: str, colour: object) -> str:
    if not isinstance(colour, str) or not colour.startswith("#") or len(colour) not in (4, 7):
        raise ValueError(f"{name} must be a colour like '#1f77b4', got {colour!r}")
    return colour


def legend_entry(
    label: str, colour: str, shape: str = "line", dashed: bool = False, alpha: float = 1.0
) -> dict[str, Any]:
    """One entry of a legend, as the description holds it: its text and how its swatch looks.

    ``shape`` is ``"line"``, ``"point"`` or ``"patch"``; ``alpha`` is the
    patch's opacity; ``dashed`` is for a line.  Every swatch is outlined in ink.
    """
    return dict(label=label, colour=colour, shape=shape, dashed=dashed, alpha=alpha, edge=_INK)


@dataclass
class Chart:
    """One set of axes, described as data.

    Parameters
    ----------
    title : str, optional
        Shown above the axes.
    x_label, y_label : str, optional
        The axes' labels.
    integer_x : bool, default False
        Ticks on the x axis at whole numbers only (steps, say).
    grid : bool, default False
        Light grid lines at the ticks.
    legend : {"best", "upper right", "center right", "lower left", "below"}, default "best"
        Where the legend goes: inside the axes, or below them.
    legend_columns : int, default 1
        How many columns the legend has.
    x_range, y_range : (float, float), optional
        The axes' limits; by default the data's range and 5 % on each side.

    Attributes
    ----------
    marks : list of dict
        What is drawn, in order (later over earlier), each mark a dict as
        :meth:`to_json` gives it to every renderer, its ``"kind"`` one of:

        * ``"line"``: a line through ``(x[i], y[i])`` in ``colour``, with an
          optional ``label``, solid or ``dashed``, ``width`` points wide;
        * ``"rule"``: a horizontal line across the whole chart at height ``y``;
        * ``"points"``: dots at ``(x[i], y[i])``, each filled with
          ``colours[i]``, ``size`` points across, outlined in ``edge``;
        * ``"regions"``: the plane split where a score crosses 0.
          ``scores[j][i]`` is the score at ``(xs[i], ys[j])``, a grid; between
          grid points the score is interpolated linearly, so the split is a
          smooth curve.  ``below`` fills where the score is <= 0, ``above``
          where it is > 0, at opacity ``alpha``; ``boundary`` (a colour, or
          None) draws the line where it crosses 0.

        The methods :meth:`line`, :meth:`rule`, :meth:`points` and
        :meth:`regions` check and add them.
    legend_extra : list of dict
        Legend entries (:func:`legend_entry`) besides the labelled lines
        (classes of points, regions).
    """

    title: str | None = None
    x_label: str = ""
    y_label: str = ""
    integer_x: bool = False
    grid: bool = False
    legend: str = "best"
    legend_columns: int = 1
    x_range: tuple[float, float] | None = None
    y_range: tuple[float, float] | None = None
    marks: list[dict[str, Any]] = field(default_factory=list)
    legend_extra: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.legend not in LEGEND_PLACES:
            raise ValueError(
                f"legend must be one of {', '.join(LEGEND_PLACES)}; got {self.legend!r}"
            )
        for name in ("x_range", "y_range"):
            limits = getattr(self, name)
            if limits is not None:
                low, high = _numbers(name, list(limits))
                if not low < high:
                    raise ValueError(f"{name} must go from low to high, got {limits!r}")
                setattr(self, name, (low, high))

    # -- adding marks -----------------------------------------------------------------------
    # Each mark's keys are in the order the book's recorded descriptions have them.

    def line(
        self,
        x: Sequence[float],
        y: Sequence[float],
        label: str | None = None,
        colour: str | None = None,
        dashed: bool = False,
    ) -> None:
        """Add a line through ``(x[i], y[i])``; without a colour, the next of :data:`PALETTE`."""
        xs, ys = _numbers("x", x), _numbers("y", y)
        if len(xs) != len(ys):
            raise ValueError(f"x and y must have the same length, got {len(xs)} and {len(ys)}")
        if colour is None:
            used = sum(mark["kind"] == "line" for mark in self.marks)
            colour = PALETTE[used % len(PALETTE)]
        line = dict(x=xs, y=ys, colour=_colour("colour", colour), label=label, dashed=bool(dashed))
        self.marks.append(line | {"width": 1.5, "kind": "line"})

    def rule(self, y: float, colour: str = "#57606a", dashed: bool = True) -> None:
        """Add a horizontal line across the chart at height ``y``, 1 point wide."""
        (value,) = _numbers("y", [y])
        colour = _colour("colour", colour)
        self.marks.append(dict(y=value, colour=colour, dashed=bool(dashed), width=1.0, kind="rule"))

    def points(self, x: Sequence[float], y: Sequence[float], colours: Sequence[str]) -> None:
        """Add dots at ``(x[i], y[i])``, dot ``i`` filled with ``colours[i]``.

        Each is 6.3 points across (matplotlib's ``s=40``) and outlined in ink.
        """
        xs, ys = _numbers("x", x), _numbers("y", y)
        fills = [_colour(f"colours[{i}]", c) for i, c in enumerate(colours)]
        if not len(xs) == len(ys) == len(fills):
            lengths = f"{len(xs)}, {len(ys)}, {len(fills)}"
            raise ValueError(f"x, y and colours must have the same length, got {lengths}")
        self.marks.append(dict(x=xs, y=ys, colours=fills, size=6.3, edge=_INK, kind="points"))

    def regions(
        self,
        xs: Sequence[float],
        ys: Sequence[float],
        scores: Sequence[Sequence[float]],
        below: str,
        above: str,
    ) -> None:
        """Add the plane split where a score on a grid crosses 0 (see :attr:`marks`).

        The sides are filled at opacity 0.35; the boundary line is drawn only
        where the score changes sign.
        """
        gx, gy = _numbers("xs", xs), _numbers("ys", ys)
        rows = [_numbers(f"scores[{j}]", row) for j, row in enumerate(scores)]
        if (
            len(gx) < 2
            or len(gy) < 2
            or len(rows) != len(gy)
            or any(len(r) != len(gx) for r in rows)
        ):
            raise ValueError(
                "scores must be a grid of at least 2 x 2: one row per y, one score per x"
            )
        low = min(min(row) for row in rows)
        high = max(max(row) for row in rows)
        colours = dict(below=_colour("below", below), above=_colour("above", above))
        boundary = _INK if low < 0 < high else None
        grid = dict(xs=gx, ys=gy, scores=rows, **colours)
        self.marks.append(grid | {"alpha": 0.35, "boundary": boundary, "kind": "regions"})

    # -- what the renderers need ----------------------------------------------------------

    def legend_entries(self) -> list[dict[str, Any]]:
        """The legend: each labelled line, then :attr:`legend_extra`."""
        lines = [
            legend_entry(mark["label"], mark["colour"], "line", mark["dashed"])
            for mark in self.marks
            if mark["kind"] == "line" and mark["label"]
        ]
        return lines + list(self.legend_extra)

    def limits(self, axis: str) -> tuple[float, float]:
        """The ``"x"`` or ``"y"`` axis's limits: its range if given, else the data's and 5 % on
        each side."""
        given: tuple[float, float] | None = getattr(self, f"{axis}_range")
        if given is not None:
            return given
        return _padded([v for mark in self.marks for v in _extent(mark, axis)])

    def ticks(self, axis: str) -> list[float]:
        """Where the ``"x"`` or ``"y"`` axis has ticks: round numbers (whole ones on an
        ``integer_x`` axis)."""
        return _ticks(*self.limits(axis), integer=axis == "x" and self.integer_x)

    def describe(self) -> str:
        """A text alternative: what the chart shows, in a sentence or two."""
        parts = []
        for mark in self.marks:
            if mark["kind"] == "line" and mark["x"]:
                name = mark["label"] or "a line"
                parts.append(
                    f"{name}: {len(mark['x'])} points, from {mark['y'][0]:.4g} at "
                    f"{mark['x'][0]:g} to {mark['y'][-1]:.4g} at {mark['x'][-1]:g}"
                )
            elif mark["kind"] == "points":
                parts.append(f"{len(mark['x'])} points")
            elif mark["kind"] == "regions":
                parts.append("the plane shaded by the sign of the score")
            elif mark["kind"] == "rule":
                parts.append(f"a rule at {mark['y']:g}")
        legend = ", ".join(entry["label"] for entry in self.legend_entries())
        title = f"Chart {self.title!r}" if self.title else "Chart"
        axes = f"x: {self.x_label or 'x'}, y: {self.y_label or 'y'}"
        return (
            f"{title} ({axes}): " + "; ".join(parts) + (f". Legend: {legend}." if legend else ".")
        )

    def to_json(self) -> dict[str, Any]:
        """The chart as JSON-ready data, limits, ticks and the ticks' labels included.

        The one description every renderer draws: :func:`draw` (matplotlib) and
        the book's browser alike.
        """
        data = asdict(self)
        data["x_range"], data["y_range"] = self.limits("x"), self.limits("y")
        data["x_ticks"], data["y_ticks"] = self.ticks("x"), self.ticks("y")
        data["x_tick_labels"] = _tick_labels(data["x_ticks"])
        data["y_tick_labels"] = _tick_labels(data["y_ticks"])
        data["legend_entries"] = [dict(entry) for entry in self.legend_entries()]
        del data["legend_extra"]
        data["description"] = self.describe()
        return data


def _extent(mark: dict[str, Any], axis: str) -> list[float]:
    """The values a mark covers on the ``"x"`` or ``"y"`` axis (a grid's ends, a rule's height)."""
    if mark["kind"] == "regions":
        return [mark[f"{axis}s"][0], mark[f"{axis}s"][-1]]
    if mark["kind"] == "rule":
        return [mark["y"]] if axis == "y" else []
    return mark[axis]  # type: ignore[no-any-return]


def _padded(values: list[float]) -> tuple[float, float]:
    """The range of the finite ``values`` with 5 % on each side ((0, 1) if there are none)."""
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return 0.0, 1.0
    low, high = min(finite), max(finite)
    if low == high:
        return low - 0.5, high + 0.5
    pad = _MARGIN * (high - low)
    return low - pad, high + pad


def _ticks(low: float, high: float, integer: bool) -> list[float]:
    """Round numbers from ``low`` to ``high``: at most 8, 1, 2, 2.5 or 5 times a power of 10 apart.

    With ``integer``, whole numbers only (no step of 2.5, none below 1).
    """
    raw = (high - low) / 8
    power = 10 ** math.floor(math.log10(raw))
    multiples = (1, 2, 5, 10) if integer else (1, 2, 2.5, 5, 10)
    step = next(m * power for m in multiples if m * power >= raw)
    if integer:
        step = max(1.0, step)
    ticks = []
    k = math.ceil(low / step - 1e-9)
    while k * step <= high + 1e-9 * step:
        ticks.append(round(k * step, 12) + 0.0)  # + 0.0: no -0.0
        k += 1
    return ticks


def _tick_labels(ticks: list[float]) -> list[str]:
    """The ticks' labels, the same in every renderer: as matplotlib writes them (as many
    decimals each as the tick that needs the most, and a true minus sign), but never with
    an offset or a power of ten apart, which the browser's axes could not show."""
    # _ticks rounds to 12 decimals, so 12 are exact.
    decimals = max((len(f"{t:.12f}".rstrip("0").partition(".")[2]) for t in ticks), default=0)
    return [f"{t:.{decimals}f}".replace("-", "\u2212") for t in ticks]


# -- drawing --------------------------------------------------------------------------------


def draw(chart: Chart, ax: Axes) -> Axes:
    """Draw ``chart`` on a matplotlib Axes, its legend too: in the axes, or, for a legend
    that goes ``"below"``, under the figure that holds them.

    It draws the chart's description (:meth:`Chart.to_json`), the one the
    book's browser draws too.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.
    """
    data = chart.to_json()
    for mark in data["marks"]:
        style = "--" if mark.get("dashed") else "-"
        if mark["kind"] == "regions":
            _draw_regions(ax, mark)
        elif mark["kind"] == "line":
            look = {"color": mark["colour"], "linewidth": mark["width"], "label": mark["label"]}
            ax.plot(mark["x"], mark["y"], style, **look)
        elif mark["kind"] == "rule":
            ax.axhline(mark["y"], color=mark["colour"], linestyle=style, linewidth=mark["width"])
        else:
            size = mark["size"] ** 2  # matplotlib sizes a marker by its area
            look = {"c": mark["colours"], "s": size, "edgecolors": mark["edge"], "linewidths": 0.5}
            ax.scatter(mark["x"], mark["y"], **look)
    ax.set_xlim(*data["x_range"])
    ax.set_ylim(*data["y_range"])
    ax.set_xticks(data["x_ticks"], data["x_tick_labels"])
    ax.set_yticks(data["y_ticks"], data["y_tick_labels"])
    ax.set_xlabel(data["x_label"])
    ax.set_ylabel(data["y_label"])
    if data["grid"]:
        ax.grid(True, alpha=0.3)
    if data["title"] is not None:
        ax.set_title(data["title"])
    handles = _legend_handles(data["legend_entries"])
    columns = data["legend_columns"]
    if handles and data["legend"] == "below":
        ax.figure.legend(handles=handles, loc="outside lower center", ncol=columns)
    elif handles:
        ax.legend(handles=handles, loc=data["legend"], framealpha=0.9, ncol=columns)
    return ax


def _draw_regions(ax: Axes, mark: dict[str, Any]) -> None:
    """The two filled sides of the score's 0, and the boundary line between them."""
    grid = (mark["xs"], mark["ys"], mark["scores"])
    low = min(min(min(row) for row in mark["scores"]), 0.0) - 1.0
    high = max(max(max(row) for row in mark["scores"]), 0.0) + 1.0
    colours = [mark["below"], mark["above"]]
    ax.contourf(*grid, levels=[low, 0.0, high], colors=colours, alpha=mark["alpha"])
    if mark["boundary"] is not None:
        ax.contour(*grid, levels=[0.0], colors=mark["boundary"], linewidths=1.0)


def _legend_handles(entries: list[dict[str, Any]]) -> list[Any]:
    """matplotlib's legend handles for a chart's legend entries: a patch, a dot or a line."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    def handle(entry: dict[str, Any]) -> Any:
        look: dict[str, Any] = {"label": entry["label"]}
        colour, edge = entry["colour"], entry["edge"]
        if entry["shape"] == "patch":
            return Patch(facecolor=colour, alpha=entry["alpha"], edgecolor=edge, **look)
        if entry["shape"] == "point":
            look |= {"marker": "o", "markersize": 6, "markeredgewidth": 0.5, "linestyle": ""}
            return Line2D([], [], markerfacecolor=colour, markeredgecolor=edge, **look)
        return Line2D([], [], color=colour, linestyle="--" if entry["dashed"] else "-", **look)

    return [handle(entry) for entry in entries]


# -- figures ------------------------------------------------------------------------------------

#: The width of a figure whose size is not given, in inches: it fits a phone's column
#: (358 CSS px at 390 px wide) at its own size, so that a phone shows its 10 pt labels
#: at 13 px, not shrunk with the picture.
DEFAULT_WIDTH = 3.5
#: Its height per chart, in inches: taller for a chart of points (a plane, not a curve).
DEFAULT_HEIGHT = 2.5
DEFAULT_HEIGHT_WITH_POINTS = 2.8
#: The resolution of a saved PNG, in dots per inch.
PNG_DPI = 100


def _matplotlib_figure(size: tuple[float, float]) -> matplotlib.figure.Figure:
    """A new, empty matplotlib figure of ``size`` inches, made without pyplot."""
    try:
        from matplotlib.figure import Figure as MatplotlibFigure
    except ImportError as error:
        raise ImportError(
            "drawing a chart needs matplotlib: pip install matplotlib "
            "(the plot extra of micrograd-book brings it)"
        ) from error
    return MatplotlibFigure(figsize=size, layout="constrained")


def _checked_charts(charts: object) -> tuple[Chart, ...]:
    """``charts`` as a tuple of one or more Charts, or a TypeError that says what is wrong."""
    if isinstance(charts, Chart):
        raise TypeError("charts must be a list of Chart objects (Figure([chart]) for one chart)")
    if isinstance(charts, (str, bytes)) or not isinstance(charts, Sequence):
        raise TypeError(f"charts must be a list of Chart objects, got {type(charts).__name__}")
    if not charts:
        raise ValueError("charts must hold one or more Chart objects, got none")
    for i, chart in enumerate(charts):
        if not isinstance(chart, Chart):
            raise TypeError(f"charts[{i}] must be a Chart, got {type(chart).__name__} {chart!r}")
    return tuple(charts)


def _checked_size(size: object, charts: tuple[Chart, ...]) -> tuple[float, float]:
    """``size`` as (width, height) in inches; by default 3.5 wide, 2.5 (or 2.8) high per chart."""
    if size is None:
        points = any(mark["kind"] == "points" for chart in charts for mark in chart.marks)
        per_chart = DEFAULT_HEIGHT_WITH_POINTS if points else DEFAULT_HEIGHT
        return DEFAULT_WIDTH, per_chart * len(charts)
    if isinstance(size, (str, bytes)) or not isinstance(size, Sequence) or len(size) != 2:
        raise TypeError(f"size must be (width, height) in inches, got {size!r}")
    width, height = _numbers("size", size)
    if not (0 < width < math.inf and 0 < height < math.inf):
        raise ValueError(f"size must be two positive numbers of inches, got {size!r}")
    return width, height


class Figure:
    """One or more charts, one under the other, with a size in inches.

    Plain data, like its charts: :meth:`to_json` is all a renderer needs.
    matplotlib draws it (:meth:`draw`, :meth:`to_svg`, :meth:`save`): one set
    of axes per chart, sharing the x axis when there are several, in a
    figure of :attr:`size` with ``constrained`` layout; a chart whose legend
    goes ``"below"`` gets it under the figure.  In Jupyter it shows itself as
    :meth:`to_svg`.

    Parameters
    ----------
    charts : list of Chart
        One or more charts, top to bottom.
    size : (float, float), optional
        Width and height in inches; default 3.5 wide (a phone's column) and 2.5
        high per chart (2.8 for a chart with points).

    Raises
    ------
    TypeError
        If ``charts`` is not a list of Charts, or ``size`` is not a pair of numbers.
    ValueError
        If ``charts`` is empty, or a width or height is not a positive number.
    """

    def __init__(self, charts: Sequence[Chart], size: tuple[float, float] | None = None) -> None:
        self._charts = _checked_charts(charts)
        self._size = _checked_size(size, self._charts)

    @property
    def charts(self) -> tuple[Chart, ...]:
        """The charts, from the top."""
        return self._charts

    @property
    def size(self) -> tuple[float, float]:
        """Width and height, in inches."""
        return self._size

    def __repr__(self) -> str:
        count = len(self.charts)
        width, height = self.size
        return f"<Figure: {count} chart{'' if count == 1 else 's'}, {width} x {height} in>"

    def to_json(self) -> dict[str, Any]:
        """The figure as JSON-ready data: ``{"size": [w, h], "charts": [...]}``.

        Each chart as :meth:`Chart.to_json` gives it, in order from the top.
        """
        return {"size": list(self.size), "charts": [chart.to_json() for chart in self.charts]}

    def draw(self) -> matplotlib.figure.Figure:
        """A new matplotlib figure of the charts (made without pyplot).

        Raises
        ------
        ImportError
            If matplotlib is missing (``pip install "micrograd-book[plot]"``).
        """
        figure = _matplotlib_figure(self.size)
        many = len(self.charts) > 1
        axes = figure.subplots(len(self.charts), 1, sharex=many, squeeze=False)
        for chart, ax in zip(self.charts, axes[:, 0], strict=True):
            draw(chart, ax)
        return figure

    def to_svg(self) -> str:
        """The figure as an SVG document, cropped to what it draws.

        The same bytes as Jupyter's inline backend gives for the same
        figure with ``bbox_inches="tight"`` and no date in the metadata.  It
        follows matplotlib's settings (``rcParams``) as the caller has them;
        set ``svg.hashsalt`` for the same ids on every run.

        Raises
        ------
        ImportError
            If matplotlib is missing (``pip install "micrograd-book[plot]"``).
        """
        return self._print("svg", metadata={"Date": None}).decode("utf-8")

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the figure to ``path``: SVG (:meth:`to_svg`) or PNG at 100 dpi, by its suffix.

        Only the file is written: its folder must exist.

        Returns
        -------
        pathlib.Path
            ``path``.

        Raises
        ------
        ValueError
            If ``path`` ends in neither ``.svg`` nor ``.png``.
        OSError
            If the file cannot be written (no such folder, no permission); the
            message names the file and the reason.
        ImportError
            If matplotlib is missing (``pip install "micrograd-book[plot]"``).
        """
        target = Path(path)
        kind = target.suffix.lower()
        if kind not in (".svg", ".png"):
            raise ValueError(f"a figure is saved as .svg or .png, not {target.name!r}")
        if kind == ".svg":
            data = self.to_svg().encode("utf-8")
        else:
            data = self._print("png", dpi=PNG_DPI, metadata={"Software": None})
        try:
            target.write_bytes(data)
        except OSError as error:
            reason = error.strerror or type(error).__name__
            if error.errno == errno.ENOENT and not target.parent.is_dir():
                reason = f"there is no folder {target.parent}"
            raise OSError(error.errno, f"cannot save the figure to {target}: {reason}") from error
        return target

    def _repr_svg_(self) -> str:
        """How Jupyter shows a figure: :meth:`to_svg`."""
        return self.to_svg()

    def _print(self, file_format: str, dpi: float | None = None, **options: Any) -> bytes:
        """:meth:`draw`, printed as the inline backend prints a figure (``bbox_inches="tight"``)."""
        figure = self.draw()
        # Constrained layout refines the axes' positions from wherever they are, so
        # the printed numbers depend on whether the figure was laid out before.  In
        # Jupyter, pyplot lays out (draws) a cell's figures when the cell ends, before
        # the inline backend prints them: laid out once here too, a Figure prints the
        # bytes Jupyter prints for the same figure made with pyplot.
        figure.draw_without_rendering()
        buffer = io.BytesIO()
        figure.canvas.print_figure(
            buffer,
            format=file_format,
            facecolor=figure.get_facecolor(),
            edgecolor=figure.get_edgecolor(),
            dpi=figure.dpi if dpi is None else dpi,
            bbox_inches="tight",
            **options,
        )
        return buffer.getvalue()
