"""The numbers the documentation states are the numbers the package computes.

Each page of the site is a MyST markdown notebook (``docs/*.md``) whose prose
takes every result from its executed cells through myst-nb's ``glue``.  These
tests run a page's ``{code-cell}`` cells in order, in a fresh namespace, with a
stand-in ``myst_nb.glue`` that records what the page glues, then check the
recorded values against the claims of the book (and, where it helps, against
the original micrograd 0.1.0 or a direct computation here).  They also check
that the prose types none of those numbers itself.

The pages are read and run by ``pages.py``.
"""

from __future__ import annotations

import ast
import builtins
import itertools
import math
import re
from typing import Any

import pytest
from book_runtime.features.claims.directive import ROLE, check, lead_ins, parse
from labelled_neuron import NeuronBuilder
from pages import (
    DOCS,
    claimed,
    code_cells,
    execute_page,
    glued,
    in_page_group,
    prose,
    run_page,
    without_magics,
)

from micrograd import Value

NOTEBOOK_PAGES = [
    "index",
    "value",
    "local-rules",
    "backward",
    "accumulate",
    "neuron",
    "mlp",
    "moons",
    "pytorch",
    "build-your-own",
    "gpt-tokens",
    "gpt-embeddings",
    "gpt-softmax",
    "gpt-attention",
    "gpt-rmsnorm",
    "gpt-adam",
    "gpt-training",
    "gpt-sampling",
]

# Coverage tracing makes the moons page's 100 training steps several times
# slower and adds no coverage: whichever test runs that page first runs it untraced.
NO_COVER = pytest.mark.no_cover
# Pages whose cells import torch (marker "torch": see pyproject.toml).
TORCH = pytest.mark.torch
# The moons page trains for 100 steps, the GPT pages for hundreds (marker "one_python":
# see pyproject.toml).
ONE_PYTHON = pytest.mark.one_python
PAGE_MARKS = {
    "moons": [NO_COVER, ONE_PYTHON],
    "gpt-adam": [NO_COVER, ONE_PYTHON],
    "gpt-training": [NO_COVER, ONE_PYTHON],
    "gpt-sampling": [NO_COVER, ONE_PYTHON],
    "local-rules": [TORCH],
    "backward": [TORCH],
    "accumulate": [TORCH],
    "mlp": [TORCH],
    "pytorch": [TORCH],
}
PAGE_PARAMS = [
    pytest.param(p, marks=[in_page_group(p), *PAGE_MARKS.get(p, [])]) for p in NOTEBOOK_PAGES
]


# -- the pages are what the tests think they are ------------------------------


@pytest.mark.parametrize("page", PAGE_PARAMS)
def test_page_is_a_notebook_with_code_cells(page: str) -> None:
    text = (DOCS / f"{page}.md").read_text(encoding="utf-8")
    assert text.startswith("---\njupytext:"), "a MyST notebook starts with a jupytext header"
    assert "name: python3" in text.split("---")[1], "the kernel is python3"
    assert code_cells(page), "a notebook page has code cells"


@pytest.mark.parametrize("page", PAGE_PARAMS)
def test_every_glue_reference_in_the_prose_is_glued_by_the_page(page: str) -> None:
    referenced = set(re.findall(r"\{glue(?::\w+)?\}`([\w-]+)", prose(page)))
    missing = referenced - set(glued(page))
    assert not missing, f"{page}.md refers to glue keys it never glues: {sorted(missing)}"


def _typed_forms(value: float) -> set[str]:
    forms = {f"{value:.4f}", f"{value:.6f}"}
    if not float(value).is_integer():
        forms.add(repr(float(value)))
    return {f for f in forms if len(f.lstrip("-").replace(".", "").strip("0")) >= 2}


@pytest.mark.parametrize("page", PAGE_PARAMS)
def test_prose_types_no_number_that_the_page_computes(page: str) -> None:
    text = re.sub(r"\{glue(?::\w+)?\}`[^`]*`", "", prose(page))
    typed = []
    for key, value in glued(page).items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            typed += [f"{key}={form}" for form in _typed_forms(value) if form in text]
    assert not typed, f"{page}.md types computed numbers instead of gluing them: {typed}"


# -- claims: sentences whose truth depends on a value --------------------------------------


@pytest.mark.parametrize("page", PAGE_PARAMS)
def test_every_claim_the_prose_makes_is_stated_by_the_page_and_holds(page: str) -> None:
    assert check(prose(page), claimed(page), f"docs/{page}.md") == []


@pytest.mark.parametrize("page", PAGE_PARAMS)
def test_every_claim_a_cell_states_is_said_in_the_prose(page: str) -> None:
    said = {parse(match["content"]).key for match in ROLE.finditer(prose(page))}
    assert set(claimed(page)) <= said, f"{page}.md states claims no sentence says"


def test_a_claim_that_no_longer_holds_fails_the_build_at_its_sentence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def mul_backward_flipped(out: Value, a: Value, b: Value) -> None:
        a.grad -= b.data * out.grad
        b.grad -= a.data * out.grad

    # The start page's c = a*b + b**2: with * sending the wrong sign, a.grad = -b > 0.
    monkeypatch.setattr(Value, "_mul_backward", staticmethod(mul_backward_flipped))
    text = prose("index")
    problems = check(text, execute_page("index").claims, "docs/index.md")
    line = 1 + text[: text.index("taste_a_lowers_c: (so `c` falls)")].count("\n")
    assert problems[0].startswith(
        f"docs/index.md:{line}: claim: this sentence says '(so `c` falls)', "
        "which the claim 'taste_a_lowers_c' says is not true of the build's run (a.grad = 3.0)"
    )
    assert len(problems) == 2  # the gradients by hand do not match either


#: The words before a claim in its sentence that end a clause of their own (claims.lead_ins),
#: each read: they hold whatever the reader's run computes.
READ_LEAD_INS = {
    # It introduces the example the claim gives the numbers of.
    ("backward", "Here is the worked example:"),
    # It introduces the drawing.
    ("mlp", "The trained network, drawn again:"),
    # What the training cell does, which the claim after it gives the rate of.
    ("moons", "Full-batch gradient descent:"),
    # CPython's collector, not the page's run.
    ("why-its-fast", "The collector decides *when* to run by counting allocations:"),
    # The glued losses the claim compares, which follow the reader's run themselves.
    (
        "gpt-adam",
        "After {glue:text}`adam_steps` steps, Adam's is {glue:text}`adam_after:.4f`, and the "
        "better SGD run ({glue:text}`adam_best_sgd`) reached {glue:text}`adam_best_sgd_after:.4f`:",
    ),
}


