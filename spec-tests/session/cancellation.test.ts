// Spec: 2025-11-25 basic/utilities/cancellation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair, sendsOf } from "../harness/pair.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { RequestId } from "../../src/jsonrpc/types.js";
import { idKey } from "../../src/session/types.js";
import { versionOf } from "../../src/session/phase.js";

function ready() {
  const p = new Pair();
  p.handshake();
  p.handlers.server = () => {};
  return p;
}

test("cancellation: the sender sends notifications/cancelled with the requestId and reason; the receiver stops and frees it", () => {
  const p = ready();
  const id = p.request("client", "tools/call", { name: "slow" });
  p.run();
  p.feed("client", { type: "cancel", now: 0, id, reason: "User requested cancellation" });
  p.run();
  assert.deepEqual(p.lastSent("client"), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "User requested cancellation" } });
  assert.deepEqual(p.of("server", "cancelled")[0], { type: "cancelled", id, reason: "User requested cancellation" });
  assert.equal(p.server.inboundCount, 0);
  assert.equal(p.of("client", "error")[0].error.code, ErrorCode.RequestCancelled);
});

test("cancellation: receivers SHOULD NOT send a response for a cancelled request", () => {
  const p = ready();
  const id = p.request("client", "tools/call", { name: "slow" });
  p.run();
  p.feed("client", { type: "cancel", now: 0, id });
  p.run();
  const before = p.wire.length;
  p.respond("server", id, { content: [] });
  assert.equal(p.wire.length, before);
  assert.ok(p.of("server", "diagnostic").some((d) => d.code === "respond-unknown"));
});

test("cancellation: the sender SHOULD ignore a response that arrives after cancelling (race: response crosses the cancel)", () => {
  const p = ready();
  const id = p.request("client", "tools/call", { name: "x" });
  p.run();
  // The server answers; before the answer is delivered the client cancels.
  p.respond("server", id, { content: [] });
  p.feed("client", { type: "cancel", now: 0, id });
  p.run();
  assert.equal(p.of("client", "response").length, 0);
  assert.equal(p.of("client", "error").length, 1);
  assert.ok(p.of("client", "diagnostic").some((d) => d.code === "unknown-response-id"));
  // The server finds nothing to cancel and ignores it.
  assert.ok(p.of("server", "diagnostic").some((d) => d.code === "cancel-ignored"));
  assert.equal(p.of("server", "cancelled").length, 0);
});

test("cancellation: MUST only reference requests in the same direction — a cancel naming one of our own outbound ids is ignored", () => {
  const p = ready();
  p.handlers.client = () => {};
  // Server sends a ping-like request to the client? Use a client request and have the *client* receive a cancel for it.
  const id = p.request("client", "tools/list");
  p.run();
  const out = p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } }));
  assert.equal(out[0].type, "diagnostic");
  assert.equal(p.client.outboundCount, 1);
});

test("cancellation: MUST only reference requests previously issued in the same direction — the sender's side: an application cancelling the peer's request it is handling (an id it never sent) sends nothing, and that request is still served", () => {
  const p = ready();
  const id = p.request("client", "tools/call", { name: "x" });
  p.run();
  const before = p.wire.length;
  assert.deepEqual(p.feed("server", { type: "cancel", now: 0, id }).map((o) => o.type), ["diagnostic"]);
  assert.equal(p.wire.length, before);
  p.respond("server", id, { content: [] });
  p.run();
  assert.equal(p.of("client", "response").length, 1);
});

test("cancellation: unknown ids and malformed cancellations SHOULD be ignored", () => {
  const p = ready();
  assert.deepEqual(p.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 999 } })).map((o) => o.type), ["diagnostic"]);
  assert.deepEqual(p.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: { x: 1 } } })).map((o) => o.type), ["diagnostic"]);
  assert.equal(sendsOf(p.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} }))).length, 0);
});

