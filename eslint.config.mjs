// ESLint (flat config) for the web client's plain ES modules; `make lint` runs it.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/**", "bench/**", "artifacts/**", ".venv/**", "build/**"] },
  {
    files: ["src/deadwood_knock/web/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      ...js.configs.recommended.rules,
      // `_name` marks a value left out on purpose (a rest pattern's dropped field).
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    files: ["src/deadwood_knock/web/sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    files: ["eslint.config.mjs"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