def test_the_words_before_a_claim_that_end_a_clause_are_found() -> None:
    text = (
        "The bias was chosen for these\ntwo: the inputs add up to {glue:text}`s:.1f`, and\n"
        "$b = 1$ {claim}``lifted: lifts it || does not lift it``. The loss "
        "{claim}``falls: falls || rises``; the rate {claim}``rate: shrinks``."
    )
    assert lead_ins(text) == [(1, "The bias was chosen for these two:")]


def test_no_claim_leaves_words_of_its_sentence_stating_something_of_their_own() -> None:
    found = {
        (path.stem, words)
        for path in sorted(DOCS.glob("*.md"))
        for _, words in lead_ins(prose(path.stem))
    }
    assert found - READ_LEAD_INS == set(), (
        "these words before a claim end a clause of their own: take them into the claim, "
        "or read them and list them in READ_LEAD_INS"
    )
    assert READ_LEAD_INS - found == set(), "READ_LEAD_INS lists words no page has"


#: Pages whose exercises are the reader's to write, checked by the runner's Check button
#: (book_runtime.features.track.checks): no solution on the page, a starter in each exercise cell.
CHECKED_EXERCISE_PAGES = {"build-your-own"}


@pytest.mark.parametrize("page", PAGE_PARAMS)
def test_exercises_have_a_hidden_solution_that_checks_itself(page: str) -> None:
    if page == "index":  # the start page has no exercises
        assert "## Exercise" not in prose(page)
        return
    if page in CHECKED_EXERCISE_PAGES:
        _check_checked_exercises(page)
        return
    assert re.search(r"^## Exercises?$", prose(page), re.MULTILINE), f"{page}.md has exercises"
    solutions = [c for c in code_cells(page) if "hide-cell" in c.tags]
    assert solutions, "the solutions are in a code cell tagged hide-cell (a toggle)"
    assert all("assert" in c.source for c in solutions), "each solution asserts its answer"
    for cell in solutions:  # the toggle says what it hides (myst-nb's cell-level prompts)
        assert cell.options.get("code_prompt_show") == '"Show solution"', cell.line
        assert cell.options.get("code_prompt_hide") == '"Hide solution"', cell.line


def _headings(page: str) -> list[str]:
    return re.findall(r"^## (.+)$", prose(page), re.MULTILINE)


def _section(page: str, heading: str) -> str:
    """The text of the page's ``## heading`` section (to the next ``## ``)."""
    text = prose(page)
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _what_shows(page: str) -> list[str]:
    """Each top-level block of the page, in order, as "held" (waits for a predict prompt's
    answer: a cell tagged after-predict, an ``{after-predict}`` block) or "shown"; cells
    the page removes are left out."""
    from markdown_it import MarkdownIt

    blocks = []
    text = (DOCS / f"{page}.md").read_text(encoding="utf-8")
    for token in MarkdownIt("commonmark").parse(text):
        if token.level != 0 or token.type.endswith("_close") or token.type == "inline":
            continue
        if token.type == "fence" and token.info.startswith("{code-cell}"):
            options = token.content.split("\n\n")[0]
            if "remove-cell" in options:
                continue
            blocks.append("held" if "after-predict" in options else "shown")
        elif token.type == "fence" and token.info.strip() == "{after-predict}":
            blocks.append("held")
        else:
            blocks.append("shown")
    return blocks


@pytest.mark.parametrize("page", NOTEBOOK_PAGES)
def test_what_waits_for_a_prompt_is_never_held_twice_back_to_back(page: str) -> None:
    """Two held blocks in a row would show two "gives the answer away" notices one under the
    other: the page says it once."""
    blocks = _what_shows(page)
    assert ["held", "held"] not in [blocks[i : i + 2] for i in range(len(blocks) - 1)]


def test_the_start_page_shows_its_map_right_after_its_idea() -> None:
    """The map comes before the taste; how the browser's Python differs waits at the end."""
    headings = _headings("index")
    assert headings[0] == "The map of the book", headings
    assert headings[-1] == "Under the hood: Python in your browser", headings
    assert "RecursionError" not in prose("index").split("\n## Under the hood")[0]
    assert "private window" in _section("index", "Under the hood: Python in your browser")


def _check_checked_exercises(page: str) -> None:
    """A page of checked exercises: cells tagged ``exercise`` and ``exercise-<id>``, no solution.

    Each exercise cell is one step of the package's track, in its order, and
    the page shows no solution cell: hints and solutions come from the package
    (tests/checks/test_exercises.py checks that the cells hold its starters).
    """
    from book_runtime.features.track.checks import EXERCISES

    cells = code_cells(page)
    exercises = [c for c in cells if "exercise" in c.tags]
    steps = [t.removeprefix("exercise-") for c in exercises for t in c.tags if t != "exercise"]
    assert steps == list(EXERCISES), f"{page}.md: one exercise cell per step, in order"
    assert not any("hide-cell" in c.tags for c in cells), "no solution among the page's cells"
    assert "## Exercise" not in prose(page), "the steps are the exercises"
    headings = re.findall(r"^\(track-([\w-]+)\)=\n## ", prose(page), re.MULTILINE)
    assert headings == steps, "each step has a heading with a (track-<id>)= target"


def _bound(tree: ast.AST) -> set[str]:
    """Every name a piece of code binds, anywhere in it (parameters and locals too)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


@pytest.mark.parametrize("page", PAGE_PARAMS)
def test_the_cells_a_reader_sees_need_none_of_the_hidden_ones(page: str) -> None:
    """The downloaded notebook leaves out the hidden (remove-cell) cells: it must still run.

    A name that a visible cell uses must be bound by a visible cell, not only
    by a hidden one (the setup cell, the glue cells).
    """
    visible: set[str] = set(dir(builtins))
    hidden: set[str] = set()
    problems = []
    for cell in code_cells(page):
        tree = ast.parse(without_magics(cell.source))
        if "remove-cell" in cell.tags:
            hidden |= _bound(tree)
            continue
        bound_here = _bound(tree)
        used = {
            n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
        }
        missing = (used & hidden) - visible - bound_here
        problems += [f"line {cell.line}: {name}" for name in sorted(missing)]
        visible |= bound_here
    assert not problems, f"{page}.md: visible cells use names only hidden cells define: {problems}"


def test_the_training_pages_benchmark_record_needs_none_of_its_cells() -> None:
    """The record of the full run reads the benchmark's file only: a reader's edit of the
    training cell leaves it the build's without calling it out of date."""
    from book_runtime.snippets import runner_needs

    cells = [
        {
            "source": without_magics(c.source),
            "hidden": "remove-cell" in c.tags,
            "buildOnly": "build-only" in c.tags,
        }
        for c in code_cells("gpt-training")
    ]
    record = [k for k, c in enumerate(cells) if "RESULTS_GPT.json" in c["source"]]
    assert len(record) == 1
    assert runner_needs(cells)[record[0]] == []


