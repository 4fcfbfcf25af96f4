/**
 * `mcp-kernel call (URL | --stdio CMD [ARGS...]) METHOD [PARAMS]`: a one-shot client.
 *
 * Spec: draft `basic/versioning` (a dual-era client probes with `server/discover` and
 * falls back to initialize), 2025-11-25 `basic/lifecycle` (a legacy session initializes,
 * then sends its request; for `initialize` itself the handshake is the call and what it
 * returned is what is printed),
 * `basic/transports` (Streamable HTTP for a URL; stdio for a command: the client launches
 * the server as a subprocess and shuts it down by closing its input) and
 * `basic/index` (a JSON-RPC error has `code`, `message` and optional `data`).
 *
 * The result is printed to stdout as JSON (two-space indented) and the exit code is 0. A
 * JSON-RPC error is printed to stderr as the error object, exit code 1; so is a failure
 * to connect, with code -32000 ("connection closed") and the reason. An error this side
 * raised (that failure, a timeout, a POST that failed) carries `"local": true`, so it is
 * not mistaken for one the server sent (draft `basic/index`). The command's own stderr
 * passes through.
 */
import { httpClientTransport, McpClient, McpError, PROTOCOL_VERSIONS, type JsonObject, type Transport } from "../index.js";
import { spawnStdioServer } from "../node.js";
import { Exit, OutputFailed, writeOut, writeResult } from "./io.js";
import type { CliIO, Verb } from "./io.js";
import { KERNEL_VERSION } from "./version.js";
import { thrownMessage } from "../jsonrpc/errors.js";
import { methodSpec } from "../model/methods.js";
import { isModernVersion } from "../model/versions.js";

/** Whether `method` is one the 2025 versions have and 2026-07-28 does not. */
function legacyOnly(method: string): boolean {
  const has = (v: (typeof PROTOCOL_VERSIONS)[number]) => methodSpec(v, method) !== undefined;
  return !PROTOCOL_VERSIONS.some((v) => isModernVersion(v) && has(v)) && PROTOCOL_VERSIONS.some(has);
}

const USAGE = `usage: mcp-kernel call URL METHOD [PARAMS]
       mcp-kernel call --stdio CMD [ARGS...] METHOD [PARAMS]

Connects to the server at URL (Streamable HTTP) or launched by CMD (stdio), opens a
session in any protocol version the kernel speaks (a server/discover probe, falling back
to initialize for a 2025-era server), sends one request and prints its result as JSON.
A method only the 2025 versions have (ping, logging/setLevel) is asked in a 2025 session.
PARAMS is a JSON object; METHOD is the last argument that is not one. METHOD "initialize"
prints what the handshake returned (its version, capabilities and serverInfo).
A JSON-RPC error goes to stderr as JSON, with exit code 1; one this side raised
(the server unreachable, a timeout) carries "local": true.
`;

/** Where to connect and what to send. */
export type CallTarget = { url: string } | { command: string; args: string[] };
type CallArgs = { target: CallTarget; method: string; params: JsonObject | undefined } | { help: true } | { error: string };

/** Parses the verb's arguments (see the usage text for the grammar). */
export function parseCallArgs(args: readonly string[]): CallArgs {
  if (args[0] === "--help" || args[0] === "-h") return { help: true };
  let rest = [...args];
  let params: JsonObject | undefined;
  const last = rest.at(-1);
  if (last !== undefined && last.trimStart().startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(last);
    } catch (e) {
      return { error: `PARAMS is not JSON: ${thrownMessage(e)}` };
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { error: "PARAMS must be a JSON object" };
    params = parsed as JsonObject;
    rest = rest.slice(0, -1);
  }
  const method = rest.pop();
  if (rest[0] === "--stdio") {
    if (rest.length < 2 || method === undefined) return { error: "--stdio needs a command and a METHOD" };
    return { target: { command: rest[1], args: rest.slice(2) }, method, params };
  }
  if (rest.length !== 1 || method === undefined) return { error: "expected URL METHOD [PARAMS], or --stdio CMD [ARGS...] METHOD [PARAMS]" };
  if (!/^https?:\/\//.test(rest[0])) return { error: `not an http(s) URL: ${JSON.stringify(rest[0])}` };
  return { target: { url: rest[0] }, method, params };
}

/** A JSON-RPC error object for what went wrong, marked `local` unless the server sent it. */
function errorObject(e: unknown): { code: number; message: string; data?: unknown; local?: true } {
  if (!(e instanceof McpError)) return { code: -32000, message: thrownMessage(e), local: true };
  const error: { code: number; message: string; data?: unknown; local?: true } = { code: e.code, message: e.message };
  if (e.data !== undefined) error.data = e.data;
  if (!e.fromPeer) error.local = true;
  return error;
}

async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCallArgs(args);
  if ("help" in parsed) {
    await writeResult(io.stdout, USAGE);
    return Exit.Ok;
  }
  if ("error" in parsed) {
    await writeOut(io.stderr, `mcp-kernel call: ${parsed.error}\n\n${USAGE}`);
    return Exit.Usage;
  }
  const { target, method, params } = parsed;
  let transport: Transport;
  let exited: Promise<unknown> = Promise.resolve();
  if ("url" in target) transport = httpClientTransport(target.url);
  else {
    const child = spawnStdioServer(target.command, target.args, { stderr: "inherit" });
    exited = child.exited;
    transport = child;
  }
  // Every version the kernel speaks, as `serve` does: a dual-era client probes with
  // server/discover and falls back to initialize (draft basic/versioning), so a server that
  // speaks only 2026-07-28 is reachable too, not only the 2025 versions. A method only the
  // 2025 era has (`ping`, `logging/setLevel`, `resources/subscribe`) is asked in that era:
  // a dual-era server would otherwise be met in 2026-07-28, which refuses it.
  // (`initialize` is this verb's own: the handshake of whichever era the server speaks.)
  const versions = method !== "initialize" && legacyOnly(method) ? PROTOCOL_VERSIONS.filter((v) => !isModernVersion(v)) : [...PROTOCOL_VERSIONS];
  const client = new McpClient({ name: "mcp-kernel-call", version: KERNEL_VERSION }, { session: { versions } });
  try {
    await client.connect(transport);
    const result: unknown =
      method === "initialize"
        ? { protocolVersion: client.protocolVersion, capabilities: client.serverCapabilities, serverInfo: client.serverInfo, instructions: client.instructions }
        : await client.request(method, params);
    await writeResult(io.stdout, JSON.stringify(result, null, 2) + "\n");
    return Exit.Ok;
  } catch (e) {
    // Our output failed, not the call: main tells which exit code that is.
    if (e instanceof OutputFailed) throw e;
    await writeOut(io.stderr, JSON.stringify(errorObject(e)) + "\n");
    return Exit.Invalid;
  } finally {
    client.close();
    transport.close();
    await exited;
  }
}

/** The `call` verb. */
export const callVerb: Verb = { summary: "send one request to a server (URL or --stdio CMD) and print the result", usage: USAGE, run };
