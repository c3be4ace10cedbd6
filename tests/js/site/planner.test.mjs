// The planner (docs/_static/runner/planner.js) on small literal pages: what Run
// on a cell runs first, what a run makes stale, and what a Reset forgets.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import * as planner from "../../../docs/_static/runner/planner.js";
import { asBuilt, cell, entries, names, ran, runPlan } from "../page.mjs";

// x = 1 | y = x + 1 | (hidden) glue("y", y) | x = 10 | print(y)
const chain = () => entries(
  cell("x = 1", { defines: ["x"] }),
  cell("y = x + 1", { defines: ["y"], uses: ["x"], needs: [0] }),
  cell('glue("y", y)', { uses: ["glue", "y"], hidden: true, glue: ["y"], needs: [1, 0] }),
  cell("x = 10", { defines: ["x"] }),
  cell("print(y)", { uses: ["print", "y"], needs: [0, 1] }),
);

describe("a fresh page", () => {
  test("Run on a cell runs the cells above it first, in page order", () => {
    const page = asBuilt(chain());
    const plan = planner.planFor(page, planner.newHistory(), 4);
    assert.deepEqual(plan.steps, [0, 1, 2, 3]);
    assert.deepEqual(plan.followers, []);
    assert.equal(plan.rerun, null);
    assert.equal(plan.blockedBy, undefined);
  });

  test("the hidden cells right after a cell follow its run", () => {
    const page = asBuilt(chain());
    const plan = planner.planFor(page, planner.newHistory(), 1);
    assert.deepEqual(plan.steps, [0]);
    assert.deepEqual(plan.followers, [2]);
  });

  test("a cell that ran does not run again before the next one", () => {
    const page = asBuilt(chain());
    const history = planner.newHistory();
    runPlan(page, history, 1, { 0: ["x"], 1: ["y"] });
    assert.deepEqual(planner.planFor(page, history, 4).steps, [3]);
  });

  test("no build-only cell runs, and a hidden cell that reads only what one gives stays the build's", () => {
    const page = asBuilt(entries(
      cell("import torch", { defines: ["torch"], buildOnly: true }),
      cell("t = torch.ones(1)", { defines: ["t"], uses: ["torch"], buildOnly: true }),
      cell("a = 1", { defines: ["a"] }),
      cell('glue("t", t)', { uses: ["glue", "t"], hidden: true, needs: [] }),
      cell('glue("a", a)', { uses: ["glue", "a"], hidden: true, needs: [2] }),
    ));
    const plan = planner.planFor(page, planner.newHistory(), 2, { kernelNames: ["glue"] });
    assert.deepEqual(plan.steps, [], "cells 0 and 1 are build-only");
    assert.deepEqual(plan.followers, [4], "cell 3 reads t, which only the build has");
  });

  test("a name the kernel starts with is not the build's", () => {
    const page = asBuilt(entries(
      cell("from myst_nb import glue", { defines: ["glue"], buildOnly: true, hidden: true }),
      cell("a = 1", { defines: ["a"] }),
      cell('glue("a", a)', { uses: ["glue", "a"], hidden: true, needs: [1] }),
    ));
    assert.deepEqual(planner.planFor(page, planner.newHistory(), 1).followers, []);
    const plan = planner.planFor(page, planner.newHistory(), 1, { kernelNames: ["glue"] });
    assert.deepEqual(plan.followers, [2]);
  });
});

