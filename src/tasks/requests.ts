/**
 * The requestor's side of the task table: `tasks/get`, `tasks/result`, `tasks/list`,
 * `tasks/cancel` and `tasks/update`.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` ("Getting Tasks", "Retrieving Task Results",
 * "Listing Tasks", "Cancelling Tasks", "Behavior Requirements", "Protocol Errors",
 * "Task Isolation and Access Control"); SEP-2663 ("Task Polling", "Task Update
 * Requests", "Task Cancellation", "Error Handling").
 *
 * Theory of operation. Every request first passes {@link requestContext}: a usable id, a
 * well-formed owner, and a method the request's dialect defines (the extension has no
 * `tasks/result` or `tasks/list`: `-32601`). The task is then looked up *as that owner*:
 * another owner's task answers exactly like an unknown one, `-32602` "Task not found",
 * so ids cannot be probed ("MUST reject ... tasks that do not belong to the same
 * authorization context"). A task that expired in this very step answers "Task has
 * expired"; one purged earlier is simply not found, which the page allows.
 *
 * `tasks/result` on a live task does not answer: it records a waiter and emits
 * `waiting`; {@link finishTask} answers every waiter exactly once when the task becomes
 * terminal, however many times it went through `input_required` meanwhile. While it
 * waits, the stream of the newest waiter carries the task's input requests (2025-11-25
 * "Input Required Status").
 *
 * Cursors of `tasks/list` are `c` + the base-36 creation number of the last task on the
 * page; the page after it starts at the first later task of the same owner, so tasks
 * deleted in between do not invalidate a cursor. Anything else is `-32602`.
 */
import { ErrorCode, rpcError } from "../jsonrpc/errors.js";
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import { inputAnswerIssues } from "../model/methods.js";
import { invalidParamsError } from "../model/schema-errors.js";
import { escapeSegment, type Issue } from "../schema/validate.js";
import { methodNotInDialect, TASK_DIALECTS, type TaskDialect } from "./modern.js";
import {
  acceptResponses,
  cleanOwner,
  deliverInputs,
  diagnose,
  finishTask,
  isObject,
  isRequestId,
  isLiveEntry,
  own,
  put,
  removeWaiter,
  taskNotFound,
  taskOwnerKey,
  terminalReply,
  waiterKey,
} from "./records.js";
import { isTerminalStatus, type TaskEra } from "./status.js";
import type { TaskInput, TaskOutput, TaskOwner, TaskRecord, TaskTableState } from "./types.js";
import { detailedView, taskView } from "./wire.js";

/** Tasks that expired earlier in the current step, as `[taskId, ownerKey]`. */
export type ExpiredNow = readonly (readonly [string, string])[] | null;

/** Who is asking, in which dialect. */
interface Context {
  id: RequestId;
  owner: TaskOwner;
  key: string;
  dialect: TaskDialect;
}

type RequestInput = Extract<TaskInput, { type: "get" | "result" | "list" | "cancel" | "update" | "request" }>;

/** The dialect named by `era`, or the table's when none; undefined for a malformed one. */
export function dialectOf(state: TaskTableState, era: unknown): TaskDialect | undefined {
  if (era === undefined) return TASK_DIALECTS[state.options.era];
  return era === "legacy" || era === "extension" ? TASK_DIALECTS[era as TaskEra] : undefined;
}

const INTERNAL_OWNER = "Internal error: malformed task owner";

function requestContext(state: TaskTableState, input: RequestInput, method: string, out: TaskOutput[]): Context | undefined {
  const id = input.id;
  if (!isRequestId(id)) {
    diagnose(out, "bad-request-id", "a task request needs a string or integer id; dropped", { method });
    return undefined;
  }
  const key = taskOwnerKey(input.owner);
  const dialect = dialectOf(state, input.era);
  if (key === undefined || dialect === undefined) {
    out.push({ type: "reply-error", id, owner: {}, error: rpcError(ErrorCode.InternalError, key === undefined ? INTERNAL_OWNER : "Internal error: unknown task dialect") });
    return undefined;
  }
  const owner = cleanOwner(input.owner);
  if (!dialect.methods.includes(method)) {
    out.push({ type: "reply-error", id, owner, error: methodNotInDialect(method, dialect.era) });
    return undefined;
  }
  return { id, owner, key, dialect };
}

