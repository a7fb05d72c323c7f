// @ts-check
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["out/**", "dist/**", "node_modules/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["src/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      eqeqeq: ["error", "always"],
      "no-restricted-properties": [
        "error",
        { property: "innerHTML", message: "Build DOM nodes with textContent; never parse text as HTML." },
        { property: "outerHTML", message: "Build DOM nodes with textContent; never parse text as HTML." },
      ],
    },
  },
  {
    // The build scripts (bundle, packaging) run in Node.
    files: ["build/**/*.mjs"],
    languageOptions: { globals: globals.node },
    rules: { eqeqeq: ["error", "always"] },
  },
  {
    // The chat webview's scripts run in a browser, loaded as classic
    // scripts in order (render.js, then chat.js); the type check is
    // media/tsconfig.json.
    files: ["media/**/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: {
        ...globals.browser,
        acquireVsCodeApi: "readonly",
      },
    },
    rules: {
      eqeqeq: ["error", "always"],
      // A name that hides another (a parameter named like its function)
      // broke the chat once; nothing outside the browser would notice.
      "no-shadow": ["error", { builtinGlobals: false, hoist: "all" }],
      "no-implicit-globals": "off",
      "no-unused-vars": ["error", { vars: "all", args: "after-used" }],
      "no-restricted-properties": [
        "error",
        { property: "innerHTML", message: "Build DOM nodes with textContent; never parse text as HTML." },
        { property: "outerHTML", message: "Build DOM nodes with textContent; never parse text as HTML." },
        { property: "insertAdjacentHTML", message: "Build DOM nodes with textContent; never parse text as HTML." },
      ],
    },
  },
);
