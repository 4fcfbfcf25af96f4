/**
 * The client side of tasks: waiting for a task's result, polling it, answering its input
 * requests, and checking that the result a task delivers is what its request returns.
 * Functions of the {@link ClientTasks} record an `McpClientCore` (`../client.ts`) holds
 * and calls them with.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` ("Retrieving Task Results", "Result
 * Retrieval": `tasks/result` returns exactly what the underlying request would have);
 * the `io.modelcontextprotocol/tasks` extension (SEP-2663,
 * `docs/extensions/tasks/overview.mdx`, "For MCP clients": poll `tasks/get` respecting
 * `pollIntervalMs` until the task is terminal; answer an `input_required` task's
 * `inputRequests` with `tasks/update`).
 *
 * Theory of operation. A request that may be answered with a task ({@link mayCreateTask})
 * has the task id of its answer remembered with its method ({@link rememberTask}), so
 * the task's final result can be checked against that method's result schema
 * ({@link checkTaskResult}). In a 2025-11-25 session the wait for it is one `tasks/result`;
 * under the extension it is {@link pollTask}: `tasks/get` every poll interval (the
 * server's suggestion within bounds, {@link pollInterval}), each answer checked before it
 * is acted on ({@link invalidTaskAnswer}), an `input_required` task's requests answered by
 * this client's own handlers as a standalone request would be ({@link answerTaskInput},
 * with `serve` of `./features.ts`), while {@link watchTaskInput} asks `tasks/get` on and
 * stops them once the task no longer asks. Every wait (the sleep between polls, the
 * handlers at work) is {@link stoppable}: it rejects at once when the caller aborts or the
 * connection closes ({@link endWaits}), as pending requests do.
 */
import { MIN_PEER_DELAY_MS, systemClock, type Clock } from "../../driver/clock.js";
import { McpError, refusedByPeer, toRpcError, type RequestContext } from "../../driver/endpoint.js";
import { ErrorCode } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { inputAnswerIssues, methodSpec } from "../../model/methods.js";
import { isModernVersion, isProtocolVersion } from "../../model/versions.js";
import { inputRequiredProblem } from "../../modern/server.js";
import type { Task } from "../types.js";
import { checkedAnswer, serve, type ClientFeatures } from "./features.js";
import type { CallOptions } from "./options.js";

/** What the client side of tasks calls and reads of its client: public members of `McpClientCore`. */
export interface TaskClient {
  /** The negotiated protocol version, once connected. */
  readonly protocolVersion: string | undefined;
  /** The capabilities the client declares. */
  readonly capabilities: JsonObject;
  /** `tasks/get`. */
  getTask(taskId: string, options?: CallOptions): Promise<Task>;
  /** `tasks/result`, its result checked. */
  getTaskResult(taskId: string, options?: CallOptions): Promise<JsonObject>;
  /** `tasks/update`. */
  updateTask(taskId: string, inputResponses: JsonObject, options?: CallOptions): Promise<void>;
  /** The task id of a `CreateTaskResult` of either era, or undefined for a plain result. */
  taskIdOf(result: JsonObject): string | undefined;
}

/** What an `McpClientCore` keeps for the tasks it waits on: created by {@link clientTasks}. */
export interface ClientTasks {
  /** The client whose requests these are. */
  readonly client: TaskClient;
  /** Its options and handlers, which answer a task's input requests. */
  readonly features: ClientFeatures;
  /** What {@link McpClient.waitForTask} waits on (the time between polls, the handlers answering a task's input), each stopped with the error that ends it. */
  readonly waits: Set<(e: McpError) => void>;
  /** Tasks (extension) whose input requests this client's handlers are answering: the stop of each round (see answerTaskInput). */
  readonly taskInputs: Map<string, Set<AbortController>>;
  /** Task id → the method whose result its task delivers, for the tasks this client's own requests created (a task created elsewhere goes unchecked). */
  readonly taskMethods: Map<string, string>;
  /** Why the connection closed, once it has. */
  closedReason: string | undefined;
}

