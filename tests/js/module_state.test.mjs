// No module of the runner's page side holds state or does anything when imported:
// the session (runtime.js's Session) owns every mutable thing, and runner.js's
// start() makes it.  Read from each module's top-level statements (parsed by
// ESLint's parser, a devDependency already): imports, exports of declarations,
// functions, classes, and `const` bound to a constant are allowed; a constant is a
// literal (a regular expression only without the g or y flag, which carry a
// position), a function, a name, a member of one, arithmetic or a template of
// constants, or Object.freeze of an object or array literal of constants (nested
// literals frozen too).  Anything else fails: a `let` or `var`, a `const` bound to
// `new Map()`, `[]`, `{}` or a call, a statement that runs (a call, an assignment,
// an `if`), a class with static fields.
//
// Two exceptions, each one place: the page's entry point (runner.js) ends by
// starting the runner, its last statement; and the worker's realm (worker.js and
// what only it imports, and the service worker runtime-cache.js) runs in a worker
// of its own, one per Python session, which the session's teardown terminates:
// that worker's module scope is the session's own state, and dies with it.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Linter } from "eslint";

const RUNNER = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "docs", "_static", "runner");
const ENTRY = "runner.js";
const WORKER_REALM = Object.freeze([
  "worker.js", "layouts.js", "stepper_layout.js", "exercise_answers.js", "runtime-cache.js",
]);

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
  const found = [];
  const rule = {
    create: (context) => ({
      Program(program) {
        const statements = entry ? program.body.slice(0, -1) : program.body;
        for (const statement of statements) {
          const message = problem(statement);
          if (message !== null) context.report({ node: statement, message });
        }
      },
    }),
  };
  const messages = new Linter({ configType: "flat" }).verify(source, [{
    languageOptions: { ecmaVersion: 2025, sourceType: "module" },
    plugins: { state: { rules: { top: rule } } },
    rules: { "state/top": "error" },
  }]);
  for (const { line, message, fatal } of messages) found.push({ line, message: fatal ? `unparsed: ${message}` : message });
  return found;
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
  const modules = readdirSync(RUNNER).filter((name) => name.endsWith(".js") && !WORKER_REALM.includes(name));
  assert.ok(modules.includes(ENTRY) && modules.includes("cells.js"));
  const found = modules.flatMap((name) => moduleState(readFileSync(join(RUNNER, name), "utf8"), {
    entry: name === ENTRY,
  }).map(({ line, message }) => `${name}:${line}: ${message}`));
  assert.deepEqual(found, []);
});
