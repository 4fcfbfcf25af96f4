// Limits: each reached on purpose, each answered with its spec-shaped error, and the
// connection goes on serving afterwards (issue 11: "each configurable and each with a
// clear error when reached"). Spec: basic/index (JSON-RPC errors: -32600 Invalid Request
// for a message the server will not take), basic/transports (Streamable HTTP statuses).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { createSession, step } from "../../src/session/session.js";
import type { SessionOptions, SessionOutput, SessionState } from "../../src/session/types.js";
import { createNdjsonDecoder, feedNdjson } from "../../src/framing/ndjson.js";
import { createSseDecoder, feedSse } from "../../src/framing/sse.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { ManualClock } from "../../src/driver/clock.js";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { webStreamsTransport } from "../../src/transports/web-streams.js";
import { invalidUtf8StandIn } from "../../src/jsonrpc/codec.js";

const INIT = { jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } };

function operatingServer(extra: Partial<SessionOptions>): SessionState {
  const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} }, ...extra });
  step(s, { type: "receive", now: 0, data: JSON.stringify(INIT) });
  step(s, { type: "receive", now: 0, data: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
  assert.equal(s.phase.name, "operating");
  return s;
}

const sent = (outs: SessionOutput[]) => outs.flatMap((o) => (o.type === "send" ? [o.message as any] : []));

/** The session still answers: a ping gets its empty result. */
function assertAlive(s: SessionState): void {
  const out = sent(step(s, { type: "receive", now: 1, data: '{"jsonrpc":"2.0","id":"alive","method":"ping"}' }).outputs);
  assert.deepEqual(out, [{ jsonrpc: "2.0", id: "alive", result: {} }]);
}

test("limits: a message over maxMessageBytes is -32600 naming the limit, its id echoed; the session goes on", () => {
  const s = operatingServer({ maxMessageBytes: 200 });
  const big = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "x", arguments: { pad: "y".repeat(400) } } });
  const [reply] = sent(step(s, { type: "receive", now: 1, data: big }).outputs);
  assert.equal(reply.id, 9);
  assert.equal(reply.error.code, ErrorCode.InvalidRequest);
  assert.match(reply.error.message, /maxBytes \(200\)/);
  assertAlive(s);
});

test("limits: a message nested past maxDepth is -32600 naming the limit; the session goes on", () => {
  const s = operatingServer({ maxDepth: 5 });
  const deep = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "x", arguments: { a: { b: { c: { d: {} } } } } } });
  const [reply] = sent(step(s, { type: "receive", now: 1, data: deep }).outputs);
  assert.deepEqual([reply.id, reply.error.code], [3, ErrorCode.InvalidRequest]);
  assert.match(reply.error.message, /maxDepth \(5\)/);
  assertAlive(s);
});

