// The in-browser runner's worker: one per page's Python, started by the page's
// runner (python.js) on the first Run, ended by a teardown.  It loads Pyodide
// from this site (never from a CDN), installs the wheels the site ships, and
// runs cells in one shared namespace; after each cell, its display outputs go
// through the layout steps (drawings with viz.js, Markdown with marked, a
// stepper), so the page itself only inserts finished outputs.  Its add-ons'
// layout steps and answers (a stepper's layout, the exercises' checks) are
// registered here.  The messages it takes and sends: protocol.js.  What it keeps
// (its Pyodide, its kernel, the layout steps and answers registered) is one
// object, made by startWorker, the one thing done on import.

import MIME_TYPES from "./mime_types.json" with { type: "json" };
import { TO_PAGE, TO_WORKER } from "./protocol.js";

// -- the layout steps -----------------------------------------------------------------------------
// The worker's post-cell layout steps: once a cell has run, a display output
// that the page cannot show as it is gets laid out here, off the page's
// thread, and is sent to the page as HTML ("laid-out", protocol.js).  Built
// in: Graphviz DOT -> SVG with viz.js, made an inline drawing as the build's
// are by micrograd.viz.svg.inline_svg; Markdown -> HTML with marked.  A failed
// step sends "layout-failed".
//
// registerLayout(w, mime, layout)
//     For a display output whose bundle has this MIME type, the worker calls
//     layout(data, bundle, settings) after the cell; it returns (or resolves
//     to) the output's HTML, or null when the page shows the bundle as it is.
//     settings holds the runtime's paths (base, viz, marked, ...); load(w, path)
//     imports an ES module from the site once, viz(w, settings) gives viz.js
//     ready to lay out DOT, and pyimport(w, name) a module of the worker's
//     Python.  An add-on registers here (below); w is the worker's state.
//
// registerAnswer(w, addon, answer)
//     An add-on's page side may ask its worker side a question (python.js's ask):
//     answer(question, fields, settings) returns (or resolves to) the answer's
//     fields (a question it does not answer throws).  The
//     worker answers between runs, never during one, so an answer sees the page's
//     namespace as the last run left it.

/** The worker's state: one per worker, and so one per page's Python. */
const newWorker = () => ({
  layouts: [], // [mime, layout]
  answers: new Map(), // add-on -> answer
  modules: new Map(), // path -> promise of the imported module
  viz: null, // a promise of viz.js, ready (viz)
  python: null, // its Pyodide, once loaded
  kernel: null, // book_runtime.kernel
  snippets: null, // book_runtime.snippets: a cell of the page as a script
  settings: null, // the runtime's paths, as the page's start message gave them
  drawings: 0, // each drawing's ids get their own prefix: several share a page
});

function registerLayout(w, mime, layout) {
  w.layouts.push([mime, layout]);
}

function registerAnswer(w, addon, answer) {
  w.answers.set(addon, answer);
}

/** The layout steps for a display output's bundle: [[mime, layout], ...]. */
function layoutsFor(w, bundle) {
  return w.layouts.filter(([mime]) => mime in bundle);
}

/** Import an ES module of the site (a path under the runner's folder), once. */
function load(w, path, settings) {
  if (!w.modules.has(path)) w.modules.set(path, import(new URL(path, settings.base).href));
  return w.modules.get(path);
}

/** viz.js, ready to lay out DOT (loaded once; for add-on layout steps too). */
function viz(w, settings) {
  if (w.viz === null) w.viz = load(w, settings.viz, settings).then((m) => m.instance());
  return w.viz;
}

/**
 * A graph's DOT laid out as the build's drawings are: tooltips as <title>, the
 * graph's text alternative, class micrograd-graph (scaled to the column, full
 * size on click); its ids start with `${owner}-${n}-`, n counting the worker's drawings.
 */
async function drawing(w, dot, settings, owner) {
  w.drawings += 1;
  const prefix = `${owner}-${w.drawings}-`;
  const laidOut = (await viz(w, settings)).renderString(dot, { format: "svg", engine: "dot" });
  return pyimport(w, "micrograd.viz.svg").inline_svg(laidOut, prefix);
}

/** A Python module of the worker's Pyodide, for a layout step that needs Python. */
function pyimport(w, name) {
  return w.python.pyimport(name);
}

/** The built-in layout steps: a drawing (DOT), Markdown. */
function registerBuiltIns(w) {
  registerLayout(w, MIME_TYPES.graphviz, (dot, bundle, settings) => drawing(w, dot, settings, "runner"));
  registerLayout(w, "text/markdown", async (text, bundle, settings) => {
    if ("text/html" in bundle || "image/svg+xml" in bundle) return null; // the page shows those
    const { marked } = await load(w, settings.marked, settings);
    return marked.parse(text, { async: false });
  });
}

