"""Every plain code block in the README and on the site runs, and says what it prints.

The site's ``{code-cell}`` cells run when the site is built; the *plain*
fenced blocks (```` ```python ````, ```` ```pycon ````, ```` ```bash ````) do
not, so they are run here:

* a ``python`` block runs in a fresh interpreter in an empty folder; when the
  next block after it is a ``text`` block (the README's convention for "this
  is what it prints"), the output must be exactly that text;
* a ``pycon`` block is run as a doctest;
* a ``bash``/``sh``/``console`` block is checked command by command: every
  ``nox -s NAME`` names a session of ``noxfile.py``, every ``pip install``
  extra exists in ``pyproject.toml``, every script or path it names exists or
  is the docs build's output.

Any other kind of block fails the test, so a new kind cannot slip through
unchecked.
"""

from __future__ import annotations

import ast
import doctest
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from scripts import run_python

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

PYTHON = {"python", "py", "python3"}
SHELL = {"bash", "sh", "console", "shell"}
OUTPUT = {"text", "output"}


@dataclass
class Block:
    """A plain fenced block: where it is, its language, its text, and the block after it."""

    path: Path
    line: int
    lang: str
    code: str
    next_lang: str | None
    next_code: str | None

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}:{self.lang}"


def markdown_files() -> list[Path]:
    files = [ROOT / "README.md"]
    files += sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.relative_to(DOCS).parts)
    return files


def plain_blocks(path: Path) -> list[Block]:
    """The fenced blocks of a markdown file that are not MyST directives (``{...}``)."""
    tokens = MarkdownIt("commonmark").parse(path.read_text(encoding="utf-8"))
    fences = [t for t in tokens if t.type == "fence"]
    blocks = []
    for i, token in enumerate(fences):
        info = token.info.strip()
        if info.startswith("{"):  # a MyST directive: code-cell, eval-rst, toctree, ...
            continue
        after = fences[i + 1] if i + 1 < len(fences) else None
        blocks.append(
            Block(
                path=path,
                line=token.map[0] + 1,
                lang=info.split()[0].lower() if info else "",
                code=token.content,
                next_lang=after.info.strip().split()[0].lower() if after and after.info else None,
                next_code=after.content if after else None,
            )
        )
    return blocks


ALL_BLOCKS = [b for path in markdown_files() for b in plain_blocks(path)]
RUNNABLE = [b for b in ALL_BLOCKS if b.lang not in OUTPUT]


def nox_sessions() -> set[str]:
    """The session names that ``noxfile.py`` defines (read with ``ast``, nox not needed)."""
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for deco in node.decorator_list:
            target = deco.func if isinstance(deco, ast.Call) else deco
            if ast.unparse(target) != "nox.session":
                continue
            name = node.name
            if isinstance(deco, ast.Call):
                for kw in deco.keywords:
                    if kw.arg == "name" and isinstance(kw.value, ast.Constant):
                        name = kw.value.value
            names.add(name)
    return names