test("limits: past maxInboundRequests a request is -32600 'too many requests in progress'; answering one frees a slot", () => {
  const s = operatingServer({ maxInboundRequests: 2 });
  const call = (id: number) => step(s, { type: "receive", now: 1, data: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t" } }) }).outputs;
  assert.equal(call(1)[0].type, "request");
  assert.equal(call(2)[0].type, "request");
  const third = call(3);
  const [refused] = sent(third);
  assert.deepEqual([refused.id, refused.error.code], [3, ErrorCode.InvalidRequest]);
  assert.match(refused.error.message, /limit 2/);
  // The application hears it too (a full server should not be the last to know).
  assert.deepEqual(third.filter((o) => o.type === "diagnostic"), [{ type: "diagnostic", code: "limit-reached", message: "tools/call refused: too many requests in progress (limit 2)", detail: { id: 3, method: "tools/call", limit: 2, option: "maxInboundRequests" } }]);
  assert.equal(s.inboundCount, 2, "the refused request holds no slot");
  step(s, { type: "respond", now: 2, id: 1, result: { content: [] } });
  assert.equal(call(4)[0].type, "request", "a freed slot is usable again");
});

test("basic/utilities/ping (the receiver MUST respond promptly with an empty response): a server at maxInboundRequests still answers a ping, which the kernel answers itself and which takes no slot", () => {
  const s = operatingServer({ maxInboundRequests: 1 });
  const first = step(s, { type: "receive", now: 1, data: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t" } }) }).outputs;
  assert.equal(first[0].type, "request");
  assertAlive(s);
  assert.equal(s.inboundCount, 1);
});

test("limits: past maxOutboundRequests the application's request fails at once as an error output; nothing goes on the wire", () => {
  const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, maxOutboundRequests: 1, requestTimeoutMs: 0 });
  step(c, { type: "open", now: 0 });
  const initId = 0; // ids count from 0, and initialize is the first request
  step(c, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: initId, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } }) });
  assert.equal(c.phase.name, "operating");
  const first = step(c, { type: "request", now: 1, method: "tools/list" }).outputs;
  assert.equal(first[0].type, "send");
  const second = step(c, { type: "request", now: 1, method: "tools/list" }).outputs;
  assert.deepEqual(second.map((o) => o.type), ["error"]);
  assert.match((second[0] as any).error.message, /limit 1/);
});

test("limits: an ndjson line over maxLineBytes is one 'oversized' event, memory stays bounded, and the next line decodes", () => {
  const d = createNdjsonDecoder({ maxLineBytes: 64 });
  const events = [];
  for (let i = 0; i < 1000; i++) events.push(...feedNdjson(d, new TextEncoder().encode("x".repeat(100))));
  assert.ok(d.buffer.length <= 256 && d.length === 0, "the oversized line is not buffered");
  events.push(...feedNdjson(d, new TextEncoder().encode('\n{"jsonrpc":"2.0","method":"ping","id":1}\n')));
  assert.deepEqual(events.map((e) => e.kind), ["oversized", "line"]);
});

test("limits: an SSE event over maxEventSize is one error output, dropped, and the next event is delivered", () => {
  const d = createSseDecoder({ maxEventSize: 50 });
  const out = [...feedSse(d, "data: " + "x".repeat(40) + "\ndata: " + "y".repeat(40) + "\n\n"), ...feedSse(d, "data: ok\n\n")];
  assert.deepEqual(out.map((o) => o.type), ["error", "event"]);
  assert.equal((out[1] as any).data, "ok");
  assert.ok(d.data.length + d.line.length <= 50);
});

async function httpSetup(extra: Record<string, unknown> = {}) {
  const h = createHttpHandler({
    clock: new ManualClock(),
    createSession: () => ({ options: { role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} } }, onRequest: () => ({ tools: [] }) }),
    ...extra,
  });
  const post = (body: unknown, sid?: string, raw?: string) =>
    h(new Request("http://127.0.0.1/mcp", { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2025-11-25", ...(sid ? { "mcp-session-id": sid } : {}) }, body: raw ?? JSON.stringify(body) }));
  const open = async () => {
    const res = await post(INIT);
    await res.body?.cancel();
    const sid = res.headers.get("mcp-session-id");
    if (sid !== null) await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, sid)).body?.cancel();
    return { status: res.status, sid, res };
  };
  return { h, post, open };
}

test("limits (Streamable HTTP): a body over maxBodyBytes is 413 with a JSON-RPC error; the session still answers", async () => {
  const { h, post, open } = await httpSetup({ maxBodyBytes: 256, enableJsonResponse: true });
  const { sid } = await open();
  const res = await post(undefined, sid!, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "z".repeat(500) } }));
  assert.equal(res.status, 413);
  const body = await res.json();
  assert.equal(body.jsonrpc, "2.0");
  assert.equal(typeof body.error.code, "number");
  const ping = await post({ jsonrpc: "2.0", id: 2, method: "ping" }, sid!);
  assert.equal(ping.status, 200);
  assert.deepEqual(await ping.json(), { jsonrpc: "2.0", id: 2, result: {} });
  h.close();
});

