// Spec: 2025-11-25 basic/utilities/tasks ("Task Isolation and Access Control",
// "TTL and Resource Management") and SEP-2663 "Task Creation" (durably created before
// CreateTaskResult); issue 6 "Durable by design": a server restarted from a snapshot of
// its task table, or from its store's records, carries the task on.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, deferred, CLIENT } from "./setup.js";
import { McpServer } from "../../src/api/server.js";
import { McpClient } from "../../src/api/client.js";
import { attach } from "../../src/api/connection.js";
import { MemoryTaskStore, type TaskStore } from "../../src/api/tasks-store.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import type { CallToolResult, CreateTaskResult } from "../../src/api/types.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import type { TaskRecord } from "../../src/tasks/types.js";
import { taskOwnerKey } from "../../src/tasks/records.js";

const MODERN = { session: { versions: ["2026-07-28" as const] } };
const LEGACY = { session: { versions: ["2025-11-25" as const] } };
const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });

function slowServer(clock: ManualClock, extra: object = {}): McpServer {
  const s = new McpServer({ name: "s", version: "1" }, { clock, ...MODERN, session: { versions: ["2026-07-28", "2025-11-25"] }, ...extra });
  s.tool("slow", { execution: { taskSupport: "optional" } }, () => new Promise<CallToolResult>(() => {}));
  return s;
}

/** A store keeping records in memory whose `put` runs `put` first: it may wait, or refuse by throwing, before `keep()` stores the record. */
function storeWith(put: (keep: () => void) => Promise<void>): TaskStore {
  const memory = new MemoryTaskStore();
  return { get: (o, id) => memory.get(o, id), list: (o) => memory.list(o), delete: (o, id) => memory.delete(o, id), put: (o, r: TaskRecord) => put(() => memory.put(o, r)) };
}

async function client(server: McpServer, clock: ManualClock, options: object, owner?: { session: string; principal?: string }): Promise<McpClient> {
  const [a, b] = createMemoryPair();
  if (owner === undefined) server.connect(a);
  else attach(a, server.sessionOptions(), { onRequest: server.handler(owner) }, clock);
  const c = new McpClient(CLIENT, { clock, ...options });
  await c.connect(b);
  return c;
}

test("durable: a task snapshotted mid-run continues in a server restored from the snapshot; the requestor sees one task (extension)", async () => {
  const clock = new ManualClock();
  const a = slowServer(clock);
  const ca = await client(a, clock, { ...MODERN, tasks: true });
  const id = ca.taskIdOf((await ca.callToolAsTask("slow")) as JsonObject)!;
  const snapshot = a.tasks.snapshot();
  assert.equal(typeof JSON.parse(snapshot), "object", "plain JSON");
  a.close();
  const b = slowServer(clock, { tasks: { restore: snapshot } });
  const cb = await client(b, clock, { ...MODERN, tasks: true });
  const before = await cb.getTask(id);
  assert.equal(before.status, "working");
  assert.equal(b.tasks.isRunning(id), false, "the work is the application's to finish");
  assert.equal(b.tasks.settle(id, { result: text("finished after restart") }), true);
  const after = await cb.getTask(id);
  assert.equal(after.status, "completed");
  assert.equal(after.createdAt, before.createdAt, "the same task, not a new one");
  assert.deepEqual((after.result as JsonObject).content, [{ type: "text", text: "finished after restart" }]);
});

