// Charts drawn in the reader's browser: a feature of the runner (the registry,
// ../registry.js), loaded with the first Run (or a reload that shows a saved run
// again).
//
// There is no matplotlib in the browser.  The book's kernel (kernel.py) shows
// a micrograd.viz.chart.Figure by its description instead, under the chart
// MIME type (mime_types.json): the description matplotlib draws at build time
// (data, limits, ticks and their labels, colours, legend entries), made by the same
// code.  This module draws it with Observable Plot (npm @observablehq/plot,
// with d3, which it needs: both pinned in package-lock.json and shipped by the
// build), loaded from this site the first time a chart is drawn.
//
// While a cell trains, this feature's kernel add-on (runtime.py) sends the chart of
// every TrainingLog the cell records to as the add-on message "live-chart": after
// the first row, then at most four times a second, and once more when the cell
// ends.  The cell's live chart, under its Run bar, is drawn again with each
// one, so the loss curve grows as the run goes; once the run's own output shows
// a chart (the cell displays its figure), that chart is the one the cell shows,
// and the live one goes.  records.liveCharts keeps each drawing ({cell, at:
// performance.now(), points}), for the browser tests.  What this keeps while the
// page is open is the session's (session.features, under "charts").

import {
  element, outputBody, recordShown,
} from "../../_static/runner/cells.js";
import MIME_TYPES from "../../_static/runner/mime_types.json" with { type: "json" };
import { installOnce, registerAddon, registerOutput } from "../../_static/runner/outputs.js";
import { now } from "../../_static/runner/session.js";

const SVG = "http://www.w3.org/2000/svg";
const PX_PER_INCH = 96; // a figure 3.5 inches wide is 336 CSS px, as the build's picture
const PX_PER_POINT = 96 / 72;
const INK = "#1f2328";
const FONT_PX = 13.33; // matplotlib's 10 pt labels
const LEGEND_ROW_PX = 22;
const LEGEND_ENTRY_PX = 160;
const TITLE_PX = 24;
const PADDING_PX = 16; // the figure's padding, left and right (runner.css)

// -- the library -------------------------------------------------------------------------------

function script(settings, path) {
  return new Promise((resolve, reject) => {
    const tag = document.createElement("script");
    tag.src = new URL(path, settings.base).href;
    tag.onload = resolve;
    tag.onerror = () => reject(new Error(`could not load ${path}`));
    document.head.append(tag);
  });
}

/** Observable Plot, loaded once (d3 first: Plot's bundle uses the global d3). */
function plotLibrary(charts) {
  const { settings } = charts;
  if (charts.library === null) {
    charts.library = script(settings, settings.d3)
      .then(() => script(settings, settings.plot))
      .then(() => window.Plot);
  }
  return charts.library;
}

// -- one chart ---------------------------------------------------------------------------------

/** A line's or a rule's stroke: its width, and matplotlib's dashes (3.7 on, 1.6 off, times the width). */
function stroke(mark) {
  const width = mark.width * PX_PER_POINT;
  const dashes = mark.dashed ? `${3.7 * width},${1.6 * width}` : undefined;
  return { stroke: mark.colour, strokeWidth: width, strokeDasharray: dashes };
}

/**
 * The chart's marks (micrograd.viz.chart's Chart.marks: lines, rules, points,
 * regions), as Plot's marks: the dicts matplotlib draws at build time.
 */
function marks(Plot, chart) {
  return chart.marks.flatMap((mark) => {
    if (mark.kind === "regions") return regionMarks(Plot, mark);
    if (mark.kind === "rule") return Plot.ruleY([mark.y], stroke(mark));
    // A line's or the points' coordinates (and the points' colours) are channels of their own.
    const at = { x: mark.x, y: mark.y, clip: true };
    if (mark.kind === "line") return Plot.line(mark.x, { ...at, ...stroke(mark) });
    const dot = { fill: mark.colours, stroke: mark.edge, r: (mark.size * PX_PER_POINT) / 2 };
    return Plot.dot(mark.x, { ...at, ...dot, strokeWidth: 0.5 * PX_PER_POINT });
  });
}

/**
 * The plane split where the score crosses 0: each side filled, and the line
 * between them, where the score interpolated linearly between grid points is
 * 0 (as matplotlib's contour).  Plot's contours put a grid's samples at the
 * centres of its cells, so the cells reach half a step beyond the first and
 * last samples; the chart's limits (the grid's) clip that half off.
 */
