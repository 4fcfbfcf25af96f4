// Spec: 2025-11-25 basic/transports ("Streamable HTTP") with the product API on both
// ends: McpServer behind createHttpHandler, McpClient over httpClientTransport. A tool
// registered after the client connected reaches it as list_changed on the GET stream
// ("Listening for Messages from the Server": unrelated server messages).
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpServer, ProtocolError } from "../../src/api/server.js";
import { McpError } from "../../src/driver/endpoint.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { Endpoint } from "../../src/driver/endpoint.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { serveNode } from "../../src/transports/http-node.js";
import { deferred, URL_ } from "./helpers.js";
import { rejection } from "../api/setup.js";

/** A client transport calling `handler` directly; `getOpen` settles once the client's GET stream is open. */
function throughHandler(handler: (req: Request) => Promise<Response>) {
  const getOpen = deferred();
  const transport = httpClientTransport(URL_, {
    fetch: async (url, init) => {
      const req = new Request(url, init);
      const res = await handler(req);
      if (req.method === "GET") getOpen.resolve();
      return res;
    },
  });
  return { transport, getOpen };
}

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
  const { transport, getOpen } = throughHandler(handler);
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

// basic/transports (2025-11-25), Session Management item 4: after a 404 the client "MUST
// start a new session by sending a new InitializeRequest without a session ID attached".
// The new session's server may be another one (a restart): the client takes its answer as
// what the server is now, forgets what the old tools/list taught it, and tells the
// application, which subscribes again (the old subscriptions died with the old session).
test("api over Streamable HTTP: a session renewed after a server restart updates serverInfo and capabilities, forgets the old outputSchemas, and fires onSessionRenewed so the application re-subscribes", async () => {
  const generation = (n: number, outputSchema: { type: "object"; [k: string]: unknown }, structuredContent: JsonObject) => {
    const server = new McpServer({ name: `gen${n}`, version: String(n) });
    server.tool("echo", { inputSchema: { type: "object" }, outputSchema }, () => ({ content: [], structuredContent }));
    server.resource("file:///a", { name: "a" }, () => ({ contents: [{ uri: "file:///a", text: "A" }] }));
    if (n === 2) server.prompt("p", {}, () => ({ messages: [] }));
    return { server, handler: createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() }) };
  };
  const one = generation(1, { type: "object", properties: { y: { type: "string" } }, required: ["y"] }, { y: "v1" });
  const two = generation(2, { type: "object", properties: { z: { type: "number" } }, required: ["z"] }, { z: 2 });
  let live = one;
  const transport = httpClientTransport(URL_, { fetch: (url, init) => live.handler(new Request(url, init)) });
  const client = new McpClient({ name: "api-client", version: "1.0.0" });
  await client.connect(transport);
  await client.listTools();
  await client.subscribeResource("file:///a");
  assert.equal(client.serverInfo?.name, "gen1");
  assert.equal(client.serverCapabilities?.prompts, undefined);
  const resubscribed = deferred();
  let renewals = 0;
  client.onSessionRenewed(() => {
    renewals++;
    // What the application does: subscribe again on the new session.
    client.subscribeResource("file:///a").then(() => resubscribed.resolve());
  });
  // The server restarts: the old session id is unknown to the new process (404).
  live = two;
  one.handler.close();
  const r = await client.callTool("echo");
  assert.deepEqual(r.structuredContent, { z: 2 }, "not checked against the old server's outputSchema");
  assert.equal(renewals, 1);
  assert.equal(client.serverInfo?.name, "gen2");
  assert.deepEqual(client.serverCapabilities?.prompts, { listChanged: true });
  // The new capability is usable (the kernel checks requests against what the new server declared).
  assert.deepEqual((await client.listPrompts()).prompts.map((p) => p.name), ["p"]);
  await resubscribed.promise;
  const updated = deferred();
  client.onNotification("notifications/resources/updated", () => updated.resolve());
  two.server.notifyResourceUpdated("file:///a");
  await updated.promise;
  client.close();
  two.handler.close();
});

// 2025-11-25 client/elicitation (URL mode): a server that answers `-32042` later sends
// `notifications/elicitation/complete` for the elicitation. The request has ended by then:
// the notification goes out unrelated, on the session's GET stream (basic/transports,
// "Listening for Messages from the Server"), through the context the tool kept.
test("api over Streamable HTTP: a tool answers -32042 and, after its request ended, its kept ctx.notify sends elicitation/complete, which the client hears", async () => {
  const server = new McpServer({ name: "api-http", version: "1.0.0" });
  const kept = deferred<{ notify(method: string, params?: JsonObject): void }>();
  server.tool("pay", {}, (_args, ctx) => {
    kept.resolve(ctx);
    throw new ProtocolError({ code: ErrorCode.UrlElicitationRequired, message: "confirm the payment", data: { elicitations: [{ mode: "url", message: "Confirm", url: "https://example.com/confirm/e1", elicitationId: "e1" }] } });
  });
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
  const { transport, getOpen } = throughHandler(handler);
  const client = new McpClient({ name: "api-client", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } }, handlers: { elicitation: () => ({ action: "decline" }) } });
  await client.connect(transport);
  await assert.rejects(client.callTool("pay"), (e: McpError) => e.code === ErrorCode.UrlElicitationRequired);
  await getOpen.promise;
  const completed = deferred<JsonObject | undefined>();
  client.onNotification("notifications/elicitation/complete", (params) => completed.resolve(params));
  (await kept.promise).notify("notifications/elicitation/complete", { elicitationId: "e1" });
  assert.deepEqual(await completed.promise, { elicitationId: "e1" });
  client.close();
});

