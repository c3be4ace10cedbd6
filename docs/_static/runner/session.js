// The page's one session, as one object (Session), made by runner.js at start-up
// from what the page gives it (the manifest, the root element, a worker factory,
// storage): the Python's status, its generation, the run in the worker, the queue
// of what the reader asked to run, and the one teardown every ending goes through
// (Stop, Restart, Reset page, a crash, the first Run after a crash); and every
// other thing the runner keeps while the page is open (the run history, the
// analysis, stale marks, notes, prompts, pending requests, and each feature's
// state under its name), which the modules that act on it read and change.  The modules hold no state of their
// own: each function is given the session.  Also here: the page's settings for
// the runner (the build wrote them on the runner's <script> element) and what
// the runner records of its work.  No DOM, no worker: Node's tests drive it.

// -- the page's settings, and what the runner records ---------------------------------------------
// The page's settings for the runner, as the build wrote them on the runner's
// <script> element, and what the runner records of its work (the timings of
// the first start and of every run, the runtime's console), which the browser
// tests read through runner.js.  Both belong to the session (Session, below).

/**
 * Where the runtime is and what it needs, from the runner's <script> element (its
 * data-* attributes: docs/_ext/browser_runner.py writes them); base: the runner's
 * folder's address.
 */
export function readSettings(script, base) {
  return {
    base,
    pyodide: script.dataset.pyodide,
    viz: script.dataset.viz,
    marked: script.dataset.marked,
    d3: script.dataset.d3,
    plot: script.dataset.plot,
    wheels: script.dataset.wheels.split(" ").filter(Boolean),
    // What starting Python fetches (paths in the runner's folder), as the build listed it.
    startFiles: script.dataset.startFiles.split(" ").filter(Boolean),
    /** The class of cells that run at build time only. */
    buildOnlyClass: `tag_${script.dataset.buildOnlyTag}`,
  };
}

/**
 * What the runner did, for the browser tests and the curious.  timings: seconds
 * since the first Run (Python ready, the first output, the first cell done), each
 * run ({cell, code, seconds, ok}), and the phases of the first start (mark below);
 * setUpMilliseconds: what the runner spent setting the page up at load (its start,
 * then its first screen: cells.js whenNear), in milliseconds, and firstScreen: how
 * many parts (elements) the first screen set up, and how many waited then; log:
 * what the runtime wrote to its console ({level, text}); and a list of each name
 * in `lists`, which the features record into (the registry's records: each
 * feature's own, docs/_features/registry.js).
 */
export const newRecords = (lists = []) => ({
  timings: {
    clicked: null,
    ready: null,
    firstOutput: null,
    firstDone: null,
    setUpMilliseconds: null,
    firstScreen: null,
    runs: [],
    phases: {},
  },
  log: [],
  ...Object.fromEntries(lists.map((name) => [name, []])),
});

export const now = () => performance.now();

/** Seconds since the first Run (null before it). */
export const sinceFirstClick = (records) =>
  records.timings.clicked === null ? null : (now() - records.timings.clicked) / 1000;

/**
 * Note when a phase of the first start happened, in seconds since the first
 * Run (the first time only).  at: a time on this page's clock (performance.now).
 */
export function mark(records, phase, at = now()) {
  const { clicked, phases } = records.timings;
  if (clicked !== null && !(phase in phases)) phases[phase] = (at - clicked) / 1000;
}

/** Note the first time something happened (ready, firstOutput, firstDone). */
export function first(records, what) {
  if (records.timings[what] === null) records.timings[what] = sinceFirstClick(records);
}

// -- the session ----------------------------------------------------------------------------------
// The page's one session, as one object (Session): what the page gave it (the
// manifest, the root element, a worker factory, storage), the Python's status,
// its generation, the run in the worker, the queue of what the reader asked to
// run, and the one teardown every ending goes through (Stop, Restart, Reset page,
// a crash, the first Run after a crash); and every other thing the runner keeps
// while the page is open (the run history, the analysis, stale marks, notes,
// prompts, pending requests, each feature's state), which the modules that act
// on it read and change here.  The modules hold no state of their own: each function
// is given the session.  No DOM, no worker: Node's tests drive it as it is.
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

/**
 * The page's one session: everything the runner knows while the page is open.
 * runner.js makes it at start-up from what the page gives it: page (its manifest's
 * text, the page's root element, makeWorker(url) that starts a worker, storage: the
 * browser's localStorage, or null where the browser refuses it) and settings
 * (readSettings, above).  Node's tests make their own, with a fake worker.
 */
