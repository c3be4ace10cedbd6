// Run and edit the page's code cells in the reader's browser: the entry point.
//
// Each code cell gets a Run button.  Nothing is fetched until the first
// click, which starts one worker for the page (worker.js: Pyodide and the
// micrograd wheel the site was built from, all from this site).  Run makes
// the cell editable and runs, in order, the cells above it that have not run
// yet, then the cell itself; all of them share the page's variables.  The
// output appears under the cell, marked as computed in the browser; the
// build's output stays one click away.  Stop (while a cell runs) and Restart
// end the worker and start a fresh one.  Cells tagged build-only keep their
// build-time output and get a one-line note instead.
//
// The parts, one job each (ES modules, no build step; only runner.js, state.js,
// dom.js and cells.js load with the page, the rest at the first Run):
//   api.js      the extension API for add-on modules (output renderers,
//               worker message types, the micrograd:* events on document)
//   state.js    the page's settings and window.microgradRunner
//   session.js  the worker's lifecycle: start, end (Stop, Restart, crash)
//   queue.js    the run queue: which cells run, in what order, and what a
//               raise, a Stop or a crash does to it
//   cells.js    the cells' UI: bar, buttons, status, editor, output box
//   outputs.js  output rendering (and the built-in renderers)
//   worker.js, layouts.js, kernel.py   the worker side: Pyodide, the
//               post-cell layout steps (DOT, Markdown), the Python kernel
//
// window.microgradRunner exposes the cells, their outputs and the timings
// (for the browser tests and for the curious).

import { setUpCells } from "./cells.js";
import { now, runner } from "./state.js";

// What the first Run loads (a page nobody runs loads none of it): the run queue,
// with the worker's lifecycle and output rendering, and the add-on modules,
// which register through api.js.  Add-on modules are listed here.
const RUN_MODULES = ["./queue.js"];

let loading = null;
function machinery() {
  if (loading === null) {
    loading = Promise.all(RUN_MODULES.map((url) => import(url))).then(([queue]) => queue);
  }
  return loading;
}

const actions = {
  run(cell) {
    if (runner.timings.clicked === null) runner.timings.clicked = now();
    machinery().then((queue) => queue.run(cell));
  },
  stop: () => machinery().then((queue) => queue.restart()),
  restart: () => machinery().then((queue) => queue.restart()),
};

function setUp() {
  const started = now();
  setUpCells(actions);
  runner.outputsOf = (index) => runner.cells[index].outputs;
  runner.run = (index) => actions.run(runner.cells[index]);
  runner.timings.setUpMilliseconds = now() - started;
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", setUp);
} else {
  setUp();
}
