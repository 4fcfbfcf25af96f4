/**
 * A stateless Streamable HTTP handler (`createHttpHandler({ stateless: true })`): 2025-era
 * clients served without sessions, each POST by a kernel of its own.
 *
 * Spec: 2025-11-25 `basic/transports`, "Session Management" (a server MAY assign a session
 * ID), "Protocol Version Header" (the server SHOULD assume 2025-03-26 without the header;
 * an unsupported one MUST get 400), "Listening for Messages from the Server" (a GET is
 * answered with a stream or 405), Session Management item 5 (a DELETE MAY get 405);
 * 2025-11-25 `basic/utilities/tasks`, Security ("receivers that cannot identify requestors
 * SHOULD NOT declare the tasks.list capability").
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { MemoryTaskStore } from "../../src/api/tasks-store.js";
import { createHttpHandler, type HttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { serveNode } from "../../src/transports/http-node.js";
import { negotiatedVersion } from "../../src/session/session.js";
import { ManualClock } from "../../src/driver/clock.js";
import { sdk1Driver, sdk2Driver } from "../interop/drivers.js";
import { call, deferred, get, initializeMessage, makeHandler, post, SseReader, Tools, until, URL_ } from "./helpers.js";

const stateless = (tools = new Tools(), more = {}) => makeHandler(tools, { stateless: true, ...more });

/** The response on a stream, past the notifications before it. */
async function answerOn(sse: SseReader): Promise<any> {
  for (;;) {
    const { msg } = await sse.message();
    if (!("method" in msg)) return msg;
  }
}

test("basic/transports Session Management: a stateless handler answers initialize without MCP-Session-Id, and keeps no session", async () => {
  const { handler, tools } = stateless();
  const r = await post(handler, initializeMessage("2025-11-25"));
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("mcp-session-id"), null);
  const body = await r.json();
  assert.equal(body.result.protocolVersion, "2025-11-25");
  await until(() => tools.closed.length === 1);
  assert.equal(handler.sessionCount, 0);
  assert.equal(tools.endpoints.length, 1, "the session opened, answered, and ended");
  // The client's initialized notification has no kernel to reach: accepted, nothing made.
  const n = await post(handler, { jsonrpc: "2.0", method: "notifications/initialized" }, undefined, "2025-11-25");
  assert.equal(n.status, 202);
  assert.equal(tools.endpoints.length, 1);
});

test("basic/transports: each stateless request is served by a kernel handed the client's handshake at its MCP-Protocol-Version; its events carry no ids (nothing can resume them)", async () => {
  const { handler, tools } = stateless();
  const r = await post(handler, call(1, "wait"), undefined, "2025-11-25");
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("content-type"), "text/event-stream");
  assert.equal(r.headers.get("mcp-session-id"), null);
  const sse = new SseReader(r);
  const log = await sse.next();
  // No priming event (SEP-1699 primes resumption, which a stateless server cannot offer) and no id.
  assert.equal(log?.id, "");
  assert.equal(JSON.parse(log!.data).method, "notifications/message");
  assert.equal(negotiatedVersion(tools.endpoints[0].state), "2025-11-25");
  assert.equal(handler.sessionCount, 1, "the request in progress counts");
  tools.release();
  const rest = await sse.rest();
  assert.deepEqual(rest.map((e) => e.id), ["", ""]);
  assert.equal(JSON.parse(rest[1].data).result.content[0].text, "waited");
  await until(() => tools.closed.length === 1);
  assert.equal(handler.sessionCount, 0, "the session ended with its answer");
});

test("basic/transports Protocol Version Header: without the header a stateless request is served at 2025-03-26 (SHOULD assume)", async () => {
  const { handler, tools } = stateless();
  const r = await post(handler, call(1, "echo", { text: "hi" }));
  assert.equal(r.status, 200);
  const msg = await new SseReader(r).message();
  assert.equal(msg.msg.result.content[0].text, "hi");
  assert.equal(negotiatedVersion(tools.endpoints[0].state), "2025-03-26");
});

