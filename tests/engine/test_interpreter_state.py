"""No call into micrograd leaves the interpreter changed.

After any public call returns, the cyclic garbage collector (enabled flag,
thresholds, freeze count), the recursion limit, the warnings filters,
matplotlib's settings, pyplot's figures and NumPy's global random generator
are exactly what the caller had.  The one way to keep
the collector off across calls is the explicit ``paused_gc()`` block.

Each entry point runs with the collector on and with it off (as a user who
disabled it), with a model output from an earlier call still alive, in the
middle of a failing training step, and from a second thread.
"""

from __future__ import annotations

import gc
import random
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from micrograd import paused_gc
from micrograd.datasets import make_moons, names
from micrograd.engine import Value, new_node, topological_order
from micrograd.gpt import GPT, Tokenizer, sample, train
from micrograd.nn import MLP, Layer, Neuron
from micrograd.training_log import TrainingLog
from micrograd.viz import plot
from micrograd.viz.chart import Chart, Figure
from micrograd.viz.draw import draw_dot, draw_mlp
from micrograd.viz.stepper import BackwardStepper, StepperPair, html_from_json
from micrograd.viz.svg import inline_svg, render_svg


def interpreter_state() -> dict[str, Any]:
    """Everything a library call must leave as it found it."""
    return {
        "gc enabled": gc.isenabled(),
        "gc thresholds": gc.get_threshold(),
        "gc freeze count": gc.get_freeze_count(),
        "recursion limit": sys.getrecursionlimit(),
        "warnings filters": list(warnings.filters),
        "matplotlib rcParams": dict(matplotlib.rcParams),
        "pyplot figures": plt.get_fignums(),
        "numpy global random state": _numpy_random_state(),
    }


def _numpy_random_state() -> tuple[object, ...]:
    """NumPy's global (legacy) generator state, comparable with ``==``."""
    name, keys, position, has_gauss, cached = np.random.get_state()  # noqa: NPY002
    return name, keys.tobytes(), position, has_gauss, cached


@pytest.fixture(params=["collector on", "collector off"])
def collector(request: pytest.FixtureRequest) -> Iterator[bool]:
    """Run the test with the collector as the user set it: on, or disabled by the user."""
    was_enabled = gc.isenabled()
    if request.param == "collector off":
        gc.disable()
    try:
        yield gc.isenabled()
    finally:
        if was_enabled:
            gc.enable()
        else:
            gc.disable()


def small_model() -> MLP:
    random.seed(0)
    return MLP(2, [4, 4, 1])


def training_step(model: MLP, points: int = 8) -> Value:
    """One step of the moons loop's shape: forward, loss, zero_grad, backward, update."""
    rng = random.Random(1)
    scores = [model([rng.uniform(-1, 1), rng.uniform(-1, 1)]) for _ in range(points)]
    losses = [(1 + -rng.choice([-1.0, 1.0]) * s).relu() for s in scores]  # type: ignore[operator]
    total: Value = sum(losses) * (1.0 / len(losses))  # type: ignore[assignment]
    model.zero_grad()
    total.backward()
    for p in model.parameters():
        p.data -= 0.1 * p.grad
    return total


def _gpt() -> str:
    """Two training steps of a small GPT, then a sample from it."""
    tokenizer = Tokenizer(["emma", "ava"])
    model = GPT(tokenizer.vocab_size, n_embd=4, block_size=6, n_head=2)
    train(model, tokenizer, ["emma", "ava"], steps=2)
    return sample(model, tokenizer, random.Random(0))


def sin_backward(out: Value, a: Value) -> None:
    a.grad += 0.5 * out.grad


