"""The docs site's own helpers (docs/_ext): repository links and the downloadable notebook."""

from __future__ import annotations

import copy
import json
import re
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import executed_notebooks
import pytest
from executed_notebooks.download import (
    fill_glue,
    fill_prompts,
    fill_roles,
    fill_substitutions,
    format_glued,
    glued_values,
    reader_notebook,
)
from executed_notebooks.streams import join_stream_pieces
from repository_links import BUTTONS, is_public_https, repository_url, theme_options, web_url

if TYPE_CHECKING:
    from bundle import Bundle

ROOT = Path(__file__).resolve().parents[2]
#: The in-browser runner's own files (JavaScript, and the MIME types).
RUNNER = ROOT / "docs" / "_static" / "runner"
#: The reader-facing features' folders, each with its add-on of the runner (``<name>.js``).
FEATURES = ROOT / "docs" / "_features"
MIME: dict[str, str] = json.loads(
    (ROOT / "docs" / "_static" / "runner" / "mime_types.json").read_text(encoding="utf-8")
)

# -- the build's kernel --------------------------------------------------------------------


def test_the_kernel_reads_the_books_mime_types_and_claim_from_the_runtimes_files() -> None:
    from book_runtime.features.claims import runtime as claims

    files = executed_notebooks.kernel_files()
    runner = ROOT / "docs" / "_static" / "runner"
    assert runner / "mime_types.json" == executed_notebooks.MIME_TYPES
    assert {runner / "mime_types.json", Path(claims.__file__)} <= set(files)
    startup = executed_notebooks.kernel_startup_files()
    assert set(startup) == {
        *(ROOT / "docs" / "_kernel").glob("*.py"),
        *(ROOT / "docs" / "_features").glob("*/kernel.py"),
    }
    # A feature's start-up file is named after the feature in the kernel's profile.
    names = [executed_notebooks.startup_name(path) for path in startup]
    assert "predict.py" in names, names
    assert len(set(names)) == len(names), names
    kinds = json.loads((runner / "mime_types.json").read_text(encoding="utf-8"))
    assert set(kinds) == {"chart", "stepper", "graphviz"}


def test_the_mime_types_and_claim_key_the_execution_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    before = executed_notebooks.kernel_startup_digest()
    copies = {}
    for path in executed_notebooks.kernel_files()[len(executed_notebooks.kernel_startup_files()) :]:
        copies[path] = tmp_path / path.parent.name / path.name
        copies[path].parent.mkdir(exist_ok=True)
        copies[path].write_bytes(path.read_bytes())
    real_module_file = executed_notebooks._module_file
    mime_types = copies[executed_notebooks.MIME_TYPES]
    monkeypatch.setattr(executed_notebooks, "MIME_TYPES", mime_types)
    monkeypatch.setattr(
        executed_notebooks, "_module_file", lambda name: copies[real_module_file(name)]
    )
    assert executed_notebooks.kernel_startup_digest() == before
    mime_types.write_text('{"chart": "application/x-other+json"}')
    changed_types = executed_notebooks.kernel_startup_digest()
    assert changed_types != before
    claims = copies[real_module_file("book_runtime.features.claims.runtime")]
    claims.write_text("def claim(key, holds, about=''): pass\n")
    assert executed_notebooks.kernel_startup_digest() != changed_types


def test_only_mime_types_json_spells_the_books_mime_types() -> None:
    runner = ROOT / "docs" / "_static" / "runner"
    spelled = json.loads((runner / "mime_types.json").read_text(encoding="utf-8")).values()
    ours = [
        *(ROOT / "src").rglob("*.py"),
        *(ROOT / "docs" / "_ext").rglob("*.py"),
        *(ROOT / "docs" / "_kernel").rglob("*.py"),
        *(ROOT / "docs" / "_runtime").rglob("*.py"),
        *(ROOT / "docs" / "_features" / "track" / "checks").rglob("*.py"),
        *runner.glob("*.js"),
        *(ROOT / "docs" / "_static").glob("*.js"),
        *(ROOT / "tools").glob("*.py"),
        ROOT / "docs" / "conf.py",
        ROOT / "noxfile.py",
    ]
    for path in ours:
        text = path.read_text(encoding="utf-8")
        assert not [mime for mime in spelled if mime in text], path


# -- repository links ------------------------------------------------------------------


def project(folder: Path, remote: str | None = None, urls: str = "") -> Path:
    """A project's folder: a pyproject.toml (with ``urls``, its [project.urls] lines),
    a git clone when ``remote`` names its origin."""
    folder.mkdir(parents=True)
    table = f'\n[project.urls]\n{urls}\n[tool.x]\nRepository = "https://no.org/a/b"\n'
    text = '[project]\nname = "micrograd-book"\n' + (table if urls else "")
    (folder / "pyproject.toml").write_text(text, encoding="utf-8")
    if remote is not None:
        subprocess.run(["git", "init", "-q", str(folder)], check=True)
        subprocess.run(["git", "-C", str(folder), "remote", "add", "origin", remote], check=True)
    return folder


def test_a_local_build_knows_no_repository_and_shows_no_repository_buttons(
    tmp_path: Path,
) -> None:
    root = project(tmp_path / "book")
    assert repository_url({}, root) is None
    assert repository_url({"READTHEDOCS_GIT_CLONE_URL": "  "}, root) is None
    options = theme_options({"HOME": "/root"}, root)
    assert options == dict.fromkeys(BUTTONS, False)
    assert "repository_url" not in options


