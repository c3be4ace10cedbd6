// Numbers in the prose that follow the reader's run: an add-on of the runner (api.js).
//
// The build pastes each glued number as <span class="pasted-text"
// data-glue-key="moons_final_loss" data-glue-format=".6f">0.010978</span>
// (docs/_ext/glued_numbers.py), and lists every key's formats for the kernel
// (the page's cell manifest, docs/_ext/cell_manifest.py).  In the browser, a
// cell's myst_nb.glue(key, value) sends the add-on message "glue" {key, texts}
// (kernel.py): texts holds the value formatted in each of those formats by
// Python, as myst-nb formats it at build time (glue_text.py).  Each span of
// that key then shows the reader's text, marked as the reader's, with the
// build's number on hover or focus (the span can be focused from the keyboard).
//
// - micrograd:restart: every span shows the build's number again, exactly as
//   the build wrote it; micrograd:reset {glue}: those keys' spans do;
// - micrograd:stale {glue}: the keys whose gluing cells are stale now; their
//   spans keep the number they show, marked "from the build" (or "from an
//   earlier run"), until those cells run again.

import { registerAddon } from "./api.js";
import { element } from "./dom.js";

const spans = Array.from(document.querySelectorAll("span.pasted-text[data-glue-key]"));
const built = new Map(spans.map((span) => [span, span.innerHTML])); // as the build wrote them
const yours = new Map(); // key -> {format: text}
let stale = new Set(); // keys whose cells are stale

// -- the spans ----------------------------------------------------------------------------------

let notes = 0;

/** The span as the build wrote it: its number, no mark, no focus stop. */
function restore(span) {
  span.innerHTML = built.get(span);
  span.classList.remove("mg-glue-yours", "mg-glue-stale");
  span.removeAttribute("tabindex");
  span.removeAttribute("aria-describedby");
  delete span.dataset.shown;
}

/** The span showing `text`, with a note (on hover or focus) that says whose number it is. */
function mark(span, text, state, note) {
  restore(span);
  const tip = element("span", "mg-glue-note", note);
  notes += 1;
  tip.id = `mg-glue-note-${notes}`;
  tip.setAttribute("role", "tooltip");
  span.replaceChildren(document.createTextNode(text), tip);
  span.classList.add(state === "yours" ? "mg-glue-yours" : "mg-glue-stale");
  span.tabIndex = 0;
  span.setAttribute("aria-describedby", tip.id);
  span.dataset.shown = state;
}

const buildText = (span) => {
  const holder = document.createElement("span");
  holder.innerHTML = built.get(span);
  return holder.textContent;
};

/** Show each span of `key` as its key's state says: the reader's, stale, or the build's. */
function show(key) {
  for (const span of spans) {
    if (span.dataset.glueKey !== key) continue;
    const theirs = yours.has(key) ? yours.get(key)[span.dataset.glueFormat] : undefined;
    const from = `the build's value: ${buildText(span)}`;
    if (stale.has(key)) {
      const text = theirs ?? buildText(span);
      const whose = theirs === undefined ? "From the build" : "From an earlier run of yours";
      mark(span, text, "stale", `${whose}; your changes above make it out of date (${from}).`);
    } else if (theirs !== undefined) {
      mark(span, theirs, "yours", `Your run's value; ${from}.`);
    } else if (theirs === undefined && yours.has(key)) {
      mark(span, buildText(span), "stale", `From the build: your run's value cannot be shown here.`);
    } else {
      restore(span);
    }
  }
}

const keys = () => new Set(spans.map((span) => span.dataset.glueKey));

registerAddon("glue", ({ key, texts }) => {
  if (!keys().has(key)) return;
  yours.set(key, texts);
  stale.delete(key);
  show(key);
});

document.addEventListener("micrograd:restart", () => {
  yours.clear();
  stale = new Set();
  spans.forEach(restore);
});

document.addEventListener("micrograd:reset", (event) => {
  for (const key of event.detail.glue || []) {
    yours.delete(key);
    stale.delete(key);
    show(key);
  }
});

document.addEventListener("micrograd:stale", (event) => {
  const before = stale;
  stale = new Set(event.detail.glue || []);
  for (const key of new Set([...before, ...stale])) show(key);
});
