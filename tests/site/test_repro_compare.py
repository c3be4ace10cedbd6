"""tools/repro.py, the comparison of two builds: it must notice every kind of difference."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scripts import import_tool

repro = import_tool("repro")
MEASUREMENTS, compare_builds, main = repro.MEASUREMENTS, repro.compare_builds, repro.main
compare_numbers_and_pictures = repro.compare_numbers_and_pictures

GRAPH = '<svg xmlns="http://www.w3.org/2000/svg"><g id="n0"><text>a 2.0000</text></g></svg>'


WHEEL = "micrograd_book-0.2.0+0123456789abcdef-py3-none-any.whl"


def _fake_build(
    root: Path,
    loss: str = "0.2500",
    graph: str = GRAPH,
    glue: bool = True,
    wheel: bytes | None = b"PK fixed bytes",
) -> Path:
    outputs = [{"output_type": "display_data", "data": {"image/svg+xml": graph}, "metadata": {}}]
    if glue:
        outputs.append(
            {
                "output_type": "display_data",
                "data": {"application/papermill.record/text/plain": loss},
                "metadata": {"scrapbook": {"name": "final_loss", "mime_prefix": "x"}},
            }
        )
    notebook = {"cells": [{"cell_type": "code", "source": "x", "outputs": outputs}]}
    (root / "jupyter_execute" / "tutorials").mkdir(parents=True)
    (root / "jupyter_execute" / "tutorials" / "train.ipynb").write_text(json.dumps(notebook))
    if glue:  # glue(..., display=False) values live in <page>.glue.json
        side = {"lr": {"output_type": "display_data", "data": {"text/plain": "0.05"}}}
        (root / "jupyter_execute" / "tutorials" / "train.glue.json").write_text(json.dumps(side))
    (root / "html" / "_images").mkdir(parents=True)
    (root / "html" / "_images" / "graph.svg").write_text(graph)
    (root / "html" / "_static" / "runner").mkdir(parents=True)
    if wheel is not None:
        (root / "html" / "_static" / "runner" / WHEEL).write_bytes(wheel)
    return root


def test_identical_builds_compare_equal(tmp_path: Path) -> None:
    a, b = _fake_build(tmp_path / "a"), _fake_build(tmp_path / "b")
    assert compare_builds(a, b) == []
    assert main([str(a), str(b)]) == 0


def test_a_changed_glued_number_is_reported(tmp_path: Path) -> None:
    a, b = _fake_build(tmp_path / "a"), _fake_build(tmp_path / "b", loss="0.2501")
    problems = compare_builds(a, b)
    assert len(problems) == 1
    assert "tutorials/train.ipynb:final_loss[text/plain]" in problems[0]
    assert "-0.2500" in problems[0]
    assert "+0.2501" in problems[0]
    assert main([str(a), str(b)]) == 1


def test_a_changed_value_glued_without_display_is_reported(tmp_path: Path) -> None:
    a, b = _fake_build(tmp_path / "a"), _fake_build(tmp_path / "b")
    side = b / "jupyter_execute" / "tutorials" / "train.glue.json"
    side.write_text(side.read_text().replace("0.05", "0.5"))
    problems = compare_builds(a, b)
    assert len(problems) == 1
    assert problems[0].startswith("glued value tutorials/train.ipynb:lr[text/plain] differs")


def test_a_changed_graph_svg_is_reported_with_a_diff(tmp_path: Path) -> None:
    other = GRAPH.replace("2.0000", "2.0001")
    a, b = _fake_build(tmp_path / "a"), _fake_build(tmp_path / "b", graph=other)
    problems = compare_builds(a, b)
    assert any(p.startswith("SVG tutorials/train.ipynb:cell0:output0 differs") for p in problems)
    assert any(p.startswith("SVG html/_images/graph.svg differs") for p in problems)
    assert any("+" + other in p for p in problems)


def test_a_build_without_glued_values_is_an_error(tmp_path: Path) -> None:
    a, b = _fake_build(tmp_path / "a"), _fake_build(tmp_path / "b", glue=False)
    with pytest.raises(ValueError, match="no glued values"):
        compare_builds(a, b)


def _with_glue(root: Path, notebook: str, values: dict[str, str]) -> None:
    side = {
        k: {"output_type": "display_data", "data": {"text/plain": v}} for k, v in values.items()
    }
    (root / "jupyter_execute" / notebook.replace(".ipynb", ".glue.json")).write_text(
        json.dumps(side)
    )


def test_a_declared_measurement_may_differ_but_not_vanish(tmp_path: Path) -> None:
    a, b = _fake_build(tmp_path / "a"), _fake_build(tmp_path / "b")
    names = sorted(MEASUREMENTS["why-its-fast.ipynb"])
    _with_glue(a, "why-its-fast.ipynb", {n: "1.0" for n in names} | {"bytes_slotted": "120"})
    _with_glue(b, "why-its-fast.ipynb", {n: "2.0" for n in names} | {"bytes_slotted": "120"})
    assert compare_builds(a, b) == []

    _with_glue(b, "why-its-fast.ipynb", {n: "2.0" for n in names} | {"bytes_slotted": "121"})
    assert [p.split(" differs")[0] for p in compare_builds(a, b)] == [
        "glued value why-its-fast.ipynb:bytes_slotted[text/plain]"
    ]

    _with_glue(b, "why-its-fast.ipynb", {"bytes_slotted": "120"})
    problems = compare_builds(a, b)
    assert len(problems) == len(names)
    assert all("declared in MEASUREMENTS but not glued" in p for p in problems)


def test_a_runtime_wheel_with_other_bytes_is_reported(tmp_path: Path) -> None:
    a = _fake_build(tmp_path / "a")
    b = _fake_build(tmp_path / "b", wheel=b"PK other bytes (a timestamp moved)")
    problems = compare_builds(a, b)
    assert len(problems) == 1
    assert problems[0].startswith(f"runtime file {WHEEL} differs")
    assert main([str(a), str(b)]) == 1


def test_a_build_without_the_micrograd_wheel_is_an_error(tmp_path: Path) -> None:
    a, b = _fake_build(tmp_path / "a"), _fake_build(tmp_path / "b", wheel=None)
    with pytest.raises(ValueError, match="no micrograd wheel"):
        compare_builds(a, b)


def test_a_changed_inline_graph_or_stepper_frame_is_reported(tmp_path: Path) -> None:
    inline = '<svg width="9pt" class="micrograd-graph"><title>x: data = 2.0</title></svg>'
    a, b = _fake_build(tmp_path / "a"), _fake_build(tmp_path / "b")
    for root, value in ((a, "2.0"), (b, "2.5")):
        page = inline.replace("2.0", value)
        (root / "html" / "neuron.html").write_text(f"<html><body>{page}</body></html>")
        notebook = root / "jupyter_execute" / "tutorials" / "train.ipynb"
        data = json.loads(notebook.read_text())
        data["cells"][0]["outputs"].append(
            {"output_type": "execute_result", "data": {"text/html": f"<div>{page}</div>"}}
        )
        notebook.write_text(json.dumps(data))
    problems = compare_builds(a, b)
    assert any(p.startswith("SVG html/neuron.html:graph0 differs") for p in problems)
    assert any(p.startswith("SVG tutorials/train.ipynb:cell0:output2 differs") for p in problems)
    assert compare_builds(a, a) == []


def test_a_changed_download_is_reported_unless_it_prints_measurements(tmp_path: Path) -> None:
    a, b = _fake_build(tmp_path / "a"), _fake_build(tmp_path / "b")
    for root, text in ((a, "one"), (b, "two")):
        (root / "html" / "_sources" / "why-its-fast").mkdir(parents=True)
        (root / "html" / "_sources" / "train.ipynb").write_text(text)
        (root / "html" / "_sources" / "why-its-fast.ipynb").write_text(text)
        (root / "html" / "_sources" / "why-its-fast" / "cell-1.py").write_text(text)
    problems = compare_builds(a, b)
    assert [p.split(" differs")[0] for p in problems] == [
        "download train.ipynb",
        "download why-its-fast/cell-1.py",  # a script is code only: it never measures
    ]


def test_a_changed_page_is_reported_unless_it_prints_measurements(tmp_path: Path) -> None:
    a, b = _fake_build(tmp_path / "a"), _fake_build(tmp_path / "b")
    for root, text in ((a, "Value(data=0.9, grad=0.0) 0.5"), (b, "Value(data=0.9, grad=0.0)\n0.5")):
        (root / "html" / "moons.html").write_text(f"<pre>{text}</pre>\n")
        (root / "html" / "why-its-fast.html").write_text(f"<pre>{text}</pre>\n")
    problems = compare_builds(a, b)
    assert [p.split(" differs")[0] for p in problems] == ["page moons.html"]
    assert main([str(a), str(b)]) == 1


# -- numbers and pictures only --------------------------------------------------------------------


def _rebuilt_with_new_code(root: Path, **changes: str) -> Path:
    """A build of changed code: another wheel, pages, downloads; the same numbers and SVGs."""
    build = _fake_build(root, wheel=b"PK the wheel of the new code", **changes)
    (build / "html" / "moons.html").write_text("<p>a cell's text changed</p>\n")
    (build / "html" / "_sources").mkdir()
    (build / "html" / "_sources" / "train.ipynb").write_text("another download")
    notebook = build / "jupyter_execute" / "tutorials" / "train.ipynb"
    data = json.loads(notebook.read_text())
    picture = data["cells"][0]["outputs"][0]
    picture["output_type"] = "execute_result"  # a figure as the cell's value, with its repr
    picture["data"]["text/plain"] = "<Figure: 1 chart, 5.0 x 3.5 in>"
    notebook.write_text(json.dumps(data))
    return build


def test_numbers_and_pictures_leave_out_pages_downloads_and_runtime(tmp_path: Path) -> None:
    a, b = _fake_build(tmp_path / "a"), _rebuilt_with_new_code(tmp_path / "b")
    assert len(compare_builds(a, b)) == 3  # the wheel, the page and the download
    assert compare_numbers_and_pictures(a, b) == []
    assert main(["--numbers-and-pictures", str(a), str(b)]) == 0
    assert main([str(a), str(b)]) == 1


def test_numbers_and_pictures_report_a_changed_number_or_svg(tmp_path: Path) -> None:
    a = _fake_build(tmp_path / "a")
    changed_number = _rebuilt_with_new_code(tmp_path / "b", loss="0.2501")
    (problem,) = compare_numbers_and_pictures(a, changed_number)
    assert problem.startswith("glued value tutorials/train.ipynb:final_loss[text/plain] differs")
    assert main(["--numbers-and-pictures", str(a), str(changed_number)]) == 1
    changed_picture = _rebuilt_with_new_code(tmp_path / "c", graph=GRAPH.replace("a ", "b "))
    problems = compare_numbers_and_pictures(a, changed_picture)
    assert [p.split(" differs")[0] for p in problems] == [
        "SVG html/_images/graph.svg",
        "SVG tutorials/train.ipynb:cell0:output0",
    ]


def test_numbers_and_pictures_need_no_runtime_but_some_glued_value(tmp_path: Path) -> None:
    a, b = _fake_build(tmp_path / "a"), _fake_build(tmp_path / "b", wheel=None)
    assert compare_numbers_and_pictures(a, b) == []
    unglued = _fake_build(tmp_path / "c", glue=False)
    with pytest.raises(ValueError, match="no glued values"):
        compare_numbers_and_pictures(a, unglued)


@pytest.mark.parametrize("argv", [["--pictures-only", "a", "b"], ["--numbers-and-pictures", "a"]])
def test_a_bad_command_line_prints_the_usage(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert "--numbers-and-pictures BUILD_A BUILD_B" in capsys.readouterr().err
