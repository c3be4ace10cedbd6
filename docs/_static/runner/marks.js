// The stale marks: which cells' shown outputs a run has made out of date
// (flow.js decides), drawn on the cells and told to the add-ons that follow
// them (micrograd:stale, with the glue keys of those cells).  The outputs that
// stay the build's (build-only cells, and the hidden cells computed from them:
// planner.notRerun) once the reader changed a cell they depend on say so, with
// that cell's number, on the cell and in the prose (notRerun: key -> cells).

import { emit } from "./api.js";
import { setBuildOnlyNote, setStale } from "./cells.js";
import { analyse } from "./routing.js";
import { notRerunNote } from "./wording.js";

/**
 * Mark the outputs a run made stale (and unmark the ones that are current again).
 * Where the reader's code is not analysed yet and Python is up, the marks are
 * drawn again once the worker's analysis of it is in.  session.stale keeps the
 * codes the last run's marks found stale (planner.staleCells) and what was sent.
 */
export function refreshStale(session) {
  const { flow } = session;
  session.stale.codes = flow.staleCells();
  drawStale(session);
  if (!flow.isAnalysed() && session.isUp()) {
    flow.analyseEdits((cells) => analyse(session, cells)).then(() => {
      session.stale.codes = flow.staleCells();
      drawStale(session);
    });
  }
}

/** Draw the marks of what is stale now (and tell the add-ons, when that changed). */
export function drawStale(session) {
  const { flow } = session;
  const shownAs = (because) => because.map(({ code, edited }) => ({
    number: flow.codeCells[code].cell?.number ?? null, edited,
  })).filter((c) => c.number !== null);
  const notRerun = new Map(flow.notRerun()
    .map(({ code, because }) => [code, shownAs(because)])
    .filter(([, cells]) => cells.length > 0));
  for (const cell of session.buildOnlyCells) {
    const cells = notRerun.get(cell.position);
    setBuildOnlyNote(cell, cells ? notRerunNote(cells) : null);
  }
  const stale = new Set(session.stale.codes);
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
  if (key !== session.stale.shown) {
    session.stale.shown = key;
    emit("stale", detail);
  }
}
