// The worker's lifecycle: the page's one Python session (worker.js) is
// started on the first Run, torn down by Stop, Restart or a crash, and
// started again when needed.  Everything the worker says goes to the
// handlers given to startSession; teardown is end().  Before the first start,
// the runtime's cache (runtime-cache.js, a service worker for the runner's
// folder only) is put in place, so that a later start downloads nothing and
// needs no connection.

import { downloadMB, mark, runner, settings, sinceFirstClick } from "./state.js";

const CACHE = "micrograd-runtime"; // runtime-cache.js's Cache Storage
let worker = null;
let ready = null; // a promise, resolved when the worker can run cells
let session = 0; // bumped at each start and end: a start that was ended stops

/** Whether a session is starting or running. */
export const isStarted = () => ready !== null;

/** Resolves when Python is ready; rejects if it could not start. */
export const whenReady = () => ready;

/**
 * Start a worker.  handlers: {onMessage(message), onCrash(message)}; onCrash
 * is called (once) when the runtime fails, after the session has ended.
 */
export function startSession({ onMessage, onCrash }) {
  runner.status = "starting";
  document.documentElement.classList.add("runner-active");
  session += 1;
  const mine = session;
  ready = (async () => {
    await useRuntimeCache();
    mark("cacheRegistered");
    if (mine !== session) return new Promise(() => {}); // ended before it started
    const thisWorker = new Worker(new URL("worker.js", settings.base), { type: "module" });
    mark("workerCreated");
    worker = thisWorker;
    await new Promise((resolve, reject) => {
      const fail = (message) => {
        end("crashed");
        onCrash(message);
        reject(new Error(message));
      };
      thisWorker.addEventListener("message", (event) => {
        if (worker !== thisWorker) return;
        const message = event.data;
        // The worker's phases of the start and of a run (state.js keeps the first of each).
        for (const [phase, at] of Object.entries(message.phases || {})) {
          mark(phase, at - performance.timeOrigin);
        }
        if (message.type === "ready") {
          runner.status = "ready";
          runner.kernelNames = message.names;
          if (runner.timings.ready === null) runner.timings.ready = sinceFirstClick();
          resolve();
        } else if (message.type === "fatal") {
          fail(message.message);
        } else if (message.type === "log") {
          runner.log.push({ level: message.level, text: message.text });
        } else {
          onMessage(message);
        }
      });
      thisWorker.addEventListener("error", (event) => {
        if (worker !== thisWorker) return;
        event.preventDefault();
        fail(event.message || "the worker could not start");
      });
      thisWorker.postMessage({ type: "init", ...settings });
    });
  })();
  ready.catch(() => {}); // reported through onCrash
}

/** End the session: the worker and every variable in it are gone.  status: off or crashed. */
export function end(status = "off") {
  if (worker !== null) worker.terminate();
  worker = null;
  ready = null;
  session += 1;
  runner.status = status;
}

/** Send a message to the worker. */
export function post(message) {
  worker.postMessage(message);
}

/**
 * Register the runtime's cache (once; a browser without service workers, or
 * one that refuses them, fetches as it always does).  Waits until it is
 * active, so that the worker about to start is one it serves.
 */
let registered = null;
function useRuntimeCache() {
  if (registered === null) {
    registered = (async () => {
      if (!("serviceWorker" in navigator)) return;
      try {
        const registration = await navigator.serviceWorker.register(
          new URL("runtime-cache.js", settings.base), { scope: settings.base },
        );
        const pending = registration.installing || registration.waiting;
        if (registration.active && !pending) return;
        await new Promise((resolve) => {
          const check = () => pending.state === "activated" || pending.state === "redundant";
          if (check()) resolve();
          pending.addEventListener("statechange", () => check() && resolve());
          setTimeout(resolve, 5000); // never wait long for a cache
        });
      } catch {
        // No cache (a private mode that refuses service workers, a file:// page): fine.
      }
    })();
  }
  return registered;
}

/** Whether the runtime's big files are in the cache already (a start then downloads nothing). */
async function runtimeCached() {
  if (!("caches" in window)) return false;
  try {
    const cache = await caches.open(CACHE);
    const files = [`${settings.pyodide}pyodide.asm.wasm`, `${settings.pyodide}python_stdlib.zip`,
      ...settings.wheels];
    const found = await Promise.all(files.map((f) => cache.match(new URL(f, settings.base).href)));
    return found.every(Boolean);
  } catch {
    return false;
  }
}

/** The status of a cell waiting for Python: it names a download only when there is one. */
export async function startingText() {
  return (await runtimeCached())
    ? "starting Python…"
    : `downloading Python (${downloadMB} MB, the first time only)…`;
}
