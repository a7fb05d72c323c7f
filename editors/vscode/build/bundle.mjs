// Bundles the extension's code and its runtime dependencies
// (vscode-languageclient) into one file, dist/extension.js, so the .vsix
// carries no node_modules. tsc still type-checks (npm run compile) and
// builds out/ for the unit tests; this only bundles. Run as a script
// (npm run bundle) or imported by vsix.mjs.
import * as esbuild from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export async function bundle() {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ["src/extension.ts"],
    outfile: "dist/extension.js",
    bundle: true,
    // VS Code provides the vscode module; its oldest supported release
    // (engines: ^1.85) runs Node 18.
    external: ["vscode"],
    platform: "node",
    target: "node18",
    format: "cjs",
    minify: true,
    // Class and function names stay readable in the errors that reach
    // the output channel.
    keepNames: true,
    legalComments: "eof",
    logLevel: "warning",
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundle();
}
