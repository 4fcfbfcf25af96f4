/** Shared helpers for the task-table tests: a driver that feeds inputs and sorts outputs. */
import assert from "node:assert/strict";
import type { JsonObject, RequestId } from "../../src/jsonrpc/types.js";
import { createTaskTable, stepTasks } from "../../src/tasks/table.js";
import type { TaskInput, TaskOutput, TaskOwner, TaskTableOptions, TaskTableState } from "../../src/tasks/types.js";

export const ALICE: TaskOwner = { session: "s-alice" };
export const BOB: TaskOwner = { session: "s-bob" };

/** A task input whose `now` may be left to the harness clock. */
export type LooseInput = TaskInput extends infer T ? (T extends TaskInput ? Omit<T, "now"> & { now?: number } : never) : never;

/** A table and a running clock (epoch ms). */
export class Harness {
  state: TaskTableState;
  now = Date.UTC(2025, 10, 25, 10, 30, 0);
  private nextId = 1;
  constructor(options?: TaskTableOptions) {
    this.state = createTaskTable(options);
  }
  /** Feeds an input (its `now` defaults to the harness clock) and returns the outputs. */
  feed(input: LooseInput): TaskOutput[] {
    return stepTasks(this.state, { now: this.now, ...input } as TaskInput).outputs;
  }
  /** A fresh request id. */
  id(): number {
    return this.nextId++;
  }
  /** Creates a task and returns its reply's result. */
  create(taskId: string, extra: Partial<Extract<TaskInput, { type: "create" }>> = {}): JsonObject {
    const out = this.feed({ type: "create", id: this.id(), taskId, owner: ALICE, method: "tools/call", ...extra });
    return replyOf(out).result;
  }
  /** A `tasks/*` request by method and params. */
  request(method: string, params: JsonObject | undefined, owner: TaskOwner = ALICE, extra: Partial<Extract<TaskInput, { type: "request" }>> = {}): { id: RequestId; out: TaskOutput[] } {
    const id = this.id();
    return { id, out: this.feed({ type: "request", id, owner, method, params, ...extra }) };
  }
  /** `tasks/get` → the result (asserts success). */
  get(taskId: string, owner: TaskOwner = ALICE, extra: Partial<Extract<TaskInput, { type: "request" }>> = {}): JsonObject {
    return replyOf(this.request("tasks/get", { taskId }, owner, extra).out).result;
  }
  /** The status of a task, through `tasks/get`. */
  status(taskId: string): unknown {
    return this.get(taskId).status;
  }
}

/** Outputs of one type. */
export function ofType<T extends TaskOutput["type"]>(out: TaskOutput[], type: T): Extract<TaskOutput, { type: T }>[] {
  return out.filter((o) => o.type === type) as Extract<TaskOutput, { type: T }>[];
}

/** The single successful reply among the outputs. */
export function replyOf(out: TaskOutput[]): Extract<TaskOutput, { type: "reply" }> {
  const replies = ofType(out, "reply");
  assert.equal(replies.length, 1, `expected one reply, got ${JSON.stringify(out)}`);
  return replies[0];
}

/** The single error reply among the outputs. */
export function errorOf(out: TaskOutput[]): Extract<TaskOutput, { type: "reply-error" }> {
  const errors = ofType(out, "reply-error");
  assert.equal(errors.length, 1, `expected one error reply, got ${JSON.stringify(out)}`);
  return errors[0];
}

/** Asserts the state survives a JSON round trip unchanged. */
export function assertJson(state: TaskTableState): void {
  assert.deepStrictEqual(JSON.parse(JSON.stringify(state)), state);
}
