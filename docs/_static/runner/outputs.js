// What a run shows in a cell: the runner's extension API (output renderers,
// add-on messages, the micrograd:* events), output rendering and the built-in
// renderers, a stepper's renderer, charts drawn in the browser (a training
// cell's live chart among them), and the notes a run leaves in a cell's output
// box, in words.  Loaded by the first Run (or a reload that shows a
// saved run again).

import {
  button, element, outputBody, recordOutput, recordShown,
} from "./cells.js";
import MIME_TYPES from "./mime_types.json" with { type: "json" };
import { first, now } from "./session.js";

// -- the extension API ----------------------------------------------------------------------------
// The runner's extension API: how an add-on module (a chart, a stepper, glued
// numbers in the prose) takes part in a run without editing the run queue or
// the worker's loop.  An add-on imports this module ("./outputs.js") and is
// imported by runner.js (page side) or worker.js (worker side).
//
// Each function is given the page's session (session.js), which keeps what is
// registered.
//
// registerOutput(session, mime, show, laidOut)
//     Show display outputs of this MIME type with show(box, data, output): box
//     is the output's empty element (div.runner-display, data-mime set), data
//     the bundle's entry for mime, output {bundle, index, cell}.  A bundle is
//     shown by the most recently registered renderer among its MIME types, so
//     an add-on's renderer wins over the built-in ones (Graphviz DOT, SVG,
//     HTML, Markdown, LaTeX, plain text: below).  When the worker has
//     laid the output out (worker.js), laidOut(box, html) puts the HTML in
//     (by default, as the box's content).
//
// registerAddon(session, name, handle)
//     The add-on messages of this name (kernel.py's post_message(name, **fields))
//     go to handle(fields, run): run is {cell, code, display(index)} (cell: the
//     Cell, null for a hidden cell; code: its index among all the page's code
//     cells, queue.js; display(index): the element of the run's index-th display
//     output, null for a hidden cell; restored: true when a reload shows a
//     saved run again, and the add-on recorded the message in the cell's
//     shown items, cells.js recordShown).  A message of a run that has ended or
//     was stopped is dropped.  Add-on names are their own namespace: they never
//     clash with the protocol's message types (protocol.js).
//
// ask(session, addon, question, fields), in python.js
//     Ask the add-on's worker side a question (worker.js's registerAnswer there):
//     resolves with the answer's fields, between runs, once Python is running
//     (run a cell first); rejects with the worker's reason when there is none.
//
// Events, CustomEvents dispatched on document.  In their details, cell is the
// cell's index among the runnable cells (null for a hidden cell), code its index
// among all the page's code cells, glue the keys of the values the cells glue
// into the text:
//     micrograd:run-start  {cell, code, edited}      a cell (hidden ones too) starts
//     micrograd:run-done   {cell, code, ok, edited}  it finished (ok: no exception)
//     micrograd:cell-settled {cell, state}           a runnable cell's Run ended: done,
//                                                     raised, skipped, stopped or crashed
//     micrograd:restart    {}                        the page's Python ended and a new
//                                                     one starts (Restart, Stop, or the
//                                                     first Run or Restart after a crash):
//                                                     show the build's values again
//     micrograd:reset      {cells, code, glue}       these cells' code and outputs are
//                                                     the build's again (Reset)
//     micrograd:stale      {cells, code, glue}       every cell whose shown output is
//                                                     stale now (an empty list: none);
//                                                     sent whenever that set changes
//
// On the worker side, registerLayout in worker.js adds a step that turns a
// display output into HTML once the cell has run.

const insertHTML = (box, html) => {
  box.innerHTML = html;
};

export function registerOutput(session, mime, show, laidOut = insertHTML) {
  session.renderers.push([mime, { show, laidOut }]);
}

export function registerAddon(session, name, handle) {
  if (session.addons.has(name)) throw new Error(`runner: add-on messages ${name} are already handled`);
  session.addons.set(name, handle);
}

/** The [mime, {show, laidOut}] for this bundle: the most recently registered of its types. */
export function rendererFor(session, bundle) {
  const { renderers } = session;
  for (let i = renderers.length - 1; i >= 0; i -= 1) {
    if (renderers[i][0] in bundle) return renderers[i];
  }
  return null;
}

