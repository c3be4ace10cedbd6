"""The one table of Value's operations, from which every kind of operation test takes its cases.

Each :class:`Op` says once how to build an operation, where its inputs may
lie, what it must give (its value and derivatives, from calculus with
:mod:`math`, never read back from the engine), the name its node records,
and the points where the tests check it.  Four kinds of test draw on
:data:`OPS`:

* ``test_engine_ops.py``: value, gradients, ``_op`` and ``_prev`` at every point;
* ``test_finite_differences.py``: gradients against central differences;
* ``test_torch_parity.py``: value and gradients against PyTorch's;
* the random expression graphs of ``graphs.py`` (``test_random_graphs.py``,
  and the graph tests of the other two).

A new operation of the engine takes one entry here (see CONTRIBUTING.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from micrograd.engine import Value

#: Where an input may lie: anywhere, anywhere but 0, or above 0.
REAL, NONZERO, POSITIVE = "real", "nonzero", "positive"

Points = tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class Op:
    """One operation of :class:`~micrograd.engine.Value`, as the tests check it.

    ``build`` is written with Python's operators and Value's method names,
    which ``torch`` tensors share, so it builds the PyTorch counterpart too;
    an operation that PyTorch spells otherwise gives that spelling as ``torch``.
    ``value`` defaults to ``build`` on plain floats (Python's own arithmetic).
    """

    name: str  #: the formula in the inputs ``a`` (and ``b``); the tests' id
    build: Callable[..., Any]  #: the operation on Values (and on torch tensors)
    derivatives: Callable[..., tuple[float, ...]]  #: d/da (and d/db), from math
    op: str  #: the ``_op`` its node records
    points: Points  #: where every kind of test checks it
    domains: tuple[str, ...] = (REAL,)  #: where each input may lie
    value: Callable[..., float] | None = None  #: its value, from math
    number: float | None = None  #: a number operand, which becomes a leaf Value in ``_prev``
    kinks: tuple[float, ...] = ()  #: where the derivative is a convention, not a limit
    torch: Callable[..., Any] | None = None  #: PyTorch's spelling, where it is not ``build``'s
    in_original: bool = True  #: the original micrograd 0.1.0 has it
    #: The original builds it node for node the same (it builds ``a - b``, ``c - a``,
    #: ``a / b`` and ``c / a`` from extra nodes, whose gradients a second backward() adds).
    same_graph_in_original: bool = True

    @property
    def arity(self) -> int:
        """How many Value inputs it takes."""
        return len(self.domains)

    @property
    def number_first(self) -> bool:
        """Whether the number is the left operand (``2 * a``), so first in ``_prev``."""
        return not self.name.startswith("a")

    def expected(self, *xs: float) -> float:
        """Its value at ``xs``, from math."""
        return (self.value or self.build)(*xs)

    def on_torch(self, *tensors: Any) -> Any:
        """The PyTorch counterpart on these tensors."""
        return (self.torch or self.build)(*tensors)


def inside(domain: str, x: float) -> bool:
    """Whether ``x`` lies in ``domain``."""
    return domain == REAL or (x != 0 if domain == NONZERO else x > 0)


def at(*xs: float) -> Points:
    """Points of a one-input operation."""
    return tuple((x,) for x in xs)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


#: Points of a one-input operation defined everywhere, everywhere but 0, above 0;
#: and of a two-input one.
ANYWHERE = at(
    -4.0, -2.5, -2.0, -1.5, -0.3, -0.01, 0.0, 0.01, 0.5, 0.7, 0.8, 1.2, 2.0, 2.5, 3.0, 4.0
)
NOT_ZERO = tuple(p for p in ANYWHERE if p != (0.0,)) + at(0.4)
ABOVE_ZERO = at(1e-3, 0.01, 0.1, 0.2, 0.25, 0.5, 1.0, 3.0, 3.7, 9.0, 30.0, 250.0)
PAIRS: Points = (
    (3.0, -2.0),
    (1.5, -2.0),
    (-0.7, 0.3),
    (0.0, 4.0),
    (-0.5, 0.25),
    (0.0, 7.0),
    (1e-3, -1e3),
)


def power(k: float, points: Points = ANYWHERE, domain: str = REAL) -> Op:
    """``a ** k`` for a number ``k``: the node records ``**k``."""
    return Op(
        f"a ** {k!r}", lambda a: a**k, lambda a: (k * a ** (k - 1),), f"**{k!r}", points, (domain,)
    )


def with_number(
    name: str, build: Callable[[Any], Any], derivative: Callable[[float], float], number: float
) -> Op:
    """A Value and a number (``2 * a``, ``a / 4``): the number becomes a leaf Value."""
    by_a = name.endswith("/ a")
    op = Op(
        name,
        build,
        lambda a: (derivative(a),),
        name.split()[1],
        NOT_ZERO if by_a else ANYWHERE,
        (NONZERO if by_a else REAL,),
        number=number,
    )
    # The original builds c - a and c / a from an extra node (-a, a ** -1).
    return replace(op, same_graph_in_original=not (op.number_first and op.op in "-/"))


def method(
    name: str,
    derivative: Callable[[float], float],
    value: Callable[[float], float],
    points: Points = ANYWHERE,
    **options: Any,
) -> Op:
    """``name(a)``, a method of Value: the original micrograd has only relu."""
    return Op(
        f"{name}(a)",
        lambda a: getattr(a, name)(),
        lambda a: (derivative(a),),
        "ReLU" if name == "relu" else name,
        points,
        value=value,
        in_original=name == "relu",
        **options,
    )


OPS: list[Op] = [
    Op("a + b", lambda a, b: a + b, lambda a, b: (1.0, 1.0), "+", PAIRS, (REAL, REAL)),
    Op(
        "a - b",
        lambda a, b: a - b,
        lambda a, b: (1.0, -1.0),
        "-",
        PAIRS,
        (REAL, REAL),
        same_graph_in_original=False,
    ),
    Op("a * b", lambda a, b: a * b, lambda a, b: (b, a), "*", PAIRS, (REAL, REAL)),
    Op(
        "a / b",
        lambda a, b: a / b,
        lambda a, b: (1 / b, -a / b**2),
        "/",
        PAIRS,
        (REAL, NONZERO),
        same_graph_in_original=False,
    ),
    Op("-a", lambda a: -a, lambda a: (-1.0,), "neg", ANYWHERE),
    with_number("2 * a", lambda a: 2 * a, lambda a: 2.0, 2.0),
    with_number("2.5 * a", lambda a: 2.5 * a, lambda a: 2.5, 2.5),
    with_number("a * 2.5", lambda a: a * 2.5, lambda a: 2.5, 2.5),
    with_number("2 + a", lambda a: 2 + a, lambda a: 1.0, 2.0),
    with_number("a + 2", lambda a: a + 2, lambda a: 1.0, 2.0),
    with_number("1 - a", lambda a: 1 - a, lambda a: -1.0, 1.0),
    with_number("a - 2.5", lambda a: a - 2.5, lambda a: 1.0, 2.5),
    with_number("1 / a", lambda a: 1 / a, lambda a: -1 / a**2, 1.0),
    with_number("-7 / a", lambda a: -7 / a, lambda a: 7 / a**2, -7.0),
    with_number("a / 4", lambda a: a / 4, lambda a: 0.25, 4.0),
    power(2),
    power(3),
    power(1),
    power(2.0),
    # x ** 0 is the constant 1; the original's rule divides by x at 0, so graphs keep x off 0.
    power(0, NOT_ZERO, NONZERO),
    power(-1, NOT_ZERO, NONZERO),
    power(-2, NOT_ZERO, NONZERO),
    power(-2.0, NOT_ZERO, NONZERO),
    power(-3.0, NOT_ZERO, NONZERO),
    power(0.5, ABOVE_ZERO, POSITIVE),
    power(-0.5, ABOVE_ZERO, POSITIVE),
    power(1.5, ABOVE_ZERO, POSITIVE),
    power(-2.5, ABOVE_ZERO, POSITIVE),
    method("relu", lambda a: float(a > 0), lambda a: max(a, 0.0), kinks=(0.0,)),
    method("tanh", lambda a: 1 - math.tanh(a) ** 2, math.tanh),
    method("exp", math.exp, math.exp),
    method("log", lambda a: 1 / a, math.log, ABOVE_ZERO, domains=(POSITIVE,)),
    method("sigmoid", lambda a: _sigmoid(a) * (1 - _sigmoid(a)), _sigmoid),
    # The operations of many inputs, on one or two (test_engine_ops.py checks longer ones).
    Op(
        "Value.sum([a])",
        lambda a: Value.sum([a]),
        lambda a: (1.0,),
        "sum",
        ANYWHERE,
        value=lambda a: a,
        torch=lambda a: a.reshape(1).sum(),
        in_original=False,
    ),
    Op(
        "Value.sum([a, b])",
        lambda a, b: Value.sum([a, b]),
        lambda a, b: (1.0, 1.0),
        "sum",
        PAIRS,
        (REAL, REAL),
        value=lambda a, b: a + b,
        torch=lambda a, b: a + b,
        in_original=False,
    ),
    Op(
        "Value.dot([a], [b])",
        lambda a, b: Value.dot([a], [b]),
        lambda a, b: (b, a),
        "dot",
        PAIRS,
        (REAL, REAL),
        value=lambda a, b: a * b,
        torch=lambda a, b: a.reshape(1).dot(b.reshape(1)),
        in_original=False,
    ),
]

#: The operations by name.
BY_NAME: dict[str, Op] = {op.name: op for op in OPS}