test("cancellation: cancelling a request that is not in flight is a diagnostic, not a message", () => {
  const p = ready();
  const out = p.feed("client", { type: "cancel", now: 0, id: 4242 });
  assert.deepEqual(out.map((o) => o.type), ["diagnostic"]);
});

// 2025-11-25 basic/utilities/cancellation: "For task-augmented requests, the tasks/cancel
// request MUST be used instead of the notifications/cancelled notification."
const TASKS = { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
const created = (taskId: string) => ({ task: { taskId, status: "working", createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:30:00Z", ttl: 60000 } });

function taskPair(serverCaps: Record<string, unknown> = TASKS, client: Record<string, unknown> = {}) {
  const p = new Pair(client, { capabilities: serverCaps });
  p.handshake();
  p.handlers.server = () => {};
  return p;
}

const sentMethods = (p: Pair) => p.sent("client").map((m) => (m as { method?: string }).method ?? "response");

test("cancellation: a task-augmented request is never cancelled with notifications/cancelled; cancelled before its CreateTaskResult, it fails at once and its task is cancelled with tasks/cancel", () => {
  const p = taskPair();
  const id = p.request("client", "tools/call", { name: "job", task: { ttl: 1000 } }, { progress: true });
  p.run();
  const out = p.feed("client", { type: "cancel", now: 0, id, reason: "user" });
  assert.deepEqual(sendsOf(out), [], "no notifications/cancelled");
  assert.deepEqual(p.of("client", "error").map((e) => [e.id, e.error.code]), [[id, ErrorCode.RequestCancelled]], "the application's request fails now");
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: id, progress: 1 } }));
  assert.equal(p.of("client", "progress").length, 0, "no progress for a request the application gave up");
  assert.equal(p.feed("client", { type: "cancel", now: 0, id }).find((o) => o.type === "diagnostic")?.code, "cancel-unknown");
  // The server still answers with its task; the client cancels that task the way the spec requires.
  p.respond("server", id, created("t1"));
  p.run();
  const cancel = p.sent("client").find((m) => (m as { method?: string }).method === "tasks/cancel") as any;
  assert.deepEqual(cancel.params, { taskId: "t1" });
  assert.equal(p.of("server", "request").at(-1)!.method, "tasks/cancel");
  p.respond("server", cancel.id, { taskId: "t1", status: "cancelled", createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:31:00Z", ttl: 60000 });
  p.run();
  assert.ok(!sentMethods(p).includes("notifications/cancelled"));
  assert.equal(p.of("client", "response").length, 0, "the kernel's own tasks/cancel never reaches the application");
  assert.equal(p.of("client", "error").length, 1);
  assert.equal(p.client.outboundCount, 0);
  JSON.parse(JSON.stringify(p.client));
});

test("cancellation: a timed-out task-augmented request sends no notifications/cancelled; its late task is cancelled with tasks/cancel until the hard deadline, then forgotten", () => {
  const p = taskPair(TASKS, { maxRequestTimeoutMs: 1000 });
  const late = p.request("client", "tools/call", { name: "job", task: {} }, { timeoutMs: 100 });
  const never = p.request("client", "tools/call", { name: "job", task: {} }, { timeoutMs: 100 });
  p.run();
  p.advance(100);
  assert.deepEqual(p.of("client", "error").map((e) => [e.id, e.error.code]), [[late, ErrorCode.RequestTimeout], [never, ErrorCode.RequestTimeout]]);
  assert.ok(!sentMethods(p).includes("notifications/cancelled"));
  p.respond("server", late, created("t-late"));
  p.run();
  const cancel = p.lastSent("client") as any;
  assert.deepEqual([cancel.method, cancel.params], ["tasks/cancel", { taskId: "t-late" }]);
  p.feed("server", { type: "respond", now: p.now, id: cancel.id, error: { code: ErrorCode.InvalidParams, message: "Cannot cancel task: already in terminal status 'completed'" } });
  p.run();
  assert.ok(p.of("client", "diagnostic").some((d) => d.code === "task-cancel-failed"), "a refused tasks/cancel is reported, not surfaced as an application error");
  p.advance(900);
  assert.ok(p.of("client", "diagnostic").some((d) => d.code === "task-cancel-abandoned" && (d.detail as any).id === never));
  assert.equal(p.client.outboundCount, 0);
  assert.equal(p.of("client", "error").length, 2, "the application hears of each request once");
  p.respond("server", never, created("t-never"));
  p.run();
  assert.ok(p.of("client", "diagnostic").some((d) => d.code === "unknown-response-id"));
});

test("cancellation: the task of a cancelled task-augmented request is left to its ttl when the peer did not declare tasks.cancel; a plain answer is dropped", () => {
  const p = taskPair({ tools: {}, tasks: { requests: { tools: { call: {} } } } });
  const a = p.request("client", "tools/call", { name: "job", task: {} });
  const b = p.request("client", "tools/call", { name: "job", task: {} });
  p.run();
  p.feed("client", { type: "cancel", now: 0, id: a });
  p.feed("client", { type: "cancel", now: 0, id: b });
  p.respond("server", a, created("t1"));
  p.respond("server", b, { content: [] });
  p.run();
  assert.ok(!sentMethods(p).some((m) => m === "tasks/cancel" || m === "notifications/cancelled"));
  assert.ok(p.of("client", "diagnostic").some((d) => d.code === "task-not-cancellable" && (d.detail as any).taskId === "t1"));
  assert.equal(p.client.outboundCount, 0);
  // Closing while one is still awaited reports nothing more to the application.
  const c = p.request("client", "tools/call", { name: "job", task: {} });
  p.feed("client", { type: "cancel", now: 0, id: c });
  p.feed("client", { type: "closed", now: 0 });
  assert.equal(p.of("client", "error").length, 3);
});

test("cancellation: a receiver ignores notifications/cancelled for a task-augmented request (it MUST be cancelled with tasks/cancel) and still answers it with its CreateTaskResult", () => {
  const p = taskPair();
  p.inject("server", JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "job", task: {} } }));
  const out = p.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } }));
  assert.deepEqual(out.map((o) => o.type === "diagnostic" && o.code), ["cancel-ignored"]);
  assert.equal(p.of("server", "cancelled").length, 0);
  const answer = sendsOf(p.feed("server", { type: "respond", now: 0, id: 9, result: created("t9") }));
  assert.deepEqual(answer, [{ jsonrpc: "2.0", id: 9, result: created("t9") }]);
  // A plain request of the same session is still cancellable.
  p.inject("server", JSON.stringify({ jsonrpc: "2.0", id: 10, method: "tools/call", params: { name: "job" } }));
  p.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 10 } }));
  assert.deepEqual(p.of("server", "cancelled").map((c) => c.id), [10]);
});

