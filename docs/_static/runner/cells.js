// The cells: one Cell object per runnable code cell, the one module that
// changes a cell's fields, and render(cell), the one function that draws a
// cell's state on the page.
//
// A cell's state is data, in three fields:
//   state   what its last Run request is doing or did (STATES below);
//   shows   what its output area shows: the build's output ("build"), a run's in
//           this Python session ("run"), or a run's in a session that has ended
//           ("earlier-run");
//   stale   whether what it shows no longer follows from the page's state (a run
//           changed what it was computed from: flow.js decides).
// Every label, mark and button on the cell follows from these by render(); no
// module decides anything from a label's text.  Each code cell gets a bar (Run,
// Edit, Stop, Reset, Restart and a status line), and, once it runs, an output
// box under it, with the build's output one click away.  Build-only cells get a
// one-line note instead, and a bar of their own for the add-ons' tools (copy).
// Every control is a real button named for what it does to which cell ("Run cell 3").
// After the page's last cell, the scratch cell ("Try your own code"): a Cell of the
// reader's, empty at first, in no manifest, which runs after the page's cells (flow.js).

import { button, element } from "./dom.js";
import { EDITED_MARK, editedNews } from "./savedstate.js";

/** What a cell's last Run request is doing or did. */
export const STATES = Object.freeze({
  idle: "not run in this session",
  queued: "waiting for its turn, or for cells above it",
  starting: "waiting for Python to start",
  waiting: "waiting for the reader's answer about a cell above",
  running: "running",
  done: "ran without an exception",
  raised: "ran and raised an exception",
  skipped: "not run: a cell above raised, or Python crashed in another cell",
  stopped: "stopped by the reader",
  crashed: "Python crashed while it ran",
});
const BUSY = Object.freeze(["queued", "starting", "waiting", "running"]);
/** The states a Run ends in (api.js: the micrograd:cell-settled event). */
const SETTLED = Object.freeze(["done", "raised", "skipped", "stopped", "crashed"]);

const BUILD_ONLY_NOTE =
  "Runs when the site is built, not in your browser (it needs NumPy, matplotlib, " +
  "PyTorch or the build machine): the output is the build's.";
/** The output box's label, by what it shows and whether that is stale. */
const OUTPUT_LABELS = Object.freeze({
  run: "Computed in your browser",
  "run-stale": "From an earlier run: run this cell to update it",
  "earlier-run": "Computed in your browser, by an earlier Python session",
  "earlier-run-stale": "Computed in your browser, by an earlier Python session",
});
const STALE_BUILD = "From the build: run this cell to update it";

/** A runnable code cell: its page elements, its code and its state. */
export class Cell {
  constructor({ el, index, number, source, codeView, buildOutput, scratch = false }) {
    this.el = el; // the page's div.cell
    this.index = index; // among the runnable cells, in page order (null: the scratch cell)
    this.number = number; // among the page's shown code cells: "cell 3"
    this.scratch = scratch; // the reader's own cell after the page's ("Try your own code")
    this.name = scratch ? "the scratch cell" : `cell ${number}`;
    this.label = scratch ? "Scratch cell" : `Cell ${number}`; // its bar's
    this.filename = scratch ? "<scratch>" : `<cell ${number}>`; // in tracebacks
    this.source = source; // the page's code
    this.codeView = codeView; // the highlighted code, hidden once the editor opens
    this.buildOutput = buildOutput; // the build's output element, or null
    this.entry = null; // its entry in the page's flow (flow.js)
    this.editor = null; // {element, view, value, focus()} once opened (editor.js)
    this.state = "idle";
    this.detail = ""; // the status line's words for the state
    this.shows = "build";
    this.stale = false;
    this.outputs = []; // what the run showed: {kind: "stream" | "display", ...}
    // What its output box shows, item by item, as data (savedstate.js's SHOWN_KINDS):
    // what a reload shows again, through the same renderers; null while it has none.
    this.shown = null;
    this.controls = null; // {bar, run, edit, stop, reset, status}
    this.box = null; // {element, label, body, toggle} while it shows a run
    this.staleNote = null; // the note above a stale build output
    this.editedMark = null; // the mark above its code while the code is the reader's
    this.toolStatus = ""; // what an add-on's tool says in the status line (setToolStatus)
  }

  /** The code the cell runs: the editor's, once it has one, else the page's. */
  get code() {
    return this.editor ? this.editor.value : this.source;
  }

  get edited() {
    return this.code !== this.source;
  }

  get busy() {
    return BUSY.includes(this.state);
  }
}

