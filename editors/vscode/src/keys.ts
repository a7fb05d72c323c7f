// The writer's API keys as the extension keeps them: one per provider,
// in VS Code's secret storage, named by the provider's base URL, and
// handed to the server only through the environment of the process the
// extension starts (never its settings or initializationOptions, which
// the trace logs). Pure: the secret storage and settings are passed in.

/** editorKeyEnv and editorBaseUrlEnv are the variables quire serve reads (llm/keys.EditorKeyEnv). */
export const editorKeyEnv = "QUIRE_EDITOR_API_KEY";
export const editorBaseUrlEnv = "QUIRE_EDITOR_API_BASE_URL";

/** openAIBaseUrl is OpenAI's API root, quire's default provider. */
export const openAIBaseUrl = "https://api.openai.com/v1";

/** KnownProvider is a provider the key and provider pickers offer by name. */
export interface KnownProvider {
  name: string;
  baseUrl: string;
  /** model is the model name the provider picker suggests. */
  model: string;
  /** keyPage is where the writer gets a key. */
  keyPage: string;
}

export const knownProviders: KnownProvider[] = [
  { name: "OpenAI", baseUrl: openAIBaseUrl, model: "gpt-4.1-mini", keyPage: "https://platform.openai.com/api-keys" },
  { name: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1", model: "openai/gpt-4.1-mini", keyPage: "https://openrouter.ai/keys" },
];

/**
 * keyUrl is the base URL a key is kept under, written one way (scheme and
 * host in lower case, the scheme's own port left out, no trailing slash,
 * no user, query or fragment), so that two spellings of one server find
 * one key; "" is OpenAI's, as for the server. undefined: not an http(s)
 * URL, which no key belongs to. quire serve compares the URL it is
 * handed the same way (llm/keys.Normalize).
 */
export function keyUrl(base: string): string | undefined {
  const s = base.trim() === "" ? openAIBaseUrl : base.trim();
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return undefined;
  }
  if ((u.protocol !== "http:" && u.protocol !== "https:") || u.hostname === "") {
    return undefined;
  }
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}`;
}

/** secretName is the secret storage key of the key kept for url (a keyUrl). */
export function secretName(url: string): string {
  return `quire.apiKey:${url}`;
}

/** urlOfSecret is the provider URL a secret storage key names, if it is one of quire's keys. */
export function urlOfSecret(name: string): string | undefined {
  return name.startsWith("quire.apiKey:") ? name.slice("quire.apiKey:".length) : undefined;
}

/** providerLabel names a provider's URL for the writer: "OpenRouter (https://…)" or the URL. */
export function providerLabel(url: string): string {
  const known = knownProviders.find((p) => keyUrl(p.baseUrl) === url);
  return known ? `${known.name} (${url})` : url;
}

/**
 * keyToHand says which stored key goes to the server, which can take one:
 * the key for the base URL in the quire.provider.baseUrl setting when one
 * is stored, else the key the writer set last. stored are the URLs keys
 * are kept for; undefined when none is.
 */
export function keyToHand(settingBaseUrl: string | undefined, stored: readonly string[], lastSet: string | undefined): string | undefined {
  const configured = settingBaseUrl && settingBaseUrl.trim() !== "" ? keyUrl(settingBaseUrl) : undefined;
  if (configured !== undefined && stored.includes(configured)) {
    return configured;
  }
  if (lastSet !== undefined && stored.includes(lastSet)) {
    return lastSet;
  }
  return stored.length > 0 ? stored[stored.length - 1] : undefined;
}

/**
 * serverEnv is the environment of the quire serve the extension starts:
 * the extension host's, with the editor's key and its provider's URL
 * when there is one. Variables of those names inherited from the shell
 * are dropped, so the server holds only the key the writer set here.
 */
export function serverEnv(base: Record<string, string | undefined>, key?: { url: string; key: string }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined && k !== editorKeyEnv && k !== editorBaseUrlEnv) {
      env[k] = v;
    }
  }
  if (key && key.key !== "") {
    env[editorKeyEnv] = key.key;
    env[editorBaseUrlEnv] = key.url;
  }
  return env;
}

/** keyProblem says what is wrong with a pasted key, or undefined when it looks usable. */
export function keyProblem(value: string): string | undefined {
  const v = value.trim();
  if (v === "") {
    return "Paste the key your provider gave you.";
  }
  if (/\s/.test(v)) {
    return "A key has no spaces or line breaks: paste the key alone.";
  }
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(v) && v === v.toUpperCase() && v.includes("_")) {
    return "This looks like the name of a variable, not a key: paste the key itself.";
  }
  return undefined;
}

/** addUrl and removeUrl keep the list of URLs that have a stored key, the newest last. */
export function addUrl(stored: readonly string[], url: string): string[] {
  return [...stored.filter((u) => u !== url), url];
}

export function removeUrl(stored: readonly string[], url: string): string[] {
  return stored.filter((u) => u !== url);
}
