"""A character-level GPT on :class:`~micrograd.engine.Value`, in plain Python.

The model of Andrej Karpathy's microgpt, part for part: a tokenizer with one
start/end token, token and position embeddings, RMSNorm, multi-head causal
self-attention, a ReLU MLP, no biases, a linear head; cross-entropy loss,
Adam with a linearly decaying learning rate, and sampling with a
temperature.  The same sizes, seed and data give the same weights, drawn in
the same order (``gauss(0, 0.08)``), and the same weights give the same loss.

A network reads one token at a time: :meth:`GPT.forward` takes a token and
its position, and a :class:`Cache` of the keys and values of the positions
before it, which causal attention reads.

Every sum of many terms (a dot product, a softmax's denominator, the mean
over positions) is one node of the graph (:meth:`~micrograd.engine.Value.sum`,
:meth:`~micrograd.engine.Value.dot`), added left to right as Python's ``sum`` would.

Like the engine, this module imports nothing outside the standard library,
and it draws random numbers from its own generators (``random.Random(seed)``),
never from :mod:`random`'s global one.
"""

from __future__ import annotations

__all__ = [
    "GPT",
    "MLP",
    "Adam",
    "Attention",
    "Block",
    "Cache",
    "Embedding",
    "Linear",
    "Tokenizer",
    "cross_entropy",
    "rmsnorm",
    "sample",
    "softmax",
    "train",
]

import math
import numbers
import random
from collections.abc import Callable, Iterable, Sequence

from micrograd.engine import Value
from micrograd.nn import Module

#: A vector of the model: one Value per dimension.
Vector = list[Value]

#: The standard deviation of every initial weight, as microgpt draws them.
INIT_STD = 0.08


class Tokenizer:
    """Characters to token ids and back, with one token that starts and ends a document.

    Each character of the documents gets an id, in sorted order; the
    start/end token (``bos``) is the id after the last character.

    Parameters
    ----------
    docs : iterable of str
        The documents whose characters make the vocabulary.

    Attributes
    ----------
    chars : list of str
        The characters, sorted; ``chars[i]`` has id ``i``.
    bos : int
        The start/end token's id, ``len(chars)``.
    vocab_size : int
        ``len(chars) + 1``.

    Raises
    ------
    ValueError
        If the documents hold no character at all.

    Examples
    --------
    >>> tokenizer = Tokenizer(["ab", "ba"])
    >>> tokenizer.encode("ab")
    [2, 0, 1, 2]
    >>> tokenizer.decode([2, 1, 0, 2])
    'ba'
    """

    def __init__(self, docs: Iterable[str]) -> None:
        self.chars = sorted(set("".join(docs)))
        if not self.chars:
            raise ValueError("a tokenizer needs documents with at least one character")
        self.bos = len(self.chars)
        self.vocab_size = len(self.chars) + 1
        self._ids = {ch: i for i, ch in enumerate(self.chars)}

    def encode(self, doc: str) -> list[int]:
        """``doc``'s token ids, between a start and an end token.

        Raises
        ------
        ValueError
            If ``doc`` is empty, or holds a character outside the vocabulary.
        """
        if not isinstance(doc, str):
            raise TypeError(f"a document is a str, got {type(doc).__name__} {doc!r}")
        if not doc:
            raise ValueError("cannot encode an empty document")
        for position, ch in enumerate(doc):
            if ch not in self._ids:
                raise ValueError(
                    f"character {ch!r} at position {position} of {doc!r} is not in the "
                    f"vocabulary ({''.join(self.chars)!r})"
                )
        return [self.bos, *(self._ids[ch] for ch in doc), self.bos]

    def decode(self, ids: Iterable[int]) -> str:
        """The characters of ``ids``, start/end tokens left out.

        Raises
        ------
        ValueError
            If an id is not a token of the vocabulary.
        """
        chars = []
        for i in ids:
            if not 0 <= i <= self.bos:
                raise ValueError(f"token id {i} is outside 0 .. {self.bos}")
            if i != self.bos:
                chars.append(self.chars[i])
        return "".join(chars)


