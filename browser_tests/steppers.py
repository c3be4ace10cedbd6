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
  return {
    frame: Number(frame.dataset.frame),
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
    """Which parts of the frame are not wholly on the screen, below the theme's header."""

    def outside(box: dict[str, float]) -> bool:
        return (
            box["top"] < parts["stuck"] - 1
            or box["bottom"] > parts["height"] + 1
            or box["left"] < -1
            or box["right"] > parts["width"] + 1
        )

    problems = [f"controls {parts['controls']}"] if outside(parts["controls"]) else []
    problems += [f"caption {box}" for box in parts["captions"] if outside(box)]
    problems += [
        f"active node {box}" for box in parts["active"] if outside(box) or not box["inView"]
    ]
    return problems


def off_screen_stepping_through(stepper: Any) -> list[str]:
    """Step through ``stepper`` with Next, without scrolling: what is out of view on each frame.

    Every frame between the first and the last must highlight a node at work.
    """
    stepper.scroll_into_view_if_needed()
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
