// No module of the runner holds state or does anything when imported:
// the session (session.js's Session) owns every mutable thing, and runner.js's
// start() makes it.  Read from each module's top-level statements (parsed by
// espree, ESLint's parser, an exact devDependency): imports, exports of declarations,
// functions, classes, and `const` bound to a constant are allowed; a constant is a
// literal (a regular expression only without the g or y flag, which carry a
// position), a function, a name, a member of one, arithmetic or a template of
// constants, or Object.freeze of an object or array literal of constants (nested
// literals frozen too).  Anything else fails: a `let` or `var`, a `const` bound to
// `new Map()`, `[]`, `{}` or a call, a statement that runs (a call, an assignment,
// an `if`), a class with static fields.
//
// Two exceptions, each one place: an entry point (the page's runner.js, its
// worker's worker.js) ends by starting itself, its last statement; and the
// service worker (runtime-cache.js), a classic script that may import nothing,
// registers its listeners on its global scope when it loads, as a service worker
// must.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { parse } from "espree";

import { RUNNER, runnerModules } from "../runner_modules.mjs";

// The entry points: the page's and its worker's (each ends by starting itself).
const ENTRIES = Object.freeze(["runner.js", "worker.js"]);
const SERVICE_WORKER = "runtime-cache.js";

/** Whether an expression is a constant (see the top of this file). */
function constant(node) {
  switch (node.type) {
    case "Literal":
      return !(node.regex && /[gy]/.test(node.regex.flags));
    case "Identifier":
    case "ArrowFunctionExpression":
    case "FunctionExpression":
      return true;
    case "MemberExpression":
      return constant(node.object) && (!node.computed || constant(node.property));
    case "UnaryExpression":
      return node.operator !== "delete" && constant(node.argument);
    case "BinaryExpression":
    case "LogicalExpression":
      return constant(node.left) && constant(node.right);
    case "ConditionalExpression":
      return constant(node.test) && constant(node.consequent) && constant(node.alternate);
    case "TemplateLiteral":
      return node.expressions.every(constant);
    case "CallExpression":
      return frozen(node);
    default:
      return false;
  }
}

/** Object.freeze of an object or array literal of constants. */
function frozen(node) {
  const { callee, arguments: args } = node;
  const isFreeze = callee.type === "MemberExpression" && !callee.computed
    && callee.object.name === "Object" && callee.property.name === "freeze";
  if (!isFreeze || args.length !== 1) return false;
  const [literal] = args;
  if (literal.type === "ArrayExpression") return literal.elements.every((e) => e !== null && constant(e));
  if (literal.type === "ObjectExpression") {
    return literal.properties.every((p) => p.type === "Property"
      && (!p.computed || constant(p.key)) && constant(p.value));
  }
  return false;
}

/** What is wrong with a top-level statement, or null. */
function problem(statement) {
  switch (statement.type) {
    case "ImportDeclaration":
    case "FunctionDeclaration":
      return null;
    case "ExportNamedDeclaration":
      return statement.declaration ? problem(statement.declaration) : null;
    case "ExportDefaultDeclaration":
      return statement.declaration.type.endsWith("Declaration") ? problem(statement.declaration)
        : constant(statement.declaration) ? null : "a default export that is not a constant";
    case "ClassDeclaration":
      return statement.body.body.some((member) => member.static && member.type !== "MethodDefinition")
        ? "a class with static state" : null;
    case "VariableDeclaration":
      if (statement.kind !== "const") return `a top-level ${statement.kind}`;
      for (const declarator of statement.declarations) {
        if (!declarator.init || !constant(declarator.init)) {
          return `const ${declarator.id.name || "{...}"} is not a constant`;
        }
      }
      return null;
    default:
      return `a statement that runs on import (${statement.type})`;
  }
}

/** The problems of a module's source: [{line, message}]. */
export function moduleState(source, { entry = false } = {}) {
  const program = parse(source, { ecmaVersion: 2025, sourceType: "module", loc: true });
  const statements = entry ? program.body.slice(0, -1) : program.body;
  return statements.map((statement) => ({ line: statement.loc.start.line, message: problem(statement) }))
    .filter(({ message }) => message !== null);
}

test("the rule finds each kind of module-level state and side effect", () => {
  const wrong = [
    "let x = 1;",
    "var x = 1;",
    "const m = new Map();",
    "const a = [];",
    "const o = { a: 1 };",
    "const f = Object.freeze({ list: [] });",
    "const r = /x/g;",
    "const v = compute();",
    "document.addEventListener('x', () => {});",
    "window.x = 1;",
    "if (ready) start();",
    "class A { static cache = new Map(); }",
  ];
  for (const source of wrong) assert.equal(moduleState(source).length, 1, source);
  const right = [
    "import { a } from './a.js';",
    "export function f() { let x = []; return x; }",
    "export class A { constructor() { this.m = new Map(); } static make() { return new A(); } }",
    "const N = 96 / 72; const S = `${N}px`; const T = 'a' + 'b'; const R = /x/i;",
    "export const F = Object.freeze({ a: Object.freeze([1, 2]), b: 'c', [N]: (x) => x });",
    "const g = (x) => x + 1; export const h = a.b;",
  ];
  for (const source of right) assert.deepEqual(moduleState(source), [], source);
  assert.deepEqual(moduleState("const a = 1;\nstart();", { entry: true }), []);
});

test("no module of the runner holds state or acts when imported", () => {
  // The features' add-ons (docs/_features/<name>/<name>.js) are modules of the runner too.
  const modules = runnerModules().filter((name) => name !== SERVICE_WORKER);
  assert.ok(ENTRIES.every((entry) => modules.includes(entry)) && modules.includes("cells.js"));
  assert.ok(modules.includes("../../_features/nudge/nudge.js"));
  const found = modules.flatMap((name) => moduleState(readFileSync(join(RUNNER, name), "utf8"), {
    entry: ENTRIES.includes(name),
  }).map(({ line, message }) => `${name}:${line}: ${message}`));
  assert.deepEqual(found, []);
});
