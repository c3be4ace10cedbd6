"""Shared pytest configuration: Hypothesis profiles and an oracle copy of the original micrograd.

Hypothesis profiles
-------------------
``ci`` (loaded by default) is deterministic: ``derandomize=True`` makes every run
try the same examples, so a green CI stays green and a red one stays red.
``dev`` explores new random examples on every run, with more of them; choose it
with ``HYPOTHESIS_PROFILE=dev python -m nox -s tests``.

PyTorch tests
-------------
Tests marked ``torch`` compare with PyTorch.  nox runs them in one test
session and deselects them (``-m "not torch"``) in the others; they are never
skipped.  A run that selects them where torch is not installed stops before
any test runs, with an error that says so.

The original micrograd
----------------------
The original micrograd 0.1.0 is not installable in the test environment (its
PyPI name ``micrograd`` would clash with this package's import name), so its
two modules are kept below, verbatim, as an *oracle*: the ``original`` fixture
loads them as a separate, private module namespace so that tests can compare
reprs, parameter order, outputs and gradient-accumulation semantics with the
code this project promises to stay compatible with.

The original source is Copyright (c) 2020 Andrej Karpathy, MIT License (see LICENSE).
"""

from __future__ import annotations

import importlib.util
import os
import types
from collections.abc import Iterator

import pytest
from _dot import dot_on_path
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=200,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    deadline=None,
    max_examples=1000,
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.hookimpl(trylast=True)  # after -m has deselected what it deselects
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Stop a run that selects tests marked ``torch`` where torch is not installed."""
    selected = [item.nodeid for item in items if item.get_closest_marker("torch")]
    if selected and importlib.util.find_spec("torch") is None:
        raise pytest.UsageError(
            f"{len(selected)} selected tests need torch, which is not installed "
            f"(first: {selected[0]}). Install torch==2.13.0 (nox -s tests-3.11 does), "
            'or deselect them with -m "not torch".'
        )


@pytest.fixture
def close_figures() -> Iterator[None]:
    """Close every matplotlib figure a test opened (``usefixtures("close_figures")``)."""
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.fixture(scope="module")
def dot_program(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A working ``dot`` on PATH (Graphviz, or graphviz-pure behind a shim)."""
    with dot_on_path(tmp_path_factory.mktemp("dot")) as program:
        yield program


# karpathy/micrograd 0.1.0, micrograd/engine.py, verbatim.
ORIGINAL_ENGINE_SOURCE = '''
class Value:
    """ stores a single scalar value and its gradient """

    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0
        # internal variables used for autograd graph construction
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op # the op that produced this node, for graphviz / debugging / etc

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward

        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward

        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data**other, (self,), f'**{other}')

        def _backward():
            self.grad += (other * self.data**(other-1)) * out.grad
        out._backward = _backward

        return out

    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU')

        def _backward():
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward

        return out

    def backward(self):

        # topological order all of the children in the graph
        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        # go one variable at a time and apply the chain rule to get its gradient
        self.grad = 1
        for v in reversed(topo):
            v._backward()

    def __neg__(self): # -self
        return self * -1

    def __radd__(self, other): # other + self
        return self + other

    def __sub__(self, other): # self - other
        return self + (-other)

    def __rsub__(self, other): # other - self
        return other + (-self)

    def __rmul__(self, other): # other * self
        return self * other

    def __truediv__(self, other): # self / other
        return self * other**-1

    def __rtruediv__(self, other): # other / self
        return other * self**-1

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"
'''

# karpathy/micrograd 0.1.0, micrograd/nn.py, verbatim.
ORIGINAL_NN_SOURCE = """
import random
from micrograd.engine import Value

class Module:

    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0

    def parameters(self):
        return []

class Neuron(Module):

    def __init__(self, nin, nonlin=True):
        self.w = [Value(random.uniform(-1,1)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi*xi for wi,xi in zip(self.w, x)), self.b)
        return act.relu() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]

    def __repr__(self):
        return f"{'ReLU' if self.nonlin else 'Linear'}Neuron({len(self.w)})"

class Layer(Module):

    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"

class MLP(Module):

    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i+1], nonlin=i!=len(nouts)-1) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"
"""

_ORIGINAL_IMPORT = "from micrograd.engine import Value\n"


def load_original() -> types.SimpleNamespace:
    """The original micrograd's ``Value``, ``Module``, ``Neuron``, ``Layer`` and ``MLP``.

    The two modules are executed in private namespaces; the original ``nn``
    is wired to the original ``engine`` (not to this project's), so the
    oracle is the original end to end.
    """
    engine: dict[str, object] = {"__name__": "original_micrograd_engine"}
    exec(compile(ORIGINAL_ENGINE_SOURCE, "<original micrograd/engine.py>", "exec"), engine)
    if ORIGINAL_NN_SOURCE.count(_ORIGINAL_IMPORT) != 1:
        raise RuntimeError("the original nn source no longer imports Value as expected")
    nn: dict[str, object] = {"__name__": "original_micrograd_nn", "Value": engine["Value"]}
    nn_source = ORIGINAL_NN_SOURCE.replace(_ORIGINAL_IMPORT, "")
    exec(compile(nn_source, "<original micrograd/nn.py>", "exec"), nn)
    return types.SimpleNamespace(
        Value=engine["Value"],
        Module=nn["Module"],
        Neuron=nn["Neuron"],
        Layer=nn["Layer"],
        MLP=nn["MLP"],
    )


@pytest.fixture(scope="session")
def original() -> types.SimpleNamespace:
    """The original micrograd 0.1.0 (engine and nn), loaded from the verbatim copy above."""
    return load_original()
