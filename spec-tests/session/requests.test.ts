// Spec: 2025-11-25 basic/index — Requests and Responses; server/tools, server/utilities/pagination, completion.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair, sendsOf } from "../harness/pair.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { RequestId } from "../../src/jsonrpc/types.js";
import type { SessionInput } from "../../src/session/types.js";

function ready(server: Record<string, unknown> = {}) {
  const p = new Pair({}, { capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, completions: {} }, ...server });
  p.handshake();
  return p;
}

test("basic/index: a request gets exactly one response with the same id; ids come from a counter", () => {
  const p = ready();
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { tools: [{ name: "echo", inputSchema: { type: "object" } }] });
  const a = p.request("client", "tools/list");
  const b = p.request("client", "tools/list");
  p.run();
  assert.equal(typeof a, "number");
  assert.equal(b, (a as number) + 1);
  const responses = p.of("client", "response");
  assert.deepEqual(responses.map((r) => r.id), [a, b]);
  assert.equal((responses[0].result.tools as unknown[]).length, 1);
});

test("basic/index: the request ID MUST NOT match another in progress — a duplicate inbound id is an error and the first survives", () => {
  const p = ready();
  p.handlers.server = () => {};
  const msg = JSON.stringify({ jsonrpc: "2.0", id: "dup", method: "tools/list" });
  p.inject("server", msg);
  const out = sendsOf(p.inject("server", msg));
  assert.equal(out[0].error.code, ErrorCode.InvalidRequest);
  assert.equal(p.of("server", "request").length, 1);
  p.respond("server", "dup", { tools: [] });
  assert.deepEqual(p.lastSent("server"), { jsonrpc: "2.0", id: "dup", result: { tools: [] } });
});

test("basic/index: ids keep their type — a response with id \"0\" does not answer request 0", () => {
  const p = ready();
  p.handlers.server = () => {};
  const id = p.request("client", "tools/list");
  p.run();
  const out = p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: String(id), result: { tools: [] } }));
  assert.equal(out[0].type, "diagnostic");
  assert.equal((out[0] as any).code, "unknown-response-id");
  assert.equal(p.client.outboundCount, 1);
});

test("basic/index: a response with an unknown id is dropped with a diagnostic", () => {
  const p = ready();
  const out = p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 12345, result: {} }));
  assert.deepEqual(out.map((o) => o.type), ["diagnostic"]);
});

test("basic/index: an unknown method gets -32601; invalid params get -32602 with the pointer; neither reaches the application", () => {
  const p = ready();
  const a = sendsOf(p.inject("server", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/frobnicate" })));
  assert.equal(a[0].error.code, ErrorCode.MethodNotFound);
  const b = sendsOf(p.inject("server", JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: 42 } })));
  assert.equal(b[0].error.code, ErrorCode.InvalidParams);
  assert.ok(b[0].error.data.issues.some((i: { path: string }) => i.path === "/name"));
  // The message names the method and the field too: a log line of it alone says what to fix.
  assert.match(b[0].error.message, /^Invalid params for tools\/call: \/name: /);
  assert.equal(p.of("server", "request").length, 0);
});

test("basic/index: a method sent in the wrong direction is not found (a client does not serve tools/list)", () => {
  const p = ready();
  const out = sendsOf(p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })));
  assert.equal(out[0].error.code, ErrorCode.MethodNotFound);
  const refused = p.feed("server", { type: "request", now: 0, method: "tools/list" });
  assert.equal(refused[0].type, "error");
});

test("basic/index: malformed JSON gets -32700 with id null and the session survives", () => {
  const p = ready();
  const out = sendsOf(p.inject("server", "{not json"));
  assert.equal(out[0].error.code, ErrorCode.ParseError);
  assert.equal(out[0].id, null);
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { tools: [] });
  p.request("client", "tools/list");
  p.run();
  assert.equal(p.of("client", "response").length, 1);
});

test("basic/index: an invalid result from the peer is an error for the application, not a crash", () => {
  const p = ready();
  p.handlers.server = () => {};
  const id = p.request("client", "tools/list");
  p.run();
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id, result: { tools: "nope" } }));
  const err = p.of("client", "error")[0];
  assert.equal(err.id, id);
  assert.equal(err.error.code, ErrorCode.InternalError);
});

