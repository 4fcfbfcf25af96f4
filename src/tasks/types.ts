/**
 * The vocabulary of the task table: its options, its state, what goes in and what comes
 * out.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` and the tasks extension (SEP-2663); see
 * `table.ts` for the theory of operation.
 *
 * Everything here is plain JSON. Times are milliseconds since the Unix epoch, taken only
 * from the `now` of each input: a task outlives the process that created it (the point
 * of snapshot and restore), so a per-process monotonic clock would not do, and
 * `createdAt` / `lastUpdatedAt` are reported as ISO 8601 instants. Task ids come from the
 * caller: the table draws no random numbers. Adapters generate them with
 * `crypto.getRandomValues` (e.g. 16 random bytes, hex or base64url), as the page requires
 * ("cryptographically secure task IDs with enough entropy to prevent guessing").
 */
import type { JsonRpcErrorObject } from "../jsonrpc/errors.js";
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import type { TaskEra, TaskStatus } from "./status.js";
import type { DeadlineEntry } from "./ttl.js";

/**
 * Who a task belongs to: the session it was created on and, when there is an
 * authorization context, the principal. Both are opaque strings; a task is visible only to
 * requests with exactly the same pair. Leave `session` out where there are no sessions
 * (the extension is sessionless): tasks are then bound to the principal alone, or, with
 * neither, to nobody in particular, and the task id is the only protection (the page:
 * such receivers SHOULD NOT declare `tasks.list`).
 */
export interface TaskOwner {
  session?: string;
  principal?: string;
  /**
   * Tells apart requestors that share an owner without a session to tell them apart (a
   * stateless HTTP handler's POSTs: the anonymous owner's many clients, or one principal's):
   * what they wait on (`tasks/result`, a task being created) is keyed by it with the request
   * id, since two of them may use the same id at once: the table knows their requests by
   * that scoped id (a task's `requestId`, its waiters'). It decides nothing about which
   * tasks they see, and the owner stored with a task leaves it out.
   */
  requestor?: string;
}

/** One server-to-client request a task waits on (`InputRequest` of the MRTR schema). */
export interface TaskInputRequest {
  method: string;
  params?: JsonObject;
  [key: string]: unknown;
}

/** A blocked `tasks/result` request. */
export interface TaskWaiter {
  id: RequestId;
  owner: TaskOwner;
}

/** One task, as the table keeps it. */
export interface TaskRecord {
  taskId: string;
  owner: TaskOwner;
  /** The isolation key derived from `owner`. */
  ownerKey: string;
  /** The dialect the task was created in (decides progress, outcome classification, input delivery). */
  era: TaskEra;
  /** Creation order: list order and cursors. */
  seq: number;
  /** The id of the task-augmented request. */
  requestId: RequestId;
  /** Its method (e.g. `tools/call`). */
  method: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  /** Its final outcome was delivered to the requestor (`tasks/result`, or an extension `tasks/get` inlining it): the first to make room at a limit. */
  retrieved?: true;
  /** Granted TTL in ms from creation, or null for unlimited. */
  ttl: number | null;
  /** `createdAt + ttl`, or null. */
  expiresAt: number | null;
  pollInterval?: number;
  /** Progress token of the original request; valid until the task is terminal (2025-11-25). */
  progressToken?: string | number;
  /** The underlying request's result (completed; or failed with a tool `isError` result, 2025-11-25). */
  result?: JsonObject;
  /** The underlying request's JSON-RPC error (failed). */
  error?: JsonRpcErrorObject;
  /** Outstanding input requests, by key. */
  inputRequests?: Record<string, TaskInputRequest>;
  /** Every input key ever issued: keys MUST be unique over the task's lifetime. */
  usedInputKeys?: string[];
  /** 2025-11-25: input key → waiter key of the `tasks/result` stream it was sent on. */
  deliveredOn?: Record<string, string>;
  /** Blocked `tasks/result` requests, oldest first. */
  waiters?: TaskWaiter[];
  /** Extension, cooperative cancellation: the requestor asked to cancel. */
  cancelRequested?: true;
}