// -- a stepper's layout ---------------------------------------------------------------------------
// Steppers made in the reader's browser, laid out in the worker: an add-on of
// the runner's worker (registerLayout).
//
// The book's kernel (kernel.py) shows micrograd.viz.stepper's BackwardStepper
// and StepperPair by their data (to_json: each frame's caption and DOT source),
// under the stepper MIME type (mime_types.json).  Once the cell has run, each
// DOT source is laid out with viz.js, and micrograd.viz.stepper.html_from_json
// (the function that assembles the build's stepper from dot's SVG) makes the
// stepper's HTML from them (renderers.js shows it), followed by what the features
// add to a stepper (their stepperMarkup: runtime.markup(the stepper's JSON), as
// the build's kernel adds it).

function registerSteppers(w, features) {
  const markups = features.filter((f) => f.stepperMarkup).map((f) => runtimeOf(f.name));
  registerLayout(w, MIME_TYPES.stepper, async (data, bundle, settings) => {
    const stepper = JSON.parse(data);
    const layout = await viz(w, settings);
    const svgs = [];
    for (const frame of stepper.frames) {
      for (const side of frame.sides || [frame]) {
        svgs.push(layout.renderString(side.dot, { format: "svg", engine: "dot" }));
      }
    }
    const added = markups.map((module) => pyimport(w, module).markup(data));
    return [pyimport(w, "micrograd.viz.stepper").html_from_json(data, svgs), ...added].join("");
  });
}

// -- the features' answers ------------------------------------------------------------------------
// A feature's page side asks its Python in the worker (python.js's ask): a feature
// the registry says answers (docs/_features/registry.js, its worker's answers; the
// page's start message gives them) answers each question with its runtime's
// answer(question, fields as JSON), which returns the answer as JSON (and raises
// for a question it does not answer): the exercises' Check, a nudge.  A "dot" field of the answer (a graph as it is now)
// is laid out here with viz.js, as a drawing a cell shows is, and sent as "svg".

/** A feature's Python in the worker: its runtime module (book_runtime.features). */
const runtimeOf = (name) => `book_runtime.features.${name}.runtime`;

function registerFeatures(w, features) {
  for (const { name } of features.filter((f) => f.answers)) {
    registerAnswer(w, name, async (question, fields, settings) => {
      const reply = JSON.parse(pyimport(w, runtimeOf(name)).answer(question, JSON.stringify(fields)));
      if (!("dot" in reply)) return reply;
      const { dot, ...rest } = reply;
      return { ...rest, svg: await drawing(w, dot, settings, name) };
    });
  }
}

// -- the worker -----------------------------------------------------------------------------------
// The in-browser runner's worker: one per page, started by the page's runner
// (python.js) on the first Run.  It loads Pyodide from this site (never from
// a CDN), installs the wheels the site ships (micrograd, the book's runtime
// book_runtime with its checks, graphviz), and runs cells in one shared namespace
// (book_runtime.kernel, which imports its add-ons itself).  After each cell, its display
// outputs go through the layout steps (above: drawings with viz.js,
// Markdown with marked), so the page itself only inserts finished outputs.
// The messages it takes and sends: protocol.js.

const post = (message) => self.postMessage(message);
const errorText = (error) => String((error && error.message) || error);

// CPython 3.14 guards its C stack by watching the stack pointer: below a soft
// limit, a recursion through C code (a Python __repr__ or __add__ calling
// itself, the compiler on a deeply nested expression) raises RecursionError;
// two 8 KB margins above it, a chain of objects that each free the next (a
// micrograd graph) is no longer freed recursively but deferred until the stack
// has unwound: the "trashcan".  In Pyodide that pointer moves through a 10 MB
// stack in WebAssembly memory, while what runs out first is the browser's own
// call stack.  Freeing a micrograd node takes 16 bytes of the first and about
// 400 of the second: a fresh Chromium worker held about 2,300 nested frees and
// then Pyodide died ("Maximum call stack size exceeded"), long before CPython
// saw its limit.  So CPython is told that its C stack is C_STACK_BYTES: the
// trashcan then starts 28 KB down (after about 1,800 nested frees), and
// RecursionError comes 44 KB down, where about 90 to 100 levels of recursion
// through C calls fit.  Without this, such a recursion killed the runtime a few
// hundred levels further down (500 to 600 through __add__ or functools.partial,
// 360 through __repr__, 2,500 for the compiler on a long sum).  Measured in
// Chromium 156 (browser_tests/test_runner.py has the cases).
const C_STACK_BYTES = 60 * 1024;

