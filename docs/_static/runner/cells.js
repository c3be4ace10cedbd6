// The page's code cells, as the reader sees them: one Cell object per runnable
// cell, its state as data and render(), the one function that draws it; the
// scratch cell; the page's live region; the elements the runner makes (its
// buttons' signs are drawings); the words of an edited cell's mark; and every
// cell's Copy and Copy as a script.  Loaded with the page.

// -- making the runner's elements -----------------------------------------------------------------
// Small helpers for making the runner's elements.

const SVG = "http://www.w3.org/2000/svg";

export function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A sign (ICONS, below) as an inline SVG, hidden from screen readers. */
export function icon(name) {
  const { svg, shapes } = iconParts(name);
  const drawing = document.createElementNS(SVG, "svg");
  for (const [key, value] of Object.entries(svg)) drawing.setAttribute(key, value);
  for (const shape of shapes) {
    const path = document.createElementNS(SVG, "path");
    for (const [key, value] of Object.entries(shape)) path.setAttribute(key, value);
    drawing.append(path);
  }
  return drawing;
}

/** A button showing label, after the sign named iconName (ICONS) if there is one. */
export function button(className, label, onClick, iconName = null) {
  const b = element("button", `runner-button ${className}`, label);
  if (iconName !== null) b.prepend(icon(iconName));
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

// -- the signs on the buttons ---------------------------------------------------------------------
// The signs on the runner's buttons, as drawings: a font glyph ("⧉", "↻") shows as
// an empty box where the reader's font lacks it, a drawing shows everywhere.  Each
// sign is data (shapes on a 24-unit grid, in the text's colour); icon() draws it as
// an inline SVG beside the button's words, hidden from screen readers, so that a
// button's name stays its words (or its aria-label).

/** Each sign: its shapes, each a path `d`, drawn as a line, or filled (`filled`). */
export const ICONS = Object.freeze({
  run: Object.freeze([Object.freeze({ d: "M7 4.5 L19 12 L7 19.5 Z", filled: true })]),
  edit: Object.freeze([
    Object.freeze({ d: "M15.5 4.5 L19.5 8.5 L9 19 L4.5 19.5 L5 15 Z" }),
    Object.freeze({ d: "M13 7 L17 11" }),
  ]),
  stop: Object.freeze([Object.freeze({ d: "M6 6 H18 V18 H6 Z", filled: true })]),
  // An arrow round a circle, anticlockwise: back to how it was.
  reset: Object.freeze([
    Object.freeze({ d: "M4 12 A8 8 0 1 0 6.34 6.34" }),
    Object.freeze({ d: "M6.34 1.84 V6.34 H10.84" }),
  ]),
  // The same arrow clockwise: start again.
  restart: Object.freeze([
    Object.freeze({ d: "M20 12 A8 8 0 1 1 17.66 6.34" }),
    Object.freeze({ d: "M17.66 1.84 V6.34 H13.16" }),
  ]),
  // Two sheets, one over the other.
  copy: Object.freeze([
    Object.freeze({ d: "M9 9 H20 V20 H9 Z" }),
    Object.freeze({ d: "M5 15 V4 H15" }),
  ]),
  check: Object.freeze([Object.freeze({ d: "M4.5 12.5 L9.5 17.5 L19.5 6.5" })]),
});

/** The SVG attributes of a sign's drawing (the <svg>) and of each of its shapes. */
export function iconParts(name) {
  const shapes = ICONS[name];
  if (!shapes) throw new Error(`no icon named ${JSON.stringify(name)}`);
  return {
    svg: {
      class: `runner-icon runner-icon-${name}`,
      viewBox: "0 0 24 24",
      width: "16",
      height: "16",
      "aria-hidden": "true",
      focusable: "false",
    },
    shapes: shapes.map(({ d, filled }) => (filled
      ? { d, fill: "currentColor", stroke: "none" }
      : {
        d,
        fill: "none",
        stroke: "currentColor",
        "stroke-width": "2",
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
      })),
  };
}

// -- setting up what nears the viewport ----------------------------------------------------------
// A page loads with only what its first screen needs: a cell's bar, a prompt's form
// or a stepper's Predict switch is made when its element nears the viewport
// (IntersectionObserver, a screen ahead), or when the browser is idle after the
// load (the rest of the page, a part at a time: a screen reader lists a page's
// buttons without scrolling it), or at once when something needs the whole page:
// the first Run (its queue may run any cell), the first Tab (the keyboard's order
// is the page's), printing.  A part is set up once; what it shows
// follows from the session's state, which exists before it (render draws it).
// What waits is the session's (session.lazy: the observer, each element's set-ups
// in page order, the idle callback asked for); the first screen's set-up counts in
// records.timings.setUpMilliseconds with the runner's start.

/** How near the viewport a part is set up: a screen above or below it. */
const NEAR = "100% 0px";
/** What the browser is asked to spend on the rest at most, in one idle period (ms). */
const IDLE_SLICE_MS = 8;
/** How long the rest may wait for the browser to be idle (ms). */
const IDLE_WAIT_MS = 2000;

/**
 * Run setUp() once `el` nears the viewport (or the page is idle, or needs every part).
 * Where the browser has no IntersectionObserver, now.
 */
export function whenNear(session, el, setUp) {
  const { lazy } = session;
  if (typeof IntersectionObserver !== "function") {
    setUp();
    return;
  }
  if (lazy.observer === null) {
    lazy.observer = new IntersectionObserver((entries) => near(session, entries), { rootMargin: NEAR });
    listenForTheWholePage(session);
  }
  const waiting = lazy.waiting.get(el);
  if (waiting) waiting.push(setUp);
  else {
    lazy.waiting.set(el, [setUp]);
    lazy.observer.observe(el);
  }
  whenIdle(session);
}

/** Set up what waits for `el` now (a reader's action needs it). */
export function setUpNow(session, el) {
  const setUps = session.lazy.waiting.get(el);
  if (!setUps) return;
  session.lazy.waiting.delete(el);
  session.lazy.observer.unobserve(el);
  for (const setUp of setUps) setUp();
}

/** Set up every part of the page that waits, now. */
export function setUpAll(session) {
  for (const el of [...session.lazy.waiting.keys()]) setUpNow(session, el);
}

function near(session, entries) {
  const started = performance.now();
  const shown = entries.filter((entry) => entry.isIntersecting);
  for (const entry of shown) setUpNow(session, entry.target);
  const { lazy } = session;
  if (lazy.firstScreen) {
    lazy.firstScreen = false;
    const { timings } = session.records;
    timings.setUpMilliseconds += performance.now() - started;
    timings.firstScreen = { parts: shown.length, waiting: lazy.waiting.size };
  }
}

function whenIdle(session) {
  const { lazy } = session;
  if (lazy.idle !== null) return;
  const setUpSome = (deadline) => {
    lazy.idle = null;
    const until = performance.now() + Math.min(IDLE_SLICE_MS, deadline ? deadline.timeRemaining() : 0);
    for (const el of lazy.waiting.keys()) {
      setUpNow(session, el);
      if (performance.now() >= until) break;
    }
    if (lazy.waiting.size > 0) whenIdle(session);
  };
  lazy.idle = typeof window.requestIdleCallback === "function"
    ? window.requestIdleCallback(setUpSome, { timeout: IDLE_WAIT_MS })
    : setTimeout(setUpSome, 0);
}

/** The first Tab and printing need every part of the page. */
function listenForTheWholePage(session) {
  const tab = (event) => {
    if (event.key !== "Tab") return;
    document.removeEventListener("keydown", tab, true);
    setUpAll(session);
  };
  document.addEventListener("keydown", tab, true);
  window.addEventListener("beforeprint", () => setUpAll(session));
}

// -- the cells ------------------------------------------------------------------------------------
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
//           changed what it was computed from: queue.js decides).
// Every label, mark and button on the cell follows from these by render(); no
// module decides anything from a label's text.  Each code cell gets a bar (Run,
// Edit, Stop, Reset, Restart and a status line), and, once it runs, an output
// box under it, with the build's output one click away.  Build-only cells get a
// one-line note instead, and a bar of their own for the add-ons' tools (copy).
// Every control is a real button named for what it does to which cell ("Run cell 3").
// After the page's last cell, the scratch cell ("Try your own code"): a Cell of the
// reader's, empty at first, in no manifest, which runs after the page's cells (queue.js).

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
/** The states a Run ends in (outputs.js: the micrograd:cell-settled event). */
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
  constructor({
    el, input, index, number, source, codeView, buildOutput, scratch = false,
  }) {
    this.el = el; // the page's div.cell
    this.input = input; // its code's element: the bar goes after it
    this.index = index; // among the runnable cells, in page order (null: the scratch cell)
    this.number = number; // among the page's shown code cells: "cell 3"
    this.scratch = scratch; // the reader's own cell after the page's ("Try your own code")
    this.name = scratch ? "the scratch cell" : `cell ${number}`;
    this.label = scratch ? "Scratch cell" : `Cell ${number}`; // its bar's
    this.filename = scratch ? "<scratch>" : `<cell ${number}>`; // in tracebacks
    this.source = source; // the page's code
    this.codeView = codeView; // the highlighted code, hidden once the editor opens
    this.buildOutput = buildOutput; // the build's output element, or null
    this.entry = null; // its entry in the page's flow (queue.js)
    this.editor = null; // {element, view, value, focus()} once opened (editor.js)
    // Where a Run held its bar (the window's y) while that run lasts (attachEditor, releaseBar).
    this.heldAt = null;
    this.state = "idle";
    this.detail = ""; // the status line's words for the state
    this.shows = "build";
    this.stale = false;
    this.outputs = []; // what the run showed: {kind: "stream" | "display", ...}
    // What its output box shows, item by item, as data (pagestate.js's SHOWN_KINDS):
    // what a reload shows again, through the same renderers; null while it has none.
    this.shown = null;
    this.controls = null; // {bar, run, edit, stop, reset, status}, once its bar is made
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
 * Find the page's code cells (under session.root), as data, and give each runnable
 * one its bar once it nears the viewport (whenNear, below); build-only cells get a
 * note and a bar of their own the same way.  actions: {run, edit, stop, reset,
 * restart}, each taking the cell (restart: none).
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
      const cell = buildOnlyCell(el, number, pre, input);
      if (pre) buildOnlyCells.push(cell);
      whenNear(session, el, () => makeBuildOnlyBar(session, cell));
      continue;
    }
    if (!codeView || !pre) continue;
    const cell = new Cell({
      el,
      input,
      index: cells.length,
      number,
      source: pre.textContent.replace(/\n$/, ""),
      codeView,
      buildOutput: el.querySelector("div.cell_output"),
    });
    // Each runnable cell carries its state from the load, bar or not (the browser
    // tests find the runnable cells by it); render() keeps it.
    el.dataset.runnerState = cell.state;
    cells.push(cell);
    // The bar's room, kept from the load: the page below does not move when it comes.
    input.after(element("div", "runner-bar-room"));
    whenNear(session, el, () => makeCellBar(session, cell, actions));
  }
  if (cells.length > 0) setUpScratch(session, article, actions);
  return cells;
}

