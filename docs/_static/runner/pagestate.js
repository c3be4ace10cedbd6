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
// first cell's Run.

import {
  allBuildOnlyCells, allCells, announce, attachSavedCode, resetCell, restoredRun, scratchCell,
  sessionCells, setBuildOnlyNote, startOutput,
} from "./cells.js";
import { button, element } from "./dom.js";
import {
  pageSnapshot, restorePlan, restoredText, versionOf,
} from "./savedstate.js";
import { settings } from "./state.js";

const PREFIX = "micrograd-book:";
const KEY = `${PREFIX}${location.pathname}`;
const SAVE_AFTER_MS = 300; // well within the second a change may wait to be saved
const manifest = document.getElementById("micrograd-cells");

/** What a saved state must match to be brought back (savedstate.js). */
const version = () => versionOf(manifest ? manifest.textContent : "", settings.wheels);

const addons = new Map(); // an add-on's name -> {snapshot(), restore(saved), reset()}
// The page's state, as this module keeps it while the page is open.
const page = {
  hooks: null, // {machinery(), restart()}: the queue module (null before a Run), Restart
  savedAddons: {}, // what a reload brought back for add-ons not registered yet
  prose: null, // prose.js, once something on the page needs it
  bar: null,
  refused: false, // the storage refused a write: said once
  timer: null, // a save waiting to start
  saving: false, // a save under way (it waits for the prose's state)
};

function loadProse() {
  if (page.prose === null) {
    page.prose = Promise.all([import("./prose.js"), import("./glue.js"), import("./claims.js")])
      .then(([module]) => module);
  }
  return page.prose;
}

/**
 * The modules that draw a run's output box (outputs.js and the add-ons' renderers,
 * in the order the first Run registers them), and the runner's notes.
 */
const renderers = () => Promise.all([
  import("./outputs.js"), import("./notes.js"), import("./api.js"),
  import("./steppers.js"), import("./charts.js"),
]);

/**
 * An add-on keeps state of its own with the page's (the exercises' progress, say):
 * snapshot() gives it as JSON-able data, restore(saved) brings it back after a
 * reload, reset() is Reset page.  It is saved with the rest; call changedState()
 * when it changes.
 */
export function keepState(name, handlers) {
  addons.set(name, handlers);
  if (name in page.savedAddons) {
    handlers.restore(page.savedAddons[name]);
    delete page.savedAddons[name];
  }
}

/** An add-on's state changed: save it with the page's, soon. */
export const changedState = () => soon();

// -- saving ---------------------------------------------------------------------------------------

function changed() {
  return sessionCells().some((cell) => cell.edited || cell.shows !== "build");
}

function addonSnapshots() {
  const kept = { ...page.savedAddons };
  for (const [name, handlers] of addons) {
    const state = handlers.snapshot();
    if (state !== null) kept[name] = state;
  }
  return kept;
}

async function save() {
  page.timer = null;
  page.saving = true;
  try {
    await write();
  } finally {
    page.saving = false;
  }
}

/** Whether every change so far is saved (or refused): no save waits or is under way. */
export const allSaved = () => page.timer === null && !page.saving;

async function write() {
  const proseStates = page.prose === null ? {} : (await page.prose).snapshot();
  const addonStates = addonSnapshots();
  const kept = changed() || Object.keys(proseStates).length > 0 || Object.keys(addonStates).length > 0;
  showBar(kept);
  try {
    if (kept) {
      const state = pageSnapshot({
        version: version(), cells: allCells(), scratch: scratchCell(), prose: proseStates, addons: addonStates,
      });
      localStorage.setItem(KEY, JSON.stringify(state));
    } else {
      localStorage.removeItem(KEY);
    }
  } catch {
    if (!page.refused) {
      page.refused = true;
      say("This window does not keep your changes (a private window, or storage turned " +
        "off): they are lost when you leave the page.");
    }
  }
}

function soon() {
  clearTimeout(page.timer);
  page.timer = setTimeout(save, SAVE_AFTER_MS);
}

// -- bringing it back -----------------------------------------------------------------------------

function read() {
  try {
    const text = localStorage.getItem(KEY);
    return text === null ? null : JSON.parse(text);
  } catch {
    return null; // storage turned off, or a state this page cannot read: nothing to bring back
  }
}

