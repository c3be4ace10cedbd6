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
// Messages out: {type: "ready", names, seconds}   (names: what the namespace starts with)
//               {type: "analysis", id, facts}   (cell_names.py's, for "analyse")
//               {type: "output", id, kind: "stream", name, text}
//               {type: "output", id, kind: "display", index, bundle}
//               {type: "drawing", id, index, svg}          (layouts.js)
//               {type: "markdown", id, index, html}        (layouts.js)
//               {type: "layout-error", id, index, error}   (a layout step failed)
//               {type: <any>, id, ...fields}   (kernel.py's post_message, for add-ons)
//               {type: "done", id, ok, error, changed, seconds}
//               {type: "log", level, text}   (what Pyodide prints outside a cell)
//               {type: "fatal", message}     (the runtime cannot go on)

import { layoutsFor } from "./layouts.js";
// Add-on layout steps (they call registerLayout) are imported here.

const post = (message) => self.postMessage(message);
const errorText = (error) => String((error && error.message) || error);

// Whatever the runtime reports on the console (e.g. Pyodide's fatal-error
// notice) goes to the page, which shows it in the cell instead.
for (const level of ["error", "warn"]) {
  console[level] = (...args) => post({ type: "log", level, text: args.map(String).join(" ") });
}

let kernel = null;
let settings = null;

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

async function init(message) {
  settings = message;
  const started = performance.now();
  const base = new URL(message.base);
  const indexURL = new URL(message.pyodide, base).href;
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const wheels = Promise.all(message.wheels.map((name) => fetchBytes(new URL(name, base))));
  const pythonFiles = Promise.all(
    ["kernel.py", "cell_names.py"].map((name) => fetch(new URL(name, base)).then((r) => r.text())),
  );
  const pyodide = await loadPyodide({
    indexURL,
    stdout: (text) => post({ type: "log", level: "stdout", text }),
    stderr: (text) => post({ type: "log", level: "stderr", text }),
  });
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  for (const bytes of await wheels) {
    pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
  }
  const [kernelSource, cellNamesSource] = await pythonFiles;
  pyodide.FS.writeFile(`${sitePackages}/micrograd_cell_names.py`, cellNamesSource);
  pyodide.FS.writeFile(`${sitePackages}/micrograd_browser_kernel.py`, kernelSource);
  kernel = pyodide.pyimport("micrograd_browser_kernel");
  const names = JSON.parse(kernel.starting_names());
  post({ type: "ready", names, seconds: (performance.now() - started) / 1000 });
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
  post({ type: "done", id, ...result, seconds: (performance.now() - started) / 1000 });
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
