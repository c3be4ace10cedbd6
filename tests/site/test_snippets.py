"""A page's cells as scripts that run by themselves (book_runtime.snippets).

The rule (which cells a cell needs) is the runner's; the scripts are what
"Copy as a script" copies.  browser_tests/test_snippets.py runs every cell of
every built page as its script; these tests check the rule and the script's
forms on small pages, and run a few scripts in a fresh interpreter.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from book_runtime import snippets
from executed_notebooks.scripts import BUILD_ONLY_TAG, HIDDEN_TAGS, offered_wheel
from pages import code_cells, glued, in_page_group
from scripts import ROOT, run_python

PAGE: dict[str, Any] = {
    "title": "A page",
    "name": "guide/page",
    "file": "guide/page.md",
    "book": "the book",
    "url": None,
    "requirements": {"torch": "torch==2.13.0"},
}


def cell(
    source: str,
    hidden: bool = False,
    build_only: bool = False,
    kind: str | None = None,
) -> dict[str, Any]:
    """A code cell as the manifest gives it; ``kind``: what the build showed of its last line."""
    last = snippets.last_expression(source)
    shows = None if last is None else {"kind": kind, "expression": ast.unparse(last)}
    return {"source": source, "hidden": hidden, "buildOnly": build_only, "shows": shows}


def needed(cells: list[dict[str, Any]], k: int) -> list[int]:
    return snippets.runner_needs(cells)[k]  # type: ignore[no-any-return]


def body(script: str) -> str:
    """The script without its header (the comment lines before the first blank line)."""
    return script.split("\n\n", 1)[1]


# -- the rule ----------------------------------------------------------------------------------


def test_a_cell_needs_the_providers_of_what_it_reads_and_of_what_they_read() -> None:
    cells = [cell("a = 1"), cell("b = a + 1"), cell("unrelated = 5"), cell("print(b)")]
    assert needed(cells, 3) == [0, 1]


def test_a_cell_that_may_change_a_name_provides_it_too() -> None:
    cells = [
        cell("log = []"),
        cell("log.append(1)"),  # a method call may change log
        cell("log[0] = 2"),  # an item store does
        cell("print(log)"),
    ]
    assert needed(cells, 3) == [0, 1, 2]


def test_a_call_of_a_page_function_changes_what_is_passed_to_it() -> None:
    cells = [
        cell("def train(m):\n    m.append(1)"),
        cell("model = []"),
        cell("train(model)"),
        cell("print(model)"),
    ]
    assert needed(cells, 3) == [0, 1, 2]


def test_the_runner_follows_no_build_only_cell_and_a_script_takes_no_hidden_one() -> None:
    cells = [
        cell("import torch", build_only=True),
        cell("t = torch.ones(1)", build_only=True),
        cell("from myst_nb import glue", hidden=True, build_only=True),
        cell("x = 2"),
        cell("glue('x', x)\nx.bit_length()", hidden=True),  # a method call: may change x
        cell("print(t, x)", build_only=True),
    ]
    assert needed(cells, 5) == [3, 4]  # in the browser: no build-only cell runs
    assert list(snippets.script_needs(cells, 5)) == [0, 1, 3]  # the cells a reader sees


def test_the_runners_analysis_gives_each_cell_its_facts_what_it_may_change_and_its_needs() -> None:
    """What the worker answers for the reader's code, and the build writes for the page's."""
    cells = [
        cell("import random\nlog = []\ndef train(m):\n    m.append(1)\n    log.append(m)"),
        cell("model = []\nrandom.seed(1)"),
        cell("train(model)"),
        cell("print(model, log"),  # does not parse: no facts, needs nothing
        cell("print(model)"),
    ]
    found = json.loads(snippets.analysis_from_json(json.dumps({"cells": cells})))
    assert [entry["needs"] for entry in found] == snippets.runner_needs(cells)
    assert found[4]["needs"] == [0, 1, 2]
    assert found[3]["needs"] == []
    assert "error" in found[3]["names"]
    assert found[1]["names"]["defines"] == ["model"]
    # A call of a page function may change what is passed to it and the globals it
    # changes; a method call on a module changes no name of the page.
    assert found[2]["watches"] == ["log", "model"]
    assert found[1]["watches"] == ["model"]
    assert found[3]["watches"] == []


def test_a_cell_needed_for_its_imports_alone_gives_a_script_those_imports_alone() -> None:
    cells = [
        cell("import math\nfrom random import random, seed\nwhere = 'the first cell'"),
        cell("seed(1)\nprint(math.pi)"),
    ]
    assert snippets.script_needs(cells, 1) == {0: {"math", "seed"}}
    script = snippets.script(cells, 1, PAGE)
    assert "# -- cell 1's imports --\nimport math\nfrom random import seed\n" in script
    assert "where" not in script
    assert "cell 1's imports" in script.split("\n\n")[0]  # the header says so


def test_a_cell_numbered_as_the_page_shows_it() -> None:
    cells = [cell("a = 1", hidden=True), cell("b = 2"), cell("c = 3", hidden=True), cell("d")]
    assert [snippets.cell_number(cells, k) for k in (1, 3)] == [1, 2]
    with pytest.raises(ValueError, match="hidden"):
        snippets.cell_number(cells, 2)


# -- the script's code ------------------------------------------------------------------------


def test_the_cells_it_needs_run_silently_and_the_cell_itself_as_written() -> None:
    cells = [
        cell("x = 3  # three\nprint('x is', x)\nfor k in range(2):\n    print(k)\nx", kind="value"),
        cell("y = x * 2\nprint(y)"),
    ]
    assert body(snippets.script(cells, 1, PAGE)) == (
        "# -- cell 1 --\n"
        "x = 3  # three\n"
        "for k in range(2):\n"
        "    pass\n"
        "\n"
        "# -- cell 2 --\n"
        "y = x * 2\n"
        "print(y)\n"
    )


def test_a_print_inside_a_function_stays_it_is_the_functions_work() -> None:
    cells = [cell("def say(v):\n    print(v)\nsay(0)"), cell("say(1)")]
    assert "def say(v):\n    print(v)\nsay(0)\n" in snippets.script(cells, 1, PAGE)


def test_the_books_machinery_is_left_out() -> None:
    cells = [
        cell(
            "%config InlineBackend.figure_formats = ['svg']\n"
            "from myst_nb import glue\n"
            "import math\n"
            "r = math.sqrt(2)\n"
            "glue('r', r, display=False)\n"
            "if r > 1:\n"
            "    claim('big', r > 1)\n"
        ),
        cell("print(r)"),
    ]
    code = body(snippets.script(cells, 1, PAGE))
    for machinery in ("%config", "myst_nb", "glue", "claim"):
        assert machinery not in code
    assert "if r > 1:\n    pass" in code


def test_a_shown_value_is_printed_with_repr_and_a_trailing_semicolon_shows_nothing() -> None:
    assert body(snippets.script([cell("a = [1]\na", kind="value")], 0, PAGE)) == (
        "a = [1]\nprint(repr(a))\n"
    )
    assert body(snippets.script([cell("a = [1]\na;")], 0, PAGE)) == "a = [1]\na;\n"


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        (
            "drawing",
            [
                'print(graph_description(render_svg(draw_dot(o), "page-cell-1.svg")))',
                "from micrograd.viz.svg import graph_description, render_svg\n",
                "drawing written to",
            ],
        ),
        ("figure", ['plot(o).save("page-cell-1.svg")', "figure written to"]),
        ("stepper", ['Path("page-cell-1.html").write_text(', "stepper written to"]),
    ],
)
def test_a_picture_goes_to_a_file_named_after_the_page_and_the_cell(
    kind: str, expected: list[str]
) -> None:
    expression = {"drawing": "draw_dot(o)", "figure": "plot(o)", "stepper": "stepper(o)"}[kind]
    script = snippets.script([cell(f"o = 1\n{expression}", kind=kind)], 0, PAGE)
    for text in expected:
        assert text in script
    assert script.count("# The page shows this") == 1  # and the script says where it goes


def test_markdown_is_printed_as_its_text_and_the_cell_needs_no_ipython() -> None:
    source = "from IPython.display import Markdown\nrows = ['| a |']\nMarkdown('\\n'.join(rows))"
    script = snippets.script([cell(source, kind="markdown")], 0, PAGE)
    assert body(script) == "rows = ['| a |']\nprint('\\n'.join(rows))\n"
    assert "IPython" not in script


def test_an_edited_last_line_keeps_the_builds_form_where_it_calls_what_the_pages_did() -> None:
    page_cell = cell("o = 1\ndraw_dot(o)", kind="drawing")
    edited = {**page_cell, "source": "o = 2\ndraw_dot(o, 'LR')"}
    assert "render_svg(draw_dot(o, 'LR')" in snippets.script([edited], 0, PAGE)
    other = {**page_cell, "source": "o = 2\nabs(o)"}
    assert body(snippets.script([other], 0, PAGE)) == (
        "o = 2\nshown = abs(o)\nif shown is not None:\n    print(repr(shown))\n"
    )
    printed = {**page_cell, "source": "o = 2\nprint(o)"}
    assert body(snippets.script([printed], 0, PAGE)) == "o = 2\nprint(o)\n"


def test_a_cell_that_does_not_parse_is_its_code_as_written_and_the_header_says_why() -> None:
    script = snippets.script([cell("a = 1"), cell("x = (a")], 1, PAGE)
    assert body(script) == "x = (a\n"
    assert "does not parse ('(' was never closed (line 1))" in script.split("\n\n")[0]


# -- the header --------------------------------------------------------------------------------


REPOSITORY = "https://git.example.org/book/micrograd"


def test_the_header_says_where_the_cell_comes_from_and_what_to_install() -> None:
    cells = [cell("import torch", build_only=True), cell("print(torch.ones(1))", build_only=True)]
    page = {**PAGE, "url": "https://x.org/guide/page.html", "repository": REPOSITORY}
    lines = snippets.script(cells, 1, page).split("\n\n")[0].splitlines()
    assert lines[0] == '# Cell 2 of "A page" (guide/page.md), the book'
    assert lines[1] == "# https://x.org/guide/page.html"
    assert lines[-2:] == [
        f"# micrograd-book is installed from its repository, {REPOSITORY}:",
        f'# Needs: pip install "micrograd-book @ git+{REPOSITORY}" torch==2.13.0',
    ]


def test_a_script_that_draws_needs_the_drawing_extra_and_an_edited_one_says_it_is() -> None:
    edited = {**cell("o = 1\ndraw_dot(o)", kind="drawing"), "edited": True}
    edited["source"] = "from micrograd.viz.draw import draw_dot\no = 2\ndraw_dot(o)"
    header = snippets.script([edited], 0, {**PAGE, "repository": REPOSITORY}).split("\n\n")[0]
    assert f'# Needs: pip install "micrograd-book[examples] @ git+{REPOSITORY}"' in header
    assert "Your edited version" in header


def test_a_build_that_knows_no_repository_installs_from_the_folder_of_pyproject_toml() -> None:
    """No address, so no repository: the folder the header names is the one with pyproject.toml."""
    drawing = cell("from micrograd.viz.draw import draw_dot\ndraw_dot(1)", kind="drawing")
    for source, command in [
        (drawing, 'pip install -e ".[examples]"'),
        (cell("import torch\nfrom micrograd import Value"), "pip install -e . torch==2.13.0"),
    ]:
        header = snippets.script([source], 0, PAGE).split("\n\n")[0]
        assert header.splitlines()[-2:] == [
            "# micrograd-book is installed from the book's source, in the folder that holds"
            " its pyproject.toml:",
            f"# Needs: {command}",
        ]
        assert "repositor" not in header
        assert "clone" not in header


WHEEL = "_static/runner/micrograd_book-0.3.0+abc-py3-none-any.whl"


def test_a_build_that_knows_no_repository_installs_the_wheel_its_site_offers() -> None:
    """With the extras the script needs, at the wheel's address, or at its path from the
    page's where the build knows no address."""
    drawing = cell("from micrograd.viz.draw import draw_dot\ndraw_dot(1)", kind="drawing")
    address = f"https://x.org/{WHEEL}"
    for wheel, source in [
        (address, f"the wheel this site offers, {address}"),
        (WHEEL, f"the wheel this site offers, {WHEEL} (relative to this page's address)"),
    ]:
        header = snippets.script([drawing], 0, {**PAGE, "wheel": wheel}).split("\n\n")[0]
        assert header.splitlines()[-2:] == [
            f"# micrograd-book is installed from {source}:",
            f'# Needs: pip install "{wheel}[examples]"',
        ]
    # A build that knows the repository installs from it.
    page = {**PAGE, "wheel": WHEEL, "repository": REPOSITORY}
    header = snippets.script([drawing], 0, page).split("\n\n")[0]
    assert f"git+{REPOSITORY}" in header
    assert "whl" not in header


