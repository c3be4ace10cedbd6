// Output rendering: what a running cell prints and displays, put into its
// output box.  Printed text is appended as it arrives; each displayed value
// gets a box (div.runner-display) filled by the renderer of its MIME type
// (api.js's registerOutput; the built-in ones are here).  Drawings and
// Markdown are laid out in the worker after the cell has run and arrive as
// HTML ("laid-out", protocol.js), which the same renderer puts in.

import { registerOutput, rendererFor } from "./api.js";
import { outputBody, recordOutput, recordShown } from "./cells.js";
import { element } from "./dom.js";
import MIME_TYPES from "./mime_types.json" with { type: "json" };
import { first } from "./state.js";

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

/** Show one item of a saved output box again (cells.js's Cell.shown) by what showed it. */
export function showAgain(session, cell, item) {
  if (item.kind === "stream") addStream(session, cell, item.name, item.text);
  else if (item.kind === "display") addDisplay(session, cell, item.index, item.bundle);
  else if (item.kind === "layout") addLayout(session, cell, item.index, item.html);
  else if (item.kind === "layout-error") addLayoutError(cell, item.index, item.error);
  else if (item.kind === "traceback") addTraceback(cell, item.text);
  else return false;
  return true;
}

// -- built-in renderers: registered from least to most preferred --------------------------------

const asText = (box, data) => box.append(element("pre", "", data));
const asMarkup = (box, data) => {
  box.innerHTML = data;
};

/**
 * Register the built-in renderers with the session, once, before any add-on's
 * (an add-on's renderer of a bundle that also has text/plain must win: it is
 * registered after these).
 */
export function registerBuiltIns(session) {
  if (session.renderers.length > 0) return;
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
