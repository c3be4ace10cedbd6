// The steppers' front end (micrograd.viz.stepper.BackwardStepper, StepperPair): one
// frame at a time, with Previous/Next buttons, and the arrow keys (Home/End too) when
// the stepper has the focus.  Each frame's drawings are scaled so that the buttons, the
// captions and the drawings fit the window together, the captions beside the drawings
// where the row has room for both, as on a laptop (a drawing that would get too small
// to read keeps a readable size, whole, and the page scrolls to the node at work; one
// too wide for a phone's column at a readable size scrolls sideways in a labelled
// region), and stepping scrolls the stepper into view, its buttons above its drawings.
// On a phone a stepper's drawing lies right under its buttons and its captions under
// it, so that the drawing keeps one place at every step and nothing covers it; a
// drawing cropped to the window there may be shown whole (its "Whole graph" switch).
// No box cuts a node of a drawing.  A stepper pair's layout, side by side or one side
// at a time, follows the column's width, and the prose's words for its sides with it.
//
// Each stepper's state is its controller (Stepper), held by the session
// (steppersOf(session): each element's controller, and who hears of a new one: predict
// mode holds a step back through the controller's holdSteps, and makes it later with
// goTo).  Loaded with a page that has a stepper (runner.js), or by the run that shows
// one (outputs.js); without JavaScript the build's frames show one under the other.
// The size at which a frame is drawn, and where its words lie, are
// micrograd-figure-scale.js's rules; zoom is micrograd-zoom.js's.

import {
  BESIDE_GAP_PX, croppedHeight, frameScale, wordsBelow, wordsBeside,
} from "../../_static/micrograd-figure-scale.js";
import { markZoomable, naturalSize } from "../../_static/micrograd-zoom.js";
import { steppersOf } from "./state.js";

// -- a stepper pair's layout, as data -------------------------------------------------------------
// A stepper pair's layout (micrograd.viz.stepper.StepperPair): its two steppers side
// by side ("beside") where the column has room for both at a readable size, one at a
// time with a switch between them ("switch") where it has not, as on a phone: two
// drawings one above the other were two screens apart there.  Plain data in, plain
// data out: setUpPairs measures the column and shows what this says; the words the prose
// has for each layout are the build's (docs/_ext/pair_words.py).

/** The narrowest a side may be (CSS px): a graph of the book's drawn at about 2/3 size. */
export const SIDE_MIN_PX = 272;
/** The room between the two sides, and around them in the stepper's box (CSS px). */
export const GAP_PX = 16;
export const FRAME_PX = 18;

/** The layout of a pair in a column `width` CSS px wide: "beside" or "switch". */
export function pairLayout(width) {
  return width >= 2 * SIDE_MIN_PX + GAP_PX + FRAME_PX ? "beside" : "switch";
}

/**
 * The words a span of the prose shows in `layout`: its words for every layout are
 * the build's (`words`: {beside, switch}, as pair_words.py writes them).
 */
export function pairWords(words, layout) {
  if (typeof words[layout] !== "string") throw new Error(`no words for the layout ${JSON.stringify(layout)}`);
  return words[layout];
}

/** The sides a pair shows (0 the first, 1 the second): both beside, the chosen one on a switch. */
export function shownSides(layout, chosen) {
  if (chosen !== 0 && chosen !== 1) throw new Error(`a pair has sides 0 and 1, not ${JSON.stringify(chosen)}`);
  if (layout === "beside") return [0, 1];
  if (layout === "switch") return [chosen];
  throw new Error(`no layout ${JSON.stringify(layout)}`);
}

/**
 * What a pair's switch shows: whether it is offered (only in the switch layout) and,
 * for each side's button, whether it is pressed.  The step is not the switch's: the
 * pair stays on the step it is on, whichever side is shown.
 */
export function switchState(layout, chosen) {
  const shown = shownSides(layout, chosen);
  return { offered: layout === "switch", pressed: [0, 1].map((side) => layout === "switch" && shown.includes(side)) };
}

// -- that layout on the page ----------------------------------------------------------------------
// What the page shows of a stepper pair's layout (pairLayout says which, from the
// column's width): the article carries it for the style sheet, which keeps a pair's
// sides side by side or shows one at a time (micrograd-figures.css), each pair the side
// its switch chose, and each of the prose's words about the sides
// (docs/_ext/pair_words.py) shows its words for it.  The layout and each pair's chosen
// side are the session's state (session.pairs: {layout, chosen: each pair's
// chosen side, its element's id -> 0 or 1; a pair not in it shows its first}), as
// data: they are never read back from the page.

