"""The engine against PyTorch in float64: the original tests, every op, random graphs."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from test_random_graphs import Program, programs, run

from micrograd.engine import Value

pytestmark = pytest.mark.torch

try:
    import torch
except ModuleNotFoundError:
    # Only where these tests are deselected (-m "not torch"): a run that selects
    # them without torch stops before any test runs (conftest.py).
    torch = None

# -- the original micrograd's test/test_engine.py, reproduced faithfully -------------


def test_sanity_check() -> None:
    x = Value(-4.0)
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xmg, ymg = x, y

    x = torch.Tensor([-4.0]).double()
    x.requires_grad = True
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xpt, ypt = x, y

    # forward pass went well
    assert ymg.data == ypt.data.item()
    # backward pass went well
    assert xmg.grad == xpt.grad.item()


def test_more_ops() -> None:
    a = Value(-4.0)
    b = Value(2.0)
    c = a + b
    d = a * b + b**3
    c += c + 1
    c += 1 + c + (-a)
    d += d * 2 + (b + a).relu()
    d += 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g += 10.0 / f
    g.backward()
    amg, bmg, gmg = a, b, g

    a = torch.Tensor([-4.0]).double()
    b = torch.Tensor([2.0]).double()
    a.requires_grad = True
    b.requires_grad = True
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g = g + 10.0 / f
    g.backward()
    apt, bpt, gpt = a, b, g

    tol = 1e-6
    # forward pass went well
    assert abs(gmg.data - gpt.data.item()) < tol
    # backward pass went well
    assert abs(amg.grad - apt.grad.item()) < tol
    assert abs(bmg.grad - bpt.grad.item()) < tol


# -- every op, on both engines --------------------------------------------------------

Binary = Callable[[Any, Any], Any]
Unary = Callable[[Any], Any]

BINARY_OPS: dict[str, Binary] = {
    "a + b": lambda a, b: a + b,
    "a - b": lambda a, b: a - b,
    "a * b": lambda a, b: a * b,
    "a / b": lambda a, b: a / b,
}
BINARY_POINTS = [(3.0, -2.0), (-0.5, 0.25), (0.0, 7.0), (1e-3, -1e3)]

UNARY_OPS: dict[str, Unary] = {
    "-a": lambda a: -a,
    "2 * a": lambda a: 2 * a,
    "1 - a": lambda a: 1 - a,
    "1 / a": lambda a: 1 / a,
    "2 + a": lambda a: 2 + a,
    "a * 2.5": lambda a: a * 2.5,
    "a - 2.5": lambda a: a - 2.5,
    "a / 4": lambda a: a / 4,
    "a ** 2": lambda a: a**2,
    "a ** 3": lambda a: a**3,
    "a ** -1": lambda a: a**-1,
    "a ** -2": lambda a: a**-2,
    "a ** 2.0": lambda a: a**2.0,
    "a ** -3.0": lambda a: a**-3.0,
    "relu(a)": lambda a: a.relu(),
    "tanh(a)": lambda a: a.tanh(),
    "exp(a)": lambda a: a.exp(),
    "sigmoid(a)": lambda a: a.sigmoid(),
}
UNARY_POINTS = [-2.5, -0.3, 0.7, 4.0]
# Ops that need a positive argument.
POSITIVE_OPS: dict[str, Unary] = {
    "log(a)": lambda a: a.log(),
    "a ** 0.5": lambda a: a**0.5,
    "a ** -0.5": lambda a: a**-0.5,
    "a ** 1.5": lambda a: a**1.5,
    "a ** -2.5": lambda a: a**-2.5,
}
POSITIVE_POINTS = [1e-3, 0.5, 1.0, 3.7, 250.0]


def leaf(x: float) -> torch.Tensor:
    return torch.tensor(x, dtype=torch.float64, requires_grad=True)


def grad_of(t: torch.Tensor) -> float:
    """A torch leaf's gradient, 0.0 if backward never reached it."""
    return 0.0 if t.grad is None else float(t.grad.item())


def close(ours: float, theirs: float) -> bool:
    return math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-15)


@pytest.mark.parametrize(("a", "b"), BINARY_POINTS)
@pytest.mark.parametrize("name", BINARY_OPS)
def test_binary_op_matches_torch(name: str, a: float, b: float) -> None:
    op = BINARY_OPS[name]
    va, vb = Value(a), Value(b)
    out = op(va, vb)
    out.backward()
    ta, tb = leaf(a), leaf(b)
    tout = op(ta, tb)
    tout.backward()
    assert close(out.data, tout.item())
    assert close(va.grad, grad_of(ta))
    assert close(vb.grad, grad_of(tb))


@pytest.mark.parametrize("a", UNARY_POINTS)
@pytest.mark.parametrize("name", UNARY_OPS)
def test_unary_op_matches_torch(name: str, a: float) -> None:
    assert_unary_op_matches_torch(UNARY_OPS[name], a)


@pytest.mark.parametrize("a", POSITIVE_POINTS)
@pytest.mark.parametrize("name", POSITIVE_OPS)
def test_op_on_positive_numbers_matches_torch(name: str, a: float) -> None:
    assert_unary_op_matches_torch(POSITIVE_OPS[name], a)


def assert_unary_op_matches_torch(op: Unary, a: float) -> None:
    """``op`` at ``a``: the same value and gradient in micrograd and in torch."""
    va = Value(a)
    out = op(va)
    out.backward()
    ta = leaf(a)
    tout = op(ta)
    tout.backward()
    assert close(out.data, tout.item())
    assert close(va.grad, grad_of(ta))


def test_relu_at_exactly_zero_has_gradient_zero_like_torch_and_the_original() -> None:
    v = Value(0.0)
    out = v.relu()
    out.backward()
    t = leaf(0.0)
    t.relu().backward()
    assert out.data == 0.0
    assert v.grad == 0.0
    assert grad_of(t) == 0.0


@pytest.mark.parametrize("x", [1e6, -1e6, 800.0, -800.0])
@pytest.mark.parametrize("name", ["tanh", "sigmoid"])
def test_saturating_op_at_huge_input_matches_torch(name: str, x: float) -> None:
    v = Value(x)
    out = getattr(v, name)()
    out.backward()
    t = leaf(x)
    tout = getattr(t, name)()
    tout.backward()
    assert out.data == tout.item()
    assert v.grad == grad_of(t)


# -- random graphs --------------------------------------------------------------------


def assert_matches_torch(program: Program) -> None:
    values = [Value(x) for x in program.leaves]
    tensors = [leaf(x) for x in program.leaves]
    nodes = run(program, values)
    tnodes = run(program, tensors)
    nodes[-1].backward()
    tnodes[-1].backward()
    exprs = program.expressions()
    for i, (node, tnode) in enumerate(zip(nodes, tnodes, strict=True)):
        assert math.isclose(node.data, tnode.item(), rel_tol=1e-9, abs_tol=1e-12), (
            f"value of node {i} = {exprs[i]}: {node.data!r} vs torch {tnode.item()!r}\n{program}"
        )
    for i, (value, tensor) in enumerate(zip(values, tensors, strict=True)):
        assert math.isclose(value.grad, grad_of(tensor), rel_tol=1e-9, abs_tol=1e-12), (
            f"d out / d x{i}: {value.grad!r} vs torch {grad_of(tensor)!r}\n{program}"
        )


@given(programs())
def test_random_graph_values_and_leaf_gradients_match_torch(program: Program) -> None:
    assert_matches_torch(program)


@given(programs(max_leaves=2, max_steps=30))
def test_deeper_random_graphs_over_two_leaves_match_torch(program: Program) -> None:
    assert_matches_torch(program)
