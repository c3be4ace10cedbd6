// The page's one Python session, as one object: its status, its generation,
// the run in the worker, the queue of what the reader asked to run, and the one
// teardown every ending goes through (Stop, Restart, Reset page, a crash, the
// first Run after a crash).  The modules that act on the session (session.js:
// the worker; routing.js: the run's messages; queue.js: what runs next;
// crash.js: what a crash shows) read and change it here, and hear a teardown
// through onTeardown.  No DOM, no worker: Node's tests drive it as it is.
//
// The status moves along
//   off -> starting -> ready <-> running
// and teardown(reason) ends it from any status: "crashed" (the runtime failed)
// leaves it crashed, any other reason off.  Each teardown bumps the generation:
// what was started in an older one (a start, a pump of the queue, a run) sees
// that it is over and stops.

/** What the page's Python is doing. */
export const Status = Object.freeze({
  off: "off", // none yet, or the last one ended
  starting: "starting", // the worker is fetching and starting Python
  ready: "ready", // Python waits for a run
  running: "running", // a run is in the worker
  crashed: "crashed", // the runtime failed; the next Run or Restart tears it down first
});

/** The statuses each status may move to, besides a teardown's. */
const NEXT = Object.freeze({
  [Status.off]: Object.freeze([Status.starting]),
  [Status.starting]: Object.freeze([Status.ready]),
  [Status.ready]: Object.freeze([Status.running]),
  [Status.running]: Object.freeze([Status.ready]),
  [Status.crashed]: Object.freeze([]),
});

/** Whether the status may move from `from` to `to` (not counting teardown). */
export const allowed = (from, to) => NEXT[from].includes(to);

/** A fresh runtime, off (the page has one: `runtime` below; the tests make their own). */
export function createRuntime() {
  const listeners = [];
  const runtime = {
    status: Status.off,
    generation: 0, // bumped by each teardown
    current: null, // the run in the worker: {id, entry, changed, resolve}
    waiting: [], // the flow entries the reader asked to run, in click order
    pumping: -1, // the generation whose pump of the queue is going
    nextId: 1, // the next run or request id
    worker: null, // the Worker, while one runs
    ready: null, // a promise, resolved when Python can run cells (null: not started)
    names: [], // what the kernel's namespace starts with, once Python is ready

    /** Move to status `to`; a move the status machine does not allow throws. */
    moveTo(to) {
      if (!(to in NEXT)) throw new Error(`runner: no runtime status ${to}`);
      if (!allowed(runtime.status, to)) {
        throw new Error(`runner: the runtime cannot go from ${runtime.status} to ${to}`);
      }
      runtime.status = to;
    },

    /** Whether Python can take a run or a question now (ready, or running one). */
    isUp: () => runtime.status === Status.ready || runtime.status === Status.running,

    /**
     * Whether a Run of `entry` is asked for already: it runs, or it waits in the queue.
     * Once its own run is over (`ran`), while the hidden cells after it still run as
     * part of the same request, a Run asks for a new run, which waits behind them.
     */
    asked(entry, ran) {
      if (runtime.current !== null && runtime.current.entry === entry) return true;
      const at = runtime.waiting.lastIndexOf(entry);
      return at > 0 || (at === 0 && !ran);
    },

    /** A new id for a run or a request to the worker. */
    newId: () => runtime.nextId++,

    /** The run in the worker starts: {id, entry, changed, resolve}. */
    startRun(run) {
      runtime.moveTo(Status.running);
      runtime.current = run;
    },

    /** The run in the worker finished; returns it (null: none, it was abandoned). */
    finishRun() {
      const run = runtime.current;
      runtime.current = null;
      if (run !== null) runtime.moveTo(Status.ready);
      return run;
    },

    /** Hear each teardown: listen(reason, {interrupted, waited, details}). */
    onTeardown(listen) {
      listeners.push(listen);
    },

    /**
     * End the session, whatever it was doing: the run in the worker is abandoned
     * (its promise resolves with {ok: false, [reason]: true}), the queue empties,
     * the generation is bumped, and the status is crashed (reason "crashed") or
     * off.  The listeners then hear it, in the order they registered, with what
     * was interrupted (the run's entry, or null), what waited (the queue) and
     * details (what the runtime said, for a crash).  Returns that same object.
     */
    teardown(reason = "off", details = "") {
      const run = runtime.current;
      runtime.current = null;
      const waited = runtime.waiting.splice(0);
      runtime.generation += 1;
      runtime.ready = null;
      runtime.status = reason === Status.crashed ? Status.crashed : Status.off;
      if (run !== null) run.resolve({ ok: false, [reason === Status.crashed ? "crashed" : "stopped"]: true });
      const ended = { interrupted: run === null ? null : run.entry, waited, details };
      for (const listen of listeners) listen(reason, ended);
      return ended;
    },
  };
  return runtime;
}

/** The page's runtime. */
export const runtime = createRuntime();