test("durable: 2025-11-25 tasks restored from a store's records stay bound to their session; tasks/result answers once finished", async () => {
  const clock = new ManualClock();
  const store = new MemoryTaskStore();
  const a = slowServer(clock, { tasks: { store } });
  const ca = await client(a, clock, LEGACY, { session: "http-session-1" });
  const { task } = (await ca.callToolAsTask("slow", {}, { ttl: 10_000 })) as CreateTaskResult;
  assert.equal(store.size, 1, "written through before CreateTaskResult");
  assert.equal(store.list(taskOwnerKey({ session: "http-session-1" })!)[0]?.taskId, task!.taskId);
  const b = slowServer(clock, { tasks: { restore: store.records() } });
  const same = await client(b, clock, LEGACY, { session: "http-session-1" });
  const other = await client(b, clock, LEGACY, { session: "http-session-2" });
  assert.equal((await same.getTask(task!.taskId)).status, "working");
  await assert.rejects(other.getTask(task!.taskId), (e: any) => e.code === -32602);
  const result = same.getTaskResult(task!.taskId);
  b.tasks.settle(task!.taskId, { result: text("done") });
  assert.deepEqual(((await result) as CallToolResult).content, [{ type: "text", text: "done" }]);
  clock.advance(10_000);
  assert.equal(b.tasks.size, 0, "expired tasks are reclaimed");
});

test("durable: CreateTaskResult waits until the store's put resolved (SEP-2663 Task Creation)", async () => {
  const clock = new ManualClock();
  const gate = deferred();
  let puts = 0;
  const store = storeWith(async (keep) => {
    puts++;
    await gate.promise;
    keep();
  });
  const s = slowServer(clock, { tasks: { store } });
  const c = await client(s, clock, { ...MODERN, tasks: true });
  let answered = false;
  const created = c.callToolAsTask("slow").then((r) => ((answered = true), r));
  for (let i = 0; i < 30; i++) await Promise.resolve();
  assert.equal(puts, 1);
  assert.equal(answered, false, "not before the record is stored");
  gate.resolve();
  assert.equal(((await created) as JsonObject).resultType, "task");
});

test("durable (SEP-2663 Task Creation: MUST NOT return CreateTaskResult until durably created): a store that refuses the task's record fails its creation with -32603, the work never runs, and the store's error reaches the server's onError (it went nowhere: the runtime had no onError of its own)", async () => {
  const clock = new ManualClock();
  let refuse = true;
  const store = storeWith(async (keep) => {
    if (refuse) throw new Error("disk full");
    keep();
  });
  const errors: unknown[] = [];
  let ran = 0;
  const s = new McpServer({ name: "s", version: "1" }, { clock, session: { versions: ["2026-07-28", "2025-11-25"] }, tasks: { store }, onError: (e) => errors.push(e) });
  s.tool("work", { execution: { taskSupport: "optional" } }, () => (ran++, text("done")));
  for (const era of [MODERN, LEGACY]) {
    refuse = true;
    errors.length = 0;
    ran = 0;
    const held = s.tasks.size;
    const c = await client(s, clock, { ...era, tasks: true });
    await assert.rejects(c.callToolAsTask("work"), (e: any) => e.code === -32603 && e.message === "the task could not be stored: disk full");
    for (let i = 0; i < 10; i++) await Promise.resolve();
    assert.equal(ran, 0, "no work for a task nobody can ask about");
    assert.ok(errors.some((e) => (e as Error).message === "disk full"), "the store's error is reported");
    clock.advance(0);
    assert.equal(s.tasks.size, held, "the table keeps no task the store refused (its TTL is 0)");
    // The store recovers: the next task is created as usual.
    refuse = false;
    const created = (await c.callToolAsTask("work")) as JsonObject;
    assert.ok(c.taskIdOf(created) !== undefined);
    c.close();
  }
});

test("durable (SEP-2663 Task Creation: MUST NOT return CreateTaskResult until durably created): a store on a promise library, whose put answers a thenable that is no Promise, is waited for as await would: a refused put fails the creation -32603 and reaches onError (it was neither waited for nor heard)", async () => {
  const clock = new ManualClock();
  const library = (p: Promise<void>): PromiseLike<void> => ({ then: (ok, fail) => p.then(ok, fail) });
  const memory = new MemoryTaskStore();
  const store: TaskStore = { get: (o, id) => memory.get(o, id), list: (o) => memory.list(o), delete: (o, id) => memory.delete(o, id), put: () => library(Promise.reject(new Error("disk full"))) as Promise<void> };
  const errors: unknown[] = [];
  let ran = 0;
  const s = new McpServer({ name: "s", version: "1" }, { clock, ...MODERN, tasks: { store }, onError: (e) => errors.push(e) });
  s.tool("work", { execution: { taskSupport: "optional" } }, () => (ran++, text("done")));
  const c = await client(s, clock, { ...MODERN, tasks: true });
  await assert.rejects(c.callToolAsTask("work"), (e: any) => e.code === -32603 && e.message === "the task could not be stored: disk full");
  for (let i = 0; i < 10; i++) await Promise.resolve();
  assert.equal(ran, 0);
  assert.ok(errors.some((e) => (e as Error).message === "disk full"), "the store's error is reported");
  c.close();
});

