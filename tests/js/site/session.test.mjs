// The runner's real Session, driven in Node: a page of the book (as the build
// writes it) in happy-dom, the runner started on it as the browser starts it
// (runner.js startRunner), and a fake worker whose "Python" is JavaScript
// (fake_page.mjs).  What a reader does (Run, Stop, Restart, Reset, Reset page,
// a reload, an edit, a prediction, an exercise's Check) and what the page then
// shows: the queue with the hidden cells after a run, a crash, the prose.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  idle, next, openPage, outputOf, pageHTML, runner, saved, settled, stepperHTML,
} from "../fake_page.mjs";
import { steppersOf } from "../../../docs/_features/steppers/state.js";

// The page: a shown cell, a cell that reads it, the hidden cell after that one
// (it glues a number and states a claim in the prose), and a cell below.
const CELLS = [
  { source: "a = 1" },
  { source: "b = a + 1\nprint(b)" },
  { source: "glue(\"total\", b * 2)\nclaim(\"small\", b < 5)", hidden: true, glue: ["total", "claim:small"] },
  { source: "c = b * 10\nprint(c)" },
];
const PROSE = `<p>The total is <span class="pasted-text" data-glue-key="total" data-glue-format=".1f">4.0</span>,
and it <span class="mg-claim" data-claim-key="small"><span class="mg-claim-holds">is small</span><span
class="mg-claim-fails" hidden>is big</span></span>.</p>
<div class="mg-predict-run" data-key="total" data-format=".1f" data-close="0.5" data-exact="0.0005">
<p class="mg-predict-run-question">What total will your run give?</p>
<div class="mg-predict-run-why"><p>b is a + 1, and the total twice that.</p></div></div>`;
const HTML = pageHTML(CELLS, { prose: PROSE });

const glued = (window) => window.document.querySelector("span.pasted-text");
const claimed = (window) => window.document.querySelector("span.mg-claim");

/** Resolves once `holds()` is true of the page's state (checked after each turn of the loop). */
function until(holds) {
  return new Promise((resolve) => {
    const look = () => (holds() ? resolve() : setTimeout(look, 0));
    look();
  });
}

/** The reader's Run (the button on the cell's bar), resolved with the state it settles in. */
function run(session, index) {
  const settles = settled(index);
  session.cells[index].controls.run.click();
  return settles;
}

/** Give cell `index` an editor and put `code` into it (as the reader types it). */
async function type(session, index, code) {
  const { openEditor } = await runner("editor.js");
  const cell = session.cells[index];
  await openEditor(session, cell, () => {});
  cell.editor.value = code;
}

test("Run runs what the cell needs first, then the hidden cells after it: the prose follows", async () => {
  const { window, session, workers } = await openPage(HTML);
  assert.equal(session.cells.length, 3);
  assert.equal(session.status, "off");
  assert.equal(await run(session, 1), "done");
  await idle(session);
  assert.equal(workers.length, 1);
  assert.equal(session.status, "ready");
  // Cell 1 ran after cell 0 (it needs a), and the hidden cell after it ran too.
  assert.deepEqual(session.records.timings.runs.map((r) => [r.code, r.ok]), [[0, true], [1, true], [2, true]]);
  assert.equal(session.cells[0].state, "done");
  assert.equal(outputOf(session, 1), "2\n");
  assert.equal(session.cells[1].box.label.textContent, "Computed in your browser");
  assert.equal(session.cells[2].state, "idle");
  // The run's total reads as the build's: shown plain, with no mark.
  assert.equal(glued(window).dataset.shown, undefined);
  assert.equal(glued(window).textContent, "4.0");
  assert.equal(claimed(window).dataset.shown, "yours");
  // What the browser tests read of the same session.
  const { testApi } = await runner("runner.js");
  const api = testApi(session);
  assert.equal(api.cellCount(), 3);
  assert.equal(api.cell(1).shows, "run");
  assert.equal(api.status(), "ready");
  assert.equal(api.idle(), true);
  assert.deepEqual(Object.keys(await api.prose()).sort(), ["claim:small", "total"]);
  assert.deepEqual((await api.needs())[3], [1]);
  assert.equal(api.scratch().name, "the scratch cell");
  // A second Run runs the cell alone: what it needs has run in this Python.
  assert.equal(await run(session, 1), "done");
  await idle(session);
  assert.deepEqual(session.records.timings.runs.slice(3).map((r) => r.code), [1, 2]);
});

