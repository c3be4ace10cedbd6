// The page's flow: every code cell of the page in order (the build's manifest,
// visible and hidden cells), what each run in this Python session changed,
// and from that:
//   - planFor(k): what Run on cell k runs first.  The cells above it that have
//     not run in this session (in page order), as always.  And when a run out
//     of the page's order (k's own earlier run, a later cell's run, a cell
//     run again after the cells below it had run) changed a name that k
//     depends on, the cells above k that define or change what it depends on,
//     again, in page order: k then starts from the state the page defines.
//   - staleCells(): the cells whose shown output (the build's, or an earlier
//     run's) was computed from values that are no longer the ones the page's
//     flow gives them: a name an edited run changed, or one whose value
//     differs from the one the output was computed from.
//
// A cell's dependency facts (which names it defines, reads, may change) come
// from cell_names.py: the build computed them for the page's code, the
// worker computes them for code the reader edited.  Which cells a cell needs
// (the providers of what it reads, transitively) comes, for the page's code,
// from the build: snippets.py, the analysis that also assembles each cell's
// script ("Copy as a script"), wrote it into the manifest (needs).  Once the
// reader has edited the page, the same rule runs here, on the worker's facts
// (neededCodes): a plan must be known at once, and the worker may not be
// running.  What a run actually changed comes from the kernel (it compares each
// name before and after).

import { kernelNames } from "./session.js";

const script = document.getElementById("micrograd-cells");
const manifest = script ? JSON.parse(script.textContent) : { cells: [] };

/**
 * Every code cell of the page, in order: {code (its index), source, hidden,
 * buildOnly, glue (the keys it glues), names (facts of the page's code),
 * needs (the codes of the cells it needs on the page as built), shows (what its
 * last expression showed at build time), script (a shown cell's script), cell
 * (the visible cell's Cell, cells.js, or null), after (for a hidden cell: the
 * visible cell above it, or null)}.
 */
export const codeCells = manifest.cells.map((entry, code) => ({ ...entry, code, cell: null }));

/** Where the page's scripts come from (snippets.py's page), for a script of the reader's code. */
export const scriptPage = manifest.page || null;

/** The format specs the page shows each glued value in: {key: [spec, ...]} (the build's). */
export const glueFormats = manifest.glueFormats || {};

const EMPTY = {
  defines: [], uses: [], changes: [], method_calls: [], calls: {}, functions: {}, imports: [],
};
const analysed = new Map(); // edited source -> facts (the worker's)
const alsoRead = new Map(); // Cell -> the Cells whose page code defines what follows its run reads
const blocked = new Map(); // code -> "crashed" | "stopped": runs again only when asked to
let history = freshHistory(); // what ran in this Python session
let sequence = 0;

function freshHistory() {
  return {
    lastRun: new Map(), // code -> sequence number of its last run
    lastChange: new Map(), // name -> {code, seq} of the last run that changed it
    versions: new Map(), // name -> Map code -> version its last run left (0: the page's)
    inputs: new Map(), // code -> Map name -> version its shown output was computed from
    diverged: new Map(), // code -> whether its last run started from a reader's value
    raised: new Set(), // codes whose last run raised
    skipped: new Set(), // codes the reader chose to skip in this session
  };
}

/** A new Python session: nothing has run in it. */
export function newSession() {
  history = freshHistory();
}

/**
 * Link the page's visible runnable cells (Cells, in page order) to their
 * entries.  Without a manifest that matches the page (a page built without
 * one), each visible cell becomes an entry of its own, with no facts: every
 * cell above then runs before it, as a notebook's "run all above" would.
 */
