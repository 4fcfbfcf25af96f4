// `npm run build`: the package's exports resolve to built files that export what the
// sources export, the kernel bundles run without Node built-ins, and the bin works.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { inspect } from "node:util";
import { cli } from "./spawn.js";
import { SPEC_TYPE_VERSIONS, specTypesConsumer } from "./spec-types.js";
import { projectRoot } from "../harness/project-root.js";

const root = projectRoot();
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
/** The compiled sources this test was compiled with (…/spec-tests/cli/ → …/src/). */
const compiledSrc = fileURLToPath(new URL("../../src/", import.meta.url));

type Conditions = { types: string; default: string };
const subpaths = Object.entries(pkg.exports as Record<string, Conditions | string>).filter(
  (e): e is [string, Conditions] => typeof e[1] !== "string",
);

const out = mkdtempSync(join(tmpdir(), "mcp-kernel-dist-"));
/** A path of the exports map (`./dist/...`) inside the temporary outdir. */
const built = (path: string) => join(out, path.replace(/^\.\/dist\//, ""));
after(() => rmSync(out, { recursive: true, force: true }));

/** A temporary consumer folder where `mcp-kernel` is this build: package.json, and dist/ as built (the caller removes it). */
function consumerWithPackage(): string {
  const consumer = mkdtempSync(join(tmpdir(), "mcp-kernel-consumer-"));
  const installed = join(consumer, "node_modules", "mcp-kernel");
  mkdirSync(installed, { recursive: true });
  writeFileSync(join(installed, "package.json"), JSON.stringify(pkg));
  symlinkSync(out, join(installed, "dist"), "dir");
  return consumer;
}

/**
 * Type-checks `files` in `consumer` as a strict consumer project would (strict,
 * exactOptionalPropertyTypes, skipLibCheck false; nodenext and @types/node unless told
 * otherwise) with `lib`; fails the test with tsc's output, prefixed by `failure`.
 */
function strictTypeCheck(
  consumer: string,
  lib: string[],
  files: string[],
  failure: string,
  { types = ["node"], moduleResolution = "nodenext" }: { types?: string[]; moduleResolution?: "nodenext" | "bundler" } = {},
): void {
  writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: false,
      module: moduleResolution === "bundler" ? "esnext" : "nodenext",
      moduleResolution,
      target: "es2022",
      lib,
      types,
      // Type packages resolve from the project's node_modules; with none asked for, from
      // nowhere, so that a `/// <reference types="node" />` in a declaration fails too.
      typeRoots: types.length > 0 ? [join(root, "node_modules", "@types")] : [],
      noEmit: true,
    },
    files,
  }));
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", join(consumer, "tsconfig.json")], { cwd: consumer, encoding: "utf8", stdio: "pipe" });
  } catch (e) {
    assert.fail(`${failure}:\n${(e as { stdout?: string }).stdout ?? e}`);
  }
}

