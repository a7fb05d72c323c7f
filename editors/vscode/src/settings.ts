// Maps the extension's settings to what the server reads. Pure: callers
// pass a getter over vscode.workspace.getConfiguration("quire").

export type ConfigGetter = (key: string) => unknown;

export interface ProviderOptions {
  base_url?: string;
  model?: string;
  api_key_env?: string;
  api?: "chat" | "responses";
  tools?: boolean;
  tool_calling?: "reliable" | "best_effort" | "none";
}

export interface DialogueOptions {
  highlight?: boolean;
  speakerHints?: boolean;
}

export interface ServerSettings {
  provider?: ProviderOptions;
  persona?: string;
  dialogue?: DialogueOptions;
}

export interface SettingsResult {
  settings: ServerSettings;
  // Problems the writer should hear about; the offending value is dropped.
  warnings: string[];
}

const envNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

// Shapes of real API keys. A writer who pastes a key into apiKeyEnv would
// otherwise have it written to settings.json and sent over the wire.
const keyLike = /^(sk-|sk_|xai-|gsk_|AIza)|^[A-Za-z0-9_-]{40,}$/;

function str(get: ConfigGetter, key: string): string | undefined {
  const v = get(key);
  if (typeof v !== "string") {
    return undefined;
  }
  const t = v.trim();
  return t === "" ? undefined : t;
}

function oneOf<T extends string>(v: string | undefined, allowed: readonly T[]): T | undefined {
  return v !== undefined && (allowed as readonly string[]).includes(v) ? (v as T) : undefined;
}

/** serverSettings reads provider and persona settings, leaving out what is unset. */
export function serverSettings(get: ConfigGetter): SettingsResult {
  const warnings: string[] = [];
  const provider: ProviderOptions = {};
  const baseUrl = str(get, "provider.baseUrl");
  if (baseUrl !== undefined) {
    provider.base_url = baseUrl;
  }
  const model = str(get, "provider.model");
  if (model !== undefined) {
    provider.model = model;
  }
  const keyEnv = str(get, "provider.apiKeyEnv");
  if (keyEnv !== undefined) {
    if (keyLike.test(keyEnv) && !/^[A-Z0-9_]+$/.test(keyEnv)) {
      warnings.push(
        "quire.provider.apiKeyEnv looks like an API key. It must be the NAME of an environment variable (e.g. OPENAI_API_KEY); the value was not sent. Remove the key from your settings.",
      );
    } else if (!envNamePattern.test(keyEnv)) {
      warnings.push(`quire.provider.apiKeyEnv "${keyEnv}" is not an environment variable name; it was not sent.`);
    } else {
      provider.api_key_env = keyEnv;
    }
  }
  const api = oneOf(str(get, "provider.api"), ["chat", "responses"] as const);
  if (api !== undefined) {
    provider.api = api;
  }
  const tools = get("provider.tools");
  if (typeof tools === "boolean") {
    provider.tools = tools;
  }
  const toolCalling = oneOf(str(get, "provider.toolCalling"), ["reliable", "best_effort", "none"] as const);
  if (toolCalling !== undefined) {
    provider.tool_calling = toolCalling;
  }
  const settings: ServerSettings = {};
  if (Object.keys(provider).length > 0) {
    settings.provider = provider;
  }
  const persona = str(get, "persona");
  if (persona !== undefined) {
    settings.persona = persona;
  }
  const dialogue: DialogueOptions = {};
  const highlight = get("dialogue.highlight");
  if (typeof highlight === "boolean") {
    dialogue.highlight = highlight;
  }
  const hints = get("dialogue.speakerHints");
  if (typeof hints === "boolean") {
    dialogue.speakerHints = hints;
  }
  if (Object.keys(dialogue).length > 0) {
    settings.dialogue = dialogue;
  }
  return { settings, warnings };
}

/** didChangeConfigurationParams wraps settings the way the server reads them on change. */
export function didChangeConfigurationParams(settings: ServerSettings): { settings: { quire: ServerSettings } } {
  return { settings: { quire: settings } };
}

/** Settings that only change how the chat looks; never sent to the server. */
export const displaySettings = ["chat.showToolRows", "chat.showRouting", "chat.showPeekButton"] as const;

/** Settings the server reads; a change is sent as workspace/didChangeConfiguration. */
export const serverSettingKeys = [
  "provider.baseUrl",
  "provider.model",
  "provider.apiKeyEnv",
  "provider.api",
  "provider.tools",
  "provider.toolCalling",
  "persona",
  "dialogue.highlight",
  "dialogue.speakerHints",
] as const;

/** Settings that take effect only when the server process is started again. */
export const restartSettingKeys = ["serverPath", "serverArgs"] as const;

export type ChangeKind = "restart" | "server" | "display";

/**
 * changeKinds says what a configuration change needs, given a predicate
 * over full keys ("quire.provider.model") such as
 * ConfigurationChangeEvent.affectsConfiguration.
 */
export function changeKinds(affects: (section: string) => boolean): Set<ChangeKind> {
  const out = new Set<ChangeKind>();
  if (restartSettingKeys.some((k) => affects(`quire.${k}`))) {
    out.add("restart");
  }
  if (serverSettingKeys.some((k) => affects(`quire.${k}`))) {
    out.add("server");
  }
  if (displaySettings.some((k) => affects(`quire.${k}`))) {
    out.add("display");
  }
  return out;
}

export interface DisplaySettings {
  showToolRows: boolean;
  showRouting: boolean;
  showPeekButton: boolean;
}

export function displaySettingsOf(get: ConfigGetter): DisplaySettings {
  const bool = (key: string, dflt: boolean): boolean => {
    const v = get(key);
    return typeof v === "boolean" ? v : dflt;
  };
  return {
    showToolRows: bool("chat.showToolRows", true),
    showRouting: bool("chat.showRouting", false),
    showPeekButton: bool("chat.showPeekButton", true),
  };
}
