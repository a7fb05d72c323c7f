// Packages the extension: one .vsix per platform with the quire server
// inside (server/quire, server/quire.exe on Windows) and one universal
// .vsix without a server, the way rust-analyzer ships them.
//
//   node build/vsix.mjs [--out DIR] [--servers DIR] [--server TARGET=FILE]... [TARGET...]
//
// TARGET is a vsce target (win32-x64, …, alpine-arm64) or "universal";
// without any, all nine. --servers is the release tool's build folder
// (default: the repository's dist/build), which holds <goos>_<goarch>/quire;
// the alpine targets take the static linux builds. --server names one
// target's binary directly (the end-to-end test's). The files go to --out
// (default: the repository's dist/) as quire-vscode-<target>-<version>.vsix
// and quire-vscode-<version>.vsix.
//
// The same commit gives the same bytes: every file is staged with a fixed
// mode (0644, the server 0755), vsce writes entries in name order with the
// time of SOURCE_DATE_EPOCH (else the last commit's, else 1980-01-01), in
// UTC and the C locale, and the bundle and zip are made by pinned tools. `make vsix-check`
// builds everything twice and compares.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { bundle, root } from "./bundle.mjs";

const require = createRequire(import.meta.url);
const vsce = require("@vscode/vsce");
const repo = path.resolve(root, "..", "..");

// The Go platform each VS Code target runs; alpine is musl, and the
// static (CGO_ENABLED=0) linux builds run there as they are.
export const targets = {
  "win32-x64": "windows_amd64",
  "win32-arm64": "windows_arm64",
  "darwin-x64": "darwin_amd64",
  "darwin-arm64": "darwin_arm64",
  "linux-x64": "linux_amd64",
  "linux-arm64": "linux_arm64",
  "alpine-x64": "linux_amd64",
  "alpine-arm64": "linux_arm64",
};

function fail(message) {
  console.error(`vsix.mjs: ${message}`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { out: path.join(repo, "dist"), servers: path.join(repo, "dist", "build"), server: {}, targets: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => argv[++i] ?? fail(`${a} needs a value`);
    if (a === "--out") {
      opts.out = path.resolve(value());
    } else if (a === "--servers") {
      opts.servers = path.resolve(value());
    } else if (a === "--server") {
      const [t, file] = value().split(/=(.*)/s);
      if (!(t in targets) || !file) {
        fail(`--server wants TARGET=FILE with a target of ${Object.keys(targets).join(", ")}`);
      }
      opts.server[t] = path.resolve(file);
    } else if (a === "universal" || a in targets) {
      opts.targets.push(a);
    } else {
      fail(`unknown argument ${a}; targets are universal, ${Object.keys(targets).join(", ")}`);
    }
  }
  if (opts.targets.length === 0) {
    opts.targets = ["universal", ...Object.keys(targets)];
  }
  return opts;
}

// sourceDateEpoch is the time every zip entry carries.
function sourceDateEpoch() {
  if (process.env.SOURCE_DATE_EPOCH) {
    return process.env.SOURCE_DATE_EPOCH;
  }
  try {
    return execFileSync("git", ["log", "-1", "--format=%ct"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    // Not a git checkout (a source archive): a fixed time is as reproducible.
    return "315532800";
  }
}

// manifest is package.json as the .vsix carries it: without the scripts
// (vsce would run vscode:prepublish in the stage, which has no sources)
// and the npm dependencies, which the bundle holds.
function manifest() {
  const m = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  delete m.scripts;
  delete m.dependencies;
  delete m.devDependencies;
  return m;
}

function put(stage, rel, contents, mode) {
  const file = path.join(stage, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, contents);
  fs.chmodSync(file, mode);
}

/** packageOne stages the extension (and server, if any) and runs vsce on it. */
function packageOne(target, files, server, out, version, epoch) {
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "quire-vsix-"));
  try {
    for (const f of files) {
      put(stage, f, f === "package.json" ? JSON.stringify(manifest(), null, 2) + "\n" : fs.readFileSync(path.join(root, f)), 0o644);
    }
    put(stage, "LICENSE", fs.readFileSync(path.join(repo, "LICENSE")), 0o644);
    put(stage, ".vscodeignore", fs.readFileSync(path.join(root, ".vscodeignore")), 0o644);
    if (server) {
      put(stage, path.posix.join("server", target.startsWith("win32-") ? "quire.exe" : "quire"), fs.readFileSync(server), 0o755);
    }
    const name = target === "universal" ? `quire-vscode-${version}.vsix` : `quire-vscode-${target}-${version}.vsix`;
    const file = path.join(out, name);
    const args = [require.resolve("@vscode/vsce/vsce"), "package", "--no-dependencies", "--out", file];
    if (target !== "universal") {
      args.push("--target", target);
    }
    try {
      execFileSync(process.execPath, args, {
        cwd: stage,
        // vsce orders the entries with localeCompare and yazl writes local
        // times: a fixed locale and zone make both the same everywhere.
        env: { ...process.env, SOURCE_DATE_EPOCH: epoch, TZ: "UTC", LC_ALL: "C", LANG: "C" },
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (e) {
      fail(`vsce package --target ${target} failed:\n${e.stdout ?? ""}${e.stderr ?? ""}`);
    }
    return file;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const version = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
  const servers = {};
  for (const t of opts.targets.filter((t) => t !== "universal")) {
    const file = opts.server[t] ?? path.join(opts.servers, targets[t], t.startsWith("win32-") ? "quire.exe" : "quire");
    if (!fs.existsSync(file)) {
      fail(`no quire for ${t} at ${file}: build it first (make vsix builds them; or go run ./cmd/release build -o dist)`);
    }
    servers[t] = file;
  }
  await bundle();
  // The files vsce would take from this folder (.vscodeignore decides),
  // without a server/ someone left here: the stage gets the target's own.
  const files = (await vsce.listFiles({ cwd: root, packageManager: vsce.PackageManager.None }))
    .map((f) => f.replace(/\\/g, "/"))
    .filter((f) => !f.startsWith("server/"))
    .sort();
  fs.mkdirSync(opts.out, { recursive: true });
  const epoch = sourceDateEpoch();
  for (const t of opts.targets) {
    const file = packageOne(t, files, servers[t], opts.out, version, epoch);
    const size = fs.statSync(file).size;
    console.log(`${path.relative(process.cwd(), file) || file}\t${size} bytes (${(size / 1048576).toFixed(1)} MiB)${servers[t] ? `\tserver: ${servers[t]}` : ""}`);
  }
}

await main();