test("build: every export of package.json is built, bundle and declaration, and the bundle exports what the source does", async () => {
  execFileSync(process.execPath, [join(root, "scripts", "build.mjs"), "--outdir", out, "--quiet"], { cwd: root, stdio: "pipe" });

  assert.deepEqual(subpaths.map(([s]) => s), [".", "./codec", "./schema", "./model", "./auth", "./node"]);
  const loaded: Record<string, Record<string, unknown>> = {};
  for (const [subpath, { types, default: js }] of subpaths) {
    assert.ok(existsSync(built(types)), `${subpath}: ${types} was emitted`);
    const bundle = (await import(pathToFileURL(built(js)).href)) as Record<string, unknown>;
    // The entry's source, as tsc compiled it: the declaration path mirrors src/.
    const sourceJs = join(compiledSrc, types.replace(/^\.\/dist\/types\//, "").replace(/\.d\.ts$/, ".js"));
    const source = (await import(pathToFileURL(sourceJs).href)) as Record<string, unknown>;
    assert.deepEqual(Object.keys(bundle).sort(), Object.keys(source).sort(), `${subpath} exports the same names as its source`);
    loaded[subpath] = bundle;
  }

  // A few names per layer, so an empty entry cannot pass by matching an empty source.
  for (const name of ["decode", "encode", "ErrorCode", "rpcError"]) assert.equal(typeof loaded["./codec"][name], typeof loaded["."][name], name);
  for (const name of ["validate", "validatorFor", "typeNames"]) assert.equal(typeof loaded["./schema"][name], "function", name);
  for (const name of ["methodSpec", "isProtocolVersion", "PROTOCOL_VERSIONS"]) assert.ok(name in loaded["./model"], name);
  // Code splitting: the root and a subpath share one copy of each module.
  assert.equal(loaded["."].decode, loaded["./codec"].decode);
  assert.equal(loaded["."].methodSpec, loaded["./model"].methodSpec);
  // The auth entry is the same code as the root's, not a second copy.
  assert.equal(loaded["."].stepOAuth, loaded["./auth"].stepOAuth);
  // The root has every name of each neutral layer entry (the root lists the codec's modules by name).
  for (const subpath of ["./codec", "./schema", "./model", "./auth"]) {
    for (const name of Object.keys(loaded[subpath])) assert.equal(loaded["."][name], loaded[subpath][name], `${subpath}: ${name} is at the root too`);
  }
  // No empty chunk: a module every importer of an entry would load for nothing (in a browser, one more request).
  const files = readdirSync(out, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".js"));
  assert.ok(files.length > subpaths.length, "the chunks are listed too");
  for (const f of files) assert.ok(statSync(join(out, f)).size > 0, `${f} is empty`);
  // The product API and the transports are at the root; the Node adapters in ./node.
  for (const name of ["McpServer", "McpClient", "createMemoryPair", "webStreamsTransport", "createHttpHandler", "httpClientTransport", "Endpoint", "createTaskTable"]) {
    assert.equal(typeof loaded["."][name], "function", name);
  }
  for (const name of ["stdioServerTransport", "spawnStdioServer", "serveNode", "nodeServerTransport"]) assert.equal(typeof loaded["./node"][name], "function", name);
  // Public classes and functions keep their names (logs print `err.constructor.name`, stack
  // traces name frames): the bundles are not identifier-minified.
  for (const [subpath, bundle] of Object.entries(loaded)) {
    for (const [name, value] of Object.entries(bundle)) {
      if (typeof value === "function") assert.equal(value.name, name, `${subpath}: ${name}.name`);
    }
  }
  const McpError = loaded["."].McpError as new (error: { code: number; message: string }) => Error;
  assert.match(inspect(new McpError({ code: -32603, message: "bad" })), /^McpError: bad\n/, "logged as its class, not a one-letter name");
  // The bundles work, not just load.
  const decode = loaded["./codec"].decode as (text: string) => { kind: string };
  assert.equal(decode('{"jsonrpc":"2.0","id":1,"method":"ping"}').kind, "request");
  assert.equal((loaded["./model"].isProtocolVersion as (v: string) => boolean)("2026-07-28"), true);
});

test("build: every entry but ./node is platform-neutral: its whole import graph has no node: import, so it runs in Deno, Bun and browsers", () => {
  const importsOf = (file: string): string[] =>
    [...readFileSync(file, "utf8").matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((m) => m[1]);
  const reached = (entry: string): Set<string> => {
    const seen = new Set<string>([entry]);
    const queue = [entry];
    while (queue.length > 0) {
      const file = queue.shift()!;
      for (const spec of importsOf(file)) {
        const target = spec.startsWith(".") ? join(dirname(file), spec) : spec;
        if (!seen.has(target)) {
          seen.add(target);
          if (spec.startsWith(".")) queue.push(target);
        }
      }
    }
    return seen;
  };
  for (const [subpath, { default: js }] of subpaths) {
    const graph = [...reached(built(js))];
    assert.ok(graph.every((f) => !f.startsWith("/") || existsSync(f)), `${subpath}: every relative import resolves`);
    const builtins = graph.filter((f) => f.startsWith("node:"));
    if (subpath === "./node") assert.ok(builtins.includes("node:http"), "the node entry does use node:http (the walk sees imports)");
    else assert.deepEqual(builtins, [], `${subpath} reaches no Node built-in`);
    for (const f of graph) if (f.endsWith(".js") && subpath !== "./node") assert.doesNotMatch(readFileSync(f, "utf8"), /\brequire\(/, f);
  }
});

test("build: a neutral entry that reaches node: fails the build, naming the chain", async () => {
  const { neutralityErrors } = (await import(pathToFileURL(join(root, "scripts", "build.mjs")).href)) as {
    neutralityErrors(m: unknown, e: { subpath: string; entry: string }[]): string[];
  };
  const metafile = {
    outputs: {
      "dist/index.js": { entryPoint: "src/index.ts", imports: [{ path: "dist/chunks/a.js", kind: "import-statement" }] },
      "dist/chunks/a.js": { imports: [{ path: "node:fs", kind: "import-statement", external: true }] },
      "dist/node.js": { entryPoint: "src/node.ts", imports: [{ path: "node:http", kind: "import-statement", external: true }] },
    },
  };
  const entries = [{ subpath: ".", entry: "src/index.ts" }, { subpath: "./node", entry: "src/node.ts" }];
  assert.deepEqual(neutralityErrors(metafile, entries), ['exports["."] must not reach Node built-ins: dist/index.js -> dist/chunks/a.js -> node:fs']);
});

test("build: a consumer's bundle of the package is no bigger than the same bundle of the sources, and a bare import keeps nothing (sideEffects false; the dist is not whitespace-minified, which drops the pure annotations bundlers shake with)", async () => {
  const consumer = consumerWithPackage();
  try {
    const client = (from: string, fromNode: string) =>
      `import { McpClientCore } from ${JSON.stringify(from)};\nimport { spawnStdioServer } from ${JSON.stringify(fromNode)};\n` +
      `const c = new McpClientCore({ name: "c", version: "1" });\nawait c.connect(spawnStdioServer(process.execPath, ["server.js"]));\nconsole.log(await c.callTool("t", {}));\n`;
    const gzipped = async (contents: string): Promise<number> => {
      const r = await build({ stdin: { contents, resolveDir: consumer, loader: "js" }, preserveSymlinks: true, bundle: true, minify: true, format: "esm", platform: "node", target: "es2022", write: false, logLevel: "silent", legalComments: "none" });
      return gzipSync(r.outputFiles[0].contents, { level: 9 }).length;
    };
    const fromPackage = await gzipped(client("mcp-kernel", "mcp-kernel/node"));
    const fromSources = await gzipped(client(join(root, "src", "index.ts"), join(root, "src", "node.ts")));
    assert.ok(fromPackage <= fromSources * 1.03, `a client from the package is ${fromPackage} B gzip, from the sources ${fromSources} B`);
    assert.ok((await gzipped('import "mcp-kernel";\nimport "mcp-kernel/node";\n')) < 100, "a bare import keeps no code");
    // A name taken from the root costs what it costs from its own entry: no module of the
    // root runs a top-level statement a bundler must keep (a loop filling a table, a method
    // call), which would keep everything that statement reads (the schema tables: 3.3 KB
    // gzip from the codec entry had grown to 11.9 KB from the root).
    const codec = (from: string) => `import { decode, encode } from ${JSON.stringify(from)};\nconsole.log(encode(decode(process.argv[2])));\n`;
    const fromRoot = await gzipped(codec("mcp-kernel"));
    const fromEntry = await gzipped(codec("mcp-kernel/codec"));
    assert.ok(fromRoot <= fromEntry * 1.1, `decode and encode from the root: ${fromRoot} B gzip, from mcp-kernel/codec: ${fromEntry} B`);
  } finally {
    rmSync(consumer, { recursive: true, force: true });
  }
});

test("build: the bin is an executable #! script that imports the sibling root bundle and validates a spec example", () => {
  const bin = built(pkg.bin["mcp-kernel"].replace(/^(\.\/)?/, "./"));
  const text = readFileSync(bin, "utf8");
  assert.ok(text.startsWith("#!/usr/bin/env node\n"));
  assert.ok(text.includes('from"./index.js"'), "the CLI imports the kernel from ./index.js instead of carrying a copy");
  assert.equal(statSync(bin).mode & 0o111, 0o111);
  const example = join(root, "spec-tests", "fixtures", "examples", "CallToolRequest", "call-tool-request.json");
  assert.equal(execFileSync(process.execPath, [bin, "validate", example], { encoding: "utf8" }), "ok request tools/call\n");
  // serve and call from the bundle: the demo server and the client share dist/index.js.
  assert.ok(!text.includes("class McpServer"), "no second copy of McpServer in cli.js");
  const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  const reply = JSON.parse(execFileSync(process.execPath, [bin, "serve", "--stdio"], { input: init + "\n", encoding: "utf8" }).trim());
  assert.equal(reply.result.serverInfo.name, "mcp-kernel-demo");
  const result = JSON.parse(execFileSync(process.execPath, [bin, "call", "--stdio", process.execPath, bin, "serve", "--stdio", "tools/call", '{"name":"echo","arguments":{"text":"bundled"}}'], { encoding: "utf8" }));
  // call speaks every version: the demo, dual-era, answers its server/discover probe, so the call is modern.
  assert.deepEqual([result.resultType, result.content], ["complete", [{ type: "text", text: "bundled" }]]);
});

test("build: the bin records and replays a task-augmented tools/call (2025-11-25) and a modern input_required round (2026-07-28) identically: the server's draws reach the kernel through the bundles' public names", async () => {
  // Spec: 2025-11-25 basic/utilities/tasks (task ids, createdAt), draft basic/patterns/mrtr
  // (requestState): what the server draws (random ids and keys, clock readings) is recorded.
  const bin = built(pkg.bin["mcp-kernel"].replace(/^(\.\/)?/, "./"));
  const modernMeta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  };
  /** Records one session through the built bin, sending each request once the last is answered, then replays it. */
  const recordAndReplay = async (name: string, drive: (request: (method: string, params: object) => Promise<any>) => Promise<void>) => {
    const file = join(out, name);
    const rec = cli(["record", "--out", file, "--", process.execPath, bin, "serve", "--stdio"], { script: bin });
    let id = 0;
    await drive(async (method, params) => {
      const n = ++id;
      rec.child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", id: n, method, params }) + "\n");
      const [line] = await rec.waitOut(new RegExp(`^\\{"jsonrpc":"2\\.0","id":${n},.*$`, "m"));
      return JSON.parse(line);
    });
    rec.child.stdin!.end();
    assert.equal(await rec.code, 0, rec.stderr());
    const replayed = cli(["replay", file], { script: bin });
    assert.equal(await replayed.code, 0, replayed.stdout() + replayed.stderr());
    assert.match(replayed.stdout(), /^ok \d+ steps replayed identically\n$/);
  };
  await recordAndReplay("task.jsonl", async (request) => {
    await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
    const created = await request("tools/call", { name: "slow_compute", arguments: { seconds: 0 }, task: { ttl: 60_000 } });
    assert.match(created.result?.task?.taskId, /^[0-9a-f]{32}$/, JSON.stringify(created));
    const result = await request("tasks/result", { taskId: created.result.task.taskId });
    assert.equal(result.result?.content[0].text, "slow_compute: done after 0s", JSON.stringify(result));
  });
  await recordAndReplay("mrtr.jsonl", async (request) => {
    const call = { name: "test_input_required_result_request_state", arguments: {}, _meta: modernMeta };
    const first = await request("tools/call", call);
    assert.equal(first.result?.resultType, "input_required", JSON.stringify(first));
    const retry = await request("tools/call", { ...call, inputResponses: { confirm: { action: "accept", content: { ok: true } } }, requestState: first.result.requestState });
    assert.equal(retry.result?.content[0].text, "state-ok: confirmed=true", JSON.stringify(retry));
  });
});

test("build: the CLI side imports an internal kernel module's names only if the package exports them, or the build fails naming the module and the name (not an undefined read at run time)", async () => {
  const { kernelAsSiblings } = (await import(pathToFileURL(join(root, "scripts", "build.mjs")).href)) as {
    kernelAsSiblings(inputs: Set<string>, bundles: Map<string, { file: string; exports: Set<string> }>): import("esbuild").Plugin;
  };
  const kernelInputs = new Set(["src/index.ts", "src/node.ts", "src/api/tasks.ts"]);
  const bundles = new Map([
    ["src/index.ts", { file: "./index.js", exports: new Set(["TaskRuntime", "McpServer"]) }],
    ["src/node.ts", { file: "./node.js", exports: new Set(["serveNode"]) }],
  ]);
  /** Bundles `code` as if it were a module in src/cli/. */
  const bundleCli = (code: string) =>
    build({
      absWorkingDir: root,
      stdin: { contents: code, resolveDir: join(root, "src", "cli"), sourcefile: join(root, "src", "cli", "probe.ts"), loader: "ts" },
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      logLevel: "silent",
      plugins: [kernelAsSiblings(kernelInputs, bundles)],
    });
  const ok = await bundleCli('import { TaskRuntime } from "../api/tasks.js"; console.log(TaskRuntime);');
  assert.match(ok.outputFiles[0].text, /import\s*\{[^}]*\bTaskRuntime\b[^}]*\}\s*from\s*"\.\/index\.js"/);
  await assert.rejects(bundleCli('import { TaskRuntime, taskIdFrom } from "../api/tasks.js"; console.log(TaskRuntime, taskIdFrom);'), (e: Error) => {
    assert.match(e.message, /No matching export in "kernel-public:src\/api\/tasks\.ts" for import "taskIdFrom"/);
    assert.doesNotMatch(e.message, /import "TaskRuntime"/);
    return true;
  });
});