test("basic/index: a response has exactly one of result (an object) and error — a malformed one fails the request it names at once and gets no reply", () => {
  const p = ready();
  p.handlers.server = () => {};
  const malformed = [
    (id: unknown) => ({ jsonrpc: "2.0", id, result: 5 }),
    (id: unknown) => ({ jsonrpc: "2.0", id, result: [] }),
    (id: unknown) => ({ jsonrpc: "2.0", id, result: {}, error: { code: 1, message: "both" } }),
    (id: unknown) => ({ jsonrpc: "2.0", id, error: { code: "x", message: "m" } }),
    (id: unknown) => ({ jsonrpc: "1.0", id, result: {} }),
  ];
  for (const shape of malformed) {
    const id = p.request("client", "tools/list");
    p.run();
    const out = p.inject("client", JSON.stringify(shape(id)));
    // No reply: a response is never answered, and an error with id null would read as a message of its own.
    assert.deepEqual(sendsOf(out), [], JSON.stringify(shape(id)));
    const err = out.find((o) => o.type === "error") as any;
    assert.equal(err?.id, id, JSON.stringify(shape(id)));
    assert.equal(err.error.code, ErrorCode.InternalError);
    assert.match(err.error.message, /^malformed response from the peer: /);
    assert.equal(p.client.outboundCount, 0);
  }
  // Without a readable id nothing names a request: dropped with a diagnostic, still no reply.
  const out = p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: null, result: 5 }));
  assert.deepEqual(out.map((o) => o.type), ["diagnostic"]);
  // The session serves on.
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { tools: [] });
  p.request("client", "tools/list");
  p.run();
  assert.equal(p.of("client", "response").length, 1);
});

test("basic/index (2025-11-25, no JSON-RPC batches since 2025-06-18): responses wrapped in an array fail the requests they name at once with -32603 naming the batch, get no reply, and the session serves on", () => {
  const p = ready();
  p.handlers.server = () => {};
  const a = p.request("client", "tools/list");
  const b = p.request("client", "tools/list");
  const c = p.request("client", "tools/list");
  p.run();
  const out = p.inject("client", JSON.stringify([{ jsonrpc: "2.0", id: a, result: { tools: [] } }, { jsonrpc: "2.0", id: b, error: { code: 1, message: "x" } }, { jsonrpc: "2.0", id: 999, result: {} }]));
  assert.deepEqual(sendsOf(out), [], "a response is never answered");
  const errors = out.filter((o) => o.type === "error") as any[];
  assert.deepEqual(errors.map((e) => [e.id, e.error.code]), [[a, ErrorCode.InternalError], [b, ErrorCode.InternalError]]);
  for (const e of errors) assert.match(e.error.message, /^malformed response from the peer: batches are not supported/);
  assert.ok(!out.some((o) => o.type === "diagnostic" && o.code === "unknown-response-id"), "an id naming no request in flight is skipped quietly");
  assert.equal(p.client.outboundCount, 1, "only the request the array did not name still waits");
  // The session serves on: the request left waiting gets its answer.
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: c, result: { tools: [] } }));
  assert.deepEqual(p.of("client", "response").map((r) => r.id), [c]);
});

test("basic/index (2025-11-25, no JSON-RPC batches since 2025-06-18): an array holding both a request and responses gets the -32600 reply (id null) for the request, and the requests its responses name fail at once", () => {
  const p = ready();
  p.handlers.server = () => {};
  const a = p.request("client", "tools/list");
  const b = p.request("client", "tools/list");
  p.run();
  const out = p.inject("client", JSON.stringify([{ jsonrpc: "2.0", id: a, result: { tools: [] } }, { jsonrpc: "2.0", id: 7, method: "ping" }]));
  const sends = sendsOf(out) as any[];
  assert.equal(sends.length, 1, "the peer's request learns it was refused");
  assert.equal(sends[0].id, null);
  assert.equal(sends[0].error.code, ErrorCode.InvalidRequest);
  assert.match(sends[0].error.message, /batches are not supported/);
  const errors = out.filter((o) => o.type === "error") as any[];
  assert.deepEqual(errors.map((e) => [e.id, e.error.code]), [[a, ErrorCode.InternalError]], "ours fail now, not at their timeout");
  assert.match(errors[0].error.message, /^malformed response from the peer: batches are not supported/);
  // The session serves on: the request the array did not name still gets its answer.
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: b, result: { tools: [] } }));
  assert.deepEqual(p.of("client", "response").map((r) => r.id), [b]);
});