def test_the_repository_is_the_first_the_rule_finds(tmp_path: Path) -> None:
    """An explicit setting, then Read the Docs', then the clone's public https remote,
    then pyproject.toml's [project.urls]."""
    both = project(
        tmp_path / "both", "https://github.com/me/clone.git", 'Repository = "https://x.org/p/q"'
    )
    environ = {
        "MICROGRAD_REPOSITORY_URL": "https://gitlab.com/me/fork",
        "READTHEDOCS_GIT_CLONE_URL": "https://github.com/o/book.git",
    }
    assert repository_url(environ, both) == "https://gitlab.com/me/fork"
    del environ["MICROGRAD_REPOSITORY_URL"]
    assert repository_url(environ, both) == "https://github.com/o/book"
    assert repository_url({}, both) == "https://github.com/me/clone"
    assert theme_options({}, both)["repository_url"] == "https://github.com/me/clone"
    declared = project(tmp_path / "declared", None, 'Repository = "https://x.org/p/q"')
    assert repository_url({}, declared) == "https://x.org/p/q"
    source = project(tmp_path / "source", None, '"Source Code" = "https://x.org/p/s.git"')
    assert repository_url({}, source) == "https://x.org/p/s"
    assert repository_url({}, None) is None  # the environment only


@pytest.mark.parametrize(
    "remote",
    [
        "git@github.com:me/book.git",  # ssh: where its owner pushes, not where readers fetch
        "https://token@github.com/me/book.git",  # a credential
        "http://github.com/me/book",
        "https://localhost/me/book",
        "https://10.0.0.2/me/book",
        "/srv/git/book.git",
        "https://github.com/book",  # no owner/name
    ],
)
def test_a_remote_that_is_not_a_public_https_address_is_not_the_repository(
    tmp_path: Path, remote: str
) -> None:
    assert not is_public_https(remote)
    assert repository_url({}, project(tmp_path / "book", remote)) is None
    declared = project(
        tmp_path / "declared", remote, 'Homepage = "https://x.org"\nSource = "https://x.org/p/q"'
    )
    assert repository_url({}, declared) == "https://x.org/p/q"


def test_only_the_projects_own_clone_counts(tmp_path: Path) -> None:
    """A project folder inside some other clone does not take that clone's remote."""
    outer = project(tmp_path / "outer", "https://github.com/other/thing")
    assert repository_url({}, project(outer / "book")) is None


@pytest.mark.parametrize(
    ("clone_url", "web"),
    [
        ("https://github.com/karpathy/micrograd.git", "https://github.com/karpathy/micrograd"),
        ("https://github.com/karpathy/micrograd", "https://github.com/karpathy/micrograd"),
        ("https://github.com/karpathy/micrograd/", "https://github.com/karpathy/micrograd"),
        ("git@github.com:karpathy/micrograd.git", "https://github.com/karpathy/micrograd"),
        ("ssh://git@gitlab.com:22/group/sub/book.git", "https://gitlab.com/group/sub/book"),
        ("https://token@github.com/o/r.git", "https://github.com/o/r"),
    ],
)
def test_clone_urls_become_web_addresses(clone_url: str, web: str) -> None:
    assert web_url(clone_url) == web


def test_an_unreadable_clone_url_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="MICROGRAD_REPOSITORY_URL"):
        web_url("not a url")


def test_read_the_docs_clone_url_turns_the_buttons_on() -> None:
    options = theme_options({"READTHEDOCS_GIT_CLONE_URL": "https://github.com/o/book.git"})
    assert options["repository_url"] == "https://github.com/o/book"
    assert options["repository_branch"] == "main"
    assert options["path_to_docs"] == "docs"
    assert all(options[button] is True for button in BUTTONS)


def test_an_explicit_setting_wins_and_names_the_branch() -> None:
    options = theme_options(
        {
            "READTHEDOCS_GIT_CLONE_URL": "https://github.com/o/book.git",
            "MICROGRAD_REPOSITORY_URL": "https://gitlab.com/me/fork",
            "MICROGRAD_REPOSITORY_BRANCH": "draft",
        }
    )
    assert options["repository_url"] == "https://gitlab.com/me/fork"
    assert options["repository_branch"] == "draft"


# -- the downloadable notebook ------------------------------------------------------------


