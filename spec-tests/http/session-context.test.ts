// Spec: 2025-11-25 basic/transports, "Session Management": a server using sessions assigns
// an `MCP-Session-Id` at initialization, and the client sends it on every later request. A
// handler behind McpServer.httpSession() reads that id as `ctx.sessionId` (the one the
// client holds; each session its own) and the principal `principalOf` named as
// `ctx.principal`. The draft's modern requests (2026-07-28, basic/transports/streamable-http)
// belong to no session, and stdio / in-memory connections have no HTTP session: there the
// id is undefined. `handler.session(id)` reaches one session later, from outside a request.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import type { ServerContext } from "../../src/api/context.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { createHttpHandler, type HttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport, type HttpClientTransport } from "../../src/transports/http-client.js";
import { deferred, initializeMessage, postHeaders, until, URL_ } from "./helpers.js";
import { MV } from "./modern-helpers.js";
import { blockText } from "../harness/content.js";

const INFO = { name: "who-client", version: "1.0.0" };

/** A server whose tool, resource, prompt, completer and template list report the context's session id and principal. */
function whoServer(versions: string[] = ["2025-11-25"]): McpServer {
  const server = new McpServer({ name: "who", version: "1.0.0" }, { session: { versions: versions as never } });
  const who = (ctx: ServerContext) => JSON.stringify({ sessionId: ctx.sessionId ?? null, principal: ctx.principal ?? null });
  server.tool("who", { inputSchema: { type: "object" } }, (_args, ctx) => ({ content: [{ type: "text", text: who(ctx) }] }));
  server.resource("who://me", { name: "me" }, (uri, ctx) => ({ contents: [{ uri, text: who(ctx) }] }));
  server.prompt("who", { arguments: [{ name: "x" }], complete: { x: (_v, { ctx }) => [who(ctx)] } }, (_args, ctx) => ({ messages: [{ role: "user", content: { type: "text", text: who(ctx) } }] }));
  // A template's list, as often one user's resources: its name carries what the context read.
  server.resourceTemplate("who://listed/{id}", { name: "listed", list: (ctx) => [{ uri: "who://listed/1", name: who(ctx) }] }, () => undefined);
  return server;
}

type Who = { sessionId: string | null; principal: string | null };

async function whoAll(client: McpClient): Promise<Who[]> {
  const tool = JSON.parse(blockText((await client.callTool("who", {})).content[0]) as string);
  const resource = JSON.parse(blockText((await client.readResource("who://me")).contents[0]) as string);
  const prompt = JSON.parse(((await client.getPrompt("who", {})).messages[0]!.content as { text: string }).text);
  const completion = JSON.parse((await client.complete({ type: "ref/prompt", name: "who" }, { name: "x", value: "" })).completion.values[0]!);
  const listed = JSON.parse((await client.listResources()).resources.find((r) => r.uri === "who://listed/1")!.name);
  return [tool, resource, prompt, completion, listed];
}

function connectHttp(handler: HttpHandler, headers: Record<string, string> = {}, versions: string[] = ["2025-11-25"]): Promise<{ client: McpClient; transport: HttpClientTransport }> {
  const transport = httpClientTransport(URL_, { headers, fetch: (url, init) => handler(new Request(url, init)) });
  const client = new McpClient(INFO, { session: { versions: versions as never } });
  return client.connect(transport).then(() => ({ client, transport }));
}

test("2025-11-25 basic/transports Session Management: ctx.sessionId is the MCP-Session-Id the client holds, distinct per session, in tools, resources, prompts and completions", async () => {
  const server = whoServer();
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
  const a = await connectHttp(handler);
  const b = await connectHttp(handler);
  assert.ok(a.transport.sessionId && b.transport.sessionId);
  assert.notEqual(a.transport.sessionId, b.transport.sessionId);
  for (const w of await whoAll(a.client)) assert.deepEqual(w, { sessionId: a.transport.sessionId, principal: null });
  for (const w of await whoAll(b.client)) assert.deepEqual(w, { sessionId: b.transport.sessionId, principal: null });
  a.client.close();
  b.client.close();
  handler.close();
});

test("2025-11-25 basic/transports Session Management: a tool running as a task sees its session's id too", async () => {
  const server = new McpServer({ name: "who", version: "1.0.0" });
  server.tool("slow", { inputSchema: { type: "object" }, execution: { taskSupport: "optional" } }, async (_a, ctx) => ({ content: [{ type: "text", text: String(ctx.sessionId) }] }));
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
  const a = await connectHttp(handler);
  await a.client.listTools(); // the client learns the tool's taskSupport
  const created = await a.client.callToolAsTask("slow", {});
  const taskId = a.client.taskIdOf(created);
  assert.ok(taskId !== undefined, "the call ran as a task");
  const r = (await a.client.getTaskResult(taskId)) as { content: { text: string }[] };
  assert.equal(r.content[0]!.text, a.transport.sessionId);
  a.client.close();
  handler.close();
});

