"""What the browser tests look at in a backward stepper (micrograd.viz.stepper), on the screen.

Shared by the checks of the build's steppers (test_figures.py), their
accessibility audit (test_accessibility.py) and the checks of the steppers a
reader's run makes in the browser (test_live_page.py).
"""

from __future__ import annotations

from typing import Any

#: The pages that show the backward stepper.
STEPPER_PAGES = ["backward.html", "neuron.html"]

#: The stepper's frames, which are shown, its status text, buttons and live region.
STEPPER_STATE_JS = """
(stepper) => {
  const frames = Array.from(stepper.querySelectorAll(':scope > .mg-stepper-frame'));
  const shown = frames.filter((f) => f.getClientRects().length > 0);
  return {
    total: frames.length,
    shown: shown.map((f) => Number(f.dataset.frame)),
    status: stepper.querySelector('.mg-stepper-status').textContent,
    controls: stepper.querySelector('.mg-stepper-controls').getClientRects().length > 0,
    previous: stepper.querySelector('.mg-stepper-prev').disabled,
    next: stepper.querySelector('.mg-stepper-next').disabled,
    live: stepper.querySelector('.mg-stepper-live').textContent,
  };
}
"""

#: Where the parts of a stepper's current frame are on the screen, and what the
#: theme keeps stuck to the top of the window.
STEPPER_PARTS_JS = """
(stepper) => {
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  const rect = (el) => { const b = el.getBoundingClientRect();
                         return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
  let stuck = 0;
  for (const bar of document.querySelectorAll('.bd-header, .bd-header-article')) {
    const style = getComputedStyle(bar);
    if ((style.position === 'sticky' || style.position === 'fixed')
        && bar.getBoundingClientRect().top <= 0) {
      stuck = Math.max(stuck, bar.getBoundingClientRect().bottom);
    }
  }
  const active = Array.from(frame.querySelectorAll('g.node.mg-active')).map((node) => {
    const view = node.closest('.mg-stepper-view').getBoundingClientRect();
    const b = node.getBoundingClientRect();
    return {...rect(node), inView: b.top >= view.top - 1 && b.bottom <= view.bottom + 1};
  });
  const sides = Array.from(frame.querySelectorAll('.mg-stepper-side'),
                          (side) => Math.round(side.getBoundingClientRect().left));
  return {
    frame: Number(frame.dataset.frame),
    stacked: sides.length > 1 && new Set(sides).size === 1,
    // Each drawing's part that its view shows (a view may scroll a tall one).
    drawings: Array.from(frame.querySelectorAll('svg.micrograd-graph')).map((svg) => {
      const box = rect(svg);
      const view = rect(svg.closest('.mg-stepper-view') || svg);
      return {...box, top: Math.max(box.top, view.top), bottom: Math.min(box.bottom, view.bottom)};
    }),
    controls: rect(stepper.querySelector('.mg-stepper-controls')),
    captions: Array.from(frame.querySelectorAll('figcaption'))
      .filter((c) => c.getClientRects().length > 0).map(rect),
    active,
    stuck,
    width: window.innerWidth,
    height: window.innerHeight,
  };
}
"""


def off_screen(parts: dict[str, Any]) -> list[str]:
    """Which parts of the frame are not wholly on the screen, below the theme's header.

    A pair stacked on a phone shows its drawings whole, as wide as the column, so the
    page scrolls through them: of it, the buttons and the frame's first caption must be
    on the screen.  The buttons, stuck to the top as the page scrolls, lie over no
    drawing.
    """

    def outside(box: dict[str, float]) -> bool:
        return (
            box["top"] < parts["stuck"] - 1
            or box["bottom"] > parts["height"] + 1
            or box["left"] < -1
            or box["right"] > parts["width"] + 1
        )

    bar = parts["controls"]
    problems = [f"controls {bar}"] if outside(bar) else []
    captions = parts["captions"][:1] if parts["stacked"] else parts["captions"]
    problems += [f"caption {box}" for box in captions if outside(box)]
    if not parts["stacked"]:
        problems += [
            f"active node {box}" for box in parts["active"] if outside(box) or not box["inView"]
        ]
    problems += [
        f"drawing {box} under the controls"
        for box in parts["drawings"]
        if box["top"] < bar["bottom"] - 1 and box["bottom"] > bar["top"]
    ]
    return problems


def off_screen_stepping_through(stepper: Any) -> list[str]:
    """Step through ``stepper`` with Home, then Next, without scrolling: what is out of view.

    Every frame between the first and the last must highlight a node at work.
    """
    stepper.press("Home")  # a step, to the first frame: it brings the stepper into view
    total = stepper.evaluate(STEPPER_STATE_JS)["total"]
    problems = []
    for step in range(total):
        parts = stepper.evaluate(STEPPER_PARTS_JS)
        assert parts["frame"] == step
        if 0 < step < total - 1:
            assert parts["active"], f"step {step + 1} highlights no node"
        problems += [f"step {step + 1}: {p}" for p in off_screen(parts)]
        if step < total - 1:
            stepper.locator(".mg-stepper-next").click()
    return problems
