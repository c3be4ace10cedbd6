// What the prose shows of the reader's run: the words a glued number carries, by
// its state (each key's state: outputs.js's Prose); and the add-on that shows
// glued numbers.  Loaded by the first Run (or a reload that brings the prose's
// state back).

import { element } from "./cells.js";
import {
  installOnce, notRerunNote, proseOf, registerAddon,
} from "./outputs.js";

// -- the words of a state -------------------------------------------------------------------------
// What the prose says about a value the reader's run sent it (outputs.js's Prose
// keeps each key's state: {value, from, stale, notRerun}), as data: the words a glued number
// (glue, below) carries, and how it is marked.  The add-on draws what this
// returns; no DOM here, so that Node's tests read the wording.

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

/** Follow the page's glued numbers (once: the first Run, or a reload). */
export const install = (session) => installOnce(session, "prose", () => {
  installGlue(session);
});
