// Loads a book map page into jsdom as the panel shows it (bookMap.ts):
// the page's own script and the panel's run, and what they post to the
// extension is recorded.
import { JSDOM } from "jsdom";
import { panelHtml } from "../bookMap";

/** loadPanel loads a map page as the panel shows it, recording what its script posts. */
export function loadPanel(page: string): { dom: JSDOM; posted: unknown[]; state: () => unknown } {
  const posted: unknown[] = [];
  let saved: unknown;
  const dom = new JSDOM(panelHtml(page), {
    runScripts: "dangerously",
    pretendToBeVisual: true,
    beforeParse(window) {
      (window as unknown as Record<string, unknown>).acquireVsCodeApi = () => ({
        // Copied out of the page's realm, so that deepStrictEqual compares values.
        postMessage: (m: unknown) => posted.push(JSON.parse(JSON.stringify(m))),
        getState: () => saved,
        setState: (s: unknown) => (saved = s),
      });
    },
  });
  return { dom, posted, state: () => saved };
}