test("build: the emitted declarations type-check in a strict consumer (exactOptionalPropertyTypes, skipLibCheck false) that imports every export, and 2025-era code reading structuredContent as an object still compiles", () => {
  const consumer = consumerWithPackage();
  try {
    const specifiers = subpaths.map(([s]) => s.replace(/^\./, "mcp-kernel"));
    // Code written for the 2025-era types keeps compiling: a result's structuredContent is an
    // object unless the caller asks for another shape; a handler may return any JSON value.
    const usage = [
      `import { McpClient, McpServer, type CallToolResult } from "mcp-kernel";`,
      `export async function read(c: McpClient): Promise<unknown> { const r = await c.callTool("t"); const o: { [key: string]: unknown } | undefined = r.structuredContent; return o?.temperature; }`,
      `export async function list(c: McpClient): Promise<number> { const r: CallToolResult<number[]> = await c.callTool<number[]>("t"); return r.structuredContent?.length ?? 0; }`,
      `export function register(s: McpServer): void { s.tool("a", {}, () => ({ content: [], structuredContent: [1, 2] })); s.tool("o", {}, () => ({ content: [], structuredContent: { t: 1 } })); }`,
    ].join("\n");
    writeFileSync(join(consumer, "consumer.mts"), specifiers.map((s, i) => `import * as m${i} from ${JSON.stringify(s)};\n`).join("") + `export const all = [${specifiers.map((_, i) => `m${i}`).join(", ")}];\n` + usage + "\n");
    strictTypeCheck(consumer, ["es2022", "dom", "dom.iterable"], ["consumer.mts"], "the declarations do not type-check");
  } finally {
    rmSync(consumer, { recursive: true, force: true });
  }
});

