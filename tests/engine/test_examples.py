"""Run each script in examples/ as a user would, with small settings, and check its output."""

from __future__ import annotations

import io
import random
import re
import sys
from pathlib import Path

import pytest
from _dot import dot_on_path
from csv_log import read_log
from pages import in_page_group
from scripts import EXAMPLES, ExampleRun, import_example, printed_values, run_example, run_python

from micrograd import MLP, Value

# The original micrograd demo's last line: "step 99 loss 0.010978370135492717, accuracy 100.0%".
DEMO_FINAL_LOSS = 0.010978370135492717


def assert_svg(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<?xml")
    assert "<svg" in text
    assert text.rstrip().endswith("</svg>")
    return text


def assert_png(path: Path) -> None:
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) > 1000


NEURON_NUMBERS = {
    "o": "0.7071",
    "n.grad": "0.5000",
    "x1.grad": "-1.5000",
    "w1.grad": "1.0000",
    "x2.grad": "0.5000",
    "w2.grad": "0.0000",
    "b.grad": "0.5000",
}


@pytest.mark.parametrize(("name", "nodes"), [("neuron", 10), ("tanh_neuron", 17)])
def test_neuron_examples_print_the_gradients_and_draw_the_graph(
    name: str, nodes: int, tmp_path: Path
) -> None:
    stdout = run_example(name, "--steps", "2", "--out", str(tmp_path))
    printed = printed_values(stdout)
    for key, expected in NEURON_NUMBERS.items():
        assert printed[key] == expected
    assert printed["graph nodes"] == str(nodes)
    svg = assert_svg(tmp_path / f"{name}.svg")
    assert "data 0.7071" in svg
    assert "grad &#45;1.5000" in svg
    # two nudges along the gradient make o grow, and the log has the start and both steps
    steps = [float(o) for o in re.findall(r"^step \d: o = (\S+)$", stdout, flags=re.M)]
    assert len(steps) == 2
    assert 0.7071 < steps[0] < steps[1] < 1.0
    assert printed["final o"] == f"{steps[1]:.4f}"
    rows = read_log(tmp_path / "log.csv")
    assert [row.step for row in rows] == [0, 1, 2]
    assert f"{1.0 - rows[-1].loss:.4f}" == printed["final o"]


def test_tanh_from_exp_gives_the_same_numbers_as_tanh(tmp_path: Path) -> None:
    a = run_example("neuron", "--steps", "3", "--out", str(tmp_path / "a"))
    b = run_example("tanh_neuron", "--steps", "3", "--out", str(tmp_path / "b"))
    strip = {"graph", "graph nodes", "log"}
    assert {k: v for k, v in printed_values(a).items() if k not in strip} == {
        k: v for k, v in printed_values(b).items() if k not in strip
    }


def reference_four_points(steps: int, seed: int) -> tuple[list[float], list[list[float]]]:
    """The four-point training loop written out here, with the public API."""
    random.seed(seed)
    xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    ys = [1.0, -1.0, -1.0, 1.0]
    model = MLP(3, [4, 4, 1], activation="tanh", output_activation="tanh")
    losses, preds = [], []
    for _ in range(steps):
        ypred = [model(x) for x in xs]
        loss = sum(((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred, strict=True)), Value(0.0))
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data += -0.1 * p.grad
        losses.append(loss.data)
        preds.append([y.data for y in ypred])  # type: ignore[union-attr]
    return losses, preds


def test_mlp_four_points_trains_and_writes_its_pictures_and_log(tmp_path: Path) -> None:
    stdout = run_example("mlp_four_points", "--steps", "20", "--out", str(tmp_path))
    losses, preds = reference_four_points(20, 1337)
    printed_losses = re.findall(r"^step (\d+): loss (\S+)$", stdout, flags=re.M)
    assert printed_losses == [(str(k), f"{loss:.10f}") for k, loss in enumerate(losses)]
    printed = printed_values(stdout)
    assert printed["parameters"] == "41"
    assert printed["final loss"] == f"{losses[-1]:.10f}"
    assert printed["predictions"] == "[" + ", ".join(f"{p:.4f}" for p in preds[-1]) + "]"
    assert losses[-1] < losses[0] / 10
    rows = read_log(tmp_path / "log.csv")
    assert [row.loss for row in rows] == losses
    assert [list(row.predictions or ()) for row in rows] == preds
    before = assert_svg(tmp_path / "mlp_before.svg")
    after = assert_svg(tmp_path / "mlp_after.svg")
    assert before != after  # training changed the weights, so the drawing
    assert_png(tmp_path / "loss.png")


def test_moons_short_run_writes_plots_and_log(tmp_path: Path) -> None:
    stdout = run_example("moons", "--steps", "3", "--every", "1", "--out", str(tmp_path))
    printed = printed_values(stdout)
    assert printed["points"] == "100, parameters: 337"
    # The original demo's first three lines (loss 0.8958441028683222, 1.723590533697202,
    # 0.7429006313851131; accuracy 50%, 81%, 77%), to 10 decimals.
    assert re.findall(r"^step (\d): loss (\S+), accuracy (\S+)$", stdout, flags=re.M) == [
        ("0", "0.8958441029", "50.0%"),
        ("1", "1.7235905337", "81.0%"),
        ("2", "0.7429006314", "77.0%"),
    ]
    assert printed["final loss"] == "0.7429006314"
    assert printed["final accuracy"] == "77.0%"
    rows = read_log(tmp_path / "log.csv")
    assert [row.step for row in rows] == [0, 1, 2]
    assert [row.learning_rate for row in rows] == [1.0, 1.0 - 0.9 / 100, 1.0 - 1.8 / 100]
    assert rows[0].loss == 0.8958441028683222
    for picture in ("data.png", "decision_boundary.png", "training.png"):
        assert_png(tmp_path / picture)


