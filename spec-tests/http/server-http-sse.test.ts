/**
 * The deprecated HTTP+SSE transport served beside the MCP endpoint, for older clients
 * (`createHttpHandler({ httpSse: { path, messagesPath } })`).
 *
 * Spec: 2024-11-05 `basic/transports` ("HTTP with SSE": "The server MUST provide two
 * endpoints: an SSE endpoint, for clients to establish a connection and receive messages
 * from the server; a regular HTTP POST endpoint for clients to send messages to the
 * server"; "When a client connects, the server MUST send an endpoint event containing a URI
 * for the client to use for sending messages"; "Server messages are sent as SSE message
 * events, with the message content encoded as JSON in the event data"); 2025-11-25
 * `basic/transports`, Backwards Compatibility (servers wanting to support older clients
 * should keep hosting both endpoints of the old transport beside the new one) and
 * Security Warning (Origin validation).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { createHttpHandler, type HttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { serveNode } from "../../src/transports/http-node.js";
import { Client as Sdk1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { call, initializeMessage, makeHandler, open as openSession, SseReader, Tools, until } from "./helpers.js";

const ORIGIN = "http://127.0.0.1";
const HTTP_SSE = { path: "/sse", messagesPath: "/messages" };

const withSse = (tools = new Tools(), more = {}) => makeHandler(tools, { path: "/mcp", httpSse: HTTP_SSE, ...more });

/** Opens the old transport's stream; resolves with its reader and the POST URL the endpoint event named. */
async function connectSse(handler: HttpHandler, headers: Record<string, string> = {}): Promise<{ sse: SseReader; messages: string; res: Response }> {
  const res = await handler(new Request(`${ORIGIN}/sse`, { headers: { accept: "text/event-stream", ...headers } }));
  assert.equal(res.status, 200);
  const sse = new SseReader(res);
  const first = await sse.nextEvent();
  assert.equal(first?.event, "endpoint");
  return { sse, messages: new URL(first!.data, `${ORIGIN}/sse`).href, res };
}

function postTo(handler: HttpHandler, url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return handler(new Request(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) }));
}

/** The next `message` event's JSON. */
async function message(sse: SseReader): Promise<any> {
  const e = await sse.nextEvent();
  assert.equal(e?.event, "message");
  return JSON.parse(e!.data);
}

test("2024-11-05 basic/transports HTTP with SSE: the SSE endpoint MUST send an endpoint event first; messages POSTed there are accepted (202) and answered as message events on the stream", async () => {
  const { handler, tools } = withSse();
  const { sse, messages } = await connectSse(handler);
  assert.match(messages, /^http:\/\/127\.0\.0\.1\/messages\?sessionId=[0-9a-f]+$/);
  assert.equal(handler.sessionCount, 1);
  assert.equal((await postTo(handler, messages, initializeMessage("2024-11-05", 1))).status, 202);
  const init = await message(sse);
  assert.deepEqual([init.id, init.result.protocolVersion], [1, "2024-11-05"]);
  assert.equal((await postTo(handler, messages, { jsonrpc: "2.0", method: "notifications/initialized" })).status, 202);
  assert.equal((await postTo(handler, messages, call(2, "echo", { text: "old" }))).status, 202);
  const answer = await message(sse);
  assert.deepEqual([answer.id, answer.result.content[0].text], [2, "old"]);
  assert.equal(tools.endpoints.length, 1);
});