/** Every page's saved state in this browser: [{path, state}] (the start page's scores). */
export function savedStates() {
  const states = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key.startsWith(PREFIX)) continue;
      try {
        states.push({ path: key.slice(PREFIX.length), state: JSON.parse(localStorage.getItem(key)) });
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
async function showRun(cell, run) {
  const [outputs, notes, api] = await renderers();
  startOutput(cell);
  const context = {
    cell, code: cell.entry ? cell.entry.code : null, restored: true,
    display: (index) => outputs.displayBox(cell, index),
  };
  for (const item of run.shown) {
    if (outputs.showAgain(cell, item)) continue;
    if (item.kind === "note") notes.showNote(cell, item);
    else if (item.kind === "crash") notes.showCrashNote(cell, item, page.hooks.restart);
    else if (item.kind === "addon" && api.addonHandler(item.name)) api.addonHandler(item.name)(item.fields, context);
  }
  restoredRun(cell, run);
}

/** Bring one saved cell back (its plan: savedstate.js, restorePlan). */
async function bringBackCell(cell, { code, codeGoes, run }, openEditor) {
  if (codeGoes === "editor") {
    await openEditor(cell);
    cell.editor.value = code;
  } else if (codeGoes === "beside") {
    attachSavedCode(cell, code, async () => {
      await openEditor(cell);
      cell.editor.value = code;
    });
  }
  if (run !== null) await showRun(cell, run);
}

async function bringBack(saved, openEditor) {
  const cells = allCells();
  const plan = restorePlan(saved, cells, version(), scratchCell());
  for (const kept of plan.cells) await bringBackCell(cells[kept.index], kept, openEditor);
  if (plan.scratch !== null) await bringBackCell(scratchCell(), plan.scratch, openEditor);
  if (plan.current && Object.keys(saved.prose).length) (await loadProse()).restore(saved.prose);
  // An add-on's state is its own to judge (an exercise passed stays passed): kept either way.
  page.savedAddons = { ...(saved.addons || {}) };
  for (const [name, handlers] of addons) {
    if (name in page.savedAddons) {
      handlers.restore(page.savedAddons[name]);
      delete page.savedAddons[name];
    }
  }
  showBar(true);
  say(restoredText(plan.current, cells.filter((cell) => cell.edited).map((cell) => cell.number)));
}

// -- Reset page -----------------------------------------------------------------------------------

async function resetPage() {
  clearTimeout(page.timer);
  const queue = page.hooks.machinery();
  if (queue !== null) (await queue).endPython();
  for (const cell of sessionCells()) resetCell(cell);
  for (const cell of allBuildOnlyCells()) setBuildOnlyNote(cell, null);
  if (page.prose !== null) (await page.prose).resetAll();
  page.savedAddons = {};
  for (const handlers of addons.values()) handlers.reset();
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing was kept
  }
  showBar(false);
  say("The page is the build's again: its code, outputs, numbers and sentences.");
  const first = allCells()[0];
  if (first) first.controls.run.focus();
}

// -- the page bar and the skip link ---------------------------------------------------------------

function say(text) {
  page.bar.status.textContent = text;
  announce(text);
}

function showBar(changes) {
  page.bar.reset.hidden = !changes;
}

function makeBar() {
  const article = document.querySelector("article.bd-article");
  const first = allCells()[0];
  if (!article || !first) return null;
  const made = {
    element: element("div", "runner-page-bar"),
    reset: button("runner-reset-page", "Reset page", () => resetPage(), "reset"),
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
  document.body.prepend(skip);
  return made;
}

/**
 * Set up the page's state: its bar, what a reload brings back, saving from now on.
 * machinery(): the run queue's module (a promise), or null before the first Run;
 * restart(): the runner's Restart (a crash's note, brought back, offers it).
 */
export function setUpPageState({ machinery, openEditor, restart }) {
  page.hooks = { machinery, restart };
  page.bar = makeBar();
  if (page.bar === null) return;
  for (const event of ["run-done", "reset", "restart", "stale", "edit", "prose"]) {
    document.addEventListener(`micrograd:${event}`, soon);
  }
  // The add-ons that keep the prose's state load with the first Run; save what they keep.
  document.addEventListener("micrograd:run-start", () => loadProse(), { once: true });
  const saved = read();
  if (saved !== null) bringBack(saved, openEditor);
}