export function addonHandler(session, name) {
  return session.addons.get(name) || null;
}

/**
 * Set an add-on up for the session once, however many times its module is asked
 * to (the first Run, and a reload that shows a saved run again, both do).
 */
export function installOnce(session, name, setUp) {
  if (session.installed.has(name)) return;
  session.installed.add(name);
  setUp();
}

/** Dispatch micrograd:<name> on document. */
export function emit(name, detail = {}) {
  document.dispatchEvent(new CustomEvent(`micrograd:${name}`, { detail }));
}

// -- what the prose shows of the reader's run: each key's state ----------------------------------
// What the prose shows of the reader's run: the values hidden cells send the
// page for its sentences (glued numbers and claims, each a feature's add-on:
// docs/_features/glue and claims), each under its key, with where it comes
// from, as data.  It lives here, with the extension API, rather than in one of
// those add-ons: the runner's own modules read every key's state (pagestate.js
// saves and restores it, queue.js says the words of what stays the build's,
// runner.js hands it to the browser tests), and a module of its own, shared by
// the two, would be a page module more than the runner keeps to
// (tests/site/test_site_helpers.py).  A key's state is
//   {value, from, stale, notRerun}
// value: the reader's value (null: the build's); from: "run" (this Python
// session) or "earlier-run" (a session that has ended, or a saved run brought
// back on reload); stale: the cells it was computed from have changed since;
// notRerun (only while stale, where it is so): it is the build's, computed from
// a build-only cell, and these shown cells it depends on are the reader's
// ([{number, edited}]: planner.notRerun).
// It follows the runner's events as the cells' outputs do, so that a sentence
// never says something the outputs around it no longer show:
//   micrograd:restart  the reader's values are from an earlier session now
//   micrograd:reset    {glue}: those keys are the build's again
//   micrograd:stale    {glue, notRerun}: exactly these keys are stale (notRerun:
//                      {key: cells} for those that stay the build's)
//
// Each change is the event micrograd:prose {key, state} on document.
// followKeys(owns, render) gives an add-on the keys it owns (owns(key)) and
// calls render(key, state) whenever one changes; its set(key, value) records
// the reader's value of a run.  snapshot() and restore() save and bring back
// every key's state (pagestate.js).  The keys' states are the session's:
// session.prose, a Prose (proseOf makes it the first time it is needed).

const BUILD = Object.freeze({ value: null, from: "build", stale: false });

/** What the prose shows of the reader's run, for one session. */
export class Prose {
  constructor() {
    this.followers = []; // {owns, render, states: Map key -> state}
    document.addEventListener("micrograd:restart", () => {
      for (const { states } of this.followers) {
        for (const [key, state] of states) {
          if (state.value !== null) this.update(key, { from: "earlier-run" });
        }
      }
    });
    document.addEventListener("micrograd:reset", (event) => {
      for (const key of event.detail.glue || []) this.update(key, { value: null, from: "build", stale: false });
    });
    document.addEventListener("micrograd:stale", (event) => {
      const stale = new Set(event.detail.glue || []);
      const notRerun = event.detail.notRerun || {};
      for (const { states } of this.followers) {
        for (const [key, state] of states) if (state.stale && !stale.has(key)) this.update(key, { stale: false });
      }
      for (const key of stale) this.update(key, { stale: true, notRerun: notRerun[key] || null });
    });
  }

  follower(key) {
    return this.followers.find((f) => f.owns(key)) || null;
  }

  update(key, change) {
    const owner = this.follower(key);
    if (!owner) return;
    const state = { ...(owner.states.get(key) || BUILD), ...change };
    if (!state.stale || !state.notRerun) delete state.notRerun;
    if (state.value === null && !state.stale) owner.states.delete(key);
    else owner.states.set(key, state);
    const shown = owner.states.get(key) || BUILD;
    owner.render(key, shown);
    document.dispatchEvent(new CustomEvent("micrograd:prose", { detail: { key, state: shown } }));
  }

