/**
 * 2025-11-25 `basic/utilities/tasks` § "Task Status Lifecycle": every (from, to) pair,
 * legal and illegal, through the reducer and through the data.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { canTransition, INITIAL_TASK_STATUS, isTaskStatus, isTerminalStatus, outcomeStatus, TASK_STATUSES, TASK_TRANSITIONS, TERMINAL_STATUSES, type TaskStatus } from "../../src/tasks/status.js";
import { mayUpdateStatus } from "../../src/tasks/table.js";
import { Harness, ofType } from "./helpers.js";

// The page's list, written out independently of the module's table.
const PAGE: Record<TaskStatus, TaskStatus[]> = {
  working: ["input_required", "completed", "failed", "cancelled"],
  input_required: ["working", "completed", "failed", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
};

/** Brings a fresh task to `status` and returns the harness. */
function taskIn(status: TaskStatus): Harness {
  const h = new Harness();
  h.create("t");
  if (status === "input_required") h.feed({ type: "update-status", taskId: "t", status });
  if (status === "completed") h.feed({ type: "update-status", taskId: "t", status, result: { content: [] } });
  if (status === "failed") h.feed({ type: "update-status", taskId: "t", status, error: { code: ErrorCode.InternalError, message: "boom" } });
  if (status === "cancelled") h.feed({ type: "update-status", taskId: "t", status });
  assert.equal(h.status("t"), status);
  return h;
}

function outcomeFor(to: TaskStatus): { result?: { content: never[] }; error?: { code: number; message: string } } {
  return to === "completed" ? { result: { content: [] } } : to === "failed" ? { error: { code: ErrorCode.InternalError, message: "x" } } : {};
}

describe("tasks § Task Status Lifecycle", () => {
  it("the transition table lists exactly the page's valid paths", () => {
    const fromData = new Set(TASK_TRANSITIONS.map(([f, t]) => `${f}>${t}`));
    const fromPage = new Set(Object.entries(PAGE).flatMap(([f, ts]) => ts.map((t) => `${f}>${t}`)));
    assert.deepEqual(fromData, fromPage);
    assert.equal(TASK_TRANSITIONS.length, fromData.size, "no duplicates");
  });

  it("canTransition over the full 5×5 square: legal iff the page lists it; terminal states have no way out", () => {
    for (const from of TASK_STATUSES) {
      for (const to of TASK_STATUSES) {
        assert.equal(canTransition(from, to), PAGE[from].includes(to), `${from} → ${to}`);
      }
    }
    assert.deepEqual([...TERMINAL_STATUSES].sort(), ["cancelled", "completed", "failed"]);
    for (const s of TASK_STATUSES) assert.equal(isTerminalStatus(s), TERMINAL_STATUSES.includes(s));
  });

  it("Tasks MUST begin in the working status when created", () => {
    assert.equal(INITIAL_TASK_STATUS, "working");
    const h = new Harness();
    const created = h.create("t") as { task: { status: string } };
    assert.equal(created.task.status, "working");
  });

  it("the reducer applies every legal pair and refuses every illegal one (25 pairs), terminal MUST NOT transition", () => {
    for (const from of TASK_STATUSES) {
      for (const to of TASK_STATUSES) {
        const h = taskIn(from);
        const before = h.state.tasks.t.lastUpdatedAt;
        h.now += 10;
        const out = h.feed({ type: "update-status", taskId: "t", status: to, ...outcomeFor(to) });
        const refresh = from === to && !isTerminalStatus(from);
        const legal = PAGE[from].includes(to);
        assert.equal(mayUpdateStatus(from, to), legal || refresh, `${from} → ${to}`);
        if (legal || refresh) {
          assert.equal(h.status("t"), to, `${from} → ${to} applied`);
          assert.equal(ofType(out, "diagnostic").length, 0);
          assert.equal(h.state.tasks.t.lastUpdatedAt, before + 10);
        } else {
          assert.equal(h.status("t"), from, `${from} → ${to} refused`);
          const d = ofType(out, "diagnostic");
          assert.equal(d.length, 1);
          assert.ok(["illegal-transition", "task-cancelled"].includes(d[0].code));
          assert.equal(h.state.tasks.t.lastUpdatedAt, before, "a refused update changes nothing");
        }
      }
    }
  });

  it("a non-status or a terminal status without its outcome is refused", () => {
    const h = taskIn("working");
    assert.equal(ofType(h.feed({ type: "update-status", taskId: "t", status: "done" as TaskStatus }), "diagnostic")[0].code, "bad-status");
    assert.equal(ofType(h.feed({ type: "update-status", taskId: "t", status: "completed" }), "diagnostic")[0].code, "bad-outcome");
    assert.equal(ofType(h.feed({ type: "update-status", taskId: "t", status: "failed" }), "diagnostic")[0].code, "bad-outcome");
    assert.equal(h.status("t"), "working");
    assert.equal(isTaskStatus("working"), true);
    assert.equal(isTaskStatus(3), false);
  });

  it("Task Execution Errors: a tool result with isError makes the task failed (2025-11-25), completed in the extension", () => {
    assert.equal(outcomeStatus("legacy", { result: { isError: true } }), "failed");
    assert.equal(outcomeStatus("extension", { result: { isError: true } }), "completed");
    assert.equal(outcomeStatus("legacy", { result: {} }), "completed");
    assert.equal(outcomeStatus("extension", { error: { code: -1, message: "m" } }), "failed");
  });
});