describe("a run out of the page's order", () => {
  test("a later cell changed what a cell reads: the cells above that define it run again", () => {
    const page = asBuilt(chain());
    const history = planner.newHistory();
    runPlan(page, history, 4, { 0: ["x"], 1: ["y"], 3: ["x"] });
    const plan = planner.planFor(page, history, 1);
    assert.deepEqual(plan.steps, [0]);
    assert.deepEqual(plan.rerun, { cells: [0], names: ["x"], by: 3 });
  });

  test("a cell run again after the cells below it ran: the cells below it run again first", () => {
    const page = asBuilt(entries(
      cell("log = []", { defines: ["log"] }),
      cell("log.append(1)", { uses: ["log"], watches: ["log"], needs: [0] }),
      cell("print(log)", { uses: ["print", "log"], needs: [0, 1] }),
    ));
    const history = planner.newHistory();
    runPlan(page, history, 2, { 0: ["log"], 1: ["log"] });
    assert.deepEqual(planner.planFor(page, history, 2).steps, [], "in the page's order");
    ran(page, history, 0, ["log"]); // the reader runs the first cell again: the log is empty
    const plan = planner.planFor(page, history, 2);
    assert.deepEqual(plan.steps, [0, 1]);
    assert.deepEqual(plan.rerun, { cells: [0, 1], names: ["log"], by: 0 });
  });

  test("a cell whose own earlier run changed what it reads starts from the page's state", () => {
    const page = asBuilt(entries(
      cell("n = 0", { defines: ["n"] }),
      cell("n += 1", { uses: ["n"], changes: ["n"], needs: [0] }),
    ));
    const history = planner.newHistory();
    runPlan(page, history, 1, { 0: ["n"], 1: ["n"] });
    const plan = planner.planFor(page, history, 1);
    assert.deepEqual(plan.steps, [0]);
    assert.deepEqual(plan.rerun.by, 1);
  });
});

describe("skipped, raised and crashed cells", () => {
  test("a cell the reader skipped is left out, and does not run again", () => {
    const page = asBuilt(chain());
    const history = planner.newHistory();
    history.skipped.add(0);
    assert.deepEqual(planner.planFor(page, history, 4).steps, [1, 2, 3]);
  });

  test("leaveOut leaves a cell out of this run only", () => {
    const page = asBuilt(chain());
    const history = planner.newHistory();
    assert.deepEqual(planner.planFor(page, history, 4, { leaveOut: new Set([3]) }).steps, [0, 1, 2]);
    assert.deepEqual(planner.planFor(page, history, 4).steps, [0, 1, 2, 3]);
  });

  test("a crashed or stopped cell in the plan blocks it, and needs() says whether it matters", () => {
    const page = asBuilt(chain());
    const blocked = new Map([[3, "crashed"]]);
    const plan = planner.planFor(page, planner.newHistory(), 4, { blocked });
    assert.equal(plan.blockedBy, 3);
    assert.equal(planner.needs(page, 4, 3), false, "print(y) does not need x = 10");
    assert.equal(planner.needs(page, 4, 1), true);
  });

  test("a cell that raised has run: it is not run again first, but a hidden one's numbers are stale", () => {
    const page = asBuilt(chain());
    const history = planner.newHistory();
    runPlan(page, history, 0, { 0: ["x"] });
    ran(page, history, 1, [], false);
    ran(page, history, 2, [], false); // the hidden glue cell raised
    assert.deepEqual(planner.planFor(page, history, 4).steps, [3]);
    assert.deepEqual(planner.staleCells(page, history), [2]);
    ran(page, history, 2, []); // it ran again, and did not raise
    assert.deepEqual(planner.staleCells(page, history), []);
  });
});

describe("stale outputs", () => {
  test("nothing is stale while every run starts from the page's values", () => {
    const page = asBuilt(chain());
    const history = planner.newHistory();
    runPlan(page, history, 4, { 0: ["x"], 1: ["y"], 3: ["x"] });
    assert.deepEqual(planner.staleCells(page, history), []);
  });

  test("an edited run makes stale what depends on what it changed, until that runs again", () => {
    const built = chain();
    const history = planner.newHistory();
    runPlan(asBuilt(built), history, 1, { 0: ["x"], 1: ["y"] });
    const sources = built.map((c) => c.source);
    sources[0] = "x = 2";
    const analysis = {
      sources,
      cells: built.map((c, i) => (i === 0 ? { names: names({ defines: ["x"] }), watches: ["x"], needs: [] }
        : { names: c.names, watches: c.watches, needs: c.needs })),
    };
    const page = planner.pageOf(built, sources, analysis);
    ran(page, history, 0, ["x"]);
    assert.deepEqual(planner.staleCells(page, history), [1, 2, 4]);
    ran(page, history, 1, ["y"]);
    assert.deepEqual(planner.staleCells(page, history), [2, 4], "y is the reader's now");
    ran(page, history, 2, []);
    assert.deepEqual(planner.staleCells(page, history), [4]);
  });

  test("a hidden cell whose input the reader's edits took away is stale and does not run", () => {
    const built = entries(
      cell("a = 1", { defines: ["a"] }),
      cell('glue("a", a)', { uses: ["glue", "a"], hidden: true, needs: [0] }),
    );
    const sources = ["b = 1", built[1].source];
    const analysis = {
      sources,
      cells: [
        { names: names({ defines: ["b"] }), watches: ["b"], needs: [] },
        { names: built[1].names, watches: [], needs: [] },
      ],
    };
    const page = planner.pageOf(built, sources, analysis);
    const history = planner.newHistory();
    assert.deepEqual(planner.planFor(page, history, 0, { kernelNames: ["glue"] }).followers, []);
    assert.deepEqual(planner.staleCells(page, history), [1]);
  });
});

