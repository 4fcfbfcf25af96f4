// Spec: draft basic/transports/streamable-http (2026-07-28) on the server: stateless
// requests, the request metadata headers checked against the body (Server Validation,
// -32020 HeaderMismatch with HTTP 400), JSON or SSE answers, cancellation by closing the
// response stream, subscriptions/listen, no GET / DELETE / Last-Event-ID; and
// basic/versioning: both eras on one endpoint, chosen per request.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { UNENCODABLE_RESPONSE } from "../../src/jsonrpc/codec.js";
import { call, initializeMessage, nested, open, post, setupWith, SseReader, Tools, until, URL_ } from "./helpers.js";
import { answerOf, bodyOf, legacyHandler, modernHandler, modernRequest, MV, postModern } from "./modern-helpers.js";
import { createHttpHandler, type HttpHandler } from "../../src/transports/http-server.js";
import { ManualClock } from "../../src/driver/clock.js";

const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** The endpoint still serves: a fresh modern tools/call answers. */
async function stillServes(handler: HttpHandler): Promise<void> {
  const msg = modernRequest(99, "tools/call", { name: "echo", arguments: { text: "alive" } });
  const r = await postModern(handler, msg);
  assert.equal(r.status, 200);
  assert.equal((await answerOf(r)).result.content[0].text, "alive");
}

test("streamable-http (draft) Sending Messages: a request whose handler sends notifications first is answered on its own SSE stream, with no MCP-Session-Id (no sessions), events carry no id", async () => {
  const { handler } = modernHandler();
  const msg = modernRequest(1, "tools/call", { name: "burst", arguments: { count: 2 } }, { "io.modelcontextprotocol/logLevel": "info" });
  const r = await postModern(handler, msg);
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("content-type"), "text/event-stream");
  assert.equal(r.headers.get("x-accel-buffering"), "no");
  assert.equal(r.headers.get("mcp-session-id"), null);
  const events = await new SseReader(r).rest();
  assert.deepEqual(events.map((e) => e.id), ["", "", ""], "modern streams are not resumable: no event ids");
  const [one, two, last] = events.map((e) => JSON.parse(e.data));
  assert.deepEqual([one.params.data, two.params.data], ["line 1", "line 2"]);
  assert.equal(last.id, 1);
  assert.equal(last.result.content[0].text, "burst");
  assert.equal(last.result.resultType, "complete");
  assert.equal(handler.sessionCount, 0);
});

test("streamable-http (draft) Sending Messages: a notification whose data has no JSON form is dropped, not turned into a stray error; the stream carries the next log and the response", async () => {
  for (const [label, send] of [
    ["modern", async (handler: HttpHandler) => postModern(handler, modernRequest(1, "tools/call", { name: "log-unencodable" }, { "io.modelcontextprotocol/logLevel": "info" }))],
    ["legacy", async (handler: HttpHandler) => {
      const sid = await open(handler);
      await post(handler, { jsonrpc: "2.0", id: 9, method: "logging/setLevel", params: { level: "info" } }, sid, "2025-11-25").then((r) => r.text());
      return post(handler, call(1, "log-unencodable"), sid, "2025-11-25");
    }],
  ] as const) {
    const { handler } = modernHandler();
    const r = await send(handler);
    assert.equal(r.headers.get("content-type"), "text/event-stream", label);
    const messages = (await new SseReader(r).rest()).filter((e) => e.data !== "").map((e) => JSON.parse(e.data));
    assert.deepEqual(messages.map((m) => m.method ?? m.id), ["notifications/message", 1], `${label}: ${JSON.stringify(messages)}`);
    assert.equal(messages[0].params.data, "fine");
    assert.equal(messages[1].result.content[0].text, "logged");
  }
});

