# The moons demo is the original notebook's code, kept as written (legacy NumPy
# random API, zip without strict=):
# ruff: noqa: NPY002, B905
"""One benchmark case per process, for ``run.py`` (and ``nox -s bench``).

The same file runs against the original micrograd 0.1.0 and against this
package: both are imported as ``micrograd`` and only the API they share is
used.  Each call prints one JSON object on its last line of output.

Usage::

    python cases.py moons_demo [--steps 100] [--paused-loop]
    python cases.py chain [--depth 20000] [--repeat 5] [--torch]
    python cases.py moons_step --samples 100 [--warmup 2] [--steps 3]
    python cases.py bytes_per_node [--depth 20000]
    python cases.py deep_chain [--depth 1000000]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import random
import statistics
import sys
import time
import tracemalloc
from typing import Any


def library() -> str:
    """Which micrograd this process imported: ``original`` or ``ours``."""
    import micrograd.engine

    return "ours" if hasattr(micrograd.engine, "topological_order") else "original"


def paused_scope(paused: bool) -> Any:
    """This package's ``paused_gc()`` if ``paused`` (an opt-in the original lacks), else nothing."""
    if not paused:
        return contextlib.nullcontext()
    from micrograd import paused_gc

    return paused_gc()


# -- (1) the original's moons demo, as written ----------------------------------


def moons_demo(steps: int) -> dict[str, Any]:
    """The training loop of the original's demo.ipynb, cell by cell, unchanged.

    Only the timer and the step count are added.  The data set, the seeds, the
    model, the loss (SVM max-margin + L2) and the learning-rate schedule are
    the notebook's own.
    """
    import numpy as np
    from sklearn.datasets import make_moons

    from micrograd.engine import Value
    from micrograd.nn import MLP

    np.random.seed(1337)
    random.seed(1337)

    X, y = make_moons(n_samples=100, noise=0.1)
    y = y * 2 - 1  # make y be -1 or 1

    model = MLP(2, [16, 16, 1])  # 2-layer neural network

    def loss(batch_size=None):  # type: ignore[no-untyped-def]
        # inline DataLoader :)
        if batch_size is None:
            Xb, yb = X, y
        else:
            ri = np.random.permutation(X.shape[0])[:batch_size]
            Xb, yb = X[ri], y[ri]
        inputs = [list(map(Value, xrow)) for xrow in Xb]

        # forward the model to get scores
        scores = list(map(model, inputs))

        # svm "max-margin" loss
        losses = [(1 + -yi * scorei).relu() for yi, scorei in zip(yb, scores)]
        data_loss = sum(losses) * (1.0 / len(losses))
        # L2 regularization
        alpha = 1e-4
        reg_loss = alpha * sum(p * p for p in model.parameters())
        total_loss = data_loss + reg_loss

        # also get accuracy
        accuracy = [(yi > 0) == (scorei.data > 0) for yi, scorei in zip(yb, scores)]
        return total_loss, sum(accuracy) / len(accuracy)

    start = time.perf_counter()
    # optimization
    for k in range(steps):
        # forward
        total_loss, acc = loss()

        # backward
        model.zero_grad()
        total_loss.backward()

        # update (sgd)
        learning_rate = 1.0 - 0.9 * k / 100
        for p in model.parameters():
            p.data -= learning_rate * p.grad

        if k % 1 == 0:
            pass  # the notebook prints here; printing is left out of the timing
    seconds = time.perf_counter() - start
    return {
        "steps": steps,
        "seconds_per_step": seconds / steps,
        "final_loss": total_loss.data,
        "final_accuracy": float(acc),
    }


# -- (2) forward + backward per node on a deep chain -----------------------------


def build_chain(value: Any, depth: int) -> tuple[Any, Any, Any]:
    """``x = a * c + x``, ``depth`` times: 2 * depth + 3 nodes."""
    a, c, x = value(0.999), value(0.001), value(1.0)
    for _ in range(depth):
        x = a * c + x
    return a, c, x