function renderPair(session, stepper) {
  const { pairs } = session;
  const side = pairs.chosen.get(stepper.id) ?? 0;
  const state = switchState(pairs.layout, side);
  stepper.dataset.mgSide = String(side);
  const box = stepper.querySelector(".mg-stepper-switch");
  if (box) {
    box.hidden = !state.offered;
    for (const button of box.querySelectorAll("button[data-side]")) {
      button.setAttribute("aria-pressed", String(state.pressed[Number(button.dataset.side)]));
    }
  }
  // Its drawings fitted to what it shows.
  steppersOf(session).controllers.get(stepper)?.refit();
}

function renderPairs(session, article) {
  const { pairs } = session;
  article.dataset.mgPairs = pairs.layout;
  for (const span of article.querySelectorAll(".mg-pair-words")) {
    span.textContent = pairWords({ beside: span.dataset.beside, switch: span.dataset.switch }, pairs.layout);
  }
  for (const stepper of article.querySelectorAll(".mg-stepper-pair")) renderPair(session, stepper);
}

/** Follow the column's width, and each pair's switch: what they choose is shown at once. */
function setUpPairs(session) {
  const { pairs } = session;
  const article = session.root.querySelector("article.bd-article");
  if (!article || typeof ResizeObserver !== "function") return;
  article.addEventListener("click", (event) => {
    const button = event.target.closest(".mg-stepper-switch button[data-side]");
    const stepper = button && button.closest(".mg-stepper-pair");
    if (!stepper || pairs.layout === null) return;
    pairs.chosen.set(stepper.id, Number(button.dataset.side));
    renderPair(session, stepper);
  });
  new ResizeObserver((entries) => {
    const next = pairLayout(entries[entries.length - 1].contentRect.width);
    if (next === pairs.layout) return;
    pairs.layout = next;
    renderPairs(session, article);
  }).observe(article);
}


// -- one stepper ----------------------------------------------------------------------------------

const naturalWidth = (figure) => naturalSize(figure).width;

/** Show a drawing at `scale` times its natural size, and say whether it is shown smaller. */
function scaleTo(svg, scale) {
  const { width, height } = naturalSize(svg);
  svg.style.width = `${width * scale}px`;
  svg.style.height = `${height * scale}px`;
  markZoomable(svg);
}


/** The bottom of what the theme keeps stuck to the top of the window (its header). */
function stuckTop() {
  let bottom = 0;
  for (const bar of document.querySelectorAll(".bd-header, .bd-header-article")) {
    const position = getComputedStyle(bar).position;
    if (position === "sticky" || position === "fixed") {
      const box = bar.getBoundingClientRect();
      if (box.top <= 0 && box.height > 0) bottom = Math.max(bottom, box.bottom);
    }
  }
  return bottom;
}

/**
 * Where a browser brings an element it scrolls into view (focus, a link to it): below
 * the page's scroll padding (the theme's, for its header), or the header's bottom if
 * lower.  A stepper fitted below it is whole in the window there, and stepping need not
 * move it.
 */
function broughtTop() {
  const padding = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop);
  return Math.max(stuckTop(), Number.isFinite(padding) ? padding : 0);
}

/** Each drawing of a frame sits in a view that can scroll it sideways, should it need to. */
function wrapDrawings(frame) {
  for (const svg of frame.querySelectorAll("svg.micrograd-graph")) {
    if (!svg.parentElement.classList.contains("mg-stepper-view")) {
      const view = Object.assign(document.createElement("div"), { className: "mg-stepper-view" });
      svg.replaceWith(view);
      view.append(svg);
      // Above the drawing, what the region's name says to a screen reader, in words
      // the eye sees: the box it cuts at the edge is not the end of the drawing.
      const note = Object.assign(document.createElement("p"), { className: "mg-stepper-scroll-note", hidden: true });
      note.setAttribute("aria-hidden", "true");
      view.before(note);
    }
  }
}

/** The smallest label of a drawing at its natural size, in CSS px. */
function labelPx(svg) {
  const sizes = Array.from(svg.querySelectorAll("text"), (t) => parseFloat(t.getAttribute("font-size")))
    .filter(Number.isFinite);
  const smallest = sizes.length ? Math.min(...sizes) : 14;
  const units = svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.viewBox.baseVal.width : naturalWidth(svg);
  return (smallest * naturalWidth(svg)) / units;
}

