// Finds the quire binary, words the errors a writer sees when it cannot
// be started, and the warning when it is another release than the
// extension. Pure: the file system and environment are passed in.
import * as path from "path";

/** downloadPage is where a writer finds quire for their system. */
export const downloadPage = "https://github.com/quire-ink/quire/releases";

export interface Host {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  homedir: string;
  /** extensionPath is the installed extension's folder, which holds server/ in a platform build. */
  extensionPath: string;
  // isExecutable reports whether path is a regular file the user may run.
  isExecutable: (p: string) => boolean;
}

/** Source says where the server was found, for the messages that name it. */
export type Source = "setting" | "bundled" | "path";

/** Action is a button on a message: what it opens. */
export type Action = "download" | "settings";

/** actionLabel is the button text of a message's action. */
export function actionLabel(a: Action): string {
  return a === "download" ? "Open download page" : "Open settings";
}

/**
 * settingsCommand is the command (and its argument) that shows setting in
 * the Settings editor. quire.serverPath and quire.serverArgs are machine
 * settings: in a remote window (code-server, SSH, WSL: remoteName set)
 * they are on the Remote tab, and the User tab would say "No Settings
 * Found". The remote command takes its search only as { query }.
 */
export function settingsCommand(setting: string, remoteName: string | undefined): { command: string; arg: string | { query: string } } {
  if (remoteName && /^quire\.server(Path|Args)$/.test(setting)) {
    return { command: "workbench.action.openRemoteSettings", arg: { query: setting } };
  }
  return { command: "workbench.action.openSettings", arg: setting };
}

export type Resolution =
  | { ok: true; command: string; args: string[]; source: Source }
  | { ok: false; message: string; actions: Action[] };

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

/** bundledPath is where a platform build of the extension carries the server. */
export function bundledPath(extensionPath: string, platform: NodeJS.Platform): string {
  const join = platform === "win32" ? path.win32.join : path.posix.join;
  return join(extensionPath, "server", platform === "win32" ? "quire.exe" : "quire");
}

function onPath(name: string, host: Host): string | undefined {
  const pathVar = host.env.PATH ?? host.env.Path ?? "";
  const sep = host.platform === "win32" ? ";" : ":";
  const join = host.platform === "win32" ? path.win32.join : path.posix.join;
  for (const dir of pathVar.split(sep)) {
    if (dir === "") {
      continue;
    }
    const found = candidates(join(dir, name), host).find((c) => host.isExecutable(c));
    if (found !== undefined) {
      return found;
    }
  }
  return undefined;
}

/**
 * resolveServer picks the server to spawn, in this order: quire.serverPath
 * when the writer set one, the binary bundled with the extension, quire on
 * PATH. The search happens here, not in the spawn, so a missing binary is
 * reported before the client starts and retries. A setting that names no
 * runnable file is an error, not a reason to fall back: the writer asked
 * for that program and should hear that it is not there.
 */
export function resolveServer(serverPath: unknown, serverArgs: unknown, host: Host): Resolution {
  const setting = typeof serverPath === "string" ? serverPath.trim() : "";
  const extra = Array.isArray(serverArgs) ? serverArgs.filter((a): a is string => typeof a === "string") : [];
  const args = ["serve", ...extra];
  if (setting !== "") {
    const p = expandHome(setting, host.homedir);
    const found = hasDirectory(p, host.platform) ? candidates(p, host).find((c) => host.isExecutable(c)) : onPath(p, host);
    if (found === undefined) {
      return { ok: false, message: settingMissingMessage(setting, p, hasDirectory(p, host.platform)), actions: ["settings", "download"] };
    }
    return { ok: true, command: found, args, source: "setting" };
  }
  const bundled = bundledPath(host.extensionPath, host.platform);
  if (host.isExecutable(bundled)) {
    return { ok: true, command: bundled, args, source: "bundled" };
  }
  const found = onPath("quire", host);
  if (found !== undefined) {
    return { ok: true, command: found, args, source: "path" };
  }
  return { ok: false, message: notFoundMessage(host.platform), actions: ["download", "settings"] };
}

