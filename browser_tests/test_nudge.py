"""Nudge it: on the neuron page, the reader moves w1 by keyboard and watches o.

By keyboard alone, in the runner's offline Chromium: the control's first nudge
starts Python and runs the neuron's cell; an arrow key moves w1 by 0.001 and the
measured change in o agrees with the gradient's prediction, grad × Δw1, within
1e-4; w1 typed one whole unit away parts the two (tanh curves); the gradient
step moves w1 against its gradient and o falls; a reload keeps the nudged
value, and Resume nudges the graph back there.  The control passes the
accessibility audit in each of those states, and fits a phone's column.

Every number the control shows is Python's (book_runtime.features.nudge.runtime,
tested in tests/features/nudge/test_nudge.py); the control's keys, coalescing and words
are tested in Node (tests/js/features/nudge/nudge.test.mjs).  The time from a key press
to the answer drawn is measured here and kept for benchmarks/RESULTS.md (``python
benchmarks/report.py --nudges artifacts/runner/nudges.json``), never asserted.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from accessibility import audit, check
from runner_tab import Tab, wait_saved, where_measured

ROOT = Path(__file__).resolve().parents[1]
#: What the nudge test measured, for benchmarks/RESULTS.md (benchmarks/report.py --nudges).
NUDGE_ARTIFACT = ROOT / "artifacts" / "runner" / "nudges.json"
#: Key presses timed, each answered before the next.
TIMED_PRESSES = 20
CONTROL = "div.mg-nudge"
W1 = f'{CONTROL} [role="slider"][aria-label="w1"]'


def answered(tab: Tab, count: int) -> dict[str, Any]:
    """Wait until the control has drawn ``count`` answers; return the ``count``-th."""
    tab.page.wait_for_function(
        "(n) => microgradTest.nudges().length >= n", arg=count, timeout=120_000
    )
    return dict(tab.evaluate(f"microgradTest.nudges()[{count - 1}]"))


def shown(tab: Tab, part: str) -> str:
    return str(tab.page.locator(f"{CONTROL} .mg-nudge-{part}").inner_text())


def start_by_keyboard(tab: Tab) -> str:
    """Press the control's first button by keyboard; return what it said while Python started."""
    start = tab.page.locator(f"{CONTROL} button.mg-nudge-start")
    start.focus()
    tab.page.keyboard.press("Enter")
    # Said before the first await of the start: Python and the cell take seconds after it.
    said = shown(tab, "status")
    tab.page.locator(W1).wait_for(state="visible", timeout=240_000)
    return said