def _notebook() -> dict[str, object]:
    return {
        "cells": [
            {
                "cell_type": "code",
                "id": "a1",
                "metadata": {"tags": ["remove-cell"]},
                "source": "from myst_nb import glue",
                "outputs": [],
            },
            {"cell_type": "markdown", "id": "b2", "metadata": {}, "source": "# Title"},
            {
                "cell_type": "code",
                "id": "c3",
                "metadata": {},
                "source": "loss = 0.123456\nprint(loss)",
                "outputs": [{"output_type": "stream", "name": "stdout", "text": "0.123456\n"}],
            },
            {
                "cell_type": "code",
                "id": "d4",
                "metadata": {"tags": ["remove-cell"]},
                "source": 'glue("loss", loss, display=False)\nglue("n", 4, display=False)',
                "outputs": [],
            },
            {
                "cell_type": "markdown",
                "id": "e5",
                "metadata": {},
                "source": [
                    "The loss is {glue:text}`loss:.4f` after {glue}`n` steps; ",
                    "{glue:md}`ops`; version {glue:text}`version`.",
                ],
            },
            {
                "cell_type": "code",
                "id": "f6",
                "metadata": {"tags": ["hide-cell"]},
                "source": "assert loss > 0",
                "outputs": [],
            },
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


SIDE = {
    "loss": {"data": {"text/plain": "0.123456"}},
    "n": {"data": {"text/plain": "4"}},
    "ops": {"data": {"text/markdown": "`tanh`, `exp`", "text/plain": "<Markdown>"}},
    "version": {"data": {"text/plain": "'2.13.0'"}},
}


def test_the_download_leaves_out_the_cells_the_page_hides() -> None:
    download = reader_notebook(_notebook(), SIDE)
    sources = [cell["source"] for cell in download["cells"]]
    assert "from myst_nb import glue" not in sources
    assert not any("glue(" in str(source) for source in sources)
    assert [cell["id"] for cell in download["cells"]] == [f"cell-{i}" for i in range(4)]
    assert download["cells"][3]["source"] == "assert loss > 0"  # a hide-cell stays
    assert download["cells"][1]["outputs"][0]["text"] == ["0.123456\n"]


def test_the_download_says_the_glued_numbers_as_the_page_does() -> None:
    download = reader_notebook(_notebook(), SIDE)
    assert download["cells"][2]["source"] == (
        "The loss is 0.1235 after 4 steps; `tanh`, `exp`; version 2.13.0."
    )


def test_the_download_says_the_configurations_substitutions_as_the_page_does() -> None:
    notebook = _notebook()
    notebook["cells"][4]["source"] = "Install it with {{ install_command }}, or {{command}}."
    texts = {"install_command": "`pip install -e .`", "command": "that"}
    download = reader_notebook(notebook, SIDE, texts)
    assert download["cells"][2]["source"] == "Install it with `pip install -e .`, or that."
    with pytest.raises(KeyError, match="never defines"):
        fill_substitutions("{{ unknown }}", texts)


def test_the_original_notebook_is_left_as_it_was() -> None:
    notebook = _notebook()
    reader_notebook(notebook, SIDE)
    assert notebook == _notebook()


def test_a_value_glued_with_display_is_found_in_the_outputs() -> None:
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "outputs": [
                    {
                        "output_type": "display_data",
                        "data": {"application/papermill.record/text/plain": "3.5"},
                        "metadata": {"scrapbook": {"name": "x"}},
                    }
                ],
            }
        ]
    }
    values = glued_values(notebook, {})
    assert values == {"x": {"text/plain": "3.5"}}
    assert fill_glue("x = {glue:text}`x:.2f`", values) == "x = 3.50"


def test_pasting_a_value_that_was_never_glued_is_an_error() -> None:
    with pytest.raises(KeyError, match="never glued"):
        fill_glue("{glue:text}`missing`", {})
    with pytest.raises(KeyError, match="never glued"):
        fill_glue("```{glue:md} missing\n```", {})


def test_a_glued_markdown_block_is_written_into_the_text() -> None:
    values = {"table": {"text/markdown": "| a | b |\n|---|---|\n| 1 | 2 |\n"}}
    page = "Before:\n\n```{glue:md} table\n:format: myst\n```\n\nAfter, {glue:md}`table`."
    filled = fill_glue(page, values)
    assert filled.startswith("Before:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAfter, ")
    assert "{glue" not in filled
    assert fill_glue(":::{glue:md} table\n:::", values) == values["table"]["text/markdown"].rstrip()


@pytest.mark.parametrize(
    ("text", "spec", "shown"),
    [
        ("0.5", ".1f", "0.5"),
        ("-8.0", ".1f", "-8.0"),
        ("41", "", "41"),
        ("2.0", "d", "2"),
        ("6.1e-10", ".1e", "6.1e-10"),
        ("'2.13.0'", "", "2.13.0"),
        ("-1.0", "+.0f", "-1"),
        ("np.float64(0.5)", "", "np.float64(0.5)"),
    ],
)
def test_formatting_follows_myst_nb(text: str, spec: str, shown: str) -> None:
    assert format_glued(text, spec) == shown


def test_the_download_has_no_memory_addresses() -> None:
    notebook = _notebook()
    notebook["cells"][2]["outputs"].append(  # type: ignore[index]
        {
            "output_type": "execute_result",
            "data": {
                "image/svg+xml": "<svg/>",
                "text/plain": ["<graphviz.graphs.Digraph at 0x7f867a074150>"],
            },
        }
    )
    outputs = reader_notebook(notebook, SIDE)["cells"][1]["outputs"]
    assert outputs[1]["data"]["text/plain"] == "<graphviz.graphs.Digraph>"
    assert outputs[1]["data"]["image/svg+xml"] == "<svg/>"


def test_the_download_leaves_out_when_each_cell_ran() -> None:
    notebook = _notebook()
    ran = {"iopub.execute_input": "2026-12-01T16:18:55.264486Z"}
    notebook["cells"][2]["metadata"]["execution"] = ran  # type: ignore[index]
    download = reader_notebook(notebook, SIDE)
    assert all("execution" not in cell["metadata"] for cell in download["cells"])


# -- each cell as a script: the download menu ------------------------------------------------


