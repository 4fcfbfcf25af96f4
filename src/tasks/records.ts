/**
 * The task table's shared machinery: owner keys, inserting and removing records, the
 * terminal transition, status notifications, and the input-request bookkeeping.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` ("Task Isolation and Access Control",
 * "Result Retrieval", "Input Required Status", "Task Notifications"); the extension's
 * "Task Update Requests" (SEP-2663). Used by `table.ts` (the application's side) and
 * `requests.ts` (the requestor's side); not part of the public API.
 *
 * Theory of operation. A record is reachable from four indexes, all plain objects: the
 * task table (by id), its owner's creation-ordered list, the deadline heap, and, while
 * relevant, the waiter and progress-token maps. {@link insertTask} and
 * {@link removeTask} keep them in step. {@link finishTask} is the one way into a
 * terminal status: it stores the outcome, forgets outstanding input, ends the progress
 * token's life, releases every blocked `tasks/result` exactly once, and emits the status
 * notification. Ids and input keys are caller-chosen strings, so every dictionary read is
 * `Object.hasOwn`-guarded and every write goes through {@link put} (a task id of
 * `"__proto__"` is a key like any other).
 */
import { UNENCODABLE_RESPONSE } from "../jsonrpc/codec.js";
import { ErrorCode, isRpcError, rpcError, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import { jsonCopy } from "../jsonrpc/safe-json.js";
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import { TASK_DIALECTS } from "./modern.js";
import { isTerminalStatus, type TaskStatus } from "./status.js";
import { heapPush } from "./ttl.js";
import type { TaskInputRequest, TaskOutput, TaskOwner, TaskOwnerEntry, TaskRecord, TaskTableState } from "./types.js";
import { detailedView, handedOut, withRelatedTask } from "./wire.js";

/** `d[k]` when `k` is an own key of `d`. */
export function own<T>(d: Record<string, T>, k: string): T | undefined {
  return Object.hasOwn(d, k) ? d[k] : undefined;
}

/** `d[k] = v`, also for `k === "__proto__"` (which plain assignment would turn into a prototype change). */
export function put<T>(d: Record<string, T>, k: string, v: T): void {
  if (k === "__proto__") Object.defineProperty(d, k, { value: v, writable: true, enumerable: true, configurable: true });
  else d[k] = v;
}

/**
 * The isolation key of an owner, or undefined when `owner` is malformed. Both parts are
 * length-prefixed (the session `-` when absent), so no two owners share a key and a key
 * followed by `#` (as in waiter and progress keys) can be read back one way only.
 */
export function taskOwnerKey(owner: unknown): string | undefined {
  if (typeof owner !== "object" || owner === null) return undefined;
  let session: unknown, principal: unknown;
  try {
    ({ session, principal } = owner as TaskOwner);
  } catch {
    // An owner whose getter (or Proxy trap) throws is malformed, as one of the wrong type.
    return undefined;
  }
  if ((session !== undefined && typeof session !== "string") || (principal !== undefined && typeof principal !== "string")) return undefined;
  return (session === undefined ? "-" : session.length + ":" + session) + (principal === undefined ? "" : "|" + principal.length + ":" + principal);
}

/**
 * The key of the principal of a well-formed owner in `state.principals`, or undefined
 * without one: with an authorization context the principal is the requestor whose tasks
 * a limit counts, whichever of its sessions made them.
 */
export function principalKey(owner: TaskOwner): string | undefined {
  return owner.principal === undefined ? undefined : taskOwnerKey({ principal: owner.principal });
}

/** Adds a task's `[seq, taskId]` to the entry of `key` in `index` (an owner's, a principal's). */
export function addEntry(index: Record<string, TaskOwnerEntry>, key: string, rec: TaskRecord): void {
  let entry = own(index, key);
  if (entry === undefined) {
    entry = { count: 0, order: [], stale: 0 };
    put(index, key, entry);
  }
  entry.count++;
  entry.order.push([rec.seq, rec.taskId]);
}

/** Takes a removed task out of the entry of `key` in `index` (its order entry goes stale, pruned lazily). */
function dropEntry(state: TaskTableState, index: Record<string, TaskOwnerEntry>, key: string): void {
  const entry = index[key];
  entry.count--;
  entry.stale++;
  if (entry.count === 0) delete index[key];
  else if (entry.stale > entry.count && entry.stale > 8) {
    entry.order = entry.order.filter(([seq, id]) => isLiveEntry(state, seq, id));
    entry.stale = 0;
  }
}

/** A copy of a well-formed owner holding only its defined fields (so the state stays clean JSON). */
export function cleanOwner(owner: TaskOwner): TaskOwner {
  const o: TaskOwner = {};
  if (owner.session !== undefined) o.session = owner.session;
  if (owner.principal !== undefined) o.principal = owner.principal;
  return o;
}

/** True for a usable JSON-RPC request id: a string or a safe integer. */
export function isRequestId(id: unknown): id is RequestId {
  return typeof id === "string" || Number.isSafeInteger(id);
}

/** Map key of a request id (strings and numbers never collide). */
export function requestKey(id: RequestId): string {
  return typeof id === "number" ? "n" + id : "s" + id;
}

/** True for a non-array object. */
export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export { isRpcError } from "../jsonrpc/errors.js";

/** Pushes a diagnostic. */
export function diagnose(out: TaskOutput[], code: string, message: string, detail?: JsonObject): void {
  out.push(detail === undefined ? { type: "diagnostic", code, message } : { type: "diagnostic", code, message, detail });
}

/** The `-32602` answer for a task the requestor cannot see: unknown, another owner's, or gone. */
export function taskNotFound(expired: boolean): JsonRpcErrorObject {
  return rpcError(ErrorCode.InvalidParams, expired ? "Failed to retrieve task: Task has expired" : "Failed to retrieve task: Task not found");
}

/**
 * What `tasks/result` gives for a task cancelled before it produced an outcome. The page
 * defines no result for that case (a cancelled request has none); the blocked request
 * still needs exactly one answer, so it gets this error.
 */
export function cancelledWithoutResult(taskId: string): JsonRpcErrorObject {
  return rpcError(ErrorCode.InternalError, "Task was cancelled before it produced a result", { taskId, status: "cancelled" });
}

/** Adds a new record to every index. */
export function insertTask(state: TaskTableState, rec: TaskRecord): void {
  put(state.tasks, rec.taskId, rec);
  state.count++;
  addEntry(state.owners, rec.ownerKey, rec);
  const principal = principalKey(rec.owner);
  if (principal !== undefined) addEntry(state.principals, principal, rec);
  if (rec.expiresAt !== null) heapPush(state.deadlines, [rec.expiresAt, rec.seq, rec.taskId]);
  if (rec.progressToken !== undefined) state.progress[progressKey(rec.ownerKey, rec.progressToken)] = rec.taskId;
}

/** True when the `[seq, taskId]` entry still names a live task. */
export function isLiveEntry(state: TaskTableState, seq: number, taskId: string): boolean {
  const rec = own(state.tasks, taskId);
  return rec !== undefined && rec.seq === seq;
}

/**
 * Deletes a record from every index (its heap entry is popped by the caller or goes
 * stale). Blocked `tasks/result` requests are answered with `error`.
 */
export function removeTask(state: TaskTableState, rec: TaskRecord, error: JsonRpcErrorObject, out: TaskOutput[]): void {
  delete state.tasks[rec.taskId];
  state.count--;
  dropEntry(state, state.owners, rec.ownerKey);
  const principal = principalKey(rec.owner);
  if (principal !== undefined) dropEntry(state, state.principals, principal);
  dropProgress(state, rec);
  if (rec.waiters !== undefined) {
    for (const w of rec.waiters) {
      delete state.waiting[waiterKey(rec.ownerKey, w.id)];
      out.push({ type: "reply-error", id: w.id, owner: w.owner, error, deferred: true });
    }
    delete rec.waiters;
  }
}

/** Key of a progress token in `state.progress`. */
export function progressKey(ownerKey: string, token: string | number): string {
  return ownerKey + "#" + (typeof token === "number" ? "n" + token : "s" + token);
}

/** Key of a waiter in `state.waiting`. */
export function waiterKey(ownerKey: string, id: RequestId): string {
  return ownerKey + "#" + requestKey(id);
}

/** Ends the life of the task's progress token. */
function dropProgress(state: TaskTableState, rec: TaskRecord): void {
  if (rec.progressToken === undefined) return;
  const key = progressKey(rec.ownerKey, rec.progressToken);
  // Only if it is still ours: a later task of the same owner may have reused the token.
  if (own(state.progress, key) === rec.taskId) delete state.progress[key];
}

/** Emits the status notification for the task's current state, if the options ask for one. */
export function notifyStatus(state: TaskTableState, rec: TaskRecord, out: TaskOutput[]): void {
  const d = TASK_DIALECTS[rec.era];
  // The extension's pushes go only to listeners that named the task (`subscriptions/listen`
  // with `taskIds`), so they are always made; the option governs the unsolicited 2025-11-25 ones.
  const mode = rec.era === "extension" ? "all" : state.options.notifications;
  if (mode === "none" || (mode === "terminal" && !isTerminalStatus(rec.status))) return;
  // No related-task `_meta`: "the task ID is already present in the notification parameters".
  out.push({ type: "notify", owner: { ...rec.owner }, taskId: rec.taskId, method: d.statusNotification, params: detailedView(rec, d) });
}

/** Moves a task between `working` and `input_required`; leaving `input_required` drops unanswered input (superseded). */
export function moveTo(state: TaskTableState, rec: TaskRecord, status: "working" | "input_required", now: number, out: TaskOutput[]): void {
  if (status === "working") clearInput(rec);
  rec.lastUpdatedAt = now;
  if (rec.status === status) return;
  rec.status = status;
  notifyStatus(state, rec, out);
}

function clearInput(rec: TaskRecord): void {
  delete rec.inputRequests;
  delete rec.deliveredOn;
}

/** The answer a terminal task gives `tasks/result`: the stored result (with related-task `_meta`) or error. */
export function terminalReply(rec: TaskRecord, id: RequestId, owner: TaskOwner, deferred: boolean): Extract<TaskOutput, { type: "reply" | "reply-error" }> {
  rec.retrieved = true;
  // "MUST return exactly what the underlying request would have returned".
  const o: Extract<TaskOutput, { type: "reply" | "reply-error" }> =
    rec.error !== undefined
      ? { type: "reply-error", id, owner, error: handedOut(rec.error) }
      : rec.result !== undefined
        ? { type: "reply", id, owner, result: withRelatedTask(handedOut(rec.result), rec.taskId) }
        : { type: "reply-error", id, owner, error: cancelledWithoutResult(rec.taskId) };
  if (deferred) o.deferred = true;
  return o;
}

/** What went wrong, for a failed task's `statusMessage`: the error's message, or (2025-11-25) the text an `isError` tool result gives. */
function failureMessage(rec: TaskRecord): string | undefined {
  if (rec.error !== undefined) return rec.error.message;
  const content = rec.result?.content;
  const first = Array.isArray(content) ? content.find((c) => isObject(c) && c.type === "text" && typeof c.text === "string") : undefined;
  return first === undefined ? "Tool execution failed" : `Tool execution failed: ${(first as JsonObject).text as string}`;
}

/** The single way into a terminal status. */
export function finishTask(
  state: TaskTableState,
  rec: TaskRecord,
  status: TaskStatus,
  outcome: { result?: JsonObject; error?: JsonRpcErrorObject },
  statusMessage: string | undefined,
  now: number,
  out: TaskOutput[],
): void {
  // Kept as a copy: the application editing the object it answered with after the task
  // ended must not change what `tasks/result` and `tasks/get` give later, nor a snapshot
  // (the state shares no object with the application). An outcome with no JSON form (a
  // BigInt, a cycle), which no message could carry nor snapshot hold, fails the task with
  // the -32603 a plain request answered with it gets. The error is copied as the fields it
  // was checked by (a session's response reads them so too): an Error instance, as a
  // ProtocolError is, keeps its message where JSON does not look, and its copy was `{ code }`,
  // which no response may carry and no snapshot of the table restores. A result whose JSON
  // form is no object (a Date, a `toJSON` giving an array) has no result form either.
  const result = outcome.result === undefined ? undefined : jsonCopy(outcome.result);
  const error = outcome.error === undefined ? undefined : jsonCopy(rpcError(outcome.error.code, outcome.error.message, outcome.error.data));
  if ((outcome.result !== undefined && !isObject(result)) || (outcome.error !== undefined && !isRpcError(error))) {
    diagnose(out, "bad-outcome", "the task's outcome has no JSON form; the task failed", { taskId: rec.taskId, status });
    status = "failed";
    rec.error = rpcError(ErrorCode.InternalError, UNENCODABLE_RESPONSE);
  } else {
    if (result !== undefined) rec.result = result;
    if (error !== undefined) rec.error = error;
  }
  rec.status = status;
  rec.lastUpdatedAt = now;
  // "The tasks/get response SHOULD include a statusMessage field with diagnostic information about the failure."
  const message = statusMessage ?? (status === "failed" ? failureMessage(rec) : undefined);
  if (message !== undefined) rec.statusMessage = message;
  delete rec.cancelRequested;
  clearInput(rec);
  dropProgress(state, rec);
  if (rec.waiters !== undefined) {
    for (const w of rec.waiters) {
      delete state.waiting[waiterKey(rec.ownerKey, w.id)];
      out.push(terminalReply(rec, w.id, w.owner, true));
    }
    delete rec.waiters;
  }
  notifyStatus(state, rec, out);
}

/**
 * Adds input requests to a task, refusing keys used before ("Each request key in
 * inputRequests MUST be unique over the lifetime of a single task").
 */
export function addInputRequests(rec: TaskRecord, requests: Record<string, TaskInputRequest>, out: TaskOutput[]): void {
  for (const key of Object.keys(requests)) {
    const req = requests[key];
    if (!isObject(req) || typeof req.method !== "string" || (req.params !== undefined && !isObject(req.params))) {
      diagnose(out, "bad-input-request", "an input request needs a string method and object params; dropped", { taskId: rec.taskId, key });
      continue;
    }
    const used = (rec.usedInputKeys ??= []);
    if (used.includes(key)) {
      diagnose(out, "input-key-reused", "input request keys MUST be unique over the lifetime of a task; dropped", { taskId: rec.taskId, key });
      continue;
    }
    // A copy, as the outcome in finishTask; one with no JSON form could never be sent. The
    // copy is what is kept, so it is what must be a request: params whose JSON form is no
    // object (a Date, a `toJSON` giving an array) were kept as such, and no snapshot of the
    // table restored (restore checks each record as the wire shows it).
    const kept = jsonCopy(req);
    if (!isObject(kept) || typeof kept.method !== "string" || (kept.params !== undefined && !isObject(kept.params))) {
      diagnose(out, "bad-input-request", "an input request whose JSON form is none, or no request (params that are no object); dropped", { taskId: rec.taskId, key });
      continue;
    }
    used.push(key);
    put((rec.inputRequests ??= {}), key, kept);
  }
}

/**
 * 2025-11-25: sends the task's undelivered input requests on its newest `tasks/result`
 * stream, each carrying related-task `_meta` ("The receiver MUST include the
 * io.modelcontextprotocol/related-task metadata in the request").
 */
export function deliverInputs(rec: TaskRecord, out: TaskOutput[]): void {
  if (TASK_DIALECTS[rec.era].inputVia !== "result-stream" || rec.status !== "input_required") return;
  const pending = rec.inputRequests;
  const waiters = rec.waiters;
  if (pending === undefined || waiters === undefined) return;
  const stream = waiters[waiters.length - 1];
  const wkey = waiterKey(rec.ownerKey, stream.id);
  let batch: Record<string, TaskInputRequest> | undefined;
  for (const key of Object.keys(pending)) {
    if (rec.deliveredOn !== undefined && Object.hasOwn(rec.deliveredOn, key)) continue;
    const req = pending[key];
    put((batch ??= {}), key, { ...req, params: withRelatedTask(req.params ?? {}, rec.taskId) });
    put((rec.deliveredOn ??= {}), key, wkey);
  }
  if (batch !== undefined) out.push({ type: "input-requests", taskId: rec.taskId, owner: { ...rec.owner }, stream: stream.id, requests: batch });
}

/**
 * Takes answers to outstanding input requests: keys not outstanding are ignored (the
 * extension's SHOULD: "never issued, already answered, superseded"), a partial set is
 * fine, and once none is outstanding the task goes back to `working` (the page's SHOULD,
 * unless `resumeWhenAnswered` is off).
 */
export function acceptResponses(state: TaskTableState, rec: TaskRecord, responses: JsonObject, now: number, out: TaskOutput[]): void {
  const pending = rec.inputRequests;
  let accepted: JsonObject | undefined;
  let ignored: string[] | undefined;
  for (const key of Object.keys(responses)) {
    if (pending !== undefined && Object.hasOwn(pending, key)) {
      put((accepted ??= {}), key, responses[key]);
      delete pending[key];
      if (rec.deliveredOn !== undefined) delete rec.deliveredOn[key];
    } else (ignored ??= []).push(key);
  }
  if (ignored !== undefined) diagnose(out, "input-response-ignored", "responses for keys not outstanding were ignored", { taskId: rec.taskId, keys: ignored });
  if (accepted === undefined) return;
  out.push({ type: "input-responses", taskId: rec.taskId, owner: { ...rec.owner }, responses: accepted });
  if (Object.keys(pending!).length > 0) return;
  delete rec.inputRequests;
  delete rec.deliveredOn;
  if (rec.status === "input_required" && state.options.resumeWhenAnswered) moveTo(state, rec, "working", now, out);
}

/**
 * Removes one waiter; input requests sent on its stream become undelivered, and (unless
 * `redeliver` is false, when more waiters are about to go) are sent to the next waiter.
 */
export function removeWaiter(state: TaskTableState, rec: TaskRecord, id: RequestId, out: TaskOutput[], redeliver = true): void {
  const wkey = waiterKey(rec.ownerKey, id);
  delete state.waiting[wkey];
  // In place, comparing ids as they are (a number and its string stay distinct, as in
  // requestKey): a copy per removal, keys built for every waiter, made aborting W waiters
  // of one task cost W² string allocations.
  const waiters = rec.waiters!;
  const at = waiters.findIndex((w) => w.id === id);
  if (at >= 0) waiters.splice(at, 1);
  if (waiters.length === 0) delete rec.waiters;
  const delivered = rec.deliveredOn;
  if (delivered !== undefined) {
    for (const key of Object.keys(delivered)) if (delivered[key] === wkey) delete delivered[key];
  }
  if (redeliver) deliverInputs(rec, out);
}