// How a view that scrolls its drawing says so: its class, the region's name, and a
// note in words the eye sees (the box it cuts at the edge is not the end of the
// drawing): above a drawing that scrolls sideways, under a cropped one, so that the
// drawing keeps its place when it comes to be cropped (Predict's question takes room).
const SCROLLS = Object.freeze({
  sideways: Object.freeze({
    name: "The drawing, wider than the page: scroll it sideways",
    note: "\u2190 Scroll the drawing sideways to see all of it \u2192",
  }),
  cropped: Object.freeze({
    name: "The drawing, taller than the window: scroll it up and down",
    note: "\u2195 Scroll the drawing above, or see the",
  }),
  // Not a scrolling view: the whole drawing, smaller, as the reader asked.
  whole: Object.freeze({ note: "The drawing, smaller, whole:" }),
});

/** A view that scrolls its drawing (`how`: sideways, cropped, or null) is a region the
 * keyboard can scroll, named by its drawing. */
function markScrolling(view, how, wholeSwitch = null) {
  const note = view.parentElement.querySelector(":scope > .mg-stepper-scroll-note");
  if (note) {
    note.hidden = !how;
    if (how) sayInNote(note, SCROLLS[how].note, how === "sideways" ? null : wholeSwitch);
    if (how !== "sideways" && how && note.nextElementSibling === view) view.after(note);
    if (how === "sideways" && note.previousElementSibling === view) view.before(note);
  }
  view.classList.toggle("mg-sideways", how === "sideways");
  view.classList.toggle("mg-cropped", how === "cropped");
  if (how === "sideways" || how === "cropped") {
    view.setAttribute("role", "region");
    view.setAttribute("tabindex", "0");
    view.setAttribute("aria-label", how === "cropped" ? `${whose(view)}: ${SCROLLS[how].name}` : SCROLLS[how].name);
  } else if (view.hasAttribute("role")) {
    ["role", "tabindex", "aria-label"].forEach((name) => view.removeAttribute(name));
  }
}

/**
 * A note's words, and the stepper's "Whole graph" switch after them where a phone crops
 * the drawing (`wholeSwitch`, else none): the words are the eye's (the region's name
 * says them to a screen reader), the switch is everyone's.
 */
function sayInNote(note, words, wholeSwitch) {
  if (!wholeSwitch) {
    note.textContent = words;
    note.setAttribute("aria-hidden", "true");
    return;
  }
  const said = note.ownerDocument.createElement("span");
  said.setAttribute("aria-hidden", "true");
  said.textContent = words;
  note.removeAttribute("aria-hidden");
  note.replaceChildren(said, " ", wholeSwitch);
}

/** Whose drawing a view shows, in the build's words: its stepper's name, and its
 * side's title in a pair; a page's regions are told apart by their names. */
function whose(view) {
  const stepper = view.closest(".mg-stepper");
  const title = view.closest(".mg-stepper-side")?.querySelector(".mg-stepper-title");
  const name = stepper?.getAttribute("aria-label") || "A stepper";
  return title ? `${name}, ${title.textContent.replace(/:\s*$/, "")}` : name;
}

const markSideways = (view, sideways) => markScrolling(view, sideways ? "sideways" : null);

/**
 * The nodes at work of a frame (``selector``: those, and maybe the nodes their rule
 * adds to), as one box in the window (null if none is shown).
 */
function activeBox(frame, selector = "g.node.mg-active") {
  return nodesBox(Array.from(frame.querySelectorAll(selector)));
}

/** Some nodes of a drawing, as one box in the window (null if none is shown). */
function nodesBox(nodes) {
  const boxes = nodes.map((g) => g.getBoundingClientRect()).filter((b) => b.width > 0);
  if (!boxes.length) return null;
  return {
    top: Math.min(...boxes.map((b) => b.top)),
    bottom: Math.max(...boxes.map((b) => b.bottom)),
    left: Math.min(...boxes.map((b) => b.left)),
    right: Math.max(...boxes.map((b) => b.right)),
  };
}

/**
 * A frame's captions, each with its place: the frame's own, or a side's (a pair); the
 * words beside the drawings (`beside`), each side's its own, one under the other.
 */