function regionMarks(Plot, mark) {
  // The cells of one axis's samples: from half a step before the first to half after the last.
  const cells = (values) => {
    const half = (values[values.length - 1] - values[0]) / (values.length - 1) / 2;
    return [values[0] - half, values[values.length - 1] + half];
  };
  const [x1, x2] = cells(mark.xs);
  const [y1, y2] = cells(mark.ys);
  const grid = { x1, x2, y1, y2, width: mark.xs.length, height: mark.ys.length, thresholds: [0], clip: true };
  const scores = mark.scores.flat();
  const side = (colour) => ({ ...grid, fill: colour, fillOpacity: mark.alpha, stroke: "none" });
  // A contour at 0 encloses the values >= 0: "below" is where -score >= 0 (score <= 0),
  // "above" where score > 0 (a score of exactly 0 counts as below, as in matplotlib).
  const out = [
    Plot.contour(scores.map((v) => -v), side(mark.below)),
    Plot.contour(scores.map((v) => (v > 0 ? v : Math.min(v, -Number.MIN_VALUE))), side(mark.above)),
  ];
  if (mark.boundary) {
    out.push(Plot.contour(scores, { ...grid, fill: "none", stroke: mark.boundary, strokeWidth: PX_PER_POINT }));
  }
  return out;
}

/** An SVG element with these attributes. */
function drawn(tag, attributes) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, String(value));
  return el;
}

/** A legend entry's swatch: a short line, a dot or a shaded patch, outlined as the marks are. */
function swatch(entry) {
  const svg = drawn("svg", { width: 24, height: 12, "aria-hidden": "true" });
  const outlined = { fill: entry.colour, stroke: entry.edge, "stroke-width": 0.7 };
  if (entry.shape === "point") svg.append(drawn("circle", { cx: 12, cy: 6, r: 4, ...outlined }));
  else if (entry.shape === "patch") {
    svg.append(drawn("rect", { x: 2, y: 1, width: 20, height: 10, "fill-opacity": entry.alpha, ...outlined }));
  } else {
    const line = { x1: 0, x2: 24, y1: 6, y2: 6, stroke: entry.colour, "stroke-width": 2 };
    svg.append(drawn("line", { ...line, "stroke-dasharray": entry.dashed ? "5,2" : "none" }));
  }
  return svg;
}

/**
 * How many columns the legend has: the chart's, for a legend in columns (below the
 * axes, as matplotlib puts it, or in more than one column); a legend that
 * matplotlib puts inside the axes goes above them here, its entries side by side
 * as far as they fit (about LEGEND_ENTRY_PX each).
 */
function legendColumns(chart, width) {
  if (chart.legend === "below" || chart.legend_columns > 1) return chart.legend_columns;
  return Math.max(1, Math.min(chart.legend_entries.length, Math.floor(width / LEGEND_ENTRY_PX)));
}

function legend(chart, columns) {
  const list = element("ul", "mg-chart-legend");
  list.style.setProperty("--mg-legend-columns", String(columns));
  for (const entry of chart.legend_entries) {
    const item = element("li", "mg-chart-legend-entry");
    item.append(swatch(entry), element("span", "", entry.label));
    list.append(item);
  }
  return list;
}

/** One chart: its title, its legend (above the axes, or below them) and the axes. */
function drawChart(Plot, chart, width, height) {
  const box = element("div", "mg-chart");
  if (chart.title !== null) box.append(element("div", "mg-chart-title", chart.title));
  const columns = legendColumns(chart, width);
  const entries = chart.legend_entries.length ? legend(chart, columns) : null;
  if (entries && chart.legend !== "below") box.append(entries);
  const titleLines = chart.title !== null ? chart.title.split("\n").length : 0;
  let axesHeight = height - TITLE_PX * titleLines;
  if (entries) axesHeight -= LEGEND_ROW_PX * Math.ceil(chart.legend_entries.length / columns);
  const axis = (range, ticks, labels, label) => ({
    domain: range,
    ticks,
    tickFormat: (tick) => labels[ticks.indexOf(tick)], // the description's: the build's picture's
    label: label || null,
    labelAnchor: "center",
    labelArrow: "none",
    grid: chart.grid,
  });
  const svg = Plot.plot({
    width,
    height: Math.max(120, Math.round(axesHeight)),
    marginLeft: 52,
    marginRight: 12,
    marginTop: 10,
    marginBottom: chart.x_label ? 42 : 26,
    style: { fontSize: `${FONT_PX}px`, background: "transparent", color: INK, overflow: "visible" },
    x: axis(chart.x_range, chart.x_ticks, chart.x_tick_labels, chart.x_label),
    y: axis(chart.y_range, chart.y_ticks, chart.y_tick_labels, chart.y_label),
    color: { type: "identity" }, // the description spells out every colour
    marks: [...marks(Plot, chart), Plot.frame({ stroke: INK })],
  });
  svg.classList.add("mg-chart-axes");
  svg.setAttribute("aria-hidden", "true");
  box.append(svg);
  if (entries && chart.legend === "below") box.append(entries);
  return box;
}

/**
 * The whole figure (one chart, or several one under the other), as one image
 * with a text alternative: the charts' own descriptions.  As wide as the
 * build's figure, or the column where that is narrower.
 */
