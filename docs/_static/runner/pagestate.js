// The page's state as one thing: what the reader changed on it, as data (what is
// saved of each cell, and what a reload brings back of it), saved in the
// browser as it changes, brought back on reload, and Reset page; the page bar
// and the skip link.  Loaded with the page.

import {
  announce, attachSavedCode, button, editedText, element, resetCell, restoredRun, sessionCells,
  setBuildOnlyNote, setUpNow, startOutput,
} from "./cells.js";

// -- a page's saved state, as data ----------------------------------------------------------------
// A page's saved state, as data (kept in localStorage, below): what
// of each cell a reload brings back, what the state must match to bring back
// its runs, and what bringing it back does to each cell.  A cell's runs are
// kept as what its output box showed, item by item, as the worker sent it
// (cells.js's Cell.shown): printed text, display bundles, laid-out HTML,
// tracebacks, the runner's notes, an add-on's drawing.  A reload shows them
// again through the same renderers (below).  And the mark on the code
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

// -- keeping it -----------------------------------------------------------------------------------
// A page's state is one thing: what the reader changed on it (code, runs, and
// what the prose shows of them) is saved in the browser as it changes, brought
// back on reload and on back-navigation, marked as the reader's, and "Reset
// page" puts all of it back to the build's at once.
//
// - Saved: each cell's code (if edited) and what its output box shows, the
//   scratch cell's ("Try your own code") as a page cell's, as data
//   (above: the worker's bundles and laid-out HTML, the runner's notes),
//   and the state of every glued number and claim (outputs.js), under the page's
//   address in localStorage, within a second of a change (micrograd:* events).
// - Brought back: code into the editor; outputs drawn again by the renderers
//   that drew them, as a Python session that has ended shows them ("Computed
//   in your browser, by an earlier Python session"); the prose's values the
//   same way.  Python itself starts afresh.
// - Tied to the book's version: a saved state names the page's code cells and
//   the micrograd wheel it ran against (and the shape of saved states).  When
//   those changed since, no run is
//   brought back; an edit whose cell did not change is, and an edit whose cell
//   did change is shown beside the new code, with a button to take it back.
// - A window whose storage refuses to keep anything (a private window, storage
//   turned off) saves nothing and says so, once.
//
// The page bar (at the top of the article) holds "Reset page" and says what
// is saved; a skip link, the first thing a keyboard reaches, leads to the
// first cell's Run.  What this keeps while the page is open is the session's
// (session.pageState, session.js); the storage is the one the page gave
// the session (session.storage, null where the browser refuses it).

const PREFIX = "micrograd-book:";
const SAVE_AFTER_MS = 300; // well within the second a change may wait to be saved

/** Where the page's state is kept: under the page's address. */
const keyOf = (session) => `${PREFIX}${session.path}`;

/** What a saved state must match to be brought back (versionOf). */
const version = (session) => versionOf(session.manifestText, session.settings.wheels);

/**
 * What the prose shows (the session's Prose, outputs.js), with the features that keep
 * state in it (the registry's prose), set up once.
 */
function loadProse(session) {
  const page = session.pageState;
  if (page.proseLoaded === null) {
    const features = session.registry.filter((f) => f.prose);
    page.proseLoaded = Promise.all([import("./outputs.js"), ...features.map((f) => f.page())])
      .then(([outputs, ...modules]) => {
        for (const module of modules) module.install(session);
        outputs.proseOf(session);
      });
  }
  return page.proseLoaded.then(() => session.prose);
}

/**
 * The module that shows a saved run again (renderers.js), with its renderers and
 * those of the features that load with a Run (a chart's).
 */
const renderers = (session) => {
  const features = session.registry.filter((f) => f.loads === "run");
  return Promise.all([import("./renderers.js"), ...features.map((f) => f.page())])
    .then(([shown, ...modules]) => {
      shown.install(session);
      for (const module of modules) module.install(session);
      return shown;
    });
};

/**
 * An add-on keeps state of its own with the page's (the exercises' progress, say):
 * snapshot() gives it as JSON-able data, restore(saved) brings it back after a
 * reload, reset() is Reset page.  It is saved with the rest; call changedState()
 * when it changes.
 */