/** settingMissingMessage: quire.serverPath names a program that is not there. */
export function settingMissingMessage(setting: string, expanded: string, isPath: boolean): string {
  const where = isPath ? `there is no program at ${expanded}` : `no program named "${expanded}" was found on PATH`;
  return (
    `quire cannot start: the setting quire.serverPath is "${setting}", but ${where}. ` +
    `Correct the setting, or clear it to use the quire that comes with the extension.`
  );
}

/** notFoundMessage: no setting, no bundled server (the universal extension), nothing on PATH. */
export function notFoundMessage(platform: NodeJS.Platform): string {
  const name = platform === "win32" ? "quire.exe" : "quire";
  return (
    `quire cannot start: this copy of the extension carries no quire program for your system, and none was found on PATH. ` +
    `Download quire for your system from the quire releases page and set quire.serverPath to where you put ${name}.`
  );
}

/** startFailedMessage is the text shown when the binary exists but the client could not start it. */
export function startFailedMessage(command: string, source: Source, err: unknown): string {
  const detail = err instanceof Error ? err.message : String(err);
  const advice: Record<Source, string> = {
    setting: "Check the settings quire.serverPath and quire.serverArgs, or clear quire.serverPath to use the quire that comes with the extension.",
    bundled: "Reinstall the quire extension, or download quire from the quire releases page and set quire.serverPath to it.",
    path: "Update or remove that quire, or download quire from the quire releases page and set quire.serverPath to it.",
  };
  return `quire could not start its language server (${command}): ${detail}. ${advice[source]} The "quire" output channel has the server's log.`;
}

/** releaseOf is the release number (1.2.3) a version string starts with, if any. */
export function releaseOf(version: string | undefined): string | undefined {
  return /^v?(\d+\.\d+\.\d+)/.exec(version?.trim() ?? "")?.[1];
}

/**
 * versionWarning is the warning to show when the server's release (the
 * leading number of serverInfo.version) differs from the extension's, or
 * undefined when they match. A server that names no release is an old or
 * a foreign one and is warned about too.
 */
export function versionWarning(serverVersion: string | undefined, extensionVersion: string, command: string, source: Source): { message: string; actions: Action[] } | undefined {
  const server = releaseOf(serverVersion);
  if (server !== undefined && server === releaseOf(extensionVersion)) {
    return undefined;
  }
  const which: Record<Source, string> = {
    setting: `the quire set in quire.serverPath (${command})`,
    bundled: `the quire that came with the extension (${command})`,
    path: `the quire found on PATH (${command})`,
  };
  const what: Record<Source, string> = {
    setting: `Install quire ${extensionVersion}, or clear quire.serverPath to use the quire that comes with the extension.`,
    bundled: "Reinstall the quire extension.",
    path: `Install quire ${extensionVersion} from the quire releases page, or set quire.serverPath to it.`,
  };
  const is = server === undefined ? "does not say which release it is" : `is release ${server}`;
  return {
    message: `quire: ${which[source]} ${is}, but this extension is release ${extensionVersion}; some features may not work. ${what[source]}`,
    actions: source === "bundled" ? [] : source === "setting" ? ["settings", "download"] : ["download", "settings"],
  };
}

/**
 * VersionWarnings hands out a version warning once: a restart of the
 * same server (same program, same version) does not warn again; another
 * server that differs does.
 */
export class VersionWarnings {
  private last?: string;

  next(serverVersion: string | undefined, extensionVersion: string, command: string, source: Source): { message: string; actions: Action[] } | undefined {
    const w = versionWarning(serverVersion, extensionVersion, command, source);
    const key = `${command}\u0000${serverVersion ?? ""}`;
    if (w === undefined || this.last === key) {
      return undefined;
    }
    this.last = key;
    return w;
  }
}
