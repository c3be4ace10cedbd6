"""The autograd engine: a scalar :class:`Value` that remembers how it was made.

Every arithmetic operation on a :class:`Value` returns a new ``Value`` that
records its inputs (``_prev``), the name of the operation (``_op``) and the
operation's *backward rule*: a small function that applies the chain rule for
that one operation.  :meth:`Value.backward` visits the graph in topological
order and runs each node's rule once.

The design follows the original micrograd closely, with three differences
that make it fast and frugal (the docs page "Why it's fast" measures them):

* a node keeps its (at most two) inputs in two slots, ``_a`` and ``_b``, and
  ``__slots__`` removes the per-object ``__dict__``;
* each operation has **one** backward rule shared by all its nodes (a
  static method below), instead of a new closure per node.  A closure that
  refers to its own output makes a reference cycle, which only CPython's
  cyclic garbage collector can free; without cycles, reference counting frees
  a graph the moment it is no longer used;
* :meth:`Value.backward` keeps the cyclic collector paused while it runs
  (and restores it afterwards), so it does not rescan the graph it is walking;
  a model's graph is kept out of the collector's way while it is built
  (:func:`keep_gc_paused`), and handed straight to the collector's oldest
  generation when its backward pass ends (``_promote_young_generation``).

The module imports nothing outside the standard library.
"""

from __future__ import annotations

import gc
import math
import numbers
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

__all__ = ["Value", "keep_gc_paused", "paused_gc", "topological_order"]

BackwardRule = Callable[["Value"], None]


