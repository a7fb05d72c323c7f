// build/vsix.mjs, as `make vsix` runs it: a platform .vsix carries the
// bundle and the server (executable), the universal one no server, and
// two builds give the same bytes though the files' times and the umask
// differ between them. The server here is a small file standing in for
// quire's 60 MB (the packaging does not look inside it); `make
// vsix-check` repeats this with the real cross-built servers.
import * as assert from "assert";
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as zlib from "zlib";

const root = path.join(__dirname, "..", "..");

interface Entry {
  name: string;
  mode: number;
  data: () => Buffer;
}

// entries reads a zip's central directory: each entry's name and the
// Unix mode in its external attributes.
function entries(zip: Buffer): Entry[] {
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) {
    eocd--;
  }
  assert.ok(eocd >= 0, "no end of central directory: not a zip");
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const out: Entry[] = [];
  for (let i = 0; i < count; i++) {
    assert.strictEqual(zip.readUInt32LE(at), 0x02014b50, "a central directory entry");
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const local = zip.readUInt32LE(at + 42);
    const data = (): Buffer => {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const raw = zip.subarray(start, start + size);
      return method === 8 ? zlib.inflateRawSync(raw) : raw;
    };
    out.push({ name: zip.toString("utf8", at + 46, at + 46 + nameLen), mode: (zip.readUInt32LE(at + 38) >>> 16) & 0o777, data });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

describe("build/vsix.mjs", function () {
  this.timeout(120_000);
  let tmp: string;
  const version = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-vsix-test-"));
    fs.writeFileSync(path.join(tmp, "quire"), "#!/bin/sh\necho quire stand-in\n", { mode: 0o700 });
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  function build(out: string, umask: number): void {
    execFileSync(
      "sh",
      ["-c", `umask ${umask.toString(8)} && exec "$0" "$@"`, process.execPath, "build/vsix.mjs", "--out", out, "--server", `linux-x64=${path.join(tmp, "quire")}`, "universal", "linux-x64"],
      { cwd: root, stdio: "pipe", env: { ...process.env, SOURCE_DATE_EPOCH: "" } },
    );
  }

  it("packs the server executable in a platform .vsix, none in the universal one, and the same bytes twice", () => {
    build(path.join(tmp, "a"), 0o022);
    // Files touched and a stricter umask: a second build must not see either.
    const later = new Date(Date.now() + 3_600_000);
    for (const f of ["README.md", "media/chat.js", "media/chat.css"]) {
      fs.utimesSync(path.join(root, f), later, later);
    }
    fs.chmodSync(path.join(tmp, "quire"), 0o744);
    build(path.join(tmp, "b"), 0o077);

    const platform = `quire-vscode-linux-x64-${version}.vsix`;
    const universal = `quire-vscode-${version}.vsix`;
    for (const name of [platform, universal]) {
      const a = fs.readFileSync(path.join(tmp, "a", name));
      const b = fs.readFileSync(path.join(tmp, "b", name));
      assert.ok(a.equals(b), `${name} differs between two builds`);
    }

    const p = entries(fs.readFileSync(path.join(tmp, "a", platform)));
    const names = p.map((e) => e.name);
    assert.strictEqual(p.find((e) => e.name === "extension/server/quire")?.mode, 0o755);
    assert.strictEqual(p.find((e) => e.name === "extension/server/quire")?.data().toString(), "#!/bin/sh\necho quire stand-in\n");
    for (const must of ["extension.vsixmanifest", "extension/package.json", "extension/dist/extension.js", "extension/media/chat.js", "extension/LICENSE.txt"]) {
      assert.ok(names.includes(must), `${must} is missing from ${platform}: ${names.join(", ")}`);
    }
    assert.ok(!names.some((n) => /node_modules|\/out\/|\/src\//.test(n)), `sources or node_modules packaged: ${names.join(", ")}`);
    assert.ok(p.filter((e) => e.name.startsWith("extension/") && e.name !== "extension/server/quire").every((e) => (e.mode & 0o111) === 0), "only the server is executable");

    const packed = JSON.parse(p.find((e) => e.name === "extension/package.json")!.data().toString()) as Record<string, unknown>;
    assert.strictEqual(packed.main, "./dist/extension.js");
    assert.strictEqual(packed.scripts, undefined, "vsce would run a prepublish script where there are no sources");
    const u = entries(fs.readFileSync(path.join(tmp, "a", universal))).map((e) => e.name);
    assert.ok(!u.some((n) => n.startsWith("extension/server/")), `the universal .vsix carries a server: ${u.join(", ")}`);
    assert.ok(u.includes("extension/dist/extension.js"));
  });

  it("names the target in the manifest and refuses a target without its server", () => {
    const manifest = (name: string): string =>
      entries(fs.readFileSync(path.join(tmp, "a", name)))
        .find((e) => e.name === "extension.vsixmanifest")!
        .data()
        .toString();
    assert.match(manifest(`quire-vscode-linux-x64-${version}.vsix`), /<Identity [^>]*Version="[\d.]+" Publisher="quire-ink" TargetPlatform="linux-x64"\/>/);
    assert.doesNotMatch(manifest(`quire-vscode-${version}.vsix`), /TargetPlatform/);
    assert.throws(
      () => execFileSync(process.execPath, ["build/vsix.mjs", "--out", path.join(tmp, "c"), "--servers", path.join(tmp, "none"), "darwin-arm64"], { cwd: root, stdio: "pipe" }),
      (e: { stderr?: Buffer }) => /no quire for darwin-arm64 at .*darwin_arm64\/quire/.test(String(e.stderr)),
    );
  });
});