test("the scratch cell's words are whole on the book's first scratch cell and one line elsewhere", async () => {
  const said = async (teachScratch) => {
    const { window } = await openPage(pageHTML(CELLS, { prose: PROSE, teachScratch }));
    const region = window.document.querySelector("section.runner-scratch");
    return [...region.querySelectorAll("p")].map((p) => p.textContent);
  };
  const whole = await said(true);
  assert.equal(whole.length, 2);
  assert.match(whole[0], /^Runs in this page's Python, after the page's cells/);
  assert.match(whole[1], /^It sees the names of the cells shown above, as the last of them left them/);
  assert.deepEqual(await said(false), [
    "Runs after this page's cells, and sees the names of the cells shown above.",
  ]);
});

test("an edit makes what followed from the old code stale, and the claims follow the new run", async () => {
  const { window, session } = await openPage(HTML);
  assert.equal(await run(session, 2), "done");
  await idle(session);
  assert.equal(outputOf(session, 2), "20\n");
  await type(session, 0, "a = 10");
  assert.equal(session.cells[0].edited, true);
  assert.ok(session.cells[0].editedMark);
  const stale = next("stale", (detail) => detail.code.includes(1));
  assert.equal(await run(session, 0), "done");
  const { code, glue, rerun } = await stale;
  assert.deepEqual(code, [1, 2, 3]);
  assert.deepEqual(glue, ["total", "claim:small"]);
  // The shown cell whose Run brings each key up to date: the one the hidden cell follows.
  assert.deepEqual(rerun, { total: 2, "claim:small": 2 });
  assert.equal(session.cells[1].stale, true);
  assert.equal(session.cells[1].box.label.textContent, "From an earlier run: run this cell to update it");
  assert.equal(glued(window).dataset.shown, "stale");
  // A Run of a cell below that reads nothing the edit changed runs it alone.
  assert.equal(await run(session, 2), "done");
  assert.equal(outputOf(session, 2), "20\n");
  // Running the stale cell again runs the hidden cell after it: the claim is false now,
  // and its other wording shows.
  assert.equal(await run(session, 1), "done");
  await idle(session);
  assert.equal(outputOf(session, 1), "11\n");
  assert.equal(session.cells[1].stale, false);
  assert.equal(session.cells[2].stale, true);
  assert.match(glued(window).textContent, /^22\.0/);
  assert.equal(glued(window).dataset.shown, "yours");
  assert.equal(claimed(window).querySelector(".mg-claim-fails").hidden, false);
  assert.equal(claimed(window).querySelector(".mg-claim-holds").hidden, true);
  assert.ok(claimed(window).classList.contains("mg-claim-yours"));
  // Reset brings back the page's code and the build's output, and forgets the run.
  const reset = next("reset");
  session.cells[0].controls.reset.click();
  assert.deepEqual((await reset).cells, [0]);
  assert.equal(session.cells[0].code, "a = 1");
  assert.equal(session.cells[0].box, null);
});

test("Stop on a running cell ends Python, says so, and a fresh Python starts", async () => {
  const { session, workers } = await openPage(HTML);
  await type(session, 2, "hang()");
  const started = next("run-start", (detail) => detail.code === 3);
  const settles = settled(2);
  session.cells[2].controls.run.click();
  await started;
  assert.equal(session.status, "running");
  assert.equal(session.cells[2].state, "running");
  assert.equal(session.cells[2].controls.stop.hidden, false);
  const restarted = next("restart");
  session.cells[2].controls.stop.click();
  assert.equal(await settles, "stopped");
  await restarted;
  assert.equal(workers[0].terminated, true);
  assert.match(session.cells[2].box.body.textContent, /Stopped cell 3\. Python was restarted/);
  assert.equal(session.cells[0].shows, "earlier-run");
  await session.ready;
  assert.equal(workers.length, 2);
  assert.equal(session.status, "ready");
  // The stopped cell does not run again by itself: a Run of it asks nothing, it runs.
  await type(session, 2, "c = b * 10\nprint(c)");
  assert.equal(await run(session, 2), "done");
  assert.equal(outputOf(session, 2), "20\n");
});

