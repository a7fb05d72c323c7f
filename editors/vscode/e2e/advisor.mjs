// A writer opens the sample book in a real VS Code (code-server, in
// Debian's Chromium) with no provider in VS Code's settings: the
// advisor's status bar item says so. Outside VS Code, in a terminal,
// the writer then names a provider in their own config.yaml (as
// `quire models --use` does): the item follows the server's view of the
// provider and reads "advisor ready", with no restart and no command.
// Then the book's quire.yaml names a model that server does not offer,
// and the item follows that too: the advisor needs a look.
import fs from "node:fs";
import path from "node:path";
import { need, openBook, start, statusItems, step, waitFor, walk } from "./workbench.mjs";

// advisorItem waits for the advisor's status bar item to read text.
const advisorItem = (page, text) =>
  waitFor(`the advisor's status bar item to read "${text}"`, async () => (await statusItems(page)).find((t) => t.includes(text)));

async function main() {
  const page = await start({});
  const config = need("QUIRE_USER_CONFIG");
  const book = need("QUIRE_BOOK");

  await step(page, "open-book", () => openBook(page));

  await step(page, "no-provider", () => advisorItem(page, "quire: no provider"));

  await step(page, "config-outside", async () => {
    fs.mkdirSync(path.dirname(config), { recursive: true });
    fs.writeFileSync(config, `provider:\n  base_url: ${need("QUIRE_MODEL_URL")}\n  model: scripted\n`);
    await advisorItem(page, "quire: advisor ready");
  });

  await step(page, "quire-yaml-outside", async () => {
    const yaml = path.join(book, "quire.yaml");
    fs.writeFileSync(yaml, fs.readFileSync(yaml, "utf8") + "\nprovider:\n  model: no-such-model\n");
    await advisorItem(page, "quire: advisor needs a look");
  });
}

await walk(main);