def _menu(*labels: str) -> dict[str, object]:
    buttons = [{"label": label} for label in labels]
    return {"header_buttons": [{"label": "download-buttons", "buttons": buttons}]}


def test_the_cells_scripts_follow_the_notebook_in_the_download_menu() -> None:
    from executed_notebooks.scripts import _add_after_notebook

    context = _menu("download-notebook-button", "download-source-button")
    _add_after_notebook(context, [{"label": "cell-1"}, {"label": "cell-2"}])
    buttons = context["header_buttons"][0]["buttons"]  # type: ignore[index]
    assert [b["label"] for b in buttons] == [
        "download-notebook-button",
        "cell-1",
        "cell-2",
        "download-source-button",
    ]


@pytest.mark.one_python  # the build's helper reads TOML with tomllib: 3.11 and newer
def test_a_script_names_the_pins_of_the_torch_group(tmp_path: Path) -> None:
    from executed_notebooks.scripts import pinned_requirements

    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[dependency-groups]\ntorch = ["torch==9.9.9"]\n', encoding="utf-8")
    assert pinned_requirements(pyproject) == {"torch": "torch==9.9.9"}


def _printed(*pieces: tuple[str, str]) -> dict[str, object]:
    return {
        "cell_type": "code",
        "metadata": {},
        "source": "print('a'); print('b')",
        "outputs": [
            {"output_type": "stream", "name": name, "text": [text]} for name, text in pieces
        ],
    }


def test_the_download_joins_printed_text_however_the_kernel_split_it() -> None:
    in_one = {"cells": [_printed(("stdout", "a\nb\n"))]}
    in_two = {"cells": [_printed(("stdout", "a\n"), ("stdout", "b\n"))]}
    assert reader_notebook(in_one, {}) == reader_notebook(in_two, {})
    assert reader_notebook(in_two, {})["cells"][0]["outputs"] == [
        {"output_type": "stream", "name": "stdout", "text": ["a\n", "b\n"]}
    ]


def test_the_download_keeps_stdout_and_stderr_apart() -> None:
    notebook = {"cells": [_printed(("stdout", "a\n"), ("stderr", "w\n"), ("stdout", "b\n"))]}
    outputs = reader_notebook(notebook, {})["cells"][0]["outputs"]
    assert [(o["name"], o["text"]) for o in outputs] == [
        ("stdout", ["a\n"]),
        ("stderr", ["w\n"]),
        ("stdout", ["b\n"]),
    ]


def test_printed_pieces_are_joined_into_the_first_output_of_their_stream() -> None:
    outputs = [
        {"output_type": "stream", "name": "stdout", "text": "Value(data=0.9, grad=0.0)"},
        {"output_type": "display_data", "data": {"text/plain": "x"}, "metadata": {}},
        {"output_type": "stream", "name": "stdout", "text": [" 0.5", "\n"]},
        {"output_type": "stream", "name": "stderr", "text": "warning\n"},
    ]
    before = copy.deepcopy(outputs)
    joined = join_stream_pieces(outputs)
    assert outputs == before  # the notebook's own outputs are left as they are
    assert joined == [
        {"output_type": "stream", "name": "stdout", "text": "Value(data=0.9, grad=0.0) 0.5\n"},
        {"output_type": "display_data", "data": {"text/plain": "x"}, "metadata": {}},
        {"output_type": "stream", "name": "stderr", "text": "warning\n"},
    ]
    whole = [{"output_type": "stream", "name": "stdout", "text": "Value(data=0.9, grad=0.0) 0.5\n"}]
    assert join_stream_pieces(whole) == [joined[0]]


# -- what the in-browser runner loads, and when ------------------------------------------


@pytest.fixture(scope="module")
def runner_bundle(tmp_path_factory: pytest.TempPathFactory) -> Bundle:
    """The runner's JavaScript, bundled as the docs build bundles it (esbuild, from npm ci)."""
    from bundle import bundle

    root = Path(__file__).resolve().parents[2]
    return bundle(root / "node_modules", tmp_path_factory.mktemp("runner-bundle"))


def test_the_page_loads_only_the_runners_page_side_modules_before_a_run(
    runner_bundle: Bundle,
) -> None:
    from browser_runner import page_side
    from bundle import sources_in

    with_page = sources_in(runner_bundle.metafiles["page"], page_side(runner_bundle))
    assert {Path(path).name for path in with_page} == {
        "runner.js",
        "session.js",
        "cells.js",
        "pagestate.js",
        "predict.js",
        "registry.js",  # the features' one list, and each one's declaration
        "feature.js",
        "state.js",  # the steppers' state, which predict's listener waits in
    }


def test_every_file_of_the_runner_is_loaded_by_the_page_or_the_worker(
    runner_bundle: Bundle,
) -> None:
    from browser_runner import PAGE_ENTRY, WORKER_ENTRIES
    from bundle import loaded_files, sources_in

    page, worker = runner_bundle.metafiles["page"], runner_bundle.metafiles["worker"]
    loaded = sources_in(page, loaded_files(page, PAGE_ENTRY, static_only=False))
    for entry in WORKER_ENTRIES:
        loaded |= sources_in(worker, loaded_files(worker, entry, static_only=False))
    bundled = {Path(path).name for path in loaded if not path.startswith("node_modules/")}
    shipped = {path.name for path in RUNNER.iterdir() if path.suffix in (".js", ".json")}
    shipped |= {path.name for path in FEATURES.glob("*/*.js")}  # the features' modules
    shipped |= {path.name for path in FEATURES.glob("*.js")}  # their registry
    # The site's figure modules the steppers' module shares with its zoom script.
    shipped |= {"micrograd-figure-scale.js", "micrograd-zoom.js"}
    assert shipped == bundled, f"shipped, loaded by nothing: {sorted(shipped - bundled)}"
    # The runner's Python is the runtime package, shipped as a wheel (docs/_runtime).
    assert not list(RUNNER.glob("*.py"))


