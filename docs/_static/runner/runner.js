// Run and edit the page's code cells in the reader's browser: the entry point.
//
// Each code cell gets Run and Edit buttons.  Nothing of the runtime is
// fetched until the first Run, which starts one worker for the page
// (worker.js: Pyodide and the micrograd wheel the site was built from, all
// from this site).  Run opens the cell's editor and runs the cell after what
// it needs (queue.js, planner.js: the cells above that have not run, hidden
// ones included, and those that define what an out-of-order run changed);
// all of them share the page's variables.  The output appears under the
// cell, marked as computed in the browser; the build's output stays one click
// away, and an output a run has made stale says so.  Edit opens the editor
// without Python; Reset brings back the page's code and the build's output;
// Stop and Restart end the worker.  Cells tagged build-only keep their
// build-time output and get a one-line note instead.
//
// The page's one Session (runtime.js) is made here at start-up, from what the
// page gives it: its manifest, its root element, a worker factory and storage.
// It owns all of the session's state (the Python's status, generation and
// queue, the run history and analysis, stale marks, notes, prompts,
// predictions, pending requests); teardown is one method of it.  The modules
// export functions and classes, each given the session, and read and link
// nothing when imported: only constants live at module level
// (tests/js/module_state.test.mjs fails otherwise; tests/js/session.test.mjs
// drives a real Session in Node, with a fake worker).
//
// The parts, one job each (ES modules, no build step; only runner.js, state.js,
// dom.js, icons.js, cells.js, copy.js, pagestate.js, pairs.js, pair_layout.js,
// predict.js, predict_check.js, runtime.js and test_api.js load with the page,
// the rest at the first Run, or when a reload brings back what the reader changed):
//   cells.js     the Cell: its state (data) and render(), the one function that
//                draws it; the scratch cell after the page's; the page's live region
//   copy.js      every cell's Copy and Copy as a script (the build's script, or
//                the reader's version's: scripts.js, which snippets.py in the
//                worker assembles)
//   pagestate.js the page's state as one thing: saved as it changes, brought back
//                on reload, and Reset page; the page bar and the skip link
//   state.js     the page's settings (read from the runner's <script>), and what
//                the runner records of its work
//   icons.js     the signs on the buttons, as drawings (dom.js draws them)
//   pairs.js     a stepper pair's layout on the page, and the prose's words for its
//                sides (pair_layout.js: the rule, from the column's width)
//   predict.js   predict mode in the steppers (the page's switch, questions and
//                score) and the start page's scores; predict_check.js judges an
//                answer against the questions' data (pure, tests/js/)
//   test_api.js  the small API the browser tests drive the runner through (only
//                runner.js imports it, to show the page's session)
//   api.js       the extension API for add-on modules (output renderers, add-on
//                messages, the micrograd:* events on document)
//   queue.js     the run queue: what runs, in which order; Stop, Restart, Reset
//   runs.js      one run in the worker, and what it leaves on the page
//   marks.js     the stale marks of outputs a run made out of date
//   crash.js     what a crash of the page's Python does to the cells
//   flow.js      the page's flow: every code cell (the build's manifest, bound to
//                the page's cells by data-micrograd-cell), Python's analysis of the
//                reader's code, the run history
//   planner.js   pure: what must run before a cell, stale outputs (tests/js/)
//   routing.js   the worker's messages about runs, to the cells they belong to
//   prompts.js   the question about a cell above that crashed or was stopped
//   notes.js     what the runner says in a cell's output box, in words
//   runtime.js   the Session: what the page gave it, its status (a frozen enum),
//                its one generation, the run in the worker, the queue, every other
//                thing the runner keeps, and the one teardown(reason) that Stop,
//                Restart, Reset page and a crash call
//   session.js   the worker's lifecycle: start, its end on a teardown, its cache
//   protocol.js  the worker protocol: every message type, with its shape
//   editor.js    the editor (CodeMirror 6, loaded on the first Edit or Run)
//   outputs.js   output rendering (and the built-in renderers)
//   worker.js, layouts.js, kernel.py   the worker side: Pyodide, the post-cell
//                layout steps (DOT, Markdown), the Python kernel
//   prose.js     what the prose shows of the reader's run: each glued value's and
//                claim's state (the add-ons glue.js and claims.js show them)
//   savedstate.js a page's saved state as data: what a reload brings back of each cell
//                (and the words of an edited cell's mark, before and after one)
//   wording.js   the words a glued number or a claim carries, by its state (prose.js)
//   exercise_progress.js  the exercises' progress, and what their panels show of it
//   (savedstate.js, wording.js, exercise_progress.js, icons.js, pair_layout.js,
//   predict_check.js and runtime.js touch no DOM: tests/js/ runs them in Node)
// Add-ons: steppers.js, glue.js and claims.js (on prose.js), charts.js,
// exercises.js (page), stepper_layout.js, exercise_answers.js, live_charts.py,
// exercises.py (worker).

