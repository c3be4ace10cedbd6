// A stepper pair's layout from its column's width, the side its switch shows, and the
// prose's words for it (steppers.js; the words are the build's, docs/_ext/pair_words.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  FRAME_PX,
  GAP_PX,
  SIDE_MIN_PX,
  pairLayout,
  pairWords,
  shownSides,
  switchState,
} from "../../../../docs/_features/steppers/steppers.js";

// The article's column at 1366x768 and at 390x844 (CSS px), as the theme lays it out.
const LAPTOP_COLUMN = 730;
const PHONE_COLUMN = 358;

test("a pair stands side by side in a laptop's column and shows one side at a time in a phone's", () => {
  assert.equal(pairLayout(LAPTOP_COLUMN), "beside");
  assert.equal(pairLayout(PHONE_COLUMN), "switch");
});

test("a pair stands side by side from the width at which both sides have their room", () => {
  const both = 2 * SIDE_MIN_PX + GAP_PX + FRAME_PX;
  assert.equal(pairLayout(both), "beside");
  assert.equal(pairLayout(both - 1), "switch");
  assert.equal(pairLayout(0), "switch"); // a column not laid out yet
});

test("side by side both sides show, whatever the switch chose, and the switch is not offered", () => {
  for (const chosen of [0, 1]) {
    assert.deepEqual(shownSides("beside", chosen), [0, 1]);
    assert.deepEqual(switchState("beside", chosen), { offered: false, pressed: [false, false] });
  }
});

test("on a phone the switch shows the side it chose, its button pressed and the other not", () => {
  assert.deepEqual(shownSides("switch", 0), [0]);
  assert.deepEqual(shownSides("switch", 1), [1]);
  assert.deepEqual(switchState("switch", 0), { offered: true, pressed: [true, false] });
  assert.deepEqual(switchState("switch", 1), { offered: true, pressed: [false, true] });
});

test("a side or a layout that a pair has not is an error, not an empty pair", () => {
  assert.throws(() => shownSides("switch", 2), /sides 0 and 1, not 2/);
  assert.throws(() => shownSides("switch", "1"), /sides 0 and 1, not "1"/);
  assert.throws(() => shownSides("stacked", 0), /no layout "stacked"/);
});

test("the prose shows its words for the layout", () => {
  const first = { beside: "on the left", switch: "shown first" };
  assert.equal(pairWords(first, pairLayout(LAPTOP_COLUMN)), "on the left");
  assert.equal(pairWords(first, pairLayout(PHONE_COLUMN)), "shown first");
});

test("words without the layout's are an error, not an empty sentence", () => {
  assert.throws(() => pairWords({ beside: "on the left" }, "switch"), /no words for the layout "switch"/);
  assert.throws(() => pairWords({ beside: "on the left", switch: undefined }, "switch"), /no words/);
});