function captionPlaces(frame, beside) {
  const own = frame.querySelector(":scope > figcaption");
  const sides = Array.from(frame.querySelectorAll(":scope .mg-stepper-side > figcaption"),
    (c, k) => [beside ? `side ${k}` : "side", c]);
  return own ? [["frame", own], ...sides] : sides;
}

/**
 * Give every caption the height of the tallest in its place over all the frames, so
 * that a drawing keeps its place and its size from step to step (a longer caption
 * would push it down and shrink it), and the two sides of a pair start level.
 */
function holdCaptions(frames, current, beside) {
  const all = frames.flatMap((frame) => captionPlaces(frame, beside));
  for (const [, caption] of all) caption.style.minHeight = "";
  const tallest = new Map();
  for (const frame of frames) {
    frame.classList.add("mg-current");
    // A pair's side shown a side at a time (a phone's) is measured while hidden too:
    // both sides' words hold one height, and the switch moves nothing.
    const hidden = Array.from(frame.querySelectorAll(".mg-stepper-side"))
      .filter((side) => getComputedStyle(side).display === "none");
    hidden.forEach((side) => { side.style.display = "block"; });
    for (const [place, caption] of captionPlaces(frame, beside)) {
      tallest.set(place, Math.max(tallest.get(place) || 0, caption.getBoundingClientRect().height));
    }
    hidden.forEach((side) => { side.style.display = ""; });
    frame.classList.toggle("mg-current", frame === current);
  }
  for (const [place, caption] of all) caption.style.minHeight = `${tallest.get(place)}px`;
}

/**
 * Give every frame's drawings the size of the current frame's (they share one natural
 * size): the words beside them are as wide in every frame, and holdCaptions measures
 * them so.
 */
function shareSize(frames, current) {
  const sizes = Array.from(current.querySelectorAll("svg.micrograd-graph"), (svg) => [svg.style.width, svg.style.height]);
  for (const frame of frames) {
    frame.querySelectorAll("svg.micrograd-graph").forEach((svg, k) => {
      if (frame !== current && sizes[k]) [svg.style.width, svg.style.height] = sizes[k];
    });
  }
}

/**
 * Scale the current frame's drawings so that the controls, the captions and the
 * drawings fit the window together; where that would make the labels too small, the
 * drawing keeps a readable size, whole, and the page scrolls (keepInView).  Where the
 * column is too narrow for a drawing at a readable size, it scrolls sideways in its
 * view, the node at work in the middle.  `layout` says where the words lie
 * (layOutWords).
 */
function fitFrame(stepper, frame, { beside, below, whole, wholeSwitch, asked = null }, scrolledTo = null) {
  const views = Array.from(frame.querySelectorAll(".mg-stepper-view")).filter((v) => v.getClientRects().length);
  if (!views.length) return;
  views.forEach((view) => {
    view.firstElementChild.style.width = "";
    view.firstElementChild.style.height = "";
    view.style.maxHeight = "";
    markSideways(view, false);
  });
  // Side by side (a pair on a wide screen), or wrapped one above the other (a pair
  // on a page without the runner, which would show one side at a time).
  const columns = new Set(views.map((view) => Math.round(view.getBoundingClientRect().left))).size;
  const rows = Math.ceil(views.length / columns);
  if (rows > 1 && !beside) {
    fitToColumn(views);
    return;
  }
  // Words beside the drawings: the drawings share the frame's row with them.
  const row = rowWidth(frame);
  const box = stepper.getBoundingClientRect();
  // Below the drawings: the stepper's own padding and border.
  // Words beside the drawings are no part of it (below the frame, only the stepper's):
  // the drawings keep their size from step to step, whatever each step's words.
  const drawn = Math.max(...views.map((view) => view.getBoundingClientRect().bottom));
  const content = frame.getBoundingClientRect().bottom - parseFloat(getComputedStyle(frame).paddingBottom);
  const under = box.bottom - (beside ? content : drawn);
  for (const view of views) {
    const svg = view.firstElementChild;
    const { width, height } = naturalSize(svg);
    const label = labelPx(svg);
    const room = beside ? row : view.getBoundingClientRect().width;
    // The window's height left for this drawing, with the stepper's top below the header.
    const free = window.innerHeight - broughtTop() - (view.getBoundingClientRect().top - box.top) - under - 8;
    const screen = window.innerWidth;
    const shape = { width, height, label, room, free, screen, beside: beside ? views.length : 0 };
    const { scale, sideways } = frameScale(shape);
    markSideways(view, sideways);
    scaleTo(svg, scale);
    if (view.classList.contains("mg-sideways")) {
      // Only as far as the step's nodes (the one at work and those its rule adds to)
      // need to be whole: a drawing a little wider than its view keeps its left edge.
      const shown = view.getBoundingClientRect();
      const step = activeBox(view, "g.node.mg-active, g.node.mg-receiving");
      const work = step && step.right - step.left <= shown.width - 8 ? step : activeBox(view);
      if (work) {
        if (work.left < shown.left) view.scrollLeft -= shown.left - work.left + 4;
        else if (work.right > shown.right) view.scrollLeft += work.right - shown.right + 4;
      }
    }
  }
  // A drawing scrolling sideways keeps one size whatever the captions: holding their
  // height above it would only push it down, below the window.  Under it, they push
  // nothing, and hold the page below the stepper in its place.
  if (!below && views.some((view) => view.classList.contains("mg-sideways"))) {
    for (const caption of frame.querySelectorAll("figcaption")) caption.style.minHeight = "";
  }
  if (views.length === 1 && !views[0].classList.contains("mg-sideways")) {
    cropToWindow(stepper, views[0], scrolledTo, { whole, wholeSwitch, asked });
  }
}