// x = 0.8 | (build-only) t = torch(x) | (hidden) glue(x, t) | (build-only) u = t * 2
// | (hidden) glue(u) | (hidden) glue("a", a), from the setup's build-only glue
const withTorch = () => entries(
  cell("from myst_nb import glue", { defines: ["glue"], buildOnly: true, hidden: true }),
  cell("x = 0.8", { defines: ["x"] }),
  cell("t = torch.tensor(x)", { defines: ["t"], uses: ["torch", "x"], buildOnly: true, needs: [1] }),
  cell('glue("g", x); glue("e", t)', {
    uses: ["glue", "x", "t"], hidden: true, glue: ["g", "e"], needs: [1],
  }),
  cell("u = t * 2", { defines: ["u"], uses: ["t"], buildOnly: true }),
  cell('glue("u", u)', { uses: ["glue", "u"], hidden: true, glue: ["u"] }),
  cell("a = 1", { defines: ["a"] }),
  cell('glue("a", a)', { uses: ["glue", "a"], hidden: true, glue: ["a"], needs: [6] }),
);

const edited = (built, k, source) => {
  const sources = built.map((c) => c.source);
  sources[k] = source;
  return planner.pageOf(built, sources, {
    sources, cells: built.map((c) => ({ names: c.names, watches: c.watches, needs: c.needs })),
  });
};

describe("outputs that stay the build's", () => {
  test("nothing is out of date on the page as built, however it ran", () => {
    const page = asBuilt(withTorch());
    const history = planner.newHistory();
    runPlan(page, history, 6, { 1: ["x"], 6: ["a"] }, { kernelNames: ["glue"] });
    assert.deepEqual(planner.notRerun(page, history), []);
  });

  test("an edit of a cell a build-only cell needs makes it, and what is computed from it, the build's out of date", () => {
    const page = edited(withTorch(), 1, "x = 2.0");
    const because = [{ code: 1, edited: true }];
    assert.deepEqual(planner.notRerun(page, planner.newHistory()), [
      { code: 2, because }, { code: 3, because }, { code: 4, because }, { code: 5, because },
    ], "before any run: the build-only cells cannot run, whatever the reader does");
  });

  test("a cell unrelated to the edit, and a name the build-only setup gives, keep the build's current", () => {
    const page = edited(withTorch(), 6, "a = 2");
    assert.deepEqual(planner.notRerun(page, planner.newHistory()), []);
  });

  test("an unedited cell that ran from the reader's values counts too, as run from the changes", () => {
    const built = entries(
      cell("x = 0.8", { defines: ["x"] }),
      cell("y = x * 2", { defines: ["y"], uses: ["x"], needs: [0] }),
      cell("t = torch.tensor(y)", { defines: ["t"], uses: ["torch", "y"], buildOnly: true, needs: [0, 1] }),
    );
    const history = planner.newHistory();
    const page = edited(built, 0, "x = 2.0");
    ran(page, history, 0, ["x"]);
    ran(page, history, 1, ["y"]);
    assert.deepEqual(planner.notRerun(page, history), [
      { code: 2, because: [{ code: 0, edited: true }, { code: 1, edited: false }] },
    ]);
    // The reader puts the page's code back and runs it again: the build's is current.
    const back = asBuilt(built);
    ran(back, history, 0, ["x"]);
    ran(back, history, 1, ["y"]);
    assert.deepEqual(planner.notRerun(back, history), []);
  });
});