def test_the_worker_imports_modules_of_the_runtime_wheel_by_their_names(
    runner_bundle: Bundle,
) -> None:
    import io
    import re
    import zipfile

    from browser_runner import WORKER_ENTRIES
    from bundle import loaded_files, sources_in
    from runtime_wheels import runtime_package_wheel

    name, data = runtime_package_wheel()
    assert name.startswith("micrograd_book_runtime-1.0+")
    shipped = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    runtime = ROOT / "docs" / "_runtime" / "book_runtime"
    assert {f"book_runtime/{path.name}" for path in runtime.glob("*.py")} <= shipped
    assert "book_runtime/features/track/checks/__init__.py" in shipped, (
        "the checks, in the same wheel"
    )
    features = ROOT / "docs" / "_features"
    assert {
        f"book_runtime/features/{path.relative_to(features).as_posix()}"
        for path in features.glob("*/runtime.py")
    } <= shipped, "each feature's runtime, in the same wheel"
    of_features = [entry for entry in shipped if entry.startswith("book_runtime/features/")]
    assert not [entry for entry in of_features if entry.endswith("/directive.py")], "no directive"
    assert not [entry for entry in of_features if entry.endswith("/kernel.py")], "no build kernel"
    worker = runner_bundle.metafiles["worker"]
    files = {
        ROOT / path
        for entry in WORKER_ENTRIES
        for path in sources_in(worker, loaded_files(worker, entry, static_only=False))
    }
    imported = {
        module
        for file in files
        for module in re.findall(r'pyimport\((?:\w+, )?"(book_runtime[\w.]*)"\)', file.read_text())
    }
    assert imported >= {"book_runtime.kernel", "book_runtime.snippets"}
    for module in imported:
        assert f"{module.replace('.', '/')}.py" in shipped, module
    # A feature's Python in the worker is its runtime, named after the feature whose
    # declaration (its feature.js, in the registry) says it has a worker side.
    assert "`book_runtime.features.${name}.runtime`" in (RUNNER / "worker.js").read_text()
    declared = features.glob("*/feature.js")
    with_worker = [path.parent.name for path in declared if "worker:" in path.read_text()]
    assert "track" in with_worker
    for feature in with_worker:
        assert f"book_runtime/features/{feature}/runtime.py" in shipped, feature


def test_the_licences_shipped_are_those_of_the_npm_packages_in_the_bundle(
    tmp_path: Path,
) -> None:
    from bundle import bundled_packages
    from site_licences import bundled_licences, notice

    metafile = {
        "inputs": {
            "docs/_static/runner/editor.js": {},
            "node_modules/@codemirror/view/dist/index.js": {},
            "node_modules/@codemirror/view/dist/more.js": {},
            "node_modules/crelt/index.js": {},
            "node_modules/a/node_modules/inner/x.js": {},
        },
        "outputs": {},
    }
    names = bundled_packages(metafile)
    assert names == {"@codemirror/view", "crelt", "inner"}
    for name, licence in [("@codemirror/view", "MIT"), ("crelt", "MIT"), ("inner", "ISC")]:
        folder = tmp_path / name
        folder.mkdir(parents=True)
        (folder / "package.json").write_text(json.dumps({"version": "1.2.3", "license": licence}))
        (folder / "LICENSE").write_text(f"{name} licence text")
    bundled = bundled_licences(names, tmp_path)
    files = {entry.file_name: entry.text for entry in bundled}
    assert files == {
        "codemirror-view-LICENSE.txt": b"@codemirror/view licence text",
        "crelt-LICENSE.txt": b"crelt licence text",
        "inner-LICENSE.txt": b"inner licence text",
    }
    versions = dict.fromkeys(("pyodide", "python", "@viz-js/viz", "marked", "d3"), "1")
    text = notice({**versions, "@observablehq/plot": "1"}, "0.20", bundled)
    assert "@codemirror/view 1.2.3, MIT (codemirror-view-LICENSE.txt)" in text
    assert "inner 1.2.3, ISC (inner-LICENSE.txt)" in text


def test_a_bundled_npm_package_without_a_licence_text_stops_the_build(tmp_path: Path) -> None:
    from site_licences import LicenceError, bundled_licences

    (tmp_path / "crelt").mkdir()
    (tmp_path / "crelt" / "package.json").write_text('{"version": "1.0.0", "license": "MIT"}')
    with pytest.raises(LicenceError, match="no licence file"):
        bundled_licences({"crelt"}, tmp_path)


