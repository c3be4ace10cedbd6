"""The lecture's labelled neuron, ``o = tanh(x1*w1 + x2*w2 + b)``, built fresh for each use.

The ``neuron`` fixture (conftest.py) hands :func:`build_neuron` to the tests;
a test that starts a fresh interpreter imports it from here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from micrograd.engine import Value

#: The inputs, weights and bias of the docs' neuron page: the bias makes
#: n = 0.8814 and o = tanh(n) = 0.7071 (1/sqrt(2)), so do/dn = 1 - o**2 = 0.5.
LEAVES = {"x1": 2.0, "x2": 0.0, "w1": -3.0, "w2": 1.0, "b": 6.8813735870195432}


@dataclass(frozen=True)
class Neuron:
    """The neuron's Values, every one labelled with its name."""

    x1: Value
    x2: Value
    w1: Value
    w2: Value
    b: Value
    x1w1: Value
    x2w2: Value
    x1w1x2w2: Value
    n: Value
    o: Value

    @property
    def leaves(self) -> list[Value]:
        """x1, x2, w1, w2, b."""
        return [self.x1, self.x2, self.w1, self.w2, self.b]


def build_neuron(*, backward: bool = False) -> Neuron:
    """The labelled neuron, and its gradients if ``backward``."""
    leaf = {name: Value(data, label=name) for name, data in LEAVES.items()}
    x1w1 = _labelled(leaf["x1"] * leaf["w1"], "x1*w1")
    x2w2 = _labelled(leaf["x2"] * leaf["w2"], "x2*w2")
    x1w1x2w2 = _labelled(x1w1 + x2w2, "x1*w1 + x2*w2")
    n = _labelled(x1w1x2w2 + leaf["b"], "n")
    o = _labelled(n.tanh(), "o")
    if backward:
        o.backward()
    return Neuron(**leaf, x1w1=x1w1, x2w2=x2w2, x1w1x2w2=x1w1x2w2, n=n, o=o)


def _labelled(value: Value, label: str) -> Value:
    value.label = label
    return value


#: What the ``neuron`` fixture gives: :func:`build_neuron`.
NeuronBuilder = Callable[..., Neuron]
