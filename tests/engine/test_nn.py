"""``micrograd.nn``: compatible with the original 0.1.0, plus activations and the one-neuron fix.

The ``original`` fixture (see ``conftest.py``) is the original micrograd's own
``nn`` and ``engine``; with the same ``random.seed`` both libraries must build
the same network, weight for weight, and compute the same outputs.
"""

from __future__ import annotations

import itertools
import random
import types
from collections.abc import Sequence

import numpy as np
import pytest

from micrograd.engine import Value
from micrograd.nn import ACTIVATIONS, MLP, Layer, Module, Neuron

ARCHITECTURES = [(2, [16, 16, 1]), (3, [4, 4, 1]), (1, [1]), (2, [3]), (5, [7, 2, 3])]


def expected_parameter_count(nin: int, nouts: Sequence[int]) -> int:
    sizes = [nin, *nouts]
    return sum((sizes[i] + 1) * sizes[i + 1] for i in range(len(nouts)))


# -- the same network as the original -------------------------------------------------


@pytest.mark.parametrize(("nin", "nouts"), ARCHITECTURES)
def test_parameter_count_is_weights_plus_biases_like_the_original(
    original: types.SimpleNamespace, nin: int, nouts: list[int]
) -> None:
    count = len(MLP(nin, nouts).parameters())
    assert count == expected_parameter_count(nin, nouts)
    assert count == len(original.MLP(nin, nouts).parameters())


def test_the_demo_network_has_337_parameters() -> None:
    # 2*16 + 16, 16*16 + 16, 16 + 1: the number the original demo prints
    assert len(MLP(2, [16, 16, 1]).parameters()) == (2 + 1) * 16 + (16 + 1) * 16 + (16 + 1) * 1


@pytest.mark.parametrize(("nin", "nouts"), ARCHITECTURES)
def test_repr_is_the_originals(original: types.SimpleNamespace, nin: int, nouts: list[int]) -> None:
    assert repr(MLP(nin, nouts)) == repr(original.MLP(nin, nouts))


@pytest.mark.parametrize(("nin", "nouts"), ARCHITECTURES)
def test_repr_follows_the_rule_relu_hidden_layers_and_a_linear_last_layer(
    nin: int, nouts: list[int]
) -> None:
    sizes = [nin, *nouts]
    layers = []
    for i, nout in enumerate(nouts):
        kind = "Linear" if i == len(nouts) - 1 else "ReLU"
        layers.append("Layer of [" + ", ".join([f"{kind}Neuron({sizes[i]})"] * nout) + "]")
    assert repr(MLP(nin, nouts)) == "MLP of [" + ", ".join(layers) + "]"


def test_neuron_and_layer_reprs_are_the_originals(original: types.SimpleNamespace) -> None:
    assert repr(Neuron(3)) == repr(original.Neuron(3)) == "ReLUNeuron(3)"
    assert repr(Neuron(3, nonlin=False)) == repr(original.Neuron(3, nonlin=False))
    assert repr(Layer(2, 3)) == repr(original.Layer(2, 3))
    assert repr(Layer(2, 2, nonlin=False)) == repr(original.Layer(2, 2, nonlin=False))


@pytest.mark.parametrize("seed", [0, 1337, 2024])
def test_weights_are_uniform_minus_one_to_one_in_the_originals_order_with_zero_bias(
    seed: int,
) -> None:
    random.seed(seed)
    model = MLP(3, [4, 2, 1])
    rng = random.Random(seed)
    sizes = [3, 4, 2, 1]
    expected: list[float] = []
    for i in range(3):
        for _ in range(sizes[i + 1]):
            expected += [rng.uniform(-1, 1) for _ in range(sizes[i])]
            expected.append(0.0)
    assert [p.data for p in model.parameters()] == expected
    # and nothing else was drawn from the global generator
    assert random.random() == rng.random()


def test_first_weight_is_the_first_uniform_draw_after_seeding() -> None:
    random.seed(42)
    neuron = Neuron(2)
    assert neuron.w[0].data == random.Random(42).uniform(-1, 1)
    assert neuron.b.data == 0.0


@pytest.mark.parametrize("seed", [0, 1337])
def test_same_seed_builds_the_same_weights_outputs_and_gradients_as_the_original(
    original: types.SimpleNamespace, seed: int
) -> None:
    random.seed(seed)
    ours = MLP(2, [16, 16, 1])
    random.seed(seed)
    theirs = original.MLP(2, [16, 16, 1])
    assert [p.data for p in ours.parameters()] == [p.data for p in theirs.parameters()]
    for x in ([0.5, -1.5], [2.0, 0.25], [-1.0, -1.0]):
        ours.zero_grad()
        theirs.zero_grad()
        out = ours(x)
        their_out = theirs(x)
        assert out.data == their_out.data
        (out * out).backward()
        (their_out * their_out).backward()
        # the same sums, possibly added in another order: equal up to rounding
        assert [p.grad for p in ours.parameters()] == pytest.approx(
            [p.grad for p in theirs.parameters()], rel=1e-12, abs=1e-15
        )


# -- outputs and inputs -----------------------------------------------------------------


def test_a_network_with_one_output_returns_a_value() -> None:
    out = MLP(3, [4, 1])([1.0, 2.0, 3.0])
    assert type(out) is Value


def test_a_network_with_several_outputs_returns_a_list_of_values() -> None:
    out = MLP(3, [4, 3])([1.0, 2.0, 3.0])
    assert type(out) is list
    assert len(out) == 3
    assert all(type(o) is Value for o in out)


