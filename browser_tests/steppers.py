"""What the browser tests look at in a backward stepper (micrograd.viz.stepper), on the screen.

Shared by the checks of the build's steppers (test_figures.py), their
accessibility audit (test_accessibility.py) and the checks of the steppers a
reader's run makes in the browser (test_live_page.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sitefiles import article, parse

#: The pages that show the backward stepper.
STEPPER_PAGES = ["backward.html", "neuron.html"]


def pages_with_steppers(html: Path, pages: list[str]) -> list[str]:
    """The built pages whose article holds a stepper or a pair, found in their HTML."""
    return [page for page in pages if article(parse(html, page)).select_one(".mg-stepper")]


#: The stepper's frames, which are shown, its status text, buttons and live region.
STEPPER_STATE_JS = """
(stepper) => {
  const frames = Array.from(stepper.querySelectorAll(':scope > .mg-stepper-frame'));
  // Shown: laid out, if with no box of its own (a phone's current frame in predict.css
  // gives its box away, its drawing and words laid out in the stepper's).
  const shown = frames.filter((f) => getComputedStyle(f).display !== 'none');
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
  const shown = (el) => el.getClientRects().length > 0;
  const nodes = Array.from(frame.querySelectorAll('g.node.mg-active')).filter(shown);
  const active = nodes.map((node) => {
    const view = node.closest('.mg-stepper-view').getBoundingClientRect();
    const b = node.getBoundingClientRect();
    return {...rect(node), inView: b.top >= view.top - 1 && b.bottom <= view.bottom + 1
                                   && b.left >= view.left - 1 && b.right <= view.right + 1};
  });
  const box = stepper.getBoundingClientRect();
  return {
    frame: Number(frame.dataset.frame),
    sides: frame.querySelectorAll('.mg-stepper-side').length,
    shownSides: Array.from(frame.querySelectorAll('.mg-stepper-side')).filter(shown).length,
    // Taller than the window below the theme's header: the page scrolls through it.
    tall: box.height > innerHeight - stuck,
    stepper: rect(stepper),
    // Each drawing's part that its view shows (a view may scroll a wide one sideways).
    drawings: Array.from(frame.querySelectorAll('svg.micrograd-graph')).filter(shown).map((svg) => {
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


#: A caption's first line: how much of a caption below the drawings must be in the window.
FIRST_LINE_PX = 24


def off_screen(parts: dict[str, Any]) -> list[str]:
    """Which parts of the frame are not wholly on the screen, below the theme's header.

    The buttons and the node at work always are.  So are the captions, unless the frame
    is taller than the window (a drawing kept at a readable size, whole): then a caption
    above the drawings (a stepper's) may have been scrolled past only as far as the node
    at work needed, so it lies right above them; and a caption below them (a pair's
    sides') starts in the window, its first line there to read, and the page scrolls on
    for the rest.  The buttons, stuck to the top as the page scrolls, lie over no
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
    drawn = min((box["top"] for box in parts["drawings"]), default=parts["height"])
    drawn_to = max((box["bottom"] for box in parts["drawings"]), default=0)
    for box in parts["captions"]:
        scrolled_past = box["bottom"] <= drawn + 1
        starts_in_view = drawn_to - 1 <= box["top"] <= parts["height"] - FIRST_LINE_PX
        if outside(box) and not (parts["tall"] and (scrolled_past or starts_in_view)):
            problems.append(f"caption {box}")
    problems += [
        f"active node {box}" for box in parts["active"] if outside(box) or not box["inView"]
    ]
    problems += [
        f"drawing {box} under the controls"
        for box in parts["drawings"]
        if box["top"] < bar["bottom"] - 1
        and box["bottom"] > bar["top"]
        and box["left"] < bar["right"] - 1
        and box["right"] > bar["left"] + 1
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


#: Every node box of the current frame of a stepper that a box around it cuts: the
#: drawing's own viewport, and each element between it and the article that clips what
#: overflows it.  A labelled region the keyboard can scroll (role=region, a name,
#: tabindex=0) may cut a node, sideways or (a drawing cropped to a phone's window) up and
#: down, so long as scrolling it shows the whole node.
CLIPPED_NODES_JS = """
(stepper) => {
  const frame = stepper.querySelector(':scope > .mg-stepper-frame.mg-current');
  const article = stepper.closest('article') || document.body;
  const found = [];
  for (const svg of frame.querySelectorAll('svg.micrograd-graph')) {
    if (!svg.getClientRects().length) continue;
    const containers = [svg];
    for (let p = svg.parentElement; p && p !== article; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') containers.push(p);
    }
    for (const node of svg.querySelectorAll('g.node')) {
      const b = node.getBoundingClientRect();
      if (!b.width) continue;
      const name = (node.querySelector('title') || node).textContent.trim().slice(0, 30);
      for (const box of containers) {
        const c = box.getBoundingClientRect();
        const scrolls = box !== svg && box.getAttribute('role') === 'region'
          && box.getAttribute('tabindex') === '0' && !!box.getAttribute('aria-label');
        let up = b.top < c.top - 1 || b.bottom > c.bottom + 1;
        if (up && scrolls) {
          const top = b.top - c.top + box.scrollTop;
          up = top < -1 || top + b.height > box.scrollHeight + 1;
        }
        let sideways = b.left < c.left - 1 || b.right > c.right + 1;
        if (sideways && scrolls) {
          const left = b.left - c.left + box.scrollLeft;
          sideways = left < -1 || left + b.width > box.scrollWidth + 1;
        }
        if (up || sideways) {
          found.push(`${name} cut by ${box.tagName}.${box.getAttribute('class')}`);
          break;
        }
      }
    }
  }
  return found;
}
"""

#: The sideways scroll regions of a stepper's current frame: their names, roles and
#: tab stops, and the smallest label drawn in each (CSS px).
SIDEWAYS_JS = """
(stepper) => Array.from(stepper.querySelectorAll(
    ':scope > .mg-stepper-frame.mg-current .mg-stepper-view')).filter(
    (view) => view.getClientRects().length && view.scrollWidth > view.clientWidth + 1
  ).map((view) => {
  let smallest = Infinity;
  for (const text of view.querySelectorAll('svg.micrograd-graph text')) {
    const size = parseFloat(text.getAttribute('font-size')) * text.getScreenCTM().a;
    smallest = Math.min(smallest, size);
  }
  return {role: view.getAttribute('role'), label: view.getAttribute('aria-label'),
          tabindex: view.getAttribute('tabindex'), label_px: smallest};
})
"""


def pair_sides(stepper: Any) -> list[Any]:
    """A pair's switch buttons that are shown (none beside, one per side on a phone)."""
    buttons = stepper.locator(".mg-stepper-switch button[data-side]")
    return [buttons.nth(k) for k in range(buttons.count()) if buttons.nth(k).is_visible()]


def clipped_stepping_through(stepper: Any) -> list[str]:
    """Step through ``stepper`` from its first frame: each node a box cuts, with where.

    A pair that shows one side at a time is looked at on both sides of every frame,
    switched by its buttons, the step kept.
    """
    stepper.press("Home")
    total = stepper.evaluate(STEPPER_STATE_JS)["total"]
    problems = []
    for step in range(total):
        sides = pair_sides(stepper) or [None]
        for side in sides:
            if side is not None:
                side.click()
                assert stepper.evaluate(STEPPER_STATE_JS)["shown"] == [step], "the switch stepped"
            which = "" if side is None else f" ({side.inner_text()})"
            problems += [f"step {step + 1}{which}: {p}" for p in stepper.evaluate(CLIPPED_NODES_JS)]
        if len(sides) > 1:
            sides[0].click()
        if step < total - 1:
            stepper.locator(".mg-stepper-next").click()
    return problems