export class Session {
  constructor({
    manifest = null, root = null, makeWorker = null, storage = null, settings = null, path = "/",
    registry = [],
  } = {}) {
    // What the page gave it.
    this.manifestText = manifest || "";
    this.manifest = manifest ? JSON.parse(manifest) : { cells: [] };
    this.root = root;
    this.makeWorker = makeWorker;
    this.storage = storage;
    this.settings = settings;
    this.path = path; // the page's address (its saved state is kept under it)
    // The features the runner takes part of, as the registry declares them
    // (docs/_features/registry.js: runner.js gives it), and the state each keeps
    // while the page is open, under its name (made by the feature: its own data).
    this.registry = registry;
    this.features = new Map(); // a feature's name -> its state
    this.records = newRecords(registry.filter((f) => f.records).map((f) => f.records));

    // The page's Python: its status, its generation, the run in the worker, the queue.
    this.status = Status.off;
    this.generation = 0; // bumped by each teardown
    this.current = null; // the run in the worker: {id, entry, changed, resolve}
    this.waiting = []; // the flow entries the reader asked to run, in click order
    this.pumping = -1; // the generation whose pump of the queue is going
    this.nextId = 1; // the next run or request id
    this.worker = null; // the Worker, while one runs
    this.ready = null; // a promise, resolved when Python can run cells (null: not started)
    this.names = []; // what the kernel's namespace starts with, once Python is ready
    this.requests = new Map(); // request id -> resolve, for the worker's reply (python.js)
    // The runtime's cache lives as long as the page, across Pythons (python.js).
    this.cache = { registered: null, keeping: null };
    this.listeners = []; // who hears a teardown

    // The page: its cells (cells.js), the flow (queue.js, once a Run loads it), and
    // what the run machinery keeps about them.
    this.cells = []; // the runnable cells, in page order
    this.scratch = null; // the scratch cell, once the page has one
    this.buildOnlyCells = []; // the build-only cells that show their code
    this.tools = []; // the add-ons' tools on every cell's bar: {make, buildOnly} (cells.js)
    // What is set up when it nears the viewport (cells.js whenNear): the observer,
    // each element's set-ups still waiting, the idle callback asked for, and whether
    // the first screen's set-up is still to come.
    this.lazy = { observer: null, waiting: new Map(), idle: null, firstScreen: true };
    this.flow = null; // the page's flow and run history (queue.js Flow)
    this.alsoRead = new Map(); // Cell -> Cells whose page code what follows its run reads
    this.stale = { shown: "", codes: [] }; // the stale marks drawn, as sent (queue.js)
    this.pendingNotes = new Map(); // cell -> notes for its next output box (queue.js)
    this.prompts = new Map(); // cell -> its open prompt {prompt, answer} (queue.js)
    this.editors = new Map(); // cell -> the promise of its editor (editor.js)
    this.renderers = []; // [mime, {show, laidOut}], in registration order (outputs.js)
    this.addons = new Map(); // add-on message name -> handle (outputs.js)
    this.installed = new Set(); // the add-ons set up for this session (outputs.js installOnce)

    // What the page keeps and the add-ons show.
    this.restored = null; // a promise: what a reload brings back is back (runner.js)
    this.pageState = { // what pagestate.js keeps of the page's state
      addons: new Map(), // an add-on's name -> {snapshot(), restore(saved), reset()}
      hooks: null, // {machinery(), restart()}: the queue module (null before a Run), Restart
      savedAddons: {}, // what a reload brought back for add-ons not registered yet
      proseLoaded: null, // a promise: the features that keep the prose's state are set up
      bar: null, // the page bar's parts
      refused: false, // the storage refused a write: said once
      timer: null, // a save waiting to start
      saving: false, // a save under way (it waits for the prose's state)
    };
    this.prose = null; // the Prose (outputs.js), once something needs it
    this.pairs = { layout: null, chosen: new Map() }; // the steppers' pairs (steppers.js)
  }

  /** Move to status `to`; a move the status machine does not allow throws. */
  moveTo(to) {
    if (!(to in NEXT)) throw new Error(`runner: no runtime status ${to}`);
    if (!allowed(this.status, to)) {
      throw new Error(`runner: the runtime cannot go from ${this.status} to ${to}`);
    }
    this.status = to;
  }

  /** Whether Python can take a run or a question now (ready, or running one). */
  isUp() {
    return this.status === Status.ready || this.status === Status.running;
  }

  /**
   * Whether a Run of `entry` is asked for already: it runs, or it waits in the queue.
   * Once its own run is over (`ran`), while the hidden cells after it still run as
   * part of the same request, a Run asks for a new run, which waits behind them.
   */
  asked(entry, ran) {
    if (this.current !== null && this.current.entry === entry) return true;
    const at = this.waiting.lastIndexOf(entry);
    return at > 0 || (at === 0 && !ran);
  }

  /** A new id for a run or a request to the worker. */
  newId() {
    return this.nextId++;
  }

  /** The run in the worker starts: {id, entry, changed, resolve}. */
  startRun(run) {
    this.moveTo(Status.running);
    this.current = run;
  }

  /** The run in the worker finished; returns it (null: none, it was abandoned). */
  finishRun() {
    const run = this.current;
    this.current = null;
    if (run !== null) this.moveTo(Status.ready);
    return run;
  }

  /** Hear each teardown: listen(reason, {interrupted, waited, details}). */
  onTeardown(listen) {
    this.listeners.push(listen);
  }

  /**
   * End the session's Python, whatever it was doing: the worker ends (and every
   * variable in it), the run in the worker is abandoned (its promise resolves with
   * {ok: false, [reason]: true}), the queue empties, the generation is bumped, and
   * the status is crashed (reason "crashed") or off.  The listeners then hear it,
   * in the order they registered, with what was interrupted (the run's entry, or
   * null), what waited (the queue) and details (what the runtime said, for a
   * crash).  Returns that same object.
   */
  teardown(reason = "off", details = "") {
    if (this.worker !== null) this.worker.terminate();
    this.worker = null;
    const run = this.current;
    this.current = null;
    const waited = this.waiting.splice(0);
    this.generation += 1;
    this.ready = null;
    this.status = reason === Status.crashed ? Status.crashed : Status.off;
    if (run !== null) run.resolve({ ok: false, [reason === Status.crashed ? "crashed" : "stopped"]: true });
    const ended = { interrupted: run === null ? null : run.entry, waited, details };
    for (const listen of this.listeners) listen(reason, ended);
    return ended;
  }
}