test("Stop on a cell that waits its turn takes it out of the queue", async () => {
  const { session } = await openPage(HTML);
  await type(session, 0, "hang()");
  const started = next("run-start", (detail) => detail.code === 0);
  session.cells[0].controls.run.click();
  await started;
  const waits = settled(2);
  session.cells[2].controls.run.click();
  await until(() => session.cells[2].state === "queued");
  session.cells[2].controls.stop.click();
  assert.equal(await waits, "stopped");
  assert.equal(session.waiting.length, 1);
  assert.equal(session.cells[0].state, "running");
  session.cells[0].controls.restart.click();
  await next("restart");
  assert.equal(session.cells[0].state, "stopped");
});

test("a crash says what happened where it happened, and the cell that crashed asks before it runs again", async () => {
  const { session, workers } = await openPage(HTML);
  await type(session, 0, "crash()");
  const below = settled(1);
  assert.equal(await run(session, 0), "crashed");
  assert.equal(session.status, "crashed");
  assert.equal(workers[0].terminated, true);
  const note = session.cells[0].box.body.querySelector(".runner-crashed");
  assert.match(note.textContent, /Python crashed while running cell 1/);
  assert.match(note.textContent, /memory access out of bounds/);
  assert.match(note.textContent, /Pyodide has suffered a fatal error/);
  // A cell queued behind it was not run.
  await type(session, 0, "a = 2");
  session.cells[1].controls.run.click();
  await until(() => session.cells[1].el.querySelector(".runner-prompt"));
  const prompt = session.cells[1].el.querySelector(".runner-prompt");
  assert.equal(workers.length, 2); // the Run after a crash ended that Python, and started one
  assert.match(prompt.textContent, /Cell 1 above crashed Python the last time it ran/);
  assert.equal(session.cells[1].state, "waiting");
  prompt.querySelector(".runner-prompt-run").click();
  assert.equal(await below, "done");
  assert.equal(outputOf(session, 1), "3\n");
});

