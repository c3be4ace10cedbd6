// The worker's lifecycle: the page's one Python session (worker.js) is
// started on the first Run, torn down by Stop, Restart or a crash, and
// started again when needed.  What the worker says about itself (ready, the
// phases of its start, its console, a fatal error) is handled here; what it
// says about runs goes to the handler given to startSession (routing.js), its
// replies to requests (request) to whoever asked.  The session's state is
// runtime.js's; its teardown is runtime.teardown, which ends the worker here.
//
// The runtime's cache (runtime-cache.js, a service worker for the runner's
// folder only) makes a later start download nothing and need no connection.
// The first start does not wait for it: the worker starts at once, and the
// cache is registered meanwhile.  Once the first cell has run, what Python's
// start fetched (the build's list), viz.js and marked (the worker's later
// fetches) are copied into the cache (from the browser's HTTP cache when it
// kept them); a later start waits until that copy is done, and is then served
// by the cache.

import { TO_PAGE, TO_WORKER } from "./protocol.js";
import { Status, runtime } from "./runtime.js";
import { first, mark, records, settings } from "./state.js";

const CACHE = "micrograd-runtime"; // runtime-cache.js's Cache Storage
// The runtime's cache lives as long as the page, across sessions.
const cacheState = {
  registered: null, // a promise: the cache's service worker is registered (useRuntimeCache)
  keeping: null, // a promise: the runtime's files are being copied into the cache
};
// The worker's replies to a request: an analysis, an add-on's answer, a script.
const REPLIES = new Set([TO_PAGE.analysis, TO_PAGE.answer, TO_PAGE.script]);
const requests = new Map(); // request id -> resolve, for the worker's reply

/** The names the kernel's namespace starts with (glue, ...), once Python is ready. */
export const kernelNames = () => runtime.names;

/** Whether a session is starting or running. */
export const isStarted = () => runtime.ready !== null;

/** Resolves when Python is ready; rejects if it could not start. */
export const whenReady = () => runtime.ready;

// A teardown ends the worker, and every variable in it.
runtime.onTeardown(() => {
  if (runtime.worker !== null) runtime.worker.terminate();
  runtime.worker = null;
});

/**
 * Start a worker.  onMessage(message) hears what the worker says about runs; a
 * failure of the runtime is runtime.teardown("crashed", details), once.
 * glueFormats: {key: [format spec, ...]}, the formats the page shows each
 * glued value in (glue.js), for the kernel to format them.
 */
export function startSession(onMessage, glueFormats) {
  runtime.moveTo(Status.starting);
  document.documentElement.classList.add("runner-active");
  const mine = runtime.generation;
  const ready = (async () => {
    const cache = useRuntimeCache();
    if (cacheState.keeping !== null) await Promise.all([cache, cacheState.keeping]); // not the first start
    if (mine !== runtime.generation) return new Promise(() => {}); // ended before it started
    const thisWorker = new Worker(new URL("worker.js", settings.base), { type: "module" });
    mark("workerCreated");
    runtime.worker = thisWorker;
    await new Promise((resolve, reject) => {
      const fail = (message) => {
        runtime.teardown(Status.crashed, message);
        reject(new Error(message));
      };
      thisWorker.addEventListener("message", (event) => {
        if (runtime.worker !== thisWorker) return;
        const message = event.data;
        if (message.type === TO_PAGE.phases) {
          // The worker's phases of the start and of a run (state.js keeps the first of each).
          for (const [phase, at] of Object.entries(message.phases)) {
            mark(phase, at - performance.timeOrigin);
          }
        } else if (message.type === TO_PAGE.ready) {
          runtime.moveTo(Status.ready);
          runtime.names = message.names;
          first("ready");
          resolve();
        } else if (message.type === TO_PAGE.fatal) {
          fail(message.message);
        } else if (message.type === TO_PAGE.console) {
          records.log.push({ level: message.level, text: message.text });
        } else if (message.type === TO_PAGE.strayOutput) {
          records.log.push({ level: message.name, text: message.text });
        } else if (REPLIES.has(message.type)) {
          const answered = requests.get(message.request);
          requests.delete(message.request);
          if (answered) answered(message);
        } else {
          onMessage(message);
        }
      });
      thisWorker.addEventListener("error", (event) => {
        if (runtime.worker !== thisWorker) return;
        event.preventDefault();
        fail(event.message || "the worker could not start");
      });
      thisWorker.postMessage({ type: TO_WORKER.start, ...settings, glueFormats });
    });
  })();
  runtime.ready = ready;
  ready.catch(() => {}); // reported through the teardown's listeners
}

/** Send a message to the worker. */
export function post(message) {
  runtime.worker.postMessage(message);
}

/** Send a request to the worker ({type, ...fields}); resolves with the worker's reply. */
export function request(message) {
  return new Promise((resolve) => {
    const id = runtime.newId();
    requests.set(id, resolve);
    post({ ...message, request: id });
  });
}

/**
 * Register the runtime's cache (once; a browser without service workers, or
 * one that refuses them, fetches as it always does).  Resolves, true, when it
 * is active (a worker started from then on is one it serves); false when
 * there is none.
 */
function useRuntimeCache() {
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
    cacheState.registered.then((active) => active && mark("cacheActive"));
  }
  return cacheState.registered;
}

/** The runtime's files the cache keeps: Python's start (the build's list), viz.js, marked. */
const runtimeFiles = () => [...settings.startFiles, settings.viz, settings.marked]
  .map((file) => new URL(file, settings.base).href);

/**
 * Copy the runtime's files into the cache, once Python has run a cell (the
 * first start went to the network without it).  Each comes from the browser's
 * HTTP cache when it kept it, else from the network; what the cache holds
 * already is left as it is.  A failed copy (the connection lost) is tried
 * again after the next cell's run.
 */
export function keepRuntime() {
  if (cacheState.keeping === null) {
    cacheState.keeping = (async () => {
      if (!(await useRuntimeCache())) return;
      const cache = await caches.open(CACHE);
      await Promise.all(runtimeFiles().map(async (url) => {
        if (!(await cache.match(url))) await cache.add(new Request(url, { cache: "force-cache" }));
      }));
      mark("runtimeKept");
    })().catch(() => {
      cacheState.keeping = null;
    });
  }
  return cacheState.keeping;
}

/** Whether the cache holds what a start fetches (it then downloads nothing). */
async function runtimeCached() {
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
 * is one.  bytes: what this first Run fetches (the build counted it for the cell).
 */
export async function startingText(bytes) {
  if (await runtimeCached()) return "starting Python…";
  const size = Number.isFinite(bytes) ? `${(bytes / 1e6).toFixed(1)} MB, ` : "";
  return `downloading Python and what this run needs (${size}the first time only)…`;
}
