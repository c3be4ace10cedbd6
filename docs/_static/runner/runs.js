// One run in the worker, and what it leaves: the cell's status line, output box
// and notes while it runs, then what the flow and the page learn from it (the
// names it changed, the outputs it made stale, the timings).  The run queue
// (queue.js) decides what runs, in which order; this module runs one entry.

import { emit } from "./api.js";
import { announce, setState, startOutput } from "./cells.js";
import { isEdited, sourceOf } from "./flow.js";
import { refreshStale } from "./marks.js";
import {
  addNote, hiddenErrorNote, leftOutText, rerunText, showNote, shownAt,
} from "./notes.js";
import { addTraceback } from "./outputs.js";
import { startRun } from "./routing.js";
import { keepRuntime } from "./session.js";
import { first, mark, now } from "./state.js";

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
  }
  emit("run-done", {
    cell: cell ? cell.index : null, code: entry.code, ok: result.ok, edited: isEdited(entry),
  });
  refreshStale(session);
}