def _matrix(rows: int, cols: int, rng: random.Random) -> list[Vector]:
    """A ``rows`` x ``cols`` matrix of weights drawn from ``gauss(0, INIT_STD)``, row by row."""
    return [[Value(rng.gauss(0.0, INIT_STD)) for _ in range(cols)] for _ in range(rows)]


class Linear(Module):
    """``y = W x``: a weight matrix and no bias.

    Parameters
    ----------
    nin, nout : int
        The sizes of ``x`` and ``y``.
    rng : random.Random
        The generator the weights are drawn from, row by row.
    """

    def __init__(self, nin: int, nout: int, rng: random.Random) -> None:
        self.weight = _matrix(nout, nin, rng)

    def __call__(self, x: Sequence[Value]) -> Vector:
        return [Value.dot(row, x) for row in self.weight]

    def parameters(self) -> list[Value]:
        return [w for row in self.weight for w in row]


class Embedding(Module):
    """A table of vectors, one row per token (or per position).

    Parameters
    ----------
    count, dim : int
        How many rows, and the size of each.
    rng : random.Random
        The generator the entries are drawn from, row by row.
    """

    def __init__(self, count: int, dim: int, rng: random.Random) -> None:
        self.weight = _matrix(count, dim, rng)

    def __call__(self, index: int) -> Vector:
        return self.weight[index]

    def parameters(self) -> list[Value]:
        return [w for row in self.weight for w in row]


def rmsnorm(x: Sequence[Value], eps: float = 1e-5) -> Vector:
    """``x`` divided by its root mean square: ``x / sqrt(mean(x**2) + eps)``, with no weights."""
    mean_square = Value.dot(x, x) / len(x)
    scale = (mean_square + eps) ** -0.5
    return [xi * scale for xi in x]


def softmax(logits: Sequence[Value]) -> Vector:
    """``exp(logits)`` normalised to sum to 1 (the largest logit is subtracted first)."""
    largest = max(logit.data for logit in logits)
    exps = [(logit - largest).exp() for logit in logits]
    total = Value.sum(exps)
    return [e / total for e in exps]


def cross_entropy(logits: Sequence[Value], target: int) -> Value:
    """``-log(softmax(logits)[target])``: the loss of predicting ``target`` from ``logits``.

    Raises
    ------
    ValueError
        If ``target`` is not an index of ``logits``.
    """
    if not 0 <= target < len(logits):
        raise ValueError(f"target {target} is outside 0 .. {len(logits) - 1}")
    largest = max(logit.data for logit in logits)
    exps = [(logit - largest).exp() for logit in logits]
    return -(exps[target] / Value.sum(exps)).log()


class Cache:
    """The keys and values that each layer's attention has computed, one per position so far.

    Parameters
    ----------
    n_layer : int
        The number of layers of the model it is for.
    """

    def __init__(self, n_layer: int) -> None:
        self.keys: list[list[Vector]] = [[] for _ in range(n_layer)]
        self.values: list[list[Vector]] = [[] for _ in range(n_layer)]

    def __len__(self) -> int:
        """The number of positions read so far."""
        return len(self.keys[0]) if self.keys else 0


