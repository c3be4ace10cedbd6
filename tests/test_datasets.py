"""Tests for micrograd.datasets."""

from __future__ import annotations

import sys

import numpy as np
import pytest
import sklearn.datasets

from micrograd.datasets import make_moons


def test_make_moons_returns_points_and_plus_minus_one_labels() -> None:
    X, y = make_moons()
    assert X.shape == (100, 2)
    assert X.dtype == np.float64
    assert y.shape == (100,)
    assert set(y.tolist()) == {-1, 1}
    assert (y == 1).sum() == 50


def test_make_moons_matches_the_original_demo() -> None:
    # The demo: np.random.seed(1337); X, y = make_moons(n_samples=100, noise=0.1); y = y*2 - 1
    np.random.seed(1337)  # noqa: NPY002 - the legacy global seeding is what the demo did
    X_demo, y_demo = sklearn.datasets.make_moons(n_samples=100, noise=0.1)
    y_demo = y_demo * 2 - 1
    X, y = make_moons(n_samples=100, noise=0.1, seed=1337)
    np.testing.assert_array_equal(X, X_demo)
    np.testing.assert_array_equal(y, y_demo)


def test_same_seed_same_points_other_seed_other_points() -> None:
    X1, y1 = make_moons(seed=7)
    X2, y2 = make_moons(seed=7)
    X3, _ = make_moons(seed=8)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    assert not np.array_equal(X1, X3)


def test_seed_none_draws_from_the_current_numpy_state() -> None:
    np.random.seed(5)  # noqa: NPY002 - make_moons(seed=None) reads the global state
    X1, _ = make_moons(seed=None)
    np.random.seed(5)  # noqa: NPY002 - make_moons(seed=None) reads the global state
    X2, _ = make_moons(seed=None)
    X3, _ = make_moons(seed=None)
    np.testing.assert_array_equal(X1, X2)
    assert not np.array_equal(X2, X3)


def test_noise_zero_puts_points_on_the_half_circles() -> None:
    X, y = make_moons(n_samples=20, noise=0.0)
    upper = X[y == -1]
    lower = X[y == 1]
    np.testing.assert_allclose(np.hypot(upper[:, 0], upper[:, 1]), 1.0)
    np.testing.assert_allclose(np.hypot(lower[:, 0] - 1.0, lower[:, 1] - 0.5), 1.0)


def test_odd_sample_count() -> None:
    X, y = make_moons(n_samples=7, seed=0)
    assert X.shape == (7, 2)
    assert sorted(y.tolist()) == [-1, -1, -1, 1, 1, 1, 1]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"n_samples": "100"}, TypeError, "n_samples must be an int"),
        ({"n_samples": True}, TypeError, "n_samples must be an int"),
        ({"n_samples": 10.0}, TypeError, "n_samples must be an int"),
        ({"n_samples": 1}, ValueError, "n_samples must be at least 2"),
        ({"noise": "0.1"}, TypeError, "noise must be a number"),
        ({"noise": -0.1}, ValueError, "noise must be a finite number >= 0"),
        ({"noise": float("nan")}, ValueError, "noise must be a finite number >= 0"),
        ({"noise": float("inf")}, ValueError, "noise must be a finite number >= 0"),
        ({"seed": 1.5}, TypeError, "seed must be an int or None"),
        ({"seed": -1}, ValueError, "seed must be between 0 and 2\\*\\*32 - 1"),
        ({"seed": 2**32}, ValueError, "seed must be between 0 and 2\\*\\*32 - 1"),
    ],
)
def test_make_moons_rejects_bad_arguments(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        make_moons(**kwargs)  # type: ignore[arg-type]


def test_missing_scikit_learn_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sklearn.datasets", None)
    with pytest.raises(ImportError, match=r'pip install "micrograd-book\[datasets\]"'):
        make_moons()
