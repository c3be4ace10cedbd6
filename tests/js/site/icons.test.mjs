// The signs on the runner's buttons are drawings (cells.js), never font glyphs, which
// show as empty boxes where the reader's font lacks them.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { ICONS, iconParts } from "../../../docs/_static/runner/cells.js";

const RUNNER = new URL("../../../docs/_static/runner/", import.meta.url);
// Glyphs a button could use as a sign (arrows, shapes, dingbats, emoji).
const GLYPH = /[\u2190-\u21ff\u2300-\u23ff\u25a0-\u27bf\u2900-\u29ff\u2b00-\u2bff\u{1f300}-\u{1faff}]/u;

/** A module's code without its comments (a comment may name a glyph). */
function code(name) {
  return readFileSync(new URL(name, RUNNER), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
}

test("no module of the runner writes a glyph into the page", () => {
  const modules = readdirSync(RUNNER).filter((name) => name.endsWith(".js"));
  assert.ok(modules.includes("cells.js") && modules.includes("pagestate.js"));
  const found = modules.filter((name) => GLYPH.test(code(name)));
  assert.deepEqual(found, []);
});

test("the sign of every button the runner makes is a drawing it has", () => {
  const named = new Set();
  for (const name of readdirSync(RUNNER).filter((n) => n.endsWith(".js"))) {
    for (const [, sign] of code(name).matchAll(/button\([^;]*?,\s*"(\w+)"\)/g)) named.add(sign);
  }
  assert.ok(named.has("run") && named.has("copy"), [...named].join(", "));
  for (const sign of named) assert.ok(sign in ICONS, `no drawing for "${sign}"`);
});

test("a sign is hidden from screen readers, in the text's colour, at the text's size", () => {
  for (const name of Object.keys(ICONS)) {
    const { svg, shapes } = iconParts(name);
    assert.equal(svg["aria-hidden"], "true");
    assert.equal(svg.focusable, "false");
    assert.equal(svg.viewBox, "0 0 24 24");
    assert.match(svg.class, /\brunner-icon\b/);
    assert.ok(shapes.length > 0, name);
    for (const shape of shapes) {
      assert.ok([shape.fill, shape.stroke].includes("currentColor"), `${name}: ${shape.d}`);
      assert.match(shape.d, /^M[\d.\s,MLHVAZ-]+$/, `${name}: ${shape.d}`);
    }
  }
});

test("a sign it has not is an error, not an empty drawing", () => {
  assert.throws(() => iconParts("nothing"), /no icon named "nothing"/);
});