# -- the claims, page by page ----------------------------------------------------


@in_page_group("index")
def test_the_pytorch_page_prints_each_difference_its_prose_states() -> None:
    """The prose says how closely micrograd agrees with PyTorch, in glued numbers: each
    difference is printed, as the prose shows it, by a cell whose output the reader
    sees, so that the reader can check the sentence against the page."""
    cells = code_cells("pytorch")
    shown = "".join(c.source for c in cells if not {"remove-cell", "remove-output"} & set(c.tags))
    variables = dict(re.findall(r'glue\("(pt_\w+_diff)", (\w+)', "".join(c.source for c in cells)))
    said = re.findall(r"\{glue:text\}`(pt_\w+_diff):(\.\d+e)`", prose("pytorch"))
    assert len(said) == 3, said
    unprinted = [key for key, form in said if f"{{{variables[key]}:{form}}}" not in shown]
    assert not unprinted, f"no cell the reader sees prints these differences: {unprinted}"


def test_start_page_taste_gradients() -> None:
    g = glued("index")
    assert g["taste_c"] == 2.0 * -3.0 + (-3.0) ** 2
    assert g["taste_da"] == -3.0  # dc/da = b
    assert g["taste_db"] == 2.0 + 2 * -3.0  # dc/db = a + 2b


@in_page_group("value")
def test_value_page_builds_the_graph_of_d() -> None:
    run = run_page("value")
    assert run.glued["value_d"] == 2.0 * -3.0 + 10.0
    d = run.namespace["d"]
    assert d._op == "+"
    assert [child.label for child in d._prev] == ["e", "c"]
    assert (d._a, d._b, d._rule) == (run.namespace["e"], run.namespace["c"], type(d)._add_backward)
    assert run.glued["value_f_nodes"] == 7  # a, 2, 2*a, b, 2*a/b, 1, 1 - 2*a/b


@in_page_group("local-rules")
@TORCH
def test_local_rules_table_agrees_with_finite_differences() -> None:
    run = run_page("local-rules")
    assert run.glued["mul_da"] == -3.0
    assert run.glued["mul_db"] == 2.0
    assert run.glued["rules_count"] == 8
    assert 0 <= run.glued["rules_worst"] < 1e-6
    # The prose names the operations the engine records.
    ops = ["**3", "**-0.5", "ReLU", "ReLU", "tanh", "exp", "log", "sigmoid"]
    assert run.namespace["ops"] == ops
    assert run.glued["rules_ops"].data == (
        "`**3`, `**-0.5`, `ReLU`, `tanh`, `exp`, `log`, `sigmoid`"
    )
    # The table fits a phone's column: five columns, the numbers to 6 decimals.
    table = run.markdown[0]
    assert table.startswith("| expression |")
    assert table.splitlines()[0].count("|") == 6


@in_page_group("local-rules")
@TORCH
def test_local_rules_shows_sin_as_a_torch_function_and_checks_it() -> None:
    """The "In PyTorch" box's TorchSin is code the reader sees, run against torch."""
    shown = [c for c in code_cells("local-rules") if "remove-cell" not in c.tags]
    [cell] = [c for c in shown if "class TorchSin(torch.autograd.Function):" in c.source]
    assert "build-only" in cell.tags, "the browser has no torch: the build's output stays"
    assert "ctx.save_for_backward(a)" in cell.source
    assert "def backward(ctx, out_grad):" in cell.source
    assert claimed("local-rules")["pt_sin_function"]["holds"]


@in_page_group("local-rules")
@TORCH
def test_local_rules_shows_the_rules_and_keeps_how_a_node_is_built_under_the_hood() -> None:
    """The story shows the backward rules; ``__add__`` in full, and why a rule is no closure
    (reference cycles), wait in an "Under the hood" section after the exercises."""
    headings = _headings("local-rules")
    assert headings[-2:] == ["Exercises", "Under the hood: how `a + b` builds its node"]
    text = (DOCS / "local-rules.md").read_text(encoding="utf-8")
    story, hood = text.split("\n## Under the hood")
    assert ":pyobject: Value._add_backward" in story
    assert ":pyobject: Value.__add__" not in story
    assert ":pyobject: Value.__add__" in hood
    assert "reference cycle" not in story
    assert "reference cycle" in hood
    assert claimed("local-rules")["hood_add_number_or_not"]["holds"]
    assert claimed("local-rules")["hood_rule_is_static"]["holds"]


@in_page_group("local-rules")
@TORCH
def test_local_rules_adds_sin_through_the_public_extension_point() -> None:
    import torch

    run = run_page("local-rules")
    sin = run.namespace["sin"]
    sources = "".join(cell.source for cell in code_cells("local-rules"))
    assert "from micrograd.engine import new_node" in sources
    assert "return new_node(math.sin(x.data)" in sources
    assert "_node(" not in sources.replace("new_node(", ""), "the public new_node, not _node"
    x = Value(0.3)
    y = sin(x)
    assert y._op == "sin"
    y.backward()
    assert x.grad == math.cos(0.3)
    # dy/dx of y = sin(x*x) * x at x = 0.8, by hand and by torch
    expected = 2 * 0.8**2 * math.cos(0.8**2) + math.sin(0.8**2)
    assert math.isclose(run.glued["sin_grad"], expected, rel_tol=1e-12)
    xt = torch.tensor(0.8, dtype=torch.float64, requires_grad=True)
    (torch.sin(xt * xt) * xt).backward()
    assert math.isclose(run.glued["sin_grad"], xt.grad.item(), rel_tol=1e-12)
    assert run.glued["sin_fd_error"] < 1e-8
    # the exercise's hidden solution adds cos the same way
    cos = run.namespace["cos"]
    z = Value(1.1)
    cos(z).backward()
    assert z.grad == -math.sin(1.1)


@in_page_group("backward")
@TORCH
def test_backward_worked_example(original: Any) -> None:
    g = glued("backward")
    assert g["bw_L"] == -8.0
    assert g["bw_da"] == 6.0
    assert g["bw_db"] == -4.0
    assert g["bw_dc"] == g["bw_de"] == g["bw_dd"] == -2.0
    assert g["bw_df"] == 4.0
    assert g["bw_L_after"] > g["bw_L"]
    # The original micrograd agrees.
    V = original.Value
    a, b, c, f = V(2.0), V(-3.0), V(10.0), V(-2.0)
    L = (a * b + c) * f
    L.backward()
    assert (a.grad, b.grad, c.grad, f.grad) == (g["bw_da"], g["bw_db"], g["bw_dc"], g["bw_df"])


