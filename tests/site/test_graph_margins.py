"""The book's graphs as a phone draws them, laid out by either program that may lay them out.

The build and the reader's browser lay the graphs out with Graphviz as viz.js
(``node_modules/@viz-js/viz``, docs/_ext/layout_program.py); a user's machine
without Graphviz, with ``graphviz-pure`` (the library's fallback).  Each test here
lays out the pages' own graphs (run from the pages' cells, as the build runs them)
with both, and reads the SVG's numbers the way the site draws them on a phone:

* a graph in the page's column is as wide as the column, never wider than drawn
  (micrograd-figures.css: ``max-width: 100%``);
* a stepper's frame is drawn at the size ``frameScale`` gives it, its words beside its
  drawings where ``wordsBeside`` says so (docs/_static/micrograd-figure-scale.js, run
  here by Node, as the page runs it);
* in dark mode, a graph's light backing: its padding (micrograd-figures.css, read
  here) takes its room from the drawing.

The numbers a reader must read there are drawn at 12 px or more, whichever program laid
them out, and on a laptop at 11 px or more, the steppers' words beside their drawings
and the drawings within the window's height: the browser tests, which measure the built
pages, hold them to 11 px and the steppers to the window.  A
stepper's frames share one size, and each node its place, from step to step.
"""

from __future__ import annotations

import json
import re
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable
from functools import cache
from typing import Any

import layout_program
import pytest
from _dot import graphviz_pure
from pages import execute_page, in_page_group

from micrograd.viz.stepper import Stepper, StepperPair

ROOT = layout_program.ROOT
FRAME_SCALE_JS = ROOT / "docs" / "_static" / "micrograd-figure-scale.js"
FIGURES_CSS = ROOT / "docs" / "_static" / "micrograd-figures.css"
SVG = "{http://www.w3.org/2000/svg}"

#: A phone's window (CSS px), as the browser tests open the pages on one.
PHONE_WIDTH_PX = 390
PHONE_HEIGHT_PX = 844
#: The article's column on that phone, and a stepper's view of its drawing there: the
#: whole column, a phone's stepper having no border or padding at its sides
#: (micrograd-figures.css, .mg-words-below); a pair's, the column less the pair's border
#: and padding (8 px and 1 px a side), as the theme lays them out.
PHONE_COLUMN_PX = 358
PHONE_STEPPER_VIEW_PX = PHONE_COLUMN_PX
PHONE_PAIR_VIEW_PX = PHONE_COLUMN_PX - 18
#: The smallest a number a reader must read on a phone is drawn (CSS px).
READABLE_PX = 12.0
#: A laptop's window (CSS px), and the row a stepper's drawings and words share there:
#: the article's column (1366 px wide) less the stepper's border and padding.
LAPTOP_WIDTH_PX = 1366
LAPTOP_ROW_PX = 723
#: The window's height a laptop leaves a stepper's drawings (CSS px), the words beside
#: them: 768 less the theme's header (48), the stepper's border, padding, buttons and a
#: frame's margin above the drawings (62) and below them (17), and 8 to spare; a pair's
#: drawings, under the line where its orders part (44), have that much less.
LAPTOP_FREE_PX = 768 - 48 - 62 - 17 - 8
PAIR_NOTE_PX = 44
#: The smallest a number a reader must read on a laptop is drawn (CSS px).
LAPTOP_READABLE_PX = 11.0
#: CSS px in a point: Graphviz writes an SVG's size in points.
PX_PER_PT = 4 / 3
#: CSS px in a rem: the theme's root font size.
PX_PER_REM = 16
#: The site's colour modes.
THEMES = ["light", "dark"]

#: Lays out DOT sources with viz.js (``{viz}``), in one Node process: JSON in, JSON out.
VIZ_SCRIPT = """
import {{ instance }} from {viz};
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const viz = await instance();
const sources = JSON.parse(Buffer.concat(chunks).toString("utf8"));
process.stdout.write(JSON.stringify(sources.map((dot) =>
  viz.renderString(dot, {{ format: "svg", engine: "dot" }}))));
"""

#: Runs the page's rule of a stepper frame's size on each drawing: JSON in, JSON out.
SCALE_SCRIPT = f"""
import {{ frameScale }} from {json.dumps(FRAME_SCALE_JS.as_uri())};
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const drawings = JSON.parse(Buffer.concat(chunks).toString("utf8"));
process.stdout.write(JSON.stringify(drawings.map(frameScale)));
"""

