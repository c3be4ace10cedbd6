"""A profile of microgpt's training loop, step by step: where a step's time goes, over a run.

microgpt's model as published (its ``engine.py``, loaded as ``gpt_cases.py``
loads it) trains with its own ``Value`` or with this package's, in its own
loop, unchanged.  For every step this prints nothing; at the end, for each
block of steps, the median CPU seconds of a step and what CPython's cyclic
garbage collector did in the block: its collections of each generation and
the CPU seconds they took.  Every ``--every`` steps it also counts the
objects the collector tracks and the ``Value`` objects alive, to see whether
graphs of earlier steps stay alive.

``--collector off`` switches the collector off for the run (in this process
only): what a step costs without it, the limit of what an engine can gain by
making the collector's work lighter.

Usage::

    python gpt_profile.py --engine PATH --side microgpt_our_value [--steps 300]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from gpt_cases import load_engine  # benchmarks/gpt_cases.py


class Profile:
    """Each step's CPU seconds and collections, and the objects alive at some steps."""

    def __init__(self, value_type: type, every: int) -> None:
        self.value_type = value_type
        self.every = every
        self.collections = [0, 0, 0]  # by generation
        self.gc_seconds = [0.0, 0.0, 0.0]
        self._started = 0.0
        self.steps: list[dict[str, Any]] = []
        self._last = self._totals()

    def _totals(self) -> tuple[float, list[int], list[float]]:
        return time.process_time(), list(self.collections), list(self.gc_seconds)

    def on_collection(self, phase: str, info: dict[str, Any]) -> None:
        """A ``gc.callbacks`` entry: count each collection and its CPU time."""
        if phase == "start":
            self._started = time.process_time()
            return
        generation = info["generation"]
        self.collections[generation] += 1
        self.gc_seconds[generation] += time.process_time() - self._started

    def on_step(self, step: int, loss: float) -> None:
        """microgpt's callback, after each step: the step's numbers."""
        cpu, collections, gc_seconds = self._totals()
        before_cpu, before_collections, before_seconds = self._last
        row: dict[str, Any] = {
            "cpu": cpu - before_cpu,
            "collections": [a - b for a, b in zip(collections, before_collections, strict=True)],
            "gc_seconds": [a - b for a, b in zip(gc_seconds, before_seconds, strict=True)],
        }
        if step % self.every == 0:
            tracked = gc.get_objects()
            row["tracked"] = len(tracked)
            row["values"] = sum(1 for o in tracked if type(o) is self.value_type)
            del tracked
        self.steps.append(row)
        self._last = self._totals()  # the count above is not charged to the next step


def table(steps: list[dict[str, Any]], block: int) -> list[str]:
    """One line per block of steps: median CPU a step, collections and their CPU a step."""
    lines = [
        "steps      CPU ms/step | collections a step (gen 0, 1, 2) | their CPU ms a step (0, 1, 2)"
    ]
    for start in range(0, len(steps), block):
        rows = steps[start : start + block]
        cpu = statistics.median(r["cpu"] for r in rows) * 1e3
        count = [sum(r["collections"][g] for r in rows) / len(rows) for g in range(3)]
        seconds = [sum(r["gc_seconds"][g] for r in rows) / len(rows) * 1e3 for g in range(3)]
        lines.append(
            f"{start + 1:4}-{start + len(rows):<4} {cpu:8.1f}    |"
            f" {count[0]:6.1f} {count[1]:5.1f} {count[2]:4.2f}              |"
            f" {seconds[0]:5.1f} {seconds[1]:5.1f} {seconds[2]:6.1f}"
        )
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", type=Path, required=True, help="microgpt's engine.py")
    parser.add_argument("--side", choices=("microgpt", "microgpt_our_value"), required=True)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--block", type=int, default=25, help="steps a line")
    parser.add_argument("--every", type=int, default=25, help="count live objects this often")
    parser.add_argument("--collector", choices=("on", "off"), default="on")
    args = parser.parse_args(argv)

    import micrograd.engine
    from micrograd.datasets import names

    engine = load_engine(args.engine)
    if args.side == "microgpt_our_value":
        engine.Value = micrograd.engine.Value  # its code, unchanged, on our Value
    docs = names()
    tokenizer = engine.Tokenizer.from_docs(docs)
    model = engine.MicroGPT(vocab_size=tokenizer.vocab_size)
    profile = Profile(engine.Value, args.every)
    gc.callbacks.append(profile.on_collection)
    if args.collector == "off":
        gc.disable()
    try:
        model.train_on_docs(
            list(docs), tokenizer, num_steps=args.steps, log_every=0, callback=profile.on_step
        )
    finally:
        gc.enable()
        gc.callbacks.remove(profile.on_collection)

    print(f"{args.side}, collector {args.collector}, {args.steps} steps")
    print("\n".join(table(profile.steps, args.block)))
    steps = enumerate(profile.steps)
    counted = [(i, r["tracked"], r["values"]) for i, r in steps if "tracked" in r]
    print("after step: objects the collector tracks, Values alive")
    print("  " + ", ".join(f"{i + 1}: {tracked} {values}" for i, tracked, values in counted))
    median = statistics.median(r["cpu"] for r in profile.steps) * 1e3
    print(f"median CPU a step: {median:.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
