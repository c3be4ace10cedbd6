// What a glued number of each state says (docs/_features/glue/glue.js): the
// number shown, its words, and how it is marked, as data.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Window } from "happy-dom";

import { glueView, shownWordingOf } from "../../../../docs/_features/glue/glue.js";

const BUILD = { value: null, from: "build", stale: false };

test("a glued number of the build's, current, says nothing and shows the build's", () => {
  assert.deepEqual(glueView(BUILD, "0.0110", undefined), { words: null, text: "0.0110", as: null });
});

test("a glued number of the reader's run shows theirs, with the build's in words", () => {
  const run = { value: { ".4f": "0.2000" }, from: "run", stale: false };
  assert.deepEqual(glueView(run, "0.0110", "0.2000"), {
    words: "Your run's value; the build's value: 0.0110.", text: "0.2000", as: "yours",
  });
  const earlier = { ...run, from: "earlier-run" };
  assert.deepEqual(glueView(earlier, "0.0110", "0.2000"), {
    words: "From an earlier Python session of yours; the build's value: 0.0110.",
    text: "0.2000",
    as: "earlier",
  });
});

test("a glued number the run has no text for keeps the build's, marked", () => {
  const run = { value: { ".6f": "0.200000" }, from: "run", stale: false };
  assert.deepEqual(glueView(run, "0.0110", undefined), {
    words: "From the build: your run's value cannot be shown here.", text: "0.0110", as: "stale",
  });
});

test("a stale glued number names the cell whose Run brings it up to date", () => {
  assert.equal(glueView({ ...BUILD, stale: true, rerun: 4 }, "0.0110", undefined).words,
    "From the build; your changes above make it out of date; run cell 4 to update it "
    + "(the build's value: 0.0110).");
});

test("a stale glued number says whose it is and that it is out of date", () => {
  assert.equal(glueView({ ...BUILD, stale: true }, "0.0110", undefined).words,
    "From the build; your changes above make it out of date (the build's value: 0.0110).");
  const theirs = glueView({ value: { ".4f": "0.2000" }, from: "run", stale: true }, "0.0110", "0.2000");
  assert.equal(theirs.words,
    "From an earlier run of yours; your changes above make it out of date (the build's value: 0.0110).");
  assert.equal(theirs.as, "stale");
  assert.equal(theirs.text, "0.2000");
});

test("a current glued number of the reader's that reads as the build's shows plain", () => {
  const run = { value: { ".4f": "6.8814" }, from: "run", stale: false };
  assert.deepEqual(glueView(run, "6.8814", "6.8814"), { words: null, text: "6.8814", as: null });
  assert.deepEqual(glueView({ ...run, from: "earlier-run" }, "6.8814", "6.8814"),
    { words: null, text: "6.8814", as: null });
  assert.deepEqual(glueView({ value: { "": "3" }, from: "run", stale: false }, "3", "3"),
    { words: null, text: "3", as: null });
});

test("a stale glued number is marked out of date even where it reads as the build's", () => {
  const theirs = glueView({ value: { ".4f": "0.0110" }, from: "run", stale: true }, "0.0110", "0.0110");
  assert.equal(theirs.as, "stale");
});

// A claim as the build writes it (claims.js): its wording, and the other one, hidden,
// holding a glued text whose build value is a fragment the build never showed.
const CLAIM = `<p>The graph is bigger, <span class="mg-claim" data-claim-key="neuron_exp_agrees">`
  + `<span class="mg-claim-holds">the output is the same (<span class="pasted-text" `
  + `data-glue-key="neuron_exp_o" data-glue-format=".4f">0.7071</span>), and so are the\n`
  + `gradients</span><span class="mg-claim-fails" hidden="">and <span class="pasted-text" `
  + `data-glue-key="neuron_exp_differs" data-glue-format="s">its output is the first `
  + `neuron's, 0.7071, but its gradients are too</span>: the two cells now build different `
  + `neurons</span></span>.</p>`;

function claimPage() {
  const window = new Window();
  window.document.body.innerHTML = CLAIM;
  const span = (key) => window.document.querySelector(`[data-glue-key="${key}"]`);
  return { window, span };
}

test("a glued text in a claim's other wording quotes the wording the build showed", () => {
  const { window, span } = claimPage();
  const wording = shownWordingOf(span("neuron_exp_differs"));
  assert.equal(wording, "the output is the same (0.7071), and so are the gradients");
  const fragment = "its output is the first neuron's, 0.7071, but its gradients are too";
  const theirs = "neither its output, 0.7071, nor its gradients are the first neuron's";
  const states = [
    { value: { s: theirs }, from: "run", stale: false },
    { value: { s: theirs }, from: "earlier-run", stale: false },
    { value: { s: theirs }, from: "run", stale: true },
    { value: null, from: "build", stale: true },
  ];
  for (const state of states) {
    const { words } = glueView(state, fragment, state.value?.s, wording);
    assert.ok(words.includes(`the build's words here: "${wording}"`), words);
    assert.ok(!words.includes(fragment), `the note quotes a fragment: ${words}`);
  }
  window.close();
});

test("a glued number outside a claim's other wording keeps the build's value", () => {
  const { window, span } = claimPage();
  assert.equal(shownWordingOf(span("neuron_exp_o")), undefined);
  window.close();
});

test("a glued text in a claim's other wording quotes the build's words with their math", () => {
  // MathJax has typeset the math: its text is glyphs, the square root a drawing
  // ("atanh(1/2)" read aloud, where the page shows 1/sqrt(2)); the build wrote the
  // wording with its math as text (tex_as_text).
  const window = new Window();
  window.document.body.innerHTML = `<p><span class="mg-claim" data-claim-key="neuron_bias"`
    + ` data-claim-words="lifts the sum to n = atanh(1/√2) = 0.8814">`
    + `<span class="mg-claim-holds">lifts the sum to <span class="math"><mjx-container>`
    + `n=atanh(1/2)=</mjx-container></span> 0.8814</span><span class="mg-claim-fails" hidden="">`
    + `lands on <span class="pasted-text" data-glue-key="neuron_n" data-glue-format=".4f">0.8814`
    + `</span></span></span></p>`;
  const span = window.document.querySelector("[data-glue-key='neuron_n']");
  assert.equal(shownWordingOf(span), "lifts the sum to n = atanh(1/√2) = 0.8814");
  window.close();
});

test("the build's words are quoted once per wording: its other numbers say only whose", () => {
  const run = { value: { ".4f": "0.2000" }, from: "run", stale: false };
  assert.equal(glueView(run, "0.0110", "0.2000", null).words, "Your run's value.");
  assert.equal(glueView({ ...run, from: "earlier-run" }, "0.0110", "0.2000", null).words,
    "From an earlier Python session of yours.");
  assert.equal(glueView({ ...run, stale: true }, "0.0110", "0.2000", null).words,
    "From an earlier run of yours; your changes above make it out of date.");
});
