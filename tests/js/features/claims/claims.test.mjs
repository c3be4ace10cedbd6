// What a claim of each state says (docs/_features/claims/claims.js): its wording,
// its mark in words, and how it is marked, as data.
import assert from "node:assert/strict";
import { test } from "node:test";

import { claimMark, claimView, sharedMarks } from "../../../../docs/_features/claims/claims.js";

const BUILD = { value: null, from: "build", stale: false };

const holds = { value: { holds: true, about: null }, from: "run", stale: false };
const fails = { value: { holds: false, about: "the loss at step 30" }, from: "run", stale: false };

test("a claim of the build's, current, is as the build wrote it", () => {
  assert.deepEqual(claimView(BUILD, true), {
    switched: false, words: null, yours: false, broken: false, stale: false, shown: null,
  });
});

test("a claim the reader's run keeps true is the reader's, unmarked", () => {
  assert.deepEqual(claimView(holds, true), {
    switched: false, words: null, yours: true, broken: false, stale: false, shown: "yours",
  });
  assert.equal(claimView({ ...holds, from: "earlier-run" }, true).words, "from an earlier session of yours");
});

test("a claim the run breaks switches to its other wording, or is marked not true", () => {
  assert.deepEqual(claimView(fails, true), {
    switched: true, words: null, yours: true, broken: false, stale: false, shown: "yours",
  });
  assert.equal(claimView({ ...fails, from: "earlier-run" }, true).words, "from an earlier session of yours");
  assert.deepEqual(claimView(fails, false), {
    switched: false,
    words: "not true of your run: the loss at step 30",
    yours: false,
    broken: true,
    stale: false,
    shown: "broken",
  });
  assert.equal(claimMark({ ...fails, from: "earlier-run" }),
    "not true of your run: the loss at step 30 (an earlier session)");
  assert.equal(claimMark({ value: { holds: false, about: null }, from: "run", stale: false }),
    "not true of your run");
});

test("a run that makes neither wording true keeps the first, marked not true", () => {
  const still = { value: { holds: false, otherwise: false, about: "from 0.5000 to 0.5000" },
    from: "run", stale: false };
  assert.deepEqual(claimView(still, true), {
    switched: false,
    words: "not true of your run: from 0.5000 to 0.5000",
    yours: false,
    broken: true,
    stale: false,
    shown: "broken",
  });
});

test("a stale claim keeps its wording, marked out of date", () => {
  assert.equal(claimView({ ...BUILD, stale: true }, true).words,
    "from the build: your changes above make it out of date");
  const view = claimView({ ...fails, stale: true }, true);
  assert.equal(view.switched, true);
  assert.equal(view.words, "from an earlier run of yours: your changes above make it out of date");
  assert.equal(view.shown, "stale");
});

test("a stale claim names the cell whose Run brings it up to date", () => {
  assert.equal(claimView({ ...BUILD, stale: true, rerun: 2 }, true).words,
    "from the build: your changes above make it out of date; run cell 2 to update it");
});

test("claims of one paragraph out of date carry one mark, after the last of them", () => {
  const stale = claimMark({ ...BUILD, stale: true });
  const broken = "not true of your run";
  // The neuron's "... cross it over. After all 8 frames the graph is the one drawn
  // at the top of the page.": two claims of one paragraph, both out of date.
  assert.deepEqual(sharedMarks([{ block: "p1", words: stale }, { block: "p1", words: stale }]),
    [null, stale]);
  // Another paragraph's, or another mark, keeps its own.
  assert.deepEqual(sharedMarks([
    { block: "p1", words: stale }, { block: "p2", words: stale },
    { block: "p2", words: broken }, { block: "p2", words: null },
  ]), [stale, stale, broken, null]);
});