class Value:
    """A scalar that remembers how it was computed, so it can be differentiated.

    Parameters
    ----------
    data : int or float
        The number this node holds.  Anything real (``int``, ``float``,
        ``bool``, NumPy scalars) is stored as a Python ``float``.
    _children : tuple of Value, optional
        The nodes this one was computed from (at most two).  Set by the
        operations; leave it empty for an input or a parameter.
    _op : str, optional
        The name of the operation that produced this node, e.g. ``"+"``.
    label : str, optional
        A name shown in graph drawings.

    Attributes
    ----------
    data : float
        The value computed in the forward pass.
    grad : float
        d(output)/d(this node), filled in by :meth:`backward`.  Starts at 0.0
        and accumulates (``+=``) across calls, as in the original micrograd.

    Raises
    ------
    TypeError
        If ``data`` is not a real number (a string, ``None``, a complex
        number, another ``Value``...).

    Examples
    --------
    >>> a = Value(2.0)
    >>> b = Value(-3.0)
    >>> c = a * b + 1
    >>> c.backward()
    >>> c.data, a.grad, b.grad
    (-5.0, -3.0, 2.0)
    """

    __slots__ = ("_a", "_b", "_gc_pause", "_op", "_rule", "data", "grad", "label")

    # Tell NumPy to leave `numpy_scalar * value` to Value.__rmul__ instead of
    # wrapping the Value in an object array.
    __array_ufunc__ = None

    data: float
    grad: float
    _a: Value | None
    _b: Value | None
    _op: str
    _rule: BackwardRule | None
    _gc_pause: _GraphPause  # set on a model's outputs only (see keep_gc_paused)
    label: str

    def __init__(
        self,
        data: float,
        _children: Iterable[Value] = (),
        _op: str = "",
        label: str = "",
    ) -> None:
        children = tuple(_children)
        if len(children) > 2 or not all(isinstance(c, Value) for c in children):
            raise ValueError(
                "_children must hold at most two Value objects, "
                f"got {[type(c).__name__ for c in children]}"
            )
        self.data = _real(data)
        self.grad = 0.0
        self._a = children[0] if children else None
        self._b = children[1] if len(children) == 2 else None
        self._op = _op
        self._rule = None
        self.label = label

    # -- the graph --------------------------------------------------------------

    @property
    def _prev(self) -> tuple[Value, ...]:
        """The nodes this one was computed from, in operand order."""
        if self._a is None:
            return ()
        if self._b is None:
            return (self._a,)
        return (self._a, self._b)

    @property
    def _backward(self) -> Callable[[], None]:
        """This node's backward rule as a no-argument function (as in the original)."""
        rule = self._rule
        return _nothing if rule is None else partial(rule, self)

    @_backward.setter
    def _backward(self, function: Callable[[], None]) -> None:
        # Lets code written for the original define its own operation by
        # assigning a closure, exactly as the original's operations do.  Such
        # a closure usually refers to its own node: a reference cycle, which
        # only the collector frees, so a graph pause must not wait for it.
        self._rule = partial(_call_closure, function)
        _end_graph_pause()

    # -- the operations: forward value, and the local rule for backward ---------

    def __add__(self, other: Value | float) -> Value:
        other = other if type(other) is Value else _value(other)
        if other is NotImplemented:
            return NotImplemented
        return _node(self.data + other.data, self, other, "+", Value._add_backward)

    @staticmethod
    def _add_backward(out: Value) -> None:
        # d(a + b)/da = 1 and d(a + b)/db = 1: add passes the gradient through.
        out._a.grad += out.grad  # type: ignore[union-attr]
        out._b.grad += out.grad  # type: ignore[union-attr]

    def __mul__(self, other: Value | float) -> Value:
        other = other if type(other) is Value else _value(other)
        if other is NotImplemented:
            return NotImplemented
        return _node(self.data * other.data, self, other, "*", Value._mul_backward)

    @staticmethod
    def _mul_backward(out: Value) -> None:
        # d(a * b)/da = b and d(a * b)/db = a: mul crosses the inputs over.
        a, b = out._a, out._b
        a.grad += b.data * out.grad  # type: ignore[union-attr]
        b.grad += a.data * out.grad  # type: ignore[union-attr]

    def __sub__(self, other: Value | float) -> Value:
        other = other if type(other) is Value else _value(other)
        if other is NotImplemented:
            return NotImplemented
        return _node(self.data - other.data, self, other, "-", Value._sub_backward)

    @staticmethod
    def _sub_backward(out: Value) -> None:
        # d(a - b)/da = 1 and d(a - b)/db = -1.
        out._a.grad += out.grad  # type: ignore[union-attr]
        out._b.grad -= out.grad  # type: ignore[union-attr]

    def __truediv__(self, other: Value | float) -> Value:
        other = other if type(other) is Value else _value(other)
        if other is NotImplemented:
            return NotImplemented
        if other.data == 0:
            raise ZeroDivisionError(f"division of {self.data!r} by a Value equal to 0")
        return _node(self.data / other.data, self, other, "/", Value._div_backward)

    @staticmethod
    def _div_backward(out: Value) -> None:
        # d(a / b)/da = 1 / b and d(a / b)/db = -a / b**2.
        a, b = out._a, out._b
        a.grad += out.grad / b.data  # type: ignore[union-attr]
        b.grad -= out.grad * a.data / (b.data * b.data)  # type: ignore[union-attr]

    def __neg__(self) -> Value:
        return _node(-self.data, self, None, "neg", Value._neg_backward)

    @staticmethod
    def _neg_backward(out: Value) -> None:
        # d(-a)/da = -1.
        out._a.grad -= out.grad  # type: ignore[union-attr]

    def __pow__(self, exponent: float) -> Value:
        if isinstance(exponent, Value):
            raise TypeError(
                "Value ** Value is not supported: the exponent must be an int or "
                "float constant (use .exp() and .log() for a variable exponent)"
            )
        if not isinstance(exponent, numbers.Real):
            raise TypeError(
                f"the exponent must be an int or float, got {type(exponent).__name__} {exponent!r}"
            )
        if not isinstance(exponent, (int, float)):
            exponent = float(exponent)
        base = self.data
        if base < 0 and not float(exponent).is_integer():
            raise ValueError(
                f"({base!r}) ** {exponent!r} is not a real number: "
                "a negative base needs a whole-number exponent"
            )
        if base == 0 and exponent < 0:
            raise ZeroDivisionError(f"0 ** {exponent!r}: zero to a negative power")
        return _node(
            base**exponent, self, None, f"**{exponent}", partial(Value._pow_backward, exponent)
        )

    @staticmethod
    def _pow_backward(exponent: float, out: Value) -> None:
        # d(a ** n)/da = n * a ** (n - 1); for n = 0 that is 0 everywhere, a = 0 included.
        if exponent != 0:
            a = out._a
            a.grad += exponent * a.data ** (exponent - 1) * out.grad  # type: ignore[union-attr]

    def relu(self) -> Value:
        """max(0, self): the rectified linear unit."""
        return _node(self.data if self.data > 0 else 0.0, self, None, "ReLU", Value._relu_backward)

    @staticmethod
    def _relu_backward(out: Value) -> None:
        # d relu(a)/da = 1 where a > 0, else 0: relu lets the gradient through or stops it.
        if out.data > 0:
            out._a.grad += out.grad  # type: ignore[union-attr]

    def tanh(self) -> Value:
        """The hyperbolic tangent, squashing any input into (-1, 1)."""
        return _node(math.tanh(self.data), self, None, "tanh", Value._tanh_backward)

    @staticmethod
    def _tanh_backward(out: Value) -> None:
        # d tanh(a)/da = 1 - tanh(a)**2, and tanh(a) is out.data.
        out._a.grad += (1.0 - out.data * out.data) * out.grad  # type: ignore[union-attr]

    def exp(self) -> Value:
        """e ** self.

        Raises
        ------
        OverflowError
            If the result is too large for a float (``self.data`` above ~709.78).
        """
        try:
            result = math.exp(self.data)
        except OverflowError:
            raise OverflowError(
                f"exp({self.data!r}) is too large for a float (the limit is about exp(709.78))"
            ) from None
        return _node(result, self, None, "exp", Value._exp_backward)

    @staticmethod
    def _exp_backward(out: Value) -> None:
        # d exp(a)/da = exp(a), which is out.data.
        out._a.grad += out.data * out.grad  # type: ignore[union-attr]

    def log(self) -> Value:
        """The natural logarithm.

        Raises
        ------
        ValueError
            If ``self.data`` is zero or negative.
        """
        if not self.data > 0:
            raise ValueError(f"log is defined only for positive numbers, got {self.data!r}")
        return _node(math.log(self.data), self, None, "log", Value._log_backward)

    @staticmethod
    def _log_backward(out: Value) -> None:
        # d log(a)/da = 1 / a.
        a = out._a
        a.grad += out.grad / a.data  # type: ignore[union-attr]

    def sigmoid(self) -> Value:
        """The logistic function 1 / (1 + e ** -self), squashing into (0, 1)."""
        x = self.data
        if x >= 0:
            s = 1.0 / (1.0 + math.exp(-x))
        else:  # the same number, written so that exp cannot overflow
            e = math.exp(x)
            s = e / (1.0 + e)
        return _node(s, self, None, "sigmoid", Value._sigmoid_backward)

    @staticmethod
    def _sigmoid_backward(out: Value) -> None:
        # d sigmoid(a)/da = sigmoid(a) * (1 - sigmoid(a)), and sigmoid(a) is out.data.
        out._a.grad += out.data * (1.0 - out.data) * out.grad  # type: ignore[union-attr]

    # -- the reflected forms: `2 * v`, `1 - v`, `1 / v` ... ----------------------

    def __radd__(self, other: float) -> Value:  # other + self
        other_value: Value = _value(other)
        if other_value is NotImplemented:
            return NotImplemented
        return other_value + self  # _prev in written order: (other, self)

    def __rmul__(self, other: float) -> Value:  # other * self
        other_value: Value = _value(other)
        if other_value is NotImplemented:
            return NotImplemented
        return other_value * self

    def __rsub__(self, other: float) -> Value:  # other - self
        other_value: Value = _value(other)
        if other_value is NotImplemented:
            return NotImplemented
        return other_value - self

    def __rtruediv__(self, other: float) -> Value:  # other / self
        other_value: Value = _value(other)
        if other_value is NotImplemented:
            return NotImplemented
        return other_value / self

    # -- backpropagation ---------------------------------------------------------

    def backward(self) -> None:
        """Fill in ``grad`` for every node this one depends on.

        Seeds ``self.grad = 1.0`` and runs each node's backward rule once, from
        this node back to the leaves (reverse topological order), so each node
        has received its whole gradient before passing it on.  Gradients of
        the other nodes *accumulate*: call :meth:`micrograd.nn.Module.zero_grad`
        (or set ``grad = 0``) between steps.  Iterative, so a graph of any
        depth works.
        """
        _pause()
        try:
            order = topological_order(self)
            self.grad = 1.0
            for node in reversed(order):
                rule = node._rule
                if rule is not None:
                    rule(node)
        finally:
            # A graph built under a graph pause is complete now, and alive
            # (the caller holds this node): hand it to the collector's oldest
            # generation on the way out, rather than have it scanned.
            graph_was_paused = _end_graph_pause()
            _resume(promote_young=graph_was_paused)

    def __repr__(self) -> str:
        return f"Value(data={self.data}, grad={self.grad})"


