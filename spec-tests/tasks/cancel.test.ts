/**
 * 2025-11-25 `basic/utilities/tasks` § "Task Cancellation" and the extension's "Task
 * Cancellation" (SEP-2663): terminal rejection, cancelled is final, races with completion.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { ALICE, errorOf, Harness, ofType, replyOf } from "./helpers.js";

describe("tasks § Task Cancellation (2025-11-25)", () => {
  it("MUST transition the task to cancelled before sending the response; the response is the cancelled task", () => {
    const h = new Harness({ notifications: "all" });
    h.create("t", { ttl: 30000 });
    const { id, out } = h.request("tasks/cancel", { taskId: "t" });
    assert.deepEqual(ofType(out, "cancel-requested"), [{ type: "cancel-requested", taskId: "t", owner: ALICE }], "SHOULD attempt to stop: the application is told");
    const types = out.map((o) => o.type);
    assert.ok(types.indexOf("notify") < types.indexOf("reply"), "the transition happens before the response");
    const r = replyOf(out);
    assert.equal(r.id, id);
    assert.equal(r.result.status, "cancelled");
    assert.equal(r.result.statusMessage, "The task was cancelled by request.");
    assert.equal(r.result.ttl, 30000);
    assert.equal(r.result._meta, undefined);
    assert.equal(h.status("t"), "cancelled");
  });

  it("MUST reject cancellation of a task already terminal with -32602 (completed, failed, cancelled)", () => {
    const h = new Harness();
    h.create("a");
    h.feed({ type: "settle", taskId: "a", result: {} });
    h.create("b");
    h.feed({ type: "settle", taskId: "b", error: { code: ErrorCode.InternalError, message: "x" } });
    h.create("c");
    h.request("tasks/cancel", { taskId: "c" });
    for (const [taskId, status] of [["a", "completed"], ["b", "failed"], ["c", "cancelled"]]) {
      const e = errorOf(h.request("tasks/cancel", { taskId }).out).error;
      assert.deepEqual(e, { code: ErrorCode.InvalidParams, message: `Cannot cancel task: already in terminal status '${status}'` });
    }
  });

  it("race, cancel first: once cancelled it MUST remain cancelled even if execution completes or fails", () => {
    const h = new Harness();
    h.create("t");
    h.request("tasks/cancel", { taskId: "t" });
    const late = h.feed({ type: "settle", taskId: "t", result: { content: [] } });
    assert.equal(ofType(late, "diagnostic")[0].code, "task-cancelled");
    const late2 = h.feed({ type: "update-status", taskId: "t", status: "failed", error: { code: -32603, message: "x" } });
    assert.equal(ofType(late2, "diagnostic")[0].code, "task-cancelled");
    assert.equal(h.status("t"), "cancelled");
  });

  it("race, completion first: the cancel is rejected -32602 and the result stands", () => {
    const h = new Harness();
    h.create("t");
    h.feed({ type: "settle", taskId: "t", result: { content: [], isError: false } });
    assert.equal(errorOf(h.request("tasks/cancel", { taskId: "t" }).out).error.code, ErrorCode.InvalidParams);
    assert.equal(h.status("t"), "completed");
    assert.equal(replyOf(h.request("tasks/result", { taskId: "t" }).out).result.isError, false);
  });

  it("a blocked tasks/result is answered once when the task is cancelled; later ones get the same error", () => {
    const h = new Harness();
    h.create("t");
    const { id } = h.request("tasks/result", { taskId: "t" });
    const out = h.request("tasks/cancel", { taskId: "t" }).out;
    const released = ofType(out, "reply-error");
    assert.equal(released.length, 1);
    assert.equal(released[0].id, id);
    assert.equal(released[0].deferred, true);
    assert.equal(released[0].error.code, ErrorCode.InternalError);
    assert.deepEqual(released[0].error.data, { taskId: "t", status: "cancelled" });
    assert.deepEqual(errorOf(h.request("tasks/result", { taskId: "t" }).out).error, released[0].error);
  });

  it("the typed cancel input behaves like the tasks/cancel request", () => {
    const h = new Harness();
    h.create("t");
    const r = replyOf(h.feed({ type: "cancel", id: 40, owner: ALICE, taskId: "t" }));
    assert.equal(r.id, 40);
    assert.equal(r.result.status, "cancelled");
  });

  it("an input_required task can be cancelled; its outstanding input is dropped", () => {
    const h = new Harness();
    h.create("t");
    h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { k: { method: "roots/list" } } });
    h.request("tasks/cancel", { taskId: "t" });
    assert.equal(h.status("t"), "cancelled");
    assert.equal(h.state.tasks.t.inputRequests, undefined);
  });
});

describe("tasks extension § Task Cancellation (cooperative, ack-only)", () => {
  it("answers an empty ack with resultType complete; by default the task is cancelled at once", () => {
    const h = new Harness({ era: "extension" });
    h.create("t");
    const r = replyOf(h.request("tasks/cancel", { taskId: "t" }).out);
    assert.deepEqual(r.result, { resultType: "complete" });
    assert.equal(h.status("t"), "cancelled");
  });

  it("a terminal task is acknowledged, not rejected, and unchanged (race, completion first)", () => {
    const h = new Harness({ era: "extension" });
    h.create("t");
    h.feed({ type: "settle", taskId: "t", result: { content: [] } });
    const out = h.request("tasks/cancel", { taskId: "t" }).out;
    assert.deepEqual(replyOf(out).result, { resultType: "complete" });
    assert.equal(ofType(out, "cancel-requested").length, 0);
    assert.equal(h.status("t"), "completed");
  });

  it("cooperativeCancel: the ack only signals; the task MAY still complete (race, cancel first)", () => {
    const h = new Harness({ era: "extension", cooperativeCancel: true });
    h.create("t");
    const first = h.request("tasks/cancel", { taskId: "t" }).out;
    assert.equal(ofType(first, "cancel-requested").length, 1);
    assert.equal(ofType(h.request("tasks/cancel", { taskId: "t" }).out, "cancel-requested").length, 0, "signalled once");
    assert.equal(h.status("t"), "working");
    assert.equal(h.state.tasks.t.cancelRequested, true);
    h.feed({ type: "settle", taskId: "t", result: { content: [] } });
    assert.equal(h.status("t"), "completed");
    assert.equal(h.state.tasks.t.cancelRequested, undefined);
    h.create("u");
    h.request("tasks/cancel", { taskId: "u" });
    h.feed({ type: "update-status", taskId: "u", status: "cancelled" });
    assert.equal(h.status("u"), "cancelled");
  });
});
