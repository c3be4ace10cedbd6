// The in-browser runner's worker: one per page, started by the page's runner
// (session.js) on the first Run.  It loads Pyodide from this site (never from
// a CDN), installs the micrograd and graphviz wheels the site ships, and runs
// cells in one shared namespace (kernel.py).  After each cell, its display
// outputs go through the layout steps (layouts.js: drawings with viz.js,
// Markdown with marked), so the page itself only inserts finished outputs.
//
// Messages in:  {type: "init", base, pyodide, wheels, viz, marked}
//               {type: "run", id, code, filename, watch}   (watch: names, as JSON)
//               {type: "analyse", id, code}
// Messages out: {type: "ready", names, seconds, phases}   (names: what the namespace
//                starts with; phases: when each step of the start ended, ms since 1970)
//               {type: "analysis", id, facts}   (cell_names.py's, for "analyse")
//               {type: "output", id, kind: "stream", name, text}
//               {type: "output", id, kind: "display", index, bundle}
//               {type: "drawing", id, index, svg}          (layouts.js)
//               {type: "markdown", id, index, html}        (layouts.js)
//               {type: "layout-error", id, index, error}   (a layout step failed)
//               {type: <any>, id, ...fields}   (kernel.py's post_message, for add-ons)
//               {type: "done", id, ok, error, changed, seconds, phases}   (phases: when
//                the cell's Python ended and its outputs were laid out, ms since 1970)
//               {type: "log", level, text}   (what Pyodide prints outside a cell)
//               {type: "fatal", message}     (the runtime cannot go on)

import { layoutsFor, setPython } from "./layouts.js";
// Add-on layout steps (they call registerLayout) are imported here.
import "./stepper_layout.js";

// The kernel's Python add-ons (they add to kernel.py's CELL_CONTEXTS): file -> module
// name, installed next to the kernel and imported once it is loaded.
const PYTHON_ADDONS = { "live_charts.py": "micrograd_live_charts" };

const post = (message) => self.postMessage(message);
const errorText = (error) => String((error && error.message) || error);

// Whatever the runtime reports on the console (e.g. Pyodide's fatal-error
// notice) goes to the page, which shows it in the cell instead.
for (const level of ["error", "warn"]) {
  console[level] = (...args) => post({ type: "log", level, text: args.map(String).join(" ") });
}

let kernel = null;
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
const epoch = () => performance.timeOrigin + performance.now();

async function init(message) {
  settings = message;
  const started = performance.now();
  const phases = { workerStarted: epoch() };
  const base = new URL(message.base);
  const indexURL = new URL(message.pyodide, base).href;
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  phases.pyodideImported = epoch();
  const wheels = Promise.all(message.wheels.map((name) => fetchBytes(new URL(name, base))));
  const pythonFiles = Promise.all(
    ["kernel.py", "cell_names.py", ...Object.keys(PYTHON_ADDONS)].map((name) =>
      fetch(new URL(name, base)).then((r) => r.text()),
    ),
  );
  const pyodide = await loadPyodide({
    indexURL,
    stdout: (text) => post({ type: "log", level: "stdout", text }),
    stderr: (text) => post({ type: "log", level: "stderr", text }),
  });
  phases.pythonLoaded = epoch();
  fitCStackToTheBrowser(pyodide);
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  for (const bytes of await wheels) {
    pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
  }
  phases.wheelsInstalled = epoch();
  const [kernelSource, cellNamesSource, ...addOnSources] = await pythonFiles;
  pyodide.FS.writeFile(`${sitePackages}/micrograd_cell_names.py`, cellNamesSource);
  pyodide.FS.writeFile(`${sitePackages}/micrograd_browser_kernel.py`, kernelSource);
  kernel = pyodide.pyimport("micrograd_browser_kernel");
  Object.values(PYTHON_ADDONS).forEach((module, i) => {
    pyodide.FS.writeFile(`${sitePackages}/${module}.py`, addOnSources[i]);
    pyodide.pyimport(module);
  });
  setPython(pyodide);
  const names = JSON.parse(kernel.starting_names());
  phases.kernelImported = epoch();
  post({ type: "ready", names, seconds: (performance.now() - started) / 1000, phases });
}

async function run({ id, code, filename, watch }) {
  const started = performance.now();
  const displays = []; // [index, bundle]
  const emit = (kind, key, data) => {
    if (kind === "stream") {
      post({ type: "output", id, kind, name: key, text: data });
    } else if (kind === "display") {
      const bundle = JSON.parse(data);
      const index = displays.length;
      displays.push([index, bundle]);
      post({ type: "output", id, kind, index, bundle });
    } else if (kind === "message") {
      post({ ...JSON.parse(data), type: key, id });
    }
  };
  let result;
  try {
    result = JSON.parse(kernel.run_cell(code, filename, emit, watch));
  } catch (error) {
    // Not a Python exception (run_cell reports those): the runtime itself failed.
    post({ type: "fatal", message: errorText(error) });
    return;
  }
  const phases = { cellRan: epoch() };
  for (const [index, bundle] of displays) {
    for (const [mime, layout] of layoutsFor(bundle)) {
      try {
        const laidOut = await layout(bundle[mime], bundle, settings);
        if (laidOut) post({ ...laidOut, id, index });
      } catch (error) {
        post({ type: "layout-error", id, index, error: errorText(error) });
      }
    }
  }
  phases.laidOut = epoch();
  post({ type: "done", id, ...result, seconds: (performance.now() - started) / 1000, phases });
}

self.onmessage = async (event) => {
  const message = event.data;
  try {
    if (message.type === "init") await init(message);
    else if (message.type === "run") await run(message);
    else if (message.type === "analyse") {
      post({ type: "analysis", id: message.id, facts: JSON.parse(kernel.analyse(message.code)) });
    }
  } catch (error) {
    post({ type: "fatal", message: String((error && error.stack) || error) });
  }
};
