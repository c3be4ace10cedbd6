"""Step 5, "training": the MLP page's training loop on the reader's network.

A case builds the reader's network, notes its starting weights, runs the
reader's ``train`` and compares each step's loss and the final weights with
micrograd's run of the page's loop from those same weights.  The last case is
the page's own run, which must reach the loss the page's network reaches.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .core import READER_ERRORS
from .core import Case
from .core import Exercise
from .core import Finding
from .core import Mistake
from .core import Namespace
from .core import attempt
from .core import reader_scope
from .core import run_code
from .core import same
from .core import show
from .engine_cases import number
from .engine_cases import short
from .reference import PAGE_NET
from .reference import PAGE_RATE
from .reference import PAGE_RUN
from .reference import PAGE_SEED
from .reference import PAGE_STEPS
from .reference import XS
from .reference import YS
from .reference import Net
from .reference import Run
from .reference import page_run
from .reference import page_weights
from .reference import readers_page_weights
from .reference import train

#: The step's folder of code (steps/training/) and its id in the track.
STEP = "training"
#: The function the reader writes in this step.
PARTS = ("train",)

HINTS = (
    'It is the loop of the page "Training an MLP on four points", written with your '
    "classes: forward, loss, reset, backward, update, once per step.",
    "The loss is the sum over the points of (prediction - target) squared; your Value has "
    "only + and *, so write `e = yout + -ygt` and add up `e * e`.",
    "Gradients accumulate (`+=`): call `model.zero_grad()` before `loss.backward()`. The "
    "gradient points where the loss grows, so the update goes against it.",
    "`for p in model.parameters(): p.data -= learning_rate * p.grad`, after "
    "`model.zero_grad()` and `loss.backward()`; append `loss.data` to the list you return.",
)


def _floats(values: Any) -> list[float] | None:
    """The reader's losses as floats (a Value counts as its number), or None."""
    try:
        return [float(getattr(v, "data", v)) for v in values]
    except (TypeError, ValueError):
        return None


def _literal(rows: Sequence[Sequence[float]] | Sequence[float]) -> str:
    return repr([list(r) if isinstance(r, (list, tuple)) else r for r in rows])


def page_target(namespace: Namespace) -> str | None:
    """The last case, the page's own run: it must reach the loss the page's network reaches
    after 20 steps."""
    scope = run_code(PAGE_RUN, reader_scope(namespace))
    losses = _floats(scope["losses"]) or [float("nan")]
    target = page_run().losses[-1]
    if losses[-1] <= target * (1 + 1e-9):
        return None
    return (
        f"The MLP page's run (its four points, random.seed({PAGE_SEED}), MLP(3, [4, 4, 1]), "
        f"{PAGE_STEPS} steps at {PAGE_RATE}) ended at a loss of {show(losses[-1])}; the "
        f"page's network reaches {show(target)}.{_start_differs(namespace)}"
    )


def _start_differs(namespace: Namespace) -> str:
    """Why a right loop can miss the page's target: the network started elsewhere (the
    reader's network drawn again as the run drew it: the run moved its weights)."""
    if same(readers_page_weights(namespace), list(page_weights())):
        return ""
    return (
        " Your network starts from other weights than the page's (micrograd draws each "
        "neuron's weights in turn with random.uniform(-1, 1), and each bias is 0): draw "
        "them as it does, and the loop reproduces the page's run."
    )


def _cases(rng: random.Random) -> tuple[Case, ...]:
    cases = []
    for sizes in ((2, 3, 1), (3, 4, 4, 1), (2, 2, 1), (3, 3, 1), (1, 4, 1)) * 2:
        points = rng.randint(2, 4)
        xs = tuple(tuple(number(rng, -2, 2) for _ in range(sizes[0])) for _ in range(points))
        ys = tuple(rng.choice((-1.0, 1.0)) for _ in range(points))
        rate = rng.choice((0.05, 0.1, 0.2))
        run = TrainingCase(Net("MLP", sizes), rng.randrange(1000), xs, ys, rng.randint(2, 4), rate)
        cases.append(Case(run.code, run.problem))
    cases.append(Case(PAGE_RUN, page_target))
    return tuple(cases)


# -- the known mistakes ------------------------------------------------------------------------

_PROBE = PAGE_NET.code(3, f"xs = {_literal(XS)}\nys = {_literal(YS)}")


def _page_problem(names: Namespace) -> tuple[Any, list[list[float]], list[float]]:
    """``_PROBE``, with the reader's MLP: the model, xs and ys."""
    return PAGE_NET.seeded(names, 3), [list(x) for x in XS], list(YS)


