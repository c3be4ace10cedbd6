// The planner (pure): what Run on a cell runs first, and which shown outputs a run
// has made stale.  The page's data, the run history and the kernel's names are
// passed in; it imports nothing, keeps no state of its own and reads no page.
// The page's flow (queue.js's Flow) adapts it to the runner; tests/js/site/planner.test.mjs
// tests it under Node.
//
//   - planFor(page, history, k): what Run on cell k runs first.  The cells above
//     it that have not run in this Python session (in page order), as always.
//     And when a run out of the page's order (k's own earlier run, a later
//     cell's run, a cell run again after the cells below it had run) changed a
//     name that k depends on, the cells above k that define or change what it
//     depends on, again, in page order: k then starts from the state the page
//     defines.
//   - staleCells(page, history): the cells whose shown output (the build's, or
//     an earlier run's) was computed from values that are no longer the ones
//     the page's flow gives them: a name an edited run changed, or one whose
//     value differs from the one the output was computed from.
//   - notRerun(page, history): the outputs that stay the build's (build-only
//     cells, and the hidden cells computed from them) while a shown cell they
//     depend on is one the reader changed.
//   - staleKeys(entry, notRerun): which of a stale cell's glued keys are out of date.
//   - afterThePage(page): the page with the scratch cell after its last, for
//     planFor: what its Run runs first is what the page's last cell's does.
//
// What each cell defines, reads and may change, and which cells it needs, is
// Python's (snippets.py's runner_analysis): the build wrote it into the page's
// manifest for the page's code, the worker answers it for the reader's code.
// This module only reads it (pageOf).  What a run actually changed comes from
// the kernel (it compares each name before and after): afterRun.

/** The facts of code that has none (it does not parse, or is not analysed). */
export const EMPTY = Object.freeze({
  defines: Object.freeze([]),
  uses: Object.freeze([]),
  changes: Object.freeze([]),
  method_calls: Object.freeze([]),
  calls: Object.freeze({}),
  functions: Object.freeze({}),
  imports: Object.freeze([]),
  imported: Object.freeze({}),
});

const usable = (names) => (names && !names.error ? names : EMPTY);

/**
 * What Python says of the page's code as it is now, as the planner reads it.
 *
 * entries: the manifest's cells, in page order ({code, source, hidden, apart,
 * buildOnly, names, watches, needs}); sources: each cell's code now (the reader's edit, or
 * the page's); analysis: the worker's latest answer ({sources, cells: [{names,
 * watches, needs}]}), or null.  A cell whose code is the page's and whose page is
 * as built takes the manifest's; otherwise the analysis's, where it was made for
 * this very code; otherwise the manifest's where its code is the page's; otherwise
 * none (an edit Python has not analysed yet: complete once it has, see
 * isAnalysed).
 */
export function pageOf(entries, sources, analysis = null) {
  const asBuilt = entries.every((c, i) => sources[i] === c.source);
  const current = analysis && !asBuilt && sameCode(analysis.sources, sources) ? analysis : null;
  const cells = entries.map((c, i) => {
    let found = { names: null, watches: [], needs: [] };
    if (current) found = current.cells[i];
    else if (analysis && !asBuilt && analysis.sources[i] === sources[i]) found = analysis.cells[i];
    else if (sources[i] === c.source) found = c;
    return {
      code: c.code,
      hidden: Boolean(c.hidden),
      buildOnly: Boolean(c.buildOnly),
      apart: Boolean(c.apart),
      edited: sources[i] !== c.source,
      glue: c.glue || [],
      pageNames: c.names || null,
      facts: usable(found.names),
      watches: new Set(found.watches || []),
      needs: found.needs || [],
    };
  });
  return { cells, complete: asBuilt || current !== null };
}

const sameCode = (a, b) => a.length === b.length && a.every((s, i) => s === b[i]);

/** Whether Python's analysis of this very code is in hand (a plan needs it). */
export function isAnalysed(entries, sources, analysis) {
  return pageOf(entries, sources, analysis).complete;
}

/** What the worker analyses: each cell's code now, and whether it runs in the browser. */
export function analysisRequest(entries, sources) {
  return entries.map((c, i) => ({ source: sources[i], buildOnly: Boolean(c.buildOnly) }));
}

