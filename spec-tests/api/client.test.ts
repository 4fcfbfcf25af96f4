// Spec: 2025-11-25 basic/lifecycle (initialization, capability negotiation, shutdown),
// basic/utilities/ping, client/roots, client/sampling, client/elicitation,
// server/utilities/pagination (client side).
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, deferred, rejection, CLIENT, SERVER } from "./setup.js";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { Endpoint, McpError } from "../../src/driver/endpoint.js";
import { ManualClock } from "../../src/driver/clock.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { attach } from "../../src/api/connection.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { serveNode } from "../../src/transports/http-node.js";

const ok = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

test("lifecycle.mdx Initialization: connect runs the handshake and exposes what the server declared", async () => {
  const server = new McpServer({ ...SERVER, title: "Test", instructions: "Use the tools.", websiteUrl: "https://example.com" }, { clock: new ManualClock() });
  server.tool("t", {}, () => ok("t"));
  const c = await connect(server);
  assert.equal(c.client.protocolVersion, "2025-11-25");
  assert.deepEqual(c.client.serverInfo, { name: SERVER.name, version: SERVER.version, title: "Test", websiteUrl: "https://example.com" });
  assert.equal(c.client.instructions, "Use the tools.");
  assert.deepEqual(Object.keys(c.client.serverCapabilities!).sort(), ["logging", "tools"]);
  assert.ok(c.client.connection instanceof Endpoint);
  // The handshake on the wire: initialize, its result, notifications/initialized.
  assert.deepEqual(c.wire.slice(0, 3).map((w) => w.message.method ?? "result"), ["initialize", "result", "notifications/initialized"]);
  assert.deepEqual(c.wire[0].message.params.clientInfo, CLIENT);
});

test("lifecycle.mdx Capability Negotiation: the client declares the features it has handlers for", async () => {
  const handlers = { sampling: () => ({ role: "assistant" as const, content: { type: "text" as const, text: "" }, model: "m" }), elicitation: () => ({ action: "decline" as const }), roots: () => [] };
  assert.deepEqual(new McpClient(CLIENT).capabilities, {});
  assert.deepEqual(new McpClient(CLIENT, { handlers }).capabilities, { sampling: {}, elicitation: {}, roots: { listChanged: true } });
  assert.deepEqual(new McpClient(CLIENT, { handlers, capabilities: { elicitation: { url: {} }, experimental: { x: {} } } }).capabilities, {
    sampling: {},
    elicitation: { url: {} },
    roots: { listChanged: true },
    experimental: { x: {} },
  });
  const c = await connect(() => {}, { handlers });
  assert.deepEqual(c.wire[0].message.params.capabilities, { sampling: {}, elicitation: {}, roots: { listChanged: true } });
});

test("lifecycle: before connect every request rejects; a client connects once", async () => {
  const client = new McpClient(CLIENT);
  assert.equal((await rejection(client.ping())).code, ErrorCode.ConnectionClosed);
  assert.equal(client.serverInfo, undefined);
  client.notifyRootsChanged(); // not connected: nothing to do, no throw
  client.close();
  const c = await connect();
  assert.equal((await rejection(c.client.connect(createMemoryPair()[1]))).code, ErrorCode.InvalidRequest);
});

test("lifecycle: the handshake fails when the server closes first", async () => {
  const [s, c] = createMemoryPair();
  const client = new McpClient(CLIENT, { clock: new ManualClock() });
  const p = client.connect(c);
  s.close();
  assert.equal((await rejection(p)).code, ErrorCode.ConnectionClosed);
});

test("lifecycle.mdx Version Negotiation: a client that does not support the server's version disconnects", async () => {
  const clock = new ManualClock();
  const server = new McpServer(SERVER, { clock, session: { versions: ["2025-11-25"] } });
  const [s, c] = createMemoryPair();
  server.connect(s);
  const client = new McpClient(CLIENT, { clock, session: { versions: ["2025-06-18"] } });
  const reasons: string[] = [];
  client.onClose((r) => reasons.push(r));
  const e = await rejection(client.connect(c));
  assert.equal(e.code, ErrorCode.ConnectionClosed);
  assert.match(e.message, /2025-11-25/);
  assert.equal(reasons.length, 1);
  assert.match(reasons[0], /2025-11-25/);
  // The kernel's fatal close closed the transport: the server end saw it.
  assert.equal(c.closed, true);
  await Promise.resolve();
  assert.equal(s.closed, true);
});

