/**
 * 2025-11-25 `basic/utilities/tasks` § "Capabilities", "Capability Negotiation",
 * "Tool-Level Negotiation", "Task Support and Handling", "Protocol Errors".
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import {
  acceptsTaskAugmented,
  augmentationFor,
  checkTaskAugmentation,
  supportsTaskCancel,
  supportsTaskList,
  TASK_REQUEST_CAPABILITIES,
  taskMetadataOf,
  taskSupportOf,
} from "../../src/tasks/capabilities.js";

const SERVER = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
const CLIENT = { tasks: { requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } } };
const call = (task: boolean) => ({ name: "get_weather", arguments: {}, ...(task ? { task: { ttl: 60000 } } : {}) });

describe("tasks § Capabilities", () => {
  it("tasks.requests is exhaustive: a request type not present does not support task augmentation", () => {
    assert.deepEqual(Object.keys(TASK_REQUEST_CAPABILITIES).sort(), ["elicitation/create", "sampling/createMessage", "tools/call"]);
    assert.equal(acceptsTaskAugmented(SERVER, "tools/call"), true);
    assert.equal(acceptsTaskAugmented(SERVER, "sampling/createMessage"), false);
    assert.equal(acceptsTaskAugmented(CLIENT, "sampling/createMessage"), true);
    assert.equal(acceptsTaskAugmented(CLIENT, "elicitation/create"), true);
    assert.equal(acceptsTaskAugmented(CLIENT, "resources/read"), false);
    assert.equal(acceptsTaskAugmented({}, "tools/call"), false);
    assert.equal(acceptsTaskAugmented(SERVER, "toString"), false);
  });

  it("tasks.list and tasks.cancel control those operations", () => {
    assert.equal(supportsTaskList(SERVER), true);
    assert.equal(supportsTaskCancel(SERVER), true);
    assert.equal(supportsTaskList(CLIENT), false);
    assert.equal(supportsTaskCancel({ tasks: { cancel: false } }), false);
  });
});

describe("tasks § Tool-Level Negotiation", () => {
  it("taskSupport defaults to forbidden when absent or unrecognised", () => {
    assert.equal(taskSupportOf({ name: "x" }), "forbidden");
    assert.equal(taskSupportOf({ execution: { taskSupport: "maybe" } }), "forbidden");
    assert.equal(taskSupportOf({ execution: { taskSupport: "optional" } }), "optional");
    assert.equal(taskSupportOf({ execution: { taskSupport: "required" } }), "required");
    assert.equal(taskSupportOf(null), "forbidden");
    assert.equal(taskSupportOf({ execution: 1 }), "forbidden");
  });

  it("requestor side: MUST NOT augment without the capability regardless of taskSupport; forbidden/optional/required otherwise", () => {
    assert.equal(augmentationFor("tools/call", {}, "required"), "forbidden");
    assert.equal(augmentationFor("tools/call", SERVER), "forbidden");
    assert.equal(augmentationFor("tools/call", SERVER, "forbidden"), "forbidden");
    assert.equal(augmentationFor("tools/call", SERVER, "optional"), "allowed");
    assert.equal(augmentationFor("tools/call", SERVER, "required"), "required");
    assert.equal(augmentationFor("sampling/createMessage", CLIENT), "allowed");
  });

  it("forbidden (or absent) + task: servers SHOULD return -32601", () => {
    for (const taskSupport of [undefined, "forbidden"] as const) {
      const r = checkTaskAugmentation({ method: "tools/call", params: call(true), capabilities: SERVER, taskSupport });
      assert.equal(r.kind, "error");
      if (r.kind === "error") {
        assert.equal(r.error.code, ErrorCode.MethodNotFound);
        assert.match(r.error.message, /get_weather/);
      }
    }
  });

  it("the error names the tool when the call has one", () => {
    const r = checkTaskAugmentation({ method: "tools/call", params: { task: {} }, capabilities: SERVER });
    assert.equal(r.kind === "error" && r.error.message, "Tool '' does not support task-augmented execution");
  });

  it("required + no task: servers MUST return -32601", () => {
    const r = checkTaskAugmentation({ method: "tools/call", params: call(false), capabilities: SERVER, taskSupport: "required" });
    assert.equal(r.kind, "error");
    if (r.kind === "error") assert.equal(r.error.code, ErrorCode.MethodNotFound);
  });

  it("optional: either way; a task carries the requested ttl", () => {
    assert.deepEqual(checkTaskAugmentation({ method: "tools/call", params: call(true), capabilities: SERVER, taskSupport: "optional" }), { kind: "task", requestedTtl: 60000 });
    assert.deepEqual(checkTaskAugmentation({ method: "tools/call", params: call(false), capabilities: SERVER, taskSupport: "optional" }), { kind: "normal" });
    assert.deepEqual(checkTaskAugmentation({ method: "tools/call", params: { name: "x", task: {} }, capabilities: SERVER, taskSupport: "required" }), { kind: "task" });
  });
});

describe("tasks § Task Support and Handling", () => {
  it("a receiver that did not declare the capability MUST process the request normally, ignoring task metadata", () => {
    assert.deepEqual(checkTaskAugmentation({ method: "tools/call", params: call(true), capabilities: {}, taskSupport: "required" }), { kind: "normal" });
    assert.deepEqual(checkTaskAugmentation({ method: "sampling/createMessage", params: { task: {} }, capabilities: SERVER }), { kind: "normal" });
  });

  it("a receiver MAY require augmentation for other request types: -32600 Task augmentation required", () => {
    const r = checkTaskAugmentation({ method: "sampling/createMessage", params: {}, capabilities: CLIENT, requireTask: true });
    assert.deepEqual(r, { kind: "error", error: { code: ErrorCode.InvalidRequest, message: "Task augmentation required for sampling/createMessage requests" } });
    assert.deepEqual(checkTaskAugmentation({ method: "elicitation/create", params: { task: { ttl: 5 } }, capabilities: CLIENT, requireTask: true }), { kind: "task", requestedTtl: 5 });
    assert.deepEqual(checkTaskAugmentation({ method: "elicitation/create", capabilities: CLIENT }), { kind: "normal" });
  });

  it("a task field that is not an object is no task metadata", () => {
    assert.equal(taskMetadataOf({ task: null }), undefined);
    assert.equal(taskMetadataOf({ task: [] }), undefined);
    assert.equal(taskMetadataOf(undefined), undefined);
    assert.deepEqual(taskMetadataOf({ task: { ttl: 1 } }), { ttl: 1 });
  });
});