export function linkCells(cells) {
  const visible = codeCells.filter((c) => !c.hidden && !c.buildOnly);
  const matches = visible.length === cells.length
    && visible.every((c, i) => c.source === cells[i].source);
  if (!matches) {
    codeCells.splice(0, codeCells.length, ...cells.map((cell, code) => ({
      code, source: cell.source, hidden: false, buildOnly: false, glue: [], names: null,
      needs: null, cell: null,
    })));
    visible.splice(0, visible.length, ...codeCells);
  }
  let above = null;
  for (const c of codeCells) {
    if (c.hidden) c.after = above;
    else above = c;
  }
  visible.forEach((c, i) => {
    c.cell = cells[i];
    cells[i].entry = c;
  });
  return matches;
}

/** The code an entry runs: its cell's (the reader's edit, if any), or the page's. */
export const sourceOf = (c) => (c.cell ? c.cell.code : c.source);
export const isEdited = (c) => sourceOf(c) !== c.source;
const runnable = (c) => !c.buildOnly;

/** Analyse, with analyse(source) -> facts, every edited cell's code not analysed yet. */
export async function analyseEdits(analyse) {
  for (const c of codeCells) {
    const source = sourceOf(c);
    if (source !== c.source && !analysed.has(source)) analysed.set(source, await analyse(source));
  }
}

function facts(c) {
  const source = sourceOf(c);
  const found = source === c.source ? c.names : analysed.get(source);
  return found && !found.error ? found : EMPTY;
}

/** The page's functions (name -> globals a call may change) and modules. */
function pageFacts() {
  const functions = new Map();
  const modules = new Set();
  for (const c of codeCells) {
    const f = facts(c);
    for (const [name, changed] of Object.entries(f.functions)) functions.set(name, changed);
    for (const name of f.imports) modules.add(name);
  }
  return { functions, modules };
}

/** The names cell c binds or may change: the names the kernel watches while it runs. */
export function touches(c, page = pageFacts()) {
  const f = facts(c);
  const names = new Set([...f.defines, ...f.changes]);
  for (const name of f.method_calls) if (!page.modules.has(name)) names.add(name);
  for (const [callee, passed] of Object.entries(f.calls)) {
    if (!page.functions.has(callee)) continue;
    for (const name of passed) if (!page.modules.has(name)) names.add(name);
    for (const name of page.functions.get(callee)) names.add(name);
  }
  return names;
}

/** The cells above position k that bind or may change `name` (build-only ones too). */
function providers(name, k, page) {
  return codeCells.filter((c) => c.code < k && touches(c, page).has(name));
}

/** Whether the page's code is all as built (the manifest's `needs` hold). */
const asBuilt = () => codeCells.every((c) => !isEdited(c) && Array.isArray(c.needs));

/**
 * The codes of the runnable cells cell k needs, in page order: the providers of what it
 * reads, those of what they read, and so on (snippets.py's needed_cells, the one rule).
 */
function neededCodes(k, page) {
  if (asBuilt()) return codeCells[k].needs;
  const names = [...new Set(facts(codeCells[k]).uses)];
  const taken = new Set();
  for (let i = 0; i < names.length; i += 1) {
    for (const p of providers(names[i], k, page)) {
      if (taken.has(p.code) || !runnable(p)) continue;
      taken.add(p.code);
      for (const used of facts(p).uses) if (!names.includes(used)) names.push(used);
    }
  }
  return [...taken].sort((a, b) => a - b);
}
/** For each of the page's code cells, the codes of the cells it needs now. */
export const pageNeeds = () => codeCells.map((c) => neededCodes(c.code, pageFacts()));

/** The names cell k depends on: those it reads, and those the cells it needs read. */
function dependencies(k, page) {
  const names = new Set(facts(codeCells[k]).uses);
  for (const code of neededCodes(k, page)) {
    for (const used of facts(codeCells[code]).uses) names.add(used);
  }
  return names;
}

/** Whether cell k needs the runnable cell b (one above it). */
export function needs(k, b) {
  return neededCodes(k, pageFacts()).includes(b);
}

/**
 * A hidden cell that reads what only a build-only cell provides stays the
 * build's (unless the kernel starts with that name: glue, which every page's
 * build-only setup cell imports).
 */