/**
 * Give a runnable cell its bar (Run, Edit, ..., and a page cell's add-ons' tools), and
 * draw its state.
 */
function makeCellBar(session, cell, actions) {
  cell.controls = makeBar(cell, actions);
  const room = cell.input.nextElementSibling;
  if (room && room.classList.contains("runner-bar-room")) room.replaceWith(cell.controls.bar);
  else cell.input.after(cell.controls.bar);
  if (!cell.scratch) addTools(session, cell);
  render(cell);
}

/** Give a build-only cell its note, and a bar that holds only the add-ons' tools. */
function makeBuildOnlyBar(session, cell) {
  cell.input.after(element("p", "runner-note runner-build-only", BUILD_ONLY_NOTE));
  if (cell.source === null) return;
  const controls = { bar: element("div", "runner-bar"), status: element("span", "runner-status") };
  controls.bar.append(controls.status);
  makeToolbar(controls.bar, `Cell ${cell.number}`, null);
  cell.input.after(controls.bar);
  cell.controls = controls;
  addTools(session, cell, { buildOnly: true });
  if (cell.noteWords !== null) setBuildOnlyNote(cell, cell.noteWords);
}

const SCRATCH_TITLE = "Try your own code";
const SCRATCH_LEAD =
  "Runs in this page's Python, after the page's cells (Run runs them first if they have " +
  "not run).";
