// Spec: draft basic/index (_meta per-request fields, resultType), basic/versioning,
// server/discover, server/utilities/{logging,caching}, basic/patterns/{mrtr,subscriptions,cancellation}.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, step } from "../../src/session/session.js";
import type { SessionInput, SessionOptions, SessionOutput } from "../../src/session/types.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { sendsOf } from "../harness/pair.js";

const PV = "io.modelcontextprotocol/protocolVersion";
const CC = "io.modelcontextprotocol/clientCapabilities";
const SUB = "io.modelcontextprotocol/subscriptionId";
const meta = (extra: Record<string, unknown> = {}, caps: Record<string, unknown> = {}) => ({ [PV]: "2026-07-28", [CC]: caps, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" }, ...extra });

function server(extra: Partial<SessionOptions> = {}) {
  const s = createSession({ role: "server", info: { name: "srv", version: "2" }, capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, prompts: {}, logging: {} }, versions: ["2026-07-28", "2025-11-25"], ...extra });
  const feed = (input: SessionInput): SessionOutput[] => step(s, input).outputs;
  const rpc = (id: number | string, method: string, params?: Record<string, unknown>) => feed({ type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) }) });
  return { s, feed, rpc };
}

test("basic/index: a modern request missing a required _meta field MUST be rejected with -32602", () => {
  const { rpc } = server();
  assert.equal(sendsOf(rpc(1, "tools/list", { _meta: { [PV]: "2026-07-28" } }))[0].error.code, ErrorCode.InvalidParams);
  // Params the schema refuses: the message names the method and what is wrong.
  const bad = sendsOf(rpc(9, "tools/call", { _meta: meta(), name: 42 }))[0].error;
  assert.equal(bad.code, ErrorCode.InvalidParams);
  assert.match(bad.message, /^Invalid params for tools\/call: \/name: /);
  // A modern-only server treats a request without _meta as malformed, not as legacy.
  const m = server({ versions: ["2026-07-28"] });
  assert.equal(sendsOf(m.rpc(2, "tools/list"))[0].error.code, ErrorCode.InvalidParams);
});

test("basic/versioning: an unsupported version MUST get UnsupportedProtocolVersionError listing the supported versions", () => {
  const { rpc } = server();
  const r = sendsOf(rpc(1, "tools/list", { _meta: meta({ [PV]: "1900-01-01" }) }))[0];
  assert.deepEqual(r.error, { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28", "2025-11-25"], requested: "1900-01-01" } });
});

test("basic/versioning: a 2025-era version the server speaks, named per request, gets -32022 saying it needs the initialize handshake (it is in `supported`, so a bare refusal would read as refusing a version the server lists)", () => {
  const { rpc } = server();
  const r = sendsOf(rpc(1, "tools/list", { _meta: meta({ [PV]: "2025-11-25" }) }))[0];
  assert.equal(r.error.code, ErrorCode.UnsupportedProtocolVersion);
  assert.deepEqual(r.error.data, { supported: ["2026-07-28", "2025-11-25"], requested: "2025-11-25" });
  assert.match(r.error.message, /2025-11-25 is spoken after the initialize handshake/);
});

test("server/discover: servers MUST implement it; the result lists versions, capabilities, identity and caching hints", () => {
  const { rpc } = server({ instructions: "hi", cacheTtlMs: 5000, cacheScope: "public" });
  const r = sendsOf(rpc("d", "server/discover", { _meta: meta() }))[0];
  assert.deepEqual(r.result, {
    supportedVersions: ["2026-07-28", "2025-11-25"],
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, prompts: {}, logging: {} },
    instructions: "hi",
    resultType: "complete",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "srv", version: "2" } },
    ttlMs: 5000,
    cacheScope: "public",
  });
});

test("basic/index: every result MUST carry resultType; results SHOULD carry serverInfo; cacheable results MUST carry caching hints", () => {
  const { rpc, feed } = server();
  assert.equal(rpc(1, "tools/list", { _meta: meta() })[0].type, "request");
  const out = sendsOf(feed({ type: "respond", now: 0, id: 1, result: { tools: [] } }))[0];
  assert.equal(out.result.resultType, "complete");
  assert.deepEqual(out.result._meta["io.modelcontextprotocol/serverInfo"], { name: "srv", version: "2" });
  assert.equal(out.result.ttlMs, 0);
  assert.equal(out.result.cacheScope, "private");
  rpc(2, "tools/call", { _meta: meta(), name: "x" });
  const call = sendsOf(feed({ type: "respond", now: 0, id: 2, result: { content: [] } }))[0];
  assert.equal(call.result.ttlMs, undefined, "tools/call is not cacheable");
});

