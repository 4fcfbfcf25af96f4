// Spec: 2025-11-25 basic/transports ("Streamable HTTP") with the product API on both
// ends: McpServer behind createHttpHandler, McpClient over httpClientTransport. A tool
// registered after the client connected reaches it as list_changed on the GET stream
// ("Listening for Messages from the Server": unrelated server messages).
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import type { Endpoint } from "../../src/driver/endpoint.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { deferred, URL_ } from "./helpers.js";

test("api over Streamable HTTP: McpServer sessions per MCP-Session-Id, McpClient over fetch, list_changed on the GET stream", async () => {
  const server = new McpServer({ name: "api-http", version: "1.0.0" });
  server.tool("add", { description: "adds", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }, (args) => ({
    content: [{ type: "text", text: String((args.a as number) + (args.b as number)) }],
  }));
  const opened = deferred<Endpoint>();
  const handler = createHttpHandler({
    sessionIdleMs: 0,
    createSession: (ctx) => {
      const setup = server.httpSession()(ctx);
      return { ...setup, onOpen: (e, id) => (setup.onOpen?.(e, id), opened.resolve(e)) };
    },
  });
  const getOpen = deferred();
  const transport = httpClientTransport(URL_, {
    fetch: async (url, init) => {
      const req = new Request(url, init);
      const res = await handler(req);
      if (req.method === "GET") getOpen.resolve();
      return res;
    },
  });
  const client = new McpClient({ name: "api-client", version: "1.0.0" });
  await client.connect(transport);
  await opened.promise;
  const r = await client.callTool("add", { a: 2, b: 3 });
  assert.equal((r.content[0] as { text: string }).text, "5");
  await getOpen.promise;
  const changed = deferred();
  client.onNotification("notifications/tools/list_changed", () => changed.resolve());
  server.tool("mul", { inputSchema: { type: "object" } }, () => ({ content: [] }));
  await changed.promise;
  const tools = await client.listTools();
  assert.deepEqual(tools.tools.map((t) => t.name), ["add", "mul"]);
  assert.equal(server.connectionCount, 1);
  // Closing the client DELETEs the session; the server's endpoint is detached with it.
  client.close();
  assert.equal(handler.sessionCount, 0);
  assert.equal(server.connectionCount, 0);
});
