// A page's state is one thing: what the reader changed on it (code, runs, and
// what the prose shows of them) is saved in the browser as it changes, brought
// back on reload and on back-navigation, marked as the reader's, and "Reset
// page" puts all of it back to the build's at once.
//
// - Saved: each cell's code (if edited) and what its output box shows, the
//   scratch cell's ("Try your own code") as a page cell's, as data
//   (savedstate.js: the worker's bundles and laid-out HTML, the runner's notes),
//   and the state of every glued number and claim (prose.js), under the page's
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
// (session.pageState, runtime.js); the storage is the one the page gave
// the session (session.storage, null where the browser refuses it).

import {
  announce, attachSavedCode, resetCell, restoredRun, sessionCells, setBuildOnlyNote, startOutput,
} from "./cells.js";
import { button, element } from "./dom.js";
import {
  pageSnapshot, restorePlan, restoredText, versionOf,
} from "./savedstate.js";

const PREFIX = "micrograd-book:";
const SAVE_AFTER_MS = 300; // well within the second a change may wait to be saved

/** Where the page's state is kept: under the page's address. */
const keyOf = (session) => `${PREFIX}${session.path}`;

/** What a saved state must match to be brought back (savedstate.js). */
const version = (session) => versionOf(session.manifestText, session.settings.wheels);

/** prose.js and the add-ons that show the prose (glue.js, claims.js), set up once. */
function loadProse(session) {
  const page = session.pageState;
  if (page.prose === null) {
    page.prose = Promise.all([import("./prose.js"), import("./glue.js"), import("./claims.js")])
      .then(([module, glue, claims]) => {
        glue.install(session);
        claims.install(session);
        return module.proseOf(session);
      });
  }
  return page.prose;
}

/**
 * The modules that draw a run's output box (outputs.js and the add-ons' renderers,
 * in the order the first Run registers them), and the runner's notes.
 */
const renderers = (session) => Promise.all([
  import("./outputs.js"), import("./notes.js"), import("./api.js"),
  import("./steppers.js"), import("./charts.js"),
]).then(([outputs, notes, api, steppers, charts]) => {
  outputs.registerBuiltIns(session);
  steppers.install(session);
  charts.install(session);
  return [outputs, notes, api];
});

/**
 * An add-on keeps state of its own with the page's (the exercises' progress, say):
 * snapshot() gives it as JSON-able data, restore(saved) brings it back after a
 * reload, reset() is Reset page.  It is saved with the rest; call changedState()
 * when it changes.
 */
export function keepState(session, name, handlers) {
  const page = session.pageState;
  page.addons.set(name, handlers);
  if (name in page.savedAddons) {
    handlers.restore(page.savedAddons[name]);
    delete page.savedAddons[name];
  }
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
  const proseStates = page.prose === null ? {} : (await page.prose).snapshot();
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
  const [outputs, notes, api] = await renderers(session);
  startOutput(cell);
  const context = {
    cell, code: cell.entry ? cell.entry.code : null, restored: true,
    display: (index) => outputs.displayBox(cell, index),
  };
  for (const item of run.shown) {
    if (outputs.showAgain(session, cell, item)) continue;
    if (item.kind === "note") notes.showNote(cell, item);
    else if (item.kind === "crash") notes.showCrashNote(cell, item, session.pageState.hooks.restart);
    else if (item.kind === "addon" && api.addonHandler(session, item.name)) {
      api.addonHandler(session, item.name)(item.fields, context);
    }
  }
  restoredRun(cell, run);
}

/** Bring one saved cell back (its plan: savedstate.js, restorePlan). */
async function bringBackCell(session, cell, { code, codeGoes, run }, openEditor) {
  if (codeGoes === "editor") {
    await openEditor(cell);
    cell.editor.value = code;
  } else if (codeGoes === "beside") {
    attachSavedCode(cell, code, async () => {
      await openEditor(cell);
      cell.editor.value = code;
    });
  }
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
  for (const [name, handlers] of page.addons) {
    if (name in page.savedAddons) {
      handlers.restore(page.savedAddons[name]);
      delete page.savedAddons[name];
    }
  }
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
  if (page.prose !== null) (await page.prose).resetAll();
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
  if (first) first.controls.run.focus();
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
  // The add-ons that keep the prose's state load with the first Run; save what they keep.
  document.addEventListener("micrograd:run-start", () => loadProse(session), { once: true });
  const saved = read(session);
  if (saved !== null) await bringBack(session, saved, openEditor);
}
