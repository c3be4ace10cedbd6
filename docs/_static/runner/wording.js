// What the prose says about a value the reader's run sent it (prose.js keeps
// each key's state: {value, from, stale}), as data: the words a glued number
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
  if (state.stale) {
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

/** What a claim's mark says, in brackets, when it keeps its wording (null: no mark). */
export function claimMark(state) {
  const { value, from, stale } = state;
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
  const switched = broken && hasOther;
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
