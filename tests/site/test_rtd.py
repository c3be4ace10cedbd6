"""tools/rtd.py, Read the Docs' build as the config describes it (``nox -s rtd`` runs it whole)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scripts import import_tool

rtd = import_tool("rtd")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def config() -> dict:
    return rtd.load_config(ROOT / ".readthedocs.yaml")


def test_jobs_run_in_read_the_docs_phase_order_with_its_own_html_build(config: dict) -> None:
    phases = [phase for phase, _ in rtd.jobs_in_order(config)]
    assert phases == ["pre_install", "install", "pre_build", "build.html", "build.pdf"]
    html = dict(rtd.jobs_in_order(config))["build.html"]
    assert html == [
        "cd docs && python -m sphinx -T -W --keep-going -b html -d _build/doctrees "
        "-D language=en . $READTHEDOCS_OUTPUT/html"
    ]


def test_a_phase_read_the_docs_does_not_have_is_refused() -> None:
    config = {"version": 2, "sphinx": {"configuration": "docs/conf.py"}}
    config["build"] = {"jobs": {"pre_biuld": ["true"]}}
    with pytest.raises(ValueError, match="pre_biuld"):
        list(rtd.jobs_in_order(config))


def test_a_format_without_a_job_of_its_own_is_refused() -> None:
    config = {"version": 2, "sphinx": {"configuration": "docs/conf.py"}, "formats": ["epub"]}
    with pytest.raises(ValueError, match="epub"):
        list(rtd.jobs_in_order(config))


def test_the_site_build_installs_the_bundler_it_runs(config: dict) -> None:
    """esbuild is a devDependency, so no `npm ci` of the config may leave the dev tools out."""
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    assert "esbuild" in package["devDependencies"]
    npm = [c for _, cs in rtd.jobs_in_order(config) for c in cs if c.startswith("npm ci")]
    assert npm
    assert not [c for c in npm if "--omit=dev" in c or "--production" in c]


def test_an_index_other_than_pypi_is_dropped_and_said() -> None:
    command = "python -m pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"
    runnable, said = rtd.substitute(command, chromium=None)
    assert runnable == "python -m pip install torch==2.13.0"
    assert len(said) == 1
    assert "download.pytorch.org" in said[0]
    kept = "python -m pip install x --index-url https://pypi.org/simple"
    assert rtd.substitute(kept, chromium=None) == (kept, [])


def test_playwrights_browser_download_is_skipped_only_where_a_chromium_prints() -> None:
    command = "python -m playwright install --only-shell chromium"
    runnable, said = rtd.substitute(command, chromium="/usr/bin/chromium")
    assert runnable is None
    assert "/usr/bin/chromium" in said[0]
    assert rtd.substitute(command, chromium=None) == (command, [])


REPOSITORY = "https://github.com/owner/book"


def _site(output: Path, pages: list[str]) -> None:
    """A minimal Read the Docs output that passes every check."""
    runner = output / "html" / "_static" / "runner"
    (runner / "py").mkdir(parents=True)
    for name in ("runner.js", "a.whl", "py/python.wasm"):
        (runner / name).write_bytes(b"x")
    (output / "pdf").mkdir()
    (output / "pdf" / "book.pdf").write_bytes(b"%PDF-1.7 the book")
    (output / "html" / "book.pdf").write_bytes(b"%PDF-1.7 the book")
    for name in pages:
        (output / "html" / f"{name}.html").write_text(
            '<script src="_static/runner/runner.js?v=1" id="micrograd-runner"\n'
            ' data-wheels="a.whl" data-start-files="a.whl py/python.wasm"></script>\n'
            f'<a href="{REPOSITORY}/blob/main/docs/{name}.md">source</a>\n'
            '<li><a href="book.pdf" target="_blank"\n'
            '   class="btn btn-download-book-pdf-button dropdown-item">book .pdf</a></li>\n',
            encoding="utf-8",
        )


def test_a_whole_output_has_no_problem(tmp_path: Path) -> None:
    _site(tmp_path, ["index", "neuron"])
    assert rtd.output_problems(tmp_path, ["index", "neuron"], "book", REPOSITORY) == []


def test_each_missing_piece_of_the_output_is_named(tmp_path: Path) -> None:
    _site(tmp_path, ["index", "neuron"])
    (tmp_path / "html" / "_static" / "runner" / "a.whl").unlink()
    (tmp_path / "html" / "book.pdf").unlink()
    problems = rtd.output_problems(tmp_path, ["index", "neuron", "moons"], "book", REPOSITORY)
    assert "no page moons.html" in problems
    assert "index.html names _static/runner/a.whl, which is not shipped" in problems
    assert "neuron.html's PDF link book.pdf leads to no copy of the PDF" in problems
    other = rtd.output_problems(tmp_path, ["index"], "book", "https://github.com/other/book")
    assert "index.html links nowhere into https://github.com/other/book" in other


def test_an_output_without_its_pdf_or_its_webassembly_says_so(tmp_path: Path) -> None:
    _site(tmp_path, ["index"])
    (tmp_path / "pdf" / "book.pdf").unlink()
    page = tmp_path / "html" / "index.html"
    page.write_text(page.read_text().replace(" py/python.wasm", ""), encoding="utf-8")
    problems = rtd.output_problems(tmp_path, ["index"], "book", REPOSITORY)
    assert "no PDF at pdf/book.pdf" in problems
    assert "no page names the runtime's WebAssembly" in problems


def test_the_repository_links_come_from_the_clone_url() -> None:
    assert rtd.web_address("git@github.com:owner/book.git") == REPOSITORY


def _executed(root: Path, graph: str) -> Path:
    """An output root whose one executed page glues a number and draws ``graph``."""
    outputs = [
        {"output_type": "display_data", "data": {"image/svg+xml": graph}, "metadata": {}},
        {
            "output_type": "display_data",
            "data": {"application/papermill.record/text/plain": "0.7071"},
            "metadata": {"scrapbook": {"name": "o", "mime_prefix": "x"}},
        },
    ]
    notebook = {"cells": [{"cell_type": "code", "source": "x", "outputs": outputs}]}
    (root / "jupyter_execute").mkdir(parents=True)
    (root / "jupyter_execute" / "neuron.ipynb").write_text(json.dumps(notebook))
    return root


def test_against_a_build_whose_pictures_differ_the_hosted_build_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hosted = _executed(tmp_path / "hosted", '<svg width="416pt"/>')
    env = {"READTHEDOCS_OUTPUT": str(hosted), "READTHEDOCS_GIT_CLONE_URL": rtd.STAND_IN_CLONE_URL}
    monkeypatch.setattr(rtd, "build", lambda work, project: env)
    monkeypatch.setattr(rtd, "output_problems", lambda *args: [])
    same = _executed(tmp_path / "same", '<svg width="416pt"/>')
    assert rtd.main(["--against", str(same)]) == 0
    other = _executed(tmp_path / "other", '<svg width="378pt"/>')
    assert rtd.main(["--against", str(other)]) == 1
    assert "problem: SVG neuron.ipynb:cell0:output0 differs" in capsys.readouterr().out
