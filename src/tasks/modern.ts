/**
 * The two dialects of tasks, as data, and the tasks extension's negotiation helpers.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` (the experimental feature) and SEP-2663 /
 * `docs/extensions/tasks/overview` (the `io.modelcontextprotocol/tasks` extension of
 * 2026-07-28). The extension is "not wire-compatible" with the experimental feature; its
 * differences (SEP-2663 "Backward Compatibility" and throughout):
 *
 * - methods: `tasks/get`, `tasks/update`, `tasks/cancel`; `tasks/result` is removed
 *   ("clients calling it MUST receive -32601") and there is no `tasks/list`;
 * - the server alone decides to create a task, for any supported request (`tools/call`)
 *   of a client that declared the extension on that request; it MUST NOT return one to a
 *   client that did not, and if it cannot serve the request without one it MUST answer
 *   `-32021` naming the extension; the `task` request param is ignored;
 * - `CreateTaskResult` is the task itself with `resultType: "task"`; `tasks/get` results
 *   carry `resultType: "complete"` and inline `result` / `error` / `inputRequests`;
 * - `ttlMs` / `pollIntervalMs` instead of `ttl` / `pollInterval`;
 * - input requests are surfaced by `tasks/get` and answered by `tasks/update`, not
 *   delivered on a blocking `tasks/result` stream;
 * - `tasks/update` and `tasks/cancel` answer with an empty ack; cancellation is
 *   cooperative, so a terminal task is acknowledged rather than rejected;
 * - `failed` only for JSON-RPC errors (a tool result with `isError` is `completed`);
 * - status pushes are `notifications/tasks` with the detailed task, for clients that
 *   asked through `subscriptions/listen`; progress notifications are not supported;
 * - non-declaring clients issuing `tasks/get`, `tasks/update` or `tasks/cancel` MUST get
 *   `-32021`; over Streamable HTTP those requests carry `Mcp-Name: <taskId>`.
 *
 * Theory of operation. The reducer in `table.ts` is one machine; each task records its
 * era and each request names the dialect it arrived in, and every point where the eras
 * differ reads a field of {@link TASK_DIALECTS} rather than branching on a version.
 */
