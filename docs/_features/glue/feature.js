// What the runner core needs from glue (the registry, ../registry.js): its page
// module, loaded with the first Run, keeps the glued numbers' state in the prose.
export const FEATURE = Object.freeze({
  name: "glue",
  page: () => import("./glue.js"),
  loads: "run",
  prose: true,
});