import { setUpCells } from "./cells.js";
import { setUpCopy } from "./copy.js";
import { setUpPageState } from "./pagestate.js";
import { setUpPairs } from "./pairs.js";
import { setUpPredictions } from "./predict.js";
import { Session } from "./runtime.js";
import { mark, now, readSettings } from "./state.js";
import { testApi } from "./test_api.js";

// What the first Run loads (a page nobody runs loads none of it): the run queue,
// with the page's flow, the worker's lifecycle and output rendering, and the
// add-on modules, which register through api.js (each module's install(session)).
// Add-on modules are listed here, each as an import() of its literal path, which
// the bundler (docs/_ext/bundle.py) follows to make it a chunk of its own.
const RUN_MODULES = Object.freeze([
  () => import("./queue.js"),
  () => import("./steppers.js"),
  () => import("./glue.js"),
  () => import("./claims.js"),
  () => import("./charts.js"),
]);

/**
 * The reader's actions on the session's cells (Run, Edit, Stop, Reset, Restart).
 * machinery() loads the run queue and the add-ons once (the first Run); loaded()
 * is that promise, or null before.
 */
function makeActions(session) {
  let loading = null;
  const machinery = () => {
    if (loading === null) {
      loading = Promise.all(RUN_MODULES.map((load) => load())).then(([queue, ...addons]) => {
        queue.setUpQueue(session);
        for (const addon of addons) addon.install(session);
        mark(session.records, "modules");
        return queue;
      });
    }
    return loading;
  };
  const actions = {
    machinery,
    loaded: () => loading,
    run(cell) {
      const { timings } = session.records;
      if (timings.clicked === null) timings.clicked = now();
      machinery().then((queue) => queue.run(session, cell));
    },
    // The editor needs neither the queue nor Python: it loads on its own.
    edit: (cell) =>
      import("./editor.js").then((editor) =>
        editor.openEditor(session, cell, actions.run, { focus: true, keepBar: true })),
    stop: (cell) => machinery().then((queue) => queue.stop(session, cell)),
    reset: (cell) => machinery().then((queue) => queue.reset(session, cell)),
    restart: () => machinery().then((queue) => queue.restart(session)),
  };
  return actions;
}

/**
 * Set the runner up on a page: its one session, made from what the page gives
 * (the manifest, the root element, a worker factory, storage), and each cell's
 * bar.  Returns the session.
 */
export function startRunner({
  document: page, base, makeWorker, storage, path,
}) {
  const started = now();
  const manifest = page.getElementById("micrograd-cells");
  const session = new Session({
    manifest: manifest ? manifest.textContent : null,
    root: page.documentElement,
    makeWorker,
    storage,
    settings: readSettings(page.getElementById("micrograd-runner"), base),
    path,
  });
  const actions = makeActions(session);
  setUpCells(session, actions);
  setUpPairs(session);
  setUpPredictions(session);
  setUpCopy(session, {
    readerScript: (code, hooks) =>
      actions.machinery().then(() => import("./scripts.js")).then((m) => m.readerScript(session, code, hooks)),
  });
  session.restored = setUpPageState(session, {
    machinery: actions.loaded,
    openEditor: (cell) => import("./editor.js").then((editor) => editor.openEditor(session, cell, actions.run)),
    restart: actions.restart,
  });
  // A page with exercises shows their Check, hints and progress before any Run.
  const track = page.getElementById("micrograd-track");
  if (track) {
    import("./exercises.js").then((exercises) =>
      exercises.setUpExercises(session, JSON.parse(track.textContent), actions));
  }
  session.records.timings.setUpMilliseconds = now() - started;
  return session;
}

/** The browser's storage, or null where it refuses to give it (storage turned off). */
function browserStorage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Start the runner on this page, and show its session to the browser tests. */
function start() {
  // A document without the runner's settings (Node's tests import this module on a
  // blank one) has nothing to run.
  if (!document.getElementById("micrograd-runner")) return;
  const session = startRunner({
    document,
    base: new URL(".", import.meta.url).href,
    makeWorker: (url) => new Worker(url, { type: "module" }),
    storage: browserStorage(),
    path: location.pathname,
  });
  window.microgradTest = testApi(session);
}

// The page's entry point: the one thing done on import.
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
