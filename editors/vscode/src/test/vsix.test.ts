// The .vsix ships what the extension runs on and nothing else: the files
// vsce packages (as `npx vsce ls` lists them) against an allowlist, with a
// build log and a test screenshot left in the folder as a build would.
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";
import { listFiles } from "@vscode/vsce";

const root = path.join(__dirname, "..", "..");

const allowed = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE(\.md|\.txt)?$/,
  /^out\/(?!test\/)[\w/.-]+\.js$/,
  /^media\/[\w.-]+\.(js|css|svg)$/,
  /^node_modules\//,
];

describe(".vsix contents", function () {
  this.timeout(60_000);
  const leftovers = ["quire-vsix-check.log", "npm-build.log", "out/quire-vsix-check.log", "quire-vsix-check.png"];

  before(() => {
    for (const f of leftovers) {
      fs.writeFileSync(path.join(root, f), "left by a build\n");
    }
  });
  after(() => {
    for (const f of leftovers) {
      fs.rmSync(path.join(root, f), { force: true });
    }
  });

  it("holds only package.json, README, the compiled extension, media and runtime dependencies", async () => {
    const files = (await listFiles({ cwd: root })).map((f) => f.replace(/\\/g, "/"));
    const stray = files.filter((f) => !allowed.some((re) => re.test(f)));
    assert.deepStrictEqual(stray, []);
    for (const must of ["package.json", "out/extension.js", "media/chat.js", "media/render.js", "media/chat.css", "node_modules/vscode-languageclient/package.json"]) {
      assert.ok(files.includes(must), `${must} is missing from the .vsix`);
    }
    assert.ok(!files.some((f) => f.startsWith("node_modules/jsdom/")), "a dev dependency is packaged");
  });
});