test("basic/index: the server MUST NOT rely on undeclared capabilities — input_required asking for elicitation without it is -32021", () => {
  const { rpc, feed } = server();
  rpc(1, "tools/call", { _meta: meta(), name: "x" });
  const elicit = { method: "elicitation/create", params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } } };
  const r = sendsOf(feed({ type: "respond", now: 0, id: 1, result: { resultType: "input_required", inputRequests: { a: elicit } } }))[0];
  assert.equal(r.error.code, ErrorCode.MissingRequiredClientCapability);
  assert.deepEqual(r.error.data, { requiredCapabilities: { elicitation: {} } });
  // With the capability declared on that request, the same answer goes out.
  rpc(2, "tools/call", { _meta: meta({}, { elicitation: {} }), name: "x" });
  const ok = sendsOf(feed({ type: "respond", now: 0, id: 2, result: { resultType: "input_required", inputRequests: { a: elicit }, requestState: "s" } }))[0];
  assert.equal(ok.result.resultType, "input_required");
  assert.equal(ok.result.ttlMs, undefined, "input_required results carry no caching hints");
});

test("mrtr: servers MUST NOT send input_required on other methods, and MUST include inputRequests or requestState", () => {
  const { rpc, feed } = server();
  // Each refusal tells the client what was wrong, as any invalid result's does.
  rpc(1, "tools/list", { _meta: meta() });
  assert.deepEqual(sendsOf(feed({ type: "respond", now: 0, id: 1, result: { resultType: "input_required", requestState: "x" } }))[0].error, { code: ErrorCode.InternalError, message: "the handler produced an invalid input_required result: servers MUST NOT send input_required on tools/list" });
  rpc(2, "tools/call", { _meta: meta(), name: "x" });
  assert.deepEqual(sendsOf(feed({ type: "respond", now: 0, id: 2, result: { resultType: "input_required" } }))[0].error, { code: ErrorCode.InternalError, message: "the handler produced an invalid input_required result: an input_required result MUST include inputRequests or requestState" });
  rpc(3, "tools/call", { _meta: meta(), name: "x" });
  assert.deepEqual(sendsOf(feed({ type: "respond", now: 0, id: 3, result: { resultType: "input_required", inputRequests: { a: { method: "tools/list" } } } }))[0].error, { code: ErrorCode.InternalError, message: 'the handler produced an invalid input_required result: inputRequests.a: "tools/list" is not an input request' });
  rpc(4, "tools/call", { _meta: meta(), name: "x" });
  assert.equal(sendsOf(feed({ type: "respond", now: 0, id: 4, result: { resultType: "input_required", requestState: "only-state" } }))[0].result.requestState, "only-state");
});

test("tasks extension (SEP-2663): a server MUST NOT return CreateTaskResult to a client that did not declare the extension on its request (-32021 instead); only a supported request of a server that declared it gets one", () => {
  const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };
  const task = { resultType: "task", taskId: "t", status: "working", ttlMs: 1000, createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z" };
  const { rpc, feed } = server({ capabilities: { tools: {}, ...EXT } });
  rpc(1, "tools/call", { _meta: meta(), name: "x" });
  const refused = feed({ type: "respond", now: 0, id: 1, result: task });
  assert.deepEqual(sendsOf(refused)[0].error, { code: ErrorCode.MissingRequiredClientCapability, message: "Missing required client capability", data: { requiredCapabilities: EXT } });
  assert.ok(refused.some((o) => o.type === "diagnostic" && o.code === "invalid-result"), "the application hears why its task went nowhere");
  rpc(2, "tools/call", { _meta: meta({}, EXT), name: "x" });
  assert.equal(sendsOf(feed({ type: "respond", now: 0, id: 2, result: task }))[0].result.taskId, "t");
  rpc(3, "tools/list", { _meta: meta({}, EXT) });
  assert.equal(sendsOf(feed({ type: "respond", now: 0, id: 3, result: task }))[0].error.code, ErrorCode.InternalError, "tools/list is not task-augmentable");
  const undeclared = server();
  undeclared.rpc(4, "tools/call", { _meta: meta({}, EXT), name: "x" });
  const out = undeclared.feed({ type: "respond", now: 0, id: 4, result: task });
  assert.equal(sendsOf(out)[0].error.code, ErrorCode.InternalError, "a server that did not declare the extension has not negotiated it");
  assert.match((out.find((o) => o.type === "diagnostic") as { message: string }).message, /did not declare the tasks extension/);
});

