// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["out/**", "node_modules/**"] },
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
    files: ["media/**/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: {
        window: "readonly",
        document: "readonly",
        acquireVsCodeApi: "readonly",
        console: "readonly",
      },
    },
    rules: {
      eqeqeq: ["error", "always"],
      "no-restricted-properties": [
        "error",
        { property: "innerHTML", message: "Build DOM nodes with textContent; never parse text as HTML." },
        { property: "outerHTML", message: "Build DOM nodes with textContent; never parse text as HTML." },
        { property: "insertAdjacentHTML", message: "Build DOM nodes with textContent; never parse text as HTML." },
      ],
    },
  },
);