/** The task bookkeeping of a new client, which nothing waits on yet. */
export function clientTasks(client: TaskClient, features: ClientFeatures): ClientTasks {
  return { client, features, waits: new Set(), taskInputs: new Map(), taskMethods: new Map(), closedReason: undefined };
}

/**
 * Bounds on the server's `pollIntervalMs` (SEP-2663 "Task Polling": "Clients SHOULD
 * respect"): below the floor a server (by mistake: 0, 1) would have the client poll in a
 * tight loop; past the ceiling one task would wait for days between polls. The floor is
 * the one every wait a peer suggests is held to (an SSE `retry` too).
 */
const MIN_POLL_INTERVAL_MS = MIN_PEER_DELAY_MS;
const MAX_POLL_INTERVAL_MS = 60_000;

/** A signal that aborts when `a` or `b` does, with its reason. */
function eitherSignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  const either = new AbortController();
  for (const s of [a, b]) {
    if (s.aborted) either.abort(s.reason);
    else s.addEventListener("abort", () => either.abort(s.reason), { once: true });
  }
  return either.signal;
}

/** True when `work` settles first, false when `signal` aborts first (a rejection after it is dropped). */
function untilAborted(work: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise<boolean>((resolve, reject) => {
    const onAbort = (): void => resolve(false);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      () => (signal.removeEventListener("abort", onAbort), resolve(true)),
      (e: unknown) => (signal.removeEventListener("abort", onAbort), signal.aborted ? resolve(false) : reject(e)),
    );
  });
}

/** The wait before the next `tasks/get`: the server's suggestion when it is a non-negative integer ("integer milliseconds"), else `fallback` (default 1 s); within the bounds. */
function pollInterval(suggested: unknown, fallback = 1000): number {
  const ms = Number.isInteger(suggested) && (suggested as number) >= 0 ? (suggested as number) : fallback;
  return Math.min(MAX_POLL_INTERVAL_MS, Math.max(MIN_POLL_INTERVAL_MS, ms));
}

/** Most task ids remembered with the method whose result their task delivers. */
const MAX_TASK_METHODS = 10_000;

/**
 * Why a `tasks/get` answer about `taskId` cannot be acted on, or undefined. What the answer
 * must hold (the task asked for, a known status, a completed task's `result`, a failed one's
 * JSON-RPC `error`, an input_required one's `inputRequests`: SEP-2663 "Task Polling") is
 * checked before it arrives, by `getTask` and the session's check of a `tasks/get` result
 * (`model/methods.ts`, a DetailedTask). What is left is this client's own: each input request
 * one it treats "as they would the equivalent standalone server-to-client request": one of
 * elicitation, sampling and roots (draft `basic/patterns/mrtr`), that `capabilities`
 * declared, checked as an `input_required` answer is. Never a `tasks/*` request, which would
 * reach this client's own task runtime.
 */
function invalidTaskAnswer(taskId: string, task: Task, capabilities: JsonObject): string | undefined {
  if (task.status !== "input_required") return undefined;
  const problem = inputRequiredProblem(true, "tasks/get", { inputRequests: task.inputRequests as JsonObject }, capabilities);
  return problem === null ? undefined : `task ${JSON.stringify(taskId)}: ${problem.message}`;
}

function closedError(reason: string): McpError {
  return new McpError({ code: ErrorCode.ConnectionClosed, message: `connection closed: ${reason}` });
}

function abortedError(): McpError {
  return new McpError({ code: ErrorCode.RequestCancelled, message: "aborted" });
}

