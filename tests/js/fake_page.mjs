// A page of the book in Node, for tests that drive the runner's real Session:
// the page's HTML as the build writes it (cells, glued numbers, claims, prompts,
// the runner's settings and the cell manifest) in a happy-dom window, and a fake
// worker whose "Python" is a few lines of JavaScript: it runs `name = expression`,
// print(...), glue(...), claim(...), raise, live_chart(points) and show_chart() (a
// training cell's live chart, and its own chart), and the calls hang() (a run that
// never ends until Stop) and crash() (the runtime dies), and it answers the page's
// requests (an analysis of edited code, a script, an exercise's check).
import { Window } from "happy-dom";

import MIME_TYPES from "../../docs/_static/runner/mime_types.json" with { type: "json" };
import { cell as manifestCell } from "./page.mjs";

/** A chart's description (micrograd.viz.chart's Figure.to_json), with no chart in it. */
const FIGURE = Object.freeze({ size: [5, 3], charts: [] });

const RUNNER = new URL("../../docs/_static/runner/", import.meta.url);

/** The runner's modules, imported once a window is in place (they read none on import). */
export async function runner(name) {
  return import(new URL(name, RUNNER).href);
}

/**
 * What the test says of the page's viewport, since happy-dom lays nothing out (and its
 * IntersectionObserver never calls back): near(el), whether `el` is near the viewport
 * (at first every element: a page that fits on one screen); the IntersectionObservers
 * made; and the idle callbacks asked for, which run when the test says (idleNow).
 */
class Viewport {
  constructor(near) {
    this.near = near;
    this.observers = new Set();
    this.idle = [];
  }
}

/**
 * An IntersectionObserver in `viewport`: it reports the elements it starts observing
 * together, a turn of the event loop later, as a browser reports them after its next
 * layout, and an element brought near (scrollNear).
 */
function observerIn(viewport) {
  return class {
    constructor(callback, options) {
      this.callback = callback;
      this.options = options;
      this.targets = new Set();
      this.fresh = [];
      viewport.observers.add(this);
    }

    observe(el) {
      this.targets.add(el);
      this.fresh.push(el);
      if (this.fresh.length === 1) setTimeout(() => this.report(this.fresh.splice(0)), 0);
    }

    unobserve(el) {
      this.targets.delete(el);
    }

    disconnect() {
      this.targets.clear();
    }

    report(elements) {
      const entries = elements.filter((el) => this.targets.has(el))
        .map((el) => ({ target: el, isIntersecting: viewport.near(el) }));
      if (entries.length) this.callback(entries, this);
    }
  };
}

/** Bring `el` near the viewport, as the reader's scrolling does; resolves once it is reported. */
export async function scrollNear(window, el) {
  const { viewport } = window;
  const before = viewport.near;
  viewport.near = (other) => other === el || before(other);
  for (const observer of viewport.observers) observer.report([el]);
  await new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
}

/** The browser is idle: run the idle callbacks asked for so far (and those they ask for). */
export function idleNow(window) {
  const { viewport } = window;
  while (viewport.idle.length) viewport.idle.shift()({ timeRemaining: () => 50, didTimeout: false });
}

/** The globals the runner's modules use at call time, from a window. */
function useWindow(window, near = () => true) {
  const viewport = new Viewport(near);
  window.viewport = viewport;
  window.requestIdleCallback = (callback) => viewport.idle.push(callback);
  globalThis.IntersectionObserver = observerIn(viewport);
  globalThis.window = window;
  globalThis.document = window.document;
  globalThis.CustomEvent = window.CustomEvent;
  globalThis.HTMLElement = window.HTMLElement;
  Object.defineProperty(globalThis, "navigator", { value: window.navigator, configurable: true, writable: true });
  globalThis.MutationObserver = window.MutationObserver;
  globalThis.getComputedStyle = window.getComputedStyle.bind(window);
  globalThis.getSelection = window.getSelection.bind(window);
  globalThis.requestAnimationFrame = window.requestAnimationFrame.bind(window);
  globalThis.cancelAnimationFrame = window.cancelAnimationFrame.bind(window);
}

