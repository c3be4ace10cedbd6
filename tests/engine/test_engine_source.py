"""The engine is part of the book's text: the code the pages show must read cleanly.

The pages include ``engine.py`` itself (``literalinclude``), so these checks
guard what a reader sees: an engine about autodiff only, a ``backward()`` as
short as the original's, and rules without checker noise.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

import pytest
from ops import OPS, Op

import micrograd.engine
from micrograd.engine import Value

ENGINE_SOURCE = Path(inspect.getfile(micrograd.engine)).read_text(encoding="utf-8")
RULES = sorted(name for name in vars(Value) if name.endswith("_backward") and name != "_backward")


def code_lines(function: object) -> list[str]:
    """The lines of a function's body that are code: no docstring, comment or blank line."""
    source = textwrap.dedent(inspect.getsource(function))  # type: ignore[arg-type]
    body = ast.parse(source).body[0].body  # type: ignore[attr-defined]
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    lines: list[str] = []
    for statement in body:
        segment = ast.get_source_segment(source, statement)
        assert segment is not None
        lines += [line for line in segment.splitlines() if line.strip()]
    return [line for line in lines if not line.strip().startswith("#")]


def names_used(function: object) -> set[str]:
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))  # type: ignore[arg-type]
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} | {
        node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
    }


def test_the_engine_module_does_not_import_the_garbage_collector() -> None:
    imports = [
        node
        for node in ast.walk(ast.parse(ENGINE_SOURCE))
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    imported = {alias.name for node in imports for alias in node.names} | {
        node.module for node in imports if isinstance(node, ast.ImportFrom) and node.module
    }
    assert "gc" not in imported
    assert "weakref" not in imported
    assert "threading" not in imported


def test_backward_is_at_most_fourteen_lines_of_code() -> None:
    lines = code_lines(Value.backward)
    assert len(lines) <= 14, "\n".join(lines)


@pytest.mark.parametrize("function", [Value.backward, Value.__init__], ids=lambda f: f.__name__)
def test_backward_and_init_make_no_collector_calls(function: object) -> None:
    used = names_used(function)
    assert not used & {"gc", "paused_gc", "disable", "enable", "freeze"}


def test_backward_runs_the_rules_in_reverse_topological_order_after_seeding_one() -> None:
    source = "\n".join(code_lines(Value.backward))
    assert "topological_order(self)" in source
    assert "self.grad = 1.0" in source
    assert "reversed(" in source
    assert source.index("topological_order") < source.index("self.grad = 1.0")


@pytest.mark.parametrize("name", RULES)
def test_a_backward_rule_has_no_type_ignore_comment(name: str) -> None:
    rule = inspect.getattr_static(Value, name)
    assert isinstance(rule, staticmethod)
    assert "type: ignore" not in inspect.getsource(rule.__func__)


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_every_operation_has_a_rule_that_the_check_above_sees(op: Op) -> None:
    rule = op.build(*(Value(x) for x in op.points[0]))._rule
    assert getattr(rule, "func", rule).__name__ in RULES  # a power's rule is a partial
