// Finds the quire binary and words the errors a writer sees when it
// cannot be started. Pure: the file system and environment are passed in.
import * as path from "path";

export const installHints = [
  "go install github.com/quire-ink/quire/cmd/quire@latest",
  "make install (in a clone of the quire repository)",
];

export interface Host {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  homedir: string;
  // isExecutable reports whether path is a regular file the user may run.
  isExecutable: (p: string) => boolean;
}

export type Resolution =
  | { ok: true; command: string; args: string[] }
  | { ok: false; message: string };

function expandHome(p: string, home: string): string {
  if (p === "~") {
    return home;
  }
  if (p.startsWith("~/") || p.startsWith("~\\")) {
    return path.join(home, p.slice(2));
  }
  return p;
}

function hasDirectory(p: string, platform: NodeJS.Platform): boolean {
  return p.includes("/") || (platform === "win32" && p.includes("\\"));
}

function candidates(base: string, host: Host): string[] {
  if (host.platform !== "win32") {
    return [base];
  }
  const exts = (host.env.PATHEXT ?? ".EXE;.CMD;.BAT;.COM").split(";").filter((e) => e !== "");
  const lower = base.toLowerCase();
  if (exts.some((e) => lower.endsWith(e.toLowerCase()))) {
    return [base];
  }
  return [base, ...exts.map((e) => base + e.toLowerCase())];
}

/**
 * resolveServer turns quire.serverPath and quire.serverArgs into the
 * command to spawn. A bare name is searched on PATH here, not by the
 * spawn, so a missing binary is reported before the client starts and
 * retries.
 */
export function resolveServer(serverPath: unknown, serverArgs: unknown, host: Host): Resolution {
  const raw = typeof serverPath === "string" && serverPath.trim() !== "" ? serverPath.trim() : "quire";
  const extra = Array.isArray(serverArgs) ? serverArgs.filter((a): a is string => typeof a === "string") : [];
  const args = ["serve", ...extra];
  const p = expandHome(raw, host.homedir);
  if (hasDirectory(p, host.platform)) {
    const found = candidates(p, host).find((c) => host.isExecutable(c));
    if (found === undefined) {
      return { ok: false, message: missingMessage(raw, `${p} does not exist or is not executable`) };
    }
    return { ok: true, command: found, args };
  }
  const pathVar = host.env.PATH ?? host.env.Path ?? "";
  const sep = host.platform === "win32" ? ";" : ":";
  for (const dir of pathVar.split(sep)) {
    if (dir === "") {
      continue;
    }
    const found = candidates(path.join(dir, p), host).find((c) => host.isExecutable(c));
    if (found !== undefined) {
      return { ok: true, command: found, args };
    }
  }
  return { ok: false, message: missingMessage(raw, `"${p}" was not found on PATH`) };
}

/** missingMessage is the text shown when the binary cannot be found. */
export function missingMessage(setting: string, reason: string): string {
  return (
    `quire: cannot start the language server (${reason}). ` +
    `Install it with \`${installHints[0]}\` or \`${installHints[1]}\`, ` +
    `then set quire.serverPath if it is not on PATH (current value: "${setting}").`
  );
}

/** startFailedMessage is the text shown when the binary exists but the client could not start it. */
export function startFailedMessage(command: string, err: unknown): string {
  const detail = err instanceof Error ? err.message : String(err);
  return (
    `quire: the language server "${command}" failed to start: ${detail}. ` +
    `Check quire.serverPath and quire.serverArgs, and that the binary is a current quire ` +
    `(\`${installHints[0]}\`). The "quire" output channel has the server's log.`
  );
}