function fail(out: TaskOutput[], ctx: Context, code: number, message: string, data?: unknown): void {
  out.push({ type: "reply-error", id: ctx.id, owner: ctx.owner, error: rpcError(code, message, data) });
}

function reply(out: TaskOutput[], ctx: Context, result: JsonObject): void {
  out.push({ type: "reply", id: ctx.id, owner: ctx.owner, result });
}

/** The empty acknowledgement of `tasks/update` and `tasks/cancel`; only the extension acks. */
function ack(): JsonObject {
  return { resultType: "complete" };
}

/** The task `taskId` as `ctx`'s owner sees it; answers the request with `-32602` when it cannot. */
function visibleTask(state: TaskTableState, taskId: unknown, ctx: Context, expired: ExpiredNow, out: TaskOutput[]): TaskRecord | undefined {
  if (typeof taskId !== "string") {
    fail(out, ctx, ErrorCode.InvalidParams, "Invalid params: taskId must be a string");
    return undefined;
  }
  const rec = own(state.tasks, taskId);
  if (rec !== undefined && rec.ownerKey === ctx.key) return rec;
  const gone = expired !== null && expired.some(([id, key]) => id === taskId && key === ctx.key);
  out.push({ type: "reply-error", id: ctx.id, owner: ctx.owner, error: taskNotFound(gone) });
  return undefined;
}

/** `tasks/get`. */
export function getTask(state: TaskTableState, input: Extract<TaskInput, { type: "get" }>, expired: ExpiredNow, out: TaskOutput[]): void {
  const ctx = requestContext(state, input, "tasks/get", out);
  if (ctx === undefined) return;
  const rec = visibleTask(state, input.taskId, ctx, expired, out);
  if (rec === undefined) return;
  const view = detailedView(rec, ctx.dialect);
  // The extension inlines a finished task's outcome: the requestor has it now.
  if (ctx.dialect.detailed && isTerminalStatus(rec.status)) rec.retrieved = true;
  reply(out, ctx, ctx.dialect.resultType === null ? view : { resultType: ctx.dialect.resultType, ...view });
}

/** `tasks/result` (2025-11-25): the final outcome now, or a waiter answered when the task ends. */
export function taskResult(state: TaskTableState, input: Extract<TaskInput, { type: "result" }>, expired: ExpiredNow, out: TaskOutput[]): void {
  const ctx = requestContext(state, input, "tasks/result", out);
  if (ctx === undefined) return;
  const rec = visibleTask(state, input.taskId, ctx, expired, out);
  if (rec === undefined) return;
  if (isTerminalStatus(rec.status)) {
    out.push(terminalReply(rec, ctx.id, ctx.owner, false));
    return;
  }
  const wkey = waiterKey(ctx.key, ctx.id);
  if (Object.hasOwn(state.waiting, wkey)) {
    diagnose(out, "duplicate-waiter", "a tasks/result with this id is already waiting; ignored", { taskId: rec.taskId });
    return;
  }
  // "MUST block the response until the task reaches a terminal status."
  (rec.waiters ??= []).push({ id: ctx.id, owner: { ...ctx.owner } });
  put(state.waiting, wkey, rec.taskId);
  out.push({ type: "waiting", id: ctx.id, owner: ctx.owner, taskId: rec.taskId });
  deliverInputs(rec, out);
}

const CURSOR = /^c[0-9a-z]{1,11}$/;

