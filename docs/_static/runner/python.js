// The page's Python: its worker's lifecycle (started on the first Run, ended by a
// teardown) and the runtime's cache, the requests the page sends it and their
// replies (an add-on's question among them), and the routing of its messages
// about runs to the cells they belong to.  Loaded by the first Run.

import { addonHandler } from "./outputs.js";
import { TO_PAGE, TO_WORKER } from "./protocol.js";
import {
  addDisplay, addLayout, addLayoutError, addStream, displayBox,
} from "./renderers.js";
import { Status, first, mark } from "./session.js";

// -- the worker's lifecycle -----------------------------------------------------------------------
// The worker's lifecycle: the page's one Python session (worker.js) is
// started on the first Run, torn down by Stop, Restart or a crash, and
// started again when needed.  What the worker says about itself (ready, the
// phases of its start, its console, a fatal error) is handled here; what it
// says about runs goes to the handler given to startSession (onMessage, below), its
// replies to requests (request) to whoever asked.  The session's state is
// session.js's (Session), given to each function; its teardown ends the worker.
//
// The runtime's cache (runtime-cache.js, a service worker for the runner's
// folder only) makes a later start download nothing and need no connection.
// The first start does not wait for it: the worker starts at once, and the
// cache is registered meanwhile.  Once the first cell has run, what Python's
// start fetched (the build's list), viz.js and marked (the worker's later
// fetches) are copied into the cache (from the browser's HTTP cache when it
// kept them); a later start waits until that copy is done, and is then served
// by the cache.

const CACHE = "micrograd-runtime"; // runtime-cache.js's Cache Storage
// The worker's replies to a request: an analysis, an add-on's answer, a script.
const REPLIES = Object.freeze([TO_PAGE.analysis, TO_PAGE.answer, TO_PAGE.script]);

/** Whether a session is starting or running. */
export const isStarted = (session) => session.ready !== null;

/**
 * What the worker is told of each feature's Python in it (the registry's worker):
 * [{name, answers, stepperMarkup}], as data (the worker imports no feature).
 */
export const workerSides = (registry) => registry.filter((f) => f.worker).map((f) => ({ name: f.name, ...f.worker }));

/**
 * Start a worker (session.makeWorker).  onMessage(message) hears what the worker
 * says about runs; a failure of the runtime is session.teardown("crashed",
 * details), once.  glueFormats: {key: [format spec, ...]}, the formats the page
 * shows each glued value in (glue.js), for the kernel to format them.
 */
export function startSession(session, onMessage, glueFormats) {
  const { records, settings } = session;
  session.moveTo(Status.starting);
  session.root.classList.add("runner-active");
  const mine = session.generation;
  const ready = (async () => {
    const cache = useRuntimeCache(session);
    if (session.cache.keeping !== null) await Promise.all([cache, session.cache.keeping]); // not the first start
    if (mine !== session.generation) return new Promise(() => {}); // ended before it started
    const thisWorker = session.makeWorker(new URL("worker.js", settings.base));
    mark(records, "workerCreated");
    session.worker = thisWorker;
    await new Promise((resolve, reject) => {
      const fail = (message) => {
        session.teardown(Status.crashed, message);
        reject(new Error(message));
      };
      thisWorker.addEventListener("message", (event) => {
        if (session.worker !== thisWorker) return;
        const message = event.data;
        if (message.type === TO_PAGE.phases) {
          // The worker's phases of the start and of a run (session.js keeps the first of each).
          for (const [phase, at] of Object.entries(message.phases)) {
            mark(records, phase, at - performance.timeOrigin);
          }
        } else if (message.type === TO_PAGE.ready) {
          session.moveTo(Status.ready);
          session.names = message.names;
          first(records, "ready");
          resolve();
        } else if (message.type === TO_PAGE.fatal) {
          fail(message.message);
        } else if (message.type === TO_PAGE.console) {
          records.log.push({ level: message.level, text: message.text });
        } else if (message.type === TO_PAGE.strayOutput) {
          records.log.push({ level: message.name, text: message.text });
        } else if (REPLIES.includes(message.type)) {
          const answered = session.requests.get(message.request);
          session.requests.delete(message.request);
          if (answered) answered(message);
        } else {
          onMessage(message);
        }
      });
      thisWorker.addEventListener("error", (event) => {
        if (session.worker !== thisWorker) return;
        event.preventDefault();
        fail(event.message || "the worker could not start");
      });
      thisWorker.postMessage({
        type: TO_WORKER.start, ...settings, glueFormats, features: workerSides(session.registry),
      });
    });
  })();
  session.ready = ready;
  ready.catch(() => {}); // reported through the teardown's listeners
}

