// What a run shows in a cell: the runner's extension API (output renderers,
// add-on messages, the micrograd:* events), output rendering and the built-in
// renderers, a stepper's renderer, and the notes a run leaves in a cell's output
// box, in words.  (Charts drawn in the browser are a feature's:
// docs/_features/charts.)  Loaded by the first Run (or a reload that shows a
// saved run again).

import {
  button, element, outputBody, recordOutput, recordShown,
} from "./cells.js";
import MIME_TYPES from "./mime_types.json" with { type: "json" };
import { first } from "./session.js";

// -- the extension API ----------------------------------------------------------------------------
// The runner's extension API: how an add-on module (a feature's: a chart, glued
// numbers in the prose) takes part in a run without editing the run queue or
// the worker's loop.  An add-on imports this module ("./outputs.js") and is
// imported by runner.js (page side) or worker.js (worker side).
//
// Each function is given the page's session (session.js), which keeps what is
// registered.
//
// registerOutput(session, mime, show, laidOut)
//     Show display outputs of this MIME type with show(box, data, output): box
//     is the output's empty element (div.runner-display, data-mime set), data
//     the bundle's entry for mime, output {bundle, index, cell}.  A bundle is
//     shown by the most recently registered renderer among its MIME types, so
//     an add-on's renderer wins over the built-in ones (Graphviz DOT, SVG,
//     HTML, Markdown, LaTeX, plain text: below).  When the worker has
//     laid the output out (worker.js), laidOut(box, html) puts the HTML in
//     (by default, as the box's content).
//
// registerAddon(session, name, handle)
//     The add-on messages of this name (kernel.py's post_message(name, **fields))
//     go to handle(fields, run): run is {cell, code, display(index)} (cell: the
//     Cell, null for a hidden cell; code: its index among all the page's code
//     cells, queue.js; display(index): the element of the run's index-th display
//     output, null for a hidden cell; restored: true when a reload shows a
//     saved run again, and the add-on recorded the message in the cell's
//     shown items, cells.js recordShown).  A message of a run that has ended or
//     was stopped is dropped.  Add-on names are their own namespace: they never
//     clash with the protocol's message types (protocol.js).
//
// ask(session, addon, question, fields), in python.js
//     Ask the add-on's worker side a question (worker.js's registerAnswer there):
//     resolves with the answer's fields, between runs, once Python is running
//     (run a cell first); rejects with the worker's reason when there is none.
//
// Events, CustomEvents dispatched on document.  In their details, cell is the
// cell's index among the runnable cells (null for a hidden cell), code its index
// among all the page's code cells, glue the keys of the values the cells glue
// into the text:
//     micrograd:run-start  {cell, code, edited}      a cell (hidden ones too) starts
//     micrograd:run-done   {cell, code, ok, edited}  it finished (ok: no exception)
//     micrograd:cell-settled {cell, state}           a runnable cell's Run ended: done,
//                                                     raised, skipped, stopped or crashed
//     micrograd:restart    {}                        the page's Python ended and a new
//                                                     one starts (Restart, Stop, or the
//                                                     first Run or Restart after a crash):
//                                                     show the build's values again
//     micrograd:reset      {cells, code, glue}       these cells' code and outputs are
//                                                     the build's again (Reset)
//     micrograd:stale      {cells, code, glue}       every cell whose shown output is
//                                                     stale now (an empty list: none);
//                                                     sent whenever that set changes
//
// On the worker side, registerLayout in worker.js adds a step that turns a
// display output into HTML once the cell has run.

const insertHTML = (box, html) => {
  box.innerHTML = html;
};

export function registerOutput(session, mime, show, laidOut = insertHTML) {
  session.renderers.push([mime, { show, laidOut }]);
}

export function registerAddon(session, name, handle) {
  if (session.addons.has(name)) throw new Error(`runner: add-on messages ${name} are already handled`);
  session.addons.set(name, handle);
}

/** The [mime, {show, laidOut}] for this bundle: the most recently registered of its types. */
export function rendererFor(session, bundle) {
  const { renderers } = session;
  for (let i = renderers.length - 1; i >= 0; i -= 1) {
    if (renderers[i][0] in bundle) return renderers[i];
  }
  return null;
}

export function addonHandler(session, name) {
  return session.addons.get(name) || null;
}

