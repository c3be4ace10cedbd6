"""Tests for micrograd.gpt: PyTorch's float64 numbers for the same weights, and bad input.

The comparison with microgpt's own code (strands-microgpt, not a dependency
of the package) is in test_microgpt.py.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

import pytest

from micrograd.engine import Value
from micrograd.gpt import (
    GPT,
    Adam,
    Cache,
    Tokenizer,
    cross_entropy,
    rmsnorm,
    sample,
    softmax,
    train,
)

try:
    import torch
except ModuleNotFoundError:
    # Only where the torch tests are deselected (-m "not torch"): a run that selects
    # them without torch stops before any test runs (conftest.py).
    torch = None

DOCS = ["emma", "olivia", "ava", "isabella", "sophia", "zzyzx"]
TOLERANCE = 1e-9


def matrices(model: GPT) -> list[list[list[Value]]]:
    """The model's weight matrices, in the order of its parameters."""
    found = [model.token_embedding.weight, model.position_embedding.weight, model.head.weight]
    for block in model.blocks:
        attention, mlp = block.attention, block.mlp
        found += [attention.query.weight, attention.key.weight, attention.value.weight]
        found += [attention.output.weight, mlp.fc1.weight, mlp.fc2.weight]
    return found


# -- PyTorch, float64, from the same weights --------------------------------------------------


def torch_rmsnorm(x: Any) -> Any:
    return x * ((x * x).mean() + 1e-5) ** -0.5


def torch_logits(model: GPT, weights: list[Any], tokens: Sequence[int]) -> list[Any]:
    """The logits at each position, computed by PyTorch with the model's architecture."""
    wte, wpe, head, *layers = weights
    hd = model.n_embd // model.n_head
    keys: list[list[Any]] = [[] for _ in range(model.n_layer)]
    values: list[list[Any]] = [[] for _ in range(model.n_layer)]
    out = []
    for position, token in enumerate(tokens[:-1]):
        x = torch_rmsnorm(wte[token] + wpe[position])
        for layer in range(model.n_layer):
            wq, wk, wv, wo, fc1, fc2 = layers[6 * layer : 6 * layer + 6]
            h = torch_rmsnorm(x)
            keys[layer].append(wk @ h)
            values[layer].append(wv @ h)
            q, k, v = wq @ h, torch.stack(keys[layer]), torch.stack(values[layer])
            heads = []
            for i in range(model.n_head):
                part = slice(i * hd, (i + 1) * hd)
                attention = torch.softmax(k[:, part] @ q[part] / hd**0.5, dim=0)
                heads.append(attention @ v[:, part])
            x = wo @ torch.cat(heads) + x
            x = fc2 @ torch.relu(fc1 @ torch_rmsnorm(x)) + x
        out.append(head @ x)
    return out


def torch_adam_step(weights: list[Any], state: dict[str, Any], steps: int) -> None:
    """microgpt's Adam on tensors: the same formula, elementwise."""
    t = state["t"]
    lr = 0.01 * (1 - t / steps)
    with torch.no_grad():
        for i, w in enumerate(weights):
            m = state["m"][i] = 0.85 * state["m"][i] + (1 - 0.85) * w.grad
            v = state["v"][i] = 0.99 * state["v"][i] + (1 - 0.99) * w.grad**2
            m_hat, v_hat = m / (1 - 0.85 ** (t + 1)), v / (1 - 0.99 ** (t + 1))
            w -= lr * m_hat / (v_hat**0.5 + 1e-8)
            w.grad = None
    state["t"] = t + 1


def largest_difference(ours: Sequence[float], theirs: Any) -> float:
    return max(abs(a - b) for a, b in zip(ours, theirs.flatten().tolist(), strict=True))


