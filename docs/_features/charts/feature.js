// What the runner core needs from charts (the registry, ../registry.js): its page
// module, loaded with the first Run, draws a chart a cell shows and the live chart
// of a training cell (records.liveCharts: each drawing).
export const FEATURE = Object.freeze({
  name: "charts",
  page: () => import("./charts.js"),
  loads: "run",
  records: "liveCharts",
});
