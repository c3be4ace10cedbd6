"""microgpt's model as published on PyPI, against this package: the same weights give the same loss.

strands-microgpt (pyproject.toml's ``microgpt`` group; nox installs it ``--no-deps``
in every test session) is not a dependency of the package.  Only its ``engine.py``
is loaded, by path: the package's ``__init__``, which imports an agents framework,
never runs.  The tests are marked ``microgpt``: a run that selects them where the
package is missing stops before any test runs (conftest.py), so they are never skipped.
The training runs, pure Python whose arithmetic is the same on every Python, run on one
(``one_python``); the weights and one document's loss on each.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import random
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import micrograd.engine
from micrograd.datasets import names
from micrograd.gpt import GPT, Tokenizer, train

pytestmark = pytest.mark.microgpt

ROOT = Path(__file__).resolve().parents[2]
#: Adam steps, each on its own document: each loss is computed from the weights that the
#: steps before it left, so the losses agree only if every gradient and update agrees.
STEPS = 4
TOLERANCE = 1e-12


def load_engine() -> types.ModuleType:
    """A fresh copy of microgpt's ``engine.py`` (its package's ``__init__`` not run)."""
    package = importlib.util.find_spec("strands_microgpt")  # finds it without importing it
    assert package is not None
    assert package.origin is not None
    spec = importlib.util.spec_from_file_location(
        "microgpt_engine", Path(package.origin).with_name("engine.py")
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def global_generator_kept() -> Iterator[None]:
    """microgpt seeds and draws from the global generator: leave it as it was."""
    state = random.getstate()
    yield
    random.setstate(state)


@pytest.fixture(scope="module")
def docs() -> list[str]:
    return names()


@pytest.fixture(scope="module")
def microgpts_own_losses(docs: list[str]) -> list[float]:
    """microgpt's losses over STEPS steps, with its own Value (the slowest run here: once)."""
    state = random.getstate()
    try:
        return microgpt_losses(load_engine(), docs, STEPS)
    finally:
        random.setstate(state)


def microgpt_model(engine: types.ModuleType, docs: list[str]) -> tuple[Any, Any]:
    """microgpt's model at its defaults (seed 42), and its tokenizer of ``docs``."""
    tokenizer = engine.Tokenizer.from_docs(docs)
    return engine.MicroGPT(vocab_size=tokenizer.vocab_size), tokenizer


def microgpt_losses(engine: types.ModuleType, docs: list[str], steps: int) -> list[float]:
    """microgpt's own training loop, from its initial weights: each step's loss."""
    model, tokenizer = microgpt_model(engine, docs)
    losses: list[float] = model.train_on_docs(list(docs), tokenizer, num_steps=steps, log_every=0)
    return losses


def test_the_installed_microgpt_is_the_one_the_benchmark_pins() -> None:
    spec = importlib.util.spec_from_file_location("bench_sides", ROOT / "benchmarks" / "sides.py")
    assert spec is not None
    assert spec.loader is not None
    sides = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sides)
    assert f"strands-microgpt=={importlib.metadata.version('strands-microgpt')}" == sides.MICROGPT


def test_our_gpt_draws_microgpts_weights_and_gives_its_loss_on_a_document(
    docs: list[str],
) -> None:
    engine = load_engine()
    theirs, their_tokenizer = microgpt_model(engine, docs)
    tokenizer = Tokenizer(docs)
    ours = GPT(tokenizer.vocab_size)
    assert [p.data for p in ours.parameters()] == [p.data for p in theirs.params]
    assert (tokenizer.chars, tokenizer.bos) == (their_tokenizer.chars, their_tokenizer.bos)
    document = "isabella"
    # One step of microgpt's loop returns the loss at the weights it starts from.
    [their_loss] = theirs.train_on_docs([document], their_tokenizer, num_steps=1, log_every=0)
    assert ours.loss(tokenizer.encode(document)).data == pytest.approx(their_loss, abs=TOLERANCE)


@pytest.mark.one_python
def test_our_gpt_trains_to_microgpts_losses_step_by_step(
    docs: list[str], microgpts_own_losses: list[float]
) -> None:
    expected = microgpts_own_losses
    tokenizer = Tokenizer(docs)
    losses = train(GPT(tokenizer.vocab_size), tokenizer, docs, STEPS)
    assert losses == pytest.approx(expected, abs=TOLERANCE)
    assert len(set(losses)) == STEPS  # four documents, four different losses


@pytest.mark.one_python
def test_microgpts_model_on_our_value_gives_its_own_losses(
    docs: list[str], microgpts_own_losses: list[float]
) -> None:
    expected = microgpts_own_losses
    engine = load_engine()
    engine.Value = micrograd.engine.Value  # its code, unchanged, on our Value
    model, _ = microgpt_model(engine, docs)
    assert all(type(p) is micrograd.engine.Value for p in model.params)
    assert microgpt_losses(engine, docs, STEPS) == pytest.approx(expected, abs=TOLERANCE)
