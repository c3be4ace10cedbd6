// Steppers made in the reader's browser: an add-on of the runner (api.js).
//
// A stepper a cell displays (application/vnd.micrograd.stepper+json) is laid
// out in the worker (stepper_layout.js) and arrives as the same HTML the build
// makes; micrograd-figures.js sets it up as it does the build's steppers.

import { registerMessage, registerOutput } from "./api.js";
// The built-in renderers register first, so that this one, registered after
// them, is the one a stepper's bundle (JSON and text/plain) is shown by.
import "./outputs.js";

registerOutput("application/vnd.micrograd.stepper+json", (box) => {
  box.classList.add("runner-stepper");
  box.textContent = "Laying out the stepper…";
});

registerMessage("stepper", ({ index, html }, run) => {
  const box = run.display(index);
  if (box) box.innerHTML = html;
});
