// What the setup commands offer the writer: the providers a key may be
// for, and the models running on this computer. Pure.
import { keyUrl, knownProviders } from "./keys";
import { LocalModel } from "./protocol";

export interface ProviderChoice {
  label: string;
  description?: string;
  /** url is the provider's key URL; undefined for "another server", which asks for one. */
  url?: string;
}

/**
 * providerChoices lists the providers a key may be for: the one the
 * quire.provider.baseUrl setting names first (the key the advisor needs
 * now), then OpenAI and OpenRouter, then another server. A provider that
 * already has a key says so.
 */
export function providerChoices(settingUrl: string | undefined, stored: readonly string[]): ProviderChoice[] {
  const has = (url: string) => (stored.includes(url) ? " · a key is kept (setting one replaces it)" : "");
  const out: ProviderChoice[] = [];
  const known = knownProviders.map((p) => ({ ...p, url: keyUrl(p.baseUrl)! }));
  if (settingUrl !== undefined) {
    const k = known.find((p) => p.url === settingUrl);
    out.push({ label: `The provider in your settings: ${k ? k.name : settingUrl}`, description: settingUrl + has(settingUrl), url: settingUrl });
  }
  for (const p of known) {
    if (p.url !== settingUrl) {
      out.push({ label: p.name, description: p.url + has(p.url), url: p.url });
    }
  }
  out.push({ label: "Another server…", description: "type its base URL" });
  return out;
}

/** localModelItems are the quick pick's rows for the local models, with the model they choose. */
export function localModelItems(models: readonly LocalModel[]): { label: string; description: string; model: LocalModel }[] {
  return models.map((m) => ({ label: m.model, description: `${m.server} · ${m.baseURL}`, model: m }));
}

/** noLocalModelsMessage is what the writer reads when no server on this computer answered. */
export const noLocalModelsMessage =
  "quire found no model server running on this computer (it looks for Ollama, LM Studio, llama.cpp and vLLM at their usual ports). " +
  "To use Ollama: install it from ollama.com, start it (ollama serve), fetch a model (ollama pull llama3.2), then run quire: Choose Local Model again.";