test("draft basic/transports/stdio Backward Compatibility: a legacy server may answer the server/discover probe not at all; the client falls back to initialize after discoverTimeoutMs (default 10 s, its -32022 retries included), not after the 60 s request timeout", async () => {
  const turns = async () => {
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
  };
  for (const [options, bound, retried] of [[{}, 10_000, false], [{ discoverTimeoutMs: 2_000 }, 2_000, false], [{}, 10_000, true]] as const) {
    const label = JSON.stringify({ options, retried });
    const clock = new ManualClock();
    const [s, c] = createMemoryPair();
    const seen: string[] = [];
    let probe: any;
    s.onMessage((text) => {
      const m = JSON.parse(text);
      seen.push(m.method);
      if (m.method === "server/discover") probe ??= m;
      if (m.method === "initialize") s.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: SERVER } }));
    });
    const client = new McpClient(CLIENT, { clock, session: { versions: ["2026-07-28", "2025-11-25"], ...options } });
    const ready = client.connect(c);
    try {
      await turns();
      let waited = 0;
      if (retried) {
        // A -32022 naming the version sent: the client probes once more, within the same bound.
        clock.advance((waited = 4_000));
        s.send(JSON.stringify({ jsonrpc: "2.0", id: probe.id, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"] } } }));
        await turns();
      }
      const probes = retried ? ["server/discover", "server/discover"] : ["server/discover"];
      assert.deepEqual(seen, probes, label);
      clock.advance(bound - waited - 1);
      await turns();
      assert.deepEqual(seen, probes, label);
      clock.advance(1);
      await turns();
      assert.deepEqual(seen, [...probes, "initialize", "notifications/initialized"], label);
      await ready;
      assert.equal(client.protocolVersion, "2025-11-25");
    } finally {
      client.close();
      await ready.catch(() => {});
    }
  }
});

test("ping.mdx: the receiver MUST respond promptly with an empty response", async () => {
  const c = await connect();
  await c.client.ping();
  const pong = c.wire.find((w) => w.from === "server" && w.message.id === c.sent("client", "ping")[0].id);
  assert.deepEqual(pong!.message.result, {});
});

test("lifecycle.mdx Shutdown: close fails pending requests, tells listeners, and the server forgets the client", async () => {
  const started = deferred();
  const c = await connect((s) => s.tool("hang", {}, () => (started.resolve(), new Promise(() => {}))));
  const reasons: string[] = [];
  c.client.onClose((r) => reasons.push(r));
  const off = c.client.onClose(() => reasons.push("removed listener"));
  off();
  const call = c.client.callTool("hang");
  await started.promise;
  c.client.close();
  assert.equal((await rejection(call)).code, ErrorCode.ConnectionClosed);
  assert.deepEqual(reasons, ["closed"]);
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(c.server.connectionCount, 0);
  assert.equal((await rejection(c.client.ping())).code, ErrorCode.ConnectionClosed);
});

test("client/roots: roots/list is answered by the roots handler; list changes reach the server's listeners", async () => {
  const roots = [{ uri: "file:///project", name: "project" }];
  const c = await connect(() => {}, { handlers: { roots: async () => roots } });
  assert.deepEqual(await c.endpoint.request("roots/list"), { roots });
  const changed = deferred<unknown>();
  const seen: string[] = [];
  c.server.onNotification("notifications/roots/list_changed", (params, peer) => {
    seen.push(peer === c.endpoint ? "this client" : "another");
    changed.resolve(params);
  });
  const off = c.server.onNotification("notifications/roots/list_changed", () => seen.push("removed"));
  off();
  c.client.notifyRootsChanged();
  await changed.promise;
  assert.deepEqual(seen, ["this client"]);
});

