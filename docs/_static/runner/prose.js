// What the prose shows of the reader's run: the words a glued number or a claim
// carries, by its state (each key's state: outputs.js's Prose); and the two
// add-ons that show them, glued numbers and claims.  Loaded by the first Run (or
// a reload that brings the prose's state back).

import { element } from "./cells.js";
import {
  installOnce, notRerunNote, notRerunWords, proseOf, registerAddon,
} from "./outputs.js";

// -- the words of a state -------------------------------------------------------------------------
// What the prose says about a value the reader's run sent it (outputs.js's Prose
// keeps each key's state: {value, from, stale, notRerun}), as data: the words a glued number
// (glue, below) or a claim (below) carries, and how it is marked.  The add-ons
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

// -- glued numbers --------------------------------------------------------------------------------
// Numbers in the prose that follow the reader's run: an add-on of the runner (outputs.js).
//
// The build pastes each glued number as <span class="pasted-text"
// data-glue-key="moons_final_loss" data-glue-format=".6f">0.010978</span>
// (docs/_ext/glued_numbers.py), and lists every key's formats for the kernel
// (the page's cell manifest, docs/_ext/cell_manifest.py).  In the browser, a
// cell's myst_nb.glue(key, value) sends the add-on message "glue" {key, texts}
// (kernel.py): texts holds the value formatted in each of those formats by
// Python, as myst-nb formats it at build time (glue_text.py).  Where each key's
// value comes from (this run, an earlier session, stale) is prose.js's; this
// module shows it: each span of the key shows the reader's text, marked as the
// reader's, with the build's number in words for a screen reader and on hover
// (not a focus stop), or the build's number, marked when it is out of date.

const buildText = (built, span) => {
  const holder = document.createElement("span");
  holder.innerHTML = built.get(span);
  return holder.textContent;
};

function renderGlue(spans, built, key, state) {
  for (const span of spans) {
    if (span.dataset.glueKey !== key) continue;
    const theirs = state.value === null ? undefined : state.value[span.dataset.glueFormat];
    const view = glueView(state, buildText(built, span), theirs);
    span.classList.remove("mg-glue-yours", "mg-glue-stale");
    delete span.dataset.shown;
    if (view.words === null) {
      span.innerHTML = built.get(span);
      continue;
    }
    span.replaceChildren(document.createTextNode(view.text), element("span", "mg-glue-note", view.words));
    span.classList.add(view.as === "yours" ? "mg-glue-yours" : "mg-glue-stale");
    span.dataset.shown = view.as;
  }
}

/** Follow the glued numbers of the page (under session.root), once the first Run loads this. */
function installGlue(session) {
  const spans = Array.from(session.root.querySelectorAll("span.pasted-text[data-glue-key]"));
  const built = new Map(spans.map((span) => [span, span.innerHTML])); // as the build wrote them
  const keys = new Set(spans.map((span) => span.dataset.glueKey));
  const glued = proseOf(session).followKeys((key) => keys.has(key), (key, state) => renderGlue(spans, built, key, state));
  registerAddon(session, "glue", ({ key, texts }) => {
    if (keys.has(key)) glued.set(key, texts);
  });
}

// -- claims ---------------------------------------------------------------------------------------
// Sentences that follow the reader's run: an add-on of the runner (outputs.js).
//
// A sentence whose truth depends on a value is a claim: a page's hidden cell
// states it as code (claim(key, holds, about): claims.py), and the build
// writes the sentence's wordings (docs/_ext/claims.py) as
//   <span class="mg-claim" data-claim-key="moons_loss_rises">
//     <span class="mg-claim-holds">rises</span>
//     <span class="mg-claim-fails" hidden>falls</span></span>
// (the second wording only where the sentence has one), having checked that
// every claim holds for the build's own run.  In the browser the cell's
// claim(...) sends the add-on message "claim" {key, holds, otherwise, about} (kernel.py),
// and every span of that key shows what is true of the run its cells last
// showed (the Prose keeps where that is from): the first wording while the claim
// holds; else the other wording, marked as the reader's; else the first
// wording, marked "not true of your run", with what the claim is about.  The
// marks are words inside the sentence (a screen reader reads them), not focus
// stops.  A claim whose cells are stale keeps its wording, marked out of date.

const GLUE_PREFIX = "claim:"; // what the runner's events name a claim by (claims.py)

function renderClaims(spans, key, state) {
  for (const span of spans) {
    if (GLUE_PREFIX + span.dataset.claimKey !== key) continue;
    const holds = span.querySelector(":scope > .mg-claim-holds");
    const fails = span.querySelector(":scope > .mg-claim-fails");
    for (const old of span.querySelectorAll(":scope > .mg-claim-mark")) old.remove();
    const view = claimView(state, fails !== null);
    // Only what changes is touched, so that the build's own span stays byte for byte.
    if (holds.hidden !== view.switched) holds.hidden = view.switched;
    if (fails && fails.hidden === view.switched) fails.hidden = !view.switched;
    if (view.words !== null) span.append(element("span", "mg-claim-mark", ` [${view.words}]`));
    span.classList.toggle("mg-claim-yours", view.yours);
    span.classList.toggle("mg-claim-broken", view.broken);
    span.classList.toggle("mg-claim-stale", view.stale);
    if (view.shown !== null) span.dataset.shown = view.shown;
    else delete span.dataset.shown; // the build's, as the build wrote it
  }
}

/** Follow the claims of the page (under session.root), once the first Run loads this. */
function installClaims(session) {
  const spans = Array.from(session.root.querySelectorAll("span.mg-claim[data-claim-key]"));
  const keys = new Set(spans.map((span) => GLUE_PREFIX + span.dataset.claimKey));
  const claims = proseOf(session).followKeys((key) => keys.has(key), (key, state) => renderClaims(spans, key, state));
  // The claim as claims.py sent it ({holds, otherwise, about}), whole: what it means is
  // Python's to say, and the views above and steppers.js read it as sent.
  registerAddon(session, "claim", ({ key, ...claim }) => {
    if (keys.has(GLUE_PREFIX + key)) claims.set(GLUE_PREFIX + key, claim);
  });
}

/** Follow the page's glued numbers and claims (once: the first Run, or a reload). */
export const install = (session) => installOnce(session, "prose", () => {
  installGlue(session);
  installClaims(session);
});