/**
 * Set an add-on up for the session once, however many times its module is asked
 * to (the first Run, and a reload that shows a saved run again, both do).
 */
export function installOnce(session, name, setUp) {
  if (session.installed.has(name)) return;
  session.installed.add(name);
  setUp();
}

/** Dispatch micrograd:<name> on document. */
export function emit(name, detail = {}) {
  document.dispatchEvent(new CustomEvent(`micrograd:${name}`, { detail }));
}

// -- what the prose shows of the reader's run: each key's state ----------------------------------
// What the prose shows of the reader's run: the values hidden cells send the
// page for its sentences (glued numbers and claims, each a feature's add-on:
// docs/_features/glue and claims), each under its key, with where it comes
// from, as data.  It lives here, with the extension API, rather than in one of
// those add-ons: the runner's own modules read every key's state (pagestate.js
// saves and restores it, queue.js says the words of what stays the build's,
// runner.js hands it to the browser tests), and a module of its own, shared by
// the two, would be a page module more than the runner keeps to
// (tests/site/test_site_helpers.py).  A key's state is
//   {value, from, stale, notRerun}
// value: the reader's value (null: the build's); from: "run" (this Python
// session) or "earlier-run" (a session that has ended, or a saved run brought
// back on reload); stale: the cells it was computed from have changed since;
// notRerun (only while stale, where it is so): it is the build's, computed from
// a build-only cell, and these shown cells it depends on are the reader's
// ([{number, edited}]: planner.notRerun).
// It follows the runner's events as the cells' outputs do, so that a sentence
// never says something the outputs around it no longer show:
//   micrograd:restart  the reader's values are from an earlier session now
//   micrograd:reset    {glue}: those keys are the build's again
//   micrograd:stale    {glue, notRerun}: exactly these keys are stale (notRerun:
//                      {key: cells} for those that stay the build's)
//
// Each change is the event micrograd:prose {key, state} on document.
// followKeys(owns, render) gives an add-on the keys it owns (owns(key)) and
// calls render(key, state) whenever one changes; its set(key, value) records
// the reader's value of a run.  snapshot() and restore() save and bring back
// every key's state (pagestate.js).  The keys' states are the session's:
// session.prose, a Prose (proseOf makes it the first time it is needed).

const BUILD = Object.freeze({ value: null, from: "build", stale: false });

/** What the prose shows of the reader's run, for one session. */
export class Prose {
  constructor() {
    this.followers = []; // {owns, render, states: Map key -> state}
    document.addEventListener("micrograd:restart", () => {
      for (const { states } of this.followers) {
        for (const [key, state] of states) {
          if (state.value !== null) this.update(key, { from: "earlier-run" });
        }
      }
    });
    document.addEventListener("micrograd:reset", (event) => {
      for (const key of event.detail.glue || []) this.update(key, { value: null, from: "build", stale: false });
    });
    document.addEventListener("micrograd:stale", (event) => {
      const stale = new Set(event.detail.glue || []);
      const notRerun = event.detail.notRerun || {};
      for (const { states } of this.followers) {
        for (const [key, state] of states) if (state.stale && !stale.has(key)) this.update(key, { stale: false });
      }
      for (const key of stale) this.update(key, { stale: true, notRerun: notRerun[key] || null });
    });
  }

  follower(key) {
    return this.followers.find((f) => f.owns(key)) || null;
  }

  update(key, change) {
    const owner = this.follower(key);
    if (!owner) return;
    const state = { ...(owner.states.get(key) || BUILD), ...change };
    if (!state.stale || !state.notRerun) delete state.notRerun;
    if (state.value === null && !state.stale) owner.states.delete(key);
    else owner.states.set(key, state);
    const shown = owner.states.get(key) || BUILD;
    owner.render(key, shown);
    document.dispatchEvent(new CustomEvent("micrograd:prose", { detail: { key, state: shown } }));
  }

  /** Follow the keys owns(key) says are the add-on's; render(key, state) shows one. */
  followKeys(owns, render) {
    const states = new Map();
    this.followers.push({ owns, render, states });
    return {
      /** A run's value for the key: the reader's, current. */
      set: (key, value) => this.update(key, { value, from: "run", stale: false }),
      /** The key's state now. */
      state: (key) => states.get(key) || BUILD,
    };
  }

