// The runner's test API: the one small surface the browser tests
// (browser_tests/) read and drive the runner through, as window.microgradTest.
// Nothing in the runner imports it but the entry point, which exposes the page's
// session through it: it imports what it exposes (the modules that load later,
// when asked, so that asking loads nothing early).  A cell is named by its index among the
// runnable cells (those with a Run button), in page order.
//
//   cellCount()          how many runnable cells the page has
//   cell(i)              {index, number, name, source (the page's code), code (what
//                        it runs: the reader's edit, if any), edited, state, shows,
//                        stale, hasEditor, outputs ({kind, name, mime, text, data})}
//   cells()              cell(i) of every cell
//   scratch()            the scratch cell ("Try your own code") as cell(i) gives a cell,
//                        or null on a page without one
//   setCode(i, code)     put code into cell i's editor (it must have one)
//   status()             the runtime: off, starting, ready, running or crashed (runtime.js)
//   timings()            records.timings (state.js): the first start's phases, each run
//   log()                what the runtime wrote to its console
//   saved()              whether every change so far is saved: no save of the page's
//                        state waits or is under way (pagestate.js)
//   liveCharts()         each drawing of a live training chart (charts.js)
//   checks()             each Check of an exercise (exercises.js): {exercise, status,
//                        mistake (its id, or null), seconds from the click to the result}
//   prose()              (a promise) what the prose shows of the reader's run: {key: {value, from,
//                        stale}} of every glued number and claim that is not the build's
//                        (prose.js; claims are named "claim:<key>")
//   needs()              (a promise) for each of the page's code cells, the codes of
//                        the cells the runner runs before it on a fresh page (Python's,
//                        snippets.py: the build's, or the worker's for the reader's
//                        code), once a Run has loaded the flow; null before, and while
//                        the reader's code is not analysed

import { allSaved } from "./pagestate.js";

function summary(cell) {
  return {
    index: cell.index,
    number: cell.number,
    name: cell.name,
    source: cell.source,
    code: cell.code,
    edited: cell.edited,
    state: cell.state,
    shows: cell.shows,
    stale: cell.stale,
    hasEditor: cell.editor !== null,
    outputs: cell.outputs.map((o) => ({
      kind: o.kind,
      name: o.name || null,
      mime: o.mime || null,
      text: o.text || null,
      data: o.data || null,
    })),
  };
}

/** The test API of the page's session (runtime.js), as the browser tests see it. */
export function testApi(session) {
  const { records } = session;
  return Object.freeze({
    cellCount: () => session.cells.length,
    cell: (i) => summary(session.cells[i]),
    cells: () => session.cells.map(summary),
    scratch: () => (session.scratch ? summary(session.scratch) : null),
    setCode(i, code) {
      const cell = session.cells[i];
      if (!cell.editor) throw new Error(`cell ${i} has no editor yet`);
      cell.editor.value = code;
    },
    status: () => session.status,
    // Nothing runs or waits: the hidden cells after a run (their glued numbers and
    // claims) are done too.
    idle: () => session.current === null && session.waiting.length === 0,
    timings: () => records.timings,
    log: () => records.log,
    liveCharts: () => records.liveCharts,
    checks: () => records.checks,
    prose: () => import("./prose.js").then((prose) => prose.proseOf(session).snapshot()),
    saved: () => allSaved(session),
    // (a Run has loaded the page's flow: it links each cell to its entry)
    needs: () => (session.flow !== null ? Promise.resolve(session.flow.plannedNeeds()) : null),
  });
}
