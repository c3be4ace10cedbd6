"""Mutants of the solutions of "Build your own micrograd": small mistakes the checker must catch.

A mutant is a step's ``solution.py`` with exactly one change, made with
:mod:`ast` and written back with :func:`ast.unparse`, in a function or method
the reader writes: one whose code differs from the same-named one of the
step's ``starter.py`` (a method the starter gives verbatim, such as the
rules' ``Value.__init__`` or nn's ``Module.parameters``, is not the reader's,
and module-level data such as training's ``xs`` is no function).  A function
nested in a method (``_backward`` in ``Value.__add__``) is part of that method.

The operators (:data:`OPERATORS`), each applied at every site it fits:

``augassign``       ``x += e`` (or ``-=``) becomes ``x = e``;
``sign``            ``+=`` and ``-=`` swapped, binary ``+`` and ``-`` swapped, a unary
                    minus removed, or a minus put before a number the code computes
                    (the first argument of ``Value(...)``, the argument of ``math.f(...)``);
``swap-operands``   the operands of ``-``, ``/``, ``//``, ``%`` or ``**`` swapped;
``swap-name``       in ``X.attr`` read from a name that holds a Value (``self`` in a method
                    of ``Value``, and any name read as ``X.data``, ``X.grad``, ``X._prev``...),
                    X replaced by each other such name of the function;
``drop-grad``       a ``<name>.grad`` factor of a product dropped (``e * out.grad`` -> ``e``);
``drop-statement``  one statement dropped, at any depth (``pass`` if its block empties);
``not-reversed``    ``reversed(x)`` becomes ``x``;
``membership``      ``x not in y`` becomes ``True``, ``x in y`` becomes ``False``;
``return``          ``return X`` becomes ``return None``; a returned list or tuple display
                    loses one element; ``return a if c else b`` returns one branch;
``branch``          any other ``a if c else b`` becomes one branch;
``constant``        a number ``c`` becomes ``c + 1``, and ``0`` and ``1`` each other
                    (``1.0`` -> ``0.0``, ``-1`` -> ``0``); ``True`` and ``False`` each other.

Each mutant has a stable id, ``<step>:<part>:<operator>:<n>`` (``n`` counts
that operator's mutants of that part, in source order, from 1), the part it
changes, a one-line description and its whole code.

:data:`EQUIVALENTS` lists the mutants that no check can catch because they
compute exactly what the solution computes, each with the reason;
``test_checker_mutants.py`` proves each of them equivalent by running it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

from book_runtime.features.track.checks import EXERCISES

#: The track's steps, in order.
STEPS = list(EXERCISES)

OPERATORS = (
    "augassign",
    "sign",
    "swap-operands",
    "swap-name",
    "drop-grad",
    "drop-statement",
    "not-reversed",
    "membership",
    "return",
    "branch",
    "constant",
)

#: Attributes only a Value has: a name read with one of them holds a Value.
VALUE_ATTRIBUTES = frozenset(
    {"data", "grad", "_prev", "_op", "_backward", "backward", "tanh", "exp"}
)

#: Operators whose operands do not commute.
NON_COMMUTATIVE = (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)

#: Mutants that compute exactly what the solution computes: id -> why.  Each is run
#: against the solution on the same inputs (test_checker_mutants.py) before it is believed.
EQUIVALENTS: dict[str, str] = {}


@dataclass(frozen=True)
class Mutant:
    """One mutant: the step's solution with one change in ``part``."""

    id: str
    step: str
    part: str
    operator: str
    line: int  #: the changed line, in the solution's own numbering
    description: str
    code: str


# -- which functions are the reader's --------------------------------------------------------------


def functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """The module's functions and its classes' methods, by qualified name (``Value.__add__``)."""
    found: dict[str, ast.FunctionDef] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    found[f"{node.name}.{item.name}"] = item
    return found


def readers_functions(solution: str, starter: str) -> list[str]:
    """The qualified names of the solution's functions whose code the starter does not give."""
    given = functions(ast.parse(starter))
    mine = []
    for name, node in functions(ast.parse(solution)).items():
        theirs = given.get(name)
        if theirs is None or ast.dump(theirs) != ast.dump(node):
            mine.append(name)
    return mine