test("logging: the server MUST NOT emit notifications/message for a request without logLevel; with it, only at or above it, on that request's stream", () => {
  const { rpc, feed } = server();
  rpc(1, "tools/call", { _meta: meta(), name: "x" });
  assert.deepEqual(feed({ type: "log", now: 0, level: "emergency", data: "x", related: 1 }), []);
  rpc(2, "tools/call", { _meta: meta({ "io.modelcontextprotocol/logLevel": "warning" }), name: "x" });
  assert.deepEqual(feed({ type: "log", now: 0, level: "info", data: "x", related: 2 }), []);
  const out = feed({ type: "log", now: 0, level: "error", data: "boom", related: 2 });
  assert.deepEqual(out, [{ type: "send", message: { jsonrpc: "2.0", method: "notifications/message", params: { level: "error", data: "boom" } }, related: 2 }]);
  assert.equal(sendsOf(rpc(3, "tools/call", { _meta: meta({ "io.modelcontextprotocol/logLevel": "loud" }), name: "x" }))[0].error.code, ErrorCode.InvalidParams);
});

test("logging: servers that emit log message notifications MUST declare the logging capability, so a server without it sends none even to a request with logLevel (diagnostic instead)", () => {
  const { rpc, feed } = server({ capabilities: { tools: {} } });
  rpc(1, "tools/call", { _meta: meta({ "io.modelcontextprotocol/logLevel": "debug" }), name: "x" });
  const out = feed({ type: "log", now: 0, level: "error", data: "boom", related: 1 });
  assert.deepEqual(sendsOf(out), []);
  assert.match((out.find((o) => o.type === "diagnostic" && o.code === "notification-refused") as { message: string }).message, /capability logging was not declared/);
  // The request itself is unaffected: its answer still goes out.
  assert.equal(sendsOf(feed({ type: "respond", now: 0, id: 1, result: { content: [] } }))[0].id, 1);
});

test("subscriptions: the acknowledgment comes first with the subscription id; only requested and supported types are honoured", () => {
  const { rpc, feed } = server();
  const out = sendsOf(rpc(7, "subscriptions/listen", { _meta: meta(), notifications: { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["file:///a"] } }));
  assert.deepEqual(out[0], { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { _meta: { [SUB]: 7 }, notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///a"] } } });
  assert.deepEqual(sendsOf(feed({ type: "changed", now: 0, what: "tools" })), [{ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUB]: 7 } } }]);
  assert.deepEqual(sendsOf(feed({ type: "changed", now: 0, what: "prompts" })), [], "prompts list_changed is not supported, so never sent");
  assert.deepEqual(sendsOf(feed({ type: "changed", now: 0, what: "resource", uri: "file:///b" })), []);
  assert.deepEqual(sendsOf(feed({ type: "changed", now: 0, what: "resource", uri: "file:///a" }))[0].params, { _meta: { [SUB]: 7 }, uri: "file:///a" });
});

test("logging (draft: notifications/message MUST NOT be delivered on a subscriptions/listen stream) + subscriptions (the server MUST NOT send notification types the client has not requested) + streamable-http (progress is not delivered on the listen stream): a log, progress or notification the application relates to a listen request is refused, not sent untagged on its stream (found by review: they went out)", () => {
  const { rpc, feed } = server();
  rpc("L", "subscriptions/listen", { _meta: meta({ "io.modelcontextprotocol/logLevel": "debug", progressToken: "pt" }), notifications: { toolsListChanged: true } });
  const refused = (o: SessionOutput[]) => {
    assert.deepEqual(sendsOf(o), []);
    assert.equal(o.filter((x) => x.type === "diagnostic" && x.code === "notification-refused").length, 1);
  };
  refused(feed({ type: "log", now: 0, level: "error", data: "x", related: "L" }));
  refused(feed({ type: "notify", now: 0, method: "notifications/message", params: { level: "error", data: 1 }, related: "L" }));
  refused(feed({ type: "progress", now: 0, id: "L", progress: 1 }));
  refused(feed({ type: "notify", now: 0, method: "notifications/tools/list_changed", related: "L" }));
  // The stream still carries what its filter asked for, tagged.
  assert.deepEqual(sendsOf(feed({ type: "changed", now: 0, what: "tools" })), [{ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUB]: "L" } } }]);
  // A request of the same client with the same _meta still gets its logs and progress.
  rpc(2, "tools/call", { _meta: meta({ "io.modelcontextprotocol/logLevel": "debug", progressToken: "p2" }), name: "x" });
  assert.equal(sendsOf(feed({ type: "log", now: 0, level: "error", data: "x", related: 2 })).length, 1);
  assert.equal(sendsOf(feed({ type: "progress", now: 0, id: 2, progress: 1 })).length, 1);
});