def test_a_layer_returns_a_value_for_one_neuron_and_a_list_otherwise() -> None:
    assert type(Layer(2, 1)([1.0, 2.0])) is Value
    out = Layer(2, 3)([1.0, 2.0])
    assert type(out) is list
    assert len(out) == 3
    assert type(Layer(2, 1).outputs([1.0, 2.0])) is list


def test_a_neuron_returns_a_value() -> None:
    assert type(Neuron(2)([1.0, 2.0])) is Value


@pytest.mark.parametrize(
    "x",
    [
        [1.0, -2.0],
        [1, -2],
        [Value(1.0), Value(-2.0)],
        (1.0, -2.0),
        [np.float64(1.0), np.int64(-2)],
        np.array([1.0, -2.0]),
    ],
    ids=["floats", "ints", "Values", "tuple", "numpy scalars", "numpy array"],
)
def test_a_network_accepts_numbers_values_and_numpy_inputs(x: Sequence[float]) -> None:
    random.seed(5)
    model = MLP(2, [4, 1])
    out = model(x)
    assert type(out) is Value
    random.seed(5)
    assert out.data == MLP(2, [4, 1])([1.0, -2.0]).data


def test_neuron_computes_its_activation_of_w_dot_x_plus_b() -> None:
    random.seed(3)
    for activation in ACTIVATIONS:
        n = Neuron(3, activation=activation)
        n.b.data = 0.25
        x = [0.5, -1.0, 2.0]
        z = sum(wi.data * xi for wi, xi in zip(n.w, x, strict=True)) + 0.25
        expected = {
            "relu": max(z, 0.0),
            "tanh": Value(z).tanh().data,
            "sigmoid": Value(z).sigmoid().data,
            "linear": z,
        }[activation]
        assert n(x).data == pytest.approx(expected, rel=1e-14)


def test_parameters_are_the_live_values_of_the_model() -> None:
    model = MLP(2, [3, 1])
    first = model.parameters()
    assert all(a is b for a, b in zip(first, model.parameters(), strict=True))
    assert len({id(p) for p in first}) == len(first)
    first[0].data = 123.0
    assert model.layers[0].neurons[0].w[0].data == 123.0


def test_zero_grad_zeroes_every_parameter() -> None:
    model = MLP(2, [3, 1])
    model([1.0, 2.0]).backward()
    for p in model.parameters():
        p.grad = 1.5
    model.zero_grad()
    assert all(p.grad == 0.0 for p in model.parameters())


def test_a_bare_module_has_no_parameters() -> None:
    m = Module()
    assert m.parameters() == []
    m.zero_grad()


# -- activations --------------------------------------------------------------------


def test_hidden_layers_use_the_activation_and_the_last_layer_the_output_activation() -> None:
    model = MLP(3, [4, 4, 1], activation="tanh", output_activation="sigmoid")
    assert repr(model) == (
        "MLP of [Layer of [" + ", ".join(["TanhNeuron(3)"] * 4) + "], "
        "Layer of [" + ", ".join(["TanhNeuron(4)"] * 4) + "], "
        "Layer of [SigmoidNeuron(4)]]"
    )
    out = model([1.0, 2.0, 3.0])
    assert 0.0 < out.data < 1.0


def test_nonlin_false_makes_a_linear_neuron_whatever_the_activation() -> None:
    n = Neuron(2, nonlin=False, activation="tanh")
    assert repr(n) == "LinearNeuron(2)"
    n.w[0].data, n.w[1].data = 10.0, 10.0
    assert n([1.0, 1.0]).data == 20.0


def test_a_tanh_network_learns_the_four_point_example() -> None:
    random.seed(1337)
    model = MLP(3, [4, 4, 1], activation="tanh", output_activation="tanh")
    xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    ys = [1.0, -1.0, -1.0, 1.0]
    losses = []
    for _ in range(20):
        predictions = [model(x) for x in xs]
        loss = sum((p - y) ** 2 for p, y in zip(predictions, ys, strict=True))
        assert isinstance(loss, Value)
        losses.append(loss.data)
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data -= 0.1 * p.grad
    assert losses[-1] < losses[0] / 10
    assert all(later <= earlier for earlier, later in itertools.pairwise(losses))
    final = [model(x).data for x in xs]
    assert [v > 0 for v in final] == [y > 0 for y in ys]
    assert all(-1.0 < v < 1.0 for v in final)


# -- the one-neuron hidden layer -------------------------------------------------------


def test_a_one_neuron_hidden_layer_works_unlike_the_original(
    original: types.SimpleNamespace,
) -> None:
    random.seed(1337)
    out = MLP(2, [16, 1, 1])([1.0, 2.0])
    assert type(out) is Value
    # the original's one-neuron layer returns a bare Value, which the next layer cannot read
    random.seed(1337)
    with pytest.raises(TypeError):
        original.MLP(2, [16, 1, 1])([1.0, 2.0])


def test_a_network_with_a_one_neuron_hidden_layer_trains() -> None:
    random.seed(1337)
    model = MLP(2, [16, 1, 1])
    xs = [[0.5, 1.0], [-1.0, 0.5], [1.5, -0.5], [-0.5, -1.5], [1.0, 1.0], [-1.0, -0.5]]
    ys = [x0 + 0.5 * x1 for x0, x1 in xs]
    losses = []
    for _ in range(30):
        loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys, strict=True))
        assert isinstance(loss, Value)
        losses.append(loss.data)
        model.zero_grad()
        loss.backward()
        assert any(p.grad != 0.0 for p in model.layers[0].parameters())
        for p in model.parameters():
            p.data -= 0.02 * p.grad
    assert losses[-1] < losses[0] / 10