test("durable (SEP-2663 Task Creation): two tasks created at once each wait for their own record: the one whose put the store refuses fails with -32603 and never runs, the other is created; neither is answered before its own write landed", async () => {
  const clock = new ManualClock();
  const gates: Array<() => void> = [];
  let puts = 0;
  const store = storeWith(async (keep) => {
    const n = puts++;
    await new Promise<void>((resolve) => gates.push(resolve));
    if (n === 1) throw new Error("disk full");
    keep();
  });
  const ran: string[] = [];
  const s = new McpServer({ name: "s", version: "1" }, { clock, ...MODERN, tasks: { store }, onError: () => {} });
  s.tool("work", { execution: { taskSupport: "optional" } }, (args) => (ran.push(String(args.n)), text("done")));
  const c = await client(s, clock, { ...MODERN, tasks: true });
  const first = c.callToolAsTask("work", { n: 1 });
  const second = c.callToolAsTask("work", { n: 2 });
  const outcome = (p: Promise<unknown>) => p.then(() => "created", (e) => `${e.code} ${e.message}`);
  const settled = [outcome(first), outcome(second)];
  for (let i = 0; i < 30 && gates.length < 2; i++) await Promise.resolve();
  assert.equal(gates.length, 2, "both puts issued");
  gates[0]();
  // The first task's own write landed: it is answered, whatever the second's does meanwhile.
  let firstDone: string | undefined;
  void settled[0].then((v) => (firstDone = v));
  for (let i = 0; i < 50 && firstDone === undefined; i++) await Promise.resolve();
  assert.equal(firstDone, "created", "not held by the other task's write");
  gates[1]();
  assert.equal(await settled[1], "-32603 the task could not be stored: disk full");
  for (let i = 0; i < 10; i++) await Promise.resolve();
  assert.deepEqual(ran, ["1"], "only the stored task runs");
});

test("durable: a per-owner limit refuses the next task with a clear error", async () => {
  const c = await connect((s) => s.tool("slow", { execution: { taskSupport: "optional" } }, () => new Promise<CallToolResult>(() => {})), LEGACY, { ...LEGACY, tasks: { maxTasksPerOwner: 2 } });
  await c.client.callToolAsTask("slow");
  await c.client.callToolAsTask("slow");
  await assert.rejects(c.client.callToolAsTask("slow"), (e: any) => e.code === -32600 && e.data.limit === 2);
});

// Found by review: a 2025-11-25 task of a session is owned by the session and principal together,
// and the limit counted that pair, so a principal got maxTasksPerOwner more with every session it opened.
test("2025-11-25 Resource Management (receivers SHOULD enforce limits on concurrent tasks per requestor): one principal's sessions share its maxTasksPerOwner, so opening another session gives it no more tasks; another principal's is its own", async () => {
  const clock = new ManualClock();
  const s = new McpServer({ name: "s", version: "1" }, { clock, ...LEGACY, tasks: { maxTasksPerOwner: 2 } });
  s.tool("slow", { execution: { taskSupport: "optional" } }, () => new Promise<CallToolResult>(() => {}));
  const one = await client(s, clock, LEGACY, { session: "http-1", principal: "alice" });
  const two = await client(s, clock, LEGACY, { session: "http-2", principal: "alice" });
  const bob = await client(s, clock, LEGACY, { session: "http-3", principal: "bob" });
  await one.callToolAsTask("slow");
  await one.callToolAsTask("slow");
  await assert.rejects(two.callToolAsTask("slow"), (e: any) => e.code === -32600 && e.data.limit === 2 && e.data.scope === "requestor");
  assert.ok(bob.taskIdOf((await bob.callToolAsTask("slow")) as JsonObject));
  assert.equal(s.tasks.size, 3);
});

