// Spec: McpClient.waitForTask against servers that misbehave. SEP-2663 (the
// io.modelcontextprotocol/tasks extension) "Task Polling": pollIntervalMs is "Suggested
// polling interval in integer milliseconds. Clients SHOULD honor"; "If the status is
// completed, the server MUST return a Task object with status completed and a result field
// containing the final result of the task". 2025-11-25 basic/utilities/tasks: tasks/result
// "MUST block the response until the task reaches a terminal status". 2025-11-25
// server/tools "Output Schema": "Clients SHOULD validate structured results". The server
// is a raw end over the memory pair; time is a manual clock.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { CLIENT, SERVER, rejection } from "./setup.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";

const EXT = "io.modelcontextprotocol/tasks";
const OUTPUT = { type: "object", properties: { temperature: { type: "number" } }, required: ["temperature"] };

/** A clock that knows which held timers (the ones a caller awaits) are still scheduled. */
class CountingClock extends ManualClock {
  readonly held = new Set<unknown>();
  override schedule(at: number, fn: () => void, held?: boolean): unknown {
    const h = super.schedule(at, () => (this.held.delete(h), fn()));
    if (held === true) this.held.add(h);
    return h;
  }
  override cancel(handle: unknown): void {
    this.held.delete(handle);
    super.cancel(handle);
  }
}

async function turns(n = 5): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
}

/** A raw server of `era`: `answer(message)` gives the result of each request after the handshake (undefined: never answered). */
async function against(era: "legacy" | "modern", answer: (m: any) => object | undefined, session: object = {}, options: object = {}) {
  const clock = new CountingClock();
  const [s, raw] = createMemoryPair();
  const seen: any[] = [];
  raw.onMessage((text) => {
    const m = JSON.parse(text);
    seen.push(m);
    const reply = (result: object) => raw.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
    if (m.method === "initialize") return reply({ protocolVersion: "2025-11-25", capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } }, serverInfo: SERVER });
    if (m.method === "server/discover") return reply({ resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {}, extensions: { [EXT]: {} } }, serverInfo: SERVER });
    if (m.method === "tools/list") return reply({ tools: [{ name: "weather", inputSchema: { type: "object" }, outputSchema: OUTPUT, execution: { taskSupport: "optional" } }] });
    if (m.id === undefined || m.method === undefined) return;
    const r = answer(m);
    if (r !== undefined) reply(r);
  });
  const client = new McpClient(CLIENT, { clock, tasks: true, session: { versions: [era === "modern" ? "2026-07-28" : "2025-11-25"], ...session }, ...options });
  await client.connect(s);
  return { client, clock, sent: (method: string) => seen.filter((m) => m.method === method) };
}

const legacyTask = (o: object = {}): JsonObject => ({ taskId: "t1", status: "working", createdAt: "2025-01-01T00:00:00Z", lastUpdatedAt: "2025-01-01T00:00:00Z", ttl: null, ...o });
const task = (o: object = {}): JsonObject => ({ resultType: "complete", taskId: "t1", status: "working", createdAt: "2025-01-01T00:00:00Z", lastUpdatedAt: "2025-01-01T00:00:00Z", ttlMs: null, ...o });

test("tasks extension Task Polling: pollIntervalMs is honoured within [100 ms, 60 s]; a number that is not a non-negative integer is ignored for intervalMs", async () => {
  // [server's pollIntervalMs, the wait the client keeps between polls]; a non-number is no Task (see below)
  const cases: [unknown, number][] = [[0, 100], [1, 100], [-1000, 1000], [1.5, 1000], [250, 250], [3e9, 60_000], [1e300, 60_000]];
  for (const [suggested, expected] of cases) {
    const c = await against("modern", (m) => (m.method === "tasks/get" ? task({ pollIntervalMs: suggested }) : {}));
    const wait = c.client.waitForTask("t1");
    wait.catch(() => {});
    await turns();
    assert.equal(c.sent("tasks/get").length, 1);
    await c.clock.runUntil(expected - 1, turns);
    assert.equal(c.sent("tasks/get").length, 1, `no poll before ${expected} ms (pollIntervalMs ${String(suggested)})`);
    await c.clock.runUntil(expected, turns);
    assert.equal(c.sent("tasks/get").length, 2, `the next poll at ${expected} ms (pollIntervalMs ${String(suggested)})`);
    c.client.close();
  }
});

