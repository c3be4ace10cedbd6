// The page's settings for the runner, as the build wrote them on the runner's
// <script> element, and what the runner records of its work (the timings of
// the first start and of every run, the runtime's console), which the browser
// tests read through test_api.js.  Both belong to the session (runtime.js).

/**
 * Where the runtime is and what it needs, from the runner's <script> element (its
 * data-* attributes: docs/_ext/browser_runner.py writes them); base: the runner's
 * folder's address.
 */
export function readSettings(script, base) {
  return {
    base,
    pyodide: script.dataset.pyodide,
    viz: script.dataset.viz,
    marked: script.dataset.marked,
    d3: script.dataset.d3,
    plot: script.dataset.plot,
    wheels: script.dataset.wheels.split(" ").filter(Boolean),
    // What starting Python fetches (paths in the runner's folder), as the build listed it.
    startFiles: script.dataset.startFiles.split(" ").filter(Boolean),
    /** The class of cells that run at build time only. */
    buildOnlyClass: `tag_${script.dataset.buildOnlyTag}`,
  };
}

/**
 * What the runner did, for the browser tests and the curious.  timings: seconds
 * since the first Run (Python ready, the first output, the first cell done), each
 * run ({cell, code, seconds, ok}), and the phases of the first start (mark below);
 * log: what the runtime wrote to its console ({level, text}); liveCharts: each
 * drawing of a live chart (charts.js); checks: each exercise's Check (exercises.js).
 */
export const newRecords = () => ({
  timings: {
    clicked: null,
    ready: null,
    firstOutput: null,
    firstDone: null,
    setUpMilliseconds: null,
    runs: [],
    phases: {},
  },
  log: [],
  liveCharts: [],
  checks: [],
});

export const now = () => performance.now();

/** Seconds since the first Run (null before it). */
export const sinceFirstClick = (records) =>
  records.timings.clicked === null ? null : (now() - records.timings.clicked) / 1000;

/**
 * Note when a phase of the first start happened, in seconds since the first
 * Run (the first time only).  at: a time on this page's clock (performance.now).
 */
export function mark(records, phase, at = now()) {
  const { clicked, phases } = records.timings;
  if (clicked !== null && !(phase in phases)) phases[phase] = (at - clicked) / 1000;
}

/** Note the first time something happened (ready, firstOutput, firstDone). */
export function first(records, what) {
  if (records.timings[what] === null) records.timings[what] = sinceFirstClick(records);
}
