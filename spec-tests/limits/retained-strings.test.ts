// Limits on the size of what the kernel keeps: its tables are capped by entries, and each
// entry's peer-chosen string is capped too, or 1024 entries of up to maxMessageBytes (4 MiB)
// each would hold gigabytes for one session. Spec: basic/index (JSON-RPC: -32600 Invalid
// Request, id null when the id cannot be read back; -32602 Invalid params); 2025-11-25
// server/resources (resources/subscribe), client/elicitation (URL mode, -32042),
// basic/utilities/{progress,tasks}; draft basic/patterns/subscriptions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decode, decodeValue } from "../../src/jsonrpc/codec.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { createSession, step } from "../../src/session/session.js";
import type { SessionOptions, SessionOutput, SessionState } from "../../src/session/types.js";
import { McpServer } from "../../src/api/server.js";
import { rawClient, SERVER } from "../api/setup.js";
import { Pair } from "../harness/pair.js";

// The bounds README "Limits" documents (codec.ts MAX_REQUEST_ID_LENGTH, retained.ts MAX_KEPT_ID_LENGTH and MAX_URI_LENGTH).
const MAX_REQUEST_ID_LENGTH = 1024;
const MAX_KEPT_ID_LENGTH = 1024;
const MAX_URI_LENGTH = 8192;

const sent = (outs: SessionOutput[]) => outs.flatMap((o) => (o.type === "send" ? [o.message as any] : []));
const diagnostics = (outs: SessionOutput[], code: string) => outs.filter((o) => o.type === "diagnostic" && o.code === code);
const long = (n: number, prefix = "") => prefix + "x".repeat(n - prefix.length);

function receive(s: SessionState, message: object): SessionOutput[] {
  return step(s, { type: "receive", now: 1, data: JSON.stringify(message) }).outputs;
}

function operatingServer(extra: Partial<SessionOptions> = {}): SessionState {
  const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {}, resources: { subscribe: true } }, ...extra });
  receive(s, { jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
  receive(s, { jsonrpc: "2.0", method: "notifications/initialized" });
  assert.equal(s.phase.name, "operating");
  return s;
}

function operatingClient(serverCapabilities: object, capabilities: object = {}): SessionState {
  const c = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: capabilities as never, requestTimeoutMs: 0 });
  step(c, { type: "open", now: 0 });
  receive(c, { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: serverCapabilities, serverInfo: { name: "s", version: "1" } } });
  assert.equal(c.phase.name, "operating");
  return c;
}

function assertAlive(s: SessionState): void {
  assert.deepEqual(sent(receive(s, { jsonrpc: "2.0", id: "alive", method: "ping" })), [{ jsonrpc: "2.0", id: "alive", result: {} }]);
}

/** Asserts one -32602 naming `path`, for request `id`. */
function assertRefusedParam(outs: SessionOutput[], id: string | number, path: RegExp): void {
  const [reply] = sent(outs);
  assert.equal(reply.id, id);
  assert.equal(reply.error.code, ErrorCode.InvalidParams);
  assert.equal(reply.error.data.issues.length, 1, "one issue, not the request handed back");
  assert.match(reply.error.data.issues[0].path, path);
  assert.match(reply.error.data.issues[0].reason, /longer than \d+ characters/);
  assert.ok(JSON.stringify(reply).length < 1000, "the reply does not echo the long string");
  assert.ok(!outs.some((o) => o.type === "request"), "the application never sees it");
}