@dataclass(frozen=True)
class _Watched:
    """The reader's page network trained by the reader's train, watched."""

    start: list[float]  # the weights before training
    params: list[Any]  # the reader's parameters, after
    losses: list[float]
    resets: int  # how often train called model.zero_grad()

    @property
    def moved(self) -> list[float]:
        """The reader's weights after training."""
        return [p.data for p in self.params]

    def micrograds_run(self, steps: int, **how: Any) -> Run:
        """micrograd's run of the page's loop (``how``: its mistake) from the same weights."""
        return train(PAGE_NET, self.start, XS, YS, steps, 0.1, **how)


def _train_probe(namespace: Namespace, steps: int) -> _Watched | None:
    """Train the reader's page network for ``steps``, counting its calls of zero_grad()."""
    made = attempt(_page_problem, namespace)
    if made is None:
        return None
    model, xs, ys = made
    resets: list[int] = []
    params = list(model.parameters())
    start = [p.data for p in params]
    zero_grad = getattr(model, "zero_grad", None)
    if callable(zero_grad):

        def counted() -> None:
            resets.append(1)
            zero_grad()

        with contextlib.suppress(AttributeError):  # a model with __slots__ is not watched
            model.zero_grad = counted  # on this model only: the class keeps the reader's
    try:
        losses = _floats(namespace["train"](model, xs, ys, steps, 0.1))
    except READER_ERRORS:
        return None
    if losses is None or len(params) != len(page_weights()):
        return None
    return _Watched(start, params, losses, len(resets))


def _trained(
    steps: int, judge: Callable[[_Watched, Namespace], Finding | None]
) -> Callable[[Namespace], Finding | None]:
    """A detector: the reader's page network trained for ``steps`` by the reader's train,
    watched, then ``judge(seen, namespace)``; None when the reader's code raises first."""

    def detect(namespace: Namespace) -> Finding | None:
        seen = _train_probe(namespace, steps)
        return None if seen is None else judge(seen, namespace)

    return detect


def _trains(steps: int, then: str) -> str:
    """A detector's code: the page's problem, trained for ``steps``, then ``then``."""
    return f"{_PROBE}\nlosses = train(model, xs, ys, {steps}, 0.1)\n{then}"


def _no_zero_grad(seen: _Watched, namespace: Namespace) -> Finding | None:
    kept, right = seen.micrograds_run(2, reset=False), seen.micrograds_run(2)
    grads = [p.grad for p in seen.params]
    if not same(grads, kept.grads) or same(kept.grads, right.grads):
        return None
    fields = {"grad": show(grads[0]), "first": show(right.first_grads[0])}
    fields["second"] = show(right.grads[0])
    code = _trains(2, "print(model.parameters()[0].grad)")
    return Finding(code, fields=fields, says="called" if seen.resets else "")


def _sign_flipped(seen: _Watched, namespace: Namespace) -> Finding | None:
    start, moved, up = seen.start, seen.moved, seen.micrograds_run(1, sign=1.0)
    if not same(moved, up.weights) or same(up.weights, start):
        return None
    longer = _train_probe(namespace, 5)
    losses = longer.losses if longer is not None else []
    fields = {"start": show(start[0]), "moved": show(moved[0]), "grad": show(up.first_grads[0])}
    fields["losses"] = ", ".join(f"{loss:.4f}" for loss in losses)
    return Finding(_trains(5, "print(losses)"), fields=fields)


def _backward_fills_grads(namespace: Namespace) -> bool:
    """Whether the reader's backward() on the page network's loss gives non-zero gradients."""

    def look(names: Namespace) -> bool:
        model, xs, ys = _page_problem(names)
        loss = sum((model(x) + -y) * (model(x) + -y) for x, y in zip(xs, ys, strict=True))
        loss.backward()
        return any(p.grad != 0 for p in model.parameters())

    return bool(attempt(look, namespace))


def _zero_after_backward(seen: _Watched, namespace: Namespace) -> Finding | None:
    moved, grads = seen.moved, [p.grad for p in seen.params]
    right = seen.micrograds_run(2)
    if not same(moved, seen.start) or any(g != 0 for g in grads) or same(right.weights, moved):
        return None
    if not seen.resets or not _backward_fills_grads(namespace):
        return None  # no reset at all, or a backward() that fills in nothing: not this mistake
    losses = ", ".join(f"{x:.4f}" for x in seen.losses)
    return Finding(_trains(2, "print(losses)"), fields={"losses": losses})