  /** Follow the keys owns(key) says are the add-on's; render(key, state) shows one. */
  followKeys(owns, render) {
    const states = new Map();
    this.followers.push({ owns, render, states });
    return {
      /** A run's value for the key: the reader's, current. */
      set: (key, value) => this.update(key, { value, from: "run", stale: false }),
      /** The key's state now. */
      state: (key) => states.get(key) || BUILD,
    };
  }

  /** Every key's state that is not the build's: {key: {value, from, stale}}. */
  snapshot() {
    const saved = {};
    for (const { states } of this.followers) for (const [key, state] of states) saved[key] = state;
    return saved;
  }

  /** Bring saved states back (a reload): the reader's values are from an earlier session. */
  restore(saved) {
    for (const [key, state] of Object.entries(saved)) {
      this.update(key, { ...state, from: state.value === null ? "build" : "earlier-run" });
    }
  }

  /** Every key the build's again (Reset page). */
  resetAll() {
    for (const { states } of this.followers) {
      for (const key of [...states.keys()]) this.update(key, { value: null, from: "build", stale: false });
    }
  }
}

/** The session's Prose (made the first time). */
export function proseOf(session) {
  if (session.prose === null) session.prose = new Prose();
  return session.prose;
}

// -- output rendering -----------------------------------------------------------------------------
// Output rendering: what a running cell prints and displays, put into its
// output box.  Printed text is appended as it arrives; each displayed value
// gets a box (div.runner-display) filled by the renderer of its MIME type
// (registerOutput, above; the built-in ones are here).  Drawings and
// Markdown are laid out in the worker after the cell has run and arrive as
// HTML ("laid-out", protocol.js), which the same renderer puts in.

/** Append printed text to the cell's box. */
export function addStream(session, cell, name, text) {
  first(session.records, "firstOutput");
  recordOutput(cell, { kind: "stream", name, text });
  const body = outputBody(cell);
  recordShown(cell, { kind: "stream", name, text });
  let pre = body.lastElementChild;
  if (!pre || !pre.classList.contains("runner-stream")) {
    pre = element("pre", "runner-stream");
    body.append(pre);
  }
  pre.append(element("span", name === "stderr" ? "runner-stderr" : "", text));
}

/** Append the run's index-th displayed value ({mime: data}) to the cell's box. */
export function addDisplay(session, cell, index, bundle) {
  first(session.records, "firstOutput");
  const [mime, { show }] = rendererFor(session, bundle);
  const data = bundle[mime];
  recordOutput(cell, { kind: "display", mime, data, bundle });
  const box = element("div", "runner-display");
  box.dataset.mime = mime;
  box.dataset.index = index;
  outputBody(cell).append(box);
  recordShown(cell, { kind: "display", index, bundle });
  show(box, data, { bundle, index, cell });
}

/** The box of the cell's index-th display output (null if there is none). */
export function displayBox(cell, index) {
  if (!cell.box) return null;
  return cell.box.body.querySelector(`.runner-display[data-index="${index}"]`);
}

/** The worker laid the index-th display out: its renderer puts the HTML in. */
export function addLayout(session, cell, index, html) {
  const box = displayBox(cell, index);
  if (!box) return;
  recordShown(cell, { kind: "layout", index, html });
  const [, { laidOut }] = rendererFor(session, { [box.dataset.mime]: null });
  laidOut(box, html);
}

/** Laying out the index-th display failed: say so in its box. */
export function addLayoutError(cell, index, error) {
  const box = displayBox(cell, index);
  if (!box) return;
  recordShown(cell, { kind: "layout-error", index, error });
  box.replaceChildren(element("pre", "runner-error", `Could not draw: ${error}`));
}

/** The exception's traceback, under what the cell showed. */
export function addTraceback(cell, text) {
  outputBody(cell).append(element("pre", "runner-error", text));
  recordShown(cell, { kind: "traceback", text });
}

/** Show one item of a saved output box again (cells.js's Cell.shown) by what showed it. */
export function showAgain(session, cell, item) {
  if (item.kind === "stream") addStream(session, cell, item.name, item.text);
  else if (item.kind === "display") addDisplay(session, cell, item.index, item.bundle);
  else if (item.kind === "layout") addLayout(session, cell, item.index, item.html);
  else if (item.kind === "layout-error") addLayoutError(cell, item.index, item.error);
  else if (item.kind === "traceback") addTraceback(cell, item.text);
  else return false;
  return true;
}

