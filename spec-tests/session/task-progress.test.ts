// Spec: 2025-11-25 basic/utilities/tasks (progress of task-augmented requests: "The
// progressToken provided in the initial request remains valid throughout the task
// lifetime") with basic/utilities/progress (progress MUST increase; MUST stop when the
// operation, here the task, completes; notifications MUST only reference active tokens).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair } from "../harness/pair.js";
import { MAX_TASK_PROGRESS_TOKENS } from "../../src/session/task-progress.js";
import type { RequestId } from "../../src/jsonrpc/types.js";

const TASKS = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } }, tools: {} };
const created = (taskId: string) => ({ task: { taskId, status: "working", createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:30:00Z", ttl: 60000 } });

function taskCall(p: Pair, taskId: string): RequestId {
  const id = p.request("client", "tools/call", { name: "job", task: {} }, { progress: true });
  p.run();
  p.respond("server", id, created(taskId));
  p.run();
  return id;
}

function progress(p: Pair, token: RequestId, value: number): void {
  p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: value } }));
}

function ready(): Pair {
  const p = new Pair({}, { capabilities: TASKS });
  p.handshake();
  p.handlers.server = () => {};
  return p;
}

test("basic/utilities/tasks: a progress token answered with CreateTaskResult stays valid: later progress reaches the requestor under the original request id, and MUST still increase", () => {
  const p = ready();
  const id = taskCall(p, "t1");
  assert.ok(p.of("client", "progress-kept").some((o) => o.id === id), "the driver is told to keep the request's progress callback");
  progress(p, id, 1);
  progress(p, id, 1);
  progress(p, id, 2);
  assert.deepEqual(p.of("client", "progress").map((o) => [o.id, o.progress]), [[id, 1], [id, 2]]);
  assert.ok(p.of("client", "diagnostic").some((d) => d.code === "progress-not-increasing"));
  JSON.parse(JSON.stringify(p.state("client")));
});

test("basic/utilities/progress (the progress value MUST increase with each notification) across the task's creation: progress seen before the CreateTaskResult still bounds the task's later progress", () => {
  const p = ready();
  const id = p.request("client", "tools/call", { name: "job", task: {} }, { progress: true });
  p.run();
  progress(p, id, 5);
  p.respond("server", id, created("t1"));
  p.run();
  progress(p, id, 3);
  progress(p, id, 5);
  progress(p, id, 6);
  assert.deepEqual(p.of("client", "progress").map((o) => [o.id, o.progress]), [[id, 5], [id, 6]]);
  assert.equal(p.of("client", "diagnostic").filter((d) => d.code === "progress-not-increasing").length, 2);
});