test("waitForTask: closing the client rejects a wait between polls at once with -32000, as pending requests are, and cancels its timer", async () => {
  const c = await against("modern", (m) => (m.method === "tasks/get" ? task({ pollIntervalMs: 5000 }) : {}));
  const wait = c.client.waitForTask("t1");
  await turns();
  assert.equal(c.clock.held.size, 1, "sleeping until the next poll");
  c.client.close();
  const e = await rejection(wait);
  assert.equal(e.code, -32000);
  assert.match(e.message, /connection closed: client closed/);
  assert.equal(c.clock.held.size, 0, "no timer keeps the process alive");
  assert.equal(c.clock.now(), 0, "without waiting for the timer");
});

// The answers that are no GetTaskResult at all (SEP-2663 `Result & DetailedTask`) are refused
// by the session before waitForTask reads them ("invalid tasks/get result from the peer").
test("tasks extension Task Polling: a tasks/get answer about another task, with an unknown or missing status, completed without a result object, or no Task (a pollIntervalMs that is no number) rejects waitForTask with -32603", async () => {
  const answers: [string, JsonObject][] = [
    ["a string pollIntervalMs", task({ pollIntervalMs: "5" })],
    ["another task", task({ taskId: "other", status: "completed", result: { content: [] } })],
    ["completed without result", task({ status: "completed" })],
    ["completed with a string result", task({ status: "completed", result: "hello" })],
    ["unknown status", task({ status: "bogus" })],
    ["missing status", { resultType: "complete", taskId: "t1" }],
  ];
  for (const [label, answer] of answers) {
    const c = await against("modern", (m) => (m.method === "tasks/get" ? answer : {}));
    const e = await rejection(c.client.waitForTask("t1"));
    assert.equal(e.code, -32603, label);
    assert.match(e.message, /^invalid tasks\/get (answer from the server: |result from the peer)/, label);
    assert.equal(c.sent("tasks/get").length, 1, `${label}: not polled again`);
    c.client.close();
  }
});

// SEP-2663 Task Polling ("the server MUST check the status of the task and respond accordingly") and
// 2025-11-25 basic/utilities/tasks Getting Tasks: the answer is the task asked for. Found by review:
// waitForTask checked it, but getTask resolved with another task's status (and, inlined, its result).
test("tasks extension Task Polling + 2025-11-25 Getting Tasks: getTask rejects -32603 on an answer about another task, in both eras", async () => {
  const eras = [
    ["legacy", legacyTask({ taskId: "other", status: "completed" })],
    ["modern", task({ taskId: "other", status: "completed", result: { content: [] } })],
  ] as const;
  for (const [era, other] of eras) {
    const c = await against(era, (m) => (m.method === "tasks/get" ? other : {}));
    const e = await rejection(c.client.getTask("t1"));
    assert.equal(e.code, -32603, era);
    assert.match(e.message, /asked for task "t1", it answered about "other"/, era);
    c.client.close();
  }
  const right = await against("modern", (m) => (m.method === "tasks/get" ? task() : {}));
  assert.equal((await right.client.getTask("t1")).status, "working");
  right.client.close();
});

test("2025-11-25 tasks/result MUST block until the task is terminal: waitForTask has no default timeout or cap (no notifications/cancelled), only the caller's timeoutMs", async () => {
  const c = await against("legacy", () => undefined);
  let settled = false;
  const wait = c.client.waitForTask("t1").finally(() => (settled = true));
  wait.catch(() => {});
  await c.clock.runUntil(3_600_000, turns);
  assert.equal(settled, false, "still waiting after an hour");
  assert.equal(c.sent("notifications/cancelled").length, 0);
  const none = c.client.waitForTask("t1", { timeoutMs: 0 });
  none.catch(() => {});
  await c.clock.runUntil(c.clock.now() + 3_600_000, turns);
  assert.equal(c.sent("notifications/cancelled").length, 0, "timeoutMs 0 is no timeout");
  const timed = rejection(c.client.waitForTask("t1", { timeoutMs: 1000 }));
  await c.clock.runUntil(c.clock.now() + 1000, turns);
  const e = await timed;
  assert.equal(e.code, -32001);
  assert.match(e.message, /after 1000 ms/);
  c.client.close();
});

