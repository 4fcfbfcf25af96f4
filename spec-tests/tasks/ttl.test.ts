/**
 * 2025-11-25 `basic/utilities/tasks` § "TTL and Resource Management", "Resource
 * Management", "Protocol Errors" (expired tasks): exact deadlines, reclamation, the heap.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { findTask, nextTaskDeadline, restoreTasks, snapshotTasks, stepTasks, tableFromRecords } from "../../src/tasks/table.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { expiryOf, grantTtl, heapPop, heapPush, heapRebuild, isExpired, type DeadlineEntry } from "../../src/tasks/ttl.js";
import { ALICE, errorOf, Harness, ofType } from "./helpers.js";
import { rng } from "../harness/random.js";

describe("tasks § TTL: After a task's ttl lifetime has elapsed, receivers MAY delete the task", () => {
  it("expires at createdAt + ttl exactly: alive 1 ms before, gone at the deadline", () => {
    const h = new Harness();
    const created = h.now;
    h.create("t", { ttl: 30000 });
    assert.equal(nextTaskDeadline(h.state), created + 30000);
    h.now = created + 29999;
    assert.equal(ofType(h.feed({ type: "tick" }), "expired").length, 0);
    assert.equal(h.get("t").status, "working", "still there a millisecond before");
    h.now = created + 30000;
    const out = h.feed({ type: "tick" });
    assert.deepEqual(ofType(out, "expired"), [{ type: "expired", taskId: "t", owner: ALICE, status: "working" }]);
    assert.equal(findTask(h.state, "t"), undefined);
    assert.equal(nextTaskDeadline(h.state), null);
  });

  it("regardless of status: a completed task's result is deleted with it", () => {
    const h = new Harness();
    h.create("t", { ttl: 10 });
    h.feed({ type: "settle", taskId: "t", result: { ok: true } });
    h.now += 10;
    h.feed({ type: "tick" });
    assert.equal(errorOf(h.request("tasks/result", { taskId: "t" }).out).error.code, ErrorCode.InvalidParams);
  });

  it("a lookup in the very step that expires the task says 'Task has expired' (-32602); later, 'Task not found' (-32602)", () => {
    const h = new Harness();
    h.create("t", { ttl: 100 });
    h.now += 100;
    const e1 = errorOf(h.request("tasks/get", { taskId: "t" }).out).error;
    assert.deepEqual(e1, { code: ErrorCode.InvalidParams, message: "Failed to retrieve task: Task has expired" });
    const e2 = errorOf(h.request("tasks/get", { taskId: "t" }).out).error;
    assert.deepEqual(e2, { code: ErrorCode.InvalidParams, message: "Failed to retrieve task: Task not found" });
    for (const m of ["tasks/result", "tasks/cancel"]) assert.equal(errorOf(h.request(m, { taskId: "t" }).out).error.code, ErrorCode.InvalidParams);
  });

  it("a tasks/result blocked on a task that expires is answered -32602 'Task has expired', once", () => {
    const h = new Harness();
    h.create("t", { ttl: 50 });
    const { id } = h.request("tasks/result", { taskId: "t" });
    h.now += 50;
    const out = h.feed({ type: "tick" });
    const e = ofType(out, "reply-error");
    assert.equal(e.length, 1);
    assert.equal(e[0].id, id);
    assert.equal(e[0].deferred, true);
    assert.equal(e[0].error.message, "Failed to retrieve task: Task has expired");
    assert.deepEqual(h.state.waiting, {});
    assert.equal(ofType(h.feed({ type: "tick" }), "reply-error").length, 0);
  });

  it("nextTaskDeadline is the earliest live deadline; ties and many tasks expire in one tick", () => {
    const h = new Harness();
    const t0 = h.now;
    h.create("a", { ttl: 300 });
    h.create("b", { ttl: 100 });
    h.create("c", { ttl: 100 });
    h.create("d", { ttl: 200 });
    assert.equal(nextTaskDeadline(h.state), t0 + 100);
    h.now = t0 + 250;
    assert.deepEqual(ofType(h.feed({ type: "tick" }), "expired").map((e) => e.taskId), ["b", "c", "d"]);
    assert.equal(nextTaskDeadline(h.state), t0 + 300);
  });

  it("the extension's ttlMs MAY change: a new TTL moves the deadline (a shorter one can expire at once); null means the maximum", () => {
    const h = new Harness({ maxTtlMs: 5000 });
    const t0 = h.now;
    h.create("t", { ttl: 1000 });
    h.feed({ type: "update-status", taskId: "t", status: "working", ttl: 3000 });
    assert.equal(nextTaskDeadline(h.state), t0 + 3000, "the stale entry is skipped");
    h.feed({ type: "update-status", taskId: "t", status: "working", ttl: 99999 });
    assert.equal(findTask(h.state, "t")!.ttl, 5000, "capped");
    h.feed({ type: "update-status", taskId: "t", status: "working", ttl: null });
    assert.equal(findTask(h.state, "t")!.ttl, 5000);
    assert.equal(ofType(h.feed({ type: "update-status", taskId: "t", status: "working", ttl: -4 }), "diagnostic")[0].code, "bad-ttl");
    h.now = t0 + 10;
    const out = h.feed({ type: "update-status", taskId: "t", status: "working", ttl: 5 });
    assert.equal(ofType(out, "expired").length, 1, "already past its new deadline");
    const u = new Harness({ maxTtlMs: null, defaultTtlMs: null });
    u.create("n", { ttl: 10 });
    u.feed({ type: "update-status", taskId: "n", status: "working", ttl: null });
    assert.equal(nextTaskDeadline(u.state), null, "unlimited: no deadline");
    u.now += 100;
    u.feed({ type: "tick" });
    assert.equal(u.state.count, 1);
  });

  it("stale heap entries stay bounded when TTLs change often", () => {
    const h = new Harness({ maxTtlMs: null });
    h.create("t", { ttl: 1_000_000 });
    // Growing TTLs leave the stale entry on top (popped at once); shrinking ones bury it (rebuilt).
    for (let i = 0; i < 500; i++) h.feed({ type: "update-status", taskId: "t", status: "working", ttl: 1_000_000 + i + 1 });
    for (let i = 0; i < 500; i++) h.feed({ type: "update-status", taskId: "t", status: "working", ttl: 999_000 - i });
    assert.ok(h.state.deadlines.length <= h.state.count + 34, `heap ${h.state.deadlines.length}`);
    assert.equal(nextTaskDeadline(h.state), h.state.tasks.t.expiresAt);
    h.now = h.state.tasks.t.expiresAt!;
    assert.equal(ofType(h.feed({ type: "tick" }), "expired").length, 1);
    assert.deepEqual(h.state.deadlines, [], "no stale entry outlives its task for long");
  });

  it("Clean up expired tasks promptly: 100 000 create/expire cycles leave the table bounded", () => {
    const h = new Harness({ maxTasks: 50, maxTasksPerOwner: 50 });
    let now = h.now;
    for (let i = 0; i < 100_000; i++) {
      const owner = { session: "s" + (i % 7), principal: i % 2 === 0 ? "p" : undefined };
      const clean = owner.principal === undefined ? { session: owner.session } : owner;
      const out = stepTasks(h.state, { type: "create", now, id: i, taskId: "t" + i, owner: clean, method: "tools/call", ttl: 3 }).outputs;
      assert.ok(out.some((o) => o.type === "reply"));
      if (i % 3 === 0) stepTasks(h.state, { type: "settle", now, taskId: "t" + i, result: {} });
      if (i % 5 === 0) stepTasks(h.state, { type: "result", now, id: "r" + i, owner: clean, taskId: "t" + i });
      now += 1;
      if (i % 10 === 0) stepTasks(h.state, { type: "tick", now });
    }
    stepTasks(h.state, { type: "tick", now: now + 10 });
    assert.equal(h.state.count, 0);
    assert.deepEqual(h.state.tasks, {});
    assert.deepEqual(h.state.owners, {});
    assert.deepEqual(h.state.waiting, {});
    assert.deepEqual(h.state.progress, {});
    assert.deepEqual(h.state.deadlines, []);
    assert.ok(JSON.stringify(h.state).length < 1000, "the snapshot does not grow with tasks ever created");
  });

  it("mid-run the per-owner order lists stay proportional to live tasks", () => {
    const h = new Harness({ maxTasksPerOwner: 1000, maxTasks: 1000 });
    let now = h.now;
    for (let i = 0; i < 20_000; i++) {
      stepTasks(h.state, { type: "create", now, id: i, taskId: "t" + i, owner: ALICE, method: "tools/call", ttl: 20 });
      now += 1;
    }
    const entry = Object.values(h.state.owners)[0];
    assert.ok(entry.count <= 21);
    assert.ok(entry.order.length <= 2 * entry.count + 10, `order ${entry.order.length} for ${entry.count} live`);
  });
});

describe("tasks § TTL and Resource Management (receivers MAY override the requested ttl; the actual ttl is reported)", () => {
  it("with no maximum (maxTtlMs null) a ttl past Date's range (1e20, no safe integer; 9e15) is granted only up to the end of that range, so the table's own snapshot and records restore with the task", () => {
    const h = new Harness({ maxTtlMs: null, defaultTtlMs: 9e15 });
    const granted = [h.create("a", { ttl: 1e20 }), h.create("b", { ttl: 9e15 }), h.create("c")].map((r) => (r.task as JsonObject).ttl as number);
    h.create("d", { ttl: 1000 });
    h.feed({ type: "update-status", taskId: "d", status: "working", ttl: 9e15 });
    for (const ttl of [...granted, h.state.tasks.d.ttl as number]) {
      assert.ok(Number.isSafeInteger(ttl), `granted ${ttl}`);
      assert.equal(h.now + ttl, 8.64e15, "expires at the end of Date's range");
    }
    const restored = restoreTasks(snapshotTasks(h.state));
    assert.ok(restored.ok, "the snapshot restores");
    const { state, skipped } = tableFromRecords(Object.values(h.state.tasks), { maxTtlMs: null });
    assert.deepEqual(skipped, []);
    assert.equal(state.count, 4);
    h.create("e", { ttl: 60_000 });
    assert.equal(h.state.tasks.e.ttl, 60_000, "an ordinary ttl is granted as asked");
  });
});

describe("ttl.ts units", () => {
  it("grantTtl, expiryOf, isExpired", () => {
    assert.equal(grantTtl(undefined, { defaultTtlMs: null, maxTtlMs: null }), null);
    assert.equal(grantTtl(Infinity, { defaultTtlMs: 7, maxTtlMs: null }), 7);
    assert.equal(grantTtl(3, { defaultTtlMs: 7, maxTtlMs: 2 }), 2);
    assert.equal(expiryOf(10, null), null);
    assert.equal(expiryOf(10, 5), 15);
    assert.equal(isExpired(15, 14), false);
    assert.equal(isExpired(15, 15), true);
    assert.equal(isExpired(null, 1e15), false);
  });

  it("the heap pops in (deadline, seq) order and rebuilds with a filter", () => {
    const heap: DeadlineEntry[] = [];
    const xs = [5, 3, 9, 1, 3, 7, 2, 8, 6, 4, 0];
    xs.forEach((d, i) => heapPush(heap, [d, i, "t" + i]));
    const popped: number[] = [];
    while (heap.length > 0) popped.push(heapPop(heap)[0]);
    assert.deepEqual(popped, [...xs].sort((a, b) => a - b));
    xs.forEach((d, i) => heapPush(heap, [d, i, "t" + i]));
    heapRebuild(heap, (e) => e[0] % 2 === 1);
    const odd: number[] = [];
    while (heap.length > 0) odd.push(heapPop(heap)[0]);
    assert.deepEqual(odd, [1, 3, 3, 5, 7, 9]);
  });

  it("pushes and pops in any interleaving (tasks created and expiring in one table) keep the heap's top the earliest live deadline (what nextTaskDeadline reads and expiry trusts): 2000 seeded runs against a sorted list", () => {
    const r = rng(2663);
    for (let run = 0; run < 2000; run++) {
      const heap: DeadlineEntry[] = [];
      const live: number[] = [];
      for (let k = 0; k < 32; k++) {
        if (heap.length > 0 && r() < 0.3) {
          live.sort((a, b) => a - b);
          assert.equal(heapPop(heap)[0], live.shift(), `run ${run} step ${k}: pop`);
        } else {
          const d = Math.floor(r() * 20);
          heapPush(heap, [d, k, "t" + k]);
          live.push(d);
        }
        if (heap.length > 0) assert.equal(heap[0][0], Math.min(...live), `run ${run} step ${k}: top`);
      }
    }
  });
});
