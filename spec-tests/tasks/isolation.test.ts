/**
 * 2025-11-25 `basic/utilities/tasks` § "Task Isolation and Access Control" and
 * "Task Listing", "Resource Management" (limits), "Protocol Errors" (cursor).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { taskOwnerKey } from "../../src/tasks/records.js";
import { restoreTasks, snapshotTasks, stepTasks } from "../../src/tasks/table.js";
import type { TaskOwner } from "../../src/tasks/types.js";
import { ALICE, BOB, errorOf, Harness, ofType, replyOf } from "./helpers.js";

describe("tasks § Task Isolation: MUST reject tasks/get, tasks/result, tasks/cancel for another context's tasks", () => {
  it("another owner gets exactly the unknown-task error, and the task is untouched", () => {
    const h = new Harness();
    h.create("t");
    const unknown = errorOf(h.request("tasks/get", { taskId: "nope" }, ALICE).out).error;
    for (const m of ["tasks/get", "tasks/result", "tasks/cancel"]) {
      assert.deepEqual(errorOf(h.request(m, { taskId: "t" }, BOB).out).error, unknown, m);
    }
    assert.equal(h.status("t"), "working");
    assert.deepEqual(h.state.waiting, {});
  });

  it("principal binding: the same session with another principal, or none, cannot see the task", () => {
    const h = new Harness();
    const owner = { session: "s", principal: "user-1" };
    h.create("t", { owner });
    assert.equal(h.get("t", owner).status, "working");
    for (const other of [{ session: "s" }, { session: "s", principal: "user-2" }, { principal: "user-1" }]) {
      assert.equal(errorOf(h.request("tasks/get", { taskId: "t" }, other).out).error.code, ErrorCode.InvalidParams, JSON.stringify(other));
    }
  });

  it("owner keys never collide across the session/principal split", () => {
    const owners: TaskOwner[] = [{}, { session: "" }, { principal: "" }, { session: "a" }, { session: "a|1:b" }, { session: "a", principal: "b" }, { principal: "a" }, { session: "a#", principal: "b" }, { session: "a", principal: "#b" }];
    const keys = owners.map((o) => taskOwnerKey(o));
    assert.equal(new Set(keys).size, owners.length);
    assert.equal(taskOwnerKey({ session: 3 } as never), undefined);
    assert.equal(taskOwnerKey({ principal: 3 } as never), undefined);
    assert.equal(taskOwnerKey("x"), undefined);
  });

  it("a malformed owner on a request is answered -32603, never matched to anyone", () => {
    const h = new Harness();
    h.create("t");
    const out = h.feed({ type: "get", id: 1, owner: { session: 5 } as never, taskId: "t" });
    assert.equal(errorOf(out).error.code, ErrorCode.InternalError);
  });
});

describe("tasks § Task Listing", () => {
  it("MUST ensure the list includes only the requestor's tasks", () => {
    const h = new Harness();
    h.create("a1");
    h.create("b1", { owner: BOB });
    h.create("a2");
    const alice = replyOf(h.request("tasks/list", {}, ALICE).out).result;
    assert.deepEqual((alice.tasks as { taskId: string }[]).map((t) => t.taskId), ["a1", "a2"]);
    assert.equal(alice.nextCursor, undefined);
    const bob = replyOf(h.request("tasks/list", undefined, BOB).out).result;
    assert.deepEqual((bob.tasks as { taskId: string }[]).map((t) => t.taskId), ["b1"]);
    const carol = replyOf(h.request("tasks/list", {}, { session: "carol" }).out).result;
    assert.deepEqual(carol.tasks, []);
  });

  it("MUST include nextCursor when more tasks are available; pages cover every task once, in creation order", () => {
    const h = new Harness({ pageSize: 3 });
    const ids = Array.from({ length: 8 }, (_, i) => "t" + i);
    // Integer-like ids would reorder a plain object's keys; creation order must win.
    for (const id of [...ids, "10", "2"]) h.create(id);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = replyOf(h.request("tasks/list", cursor === undefined ? {} : { cursor }).out).result;
      const tasks = r.tasks as { taskId: string; createdAt: string; ttl: number }[];
      assert.ok(tasks.length <= 3);
      for (const t of tasks) assert.ok(typeof t.createdAt === "string" && "ttl" in t);
      seen.push(...tasks.map((t) => t.taskId));
      cursor = r.nextCursor as string | undefined;
      pages++;
    } while (cursor !== undefined);
    assert.deepEqual(seen, [...ids, "10", "2"]);
    assert.equal(pages, 4);
  });

  it("a full last page has no nextCursor; a page size on the input overrides the option", () => {
    const h = new Harness({ pageSize: 2 });
    h.create("a");
    h.create("b");
    assert.equal(replyOf(h.request("tasks/list", {}).out).result.nextCursor, undefined);
    const r = replyOf(h.feed({ type: "list", id: 9, owner: ALICE, pageSize: 1 })).result;
    assert.equal((r.tasks as unknown[]).length, 1);
    assert.equal(typeof r.nextCursor, "string");
  });

  it("a cursor stays valid when tasks before or at it expire", () => {
    const h = new Harness({ pageSize: 2 });
    h.create("a", { ttl: 10 });
    h.create("b", { ttl: 10 });
    h.create("c", { ttl: 1000 });
    h.create("d", { ttl: 1000 });
    const first = replyOf(h.request("tasks/list", {}).out).result;
    h.now += 10;
    h.feed({ type: "tick" });
    const second = replyOf(h.request("tasks/list", { cursor: first.nextCursor as string }).out).result;
    assert.deepEqual((second.tasks as { taskId: string }[]).map((t) => t.taskId), ["c", "d"]);
  });

  it("Invalid or nonexistent cursor: -32602", () => {
    const h = new Harness();
    h.create("a");
    for (const cursor of ["", "bogus", "c", "cZZ", "c" + (1e6).toString(36), 5]) {
      const out = h.request("tasks/list", { cursor } as never).out;
      assert.equal(errorOf(out).error.code, ErrorCode.InvalidParams, String(cursor));
    }
  });

  it("If a task is retrievable via tasks/get it MUST be retrievable via tasks/list", () => {
    const h = new Harness({ pageSize: 1 });
    for (let i = 0; i < 5; i++) h.create("t" + i);
    h.feed({ type: "settle", taskId: "t2", result: {} });
    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const r = replyOf(h.request("tasks/list", cursor === undefined ? {} : { cursor }).out).result;
      listed.push(...(r.tasks as { taskId: string }[]).map((t) => t.taskId));
      cursor = r.nextCursor as string | undefined;
    } while (cursor);
    for (let i = 0; i < 5; i++) assert.equal(h.get("t" + i).taskId, "t" + i);
    assert.deepEqual(listed, ["t0", "t1", "t2", "t3", "t4"]);
  });
});

describe("tasks § Resource Management: limits on concurrent tasks per requestor and overall", () => {
  it("per owner: the next create is refused -32600 with the limit; other owners are unaffected; expiry frees a slot", () => {
    const h = new Harness({ maxTasksPerOwner: 2, maxTasks: 10 });
    h.create("a", { ttl: 100 });
    h.create("b", { ttl: 100 });
    const out = h.feed({ type: "create", id: 50, taskId: "c", owner: ALICE, method: "tools/call" });
    const e = errorOf(out);
    assert.equal(e.id, 50);
    assert.equal(e.error.code, ErrorCode.InvalidRequest);
    assert.deepEqual(e.error.data, { limit: 2, scope: "requestor" });
    assert.equal(h.state.count, 2);
    assert.equal(ofType(h.feed({ type: "create", id: 51, taskId: "c", owner: BOB, method: "tools/call" }), "reply").length, 1);
    h.now += 100;
    assert.equal(ofType(h.feed({ type: "create", id: 52, taskId: "d", owner: ALICE, method: "tools/call" }), "reply").length, 1);
  });

  // Found by review: the quota was kept per isolation owner, and a 2025-11-25 task of an
  // HTTP session is owned by the session and the principal together, so one authenticated
  // principal held maxTasksPerOwner in every session it opened, up to the whole table.
  it("per requestor (Resource Management: limits on concurrent tasks per requestor): with an authorization context the requestor is the principal, so its tasks in all its sessions (and its sessionless ones) share one maxTasksPerOwner; another principal is unaffected; its own finished task in another session makes room", () => {
    const h = new Harness({ maxTasksPerOwner: 2, maxTasks: 100 });
    const create = (taskId: string, owner: TaskOwner) => h.feed({ type: "create", id: h.id(), taskId, owner, method: "tools/call" });
    assert.equal(ofType(create("a", { session: "s1", principal: "alice" }), "reply").length, 1);
    assert.equal(ofType(create("b", { session: "s2", principal: "alice" }), "reply").length, 1);
    assert.deepEqual(errorOf(create("c", { session: "s3", principal: "alice" })).error.data, { limit: 2, scope: "requestor" }, "a new session is no new quota");
    assert.deepEqual(errorOf(create("c", { principal: "alice" })).error.data, { limit: 2, scope: "requestor" }, "nor is a sessionless request of the same principal");
    assert.equal(ofType(create("d", { session: "s3", principal: "bob" }), "reply").length, 1, "another principal has a quota of its own");
    assert.equal(ofType(create("e", { session: "s3" }), "reply").length, 1, "and so has a session without a principal");
    h.feed({ type: "settle", taskId: "a", result: { content: [] } });
    const out = create("f", { session: "s4", principal: "alice" });
    assert.equal(ofType(out, "reply").length, 1);
    assert.deepEqual(ofType(out, "expired").map((o) => o.taskId), ["a"]);
    // Isolation is unchanged: each session still sees only its own tasks.
    assert.equal(errorOf(h.request("tasks/get", { taskId: "b" }, { session: "s4", principal: "alice" }).out).error.code, ErrorCode.InvalidParams);
    assert.deepEqual((replyOf(h.request("tasks/list", {}, { session: "s4", principal: "alice" }).out).result.tasks as { taskId: string }[]).map((t) => t.taskId), ["f"]);
    // The quota survives a snapshot, and a snapshot of before it was kept (no index) rebuilds it.
    for (const snap of [snapshotTasks(h.state), JSON.stringify({ ...h.state, principals: undefined })]) {
      const r = restoreTasks(snap);
      assert.ok(r.ok);
      const out2 = stepTasks(r.state, { type: "create", now: h.now, id: 999, taskId: "g", owner: { session: "s5", principal: "alice" }, method: "tools/call" }).outputs;
      assert.deepEqual(errorOf(out2).error.data, { limit: 2, scope: "requestor" });
    }
  });

  it("overall: refused -32600 with scope receiver", () => {
    const h = new Harness({ maxTasksPerOwner: 10, maxTasks: 2 });
    h.create("a");
    h.create("b", { owner: BOB });
    const e = errorOf(h.feed({ type: "create", id: 9, taskId: "c", owner: { session: "carol" }, method: "tools/call" }));
    assert.deepEqual(e.error.data, { limit: 2, scope: "receiver" });
    assert.match(e.error.message, /Task limit reached/);
  });

  it("per owner: at the limit the owner's task that finished longest ago makes room (MAY delete regardless of status), so only unfinished tasks refuse a new one", () => {
    const h = new Harness({ maxTasksPerOwner: 3, maxTasks: 10 });
    h.create("a");
    h.create("b");
    h.create("c");
    h.feed({ type: "settle", taskId: "b", result: { content: [] } });
    h.now += 1000;
    h.feed({ type: "settle", taskId: "a", result: { content: [] } });
    const out = h.feed({ type: "create", id: 60, taskId: "d", owner: ALICE, method: "tools/call" });
    assert.equal(ofType(out, "reply").length, 1);
    assert.deepEqual(ofType(out, "expired").map((o) => o.taskId), ["b"], "finished longest ago, not created first");
    assert.equal(errorOf(h.request("tasks/get", { taskId: "b" }).out).error.code, ErrorCode.InvalidParams);
    assert.equal(h.status("a"), "completed");
    h.create("e"); // a makes room
    assert.deepEqual(errorOf(h.feed({ type: "create", id: 61, taskId: "f", owner: ALICE, method: "tools/call" })).error.data, { limit: 3, scope: "requestor" });
    assert.equal(h.state.count, 3);
  });

  it("at a limit a finished task whose outcome the requestor already retrieved (tasks/result) makes room before an unread one that finished earlier", () => {
    const h = new Harness({ maxTasksPerOwner: 2, maxTasks: 10 });
    h.create("a");
    h.create("b");
    h.feed({ type: "settle", taskId: "a", result: { content: [] } });
    h.now += 60_000;
    h.feed({ type: "settle", taskId: "b", result: { content: [] } });
    assert.equal(ofType(h.request("tasks/result", { taskId: "b" }).out, "reply").length, 1);
    const out = h.feed({ type: "create", id: 62, taskId: "c", owner: ALICE, method: "tools/call" });
    assert.deepEqual(ofType(out, "expired").map((o) => o.taskId), ["b"], "the retrieved one, not the unread a");
    assert.equal(h.status("a"), "completed");
    // The extension's tasks/get inlines a finished task's outcome: that retrieves it too.
    const x = new Harness({ era: "extension", maxTasksPerOwner: 2, maxTasks: 10 });
    x.create("a");
    x.create("b");
    x.feed({ type: "settle", taskId: "a", result: { content: [] } });
    x.now += 60_000;
    x.feed({ type: "settle", taskId: "b", result: { content: [] } });
    assert.equal(x.get("b").status, "completed");
    assert.deepEqual(ofType(x.feed({ type: "create", id: 63, taskId: "c", owner: ALICE, method: "tools/call" }), "expired").map((o) => o.taskId), ["b"]);
  });

  it("the anonymous owner {} (clients of a stateless server without authorization) is no one requestor: maxTasksPerOwner does not bind it; it may hold half of maxTasks, so identified requestors still get in, and its finished tasks make room", () => {
    const h = new Harness({ maxTasksPerOwner: 2, maxTasks: 6 });
    const create = (t: string) => h.feed({ type: "create", id: t, taskId: t, owner: {}, method: "tools/call" });
    for (const t of ["a", "b", "c"]) assert.equal(ofType(create(t), "reply").length, 1, t);
    assert.deepEqual(errorOf(create("d")).error.data, { limit: 3, scope: "requestor" });
    assert.equal(ofType(h.feed({ type: "create", id: "x", taskId: "x", owner: BOB, method: "tools/call" }), "reply").length, 1, "an identified requestor is not locked out");
    h.feed({ type: "settle", taskId: "b", result: { content: [] } });
    const out = create("e");
    assert.equal(ofType(out, "reply").length, 1);
    assert.deepEqual(ofType(out, "expired").map((o) => o.taskId), ["b"]);
    // Half of a table of one is nothing: callers without an identity cannot hold its only slot.
    const one = new Harness({ maxTasks: 1 });
    assert.deepEqual(errorOf(one.feed({ type: "create", id: "y", taskId: "y", owner: {}, method: "tools/call" })).error.data, { limit: 0, scope: "requestor" });
    assert.equal(ofType(one.feed({ type: "create", id: "z", taskId: "z", owner: BOB, method: "tools/call" }), "reply").length, 1);
  });

  it("overall: a full table makes room only from the creating requestor's own finished tasks, never another requestor's unread results", () => {
    const h = new Harness({ maxTasksPerOwner: 10, maxTasks: 3 });
    h.create("a");
    h.create("b");
    h.create("c", { owner: BOB });
    h.feed({ type: "settle", taskId: "a", result: { content: [] } });
    h.feed({ type: "settle", taskId: "c", result: { content: [] } });
    // Carol has nothing finished: refused, and alice's and bob's results stay.
    assert.deepEqual(errorOf(h.feed({ type: "create", id: 70, taskId: "d", owner: { session: "carol" }, method: "tools/call" })).error.data, { limit: 3, scope: "receiver" });
    assert.equal(h.state.count, 3);
    // Bob gives up his own finished task.
    const out = h.feed({ type: "create", id: 71, taskId: "e", owner: BOB, method: "tools/call" });
    assert.equal(ofType(out, "reply").length, 1);
    assert.deepEqual(ofType(out, "expired").map((o) => o.taskId), ["c"]);
    assert.equal(h.status("a"), "completed");
  });
});
