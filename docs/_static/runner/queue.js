// The run machinery, loaded by the first Run: the run queue (what runs, in which
// order; Stop, Restart, Reset), the page's flow (every code cell, bound to the
// page's cells, with Python's analysis of the reader's code and the run
// history; it asks planner.js, pure, what must run before a cell and which
// outputs are stale), one run in the worker and what it leaves, the prompt about a cell
// above that crashed or was stopped, what a crash (or any teardown) does to the
// cells, the stale marks, and the script of the reader's version of a cell.

import {
  announce, bringIntoView, button, element, endOfSession, releaseBar, removeOutput, restoreCode,
  sessionCells, setBuildOnlyNote, setStale, setState, startOutput,
} from "./cells.js";
import { openEditor } from "./editor.js";
import { emit } from "./outputs.js";
import {
  analyse, isStarted, keepRuntime, onMessage, requestScript, runningEntry, startRun, startSession,
  startingText,
} from "./python.js";
import {
  afterRun, afterThePage, analysisRequest, beforeRun, changedOutside, forget, isAnalysed, needs,
  newHistory, notRerun, pageOf, planFor, staleCells, staleKeys,
} from "./planner.js";
import { addTraceback } from "./renderers.js";
import {
  Status, first, mark, now,
} from "./session.js";
import {
  addCrashNote, addNote, capital, hiddenErrorNote, leftOutText, nameOf, notRerunNote, rerunText,
  showNote, shownAt, stoppedText,
} from "./words.js";

// -- the run queue --------------------------------------------------------------------------------
// The run queue.  Run on a cell runs, in page order, what the page's flow says
// must run first (the flow, below: the cells above it that have not run in this Python
// session, hidden ones included, and, when a run out of the page's order
// changed what the cell depends on, the cells above that define it), then the
// cell, then the hidden cells right after it (so that the numbers they glue
// into the prose follow at once).  One run at a time (runOne runs each).
// Stop, Restart and Reset act on the queue; a crash empties it (tornDown).  A
// cell that crashed Python or was stopped is not run again by itself: a cell
// below that needs it asks the reader first (ask).

/**
 * Make the session's run machinery, once: its flow (Flow, linked to the page's
 * cells), what a teardown does to the page, and the stale marks' redrawing on an
 * edit.  The queue itself (session.waiting: the flow entries the reader asked to
 * run, in click order) and the generation a pump belongs to are the session's.
 */
