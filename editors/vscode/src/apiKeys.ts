// The writer's API keys in VS Code's secret storage (the system keychain
// on the desktop), one per provider base URL, and the list of providers
// that have one (not secret) in the global state, since secret storage
// cannot list its keys. Nothing here logs or shows a key.
import { createHash } from "crypto";
import * as vscode from "vscode";
import { addUrl, keyToHand, removeUrl, secretName, urlOfSecret } from "./keys";

const storedKey = "quire.apiKey.providers";
const lastKey = "quire.apiKey.last";

/** HandedKey is the key the server gets and the provider URL it is for. */
export interface HandedKey {
  url: string;
  key: string;
}

export class ApiKeys implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.changed];

  /** onDidChange fires when a key of quire's changes, here or in another window. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.disposables.push(
      context.secrets.onDidChange((e) => {
        if (urlOfSecret(e.key) !== undefined) {
          this.changed.fire();
        }
      }),
    );
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  /** providers are the URLs a key is stored for, the newest last. */
  providers(): string[] {
    return this.context.globalState.get<string[]>(storedKey) ?? [];
  }

  async set(url: string, key: string): Promise<void> {
    await this.context.secrets.store(secretName(url), key.trim());
    await this.context.globalState.update(storedKey, addUrl(this.providers(), url));
    await this.context.globalState.update(lastKey, url);
    this.changed.fire();
  }

  async remove(url: string): Promise<void> {
    await this.context.secrets.delete(secretName(url));
    await this.context.globalState.update(storedKey, removeUrl(this.providers(), url));
    if (this.context.globalState.get<string>(lastKey) === url) {
      await this.context.globalState.update(lastKey, undefined);
    }
    this.changed.fire();
  }

  /**
   * handed is the key the server is to get, for the provider the setting
   * quire.provider.baseUrl names when a key is kept for it, else for the
   * one whose key was set last. A key another window removed is dropped
   * from the list here.
   */
  async handed(settingBaseUrl: string | undefined): Promise<HandedKey | undefined> {
    const stored = this.providers();
    const url = keyToHand(settingBaseUrl, stored, this.context.globalState.get<string>(lastKey));
    if (url === undefined) {
      return undefined;
    }
    const key = await this.context.secrets.get(secretName(url));
    if (!key) {
      await this.context.globalState.update(storedKey, removeUrl(stored, url));
      return this.handed(settingBaseUrl);
    }
    return { url, key };
  }
}

/** fingerprint tells two handed keys apart without keeping the key itself. */
export function fingerprint(h: HandedKey | undefined): string {
  return h ? `${h.url}\u0000${createHash("sha256").update(h.key).digest("hex")}` : "";
}