  /** Every key's state that is not the build's: {key: {value, from, stale}}. */
  snapshot() {
    const saved = {};
    for (const { states } of this.followers) for (const [key, state] of states) saved[key] = state;
    return saved;
  }

  /** Bring saved states back (a reload): the reader's values are from an earlier session. */
  restore(saved) {
    for (const [key, state] of Object.entries(saved)) {
      this.update(key, { ...state, from: state.value === null ? "build" : "earlier-run" });
    }
  }

  /** Every key the build's again (Reset page). */
  resetAll() {
    for (const { states } of this.followers) {
      for (const key of [...states.keys()]) this.update(key, { value: null, from: "build", stale: false });
    }
  }
}

/** The session's Prose (made the first time). */
export function proseOf(session) {
  if (session.prose === null) session.prose = new Prose();
  return session.prose;
}

// -- output rendering -----------------------------------------------------------------------------
// Output rendering: what a running cell prints and displays, put into its
// output box.  Printed text is appended as it arrives; each displayed value
// gets a box (div.runner-display) filled by the renderer of its MIME type
// (registerOutput, above; the built-in ones are here).  Drawings and
// Markdown are laid out in the worker after the cell has run and arrive as
// HTML ("laid-out", protocol.js), which the same renderer puts in.

/** Append printed text to the cell's box. */
export function addStream(session, cell, name, text) {
  first(session.records, "firstOutput");
  recordOutput(cell, { kind: "stream", name, text });
  const body = outputBody(cell);
  recordShown(cell, { kind: "stream", name, text });
  let pre = body.lastElementChild;
  if (!pre || !pre.classList.contains("runner-stream")) {
    pre = element("pre", "runner-stream");
    body.append(pre);
  }
  pre.append(element("span", name === "stderr" ? "runner-stderr" : "", text));
}

/** Append the run's index-th displayed value ({mime: data}) to the cell's box. */
export function addDisplay(session, cell, index, bundle) {
  first(session.records, "firstOutput");
  const [mime, { show }] = rendererFor(session, bundle);
  const data = bundle[mime];
  recordOutput(cell, { kind: "display", mime, data, bundle });
  const box = element("div", "runner-display");
  box.dataset.mime = mime;
  box.dataset.index = index;
  outputBody(cell).append(box);
  recordShown(cell, { kind: "display", index, bundle });
  show(box, data, { bundle, index, cell });
}

/** The box of the cell's index-th display output (null if there is none). */
export function displayBox(cell, index) {
  if (!cell.box) return null;
  return cell.box.body.querySelector(`.runner-display[data-index="${index}"]`);
}

/** The worker laid the index-th display out: its renderer puts the HTML in. */
export function addLayout(session, cell, index, html) {
  const box = displayBox(cell, index);
  if (!box) return;
  recordShown(cell, { kind: "layout", index, html });
  const [, { laidOut }] = rendererFor(session, { [box.dataset.mime]: null });
  laidOut(box, html);
}

/** Laying out the index-th display failed: say so in its box. */
export function addLayoutError(cell, index, error) {
  const box = displayBox(cell, index);
  if (!box) return;
  recordShown(cell, { kind: "layout-error", index, error });
  box.replaceChildren(element("pre", "runner-error", `Could not draw: ${error}`));
}

/** The exception's traceback, under what the cell showed. */
export function addTraceback(cell, text) {
  outputBody(cell).append(element("pre", "runner-error", text));
  recordShown(cell, { kind: "traceback", text });
}

/** Show one item of a saved output box again (cells.js's Cell.shown) by what showed it. */
export function showAgain(session, cell, item) {
  if (item.kind === "stream") addStream(session, cell, item.name, item.text);
  else if (item.kind === "display") addDisplay(session, cell, item.index, item.bundle);
  else if (item.kind === "layout") addLayout(session, cell, item.index, item.html);
  else if (item.kind === "layout-error") addLayoutError(cell, item.index, item.error);
  else if (item.kind === "traceback") addTraceback(cell, item.text);
  else return false;
  return true;
}

// -- built-in renderers: registered from least to most preferred --------------------------------

const asText = (box, data) => box.append(element("pre", "", data));
const asMarkup = (box, data) => {
  box.innerHTML = data;
};

