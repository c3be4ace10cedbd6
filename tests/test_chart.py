"""Tests for micrograd.viz.chart: one description of a chart, drawn by matplotlib or the browser."""

from __future__ import annotations

import json
import sys

import matplotlib
import pytest

from micrograd import Value
from micrograd.viz.chart import CHART_MIME, PALETTE, Chart, LegendEntry, draw, figure_json, show

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.colors import to_hex

pytestmark = pytest.mark.usefixtures("close_figures")


def two_lines() -> Chart:
    chart = Chart(title="loss", x_label="step", y_label="loss", integer_x=True, grid=True)
    chart.line([0, 1, 2, 3], [1.0, 0.5, 0.25, 0.125], label="loss")
    chart.line(range(4), [Value(0.5), 0.75, 0.75, 1.0], label="accuracy", dashed=True)
    chart.rule(1.0)
    return chart


def test_lines_take_the_palette_in_order_unless_given_a_colour() -> None:
    chart = two_lines()
    assert [mark.colour for mark in chart.marks[:2]] == list(PALETTE[:2])  # type: ignore[union-attr]
    chart.line([0], [0.0], colour="#123456")
    assert chart.marks[-1].colour == "#123456"  # type: ignore[union-attr]
    assert chart.marks[1].y[0] == 0.5  # type: ignore[union-attr]  # a Value's data


def test_limits_are_the_datas_with_five_percent_each_side_unless_given() -> None:
    chart = two_lines()
    assert chart.x_limits() == pytest.approx((-0.15, 3.15))
    assert chart.y_limits() == pytest.approx((0.125 - 0.04375, 1.0 + 0.04375))
    fixed = Chart(x_range=(0, 10), y_range=(-1, 1))
    assert (fixed.x_limits(), fixed.y_limits()) == ((0.0, 10.0), (-1.0, 1.0))
    assert Chart().x_limits() == (0.0, 1.0)  # nothing to show
    single = Chart()
    single.line([2.0], [3.0])
    assert (single.x_limits(), single.y_limits()) == ((1.5, 2.5), (2.5, 3.5))


def test_ticks_are_round_numbers_inside_the_limits() -> None:
    chart = two_lines()
    assert chart.x_ticks() == [0.0, 1.0, 2.0, 3.0]
    assert chart.y_ticks() == [0.2, 0.4, 0.6, 0.8, 1.0]
    wide = Chart(integer_x=True, x_range=(-1.45, 30.45))
    assert wide.x_ticks() == [0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0]


def test_the_legend_lists_labelled_lines_then_the_extra_entries() -> None:
    chart = two_lines()
    chart.legend_extra.append(LegendEntry("class +1", "#0072b2", "point"))
    entries = chart.legend_entries()
    assert [(e.label, e.shape, e.dashed) for e in entries] == [
        ("loss", "line", False),
        ("accuracy", "line", True),
        ("class +1", "point", False),
    ]


def test_the_json_holds_everything_a_renderer_needs() -> None:
    data = json.loads(json.dumps(two_lines().to_json()))
    assert data["title"] == "loss"
    assert data["x_range"] == pytest.approx([-0.15, 3.15])
    assert data["x_ticks"] == [0.0, 1.0, 2.0, 3.0]
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
        (lambda c: c.line([0], [1], colour="red"), ValueError, "colour must be a colour like"),
        (lambda c: c.points([0], [0], []), ValueError, "must have the same length"),
        (lambda c: c.regions([0], [0], [[1.0]], "#000", "#fff"), ValueError, "at least 2 x 2"),
        (lambda c: c.rule(True), TypeError, "must be a number"),
    ],
)
def test_bad_marks_are_refused(build: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        build(Chart())  # type: ignore[operator]


def test_bad_charts_are_refused() -> None:
    with pytest.raises(ValueError, match="legend must be one of"):
        Chart(legend="somewhere")
    with pytest.raises(ValueError, match="x_range must go from low to high"):
        Chart(x_range=(1, 0))
    with pytest.raises(TypeError, match="show needs one or more Chart objects"):
        show()
    with pytest.raises(TypeError, match="show needs one or more Chart objects"):
        show("chart")  # type: ignore[arg-type]


def test_matplotlib_draws_what_the_description_says() -> None:
    chart = two_lines()
    ax = show(chart)
    lines = ax.get_lines()
    assert [to_hex(line.get_color()) for line in lines[:2]] == list(PALETTE[:2])
    assert [line.get_linestyle() for line in lines] == ["-", "--", "--"]
    assert list(lines[0].get_ydata()) == [1.0, 0.5, 0.25, 0.125]
    assert ax.get_xlim() == pytest.approx(chart.x_limits())
    assert ax.get_ylim() == pytest.approx(chart.y_limits())
    assert ax.get_xticks().tolist() == chart.x_ticks()
    assert ax.get_yticks().tolist() == pytest.approx(chart.y_ticks())
    assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("loss", "step", "loss")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["loss", "accuracy"]
    assert ax.figure.get_size_inches().tolist() == [5.0, 3.5]
    assert json.loads(ax.figure.micrograd_chart) == json.loads(figure_json([chart], (5.0, 3.5)))


def test_several_charts_stack_sharing_their_x_axis_and_a_legend_can_go_below() -> None:
    top, bottom = two_lines(), Chart(legend="below", x_label="step")
    bottom.line([0, 3], [0, 1], label="straight")
    axes = show(top, bottom, size=(4.8, 5.6))
    assert len(axes) == 2
    assert axes[0].get_shared_x_axes().joined(axes[0], axes[1])
    assert axes[1].get_legend() is None
    (legend,) = axes[1].figure.legends
    assert [t.get_text() for t in legend.get_texts()] == ["straight"]
    assert axes[0].figure.get_size_inches().tolist() == [4.8, 5.6]


def test_draw_uses_the_axes_it_is_given() -> None:
    _, ax = plt.subplots()
    assert draw(two_lines(), ax) is ax


def test_without_matplotlib_show_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r'pip install "micrograd-book\[plot\]"'):
        show(two_lines())


def test_in_the_browser_show_displays_the_description(browser_display: list[object]) -> None:
    top, bottom = two_lines(), two_lines()
    assert show(top, bottom) is top
    (figure,) = browser_display
    bundle = figure._repr_mimebundle_()  # type: ignore[attr-defined]
    assert bundle["text/plain"] == "<Figure: 2 charts>"
    data = json.loads(bundle[CHART_MIME])
    assert data["size"] == [5.0, 7.0]
    assert data["charts"] == [json.loads(json.dumps(top.to_json()))] * 2


def test_in_a_browser_that_offers_no_display_show_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "IPython.display", None)
    monkeypatch.setattr(sys, "platform", "emscripten")
    with pytest.raises(ImportError, match="shown by the page that runs the code"):
        show(two_lines())