// -- built-in renderers: registered from least to most preferred --------------------------------

const asText = (box, data) => box.append(element("pre", "", data));
const asMarkup = (box, data) => {
  box.innerHTML = data;
};

/**
 * Register the built-in renderers with the session, before any add-on's (an
 * add-on's renderer of a bundle that also has text/plain must win: it is
 * registered after these).
 */
function registerBuiltIns(session) {
  registerOutput(session, "text/plain", asText);
  registerOutput(session, "text/latex", asText);
  registerOutput(
    session,
    "text/markdown",
    (box, data) => {
      box.textContent = data; // until the worker lays it out as HTML
    },
    (box, html) => {
      box.innerHTML = html;
      for (const table of box.querySelectorAll("table")) table.classList.add("table");
    },
  );
  registerOutput(session, "text/html", asMarkup);
  registerOutput(session, "image/svg+xml", asMarkup);
  registerOutput(
    session,
    MIME_TYPES.graphviz,
    (box) => {
      box.classList.add("runner-drawing");
      box.textContent = "Laying out the drawing…";
    },
    (box, svg) => {
      box.innerHTML = svg;
      // The class of the build's inline graphs: it fits the column as they do, and
      // opens full size when shown smaller (micrograd-figures.css and .js).
      const drawing = box.querySelector("svg");
      if (drawing) drawing.classList.add("micrograd-graph");
    },
  );
}

// -- a stepper made in the reader's browser -------------------------------------------------------
// Steppers made in the reader's browser.
//
// A stepper a cell displays (the book's kernel shows it by its data, under the
// stepper MIME type of mime_types.json) is laid out in the worker
// (worker.js) and arrives as the same HTML the build makes; the steppers' module
// (docs/_features/steppers/) sets it up as it does the build's steppers.

/**
 * The renderers of the session, once (the first Run, or a reload that shows a
 * saved run again, sets them up): the built-in ones, a stepper's and a chart's.
 */
export const install = (session) => installOnce(session, "outputs", () => {
  // The built-in renderers register first, so that these, registered after
  // them, are the ones a stepper's or a chart's bundle (JSON and text/plain) is
  // shown by.
  registerBuiltIns(session);
  registerOutput(session, MIME_TYPES.stepper, (box) => {
    box.classList.add("runner-stepper");
    box.textContent = "Laying out the stepper…";
  }, (box, html) => {
    box.innerHTML = html;
    import("../../_features/steppers/steppers.js").then((steppers) => steppers.setUpSteppers(session, box));
  });
  installCharts(session);
});

// -- charts drawn in the reader's browser ---------------------------------------------------------
// A built-in renderer rather than an add-on module of its own: every first Run
// loads it with this module anyway, and the runner keeps to a few page modules
// (tests/site/test_site_helpers.py), whose room goes to the features' add-ons.
//
// There is no matplotlib in the browser.  The book's kernel (kernel.py) shows
// a micrograd.viz.chart.Figure by its description instead, under the chart
// MIME type (mime_types.json): the description matplotlib draws at build time
// (data, limits, ticks and their labels, colours, legend entries), made by the same
// code.  This module draws it with Observable Plot (npm @observablehq/plot,
// with d3, which it needs: both pinned in package-lock.json and shipped by the
// build), loaded from this site the first time a chart is drawn.
//
// While a cell trains, the kernel's live_charts.py sends the chart of every
// TrainingLog the cell records to as the add-on message "live-chart": after
// the first row, then at most four times a second, and once more when the cell
// ends.  The cell's live chart, under its Run bar, is drawn again with each
// one, so the loss curve grows as the run goes.  records.liveCharts keeps each
// drawing ({cell, at: performance.now(), points}), for the browser tests.
const SVG = "http://www.w3.org/2000/svg";
const PX_PER_INCH = 96; // a figure 5 inches wide is 480 CSS px, as the build's picture
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
  const nx = mark.xs.length;
  const ny = mark.ys.length;
  const dx = (mark.xs[nx - 1] - mark.xs[0]) / (nx - 1);
  const dy = (mark.ys[ny - 1] - mark.ys[0]) / (ny - 1);
  const grid = {
    x1: mark.xs[0] - dx / 2,
    x2: mark.xs[nx - 1] + dx / 2,
    y1: mark.ys[0] - dy / 2,
    y2: mark.ys[ny - 1] + dy / 2,
    width: nx,
    height: ny,
    thresholds: [0],
    clip: true,
  };
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