// README "Entry points, errors and the rest of the API" (types): every optional field of
// an options or config object the application writes takes `undefined` as well, so that a
// strict consumer (`exactOptionalPropertyTypes`) may forward a setting it may not have
// (`{ onError: maybeFn }`, `{ timeoutMs: opts.timeout }`). `Forwarded<T>` is `T` with each
// optional field's value possibly `undefined`: one whole such object per options type.
test("build: README \"Entry points, errors and the rest of the API\" (types): a strict consumer (exactOptionalPropertyTypes) may pass undefined for any optional option, to every options and config type; callbacks still take narrower parameters; resolved options are never undefined", () => {
  const consumer = consumerWithPackage();
  try {
    const usage = `
import {
  McpServer, McpServerCore, McpClient, McpClientCore, TaskRuntime, Endpoint, StreamChannel, attach, createSession, createTaskTable, createMemoryPair, connectMemory,
  webStreamsTransport, createHttpHandler, httpClientTransport, decode, createJsonSchemaValidator, protectedResource, oauthFetch, createOAuthState,
  type McpServerOptions, type McpServerCoreOptions, type McpClientOptions, type McpClientCoreOptions, type ClientHandlers, type CallOptions, type PeerRequestOptions,
  type SessionOptions, type RequestOptions, type EndpointHooks, type AttachHooks, type ToolConfig, type ResourceConfig, type ResourceTemplateConfig, type PromptConfig,
  type TaskRuntimeOptions, type TaskTableOptions, type HttpHandlerOptions, type HttpSessionSetup, type HttpClientOptions, type ReconnectOptions, type MemoryPairOptions,
  type ChannelOptions, type WebStreamsOptions, type SpawnOptions, type DecodeOptions, type JsonSchemaOptions, type ProtectedResourceOptions, type OAuthClientConfig,
  type OAuthFetchOptions, type ClientCredentialsOptions, type ClientCredentialsConfig, type Transport, type Sink, type SessionState, type TaskTableState,
  createNdjsonDecoder, createSseDecoder, encodeSseEvent, type NdjsonOptions, type SseOptions, type SseEventInit, step, type SessionInput,
  type ListChangedHandlers, type ListChangedOptions, type Tool, type HttpSseOptions, type EventStoreLimits, type AllowList,
} from "mcp-kernel";
import { serveNode, toNodeListener, spawnStdioServer, stdioServerTransport, nodeServerTransport, type NodeListenerOptions, type ServeNodeOptions, type StdioServerOptions } from "mcp-kernel/node";

/** T as a caller forwarding its own optional settings has it: each optional field possibly undefined. */
type Forwarded<T> = { [K in keyof T]: {} extends Pick<T, K> ? T[K] | undefined : T[K] };
declare function forwarded<T>(): Forwarded<T>;
declare const transport: Transport;
declare const sink: Sink;
declare const readable: ReadableStream<Uint8Array | string>;
declare const writable: WritableStream<Uint8Array | string>;
const info = { name: "n", version: "1" };

// The README's own cases: a callback and a timeout that may be undefined.
declare const maybeFn: ((e: unknown) => void) | undefined;
declare const opts: { timeout?: number | undefined };
export const s0 = new McpServer(info, { onError: maybeFn });
export async function c0(client: McpClient, args: { [key: string]: unknown } | undefined): Promise<unknown> {
  return client.callTool("t", args, { timeoutMs: opts.timeout });
}

// Whole objects of each options type, every optional field possibly undefined.
export const server = new McpServer(info, forwarded<McpServerOptions>());
export const serverSession = new McpServer(info, { session: forwarded<McpServerOptions["session"] & object>() });
export const serverCore = new McpServerCore(info, forwarded<McpServerCoreOptions>());
export const serverTasks = new McpServer(info, { tasks: forwarded<TaskRuntimeOptions>() });
export const client = new McpClient(info, forwarded<McpClientOptions>());
export const clientHandlers = new McpClient(info, { handlers: forwarded<ClientHandlers>() });
export const clientTasks = new McpClient(info, { receiveTasks: forwarded<TaskRuntimeOptions>() });
export const clientCore = new McpClientCore(info, forwarded<McpClientCoreOptions>());
// The types of nested options have names a consumer imports too (the official SDK's ListChangedHandlers).
export const clientLists = new McpClient(info, { listChanged: forwarded<ListChangedHandlers>() });
export const clientTools = new McpClient(info, { listChanged: { tools: forwarded<ListChangedOptions<Tool>>() } });
export const runtime = new TaskRuntime(forwarded<TaskRuntimeOptions>());
export const table: TaskTableState = createTaskTable(forwarded<TaskTableOptions>());
export const session: SessionState = createSession(forwarded<SessionOptions>());
export const endpoint = new Endpoint(forwarded<SessionOptions>(), forwarded<EndpointHooks>());
export const attached = attach(transport, forwarded<SessionOptions>(), forwarded<AttachHooks>());
export function register(s: McpServer): void {
  s.tool("t", forwarded<ToolConfig>(), () => ({ content: [] }));
  s.resource("r://a", forwarded<ResourceConfig>(), () => undefined);
  s.resourceTemplate("r://{id}", forwarded<ResourceTemplateConfig>(), () => undefined);
  s.prompt("p", forwarded<PromptConfig>(), () => ({ messages: [] }));
  s.tool("ctx", {}, async (_args, ctx) => {
    await ctx.elicit({ message: "m", requestedSchema: { type: "object", properties: {} } }, forwarded<PeerRequestOptions>());
    await ctx.requestAsTask("roots/list", {}, forwarded<PeerRequestOptions & { ttl?: number }>());
    return { content: [] };
  });
  createHttpHandler(forwarded<HttpHandlerOptions>());
  createHttpHandler({ createSession: s.httpSession(), eventStore: forwarded<NonNullable<HttpHandlerOptions["eventStore"]>>() });
  createHttpHandler({ createSession: () => forwarded<HttpSessionSetup>() });
  const hosts: AllowList = ["mcp.example.com"];
  createHttpHandler({ createSession: s.httpSession(), allowedHosts: hosts, allowedOrigins: (origin) => origin === "https://app.example.com", httpSse: forwarded<HttpSseOptions>(), eventStore: forwarded<EventStoreLimits>() });
  s.httpSession(forwarded<{ principalOf?: (request: Request) => string | undefined }>());
}
export async function calls(c: McpClient): Promise<void> {
  await c.callTool("t", {}, forwarded<CallOptions>());
  await c.readResource("r://a", forwarded<CallOptions>());
  await c.callToolAsTask("t", {}, forwarded<{ ttl?: number }>(), forwarded<CallOptions>());
  await c.waitForTask("id", forwarded<CallOptions & { intervalMs?: number }>());
  await attached.request("ping", undefined, forwarded<RequestOptions>());
}
export const transports = [
  createMemoryPair(forwarded<MemoryPairOptions>()),
  connectMemory((t) => t, (t) => t, forwarded<MemoryPairOptions>()),
  webStreamsTransport(readable, writable, forwarded<WebStreamsOptions>()),
  new StreamChannel(sink, forwarded<ChannelOptions>()),
  httpClientTransport("http://localhost/mcp", forwarded<HttpClientOptions>()),
  httpClientTransport("http://localhost/mcp", { reconnect: forwarded<ReconnectOptions>() }),
  spawnStdioServer("node", [], forwarded<SpawnOptions>()),
  stdioServerTransport(forwarded<StdioServerOptions>()),
  nodeServerTransport(forwarded<StdioServerOptions>()),
];
export const nodeHttp = [toNodeListener(() => new Response(), forwarded<NodeListenerOptions>()), serveNode(() => new Response(), forwarded<ServeNodeOptions>())];
export const decoded = decode("{}", forwarded<DecodeOptions>());
// A driver of its own forwards its optional arguments into the kernel's inputs, as Endpoint does.
export const stepped = step(session, forwarded<SessionInput>());
export const framing = [createNdjsonDecoder(forwarded<NdjsonOptions>()), createSseDecoder(forwarded<SseOptions>()), encodeSseEvent(forwarded<SseEventInit>())];
export const validator = createJsonSchemaValidator(forwarded<JsonSchemaOptions>());
export const guarded = protectedResource(async () => new Response(), forwarded<ProtectedResourceOptions>());
export const authorized = oauthFetch(forwarded<OAuthFetchOptions>());
export const preRegistered = createOAuthState({ serverUrl: "u", redirectUri: "r", clientName: "n", preRegistered: forwarded<NonNullable<OAuthClientConfig["preRegistered"]>>() });
export const oauth = createOAuthState(forwarded<OAuthClientConfig>());
export const machine = oauthFetch({ serverUrl: "u", clientCredentials: forwarded<ClientCredentialsOptions>() });
export const machineFlow = createOAuthState({ serverUrl: "u", clientCredentials: forwarded<ClientCredentialsConfig>() });

// Callbacks are still compared as methods were: a narrower parameter type-checks.
export const narrow = new McpServer(info, { onError: (e: Error) => console.error(e.message), onEvent: (e: { type: string }) => void e });
// What the kernel resolved holds no undefined.
export const resolved: number = session.options.requestTimeoutMs;
export const ttl: number | null = table.options.defaultTtlMs;
`;
    writeFileSync(join(consumer, "forwarding.mts"), usage);
    strictTypeCheck(consumer, ["es2022", "dom", "dom.iterable"], ["forwarding.mts"], "an options type refuses undefined for an optional field");
  } finally {
    rmSync(consumer, { recursive: true, force: true });
  }
});