// Which names the reader's code can use: the kernel's rule (kernel.py, NAMESPACE and BEHIND).
const SCRATCH_NAMES =
  "It sees the names of the cells shown above, as the last of them left them (a later " +
  "cell can give a name a new value): not those of the solutions or of the page's hidden cells.";
// The same, in one line: the book's first scratch cell says it in full (the build decides
// which: the manifest's teachScratch), the same words on every page would be boilerplate.
const SCRATCH_BRIEF = "Runs after this page's cells, and sees the names of the cells shown above.";

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
  const teach = Boolean(session.manifest.teachScratch);
  region.append(heading);
  if (teach) region.append(element("p", "runner-scratch-lead", SCRATCH_LEAD));
  region.append(element("p", "runner-scratch-names", teach ? SCRATCH_NAMES : SCRATCH_BRIEF), el);
  article.append(region);
  const scratch = new Cell({
    el, input, index: null, number: null, source: "", codeView, buildOutput: null, scratch: true,
  });
  session.scratch = scratch;
  whenNear(session, el, () => makeCellBar(session, scratch, actions));
}

/**
 * A build-only cell, as data: its code (source null: it shows none), and, once made,
 * its bar (controls) and its out-of-date note (noteWords: what the note says, or null).
 */
function buildOnlyCell(el, number, pre, input) {
  const source = pre ? pre.textContent.replace(/\n$/, "") : null;
  const position = Number.parseInt(el.getAttribute("data-micrograd-cell"), 10);
  return {
    el,
    input,
    number,
    name: `cell ${number}`,
    source,
    code: source,
    edited: false,
    controls: null,
    position,
    note: null,
    noteWords: null,
  };
}