async function drawFigure(charts, data, room) {
  const Plot = await plotLibrary(charts);
  const figure = typeof data === "string" ? JSON.parse(data) : data;
  const [inches, tall] = figure.size;
  const natural = Math.round(inches * PX_PER_INCH);
  const width = room > 0 ? Math.min(natural, Math.floor(room)) : natural;
  const each = (tall * PX_PER_INCH) / figure.charts.length;
  const box = element("div", "mg-chart-figure");
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", figure.charts.map((chart) => chart.description).join(" "));
  box.style.width = `${width + PADDING_PX}px`; // and at most the column's (runner.css)
  for (const chart of figure.charts) box.append(drawChart(Plot, chart, width, each));
  return box;
}

/** The room a chart has in the element it goes into: its width, less the figure's padding. */
const room = (container) => container.clientWidth - PADDING_PX;

/** Whether the cell's run shows a chart of its own (a display of the chart MIME type). */
const showsChart = (cell) => cell.shown.some((item) => item.kind === "display" && MIME_TYPES.chart in item.bundle);

/** Where the cell's output keeps its live chart (-1: it has none). */
const liveAt = (cell) => cell.shown.findIndex((kept) => kept.kind === "addon" && kept.name === "live-chart");

/** The cell's live chart goes: what it previewed, the run's own chart, is shown now. */
function dropLive(charts, cell) {
  charts.pending.delete(cell);
  const at = liveAt(cell);
  if (at >= 0) cell.shown.splice(at, 1);
  const live = cell.box && cell.box.body.querySelector(":scope > .runner-live-chart");
  if (live) live.remove();
}

async function show(charts, box, data, cell) {
  if (cell) dropLive(charts, cell);
  box.classList.add("runner-chart");
  box.textContent = "Drawing the chart…";
  try {
    box.replaceChildren(await drawFigure(charts, data, room(box)));
  } catch (error) {
    box.replaceChildren(element("pre", "runner-error", `Could not draw: ${error.message || error}`));
  }
}

// -- the live chart of a training cell ----------------------------------------------------------

function liveBox(cell) {
  const body = outputBody(cell);
  let box = body.querySelector(":scope > .runner-live-chart");
  if (!box) {
    box = element("figure", "runner-chart runner-live-chart");
    box.append(element("div", "runner-live-drawing"), element("figcaption", "runner-note"));
    body.append(box);
  }
  return box;
}

async function drawLive(charts, cell) {
  const { pending, drawing, records } = charts;
  drawing.add(cell);
  try {
    while (pending.has(cell)) {
      const { figure, points, restored } = pending.get(cell);
      pending.delete(cell);
      if (cell.shows !== "run") return; // a Reset or a new Python took the run's output away
      if (showsChart(cell)) return; // the run's own chart is shown: the live one is over
      const box = liveBox(cell);
      const drawn = await drawFigure(charts, figure, room(box.firstElementChild));
      if (!box.isConnected) return; // a new run or a Reset emptied the output meanwhile
      box.firstElementChild.replaceChildren(drawn);
      box.dataset.points = String(points);
      box.lastElementChild.textContent =
        `Your run's ${points} step${points === 1 ? "" : "s"}, drawn as it trains.`;
      if (!restored) records.liveCharts.push({ cell: cell.index, at: now(), points });
    }
  } catch (error) {
    const failed = element("pre", "runner-error", `Could not draw: ${error.message || error}`);
    if (cell.shows === "run" && !showsChart(cell)) liveBox(cell).replaceChildren(failed);
  } finally {
    drawing.delete(cell);
  }
}

/**
 * Draw charts for the session, once: the chart renderer and the live charts' add-on
 * messages.  Its state (session.features, under "charts") keeps the library, once
 * loaded, and each cell's newest live chart not drawn yet; records.liveCharts each
 * drawing.
 */
export const install = (session) => installOnce(session, "charts", () => {
  const charts = {
    settings: session.settings,
    records: session.records,
    library: null, // Observable Plot, once loaded
    pending: new Map(), // cell -> the newest {figure, points} not drawn yet
    drawing: new Set(), // cells whose live chart is being drawn
  };
  session.features.set("charts", charts);
  registerOutput(session, MIME_TYPES.chart, (box, data, output) => show(charts, box, data, output.cell));
  registerAddon(session, "live-chart", ({ figure, points }, run) => {
    if (!run.cell) return; // a hidden cell's training shows no chart
    if (showsChart(run.cell)) return; // the run's own chart is shown already
    // The newest drawing is what the output box shows, in the place of the first.
    recordShown(run.cell, { kind: "addon", name: "live-chart", fields: { figure, points } }, liveAt(run.cell));
    charts.pending.set(run.cell, { figure, points, restored: Boolean(run.restored) }); // only the newest counts
    if (!charts.drawing.has(run.cell)) drawLive(charts, run.cell);
  });
});