@pytest.mark.torch
@pytest.mark.parametrize(
    "sizes",
    [{}, {"n_layer": 2, "n_embd": 8, "n_head": 2, "block_size": 10}],
    ids=["microgpt-sizes", "two-layers"],
)
def test_logits_loss_gradients_and_two_adam_steps_are_pytorchs(sizes: dict[str, int]) -> None:
    tokenizer = Tokenizer(DOCS)
    model = GPT(tokenizer.vocab_size, seed=3, **sizes)
    weights = [
        torch.tensor([[w.data for w in row] for row in m], dtype=torch.float64, requires_grad=True)
        for m in matrices(model)
    ]
    ours, state, steps = Adam(model.parameters(), steps=2), {"t": 0, "m": {}, "v": {}}, 2
    state["m"] = [torch.zeros_like(w) for w in weights]
    state["v"] = [torch.zeros_like(w) for w in weights]
    for doc in ["isabella", "zzyzx"]:
        tokens = tokenizer.encode(doc)
        cache = Cache(model.n_layer)
        logits = [model.forward(t, i, cache) for i, t in enumerate(tokens[:-1])]
        expected = torch_logits(model, weights, tokens)
        for mine, theirs in zip(logits, expected, strict=True):
            assert largest_difference([v.data for v in mine], theirs.detach()) < TOLERANCE
        loss = model.loss(tokens)
        torch_loss = torch.nn.functional.cross_entropy(
            torch.stack(expected), torch.tensor(tokens[1:])
        )
        assert abs(loss.data - torch_loss.item()) < TOLERANCE
        loss.backward()
        torch_loss.backward()
        for m, w in zip(matrices(model), weights, strict=True):
            assert w.grad is not None
            assert largest_difference([v.grad for row in m for v in row], w.grad) < TOLERANCE
        ours.step()
        torch_adam_step(weights, state, steps)
        for m, w in zip(matrices(model), weights, strict=True):
            assert largest_difference([v.data for row in m for v in row], w.detach()) < TOLERANCE


@pytest.mark.torch
def test_rmsnorm_and_softmax_are_pytorchs() -> None:
    xs = [0.3, -1.2, 2.5, 0.0, -0.7]
    x = torch.tensor(xs, dtype=torch.float64)
    normed = [v.data for v in rmsnorm([Value(a) for a in xs])]
    assert largest_difference(normed, torch_rmsnorm(x)) < TOLERANCE
    weights = [v.data for v in softmax([Value(a) for a in xs])]
    assert largest_difference(weights, x.softmax(0)) < TOLERANCE


# -- the model's own behaviour ------------------------------------------------------------------


def test_weights_are_drawn_in_order_from_a_generator_of_the_seed() -> None:
    model = GPT(vocab_size=5, n_embd=4, block_size=3, n_head=2, seed=7)
    rng = random.Random(7)
    assert [p.data for p in model.parameters()] == [
        rng.gauss(0.0, 0.08) for _ in model.parameters()
    ]


def test_the_model_leaves_the_global_generator_as_it_found_it() -> None:
    before = random.getstate()
    tokenizer = Tokenizer(DOCS)
    model = GPT(tokenizer.vocab_size, n_embd=4, block_size=10, n_head=2)
    train(model, tokenizer, DOCS, steps=2)
    sample(model, tokenizer, random.Random(0))
    assert random.getstate() == before


def test_tokenizer_wraps_a_document_in_start_end_tokens_and_decodes_it_back() -> None:
    tokenizer = Tokenizer(["abc", "cab"])
    assert (tokenizer.chars, tokenizer.bos, tokenizer.vocab_size) == (["a", "b", "c"], 3, 4)
    assert tokenizer.encode("cab") == [3, 2, 0, 1, 3]
    assert tokenizer.decode(tokenizer.encode("cab")) == "cab"


def test_the_loss_is_the_mean_cross_entropy_over_the_positions() -> None:
    tokenizer = Tokenizer(DOCS)
    model = GPT(tokenizer.vocab_size, n_embd=4, block_size=10, n_head=2)
    tokens = tokenizer.encode("ava")
    cache = Cache(model.n_layer)
    each = [
        cross_entropy(model.forward(t, i, cache), tokens[i + 1]).data
        for i, t in enumerate(tokens[:-1])
    ]
    assert model.loss(tokens).data == pytest.approx(sum(each) / len(each), rel=1e-15)


