"""Small seeded data sets for the examples and the docs, in plain Python.

:func:`make_moons` gives, for a given seed, exactly the points of the
original micrograd demo, ``np.random.seed(seed)`` followed by scikit-learn's
``sklearn.datasets.make_moons``, without NumPy or scikit-learn: it re-creates
NumPy's legacy Mersenne Twister (``RandomState``) in a private generator.  It
needs the standard library only, so it runs wherever the engine runs (the
docs run it in the reader's browser), and it leaves every global generator,
NumPy's and the :mod:`random` module's, as it found them.

:func:`names` gives the 32,033 names of Andrej Karpathy's makemore, which the
package ships (``micrograd/data/names.txt``, with its licence in
``micrograd/data/NOTICE``): it reads them from the installed package, never
from the network.
"""

from __future__ import annotations

__all__ = ["make_moons", "names"]

import math
import numbers
import random
from importlib import resources

# Mersenne Twister MT19937, as NumPy's legacy RandomState seeds it.
_MT_WORDS = 624
_MT_MASK = 0xFFFFFFFF


def _numpy_legacy_generator(seed: int) -> random.Random:
    """A private generator in the state ``numpy.random.RandomState(seed)`` starts in.

    NumPy seeds MT19937 from an integer with Matsumoto and Nishimura's
    ``init_genrand`` (unlike :func:`random.seed`, which uses ``init_by_array``).
    CPython's :class:`random.Random` is the same MT19937, and its
    ``getrandbits(32)`` and ``random()`` are NumPy's ``next_uint32`` and
    ``next_double``, so it is given that state and does the drawing.
    """
    key = [0] * _MT_WORDS
    key[0] = seed & _MT_MASK
    for i in range(1, _MT_WORDS):
        previous = key[i - 1]
        key[i] = (1812433253 * (previous ^ (previous >> 30)) + i) & _MT_MASK
    generator = random.Random()
    # Position 624: the next draw first regenerates the whole block, as in NumPy.
    generator.setstate((3, (*key, _MT_WORDS), None))
    return generator


def _interval(generator: random.Random, largest: int) -> int:
    """A uniform integer in ``0 .. largest``: NumPy's ``random_interval`` (bit mask, rejection)."""
    if largest == 0:
        return 0
    mask = largest
    for shift in (1, 2, 4, 8, 16):
        mask |= mask >> shift
    while True:
        value = generator.getrandbits(32) & mask
        if value <= largest:
            return value


def _shuffled_indices(generator: random.Random, count: int) -> list[int]:
    """``0 .. count - 1`` shuffled as ``RandomState.shuffle(np.arange(count))`` does."""
    indices = list(range(count))
    for i in reversed(range(1, count)):
        j = _interval(generator, i)
        indices[i], indices[j] = indices[j], indices[i]
    return indices


def _gaussians(generator: random.Random, count: int) -> list[float]:
    """``count`` standard normal draws: NumPy's legacy ``gauss`` (Marsaglia's polar method)."""
    out: list[float] = []
    while len(out) < count:
        while True:
            x1 = 2.0 * generator.random() - 1.0
            x2 = 2.0 * generator.random() - 1.0
            r2 = x1 * x1 + x2 * x2
            if 0.0 < r2 < 1.0:
                break
        f = math.sqrt(-2.0 * math.log(r2) / r2)
        out.append(f * x2)  # returned first; f * x1 is kept for the next call
        out.append(f * x1)
    return out[:count]


def _linspace_0_pi(count: int) -> list[float]:
    """``numpy.linspace(0, numpy.pi, count)``, value for value."""
    if count == 1:
        return [0.0]
    step = math.pi / (count - 1)
    return [i * step for i in range(count - 1)] + [math.pi]


def make_moons(
    n_samples: int = 100, noise: float = 0.1, seed: int | None = 1337
) -> tuple[list[list[float]], list[int]]:
    """Two interleaving half circles, labelled -1 and +1.

    The data of the original micrograd demo, which calls
    ``np.random.seed(seed)`` and then scikit-learn's ``make_moons`` without a
    ``random_state``, and maps the labels 0, 1 to -1, +1.  For the same seed
    the points are the same, bit for bit (a test compares them with
    scikit-learn's under CPython).  Nothing outside this call is seeded or
    drawn from: NumPy's and :mod:`random`'s global generators are untouched.

    Parameters
    ----------
    n_samples : int, default 100
        Number of points, half in each moon (with an odd count the +1 moon
        gets the extra point).
    noise : float, default 0.1
        Standard deviation of the Gaussian noise added to each coordinate.
    seed : int or None, default 1337
        The seed, as ``np.random.seed`` takes it.  ``None`` draws a fresh
        seed from the operating system (different points every call).

    Returns
    -------
    X : list of n_samples [x1, x2] lists of float
        The points.  ``numpy.asarray(X)`` is scikit-learn's array of shape
        ``(n_samples, 2)``; plain lists keep this module free of NumPy.
    y : list of n_samples int
        The labels, each -1 or +1.

    Raises
    ------
    TypeError
        If ``n_samples`` or ``seed`` is not an int, or ``noise`` is not a number.
    ValueError
        If ``n_samples < 2``, ``noise < 0`` or ``noise`` is not finite, or
        ``seed`` is outside ``0 .. 2**32 - 1``.

    Examples
    --------
    >>> X, y = make_moons(n_samples=4, noise=0.0, seed=0)
    >>> len(X), sorted(y)
    (4, [-1, -1, 1, 1])
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
    n = int(n_samples)
    generator = _numpy_legacy_generator(
        random.SystemRandom().getrandbits(32) if seed is None else int(seed)
    )

    # scikit-learn's construction: the upper moon (label 0), then the lower one (label 1).
    n_out, n_in = n // 2, n - n // 2
    points = [[math.cos(t), math.sin(t)] for t in _linspace_0_pi(n_out)]
    points += [[1 - math.cos(t), 1 - math.sin(t) - 0.5] for t in _linspace_0_pi(n_in)]
    labels = [-1] * n_out + [1] * n_in
    order = _shuffled_indices(generator, n)
    points = [points[i] for i in order]
    labels = [labels[i] for i in order]
    # RandomState.normal(loc=0.0, scale=noise): loc + scale * gauss, row by row.
    draws = iter(_gaussians(generator, 2 * n))
    scale = float(noise)
    X = [[x1 + (0.0 + scale * next(draws)), x2 + (0.0 + scale * next(draws))] for x1, x2 in points]
    return X, labels


def names() -> list[str]:
    """The 32,033 names of makemore's ``names.txt``, in the file's order.

    Given names, lower case ``a`` to ``z``, 2 to 15 letters each, some of
    them more than once (29,494 different ones).  The file ships with the
    package and is read from it with :mod:`importlib.resources`: no network
    access, the same list on every call.  Its source and licence (MIT,
    Andrej Karpathy's makemore) are in ``micrograd/data/NOTICE``.

    Returns
    -------
    list of str
        The names, a new list on every call.

    Examples
    --------
    >>> words = names()
    >>> len(words), words[:3]
    (32033, ['emma', 'olivia', 'ava'])
    """
    text = (resources.files("micrograd") / "data" / "names.txt").read_text(encoding="utf-8")
    return text.splitlines()