test("tasks Capabilities (2025-11-25: a receiver that did not declare tasks for a request type MUST process such requests normally, ignoring task-augmentation metadata): a task-augmented request it serves plainly is cancelled with notifications/cancelled as plain ones are, server and client alike", () => {
  // A server that declared no tasks, sent a tools/call with params.task.
  const server = taskPair({ tools: {} });
  server.inject("server", JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "job", task: {} } }));
  const out = server.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9, reason: "gave up" } }));
  assert.ok(!out.some((o) => o.type === "diagnostic" && o.code === "cancel-ignored"));
  assert.deepEqual(server.of("server", "cancelled"), [{ type: "cancelled", id: 9, reason: "gave up" }]);
  assert.equal(server.server.inboundCount, 0);
  // A server that declared tasks for tools/call: the same request is a task request.
  const tasks = taskPair();
  tasks.inject("server", JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "job", task: {} } }));
  tasks.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } }));
  assert.equal(tasks.of("server", "cancelled").length, 0, "declared: it MUST be cancelled with tasks/cancel");
  // A client that declared elicitation but no tasks.requests.elicitation.create, sent a task-augmented elicitation.
  const client = new Pair({ capabilities: { elicitation: { form: {} } } });
  client.handshake();
  client.handlers.client = () => {};
  const ask = { message: "ok?", requestedSchema: { type: "object", properties: {} } };
  client.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 5, method: "elicitation/create", params: { ...ask, task: {} } }));
  assert.equal(client.of("client", "request").at(-1)!.method, "elicitation/create", "served normally");
  client.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } }));
  assert.deepEqual(client.of("client", "cancelled").map((c) => c.id), [5]);
  // Declared: ignored, as the spec requires tasks/cancel.
  const receiver = new Pair({ capabilities: { elicitation: { form: {} }, tasks: { cancel: {}, requests: { elicitation: { create: {} } } } } });
  receiver.handshake();
  receiver.handlers.client = () => {};
  receiver.inject("client", JSON.stringify({ jsonrpc: "2.0", id: 5, method: "elicitation/create", params: { ...ask, task: {} } }));
  receiver.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } }));
  assert.equal(receiver.of("client", "cancelled").length, 0);
});

