"""The original micrograd demo (demo.ipynb), run unchanged, reproduces the original's numbers.

The demo's code is kept once, as the notebook wrote it, in
``benchmarks/cases.py`` (``moons_demo``): its data come straight from
scikit-learn, so ``y`` holds NumPy ``int64`` labels and ``X`` NumPy
``float64`` rows, and the engine must take them as they are.  The original
micrograd 0.1.0 ends this run, at step 99, with loss 0.010978370135492717
(to about 1e-17) and accuracy 100 %.
"""

from __future__ import annotations

import json

import pytest
from scripts import ROOT, run_python

ORIGINAL_STEP_99_LOSS = 0.010978370135492717


@pytest.mark.slow
@pytest.mark.one_python
def test_the_moons_demo_reproduces_the_originals_final_loss_and_accuracy() -> None:
    cases = ROOT / "benchmarks" / "cases.py"
    result = json.loads(run_python(str(cases), "moons_demo", "--steps", "100").stdout)
    assert result["steps"] == 100
    assert result["final_loss"] == pytest.approx(ORIGINAL_STEP_99_LOSS, abs=1e-9)
    assert result["final_accuracy"] == 1.0
