// What the runner tells the reader about a run, in words: what a cell is
// called, and the notes a run leaves in a cell's output box (the cells it ran
// again first and why, the ones it left out, a hidden cell that raised, a
// Stop, a crash), and what an output that stays the build's says.  The run
// queue (queue.js) decides when; this module says it.

import {
  button, element, listed, outputBody, recordShown,
} from "./cells.js";

/** What the reader calls an entry of the flow: "cell 3", or "the hidden cell after cell 3". */
export function nameOf(entry) {
  if (entry.cell) return entry.cell.name;
  if (entry.after && entry.after.cell) return `the hidden cell after ${entry.after.cell.name}`;
  return "a hidden cell at the top of the page";
}

export const capital = (text) => `${text[0].toUpperCase()}${text.slice(1)}`;

/** The visible cell where news about an entry goes (a hidden cell's: the one above it). */
export const shownAt = (entry) => entry.cell || (entry.after && entry.after.cell) || null;

/** A note in the cell's output box, under what it shows. */
export function addNote(cell, className, text) {
  return showNote(cell, { kind: "note", className, text, error: null });
}

/**
 * A note in the cell's output box, from its data: {kind: "note", className, text,
 * error (a traceback under the words, or null)}.  The same data shows it again
 * after a reload.
 */
export function showNote(cell, item) {
  const note = element("div", `runner-note ${item.className}`, item.text);
  if (item.error !== null) note.append(element("pre", "runner-error", item.error));
  outputBody(cell).append(note);
  recordShown(cell, item);
  return note;
}

/** Why a run ran cells above again first (plan.rerun, queue.js). */
export function rerunText(rerun, entry, codeCells) {
  const shown = rerun.cells.map((code) => codeCells[code]).filter((c) => c.cell);
  const hidden = rerun.cells.length - shown.length;
  const numbers = shown.map((c) => c.cell.number);
  let which = numbers.length === 0 ? "" : `cell${numbers.length > 1 ? "s" : ""} ${span(numbers)}`;
  if (hidden) which += `${which ? " and " : ""}${hidden} hidden cell${hidden > 1 ? "s" : ""}`;
  const names = rerun.names.slice(0, 3).join(", ") + (rerun.names.length > 3 ? ", …" : "");
  const by = rerun.by;
  const changed = rerun.names[0];
  const cause = by === Infinity ? `a Reset put back the code whose run had changed ${changed}`
    : by === entry.code ? `this cell's last run changed ${changed}`
      : by > entry.code ? `a later run of ${nameOf(codeCells[by])} changed ${changed}`
        : `${nameOf(codeCells[by])}, run again after the cells below it, changed ${changed}`;
  return `Re-ran ${which} first, which define${shown.length + hidden > 1 ? "" : "s"} ` +
    `${names}, because ${cause}: this run starts from the state the page defines.`;
}

/** The cells a run left out: they stopped or crashed Python, and this cell does not need them. */
export function leftOutText(entries) {
  const names = entries.map(nameOf).join(", ");
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

/**
 * What an output that stays the build's says once a cell it depends on is one
 * the reader changed (planner.notRerun): notRerun, those cells, [{number,
 * edited}] (edited: the reader edited it; else it ran from the reader's values).
 */
export function notRerunWords(notRerun) {
  const names = (list) => `${list.length === 1 ? "cell" : "cells"} ${listed(list.map((c) => c.number))}`;
  const edited = notRerun.filter((c) => c.edited);
  const one = (edited.length || notRerun.length) === 1;
  const why = edited.length > 0
    ? `${names(edited)}, which you changed`
    : `${names(notRerun)}, which ${one ? "was" : "were"} run from your changes`;
  return `from the build, not re-run: depends on ${why}`;
}

/** The same, as a sentence of its own (a cell's note, a glued number's words). */
export const notRerunNote = (notRerun) => `${capital(notRerunWords(notRerun))}.`;

/** After a stale key's words: which cell's Run brings it up to date (a state's rerun). */
export function rerunWords(state) {
  return state.rerun == null ? "" : `; run cell ${state.rerun} to update it`;
}

/** A hidden cell raised: the note that says so (the text keeps the build's numbers), as data. */
export function hiddenErrorNote(entry, error) {
  return {
    kind: "note",
    className: "runner-hidden-error",
    text: `${capital(nameOf(entry))} (it computes numbers for the text) raised an exception; ` +
      "the text keeps the build's numbers:",
    error,
  };
}

/** The note of a run that Stop (or Restart) ended. */
export function stoppedText(entry) {
  const name = nameOf(entry);
  const asked = `when a cell below needs it and you choose "Run ${name} again"`;
  return `Stopped ${name}. Python was restarted: the variables of earlier cells are gone. ` +
    `A Run runs the cells above again, but not ${name}: it runs again ` +
    `${entry.cell ? `when you press its Run, or ${asked}` : `only ${asked}`}.`;
}

/**
 * The note of a crash, in the cell where it is news: what crashed, what the reader
 * can do (a Restart button: restart()), and what the runtime said (details).
 */
export function addCrashNote(cell, crashed, details, restart) {
  const which = crashed ? nameOf(crashed) : "starting Python";
  showCrashNote(cell, { kind: "crash", which, blamed: Boolean(crashed), details }, restart);
  return which;
}

/**
 * The note of a crash, from its data: {kind: "crash", which (what was running),
 * blamed (whether a cell crashed it), details}.  The same data shows it again
 * after a reload.
 */
export function showCrashNote(cell, item, restart) {
  const { which, blamed, details } = item;
  const note = element("div", "runner-note runner-crashed",
    `Python crashed while running ${which}, and this page's variables are gone. ` +
    "What you can do: Restart Python, then Run. " +
    (blamed ? `${capital(which)} will not run again by itself: run it yourself, or edit it ` +
      "first. " : ""));
  outputBody(cell).append(note);
  recordShown(cell, item);
  const again = button("runner-restart", "Restart Python", () => {
    again.remove();
    restart();
  });
  note.append(again);
  if (/Maximum call stack size exceeded/.test(details)) {
    note.append(element("p", "", "The browser's stack ran out: a recursion through " +
      "Python's C code, or freeing a very deep structure, does that here."));
  }
  note.append(element("pre", "runner-crash-details", details));
}