// SDK authors who embed the kernel hold values typed with the specification's own schema.ts:
// handing them to the API, and the API's results to code typed with it, must compile.
test("schema.ts 2025-11-25 / 2026-07-28: values typed with the spec's own types are accepted by the API (constructors, options, registration configs, handler results, ctx.elicit / ctx.sample, the params of ctx.request / requestAsTask / notify, client.request / notify and an Endpoint's notify, client handlers, complete refs, inputRequired), and the client's results assign to the spec's result types (strict, exactOptionalPropertyTypes)", () => {
  const consumer = consumerWithPackage();
  try {
    const files: string[] = [];
    for (const version of SPEC_TYPE_VERSIONS) {
      copyFileSync(join(root, "scripts", "spec", "schema", version, "schema.ts"), join(consumer, `schema-${version}.mts`));
      writeFileSync(join(consumer, `consumer-${version}.mts`), specTypesConsumer(version).replace(`./schema-${version}.js`, `./schema-${version}.mjs`));
      files.push(`consumer-${version}.mts`);
    }
    strictTypeCheck(consumer, ["es2022", "dom", "dom.iterable"], files, "a value typed with the spec's schema.ts does not fit the API, or the API's result the spec's type");
  } finally {
    rmSync(consumer, { recursive: true, force: true });
  }
});