test("basic/index: a string request id longer than MAX_REQUEST_ID_LENGTH is -32600 with id null (echoing it would hand the bytes back); one of exactly the bound is a request", () => {
  const request = (id: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t" } });
  assert.equal(decode(JSON.stringify(request(long(MAX_REQUEST_ID_LENGTH)))).kind, "request");
  for (const d of [decode(JSON.stringify(request(long(MAX_REQUEST_ID_LENGTH + 1)))), decodeValue(request(long(1 << 20)))]) {
    assert.equal(d.kind, "invalid");
    if (d.kind !== "invalid") continue;
    assert.deepEqual([d.reply.id, d.reply.error.code], [null, ErrorCode.InvalidRequest]);
    assert.match(d.reason, new RegExp(`longer than ${MAX_REQUEST_ID_LENGTH} characters`));
  }
  // Every other reply that would echo the id names null instead: too deep, jsonrpc wrong, no method.
  const id = long(MAX_REQUEST_ID_LENGTH + 1);
  for (const text of [JSON.stringify({ jsonrpc: "2.0", id, method: "x", params: { a: { b: { c: {} } } } }), JSON.stringify({ jsonrpc: "1.0", id, method: "x" }), JSON.stringify({ jsonrpc: "2.0", id })]) {
    const d = decode(text, { maxDepth: 2 });
    assert.ok(d.kind === "invalid" && d.reply.id === null, text.slice(0, 40));
  }
  // In a session: refused before any table sees it, and the session goes on.
  const s = operatingServer();
  const outs = receive(s, request(long(1 << 20)));
  assert.deepEqual(sent(outs).map((m) => [m.id, m.error.code]), [[null, ErrorCode.InvalidRequest]]);
  assert.equal(s.inboundCount, 0);
  assertAlive(s);
});

test("basic/utilities/tasks: a task-augmented call with an over-long id creates no task (the id would be kept for the task's TTL)", async () => {
  const server = new McpServer(SERVER);
  server.tool("job", { execution: { taskSupport: "optional" } }, async () => ({ content: [{ type: "text", text: "done" }] }));
  const raw = rawClient(server);
  await raw.initialize("2025-11-25");
  raw.send({ jsonrpc: "2.0", id: long(1 << 20, "big"), method: "tools/call", params: { name: "job", arguments: {}, task: { ttl: 86_400_000 } } });
  const list = await raw.request("list", "tasks/list", {});
  assert.deepEqual(list.result.tasks, []);
  const refused = raw.inbox.find((m) => m.error !== undefined && !("id" in m));
  assert.equal(refused.error.code, ErrorCode.InvalidRequest);
  server.close();
});

test("server/resources: resources/subscribe with a URI longer than MAX_URI_LENGTH is -32602 and keeps nothing; one of exactly the bound is subscribed", () => {
  const s = operatingServer();
  assertRefusedParam(receive(s, { jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: long(MAX_URI_LENGTH + 1, "file:///") } }), 1, /^\/uri$/);
  assert.deepEqual(Object.keys(s.resourceSubscriptions), []);
  const ok = long(MAX_URI_LENGTH, "file:///");
  assert.deepEqual(sent(receive(s, { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: ok } })), [{ jsonrpc: "2.0", id: 2, result: {} }]);
  assert.deepEqual(Object.keys(s.resourceSubscriptions), [ok]);
  // Unsubscribing keeps nothing, so any URI is answered.
  assert.deepEqual(sent(receive(s, { jsonrpc: "2.0", id: 3, method: "resources/unsubscribe", params: { uri: long(MAX_URI_LENGTH + 1, "file:///") } }))[0].result, {});
  assertAlive(s);
});

test("draft basic/patterns/subscriptions: a subscriptions/listen filter with a URI or task id past its bound is -32602; the stream is not opened", () => {
  const caps = { resources: { subscribe: true }, extensions: { "io.modelcontextprotocol/tasks": {} } };
  const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: caps, versions: ["2026-07-28"] });
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } }, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } };
  const listen = (id: number, notifications: object) => receive(s, { jsonrpc: "2.0", id, method: "subscriptions/listen", params: { _meta: meta, notifications } });
  assertRefusedParam(listen(1, { resourceSubscriptions: ["file:///a", long(MAX_URI_LENGTH + 1)] }), 1, /^\/notifications\/resourceSubscriptions\/1$/);
  assertRefusedParam(listen(2, { taskIds: [long(MAX_KEPT_ID_LENGTH + 1)] }), 2, /^\/notifications\/taskIds\/0$/);
  assert.equal(s.subscriptionCount, 0);
  const opened = sent(listen(3, { resourceSubscriptions: [long(MAX_URI_LENGTH)], taskIds: [long(MAX_KEPT_ID_LENGTH)] }));
  assert.equal(opened[0].method, "notifications/subscriptions/acknowledged");
  assert.equal(s.subscriptionCount, 1);
});

test("basic/utilities/progress: a progressToken longer than MAX_KEPT_ID_LENGTH is -32602 (a 2025-11-25 task keeps it for its lifetime); one of exactly the bound is taken", () => {
  const s = operatingServer();
  const call = (id: number, progressToken: string) => receive(s, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "t", _meta: { progressToken } } });
  assertRefusedParam(call(1, long(MAX_KEPT_ID_LENGTH + 1)), 1, /^\/_meta\/progressToken$/);
  assert.equal(s.inboundCount, 0);
  assert.equal(call(2, long(MAX_KEPT_ID_LENGTH))[0].type, "request");
});

