// Contract test of the editor's key: the environment keys.ts builds for
// the server (serverEnv), given to the REAL quire serve, and the health
// report (quire/doctor) it answers, read by health.ts. It checks that the
// server takes the key under the variable names the extension sets, for
// the provider URL as keyUrl writes it, and not for another provider.
//
// Needs the server binary in QUIRE_BIN, like contract.test.ts; skipped
// without it unless QUIRE_REQUIRE_CONTRACT=1 (then it fails).
import * as assert from "assert";
import { execFile, spawn } from "child_process";
import * as fs from "fs";
import * as http from "http";
import { AddressInfo } from "net";
import * as os from "os";
import * as path from "path";
import { pathToFileURL } from "url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { advisorView, healthMarkdown } from "../health";
import { keyUrl, serverEnv } from "../keys";
import { DoctorResult, Methods } from "../protocol";
import { serverSettings } from "../settings";

const bin = process.env.QUIRE_BIN;
// On a CI machine the contract must run: a missing binary fails it.
const required = process.env.QUIRE_REQUIRE_CONTRACT === "1" || !!process.env.CI;
const key = "sk-contract-editor-key";

// A provider that lists its models only for the right key, as a hosted
// one does.
function startProvider(): Promise<{ url: string; auth: (string | undefined)[]; close: () => void }> {
  const auth: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    auth.push(req.headers.authorization);
    if (req.method === "GET" && req.url === "/v1/models" && req.headers.authorization === `Bearer ${key}`) {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "contract-model" }] }));
      return;
    }
    res.writeHead(401, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: { message: "bad key" } }));
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, auth, close: () => server.close() }),
    ),
  );
}

// doctorWith runs quire serve on the sample book in env, with the
// provider settings the extension would send, and asks quire/doctor.
async function doctorWith(book: string, tmp: string, baseUrl: string, env: Record<string, string>): Promise<DoctorResult> {
  const proc = spawn(bin!, ["serve"], {
    cwd: book,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...env, XDG_CACHE_HOME: path.join(tmp, "cache"), XDG_CONFIG_HOME: path.join(tmp, "config") },
  });
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const conn = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  conn.onRequest("workspace/configuration", () => []);
  conn.onRequest("client/registerCapability", () => null);
  conn.onRequest("window/workDoneProgress/create", () => null);
  conn.listen();
  try {
    const { settings } = serverSettings((k) => ({ "provider.baseUrl": baseUrl, "provider.model": "contract-model" })[k]);
    const uri = pathToFileURL(book).toString();
    await conn.sendRequest("initialize", { processId: process.pid, rootUri: uri, workspaceFolders: [{ uri, name: "book" }], capabilities: {}, initializationOptions: settings });
    await conn.sendNotification("initialized", {});
    return await conn.sendRequest<DoctorResult>(Methods.doctor, {});
  } finally {
    await conn.sendRequest("shutdown").catch(() => undefined);
    await conn.sendNotification("exit").catch(() => undefined);
    conn.dispose();
    // Gone before the test's folder is removed: it writes its cache there.
    const late = setTimeout(() => proc.kill(), 3000);
    await exited;
    clearTimeout(late);
  }
}

describe("contract: the editor's key through the server's environment", function () {
  this.timeout(20_000);
  let tmp: string;
  let book: string;
  let provider: Awaited<ReturnType<typeof startProvider>>;

  before(async function () {
    if (!bin) {
      if (required) {
        throw new Error("QUIRE_REQUIRE_CONTRACT=1 (or CI) but QUIRE_BIN is not set");
      }
      this.skip();
    }
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "quire-contract-key-")));
    book = path.join(tmp, "book");
    await new Promise<void>((resolve, reject) => execFile(bin!, ["init", "--sample", book], (err) => (err ? reject(err) : resolve())));
    provider = await startProvider();
  });

  after(() => {
    provider?.close();
    if (tmp) {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("the key handed for the provider's URL is sent to it, and the report says it came from the editor", async () => {
    // The setting spelled with a trailing slash: keyUrl's spelling of it
    // must still be the server's.
    const setting = `${provider.url}/v1/`;
    const r = await doctorWith(book, tmp, setting, serverEnv(process.env, { url: keyUrl(setting)!, key }));
    const checks = r.checks ?? [];
    const keyLine = checks.find((c) => c.name === "key");
    assert.strictEqual(keyLine?.detail, "from your editor", JSON.stringify(checks));
    assert.strictEqual(advisorView(checks).text, "$(check) quire: advisor ready", JSON.stringify(checks));
    assert.ok(provider.auth.includes(`Bearer ${key}`), `the provider saw: ${JSON.stringify(provider.auth)}`);
    const md = healthMarkdown(checks);
    assert.ok(md.includes(`**book**: ${book}`), md);
    assert.ok(!md.includes(key), "the report shows the key");
  });

  it("a key handed for another provider is not sent, and the advisor says there is no key", async () => {
    const before = provider.auth.length;
    const r = await doctorWith(book, tmp, `${provider.url}/v1`, serverEnv(process.env, { url: "https://openrouter.ai/api/v1", key }));
    const checks = r.checks ?? [];
    assert.notStrictEqual(checks.find((c) => c.name === "key")?.detail, "from your editor");
    assert.strictEqual(advisorView(checks).text, "$(key) quire: no key", JSON.stringify(checks));
    assert.ok(!provider.auth.slice(before).includes(`Bearer ${key}`), "the key went to a provider it was not handed for");
  });
});