test("basic (Responses: every request MUST get one): a result with no JSON form is answered -32603 on both eras' HTTP paths, JSON body or stream, and reported as a diagnostic", async () => {
  for (const [label, send] of [
    ["modern json", async (handler: HttpHandler) => postModern(handler, modernRequest(1, "tools/call", { name: "result-unencodable" }))],
    ["modern stream", async (handler: HttpHandler) => postModern(handler, modernRequest(1, "tools/call", { name: "result-unencodable", arguments: { log: true } }, { "io.modelcontextprotocol/logLevel": "info" }))],
    ["legacy stream", async (handler: HttpHandler) => post(handler, call(1, "result-unencodable"), await open(handler), "2025-11-25")],
  ] as const) {
    const { handler, tools } = modernHandler();
    const r = await send(handler);
    const messages = r.headers.get("content-type") === "text/event-stream" ? (await new SseReader(r).rest()).filter((e) => e.data !== "").map((e) => JSON.parse(e.data)) : [await bodyOf(r)];
    const answer = messages.at(-1);
    assert.equal(answer.id, 1, label);
    assert.deepEqual(answer.error, { code: -32603, message: UNENCODABLE_RESPONSE }, label);
    assert.ok(tools.diagnostics.includes("unsendable-response"), `${label}: ${tools.diagnostics.join()}`);
  }
});

test("streamable-http (draft) Sending Messages: a request whose only output is its response gets one JSON body (the server MAY answer with JSON)", async () => {
  const { handler } = modernHandler();
  const r = await postModern(handler, modernRequest(1, "tools/call", { name: "echo", arguments: { text: "hi" } }));
  assert.equal(r.status, 200);
  const m = await bodyOf(r);
  assert.equal(m.id, 1);
  assert.equal(m.result.content[0].text, "hi");
  assert.equal(r.headers.get("mcp-session-id"), null);
});

test("streamable-http (draft): server/discover, answered at once, is one JSON body; enableJsonResponse answers a handler's result as JSON too", async () => {
  const { handler } = modernHandler();
  const r = await postModern(handler, modernRequest("d", "server/discover"));
  assert.equal(r.status, 200);
  const b = await bodyOf(r);
  assert.deepEqual(b.result.supportedVersions, [MV, "2025-11-25"]);
  assert.equal(r.headers.get("mcp-session-id"), null);
  const json = modernHandler(new Tools(), { enableJsonResponse: true }).handler;
  const j = await postModern(json, modernRequest(2, "tools/call", { name: "echo", arguments: { text: "j" } }));
  assert.equal((await bodyOf(j)).result.content[0].text, "j");
});

test("streamable-http (draft) Request Metadata: the same JSON-RPC id from two clients at once is two independent requests (no shared state)", async () => {
  const tools = new Tools();
  const { handler } = modernHandler(tools);
  const a = postModern(handler, modernRequest(7, "tools/call", { name: "wait" }));
  await tools.waiting();
  const b = await postModern(handler, modernRequest(7, "tools/call", { name: "echo", arguments: { text: "b" } }));
  assert.equal((await answerOf(b)).result.content[0].text, "b");
  tools.release();
  assert.equal((await answerOf(await a)).result.content[0].text, "waited");
});

// Server Validation: each failure is 400 with -32020 and the request's id; the endpoint serves on.
const mismatches: Array<[string, Record<string, unknown>, Record<string, string | null>]> = [
  ["MCP-Protocol-Version missing", { method: "tools/call", params: { name: "echo" } }, { "mcp-protocol-version": null }],
  ["MCP-Protocol-Version names a legacy version while the body is 2026-07-28", { method: "tools/call", params: { name: "echo" } }, { "mcp-protocol-version": "2025-11-25" }],
  ["Mcp-Method missing", { method: "tools/list", params: {} }, { "mcp-method": null }],
  ["Mcp-Method differs from the body (values are case-sensitive)", { method: "tools/list", params: {} }, { "mcp-method": "Tools/List" }],
  ["Mcp-Name missing on tools/call", { method: "tools/call", params: { name: "echo" } }, { "mcp-name": null }],
  ["Mcp-Name differs from params.name", { method: "tools/call", params: { name: "echo" } }, { "mcp-name": "other" }],
  ["Mcp-Name missing on resources/read", { method: "resources/read", params: { uri: "file:///a" } }, { "mcp-name": null }],
  ["Mcp-Name differs from params.uri", { method: "resources/read", params: { uri: "file:///a" } }, { "mcp-name": "file:///b" }],
  ["Mcp-Name missing on prompts/get", { method: "prompts/get", params: { name: "p" } }, { "mcp-name": null }],
  ["Mcp-Name with a control character", { method: "tools/call", params: { name: "echo" } }, { "mcp-name": "ec\x01ho" }],
  ["Mcp-Name with DEL", { method: "tools/call", params: { name: "echo" } }, { "mcp-name": "echo\x7f" }],
  ["Mcp-Name with a non-ASCII byte (not Base64-encoded)", { method: "tools/call", params: { name: "é" } }, { "mcp-name": "é" }],
  ["Mcp-Name sentinel whose payload is not Base64 of UTF-8", { method: "tools/call", params: { name: "echo" } }, { "mcp-name": "=?base64?/w==?=" }],
  // Value Encoding: Base64 of "the UTF-8 representation"; a leading U+FEFF is a character of the value, not a byte order mark to drop.
  ["Mcp-Name sentinel whose payload is a BOM then the body's name", { method: "tools/call", params: { name: "t" } }, { "mcp-name": "=?base64?77u/dA==?=" }],
  ["Mcp-Name on tasks/get missing (tasks extension: it carries params.taskId)", { method: "tasks/get", params: { taskId: "t1" } }, {}],
];