describe("Reset of a cell", () => {
  test("forgets its run and its hidden followers'", () => {
    const page = asBuilt(chain());
    const history = planner.newHistory();
    runPlan(page, history, 1, { 0: ["x"], 1: ["y"], 2: [] });
    assert.deepEqual(planner.forget(page, history, 1), [1, 2]);
    assert.deepEqual(planner.planFor(page, history, 4).steps, [1, 2, 3]);
    assert.equal(planner.planFor(page, history, 4).rerun, null);
  });

  test("what the forgotten run changed is made again before it is used", () => {
    const page = asBuilt(entries(
      cell("x = 1", { defines: ["x"] }),
      cell("x = 2", { defines: ["x"] }),
      cell("print(x)", { uses: ["print", "x"], needs: [0, 1] }),
    ));
    const history = planner.newHistory();
    runPlan(page, history, 2, { 0: ["x"], 1: ["x"] });
    planner.forget(page, history, 1);
    const plan = planner.planFor(page, history, 2);
    assert.deepEqual(plan.steps, [0, 1]);
    assert.deepEqual(plan.rerun, { cells: [0], names: ["x"], by: Infinity });
  });
});

describe("the reader's edits: Python's analysis", () => {
  const built = () => entries(
    cell("a = 1", { defines: ["a"] }),
    cell("b = 2", { defines: ["b"] }),
    cell("print(a)", { uses: ["print", "a"], needs: [0] }),
  );

  test("an edit not analysed yet makes the page incomplete: no plan is made from it", () => {
    const list = built();
    const sources = ["a = 1", "b = 2", "print(b)"];
    assert.equal(planner.isAnalysed(list, sources, null), false);
    assert.equal(planner.pageOf(list, sources, null).complete, false);
    assert.deepEqual(planner.analysisRequest(list, sources), [
      { source: "a = 1", buildOnly: false },
      { source: "b = 2", buildOnly: false },
      { source: "print(b)", buildOnly: false },
    ]);
    assert.equal(planner.isAnalysed(list, list.map((c) => c.source), null), true);
  });

  test("the needs of edited code are the worker's reply's", () => {
    const list = built();
    const sources = ["a = 1", "b = 2", "print(b)"];
    const analysis = {
      sources,
      cells: [
        { names: list[0].names, watches: ["a"], needs: [] },
        { names: list[1].names, watches: ["b"], needs: [] },
        { names: names({ uses: ["print", "b"] }), watches: [], needs: [1] },
      ],
    };
    assert.equal(planner.isAnalysed(list, sources, analysis), true);
    const page = planner.pageOf(list, sources, analysis);
    assert.equal(planner.needs(page, 2, 1), true);
    assert.equal(planner.needs(page, 2, 0), false);
    assert.equal(page.cells[2].edited, true);
    const blocked = new Map([[0, "stopped"]]);
    assert.equal(planner.planFor(page, planner.newHistory(), 2, { blocked }).blockedBy, 0);
  });

  test("an older analysis serves the cells whose code it was made for; a newer edit has none", () => {
    const list = built();
    const older = {
      sources: ["a = 1", "b = 2", "print(b)"],
      cells: [
        { names: list[0].names, watches: ["a"], needs: [] },
        { names: list[1].names, watches: ["b"], needs: [] },
        { names: names({ uses: ["print", "b"] }), watches: [], needs: [1] },
      ],
    };
    const page = planner.pageOf(list, ["a = 3", "b = 2", "print(b)"], older);
    assert.equal(page.complete, false);
    assert.deepEqual(page.cells[2].needs, [1]);
    assert.deepEqual(page.cells[0].facts, planner.EMPTY);
    assert.deepEqual([...page.cells[0].watches], []);
  });

  test("code that does not parse has no facts", () => {
    const list = built();
    const sources = ["a = (", "b = 2", "print(a)"];
    const analysis = {
      sources,
      cells: [
        { names: { error: "'(' was never closed" }, watches: [], needs: [] },
        { names: list[1].names, watches: ["b"], needs: [] },
        { names: list[2].names, watches: [], needs: [] },
      ],
    };
    const page = planner.pageOf(list, sources, analysis);
    assert.deepEqual(page.cells[0].facts, planner.EMPTY);
    assert.deepEqual(planner.planFor(page, planner.newHistory(), 2).steps, [0, 1]);
  });

  test("something read after a cell's run (an exercise's check) is made to hold the page's values", () => {
    const page = asBuilt(entries(
      cell("class Neuron: ...", { defines: ["Neuron"] }),
      cell("check()", { uses: ["check"] }),
      cell("Neuron = None", { defines: ["Neuron"] }),
    ));
    const history = planner.newHistory();
    runPlan(page, history, 2, { 0: ["Neuron"], 2: ["Neuron"] });
    assert.deepEqual(planner.planFor(page, history, 1).steps, [], "its code reads no Neuron");
    const plan = planner.planFor(page, history, 1, { readAfter: ["Neuron"] });
    assert.deepEqual(plan.steps, [0]);
    assert.deepEqual(plan.rerun, { cells: [0], names: ["Neuron"], by: 2 });
  });
});

