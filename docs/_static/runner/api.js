// The runner's extension API: how an add-on module (a chart, a stepper, glued
// numbers in the prose) takes part in a run without editing the run queue or
// the worker's loop.  An add-on imports this module ("./api.js") and is
// imported by runner.js (page side) or worker.js (worker side).
//
// registerOutput(mime, render)
//     Show display outputs of this MIME type with render(box, data, output):
//     box is the output's empty element (div.runner-display, data-mime set),
//     data the bundle's entry for mime, output {bundle, index, cell}.  A
//     bundle is shown by the most recently registered renderer among its
//     MIME types, so an add-on's renderer wins over the built-in ones
//     (Graphviz DOT, SVG, HTML, Markdown, LaTeX, plain text; outputs.js).
//
// registerMessage(type, handle)
//     Worker messages of this type go to handle(message, run).  A message
//     with an id belongs to a run: run is {cell, code, display(index)} (see
//     the events below for cell and code; display gives the element of the
//     run's index-th display output, null for a hidden cell), and it is
//     dropped once that run has ended or was stopped.  A message without an
//     id gets run = null.  (The worker's core types, ready, output, done,
//     analysis, log and fatal, are the runner's own.)
//
// Events, CustomEvents dispatched on document.  In their details, cell is the
// cell's index in microgradRunner.cells (the page's runnable cells with a Run
// button, in page order; null for a hidden cell), code its index among all the
// page's code cells (the build's manifest, hidden cells included: flow.js),
// glue the keys of the values the cells glue into the text:
//     micrograd:run-start  {cell, code, edited}      a cell (hidden ones too) starts
//     micrograd:run-done   {cell, code, ok, edited}  it finished (ok: no exception)
//     micrograd:restart    {}                        the page's Python ended and a new
//                                                     one starts (Restart, Stop, or the
//                                                     first Run or Restart after a crash):
//                                                     show the build's values again
//     micrograd:reset      {cells, code, glue}       these cells' code and outputs are
//                                                     the build's again (Reset)
//     micrograd:stale      {cells, code, glue}       every cell whose shown output is
//                                                     stale now (an empty list: none);
//                                                     sent whenever that set changes
//
// Python in the browser: micrograd_browser_kernel.post_message(type, **fields)
// sends the page a message of a new type; myst_nb.glue(name, value) there sends
// {type: "glue", id, key, bundle, display} (kernel.py).

// On the worker side, registerLayout in layouts.js adds a step that turns a
// display output into something the page can insert (DOT to SVG, Markdown
// to HTML) once the cell has run.

const renderers = []; // [mime, render], in registration order
const handlers = new Map(); // message type -> handle

export function registerOutput(mime, render) {
  renderers.push([mime, render]);
}

export function registerMessage(type, handle) {
  if (handlers.has(type)) throw new Error(`runner: message type ${type} is already handled`);
  handlers.set(type, handle);
}

/** The [mime, render] that shows this bundle: the most recently registered of its types. */
export function rendererFor(bundle) {
  for (let i = renderers.length - 1; i >= 0; i -= 1) {
    if (renderers[i][0] in bundle) return renderers[i];
  }
  return null;
}

export function messageHandler(type) {
  return handlers.get(type) || null;
}

/** Dispatch micrograd:<name> on document. */
export function emit(name, detail = {}) {
  document.dispatchEvent(new CustomEvent(`micrograd:${name}`, { detail }));
}