/**
 * Register the built-in renderers with the session, before any add-on's (an
 * add-on's renderer of a bundle that also has text/plain must win: it is
 * registered after these).
 */
function registerBuiltIns(session) {
  registerOutput(session, "text/plain", asText);
  registerOutput(session, "text/latex", asText);
  registerOutput(
    session,
    "text/markdown",
    (box, data) => {
      box.textContent = data; // until the worker lays it out as HTML
    },
    (box, html) => {
      box.innerHTML = html;
      for (const table of box.querySelectorAll("table")) table.classList.add("table");
    },
  );
  registerOutput(session, "text/html", asMarkup);
  registerOutput(session, "image/svg+xml", asMarkup);
  registerOutput(
    session,
    MIME_TYPES.graphviz,
    (box) => {
      box.classList.add("runner-drawing");
      box.textContent = "Laying out the drawing…";
    },
    (box, svg) => {
      box.innerHTML = svg;
      // The class of the build's inline graphs: it fits the column as they do, and
      // opens full size when shown smaller (micrograd-figures.css and .js).
      const drawing = box.querySelector("svg");
      if (drawing) drawing.classList.add("micrograd-graph");
    },
  );
}

// -- a stepper made in the reader's browser -------------------------------------------------------
// Steppers made in the reader's browser.
//
// A stepper a cell displays (the book's kernel shows it by its data, under the
// stepper MIME type of mime_types.json) is laid out in the worker
// (worker.js) and arrives as the same HTML the build makes;
// micrograd-figures.js sets it up as it does the build's steppers.

/**
 * The renderers of the session, once (the first Run, or a reload that shows a
 * saved run again, sets them up): the built-in ones and a stepper's.
 */
export const install = (session) => installOnce(session, "outputs", () => {
  // The built-in renderers register first, so that these, registered after
  // them, are the ones a stepper's bundle (JSON and text/plain) is shown by; a
  // feature's (a chart's) registers after this.
  registerBuiltIns(session);
  registerOutput(session, MIME_TYPES.stepper, (box) => {
    box.classList.add("runner-stepper");
    box.textContent = "Laying out the stepper…";
  });
});

// -- what a run says, in words --------------------------------------------------------------------
// What the runner tells the reader about a run, in words: what a cell is
// called, and the notes a run leaves in a cell's output box (the cells it ran
// again first and why, the ones it left out, a hidden cell that raised, a
// Stop, a crash).  The run queue (queue.js) decides when; this module says it.

/** What the reader calls an entry of the flow: "cell 3", or "the hidden cell after cell 3". */
export function nameOf(entry) {
  if (entry.cell) return entry.cell.name;
  if (entry.after && entry.after.cell) return `the hidden cell after ${entry.after.cell.name}`;
  return "a hidden cell at the top of the page";
}

export const capital = (text) => `${text[0].toUpperCase()}${text.slice(1)}`;

/** The visible cell where news about an entry goes (a hidden cell's: the one above it). */
export const shownAt = (entry) => entry.cell || (entry.after && entry.after.cell) || null;

/** A note in the cell's output box, under what it shows. */
export function addNote(cell, className, text) {
  return showNote(cell, { kind: "note", className, text, error: null });
}

/**
 * A note in the cell's output box, from its data: {kind: "note", className, text,
 * error (a traceback under the words, or null)}.  The same data shows it again
 * after a reload.
 */
export function showNote(cell, item) {
  const note = element("div", `runner-note ${item.className}`, item.text);
  if (item.error !== null) note.append(element("pre", "runner-error", item.error));
  outputBody(cell).append(note);
  recordShown(cell, item);
  return note;
}

/** Why a run ran cells above again first (plan.rerun, queue.js). */
export function rerunText(rerun, entry, codeCells) {
  const shown = rerun.cells.map((code) => codeCells[code]).filter((c) => c.cell);
  const hidden = rerun.cells.length - shown.length;
  const numbers = shown.map((c) => c.cell.number);
  let which = numbers.length === 0 ? "" : `cell${numbers.length > 1 ? "s" : ""} ${span(numbers)}`;
  if (hidden) which += `${which ? " and " : ""}${hidden} hidden cell${hidden > 1 ? "s" : ""}`;
  const names = rerun.names.slice(0, 3).join(", ") + (rerun.names.length > 3 ? ", …" : "");
  const by = rerun.by;
  const changed = rerun.names[0];
  const cause = by === Infinity ? `a Reset put back the code whose run had changed ${changed}`
    : by === entry.code ? `this cell's last run changed ${changed}`
      : by > entry.code ? `a later run of ${nameOf(codeCells[by])} changed ${changed}`
        : `${nameOf(codeCells[by])}, run again after the cells below it, changed ${changed}`;
  return `Re-ran ${which} first, which define${shown.length + hidden > 1 ? "" : "s"} ` +
    `${names}, because ${cause}: this run starts from the state the page defines.`;
}