@pytest.mark.parametrize(
    ("pagename", "url", "wheel"),
    [
        ("neuron", None, WHEEL),
        ("guide/page", None, f"../{WHEEL}"),
        (
            "guide/page",
            "https://x.org/en/latest/guide/page.html",
            f"https://x.org/en/latest/{WHEEL}",
        ),
    ],
)
def test_the_wheel_a_page_offers_is_the_sites_from_the_pages_place(
    pagename: str, url: str | None, wheel: str
) -> None:
    shipped = ["micrograd_book_runtime-1.0+d-py3-none-any.whl", WHEEL.rsplit("/", 1)[1]]
    assert offered_wheel(pagename, url, shipped) == wheel
    assert offered_wheel(pagename, url, shipped[:1]) is None


@pytest.mark.parametrize(
    ("needed", "repository", "command"),
    [
        (["micrograd-book"], REPOSITORY, f'pip install "micrograd-book @ git+{REPOSITORY}"'),
        (
            ["micrograd-book[examples]", "numpy"],
            "file:///tmp/clone",
            'pip install "micrograd-book[examples] @ git+file:///tmp/clone" numpy',
        ),
        (["micrograd-book"], None, "pip install -e ."),
        (
            ["micrograd-book[examples]", "torch==2.13.0"],
            None,
            'pip install -e ".[examples]" torch==2.13.0',
        ),
    ],
)
def test_the_install_command_takes_micrograd_book_from_the_repository_or_a_clone(
    needed: list[str], repository: str | None, command: str
) -> None:
    assert snippets.install_command(needed, repository) == command


