/**
 * Transport comparison rows: `tools/call` round trips over stdio (a spawned server process)
 * and over Streamable HTTP (a server on 127.0.0.1 in this process), ours against each SDK
 * driven through its own client and server, each above a raw floor.
 *
 * Floors. stdio: a bare JSON-lines echo child (bench/peers/echo-stdio.ts) and a client
 * that writes one line per request and parses one line per answer. HTTP: a bare
 * `node:http` server that parses the body and answers `JSON.stringify`ed, driven by
 * `fetch`, the same client API our HTTP transport and the SDKs' use. Each floor moves the
 * bytes our client and server put on the wire in its era (workload.ts `floorRequest`,
 * `floorResult`): a 2026-07-28 call is about twice the JSON of a 2025-era one, and its HTTP
 * request names method, tool and version in headers. Targets (issues 7
 * and 10): ours at least 0.8× the floor's speed (time ratio ≤ 1.25) and at least 2× the
 * SDKs', sequential and 64 in flight.
 *
 * Groups: stdio legacy and modern; HTTP legacy with JSON and with SSE answers, HTTP legacy
 * served statelessly (a kernel per POST, JSON answers), and HTTP modern (2026-07-28, no
 * session). A modern answer is one JSON body unless the handler
 * sends something before it (the server commits to a stream only then, or after its
 * `modernStreamAfterMs`): the workload's tool sends nothing, so the modern group is JSON.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Row, TimedRow } from "./async-harness.js";
import { McpClient } from "../src/api/client.js";
import { MODERN_VERSIONS } from "../src/model/versions.js";
import { createHttpHandler } from "../src/transports/http-server.js";
import { httpClientTransport } from "../src/transports/http-client.js";
import { serveNode } from "../src/transports/http-node.js";
import { listenLocal } from "./peers/listen.js";
import { ourHttpPeer, ourHttpServer, ourStdioPeer } from "./peers/ours.js";
import { ourServer } from "./peers/ours-tools.js";
import { sdk1HttpPeer, sdk1HttpServer, sdk1StatelessHttpServer, sdk1StdioPeer } from "./peers/sdk1.js";
import { sdk2HttpPeer, sdk2HttpServer, sdk2StdioPeer } from "./peers/sdk2.js";
import { ARGS, floorRequest, floorResult, HOLD, TOOL, type Era, type HttpServerHandle, type Peer } from "./peers/workload.js";
import { LABEL } from "./vs-sdk.js";

/** Absolute path of a compiled peer script next to this file. */
export function peerScript(name: string): string {
  return fileURLToPath(new URL(`./peers/${name}.js`, import.meta.url));
}

/** The stdio floor's client: raw lines to and from `node echo-stdio.js`. */
export async function rawStdioPeer(era: Era = "legacy"): Promise<Peer> {
  const child = spawn(process.execPath, [peerScript("echo-stdio")], { stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map<number, (v: unknown) => void>();
  let next = 0;
  let buffered = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
      const msg = JSON.parse(buffered.slice(0, nl)) as { id: number; result: unknown };
      buffered = buffered.slice(nl + 1);
      pending.get(msg.id)?.(msg.result);
      pending.delete(msg.id);
    }
  });
  const call = () =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      child.stdin.write(JSON.stringify(floorRequest(era, id)) + "\n");
    });
  await call(); // the child is up
  const exited = new Promise((r) => child.once("exit", r));
  return { call, hold: call, close: async () => void (child.stdin.end(), await exited) };
}

/** The HTTP floor's server: parse the body, answer the workload's result. */
export function rawHttpServer(): Promise<HttpServerHandle> {
  return listenLocal((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const msg = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: unknown; params?: { _meta?: object } };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: floorResult(msg) }));
    });
  });
}

/** The HTTP floor's client: one `fetch` POST per request. */
export function rawHttpPeer(url: string, era: Era = "legacy"): Peer {
  let next = 0;
  // A modern request also names its method, tool and version in headers (draft streamable-http).
  const headers: Record<string, string> =
    era === "legacy"
      ? { "content-type": "application/json", accept: "application/json" }
      : { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": TOOL };
  const call = async () => {
    const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(floorRequest(era, next++)) });
    return ((await res.json()) as { result: unknown }).result;
  };
  return { call, hold: call, close: async () => {} };
}

/** Our dual-era server behind our node:http bridge, for modern clients (no sessions: one kernel per request). */
export async function ourModernHttpServer(): Promise<HttpServerHandle> {
  const server = ourServer();
  const handler = createHttpHandler({ path: "/mcp", sessionIdleMs: 0, createSession: server.httpSession() });
  const node = await serveNode(handler, { port: 0, host: "127.0.0.1" });
  return { url: `${node.url}/mcp`, close: () => node.close() };
}

/** Our client in the modern era over Streamable HTTP: every call one POST with its own `_meta`. */
export async function ourModernHttpPeer(url: string): Promise<Peer> {
  const c = new McpClient({ name: "bench", version: "1.0.0" }, { session: { versions: [...MODERN_VERSIONS] } });
  await c.connect(httpClientTransport(url));
  return { call: () => c.callTool(TOOL, ARGS), hold: () => c.callTool(HOLD, {}), close: async () => c.close() };
}