def test_the_page_bundle_loads_lazily_what_it_imports_with_import() -> None:
    from bundle import loaded_files

    metafile = {
        "outputs": {
            "out/runner.js": {
                "entryPoint": "docs/_static/runner/runner.js",
                "imports": [
                    {"path": "out/chunk-A.js", "kind": "import-statement"},
                    {"path": "out/queue-B.js", "kind": "dynamic-import"},
                    {"path": "out/exercises-C.js", "kind": "dynamic-import"},
                ],
            },
            "out/chunk-A.js": {"imports": []},
            "out/queue-B.js": {
                "entryPoint": "docs/_static/runner/queue.js",
                "imports": [{"path": "out/chunk-A.js", "kind": "import-statement"}],
            },
            "out/exercises-C.js": {
                "entryPoint": "docs/_static/runner/exercises.js",
                "imports": [{"path": "out/chunk-D.js", "kind": "import-statement"}],
            },
            "out/chunk-D.js": {"imports": []},
        }
    }
    assert loaded_files(metafile, "runner.js", static_only=True) == {"runner.js", "chunk-A.js"}
    everything = loaded_files(metafile, "runner.js", static_only=False)
    assert everything == {"runner.js", "chunk-A.js", "queue-B.js", "exercises-C.js", "chunk-D.js"}
    skipped = loaded_files(metafile, "runner.js", False, skip=frozenset({"exercises.js"}))
    assert skipped == {"runner.js", "chunk-A.js", "queue-B.js"}


@pytest.mark.parametrize(
    ("outputs", "kinds"),
    [
        ([{"data": {"text/plain": "x"}}], set()),
        (
            [{"data": {"image/svg+xml": "<svg/>"}, "metadata": {"text/vnd.graphviz": {}}}],
            {"graphviz"},
        ),
        (
            [
                {
                    "data": {"text/html": "<div/>"},
                    "metadata": {MIME["stepper"]: {}},
                }
            ],
            {"graphviz"},
        ),
        (
            [
                {
                    "data": {"image/svg+xml": "<svg/>"},
                    "metadata": {MIME["chart"]: {}},
                }
            ],
            {"chart"},
        ),
        ([{"data": {"text/markdown": "|a|"}}], {"markdown"}),
        ([{"data": {"text/markdown": "|a|", "text/html": "<table/>"}}], set()),
    ],
)
def test_a_cells_outputs_say_what_its_first_run_must_fetch(
    outputs: list[dict[str, object]], kinds: set[str]
) -> None:
    from browser_runner import output_kinds
    from executed_notebooks.scripts import MIME_TYPES

    assert output_kinds(outputs, MIME_TYPES) == kinds


# -- the book's PDF in the download menu ---------------------------------------------------


def test_the_pdf_is_offered_only_where_it_is_or_will_be(tmp_path: Path) -> None:
    from book_pdf import BOOK_PDF, pdf_is_offered

    assert not pdf_is_offered(tmp_path, {})
    assert pdf_is_offered(tmp_path, {"READTHEDOCS": "True"})  # its PDF job prints it there
    (tmp_path / BOOK_PDF).write_bytes(b"%PDF-1.7\n")
    assert pdf_is_offered(tmp_path, {})