describe("a name an edited cell binds by the page's own import", () => {
  // from micrograd import Value; x = Value(1.0) | y = Value(2.0) | print(x)
  const page = (first, facts) => entries(
    cell(first, facts),
    cell("y = Value(2.0)", { defines: ["y"], uses: ["Value"], needs: [0] }),
    cell("print(x)", { uses: ["print", "x"], needs: [0] }),
  );
  const afterEdit = (list, edit, changed) => {
    const history = planner.newHistory();
    const sources = list.map((c) => c.source);
    sources[0] = edit;
    const analysis = { sources, cells: list.map((c) => ({ names: c.names, watches: c.watches, needs: c.needs })) };
    const edited = planner.pageOf(list, sources, analysis);
    runPlan(edited, history, 0, { 0: changed });
    return planner.staleCells(edited, history);
  };

  test("keeps the page's value: what reads only it stays as built", () => {
    const list = page("from micrograd import Value\nx = Value(1.0)", {
      defines: ["Value", "x"], imported: { Value: "micrograd:Value" },
    });
    // A first run binds both anew (the kernel reports both changed).
    const stale = afterEdit(list, "from micrograd import Value\nx = Value(5.0)", ["Value", "x"]);
    assert.deepEqual(stale, [2]);
  });

  test("a module whose method the edited cell calls holds the reader's state", () => {
    const list = page("import random\nrandom.seed(1)\nx = random.random()", {
      defines: ["random", "x"], methodCalls: ["random"], imported: { random: "random" },
    });
    list[1] = { ...list[1], source: "y = random.random()", names: names({ defines: ["y"], uses: ["random"] }) };
    const stale = afterEdit(list, "import random\nrandom.seed(2)\nx = random.random()", ["random", "x"]);
    assert.deepEqual(stale, [1, 2]);
  });
});

