// The run queue.  Run on a cell runs, in page order, what the page's flow says
// must run first (flow.js: the cells above it that have not run in this Python
// session, hidden ones included, and, when a run out of the page's order
// changed what the cell depends on, the cells above that define it), then the
// cell, then the hidden cells right after it (so that the numbers they glue
// into the prose follow at once).  One run at a time (runs.js runs each).
// Stop, Restart and Reset act on the queue; a crash empties it (crash.js).  A cell that crashed Python or
// was stopped is not run again by itself: a cell below that needs it asks the
// reader first (prompts.js).

import { emit } from "./api.js";
import {
  allCells, announce, endOfSession, removeOutput, restoreCode, scratchCell, sessionCells, setState,
} from "./cells.js";
import { showCrash } from "./crash.js";
import { openEditor } from "./editor.js";
import * as flow from "./flow.js";
import { refreshStale } from "./marks.js";
import { addNote, nameOf, shownAt, stoppedText } from "./notes.js";
import { ask, dropPrompt, stopAsking } from "./prompts.js";
import { analyse, onMessage, runningEntry } from "./routing.js";
import { noteHiddenError, runOne } from "./runs.js";
import { Status, runtime } from "./runtime.js";
import {
  isStarted, kernelNames, startSession, startingText, whenReady,
} from "./session.js";
import { records } from "./state.js";

// The queue (runtime.waiting: the flow entries the reader asked to run, in click
// order) and the generation a pump belongs to are the runtime's (runtime.js).
const waiting = runtime.waiting;

flow.linkCells(allCells());
if (scratchCell()) flow.linkScratch(scratchCell());

const start = () => startSession(onMessage, flow.glueFormats);

// -- what the reader does ---------------------------------------------------------------------

/** Run: the cell, after what it needs (see the top of this module). */
export function run(cell) {
  openEditor(cell, run, { keepBar: true });
  const entry = cell.entry;
  if (runtime.asked(entry, !cell.busy)) return;
  if (runtime.status === Status.crashed) endSession();
  waiting.push(entry);
  setState(cell, "queued", "queued");
  announce(`${cell.name}: queued`);
  pump();
}

/** Stop: a cell that runs (or runs what it needs) ends Python; a waiting one leaves the queue. */
export function stop(cell) {
  const entry = cell.entry;
  if (cell.state === "waiting" && stopAsking(cell)) return;
  const running = runningEntry();
  if ((running && waiting[0] === entry) || running === entry || cell.state === "starting") {
    const waited = running !== entry; // for Python, or for a cell above
    restart();
    if (waited) stopped(cell);
    return;
  }
  const at = waiting.indexOf(entry);
  if (at >= 0) waiting.splice(at, 1);
  stopped(cell);
}

function stopped(cell) {
  setState(cell, "stopped", "not run: stopped while it waited");
  announce(`${cell.name}: stopped`);
}

/** Restart: end this Python (and whatever it was running) and start a fresh one. */
export function restart() {
  const { interrupted, waited } = endSession("stopped");
  for (const entry of waited) if (entry.cell) clear(entry.cell);
  const noted = interrupted ? shownAt(interrupted) : null;
  if (interrupted) {
    flow.block(interrupted, "stopped");
    if (noted) {
      setState(noted, "stopped", "stopped");
      addNote(noted, "runner-stopped", stoppedText(interrupted));
      announce(`${nameOf(interrupted)}: stopped`);
    }
  }
  for (const cell of sessionCells()) if (cell !== noted) clear(cell);
  start();
}

/** Reset page: Python ends (a Run starts a new one) and nothing waits to run. */
export function endPython() {
  const { waited } = endSession("stopped");
  for (const entry of waited) if (entry.cell) clear(entry.cell);
}

/** Reset: the page's code and the build's output again; the page forgets the cell's run. */
export function reset(cell) {
  restoreCode(cell);
  removeOutput(cell);
  clear(cell);
  const forgotten = flow.forget(cell.entry).map((code) => flow.codeCells[code]);
  emit("reset", {
    cells: cell.scratch ? [] : [cell.index], // the scratch cell is no page cell
    code: forgotten.map((c) => c.code),
    glue: forgotten.flatMap((c) => c.glue),
  });
  announce(cell.scratch ? `${cell.name}: empty again`
    : `${cell.name}: reset to the page's code and the build's output`);
  refreshStale();
}

function clear(cell) {
  dropPrompt(cell);
  setState(cell, "idle", "");
}

/** End the session (runtime.teardown): returns {interrupted, waited}. */
const endSession = (reason = "off") => runtime.teardown(reason);

