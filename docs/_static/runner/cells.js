// The cells' UI: each code cell's bar (Run, Edit, Stop, Reset, Restart and a
// status), its editor, the box under it that holds what the cell computed in
// the browser (with the build's output one click away), the marks on outputs
// that a run has made stale, and the page's one live region, which announces
// what happens to the cells.  What goes into the output box is outputs.js's
// job; when a cell runs is queue.js's.  Every control is a real button with a
// name that says what it does to which cell ("Run cell 3").

import { button, element } from "./dom.js";
import { buildOnlyClass, runner } from "./state.js";

const BUILD_ONLY_NOTE =
  "Runs when the site is built, not in your browser (it needs NumPy, matplotlib, " +
  "PyTorch or the build machine): the output is the build's.";
const COMPUTED_HERE = "Computed in your browser";
const COMPUTED_EARLIER = "Computed in your browser, by an earlier Python session";
const STALE_RUN = "From an earlier run: run this cell to update it";
const STALE_BUILD = "From the build: run this cell to update it";

/**
 * Find the page's code cells and give each runnable one its bar; build-only
 * cells get a note instead.  actions: {run, edit, stop, reset, restart}, each
 * taking the cell (restart: none).
 */
export function setUpCells(actions) {
  const article = document.querySelector("article.bd-article") || document.body;
  let number = 0;
  for (const el of article.querySelectorAll("div.cell")) {
    const input = el.querySelector("div.cell_input");
    if (!input) continue;
    number += 1;
    if (el.classList.contains(buildOnlyClass)) {
      input.after(element("p", "runner-note runner-build-only", BUILD_ONLY_NOTE));
      continue;
    }
    const code = input.querySelector("div.highlight") || input.querySelector("pre");
    const pre = input.querySelector("pre");
    if (!code || !pre) continue;
    const cell = {
      el,
      index: runner.cells.length,
      number,
      name: `cell ${number}`,
      filename: `<cell ${number}>`,
      source: pre.textContent.replace(/\n$/, ""),
      code,
      buildOutput: el.querySelector("div.cell_output"),
      editor: null,
      output: null,
      outputs: [],
      state: "",
    };
    input.after(makeBar(cell, actions));
    runner.cells.push(cell);
  }
}

function makeBar(cell, actions) {
  const bar = element("div", "runner-bar");
  const named = (b, label, title) => {
    b.setAttribute("aria-label", label);
    b.title = title;
    return b;
  };
  cell.runButton = named(
    button("runner-run", "▶ Run", () => actions.run(cell)),
    `Run ${cell.name}`,
    "Run this cell in your browser, after the cells above it that it needs (Shift+Enter)",
  );
  cell.editButton = named(
    button("runner-edit", "✎ Edit", () => actions.edit(cell)),
    `Edit ${cell.name}`,
    "Change this cell's code, then run it",
  );
  cell.stopButton = named(
    button("runner-stop", "■ Stop", () => actions.stop(cell)),
    `Stop ${cell.name}`,
    "Stop: a running cell ends this page's Python (a fresh one starts); a waiting cell stays unrun",
  );
  cell.resetButton = named(
    button("runner-reset", "↺ Reset", () => actions.reset(cell)),
    `Reset ${cell.name} to the page's code and the build's output`,
    "Put back the page's code and the build's output",
  );
  const restartButton = named(
    button("runner-restart", "↻ Restart", () => actions.restart()),
    "Restart this page's Python",
    "Restart this page's Python: every variable is forgotten",
  );
  cell.stopButton.hidden = true;
  cell.resetButton.hidden = true;
  cell.status = element("span", "runner-status");
  bar.append(
    cell.runButton, cell.editButton, cell.stopButton, cell.resetButton, restartButton, cell.status,
  );
  cell.bar = bar;
  return bar;
}

/** The code the cell runs: the editor's, once it has one, else the page's. */
export function sourceOf(cell) {
  return cell.editor ? cell.editor.value : cell.source;
}

const BUSY = ["queued", "starting", "waiting", "running"];

/**
 * cell.state: "" (not run), queued, starting, waiting (for the reader's answer),
 * running, ok, error, skipped, stopped, crashed.
 */