def topological_order(root: Value) -> list[Value]:
    """Every node that ``root`` depends on, each after all of its inputs.

    A depth-first search with an explicit stack, so it works for graphs of any
    depth.  Inputs are visited in operand order, so the order is the same on
    every run.

    Parameters
    ----------
    root : Value
        The output node.

    Returns
    -------
    list of Value
        Leaves first, ``root`` last.
    """
    order: list[Value] = []
    seen: set[Value] = set()
    stack: list[Value | None] = [root]
    push, pop, see, emit = stack.append, stack.pop, seen.add, order.append
    while stack:
        node = pop()
        if node is None:  # the marker below it: all of its inputs are ordered
            emit(pop())  # type: ignore[arg-type]
            continue
        if node in seen:
            continue
        see(node)
        # node, then a marker, then its inputs on top: the inputs come out
        # first (a before b), then the marker, then the node itself
        push(node)
        push(None)
        a, b = node._a, node._b
        if b is not None and b not in seen:
            push(b)
        if a is not None and a not in seen:
            push(a)
    return order


# -- keeping the cyclic collector off the graph --------------------------------
#
# Every pause (a `paused_gc()` block, or a graph pause held by a model's
# outputs) counts in `_pauses`.  The first one to open remembers whether the
# collector was enabled and disables it; the last one to close restores that
# state.  So pauses can nest and overlap in any order, and the user's own
# setting (say, a collector they disabled themselves) is never overridden.