/** A run history with nothing in it: a new Python session. */
export function newHistory() {
  return {
    sequence: 0,
    lastRun: new Map(), // code -> sequence number of its last run
    lastChange: new Map(), // name -> {code, seq} of the last run that changed it
    versions: new Map(), // name -> Map code -> version its last run left (0: the page's)
    inputs: new Map(), // code -> Map name -> version its shown output was computed from
    diverged: new Map(), // code -> whether its last run started from a reader's value
    raised: new Set(), // codes whose last run raised
    skipped: new Set(), // codes the reader chose to skip in this session
  };
}

const runnable = (c) => !c.buildOnly;

/** The cells above position k that bind or may change `name` (build-only ones too). */
function providers(page, name, k) {
  return page.cells.filter((c) => c.code < k && c.watches.has(name));
}

/** The names cell k depends on: those it reads, and those the cells it needs read. */
function dependencies(page, k) {
  const names = new Set(page.cells[k].facts.uses);
  for (const code of page.cells[k].needs) {
    for (const used of page.cells[code].facts.uses) names.add(used);
  }
  return names;
}

/** Whether cell k needs the runnable cell b (one above it): Python's needs. */
export function needs(page, k, b) {
  return page.cells[k].needs.includes(b);
}

/**
 * A hidden cell that reads what only a build-only cell provides stays the
 * build's (unless the kernel starts with that name: glue, which every page's
 * build-only setup cell imports).
 */
function needsTheBuild(page, c, kernelNames) {
  const offered = new Set(kernelNames);
  return c.facts.uses.some((name) => {
    if (offered.has(name)) return false;
    const found = providers(page, name, c.code);
    return found.length > 0 && !runnable(found[found.length - 1]);
  });
}

/**
 * A hidden cell that reads a name the page's code above it defines, but the
 * reader's edits took away (no cell above defines or changes it any more),
 * would only raise a NameError: it stays the build's.
 */