test("basic/transports Protocol Version Header: an unsupported MCP-Protocol-Version MUST get 400; the factory's session is closed, nothing is left", async () => {
  const { handler, tools } = stateless();
  const r = await post(handler, call(1, "echo"), undefined, "2024-01-01");
  assert.equal(r.status, 400);
  assert.match((await r.json()).error.message, /unsupported MCP-Protocol-Version "2024-01-01"/);
  assert.equal(tools.closed.length, 1);
  assert.equal(tools.endpoints.length, 0, "never opened");
  assert.equal(handler.sessionCount, 0);
  // A server that does not speak 2025-03-26 refuses a request without the header the same way.
  const narrow = createHttpHandler({ stateless: true, createSession: () => ({ options: { role: "server", info: { name: "s", version: "1" }, capabilities: {}, versions: ["2025-11-25"] } }) });
  const r2 = await post(narrow, call(1, "echo"));
  assert.equal(r2.status, 400);
  assert.match((await r2.json()).error.message, /"2025-03-26"/);
});

test("basic/transports Protocol Version Header (an invalid or unsupported MCP-Protocol-Version MUST get 400) and Sending Messages item 4: a stateless handler refuses a notification or response whose header names no version it speaks with 400, as it does a request; a supported one is still 202", async () => {
  const { handler, tools } = stateless();
  for (const version of ["1999-01-01", "garbage"]) {
    for (const message of [{ jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: 3, result: {} }]) {
      const r = await post(handler, message, undefined, version);
      assert.equal(r.status, 400, `${version}: ${JSON.stringify(message)}`);
      assert.match((await r.json()).error.message, /unsupported MCP-Protocol-Version/);
    }
  }
  const ok = await post(handler, { jsonrpc: "2.0", method: "notifications/initialized" }, undefined, "2025-11-25");
  assert.equal(ok.status, 202);
  assert.equal(tools.endpoints.length, 0, "no kernel made for a notification");
});

