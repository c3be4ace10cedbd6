// A stepper pair's layout from its column's width, and the prose's words for it
// (pair_layout.js; the words are the build's, docs/_ext/pair_words.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { FRAME_PX, GAP_PX, SIDE_MIN_PX, pairLayout, pairWords } from "../../docs/_static/runner/pair_layout.js";

// The article's column at 1366x768 and at 390x844 (CSS px), as the theme lays it out.
const LAPTOP_COLUMN = 730;
const PHONE_COLUMN = 358;

test("a pair stands side by side in a laptop's column and stacks in a phone's", () => {
  assert.equal(pairLayout(LAPTOP_COLUMN), "beside");
  assert.equal(pairLayout(PHONE_COLUMN), "stacked");
});

test("a pair stands side by side from the width at which both sides have their room", () => {
  const both = 2 * SIDE_MIN_PX + GAP_PX + FRAME_PX;
  assert.equal(pairLayout(both), "beside");
  assert.equal(pairLayout(both - 1), "stacked");
  assert.equal(pairLayout(0), "stacked"); // a column not laid out yet
});

test("the prose shows its words for the layout", () => {
  const first = { beside: "on the left", stacked: "above" };
  assert.equal(pairWords(first, pairLayout(LAPTOP_COLUMN)), "on the left");
  assert.equal(pairWords(first, pairLayout(PHONE_COLUMN)), "above");
});

test("words without the layout's are an error, not an empty sentence", () => {
  assert.throws(() => pairWords({ beside: "on the left" }, "stacked"), /no words for the layout "stacked"/);
  assert.throws(() => pairWords({ beside: "on the left", stacked: undefined }, "stacked"), /no words/);
});
