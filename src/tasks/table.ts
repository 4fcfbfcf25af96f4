/**
 * The task table: a pure reducer over every task a receiver holds, in both dialects.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` (all of it) and the tasks extension,
 * SEP-2663 / `docs/extensions/tasks/overview`.
 *
 * Theory of operation. `stepTasks(state, input) -> { state, outputs }`, like the session
 * kernel, and separate from it: the session answers the task-augmented request with
 * whatever `create` replies, routes `tasks/*` requests here as `request` inputs, and
 * carries out the outputs. The application drives each task with `update-status` and
 * `settle`; requestors observe it with `tasks/get`, block on `tasks/result`, list,
 * cancel and (extension) update. Every input carries `now` (epoch ms); the table reads
 * no clock, draws no random numbers (task ids are the caller's), and never throws: bad
 * inputs become JSON-RPC errors for the peer or diagnostics for the application. The
 * state is plain JSON, mutated in place (copying the table per message would make cost
 * grow with the number of tasks); `snapshotTasks` / `restoreTasks` move it between
 * processes, and a restored table carries on where the old one stopped, waiters
 * included.
 *
 * Time. Each step first expires every task whose `createdAt + ttl` is at or before
 * `now`, so no input ever sees an expired task, then handles the input.
 * {@link nextTaskDeadline} tells the driver when to feed the next `tick`. Expired tasks
 * are deleted outright (the page: "MAY delete the task and its results, regardless of
 * the task status"), so memory follows the live tasks, never the tasks ever created.
 *
 * Limits. `maxTasksPerOwner` and `maxTasks` count the tasks held, terminal ones included
 * (they hold results until their TTL). The requestor `maxTasksPerOwner` counts is the
 * principal where there is one, all its sessions together (`state.principals`), else the
 * owner: a task is isolated by its session *and* principal, but a principal that opens
 * another session is no other requestor, and would otherwise hold the limit in each, up to
 * the whole table. A `create` at either limit first deletes one of
 * the creating requestor's own finished tasks (the page: the receiver "MAY delete the task
 * and its results, regardless of the task status"): one whose outcome it already
 * retrieved, else the one finished longest ago. So a requestor's finished tasks never lock
 * it out, what the page limits is "concurrent tasks per requestor", and no requestor can push
 * out another's unread results. Only a requestor with nothing finished to give up is
 * refused: `-32600` with `data: { limit, scope }` ({@link isTaskLimitError}), the request
 * refused as a matter of receiver policy, like the page's "Task augmentation required"
 * (the page names no code for this case). The anonymous owner `{}` (every client of a
 * stateless server without authorization) is no one requestor: `maxTasksPerOwner` does
 * not apply to it, or all such clients would share one small quota; it may hold half of
 * `maxTasks`, so callers without an identity never lock out those with one, and its
 * finished tasks, all alike, make room for its new ones. Finding the task scans the
 * creating requestor's own tasks (at most `maxTasksPerOwner`, or the anonymous half).
 * Another requestor's tasks never make room, even those already retrieved: a requestor
 * with nothing finished of its own waits for the table to drain (TTLs, its tasks ending).
 */
