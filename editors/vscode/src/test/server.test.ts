import * as assert from "assert";
import { actionLabel, bundledPath, settingsCommand, Host, notFoundMessage, releaseOf, resolveServer, startFailedMessage, versionWarning, VersionWarnings } from "../server";

const linuxExt = "/home/w/.vscode/extensions/quire-ink.quire-0.3.0-linux-x64";
const winExt = "c:\\Users\\w\\.vscode\\extensions\\quire-ink.quire-0.3.0-win32-x64";

function host(platform: NodeJS.Platform, pathVar: string, files: string[], extra: Record<string, string> = {}): Host {
  return {
    platform,
    env: { PATH: pathVar, ...extra },
    homedir: platform === "win32" ? "C:\\Users\\w" : "/home/w",
    extensionPath: platform === "win32" ? winExt : linuxExt,
    isExecutable: (p) => files.includes(p),
  };
}

describe("resolveServer", () => {
  const bundled = `${linuxExt}/server/quire`;
  const cases: {
    name: string;
    serverPath: unknown;
    args?: unknown;
    host: Host;
    want?: { command: string; args: string[]; source: string };
    err?: RegExp[];
    actions?: string[];
  }[] = [
    {
      name: "a set quire.serverPath comes first, before the bundled server and PATH",
      serverPath: "/opt/quire/bin/quire",
      host: host("linux", "/usr/bin", ["/opt/quire/bin/quire", bundled, "/usr/bin/quire"]),
      want: { command: "/opt/quire/bin/quire", args: ["serve"], source: "setting" },
    },
    {
      name: "a bare name in quire.serverPath is looked up on PATH",
      serverPath: "quire-dev",
      host: host("linux", "/usr/bin:/home/w/go/bin", [bundled, "/home/w/go/bin/quire-dev"]),
      want: { command: "/home/w/go/bin/quire-dev", args: ["serve"], source: "setting" },
    },
    {
      name: "an empty setting uses the bundled server before PATH",
      serverPath: "",
      host: host("linux", "/usr/bin", [bundled, "/usr/bin/quire"]),
      want: { command: bundled, args: ["serve"], source: "bundled" },
    },
    {
      name: "a blank setting counts as empty",
      serverPath: "  ",
      host: host("linux", "/usr/bin", [bundled]),
      want: { command: bundled, args: ["serve"], source: "bundled" },
    },
    {
      name: "no setting and no bundled server (the universal extension): quire on PATH, first match wins",
      serverPath: undefined,
      host: host("linux", "/usr/bin:/home/w/go/bin:/opt/bin", ["/home/w/go/bin/quire", "/opt/bin/quire"]),
      want: { command: "/home/w/go/bin/quire", args: ["serve"], source: "path" },
    },
    {
      name: "extra args follow serve; non-strings are dropped",
      serverPath: "",
      args: ["-v", 3, "--log", "x"],
      host: host("linux", "/bin", [bundled]),
      want: { command: bundled, args: ["serve", "-v", "--log", "x"], source: "bundled" },
    },
    {
      name: "nothing anywhere: says so and offers the download page first, then the setting",
      serverPath: "",
      host: host("linux", "/usr/bin:/bin", []),
      err: [/^quire cannot start: this copy of the extension carries no quire program for your system, and none was found on PATH\./, /Download quire .* releases page/, /set quire\.serverPath to where you put quire\./],
      actions: ["download", "settings"],
    },
    {
      name: "a set path that is not there is an error naming the setting, not a silent fallback",
      serverPath: "/nope/quire",
      host: host("linux", "/bin", ["/bin/quire", bundled]),
      err: [/setting quire\.serverPath is "\/nope\/quire", but there is no program at \/nope\/quire\./, /clear it to use the quire that comes with the extension/],
      actions: ["settings", "download"],
    },
    {
      name: "a set bare name not on PATH says so",
      serverPath: "quire-dev",
      host: host("linux", "/bin", [bundled]),
      err: [/no program named "quire-dev" was found on PATH/],
      actions: ["settings", "download"],
    },
    {
      name: "~ expands to the home folder",
      serverPath: "~/go/bin/quire",
      host: host("linux", "", ["/home/w/go/bin/quire", bundled]),
      want: { command: "/home/w/go/bin/quire", args: ["serve"], source: "setting" },
    },
    {
      name: "windows: the bundled server is server\\quire.exe",
      serverPath: "",
      host: host("win32", "C:\\tools", [`${winExt}\\server\\quire.exe`, "C:\\tools\\quire.exe"]),
      want: { command: `${winExt}\\server\\quire.exe`, args: ["serve"], source: "bundled" },
    },
    {
      name: "windows: PATH adds PATHEXT",
      serverPath: "",
      host: host("win32", "C:\\Go\\bin;C:\\tools", ["C:\\tools\\quire.exe"], { PATHEXT: ".COM;.EXE" }),
      want: { command: "C:\\tools\\quire.exe", args: ["serve"], source: "path" },
    },
    {
      name: "windows: a set path without .exe finds the .exe",
      serverPath: "D:\\quire\\quire",
      host: host("win32", "", ["D:\\quire\\quire.exe"]),
      want: { command: "D:\\quire\\quire.exe", args: ["serve"], source: "setting" },
    },
    {
      name: "windows: nothing anywhere names quire.exe",
      serverPath: "",
      host: host("win32", "C:\\tools", []),
      err: [/where you put quire\.exe\./],
      actions: ["download", "settings"],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = resolveServer(c.serverPath, c.args ?? [], c.host);
      if (c.err) {
        assert.strictEqual(got.ok, false, JSON.stringify(got));
        const { message, actions } = got as { message: string; actions: string[] };
        for (const re of c.err) {
          assert.match(message, re);
        }
        assert.doesNotMatch(message, /go install|make install/);
        assert.deepStrictEqual(actions, c.actions);
      } else {
        assert.deepStrictEqual(got, { ok: true, ...c.want });
      }
    });
  }

  it("places the bundled server under the extension's server folder", () => {
    assert.strictEqual(bundledPath("/x/ext", "darwin"), "/x/ext/server/quire");
    assert.strictEqual(bundledPath("C:\\x\\ext", "win32"), "C:\\x\\ext\\server\\quire.exe");
  });

  it("opens the server settings where they live: the Remote tab in a remote window", () => {
    assert.deepStrictEqual(settingsCommand("quire.serverPath", undefined), { command: "workbench.action.openSettings", arg: "quire.serverPath" });
    assert.deepStrictEqual(settingsCommand("quire.serverPath", "ssh-remote"), { command: "workbench.action.openRemoteSettings", arg: { query: "quire.serverPath" } });
    assert.deepStrictEqual(settingsCommand("quire.serverArgs", "wsl"), { command: "workbench.action.openRemoteSettings", arg: { query: "quire.serverArgs" } });
    assert.deepStrictEqual(settingsCommand("quire.provider.apiKeyEnv", "wsl"), { command: "workbench.action.openSettings", arg: "quire.provider.apiKeyEnv" });
  });

  it("labels the buttons", () => {
    assert.strictEqual(actionLabel("download"), "Open download page");
    assert.strictEqual(actionLabel("settings"), "Open settings");
    assert.match(notFoundMessage("darwin"), /put quire\./);
  });

  it("words a start failure with the command, the cause and advice for where it came from", () => {
    const set = startFailedMessage("/bin/quire", "setting", new Error("spawn EACCES"));
    assert.match(set, /could not start its language server \(\/bin\/quire\): spawn EACCES\. Check the settings quire\.serverPath and quire\.serverArgs/);
    assert.match(startFailedMessage("/e/server/quire", "bundled", new Error("x")), /Reinstall the quire extension/);
    assert.match(startFailedMessage("/usr/bin/quire", "path", "boom"), /: boom\. Update or remove that quire/);
    for (const s of ["setting", "bundled", "path"] as const) {
      assert.doesNotMatch(startFailedMessage("q", s, "x"), /go install/);
    }
  });
});