# Every public entry point, as a call that returns what a user would keep.
ENTRY_POINTS: dict[str, Callable[[], object]] = {
    "Value()": lambda: Value(2.0, label="x"),
    "Value + - * / **": lambda: (Value(2.0) + 1 - Value(3.0)) * 2 / Value(4.0) ** 2,
    "reflected ops and neg": lambda: 1 - (2 / Value(4.0)) + 3 * -Value(1.0),
    "relu tanh exp log sigmoid": lambda: Value(0.5).relu().tanh().exp().log().sigmoid(),
    "backward": lambda: (Value(2.0) * Value(3.0) + 1).backward(),
    "topological_order": lambda: topological_order(Value(2.0) * Value(3.0)),
    "new_node": lambda: new_node(0.5, "half", sin_backward, Value(1.0)),
    "Value.sum and Value.dot": lambda: Value.sum(
        [Value(1.0), Value.dot([Value(2.0)], [Value(3.0)])]
    ),
    "names": lambda: names(),
    "GPT train and sample": lambda: _gpt(),
    "Neuron call": lambda: Neuron(3)([1.0, 2.0, 3.0]),
    "Layer call": lambda: Layer(3, 4)([1.0, 2.0, 3.0]),
    "MLP call": lambda: small_model()([1.0, -1.0]),
    "MLP training step": lambda: training_step(small_model()),
    "zero_grad and parameters": lambda: (small_model().zero_grad(), small_model().parameters()),
    "draw_dot": lambda: draw_dot(Value(2.0) * Value(3.0)),
    "draw_mlp": lambda: draw_mlp(small_model()),
    "render_svg": lambda: render_svg(draw_dot(Value(2.0) * Value(3.0))),
    "inline_svg": lambda: inline_svg(render_svg(draw_dot(Value(2.0) * Value(3.0))), "p-", "x"),
    "BackwardStepper": lambda: BackwardStepper(Value(2.0) * Value(3.0)).to_html(),
    "make_moons": lambda: make_moons(20, noise=0.1, seed=1),
    "plot_moons": lambda: plot.plot_moons(*make_moons(20, noise=0.1, seed=1)).to_svg(),
    "plot_decision_boundary": lambda: plot.plot_decision_boundary(
        small_model(), *make_moons(20, noise=0.1, seed=1), resolution=0.5
    ).draw(),
    "TrainingLog record": lambda: _log(),
    "plot_training": lambda: plot.plot_training(_log(), title="run").to_svg(),
    "training_chart": lambda: plot.training_chart(_log(), title="run").to_json(),
    "Chart and Figure.to_json": lambda: _figure().to_json(),
    "Figure.draw": lambda: _figure().draw(),
    "Figure.to_svg": lambda: _figure().to_svg(),
    "Figure.save": lambda: _saved(),
    "moons_chart": lambda: plot.moons_chart(*make_moons(20, noise=0.1, seed=1)).to_json(),
    "decision_boundary_chart": lambda: plot.decision_boundary_chart(
        small_model(), *make_moons(20, noise=0.1, seed=1), resolution=0.5
    ).to_json(),
    "StepperPair": lambda: StepperPair(
        BackwardStepper(Value(2.0) * Value(3.0)), BackwardStepper(Value(2.0) + Value(3.0))
    ).to_html(),
    "html_from_json": lambda: _stepper_from_json(),
}


def _log() -> TrainingLog:
    log = TrainingLog()
    log.record(0, loss=1.0, accuracy=0.5)
    log.record(1, loss=0.5, accuracy=0.75)
    return log


def _figure() -> Figure:
    chart = Chart(title="t", x_label="x", y_label="y", legend="below")
    chart.line([0, 1], [1.0, 0.5], label="a line")
    chart.rule(0.75)
    return Figure([chart, chart])


def _saved() -> list[int]:
    with tempfile.TemporaryDirectory() as folder:
        files = [_figure().save(Path(folder) / name) for name in ("figure.svg", "figure.png")]
        return [path.stat().st_size for path in files]


def _stepper_from_json() -> str:
    data = BackwardStepper(Value(2.0) * Value(3.0)).to_json()
    svgs = [render_svg(type("G", (), {"source": frame["dot"]})()) for frame in data["frames"]]
    return html_from_json(data, svgs)


pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_a_public_call_leaves_the_interpreter_as_the_caller_had_it(
    name: str, collector: bool
) -> None:
    before = interpreter_state()
    kept = ENTRY_POINTS[name]()  # the result stays alive, as in a notebook's Out[]
    assert interpreter_state() == before
    del kept
    assert interpreter_state() == before


def test_a_kept_model_output_does_not_keep_the_collector_from_freeing_cycles() -> None:
    # A kept output must not hold the collector off: cyclic garbage made
    # meanwhile (matplotlib figures, ...) would pile up.
    model = small_model()
    out = model([1.0, 2.0])
    assert gc.isenabled()
    freed = []

    class Cycle:
        def __init__(self) -> None:
            self.me = self

        def __del__(self) -> None:
            freed.append(1)

    for _ in range(20 * gc.get_threshold()[0]):
        Cycle()
    assert freed, "no cycle was freed: the collector never ran while the output was kept"
    assert isinstance(out, Value)


def test_a_collector_the_user_disables_in_the_middle_of_a_loop_stays_disabled() -> None:
    model = small_model()
    try:
        for step in range(6):
            if step == 2:
                gc.disable()
            if step == 4:
                gc.enable()
            expected = step < 2 or step >= 4
            total = training_step(model)
            assert gc.isenabled() is expected, f"step {step}"
            assert isinstance(total, Value)
    finally:
        gc.enable()


def test_a_user_disabled_collector_stays_disabled_with_earlier_outputs_alive() -> None:
    model = small_model()
    earlier = [model([1.0, float(i)]) for i in range(3)]
    gc.disable()
    try:
        out = model([0.5, 0.5])
        assert isinstance(out, Value)
        out.backward()
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert len(earlier) == 3


def failing_training_step(model: MLP, where: str) -> None:
    """A training step that raises in its forward pass, its loss, or a backward rule."""

    def explode(out: Value, a: Value) -> None:
        raise RuntimeError("a backward rule failed")

    scores = [model([0.1, 0.2]), model([0.3, 0.4])]
    if where == "forward":
        model([1.0])  # one input too few: ValueError
    total = sum(scores, Value(0.0))
    if where == "loss":
        (total - total).log()  # log(0): ValueError
    if where == "backward rule":
        total = new_node(total.data, "explode", explode, total)
    total.backward()


@pytest.mark.parametrize("where", ["forward", "loss", "backward rule"])
def test_an_exception_in_the_middle_of_a_training_step_leaves_the_interpreter_unchanged(
    where: str, collector: bool
) -> None:
    model = small_model()
    before = interpreter_state()
    with pytest.raises((ValueError, RuntimeError)):
        failing_training_step(model, where)
    assert interpreter_state() == before


def log_of_minus_one_inside_paused_gc() -> None:
    with paused_gc():
        assert not gc.isenabled()
        Value(-1.0).log()


def test_an_exception_inside_paused_gc_restores_the_collector(collector: bool) -> None:
    before = interpreter_state()
    with pytest.raises(ValueError, match="log"):
        log_of_minus_one_inside_paused_gc()
    assert interpreter_state() == before


def test_paused_gc_is_the_one_way_to_keep_the_collector_off_across_calls() -> None:
    model = small_model()
    with paused_gc():
        training_step(model)
        assert not gc.isenabled()
        training_step(model)
        assert not gc.isenabled()
    assert gc.isenabled()


@pytest.mark.parametrize("name", ["MLP training step", "draw_mlp", "plot_moons", "backward"])
def test_a_call_from_a_second_thread_leaves_the_interpreter_unchanged(
    name: str, collector: bool
) -> None:
    before = interpreter_state()
    seen_in_thread: list[dict[str, Any]] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            kept = ENTRY_POINTS[name]()
            seen_in_thread.append(interpreter_state())
            del kept
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert not errors, errors
    assert seen_in_thread == [before]
    assert interpreter_state() == before


def test_training_in_two_threads_at_once_leaves_the_interpreter_unchanged() -> None:
    before = interpreter_state()
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            model = small_model()
            barrier.wait()
            for _ in range(5):
                training_step(model)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert interpreter_state() == before
