// The runner's extension API (output renderers, add-on messages, the micrograd:*
// events), with what the prose shows of the reader's run (the Prose: each glued
// value's and claim's state), which the runner's own modules and the features
// read.  What a run shows in a cell is renderers.js's; what it says, in words,
// words.js's.  Loaded by the first Run (or a reload that shows a saved run again,
// or brings back the prose's state).

// -- the extension API ----------------------------------------------------------------------------
// The runner's extension API: how an add-on module (a feature's: a chart, glued
// numbers in the prose) takes part in a run without editing the run queue or
// the worker's loop.  An add-on imports this module ("./outputs.js") and is
// imported by runner.js (page side) or worker.js (worker side).
//
// Each function is given the page's session (session.js), which keeps what is
// registered.
//
// registerOutput(session, mime, show, laidOut)
//     Show display outputs of this MIME type with show(box, data, output): box
//     is the output's empty element (div.runner-display, data-mime set), data
//     the bundle's entry for mime, output {bundle, index, cell}.  A bundle is
//     shown by the most recently registered renderer among its MIME types, so
//     an add-on's renderer wins over the built-in ones (Graphviz DOT, SVG,
//     HTML, Markdown, LaTeX, plain text: below).  When the worker has
//     laid the output out (worker.js), laidOut(box, html) puts the HTML in
//     (by default, as the box's content).
//
// registerAddon(session, name, handle)
//     The add-on messages of this name (kernel.py's post_message(name, **fields))
//     go to handle(fields, run): run is {cell, code, display(index)} (cell: the
//     Cell, null for a hidden cell; code: its index among all the page's code
//     cells, queue.js; display(index): the element of the run's index-th display
//     output, null for a hidden cell; restored: true when a reload shows a
//     saved run again, and the add-on recorded the message in the cell's
//     shown items, cells.js recordShown).  A message of a run that has ended or
//     was stopped is dropped.  Add-on names are their own namespace: they never
//     clash with the protocol's message types (protocol.js).
//
// ask(session, addon, question, fields), in python.js
//     Ask the add-on's worker side a question (worker.js's registerAnswer there):
//     resolves with the answer's fields, between runs, once Python is running
//     (run a cell first); rejects with the worker's reason when there is none.
//
// Events, CustomEvents dispatched on document.  In their details, cell is the
// cell's index among the runnable cells (null for a hidden cell), code its index
// among all the page's code cells, glue the keys of the values the cells glue
// into the text:
//     micrograd:run-start  {cell, code, edited}      a cell (hidden ones too) starts
//     micrograd:run-done   {cell, code, ok, edited}  it finished (ok: no exception)
//     micrograd:cell-settled {cell, state}           a runnable cell's Run ended: done,
//                                                     raised, skipped, stopped or crashed
//     micrograd:restart    {}                        the page's Python ended and a new
//                                                     one starts (Restart, Stop, or the
//                                                     first Run or Restart after a crash):
//                                                     show the build's values again
//     micrograd:reset      {cells, code, glue}       these cells' code and outputs are
//                                                     the build's again (Reset)
//     micrograd:stale      {cells, code, glue}       every cell whose shown output is
//                                                     stale now (an empty list: none);
//                                                     sent whenever that set changes
//
// On the worker side, registerLayout in worker.js adds a step that turns a
// display output into HTML once the cell has run.  The built-in renderers are
// renderers.js's.

const insertHTML = (box, html) => {
  box.innerHTML = html;
};

export function registerOutput(session, mime, show, laidOut = insertHTML) {
  session.renderers.push([mime, { show, laidOut }]);
}

export function registerAddon(session, name, handle) {
  if (session.addons.has(name)) throw new Error(`runner: add-on messages ${name} are already handled`);
  session.addons.set(name, handle);
}

/** The [mime, {show, laidOut}] for this bundle: the most recently registered of its types. */
export function rendererFor(session, bundle) {
  const { renderers } = session;
  for (let i = renderers.length - 1; i >= 0; i -= 1) {
    if (renderers[i][0] in bundle) return renderers[i];
  }
  return null;
}

export function addonHandler(session, name) {
  return session.addons.get(name) || null;
}

/**
 * Set an add-on up for the session once, however many times its module is asked
 * to (the first Run, and a reload that shows a saved run again, both do).
 */
export function installOnce(session, name, setUp) {
  if (session.installed.has(name)) return;
  session.installed.add(name);
  setUp();
}

/** Dispatch micrograd:<name> on document. */
export function emit(name, detail = {}) {
  document.dispatchEvent(new CustomEvent(`micrograd:${name}`, { detail }));
}