// 2025-11-25 basic/transports, Session Management item 4 (a 404 → a new session), and what
// the README promises when the server is away: an unreachable server fails each call with
// -32000 but does not close the client; once a server answers there again (a restart:
// the old session is unknown to it), the next call goes through in a new session.
test("api over real sockets: a server that cannot be reached fails the call with -32000 and leaves the client open; back on the same port, the next call runs in a new session", async () => {
  const serve = async (name: string, port = 0) => {
    const s = new McpServer({ name, version: "1.0.0" }, { session: { versions: ["2025-11-25"] } });
    s.tool("who", {}, () => ({ content: [{ type: "text", text: name }] }));
    const handler = createHttpHandler({ path: "/mcp", createSession: s.httpSession(), sessionIdleMs: 0 });
    return { handler, http: await serveNode(handler, { port, host: "127.0.0.1" }) };
  };
  const first = await serve("first");
  const client = new McpClient({ name: "c", version: "1.0.0" }, { session: { versions: ["2025-11-25"] } });
  const closes: string[] = [];
  let renewals = 0;
  client.onClose((r) => closes.push(r));
  client.onSessionRenewed(() => renewals++);
  // No standalone-stream retries in between: a parked sleep keeps the test off the clock.
  await client.connect(httpClientTransport(`${first.http.url}/mcp`, { sleep: () => new Promise<void>(() => {}) }));
  assert.deepEqual((await client.callTool("who")).content, [{ type: "text", text: "first" }]);
  first.handler.close();
  await first.http.close();
  await assert.rejects(client.callTool("who"), (e: McpError) => e.code === ErrorCode.ConnectionClosed && /POST failed/.test(e.message));
  assert.deepEqual(closes, [], "the client stays open");
  const second = await serve("second", first.http.port);
  try {
    assert.deepEqual((await client.callTool("who")).content, [{ type: "text", text: "second" }]);
    assert.equal(renewals, 1);
    assert.deepEqual(closes, []);
  } finally {
    client.close();
    second.handler.close();
    await second.http.close();
  }
});

test("api over Streamable HTTP (basic/utilities/progress, server → client request): an onProgress of a tool's ctx.sample that throws goes to McpServer's onError (httpSession() passes it to the session's endpoint), and the sample still answers", async () => {
  const errors: unknown[] = [];
  const server = new McpServer({ name: "api-http", version: "1.0.0" }, { onError: (e) => errors.push(e) });
  server.tool("ask", {}, async (_args, ctx) => {
    const r = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 }, { onProgress: () => { throw new Error("listener bug"); } });
    return { content: [{ type: "text", text: (r.content as { text: string }).text }] };
  });
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
  const { transport } = throughHandler(handler);
  const client = new McpClient({ name: "api-client", version: "1.0.0" }, {
    handlers: {
      sampling: (_params, ctx) => {
        ctx.progress(1, 2);
        return { role: "assistant", content: { type: "text", text: "sampled" }, model: "m" };
      },
    },
  });
  await client.connect(transport);
  const r = await client.callTool("ask", {});
  assert.equal((r.content[0] as { text: string }).text, "sampled");
  assert.deepEqual(errors.map((e) => (e as Error).message), ["listener bug"]);
  client.close();
  handler.close();
});

// basic/transports (2025-11-25), Session Management item 4, with the README's "When the
// server goes away": a 404 whose new session meets a server that is not reachable yet (a
// restart still under way, a draining instance's 503) does not end the client; that one
// call fails, and the next starts the new session.
test("api over Streamable HTTP: a renewal after a 404 that meets a 503, or a fetch that fails, is put off: that call fails with -32000 and the client stays open; the next call starts the new session and goes through", async () => {
  for (const outage of ["503", "network"] as const) {
    const generation = () => {
      const server = new McpServer({ name: "gen", version: "1" });
      server.tool("echo", {}, () => ({ content: [{ type: "text", text: "ok" }] }));
      return createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
    };
    let live = generation();
    let initializeFails = 0;
    const client = new McpClient({ name: "api-client", version: "1.0.0" });
    const closed: string[] = [];
    client.onClose((r) => closed.push(r));
    let renewals = 0;
    client.onSessionRenewed(() => renewals++);
    await client.connect(httpClientTransport(URL_, {
      openGetStream: false,
      fetch: async (url, init) => {
        if (initializeFails > 0 && typeof init?.body === "string" && init.body.includes('"initialize"')) {
          initializeFails--;
          if (outage === "network") throw new TypeError("fetch failed");
          return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message: "the server is closing" } }), { status: 503, headers: { "content-type": "application/json" } });
        }
        return live(new Request(url, init));
      },
    }));
    // The server restarts (404 for the old session), and the first initialize meets the outage.
    live.close();
    live = generation();
    initializeFails = 1;
    const e = await rejection(client.callTool("echo"));
    assert.equal(e.code, ErrorCode.ConnectionClosed, outage);
    assert.match(e.message, /a new session could not be started yet .*the next request tries again/, outage);
    assert.deepEqual(closed, [], `${outage}: the client stays open`);
    const r = await client.callTool("echo");
    assert.deepEqual(r.content, [{ type: "text", text: "ok" }], outage);
    assert.equal(renewals, 1, outage);
    client.close();
    live.close();
  }
});