// The session keeps the page's cells: session.cells (the runnable ones, in page
// order), session.scratch (the scratch cell, or null: a page without runnable
// cells has none) and session.buildOnlyCells (the build-only cells that show
// their code, in page order: {el, number, name, source, code, edited, controls:
// {bar, status}, position (in the manifest, as the build wrote it:
// data-micrograd-cell), note (its out-of-date note, or null)}).

/** Every cell a Python session runs: the page's, then the scratch cell. */
export const sessionCells = (session) => (session.scratch ? [...session.cells, session.scratch] : session.cells);

/**
 * Find the page's code cells (under session.root) and give each runnable one its
 * bar; build-only cells get a note.  actions: {run, edit, stop, reset, restart},
 * each taking the cell (restart: none).
 */
export function setUpCells(session, actions) {
  const { cells, buildOnlyCells } = session;
  const article = session.root.querySelector("article.bd-article") || session.root.ownerDocument.body;
  let number = 0;
  for (const el of article.querySelectorAll("div.cell")) {
    const input = el.querySelector("div.cell_input");
    if (!input) continue;
    number += 1;
    const codeView = input.querySelector("div.highlight") || input.querySelector("pre");
    const pre = input.querySelector("pre");
    if (el.classList.contains(session.settings.buildOnlyClass)) {
      input.after(element("p", "runner-note runner-build-only", BUILD_ONLY_NOTE));
      if (pre) buildOnlyCells.push(buildOnlyCell(el, number, pre, input));
      continue;
    }
    if (!codeView || !pre) continue;
    const cell = new Cell({
      el,
      index: cells.length,
      number,
      source: pre.textContent.replace(/\n$/, ""),
      codeView,
      buildOutput: el.querySelector("div.cell_output"),
    });
    cell.controls = makeBar(cell, actions);
    input.after(cell.controls.bar);
    cells.push(cell);
    render(cell);
  }
  if (cells.length > 0) setUpScratch(session, article, actions);
  return cells;
}

const SCRATCH_TITLE = "Try your own code";
const SCRATCH_LEAD =
  "Runs in this page's Python, after the page's cells (Run runs them first if they have " +
  "not run).";
// Which names the reader's code can use: the kernel's rule (kernel.py, NAMESPACE and BEHIND).
const SCRATCH_NAMES =
  "It sees the names of the cells shown above, as the last of them left them (a later " +
  "cell can give a name a new value): not those of the solutions or of the page's hidden cells.";

/**
 * The scratch cell: an empty cell of the reader's at the end of the article, a region
 * of its own, with the same bar, editor and output box as the page's cells.
 */
function setUpScratch(session, article, actions) {
  const region = element("section", "runner-scratch");
  const heading = element("h2", "runner-scratch-title", SCRATCH_TITLE);
  heading.id = "runner-scratch-title";
  region.setAttribute("aria-labelledby", heading.id);
  const el = element("div", "runner-scratch-cell");
  const input = element("div", "runner-scratch-input");
  const codeView = element("div", "highlight");
  const pre = element("pre", "runner-scratch-code");
  // The empty code opens the editor, as Edit does (a keyboard reaches Edit on the bar).
  pre.addEventListener("click", () => actions.edit(session.scratch));
  codeView.append(pre);
  input.append(codeView);
  el.append(input);
  region.append(
    heading,
    element("p", "runner-scratch-lead", SCRATCH_LEAD),
    element("p", "runner-scratch-names", SCRATCH_NAMES),
    el,
  );
  article.append(region);
  const scratch = new Cell({
    el, index: null, number: null, source: "", codeView, buildOutput: null, scratch: true,
  });
  session.scratch = scratch;
  scratch.controls = makeBar(scratch, actions);
  input.after(scratch.controls.bar);
  render(scratch);
}

/** A build-only cell: its code, and a bar that holds only the add-ons' tools. */
function buildOnlyCell(el, number, pre, input) {
  const source = pre.textContent.replace(/\n$/, "");
  const controls = { bar: element("div", "runner-bar"), status: element("span", "runner-status") };
  controls.bar.append(controls.status);
  makeToolbar(controls.bar, `Cell ${number}`, null);
  input.after(controls.bar);
  const position = Number.parseInt(el.getAttribute("data-micrograd-cell"), 10);
  return {
    el, number, name: `cell ${number}`, source, code: source, edited: false, controls, position, note: null,
  };
}

/**
 * Say (words) or stop saying (null) that a build-only cell's output is out of date:
 * the build's, from cells the reader has changed since.
 */
