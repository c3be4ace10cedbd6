// The runner's modules as the tests read them: its own (docs/_static/runner/*.js)
// the features' registry (docs/_features/registry.js) and their modules
// (docs/_features/<name>/*.js), each named by its
// path from the runner's folder, as runner.js imports it.
import { readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const DOCS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "docs");
export const RUNNER = join(DOCS, "_static", "runner");
export const FEATURES = join(DOCS, "_features");

/** The runner's modules, the features' registry and modules: paths from the runner's folder. */
export function runnerModules(folder = RUNNER, features = FEATURES) {
  const own = readdirSync(folder).filter((name) => name.endsWith(".js"));
  const addOns = readdirSync(features, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => readdirSync(join(features, entry.name))
      .filter((name) => name.endsWith(".js"))
      .map((name) => relative(folder, join(features, entry.name, name))));
  const registry = readdirSync(features).filter((name) => name.endsWith(".js"))
    .map((name) => relative(folder, join(features, name)));
  return [...own, ...registry, ...addOns.sort()];
}

/** The code of a module without its comments (a string never holds a comment here). */
export function code(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .split("\n")
    .map((line) => line.replace(/(^|[^:"'\\])\/\/.*$/, "$1"))
    .join("\n");
}