const escapeHTML = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Facts of code in the fake Python: what `name = ...` lines define, what they read. */
function facts(source) {
  const defines = [];
  const uses = [];
  for (const line of source.split("\n")) {
    const assign = line.match(/^\s*([A-Za-z_]\w*)\s*=(?!=)(.*)$/);
    const read = assign ? assign[2] : line;
    for (const name of read.match(/\b[A-Za-z_]\w*\b/g) || []) {
      if (!KEYWORDS.includes(name) && !defines.includes(name) && !uses.includes(name)) uses.push(name);
    }
    if (assign && !defines.includes(assign[1])) defines.push(assign[1]);
  }
  return { defines, uses };
}
const KEYWORDS = Object.freeze([
  "print", "glue", "claim", "hang", "crash", "raise", "ValueError", "True", "False", "None",
  "live_chart", "show_chart",
]);

/**
 * A manifest's cells from short descriptions: {source, hidden, buildOnly, glue, anyInput}.
 * Each cell's facts and needs are the fake Python's (as snippets.py gives them).
 */
export function manifestOf(specs) {
  const defined = new Map(); // name -> the code of the last cell above that defines it
  return specs.map((spec, code) => {
    const { defines, uses } = facts(spec.source);
    const needs = [...new Set(uses.filter((n) => defined.has(n)).map((n) => defined.get(n)))].sort();
    for (const name of defines) defined.set(name, code);
    return manifestCell(spec.source, {
      defines, uses, needs, hidden: spec.hidden || false, buildOnly: spec.buildOnly || false,
      glue: spec.glue || [], anyInput: spec.anyInput || [],
    });
  });
}

/**
 * The page's HTML as the build writes it: each shown code cell (data-micrograd-cell:
 * its position in the manifest) with its build output, then `prose` (HTML).
 */