// Found by review: restore checked a record's times, status and owner only, so a record as a
// database hands it back (a NULL statusMessage or pollInterval column, a completed task whose
// result was not stored, a BigInt) was taken in and then failed every tasks/get about it
// with -32603 (the answer it made was no Task), or made snapshot() throw.
test("durable (README: malformed records are skipped on restore, and reported): a record whose wire fields are not what a Task carries (statusMessage or pollInterval null, completed without a result object, failed with an error that is none, input requests that are no requests, a member with no JSON form) is skipped and named to onError; tasks/get about it is the unknown task's -32602, and a well-formed record beside it is served", async () => {
  const clock = new ManualClock();
  const store = new MemoryTaskStore();
  const a = slowServer(clock, { tasks: { store } });
  const ca = await client(a, clock, { ...MODERN, tasks: true });
  const id = ca.taskIdOf((await ca.callToolAsTask("slow")) as JsonObject)!;
  const good = store.records()[0];
  const bad: Record<string, unknown> = {
    nullMessage: { statusMessage: null },
    nullPoll: { pollInterval: null },
    completedBare: { status: "completed" },
    failedBadError: { status: "failed", error: { code: "x" } },
    inputNotRequests: { status: "input_required", inputRequests: { q: 5 } },
    bigint: { status: "completed", result: { content: [], n: 1n } },
  };
  const records = Object.entries(bad).map(([taskId, fields], i) => ({ ...good, ...(fields as object), taskId, seq: good.seq + 1 + i }) as TaskRecord);
  const errors: string[] = [];
  const b = slowServer(clock, { onError: (e: Error) => errors.push(e.message), tasks: { restore: [...records, good] } });
  const cb = await client(b, clock, { ...MODERN, tasks: true });
  assert.equal(errors.length, 1);
  for (const taskId of Object.keys(bad)) {
    assert.ok(errors[0].includes(taskId), `${taskId} reported: ${errors[0]}`);
    await assert.rejects(cb.getTask(taskId), (e: any) => e.code === -32602, taskId);
  }
  assert.equal((await cb.getTask(id)).status, "working");
  assert.equal(b.tasks.size, 1);
  assert.equal(typeof JSON.parse(b.tasks.snapshot()), "object");
});

test("2025-11-25 TTL and Resource Management: a task that expires while its record is still being written never runs its work, and the store ends without it (its writes land in order)", async () => {
  const clock = new ManualClock();
  const gate = deferred();
  const memory = new MemoryTaskStore();
  const store: TaskStore = {
    get: (o, id) => memory.get(o, id),
    list: (o) => memory.list(o),
    delete: (o, id) => memory.delete(o, id),
    async put(o, r: TaskRecord) {
      await gate.promise;
      memory.put(o, r);
    },
  };
  let started = 0;
  const s = new McpServer({ name: "s", version: "1" }, { clock, ...LEGACY, tasks: { store, maxTasksPerOwner: 1 } });
  s.tool("work", { execution: { taskSupport: "optional" } }, (_a, ctx) => {
    started++;
    return new Promise<CallToolResult>((_r, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("stopped"))));
  });
  const c = await client(s, clock, LEGACY);
  const created = c.callToolAsTask("work", {}, { ttl: 1000 });
  for (let i = 0; i < 30; i++) await Promise.resolve();
  clock.advance(1000); // expired before its put resolved
  gate.resolve();
  const { task } = (await created) as CreateTaskResult;
  for (let i = 0; i < 30; i++) await Promise.resolve();
  assert.equal(started, 0, "the work of an expired task does not start");
  assert.equal(s.tasks.isRunning(task!.taskId), false);
  assert.equal(memory.size, 0, "the delete ran after the put, not before");
  // The limit holds for what runs: the expired task left room for exactly one more.
  await c.callToolAsTask("work", {}, { ttl: 60_000 });
  await assert.rejects(c.callToolAsTask("work", {}, { ttl: 60_000 }), (e: any) => e.code === -32600);
  for (let i = 0; i < 30; i++) await Promise.resolve();
  assert.equal(started, 1);
});