#: Runs the page's rule of whether a stepper's words lie below its drawing: JSON in, JSON out.
BELOW_SCRIPT = f"""
import {{ wordsBelow }} from {json.dumps(FRAME_SCALE_JS.as_uri())};
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const steppers = JSON.parse(Buffer.concat(chunks).toString("utf8"));
process.stdout.write(JSON.stringify(steppers.map(wordsBelow)));
"""

#: Runs the page's rule of where a stepper's words lie on each row: JSON in, JSON out.
BESIDE_SCRIPT = f"""
import {{ wordsBeside }} from {json.dumps(FRAME_SCALE_JS.as_uri())};
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const rows = JSON.parse(Buffer.concat(chunks).toString("utf8"));
process.stdout.write(JSON.stringify(rows.map(wordsBeside)));
"""


def node_script(script: str, data: Any) -> Any:
    """Run ``script`` (an ES module) with Node, ``data`` as JSON on its stdin; its JSON out."""
    done = subprocess.run(
        [layout_program.node(), "--input-type=module", "-e", script],
        input=json.dumps(data).encode(),
        capture_output=True,
        check=True,
    )
    return json.loads(done.stdout)


def with_graphviz_pure(sources: list[str]) -> list[str]:
    program = graphviz_pure()
    assert program is not None, "graphviz-pure is not installed"
    return [
        subprocess.run(
            [program, "-Tsvg"], input=dot.encode(), capture_output=True, check=True
        ).stdout.decode()
        for dot in sources
    ]


def with_viz_js(sources: list[str]) -> list[str]:
    """The book's layout program: the viz.js that package-lock.json pins."""
    viz = layout_program.package_folder(ROOT / "node_modules") / "dist" / "viz.js"
    svgs: list[str] = node_script(VIZ_SCRIPT.format(viz=json.dumps(viz.as_uri())), sources)
    return svgs


PROGRAMS: dict[str, Callable[[list[str]], list[str]]] = {
    "graphviz-pure": with_graphviz_pure,
    "viz.js": with_viz_js,
}


@pytest.fixture(params=list(PROGRAMS))
def lay_out(request: pytest.FixtureRequest) -> Callable[[list[str]], list[str]]:
    """Lay DOT sources out as SVG documents, with one program and then the other."""
    return PROGRAMS[request.param]


@cache
def shown(page: str, code: str) -> Any:
    """What the cell of ``docs/<page>.md`` that holds ``code`` shows, the page run up to it."""
    return execute_page(page, until=code).shown


def frame_sources(stepper: Stepper) -> list[list[str]]:
    """A stepper's drawings, frame by frame: one a frame, or a pair's two sides (one list each)."""
    frames = stepper.to_json()["frames"]
    if isinstance(stepper, StepperPair):
        return [[frame["sides"][side]["dot"] for frame in frames] for side in (0, 1)]
    return [[frame["dot"] for frame in frames]]


# -- what an SVG says ---------------------------------------------------------------------------


def size_pt(svg: str) -> tuple[float, float]:
    """The drawing's natural width and height, in points."""
    root = ET.fromstring(svg)
    return tuple(float(root.get(side, "").removesuffix("pt")) for side in ("width", "height"))  # type: ignore[return-value]


def smallest_text(svg: str) -> float:
    """The smallest font size of the drawing's text, in its viewBox's units per its width."""
    root = ET.fromstring(svg)
    units = float(root.get("viewBox", "").split()[2])
    width, _ = size_pt(svg)
    sizes = [float(text.get("font-size", "nan")) for text in root.iter(SVG + "text")]
    assert sizes, "a drawing without text"
    return min(sizes) * width / units


def node_boxes(svg: str) -> dict[str, tuple[float, ...]]:
    """Each node's name -> its shape's box (left, top, right, bottom), in points."""
    boxes = {}
    for group in ET.fromstring(svg).iter(SVG + "g"):
        if group.get("class", "").split()[:1] != ["node"]:
            continue
        xs: list[float] = []
        ys: list[float] = []
        for shape in group.iter():
            if shape.tag == SVG + "polygon":
                points = [p.split(",") for p in shape.get("points", "").split()]
                xs += [float(x) for x, _ in points]
                ys += [float(y) for _, y in points]
            elif shape.tag == SVG + "ellipse":
                cx, cy, rx, ry = (float(shape.get(k, "nan")) for k in ("cx", "cy", "rx", "ry"))
                xs += [cx - rx, cx + rx]
                ys += [cy - ry, cy + ry]
        title = group.find(SVG + "title")
        assert title is not None, "a node without a name"
        assert xs, f"node {title.text} has no shape"
        boxes[str(title.text)] = (min(xs), min(ys), max(xs), max(ys))
    return boxes


