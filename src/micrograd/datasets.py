"""Small seeded data sets for the examples and the docs.

This module needs NumPy and scikit-learn: ``pip install
"micrograd-book[datasets]"``.  Importing :mod:`micrograd` does not import them.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - only for the type checker
    # numpy is optional: the lint environment may not have it.
    import numpy as np  # type: ignore[import-not-found, unused-ignore]
    import numpy.typing as npt  # type: ignore[import-not-found, unused-ignore]

__all__ = ["make_moons"]


def _imports() -> tuple[Any, Any]:
    """NumPy and scikit-learn's ``datasets``, or an ImportError naming the extra."""
    try:
        import numpy  # type: ignore[import-not-found, unused-ignore]
        import sklearn.datasets
    except ImportError as error:
        raise ImportError(
            "micrograd.datasets needs numpy and scikit-learn: "
            'pip install "micrograd-book[datasets]"'
        ) from error
    return numpy, sklearn.datasets


def make_moons(
    n_samples: int = 100, noise: float = 0.1, seed: int | None = 1337
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Two interleaving half circles, labelled -1 and +1.

    The data of the original micrograd demo: it calls ``np.random.seed(seed)``
    and then scikit-learn's :func:`sklearn.datasets.make_moons` *without* a
    ``random_state`` (so scikit-learn draws from NumPy's global generator),
    and maps the labels 0, 1 to -1, +1.  With the defaults the points are the
    demo's, point for point.

    Parameters
    ----------
    n_samples : int, default 100
        Number of points, half in each moon (with an odd count the +1 moon
        gets the extra point).
    noise : float, default 0.1
        Standard deviation of the Gaussian noise added to each coordinate.
    seed : int or None, default 1337
        Seed for NumPy's global random generator.  ``None`` leaves the
        generator as it is (the points then depend on earlier draws).

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The points.
    y : ndarray of shape (n_samples,)
        The labels, each -1 or +1.

    Raises
    ------
    TypeError
        If ``n_samples`` or ``seed`` is not an int, or ``noise`` is not a number.
    ValueError
        If ``n_samples < 2``, ``noise < 0`` or ``noise`` is not finite, or
        ``seed`` is outside ``0 .. 2**32 - 1``.
    ImportError
        If NumPy or scikit-learn is missing (``pip install "micrograd-book[datasets]"``).

    Notes
    -----
    Seeding NumPy's *global* generator is what the original demo does, and it
    is kept so that the points match; it also reseeds anything else in the
    program that draws from ``np.random``.
    """
    if isinstance(n_samples, bool) or not isinstance(n_samples, numbers.Integral):
        raise TypeError(f"n_samples must be an int, got {type(n_samples).__name__} {n_samples!r}")
    if n_samples < 2:
        raise ValueError(f"n_samples must be at least 2 (one per moon), got {n_samples}")
    if isinstance(noise, bool) or not isinstance(noise, numbers.Real):
        raise TypeError(f"noise must be a number, got {type(noise).__name__} {noise!r}")
    if not 0 <= float(noise) < float("inf"):
        raise ValueError(f"noise must be a finite number >= 0, got {noise!r}")
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise TypeError(f"seed must be an int or None, got {type(seed).__name__} {seed!r}")
        if not 0 <= seed < 2**32:
            raise ValueError(f"seed must be between 0 and 2**32 - 1, got {seed}")
    np_, sk_datasets = _imports()
    if seed is not None:
        np_.random.seed(int(seed))
    X, y = sk_datasets.make_moons(n_samples=int(n_samples), noise=float(noise))
    return X.astype(np_.float64), (y * 2 - 1).astype(np_.int64)
