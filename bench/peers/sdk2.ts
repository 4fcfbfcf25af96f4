/**
 * The workload on the official SDK 2.x (`@modelcontextprotocol/server` + `/client`):
 * `McpServer.registerTool` with a zod object, `Client.callTool`, the SDK's
 * `InMemoryTransport` pair, `serveStdio` (which picks the era from the opening message;
 * handed the in-memory end, it serves the modern era in-process too), and
 * `createMcpHandler` (modern per-request HTTP with the legacy stateless fallback) behind
 * our node:http bridge, the same bridge our own handler uses.
 */
import { InMemoryTransport, createMcpHandler } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { listenLocal } from "./listen.js";
import { toNodeListener } from "../../src/transports/http-node.js";
import { sdk2Server } from "./sdk2-tools.js";
import { ARGS, Gate, HOLD, TOOL, type Era, type HttpServerHandle, type Peer } from "./workload.js";

const INFO = { name: "bench", version: "1.0.0" };
const MODERN = "2026-07-28";

type ClientTransport = Parameters<Client["connect"]>[0];

async function client(transport: ClientTransport, era: Era): Promise<Peer> {
  const c = new Client(INFO, era === "modern" ? { versionNegotiation: { mode: { pin: MODERN } } } : {});
  await c.connect(transport);
  if ((c.getProtocolEra() ?? "legacy") !== era) throw new Error(`SDK 2.x negotiated the ${c.getProtocolEra()} era, not ${era}`);
  return {
    call: () => c.callTool({ name: TOOL, arguments: ARGS }),
    hold: () => c.callTool({ name: HOLD, arguments: {} }),
    close: () => c.close(),
  };
}

/** Client and server in this process, over the SDK's InMemoryTransport pair. */
export async function sdk2MemoryPeer(era: Era, gate?: Gate): Promise<Peer> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  let close: () => Promise<void>;
  if (era === "legacy") {
    const server = sdk2Server(gate);
    await server.connect(serverEnd);
    close = () => server.close();
  } else {
    const served = serveStdio(() => sdk2Server(gate), { transport: serverEnd });
    close = async () => void (await served.close());
  }
  const peer = await client(clientEnd, era);
  return { ...peer, close: async () => (await peer.close(), await close()) };
}

/** The SDK 2.x client over stdio to `node script`. */
export function sdk2StdioPeer(script: string, era: Era): Promise<Peer> {
  return client(new StdioClientTransport({ command: process.execPath, args: [script], stderr: "inherit" }), era);
}

/** `createMcpHandler` on 127.0.0.1 (it answers with JSON or SSE as the request asks). */
export async function sdk2HttpServer(): Promise<HttpServerHandle> {
  const handler = createMcpHandler(() => sdk2Server());
  return listenLocal(toNodeListener((req) => handler.fetch(req)));
}

/** The SDK 2.x client over Streamable HTTP. */
export function sdk2HttpPeer(url: string, era: Era): Promise<Peer> {
  return client(new StreamableHTTPClientTransport(new URL(url)), era);
}
