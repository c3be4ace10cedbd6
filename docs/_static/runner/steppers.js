// Steppers made in the reader's browser: an add-on of the runner (api.js).
//
// A stepper a cell displays (the book's kernel shows it by its data, under the
// stepper MIME type of mime_types.json) is laid out in the worker
// (stepper_layout.js) and arrives as the same HTML the build makes;
// micrograd-figures.js sets it up as it does the build's steppers.

import { installOnce, registerOutput } from "./api.js";
import MIME_TYPES from "./mime_types.json" with { type: "json" };
import { registerBuiltIns } from "./outputs.js";

/** Show a stepper's bundle by this renderer (the first Run sets it up). */
export const install = (session) => installOnce(session, "steppers", () => {
  // The built-in renderers register first, so that this one, registered after
  // them, is the one a stepper's bundle (JSON and text/plain) is shown by.
  registerBuiltIns(session);
  registerOutput(session, MIME_TYPES.stepper, (box) => {
    box.classList.add("runner-stepper");
    box.textContent = "Laying out the stepper…";
  });
});
