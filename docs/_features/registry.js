// The features' registry, on the runner's side: the one list of the features the
// runner core (runner.js, pagestate.js, python.js, session.js, worker.js) takes
// part of, each as its folder's feature.js declares it.  Adding a feature is its
// folder (its feature.js among it) and one line here; the core names none
// (tests/js/site/feature_registry.test.mjs).  The Python side finds the same
// features by their folders (book_runtime.features.names(), docs/_features/__init__.py).
//
// A feature's declaration, all but name optional:
//   name      its folder's name: the key of the state it keeps (session.features)
//             and of its saved state (pagestate.js keepState)
//   page      its page module, as import() of its literal path (the bundler,
//             docs/_ext/bundle.py, follows it to make the module a chunk), whose
//             install(session, actions) sets it up (once, however often called)
//   loads     "run": with the first Run (or a reload that shows a saved run);
//             "page": with a page that has `where` (none: every page); near:
//             once the first such element nears the viewport
//   setUp     setUp(session, actions), for page code that loads with every page
//             (imported by feature.js): called at start-up, in place of page
//   prose     its module keeps state in the prose (outputs.js Prose): it loads
//             when the prose's state is needed (a reload brings it back)
//   records   the name of its list in session.records, and of the test API's
//             function that reads it (runner.js testApi)
//   worker    its Python in the worker (book_runtime.features.<name>.runtime):
//             answers, its page side asks questions (python.js ask) that
//             runtime.answer(question, fields as JSON) answers as JSON, where a
//             "dot" field is laid out as a drawing ("svg"); stepperMarkup,
//             runtime.markup(a stepper's JSON) follows a stepper's HTML

import { FEATURE as charts } from "./charts/feature.js";
import { FEATURE as claims } from "./claims/feature.js";
import { FEATURE as glue } from "./glue/feature.js";
import { FEATURE as nudge } from "./nudge/feature.js";
import { FEATURE as predict } from "./predict/feature.js";
import { FEATURE as steppers } from "./steppers/feature.js";
import { FEATURE as track } from "./track/feature.js";

/** Every feature the runner takes part of: the one list. */
export const FEATURES = Object.freeze([charts, claims, glue, nudge, predict, steppers, track]);
