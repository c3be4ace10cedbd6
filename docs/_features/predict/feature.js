// What the runner core needs from predict (the registry, ../registry.js): its page
// side (predict mode on the steppers, the prompts in the prose, the scores), set
// up with every page (predict.js loads with the page); in the
// worker, the questions (runtime.markup) after a stepper's HTML, as the build's
// kernel adds them.
import { setUpPredictions } from "./predict.js";

export const FEATURE = Object.freeze({
  name: "predict",
  loads: "page",
  setUp: setUpPredictions,
  worker: Object.freeze({ stepperMarkup: true }),
});
