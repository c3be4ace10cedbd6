"""The same neuron as neuron.py, with tanh built from exp: (e**2n - 1) / (e**2n + 1).

Run ``python examples/tanh_neuron.py``.  Instead of the one ``tanh``
operation, ``o`` is computed from ``Value.exp``, ``+``, ``-``, ``*`` and
``/``; backpropagation through these smaller pieces gives the same output
and the same gradients as neuron.py, and the drawn graph
(``tanh_neuron.svg``) is bigger.  Then ``--steps`` nudges of ``w1``,
``w2`` and ``b`` along their gradients, as in neuron.py, which this script
runs with its own activation.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import neuron

from micrograd import Value

NAME = "tanh_neuron"


def tanh_from_exp(n: Value) -> Value:
    """``(e - 1) / (e + 1)`` with ``e = exp(2n)``: tanh from smaller operations."""
    e = (2 * n).exp()
    e.label = "e"
    return (e - 1) / (e + 1)


def main(argv: list[str] | None = None) -> int:
    description = (__doc__ or NAME).splitlines()[0]
    return neuron.main(argv, script=NAME, description=description, activation=tanh_from_exp)


if __name__ == "__main__":
    sys.exit(main())