@in_page_group("backward")
@TORCH
def test_backward_page_shows_backward_by_hand_beside_the_engine() -> None:
    # "the two give the same gradients" is shown, not only checked by the build.
    shown = [c for c in code_cells("backward") if not {"remove-cell", "hide-cell"} & set(c.tags)]
    calls = [c for c in shown if "backward_by_hand(" in c.source and "def " not in c.source]
    assert calls, "no shown cell runs backward_by_hand"
    assert "print(" in calls[0].source
    assert "node.grad" in calls[0].source
    assert claimed("backward")["bw_by_hand_is_backward"]["holds"]


@in_page_group("backward")
@TORCH
def test_backward_page_states_the_sum_of_squares_the_rise_is_about() -> None:
    g = glued("backward")
    # dL/da, dL/db, dL/dc, dL/df = 6, -4, -2, 4
    assert g["bw_squares"] == 72.0
    assert math.isclose(g["bw_promised"], g["bw_step"] * 72.0)
    assert math.isclose(g["bw_rise"], g["bw_L_after"] - g["bw_L"])
    assert claimed("backward")["bw_rise_as_promised"]["holds"]
    # A step ten thousand times larger overshoots what the first-order promise says.
    edited = execute_page(
        "backward", [("step = 0.001\n", "step = 10.0\n")], until='"bw_rise_as_promised"'
    )
    assert edited.claims["bw_rise_as_promised"]["holds"] is False


@in_page_group("backward")
@TORCH
def test_backward_page_prints_the_topological_order() -> None:
    run = run_page("backward")
    assert [n.label for n in run.namespace["order"]][-1] == "L"
    assert "a -> b -> e -> c -> d -> f -> L" in run.stdout


@in_page_group("backward")
@TORCH
def test_backward_page_runs_the_recursion_its_readers_propose() -> None:
    run = run_page("backward")
    g = run.glued
    assert (g["wo_right_q"], g["wo_right_a"], g["wo_right_b"]) == (11.0, -33.0, 22.0)
    # q's rule ran at 1.0 (L's share only), then again at 11.0: a and b got L's share twice.
    assert g["wo_q_first"] == 1.0
    assert (g["wo_wrong_q"], g["wo_wrong_a"], g["wo_wrong_b"]) == (11.0, -36.0, 24.0)
    assert "engine order: L → r → q\nrecursive:    L → q → r → q\n" in run.stdout
    assert "q.grad when q's rule ran: 1.0 11.0\n" in run.stdout


@in_page_group("backward")
@TORCH
def test_backward_page_says_when_the_recursion_is_right() -> None:
    # With q used once, the recursion runs each rule once, after its whole gradient.
    once = execute_page("backward", [("    L = q + r\n", "    L = r + c\n")], until="wo_a_b_wrong")
    verdicts = {key: verdict["holds"] for key, verdict in once.claims.items()}
    assert not verdicts["wo_q_twice_first_early"]
    assert not verdicts["wo_a_twice_L_share"]
    assert not verdicts["wo_a_b_wrong"]


@in_page_group("accumulate")
@TORCH
def test_accumulate_page_shows_the_overwriting_bug() -> None:
    g = glued("accumulate")
    assert g["acc_twice"] == 2.0
    assert g["acc_wrong_twice"] == 1.0
    assert g["acc_accumulating"] == 3.0  # b + 1 with b = 2
    assert g["acc_overwriting"] == 2.0
    assert math.isclose(g["acc_numeric"], 3.0, rel_tol=1e-8)
    assert g["acc_first"] == 3.0
    assert g["acc_second"] == 8.0  # not 6: the inner node kept its gradient too


@in_page_group("accumulate")
@TORCH
def test_accumulate_pytorch_box_checks_each_claim_against_torch() -> None:
    """The box a PyTorch reader expects: leaf .grad accumulates there too, why the second
    pass there is a clean doubling, and who does the adding (its engine, not its rules)."""
    boxes = [c for c in prose("accumulate").split(":::{admonition}") if ":class: in-pytorch" in c]
    assert len(boxes) == 2  # what a training loop needs, then the rest folded
    keys = {parse(m["content"]).key for box in boxes for m in ROLE.finditer(box)}
    assert keys == {
        "acc_pt_accumulates",
        "acc_pt_zero_grad",
        "acc_pt_micro_batches",
        "acc_pt_doubles",
        "acc_pt_engine_adds",
    }
    claims = claimed("accumulate")
    assert all(claims[key]["holds"] for key in keys)
    cells = [c for c in code_cells("accumulate") if "torch." in c.source]
    assert len(cells) == 2  # what a training loop relies on; this page's L, backward twice
    for cell in cells:
        assert {"remove-cell", "build-only"} <= set(cell.tags), "the browser has no torch"
    g = glued("accumulate")
    assert (g["acc_pt_first"], g["acc_pt_second"]) == (3.0, 6.0)
    assert g["acc_pt_second"] != g["acc_second"], "here the inner node passes its grad on again"


def test_accumulate_pytorch_box_names_retain_graph_before_the_doubling() -> None:
    """A second pass raises in PyTorch without retain_graph (backward()'s box shows it, and
    this box points back there): the doubling's sentence names retain_graph before its
    numbers, as the build's code calls it."""
    [box] = [
        c
        for c in prose("accumulate").split(":::{admonition}")
        if ":class: in-pytorch" in c and "acc_pt_doubles:" in c
    ]
    doubling = box[box.index("acc_pt_doubles:") :]
    assert doubling.index("retain_graph=True") < doubling.index("acc_pt_first")
    assert "(backward.md#exercises)" in doubling
    [cell] = [c for c in code_cells("accumulate") if "def torch_example" in c.source]
    assert "pt_L.backward(retain_graph=True)\npt_first = pt_a.grad.item()" in cell.source


NEURON_GRADS = {"dn": 0.5, "dx1": -1.5, "dw1": 1.0, "dx2": 0.5, "dw2": 0.0}


