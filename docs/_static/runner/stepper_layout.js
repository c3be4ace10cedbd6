// Steppers made in the reader's browser, laid out in the worker: an add-on of
// the runner's worker (layouts.js).
//
// In the browser, micrograd.stepper's BackwardStepper and StepperPair display
// themselves as application/vnd.micrograd.stepper+json: each frame's caption
// and DOT source.  Once the cell has run, each DOT source is laid out with
// viz.js, and micrograd.stepper.html_from_json (the function that assembles
// the build's stepper from dot's SVG) makes the stepper's HTML from them,
// which goes to the page as a "stepper" message (steppers.js shows it).

import { pyimport, registerLayout, viz } from "./layouts.js";

const STEPPER_MIME = "application/vnd.micrograd.stepper+json";

registerLayout(STEPPER_MIME, async (data, bundle, settings) => {
  const stepper = JSON.parse(data);
  const layout = await viz(settings);
  const svgs = [];
  for (const frame of stepper.frames) {
    for (const side of frame.sides || [frame]) {
      svgs.push(layout.renderString(side.dot, { format: "svg", engine: "dot" }));
    }
  }
  return { type: "stepper", html: pyimport("micrograd.stepper").html_from_json(data, svgs) };
});