test("subscriptions: several concurrent subscriptions each get their own tagged notifications; cancel ends one; graceful end sends the completion result", () => {
  const { s, rpc, feed } = server();
  rpc(1, "subscriptions/listen", { _meta: meta(), notifications: { toolsListChanged: true } });
  rpc(2, "subscriptions/listen", { _meta: meta(), notifications: { toolsListChanged: true } });
  rpc(3, "subscriptions/listen", { _meta: meta(), notifications: { resourceSubscriptions: ["file:///x"] } });
  const tagsOf = (o: SessionOutput[]) => sendsOf(o).map((m) => m.params._meta[SUB]);
  assert.deepEqual(tagsOf(feed({ type: "changed", now: 0, what: "tools" })), [1, 2]);
  feed({ type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }) });
  assert.deepEqual(tagsOf(feed({ type: "changed", now: 0, what: "tools" })), [2]);
  // Draft basic/index: serverInfo in every result's _meta, the completion result's too.
  assert.deepEqual(sendsOf(feed({ type: "end-subscription", now: 0, id: 2 })), [{ jsonrpc: "2.0", id: 2, result: { resultType: "complete", _meta: { [SUB]: 2, "io.modelcontextprotocol/serverInfo": { name: "srv", version: "2" } } } }]);
  assert.deepEqual(tagsOf(feed({ type: "changed", now: 0, what: "tools" })), []);
  assert.equal(s.subscriptionCount, 1);
  feed({ type: "closed", now: 0 });
  assert.equal(s.subscriptionCount, 0);
});

test("subscriptions Graceful Closure: a server about to close its connection (end-subscriptions) answers every open listen request with its completion result first; other requests are left alone", () => {
  const { s, rpc, feed } = server();
  rpc(1, "subscriptions/listen", { _meta: meta(), notifications: { toolsListChanged: true } });
  rpc("b", "subscriptions/listen", { _meta: meta(), notifications: { resourceSubscriptions: ["file:///x"] } });
  rpc(3, "tools/call", { _meta: meta(), name: "x" });
  const done = (id: number | string) => ({ jsonrpc: "2.0", id, result: { resultType: "complete", _meta: { [SUB]: id, "io.modelcontextprotocol/serverInfo": { name: "srv", version: "2" } } } });
  assert.deepEqual(sendsOf(feed({ type: "end-subscriptions", now: 0 })), [done(1), done("b")]);
  assert.equal(s.subscriptionCount, 0);
  assert.equal(s.inboundCount, 1, "the tool call is still the application's");
  assert.deepEqual(sendsOf(feed({ type: "end-subscriptions", now: 0 })), [], "none left to end");
});

test("subscriptions: the number of open subscriptions is bounded with a clear error", () => {
  const { rpc } = server({ maxSubscriptions: 1 });
  rpc(1, "subscriptions/listen", { _meta: meta(), notifications: {} });
  const r = sendsOf(rpc(2, "subscriptions/listen", { _meta: meta(), notifications: {} }))[0];
  assert.match(r.error.message, /limit 1/);
});

test("versioning: a dual-era server serves a legacy session and modern requests concurrently; one change feeds both", () => {
  const { rpc, feed } = server();
  rpc(0, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "legacy", version: "1" } });
  feed({ type: "receive", now: 0, data: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
  rpc(1, "resources/subscribe", { uri: "file:///a" });
  rpc(2, "subscriptions/listen", { _meta: meta(), notifications: { resourceSubscriptions: ["file:///a"] } });
  const out = sendsOf(feed({ type: "changed", now: 0, what: "resource", uri: "file:///a" }));
  assert.deepEqual(out.map((m) => m.params), [{ _meta: { [SUB]: 2 }, uri: "file:///a" }, { uri: "file:///a" }]);
  const tools = sendsOf(feed({ type: "changed", now: 0, what: "tools" }));
  assert.deepEqual(tools.map((m) => m.params?._meta?.[SUB]), [undefined], "legacy session hears list_changed (declared); the resource subscription does not");
  rpc(3, "resources/unsubscribe", { uri: "file:///a" });
  assert.equal(sendsOf(feed({ type: "changed", now: 0, what: "resource", uri: "file:///a" })).length, 1);
});

