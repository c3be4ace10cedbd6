// A crash of the page's Python: what it does to the cells.  The cell it was
// running (or the one waiting for Python to start) says so, keeps what it
// printed, and offers a Restart; every other cell that waited is not run; what
// the old Python computed is marked as from a session that has ended; the cell
// that crashed is not run again by itself (flow.js blocks it).  The teardown
// itself (the worker, the queue, the generation, the flow's session) is
// runtime.teardown("crashed"); this is what its listener in queue.js shows.

import { announce, endOfSession, sessionCells, setState } from "./cells.js";
import * as flow from "./flow.js";
import { refreshStale } from "./marks.js";
import { addCrashNote, nameOf, shownAt } from "./notes.js";
import { records } from "./state.js";

/**
 * The runtime failed.  crashed: the flow entry it was running (null: it failed to
 * start); target: the cell the queue was working for; waited: the entries that
 * waited to run (the queue gave them up); restart(): what the note's button does.
 */
export function showCrash(details, { crashed, target, waited, restart }) {
  const recent = records.log.filter((entry) => entry.level === "error").map((e) => e.text);
  const cell = crashed ? shownAt(crashed) || target
    : sessionCells().find((c) => c.state === "starting") || null;
  for (const entry of waited) {
    if (entry.cell && entry.cell !== cell) {
      const why = crashed ? `Python crashed in ${nameOf(crashed)}` : "Python crashed";
      setState(entry.cell, "skipped", `not run: ${why}`);
    }
  }
  for (const other of sessionCells()) if (other !== cell) endOfSession(other);
  if (crashed) flow.block(crashed, "crashed");
  if (cell) {
    setState(cell, "crashed", "crashed");
    const which = addCrashNote(cell, crashed, [details, ...recent].join("\n"), restart);
    announce(`Python crashed while running ${which}`);
  }
  refreshStale();
}