# -- in a fresh interpreter -------------------------------------------------------------------


def test_a_script_runs_in_a_fresh_python_and_prints_what_its_cell_printed(
    tmp_path: Path,
) -> None:
    cells = [
        cell("from myst_nb import glue", hidden=True, build_only=True),
        cell("from micrograd import Value\na = Value(2.0)\nb = Value(-3.0)\nprint('built')"),
        cell("c = a * b + b**2\nc.backward()\nglue('c', c.data)", hidden=True),
        cell("c = a * b + b**2\nc.backward()\nc", kind="value"),
        cell("print(c.data, a.grad, b.grad)"),
    ]
    script = tmp_path / "cell.py"
    script.write_text(snippets.script(cells, 4, PAGE), encoding="utf-8")
    printed = run_python(str(script), cwd=tmp_path).stdout
    assert printed == "3.0 -3.0 -4.0\n"  # c = -6 + 9; dc/da = b; dc/db = a + 2b


def test_a_drawing_is_written_where_the_script_says_after_its_numbers(
    tmp_path: Path, dot_program: Any
) -> None:
    cells = [
        cell("from micrograd import Value\nfrom micrograd.viz.draw import draw_dot"),
        cell("o = Value(2.0, label='o')\ndraw_dot(o)", kind="drawing"),
    ]
    script = tmp_path / "cell.py"
    script.write_text(snippets.script(cells, 1, PAGE), encoding="utf-8")
    printed = run_python(str(script), cwd=tmp_path).stdout
    assert printed == (
        "A graph of 1 value: o (data 2.0000, grad 0.0000).\ndrawing written to page-cell-2.svg\n"
    )
    assert "<svg" in (tmp_path / "page-cell-2.svg").read_text(encoding="utf-8")


