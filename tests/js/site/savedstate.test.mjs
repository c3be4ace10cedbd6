// A page's saved state as data (docs/_static/runner/pagestate.js): what is
// saved of a cell, what a reload brings back of it, and a state of an older
// page, wheel or shape.  And what marks an edited cell's code (cells.js), the
// same words while the reader edits and runs it and after a reload.
import assert from "node:assert/strict";
import { test } from "node:test";

import { EDITED_MARK, editedNews, editedText } from "../../../docs/_static/runner/cells.js";
import {
  FORMAT, SHOWN_KINDS, cellSnapshot, pageSnapshot, restorePlan, restoredText, runsCurrent, versionOf,
} from "../../../docs/_static/runner/pagestate.js";

const MANIFEST = '{"cells": [{"source": "x = 1"}, {"source": "print(x)"}]}';
const WHEELS = ["micrograd-0.2.0-py3-none-any.whl"];
const VERSION = versionOf(MANIFEST, WHEELS);

/** What a run showed, item by item, as the worker sent it. */
const SHOWN = [
  { kind: "note", className: "runner-rerun", text: "Ran cell 1 again first.", error: null },
  { kind: "stream", name: "stdout", text: "1\n" },
  { kind: "display", index: 0, bundle: { "text/plain": "Value(data=1)", "text/vnd.graphviz": "digraph {}" } },
  { kind: "layout", index: 0, html: "<svg><g></g></svg>" },
  { kind: "traceback", text: "Traceback (most recent call last): ..." },
  { kind: "addon", name: "live-chart", fields: { figure: { charts: [] }, points: 3 } },
];

/** A cell as cells.js's snapshot sees it. */
const cell = (fields = {}) => ({
  source: "print(x)", code: "print(x)", edited: false, busy: false, state: "idle", detail: "",
  shows: "build", stale: false, shown: null, ...fields,
});

const ran = cell({
  code: "print(x + 1)", edited: true, state: "done", detail: "ran in 0.10 s", shows: "run", shown: SHOWN,
});

/** The saved state of a page whose second cell the reader edited and ran. */
const saved = () => JSON.parse(JSON.stringify(pageSnapshot({
  version: VERSION,
  cells: [cell({ source: "x = 1", code: "x = 1" }), ran],
  prose: { moons_final_loss: { value: { ".4f": "0.1000" }, from: "run", stale: false } },
  addons: {},
})));

test("the version names the page's cells, its wheels and the shape of saved states", () => {
  assert.equal(VERSION, versionOf(MANIFEST, WHEELS));
  assert.ok(VERSION.startsWith(`${FORMAT}:`));
  assert.notEqual(versionOf(MANIFEST.replace("x = 1", "x = 2"), WHEELS), VERSION);
  assert.notEqual(versionOf(MANIFEST, ["micrograd-0.3.0-py3-none-any.whl"]), VERSION);
});

test("a cell is saved as data: its code if edited, and what its output box showed", () => {
  const kept = cellSnapshot(ran);
  assert.equal(kept.code, "print(x + 1)");
  assert.deepEqual(kept.shown, SHOWN);
  assert.notEqual(kept.shown, SHOWN); // a copy: a later run does not change what was saved
  assert.equal(cellSnapshot(cell()).code, null);
  assert.equal(cellSnapshot(cell()).shown, null); // the build's output: nothing to show again
  for (const item of kept.shown) assert.ok(SHOWN_KINDS.includes(item.kind), item.kind);
});

test("a busy cell is saved as not run", () => {
  const kept = cellSnapshot(cell({ busy: true, state: "running", detail: "running…" }));
  assert.equal(kept.state, "idle");
  assert.equal(kept.detail, "");
});

test("no saved state holds HTML read back from the page", () => {
  const state = saved();
  for (const kept of state.cells) {
    assert.ok(!("html" in kept), "a cell's saved state has an html field");
    assert.ok(!("outputs" in kept), "a cell's outputs are what its shown items give again");
  }
  assert.ok(!JSON.stringify(state).includes("innerHTML"));
  // The one HTML kept is what the worker laid out, as it sent it.
  const html = state.cells[1].shown.filter((item) => "html" in item);
  assert.deepEqual(html.map((item) => item.kind), ["layout"]);
});

test("a state of this version brings back the edits and the runs", () => {
  const plan = restorePlan(saved(), [{ source: "x = 1" }, { source: "print(x)" }], VERSION);
  assert.equal(plan.current, true);
  assert.deepEqual(plan.cells[0], { index: 0, code: null, codeGoes: null, run: null });
  assert.deepEqual(plan.cells[1], {
    index: 1,
    code: "print(x + 1)",
    codeGoes: "editor",
    run: { shown: SHOWN, state: "done", detail: "ran in 0.10 s", stale: false },
  });
  assert.match(restoredText(plan.current), /back, from your last visit/);
});