/**
 * What a teardown does to the page: Python is gone, and what cells computed in it
 * is marked so.  After a crash, the page says what happened (crash.js); after any
 * other ending, add-ons hear micrograd:restart (a fresh Python starts: what the
 * page shows from the old one goes back to the build's).
 */
runtime.onTeardown((reason, { interrupted, waited, details }) => {
  flow.newSession();
  if (reason === Status.crashed) {
    const target = waited[0] ? waited[0].cell : null;
    showCrash(details, { crashed: interrupted, target, waited, restart });
    return;
  }
  records.log.length = 0;
  for (const cell of sessionCells()) endOfSession(cell);
  refreshStale();
  emit("restart");
});

// -- the queue --------------------------------------------------------------------------------

async function pump() {
  if (runtime.pumping === runtime.generation) return;
  const mine = runtime.generation;
  const over = () => runtime.generation !== mine; // a teardown since: this pump stops
  runtime.pumping = mine;
  try {
    while (waiting.length && !over()) {
      const target = waiting[0];
      if (!(await pythonReady(target)) || over()) return;
      await flow.analyseEdits(analyse);
      if (over()) return;
      const plan = await settleBlocked(target, over);
      if (over()) return;
      if (plan) await runPlan(target, plan, over);
      if (!over() && waiting[0] === target) waiting.shift();
    }
  } finally {
    if (runtime.pumping === mine) runtime.pumping = -1;
  }
}

/** Python for what is not a run (a script of the reader's version): started if need be. */
export async function ensurePython() {
  if (runtime.status === Status.crashed) endSession();
  if (!isStarted()) start();
  await whenReady();
}

async function pythonReady(target) {
  if (!isStarted()) start();
  if (runtime.isUp()) return true;
  setState(target.cell, "starting", await startingText(target.firstRunBytes));
  try {
    await whenReady();
    return true;
  } catch {
    return false; // the crash's teardown has reported it
  }
}

/**
 * The plan for the target, once every cell in it that crashed or was stopped
 * has been dealt with: not needed (left out), or the reader's answer (run it,
 * skip it, edit it).  null: the target does not run now.
 */
async function settleBlocked(target, over) {
  const leaveOut = new Set();
  for (;;) {
    const plan = flow.planFor(target.code, leaveOut, kernelNames());
    if (plan.blockedBy === undefined) {
      plan.leftOut = [...leaveOut].map((code) => flow.codeCells[code]);
      return plan;
    }
    const blocked = flow.codeCells[plan.blockedBy];
    if (!flow.needs(target.code, blocked.code)) {
      leaveOut.add(blocked.code); // not needed: left out of this run, not skipped for good
      continue;
    }
    const edit = (cell) => openEditor(cell, run, { focus: true });
    const answer = await ask(target.cell, blocked, flow.blockedWhy(blocked.code), edit);
    if (over()) return null;
    if (answer === "run") flow.unblock(blocked.code);
    else if (answer === "skip") flow.skip(blocked.code);
    else return null;
  }
}

async function runPlan(target, plan, over) {
  const cell = target.cell;
  for (const code of plan.steps) {
    const step = flow.codeCells[code];
    if (step.cell && step.cell !== cell) setState(step.cell, "queued", "queued");
  }
  for (const code of plan.steps) {
    const step = flow.codeCells[code];
    if (step.cell) setState(cell, "queued", `waiting for ${nameOf(step)}…`);
    const result = await runOne(step);
    if (over() || result.stopped || result.crashed) return;
    if (result.ok) continue;
    if (!step.cell) {
      // A hidden cell computes numbers for the text: the run goes on without them.
      noteHiddenError(step, cell, result.error);
      continue;
    }
    // A folded cell (a solution) binds nothing the shown cells see: its own box
    // shows what it raised, and the run goes on.
    if (step.apart) continue;
    const why = `not run: ${nameOf(step)} above raised an exception`;
    for (const rest of plan.steps.filter((c) => c > code)) {
      const later = flow.codeCells[rest].cell;
      if (later) setState(later, "skipped", why);
    }
    setState(cell, "skipped", why);
    announce(`${cell.name} ${why}`);
    return;
  }
  const result = await runOne(target, plan);
  if (over() || !result.ok) return;
  for (const code of plan.followers) {
    const follower = flow.codeCells[code];
    const after = await runOne(follower);
    if (over() || after.stopped || after.crashed) return;
    if (!after.ok) noteHiddenError(follower, cell, after.error);
  }
}
