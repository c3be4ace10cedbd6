// A page loads with only what its first screen needs (cells.js whenNear): a cell's bar,
// a build-only cell's note, the scratch cell's bar and a prompt's form are made when
// they near the viewport, when the browser is idle, or at once when something needs
// the whole page (the first Run, the first Tab, printing); a reload's saved state
// sets up the cells it brings back.  The viewport is the test's (fake_page.mjs Viewport).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  idle, idleNow, openPage, pageHTML, runner, saved, scrollNear, settled,
} from "../fake_page.mjs";

const CELLS = [
  { source: "a = 1" },
  { source: "b = a + 1\nprint(b)" },
  { source: "plot(b)", buildOnly: true },
  { source: "c = b * 10\nprint(c)" },
];
const PROMPT = `<div class="mg-predict-run" data-key="total" data-format=".1f" data-close="0.5"
data-exact="0.0005"><p class="mg-predict-run-question">What total will your run give?</p>
<div class="mg-predict-run-why"><p>Twice b.</p></div></div>`;
const HTML = pageHTML(CELLS, { prose: PROMPT });

/** Only the page's first cell is near the viewport. */
const firstCellOnly = (el) => el.matches("div.cell") && el.dataset.microgradCell === "0";

const barred = (session) => session.cells.map((cell) => cell.controls !== null);
const buttonsOf = (cell) => Array.from(cell.controls.bar.querySelectorAll("button"))
  .map((b) => b.getAttribute("aria-label") || b.textContent);

test("a page loads with the bars of the cells near the viewport only, and each cell gets its bar as it nears", async () => {
  const { window, session } = await openPage(HTML, { near: firstCellOnly });
  assert.deepEqual(barred(session), [true, false, false]);
  // The first screen set up one part of six: the cells, the build-only cell, the
  // scratch cell and the prompt wait.
  assert.deepEqual(session.records.timings.firstScreen, { parts: 1, waiting: 5 });
  assert.equal(session.scratch.controls, null);
  assert.equal(session.buildOnlyCells[0].controls, null);
  assert.equal(window.document.querySelectorAll(".runner-build-only").length, 0);
  assert.equal(window.document.querySelector(".mg-predict-run form"), null);
  // Every runnable cell is known, with its state, before its bar is made.
  assert.equal(session.cells.length, 3);
  assert.deepEqual(session.cells.map((cell) => cell.el.dataset.runnerState), ["idle", "idle", "idle"]);

  const second = session.cells[1];
  await scrollNear(window, second.el);
  assert.deepEqual(barred(session), [true, true, false]);
  // The same bar as a cell set up at load: its buttons, then the add-ons' tools, one Tab stop.
  assert.deepEqual(buttonsOf(second), buttonsOf(session.cells[0]).map((name) => name.replace("cell 1", "cell 2")));
  assert.deepEqual(buttonsOf(second).slice(0, 2), ["Run cell 2", "Edit cell 2"]);
  assert.ok(buttonsOf(second).includes("Copy cell 2"));
  assert.deepEqual(Array.from(second.controls.bar.querySelectorAll("button")).filter((b) => b.tabIndex === 0),
    [second.controls.run]);

  await scrollNear(window, session.buildOnlyCells[0].el);
  assert.equal(window.document.querySelectorAll(".runner-build-only").length, 1);
  assert.deepEqual(buttonsOf(session.buildOnlyCells[0]), ["Copy cell 3"]);
});

test("once the browser is idle after the load, every part of the page is set up", async () => {
  const { window, session } = await openPage(HTML, { near: () => false });
  const { testApi } = await runner("runner.js");
  assert.deepEqual(barred(session), [false, false, false]);
  assert.equal(testApi(session).setUp(), false); // what the browser tests wait on
  idleNow(window);
  assert.deepEqual(barred(session), [true, true, true]);
  assert.equal(testApi(session).setUp(), true);
  assert.equal(window.document.querySelectorAll(".runner-build-only").length, 1);
  assert.ok(window.document.querySelector(".mg-predict-run form"));
  // The scratch cell's bar is a page cell's, without the page cells' tools (copy).
  assert.deepEqual(buttonsOf(session.scratch).slice(0, 2), ["Run the scratch cell", "Edit the scratch cell"]);
  assert.equal(buttonsOf(session.scratch).filter((name) => name.startsWith("Copy")).length, 0);
});

