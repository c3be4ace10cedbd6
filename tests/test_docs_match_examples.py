"""The site and the example scripts tell the same story with the same numbers.

Each example in ``examples/`` is run as a user would run it (``python
examples/NAME.py``, default seed and steps, in a subprocess) and the numbers it
prints are compared with the numbers the matching docs page glues into its
prose (the page's cells are run by ``test_docs_claims.run_page``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from test_docs_claims import glued

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@cache
def _example_output(name: str, out_dir: str) -> str:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / f"{name}.py"), "--quiet", "--out", out_dir],
        cwd=out_dir,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "MPLBACKEND": "Agg"},
        check=False,
    )
    assert result.returncode == 0, f"examples/{name}.py failed:\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def run_example(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    def run(name: str) -> dict[str, str]:
        out = tmp_path_factory.mktemp(name)
        text = _example_output(name, str(out))
        fields = {}
        for line in text.splitlines():
            key, sep, value = line.partition(": ")
            if sep:
                fields[key] = value
        return fields

    return run


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text)]


@pytest.mark.parametrize(
    ("example", "prefix"), [("neuron", "neuron_"), ("tanh_neuron", "neuron_exp_")]
)
def test_neuron_examples_print_the_neuron_page_numbers(
    run_example,
    example: str,
    prefix: str,  # type: ignore[no-untyped-def]
) -> None:
    printed = run_example(example)
    g = glued("neuron")
    assert printed["o"] == f"{g[prefix + 'o']:.4f}"
    assert printed["n.grad"] == f"{g[prefix + 'dn']:.4f}"
    for name in ("x1", "w1", "x2", "w2"):
        assert printed[f"{name}.grad"] == f"{g[prefix + 'd' + name]:.4f}", name
    assert int(printed["graph nodes"]) == g[prefix + "nodes"]


def test_mlp_example_prints_the_mlp_page_numbers(run_example) -> None:  # type: ignore[no-untyped-def]
    printed = run_example("mlp_four_points")
    g = glued("mlp")
    assert int(printed["parameters"]) == g["mlp_params"]
    assert printed["final loss"] == f"{g['mlp_last_loss']:.10f}"
    assert printed["step 0"] == f"loss {g['mlp_first_loss']:.10f}"
    assert _numbers(printed["predictions"]) == [float(f"{g[f'mlp_pred{i}']:.4f}") for i in range(4)]
    assert _numbers(printed["targets"]) == [1.0, -1.0, -1.0, 1.0]


@pytest.mark.no_cover  # see test_docs_claims.NO_COVER
def test_moons_example_prints_the_moons_page_numbers(run_example) -> None:  # type: ignore[no-untyped-def]
    printed = run_example("moons")
    g = glued("moons")
    assert _numbers(printed["points"]) == [g["moons_points"], g["moons_params"]]
    assert printed["final loss"] == f"{g['moons_final_loss']:.10f}"
    assert printed["final accuracy"] == f"{g['moons_final_acc'] / 100:.1%}"
    assert abs(float(printed["final loss"]) - 0.010978370135492717) < 1e-9