def test_each_module_of_the_runner_opens_with_what_it_is_for() -> None:
    for path in sorted(RUNNER.glob("*.js")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("// "), path.name
        assert len(first) > 20, path.name
    for path in sorted((ROOT / "docs" / "_runtime" / "book_runtime").glob("*.py")):
        assert path.read_text(encoding="utf-8").startswith('"""'), path.name


def test_the_runner_is_a_few_modules_each_named_with_its_job_in_the_entry_point() -> None:
    # One module a responsibility (the queue with its flow and planner, the cells with
    # their outputs' boxes...), each listed in runner.js's opening comment with what it
    # does, and the features' registry.  A feature's modules are its folder's, which the
    # registry lists: adding a feature adds none here (the opening may name some).
    own = sorted({*(path.name for path in RUNNER.glob("*.js")), "registry.js"})
    # The page's modules; the worker and the runtime cache's service worker are entry
    # points of their own, the registry is data.
    page_modules = set(own) - {"worker.js", "runtime-cache.js", "registry.js"}
    assert len(page_modules) <= 13, sorted(page_modules)
    opening = []
    for line in (RUNNER / "runner.js").read_text(encoding="utf-8").splitlines():
        if not line.startswith("//"):
            break
        opening.append(line)
    listed = {match for line in opening for match in re.findall(r"^//   ([\w-]+\.js) ", line)}
    assert set(own) <= listed, set(own) - listed
    features = {path.name for path in FEATURES.glob("*/*.js")}
    assert "nudge.js" in features
    assert listed <= set(own) | features, listed - set(own) - features


# -- the runtime's wheel, and the pages that name it -------------------------------------------


def _stand_in_runtime(folder: Path) -> Path:
    """A small book_runtime in ``folder``: a module, and one compiled that is not shipped."""
    package = folder / "book_runtime"
    (package / "__pycache__").mkdir(parents=True)
    (package / "__init__.py").write_text('"""The runtime."""\n')
    (package / "kernel.py").write_text("NAMESPACE = {}\n")
    (package / "__pycache__" / "kernel.cpython-311.pyc").write_bytes(b"not shipped")
    return package


def _stand_in_features(folder: Path) -> Path:
    """A small docs/_features in ``folder``: one feature's runtime, directive and script, and
    its checks (a package in its folder): a step's code, lint settings."""
    features = folder / "_features"
    checks = features / "knob" / "checks"
    step = checks / "steps" / "value"
    (step / "wrong").mkdir(parents=True)
    (checks / "__init__.py").write_text("EXERCISES = {}\n")
    (checks / "ruff.toml").write_text("[lint.isort]\nforce-single-line = true\n")
    (step / "starter.py").write_text("class Value:\n    pass\n")
    (step / "wrong" / "no_reflected.py").write_text("del Value.__radd__\n")
    (features / "__init__.py").write_text('"""The features."""\n')
    (features / "knob" / "__init__.py").write_text('"""A knob."""\n')
    (features / "knob" / "runtime.py").write_text("TURNS = 1\n")
    (features / "knob" / "directive.py").write_text("import sphinx\n")
    (features / "knob" / "answers.py").write_text("import docutils\n")
    (features / "knob" / "kernel.py").write_text("import IPython\n")
    (features / "knob" / "knob.js").write_text("export const TURNS = 1;\n")
    return features


def test_the_runtime_wheel_holds_the_checks_with_fixed_bytes_and_a_version_of_their_hash(
    tmp_path: Path,
) -> None:
    import io
    import zipfile

    from runtime_wheels import runtime_package_wheel

    package, features = _stand_in_runtime(tmp_path), _stand_in_features(tmp_path)
    name, data = runtime_package_wheel(package, features)
    assert name.startswith("micrograd_book_runtime-1.0+")
    assert name.endswith("-py3-none-any.whl")
    assert runtime_package_wheel(package, features) == (name, data), "the same bytes twice"
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert {
        "book_runtime/__init__.py",
        "book_runtime/kernel.py",
        "book_runtime/features/knob/checks/__init__.py",
        "book_runtime/features/knob/checks/steps/value/starter.py",
        "book_runtime/features/knob/checks/steps/value/wrong/no_reflected.py",
    } <= set(names)
    assert not any("__pycache__" in entry or entry.endswith(".toml") for entry in names)
    # A change to the checks alone, even to a step's code file, is a wheel of another name.
    starter = features / "knob" / "checks" / "steps" / "value" / "starter.py"
    starter.write_text("class Value: ...\n")
    assert runtime_package_wheel(package, features)[0] != name, "a changed step is a new version"


def test_the_runtime_wheel_holds_each_features_runtime_and_no_directive(tmp_path: Path) -> None:
    import io
    import zipfile

    from runtime_wheels import runtime_package_wheel

    package, features = _stand_in_runtime(tmp_path), _stand_in_features(tmp_path)
    name, data = runtime_package_wheel(package, features)
    names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    assert {
        "book_runtime/features/__init__.py",
        "book_runtime/features/knob/__init__.py",
        "book_runtime/features/knob/runtime.py",
    } <= names
    # Sphinx is not in the browser, nor the build's kernel, nor is the runner's script Python.
    build_only = ("directive.py", "answers.py", "kernel.py", ".js")
    of_features = [entry for entry in names if entry.startswith("book_runtime/features/")]
    assert not [entry for entry in of_features if entry.endswith(build_only)], names
    # A change to a feature's runtime alone is a wheel of another name; to its directive, not.
    (features / "knob" / "directive.py").write_text("import docutils\n")
    assert runtime_package_wheel(package, features)[0] == name, "the directive is not shipped"
    (features / "knob" / "runtime.py").write_text("TURNS = 2\n")
    assert runtime_package_wheel(package, features)[0] != name, "a changed runtime is new"


class _Registry:
    """What an extension's ``setup`` asks of Sphinx: config values and event handlers."""

    def __init__(self) -> None:
        self.values: dict[str, tuple[object, str]] = {}
        self.handlers: dict[str, list[object]] = {}

    def add_config_value(self, name: str, default: object, rebuild: str, **_: object) -> None:
        self.values[name] = (default, rebuild)

    def connect(self, event: str, handler: object, **_: object) -> None:
        self.handlers.setdefault(event, []).append(handler)


def test_the_micrograd_wheel_holds_the_names_the_datasets_read_in_the_browser() -> None:
    """Pyodide installs what the wheel holds: ``micrograd.datasets.names()`` reads its file
    from the package, so the wheel carries the data and the licence that pyproject ships."""
    import io
    import zipfile

    from runtime_wheels import micrograd_wheel

    import micrograd

    source = Path(micrograd.__file__).parent
    _, data = micrograd_wheel(source, micrograd.__version__, "abc")
    wheel = zipfile.ZipFile(io.BytesIO(data))
    names = wheel.read("micrograd/data/names.txt").decode().splitlines()
    from micrograd.datasets import names as read_names

    assert names == read_names()
    assert "makemore" in wheel.read("micrograd/data/NOTICE").decode()


def test_package_data_that_matches_no_file_stops_the_build(tmp_path: Path) -> None:
    from runtime_wheels import package_data
    from sphinx.errors import ExtensionError

    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.setuptools.package-data]\npkg = ["data/*.txt"]\n')
    (tmp_path / "pkg" / "data").mkdir(parents=True)
    with pytest.raises(ExtensionError, match=r"'data/\*\.txt' matches no file"):
        package_data(tmp_path / "pkg", "pkg", pyproject)
    (tmp_path / "pkg" / "data" / "a.txt").write_text("ab\n")
    assert package_data(tmp_path / "pkg", "pkg", pyproject) == {"pkg/data/a.txt": b"ab\n"}


