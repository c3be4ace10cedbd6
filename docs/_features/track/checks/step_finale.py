"""Step 6, "finale": the reader's engine in the book's own examples gives the book's numbers.

The worked neuron of the page "The neuron" (and others like it), and the run
of the page "Training an MLP on four points", whose table must come out as
the page prints it, digit for digit.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from micrograd import Value
from micrograd.training_log import TrainingLog

from .core import Case
from .core import Exercise
from .core import Failure
from .core import Finding
from .core import Mistake
from .core import Namespace
from .core import attempt
from .core import first_difference
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
from .reference import page_run
from .reference import page_weights
from .reference import readers_page_weights

#: The step's folder of code (steps/finale/) and its id in the track.
STEP = "finale"
#: The function the reader writes in this step.
PARTS = ("neuron",)

HINTS = (
    'Nothing new: the neuron is a few lines of the page "The neuron", with your Value.',
    "Make five Values from the numbers, build o from them with * , + and tanh, and run "
    "o.backward() before you return.",
    "`x1, w1, x2, w2, b = (Value(v) for v in (x1, w1, x2, w2, b))`, then "
    "`o = (x1 * w1 + x2 * w2 + b).tanh()`, `o.backward()`, `return o, x1, w1, x2, w2`. "
    "The page's table then needs your MLP to draw its weights as micrograd does.",
)

_NAMES = ("x1", "w1", "x2", "w2")


def _neuron_problem(call: str, made: Sequence[Any], numbers: Sequence[float]) -> str | None:
    """What differs between the reader's o, x1, w1, x2, w2 and micrograd's neuron of ``numbers``
    (o.data, then each gradient), or None."""
    x1, w1, x2, w2, b = (Value(v) for v in numbers)
    o = (x1 * w1 + x2 * w2 + b).tanh()
    o.backward()
    if not same(made[0].data, o.data):
        return _differs(call, "o.data", made[0].data, o.data)
    for name, mine, leaf in zip(_NAMES, made[1:], (x1, w1, x2, w2), strict=True):
        if not same(mine.grad, leaf.grad):
            grads = tuple((n, show(m.grad)) for n, m in zip(_NAMES, made[1:], strict=True))
            return Failure(_differs(call, f"{name}.grad", mine.grad, leaf.grad), grads=grads)
    return None


def _differs(call: str, what: str, got: float, want: float) -> str:
    return (
        f"{call} gave {what} = {show(got, want)}; expected {show(want, got)} (micrograd's neuron)"
    )


def page_table(namespace: Namespace) -> str | None:
    """The last case, the MLP page's run with the reader's classes: its table, digit for digit."""
    scope = run_code(PAGE_RUN, reader_scope(namespace))
    mine = _table([float(getattr(v, "data", v)) for v in scope["losses"]])
    page = _table(page_run().losses)
    for got, want in zip(mine.splitlines(), page.splitlines(), strict=False):
        if got != want:
            return (
                "The MLP page's run with your classes prints a different table: the row\n"
                f"    {got}\nwhere the page prints\n    {want}"
            )
    return (
        None if len(mine) == len(page) else "The MLP page's run with your classes has other rows."
    )


def _table(losses: list[float]) -> str:
    """The table the MLP page prints for these losses (``log.table(every=4)``)."""
    log = TrainingLog()
    for step, loss in enumerate(losses):
        log.record(step, loss, learning_rate=PAGE_RATE)
    return log.table(every=4)


def _case(numbers: tuple[float, ...], title: str | None = None) -> Case:
    """A hidden case: the probe of ``neuron`` on other numbers."""
    code = f"o, x1, w1, x2, w2 = neuron({', '.join(short(v) for v in numbers)})"
    return Case(code, lambda names: _returns_values(names, numbers, title or f"`{code}`"))


def _cases(rng: random.Random) -> tuple[Case, ...]:
    others = [tuple(number(rng, -3, 3) for _ in range(5)) for _ in range(9)]
    return (
        _case(_NUMBERS, "The worked neuron"),
        *(_case(numbers) for numbers in others),
        Case(PAGE_RUN, page_table),
    )


# -- the known mistakes ------------------------------------------------------------------------


def _drawn_differently(namespace: Namespace) -> Finding | None:
    mine = attempt(readers_page_weights, namespace)
    page = list(page_weights())
    if mine is None or len(mine) != len(page) or same(mine, page):
        return None
    if same(sorted(mine), sorted(page)):
        return None  # the same numbers in another order: parameters()'s mistake, not the draw's
    first = first_difference(mine, page)
    fields = {"seed": PAGE_SEED, "number": first + 1, "mine": show(mine[first])}
    fields |= {"name": PAGE_NET.parameter_name(first), "page": show(page[first])}
    shows = "print([round(p.data, 4) for p in model.parameters()])"
    return Finding(PAGE_NET.code(PAGE_SEED, shows), fields=fields)


#: The worked neuron of the page "The neuron": its inputs, weights and bias.
_NUMBERS = (2.0, -3.0, 0.0, 1.0, 6.8813735870195432)
_WORKED = "o, x1, w1, x2, w2 = neuron(2.0, -3.0, 0.0, 1.0, 6.8813735870195432)"


def _returns_values(
    names: Namespace, numbers: tuple[float, ...] = _NUMBERS, call: str = f"`{_WORKED}`"
) -> str | None:
    """A probe: ``neuron`` returns o and four of the reader's Values, with micrograd's numbers
    (the hidden cases: on other numbers)."""
    made = names["neuron"](*numbers)
    if not isinstance(made, (tuple, list)) or len(made) != 5:
        what = repr(made)
        if isinstance(made, (tuple, list)):
            what = f"a {type(made).__name__} of {len(made)}"
        return f"{call} got {what}; expected the 5 Values o, x1, w1, x2, w2"
    strangers = [v for v in made if not isinstance(v, names["Value"])]
    if strangers:
        return f"{call} got {strangers[0]!r} among the five; expected five of your Values"
    return _neuron_problem(call, made, numbers)


PROBES = (Case(_WORKED + "\nprint(o, x1, w1, x2, w2)", _returns_values, part="neuron"),)


#: Last, the mistake whose wrong file rebinds step 4's Neuron: in the page, that name stays
#: rebound once the cell is right again, and a later mistake's cell would inherit it.
MISTAKES = (
    Mistake.known(STEP, "no-backward"),
    # A detector: the reader's own way of drawing: any order or count, each its own numbers.
    Mistake.known(STEP, "weights-drawn-differently", _drawn_differently),
)


def _ready(namespace: Namespace) -> str | None:
    for name, step in (("neuron", 6), ("MLP", 4), ("train", 5)):
        if not callable(namespace.get(name)):
            return f"There is no `{name}` yet: run the cell of step {step}."
    return None


#: The track's step 6.
EXERCISE = Exercise(
    STEP,
    "The book's numbers",
    HINTS,
    # what example.py prints
    "o = 0.7071\ndo/dx1 = -1.5000, do/dw1 = 1.0000\ndo/dx2 = 0.5000, do/dw2 = 0.0000\n",
    _cases(random.Random(1006)),
    MISTAKES,
    _ready,
    builds_on=("value", "rules", "backward", "nn", "training"),
    probes=PROBES,
    parts=PARTS,
)