class Attention(Module):
    """Multi-head causal self-attention: each position attends to itself and those before it.

    Parameters
    ----------
    n_embd : int
        The size of the vectors in and out.
    n_head : int
        The number of heads; each works on ``n_embd // n_head`` dimensions.
    rng : random.Random
        The generator the weights are drawn from: query, key, value, output.
    """

    def __init__(self, n_embd: int, n_head: int, rng: random.Random) -> None:
        self.n_head = n_head
        self.head_dim = n_embd // n_head
        self.query = Linear(n_embd, n_embd, rng)
        self.key = Linear(n_embd, n_embd, rng)
        self.value = Linear(n_embd, n_embd, rng)
        self.output = Linear(n_embd, n_embd, rng)

    def __call__(self, x: Sequence[Value], keys: list[Vector], values: list[Vector]) -> Vector:
        """The attention's output at the position of ``x``; appends its key and value."""
        q = self.query(x)
        keys.append(self.key(x))
        values.append(self.value(x))
        heads: Vector = []
        for h in range(self.n_head):
            part = slice(h * self.head_dim, (h + 1) * self.head_dim)
            heads += self.head(q[part], [k[part] for k in keys], [v[part] for v in values])
        return self.output(heads)

    def head(self, q: Vector, keys: list[Vector], values: list[Vector]) -> Vector:
        """One head: a softmax of scaled dot products weighs the values."""
        scale = self.head_dim**0.5
        weights = softmax([Value.dot(q, k) / scale for k in keys])
        return [Value.dot(weights, [v[j] for v in values]) for j in range(self.head_dim)]

    def parameters(self) -> list[Value]:
        return [
            *self.query.parameters(),
            *self.key.parameters(),
            *self.value.parameters(),
            *self.output.parameters(),
        ]


class MLP(Module):
    """``fc2(relu(fc1(x)))``, four times wider in the middle.

    Parameters
    ----------
    n_embd : int
        The size of the vectors in and out.
    rng : random.Random
        The generator the weights are drawn from: fc1, then fc2.
    """

    def __init__(self, n_embd: int, rng: random.Random) -> None:
        self.fc1 = Linear(n_embd, 4 * n_embd, rng)
        self.fc2 = Linear(4 * n_embd, n_embd, rng)

    def __call__(self, x: Sequence[Value]) -> Vector:
        return self.fc2([h.relu() for h in self.fc1(x)])

    def parameters(self) -> list[Value]:
        return [*self.fc1.parameters(), *self.fc2.parameters()]


class Block(Module):
    """One transformer layer: attention, then the MLP, each on an RMS-normed input, plus a residual.

    Parameters
    ----------
    n_embd, n_head : int
        As for :class:`Attention`.
    rng : random.Random
        The generator the weights are drawn from: attention, then MLP.
    """

    def __init__(self, n_embd: int, n_head: int, rng: random.Random) -> None:
        self.attention = Attention(n_embd, n_head, rng)
        self.mlp = MLP(n_embd, rng)

    def __call__(self, x: Vector, keys: list[Vector], values: list[Vector]) -> Vector:
        x = [a + r for a, r in zip(self.attention(rmsnorm(x), keys, values), x, strict=True)]
        return [m + r for m, r in zip(self.mlp(rmsnorm(x)), x, strict=True)]

    def parameters(self) -> list[Value]:
        return [*self.attention.parameters(), *self.mlp.parameters()]


