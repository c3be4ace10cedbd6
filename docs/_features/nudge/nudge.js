// The Nudge control: an add-on of the runner on a page that marks a graph as
// nudgeable (its directive.py writes div.mg-nudge after the cell that
// builds it).  The reader moves one of the graph's inputs (a drag on its number,
// the arrow keys, or a typed value) and sees the output's measured change beside
// the gradient's prediction, grad × Δx; "Take a gradient step" moves the input
// by −rate × grad.  Loaded with such a page (runner.js).
//
// Python computes every number a nudge shows (runtime.py, through
// the worker's "nudge" add-on): this side turns the reader's gesture into the
// value to send, coalesces the requests, and draws the answer.  The pure part
// (keys, drags, the requests, the readout's words, what is saved) touches no DOM:
// tests/js/features/nudge/nudge.test.mjs runs it in Node, and drives a control on a page.

import {
  announce, button, element, runToTheEnd,
} from "../../_static/runner/cells.js";
import { changedState, keepState } from "../../_static/runner/pagestate.js";
import { now } from "../../_static/runner/session.js";

/** How much a key moves the value, in steps; Shift moves it ten times as far. */
export const KEY_STEPS = Object.freeze({
  ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1, PageUp: 10, PageDown: -10,
});
/** Shift's factor on a key's or a drag's step. */
export const SHIFT = 10;
/** Pixels of horizontal drag per step. */
export const PX_PER_STEP = 4;

/**
 * The value a key press asks for, or null for a key that is not a nudge.
 *
 * The result is rounded to the step's decimals, so that repeated presses land
 * on round numbers (-3 + 0.001 + 0.001 is -2.998, never -2.9979999999999998).
 */
export function keyValue(key, shift, value, step) {
  const steps = KEY_STEPS[key];
  if (steps === undefined) return null;
  return roundTo(value + steps * (shift ? SHIFT : 1) * step, step);
}

/** The value a drag of `dx` pixels from `start` asks for. */
export function dragValue(start, dx, shift, step) {
  const steps = Math.trunc(dx / PX_PER_STEP) * (shift ? SHIFT : 1);
  return roundTo(start + steps * step, step);
}

/** `x` rounded to the decimals of `step` (0.001 -> 3 decimals). */
export function roundTo(x, step) {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  return Number(x.toFixed(decimals));
}

/**
 * The nudges sent to Python, one at a time: a nudge asked for while one is
 * computing replaces any other waiting, so a fast drag never queues a backlog
 * and the last value asked for is always the one answered last.
 */
export class Requests {
  constructor(send) {
    this.send = send;
    this.inFlight = null;
    this.waiting = null;
  }

  /** Ask for `request`: sent now if Python is free, else kept as the one to send next. */
  ask(request) {
    if (this.inFlight === null) this.#start(request);
    else this.waiting = request;
  }

  /** Python answered the one in flight: send the one waiting, if any. */
  answered() {
    this.inFlight = null;
    const next = this.waiting;
    this.waiting = null;
    if (next !== null) this.#start(next);
  }

  /** Forget what is in flight and waiting (Stop, Restart, Reset). */
  clear() {
    this.inFlight = null;
    this.waiting = null;
  }

  #start(request) {
    this.inFlight = request;
    this.send(request);
  }
}

// -- the readout, in words -------------------------------------------------------------------------

/** A number as the control shows it: four decimals, a true minus sign, no "−0.0000". */
export function shown(x) {
  const text = x.toFixed(4);
  return Number(text) === 0 ? "0.0000" : text.replace(/^-/, "−");
}

/** A change: its sign shown (+0.0010, −0.0005), none for no change at four decimals. */
export function change(x) {
  const text = shown(x);
  return text === "0.0000" || text.startsWith("−") ? text : `+${text}`;
}

/**
 * What the control says of Python's answer (book_runtime.features.nudge.runtime.answer): the
 * output now and its measured change, the gradient's prediction, their
 * difference and why (Python's sentence); null lines where there is no nudge.
 */
export function readout(root, answer) {
  const { reply } = answer;
  if (reply === null || !answer.moved) {
    return {
      out: `${root} = ${shown(answer.out)}`,
      predicted: null,
      difference: null,
      why: answer.moved ? null : "Move an input to see how much the output changes.",
    };
  }
  const moved = answer.leaves.filter((leaf) => leaf.value !== leaf.base);
  const products = moved.map((leaf) => `${shown(leaf.grad)} × ${change(leaf.value - leaf.base)}`);
  const named = moved.map((leaf) => `grad(${leaf.name}) × Δ${leaf.name}`).join(" + ");
  return {
    out: `${root} = ${shown(answer.out)}: measured Δ${root} = ${change(reply.delta_out)}`,
    predicted: `The gradient predicts ${named} = ${products.join(" + ")} = ${change(reply.predicted)}`,
    difference: `Difference: ${change(reply.difference)}`,
    why: reply.why,
  };
}