test("basic/index (Result responses MUST include a result field): a message with only jsonrpc and the id of a request of ours in flight (an answer that lost its result, as `result: undefined` encodes) fails that request at once and gets no reply, which the peer would read as the answer to its own request of that id; with any other id it is the -32600 echoing the id, as before (found by review)", () => {
  const p = ready();
  p.handlers.server = () => {};
  const a = p.request("client", "tools/list");
  p.run();
  const out = p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: a }));
  assert.deepEqual(sendsOf(out), [], "no -32600 naming the id goes back");
  const errors = out.filter((o) => o.type === "error") as any[];
  assert.deepEqual(errors.map((e) => [e.id, e.error.code]), [[a, ErrorCode.InternalError]]);
  assert.match(errors[0].error.message, /^malformed response from the peer: a message needs a method, a result or an error/);
  assert.equal(p.client.outboundCount, 0);
  // An id naming none of our requests: a request that lost its method, answered -32600 with its id.
  const other = sendsOf(p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: "x" }))) as any[];
  assert.deepEqual(other.map((m) => [m.id, m.error.code]), [["x", ErrorCode.InvalidRequest]]);
  // The session serves on.
  const b = p.request("client", "tools/list");
  // One with params, which only a request carries, is a request that lost its method even
  // when its id is one of ours in flight: it is answered -32600, and ours still waits.
  const lost = sendsOf(p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: b, params: {} }))) as any[];
  assert.deepEqual(lost.map((m) => [m.id, m.error.code]), [[b, ErrorCode.InvalidRequest]]);
  assert.equal(p.client.outboundCount, 1);
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: b, result: { tools: [] } }));
  assert.deepEqual(p.of("client", "response").map((r) => r.id), [b]);
});

test("basic/index: an application result that breaks the schema is not sent; the peer gets -32603", () => {
  const p = ready();
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { tools: [{ noName: true }] });
  p.request("client", "tools/list");
  p.run();
  assert.equal(p.of("client", "error")[0].error.code, ErrorCode.InternalError);
  assert.ok(p.of("server", "diagnostic").some((d) => d.code === "invalid-result"));
});

test("basic/index (params and result are objects in MCP, never an array, null or a scalar): the application's are refused even with validateOutgoing off — a request with -32602, a notification with notification-refused, a result with -32603 and invalid-result", () => {
  for (const bad of [[], null, 5] as never[]) {
    const p = new Pair({ capabilities: { roots: { listChanged: true } }, validateOutgoing: false }, { validateOutgoing: false });
    p.handshake();
    const wire = p.wire.length;
    const req = p.feed("client", { type: "request", now: 0, method: "tools/call", params: bad });
    assert.deepEqual(req.map((o: any) => o.type), ["error"], JSON.stringify(bad));
    assert.equal((req[0] as any).error.code, ErrorCode.InvalidParams);
    assert.match((req[0] as any).error.message, /params must be an object/);
    const note = p.feed("client", { type: "notify", now: 0, method: "notifications/roots/list_changed", params: bad });
    assert.deepEqual(note.map((o: any) => o.type === "diagnostic" ? o.code : o.type), ["notification-refused"], JSON.stringify(bad));
    assert.equal(p.wire.length, wire, "nothing went out");

    // A result of null is read as no result, {} (as an error of null is no error).
    if (bad === null) continue;
    p.handlers.server = (r, pair) => pair.feed("server", { type: "respond", now: 0, id: r.id, result: bad });
    p.request("client", "tools/list");
    p.run();
    assert.equal(p.of("client", "error")[1].error.code, ErrorCode.InternalError, JSON.stringify(bad));
    assert.ok(p.of("server", "diagnostic").some((d) => d.code === "invalid-result"));
  }
});

test("basic/index: application errors pass through; a malformed application error becomes -32603", () => {
  const p = ready();
  let n = 0;
  p.handlers.server = (req, pair) => {
    if (n++ === 0) pair.feed("server", { type: "respond", now: 0, id: req.id, error: { code: ErrorCode.InvalidParams, message: "Unknown tool: x" } });
    else pair.feed("server", { type: "respond", now: 0, id: req.id, error: { code: 1.5, message: "bad" } });
  };
  p.request("client", "tools/call", { name: "x" });
  p.request("client", "tools/call", { name: "y" });
  p.run();
  const errs = p.of("client", "error");
  assert.equal(errs[0].error.code, ErrorCode.InvalidParams);
  assert.equal(errs[0].error.message, "Unknown tool: x");
  assert.equal(errs[1].error.code, ErrorCode.InternalError);
});

test("server/utilities/pagination: cursors are opaque and pass through; invalid cursors are the server's -32602", () => {
  const p = ready();
  p.handlers.server = (req, pair) => {
    const cursor = (req.params as any)?.cursor;
    if (cursor === undefined) pair.respond("server", req.id, { resources: [], nextCursor: "opaque-2" });
    else if (cursor === "opaque-2") pair.respond("server", req.id, { resources: [] });
    else pair.feed("server", { type: "respond", now: 0, id: req.id, error: { code: ErrorCode.InvalidParams, message: "invalid cursor" } });
  };
  p.request("client", "resources/list");
  p.run();
  const next = p.of("client", "response")[0].result.nextCursor as string;
  p.request("client", "resources/list", { cursor: next });
  p.request("client", "resources/list", { cursor: "forged" });
  p.run();
  assert.equal(p.of("client", "response").length, 2);
  assert.equal(p.of("client", "response")[1].result.nextCursor, undefined);
  assert.equal(p.of("client", "error")[0].error.code, ErrorCode.InvalidParams);
});

