/**
 * The workload on the official SDK 1.x (`@modelcontextprotocol/sdk`), written the way its
 * README does: `McpServer.registerTool` with a zod shape, `Client.callTool`, the SDK's
 * `InMemoryTransport` pair, `StdioClientTransport`, and the node `StreamableHTTPServerTransport`
 * (one per session) with `StreamableHTTPClientTransport`. Legacy era only (1.x has no other).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { listenLocal } from "./listen.js";
import { sdk1Server } from "./sdk1-tools.js";
import { ARGS, Gate, HOLD, TOOL, type HttpServerHandle, type Peer } from "./workload.js";

const INFO = { name: "bench", version: "1.0.0" };

async function client(transport: Transport): Promise<Peer> {
  const c = new Client(INFO);
  await c.connect(transport);
  return {
    call: () => c.callTool({ name: TOOL, arguments: ARGS }),
    hold: () => c.callTool({ name: HOLD, arguments: {} }),
    close: () => c.close(),
  };
}

/** Client and server in this process, over the SDK's InMemoryTransport pair. */
export async function sdk1MemoryPeer(gate?: Gate): Promise<Peer> {
  const server = sdk1Server(gate);
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const peer = await client(clientEnd);
  return { ...peer, close: async () => (await peer.close(), await server.close()) };
}

/** The SDK 1.x client over stdio to `node script`. */
export function sdk1StdioPeer(script: string): Promise<Peer> {
  return client(new StdioClientTransport({ command: process.execPath, args: [script], stderr: "inherit" }));
}

/** The SDK 1.x Streamable HTTP server: one server transport per session, as its docs show. */
export async function sdk1HttpServer(json: boolean): Promise<HttpServerHandle> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const sid = req.headers["mcp-session-id"];
    const existing = typeof sid === "string" ? sessions.get(sid) : undefined;
    if (existing !== undefined) return existing.handleRequest(req, res);
    if (typeof sid === "string") return void res.writeHead(404).end();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: json,
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => void (transport.sessionId !== undefined && sessions.delete(transport.sessionId));
    await sdk1Server().connect(transport);
    await transport.handleRequest(req, res);
  };
  return listenLocal(
    (req, res) => void handle(req, res).catch(() => res.writeHead(500).end()),
    async () => {
      for (const t of sessions.values()) await t.close();
    },
  );
}

/**
 * The SDK 1.x Streamable HTTP server without sessions, as its docs show for stateless
 * deployments: a server and a transport per POST (`sessionIdGenerator: undefined`), closed
 * when the response is.
 */
export async function sdk1StatelessHttpServer(json: boolean): Promise<HttpServerHandle> {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== "POST") return void res.writeHead(405, { Allow: "POST" }).end();
    const server = sdk1Server();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
    res.on("close", () => void (transport.close(), server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
  return listenLocal((req, res) => void handle(req, res).catch(() => res.writeHead(500).end()));
}

/** The SDK 1.x client over Streamable HTTP. */
export function sdk1HttpPeer(url: string): Promise<Peer> {
  return client(new StreamableHTTPClientTransport(new URL(url)));
}