/** What the live region says of an answer to a nudge of `leaf`. */
export function spoken(root, answer, leaf) {
  const { reply } = answer;
  if (reply === null) return `${root} = ${shown(answer.out)}`;
  return `${leaf} = ${shown(reply.value)}: ${root} = ${shown(answer.out)}, `
    + `measured change ${change(reply.delta_out)}, predicted ${change(reply.predicted)}`;
}

/**
 * What the page keeps of a graph's nudges: each leaf's value at the point its
 * gradients belong to (base) and now, and the leaf nudged last (leaf, the one the
 * gradient step moves), or null when the graph is as built.
 */
export function keptOf(answer) {
  if (!answer.moved && !answer.rebased) return null;
  const of = (key) => Object.fromEntries(answer.leaves.map((leaf) => [leaf.name, leaf[key]]));
  const kept = { base: of("base"), now: of("value") };
  return answer.reply === null ? kept : { ...kept, leaf: answer.reply.leaf };
}

/**
 * What the panel's drawing says of itself: its data is now's, its gradients those of
 * the point where the panel's backward() last ran, and whose graph they are on.
 */
export function captionText(answer) {
  const left = answer.leaves.filter((leaf) => leaf.value !== leaf.base)
    .map((leaf) => `${leaf.name} = ${shown(leaf.base)}`);
  const where = left.length
    ? `The graph now: its data after your nudges, its gradients still those of the point you `
      + `left (${left.join(", ")}) until you press "backward() again".`
    : "The graph now, with the gradients of this point.";
  return answer.page_grads ? where
    : `${where} The panel computes them on a copy: the page's own graph has none until its `
      + "code calls backward().";
}

/**
 * How to nudge, in full: the gestures, the keys and their step, and the two buttons.
 */
export function howText({ root, step }) {
  return `Nudge an input and watch ${root}: drag its number sideways, or focus it and press `
    + `the arrow keys (each press moves it by ${step}; with Shift, ${roundTo(step * SHIFT, step)}), `
    + `or type a value and press Enter. The gradient predicts how far ${root} moves; the panel `
    + `measures it. "Take a gradient step" moves the input against its gradient, so that `
    + `${root} goes down; press "backward() again" between steps to follow the slope, as `
    + "training does.";
}

/**
 * What the panel says first.  The book's first nudgeable graph (teach: the build
 * decides, directive.py) says how to nudge in full; every other panel says it in
 * one line and folds the rest away (howText, under "How to nudge"): the same
 * instructions above every panel would bury the graphs they sit under.
 */
export function leadText(settings) {
  if (settings.teach) return howText(settings);
  return `Nudge an input and see how far ${settings.root} moves: about the input's gradient `
    + "times the nudge.";
}

/** The sentence that says what a reload brought back. */
export function keptText(kept) {
  const moved = Object.keys(kept.now).filter((name) => kept.now[name] !== kept.base[name]);
  const values = moved.map((name) => `${name} = ${shown(kept.now[name])}`).join(", ");
  return `Kept from your last visit: ${values || "backward() run again"}. `
    + "Resume runs the graph's cell and nudges it back there.";
}

// -- the control on the page -----------------------------------------------------------------------

/** The last runnable cell above `el` on the page: the cell that builds its graph. */
function cellAbove(session, el) {
  const above = session.cells.filter(
    (cell) => cell.el.compareDocumentPosition(el) & cell.el.DOCUMENT_POSITION_FOLLOWING,
  );
  return above.length ? above[above.length - 1] : null;
}

/**
 * One graph's control: its settings (the build's: root, leaves, step, rate), the
 * graph cell, Python's last answer, what a reload kept, and its view.  The session
 * keeps its controls (session.features, under "nudge").
 */