/** How the table is configured. Every field is optional; see {@link ResolvedTaskTableOptions} for defaults. */
export interface TaskTableOptions {
  /** Dialect of inputs that name none: `"legacy"` (2025-11-25) or `"extension"`. Default `"legacy"`. */
  era?: TaskEra | undefined;
  /** TTL for requests that ask for none; null for unlimited. Default 1 hour. */
  defaultTtlMs?: number | null | undefined;
  /** Cap on granted TTLs ("Enforce maximum ttl durations"); null for none. Default 24 hours. */
  maxTtlMs?: number | null | undefined;
  /** `pollInterval` suggested for new tasks; null to suggest none. Default null. */
  pollIntervalMs?: number | null | undefined;
  /**
   * Most tasks kept at once, all owners together, terminal ones included; at the limit a
   * new task's owner's own finished task makes room (one already retrieved first, then the
   * one finished longest ago). Default 10 000.
   */
  maxTasks?: number | undefined;
  /**
   * Most tasks kept at once for one requestor ("limits on concurrent tasks per requestor"):
   * the principal when the owner has one (all its sessions together, so opening another
   * session gives it no more), else the owner (the session). At
   * the limit one of its finished tasks makes room (one already retrieved first, then the
   * one finished longest ago), so only unfinished ones refuse a new task. The anonymous owner `{}` (no session, no principal: every client of a stateless
   * server without authorization) is no one requestor and has no such limit; `maxTasks`
   * bounds it. Default 100.
   */
  maxTasksPerOwner?: number | undefined;
  /** `tasks/list` page size. Default 50. */
  pageSize?: number | undefined;
  /** Which status changes produce a status notification (a MAY): none, terminal ones, or all. Default `"none"`. */
  notifications?: "none" | "terminal" | "all" | undefined;
  /** Extension only: `tasks/cancel` just signals (the task stays as it is until the application settles it). Default false. */
  cooperativeCancel?: boolean | undefined;
  /**
   * When the last outstanding input request is answered, move the task back to `working`
   * (the page's SHOULD). Default true. Off, the task stays `input_required`, with nothing
   * outstanding, for the application to move: the table's `input-responses` output tells it;
   * a `TaskRuntime` runs the handler again, and what it answers moves the task.
   */
  resumeWhenAnswered?: boolean | undefined;
}

/** Options with every default filled in (`null` where that is the setting; not `Required<…>`, which keeps the options' `| undefined` under `exactOptionalPropertyTypes`). */
export type ResolvedTaskTableOptions = { [K in keyof TaskTableOptions]-?: Exclude<TaskTableOptions[K], undefined> };

/** Per-owner bookkeeping: how many tasks, and their ids in creation order (lazily pruned). */
export interface TaskOwnerEntry {
  count: number;
  /** `[seq, taskId]` in creation order; entries whose task is gone are pruned lazily. */
  order: [number, string][];
  /** How many entries of `order` are gone. */
  stale: number;
}

/** The whole table: plain JSON. */
export interface TaskTableState {
  /** Snapshot format. */
  v: 1;
  options: ResolvedTaskTableOptions;
  tasks: Record<string, TaskRecord>;
  /** Number of tasks in `tasks`. */
  count: number;
  /** By owner key; an owner with no tasks has no entry. */
  owners: Record<string, TaskOwnerEntry>;
  /**
   * By principal ({@link principalKey}), the tasks of every owner that has one, across its
   * sessions: the requestor `maxTasksPerOwner` counts when there is an authorization context.
   * A principal with no tasks has no entry.
   */
  principals: Record<string, TaskOwnerEntry>;
  /** Min-heap of expiry deadlines. */
  deadlines: DeadlineEntry[];
  /** How many heap entries no longer match their task. */
  staleDeadlines: number;
  /** Waiter key (owner key + request id) → task id. */
  waiting: Record<string, string>;
  /** Owner key + progress token → task id, for live 2025-11-25 tasks with a token. */
  progress: Record<string, string>;
  /** Last creation sequence number handed out. */
  seq: number;
}

/** Fields every request-shaped input shares. */
interface RequestBase {
  now: number;
  /** Id of the request being answered. */
  id: RequestId;
  /** Who is asking. */
  owner: TaskOwner;
  /** The dialect the request arrived in; default the table's `era`. */
  era?: TaskEra;
}

