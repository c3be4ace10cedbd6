"""The in-browser runner's dependency facts of a cell (book_runtime.cell_names)."""

from __future__ import annotations

from typing import Any

import pytest
from book_runtime.cell_names import cell_names


def facts(source: str) -> dict[str, Any]:
    result: dict[str, Any] = cell_names(source)
    return result


def test_a_name_read_before_the_cell_binds_it_is_used_and_one_read_after_is_not() -> None:
    found = facts("y = x + 1\nz = y * 2\nx = 0")
    assert found["uses"] == ["x"]
    assert found["defines"] == ["x", "y", "z"]


def test_augmented_assignment_reads_the_name_and_may_change_it() -> None:
    found = facts("total += step")
    assert found["uses"] == ["total", "step"]
    assert found["changes"] == ["total"]


def test_attribute_and_item_stores_change_the_name_they_start_at() -> None:
    found = facts("model.layers[0].w = 1\nlog.rows[-1] = None\ndel cache['k']")
    assert found["changes"] == ["cache", "log", "model"]
    assert found["defines"] == []


def test_a_training_loop_reads_the_model_calls_its_methods_and_binds_its_loop_names() -> None:
    found = facts(
        "for k in range(steps):\n"
        "    loss = loss_fn(model)\n"
        "    model.zero_grad()\n"
        "    loss.backward()\n"
        "    for p in model.parameters():\n"
        "        p.data -= 0.1 * p.grad\n"
    )
    assert found["uses"] == ["range", "steps", "loss_fn", "model"]
    assert set(found["defines"]) == {"k", "loss", "p"}
    assert found["method_calls"] == ["loss", "model"]
    assert found["calls"] == {"loss_fn": ["model"], "range": ["steps"]}


def test_a_function_reads_globals_when_called_and_reports_the_globals_it_changes() -> None:
    found = facts(
        "def train(rate=default_rate):\n"
        "    for p in net.parameters():\n"
        "        p.data -= rate * p.grad\n"
        "    history.append(rate)\n"
        "    return X\n"
        "X = 1\n"
    )
    # default_rate is read at definition; net, history when called; X is the cell's own.
    assert found["uses"] == ["default_rate", "net", "history"]
    assert found["functions"] == {"train": ["history", "net"]}


def test_comprehension_names_stay_in_the_comprehension() -> None:
    found = facts("squares = [v * v for v in values if v > limit]")
    assert found["uses"] == ["values", "limit"]
    assert found["defines"] == ["squares"]


def test_imports_bind_names_and_module_imports_are_listed() -> None:
    found = facts("import random\nimport os.path\nfrom micrograd import Value as V")
    assert found["defines"] == ["V", "os", "random"]
    assert found["imports"] == ["os", "random"]


def test_ipython_magics_are_left_out() -> None:
    found = facts("%config InlineBackend.figure_formats = ['svg']\nimport matplotlib")
    assert found["defines"] == ["matplotlib"]


@pytest.mark.parametrize("source", ["x = (", "def f(:\n    pass"])
def test_code_that_does_not_parse_reports_its_error_and_nothing_else(source: str) -> None:
    found = facts(source)
    assert list(found) == ["error"]
    assert "line" in found["error"]


def test_names_bound_by_imports_alone_say_what_they_import() -> None:
    imports = "import random\nimport os.path\nfrom micrograd import Value as V\nimport math\n"
    assert facts(imports)["imported"]["math"] == "math"
    # Bound some other way too: what it holds depends on the code, not on the import.
    found = facts(imports + "math = 1")
    assert found["imported"] == {"V": "micrograd:Value", "os": "os", "random": "random"}


def test_a_relative_import_keeps_its_dots() -> None:
    assert facts("from ..engine import Value")["imported"] == {"Value": "..engine:Value"}