async function show(charts, box, data) {
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
    if (cell.shows === "run") liveBox(cell).replaceChildren(failed);
  } finally {
    drawing.delete(cell);
  }
}

/**
 * Draw charts for the session: the chart renderer and the live charts' add-on
 * messages.  session.charts keeps the library, once loaded, and each cell's
 * newest live chart not drawn yet; records.liveCharts each drawing.
 */
function installCharts(session) {
  const charts = {
    settings: session.settings,
    records: session.records,
    library: null, // Observable Plot, once loaded
    pending: new Map(), // cell -> the newest {figure, points} not drawn yet
    drawing: new Set(), // cells whose live chart is being drawn
  };
  session.charts = charts;
  registerOutput(session, MIME_TYPES.chart, (box, data) => show(charts, box, data));
  registerAddon(session, "live-chart", ({ figure, points }, run) => {
    if (!run.cell) return; // a hidden cell's training shows no chart
    // The newest drawing is what the output box shows, in the place of the first.
    const item = { kind: "addon", name: "live-chart", fields: { figure, points } };
    const at = run.cell.shown.findIndex((kept) => kept.kind === "addon" && kept.name === "live-chart");
    recordShown(run.cell, item, at);
    charts.pending.set(run.cell, { figure, points, restored: Boolean(run.restored) }); // only the newest counts
    if (!charts.drawing.has(run.cell)) drawLive(charts, run.cell);
  });
}

// -- what a run says, in words --------------------------------------------------------------------
// What the runner tells the reader about a run, in words: what a cell is
// called, and the notes a run leaves in a cell's output box (the cells it ran
// again first and why, the ones it left out, a hidden cell that raised, a
// Stop, a crash).  The run queue (queue.js) decides when; this module says it.

/** What the reader calls an entry of the flow: "cell 3", or "the hidden cell after cell 3". */
export function nameOf(entry) {
  if (entry.cell) return entry.cell.name;
  if (entry.after && entry.after.cell) return `the hidden cell after ${entry.after.cell.name}`;
  return "a hidden cell at the top of the page";
}

export const capital = (text) => `${text[0].toUpperCase()}${text.slice(1)}`;

/** The visible cell where news about an entry goes (a hidden cell's: the one above it). */
export const shownAt = (entry) => entry.cell || (entry.after && entry.after.cell) || null;

/** A note in the cell's output box, under what it shows. */
export function addNote(cell, className, text) {
  return showNote(cell, { kind: "note", className, text, error: null });
}

/**
 * A note in the cell's output box, from its data: {kind: "note", className, text,
 * error (a traceback under the words, or null)}.  The same data shows it again
 * after a reload.
 */
export function showNote(cell, item) {
  const note = element("div", `runner-note ${item.className}`, item.text);
  if (item.error !== null) note.append(element("pre", "runner-error", item.error));
  outputBody(cell).append(note);
  recordShown(cell, item);
  return note;
}

/** Why a run ran cells above again first (plan.rerun, queue.js). */
export function rerunText(rerun, entry, codeCells) {
  const shown = rerun.cells.map((code) => codeCells[code]).filter((c) => c.cell);
  const hidden = rerun.cells.length - shown.length;
  const numbers = shown.map((c) => c.cell.number);
  let which = numbers.length === 0 ? "" : `cell${numbers.length > 1 ? "s" : ""} ${span(numbers)}`;
  if (hidden) which += `${which ? " and " : ""}${hidden} hidden cell${hidden > 1 ? "s" : ""}`;
  const names = rerun.names.slice(0, 3).join(", ") + (rerun.names.length > 3 ? ", …" : "");
  const by = rerun.by;
  const changed = rerun.names[0];
  const cause = by === Infinity ? `a Reset put back the code whose run had changed ${changed}`
    : by === entry.code ? `this cell's last run changed ${changed}`
      : by > entry.code ? `a later run of ${nameOf(codeCells[by])} changed ${changed}`
        : `${nameOf(codeCells[by])}, run again after the cells below it, changed ${changed}`;
  return `Re-ran ${which} first, which define${shown.length + hidden > 1 ? "" : "s"} ` +
    `${names}, because ${cause}: this run starts from the state the page defines.`;
}