test("server/utilities/completion: completion/complete is gated by the completions capability", () => {
  const p = ready();
  p.handlers.server = (req, pair) => pair.respond("server", req.id, { completion: { values: ["py", "pyx"], total: 2, hasMore: false } });
  p.request("client", "completion/complete", { ref: { type: "ref/prompt", name: "code" }, argument: { name: "lang", value: "py" } });
  p.run();
  assert.deepEqual(p.of("client", "response")[0].result.completion, { values: ["py", "pyx"], total: 2, hasMore: false });
  const bare = new Pair();
  bare.handshake();
  assert.equal(bare.feed("client", { type: "request", now: 0, method: "completion/complete", params: { ref: { type: "ref/prompt", name: "code" }, argument: { name: "a", value: "" } } })[0].type, "error");
});

test("server/tools etc.: list_changed notifications need the listChanged sub-capability of the sender", () => {
  const p = ready({ capabilities: { tools: { listChanged: true } } });
  p.feed("server", { type: "notify", now: 0, method: "notifications/tools/list_changed" });
  p.run();
  assert.equal(p.of("client", "notification")[0].method, "notifications/tools/list_changed");
  const refused = p.feed("server", { type: "notify", now: 0, method: "notifications/prompts/list_changed" });
  assert.equal(refused[0].type, "diagnostic");
  // And a client drops one the server had no right to send.
  const dropped = p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/prompts/list_changed" }));
  assert.equal(dropped[0].type, "diagnostic");
  assert.equal(p.of("client", "notification").length, 1);
});

test("server/resources: resources/subscribe needs resources.subscribe; notifications/resources/updated reaches the client", () => {
  const p = ready();
  p.handlers.server = (req, pair) => pair.respond("server", req.id, {});
  p.request("client", "resources/subscribe", { uri: "file:///a" });
  p.run();
  assert.equal(p.of("client", "response").length, 1);
  p.feed("server", { type: "notify", now: 0, method: "notifications/resources/updated", params: { uri: "file:///a" } });
  p.run();
  assert.deepEqual(p.of("client", "notification")[0].params, { uri: "file:///a" });
  const noSub = new Pair({}, { capabilities: { resources: {} } });
  noSub.handshake();
  assert.equal(noSub.feed("client", { type: "request", now: 0, method: "resources/subscribe", params: { uri: "file:///a" } })[0].type, "error");
});

test("limits: more requests in progress than maxInboundRequests get a clear error", () => {
  const p = new Pair({}, { maxInboundRequests: 2 });
  p.handshake();
  p.handlers.server = () => {};
  for (let i = 0; i < 3; i++) p.request("client", "tools/list");
  p.run();
  assert.equal(p.of("server", "request").length, 2);
  const err = p.of("client", "error")[0];
  assert.equal(err.error.code, ErrorCode.InvalidRequest);
  assert.match(err.error.message, /limit 2/);
});

test("limits: more requests awaiting a response than maxOutboundRequests are refused locally", () => {
  const p = new Pair({ maxOutboundRequests: 1 });
  p.handshake();
  p.handlers.server = () => {};
  p.request("client", "tools/list");
  const out = p.feed("client", { type: "request", now: 0, method: "tools/list" });
  assert.equal(out[0].type, "error");
  assert.match((out[0] as any).error.message, /limit 1/);
});

