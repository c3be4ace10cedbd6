// Run and edit the page's code cells in the reader's browser: the entry point.
//
// Each code cell gets Run and Edit buttons.  Nothing of the runtime is
// fetched until the first Run, which starts one worker for the page
// (worker.js: Pyodide and the micrograd wheel the site was built from, all
// from this site).  Run opens the cell's editor and runs the cell after what
// it needs (queue.js, flow.js: the cells above that have not run, hidden
// ones included, and those that define what an out-of-order run changed);
// all of them share the page's variables.  The output appears under the
// cell, marked as computed in the browser; the build's output stays one click
// away, and an output a run has made stale says so.  Edit opens the editor
// without Python; Reset brings back the page's code and the build's output;
// Stop and Restart end the worker.  Cells tagged build-only keep their
// build-time output and get a one-line note instead.
//
// The parts, one job each (ES modules, no build step; only runner.js, state.js,
// dom.js and cells.js load with the page, the rest at the first Run):
//   api.js      the extension API for add-on modules (output renderers,
//               worker message types, the micrograd:* events on document)
//   state.js    the page's settings and window.microgradRunner
//   session.js  the worker's lifecycle: start, end (Stop, Restart, crash)
//   flow.js     the page's flow: every code cell (the build's manifest), what
//               each run changed; what must run before a cell; stale outputs
//   queue.js    the run queue: runs what the flow says, and what a raise, a
//               Stop or a crash does to it
//   cells.js    the cells' UI: bar, buttons, status, output box, stale marks,
//               the page's live region
//   editor.js   the editor (CodeMirror 6, loaded on the first Edit or Run)
//   outputs.js  output rendering (and the built-in renderers)
//   worker.js, layouts.js, kernel.py   the worker side: Pyodide, the
//               post-cell layout steps (DOT, Markdown), the Python kernel
//
// window.microgradRunner exposes the cells, their outputs and the timings
// (for the browser tests and for the curious).

import { setUpCells } from "./cells.js";
import { mark, now, runner } from "./state.js";

// What the first Run loads (a page nobody runs loads none of it): the run queue,
// with the page's flow, the worker's lifecycle and output rendering, and the
// add-on modules, which register through api.js.  Add-on modules are listed here.
const RUN_MODULES = ["./queue.js", "./steppers.js", "./glue.js", "./charts.js"];

let loading = null;
function machinery() {
  if (loading === null) {
    loading = Promise.all(RUN_MODULES.map((url) => import(url))).then(([queue]) => {
      mark("modules");
      return queue;
    });
  }
  return loading;
}

const actions = {
  run(cell) {
    if (runner.timings.clicked === null) runner.timings.clicked = now();
    machinery().then((queue) => queue.run(cell));
  },
  // The editor needs neither the queue nor Python: it loads on its own.
  edit: (cell) =>
    import("./editor.js").then((editor) => editor.openEditor(cell, actions.run, { focus: true })),
  stop: (cell) => machinery().then((queue) => queue.stop(cell)),
  reset: (cell) => machinery().then((queue) => queue.reset(cell)),
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