def in_column_px(svg: str, column: float, inset: float = 0.0) -> float:
    """The drawing's smallest text (CSS px) as the page's column shows it: its box as wide
    as the column, never wider than drawn (micrograd-figures.css), less ``inset`` (its
    padding, CSS px)."""
    natural = size_pt(svg)[0] * PX_PER_PT
    return smallest_text(svg) * PX_PER_PT * (min(natural, column) - inset) / natural


def backing_inset_px(css: str, theme: str) -> float:
    """What the rules of ``theme`` in ``css`` give a graph as padding (CSS px): the larger of
    its two sides' across and of its two up and down.  The theme sizes boxes border-box, so
    the page draws the graph that much narrower, or lower, than its box."""
    if theme == "light":
        return 0.0
    sides = [0.0, 0.0, 0.0, 0.0]  # top, right, bottom, left
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        if f'data-theme="{theme}"' not in selector or "svg.micrograd-graph" not in selector:
            continue
        for name, value in re.findall(r"([\w-]+)\s*:\s*([^;]+)", body):
            if name == "padding":
                # One to four values, from the top clockwise; a side not given is the
                # one opposite it.
                top, *rest = [css_px(v) for v in value.split()]
                right = rest[0] if rest else top
                bottom = rest[1] if len(rest) > 1 else top
                sides = [top, right, bottom, rest[2] if len(rest) > 2 else right]
            elif name.startswith(("padding", "border")) and name != "border-radius":
                raise ValueError(f"a rule the margin tests do not read: {name}: {value}")
    return max(sides[1] + sides[3], sides[0] + sides[2])


def css_px(length: str) -> float:
    """A CSS length in px or rem (or 0), in CSS px."""
    length = length.strip()
    if length.endswith("rem"):
        return float(length.removesuffix("rem")) * PX_PER_REM
    if length.endswith("px"):
        return float(length.removesuffix("px"))
    if float(length) == 0:
        return 0.0
    raise ValueError(f"a length the margin tests do not read: {length}")


# -- the pages' graphs --------------------------------------------------------------------------

NEURON = "neuron"
BACKWARD = "backward"
#: The code of the cells that show the neuron page's two graphs, and its stepper.
NEURON_GRAPHS = ["draw_dot(o)", "draw_dot(o2)"]
NEURON_STEPPER = "stepper = BackwardStepper(o)"
#: The code of the cells that show the backward page's stepper and its pair.
BACKWARD_STEPPERS = ["BackwardStepper(worked_example())", "pair = StepperPair("]
LOCAL_RULES = "local-rules"
#: The code of the cell that shows the local-rules page's picture of the chain rule.
CHAIN_RULE_PICTURE = "draw_paths(L, a)"


@pytest.fixture(params=THEMES)
def inset(request: pytest.FixtureRequest) -> float:
    """In one theme and then the other: what its backing's padding takes from a graph (CSS px)."""
    return backing_inset_px(FIGURES_CSS.read_text(encoding="utf-8"), request.param)


@in_page_group(NEURON)
def test_on_a_phone_the_neurons_graphs_are_drawn_at_12_px_or_more(
    lay_out: Callable[[list[str]], list[str]], inset: float
) -> None:
    graphs = [shown(NEURON, code) for code in NEURON_GRAPHS]
    svgs = lay_out([graph.source for graph in graphs])
    drawn = [round(in_column_px(svg, PHONE_COLUMN_PX, inset), 2) for svg in svgs]
    assert min(drawn) >= READABLE_PX, dict(zip(NEURON_GRAPHS, drawn, strict=True))


# The cells before the picture include the sin section's checks, which import torch.
@pytest.mark.torch
@in_page_group(LOCAL_RULES)
def test_on_a_phone_the_chain_rule_picture_is_drawn_at_12_px_or_more(
    lay_out: Callable[[list[str]], list[str]], inset: float
) -> None:
    """Its local derivatives on the arrows and its sums under it, as well as its boxes."""
    (svg,) = lay_out([shown(LOCAL_RULES, CHAIN_RULE_PICTURE).source])
    assert round(in_column_px(svg, PHONE_COLUMN_PX, inset), 2) >= READABLE_PX


