// A page's saved state, as data (pagestate.js keeps it in localStorage): what
// of each cell a reload brings back, what the state must match to bring back
// its runs, and what bringing it back does to each cell.  A cell's runs are
// kept as what its output box showed, item by item, as the worker sent it
// (cells.js's Cell.shown): printed text, display bundles, laid-out HTML,
// tracebacks, the runner's notes, an add-on's drawing.  A reload shows them
// again through the same renderers (pagestate.js).  And the mark on the code
// of a cell the reader has edited (cells.js draws it), the same before and
// after a reload, and what the live region says of it.  No DOM here: Node's
// tests read it as it is.

/** The shape of a saved state: a state of another shape is treated as of another page. */
export const FORMAT = 2;

/** The kinds of item an output box shows (Cell.shown), each re-rendered by its producer. */
export const SHOWN_KINDS = Object.freeze([
  "stream", "display", "layout", "layout-error", "traceback", "note", "crash", "addon",
]);

/**
 * What a saved state must match to be brought back: the page's cells (the
 * manifest's text), its micrograd (the wheels) and the shape of saved states.
 */
export function versionOf(manifestText, wheels) {
  const text = `${manifestText}\n${wheels.join(" ")}`;
  let hash = 0;
  for (let i = 0; i < text.length; i += 1) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return `${FORMAT}:${text.length}-${(hash >>> 0).toString(16)}`;
}

/**
 * What of a cell a reload brings back: its code, if edited, and what its output
 * box shows (null: it shows the build's).  cell: a Cell (cells.js), or as much of
 * one: {source, code, edited, busy, state, detail, shows, stale, shown (null while
 * the cell has no output box)}.
 */
export function cellSnapshot(cell) {
  return {
    source: cell.source,
    code: cell.edited ? cell.code : null,
    state: cell.busy ? "idle" : cell.state,
    detail: cell.busy ? "" : cell.detail,
    shows: cell.shows,
    stale: cell.stale,
    shown: cell.shown === null ? null : cell.shown.map((item) => ({ ...item })),
  };
}

/**
 * The whole saved state.  scratch: the scratch cell ("Try your own code"), saved as a
 * cell is, or null (the page has none); a state saved before it existed has none.
 */
export function pageSnapshot({ version, cells, scratch = null, prose, addons }) {
  return {
    version, cells: cells.map(cellSnapshot), scratch: scratch && cellSnapshot(scratch), prose, addons,
  };
}

/** Whether a saved state's runs may be brought back on a page of this version. */
export const runsCurrent = (saved, version) => saved.version === version
  && [...saved.cells, ...(saved.scratch ? [saved.scratch] : [])]
    .every((kept) => kept.shown === null || Array.isArray(kept.shown));

/** What bringing back one saved cell (kept) does to a cell whose code is now `source`. */
function keptPlan(kept, source, current) {
  const code = kept.code === undefined ? null : kept.code;
  const showsRun = current && kept.shows !== "build" && Array.isArray(kept.shown);
  return {
    code,
    codeGoes: code === null ? null : kept.source === source ? "editor" : "beside",
    run: showsRun ? { shown: kept.shown, state: kept.state, detail: kept.detail, stale: kept.stale } : null,
  };
}

/**
 * What bringing a saved state back does, cell by cell (cells: the page's, each
 * {source}).  For each saved cell the page still has: code (the reader's, or
 * null), where it goes ("editor": into the cell's editor; "beside": the page's
 * code changed since, so it is offered beside it), and the run to show again
 * ({shown, state, detail, stale}), or null.  current: whether runs come back.
 * scratch: the same for the scratch cell (its code is the page's "" always), or
 * null when none was saved or the page has none (scratch: the page's, or null).
 */
export function restorePlan(saved, cells, version, scratch = null) {
  const current = runsCurrent(saved, version);
  const plan = [];
  for (const [index, kept] of saved.cells.entries()) {
    if (cells[index]) plan.push({ index, ...keptPlan(kept, cells[index].source, current) });
  }
  const kept = saved.scratch || null;
  return {
    current,
    cells: plan,
    scratch: kept && scratch ? keptPlan(kept, scratch.source, current) : null,
  };
}

/**
 * What the page bar says once a saved state is back; edited: the numbers of the
 * cells whose code is the reader's again (each marked so, EDITED_MARK).
 */
export const restoredText = (current, edited = []) => [current
  ? "Your changes to this page are back, from your last visit: runs are marked as from an " +
    "earlier Python session."
  : "This page changed since your last visit: your edits are back, your runs are not.",
editedText(edited)].filter(Boolean).join(" ");

// -- the reader's code ----------------------------------------------------------------------------

/**
 * The mark on the code of a cell the reader has edited: the same words while
 * they edit and run it and after a reload brings their code back.
 */
export const EDITED_MARK = "Edited: your code, not the page's.";

/** What the live region says of the cells (their numbers) whose code is the reader's. */
export function editedText(numbers) {
  if (numbers.length === 0) return "";
  const listed = numbers.length === 1 ? `Cell ${numbers[0]} is`
    : `Cells ${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)} are`;
  return `${listed} edited: your code, not the page's.`;
}

/**
 * What the live region says when the reader's typing marks cell `number` as
 * edited, or takes the mark off (null: the mark stays as it was).
 */
export function editedNews(number, wasEdited, isEdited) {
  if (wasEdited === isEdited) return null;
  return isEdited ? editedText([number]) : `Cell ${number} is the page's code again.`;
}
