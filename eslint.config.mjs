// ESLint for the site's own JavaScript (nox -s lint): the in-browser runner's ES
// modules (the features' add-ons in docs/_features among them), its service worker
// and worker, the figures' script, the build's layout command (docs/_ext), and the runner's
// unit tests (tests/js/, under Node).  The rules that
// catch what a refactoring leaves behind: a name used but defined nowhere, a name
// defined and never used, code after a return.
import globals from "globals";

// The same rules for the site's modules and for the tests that import them.
const RULES = {
  "no-undef": "error",
  "no-unused-vars": "error",
  "no-unreachable": "error",
  "no-dupe-keys": "error",
  "no-redeclare": "error",
};

export default [
  {
    files: ["docs/_static/**/*.js", "docs/_features/**/*.js"],
    ignores: ["docs/_static/runner/editor/**"],
    languageOptions: {
      ecmaVersion: 2025,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.worker, ...globals.serviceworker },
    },
    rules: RULES,
  },
  {
    // The runner's unit tests run under Node (node --test tests/js/), and so does the
    // build's layout command (docs/_ext/layout_dot.mjs).
    files: ["tests/js/**/*.mjs", "docs/_ext/**/*.mjs"],
    languageOptions: {
      ecmaVersion: 2025,
      sourceType: "module",
      globals: { ...globals.node },
    },
    rules: RULES,
  },
];
