// The .vsix ships what the extension runs on and nothing else: the files
// vsce packages (as `npx vsce ls` lists them) against an allowlist, with a
// build log and a test screenshot left in the folder as a build would.
// The extension's code is one bundle (dist/extension.js), so no
// node_modules, though vsce is asked to collect the npm dependencies.
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { listFiles } from "@vscode/vsce";
import { withVscode } from "./vscodeStandIn";

const root = path.join(__dirname, "..", "..");

const allowed = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE(\.md|\.txt)?$/,
  /^dist\/extension\.js$/,
  /^media\/[\w.-]+\.(js|css|svg)$/,
  /^media\/walkthrough\/[\w.-]+\.md$/,
];

describe(".vsix contents", function () {
  this.timeout(60_000);
  const leftovers = ["quire-vsix-check.log", "npm-build.log", "out/quire-vsix-check.log", "quire-vsix-check.png", "dist/extension.js.map", "dist/quire-vsix-check.js"];

  before(() => {
    for (const f of leftovers) {
      fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
      fs.writeFileSync(path.join(root, f), "left by a build\n");
    }
  });
  after(() => {
    for (const f of leftovers) {
      fs.rmSync(path.join(root, f), { force: true });
    }
  });

  it("holds only package.json, README, the bundled extension and media", async () => {
    const files = (await listFiles({ cwd: root })).map((f) => f.replace(/\\/g, "/"));
    const stray = files.filter((f) => !allowed.some((re) => re.test(f)));
    assert.deepStrictEqual(stray, []);
    const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { main: string };
    assert.strictEqual(manifest.main, "./dist/extension.js", "VS Code would load something other than the bundle");
    for (const must of ["package.json", "dist/extension.js", "media/chat.js", "media/render.js", "media/chat.css", "media/quire.svg", "media/walkthrough/key.md"]) {
      assert.ok(files.includes(must), `${must} is missing from the .vsix`);
    }
  });

  it("bundles a dist/extension.js that loads with nothing beside it but VS Code", () => {
    // Copied out of the folder, so a require of a node_modules package the
    // bundle left out would fail here as it would in the installed .vsix.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-bundle-"));
    try {
      const file = path.join(dir, "extension.js");
      fs.copyFileSync(path.join(root, "dist", "extension.js"), file);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const ext = withVscode(() => require(file) as { activate?: unknown; deactivate?: unknown });
      assert.strictEqual(typeof ext.activate, "function");
      assert.strictEqual(typeof ext.deactivate, "function");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
