// The in-browser runner's worker: one per page, started by runner.js on the
// first Run.  It loads Pyodide from this site (never from a CDN), installs the
// micrograd and graphviz wheels the site ships, and runs cells in one shared
// namespace (kernel.py).  Drawings (DOT) are laid out here with viz.js, and
// Markdown outputs are turned into HTML with marked, so the page itself only
// inserts finished outputs.
//
// Messages in:  {type: "init", base, pyodide, wheels, viz, marked}
//               {type: "run", id, code, filename}
// Messages out: {type: "ready", seconds}
//               {type: "output", id, kind: "stream", name, text}
//               {type: "output", id, kind: "display", index, bundle}
//               {type: "drawing", id, index, svg | error | html}   (html: a Markdown output)
//               {type: "done", id, ok, error, seconds}
//               {type: "log", level, text}   (what Pyodide prints outside a cell)
//               {type: "fatal", message}     (the runtime cannot go on)

const post = (message) => self.postMessage(message);

// Whatever the runtime reports on the console (e.g. Pyodide's fatal-error
// notice) goes to the page, which shows it in the cell instead.
for (const level of ["error", "warn"]) {
  console[level] = (...args) => post({ type: "log", level, text: args.map(String).join(" ") });
}

let pyodide = null;
let kernel = null;
let settings = null;
let vizInstance = null;
let markedModule = null;

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
  const kernelSource = fetch(new URL("kernel.py", base)).then((r) => r.text());
  pyodide = await loadPyodide({
    indexURL,
    stdout: (text) => post({ type: "log", level: "stdout", text }),
    stderr: (text) => post({ type: "log", level: "stderr", text }),
  });
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  for (const bytes of await wheels) {
    pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
  }
  pyodide.FS.writeFile(`${sitePackages}/micrograd_browser_kernel.py`, await kernelSource);
  kernel = pyodide.pyimport("micrograd_browser_kernel");
  post({ type: "ready", seconds: (performance.now() - started) / 1000 });
}

async function viz() {
  if (vizInstance === null) {
    const module = await import(new URL(settings.viz, settings.base).href);
    vizInstance = await module.instance();
  }
  return vizInstance;
}

async function markdownToHtml(text) {
  if (markedModule === null) {
    markedModule = await import(new URL(settings.marked, settings.base).href);
  }
  return markedModule.marked.parse(text, { async: false });
}

async function run({ id, code, filename }) {
  const started = performance.now();
  const drawings = [];
  const markdown = [];
  let index = 0;
  const emit = (kind, key, data) => {
    if (kind === "stream") {
      post({ type: "output", id, kind, name: key, text: data });
      return;
    }
    const bundle = JSON.parse(data);
    const here = index++;
    if ("text/vnd.graphviz" in bundle) drawings.push([here, bundle["text/vnd.graphviz"]]);
    else if ("text/markdown" in bundle && !("text/html" in bundle)) {
      markdown.push([here, bundle["text/markdown"]]);
    }
    post({ type: "output", id, kind: "display", index: here, bundle });
  };
  let result;
  try {
    result = JSON.parse(kernel.run_cell(code, filename, emit));
  } catch (error) {
    // Not a Python exception (run_cell reports those): the runtime itself failed.
    post({ type: "fatal", message: String((error && error.message) || error) });
    return;
  }
  for (const [here, dot] of drawings) {
    try {
      const svg = (await viz()).renderString(dot, { format: "svg", engine: "dot" });
      post({ type: "drawing", id, index: here, svg });
    } catch (error) {
      post({ type: "drawing", id, index: here, error: String((error && error.message) || error) });
    }
  }
  for (const [here, text] of markdown) {
    post({ type: "drawing", id, index: here, html: await markdownToHtml(text) });
  }
  post({ type: "done", id, ...result, seconds: (performance.now() - started) / 1000 });
}

self.onmessage = async (event) => {
  const message = event.data;
  try {
    if (message.type === "init") await init(message);
    else if (message.type === "run") await run(message);
  } catch (error) {
    post({ type: "fatal", message: String((error && error.stack) || error) });
  }
};