test("client/*: a server request the client declared but has no handler for is -32601", async () => {
  const c = await connect(() => {}, { capabilities: { sampling: {}, roots: {}, elicitation: {} } });
  for (const [method, params] of [
    ["sampling/createMessage", { messages: [], maxTokens: 1 }],
    ["roots/list", undefined],
    ["elicitation/create", { message: "?", requestedSchema: { type: "object", properties: {} } }],
  ] as const) {
    const e = await rejection(c.endpoint.request(method, params as any));
    assert.equal(e.code, ErrorCode.MethodNotFound, method);
  }
});

test("client handlers may answer with a JSON-RPC error by throwing an McpError", async () => {
  const c = await connect(() => {}, {
    handlers: {
      sampling: () => {
        throw new McpError({ code: -1, message: "User rejected sampling request" });
      },
    },
  });
  const e = await rejection(c.endpoint.request("sampling/createMessage", { messages: [], maxTokens: 1 }));
  assert.equal(e.code, -1);
  assert.equal(e.message, "User rejected sampling request");
});

test("a throwing notification listener does not break the connection: its error goes to onError", async () => {
  const errors: unknown[] = [];
  const c = await connect((s) => s.tool("t", {}, async (_a, ctx) => (ctx.log("info", "x"), ok("t"))), { onError: (e) => errors.push(e) });
  c.client.onNotification("notifications/message", () => {
    throw new Error("listener bug");
  });
  const seen: unknown[] = [];
  c.client.onNotification("notifications/message", (p) => seen.push(p));
  assert.deepEqual(await c.client.callTool("t"), ok("t"));
  assert.equal((errors[0] as Error).message, "listener bug");
  assert.equal(seen.length, 1);
  const off = c.client.onNotification("notifications/message", () => seen.push("removed"));
  off();
  await c.client.callTool("t");
  assert.equal(seen.length, 2);
});

test("a throwing listener without onError is rethrown on a fresh microtask, not swallowed", async () => {
  const server = new McpServer(SERVER, { clock: new ManualClock() });
  const [s, c] = createMemoryPair();
  const ep = server.connect(s);
  const client = new McpClient(CLIENT, { clock: new ManualClock(), handlers: { roots: () => [] } });
  await client.connect(c);
  server.onNotification("notifications/roots/list_changed", () => {
    throw new Error("no handler for me");
  });
  const caught = deferred<unknown>();
  const prior = process.listeners("uncaughtException");
  process.removeAllListeners("uncaughtException");
  process.once("uncaughtException", (e) => caught.resolve(e));
  try {
    client.notifyRootsChanged();
    assert.equal(((await caught.promise) as Error).message, "no handler for me");
  } finally {
    for (const l of prior) process.on("uncaughtException", l);
  }
  // The endpoint carried on.
  assert.deepEqual(await ep.request("ping"), {});
});

test("pagination.mdx (client): the iterator follows nextCursor and refuses a server that repeats one", async () => {
  // A hand-made server whose cursor never advances.
  const clock = new ManualClock();
  const [s, c] = createMemoryPair();
  const caps = { tools: {} };
  attach(s, { role: "server", info: SERVER, capabilities: caps }, { onRequest: (method) => (method === "tools/list" ? { tools: [{ name: "loop", inputSchema: { type: "object" } }], nextCursor: "same" } : {}) }, clock);
  const client = new McpClient(CLIENT, { clock });
  await client.connect(c);
  const names: string[] = [];
  const e = await rejection(
    (async () => {
      for await (const t of client.iterateTools()) names.push(t.name);
    })(),
  );
  assert.equal(e.code, ErrorCode.InternalError);
  assert.match(e.message, /repeated a cursor/);
  assert.deepEqual(names, ["loop", "loop"]);
});

test("pagination (draft server/utilities/pagination: an empty string is a valid cursor and thus MUST NOT be treated as the end of results): the iterator asks for the page after nextCursor \"\"", async () => {
  const clock = new ManualClock();
  const [s, c] = createMemoryPair();
  const asked: unknown[] = [];
  const onRequest = (method: string, params: any) => {
    if (method !== "tools/list") return {};
    asked.push(params?.cursor);
    return params?.cursor === "" ? { tools: [{ name: "second", inputSchema: { type: "object" } }] } : { tools: [{ name: "first", inputSchema: { type: "object" } }], nextCursor: "" };
  };
  attach(s, { role: "server", info: SERVER, capabilities: { tools: {} } }, { onRequest }, clock);
  const client = new McpClient(CLIENT, { clock });
  await client.connect(c);
  const names: string[] = [];
  for await (const t of client.iterateTools()) names.push(t.name);
  assert.deepEqual(names, ["first", "second"]);
  assert.deepEqual(asked, [undefined, ""]);
});