test("a state of another version brings back the edits, not the runs", () => {
  const plan = restorePlan(saved(), [{ source: "x = 1" }, { source: "print(x)" }], versionOf("{}", WHEELS));
  assert.equal(plan.current, false);
  assert.equal(plan.cells[1].codeGoes, "editor");
  assert.equal(plan.cells[1].run, null);
  assert.equal(restoredText(plan.current),
    "This page changed since your last visit: your edits are back, your runs are not.");
});

test("an edit of a cell whose code the page changed since is offered beside it", () => {
  const plan = restorePlan(saved(), [{ source: "x = 1" }, { source: "print(x * 2)" }], VERSION);
  assert.equal(plan.cells[1].codeGoes, "beside");
  assert.equal(plan.cells[1].code, "print(x + 1)");
});

test("a saved cell the page no longer has is left out", () => {
  const plan = restorePlan(saved(), [{ source: "x = 1" }], VERSION);
  assert.deepEqual(plan.cells.map((c) => c.index), [0]);
});

test("a state of the older shape (innerHTML) is treated as of another version", () => {
  const old = {
    version: VERSION.slice(`${FORMAT}:`.length), // the older shape had no format in its version
    cells: [{
      source: "print(x)", code: "print('mine')", state: "done", detail: "", shows: "run",
      stale: false, html: "<pre>mine</pre>", outputs: [],
    }],
    prose: {},
  };
  for (const version of [VERSION, old.version]) {
    const plan = restorePlan({ ...old, version }, [{ source: "print(x)" }], VERSION);
    assert.equal(plan.current, false);
    assert.equal(plan.cells[0].run, null);
    assert.equal(plan.cells[0].codeGoes, "editor");
  }
  assert.equal(runsCurrent({ version: VERSION, cells: old.cells }, VERSION), false);
});

test("the scratch cell is saved as a cell is, and brought back with the runs", () => {
  const scratch = cell({
    source: "", code: "print(x)", edited: true, state: "done", shows: "run", shown: SHOWN,
  });
  const state = JSON.parse(JSON.stringify(pageSnapshot({
    version: VERSION, cells: [cell({ source: "x = 1", code: "x = 1" })], scratch, prose: {}, addons: {},
  })));
  assert.deepEqual(state.scratch, cellSnapshot(scratch));
  const plan = restorePlan(state, [{ source: "x = 1" }], VERSION, { source: "" });
  assert.equal(plan.scratch.code, "print(x)");
  assert.equal(plan.scratch.codeGoes, "editor");
  assert.deepEqual(plan.scratch.run.shown, SHOWN);
  const elsewhere = restorePlan(state, [{ source: "x = 1" }], "another version", { source: "" });
  assert.equal(elsewhere.scratch.codeGoes, "editor", "its code comes back on a changed page too");
  assert.equal(elsewhere.scratch.run, null);
});

test("a state saved without a scratch cell brings none back", () => {
  assert.equal(saved().scratch, null);
  assert.equal(restorePlan(saved(), [{ source: "x = 1" }, { source: "print(x)" }], VERSION, { source: "" }).scratch, null);
  const older = saved();
  delete older.scratch;
  assert.equal(restorePlan(older, [{ source: "x = 1" }], VERSION, { source: "" }).scratch, null);
});

// -- an edited cell's mark --------------------------------------------------------------------

test("a reload says which cells' code is the reader's, in the words of their mark", () => {
  const back = restoredText(true, [2]);
  assert.match(back, /^Your changes to this page are back, from your last visit/);
  assert.ok(back.endsWith(" Cell 2 is edited: your code, not the page's."), back);
  assert.ok(back.toLowerCase().includes(EDITED_MARK.replace(/\.$/, "").toLowerCase()), back);
  assert.ok(restoredText(false, [1, 3, 4]).endsWith(
    " Cells 1, 3 and 4 are edited: your code, not the page's."));
  assert.equal(restoredText(true, []), restoredText(true));
});

test("typing says when a cell's code becomes the reader's and when it is the page's again", () => {
  assert.equal(EDITED_MARK, "Edited: your code, not the page's.");
  assert.equal(editedNews(3, false, true), editedText([3]));
  assert.equal(editedNews(3, true, false), "Cell 3 is the page's code again.");
  assert.equal(editedNews(3, true, true), null, "each key typed does not say it again");
  assert.equal(editedNews(3, false, false), null);
  assert.equal(editedText([]), "");
});