test("basic/transports: a stateless handler answers GET (no stream to listen to) and DELETE (no session to end) with 405, Allow: POST", async () => {
  const { handler } = stateless();
  const g = await get(handler, "anything", "2025-11-25");
  assert.equal(g.status, 405);
  assert.equal(g.headers.get("allow"), "POST");
  const d = await handler(new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": "anything", "mcp-protocol-version": "2025-11-25" } }));
  assert.equal(d.status, 405);
  assert.equal(d.headers.get("allow"), "POST");
});

test("basic/transports: a stateless handler ignores an MCP-Session-Id it never issued, and serves the request", async () => {
  const { handler } = stateless();
  const r = await post(handler, call(1, "echo", { text: "x" }), "not-a-session", "2025-11-25");
  assert.equal(r.status, 200);
  assert.equal((await new SseReader(r).message()).msg.result.content[0].text, "x");
});

test("basic/transports: two clients' requests with the same id in flight at once are apart (a kernel each), where one session would refuse the second", async () => {
  const { handler, tools } = stateless();
  const a = new SseReader(await post(handler, call(7, "wait"), undefined, "2025-11-25"));
  await a.message();
  const b = new SseReader(await post(handler, call(7, "wait"), undefined, "2025-11-25"));
  await b.message();
  tools.release();
  tools.release();
  assert.equal((await answerOn(a)).result.content[0].text, "waited");
  assert.equal((await answerOn(b)).result.content[0].text, "waited");
});

test("basic/transports: a stateless client has no capabilities, so the server sends it no request; the tool's own answer still comes", async () => {
  const { handler } = stateless();
  const r = await post(handler, call(1, "sample"), undefined, "2025-11-25");
  const msg = (await new SseReader(r).message()).msg;
  assert.equal(msg.id, 1);
  assert.match(msg.error.message, /sampling/);
});

test("basic/transports (JSON responses): a stateless request's notifications have no stream and are dropped, quietly; the answer is one JSON body", async () => {
  const diagnostics: string[] = [];
  const { handler, tools } = stateless(new Tools(), { enableJsonResponse: true, onDiagnostic: (d: { code: string }) => diagnostics.push(d.code) });
  const pending = post(handler, call(1, "wait"), undefined, "2025-11-25");
  await tools.waiting();
  tools.release();
  const r = await pending;
  assert.equal(r.headers.get("content-type"), "application/json");
  assert.equal((await r.json()).result.content[0].text, "waited");
  assert.deepEqual(diagnostics, []);
});

test("basic/transports (2025-03-26 batches): a stateless POST without a version may be a batch; at 2025-11-25 it may not", async () => {
  const { handler } = stateless(new Tools(), { enableJsonResponse: true });
  const r = await post(handler, [call(1, "echo", { text: "a" }), call(2, "echo", { text: "b" })]);
  assert.equal(r.status, 200);
  const answers = await r.json();
  assert.deepEqual(answers.map((m: any) => m.result.content[0].text).sort(), ["a", "b"]);
  const refused = await post(handler, [call(1, "echo"), call(2, "echo")], undefined, "2025-11-25");
  assert.equal(refused.status, 400);
  assert.equal((await refused.json()).error.code, -32600);
});

test("basic/transports: a stateless handler's maxSessions bounds the POSTs in progress (503, then served again)", async () => {
  const { handler, tools } = stateless(new Tools(), { maxSessions: 1 });
  const first = new SseReader(await post(handler, call(1, "wait"), undefined, "2025-11-25"));
  await first.message();
  const busy = await post(handler, call(2, "echo"), undefined, "2025-11-25");
  assert.equal(busy.status, 503);
  assert.match((await busy.json()).error.message, /too many requests in progress/);
  tools.release();
  await first.rest();
  await until(() => handler.sessionCount === 0);
  assert.equal((await post(handler, call(3, "echo"), undefined, "2025-11-25")).status, 200);
});

test("basic/transports: closing a stateless handler answers the request in flight (-32000) and refuses the next (503)", async () => {
  const { handler } = stateless();
  const sse = new SseReader(await post(handler, call(1, "wait"), undefined, "2025-11-25"));
  await sse.message();
  await handler.close();
  assert.equal((await answerOn(sse)).error.code, -32000);
  assert.equal((await post(handler, call(2, "echo"), undefined, "2025-11-25")).status, 503);
});

test("basic/transports: a stateless request's stream is not closed by closeConnections (it could not be resumed)", async () => {
  const { handler, tools } = stateless();
  const sse = new SseReader(await post(handler, call(1, "wait"), undefined, "2025-11-25"));
  await sse.message();
  assert.equal(handler.closeConnections(), 0);
  tools.release();
  assert.equal((await answerOn(sse)).result.content[0].text, "waited");
});

test("basic/transports: a stateless client that goes away does not cancel its request (disconnection SHOULD NOT be read as cancellation); the kernel ends when it is answered", async () => {
  const { handler, tools } = stateless();
  const sse = new SseReader(await post(handler, call(1, "wait"), undefined, "2025-11-25"));
  await sse.message();
  await sse.cancel();
  assert.equal(tools.closed.length, 0);
  tools.release();
  await until(() => tools.closed.length === 1);
  assert.equal(handler.sessionCount, 0);
});

test("createHttpHandler: stateless with legacy: false is refused (one serves 2025-era clients, the other none)", () => {
  assert.throws(() => createHttpHandler({ stateless: true, legacy: false, createSession: () => ({ options: { role: "server", info: { name: "s", version: "1" }, capabilities: {} } }) }), /stateless .* legacy: false/);
});

/** An McpServer with a tool, a resource, a prompt and a task tool, statelessly over HTTP. */
function server(): McpServer {
  const s = new McpServer({ name: "stateless", version: "1.0.0" });
  s.tool("add", { inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }, async (args, ctx) => {
    await ctx.progress(1, 2, "adding");
    return { content: [{ type: "text", text: String(args.a + args.b) }] };
  });
  s.resource("mem://note", { name: "note" }, () => ({ contents: [{ uri: "mem://note", text: "a note" }] }));
  s.prompt("greet", { arguments: [{ name: "who", required: true }] }, (args) => ({ messages: [{ role: "user", content: { type: "text", text: `hello ${args.who}` } }] }));
  const gate = deferred();
  s.tool("job", { execution: { taskSupport: "optional" } }, async () => {
    await gate.promise;
    return { content: [{ type: "text", text: "job done" }] };
  });
  (s as unknown as { release(): void }).release = () => gate.resolve();
  return s;
}

function viaHandler(handler: HttpHandler) {
  return httpClientTransport(URL_, { fetch: (input, init) => handler(new Request(input, init)) });
}

test("server/tools, server/resources, server/prompts: our client on a stateless McpServer: what needs a session is not declared, the rest works in both answer modes", async () => {
  for (const enableJsonResponse of [false, true]) {
    const s = server();
    const handler = createHttpHandler({ stateless: true, enableJsonResponse, createSession: s.httpSession() });
    const client = new McpClient({ name: "c", version: "1" });
    await client.connect(viaHandler(handler));
    const caps = client.serverCapabilities as Record<string, Record<string, unknown>>;
    // listChanged and subscribe promise notifications on a stream this server has none of.
    assert.equal(caps.tools.listChanged, undefined);
    assert.equal(caps.resources.listChanged, undefined);
    assert.equal(caps.resources.subscribe, undefined);
    assert.equal(caps.prompts.listChanged, undefined);
    // basic/utilities/tasks Security: no requestor identity, no tasks.list.
    assert.ok(caps.tasks !== undefined && caps.tasks.list === undefined);
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["add", "job"]);
    const progress: number[] = [];
    const sum = await client.callTool("add", { a: 2, b: 3 }, { onProgress: (p) => progress.push(p.progress) });
    assert.equal((sum.content[0] as { text: string }).text, "5");
    // Progress rides the request's stream; a JSON answer has no stream for it.
    assert.deepEqual(progress, enableJsonResponse ? [] : [1]);
    assert.equal(((await client.readResource("mem://note")).contents[0] as { text: string }).text, "a note");
    assert.equal(((await client.getPrompt("greet", { who: "you" })).messages[0].content as { text: string }).text, "hello you");
    await client.close();
    assert.equal(handler.sessionCount, 0);
  }
});