/** The wait of {@link McpClient.waitForTask} (see there): `tasks/result` in a 2025-11-25 session, else {@link pollTask} within the caller's `timeoutMs`. */
export async function waitForTaskResult(tasks: ClientTasks, taskId: string, options: CallOptions & { intervalMs?: number } = {}): Promise<JsonObject> {
  if (!isModernVersion(tasks.client.protocolVersion)) return tasks.client.getTaskResult(taskId, options);
  const clock = tasks.features.options.clock ?? systemClock;
  const ms = options.timeoutMs;
  // 0 is no timeout, as for any request.
  if (ms === undefined || !(ms > 0)) return pollTask(tasks, taskId, options, clock);
  // The caller's timeoutMs bounds the whole wait, as tasks/result's does in 2025-11-25: polls, sleeps and input handlers alike.
  const limit = new AbortController();
  const onAbort = (): void => limit.abort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted === true) limit.abort();
  let expired = false;
  const timer = clock.schedule(clock.now() + ms, () => ((expired = true), limit.abort()), true);
  try {
    return await pollTask(tasks, taskId, { ...options, signal: limit.signal }, clock);
  } catch (e) {
    throw expired ? new McpError({ code: ErrorCode.RequestTimeout, message: `request timed out after ${ms} ms` }) : e;
  } finally {
    clock.cancel(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** The extension's wait: `tasks/get` until the task is terminal (see {@link McpClient.waitForTask}). */
async function pollTask(tasks: ClientTasks, taskId: string, options: CallOptions & { intervalMs?: number }, clock: Clock): Promise<JsonObject> {
  const answered = new Set<string>();
  for (;;) {
    const task = await tasks.client.getTask(taskId, options);
    const invalid = invalidTaskAnswer(taskId, task, tasks.client.capabilities);
    if (invalid !== undefined) throw new McpError({ code: ErrorCode.InternalError, message: `invalid tasks/get answer from the server: ${invalid}` });
    if (task.status === "completed") return checkTaskResult(tasks, taskId, task.result as JsonObject);
    // The server's own error object for the task is the peer's; one made from its status is not.
    if (task.status === "failed") throw task.error !== undefined ? new McpError(task.error, { fromPeer: true }) : new McpError({ code: ErrorCode.InternalError, message: task.statusMessage ?? "task failed" });
    if (task.status === "cancelled") throw new McpError({ code: ErrorCode.RequestCancelled, message: task.statusMessage ?? "task cancelled" });
    // Tasks extension: "the client MUST inspect" inputRequests; it answers them with its own handlers, as in an input_required round.
    if (task.status === "input_required" && task.inputRequests !== undefined && (await answerTaskInput(tasks, taskId, task, answered, options, clock))) continue;
    await sleep(tasks, clock, pollInterval(task.pollIntervalMs, options.intervalMs), options.signal);
  }
}

/**
 * Whether the answer to `method` may be a task: a 2025-11-25 request augmented with `task`,
 * or, under the extension this client declared, a method it lets become one.
 */
export function mayCreateTask(tasks: ClientTasks, method: string, params: JsonObject | undefined): boolean {
  const version = tasks.client.protocolVersion;
  if (!isProtocolVersion(version) || methodSpec(version, method)?.taskAugmentable !== true) return false;
  return isModernVersion(version) ? tasks.features.options.tasks === true : params?.task !== undefined;
}

/** Remembers which method created the task `result` names, if it names one. */
export function rememberTask(tasks: ClientTasks, method: string, result: JsonObject): void {
  const taskId = tasks.client.taskIdOf(result);
  if (taskId === undefined) return;
  if (tasks.taskMethods.size >= MAX_TASK_METHODS) tasks.taskMethods.delete(tasks.taskMethods.keys().next().value as string);
  tasks.taskMethods.set(taskId, method);
}

/**
 * Whether an answer to a `tasks/*` request about a task shows that no result of it will
 * come to be checked: the task failed or was cancelled (its status in a `tasks/get` or
 * `tasks/cancel` answer), or `tasks/result` was answered with an error by the server (the
 * task's own, or an unknown task: as the kernel ends the task's progress token then), or
 * `tasks/get` / `tasks/cancel` with `-32602` (the task is unknown: expired, say).
 */
export function endedWithoutResult(method: string, answer: JsonObject | undefined, error?: unknown): boolean {
  // The server's error: to tasks/result, the task's own or an unknown task; to tasks/get or
  // tasks/cancel, -32602 is an unknown task (expired, or never this requestor's).
  if (answer === undefined) return refusedByPeer(error) && (method === "tasks/result" || error.code === ErrorCode.InvalidParams);
  return method !== "tasks/result" && (answer.status === "failed" || answer.status === "cancelled");
}

/**
 * The final result of task `taskId`, checked against the result of the method that
 * created it when this client knows it (2025-11-25 basic/utilities/tasks: "receivers MUST
 * return from tasks/result exactly what the underlying request would have returned"; the
 * extension inlines that result). A task's result is never another task nor an
 * `input_required` round. Throws `-32603` as a direct answer like it would.
 */
export function checkTaskResult(tasks: ClientTasks, taskId: string, result: JsonObject): JsonObject {
  const method = tasks.taskMethods.get(taskId);
  const version = tasks.client.protocolVersion;
  if (method === undefined || !isProtocolVersion(version)) return result;
  tasks.taskMethods.delete(taskId);
  const interim = tasks.client.taskIdOf(result) !== undefined || result.resultType === "input_required";
  // The extension inlines the result as a plain JSONObject (SEP-2663's own example has no resultType): it is the complete shape.
  const final = isModernVersion(version) && result.resultType === undefined ? { ...result, resultType: "complete" } : result;
  const issues = interim ? [{ path: "/resultType", reason: "must be a final result" }] : methodSpec(version, method)?.validateResult?.(final);
  if (issues) throw new McpError({ code: ErrorCode.InternalError, message: `the result of task ${JSON.stringify(taskId)} is no valid ${method} result`, data: { issues } });
  return result;
}

/** Waits `ms` on `clock` between polls; rejects when `signal` aborts or the connection closes (see {@link stoppable}). */
function sleep(tasks: ClientTasks, clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return stoppable(tasks, signal, (stopped) =>
    new Promise<void>((resolve) => {
      // Held: the caller awaits this wait (see Clock.schedule); closing cancels it, so it keeps no process alive.
      const handle = clock.schedule(clock.now() + ms, resolve, true);
      stopped.addEventListener("abort", () => clock.cancel(handle), { once: true });
    }),
  );
}

/**
 * Runs `work` under a signal of its own that aborts when `signal` does or the connection
 * closes; the promise then rejects at once, with `-32800` or `-32000` as pending requests
 * do, whether or not `work` heeds its signal (a user who never answers an elicitation).
 */
function stoppable<T>(tasks: ClientTasks, signal: AbortSignal | undefined, work: (stopped: AbortSignal) => Promise<T>): Promise<T> {
  if (signal?.aborted) return Promise.reject(abortedError());
  if (tasks.closedReason !== undefined) return Promise.reject(closedError(tasks.closedReason));
  const own = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const done = (): void => {
      tasks.waits.delete(stop);
      signal?.removeEventListener("abort", onAbort);
    };
    const stop = (e: McpError): void => {
      done();
      own.abort(e);
      reject(e);
    };
    const onAbort = (): void => stop(abortedError());
    tasks.waits.add(stop);
    signal?.addEventListener("abort", onAbort, { once: true });
    work(own.signal).then(
      (v) => (done(), resolve(v)),
      (e: unknown) => (done(), reject(e)),
    );
  });
}