test("durable (README: the state shares no object with the application): a task's result is kept as the wire carries it, so editing the object the tool returned after the task ended changes neither tasks/result, the snapshot nor the store, and a member with no JSON form (a function) is left out as a plain call leaves it out instead of breaking every later step of the task", async () => {
  const store = new MemoryTaskStore();
  const shared = { content: [{ type: "text" as const, text: "v1" }], _meta: { hook() {} } };
  const c = await connect((s) => s.tool("job", { execution: { taskSupport: "optional" } }, async () => shared as unknown as CallToolResult), LEGACY, { ...LEGACY, tasks: { store } });
  const { task } = (await c.client.callToolAsTask("job")) as CreateTaskResult;
  const first = (await c.client.getTaskResult(task!.taskId)) as JsonObject;
  assert.deepEqual(first.content, [{ type: "text", text: "v1" }]);
  shared.content[0].text = "EDITED";
  assert.deepEqual(((await c.client.getTaskResult(task!.taskId)) as JsonObject).content, [{ type: "text", text: "v1" }]);
  assert.equal((await c.client.getTask(task!.taskId)).status, "completed");
  assert.ok(!c.server.tasks!.snapshot().includes("EDITED"));
  assert.deepEqual(c.server.tasks!.get(task!.taskId)!.result!.content, [{ type: "text", text: "v1" }]);
  const stored = await store.get(c.server.tasks!.get(task!.taskId)!.ownerKey, task!.taskId);
  assert.deepEqual(stored?.result?.content, [{ type: "text", text: "v1" }]);
});

// Found by the interleaving fuzz target (a gated store): every tasks/get wrote its task's
// unchanged record through, so a client polling a working task made one store write per
// poll, and a store slower than the polls queued them without bound, the task's delete at
// its TTL waiting behind them all.
test("durable (basic/utilities/tasks Getting Tasks; SEP-2663 Task Polling): tasks/get only reads its task, so polling an unchanged task writes nothing to the store, in both eras; what changes it is still written through", async () => {
  for (const era of [LEGACY, MODERN]) {
    const clock = new ManualClock();
    const memory = new MemoryTaskStore();
    const writes: string[] = [];
    const store: TaskStore = {
      get: (o, id) => memory.get(o, id),
      list: (o) => memory.list(o),
      put: (o, r) => void (writes.push(`put ${r.status}`), memory.put(o, r)),
      delete: (o, id) => void (writes.push("delete"), memory.delete(o, id)),
    };
    const gate = deferred();
    const s = new McpServer({ name: "s", version: "1" }, { clock, ...era, tasks: { store } });
    s.tool("job", { execution: { taskSupport: "optional" } }, async () => (await gate.promise, text("done")));
    const c = await client(s, clock, { ...era, tasks: true });
    const taskId = c.taskIdOf(await c.callToolAsTask("job"))!;
    assert.deepEqual(writes, ["put working"], `${era.session.versions[0]}: created`);
    for (let i = 0; i < 5; i++) assert.equal((await c.getTask(taskId)).status, "working");
    assert.deepEqual(writes, ["put working"], `${era.session.versions[0]}: polls of an unchanged task write nothing`);
    gate.resolve();
    for (let i = 0; i < 30; i++) await Promise.resolve();
    assert.deepEqual(writes, ["put working", "put completed"], `${era.session.versions[0]}: its completion is written`);
    assert.deepEqual(memory.records().map((r) => r.status), ["completed"]);
  }
});
