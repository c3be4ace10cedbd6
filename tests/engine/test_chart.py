"""Tests for micrograd.viz.chart: charts and figures as data, drawn by matplotlib."""

from __future__ import annotations

import io
import json
import re
import struct
import sys
from pathlib import Path

import matplotlib
import matplotlib.ticker
import pytest
from scripts import run_python

from micrograd import Value
from micrograd.viz.chart import PALETTE, Chart, Figure, draw, legend_entry

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.colors import to_hex

pytestmark = pytest.mark.usefixtures("close_figures")

#: Clip-path ids of matplotlib's SVG are random unless salted (the book's pages salt them).
SALTED = {"svg.hashsalt": "micrograd-tests"}


def two_lines() -> Chart:
    chart = Chart(title="loss", x_label="step", y_label="loss", integer_x=True, grid=True)
    chart.line([0, 1, 2, 3], [1.0, 0.5, 0.25, 0.125], label="loss")
    chart.line(range(4), [Value(0.5), 0.75, 0.75, 1.0], label="accuracy", dashed=True)
    chart.rule(1.0)
    return chart


def test_lines_take_the_palette_in_order_unless_given_a_colour() -> None:
    chart = two_lines()
    assert [mark["colour"] for mark in chart.marks[:2]] == list(PALETTE[:2])
    chart.line([0], [0.0], colour="#123456")
    assert chart.marks[-1]["colour"] == "#123456"
    assert chart.marks[1]["y"][0] == 0.5  # a Value's data


def test_limits_are_the_datas_with_five_percent_each_side_unless_given() -> None:
    chart = two_lines()
    assert chart.limits("x") == pytest.approx((-0.15, 3.15))
    assert chart.limits("y") == pytest.approx((0.125 - 0.04375, 1.0 + 0.04375))
    fixed = Chart(x_range=(0, 10), y_range=(-1, 1))
    assert (fixed.limits("x"), fixed.limits("y")) == ((0.0, 10.0), (-1.0, 1.0))
    assert Chart().limits("x") == (0.0, 1.0)  # nothing to show
    single = Chart()
    single.line([2.0], [3.0])
    assert (single.limits("x"), single.limits("y")) == ((1.5, 2.5), (2.5, 3.5))


def test_ticks_are_round_numbers_inside_the_limits() -> None:
    chart = two_lines()
    assert chart.ticks("x") == [0.0, 1.0, 2.0, 3.0]
    assert chart.ticks("y") == [0.2, 0.4, 0.6, 0.8, 1.0]
    wide = Chart(integer_x=True, x_range=(-1.45, 30.45))
    assert wide.ticks("x") == [0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0]


@pytest.mark.parametrize(
    ("limits", "integer"),
    [((-0.15, 3.15), True), ((-2.3, 3.1), False), ((-1.45, 30.45), True), ((0.0, 0.003), False)],
)
def test_tick_labels_are_what_matplotlibs_own_formatter_writes(
    limits: tuple[float, float], integer: bool
) -> None:
    chart = Chart(x_range=limits, integer_x=integer)
    drawn = Figure([chart]).draw()
    (ax,) = drawn.axes
    ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())  # not the chart's labels
    drawn.draw_without_rendering()
    labels = chart.to_json()["x_tick_labels"]
    assert [t.get_text() for t in ax.get_xticklabels()] == labels
    assert ax.xaxis.get_offset_text().get_text() == ""


def test_tick_labels_keep_every_digit_where_matplotlib_would_write_an_offset() -> None:
    tiny = Chart(x_range=(0, 1e-7), y_range=(1e6, 1e6 + 10)).to_json()
    assert tiny["x_tick_labels"][:2] == ["0.00000000", "0.00000002"]
    assert tiny["y_tick_labels"][:2] == ["1000000", "1000002"]
    assert Chart(y_range=(-2, 0)).to_json()["y_tick_labels"][0] == "\u22122.00"


def test_the_legend_lists_labelled_lines_then_the_extra_entries() -> None:
    chart = two_lines()
    chart.legend_extra.append(legend_entry("class +1", "#0072b2", "point"))
    entries = chart.legend_entries()
    assert [(e["label"], e["shape"], e["dashed"]) for e in entries] == [
        ("loss", "line", False),
        ("accuracy", "line", True),
        ("class +1", "point", False),
    ]