function lostInput(page, c) {
  const definedByThePage = (name) => page.cells.some((p) => p.code < c.code
    && usable(p.pageNames).defines.includes(name));
  return c.facts.uses.some(
    (name) => providers(page, name, c.code).length === 0 && definedByThePage(name),
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
function inFlow(page, history, name, k, plan) {
  const change = history.lastChange.get(name);
  if (change === undefined) return true;
  const above = providers(page, name, k)
    .filter((p) => runnable(p) && !history.skipped.has(p.code));
  if (above.length > 0 && above.every((p) => plan.has(p.code))) return true;
  if (change.code >= k) return false;
  return above.every((p) => p.code <= change.code || plan.has(p.code)
    || (history.lastRun.get(p.code) ?? -1) > change.seq);
}

/**
 * What Run on cell k runs: {steps: [codes, before k, page order], followers:
 * [hidden codes right after k], rerun: {cells, names, by} | null (the cells run
 * again, the names that made them, and the cell whose run changed the first of
 * those: Infinity for a run a Reset forgot), blockedBy: a code in steps that
 * crashed or was stopped and must not run again without asking}.
 *
 * options: leaveOut (codes left out of this run), blocked (codes that run again
 * only when asked to: a Map or Set), kernelNames (what the kernel's namespace
 * starts with), readAfter (names something besides k's code reads after its run:
 * an exercise's check reads the reader's classes of the steps above it).
 *
 * Every cell that runs (the unrun cells above k, and k) must find what it
 * reads in the page's flow; for a name that is not, every cell above it that
 * may change the name runs again, and is checked in turn.
 */
export function planFor(page, history, k, options = {}) {
  const {
    leaveOut = new Set(), blocked = new Map(), kernelNames = [], readAfter = [],
  } = options;
  const left = (c) => history.skipped.has(c.code) || leaveOut.has(c.code);
  const canRun = (c) => runnable(c) && !left(c)
    && !(c.hidden && (needsTheBuild(page, c, kernelNames) || lostInput(page, c)));
  const plan = new Set(
    page.cells.filter((c) => c.code < k && canRun(c) && !history.lastRun.has(c.code))
      .map((c) => c.code),
  );
  const unrun = new Set(plan);
  const changed = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const c of page.cells.filter((cell) => plan.has(cell.code) || cell.code === k)) {
      const read = c.code === k ? [...c.facts.uses, ...readAfter] : c.facts.uses;
      for (const name of read) {
        if (inFlow(page, history, name, c.code, plan)) continue;
        if (!changed.includes(name)) changed.push(name);
        for (const p of providers(page, name, c.code)) {
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
  for (const c of page.cells.slice(k + 1)) {
    if (!c.hidden) break;
    if (canRun(c)) followers.push(c.code);
  }
  return { steps, followers, rerun, blockedBy: steps.find((code) => blocked.has(code)) };
}

/**
 * The page with one more cell after its last: the scratch cell ("Try your own code"),
 * at code page.cells.length.  It reads nothing the planner knows of, so planFor on it
 * runs what a Run of the page's last cell runs, the last cell and the hidden cells
 * after it: the page's names, as its cells make them.  It needs every runnable cell
 * whose names it sees: not those the build hides or folds away (apart: the kernel
 * runs them in a namespace of their own), so none of those holds it back.  What the
 * reader's code there changes is not followed (it has no watches).
 */
export function afterThePage(page) {
  const scratch = {
    code: page.cells.length,
    hidden: false,
    buildOnly: false,
    edited: false,
    glue: [],
    pageNames: null,
    facts: EMPTY,
    watches: new Set(),
    needs: page.cells.filter((c) => runnable(c) && !c.apart).map((c) => c.code),
  };
  return { ...page, cells: [...page.cells, scratch] };
}

/** The version of `name` that cell k sees: that of the nearest run above k that changed it. */
function versionAt(history, name, k) {
  return changedAt(history, name, k).version;
}

/** The last run of a cell above k that changed `name`: {code (-1: none), version (0: none)}. */
function changedAt(history, name, k) {
  const byCell = history.versions.get(name);
  let best = -1;
  let version = 0;
  for (const [code, v] of byCell || []) {
    if (code < k && code > best) {
      best = code;
      version = v;
    }
  }
  return { code: best, version };
}

/**
 * Whether `name`, which the run of a cell above k changed, reaches k from another
 * cell: one between that cell and k binds it anew (it defines it, from names other
 * than itself) and is not stale (`stale`: the codes found stale above k), so that
 * what k was computed from is that cell's value, which the change did not touch.
 * (The neuron's tanh-from-exp cell binds its own x1, w1, n, ...: a change to the first
 * neuron's does not reach the numbers computed from them.)
 */
function rebound(page, history, name, k, stale) {
  const { code } = changedAt(history, name, k);
  return page.cells.some((p) => p.code > code && p.code < k && runnable(p) && !stale.has(p.code)
    && p.facts.defines.includes(name) && !p.facts.uses.includes(name));
}

/** Before cell k runs: note the versions of what it depends on (its output's inputs). */
export function beforeRun(page, history, k) {
  const c = page.cells[k];
  const inputs = new Map();
  for (const name of dependencies(page, k)) inputs.set(name, versionAt(history, name, k));
  history.inputs.set(k, inputs);
  const fromReader = c.facts.uses.some((name) => versionAt(history, name, k) !== 0);
  history.diverged.set(k, c.edited || fromReader);
}

/** After cell k ran, changing the names `changed`; ok: it did not raise. */
export function afterRun(page, history, k, changed, ok) {
  history.sequence += 1;
  const sequence = history.sequence;
  history.lastRun.set(k, sequence);
  if (ok) history.raised.delete(k);
  else history.raised.add(k);
  // A run that started from the page's values leaves the page's values (version 0).
  const version = history.diverged.get(k) ? sequence : 0;
  for (const name of page.cells[k].watches) history.versions.get(name)?.delete(k);
  for (const name of changed) {
    history.lastChange.set(name, { code: k, seq: sequence });
    if (!history.versions.has(name)) history.versions.set(name, new Map());
    history.versions.get(name).set(k, importedAsOnPage(page.cells[k], name) ? 0 : version);
  }
}

/**
 * Whether cell c binds `name` by the very import the page's version of it does, and
 * nothing else: an import gives the same object whatever the run started from, so the
 * name holds the page's value even after an edited run (unless the cell calls a method
 * of it or changes it: `random.seed(...)` changes what the module gives).
 */
function importedAsOnPage(c, name) {
  const now = c.facts.imported?.[name];
  return now !== undefined && now === c.pageNames?.imported?.[name]
    && !c.facts.method_calls.includes(name) && !c.facts.changes.includes(name);
}

/**
 * The names `changed` changed in the page's Python without a run (a nudge of cell k's
 * graph): what they hold now is a new version, as if cell k had run from the reader's
 * values; k's own output, and the cells that did not read them, are left as they are.
 */
export function changedOutside(history, k, changed) {
  history.sequence += 1;
  for (const name of changed) {
    if (!history.versions.has(name)) history.versions.set(name, new Map());
    history.versions.get(name).set(k, history.sequence);
  }
}

/**
 * The codes of the cells whose shown output (the build's or a run's) is stale: computed
 * from values that are no longer the page's, or (a hidden cell) from a name the reader's
 * edits took away.
 */
export function staleCells(page, history) {
  const stale = new Set(); // found so far, in page order: a cell may rebind what it reads
  const isStale = (c) => {
    // A cell that reads a name the reader's edits took away: a hidden one cannot run,
    // and what it showed (the build's numbers, or an earlier run's) no longer follows
    // from the page; nor does a visible one's build output, until it runs.
    if (lostInput(page, c) && (c.hidden || !history.lastRun.has(c.code))) return true;
    // A hidden cell that raised sent none of its numbers: the text keeps the build's.
    if (c.hidden && history.raised.has(c.code)) return true;
    const inputs = history.inputs.get(c.code) || new Map();
    // Where each name is read: by c, or by a cell c needs (its value reached c through it).
    const readers = [c, ...c.needs.map((d) => page.cells[d])];
    for (const name of dependencies(page, c.code)) {
      if (versionAt(history, name, c.code) === (inputs.get(name) ?? 0)) continue;
      const reached = readers.filter((r) => r.facts.uses.includes(name));
      if (!reached.every((r) => rebound(page, history, name, r.code, stale))) return true;
    }
    return false;
  };
  for (const c of page.cells) {
    if (runnable(c) && isStale(c)) stale.add(c.code);
  }
  return [...stale];
}

/**
 * The outputs that stay the build's, out of date: each build-only cell (the browser
 * cannot run it), and each hidden cell that reads what an out-of-date build-only cell
 * gave (its numbers are the build's), whose inputs come from a shown cell the reader
 * changed: edited, or run from the reader's values.  A build-only cell depends on the
 * cells it needs (Python's needs), and on those of the build-only cells that give what
 * it reads.  Returns [{code, because: [{code, edited}]}] in page order: because, the
 * shown cells it depends on that the reader changed, in page order.
 */
export function notRerun(page, history) {
  const changed = (d) => !page.cells[d].hidden && (page.cells[d].edited
    || (history.lastRun.has(d) && Boolean(history.diverged.get(d))));
  const found = new Map(); // code -> Set of the changed codes it depends on
  for (const c of page.cells) {
    if (!c.buildOnly && !c.hidden) continue;
    const because = new Set(c.buildOnly ? c.needs.filter(changed) : []);
    for (const name of c.facts.uses) {
      const given = providers(page, name, c.code);
      const last = given[given.length - 1];
      if (last && last.buildOnly) for (const d of found.get(last.code) || []) because.add(d);
    }
    if (because.size > 0) found.set(c.code, because);
  }
  return [...found].map(([code, because]) => ({
    code,
    because: [...because].sort((a, b) => a - b).map((d) => ({ code: d, edited: page.cells[d].edited })),
  }));
}

/**
 * The keys a stale cell glued that are out of date: all of them, but for the claims
 * that hold whatever values the page's inputs take (the manifest's anyInput:
 * claim(..., any_input=True)), which no change of values makes out of date.  What
 * stays the build's (notRerun) after the reader changed code it depends on: all.
 */
export function staleKeys(entry, notRerun = false) {
  const steady = new Set(notRerun ? [] : entry.anyInput || []);
  return entry.glue.filter((key) => !steady.has(key));
}

/**
 * Reset of cell k: its run and its hidden followers' are forgotten; what depends
 * on what they changed is run again before it is used.  Returns the codes forgotten.
 */
export function forget(page, history, k) {
  const gone = [];
  for (const cell of page.cells.slice(k)) {
    if (cell.code !== k && !cell.hidden) break;
    gone.push(cell.code);
    for (const [name, change] of history.lastChange) {
      if (change.code === cell.code) history.lastChange.set(name, { code: Infinity, seq: Infinity });
    }
    for (const byCell of history.versions.values()) byCell.delete(cell.code);
    history.lastRun.delete(cell.code);
    history.raised.delete(cell.code);
    history.inputs.delete(cell.code);
  }
  return gone;
}