test("basic/utilities/cancellation (timeouts): a request ended by maxRequestTimeoutMs says so, not 'timed out after 0 ms'", async () => {
  const c = await against("legacy", () => undefined, { maxRequestTimeoutMs: 5000 });
  const listing = rejection(c.client.request("tools/list", undefined, { timeoutMs: 0 }));
  const ping = rejection(c.client.request("ping", undefined, { timeoutMs: 0 }));
  await c.clock.runUntil(5000, turns);
  for (const p of [listing, ping]) {
    const e = await p;
    assert.equal(e.code, -32001);
    assert.match(e.message, /maxRequestTimeoutMs \(5000 ms\)/);
  }
  c.client.close();
});

test("server/tools Output Schema with tasks: a final result is always checked, even one carrying a task field (tasks/result) or resultType task (completed tasks/get)", async () => {
  const bad = { content: [{ type: "text", text: "hot" }], structuredContent: { temperature: "hot" } };
  const eras = [
    ["legacy", (m: any) => (m.method === "tools/call" ? { task: legacyTask() } : m.method === "tasks/result" ? { ...bad, task: legacyTask({ status: "completed" }) } : {})],
    ["modern", (m: any) => (m.method === "tools/call" ? task({ resultType: "task" }) : m.method === "tasks/get" ? task({ status: "completed", result: { ...bad, resultType: "task" } }) : {})],
  ] as const;
  for (const [era, answer] of eras) {
    const c = await against(era, answer);
    await c.client.listTools();
    await c.client.callToolAsTask("weather", {});
    const e = await rejection(c.client.waitForTask("t1"));
    assert.equal(e.code, -32603, era);
    assert.match(e.message, /does not match its outputSchema/, era);
    c.client.close();
  }
});

test("SEP-2663 Task Update Requests: \"Clients MUST treat each entry in inputRequests as they would the equivalent standalone server-to-client request\" (draft basic/patterns/mrtr: an ElicitRequest, CreateMessageRequest or ListRootsRequest, the client having declared it); input_required without inputRequests, which the server MUST include, rejects waitForTask -32603 and is not polled again", async () => {
  const seen: unknown[] = [];
  const handlers = { sampling: (p: unknown) => (seen.push(p), { role: "assistant", content: { type: "text", text: "ok" }, model: "m" }) };
  const cases: [string, unknown][] = [
    ["inputRequests null", null],
    ["an entry null", { k: null }],
    ["sampling params that are no CreateMessageRequest params", { k: { method: "sampling/createMessage", params: { messages: "not-an-array", maxTokens: "many" } } }],
    ["a tasks/list entry (served by the client's own task runtime otherwise)", { k: { method: "tasks/list" } }],
    ["an elicitation the client did not declare", { k: { method: "elicitation/create", params: { message: "?", requestedSchema: { type: "object", properties: {} } } } }],
    ["no inputRequests at all", undefined],
  ];
  for (const [label, inputRequests] of cases) {
    const c = await against("modern", (m) => (m.method === "tasks/get" ? task({ status: "input_required", pollIntervalMs: 100, inputRequests }) : {}), {}, { receiveTasks: true, handlers });
    const wait = rejection(c.client.waitForTask("t1"));
    await c.clock.runUntil(1000, turns);
    const e = await wait;
    assert.equal(e.code, -32603, label);
    assert.match(e.message, /^invalid tasks\/get (answer from the server: |result from the peer)/, label);
    assert.equal(c.sent("tasks/get").length, 1, `${label}: not polled again`);
    assert.equal(c.sent("tasks/update").length, 0, `${label}: nothing answered`);
    c.client.close();
  }
  assert.deepEqual(seen, [], "the sampling handler never saw the invalid params");
  // A valid entry still reaches the handler and is answered with tasks/update.
  const good = { k: { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 } } };
  let polls = 0;
  const c = await against("modern", (m) => (m.method === "tasks/get" ? (++polls === 1 ? task({ status: "input_required", inputRequests: good }) : task({ status: "completed", result: { content: [] } })) : {}), {}, { handlers });
  assert.deepEqual(await c.client.waitForTask("t1"), { content: [] });
  assert.equal(seen.length, 1);
  assert.equal(c.sent("tasks/update").length, 1);
  c.client.close();
});

