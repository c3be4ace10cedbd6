"""The book's in-browser kernel (book_runtime.kernel, the charts' live chart), run in CPython.

The library knows nothing of the reader's browser: there, the book's kernel
decides how a value is shown, by its type, as a notebook kernel's display
formatters do.  These tests run the kernel's Python here, with the MIME types
of the book's one file of them, and check what the page would receive: a
chart's description (no matplotlib in the browser), a stepper's frames (no
``dot``), a graph's DOT source, and a training log's live chart while a cell
trains.  The features' add-ons of the kernel (glued numbers, claims) are
tested beside their features, tests/features/, with the same kernel
(browser_kernel.py).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from browser_kernel import MIME_TYPES, Page, run
from pages import code_cells, run_page

from micrograd import MLP, Value
from micrograd.datasets import make_moons
from micrograd.training_log import TrainingLog
from micrograd.viz import plot
from micrograd.viz.chart import Chart, Figure
from micrograd.viz.draw import draw_dot
from micrograd.viz.stepper import BackwardStepper, StepperPair


def two_lines() -> Chart:
    chart = Chart(title="two lines", x_label="step", y_label="loss")
    chart.line([0, 1, 2], [1.0, 0.5, 0.25], label="loss")
    chart.rule(0.5)
    return chart


# -- what the book shows differently in the browser, by type ------------------------------------


def test_a_figure_is_shown_by_its_description_and_needs_no_matplotlib(
    kernel: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # the browser has none
    top, bottom = two_lines(), two_lines()
    figure = Figure([top, bottom])
    bundle = kernel.mimebundle(figure)
    assert set(bundle) == {MIME_TYPES["chart"], "text/plain"}
    assert bundle["text/plain"] == repr(figure)
    data = json.loads(bundle[MIME_TYPES["chart"]])
    assert data == json.loads(json.dumps(figure.to_json()))
    assert data["charts"] == [json.loads(json.dumps(top.to_json()))] * 2


def test_the_plots_a_cell_ends_with_are_shown_for_the_page_to_draw(kernel: ModuleType) -> None:
    X, y = make_moons(n_samples=20)
    model = MLP(2, [4, 1])
    kernel.NAMESPACE.update(X=X, y=y, model=model, plot_moons=plot.plot_moons)
    kernel.NAMESPACE["plot_decision_boundary"] = plot.plot_decision_boundary
    expected = [plot.moons_chart(X, y), plot.decision_boundary_chart(model, X, y, 0.5)]
    page, result = run(kernel, "plot_moons(X, y)")
    page2, _ = run(kernel, "plot_decision_boundary(model, X, y, resolution=0.5)")
    assert result["ok"], result["error"]
    for shown, chart in zip([*page.displays, *page2.displays], expected, strict=True):
        data = json.loads(shown[MIME_TYPES["chart"]])
        assert data["charts"] == [json.loads(json.dumps(chart.to_json()))]


def worked_example() -> Value:
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    c = a * b + Value(10.0, label="c")
    c.label = "L"
    return c


@pytest.mark.parametrize("kind", ["stepper", "pair"])
def test_a_stepper_is_shown_by_its_frames_and_needs_no_dot_program(
    kernel: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, kind: str
) -> None:
    stepper: BackwardStepper | StepperPair = BackwardStepper(worked_example())
    if kind == "pair":
        stepper = StepperPair(stepper, BackwardStepper(worked_example()), ("one", "two"))
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot, no graphviz-pure
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    bundle = kernel.mimebundle(stepper)
    assert set(bundle) == {MIME_TYPES["stepper"], "text/plain"}
    assert json.loads(bundle[MIME_TYPES["stepper"]]) == json.loads(json.dumps(stepper.to_json()))


def test_a_graphviz_graph_is_shown_by_its_dot_source(kernel: ModuleType) -> None:
    graph = draw_dot(worked_example())
    bundle = kernel.mimebundle(graph)
    assert bundle[MIME_TYPES["graphviz"]] == graph.source
    assert set(bundle) == {MIME_TYPES["graphviz"], "text/plain"}


def test_other_values_are_shown_by_their_own_reprs(kernel: ModuleType) -> None:
    class Rich:
        def _repr_html_(self) -> str:
            return "<b>rich</b>"

    assert kernel.mimebundle(Rich())["text/html"] == "<b>rich</b>"
    assert kernel.mimebundle(Value(2.0)) == {"text/plain": "Value(data=2.0, grad=0.0)"}


# -- a cell's run -------------------------------------------------------------------------------


def test_a_cell_prints_and_shows_its_last_value_through_the_page(kernel: ModuleType) -> None:
    page, result = run(kernel, "print('hello')\nx = 2\nx * 3")
    assert result == {"ok": True, "error": None, "changed": []}
    assert page.streams == [("stdout", "hello"), ("stdout", "\n")]
    assert page.displays == [{"text/plain": "6"}]


def test_a_raising_cell_gets_its_own_traceback_without_the_kernels_frames(
    kernel: ModuleType,
) -> None:
    _, result = run(kernel, "def f():\n    return 1 / 0\n\nf()")
    assert not result["ok"]
    assert result["error"].startswith('Traceback (most recent call last):\n  File "<cell 1>"')
    assert "ZeroDivisionError: division by zero" in result["error"]
    assert "kernel.py" not in result["error"]


# -- the shown cells' namespace, and the hidden cells' ------------------------------------------


def test_a_hidden_cell_reads_the_shown_names_and_binds_none_of_them(kernel: ModuleType) -> None:
    run(kernel, "w1 = 1.0\nkept = [1]")
    page, result = run(kernel, "print(w1, kept)\nw1 = -1.0\nkept = None\nmine = 3", apart=True)
    assert result["ok"], result["error"]
    assert page.printed() == "1.0 [1]\n"
    page, result = run(kernel, "print(w1, kept, 'mine' in globals())")  # the scratch cell's view
    assert page.printed() == "1.0 [1] False\n", result["error"]


def test_a_hidden_cell_keeps_its_own_names_and_sees_the_shown_cells_latest(
    kernel: ModuleType,
) -> None:
    run(kernel, "n = 1\ngone = 0")
    run(kernel, "first = n\ndef twice():\n    return 2 * first", apart=True)
    run(kernel, "n = 5\ndel gone")
    page, result = run(kernel, "print(first, n, twice(), 'gone' in globals())", apart=True)
    assert page.printed() == "1 5 2 False\n", result["error"]


def test_glue_and_claim_are_the_hidden_cells_and_the_kernel_names_them(kernel: ModuleType) -> None:
    _, result = run(kernel, "glue")
    assert "NameError: name 'glue' is not defined" in result["error"]
    assert {"glue", "claim"} <= set(json.loads(kernel.starting_names()))


def test_what_a_cell_changed_is_in_the_namespace_it_ran_in(kernel: ModuleType) -> None:
    run(kernel, "o = 1\nw1 = 2")
    _, hidden = run(kernel, "o = 3", apart=True, watch=["o", "w1"])
    _, shown = run(kernel, "w1 = 4", watch=["o", "w1"])
    assert (hidden["changed"], shown["changed"]) == (["o"], ["w1"])


def test_the_neuron_pages_solution_leaves_the_scratch_cell_the_pages_neuron(
    kernel: ModuleType,
) -> None:
    """The neuron page's cells that run in the browser, each in the namespace the build's
    manifest gives it (``apart``), then the scratch cell: the page's ``w1`` and ``o``."""
    from executed_notebooks.scripts import code_cells as manifest_cells

    cells = code_cells("neuron")
    notebook = {
        "cells": [
            {"cell_type": "code", "source": c.source, "metadata": {"tags": c.tags}, "outputs": []}
            for c in cells
        ]
    }
    entries = manifest_cells(notebook)
    assert [e["apart"] for e in entries if "hide-cell" in e["tags"]] == [True]
    for entry in entries:
        if not entry["buildOnly"]:
            _, result = run(kernel, entry["source"], apart=entry["apart"])
            assert result["ok"], result["error"]
    page, result = run(kernel, "print(w1.grad, o._op, 'sigmoid_neuron' in globals())")
    assert result["ok"], result["error"]
    expected = run_page("neuron").glued["neuron_exp_dw1"]  # the last shown w1's, glued
    assert page.printed() == f"{expected} tanh False\n"