# -- the sites of one function ---------------------------------------------------------------------

#: A change of one node: the node -> the new node that replaces it (a list of statements
#: replaces a statement); it builds new nodes and changes none of the tree's.
Transform = Callable[[Any], Any]


@dataclass(frozen=True)
class Site:
    operator: str
    node: ast.AST
    transform: Transform


def _docstring(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _number(node: ast.AST) -> float | None:
    """The number a node writes (``2.0``, ``-1``), or None (a bool is no number here)."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value  # type: ignore[no-any-return]
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) in (int, float)
    ):
        return -node.operand.value  # type: ignore[no-any-return]
    return None


def _written(value: float) -> ast.expr:
    if value < 0 or (value == 0 and str(value).startswith("-")):
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    return ast.Constant(value)


def _constants(value: float) -> list[float]:
    """What the constant ``value`` becomes: ``value + 1``, and 0 and 1 each other."""
    made = [value + 1]
    if value == 0:
        made.append(type(value)(1))
    elif value == 1:
        made.append(type(value)(0))
    out: list[float] = []
    for new in made:
        if new != value and new not in out:
            out.append(new)
    return out


def _value_names(function: ast.FunctionDef, method_of: str | None) -> list[str]:
    """The names of the function that hold Values, in order of first appearance.

    A parameter or local name read as ``X.data``, ``X.grad``... (a module such as
    ``math``, read as ``math.tanh``, is neither), and ``self`` in a method of ``Value``.
    """
    local = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
    local |= {
        n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    names = {"self"} if method_of == "Value" else set()
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in VALUE_ATTRIBUTES
            and isinstance(node.value, ast.Name)
            and node.value.id in local
        ):
            names.add(node.value.id)
    first: dict[str, tuple[int, int]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id in names:
            first[node.id] = min(
                first.get(node.id, (node.lineno, node.col_offset)), (node.lineno, node.col_offset)
            )
    # ``self`` first, then in source order, so that the mutants' numbers follow the code.
    return sorted(names, key=lambda n: (n != "self", first.get(n, (0, 0))))


def _is_call_to(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


def _is_math_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "math"
    )


def _grad_factor(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "grad"
        and isinstance(node.value, ast.Name)
        and isinstance(node.ctx, ast.Load)
    )


def _negated(node: ast.expr) -> ast.expr:
    return ast.UnaryOp(ast.USub(), node)


def _expression_sites(node: ast.AST, names: list[str], in_return: bool) -> Iterator[Site]:
    """The sites of the operators that change one expression node."""
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, (ast.Add, ast.Sub)):
            flipped = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
            yield Site("sign", node, lambda n, op=flipped: ast.BinOp(n.left, op, n.right))
        if isinstance(node.op, NON_COMMUTATIVE):
            yield Site("swap-operands", node, lambda n: ast.BinOp(n.right, n.op, n.left))
        if isinstance(node.op, ast.Mult):
            if _grad_factor(node.right):
                yield Site("drop-grad", node, lambda n: n.left)
            if _grad_factor(node.left):
                yield Site("drop-grad", node, lambda n: n.right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield Site("sign", node, lambda n: n.operand)
    if isinstance(node, ast.Call):
        computed = []
        if _is_call_to(node, "Value") and node.args:
            computed = [0]
        elif _is_math_call(node):
            computed = list(range(len(node.args)))
        for i in computed:
            if _number(node.args[i]) is None and not isinstance(node.args[i], ast.Starred):

                def negate(n: ast.Call, i: int = i) -> ast.Call:
                    args = list(n.args)
                    args[i] = _negated(args[i])
                    return ast.Call(n.func, args, n.keywords)

                yield Site("sign", node, negate)
        if _is_call_to(node, "reversed") and len(node.args) == 1 and not node.keywords:
            yield Site("not-reversed", node, lambda n: n.args[0])
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.value, ast.Name)
        and node.value.id in names
    ):
        for other in names:
            if other != node.value.id:
                yield Site(
                    "swap-name",
                    node,
                    lambda n, o=other: ast.Attribute(ast.Name(o, ast.Load()), n.attr, n.ctx),
                )
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        if isinstance(node.ops[0], ast.NotIn):
            yield Site("membership", node, lambda n: ast.Constant(True))
        elif isinstance(node.ops[0], ast.In):
            yield Site("membership", node, lambda n: ast.Constant(False))
    if isinstance(node, ast.IfExp) and not in_return:
        yield Site("branch", node, lambda n: n.body)
        yield Site("branch", node, lambda n: n.orelse)
    value = _number(node)
    if value is not None:
        for new in _constants(value):
            yield Site("constant", node, lambda n, v=new: _written(v))
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        yield Site("constant", node, lambda n: ast.Constant(not n.value))


def _statement_sites(statement: ast.stmt, block: list[ast.stmt]) -> Iterator[Site]:
    """The sites of the operators that change one statement as a whole."""
    if not _docstring(statement) and not isinstance(statement, ast.Pass):
        alone = len(block) == 1
        yield Site("drop-statement", statement, lambda n: [ast.Pass()] if alone else [])
    if isinstance(statement, ast.AugAssign) and isinstance(statement.op, (ast.Add, ast.Sub)):
        yield Site("augassign", statement, lambda n: ast.Assign([n.target], n.value))
        flipped = ast.Sub() if isinstance(statement.op, ast.Add) else ast.Add()
        yield Site("sign", statement, lambda n, op=flipped: ast.AugAssign(n.target, op, n.value))
    if isinstance(statement, ast.Return) and statement.value is not None:
        value = statement.value
        if not (isinstance(value, ast.Constant) and value.value is None):
            yield Site("return", statement, lambda n: ast.Return(ast.Constant(None)))
        if isinstance(value, (ast.List, ast.Tuple)) and len(value.elts) >= 2:
            for i in range(len(value.elts)):

                def shorter(n: ast.Return, i: int = i) -> ast.Return:
                    shown = n.value
                    elts = shown.elts[:i] + shown.elts[i + 1 :]
                    return ast.Return(type(shown)(elts, ast.Load()))

                yield Site("return", statement, shorter)
        if isinstance(value, ast.IfExp):
            yield Site("return", statement, lambda n: ast.Return(n.value.body))
            yield Site("return", statement, lambda n: ast.Return(n.value.orelse))


def _sites(function: ast.FunctionDef, method_of: str | None) -> list[Site]:
    """Every site of every operator in the function's body, in source order."""
    names = _value_names(function, method_of)
    sites: list[Site] = []

    def visit(node: ast.AST, in_return: bool) -> None:
        for field, value in ast.iter_fields(node):
            if field in ("decorator_list", "args", "returns") and node is function:
                continue  # the signature (and its default values) is the starter's
            if isinstance(value, list):
                for child in value:
                    if isinstance(child, ast.stmt):
                        sites.extend(_statement_sites(child, value))
                    if isinstance(child, ast.AST):
                        visit_child(child, node, in_return)
            elif isinstance(value, ast.AST):
                visit_child(value, node, in_return)

    def visit_child(child: ast.AST, parent: ast.AST, in_return: bool) -> None:
        if isinstance(child, ast.stmt):
            in_return = False
            if _docstring(child):
                return
            if isinstance(child, ast.FunctionDef):
                # A nested function's body is mutated; its own signature is left as it is.
                for statement in child.body:
                    sites.extend(_statement_sites(statement, child.body))
                    visit_child(statement, child, False)
                return
        elif isinstance(child, ast.expr):
            # The returned value itself: its IfExp is the return operator's, not the branch one's.
            sites.extend(_expression_sites(child, names, in_return and _returned(parent, child)))
            if isinstance(child, ast.JoinedStr) or (
                isinstance(child, ast.UnaryOp) and _number(child) is not None
            ):
                return  # a string's parts, and a negative number's digits, are one constant
        visit(child, isinstance(child, ast.Return) or in_return)

    visit(function, False)
    return sites


def _returned(parent: ast.AST, child: ast.AST) -> bool:
    return isinstance(parent, ast.Return) and parent.value is child


# -- applying a change -----------------------------------------------------------------------------


#: Where a node sits: its parent, the parent's field, and its index in that field's list.
Place = tuple[ast.AST, str, "int | None"]


def _places(tree: ast.AST) -> dict[int, Place]:
    """The place of every node of ``tree``, by the node's id."""
    places: dict[int, Place] = {}
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if isinstance(value, list):
                for i, child in enumerate(value):
                    if isinstance(child, ast.AST):
                        places[id(child)] = (parent, name, i)
            elif isinstance(value, ast.AST):
                places[id(value)] = (parent, name, None)
    return places


@contextmanager
def _replaced(place: Place, node: ast.AST, new: Any) -> Iterator[None]:
    """``node`` replaced by ``new`` (a node, or a list of statements) in the tree, for a while.

    The tree is changed in place and put back (a copy of it for each mutant would take
    most of the generator's time); a transform builds new nodes and changes none.
    """
    parent, name, index = place
    for made in new if isinstance(new, list) else [new]:
        if not hasattr(made, "lineno"):  # a node of its own; unparse reads line numbers
            ast.fix_missing_locations(ast.copy_location(made, node))
    if index is None:
        setattr(parent, name, new)
    else:
        getattr(parent, name)[index : index + 1] = new if isinstance(new, list) else [new]
    try:
        yield
    finally:
        if index is None:
            setattr(parent, name, node)
        else:
            size = len(new) if isinstance(new, list) else 1
            getattr(parent, name)[index : index + size] = [node]


def _enclosing(places: dict[int, Place], node: ast.AST) -> ast.stmt:
    """The innermost statement that holds ``node`` (``node`` itself if it is one)."""
    while not isinstance(node, ast.stmt):
        node = places[id(node)][0]
    return node


def _first_line(node: ast.AST) -> str:
    text = ast.unparse(node).splitlines()
    return text[0] if text else ""


def _describe(line: int, operator: str, before: str, after: str) -> str:
    if operator == "drop-statement":
        return f"line {line}: `{before}` dropped"
    return f"line {line}: `{before}` -> `{after}`"


def mutants_of(step: str, solution: str, starter: str) -> list[Mutant]:
    """Every mutant of one step's solution, in source order, one change each."""
    tree = ast.parse(solution)
    places = _places(tree)
    seen = {ast.unparse(tree)}
    owners = {
        f"{klass.name}.{item.name}": klass.name
        for klass in tree.body
        if isinstance(klass, ast.ClassDef)
        for item in klass.body
        if isinstance(item, ast.FunctionDef)
    }
    made: list[Mutant] = []
    table = functions(tree)
    for part in readers_functions(solution, starter):
        counts = dict.fromkeys(OPERATORS, 0)
        function = table[part]
        for site in _sites(function, owners.get(part)):
            statement = _enclosing(places, site.node)
            before = _first_line(statement)
            new = site.transform(site.node)
            with _replaced(places[id(site.node)], site.node, new):
                code = ast.unparse(tree)
                if isinstance(new, list):
                    after = "; ".join(_first_line(n) for n in new)
                else:
                    after = _first_line(new if site.node is statement else statement)
            if code in seen:
                continue
            seen.add(code)
            compile(code, f"<mutant of {step}>", "exec")  # the generator's own mistake, if not
            counts[site.operator] += 1
            line = getattr(site.node, "lineno", function.lineno)
            made.append(
                Mutant(
                    id=f"{step}:{part}:{site.operator}:{counts[site.operator]}",
                    step=step,
                    part=part,
                    operator=site.operator,
                    line=line,
                    description=_describe(line, site.operator, before, after),
                    code=code + "\n",
                )
            )
    return made


@cache
def all_mutants() -> tuple[Mutant, ...]:
    """Every mutant of every step, in the track's order."""
    made: list[Mutant] = []
    for step, exercise in EXERCISES.items():
        made += mutants_of(step, exercise.solution, exercise.starter)
    return tuple(made)


def by_id() -> dict[str, Mutant]:
    return {m.id: m for m in all_mutants()}


# -- the page's namespace with a mutant in it ------------------------------------------------------


def cells(step: str) -> dict[str, str]:
    """The file name of each exercise cell up to ``step``'s, and its step."""
    return {f"<cell {n}>": s for n, s in enumerate(STEPS[: STEPS.index(step) + 1], start=1)}