test("Reset page puts back the build's code, outputs and prose, and forgets what was saved", async () => {
  const { window, session, storage } = await openPage(HTML);
  await type(session, 0, "a = 3");
  assert.equal(await run(session, 1), "done");
  await idle(session);
  await saved(session);
  assert.ok(storage.getItem("micrograd-book:/page.html"));
  const bar = session.pageState.bar;
  assert.equal(bar.reset.hidden, false);
  const restarted = next("restart");
  bar.reset.click();
  await restarted;
  await until(() => bar.reset.hidden);
  assert.equal(session.status, "off");
  assert.equal(session.cells[0].code, "a = 1");
  assert.equal(session.cells[1].box, null);
  assert.equal(session.cells[1].state, "idle");
  assert.equal(glued(window).dataset.shown, undefined);
  assert.match(glued(window).textContent, /^4\.0$/);
  assert.equal(storage.getItem("micrograd-book:/page.html"), null);
  assert.match(bar.status.textContent, /The page is the build's again/);
});

test("a reload brings back the reader's code, outputs and prose, from an earlier Python", async () => {
  const first = await openPage(HTML);
  await type(first.session, 0, "a = 3");
  assert.equal(await run(first.session, 1), "done");
  await idle(first.session);
  await saved(first.session);
  const again = await openPage(HTML, { storage: first.storage });
  await again.session.restored;
  const { session, window } = again;
  assert.equal(session.cells[0].code, "a = 3");
  assert.equal(session.cells[0].edited, true);
  assert.equal(outputOf(session, 1), "4\n");
  assert.equal(session.cells[1].shows, "earlier-run");
  assert.equal(session.cells[1].box.label.textContent, "Computed in your browser, by an earlier Python session");
  assert.equal(session.status, "off");
  assert.match(glued(window).textContent, /^8\.0/);
  assert.equal(glued(window).dataset.shown, "earlier");
  assert.match(session.pageState.bar.status.textContent, /Cell 1 is edited: your code/);
  // A page whose storage refuses to keep anything says so, once.
  const refusing = {
    getItem: () => null, setItem: () => { throw new Error("quota"); }, removeItem: () => {}, key: () => null, length: 0,
  };
  const privateWindow = await openPage(HTML, { storage: refusing });
  await type(privateWindow.session, 0, "a = 4");
  await saved(privateWindow.session);
  assert.match(privateWindow.session.pageState.bar.status.textContent, /does not keep your changes/);
});

test("a prediction kept before a run is judged by the run's number, and counts in the score", async () => {
  const { window, session } = await openPage(HTML);
  const box = window.document.querySelector(".mg-predict-run");
  const form = box.querySelector("form");
  form.querySelector("input").value = "nonsense";
  form.requestSubmit();
  assert.match(box.querySelector(".mg-predict-run-status").textContent, /Type a number/);
  form.querySelector("input").value = "4";
  form.requestSubmit();
  assert.match(box.querySelector(".mg-predict-run-status").textContent, /Kept: 4\. Now run it/);
  const judged = next("prose", (detail) => detail.key === "total");
  assert.equal(await run(session, 1), "done");
  await judged;
  assert.equal(session.features.get("predict").state.answers["run/total"], "right");
  assert.equal(box.querySelector(".mg-predict-run-why").hidden, false);
  assert.match(box.querySelector(".mg-predict-score").textContent, /Your predictions on this page: 1 judged, 1 right/);
  await saved(session);
  const { savedStates } = await runner("pagestate.js");
  assert.deepEqual(savedStates(session).map((s) => s.path), ["/page.html"]);
});

// The same page, where what gives the prompt's answer away waits for it (the build's
// list, docs/_features/predict/spoilers.py): the run's output, and a sentence below it.
const WITHHELD = pageHTML(CELLS, {
  prose: PROSE.replace('data-exact="0.0005">', `data-exact="0.0005" data-withholds='${JSON.stringify([
    { id: "held-output", kind: "output" }, { id: "held-prose", kind: "prose" },
  ])}'>`) + '<div id="held-prose"><p>The total is 4.0.</p></div>',
}).replace('<div class="cell_output"><pre>built 1', '<div class="cell_output" id="held-output"><pre>built 1');

/** What waits for the prompt's answer: whether each is hidden, and whether its stand-in is. */
function waiting(window) {
  return ["held-output", "held-prose"].map((id) => {
    const held = window.document.getElementById(id);
    const line = held.previousElementSibling;
    assert.ok(line.matches(".mg-after-predict-waiting"));
    return { hidden: held.classList.contains("mg-withheld"), standIn: !line.hidden };
  });
}

const HELD = [{ hidden: true, standIn: true }, { hidden: true, standIn: true }];
const SHOWN = [{ hidden: false, standIn: false }, { hidden: false, standIn: false }];

test("what gives a prompt's answer away waits, behind a stand-in, until a prediction is kept", async () => {
  const { window, session } = await openPage(WITHHELD);
  assert.deepEqual(waiting(window), HELD);
  assert.match(window.document.getElementById("held-prose").previousElementSibling.textContent,
    /gives the answer away: it shows once you keep a prediction above, or run the cell/);
  const form = window.document.querySelector(".mg-predict-run form");
  form.querySelector("input").value = "4";
  form.requestSubmit();
  assert.deepEqual(waiting(window), SHOWN);
  // The words say whose answer now shows, and that the reader's own run is still to judge.
  assert.equal(window.document.querySelector(".mg-predict-run-status").textContent,
    "Kept: 4. The book's own run is shown below now; run the cell, and the page compares your number with the run's.");
  // Reset page: the page as built, its answer waiting again.
  const { bar } = session.pageState;
  await saved(session);
  bar.reset.click();
  await until(() => bar.reset.hidden);
  assert.deepEqual(waiting(window), HELD);
});

test("what gives a prompt's answer away is held back at load, before the prompt nears the viewport", async () => {
  // A link into the section lands below the prompt: what it holds back is in view first.
  const { window } = await openPage(WITHHELD, { near: () => false });
  assert.deepEqual(waiting(window), HELD);
});

test("a run that gives the prompt's answer, without a prediction, shows what waited for it and why", async () => {
  const { window, session, storage } = await openPage(WITHHELD);
  const given = next("prose", (detail) => detail.key === "total");
  assert.equal(await run(session, 1), "done");
  await given;
  assert.deepEqual(waiting(window), SHOWN);
  // And why the answer is what it is, which a judged prediction shows.
  assert.equal(window.document.querySelector(".mg-predict-run-why").hidden, false);
  assert.deepEqual(session.features.get("predict").state.seen, ["total"]);
  assert.deepEqual(session.features.get("predict").state.answers, {}); // nothing to judge: no prediction
  await saved(session);
  const again = await openPage(WITHHELD, { storage });
  await again.session.restored;
  assert.deepEqual(waiting(again.window), SHOWN); // a reload keeps it shown
});

test("the reader may see what waits for the answer without predicting: Show", async () => {
  const { window, session } = await openPage(WITHHELD);
  window.document.querySelector(".mg-after-predict-show").click();
  assert.deepEqual(waiting(window), SHOWN);
  assert.deepEqual(session.features.get("predict").state.seen, ["total"]);
});

test("predict mode in a stepper asks before a rule's step, judges, then shows the step", async () => {
  const data = readFileSync(new URL("../predictions.fixture.json", import.meta.url), "utf-8");
  const frames = JSON.parse(data).frames.length;
  const stepper = `${stepperHTML("st", frames)}
<script type="application/json" class="mg-predict-data">${data}</script>`;
  const { window, session } = await openPage(pageHTML(CELLS, { prose: stepper }));
  // The steppers' module loads with a page that has one, and sets it up: its controller.
  const element = window.document.getElementById("st");
  await until(() => steppersOf(session).controllers.has(element));
  const control = steppersOf(session).controllers.get(element);
  let refits = 0;
  const refit = control.refit.bind(control);
  control.refit = () => {
    refits += 1;
    refit();
  };
  // Its Predict switch comes once the viewport reports it near (it is: the page is one screen).
  await until(() => element.querySelector(".mg-predict-switch"));
  const toggle = element.querySelector(".mg-predict-switch");
  assert.equal(toggle.getAttribute("aria-pressed"), "false");
  const before = refits;
  toggle.click();
  assert.equal(session.features.get("predict").state.on, true);
  // The question's place opened: the stepper lays its drawings out again, once.
  assert.equal(refits, before + 1);
  // The reader steps to the first frame whose rule runs: predict holds the step and asks.
  control.goTo(1);
  element.querySelector(".mg-stepper-next").click();
  assert.equal(control.current, 1);
  const form = element.parentElement.querySelector(".mg-predict-ask");
  assert.equal(form.hidden, false);
  const asks = JSON.parse(data).frames[2].asks;
  form.querySelectorAll("input").forEach((input, k) => {
    input.value = asks[k].answer;
  });
  form.requestSubmit();
  // Answered: the stepper shows the step it held.
  assert.equal(control.current, 2);
  assert.equal(element.dataset.current, "2");
  assert.equal(form.hidden, true);
  assert.deepEqual(Object.values(session.features.get("predict").state.answers), asks.map(() => "right"));
  assert.deepEqual(session.features.get("predict").state.revealed, { st: [2] });
  // A frame already revealed is not asked again: the step goes through.
  control.goTo(1);
  element.querySelector(".mg-stepper-next").click();
  assert.equal(control.current, 2);
});

// An exercise page: one exercise cell, checked by the worker's "Python".
const TRACK = {
  exercises: [{
    id: "double", number: 1, title: "Double it",
    hints: [{ html: "<em>Twice</em> a.", text: "Twice a." }, { html: "a * 2", text: "a * 2" }],
    solution: "d = a * 2",
  }],
};

test("Check runs the exercise's cell, asks the worker's checks, and keeps the progress", async () => {
  const cells = [{ source: "a = 2" }, { source: "d = a + 1", exercise: "double" }];
  const answers = {
    check: (fields, namespace) => (namespace.d === namespace.a * 2
      ? { status: "passed", checked: 3 }
      : { status: "failed", message: `d is ${namespace.d}, not ${namespace.a * 2}.`, case: "a = 1\nd" }),
  };
  const { window, session } = await openPage(pageHTML(cells, { track: TRACK }), { answers });
  await until(() => session.features.get("track"));
  const cell = session.cells[1];
  const check = cell.controls.bar.querySelector(".runner-check");
  const panel = cell.el.querySelector(".mg-exercise");
  const result = panel.querySelector(".mg-exercise-result");
  const checked = async () => {
    delete result.dataset.status;
    await until(() => result.dataset.status && result.dataset.status !== "undefined");
    return result.dataset.status;
  };
  check.click();
  assert.equal(await checked(), "failed");
  assert.match(result.textContent, /Not yet: d is 3, not 4\./);
  assert.match(result.textContent, /The case, to paste into a cell and run:/);
  assert.match(window.document.querySelector(".mg-track-progress").textContent, /0 of 1 steps done/);
  panel.querySelector(".mg-exercise-hint").click();
  assert.match(panel.querySelector(".mg-exercise-hints").textContent, /Hint 1 of 2/);
  await type(session, 1, "d = a * 2");
  check.click();
  assert.equal(await checked(), "passed");
  assert.match(result.textContent, /Passed: step 1 does all the book asks of it \(3 checks\)/);
  assert.match(window.document.querySelector(".mg-track-progress").textContent, /1 of 1 steps done/);
  assert.equal(session.records.checks.length, 2);
  assert.deepEqual(session.records.checks.map((c) => c.status), ["failed", "passed"]);
  // Passed: the book's solution shows beside the reader's code.
  assert.match(panel.querySelector(".mg-exercise-solution").textContent, /Your code.*d = a \* 2.*The book's solution/s);
  panel.querySelector(".mg-exercise-reset").click();
  assert.match(window.document.querySelector(".mg-track-progress").textContent, /0 of 1 steps done/);
  assert.equal(cell.code, "d = a + 1");
});

// A prompt whose why holds a number its cell glues after the prompt's own (the neuron's
// x2, glued after w2's gradient): the run judges the prediction at the prompt's number.
const WHY_CELLS = [
  { source: "a = 1" },
  { source: "b = a + 1\nprint(b)" },
  { source: "glue(\"total\", b * 2)\nglue(\"bee\", b)", hidden: true, glue: ["total", "bee"] },
];
const WHY_PAGE = pageHTML(WHY_CELLS, {
  prose: `<p>The total is <span class="pasted-text" data-glue-key="total" data-glue-format=".1f">4.0</span>.</p>
<div class="mg-predict-run" data-key="total" data-format=".1f" data-close="0.5" data-exact="0.0005">
<p class="mg-predict-run-question">What total will your run give?</p>
<div class="mg-predict-run-why"><p>b is <span class="pasted-text" data-glue-key="bee" data-glue-format=".1f">2.0</span>,
and the total twice that.</p></div></div>`,
});

test("what the page says of a judged prediction is its why with the run's numbers", async () => {
  const { window, session } = await openPage(WHY_PAGE);
  await type(session, 0, "a = 4");
  const form = window.document.querySelector(".mg-predict-run form");
  form.querySelector("input").value = "10";
  form.requestSubmit();
  assert.equal(await run(session, 1), "done");
  await idle(session);
  const why = window.document.querySelector(".mg-predict-run-why span.pasted-text");
  assert.equal(why.firstChild.textContent, "5.0"); // the page shows the run's b
  const said = window.document.querySelector(".runner-announcer").textContent;
  assert.match(said, /b is 5\.0/, said);
  assert.doesNotMatch(said, /out of date|build's value|2\.0/, said);
});
