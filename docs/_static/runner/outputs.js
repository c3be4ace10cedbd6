// Output rendering: what a running cell prints and displays, put into its
// output box.  Printed text is appended as it arrives; each displayed value
// gets a box (div.runner-display) filled by the renderer of its MIME type
// (api.js's registerOutput; the built-in ones are here).  Drawings and
// Markdown are laid out in the worker after the cell has run, and arrive as
// messages of their own ("drawing": SVG, "markdown": HTML, "layout-error").

import { registerMessage, registerOutput, rendererFor } from "./api.js";
import { element } from "./dom.js";
import { runner, sinceFirstClick } from "./state.js";

/** Append one output message ({kind: "stream" | "display", ...}) to the cell's box. */
export function addOutput(cell, message) {
  if (runner.timings.firstOutput === null) runner.timings.firstOutput = sinceFirstClick();
  if (message.kind === "stream") addStream(cell, message);
  else addDisplay(cell, message);
}

function addStream(cell, { name, text }) {
  cell.outputs.push({ kind: "stream", name, text });
  const body = cell.output.body;
  let pre = body.lastElementChild;
  if (!pre || !pre.classList.contains("runner-stream")) {
    pre = element("pre", "runner-stream");
    body.append(pre);
  }
  pre.append(element("span", name === "stderr" ? "runner-stderr" : "", text));
}

function addDisplay(cell, { bundle, index }) {
  const [mime, render] = rendererFor(bundle);
  const data = bundle[mime];
  cell.outputs.push({ kind: "display", mime, data, bundle });
  const box = element("div", "runner-display");
  box.dataset.mime = mime;
  box.dataset.index = index;
  cell.output.body.append(box);
  render(box, data, { bundle, index, cell });
}

/** The box of the cell's index-th display output (null if there is none). */
export function displayBox(cell, index) {
  return cell.output.body.querySelector(`.runner-display[data-index="${index}"]`);
}

/** The exception's traceback, under what the cell showed. */
export function addTraceback(cell, text) {
  cell.output.body.append(element("pre", "runner-error", text));
}

// -- built-in renderers: registered from least to most preferred --------------------------------

const asText = (box, data) => box.append(element("pre", "", data));
const asMarkup = (box, data) => {
  box.innerHTML = data;
};
registerOutput("text/plain", asText);
registerOutput("text/latex", asText);
registerOutput("text/markdown", (box, data) => {
  box.textContent = data; // until the worker's "markdown" message brings the HTML
});
registerOutput("text/html", asMarkup);
registerOutput("image/svg+xml", asMarkup);
registerOutput("text/vnd.graphviz", (box) => {
  box.classList.add("runner-drawing");
  box.textContent = "Laying out the drawing…";
});

// -- what the worker's layout steps send (worker: layouts.js) ------------------------------------

registerMessage("drawing", ({ index, svg }, run) => {
  const box = run.display(index);
  if (!box) return;
  box.innerHTML = svg;
  // The class of the build's inline graphs: it fits the column as they do, and
  // opens full size when shown smaller (micrograd-figures.css and .js).
  const drawing = box.querySelector("svg");
  if (drawing) drawing.classList.add("micrograd-graph");
});

registerMessage("markdown", ({ index, html }, run) => {
  const box = run.display(index);
  if (!box) return;
  box.innerHTML = html;
  for (const table of box.querySelectorAll("table")) table.classList.add("table");
});

registerMessage("layout-error", ({ index, error }, run) => {
  const box = run.display(index);
  if (box) box.replaceChildren(element("pre", "runner-error", `Could not draw: ${error}`));
});