/** Send a message to the worker. */
export function post(session, message) {
  session.worker.postMessage(message);
}

/** Send a request to the worker ({type, ...fields}); resolves with the worker's reply. */
export function request(session, message) {
  return new Promise((resolve) => {
    const id = session.newId();
    session.requests.set(id, resolve);
    post(session, { ...message, request: id });
  });
}

/**
 * Register the runtime's cache (once; a browser without service workers, or
 * one that refuses them, fetches as it always does).  Resolves, true, when it
 * is active (a worker started from then on is one it serves); false when
 * there is none.
 */
function useRuntimeCache(session) {
  const { cache: cacheState, records, settings } = session;
  if (cacheState.registered === null) {
    cacheState.registered = (async () => {
      if (!("serviceWorker" in navigator) || !("caches" in window)) return false;
      try {
        const registration = await navigator.serviceWorker.register(
          new URL("runtime-cache.js", settings.base), { scope: settings.base },
        );
        const pending = registration.installing || registration.waiting;
        if (registration.active && !pending) return true;
        return await new Promise((resolve) => {
          const check = () => pending.state === "activated" || pending.state === "redundant";
          const done = () => check() && resolve(pending.state === "activated");
          pending.addEventListener("statechange", done);
          done();
          setTimeout(() => resolve(false), 5000); // never wait long for a cache
        });
      } catch {
        return false; // a private mode that refuses service workers, a file:// page: fine
      }
    })();
    cacheState.registered.then((active) => active && mark(records, "cacheActive"));
  }
  return cacheState.registered;
}

/** The runtime's files the cache keeps: Python's start (the build's list), viz.js, marked. */
const runtimeFiles = (settings) => [...settings.startFiles, settings.viz, settings.marked]
  .map((file) => new URL(file, settings.base).href);

/**
 * Copy the runtime's files into the cache, once Python has run a cell (the
 * first start went to the network without it).  Each comes from the browser's
 * HTTP cache when it kept it, else from the network; what the cache holds
 * already is left as it is.  A failed copy (the connection lost) is tried
 * again after the next cell's run.
 */
export function keepRuntime(session) {
  const cacheState = session.cache;
  if (cacheState.keeping === null) {
    cacheState.keeping = (async () => {
      if (!(await useRuntimeCache(session))) return;
      const cache = await caches.open(CACHE);
      await Promise.all(runtimeFiles(session.settings).map(async (url) => {
        if (!(await cache.match(url))) await cache.add(new Request(url, { cache: "force-cache" }));
      }));
      mark(session.records, "runtimeKept");
    })().catch(() => {
      cacheState.keeping = null;
    });
  }
  return cacheState.keeping;
}

/** Whether the cache holds what a start fetches (it then downloads nothing). */
async function runtimeCached(session) {
  const { cache: cacheState, settings } = session;
  if (cacheState.keeping !== null) await cacheState.keeping;
  if (!("caches" in window)) return false;
  try {
    const cache = await caches.open(CACHE);
    const start = settings.startFiles.map((f) => new URL(f, settings.base).href);
    return (await Promise.all(start.map((url) => cache.match(url)))).every(Boolean);
  } catch {
    return false;
  }
}

/**
 * The status of a cell waiting for Python: it names a download only when there
 * is one.  bytes: what this first Run fetches, with what the runtime's cache then
 * keeps (the build counted it for the cell).
 */