test("basic/utilities/tasks: a task made by one stateless POST is found by the later ones (tasks/get, tasks/result), under unguessable ids", async () => {
  const s = server();
  const handler = createHttpHandler({ stateless: true, createSession: s.httpSession() });
  const client = new McpClient({ name: "c", version: "1" });
  await client.connect(viaHandler(handler));
  await client.listTools();
  const created = await client.callToolAsTask("job", {});
  const taskId = client.taskIdOf(created)!;
  assert.match(taskId, /^[0-9a-f-]{16,}$/i);
  assert.equal((await client.getTask(taskId)).status, "working");
  const result = client.getTaskResult(taskId);
  (s as unknown as { release(): void }).release();
  assert.equal(((await result).content as { text: string }[])[0].text, "job done");
  assert.equal((await client.getTask(taskId)).status, "completed");
  await client.close();
});

test("basic/utilities/tasks Security: with a principal, a stateless server declares tasks.list and lists that principal's tasks only", async () => {
  const s = server();
  const handler = createHttpHandler({ stateless: true, createSession: s.httpSession({ principalOf: (req) => req.headers.get("x-user") ?? undefined }) });
  const as = async (user: string) => {
    const c = new McpClient({ name: "c", version: "1" });
    await c.connect(httpClientTransport(URL_, { headers: { "x-user": user }, fetch: (input, init) => handler(new Request(input, init)) }));
    return c;
  };
  const alice = await as("alice");
  const bob = await as("bob");
  assert.ok((alice.serverCapabilities as { tasks: Record<string, unknown> }).tasks.list !== undefined);
  await alice.listTools();
  const taskId = alice.taskIdOf(await alice.callToolAsTask("job", {}))!;
  assert.deepEqual((await alice.listTasks()).tasks.map((t) => t.taskId), [taskId]);
  assert.deepEqual((await bob.listTasks()).tasks, []);
  (s as unknown as { release(): void }).release();
  await alice.close();
  await bob.close();
});

test("basic/utilities/tasks Result Retrieval (tasks/result for a terminal task MUST return the final result): on a stateless handler tasks/get, tasks/result and tasks/cancel keep working after the last task tool is unregistered, as in a session that declared tasks, not -32601", { timeout: 10_000 }, async () => {
  const s = new McpServer({ name: "stateless", version: "1.0.0" });
  const gate = deferred();
  const unregister = s.tool("job", { execution: { taskSupport: "optional" }, inputSchema: { type: "object", properties: { hold: { type: "boolean" } } } }, async (args) => {
    await (args.hold === true ? new Promise<never>(() => {}) : gate.promise);
    return { content: [{ type: "text" as const, text: "job done" }] };
  });
  const handler = createHttpHandler({ stateless: true, createSession: s.httpSession() });
  const client = new McpClient({ name: "c", version: "1" });
  await client.connect(viaHandler(handler));
  await client.listTools();
  const done = client.taskIdOf(await client.callToolAsTask("job", {}))!;
  const held = client.taskIdOf(await client.callToolAsTask("job", { hold: true }))!;
  unregister();
  assert.equal((await client.getTask(done)).status, "working");
  const result = client.getTaskResult(done);
  gate.resolve();
  assert.equal(((await result).content as { text: string }[])[0].text, "job done");
  assert.equal((await client.cancelTask(held)).status, "cancelled");
  await client.close();
});