# -- the live training chart ------------------------------------------------------------------


@pytest.fixture
def live(kernel: ModuleType) -> Iterator[ModuleType]:
    """The charts' runtime (the live chart), an add-on the kernel imports when it starts."""
    module = importlib.import_module("book_runtime.features.charts.runtime")
    assert module.live_charts in kernel.CELL_CONTEXTS, "the kernel imports its add-ons"
    yield module
    kernel.CELL_CONTEXTS.remove(module.live_charts)


TRAINING = """\
log = TrainingLog()
for step in range(5):
    log.record(step, 1.0 / (step + 1), accuracy=step / 4)
"""


def test_a_training_cell_sends_its_live_chart_first_at_the_first_row_and_last_at_the_end(
    kernel: ModuleType, live: ModuleType
) -> None:
    kernel.NAMESPACE["TrainingLog"] = TrainingLog
    page, result = run(kernel, TRAINING)
    assert result["ok"], result["error"]
    charts = [fields for name, fields in page.addons if name == "live-chart"]
    assert charts[0]["points"] == 1
    assert charts[-1]["points"] == 5
    log = kernel.NAMESPACE["log"]
    # what the build's plot_training draws, titled as the run goes on
    expected = plot.plot_training(log, title="as it trains: step 4").to_json()
    assert charts[-1]["figure"] == json.loads(json.dumps(expected))
    assert charts[0]["figure"]["charts"][0]["title"] == "as it trains: step 0"