def on_a_phone(
    svgs: list[str], inset: float, room: float = PHONE_STEPPER_VIEW_PX
) -> list[tuple[bool, float]]:
    """Each drawing as a phone draws it in a stepper's frame (its words under it): whether
    it scrolls sideways, and its smallest label (CSS px), its box ``inset`` px wider than
    the drawing in it, in a view ``room`` px wide."""
    drawings = []
    for svg in svgs:
        width, height = (side * PX_PER_PT for side in size_pt(svg))
        label = smallest_text(svg) * PX_PER_PT
        # No height left in the window (the least it may leave): 12 px must not need any.
        free, screen = 0, PHONE_WIDTH_PX
        drawings.append(
            {"width": width, "height": height, "label": label}
            | {"room": room, "free": free, "screen": screen}
        )
    scales = node_script(SCALE_SCRIPT, drawings)
    return [
        (s["sideways"], round(d["label"] * s["scale"] * (1 - inset / (d["width"] * s["scale"])), 2))
        for d, s in zip(drawings, scales, strict=True)
    ]


def test_on_a_phone_a_steppers_words_lie_below_its_drawing() -> None:
    """A stepper's, so that its drawing keeps one place under the buttons; a pair's sides
    have theirs below already, and a laptop's lie beside or above."""
    steppers = [
        {"screen": PHONE_WIDTH_PX, "pair": False},
        {"screen": PHONE_WIDTH_PX, "pair": True},
        {"screen": LAPTOP_WIDTH_PX, "pair": False},
        {"screen": LAPTOP_WIDTH_PX, "pair": True},
    ]
    assert node_script(BELOW_SCRIPT, steppers) == [True, False, False, False]


@in_page_group(NEURON)
def test_on_a_phone_the_neurons_stepper_fits_its_box_with_its_numbers_at_12_px_or_more(
    lay_out: Callable[[list[str]], list[str]], inset: float
) -> None:
    """Every frame, in either layout program: the view, the whole column, holds it at
    12 px, so that it does not scroll sideways and no node is cut at its edges."""
    (sources,) = frame_sources(shown(NEURON, NEURON_STEPPER))
    drawn = on_a_phone(lay_out(sources), inset)
    assert not any(sideways for sideways, _ in drawn), drawn
    assert min(px for _, px in drawn) >= READABLE_PX, drawn


@in_page_group(BACKWARD)
def test_on_a_phone_the_backward_pages_stepper_fits_the_column_with_its_numbers_at_12_px(
    lay_out: Callable[[list[str]], list[str]], inset: float
) -> None:
    """Every frame: narrow enough for the column at 12 px, it does not scroll sideways;
    however little of the window's height its caption leaves, it keeps 12 px, whole, and
    the page scrolls to the node at work."""
    (sources,) = frame_sources(shown(BACKWARD, BACKWARD_STEPPERS[0]))
    drawn = on_a_phone(lay_out(sources), inset)
    assert not any(sideways for sideways, _ in drawn), drawn
    assert min(px for _, px in drawn) >= READABLE_PX, drawn


def on_a_laptop(svgs: list[str], drawings: int, free: float) -> list[tuple[bool, float, float]]:
    """Each drawing as a laptop draws it in a stepper's frame, one of ``drawings`` in its
    row, ``free`` px of the window's height left for it: whether its words lie beside the
    drawings, its smallest label (CSS px) and its height (CSS px)."""
    rows, shapes = [], []
    for svg in svgs:
        width, height = (side * PX_PER_PT for side in size_pt(svg))
        label = smallest_text(svg) * PX_PER_PT
        row = {"width": width, "label": label, "room": LAPTOP_ROW_PX, "screen": LAPTOP_WIDTH_PX}
        rows.append(row | {"drawings": drawings})
        shapes.append(row | {"height": height, "free": free, "beside": drawings})
    beside = node_script(BESIDE_SCRIPT, rows)
    scales = node_script(SCALE_SCRIPT, shapes)
    return [
        (b, round(d["label"] * s["scale"], 2), round(d["height"] * s["scale"], 1))
        for b, d, s in zip(beside, shapes, scales, strict=True)
    ]


