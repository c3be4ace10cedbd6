// What the prose shows of the reader's run: the values hidden cells send the
// page for its sentences (glued numbers: glue.js; claims: claims.js), each
// under its key, with where it comes from, as data.  A key's state is
//   {value, from, stale, notRerun}
// value: the reader's value (null: the build's); from: "run" (this Python
// session) or "earlier-run" (a session that has ended, or a saved run brought
// back on reload); stale: the cells it was computed from have changed since;
// notRerun (only while stale, where it is so): it is the build's, computed from
// a build-only cell, and these shown cells it depends on are the reader's
// ([{number, edited}]: planner.notRerun).
// It follows the runner's events as the cells' outputs do, so that a sentence
// never says something the outputs around it no longer show:
//   micrograd:restart  the reader's values are from an earlier session now
//   micrograd:reset    {glue}: those keys are the build's again
//   micrograd:stale    {glue, notRerun}: exactly these keys are stale (notRerun:
//                      {key: cells} for those that stay the build's)
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
      const now = new Set(event.detail.glue || []);
      const notRerun = event.detail.notRerun || {};
      for (const { states } of this.followers) {
        for (const [key, state] of states) if (state.stale && !now.has(key)) this.update(key, { stale: false });
      }
      for (const key of now) this.update(key, { stale: true, notRerun: notRerun[key] || null });
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
    if (state.value === null && !state.stale) owner.states.delete(key);
    else owner.states.set(key, state);
    const now = owner.states.get(key) || BUILD;
    owner.render(key, now);
    document.dispatchEvent(new CustomEvent("micrograd:prose", { detail: { key, state: now } }));
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
