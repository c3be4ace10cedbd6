// The run queue.  Run on a cell runs, in page order, what the page's flow
// says must run first (flow.js: the cells above it that have not run in this
// Python session, hidden ones included, and, when a run out of the page's
// order changed what the cell depends on, the cells above that define it),
// then the cell, then the hidden cells right after it (so that the numbers
// they glue into the prose follow at once).  One run at a time.
//
// It starts Python when needed, passes each run's messages to its cell, and
// says what happened: a raise, a Stop, a crash.  A cell that crashed Python
// or was stopped is not run again by itself: Run on a cell below it asks the
// reader to run it, skip it or edit it (or goes on without it when the cell
// below does not need it).

import { emit, messageHandler } from "./api.js";
import {
  addNote,
  announce,
  bringIntoView,
  freshOutput,
  markFromEarlierSession,
  markStale,
  removeOutput,
  setStatus,
} from "./cells.js";
import { button, element } from "./dom.js";
import { openEditor } from "./editor.js";
import * as flow from "./flow.js";
import { addOutput, addTraceback, displayBox } from "./outputs.js";
import {
  end, isStarted, keepRuntime, post, startSession, startingText, whenReady,
} from "./session.js";
import { mark, now, runner, sinceFirstClick } from "./state.js";

const queue = []; // the cells (flow entries) the reader asked to run, in click order
let running = null; // {entry, id, resolve}: the run in the worker
let nextId = 1;
let epoch = 0; // bumped when Python ends: a pump of an older epoch stops
let pumping = -1; // the epoch whose pump is going
const analyses = new Map(); // id -> resolve, for "analyse" requests

flow.linkCells(runner.cells);

const entryOf = (cell) => cell.entry;
const uiOf = (entry) => entry.ui;
/** What the reader calls a cell: "cell 3", or "a hidden cell after cell 3". */
const nameOf = (entry) =>
  entry.ui ? entry.ui.name
    : entry.after && entry.after.ui ? `the hidden cell after ${entry.after.ui.name}`
      : "a hidden cell at the top of the page";
/** The visible cell where news about a cell goes (a hidden cell's: the one above it). */
const shownAt = (entry, fallback) => entry.ui || (entry.after && entry.after.ui) || fallback;

// -- what the reader does ---------------------------------------------------------------------

/** Run: the cell, after what it needs (see the top of this module). */
export function run(cell) {
  openEditor(cell, run);
  const entry = entryOf(cell);
  if ((running && running.entry === entry) || queue.includes(entry)) return;
  if (runner.status === "crashed") endSession();
  queue.push(entry);
  setStatus(cell, "queued", "queued");
  announce(`${cell.name}: queued`);
  pump();
}

/** Stop: a cell that runs (or runs what it needs) ends Python; a waiting one leaves the queue. */
export function stop(cell) {
  const entry = entryOf(cell);
  if (cell.state === "waiting" && cell.answer) {
    cell.answer("stop");
    return;
  }
  if ((running && queue[0] === entry) || (running && running.entry === entry)
    || cell.state === "starting") {
    const waited = !(running && running.entry === entry); // for Python, or for a cell above
    restart();
    if (waited) {
      setStatus(cell, "not run: stopped while it waited", "stopped");
      announce(`${cell.name}: stopped`);
    }
    return;
  }
  const at = queue.indexOf(entry);
  if (at >= 0) queue.splice(at, 1);
  setStatus(cell, "not run: stopped while it waited", "stopped");
  announce(`${cell.name}: stopped`);
}

/** Restart: end this Python (and whatever it was running) and start a fresh one. */
export function restart() {
  const interrupted = running;
  running = null;
  for (const entry of queue.splice(0)) if (uiOf(entry)) clearStatus(uiOf(entry));
  if (interrupted) {
    flow.block(interrupted.entry, "stopped");
    const cell = shownAt(interrupted.entry, null);
    if (cell) {
      setStatus(cell, "stopped", "stopped");
      addNote(cell, "runner-stopped",
        `Stopped ${nameOf(interrupted.entry)}. Python was restarted: the variables of ` +
        "earlier cells are gone, and Run runs the cells above again (this one only if you " +
        "run it or say so).");
      announce(`${nameOf(interrupted.entry)}: stopped`);
    }
    interrupted.resolve({ ok: false, stopped: true });
  }
  endSession();
  for (const cell of runner.cells) {
    if (!interrupted || cell !== shownAt(interrupted.entry, null)) clearStatus(cell);
  }
  startSession({ onMessage, onCrash });
}

function edit(cell) {
  openEditor(cell, run, { focus: true });
}