class NudgeControl {
  constructor(session, actions, box, settings) {
    this.session = session;
    this.actions = actions;
    this.settings = settings;
    this.cell = cellAbove(session, box);
    this.answer = null; // Python's last answer (book_runtime.features.nudge.runtime.answer), while it runs
    this.kept = null; // what a reload brought back, until Resume nudges it back ({base, now})
    this.leaf = settings.leaves[0]; // the input the gradient step moves: the last one nudged
    this.starting = null; // a promise while Python starts and the graph's cell runs
    this.asked = new Map(); // leaf -> the value last asked for, until Python has answered it
    this.requests = new Requests((request) => this.send(request));
    this.view = makeView(this, box);
  }

  /** The graph, as Python's answers take it: its output, and its inputs' names if not labels. */
  graph() {
    const { root, leaves, byName } = this.settings;
    return byName ? { root, names: leaves } : { root };
  }

  /** Ask Python (nudge:<question>), coalesced with the nudges asked for meanwhile. */
  ask(question, fields = {}) {
    if (this.answer === null) {
      this.start();
      return;
    }
    if (fields.leaf) this.leaf = fields.leaf;
    if (question === "set") this.asked.set(fields.leaf, fields.value);
    // What the status said of an earlier gesture is over (not what it says of a new graph).
    if (question !== "state") say(this.view, "");
    this.requests.ask({ question, fields: { ...this.graph(), ...fields }, at: now() });
  }

  async send({ question, fields, at }) {
    const { ask } = await import("../../_static/runner/python.js");
    const { generation } = this.session;
    try {
      const answer = await ask(this.session, "nudge", question, fields);
      if (generation === this.session.generation) {
        this.show(answer, question);
        this.session.records.nudges.push({
          question, milliseconds: now() - at, out: answer.out, reply: answer.reply,
        });
      }
    } catch (error) {
      say(this.view, `The graph could not be nudged: ${error.message}`);
    } finally {
      this.requests.answered();
    }
  }

  /** Start: Python, the graph's cell, then the graph as Python has it (or as a reload kept it). */
  start() {
    if (this.starting === null) {
      this.view.start.setAttribute("aria-disabled", "true");
      this.starting = this.#begin().finally(() => {
        this.starting = null;
        this.view.start.removeAttribute("aria-disabled");
      });
    }
    return this.starting;
  }

  async #begin() {
    const { session, cell } = this;
    // The graph's cell has run in this Python (the reader's version, if they edited it):
    // the nudges start from its graph.  Otherwise it runs first, after what it needs.
    if (!(session.isUp() && cell.shows === "run" && cell.state === "done")) {
      const first = session.isUp() ? "" : "Starting Python to nudge the graph: ";
      say(this.view, `${first}${cell.name} runs first, to build the graph…`);
      announce(this.view.status.textContent);
      const state = await runToTheEnd(cell, this.actions);
      if (state !== "done") {
        say(this.view, `${cell.label} did not finish (${state}): the graph is not built, `
          + "so there is nothing to nudge yet.");
        return;
      }
    }
    const { ask } = await import("../../_static/runner/python.js");
    const fields = { ...this.graph(), ...(this.kept || {}) };
    try {
      const question = this.kept ? "restore" : "state";
      const answer = await ask(session, "nudge", question, fields);
      this.kept = null;
      say(this.view, "");
      // The start button goes: the focus goes on to the first input, not to the page.
      const focused = document.activeElement === this.view.start;
      this.show(answer, question);
      if (focused) this.view.sliders.get(this.leaf).slider.focus();
    } catch (error) {
      say(this.view, `The graph could not be nudged: ${error.message}`);
    }
  }

  /** An input's value: the last one asked for, or Python's while none waits to be answered. */
  value(name) {
    if (this.asked.has(name)) return this.asked.get(name);
    return this.answer.leaves.find((leaf) => leaf.name === name).value;
  }

  /** Draw Python's answer to `question`: the inputs, the readout, the graph as it is now. */
  show(answer, question) {
    this.answer = answer;
    if (this.requests.waiting === null) this.asked.clear();
    if (answer.reply !== null) this.leaf = answer.reply.leaf;
    // What read the graph's names is stale now; the prose follows the graph at each
    // point where its data and gradients agree, as Python says ("state" changes nothing).
    if (question !== "state") {
      this.actions.machinery().then((queue) => queue.changedWithoutRun(
        this.session, this.cell, answer.bound, answer.settled,
      ));
    }
    draw(this, answer);
    if (answer.reply !== null) announce(spoken(this.settings.root, answer, this.leaf));
    changedState(this.session);
  }

  /** The page's Python ended: the nudges are kept, to bring back when the reader resumes. */
  ended() {
    this.requests.clear();
    if (this.answer !== null) this.kept = keptOf(this.answer);
    this.answer = null;
    draw(this, null);
  }

  /** Reset (the control's, the cell's, or the page's): the graph as built. */
  reset() {
    this.kept = null;
    if (this.answer !== null) this.ask("reset");
    else draw(this, null);
    changedState(this.session);
  }

  snapshot() {
    return this.answer !== null ? keptOf(this.answer) : this.kept;
  }
}

