"""The autograd engine: a scalar :class:`Value` that remembers how it was made.

Every arithmetic operation on a :class:`Value` returns a new ``Value`` that
records its inputs, the name of the operation (``_op``) and the operation's
*backward rule*: a small function that applies the chain rule for that one
operation, ``rule(out, a)`` for an operation of one input and
``rule(out, a, b)`` for one of two.  :meth:`Value.backward` runs each node's
rule once, from the output back to the leaves: in *reverse* topological
order, so that every node has received its whole gradient before its rule
passes it on.

The design follows the original micrograd closely, with two differences that
make it fast and frugal (the docs page "Why it's fast" measures them):

* a node keeps its inputs in two slots, ``_a`` and ``_b``, and
  ``__slots__`` removes the per-object ``__dict__``; an operation of many
  inputs (:meth:`Value.sum`, :meth:`Value.dot`) keeps a tuple of them in a
  slot, so that a sum of n terms is one node, not n;
* each operation has **one** backward rule shared by all its nodes (a static
  method below), instead of a new closure per node.  A closure that refers to
  its own output makes a reference cycle, which only CPython's cyclic garbage
  collector can free; without cycles, reference counting frees a graph the
  moment it is no longer used.

:func:`new_node` is how every operation makes its output, and how you can add
an operation of your own.  The module imports nothing outside the standard
library.
"""

from __future__ import annotations

__all__ = ["BackwardRule", "Value", "new_node", "topological_order"]

import math
import numbers
from collections.abc import Callable, Iterable
from functools import partial
from itertools import repeat
from typing import Any

#: A backward rule, ``rule(out, a)`` or ``rule(out, a, b)``: given an
#: operation's output node and its inputs, it adds the output's gradient,
#: times the local derivative, to the ``grad`` of each input.
BackwardRule = Callable[..., None]

