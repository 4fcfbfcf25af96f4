/**
 * The task runtime of a server: the kernel's task table driven with a clock, its outputs
 * carried out, and each task's work run in the background.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` (task-augmented requests, `tasks/get`,
 * `tasks/result`, `tasks/list`, `tasks/cancel`, "Input Required Status", "Task
 * Notifications", "TTL and Resource Management", "Task Isolation and Access Control")
 * and the `io.modelcontextprotocol/tasks` extension (SEP-2663: `tasks/get`,
 * `tasks/update`, `tasks/cancel`, composition with multi round-trip requests).
 *
 * Theory of operation. All protocol decisions are the pure table's (`src/tasks/`); this
 * adapter only feeds it inputs stamped with the wall clock and does what its outputs say.
 * A request for the table (`tasks/*`, or the creation of a task) registers a pending
 * answer under its owner and request id, steps the table, and the table's `reply` /
 * `reply-error` outputs settle it, at once or, for a blocked `tasks/result`, when the
 * task ends. A created task's work is the request's ordinary handler run with a context
 * of its own: its signal aborts when the task is cancelled or expires, and what it
 * answers settles the task. A handler that answers `input_required` (the MRTR shape of
 * `api/mrtr.ts`) moves the task to `input_required` with those input requests; the
 * answers come back (2025-11-25: as responses to requests this runtime sends on the
 * requestor's `tasks/result` stream; extension: through `tasks/update`) and the handler
 * runs again with them and its `requestState`, which never leaves the server, so it is
 * not sealed. A handler that asks the client directly (`ctx.elicit`, 2025-11-25 only)
 * puts the task in `input_required` for the duration of that request.
 *
 * Every step that changed a task is written through to the {@link TaskStore}; the
 * creating `put` is awaited before the `CreateTaskResult` is answered. One timer is armed
 * for the table's next expiry. Times are wall-clock milliseconds (tasks outlive a
 * process), from the injected clock when one is given.
 */
