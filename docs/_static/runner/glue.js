// Numbers in the prose that follow the reader's run: an add-on of the runner (api.js).
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

import { installOnce, registerAddon } from "./api.js";
import { element } from "./dom.js";
import { proseOf } from "./prose.js";
import { glueView } from "./wording.js";

const buildText = (built, span) => {
  const holder = document.createElement("span");
  holder.innerHTML = built.get(span);
  return holder.textContent;
};

function render(spans, built, key, state) {
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
export const install = (session) => installOnce(session, "glue", () => {
  const spans = Array.from(session.root.querySelectorAll("span.pasted-text[data-glue-key]"));
  const built = new Map(spans.map((span) => [span, span.innerHTML])); // as the build wrote them
  const keys = new Set(spans.map((span) => span.dataset.glueKey));
  const glued = proseOf(session).followKeys((key) => keys.has(key), (key, state) => render(spans, built, key, state));
  registerAddon(session, "glue", ({ key, texts }) => {
    if (keys.has(key)) glued.set(key, texts);
  });
});
