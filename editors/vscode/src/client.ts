// The language client, with two changes to vscode-languageclient's
// behaviour: it does not register VS Code commands for the server
// commands the extension handles itself (see clientOwnedCommands), and it
// does not declare change annotations in workspace edits (see
// noChangeAnnotations).
import {
  DynamicFeature,
  LanguageClient,
  LanguageClientOptions,
  RegistrationData,
  ServerOptions,
  StaticFeature,
} from "vscode-languageclient/node";
import { ClientCapabilities, ExecuteCommandRegistrationOptions } from "vscode-languageclient";
import { serverCommandsToRegister } from "./commands";

// A server that may annotate an edit with needsConfirmation (quire does,
// for a proposal) makes VS Code open its Refactor Preview with the edit
// unticked: pressing Apply there applies nothing. The writer already
// confirmed by pressing Apply on the proposal, after seeing its diff, so
// the extension declares no change annotations and the edit goes
// straight into the buffer, unsaved, for the writer to review and save.
const noChangeAnnotations: StaticFeature = {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    delete capabilities.workspace?.workspaceEdit?.changeAnnotationSupport;
  },
  initialize(): void {},
  getState: () => ({ kind: "static" }),
  clear(): void {},
};

export class QuireLanguageClient extends LanguageClient {
  constructor(serverOptions: ServerOptions, clientOptions: LanguageClientOptions) {
    super("quire", "quire", serverOptions, clientOptions);
    // Registered after the built-in features, so it runs after them.
    this.registerFeature(noChangeAnnotations);
  }

  // Called from the base constructor for every built-in feature. The
  // execute-command feature registers each server command with
  // vscode.commands.registerCommand, which throws for an id the
  // extension already registered (quire.applyProposal, …); filtering its
  // registrations keeps both the initialize-time and any dynamic ones
  // from colliding.
  override registerFeature(feature: StaticFeature | DynamicFeature<unknown>): void {
    const dyn = feature as DynamicFeature<ExecuteCommandRegistrationOptions>;
    if (DynamicFeature.is(feature) && dyn.registrationType.method === "workspace/executeCommand") {
      const register = dyn.register.bind(dyn);
      dyn.register = (data: RegistrationData<ExecuteCommandRegistrationOptions>) =>
        register({ ...data, registerOptions: { ...data.registerOptions, commands: serverCommandsToRegister(data.registerOptions.commands) } });
    }
    super.registerFeature(feature);
  }
}