@in_page_group(NEURON)
def test_on_a_laptop_the_neurons_stepper_lies_beside_its_words_within_the_window_at_11_px(
    lay_out: Callable[[list[str]], list[str]],
) -> None:
    """Every frame: its words beside it, the drawing fits the window's height with its
    numbers at 11 px or more."""
    (sources,) = frame_sources(shown(NEURON, NEURON_STEPPER))
    drawn = on_a_laptop(lay_out(sources), 1, LAPTOP_FREE_PX)
    assert all(beside for beside, _, _ in drawn), drawn
    assert min(px for _, px, _ in drawn) >= LAPTOP_READABLE_PX, drawn
    assert max(height for _, _, height in drawn) <= LAPTOP_FREE_PX, drawn


# The cells before the pair include the "In PyTorch" box's, which import torch.
@pytest.mark.torch
@in_page_group(BACKWARD)
def test_on_a_laptop_the_backward_pair_lies_beside_its_words_within_the_window_at_11_px(
    lay_out: Callable[[list[str]], list[str]],
) -> None:
    """Every frame of both sides: the two drawings side by side, their words beside them,
    each drawing within the window's height under the line where the orders part, its
    numbers at 11 px or more."""
    free = LAPTOP_FREE_PX - PAIR_NOTE_PX
    for sources in frame_sources(shown(BACKWARD, BACKWARD_STEPPERS[1])):
        drawn = on_a_laptop(lay_out(sources), 2, free)
        assert all(beside for beside, _, _ in drawn), drawn
        assert min(px for _, px, _ in drawn) >= LAPTOP_READABLE_PX, drawn
        assert max(height for _, _, height in drawn) <= free, drawn


@pytest.mark.torch
@in_page_group(BACKWARD)
def test_on_a_phone_the_backward_pair_fits_the_column_with_its_numbers_at_12_px(
    lay_out: Callable[[list[str]], list[str]], inset: float
) -> None:
    """Every frame of both sides, one side at a time: it does not scroll sideways, and
    keeps 12 px, whole, its words under it."""
    for sources in frame_sources(shown(BACKWARD, BACKWARD_STEPPERS[1])):
        drawn = on_a_phone(lay_out(sources), inset, PHONE_PAIR_VIEW_PX)
        assert not any(sideways for sideways, _ in drawn), drawn
        assert min(px for _, px in drawn) >= READABLE_PX, drawn


@pytest.mark.parametrize(
    ("page", "code"),
    [
        (NEURON, NEURON_STEPPER),
        (BACKWARD, BACKWARD_STEPPERS[0]),
        # The cells before the pair include the "In PyTorch" box's, which import torch.
        pytest.param(BACKWARD, BACKWARD_STEPPERS[1], marks=pytest.mark.torch),
    ],
)
def test_a_steppers_frames_share_one_size_and_each_node_its_place(
    lay_out: Callable[[list[str]], list[str]], page: str, code: str
) -> None:
    """Laid out once for the widest numbers: no frame is wider than another, no node moves."""
    for sources in frame_sources(shown(page, code)):
        svgs = lay_out(sources)
        sizes = [size_pt(svg) for svg in svgs]
        assert len(set(sizes)) == 1, sizes
        boxes = [node_boxes(svg) for svg in svgs]
        for k, frame in enumerate(boxes[1:], start=1):
            moved = {
                name: (box, frame[name])
                for name, box in boxes[0].items()
                if max(abs(a - b) for a, b in zip(box, frame[name], strict=True)) > 0.05
            }
            assert not moved, f"frame {k + 1} of {len(boxes)}: {moved}"