test("notifications the kernel owns cannot be sent by the application; unknown notifications are dropped", () => {
  const p = ready();
  assert.equal(p.feed("client", { type: "notify", now: 0, method: "notifications/cancelled", params: { requestId: 1 } })[0].type, "diagnostic");
  assert.equal(p.feed("client", { type: "notify", now: 0, method: "notifications/nope" })[0].type, "diagnostic");
  assert.equal(p.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/nope" }))[0].type, "diagnostic");
  assert.equal(p.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/roots/list_changed", params: 5 }))[0].type, "send");
});

test("routing: progress, and requests, notifications and logs issued while handling a request, name that request as related", () => {
  const p = new Pair({ capabilities: { sampling: {} } }, { capabilities: { tools: {}, logging: {} } });
  p.handshake();
  let seen: import("../../src/session/types.js").SessionOutput[] = [];
  p.handlers.server = (req, pair) => {
    seen = [
      ...pair.feed("server", { type: "progress", now: 0, id: req.id, progress: 1 }),
      ...pair.feed("server", { type: "log", now: 0, level: "info", data: "x", related: req.id }),
      ...pair.feed("server", { type: "request", now: 0, method: "sampling/createMessage", params: { messages: [], maxTokens: 1 }, related: req.id }),
      ...pair.feed("server", { type: "notify", now: 0, method: "notifications/message", params: { level: "info", data: 1 } }),
    ];
  };
  const id = p.request("client", "tools/call", { name: "x" }, { progress: true });
  p.run();
  const sends = seen.filter((o) => o.type === "send") as { related?: unknown }[];
  assert.deepEqual(sends.map((s) => s.related), [id, id, id, undefined]);
});

test("STYLE (errors are values; a fatal error is the kernel's own): application inputs with fields the kernel cannot use are refused with a diagnostic and the session serves on", () => {
  const p = ready();
  let answered: RequestId | undefined;
  p.handlers.server = (req) => void (answered = req.id);
  const id = p.request("client", "tools/list");
  p.run();
  assert.equal(answered, id);
  const refused: [string, unknown][] = [
    ["null input", null],
    ["NaN clock", { type: "tick", now: Number.NaN }],
    ["progress total not a number", { type: "progress", now: 0, id, progress: 1, total: "lots" }],
    ["progress message not a string", { type: "progress", now: 0, id, progress: 1, message: 5 }],
    ["log without data", { type: "log", now: 0, level: "error" }],
    ["changed of an unknown kind", { type: "changed", now: 0, what: "bogus" }],
    ["unsendable without a message", { type: "unsendable", now: 0, reason: "x" }],
  ];
  for (const [name, input] of refused) {
    const out = p.feed("server", input as SessionInput);
    assert.deepEqual(out.map((o) => o.type), ["diagnostic"], name);
    assert.equal((out[0] as { code: string }).code, "input-refused", name);
    assert.equal(p.server.phase.name, "operating", name);
  }
  // A respond whose error is null is a plain answer: the peer's request is answered.
  const answer = p.feed("server", { type: "respond", now: 0, id, result: { tools: [] }, error: null as never });
  assert.equal(sendsOf(answer).length, 1);
  p.run();
  assert.equal(p.of("client", "response").length, 1);
  // A request with a timeout the state cannot hold fails for its caller at once.
  const out = p.feed("client", { type: "request", now: 0, method: "tools/list", timeoutMs: Number.POSITIVE_INFINITY });
  const err = out.find((o) => o.type === "error") as { error: { code: number; message: string } } | undefined;
  assert.equal(err?.error.code, ErrorCode.InvalidParams);
  assert.match(err!.error.message, /timeoutMs must be a finite number/);
  assert.equal(sendsOf(out).length, 0);
  // The state stays plain JSON: a snapshot continues as the original.
  assert.deepEqual(JSON.parse(JSON.stringify(p.server)), p.server);
});

test("2025-11-25 basic/utilities/tasks Creating Tasks: a normal request is answered with the actual result directly, so a CreateTaskResult answering a plain tools/call is invalid on both ends (-32603); a task-augmented one still gets it", () => {
  const created = { task: { taskId: "t1", status: "working", createdAt: "2025-01-01T00:00:00Z", lastUpdatedAt: "2025-01-01T00:00:00Z", ttl: null } };
  const p = ready({ capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } } });
  // The receiving client: a peer answering a plain call with a task.
  p.handlers.server = () => {};
  const plain = p.request("client", "tools/call", { name: "x" });
  p.run();
  const got = p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: plain, result: created }));
  assert.equal(got[0].type, "error");
  assert.equal((got[0] as any).error.code, ErrorCode.InternalError);
  assert.deepEqual((got[0] as any).error.data.issues, [{ path: "", reason: 'missing required property "content"' }]);
  // The sending server: its application answering a plain call with a task.
  p.handlers.server = (req, pair) => pair.respond("server", req.id, created);
  const plain2 = p.request("client", "tools/call", { name: "x" });
  p.run();
  const refused = p.sent("server").at(-1) as any;
  assert.equal(refused.id, plain2);
  assert.equal(refused.error.code, ErrorCode.InternalError);
  // A task-augmented call to a server that declared tasks.requests.tools.call gets its CreateTaskResult.
  const augmented = p.request("client", "tools/call", { name: "x", task: { ttl: 1000 } });
  p.run();
  const answer = p.of("client", "response").find((r) => r.id === augmented);
  assert.deepEqual(answer?.result, created);
});
