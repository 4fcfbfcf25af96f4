/**
 * Wire shapes of tasks: the `Task` object of each dialect, `CreateTaskResult`, and the
 * task-related `_meta` keys.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` ("Data Types", "Related Task Metadata",
 * "Creating Tasks") and schema `Task` / `CreateTaskResult`; the extension's `Task`,
 * `DetailedTask` and `CreateTaskResult` (SEP-2663 "Tasks", "Task Creation", "Task
 * Polling").
 *
 * Theory of operation. The table keeps numbers (epoch ms) and renders on the way out:
 * `createdAt` / `lastUpdatedAt` as ISO 8601 (the page's MUST for "all task responses"),
 * `ttl` always present (null for unlimited, "MUST include the actual ttl"), field names
 * from the dialect. Every message related to a task carries
 * `_meta["io.modelcontextprotocol/related-task"] = { taskId }`, except `tasks/get`,
 * `tasks/list`, `tasks/cancel` and status notifications, which name the task already
 * (SHOULD NOT); `tasks/result` MUST carry it, merged into the stored result.
 */
import type { JsonObject } from "../jsonrpc/types.js";
import { ErrorCode, rpcError } from "../jsonrpc/errors.js";
import { jsonCopy } from "../jsonrpc/safe-json.js";
import { MetaKey } from "../model/meta.js";
import type { TaskDialect } from "./modern.js";
import type { TaskRecord } from "./types.js";

/**
 * An epoch-milliseconds instant as ISO 8601 (RFC 3339, UTC), exactly as
 * `Date.prototype.toISOString` writes it. Formatting is the hot spot of every task
 * response, and `Date` is slow at it, so years 0000–9999 are formatted by hand (days to
 * civil date, H. Hinnant's algorithm) and the last value is remembered, since
 * `createdAt` and `lastUpdatedAt` are often the same instant.
 */
export function isoTime(ms: number): string {
  if (ms === lastMs) return lastIso;
  const t = Math.floor(ms);
  const days = Math.floor(t / 86_400_000);
  let rem = t - days * 86_400_000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  if (y < 0 || y > 9999 || t !== ms) return new Date(ms).toISOString();
  const h = Math.floor(rem / 3_600_000);
  rem -= h * 3_600_000;
  const mi = Math.floor(rem / 60_000);
  rem -= mi * 60_000;
  const sec = Math.floor(rem / 1000);
  const milli = rem - sec * 1000;
  lastIso = (y < 10 ? "000" : y < 100 ? "00" : y < 1000 ? "0" : "") + y + "-" + two(m) + "-" + two(d) + "T" + two(h) + ":" + two(mi) + ":" + two(sec) + "." + (milli < 10 ? "00" : milli < 100 ? "0" : "") + milli + "Z";
  lastMs = ms;
  return lastIso;
}

let lastMs = NaN;
let lastIso = "";

function two(n: number): string {
  return n < 10 ? "0" + n : "" + n;
}

/** The `Task` object of a record in `dialect` (no inlined payloads). */
export function taskView(rec: TaskRecord, dialect: TaskDialect): JsonObject {
  const t: JsonObject = { taskId: rec.taskId, status: rec.status };
  if (rec.statusMessage !== undefined) t.statusMessage = rec.statusMessage;
  t.createdAt = isoTime(rec.createdAt);
  t.lastUpdatedAt = isoTime(rec.lastUpdatedAt);
  t[dialect.ttlField] = rec.ttl;
  if (rec.pollInterval !== undefined) t[dialect.pollIntervalField] = rec.pollInterval;
  return t;
}

/**
 * The task as `tasks/get` and status notifications show it: in the extension the
 * `DetailedTask`, with `inputRequests` (input_required), `result` (completed) or `error`
 * (failed) inlined; in 2025-11-25 the plain `Task`.
 */
