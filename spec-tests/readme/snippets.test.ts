// README.md stays true: its Node snippets (each marked `<!-- snippet: FILE -->` before a
// ```js block) are written to a folder where `mcp-kernel` resolves to the package as
// `npm run build` makes it, and run as a user would run them: the stdio client launches
// the stdio server; the HTTP client talks to the HTTP server on a free port. Every js and
// ts block, those and the rest, type-checks there as a strict TypeScript consumer's code.
// Spec: 2025-11-25 basic/transports (stdio, Streamable HTTP), server/tools.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "../harness/project-root.js";

const root = projectRoot();

/** The marked snippets of README.md, by file name. */
export function readmeSnippets(markdown: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of markdown.matchAll(/<!-- snippet: ([\w.-]+) -->\n```js\n([\s\S]*?)```/g)) found.set(m[1], m[2]);
  return found;
}

/**
 * Every ```js and ```ts block of README.md (a list item's too, dedented), with the line of
 * its first line of code and the declarations it leans on: a fragment that uses a `server`
 * or `client` made earlier in the text is preceded by `<!-- typecheck: … -->` (invisible
 * on GitHub and npm) naming them, e.g. `import type { McpServer } from "mcp-kernel";
 * declare const server: McpServer;`.
 */
export function readmeCodeBlocks(markdown: string): { line: number; code: string; context: string }[] {
  const blocks: { line: number; code: string; context: string }[] = [];
  for (const m of markdown.matchAll(/^(?: *<!-- typecheck: ((?:(?!-->)[\s\S])*)-->\n)?( *)```(?:js|ts)\n([\s\S]*?)^\2```$/gm)) {
    const fence = m.index + m[0].indexOf("```");
    const indent = new RegExp(`^${m[2]}`, "gm");
    blocks.push({ line: markdown.slice(0, fence).split("\n").length + 1, code: m[3].replace(indent, ""), context: (m[1] ?? "").replace(indent, "") });
  }
  return blocks;
}

const markdown = readFileSync(join(root, "README.md"), "utf8");
const snippets = readmeSnippets(markdown);
const dir = mkdtempSync(join(tmpdir(), "mcp-kernel-readme-"));
const running = new Set<ChildProcess>();

before(() => {
  const pkgDir = join(dir, "node_modules", "mcp-kernel");
  mkdirSync(pkgDir, { recursive: true });
  execFileSync(process.execPath, [join(root, "scripts", "build.mjs"), "--outdir", join(pkgDir, "dist"), "--quiet"], { cwd: root, stdio: "pipe" });
  copyFileSync(join(root, "package.json"), join(pkgDir, "package.json"));
  for (const [name, code] of snippets) writeFileSync(join(dir, name), code);
});
after(() => {
  running.forEach((c) => c.kill("SIGKILL"));
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `node FILE` in the snippet folder; resolves with its exit code and output. */
function node(file: string, env: Record<string, string> = {}): { child: ChildProcess; done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn(process.execPath, [file], { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (c: string) => (out += c));
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (err += c));
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on("close", (code) => {
      running.delete(child);
      resolve({ code, out, err });
    }),
  );
  return { child, done };
}

test("README: the six Node snippets are there, each a complete program under 20 lines", () => {
  assert.deepEqual([...snippets.keys()].sort(), ["client-http.mjs", "client-stdio.mjs", "in-process.mjs", "server-auth.mjs", "server-http.mjs", "server-stdio.mjs"]);
  for (const [name, code] of snippets) assert.ok(code.trimEnd().split("\n").length < 20, `${name} has ${code.trimEnd().split("\n").length} lines`);
});

test("README: the stdio client launches the stdio server, lists its tool and calls it", async () => {
  const { done } = node("client-stdio.mjs");
  const r = await done;
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, "greet\nHello, stdio!\n");
});

test("README: the in-process snippet connects a client and a server in memory and calls the tool", async () => {
  const r = await node("in-process.mjs").done;
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, "Hello, in process!\n");
});

/** Resolves with the URL a server snippet prints once it listens. */
function listening(server: ReturnType<typeof node>): Promise<string> {
  let err = "";
  return new Promise<string>((resolve, reject) => {
    server.child.stderr!.on("data", (c: string) => {
      err += c;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(err);
      if (m !== null) resolve(m[1]);
    });
    server.child.on("close", (code) => reject(new Error(`the server exited ${code}: ${err}`)));
  });
}