test("basic/utilities/tasks Task Isolation (receivers MUST bind tasks to the authorization context): a stateless handler's 2025-11-25 task, which belongs to no session, is served again by a server restored from the store's records, to its principal only (tasks/get, tasks/list, tasks/result)", { timeout: 10_000 }, async () => {
  const store = new MemoryTaskStore();
  const principalOf = (req: Request) => req.headers.get("x-user") ?? undefined;
  let s = new McpServer({ name: "stateless", version: "1.0.0" }, { tasks: { store } });
  s.tool("job", { execution: { taskSupport: "optional" } }, () => new Promise(() => {}));
  let handler = createHttpHandler({ stateless: true, createSession: s.httpSession({ principalOf }) });
  const as = async (user: string) => {
    const c = new McpClient({ name: "c", version: "1" });
    // Through `handler` as it is at each request: the restarted server's, after the restart.
    await c.connect(httpClientTransport(URL_, { headers: { "x-user": user }, fetch: (input, init) => handler(new Request(input, init)) }));
    await c.listTools();
    return c;
  };
  const alice = await as("alice");
  const bob = await as("bob");
  const taskId = alice.taskIdOf(await alice.callToolAsTask("job", {}))!;
  // The restart: the old server's runtime stops; a new one starts from the store's records.
  s.tasks.close();
  await handler.close();
  s = new McpServer({ name: "stateless", version: "1.0.0" }, { tasks: { restore: store.records() } });
  handler = createHttpHandler({ stateless: true, createSession: s.httpSession({ principalOf }) });
  assert.equal((await alice.getTask(taskId)).status, "working");
  assert.deepEqual((await alice.listTasks()).tasks.map((t) => t.taskId), [taskId]);
  await assert.rejects(bob.getTask(taskId), (e: { code?: number }) => e.code === -32602);
  assert.deepEqual((await bob.listTasks()).tasks, []);
  const result = alice.getTaskResult(taskId);
  await until(() => handler.sessionCount === 1);
  assert.equal(s.tasks.settle(taskId, { result: { content: [{ type: "text", text: "finished after restart" }] } }), true);
  assert.equal(((await result).content as { text: string }[])[0].text, "finished after restart");
  await alice.close();
  await bob.close();
});

test("interop: the SDK 1.x and 2.x clients on our stateless server over node:http (tools, progress, resources, prompts, ping)", { timeout: 30_000 }, async () => {
  const s = server();
  const handler = createHttpHandler({ stateless: true, createSession: s.httpSession() });
  const node = await serveNode(handler, { port: 0, host: "127.0.0.1" });
  try {
    for (const connect of [() => sdk1Driver({ http: node.url }), () => sdk2Driver({ http: node.url }, "legacy")]) {
      const d = await connect();
      assert.ok((await d.listTools()).some((t) => t.name === "add"));
      const progress: number[] = [];
      const r = await d.callTool("add", { a: 1, b: 41 }, { onProgress: (p: { progress: number }) => progress.push(p.progress) });
      assert.equal((r.content[0] as unknown as { text: string }).text, "42");
      assert.deepEqual(progress, [1]);
      assert.equal((((await d.readResource("mem://note")).contents[0]) as { text: string }).text, "a note");
      assert.equal(((await d.getPrompt("greet", { who: "sdk" })).messages[0].content as { text: string }).text, "hello sdk");
      await d.ping();
      await d.close();
    }
    await until(() => handler.sessionCount === 0);
  } finally {
    await node.close();
  }
});

/** A JSON-mode stateless McpServer whose `job` tool finishes when the test opens its gate (by `who`). */
function jobServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const gates: Record<string, { promise: Promise<void>; resolve(): void }> = { A: deferred<void>(), B: deferred<void>() };
  const s = new McpServer({ name: "jobs", version: "1" }, options);
  s.tool("job", { execution: { taskSupport: "optional" }, inputSchema: { type: "object", properties: { who: { type: "string" } } } }, async (args) => {
    await gates[String(args.who)].promise;
    return { content: [{ type: "text", text: `result of ${args.who}` }] };
  });
  return { s, gates };
}
const V = "2025-11-25";
const asTask = (id: number, who: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "job", arguments: { who }, task: { ttl: 60_000 } } });
const taskRequest = (id: number, method: string, taskId: string) => ({ jsonrpc: "2.0", id, method, params: { taskId } });