def optional_extras() -> set[str]:
    """The extras of ``pyproject.toml`` (tomllib is not in Python 3.10: read the section)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    return set(re.findall(r"^([A-Za-z][\w-]*)\s*=", section, re.MULTILINE))


def test_the_readme_and_the_docs_have_plain_blocks_to_check() -> None:
    langs = {b.lang for b in ALL_BLOCKS if b.path.name == "README.md"}
    assert {"python", "text", "bash"} <= langs
    assert any(b.path.parent == DOCS for b in ALL_BLOCKS)


@pytest.mark.parametrize("block", ALL_BLOCKS, ids=lambda b: b.id)
def test_every_plain_block_has_a_language_this_test_knows(block: Block) -> None:
    assert block.lang in PYTHON | SHELL | OUTPUT | {"pycon"}, (
        f"{block.id}: a plain block must say its language (python, pycon, bash, text)"
    )
    if block.lang in OUTPUT:  # an output block belongs to the block before it
        previous = [b for b in ALL_BLOCKS if b.path == block.path and b.line < block.line]
        assert previous, f"{block.id}: an output block with no code block before it"
        assert previous[-1].lang in PYTHON, f"{block.id}: output of a {previous[-1].lang} block"


@pytest.mark.parametrize("block", [b for b in RUNNABLE if b.lang in PYTHON], ids=lambda b: b.id)
def test_python_block_runs_and_prints_what_the_page_shows(block: Block, tmp_path: Path) -> None:
    result = run_python("-c", block.code, cwd=tmp_path)
    if block.next_lang in OUTPUT:
        assert result.stdout == block.next_code, f"{block.id} printed something else"


@pytest.mark.parametrize("block", [b for b in RUNNABLE if b.lang == "pycon"], ids=lambda b: b.id)
def test_pycon_block_passes_as_a_doctest(block: Block) -> None:
    test = doctest.DocTestParser().get_doctest(block.code, {}, block.id, str(block.path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0
    assert runner.tries > 0


def _commands(script: str) -> list[list[str]]:
    """Each simple command of a shell snippet, as words (comments and prompts removed)."""
    commands = []
    for raw in script.splitlines():
        line = raw.strip()
        if line.startswith("$ "):
            line = line[2:]
        words = shlex.split(line, comments=True)
        current: list[str] = []
        for word in [*words, "&&"]:
            if word in {"&&", "||", ";"}:
                if current:
                    commands.append(current)
                current = []
            else:
                current.append(word)
    return commands


def _check_command(words: list[str], sessions: set[str], extras: set[str]) -> None:
    if words[:3] == ["python", "-m", "nox"] or words[:1] == ["nox"]:
        args = words[3:] if words[0] == "python" else words[1:]
        assert "-s" in args or "--session" in args, f"{words}: name the session"
        named = [a for i, a in enumerate(args) if i > 0 and args[i - 1] in {"-s", "--session"}]
        assert named, words
        for name in named:
            assert name in sessions, f"{words}: noxfile.py has no session {name!r}"
        return
    if words[:4] == ["python", "-m", "pip", "install"]:
        for spec in words[4:]:
            if spec == "-e":
                continue
            match = re.fullmatch(r"\.(?:\[([\w,-]+)\])?", spec)
            if match:  # this repository, with extras
                for extra in filter(None, (match.group(1) or "").split(",")):
                    assert extra in extras, f"{words}: pyproject.toml has no extra {extra!r}"
            else:
                assert spec in {"nox", "uv"}, f"{words}: installs something this test does not know"
        return
    if words[:1] == ["python"] and len(words) > 1 and words[1].endswith(".py"):
        assert (ROOT / words[1]).is_file(), f"{words}: no such script"
        return
    raise AssertionError(f"a shell command this test does not know how to check: {words}")


def _build_output_dir() -> str:
    """``docs/_build/html``, as the noxfile's docs session writes it."""
    text = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    assert 'DOCS = ROOT / "docs"' in text
    assert '"MICROGRAD_SITE_HTML", DOCS / "_build" / "html"' in text
    return "docs/_build/html"


@pytest.mark.parametrize("block", [b for b in RUNNABLE if b.lang in SHELL], ids=lambda b: b.id)
def test_shell_block_names_real_sessions_extras_and_paths(block: Block) -> None:
    sessions, extras = nox_sessions(), optional_extras()
    commands = _commands(block.code)
    assert commands, f"{block.id}: an empty shell block"
    for words in commands:
        _check_command(words, sessions, extras)
    html = _build_output_dir()
    for path in re.findall(r"docs/_build/\S+", block.code):
        assert path == html or path.startswith(html + "/"), f"{block.id}: not where docs build"


def test_quick_start_builds_the_docs_first_and_then_runs_the_tests() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    shell = [b for b in plain_blocks(ROOT / "README.md") if b.lang in SHELL and b.code in section]
    assert shell, "the quick start has a shell block"
    commands = [c for b in shell for c in _commands(b.code)]
    nox_runs = [c for c in commands if c[:3] == ["python", "-m", "nox"]]
    assert nox_runs[0][3:] == ["-s", "docs"], "the first quick-start command builds the site"
    assert ["-s", "tests"] in [c[3:] for c in nox_runs]
    assert commands[0] == ["python", "-m", "pip", "install", "nox", "uv"], "nox (and uv) first"