test("client/elicitation: a URL-mode elicitation/create with an elicitationId longer than MAX_KEPT_ID_LENGTH is -32602 (the client keeps the id until its completion)", () => {
  const c = operatingClient({}, { elicitation: { url: {} } });
  const create = (id: number, elicitationId: string) => receive(c, { jsonrpc: "2.0", id, method: "elicitation/create", params: { mode: "url", message: "m", url: "https://x.example/", elicitationId } });
  assertRefusedParam(create(1, long(MAX_KEPT_ID_LENGTH + 1)), 1, /^\/elicitationId$/);
  assert.deepEqual(Object.keys(c.urlElicitations), []);
  assert.equal(create(2, "e-1")[0].type, "request");
  assert.deepEqual(Object.keys(c.urlElicitations), ["e-1"]);
});

test("client/elicitation: over-long elicitationIds of a -32042 error are not remembered (a too-long-to-keep diagnostic); the short ones are, and the error still reaches the application", () => {
  const c = operatingClient({ tools: {} }, { elicitation: { url: {} } });
  step(c, { type: "request", now: 1, method: "tools/call", params: { name: "t" } });
  const url = (elicitationId: string) => ({ mode: "url", elicitationId, url: "https://x.example/", message: "m" });
  const outs = receive(c, { jsonrpc: "2.0", id: 1, error: { code: ErrorCode.UrlElicitationRequired, message: "need url", data: { elicitations: [url(long(1 << 20)), url("e-2"), url(long(MAX_KEPT_ID_LENGTH + 1))] } } });
  assert.deepEqual(Object.keys(c.urlElicitations), ["e-2"]);
  const notes = diagnostics(outs, "too-long-to-keep");
  assert.equal(notes.length, 2);
  assert.ok(JSON.stringify(notes).length < 1000, "the diagnostic names the length, not the id");
  assert.equal(outs.filter((o) => o.type === "error").length, 1);
});

test("basic/utilities/tasks: a CreateTaskResult whose taskId is longer than MAX_KEPT_ID_LENGTH keeps no progress token (a too-long-to-keep diagnostic); the result is still delivered", () => {
  const c = operatingClient({ tools: {}, tasks: { requests: { tools: { call: {} } } } });
  const created = (taskId: string) => ({ task: { taskId, status: "working", createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:30:00Z", ttl: 60000 } });
  step(c, { type: "request", now: 1, method: "tools/call", params: { name: "job", task: {} }, progress: true });
  const outs = receive(c, { jsonrpc: "2.0", id: 1, result: created(long(MAX_KEPT_ID_LENGTH + 1)) });
  assert.deepEqual(Object.keys(c.taskProgress), []);
  assert.equal(diagnostics(outs, "too-long-to-keep").length, 1);
  assert.ok(!outs.some((o) => o.type === "progress-kept"));
  assert.equal(outs.filter((o) => o.type === "response").length, 1);
  step(c, { type: "request", now: 1, method: "tools/call", params: { name: "job", task: {} }, progress: true });
  assert.ok(receive(c, { jsonrpc: "2.0", id: 2, result: created(long(MAX_KEPT_ID_LENGTH)) }).some((o) => o.type === "progress-kept"));
  assert.equal(Object.keys(c.taskProgress).length, 1);
});

test("draft basic/patterns/mrtr: an input_required whose inputRequests key is longer than MAX_KEPT_ID_LENGTH fails the call (-32603; the key would be kept until the application answers); one of exactly the bound is asked", () => {
  for (const [length, asked] of [[MAX_KEPT_ID_LENGTH + 1, false], [MAX_KEPT_ID_LENGTH, true]] as const) {
    // The client declares roots: servers MUST NOT ask for input it did not declare.
    const p = new Pair({ versions: ["2026-07-28"], capabilities: { roots: {} } }, { versions: ["2026-07-28"] });
    p.handlers.server = () => {};
    p.handshake();
    const id = p.request("client", "tools/call", { name: "x" });
    p.run();
    p.dropQueued();
    const out = p.inject("client", JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "input_required", inputRequests: { [long(length)]: { method: "roots/list" } } } }));
    assert.equal(out.some((o) => o.type === "request" && o.method === "roots/list"), asked, String(length));
    const errors = p.of("client", "error");
    assert.equal(errors.length, asked ? 0 : 1, String(length));
    if (!asked) assert.match(errors[0].error.message, /inputRequests key longer than 1024 characters/);
  }
});

