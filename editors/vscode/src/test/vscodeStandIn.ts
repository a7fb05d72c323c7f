// A stand-in for the vscode module, enough for vscode-languageclient's
// constructor, which only wires features up; it records command
// registrations. With it the tests build the real QuireLanguageClient
// outside VS Code and read what it registers and declares.
import Module from "module";
import type { ClientCapabilities } from "vscode-languageclient";

export const registered: string[] = [];

/**
 * standIn is a stand-in for any API: every property is another stand-in,
 * calls and constructions return one. special, when it answers (not
 * undefined), gives a property its own value.
 */
export function standIn(name: string, special?: (name: string, p: string | symbol) => unknown): unknown {
  const fn = function () {
    return standIn(name + "()", special);
  };
  return new Proxy(fn, {
    get(_t, p) {
      if (p === Symbol.toPrimitive) {
        return () => name;
      }
      if (p === "then") {
        return undefined;
      }
      const own = special?.(name, p);
      return own !== undefined ? own : standIn(`${name}.${String(p)}`, special);
    },
    construct() {
      return standIn(`new ${name}`, special) as object;
    },
  });
}

// What the language client reads of vscode: its version, and the
// commands it registers, recorded.
function clientSpecial(name: string, p: string | symbol): unknown {
  if (name === "vscode" && p === "version") {
    return "1.85.0";
  }
  if (name === "vscode.commands" && p === "registerCommand") {
    return (id: string) => {
      registered.push(id);
      return { dispose: () => undefined };
    };
  }
  return undefined;
}

/** withVscode runs fn while require("vscode") yields the stand-in. */
export function withVscode<T>(fn: () => T): T {
  const mod = Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown };
  const load = mod._load;
  const vscode = standIn("vscode", clientSpecial);
  mod._load = (req: string, ...rest: unknown[]) => (req === "vscode" ? vscode : load(req, ...rest));
  try {
    return fn();
  } finally {
    mod._load = load;
  }
}

/** quireClient builds the extension's language client against the stand-in. */
export function quireClient(): import("../client").QuireLanguageClient {
  return withVscode(() => {
    // Loaded here, after the vscode stand-in is in place.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { QuireLanguageClient } = require("../client") as typeof import("../client");
    return new QuireLanguageClient({ command: "quire", args: ["serve"] }, {});
  });
}

/** clientCapabilities is what the extension declares in initialize, as JSON. */
export function clientCapabilities(): ClientCapabilities {
  const client = quireClient() as unknown as { computeClientCapabilities(): ClientCapabilities };
  return JSON.parse(JSON.stringify(withVscode(() => client.computeClientCapabilities()))) as ClientCapabilities;
}