test("the first Run sets up every cell, for its queue may run or mark any of them", async () => {
  const { window, session } = await openPage(HTML, { near: firstCellOnly });
  const done = settled(1);
  await scrollNear(window, session.cells[1].el);
  session.cells[1].controls.run.click();
  assert.deepEqual(barred(session), [true, true, true]);
  assert.notEqual(session.scratch.controls, null);
  assert.equal(await done, "done");
  // The cell above that it needed ran too, and its bar says so.
  assert.equal(session.cells[0].controls.status.textContent, session.cells[0].detail);
  assert.equal(session.cells[0].state, "done");
  await idle(session);
});

test("the first Tab sets up every part of the page, before the focus moves", async () => {
  const { window, session } = await openPage(HTML, { near: () => false });
  const press = (key) => window.document.body.dispatchEvent(new window.KeyboardEvent("keydown", { key, bubbles: true }));
  press("a");
  assert.deepEqual(barred(session), [false, false, false]);
  press("Tab");
  assert.deepEqual(barred(session), [true, true, true]);
  assert.ok(window.document.querySelector(".mg-predict-run form"));
});

test("a printed page has every part set up", async () => {
  const { window, session } = await openPage(HTML, { near: () => false });
  window.dispatchEvent(new window.Event("beforeprint"));
  assert.deepEqual(barred(session), [true, true, true]);
  assert.equal(window.document.querySelectorAll(".runner-build-only").length, 1);
});

test("a reload brings back a far cell's code and run, and what the prompt kept, as each nears", async () => {
  const first = await openPage(HTML);
  const { openEditor } = await import("../../../docs/_static/runner/editor.js");
  const cell = first.session.cells[2];
  await openEditor(first.session, cell, () => {});
  cell.editor.value = "c = b * 100\nprint(c)";
  const box = first.window.document.querySelector(".mg-predict-run");
  box.querySelector("input").value = "4";
  box.querySelector("form").requestSubmit();
  const ran = settled(2);
  cell.controls.run.click();
  assert.equal(await ran, "done");
  await idle(first.session);
  await saved(first.session);

  const again = await openPage(HTML, { storage: first.storage, near: () => false });
  await again.session.restored;
  const back = again.session.cells[2];
  // The cell the saved state brings back has its bar, its editor and its run's output.
  assert.notEqual(back.controls, null);
  assert.equal(back.code, "c = b * 100\nprint(c)");
  assert.equal(back.box.body.textContent, "200\n");
  assert.equal(back.shows, "earlier-run");
  assert.ok(back.editedMark);
  // The cells above ran for it, and come back too; the scratch cell, untouched, waits.
  assert.deepEqual(barred(again.session), [true, true, true]);
  assert.equal(again.session.scratch.controls, null);
  // The prompt's form is made when it nears, and shows what was kept.
  const prompt = again.window.document.querySelector(".mg-predict-run");
  assert.equal(prompt.querySelector("form"), null);
  await scrollNear(again.window, prompt);
  assert.match(prompt.querySelector(".mg-predict-run-status").textContent, /Kept: 4\. Now run it/);
});

test("a cell's state changed before its bar is made is drawn when it is made", async () => {
  const { window, session } = await openPage(HTML, { near: firstCellOnly });
  const { setState } = await import("../../../docs/_static/runner/cells.js");
  const far = session.cells[2];
  setState(far, "queued", "waiting for cell 2");
  assert.equal(far.controls, null);
  assert.equal(far.el.dataset.runnerState, "queued");
  await scrollNear(window, far.el);
  assert.equal(far.controls.status.textContent, "waiting for cell 2");
  assert.equal(far.controls.stop.hidden, false);
  assert.equal(far.controls.run.getAttribute("aria-disabled"), "true");
});
