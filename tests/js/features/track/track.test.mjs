// The exercises' progress and what their panels and the page's progress show
// of it (docs/_features/track/track.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  NOT_RUN, forget, freshProgress, hintAnnouncement, nextHint, panelView, progressSnapshot,
  progressView, recordCheck, restoredProgress, verdict,
} from "../../../../docs/_features/track/track.js";

import {
  idle, openPage, pageHTML, runner, saved,
} from "../../fake_page.mjs";

// Each hint as the build writes it (docs/_features/track/directive.py): HTML to show, plain words to say.
const hint = (html, text) => ({ html, text });
const STEP = {
  id: "add", number: 1, title: "Addition",
  hints: [hint("<code>a + b</code>", "a + b"), hint("two", "two"), hint("three", "three")],
};
const ORDER = ["add", "mul", "backward"];

test("a fresh step offers its first hint and no solution", () => {
  assert.deepEqual(panelView(freshProgress(), STEP), {
    hints: [], hintHidden: false, hintLabel: "Show hint 1 of 3", solveHidden: true,
    solutionOpen: false, beside: false,
  });
});

test("hints are shown one at a time, until none is left", () => {
  const progress = freshProgress();
  assert.equal(nextHint(progress, "add"), 1);
  assert.deepEqual(panelView(progress, STEP).hints, [{ label: "Hint 1 of 3: ", html: "<code>a + b</code>" }]);
  assert.equal(panelView(progress, STEP).hintLabel, "Show hint 2 of 3");
  nextHint(progress, "add");
  nextHint(progress, "add");
  assert.equal(panelView(progress, STEP).hintHidden, true);
});

test("the solution is offered after a first Check, and beside the reader's code once passed", () => {
  const progress = freshProgress();
  recordCheck(progress, "add", { status: "failed" });
  assert.equal(panelView(progress, STEP).solveHidden, false);
  assert.equal(panelView(progress, STEP).solutionOpen, false);
  progress.solutions.add("add");
  assert.deepEqual(
    [panelView(progress, STEP).solveHidden, panelView(progress, STEP).solutionOpen, panelView(progress, STEP).beside],
    [true, true, false],
  );
  recordCheck(progress, "add", { status: "passed" });
  assert.equal(panelView(progress, STEP).beside, true);
  recordCheck(progress, "add", { status: "raised" }); // a later Check that fails takes the pass away
  assert.equal(progress.passed.has("add"), false);
  assert.equal(progress.checked.has("add"), true);
});

const states = (...each) => ORDER.map((id, i) => ({ id, state: each[i] }));

test("the page's progress counts the steps passed and links the first open one", () => {
  const progress = freshProgress();
  assert.deepEqual(progressView(progress, ORDER), {
    text: "0 of 3 steps done.", steps: states("open", "open", "open"), next: "add", offerReset: false,
  });
  recordCheck(progress, "add", { status: "passed" });
  assert.deepEqual(progressView(progress, ORDER), {
    text: "1 of 3 steps done.", steps: states("done", "open", "open"), next: "mul", offerReset: true,
  });
  recordCheck(progress, "backward", { status: "passed" });
  assert.deepEqual(progressView(progress, ORDER).steps, states("done", "open", "done"),
    "the overview marks which steps are done, not only how many");
  for (const id of ORDER) recordCheck(progress, id, { status: "passed" });
  assert.deepEqual(progressView(progress, ORDER), {
    text: "3 of 3 steps done.", steps: states("done", "done", "done"), next: null, offerReset: true,
  });
  const checkedOnly = freshProgress();
  recordCheck(checkedOnly, "mul", { status: "failed" });
  assert.equal(progressView(checkedOnly, ORDER).offerReset, true);
});

test("a reset step is as the book gives it", () => {
  const progress = freshProgress();
  recordCheck(progress, "add", { status: "passed" });
  nextHint(progress, "add");
  progress.solutions.add("add");
  forget(progress, "add");
  assert.deepEqual(progress, freshProgress());
});