// A server-side TypeScript project often compiles without the DOM library (`lib: ["es2022"]`
// and @types/node): every declaration the package ships, not only those its entries reach
// today, must name only what Node's types declare too (`ReadableStreamReadResult` is the
// DOM's alone), so that a public type re-exporting one later breaks nobody.
test("build: every shipped declaration type-checks without the DOM library (lib es2022, @types/node, skipLibCheck false)", () => {
  const consumer = consumerWithPackage();
  try {
    const typesDir = join(out, "types");
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith(".d.ts")) files.push(path);
      }
    };
    walk(typesDir);
    assert.ok(files.length > 50, `found ${files.length} declarations`);
    strictTypeCheck(consumer, ["es2022"], files, "a declaration needs the DOM library");
  } finally {
    rmSync(consumer, { recursive: true, force: true });
  }
});

// A browser or worker project has no @types/node (`types: []`): the declarations of every
// entry but ./node must name only what the DOM library and ES2022 declare (a `Buffer`, a
// `NodeJS.Timeout` or an `import("node:…")` in a neutral entry's types fails to compile there).
test("build: every entry but ./node type-checks in a browser consumer without @types/node (types [], lib es2022 + dom, skipLibCheck false), under nodenext and bundler resolution", () => {
  const consumer = consumerWithPackage();
  try {
    const specifiers = subpaths.map(([s]) => s).filter((s) => s !== "./node").map((s) => s.replace(/^\./, "mcp-kernel"));
    assert.equal(specifiers.length, subpaths.length - 1);
    writeFileSync(join(consumer, "browser.mts"), specifiers.map((s, i) => `import * as m${i} from ${JSON.stringify(s)};\n`).join("") + `export const all = [${specifiers.map((_, i) => `m${i}`).join(", ")}];\n` +
      `const client = new m0.McpClient({ name: "b", version: "1" });\nawait client.connect(m0.httpClientTransport("http://127.0.0.1:3000/mcp"));\n`);
    for (const moduleResolution of ["nodenext", "bundler"] as const) {
      strictTypeCheck(consumer, ["es2022", "dom"], ["browser.mts"], `a neutral entry's declarations need @types/node (moduleResolution ${moduleResolution})`, { types: [], moduleResolution });
    }
  } finally {
    rmSync(consumer, { recursive: true, force: true });
  }
});