/** Reset: the page's code and the build's output again; the page forgets the cell's run. */
export function reset(cell) {
  const entry = entryOf(cell);
  if (cell.editor) cell.editor.value = cell.source;
  removeOutput(cell);
  clearStatus(cell);
  const forgotten = flow.forget(entry).map((code) => flow.codeCells[code]);
  emit("reset", {
    cells: [cell.index],
    code: forgotten.map((c) => c.code),
    glue: forgotten.flatMap((c) => c.glue),
  });
  announce(`${cell.name}: reset to the page's code and the build's output`);
  refreshStale();
}

function clearStatus(cell) {
  if (cell.prompt) cell.prompt.remove();
  cell.prompt = null;
  setStatus(cell, "", "");
}

/**
 * The one teardown: Python is gone, and what cells computed in it is marked so.
 * Add-ons hear micrograd:restart (a fresh Python starts: what the page shows from
 * the old one goes back to the build's).
 */
function endSession(status = "off") {
  epoch += 1;
  end(status);
  flow.newSession();
  runner.log.length = 0;
  for (const cell of runner.cells) markFromEarlierSession(cell);
  refreshStale();
  emit("restart");
}

// -- the queue --------------------------------------------------------------------------------

async function pump() {
  if (pumping === epoch) return;
  const mine = epoch;
  pumping = mine;
  try {
    while (queue.length && epoch === mine) {
      const target = queue[0];
      const cell = uiOf(target);
      if (!(await pythonReady(cell)) || epoch !== mine) return;
      await flow.analyseEdits(analyse);
      if (epoch !== mine) return;
      const plan = await settleBlocked(target, cell, mine);
      if (epoch !== mine) return;
      if (plan) await runPlan(target, cell, plan, mine);
      if (epoch === mine && queue[0] === target) queue.shift();
    }
  } finally {
    if (pumping === mine) pumping = -1;
  }
}

async function pythonReady(cell) {
  if (!isStarted()) startSession({ onMessage, onCrash });
  if (runner.status === "ready") return true;
  cell.waiting = true;
  setStatus(cell, await startingText(), "starting");
  try {
    await whenReady();
    return true;
  } catch {
    return false; // onCrash has reported it
  } finally {
    cell.waiting = false;
  }
}

/**
 * The plan for the target, once every cell in it that crashed or was stopped
 * has been dealt with: not needed (left out), or the reader's answer (run it,
 * skip it, edit it).  null: the target does not run now.
 */
async function settleBlocked(target, cell, mine) {
  const leaveOut = new Set();
  for (;;) {
    const plan = flow.planFor(target.code, leaveOut);
    if (plan.blockedBy === undefined) {
      cell.leftOut = [...leaveOut].map((code) => flow.codeCells[code]);
      return plan;
    }
    const blocked = flow.codeCells[plan.blockedBy];
    if (!flow.needs(target.code, blocked.code)) {
      leaveOut.add(blocked.code); // not needed: left out of this run, not skipped for good
      continue;
    }
    const answer = await ask(cell, blocked);
    if (epoch !== mine) return null;
    if (answer === "run") flow.unblock(blocked.code);
    else if (answer === "skip") flow.skip(blocked.code);
    else return null;
  }
}

/** Ask the reader what to do about a cell above that crashed Python or was stopped. */
function ask(cell, blocked) {
  const why = flow.blockedWhy(blocked.code) === "crashed" ? "crashed Python" : "was stopped";
  const name = nameOf(blocked);
  setStatus(cell, `waiting: ${name} must run first`, "waiting");
  announce(`${cell.name} waits: ${name} above ${why} the last time it ran`);
  return new Promise((resolve) => {
    const prompt = element("div", "runner-note runner-prompt",
      `${name[0].toUpperCase()}${name.slice(1)} above ${why} the last time it ran, and this ` +
      "cell needs what it defines. ");
    prompt.setAttribute("role", "group");
    prompt.setAttribute("aria-label", `Before ${cell.name} runs`);
    const answer = (choice) => {
      prompt.remove();
      cell.prompt = null;
      cell.answer = null;
      if (choice === "stop") {
        setStatus(cell, "not run: stopped while it waited", "stopped");
        announce(`${cell.name}: stopped`);
      }
      resolve(choice);
    };
    cell.answer = answer;
    prompt.append(button("runner-prompt-run", `Run ${name} again`, () => answer("run")));
    prompt.append(button("runner-prompt-skip", `Skip ${name}`, () => answer("skip")));
    if (blocked.ui) {
      prompt.append(button("runner-prompt-edit", `Edit ${name}`, () => {
        answer("edit");
        setStatus(cell, `not run: edit ${name}, then run it or this cell`, "");
        edit(blocked.ui);
        bringIntoView(blocked.ui.el);
      }));
    }
    cell.prompt = prompt;
    cell.bar.after(prompt);
    prompt.querySelector("button").focus();
  });
}

