// One run in the worker, and what it leaves: the cell's status line, output box
// and notes while it runs, then what the flow and the page learn from it (the
// names it changed, the outputs it made stale, the timings).  The run queue
// (queue.js) decides what runs, in which order; this module runs one entry.

import { emit } from "./api.js";
import { announce, setState, startOutput } from "./cells.js";
import * as flow from "./flow.js";
import { refreshStale } from "./marks.js";
import {
  addNote, hiddenErrorNote, leftOutText, rerunText, showNote, shownAt,
} from "./notes.js";
import { addTraceback } from "./outputs.js";
import { startRun } from "./routing.js";
import { keepRuntime } from "./session.js";
import { first, mark, now, records } from "./state.js";

const pendingNotes = new Map(); // cell -> notes (data) for its next output box (hidden cells' errors)

/** A hidden cell raised: say so under the visible cell above it (or the one that ran it). */
export function noteHiddenError(entry, target, error) {
  const note = hiddenErrorNote(entry, error);
  const at = shownAt(entry);
  if (at && at.box) showNote(at, note);
  else pendingNotes.set(target, [...(pendingNotes.get(target) || []), note]);
}

/** Run one entry (a visible or hidden cell) in the worker; resolves with the run's result. */
export async function runOne(entry, plan = null) {
  const cell = entry.cell;
  const edited = flow.isEdited(entry);
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
    mark("firstCellPosted");
  }
  emit("run-start", { cell: cell ? cell.index : null, code: entry.code, edited });
  const result = await startRun(entry, {
    code: flow.sourceOf(entry),
    filename: cell ? cell.filename : `<hidden cell ${entry.code + 1}>`,
    watch: JSON.stringify([...flow.watches(entry)]),
    apart: Boolean(entry.apart),
  });
  if (!result.stopped && !result.crashed) finished(entry, result, (now() - started) / 1000);
  return result;
}

function finished(entry, result, seconds) {
  const cell = entry.cell;
  keepRuntime(); // Python has run a cell: its files go into the runtime's cache (once)
  flow.afterRun(entry, result.changed, result.ok);
  records.timings.runs.push({ cell: cell ? cell.index : null, code: entry.code, seconds, ok: result.ok });
  if (cell) {
    first("firstDone");
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
    cell: cell ? cell.index : null, code: entry.code, ok: result.ok, edited: flow.isEdited(entry),
  });
  refreshStale();
}