def test_nudging_w1_by_keyboard_moves_o_by_the_gradient_times_the_nudge(tab: Tab) -> None:
    tab.open("neuron.html")
    control = tab.page.locator(CONTROL)
    # On screen, the panel's own lead, one line (the start page teaches how to nudge; here
    # it is folded under "How to nudge"); the build's sentence is for paper.
    assert control.inner_text().startswith(
        "Nudge an input and see how far o moves: about the input's gradient times the nudge.\n"
    )
    assert not control.locator("details.mg-nudge-how").get_attribute("open")
    said = start_by_keyboard(tab)
    assert said == "Starting Python to nudge the graph: cell 1 runs first, to build the graph…"
    slider = tab.page.locator(W1)
    assert slider.get_attribute("aria-valuenow") == "-3"
    check(audit(tab.page, CONTROL), "the nudge control, started")

    # A small nudge: the prediction holds.
    slider.focus()
    tab.page.keyboard.press("ArrowUp")
    small = answered(tab, 1)["reply"]
    assert small["delta_x"] == 0.001 or abs(small["delta_x"] - 0.001) < 1e-12
    assert abs(small["delta_out"] - small["grad"] * small["delta_x"]) < 1e-4
    assert slider.get_attribute("aria-valuetext") == "−2.9990"
    assert "measured Δo = +0.0010" in shown(tab, "out")
    assert "grad(w1) × Δw1 = 1.0000 × +0.0010 = +0.0010" in shown(tab, "predicted")
    said = tab.evaluate("document.querySelector('.runner-announcer').textContent")
    assert said.startswith("w1 = −2.9990: o = 0.7081, measured change +0.0010"), said
    # The prose's o is marked stale while the graph's data and gradients belong to two
    # points; backward() again makes them one, and the prose follows.
    glued_o = "document.querySelector('[data-glue-key=\"neuron_o\"]')"
    tab.page.wait_for_function(f"() => {glued_o}.dataset.shown === 'stale'")
    tab.page.locator(f"{CONTROL} button.mg-nudge-backward").click()
    tab.page.wait_for_function(
        f"() => {glued_o}.dataset.shown === 'yours' && {glued_o}.textContent.startsWith('0.7081')"
    )
    slider.focus()

    # The time from a press to the answer drawn, once Python is loaded: each press
    # answered before the next (a press while one computes is coalesced instead).
    for n in range(TIMED_PRESSES):
        tab.page.keyboard.press("ArrowDown" if n % 2 else "ArrowUp")
        answered(tab, 3 + n)
    timed = [x["milliseconds"] for x in tab.evaluate("microgradTest.nudges()")[2:]]

    # A nudge of a whole unit, typed: the prediction and the change part, and why.
    tab.page.locator(f"{CONTROL} button.mg-nudge-reset").click()
    count = len(timed) + 3
    answered(tab, count)
    typed = tab.page.locator(f'{CONTROL} input[aria-label="Type a value for w1"]')
    typed.fill("-2")
    typed.press("Enter")
    large = answered(tab, count + 1)["reply"]
    assert large["delta_x"] == 1.0
    assert abs(large["difference"]) > 0.1
    assert abs(large["delta_out"] - large["grad"] * large["delta_x"]) > 0.1
    assert "(tanh curves)" in shown(tab, "why")
    check(audit(tab.page, CONTROL), "the nudge control, parted")

    # The gradient step, by keyboard: w1 moves against its gradient, and o falls.
    before = answered(tab, count + 1)["out"]
    step = tab.page.locator(f"{CONTROL} button.mg-nudge-step")
    step.focus()
    tab.page.keyboard.press("Enter")
    stepped = answered(tab, count + 2)
    assert stepped["out"] < before
    assert stepped["reply"]["value"] == -2.0 - 0.1 * large["grad"]

    # A reload keeps the nudged value; Resume nudges the graph back there.
    wait_saved(tab.page)
    tab.page.reload(wait_until="networkidle")
    kept = tab.page.locator(f"{CONTROL} .mg-nudge-kept")
    kept.wait_for(state="visible")
    assert "Kept from your last visit: w1 = −2.1000." in kept.inner_text()
    check(audit(tab.page, CONTROL), "the nudge control, kept from a last visit")
    start_by_keyboard(tab)
    assert tab.page.locator(W1).get_attribute("aria-valuenow") == "-2.1"
    assert not tab.errors, tab.errors

    measured = {
        **where_measured(tab),
        "milliseconds": timed,
        "median_ms": statistics.median(timed),
        "presses": TIMED_PRESSES,
    }
    NUDGE_ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
    NUDGE_ARTIFACT.write_text(json.dumps(measured, indent=1, sort_keys=True) + "\n")


def test_the_nudge_control_fits_a_phone_nudges_by_touch_and_prints_as_one_line(tab: Tab) -> None:
    tab.page.set_viewport_size({"width": 390, "height": 844})
    tab.open("neuron.html")
    start_by_keyboard(tab)
    # A finger drags w1's number sideways: Chromium's own touch input, through DevTools.
    devtools = tab.context.new_cdp_session(tab.page)
    devtools.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    slider = tab.page.locator(W1)
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for kind, at in (("touchStart", x), ("touchMove", x + 20), ("touchMove", x + 40)):
        touch = {"type": kind, "touchPoints": [{"x": at, "y": y}]}
        devtools.send("Input.dispatchTouchEvent", touch)
    devtools.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    tab.page.wait_for_function(
        "() => microgradTest.nudges().some((n) => n.reply && n.reply.value === -2.99)"
    )
    assert slider.get_attribute("aria-valuenow") == "-2.99"
    wide = tab.evaluate(
        f"(() => {{ const el = document.querySelector('{CONTROL}');"
        " return el.scrollWidth > el.clientWidth + 1; })()"
    )
    assert not wide
    check(audit(tab.page, CONTROL), "the nudge control on a phone")
    tab.page.emulate_media(media="print")
    assert not tab.page.locator(f"{CONTROL} .mg-nudge-control").is_visible()
    printed = tab.page.locator(CONTROL).inner_text()
    assert "with JavaScript on, this graph can be nudged: move x1, w1" in printed