export function setBuildOnlyNote(cell, words) {
  if (cell.note && cell.note.textContent === words) return;
  cell.note?.remove();
  cell.note = null;
  const output = cell.el.querySelector("div.cell_output");
  output?.classList.toggle("runner-stale", words !== null);
  if (words === null) return;
  cell.note = element("p", "runner-note runner-stale-note runner-not-rerun", words);
  if (output) output.before(cell.note);
  else cell.controls.bar.after(cell.note);
}

function makeBar(cell, actions) {
  const named = (b, label, title) => {
    b.setAttribute("aria-label", label);
    b.title = title;
    return b;
  };
  const controls = {
    bar: element("div", "runner-bar"),
    run: named(
      button("runner-run", "Run", () => actions.run(cell), "run"),
      `Run ${cell.name}`,
      cell.scratch ? "Run your code in your browser, after the page's cells (Shift+Enter)"
        : "Run this cell in your browser, after the cells above it that it needs (Shift+Enter)",
    ),
    edit: named(
      button("runner-edit", "Edit", () => actions.edit(cell), "edit"),
      `Edit ${cell.name}`,
      "Change this cell's code, then run it",
    ),
    stop: named(
      button("runner-stop", "Stop", () => actions.stop(cell), "stop"),
      `Stop ${cell.name}`,
      "Stop: a running cell ends this page's Python (a fresh one starts); a waiting cell stays unrun",
    ),
    reset: named(
      button("runner-reset", "Reset", () => actions.reset(cell), "reset"),
      cell.scratch ? "Reset the scratch cell: empty again"
        : `Reset ${cell.name} to the page's code and the build's output`,
      cell.scratch ? "Empty the scratch cell: no code, no output"
        : "Put back the page's code and the build's output",
    ),
    restart: named(
      button("runner-restart", "Restart", () => actions.restart(), "restart"),
      "Restart this page's Python",
      "Restart this page's Python: every variable is forgotten",
    ),
    status: element("span", "runner-status"),
  };
  const { bar, run, edit, stop, reset, restart, status } = controls;
  bar.append(run, edit, stop, reset, restart, status);
  makeToolbar(bar, cell.label, run);
  return controls;
}

/**
 * The bar is one Tab stop, as a toolbar is: Tab reaches its current button (Run,
 * at first), the arrow keys (and Home, End) move along the buttons shown, so that a
 * reader tabbing from one cell's Run to the next does not pass every button.
 */
function makeToolbar(bar, label, first) {
  bar.setAttribute("role", "toolbar");
  bar.setAttribute("aria-label", label);
  const buttons = () => Array.from(bar.querySelectorAll("button"))
    .filter((b) => !b.hidden && b.getClientRects().length > 0);
  for (const b of bar.querySelectorAll("button")) b.tabIndex = b === first ? 0 : -1;
  bar.addEventListener("focusin", (event) => {
    if (event.target.tagName !== "BUTTON") return;
    for (const b of bar.querySelectorAll("button")) b.tabIndex = b === event.target ? 0 : -1;
  });
  bar.addEventListener("keydown", (event) => {
    const shown = buttons();
    const at = shown.indexOf(document.activeElement);
    const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: shown.length - 1 };
    if (at < 0 || !(event.key in moves) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    shown[(moves[event.key] + shown.length) % shown.length].focus();
  });
}

/**
 * Give every cell's bar a button of an add-on's (copy, check...), after its own
 * buttons and before its status: make(cell) returns the button, or null for none.
 * With buildOnly, the build-only cells' bars get one too (make gets {el, number,
 * name, source, code, edited, controls}).  The bar stays one Tab stop: the arrow
 * keys reach the new button too (on a build-only cell's bar, the first tool is it).
 */
export function addToolToEveryCell(session, make, { buildOnly = false } = {}) {
  const { cells, buildOnlyCells } = session;
  for (const cell of buildOnly ? [...cells, ...buildOnlyCells] : cells) {
    const made = make(cell);
    if (made === null) continue;
    made.tabIndex = cell.controls.bar.querySelector("button[tabindex='0']") ? -1 : 0;
    cell.controls.status.before(made);
  }
}

/** Say what an add-on's tool did in the cell's status line, after its state ("" to stop). */
export function setToolStatus(cell, text) {
  cell.toolStatus = text;
  if (cell instanceof Cell) render(cell);
  else cell.controls.status.textContent = text;
}

/**
 * The bar's Tab stop, if the button that was it is hidden now: back to Run, and the
 * focus with it if it was there (Stop pressed: the cell is no longer busy).
 */