export function setStatus(cell, text, state = "") {
  cell.state = state;
  cell.el.dataset.runnerState = state;
  cell.status.textContent = text;
  cell.runButton.disabled = BUSY.includes(state);
  cell.stopButton.hidden = !BUSY.includes(state);
  refreshReset(cell);
}

/** Reset is offered once the cell's code or output is no longer the page's. */
export function refreshReset(cell) {
  const changed = sourceOf(cell) !== cell.source || cell.output !== null;
  cell.resetButton.hidden = !changed || BUSY.includes(cell.state);
}

/** The cell's output box, emptied for a new run (made on first use). */
export function freshOutput(cell) {
  if (!cell.output) makeOutput(cell);
  setOutputHead(cell, COMPUTED_HERE, false);
  cell.output.body.replaceChildren();
  cell.outputs = [];
  if (cell.buildOutput) showBuildOutput(cell, false);
  markBuildOutputStale(cell, false);
  return cell.output;
}

function makeOutput(cell) {
  const output = element("div", "runner-output");
  const head = element("div", "runner-output-head");
  head.append(element("span", "runner-output-label", COMPUTED_HERE));
  if (cell.buildOutput) {
    cell.toggle = button("runner-toggle", "", () =>
      showBuildOutput(cell, cell.buildOutput.hidden),
    );
    head.append(cell.toggle);
  }
  const body = element("div", "runner-output-body");
  output.append(head, body);
  cell.bar.after(output);
  cell.output = output;
  output.body = body;
  refreshReset(cell);
}

function setOutputHead(cell, text, dimmed) {
  cell.output.querySelector(".runner-output-label").textContent = text;
  cell.output.classList.toggle("runner-stale", dimmed);
}

function showBuildOutput(cell, shown) {
  cell.buildOutput.hidden = !shown;
  cell.toggle.textContent = shown ? "Hide the build's output" : "Show the build's output";
  cell.toggle.setAttribute("aria-expanded", String(shown));
}

/** Remove what the cell computed in the browser: the build's output is shown again. */
export function removeOutput(cell) {
  if (cell.output) cell.output.remove();
  cell.output = null;
  cell.outputs = [];
  if (cell.buildOutput) cell.buildOutput.hidden = false;
}

/** Grey out what the cell computed: it came from a Python session that has ended. */
export function markFromEarlierSession(cell) {
  if (cell.output) setOutputHead(cell, COMPUTED_EARLIER, true);
}

/**
 * Mark (or unmark) the cell's shown output as stale: a run has changed what it
 * was computed from.  Returns whether the mark changed.
 */
export function markStale(cell, stale) {
  if (!cell.output) return markBuildOutputStale(cell, stale);
  const label = cell.output.querySelector(".runner-output-label");
  if (label.textContent === COMPUTED_EARLIER) return false;
  const was = label.textContent === STALE_RUN;
  if (was !== stale) setOutputHead(cell, stale ? STALE_RUN : COMPUTED_HERE, stale);
  return was !== stale;
}

function markBuildOutputStale(cell, stale) {
  const was = Boolean(cell.staleNote);
  if (stale && !cell.staleNote && cell.buildOutput) {
    cell.staleNote = element("p", "runner-note runner-stale-note", STALE_BUILD);
    cell.buildOutput.before(cell.staleNote);
    cell.buildOutput.classList.add("runner-stale");
  } else if (!stale && cell.staleNote) {
    cell.staleNote.remove();
    cell.staleNote = null;
    cell.buildOutput.classList.remove("runner-stale");
  }
  return was !== Boolean(cell.staleNote);
}

/** A note in the cell's output box, under what it shows (stopped, crashed, a re-run). */
export function addNote(cell, className, text, { first = false } = {}) {
  if (!cell.output) freshOutput(cell);
  const note = element("div", `runner-note ${className}`, text);
  if (first) cell.output.body.prepend(note);
  else cell.output.body.append(note);
  return note;
}

let announcer = null;

/** Say what happened through the page's one polite live region. */
export function announce(text) {
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
