// Spec: 2025-11-25 basic/lifecycle (capability negotiation) and server/tools, served by
// McpServer.handler() under an endpoint the application made itself (as an HTTP adapter
// does, one per session).
import { test } from "node:test";
import assert from "node:assert/strict";
import { CLIENT, SERVER, rejection } from "./setup.js";
import { McpServer, ProtocolError } from "../../src/api/server.js";
import { McpClient } from "../../src/api/client.js";
import { attach } from "../../src/api/connection.js";
import { ManualClock } from "../../src/driver/clock.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { createMemoryPair } from "../../src/transports/memory.js";

const ok = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

test("sessionOptions: role, serverInfo fields, derived and forced capabilities, instructions, session settings", () => {
  const s = new McpServer({ ...SERVER, title: "T", description: "D", icons: [{ src: "https://example.com/i.png" }], instructions: "I" }, {
    logging: false,
    capabilities: { tools: { listChanged: true }, experimental: { demo: {} } },
    session: { requestTimeoutMs: 5 },
  });
  const o = s.sessionOptions();
  assert.equal(o.role, "server");
  assert.deepEqual(o.info, { name: SERVER.name, version: SERVER.version, title: "T", description: "D", icons: [{ src: "https://example.com/i.png" }] });
  assert.equal(o.instructions, "I");
  assert.equal(o.requestTimeoutMs, 5);
  // tools declared before any tool exists, so a later registration can be announced.
  assert.deepEqual(o.capabilities, { tools: { listChanged: true }, experimental: { demo: {} } });
  s.tool("t", {}, () => ok("t"));
  assert.deepEqual(s.capabilities.tools, { listChanged: true });
  assert.equal(new McpServer(SERVER).sessionOptions().instructions, undefined);
});

test("handler() under a hand-made endpoint, attached for changes and detached again", async () => {
  const clock = new ManualClock();
  const server = new McpServer(SERVER, { clock, capabilities: { tools: { listChanged: true } } });
  const [s, c] = createMemoryPair();
  const endpoint = attach(s, server.sessionOptions(), { onRequest: server.handler(), onNotification: (m, p) => server.emit(m, p, endpoint) }, clock);
  server.attach(endpoint);
  server.attach(endpoint); // once is enough
  assert.equal(server.connectionCount, 1);
  const client = new McpClient(CLIENT, { clock });
  await client.connect(c);
  let changes = 0;
  client.onNotification("notifications/tools/list_changed", () => changes++);
  server.tool("late", {}, () => ok("late"));
  await client.ping();
  assert.equal(changes, 1);
  assert.deepEqual(await client.callTool("late"), ok("late"));
  server.detach(endpoint);
  server.tool("later", {}, () => ok("later"));
  await client.ping();
  assert.equal(changes, 1);
  server.emit("notifications/unheard", undefined); // no listener: nothing happens
});

test("methods McpServer does not serve go to the fallback handler, else -32601", async () => {
  const clock = new ManualClock();
  const make = (fallback?: ConstructorParameters<typeof McpServer>[1]) => {
    const server = new McpServer(SERVER, { clock, ...fallback });
    server.tool("t", {}, () => ok("t"));
    return server.handler();
  };
  const ctx = {} as any;
  assert.throws(() => make()("tasks/list", undefined, ctx), (e: any) => e.code === ErrorCode.MethodNotFound);
  assert.deepEqual(await make({ fallback: (method) => ({ handledBy: method }) })("tasks/list", undefined, ctx), { handledBy: "tasks/list" });
  // Through a session, the kernel still gates what reaches the handler.
  const server = new McpServer(SERVER, { clock, fallback: () => ({}) });
  const [s, c] = createMemoryPair();
  server.connect(s);
  const client = new McpClient(CLIENT, { clock });
  await client.connect(c);
  assert.equal((await rejection(client.request("tools/list"))).code, ErrorCode.MethodNotFound);
});