for (const [how, end] of [
  ["a terminal status in a tasks/get result", (p: Pair) => {
    const g = p.request("client", "tasks/get", { taskId: "t1" });
    p.run();
    p.respond("server", g, { taskId: "t1", status: "completed", createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:31:00Z", ttl: 60000 });
  }],
  ["notifications/tasks/status with a terminal status", (p: Pair) => {
    p.inject("client", JSON.stringify({ jsonrpc: "2.0", method: "notifications/tasks/status", params: { taskId: "t1", status: "failed", createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:31:00Z", ttl: 60000 } }));
  }],
  ["the answer to tasks/result (carrying related-task)", (p: Pair) => {
    const r = p.request("client", "tasks/result", { taskId: "t1" });
    p.run();
    p.respond("server", r, { content: [], _meta: { "io.modelcontextprotocol/related-task": { taskId: "t1" } } });
  }],
  ["the answer to tasks/result without related-task (read from the request's taskId)", (p: Pair) => {
    const r = p.request("client", "tasks/result", { taskId: "t1" });
    p.run();
    p.respond("server", r, { content: [] });
  }],
  ["an error answer to tasks/result (the task failed with that error)", (p: Pair) => {
    const r = p.request("client", "tasks/result", { taskId: "t1" });
    p.run();
    p.feed("server", { type: "respond", now: 0, id: r, error: { code: -32603, message: "the tool failed" } });
  }],
] as const) {
  test(`basic/utilities/progress: progress MUST stop when the task ends — the token dies on ${how}, and later progress is dropped`, () => {
    const p = ready();
    const id = taskCall(p, "t1");
    const other = taskCall(p, "t2");
    progress(p, id, 1);
    end(p);
    p.run();
    assert.ok(p.of("client", "progress-ended").some((o) => o.id === id));
    progress(p, id, 2);
    progress(p, other, 5);
    assert.deepEqual(p.of("client", "progress").map((o) => [o.id, o.progress]), [[id, 1], [other, 5]], "only the ended task's token died");
    assert.ok(p.of("client", "diagnostic").some((d) => d.code === "unknown-progress-token"));
  });
}

test("basic/utilities/tasks: a plain result ends the token with its request (no progress-kept)", () => {
  const p = ready();
  const id = p.request("client", "tools/call", { name: "job" }, { progress: true });
  p.run();
  p.respond("server", id, { content: [] });
  p.run();
  assert.equal(p.of("client", "progress-kept").length, 0);
  progress(p, id, 1);
  assert.equal(p.of("client", "progress").length, 0);
});

test("limits: the requestor keeps at most MAX_TASK_PROGRESS_TOKENS task tokens; the oldest is dropped first", () => {
  const p = ready();
  const first = taskCall(p, "t0");
  for (let i = 1; i <= MAX_TASK_PROGRESS_TOKENS; i++) taskCall(p, "t" + i);
  assert.equal(Object.keys(p.state("client").taskProgress).length, MAX_TASK_PROGRESS_TOKENS);
  assert.ok(p.of("client", "progress-ended").some((o) => o.id === first));
});

test("limits (README: task progress tokens a requestor keeps, 1024, the oldest forgotten): the oldest is the token kept first, not the smallest request id: a request sent early whose task is created last keeps its token past the next task, also in a state saved before the order was recorded", { timeout: 20_000 }, () => {
  const p = ready();
  const early = p.request("client", "tools/call", { name: "job", task: {} }, { progress: true });
  p.run();
  const ids = Array.from({ length: MAX_TASK_PROGRESS_TOKENS }, (_, i) => taskCall(p, "t" + i));
  p.respond("server", early, created("t-early"));
  p.run();
  assert.deepEqual(p.of("client", "progress-ended").map((o) => o.id), [ids[0]], "the task created first makes room");
  taskCall(p, "t-next");
  assert.deepEqual(p.of("client", "progress-ended").map((o) => o.id), [ids[0], ids[1]]);
  progress(p, early, 1);
  assert.deepEqual(p.of("client", "progress").map((o) => [o.id, o.progress]), [[early, 1]], "the newest task's progress still reaches the requestor");
  // A state saved before the order was recorded (no taskProgressOrder) goes on in its key order: the bound holds, the tokens still work.
  const state = p.state("client");
  delete state.taskProgressOrder;
  Object.assign(state, JSON.parse(JSON.stringify(state)));
  taskCall(p, "t-after");
  assert.equal(Object.keys(state.taskProgress).length, MAX_TASK_PROGRESS_TOKENS);
  assert.equal(p.of("client", "progress-ended").length, 3);
  progress(p, ids[2], 1);
  assert.deepEqual(p.of("client", "progress").map((o) => [o.id, o.progress]), [[early, 1], [ids[2], 1]]);
  assert.deepEqual(JSON.parse(JSON.stringify(state)), state);
});

test("basic/utilities/tasks (receiver): the task-progress input frames notifications/progress under the task's token; a malformed one is dropped with a diagnostic", () => {
  const p = ready();
  const out = p.feed("server", { type: "task-progress", now: 0, token: "tok", progress: 3, total: 4, message: "m" });
  assert.deepEqual(out.find((o) => o.type === "send")?.message, { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 3, total: 4, message: "m" } });
  const bad = p.feed("server", { type: "task-progress", now: 0, token: 1.5, progress: Number.NaN } as never);
  assert.deepEqual(bad.map((o) => o.type), ["diagnostic"]);
});

test("closed is final (session lifecycle): task progress reported after the connection closed sends nothing, with a diagnostic (a task can outlive its connection)", () => {
  const p = ready();
  p.feed("server", { type: "closed", now: 0, reason: "transport closed" });
  const out = p.feed("server", { type: "task-progress", now: 0, token: "tok", progress: 1 });
  assert.deepEqual(out.map((o) => o.type), ["diagnostic"]);
  assert.equal(out[0].type === "diagnostic" && out[0].code, "task-progress-after-close");
});
