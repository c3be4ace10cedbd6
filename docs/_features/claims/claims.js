// Claims: sentences of the prose that follow the reader's run, an add-on of the
// runner (outputs.js).  The words a claim of each state carries, as data (no DOM,
// so that Node's tests read them), and the add-on that shows them.  Each claim's
// state, where its value comes from (this run, an earlier session, stale), is the
// runner's (outputs.js's Prose), which glued numbers share.  Loaded by the first
// Run (or a reload that brings the prose's state back).

import { element } from "../../_static/runner/cells.js";
import { installOnce, proseOf, registerAddon } from "../../_static/runner/outputs.js";
import { notRerunWords, rerunWords } from "../../_static/runner/words.js";

// -- the words of a state -------------------------------------------------------------------------
// What a claim of a state ({value, from, stale, notRerun, rerun}) says, and how it is marked.

/** What a claim's mark says, in brackets, when it keeps its wording (null: no mark). */
export function claimMark(state) {
  const { value, from, stale } = state;
  if (stale && state.notRerun) return notRerunWords(state.notRerun);
  if (stale) {
    const whose = value === null ? "from the build" : "from an earlier run of yours";
    return `${whose}: your changes above make it out of date${rerunWords(state)}`;
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
  // case, runtime.py's `otherwise`, makes neither true).
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

/**
 * The marks a paragraph's claims carry ({block, words} each, in the page's order; words:
 * a claim's mark, claimView's, null: none): one mark per paragraph for each thing said,
 * after the last claim that has it.  Two claims out of date in one paragraph say so
 * once, at the end of the second: twice, mid-sentence, the mark reads as noise.
 */
export function sharedMarks(claims) {
  return claims.map(({ block, words }, k) => (words !== null
    && claims.slice(k + 1).some((later) => later.block === block && later.words === words) ? null : words));
}

// -- the add-on -----------------------------------------------------------------------------------
// A sentence whose truth depends on a value is a claim: a page's hidden cell
// states it as code (claim(key, holds, about): runtime.py), and the build
// writes the sentence's wordings (directive.py) as
//   <span class="mg-claim" data-claim-key="moons_loss_rises">
//     <span class="mg-claim-holds">rises</span>
//     <span class="mg-claim-fails" hidden>falls</span></span>
// (the second wording only where the sentence has one), having checked that
// every claim holds for the build's own run.  In the browser the cell's
// claim(...) sends the add-on message "claim" {key, holds, otherwise, about} (runtime.py),
// and every span of that key shows what is true of the run its cells last
// showed (the Prose keeps where that is from): the first wording while the claim
// holds; else the other wording, marked as the reader's; else the first
// wording, marked "not true of your run", with what the claim is about.  The
// marks are words inside the sentence (a screen reader reads them), not focus
// stops.  A claim whose cells are stale keeps its wording, marked out of date.

const GLUE_PREFIX = "claim:"; // what the runner's events name a claim by (runtime.py)

// The paragraph (or list item, cell of a table...) a claim's sentence lies in.
const blockOf = (span) => span.parentElement.closest("p, li, dt, dd, td, th, figcaption, blockquote, div");

/** Each claim's mark (marks: span -> its words, null: none), one per paragraph (sharedMarks). */
function placeMarks(spans, marks) {
  const shared = sharedMarks(spans.map((span) => ({ block: blockOf(span), words: marks.get(span) ?? null })));
  spans.forEach((span, k) => {
    for (const old of span.querySelectorAll(":scope > .mg-claim-mark")) old.remove();
    if (shared[k] !== null) span.append(element("span", "mg-claim-mark", ` [${shared[k]}]`));
  });
}

function renderClaims(spans, marks, key, state) {
  for (const span of spans) {
    if (GLUE_PREFIX + span.dataset.claimKey !== key) continue;
    const holds = span.querySelector(":scope > .mg-claim-holds");
    const fails = span.querySelector(":scope > .mg-claim-fails");
    const view = claimView(state, fails !== null);
    // Only what changes is touched, so that the build's own span stays byte for byte.
    if (holds.hidden !== view.switched) holds.hidden = view.switched;
    if (fails && fails.hidden === view.switched) fails.hidden = !view.switched;
    marks.set(span, view.words);
    span.classList.toggle("mg-claim-yours", view.yours);
    span.classList.toggle("mg-claim-broken", view.broken);
    span.classList.toggle("mg-claim-stale", view.stale);
    if (view.shown !== null) span.dataset.shown = view.shown;
    else delete span.dataset.shown; // the build's, as the build wrote it
  }
  placeMarks(spans, marks);
}

/** Follow the claims of the page (under session.root), once (the first Run, or a reload). */
export const install = (session) => installOnce(session, "claims", () => {
  const spans = Array.from(session.root.querySelectorAll("span.mg-claim[data-claim-key]"));
  const keys = new Set(spans.map((span) => GLUE_PREFIX + span.dataset.claimKey));
  const marks = new Map(); // span -> its mark's words (claimView), before placeMarks shares them
  const claims = proseOf(session).followKeys((key) => keys.has(key), (key, state) => renderClaims(spans, marks, key, state));
  // The claim as runtime.py sent it ({holds, otherwise, about}), whole: what it means is
  // Python's to say, and the views above and predict.js read it as sent.
  registerAddon(session, "claim", ({ key, ...claim }) => {
    if (keys.has(GLUE_PREFIX + key)) claims.set(GLUE_PREFIX + key, claim);
  });
});