@in_page_group("neuron")
def test_neuron_output_and_gradients(neuron: NeuronBuilder) -> None:
    g = glued("neuron")
    assert round(g["neuron_o"], 4) == 0.7071
    for key, expected in NEURON_GRADS.items():
        assert math.isclose(g[f"neuron_{key}"], expected, abs_tol=1e-12), key
    assert math.isclose(g["neuron_db"], 0.5, abs_tol=1e-12)
    # The chain rule by hand, in plain floats.
    x1, x2, w1, w2, b = (leaf.data for leaf in neuron().leaves)
    o = math.tanh(x1 * w1 + x2 * w2 + b)
    dn = 1 - o**2
    assert math.isclose(g["neuron_o"], o, rel_tol=1e-15)
    assert math.isclose(g["neuron_o"], math.sqrt(0.5), rel_tol=1e-12)
    # Why these numbers: the bias lifts the weighted sum to n = atanh(1/sqrt 2),
    # so o = 1/sqrt 2, o**2 = 1/2 and tanh's local derivative is 1/2.
    assert g["neuron_sum"] == x1 * w1 + x2 * w2 == -6.0
    assert g["neuron_b"] == b
    assert math.isclose(g["neuron_n"], g["neuron_atanh"], rel_tol=1e-15)
    assert math.isclose(math.tanh(g["neuron_atanh"]), 1 / math.sqrt(2), rel_tol=1e-15)
    assert math.isclose(g["neuron_o_squared"], 0.5, rel_tol=1e-15)
    expected = {"dx1": w1 * dn, "dw1": x1 * dn, "dx2": w2 * dn, "dw2": x2 * dn}
    for key, value in expected.items():
        assert math.isclose(g[f"neuron_{key}"], value, rel_tol=1e-15), key


@in_page_group("neuron")
def test_neuron_with_tanh_from_exp_has_the_same_gradients() -> None:
    g = glued("neuron")
    assert math.isclose(g["neuron_exp_o"], g["neuron_o"], abs_tol=1e-12)
    for key in NEURON_GRADS:
        assert math.isclose(g[f"neuron_exp_{key}"], g[f"neuron_{key}"], abs_tol=1e-12), key


@in_page_group("neuron")
def test_every_box_of_the_neuron_built_from_exp_has_a_label() -> None:
    """The drawing of tanh from exp names every value it draws, the constants too."""
    from micrograd.viz.draw import draw_dot

    drawing = draw_dot(run_page("neuron").namespace["o2"])
    boxes = [line for line in drawing.body if "shape=record" in line]
    labels = [re.search(r'label="\{ (.*?) \| data', box) for box in boxes]
    assert len(boxes) == glued("neuron")["neuron_exp_nodes"]
    assert all(found is not None and found[1].strip() for found in labels), boxes


@in_page_group("neuron")
def test_neuron_from_exp_says_which_of_its_numbers_an_edit_changed() -> None:
    # backward() twice: the output is the first neuron's, the gradients doubled.
    twice = execute_page(
        "neuron", [("o2.backward()", "o2.backward()\no2.backward()")], until='"neuron_exp_agrees"'
    )
    assert twice.claims["neuron_exp_agrees"]["holds"] is False
    assert twice.glued["neuron_exp_differs"] == (
        "its output is the first neuron's, 0.7071, but its gradients are not"
    )
    steeper = execute_page(
        "neuron",
        [('two_n = Value(2.0, label="2") * n', 'two_n = Value(3.0, label="3") * n')],
        until='"neuron_exp_agrees"',
    )
    o = steeper.namespace["o2"].data
    assert steeper.glued["neuron_exp_differs"] == (
        f"neither its output, {o:.4f}, nor its gradients are the first neuron's"
    )


@in_page_group("mlp")
@TORCH
def test_mlp_page_trains_the_four_points() -> None:
    run = run_page("mlp")
    g = run.glued
    assert g["mlp_params"] == 41  # 4*(3+1) + 4*(4+1) + 1*(4+1)
    assert g["mlp_steps"] == 20
    losses = run.namespace["log"].column("loss")
    assert all(b < a for a, b in itertools.pairwise(losses)), "the loss falls at every step"
    assert g["mlp_first_loss"] == losses[0]
    assert g["mlp_last_loss"] == losses[-1]
    assert g["mlp_last_loss"] < 0.05 * g["mlp_first_loss"]
    predictions = [g[f"mlp_pred{i}"] for i in range(4)]
    assert [math.copysign(1, p) for p in predictions] == [1.0, -1.0, -1.0, 1.0]
    assert all(abs(p - t) < 0.1 for p, t in zip(predictions, [1.0, -1.0, -1.0, 1.0], strict=True))


@in_page_group("mlp")
@TORCH
def test_mlp_page_matches_a_direct_run_of_the_same_recipe() -> None:
    import random

    from micrograd import MLP

    g = glued("mlp")
    random.seed(1337)
    xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    ys = [1.0, -1.0, -1.0, 1.0]
    model = MLP(3, [4, 4, 1], activation="tanh", output_activation="tanh")
    for _ in range(20):
        ypred = [model(x) for x in xs]
        loss = sum((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred, strict=True))
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data -= 0.1 * p.grad
    assert loss.data == g["mlp_last_loss"]
    assert [y.data for y in ypred] == [g[f"mlp_pred{i}"] for i in range(4)]


@in_page_group("mlp")
@TORCH
def test_mlp_pytorch_box_says_an_update_through_data_is_untracked_there_too() -> None:
    assert claimed("mlp")["pt_update_through_data"]["holds"]
    assert claimed("mlp")["pt_update_needs_no_grad"]["holds"]


@in_page_group("mlp")
@TORCH
def test_mlp_page_says_the_numbers_of_a_step_its_table_does_not_print() -> None:
    """The table prints every 4th step: a step the prose names off those rows comes with its
    loss, so that the reader need not find it in the plot."""
    g = run_page("mlp").glued
    for step, loss in [("zg_spike", "zg_spike_loss"), ("zg_stuck", "zg_stuck_loss")]:
        paragraph = next(p for p in prose("mlp").split("\n\n") if f"`{step}`" in p)
        if g[step] % 4:
            assert f"`{loss}:" in paragraph, f"step {g[step]} is named without its loss"


@in_page_group("mlp")
@TORCH
def test_mlp_page_explains_the_run_without_zero_grad() -> None:
    run = run_page("mlp")
    g = run.glued
    with_, without = run.namespace["losses_with"], run.namespace["losses_without"]
    # the peak before the run settles, the step the prose names; it improved before it
    assert g["zg_spike_loss"] == max(without[1 : g["zg_stuck"]])
    assert g["zg_spike_loss"] > without[0] > min(without[: g["zg_spike"]])
    # the table's row where the drifting run is better than the right one, before it sticks
    assert g["zg_fit"] % 4 == 0, "a row of the table, which prints every 4th step"
    assert g["zg_spike"] < g["zg_fit"] < g["zg_stuck"]
    assert g["zg_fit_loss"] < g["zg_fit_with"] == with_[g["zg_fit"]]
    assert f"{g['zg_fit_loss']:.4f}" == "0.0000"
    assert g["zg_stuck_loss"] == without[-1]


