/**
 * The interop harness: starting real peers (our server, the official SDKs' servers) as
 * child processes, and one small {@link Driver} interface over each client (ours, SDK 1.x,
 * SDK 2.x), so the checks in `checks.ts` run unchanged over every pairing.
 *
 * Where the fixtures are. Our server (`fixtures/interop/our-server.ts`) is compiled with
 * the tests and sits next to them in the output tree. The SDK servers are plain `.mjs`
 * (written the way the SDKs' users write them) that tsc does not copy, so they are found
 * in the source tree: walking up from this compiled file to the first directory holding
 * `spec-tests/fixtures/interop/`, else under the working directory (an out-of-tree build
 * such as `--outDir /tmp/x` run from the repository root).
 *
 * No sleeps: a child's HTTP URL is the first line it prints; everything else waits on
 * protocol events. Timeouts exist only as failure guards.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { CallToolResult, CompleteResult, GetPromptResult, ReadResourceResult } from "../../src/api/types.js";

/** Absolute path of a compiled fixture of ours (`our-server.js`). */
export function compiledFixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/interop/${name}`, import.meta.url));
}

/** Absolute path of a source `.mjs` fixture (see the module comment). */
export function sourceFixture(name: string): string {
  const rel = join("spec-tests", "fixtures", "interop", name);
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, rel))) return join(dir, rel);
    if (dirname(dir) === dir) break;
  }
  return join(process.cwd(), rel);
}

/** The command line of a fixture: Node runs both kinds. */
export function fixtureCommand(script: string, mode: "--stdio" | "--http"): { command: string; args: string[] } {
  return { command: process.execPath, args: [script, mode] };
}

/** A peer serving Streamable HTTP in a child process. */
export interface HttpPeer {
  url: string;
  /** Ends the child (closes its stdin, which it treats as "stop") and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts `script --http` and resolves with the URL it prints first. */
export async function startHttpPeer(script: string): Promise<HttpPeer> {
  const { command, args } = fixtureCommand(script, "--http");
  const child: ChildProcess = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const line = await guard(
    new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`${script} exited with ${code} before printing its URL`)));
    }),
    10_000,
    `${script} to print its URL`,
  );
  const { url } = JSON.parse(line) as { url: string };
  return {
    url,
    async stop() {
      child.stdin!.end();
      await guard(exited, 5_000, `${script} to exit`).catch(() => child.kill("SIGKILL"));
    },
  };
}

/** Rejects when `p` has not settled after `ms` (a failure guard, never a pacing device). */
export function guard<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** What the interop client says when asked for input, and the sample it returns. */
export const ELICITED = { username: "interop-user", email: "interop@example.com" } as const;
export const SAMPLED = "interop model output";

/** Per-call options the checks use. */
export interface DriverCallOptions {
  signal?: AbortSignal;
  onProgress?(p: { progress: number; total?: number; message?: string }): void;
}

/** The params of `notifications/resources/updated`. */
export type Updated = { uri: string; _meta?: Record<string, unknown> };

/** One connected client, whichever implementation: what the checks need of it. */
export interface Driver {
  /** "legacy" after initialize, "modern" after server/discover. */
  readonly era: "legacy" | "modern";
  readonly protocolVersion: string | undefined;
  readonly serverName: string | undefined;
  listTools(): Promise<{ name: string; outputSchema?: unknown }[]>;
  /** Resolves with the result (tool errors included); rejects with an error carrying `code` on a protocol error. */
  callTool(name: string, args?: Record<string, unknown>, options?: DriverCallOptions): Promise<CallToolResult>;
  readResource(uri: string): Promise<ReadResourceResult>;
  /** Legacy `resources/subscribe`; modern `subscriptions/listen` for the URI. Resolves once the server acknowledged. */
  subscribe(uri: string): Promise<void>;
  /** Resolves with the params of the next `notifications/resources/updated`. */
  nextUpdated(): Promise<Updated>;
  listPrompts(): Promise<{ name: string }[]>;
  getPrompt(name: string, args?: Record<string, string>): Promise<GetPromptResult>;
  complete(ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string }, argument: { name: string; value: string }): Promise<CompleteResult>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The `code` of a rejected call (JSON-RPC errors carry it on every implementation). */
export async function rejectionCode(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
  } catch (e) {
    return (e as { code?: number }).code;
  }
  throw new Error("expected a rejection");
}

/** A one-shot notification waiter list: `next()` resolves with the next `push`. */
export class Inbox<T> {
  private readonly queued: T[] = [];
  private readonly waiting: ((v: T) => void)[] = [];
  push(v: T): void {
    const w = this.waiting.shift();
    if (w !== undefined) w(v);
    else this.queued.push(v);
  }
  next(): Promise<T> {
    if (this.queued.length > 0) return Promise.resolve(this.queued.shift()!);
    return new Promise((r) => this.waiting.push(r));
  }
}

/**
 * The draft's request metadata headers for one outgoing message (draft
 * `basic/transports/streamable-http`, "Protocol Version Header" and "Standard Request
 * Headers"): `MCP-Protocol-Version` on every POST, `Mcp-Method` on requests, `Mcp-Name`
 * for `tools/call`, `prompts/get` (params.name) and `resources/read` (params.uri). Our
 * HTTP client transport does not add them by itself yet; a 2026-07-28 client passes this
 * as its `requestHeaders` hook. (The interop names are plain ASCII, so no Base64 sentinel.)
 */
export function draftRequestHeaders(text: string): Record<string, string> {
  const m = JSON.parse(text) as { method?: string; params?: { name?: unknown; uri?: unknown; _meta?: Record<string, unknown> } };
  const headers: Record<string, string> = {};
  const version = m.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
  if (typeof version === "string") headers["MCP-Protocol-Version"] = version;
  if (typeof m.method === "string") headers["Mcp-Method"] = m.method;
  const name = m.method === "resources/read" ? m.params?.uri : m.method === "tools/call" || m.method === "prompts/get" ? m.params?.name : undefined;
  if (typeof name === "string") headers["Mcp-Name"] = name;
  return headers;
}
