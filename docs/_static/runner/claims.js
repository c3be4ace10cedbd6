// Sentences that follow the reader's run: an add-on of the runner (api.js).
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
// showed (prose.js keeps where that is from): the first wording while the claim
// holds; else the other wording, marked as the reader's; else the first
// wording, marked "not true of your run", with what the claim is about.  The
// marks are words inside the sentence (a screen reader reads them), not focus
// stops.  A claim whose cells are stale keeps its wording, marked out of date.

import { installOnce, registerAddon } from "./api.js";
import { element } from "./dom.js";
import { proseOf } from "./prose.js";
import { claimView } from "./wording.js";

const GLUE_PREFIX = "claim:"; // what the runner's events name a claim by (claims.py)

function render(spans, key, state) {
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
export const install = (session) => installOnce(session, "claims", () => {
  const spans = Array.from(session.root.querySelectorAll("span.mg-claim[data-claim-key]"));
  const keys = new Set(spans.map((span) => GLUE_PREFIX + span.dataset.claimKey));
  const claims = proseOf(session).followKeys((key) => keys.has(key), (key, state) => render(spans, key, state));
  // The claim as claims.py sent it ({holds, otherwise, about}), whole: what it means is
  // Python's to say, and wording.js and predict_check.js read it as sent.
  registerAddon(session, "claim", ({ key, ...claim }) => {
    if (keys.has(GLUE_PREFIX + key)) claims.set(GLUE_PREFIX + key, claim);
  });
});