/** `tasks/list` (2025-11-25): the owner's tasks, oldest first, a page at a time. */
export function listTasks(state: TaskTableState, input: Extract<TaskInput, { type: "list" }>, out: TaskOutput[]): void {
  const ctx = requestContext(state, input, "tasks/list", out);
  if (ctx === undefined) return;
  let after = -1;
  if (input.cursor !== undefined) {
    const c = input.cursor;
    const seq = typeof c === "string" && CURSOR.test(c) ? parseInt(c.slice(1), 36) : NaN;
    // "Invalid or nonexistent cursor in tasks/list: -32602".
    if (!(seq <= state.seq)) return fail(out, ctx, ErrorCode.InvalidParams, "Invalid params: invalid cursor");
    after = seq;
  }
  const size = Number.isSafeInteger(input.pageSize) && input.pageSize! > 0 ? input.pageSize! : state.options.pageSize;
  const tasks: JsonObject[] = [];
  const result: JsonObject = { tasks };
  const entry = own(state.owners, ctx.key);
  if (entry !== undefined) {
    const order = entry.order;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (order[mid][0] <= after) lo = mid + 1;
      else hi = mid;
    }
    let last = -1;
    for (let i = lo; i < order.length; i++) {
      const [seq, id] = order[i];
      if (!isLiveEntry(state, seq, id)) continue;
      if (tasks.length === size) {
        // "MUST include a nextCursor in the response if more tasks are available."
        result.nextCursor = "c" + last.toString(36);
        break;
      }
      tasks.push(taskView(state.tasks[id], ctx.dialect));
      last = seq;
    }
  }
  reply(out, ctx, result);
}

/** `tasks/cancel`. */
export function cancelTask(state: TaskTableState, input: Extract<TaskInput, { type: "cancel" }>, now: number, expired: ExpiredNow, out: TaskOutput[]): void {
  const ctx = requestContext(state, input, "tasks/cancel", out);
  if (ctx === undefined) return;
  const rec = visibleTask(state, input.taskId, ctx, expired, out);
  if (rec === undefined) return;
  if (isTerminalStatus(rec.status)) {
    // 2025-11-25: "MUST reject cancellation requests for tasks already in a terminal status ... -32602".
    // Extension: the ack is only a signal and MUST be given; nothing changes.
    if (ctx.dialect.cancelTerminal === "reject") return fail(out, ctx, ErrorCode.InvalidParams, `Cannot cancel task: already in terminal status '${rec.status}'`);
    return reply(out, ctx, ack());
  }
  if (ctx.dialect.era === "extension" && state.options.cooperativeCancel) {
    if (rec.cancelRequested !== true) {
      rec.cancelRequested = true;
      out.push({ type: "cancel-requested", taskId: rec.taskId, owner: { ...rec.owner } });
    }
    return reply(out, ctx, ack());
  }
  // "MUST transition the task to cancelled status before sending the response."
  out.push({ type: "cancel-requested", taskId: rec.taskId, owner: { ...rec.owner } });
  finishTask(state, rec, "cancelled", {}, "The task was cancelled by request.", now, out);
  reply(out, ctx, ctx.dialect.cancelReply === "task" ? taskView(rec, ctx.dialect) : ack());
}

/** `tasks/update` (extension): answers to the task's input requests; an empty ack. */
export function updateTask(state: TaskTableState, input: Extract<TaskInput, { type: "update" }>, now: number, expired: ExpiredNow, out: TaskOutput[]): void {
  const ctx = requestContext(state, input, "tasks/update", out);
  if (ctx === undefined) return;
  if (!isObject(input.inputResponses)) return fail(out, ctx, ErrorCode.InvalidParams, "Invalid params: inputResponses must be an object");
  const rec = visibleTask(state, input.taskId, ctx, expired, out);
  if (rec === undefined) return;
  // MRTR: a retry's inputResponses are refused -32602 with the schema's issues. The task knows
  // what each key asked for, so each answer is held to that request's result schema.
  const issues = inputResponseIssues(rec, input.inputResponses);
  if (issues !== null) {
    const e = invalidParamsError("tasks/update", issues);
    return fail(out, ctx, e.code, e.message, e.data);
  }
  acceptResponses(state, rec, input.inputResponses, now, out);
  // "On success, the server MUST acknowledge the request with an empty result."
  reply(out, ctx, ack());
}

/** Issues of the answers to outstanding input requests, against the result schema of the request each answers (`inputAnswerIssues`); null when all are valid. */
function inputResponseIssues(rec: TaskRecord, responses: JsonObject): Issue[] | null {
  const pending = rec.inputRequests;
  if (pending === undefined) return null;
  let issues: Issue[] | null = null;
  for (const key of Object.keys(responses)) {
    if (!Object.hasOwn(pending, key)) continue; // not outstanding: ignored, as acceptResponses reports
    const method = pending[key].method;
    const found = inputAnswerIssues(method, responses[key]);
    if (found) (issues ??= []).push(...found.map((i) => ({ ...i, path: `/inputResponses/${escapeSegment(key)}${i.path}` })));
  }
  return issues;
}