/** Set each of `attributes` (name -> value) on `el`. */
const setAttributes = (el, attributes) => Object.entries(attributes).forEach(([name, value]) => el.setAttribute(name, value));

function say(view, text) {
  view.status.textContent = text;
  view.status.hidden = text === "";
}

function makeView(control, box) {
  const { settings } = control;
  const view = {
    box,
    panel: element("div", "mg-nudge-control"),
    status: element("p", "mg-nudge-status"),
    kept: element("p", "mg-nudge-kept"),
    start: button("mg-nudge-start", "Nudge the inputs", () => control.start()),
    rows: element("div", "mg-nudge-rows"),
    sliders: new Map(),
    readout: element("div", "mg-nudge-readout"),
    lines: {},
    buttons: element("div", "mg-nudge-buttons"),
    step: button("mg-nudge-step", "Take a gradient step", () => control.ask("step", { leaf: control.leaf, rate: settings.rate })),
    backward: button("mg-nudge-backward", "backward() again", () => control.ask("backward")),
    reset: button("mg-nudge-reset", "Reset the inputs", () => control.reset(), "reset"),
    figure: element("figure", "mg-nudge-figure"),
    drawing: element("div", "mg-nudge-drawing"),
    caption: element("figcaption", "mg-nudge-caption"),
    lead: element("p", "mg-nudge-lead", leadText(settings)),
    how: settings.teach ? null : element("details", "mg-nudge-how"),
    mark: element("p", "mg-nudge-mark", "This output is from before your nudges: the graph now is in "
      + "the nudge panel below."),
  };
  // The build's sentence is for paper (and a page without scripts): the panel says more.
  for (const paper of box.querySelectorAll(":scope > p")) paper.classList.add("mg-nudge-paper");
  setAttributes(view.panel, { role: "group", "aria-label": `Nudge the inputs of ${settings.root}` });
  setAttributes(view.rows, { role: "group", "aria-label": "The graph's inputs" });
  for (const name of settings.leaves) view.rows.append(makeRow(control, view, name));
  for (const line of ["out", "predicted", "difference", "why"]) {
    view.lines[line] = element("p", `mg-nudge-${line}`);
    view.readout.append(view.lines[line]);
  }
  view.buttons.append(view.step, view.backward, view.reset);
  view.figure.append(view.drawing, view.caption);
  if (view.how) {
    view.how.append(element("summary", "", "How to nudge"), element("p", "", howText(settings)));
  }
  view.panel.append(
    ...[view.lead, view.how].filter(Boolean), view.status, view.kept, view.start, view.rows, view.readout, view.buttons, view.figure,
  );
  box.append(view.panel);
  control.cell.el.append(view.mark);
  return view;
}

function makeRow(control, view, name) {
  const { step } = control.settings;
  const row = element("div", "mg-nudge-row");
  const label = element("span", "mg-nudge-name", name);
  const slider = element("span", "mg-nudge-value");
  slider.tabIndex = 0;
  setAttributes(slider, { role: "slider", "aria-label": name, "aria-valuemin": "-1000000", "aria-valuemax": "1000000" });
  const typed = Object.assign(element("input", "mg-nudge-typed"), { type: "text", inputMode: "decimal" });
  typed.setAttribute("aria-label", `Type a value for ${name}`);
  const grad = element("span", "mg-nudge-grad");
  // The reader's gesture asks for `value`: shown at once, and sent to Python.
  const nudgeTo = (value) => {
    showValue(view, name, value);
    control.ask("set", { leaf: name, value });
  };
  slider.addEventListener("keydown", (event) => {
    if (control.answer === null) return;
    const value = keyValue(event.key, event.shiftKey, control.value(name), step);
    if (value === null) return;
    event.preventDefault();
    nudgeTo(value);
  });
  slider.addEventListener("pointerdown", (event) => {
    if (control.answer === null) return;
    const start = { x: event.clientX, value: control.value(name) };
    slider.setPointerCapture(event.pointerId);
    const move = (moved) => {
      const value = dragValue(start.value, moved.clientX - start.x, moved.shiftKey, step);
      if (value !== control.value(name)) nudgeTo(value);
    };
    // The drag's listeners go when it ends.
    const drag = new AbortController();
    const { signal } = drag;
    slider.addEventListener("pointermove", move, { signal });
    slider.addEventListener("pointerup", () => drag.abort(), { signal });
    slider.addEventListener("pointercancel", () => drag.abort(), { signal });
  });
  typed.addEventListener("change", () => {
    const value = Number(typed.value.replace("−", "-"));
    if (typed.value.trim() === "" || !Number.isFinite(value)) {
      say(view, `${name} needs a number, such as -2.5: "${typed.value}" is not one.`);
      return;
    }
    control.ask("set", { leaf: name, value });
  });
  view.sliders.set(name, { slider, typed, grad });
  row.append(label, slider, typed, grad);
  return row;
}

