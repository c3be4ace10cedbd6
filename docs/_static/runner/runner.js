// Run and edit the page's code cells in the reader's browser: the entry point.
//
// Each code cell gets Run and Edit buttons.  Nothing of the runtime is
// fetched until the first Run, which starts one worker for the page
// (worker.js: Pyodide and the micrograd wheel the site was built from, all
// from this site).  Run opens the cell's editor and runs the cell after what
// it needs (queue.js: the cells above that have not run, hidden ones
// included, and those that define what an out-of-order run changed); all of
// them share the page's variables.  The output appears under the cell, marked
// as computed in the browser; the build's output stays one click away, and an
// output a run has made stale says so.  Edit opens the editor without Python;
// Reset brings back the page's code and the build's output; Stop and Restart
// end the worker.  Cells tagged build-only keep their build-time output and
// get a one-line note instead.
//
// The page's one Session (session.js) is made here at start-up, from what the
// page gives it: its manifest, its root element, a worker factory and storage.
// It owns all of the session's state (the Python's status, generation and
// queue, the run history and analysis, stale marks, notes, prompts, pending
// requests, each feature's state under its name); teardown is one method of it.  The modules
// export functions and classes, each given the session, and read and link
// nothing when imported: only constants live at module level
// (tests/js/site/module_state.test.mjs fails otherwise; tests/js/site/session.test.mjs
// drives a real Session in Node, with a fake worker).
//
// The modules, one responsibility each (ES modules; a feature lives in its
// folder, docs/_features/<name>/, and the registry, docs/_features/registry.js,
// lists what each declares in its feature.js: its page module, imported by its
// path, when that loads, its Python in the worker, what it records; the core
// reads the registry and names no feature.  Only runner.js, session.js,
// cells.js, pagestate.js, predict.js and the registry load with the page, the
// rest at the first Run, or when a reload brings back what the reader changed;
// a feature's module with the first Run or with a page that has what it serves,
// as it declares):
//   runner.js    this entry point: the Session, the reader's actions on the
//                cells, and the small API the browser tests drive the runner
//                through (window.microgradTest, below)
//   session.js   the Session: what the page gave it, its status (a frozen enum),
//                its one generation, the run in the worker, the queue, every other
//                thing the runner keeps, and the one teardown(reason) that Stop,
//                Restart, Reset page and a crash call; the page's settings (from
//                the runner's <script>) and what the runner records of its work
//   cells.js     the Cell: its state (data) and render(), the one function that
//                draws it; the scratch cell; the page's live region; the elements
//                the runner makes and its buttons' signs (drawings); every cell's
//                Copy and Copy as a script (the build's script, or the reader's
//                version's, which queue.js has the worker assemble); the set-up of
//                each part of the page as it nears the viewport (whenNear)
//   pagestate.js the page's state as one thing: what is saved of each cell, as
//                data, saved as it changes, brought back on reload, and Reset
//                page; the page bar and the skip link
//   queue.js     the run machinery: the run queue (what runs, in which order;
//                Stop, Restart, Reset), the page's flow (the build's manifest bound
//                to the page's cells by data-micrograd-cell, Python's analysis of
//                the reader's code, the run history), one run and what it
//                leaves, the prompt about a cell above that crashed or was
//                stopped, what a crash does, the stale marks, the reader's script
//   planner.js   the flow's planner (pure: data in, data out): what must run
//                before a cell, which outputs are stale, what stays the build's
//   python.js    the page's Python: the worker's lifecycle, the runtime's cache,
//                requests to the worker, the routing of its messages about runs
//   protocol.js  the worker protocol: every message type, with its shape (the
//                page's modules and the worker's import it)
//   outputs.js   the extension API for add-on modules (output renderers, add-on
//                messages, the micrograd:* events on document), and what the
//                prose shows of the reader's run: each glued value's and claim's
//                state (the Prose)
//   renderers.js what a run shows in a cell: output rendering and the built-in
//                renderers (a stepper's too), and a saved output shown again
//   words.js     what a run says, in words: a cell's name, the notes a run
//                leaves, what an output that stays the build's says
//   editor.js    the editor (CodeMirror 6, loaded on the first Edit or Run)
//   registry.js  (docs/_features/) the features the core takes part of: the one list
//   feature.js   (docs/_features/<name>/) what the core needs from a feature: its
//                page module and when it loads, its Python in the worker, what it
//                records (data, read through the registry)
//   charts.js    (docs/_features/charts/) charts drawn in the browser: a figure a
//                cell shows, and a training cell's live chart
//   glue.js      (docs/_features/glue/) the numbers in the prose that follow the
//                reader's run: the reader's, marked, with the build's in words
//   claims.js    (docs/_features/claims/) the sentences that follow the reader's
//                run: a claim's wording true of it, or marked, in words
//   track.js     (docs/_features/track/) the exercises' progress (data) and
//                their panels, Check, hints
//   predict.js   (docs/_features/predict/) predict mode and the prompts in the
//                prose (judged against the questions' data), the page's score and
//                the start page's scores
//   steppers.js  (docs/_features/steppers/) the steppers' front end: each
//                stepper's controller (its frame, its drawings fitted to the
//                window, the whole graph on a phone), a pair's layout from the
//                column's width (and the prose's words for its sides)
//   nudge.js     (docs/_features/nudge/) the Nudge control on a page's small graphs:
//                an input moved by drag, keys or typing, and the output's change
//                beside grad × Δx (Python's)
//   worker.js    the worker side: Pyodide, the kernel, the post-cell layout steps
//                (DOT, Markdown, a stepper) and the features' answers (their
//                Python's, as the registry lists them)
//   runtime-cache.js  the service worker that keeps the runtime for a later start
// (session.js, and the pure parts of cells.js, pagestate.js, steppers.js,
// predict.js, queue.js, glue.js, claims.js and track.js, touch no DOM when called: tests/js/ runs
// them in Node, and drives the rest on a page in happy-dom.)
//
// The test API (window.microgradTest): the one small surface the browser tests
// (browser_tests/) read and drive the runner through.  A cell is named by its
// index among the runnable cells (those with a Run button), in page order.
//
//   cellCount()          how many runnable cells the page has
//   cell(i)              {index, number, name, source (the page's code), code (what
//                        it runs: the reader's edit, if any), edited, state, shows,
//                        stale, hasEditor, outputs ({kind, name, mime, text, data})}
//   cells()              cell(i) of every cell
//   scratch()            the scratch cell ("Try your own code") as cell(i) gives a cell,
//                        or null on a page without one
//   setCode(i, code)     put code into cell i's editor (it must have one)
//   status()             the runtime: off, starting, ready, running or crashed (session.js)
//   timings()            records.timings (session.js): the first start's phases, each run
//   log()                what the runtime wrote to its console
//   saved()              whether every change so far is saved: no save of the page's
//                        state waits or is under way (pagestate.js)
//   liveCharts()         each drawing of a live training chart (charts.js)
//   nudges()             each nudge answered (nudge.js): {question, milliseconds,
//                        out, reply (Python's numbers)}
//   checks()             each Check of an exercise (track.js): {exercise, status,
//                        mistake (its id, or null), seconds from the click to the result}
//   prose()              (a promise) what the prose shows of the reader's run: {key: {value, from,
//                        stale}} of every glued number and claim that is not the build's
//                        (outputs.js; claims are named "claim:<key>")
//   needs()              (a promise) for each of the page's code cells, the codes of
//                        the cells the runner runs before it on a fresh page (Python's,
//                        snippets.py: the build's, or the worker's for the reader's
//                        code), once a Run has loaded the flow; null before, and while
//                        the reader's code is not analysed

