"""micrograd's own networks and training, the references of the later steps.

The track's network is the one of the page "Training an MLP on four points":
``tanh`` in every neuron, the output layer's included.  A reference is built
with micrograd's classes and then given the reader's own weights (read from
the reader's ``parameters()``, in the original's order: layer by layer,
neuron by neuron, each neuron's weights and then its bias), so that a check
does not depend on how the reader drew them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import cast

from micrograd import MLP
from micrograd import Layer
from micrograd import Neuron
from micrograd import Value

from .core import MICROGRAD

#: A network of micrograd's, of any of the three kinds.
Network = Neuron | Layer | MLP

#: The four points of the page "Training an MLP on four points", and their targets.
XS = ((2.0, 3.0, -1.0), (3.0, -1.0, 0.5), (0.5, 1.0, 1.0), (1.0, 1.0, -1.0))
YS = (1.0, -1.0, -1.0, 1.0)
#: That page's recipe: its seed, its network's sizes, its steps and its learning rate.
PAGE_SEED, PAGE_SIZES, PAGE_STEPS, PAGE_RATE = 1337, (3, 4, 4, 1), 20, 0.1


@dataclass(frozen=True)
class Net:
    """A network's kind (``"Neuron"``, ``"Layer"`` or ``"MLP"``) and its sizes.

    ``sizes`` is ``(nin,)`` for a neuron, ``(nin, nout)`` for a layer and
    ``(nin, *nouts)`` for an MLP.
    """

    kind: str
    sizes: tuple[int, ...]

    @property
    def arguments(self) -> tuple[Any, ...]:
        """What its class is called with: ``(3, [4, 4, 1])`` for an MLP, ``(3, 2)`` for a layer."""
        nin, *rest = self.sizes
        return (nin, rest) if self.kind == "MLP" else (nin, *rest)

    @property
    def constructor(self) -> str:
        """How the reader's code makes it: ``MLP(3, [4, 4, 1])``."""
        return f"{self.kind}({', '.join(map(repr, self.arguments))})"

    def seeded(self, names: Mapping[str, Any], seed: int) -> Any:
        """The reader's network of this shape (:attr:`constructor` with the classes of
        ``names``), drawn after ``random.seed(seed)``."""
        random.seed(seed)
        return names[self.kind](*self.arguments)

    def code(self, seed: int, then: str = "") -> str:
        """:meth:`seeded` as code the reader can paste, then ``then`` (which reads ``model``)."""
        made = f"import random\n\nrandom.seed({seed})\nmodel = {self.constructor}"
        return f"{made}\n{then}" if then else made

    @property
    def layers(self) -> list[tuple[int, int]]:
        """(nin, nout) of each layer (a neuron is a layer of one)."""
        if self.kind == "Neuron":
            return [(self.sizes[0], 1)]
        return list(zip(self.sizes, self.sizes[1:], strict=False))

    @property
    def weight_count(self) -> int:
        return sum(nin * nout for nin, nout in self.layers)

    @property
    def bias_count(self) -> int:
        return sum(nout for _, nout in self.layers)

    def parameter_name(self, index: int) -> str:
        """Which parameter the ``index``-th of ``parameters()`` is, in words."""
        for layer, (nin, nout) in enumerate(self.layers, start=1):
            if index < nout * (nin + 1):
                neuron, k = divmod(index, nin + 1)
                what = "its bias" if k == nin else f"weight {k + 1}"
                where = [f"layer {layer}"] if self.kind == "MLP" else []
                where += [f"neuron {neuron + 1}"] if self.kind != "Neuron" else []
                return ", ".join([*where, what])
            index -= nout * (nin + 1)
        raise IndexError(f"{self.constructor} has no parameter {index}")

    def build(
        self, weights: Sequence[float], hidden: str = "tanh", output: str = "tanh"
    ) -> Network:
        """micrograd's network of this shape, holding ``weights`` (in parameters() order)."""
        state = random.getstate()  # micrograd draws weights we are about to replace
        try:
            model = self._make(hidden, output)
        finally:
            random.setstate(state)
        params = model.parameters()
        if len(params) != len(weights):
            raise ValueError(f"{self.constructor} has {len(params)} parameters, not {len(weights)}")
        for p, w in zip(params, weights, strict=True):
            p.data = float(w)
        return model

    def _make(self, hidden: str, output: str) -> Network:
        nin, *rest = self.sizes
        if self.kind == "Neuron":
            return Neuron(nin, activation=output)
        if self.kind == "Layer":
            return Layer(nin, rest[0], activation=output)
        return MLP(nin, rest, activation=hidden, output_activation=output)


#: That page's network.
PAGE_NET = Net("MLP", PAGE_SIZES)
#: That page's run, as code the reader can paste: its network, its points, and train.
PAGE_RUN = PAGE_NET.code(
    PAGE_SEED,
    f"xs = {[list(x) for x in XS]!r}\nys = {list(YS)!r}\n"
    f"losses = train(model, xs, ys, {PAGE_STEPS}, {PAGE_RATE})",
)


# -- training -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """A reference training run: each step's loss, and the weights and gradients at the end."""

    losses: list[float]
    weights: list[float]
    grads: list[float]
    first_grads: list[float]


def train(
    net: Net,
    weights: Sequence[float],
    xs: Sequence[Sequence[float]],
    ys: Sequence[float],
    steps: int,
    rate: float,
    reset: bool = True,
    sign: float = -1.0,
) -> Run:
    """The MLP page's loop with micrograd: ``reset=False`` forgets zero_grad, ``sign=1`` ascends."""
    model = net.build(weights)
    losses: list[float] = []
    first: list[float] = []
    for step in range(steps):
        # A training network has one output: micrograd's gives it as a Value.
        ypred = [cast(Value, model(list(x))) for x in xs]
        loss = sum(((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred, strict=True)), Value(0.0))
        if reset:
            model.zero_grad()
        loss.backward()
        if step == 0:
            first = [p.grad for p in model.parameters()]
        for p in model.parameters():
            p.data += sign * rate * p.grad
        losses.append(loss.data)
    params = model.parameters()
    return Run(losses, [p.data for p in params], [p.grad for p in params], first)


def page_run() -> Run:
    """The run of the page "Training an MLP on four points", with micrograd itself."""
    return MICROGRAD.answer(
        PAGE_RUN, lambda: train(PAGE_NET, page_weights(), XS, YS, PAGE_STEPS, PAGE_RATE)
    )


def page_weights() -> tuple[float, ...]:
    """The starting weights of the page's network: micrograd's draw after random.seed(1337)."""
    return micrograds_draw(PAGE_NET, PAGE_SEED)[0]


def micrograds_draw(net: Net, seed: int) -> tuple[tuple[float, ...], Any]:
    """micrograd's draw of ``net`` after ``random.seed(seed)``: its numbers, and the random
    generator's state after it (the caller's state is put back)."""

    def draw() -> tuple[tuple[float, ...], Any]:
        state = random.getstate()
        try:
            random.seed(seed)
            model = net._make("tanh", "tanh")
            return tuple(p.data for p in model.parameters()), random.getstate()
        finally:
            random.setstate(state)

    return MICROGRAD.answer((net, seed), draw)


def readers_page_weights(names: Mapping[str, Any]) -> list[Any]:
    """The starting weights of the reader's MLP (the classes of ``names``) drawn as the page
    draws its network, in parameters() order."""
    return [p.data for p in PAGE_NET.seeded(names, PAGE_SEED).parameters()]
