// Glued numbers: numbers in the prose that follow the reader's run, an add-on of
// the runner (outputs.js).  The words a glued number of each state carries, as
// data (no DOM, so that Node's tests read them), and the add-on that shows them.
// Each number's state, where its value comes from (this run, an earlier session,
// stale), is the runner's (outputs.js's Prose), which claims share.  Loaded by the
// first Run (or a reload that brings the prose's state back).

import { element } from "../../_static/runner/cells.js";
import { installOnce, proseOf, registerAddon } from "../../_static/runner/outputs.js";
import { notRerunNote, rerunWords } from "../../_static/runner/words.js";

// -- the words of a state -------------------------------------------------------------------------
// What a glued number of a state ({value, from, stale, notRerun}) says, and how it is marked.

/**
 * How a glued number of this state shows: {words (what it says about its number,
 * for a screen reader and on hover; null: nothing, the build's, current), text
 * (the number shown), as ("yours", "earlier" or "stale"; null: the build's)}.
 * buildText: the build's number, as the page shows it; theirs: the reader's
 * number in this span's format (undefined: the run has none in it).  A current
 * number of the reader's that reads as the build's shows plain: a mark on every
 * number a run left as it was would hide the few it changed.  shownWording: where
 * the number sits in a claim's other wording, which the build hid, the wording the
 * build showed in its place (its own value there, a fragment of a sentence the
 * build never showed, would tell the reader nothing); null where another number of
 * that wording quotes it already (once is enough to hear); undefined elsewhere.
 */
export function glueView(state, buildText, theirs, shownWording = undefined) {
  const build = shownWording === undefined ? `the build's value: ${buildText}`
    : shownWording === null ? null : `the build's words here: "${shownWording}"`;
  const and = (words) => (build === null ? `${words}.` : `${words} (${build}).`);
  let words = null;
  if (state.stale && state.notRerun) {
    words = notRerunNote(state.notRerun);
  } else if (state.stale) {
    const whose = state.value === null ? "From the build" : "From an earlier run of yours";
    words = and(`${whose}; your changes above make it out of date${rerunWords(state)}`);
  } else if (state.value !== null && theirs !== buildText) {
    if (theirs === undefined) words = "From the build: your run's value cannot be shown here.";
    else if (build === null) words = state.from === "run" ? "Your run's value." : "From an earlier Python session of yours.";
    else words = state.from === "run" ? `Your run's value; ${build}.`
      : `From an earlier Python session of yours; ${build}.`;
  }
  if (words === null) return { words, text: buildText, as: null };
  const as = state.stale || theirs === undefined ? "stale" : state.from === "run" ? "yours" : "earlier";
  return { words, text: theirs === undefined ? buildText : theirs, as };
}

// -- the add-on -----------------------------------------------------------------------------------
// The build pastes each glued number as <span class="pasted-text"
// data-glue-key="moons_final_loss" data-glue-format=".6f">0.010978</span>
// (directive.py), and lists every key's formats for the kernel (the page's cell
// manifest, docs/_ext/cell_manifest.py).  In the browser, a cell's
// myst_nb.glue(key, value) sends the add-on message "glue" {key, texts}
// (runtime.py): texts holds the value formatted in each of those formats by
// Python, as myst-nb formats it at build time.  Where each key's value comes
// from (this run, an earlier session, stale) is the Prose's; this module
// shows it: each span of the key shows the reader's text, marked as the
// reader's, with the build's number in words for a screen reader and on hover
// (not a focus stop), or the build's number, marked when it is out of date.

const buildText = (built, span) => {
  const holder = document.createElement("span");
  holder.innerHTML = built.get(span);
  return holder.textContent;
};

// The wording the build showed where a span sits in a claim's other wording (the
// claims add-on's markup, claims.js), as the build wrote it: in its words, its math
// as text (data-claim-words, the claims' directive.py), since the math typeset on the
// page has no text a screen reader reads right; undefined elsewhere.
export function shownWordingOf(span) {
  const claim = span.closest(".mg-claim-fails")?.parentElement;
  const shown = claim?.querySelector(":scope > .mg-claim-holds");
  if (!shown) return undefined;
  return claim.dataset.claimWords ?? shown.textContent.replace(/\s+/g, " ").trim();
}

// A claim's other wording quotes the build's words once: at the first of its numbers
// that has a note (`quoting`: wording's element -> that number's span).
function renderGlue(spans, built, wordings, quoting, key, state) {
  for (const span of spans) {
    if (span.dataset.glueKey !== key) continue;
    const theirs = state.value === null ? undefined : state.value[span.dataset.glueFormat];
    let view = glueView(state, buildText(built, span), theirs, wordings.get(span));
    const wording = span.closest(".mg-claim-fails");
    if (wording && view.words !== null) {
      const other = quoting.get(wording);
      if (other && other !== span && other.dataset.shown !== undefined) {
        view = glueView(state, buildText(built, span), theirs, null);
      } else quoting.set(wording, span);
    } else if (wording && quoting.get(wording) === span) quoting.delete(wording);
    span.classList.remove("mg-glue-yours", "mg-glue-stale");
    delete span.dataset.shown;
    if (view.words === null) {
      span.innerHTML = built.get(span);
      continue;
    }
    span.replaceChildren(document.createTextNode(view.text), element("span", "mg-glue-note runner-read-only", view.words));
    span.classList.add(view.as === "yours" ? "mg-glue-yours" : "mg-glue-stale");
    span.dataset.shown = view.as;
  }
}

/** Follow the glued numbers of the page (under session.root), once (the first Run, or a reload). */
export const install = (session) => installOnce(session, "glue", () => {
  const spans = Array.from(session.root.querySelectorAll("span.pasted-text[data-glue-key]"));
  const built = new Map(spans.map((span) => [span, span.innerHTML])); // as the build wrote them
  const wordings = new Map(spans.map((span) => [span, shownWordingOf(span)]));
  const quoting = new Map();
  const keys = new Set(spans.map((span) => span.dataset.glueKey));
  const glued = proseOf(session).followKeys((key) => keys.has(key), (key, state) => renderGlue(spans, built, wordings, quoting, key, state));
  registerAddon(session, "glue", ({ key, texts }) => {
    if (keys.has(key)) glued.set(key, texts);
  });
});
