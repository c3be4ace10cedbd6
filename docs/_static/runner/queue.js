// The run queue.  Run on a cell runs, in page order, what the page's flow says
// must run first (flow.js: the cells above it that have not run in this Python
// session, hidden ones included, and, when a run out of the page's order
// changed what the cell depends on, the cells above that define it), then the
// cell, then the hidden cells right after it (so that the numbers they glue
// into the prose follow at once).  One run at a time (runs.js runs each).
// Stop, Restart and Reset act on the queue; a crash empties it (crash.js).  A
// cell that crashed Python or was stopped is not run again by itself: a cell
// below that needs it asks the reader first (prompts.js).

import { emit } from "./api.js";
import {
  announce, removeOutput, restoreCode, sessionCells, setState,
} from "./cells.js";
import { tornDown } from "./crash.js";
import { openEditor } from "./editor.js";
import { Flow } from "./flow.js";
import { drawStale, refreshStale } from "./marks.js";
import { addNote, nameOf, shownAt, stoppedText } from "./notes.js";
import { ask, dropPrompt, stopAsking } from "./prompts.js";
import { analyse, onMessage, runningEntry } from "./routing.js";
import { noteHiddenError, runOne } from "./runs.js";
import { Status } from "./runtime.js";
import { isStarted, startSession, startingText } from "./session.js";

/**
 * Make the session's run machinery, once: its flow (flow.js, linked to the page's
 * cells), what a teardown does to the page, and the stale marks' redrawing on an
 * edit.  The queue itself (session.waiting: the flow entries the reader asked to
 * run, in click order) and the generation a pump belongs to are the session's.
 */
export function setUpQueue(session) {
  if (session.flow !== null) return;
  session.flow = new Flow(session);
  session.flow.linkCells(session.cells);
  if (session.scratch) session.flow.linkScratch(session.scratch);
  session.onTeardown((reason, ended) => tornDown(session, reason, ended, () => restart(session)));
  // An edit alone makes stale no output a run can update (until the next run), but what
  // stays the build's is out of date as soon as a cell it depends on is the reader's.
  document.addEventListener("micrograd:edit", () => drawStale(session));
}

const start = (session) => startSession(session, (message) => onMessage(session, message), session.flow.glueFormats);

// -- what the reader does ---------------------------------------------------------------------

/** Run: the cell, after what it needs (see the top of this module). */
export function run(session, cell) {
  openEditor(session, cell, (c) => run(session, c), { keepBar: true });
  const entry = cell.entry;
  if (session.asked(entry, !cell.busy)) return;
  if (session.status === Status.crashed) session.teardown();
  session.waiting.push(entry);
  setState(cell, "queued", "queued");
  announce(`${cell.name}: queued`);
  pump(session);
}

