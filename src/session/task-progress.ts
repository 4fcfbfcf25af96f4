/**
 * Progress tokens that outlive their request: those of 2025-11-25 task-augmented requests.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` ("Task-augmented requests ... progress"): "The
 * progressToken provided in the initial request remains valid throughout the task
 * lifetime", while `basic/utilities/progress` says progress MUST stop when the operation
 * completes. For a task the operation is the task, not the request that created it.
 *
 * Requestor side: when a request that asked for progress is answered with a
 * `CreateTaskResult`, its token moves to `state.taskProgress` instead of dying with the
 * request, and later `notifications/progress` for it still reach the application (output
 * `progress` under the original request id, still required to increase). The token dies
 * when the kernel sees the task end: a terminal status in a `tasks/get` or `tasks/cancel`
 * result or in `notifications/tasks/status`, or any `tasks/result` answer for it (an error too: the task failed, or is unknown). The table
 * is bounded: past {@link MAX_TASK_PROGRESS_TOKENS} the oldest token (kept longest ago:
 * its task's creation was answered first) is dropped, so a requestor that never polls
 * cannot grow it.
 *
 * Receiver side: the task's owner (the server's task runtime, which knows when the task is
 * terminal) sends progress under the token with the `task-progress` input after the
 * request is answered; the kernel only frames it.
 */
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import { isTaskStatus, isTerminalStatus } from "../tasks/status.js";
import { createdTaskIdOf, relatedTaskOf } from "../tasks/wire.js";
import { progressNotification } from "./progress.js";
import { MAX_KEPT_ID_LENGTH, notKept, tooLong } from "./retained.js";
import { idKey, type OutboundRequest, type SessionOutput, type SessionState } from "./types.js";

/** Most task progress tokens a requestor keeps at once. */
export const MAX_TASK_PROGRESS_TOKENS = 1024;

/** A task's progress token, kept after the creating request was answered. */
export interface TaskProgressToken {
  /** The application's id of the creating request: progress is reported under it. */
  id: RequestId;
  taskId: string;
  /** Highest progress seen; progress must increase. */
  progress?: number;
  /** Inbound progress rate window (see `withinProgressRate`). */
  progressWindow?: [number, number];
}

/**
 * Requestor: a successful answer to `req` arrived. A task creation keeps its progress token
 * alive (announced with `progress-kept`, before the response); the end of a task ends its token.
 */
export function observeAnswer(state: SessionState, req: OutboundRequest, result: JsonObject, out: SessionOutput[]): void {
  const eventId = req.origin ?? req.id;
  const created = req.progressToken !== undefined ? createdTaskIdOf(result) : undefined;
  if (created !== undefined) {
    // A task id longer than the kernel keeps (retained.ts): the token ends with its request, like one of no task.
    if (tooLong(created, MAX_KEPT_ID_LENGTH)) return notKept(out, "the task id of a CreateTaskResult", MAX_KEPT_ID_LENGTH, created.length);
    const order = orderOf(state);
    if (order.length >= MAX_TASK_PROGRESS_TOKENS) endToken(state, order[0], out);
    const entry: TaskProgressToken = { id: eventId, taskId: created };
    if (req.progress !== undefined) entry.progress = req.progress;
    // A new key: a request is refused a token still in use by a request or task (send.ts).
    const key = idKey(req.progressToken!);
    state.taskProgress[key] = entry;
    order.push(key);
    out.push({ type: "progress-kept", id: eventId });
    return;
  }
  if (req.method === "tasks/result") {
    const related = relatedTaskOf(result) ?? req.resultOf;
    if (related !== undefined) endTaskProgress(state, related, out);
  } else if ((req.method === "tasks/get" || req.method === "tasks/cancel") && typeof result.taskId === "string") {
    observeStatus(state, result, out);
  }
}

/** Requestor: a task status (`tasks/get` result, `notifications/tasks/status` params) was seen. */
export function observeStatus(state: SessionState, task: JsonObject, out: SessionOutput[]): void {
  if (typeof task.taskId === "string" && isTaskStatus(task.status) && isTerminalStatus(task.status)) endTaskProgress(state, task.taskId, out);
}

/** Receiver: the task runtime reports progress under a task's token (it vouches the task is not terminal). */
export function sendTaskProgress(token: unknown, update: { progress: number; total?: number; message?: string; meta?: JsonObject }, out: SessionOutput[]): void {
  if (!(typeof token === "string" || Number.isSafeInteger(token)) || typeof update.progress !== "number" || !Number.isFinite(update.progress)) {
    out.push({ type: "diagnostic", code: "task-progress-invalid", message: "task progress needs a string or integer token and a finite progress; dropped", detail: { token } });
    return;
  }
  out.push({ type: "send", message: progressNotification(token as string | number, update) });
}

/** Requestor: task `taskId` is over; its progress token, if kept, ends. */
export function endTaskProgress(state: SessionState, taskId: string, out: SessionOutput[]): void {
  for (const key in state.taskProgress) if (state.taskProgress[key].taskId === taskId) endToken(state, key, out);
}

/**
 * The table's keys, oldest first. Not `Object.keys(table)`: the keys are our request ids,
 * which an object lists in numeric order, so a request sent early whose task was created
 * late was the first forgotten, its token ended by the next task created. A state saved
 * before the order was kept gets the key order it used.
 */
function orderOf(state: SessionState): string[] {
  return (state.taskProgressOrder ??= Object.keys(state.taskProgress));
}

function endToken(state: SessionState, key: string, out: SessionOutput[]): void {
  const entry = state.taskProgress[key];
  delete state.taskProgress[key];
  const order = orderOf(state);
  const at = order.indexOf(key);
  if (at >= 0) order.splice(at, 1);
  out.push({ type: "progress-ended", id: entry.id });
}
