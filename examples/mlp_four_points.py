"""Train a small MLP (3 inputs, two hidden layers of 4, one output) on four points.

Run ``python examples/mlp_four_points.py``.  The network, with tanh
everywhere, learns to map four 3-number inputs to the targets 1, -1, -1, 1.
Each step: a forward pass over the four points, the squared-error loss
``sum((prediction - target)**2)``, ``zero_grad``, ``backward``, and a
gradient-descent update with learning rate ``--lr``.  It prints the loss at
every step, then (as the lecture does) the loss and predictions of the
last forward pass, and writes to ``--out``: the loss
curve (``loss.png``), the network before and after training
(``mlp_before.svg``, ``mlp_after.svg``) and the log (``log.csv``, with the
predictions of each step).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import Progress, fmt_list, output_folder, parser, report_log, save_graph

from micrograd import MLP, Value
from micrograd.training_log import TrainingLog
from micrograd.viz.draw import draw_mlp

NAME = "mlp_four_points"
XS = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
YS = [1.0, -1.0, -1.0, 1.0]


def predict(model: MLP, xs: list[list[float]]) -> list[Value]:
    """The network's output for each input."""
    outs = []
    for x in xs:
        out = model(x)
        if not isinstance(out, Value):  # pragma: no cover - the model has one output
            raise TypeError("the model must have a single output")
        outs.append(out)
    return outs


def squared_error(ypred: list[Value], ys: list[float]) -> Value:
    """``sum((yout - ygt)**2)`` over the points."""
    loss = Value(0.0)
    for yout, ygt in zip(ypred, ys, strict=True):
        loss = loss + (yout - ygt) ** 2
    return loss


def main(argv: list[str] | None = None) -> int:
    p = parser(NAME, (__doc__ or NAME).splitlines()[0], steps=20, seed=1337)
    p.add_argument("--lr", type=float, default=0.1, help="learning rate (default 0.1)")
    args = p.parse_args(argv)
    out = output_folder(p, args.out)

    random.seed(args.seed)
    model = MLP(3, [4, 4, 1], activation="tanh", output_activation="tanh")
    print(f"parameters: {len(model.parameters())}")
    print(f"network before: {save_graph(draw_mlp(model), out / 'mlp_before.svg')}")

    log = TrainingLog(out / "log.csv")
    ypred = predict(model, XS)  # with --steps 0: the untrained network's
    loss = squared_error(ypred, YS)
    with Progress(args.steps, "train", enabled=False if args.quiet else None) as bar:
        for step in range(args.steps):
            ypred = predict(model, XS)  # forward
            loss = squared_error(ypred, YS)
            model.zero_grad()
            loss.backward()  # backward
            for p_ in model.parameters():  # update
                p_.data -= args.lr * p_.grad
            log.record(step, loss, learning_rate=args.lr, predictions=ypred)
            bar.update(note=f"loss {loss.data:.4f}")
            bar.print(f"step {step}: loss {loss.data:.10f}")

    # As in the lecture: the loss and predictions of the last forward pass.
    print(f"final loss: {loss.data:.10f}")
    print(f"predictions: {fmt_list(y.data for y in ypred)}")
    print(f"targets: {fmt_list(YS)}")
    print(f"network after: {save_graph(draw_mlp(model), out / 'mlp_after.svg')}")
    report_log(log, "MLP on four points: squared-error loss", out / "loss.png", "loss plot")
    return 0


if __name__ == "__main__":
    sys.exit(main())