test("tasks Capabilities (2025-11-25: a receiver that did not declare tasks for a request type MUST process such requests normally, ignoring task-augmentation metadata), sender's side: a request carrying params.task to a peer that did not declare tasks for its method is a plain one, so cancelling it (or its timeout) sends notifications/cancelled, client and server alike; to a peer that declared them it is a task, cancelled with tasks/cancel", () => {
  // Client → a server that declared no tasks.
  const plain = taskPair({ tools: {} }, { versions: ["2025-11-25"] });
  assert.equal(plain.client.phase.name === "operating" && plain.client.phase.version, "2025-11-25");
  const call = plain.request("client", "tools/call", { name: "job", task: {} });
  plain.run();
  plain.feed("client", { type: "cancel", now: 0, id: call, reason: "user" });
  plain.run();
  assert.deepEqual(plain.lastSent("client"), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: call, reason: "user" } });
  assert.deepEqual(plain.of("server", "cancelled").map((c) => c.id), [call], "the server serving it plainly stops");
  assert.equal(plain.client.outboundCount, 0);
  const timed = plain.request("client", "tools/call", { name: "job", task: {} }, { timeoutMs: 100 });
  plain.run();
  plain.advance(100);
  assert.deepEqual(plain.lastSent("client"), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: timed, reason: "timeout" } });
  // Server → a client that declared elicitation but no tasks.requests.elicitation.create.
  const ask = { message: "ok?", requestedSchema: { type: "object", properties: {} }, task: {} };
  const toClient = new Pair({ versions: ["2025-11-25"], capabilities: { elicitation: { form: {} }, tasks: { cancel: {}, requests: { sampling: { createMessage: {} } } } } });
  toClient.handshake();
  toClient.handlers.client = () => {};
  const e = toClient.request("server", "elicitation/create", ask);
  toClient.run();
  toClient.feed("server", { type: "cancel", now: 0, id: e });
  toClient.run();
  assert.deepEqual(toClient.lastSent("server"), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: e } });
  assert.deepEqual(toClient.of("client", "cancelled").map((c) => c.id), [e]);
  // Declared: a task request, never cancelled with notifications/cancelled.
  const declared = new Pair({ versions: ["2025-11-25"], capabilities: { elicitation: { form: {} }, tasks: { cancel: {}, requests: { elicitation: { create: {} } } } } });
  declared.handshake();
  declared.handlers.client = () => {};
  const t = declared.request("server", "elicitation/create", ask);
  declared.run();
  assert.deepEqual(sendsOf(declared.feed("server", { type: "cancel", now: 0, id: t })), []);
  declared.respond("client", t, created("t1"));
  declared.run();
  assert.deepEqual([declared.lastSent("server").method, (declared.lastSent("server") as any).params], ["tasks/cancel", { taskId: "t1" }]);
});