class GPT(Module):
    """A GPT that reads tokens one at a time and gives the logits of the next one.

    Parameters
    ----------
    vocab_size : int
        The number of tokens (:attr:`Tokenizer.vocab_size`).
    n_layer : int, default 1
        The number of transformer layers (:class:`Block`).
    n_embd : int, default 16
        The size of every vector.
    block_size : int, default 16
        The most positions a document may take.
    n_head : int, default 4
        The number of attention heads; it must divide ``n_embd``.
    seed : int, default 42
        The seed of the generator the weights are drawn from, in microgpt's
        order: token embeddings, position embeddings, the head, then each
        layer's query, key, value, output, fc1, fc2.

    Raises
    ------
    TypeError
        If a size or the seed is not an int.
    ValueError
        If a size is below 1, or ``n_head`` does not divide ``n_embd``.

    Examples
    --------
    >>> model = GPT(vocab_size=3, n_embd=4, block_size=4, n_head=2)
    >>> len(model.parameters())
    232
    >>> logits = model.forward(2, 0, Cache(model.n_layer))
    >>> len(logits)
    3
    """

    def __init__(
        self,
        vocab_size: int,
        n_layer: int = 1,
        n_embd: int = 16,
        block_size: int = 16,
        n_head: int = 4,
        seed: int = 42,
    ) -> None:
        sizes = {"vocab_size": vocab_size, "n_layer": n_layer, "n_embd": n_embd}
        sizes |= {"block_size": block_size, "n_head": n_head}
        for name, size in sizes.items():
            _check_int(name, size)
            if size < 1:
                raise ValueError(f"{name} must be at least 1, got {size}")
        _check_int("seed", seed)
        if n_embd % n_head:
            raise ValueError(f"n_head ({n_head}) must divide n_embd ({n_embd})")
        self.vocab_size, self.n_layer, self.n_embd = vocab_size, n_layer, n_embd
        self.block_size, self.n_head = block_size, n_head
        rng = random.Random(seed)
        self.token_embedding = Embedding(vocab_size, n_embd, rng)
        self.position_embedding = Embedding(block_size, n_embd, rng)
        self.head = Linear(n_embd, vocab_size, rng)
        self.blocks = [Block(n_embd, n_head, rng) for _ in range(n_layer)]

    def forward(self, token: int, position: int, cache: Cache) -> Vector:
        """The logits of the token after ``token``, which is at ``position``.

        ``cache`` holds the keys and values of positions ``0 .. position - 1``
        (a new :class:`Cache` for position 0); this call appends its own.

        Raises
        ------
        ValueError
            If ``token`` is not in the vocabulary, ``position`` is not the
            next one the cache expects, or it is outside the block.
        """
        if not 0 <= token < self.vocab_size:
            raise ValueError(f"token {token} is outside 0 .. {self.vocab_size - 1}")
        if not 0 <= position < self.block_size:
            raise ValueError(
                f"position {position} is outside the block (0 .. {self.block_size - 1})"
            )
        if len(cache) != position or len(cache.keys) != self.n_layer:
            raise ValueError(
                f"position {position} needs a cache of {self.n_layer} layers holding "
                f"{position} positions, got {len(cache.keys)} layers holding {len(cache)}"
            )
        token_vector = self.token_embedding(token)
        x = [t + p for t, p in zip(token_vector, self.position_embedding(position), strict=True)]
        x = rmsnorm(x)
        for block, keys, values in zip(self.blocks, cache.keys, cache.values, strict=True):
            x = block(x, keys, values)
        return self.head(x)

    def loss(self, tokens: Sequence[int]) -> Value:
        """The mean cross-entropy of predicting each token of ``tokens`` from those before it.

        Raises
        ------
        ValueError
            If ``tokens`` has fewer than two tokens, or needs more positions
            than the block has (``len(tokens) - 1 > block_size``).
        """
        positions = len(tokens) - 1
        if positions < 1:
            raise ValueError(f"a loss needs at least two tokens, got {len(tokens)}")
        if positions > self.block_size:
            raise ValueError(
                f"{len(tokens)} tokens need {positions} positions, "
                f"more than the block size ({self.block_size})"
            )
        cache = Cache(self.n_layer)
        losses = [
            cross_entropy(self.forward(tokens[i], i, cache), tokens[i + 1])
            for i in range(positions)
        ]
        return Value.sum(losses) * (1.0 / positions)

    def parameters(self) -> list[Value]:
        """Every weight, in microgpt's order (the order they are drawn in)."""
        params = [*self.token_embedding.parameters(), *self.position_embedding.parameters()]
        params += self.head.parameters()
        for block in self.blocks:
            params += block.parameters()
        return params


