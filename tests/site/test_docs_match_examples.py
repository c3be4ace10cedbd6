"""The site and the example scripts tell the same story with the same numbers.

Each example in ``examples/`` is run as a user would run it (``python
examples/NAME.py``, default seed and steps, in a subprocess: the
``example_run`` fixture) and the numbers it prints are compared with the
numbers the matching docs page glues into its prose (``pages.glued``).
"""

from __future__ import annotations

import re

import pytest
from pages import glued, in_page_group
from scripts import ExampleRun, printed_values


def printed_by(example_run: ExampleRun, name: str) -> dict[str, str]:
    return printed_values(example_run(name)[0])


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text)]


@in_page_group("neuron")
@pytest.mark.parametrize(
    ("example", "prefix"), [("neuron", "neuron_"), ("tanh_neuron", "neuron_exp_")]
)
def test_neuron_examples_print_the_neuron_page_numbers(
    example_run: ExampleRun, example: str, prefix: str
) -> None:
    printed = printed_by(example_run, example)
    g = glued("neuron")
    assert printed["o"] == f"{g[prefix + 'o']:.4f}"
    assert printed["n.grad"] == f"{g[prefix + 'dn']:.4f}"
    for name in ("x1", "w1", "x2", "w2"):
        assert printed[f"{name}.grad"] == f"{g[prefix + 'd' + name]:.4f}", name
    assert int(printed["graph nodes"]) == g[prefix + "nodes"]


@in_page_group("mlp")
@pytest.mark.torch  # the page checks its boxes against PyTorch
def test_mlp_example_prints_the_mlp_page_numbers(example_run: ExampleRun) -> None:
    printed = printed_by(example_run, "mlp_four_points")
    g = glued("mlp")
    assert int(printed["parameters"]) == g["mlp_params"]
    assert printed["final loss"] == f"{g['mlp_last_loss']:.10f}"
    assert printed["step 0"] == f"loss {g['mlp_first_loss']:.10f}"
    assert _numbers(printed["predictions"]) == [float(f"{g[f'mlp_pred{i}']:.4f}") for i in range(4)]
    assert _numbers(printed["targets"]) == [1.0, -1.0, -1.0, 1.0]


@pytest.mark.no_cover  # see test_docs_claims.NO_COVER
@pytest.mark.one_python
@in_page_group("moons")  # and the example's run with test_examples (conftest.example_run)
def test_moons_example_prints_the_moons_page_numbers(example_run: ExampleRun) -> None:
    printed = printed_by(example_run, "moons")
    g = glued("moons")
    assert _numbers(printed["points"]) == [g["moons_points"], g["moons_params"]]
    assert printed["final loss"] == f"{g['moons_final_loss']:.10f}"
    assert printed["final accuracy"] == f"{g['moons_final_acc'] / 100:.1%}"
    assert abs(float(printed["final loss"]) - 0.010978370135492717) < 1e-9