import { echoed, ErrorCode, rpcError, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { TASKS_EXTENSION } from "../model/meta.js";
import { hasCapability } from "../model/methods.js";
import type { ProtocolVersion } from "../model/versions.js";
import type { TaskEra } from "./status.js";

/** Everything that differs between the experimental feature and the extension. */
export interface TaskDialect {
  era: TaskEra;
  /** The `tasks/*` requests a requestor may send; any other `tasks/*` method is `-32601`. */
  methods: readonly string[];
  /** The request types a task may wrap. */
  augmentable: readonly string[];
  /** The status notification's method. */
  statusNotification: "notifications/tasks/status" | "notifications/tasks";
  /** Name of the TTL field of a task. */
  ttlField: "ttl" | "ttlMs";
  /** Name of the poll-interval field of a task. */
  pollIntervalField: "pollInterval" | "pollIntervalMs";
  /** `CreateTaskResult` nests the task under `task` (legacy) or is the task, with `resultType: "task"`. */
  createShape: "nested" | "flat";
  /** `resultType` stamped on `tasks/get`, `tasks/update` and `tasks/cancel` results, or null for none. */
  resultType: "complete" | null;
  /** `tasks/get` and notifications inline `result`, `error` and `inputRequests`. */
  detailed: boolean;
  /** `tasks/cancel` answers with the cancelled task, or with an empty ack. */
  cancelReply: "task" | "ack";
  /** `tasks/cancel` of a terminal task: `-32602`, or an ack. */
  cancelTerminal: "reject" | "ack";
  /** Progress notifications may continue while the task lives. */
  progress: boolean;
  /** Input requests reach the requestor on a `tasks/result` stream, or in `tasks/get`. */
  inputVia: "result-stream" | "get";
}

/** The two dialects. */
export const TASK_DIALECTS: Readonly<Record<TaskEra, TaskDialect>> = /* @__PURE__ */ Object.freeze({
  legacy: /* @__PURE__ */ Object.freeze({
    era: "legacy",
    methods: /* @__PURE__ */ Object.freeze(["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]),
    augmentable: /* @__PURE__ */ Object.freeze(["tools/call", "sampling/createMessage", "elicitation/create"]),
    statusNotification: "notifications/tasks/status",
    ttlField: "ttl",
    pollIntervalField: "pollInterval",
    createShape: "nested",
    resultType: null,
    detailed: false,
    cancelReply: "task",
    cancelTerminal: "reject",
    progress: true,
    inputVia: "result-stream",
  }),
  extension: /* @__PURE__ */ Object.freeze({
    era: "extension",
    methods: /* @__PURE__ */ Object.freeze(["tasks/get", "tasks/update", "tasks/cancel"]),
    augmentable: /* @__PURE__ */ Object.freeze(["tools/call"]),
    statusNotification: "notifications/tasks",
    ttlField: "ttlMs",
    pollIntervalField: "pollIntervalMs",
    createShape: "flat",
    resultType: "complete",
    detailed: true,
    cancelReply: "ack",
    cancelTerminal: "ack",
    progress: false,
    inputVia: "get",
  }),
} satisfies Record<TaskEra, TaskDialect>);

/**
 * The task era of a protocol version: 2025-11-25 has the experimental feature, 2026-07-28
 * the extension (when negotiated), earlier versions no tasks at all (`null`). SEP-2663: the
 * extension "is not defined under the 2025-11-25 protocol version".
 */
export function taskEraOf(version: ProtocolVersion): TaskEra | null {
  return version === "2025-11-25" ? "legacy" : version === "2026-07-28" ? "extension" : null;
}

/** True when `capabilities` (client per-request capabilities, or the server's) declare the extension. */
export function declaresTasksExtension(capabilities: unknown): boolean {
  return hasCapability(capabilities, "extensions." + TASKS_EXTENSION);
}

/**
 * Server side: may the answer to this `method` request be a `CreateTaskResult`? Only for
 * a supported request type, and only when the client declared the extension on this very
 * request ("regardless of prior declarations").
 */
export function mayReturnTask(method: string, clientCapabilities: unknown): boolean {
  return TASK_DIALECTS.extension.augmentable.includes(method) && declaresTasksExtension(clientCapabilities);
}

/** The `-32021` error naming the extension as the missing client capability. */
export function missingTasksExtension(): JsonRpcErrorObject {
  return rpcError(ErrorCode.MissingRequiredClientCapability, "Missing required client capability", {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });
}

/**
 * Server side gate for a `tasks/*` request under the extension: `-32601` for a method the
 * extension does not define (`tasks/result`, `tasks/list`, anything else), `-32021` when
 * the client did not declare the extension on the request, else `null`.
 */
export function gateExtensionRequest(method: string, clientCapabilities: unknown): JsonRpcErrorObject | null {
  if (!TASK_DIALECTS.extension.methods.includes(method)) return methodNotInDialect(method, "extension");
  return declaresTasksExtension(clientCapabilities) ? null : missingTasksExtension();
}

/** The `-32601` answer to a `tasks/*` method the dialect lacks. */
export function methodNotInDialect(method: string, era: TaskEra): JsonRpcErrorObject {
  return rpcError(ErrorCode.MethodNotFound, `Method not found: ${echoed(method)}${era === "extension" ? " is not part of the tasks extension" : ""}`);
}

/** Names of the Streamable HTTP headers a task request carries (SEP-2663 "Routing Headers", SEP-2243). */
export const TASK_ROUTING_HEADERS = /* @__PURE__ */ Object.freeze({ method: "Mcp-Method", name: "Mcp-Name" } as const);

/**
 * The routing headers of an extension `tasks/get` / `tasks/update` / `tasks/cancel`
 * request: `Mcp-Method` is the method and `Mcp-Name` MUST be `params.taskId`. `null` for
 * other methods or a missing `taskId`. Values are raw; the transport applies the header
 * value encoding (the `=?base64?…?=` sentinel) to a value that is not header-safe.
 */
export function taskRoutingHeaders(method: string, params: JsonObject | undefined): Record<string, string> | null {
  const taskId = params?.taskId;
  if (!TASK_DIALECTS.extension.methods.includes(method) || typeof taskId !== "string") return null;
  return { [TASK_ROUTING_HEADERS.method]: method, [TASK_ROUTING_HEADERS.name]: taskId };
}