export function pageHTML(cells, {
  prose = "", track = null, title = "A page", teachScratch = false,
} = {}) {
  const shown = cells.map((c, code) => {
    if (c.hidden) return "";
    const tag = c.buildOnly ? " tag_build-only" : "";
    const exercise = c.exercise ? ` tag_exercise-${c.exercise}` : "";
    return `<section id="s${code}"><div class="cell${tag}${exercise}" data-micrograd-cell="${code}">` +
      `<div class="cell_input"><div class="highlight"><pre>${escapeHTML(c.source)}\n</pre></div></div>` +
      `<div class="cell_output"><pre>built ${code}</pre></div></div></section>`;
  }).join("\n");
  const manifest = { cells: manifestOf(cells), glueFormats: { total: [".1f"] }, teachScratch };
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body>
<article class="bd-article"><h1>${title}</h1>
${shown}
${prose}
</article>
${track ? `<div class="mg-track-progress"></div><script id="micrograd-track" type="application/json">${JSON.stringify(track)}</script>` : ""}
<script id="micrograd-runner" data-pyodide="pyodide/" data-viz="viz/viz.js" data-marked="marked/marked.esm.js"
 data-d3="d3/d3.min.js" data-plot="plot/plot.umd.min.js" data-wheels="micrograd-0.1-py3-none-any.whl"
 data-start-files="pyodide/pyodide.mjs" data-build-only-tag="build-only"></script>
<script id="micrograd-cells" type="application/json">${JSON.stringify(manifest)}</script>
</body></html>`;
}

/**
 * A stepper as the build writes it (micrograd.viz.stepper): its controls, its live
 * region and `frames` frames, each a caption and a drawing of one node; `pair` makes
 * it a pair's (the switch and the layout's words are the pair's own, not drawn here).
 */
export function stepperHTML(id, frames, { pair = false } = {}) {
  const drawn = Array.from({ length: frames }, (_, k) => `<figure class="mg-stepper-frame" data-frame="${k}">
<figcaption><span class="mg-stepper-number">Step ${k + 1} of ${frames}:</span> the words of step ${k + 1}.</figcaption>
<svg width="100pt" height="50pt" viewBox="0 0 100 50" class="micrograd-graph" role="img" aria-label="Step ${k + 1}">
<g class="node${k === 1 ? " mg-active" : ""}"><text font-size="14">a</text></g></svg></figure>`).join("\n");
  return `<div class="mg-stepper${pair ? " mg-stepper-pair" : ""}" id="${id}" role="group" aria-label="backward() on L"
 data-frames="${frames}"><div class="mg-stepper-controls" hidden>
<button type="button" class="mg-stepper-prev">Previous</button>
<span class="mg-stepper-status"></span>
<button type="button" class="mg-stepper-next">Next</button></div>
<p class="mg-stepper-live visually-hidden" aria-live="polite"></p>
${drawn}</div>`;
}

/**
 * The fake worker's Python: one namespace, shared by every run, as the kernel's.
 * answers: {check(fields)} for an exercise's Check.
 */
class FakePython {
  constructor(worker, answers) {
    this.worker = worker;
    this.answers = answers;
    this.namespace = {};
  }

  value(expression) {
    const names = Object.keys(this.namespace);
    const helpers = {
      True: true, False: false, None: null,
    };
    return new Function(...names, ...Object.keys(helpers), `return (${expression});`)(
      ...names.map((n) => this.namespace[n]), ...Object.values(helpers),
    );
  }

  run({ run, code, watch }) {
    const post = (message) => this.worker.send({ ...message, run });
    const watched = JSON.parse(watch);
    const changed = [];
    for (const line of code.split("\n")) {
      if (!line.trim() || line.trim().startsWith("#")) continue;
      if (line.trim() === "hang()") return; // never done: Stop ends it
      if (line.trim() === "crash()") {
        this.worker.send({ type: "console", level: "error", text: "Pyodide has suffered a fatal error." });
        this.worker.send({ type: "fatal", message: "RuntimeError: memory access out of bounds" });
        return;
      }
      let match = line.match(/^raise (\w+)\((.*)\)$/);
      if (match) {
        post({ type: "changed", names: changed });
        post({ type: "done", ok: false, error: `Traceback (most recent call last):\n${match[1]}: ${this.value(match[2])}` });
        return;
      }
      match = line.match(/^print\((.*)\)$/);
      if (match) {
        post({ type: "stream", name: "stdout", text: `${this.value(match[1])}\n` });
        continue;
      }
      match = line.match(/^glue\("(\w+)", (.*)\)$/);
      if (match) {
        post({ type: "addon", name: "glue", fields: { key: match[1], texts: { ".1f": this.value(match[2]).toFixed(1) } } });
        continue;
      }
      match = line.match(/^claim\("(\w+)", (.*)\)$/);
      if (match) {
        const holds = Boolean(this.value(match[2]));
        post({ type: "addon", name: "claim", fields: { key: match[1], holds, otherwise: !holds, about: "the total" } });
        continue;
      }
      match = line.match(/^live_chart\((\d+)\)$/);
      if (match) {
        // What the charts' kernel add-on sends while a cell trains: the log's chart so far.
        post({ type: "addon", name: "live-chart", fields: { figure: FIGURE, points: Number(match[1]) } });
        continue;
      }
      if (line.trim() === "show_chart()") {
        post({ type: "display", index: 0, bundle: { [MIME_TYPES.chart]: JSON.stringify(FIGURE), "text/plain": "<Figure>" } });
        continue;
      }
      match = line.match(/^display\((.*)\)$/);
      if (match) {
        post({ type: "display", index: 0, bundle: { "text/plain": String(this.value(match[1])) } });
        continue;
      }
      match = line.match(/^\s*([A-Za-z_]\w*)\s*=(.*)$/);
      if (!match) throw new Error(`the fake Python cannot run: ${line}`);
      this.namespace[match[1]] = this.value(match[2]);
      if (watched.includes(match[1]) && !changed.includes(match[1])) changed.push(match[1]);
    }
    post({ type: "changed", names: changed });
    post({ type: "done", ok: true, error: null });
  }

  receive(message) {
    const reply = (fields) => this.worker.send({ request: message.request, ...fields });
    switch (message.type) {
      case "start":
        this.worker.send({ type: "phases", phases: { workerStarted: performance.timeOrigin + performance.now() } });
        this.worker.send({ type: "ready", names: ["glue", "claim"] });
        break;
      case "run":
        try {
          this.run(message);
        } catch (error) {
          // JavaScript's error in the fake Python's code: the cell raised.
          this.worker.send({ type: "done", run: message.run, ok: false, error: `Traceback: ${error.message}` });
        }
        break;
      case "analyse":
        reply({
          type: "analysis",
          cells: manifestOf(message.cells.map((c) => ({ source: c.source, buildOnly: c.buildOnly })))
            .map(({ names, watches, needs }) => ({ names, watches, needs })),
        });
        break;
      case "script":
        reply({ type: "script", text: message.cells.slice(0, message.index + 1).map((c) => c.source).join("\n\n"), error: null });
        break;
      case "ask":
        try {
          reply({ type: "answer", fields: this.answers[message.question](message.fields, this.namespace), error: null });
        } catch (error) {
          reply({ type: "answer", fields: null, error: error.message });
        }
        break;
      default:
        throw new Error(`the fake worker got ${message.type}`);
    }
  }
}

/** A Worker that runs the fake Python; every one made is in `workers`. */
export class FakeWorker extends EventTarget {
  constructor(url, answers = {}) {
    super();
    this.url = String(url);
    this.python = new FakePython(this, answers);
    this.terminated = false;
    this.sent = [];
  }

  postMessage(message) {
    this.sent.push(message);
    setTimeout(() => {
      if (!this.terminated) this.python.receive(structuredClone(message));
    }, 0);
  }

  send(data) {
    if (this.terminated) return;
    const event = new Event("message");
    event.data = structuredClone(data);
    this.dispatchEvent(event);
  }

  terminate() {
    this.terminated = true;
  }
}

/**
 * A page in a fresh window, and the runner started on it (runner.js startRunner),
 * once its first screen is set up: {window, session, workers, storage}.  storage: a
 * localStorage to share with a later page (a reload), else the window's own.
 * near(el): whether `el` is near the viewport at first (Viewport; every element).
 */
export async function openPage(html, {
  storage = null, answers = {}, path = "/page.html", near = () => true,
} = {}) {
  // runner.js starts the runner on import where a page has its settings: a blank one has none.
  useWindow(new Window());
  await runner("runner.js");
  const window = new Window({ url: `http://localhost${path}` });
  window.document.write(html);
  useWindow(window, near);
  const { startRunner } = await runner("runner.js");
  const workers = [];
  const session = startRunner({
    document: window.document,
    base: "http://localhost/_static/runner/",
    makeWorker: (url) => {
      const worker = new FakeWorker(url, answers);
      workers.push(worker);
      return worker;
    },
    storage: storage || window.localStorage,
    path,
  });
  await new Promise((resolve) => {
    setTimeout(resolve, 0); // the first screen's report (Viewport)
  });
  return { window, session, workers, storage: storage || window.localStorage };
}