def _biases_uphill(seen: _Watched, namespace: Namespace) -> Finding | None:
    net, moved = PAGE_NET, seen.moved
    down, up = seen.micrograds_run(1), seen.micrograds_run(1, sign=1.0)
    biases = [i for i in range(len(moved)) if net.parameter_name(i).endswith("its bias")]
    want = [up.weights[i] if i in biases else w for i, w in enumerate(down.weights)]
    if not same(moved, want) or same(moved, down.weights):
        return None
    i = biases[0]
    fields = {"bias": net.parameter_name(i), "start": show(seen.start[i]), "moved": show(moved[i])}
    fields["grad"] = show(up.first_grads[i])
    shows = "print([round(p.data, 4) for p in model.parameters()])"
    return Finding(_trains(1, shows), fields=fields)


@dataclass(frozen=True)
class TrainingCase:
    """The reader's ``train`` on a small problem, against micrograd's loop from the same weights:
    the step's probe, and (on other problems) its hidden cases."""

    net: Net
    seed: int
    xs: tuple[tuple[float, ...], ...]
    ys: tuple[float, ...]
    steps: int
    rate: float

    @property
    def action(self) -> str:
        return f"train(model, xs, ys, {self.steps}, {short(self.rate)})"

    @property
    def code(self) -> str:
        points = f"xs = {_literal(self.xs)}\nys = {_literal(self.ys)}"
        return self.net.code(self.seed, f"{points}\nprint({self.action})")

    def problem(self, names: Namespace) -> str | None:
        """What differs from micrograd's run: the losses (one per step), then the weights."""
        model = self.net.seeded(names, self.seed)
        params = list(model.parameters())
        start = [p.data for p in params]
        xs = [list(x) for x in self.xs]
        losses = names["train"](model, xs, list(self.ys), self.steps, self.rate)
        call = f"`{self.action}` with model = {self.net.constructor}"
        floats = _floats(losses) if isinstance(losses, (list, tuple)) else None
        if floats is None or len(floats) != self.steps:
            return (
                f"{call} returned {losses!r}; expected a list of {self.steps} losses, one per "
                "step (floats)"
            )
        want = train(self.net, start, self.xs, self.ys, self.steps, self.rate)
        wrong = _losses_problem(call, floats, want.losses)
        for i, (got, w) in enumerate(zip([p.data for p in params], want.weights, strict=True)):
            if wrong is None and not same(got, w):
                wrong = (
                    f"{call} left {self.net.parameter_name(i)} at {show(got, w)}; expected "
                    f"{show(w, got)} (micrograd's run from the same starting weights)"
                )
        return wrong


#: The step's probe: ``train`` returns one loss (a number) per step, each the loss before its
#: update, and moves the weights as micrograd's loop does.
_PROBE_RUN = TrainingCase(Net("MLP", (2, 2, 1)), 3, ((1.0, -1.0), (0.5, 2.0)), (1.0, -1.0), 2, 0.1)


def _losses_problem(call: str, losses: list[float], want: list[float]) -> str | None:
    """The first step whose loss is not micrograd's (from the same starting weights), or None."""
    for step, (got, loss) in enumerate(zip(losses, want, strict=True)):
        if not same(got, loss):
            return (
                f"{call} gave a loss of {show(got, loss)} at step {step}; expected "
                f"{show(loss, got)} (micrograd's run of the MLP page's loop from your model's "
                "starting weights)"
            )
    return None


PROBES = (Case(_PROBE_RUN.code, _PROBE_RUN.problem, part="train"),)


MISTAKES = (
    # A detector: the message counts train's calls of zero_grad() and sums two steps' gradients.
    Mistake.known(STEP, "no-zero-grad", _trained(2, _no_zero_grad)),
    # A detector: the message follows one step's update and five steps' losses, not the probe's run.
    Mistake.known(STEP, "sign-flipped", _trained(1, _sign_flipped)),
    # A detector: the message needs every gradient after train, and whether zero_grad was called.
    Mistake.known(STEP, "zero-after-backward", _trained(2, _zero_after_backward)),
    # A detector: the message follows one step's update of a bias, not the probe's losses.
    Mistake.known(STEP, "biases-uphill", _trained(1, _biases_uphill)),
)


def _ready(namespace: Namespace) -> str | None:
    if not callable(namespace.get("train")):
        return "There is no `train` yet: run the cell of step 5."
    if not isinstance(namespace.get("MLP"), type):
        return "There is no `MLP` yet: run the cell of step 4."
    if "xs" not in namespace or "ys" not in namespace:
        return "There are no `xs` and `ys` yet: run the cell of step 5."
    return None


#: The track's step 5.
EXERCISE = Exercise(
    STEP,
    "Training",
    HINTS,
    "20 True\n",  # what example.py prints
    _cases(random.Random(1005)),
    MISTAKES,
    _ready,
    builds_on=("value", "rules", "backward", "nn"),
    probes=PROBES,
    parts=PARTS,
)