/**
 * On a phone, a drawing whose words lie under it (a stepper's, a pair's side's) at a
 * readable size and the words may be taller than the window together: the view then
 * shows only as much of the drawing as the window leaves it (croppedHeight), and
 * scrolls up and down, so that the step's words are read with the drawing and the
 * stepper fits the window.  The view keeps where the previous step had scrolled it
 * (`scrolledTo`), and scrolls only as far as the step's nodes (namedNodes: the one at
 * work and those its rule adds to, or the output) need to be in it: where they are in
 * view already, the drawing keeps still.
 */
function cropToWindow(stepper, view, scrolledTo, { whole, wholeSwitch, asked }) {
  const room = window.innerHeight - stuckTop() - 8;
  const drawn = view.getBoundingClientRect().height;
  const over = stepper.getBoundingClientRect().height - room;
  if (croppedHeight({ drawn, over, screen: window.innerWidth }) === null) return;
  // Its note, with the switch, takes room too: measured again.
  markScrolling(view, whole ? "whole" : "cropped", wholeSwitch);
  const height = croppedHeight({
    drawn, over: stepper.getBoundingClientRect().height - room, screen: window.innerWidth,
  });
  if (whole) {
    fitWhole(view, height);
    return;
  }
  view.style.maxHeight = `${height}px`;
  if (scrolledTo !== null) view.scrollTop = scrolledTo;
  const shown = view.getBoundingClientRect();
  const step = nodesBox(namedNodes(stepper, view, asked));
  const work = step && step.bottom - step.top <= shown.height - 8 ? step : activeBox(view);
  if (work) {
    if (work.top < shown.top) view.scrollTop -= shown.top - work.top + 4;
    else if (work.bottom > shown.bottom) view.scrollTop += work.bottom - shown.bottom + 4;
  }
}

/**
 * The whole graph, as the reader asked (the stepper's "Whole graph" switch): the drawing
 * a phone would crop to `height` px is drawn smaller, whole in that height, and nothing
 * scrolls: it keeps its place and its size at every step.
 */
function fitWhole(view, height) {
  const svg = view.firstElementChild;
  scaleTo(svg, Math.min(1, height / naturalSize(svg).height));
  view.scrollTop = 0;
}

/**
 * The nodes of a view's drawing that its step names: the node at work and those its
 * rule adds to; at a step with none (before backward(), and Done) the output, the
 * node at work at the step that seeds its grad, the stepper's first with one.  With
 * `asked` (a frame predict mode asks about, the stepper staying where it is), those
 * that frame names instead: the question is about them.  The frames share one
 * layout: a node is the same one at the same place in each.
 */
