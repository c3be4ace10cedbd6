// What a run shows in a cell: output rendering (what a running cell prints and
// displays, put into its output box, and a saved output box shown again, its
// notes and add-ons' items too), the
// built-in renderers and a stepper's, registered through the extension API
// (outputs.js).  Loaded by the first Run (or a reload that shows a saved run
// again).

import { element, outputBody, recordOutput, recordShown } from "./cells.js";
import MIME_TYPES from "./mime_types.json" with { type: "json" };
import {
  addonHandler, installOnce, registerOutput, rendererFor,
} from "./outputs.js";
import { first } from "./session.js";
import { showCrashNote, showNote } from "./words.js";

// -- output rendering -----------------------------------------------------------------------------
// Output rendering: what a running cell prints and displays, put into its
// output box.  Printed text is appended as it arrives; each displayed value
// gets a box (div.runner-display) filled by the renderer of its MIME type
// (registerOutput, outputs.js; the built-in ones are here).  Drawings and
// Markdown are laid out in the worker after the cell has run and arrive as
// HTML ("laid-out", protocol.js), which the same renderer puts in.

/** Append printed text to the cell's box. */
export function addStream(session, cell, name, text) {
  first(session.records, "firstOutput");
  recordOutput(cell, { kind: "stream", name, text });
  const body = outputBody(cell);
  recordShown(cell, { kind: "stream", name, text });
  let pre = body.lastElementChild;
  if (!pre || !pre.classList.contains("runner-stream")) {
    pre = element("pre", "runner-stream");
    body.append(pre);
  }
  pre.append(element("span", name === "stderr" ? "runner-stderr" : "", text));
}

/** Append the run's index-th displayed value ({mime: data}) to the cell's box. */
export function addDisplay(session, cell, index, bundle) {
  first(session.records, "firstOutput");
  const [mime, { show }] = rendererFor(session, bundle);
  const data = bundle[mime];
  recordOutput(cell, { kind: "display", mime, data, bundle });
  const box = element("div", "runner-display");
  box.dataset.mime = mime;
  box.dataset.index = index;
  outputBody(cell).append(box);
  recordShown(cell, { kind: "display", index, bundle });
  show(box, data, { bundle, index, cell });
}

/** The box of the cell's index-th display output (null if there is none). */
export function displayBox(cell, index) {
  if (!cell.box) return null;
  return cell.box.body.querySelector(`.runner-display[data-index="${index}"]`);
}

/** The worker laid the index-th display out: its renderer puts the HTML in. */
export function addLayout(session, cell, index, html) {
  const box = displayBox(cell, index);
  if (!box) return;
  recordShown(cell, { kind: "layout", index, html });
  const [, { laidOut }] = rendererFor(session, { [box.dataset.mime]: null });
  laidOut(box, html);
}

/** Laying out the index-th display failed: say so in its box. */
export function addLayoutError(cell, index, error) {
  const box = displayBox(cell, index);
  if (!box) return;
  recordShown(cell, { kind: "layout-error", index, error });
  box.replaceChildren(element("pre", "runner-error", `Could not draw: ${error}`));
}

/** The exception's traceback, under what the cell showed. */
export function addTraceback(cell, text) {
  outputBody(cell).append(element("pre", "runner-error", text));
  recordShown(cell, { kind: "traceback", text });
}

/**
 * Show one item of a saved output box again (cells.js's Cell.shown) by what showed
 * it: a renderer, the runner's words, an add-on's handler (given the run as a
 * restored one).  restart(): the runner's Restart, which a crash's note offers.
 */
export function showAgain(session, cell, item, restart) {
  if (item.kind === "stream") addStream(session, cell, item.name, item.text);
  else if (item.kind === "display") addDisplay(session, cell, item.index, item.bundle);
  else if (item.kind === "layout") addLayout(session, cell, item.index, item.html);
  else if (item.kind === "layout-error") addLayoutError(cell, item.index, item.error);
  else if (item.kind === "traceback") addTraceback(cell, item.text);
  else if (item.kind === "note") showNote(cell, item);
  else if (item.kind === "crash") showCrashNote(cell, item, restart);
  else if (item.kind === "addon" && addonHandler(session, item.name)) {
    const run = {
      cell, code: cell.entry ? cell.entry.code : null, restored: true,
      display: (index) => displayBox(cell, index),
    };
    addonHandler(session, item.name)(item.fields, run);
  }
}

// -- built-in renderers: registered from least to most preferred --------------------------------

const asText = (box, data) => box.append(element("pre", "", data));
const asMarkup = (box, data) => {
  box.innerHTML = data;
};

/**
 * Register the built-in renderers with the session, before any add-on's (an
 * add-on's renderer of a bundle that also has text/plain must win: it is
 * registered after these).
 */
function registerBuiltIns(session) {
  registerOutput(session, "text/plain", asText);
  registerOutput(session, "text/latex", asText);
  registerOutput(
    session,
    "text/markdown",
    (box, data) => {
      box.textContent = data; // until the worker lays it out as HTML
    },
    (box, html) => {
      box.innerHTML = html;
      for (const table of box.querySelectorAll("table")) table.classList.add("table");
    },
  );
  registerOutput(session, "text/html", asMarkup);
  registerOutput(session, "image/svg+xml", asMarkup);
  registerOutput(
    session,
    MIME_TYPES.graphviz,
    (box) => {
      box.classList.add("runner-drawing");
      box.textContent = "Laying out the drawing…";
    },
    (box, svg) => {
      box.innerHTML = svg;
      // The class of the build's inline graphs: it fits the column as they do, and
      // opens full size when shown smaller (micrograd-figures.css and .js).
      const drawing = box.querySelector("svg");
      if (drawing) drawing.classList.add("micrograd-graph");
    },
  );
}

// -- a stepper made in the reader's browser -------------------------------------------------------
// Steppers made in the reader's browser.
//
// A stepper a cell displays (the book's kernel shows it by its data, under the
// stepper MIME type of mime_types.json) is laid out in the worker
// (worker.js) and arrives as the same HTML the build makes; the steppers' module
// (docs/_features/steppers/) sets it up as it does the build's steppers.

/**
 * The renderers of the session, once (the first Run, or a reload that shows a
 * saved run again, sets them up): the built-in ones and a stepper's.
 */
export const install = (session) => installOnce(session, "outputs", () => {
  // The built-in renderers register first, so that these, registered after
  // them, are the ones a stepper's bundle (JSON and text/plain) is shown by; a
  // feature's (a chart's) registers after this.
  registerBuiltIns(session);
  registerOutput(session, MIME_TYPES.stepper, (box) => {
    box.classList.add("runner-stepper");
    box.textContent = "Laying out the stepper…";
  }, (box, html) => {
    box.innerHTML = html;
    // A feature that loads with a page that has what it serves (the registry's where:
    // the steppers') sets up what a run shows too (its module's setUpIn).
    for (const feature of session.registry) {
      if (feature.loads !== "page" || !feature.where || !box.querySelector(feature.where)) continue;
      feature.page().then((module) => module.setUpIn?.(session, box));
    }
  });
});