/** The cells a run left out: they stopped or crashed Python, and this cell does not need them. */
export function leftOutText(entries) {
  const names = entries.map(nameOf).join(", ");
  return `Not run again: ${names} (it stopped or crashed Python the last time it ran); this ` +
    "cell does not need it.";
}

/** "2-4, 6" for [2, 3, 4, 6]. */
function span(numbers) {
  const parts = [];
  for (let i = 0; i < numbers.length; i += 1) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 1) j += 1;
    parts.push(j > i ? `${numbers[i]}–${numbers[j]}` : `${numbers[i]}`);
    i = j;
  }
  return parts.join(", ");
}

/**
 * What an output that stays the build's says once a cell it depends on is one
 * the reader changed (planner.notRerun): notRerun, those cells, [{number,
 * edited}] (edited: the reader edited it; else it ran from the reader's values).
 */
export function notRerunWords(notRerun) {
  const names = (list) => {
    const numbers = list.map((c) => c.number);
    const listed = numbers.length === 1 ? `${numbers[0]}`
      : `${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`;
    return `${numbers.length === 1 ? "cell" : "cells"} ${listed}`;
  };
  const edited = notRerun.filter((c) => c.edited);
  const one = (edited.length || notRerun.length) === 1;
  const why = edited.length > 0
    ? `${names(edited)}, which you changed`
    : `${names(notRerun)}, which ${one ? "was" : "were"} run from your changes`;
  return `from the build, not re-run: depends on ${why}`;
}

/** The same, as a sentence of its own (a cell's note, a glued number's words). */
export function notRerunNote(notRerun) {
  const words = notRerunWords(notRerun);
  return `${words[0].toUpperCase()}${words.slice(1)}.`;
}

/** A hidden cell raised: the note that says so (the text keeps the build's numbers), as data. */
export function hiddenErrorNote(entry, error) {
  return {
    kind: "note",
    className: "runner-hidden-error",
    text: `${capital(nameOf(entry))} (it computes numbers for the text) raised an exception; ` +
      "the text keeps the build's numbers:",
    error,
  };
}

/** The note of a run that Stop (or Restart) ended. */
export function stoppedText(entry) {
  return `Stopped ${nameOf(entry)}. Python was restarted: the variables of earlier cells are ` +
    "gone, and Run runs the cells above again (this one only if you run it or say so).";
}

/**
 * The note of a crash, in the cell where it is news: what crashed, what the reader
 * can do (a Restart button: restart()), and what the runtime said (details).
 */
export function addCrashNote(cell, crashed, details, restart) {
  const which = crashed ? nameOf(crashed) : "starting Python";
  showCrashNote(cell, { kind: "crash", which, blamed: Boolean(crashed), details }, restart);
  return which;
}

/**
 * The note of a crash, from its data: {kind: "crash", which (what was running),
 * blamed (whether a cell crashed it), details}.  The same data shows it again
 * after a reload.
 */
export function showCrashNote(cell, item, restart) {
  const { which, blamed, details } = item;
  const note = element("div", "runner-note runner-crashed",
    `Python crashed while running ${which}, and this page's variables are gone. ` +
    "What you can do: Restart Python, then Run. " +
    (blamed ? `${capital(which)} will not run again by itself: run it yourself, or edit it ` +
      "first. " : ""));
  outputBody(cell).append(note);
  recordShown(cell, item);
  const again = button("runner-restart", "Restart Python", () => {
    again.remove();
    restart();
  });
  note.append(again);
  if (/Maximum call stack size exceeded/.test(details)) {
    note.append(element("p", "", "The browser's stack ran out: a recursion through " +
      "Python's C code, or freeing a very deep structure, does that here."));
  }
  note.append(element("pre", "runner-crash-details", details));
}
