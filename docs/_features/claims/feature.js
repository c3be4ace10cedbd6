// What the runner core needs from claims (the registry, ../registry.js): its page
// module, loaded with the first Run, keeps the claims' state in the prose.
export const FEATURE = Object.freeze({
  name: "claims",
  page: () => import("./claims.js"),
  loads: "run",
  prose: true,
});
