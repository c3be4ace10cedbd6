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
//     with an id belongs to a run: run is {cell, display(index)} (display
//     gives the element of the run's index-th display output), and it is
//     dropped once that run has ended or was stopped.  A message without an
//     id gets run = null.  (The worker's core types, ready, output, done,
//     log and fatal, are the runner's own.)  Python sends a message with
//     micrograd_browser_kernel.post_message(type, **fields) (kernel.py).
//
// Events, CustomEvents dispatched on document (cell: the cell's index in
// microgradRunner.cells, the page's runnable cells in page order):
//     micrograd:run-start  {cell, edited}       a cell starts running
//     micrograd:run-done   {cell, ok, edited}   it finished (ok: no exception)
//     micrograd:restart    {}                   the page's Python was restarted
//                                               (Restart, Stop, or after a crash)
//     micrograd:reset      {cells}              these cells' code and outputs are
//                                               the build's again
//     micrograd:stale      {cells}              these cells' shown outputs no longer
//                                               match the page's Python state
//
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
