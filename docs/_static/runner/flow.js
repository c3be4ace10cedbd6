// The page's flow: every code cell of the page in order (the build's manifest,
// visible and hidden cells), bound to the page's cells, and what each run in
// this Python session changed.  The planning itself is planner.js's (what Run
// on a cell runs first, which outputs are stale: see its top); this module
// gives it the page as the reader has it now and keeps the run history.
//
// What each cell defines, reads and may change, and which cells it needs, is
// Python's (snippets.py): the build wrote it into the manifest for the page's
// code; for code the reader edited, the worker answers it (analyseEdits, before
// a plan is made: running needs Python anyway).  The flow is the session's
// (session.flow), made from the page's manifest when the run machinery loads.

import * as planner from "./planner.js";

/** The attribute the build writes on each shown cell: its position in the manifest. */
const CELL_ATTRIBUTE = "data-micrograd-cell";

/** The page's flow, for one session (session.flow): made when the run machinery loads. */
export class Flow {
  /** session: runtime.js's Session (its manifest, and alsoRead: what exercises.js noted). */
  constructor(session) {
    const { manifest } = session;
    this.session = session;
    /**
     * Every code cell of the page, in order: {code (its index), source, hidden,
     * apart (the build hides or folds away its code: it runs in the hidden cells'
     * namespace, kernel.py), buildOnly, glue (the keys it glues), names, watches, needs
     * (Python's analysis of the page's code: snippets.py), shows (what its last
     * expression showed at build time), script (a shown cell's script), cell (the
     * visible cell's Cell, cells.js, or null), after (for a hidden cell: the visible
     * cell above it, or null)}.
     */
    this.codeCells = manifest.cells.map((entry, code) => ({ ...entry, code, cell: null }));
    /** Where the page's scripts come from (snippets.py's page), for a script of the reader's code. */
    this.scriptPage = manifest.page || null;
    /** The format specs the page shows each glued value in: {key: [spec, ...]} (the build's). */
    this.glueFormats = manifest.glueFormats || {};
    this.blocked = new Map(); // code -> "crashed" | "stopped": runs again only when asked to
    this.history = planner.newHistory(); // what ran in this Python session
    this.analysis = null; // the worker's latest analysis: {sources, cells}
  }

  /** A new Python session: nothing has run in it. */
  newSession() {
    this.history = planner.newHistory();
  }

  /**
   * Link the page's visible runnable cells (Cells, in page order) to their
   * entries, by the position the build wrote on each (data-micrograd-cell).
   * Without it (a page built without a manifest), each visible cell becomes an
   * entry of its own, with no facts: every cell above then runs before it, as a
   * notebook's "run all above" would.  Returns whether the build's ids bound them.
   */
  linkCells(cells) {
    const { codeCells } = this;
    const positions = cells.map((cell) => Number.parseInt(cell.el.getAttribute(CELL_ATTRIBUTE), 10));
    const visible = codeCells.filter((c) => !c.hidden && !c.buildOnly).map((c) => c.code);
    const matches = positions.length === visible.length
      && positions.every((code, i) => code === visible[i]);
    if (!matches) {
      codeCells.splice(0, codeCells.length, ...cells.map((cell, code) => ({
        code, source: cell.source, hidden: false, buildOnly: false, glue: [], names: null,
        watches: [], needs: [], cell: null,
      })));
      positions.splice(0, positions.length, ...cells.map((cell, code) => code));
    }
    cells.forEach((cell, i) => {
      codeCells[positions[i]].cell = cell;
      cell.entry = codeCells[positions[i]];
    });
    let above = null;
    for (const c of codeCells) {
      if (c.hidden) c.after = above;
      else above = c;
    }
    return matches;
  }

  /**
   * The scratch cell's entry ("Try your own code", a Cell of cells.js): after every
   * code cell of the page (code: their count), in no manifest and no script; Run on it
   * runs what the page needs first (planner.afterThePage), and its runs change no
   * history, so nothing on the page goes stale by them.
   */
  linkScratch(cell) {
    cell.entry = {
      code: this.codeCells.length, scratch: true, source: "", hidden: false, buildOnly: false,
      glue: [], names: null, watches: [], needs: [], after: null, cell,
    };
    return cell.entry;
  }

  sources() {
    return this.codeCells.map(sourceOf);
  }