test("the progress is kept as data, and a reload keeps only the steps the page has", () => {
  assert.equal(progressSnapshot(freshProgress()), null);
  const progress = freshProgress();
  recordCheck(progress, "add", { status: "passed" });
  nextHint(progress, "mul");
  recordCheck(progress, "gone", { status: "failed" });
  const saved = JSON.parse(JSON.stringify(progressSnapshot(progress)));
  assert.deepEqual(saved, {
    passed: ["add"], hints: { mul: 1 }, solutions: [], checked: ["add", "gone"],
    results: { add: { status: "passed" }, gone: { status: "failed" } },
  });
  const back = restoredProgress(saved, (id) => ORDER.includes(id));
  assert.deepEqual([...back.passed], ["add"]);
  assert.deepEqual([...back.hints], [["mul", 1]]);
  assert.deepEqual([...back.checked], ["add"]);
  assert.deepEqual([...back.results], [["add", { status: "passed" }]]);
  // A progress saved before the results were kept brings back none.
  const older = { ...saved };
  delete older.results;
  assert.deepEqual(restoredProgress(older, () => true).results, new Map());
});

// A heading's plain words, as the live region says them.
const said = (result) => verdict(STEP, result).text;

test("a Check's heading says what its result is", () => {
  assert.equal(said({ status: "passed", checked: 12 }),
    "Passed: step 1 does all the book asks of it (12 checks).");
  assert.equal(said({ status: "failed", message: "2 + 3 gave 6" }), "Not yet: 2 + 3 gave 6");
  assert.equal(said({ status: "not-done", message: "__add__ is missing" }),
    "Not done yet: __add__ is missing");
  assert.equal(said({ status: "raised", traceback: "Traceback ...", message: "" }),
    "Your code raised an exception:");
  assert.equal(said({ status: "raised", message: NOT_RUN.stopped }), NOT_RUN.stopped);
  const named = "Your Neuron.__call__ (step 4's cell, line 8) raised TypeError: no";
  assert.equal(said({
    status: "raised", traceback: "Traceback ...", message: named, part: "Neuron.__call__",
  }), named);
  const borrowed = "Not yours: Value is micrograd's own (micrograd.engine.Value), imported";
  assert.equal(said({ status: "not-yours", message: borrowed }), borrowed);
  assert.deepEqual(Object.keys(NOT_RUN), ["raised", "skipped", "stopped", "crashed"]);
});

test("a Check's heading shows the checks' HTML, and says their plain words", () => {
  const result = {
    status: "failed",
    message: "Your `Value.__add__`: 1 < 2",
    message_html: "Your <code>Value.__add__</code>: 1 &lt; 2",
    message_text: "Your Value.__add__: 1 < 2",
  };
  assert.deepEqual(verdict(STEP, result), {
    lead: "Not yet: ",
    html: "Your <code>Value.__add__</code>: 1 &lt; 2",
    tail: "",
    text: "Not yet: Your Value.__add__: 1 < 2",
  });
  // A result made on the page has no HTML: its words are shown as text.
  assert.deepEqual(verdict(STEP, { status: "raised", message: NOT_RUN.crashed }), {
    lead: "", html: null, tail: NOT_RUN.crashed, text: NOT_RUN.crashed,
  });
  // A heading of its own shows no message.
  assert.deepEqual(verdict(STEP, { ...result, status: "passed", checked: 3 }).html, null);
});

test("a hint is said in plain words, with its place", () => {
  assert.equal(hintAnnouncement(STEP, 1), "Hint 1 of 3: a + b");
});

// -- an exercise page, with the runner's real Session and a fake worker's checks ------------------

const TRACK = { exercises: [{ ...STEP, solution: "d = a * 2" }] };
const TRACK_HTML = pageHTML(
  [{ source: "a = 2" }, { source: "d = a + 1", exercise: "add" }], { track: TRACK },
);

