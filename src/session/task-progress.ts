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
 * result or in `notifications/tasks/status`, or any `tasks/result` answer for it. The table
 * is bounded: past {@link MAX_TASK_PROGRESS_TOKENS} the oldest token is dropped, so a
 * requestor that never polls cannot grow it.
 *
 * Receiver side: the task's owner (the server's task runtime, which knows when the task is
 * terminal) sends progress under the token with the `task-progress` input after the
 * request is answered; the kernel only frames it.
 */
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import { MetaKey } from "../model/meta.js";
import { withinProgressRate } from "./progress.js";
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

const TERMINAL = ["completed", "failed", "cancelled"];

/** The task id of a 2025-11-25 `CreateTaskResult` (`{ task: { taskId } }`), if `result` is one. */
function createdTaskId(result: JsonObject): string | undefined {
  const task = result.task as JsonObject | undefined;
  return typeof task === "object" && task !== null && !Array.isArray(task) && typeof task.taskId === "string" ? task.taskId : undefined;
}

/**
 * Requestor: a successful answer to `req` arrived. A task creation keeps its progress token
 * alive (announced with `progress-kept`, before the response); the end of a task ends its token.
 */
export function observeAnswer(state: SessionState, req: OutboundRequest, result: JsonObject, out: SessionOutput[]): void {
  const eventId = req.origin ?? req.id;
  const created = req.progressToken !== undefined ? createdTaskId(result) : undefined;
  if (created !== undefined) {
    const table = state.taskProgress;
    const keys = Object.keys(table);
    if (keys.length >= MAX_TASK_PROGRESS_TOKENS) endToken(state, keys[0], out);
    const entry: TaskProgressToken = { id: eventId, taskId: created };
    if (req.progress !== undefined) entry.progress = req.progress;
    table[idKey(req.progressToken!)] = entry;
    out.push({ type: "progress-kept", id: eventId });
    return;
  }
  if (req.method === "tasks/result") {
    const related = (result._meta as JsonObject | undefined)?.[MetaKey.relatedTask] as JsonObject | undefined;
    if (typeof related?.taskId === "string") endTask(state, related.taskId, out);
  } else if ((req.method === "tasks/get" || req.method === "tasks/cancel") && typeof result.taskId === "string") {
    observeStatus(state, result, out);
  }
}

/** Requestor: a task status (`tasks/get` result, `notifications/tasks/status` params) was seen. */
export function observeStatus(state: SessionState, task: JsonObject, out: SessionOutput[]): void {
  if (typeof task.taskId === "string" && TERMINAL.includes(task.status as string)) endTask(state, task.taskId, out);
}

/** Requestor: progress for a token of no request in flight; true when it was a task's (and handled). */
export function receiveTaskProgress(state: SessionState, params: JsonObject, now: number, out: SessionOutput[]): boolean {
  const key = idKey(params.progressToken as string | number);
  if (!Object.hasOwn(state.taskProgress, key)) return false;
  const entry = state.taskProgress[key];
  if (!withinProgressRate(state, entry, now, params.progressToken as string | number, out)) return true;
  const value = params.progress as number;
  if (entry.progress !== undefined && !(value > entry.progress)) {
    out.push({ type: "diagnostic", code: "progress-not-increasing", message: "progress that did not increase was dropped", detail: { progressToken: params.progressToken, progress: value, previous: entry.progress } });
    return true;
  }
  entry.progress = value;
  const event: SessionOutput = { type: "progress", id: entry.id, progress: value };
  if (params.total !== undefined) event.total = params.total as number;
  if (params.message !== undefined) event.message = params.message as string;
  out.push(event);
  return true;
}

/** Receiver: the task runtime reports progress under a task's token (it vouches the task is not terminal). */
export function sendTaskProgress(token: unknown, update: { progress: number; total?: number; message?: string }, out: SessionOutput[]): void {
  if (!(typeof token === "string" || Number.isSafeInteger(token)) || typeof update.progress !== "number" || !Number.isFinite(update.progress)) {
    out.push({ type: "diagnostic", code: "task-progress-invalid", message: "task progress needs a string or integer token and a finite progress; dropped", detail: { token } });
    return;
  }
  const params: JsonObject = { progressToken: token as string | number, progress: update.progress };
  if (update.total !== undefined) params.total = update.total;
  if (update.message !== undefined) params.message = update.message;
  out.push({ type: "send", message: { jsonrpc: "2.0", method: "notifications/progress", params } });
}

function endTask(state: SessionState, taskId: string, out: SessionOutput[]): void {
  for (const key in state.taskProgress) if (state.taskProgress[key].taskId === taskId) endToken(state, key, out);
}

function endToken(state: SessionState, key: string, out: SessionOutput[]): void {
  const entry = state.taskProgress[key];
  delete state.taskProgress[key];
  out.push({ type: "progress-ended", id: entry.id });
}
