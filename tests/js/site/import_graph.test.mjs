// The runner's module graph (docs/_static/runner/*.js, and the features' add-ons,
// docs/_features/<name>/<name>.js), read from the sources: every static import,
// re-export and dynamic import() of a module of the runner (a relative "./name.js"
// or "../../_features/nudge/nudge.js" literal, wherever the code names one:
// runner.js lists the modules its first Run loads).  A module is named by its
// path from the runner's folder, as runner.js imports it.  No cycle, lazy imports
// included; no module of the runner imports the page's entry point, where the
// test API lives.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";

import {
  FEATURES, RUNNER, code, runnerModules,
} from "../runner_modules.mjs";

const ENTRY = "runner.js"; // the page's entry point: the test API is its own

/** The runner's modules each module imports, statically or not. */
export function importGraph(folder = RUNNER, features = FEATURES) {
  const modules = runnerModules(folder, features);
  const graph = new Map();
  for (const name of modules) {
    const file = join(folder, name);
    const text = code(readFileSync(file, "utf8"));
    const named = [...text.matchAll(/["']((?:\.\.?\/)[\w./-]+\.js)["']/g)]
      .map((m) => relative(folder, resolve(dirname(file), m[1])));
    graph.set(name, [...new Set(named)].filter((target) => modules.includes(target)).sort());
  }
  return graph;
}

/** A cycle of the graph, as the list of its modules, or null when there is none. */
export function findCycle(graph) {
  const state = new Map(); // module -> "open" while on the path, "done" after
  const path = [];
  const visit = (name) => {
    state.set(name, "open");
    path.push(name);
    for (const next of graph.get(name) || []) {
      if (state.get(next) === "open") return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(name, "done");
    return null;
  };
  for (const name of graph.keys()) {
    if (!state.has(name)) {
      const found = visit(name);
      if (found) return found;
    }
  }
  return null;
}

test("the reader finds import edges of every kind", () => {
  const graph = importGraph();
  assert.ok(graph.get("queue.js").includes("session.js")); // import {...} from
  assert.ok(graph.get("runner.js").includes("queue.js")); // a module the first Run loads
  const registry = "../../_features/registry.js"; // the features' one list
  assert.ok(graph.get("runner.js").includes(registry));
  assert.ok(graph.get(registry).includes("../../_features/glue/feature.js"));
  assert.ok(graph.get("../../_features/glue/feature.js").includes("../../_features/glue/glue.js")); // import()
  const nudge = "../../_features/nudge/nudge.js"; // a feature's module, both ways
  assert.ok(graph.get("../../_features/nudge/feature.js").includes(nudge));
  assert.ok(graph.get(nudge).includes("cells.js") && graph.get(nudge).includes("python.js"));
});

test("the planner imports no module, and the run queue is what plans with it", () => {
  const graph = importGraph();
  assert.deepEqual(graph.get("planner.js"), []);
  const users = [...graph].filter(([, imports]) => imports.includes("planner.js")).map(([name]) => name);
  assert.deepEqual(users, ["queue.js"]);
});

test("findCycle finds a lazy cycle and none in a tree", () => {
  assert.deepEqual(findCycle(new Map([["a.js", ["b.js"]], ["b.js", ["a.js"]]])), ["a.js", "b.js", "a.js"]);
  assert.equal(findCycle(new Map([["a.js", ["b.js", "c.js"]], ["b.js", ["c.js"]], ["c.js", []]])), null);
});

test("the runner's modules import one another without a cycle", () => {
  const cycle = findCycle(importGraph());
  assert.equal(cycle, null, `an import cycle: ${cycle && cycle.join(" -> ")}`);
});

test("no production module imports the entry point, and so the test API", () => {
  const graph = importGraph();
  assert.ok(graph.has(ENTRY));
  const importers = [...graph].filter(([, targets]) => targets.includes(ENTRY)).map(([name]) => name);
  assert.deepEqual(importers, []);
});