function namedNodes(stepper, view, asked = null) {
  const nodes = Array.from(view.querySelectorAll("g.node"));
  const named = nodes.filter((g) => g.matches(".mg-active, .mg-receiving"));
  const frame = view.closest(".mg-stepper-frame");
  const k = Array.from(frame.querySelectorAll("svg.micrograd-graph")).indexOf(view.firstElementChild);
  // The same nodes of this view's drawing as those `selector` matches in another frame's.
  const alike = (other, selector) => {
    const drawing = other.querySelectorAll("svg.micrograd-graph")[k];
    if (!drawing) return [];
    return Array.from(drawing.querySelectorAll("g.node")).flatMap((g, n) => (g.matches(selector) && nodes[n] ? [nodes[n]] : []));
  };
  if (asked !== null) return alike(asked, ".mg-active, .mg-receiving");
  if (named.length) return named;
  const seed = stepper.querySelector(":scope > .mg-stepper-frame g.node.mg-active")?.closest(".mg-stepper-frame");
  return seed ? alike(seed, ".mg-active") : named;
}

/** The width of a frame's content (CSS px): the row its drawings and words share. */
function rowWidth(frame) {
  const style = getComputedStyle(frame);
  return frame.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
}

/**
 * Where the stepper's words lie: beside its drawings (wordsBeside says, from the row's
 * room and the drawings it shows: a pair's shown sides), below them (wordsBelow: a
 * phone), or above them; and the class that lays them out so.  Its drawings share one
 * natural size (the frames share one layout).
 */
function layOutWords(stepper, frame) {
  stepper.classList.remove("mg-words-beside");
  const pair = stepper.classList.contains("mg-stepper-pair");
  const below = wordsBelow({ screen: window.innerWidth, pair });
  stepper.classList.toggle("mg-words-below", below);
  const shown = (el) => el.getClientRects().length > 0;
  const sides = Array.from(frame.querySelectorAll(".mg-stepper-side"));
  const drawings = sides.length ? sides.filter(shown).length : 1;
  const svgs = Array.from(stepper.querySelectorAll("svg.micrograd-graph"));
  if (!svgs.length) return { beside: false, below };
  const width = Math.max(...svgs.map(naturalWidth));
  const label = Math.min(...svgs.map(labelPx));
  const room = rowWidth(frame);
  const beside = wordsBeside({ width, label, drawings, room, screen: window.innerWidth });
  stepper.classList.toggle("mg-words-beside", beside);
  stepper.style.setProperty("--mg-beside-gap", `${BESIDE_GAP_PX}px`);
  return { beside, below: below && !beside };
}

/**
 * A stepper taller than the window: its buttons stick to the top of the window, and its
 * step's words, above its drawings, under them, so that they stay in view while the
 * page scrolls on to the node at work (micrograd-figures.css).  Words under the
 * drawings (a pair's, a phone's) are not stuck.  A stepper the window holds sticks
 * nothing: its buttons would lie over its drawing once the page is scrolled past its top.
 */
function stickCaption(stepper) {
  const controls = stepper.querySelector(":scope > .mg-stepper-controls");
  const tall = stepper.getBoundingClientRect().height > window.innerHeight - stuckTop();
  stepper.classList.toggle("mg-tall", tall);
  if (tall) {
    const below = parseFloat(getComputedStyle(controls).top) + controls.getBoundingClientRect().height;
    stepper.style.setProperty("--mg-caption-top", `${below}px`);
  }
}

/**
 * A pair wrapped one above the other: each drawing as wide as the column lets it be
 * (never wider than drawn), whole; the reader scrolls the page, with the buttons stuck
 * above the drawings.
 */
function fitToColumn(views) {
  for (const view of views) {
    const svg = view.firstElementChild;
    scaleTo(svg, Math.min(1, view.getBoundingClientRect().width / naturalWidth(svg)));
  }
}

/**
 * Scroll the window (not smoothly) so that the whole stepper is in view, if its content
 * (its buttons and its current frame) is not;
 * a stepper taller than the window, its top below the header, then as far on as the
 * node at work needs to be in view below the buttons, unless its words lie below its
 * drawing (`below`): the drawing, right under the buttons, then keeps that place at
 * every step, whole where the window holds it, and the reader scrolls on to the words.
 */