def test_a_drawing_cell_that_needs_the_names_the_script_imports_binds_them_once() -> None:
    source = (
        "from micrograd.viz.svg import render_svg\n"
        "from micrograd.viz.draw import draw_dot\no = 1\ndraw_dot(o)"
    )
    code = body(snippets.script([cell(source, kind="drawing")], 0, PAGE))
    assert "from micrograd.viz.svg import graph_description\n" in code
    assert code.count("import render_svg") == 1


@in_page_group("neuron")
def test_the_neuron_drawing_cells_script_prints_the_numbers_the_page_shows(
    tmp_path: Path, dot_program: Any
) -> None:
    """The page's first cell ends with the neuron's drawing after ``o.backward()``: its
    numbers are in the drawing's boxes, and the script prints every one, then its file."""
    cells = page_cells_as_built("neuron")
    k = next(k for k, c in enumerate(cells) if "o.backward()\ndraw_dot(o)" in c["source"])
    page = {**PAGE, "title": "The neuron", "name": "neuron", "file": "neuron.md"}
    (tmp_path / "cell.py").write_text(snippets.script(cells, k, page), encoding="utf-8")
    printed = run_python("cell.py", cwd=tmp_path).stdout.splitlines()
    number = snippets.cell_number(cells, k)
    assert printed[-1] == f"drawing written to neuron-cell-{number}.svg"
    values = glued("neuron")
    said = printed[0].split(": ", 1)[1].removesuffix(".").split("; ")
    boxes = {}
    for item in said:
        found = re.fullmatch(r"(.+?)(?: = .+)? \(data (\S+), grad (\S+)\)", item)
        assert found is not None, item
        boxes[found[1]] = (found[2], found[3])
    assert len(boxes) == values["neuron_nodes"]
    for name in ("n", "x1", "w1", "x2", "w2", "b"):
        assert boxes[name][1] == f"{values[f'neuron_d{name}']:.4f}", name
    for name in ("n", "o", "b"):
        assert boxes[name][0] == f"{values[f'neuron_{name}']:.4f}", name
    assert (tmp_path / f"neuron-cell-{number}.svg").is_file()