/** Resolves once `holds()` is true (checked after each turn of the event loop). */
function until(holds) {
  return new Promise((resolve) => {
    const look = () => (holds() ? resolve() : setTimeout(look, 0));
    look();
  });
}

/** Press step 1's Check on `session`'s page; resolves with its panel's result, once shown. */
async function checked(session) {
  const cell = session.cells[1];
  const result = cell.el.querySelector(".mg-exercise-result");
  const before = session.records.checks.length;
  cell.controls.bar.querySelector(".runner-check").click();
  await until(() => session.records.checks.length > before);
  return result;
}

/** A failure the checks name as a known mistake, as book_runtime.features.track.checks's Result.to_json gives it. */
const RECURSIVE_SORT = {
  exercise: "add",
  status: "failed",
  message: "Your `Value.backward` (step 1's cell, line 3): A recursive sort on a deep chain: "
    + "a chain of 5,000 links raised RecursionError.",
  message_html: "Your <code>Value.backward</code> (step 1's cell, line 3): A recursive sort on a "
    + "deep chain: a chain of 5,000 links raised RecursionError.",
  message_text: "Your Value.backward (step 1's cell, line 3): A recursive sort on a deep chain: "
    + "a chain of 5,000 links raised RecursionError.",
  case: "chain(5000).backward()",
  mistake: {
    id: "recursive-sort",
    title: "A recursive sort on a deep chain",
    title_html: "A recursive sort on a deep chain",
    title_text: "A recursive sort on a deep chain",
    why: "A sort that calls itself once per Value needs as many frames as the graph is deep.",
    why_html: "A sort that calls itself once per Value needs as many frames as the graph is deep.",
    why_text: "A sort that calls itself once per Value needs as many frames as the graph is deep.",
  },
  traceback: null,
  checked: 4,
  part: "Value.backward",
  step: "add",
};

const times = (text, part) => text.split(part).length - 1;

test("a known mistake's headline is shown and said once, its why under the message", async () => {
  const { window, session } = await openPage(TRACK_HTML, { answers: { check: () => RECURSIVE_SORT } });
  await until(() => session.features.get("track"));
  const result = await checked(session);
  const headline = "A recursive sort on a deep chain";
  assert.equal(times(result.textContent, headline), 1, result.textContent);
  assert.match(result.querySelector(".mg-exercise-verdict").textContent,
    /^Not yet: Your Value\.backward \(step 1's cell, line 3\): A recursive sort on a deep chain: /);
  assert.match(result.querySelector(".mg-exercise-mistake").textContent,
    /^Why: A sort that calls itself once per Value/);
  const said = window.document.querySelector(".runner-announcer").textContent;
  assert.equal(times(said, headline), 1, said);
});

test("a reload shows a step's last result again: its pass, with the progress", async () => {
  const answers = {
    check: (fields, namespace) => (namespace.d === namespace.a * 2
      ? { status: "passed", checked: 3 }
      : { status: "failed", message: `d is ${namespace.d}, not ${namespace.a * 2}.` }),
  };
  const first = await openPage(TRACK_HTML, { answers });
  await until(() => first.session.features.get("track"));
  const { session } = first;
  // The reader types the solution into the step's cell.
  const { openEditor } = await runner("editor.js");
  const cell = session.cells[1];
  await openEditor(session, cell, () => {});
  cell.editor.value = "d = a * 2";
  const passed = await checked(session);
  assert.match(passed.textContent, /^Passed: step 1 does all the book asks of it \(3 checks\)\./);
  await idle(session);
  await saved(session);

  const again = await openPage(TRACK_HTML, { answers, storage: first.storage });
  await until(() => again.session.features.get("track"));
  await again.session.restored;
  const shown = again.session.cells[1].el.querySelector(".mg-exercise-result");
  assert.match(again.window.document.querySelector(".mg-track-progress").textContent, /1 of 1 steps done/);
  assert.equal(shown.dataset.status, "passed");
  assert.match(shown.textContent, /^Passed: step 1 does all the book asks of it \(3 checks\)\./);
});