class _InOrder(Page):
    """A page that also keeps what it received, in order.

    Each as ``("display", mime types)`` or ``("addon", name, fields)``.
    """

    def __init__(self) -> None:
        super().__init__()
        self.received: list[tuple[Any, ...]] = []

    def display(self, bundle: str) -> None:
        super().display(bundle)
        self.received.append(("display", tuple(json.loads(bundle))))

    def addon(self, name: str, fields: str) -> None:
        super().addon(name, fields)
        self.received.append(("addon", name, json.loads(fields)))


def test_a_training_cell_that_shows_its_chart_sends_the_whole_live_chart_before_it(
    kernel: ModuleType, live: ModuleType
) -> None:
    # The page draws the live chart until the run's own chart comes: its last drawing
    # holds every row, sent before the figure, and nothing of the log follows the figure.
    kernel.NAMESPACE["TrainingLog"] = TrainingLog
    kernel.NAMESPACE["plot_training"] = plot.plot_training
    page = _InOrder()
    streams = (kernel._CellStream("stdout"), kernel._CellStream("stderr"))
    with contextlib.redirect_stdout(streams[0]), contextlib.redirect_stderr(streams[1]):
        found = kernel.run_cell(TRAINING + "plot_training(log)", "<cell 1>", page, "[]", False)
    assert json.loads(found)["ok"]
    kinds = [event[0] for event in page.received]
    shown = kinds.index("display")
    assert MIME_TYPES["chart"] in page.received[shown][1]
    before = [event for event in page.received[:shown] if event[:2] == ("addon", "live-chart")]
    assert before[-1][2]["points"] == 5
    assert "addon" not in kinds[shown:], "no live chart after the run's own"
    assert kernel.BEFORE_DISPLAY == [], "the cell's catch-up goes with the cell"


def test_after_a_cell_even_one_that_raises_the_library_is_as_it_was(
    kernel: ModuleType, live: ModuleType
) -> None:
    record = TrainingLog.record
    kernel.NAMESPACE["TrainingLog"] = TrainingLog
    page, result = run(kernel, TRAINING + "raise RuntimeError('boom')")
    assert not result["ok"]
    assert [fields["points"] for name, fields in page.addons][-1] == 5  # sent before it ended
    assert TrainingLog.record is record
    # Outside a cell, recording sends nothing: post_message would raise with no cell running.
    kernel.NAMESPACE["log"].record(5, 0.1)
    assert len(kernel.NAMESPACE["log"].rows) == 6