/** The connection closed: waits between polls and on a task's input reject as pending requests do (`-32000`); their timers go, their handlers see their signal abort. */
export function endWaits(tasks: ClientTasks, reason: string): void {
  tasks.closedReason ??= reason;
  for (const stop of [...tasks.waits]) stop(closedError(reason));
}

/**
 * Runs this client's handlers on the task's input requests not answered yet and sends
 * the answers with `tasks/update`; false when there was nothing new to answer. A handler
 * that fails rejects the wait with its error (the task is left to the caller to cancel).
 *
 * While they run (a person may take minutes), `tasks/get` is asked every poll interval:
 * once the task no longer asks for them (cancelled, expired, failed, or answered by
 * another client), their signal aborts and the wait goes back to `tasks/get`, which
 * settles it, as a 2025-11-25 handler learns from `notifications/cancelled` that its
 * request is moot. {@link McpClient.cancelTask} from this client stops them at once.
 */
async function answerTaskInput(tasks: ClientTasks, taskId: string, task: Task, answered: Set<string>, options: CallOptions & { intervalMs?: number }, clock: Clock): Promise<boolean> {
  const requests = task.inputRequests!;
  const keys = Object.keys(requests).filter((k) => !answered.has(k));
  if (keys.length === 0) return false;
  const responses: JsonObject = {};
  const moot = new AbortController();
  const rounds = tasks.taskInputs.get(taskId) ?? new Set<AbortController>();
  tasks.taskInputs.set(taskId, rounds);
  rounds.add(moot);
  const answer = async (key: string, signal: AbortSignal): Promise<void> => {
    const { method, params } = requests[key];
    const ctx: RequestContext = {
      id: `task:${taskId}:${key}`,
      method,
      signal,
      progress: () => {},
      request: () => Promise.reject(new McpError({ code: ErrorCode.InvalidRequest, message: "a task's input request cannot send requests of its own" })),
      notify: () => {},
      log: () => {},
      protocolVersion: tasks.client.protocolVersion,
    };
    // `tasks/update` carries the answers as params, which the session holds only to "an
    // object": a handler's invalid answer (a root that is no `file://` URI, an elicitation
    // result to a sampling request) would go out and the server's `-32602` blame the client's
    // request, where an `input_required` round and a legacy request blame the handler.
    const result = await serve(tasks.features, method, (params ?? {}) as JsonObject, ctx)
      .then((r) => checkedAnswer(tasks.features, method, r, (a) => inputAnswerIssues(method, a)))
      .catch((e: unknown) => {
        const error = toRpcError(e);
        throw new McpError({ ...error, message: `the ${method} input of task ${taskId} could not be provided: ${error.message}` });
      });
    Object.defineProperty(responses, key, { value: result, enumerable: true, writable: true, configurable: true });
  };
  try {
    // The handlers' signal aborts, and the wait rejects at once, when the caller aborts or the connection closes.
    const answeredAll = await stoppable(tasks, options.signal, (stopped) => {
      void watchTaskInput(tasks, taskId, keys, pollInterval(task.pollIntervalMs, options.intervalMs), clock, moot);
      const signal = eitherSignal(stopped, moot.signal);
      return untilAborted(Promise.all(keys.map((key) => answer(key, signal))), moot.signal);
    });
    // The task moved on: the next tasks/get says how.
    if (!answeredAll) return true;
  } finally {
    moot.abort();
    rounds.delete(moot);
    if (rounds.size === 0) tasks.taskInputs.delete(taskId);
  }
  for (const key of keys) answered.add(key);
  await tasks.client.updateTask(taskId, responses, options);
  return true;
}


/**
 * Asks `tasks/get` every `ms` while this client's handlers answer the task's `keys`;
 * aborts `moot` once the task no longer asks for all of them, or is gone (`-32602`).
 * Ends when `moot` aborts or the connection closes (the wait between asks rejects); any
 * other failure of one `tasks/get` (a timeout) is asked again at the next interval.
 */
async function watchTaskInput(tasks: ClientTasks, taskId: string, keys: readonly string[], ms: number, clock: Clock, moot: AbortController): Promise<void> {
  for (;;) {
    try {
      await sleep(tasks, clock, ms, moot.signal);
    } catch {
      return;
    }
    try {
      const task = await tasks.client.getTask(taskId, { signal: moot.signal });
      const asking = task.status === "input_required" ? task.inputRequests : undefined;
      if (asking === undefined || keys.some((k) => !Object.hasOwn(asking, k))) return moot.abort();
    } catch (e) {
      if (e instanceof McpError && e.code === ErrorCode.InvalidParams) return moot.abort();
    }
  }
}
