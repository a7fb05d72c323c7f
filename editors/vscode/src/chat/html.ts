// The chat webview's page, apart from VS Code so that the tests load the
// same markup and scripts into a DOM that the webview gets.

/** The scripts of the page, in load order: the renderer, then the wiring that uses it. */
export const chatScripts: readonly string[] = ["render.js", "chat.js"];

export interface PageParts {
  // The webview's source for styles, fonts and images (webview.cspSource).
  cspSource: string;
  // A fresh random value per page: only scripts carrying it run.
  nonce: string;
  // The URI of a file under media/, as the webview may load it.
  media: (file: string) => string;
}

export function chatHtml(p: PageParts): string {
  const csp = [
    "default-src 'none'",
    `style-src ${p.cspSource}`,
    `script-src 'nonce-${p.nonce}'`,
    `font-src ${p.cspSource}`,
    `img-src ${p.cspSource}`,
  ].join("; ");
  const scripts = chatScripts.map((f) => `<script nonce="${p.nonce}" src="${p.media(f)}"></script>`).join("\n");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link href="${p.media("chat.css")}" rel="stylesheet">
<title>quire advisor</title>
</head>
<body>
<header id="bar">
  <select id="persona" aria-label="Persona"></select>
  <button id="reset" class="secondary" title="Start a new conversation with this persona">New</button>
</header>
<p id="focus"></p>
<main id="log" aria-live="polite"></main>
<footer>
  <p id="context"></p>
  <textarea id="input" rows="3" placeholder="Ask the advisor… (Ctrl+Enter to send)"></textarea>
  <div class="buttons">
    <button id="send">Ask</button>
    <button id="cancel" class="secondary">Cancel</button>
    <button id="peek" class="secondary" title="Open the exact request that would be sent to the model">Peek prompt</button>
  </div>
</footer>
${scripts}
</body>
</html>`;
}
