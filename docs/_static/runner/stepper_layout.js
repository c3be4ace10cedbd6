// Steppers made in the reader's browser, laid out in the worker: an add-on of
// the runner's worker (layouts.js).
//
// The book's kernel (kernel.py) shows micrograd.viz.stepper's BackwardStepper
// and StepperPair by their data (to_json: each frame's caption and DOT source),
// under the stepper MIME type (mime_types.json).  Once the cell has run, each
// DOT source is laid out with viz.js, and micrograd.viz.stepper.html_from_json
// (the function that assembles the build's stepper from dot's SVG) makes the
// stepper's HTML from them (steppers.js shows it), followed by the questions predict mode
// asks (book_runtime.predictions.markup, as the build's kernel adds them).

import MIME_TYPES from "./mime_types.json" with { type: "json" };
import { pyimport, registerLayout, viz } from "./layouts.js";

registerLayout(MIME_TYPES.stepper, async (data, bundle, settings) => {
  const stepper = JSON.parse(data);
  const layout = await viz(settings);
  const svgs = [];
  for (const frame of stepper.frames) {
    for (const side of frame.sides || [frame]) {
      svgs.push(layout.renderString(side.dot, { format: "svg", engine: "dot" }));
    }
  }
  return pyimport("micrograd.viz.stepper").html_from_json(data, svgs) +
    pyimport("book_runtime.predictions").markup(data);
});