for (const [what, shape, extra] of mismatches) {
  test(`streamable-http (draft) Server Validation: ${what} → HTTP 400, -32020 HeaderMismatch; the endpoint serves on`, async () => {
    const { handler } = modernHandler();
    const msg = modernRequest(5, shape.method as string, shape.params as Record<string, unknown>);
    const r = await postModern(handler, msg, extra);
    assert.equal(r.status, 400);
    const b = await bodyOf(r);
    assert.equal(b.id, 5);
    assert.equal(b.error.code, ErrorCode.HeaderMismatch);
    await stillServes(handler);
  });
}

test("streamable-http (draft) Value Encoding: a Base64-sentinel Mcp-Name is decoded before the comparison (non-ASCII tool name; one that starts with U+FEFF keeps it)", async () => {
  for (const name of ["Hello, 世界", "\ufeffx"]) await sameNameAccepted(name);
});

async function sameNameAccepted(name: string): Promise<void> {
  const { handler } = modernHandler();
  const msg = modernRequest(3, "tools/call", { name, arguments: {} });
  const encoded = "=?base64?" + Buffer.from(name, "utf8").toString("base64") + "?=";
  const r = await postModern(handler, msg, { "mcp-name": encoded });
  assert.equal(r.status, 200);
  // The header check passed; the tool itself does not exist, which the handler reports.
  const m = await answerOf(r);
  assert.equal(m.id, 3);
  assert.ok(m.error !== undefined || m.result !== undefined);
}

test("streamable-http (draft) Protocol Version Header: a version the server does not implement → 400 with -32022 listing supported and requested", async () => {
  const { handler } = modernHandler();
  const msg = modernRequest(4, "tools/list", {}, { "io.modelcontextprotocol/protocolVersion": "2099-01-01" });
  const r = await postModern(handler, msg, { "mcp-protocol-version": "2099-01-01" });
  assert.equal(r.status, 400);
  const b = await bodyOf(r);
  assert.equal(b.error.code, ErrorCode.UnsupportedProtocolVersion);
  assert.deepEqual(b.error.data, { supported: [MV, "2025-11-25"], requested: "2099-01-01" });
  await stillServes(handler);
});

test("streamable-http (draft) Protocol Version Header: an RPC method the server does not implement → 404 with -32601", async () => {
  const { handler } = modernHandler();
  const r = await postModern(handler, modernRequest(6, "nope/nothing"));
  assert.equal(r.status, 404);
  assert.equal((await bodyOf(r)).error.code, ErrorCode.MethodNotFound);
  await stillServes(handler);
});

test("streamable-http (draft) Backward Compatibility: GET and DELETE with a modern version → 405; Mcp-Session-Id and Last-Event-ID are ignored", async () => {
  const { handler } = modernHandler();
  for (const method of ["GET", "DELETE"]) {
    const r = await handler(new Request(URL_, { method, headers: { accept: "text/event-stream", "mcp-protocol-version": MV } }));
    assert.equal(r.status, 405, method);
    assert.equal(r.headers.get("allow"), "POST");
  }
  const msg = modernRequest(8, "tools/call", { name: "echo", arguments: { text: "x" } });
  const r = await postModern(handler, msg, { "mcp-session-id": "no-such-session", "last-event-id": "1-5" });
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("mcp-session-id"), null);
  assert.equal((await answerOf(r)).result.content[0].text, "x");
});

