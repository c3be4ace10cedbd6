// What the runner core needs from nudge (the registry, ../registry.js): its page
// module, loaded once a nudgeable graph nears the viewport, whose controls ask the
// worker's Python (runtime.answer) for every number and the graph as it is now.
export const FEATURE = Object.freeze({
  name: "nudge",
  page: () => import("./nudge.js"),
  loads: "page",
  where: "div.mg-nudge",
  near: true,
  records: "nudges",
  worker: Object.freeze({ answers: true }),
});