export function detailedView(rec: TaskRecord, dialect: TaskDialect): JsonObject {
  const t = taskView(rec, dialect);
  if (!dialect.detailed) return t;
  // Copies, as `terminalReply`'s: what the table holds is never handed out to be edited.
  if (rec.status === "input_required") t.inputRequests = handedOut(rec.inputRequests ?? {});
  // A completed task always holds a result: `update-status` and `settle` refuse one without.
  else if (rec.status === "completed") t.result = handedOut(rec.result!);
  else if (rec.status === "failed") t.error = rec.error === undefined ? rpcError(ErrorCode.InternalError, rec.statusMessage ?? "Task failed") : handedOut(rec.error);
  return t;
}

/**
 * A copy of what the table holds, for an output: an `intercept` editing the answer it is
 * handed (or a status listener its push) must not change the task's stored result, which
 * later answers, the snapshot and the store would then disagree on. The table keeps only
 * JSON data (`finishTask`, `addInputRequests`), so the copy always succeeds.
 */
export function handedOut<T>(value: T): T {
  return jsonCopy(value) ?? value;
}

/** `CreateTaskResult`: `{ task }` (2025-11-25) or the task with `resultType: "task"` (extension). */
export function createTaskResult(rec: TaskRecord, dialect: TaskDialect, meta?: JsonObject): JsonObject {
  const view = taskView(rec, dialect);
  const out: JsonObject = dialect.createShape === "nested" ? { task: view } : { resultType: "task", ...view };
  if (meta !== undefined) out._meta = meta;
  return out;
}

/** A copy of `obj` with `_meta["io.modelcontextprotocol/related-task"] = { taskId }` merged into its `_meta`. */
export function withRelatedTask<T extends JsonObject>(obj: T, taskId: string): T {
  const meta = obj._meta;
  const base = typeof meta === "object" && meta !== null && !Array.isArray(meta) ? (meta as JsonObject) : undefined;
  return { ...obj, _meta: { ...base, [MetaKey.relatedTask]: { taskId } } };
}

/** The task id of a 2025-11-25 `CreateTaskResult` (`{ task: { taskId } }`), if `result` is one. */
export function createdTaskIdOf(result: JsonObject): string | undefined {
  const task = result.task;
  return typeof task === "object" && task !== null && !Array.isArray(task) && typeof (task as JsonObject).taskId === "string" ? ((task as JsonObject).taskId as string) : undefined;
}

/** The task id of an extension `CreateTaskResult` (`resultType: "task"`, `taskId`), if `result` is one. */
export function modernTaskIdOf(result: JsonObject): string | undefined {
  return result.resultType === "task" && typeof result.taskId === "string" ? result.taskId : undefined;
}

/** The task id in `_meta["io.modelcontextprotocol/related-task"]` of params or a result, if well-formed. */
export function relatedTaskOf(obj: JsonObject | undefined): string | undefined {
  const meta = obj?._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  const rel = (meta as JsonObject)[MetaKey.relatedTask];
  const id = typeof rel === "object" && rel !== null ? (rel as JsonObject).taskId : undefined;
  return typeof id === "string" ? id : undefined;
}

/**
 * A copy of a `CreateTaskResult` carrying `text` as
 * `_meta["io.modelcontextprotocol/model-immediate-response"]`: what a host may hand the
 * model as the immediate tool result while the task runs (2025-11-25, non-binding).
 */
export function withModelImmediateResponse<T extends JsonObject>(result: T, text: string): T {
  const meta = result._meta;
  const base = typeof meta === "object" && meta !== null && !Array.isArray(meta) ? (meta as JsonObject) : undefined;
  return { ...result, _meta: { ...base, [MetaKey.modelImmediateResponse]: text } };
}

/** The model-immediate-response text of a `CreateTaskResult`, if it is a string. */
export function modelImmediateResponseOf(result: JsonObject | undefined): string | undefined {
  const meta = result?._meta;
  const v = typeof meta === "object" && meta !== null ? (meta as JsonObject)[MetaKey.modelImmediateResponse] : undefined;
  return typeof v === "string" ? v : undefined;
}
