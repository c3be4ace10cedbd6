"""One GPT training run per process, for ``gpt_run.py``: microgpt's model, and this package's.

Three sides train the same model (one layer, 16-dim embeddings, 4 heads,
block 16, seed 42) on makemore's names for the same steps, and print one
JSON object on their last line of output, with the median CPU seconds of a
step (this process's ``time.process_time``; the wall clock's median too):

* ``microgpt``: microgpt's model as published (strands-microgpt 0.1.0's
  ``engine.py``, loaded by path), with its own ``Value``;
* ``microgpt_our_value``: the same code, unchanged, with this package's
  ``Value`` put in the place of its own;
* ``book``: :mod:`micrograd.gpt`, this package's GPT.

``engine.py`` uses the standard library only; the package's ``__init__``,
which imports an agents framework, is never run.  It is not a dependency of
the project: ``gpt_run.py`` installs it in a scratch environment of its own
(``pip install --no-deps``) and passes its path here.

Usage::

    python gpt_cases.py {microgpt,microgpt_our_value,book} --engine PATH [--steps 20]
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import statistics
import sys
import time
import types
from pathlib import Path
from typing import Any

SIDES = ("microgpt", "microgpt_our_value", "book")


def load_engine(path: Path) -> types.ModuleType:
    """microgpt's ``engine.py``, as a module of its own (its package's ``__init__`` not run)."""
    spec = importlib.util.spec_from_file_location("microgpt_engine", path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def train_microgpt(engine: types.ModuleType, docs: list[str], steps: int) -> Any:
    """microgpt's own loop, timed: each step's end is stamped by its callback."""
    tokenizer = engine.Tokenizer.from_docs(docs)
    model = engine.MicroGPT(vocab_size=tokenizer.vocab_size)
    stamps = [clock()]
    losses = model.train_on_docs(
        list(docs), tokenizer, num_steps=steps, log_every=0, callback=lambda *_: stamp(stamps)
    )
    return losses, stamps


def train_book(docs: list[str], steps: int) -> Any:
    """This package's GPT, trained the same way, timed the same way."""
    from micrograd.gpt import GPT, Tokenizer, train

    tokenizer = Tokenizer(docs)
    model = GPT(tokenizer.vocab_size)
    stamps = [clock()]
    losses = train(model, tokenizer, docs, steps, callback=lambda *_: stamp(stamps))
    return losses, stamps


def clock() -> tuple[float, float]:
    """This process's CPU seconds so far, and the wall clock's."""
    return time.process_time(), time.perf_counter()


def stamp(stamps: list[tuple[float, float]]) -> None:
    stamps.append(clock())


def run(side: str, engine_path: Path, steps: int) -> dict[str, Any]:
    """Train on ``side`` for ``steps`` steps: the losses, and the median seconds of a step."""
    import micrograd.engine
    from micrograd.datasets import names

    docs = names()
    if side == "book":
        losses, stamps = train_book(docs, steps)
    else:
        engine = load_engine(engine_path)
        if side == "microgpt_our_value":
            engine.Value = micrograd.engine.Value  # its code, unchanged, on our Value
        losses, stamps = train_microgpt(engine, docs, steps)
    cpu = [b[0] - a[0] for a, b in itertools.pairwise(stamps)]
    wall = [b[1] - a[1] for a, b in itertools.pairwise(stamps)]
    return {
        "side": side,
        "steps": steps,
        # CPU time: what the step cost, without the time the process waited for a core
        # (or was paused by gpt_run.py while another side ran)
        "seconds_per_step": statistics.median(cpu),
        "wall_seconds_per_step": statistics.median(wall),
        "losses": [float(loss) for loss in losses],
        "python": sys.version.split()[0],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("side", choices=SIDES)
    parser.add_argument("--engine", type=Path, required=True, help="microgpt's engine.py")
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args(argv)
    print(json.dumps(run(args.side, args.engine, args.steps)))


if __name__ == "__main__":
    main()
