"""One neuron, o = tanh(x1*w1 + x2*w2 + b), its gradients, and a few nudges.

Run ``python examples/neuron.py``.  It prints the output ``o`` and the
gradient of ``o`` with respect to every input, draws the computation graph
(``neuron.svg``), then takes ``--steps`` small steps that nudge ``w1``,
``w2`` and ``b`` along their gradients, so that ``o`` grows, printing ``o``
after each step and logging ``loss = 1 - o`` to ``log.csv``.

The bias 6.8813735870195432 makes ``n = 0.8814`` and ``o = tanh(n) =
0.7071`` (= 1/sqrt(2)), so ``do/dn = 1 - o**2 = 0.5``.  tanh_neuron.py runs
this script with tanh built from ``exp`` (:func:`main`'s ``activation``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import Progress, output_folder, parser, save_graph

from micrograd import Value
from micrograd.engine import topological_order
from micrograd.training_log import TrainingLog
from micrograd.viz.draw import draw_dot

NAME = "neuron"
DEFAULTS = {"x1": 2.0, "w1": -3.0, "x2": 0.0, "w2": 1.0, "b": 6.8813735870195432}


def leaves() -> dict[str, Value]:
    """The inputs x1, x2, the weights w1, w2 and the bias b, labelled."""
    return {name: Value(value, label=name) for name, value in DEFAULTS.items()}


def tanh(n: Value) -> Value:
    """The neuron's activation: the engine's one ``tanh`` operation."""
    return n.tanh()


def forward(v: dict[str, Value], activation: Callable[[Value], Value]) -> tuple[Value, Value]:
    """The neuron: ``n = x1*w1 + x2*w2 + b`` and ``o = activation(n)``, labelled for drawing."""
    x1w1 = v["x1"] * v["w1"]
    x1w1.label = "x1*w1"
    x2w2 = v["x2"] * v["w2"]
    x2w2.label = "x2*w2"
    x1w1x2w2 = x1w1 + x2w2
    x1w1x2w2.label = "x1*w1 + x2*w2"
    n = x1w1x2w2 + v["b"]
    n.label = "n"
    o = activation(n)
    o.label = "o"
    return n, o


def main(
    argv: list[str] | None = None,
    *,
    script: str = NAME,
    description: str = (__doc__ or NAME).splitlines()[0],
    activation: Callable[[Value], Value] = tanh,
) -> int:
    """Run the script (``script`` and ``description`` name its picture and --help)."""
    p = parser(script, description, steps=5, seed=0)
    p.add_argument("--lr", type=float, default=0.1, help="step size (default 0.1)")
    args = p.parse_args(argv)
    out = output_folder(p, args.out)
    # This example draws no random numbers; --seed is accepted like everywhere.

    v = leaves()
    n, o = forward(v, activation)
    o.backward()
    print(f"o: {o.data:.4f}")
    print(f"n.grad: {n.grad:.4f}")
    for name in ("x1", "w1", "x2", "w2", "b"):
        print(f"{name}.grad: {v[name].grad:.4f}")
    graph_path = save_graph(draw_dot(o), out / f"{script}.svg")
    print(f"graph nodes: {len(topological_order(o))}")
    print(f"graph: {graph_path}")

    log = TrainingLog(out / "log.csv")
    log.record(0, 1.0 - o.data, learning_rate=args.lr)
    with Progress(args.steps, "nudge", enabled=False if args.quiet else None) as bar:
        for step in range(1, args.steps + 1):
            for name in ("w1", "w2", "b"):  # along the gradient: o goes up
                v[name].data += args.lr * v[name].grad
            for leaf in v.values():
                leaf.grad = 0.0
            n, o = forward(v, activation)
            o.backward()
            log.record(step, 1.0 - o.data, learning_rate=args.lr)
            bar.update(note=f"o {o.data:.4f}")
            bar.print(f"step {step}: o = {o.data:.4f}")
    print(f"final o: {o.data:.4f}")
    print(f"log: {log.path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