/** Show an input's value on its slider (what the reader asked for, before Python answers). */
function showValue(view, name, value) {
  const { slider, typed } = view.sliders.get(name);
  slider.textContent = shown(value);
  slider.setAttribute("aria-valuenow", String(value));
  slider.setAttribute("aria-valuetext", shown(value));
  if (document.activeElement !== typed) typed.value = String(value);
}

/** Draw the control for Python's answer (null: Python is not running it). */
function draw(control, answer) {
  const { view, settings } = control;
  const running = answer !== null;
  view.start.hidden = running;
  view.start.lastChild.textContent = control.kept ? "Resume nudging" : "Nudge the inputs";
  view.kept.hidden = running || control.kept === null;
  if (control.kept) view.kept.textContent = keptText(control.kept);
  // The folded instructions are for nudging: until then they are no stop on the way.
  for (const part of [view.rows, view.readout, view.buttons, view.figure, view.how]) {
    if (part) part.hidden = !running;
  }
  // Its space stays, so that the panel below never moves under the reader's pointer.
  view.mark.classList.toggle("mg-nudge-mark-on", running && (answer.moved || answer.rebased));
  if (!running) return;
  for (const leaf of answer.leaves) {
    showValue(view, leaf.name, leaf.value);
    view.sliders.get(leaf.name).grad.textContent = `grad ${shown(leaf.grad)}`;
  }
  const lines = readout(settings.root, answer);
  for (const [key, line] of Object.entries(lines)) {
    view.lines[key].textContent = line || "";
    view.lines[key].hidden = line === null;
  }
  view.step.lastChild.textContent = `Take a gradient step on ${control.leaf} (−${settings.rate} × grad)`;
  view.drawing.innerHTML = answer.svg;
  view.caption.textContent = captionText(answer);
}

/**
 * Set up the page's nudge controls (each div.mg-nudge the build wrote), their
 * state kept with the page's.  actions: the runner's (run).
 */
export function setUpNudges(session, actions) {
  const controls = [];
  session.features.set("nudge", controls);
  for (const box of session.root.querySelectorAll("div.mg-nudge")) {
    const control = new NudgeControl(session, actions, box, JSON.parse(box.dataset.nudge));
    if (control.cell !== null) controls.push(control);
  }
  const byRoot = () => new Map(controls.map((control) => [control.settings.root, control]));
  keepState(session, "nudge", {
    snapshot() {
      const kept = [...byRoot()].map(([root, control]) => [root, control.snapshot()])
        .filter(([, saved]) => saved !== null);
      return kept.length ? Object.fromEntries(kept) : null;
    },
    restore(saved) {
      for (const [root, control] of byRoot()) {
        if (saved[root]) {
          control.kept = saved[root];
          draw(control, null);
        }
      }
    },
    reset() {
      for (const control of controls) control.reset();
    },
  });
  session.onTeardown(() => {
    for (const control of controls) control.ended();
  });
  document.addEventListener("micrograd:reset", (event) => {
    for (const control of controls) {
      if (event.detail.cells.includes(control.cell.index)) control.reset();
    }
  });
  // The graph's cell ran again: its graph is new, and nudges start from it.
  document.addEventListener("micrograd:run-done", (event) => {
    for (const control of controls) {
      if (event.detail.cell !== control.cell.index || control.answer === null) continue;
      if (control.answer.moved || control.answer.rebased) {
        say(control.view, `${control.cell.label} ran again: its graph is new, and your nudges `
          + "start afresh from it.");
      }
      control.ask("state");
    }
  });
  for (const control of controls) draw(control, null);
}

/** The feature's set-up, as the runner calls it (the registry, ../registry.js). */
export const install = setUpNudges;