test("transports/stdio (draft: the server MUST NOT write JSON-RPC requests; server-to-client interactions are InputRequiredResult replies) + basic/versioning (a dual-era server serves both eras on one process): what the application sends for a modern request is held to the modern era whatever a legacy session on the same connection allows: no request goes out (found by review: with a legacy session open, a modern tools/call's handler sent a ping to the client), and no notification but an extension's", () => {
  const { rpc, feed } = server({ extensionMethods: { "notifications/x/stage": { kind: "notification", from: "server" } } });
  rpc(0, "initialize", { protocolVersion: "2025-11-25", capabilities: { roots: {} }, clientInfo: { name: "legacy", version: "1" } });
  feed({ type: "receive", now: 0, data: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
  rpc("m", "tools/call", { _meta: meta(), name: "x" });
  const asked = feed({ type: "request", now: 0, method: "ping", related: "m" });
  assert.deepEqual(sendsOf(asked), [], "nothing on the wire");
  const refused = asked.find((o) => o.type === "error") as { error: { code: number; message: string } } | undefined;
  assert.equal(refused?.error.code, ErrorCode.InvalidRequest);
  assert.match(refused!.error.message, /2026-07-28 server sends no requests/);
  assert.deepEqual(sendsOf(feed({ type: "notify", now: 0, method: "notifications/tools/list_changed", related: "m" })), [], "a legacy-era notification is the legacy session's, not the modern request's");
  assert.equal(sendsOf(feed({ type: "notify", now: 0, method: "notifications/x/stage", params: { n: 1 }, related: "m" })).length, 1, "an extension's notification goes with its modern request");
  // The legacy session's own requests and notifications still go out.
  assert.equal(sendsOf(feed({ type: "request", now: 0, method: "roots/list" }))[0].method, "roots/list");
  assert.equal(sendsOf(feed({ type: "notify", now: 0, method: "notifications/tools/list_changed" }))[0].method, "notifications/tools/list_changed");
});

test("cancellation: a modern request is cancelled by notifications/cancelled (stdio) whatever the legacy phase", () => {
  const { rpc, feed, s } = server();
  rpc("r", "tools/call", { _meta: meta(), name: "x" });
  const out = feed({ type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "r", reason: "stop" } }) });
  assert.deepEqual(out, [{ type: "cancelled", id: "r", reason: "stop" }]);
  assert.equal(s.inboundCount, 0);
});

test("versioning: a modern-only server names its supported versions in its error to initialize", () => {
  const { rpc } = server({ versions: ["2026-07-28"] });
  const r = sendsOf(rpc(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } }))[0];
  assert.equal(r.error.code, ErrorCode.UnsupportedProtocolVersion);
  assert.deepEqual(r.error.data.supported, ["2026-07-28"]);
});

test("basic/index Error Codes (implementations of this version MUST NOT emit -32002 or -32042, nor an undefined code of -32020..-32099): the kernel's own respond input is held to it, as a handler's throw through Endpoint is (found by review: a kernel user's error went out as given)", () => {
  const { rpc, feed } = server();
  const answer = (id: number, error: { code: number; message: string; data?: unknown }) => {
    rpc(id, "tools/call", { _meta: meta(), name: "x" });
    return sendsOf(feed({ type: "respond", now: 0, id, error }))[0].error;
  };
  assert.equal(answer(1, { code: -32002, message: "gone" }).code, ErrorCode.InvalidParams);
  assert.equal(answer(2, { code: -32042, message: "auth" }).code, ErrorCode.InternalError);
  assert.equal(answer(3, { code: -32050, message: "mine" }).code, ErrorCode.InternalError);
  assert.equal(answer(4, { code: -32021, message: "no data" }).code, ErrorCode.InternalError);
  // The defined codes, with their data, and codes outside the reserved range go as given.
  assert.deepEqual(answer(5, { code: -32021, message: "m", data: { requiredCapabilities: { sampling: {} } } }), { code: -32021, message: "m", data: { requiredCapabilities: { sampling: {} } } });
  assert.deepEqual(answer(6, { code: -1, message: "app" }), { code: -1, message: "app" });
});

