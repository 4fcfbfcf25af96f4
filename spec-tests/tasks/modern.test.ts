/**
 * The tasks extension, `io.modelcontextprotocol/tasks` (SEP-2663 and
 * `docs/extensions/tasks/overview`), through the same reducer: method set, result shapes,
 * `tasks/update`, notifications, negotiation fallback, routing headers.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { TASKS_EXTENSION } from "../../src/model/meta.js";
import {
  declaresTasksExtension,
  gateExtensionRequest,
  mayReturnTask,
  missingTasksExtension,
  TASK_DIALECTS,
  TASK_ROUTING_HEADERS,
  taskEraOf,
  taskRoutingHeaders,
} from "../../src/tasks/modern.js";
import { ALICE, errorOf, Harness, ofType, replyOf } from "./helpers.js";

const EXT_CAPS = { extensions: { [TASKS_EXTENSION]: {} } };

describe("tasks extension § methods", () => {
  it("defines tasks/get, tasks/update, tasks/cancel; the legacy feature tasks/get, tasks/result, tasks/list, tasks/cancel", () => {
    assert.deepEqual([...TASK_DIALECTS.extension.methods].sort(), ["tasks/cancel", "tasks/get", "tasks/update"]);
    assert.deepEqual([...TASK_DIALECTS.legacy.methods].sort(), ["tasks/cancel", "tasks/get", "tasks/list", "tasks/result"]);
    assert.deepEqual(TASK_DIALECTS.extension.augmentable, ["tools/call"]);
  });

  it("tasks/result is removed: clients calling it MUST receive -32601; tasks/list likewise", () => {
    const h = new Harness({ era: "extension" });
    h.create("t");
    for (const m of ["tasks/result", "tasks/list", "tasks/other"]) {
      const e = errorOf(h.request(m, { taskId: "t" }).out).error;
      assert.equal(e.code, ErrorCode.MethodNotFound, m);
    }
    assert.equal(errorOf(h.feed({ type: "result", id: 1, owner: ALICE, taskId: "t" })).error.code, ErrorCode.MethodNotFound);
    assert.equal(errorOf(h.feed({ type: "list", id: 2, owner: ALICE })).error.code, ErrorCode.MethodNotFound);
    assert.deepEqual(h.state.waiting, {});
  });

  it("the legacy dialect has no tasks/update (-32601)", () => {
    const h = new Harness();
    h.create("t");
    assert.equal(errorOf(h.request("tasks/update", { taskId: "t", inputResponses: {} }).out).error.code, ErrorCode.MethodNotFound);
    assert.equal(errorOf(h.request(7 as never, {}).out).error.code, ErrorCode.MethodNotFound);
  });
});

describe("tasks extension § Task Creation and Polling", () => {
  it("CreateTaskResult is the task itself with resultType task, ttlMs and pollIntervalMs", () => {
    const h = new Harness({ era: "extension", pollIntervalMs: 5000 });
    const r = h.create("786512e2", { ttl: 3600000 });
    assert.deepEqual(r, {
      resultType: "task",
      taskId: "786512e2",
      status: "working",
      createdAt: "2025-11-25T10:30:00.000Z",
      lastUpdatedAt: "2025-11-25T10:30:00.000Z",
      ttlMs: 3600000,
      pollIntervalMs: 5000,
    });
  });

  it("A server MUST NOT return CreateTaskResult until tasks/get for it would resolve", () => {
    const h = new Harness({ era: "extension" });
    h.create("t");
    assert.equal(h.get("t").status, "working");
  });

  it("tasks/get: resultType complete and the status-specific payload (inputRequests, result, error)", () => {
    const h = new Harness({ era: "extension" });
    h.create("w");
    assert.deepEqual(Object.keys(h.get("w")).sort(), ["createdAt", "lastUpdatedAt", "resultType", "status", "taskId", "ttlMs"]);
    assert.equal(h.get("w").resultType, "complete");

    h.create("i");
    const elicit = { method: "elicitation/create", params: { mode: "form", message: "Please enter your name.", requestedSchema: { type: "object" } } };
    h.feed({ type: "update-status", taskId: "i", status: "input_required", inputRequests: { name: elicit } });
    assert.deepEqual(h.get("i").inputRequests, { name: elicit }, "MUST contain all outstanding requests");
    assert.deepEqual(h.get("i").inputRequests, { name: elicit }, "the same snapshot again on the next poll");
    h.create("i2");
    h.feed({ type: "update-status", taskId: "i2", status: "input_required" });
    assert.deepEqual(h.get("i2").inputRequests, {});

    h.create("c");
    const toolError = { content: [{ type: "text", text: "Failed to process request: invalid input" }], isError: true };
    h.feed({ type: "settle", taskId: "c", result: toolError });
    const c = h.get("c");
    assert.equal(c.status, "completed", "isError results MUST use completed, not failed");
    assert.deepEqual(c.result, toolError);

    h.create("f");
    const error = { code: ErrorCode.InternalError, message: "API rate limit exceeded" };
    h.feed({ type: "settle", taskId: "f", error, statusMessage: "Tool execution failed: API rate limit exceeded" });
    const f = h.get("f");
    assert.equal(f.status, "failed");
    assert.deepEqual(f.error, error, "MUST include the error field with the JSON-RPC error");
    assert.equal(f.statusMessage, "Tool execution failed: API rate limit exceeded");

    h.create("x");
    h.request("tasks/cancel", { taskId: "x" });
    const x = h.get("x");
    assert.equal(x.status, "cancelled");
    assert.equal("result" in x || "error" in x || "inputRequests" in x, false);
  });

  it("unknown taskId: -32602 (MUST for tasks/get, SHOULD for update and cancel)", () => {
    const h = new Harness({ era: "extension" });
    for (const [m, p] of [["tasks/get", {}], ["tasks/update", { inputResponses: {} }], ["tasks/cancel", {}]] as const) {
      assert.equal(errorOf(h.request(m, { taskId: "nope", ...p }).out).error.code, ErrorCode.InvalidParams, m);
      assert.equal(errorOf(h.request(m, { ...p }).out).error.code, ErrorCode.InvalidParams, m + " without taskId");
    }
    assert.equal(errorOf(h.request("tasks/get", "x" as never).out).error.code, ErrorCode.InvalidParams);
  });
});

describe("tasks extension § Task Update Requests", () => {
  it("the SEP's hello_world flow: input_required → tasks/update ack → working → completed with the result inlined", () => {
    const h = new Harness({ era: "extension" });
    h.create("786512e2", { ttl: 3600000 });
    h.feed({ type: "update-status", taskId: "786512e2", status: "input_required", inputRequests: { name: { method: "elicitation/create", params: { mode: "form", message: "Please enter your name." } } } });
    const { out } = h.request("tasks/update", { taskId: "786512e2", inputResponses: { name: { action: "accept", content: { input: "Luca" } } } });
    assert.deepEqual(replyOf(out).result, { resultType: "complete" }, "MUST acknowledge with an empty result");
    assert.deepEqual(ofType(out, "input-responses")[0].responses, { name: { action: "accept", content: { input: "Luca" } } });
    assert.equal(h.status("786512e2"), "working");
    h.feed({ type: "settle", taskId: "786512e2", result: { content: [{ type: "text", text: "Hello, Luca!" }], isError: false } });
    assert.deepEqual(h.get("786512e2").result, { content: [{ type: "text", text: "Hello, Luca!" }], isError: false });
  });

  it("SHOULD ignore responses for keys not outstanding; MAY accept a partial set", () => {
    const h = new Harness({ era: "extension" });
    h.create("t");
    h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { a: { method: "roots/list" }, b: { method: "roots/list" } } });
    const out = h.request("tasks/update", { taskId: "t", inputResponses: { a: { roots: [] }, zzz: {} } }).out;
    assert.deepEqual(ofType(out, "input-responses")[0].responses, { a: { roots: [] } });
    assert.equal(h.status("t"), "input_required");
    assert.deepEqual(Object.keys(h.get("t").inputRequests as object), ["b"]);
    // Answering "a" again is ignored (already answered); the ack is still given.
    const again = h.request("tasks/update", { taskId: "t", inputResponses: { a: {} } }).out;
    assert.equal(ofType(again, "input-responses").length, 0);
    assert.deepEqual(replyOf(again).result, { resultType: "complete" });
    h.request("tasks/update", { taskId: "t", inputResponses: { b: { roots: [] } } });
    assert.equal(h.status("t"), "working");
    assert.equal(errorOf(h.request("tasks/update", { taskId: "t", inputResponses: [] }).out).error.code, ErrorCode.InvalidParams);
  });

  it("the typed update input behaves like the tasks/update request", () => {
    const h = new Harness({ era: "extension" });
    h.create("t");
    h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { k: { method: "roots/list" } } });
    const out = h.feed({ type: "update", id: 41, owner: ALICE, taskId: "t", inputResponses: { k: { roots: [] } } });
    assert.deepEqual(replyOf(out), { type: "reply", id: 41, owner: ALICE, result: { resultType: "complete" } });
    assert.equal(h.status("t"), "working");
  });

  it("keys are unique over the task's lifetime, across rounds (a reused key is refused)", () => {
    const h = new Harness({ era: "extension" });
    h.create("t");
    h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { k: { method: "roots/list" } } });
    h.request("tasks/update", { taskId: "t", inputResponses: { k: { roots: [] } } });
    const out = h.feed({ type: "update-status", taskId: "t", status: "input_required", inputRequests: { k: { method: "roots/list" } } });
    assert.equal(ofType(out, "diagnostic")[0].code, "input-key-reused");
    assert.deepEqual(h.get("t").inputRequests, {});
  });
});

describe("tasks extension § Task Status Notifications", () => {
  it("notifications/tasks carry the full DetailedTask (here with the result)", () => {
    const h = new Harness({ era: "extension", notifications: "all" });
    h.create("t");
    const n = ofType(h.feed({ type: "settle", taskId: "t", result: { content: [] } }), "notify");
    assert.equal(n.length, 1);
    assert.equal(n[0].method, "notifications/tasks");
    assert.deepEqual(n[0].params.result, { content: [] });
    assert.equal(n[0].params.resultType, undefined);
    assert.equal(n[0].params.ttlMs, 3_600_000);
  });
});

describe("tasks extension § negotiation and fallback", () => {
  it("MUST NOT return CreateTaskResult to a client that did not declare the extension on its request", () => {
    assert.equal(mayReturnTask("tools/call", EXT_CAPS), true);
    assert.equal(mayReturnTask("tools/call", {}), false);
    assert.equal(mayReturnTask("tools/call", { tasks: { requests: { tools: { call: {} } } } }), false, "the legacy capability does not count");
    assert.equal(mayReturnTask("prompts/get", EXT_CAPS), false, "only supported request types");
    assert.equal(declaresTasksExtension({ extensions: { [TASKS_EXTENSION]: false } }), false);
  });

  it("-32021 Missing required client capability names the extension", () => {
    assert.deepEqual(missingTasksExtension(), {
      code: ErrorCode.MissingRequiredClientCapability,
      message: "Missing required client capability",
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
  });

  it("MUST return -32021 for non-declaring clients issuing tasks/get, tasks/update, tasks/cancel; -32601 for tasks/result", () => {
    for (const m of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      assert.equal(gateExtensionRequest(m, {})!.code, ErrorCode.MissingRequiredClientCapability, m);
      assert.equal(gateExtensionRequest(m, EXT_CAPS), null, m);
    }
    assert.equal(gateExtensionRequest("tasks/result", EXT_CAPS)!.code, ErrorCode.MethodNotFound);
    assert.equal(gateExtensionRequest("tasks/list", {})!.code, ErrorCode.MethodNotFound);
  });

  it("the extension is not defined under 2025-11-25; earlier versions have no tasks", () => {
    assert.equal(taskEraOf("2025-11-25"), "legacy");
    assert.equal(taskEraOf("2026-07-28"), "extension");
    assert.equal(taskEraOf("2025-06-18"), null);
  });

  it("Streamable HTTP: tasks/get, tasks/update, tasks/cancel carry Mcp-Method and Mcp-Name = params.taskId", () => {
    assert.deepEqual(TASK_ROUTING_HEADERS, { method: "Mcp-Method", name: "Mcp-Name" });
    for (const m of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      assert.deepEqual(taskRoutingHeaders(m, { taskId: "abc" }), { "Mcp-Method": m, "Mcp-Name": "abc" });
    }
    assert.equal(taskRoutingHeaders("tasks/result", { taskId: "abc" }), null);
    assert.equal(taskRoutingHeaders("tasks/get", {}), null);
    assert.equal(taskRoutingHeaders("tasks/get", undefined), null);
  });

  it("a server speaking both: a 2025-11-25 task may be polled with an extension tasks/get (rendered in the request's dialect)", () => {
    const h = new Harness();
    h.create("t", { ttl: 1000 });
    h.feed({ type: "settle", taskId: "t", result: { content: [], isError: true } });
    const got = h.get("t", ALICE, { era: "extension" });
    assert.equal(got.resultType, "complete");
    assert.equal(got.ttlMs, 1000);
    assert.equal(got.status, "failed");
    assert.equal((got.error as { code: number }).code, ErrorCode.InternalError, "a failed task always shows an error object");
    assert.equal(errorOf(h.request("tasks/get", { taskId: "t" }, ALICE, { era: "bogus" as never }).out).error.code, ErrorCode.InternalError);
  });
});
