// The features' registry (docs/_features/registry.js): the runner core reads it and
// names no feature.  A feature is its folder and its line in the registry's one
// list; the core files take part of it through what its declaration (feature.js)
// says, so adding one edits none of them.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { FEATURES } from "../../../docs/_features/registry.js";
import { FEATURES as FEATURE_FOLDERS, RUNNER, code } from "../runner_modules.mjs";

/** The runner's core: the files that read the registry instead of naming a feature. */
const CORE = Object.freeze(["runner.js", "session.js", "pagestate.js", "python.js", "worker.js"]);

/** Each line of `text`'s code that names a feature of `names` (as a word): "line n: ...". */
export function namingAFeature(text, names) {
  const feature = new RegExp(`\\b(${names.join("|")})\\b`);
  return code(text).split("\n").flatMap((line, i) => (feature.test(line) ? [`line ${i + 1}: ${line.trim()}`] : []));
}

test("every feature folder is in the registry, declared by its folder's feature.js", () => {
  const folders = readdirSync(FEATURE_FOLDERS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && readdirSync(join(FEATURE_FOLDERS, entry.name)).includes("feature.js"))
    .map((entry) => entry.name);
  assert.deepEqual(FEATURES.map((f) => f.name).sort(), folders.sort());
  for (const feature of FEATURES) {
    assert.ok(["run", "page"].includes(feature.loads), feature.name);
    assert.ok(typeof feature.page === "function" || typeof feature.setUp === "function", feature.name);
  }
});

test("the registry lists the features the Python side finds (their folders' __init__.py)", () => {
  const packages = readdirSync(FEATURE_FOLDERS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && readdirSync(join(FEATURE_FOLDERS, entry.name)).includes("__init__.py"))
    .map((entry) => entry.name);
  assert.deepEqual(FEATURES.map((f) => f.name), packages.sort());
});

test("no core file of the runner names a feature in its code", () => {
  const names = FEATURES.map((f) => f.name);
  const found = CORE.flatMap((file) =>
    namingAFeature(readFileSync(join(RUNNER, file), "utf8"), names).map((said) => `${file}: ${said}`));
  assert.deepEqual(found, []);
});

test("a core file that names a feature is caught, and a comment that does is not", () => {
  const text = 'import("../../_features/track/track.js");\nconst x = "nudge";\n// the track\n';
  assert.equal(namingAFeature(text, ["track", "nudge"]).length, 2);
  assert.deepEqual(namingAFeature("records.nudges.push(1); // nudge\n", ["nudge"]), []);
});