test("2024-11-05 HTTP with SSE: the POST endpoint refuses what it cannot take, spec-shaped (400 without sessionId, 404 unknown, 415, 400 -32700), and the session serves on", async () => {
  const { handler } = withSse();
  const { sse, messages } = await connectSse(handler);
  const without = await postTo(handler, `${ORIGIN}/messages`, initializeMessage());
  assert.equal(without.status, 400);
  assert.match((await without.json()).error.message, /sessionId/);
  assert.equal((await postTo(handler, `${ORIGIN}/messages?sessionId=nope`, initializeMessage())).status, 404);
  assert.equal((await postTo(handler, messages, initializeMessage(), { "content-type": "text/plain" })).status, 415);
  const bad = await postTo(handler, messages, "{not json");
  assert.equal(bad.status, 400);
  assert.equal((await bad.json()).error.code, -32700);
  assert.equal((await postTo(handler, messages, initializeMessage("2024-11-05", 1))).status, 202);
  assert.equal((await message(sse)).id, 1);
  const wrongMethod = await handler(new Request(`${ORIGIN}/sse`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
  assert.deepEqual([wrongMethod.status, wrongMethod.headers.get("allow")], [405, "GET"]);
  const getMessages = await handler(new Request(messages));
  assert.deepEqual([getMessages.status, getMessages.headers.get("allow")], [405, "POST"]);
});

test("2024-11-05 HTTP with SSE: the session ends with its stream (no resumption in the old transport): onClose runs, later POSTs get 404", async () => {
  const { handler, tools } = withSse();
  const { sse, messages } = await connectSse(handler);
  await sse.cancel();
  await until(() => tools.closed.length === 1);
  assert.equal(handler.sessionCount, 0);
  assert.equal((await postTo(handler, messages, initializeMessage())).status, 404);
});

test("2025-11-25 basic/transports Security Warning: the old endpoints validate Origin too (403), and a session is bound to the principal that opened it (404 for another's)", async () => {
  const tools = new Tools();
  const { handler } = withSse(tools, {
    createSession: (await import("./helpers.js")).setupWith(tools, { principalOf: (req: Request) => req.headers.get("x-user") ?? undefined }),
  });
  const foreign = await handler(new Request(`${ORIGIN}/sse`, { headers: { accept: "text/event-stream", origin: "https://evil.example" } }));
  assert.equal(foreign.status, 403);
  const { sse, messages } = await connectSse(handler, { "x-user": "alice" });
  assert.equal((await postTo(handler, messages, initializeMessage(), { "x-user": "bob" })).status, 404);
  assert.equal((await postTo(handler, messages, initializeMessage("2024-11-05", 1), { "x-user": "alice" })).status, 202);
  assert.equal((await message(sse)).id, 1);
});

test("maxSessions counts the old transport's sessions with the Streamable HTTP ones", async () => {
  const { handler } = withSse(new Tools(), { maxSessions: 1 });
  await openSession(handler);
  const refused = await handler(new Request(`${ORIGIN}/sse`, { headers: { accept: "text/event-stream" } }));
  assert.equal(refused.status, 503);
});

test("closing the handler ends the old transport's sessions: their streams end", async () => {
  const { handler, tools } = withSse();
  const { sse } = await connectSse(handler);
  await handler.close();
  assert.deepEqual(await sse.rest(), []);
  assert.equal(tools.closed.length, 1);
  assert.equal(handler.sessionCount, 0);
});

test("createHttpHandler: httpSse takes two paths of its own, and no stateless or modern-only handler", () => {
  const createSession = () => ({ options: { role: "server" as const, info: { name: "s", version: "1" }, capabilities: {} } });
  assert.throws(() => createHttpHandler({ createSession, httpSse: { path: "sse", messagesPath: "/m" } }), /httpSse.path must be a path beginning with "\/"/);
  assert.throws(() => createHttpHandler({ createSession, path: "/mcp", httpSse: { path: "/mcp", messagesPath: "/m" } }), /three different paths/);
  assert.throws(() => createHttpHandler({ createSession, httpSse: { path: "/sse", messagePath: "/m" } as never }), /did you mean "messagesPath"/);
  assert.throws(() => createHttpHandler({ createSession, stateless: true, httpSse: HTTP_SSE }), /cannot be combined with stateless/);
});

test("interop: our client falling back to HTTP+SSE and the SDK 1.x SSEClientTransport, both against our server's old endpoints over node:http", { timeout: 30_000 }, async () => {
  const server = new McpServer({ name: "old-and-new", version: "1.0.0" });
  server.tool("echo", { inputSchema: { type: "object", properties: { x: { type: "string" } } } }, async (args, ctx) => {
    await ctx.progress(1, 2);
    return { content: [{ type: "text", text: `echo ${String(args.x)}` }] };
  });
  const handler = createHttpHandler({ path: "/mcp", httpSse: HTTP_SSE, createSession: server.httpSession() });
  const node = await serveNode(handler, { port: 0, host: "127.0.0.1" });
  try {
    // Ours, given the old SSE URL: its initialize POST gets 405 there, so it GETs it and carries on over HTTP+SSE.
    const ours = new McpClient({ name: "ours", version: "1" });
    await ours.connect(httpClientTransport(`${node.url}/sse`));
    const progress: number[] = [];
    assert.equal(((await ours.callTool("echo", { x: "ours" }, { onProgress: (p) => progress.push(p.progress) })).content[0] as { text: string }).text, "echo ours");
    assert.deepEqual(progress, [1]);
    await ours.close();
    const sdk = new Sdk1Client({ name: "sdk1", version: "1" });
    await sdk.connect(new SSEClientTransport(new URL(`${node.url}/sse`)));
    assert.equal(((await sdk.callTool({ name: "echo", arguments: { x: "sdk" } })).content as { text: string }[])[0].text, "echo sdk");
    await sdk.close();
    await until(() => handler.sessionCount === 0);
    // The Streamable HTTP endpoint serves on beside them.
    const modern = new McpClient({ name: "new", version: "1" });
    await modern.connect(httpClientTransport(`${node.url}/mcp`));
    assert.equal(((await modern.callTool("echo", { x: "new" })).content[0] as { text: string }).text, "echo new");
    await modern.close();
  } finally {
    await handler.close();
    await node.close();
  }
});

test("a draining handler lets the old transport's request in flight finish on its stream, refuses a new one (503), then ends the session", async () => {
  const { handler, tools } = withSse();
  const { sse, messages } = await connectSse(handler);
  await postTo(handler, messages, initializeMessage("2024-11-05", 1));
  await message(sse);
  await postTo(handler, messages, { jsonrpc: "2.0", method: "notifications/initialized" });
  await postTo(handler, messages, call(2, "wait"));
  assert.equal((await message(sse)).method, "notifications/message");
  const closed = handler.close({ drainMs: Infinity });
  assert.equal((await postTo(handler, messages, call(3, "echo"))).status, 503);
  tools.release();
  const rest: any[] = [];
  for (let m = await message(sse); ; m = await message(sse)) {
    rest.push(m);
    if (m.id === 2) break;
  }
  assert.equal(rest.at(-1).result.content[0].text, "waited");
  await closed;
  assert.equal(handler.sessionCount, 0);
});

/** An initialized old-transport session (of `version`), the client declaring sampling. */
async function initialized(handler: HttpHandler, version = "2024-11-05"): Promise<{ sse: SseReader; messages: string }> {
  const c = await connectSse(handler);
  await postTo(handler, c.messages, initializeMessage(version, 1));
  await message(c.sse);
  await postTo(handler, c.messages, { jsonrpc: "2.0", method: "notifications/initialized" });
  return c;
}

/** Such a session whose `sample` tool (request 2) has asked the client to sample, on the stream. */
async function askedToSample(version?: string) {
  const { handler } = withSse();
  const { sse, messages } = await initialized(handler, version);
  await postTo(handler, messages, call(2, "sample"));
  const ask = await message(sse);
  assert.equal(ask.method, "sampling/createMessage");
  return { handler, sse, messages, ask };
}

test("the endpoint event names the POST endpoint relative to the SSE endpoint, so a proxy serving the handler under a prefix keeps the POSTs under it", async () => {
  const { handler } = withSse();
  const { messages } = await connectSse(handler);
  assert.match(messages, /\/messages\?sessionId=/);
  const first = await (await handler(new Request(`${ORIGIN}/sse`, { headers: { accept: "text/event-stream" } }))).body!.getReader().read();
  assert.match(new TextDecoder().decode(first.value), /^event: endpoint\ndata: messages\?sessionId=\w+\n\n/);
  // A proxy that serves the handler under /api: our client falls back through it and stays under it.
  const seen: string[] = [];
  const proxied = (input: string, init: RequestInit) => {
    const url = new URL(input);
    seen.push(`${init.method ?? "GET"} ${url.pathname}`);
    if (!url.pathname.startsWith("/api/")) return Promise.resolve(new Response("not proxied", { status: 404 }));
    return handler(new Request(`${ORIGIN}${url.pathname.slice(4)}${url.search}`, init));
  };
  const client = new McpClient({ name: "c", version: "1" });
  await client.connect(httpClientTransport(`${ORIGIN}/api/sse`, { fetch: proxied }));
  assert.ok(seen.every((line) => / \/api\//.test(line)), seen.join("; "));
  await client.close();
});

test("a draining handler hears a cancelled request of the old transport (it gets no answer) and ends with it; idle sessions end at once", async () => {
  const { handler, tools } = withSse();
  const busy = await initialized(handler);
  const idle = await initialized(handler);
  await postTo(handler, busy.messages, call(2, "wait"));
  await message(busy.sse);
  let done = false;
  const closed = handler.close({ drainMs: Infinity }).then(() => (done = true));
  assert.deepEqual(await idle.sse.rest(), [], "the idle session's stream ended");
  await postTo(handler, busy.messages, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } });
  await closed;
  assert.equal(done, true);
  assert.equal(tools.closed.length, 2);
});

test("a session of the old transport that ends answers its running requests -32000 on the stream (as a Streamable HTTP session's)", async () => {
  const { handler } = withSse();
  const { sse, messages } = await initialized(handler);
  await postTo(handler, messages, call(2, "wait"));
  await message(sse);
  await handler.close();
  const [last] = (await sse.rest()).map((e) => JSON.parse(e.data));
  assert.deepEqual([last.id, last.error.code], [2, -32000]);
});

test("a malformed answer to the server's request over the old transport fails that request at once (400 to the POST), not at its timeout", { timeout: 10_000 }, async () => {
  const { handler, sse, messages, ask } = await askedToSample();
  const bad = await postTo(handler, messages, { jsonrpc: "2.0", id: ask.id, result: "not an object", error: { code: 1, message: "both" } });
  assert.equal(bad.status, 400);
  const answer = await message(sse);
  assert.equal(answer.id, 2);
  assert.match(answer.error.message, /malformed/);
});

test("basic/index (Result responses MUST include a result field) over the old transport: a POST of only jsonrpc and the id of the server's request in flight (an answer that lost its result) gets 400 and fails that request at once, no -32600 of that id on the stream, as over Streamable HTTP and stdio (found by review)", { timeout: 10_000 }, async () => {
  const { handler, sse, messages, ask } = await askedToSample();
  const bad = await postTo(handler, messages, { jsonrpc: "2.0", id: ask.id });
  assert.equal(bad.status, 400);
  const answer = await message(sse);
  assert.equal(answer.id, 2, "the next message on the stream is the tool's answer, not a -32600 echoing the server's own id");
  assert.match(answer.error.message, /malformed response from the peer: a message needs a method, a result or an error/);
  // An id the server's requests do not have is a request that lost its method: 400 echoing the id, and nothing more on the stream.
  const other = await postTo(handler, messages, { jsonrpc: "2.0", id: 77 });
  assert.equal(other.status, 400);
  assert.equal((await other.json()).id, 77);
  await postTo(handler, messages, { jsonrpc: "2.0", id: 3, method: "ping" });
  assert.deepEqual(await message(sse), { jsonrpc: "2.0", id: 3, result: {} });
});

test("2025-03-26 over the old transport: a batch member of only jsonrpc and the id of the server's request in flight fails that request at once with no reply of its own; the other members are answered (found by review)", { timeout: 10_000 }, async () => {
  const { handler, sse, messages, ask } = await askedToSample("2025-03-26");
  assert.equal((await postTo(handler, messages, [{ jsonrpc: "2.0", id: 4, method: "ping" }, { jsonrpc: "2.0", id: ask.id }])).status, 202);
  const seen = [await message(sse), await message(sse)];
  assert.deepEqual(seen.find((m) => m.id === 4), { jsonrpc: "2.0", id: 4, result: {} });
  assert.match(seen.find((m) => m.id === 2).error.message, /malformed response from the peer: a message needs a method, a result or an error/);
});

test("application hooks that throw: onOpen gets the GET a 500 and leaves no session; onClose is reported (handler-error), not thrown into the stream's end", async () => {
  const tools = new Tools();
  const diagnostics: string[] = [];
  const { setupWith } = await import("./helpers.js");
  const opening = withSse(tools, { createSession: setupWith(tools, { onOpen: () => { throw new Error("onOpen bug"); } }), onDiagnostic: (d: { code: string }) => diagnostics.push(d.code) }).handler;
  const refused = await opening(new Request(`${ORIGIN}/sse`, { headers: { accept: "text/event-stream" } }));
  assert.equal(refused.status, 500);
  assert.equal(opening.sessionCount, 0);
  const closing = withSse(tools, { createSession: setupWith(tools, { onClose: () => { throw new Error("onClose bug"); } }), onDiagnostic: (d: { code: string }) => diagnostics.push(d.code) }).handler;
  const { sse } = await connectSse(closing);
  await sse.cancel();
  await until(() => closing.sessionCount === 0);
  assert.ok(diagnostics.includes("handler-error"), diagnostics.join());
});

test("2024-11-05 HTTP with SSE: a POST whose requests the kernel took is accepted (202) even when an application hook threw meanwhile; their answers come on the stream and the error is reported, not answered 500", { timeout: 10_000 }, async () => {
  const tools = new Tools();
  const diagnostics: string[] = [];
  const { setupWith } = await import("./helpers.js");
  // onEvent fails on the diagnostic of the batch's unknown notification, in the step that takes its request.
  const createSession = setupWith(tools, { onEvent: (e) => { if (e.type === "diagnostic") throw new Error("onEvent bug"); } });
  const { handler } = withSse(tools, { createSession, onDiagnostic: (d: { code: string; message: string }) => diagnostics.push(`${d.code}: ${d.message}`) });
  const { sse, messages } = await connectSse(handler);
  assert.equal((await postTo(handler, messages, initializeMessage("2025-03-26", 1))).status, 202);
  await message(sse);
  await postTo(handler, messages, { jsonrpc: "2.0", method: "notifications/initialized" });
  const res = await postTo(handler, messages, [call(2, "echo", { text: "ran" }), { jsonrpc: "2.0", method: "notifications/unknown" }]);
  assert.equal(res.status, 202);
  const answer = await message(sse);
  assert.deepEqual([answer.id, answer.result.content[0].text], [2, "ran"]);
  assert.ok(diagnostics.some((d) => d === "handler-error: onEvent bug"), diagnostics.join("\n"));
  // Notifications alone: the POST reports the hook's failure (500), as a Streamable HTTP POST of them does.
  assert.equal((await postTo(handler, messages, { jsonrpc: "2.0", method: "notifications/unknown" })).status, 500);
});

test("createHttpHandler: httpSse paths are spelled as a request's URL spells them; a session id is one session's, of either kind", async () => {
  const createSession = () => ({ options: { role: "server" as const, info: { name: "s", version: "1" }, capabilities: {} } });
  assert.throws(() => createHttpHandler({ createSession, httpSse: { path: "/sse", messagesPath: "/méssages" } }), /as a URL spells it/);
  assert.throws(() => createHttpHandler({ createSession, httpSse: { path: "/a/../sse", messagesPath: "/m" } }), /as a URL spells it/);
  const { handler } = withSse(new Tools(), { sessionIdGenerator: () => "same" });
  await connectSse(handler);
  const init = await handler(new Request(`${ORIGIN}/mcp`, { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "application/json" }, body: JSON.stringify(initializeMessage()) }));
  assert.equal(init.status, 500);
});

test("relativeReference: the POST endpoint as seen from the SSE endpoint's directory", async () => {
  const { relativeReference } = await import("../../src/transports/http/http-sse-server.js");
  assert.equal(relativeReference("/sse", "/messages"), "messages");
  assert.equal(relativeReference("/api/sse", "/api/messages"), "messages");
  assert.equal(relativeReference("/sse/stream", "/messages"), "../messages");
  assert.equal(relativeReference("/a/b/sse", "/a/c/m"), "../c/m");
  assert.equal(relativeReference("/sse", "/x:y"), "./x:y", "not read as a scheme");
  for (const [from, to] of [["/sse/stream", "/messages"], ["/a/b/sse", "/a/c/m"], ["/p/sse", "/p/q/r"]]) {
    assert.equal(new URL(relativeReference(from, to), `http://h/prefix${from}`).pathname, `/prefix${to}`);
  }
});