/**
 * Say (words) or stop saying (null) that a build-only cell's output is out of date:
 * the build's, from cells the reader has changed since.
 */
export function setBuildOnlyNote(cell, words) {
  cell.noteWords = words;
  if (cell.controls === null) return; // drawn when its bar is made
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
  const controls = {
    bar: element("div", "runner-bar"),
    run: button("runner-run", "Run", () => actions.run(cell), "run"),
    edit: button("runner-edit", "Edit", () => actions.edit(cell), "edit"),
    stop: button("runner-stop", "Stop", () => actions.stop(cell), "stop"),
    reset: button("runner-reset", "Reset", () => actions.reset(cell), "reset"),
    restart: button("runner-restart", "Restart", () => actions.restart(), "restart"),
    status: element("span", "runner-status"),
  };
  // Each button's name (what it does to which cell) and its tooltip.
  const named = {
    run: [`Run ${cell.name}`, cell.scratch
      ? "Run your code in your browser, after the page's cells (Shift+Enter)"
      : "Run this cell in your browser, after the cells above it that it needs (Shift+Enter)"],
    edit: [`Edit ${cell.name}`, "Change this cell's code, then run it"],
    stop: [`Stop ${cell.name}`,
      "Stop: a running cell ends this page's Python (a fresh one starts); a waiting cell stays unrun"],
    reset: cell.scratch ? ["Reset the scratch cell: empty again", "Empty the scratch cell: no code, no output"]
      : [`Reset ${cell.name} to the page's code and the build's output`,
        "Put back the page's code and the build's output"],
    restart: ["Restart this page's Python", "Restart this page's Python: every variable is forgotten"],
  };
  for (const [key, [label, title]] of Object.entries(named)) {
    controls[key].setAttribute("aria-label", label);
    controls[key].title = title;
  }
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
 * It is called when a cell's bar is made (now, for the bars made already), each
 * tool in the order they were added.  With buildOnly, the build-only cells' bars
 * get one too (make gets {el, number, name, source, code, edited, controls}).  The
 * bar stays one Tab stop: the arrow keys reach the new button too (on a build-only
 * cell's bar, the first tool is it).
 */
export function addToolToEveryCell(session, make, { buildOnly = false } = {}) {
  const tool = { make, buildOnly };
  session.tools.push(tool);
  const { cells, buildOnlyCells } = session;
  for (const cell of buildOnly ? [...cells, ...buildOnlyCells] : cells) {
    if (cell.controls !== null) addTool(cell, tool);
  }
}

function addTool(cell, { make }) {
  const made = make(cell);
  if (made === null) return;
  made.tabIndex = cell.controls.bar.querySelector("button[tabindex='0']") ? -1 : 0;
  cell.controls.status.before(made);
}

/** The add-ons' tools on a bar just made (buildOnly: a build-only cell's). */
function addTools(session, cell, { buildOnly = false } = {}) {
  for (const tool of session.tools) if (tool.buildOnly || !buildOnly) addTool(cell, tool);
}

/** Say what an add-on's tool did in the cell's status line, after its state ("" to stop). */
export function setToolStatus(cell, text) {
  cell.toolStatus = text;
  if (cell instanceof Cell) render(cell);
  else if (cell.controls !== null) cell.controls.status.textContent = text;
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

/**
 * Draw the cell's state: its status line, its buttons, its output's label and marks.
 * A cell whose bar is not made yet shows only its state's name (the rest is drawn
 * when its bar is made).
 */
export function render(cell) {
  const { controls } = cell;
  cell.el.dataset.runnerState = cell.state;
  if (controls === null) return;
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
  cell.heldAt = before;
}

/**
 * The run that a Run held the bar for has ended.  Whole pixels of scrolling leave a
 * fraction of the editor's height, and the browser's own holding of the view, as what
 * the run redraws above (a cell it needed) grows, leaves more: where the reader is still
 * at the cell (the focus in it) and the bar has crept by a pixel or a few, it goes back.
 * A larger move is the reader's own scrolling, which stays.
 */
export function releaseBar(cell) {
  const held = cell.heldAt;
  cell.heldAt = null;
  if (held === null || cell.controls === null || !cell.el.contains(document.activeElement)) return;
  const crept = cell.controls.bar.getBoundingClientRect().top - held;
  if (Math.abs(crept) >= 1 && Math.abs(crept) <= 4) window.scrollBy({ top: crept, behavior: "instant" });
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

/** Record one thing the run showed (renderers.js renders it). */
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

/**
 * Run the cell (and what it needs) with actions.run; resolves with the state its Run
 * ends in (micrograd:cell-settled's), or "stopped" when the page's Python ends first.
 */
export function runToTheEnd(cell, actions) {
  actions.run(cell);
  // Listening starts after run(): a Run after a crash first ends that Python (a restart).
  return new Promise((resolve) => {
    const settled = (event) => {
      if (event.detail.cell === cell.index) finish(event.detail.state);
    };
    const ended = () => finish("stopped"); // Restart or Reset page before the cell ran
    function finish(state) {
      document.removeEventListener("micrograd:cell-settled", settled);
      document.removeEventListener("micrograd:restart", ended);
      resolve(state);
    }
    document.addEventListener("micrograd:cell-settled", settled);
    document.addEventListener("micrograd:restart", ended);
  });
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

// -- the mark on the reader's code --------------------------------------------------------------

/**
 * The mark on the code of a cell the reader has edited: the same words while
 * they edit and run it and after a reload brings their code back.
 */
export const EDITED_MARK = "Edited: your code, not the page's.";

/** Cells' numbers as a sentence lists them: "3", "2 and 3", "1, 2 and 3". */
export const listed = (numbers) => (numbers.length === 1 ? `${numbers[0]}`
  : `${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`);

/** What the live region says of the cells (their numbers) whose code is the reader's. */
export function editedText(numbers) {
  if (numbers.length === 0) return "";
  const one = numbers.length === 1;
  return `${one ? "Cell" : "Cells"} ${listed(numbers)} ${one ? "is" : "are"} edited: your code, not the page's.`;
}

/**
 * What the live region says when the reader's typing marks cell `number` as
 * edited, or takes the mark off (null: the mark stays as it was).
 */
export function editedNews(number, wasEdited, isEdited) {
  if (wasEdited === isEdited) return null;
  return isEdited ? editedText([number]) : `Cell ${number} is the page's code again.`;
}

// -- copying a cell, or a cell as a script --------------------------------------------------------
// The copy actions of every code cell's bar: "Copy" copies the cell's code as the
// cell holds it now; "Copy as a script" copies the cell together with what it
// needs from the cells above, as one script that runs by itself in a fresh Python
// (docs/_static/runner/snippets.py assembles it).  While the reader has edited
// nothing on the page, that is the build's script, from the page's manifest (the
// same text as the cell's download, _sources/<page>/cell-<n>.py): copying needs
// neither Python nor a connection.  Once the reader has edited the page, the
// script is their version, assembled by the same snippets.py in the page's
// Python (queue.js; Python starts if it is not running, and the status says so).
// Build-only cells get both actions too.  Loaded with the page (runner.js).

/** How long a copy's word stays in the status line. */
const SAID_FOR_MS = 4000;

/**
 * Give every cell's bar its copy actions.  hooks.readerScript(code, {starting}) makes
 * the script of the reader's version of the page's code cell `code` (queue.js,
 * loaded on demand); it calls starting() when Python must start first.
 */
export function setUpCopy(session, { readerScript }) {
  const entries = session.manifest.cells;
  addToolToEveryCell(session, (cell) => copyButton(
    "runner-copy",
    ["Copy", ` ${cell.name}`, ""],
    "Copy this cell's code",
    () => copy(cell, cell.code, ""),
  ), { buildOnly: true });
  addToolToEveryCell(session, (cell) => {
    const entry = entryOf(entries, cell);
    if (entry === null) return null; // a page built without scripts
    return copyButton(
      "runner-copy-script",
      ["Copy", ` ${cell.name}`, " as a script"],
      "Copy this cell with what it needs from the cells above: a script that runs by itself",
      () => copyScript(session, cell, entry, readerScript),
    );
  }, { buildOnly: true });
}

/**
 * A button that shows the copy sign and "Copy as a script" and is named "Copy cell 3 as a
 * script": the name is its text (the cell, for screen readers only; the sign, a drawing,
 * for eyes only), so that what it shows is part of what it is called.  words: [shown,
 * read only, shown].
 */
function copyButton(className, [before, readOnly, after], title, onClick) {
  const b = button(className, "", onClick, "copy");
  b.append(before, element("span", "runner-read-only", readOnly), after);
  b.title = title;
  return b;
}

/** The cell's manifest entry (the build wrote its position on the cell), if it has a script. */
function entryOf(entries, cell) {
  const code = Number.parseInt(cell.el.getAttribute("data-micrograd-cell"), 10);
  const entry = entries[code];
  return entry && typeof entry.script === "string" ? { ...entry, code } : null;
}

const edited = (session) => session.cells.some((cell) => cell.edited);

function copyScript(session, cell, entry, readerScript) {
  if (!edited(session)) return copy(cell, entry.script, " as a script");
  setToolStatus(cell, "putting your version into a script…");
  const starting = () => setToolStatus(cell, "starting Python to put your version into a script…");
  return copy(cell, readerScript(entry.code, { starting }), " as a script");
}

/** Put text (or what a promise of it gives) on the clipboard, and say so. */
async function copy(cell, text, how) {
  try {
    await write(text);
  } catch (error) {
    say(cell, `not copied: ${(error && error.message) || error}`);
    return;
  }
  say(cell, `copied${how}`);
}

function say(cell, words) {
  setToolStatus(cell, words);
  announce(`${cell.name}: ${words}`);
  setTimeout(() => {
    if (cell.toolStatus === words) setToolStatus(cell, "");
  }, SAID_FOR_MS);
}

/**
 * Write to the clipboard.  Text still to come goes in as a ClipboardItem holding the
 * promise, so that the click's permission to write holds (Safari's rule); where the
 * browser refuses that, the text is written once it is there.
 */
async function write(text) {
  if (typeof text === "string") return navigator.clipboard.writeText(text);
  if (window.ClipboardItem && navigator.clipboard.write) {
    const blob = text.then((t) => new Blob([t], { type: "text/plain" }));
    try {
      return await navigator.clipboard.write([new window.ClipboardItem({ "text/plain": blob })]);
    } catch {
      // fall through: write the text itself once it is there
    }
  }
  return navigator.clipboard.writeText(await text);
}
