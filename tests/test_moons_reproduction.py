"""The original micrograd demo (demo.ipynb), run unchanged, reproduces the original's numbers.

The data comes straight from scikit-learn, so ``y`` holds NumPy ``int64`` labels
and ``X`` NumPy ``float64`` rows, exactly as in the demo: the engine must take
them as they are.  The original micrograd 0.1.0 ends this run, at step 99, with
loss 0.010978370135492717 (to about 1e-17) and accuracy 100 %.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from sklearn.datasets import make_moons

from micrograd.engine import Value
from micrograd.nn import MLP

ORIGINAL_STEP_99_LOSS = 0.010978370135492717


# Coverage tracing would make this test four times slower and adds no coverage.
@pytest.mark.no_cover
def test_the_moons_demo_reproduces_the_originals_final_loss_and_accuracy() -> None:
    np.random.seed(1337)  # noqa: NPY002  (the demo seeds the global generator make_moons uses)
    random.seed(1337)

    X, y = make_moons(n_samples=100, noise=0.1)
    y = y * 2 - 1  # make y be -1 or 1

    model = MLP(2, [16, 16, 1])  # 2-layer neural network
    assert len(model.parameters()) == 337

    # loss function
    def loss(batch_size=None):  # the demo's own code, verbatim
        # inline DataLoader :)
        if batch_size is None:
            Xb, yb = X, y
        else:
            ri = np.random.permutation(X.shape[0])[:batch_size]  # noqa: NPY002
            Xb, yb = X[ri], y[ri]
        inputs = [list(map(Value, xrow)) for xrow in Xb]

        # forward the model to get scores
        scores = list(map(model, inputs))

        # svm "max-margin" loss
        losses = [(1 + -yi * scorei).relu() for yi, scorei in zip(yb, scores)]  # noqa: B905
        data_loss = sum(losses) * (1.0 / len(losses))
        # L2 regularization
        alpha = 1e-4
        reg_loss = alpha * sum(p * p for p in model.parameters())
        total_loss = data_loss + reg_loss

        # also get accuracy
        accuracy = [(yi > 0) == (scorei.data > 0) for yi, scorei in zip(yb, scores)]  # noqa: B905
        return total_loss, sum(accuracy) / len(accuracy)

    history = []
    for k in range(100):
        # forward
        total_loss, acc = loss()

        # backward
        model.zero_grad()
        total_loss.backward()

        # update (sgd)
        learning_rate = 1.0 - 0.9 * k / 100
        for p in model.parameters():
            p.data -= learning_rate * p.grad

        history.append((k, total_loss.data, acc))

    assert type(y[0]) is np.int64
    assert type(X[0][0]) is np.float64
    step, final_loss, final_accuracy = history[-1]
    assert step == 99
    assert type(final_loss) is float
    assert final_loss == pytest.approx(ORIGINAL_STEP_99_LOSS, abs=1e-9)
    assert final_accuracy == 1.0
    # training made progress all along: the first loss was far higher
    assert history[0][1] > 10 * final_loss