function needsTheBuild(c, page) {
  const offered = new Set(kernelNames());
  return facts(c).uses.some((name) => {
    if (offered.has(name)) return false;
    const found = providers(name, c.code, page);
    return found.length > 0 && !runnable(found[found.length - 1]);
  });
}

/**
 * A hidden cell that reads a name the page's code above it defines, but the
 * reader's edits took away (no cell above defines or changes it any more),
 * would only raise a NameError: it stays the build's.
 */
function lostInput(c, page) {
  const definedByThePage = (name) => codeCells.some((p) => p.code < c.code && p.names
    && !p.names.error && p.names.defines.includes(name));
  return facts(c).uses.some(
    (name) => providers(name, c.code, page).length === 0 && definedByThePage(name),
  );
}

/**
 * Whether `name` holds, for the cell at position k, what the page's flow
 * gives it, once the cells in `plan` (codes) have run, in page order, after
 * the runs so far: either every cell above k that may change it is in the
 * plan (it is made again from the start), or the last run that changed it was
 * of a cell above k and every cell between that one and k that may change it
 * has run since, or will in the plan.
 */
function inFlow(name, k, page, plan) {
  const change = history.lastChange.get(name);
  if (change === undefined) return true;
  const above = providers(name, k, page).filter((p) => runnable(p) && !history.skipped.has(p.code));
  if (above.length > 0 && above.every((p) => plan.has(p.code))) return true;
  if (change.code >= k) return false;
  return above.every((p) => p.code <= change.code || plan.has(p.code)
    || (history.lastRun.get(p.code) ?? -1) > change.seq);
}

/**
 * After a Run on `cell`, something besides its code reads what the page's code of
 * the cells `definers` defines (an exercise's check reads the reader's classes of
 * the steps above it): the Run makes those names hold what the page's flow gives
 * them, as if the cell's code read them (Cells: linked to their entries by then).
 */
export function alsoReads(cell, definers) {
  alsoRead.set(cell, [...definers]);
}

function readAfter(c) {
  return (alsoRead.get(c.cell) || []).flatMap((d) => (d.entry && d.entry.names && !d.entry.names.error
    ? d.entry.names.defines : []));
}

/**
 * What Run on cell k runs (leaving out the codes in leaveOut, and those the
 * reader chose to skip): {steps: [codes, before k, page order], followers:
 * [hidden codes right after k], rerun: {cells, names, by} | null (the cells
 * run again, the names that made them, and the cell whose run changed the
 * first of those: Infinity for a run a Reset forgot), blockedBy: a code in
 * steps that crashed or was stopped and must not run again without asking}.
 * analyseEdits must have run.
 *
 * Every cell that runs (the unrun cells above k, and k) must find what it
 * reads in the page's flow; for a name that is not, every cell above it that
 * may change the name runs again, and is checked in turn.
 */
export function planFor(k, leaveOut = new Set()) {
  const page = pageFacts();
  const left = (c) => history.skipped.has(c.code) || leaveOut.has(c.code);
  const canRun = (c) => runnable(c) && !left(c)
    && !(c.hidden && (needsTheBuild(c, page) || lostInput(c, page)));
  const plan = new Set(
    codeCells.filter((c) => c.code < k && canRun(c) && !history.lastRun.has(c.code))
      .map((c) => c.code),
  );
  const unrun = new Set(plan);
  const changed = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const c of codeCells.filter((cell) => plan.has(cell.code) || cell.code === k)) {
      const read = c.code === k ? [...facts(c).uses, ...readAfter(c)] : facts(c).uses;
      for (const name of read) {
        if (inFlow(name, c.code, page, plan)) continue;
        if (!changed.includes(name)) changed.push(name);
        for (const p of providers(name, c.code, page)) {
          if (canRun(p) && !plan.has(p.code)) {
            plan.add(p.code);
            grew = true;
          }
        }
      }
    }
  }
  const again = [...plan].filter((code) => !unrun.has(code)).sort((a, b) => a - b);
  const rerun = again.length === 0 ? null
    : { cells: again, names: changed, by: history.lastChange.get(changed[0]).code };
  const steps = [...plan].sort((a, b) => a - b);
  const followers = [];
  for (const c of codeCells.slice(k + 1)) {
    if (!c.hidden) break;
    if (canRun(c)) followers.push(c.code);
  }
  return { steps, followers, rerun, blockedBy: steps.find((code) => blocked.has(code)) };
}