describe("a real page: the neuron's manifest, as the build wrote it", () => {
  const manifest = JSON.parse(readFileSync(new URL("../neuron.manifest.json", import.meta.url), "utf-8"));
  const list = entries(...manifest.cells);
  const kernelNames = ["glue", "claim"];

  test("Run on each shown cell of a fresh page runs every runnable cell above, then its hidden ones", () => {
    const page = asBuilt(list);
    for (const c of list.filter((e) => !e.hidden && !e.buildOnly)) {
      const plan = planner.planFor(page, planner.newHistory(), c.code, { kernelNames });
      const above = list.filter((e) => e.code < c.code && !e.buildOnly).map((e) => e.code);
      assert.deepEqual(plan.steps, above, `cell ${c.code}`);
      const after = list.slice(c.code + 1);
      const hidden = after.slice(0, after.findIndex((e) => !e.hidden) >>> 0).map((e) => e.code);
      assert.deepEqual(plan.followers, hidden, `cell ${c.code}`);
    }
  });

  test("a changed value makes stale the cells that depend on it, and only those", () => {
    const page = asBuilt(list);
    const history = planner.newHistory();
    runPlan(page, history, 1, {}, { kernelNames });
    const sources = list.map((c) => c.source);
    sources[1] = sources[1].replace("x2 = Value(0.0", "x2 = Value(1.0");
    const analysis = { sources, cells: list.map((c) => ({ names: c.names, watches: c.watches, needs: c.needs })) };
    const edited = planner.pageOf(list, sources, analysis);
    ran(edited, history, 1, ["x2", "n", "o"]);
    const stale = planner.staleCells(edited, history);
    // The tanh-from-exp cell needs cell 1 too (for Value), but reads none of what the
    // edited run changed; the cells that compare its neuron with the first one do.
    const exp = list.findIndex((c) => c.source.includes("o2 = e_minus_1 / e_plus_1"));
    assert.deepEqual(list[exp].needs, [1]);
    assert.ok(!stale.includes(exp));
    const glues = (key) => list.findIndex((c) => c.glue.includes(key));
    assert.ok(stale.includes(glues("neuron_dw2")) && stale.includes(glues("claim:neuron_exp_agrees")));
  });

  test("a first run of the edited first neuron leaves the cells that only import as built", () => {
    // A fresh Python binds every name of the first cell anew (the kernel reports them all),
    // Value and draw_dot too: the same objects the page's imports give.
    const sources = list.map((c) => c.source);
    sources[1] = sources[1].replace("x2 = Value(0.0", "x2 = Value(1.0");
    const analysis = { sources, cells: list.map((c) => ({ names: c.names, watches: c.watches, needs: c.needs })) };
    const edited = planner.pageOf(list, sources, analysis);
    const history = planner.newHistory();
    const plan = planner.planFor(edited, history, 1, { kernelNames });
    for (const code of [...plan.steps, 1, ...plan.followers]) ran(edited, history, code, [...list[code].watches]);
    const stale = planner.staleCells(edited, history);
    const exp = list.findIndex((c) => c.source.includes("o2 = e_minus_1 / e_plus_1"));
    const solution = list.findIndex((c) => c.source.startsWith("# Solution 1"));
    assert.ok(!stale.includes(exp) && !stale.includes(solution), `stale: ${stale}`);
    assert.ok(stale.includes(list.findIndex((c) => c.source.includes("BackwardStepper(o)"))));
  });

  test("an edit of the first neuron leaves the tanh-from-exp graph's own numbers plain", () => {
    // "17 nodes" (neuron_exp_nodes) counts that graph alone: the first neuron's x2 does
    // not change it, and the prose does not mark it out of date before its cell re-runs.
    const page = asBuilt(list);
    const history = planner.newHistory();
    runPlan(page, history, 1, {}, { kernelNames });
    const sources = list.map((c) => c.source);
    sources[1] = sources[1].replace("x2 = Value(0.0", "x2 = Value(1.0");
    const analysis = { sources, cells: list.map((c) => ({ names: c.names, watches: c.watches, needs: c.needs })) };
    const edited = planner.pageOf(list, sources, analysis);
    ran(edited, history, 1, ["x2", "n", "o"]);
    const keys = planner.staleCells(edited, history).flatMap((code) => planner.staleKeys(list[code]));
    assert.ok(keys.includes("neuron_dw2"), "the first neuron's own numbers are out of date");
    for (const key of ["neuron_exp_nodes", "neuron_exp_o", "neuron_exp_dw2"]) {
      assert.ok(!keys.includes(key), `${key} is stale: ${keys}`);
    }
  });
});

