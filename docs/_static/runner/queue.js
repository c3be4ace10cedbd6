// The run queue: Run on a cell runs, in page order, the cells above it that
// have not run in this Python session, then the cell itself, one at a time.
// It starts Python when needed, passes each run's messages to its cell, and
// says what happened when a cell raises, is stopped, or the runtime crashes.

import { emit, messageHandler } from "./api.js";
import { button, element } from "./dom.js";
import {
  freshOutput,
  makeEditable,
  markFromEarlierSession,
  setStatus,
  showNote,
  sourceOf,
} from "./cells.js";
import { addOutput, addTraceback, displayBox } from "./outputs.js";
import { currentGeneration, end, isStarted, post, startSession, whenReady } from "./session.js";
import { downloadMB, now, runner, sinceFirstClick } from "./state.js";

const queue = [];
let running = null; // {cell, id, edited, resolve}
let nextId = 1;

/** Run the cell (and the cells above it that have not run in this session). */
export function run(cell) {
  makeEditable(cell, run);
  if ((running && running.cell === cell) || queue.includes(cell)) return;
  if (runner.status === "crashed") endSession();
  for (const above of runner.cells) {
    if (above === cell) break;
    const busy = queue.includes(above) || (running && running.cell === above);
    if (above.ranIn !== currentGeneration() && !busy) enqueue(above);
  }
  enqueue(cell);
  pump();
}

/** Stop and Restart: end this Python (and whatever it was running) and start a fresh one. */
export function restart() {
  const interrupted = running;
  running = null;
  clearQueue("", "");
  endSession();
  if (interrupted) {
    setStatus(interrupted.cell, "stopped", "stopped");
    showNote(interrupted.cell, "runner-stopped",
      "Stopped. Python was restarted: variables from earlier cells are gone, Run runs them again.");
    interrupted.resolve({ ok: false, stopped: true });
  }
  start();
}

function enqueue(cell) {
  queue.push(cell);
  setStatus(cell, "queued", "queued");
}

/** Empty the queue, giving each cell that waited in it this status. */
function clearQueue(text, state) {
  for (const waiting of queue.splice(0)) setStatus(waiting, text, state);
}

/** The one teardown: Python is gone, and what cells computed in it is marked so. */
function endSession(status = "off") {
  end(status);
  for (const cell of runner.cells) markFromEarlierSession(cell);
}

function start() {
  startSession({ onMessage, onCrash });
  emit("restart");
}

async function pump() {
  if (running || queue.length === 0) return;
  const cell = queue[0];
  if (!isStarted()) startSession({ onMessage, onCrash });
  if (runner.status !== "ready") {
    cell.waiting = true;
    setStatus(cell, `starting Python (the first time, it downloads ${downloadMB} MB)…`, "starting");
    try {
      await whenReady();
    } catch {
      return; // onCrash has reported it
    } finally {
      cell.waiting = false;
    }
    if (queue[0] !== cell) return;
  }
  queue.shift();
  const clicked = now();
  const result = await runOne(cell);
  if (result.stopped || result.crashed) return;
  finished(cell, result, (now() - clicked) / 1000);
  pump();
}

function runOne(cell) {
  return new Promise((resolve) => {
    const id = nextId++;
    const code = sourceOf(cell);
    const edited = code !== cell.source;
    running = { cell, id, edited, resolve };
    setStatus(cell, "running…", "running");
    freshOutput(cell);
    emit("run-start", { cell: cell.index, edited });
    post({ type: "run", id, code, filename: cell.filename });
  });
}

function finished(cell, result, seconds) {
  cell.ranIn = currentGeneration();
  runner.timings.runs.push({ cell: cell.index, seconds, ok: result.ok });
  if (runner.timings.firstDone === null) runner.timings.firstDone = sinceFirstClick();
  if (result.ok) {
    setStatus(cell, `ran in ${seconds.toFixed(2)} s`, "ok");
  } else {
    addTraceback(cell, result.error);
    setStatus(cell, "raised an exception", "error");
    clearQueue("not run: a cell above raised an exception", "skipped");
  }
  cell.output.dataset.state = result.ok ? "ok" : "error";
  emit("run-done", { cell: cell.index, ok: result.ok, edited: result.edited });
}

/** What the worker says about a run: outputs, the end of it, or an add-on's message. */
function onMessage(message) {
  const hasRun = message.id !== undefined;
  if (hasRun && (!running || message.id !== running.id)) return; // a run that has ended
  if (message.type === "output") {
    addOutput(running.cell, message);
  } else if (message.type === "done") {
    const finish = running;
    running = null;
    finish.resolve({ ...message, edited: finish.edited });
  } else {
    const handle = messageHandler(message.type);
    if (!handle) return;
    const cell = hasRun ? running.cell : null;
    handle(message, hasRun ? { cell, display: (index) => displayBox(cell, index) } : null);
  }
}

/** The runtime failed: the cell that was running (or waiting for Python) says so. */
function onCrash(message) {
  const recent = runner.log.filter((entry) => entry.level === "error").map((e) => e.text);
  const cell = running ? running.cell : runner.cells.find((c) => c.waiting) || null;
  const finish = running;
  running = null;
  clearQueue("", "");
  for (const other of runner.cells) markFromEarlierSession(other);
  if (cell) {
    setStatus(cell, "crashed", "crashed");
    const note = showNote(cell, "runner-crashed",
      "The Python runtime crashed, and this page's Python state is lost. ");
    note.append(button("runner-restart", "Restart Python", () => {
      note.remove();
      endSession();
      start();
    }));
    if (/Maximum call stack size exceeded/.test(message)) {
      note.append(element("p", "", "The browser's stack ran out: freeing or walking a graph " +
        "a few thousand operations deep does that here, where native Python copes."));
    }
    note.append(element("pre", "runner-crash-details", [message, ...recent].join("\n")));
  }
  if (finish) finish.resolve({ ok: false, crashed: true });
}
