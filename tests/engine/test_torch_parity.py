"""The engine against PyTorch in float64: the original's tests, every op, random graphs."""

from __future__ import annotations

import math
from typing import Any

import pytest
from graphs import Program, programs, run
from hypothesis import given
from hypothesis import strategies as st
from ops import OPS, Op

from micrograd.engine import Value

pytestmark = pytest.mark.torch

try:
    import torch
except ModuleNotFoundError:
    # Only where these tests are deselected (-m "not torch"): a run that selects
    # them without torch stops before any test runs (conftest.py).
    torch = None

# -- the original micrograd's test/test_engine.py, each computation written once for both ----


def sanity_check(x: Any) -> Any:
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    return h + q + q * x


def more_ops(a: Any, b: Any) -> Any:
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    return g + 10.0 / f


def test_sanity_check() -> None:
    xmg = Value(-4.0)
    ymg = sanity_check(xmg)
    ymg.backward()

    xpt = torch.Tensor([-4.0]).double()
    xpt.requires_grad = True
    ypt = sanity_check(xpt)
    ypt.backward()

    # forward pass went well
    assert ymg.data == ypt.data.item()
    # backward pass went well
    assert xmg.grad == xpt.grad.item()


def test_more_ops() -> None:
    amg, bmg = Value(-4.0), Value(2.0)
    gmg = more_ops(amg, bmg)
    gmg.backward()

    apt = torch.Tensor([-4.0]).double()
    bpt = torch.Tensor([2.0]).double()
    apt.requires_grad = True
    bpt.requires_grad = True
    gpt = more_ops(apt, bpt)
    gpt.backward()

    tol = 1e-6
    # forward pass went well
    assert abs(gmg.data - gpt.data.item()) < tol
    # backward pass went well
    assert abs(amg.grad - apt.grad.item()) < tol
    assert abs(bmg.grad - bpt.grad.item()) < tol


# -- every op of the op table, on both engines --------------------------------------------

CASES = [pytest.param(op, point, id=f"{op.name} at {point}") for op in OPS for point in op.points]


def leaf(x: float) -> torch.Tensor:
    return torch.tensor(x, dtype=torch.float64, requires_grad=True)


def grad_of(t: torch.Tensor) -> float:
    """A torch leaf's gradient, 0.0 if backward never reached it."""
    return 0.0 if t.grad is None else float(t.grad.item())


def close(ours: float, theirs: float) -> bool:
    return math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-15)


@pytest.mark.parametrize(("op", "point"), CASES)
def test_op_matches_torch(op: Op, point: tuple[float, ...]) -> None:
    values = [Value(x) for x in point]
    out = op.build(*values)
    out.backward()
    tensors = [leaf(x) for x in point]
    tout = op.on_torch(*tensors)
    tout.backward()
    assert close(out.data, tout.item())
    for value, tensor in zip(values, tensors, strict=True):
        assert close(value.grad, grad_of(tensor))


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
    tnodes = run(program, tensors, torch=True)
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


# -- operations of many inputs, on vectors --------------------------------------------------------


@given(
    st.lists(
        st.tuples(st.floats(-10, 10, allow_nan=False), st.floats(-10, 10, allow_nan=False)),
        min_size=1,
        max_size=20,
    )
)
def test_sum_and_dot_of_vectors_match_torch(pairs: list[tuple[float, float]]) -> None:
    xs, ys = [x for x, _ in pairs], [y for _, y in pairs]
    a, b = [Value(x) for x in xs], [Value(y) for y in ys]
    out = (Value.dot(a, b) * Value.sum(a)).tanh() + Value.dot(b, b)
    out.backward()
    ta = torch.tensor(xs, dtype=torch.float64, requires_grad=True)
    tb = torch.tensor(ys, dtype=torch.float64, requires_grad=True)
    tout = (ta.dot(tb) * ta.sum()).tanh() + tb.dot(tb)
    tout.backward()
    assert ta.grad is not None
    assert tb.grad is not None
    # PyTorch adds in its own order: sums that cancel agree to a rounding of their terms' size
    assert math.isclose(out.data, tout.item(), rel_tol=1e-12, abs_tol=1e-9)
    for v, g in [*zip(a, ta.grad.tolist(), strict=True), *zip(b, tb.grad.tolist(), strict=True)]:
        assert math.isclose(v.grad, g, rel_tol=1e-12, abs_tol=1e-9)