import { ErrorCode, rpcError, thrownMessage, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import { jsonCopy } from "../jsonrpc/safe-json.js";
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import { MetaKey } from "../model/meta.js";
import { TASK_DIALECTS } from "./modern.js";
import {
  acceptResponses,
  addEntry,
  addInputRequests,
  cleanOwner,
  deliverInputs,
  diagnose,
  finishTask,
  insertTask,
  isObject,
  isRequestId,
  isRpcError,
  moveTo,
  own,
  principalKey,
  progressKey,
  removeTask,
  taskNotFound,
  taskOwnerKey,
  waiterKey,
} from "./records.js";
import { abandon, cancelTask, dialectOf, getTask, listTasks, taskRequest, taskResult, updateTask, type ExpiredNow } from "./requests.js";
import { canTransition, isTaskStatus, isTerminalStatus, outcomeStatus, type TaskStatus } from "./status.js";
import { expiryOf, fitTtl, grantTtl, heapPop, heapPush, heapRebuild, MAX_EXPIRY, type DeadlineEntry } from "./ttl.js";
import type {
  ResolvedTaskTableOptions,
  TaskInput,
  TaskOutput,
  TaskOwner,
  TaskOwnerEntry,
  TaskRecord,
  TaskStepResult,
  TaskTableOptions,
  TaskTableState,
} from "./types.js";
import { createTaskResult } from "./wire.js";

/** The defaults of {@link TaskTableOptions}. */
export const TASK_TABLE_DEFAULTS: Readonly<ResolvedTaskTableOptions> = /* @__PURE__ */ Object.freeze({
  era: "legacy",
  defaultTtlMs: 3_600_000,
  maxTtlMs: 86_400_000,
  pollIntervalMs: null,
  maxTasks: 10_000,
  maxTasksPerOwner: 100,
  pageSize: 50,
  notifications: "none",
  cooperativeCancel: false,
  resumeWhenAnswered: true,
});

// The owner key of `{}`: no session, no principal (see the module comment).
const ANONYMOUS = /* @__PURE__ */ taskOwnerKey({})!;

/** What the anonymous owner may hold: half the table (rounded down), so callers without an identity never lock out those with one. */
function anonymousCap(maxTasks: number): number {
  return Math.floor(maxTasks / 2);
}

// Date's range: a `now` beyond it cannot be rendered as ISO 8601.
const MAX_TIME = MAX_EXPIRY;

/** A time the table can hold: a number of ms within Date's range (so not NaN or ±Infinity). */
function isTime(v: unknown): v is number {
  return typeof v === "number" && Math.abs(v) <= MAX_TIME;
}

function count(v: unknown, min: number): v is number {
  return Number.isSafeInteger(v) && (v as number) >= min;
}

function msOrNull(v: unknown, fallback: number | null): number | null {
  return v === null ? null : count(v, 0) ? v : fallback;
}

/** Options with defaults filled in; malformed fields fall back to their default. */
export function resolveTaskOptions(options: TaskTableOptions = {}): ResolvedTaskTableOptions {
  const o = isObject(options) ? (options as TaskTableOptions) : {};
  try {
    return resolveFrom(o);
  } catch {
    // Options whose getter (or Proxy trap) throws: the defaults, not a throw out of createTaskTable (the kernel never throws).
    return resolveFrom({});
  }
}

function resolveFrom(o: TaskTableOptions): ResolvedTaskTableOptions {
  const d = TASK_TABLE_DEFAULTS;
  return {
    era: o.era === "extension" || o.era === "legacy" ? o.era : d.era,
    defaultTtlMs: msOrNull(o.defaultTtlMs, d.defaultTtlMs),
    maxTtlMs: msOrNull(o.maxTtlMs, d.maxTtlMs),
    pollIntervalMs: msOrNull(o.pollIntervalMs, d.pollIntervalMs),
    maxTasks: count(o.maxTasks, 0) ? o.maxTasks : d.maxTasks,
    maxTasksPerOwner: count(o.maxTasksPerOwner, 0) ? o.maxTasksPerOwner : d.maxTasksPerOwner,
    pageSize: count(o.pageSize, 1) ? o.pageSize : d.pageSize,
    notifications: o.notifications === "all" || o.notifications === "terminal" || o.notifications === "none" ? o.notifications : d.notifications,
    cooperativeCancel: o.cooperativeCancel === true,
    resumeWhenAnswered: o.resumeWhenAnswered !== false,
  };
}

/** An empty table. */
export function createTaskTable(options?: TaskTableOptions): TaskTableState {
  return { v: 1, options: resolveTaskOptions(options), tasks: {}, count: 0, owners: {}, principals: {}, deadlines: [], staleDeadlines: 0, waiting: {}, progress: {}, seq: 0 };
}

/** Feeds one input; the state is updated in place and returned with the outputs. Never throws. */
export function stepTasks(state: TaskTableState, input: TaskInput): TaskStepResult {
  const out: TaskOutput[] = [];
  try {
    const now = isObject(input) ? input.now : undefined;
    if (!isTime(now)) {
      diagnose(out, "bad-input", "every input needs a finite `now` (epoch ms); ignored");
    } else {
      const expired = expireDue(state, now, out);
      dispatch(state, input, now, expired, out);
      // An input that shortened a TTL may have put its deadline in the past.
      expireDue(state, now, out);
      pruneDeadlines(state);
    }
  } catch (e) {
    // A bug, not a protocol event: surface it rather than throw across the boundary.
    diagnose(out, "internal", `internal error: ${thrownMessage(e)}`);
  }
  return { state, outputs: out };
}

function dispatch(state: TaskTableState, input: TaskInput, now: number, expired: ExpiredNow, out: TaskOutput[]): void {
  switch (input.type) {
    case "create":
      return create(state, input, now, out);
    case "update-status":
      return updateStatus(state, input, now, out);
    case "settle":
      return settle(state, input, now, out);
    case "input-response": {
      const rec = localTask(state, input.taskId, out);
      if (rec === undefined) return;
      if (!isObject(input.responses)) return diagnose(out, "bad-input", "responses must be an object; ignored", { taskId: rec.taskId });
      return acceptResponses(state, rec, input.responses, now, out);
    }
    case "get":
      return getTask(state, input, expired, out);
    case "result":
      return taskResult(state, input, expired, out);
    case "list":
      return listTasks(state, input, out);
    case "cancel":
      return cancelTask(state, input, now, expired, out);
    case "update":
      return updateTask(state, input, now, expired, out);
    case "request":
      return taskRequest(state, input, now, expired, out);
    case "abandon":
      return abandon(state, input, out);
    case "tick":
      return;
    default:
      diagnose(out, "bad-input", "unknown input type; ignored", { type: String((input as { type?: unknown }).type) });
  }
}

function limitError(limit: number, scope: "requestor" | "receiver"): JsonRpcErrorObject {
  const what = scope === "requestor" ? "concurrent tasks per requestor" : "tasks in total";
  return rpcError(ErrorCode.InvalidRequest, `Task limit reached: at most ${limit} ${what}`, { limit, scope });
}

/** True for the error a `create` refused by a task limit is answered with. */
export function isTaskLimitError(e: { code?: unknown; data?: unknown }): boolean {
  const scope = isObject(e.data) ? e.data.scope : undefined;
  return e.code === ErrorCode.InvalidRequest && (scope === "requestor" || scope === "receiver");
}

/** Whether finished task `a` makes room before `b`: one already retrieved first, then the one finished longest ago. */
function givenUpBefore(a: TaskRecord, b: TaskRecord): boolean {
  if ((a.retrieved === true) !== (b.retrieved === true)) return a.retrieved === true;
  return a.lastUpdatedAt < b.lastUpdatedAt;
}

/**
 * Deletes one finished task of `requestor` (its tasks' entry), if it has one, to make room for its new task
 * (see the module comment); its deletion is told as an expiry.
 */
function giveUpFinished(state: TaskTableState, requestor: TaskOwnerEntry | undefined, out: TaskOutput[]): boolean {
  let oldest: TaskRecord | undefined;
  for (const [seq, taskId] of requestor?.order ?? []) {
    const rec = own(state.tasks, taskId);
    if (rec === undefined || rec.seq !== seq || !isTerminalStatus(rec.status)) continue;
    if (oldest === undefined || givenUpBefore(rec, oldest)) oldest = rec;
  }
  if (oldest === undefined) return false;
  // Its deadline stays in the heap, stale; a terminal task has no waiters to answer.
  if (oldest.expiresAt !== null) state.staleDeadlines++;
  removeTask(state, oldest, taskNotFound(true), out);
  out.push({ type: "expired", taskId: oldest.taskId, owner: { ...oldest.owner }, status: oldest.status });
  return true;
}

/** A `create` the adapter got wrong: the requestor sees -32603, the application a diagnostic. */
function refuse(out: TaskOutput[], id: RequestId, owner: TaskOwner, message: string): void {
  diagnose(out, "create-refused", message, { id });
  out.push({ type: "reply-error", id, owner, error: rpcError(ErrorCode.InternalError, "Internal error: " + message) });
}

function create(state: TaskTableState, input: Extract<TaskInput, { type: "create" }>, now: number, out: TaskOutput[]): void {
  const id = input.id;
  if (!isRequestId(id)) return diagnose(out, "bad-request-id", "create needs the id of the request it answers; ignored");
  const key = taskOwnerKey(input.owner);
  const owner = key === undefined ? {} : cleanOwner(input.owner);
  const dialect = dialectOf(state, input.era);
  if (key === undefined) return refuse(out, id, owner, "malformed task owner");
  if (dialect === undefined) return refuse(out, id, owner, "unknown task dialect");
  const taskId = input.taskId;
  if (typeof taskId !== "string" || taskId === "") return refuse(out, id, owner, "task id must be a non-empty string");
  // "Task IDs MUST be unique among all tasks controlled by the receiver."
  if (Object.hasOwn(state.tasks, taskId)) return refuse(out, id, owner, "duplicate task id");
  if (typeof input.method !== "string") return refuse(out, id, owner, "the task's request method must be a string");
  const o = state.options;
  const cap = key === ANONYMOUS ? anonymousCap(o.maxTasks) : o.maxTasksPerOwner;
  const principal = principalKey(owner);
  const requestor = principal === undefined ? own(state.owners, key) : own(state.principals, principal);
  const perOwner = (requestor?.count ?? 0) >= cap;
  if ((perOwner || state.count >= o.maxTasks) && !giveUpFinished(state, requestor, out)) {
    const error = perOwner ? limitError(cap, "requestor") : limitError(o.maxTasks, "receiver");
    return void out.push({ type: "reply-error", id, owner, error });
  }

  // "Receivers MAY override the requested ttl duration."
  const ttl = grantTtl(input.ttl, o, now);
  const rec: TaskRecord = {
    taskId,
    owner,
    ownerKey: key,
    era: dialect.era,
    seq: ++state.seq,
    requestId: id,
    method: input.method,
    // "Tasks MUST begin in the working status when created."
    status: "working",
    createdAt: now,
    lastUpdatedAt: now,
    ttl,
    expiresAt: expiryOf(now, ttl),
  };
  if (typeof input.statusMessage === "string") rec.statusMessage = input.statusMessage;
  const poll = count(input.pollInterval, 0) ? input.pollInterval : o.pollIntervalMs;
  if (poll !== null) rec.pollInterval = poll;
  const token = input.progressToken;
  // "The progressToken provided in the initial request remains valid throughout the task lifetime" (2025-11-25 only).
  if (dialect.progress && (typeof token === "string" || Number.isSafeInteger(token))) rec.progressToken = token;
  insertTask(state, rec);
  const meta = typeof input.modelImmediateResponse === "string" ? { [MetaKey.modelImmediateResponse]: input.modelImmediateResponse } : undefined;
  out.push({ type: "reply", id, owner, result: createTaskResult(rec, dialect, meta) });
}

/** A task of the application's, by id, or a diagnostic. */
function localTask(state: TaskTableState, taskId: unknown, out: TaskOutput[]): TaskRecord | undefined {
  const rec = typeof taskId === "string" ? own(state.tasks, taskId) : undefined;
  if (rec === undefined) diagnose(out, "unknown-task", "no such task (expired, or never created); ignored", { taskId: String(taskId) });
  return rec;
}

/**
 * Refuses a status change the transition table does not list. Re-stating the current
 * non-terminal status is a refresh (new message, new input requests), not a transition;
 * re-stating a terminal one is refused like any other change of it ("MUST NOT transition
 * to any other status"; a cancelled task "MUST remain in cancelled status").
 */
function refused(rec: TaskRecord, to: TaskStatus, out: TaskOutput[]): boolean {
  if (to === rec.status ? !isTerminalStatus(to) : canTransition(rec.status, to)) return false;
  const code = rec.status === "cancelled" ? "task-cancelled" : "illegal-transition";
  diagnose(out, code, `${rec.status} → ${to} is not a legal transition; ignored`, { taskId: rec.taskId, from: rec.status, to });
  return true;
}

function updateStatus(state: TaskTableState, input: Extract<TaskInput, { type: "update-status" }>, now: number, out: TaskOutput[]): void {
  const rec = localTask(state, input.taskId, out);
  if (rec === undefined) return;
  const to = input.status;
  if (!isTaskStatus(to)) return diagnose(out, "bad-status", "not a task status; ignored", { taskId: rec.taskId, status: String(to) });
  if (refused(rec, to, out)) return;
  let outcome: { result?: JsonObject; error?: JsonRpcErrorObject } = {};
  if (to === "completed" || to === "failed") {
    const o = checkOutcome(rec, to, input.result, input.error);
    if (typeof o === "string") return diagnose(out, "bad-outcome", o + "; ignored", { taskId: rec.taskId, status: to });
    outcome = o;
  }
  if (input.inputRequests !== undefined && (to !== "input_required" || !isObject(input.inputRequests))) {
    diagnose(out, "bad-input-request", "inputRequests go with status input_required, as an object; dropped", { taskId: rec.taskId });
  }
  const message = typeof input.statusMessage === "string" ? input.statusMessage : undefined;
  if (count(input.pollInterval, 0)) rec.pollInterval = input.pollInterval;
  if (input.ttl !== undefined) changeTtl(state, rec, input.ttl, out);
  if (isTerminalStatus(to)) return finishTask(state, rec, to, outcome, message, now, out);
  if (message !== undefined) rec.statusMessage = message;
  if (to === "input_required" && isObject(input.inputRequests)) addInputRequests(rec, input.inputRequests, out);
  moveTo(state, rec, to as "working" | "input_required", now, out);
  deliverInputs(rec, out);
}

/** The outcome fields a terminal status needs, or why they are wrong. */
function checkOutcome(rec: TaskRecord, to: "completed" | "failed", result: unknown, error: unknown): { result?: JsonObject; error?: JsonRpcErrorObject } | string {
  if (to === "completed") return isObject(result) && error === undefined ? { result } : "completed needs a result object and no error";
  if (isRpcError(error) && result === undefined) return { error };
  // 2025-11-25 only: a tool result with isError makes the task failed; the extension "MUST NOT" use failed for it.
  if (error === undefined && isObject(result) && outcomeStatus(rec.era, { result }) === "failed") return { result };
  return rec.era === "legacy" ? "failed needs a JSON-RPC error, or a tool result with isError" : "failed needs a JSON-RPC error object";
}

function settle(state: TaskTableState, input: Extract<TaskInput, { type: "settle" }>, now: number, out: TaskOutput[]): void {
  const rec = localTask(state, input.taskId, out);
  if (rec === undefined) return;
  const { result, error } = input;
  const outcome = isObject(result) && error === undefined ? { result } : isRpcError(error) && result === undefined ? { error } : undefined;
  if (outcome === undefined) return diagnose(out, "bad-outcome", "settle needs exactly one of a result object and a JSON-RPC error; ignored", { taskId: rec.taskId });
  const to = outcomeStatus(rec.era, outcome);
  if (refused(rec, to, out)) return;
  finishTask(state, rec, to, outcome, typeof input.statusMessage === "string" ? input.statusMessage : undefined, now, out);
}

function changeTtl(state: TaskTableState, rec: TaskRecord, ttl: unknown, out: TaskOutput[]): void {
  const max = state.options.maxTtlMs;
  if (ttl !== null && !count(ttl, 0)) return diagnose(out, "bad-ttl", "ttl must be a non-negative integer or null; kept", { taskId: rec.taskId });
  const granted = fitTtl(ttl === null ? max : max !== null && ttl > max ? max : ttl, rec.createdAt);
  const at = expiryOf(rec.createdAt, granted);
  rec.ttl = granted;
  if (at === rec.expiresAt) return;
  if (rec.expiresAt !== null) state.staleDeadlines++;
  rec.expiresAt = at;
  if (at !== null) heapPush(state.deadlines, [at, rec.seq, rec.taskId]);
}

/** Deletes every task due at `now`; returns them (for "Task has expired" answers in this step). */
function expireDue(state: TaskTableState, now: number, out: TaskOutput[]): [string, string][] | null {
  const heap = state.deadlines;
  let expired: [string, string][] | null = null;
  while (heap.length > 0 && heap[0][0] <= now) {
    const entry = heapPop(heap);
    if (!isLiveDeadline(state, entry)) {
      if (state.staleDeadlines > 0) state.staleDeadlines--;
      continue;
    }
    const rec = state.tasks[entry[2]];
    removeTask(state, rec, taskNotFound(true), out);
    out.push({ type: "expired", taskId: rec.taskId, owner: { ...rec.owner }, status: rec.status });
    (expired ??= []).push([rec.taskId, rec.ownerKey]);
  }
  return expired;
}

/** True when a heap entry still matches its task's deadline. */
function isLiveDeadline(state: TaskTableState, e: DeadlineEntry): boolean {
  const rec = own(state.tasks, e[2]);
  return rec !== undefined && rec.seq === e[1] && rec.expiresAt === e[0];
}

/** Keeps the heap's top live (so {@link nextTaskDeadline} is exact) and its stale share bounded. */
function pruneDeadlines(state: TaskTableState): void {
  const heap = state.deadlines;
  if (state.staleDeadlines > state.count + 32) {
    heapRebuild(heap, (e) => isLiveDeadline(state, e));
    state.staleDeadlines = 0;
    return;
  }
  while (heap.length > 0 && !isLiveDeadline(state, heap[0])) {
    heapPop(heap);
    if (state.staleDeadlines > 0) state.staleDeadlines--;
  }
}

/** When the driver must next feed a `tick`: the earliest expiry, or null when no task expires. */
export function nextTaskDeadline(state: TaskTableState): number | null {
  try {
    const due = state.deadlines[0]?.[0];
    return typeof due === "number" ? due : null;
  } catch {
    // No table (or one whose getter throws): nothing is due, as the queries below answer "not found" (the kernel never throws across its boundary).
    return null;
  }
}

/**
 * The table as a JSON string. A state with no JSON form (a BigInt or a cycle put in it by
 * hand, a getter that throws) gives `{"error": why}`, which {@link restoreTasks} refuses,
 * rather than a throw.
 */
export function snapshotTasks(state: TaskTableState): string {
  try {
    const text = JSON.stringify(state);
    if (typeof text === "string") return text;
  } catch (e) {
    return JSON.stringify({ error: `the task table has no JSON form: ${thrownMessage(e)}` });
  }
  return JSON.stringify({ error: "the task table has no JSON form" });
}

/**
 * A table from {@link snapshotTasks} output (or its parsed form), to carry on in a fresh
 * process. Options are re-resolved; the rest must have the snapshot's shape.
 */
export function restoreTasks(snapshot: unknown): { ok: true; state: TaskTableState } | { ok: false; error: string } {
  let s: unknown = snapshot;
  if (typeof s === "string") {
    try {
      s = JSON.parse(s);
    } catch {
      return { ok: false, error: "snapshot is not JSON" };
    }
  }
  else {
    // A copy: the caller's object is never changed (nor need it be mutable).
    s = jsonCopy(s);
    if (s === undefined) return { ok: false, error: "snapshot has no JSON form" };
  }
  if (!isObject(s) || s.v !== 1) return { ok: false, error: "not a task table snapshot (v 1)" };
  if (!consistentSnapshot(s)) return { ok: false, error: "task table snapshot is malformed" };
  const state = s as unknown as TaskTableState;
  for (const id in state.tasks) if (!wellFormedRecord(state.tasks[id])) mendRecord(state.tasks[id]);
  // A snapshot taken before principals were indexed has none: rebuilt from its records.
  if (s.principals === undefined) state.principals = principalsOf(state);
  try {
    state.options = resolveTaskOptions(s.options as TaskTableOptions);
  } catch (e) {
    return { ok: false, error: `task table snapshot has invalid options: ${thrownMessage(e)}` };
  }
  return { ok: true, state };
}

/** A record of the shape every step relies on (as {@link tableFromRecords} and a snapshot need it). */
function structuralRecord(r: unknown): r is TaskRecord {
  if (!isObject(r) || typeof r.taskId !== "string" || !count(r.seq, 1) || !isTaskStatus(r.status) || taskOwnerKey(r.owner as TaskOwner) !== r.ownerKey) return false;
  const ttlOk = r.ttl === null || count(r.ttl, 0);
  const expiryOk = r.expiresAt === null || isTime(r.expiresAt);
  return isTime(r.createdAt) && isTime(r.lastUpdatedAt) && ttlOk && expiryOk && typeof r.era === "string" && Object.hasOwn(TASK_DIALECTS, r.era);
}

const optional = (v: unknown, ok: (v: unknown) => boolean): boolean => v === undefined || ok(v);

/** The optional fields of a record a `Task` (or the runtime behind it) shows, each with what it must be when present. */
const SHOWN_FIELDS: readonly (readonly [keyof TaskRecord, (v: unknown) => boolean])[] = [
  ["statusMessage", (v) => typeof v === "string"],
  ["pollInterval", (v) => count(v, 0)],
  ["progressToken", (v) => typeof v === "string" || Number.isSafeInteger(v)],
  ["inputRequests", (v) => isObject(v) && Object.values(v).every((q) => isObject(q) && typeof q.method === "string" && optional(q.params, isObject))],
  ["usedInputKeys", (v) => Array.isArray(v) && v.every((k) => typeof k === "string")],
];

/** Whether a record's outcome is one `tasks/result` can give: an object result, a JSON-RPC error, and a completed task's result. */
function outcomeOk(r: TaskRecord): boolean {
  return optional(r.result, isObject) && optional(r.error, isRpcError) && (r.status !== "completed" || r.result !== undefined);
}

/**
 * A {@link structuralRecord} with the fields the wire shows as a `Task` shows them: a record
 * from an application's store (a database row's NULL `statusMessage`, a completed task whose
 * result was not kept) was taken in and then failed every `tasks/get` about it with `-32603`,
 * its answer no Task.
 */
function wellFormedRecord(r: unknown): r is TaskRecord {
  if (!structuralRecord(r)) return false;
  return isRequestId(r.requestId) && typeof r.method === "string" && SHOWN_FIELDS.every(([key, ok]) => optional(r[key], ok)) && outcomeOk(r);
}

/**
 * Makes a snapshot's record one the wire can show, in place. Snapshots taken before the table
 * checked what it keeps may hold an error without its message (an `Error` given to `settle`
 * was kept as `{ code }`) or a result that is no object (a `Date`): refused whole, such a
 * snapshot stopped a server from starting. Such an outcome becomes a failure naming why; a
 * field a `Task` could not show is dropped.
 */
function mendRecord(r: TaskRecord): void {
  for (const [key, ok] of SHOWN_FIELDS) if (!optional(r[key], ok)) delete r[key];
  if (outcomeOk(r)) return;
  delete r.result;
  r.status = "failed";
  r.error = rpcError(ErrorCode.InternalError, "the task's outcome, restored from a snapshot, could not be read");
  r.statusMessage = r.error.message;
}

/**
 * Whether a parsed snapshot's indexes agree with its records, so that no later step can
 * throw or break a limit on it: every record well formed under its own id; `count` and each
 * owner's count what the records say; owner orders, waiters, progress and deadlines naming
 * live tasks of the right owner.
 */
function consistentSnapshot(s: Record<string, unknown>): boolean {
  if (!isObject(s.tasks) || !isObject(s.owners) || !isObject(s.waiting) || !isObject(s.progress) || !Array.isArray(s.deadlines)) return false;
  if (!count(s.count, 0) || !count(s.seq, 0) || !count(s.staleDeadlines, 0)) return false;
  const tasks = s.tasks as Record<string, unknown>;
  const perOwner: Record<string, number> = {};
  const perPrincipal: Record<string, number> = {};
  let n = 0;
  for (const id in tasks) {
    const r = tasks[id];
    if (!structuralRecord(r) || r.taskId !== id || r.seq > (s.seq as number)) return false;
    perOwner[r.ownerKey] = (perOwner[r.ownerKey] ?? 0) + 1;
    const principal = principalKey(r.owner);
    if (principal !== undefined) perPrincipal[principal] = (own(perPrincipal, principal) ?? 0) + 1;
    n++;
    // An array or none: a number or an object here made the loop below throw out of restoreTasks.
    if (r.waiters !== undefined && !Array.isArray(r.waiters)) return false;
    for (const w of r.waiters ?? []) {
      if (!isObject(w) || !isRequestId(w.id) || (s.waiting as Record<string, unknown>)[waiterKey(r.ownerKey, w.id)] !== id) return false;
    }
  }
  if (n !== s.count) return false;
  if (!indexAgrees(s.owners, perOwner)) return false;
  if (s.principals !== undefined && !indexAgrees(s.principals, perPrincipal)) return false;
  const live = (id: unknown) => typeof id === "string" && Object.hasOwn(tasks, id);
  if (!Object.values(s.waiting as Record<string, unknown>).every(live) || !Object.values(s.progress as Record<string, unknown>).every(live)) return false;
  return s.deadlines.every((d) => Array.isArray(d) && typeof d[0] === "number" && typeof d[1] === "number" && typeof d[2] === "string");
}

/** Whether an index of a parsed snapshot (`owners`, `principals`) holds exactly the counts its records give, each with a well-formed order. */
function indexAgrees(index: unknown, counts: Record<string, number>): boolean {
  if (!isObject(index)) return false;
  for (const key in index) {
    const e = index[key];
    if (!isObject(e) || e.count !== own(counts, key) || !count(e.stale, 0) || !Array.isArray(e.order)) return false;
    if (!e.order.every((x) => Array.isArray(x) && typeof x[0] === "number" && typeof x[1] === "string")) return false;
  }
  return Object.keys(counts).every((key) => Object.hasOwn(index, key));
}

/** The `principals` index of a table's records, in creation order. */
function principalsOf(state: TaskTableState): Record<string, TaskOwnerEntry> {
  const index: Record<string, TaskOwnerEntry> = {};
  const recs = Object.values(state.tasks).sort((a, b) => a.seq - b.seq);
  for (const rec of recs) {
    const key = principalKey(rec.owner);
    if (key !== undefined) addEntry(index, key, rec);
  }
  return index;
}

/**
 * A table rebuilt from task records (a {@link TaskStore}'s, say, in `api/tasks-store.ts`),
 * with `options`. Blocked `tasks/result` requests do not survive: their streams belonged
 * to the old process, and the requestor asks again. Malformed records are skipped, and
 * reported by task id in `skipped`.
 */
export function tableFromRecords(records: readonly TaskRecord[], options?: TaskTableOptions): { state: TaskTableState; skipped: string[] } {
  const state = createTaskTable(options);
  const skipped: string[] = [];
  // Not an array (a store's read that came back empty as null, say): no records, said in `skipped`, not a TypeError.
  if (!Array.isArray(records)) return { state, skipped: ["records must be an array"] };
  const sorted = [...records].sort((a, b) => (a?.seq ?? 0) - (b?.seq ?? 0));
  for (const given of sorted) {
    // A copy in JSON form, as the table holds only JSON (snapshot, store writes): a record with
    // a member that has none (a BigInt) is no record, and nothing is shared with the caller.
    const r = jsonCopy(given);
    if (!wellFormedRecord(r) || Object.hasOwn(state.tasks, r.taskId)) {
      skipped.push(String((given as { taskId?: unknown } | null)?.taskId));
      continue;
    }
    const rec: TaskRecord = r;
    delete rec.waiters;
    delete rec.deliveredOn;
    if (isTerminalStatus(rec.status)) delete rec.progressToken;
    insertTask(state, rec);
    if (rec.seq > state.seq) state.seq = rec.seq;
  }
  return { state, skipped };
}

/** A task by id, for the application (no owner check: the receiver's own view). */
export function findTask(state: TaskTableState, taskId: string): TaskRecord | undefined {
  // No table, or a state or id whose getter (or toString) throws: not found, rather than a throw (the kernel never throws across its boundary).
  try {
    return own(state.tasks, taskId);
  } catch {
    return undefined;
  }
}

/** Ids of the `tasks/result` requests blocked on a task, oldest first: the streams task-related messages may use. */
export function resultStreams(state: TaskTableState, taskId: string): RequestId[] {
  try {
    return own(state.tasks, taskId)?.waiters?.map((w) => w.id) ?? [];
  } catch {
    // As findTask: no table, no streams.
    return [];
  }
}

/**
 * May progress for `token` (a progress token of `owner`'s) still be sent? Yes while a
 * live, non-terminal 2025-11-25 task holds it: the token "remains valid throughout the
 * task lifetime", long after the original request was answered with `CreateTaskResult`.
 * The extension does not support progress on tasks.
 */
export function progressAllowed(state: TaskTableState, owner: TaskOwner, token: string | number): boolean {
  try {
    const key = taskOwnerKey(owner);
    if (key === undefined || (typeof token !== "string" && typeof token !== "number")) return false;
    const taskId = own(state.progress, progressKey(key, token));
    const rec = taskId === undefined ? undefined : own(state.tasks, taskId);
    return rec !== undefined && !isTerminalStatus(rec.status) && TASK_DIALECTS[rec.era]?.progress === true;
  } catch {
    // As findTask: no table (or an owner whose getter throws), no task holds the token.
    return false;
  }
}

/** True when `status` is one a task may be given by `update-status` from `from` (a transition or a refresh). */
export function mayUpdateStatus(from: TaskStatus, to: TaskStatus): boolean {
  return !isTerminalStatus(from) && (from === to || canTransition(from, to));
}

/** True when a `tasks/result` from `owner` with request id `id` is blocked. */
export function isWaiting(state: TaskTableState, owner: TaskOwner, id: RequestId): boolean {
  try {
    const key = taskOwnerKey(owner);
    return key !== undefined && isRequestId(id) && Object.hasOwn(state.waiting, waiterKey(key, id));
  } catch {
    // As findTask: no table (or an owner whose getter throws), nothing waits.
    return false;
  }
}