export async function startingText(session, bytes) {
  if (await runtimeCached(session)) return "starting Python…";
  const size = Number.isFinite(bytes) ? `${(bytes / 1e6).toFixed(1)} MB, ` : "";
  return `downloading Python and the runner (${size}the first time only)…`;
}

// -- the worker's messages about runs -------------------------------------------------------------
// The routing of the worker's messages about runs: each message of the run in
// the worker goes to the cell it belongs to (outputs, the layouts that follow,
// add-on messages), the dataflow's news goes to the flow, and the run's end
// settles the promise the run queue waits on.  A message of a run that has
// ended, or was stopped, is dropped.  The messages: protocol.js.

/**
 * Send a run of `entry` (a flow entry, queue.js) to the worker.  Resolves with
 * {ok, error, changed} when it ends, or {ok: false, stopped: true} or
 * {ok: false, crashed: true} when a teardown abandons it (session.js).
 */
export function startRun(session, entry, {
  code, filename, watch, apart,
}) {
  const id = session.newId();
  return new Promise((resolve) => {
    session.startRun({ id, entry, changed: [], resolve });
    post(session, {
      type: TO_WORKER.run, run: id, code, filename, watch, apart,
    });
  });
}

/** The flow entry whose run is in the worker, or null. */
export const runningEntry = (session) => (session.current ? session.current.entry : null);

/**
 * Python's analysis of the page's code as it is now (snippets.py's runner_analysis, in
 * the worker): cells [{source, buildOnly}] -> for each, {names, watches, needs}.
 */
export function analyse(session, cells) {
  return request(session, { type: TO_WORKER.analyse, cells }).then((reply) => reply.cells);
}

/**
 * A cell of the page as a script, assembled by snippets.py in the worker from
 * {cells, index, page}; resolves with {text, error}.
 */
export function requestScript(session, fields) {
  return request(session, { type: TO_WORKER.script, ...fields });
}

/**
 * What each of the worker's messages about a run does: handle(session, message, run,
 * cell), run the session's current run, cell its Cell (null for a hidden cell, whose
 * outputs the page does not show).
 */
const RUN_MESSAGES = Object.freeze({
  [TO_PAGE.stream]: (session, m, run, cell) => cell && addStream(session, cell, m.name, m.text),
  [TO_PAGE.display]: (session, m, run, cell) => cell && addDisplay(session, cell, m.index, m.bundle),
  [TO_PAGE.laidOut]: (session, m, run, cell) => cell && addLayout(session, cell, m.index, m.html),
  [TO_PAGE.layoutFailed]: (session, m, run, cell) => cell && addLayoutError(cell, m.index, m.error),
  [TO_PAGE.changed]: (session, m, run) => {
    run.changed = m.names;
  },
  [TO_PAGE.done]: (session, m) => {
    const { resolve, changed } = session.finishRun();
    resolve({ ok: m.ok, error: m.error, changed });
  },
  [TO_PAGE.addon]: (session, m, run) => addonHandler(session, m.name)?.(m.fields, runContext(run.entry)),
});

/** What the worker says about runs (startSession hands over everything else). */
export function onMessage(session, message) {
  const current = session.current;
  if (current === null || message.run !== current.id) return; // a run that has ended
  const handle = RUN_MESSAGES[message.type];
  if (!handle) throw new Error(`runner: the worker sent a message of no known type: ${message.type}`);
  handle(session, message, current, current.entry.cell);
}

/** What an add-on's handler learns about the run a message belongs to (outputs.js). */
function runContext(entry) {
  const { cell } = entry;
  return { cell, code: entry.code, display: (index) => (cell ? displayBox(cell, index) : null) };
}

// -- an add-on's question --------------------------------------------------------------------------

/**
 * Ask the add-on's worker side a question (worker.js's registerAnswer there):
 * resolves with the answer's fields, between runs, once Python is running (run
 * a cell first); rejects with the worker's reason when there is none.
 */
export async function ask(session, addon, question, fields) {
  const answer = await request(session, { type: TO_WORKER.ask, addon, question, fields });
  if (answer.error !== null) throw new Error(answer.error);
  return answer.fields;
}