function fitCStackToTheBrowser(pyodide) {
  const runtime = pyodide._module; // CPython's C API, as Pyodide exports it
  const top = runtime._emscripten_stack_get_base();
  const thread = runtime._PyThreadState_Get();
  const start = top - C_STACK_BYTES;
  if (runtime._PyUnstable_ThreadState_SetStackProtection(thread, start, C_STACK_BYTES) !== 0) {
    throw new Error(`CPython refused a C stack of ${C_STACK_BYTES} bytes`);
  }
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/** The time now, in ms since 1970: the page's clock and the worker's differ in origin. */
const wallClock = () => performance.timeOrigin + performance.now();

async function start(w, message) {
  w.settings = message;
  registerSteppers(w, message.features);
  registerFeatures(w, message.features);
  const phases = { workerStarted: wallClock() };
  const base = new URL(message.base);
  const indexURL = new URL(message.pyodide, base).href;
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  phases.pyodideImported = wallClock();
  const wheels = Promise.all(message.wheels.map((name) => fetchBytes(new URL(name, base))));
  const pyodide = await loadPyodide({
    indexURL,
    stdout: (text) => post({ type: TO_PAGE.strayOutput, name: "stdout", text }),
    stderr: (text) => post({ type: TO_PAGE.strayOutput, name: "stderr", text }),
  });
  phases.pythonLoaded = wallClock();
  fitCStackToTheBrowser(pyodide);
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  for (const bytes of await wheels) {
    pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
  }
  phases.wheelsInstalled = wallClock();
  w.kernel = pyodide.pyimport("book_runtime.kernel");
  w.snippets = pyodide.pyimport("book_runtime.snippets");
  w.kernel.start(JSON.stringify(MIME_TYPES), JSON.stringify(message.glueFormats));
  w.python = pyodide;
  const names = JSON.parse(w.kernel.starting_names());
  phases.kernelImported = wallClock();
  post({ type: TO_PAGE.phases, phases });
  post({ type: TO_PAGE.ready, names });
}

async function run(w, {
  run: id, code, filename, watch, apart,
}) {
  const displays = []; // [index, bundle]
  // What kernel.py's run_cell sends while the cell runs: each as its own message.
  const out = {
    stream: (name, text) => post({ type: TO_PAGE.stream, run: id, name, text }),
    display: (data) => {
      const bundle = JSON.parse(data);
      const index = displays.length;
      displays.push([index, bundle]);
      post({ type: TO_PAGE.display, run: id, index, bundle });
    },
    addon: (name, fields) => post({ type: TO_PAGE.addon, run: id, name, fields: JSON.parse(fields) }),
  };
  let result;
  try {
    result = JSON.parse(w.kernel.run_cell(code, filename, out, watch, Boolean(apart)));
  } catch (error) {
    // Not a Python exception (run_cell reports those): the runtime itself failed.
    post({ type: TO_PAGE.fatal, message: errorText(error) });
    return;
  }
  const phases = { cellRan: wallClock() };
  for (const [index, bundle] of displays) {
    for (const [mime, layout] of layoutsFor(w, bundle)) {
      try {
        const html = await layout(bundle[mime], bundle, w.settings);
        if (html !== null) post({ type: TO_PAGE.laidOut, run: id, index, html });
      } catch (error) {
        post({ type: TO_PAGE.layoutFailed, run: id, index, error: errorText(error) });
      }
    }
  }
  phases.laidOut = wallClock();
  post({ type: TO_PAGE.changed, run: id, names: result.changed });
  post({ type: TO_PAGE.phases, phases });
  post({ type: TO_PAGE.done, run: id, ok: result.ok, error: result.error });
}

/** An add-on's question, answered by what its worker side registered (registerAnswer). */
async function ask(w, {
  request, addon, question, fields,
}) {
  const answer = w.answers.get(addon);
  if (!answer) {
    post({ type: TO_PAGE.answer, request, fields: null, error: `no answer to ${addon}:${question}` });
    return;
  }
  try {
    post({ type: TO_PAGE.answer, request, fields: await answer(question, fields, w.settings), error: null });
  } catch (error) {
    post({ type: TO_PAGE.answer, request, fields: null, error: errorText(error) });
  }
}

/** The script of cells[index] (snippets.py); a failure is this answer's, not the runtime's. */
function script(w, {
  request, cells, index, page,
}) {
  let text = null;
  let error = null;
  try {
    text = w.snippets.script_from_json(JSON.stringify({ cells, index, page }));
  } catch (failure) {
    error = errorText(failure);
  }
  post({ type: TO_PAGE.script, request, text, error });
}

/**
 * Start the worker in its global scope: its state, its layout steps and answers,
 * its console (whatever the runtime reports on it, e.g. Pyodide's fatal-error
 * notice, goes to the page, which shows it in the cell instead), and its messages.
 */
function startWorker(scope) {
  const w = newWorker();
  registerBuiltIns(w);
  for (const level of ["error", "warn"]) {
    scope.console[level] = (...args) => post({ type: TO_PAGE.console, level, text: args.map(String).join(" ") });
  }
  scope.onmessage = (event) => receive(w, event.data);
}

async function receive(w, message) {
  try {
    if (message.type === TO_WORKER.start) await start(w, message);
    else if (message.type === TO_WORKER.run) await run(w, message);
    else if (message.type === TO_WORKER.script) script(w, message);
    else if (message.type === TO_WORKER.analyse) {
      const cells = JSON.parse(w.snippets.analysis_from_json(JSON.stringify({ cells: message.cells })));
      post({ type: TO_PAGE.analysis, request: message.request, cells });
    } else if (message.type === TO_WORKER.ask) await ask(w, message);
  } catch (error) {
    post({ type: TO_PAGE.fatal, message: String((error && error.stack) || error) });
  }
}

// The worker's entry point: the one thing done on import.
startWorker(self);
