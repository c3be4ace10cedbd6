// The charts feature (docs/_features/charts/charts.js) on a page in happy-dom: a
// training cell's live chart grows under the cell while it trains, and once the
// run's own output shows its chart, that is the one chart the cell shows, now and
// after a reload.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  idle, openPage, pageHTML, saved, settled,
} from "../../fake_page.mjs";

/** A training cell: its log's chart sent as it grows, then its own chart, then the last rows. */
const TRAINING = [{ source: "live_chart(1)\nlive_chart(2)\nshow_chart()\nlive_chart(3)" }];

/** The charts the cell's output box shows: the live one and the run's own. */
const chartsIn = (session) => [...session.cells[0].box.body.querySelectorAll(".runner-chart")];

async function runTraining(page) {
  const settles = settled(0);
  page.session.cells[0].controls.run.click();
  assert.equal(await settles, "done");
  await idle(page.session);
}

test("a training cell's live chart goes once its run shows its own chart: one chart", async () => {
  const page = await openPage(pageHTML(TRAINING));
  await runTraining(page);
  const shown = chartsIn(page.session);
  assert.equal(shown.length, 1);
  assert.ok(!shown[0].classList.contains("runner-live-chart"));
  assert.ok(page.session.cells[0].shown.every((item) => item.name !== "live-chart"));
});

test("a live chart is drawn while no chart of the run's own is shown", async () => {
  const page = await openPage(pageHTML([{ source: "live_chart(1)\nlive_chart(2)" }]));
  await runTraining(page);
  const shown = chartsIn(page.session);
  assert.equal(shown.length, 1);
  assert.ok(shown[0].classList.contains("runner-live-chart"));
  assert.ok(page.session.features.get("charts"), "the feature's state is under its name");
});

test("a reload shows the training cell's one chart again", async () => {
  const first = await openPage(pageHTML(TRAINING));
  await runTraining(first);
  await saved(first.session);
  const again = await openPage(pageHTML(TRAINING), { storage: first.storage });
  await again.session.restored;
  assert.equal(chartsIn(again.session).length, 1);
});