test("McpServerOptions.intercept (a middleware seam for SDKs built on the server): every request its handlers serve passes through it, on a memory connection, a legacy HTTP session and a modern HTTP request alike; next() serves it, a changed result is the answer, a thrown McpError the error; the kernel's own requests (initialize, ping) never reach it", async () => {
  const { createHttpHandler } = await import("../../src/transports/http-server.js");
  const { httpClientTransport } = await import("../../src/transports/http-client.js");
  const { McpError } = await import("../../src/driver/endpoint.js");
  const seen: string[] = [];
  const server = new McpServer(SERVER, {
    session: { versions: ["2026-07-28", "2025-11-25"] },
    intercept: async (method, params, ctx, next) => {
      seen.push(`${method}${params?.name === undefined ? "" : ` ${params.name}`}`);
      if (params?.name === "secret") throw new McpError({ code: ErrorCode.InvalidParams, message: "not for you" });
      const result = await next();
      return method === "tools/call" ? { ...result, _meta: { intercepted: ctx.id } } : result;
    },
  });
  server.tool("echo", {}, () => ok("e"));
  server.tool("secret", {}, () => ok("s"));
  const [s, c] = createMemoryPair();
  server.connect(s);
  const memory = new McpClient(CLIENT);
  await memory.connect(c);
  await memory.ping();
  assert.deepEqual((await memory.callTool("echo")).content, ok("e").content);
  assert.equal((await rejection(memory.callTool("secret"))).message, "not for you");
  assert.deepEqual(seen, ["tools/call echo", "tools/call secret"], "no initialize, no ping");
  memory.close();
  const handler = createHttpHandler({ createSession: server.httpSession() });
  const fetchFn = (input: RequestInfo | URL, init?: RequestInit) => handler(new Request(input, init));
  for (const versions of [["2025-11-25"], ["2026-07-28"]] as const) {
    seen.length = 0;
    const http = new McpClient(CLIENT, { session: { versions: [...versions] } });
    await http.connect(httpClientTransport("http://127.0.0.1/mcp", { fetch: fetchFn }));
    const r = await http.callTool("echo");
    assert.ok((r._meta as { intercepted?: unknown }).intercepted !== undefined, versions[0]);
    await http.listTools();
    assert.deepEqual(seen, ["tools/call echo", "tools/list"], versions[0]);
    await http.close();
  }
  handler.close();
  assert.throws(() => new McpServer(SERVER, { intercept: "log" as never }), /intercept must be a function/);
});

test("McpServerOptions.intercept and tasks (2025-11-25 basic/utilities/tasks, SEP-2663): a tools/call run as a task passes twice, as the request (next() gives the CreateTaskResult) and as the task's work (ctx.taskId set), so an error the work throws is mapped in both eras", async () => {
  const { McpError } = await import("../../src/driver/endpoint.js");
  for (const version of ["2025-11-25", "2026-07-28"] as const) {
    const seen: string[] = [];
    const server = new McpServer(SERVER, {
      session: { versions: [version] },
      intercept: async (method, _params, ctx, next) => {
        seen.push(`${method}${ctx.taskId === undefined ? "" : " (task work)"}`);
        // The work's context says what the request's did: what this side declared.
        if (ctx.declared === undefined) seen.push("no declared capabilities");
        try {
          return await next();
        } catch {
          // What a server says of its own failures is the intercept's to word: no connection string leaves it.
          throw new McpError({ code: ErrorCode.InternalError, message: "the job failed" });
        }
      },
    });
    let workTask: string | undefined;
    server.tool("job", { execution: { taskSupport: "optional" } }, () => {
      throw new ProtocolError({ code: ErrorCode.InternalError, message: "db at postgres://admin:hunter2@db failed" });
    });
    server.tool("plain", {}, () => ok("plain"));
    server.tool("probe", { execution: { taskSupport: "optional" } }, (_args, ctx) => {
      workTask = ctx.taskId;
      return ok("p");
    });
    const [s, c] = createMemoryPair();
    server.connect(s);
    const client = new McpClient(CLIENT, { session: { versions: [version] }, tasks: true });
    await client.connect(c);
    const created = await client.callToolAsTask("job");
    const taskId = client.taskIdOf(created)!;
    assert.equal(typeof taskId, "string", version);
    const failure = await rejection(client.waitForTask(taskId, { intervalMs: 0 }));
    assert.equal(failure.message, "the job failed", version);
    assert.deepEqual(seen.slice(0, 2), ["tools/call", "tools/call (task work)"], version);
    assert.ok(!seen.includes("no declared capabilities"), version);
    const probe = client.taskIdOf(await client.callToolAsTask("probe"))!;
    await client.waitForTask(probe, { intervalMs: 0 });
    assert.equal(workTask, probe, `${version}: the work's context names its task`);
    // A call that does not run as a task passes once.
    seen.length = 0;
    await client.callTool("plain");
    assert.deepEqual(seen, ["tools/call"], version);
    client.close();
  }
});