import type { Clock } from "../driver/clock.js";
import { eitherSignal, isThenable, type Callback } from "../driver/listener.js";
import { McpError, toRpcError, type RequestContext } from "../driver/endpoint.js";
import { ErrorCode, isRpcError, MALFORMED_ERROR_ANSWER, MALFORMED_ERROR_DIAGNOSTIC, thrownMessage, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import { systemClock } from "../driver/clock.js";
import { createTaskTable, findTask, nextTaskDeadline, progressAllowed, resolveTaskOptions, restoreTasks, snapshotTasks, stepTasks, tableFromRecords } from "../tasks/table.js";
import { taskOwnerKey } from "../tasks/records.js";
import { isTerminalStatus, type TaskEra, type TaskStatus } from "../tasks/status.js";
import { isExpired } from "../tasks/ttl.js";
import type { TaskInput, TaskInputRequest, TaskOutput, TaskOwner, TaskRecord, TaskTableOptions, TaskTableState } from "../tasks/types.js";
import { withRelatedTask } from "../tasks/wire.js";
import { methodSpec } from "../model/methods.js";
import { isModernVersion, isProtocolVersion } from "../model/versions.js";
import { gather, inputFailure, isInputRequired, wallClockOf, withoutRetry, type Gathered, type InputRequests } from "./mrtr.js";
import { requestCapabilities } from "./tasks-server.js";
import { inputRequiredProblem } from "../modern/server.js";
import { invalidResultError } from "../model/schema-errors.js";
import { answerableError } from "../model/error-codes.js";
import { MemoryTaskStore, type TaskStore } from "./tasks-store.js";
import { knownNames, refuseMisspelledOptions } from "./option-names.js";

/** Options of a {@link TaskRuntime}: the table's, plus how to run it. */
export interface TaskRuntimeOptions extends TaskTableOptions {
  /** Timers, and (when given) the wall clock too, so tests run on a `ManualClock` (default: the system clock and `Date.now()`). */
  clock?: Clock | undefined;
  /** The wall clock of task times, when it is not `clock` (ms since the epoch; see `McpServerOptions.wallClock`). */
  wallClock?: (() => number) | undefined;
  /** Where records are written through (default: a {@link MemoryTaskStore}). */
  store?: TaskStore | undefined;
  /** New task ids (default: 128 random bits, hex). They MUST be unguessable. */
  generateTaskId?: (() => string) | undefined;
  /** Start from a table snapshot (`snapshot()` output) or from a store's records, instead of empty. */
  restore?: string | TaskTableState | readonly TaskRecord[] | undefined;
  /** Where errors of the store and of diagnostics go (default: ignored; in a runtime that McpServer or McpClient makes, their `onError`). A store that refuses a task's first record fails its creation with `-32603`. */
  onError?: Callback<(error: unknown) => void> | undefined;
}

/** The names of {@link TaskRuntimeOptions}, for their misspelling check. */
const RUNTIME_OPTION_NAMES = /* @__PURE__ */ knownNames<TaskRuntimeOptions>()([
  "era", "defaultTtlMs", "maxTtlMs", "pollIntervalMs", "maxTasks", "maxTasksPerOwner", "pageSize", "notifications", "cooperativeCancel", "resumeWhenAnswered",
  "clock", "wallClock", "store", "generateTaskId", "restore", "onError",
]);

/**
 * The work of one task: the request's handler, run with the params it is given (retry
 * fields included) under the task's context. It answers the request's result, an
 * `input_required` result, or throws (an {@link McpError} is the request's JSON-RPC error).
 */
export type TaskWork = (params: JsonObject, rc: RequestContext) => Promise<JsonObject>;

interface Pending {
  resolve(result: JsonObject): void;
  reject(error: Error): void;
}

interface Run {
  taskId: string;
  owner: TaskOwner;
  controller: AbortController;
  /** The request's params, without retry fields. */
  params: JsonObject;
  /** The creating request's context: the session to send on. */
  rc: RequestContext;
  /** The HTTP request that created the task, as it was then (the context lets go of it once answered). */
  httpRequest: Request | undefined;
  work: TaskWork;
  requestState?: string;
  /** Answers gathered since the last `input_required`. */
  responses?: JsonObject;
  /** Keys of this round whose input request failed: cleared in the table, left out of the handler's `inputResponses`. */
  failedInputs?: Set<string>;
  /** The handler is between an `input_required` and its next run. */
  awaitingInput: boolean;
  /** The last progress sent under the task's token. */
  progress?: number;
  /** Requests the handler sent the requestor directly (`ctx.elicit`, 2025-11-25) still unanswered. */
  asking?: number;
}

/**
 * The error a task's work failed with, as the request itself would have been answered with
 * it. One without an integer code and a string message (a `ProtocolError(1.5, …)`) is the
 * `-32603` the session answers a plain request with: the table takes no other, and the task
 * was left working until its TTL, its requestor polling it all that while. A 2026-07-28
 * task's error, which `tasks/get` carries inside its result where the endpoint's check of an
 * error response never sees it, is held to the codes that era allows, as a plain call's is
 * (`-32002` becomes `-32602`; `-32042` and undefined reserved codes `-32603`: draft
 * `basic/index`, Error Codes). A 2025-11-25 task's is checked when `tasks/result` answers with it.
 */
function taskFailure(run: Run, error: JsonRpcErrorObject): JsonRpcErrorObject {
  const rc = run.rc;
  if (isRpcError(error)) return isModernVersion(rc.protocolVersion) ? answerableError(error, rc.protocolVersion, rc.peer?.capabilities) : error;
  rc.diagnose?.("invalid-error", MALFORMED_ERROR_DIAGNOSTIC, { id: rc.id, taskId: run.taskId });
  return { code: ErrorCode.InternalError, message: MALFORMED_ERROR_ANSWER };
}

/** The 2025-11-25 requests that name their task themselves, and so carry no related-task `_meta` (basic/utilities/tasks, Related Task Metadata). */
const OWN_TASK_NAMED: ReadonlySet<string> = /* @__PURE__ */ new Set(["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]);

/** Most times one task's handler may answer `input_required` before the task fails. */
const MAX_TASK_INPUT_ROUNDS = 32;

/** Random bytes in a default task id: 128 bits. */
export const TASK_ID_BYTES = 16;

/** A task's record as text, to tell whether a step changed it (undefined: no such task). */
function recordText(table: TaskTableState, taskId: string): string | undefined {
  const rec = findTask(table, taskId);
  return rec === undefined ? undefined : JSON.stringify(rec);
}

/** A task id made of `bytes` (random ones: ids MUST be unguessable), as lowercase hex. */
export function taskIdFrom(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += (b < 16 ? "0" : "") + b.toString(16);
  return s;
}

function randomTaskId(): string {
  return taskIdFrom(crypto.getRandomValues(new Uint8Array(TASK_ID_BYTES)));
}

/**
 * The id the table knows a request of `owner` by: its own, or, for an owner shared by
 * requestors ({@link TaskOwner.requestor}), the id within that requestor's, so two of them
 * waiting under the same id are two waiters, each answered its own.
 */
function tableId(owner: TaskOwner, id: RequestId): RequestId {
  return owner.requestor === undefined ? id : `${owner.requestor}#${typeof id === "number" ? "n" : "s"}${id}`;
}

function requestKey(ownerKey: string, id: RequestId): string {
  return ownerKey + "#" + (typeof id === "number" ? "n" + id : "s" + id);
}

/** A server's tasks (see the module comment). One per server, shared by all its sessions; isolation is by owner. */
export class TaskRuntime {
  private table: TaskTableState;
  private readonly store: TaskStore;
  private readonly clock: Clock;
  private readonly wall: () => number;
  private readonly generateTaskId: () => string;
  private readonly pending = new Map<string, Pending>();
  private readonly runs = new Map<string, Run>();
  /** Blocked `tasks/result` requests by owner key + request id: the streams input requests go on. */
  private readonly streams = new Map<string, RequestContext>();
  /** The latest request context of each 2025-11-25 owner (a session): where its status notifications go, until {@link TaskRuntime.release}. */
  private readonly notifiers = new Map<string, RequestContext>();
  private readonly statusWatchers: Array<(taskId: string, owner: TaskOwner, task: JsonObject) => void> = [];
  private timer: unknown = undefined;
  private timerAt: number | null = null;
  private readonly rounds = new Map<string, number>();

  constructor(private readonly options: TaskRuntimeOptions = {}) {
    // `defaultTtlMS` would be dropped: every task would live the default hour.
    refuseMisspelledOptions("TaskRuntime options", options, RUNTIME_OPTION_NAMES);
    this.clock = options.clock ?? systemClock;
    // The system clock is monotonic (performance.now, or process.hrtime on Node), not epoch time: task times are wall-clock.
    this.wall = wallClockOf(options.clock, options.wallClock);
    this.store = options.store ?? new MemoryTaskStore();
    this.generateTaskId = options.generateTaskId ?? randomTaskId;
    this.table = this.initialTable();
    this.arm();
  }

  private initialTable(): TaskTableState {
    const r = this.options.restore;
    if (r === undefined) return createTaskTable(this.options);
    if (Array.isArray(r)) {
      const { state, skipped } = tableFromRecords(r, this.options);
      if (skipped.length > 0) this.options.onError?.(new Error(`task records skipped on restore: ${skipped.join(", ")}`));
      return state;
    }
    const restored = restoreTasks(typeof r === "string" ? r : structuredClone(r));
    if (!restored.ok) throw new TypeError(`cannot restore tasks: ${restored.error}`);
    // The snapshot's waiters belonged to the old process's streams; their requestors ask again.
    for (const rec of Object.values(restored.state.tasks)) {
      delete rec.waiters;
      delete rec.deliveredOn;
    }
    restored.state.waiting = {};
    restored.state.options = resolveTaskOptions({ ...restored.state.options, ...pickTableOptions(this.options) });
    return restored.state;
  }

  // -------------------------------------------------------------------------------------
  // The application's side

  /**
   * Calls `watch` with each status change of an extension task (its `tasks/get` view), for
   * delivery to the `subscriptions/listen` streams that named it.
   */
  watchStatus(watch: (taskId: string, owner: TaskOwner, task: JsonObject) => void): void {
    this.statusWatchers.push(watch);
  }

  /** The table as plain JSON: give it to `restore` of a new runtime to carry on. */
  snapshot(): string {
    return snapshotTasks(this.table);
  }

  /** A task by id (the receiver's own view: no owner check), or undefined. */
  get(taskId: string): TaskRecord | undefined {
    const rec = findTask(this.table, taskId);
    return rec === undefined ? undefined : structuredClone(rec);
  }

  /** How many tasks the table holds (terminal ones included, until their TTL). */
  get size(): number {
    return this.table.count;
  }

  /** True when this process runs the task's work (false for a task restored from a snapshot, which the application finishes). */
  isRunning(taskId: string): boolean {
    return this.runs.has(taskId);
  }

  /**
   * Finishes a task with the request's result or JSON-RPC error: what a server restored
   * from a snapshot does for work it took over. Returns false when the task is unknown or
   * already terminal.
   */
  settle(taskId: string, outcome: { result: JsonObject } | { error: JsonRpcErrorObject }, statusMessage?: string): boolean {
    const before = findTask(this.table, taskId);
    if (before === undefined || isTerminalStatus(before.status)) return false;
    const input: TaskInput = { type: "settle", now: this.wall(), taskId, ...outcome };
    if (statusMessage !== undefined) input.statusMessage = statusMessage;
    this.step(input);
    return this.stopEndedRun(taskId, "task settled by the application");
  }

  /** Moves a task to a non-terminal status (a new status message, say). Returns false when refused. */
  setStatus(taskId: string, status: TaskStatus, statusMessage?: string, inputRequests?: Record<string, TaskInputRequest>): boolean {
    const input: TaskInput = { type: "update-status", now: this.wall(), taskId, status };
    if (statusMessage !== undefined) input.statusMessage = statusMessage;
    if (inputRequests !== undefined) input.inputRequests = inputRequests;
    const outputs = this.step(input);
    this.stopEndedRun(taskId, "task cancelled");
    return !outputs.some((o) => o.type === "diagnostic" && o.code !== "input-response-ignored");
  }

  /**
   * The application ended a task (`setStatus(id, "cancelled")`, `settle`) whose work still
   * runs here: that work's signal aborts and its answer is no longer awaited, as for a
   * requestor's cancel. Returns whether the task is terminal.
   */
  private stopEndedRun(taskId: string, reason: string): boolean {
    if (!isTerminalStatus(findTask(this.table, taskId)?.status ?? "working")) return false;
    this.forgetRun(taskId, reason);
    return true;
  }

  /** Forgets the run of `taskId` and its input rounds; with a `reason`, its work's signal aborts with it. */
  private forgetRun(taskId: string, reason?: string): void {
    const run = this.runs.get(taskId);
    this.runs.delete(taskId);
    this.rounds.delete(taskId);
    if (reason !== undefined) run?.controller.abort(reason);
  }

  /** Stops the timer and the work of every running task (the server is shutting down; the table stays as it is). */
  close(): void {
    if (this.timer !== undefined) this.clock.cancel(this.timer);
    this.timer = undefined;
    this.timerAt = null;
    for (const run of this.runs.values()) run.controller.abort("server closed");
    this.runs.clear();
  }

  /**
   * The session of `owner` closed: forget the request context its status notifications
   * went on (it holds the session). Its tasks stay until their TTL; a new session of the
   * same owner is remembered again at its first task request.
   */
  release(owner: TaskOwner): void {
    if (this.notifiers.size === 0) return; // nothing to forget (and a lazy owner key is not drawn)
    const key = taskOwnerKey(owner);
    if (key !== undefined) this.notifiers.delete(key);
  }

  // -------------------------------------------------------------------------------------
  // The requestor's side

  /**
   * Accepts request `rc` as a task and starts `work` for it. Resolves with the
   * `CreateTaskResult` once the task is stored; rejects with the table's error (a limit).
   */
  async create(
    rc: RequestContext,
    owner: TaskOwner,
    era: TaskEra,
    params: JsonObject,
    work: TaskWork,
    extra: { ttl?: number; progressToken?: string | number; modelImmediateResponse?: string } = {},
  ): Promise<JsonObject> {
    const taskId = this.generateTaskId();
    const id = tableId(owner, rc.id);
    const answer = this.expect(owner, id);
    const now = this.wall();
    const input: TaskInput = { type: "create", now, id, owner, era, taskId, method: rc.method };
    if (extra.ttl !== undefined) input.ttl = extra.ttl;
    if (extra.progressToken !== undefined) input.progressToken = extra.progressToken;
    if (extra.modelImmediateResponse !== undefined) input.modelImmediateResponse = extra.modelImmediateResponse;
    this.remember(owner, era, rc);
    // An id a live task holds (a `generateTaskId` that repeats one) is refused by the table
    // ("duplicate task id"): nothing of that task's may be touched, or its run would be
    // replaced and then dropped, leaving it working, unanswered, until its TTL.
    const holder = findTask(this.table, taskId);
    const taken = holder !== undefined && !isExpired(holder.expiresAt, now);
    // Registered before the step: the task may expire in it (ttl 0) or while its record is
    // written, and an expired (or cancelled) task's run must be found to be stopped.
    // Its first run has the request's own retry fields (an MRTR retry that became the task);
    // a later round has only the answers and state of the handler's own input_required (MRTR:
    // a retry MUST NOT carry a requestState its input_required did not give).
    const run: Run = { taskId, owner, controller: new AbortController(), params: withoutRetry(params), rc, httpRequest: rc.httpRequest, work, awaitingInput: false };
    if (!taken) {
      this.runs.set(taskId, run);
      // Its record's writes are watched from the first: the store may refuse one at once.
      this.creating.add(taskId);
    }
    this.step(input);
    let result: JsonObject;
    try {
      result = await answer;
    } catch (e) {
      if (!taken) {
        if (this.runs.get(taskId) === run) this.runs.delete(taskId); // refused (a limit): no task, no work
        this.creating.delete(taskId);
        this.unstored.delete(taskId);
      }
      throw e;
    }
    // A request cancelled before its CreateTaskResult went out (with the request, or an HTTP
    // stream closed while the task was stored) has that answer dropped, so nobody learns the
    // task's id to cancel it: it is cancelled here instead of running until its TTL (draft
    // basic/patterns/cancellation: the receiver SHOULD stop processing and free resources),
    // and forgotten at once, as nobody can ask about it. Once answered, the request is no
    // longer in flight and its signal never aborts.
    if (rc.signal.aborted) this.cancelUnanswered(run);
    else rc.signal.addEventListener("abort", () => this.cancelUnanswered(run), { once: true });
    // SEP-2663: "MUST NOT return CreateTaskResult until the task is durably created": nor
    // at all when the store refused it (a `tasks/get` for it would not resolve).
    await this.writtenThrough(taskId);
    this.creating.delete(taskId);
    const unstored = this.unstored.get(taskId);
    if (unstored !== undefined) {
      this.unstored.delete(taskId);
      if (this.runs.get(taskId) === run) this.runs.delete(taskId);
      const error = { code: ErrorCode.InternalError, message: `the task could not be stored: ${thrownMessage(unstored)}` };
      this.step({ type: "update-status", now: this.wall(), taskId, status: "failed", error, ttl: 0 });
      throw new McpError(error);
    }
    // Its work starts only now, and not at all if the task ended meanwhile (execute checks).
    queueMicrotask(() => this.execute(run, params));
    return result;
  }

  /** The task's creating request was cancelled before it was answered: see {@link TaskRuntime.create}. */
  private cancelUnanswered(run: Run): void {
    if (this.runs.get(run.taskId) !== run) return; // already over
    this.forgetRun(run.taskId, "the request that created the task was cancelled");
    this.step({ type: "update-status", now: this.wall(), taskId: run.taskId, status: "cancelled", statusMessage: "The request that created the task was cancelled before it was answered.", ttl: 0 });
  }

  /** Serves a `tasks/*` request through the table; the answer may come later (a blocked `tasks/result`). */
  request(method: string, params: JsonObject | undefined, rc: RequestContext, owner: TaskOwner, era: TaskEra): Promise<JsonObject> {
    const id = tableId(owner, rc.id);
    const answer = this.expect(owner, id);
    this.remember(owner, era, rc);
    const input: TaskInput = { type: "request", now: this.wall(), id, owner, era, method };
    if (params !== undefined) input.params = params;
    const key = requestKey(taskOwnerKey(owner) ?? "?", id);
    // Set before the step: input requests may go out on this stream in the very step that blocks it.
    // Not for a request already given up (cancelled while an async `intercept` ran before
    // `next()`): nothing would be sent on it, and its waiter is abandoned just below.
    if (method === "tasks/result" && !rc.signal.aborted) this.streams.set(key, rc);
    const outputs = this.step(input);
    if (!outputs.some((o) => o.type === "waiting" && o.id === id)) {
      this.streams.delete(key);
      return answer;
    }
    // The requestor gave up (cancelled, or the connection closed): forget the waiter.
    const abandon = (): void => {
      if (!this.pending.has(key)) return;
      this.streams.delete(key);
      this.pending.delete(key);
      this.step({ type: "abandon", now: this.wall(), owner, id });
    };
    // A signal that aborted already never fires again: the waiter, and the input requests
    // the table counted as delivered on its stream, would be held until the task's TTL, and
    // a later `tasks/result` would never be sent them. Abandoning it now hands them on.
    if (rc.signal.aborted) abandon();
    else rc.signal.addEventListener("abort", abandon, { once: true });
    return answer;
  }

  /** True when a 2025-11-25 task of `owner` holds progress token `token` and is not terminal. */
  progressAllowed(owner: TaskOwner, token: string | number): boolean {
    return progressAllowed(this.table, owner, token);
  }

  // -------------------------------------------------------------------------------------
  // Driving the table

  private expect(owner: TaskOwner, id: RequestId): Promise<JsonObject> {
    const key = requestKey(taskOwnerKey(owner) ?? "?", id);
    return new Promise<JsonObject>((resolve, reject) => this.pending.set(key, { resolve, reject }));
  }

  private remember(owner: TaskOwner, era: TaskEra, rc: RequestContext): void {
    // Only 2025-11-25 status notifications go to the owner's session; the extension's go to
    // listen streams. An owner shared by requestors has no session: the last request to
    // touch its tasks would get the others' statuses (and keep its POST alive until then).
    if (era !== "legacy" || owner.requestor !== undefined) return;
    const key = taskOwnerKey(owner);
    if (key !== undefined) this.notifiers.set(key, rc);
  }

  private step(input: TaskInput): TaskOutput[] {
    // The task a `tasks/*` request names is written through only if the step changed its
    // record: a tasks/get only reads it, and a poll per second was a store write per second
    // (a store slower than the polls queued them without bound, its delete at the TTL last).
    const named = input.type === "request" && typeof input.params?.taskId === "string" ? input.params.taskId : undefined;
    const before = named === undefined ? undefined : recordText(this.table, named);
    const { outputs } = stepTasks(this.table, input);
    const touched = new Set<string>();
    if ("taskId" in input && typeof input.taskId === "string") touched.add(input.taskId);
    if (named !== undefined && recordText(this.table, named) !== before) touched.add(named);
    for (const o of outputs) {
      if ("taskId" in o && typeof o.taskId === "string") touched.add(o.taskId);
      this.carryOut(o);
    }
    this.persist(touched);
    this.arm();
    this.resumeAnswered(touched);
    return outputs;
  }

  private carryOut(o: TaskOutput): void {
    switch (o.type) {
      case "reply":
      case "reply-error": {
        const key = requestKey(taskOwnerKey(o.owner) ?? "?", o.id);
        const p = this.pending.get(key);
        this.pending.delete(key);
        this.streams.delete(key);
        if (o.type === "reply") p?.resolve(o.result);
        else p?.reject(new McpError(o.error));
        return;
      }
      case "notify": {
        // The extension's status pushes travel on subscriptions/listen streams only: the
        // server fans them out to the listeners that named the task.
        if (o.method !== "notifications/tasks/status") {
          for (const watch of this.statusWatchers) watch(o.taskId, o.owner, o.params);
          return;
        }
        this.notifiers.get(taskOwnerKey(o.owner) ?? "?")?.notify(o.method, o.params);
        return;
      }
      case "input-requests":
        return this.sendInputRequests(o.taskId, o.owner, o.stream, o.requests);
      case "input-responses": {
        const run = this.runs.get(o.taskId);
        if (run !== undefined) run.responses = { ...run.responses, ...o.responses };
        return;
      }
      case "expired":
      case "cancel-requested": {
        const live = findTask(this.table, o.taskId);
        if (o.type === "cancel-requested" && live !== undefined && !isTerminalStatus(live.status)) return this.cancelCooperatively(o.taskId);
        if (o.type === "expired") this.ownerOfDeleted.set(o.taskId, taskOwnerKey(o.owner) ?? "?");
        // An expired task's work stops like a cancelled one's.
        this.forgetRun(o.taskId, o.type === "expired" ? "task expired" : "task cancelled");
        return;
      }
      case "diagnostic":
        if (o.code === "internal") this.options.onError?.(new Error(o.message));
        return;
      case "waiting":
        return;
    }
  }

  /**
   * A cancel the table only signalled (extension, `cooperativeCancel`): the task is not yet
   * terminal, so its run stays and what the handler answers still ends the task (SEP-2663:
   * it "may still reach a non-cancelled terminal status"); its signal aborts so it can stop.
   * A handler between `input_required` and its next run has nothing running to be told, and
   * would otherwise wait on answers the requestor no longer means to give: the cancel is
   * honoured at once.
   */
  private cancelCooperatively(taskId: string): void {
    const run = this.runs.get(taskId);
    if (run === undefined) return; // a restored task: the application settles it
    run.controller.abort("task cancelled");
    if (!run.awaitingInput) return;
    // After the step that signalled it (steps do not nest).
    queueMicrotask(() => {
      if (this.runs.get(taskId) === run && run.awaitingInput) this.cancelRun(run);
    });
  }

  /** Ends a run whose cancel was requested, and its task as cancelled. */
  private cancelRun(run: Run): void {
    this.forgetRun(run.taskId);
    this.step({ type: "update-status", now: this.wall(), taskId: run.taskId, status: "cancelled", statusMessage: "The task was cancelled by request." });
  }

  private persist(taskIds: Set<string>): void {
    for (const taskId of taskIds) {
      const rec = findTask(this.table, taskId);
      if (rec !== undefined) {
        const copy = structuredClone(rec);
        this.write(taskId, () => this.store.put(copy.ownerKey, copy));
        continue;
      }
      // Gone from the table: its owner key is in the store's record; a memory store can look it up.
      const owner = this.ownerOfDeleted.get(taskId);
      this.ownerOfDeleted.delete(taskId);
      if (owner !== undefined) this.write(taskId, () => this.store.delete(owner, taskId));
    }
  }

  private readonly ownerOfDeleted = new Map<string, string>();
  /** Tasks whose creation waits for their records to be written (see {@link create}). */
  private readonly creating = new Set<string>();
  /** Why the store refused a write of a task being created. */
  private readonly unstored = new Map<string, unknown>();
  /** The last unfinished write of each task: a task's writes land in the order of its steps. */
  private readonly writing = new Map<string, Promise<unknown>>();

  /**
   * Writes one task's change through. A write waits for the task's previous async one, so
   * a slow `put` cannot land after the `delete` that followed it and bring the record back;
   * with a synchronous store nothing waits.
   */
  private write(taskId: string, op: () => void | PromiseLike<void>): void {
    const before = this.writing.get(taskId);
    let done: void | PromiseLike<void>;
    try {
      done = before === undefined ? op() : before.then(op);
    } catch (e) {
      done = Promise.reject(e);
    }
    // Any thenable, as `await` would: a store on a promise library (or another realm) answers
    // with no `Promise`, and its writes were neither ordered nor their failures heard.
    if (!isThenable(done)) return;
    const tail: Promise<unknown> = Promise.resolve(done)
      .catch((e: unknown) => {
        if (this.creating.has(taskId)) this.unstored.set(taskId, e);
        this.options.onError?.(e);
      })
      .finally(() => {
        if (this.writing.get(taskId) === tail) this.writing.delete(taskId);
      });
    this.writing.set(taskId, tail);
  }

  /** Settles once every write of `taskId` issued so far, and any issued meanwhile, has landed or failed (its own chain: another task's writes never hold it). */
  private async writtenThrough(taskId: string): Promise<void> {
    for (let w = this.writing.get(taskId); w !== undefined; w = this.writing.get(taskId)) await w;
  }

  private arm(): void {
    const at = nextTaskDeadline(this.table);
    if (at === this.timerAt) return;
    if (this.timer !== undefined) this.clock.cancel(this.timer);
    this.timer = undefined;
    this.timerAt = at;
    if (at === null) return;
    // Deadlines are wall-clock; the timer runs on the clock's own scale.
    this.timer = this.clock.schedule(this.clock.now() + Math.max(0, at - this.wall()), () => {
      this.timer = undefined;
      this.timerAt = null;
      this.tick();
    });
  }

  /** Time passed: expire what is due (the table does it at the start of every step). */
  tick(): void {
    this.step({ type: "tick", now: this.wall() });
  }

  // -------------------------------------------------------------------------------------
  // Running the work

  private execute(run: Run, params: JsonObject): void {
    if (this.runs.get(run.taskId) !== run) return;
    let settled: Promise<JsonObject>;
    try {
      settled = run.work(params, this.contextOf(run));
    } catch (e) {
      settled = Promise.reject(e);
    }
    settled.then(
      (result) => this.finishRun(run, result),
      (e: unknown) => this.finishRun(run, undefined, toRpcError(e)),
    );
  }

  private finishRun(run: Run, result: JsonObject | undefined, error?: JsonRpcErrorObject): void {
    if (this.runs.get(run.taskId) !== run) return; // cancelled or expired meanwhile: the task is already final
    if (result !== undefined && isInputRequired(result)) return this.needInput(run, result);
    this.forgetRun(run.taskId);
    const failure = error !== undefined ? taskFailure(run, error) : this.invalidResult(run.rc, result);
    if (failure !== undefined) this.step({ type: "settle", now: this.wall(), taskId: run.taskId, error: failure });
    else this.step({ type: "settle", now: this.wall(), taskId: run.taskId, result: stripResultType(result!) });
  }

  /**
   * The check the session makes of a plain request's result before sending it (schema of
   * the request's method and version): a task's result is what `tasks/result` or
   * `tasks/get` delivers for that request, so one the request itself could not have been
   * answered with fails the task with the same `-32603`.
   */
  private invalidResult(rc: RequestContext, result: unknown): JsonRpcErrorObject | undefined {
    if (result === null || typeof result !== "object" || Array.isArray(result)) return invalidResultError(rc.method, [{ path: "", reason: "must be an object" }]);
    const version = rc.protocolVersion;
    const validate = isProtocolVersion(version) ? methodSpec(version, rc.method)?.validateResult : undefined;
    if (validate == null) return undefined;
    // The method's validator admits a CreateTaskResult, the answer to the request itself; a
    // task's result is what the request "would have returned synchronously", never another task.
    const created = isModernVersion(version) ? (result as JsonObject).resultType === "task" : Object.hasOwn(result, "task");
    // The modern schema's complete result carries the resultType the session stamps on a plain answer.
    const issues = created ? [{ path: "", reason: "must be the request's result, not a CreateTaskResult" }] : validate(isModernVersion(version) && (result as JsonObject).resultType === undefined ? { ...result, resultType: "complete" } : result);
    if (issues === null) return undefined;
    const invalid = invalidResultError(rc.method, issues);
    this.options.onError?.(new Error(invalid.message));
    return invalid;
  }

  /** The handler answered `input_required`: the task waits for the answers, then runs it again. */
  private needInput(run: Run, result: JsonObject): void {
    // Extension, `cooperativeCancel`: a cancel that came while the handler ran aborted its
    // signal, and the table signals a cancel once per task. A handler that asks for input
    // anyway would move the task to input_required with nothing left to cancel it, waiting
    // until its TTL on answers the requestor said it won't give: it is cancelled at once, as
    // one already waiting is (cancelCooperatively). A result or error still ends it as the
    // handler says (SEP-2663: it "may still reach a non-cancelled terminal status").
    if (findTask(this.table, run.taskId)?.cancelRequested === true) return this.cancelRun(run);
    const round = (this.rounds.get(run.taskId) ?? 0) + 1;
    this.rounds.set(run.taskId, round);
    if (round > MAX_TASK_INPUT_ROUNDS) return this.finishRun(run, undefined, { code: ErrorCode.InternalError, message: `the task still needed input after ${MAX_TASK_INPUT_ROUNDS} rounds` });
    // MRTR: "Servers MUST NOT send an inputRequests that the client has not declared support
    // for": the task fails with the answer a plain call gets (-32021 naming what is missing).
    const problem = inputRequiredProblem(true, run.rc.method, result, capabilitiesOf(run), true);
    if (problem !== null) return this.finishRun(run, undefined, problem);
    run.requestState = typeof result.requestState === "string" ? result.requestState : undefined;
    run.responses = undefined;
    run.failedInputs = undefined;
    run.awaitingInput = true;
    const inputs = (result.inputRequests ?? {}) as Record<string, TaskInputRequest>;
    if (Object.keys(inputs).length === 0) return this.rerun(run);
    // Keys the handler reuses across rounds are scoped by round: keys MUST be unique over the task's lifetime.
    const scoped: Record<string, TaskInputRequest> = {};
    for (const k of Object.keys(inputs)) scoped[`r${round}:${k}`] = inputs[k];
    this.step({ type: "update-status", now: this.wall(), taskId: run.taskId, status: "input_required", inputRequests: scoped });
  }

  /** After a step: a task whose input is all answered runs its handler again. */
  private resumeAnswered(taskIds: Set<string>): void {
    for (const taskId of taskIds) {
      const run = this.runs.get(taskId);
      if (run === undefined || !run.awaitingInput) continue;
      const rec = findTask(this.table, taskId);
      // With `resumeWhenAnswered` off the table leaves an answered task in input_required for
      // its application to move; here that is the handler, which learns of the answers only
      // by running again: it is run, and its next answer moves the task (or it calls
      // setStatus itself). Waiting instead would hold the task until its TTL.
      if (rec === undefined || isTerminalStatus(rec.status) || (rec.status === "input_required" && rec.inputRequests !== undefined)) continue;
      this.rerun(run);
    }
  }

  private rerun(run: Run): void {
    run.awaitingInput = false;
    const round = this.rounds.get(run.taskId) ?? 0;
    const prefix = `r${round}:`;
    const responses: JsonObject = {};
    for (const [k, v] of Object.entries(run.responses ?? {})) if (k.startsWith(prefix) && run.failedInputs?.has(k) !== true) responses[k.slice(prefix.length)] = v;
    const params: JsonObject = { ...run.params, inputResponses: responses };
    if (run.requestState !== undefined) params.requestState = run.requestState;
    run.responses = undefined;
    queueMicrotask(() => this.execute(run, params));
  }

  /** 2025-11-25: input requests go to the requestor on its blocked `tasks/result` stream; answers come back as `input-response`. */
  private sendInputRequests(taskId: string, owner: TaskOwner, stream: RequestId, requests: Record<string, TaskInputRequest>): void {
    const rc = this.streams.get(requestKey(taskOwnerKey(owner) ?? "?", stream));
    if (rc === undefined) return;
    // Gathered as the plain call's legacy bridge gathers (api/mrtr.ts). A cancelled stream
    // answers nothing: the table hands the requests to the requestor's next waiter. A task
    // cancelled or expired meanwhile cancels them too (2025-11-25 basic/utilities/tasks:
    // receivers SHOULD attempt to stop the task's execution), rather than leave them
    // outstanding on both sides until the request times out.
    const run = this.runs.get(taskId);
    const stop = run === undefined ? undefined : eitherSignal(rc.signal, run.controller.signal);
    gather(requests as InputRequests, rc, stop?.signal)
      .finally(() => stop?.done())
      .then(
        (gathered) => this.inputGathered(taskId, requests, gathered),
        () => undefined,
      );
  }

  /**
   * Answers of one delivery of input requests. As in the plain call's bridge, a failed input
   * is left out (the handler re-asks if it must), and when every input failed with nothing
   * answered this round the task ends with that error at once: its handler would run on the
   * same inputs and ask the same again.
   */
  private inputGathered(taskId: string, requests: Record<string, TaskInputRequest>, { responses, failure, failed }: Gathered): void {
    const run = this.runs.get(taskId);
    const answered = Object.keys(responses).length > 0 || Object.keys(run?.responses ?? {}).length > 0;
    if (failed !== undefined && !answered && run !== undefined) return this.finishRun(run, undefined, toRpcError(inputFailure(run.rc.method, failed, failure)));
    const all: JsonObject = { ...responses };
    for (const key of Object.keys(requests)) {
      if (Object.hasOwn(responses, key)) continue;
      // Still cleared in the table (it waits for every key), but not handed to the handler.
      if (run !== undefined) (run.failedInputs ??= new Set()).add(key);
      all[key] = {};
    }
    this.step({ type: "input-response", now: this.wall(), taskId, responses: all });
  }

  /** The context a task's handler runs under: the task's signal, related-task metadata on what it sends. */
  private contextOf(run: Run): RequestContext {
    const { rc, taskId, owner } = run;
    const signal = run.controller.signal;
    const related = withRelatedTask({} as JsonObject, taskId)._meta as JsonObject;
    return {
      id: rc.id,
      method: rc.method,
      signal,
      progress: (progress, total, message) => {
        const token = (run.params._meta as JsonObject | undefined)?.progressToken;
        // "The progressToken ... remains valid throughout the task lifetime"; none after it is
        // terminal. The creating request is answered by now, so the token is named outright,
        // and the rule that progress MUST increase is kept here, where the task lives.
        if (typeof token !== "string" && typeof token !== "number") return;
        if (!this.progressAllowed(owner, token) || !(progress > (run.progress ?? -Infinity))) return;
        run.progress = progress;
        if (rc.progressFor !== undefined) rc.progressFor(token, progress, total, message, related);
        else rc.progress(progress, total, message);
      },
      request: async (method, params, options) => {
        // 2025-11-25 "Input Required Status": the task shows input_required while it waits for
        // the requestor; not one whose cancel was requested (see needInput), which stays as it is.
        const moved = findTask(this.table, taskId)?.cancelRequested !== true && this.setStatus(taskId, "input_required");
        run.asking = (run.asking ?? 0) + 1;
        try {
          // A `tasks/*` request names its own task in its params, another one than this (the
          // client's task a `requestAsTask` waits on): "Requestors SHOULD NOT include"
          // related-task in tasks/get, tasks/result, tasks/list and tasks/cancel.
          const sent = OWN_TASK_NAMED.has(method) ? params : withRelatedTask((params ?? {}) as JsonObject, taskId);
          return await rc.request(method, sent, { ...options, signal: options?.signal ?? signal });
        } finally {
          // Back to working only once the last of the handler's requests in flight is answered: until then it still waits on the requestor.
          run.asking -= 1;
          const rec = findTask(this.table, taskId);
          if (moved && run.asking === 0 && rec?.status === "input_required" && rec.inputRequests === undefined) this.setStatus(taskId, "working");
        }
      },
      notify: (method, params) => rc.notify(method, withRelatedTask((params ?? {}) as JsonObject, taskId)),
      // 2025-11-25: "All requests, notifications, and responses related to a task MUST include" related-task.
      log: (level, data, logger) => rc.log(level, data, logger, related),
      protocolVersion: rc.protocolVersion,
      peer: rc.peer,
      httpRequest: run.httpRequest,
      ...(rc.declared === undefined ? {} : { declared: rc.declared }),
      ...(rc.diagnose === undefined ? {} : { diagnose: (code: string, message: string, detail?: unknown) => rc.diagnose!(code, message, detail) }),
      taskId,
    };
  }
}

/** What the requestor declared: a modern request's own `_meta`, else the session's handshake. */
function capabilitiesOf(run: Run): JsonObject | undefined {
  if (isModernVersion(run.rc.protocolVersion)) return requestCapabilities(run.params) as JsonObject | undefined;
  return run.rc.peer?.capabilities as JsonObject | undefined;
}

/** A complete result without the modern `resultType` stamp (the task's stored result is the request's plain result). */
function stripResultType(result: JsonObject): JsonObject {
  if (result.resultType !== "complete") return result;
  const { resultType: _, ...rest } = result;
  return rest;
}

/** The table options among runtime options (a restored table takes the new process's settings). */
function pickTableOptions(o: TaskRuntimeOptions): TaskTableOptions {
  const keys = ["era", "defaultTtlMs", "maxTtlMs", "pollIntervalMs", "maxTasks", "maxTasksPerOwner", "pageSize", "notifications", "cooperativeCancel", "resumeWhenAnswered"] as const;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out as TaskTableOptions;
}