def _sentences(paragraph: str) -> list[str]:
    """The sentences of a paragraph as read: roles' keys, wordings' alternatives and marks gone."""
    text = re.sub(r"\{glue(?::\w+)?\}`([\w-]+)(?::[^`]*)?`", r"\1", paragraph)
    wording = r"\{claim\}``[\w-]+::? ?((?:(?!``).)*?)(?: \|\|(?:(?!``).)*)?``"
    text = re.sub(wording, r"\1", text, flags=re.S)
    return [s for s in re.split(r"(?<=[.!?])\s+", _as_read(text).replace("\n", " ")) if s.strip()]


def test_mlp_explains_forgetting_zero_grad_in_short_sentences() -> None:
    # A beginner reads what went wrong and why in plain sentences, none longer than 25 words.
    section = prose("mlp").split("## Forgetting `zero_grad()`")[1].split("\n## ")[0]
    paragraphs = section.replace("**", "").split("\n\n")
    long = [s for p in paragraphs for s in _sentences(p) if len(s.split()) > 25]
    assert not long, f"sentences too long for a beginner: {long}"


def test_mlp_leads_forgetting_zero_grad_with_the_symptom_to_check() -> None:
    # A reader debugging a loss finds the one line they need first, and a few numbers after
    # the run, not a walk through it step by step.
    section = prose("mlp").split("## Forgetting `zero_grad()`")[1].split("\n## ")[0]
    lead, *after_the_run = [p for p in section.replace("**", "").split("\n\n") if p.strip()]
    assert (
        _sentences(lead)[0]
        == "A loss that improves, spikes, then sticks at a constant: check zero_grad()."
    )
    told = _sentences("\n\n".join(after_the_run))
    assert len(told) <= 5, told


@in_page_group("mlp")
@TORCH
def test_mlp_page_says_no_peak_or_fit_of_a_run_that_has_neither() -> None:
    # At 0.15 the run without resets climbs to 7.99 at step 9 and sits at 8.0 from step 12:
    # no peak before it settles, and no weights that fit the four points on the way.
    assert claimed("mlp")["zg_spike_peaks"]["holds"]
    assert claimed("mlp")["zg_fit_below"]["holds"]
    run = execute_page("mlp", [("learning_rate = 0.1", "learning_rate = 0.15")])
    assert run.claims["zg_spike_peaks"]["holds"] is False
    assert run.claims["zg_fit_below"] == {
        "holds": False,
        "otherwise": True,
        "about": "0 of steps 20 to 19 fit all four points, its lowest loss there 8.0000",
        "anyInput": False,
    }


MOONS_FINAL_LOSS = 0.010978370135492717  # the original micrograd demo's last printed loss


@in_page_group("moons")
@NO_COVER
@ONE_PYTHON
def test_moons_page_reproduces_the_original_demo() -> None:
    g = glued("moons")
    assert g["moons_points"] == 100
    assert g["moons_params"] == 337  # 16*(2+1) + 16*(16+1) + 1*(16+1)
    assert g["moons_steps"] == 100
    assert abs(g["moons_final_loss"] - MOONS_FINAL_LOSS) < 1e-9
    assert g["moons_final_acc"] == 100.0
    assert math.isclose(g["moons_lr_last"], 1.0 - 0.9 * 99 / 100)
    assert g["moons_loss0"] > g["moons_final_loss"]


@in_page_group("moons")
@NO_COVER
@ONE_PYTHON
def test_moons_page_is_the_demo_only_while_the_run_is() -> None:
    assert claimed("moons")["moons_is_the_demo"] == {
        "holds": True,
        "otherwise": True,
        "about": "",
        "anyInput": False,
    }
    constant = execute_page(
        "moons",
        [
            ("steps = 100", "steps = 30"),
            ("learning_rate = 1.0 - 0.9 * k / steps", "learning_rate = 0.1"),
        ],
    )
    assert constant.claims["moons_is_the_demo"] == {
        "holds": False,
        "otherwise": True,
        "about": "its learning-rate schedule is not the demo's",
        "anyInput": False,
    }


@in_page_group("moons")
@NO_COVER
@ONE_PYTHON
def test_moons_page_says_a_constant_learning_rate_plainly() -> None:
    assert glued("moons")["moons_lr_run"] == "from 1.000 at the first step to 0.109 at the last"
    constant = execute_page(
        "moons",
        [
            ("steps = 100", "steps = 3"),
            ("learning_rate = 1.0 - 0.9 * k / steps", "learning_rate = 0.1"),
        ],
        until='"moons_lr_decays_linearly"',
    )
    assert constant.claims["moons_lr_decays_linearly"]["holds"] is False
    assert constant.glued["moons_lr_run"] == "0.100 at every step"


@in_page_group("moons")
@NO_COVER
@ONE_PYTHON
def test_moons_page_says_no_rise_fall_swing_or_step_of_a_run_that_does_not_move() -> None:
    # A learning rate of 0 moves no parameter: the loss after the first step is the
    # loss before it, and neither "rises" nor "falls" is true.
    still = execute_page(
        "moons",
        [
            ("steps = 100", "steps = 3"),
            ("learning_rate = 1.0 - 0.9 * k / steps", "learning_rate = 0.0"),
        ],
        until='"moons_lr_shrinks"',
    )
    rises = still.claims["moons_loss_rises"]
    assert (rises["holds"], rises["otherwise"]) == (False, False)
    before, _, after = rises["about"].removeprefix("from ").partition(" to ")
    assert before == after, rises["about"]
    # The first step's paragraph: no step, no swing, as many points right as wrong.
    for key in ("spike_step_large", "spike_most_right_after"):
        said = still.claims[key]
        assert (said["holds"], said["otherwise"]) == (False, False), (key, said)
    assert still.claims["spike_scores_move"]["holds"] is False


@in_page_group("local-rules")
@TORCH
def test_local_rules_says_y_is_sin_x2_x_only_of_a_y_that_is() -> None:
    assert claimed("local-rules")["sin_in_y"]["holds"]
    edited = execute_page("local-rules", [("y = s * x\n", "y = s * x + x\n")], until='"sin_in_y"')
    assert edited.claims["sin_in_y"]["holds"] is False
    assert edited.claims["sin_in_y"]["about"] == (
        "y = 1.277756 at x = 0.8, where sin(x**2) * x = 0.477756"
    )


