/**
 * The demo server as the CLI runs it: `serve` answers with it, `replay` re-runs a
 * recording of it. Both build it here, so a transcript recorded from `serve --stdio`
 * replays against the very same configuration.
 *
 * Spec: draft `basic/versioning` (a server may speak both eras: it lists every version it
 * supports, legacy and modern) and 2025-11-25 `basic/transports` ("Streamable HTTP").
 */
import { createDemoServer, type DemoOptions } from "../demo/server.js";
import { createHttpHandler, PROTOCOL_VERSIONS, type HttpHandler, type McpServer } from "../index.js";

/** The demo server speaking every protocol version the kernel knows (both eras). */
export function cliDemoServer(options: DemoOptions = {}): McpServer {
  const session = { versions: [...PROTOCOL_VERSIONS], ...options.server?.session };
  return createDemoServer({ ...options, server: { ...options.server, session } });
}

/**
 * A Streamable HTTP handler serving `server` at `path`: one endpoint per legacy session
 * (and per modern request), each told about the server's changes while it lives.
 */
export function serverHttpHandler(server: McpServer, path = "/mcp", stateless = false): HttpHandler {
  return createHttpHandler({
    path,
    stateless,
    // Older clients' transport beside it (2024-11-05 HTTP+SSE), where there are sessions to hold it.
    ...(stateless ? {} : { httpSse: { path: "/sse", messagesPath: "/messages" } }),
    // Its setups carry the registry's tool schemas: Mcp-Param-* headers are checked against them.
    createSession: server.httpSession(),
  });
}