def chain(depth: int, repeat: int, use_torch: bool) -> dict[str, Any]:
    """Median seconds per graph node to build the chain and backpropagate it."""
    if use_torch:
        import torch

        torch.set_num_threads(1)

        def value(v: float) -> Any:
            return torch.tensor(v, dtype=torch.float64, requires_grad=True)

        name = f"torch {torch.__version__}"
    else:
        from micrograd.engine import Value as value

        name = library()
    # The original's backward is recursive: give it room.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * depth + 1000))
    nodes = 2 * depth + 3
    times, grads = [], []
    for _ in range(repeat):
        gc.collect()  # garbage of the previous repeat is not charged to this one
        start = time.perf_counter()
        a, c, x = build_chain(value, depth)
        x.backward()
        times.append(time.perf_counter() - start)
        grads.append(float(a.grad))
        del a, c, x
    return {
        "library": name,
        "depth": depth,
        "nodes": nodes,
        "seconds_per_node": statistics.median(times) / nodes,
        "a_grad": grads[-1],
    }


# -- (3) one moons training step at several sizes --------------------------------


def moons_step(samples: int, warmup: int, steps: int, paused: bool = False) -> dict[str, Any]:
    """Median seconds per sample of one full-batch step (forward, backward, update).

    A few warm-up steps run first, so that the heap (and the collector's view
    of it) has reached its steady state.  With ``paused``, the whole loop runs
    inside this package's ``paused_gc()`` (the opt-in for a whole loop).
    """
    import numpy as np
    from sklearn.datasets import make_moons

    from micrograd.engine import Value
    from micrograd.nn import MLP

    np.random.seed(1337)
    random.seed(1337)
    X, y = make_moons(n_samples=samples, noise=0.1)
    y = y * 2 - 1
    model = MLP(2, [16, 16, 1])

    def loss() -> Any:
        inputs = [list(map(Value, xrow)) for xrow in X]
        scores = list(map(model, inputs))
        losses = [(1 + -yi * scorei).relu() for yi, scorei in zip(y, scores)]
        data_loss = sum(losses) * (1.0 / len(losses))
        reg_loss = 1e-4 * sum(p * p for p in model.parameters())
        return data_loss + reg_loss

    times = []
    with paused_scope(paused):
        for k in range(warmup + steps):
            start = time.perf_counter()
            total_loss = loss()
            model.zero_grad()
            total_loss.backward()
            for p in model.parameters():
                p.data -= 0.5 * p.grad
            if k >= warmup:
                times.append(time.perf_counter() - start)
    step = statistics.median(times)
    return {
        "paused_loop": paused,
        "samples": samples,
        "seconds_per_step": step,
        "seconds_per_sample": step / samples,
        "loss": total_loss.data,
    }


# -- (4) bytes per graph node -----------------------------------------------------


def bytes_per_node(depth: int) -> dict[str, Any]:
    """Memory held by the chain's graph (tracemalloc), divided by its node count.

    The three leaves are made before tracing starts, so only the nodes the
    operations create are counted.
    """
    from micrograd.engine import Value

    a, c, x = Value(0.999), Value(0.001), Value(1.0)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(depth):
        x = a * c + x
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    nodes = 2 * depth
    return {"depth": depth, "nodes": nodes, "bytes_per_node": (after - before) / nodes}


# -- (5) a very deep chain ----------------------------------------------------------


def deep_chain(depth: int) -> dict[str, Any]:
    """Backward through a chain of ``2 * depth`` nodes, at the default recursion limit."""
    from micrograd.engine import Value

    a, _c, x = build_chain(Value, depth)
    start = time.perf_counter()
    try:
        x.backward()
    except RecursionError as error:
        return {"depth": depth, "ok": False, "error": f"RecursionError: {error}"}
    seconds = time.perf_counter() - start
    return {"depth": depth, "ok": True, "backward_seconds": seconds, "a_grad": a.grad}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "case", choices=["moons_demo", "chain", "moons_step", "bytes_per_node", "deep_chain"]
    )
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--depth", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--torch", action="store_true", help="chain: use PyTorch tensors")
    parser.add_argument(
        "--paused-loop",
        action="store_true",
        help="moons_demo, moons_step: the loop in paused_gc() (ours)",
    )
    args = parser.parse_args(argv)

    if args.case == "moons_demo":
        with paused_scope(args.paused_loop):
            result = moons_demo(args.steps or 100)
        result["paused_loop"] = args.paused_loop
    elif args.case == "chain":
        result = chain(args.depth or 20_000, args.repeat, args.torch)
    elif args.case == "moons_step":
        result = moons_step(args.samples, args.warmup, args.steps or 3, args.paused_loop)
    elif args.case == "bytes_per_node":
        result = bytes_per_node(args.depth or 20_000)
    else:
        result = deep_chain(args.depth or 1_000_000)
    result.setdefault("library", library())
    result["python"] = sys.version.split()[0]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