export function keepState(session, name, handlers) {
  const page = session.pageState;
  page.addons.set(name, handlers);
  restoreAddon(page, name, handlers);
}

/** Give an add-on what a reload brought back of its state, if anything, once. */
function restoreAddon(page, name, handlers) {
  if (!(name in page.savedAddons)) return;
  handlers.restore(page.savedAddons[name]);
  delete page.savedAddons[name];
}

/** An add-on's state changed: save it with the page's, soon. */
export const changedState = (session) => soon(session);

// -- saving ---------------------------------------------------------------------------------------

function changed(session) {
  return sessionCells(session).some((cell) => cell.edited || cell.shows !== "build");
}

function addonSnapshots(page) {
  const kept = { ...page.savedAddons };
  for (const [name, handlers] of page.addons) {
    const state = handlers.snapshot();
    if (state !== null) kept[name] = state;
  }
  return kept;
}

async function save(session) {
  const page = session.pageState;
  page.timer = null;
  page.saving = true;
  try {
    await write(session);
  } finally {
    page.saving = false;
  }
}

/** Whether every change so far is saved (or refused): no save waits or is under way. */
export const allSaved = (session) => session.pageState.timer === null && !session.pageState.saving;

async function write(session) {
  const page = session.pageState;
  if (page.proseLoaded !== null) await page.proseLoaded;
  const proseStates = session.prose === null ? {} : session.prose.snapshot();
  const addonStates = addonSnapshots(page);
  const kept = changed(session) || Object.keys(proseStates).length > 0 || Object.keys(addonStates).length > 0;
  showBar(page, kept);
  try {
    if (kept) {
      const state = pageSnapshot({
        version: version(session),
        cells: session.cells,
        scratch: session.scratch,
        prose: proseStates,
        addons: addonStates,
      });
      session.storage.setItem(keyOf(session), JSON.stringify(state));
    } else {
      session.storage.removeItem(keyOf(session));
    }
  } catch {
    if (!page.refused) {
      page.refused = true;
      say(page, "This window does not keep your changes (a private window, or storage turned " +
        "off): they are lost when you leave the page.");
    }
  }
}

function soon(session) {
  const page = session.pageState;
  clearTimeout(page.timer);
  page.timer = setTimeout(() => save(session), SAVE_AFTER_MS);
}

// -- bringing it back -----------------------------------------------------------------------------

function read(session) {
  try {
    const text = session.storage.getItem(keyOf(session));
    return text === null ? null : JSON.parse(text);
  } catch {
    return null; // storage turned off, or a state this page cannot read: nothing to bring back
  }
}

/** Every page's saved state in this browser: [{path, state}] (the start page's scores). */
export function savedStates(session) {
  const { storage } = session;
  const states = [];
  try {
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (!key.startsWith(PREFIX)) continue;
      try {
        states.push({ path: key.slice(PREFIX.length), state: JSON.parse(storage.getItem(key)) });
      } catch {
        // a state no page can read: left out
      }
    }
  } catch {
    // storage turned off: nothing is kept
  }
  return states.sort((a, b) => a.path.localeCompare(b.path));
}

/** Show a saved run again in the cell's output box, item by item, by what showed each. */
async function showRun(session, cell, run) {
  const shown = await renderers(session);
  startOutput(cell);
  for (const item of run.shown) shown.showAgain(session, cell, item, session.pageState.hooks.restart);
  restoredRun(cell, run);
}

/** Bring one saved cell back (its plan: pagestate.js, restorePlan). */
async function bringBackCell(session, cell, { code, codeGoes, run }, openEditor) {
  if (codeGoes !== null || run !== null) setUpNow(session, cell.el);
  const intoEditor = async () => {
    await openEditor(cell);
    cell.editor.value = code;
  };
  if (codeGoes === "editor") await intoEditor();
  else if (codeGoes === "beside") attachSavedCode(cell, code, intoEditor);
  if (run !== null) await showRun(session, cell, run);
}