test("tasks extension + draft basic/patterns/cancellation: cancelled calls kept only to cancel a task answer that may cross take no slot of maxOutboundRequests; they are bounded on their own, the oldest forgotten first, and a late task answer to a kept one still gets tasks/cancel", () => {
  const EXT = "io.modelcontextprotocol/tasks";
  const p = new Pair({ versions: ["2026-07-28"], capabilities: { extensions: { [EXT]: {} } }, maxOutboundRequests: 2 }, { versions: ["2026-07-28"], capabilities: { tools: {}, extensions: { [EXT]: {} } } });
  p.handlers.server = () => {};
  p.handshake();
  const cancelled: RequestId[] = [];
  for (let i = 0; i < 5; i++) {
    const id = p.request("client", "tools/call", { name: "job" });
    p.run();
    assert.equal(p.of("client", "error").filter((e) => e.id === id && e.error.code === ErrorCode.InvalidRequest).length, 0, `call ${i} went out`);
    p.feed("client", { type: "cancel", now: p.now, id });
    cancelled.push(id);
  }
  assert.equal(p.client.abandonedCount, 2, "at most maxOutboundRequests cancelled calls are kept");
  assert.deepEqual(Object.values(p.client.outbound).map((r) => r.id), cancelled.slice(-2), "the newest are kept");
  assert.deepEqual(p.of("client", "diagnostic").filter((d) => d.code === "task-cancel-abandoned").map((d) => (d.detail as any).id), cancelled.slice(0, 3));
  // Live requests still go out up to the limit.
  const live = [p.request("client", "tools/call", { name: "job" }), p.request("client", "tools/call", { name: "job" })];
  p.run();
  assert.deepEqual(p.of("server", "request").slice(-2).map((r) => r.params?.name), ["job", "job"]);
  assert.equal(p.of("client", "error").filter((e) => live.includes(e.id)).length, 0);
  // A task answer that crossed the cancellation of a kept call gets its tasks/cancel.
  const task = { resultType: "task", taskId: "t-late", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: 1000 };
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: cancelled.at(-1), result: task }));
  const cancel = p.lastSent("client") as any;
  assert.deepEqual([cancel.method, cancel.params.taskId], ["tasks/cancel", "t-late"]);
  assert.equal(p.client.abandonedCount, 1);
  // Answering the live calls frees their slots, and only theirs: the kept call still takes none.
  // The kernel's tasks/cancel awaits its answer and takes one slot, so one more call goes out.
  for (const r of p.of("server", "request").filter((r) => r.method === "tools/call").slice(-2)) p.respond("server", r.id, { resultType: "complete", content: [] });
  p.run();
  assert.equal(p.client.abandonedCount, 1, "answers to live calls do not count against the kept ones");
  const again = p.request("client", "tools/call", { name: "job" });
  p.run();
  assert.deepEqual(p.of("client", "error").filter((e) => e.id === again), []);
  assert.equal(p.of("server", "request").at(-1)?.method, "tools/call");
});

