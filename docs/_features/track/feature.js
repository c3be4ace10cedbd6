// What the runner core needs from track (the registry, ../registry.js): its page
// module, loaded with a page that has exercises (their data, #micrograd-track),
// whose Check asks the worker's Python (runtime.answer) to run the book's checks.
export const FEATURE = Object.freeze({
  name: "track",
  page: () => import("./track.js"),
  loads: "page",
  where: "#micrograd-track",
  records: "checks",
  worker: Object.freeze({ answers: true }),
});