@pytest.mark.one_python
@in_page_group("moons")  # shares the run with test_docs_match_examples (conftest.example_run)
def test_moons_full_run_reaches_the_original_demo_loss(example_run: ExampleRun) -> None:
    stdout, out = example_run("moons")
    printed = printed_values(stdout)
    assert abs(float(printed["final loss"]) - DEMO_FINAL_LOSS) < 1e-9
    assert printed["final accuracy"] == "100.0%"
    rows = read_log(out / "log.csv")
    assert len(rows) == 100
    assert abs(rows[-1].loss - DEMO_FINAL_LOSS) < 1e-12
    assert rows[-1].accuracy == 1.0


@pytest.mark.parametrize("name", ["neuron", "tanh_neuron", "mlp_four_points", "moons"])
def test_examples_take_the_common_options(name: str) -> None:
    help_text = run_example(name, "--help")
    for option in ("--steps", "--seed", "--out", "--quiet"):
        assert option in help_text
    proc = run_python(str(EXAMPLES / f"{name}.py"), "--steps", "-1", returncode=2)
    assert "expected a number >= 0" in proc.stderr


def test_an_out_folder_that_cannot_be_made_ends_the_script_with_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    out = blocker / "pictures"  # under a file: no one can make it
    proc = run_python(str(EXAMPLES / "moons.py"), "--out", str(out), returncode=2)
    assert "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[-1] == (
        f"python examples/moons.py: error: --out {out}: cannot make the folder: Not a directory"
    )
    assert proc.stdout == ""  # stopped before computing anything
    assert blocker.read_text(encoding="utf-8") == "not a folder\n"


@pytest.mark.parametrize("name", ["moons", "neuron", "mlp_four_points"])
def test_an_out_that_is_a_file_ends_the_script_with_one_line(name: str, tmp_path: Path) -> None:
    blocker = tmp_path / "log.csv"
    blocker.write_text("keep me\n", encoding="utf-8")
    proc = run_python(str(EXAMPLES / f"{name}.py"), "--out", str(blocker), returncode=2)
    assert "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[-1] == (
        f"python examples/{name}.py: error: --out {blocker}: it is a file, not a folder"
    )
    assert blocker.read_text(encoding="utf-8") == "keep me\n"


def test_zero_steps_reports_the_untrained_network(tmp_path: Path) -> None:
    stdout = run_example("mlp_four_points", "--steps", "0", "--out", str(tmp_path))
    losses, _ = reference_four_points(1, 1337)
    assert printed_values(stdout)["final loss"] == f"{losses[0]:.10f}"
    assert read_log(tmp_path / "log.csv") == []
    assert not (tmp_path / "loss.png").exists()


def test_main_runs_in_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    neuron = import_example("neuron")
    with dot_on_path(tmp_path):
        assert neuron.main(["--steps", "1", "--out", str(tmp_path / "out"), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "o: 0.7071" in out
    assert (tmp_path / "out" / "neuron.svg").is_file()


# -- the progress bar ---------------------------------------------------------------------


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_draws_on_a_terminal_only() -> None:
    common = import_example("_common")
    terminal = FakeTerminal()
    with common.Progress(4, "train", stream=terminal, width=8) as bar:
        for _ in range(4):
            bar.update(note="loss 0.1")
        assert bar.line() == "train [########] 4/4 loss 0.1"
    text = terminal.getvalue()
    assert text.startswith("\rtrain [##------] 1/4 loss 0.1")
    assert text.endswith("\rtrain [########] 4/4 loss 0.1\n")

    pipe = io.StringIO()  # not a terminal: nothing written
    with common.Progress(4, "train", stream=pipe) as bar:
        bar.update()
    assert pipe.getvalue() == ""

    quiet = FakeTerminal()
    with common.Progress(4, "train", enabled=False, stream=quiet) as bar:
        bar.update()
    assert quiet.getvalue() == ""


def test_progress_bar_of_zero_steps_is_full() -> None:
    common = import_example("_common")
    bar = common.Progress(0, "x", enabled=False, width=4)
    assert bar.line() == "x [####] 0/0"


def test_progress_bar_steps_aside_for_printed_lines(capsys: pytest.CaptureFixture[str]) -> None:
    common = import_example("_common")
    terminal = FakeTerminal()
    bar = common.Progress(2, "t", stream=terminal, width=2)
    bar.print("before")  # nothing drawn yet: nothing to clear
    bar.update()
    bar.print("step 0")
    bar.close()
    assert capsys.readouterr().out == "before\nstep 0\n"
    blank = " " * len("t [#-] 1/2")
    assert terminal.getvalue() == f"\rt [#-] 1/2\r{blank}\rt [#-] 1/2\n"


def test_without_any_dot_program_the_graph_is_saved_as_dot_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    neuron = import_example("neuron")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    assert neuron.main(["--steps", "0", "--out", str(tmp_path / "out")]) == 0
    captured = capsys.readouterr()
    assert "pip install graphviz-pure" in captured.err
    gv = tmp_path / "out" / "neuron.gv"
    assert "data 0.7071" in gv.read_text(encoding="utf-8")
    assert not (tmp_path / "out" / "neuron.svg").exists()
    assert f"graph: {gv}" in captured.out
