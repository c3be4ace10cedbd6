// The worker's lifecycle: the page's one Python session (worker.js) is
// started on the first Run, torn down by Stop, Restart or a crash, and
// started again when needed.  Everything the worker says goes to the
// handlers given to startSession; teardown is end().

import { runner, settings, sinceFirstClick } from "./state.js";

let worker = null;
let ready = null; // a promise, resolved when the worker can run cells
let generation = 0; // bumped at each teardown: cells that ran before must run again

/** The number of the current session (a cell that ran in an older one must run again). */
export const currentGeneration = () => generation;

/** Whether a worker exists (starting or ready). */
export const isStarted = () => worker !== null;

/** Resolves when Python is ready; rejects if it could not start. */
export const whenReady = () => ready;

/**
 * Start a worker.  handlers: {onMessage(message), onCrash(message)}; onCrash
 * is called (once) when the runtime fails, after the session has ended.
 */
export function startSession({ onMessage, onCrash }) {
  runner.status = "starting";
  document.documentElement.classList.add("runner-active");
  const thisWorker = new Worker(new URL("worker.js", settings.base), { type: "module" });
  worker = thisWorker;
  ready = new Promise((resolve, reject) => {
    const fail = (message) => {
      end("crashed");
      onCrash(message);
      reject(new Error(message));
    };
    thisWorker.addEventListener("message", (event) => {
      if (worker !== thisWorker) return;
      const message = event.data;
      if (message.type === "ready") {
        runner.status = "ready";
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
  });
  ready.catch(() => {}); // reported through onCrash
  thisWorker.postMessage({ type: "init", ...settings });
}

/** End the session: the worker and every variable in it are gone.  status: off or crashed. */
export function end(status = "off") {
  if (worker !== null) worker.terminate();
  worker = null;
  ready = null;
  runner.status = status;
  generation += 1;
}

/** Send a cell to the worker. */
export function post(message) {
  worker.postMessage(message);
}
