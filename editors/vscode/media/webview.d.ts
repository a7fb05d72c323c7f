// What VS Code gives a webview's scripts (media/*.js), for their type check.

interface WebviewState {
  draft?: string;
}

interface VsCodeWebviewApi {
  postMessage(message: import("../src/chat/messages").FromWebview): void;
  getState(): WebviewState | undefined;
  setState(state: WebviewState): void;
}

declare function acquireVsCodeApi(): VsCodeWebviewApi;
