// The stale marks: which cells' shown outputs a run has made out of date
// (flow.js decides), drawn on the cells and told to the add-ons that follow
// them (micrograd:stale, with the glue keys of those cells).  The outputs that
// stay the build's (build-only cells, and the hidden cells computed from them:
// planner.notRerun) once the reader changed a cell they depend on say so, with
// that cell's number, on the cell and in the prose (notRerun: key -> cells).

import { emit } from "./api.js";
import { allBuildOnlyCells, setBuildOnlyNote, setStale } from "./cells.js";
import * as flow from "./flow.js";
import { analyse } from "./routing.js";
import { runtime } from "./runtime.js";
import { notRerunNote } from "./wording.js";

let lastStale = "";
let staleRun = []; // the codes the last run's marks found stale (planner.staleCells)

/**
 * Mark the outputs a run made stale (and unmark the ones that are current again).
 * Where the reader's code is not analysed yet and Python is up, the marks are
 * drawn again once the worker's analysis of it is in.
 */
export function refreshStale() {
  staleRun = flow.staleCells();
  draw();
  if (!flow.isAnalysed() && runtime.isUp()) {
    flow.analyseEdits(analyse).then(() => {
      staleRun = flow.staleCells();
      draw();
    });
  }
}

// An edit alone makes stale no output a run can update (until the next run), but what
// stays the build's is out of date as soon as a cell it depends on is the reader's.
document.addEventListener("micrograd:edit", () => draw());

function draw() {
  const shownAs = (because) => because.map(({ code, edited }) => ({
    number: flow.codeCells[code].cell?.number ?? null, edited,
  })).filter((c) => c.number !== null);
  const notRerun = new Map(flow.notRerun()
    .map(({ code, because }) => [code, shownAs(because)])
    .filter(([, cells]) => cells.length > 0));
  for (const cell of allBuildOnlyCells()) {
    const cells = notRerun.get(cell.position);
    setBuildOnlyNote(cell, cells ? notRerunNote(cells) : null);
  }
  const stale = new Set(staleRun);
  for (const entry of flow.codeCells) {
    if (entry.cell) setStale(entry.cell, stale.has(entry.code));
  }
  for (const code of notRerun.keys()) stale.add(code);
  const glueNotRerun = {};
  for (const [code, cells] of notRerun) for (const key of flow.codeCells[code].glue) glueNotRerun[key] = cells;
  const detail = {
    cells: [...stale].map((code) => flow.codeCells[code].cell).filter(Boolean).map((c) => c.index),
    code: [...stale].sort((a, b) => a - b),
    glue: [...stale].sort((a, b) => a - b).flatMap((code) => flow.codeCells[code].glue),
    notRerun: glueNotRerun,
  };
  const key = JSON.stringify(detail);
  if (key !== lastStale) {
    lastStale = key;
    emit("stale", detail);
  }
}