test("basic/utilities/tasks: two anonymous stateless clients waiting on tasks/result under the same request id each get their own task's result", { timeout: 10_000 }, async () => {
  const { s, gates } = jobServer();
  const handler = createHttpHandler({ stateless: true, enableJsonResponse: true, createSession: s.httpSession() });
  const create = async (who: string) => (await (await post(handler, asTask(1, who), undefined, V)).json()).result.task.taskId as string;
  const [a, b] = [await create("A"), await create("B")];
  const waitA = post(handler, taskRequest(5, "tasks/result", a), undefined, V);
  const waitB = post(handler, taskRequest(5, "tasks/result", b), undefined, V);
  // Another anonymous client's request under the same id is no waiter's either.
  assert.equal((await (await post(handler, taskRequest(5, "tasks/get", b), undefined, V)).json()).result.status, "working");
  gates.A.resolve();
  assert.equal((await (await waitA).json()).result.content[0].text, "result of A");
  gates.B.resolve();
  assert.equal((await (await waitB).json()).result.content[0].text, "result of B");
  await until(() => handler.sessionCount === 0);
});

test("basic/utilities/tasks: a stateless client's stream carries no status notification of another client's task (no session to send them on)", { timeout: 10_000 }, async () => {
  const { s, gates } = jobServer({ tasks: { notifications: "all" } });
  const handler = createHttpHandler({ stateless: true, createSession: s.httpSession() });
  const created = await new SseReader(await post(handler, asTask(1, "A"), undefined, V)).message();
  const a = created.msg.result.task.taskId as string;
  const createdB = await new SseReader(await post(handler, asTask(1, "B"), undefined, V)).message();
  const b = createdB.msg.result.task.taskId as string;
  const streamB = new SseReader(await post(handler, taskRequest(2, "tasks/result", b), undefined, V));
  gates.A.resolve();
  // A's task has finished (its last status went wherever it was going to) before B's does.
  // (A tasks/get is answered with one JSON body: the tasks page, no SSE for a poll.)
  const status = async () => (await (await post(handler, taskRequest(3, "tasks/get", a), undefined, V)).json()).result.status;
  for (let st = await status(); st !== "completed"; st = await status());
  gates.B.resolve();
  const seen = (await streamB.rest()).map((e) => e.data).join("\n");
  assert.ok(!seen.includes(a), `B's stream named A's task: ${seen}`);
  assert.match(seen, /result of B/);
});

test("basic/transports: a stateless request whose client left while it ran on is ended after sessionIdleMs (its place under maxSessions given back)", { timeout: 10_000 }, async () => {
  const clock = new ManualClock();
  const tools = new Tools();
  const { handler } = stateless(tools, { clock, sessionIdleMs: 1000, maxSessions: 1 });
  const sse = new SseReader(await post(handler, call(1, "wait"), undefined, V));
  await sse.message();
  await sse.cancel();
  assert.equal((await post(handler, call(2, "echo"), undefined, V)).status, 503);
  clock.advance(999);
  assert.equal(handler.sessionCount, 1);
  clock.advance(1);
  assert.equal(handler.sessionCount, 0);
  assert.equal(tools.closed.length, 1);
  assert.equal((await post(handler, call(3, "echo"), undefined, V)).status, 200);
});

test("basic/transports: a stateless server's own request (a ping) fails at once: its answer would come in another POST", async () => {
  const handler = createHttpHandler({
    stateless: true,
    enableJsonResponse: true,
    createSession: () => ({
      options: { role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} } },
      onRequest: async (_method, _params, ctx) => {
        try {
          await ctx.request("ping");
          return { content: [{ type: "text", text: "answered" }] };
        } catch (e) {
          return { content: [{ type: "text", text: (e as Error).message }] };
        }
      },
    }),
  });
  const r = await post(handler, call(1, "any"), undefined, V);
  assert.match((await r.json()).result.content[0].text, /ping request was not sent: a stateless server cannot take an answer/);
});

test("basic/lifecycle (2025-03-26): initialize MUST NOT be part of a JSON-RPC batch: 400 from a stateless handler, no session made", async () => {
  const { handler, tools } = stateless();
  const r = await post(handler, [initializeMessage("2025-03-26", 1), call(2, "echo")]);
  assert.equal(r.status, 400);
  assert.match((await r.json()).error.message, /initialize MUST NOT be part of a JSON-RPC batch/);
  assert.equal(tools.closed.length, 0, "the factory never ran");
});
