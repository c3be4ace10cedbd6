// What the runner core needs from steppers (the registry, ../registry.js): its page
// module, loaded with a page that has a stepper, whose install(session) sets the
// page's steppers up, and whose setUpIn(session, box) those a run shows.  Their state
// is state.js's (steppersOf).
export const FEATURE = Object.freeze({
  name: "steppers",
  page: () => import("./steppers.js"),
  loads: "page",
  where: ".mg-stepper",
});