test("requests the class has no method for go through client.request", async () => {
  const c = await connect((s) => s.tool("t", {}, () => ok("t")));
  assert.deepEqual(await c.client.request("tools/call", { name: "t" }), ok("t"));
});

test("timeouts: a request with timeoutMs fails with -32001 when the clock passes it, and the server is told", async () => {
  const started = deferred();
  const c = await connect((s) => s.tool("hang", {}, () => (started.resolve(), new Promise(() => {}))));
  const call = c.client.callTool("hang", {}, { timeoutMs: 1000 });
  await started.promise;
  c.clock.advance(1000);
  assert.equal((await rejection(call)).code, ErrorCode.RequestTimeout);
  assert.equal(c.sent("client", "notifications/cancelled").length, 1);
});

test("draft basic/patterns/subscriptions, Graceful Closure: McpServer.close() answers each open subscriptions/listen with its completion result before the transport closes; the client's listen resolves with it", async () => {
  const modern = { session: { versions: ["2026-07-28" as const] } };
  const c = await connect((s) => s.tool("t", {}, () => ok("t")), modern, modern);
  const closed = deferred<string>();
  c.client.onClose((r) => closed.resolve(r));
  const listens = [c.client.request("subscriptions/listen", { notifications: { toolsListChanged: true } }), c.client.request("subscriptions/listen", { notifications: { toolsListChanged: true } })];
  await c.client.listTools(); // answered after both listens were opened (the pair delivers in order)
  c.server.close();
  const ids = c.wire.filter((w) => w.from === "client" && w.message.method === "subscriptions/listen").map((w) => w.message.id);
  for (const [i, listen] of listens.entries()) {
    // Draft basic/index: servers SHOULD put serverInfo in every result's _meta, this one's too.
    assert.deepEqual(await listen, { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": ids[i], "io.modelcontextprotocol/serverInfo": SERVER } });
  }
  await closed.promise;
});

// draft basic/versioning ("A server that wishes to support both legacy clients … and modern
// clients … MAY implement both behaviors"; Compatibility Matrix: a dual-era server works
// with modern and legacy clients alike).
test("basic/versioning: an McpServer given no versions is dual-era: a 2026-07-28 client, a 2025-11-25 one and a 2025-03-26 one are each served in their version, over memory and over HTTP; a client given none speaks the 2025 versions without probing", async () => {
  const build = () => {
    const server = new McpServer(SERVER);
    server.tool("era", {}, (_args, ctx) => ({ content: [{ type: "text", text: ctx.protocolVersion ?? "none" }] }));
    return server;
  };
  for (const versions of [["2026-07-28"], ["2025-11-25"], ["2025-03-26"]] as const) {
    const c = await connect(build(), { session: { versions: [...versions] } });
    assert.equal(c.client.protocolVersion, versions[0]);
    assert.deepEqual((await c.client.callTool("era")).content, [{ type: "text", text: versions[0] }]);
    c.client.close();
  }
  const plain = await connect(build());
  assert.equal(plain.client.protocolVersion, "2025-11-25");
  assert.equal(plain.sent("client", "server/discover").length, 0, "no probe");
  const server = build();
  const srv = await serveNode(createHttpHandler({ path: "/mcp", createSession: server.httpSession() }), { port: 0, host: "127.0.0.1" });
  try {
    for (const versions of [["2026-07-28"], ["2025-11-25"]] as const) {
      const client = new McpClient(CLIENT, { session: { versions: [...versions] } });
      await client.connect(httpClientTransport(`${srv.url}/mcp`));
      assert.deepEqual((await client.callTool("era")).content, [{ type: "text", text: versions[0] }], `HTTP ${versions[0]}`);
      await client.close();
    }
  } finally {
    await srv.close();
  }
});
