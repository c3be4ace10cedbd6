// The worker's post-cell layout steps: once a cell has run, a display output
// that the page cannot show as it is gets laid out here, off the page's
// thread, and is sent to the page as HTML ("laid-out", protocol.js).  Built
// in: Graphviz DOT -> SVG with viz.js, made an inline drawing as the build's
// are by micrograd.viz.svg.inline_svg; Markdown -> HTML with marked.  A failed
// step sends "layout-failed".
//
// registerLayout(mime, layout)
//     For a display output whose bundle has this MIME type, the worker calls
//     layout(data, bundle, settings) after the cell; it returns (or resolves
//     to) the output's HTML, or null when the page shows the bundle as it is.
//     settings holds the runtime's paths (base, viz, marked, ...); load(path)
//     imports an ES module from the site once, viz(settings) gives viz.js ready
//     to lay out DOT, and pyimport(name) a module of the worker's Python.  An
//     add-on registers from a module that worker.js imports.

import MIME_TYPES from "./mime_types.json" with { type: "json" };

// registerAnswer(addon, question, answer)
//     An add-on's page side may ask its worker side a question (api.js's ask):
//     answer(fields, settings) returns (or resolves to) the answer's fields.  The
//     worker answers between runs, never during one, so an answer sees the page's
//     namespace as the last run left it.

const layouts = []; // [mime, layout]
const answers = new Map(); // "addon:question" -> answer
const modules = new Map(); // path -> promise of the imported module

export function registerLayout(mime, layout) {
  layouts.push([mime, layout]);
}

export function registerAnswer(addon, question, answer) {
  answers.set(`${addon}:${question}`, answer);
}

/** What answers an add-on's question, or null. */
export function answerFor(addon, question) {
  return answers.get(`${addon}:${question}`) || null;
}

/** The layout steps for a display output's bundle: [[mime, layout], ...]. */
export function layoutsFor(bundle) {
  return layouts.filter(([mime]) => mime in bundle);
}

/** Import an ES module of the site (a path under the runner's folder), once. */
export function load(path, settings) {
  if (!modules.has(path)) modules.set(path, import(new URL(path, settings.base).href));
  return modules.get(path);
}

let vizInstance = null;

/** viz.js, ready to lay out DOT (loaded once; for add-on layout steps too). */
export function viz(settings) {
  if (vizInstance === null) vizInstance = load(settings.viz, settings).then((m) => m.instance());
  return vizInstance;
}

let python = null;

/** worker.js hands over its Pyodide once it is loaded. */
export function setPython(pyodide) {
  python = pyodide;
}

/** A Python module of the worker's Pyodide, for a layout step that needs Python. */
export function pyimport(name) {
  return python.pyimport(name);
}

let drawings = 0; // each drawing's ids get their own prefix: several share a page

registerLayout(MIME_TYPES.graphviz, async (dot, bundle, settings) => {
  const laidOut = (await viz(settings)).renderString(dot, { format: "svg", engine: "dot" });
  // As the build's drawings: tooltips as <title>, the graph's text alternative,
  // class micrograd-graph (scaled to the column, full size on click).
  drawings += 1;
  return pyimport("micrograd.viz.svg").inline_svg(laidOut, `runner-${drawings}-`);
});

registerLayout("text/markdown", async (text, bundle, settings) => {
  if ("text/html" in bundle || "image/svg+xml" in bundle) return null; // the page shows those
  const { marked } = await load(settings.marked, settings);
  return marked.parse(text, { async: false });
});
