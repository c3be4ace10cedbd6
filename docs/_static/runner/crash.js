// A crash of the page's Python: what it does to the cells.  The cell it was
// running (or the one waiting for Python to start) says so, keeps what it
// printed, and offers a Restart; every other cell that waited is not run; what
// the old Python computed is marked as from a session that has ended; the cell
// that crashed is not run again by itself (flow.js blocks it).  The teardown
// itself (the worker, the queue, the generation, the flow's session) is
// session.teardown("crashed"); this is what its listener (tornDown, which
// queue.js registers) shows, as it shows any other ending.

import { emit } from "./api.js";
import { announce, endOfSession, sessionCells, setState } from "./cells.js";
import { refreshStale } from "./marks.js";
import { addCrashNote, nameOf, shownAt } from "./notes.js";
import { Status } from "./runtime.js";

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
  if (crashed) session.flow.block(crashed, "crashed");
  if (cell) {
    setState(cell, "crashed", "crashed");
    const which = addCrashNote(cell, crashed, [details, ...recent].join("\n"), restart);
    announce(`Python crashed while running ${which}`);
  }
  refreshStale(session);
}