describe("versionWarning", () => {
  it("reads the release a version starts with", () => {
    assert.strictEqual(releaseOf("0.3.0 (commit 0123456789ab, go1.26.8)"), "0.3.0");
    assert.strictEqual(releaseOf("v1.2.3-rc1"), "1.2.3");
    assert.strictEqual(releaseOf("(devel)"), undefined);
    assert.strictEqual(releaseOf(undefined), undefined);
  });

  it("is silent when the releases match, whatever the commit", () => {
    assert.strictEqual(versionWarning("0.3.0 (commit 0123456789ab+dirty, go1.26.8)", "0.3.0", "/e/server/quire", "bundled"), undefined);
    assert.strictEqual(versionWarning("0.3.0 (commit unknown, go1.26.8)", "0.3.0", "/usr/bin/quire", "path"), undefined);
  });

  it("names the server, both releases and what to do", () => {
    const w = versionWarning("0.2.1 (commit 0123456789ab, go1.26.8)", "0.3.0", "/home/w/go/bin/quire", "path");
    assert.ok(w);
    assert.strictEqual(
      w.message,
      "quire: the quire found on PATH (/home/w/go/bin/quire) is release 0.2.1, but this extension is release 0.3.0; some features may not work. Install quire 0.3.0 from the quire releases page, or set quire.serverPath to it.",
    );
    assert.deepStrictEqual(w.actions, ["download", "settings"]);
    const s = versionWarning("0.4.0", "0.3.0", "/opt/quire", "setting");
    assert.match(s!.message, /the quire set in quire\.serverPath \(\/opt\/quire\) is release 0\.4\.0.*clear quire\.serverPath/);
    assert.deepStrictEqual(s!.actions, ["settings", "download"]);
    assert.match(versionWarning("0.2.0", "0.3.0", "/e/server/quire", "bundled")!.message, /came with the extension.*Reinstall/);
  });

  it("warns once per server: not again after a restart of the same one", () => {
    const w = new VersionWarnings();
    assert.ok(w.next("0.2.1 (commit a)", "0.3.0", "/usr/bin/quire", "path"));
    assert.strictEqual(w.next("0.2.1 (commit a)", "0.3.0", "/usr/bin/quire", "path"), undefined);
    assert.strictEqual(w.next("0.3.0 (commit b)", "0.3.0", "/e/server/quire", "bundled"), undefined);
    assert.ok(w.next("0.4.0", "0.3.0", "/opt/quire", "setting"), "another server that differs warns");
  });

  it("warns about a server that names no release", () => {
    assert.match(versionWarning(undefined, "0.3.0", "/usr/bin/quire", "path")!.message, /does not say which release it is, but this extension is release 0\.3\.0/);
    assert.ok(versionWarning("(devel)", "0.3.0", "/usr/bin/quire", "path"));
  });
});

describe("the manifest's server settings", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const manifest = require("../../package.json") as {
    capabilities: { untrustedWorkspaces: { supported: string | boolean; restrictedConfigurations?: string[] } };
    contributes: { configuration: { properties: Record<string, { default: unknown }> } };
  };

  it("leaves quire.serverPath empty, so the bundled server is found first", () => {
    assert.strictEqual(manifest.contributes.configuration.properties["quire.serverPath"].default, "");
  });

  it("restricts the settings that name a program to run in untrusted workspaces", () => {
    const u = manifest.capabilities.untrustedWorkspaces;
    assert.strictEqual(u.supported, "limited");
    assert.deepStrictEqual([...(u.restrictedConfigurations ?? [])].sort(), ["quire.serverArgs", "quire.serverPath"]);
  });
});