export function install(session) {
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
    session.flow.blocked.set(interrupted.code, "stopped");
    if (noted) {
      setState(noted, "stopped", "stopped");
      addNote(noted, "runner-stopped", stoppedText(interrupted));
      announce(`${nameOf(interrupted)}: stopped`);
    }
    refreshStale(session); // what was computed from a whole run of it no longer matches it
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
      await session.flow.analyseEdits();
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

/**
 * What cell's names hold changed without a Run (a nudge of its graph, nudge.js):
 * what read them is stale now.  Once the change leaves them consistent (`settled`:
 * a graph whose data and gradients belong to one point), the hidden cells right
 * after the cell run again (runFollowers), so that the prose follows.
 */
export function changedWithoutRun(session, cell, names, settled) {
  session.flow.changedOutside(cell.entry, names);
  if (settled) runFollowers(session, cell);
  refreshStale(session);
}

/**
 * Run the hidden cells right after `cell` again, in the queue's turn (after what waits
 * in it), as a Run of `cell` does after its own run: what they glue into the prose
 * (numbers, claims) follows what the page's Python holds now.
 */
function runFollowers(session, cell) {
  const { flow, waiting } = session;
  const [first] = flow.planFor(cell.entry.code, new Set(), session.names).followers;
  if (first === undefined) return;
  const entry = flow.codeCells[first];
  // Only as followers, with nothing to run first (a cell above that never ran, or one
  // that crashed): that is a Run's to settle, with its prompt.
  const plan = flow.planFor(entry.code, new Set(), session.names);
  if (plan.steps.length || plan.blockedBy !== undefined) return;
  // Waiting already (not yet running): when it runs, it reads what is there then.
  if (waiting.lastIndexOf(entry) > 0) return;
  waiting.push(entry);
  pump(session);
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
    const answer = await ask(session, target.cell, blocked, flow.blocked.get(blocked.code), edit);
    if (over()) return null;
    if (answer === "run") flow.blocked.delete(blocked.code);
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
    if (step.cell && cell) setState(cell, "queued", `waiting for ${nameOf(step)}…`);
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

// -- the page's flow ------------------------------------------------------------------------------
// The page's flow: every code cell of the page in order (the build's manifest,
// visible and hidden cells), bound to the page's cells, and what each run in
// this Python session changed.  The planning itself is the planner's (what Run
// on a cell runs first, which outputs are stale: see its top); this module
// gives it the page as the reader has it now and keeps the run history.
//
// What each cell defines, reads and may change, and which cells it needs, is
// Python's (snippets.py): the build wrote it into the manifest for the page's
// code; for code the reader edited, the worker answers it (analyseEdits, before
// a plan is made: running needs Python anyway).  The flow is the session's
// (session.flow), made from the page's manifest when the run machinery loads.

/** The attribute the build writes on each shown cell: its position in the manifest. */
const CELL_ATTRIBUTE = "data-micrograd-cell";

/** The page's flow, for one session (session.flow): made when the run machinery loads. */
export class Flow {
  /** session: session.js's Session (its manifest, and alsoRead: what track.js noted). */
  constructor(session) {
    const { manifest } = session;
    this.session = session;
    /**
     * Every code cell of the page, in order: {code (its index), source, hidden,
     * apart (the build hides or folds away its code: it runs in the hidden cells'
     * namespace, kernel.py), buildOnly, glue (the keys it glues), names, watches, needs
     * (Python's analysis of the page's code: snippets.py), shows (what its last
     * expression showed at build time), script (a shown cell's script), cell (the
     * visible cell's Cell, cells.js, or null), after (for a hidden cell: the visible
     * cell above it, or null)}.
     */
    this.codeCells = manifest.cells.map((entry, code) => ({ ...entry, code, cell: null }));
    /** Where the page's scripts come from (snippets.py's page), for a script of the reader's code. */
    this.scriptPage = manifest.page || null;
    /** The format specs the page shows each glued value in: {key: [spec, ...]} (the build's). */
    this.glueFormats = manifest.glueFormats || {};
    // code -> "crashed" | "stopped": runs again only when asked to (the queue's prompt, ask)
    this.blocked = new Map();
    this.history = newHistory(); // what ran in this Python session
    this.analysis = null; // the worker's latest analysis: {sources, cells}
  }

  /** A new Python session: nothing has run in it. */
  newSession() {
    this.history = newHistory();
  }

  /**
   * Link the page's visible runnable cells (Cells, in page order) to their
   * entries, by the position the build wrote on each (data-micrograd-cell).
   * Without it (a page built without a manifest), each visible cell becomes an
   * entry of its own, with no facts: every cell above then runs before it, as a
   * notebook's "run all above" would.  Returns whether the build's ids bound them.
   */
  linkCells(cells) {
    const { codeCells } = this;
    const positions = cells.map((cell) => Number.parseInt(cell.el.getAttribute(CELL_ATTRIBUTE), 10));
    const visible = codeCells.filter((c) => !c.hidden && !c.buildOnly).map((c) => c.code);
    const matches = positions.length === visible.length
      && positions.every((code, i) => code === visible[i]);
    if (!matches) {
      codeCells.splice(0, codeCells.length, ...cells.map((cell, code) => ({
        code, source: cell.source, hidden: false, buildOnly: false, glue: [], names: null,
        watches: [], needs: [], cell: null,
      })));
      positions.splice(0, positions.length, ...cells.map((cell, code) => code));
    }
    cells.forEach((cell, i) => {
      codeCells[positions[i]].cell = cell;
      cell.entry = codeCells[positions[i]];
    });
    let above = null;
    for (const c of codeCells) {
      if (c.hidden) c.after = above;
      else above = c;
    }
    return matches;
  }

  /**
   * The scratch cell's entry ("Try your own code", a Cell of cells.js): after every
   * code cell of the page (code: their count), in no manifest and no script; Run on it
   * runs what the page needs first (afterThePage), and its runs change no
   * history, so nothing on the page goes stale by them.
   */
  linkScratch(cell) {
    cell.entry = {
      code: this.codeCells.length, scratch: true, source: "", hidden: false, buildOnly: false,
      glue: [], names: null, watches: [], needs: [], after: null, cell,
    };
    return cell.entry;
  }

  sources() {
    return this.codeCells.map(sourceOf);
  }

  page() {
    return pageOf(this.codeCells, this.sources(), this.analysis);
  }

  /** The page a plan for code k is made on: with the scratch cell after it, for the scratch's. */
  pageFor(k) {
    return k === this.codeCells.length ? afterThePage(this.page()) : this.page();
  }

  /**
   * Have Python analyse the page's code as it is now, when the reader has edited it
   * and it has not been analysed yet: the worker answers, for each cell, {names,
   * watches, needs} (snippets.py's runner_analysis; python.js analyse).
   */
  async analyseEdits() {
    const now = this.sources();
    if (isAnalysed(this.codeCells, now, this.analysis)) return;
    const cells = await analyse(this.session, analysisRequest(this.codeCells, now));
    this.analysis = { sources: now, cells };
  }

  /** Whether Python's analysis of the page's code as it is now is in hand. */
  isAnalysed() {
    return isAnalysed(this.codeCells, this.sources(), this.analysis);
  }

  /** The names entry c binds or may change: what the kernel watches while it runs. */
  watches(c) {
    return c.scratch ? new Set() : this.page().cells[c.code].watches;
  }

  /** Whether cell k needs the runnable cell b (one above it). */
  needs(k, b) {
    return needs(this.pageFor(k), k, b);
  }

  /** For each code cell, the cells the runner runs before it on a fresh page, or null
   * while the reader's code is not analysed yet (the browser tests compare them). */
  plannedNeeds() {
    const now = this.page();
    return now.complete ? now.cells.map((c) => c.needs) : null;
  }

  readAfter(c) {
    return (this.session.alsoRead.get(c.cell) || []).flatMap((d) => (d.entry && d.entry.names && !d.entry.names.error
      ? d.entry.names.defines : []));
  }

  /**
   * What Run on cell k runs (planFor), leaving out the codes in leaveOut;
   * kernelNames: what the kernel's namespace starts with.  analyseEdits must have run.
   */
  planFor(k, leaveOut = new Set(), kernelNames = []) {
    const readsAfter = k < this.codeCells.length ? this.readAfter(this.codeCells[k]) : [];
    return planFor(this.pageFor(k), this.history, k, {
      leaveOut, blocked: this.blocked, kernelNames, readAfter: readsAfter,
    });
  }

  /** Before entry c runs: note the versions of what it depends on. */
  beforeRun(c) {
    if (!c.scratch) beforeRun(this.page(), this.history, c.code);
  }

  /** After entry c ran, changing the names `changed`; ok: it did not raise. */
  afterRun(c, changed, ok) {
    this.blocked.delete(c.code);
    if (c.scratch) return;
    afterRun(this.page(), this.history, c.code, changed, ok);
  }

  /** Names cell entry c's code binds changed without a run (changedOutside). */
  changedOutside(c, changed) {
    changedOutside(this.history, c.code, changed);
  }

  /** The codes of the cells whose shown output is stale (staleCells). */
  staleCells() {
    return staleCells(this.page(), this.history, this.blocked);
  }

  /** The outputs that stay the build's, out of date (notRerun). */
  notRerun() {
    return notRerun(this.page(), this.history);
  }

  /** Reset of entry c: its run and its hidden followers' are forgotten.  Returns their codes. */
  forget(c) {
    if (c.scratch) return [];
    const gone = forget(this.page(), this.history, c.code);
    for (const code of gone) this.blocked.delete(code);
    return gone;
  }

  skip(code) {
    this.history.skipped.add(code);
  }
}

/** The code an entry runs: its cell's (the reader's edit, if any), or the page's. */
export const sourceOf = (c) => (c.cell ? c.cell.code : c.source);
export const isEdited = (c) => sourceOf(c) !== c.source;


// -- one run --------------------------------------------------------------------------------------
// One run in the worker, and what it leaves: the cell's status line, output box
// and notes while it runs, then what the flow and the page learn from it (the
// names it changed, the outputs it made stale, the timings).  The run queue
// (above) decides what runs, in which order; runOne runs one entry.

/**
 * A hidden cell raised: say so under the visible cell above it (or the one that ran
 * it, in its next output box: session.pendingNotes).
 */
export function noteHiddenError(session, entry, target, error) {
  const { pendingNotes } = session;
  const note = hiddenErrorNote(entry, error);
  const at = shownAt(entry);
  if (at && at.box) showNote(at, note);
  else pendingNotes.set(target, [...(pendingNotes.get(target) || []), note]);
}

/** Run one entry (a visible or hidden cell) in the worker; resolves with the run's result. */
export async function runOne(session, entry, plan = null) {
  const { flow, pendingNotes } = session;
  const cell = entry.cell;
  const edited = isEdited(entry);
  const started = now();
  flow.beforeRun(entry);
  if (cell) {
    setState(cell, "running", "running…");
    startOutput(cell);
    if (plan && plan.rerun) addNote(cell, "runner-rerun", rerunText(plan.rerun, entry, flow.codeCells));
    if (plan && plan.leftOut.length) addNote(cell, "runner-left-out", leftOutText(plan.leftOut));
    for (const note of pendingNotes.get(cell) || []) showNote(cell, note);
    pendingNotes.delete(cell);
    announce(`${cell.name}: running`);
    mark(session.records, "firstCellPosted");
  }
  emit("run-start", { cell: cell ? cell.index : null, code: entry.code, edited });
  const result = await startRun(session, entry, {
    code: sourceOf(entry),
    filename: cell ? cell.filename : `<hidden cell ${entry.code + 1}>`,
    watch: JSON.stringify([...flow.watches(entry)]),
    apart: Boolean(entry.apart),
  });
  if (!result.stopped && !result.crashed) finished(session, entry, result, (now() - started) / 1000);
  return result;
}

function finished(session, entry, result, seconds) {
  const { records } = session;
  const cell = entry.cell;
  keepRuntime(session); // Python has run a cell: its files go into the runtime's cache (once)
  session.flow.afterRun(entry, result.changed, result.ok);
  records.timings.runs.push({ cell: cell ? cell.index : null, code: entry.code, seconds, ok: result.ok });
  if (cell) {
    first(records, "firstDone");
    if (result.ok) {
      setState(cell, "done", `ran in ${seconds.toFixed(2)} s`);
      announce(`${cell.name}: done`);
    } else {
      addTraceback(cell, result.error);
      setState(cell, "raised", "raised an exception");
      announce(`${cell.name} raised an exception`);
    }
    releaseBar(cell);
  }
  emit("run-done", {
    cell: cell ? cell.index : null, code: entry.code, ok: result.ok, edited: isEdited(entry),
  });
  refreshStale(session);
}

// -- the prompt about a cell above ----------------------------------------------------------------
// The prompt a run shows when a cell it needs crashed Python or was stopped
// the last time it ran: run that cell again, skip it, or edit it.  The run
// queue asks, and waits for the answer.

/**
 * Ask, under the cell about to run, what to do about `blocked` (a flow entry above
 * it that crashed Python or was stopped: why).  Resolves with "run", "skip",
 * "edit" (the blocked cell's editor is opened) or "stop" (stop(cell) answered).
 * The open prompts are the session's (session.prompts: cell -> {prompt, answer}).
 */
export function ask(session, cell, blocked, why, edit) {
  const open = session.prompts;
  const name = nameOf(blocked);
  const what = why === "crashed" ? "crashed Python" : "was stopped";
  setState(cell, "waiting", `waiting: ${name} must run first`);
  announce(`${cell.name} waits: ${name} above ${what} the last time it ran`);
  return new Promise((resolve) => {
    const prompt = element("div", "runner-note runner-prompt",
      `${capital(name)} above ${what} the last time it ran, and this cell needs what it defines. `);
    prompt.setAttribute("role", "group");
    prompt.setAttribute("aria-label", `Before ${cell.name} runs`);
    const answer = (choice) => {
      prompt.remove();
      open.delete(cell);
      if (choice === "stop") stopped(cell);
      resolve(choice);
    };
    open.set(cell, { prompt, answer });
    prompt.append(button("runner-prompt-run", `Run ${name} again`, () => answer("run")));
    prompt.append(button("runner-prompt-skip", `Skip ${name}`, () => answer("skip")));
    if (blocked.cell) {
      prompt.append(button("runner-prompt-edit", `Edit ${name}`, () => {
        answer("edit");
        setState(cell, "idle", `not run: edit ${name}, then run it or this cell`);
        edit(blocked.cell);
        bringIntoView(blocked.cell.el);
      }));
    }
    cell.controls.bar.after(prompt);
    prompt.querySelector("button").focus();
  });
}

/** Stop on a cell that waits for an answer: it stays unrun.  Returns whether one was open. */
export function stopAsking(session, cell) {
  const asking = session.prompts.get(cell);
  if (asking) asking.answer("stop");
  return Boolean(asking);
}

/** Take away the cell's prompt, if it has one, without an answer (Python restarts). */
export function dropPrompt(session, cell) {
  const asking = session.prompts.get(cell);
  if (asking) {
    asking.prompt.remove();
    session.prompts.delete(cell);
  }
}

// -- a teardown, and a crash ----------------------------------------------------------------------
// A crash of the page's Python: what it does to the cells.  The cell it was
// running (or the one waiting for Python to start) says so, keeps what it
// printed, and offers a Restart; every other cell that waited is not run; what
// the old Python computed is marked as from a session that has ended; the cell
// that crashed is not run again by itself (the flow blocks it).  The teardown
// itself (the worker, the queue, the generation, the flow's session) is
// session.teardown("crashed"); this is what its listener (tornDown, which
// install registers) shows, as it shows any other ending.

/**
 * What a teardown does to the page: Python is gone, and what cells computed in it
 * is marked so.  After a crash, the page says what happened (showCrash); after any
 * other ending, add-ons hear micrograd:restart (a fresh Python starts: what the
 * page shows from the old one goes back to the build's).  restart(): the queue's
 * Restart, which a crash's note offers.
 */
export function tornDown(session, reason, { interrupted, waited, details }, restart) {
  session.flow.newSession();
  if (reason === Status.crashed) {
    const target = waited[0] ? waited[0].cell : null;
    showCrash(session, details, {
      crashed: interrupted, target, waited, restart,
    });
    return;
  }
  session.records.log.length = 0;
  for (const cell of sessionCells(session)) endOfSession(cell);
  refreshStale(session);
  emit("restart");
}

/**
 * The runtime failed.  crashed: the flow entry it was running (null: it failed to
 * start); target: the cell the queue was working for; waited: the entries that
 * waited to run (the queue gave them up); restart(): what the note's button does.
 */
export function showCrash(session, details, {
  crashed, target, waited, restart,
}) {
  const recent = session.records.log.filter((entry) => entry.level === "error").map((e) => e.text);
  const cell = crashed ? shownAt(crashed) || target
    : sessionCells(session).find((c) => c.state === "starting") || null;
  for (const entry of waited) {
    if (entry.cell && entry.cell !== cell) {
      const why = crashed ? `Python crashed in ${nameOf(crashed)}` : "Python crashed";
      setState(entry.cell, "skipped", `not run: ${why}`);
    }
  }
  for (const other of sessionCells(session)) if (other !== cell) endOfSession(other);
  if (crashed) session.flow.blocked.set(crashed.code, "crashed");
  if (cell) {
    setState(cell, "crashed", "crashed");
    const which = addCrashNote(cell, crashed, [details, ...recent].join("\n"), restart);
    announce(`Python crashed while running ${which}`);
  }
  refreshStale(session);
}

// -- the stale marks ------------------------------------------------------------------------------
// The stale marks: which cells' shown outputs a run has made out of date
// (the flow decides), drawn on the cells and told to the add-ons that follow
// them (micrograd:stale, with the glue keys of those cells).  The outputs that
// stay the build's (build-only cells, and the hidden cells computed from them:
// planner.notRerun) once the reader changed a cell they depend on say so, with
// that cell's number, on the cell and in the prose (notRerun: key -> cells).

/**
 * Mark the outputs a run made stale (and unmark the ones that are current again).
 * Where the reader's code is not analysed yet and Python is up, the marks are
 * drawn again once the worker's analysis of it is in.  session.stale keeps the
 * codes the last run's marks found stale (planner.staleCells) and what was sent.
 */
export function refreshStale(session) {
  const { flow } = session;
  const redraw = () => {
    session.stale.codes = flow.staleCells();
    drawStale(session);
  };
  redraw();
  if (!flow.isAnalysed() && session.isUp()) flow.analyseEdits().then(redraw);
}

/** Draw the marks of what is stale now (and tell the add-ons, when that changed). */
export function drawStale(session) {
  const { flow } = session;
  const shownAs = (because) => because.map(({ code, edited }) => ({
    number: flow.codeCells[code].cell?.number ?? null, edited,
  })).filter((c) => c.number !== null);
  const notRerun = new Map(flow.notRerun()
    .map(({ code, because }) => [code, shownAs(because)])
    .filter(([, cells]) => cells.length > 0));
  for (const cell of session.buildOnlyCells) {
    const cells = notRerun.get(cell.position);
    setBuildOnlyNote(cell, cells ? notRerunNote(cells) : null);
  }
  const stale = new Set(session.stale.codes);
  for (const entry of flow.codeCells) {
    if (entry.cell) setStale(entry.cell, stale.has(entry.code));
  }
  for (const code of notRerun.keys()) stale.add(code);
  const glueNotRerun = {};
  for (const [code, cells] of notRerun) for (const key of flow.codeCells[code].glue) glueNotRerun[key] = cells;
  // The shown cell whose Run brings a stale key up to date: its own cell, or the shown
  // cell that a hidden one follows (a Run runs the hidden cells after it).
  const glueRerun = {};
  for (const code of stale) {
    if (notRerun.has(code)) continue;
    const shown = flow.codeCells.slice(0, code + 1).findLast((entry) => entry.cell);
    if (!shown) continue;
    for (const key of staleKeys(flow.codeCells[code], false)) glueRerun[key] = shown.cell.number;
  }
  const detail = {
    cells: [...stale].map((code) => flow.codeCells[code].cell).filter(Boolean).map((c) => c.index),
    code: [...stale].sort((a, b) => a - b),
    glue: [...stale].sort((a, b) => a - b).flatMap((code) => staleKeys(flow.codeCells[code], notRerun.has(code))),
    notRerun: glueNotRerun,
    rerun: glueRerun,
  };
  const key = JSON.stringify(detail);
  if (key !== session.stale.shown) {
    session.stale.shown = key;
    emit("stale", detail);
  }
}

// -- the reader's version as a script -------------------------------------------------------------
// The reader's version of a cell as a script that runs by itself: the page's
// Python assembles it with snippets.py, the module with which the build made
// the page's own scripts, from the page's code cells as the reader has them now
// (cells.js asks for it once the reader has edited the page).  Loaded on demand.

/**
 * The script of the page's code cell `code` (its index among all the page's code
 * cells), from the cells' code as it is now.  starting() is called when Python
 * must start first.  Rejects when Python cannot start or snippets.py fails.
 */
export async function readerScript(session, code, { starting }) {
  if (!session.isUp()) starting();
  await ensurePython(session);
  const { flow } = session;
  const cells = flow.codeCells.map((c) => ({
    source: sourceOf(c),
    hidden: c.hidden,
    buildOnly: c.buildOnly,
    shows: c.shows || null,
    edited: isEdited(c),
  }));
  const answer = await requestScript(session, { cells, index: code, page: flow.scriptPage });
  if (answer.error) throw new Error(answer.error);
  return answer.text;
}