test("limits (Streamable HTTP): past maxSessions an initialize is 503 with a JSON-RPC error; ending one session makes room", async () => {
  const { h, post, open } = await httpSetup({ maxSessions: 2, enableJsonResponse: true });
  const a = await open();
  await open();
  const refused = await post(INIT);
  // RFC 9110 §15.6.4: none of it ran; try again in a second (httpClientTransport sends such a modern request again).
  assert.equal(refused.headers.get("retry-after"), "1");
  assert.equal((await refused.json()).error.message, "Service Unavailable: too many sessions (maxSessions 2)", "the message names the bound");
  const third = await open();
  assert.equal(third.status, 503);
  assert.equal(third.sid, null);
  assert.equal(h.sessionCount, 2);
  assert.ok(h.terminate(a.sid!));
  assert.equal((await open()).status, 200);
  h.close();
  assert.equal(h.sessionCount, 0, "close ends every session");
});

test("server/utilities/completion, Security (implementations MUST implement appropriate rate limiting): past maxCompletionsPerSecond a completion/complete is -32600 with a limit-reached diagnostic, in either era; the next second admits more, and other requests are untouched", () => {
  const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { completions: {}, prompts: {} }, versions: ["2026-07-28", "2025-11-25"], maxCompletionsPerSecond: 2 });
  step(s, { type: "receive", now: 0, data: JSON.stringify(INIT) });
  step(s, { type: "receive", now: 0, data: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
  const params = { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "x" } };
  const modernMeta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } };
  const ask = (id: number, now: number, modern = false) => step(s, { type: "receive", now, value: { jsonrpc: "2.0", id, method: "completion/complete", params: modern ? { ...params, _meta: modernMeta } : params } }).outputs;
  // One legacy and one modern request share the session's budget of two.
  assert.ok(ask(1, 100).some((o) => o.type === "request"));
  assert.ok(ask(2, 200, true).some((o) => o.type === "request"));
  for (const [id, modern] of [[3, false], [4, true]] as const) {
    const outs = ask(id, 900, modern);
    assert.ok(!outs.some((o) => o.type === "request"), "not handed to the application");
    assert.deepEqual(sent(outs), [{ jsonrpc: "2.0", id, error: { code: ErrorCode.InvalidRequest, message: "too many completion requests this second (limit 2)" } }]);
    assert.deepEqual(outs.find((o) => o.type === "diagnostic"), { type: "diagnostic", code: "limit-reached", message: "completion/complete refused: too many completion requests this second (limit 2)", detail: { id, method: "completion/complete", limit: 2, option: "maxCompletionsPerSecond" } });
  }
  // Other methods are not counted against it.
  assertAlive(s);
  // The window began at 100: from 1100 on, a new second.
  assert.ok(ask(5, 1100).some((o) => o.type === "request"));
  assert.equal(JSON.parse(JSON.stringify(s)).completionWindow.count, 1, "the window is plain state");
  // 0: no limit.
  const free = operatingServer({ maxCompletionsPerSecond: 0 });
  free.options.capabilities = { completions: {}, prompts: {} };
  for (let id = 1; id <= 100; id++) assert.ok(step(free, { type: "receive", now: 5, value: { jsonrpc: "2.0", id, method: "completion/complete", params } }).outputs.some((o) => o.type === "request"));
});