# -- a page's script, installed as its header says -------------------------------------------


def repository_of_the_working_tree(folder: Path) -> Path:
    """A git repository of the package as it is now (its files, committed): what pip clones."""
    ignored = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(ROOT / "src", folder / "src", ignore=ignored)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, folder / name)
    who = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t"}
    env = {**os.environ, **who, "GIT_COMMITTER_EMAIL": "t@t"}
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the package"]):
        subprocess.run(["git", *command], cwd=folder, env=env, check=True, capture_output=True)
    return folder


def page_cells_as_built(page: str) -> list[dict[str, Any]]:
    """The page's code cells as the build's manifest gives them to snippets.py.

    What a cell's last expression showed comes from the build's outputs; without
    them, a drawing (``draw_dot(...)``) is what the neuron page shows.
    """
    cells = []
    for found in code_cells(page):
        last = snippets.last_expression(found.source)
        draws = isinstance(last, ast.Call) and ast.unparse(last.func) == "draw_dot"
        shows = {"kind": "drawing", "expression": ast.unparse(last)} if draws else None
        hidden = bool(HIDDEN_TAGS & set(found.tags))
        only = BUILD_ONLY_TAG in found.tags
        cells.append({"source": found.source, "hidden": hidden, "buildOnly": only, "shows": shows})
    return cells