// Draft basic/patterns/cancellation, "Timeouts": "When the request has not received a success
// or error response within the timeout period, the sender SHOULD cancel the request and stop
// waiting for a response." So a timeout leaves the peer as a cancellation does.
test("tasks extension + draft basic/patterns/cancellation (Timeouts: the sender SHOULD cancel the request): a timed-out call fails once with -32001 and sends notifications/cancelled; a task answer that crossed it gets tasks/cancel until the hard deadline, then the call is forgotten", () => {
  const EXT = "io.modelcontextprotocol/tasks";
  const p = new Pair({ versions: ["2026-07-28"], capabilities: { extensions: { [EXT]: {} } }, maxRequestTimeoutMs: 1000 }, { versions: ["2026-07-28"], capabilities: { tools: {}, extensions: { [EXT]: {} } } });
  p.handlers.server = () => {};
  p.handshake();
  const late = p.request("client", "tools/call", { name: "job" }, { timeoutMs: 100 });
  const never = p.request("client", "tools/call", { name: "job" }, { timeoutMs: 100 });
  p.run();
  p.advance(100);
  assert.deepEqual(p.of("client", "error").map((e) => [e.id, e.error.code]), [[late, ErrorCode.RequestTimeout], [never, ErrorCode.RequestTimeout]], "the caller hears of its timeout at once");
  assert.deepEqual(p.sent("client").filter((m) => (m as any).method === "notifications/cancelled").map((m) => (m as any).params), [{ requestId: late, reason: "timeout" }, { requestId: never, reason: "timeout" }]);
  assert.deepEqual(p.of("server", "cancelled").map((c) => c.id), [late, never]);
  // The server's task answer crossed the cancellation: it names the task, now cancelled.
  const task = { resultType: "task", taskId: "t-late", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: 1000 };
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: late, result: task }));
  const cancel = p.lastSent("client") as any;
  assert.deepEqual([cancel.method, cancel.params.taskId], ["tasks/cancel", "t-late"]);
  assert.equal(p.of("client", "response").length, 0, "the crossing answer never reaches the application");
  // Kept no longer than the call's hard deadline (maxRequestTimeoutMs after it was sent).
  p.advance(900);
  assert.ok(p.of("client", "diagnostic").some((d) => d.code === "task-cancel-abandoned" && (d.detail as any).id === never));
  assert.equal(p.client.abandonedCount, 0);
  assert.equal(p.of("client", "error").length, 2, "the application hears of each call once");
});

/** A handshaken pair whose client called a tool the server is serving now: the call's id at the client (`id`) and at the server (`call`). */
function servingCall(): { p: Pair; id: RequestId; call: RequestId } {
  const p = new Pair({ capabilities: { elicitation: {} } });
  p.handshake();
  let call: RequestId | undefined;
  p.handlers.server = (o) => void (call = o.id);
  const id = p.request("client", "tools/call", { name: "ask" });
  p.run();
  return { p, id, call: call! };
}

test("cancellation (2025-11-25 basic/transports item 6: messages on a request's stream SHOULD relate to it): the cancellation of a request sent for a peer's request carries that request as `related`, whether the application cancels it or it times out", () => {
  const { p, call } = servingCall();
  const FORM = { message: "?", requestedSchema: { type: "object", properties: {} } };
  const sent = p.feed("server", { type: "request", now: p.now, method: "elicitation/create", params: FORM, related: call, timeoutMs: 1000 });
  const asked = (sent[0] as { message: { id: RequestId } }).message.id;
  const cancel = p.feed("server", { type: "cancel", now: p.now, id: asked, reason: "no longer needed" }).find((o) => o.type === "send");
  assert.deepEqual(cancel, { type: "send", message: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: asked, reason: "no longer needed" } }, related: call });
  p.feed("server", { type: "request", now: p.now, method: "elicitation/create", params: FORM, related: call, timeoutMs: 1000 });
  p.now += 1000;
  const timedOut = p.feed("server", { type: "tick", now: p.now }).find((o) => o.type === "send");
  assert.equal(timedOut?.type === "send" && timedOut.related, call);
  // A related id that names no request in progress is not kept (the state holds only the peer's live, bounded ids).
  const loose = p.feed("server", { type: "request", now: p.now, method: "elicitation/create", params: FORM, related: "x".repeat(5000), timeoutMs: 1000 });
  const looseId = (loose[0] as { message: { id: RequestId } }).message.id;
  assert.equal(p.server.outbound[idKey(looseId)].related, undefined);
});

