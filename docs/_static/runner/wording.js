// What the prose says about a value the reader's run sent it (prose.js keeps
// each key's state: {value, from, stale, notRerun}), as data: the words a glued number
// (glue.js) or a claim (claims.js) carries, and how it is marked.  The add-ons
// draw what these return; no DOM here, so that Node's tests read the wording.

/**
 * How a glued number of this state shows: {words (what it says about its number,
 * for a screen reader and on hover; null: nothing, the build's, current), text
 * (the number shown), as ("yours", "earlier" or "stale"; null: the build's)}.
 * buildText: the build's number, as the page shows it; theirs: the reader's
 * number in this span's format (undefined: the run has none in it).
 */
export function glueView(state, buildText, theirs) {
  const build = `the build's value: ${buildText}`;
  let words = null;
  if (state.stale && state.notRerun) {
    words = notRerunNote(state.notRerun);
  } else if (state.stale) {
    const whose = state.value === null ? "From the build" : "From an earlier run of yours";
    words = `${whose}; your changes above make it out of date (${build}).`;
  } else if (state.value !== null) {
    if (theirs === undefined) words = "From the build: your run's value cannot be shown here.";
    else words = state.from === "run" ? `Your run's value; ${build}.`
      : `From an earlier Python session of yours; ${build}.`;
  }
  if (words === null) return { words, text: buildText, as: null };
  const as = state.stale || theirs === undefined ? "stale" : state.from === "run" ? "yours" : "earlier";
  return { words, text: theirs === undefined ? buildText : theirs, as };
}

/**
 * What an output that stays the build's says once a cell it depends on is one
 * the reader changed (planner.notRerun): notRerun, those cells, [{number,
 * edited}] (edited: the reader edited it; else it ran from the reader's values).
 */
export function notRerunWords(notRerun) {
  const names = (list) => {
    const numbers = list.map((c) => c.number);
    const listed = numbers.length === 1 ? `${numbers[0]}`
      : `${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`;
    return `${numbers.length === 1 ? "cell" : "cells"} ${listed}`;
  };
  const edited = notRerun.filter((c) => c.edited);
  const one = (edited.length || notRerun.length) === 1;
  const why = edited.length > 0
    ? `${names(edited)}, which you changed`
    : `${names(notRerun)}, which ${one ? "was" : "were"} run from your changes`;
  return `from the build, not re-run: depends on ${why}`;
}

/** The same, as a sentence of its own (a cell's note, a glued number's words). */
export function notRerunNote(notRerun) {
  const words = notRerunWords(notRerun);
  return `${words[0].toUpperCase()}${words.slice(1)}.`;
}

/** What a claim's mark says, in brackets, when it keeps its wording (null: no mark). */
export function claimMark(state) {
  const { value, from, stale } = state;
  if (stale && state.notRerun) return notRerunWords(state.notRerun);
  if (stale) {
    const whose = value === null ? "from the build" : "from an earlier run of yours";
    return `${whose}: your changes above make it out of date`;
  }
  if (value === null || value.holds) return from === "earlier-run" ? "from an earlier session of yours" : null;
  const broken = value.about ? `not true of your run: ${value.about}` : "not true of your run";
  return from === "earlier-run" ? `${broken} (an earlier session)` : broken;
}

/**
 * How a claim of this state shows: {switched (its other wording is shown), words
 * (its mark, null: none), yours, broken, stale (its classes), shown ("stale",
 * "broken", "yours"; null: the build's, as the build wrote it)}.  hasOther:
 * whether the sentence has a wording for when the claim fails.
 */
export function claimView(state, hasOther) {
  const broken = state.value !== null && !state.value.holds;
  // The other wording, where the sentence has one and the run made it true (a third
  // case, claims.py's `otherwise`, makes neither true).
  const switched = broken && hasOther && state.value.otherwise !== false;
  const words = switched && !state.stale
    ? (state.from === "run" ? null : "from an earlier session of yours")
    : claimMark(state);
  let shown = null;
  if (state.stale) shown = "stale";
  else if (broken && !switched) shown = "broken";
  else if (state.value !== null) shown = "yours";
  return {
    switched,
    words,
    yours: (state.value !== null && !broken) || switched,
    broken: broken && !switched,
    stale: state.stale,
    shown,
  };
}