async function bringBack(session, saved, openEditor) {
  const page = session.pageState;
  const { cells, scratch } = session;
  const plan = restorePlan(saved, cells, version(session), scratch);
  for (const kept of plan.cells) await bringBackCell(session, cells[kept.index], kept, openEditor);
  if (plan.scratch !== null) await bringBackCell(session, scratch, plan.scratch, openEditor);
  if (plan.current && Object.keys(saved.prose).length) (await loadProse(session)).restore(saved.prose);
  // An add-on's state is its own to judge (an exercise passed stays passed): kept either way.
  page.savedAddons = { ...(saved.addons || {}) };
  for (const [name, handlers] of page.addons) restoreAddon(page, name, handlers);
  showBar(page, true);
  say(page, restoredText(plan.current, cells.filter((cell) => cell.edited).map((cell) => cell.number)));
}

// -- Reset page -----------------------------------------------------------------------------------

async function resetPage(session) {
  const page = session.pageState;
  clearTimeout(page.timer);
  const queue = page.hooks.machinery();
  if (queue !== null) (await queue).endPython(session);
  for (const cell of sessionCells(session)) resetCell(cell);
  for (const cell of session.buildOnlyCells) setBuildOnlyNote(cell, null);
  if (page.proseLoaded !== null) await page.proseLoaded;
  if (session.prose !== null) session.prose.resetAll();
  page.savedAddons = {};
  for (const handlers of page.addons.values()) handlers.reset();
  try {
    session.storage.removeItem(keyOf(session));
  } catch {
    // nothing was kept
  }
  showBar(page, false);
  say(page, "The page is the build's again: its code, outputs, numbers and sentences.");
  const first = session.cells[0];
  if (first) {
    setUpNow(session, first.el);
    first.controls.run.focus();
  }
}

// -- the page bar and the skip link ---------------------------------------------------------------

function say(page, text) {
  page.bar.status.textContent = text;
  announce(text);
}

function showBar(page, changes) {
  page.bar.reset.hidden = !changes;
}

function makeBar(session) {
  const article = session.root.querySelector("article.bd-article");
  const first = session.cells[0];
  if (!article || !first) return null;
  const made = {
    element: element("div", "runner-page-bar"),
    reset: button("runner-reset-page", "Reset page", () => resetPage(session), "reset"),
    status: element("span", "runner-page-status"),
  };
  made.element.setAttribute("role", "region");
  made.element.setAttribute("aria-label", "Your changes to this page");
  made.reset.setAttribute("aria-label", "Reset page: the build's code, outputs and text again");
  made.reset.hidden = true;
  made.element.append(made.reset, made.status);
  const heading = article.querySelector("h1");
  (heading || article.firstElementChild).after(made.element);
  const skip = element("a", "runner-skip-link", "Skip to the first code cell");
  skip.href = `#${first.el.id || (first.el.id = "runner-first-cell")}`;
  skip.addEventListener("click", (event) => {
    event.preventDefault();
    setUpNow(session, first.el);
    first.controls.run.focus();
    first.controls.run.scrollIntoView({ block: "center" });
  });
  article.ownerDocument.body.prepend(skip);
  return made;
}

/**
 * Set up the page's state: its bar, what a reload brings back, saving from now on.
 * machinery(): the run queue's module (a promise), or null before the first Run;
 * restart(): the runner's Restart (a crash's note, brought back, offers it).
 * Resolves once what a reload brings back is back.
 */
export async function setUpPageState(session, { machinery, openEditor, restart }) {
  const page = session.pageState;
  page.hooks = { machinery, restart };
  page.bar = makeBar(session);
  if (page.bar === null) return;
  for (const event of ["run-done", "reset", "restart", "stale", "edit", "prose"]) {
    document.addEventListener(`micrograd:${event}`, () => soon(session));
  }
  // The features that keep the prose's state load with the first Run; save what they keep.
  document.addEventListener("micrograd:run-start", () => loadProse(session), { once: true });
  const saved = read(session);
  if (saved !== null) await bringBack(session, saved, openEditor);
}