test("SEP-2663 Task Polling: a failed task carries \"the error that occurred\", a JSON-RPC error (integer code, string message); any other error rejects waitForTask -32603, not an McpError with that code", async () => {
  const bad = await against("modern", (m) => (m.method === "tasks/get" ? task({ status: "failed", error: { code: "x", message: 5 } }) : {}));
  const e = await rejection(bad.client.waitForTask("t1"));
  assert.equal(e.code, -32603);
  assert.equal(e.message, "invalid tasks/get result from the peer");
  assert.deepEqual(e.data.issues.map((i: { path: string }) => i.path), ["/error"]);
  assert.equal(e.fromPeer, false);
  bad.client.close();
  const good = await against("modern", (m) => (m.method === "tasks/get" ? task({ status: "failed", error: { code: -32050, message: "boom" } }) : {}));
  const f = await rejection(good.client.waitForTask("t1"));
  assert.equal(f.code, -32050);
  assert.equal(f.message, "boom");
  // draft basic/index: the server's error for its task is the peer's, not a local one.
  assert.equal(f.fromPeer, true);
  good.client.close();
});

test("2025-11-25 basic/utilities/tasks: \"receivers MUST return from tasks/result exactly what the underlying request would have returned\": a task this client created with tools/call whose final result is no CallToolResult rejects -32603 in both eras; a task created elsewhere stays unchecked", async () => {
  const eras = [
    ["legacy", (m: any) => (m.method === "tools/call" ? { task: legacyTask() } : m.method === "tasks/result" ? { nope: 1 } : {})],
    ["modern", (m: any) => (m.method === "tools/call" ? task({ resultType: "task" }) : m.method === "tasks/get" ? task({ status: "completed", result: { nope: 1 } }) : {})],
  ] as const;
  for (const [era, answer] of eras) {
    const c = await against(era, answer);
    assert.deepEqual(await c.client.waitForTask("t1"), { nope: 1 }, `${era}: a task this client did not create is not checked`);
    await c.client.callToolAsTask("x", {});
    const e = await rejection(c.client.waitForTask("t1"));
    assert.equal(e.code, -32603, era);
    assert.match(e.message, /is no valid tools\/call result/, era);
    c.client.close();
  }
  // The SEP's own example inlines a CallToolResult without resultType: accepted.
  const ok = await against("modern", (m) => (m.method === "tools/call" ? task({ resultType: "task" }) : m.method === "tasks/get" ? task({ status: "completed", result: { content: [] } }) : {}));
  await ok.client.callToolAsTask("x", {});
  assert.deepEqual(await ok.client.waitForTask("t1"), { content: [] });
  ok.client.close();
});

test("waitForTask (extension): the caller's timeoutMs bounds the whole wait, as tasks/result's does in 2025-11-25: -32001 'request timed out after N ms' at the deadline on the client's clock, no poll after it", async () => {
  const c = await against("modern", (m) => (m.method === "tasks/get" ? task({ pollIntervalMs: 1000 }) : {}));
  let settled = false;
  const wait = rejection(c.client.waitForTask("t1", { timeoutMs: 2500 }).finally(() => (settled = true)));
  await turns();
  await c.clock.runUntil(2499, turns);
  assert.equal(settled, false);
  assert.equal(c.sent("tasks/get").length, 3, "polled at 0, 1000 and 2000 ms");
  await c.clock.runUntil(2500, turns);
  const e = await wait;
  assert.equal(e.code, -32001);
  assert.equal(e.message, "request timed out after 2500 ms");
  assert.equal(c.clock.held.size, 0, "no timer left behind");
  await c.clock.runUntil(10_000, turns);
  assert.equal(c.sent("tasks/get").length, 3, "no poll after the deadline");
  let ended = false;
  c.client.waitForTask("t1", { timeoutMs: 0 }).then(() => (ended = true), () => (ended = true));
  await turns();
  await c.clock.runUntil(c.clock.now() + 5000, turns);
  assert.equal(ended, false, "timeoutMs 0 is no timeout, as for any request");
  assert.equal(c.sent("tasks/get").length, 9, "it keeps polling");
  c.client.close();
});