test("limits: past maxProgressPerSecond inbound progress for one request is dropped for the rest of that second, with one diagnostic; the next second delivers again", () => {
  const client = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, maxProgressPerSecond: 3 });
  step(client, { type: "open", now: 0 });
  const initReq = Object.values(client.outbound)[0];
  step(client, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: initReq.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } }) });
  assert.equal(client.phase.name, "operating");
  step(client, { type: "request", now: 0, method: "tools/call", params: { name: "x" }, progress: true });
  const req = Object.values(client.outbound).find((r) => r.method === "tools/call")!;
  const progressAt = (now: number, progress: number) => step(client, { type: "receive", now, data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: req.progressToken, progress } }) }).outputs;
  const outs = [1, 2, 3, 4, 5, 6].flatMap((p) => progressAt(100 + p, p));
  assert.deepEqual(outs.filter((o) => o.type === "progress").map((o: any) => o.progress), [1, 2, 3]);
  assert.equal(outs.filter((o) => o.type === "diagnostic" && o.code === "progress-rate-limited").length, 1, "one diagnostic per window");
  const later = progressAt(1101, 7);
  assert.deepEqual(later.filter((o) => o.type === "progress").map((o: any) => o.progress), [7], "a new window delivers again");
});

// README Limits, "stdio line": a response line too long for the client "fails its request
// at once". The framer hands the session a stand-in of the line's two ends (up to about
// 8 KB: 1 KiB and 256 characters, escaped), which a session with a smaller
// maxMessageBytes refused as too large itself, reading no id from it: the call waited
// for its timeout (a minute) instead.
test("limits (stdio line): an answer line over maxLineBytes fails its call at once with -32603 naming the limit, even where the session's maxMessageBytes is smaller than the framer's stand-in; the connection serves on", { timeout: 5000 }, async () => {
  const up = new TransformStream<Uint8Array | string, Uint8Array | string>();
  const down = new TransformStream<Uint8Array | string, Uint8Array | string>();
  const server = new McpServer({ name: "s", version: "1" }, { clock: new ManualClock() });
  server.tool("big", { inputSchema: { type: "object" } }, (a) => ({ content: [{ type: "text", text: "€".repeat(a.n as number) }] }));
  server.connect(webStreamsTransport(up.readable, down.writable, { clock: new ManualClock() }));
  // A clock that never moves: the call can only fail by the answer's stand-in, never by its timeout.
  const client = new McpClient({ name: "c", version: "1" }, { clock: new ManualClock(), session: { maxMessageBytes: 1000 } });
  await client.connect(webStreamsTransport(down.readable, up.writable, { clock: new ManualClock(), maxLineBytes: 1000 }));
  await assert.rejects(client.callTool("big", { n: 400 }), (e: any) => e.code === ErrorCode.InternalError && /malformed response from the peer: message exceeds maxBytes \(1000\)/.test(e.message));
  const small = await client.callTool("big", { n: 10 });
  assert.equal((small.content[0] as { text: string }).text, "€".repeat(10), "the connection serves on");
  await client.close();
});

test("limits (stdio line): an answer line that is not UTF-8 fails its call at once, even where its stand-in is larger than the session's maxMessageBytes", () => {
  const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, maxMessageBytes: 300, requestTimeoutMs: 0 });
  step(c, { type: "open", now: 0 });
  step(c, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } }) });
  step(c, { type: "request", now: 1, method: "tools/list" });
  const id = Object.values(c.outbound).find((r) => r.method === "tools/list")!.id;
  // What the channel delivers for the line {"jsonrpc":"2.0","id":<id>,"result":{"x":"<bad bytes>"}}: its ends, decoded leniently.
  const standIn = invalidUtf8StandIn(`{"jsonrpc":"2.0","id":${id},"result":{"x":"${"\ufffd".repeat(1000)}`, `"}}`);
  assert.ok(standIn.length > 300);
  const errors = step(c, { type: "receive", now: 2, data: standIn }).outputs.filter((o) => o.type === "error") as any[];
  assert.deepEqual(errors.map((o) => [o.id, o.error.code, o.error.message]), [[id, ErrorCode.InternalError, "malformed response from the peer: message is not valid UTF-8"]]);
  assert.equal(Object.keys(c.outbound).length, 0, "nothing left waiting");
});
