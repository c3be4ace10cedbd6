"""Which names a notebook cell defines, reads and may change: the runner's dependency facts.

The in-browser runner decides from these facts which cells a run depends on
(so that re-running a cell starts from the state the page defines, not from
whatever an earlier run left) and which shown outputs a run makes stale.  The
docs build computes them for every cell of a page (the page's cell manifest,
docs/_ext/browser_runner.py) and the worker for a cell the reader edited
(kernel.py); both use :func:`cell_names`, from the standard library only.

The facts are approximate on purpose, erring towards "depends": a name is
*used* if the cell reads it before binding it (in source order, including
the globals its functions read), and *may be changed* if the cell stores into
its attributes or items, augments it, calls one of its methods, or deletes
it.  Calls are reported as well, so that the runner can count a name passed
to a function defined on the page (or a global such a function changes) as
changed by the call.
"""

from __future__ import annotations

import ast
import io
import tokenize
from typing import Any

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _base_name(node: ast.AST) -> str | None:
    """``model`` for ``model.layers[0].w`` (the name an attribute or item chain starts at)."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


class _Scope(ast.NodeVisitor):
    """Walks one scope's code in evaluation order, noting reads, binds and changes."""

    def __init__(self, bound: set[str] | None = None) -> None:
        self.bound: set[str] = set(bound or ())  # bound in this scope so far
        self.uses: dict[str, None] = {}  # read before bound (ordered set)
        self.defines: dict[str, None] = {}
        self.changes: dict[str, None] = {}
        self.method_calls: dict[str, None] = {}
        self.calls: dict[str, list[str]] = {}
        self.imports: dict[str, None] = {}  # names bound to modules (``import x``)
        # name -> what the scope's imports bind it to ("module:attribute"), or None when
        # the scope also binds it some other way (then its value depends on the code)
        self.imported: dict[str, str | None] = {}
        self.globals: set[str] = set()  # ``global x`` in a function
        self.functions: dict[str, list[str]] = {}  # defined here -> globals a call changes
        self.deferred: list[ast.AST] = []  # function and class bodies, read later

    # -- names ------------------------------------------------------------------

    def read(self, name: str) -> None:
        if name not in self.bound or name in self.globals:
            self.uses.setdefault(name)

    def bind(self, name: str, imported: str | None = None) -> None:
        """Note a binding of ``name``; ``imported``: what an import binds it to."""
        self.bound.add(name)
        self.defines.setdefault(name)
        same = imported is not None and self.imported.get(name, imported) == imported
        self.imported[name] = imported if same else None

    def outside(self, name: str) -> bool:
        """Whether ``name``, as this scope changes it, is the enclosing scope's: not bound here,
        or declared ``global``."""
        return name not in self.bound or name in self.globals

    def change(self, node: ast.AST) -> None:
        name = _base_name(node)
        if name is not None:
            self.changes.setdefault(name)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self.read(node.id)
        else:  # Store, Del
            self.bind(node.id)

    def store(self, target: ast.AST) -> None:
        """An assignment's target: a name is bound; an attribute or item changes its base."""
        if isinstance(target, (ast.Attribute, ast.Subscript)):
            self.visit(target.value)
            if isinstance(target, ast.Subscript):
                self.visit(target.slice)
            self.change(target)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.store(element)
        elif isinstance(target, ast.Starred):
            self.store(target.value)
        else:
            self.visit(target)

    # -- statements and expressions whose parts run in another order --------------------

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for target in node.targets:
            self.store(target)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
            self.store(node.target)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Name):
            self.read(node.target.id)
        else:
            self.visit(node.target.value)
        self.visit(node.value)
        self.change(node.target)
        self.store(node.target)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self.change(target)
            self.store(target)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        self.store(node.target)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self.visit(node.iter)
        self.store(node.target)
        for statement in [*node.body, *node.orelse]:
            self.visit(statement)

    visit_AsyncFor = visit_For

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self.store(item.optional_vars)
        for statement in node.body:
            self.visit(statement)

    visit_AsyncWith = visit_With

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.type is not None:
            self.visit(node.type)
        if node.name:
            self.bind(node.name)
        for statement in node.body:
            self.visit(statement)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            name = alias.asname or alias.name.split(".")[0]
            self.bind(name, alias.name if alias.asname else name)
            self.imports.setdefault(name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            if alias.name != "*":
                module = "." * node.level + (node.module or "")
                self.bind(alias.asname or alias.name, f"{module}:{alias.name}")

    def visit_Global(self, node: ast.Global) -> None:
        self.globals.update(node.names)

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        if isinstance(node.func, ast.Attribute):
            name = _base_name(node.func.value)
            if name is not None:
                self.method_calls.setdefault(name)
        elif isinstance(node.func, ast.Name):
            arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
            passed = self.calls.setdefault(node.func.id, [])
            for argument in arguments:
                name = _base_name(argument)
                if name is not None and name not in passed:
                    passed.append(name)

    # -- scopes: function and class bodies run later, comprehensions have their own ----------

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        self.visit_arguments_defaults(node.args)
        if node.returns is not None:
            self.visit(node.returns)
        self.bind(node.name)
        self.deferred.append(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for expression in [*node.decorator_list, *node.bases]:
            self.visit(expression)
        for keyword in node.keywords:
            self.visit(keyword.value)
        self.bind(node.name)
        self.deferred.append(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.visit_arguments_defaults(node.args)
        self.deferred.append(node)

    def visit_arguments_defaults(self, arguments: ast.arguments) -> None:
        for default in [*arguments.defaults, *arguments.kw_defaults]:
            if default is not None:
                self.visit(default)

    def _comprehension(self, node: ast.AST, results: list[ast.AST]) -> None:
        generators = node.generators  # type: ignore[attr-defined]
        self.visit(generators[0].iter)  # evaluated in the enclosing scope
        inner = _Scope()
        for number, generator in enumerate(generators):
            if number:
                inner.visit(generator.iter)
            inner.store(generator.target)
            for condition in generator.ifs:
                inner.visit(condition)
        for result in results:
            inner.visit(result)
        self.absorb(inner)

    def visit_ListComp(self, node: ast.ListComp) -> None:
        self._comprehension(node, [node.elt])

    visit_SetComp = visit_ListComp  # type: ignore[assignment]
    visit_GeneratorExp = visit_ListComp  # type: ignore[assignment]

    def visit_DictComp(self, node: ast.DictComp) -> None:
        self._comprehension(node, [node.key, node.value])

    def absorb(self, inner: _Scope, later: bool = False) -> None:
        """Take over what an inner scope reads and changes outside itself.

        ``later``: the inner scope is a body that runs after this scope's code
        (a function's), so it reads the names this scope binds anywhere.
        """
        for name in inner.uses:
            if not (later and name in self.bound):
                self.read(name)
        self.changes.update(dict.fromkeys(filter(inner.outside, inner.changes)))
        self.method_calls.update(dict.fromkeys(filter(inner.outside, inner.method_calls)))
        for name in inner.globals & inner.bound:
            self.bind(name)
        for function, passed in inner.calls.items():
            known = self.calls.setdefault(function, [])
            known.extend(n for n in passed if n not in known and n not in inner.bound)


def _body_scope(node: ast.AST) -> _Scope:
    """The scope of a function, lambda or class body (its parameters bound)."""
    inner = _Scope()
    arguments = getattr(node, "args", None)
    if isinstance(arguments, ast.arguments):
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        for argument in every:
            inner.bound.add(argument.arg)
    body = node.body if isinstance(node.body, list) else [node.body]  # type: ignore[attr-defined]
    # A function's locals are local in the whole body: bind them first, then read.
    if not isinstance(node, ast.ClassDef):
        collector = _Scope()
        for statement in body:
            collector.visit(statement)
        inner.bound |= collector.defines.keys() - collector.globals
        inner.globals = collector.globals
    for statement in body:
        inner.visit(statement)
    _finish(inner)
    return inner


def _finish(scope: _Scope) -> None:
    """Read the deferred bodies (functions, lambdas, classes) of ``scope``."""
    while scope.deferred:
        node = scope.deferred.pop(0)
        inner = _body_scope(node)
        scope.absorb(inner, later=True)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            outside = filter(inner.outside, {**inner.changes, **inner.method_calls})
            scope.functions[node.name] = sorted(outside)


def is_magic(line: str) -> bool:
    """Whether a line is an IPython line magic or shell escape (``%config``, ``!ls``)."""
    return line.lstrip().startswith(("%", "!"))


def without_magics(source: str) -> str:
    """``source`` with its magics (:func:`is_magic`) blanked, line for line."""
    return "\n".join("" if is_magic(line) else line for line in source.split("\n"))


def ends_with_semicolon(source: str) -> bool:
    """True when the cell's last token is ``;``: a notebook then shows no value."""
    skip = {tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT, tokenize.ENDMARKER}
    skip |= {tokenize.INDENT, tokenize.DEDENT}
    last = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type not in skip:
                last = token
    except (tokenize.TokenError, SyntaxError):
        return False
    return last is not None and last.type == tokenize.OP and last.string == ";"


def cell_names(source: str) -> dict[str, Any]:
    """The dependency facts of one cell's code (JSON-able).

    Returns
    -------
    dict
        ``defines``: names the cell binds; ``uses``: names it reads before
        binding them; ``changes``: names whose value it may change in place
        (attribute or item stores, augmented assignment, ``del``);
        ``method_calls``: names whose methods it calls; ``calls``: function
        name -> names passed to it; ``functions``: function the cell defines
        -> globals a call of it may change; ``imports``: names bound to
        modules; ``imported``: name -> what the cell's imports bind it to
        (``"module:attribute"``, or the module's name), for the names the cell
        binds by imports alone.  IPython magics are left out.  A cell that does not parse
        has ``error`` set and nothing else is known about it.
    """
    try:
        tree = ast.parse(without_magics(source))
    except SyntaxError as error:
        return {"error": f"{error.msg} (line {error.lineno})"}
    scope = _Scope()
    for statement in tree.body:
        scope.visit(statement)
    _finish(scope)
    return {
        "defines": sorted(scope.defines),
        "uses": list(scope.uses),
        "changes": sorted(scope.changes),
        "method_calls": sorted(scope.method_calls),
        "calls": {name: passed for name, passed in sorted(scope.calls.items()) if passed},
        "functions": scope.functions,
        "imports": sorted(scope.imports),
        "imported": {name: how for name, how in sorted(scope.imported.items()) if how},
    }