_lock = threading.RLock()
_pauses = 0
_was_enabled = False


def _pause() -> None:
    global _pauses, _was_enabled
    with _lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1


def _resume(promote_young: bool = False) -> None:
    global _pauses
    with _lock:
        _pauses -= 1
        if _pauses == 0 and _was_enabled:
            if promote_young:
                _promote_young_generation()
            gc.enable()


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause CPython's cyclic garbage collector inside a ``with`` block.

    The graphs built here contain no reference cycles, so reference counting
    alone frees them; the cyclic collector would only rescan the live graph
    over and over.  The collector's previous state is restored on exit, also
    when the block raises, and nesting is safe.
    """
    _pause()
    try:
        yield
    finally:
        _resume()


class _GraphPause:
    """One pause of the collector, open until :meth:`close` or until it is freed."""

    __slots__ = ("__weakref__", "_open")

    def __init__(self) -> None:
        self._open = True
        _pause()

    def close(self) -> None:
        with _lock:
            if self._open:
                self._open = False
                _resume()

    def __del__(self) -> None:
        self.close()

    def __reduce__(self) -> tuple[Callable[[], _GraphPause], tuple[()]]:
        # A copy of a node (copy.deepcopy, pickle) gets a closed pause: only
        # the pause that paused the collector may resume it.
        return _closed_pause, ()


def _closed_pause() -> _GraphPause:
    pause = object.__new__(_GraphPause)
    pause._open = False
    return pause


_no_pause: Callable[[], _GraphPause | None] = lambda: None  # noqa: E731
_graph_pause = _no_pause  # a weak reference to the open graph pause


def keep_gc_paused(nodes: Iterable[Value]) -> None:
    """Keep the cyclic collector paused while ``nodes`` are alive, until a backward pass.

    :class:`micrograd.nn.MLP` calls this on its outputs.  A training step
    builds its graph across many calls (one per sample, then the loss) in
    the caller's own code; if the collector ran in between, it would scan
    the young graph, promote it to its oldest generation, and then rescan
    that whole generation (the graph and every other object in the process)
    again and again.  So the pause opened here lasts until the first of:

    * the end of the next :meth:`Value.backward` (the graph is complete; the
      young objects then go straight to the collector's oldest generation,
      see ``_promote_young_generation``);
    * the moment all the nodes holding it are freed (reference counting
      frees a graph as soon as the last reference to it goes, because the
      graph has no cycles);
    * a node getting a hand-written ``_backward`` closure (which may create
      reference cycles that only the collector can free).

    Later calls before then join the same pause.  The collector's state is
    then restored as :func:`paused_gc` restores it.

    Parameters
    ----------
    nodes : iterable of Value
        The nodes that hold the pause open (a model's outputs).
    """
    global _graph_pause
    with _lock:
        pause = _graph_pause()
        if pause is None or not pause._open:
            pause = _GraphPause()
            _graph_pause = weakref.ref(pause)
    for node in nodes:
        node._gc_pause = pause


def _end_graph_pause() -> bool:
    """Close the open graph pause, if any; say whether there was one."""
    global _graph_pause
    with _lock:
        pause = _graph_pause()
        _graph_pause = _no_pause
    if pause is None or not pause._open:
        return False
    pause.close()
    return True


# -- handing a finished graph to the oldest generation ---------------------------
#
# A graph built under a graph pause sits, whole, in the collector's young
# generation when backward() ends: the pause held off the young collections
# that would have moved it, bit by bit, to the older generations.  The caller
# still holds it (a training loop keeps `total_loss` until the next step has
# built its own), so the next young collection would scan all of it, find it
# all alive, and move it on; and later collections of the middle generation
# would scan it again.  Those scans can only find the graph alive: it has no
# cycles, and reference counting frees it when the caller lets go.  So
# backward() moves the young objects to the oldest generation directly.
# `gc.freeze()` followed by `gc.unfreeze()` does exactly that in constant time
# (freeze moves every tracked object to the "permanent" generation, unfreeze
# moves them all back into the oldest one); nothing is left frozen, and no
# setting is changed.
#
# It is done only when it is safe and useful:
# * never if the program froze objects itself (unfreeze would thaw them);
# * only if the young count (tracked objects allocated minus freed since the
#   last young collection) is within the collector's threshold, that is, a
#   young collection was not due anyway.  That is the case in a training loop,
#   where each step's graph replaces the previous one.  A graph that grows
#   from step to step, or a first step, is left to the collector as usual.
# The young count is the collector's own measure of new objects that may be
# garbage.  Promoted objects skip the young collections, so the engine adds
# that count up itself and runs a full collection once it reaches
# _FULL_COLLECTION_AFTER times the young threshold.  Cyclic garbage made by the
# program during training is then freed after that many objects at the latest.

_FULL_COLLECTION_AFTER = 100
_promoted_since_full = 0  # young count promoted since the last full collection
_full_collections_seen = 0  # the collector's own count of full collections


def _promote_young_generation() -> None:
    """Move the young (and middle) generation into the oldest, without a scan."""
    global _promoted_since_full, _full_collections_seen
    young, middle, _ = gc.get_count()
    threshold = gc.get_threshold()[0]
    if gc.get_freeze_count() or young > threshold:
        return
    full_collections = gc.get_stats()[-1]["collections"]
    if full_collections != _full_collections_seen:  # the collector ran one itself
        _full_collections_seen = full_collections
        _promoted_since_full = 0
    gc.freeze()
    gc.unfreeze()
    # each young collection since the last middle one moved its survivors to
    # the middle generation: at most about a young threshold's worth
    _promoted_since_full += young + middle * threshold
    if _promoted_since_full > _FULL_COLLECTION_AFTER * threshold:
        gc.collect()
        _full_collections_seen = gc.get_stats()[-1]["collections"]
        _promoted_since_full = 0


def _node(
    data: float, a: Value | None, b: Value | None, op: str, rule: BackwardRule | None
) -> Value:
    """Make the output node of an operation (skips the checks in ``__init__``)."""
    out = _new(Value)
    out.data = data
    out.grad = 0.0
    out._a = a
    out._b = b
    out._op = op
    out._rule = rule
    out.label = ""
    return out


_new = object.__new__


def _real(x: Any) -> float:
    """``x`` as a float, or a TypeError that says what ``x`` was."""
    if type(x) is float:
        return x
    if isinstance(x, numbers.Real):
        return float(x)
    raise TypeError(f"Value needs a real number (int or float), got {type(x).__name__} {x!r}")


def _value(x: Any) -> Any:
    """``x`` as a Value, or NotImplemented so that Python raises its TypeError."""
    if isinstance(x, Value):
        return x
    if type(x) is float or isinstance(x, numbers.Real):
        return _node(float(x), None, None, "", None)
    return NotImplemented


def _nothing() -> None:
    """The backward rule of a leaf: nothing to pass on."""


def _call_closure(function: Callable[[], None], out: Value) -> None:
    function()