class Adam:
    """Adam, with a learning rate that falls linearly to 0 over ``steps`` steps.

    Parameters
    ----------
    params : sequence of Value
        The parameters it updates.
    steps : int
        The number of steps the learning rate falls over.
    lr : float, default 0.01
        The learning rate of the first step.
    beta1, beta2, eps : float
        Adam's constants; microgpt's by default.

    Raises
    ------
    ValueError
        If ``steps`` is below 1, or :meth:`step` is called more than ``steps`` times.
    """

    def __init__(
        self,
        params: Sequence[Value],
        steps: int,
        lr: float = 0.01,
        beta1: float = 0.85,
        beta2: float = 0.99,
        eps: float = 1e-8,
    ) -> None:
        _check_int("steps", steps)
        if steps < 1:
            raise ValueError(f"steps must be at least 1, got {steps}")
        self.params = list(params)
        self.steps, self.lr, self.beta1, self.beta2, self.eps = steps, lr, beta1, beta2, eps
        self.t = 0  # the number of steps taken
        self.m = [0.0] * len(self.params)
        self.v = [0.0] * len(self.params)

    def step(self) -> None:
        """Move each parameter against its gradient, then set the gradient to 0."""
        if self.t >= self.steps:
            raise ValueError(f"all {self.steps} steps are taken: the learning rate is 0")
        lr = self.lr * (1 - self.t / self.steps)
        self.t += 1
        b1, b2 = self.beta1, self.beta2
        for i, p in enumerate(self.params):
            self.m[i] = b1 * self.m[i] + (1 - b1) * p.grad
            self.v[i] = b2 * self.v[i] + (1 - b2) * p.grad**2
            m_hat = self.m[i] / (1 - b1**self.t)
            v_hat = self.v[i] / (1 - b2**self.t)
            p.data -= lr * m_hat / (v_hat**0.5 + self.eps)
            p.grad = 0.0


def train(
    model: GPT,
    tokenizer: Tokenizer,
    docs: Sequence[str],
    steps: int,
    lr: float = 0.01,
    seed: int = 42,
    callback: Callable[[int, float], None] | None = None,
) -> list[float]:
    """Train ``model`` on one document a step, in an order shuffled by ``seed``.

    As microgpt trains: the documents are shuffled once, step ``i`` takes
    document ``i % len(docs)``, its loss is backpropagated and
    :class:`Adam` takes a step.

    Parameters
    ----------
    model : GPT
    tokenizer : Tokenizer
    docs : sequence of str
        The documents; not changed (a shuffled copy is used).
    steps : int
        The number of steps.
    lr : float, default 0.01
        Adam's first learning rate.
    seed : int, default 42
        The seed of the shuffle.
    callback : callable, optional
        Called as ``callback(step, loss)`` after each step.

    Returns
    -------
    list of float
        The loss of each step.

    Raises
    ------
    ValueError
        If ``docs`` is empty, or a document cannot be encoded or is too long.
    """
    if not docs:
        raise ValueError("train needs at least one document")
    order = list(docs)
    random.Random(seed).shuffle(order)
    optimizer = Adam(model.parameters(), steps, lr=lr)
    losses = []
    for step in range(steps):
        loss = model.loss(tokenizer.encode(order[step % len(order)]))
        loss.backward()
        optimizer.step()
        losses.append(loss.data)
        if callback is not None:
            callback(step, loss.data)
    return losses


def sample(model: GPT, tokenizer: Tokenizer, rng: random.Random, temperature: float = 0.5) -> str:
    """One document drawn from ``model``, a token at a time, until the end token or the block's end.

    Parameters
    ----------
    model : GPT
    tokenizer : Tokenizer
    rng : random.Random
        The generator the tokens are drawn with.
    temperature : float, default 0.5
        The logits are divided by it: below 1 sharpens the distribution,
        above 1 flattens it.

    Raises
    ------
    ValueError
        If ``temperature`` is not a finite number above 0.
    """
    if not (isinstance(temperature, numbers.Real) and 0 < temperature < math.inf):
        raise ValueError(f"temperature must be a finite number above 0, got {temperature!r}")
    cache = Cache(model.n_layer)
    token = tokenizer.bos
    out = []
    for position in range(model.block_size):
        logits = [logit.data / temperature for logit in model.forward(token, position, cache)]
        largest = max(logits)
        weights = [math.exp(logit - largest) for logit in logits]
        token = rng.choices(range(model.vocab_size), weights=weights)[0]
        if token == tokenizer.bos:
            break
        out.append(token)
    return tokenizer.decode(out)


def _check_int(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