function keepTabStop(controls) {
  const stop = controls.bar.querySelector("button[tabindex='0']");
  if (!stop || stop.hidden) {
    for (const b of controls.bar.querySelectorAll("button")) b.tabIndex = b === controls.run ? 0 : -1;
    if (stop && stop === document.activeElement) controls.run.focus();
  }
}

// -- drawing a cell's state ---------------------------------------------------------------------

/** Draw the cell's state: its status line, its buttons, its output's label and marks. */
export function render(cell) {
  const { controls } = cell;
  cell.el.dataset.runnerState = cell.state;
  controls.status.textContent = [cell.detail, cell.toolStatus].filter(Boolean).join(" · ");
  // Not `disabled`: a disabled button loses the focus, and the reader who pressed
  // Run would be thrown back to the top of the page.  Run does nothing while busy.
  controls.run.setAttribute("aria-disabled", String(cell.busy));
  controls.stop.hidden = !cell.busy;
  controls.edit.hidden = cell.editor !== null;
  controls.reset.hidden = cell.busy || (!cell.edited && cell.shows === "build");
  keepTabStop(controls);
  if (cell.box) {
    const key = cell.stale ? `${cell.shows}-stale` : cell.shows;
    cell.box.label.textContent = OUTPUT_LABELS[key];
    cell.box.element.classList.toggle("runner-stale", cell.shows !== "run" || cell.stale);
  }
  const staleBuild = cell.shows === "build" && cell.stale && cell.buildOutput !== null;
  if (staleBuild && !cell.staleNote) {
    cell.staleNote = element("p", "runner-note runner-stale-note", STALE_BUILD);
    cell.buildOutput.before(cell.staleNote);
  } else if (!staleBuild && cell.staleNote) {
    cell.staleNote.remove();
    cell.staleNote = null;
  }
  if (cell.buildOutput) cell.buildOutput.classList.toggle("runner-stale", staleBuild);
  // The scratch cell's code is always the reader's: only a page cell's is marked.
  const edited = cell.edited && !cell.scratch;
  if (edited && !cell.editedMark) {
    cell.editedMark = element("p", "runner-note runner-edited-mark", EDITED_MARK);
    cell.codeView.before(cell.editedMark);
  } else if (!edited && cell.editedMark) {
    cell.editedMark.remove();
    cell.editedMark = null;
  }
}

// -- changing a cell's state (the only place that does) -----------------------------------------

/** Set what the cell's last Run request is doing or did, with the status line's words. */
export function setState(cell, state, detail = "") {
  if (!(state in STATES)) throw new Error(`runner: no cell state ${state}`);
  cell.state = state;
  cell.detail = detail;
  render(cell);
  if (SETTLED.includes(state)) {
    document.dispatchEvent(new CustomEvent("micrograd:cell-settled", { detail: { cell: cell.index, state } }));
  }
}

/** Mark (or unmark) what the cell shows as out of date. */
export function setStale(cell, stale) {
  if (cell.stale === stale) return;
  cell.stale = stale;
  render(cell);
}

/**
 * The cell's code changed in its editor (the Reset button and the edited mark may be
 * due; the page saves it).  typed: the reader changed it (not a reload, not Reset),
 * and the live region says when the mark comes or goes.
 */
export function codeChanged(cell, { typed = false } = {}) {
  const wasMarked = cell.editedMark !== null;
  render(cell);
  const news = typed ? editedNews(cell.number, wasMarked, cell.editedMark !== null) : null;
  if (news !== null) announce(news);
  document.dispatchEvent(new CustomEvent("micrograd:edit", { detail: { cell: cell.index } }));
}

/**
 * The editor in place of the cell's code.  Opened by the reader's Run or Edit
 * (keepBar), it moves nothing they are at: the page scrolls by what the editor
 * (taller than the code, with its help line) moved the cell's bar, so that the
 * button they pressed stays under their finger, and in view.
 */
export function attachEditor(cell, editor, help, { keepBar = false } = {}) {
  const bar = cell.controls.bar;
  const before = keepBar ? bar.getBoundingClientRect().top : null;
  cell.editor = editor;
  cell.codeView.hidden = true;
  cell.codeView.after(editor.element, help);
  render(cell);
  if (before === null) return;
  const moved = bar.getBoundingClientRect().top - before;
  if (Math.abs(moved) >= 1) window.scrollBy({ top: moved, behavior: "instant" });
}

/** Put the page's code back into the cell's editor, if it has one. */
export function restoreCode(cell) {
  if (cell.editor) cell.editor.value = cell.source;
}

