/**
 * The workload on mcp-kernel: {@link McpServer} with `get_weather` and `hold`, and
 * {@link McpClient} connected to it in memory, over stdio (a spawned peer) or over
 * Streamable HTTP (our fetch-style handler behind our node:http bridge).
 */
import { McpClient } from "../../src/api/client.js";
import type { Transport } from "../../src/api/transport.js";
import { LEGACY_VERSIONS, MODERN_VERSIONS } from "../../src/model/versions.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { serveNode } from "../../src/transports/http-node.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { spawnStdioServer } from "../../src/transports/stdio.js";
import { ourServer } from "./ours-tools.js";
import { ARGS, Gate, HOLD, TOOL, type Era, type HttpServerHandle, type Peer } from "./workload.js";

const INFO = { name: "bench", version: "1.0.0" };

async function client(transport: Transport, era: Era): Promise<Peer> {
  const c = new McpClient(INFO, { session: { versions: era === "legacy" ? [...LEGACY_VERSIONS] : [...MODERN_VERSIONS], maxOutboundRequests: 16_384 } });
  await c.connect(transport);
  return {
    call: () => c.callTool(TOOL, ARGS),
    hold: () => c.callTool(HOLD, {}),
    close: async () => c.close(),
  };
}

/**
 * Client and server in this process, over our in-memory pair: carrying message objects
 * like the SDKs' in-memory transports (the like-for-like rows), or JSON text (`text`: every
 * message encoded and decoded, as on a pipe).
 */
export async function ourMemoryPeer(era: Era, gate?: Gate, text = false): Promise<Peer> {
  const server = ourServer(gate);
  const [s, c] = createMemoryPair({ values: !text });
  server.connect(s);
  const peer = await client(c, era);
  return { ...peer, close: async () => (await peer.close(), server.close()) };
}

/** Our client over stdio to `node script` (a peer built on whichever implementation). */
export function ourStdioPeer(script: string, era: Era): Promise<Peer> {
  return client(spawnStdioServer(process.execPath, [script], { stderr: "inherit" }), era);
}

/** Our Streamable HTTP server (legacy era; one JSON body per answer or an SSE stream; `stateless`: no sessions, a kernel per POST). */
export async function ourHttpServer(json: boolean, stateless = false): Promise<HttpServerHandle> {
  const server = ourServer();
  const handler = createHttpHandler({
    path: "/mcp",
    stateless,
    enableJsonResponse: json,
    sessionIdleMs: 0,
    createSession: server.httpSession(),
  });
  const node = await serveNode(handler, { port: 0, host: "127.0.0.1" });
  return { url: `${node.url}/mcp`, close: () => node.close() };
}

/** Our client over Streamable HTTP (legacy era: our HTTP transport has no modern era yet). */
export function ourHttpPeer(url: string): Promise<Peer> {
  return client(httpClientTransport(url), "legacy");
}
