// The language client, with one change to vscode-languageclient's
// behaviour: it does not register VS Code commands for the server
// commands the extension handles itself (see clientOwnedCommands).
import {
  DynamicFeature,
  LanguageClient,
  LanguageClientOptions,
  RegistrationData,
  ServerOptions,
  StaticFeature,
} from "vscode-languageclient/node";
import { ExecuteCommandRegistrationOptions } from "vscode-languageclient";
import { serverCommandsToRegister } from "./commands";

export class QuireLanguageClient extends LanguageClient {
  constructor(serverOptions: ServerOptions, clientOptions: LanguageClientOptions) {
    super("quire", "quire", serverOptions, clientOptions);
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
