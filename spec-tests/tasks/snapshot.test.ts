/**
 * Task state is plain JSON: snapshot mid-task, restore into a fresh table, finish there.
 * Spec: 2025-11-25 `basic/utilities/tasks` ("Tasks are durable state machines"); the
 * extension's "Crash resilience. A task ID is a durable handle".
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { restoreTasks, snapshotTasks, stepTasks, nextTaskDeadline } from "../../src/tasks/table.js";
import { ALICE, assertJson, errorOf, Harness, ofType, replyOf } from "./helpers.js";

describe("tasks: snapshot and restore", () => {
  it("a task waiting on input, with a blocked tasks/result, survives a restore and finishes in the new table", () => {
    const h = new Harness({ maxTasks: 7, notifications: "all" });
    h.create("t", { ttl: 60000, progressToken: "p" });
    const { id: waiter } = h.request("tasks/result", { taskId: "t" });
    h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { q: { method: "elicitation/create", params: {} } } });
    assertJson(h.state);
    const snap = snapshotTasks(h.state);

    const restored = restoreTasks(snap);
    assert.ok(restored.ok);
    const fresh = restored.state;
    assert.deepEqual(fresh, JSON.parse(snap));
    assert.equal(fresh.options.maxTasks, 7);
    assert.equal(nextTaskDeadline(fresh), nextTaskDeadline(h.state));

    const now = h.now + 5;
    const answered = stepTasks(fresh, { type: "input-response", now, taskId: "t", responses: { q: { action: "accept" } } }).outputs;
    assert.equal(ofType(answered, "input-responses").length, 1);
    const done = stepTasks(fresh, { type: "settle", now, taskId: "t", result: { content: [] } }).outputs;
    const released = ofType(done, "reply");
    assert.equal(released.length, 1);
    assert.equal(released[0].id, waiter);
    assert.deepEqual(released[0].owner, ALICE);
    // The old table is unaffected: separate state.
    assert.equal(h.status("t"), "input_required");
  });

  it("outputs share no owner object with the state, nor the state with the caller's input: editing an output's owner (notify, input-responses, cancel-requested, expired) or a waiter's owner after the step changes neither the tasks nor the snapshot (design card: outputs are values)", () => {
    const h = new Harness({ era: "extension", notifications: "all" });
    h.create("t", { ttl: 60000 });
    const waiterOwner = { ...ALICE };
    h.request("tasks/get", { taskId: "t" }, waiterOwner);
    const legacy = new Harness({ notifications: "all" });
    legacy.create("w", { ttl: 60000 });
    const blocked = { ...ALICE };
    legacy.request("tasks/result", { taskId: "w" }, blocked);
    blocked.session = "s-mallory";
    const outs = [
      ...h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { q: { method: "elicitation/create", params: {} } } }),
      ...h.feed({ type: "input-response", taskId: "t", responses: { q: { action: "accept" } } }),
      ...h.request("tasks/cancel", { taskId: "t" }).out,
    ];
    const before = snapshotTasks(h.state);
    const owners = outs.filter((o) => "owner" in o && (o.type === "notify" || o.type === "input-responses" || o.type === "cancel-requested"));
    assert.deepEqual(new Set(owners.map((o) => o.type)), new Set(["notify", "input-responses", "cancel-requested"]));
    for (const o of owners) (o as { owner: { session?: string } }).owner.session = "s-mallory";
    assert.equal(snapshotTasks(h.state), before);
    h.now += 60001;
    const expired = ofType(h.feed({ type: "tick" }), "expired");
    assert.equal(expired.length, 1);
    expired[0].owner.session = "s-mallory";
    assert.ok(!snapshotTasks(legacy.state).includes("s-mallory"), "the waiter's owner is the table's own copy");
    const done = ofType(stepTasks(legacy.state, { type: "settle", now: legacy.now, taskId: "w", result: { content: [] } }).outputs, "reply");
    assert.deepEqual(done[0].owner, ALICE);
  });

  it("the table keeps a copy of the outcome and input requests it is given: the application editing its objects later changes neither tasks/result nor the snapshot (README: the state shares no object with the application)", () => {
    const h = new Harness({ era: "extension" });
    const question = { method: "elicitation/create", params: { message: "ok?", requestedSchema: { type: "object", properties: {} } } };
    h.create("t");
    h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { q: question } });
    question.params.message = "EDITED";
    assert.deepEqual((h.get("t").inputRequests as any).q.params.message, "ok?");
    const result = { content: [{ type: "text", text: "v1" }] };
    h.feed({ type: "settle", taskId: "t", result });
    result.content[0].text = "EDITED";
    assert.deepEqual(h.get("t").result, { content: [{ type: "text", text: "v1" }] });
    assert.ok(!snapshotTasks(h.state).includes("EDITED"));
    const error = { code: -32000, message: "boom", data: { n: 1 } };
    h.create("u");
    h.feed({ type: "settle", taskId: "u", error });
    error.data.n = 2;
    assert.deepEqual(h.get("u").error, { code: -32000, message: "boom", data: { n: 1 } });
  });

  it("what a tasks/result, tasks/get or status push hands out is a copy: editing it (an intercept redacting the answer in place) changes neither later answers nor the snapshot", () => {
    const legacy = new Harness();
    legacy.create("t");
    legacy.feed({ type: "settle", taskId: "t", result: { content: [{ type: "text", text: "v1" }] } });
    for (let i = 0; i < 2; i++) {
      const r = replyOf(legacy.request("tasks/result", { taskId: "t" }).out).result as any;
      assert.equal(r.content[0].text, "v1");
      r.content[0].text += "!";
    }
    legacy.create("u");
    legacy.feed({ type: "settle", taskId: "u", error: { code: -32000, message: "boom", data: { n: 1 } } });
    (errorOf(legacy.request("tasks/result", { taskId: "u" }).out).error.data as any).n = 2;
    assert.deepEqual(errorOf(legacy.request("tasks/result", { taskId: "u" }).out).error.data, { n: 1 });
    const ext = new Harness({ era: "extension" });
    ext.create("t");
    const pushed = ofType(ext.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { q: { method: "roots/list", params: {} } } }), "notify")[0];
    (pushed.params.inputRequests as any).q.method = "EDITED";
    (ext.get("t").inputRequests as any).q.method = "EDITED";
    ext.feed({ type: "input-response", taskId: "t", responses: { q: { roots: [] } } });
    ext.feed({ type: "settle", taskId: "t", result: { content: [{ type: "text", text: "v1" }] } });
    (ext.get("t").result as any).content[0].text = "EDITED";
    assert.deepEqual(ext.get("t").result, { content: [{ type: "text", text: "v1" }] });
    assert.ok(!snapshotTasks(legacy.state).includes("!") && !snapshotTasks(ext.state).includes("EDITED"));
  });

  it("an outcome with no JSON form (a BigInt, a cycle) fails the task with the -32603 a plain answer gets, and the table stays snapshottable", () => {
    const h = new Harness();
    h.create("t");
    const { id: waiter } = h.request("tasks/result", { taskId: "t" });
    const out = h.feed({ type: "settle", taskId: "t", result: { content: [], _meta: { n: 1n } } as never });
    assert.equal(ofType(out, "diagnostic")[0]?.code, "bad-outcome");
    const replied = errorOf(out);
    assert.equal(replied.id, waiter);
    assert.deepEqual(replied.error, { code: -32603, message: "Internal error: message could not be encoded" });
    assert.equal(h.status("t"), "failed");
    assertJson(h.state);
    assert.doesNotThrow(() => snapshotTasks(h.state));
    // A function member is left out, as the wire leaves it out.
    h.create("f");
    h.feed({ type: "settle", taskId: "f", result: { content: [], _meta: { f() {} } } as never });
    assert.deepEqual(replyOf(h.request("tasks/result", { taskId: "f" }).out).result._meta, { "io.modelcontextprotocol/related-task": { taskId: "f" } });
    assertJson(h.state);
  });

  it("basic/index (an error has an integer code and a string message) + Tasks are durable state machines: an Error instance given as a task's error (a ProtocolError) fails it with its code and message, and a result whose JSON form is no object fails it with -32603; either way the snapshot restores", () => {
    const h = new Harness();
    h.create("e");
    h.create("d");
    h.create("ok");
    // An Error's message is no enumerable field: a JSON copy of it was { code }, no error at all.
    const thrown = Object.assign(new Error("quota exceeded"), { code: -32000, data: { retryAfterMs: 5 } });
    assert.deepEqual(ofType(h.feed({ type: "settle", taskId: "e", error: thrown as never }), "diagnostic"), []);
    assert.deepEqual(errorOf(h.request("tasks/result", { taskId: "e" }).out).error, { code: -32000, message: "quota exceeded", data: { retryAfterMs: 5 } });
    assert.equal(h.get("e").statusMessage, "quota exceeded");
    // A Date's JSON form is a string: no result object to hand out or restore.
    const out = h.feed({ type: "settle", taskId: "d", result: new Date(0) as never });
    assert.equal(ofType(out, "diagnostic")[0]?.code, "bad-outcome");
    assert.deepEqual(errorOf(h.request("tasks/result", { taskId: "d" }).out).error, { code: -32603, message: "Internal error: message could not be encoded" });
    h.feed({ type: "update-status", taskId: "ok", status: "completed", result: { toJSON: () => [1] } as never });
    assert.equal(h.status("ok"), "failed");
    assertJson(h.state);
    const restored = restoreTasks(snapshotTasks(h.state));
    assert.ok(restored.ok, restored.ok ? "" : restored.error);
    assert.equal(restored.state.count, 3);
  });

  // Found by review: restore came to check each record as the wire shows it, so a snapshot
  // an earlier version wrote (an Error kept as { code }, a Date result kept as its string)
  // was refused whole, and a server restoring it could not start.
  it("Tasks are durable state machines (snapshot and restore): a snapshot written before the table checked what it keeps (an error without its message, a result that is no object, a NULL statusMessage) restores; such an outcome reads as a failure naming why, the rest as it was", () => {
    const h = new Harness();
    h.create("e");
    h.create("d");
    h.create("m");
    h.create("fine");
    h.feed({ type: "settle", taskId: "fine", result: { content: [] } });
    const old = JSON.parse(snapshotTasks(h.state));
    Object.assign(old.tasks.e, { status: "failed", error: { code: -32000 } });
    Object.assign(old.tasks.d, { status: "completed", result: "1970-01-01T00:00:00.000Z" });
    Object.assign(old.tasks.m, { statusMessage: null });
    const restored = restoreTasks(JSON.stringify(old));
    assert.ok(restored.ok, restored.ok ? "" : restored.error);
    const again = new Harness();
    again.state = restored.state;
    for (const id of ["e", "d"]) {
      assert.equal(again.status(id), "failed", id);
      assert.equal(errorOf(again.request("tasks/result", { taskId: id }).out).error.code, -32603, id);
    }
    assert.equal(again.status("m"), "working");
    assert.equal(again.get("m").statusMessage, undefined);
    assert.deepEqual(replyOf(again.request("tasks/result", { taskId: "fine" }).out).result.content, []);
    assertJson(again.state);
    assert.ok(restoreTasks(snapshotTasks(again.state)).ok);
  });

  // Found by review: restore came to check each record's input requests as the wire shows
  // them, while the table kept the JSON copy of an input request checked before copying.
  it("Tasks are durable state machines (snapshot and restore): an input request whose params have a JSON form that is no object (a Date, a toJSON giving an array) is dropped with a diagnostic, as one with no JSON form is; it was kept as that string or array, and the table's snapshot no longer restored", () => {
    const h = new Harness();
    h.create("t");
    const out = h.feed({
      type: "update-status",
      taskId: "t",
      status: "input_required",
      inputRequests: { date: { method: "elicitation/create", params: new Date(0) as never }, list: { method: "roots/list", params: { toJSON: () => [1] } as never }, ok: { method: "roots/list", params: {} } },
    });
    assert.deepEqual(ofType(out, "diagnostic").map((d) => [d.code, (d.detail as { key?: string }).key]), [["bad-input-request", "date"], ["bad-input-request", "list"]]);
    assert.deepEqual(Object.keys(h.state.tasks.t.inputRequests ?? {}), ["ok"]);
    assertJson(h.state);
    const restored = restoreTasks(snapshotTasks(h.state));
    assert.ok(restored.ok, restored.ok ? "" : restored.error);
    assert.deepEqual(restored.state.tasks.t.inputRequests, { ok: { method: "roots/list", params: {} } });
  });

  it("restoring the parsed object works too; options are re-resolved", () => {
    const h = new Harness();
    h.create("t");
    const parsed = JSON.parse(snapshotTasks(h.state));
    parsed.options = { pageSize: -1 };
    const r = restoreTasks(parsed);
    assert.ok(r.ok);
    assert.equal(r.state.options.pageSize, 50);
  });

  it("a snapshot whose indexes disagree with its records is refused, never thrown (a later step would throw or let a limit drift), and the caller's object is never changed, even frozen", () => {
    const h = new Harness({ maxTasks: 4 });
    h.create("a");
    h.create("b");
    h.feed({ type: "settle", taskId: "a", result: { content: [] } });
    h.request("tasks/result", { taskId: "b" });
    const good = () => JSON.parse(snapshotTasks(h.state));
    const bad: [string, (s: any) => void][] = [
      ["count above the tasks held (every create refused for ever)", (s) => (s.count = 4)],
      ["count below them (maxTasks bypassed)", (s) => (s.count = 0)],
      ["a null record", (s) => (s.tasks.b = null)],
      ["a record under another id", (s) => (s.tasks.c = s.tasks.b)],
      ["a record whose time is not a number", (s) => (s.tasks.a.lastUpdatedAt = {})],
      ["a record of an unknown era", (s) => (s.tasks.a.era = "v9")],
      ["an owner's order that is no list", (s) => (s.owners[Object.keys(s.owners)[0]].order = 1.5)],
      ["an owner's order entry whose task id is no string", (s) => s.owners[Object.keys(s.owners)[0]].order.push([1, 2])],
      ["an owner's order entry whose seq is no number", (s) => s.owners[Object.keys(s.owners)[0]].order.push(["1", "a"])],
      ["an owner count that disagrees", (s) => (s.owners[Object.keys(s.owners)[0]].count = 7)],
      ["a waiter the waiting index does not name", (s) => (s.waiting = {})],
      ["a progress entry for no task", (s) => (s.progress = { x: "gone" })],
      ["a deadline that is no triple", (s) => (s.deadlines = [[1, 2]])],
      // These threw out of restoreTasks (a TypeError: not iterable) instead of being refused.
      ["a record's waiters that are a number, not a list", (s) => (s.tasks.b.waiters = 5)],
      ["a record's waiters that are an object, not a list", (s) => (s.tasks.b.waiters = {})],
    ];
    for (const [what, spoil] of bad) {
      const snap = good();
      spoil(snap);
      const r = restoreTasks(snap);
      assert.equal(r.ok, false, what);
    }
    const frozen = Object.freeze(good());
    const r = restoreTasks(frozen);
    assert.ok(r.ok, "a frozen snapshot object restores");
    assert.notEqual(r.state, frozen, "into a copy");
    const parsed = good();
    const options = parsed.options;
    restoreTasks(parsed);
    assert.equal(parsed.options, options, "the caller's object keeps its own options");
  });

  it("garbage is refused as a value, not thrown", () => {
    for (const bad of ["{", "null", "[]", JSON.stringify({ v: 2 }), JSON.stringify({ v: 1, tasks: {}, owners: {}, waiting: {}, progress: {}, count: -1, seq: 0, staleDeadlines: 0, deadlines: [] }), JSON.stringify({ v: 1, tasks: {}, owners: {}, waiting: {}, progress: {}, count: 0, seq: 0, staleDeadlines: 0, deadlines: {} }), 42]) {
      const r = restoreTasks(bad);
      assert.equal(r.ok, false, String(bad));
      if (!r.ok) assert.equal(typeof r.error, "string");
    }
  });
});

describe("tasks: options", () => {
  it("malformed options fall back to the documented defaults; pollInterval flows into tasks", async () => {
    const { resolveTaskOptions, TASK_TABLE_DEFAULTS } = await import("../../src/tasks/table.js");
    assert.deepEqual(resolveTaskOptions("x" as never), TASK_TABLE_DEFAULTS);
    assert.deepEqual(resolveTaskOptions(), TASK_TABLE_DEFAULTS);
    const bad = resolveTaskOptions({ era: "v9" as never, defaultTtlMs: -5, maxTtlMs: 1.5, maxTasks: NaN, pageSize: 0, notifications: "some" as never });
    assert.deepEqual(bad, TASK_TABLE_DEFAULTS);
    assert.equal(resolveTaskOptions({ maxTtlMs: null }).maxTtlMs, null);
    const h = new Harness({ pollIntervalMs: 1000 });
    assert.equal((h.create("a", { pollInterval: 250 }).task as { pollInterval: number }).pollInterval, 250);
    assert.equal((h.create("b", { pollInterval: -3 }).task as { pollInterval: number }).pollInterval, 1000);
    h.feed({ type: "update-status", taskId: "a", status: "working", pollInterval: 9000 });
    assert.equal(h.get("a").pollInterval, 9000, "the extension: pollIntervalMs MAY change");
  });
});
