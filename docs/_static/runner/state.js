// What the runner knows about this page: the settings the build wrote on the
// runner's <script> element, and window.microgradRunner (the cells, the
// runtime's log, the timings, the runtime's status), which the browser tests
// read (and the curious may).

const script = document.getElementById("micrograd-runner");

/** Where the runtime is and what it needs (docs/_ext/browser_runner.py writes them). */
export const settings = {
  base: new URL(".", import.meta.url).href,
  pyodide: script.dataset.pyodide,
  viz: script.dataset.viz,
  marked: script.dataset.marked,
  d3: script.dataset.d3,
  plot: script.dataset.plot,
  wheels: script.dataset.wheels.split(" ").filter(Boolean),
  // What starting Python fetches (paths in the runner's folder), as the build listed it.
  startFiles: script.dataset.startFiles.split(" ").filter(Boolean),
};

/** What the first start downloads, in MB, as the build counted it. */
export const downloadMB = (Number(script.dataset.downloadBytes) / 1e6).toFixed(1);

/** The class of cells that run at build time only. */
export const buildOnlyClass = `tag_${script.dataset.buildOnlyTag}`;

export const runner = {
  cells: [],
  log: [],
  // Seconds since the first Run: Python ready, the first output, the first cell
  // done; phases: when each step of the first start happened (mark below).
  timings: {
    clicked: null, ready: null, firstOutput: null, firstDone: null, runs: [], phases: {},
  },
  status: "off", // off, starting, ready, crashed
};
window.microgradRunner = runner;

export const now = () => performance.now();

/** Seconds since the first Run (null before it). */
export const sinceFirstClick = () =>
  runner.timings.clicked === null ? null : (now() - runner.timings.clicked) / 1000;

/**
 * Note when a phase of the first start happened, in seconds since the first
 * Run (the first time only).  at: a time on this page's clock (performance.now).
 */
export function mark(phase, at = now()) {
  const { clicked, phases } = runner.timings;
  if (clicked !== null && !(phase in phases)) phases[phase] = (at - clicked) / 1000;
}