/** Resolves with the state cell `index`'s Run settles in (micrograd:cell-settled). */
export function settled(index) {
  return new Promise((resolve) => {
    const listen = (event) => {
      if (event.detail.cell !== index) return;
      globalThis.document.removeEventListener("micrograd:cell-settled", listen);
      resolve(event.detail.state);
    };
    globalThis.document.addEventListener("micrograd:cell-settled", listen);
  });
}

/** Resolves on the next micrograd:<name> event whose detail passes `test`. */
export function next(name, test = () => true) {
  return new Promise((resolve) => {
    const listen = (event) => {
      if (!test(event.detail)) return;
      globalThis.document.removeEventListener(`micrograd:${name}`, listen);
      resolve(event.detail);
    };
    globalThis.document.addEventListener(`micrograd:${name}`, listen);
  });
}

/** Resolves once nothing runs or waits: the queue's work (hidden followers too) is over. */
export async function idle(session) {
  while (session.current !== null || session.waiting.length > 0 || session.pumping !== -1) {
    await new Promise((resolve) => {
      setTimeout(resolve, 0);
    });
  }
}

/** Resolves once every change of the page's state is saved (pagestate.js). */
export async function saved(session) {
  const { allSaved } = await runner("pagestate.js");
  while (!allSaved(session)) {
    await new Promise((resolve) => {
      setTimeout(resolve, 10);
    });
  }
}

/** The text of cell `index`'s output box (what the run showed), or null. */
export const outputOf = (session, index) => {
  const { box } = session.cells[index];
  return box ? box.body.textContent : null;
};