test("2025-11-25 basic/transports Session Management (security: sessions bound to user-specific information): ctx.principal is what httpSession({ principalOf }) named, per session and per modern request", async () => {
  const server = whoServer([MV, "2025-11-25"]);
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession({ principalOf: (req) => req.headers.get("x-user") ?? undefined }) });
  const alice = await connectHttp(handler, { "x-user": "alice" });
  const bob = await connectHttp(handler, { "x-user": "bob" });
  const anon = await connectHttp(handler);
  for (const w of await whoAll(alice.client)) assert.deepEqual(w, { sessionId: alice.transport.sessionId, principal: "alice" });
  for (const w of await whoAll(bob.client)) assert.deepEqual(w, { sessionId: bob.transport.sessionId, principal: "bob" });
  for (const w of await whoAll(anon.client)) assert.deepEqual(w, { sessionId: anon.transport.sessionId, principal: null });
  // A modern request has no session, but may have a principal.
  const carol = await connectHttp(handler, { "x-user": "carol" }, [MV]);
  assert.equal(carol.client.protocolVersion, MV);
  for (const w of await whoAll(carol.client)) assert.deepEqual(w, { sessionId: null, principal: "carol" });
  for (const c of [alice, bob, anon, carol]) c.client.close();
  handler.close();
});

test("2025-11-25 basic/transports Session Management (sessions bound to user-specific information): a principalOf naming no string (a numeric user id) answers 500 and opens nothing, instead of a session, or a modern request, bound to nobody", async () => {
  const server = whoServer([MV, "2025-11-25"]);
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession({ principalOf: (req) => Number(req.headers.get("x-user-id")) as unknown as string }) });
  const legacy = await handler(new Request(URL_, { method: "POST", headers: { ...postHeaders(), "x-user-id": "7" }, body: JSON.stringify(initializeMessage()) }));
  assert.equal(legacy.status, 500);
  assert.equal(legacy.headers.get("mcp-session-id"), null);
  assert.equal(handler.sessionCount, 0);
  const m = await connectHttp(handler, { "x-user-id": "7" }, [MV]).then(
    () => "connected",
    (e: Error) => e.message,
  );
  assert.notEqual(m, "connected", "the modern request is refused too");
  assert.equal(server.connectionCount, 0);
  handler.close();
});

test("draft basic/transports/streamable-http: a modern request belongs to no session: ctx.sessionId and ctx.principal are undefined without principalOf", async () => {
  const server = whoServer([MV, "2025-11-25"]);
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
  const m = await connectHttp(handler, {}, [MV]);
  assert.equal(m.client.protocolVersion, MV);
  assert.equal(m.transport.sessionId, undefined);
  for (const w of await whoAll(m.client)) assert.deepEqual(w, { sessionId: null, principal: null });
  m.client.close();
  handler.close();
});

test("McpServer.connect (in memory, as over stdio): no HTTP session, so ctx.sessionId and ctx.principal are undefined", async () => {
  for (const versions of [["2025-11-25"], [MV]]) {
    const server = whoServer(versions);
    const [s, c] = createMemoryPair();
    server.connect(s);
    const client = new McpClient(INFO, { session: { versions: versions as never } });
    await client.connect(c);
    for (const w of await whoAll(client)) assert.deepEqual(w, { sessionId: null, principal: null });
    client.close();
  }
});

test("2025-11-25 basic/transports Session Management: a server reaches one legacy session later with handler.session(ctx.sessionId)?.notify(…), on that session's GET stream only", async () => {
  const server = new McpServer({ name: "who", version: "1.0.0" });
  const seen: string[] = [];
  server.tool("remember", { inputSchema: { type: "object" } }, (_a, ctx) => (seen.push(ctx.sessionId!), { content: [] }));
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
  const streaming = new Set<string>();
  const connect = async () => {
    const client = new McpClient(INFO);
    const transport = httpClientTransport(URL_, {
      fetch: async (url, init) => {
        const req = new Request(url, init);
        const res = await handler(req);
        if (req.method === "GET" && res.ok) streaming.add(req.headers.get("mcp-session-id")!);
        return res;
      },
    });
    const got: unknown[] = [];
    client.onNotification("notifications/message", (p) => void got.push(p));
    await client.connect(transport);
    await client.setLoggingLevel("info");
    return { client, transport, got };
  };
  const a = await connect();
  const b = await connect();
  await a.client.callTool("remember", {});
  assert.deepEqual(seen, [a.transport.sessionId]);
  await until(() => streaming.has(a.transport.sessionId!) && streaming.has(b.transport.sessionId!));
  const arrived = deferred();
  a.client.onNotification("notifications/message", () => a.got.length === 2 && arrived.resolve());
  // Any notification the negotiated version defines for a server, or the log shorthand.
  handler.session(seen[0]!)?.notify("notifications/message", { level: "info", data: { job: 1 } });
  handler.session(seen[0]!)?.log("info", { job: 2 });
  await arrived.promise;
  assert.deepEqual(a.got, [{ level: "info", data: { job: 1 } }, { level: "info", data: { job: 2 } }]);
  assert.deepEqual(b.got, []);
  assert.equal(handler.session("no-such-session"), undefined);
  // A modern request's ctx.sessionId is undefined: the same call takes it (and finds none).
  const none: string | undefined = undefined;
  assert.equal(handler.session(none), undefined);
  a.client.close();
  b.client.close();
  handler.close();
});
