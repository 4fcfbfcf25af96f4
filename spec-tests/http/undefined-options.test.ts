// README "Options checked where they are given": an option given as `undefined` is read as
// one left out, in every options object: here those of the Streamable HTTP handler, its
// session setup, the node:http bridge and the client transport (2025-11-25
// basic/transports, "Streamable HTTP"; Security Warning item 2: bound to 127.0.0.1 by default).
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { Endpoint } from "../../src/driver/endpoint.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { encode } from "../../src/jsonrpc/codec.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { serveNode } from "../../src/transports/http-node.js";
import { createHttpHandler, type HttpSessionSetup } from "../../src/transports/http-server.js";
import { CLIENT_NONE, EVENT_STORE_NONE, HANDLER_NONE, HTTP_CLIENT_NONE, RECONNECT_NONE, SERVE_NODE_NONE, SERVER_NONE, type AllUndefined } from "../harness/undefined-options.js";

test('README "Options checked where they are given" (an option given as undefined is read as left out): createHttpHandler, serveNode and httpClientTransport with every option undefined serve a round trip on the defaults (127.0.0.1, every path, a session per client); a session setup whose optional fields are all undefined serves with the default handler (-32601)', async () => {
  const server = new McpServer({ name: "s", version: "1" }, SERVER_NONE);
  server.tool("echo", {}, (a) => ({ content: [{ type: "text", text: JSON.stringify(a) }] }));
  const handler = createHttpHandler({ ...HANDLER_NONE, eventStore: EVENT_STORE_NONE, createSession: server.httpSession({ principalOf: undefined }) });
  const srv = await serveNode(handler, SERVE_NODE_NONE);
  try {
    assert.equal(srv.url, `http://127.0.0.1:${srv.port}`);
    const client = new McpClient({ name: "c", version: "1" }, CLIENT_NONE);
    await client.connect(httpClientTransport(`${srv.url}/any/path`, { ...HTTP_CLIENT_NONE, reconnect: RECONNECT_NONE }));
    assert.deepEqual((await client.callTool("echo", { x: 1 })).content, [{ type: "text", text: '{"x":1}' }]);
    assert.equal(handler.sessionCount, 1);
    await client.close();
  } finally {
    handler.close();
    await srv.close();
  }

  const SETUP_NONE: AllUndefined<Omit<HttpSessionSetup, "options">> = {
    onRequest: undefined,
    onNotification: undefined,
    onEvent: undefined,
    onError: undefined,
    onOpen: undefined,
    onClose: undefined,
    record: undefined,
    principalOf: undefined,
    toolInputSchema: undefined,
  };
  const bare = createHttpHandler({ ...HANDLER_NONE, createSession: () => ({ ...SETUP_NONE, options: { role: "server", info: { name: "bare", version: "1" }, capabilities: {} } }) });
  const t = httpClientTransport("http://localhost/mcp", { ...HTTP_CLIENT_NONE, fetch: (input, init) => bare(new Request(input, init)), openGetStream: false });
  const ep = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {} }, { send: (m) => t.send(encode(m)) });
  t.onMessage((text) => ep.receive(text));
  await ep.open();
  await assert.rejects(ep.request("tools/list"), (e: { code?: number }) => e.code === ErrorCode.MethodNotFound);
  t.close();
  bare.close();
});