test("build: CommonJS consumers can require() every export (the exports map's condition is `default`, not `import`; Node >= 20.19 loads ES modules from require)", () => {
  const consumer = consumerWithPackage();
  try {
    const names = subpaths.map(([s]) => (s === "." ? "mcp-kernel" : `mcp-kernel/${s.slice(2)}`));
    const script = `for (const n of ${JSON.stringify(names)}) { const m = require(n); if (Object.keys(m).length === 0) throw new Error(n + " is empty"); }\n` + `process.stdout.write(typeof require("mcp-kernel").McpServer);`;
    writeFileSync(join(consumer, "probe.cjs"), script);
    const out = execFileSync(process.execPath, ["--no-warnings", "--preserve-symlinks", join(consumer, "probe.cjs")], { cwd: consumer, stdio: "pipe" }).toString();
    assert.equal(out, "function");
  } finally {
    rmSync(consumer, { recursive: true, force: true });
  }
});

test("build: the specification's licence ships in dist beside the validators generated from its schema", () => {
  assert.equal(readFileSync(join(out, "LICENSE-MCP-SPEC"), "utf8"), readFileSync(join(root, "scripts", "spec", "LICENSE"), "utf8"));
  assert.match(readFileSync(join(root, "LICENSE"), "utf8"), /dist\/LICENSE-MCP-SPEC/);
});

test("package.json: ships dist, README and LICENSE, built by npm pack; no install-time build (npm ci must not build)", () => {
  assert.deepEqual(pkg.files, ["dist", "README.md", "LICENSE"]);
  assert.equal(pkg.type, "module");
  for (const hook of ["prepare", "preinstall", "install", "postinstall"]) assert.equal(pkg.scripts[hook], undefined, hook);
  assert.equal(pkg.scripts.prepack, "node scripts/build.mjs");
  assert.equal(pkg.main, pkg.exports["."].default);
  assert.equal(pkg.types, pkg.exports["."].types);
  assert.equal(pkg.bin["mcp-kernel"], "dist/cli.js");
});