@in_page_group("local-rules")
@TORCH
def test_local_rules_chain_rule_picture_adds_its_paths_up_to_the_engines_grad() -> None:
    run = run_page("local-rules")
    assert run.glued["cr_paths"] == 2
    assert run.glued["cr_sum"] == run.glued["cr_grad"] == -27.0
    assert claimed("local-rules")["cr_sum_is_grad"]["holds"]
    # A reader who draws the paths before backward(): a.grad is still 0, the sum is not.
    edited = execute_page(
        "local-rules", [("L.backward()\ndraw_paths", "draw_paths")], until='"cr_sum_is_grad"'
    )
    assert edited.claims["cr_sum_is_grad"]["holds"] is False
    assert edited.claims["cr_sum_is_grad"]["about"] == "the paths add up to -27.0, a.grad is 0.0"
    # A reader who uses a a third time, in L: three paths, still the engine's grad.
    edited = execute_page(
        "local-rules", [("L = b * c\n", "L = b * c * a\n")], until='"cr_sum_is_grad"'
    )
    assert edited.glued["cr_paths"] == 3
    assert edited.claims["cr_sum_is_grad"]["holds"] is True


@in_page_group("pytorch")
@TORCH
def test_pytorch_page_agrees_with_torch() -> None:
    import torch

    g = glued("pytorch")
    assert g["torch_version"] == torch.__version__.split("+")[0] == "2.13.0"
    assert g["pt_neuron_diff"] < 1e-12
    assert g["pt_expr_diff"] < 1e-9
    assert g["pt_net_diff"] < 1e-12
    assert g["pt_net_count"] == 41


# -- the words read well once code formatting is gone ---------------------------------


def _as_read(text: str) -> str:
    """The prose as a reader's screen reader or copy-paste has it: code marks dropped."""
    return re.sub(r"`+([^`]*)`+", r"\1", text)


@pytest.mark.parametrize("page", PAGE_PARAMS)
def test_no_variable_runs_into_a_word_spelled_like_it(page: str) -> None:
    # "raising `a` a little" reads "raising a a little" once the code marks are gone.
    doubled = [
        m.group(0)
        for m in re.finditer(r"(?<![\w.])(\w+)\s+\1(?![\w(])", _as_read(prose(page)), re.I)
    ]
    assert not doubled, f"{page}.md repeats a word: {doubled}"


# -- the story needs only what the story taught ----------------------------------------

#: The engine's slots, which only the Value page's skippable "Under the hood" names.
HOOD_SLOTS = re.compile(r"`(_rule|_a|_b)`")
#: The pages before "Why it's fast", which names the slots in its own story.
STORY_PAGES = NOTEBOOK_PAGES[: NOTEBOOK_PAGES.index("moons") + 1]


def _outside_under_the_hood(text: str) -> str:
    sections = re.split(r"^(#+ .*)$", text, flags=re.M)
    kept, skipping = [], False
    for part in sections:
        if re.match(r"#+ ", part):
            skipping = part.lstrip("# ").startswith("Under the hood")
        elif not skipping:
            kept.append(part)
    return "".join(kept)


@pytest.mark.parametrize("page", STORY_PAGES)
def test_the_story_names_no_slot_only_under_the_hood_introduces(page: str) -> None:
    named = HOOD_SLOTS.findall(_outside_under_the_hood(prose(page)))
    assert not named, f"{page}.md's story uses {named}, which only 'Under the hood' teaches"


# -- Part II: the GPT's pages ------------------------------------------------------------------


@in_page_group("gpt-tokens")
def test_tokens_page_counts_the_names_and_their_lessons() -> None:
    from micrograd.datasets import names

    g = glued("gpt-tokens")
    docs = names()
    assert g["tokens_count"] == len(docs)
    assert g["tokens_distinct"] == len(set(docs))
    assert (g["tokens_vocab"], g["tokens_bos"]) == (27, 26)  # a..z and the start/end token
    assert g["tokens_emma_length"] == 6  # bos, e, m, m, a, bos
    assert g["tokens_all_lessons"] == sum(len(doc) + 1 for doc in docs)
    assert g["tokens_positions"] == 16  # the longest name, 15 letters, and its end


@in_page_group("gpt-embeddings")
def test_embeddings_page_moves_only_the_rows_the_name_used() -> None:
    run = run_page("gpt-embeddings")
    g = run.glued
    assert g["emb_rows_moved"] == 4  # bos, e, m, a: the final bos is only guessed
    assert (g["emb_positions_moved"], g["emb_positions_still"]) == (5, 11)
    assert g["emb_table_params"] == (27 + 16) * 16
    assert g["emb_loss_after"] < g["emb_loss_before"]


def _shade_of(mesh: Any, row: int, column: int) -> tuple[float, ...]:
    """The colour a heat map drew one square in (its rows as given, row by row)."""
    mesh.update_scalarmappable()
    columns = mesh.get_array().shape[1]
    return tuple(mesh.get_facecolor()[row * columns + column])


def _key_shades(axes: Any) -> list[tuple[float, ...]]:
    return [tuple(handle.get_facecolor()) for handle in axes.get_legend().legend_handles]


@in_page_group("gpt-embeddings")
def test_embeddings_heat_maps_key_has_the_maps_own_shades() -> None:
    """The key's lightest and darkest swatches are the map's white and its darkest square."""
    ns = run_page("gpt-embeddings").namespace
    sizes, mesh = ns["sizes"], ns["mesh"]
    lightest, _, darkest = _key_shades(ns["axes"])
    flat = [(size, r, c) for r, row in enumerate(sizes) for c, size in enumerate(row)]
    assert lightest == _shade_of(mesh, *min(flat)[1:])
    assert darkest == _shade_of(mesh, *max(flat)[1:])
    assert lightest != darkest


@in_page_group("gpt-attention")
def test_attention_heat_maps_key_has_the_maps_own_shades() -> None:
    """Weights 0, 0.5 and 1 in the key are the shades the map draws them in."""
    import matplotlib.pyplot as plt

    ns = run_page("gpt-attention").namespace
    figure, axes = plt.subplots()
    mesh = ns["draw"](axes, [[1.0], [0.5, 0.5], [0.0, 0.0, 1.0]], "test")
    ns["key"](axes, mesh)
    shades = _key_shades(axes)
    plt.close(figure)
    assert shades == [_shade_of(mesh, 2, 0), _shade_of(mesh, 1, 0), _shade_of(mesh, 0, 0)]
    assert len(set(shades)) == 3


