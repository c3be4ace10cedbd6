// Small literal pages for the planner's tests: a manifest's cells as the build
// writes them (docs/_ext/cell_manifest.py), with the facts, watches and needs
// that Python (snippets.py's runner_analysis) gives such code.

import * as planner from "../../docs/_static/runner/planner.js";

/** A cell's dependency facts (cell_names.py's shape). */
export function names({
  defines = [], uses = [], changes = [], methodCalls = [], imported = {},
} = {}) {
  return {
    defines, uses, changes, method_calls: methodCalls, calls: {}, functions: {}, imports: [], imported,
  };
}

/**
 * A manifest entry: its source, its facts, what it may change (by default what it
 * defines and changes) and the cells it needs; apart (the build hides or folds away
 * its code) is hidden's unless given (a folded solution: shown, and apart).
 */
export function cell(source, {
  defines = [], uses = [], changes = [], watches = null, needs = [], hidden = false,
  apart = hidden, buildOnly = false, glue = [], anyInput = [], methodCalls = [], imported = {},
} = {}) {
  return {
    source,
    hidden,
    apart,
    buildOnly,
    glue,
    anyInput,
    names: names({
      defines, uses, changes, methodCalls, imported,
    }),
    watches: watches || [...defines, ...changes],
    needs,
  };
}

/** The manifest's cells, numbered as the planner numbers them. */
export const entries = (...cells) => cells.map((c, code) => ({ ...c, code }));

/** The page as built (nobody edited it). */
export const asBuilt = (list) => planner.pageOf(list, list.map((c) => c.source));

/** Cell k ran (beforeRun, then afterRun), changing `changed`; ok: it did not raise. */
export function ran(page, history, k, changed, ok = true) {
  planner.beforeRun(page, history, k);
  planner.afterRun(page, history, k, changed, ok);
}

/** Run on cell k as the runner does it: the plan's steps, then k, then its followers. */
export function runPlan(page, history, k, changes, options = {}) {
  const plan = planner.planFor(page, history, k, options);
  for (const code of [...plan.steps, k, ...plan.followers]) ran(page, history, code, changes[code] || []);
  return plan;
}