# What an input slot holds when there is no such input: a leaf has none, a
# one-input operation has no second one.  The slots are typed ``Value`` so
# that the backward rules, which only ever run on nodes that have their
# inputs, read them without a check for None; this is the one place that
# stores None in them.
_NO_INPUT: Any = None


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
    ValueError
        If ``_children`` holds more than two nodes, or something that is not
        a ``Value``.

    Examples
    --------
    >>> a = Value(2.0)
    >>> b = Value(-3.0)
    >>> c = a * b + 1
    >>> c.backward()
    >>> c.data, a.grad, b.grad
    (-5.0, -3.0, 2.0)
    """

    # One small object per node: exactly these fields, and no __dict__.
    __slots__ = ("_a", "_b", "_op", "_rule", "data", "grad", "label")

    data: float  # the number
    grad: float  # d(output)/d(this node)
    _a: Value  # the first input (None in a leaf)
    _b: Value  # the second input (None in a leaf, or after a one-input operation)
    _op: str  # the operation's name, "" in a leaf
    _rule: BackwardRule | None  # the operation's backward rule, None in a leaf
    label: str  # a name for drawings

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
        self._a = children[0] if children else _NO_INPUT
        self._b = children[1] if len(children) == 2 else _NO_INPUT
        self._op = _op
        self._rule = None
        self.label = label

    # -- the original micrograd's names for the graph ------------------------------

    @property
    def _prev(self) -> tuple[Value, ...]:
        """The nodes this one was computed from, in operand order: ``_a``, then ``_b``."""
        # an input in each slot, or after an operation of many inputs a tuple of them
        a: Any = self._a
        b: Any = self._b
        if a is None:
            return ()
        if type(a) is tuple:  # a's inputs, then b's
            return tuple(a) if b is None else (*a, *b)
        if b is None:
            return (a,)
        return (self._a, self._b)

    @property
    def _backward(self) -> Callable[[], None]:
        """The original's ``node._backward()``: run this node's rule (nothing, in a leaf).

        Assigning a function of no arguments, as the original's operations
        do (a closure over the node and its inputs), makes it the node's rule.
        """
        rule = self._rule
        if rule is None:
            return _nothing
        # the slots, as backward() passes them: in each, an input or a tuple of inputs
        slots = (self._a,) if self._b is None else (self._a, self._b)
        return partial(rule, self, *slots)

    @_backward.setter
    def _backward(self, function: Callable[[], None]) -> None:
        self._rule = partial(_call_closure, function)

    # -- the operations: forward value, and the local rule for backward ---------

    def __add__(self, other: Value | float) -> Value:
        other = other if type(other) is Value else _value(other)
        if other is NotImplemented:
            return NotImplemented
        return _node(self.data + other.data, "+", Value._add_backward, self, other)

    @staticmethod
    def _add_backward(out: Value, a: Value, b: Value) -> None:
        # d(a + b)/da = 1 and d(a + b)/db = 1: add passes the gradient through.
        a.grad += out.grad
        b.grad += out.grad

    def __mul__(self, other: Value | float) -> Value:
        other = other if type(other) is Value else _value(other)
        if other is NotImplemented:
            return NotImplemented
        return _node(self.data * other.data, "*", Value._mul_backward, self, other)

    @staticmethod
    def _mul_backward(out: Value, a: Value, b: Value) -> None:
        # d(a * b)/da = b and d(a * b)/db = a: mul crosses the inputs over.
        a.grad += b.data * out.grad
        b.grad += a.data * out.grad

    def __sub__(self, other: Value | float) -> Value:
        other = other if type(other) is Value else _value(other)
        if other is NotImplemented:
            return NotImplemented
        return _node(self.data - other.data, "-", Value._sub_backward, self, other)

    @staticmethod
    def _sub_backward(out: Value, a: Value, b: Value) -> None:
        # d(a - b)/da = 1 and d(a - b)/db = -1.
        a.grad += out.grad
        b.grad += -out.grad

    def __truediv__(self, other: Value | float) -> Value:
        other = other if type(other) is Value else _value(other)
        if other is NotImplemented:
            return NotImplemented
        if other.data == 0:
            raise ZeroDivisionError(f"division of {self.data!r} by a Value equal to 0")
        return _node(self.data / other.data, "/", Value._div_backward, self, other)

    @staticmethod
    def _div_backward(out: Value, a: Value, b: Value) -> None:
        # d(a / b)/da = 1 / b and d(a / b)/db = -a / b**2.
        a.grad += out.grad / b.data
        b.grad += -out.grad * a.data / (b.data * b.data)

    def __neg__(self) -> Value:
        return _node(-self.data, "neg", Value._neg_backward, self)

    @staticmethod
    def _neg_backward(out: Value, a: Value) -> None:
        # d(-a)/da = -1.
        a.grad += -out.grad

    def __pow__(self, exponent: float) -> Value:
        exponent = _exponent(exponent)
        base = self.data
        if base < 0 and not float(exponent).is_integer():
            raise ValueError(
                f"({base!r}) ** {exponent!r} is not a real number: "
                "a negative base needs a whole-number exponent"
            )
        if base == 0 and exponent < 0:
            raise ZeroDivisionError(f"0 ** {exponent!r}: zero to a negative power")
        rule = partial(Value._pow_backward, exponent)
        return _node(base**exponent, f"**{exponent}", rule, self)

    @staticmethod
    def _pow_backward(exponent: float, out: Value, a: Value) -> None:
        # d(a ** n)/da = n * a ** (n - 1); for n = 0 that is 0 everywhere, a = 0 included.
        if exponent != 0:
            a.grad += exponent * a.data ** (exponent - 1) * out.grad

    def relu(self) -> Value:
        """max(0, self): the rectified linear unit."""
        return _node(self.data if self.data > 0 else 0.0, "ReLU", Value._relu_backward, self)

    @staticmethod
    def _relu_backward(out: Value, a: Value) -> None:
        # d relu(a)/da = 1 where a > 0, else 0: relu lets the gradient through or stops it.
        if out.data > 0:
            a.grad += out.grad

    def tanh(self) -> Value:
        """The hyperbolic tangent, squashing any input into (-1, 1)."""
        return _node(math.tanh(self.data), "tanh", Value._tanh_backward, self)

    @staticmethod
    def _tanh_backward(out: Value, a: Value) -> None:
        # d tanh(a)/da = 1 - tanh(a)**2, and tanh(a) is out.data.
        a.grad += (1.0 - out.data * out.data) * out.grad

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
        return _node(result, "exp", Value._exp_backward, self)

    @staticmethod
    def _exp_backward(out: Value, a: Value) -> None:
        # d exp(a)/da = exp(a), which is out.data.
        a.grad += out.data * out.grad

    def log(self) -> Value:
        """The natural logarithm.

        Raises
        ------
        ValueError
            If ``self.data`` is zero or negative.
        """
        if not self.data > 0:
            raise ValueError(f"log is defined only for positive numbers, got {self.data!r}")
        return _node(math.log(self.data), "log", Value._log_backward, self)

    @staticmethod
    def _log_backward(out: Value, a: Value) -> None:
        # d log(a)/da = 1 / a.
        a.grad += out.grad / a.data

    def sigmoid(self) -> Value:
        """The logistic function 1 / (1 + e ** -self), squashing into (0, 1)."""
        x = self.data
        if x >= 0:
            s = 1.0 / (1.0 + math.exp(-x))
        else:  # the same number, written so that exp cannot overflow
            e = math.exp(x)
            s = e / (1.0 + e)
        return _node(s, "sigmoid", Value._sigmoid_backward, self)

    @staticmethod
    def _sigmoid_backward(out: Value, a: Value) -> None:
        # d sigmoid(a)/da = sigmoid(a) * (1 - sigmoid(a)), and sigmoid(a) is out.data.
        a.grad += out.data * (1.0 - out.data) * out.grad

    # -- operations of many inputs: one node, however many terms -----------------

    @staticmethod
    def sum(terms: Iterable[Value]) -> Value:
        """``terms[0] + terms[1] + ...`` as one node, added left to right as Python's ``sum``.

        The same number as a chain of ``+``, in a graph of one node instead of
        one per term.

        Raises
        ------
        TypeError
            If a term is not a ``Value``.
        ValueError
            If there are no terms.
        """
        inputs = _inputs("Value.sum", terms)
        total = 0.0
        for t in inputs:
            total += t.data
        return _node(total, "sum", Value._sum_backward, inputs)

    @staticmethod
    def _sum_backward(out: Value, terms: tuple[Value, ...]) -> None:
        # d(t0 + t1 + ...)/dti = 1: every term gets the output's gradient.
        for t in terms:
            t.grad += out.grad

    @staticmethod
    def dot(a: Iterable[Value], b: Iterable[Value]) -> Value:
        """``a[0] * b[0] + a[1] * b[1] + ...`` as one node, added left to right.

        The same number as a chain of ``*`` and ``+``, in a graph of one node
        instead of two per pair.  ``Value.dot(x, x)`` is the sum of squares.

        Raises
        ------
        TypeError
            If an element is not a ``Value``.
        ValueError
            If ``a`` and ``b`` differ in length, or are empty.
        """
        xs, ys = _inputs("Value.dot", a), _inputs("Value.dot", b)
        if len(xs) != len(ys):
            raise ValueError(
                f"Value.dot needs two sequences of one length, got {len(xs)} and {len(ys)}"
            )
        total = 0.0
        for x, y in zip(xs, ys, strict=True):
            total += x.data * y.data
        return _node(total, "dot", Value._dot_backward, xs, ys)

    @staticmethod
    def _dot_backward(out: Value, a: tuple[Value, ...], b: tuple[Value, ...]) -> None:
        # d(a . b)/dai = bi and d(a . b)/dbi = ai: each pair crosses over, as in mul.
        g = out.grad
        for x, y in zip(a, b, strict=True):
            x.grad += y.data * g
            y.grad += x.data * g

    # -- the reflected forms: `2 * v`, `1 - v`, `1 / v` ... ----------------------

    # Tell NumPy to leave `numpy_scalar * value` to Value.__rmul__ instead of
    # wrapping the Value in an object array.
    __array_ufunc__ = None

    def __radd__(self, other: float) -> Value:  # other + self
        other_value: Value = _value(other)
        if other_value is NotImplemented:
            return NotImplemented
        return other_value + self  # inputs in written order: (other, self)

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
        order = topological_order(self)
        self.grad = 1.0
        for node in reversed(order):
            rule = node._rule
            if rule is None:  # a leaf has nothing to pass on
                continue
            b = node._b
            if b is None:
                rule(node, node._a)
            else:
                rule(node, node._a, b)

    def __repr__(self) -> str:
        return f"Value(data={self.data}, grad={self.grad})"


def new_node(data: float, op: str, rule: BackwardRule, a: Value, b: Value | None = None) -> Value:
    """The output node of a new operation: its value, and how to send a gradient back.

    This is the way to add an operation of your own (the docs page "The local
    rules" adds ``sin``): compute the forward value, then hand it over with
    the operation's name, its backward rule and its inputs.  The built-in
    operations make their nodes the same way (through ``_node``, the same
    function without these checks).

    Parameters
    ----------
    data : float
        The operation's result, already computed.
    op : str
        The operation's name, shown in graph drawings (e.g. ``"sin"``).
    rule : callable
        The backward rule, called once per :meth:`Value.backward` with the
        node made here and its inputs: ``rule(out, a)``, or ``rule(out, a, b)``
        for two inputs.  It must *add* ``out.grad`` times the local derivative
        to the ``grad`` of each input.  Use a plain function (or a static
        method), not a closure over ``out``: a closure that refers to its own
        node makes a reference cycle.
    a, b : Value
        The inputs: one, or two.

    Returns
    -------
    Value
        A new node with ``grad`` 0.0.

    Raises
    ------
    TypeError
        If ``data`` is not a real number, an input is not a ``Value``, or
        ``rule`` is not callable.

    Examples
    --------
    >>> import math
    >>> def sin(x):
    ...     return new_node(math.sin(x.data), "sin", sin_backward, x)
    >>> def sin_backward(out, a):
    ...     a.grad += math.cos(a.data) * out.grad  # d sin(a)/da = cos(a)
    >>> x = Value(0.0)
    >>> y = sin(x)
    >>> y.backward()
    >>> x.grad
    1.0
    """
    if not isinstance(a, Value):
        raise TypeError(f"new_node: input a must be a Value, got {a!r}")
    if b is not None and not isinstance(b, Value):
        raise TypeError(f"new_node: input b must be a Value, got {b!r}")
    if not callable(rule):
        raise TypeError(f"new_node: the rule must be a function of the output node, got {rule!r}")
    return _node(_real(data), op, rule, a, _NO_INPUT if b is None else b)


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
    stack: list[Any] = [root]  # nodes, and a None marker under each expanded node
    push, pop, see, emit = stack.append, stack.pop, seen.add, order.append
    while stack:
        node = pop()
        if node is None:  # the marker below it: all of its inputs are ordered
            emit(pop())
            continue
        if node in seen:
            continue
        see(node)
        # node, then a marker, then its inputs on top: the inputs come out
        # first (a before b), then the marker, then the node itself
        push(node)
        push(None)
        a, b = node._a, node._b
        if type(a) is tuple:  # an operation of many inputs: a's, then b's, come out in order
            stack.extend([c for c in reversed(a if b is None else a + b) if c not in seen])
            continue
        if b is not None and b not in seen:
            push(b)
        if a is not None and a not in seen:
            push(a)
    return order


# -- making nodes quickly, and checking what comes in -----------------------------

_new = object.__new__
_VALUE_TYPE = frozenset({Value})


def _node(data: float, op: str, rule: BackwardRule | None, a: Value, b: Value = _NO_INPUT) -> Value:
    """:func:`new_node` without its checks: the operations above are the hot path."""
    out = _new(Value)
    out.data = data
    out.grad = 0.0
    out._a = a
    out._b = b
    out._op = op
    out._rule = rule
    out.label = ""
    return out


def _real(x: Any) -> float:
    """``x`` as a float, or a TypeError that says what ``x`` was."""
    if type(x) is float:
        return x
    if isinstance(x, numbers.Real):
        return float(x)
    raise TypeError(f"Value needs a real number (int or float), got {type(x).__name__} {x!r}")


def _value(x: Any) -> Any:
    """``x`` as a Value (a new leaf), or NotImplemented so that Python raises its TypeError."""
    if isinstance(x, Value):
        return x
    if type(x) is float or isinstance(x, numbers.Real):
        return _node(float(x), "", None, _NO_INPUT)
    return NotImplemented


def _inputs(name: str, values: Iterable[Any]) -> Any:
    """The inputs of an operation of many inputs, as a tuple of at least one Value."""
    inputs = tuple(values)
    if not inputs:
        raise ValueError(f"{name} needs at least one Value")
    # all of type Value (the quick check), or else of a subclass of it
    if not _VALUE_TYPE.issuperset(map(type, inputs)) and not all(
        map(isinstance, inputs, repeat(Value))
    ):
        wrong = next(x for x in inputs if not isinstance(x, Value))
        raise TypeError(f"{name} takes Values only, got {type(wrong).__name__} {wrong!r}")
    return inputs


def _exponent(exponent: Any) -> float:
    """The exponent of ``**`` as an int or float, or a TypeError that says what it was."""
    if isinstance(exponent, Value):
        raise TypeError(
            "Value ** Value is not supported: the exponent must be an int or "
            "float constant (use .exp() and .log() for a variable exponent)"
        )
    if not isinstance(exponent, numbers.Real):
        raise TypeError(
            f"the exponent must be an int or float, got {type(exponent).__name__} {exponent!r}"
        )
    return exponent if isinstance(exponent, (int, float)) else float(exponent)


def _nothing() -> None:
    """What ``_backward`` runs in a leaf: nothing to pass on."""


def _call_closure(function: Callable[[], None], out: Value, *inputs: Value) -> None:
    """A rule made of a closure assigned to ``_backward``: it knows its node and inputs."""
    function()
