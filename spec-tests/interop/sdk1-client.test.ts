// Interop: the official TypeScript SDK 1.x client (@modelcontextprotocol/sdk, legacy era
// only) against our demo server (src/demo/server.ts on McpServer) in a child process,
// over stdio and over Streamable HTTP. The checks are in checks.ts.
import assert from "node:assert/strict";
import test from "node:test";
import { Client as Sdk1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Sdk1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpServer } from "../../src/api/server.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { serveNode } from "../../src/transports/http-node.js";
import { deferred } from "../http/helpers.js";
import { runPairing } from "./checks.js";
import { sdk1Driver } from "./drivers.js";
import { compiledFixture, fixtureCommand, guard, startHttpPeer, type HttpPeer } from "./harness.js";

const OUR_SERVER = compiledFixture("our-server.js");
const expect = { era: "legacy" as const, version: "2025-11-25", serverName: "mcp-kernel-demo" };

runPairing({
  title: "SDK 1.x client → our server, stdio, 2025-11-25",
  connect: () => sdk1Driver({ stdio: fixtureCommand(OUR_SERVER, "--stdio") }),
  expect,
});

let peer: HttpPeer | undefined;
runPairing({
  title: "SDK 1.x client → our server, Streamable HTTP, 2025-11-25",
  async connect() {
    peer = await startHttpPeer(OUR_SERVER);
    return sdk1Driver({ http: peer.url });
  },
  stop: async () => peer?.stop(),
  expect,
});

// basic/utilities/cancellation ("Either side can cancel a request it sent"): our server
// cancels the first elicitation of a session, and the SDK 1.x client's handler sees it.
// SDK 1.x drops a notifications/cancelled whose requestId is falsy (`if
// (!notification.params.requestId) return;`), so a server numbering its requests from 0
// could never cancel its first one to that client: ours start at 1.
test("SDK 1.x client ← our server, Streamable HTTP: the server cancels its first elicitation of the session and the SDK client's handler is aborted (SDK 1.x ignores a cancellation of id 0)", { timeout: 10_000 }, async () => {
  const server = new McpServer({ name: "cancel-first", version: "1.0.0" });
  const entered = deferred<void>();
  const aborted = deferred<string>();
  let elicitationId: unknown;
  server.tool("ask", { inputSchema: { type: "object" } }, async (_args, ctx) => {
    const stop = new AbortController();
    const asked = ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } }, { signal: stop.signal });
    await entered.promise;
    stop.abort("no longer needed");
    await asked.catch(() => {});
    return { content: [{ type: "text", text: "gave up" }] };
  });
  const srv = await serveNode(createHttpHandler({ path: "/mcp", createSession: server.httpSession() }));
  const client = new Sdk1Client({ name: "sdk1", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    elicitationId = extra.requestId;
    entered.resolve();
    return new Promise((_, reject) => extra.signal.addEventListener("abort", () => (aborted.resolve(String(extra.signal.reason)), reject(extra.signal.reason)), { once: true }));
  });
  try {
    await client.connect(new Sdk1Http(new URL(`http://127.0.0.1:${srv.port}/mcp`)));
    const result = await client.callTool({ name: "ask", arguments: {} });
    assert.deepEqual(result.content, [{ type: "text", text: "gave up" }]);
    assert.match(await guard(aborted.promise, 3_000, "the SDK client to see the cancellation"), /no longer needed/);
    assert.equal(elicitationId, 1, "the session's first server-to-client request");
  } finally {
    await client.close();
    await srv.close();
  }
});
