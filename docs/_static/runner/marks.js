// The stale marks: which cells' shown outputs a run has made out of date
// (flow.js decides), drawn on the cells and told to the add-ons that follow
// them (micrograd:stale, with the glue keys of those cells).

import { emit } from "./api.js";
import { setStale } from "./cells.js";
import * as flow from "./flow.js";
import { analyse } from "./routing.js";
import { runtime } from "./runtime.js";

let lastStale = "";

/**
 * Mark the outputs a run made stale (and unmark the ones that are current again).
 * Where the reader's code is not analysed yet and Python is up, the marks are
 * drawn again once the worker's analysis of it is in.
 */
export function refreshStale() {
  draw();
  if (!flow.isAnalysed() && runtime.isUp()) flow.analyseEdits(analyse).then(draw);
}

function draw() {
  const stale = new Set(flow.staleCells());
  for (const entry of flow.codeCells) {
    if (entry.cell) setStale(entry.cell, stale.has(entry.code));
  }
  const detail = {
    cells: [...stale].map((code) => flow.codeCells[code].cell).filter(Boolean).map((c) => c.index),
    code: [...stale],
    glue: [...stale].flatMap((code) => flow.codeCells[code].glue),
  };
  const key = JSON.stringify(detail);
  if (key !== lastStale) {
    lastStale = key;
    emit("stale", detail);
  }
}