/** An empty output box for a new run: the cell now shows what this run shows. */
export function startOutput(cell) {
  if (!cell.box) cell.box = makeOutputBox(cell);
  cell.box.body.replaceChildren();
  cell.outputs = [];
  cell.shown = [];
  cell.shows = "run";
  cell.stale = false;
  if (cell.buildOutput) showBuildOutput(cell, false);
  render(cell);
  return cell.box.body;
}

/** The element a run's outputs and notes go into (made if the cell has none yet). */
export function outputBody(cell) {
  return cell.box ? cell.box.body : startOutput(cell);
}

/** Record one thing the run showed (outputs.js renders it). */
export function recordOutput(cell, output) {
  cell.outputs.push(output);
}

/**
 * Record what was just put into the cell's output box, as data ({kind, ...}: a
 * stream, a display's bundle, its laid-out HTML, a note...), for a reload to show
 * again by the same function.  at: the index of an item it replaces (a drawing
 * drawn again), or -1.
 */
export function recordShown(cell, item, at = -1) {
  if (at >= 0) cell.shown[at] = item;
  else cell.shown.push(item);
}

function makeOutputBox(cell) {
  const box = { element: element("div", "runner-output"), label: null, body: null, toggle: null };
  const head = element("div", "runner-output-head");
  box.label = element("span", "runner-output-label");
  head.append(box.label);
  if (cell.buildOutput) {
    box.toggle = button("runner-toggle", "", () => showBuildOutput(cell, cell.buildOutput.hidden));
    head.append(box.toggle);
  }
  box.body = element("div", "runner-output-body");
  box.element.append(head, box.body);
  cell.controls.bar.after(box.element);
  return box;
}

function showBuildOutput(cell, shown) {
  cell.buildOutput.hidden = !shown;
  cell.box.toggle.textContent = shown ? "Hide the build's output" : "Show the build's output";
  cell.box.toggle.setAttribute("aria-expanded", String(shown));
}

/** Remove what the cell computed in the browser: the build's output is shown again. */
export function removeOutput(cell) {
  if (cell.box) cell.box.element.remove();
  cell.box = null;
  cell.outputs = [];
  cell.shown = null;
  cell.shows = "build";
  cell.stale = false;
  if (cell.buildOutput) cell.buildOutput.hidden = false;
  render(cell);
}

/** Python ended: what the cell computed came from a session that is gone. */
export function endOfSession(cell) {
  if (cell.shows === "run") {
    cell.shows = "earlier-run";
    render(cell);
  }
}

// -- keeping a cell across a reload (pagestate.js) -----------------------------------------------

/**
 * A run saved before a reload has been shown again in the cell's output box
 * (pagestate.js): it is from a Python session that is gone (the reader's, marked so).
 */
export function restoredRun(cell, { state, detail, stale }) {
  cell.shows = "earlier-run";
  cell.stale = stale;
  cell.state = state;
  cell.detail = detail;
  render(cell);
}

/**
 * The reader's code from an earlier visit, for a cell whose page code has changed
 * since: shown above the cell, with a button that puts it into the editor (takeBack).
 */
export function attachSavedCode(cell, code, takeBack) {
  const note = element("div", "runner-note runner-saved-code",
    "You changed this cell on an earlier visit, and the page's code has changed since. " +
    "Your code was:");
  note.append(element("pre", "", code));
  note.append(button("runner-take-back", `Put your earlier code into ${cell.name}`, () => {
    note.remove();
    takeBack();
  }));
  cell.codeView.before(note);
}

/** Put the page's code and the build's output back, as the page was built (Reset page). */
export function resetCell(cell) {
  restoreCode(cell);
  removeOutput(cell);
  for (const note of cell.el.querySelectorAll(".runner-saved-code")) note.remove();
  setState(cell, "idle", "");
}

// -- the page's voice ---------------------------------------------------------------------------

/** Say what happened through the page's one polite live region (made the first time). */
export function announce(text) {
  let announcer = document.body.querySelector(":scope > .runner-announcer");
  if (announcer === null) {
    announcer = element("div", "runner-announcer");
    announcer.setAttribute("aria-live", "polite");
    announcer.setAttribute("role", "status");
    document.body.append(announcer);
  }
  announcer.textContent = text;
}

/** Scroll to an element (smoothly, unless the reader prefers reduced motion). */
export function bringIntoView(el) {
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  el.scrollIntoView({ behavior: reduced ? "auto" : "smooth", block: "nearest" });
}