const BY_METHOD: Readonly<Record<string, "get" | "result" | "list" | "cancel" | "update">> = {
  "tasks/get": "get",
  "tasks/result": "result",
  "tasks/list": "list",
  "tasks/cancel": "cancel",
  "tasks/update": "update",
};

/** Any `tasks/*` request by method and params: mapped to its typed input and handled. */
export function taskRequest(state: TaskTableState, input: Extract<TaskInput, { type: "request" }>, now: number, expired: ExpiredNow, out: TaskOutput[]): void {
  const kind = typeof input.method === "string" && Object.hasOwn(BY_METHOD, input.method) ? BY_METHOD[input.method] : undefined;
  const method = typeof input.method === "string" ? input.method : "";
  if (kind === undefined) {
    // Let the context check answer: no dialect defines the method, so it is -32601.
    requestContext(state, input, method, out);
    return;
  }
  const params = input.params;
  if (params !== undefined && !isObject(params)) {
    const ctx = requestContext(state, input, method, out);
    if (ctx !== undefined) fail(out, ctx, ErrorCode.InvalidParams, "Invalid params: params must be an object");
    return;
  }
  const base = { now, id: input.id, owner: input.owner, era: input.era };
  // Related-task `_meta` in these requests is ignored: "the taskId parameter ... MUST be used as the source of truth".
  switch (kind) {
    case "get":
      return getTask(state, { ...base, type: "get", taskId: params?.taskId as string }, expired, out);
    case "result":
      return taskResult(state, { ...base, type: "result", taskId: params?.taskId as string }, expired, out);
    case "list": {
      const cursor = params?.cursor;
      if (cursor !== undefined && typeof cursor !== "string") {
        const ctx = requestContext(state, input, method, out);
        if (ctx !== undefined) fail(out, ctx, ErrorCode.InvalidParams, "Invalid params: cursor must be a string");
        return;
      }
      return listTasks(state, cursor === undefined ? { ...base, type: "list" } : { ...base, type: "list", cursor }, out);
    }
    case "cancel":
      return cancelTask(state, { ...base, type: "cancel", taskId: params?.taskId as string }, now, expired, out);
    case "update":
      return updateTask(state, { ...base, type: "update", taskId: params?.taskId as string, inputResponses: params?.inputResponses as JsonObject }, now, expired, out);
  }
}

/** A blocked `tasks/result` went away: its waiter is dropped (all of the owner's when `id` is absent). */
export function abandon(state: TaskTableState, input: Extract<TaskInput, { type: "abandon" }>, out: TaskOutput[]): void {
  const key = taskOwnerKey(input.owner);
  if (key === undefined) return diagnose(out, "bad-owner", "abandon needs a well-formed owner; ignored");
  if (input.id !== undefined) {
    if (!isRequestId(input.id)) return diagnose(out, "bad-request-id", "abandon needs a string or integer id; ignored");
    const taskId = own(state.waiting, waiterKey(key, input.id));
    if (taskId === undefined) return diagnose(out, "no-waiter", "no tasks/result with this id is waiting", { id: input.id });
    return removeWaiter(state, state.tasks[taskId], input.id, out);
  }
  // Waiter keys are the owner key, `#`, then the request id: the prefix selects exactly this
  // owner's. A task's waiters are all its owner's, so the first key of a task removes them
  // all at once (one at a time, each removal scanned the rest), and none is left to
  // redeliver input to.
  const prefix = key + "#";
  for (const wkey of Object.keys(state.waiting)) {
    if (!wkey.startsWith(prefix)) continue;
    const taskId = own(state.waiting, wkey);
    if (taskId === undefined) continue; // its task's waiters went with an earlier key
    const rec = state.tasks[taskId];
    for (const w of rec.waiters!) delete state.waiting[waiterKey(key, w.id)];
    delete rec.waiters;
    const delivered = rec.deliveredOn;
    if (delivered !== undefined) for (const k of Object.keys(delivered)) if (delivered[k].startsWith(prefix)) delete delivered[k];
  }
}