@pytest.mark.one_python  # what pip installs and the script prints do not differ by Python
@pytest.mark.slow  # a virtual environment and a pip install: about 20 s
@in_page_group("neuron")
def test_a_pages_script_runs_after_its_own_install_command_in_a_fresh_environment(
    tmp_path: Path,
) -> None:
    repository = repository_of_the_working_tree(tmp_path / "repository")
    cells = page_cells_as_built("neuron")
    # The cell that prints the gradients of the neuron built from exp, after o.backward().
    k = next(k for k, c in enumerate(cells) if not c["hidden"] and "leaf.grad" in c["source"])
    page = {**PAGE, "title": "The neuron", "name": "neuron", "file": "neuron.md"}
    script = snippets.script(cells, k, {**page, "repository": repository.as_uri()})
    header = script.split("\n\n")[0].splitlines()
    assert (
        header[-2] == f"# micrograd-book is installed from its repository, {repository.as_uri()}:"
    )
    assert header[-1].startswith("# Needs: pip install ")
    command = shlex.split(header[-1].removeprefix("# Needs: "))
    # The pip that venv bundles may be too old to read a git+file:/// URL: the newest one.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--upgrade-deps", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    installed = subprocess.run(
        [python, "-m", *command], capture_output=True, text=True, timeout=600, check=False
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    (tmp_path / "cell.py").write_text(script, encoding="utf-8")
    ran = subprocess.run(
        [python, "cell.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=True
    )
    values = glued("neuron")
    expected = [f"o = {values['neuron_exp_o']:.4f}"] + [
        f"do/d{name} = {values[f'neuron_exp_d{name}']:.4f}"
        for name in ("n", "x1", "w1", "x2", "w2")
    ]
    assert ran.stdout.splitlines() == expected


def test_the_sites_wheel_names_the_projects_extras_wherever_micrograd_is_installed(
    tmp_path: Path,
) -> None:
    """The host installs micrograd into its environment, not beside ``pyproject.toml``: the
    wheel's METADATA still says what the project's ``pyproject.toml`` says it needs."""
    import zipfile

    from runtime_wheels import micrograd_wheel

    import micrograd

    installed = tmp_path / "env" / "lib" / "python3.11" / "site-packages" / "micrograd"
    shutil.copytree(Path(micrograd.__file__).parent, installed)
    name, data = micrograd_wheel(installed, micrograd.__version__, "abc")
    (tmp_path / name).write_bytes(data)
    with zipfile.ZipFile(tmp_path / name) as wheel:
        metadata = next(wheel.read(n).decode() for n in wheel.namelist() if n.endswith("/METADATA"))
    assert "Provides-Extra: examples" in metadata, metadata


@pytest.mark.one_python  # what an installer installs does not differ by Python
@pytest.mark.slow  # a virtual environment and an install from PyPI: about 20 s
@in_page_group("neuron")
def test_the_wheel_the_site_offers_installs_with_its_examples_extra_from_the_site_alone(
    tmp_path: Path,
) -> None:
    """A build that knows no repository: the header's command, run where the page is (a copy
    of the site's folders holding the wheel the build ships), installs the wheel with
    ``[examples]`` into a fresh environment, and the page's drawing cell then runs there."""
    from runtime_wheels import SITE_FOLDER, micrograd_wheel

    import micrograd

    name, data = micrograd_wheel(Path(micrograd.__file__).parent, micrograd.__version__, "abc")
    site = tmp_path / "site"
    (site / SITE_FOLDER).mkdir(parents=True)
    (site / SITE_FOLDER / name).write_bytes(data)
    cells = page_cells_as_built("neuron")
    k = next(k for k, c in enumerate(cells) if "o.backward()\ndraw_dot(o)" in c["source"])
    page = {**PAGE, "title": "The neuron", "name": "neuron", "file": "neuron.md"}
    page["wheel"] = offered_wheel("neuron", None, [name])
    script = snippets.script(cells, k, page)
    command = shlex.split(script.split("\n\n")[0].splitlines()[-1].removeprefix("# Needs: "))
    assert command == ["pip", "install", f"{SITE_FOLDER}/{name}[examples]"]
    uv = shutil.which("uv")
    assert uv is not None, "uv makes the fresh environment"
    venv = tmp_path / "venv"
    subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], check=True)
    python = str(venv / "bin" / "python")
    installed = subprocess.run(
        [uv, *command, "--python", python],
        cwd=site,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    listed = subprocess.run(
        [uv, "pip", "list", "--python", python], capture_output=True, text=True, check=True
    ).stdout
    for extra in ("graphviz ", "graphviz-pure", "matplotlib", "numpy", "micrograd-book"):
        assert extra in listed, listed
    (tmp_path / "cell.py").write_text(script, encoding="utf-8")
    # Its own dot: graphviz-pure, beside the environment's Python (no Graphviz on PATH).
    env = {**os.environ, "PATH": "/nonexistent"}
    ran = subprocess.run(
        [python, "cell.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 0, ran.stderr
    number = snippets.cell_number(cells, k)
    assert ran.stdout.splitlines()[-1] == f"drawing written to neuron-cell-{number}.svg"
    assert ran.stdout.startswith("A graph of ")
