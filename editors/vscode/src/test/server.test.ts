import * as assert from "assert";
import { Host, resolveServer, startFailedMessage } from "../server";

function host(platform: NodeJS.Platform, pathVar: string, files: string[], extra: Record<string, string> = {}): Host {
  return { platform, env: { PATH: pathVar, ...extra }, homedir: platform === "win32" ? "C:\\Users\\w" : "/home/w", isExecutable: (p) => files.includes(p) };
}

describe("resolveServer", () => {
  const cases: {
    name: string;
    serverPath: unknown;
    args?: unknown;
    host: Host;
    want?: { command: string; args: string[] };
    err?: RegExp;
  }[] = [
    {
      name: "default name found on PATH, first match wins",
      serverPath: "quire",
      host: host("linux", "/usr/bin:/home/w/go/bin:/opt/bin", ["/home/w/go/bin/quire", "/opt/bin/quire"]),
      want: { command: "/home/w/go/bin/quire", args: ["serve"] },
    },
    {
      name: "empty setting means quire",
      serverPath: "  ",
      host: host("linux", "/bin", ["/bin/quire"]),
      want: { command: "/bin/quire", args: ["serve"] },
    },
    {
      name: "extra args follow serve; non-strings are dropped",
      serverPath: "quire",
      args: ["-v", 3, "--log", "x"],
      host: host("linux", "/bin", ["/bin/quire"]),
      want: { command: "/bin/quire", args: ["serve", "-v", "--log", "x"] },
    },
    {
      name: "missing on PATH names the install commands",
      serverPath: "quire",
      host: host("linux", "/usr/bin:/bin", []),
      err: /not found on PATH.*go install github\.com\/quire-ink\/quire\/cmd\/quire@latest.*make install/,
    },
    {
      name: "an absolute path is used as is",
      serverPath: "/opt/quire/bin/quire",
      host: host("linux", "", ["/opt/quire/bin/quire"]),
      want: { command: "/opt/quire/bin/quire", args: ["serve"] },
    },
    {
      name: "a missing absolute path is reported with the setting",
      serverPath: "/nope/quire",
      host: host("linux", "/bin", ["/bin/quire"]),
      err: /\/nope\/quire does not exist.*current value: "\/nope\/quire"/,
    },
    {
      name: "~ expands to the home folder",
      serverPath: "~/go/bin/quire",
      host: host("linux", "", ["/home/w/go/bin/quire"]),
      want: { command: "/home/w/go/bin/quire", args: ["serve"] },
    },
    {
      name: "windows adds PATHEXT",
      serverPath: "quire",
      host: host("win32", "C:\\Go\\bin;C:\\tools", ["C:\\tools/quire.exe"], { PATHEXT: ".COM;.EXE" }),
      want: { command: "C:\\tools/quire.exe", args: ["serve"] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = resolveServer(c.serverPath, c.args ?? [], c.host);
      if (c.err) {
        assert.strictEqual(got.ok, false);
        assert.match((got as { message: string }).message, c.err);
      } else {
        assert.deepStrictEqual(got, { ok: true, ...c.want });
      }
    });
  }

  it("words a start failure with the command and the cause", () => {
    const m = startFailedMessage("/bin/quire", new Error("spawn EACCES"));
    assert.match(m, /"\/bin\/quire" failed to start: spawn EACCES/);
    assert.match(m, /quire\.serverPath/);
  });
});