/** The cells a run left out: they stopped or crashed Python, and this cell does not need them. */
export function leftOutText(entries) {
  const names = entries.map(nameOf).join(", ");
  return `Not run again: ${names} (it stopped or crashed Python the last time it ran); this ` +
    "cell does not need it.";
}

/** "2-4, 6" for [2, 3, 4, 6]. */
function span(numbers) {
  const parts = [];
  for (let i = 0; i < numbers.length; i += 1) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 1) j += 1;
    parts.push(j > i ? `${numbers[i]}–${numbers[j]}` : `${numbers[i]}`);
    i = j;
  }
  return parts.join(", ");
}

/**
 * What an output that stays the build's says once a cell it depends on is one
 * the reader changed (planner.notRerun): notRerun, those cells, [{number,
 * edited}] (edited: the reader edited it; else it ran from the reader's values).
 */
export function notRerunWords(notRerun) {
  const names = (list) => {
    const numbers = list.map((c) => c.number);
    const listed = numbers.length === 1 ? `${numbers[0]}`
      : `${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`;
    return `${numbers.length === 1 ? "cell" : "cells"} ${listed}`;
  };
  const edited = notRerun.filter((c) => c.edited);
  const one = (edited.length || notRerun.length) === 1;
  const why = edited.length > 0
    ? `${names(edited)}, which you changed`
    : `${names(notRerun)}, which ${one ? "was" : "were"} run from your changes`;
  return `from the build, not re-run: depends on ${why}`;
}

/** The same, as a sentence of its own (a cell's note, a glued number's words). */
export function notRerunNote(notRerun) {
  const words = notRerunWords(notRerun);
  return `${words[0].toUpperCase()}${words.slice(1)}.`;
}

/** A hidden cell raised: the note that says so (the text keeps the build's numbers), as data. */
export function hiddenErrorNote(entry, error) {
  return {
    kind: "note",
    className: "runner-hidden-error",
    text: `${capital(nameOf(entry))} (it computes numbers for the text) raised an exception; ` +
      "the text keeps the build's numbers:",
    error,
  };
}

/** The note of a run that Stop (or Restart) ended. */
export function stoppedText(entry) {
  return `Stopped ${nameOf(entry)}. Python was restarted: the variables of earlier cells are ` +
    "gone, and Run runs the cells above again (this one only if you run it or say so).";
}

/**
 * The note of a crash, in the cell where it is news: what crashed, what the reader
 * can do (a Restart button: restart()), and what the runtime said (details).
 */
export function addCrashNote(cell, crashed, details, restart) {
  const which = crashed ? nameOf(crashed) : "starting Python";
  showCrashNote(cell, { kind: "crash", which, blamed: Boolean(crashed), details }, restart);
  return which;
}

/**
 * The note of a crash, from its data: {kind: "crash", which (what was running),
 * blamed (whether a cell crashed it), details}.  The same data shows it again
 * after a reload.
 */
export function showCrashNote(cell, item, restart) {
  const { which, blamed, details } = item;
  const note = element("div", "runner-note runner-crashed",
    `Python crashed while running ${which}, and this page's variables are gone. ` +
    "What you can do: Restart Python, then Run. " +
    (blamed ? `${capital(which)} will not run again by itself: run it yourself, or edit it ` +
      "first. " : ""));
  outputBody(cell).append(note);
  recordShown(cell, item);
  const again = button("runner-restart", "Restart Python", () => {
    again.remove();
    restart();
  });
  note.append(again);
  if (/Maximum call stack size exceeded/.test(details)) {
    note.append(element("p", "", "The browser's stack ran out: a recursion through " +
      "Python's C code, or freeing a very deep structure, does that here."));
  }
  note.append(element("pre", "runner-crash-details", details));
}