def test_every_page_is_written_again_when_a_wheels_name_changes() -> None:
    # Sphinx writes again the pages it read again, and every page when an "html" config
    # value changed: the wheels' names are one, so that no page keeps a wheel's old name
    # after a change to the checks alone.
    from types import SimpleNamespace

    import browser_runner
    from runtime_wheels import runtime_package_wheel, runtime_wheels

    registry = _Registry()
    browser_runner.setup(registry)  # type: ignore[arg-type]
    assert registry.values["browser_runner_wheels"] == ([], "html")
    assert browser_runner.name_the_wheels in registry.handlers["config-inited"]
    config = SimpleNamespace(micrograd_source_hash="0123456789abcdef")
    browser_runner.name_the_wheels(None, config)  # type: ignore[arg-type]
    assert config.browser_runner_wheels == list(runtime_wheels("0123456789abcdef"))
    assert runtime_package_wheel()[0] in config.browser_runner_wheels
    assert len(config.browser_runner_wheels) == 3  # micrograd, the runtime, graphviz


@pytest.mark.parametrize(
    ("output", "kind"),
    [
        ({"metadata": {MIME["graphviz"]: {"dot": "digraph {}"}}}, "drawing"),
        ({"metadata": {MIME["chart"]: {}}, "data": {"image/svg+xml": "<svg/>"}}, "figure"),
        ({"metadata": {MIME["stepper"]: {}}, "data": {"text/html": "<div/>"}}, "stepper"),
        ({"data": {"text/markdown": "|a|", "text/plain": "<Markdown>"}}, "markdown"),
        ({"data": {"text/markdown": "|a|", "text/html": "<table/>"}}, "value"),
        ({"data": {"text/plain": "0.5"}}, "value"),
    ],
)
def test_what_kind_an_output_is_is_one_rule_for_the_scripts_and_the_first_run(
    output: dict[str, object], kind: str
) -> None:
    from book_runtime.output_kinds import output_kind
    from book_runtime.snippets import shown_kind
    from browser_runner import FETCHED_FOR, output_kinds
    from executed_notebooks.scripts import MIME_TYPES

    assert output_kind(output, MIME_TYPES) == kind
    result = {"output_type": "execute_result", **output}
    assert shown_kind([result], MIME_TYPES) == kind
    assert output_kinds([output], MIME_TYPES) == (
        {FETCHED_FOR[kind]} if kind in FETCHED_FOR else set()
    )


def test_the_download_says_a_claim_and_a_pairs_words_as_the_built_page_does() -> None:
    markdown = (
        "The loss {claim}``loss_fell: fell to {glue:text}`loss:.2f` || rose`` after "
        "{claim}`steps: one step`; "
        "the engine's order {pair}`first`, the other {pair}`second`."
    )
    filled = fill_glue(fill_roles(markdown), {"loss": {"text/plain": "0.25"}})
    assert filled == (
        "The loss fell to 0.25 after one step; "
        "the engine's order on the left, the other on the right."
    )


def test_the_download_asks_a_prompts_question_and_folds_its_answer_away() -> None:
    markdown = (
        "Before.\n\n"
        "```{predict-run} neuron_dw2\n"
        ":format: .4f\n"
        ":close: 0.01\n"
        "\n"
        "Predict, then run: edit `x2`.\n"
        "What will `w2`'s gradient be?\n"
        "\n"
        "It is {glue:text}`neuron_dw2:.4f`.\n"
        "\n"
        "Then `o` is its own.\n"
        "```\n\n"
        "```{predict-claim} loss_rises\n"
        "Rise or fall?\n"
        "\n"
        "The loss {claim}``loss_rises: rises || falls``.\n"
        "```\n\n"
        "After."
    )
    filled = fill_glue(fill_roles(fill_prompts(markdown)), {"neuron_dw2": {"text/plain": "0.0887"}})
    assert filled == (
        "Before.\n\n"
        "Predict, then run: edit `x2`. What will `w2`'s gradient be?\n\n"
        "<details><summary>The answer</summary>\n\nIt is 0.0887.\n\nThen `o` is its own.\n\n"
        "</details>\n\n"
        "Rise or fall?\n\n"
        "<details><summary>The answer</summary>\n\nThe loss rises.\n\n</details>\n\n"
        "After."
    )


def test_the_runners_stylesheet_ships_with_each_features_rules_after_its_own(
    tmp_path: Path,
) -> None:
    from browser_runner import css_rules, runner_stylesheet

    sources, features = tmp_path / "runner", tmp_path / "_features"
    for folder in (sources, features / "knob", features / "dial"):
        folder.mkdir(parents=True)
    (sources / "runner.css").write_text("/* The bar. */\n.runner-bar {}\n")
    (features / "knob" / "knob.css").write_text(".mg-knob {\n  color: red; /* why */\n}\n")
    (features / "dial" / "dial.css").write_text(".mg-dial {}\n")
    shipped = runner_stylesheet(sources, features).decode()
    assert shipped == ".runner-bar {}\n\n.mg-dial {}\n\n.mg-knob {\n  color: red;}\n"
    # The book's own: every rule of every feature's stylesheet is in the one the page
    # loads, and no comment.
    real = runner_stylesheet()
    for css in sorted((ROOT / "docs" / "_features").glob("*/*.css")):
        assert css_rules(css.read_bytes()) in real, css
    assert b"/*" not in real