/** Stop: a cell that runs (or runs what it needs) ends Python; a waiting one leaves the queue. */
export function stop(session, cell) {
  const entry = cell.entry;
  const { waiting } = session;
  if (cell.state === "waiting" && stopAsking(session, cell)) return;
  const running = runningEntry(session);
  if ((running && waiting[0] === entry) || running === entry || cell.state === "starting") {
    const waited = running !== entry; // for Python, or for a cell above
    restart(session);
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
export function restart(session) {
  const { interrupted, waited } = session.teardown("stopped");
  for (const entry of waited) if (entry.cell) clear(session, entry.cell);
  const noted = interrupted ? shownAt(interrupted) : null;
  if (interrupted) {
    session.flow.block(interrupted, "stopped");
    if (noted) {
      setState(noted, "stopped", "stopped");
      addNote(noted, "runner-stopped", stoppedText(interrupted));
      announce(`${nameOf(interrupted)}: stopped`);
    }
  }
  for (const cell of sessionCells(session)) if (cell !== noted) clear(session, cell);
  start(session);
}

/** Reset page: Python ends (a Run starts a new one) and nothing waits to run. */
export function endPython(session) {
  const { waited } = session.teardown("stopped");
  for (const entry of waited) if (entry.cell) clear(session, entry.cell);
}

/** Reset: the page's code and the build's output again; the page forgets the cell's run. */
export function reset(session, cell) {
  const { flow } = session;
  restoreCode(cell);
  removeOutput(cell);
  clear(session, cell);
  const forgotten = flow.forget(cell.entry).map((code) => flow.codeCells[code]);
  emit("reset", {
    cells: cell.scratch ? [] : [cell.index], // the scratch cell is no page cell
    code: forgotten.map((c) => c.code),
    glue: forgotten.flatMap((c) => c.glue),
  });
  announce(cell.scratch ? `${cell.name}: empty again`
    : `${cell.name}: reset to the page's code and the build's output`);
  refreshStale(session);
}

function clear(session, cell) {
  dropPrompt(session, cell);
  setState(cell, "idle", "");
}

// -- the queue --------------------------------------------------------------------------------

async function pump(session) {
  if (session.pumping === session.generation) return;
  const { waiting } = session;
  const mine = session.generation;
  const over = () => session.generation !== mine; // a teardown since: this pump stops
  session.pumping = mine;
  try {
    while (waiting.length && !over()) {
      const target = waiting[0];
      if (!(await pythonReady(session, target)) || over()) return;
      await session.flow.analyseEdits((cells) => analyse(session, cells));
      if (over()) return;
      const plan = await settleBlocked(session, target, over);
      if (over()) return;
      if (plan) await runPlan(session, target, plan, over);
      if (!over() && waiting[0] === target) waiting.shift();
    }
  } finally {
    if (session.pumping === mine) session.pumping = -1;
  }
}

/** Python for what is not a run (a script of the reader's version): started if need be. */
export async function ensurePython(session) {
  if (session.status === Status.crashed) session.teardown();
  if (!isStarted(session)) start(session);
  await session.ready;
}

async function pythonReady(session, target) {
  if (!isStarted(session)) start(session);
  if (session.isUp()) return true;
  setState(target.cell, "starting", await startingText(session, target.firstRunBytes));
  try {
    await session.ready;
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
async function settleBlocked(session, target, over) {
  const { flow } = session;
  const leaveOut = new Set();
  for (;;) {
    const plan = flow.planFor(target.code, leaveOut, session.names);
    if (plan.blockedBy === undefined) {
      plan.leftOut = [...leaveOut].map((code) => flow.codeCells[code]);
      return plan;
    }
    const blocked = flow.codeCells[plan.blockedBy];
    if (!flow.needs(target.code, blocked.code)) {
      leaveOut.add(blocked.code); // not needed: left out of this run, not skipped for good
      continue;
    }
    const edit = (cell) => openEditor(session, cell, (c) => run(session, c), { focus: true });
    const answer = await ask(session, target.cell, blocked, flow.blockedWhy(blocked.code), edit);
    if (over()) return null;
    if (answer === "run") flow.unblock(blocked.code);
    else if (answer === "skip") flow.skip(blocked.code);
    else return null;
  }
}

async function runPlan(session, target, plan, over) {
  const { codeCells } = session.flow;
  const cell = target.cell;
  for (const code of plan.steps) {
    const step = codeCells[code];
    if (step.cell && step.cell !== cell) setState(step.cell, "queued", "queued");
  }
  for (const code of plan.steps) {
    const step = codeCells[code];
    if (step.cell) setState(cell, "queued", `waiting for ${nameOf(step)}…`);
    const result = await runOne(session, step);
    if (over() || result.stopped || result.crashed) return;
    if (result.ok) continue;
    if (!step.cell) {
      // A hidden cell computes numbers for the text: the run goes on without them.
      noteHiddenError(session, step, cell, result.error);
      continue;
    }
    // A folded cell (a solution) binds nothing the shown cells see: its own box
    // shows what it raised, and the run goes on.
    if (step.apart) continue;
    const why = `not run: ${nameOf(step)} above raised an exception`;
    for (const rest of plan.steps.filter((c) => c > code)) {
      const later = codeCells[rest].cell;
      if (later) setState(later, "skipped", why);
    }
    setState(cell, "skipped", why);
    announce(`${cell.name} ${why}`);
    return;
  }
  const result = await runOne(session, target, plan);
  if (over() || !result.ok) return;
  for (const code of plan.followers) {
    const follower = codeCells[code];
    const after = await runOne(session, follower);
    if (over() || after.stopped || after.crashed) return;
    if (!after.ok) noteHiddenError(session, follower, cell, after.error);
  }
}