test("cancellation (basic/utilities/cancellation): a peer's request that is cancelled cancels what was sent on its behalf first (on HTTP, on its stream before it closes), failing those requests for the application", () => {
  const { p, id, call } = servingCall();
  const asked = p.feed("server", { type: "request", now: p.now, method: "elicitation/create", params: { message: "?", requestedSchema: { type: "object", properties: {} } }, related: call });
  const askedId = (asked[0] as { message: { id: RequestId } }).message.id;
  p.dropQueued();
  const outputs = p.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "stop" } }));
  const kinds = outputs.map((o) => (o.type === "send" ? `send ${(o.message as { method?: string }).method} related ${String(o.related)}` : o.type === "error" ? `error ${String(o.id)}` : o.type));
  assert.deepEqual(kinds, [`send notifications/cancelled related ${String(call)}`, `error ${String(askedId)}`, "cancelled"]);
  assert.equal(p.server.outboundCount, 0);
  assert.equal(p.server.inboundCount, 0);
});

test("cancellation (basic/utilities/cancellation: a cancellation references a request believed in progress): a peer's request answered while what was sent on its behalf still waits (a handler that raced its question against a timeout, or failed) cancels those requests before its answer goes (on HTTP, on its stream), failing them for the application; a task's CreateTaskResult does not, its work goes on asking", () => {
  const FORM = { message: "?", requestedSchema: { type: "object", properties: {} } };
  for (const answer of ["result", "error"] as const) {
    const { p, call } = servingCall();
    const asked = p.feed("server", { type: "request", now: p.now, method: "elicitation/create", params: FORM, related: call });
    const askedId = (asked[0] as { message: { id: RequestId } }).message.id;
    p.dropQueued();
    const outputs = p.feed("server", answer === "result" ? { type: "respond", now: p.now, id: call!, result: { content: [] } } : { type: "respond", now: p.now, id: call!, error: { code: -32603, message: "failed" } });
    const kinds = outputs.map((o) => (o.type === "send" ? `send ${(o.message as { method?: string }).method ?? "response"} related ${String(o.related)}` : o.type === "error" ? `error ${String(o.id)}` : o.type));
    assert.deepEqual(kinds, [`send notifications/cancelled related ${String(call)}`, `error ${String(askedId)}`, "send response related undefined"], answer);
    assert.equal(sendsOf(outputs)[0].params.requestId, askedId);
    assert.equal(p.of("server", "error")[0].error.code, ErrorCode.RequestCancelled);
    assert.equal(p.server.outboundCount, 0, answer);
    // The client drops its handler of the question: nothing is left to answer.
    p.run();
    assert.equal(p.client.inboundCount, 0, answer);
  }
  // A 2025-11-25 task-augmented call answered with its CreateTaskResult: the task runs on, and
  // so does what it asked.
  const p = new Pair({ capabilities: { elicitation: {} } }, { capabilities: TASKS });
  p.handshake();
  let call: RequestId | undefined;
  p.handlers.server = (o) => void (call = o.id);
  p.request("client", "tools/call", { name: "job", task: {} });
  p.run();
  p.feed("server", { type: "request", now: p.now, method: "elicitation/create", params: FORM, related: call });
  const outputs = p.feed("server", { type: "respond", now: p.now, id: call!, result: created("t1") });
  assert.deepEqual(sendsOf(outputs).map((m) => (m as { method?: string }).method ?? "response"), ["response"]);
  assert.equal(p.server.outboundCount, 1);
});

test("cancellation (2025-11-25 schema.ts CancelledNotificationParams.requestId, optional in its type: it \"MUST be provided for cancelling non-task requests\"): a notifications/cancelled without one cancels nothing; the request in flight is still answered", () => {
  const p = ready();
  assert.equal(versionOf(p.server), "2025-11-25");
  const id = p.request("client", "tools/call", { name: "slow" });
  p.run();
  const out = p.inject("server", JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { reason: "which one?" } }));
  assert.deepEqual(out.map((o) => o.type === "diagnostic" && o.code), ["cancel-ignored"]);
  assert.equal(p.of("server", "cancelled").length, 0);
  assert.equal(p.server.inboundCount, 1);
  p.respond("server", id, { content: [] });
  p.run();
  assert.equal(p.of("client", "response").length, 1);
});
