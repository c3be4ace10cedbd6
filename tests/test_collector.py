"""How a training step hands its finished graph to CPython's cyclic collector.

At the end of a ``backward()`` that closes a model's graph pause, the engine
moves the young generation into the oldest one (``gc.freeze()`` then
``gc.unfreeze()``) instead of letting the next young collection scan the live
graph.  These tests pin down when it does that, when it must not, and that
cyclic garbage made by the program meanwhile is still collected.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator

import pytest

import micrograd.engine
from micrograd.engine import Value
from micrograd.nn import MLP


@pytest.fixture(autouse=True)
def _collector_on_and_clean() -> Iterator[None]:
    assert gc.isenabled()
    gc.collect()
    yield
    assert gc.isenabled()


def in_generation(obj: object, generation: int) -> bool:
    return any(o is obj for o in gc.get_objects(generation=generation))


def training_steps(model: MLP, samples: int, steps: int) -> Value:
    """The moons loop's shape: each step's loss replaces the previous one."""
    rng = random.Random(0)
    xs = [[rng.uniform(-1, 1), rng.uniform(-1, 1)] for _ in range(samples)]
    ys = [rng.choice([-1.0, 1.0]) for _ in range(samples)]
    total_loss = Value(0.0)
    for _ in range(steps):
        inputs = [list(map(Value, x)) for x in xs]
        scores = list(map(model, inputs))
        losses = [(1 + -y * s).relu() for y, s in zip(ys, scores, strict=True)]
        total_loss = sum(losses) * (1.0 / len(losses))  # type: ignore[assignment]
        model.zero_grad()
        total_loss.backward()
        for p in model.parameters():
            p.data -= 0.1 * p.grad
    return total_loss


def test_backward_moves_a_training_steps_live_graph_to_the_oldest_generation() -> None:
    total_loss = training_steps(MLP(2, [8, 1]), samples=4, steps=3)
    assert in_generation(total_loss, 2)
    assert in_generation(total_loss._a, 2)
    assert gc.get_freeze_count() == 0  # nothing is left frozen


def test_a_graph_that_outgrew_the_young_threshold_is_left_to_the_collector() -> None:
    # one step, nothing freed: a young collection is due anyway, so it runs as usual
    model = MLP(2, [16, 16, 1])
    total_loss = training_steps(model, samples=3, steps=1)
    assert not in_generation(total_loss, 2)


def test_promotion_leaves_objects_the_program_froze_frozen() -> None:
    sentinel: list[object] = []
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        total_loss = training_steps(MLP(2, [8, 1]), samples=4, steps=3)
        assert gc.get_freeze_count() >= frozen - 1000  # not thawed (a few may have died)
        assert not any(o is sentinel for o in gc.get_objects())  # still frozen
        assert not in_generation(total_loss, 2)  # and no promotion was done
    finally:
        gc.unfreeze()


def test_promotion_is_not_done_while_the_user_keeps_the_collector_off() -> None:
    gc.disable()
    try:
        total_loss = training_steps(MLP(2, [8, 1]), samples=4, steps=3)
        assert not gc.isenabled()
        assert not in_generation(total_loss, 2)
    finally:
        gc.enable()


def test_a_hand_written_backward_closure_ends_the_pause_without_promotion() -> None:
    model = MLP(2, [8, 1])
    training_steps(model, samples=4, steps=2)
    score = model([0.5, -0.5])
    assert isinstance(score, Value)
    out = Value(score.data * 2.0, (score,), "double")

    def _backward() -> None:
        score.grad += 2.0 * out.grad

    out._backward = _backward  # the original's way to define an operation
    out.backward()
    assert score.grad == 2.0
    assert not in_generation(out, 2)


class Cycle:
    """A piece of cyclic garbage, as a program might make a few of per step."""

    alive = 0

    def __init__(self) -> None:
        self.me = self
        Cycle.alive += 1

    def __del__(self) -> None:
        Cycle.alive -= 1


def test_cyclic_garbage_made_during_training_is_still_collected() -> None:
    # Each step makes 100 cycles; promotion hides them from the young
    # collections, so the engine's own count must bring on a full collection.
    model = MLP(2, [4, 1])
    x = [Value(0.5), Value(-0.5)]
    made = 0
    total_loss = Value(0.0)
    for _ in range(1500):
        total_loss = model(x) ** 2  # type: ignore[operator]
        for _ in range(100):
            Cycle()
        made += 100
        total_loss.backward()
    limit = micrograd.engine._FULL_COLLECTION_AFTER * gc.get_threshold()[0]
    assert in_generation(total_loss, 2)  # promotion did happen
    assert 0 < Cycle.alive <= limit < made
    gc.collect()
    assert Cycle.alive == 0