test("McpServerOptions.onEvent says where each event comes from (diagnostics audit: with many connections the embedder could not tell them apart): the connection's endpoint, and for an HTTP session its MCP-Session-Id and principal", async () => {
  const { createHttpHandler } = await import("../../src/transports/http-server.js");
  const { httpClientTransport } = await import("../../src/transports/http-client.js");
  const seen: { type: string; connection: unknown; sessionId?: string; principal?: string }[] = [];
  const server = new McpServer(SERVER, { onEvent: (e, from) => e.type === "initialized" && seen.push({ type: e.type, ...from }) });
  const endpoints = [];
  for (let i = 0; i < 2; i++) {
    const [s, c] = createMemoryPair();
    endpoints.push(server.connect(s));
    await new McpClient(CLIENT).connect(c);
  }
  assert.deepEqual(seen.map((e) => e.connection), endpoints, "one connection each");
  const handler = createHttpHandler({ createSession: server.httpSession({ principalOf: () => "alice" }) });
  const client = new McpClient(CLIENT);
  let sessionId: string | null = null;
  await client.connect(httpClientTransport("http://127.0.0.1/mcp", { fetch: async (input, init) => {
    const r = await handler(new Request(input, init));
    sessionId ??= r.headers.get("mcp-session-id");
    return r;
  } }));
  await client.ping(); // after notifications/initialized, whose arrival is the server's "initialized"
  assert.deepEqual([seen[2].sessionId, seen[2].principal], [sessionId, "alice"]);
  assert.ok(seen[2].connection !== undefined && !endpoints.includes(seen[2].connection as never));
  await client.close();
  handler.close();
});

test("McpServer serving many connections (server/tools, server/resources, server/utilities/logging: each client is told): one connection whose transport throws on send or close keeps no other from its list_changed, resources/updated and log messages, nor from server.close(); its errors go to onError, not into the caller (found by review: the first throw ended the fan-out, and a registration's flush threw uncaught)", { timeout: 10_000 }, async () => {
  const clock = new ManualClock();
  const errors: string[] = [];
  const server = new McpServer(SERVER, { clock, onError: (e) => errors.push((e as Error).message) });
  server.tool("t", {}, () => ok("t"));
  server.resource("file:///a", { name: "a" }, () => ({ contents: [] }));
  let broken = false;
  const heard: string[][] = [];
  const clients: McpClient[] = [];
  for (let i = 0; i < 3; i++) {
    const [s, c] = createMemoryPair();
    // The first connection's transport fails once `broken`: a custom transport (a socket wrapper) whose send and close throw.
    const failing = { send: (text: string) => (broken ? assert.fail("send failed") : s.send(text)), onMessage: s.onMessage.bind(s), onClose: s.onClose.bind(s), close: () => (s.close(), assert.fail("close failed")) };
    server.connect(i === 0 ? failing : s);
    const client = new McpClient(CLIENT, { clock });
    await client.connect(c);
    await client.subscribeResource("file:///a");
    await client.setLoggingLevel("info");
    const mine: string[] = [];
    for (const m of ["notifications/tools/list_changed", "notifications/resources/list_changed", "notifications/resources/updated", "notifications/message"]) client.onNotification(m, () => mine.push(m));
    heard.push(mine);
    clients.push(client);
  }
  broken = true;
  server.tool("t2", {}, () => ok("t2"));
  server.resource("file:///b", { name: "b" }, () => ({ contents: [] }));
  await Promise.resolve(); // the registrations' flush
  server.notifyResourceUpdated("file:///a");
  server.log("info", "hello");
  for (const client of clients.slice(1)) await client.ping();
  const all = ["notifications/tools/list_changed", "notifications/resources/list_changed", "notifications/resources/updated", "notifications/message"];
  assert.deepEqual(heard[1], all);
  assert.deepEqual(heard[2], all);
  assert.deepEqual(errors, ["send failed", "send failed", "send failed", "send failed"]);
  let closed = 0;
  for (const client of clients.slice(1)) client.onClose(() => closed++);
  server.close();
  for (const client of clients.slice(1)) await rejection(client.ping());
  assert.equal(closed, 2, "the connections after the one whose close threw are closed too");
  assert.equal(server.connectionCount, 0);
  assert.equal(errors.at(-1), "close failed");
});