// -- what the prose shows of the reader's run: each key's state ----------------------------------
// What the prose shows of the reader's run: the values hidden cells send the
// page for its sentences (glued numbers and claims, each a feature's add-on:
// docs/_features/glue and claims), each under its key, with where it comes
// from, as data.  It lives here, with the extension API, rather than in one of
// those add-ons: the runner's own modules read every key's state (pagestate.js
// saves and restores it, queue.js says the words of what stays the build's,
// runner.js hands it to the browser tests), and a module of its own, shared by
// the two, would be a page module more than the runner keeps to
// (tests/site/test_site_helpers.py).  A key's state is
//   {value, from, stale, notRerun, rerun}
// value: the reader's value (null: the build's); from: "run" (this Python
// session) or "earlier-run" (a session that has ended, or a saved run brought
// back on reload); stale: the cells it was computed from have changed since;
// notRerun (only while stale, where it is so): it is the build's, computed from
// a build-only cell, and these shown cells it depends on are the reader's
// ([{number, edited}]: planner.notRerun); rerun (only while stale, elsewhere): the
// number of the shown cell whose Run brings it up to date.
// It follows the runner's events as the cells' outputs do, so that a sentence
// never says something the outputs around it no longer show:
//   micrograd:restart  the reader's values are from an earlier session now
//   micrograd:reset    {glue}: those keys are the build's again
//   micrograd:stale    {glue, notRerun, rerun}: exactly these keys are stale (notRerun:
//                      {key: cells} for those that stay the build's; rerun:
//                      {key: cell number} for the others)
//
// Each change is the event micrograd:prose {key, state} on document.
// followKeys(owns, render) gives an add-on the keys it owns (owns(key)) and
// calls render(key, state) whenever one changes; its set(key, value) records
// the reader's value of a run.  snapshot() and restore() save and bring back
// every key's state (pagestate.js).  The keys' states are the session's:
// session.prose, a Prose (proseOf makes it the first time it is needed).

const BUILD = Object.freeze({ value: null, from: "build", stale: false });

/** What the prose shows of the reader's run, for one session. */
export class Prose {
  constructor() {
    this.followers = []; // {owns, render, states: Map key -> state}
    document.addEventListener("micrograd:restart", () => {
      for (const { states } of this.followers) {
        for (const [key, state] of states) {
          if (state.value !== null) this.update(key, { from: "earlier-run" });
        }
      }
    });
    document.addEventListener("micrograd:reset", (event) => {
      for (const key of event.detail.glue || []) this.update(key, { value: null, from: "build", stale: false });
    });
    document.addEventListener("micrograd:stale", (event) => {
      const stale = new Set(event.detail.glue || []);
      const notRerun = event.detail.notRerun || {};
      const rerun = event.detail.rerun || {};
      for (const { states } of this.followers) {
        for (const [key, state] of states) if (state.stale && !stale.has(key)) this.update(key, { stale: false });
      }
      for (const key of stale) {
        this.update(key, { stale: true, notRerun: notRerun[key] || null, rerun: rerun[key] ?? null });
      }
    });
  }

  follower(key) {
    return this.followers.find((f) => f.owns(key)) || null;
  }

  update(key, change) {
    const owner = this.follower(key);
    if (!owner) return;
    const state = { ...(owner.states.get(key) || BUILD), ...change };
    if (!state.stale || !state.notRerun) delete state.notRerun;
    if (!state.stale || state.rerun == null) delete state.rerun;
    if (state.value === null && !state.stale) owner.states.delete(key);
    else owner.states.set(key, state);
    const shown = owner.states.get(key) || BUILD;
    owner.render(key, shown);
    document.dispatchEvent(new CustomEvent("micrograd:prose", { detail: { key, state: shown } }));
  }

  /** Follow the keys owns(key) says are the add-on's; render(key, state) shows one. */
  followKeys(owns, render) {
    const states = new Map();
    this.followers.push({ owns, render, states });
    return {
      /** A run's value for the key: the reader's, current. */
      set: (key, value) => this.update(key, { value, from: "run", stale: false }),
      /** The key's state now. */
      state: (key) => states.get(key) || BUILD,
    };
  }

  /** Every key's state that is not the build's: {key: {value, from, stale}}. */
  snapshot() {
    const saved = {};
    for (const { states } of this.followers) for (const [key, state] of states) saved[key] = state;
    return saved;
  }

  /** Bring saved states back (a reload): the reader's values are from an earlier session. */
  restore(saved) {
    for (const [key, state] of Object.entries(saved)) {
      this.update(key, { ...state, from: state.value === null ? "build" : "earlier-run" });
    }
  }

  /** Every key the build's again (Reset page). */
  resetAll() {
    for (const { states } of this.followers) {
      for (const key of [...states.keys()]) this.update(key, { value: null, from: "build", stale: false });
    }
  }
}

/** The session's Prose (made the first time). */
export function proseOf(session) {
  if (session.prose === null) session.prose = new Prose();
  return session.prose;
}