import { FEATURES } from "../../_features/registry.js";
import {
  setUpAll, setUpCells, setUpCopy, whenNear,
} from "./cells.js";
import { allSaved, setUpPageState } from "./pagestate.js";
import {
  Session, mark, now, readSettings,
} from "./session.js";

// What the first Run loads (a page nobody runs loads none of it): the run queue,
// with the page's flow, the worker's lifecycle and output rendering; then the
// features the registry says load with it (docs/_features/registry.js, loads:
// "run"), which register through outputs.js; renderers.js draws what runs show.
const RUN_MODULES = Object.freeze([() => import("./queue.js"), () => import("./renderers.js")]);

/**
 * The reader's actions on the session's cells (Run, Edit, Stop, Reset, Restart).
 * machinery() loads the run queue and the add-ons once (the first Run); loaded()
 * is that promise, or null before.
 */
function makeActions(session) {
  let loading = null;
  const machinery = () => {
    if (loading === null) {
      // A run may run any cell of the page, and mark any stale: every cell has its bar.
      setUpAll(session);
      const features = session.registry.filter((f) => f.loads === "run");
      const loads = [...RUN_MODULES, ...features.map((f) => f.page)];
      loading = Promise.all(loads.map((load) => load())).then((modules) => {
        const [queue, renderers, ...featureModules] = modules;
        queue.install(session);
        renderers.install(session);
        for (const module of featureModules) module.install(session, actions);
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
 * The features that load with their page (the registry's loads: "page"), on a page
 * that has what they serve (where), before any Run: set up at once when their code
 * is the page's (setUp), else their module loaded at once, or once the first
 * element of theirs nears the viewport (near).
 */
function setUpFeatures(session, actions) {
  for (const feature of session.registry.filter((f) => f.loads === "page")) {
    if (feature.setUp) {
      feature.setUp(session, actions);
      continue;
    }
    const found = feature.where ? [...session.root.querySelectorAll(feature.where)] : [session.root];
    if (found.length === 0) continue;
    let loading = null;
    const load = () => {
      loading ||= feature.page().then((module) => module.install(session, actions));
    };
    if (feature.near) for (const el of found) whenNear(session, el, load);
    else load();
  }
}

/**
 * Set the runner up on a page: its one session, made from what the page gives
 * (the manifest, the root element, a worker factory, storage), and each cell's
 * bar, each as it nears the viewport (cells.js whenNear).  Returns the session.
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
    registry: FEATURES,
  });
  const actions = makeActions(session);
  setUpCells(session, actions);
  setUpCopy(session, {
    readerScript: (code, hooks) =>
      actions.machinery().then((queue) => queue.readerScript(session, code, hooks)),
  });
  session.restored = setUpPageState(session, {
    machinery: actions.loaded,
    openEditor: (cell) => import("./editor.js").then((editor) => editor.openEditor(session, cell, actions.run)),
    restart: actions.restart,
  });
  setUpFeatures(session, actions);
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

// -- the test API -----------------------------------------------------------------------------------

/** What the test API gives of a cell (cell(i)): these fields, as the cell has them. */
const SUMMARY = Object.freeze(["index", "number", "name", "source", "code", "edited", "state", "shows", "stale"]);
/** And of each thing its run showed, besides its kind: these fields, or null. */
const OUTPUT = Object.freeze(["name", "mime", "text", "data"]);

function summary(cell) {
  return {
    ...Object.fromEntries(SUMMARY.map((key) => [key, cell[key]])),
    hasEditor: cell.editor !== null,
    outputs: cell.outputs.map((o) => ({ kind: o.kind, ...Object.fromEntries(OUTPUT.map((k) => [k, o[k] || null])) })),
  };
}

/** The test API of the page's session (session.js), as the browser tests see it. */
export function testApi(session) {
  const { records } = session;
  return Object.freeze({
    cellCount: () => session.cells.length,
    cell: (i) => summary(session.cells[i]),
    cells: () => session.cells.map(summary),
    scratch: () => (session.scratch ? summary(session.scratch) : null),
    setCode(i, code) {
      const cell = session.cells[i];
      if (!cell.editor) throw new Error(`cell ${i} has no editor yet`);
      cell.editor.value = code;
    },
    status: () => session.status,
    // Nothing runs or waits: the hidden cells after a run (their glued numbers and
    // claims) are done too.
    idle: () => session.current === null && session.waiting.length === 0,
    // Every part of the page is set up: none waits to near the viewport (cells.js whenNear).
    setUp: () => session.lazy.waiting.size === 0,
    timings: () => records.timings,
    log: () => records.log,
    // What each feature records (the registry's records: liveCharts, checks, nudges).
    ...Object.fromEntries(session.registry.filter((f) => f.records)
      .map(({ records: name }) => [name, () => records[name]])),
    prose: () => import("./outputs.js").then((outputs) => outputs.proseOf(session).snapshot()),
    saved: () => allSaved(session),
    // (a Run has loaded the page's flow: it links each cell to its entry)
    needs: () => (session.flow !== null ? Promise.resolve(session.flow.plannedNeeds()) : null),
  });
}

// The page's entry point: the one thing done on import.
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