test("README: the protected server behind its deployed host name (allowedHosts) answers an authenticated initialize; no token is 401, another Host 403", async () => {
  // Spec: draft basic/authorization (401 + WWW-Authenticate without a token), 2025-11-25
  // basic/transports ("Servers MUST validate the Origin header": 403; the Host check is the same DNS-rebinding defence).
  const server = node("server-auth.mjs", { PORT: "0", TOKEN: "t0k3n" });
  const url = new URL(await listening(server));
  const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  /** POSTs `initialize` with a chosen Host (fetch may not set it); resolves with the status and body. */
  const post = (headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      });
      req.on("error", reject);
      req.end(initialize);
    });
  const ok = await post({ host: "mcp.example.com", authorization: "Bearer t0k3n" });
  assert.equal(ok.status, 200, ok.body);
  assert.match(ok.body, /"serverInfo":\{"name":"hello"/);
  assert.equal((await post({ host: "mcp.example.com" })).status, 401);
  const local = await post({ host: url.host, authorization: "Bearer t0k3n" });
  assert.equal(local.status, 403);
  assert.match(local.body, /Host not allowed/);
  server.child.kill("SIGTERM");
  await server.done;
});

test("README: the HTTP server prints where it listens; the HTTP client calls it; the modern era is served on the same URL", async () => {
  const server = node("server-http.mjs", { PORT: "0" });
  const url = await listening(server);
  const r = await node("client-http.mjs", { MCP_URL: url }).done;
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, "Hello, HTTP!\n");

  const modern = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} } } }),
  });
  const body = await modern.text();
  assert.equal(modern.status, 200, body);
  const result = (JSON.parse(body) as { result: { supportedVersions: string[]; _meta: Record<string, { name: string }> } }).result;
  assert.ok(result.supportedVersions.includes("2026-07-28"));
  assert.equal(result._meta["io.modelcontextprotocol/serverInfo"].name, "hello");
  server.child.kill("SIGTERM");
  await server.done;
});

// A reader of README.md writes TypeScript, strictly: every ```js and ```ts block, each a
// module, type-checks against the declarations `npm run build` emits as a strict consumer
// compiles them (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes, skipLibCheck
// false), under both module resolutions a consumer uses: nodenext (Node) and bundler
// (Vite, esbuild, Deno, Bun). One program per resolution holds every block; tsc's error
// names the block by the README line of its first line of code (README.md-L<n>.mts(row,
// col): README line n + row - 1). A fragment's `<!-- typecheck: … -->` declarations follow
// its code, so the rows match.
test("README: every js and ts block type-checks against the built declarations, strict (noUncheckedIndexedAccess, exactOptionalPropertyTypes, skipLibCheck false), under moduleResolution nodenext and bundler", () => {
  const blocks = readmeCodeBlocks(markdown);
  // A block the pattern missed would go unchecked: count the fences apart.
  assert.equal(blocks.length, markdown.match(/^ *```(?:js|ts)$/gm)!.length, "every js/ts fence is read as a block");
  assert.ok(blocks.length >= 20, `found ${blocks.length} blocks`);
  const checkDir = join(dir, "typecheck");
  mkdirSync(checkDir);
  const files = blocks.map(({ line, code, context }) => {
    const file = `README.md-L${line}.mts`;
    writeFileSync(join(checkDir, file), `${code}${context}\nexport {};\n`);
    return file;
  });
  // Deno's specifier for the package (README "Deno").
  writeFileSync(join(checkDir, "deno.d.ts"), 'declare module "npm:mcp-kernel" { export * from "mcp-kernel"; }\n');
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  for (const [module, moduleResolution] of [["nodenext", "nodenext"], ["esnext", "bundler"]]) {
    const config = join(checkDir, `tsconfig.${moduleResolution}.json`);
    writeFileSync(config, JSON.stringify({
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: false,
        verbatimModuleSyntax: true,
        module,
        moduleResolution,
        target: "es2022",
        lib: ["es2022", "dom", "dom.iterable"],
        types: ["node"],
        typeRoots: [join(root, "node_modules", "@types")],
        noEmit: true,
      },
      files: [...files, "deno.d.ts"],
    }));
    try {
      execFileSync(process.execPath, [tsc, "-p", config], { cwd: checkDir, encoding: "utf8", stdio: "pipe" });
    } catch (e) {
      assert.fail(`README blocks do not type-check (moduleResolution ${moduleResolution}):\n${(e as { stdout?: string }).stdout ?? e}`);
    }
  }
});