test("basic/index: unknown methods and undeclared server capabilities in a modern request are -32601", () => {
  const { rpc } = server({ capabilities: { tools: {} } });
  assert.equal(sendsOf(rpc(1, "nope", { _meta: meta() }))[0].error.code, ErrorCode.MethodNotFound);
  assert.equal(sendsOf(rpc(2, "prompts/list", { _meta: meta() }))[0].error.code, ErrorCode.MethodNotFound);
  assert.equal(sendsOf(rpc(3, "initialize", { _meta: meta() }))[0].error.code, ErrorCode.MethodNotFound);
});

test("mrtr: tool-enabled sampling in inputRequests needs sampling.tools; elicitation URL mode needs elicitation.url (-32021 lists exactly what is missing)", () => {
  const { rpc, feed } = server();
  rpc(1, "tools/call", { _meta: meta({}, { sampling: {}, elicitation: {} }), name: "x" });
  const inputs = {
    s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 5, tools: [{ name: "t", inputSchema: { type: "object" } }] } },
    u: { method: "elicitation/create", params: { mode: "url", message: "go", url: "https://example.com", elicitationId: "e" } },
    r: { method: "roots/list" },
  };
  const r = sendsOf(feed({ type: "respond", now: 0, id: 1, result: { resultType: "input_required", inputRequests: inputs } }))[0];
  assert.deepEqual(r.error.data.requiredCapabilities, { sampling: { tools: {} }, elicitation: { url: {} }, roots: {} });
  rpc(2, "tools/call", { _meta: meta(), name: "x" });
  const bad = sendsOf(feed({ type: "respond", now: 0, id: 2, result: { resultType: "input_required", inputRequests: { a: { method: "sampling/createMessage", params: { maxTokens: "x" } } } } }))[0];
  assert.equal(bad.error.code, ErrorCode.InternalError);
  rpc(3, "tools/call", { _meta: meta(), name: "x" });
  assert.equal(sendsOf(feed({ type: "respond", now: 0, id: 3, result: { resultType: "input_required", inputRequests: [] as never } }))[0].error.code, ErrorCode.InternalError);
});

test("mrtr + client/sampling: includeContext thisServer/allServers in inputRequests needs sampling.context (servers SHOULD NOT use them otherwise): -32021 names it; none is fine", () => {
  const { rpc, feed } = server();
  const ask = (includeContext: string) => ({ resultType: "input_required", inputRequests: { s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 5, includeContext } } } });
  rpc(1, "tools/call", { _meta: meta({}, { sampling: {} }), name: "x" });
  const r = sendsOf(feed({ type: "respond", now: 0, id: 1, result: ask("allServers") }))[0];
  assert.equal(r.error.code, ErrorCode.MissingRequiredClientCapability);
  assert.deepEqual(r.error.data.requiredCapabilities, { sampling: { context: {} } });
  rpc(2, "tools/call", { _meta: meta({}, { sampling: {} }), name: "x" });
  assert.equal(sendsOf(feed({ type: "respond", now: 0, id: 2, result: ask("none") }))[0].result.resultType, "input_required");
  rpc(3, "tools/call", { _meta: meta({}, { sampling: { context: {} } }), name: "x" });
  assert.equal(sendsOf(feed({ type: "respond", now: 0, id: 3, result: ask("thisServer") }))[0].result.resultType, "input_required");
});

test("subscriptions: resources list_changed is honoured only when declared; duplicate and non-string URIs are dropped", () => {
  const { rpc, feed } = server({ capabilities: { resources: { subscribe: true, listChanged: true } } });
  const ack = sendsOf(rpc(1, "subscriptions/listen", { _meta: meta(), notifications: { resourcesListChanged: true, resourceSubscriptions: ["a", "a", "b"] } }))[0];
  assert.deepEqual(ack.params.notifications, { resourcesListChanged: true, resourceSubscriptions: ["a", "b"] });
  assert.equal(sendsOf(feed({ type: "changed", now: 0, what: "resources" }))[0].method, "notifications/resources/list_changed");
  assert.equal(sendsOf(feed({ type: "end-subscription", now: 0, id: 99 })).length, 0);
});
