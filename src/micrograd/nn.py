"""A tiny neural-network library on top of :class:`~micrograd.engine.Value`.

Compatible with the original micrograd 0.1.0: the same classes, the same
``random.uniform(-1, 1)`` weights drawn from Python's :mod:`random` in the
same order, bias 0, ReLU hidden layers and a linear last layer by default,
and the same reprs.  Two additions: other activations (``tanh``,
``sigmoid``), and a fix for the original's one-neuron hidden layer, which
returned a bare ``Value`` that the next layer could not read.

Like the engine, this module imports nothing outside the standard library.
"""

from __future__ import annotations

__all__ = ["ACTIVATIONS", "MLP", "Layer", "Module", "Neuron"]

import random
from collections.abc import Sequence

from micrograd.engine import Value

#: The activations a neuron can apply, by name, with the name its repr uses.
ACTIVATIONS = {"relu": "ReLU", "tanh": "Tanh", "sigmoid": "Sigmoid", "linear": "Linear"}

Inputs = Sequence[Value | float]


class Module:
    """Anything with parameters: a neuron, a layer, a network."""

    def zero_grad(self) -> None:
        """Set the gradient of every parameter to zero (gradients accumulate)."""
        for p in self.parameters():
            p.grad = 0.0

    def parameters(self) -> list[Value]:
        """The trainable Values of this module, in a fixed order."""
        return []


class Neuron(Module):
    """One neuron: ``activation(w . x + b)``.

    Parameters
    ----------
    nin : int
        Number of inputs.
    nonlin : bool, default True
        False makes the neuron linear (the original's switch).
    activation : {"relu", "tanh", "sigmoid", "linear"}, default "relu"
        The nonlinearity used when ``nonlin`` is True.

    Examples
    --------
    >>> import random
    >>> random.seed(0)
    >>> n = Neuron(2, activation="tanh")
    >>> n
    TanhNeuron(2)
    >>> len(n.parameters())
    3
    """

    def __init__(self, nin: int, nonlin: bool = True, activation: str = "relu") -> None:
        _check_size("nin", nin)
        _check_activation(activation)
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin
        self.activation = activation if nonlin else "linear"

    def __call__(self, x: Inputs) -> Value:
        if len(x) != len(self.w):
            raise ValueError(f"{self!r} takes {len(self.w)} inputs, got {len(x)}")
        # b + w0*x0 + w1*x1 + ..., added in the same order as the original's sum()
        act = self.b
        for wi, xi in zip(self.w, x, strict=True):
            act = act + wi * xi
        if self.activation == "relu":
            return act.relu()
        if self.activation == "tanh":
            return act.tanh()
        if self.activation == "sigmoid":
            return act.sigmoid()
        return act

    def parameters(self) -> list[Value]:
        return [*self.w, self.b]

    def __repr__(self) -> str:
        return f"{ACTIVATIONS[self.activation]}Neuron({len(self.w)})"


class Layer(Module):
    """A list of neurons that all read the same inputs.

    Parameters
    ----------
    nin : int
        Number of inputs of each neuron.
    nout : int
        Number of neurons (outputs).
    **kwargs
        Passed to each :class:`Neuron` (``nonlin``, ``activation``).
    """

    def __init__(self, nin: int, nout: int, **kwargs: object) -> None:
        _check_size("nout", nout)
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]  # type: ignore[arg-type]

    def __call__(self, x: Inputs) -> Value | list[Value]:
        """The layer's outputs; a single ``Value`` if the layer has one neuron (as the original)."""
        out = self.outputs(x)
        return out[0] if len(out) == 1 else out

    def outputs(self, x: Inputs) -> list[Value]:
        """The layer's outputs, always as a list."""
        return [n(x) for n in self.neurons]

    def parameters(self) -> list[Value]:
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self) -> str:
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):
    """A multi-layer perceptron.

    Parameters
    ----------
    nin : int
        Number of inputs.
    nouts : list of int
        The size of each layer, the last one being the output layer.
    activation : {"relu", "tanh", "sigmoid"}, default "relu"
        The nonlinearity of the hidden layers.
    output_activation : {"linear", "relu", "tanh", "sigmoid"}, default "linear"
        The nonlinearity of the last layer (the original: linear).

    Examples
    --------
    >>> import random
    >>> random.seed(0)
    >>> model = MLP(2, [16, 16, 1])
    >>> len(model.parameters())
    337
    >>> model([1.0, -2.0])
    Value(data=..., grad=0.0)
    """

    def __init__(
        self,
        nin: int,
        nouts: Sequence[int],
        activation: str = "relu",
        output_activation: str = "linear",
    ) -> None:
        if isinstance(nouts, (str, bytes)) or not isinstance(nouts, Sequence):
            raise TypeError(f"nouts must be a list of layer sizes, got {nouts!r}")
        if not nouts:
            raise ValueError("nouts must name at least one layer size")
        for name in (activation, output_activation):  # also when no layer would use it
            _check_activation(name)
        sizes = [nin, *nouts]
        last = len(nouts) - 1
        self.layers = [
            Layer(
                sizes[i],
                sizes[i + 1],
                nonlin=i != last or output_activation != "linear",
                activation=activation if i != last else output_activation,
            )
            for i in range(len(nouts))
        ]

    def __call__(self, x: Inputs) -> Value | list[Value]:
        """The network's output: one ``Value`` if the last layer has one neuron, else a list."""
        out: list[Value] = []
        for layer in self.layers:
            x = out = layer.outputs(x)
        return out[0] if len(out) == 1 else out

    def parameters(self) -> list[Value]:
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self) -> str:
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"


def _check_size(name: str, size: object) -> None:
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"{name} must be an int, got {type(size).__name__} {size!r}")
    if size < 1:
        raise ValueError(f"{name} must be at least 1, got {size}")


def _check_activation(activation: str) -> None:
    if activation not in ACTIVATIONS:
        raise ValueError(f"unknown activation {activation!r}; choose one of {sorted(ACTIVATIONS)}")