test("streamable-http (draft) Sending Messages: a notification POST gets 202; a response POSTed by the client gets 400; bad JSON gets 400 -32700", async () => {
  const { handler } = modernHandler();
  const note = { jsonrpc: "2.0", method: "notifications/roots/list_changed", params: { _meta: { "io.modelcontextprotocol/protocolVersion": MV } } };
  assert.equal((await postModern(handler, note)).status, 202);
  const resp = await handler(new Request(URL_, { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": MV }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }) }));
  assert.equal(resp.status, 400);
  assert.equal((await bodyOf(resp)).error.code, ErrorCode.InvalidRequest);
  const bad = await handler(new Request(URL_, { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": MV }, body: "{" }));
  assert.equal(bad.status, 400);
  assert.equal((await bodyOf(bad)).error.code, ErrorCode.ParseError);
  const batch = await handler(new Request(URL_, { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": MV }, body: JSON.stringify([modernRequest(1, "tools/list")]) }));
  assert.equal(batch.status, 400);
  const notAccepting = await postModern(handler, modernRequest(1, "tools/list"), { accept: "application/json" });
  assert.equal(notAccepting.status, 406);
  await stillServes(handler);
});

test("streamable-http (draft) Security: Origin and Host checks apply to modern requests too (403)", async () => {
  const { handler } = modernHandler();
  const msg = modernRequest(1, "tools/list");
  assert.equal((await postModern(handler, msg, { origin: "https://evil.example" })).status, 403);
  const r = await handler(new Request("http://evil.example/mcp", { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": MV, "mcp-method": "tools/list" }, body: JSON.stringify(msg) }));
  assert.equal(r.status, 403);
  await stillServes(handler);
});

test("streamable-http (draft) Cancellation: closing the SSE response stream cancels the request: the handler's signal aborts, nothing more is sent, the endpoint serves on", async () => {
  const tools = new Tools();
  const { handler } = modernHandler(tools);
  const r = await postModern(handler, modernRequest(1, "tools/call", { name: "wait" }, { "io.modelcontextprotocol/logLevel": "info" }));
  const reader = new SseReader(r);
  await tools.waiting();
  const log = await reader.message();
  assert.equal(log.msg.method, "notifications/message", "request-scoped notifications precede the response");
  const ctx = tools.contexts.at(-1)!;
  assert.equal(ctx.signal.aborted, false);
  await reader.cancel();
  assert.equal(ctx.signal.aborted, true);
  tools.release();
  await stillServes(handler);
});

test("streamable-http (draft) Cancellation: with JSON responses, aborting the HTTP request cancels it the same way", async () => {
  const tools = new Tools();
  const { handler } = modernHandler(tools, { enableJsonResponse: true });
  const ac = new AbortController();
  const pending = postModern(handler, modernRequest(1, "tools/call", { name: "wait" }), {}, ac.signal);
  await tools.waiting();
  const ctx = tools.contexts.at(-1)!;
  ac.abort();
  await pending;
  assert.equal(ctx.signal.aborted, true);
  tools.release();
  const j = await postModern(handler, modernRequest(2, "tools/call", { name: "echo", arguments: { text: "ok" } }));
  assert.equal((await bodyOf(j)).result.content[0].text, "ok");
});

test("streamable-http (draft) Cancellation (the server MUST treat a client disconnect as cancellation): a request whose client left before it was served (its Request's signal already aborted) is cancelled all the same, with SSE or JSON responses: the handler's signal aborts, its endpoint closes", async () => {
  for (const enableJsonResponse of [false, true]) {
    const tools = new Tools();
    // No timer runs: an uncancelled request would wait here for ever.
    const { handler } = modernHandler(tools, { enableJsonResponse, clock: new ManualClock() });
    const ac = new AbortController();
    ac.abort();
    const pending = postModern(handler, modernRequest(1, "tools/call", { name: "wait" }), {}, ac.signal);
    const outcome = await Promise.race([pending, turns().then(() => "no answer")]);
    assert.ok(outcome instanceof Response, `${outcome} (json: ${enableJsonResponse})`);
    assert.equal(tools.contexts.at(-1)!.signal.aborted, true);
    assert.deepEqual(tools.closed, ["the client aborted the request"]);
    tools.release();
  }
});

test("streamable-http (draft) Receiving Messages: subscriptions/listen is a long-lived POST stream: acknowledgment first, then the notifications it asked for, tagged; closing it ends it", async () => {
  const tools = new Tools();
  const { handler } = modernHandler(tools, { enableJsonResponse: true });
  const r = await postModern(handler, modernRequest("L", "subscriptions/listen", { notifications: { toolsListChanged: true } }));
  assert.equal(r.headers.get("content-type"), "text/event-stream", "listen streams even in JSON mode");
  const reader = new SseReader(r);
  const ack = await reader.message();
  assert.equal(ack.msg.method, "notifications/subscriptions/acknowledged");
  assert.equal(ack.msg.params._meta["io.modelcontextprotocol/subscriptionId"], "L");
  const endpoint = tools.endpoints.at(-1)!;
  endpoint.feed({ type: "changed", now: 0, what: "prompts" });
  endpoint.feed({ type: "changed", now: 0, what: "tools" });
  const n = await reader.message();
  assert.equal(n.msg.method, "notifications/tools/list_changed");
  assert.equal(n.msg.params._meta["io.modelcontextprotocol/subscriptionId"], "L");
  await reader.cancel();
  assert.equal(endpoint.state.phase.name, "closed", "the listen request's kernel ended with its stream");
  await stillServes(handler);
});

test("basic/versioning: a dual-era server serves a legacy session and modern requests on one endpoint, chosen per request", async () => {
  const { handler } = modernHandler();
  const sid = await open(handler);
  const modern = await postModern(handler, modernRequest(1, "tools/call", { name: "echo", arguments: { text: "m" } }));
  assert.equal((await answerOf(modern)).result.content[0].text, "m");
  const legacy = await post(handler, call(2, "echo", { text: "l" }), sid, "2025-11-25");
  const lm = await new SseReader(legacy).message();
  assert.equal(lm.msg.result.content[0].text, "l");
  assert.equal(lm.msg.result.resultType, undefined, "legacy results carry no resultType");
  assert.equal(handler.sessionCount, 1);
  // A modern body without its headers is judged modern, and rejected for the missing header.
  const bare = await post(handler, modernRequest(3, "tools/list"));
  assert.equal(bare.status, 400);
  assert.equal((await bodyOf(bare)).error.code, ErrorCode.HeaderMismatch);
});

test("streamable-http (draft) Protocol Version Header (a mismatch MUST be 400 HeaderMismatch) + basic/versioning (a request carrying modern _meta is served statelessly): a modern body POSTed with a live legacy session's id and a legacy version header is refused, not served by the session; the session's own traffic is unaffected", async () => {
  const tools = new Tools();
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: setupWith(tools, {}, { versions: [MV, "2025-11-25", "2025-03-26"] }) });
  const sid = await open(handler);
  const served = tools.contexts.length;
  const lying = { "mcp-method": "prompts/get", "mcp-name": "other" };
  const r = await post(handler, modernRequest(5, "tools/call", { name: "echo", arguments: { text: "m" } }), sid, "2025-11-25", lying);
  assert.equal(r.status, 400);
  const b = await bodyOf(r);
  assert.equal(b.error.code, ErrorCode.HeaderMismatch);
  assert.equal(b.id, 5);
  // Without any version header: the modern request's header is required, session or not.
  const bare = await post(handler, modernRequest(6, "tools/list"), sid);
  assert.equal(bare.status, 400);
  assert.equal((await bodyOf(bare)).error.code, ErrorCode.HeaderMismatch);
  assert.equal(tools.contexts.length, served, "no handler ran for either");
  // With matching modern headers the session id is ignored and the request served statelessly.
  assert.equal((await answerOf(await postModern(handler, modernRequest(7, "tools/call", { name: "echo", arguments: { text: "ok" } }), { "mcp-session-id": sid }))).result.content[0].text, "ok");
  // The session's legacy requests and notifications are served as before.
  const legacy = await post(handler, call(8, "echo", { text: "l" }), sid, "2025-11-25");
  assert.equal((await new SseReader(legacy).message()).msg.result.content[0].text, "l");
  const note = await post(handler, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99, _meta: { "io.modelcontextprotocol/protocolVersion": MV } } }, sid, "2025-11-25");
  assert.equal(note.status, 202);
  // A 2025-03-26 batch holding a modern request: no header can be its version, so it is a mismatch too.
  const old = await open(handler, "2025-03-26");
  const before = tools.contexts.length;
  const batch = await post(handler, [call(9, "echo", { text: "a" }), modernRequest(10, "tools/list")], old, "2025-03-26");
  assert.equal(batch.status, 400);
  assert.equal((await bodyOf(batch)).error.code, ErrorCode.HeaderMismatch);
  assert.equal(tools.contexts.length, before, "nothing of the batch ran");
  const legacyBatch = await post(handler, [call(11, "echo", { text: "b" })], old, "2025-03-26");
  assert.equal(legacyBatch.status, 200);
  await legacyBatch.text();
  assert.equal(handler.sessionCount, 2);
  await handler.close();
});

test("basic/versioning: a legacy-only server answers a modern request with 400 -32022 naming its versions (so a dual-era client falls back to initialize)", async () => {
  const handler = legacyHandler();
  const r = await postModern(handler, modernRequest(1, "server/discover"));
  assert.equal(r.status, 400);
  const b = await bodyOf(r);
  assert.equal(b.error.code, ErrorCode.UnsupportedProtocolVersion);
  assert.ok(b.error.data.supported.includes("2025-11-25"));
  assert.equal((await post(handler, initializeMessage())).status, 200);
});

test("README Limits (maxMessageBytes: -32600 naming the limit, id echoed): a modern request over the setup's maxMessageBytes is refused before its kernel sees it, with the reply and HTTP 400 a legacy session's body gets; within the limit it is served", async () => {
  const tools = new Tools();
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: setupWith(tools, {}, { versions: [MV, "2025-11-25"], maxMessageBytes: 1000 }) });
  const refusal = { jsonrpc: "2.0", id: 1, error: { code: ErrorCode.InvalidRequest, message: "Invalid Request: message exceeds maxBytes (1000)" } };
  const big = { text: "y".repeat(5000) };
  const modern = await postModern(handler, modernRequest(1, "tools/call", { name: "echo", arguments: big }));
  assert.equal(modern.status, 400);
  assert.deepEqual(await bodyOf(modern), refusal);
  assert.equal(tools.contexts.length, 0, "the tool did not run");
  const sid = await open(handler);
  const legacy = await post(handler, call(1, "echo", big), sid, "2025-11-25");
  assert.equal(legacy.status, 400);
  assert.deepEqual(await bodyOf(legacy), refusal);
  // A notification has no id to echo.
  const note = { jsonrpc: "2.0", method: "notifications/message", params: { ...big, _meta: { "io.modelcontextprotocol/protocolVersion": MV } } };
  const n = await postModern(handler, note);
  assert.equal(n.status, 400);
  assert.equal("id" in (await bodyOf(n)), false, "a notification has no id to echo, and the error none");
  const small = await postModern(handler, modernRequest(2, "tools/call", { name: "echo", arguments: { text: "y".repeat(500) } }));
  assert.equal(small.status, 200);
  assert.equal((await answerOf(small)).result.content[0].text.length, 500);
});

test("README Limits (maxDepth: -32600 naming the limit): a modern request deeper than the setup's maxDepth is refused with HTTP 400 before its kernel sees it", async () => {
  const tools = new Tools();
  const heard: string[] = [];
  const hooks = { onOpen: () => heard.push("open"), onClose: (reason: string) => heard.push(`close: ${reason}`) };
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: setupWith(tools, hooks, { versions: [MV], maxDepth: 10 }) });
  const r = await postModern(handler, modernRequest(1, "tools/call", { name: "echo", arguments: { text: "x", deep: nested(12) } }));
  assert.equal(r.status, 400);
  assert.deepEqual(await bodyOf(r), { jsonrpc: "2.0", id: 1, error: { code: ErrorCode.InvalidRequest, message: "Invalid Request: message exceeds maxDepth (10)" } });
  assert.equal(tools.contexts.length, 0, "the tool did not run");
  // The factory ran: its onClose runs once, without onOpen, as for a refused initialize.
  assert.deepEqual(heard, ["close: the request exceeds the setup's maxMessageBytes or maxDepth: it was not served"]);
});

test("streamable-http (draft): the modern seam can be replaced by the application (options.modern)", async () => {
  const seen: string[] = [];
  const { handler } = modernHandler(new Tools(), {
    modern: async (req) => {
      seen.push(req.method);
      return new Response("mine", { status: 200 });
    },
  });
  const r = await handler(new Request(URL_, { method: "GET", headers: { "mcp-protocol-version": MV } }));
  assert.equal(await r.text(), "mine");
  assert.deepEqual(seen, ["GET"]);
  await until(() => true);
});

test("SEP-2575 / draft basic/index Request Metadata: a request without `_meta` protocol version is -32602 with HTTP 400, even when the MCP-Protocol-Version header is present (the body error wins over -32020)", async () => {
  const { handler } = modernHandler();
  const noMeta = { jsonrpc: "2.0", id: 11, method: "tools/list", params: {} };
  const r = await postModern(handler, noMeta);
  assert.equal(r.status, 400);
  const b = await bodyOf(r);
  assert.equal(b.id, 11);
  assert.equal(b.error.code, ErrorCode.InvalidParams);
  const noCaps = { jsonrpc: "2.0", id: 12, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": MV } } };
  const c = await postModern(handler, noCaps);
  assert.equal(c.status, 400, "invalid request _meta (no clientCapabilities) is tied to HTTP 400");
  assert.equal((await bodyOf(c)).error.code, ErrorCode.InvalidParams);
  await stillServes(handler);
});

test("SEP-2575 / draft streamable-http: -32021 MissingRequiredClientCapability made after an await is still one JSON body with HTTP 400", async () => {
  const { handler } = modernHandler();
  const r = await postModern(handler, modernRequest(13, "tools/call", { name: "needs-sampling" }));
  assert.equal(r.status, 400);
  const b = await bodyOf(r);
  assert.equal(b.id, 13);
  assert.equal(b.error.code, ErrorCode.MissingRequiredClientCapability);
  assert.ok(b.error.data.requiredCapabilities.sampling !== undefined);
  await stillServes(handler);
});

test("streamable-http (draft): a handler silent for modernStreamAfterMs (injected clock) gets its SSE stream then, and its answer rides on it", async () => {
  const clock = new ManualClock();
  const tools = new Tools();
  const { handler } = modernHandler(tools, { clock, modernStreamAfterMs: 500 });
  let response: Response | undefined;
  const pending = postModern(handler, modernRequest(14, "tools/call", { name: "wait" })).then((r) => (response = r));
  await tools.waiting();
  clock.advance(499);
  await new Promise(setImmediate);
  assert.equal(response, undefined, "not committed before the deadline");
  clock.advance(1);
  await pending;
  assert.equal(response!.status, 200);
  assert.equal(response!.headers.get("content-type"), "text/event-stream");
  tools.release();
  const m = await answerOf(response!);
  assert.equal(m.id, 14);
  assert.equal(m.result.content[0].text, "waited");
});

test("streamable-http (draft) Backward Compatibility: a server that supports only this revision SHOULD answer an older client's GET or DELETE with 405 (legacy: false); a dual-era one keeps the 2025-era session rules", async () => {
  const only = createHttpHandler({ sessionIdleMs: 0, legacy: false, createSession: () => ({ options: { role: "server", info: { name: "m", version: "1" }, capabilities: {}, versions: [MV] } }) });
  for (const method of ["GET", "DELETE"]) {
    // No MCP-Protocol-Version (an older client), with or without a session id it was never given.
    for (const headers of [{ accept: "text/event-stream" }, { accept: "text/event-stream", "mcp-session-id": "abc" }] as Record<string, string>[]) {
      const r = await only(new Request(URL_, { method, headers }));
      assert.equal(r.status, 405, `${method} ${JSON.stringify(headers)}`);
      assert.equal(r.headers.get("allow"), "POST");
      assert.equal((await r.json()).error.code, ErrorCode.InvalidRequest);
    }
  }
  const { handler: dual } = modernHandler();
  const r = await dual(new Request(URL_, { method: "GET", headers: { accept: "text/event-stream" } }));
  assert.equal(r.status, 400, "a dual-era server: GET without a session id is the 2025-era 400");
});
