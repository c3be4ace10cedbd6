"""What the drawings call a node: its name in DOT, in a caption, its numbers.

:mod:`micrograd.viz.draw` and :mod:`micrograd.viz.stepper` both speak of the
nodes of a graph, in DOT sources, tooltips, captions and text alternatives;
they name them with these functions, so that a node is called the same in a
drawing and in the stepper's caption beside it.

Examples
--------
>>> from micrograd import Value
>>> a, b = Value(2.0, label="a"), Value(-3.0, label="b")
>>> c = a * b
>>> name_of(c), formula(c), name_of(a), formula(a)
('the result of *', 'a * b', 'a', '')
>>> format_number(c.data)
'-6.0000'
"""

from __future__ import annotations

__all__ = ["dot_names", "format_number", "formula", "name_of", "operand"]

from micrograd.engine import Value


def format_number(x: float) -> str:
    """A number as the drawings show it: 4 decimals (``-1.5000``)."""
    return f"{x:.4f}"


def dot_names(order: list[Value]) -> dict[Value, str]:
    """Each node's name in :func:`~micrograd.viz.draw.draw_dot`'s DOT source: ``n0``, ``n1``, ...

    ``order`` is :func:`~micrograd.engine.topological_order` of the drawn
    graph's output; the value node ``n3`` has its operation in ``n3_op``.
    """
    return {node: f"n{i}" for i, node in enumerate(order)}


def name_of(node: Value) -> str:
    """What a tooltip, caption or text alternative calls ``node``: its label, else what made it."""
    if node.label:
        return node.label
    if node._op:
        return f"the result of {node._op}"
    return f"the constant {format_number(node.data)}" if not node._prev else "an unlabelled value"


def operand(name: str) -> str:
    """``name`` as one operand of a written product: ``x2``, ``(x2*w2)``, ``(x1*w1 + b)``.

    Anything but a plain name is bracketed, so that ``(x2*w2).grad`` and
    ``w2.data × (x2*w2).grad`` cannot be read as ``x2 * w2.grad``.

    Examples
    --------
    >>> operand("x2"), operand("x2*w2"), operand("x2*w2") + ".grad"
    ('x2', '(x2*w2)', '(x2*w2).grad')
    """
    return name if name.isidentifier() else f"({name})"


def formula(node: Value) -> str:
    """How ``node`` was computed from its inputs: ``e + c``, ``tanh(n)``; ``""`` for a leaf."""
    if not node._prev:
        return ""
    operands = [name_of(child) for child in node._prev]
    if len(operands) == 1:
        return f"{node._op}({operands[0]})"
    return f" {node._op} ".join(operands)
