// The cells' UI: each code cell's bar (Run, Stop, Restart, status), its editor,
// and the box under it that holds what the cell computed in the browser (with
// the build's output one click away).  What goes into that box is outputs.js's
// job; when a cell runs is queue.js's.

import { button, element } from "./dom.js";
import { buildOnlyClass, runner } from "./state.js";

const BUILD_ONLY_NOTE =
  "Runs when the site is built, not in your browser (it needs NumPy, matplotlib, " +
  "PyTorch or the build machine): the output is the build's.";
const COMPUTED_HERE = "Computed in your browser";
const COMPUTED_EARLIER = "Computed in your browser, by an earlier Python session";

/**
 * Find the page's code cells and give each runnable one its bar; build-only
 * cells get a note instead.  actions: {run(cell), stop(), restart()}.
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
      filename: `<cell ${number}>`,
      source: pre.textContent.replace(/\n$/, ""),
      code,
      buildOutput: el.querySelector("div.cell_output"),
      editor: null,
      output: null,
      outputs: [],
      ranIn: -1,
      state: "",
    };
    input.after(makeBar(cell, actions));
    runner.cells.push(cell);
  }
}

function makeBar(cell, actions) {
  const bar = element("div", "runner-bar");
  cell.runButton = button("runner-run", "▶ Run", () => actions.run(cell));
  cell.runButton.title =
    "Run this cell (and the cells above it that have not run) in your browser";
  cell.stopButton = button("runner-stop", "■ Stop", () => actions.stop());
  cell.stopButton.title = "Stop: ends this page's Python and starts a fresh one";
  cell.stopButton.hidden = true;
  const restartButton = button("runner-restart", "↻ Restart", () => actions.restart());
  restartButton.title = "Restart this page's Python: every variable is forgotten";
  cell.status = element("span", "runner-status");
  cell.status.setAttribute("role", "status");
  bar.append(cell.runButton, cell.stopButton, restartButton, cell.status);
  cell.bar = bar;
  return bar;
}

/** The code the cell runs: the editor's, once it has one, else the page's. */
export function sourceOf(cell) {
  return cell.editor ? cell.editor.value : cell.source;
}

/** Replace the cell's highlighted code by an editor holding it (once). */
export function makeEditable(cell, run) {
  if (cell.editor) return;
  const editor = element("textarea", "runner-editor");
  editor.value = cell.source;
  editor.spellcheck = false;
  editor.setAttribute("aria-label", "Code of this cell (editable; Shift+Enter runs it)");
  editor.rows = Math.max(1, cell.source.split("\n").length);
  editor.addEventListener("input", () => {
    editor.rows = Math.max(1, editor.value.split("\n").length);
  });
  editor.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.shiftKey || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      run(cell);
    }
  });
  cell.code.hidden = true;
  cell.code.after(editor);
  cell.editor = editor;
}

const BUSY = ["queued", "starting", "running"];
const STOPPABLE = ["starting", "running"];

/** cell.state: "" (not run), queued, starting, running, ok, error, skipped, stopped, crashed */
export function setStatus(cell, text, state = "") {
  cell.state = state;
  cell.el.dataset.runnerState = state;
  cell.status.textContent = text;
  cell.runButton.disabled = BUSY.includes(state);
  cell.stopButton.hidden = !STOPPABLE.includes(state);
}

/** The cell's output box, emptied for a new run (made on first use). */
export function freshOutput(cell) {
  if (!cell.output) makeOutput(cell);
  cell.output.classList.remove("runner-stale");
  cell.head.firstChild.textContent = COMPUTED_HERE;
  cell.output.body.replaceChildren();
  cell.outputs = [];
  if (cell.buildOutput) showBuildOutput(cell, false);
  return cell.output;
}

function makeOutput(cell) {
  const output = element("div", "runner-output");
  output.setAttribute("aria-live", "polite");
  const head = element("div", "runner-output-head");
  head.append(element("span", "", COMPUTED_HERE));
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
  cell.head = head;
  output.body = body;
}

function showBuildOutput(cell, shown) {
  cell.buildOutput.hidden = !shown;
  cell.toggle.textContent = shown ? "Hide the build's output" : "Show the build's output";
}

/** Grey out what the cell computed: it came from a Python session that has ended. */
export function markFromEarlierSession(cell) {
  if (!cell.output) return;
  cell.output.classList.add("runner-stale");
  cell.head.firstChild.textContent = COMPUTED_EARLIER;
}

/** A fresh output box holding one note (stopped, crashed); returns the note. */
export function showNote(cell, className, text) {
  const note = element("div", `runner-note ${className}`, text);
  freshOutput(cell).body.append(note);
  return note;
}