/** The version of `name` that cell k sees: that of the nearest run above k that changed it. */
function versionAt(name, k) {
  const byCell = history.versions.get(name);
  if (!byCell) return 0;
  let best = -1;
  let version = 0;
  for (const [code, v] of byCell) {
    if (code < k && code > best) {
      best = code;
      version = v;
    }
  }
  return version;
}

/** Before cell c runs: note the versions of what it depends on (its output's inputs). */
export function beforeRun(c) {
  const page = pageFacts();
  const inputs = new Map();
  for (const name of dependencies(c.code, page)) inputs.set(name, versionAt(name, c.code));
  history.inputs.set(c.code, inputs);
  const fromReader = [...facts(c).uses].some((name) => versionAt(name, c.code) !== 0);
  history.diverged.set(c.code, isEdited(c) || fromReader);
}

/** After cell c ran, changing the names `changed`; ok: it did not raise. */
export function afterRun(c, changed, ok) {
  sequence += 1;
  history.lastRun.set(c.code, sequence);
  if (ok) history.raised.delete(c.code);
  else history.raised.add(c.code);
  // A run that started from the page's values leaves the page's values (version 0).
  const version = history.diverged.get(c.code) ? sequence : 0;
  for (const name of touches(c)) history.versions.get(name)?.delete(c.code);
  for (const name of changed) {
    history.lastChange.set(name, { code: c.code, seq: sequence });
    if (!history.versions.has(name)) history.versions.set(name, new Map());
    history.versions.get(name).set(c.code, version);
  }
  blocked.delete(c.code);
}

/**
 * The codes of the cells whose shown output (the build's or a run's) is stale: computed
 * from values that are no longer the page's, or (a hidden cell) from a name the reader's
 * edits took away.
 */
export function staleCells() {
  const page = pageFacts();
  return codeCells
    .filter((c) => runnable(c) && !c.buildOnly)
    .filter((c) => {
      // A cell that reads a name the reader's edits took away: a hidden one cannot run,
      // and what it showed (the build's numbers, or an earlier run's) no longer follows
      // from the page; nor does a visible one's build output, until it runs.
      if (lostInput(c, page) && (c.hidden || !history.lastRun.has(c.code))) return true;
      // A hidden cell that raised sent none of its numbers: the text keeps the build's.
      if (c.hidden && history.raised.has(c.code)) return true;
      const inputs = history.inputs.get(c.code) || new Map();
      for (const name of dependencies(c.code, page)) {
        if (versionAt(name, c.code) !== (inputs.get(name) ?? 0)) return true;
      }
      return false;
    })
    .map((c) => c.code);
}

/**
 * Reset of cell c: its run and its hidden followers' are forgotten; what depends
 * on what they changed is run again before it is used.  Returns the codes forgotten.
 */
export function forget(c) {
  const gone = [];
  for (const cell of codeCells.slice(c.code)) {
    if (cell !== c && !cell.hidden) break;
    gone.push(cell.code);
    for (const [name, change] of history.lastChange) {
      if (change.code === cell.code) history.lastChange.set(name, { code: Infinity, seq: Infinity });
    }
    for (const byCell of history.versions.values()) byCell.delete(cell.code);
    history.lastRun.delete(cell.code);
    history.raised.delete(cell.code);
    history.inputs.delete(cell.code);
    blocked.delete(cell.code);
  }
  return gone;
}

export const block = (c, why) => blocked.set(c.code, why);
export const blockedWhy = (code) => blocked.get(code);
export const skip = (code) => history.skipped.add(code);
export const unblock = (code) => blocked.delete(code);