def test_training_lowers_the_loss_of_the_documents_it_sees() -> None:
    tokenizer = Tokenizer(["abab"])
    model = GPT(tokenizer.vocab_size, n_embd=4, block_size=5, n_head=2)
    losses = train(model, tokenizer, ["abab"], steps=30, lr=0.05)
    assert losses[-1] < losses[0] / 4


def test_sampling_with_the_same_generator_gives_the_same_document() -> None:
    tokenizer = Tokenizer(DOCS)
    model = GPT(tokenizer.vocab_size, n_embd=4, block_size=10, n_head=2)
    first = [sample(model, tokenizer, random.Random(1), temperature=0.8) for _ in range(3)]
    again = [sample(model, tokenizer, random.Random(1), temperature=0.8) for _ in range(3)]
    assert first == again
    assert all(set(doc) <= set(tokenizer.chars) and len(doc) <= 10 for doc in first)


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "error", "message"),
    [
        ("", ValueError, "cannot encode an empty document"),
        ("Emma", ValueError, "character 'E' at position 0 of 'Emma' is not in the vocabulary"),
        ("em-ma", ValueError, "character '-' at position 2"),
        (["emma"], TypeError, "a document is a str, got list"),
    ],
)
def test_encoding_a_bad_document_says_what_is_wrong(
    doc: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        Tokenizer(DOCS).encode(doc)  # type: ignore[arg-type]


def test_a_tokenizer_needs_characters_and_decodes_only_its_tokens() -> None:
    with pytest.raises(ValueError, match="at least one character"):
        Tokenizer(["", ""])
    with pytest.raises(ValueError, match=re.escape("token id 4 is outside 0 .. 3")):
        Tokenizer(["abc"]).decode([0, 4])


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"vocab_size": 0}, ValueError, "vocab_size must be at least 1, got 0"),
        ({"vocab_size": 2.0}, TypeError, "vocab_size must be an int, got float"),
        ({"vocab_size": 3, "n_layer": True}, TypeError, "n_layer must be an int, got bool"),
        ({"vocab_size": 3, "n_embd": 10}, ValueError, "n_head \\(4\\) must divide n_embd \\(10\\)"),
        ({"vocab_size": 3, "block_size": -1}, ValueError, "block_size must be at least 1"),
        ({"vocab_size": 3, "seed": "42"}, TypeError, "seed must be an int, got str"),
    ],
)
def test_a_bad_model_size_says_what_is_wrong(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        GPT(**kwargs)


def test_reading_past_the_block_or_the_vocabulary_raises() -> None:
    model = GPT(vocab_size=3, n_embd=4, block_size=2, n_head=2)
    with pytest.raises(ValueError, match=re.escape("token 3 is outside 0 .. 2")):
        model.forward(3, 0, Cache(1))
    with pytest.raises(ValueError, match=re.escape("position 2 is outside the block (0 .. 1)")):
        model.forward(0, 2, Cache(1))
    with pytest.raises(ValueError, match="position 1 needs a cache of 1 layers holding 1"):
        model.forward(0, 1, Cache(1))
    with pytest.raises(ValueError, match="4 tokens need 3 positions, more than the block size"):
        model.loss([2, 0, 1, 2])
    with pytest.raises(ValueError, match="a loss needs at least two tokens, got 1"):
        model.loss([2])
    with pytest.raises(ValueError, match=re.escape("target 3 is outside 0 .. 2")):
        cross_entropy(model.forward(0, 0, Cache(1)), 3)


def test_adam_sampling_and_training_reject_what_they_cannot_do() -> None:
    tokenizer = Tokenizer(["ab"])
    model = GPT(tokenizer.vocab_size, n_embd=4, block_size=3, n_head=2)
    optimizer = Adam(model.parameters(), steps=1)
    optimizer.step()
    with pytest.raises(ValueError, match="all 1 steps are taken"):
        optimizer.step()
    with pytest.raises(ValueError, match="steps must be at least 1, got 0"):
        Adam(model.parameters(), steps=0)
    for temperature in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="temperature must be a finite number above 0"):
            sample(model, tokenizer, random.Random(0), temperature=temperature)
    with pytest.raises(ValueError, match="train needs at least one document"):
        train(model, tokenizer, [], steps=1)