describe("the scratch cell after the page", () => {
  // x = 1 | y = x + 1 | print(y) | (hidden) glue("y", y)
  const page = () => asBuilt(entries(
    cell("x = 1", { defines: ["x"] }),
    cell("y = x + 1", { defines: ["y"], uses: ["x"], needs: [0] }),
    cell("print(y)", { uses: ["print", "y"], needs: [0, 1] }),
    cell('glue("y", y)', { uses: ["glue", "y"], hidden: true, glue: ["y"], needs: [1, 0] }),
  ));
  /** What a Run of the page's last shown cell runs: its steps, itself, its followers. */
  const lastCellRuns = (p, history, options = {}) => {
    const plan = planner.planFor(p, history, 2, options);
    return [...plan.steps, 2, ...plan.followers];
  };

  test("on a fresh page it runs what a Run of the page's last cell runs, then itself", () => {
    const p = page();
    const scratch = planner.afterThePage(p);
    const plan = planner.planFor(scratch, planner.newHistory(), p.cells.length);
    assert.deepEqual(plan.steps, lastCellRuns(p, planner.newHistory()));
    assert.deepEqual(plan.followers, []);
    assert.equal(plan.rerun, null);
    assert.equal(p.cells.length, 4, "the page itself gains no cell");
  });

  test("once the page's cells ran, it runs alone; after some, the rest", () => {
    const p = page();
    const history = planner.newHistory();
    runPlan(p, history, 1, { 0: ["x"], 1: ["y"] });
    const scratch = planner.afterThePage(p);
    assert.deepEqual(planner.planFor(scratch, history, 4).steps, [2, 3]);
    runPlan(p, history, 2, {});
    assert.deepEqual(planner.planFor(scratch, history, 4).steps, []);
  });

  test("it needs every runnable cell: one that crashed is asked about, not left out", () => {
    const scratch = planner.afterThePage(page());
    for (const code of [0, 1, 2]) assert.ok(planner.needs(scratch, 4, code));
    const plan = planner.planFor(scratch, planner.newHistory(), 4, { blocked: new Map([[1, "crashed"]]) });
    assert.equal(plan.blockedBy, 1);
  });

  test("it needs no cell whose names it does not see: hidden, or a folded solution", () => {
    // x = 1 | y = x + 1 | print(y) | (hidden) glue("y", y) | (folded) assert y > 5
    const p = asBuilt(entries(
      cell("x = 1", { defines: ["x"] }),
      cell("y = x + 1", { defines: ["y"], uses: ["x"], needs: [0] }),
      cell("print(y)", { uses: ["print", "y"], needs: [0, 1] }),
      cell('glue("y", y)', { uses: ["glue", "y"], hidden: true, glue: ["y"], needs: [1, 0] }),
      cell("assert y > 5", { uses: ["y"], apart: true, needs: [0, 1] }),
    ));
    assert.ok(p.cells[4].apart && !p.cells[4].hidden, "a solution is shown, and apart");
    const scratch = planner.afterThePage(p);
    assert.ok(!planner.needs(scratch, 5, 3) && !planner.needs(scratch, 5, 4));
    for (const code of [3, 4]) {
      const plan = planner.planFor(scratch, planner.newHistory(), 5, { blocked: new Map([[code, "crashed"]]) });
      assert.equal(plan.blockedBy, code); // the queue leaves it out: not needed (queue.js)
    }
    // What Run on the scratch cell runs is still every cell above that has not run:
    // the hidden cells keep the prose in step with the run.
    assert.deepEqual(planner.planFor(scratch, planner.newHistory(), 5).steps, [0, 1, 2, 3, 4]);
  });

  test("on the neuron page it runs every runnable cell, as the last cell's Run does", () => {
    const manifest = JSON.parse(readFileSync(new URL("../neuron.manifest.json", import.meta.url), "utf-8"));
    const list = entries(...manifest.cells);
    const p = asBuilt(list);
    const kernelNames = ["glue", "claim"];
    const last = list.filter((e) => !e.hidden && !e.buildOnly).at(-1).code;
    const lastPlan = planner.planFor(p, planner.newHistory(), last, { kernelNames });
    const plan = planner.planFor(planner.afterThePage(p), planner.newHistory(), list.length, { kernelNames });
    assert.deepEqual(plan.steps, [...lastPlan.steps, last, ...lastPlan.followers]);
    // Its solution, below the last shown cell, is apart: the scratch cell needs none of it.
    const solution = list.length - 1;
    assert.ok(list[solution].apart && !list[solution].hidden);
    assert.ok(!planner.needs(planner.afterThePage(p), list.length, solution));
  });
});