function keepInView(stepper, frame, below) {
  const box = stepper.getBoundingClientRect();
  const top = stuckTop();
  // What the reader reads (the buttons, the frame), not the stepper's padding and
  // border: a stepper whose content the window holds keeps still while stepping.
  // The frame's own parts, not its box: beside the drawing, the frame's grid spans the
  // row of predict mode's question too, under the words, and a question's room below
  // the window is no reason to move the drawing.  Words below the drawing (a phone):
  // the stepper's top goes right under the header at every step, so that the drawing
  // keeps one place in the window from step to step.
  const controls = stepper.querySelector(":scope > .mg-stepper-controls").getBoundingClientRect();
  const shown = nodesBox(Array.from(frame.children)) || frame.getBoundingClientRect();
  const outside = Math.min(controls.top, shown.top) < top || Math.max(controls.bottom, shown.bottom) > window.innerHeight;
  if (below || outside) {
    window.scrollBy({ top: box.top - top - 4, behavior: "instant" });
  }
  if (below) return;
  const active = activeBox(frame);
  if (active && active.bottom > window.innerHeight - 4) {
    window.scrollBy({ top: active.bottom - window.innerHeight + 8, behavior: "instant" });
  }
}


/** A frame's words, as the live region says them. */
const captionOf = (frame) => Array.from(frame.querySelectorAll("figcaption"), (c) => c.textContent.trim()).join(" ");

/**
 * One stepper's controller: which frame it shows, where its words lie, whether the
 * reader asked for the whole graph, and who may hold a step back (predict mode).
 * Its parts are the build's HTML (or the worker's, the same): its frames and controls.
 */
export class Stepper {
  constructor(element) {
    this.element = element;
    this.frames = Array.from(element.querySelectorAll(":scope > .mg-stepper-frame"));
    const controls = element.querySelector(":scope > .mg-stepper-controls");
    this.controls = controls;
    this.previous = controls.querySelector(".mg-stepper-prev");
    this.next = controls.querySelector(".mg-stepper-next");
    this.status = controls.querySelector(".mg-stepper-status");
    this.live = element.querySelector(":scope > .mg-stepper-live");
    this.current = 0;
    // Where its words lie (layOutWords), for the window it is in, and whether the
    // reader asked for the whole graph where a phone would crop it.
    this.layout = { beside: false, below: false, whole: false };
    this.hold = null; // (from, to) -> true when a step is held back (holdSteps)
    this.asked = null; // the frame whose nodes are kept in view too (showNodesOf)
    this.wholeSwitch = null; // the "Whole graph" switch, once the frames are set up
  }

  /** Make the frames steppable: buttons, keys, the whole-graph switch; show the first. */
  setUp() {
    const { element, frames, controls } = this;
    frames.forEach(wrapDrawings);
    this.previous.addEventListener("click", () => this.step(this.current - 1));
    this.next.addEventListener("click", () => this.step(this.current + 1));
    element.addEventListener("keydown", (event) => this.onKey(event));
    this.wholeSwitch = wholeSwitch(element.ownerDocument);
    this.wholeSwitch.addEventListener("click", () => this.showWhole(!this.layout.whole));
    element.tabIndex = 0;
    controls.hidden = false;
    element.classList.add("mg-ready");
    frames[0].classList.add("mg-current");
    this.fit();
    this.show(0, false);
  }

  onKey(event) {
    const moves = { ArrowLeft: this.current - 1, ArrowRight: this.current + 1, Home: 0, End: this.frames.length - 1 };
    if (!(event.key in moves) || event.altKey || event.ctrlKey || event.metaKey) return;
    // The arrow keys move the caret there, or scroll a wide drawing.
    if (event.target.closest("input, textarea, select, .mg-sideways")) return;
    event.preventDefault();
    this.step(moves[event.key]);
  }

  /** Show frame `index` (clamped); `announce`: a reader's step, said and scrolled to. */
  show(index, announce) {
    const { frames, previous, next, element } = this;
    // Where the reader, or the last step, scrolled a cropped drawing: the next keeps it.
    const cropped = frames[this.current].querySelector(".mg-stepper-view.mg-cropped");
    const scrolledTo = cropped ? cropped.scrollTop : null;
    const to = Math.max(0, Math.min(frames.length - 1, index));
    if (to !== this.current) this.asked = null;
    this.current = to;
    frames.forEach((frame, k) => frame.classList.toggle("mg-current", k === this.current));
    const focused = element.ownerDocument.activeElement;
    previous.disabled = this.current === 0;
    next.disabled = this.current === frames.length - 1;
    // Next, disabled on the last frame while it has the focus, would drop it to the
    // page, and the arrow keys with it: Previous takes it.
    if (focused === next && next.disabled) previous.focus({ preventScroll: true });
    this.status.textContent = `Step ${this.current + 1} of ${frames.length}`;
    element.dataset.current = String(this.current);
    fitFrame(element, frames[this.current], this.fitting(), scrolledTo);
    stickCaption(element);
    if (announce) {
      if (this.live) this.live.textContent = captionOf(frames[this.current]);
      keepInView(element, frames[this.current], this.layout.below);
    }
  }

