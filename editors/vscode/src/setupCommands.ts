// The commands that set the advisor up: the API key (kept in VS Code's
// secret storage and handed to the server through its environment), the
// provider, a model on this computer, and the health report. The
// walkthrough's steps run them.
import { execFile } from "child_process";
import * as path from "path";
import * as vscode from "vscode";
import { ExecuteCommandRequest } from "vscode-languageclient/node";
import { ApiKeys } from "./apiKeys";
import { errorOf } from "./chat/view";
import { healthMarkdown } from "./health";
import { keyProblem, keyUrl, knownProviders, providerLabel } from "./keys";
import { Commands, LocalModel, UseModelResult } from "./protocol";
import { Session } from "./session";
import { localModelItems, noLocalModelsMessage, providerChoices } from "./setup";
import { Views } from "./views";

export class SetupCommands implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly session: Session,
    private readonly keys: ApiKeys,
    private readonly views: Views,
  ) {
    const commands: [string, (...args: unknown[]) => unknown][] = [
      ["quire.setApiKey", (...args) => this.setApiKey(args[0])],
      ["quire.removeApiKey", () => this.removeApiKey()],
      ["quire.chooseProvider", () => this.chooseProvider()],
      ["quire.chooseLocalModel", () => this.chooseLocalModel()],
      ["quire.showHealth", () => this.showHealth()],
      ["quire.createSampleBook", () => this.createSampleBook()],
    ];
    for (const [id, fn] of commands) {
      this.disposables.push(vscode.commands.registerCommand(id, fn));
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  // settingUrl is the provider the writer's settings name, if any.
  private settingUrl(): string | undefined {
    const s = this.session.config().get<string>("provider.baseUrl") ?? "";
    return s.trim() === "" ? undefined : keyUrl(s);
  }

  /** pickProvider asks which provider a key is for; the one in the settings first. */
  private async pickProvider(): Promise<string | undefined> {
    const stored = this.keys.providers();
    const items = providerChoices(this.settingUrl(), stored);
    const pick = await vscode.window.showQuickPick(items, {
      title: "quire: Set API Key (1/2)",
      placeHolder: "Which provider is the key for?",
      ignoreFocusOut: true,
    });
    if (!pick) {
      return undefined;
    }
    if (pick.url !== undefined) {
      return pick.url;
    }
    const typed = await vscode.window.showInputBox({
      title: "quire: Set API Key (1/2)",
      prompt: "The provider's OpenAI-compatible base URL, as in quire.provider.baseUrl",
      placeHolder: "https://example.com/v1",
      ignoreFocusOut: true,
      validateInput: (v) => (keyUrl(v) === undefined || v.trim() === "" ? "Type an http or https address, e.g. https://example.com/v1" : undefined),
    });
    return typed === undefined ? undefined : keyUrl(typed);
  }

  private async setApiKey(arg: unknown): Promise<void> {
    const given = (arg as { baseUrl?: unknown } | undefined)?.baseUrl;
    const url = typeof given === "string" ? keyUrl(given) : await this.pickProvider();
    if (url === undefined) {
      return;
    }
    const known = knownProviders.find((p) => keyUrl(p.baseUrl) === url);
    const key = await vscode.window.showInputBox({
      title: "quire: Set API Key (2/2)",
      prompt: `Your API key for ${providerLabel(url)}${known ? ` (get one at ${known.keyPage})` : ""}. VS Code keeps it in its secret storage; quire never writes it to a file.`,
      password: true,
      ignoreFocusOut: true,
      validateInput: keyProblem,
    });
    if (key === undefined) {
      return;
    }
    try {
      await this.keys.set(url, key);
    } catch (e) {
      void vscode.window.showErrorMessage(`quire could not keep the key: ${errorOf(e).message}`);
      return;
    }
    // The server gets it on its restart, which the change starts.
    await this.session.keyChanged();
    void vscode.window.showInformationMessage(`quire: the key for ${providerLabel(url)} is kept in VS Code's secret storage; the advisor uses it from now on.`);
  }

  private async removeApiKey(): Promise<void> {
    const stored = this.keys.providers();
    if (stored.length === 0) {
      void vscode.window.showInformationMessage("quire: VS Code keeps no API key for quire.");
      return;
    }
    const pick = await vscode.window.showQuickPick(
      stored.map((url) => ({ label: providerLabel(url), url })),
      { title: "quire: Remove API Key", placeHolder: "Which provider's key should VS Code forget?" },
    );
    if (!pick) {
      return;
    }
    await this.keys.remove(pick.url);
    await this.session.keyChanged();
    void vscode.window.showInformationMessage(`quire: the key for ${providerLabel(pick.url)} is removed from VS Code's secret storage.`);
  }

  /** chooseProvider writes the provider into the writer's settings, then asks for its key. */
  private async chooseProvider(): Promise<void> {
    const items: (vscode.QuickPickItem & { id: string })[] = [
      ...knownProviders.map((p) => ({ label: p.name, description: p.baseUrl, detail: "Needs an API key from the provider.", id: p.name })),
      { label: "A model on this computer", description: "Ollama, LM Studio, llama.cpp, vLLM", detail: "Needs no key; nothing you write leaves the computer.", id: "local" },
    ];
    const pick = await vscode.window.showQuickPick(items, { title: "quire: Choose Provider", placeHolder: "Which model provider should the advisor ask?", ignoreFocusOut: true });
    if (!pick) {
      return;
    }
    if (pick.id === "local") {
      await this.chooseLocalModel();
      return;
    }
    const p = knownProviders.find((k) => k.name === pick.id)!;
    const model = await vscode.window.showInputBox({
      title: `quire: Choose Provider: ${p.name}`,
      prompt: `The model ${p.name} should run`,
      value: p.model,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === "" ? "Name a model." : undefined),
    });
    if (model === undefined) {
      return;
    }
    const cfg = this.session.config();
    await cfg.update("provider.baseUrl", p.baseUrl, vscode.ConfigurationTarget.Global);
    await cfg.update("provider.model", model.trim(), vscode.ConfigurationTarget.Global);
    const url = keyUrl(p.baseUrl)!;
    if (this.keys.providers().includes(url)) {
      void vscode.window.showInformationMessage(`quire: the advisor asks ${model.trim()} on ${p.name}, with the key VS Code keeps for it.`);
      return;
    }
    await this.setApiKey({ baseUrl: p.baseUrl });
  }

  private async chooseLocalModel(): Promise<void> {
    let models: LocalModel[];
    try {
      models = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: "quire: looking for models on this computer" }, () =>
        this.session.localModels(),
      );
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: cannot look for models on this computer: ${errorOf(e).message}`);
      return;
    }
    if (models.length === 0) {
      void vscode.window.showInformationMessage(noLocalModelsMessage, "Open Ollama's page").then((a) => {
        if (a) {
          void vscode.env.openExternal(vscode.Uri.parse("https://ollama.com/download"));
        }
      });
      return;
    }
    const pick = await vscode.window.showQuickPick(localModelItems(models), {
      title: "quire: Choose Local Model",
      placeHolder: "Which model on this computer should the advisor ask? It needs no key.",
      matchOnDescription: true,
    });
    if (!pick) {
      return;
    }
    let r: UseModelResult;
    try {
      r = await this.session.running().sendRequest(ExecuteCommandRequest.type, {
        command: Commands.useModel,
        arguments: [{ baseURL: pick.model.baseURL, model: pick.model.model }],
      });
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: the model was not chosen: ${errorOf(e).message}`);
      return;
    }
    // VS Code's provider settings come before config.yaml: where the
    // writer set them, they take the choice too, or it would not count.
    const cfg = this.session.config();
    for (const [k, v] of [
      ["provider.baseUrl", r.baseURL],
      ["provider.model", r.model],
    ] as const) {
      const i = cfg.inspect<string>(k);
      if (i?.workspaceValue) {
        await cfg.update(k, v, vscode.ConfigurationTarget.Workspace);
      }
      if (i?.globalValue) {
        await cfg.update(k, v, vscode.ConfigurationTarget.Global);
      }
    }
    await this.session.refreshAdvisor();
  }

  /** createSampleBook writes the sample book (quire init --sample) where the writer says, and opens it. */
  private async createSampleBook(): Promise<void> {
    const res = this.session.resolve();
    if (!res.ok) {
      void vscode.window.showErrorMessage(res.message);
      return;
    }
    const where = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      canSelectMany: false,
      title: "quire: where should the sample book go?",
      openLabel: "Put the sample book here",
    });
    if (!where || where.length === 0) {
      return;
    }
    const dir = path.join(where[0].fsPath, "the-thirteenth-bell");
    const failed = await new Promise<string | undefined>((resolve) =>
      execFile(res.command, ["init", "--sample", dir], { timeout: 30_000 }, (err, _stdout, stderr) =>
        resolve(err ? (stderr.trim() || err.message).replace(/^Error:\s*/, "") : undefined),
      ),
    );
    if (failed !== undefined) {
      void vscode.window.showErrorMessage(`quire could not write the sample book: ${failed}`);
      return;
    }
    await vscode.commands.executeCommand("vscode.openFolder", vscode.Uri.file(dir));
  }

  private async showHealth(): Promise<void> {
    let checks;
    try {
      checks = (await this.session.refreshAdvisor())?.checks;
      if (checks === undefined) {
        checks = (await this.session.doctor()).checks;
      }
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: no health report: ${errorOf(e).message}`);
      return;
    }
    await this.views.showHealth(healthMarkdown(checks ?? []));
  }
}