def test_the_margin_tests_read_the_numbers_they_mean() -> None:
    """The readings above, on a drawing whose numbers are known."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="600pt" height="300pt" '
        'viewBox="0.00 0.00 600.00 300.00"><g class="node"><title>n0</title>'
        '<polygon points="0,0 80,0 80,-60 0,-60 0,0"/>'
        '<text font-size="12.00">a</text><text font-size="14.00">b</text></g></svg>'
    )
    assert size_pt(svg) == (600.0, 300.0)
    assert smallest_text(svg) == 12.0
    assert node_boxes(svg) == {"n0": (0.0, -60.0, 80.0, 0.0)}
    # 800 px drawn, in a 400 px column: half size, 12 pt = 16 px drawn at 8 px.
    assert in_column_px(svg, 400) == pytest.approx(8.0)
    assert in_column_px(svg, 1000) == pytest.approx(16.0)
    # The page's rule: 16 px labels in a view a quarter as wide keep 12 px, sideways; in
    # a view as wide, without the window's height to fit, 12 px on a phone, 9.5 on a
    # laptop.  Beside its words, 11 px without the height, and within the height and the
    # row's share (the words keep 28 % of it) where it has them.
    drawing = {"width": 800, "height": 400, "label": 16, "free": 0}
    wide, phone, laptop, beside, tall, short = node_script(
        SCALE_SCRIPT,
        [
            drawing | {"room": 200, "screen": PHONE_WIDTH_PX},
            drawing | {"room": 800, "screen": PHONE_WIDTH_PX},
            drawing | {"room": 800, "screen": 1366},
            drawing | {"room": 1200, "screen": 1366, "beside": 1},
            drawing | {"room": 1200, "screen": 1366, "beside": 1, "free": 300},
            drawing | {"room": 1100, "screen": 1366, "beside": 1, "free": 1000},
        ],
    )
    assert wide["sideways"]
    assert 16 * wide["scale"] == pytest.approx(READABLE_PX + 0.01)
    assert not phone["sideways"]
    assert 16 * phone["scale"] == pytest.approx(READABLE_PX + 0.01)
    assert 16 * laptop["scale"] == pytest.approx(9.5)
    assert 16 * beside["scale"] == pytest.approx(LAPTOP_READABLE_PX + 0.01)
    assert 400 * tall["scale"] == pytest.approx(300)
    assert 800 * short["scale"] == pytest.approx(1100 * 0.72 - 12)
    # The words lie beside the drawings off a phone, where the row holds the drawings
    # at 11 px (550 px each, and 12 after each) and the words at 240 px.
    row = {"width": 800, "label": 16, "screen": 1366, "drawings": 2}
    assert node_script(
        BESIDE_SCRIPT,
        [
            row | {"room": 2 * (550.5 + 12) + 240},
            row | {"room": 2 * (550.5 + 12) + 239},
            row | {"room": 3000, "screen": PHONE_WIDTH_PX - 1},
            row | {"room": 3000, "drawings": 0},
        ],
    ) == [True, False, False, False]


def test_the_margin_tests_read_a_backings_padding() -> None:
    """The padding a theme's rule gives a graph, on rules whose answer is known."""
    dark = 'html[data-theme="dark"] .bd-content svg.micrograd-graph'
    assert backing_inset_px(f"{dark} {{ padding: 0.5rem; }}", "dark") == 16
    assert backing_inset_px(f"{dark} {{ padding: 2px 3px; }}", "dark") == 6
    assert backing_inset_px(f"{dark} {{ padding: 1px 2px 9px 4px; }}", "dark") == 10
    commented = f"/* {dark} {{ padding: 1rem; }} */ {dark} {{ margin: 0; }}"
    assert backing_inset_px(commented, "dark") == 0
    assert backing_inset_px(f"{dark} {{ padding: 0.5rem; }}", "light") == 0
    assert backing_inset_px(".other svg.micrograd-graph { padding: 1rem; }", "dark") == 0
    with pytest.raises(ValueError, match="border"):
        backing_inset_px(f"{dark} {{ border: 1px solid; }}", "dark")


# The cells before the pair include the "In PyTorch" box's, which import torch.
@pytest.mark.torch
@in_page_group(BACKWARD)
def test_a_pairs_two_sides_place_each_node_alike_at_every_step(
    lay_out: Callable[[list[str]], list[str]],
) -> None:
    """The backward page's pair draws one graph in two orders: at every step, in either
    layout program, each node is in the same place on both sides, the drawings the same
    size, so that the reader compares the sides without hunting for a node."""
    left, right = frame_sources(shown(BACKWARD, BACKWARD_STEPPERS[1]))
    for k, (one, other) in enumerate(zip(lay_out(left), lay_out(right), strict=True)):
        assert size_pt(one) == size_pt(other), k
        boxes, theirs = node_boxes(one), node_boxes(other)
        assert boxes.keys() == theirs.keys(), k
        moved = {
            name: (box, theirs[name])
            for name, box in boxes.items()
            if max(abs(a - b) for a, b in zip(box, theirs[name], strict=True)) > 0.05
        }
        assert not moved, f"step {k + 1}: {moved}"