async function burst(peer: Peer, k: number): Promise<number> {
  const calls: Promise<unknown>[] = new Array(k);
  for (let i = 0; i < k; i++) calls[i] = peer.call();
  await Promise.all(calls);
  return k;
}

interface Live {
  peer: Peer;
  server?: HttpServerHandle;
}

function row(name: string, k: number, connect: () => Promise<Live>, against?: { baseline: string; min?: number; max?: number }, note?: string): TimedRow<Live> {
  return {
    name,
    ...(against === undefined ? {} : { baseline: against.baseline, target: against.min === undefined && against.max === undefined ? undefined : { min: against.min, max: against.max } }),
    ...(note === undefined ? {} : { note }),
    setup: connect,
    run: ({ peer }) => burst(peer, k),
    teardown: async ({ peer, server }) => {
      await peer.close();
      await server?.close();
    },
  };
}

function stdioRows(k: number, era: Era): TimedRow<Live>[] {
  const group = `stdio ${era} ${k === 1 ? "seq" : `${k} in flight`}`;
  const floor = `${group}: floor raw ndjson echo`;
  const ours = `${group}: ours`;
  const rows = [
    row(floor, k, async () => ({ peer: await rawStdioPeer(era) })),
    row(ours, k, async () => ({ peer: await ourStdioPeer(peerScript("ours-stdio"), era) }), { baseline: floor, max: 1.25 }),
  ];
  if (era === "legacy") rows.push(row(`${group}: ${LABEL.sdk1}`, k, async () => ({ peer: await sdk1StdioPeer(peerScript("sdk1-stdio")) }), { baseline: ours, min: 2 }));
  rows.push(row(`${group}: ${LABEL.sdk2}`, k, async () => ({ peer: await sdk2StdioPeer(peerScript("sdk2-stdio"), era) }), { baseline: ours, min: 2 }));
  return rows;
}

async function served(server: Promise<HttpServerHandle>, client: (url: string) => Promise<Peer> | Peer): Promise<Live> {
  const s = await server;
  return { server: s, peer: await client(s.url) };
}

function httpRows(k: number): TimedRow<Live>[] {
  const rows: TimedRow<Live>[] = [];
  const load = k === 1 ? "seq" : `${k} in flight`;
  for (const json of [true, false]) {
    const group = `http legacy ${json ? "json" : "sse"} ${load}`;
    const floor = `${group}: floor raw node:http echo`;
    const ours = `${group}: ours`;
    rows.push(
      row(floor, k, () => served(rawHttpServer(), rawHttpPeer)),
      row(ours, k, () => served(ourHttpServer(json), ourHttpPeer), { baseline: floor, max: 1.25 }),
      row(`${group}: ${LABEL.sdk1}`, k, () => served(sdk1HttpServer(json), sdk1HttpPeer), { baseline: ours, min: 2 }),
    );
    if (json) {
      rows.push(
        row(`${group}: ${LABEL.sdk2}`, k, () => served(sdk2HttpServer(), (url) => sdk2HttpPeer(url, "legacy")), { baseline: ours, min: 2 },
          "SDK 2.x createMcpHandler serves 2025-era clients through its stateless legacy fallback (a server per request); it picks JSON or SSE itself"),
      );
    }
  }
  // Stateless 2025-era serving (serverless, edge): a kernel (ours) or a server and transport
  // (SDK 1.x) per POST; SDK 2.x serves the 2025 era this way already (its row above).
  {
    const group = `http legacy stateless json ${load}`;
    const floor = `${group}: floor raw node:http echo`;
    const ours = `${group}: ours`;
    rows.push(
      row(floor, k, () => served(rawHttpServer(), rawHttpPeer)),
      row(ours, k, () => served(ourHttpServer(true, true), ourHttpPeer), { baseline: floor, max: 1.25 }),
      row(`${group}: ${LABEL.sdk1}`, k, () => served(sdk1StatelessHttpServer(true), sdk1HttpPeer), { baseline: ours, min: 2 }),
    );
  }
  const group = `http modern json ${load}`;
  const floor = `${group}: floor raw node:http echo`;
  const ours = `${group}: ours`;
  rows.push(
    row(floor, k, () => served(rawHttpServer(), (url) => rawHttpPeer(url, "modern"))),
    row(ours, k, () => served(ourModernHttpServer(), ourModernHttpPeer), { baseline: floor, max: 1.25 }),
    row(`${group}: ${LABEL.sdk2}`, k, () => served(sdk2HttpServer(), (url) => sdk2HttpPeer(url, "modern")), { baseline: ours, min: 2 }),
  );
  return rows;
}

/** Every transport row. */
export function transportRows(): Row[] {
  return [...stdioRows(1, "legacy"), ...stdioRows(64, "legacy"), ...stdioRows(1, "modern"), ...stdioRows(64, "modern"), ...httpRows(1), ...httpRows(64)];
}