def test_the_json_holds_everything_a_renderer_needs() -> None:
    data = json.loads(json.dumps(two_lines().to_json()))
    assert data["title"] == "loss"
    assert data["x_range"] == pytest.approx([-0.15, 3.15])
    assert data["x_ticks"] == [0.0, 1.0, 2.0, 3.0]
    assert data["x_tick_labels"] == ["0", "1", "2", "3"]
    assert data["y_tick_labels"] == ["0.2", "0.4", "0.6", "0.8", "1.0"]
    assert [mark["kind"] for mark in data["marks"]] == ["line", "line", "rule"]
    assert [entry["label"] for entry in data["legend_entries"]] == ["loss", "accuracy"]
    assert data["description"] == (
        "Chart 'loss' (x: step, y: loss): loss: 4 points, from 1 at 0 to 0.125 at 3; "
        "accuracy: 4 points, from 0.5 at 0 to 1 at 3; a rule at 1. Legend: loss, accuracy."
    )


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda c: c.line([0, 1], [0]), ValueError, "x and y must have the same length"),
        (lambda c: c.line([0], ["a"]), TypeError, r"y\[0\] must be a number"),
        (lambda c: c.line("ab", [0, 1]), TypeError, "x must be a list of numbers"),
        (lambda c: c.line(3, [1]), TypeError, "x must be a list of numbers, got int"),
        (lambda c: c.line([0], [1], colour="red"), ValueError, "colour must be a colour like"),
        (lambda c: c.points([0], [0], []), ValueError, "must have the same length"),
        (lambda c: c.regions([0], [0], [[1.0]], "#000", "#fff"), ValueError, "at least 2 x 2"),
        (lambda c: c.rule(True), TypeError, "must be a number"),
    ],
)
def test_bad_marks_are_refused(build: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        build(Chart())  # type: ignore[operator]


def test_regions_bound_the_limits_by_their_grid_and_an_empty_line_is_not_described() -> None:
    chart = Chart()
    chart.regions([0, 1, 2], [-1, 1], [[-1.0, 0.0, 1.0], [-1.0, 0.5, 1.0]], "#e69f00", "#0072b2")
    chart.line([], [], label="nothing yet")
    assert chart.limits("x") == pytest.approx((-0.1, 2.1))
    assert chart.limits("y") == pytest.approx((-1.1, 1.1))
    assert chart.describe() == (
        "Chart (x: x, y: y): the plane shaded by the sign of the score. Legend: nothing yet."
    )


def test_bad_charts_are_refused() -> None:
    with pytest.raises(ValueError, match="legend must be one of"):
        Chart(legend="somewhere")
    with pytest.raises(ValueError, match="x_range must go from low to high"):
        Chart(x_range=(1, 0))


def below_the_axes() -> Chart:
    chart = Chart(legend="below", x_label="step", legend_columns=2)
    chart.line([0, 3], [0, 1], label="straight")
    chart.line([0, 3], [1, 0], label="down")
    return chart


# -- figures as data ----------------------------------------------------------------------------


def old_figure_json(charts: list[Chart], size: tuple[float, float]) -> str:
    """What the book recorded for a figure before Figure existed, for the comparison."""
    return json.dumps({"size": list(size), "charts": [chart.to_json() for chart in charts]})


@pytest.mark.parametrize("size", [None, (4.8, 5.6), (5, 4)])
def test_a_figures_json_is_the_description_the_book_recorded(
    size: tuple[float, float] | None,
) -> None:
    charts = [two_lines(), below_the_axes()]
    figure = Figure(charts, size=size)
    expected = (3.5, 5.0) if size is None else (float(size[0]), float(size[1]))
    assert json.dumps(figure.to_json()) == old_figure_json(charts, expected)


def test_the_default_size_fits_a_phones_column_and_is_taller_for_points() -> None:
    assert Figure([two_lines()]).size == (3.5, 2.5)
    assert Figure([two_lines(), two_lines()]).size == (3.5, 5.0)
    dots = Chart()
    dots.points([0, 1], [1, 0], ["#000000", "#ffffff"])
    assert Figure([dots]).size == (3.5, 2.8)
    assert Figure([dots, two_lines()]).size == (3.5, 5.6)
    # As the build saves it (tight), it is no wider than a phone's column, 358 CSS px:
    # a phone shows it at its own size, its labels not shrunk with it.
    svg = Figure([two_lines()]).to_svg()
    width_pt = float(re.search(r'<svg [^>]*width="([\d.]+)pt"', svg).group(1))
    assert width_pt * 96 / 72 <= 358


def test_a_figure_says_what_it_holds() -> None:
    charts = [two_lines(), below_the_axes()]
    figure = Figure(charts, size=(4.8, 5.6))
    assert figure.charts == tuple(charts)
    assert repr(figure) == "<Figure: 2 charts, 4.8 x 5.6 in>"
    assert repr(Figure([two_lines()])) == "<Figure: 1 chart, 3.5 x 2.5 in>"


@pytest.mark.parametrize(
    ("charts", "size", "error", "message"),
    [
        (two_lines(), None, TypeError, r"Figure\(\[chart\]\) for one chart"),
        ([], None, ValueError, "one or more Chart objects, got none"),
        ("chart", None, TypeError, "charts must be a list of Chart objects, got str"),
        ([two_lines(), "chart"], None, TypeError, r"charts\[1\] must be a Chart, got str"),
        ([two_lines()], (5.0,), TypeError, r"size must be \(width, height\) in inches"),
        ([two_lines()], "big", TypeError, r"size must be \(width, height\) in inches"),
        ([two_lines()], (5.0, "tall"), TypeError, r"size\[1\] must be a number"),
        ([two_lines()], (0, 3.5), ValueError, "size must be two positive numbers"),
        ([two_lines()], (5.0, float("nan")), ValueError, "size must be two positive numbers"),
        ([two_lines()], (float("inf"), 1), ValueError, "size must be two positive numbers"),
    ],
)
def test_a_figure_refuses_what_it_cannot_draw(
    charts: object, size: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        Figure(charts, size=size)  # type: ignore[arg-type]


def test_describing_a_figure_needs_no_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.pyplot"):
        monkeypatch.setitem(sys.modules, name, None)
    figure = Figure([two_lines(), two_lines()])
    assert figure.to_json()["size"] == [3.5, 5.0]
    for draw_it in (figure.draw, figure.to_svg, lambda: figure.save("figure.svg")):
        with pytest.raises(ImportError, match=r"pip install matplotlib \(the plot extra"):
            draw_it()


# -- figures drawn by matplotlib ----------------------------------------------------------------


def test_matplotlib_draws_what_the_description_says() -> None:
    chart = two_lines()
    drawn = Figure([chart]).draw()
    (ax,) = drawn.axes
    lines = ax.get_lines()
    assert [to_hex(line.get_color()) for line in lines[:2]] == list(PALETTE[:2])
    assert [line.get_linestyle() for line in lines] == ["-", "--", "--"]
    assert list(lines[0].get_ydata()) == [1.0, 0.5, 0.25, 0.125]
    assert ax.get_xlim() == pytest.approx(chart.limits("x"))
    assert ax.get_ylim() == pytest.approx(chart.limits("y"))
    assert ax.get_xticks().tolist() == chart.ticks("x")
    assert ax.get_yticks().tolist() == pytest.approx(chart.ticks("y"))
    drawn.draw_without_rendering()
    assert [t.get_text() for t in ax.get_yticklabels()] == chart.to_json()["y_tick_labels"]
    assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("loss", "step", "loss")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["loss", "accuracy"]
    assert drawn.get_size_inches().tolist() == [3.5, 2.5]
    assert drawn.get_layout_engine() is not None


def test_several_charts_stack_sharing_their_x_axis_and_a_legend_can_go_below() -> None:
    drawn = Figure([two_lines(), below_the_axes()], size=(4.8, 5.6)).draw()
    top, bottom = drawn.axes
    assert top.get_shared_x_axes().joined(top, bottom)
    assert bottom.get_legend() is None
    (legend,) = drawn.legends
    assert [t.get_text() for t in legend.get_texts()] == ["straight", "down"]
    assert drawn.get_size_inches().tolist() == [4.8, 5.6]


def test_draw_uses_the_axes_it_is_given() -> None:
    _, ax = plt.subplots()
    assert draw(two_lines(), ax) is ax


def test_a_legend_below_goes_under_the_figure_of_the_axes_it_is_given() -> None:
    figure, ax = plt.subplots()
    draw(below_the_axes(), ax)
    assert ax.get_legend() is None
    (legend,) = figure.legends
    assert [t.get_text() for t in legend.get_texts()] == ["straight", "down"]


def test_each_draw_is_a_new_figure_that_pyplot_does_not_know() -> None:
    figure = Figure([two_lines()])
    before = plt.get_fignums()
    first, second = figure.draw(), figure.draw()
    assert first is not second
    assert plt.get_fignums() == before


def inline_backend_svg(charts: list[Chart], size: tuple[float, float]) -> str:
    """The SVG Jupyter's inline backend printed for these charts drawn on a pyplot figure.

    The figure as the book made it with pyplot; drawn once when the cell ended
    (pyplot's hook in IPython draws every stale figure then); then printed as
    IPython's ``print_figure(fig, "svg", bbox_inches="tight", metadata={"Date": None})``.
    """
    many = len(charts) > 1
    fig, axes = plt.subplots(
        len(charts), 1, figsize=size, sharex=many, layout="constrained", squeeze=False
    )
    for chart, ax in zip(charts, axes[:, 0], strict=True):
        draw(chart, ax)  # a legend "below" goes under the figure, as the book put it
    fig.canvas.draw()
    buffer = io.BytesIO()
    fig.canvas.print_figure(
        buffer,
        format="svg",
        facecolor=fig.get_facecolor(),
        edgecolor=fig.get_edgecolor(),
        dpi=fig.dpi,
        bbox_inches="tight",
        metadata={"Date": None},
    )
    plt.close(fig)
    return buffer.getvalue().decode("utf-8")


@pytest.mark.parametrize("stacked", [False, True])
def test_the_svg_is_byte_for_byte_what_the_inline_backend_gave(stacked: bool) -> None:
    charts = [two_lines(), below_the_axes()] if stacked else [two_lines()]
    size = (4.8, 5.6) if stacked else (5.0, 3.5)
    with matplotlib.rc_context(SALTED):
        svg = Figure(charts, size=size).to_svg()
        assert svg == inline_backend_svg(charts, size)
    assert svg.startswith("<?xml")
    assert "<dc:date>" not in svg
    assert Figure(charts, size=size)._repr_svg_().startswith("<?xml")


def test_the_svg_is_the_same_every_time_with_salted_ids() -> None:
    figure = Figure([two_lines(), below_the_axes()])
    with matplotlib.rc_context(SALTED):
        assert figure.to_svg() == figure.to_svg() == figure._repr_svg_()


def test_drawing_leaves_rcparams_and_pyplot_as_they_were(tmp_path: Path) -> None:
    figure = Figure([two_lines(), below_the_axes()])
    plt.figure()  # the caller's own figure stays the current one
    before = (dict(matplotlib.rcParams), plt.get_fignums(), plt.gcf())
    figure.draw()
    figure.to_svg()
    figure.save(tmp_path / "figure.png")
    assert (dict(matplotlib.rcParams), plt.get_fignums(), plt.gcf()) == before


def test_a_figure_draws_without_importing_pyplot() -> None:
    code = (
        "import sys\n"
        "from micrograd.viz.chart import Chart, Figure\n"
        "chart = Chart(title='t')\n"
        "chart.line([0, 1], [1.0, 0.5], label='a line')\n"
        "svg = Figure([chart]).to_svg()\n"
        "print(svg.startswith('<?xml'), 'matplotlib.pyplot' in sys.modules)\n"
    )
    assert run_python("-c", code).stdout.split() == ["True", "False"]


def png_dpi(data: bytes) -> float:
    """The resolution a PNG declares (its pHYs chunk), in dots per inch."""
    at = data.index(b"pHYs")
    per_metre, _, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert unit == 1  # metres
    return per_metre * 0.0254


def test_save_writes_svg_or_png_by_the_suffix(tmp_path: Path) -> None:
    figure = Figure([two_lines()])
    with matplotlib.rc_context(SALTED):
        assert figure.save(tmp_path / "a.svg") == tmp_path / "a.svg"
        assert (tmp_path / "a.svg").read_text(encoding="utf-8") == figure.to_svg()
    figure.save(str(tmp_path / "b.PNG"))
    data = (tmp_path / "b.PNG").read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert round(png_dpi(data)) == 100
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.svg", "b.PNG"]


def test_save_names_the_file_it_cannot_write_and_creates_nothing(tmp_path: Path) -> None:
    figure = Figure([two_lines()])
    missing = tmp_path / "no such folder" / "figure.svg"
    message = r"cannot save the figure to .*: there is no folder"
    with pytest.raises(FileNotFoundError, match=message):
        figure.save(missing)
    folder = tmp_path / "a folder.svg"
    folder.mkdir()
    with pytest.raises(IsADirectoryError, match="cannot save the figure to"):
        figure.save(folder)
    with pytest.raises(ValueError, match=r"saved as .svg or .png, not 'figure.pdf'"):
        figure.save(tmp_path / "figure.pdf")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a folder.svg"]