async function runPlan(target, cell, plan, mine) {
  for (const code of plan.steps) {
    const step = flow.codeCells[code];
    if (step.ui && step.ui !== cell) setStatus(step.ui, "queued", "queued");
  }
  for (const code of plan.steps) {
    const step = flow.codeCells[code];
    if (step.ui) setStatus(cell, `waiting for ${nameOf(step)}…`, "queued");
    const result = await runOne(step, cell);
    if (epoch !== mine || result.stopped || result.crashed) return;
    if (result.ok) continue;
    if (!step.ui) {
      // A hidden cell computes numbers for the text: the run goes on without them.
      showHiddenError(step, cell, result.error);
      continue;
    }
    const why = `not run: ${nameOf(step)} above raised an exception`;
    for (const rest of plan.steps.filter((c) => c > code)) {
      const ui = flow.codeCells[rest].ui;
      if (ui) setStatus(ui, why, "skipped");
    }
    setStatus(cell, why, "skipped");
    announce(`${cell.name} ${why}`);
    return;
  }
  const result = await runOne(target, cell, plan);
  if (epoch !== mine || !result.ok) return;
  for (const code of plan.followers) {
    const follower = flow.codeCells[code];
    const after = await runOne(follower, cell);
    if (epoch !== mine || after.stopped || after.crashed) return;
    if (!after.ok) showHiddenError(follower, cell, after.error);
  }
}

/** A hidden cell raised: say so under the visible cell above it (or the one that ran it). */
function showHiddenError(entry, target, error) {
  const name = nameOf(entry);
  const note = element("div", "runner-note runner-hidden-error",
    `${name[0].toUpperCase()}${name.slice(1)} (it computes numbers for the text) raised an ` +
    "exception; the text keeps the build's numbers:");
  note.append(element("pre", "runner-error", error));
  const at = shownAt(entry, null);
  if (at && at.output) at.output.body.append(note);
  else target.pendingNotes = [...(target.pendingNotes || []), note];
}

/** Run one cell (visible or hidden) in the worker; resolves with the kernel's answer. */
function runOne(entry, target, plan = null) {
  const cell = entry.ui;
  const code = flow.sourceOf(entry);
  const edited = flow.isEdited(entry);
  const started = now();
  flow.beforeRun(entry);
  const id = nextId++;
  return new Promise((resolve) => {
    running = { entry, id, resolve };
    if (cell) {
      setStatus(cell, "running…", "running");
      freshOutput(cell);
      if (plan && plan.rerun) addNote(cell, "runner-rerun", rerunText(plan.rerun, entry));
      if (cell.leftOut && cell.leftOut.length) addNote(cell, "runner-left-out", leftOutText(cell.leftOut));
      cell.leftOut = null;
      for (const note of cell.pendingNotes || []) cell.output.body.append(note);
      cell.pendingNotes = null;
      announce(`${cell.name}: running`);
    }
    emit("run-start", { cell: cell ? cell.index : null, code: entry.code, edited });
    if (cell) mark("firstCellPosted");
    post({
      type: "run",
      id,
      code,
      filename: cell ? cell.filename : `<hidden cell ${entry.code + 1}>`,
      watch: JSON.stringify([...flow.touches(entry)]),
    });
  }).then((result) => {
    if (result.stopped || result.crashed) return result;
    finished(entry, result, (now() - started) / 1000, id);
    return result;
  });
}

function finished(entry, result, seconds, id) {
  const cell = entry.ui;
  keepRuntime(); // Python has run a cell: its files go into the runtime's cache (once)
  flow.afterRun(entry, id, result.changed || []);
  runner.timings.runs.push({
    cell: cell ? cell.index : null, code: entry.code, seconds, ok: result.ok,
  });
  if (runner.timings.firstDone === null && cell) runner.timings.firstDone = sinceFirstClick();
  if (cell) {
    if (result.ok) {
      setStatus(cell, `ran in ${seconds.toFixed(2)} s`, "ok");
      announce(`${cell.name}: done`);
    } else {
      addTraceback(cell, result.error);
      setStatus(cell, "raised an exception", "error");
      announce(`${cell.name} raised an exception`);
    }
    cell.output.dataset.state = result.ok ? "ok" : "error";
  }
  emit("run-done", { cell: cell ? cell.index : null, code: entry.code, ok: result.ok,
    edited: flow.isEdited(entry) });
  refreshStale();
}