test("draft basic/index (request metadata) and basic/lifecycle: client capabilities a modern request carries (kept for the whole request), or that initialize carries with its clientInfo (kept for the session), holding more than MAX_KEPT_PEER_CHARS are -32602 naming them; at the bound they are taken", () => {
  const MAX_KEPT_PEER_CHARS = 64 * 1024;
  // {"experimental":{"x":{"y":"…"}}}: each member name counts its length and one.
  const capsOf = (chars: number) => ({ experimental: { x: { y: "z".repeat(chars - 17) } } });
  const refused = (outs: SessionOutput[], id: number | string, path: string) => {
    const [reply] = sent(outs);
    assert.equal(reply.id, id);
    assert.equal(reply.error.code, ErrorCode.InvalidParams);
    assert.deepEqual(reply.error.data.issues, [{ path, reason: `holds more than ${MAX_KEPT_PEER_CHARS} characters, more than this receiver keeps` }]);
    assert.ok(!outs.some((o) => o.type === "request"), "the application never sees it");
  };
  // (A session that reads deeper messages than the default 64 levels: the deep case below gets past the codec.)
  const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} }, versions: ["2026-07-28"], maxDepth: 256 });
  const call = (id: number, capabilities: object) =>
    receive(s, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "t", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": capabilities, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } } } });
  refused(call(1, capsOf(MAX_KEPT_PEER_CHARS + 1)), 1, "/_meta/io.modelcontextprotocol~1clientCapabilities");
  // Depth counts as spent: 65 levels of empty objects hold next to nothing but are refused too.
  let deep: object = {};
  for (let i = 0; i < 65; i++) deep = { a: deep };
  refused(call(2, deep), 2, "/_meta/io.modelcontextprotocol~1clientCapabilities");
  assert.equal(s.inboundCount, 0);
  assert.equal(sent(call(3, capsOf(MAX_KEPT_PEER_CHARS))).length, 0, "taken: the application has it");
  assert.equal(s.inboundCount, 1);

  const init = (capabilities: object, clientInfo: object) => {
    const legacy = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} } });
    return { legacy, outs: receive(legacy, { jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-11-25", capabilities, clientInfo } }) };
  };
  refused(init(capsOf(MAX_KEPT_PEER_CHARS + 1), { name: "c", version: "1" }).outs, "init", "/capabilities");
  refused(init({}, { name: "c", version: "1", title: "t".repeat(MAX_KEPT_PEER_CHARS) }).outs, "init", "/clientInfo");
  const taken = init(capsOf(MAX_KEPT_PEER_CHARS), { name: "c", version: "1" });
  assert.equal(sent(taken.outs)[0].result.protocolVersion, "2025-11-25");
});

test("README Limits (a peer's capabilities and info: \"one more for each member and array element; deeper than 64 levels counts as over\"): an array counts each element once, no more; 64 levels are taken, 65 refused", () => {
  const MAX_KEPT_PEER_CHARS = 64 * 1024;
  const s = createSession({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} }, versions: ["2026-07-28"], maxDepth: 256 });
  let id = 0;
  const call = (capabilities: object) =>
    receive(s, { jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "t", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": capabilities, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } } } });
  const taken = (outs: SessionOutput[]) => sent(outs).length === 0 && outs.some((o) => o.type === "request");
  // {"experimental":{"x":{"y":[…]}}}: 17 for the member names, then each element its length and one.
  const arrayCaps = (elements: string[]) => ({ experimental: { x: { y: elements } } });
  const first = "a".repeat(MAX_KEPT_PEER_CHARS - 17 - 3);
  assert.ok(taken(call(arrayCaps([first, "b"]))), "two elements exactly at the bound are taken");
  assert.equal(sent(call(arrayCaps([first, "bb"])))[0].error.code, ErrorCode.InvalidParams, "one character more is refused");
  // Levels: the capabilities object is the first.
  const nest = (levels: number) => {
    let v: object = {};
    for (let i = 1; i < levels; i++) v = { a: v };
    return v;
  };
  assert.ok(taken(call(nest(64))), "64 levels are taken");
  assert.equal(sent(call(nest(65)))[0].error.code, ErrorCode.InvalidParams, "65 levels are over");
});
