/**
 * 2025-11-25 `basic/utilities/tasks`: creating, polling and retrieving results, the
 * input_required round trip over `tasks/result`, status notifications, progress.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { MetaKey } from "../../src/model/meta.js";
import { findTask, isWaiting, progressAllowed, resultStreams, snapshotTasks, stepTasks } from "../../src/tasks/table.js";
import { modelImmediateResponseOf, relatedTaskOf, withModelImmediateResponse, withRelatedTask } from "../../src/tasks/wire.js";
import { ALICE, BOB, errorOf, Harness, ofType, replyOf } from "./helpers.js";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TOOL_RESULT = { content: [{ type: "text", text: "72°F" }], isError: false };

describe("tasks § Creating Tasks", () => {
  it("a CreateTaskResult carries the task: working, ISO 8601 createdAt/lastUpdatedAt, the actual ttl, pollInterval", () => {
    const h = new Harness({ pollIntervalMs: 5000 });
    const r = h.create("786512e2", { ttl: 60000, statusMessage: "The operation is now in progress." });
    assert.deepEqual(r, {
      task: {
        taskId: "786512e2",
        status: "working",
        statusMessage: "The operation is now in progress.",
        createdAt: "2025-11-25T10:30:00.000Z",
        lastUpdatedAt: "2025-11-25T10:30:00.000Z",
        ttl: 60000,
        pollInterval: 5000,
      },
    });
  });

  it("the reply answers the task-augmented request's own id and goes to its owner", () => {
    const h = new Harness();
    const out = h.feed({ type: "create", id: "req-9", taskId: "t", owner: ALICE, method: "tools/call" });
    const r = replyOf(out);
    assert.equal(r.id, "req-9");
    assert.deepEqual(r.owner, ALICE);
    assert.equal(findTask(h.state, "t")!.requestId, "req-9");
    assert.equal(findTask(h.state, "t")!.method, "tools/call");
  });

  it("Receivers MAY override the requested ttl: capped at maxTtlMs; default when none asked; null only when unbounded", () => {
    const h = new Harness({ maxTtlMs: 1000, defaultTtlMs: 500 });
    assert.equal((h.create("a", { ttl: 5000 }).task as { ttl: number }).ttl, 1000);
    assert.equal((h.create("b").task as { ttl: number }).ttl, 500);
    assert.equal((h.create("c", { ttl: 10.7 }).task as { ttl: number }).ttl, 10);
    assert.equal((h.create("d", { ttl: -1 }).task as { ttl: number }).ttl, 500);
    const u = new Harness({ maxTtlMs: null, defaultTtlMs: null });
    assert.equal((u.create("e").task as { ttl: null }).ttl, null, "MUST include the actual ttl (or null for unlimited)");
    const capped = new Harness({ maxTtlMs: 900, defaultTtlMs: null });
    assert.equal((capped.create("f").task as { ttl: number }).ttl, 900);
  });

  it("model-immediate-response: the text rides in the CreateTaskResult's _meta", () => {
    const h = new Harness();
    const r = h.create("t", { modelImmediateResponse: "Working on it." });
    assert.equal(modelImmediateResponseOf(r), "Working on it.");
    assert.equal(modelImmediateResponseOf(withModelImmediateResponse({ _meta: { a: 1 } }, "x")), "x");
    assert.deepEqual(withModelImmediateResponse({ _meta: { a: 1 } }, "x")._meta, { a: 1, [MetaKey.modelImmediateResponse]: "x" });
    assert.equal(modelImmediateResponseOf({}), undefined);
    assert.deepEqual(withModelImmediateResponse({ task: {} }, "y"), { task: {}, _meta: { [MetaKey.modelImmediateResponse]: "y" } });
    assert.equal(modelImmediateResponseOf({ _meta: { [MetaKey.modelImmediateResponse]: 3 } }), undefined);
  });

  it("Task IDs MUST be unique: a duplicate, empty or non-string id, or a bad owner, is refused with -32603", () => {
    const h = new Harness();
    h.create("t");
    for (const input of [
      { taskId: "t", owner: ALICE, method: "tools/call" },
      { taskId: "", owner: ALICE, method: "tools/call" },
      { taskId: 7 as unknown as string, owner: ALICE, method: "tools/call" },
      { taskId: "u", owner: { session: 1 } as unknown as typeof ALICE, method: "tools/call" },
      { taskId: "u", owner: ALICE, method: 5 as unknown as string },
      { taskId: "u", owner: ALICE, method: "tools/call", era: "v3" as "legacy" },
    ]) {
      const out = h.feed({ type: "create", id: h.id(), ...input });
      assert.equal(errorOf(out).error.code, ErrorCode.InternalError, JSON.stringify(input));
    }
    assert.equal(h.state.count, 1);
    assert.equal(ofType(h.feed({ type: "create", id: null as unknown as number, taskId: "v", owner: ALICE, method: "m" }), "diagnostic").length, 1);
  });
  it("a tasks/* request the adapter got wrong — a malformed owner, an unknown dialect — is -32603 naming which, with no owner to leak to", () => {
    const h = new Harness();
    h.create("t");
    const cases: [string, Parameters<Harness["request"]>[2], Parameters<Harness["request"]>[3], RegExp][] = [
      ["owner", { session: 1 } as unknown as typeof ALICE, {}, /malformed task owner/],
      ["dialect", ALICE, { era: "v3" as "legacy" }, /unknown task dialect/],
    ];
    for (const [what, owner, extra, message] of cases) {
      for (const method of ["tasks/get", "tasks/list"]) {
        const reply = errorOf(h.request(method, method === "tasks/get" ? { taskId: "t" } : {}, owner, extra).out);
        assert.equal(reply.error.code, ErrorCode.InternalError, `${what} ${method}`);
        assert.match(reply.error.message, message, `${what} ${method}`);
        assert.deepEqual(reply.owner, {}, `${what} ${method}`);
      }
    }
  });
});

describe("tasks § Getting Tasks / Retrieving Task Results", () => {
  it("tasks/get returns the task without related-task _meta (SHOULD NOT, the taskId is in the result)", () => {
    const h = new Harness();
    h.create("t");
    h.now += 1000;
    h.feed({ type: "update-status", taskId: "t", status: "working", statusMessage: "50%" });
    const got = h.get("t");
    assert.equal(got.status, "working");
    assert.equal(got.statusMessage, "50%");
    assert.match(got.lastUpdatedAt as string, ISO);
    assert.equal(got.lastUpdatedAt, "2025-11-25T10:30:01.000Z");
    assert.equal(got._meta, undefined);
  });

  it("the taskId parameter is the source of truth: related-task _meta in the request MUST be ignored", () => {
    const h = new Harness();
    h.create("a");
    h.create("b");
    h.feed({ type: "settle", taskId: "b", result: {} });
    const got = replyOf(h.request("tasks/get", { taskId: "a", _meta: { [MetaKey.relatedTask]: { taskId: "b" } } }).out).result;
    assert.equal(got.taskId, "a");
    assert.equal(got.status, "working");
  });

  it("tasks/result on a completed task returns exactly the result, with related-task _meta merged in (MUST)", () => {
    const h = new Harness();
    h.create("t");
    h.feed({ type: "settle", taskId: "t", result: { ...TOOL_RESULT, _meta: { keep: true } } });
    const r = replyOf(h.request("tasks/result", { taskId: "t" }).out);
    assert.deepEqual(r.result, { ...TOOL_RESULT, _meta: { keep: true, [MetaKey.relatedTask]: { taskId: "t" } } });
    assert.equal(r.deferred, undefined);
    assert.equal(relatedTaskOf(r.result), "t");
  });

  it("If the underlying request resulted in a JSON-RPC error, tasks/result MUST return that same error; statusMessage explains", () => {
    const h = new Harness();
    h.create("t");
    const error = { code: ErrorCode.InternalError, message: "API rate limit exceeded", data: { retry: 5 } };
    h.feed({ type: "settle", taskId: "t", error });
    assert.deepEqual(errorOf(h.request("tasks/result", { taskId: "t" }).out).error, error);
    assert.equal(h.status("t"), "failed");
    assert.equal(h.get("t").statusMessage, "API rate limit exceeded", "tasks/get SHOULD include a statusMessage for failures");
  });

  it("a tool result with isError: the task is failed and tasks/result returns the tool result", () => {
    const h = new Harness();
    h.create("t");
    h.feed({ type: "settle", taskId: "t", result: { content: [], isError: true }, statusMessage: "tool failed" });
    assert.equal(h.status("t"), "failed");
    assert.equal(h.get("t").statusMessage, "tool failed");
    assert.equal(replyOf(h.request("tasks/result", { taskId: "t" }).out).result.isError, true);
  });

  it("settle refuses anything but exactly one outcome, and settling twice", () => {
    const h = new Harness();
    h.create("t");
    assert.equal(ofType(h.feed({ type: "settle", taskId: "t" }), "diagnostic")[0].code, "bad-outcome");
    assert.equal(ofType(h.feed({ type: "settle", taskId: "t", result: {}, error: { code: 1, message: "m" } }), "diagnostic")[0].code, "bad-outcome");
    h.feed({ type: "settle", taskId: "t", result: {} });
    assert.equal(ofType(h.feed({ type: "settle", taskId: "t", result: { again: 1 } }), "diagnostic")[0].code, "illegal-transition");
    assert.equal(ofType(h.feed({ type: "settle", taskId: "nope", result: {} }), "diagnostic")[0].code, "unknown-task");
  });

  it("a failed update-status keeps its own statusMessage and accepts a legacy isError result; the extension does not", () => {
    const h = new Harness();
    h.create("t");
    h.feed({ type: "update-status", taskId: "t", status: "failed", error: { code: -32603, message: "e" }, statusMessage: "mine" });
    assert.equal(h.get("t").statusMessage, "mine");
    h.create("u");
    h.feed({ type: "update-status", taskId: "u", status: "failed", result: { isError: true } });
    assert.equal(h.status("u"), "failed");
    h.create("x", { era: "extension" });
    const out = h.feed({ type: "update-status", taskId: "x", status: "failed", result: { isError: true } });
    assert.equal(ofType(out, "diagnostic")[0].code, "bad-outcome");
  });
});

describe("tasks § Result Retrieval: tasks/result MUST block until terminal", () => {
  it("waits across input_required, delivers input requests on its stream with related-task _meta, and is released exactly once", () => {
    const h = new Harness();
    h.create("t");
    const { id: waitId, out: w } = h.request("tasks/result", { taskId: "t" });
    assert.deepEqual(ofType(w, "waiting"), [{ type: "waiting", id: waitId, owner: ALICE, taskId: "t" }]);
    assert.equal(ofType(w, "reply").length + ofType(w, "reply-error").length, 0, "no answer yet");
    assert.equal(isWaiting(h.state, ALICE, waitId), true);
    assert.deepEqual(resultStreams(h.state, "t"), [waitId]);

    // The task needs input: the elicitation goes out on the blocked tasks/result stream.
    const elicit = { method: "elicitation/create", params: { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: {} } } };
    const ir = h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { name: elicit } });
    const sent = ofType(ir, "input-requests");
    assert.equal(sent.length, 1);
    assert.equal(sent[0].stream, waitId);
    assert.deepEqual(sent[0].requests.name.params!._meta, { [MetaKey.relatedTask]: { taskId: "t" } }, "MUST include related-task in the request");
    assert.equal(h.status("t"), "input_required");

    // The answer comes back; the task resumes; still no reply to tasks/result.
    const resp = h.feed({ type: "input-response", taskId: "t", responses: { name: { action: "accept", content: { name: "Luca" } } } });
    assert.deepEqual(ofType(resp, "input-responses")[0].responses, { name: { action: "accept", content: { name: "Luca" } } });
    assert.equal(h.status("t"), "working", "SHOULD transition out of input_required when all input arrived");
    assert.equal(ofType(resp, "reply").length, 0);

    // Completion releases the waiter, once.
    const done = h.feed({ type: "settle", taskId: "t", result: TOOL_RESULT });
    const released = ofType(done, "reply");
    assert.equal(released.length, 1);
    assert.equal(released[0].id, waitId);
    assert.equal(released[0].deferred, true);
    assert.equal(relatedTaskOf(released[0].result), "t");
    assert.equal(isWaiting(h.state, ALICE, waitId), false);
    // Nothing later answers it again.
    const later = [...h.feed({ type: "tick" }), ...h.feed({ type: "update-status", taskId: "t", status: "working" })];
    assert.equal(ofType(later, "reply").length, 0);
    h.now += 10 * 3_600_000;
    assert.equal(ofType(h.feed({ type: "tick" }), "reply-error").length, 0, "expiry does not answer a released waiter");
  });

  it("input requests already outstanding go to a tasks/result that arrives later; a second waiter shares the answer", () => {
    const h = new Harness();
    h.create("t");
    h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { a: { method: "sampling/createMessage", params: {} }, b: { method: "roots/list" } } });
    const first = h.request("tasks/result", { taskId: "t" });
    assert.deepEqual(Object.keys(ofType(first.out, "input-requests")[0].requests), ["a", "b"]);
    assert.deepEqual(ofType(first.out, "input-requests")[0].requests.b.params, { _meta: { [MetaKey.relatedTask]: { taskId: "t" } } });
    const second = h.request("tasks/result", { taskId: "t" });
    assert.equal(ofType(second.out, "input-requests").length, 0, "already delivered on the first stream");
    // Partial answers are fine; the task stays input_required until all are in.
    h.feed({ type: "input-response", taskId: "t", responses: { a: { role: "assistant" } } });
    assert.equal(h.status("t"), "input_required");
    const done = h.feed({ type: "settle", taskId: "t", result: {} });
    assert.deepEqual(ofType(done, "reply").map((r) => r.id), [first.id, second.id]);
  });

  it("an abandoned stream's undelivered input is re-sent on the next waiter; abandon without id drops all of an owner's", () => {
    const h = new Harness();
    h.create("t");
    const a = h.request("tasks/result", { taskId: "t" });
    const b = h.request("tasks/result", { taskId: "t" });
    const ir = h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { k: { method: "elicitation/create", params: {} } } });
    assert.equal(ofType(ir, "input-requests")[0].stream, b.id, "the newest stream");
    const ab = h.feed({ type: "abandon", owner: ALICE, id: b.id });
    assert.equal(ofType(ab, "input-requests")[0].stream, a.id, "re-sent on the remaining stream");
    assert.deepEqual(resultStreams(h.state, "t"), [a.id]);
    assert.equal(ofType(h.feed({ type: "abandon", owner: ALICE, id: b.id }), "diagnostic")[0].code, "no-waiter");
    h.request("tasks/result", { taskId: "t" });
    h.feed({ type: "abandon", owner: ALICE });
    assert.deepEqual(resultStreams(h.state, "t"), []);
    assert.deepEqual(h.state.waiting, {});
    assert.equal(ofType(h.feed({ type: "settle", taskId: "t", result: {} }), "reply").length, 0, "abandoned waiters get no answer");
    assert.equal(ofType(h.feed({ type: "abandon", owner: null as unknown as typeof ALICE }), "diagnostic")[0].code, "bad-owner");
    assert.equal(ofType(h.feed({ type: "abandon", owner: ALICE, id: 1.5 }), "diagnostic")[0].code, "bad-request-id");
  });

  it("leaving input_required drops unanswered requests; answers for unknown keys are ignored; keys are never reused", () => {
    const h = new Harness();
    h.create("t");
    h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { k: { method: "roots/list" } } });
    h.feed({ type: "update-status", taskId: "t", status: "working" });
    assert.equal(findTask(h.state, "t")!.inputRequests, undefined);
    const late = h.feed({ type: "input-response", taskId: "t", responses: { k: {} } });
    assert.equal(ofType(late, "input-responses").length, 0);
    assert.equal(ofType(late, "diagnostic")[0].code, "input-response-ignored");
    const reuse = h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { k: { method: "roots/list" }, bad: { nope: 1 } as never } });
    assert.deepEqual(ofType(reuse, "diagnostic").map((d) => d.code).sort(), ["bad-input-request", "input-key-reused"]);
    const stray = h.feed({ type: "update-status", taskId: "t", status: "working", inputRequests: { z: { method: "roots/list" } } });
    assert.equal(ofType(stray, "diagnostic")[0].code, "bad-input-request");
    assert.equal(ofType(h.feed({ type: "input-response", taskId: "t", responses: [] as never }), "diagnostic")[0].code, "bad-input");
  });

  it("README diagnostics (bad-input): an input without a finite now, or of an unknown type, is a bad-input diagnostic and changes nothing", () => {
    const h = new Harness();
    h.create("t", { ttl: 1000 });
    const kept = snapshotTasks(h.state);
    // A clock reading past the task's TTL, were it one, would expire the task.
    for (const input of [{ type: "tick", now: NaN }, { type: "tick", now: Infinity }, { type: "tick", now: String(h.now + 5000) }, { type: "tick" }, { type: "nope", now: h.now }]) {
      const out = stepTasks(h.state, input as never).outputs;
      assert.deepEqual(out.map((o) => (o.type === "diagnostic" ? o.code : o.type)), ["bad-input"], JSON.stringify(input));
      assert.equal(snapshotTasks(h.state), kept, JSON.stringify(input));
    }
  });

  it("with resumeWhenAnswered off the task stays input_required until the application moves it", () => {
    const h = new Harness({ resumeWhenAnswered: false });
    h.create("t");
    h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { k: { method: "roots/list" } } });
    h.feed({ type: "input-response", taskId: "t", responses: { k: { roots: [] } } });
    assert.equal(h.status("t"), "input_required");
  });

  it("a duplicate tasks/result id is not recorded twice", () => {
    const h = new Harness();
    h.create("t");
    h.feed({ type: "result", id: 77, owner: ALICE, taskId: "t" });
    const dup = h.feed({ type: "result", id: 77, owner: ALICE, taskId: "t" });
    assert.equal(ofType(dup, "diagnostic")[0].code, "duplicate-waiter");
    assert.equal(ofType(h.feed({ type: "settle", taskId: "t", result: {} }), "reply").length, 1);
  });
});

describe("tasks § Task Status Notification (MAY; option)", () => {
  it("off by default; 'all' sends the full Task on every status change, without related-task _meta", () => {
    const quiet = new Harness();
    quiet.create("t");
    assert.equal(ofType(quiet.feed({ type: "settle", taskId: "t", result: {} }), "notify").length, 0);

    const h = new Harness({ notifications: "all" });
    h.create("t", { ttl: 60000 });
    const n1 = ofType(h.feed({ type: "update-status", taskId: "t", status: "input_required" }), "notify");
    assert.equal(n1.length, 1);
    assert.equal(n1[0].method, "notifications/tasks/status");
    assert.equal(n1[0].params.status, "input_required");
    assert.equal(n1[0].params.ttl, 60000);
    assert.equal(n1[0].params._meta, undefined, "SHOULD NOT include related-task");
    assert.equal(ofType(h.feed({ type: "update-status", taskId: "t", status: "input_required", statusMessage: "still" }), "notify").length, 0, "no status change, no notification");
    assert.equal(ofType(h.feed({ type: "settle", taskId: "t", result: {} }), "notify")[0].params.status, "completed");
  });

  it("'terminal' sends only terminal changes", () => {
    const h = new Harness({ notifications: "terminal" });
    h.create("t");
    assert.equal(ofType(h.feed({ type: "update-status", taskId: "t", status: "input_required" }), "notify").length, 0);
    assert.equal(ofType(h.feed({ type: "update-status", taskId: "t", status: "cancelled" }), "notify").length, 1);
  });
});

describe("tasks § Task Progress Notifications", () => {
  it("The progressToken remains valid throughout the task lifetime: allowed until terminal, then not", () => {
    const h = new Harness();
    h.create("t", { progressToken: "p1" });
    h.create("u", { progressToken: 5 });
    assert.equal(progressAllowed(h.state, ALICE, "p1"), true);
    assert.equal(progressAllowed(h.state, ALICE, 5), true);
    assert.equal(progressAllowed(h.state, BOB, "p1"), false, "tokens are per owner");
    assert.equal(progressAllowed(h.state, ALICE, "5"), false, "string and number tokens differ");
    h.feed({ type: "update-status", taskId: "t", status: "input_required" });
    assert.equal(progressAllowed(h.state, ALICE, "p1"), true);
    h.feed({ type: "settle", taskId: "t", result: {} });
    assert.equal(progressAllowed(h.state, ALICE, "p1"), false);
    assert.equal(progressAllowed(h.state, {} as never, "p1"), false);
    assert.equal(progressAllowed(h.state, null as never, "p1"), false);
    assert.equal(progressAllowed(h.state, ALICE, {} as never), false);
  });

  it("a token reused by a later task stays that task's when the earlier one ends", () => {
    const h = new Harness();
    h.create("a", { progressToken: "p" });
    h.create("b", { progressToken: "p" });
    h.feed({ type: "settle", taskId: "a", result: {} });
    assert.equal(progressAllowed(h.state, ALICE, "p"), true);
  });

  it("the extension supports no progress on tasks", () => {
    const h = new Harness({ era: "extension" });
    h.create("t", { progressToken: "p" });
    assert.equal(progressAllowed(h.state, ALICE, "p"), false);
    assert.equal(findTask(h.state, "t")!.progressToken, undefined);
  });
});

describe("tasks § Related Task Metadata helpers", () => {
  it("withRelatedTask merges into existing _meta; relatedTaskOf reads it back or undefined", () => {
    assert.deepEqual(withRelatedTask({ a: 1 }, "x"), { a: 1, _meta: { [MetaKey.relatedTask]: { taskId: "x" } } });
    assert.deepEqual(withRelatedTask({ _meta: [] as never }, "x")._meta, { [MetaKey.relatedTask]: { taskId: "x" } });
    assert.equal(relatedTaskOf(undefined), undefined);
    assert.equal(relatedTaskOf({ _meta: null as never }), undefined);
    assert.equal(relatedTaskOf({ _meta: { [MetaKey.relatedTask]: "x" } }), undefined);
    assert.equal(relatedTaskOf({ _meta: { [MetaKey.relatedTask]: { taskId: 1 } } }), undefined);
  });
});

describe("tasks § TTL and Resource Management: createdAt / lastUpdatedAt MUST be ISO 8601", () => {
  it("isoTime writes exactly what Date.prototype.toISOString writes, across the whole range", async () => {
    const { isoTime } = await import("../../src/tasks/wire.js");
    const samples = [0, -1, 1, 86_399_999, 86_400_000, 951_782_400_000, 951_868_799_999, 4_107_542_399_999, 1_700_000_000_123, -62_135_596_800_000, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000, 8.64e15, -8.64e15, 1.5];
    for (let i = 0; i < 5000; i++) samples.push(Math.floor((i * 2_654_435_761) % 400_000_000_000_000) - 62_000_000_000_000);
    for (const ms of samples) assert.equal(isoTime(ms), new Date(ms).toISOString(), String(ms));
    assert.equal(isoTime(5), isoTime(5), "repeat of the last value");
  });
});