function rerunText(rerun, entry) {
  const shown = rerun.cells.map((code) => flow.codeCells[code]).filter((c) => c.ui);
  const hidden = rerun.cells.length - shown.length;
  const numbers = shown.map((c) => c.ui.number);
  let which = numbers.length === 0 ? "" : `cell${numbers.length > 1 ? "s" : ""} ${span(numbers)}`;
  if (hidden) which += `${which ? " and " : ""}${hidden} hidden cell${hidden > 1 ? "s" : ""}`;
  const names = rerun.names.slice(0, 3).join(", ") + (rerun.names.length > 3 ? ", …" : "");
  const by = rerun.by;
  const first = rerun.names[0];
  const cause = by === Infinity ? `a Reset put back the code whose run had changed ${first}`
    : by === entry.code ? `this cell's last run changed ${first}`
      : by > entry.code ? `a later run of ${nameOf(flow.codeCells[by])} changed ${first}`
        : `${nameOf(flow.codeCells[by])}, run again after the cells below it, changed ${first}`;
  return `Re-ran ${which} first, which define${shown.length + hidden > 1 ? "" : "s"} ` +
    `${names}, because ${cause}: this run starts from the state the page defines.`;
}

function leftOutText(cells) {
  const names = cells.map(nameOf).join(", ");
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

let lastStale = "";

/** Mark the outputs a run made stale (and unmark the ones that are current again). */
function refreshStale() {
  const stale = new Set(flow.staleCells());
  for (const entry of flow.codeCells) {
    if (entry.ui) markStale(entry.ui, stale.has(entry.code));
  }
  const detail = {
    cells: [...stale].map((code) => flow.codeCells[code].ui).filter(Boolean).map((c) => c.index),
    code: [...stale],
    glue: [...stale].flatMap((code) => flow.codeCells[code].glue),
  };
  const key = JSON.stringify(detail);
  if (key !== lastStale) {
    lastStale = key;
    emit("stale", detail);
  }
}

// -- what the worker says ----------------------------------------------------------------------

function analyse(source) {
  return new Promise((resolve) => {
    const id = nextId++;
    analyses.set(id, resolve);
    post({ type: "analyse", id, code: source });
  });
}

/** Outputs, the end of a run, an analysis, or an add-on's message. */
function onMessage(message) {
  if (message.type === "analysis") {
    const resolve = analyses.get(message.id);
    analyses.delete(message.id);
    if (resolve) resolve(message.facts);
    return;
  }
  const hasRun = message.id !== undefined;
  if (hasRun && (!running || message.id !== running.id)) return; // a run that has ended
  const cell = hasRun ? running.entry.ui : null;
  if (message.type === "output") {
    if (cell) addOutput(cell, message);
  } else if (message.type === "done") {
    const finish = running;
    running = null;
    finish.resolve(message);
  } else {
    const handle = messageHandler(message.type);
    if (!handle) return;
    const context = hasRun
      ? { cell, code: running.entry.code, display: (i) => cell && displayBox(cell, i) }
      : null;
    handle(message, context);
  }
}

/** The runtime failed: the cell that was running says so, and keeps what it printed. */
function onCrash(message) {
  const recent = runner.log.filter((entry) => entry.level === "error").map((e) => e.text);
  const target = queue[0] ? uiOf(queue[0]) : null;
  const crashedEntry = running ? running.entry : null;
  const cell = crashedEntry ? shownAt(crashedEntry, target)
    : runner.cells.find((c) => c.waiting) || null;
  const finish = running;
  running = null;
  epoch += 1;
  for (const entry of queue.splice(0)) {
    if (uiOf(entry) && uiOf(entry) !== cell) {
      const why = crashedEntry ? `Python crashed in ${nameOf(crashedEntry)}` : "Python crashed";
      setStatus(uiOf(entry), `not run: ${why}`, "skipped");
    }
  }
  flow.newSession();
  for (const other of runner.cells) if (other !== cell) markFromEarlierSession(other);
  if (crashedEntry) flow.block(crashedEntry, "crashed");
  if (cell) {
    setStatus(cell, "crashed", "crashed");
    const which = crashedEntry ? nameOf(crashedEntry) : "starting Python";
    const note = addNote(cell, "runner-crashed",
      `Python crashed while running ${which}, and this page's variables are gone. ` +
      "What you can do: Restart Python, then Run. " +
      (crashedEntry ? `${which[0].toUpperCase()}${which.slice(1)} will not run again by ` +
        "itself: run it yourself, or edit it first. " : ""));
    note.append(button("runner-restart", "Restart Python", () => {
      note.querySelector(".runner-restart").remove();
      restart();
    }));
    if (/Maximum call stack size exceeded/.test(message)) {
      note.append(element("p", "", "The browser's stack ran out: a recursion through " +
        "Python's C code, or freeing a very deep structure, does that here."));
    }
    note.append(element("pre", "runner-crash-details", [message, ...recent].join("\n")));
    announce(`Python crashed while running ${which}`);
  }
  refreshStale();
  if (finish) finish.resolve({ ok: false, crashed: true });
}
