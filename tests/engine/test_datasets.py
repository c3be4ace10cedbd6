"""Tests for micrograd.datasets: the pure-Python make_moons is scikit-learn's, bit for bit;
names() is makemore's names.txt, read from the package."""

from __future__ import annotations

import hashlib
import math
import random
import re
import socket
from importlib import resources

import numpy as np
import pytest
import sklearn.datasets

from micrograd.datasets import make_moons, names


def scikit_learn_moons(n_samples: int, noise: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """What the original demo does: seed NumPy's global generator, call scikit-learn."""
    state = np.random.get_state()  # noqa: NPY002 - restored below: this test leaves no trace
    try:
        np.random.seed(seed)  # noqa: NPY002 - the legacy global seeding is what the demo did
        X, y = sklearn.datasets.make_moons(n_samples=n_samples, noise=noise)
    finally:
        np.random.set_state(state)  # noqa: NPY002
    return X, y * 2 - 1


def test_make_moons_returns_lists_of_points_and_plus_minus_one_labels() -> None:
    X, y = make_moons()
    assert isinstance(X, list)
    assert isinstance(y, list)
    assert len(X) == 100
    assert all(type(p) is list and len(p) == 2 for p in X)
    assert all(type(v) is float for p in X for v in p)
    assert all(type(label) is int for label in y)
    assert set(y) == {-1, 1}
    assert y.count(1) == 50


def test_make_moons_is_the_original_demos_data_bit_for_bit() -> None:
    # The demo: np.random.seed(1337); X, y = make_moons(n_samples=100, noise=0.1); y = y*2 - 1
    X_demo, y_demo = scikit_learn_moons(100, 0.1, 1337)
    X, y = make_moons(n_samples=100, noise=0.1, seed=1337)
    assert np.asarray(X).tobytes() == X_demo.tobytes()  # every bit, including signed zeros
    assert y == y_demo.tolist()


@pytest.mark.parametrize("seed", [0, 1, 7, 42, 2**31, 2**32 - 1])
@pytest.mark.parametrize("n_samples", [2, 3, 7, 100, 257])
@pytest.mark.parametrize("noise", [0.0, 0.1, 0.35])
def test_make_moons_equals_scikit_learn_for_other_seeds_and_sizes(
    seed: int, n_samples: int, noise: float
) -> None:
    X_sk, y_sk = scikit_learn_moons(n_samples, noise, seed)
    X, y = make_moons(n_samples=n_samples, noise=noise, seed=seed)
    assert np.asarray(X).tobytes() == X_sk.tobytes()
    assert y == y_sk.tolist()


def test_make_moons_leaves_numpys_and_pythons_global_generators_alone() -> None:
    np.random.seed(5)  # noqa: NPY002 - a user's own seeding, which make_moons must not touch
    random.seed(5)
    numpy_before, python_before = np.random.get_state(), random.getstate()  # noqa: NPY002
    make_moons(n_samples=50, noise=0.2, seed=3)
    make_moons(n_samples=50, noise=0.2, seed=None)
    numpy_after = np.random.get_state()  # noqa: NPY002
    assert all(np.array_equal(a, b) for a, b in zip(numpy_before, numpy_after, strict=True))
    assert random.getstate() == python_before


def test_same_seed_same_points_other_seed_other_points() -> None:
    assert make_moons(seed=7) == make_moons(seed=7)
    assert make_moons(seed=7)[0] != make_moons(seed=8)[0]


def test_seed_none_gives_fresh_points_every_call() -> None:
    assert make_moons(seed=None)[0] != make_moons(seed=None)[0]


def test_noise_zero_puts_points_on_the_half_circles() -> None:
    X, y = make_moons(n_samples=20, noise=0.0)
    for (x1, x2), label in zip(X, y, strict=True):
        centre = (0.0, 0.0) if label == -1 else (1.0, 0.5)
        assert math.hypot(x1 - centre[0], x2 - centre[1]) == pytest.approx(1.0)


def test_odd_sample_count_gives_the_plus_one_moon_the_extra_point() -> None:
    X, y = make_moons(n_samples=7, seed=0)
    assert len(X) == 7
    assert sorted(y) == [-1, -1, -1, 1, 1, 1, 1]


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


# -- names ------------------------------------------------------------------------------


def test_names_are_makemores_32033_names_in_the_files_order() -> None:
    words = names()
    assert len(words) == 32_033
    assert words[:3] == ["emma", "olivia", "ava"]
    assert words[-3:] == ["zyrie", "zyron", "zzyzx"]
    assert len(set(words)) == 29_494


def test_names_are_lower_case_letters_only() -> None:
    words = names()
    assert all(re.fullmatch("[a-z]{2,15}", word) for word in words)
    assert set("".join(words)) == set("abcdefghijklmnopqrstuvwxyz")


def test_names_are_read_without_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("names() tried to open a network connection")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    assert len(names()) == 32_033


def test_names_gives_a_new_list_every_call() -> None:
    first = names()
    first.clear()
    assert len(names()) == 32_033


def test_the_notice_names_the_shipped_files_checksum_and_licence() -> None:
    data = resources.files("micrograd") / "data"
    notice = (data / "NOTICE").read_text(encoding="utf-8")
    digest = hashlib.sha256((data / "names.txt").read_bytes()).hexdigest()
    assert digest in notice
    assert "https://github.com/karpathy/makemore" in notice
    assert "MIT License" in notice
    assert "Copyright (c) 2022 Andrej Karpathy" in notice
