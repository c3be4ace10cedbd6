// What the prose says of the reader's run: each key's state (outputs.js's Prose,
// which follows the runner's events on document: here an EventTarget), and the
// words of what stays the build's, which glued numbers and claims both carry
// (each feature's own words: tests/js/features/glue/glue.test.mjs, claims.test.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";

import { claimView } from "../../../docs/_features/claims/claims.js";
import { glueView } from "../../../docs/_features/glue/glue.js";
import { Prose } from "../../../docs/_static/runner/outputs.js";
import { notRerunNote, notRerunWords, stoppedText } from "../../../docs/_static/runner/words.js";

// A Prose follows the runner's events on document (read when a Prose is made).
globalThis.document = new EventTarget();

const BUILD = { value: null, from: "build", stale: false };
const emit = (name, detail = {}) => globalThis.document.dispatchEvent(new CustomEvent(`micrograd:${name}`, { detail }));

// -- what stays the build's, out of date ------------------------------------------------------

test("a stopped cell's note says when it runs again: its own Run, or the answer to a cell below", () => {
  const words = stoppedText({ cell: { name: "cell 3" } });
  assert.match(words, /^Stopped cell 3\. Python was restarted/);
  assert.match(words, /not cell 3: it runs again when you press its Run, or when a cell below needs it/);
  assert.match(words, /you choose "Run cell 3 again"/);
  assert.doesNotMatch(words, /say so/);
  const hidden = stoppedText({ after: { cell: { name: "cell 2" } } });
  assert.match(hidden, /it runs again only when a cell below needs it and you choose "Run the hidden cell/);
});

test("an output that stays the build's names the cells the reader changed", () => {
  assert.equal(notRerunWords([{ number: 5, edited: true }]),
    "from the build, not re-run: depends on cell 5, which you changed");
  assert.equal(notRerunWords([{ number: 2, edited: true }, { number: 3, edited: false },
    { number: 5, edited: true }]),
  "from the build, not re-run: depends on cells 2 and 5, which you changed");
  assert.equal(notRerunNote([{ number: 3, edited: false }]),
    "From the build, not re-run: depends on cell 3, which was run from your changes.");
});

test("a claim and a number computed from such an output say so, not that a run updates them", () => {
  const state = { ...BUILD, stale: true, notRerun: [{ number: 5, edited: true }] };
  assert.equal(claimView(state, true).words,
    "from the build, not re-run: depends on cell 5, which you changed");
  assert.equal(claimView(state, true).shown, "stale");
  assert.deepEqual(glueView(state, "1.623878", undefined), {
    words: "From the build, not re-run: depends on cell 5, which you changed.",
    text: "1.623878",
    as: "stale",
  });
});

test("the stale event says which keys stay the build's, which cell updates the others; the mark goes when they are current", () => {
  const keys = new Prose().followKeys((key) => key.startsWith("b:"), () => {});
  const cells = [{ number: 5, edited: true }];
  emit("stale", { glue: ["b:grad", "b:other"], notRerun: { "b:grad": cells }, rerun: { "b:other": 3 } });
  assert.deepEqual(keys.state("b:grad"), { ...BUILD, stale: true, notRerun: cells });
  assert.deepEqual(keys.state("b:other"), { ...BUILD, stale: true, rerun: 3 });
  emit("stale", { glue: [] });
  assert.deepEqual(keys.state("b:grad"), BUILD);
  assert.deepEqual(keys.state("b:other"), BUILD);
});

// -- each key's state, following the runner's events ------------------------------------------

test("a key follows a run, a restart, staleness, a reset, a reload and Reset page", () => {
  const drawn = [];
  const prose = new Prose();
  const keys = prose.followKeys((key) => key.startsWith("n:"), (key, state) => drawn.push([key, state]));
  keys.set("n:loss", { ".4f": "0.2000" });
  assert.deepEqual(keys.state("n:loss"), { value: { ".4f": "0.2000" }, from: "run", stale: false });
  assert.deepEqual(drawn.at(-1), ["n:loss", keys.state("n:loss")]);

  emit("stale", { glue: ["n:loss"] });
  assert.equal(keys.state("n:loss").stale, true);
  emit("stale", { glue: [] });
  assert.equal(keys.state("n:loss").stale, false);

  emit("restart");
  assert.equal(keys.state("n:loss").from, "earlier-run");
  const saved = prose.snapshot();
  assert.deepEqual(Object.keys(saved), ["n:loss"]);

  emit("reset", { glue: ["n:loss"] });
  assert.deepEqual(keys.state("n:loss"), BUILD);
  assert.deepEqual(prose.snapshot(), {});

  prose.restore({ "n:loss": { value: { ".4f": "0.2000" }, from: "run", stale: false } });
  assert.equal(keys.state("n:loss").from, "earlier-run"); // a reload's value is of an earlier session
  prose.resetAll();
  assert.deepEqual(keys.state("n:loss"), BUILD);
  assert.deepEqual(drawn.at(-1), ["n:loss", BUILD]);
});