/** What the table is fed. */
export type TaskInput =
  /** A task-augmented request was accepted (2025-11-25) / the server chose to answer with a task (extension). */
  | (RequestBase & {
      type: "create";
      /** The new task's id: unique, unguessable, generated by the adapter. */
      taskId: string;
      /** The original request's method. */
      method: string;
      /** The `ttl` the request asked for (`params.task.ttl`), if any. */
      ttl?: number;
      /** `pollInterval` for this task (default: the option). */
      pollInterval?: number;
      /** The original request's progress token. */
      progressToken?: string | number;
      statusMessage?: string;
      /** 2025-11-25 `tools/call`: text for `_meta["io.modelcontextprotocol/model-immediate-response"]`. */
      modelImmediateResponse?: string;
    })
  /** The application moves a task (its own, so no owner check). */
  | {
      type: "update-status";
      now: number;
      taskId: string;
      status: TaskStatus;
      statusMessage?: string;
      /** For `completed` (and 2025-11-25 `failed` with a tool `isError` result). */
      result?: JsonObject;
      /** For `failed`. */
      error?: JsonRpcErrorObject;
      /** With `input_required`: new input requests, by key (keys never reused). */
      inputRequests?: Record<string, TaskInputRequest>;
      pollInterval?: number;
      /** A new TTL from creation (extension: "MAY change"); null for the maximum. */
      ttl?: number | null;
    }
  /** The underlying request finished: a result or a JSON-RPC error; the status follows from the task's era. */
  | { type: "settle"; now: number; taskId: string; result?: JsonObject; error?: JsonRpcErrorObject; statusMessage?: string }
  /** 2025-11-25: responses to input requests arrived (as responses on the session), by key. */
  | { type: "input-response"; now: number; taskId: string; responses: JsonObject }
  /** `tasks/get`. */
  | (RequestBase & { type: "get"; taskId: string })
  /** `tasks/result` (2025-11-25). */
  | (RequestBase & { type: "result"; taskId: string })
  /** `tasks/list` (2025-11-25). */
  | (RequestBase & { type: "list"; cursor?: string; pageSize?: number })
  /** `tasks/cancel`. */
  | (RequestBase & { type: "cancel"; taskId: string })
  /** `tasks/update` (extension). */
  | (RequestBase & { type: "update"; taskId: string; inputResponses: JsonObject })
  /** Any `tasks/*` request, by method and params: validated, then handled as one of the above. */
  | (RequestBase & { type: "request"; method: string; params?: JsonObject })
  /** A blocked `tasks/result` went away (cancelled, stream closed); without `id`, all of that owner's. */
  | { type: "abandon"; now: number; owner: TaskOwner; id?: RequestId }
  /** Time passed: expire what is due. */
  | { type: "tick"; now: number };

/** What the table asks its driver to do. */
export type TaskOutput =
  /** Answer request `id` with `result`. `deferred` marks a `tasks/result` released after waiting. */
  | { type: "reply"; id: RequestId; owner: TaskOwner; result: JsonObject; deferred?: true }
  /** Answer request `id` with a JSON-RPC error. */
  | { type: "reply-error"; id: RequestId; owner: TaskOwner; error: JsonRpcErrorObject; deferred?: true }
  /** `tasks/result` request `id` is blocked until the task is terminal: keep its stream open; the answer comes later as a `deferred` reply. */
  | { type: "waiting"; id: RequestId; owner: TaskOwner; taskId: string }
  /** Send a status notification to the task's owner (extension: to its `subscriptions/listen` streams for the task). */
  | { type: "notify"; owner: TaskOwner; taskId: string; method: string; params: JsonObject }
  /** 2025-11-25: send these requests to the requestor on the `tasks/result` stream of request `stream`; answers come back as `input-response`. */
  | { type: "input-requests"; taskId: string; owner: TaskOwner; stream: RequestId; requests: Record<string, TaskInputRequest> }
  /** For the application: answers to the task's input requests, by key. */
  | { type: "input-responses"; taskId: string; owner: TaskOwner; responses: JsonObject }
  /** For the application: the requestor cancelled; stop the work (the task is already `cancelled` unless cancellation is cooperative). */
  | { type: "cancel-requested"; taskId: string; owner: TaskOwner }
  /** A task was deleted: it reached its TTL, or (terminal) it made room for a new task of its owner's under a limit. */
  | { type: "expired"; taskId: string; owner: TaskOwner; status: TaskStatus }
  /** Something was ignored or refused; for logs. */
  | { type: "diagnostic"; code: string; message: string; detail?: JsonObject };

/** The result of one step. */
export interface TaskStepResult {
  state: TaskTableState;
  outputs: TaskOutput[];
}
