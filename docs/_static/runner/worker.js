// The in-browser runner's worker: one per page, started by the page's runner
// (session.js) on the first Run.  It loads Pyodide from this site (never from
// a CDN), installs the wheels the site ships (micrograd, the book's runtime
// book_runtime with its checks, graphviz), and runs cells in one shared namespace
// (book_runtime.kernel, which imports its add-ons itself).  After each cell, its display
// outputs go through the layout steps (layouts.js: drawings with viz.js,
// Markdown with marked), so the page itself only inserts finished outputs.
// The messages it takes and sends: protocol.js.

import { answerFor, layoutsFor, setPython } from "./layouts.js";
import MIME_TYPES from "./mime_types.json" with { type: "json" };
import { TO_PAGE, TO_WORKER } from "./protocol.js";
// Add-ons' layout steps and answers (they call registerLayout, registerAnswer) are imported here.
import "./exercise_answers.js";
import "./stepper_layout.js";

const post = (message) => self.postMessage(message);
const errorText = (error) => String((error && error.message) || error);

// Whatever the runtime reports on the console (e.g. Pyodide's fatal-error
// notice) goes to the page, which shows it in the cell instead.
for (const level of ["error", "warn"]) {
  console[level] = (...args) => post({ type: TO_PAGE.console, level, text: args.map(String).join(" ") });
}

let kernel = null;
let snippets = null; // book_runtime.snippets: a cell of the page as a script
let settings = null;

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

async function start(message) {
  settings = message;
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
  kernel = pyodide.pyimport("book_runtime.kernel");
  snippets = pyodide.pyimport("book_runtime.snippets");
  kernel.start(JSON.stringify(MIME_TYPES), JSON.stringify(message.glueFormats));
  setPython(pyodide);
  const names = JSON.parse(kernel.starting_names());
  phases.kernelImported = wallClock();
  post({ type: TO_PAGE.phases, phases });
  post({ type: TO_PAGE.ready, names });
}

async function run({
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
    result = JSON.parse(kernel.run_cell(code, filename, out, watch, Boolean(apart)));
  } catch (error) {
    // Not a Python exception (run_cell reports those): the runtime itself failed.
    post({ type: TO_PAGE.fatal, message: errorText(error) });
    return;
  }
  const phases = { cellRan: wallClock() };
  for (const [index, bundle] of displays) {
    for (const [mime, layout] of layoutsFor(bundle)) {
      try {
        const html = await layout(bundle[mime], bundle, settings);
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

/** An add-on's question, answered by what its worker side registered (layouts.js). */
async function ask({ request, addon, question, fields }) {
  const answer = answerFor(addon, question);
  if (answer === null) {
    post({ type: TO_PAGE.answer, request, fields: null, error: `no answer to ${addon}:${question}` });
    return;
  }
  try {
    post({ type: TO_PAGE.answer, request, fields: await answer(fields, settings), error: null });
  } catch (error) {
    post({ type: TO_PAGE.answer, request, fields: null, error: errorText(error) });
  }
}

/** The script of cells[index] (snippets.py); a failure is this answer's, not the runtime's. */
function script({ request, cells, index, page }) {
  let text = null;
  let error = null;
  try {
    text = snippets.script_from_json(JSON.stringify({ cells, index, page }));
  } catch (failure) {
    error = errorText(failure);
  }
  post({ type: TO_PAGE.script, request, text, error });
}

self.onmessage = async (event) => {
  const message = event.data;
  try {
    if (message.type === TO_WORKER.start) await start(message);
    else if (message.type === TO_WORKER.run) await run(message);
    else if (message.type === TO_WORKER.script) script(message);
    else if (message.type === TO_WORKER.analyse) {
      const cells = JSON.parse(snippets.analysis_from_json(JSON.stringify({ cells: message.cells })));
      post({ type: TO_PAGE.analysis, request: message.request, cells });
    } else if (message.type === TO_WORKER.ask) await ask(message);
  } catch (error) {
    post({ type: TO_PAGE.fatal, message: String((error && error.stack) || error) });
  }
};
