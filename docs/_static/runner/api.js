// The runner's extension API: how an add-on module (a chart, a stepper, glued
// numbers in the prose) takes part in a run without editing the run queue or
// the worker's loop.  An add-on imports this module ("./api.js") and is
// imported by runner.js (page side) or worker.js (worker side).
//
// Each function is given the page's session (runtime.js), which keeps what is
// registered.
//
// registerOutput(session, mime, show, laidOut)
//     Show display outputs of this MIME type with show(box, data, output): box
//     is the output's empty element (div.runner-display, data-mime set), data
//     the bundle's entry for mime, output {bundle, index, cell}.  A bundle is
//     shown by the most recently registered renderer among its MIME types, so
//     an add-on's renderer wins over the built-in ones (Graphviz DOT, SVG,
//     HTML, Markdown, LaTeX, plain text; outputs.js).  When the worker has
//     laid the output out (layouts.js), laidOut(box, html) puts the HTML in
//     (by default, as the box's content).
//
// registerAddon(session, name, handle)
//     The add-on messages of this name (kernel.py's post_message(name, **fields))
//     go to handle(fields, run): run is {cell, code, display(index)} (cell: the
//     Cell, null for a hidden cell; code: its index among all the page's code
//     cells, flow.js; display(index): the element of the run's index-th display
//     output, null for a hidden cell; restored: true when a reload shows a
//     saved run again, and the add-on recorded the message in the cell's
//     shown items, cells.js recordShown).  A message of a run that has ended or
//     was stopped is dropped.  Add-on names are their own namespace: they never
//     clash with the protocol's message types (protocol.js).
//
// ask(session, addon, question, fields)
//     Ask the add-on's worker side a question (layouts.js's registerAnswer there):
//     resolves with the answer's fields, between runs, once Python is running
//     (run a cell first); rejects with the worker's reason when there is none.
//
// Events, CustomEvents dispatched on document.  In their details, cell is the
// cell's index among the runnable cells (null for a hidden cell), code its index
// among all the page's code cells, glue the keys of the values the cells glue
// into the text:
//     micrograd:run-start  {cell, code, edited}      a cell (hidden ones too) starts
//     micrograd:run-done   {cell, code, ok, edited}  it finished (ok: no exception)
//     micrograd:cell-settled {cell, state}           a runnable cell's Run ended: done,
//                                                     raised, skipped, stopped or crashed
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
// On the worker side, registerLayout in layouts.js adds a step that turns a
// display output into HTML once the cell has run.

import { TO_WORKER } from "./protocol.js";
import { request } from "./session.js";

const insertHTML = (box, html) => {
  box.innerHTML = html;
};

export function registerOutput(session, mime, show, laidOut = insertHTML) {
  session.renderers.push([mime, { show, laidOut }]);
}

export function registerAddon(session, name, handle) {
  if (session.addons.has(name)) throw new Error(`runner: add-on messages ${name} are already handled`);
  session.addons.set(name, handle);
}

/** The [mime, {show, laidOut}] for this bundle: the most recently registered of its types. */
export function rendererFor(session, bundle) {
  const { renderers } = session;
  for (let i = renderers.length - 1; i >= 0; i -= 1) {
    if (renderers[i][0] in bundle) return renderers[i];
  }
  return null;
}

export function addonHandler(session, name) {
  return session.addons.get(name) || null;
}

export async function ask(session, addon, question, fields) {
  const answer = await request(session, { type: TO_WORKER.ask, addon, question, fields });
  if (answer.error !== null) throw new Error(answer.error);
  return answer.fields;
}

/**
 * Set an add-on up for the session once, however many times its module is asked
 * to (the first Run, and a reload that shows a saved run again, both do).
 */
export function installOnce(session, name, setUp) {
  if (session.installed.has(name)) return;
  session.installed.add(name);
  setUp();
}

/** Dispatch micrograd:<name> on document. */
export function emit(name, detail = {}) {
  document.dispatchEvent(new CustomEvent(`micrograd:${name}`, { detail }));
}