  page() {
    return planner.pageOf(this.codeCells, this.sources(), this.analysis);
  }

  /** The page a plan for code k is made on: with the scratch cell after it, for the scratch's. */
  pageFor(k) {
    return k === this.codeCells.length ? planner.afterThePage(this.page()) : this.page();
  }

  /**
   * Have Python analyse the page's code as it is now, when the reader has edited it
   * and it has not been analysed yet: analyse(cells) resolves with, for each cell,
   * {names, watches, needs} (snippets.py's runner_analysis, in the worker).
   */
  async analyseEdits(analyse) {
    const now = this.sources();
    if (planner.isAnalysed(this.codeCells, now, this.analysis)) return;
    const cells = await analyse(planner.analysisRequest(this.codeCells, now));
    this.analysis = { sources: now, cells };
  }

  /** Whether Python's analysis of the page's code as it is now is in hand. */
  isAnalysed() {
    return planner.isAnalysed(this.codeCells, this.sources(), this.analysis);
  }

  /** The names entry c binds or may change: what the kernel watches while it runs. */
  watches(c) {
    return c.scratch ? new Set() : this.page().cells[c.code].watches;
  }

  /** Whether cell k needs the runnable cell b (one above it). */
  needs(k, b) {
    return planner.needs(this.pageFor(k), k, b);
  }

  /** For each code cell, the cells the runner runs before it on a fresh page, or null
   * while the reader's code is not analysed yet (the browser tests compare them). */
  plannedNeeds() {
    const now = this.page();
    return now.complete ? now.cells.map((c) => c.needs) : null;
  }

  readAfter(c) {
    return (this.session.alsoRead.get(c.cell) || []).flatMap((d) => (d.entry && d.entry.names && !d.entry.names.error
      ? d.entry.names.defines : []));
  }

  /**
   * What Run on cell k runs (planner.planFor), leaving out the codes in leaveOut;
   * kernelNames: what the kernel's namespace starts with.  analyseEdits must have run.
   */
  planFor(k, leaveOut = new Set(), kernelNames = []) {
    const readsAfter = k < this.codeCells.length ? this.readAfter(this.codeCells[k]) : [];
    return planner.planFor(this.pageFor(k), this.history, k, {
      leaveOut, blocked: this.blocked, kernelNames, readAfter: readsAfter,
    });
  }

  /** Before entry c runs: note the versions of what it depends on. */
  beforeRun(c) {
    if (!c.scratch) planner.beforeRun(this.page(), this.history, c.code);
  }

  /** After entry c ran, changing the names `changed`; ok: it did not raise. */
  afterRun(c, changed, ok) {
    this.blocked.delete(c.code);
    if (c.scratch) return;
    planner.afterRun(this.page(), this.history, c.code, changed, ok);
  }

  /** The codes of the cells whose shown output is stale (planner.staleCells). */
  staleCells() {
    return planner.staleCells(this.page(), this.history);
  }

  /** The outputs that stay the build's, out of date (planner.notRerun). */
  notRerun() {
    return planner.notRerun(this.page(), this.history);
  }

  /** Reset of entry c: its run and its hidden followers' are forgotten.  Returns their codes. */
  forget(c) {
    if (c.scratch) return [];
    const gone = planner.forget(this.page(), this.history, c.code);
    for (const code of gone) this.blocked.delete(code);
    return gone;
  }

  block(c, why) {
    this.blocked.set(c.code, why);
  }

  blockedWhy(code) {
    return this.blocked.get(code);
  }

  skip(code) {
    this.history.skipped.add(code);
  }

  unblock(code) {
    this.blocked.delete(code);
  }
}

/** The code an entry runs: its cell's (the reader's edit, if any), or the page's. */
export const sourceOf = (c) => (c.cell ? c.cell.code : c.source);
export const isEdited = (c) => sourceOf(c) !== c.source;

/**
 * After a Run on `cell`, something besides its code reads what the page's code of
 * the cells `definers` defines (an exercise's check reads the reader's classes of
 * the steps above it): the Run makes those names hold what the page's flow gives
 * them, as if the cell's code read them (Cells: linked to their entries by then).
 */
export function alsoReads(session, cell, definers) {
  session.alsoRead.set(cell, [...definers]);
}