@in_page_group("gpt-softmax")
def test_softmax_page_checks_the_pairs_rule_against_the_engine() -> None:
    run = run_page("gpt-softmax")
    g = run.glued
    e = [math.exp(z) for z in (2.0, 1.0, 0.1)]
    p = [x / sum(e) for x in e]
    assert [g["sm_pa"], g["sm_pb"], g["sm_pc"]] == pytest.approx(p, abs=1e-15)
    assert [g["sm_da"], g["sm_db"], g["sm_dc"]] == pytest.approx([p[0] - 1, p[1], p[2]])
    assert g["sm_loss"] == pytest.approx(-math.log(p[0]))
    assert g["sm_rule_error_three"] < 1e-12
    assert g["sm_model_gap"] < 1e-12
    assert g["sm_uniform"] == pytest.approx(math.log(27))
    # The page's nudge reads `loss` after the whole page has run: the three logits' loss,
    # a graph of the engine's own operations, which a nudge computes again.
    from book_runtime.features.nudge.runtime import Nudge

    ns = run.namespace
    assert ns["loss"].data == pytest.approx(-math.log(p[0]))
    nudge = Nudge(ns["loss"], {name: ns[name] for name in "abc"})
    reply = nudge.set("b", 1.0 + 1e-4)
    assert reply.delta_out == pytest.approx(p[1] * 1e-4, rel=1e-3)  # b's gradient is p_b


@in_page_group("gpt-attention")
def test_attention_page_watches_the_models_own_weights_and_leaves_it_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from micrograd.gpt import Attention

    run = run_page("gpt-attention")
    attention = run.namespace["attention"]
    assert "head" not in vars(attention)  # the watcher is gone: the model's own head again
    per_head = run.namespace["per_head"]
    assert [len(rows) for rows in per_head] == [len("isabella") + 1] * attention.n_head
    assert run.glued["att_bos_weight"] == per_head[0][3][0]
    # The weights the watcher notes are those the model's head weighs its values with.
    calls = []
    model_head = Attention.head

    def spy(self: Attention, q: list[Value], keys: list[Any], values: list[Any]) -> list[Value]:
        out = model_head(self, q, keys, values)
        calls.append((values, [o.data for o in out]))
        return out

    monkeypatch.setattr(Attention, "head", spy)
    noted, _ = run.namespace["watched"]("bob")
    assert len(calls) == 4 * attention.n_head  # bos, b, o, b: each head at each position
    for k, (values, out) in enumerate(calls):
        weights = noted[k % attention.n_head][k // attention.n_head]
        for j, o in enumerate(out):
            assert o == pytest.approx(
                sum(w * v[j].data for w, v in zip(weights, values, strict=True))
            )


#: The pages a reader reads before the training page asks for the model's parameter count.
BEFORE_THE_PARAMETER_PROMPT = PAGE_PARAMS[: NOTEBOOK_PAGES.index("gpt-training")]


@pytest.mark.parametrize("page", BEFORE_THE_PARAMETER_PROMPT)
def test_no_page_before_the_training_page_gives_its_parameter_count_away(page: str) -> None:
    # The training page's predict prompt asks for the count: nothing read before it says it.
    from micrograd.gpt import GPT

    count = len(GPT(27).parameters())
    run = run_page(page)
    said = re.compile(rf"(?<![\d,.]){count:,}(?![\d,])|(?<![\d.]){count}(?!\d)")
    assert not said.search(run.stdout), f"{page}.md prints {count}"
    assert count not in run.glued.values(), f"{page}.md glues {count}"


@in_page_group("gpt-sampling")
@NO_COVER
@ONE_PYTHON
def test_sampling_page_follows_the_temperatures_the_reader_tries() -> None:
    # The page invites other temperatures: the hidden cells follow the cells' own, and the
    # claim about 0.1, which the edited cell no longer draws at, is marked, not crashed.
    run = execute_page(
        "gpt-sampling",
        [
            ("steps = 300", "steps = 30"),
            ("for temperature in (0.1, 0.5, 1.0, 2.0):", "for temperature in (0.5, 2.0):"),
            ("for temperature in (0.1, 2.0):", "for temperature in (0.5, 2.0):"),
        ],
    )
    g = run.glued
    assert (g["samp_cold_t"], g["samp_hot_t"]) == (0.5, 2.0)
    assert re.fullmatch(r"\d\.\d{3} at 2, \d\.\d{3} at 0\.5", g["samp_top_list"])
    assert run.claims["samp_cold_repeats"] == {
        "holds": False,
        "otherwise": False,
        "about": "your cell draws no names at 0.1",
        "anyInput": False,
    }
    # microgpt's 0.5 is now the coldest the cell draws at, not between the two.
    assert run.claims["samp_microgpt_between"]["holds"] is False
    assert run.claims["samp_microgpt_between"]["about"] == "you drew at 0.5 and 2"
    assert claimed("gpt-sampling")["samp_microgpt_between"]["holds"]  # the page as built
    one = execute_page(
        "gpt-sampling",
        [
            ("steps = 300", "steps = 30"),
            ("for temperature in (0.1, 0.5, 1.0, 2.0):", "for temperature in (0.5,):"),
            ("for temperature in (0.1, 2.0):", "for temperature in (0.5,):"),
        ],
    )
    for key, about in [
        ("samp_cold_sharpens", "your cell tries one temperature only"),
        ("samp_cold_more_real", "your cell draws at one temperature only"),
    ]:
        assert one.claims[key]["holds"] is False
        assert one.claims[key]["otherwise"] is False
        assert one.claims[key]["about"] == about


@in_page_group("gpt-adam")
@NO_COVER
@ONE_PYTHON
def test_adam_page_names_the_sgd_runs_by_their_rates_in_its_sentence() -> None:
    # "the better SGD run (rate 0.1)": the run's name without "SGD, ", which the sentence says.
    g = glued("gpt-adam")
    assert (g["adam_best_sgd"], g["adam_slow_sgd"]) == ("rate 0.1", "rate 0.01")


@in_page_group("gpt-attention")
def test_attention_page_says_the_untrained_heads_differ_only_a_little() -> None:
    run = run_page("gpt-attention")
    per_head = run.namespace["per_head"]
    gap = max(
        abs(a - b)
        for h in per_head
        for k in per_head
        for row_h, row_k in zip(h, k, strict=True)
        for a, b in zip(row_h, row_k, strict=True)
    )
    assert run.glued["att_heads_gap"] == pytest.approx(gap)
    assert 0 < gap < run.namespace["HEADS_ALIKE"]
    assert run.claims["att_heads_differ_little"]["holds"]


@in_page_group("gpt-training")
@NO_COVER
@ONE_PYTHON
def test_training_page_says_the_losses_its_charts_start_from() -> None:
    # Each sentence's first loss is a mean over 20 names, as the chart's points are, and the
    # benchmark's chart starts where its sentence does.
    run = run_page("gpt-training")
    g = run.glued
    log = run.namespace["log"]
    assert g["train_window"] == 20
    assert g["train_first"] == log.rows[19].loss
    full = run.namespace["full"]
    assert g["full_first"] == pytest.approx(sum(full[:20]) / 20)
    first = run.namespace["full_log"].rows[0]  # the chart's first point
    assert (first.step, first.loss) == (20, g["full_first"])
