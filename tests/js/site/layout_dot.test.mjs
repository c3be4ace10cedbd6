// The build's `dot` command (docs/_ext/layout_dot.mjs): its command line, as dot's callers write it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { parseArguments } from "../../../docs/_ext/layout_dot.mjs";

test("the graphviz package's call is read: engine, format, the graph on standard input", () => {
  const options = parseArguments(["--viz", "viz.js", "-Kdot", "-Tsvg"]);
  assert.deepEqual(options, {
    viz: "viz.js", format: "svg", engine: "dot", output: null, version: false, input: null,
  });
});

test("an option's value may follow it as the next word, as dot allows", () => {
  const options = parseArguments(["--viz", "viz.js", "-T", "svg", "-o", "out.svg", "graph.gv"]);
  assert.equal(options.format, "svg");
  assert.equal(options.output, "out.svg");
  assert.equal(options.input, "graph.gv");
});

test("an option it does not take is refused by name, never ignored", () => {
  const refused = parseArguments(["--viz", "viz.js", "-Tsvg", "-Gdpi=300"]);
  assert.ok(refused instanceof Error);
  assert.match(refused.message, /unsupported option -Gdpi=300/);
});

test("two graphs, or no viz.js, are refused", () => {
  assert.match(parseArguments(["--viz", "v.js", "a.gv", "b.gv"]).message, /one graph at a time/);
  assert.match(parseArguments(["-Tsvg"]).message, /--viz PATH/);
});