  /** The reader's step to frame `index`, unless who holds steps (holdSteps) holds it back. */
  step(index) {
    const to = Math.max(0, Math.min(this.frames.length - 1, index));
    if (this.hold !== null && this.hold(this.current, to)) return;
    this.show(to, true);
  }

  /** Show frame `index` as a reader's step would, held back by nobody (predict's answer). */
  goTo(index) {
    this.show(index, true);
  }

  /**
   * Let `hold(from, to)` hold back each reader's step: where it returns true, the
   * stepper stays where it is (predict mode asks first, then calls goTo).
   */
  holdSteps(hold) {
    this.hold = hold;
  }

  /**
   * Keep in view the nodes frame `index` names, not this step's: predict mode asks what
   * its rule will give while the stepper stays where it is.
   */
  showNodesOf(index) {
    this.asked = index;
    this.show(this.current, false);
  }

  /** What fitFrame needs of the stepper's state. */
  fitting() {
    const asked = this.asked === null ? null : this.frames[this.asked];
    return { ...this.layout, wholeSwitch: this.wholeSwitch, asked };
  }

  /** Show the whole graph (or the readable, cropped one) where a phone crops it. */
  showWhole(whole) {
    const focused = this.element.ownerDocument.activeElement === this.wholeSwitch;
    this.layout.whole = whole;
    this.wholeSwitch.setAttribute("aria-pressed", String(whole));
    this.refit();
    // Laying out again puts the switch in the note anew: it keeps the reader's focus.
    if (focused) this.wholeSwitch.focus({ preventScroll: true });
  }

  /** Lay the drawings out again: the window, or what the stepper shows, changed. */
  refit() {
    this.fit();
    stickCaption(this.element);
  }

  // The words beside the drawings are as tall as the drawings' size leaves them: held
  // once the drawings have it.
  fit() {
    const { element, frames } = this;
    const frame = frames[this.current];
    const { beside, below } = layOutWords(element, frame);
    this.layout = { beside, below, whole: this.layout.whole };
    holdCaptions(frames, frame, beside);
    fitFrame(element, frame, this.fitting());
    if (beside) {
      shareSize(frames, frame);
      holdCaptions(frames, frame, beside);
    }
  }
}

/**
 * The "Whole graph" switch of a stepper: in the note under a drawing a phone crops
 * (cropToWindow puts it there), nowhere else.
 */
function wholeSwitch(page) {
  const button = Object.assign(page.createElement("button"), {
    type: "button", className: "mg-stepper-whole", textContent: "Whole graph",
    title: "Fit the whole graph in the window, smaller, while you step",
  });
  button.setAttribute("aria-pressed", "false");
  return button;
}

// -- the page's steppers ----------------------------------------------------------------------------

/** Set up the page's steppers (the registry's install: with a page that has one). */
export function install(session) {
  setUpIn(session, session.root);
}

function debounce(callback, wait) {
  let timer = null;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(callback, wait);
  };
}

/** What the page does once, with its first stepper: the pairs' layout, the window's size. */
function start(session) {
  const steppers = steppersOf(session);
  steppers.started = true;
  setUpPairs(session);
  const refit = () => steppers.controllers.forEach((stepper) => stepper.refit());
  window.addEventListener("load", refit);
  window.addEventListener("resize", debounce(refit, 150));
}

/**
 * Set up every stepper in `root` not set up yet (the page's, or those a run shows):
 * each gets its controller, held by the session, and who listens hears of it.
 */
export function setUpIn(session, root) {
  const steppers = steppersOf(session);
  if (!steppers.started) start(session);
  for (const element of root.querySelectorAll(".mg-stepper:not(.mg-ready)")) {
    const parts = [":scope > .mg-stepper-frame", ":scope > .mg-stepper-controls"];
    if (!parts.every((part) => element.querySelector(part))) continue;
    const stepper = new Stepper(element);
    steppers.controllers.set(element, stepper);
    stepper.setUp();
    if (session.pairs.layout !== null && element.classList.contains("mg-stepper-pair")) renderPair(session, element);
    for (const listen of steppers.listeners) listen(stepper);
  }
}
