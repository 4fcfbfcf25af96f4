/**
 * Whether a request may be, must be, or must not be task-augmented (2025-11-25).
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` ("Capabilities", "Tool-Level Negotiation",
 * "Task Support and Handling", "Protocol Errors"). The receiver's `tasks.requests`
 * capability lists exactly the request types it accepts as tasks (`tools.call` for a
 * server; `sampling.createMessage` and `elicitation.create` for a client); `tasks.list`
 * and `tasks.cancel` gate those operations. For tools there is a second layer,
 * `execution.taskSupport` in `tools/list`:
 *
 * - capability absent: clients MUST NOT augment; a receiver that did not declare it MUST
 *   process the request normally, ignoring any `task` field;
 * - `taskSupport` absent or `"forbidden"`: clients MUST NOT augment; servers SHOULD
 *   answer an augmented call with `-32601` (Method not found);
 * - `"optional"`: either way;
 * - `"required"`: clients MUST augment; servers MUST answer a plain call with `-32601`.
 *
 * For other request types a receiver MAY require augmentation and answer `-32600`
 * (Invalid request) otherwise. Note the two codes: the tool-level rule names `-32601`,
 * the generic "task augmentation required" error `-32600`; each is used where the page
 * puts it.
 *
 * The extension (2026-07-28) has none of this: see `modern.ts`.
 */
import { ErrorCode, rpcError, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { hasCapability } from "../model/methods.js";

/** The receiver capability that admits each task-augmentable request type. */
export const TASK_REQUEST_CAPABILITIES: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  "tools/call": "tasks.requests.tools.call",
  "sampling/createMessage": "tasks.requests.sampling.createMessage",
  "elicitation/create": "tasks.requests.elicitation.create",
});

/** A tool's `execution.taskSupport`. */
export type ToolTaskSupport = "forbidden" | "optional" | "required";

/** A tool's declared task support; absent or unrecognised is `"forbidden"`, the default. */
export function taskSupportOf(tool: unknown): ToolTaskSupport {
  const execution = typeof tool === "object" && tool !== null ? (tool as JsonObject).execution : undefined;
  const v = typeof execution === "object" && execution !== null ? (execution as JsonObject).taskSupport : undefined;
  return v === "optional" || v === "required" ? v : "forbidden";
}

/** True when `capabilities` (the receiver's) admit task-augmented `method` requests. */
export function acceptsTaskAugmented(capabilities: unknown, method: string): boolean {
  return Object.hasOwn(TASK_REQUEST_CAPABILITIES, method) && hasCapability(capabilities, TASK_REQUEST_CAPABILITIES[method]);
}

/** True when `capabilities` declare `tasks.list`. */
export function supportsTaskList(capabilities: unknown): boolean {
  return hasCapability(capabilities, "tasks.list");
}

/** True when `capabilities` declare `tasks.cancel`. */
export function supportsTaskCancel(capabilities: unknown): boolean {
  return hasCapability(capabilities, "tasks.cancel");
}

/**
 * Requestor side: may a `method` request to a receiver with `capabilities` carry a
 * `task`? `"required"` (a tool that requires it), `"allowed"`, or `"forbidden"`.
 * `taskSupport` is the tool's, for `tools/call`.
 */
export function augmentationFor(method: string, capabilities: unknown, taskSupport?: ToolTaskSupport): "required" | "allowed" | "forbidden" {
  if (!acceptsTaskAugmented(capabilities, method)) return "forbidden";
  if (method !== "tools/call") return "allowed";
  const support = taskSupport ?? "forbidden";
  return support === "required" ? "required" : support === "optional" ? "allowed" : "forbidden";
}

/** The `task` field of request params, when it is an object (`TaskMetadata`). */
export function taskMetadataOf(params: JsonObject | undefined): JsonObject | undefined {
  const t = params?.task;
  return typeof t === "object" && t !== null && !Array.isArray(t) ? (t as JsonObject) : undefined;
}

/** How a receiver is to handle a request: as a task (with the requested TTL), normally, or with an error. */
export type TaskAugmentation =
  | { kind: "task"; requestedTtl?: number }
  | { kind: "normal" }
  | { kind: "error"; error: JsonRpcErrorObject };

/** What {@link checkTaskAugmentation} needs to know. */
export interface AugmentationCheck {
  /** The request method. */
  method: string;
  /** The request params. */
  params?: JsonObject;
  /** The receiver's own declared capabilities. */
  capabilities: unknown;
  /** For `tools/call`: the called tool's `execution.taskSupport` ({@link taskSupportOf}). */
  taskSupport?: ToolTaskSupport;
  /** For other request types: answer plain requests with `-32600` (the page's MAY). */
  requireTask?: boolean;
  /** The session's negotiated version, when known: one before 2025-11-25 has no tasks at all. */
  version?: string;
}

/** True when `version` is known and predates tasks (2025-11-25 introduced them): no `task` field goes out or is honoured there. */
export function predatesTasks(version: string | undefined): boolean {
  return version !== undefined && version < "2025-11-25";
}

/** Receiver side: decides how to handle an incoming request per the rules above. */
export function checkTaskAugmentation(check: AugmentationCheck): TaskAugmentation {
  const task = taskMetadataOf(check.params);
  // Not declared: "MUST process requests of that type normally, ignoring any task-augmentation
  // metadata". A session of an older version cannot have declared it, whatever the receiver
  // lists for newer ones (its result would be a CreateTaskResult that version has no type for).
  if (predatesTasks(check.version) || !acceptsTaskAugmented(check.capabilities, check.method)) return NORMAL;
  if (check.method === "tools/call") {
    const support = check.taskSupport ?? "forbidden";
    const name = typeof check.params?.name === "string" ? check.params.name : "";
    if (task !== undefined && support === "forbidden") {
      return { kind: "error", error: rpcError(ErrorCode.MethodNotFound, `Tool '${name}' does not support task-augmented execution`) };
    }
    if (task === undefined && support === "required") {
      return { kind: "error", error: rpcError(ErrorCode.MethodNotFound, `Tool '${name}' requires task-augmented execution`) };
    }
  } else if (task === undefined && check.requireTask === true) {
    return { kind: "error", error: rpcError(ErrorCode.InvalidRequest, `Task augmentation required for ${check.method} requests`) };
  }
  if (task === undefined) return NORMAL;
  return typeof task.ttl === "number" ? { kind: "task", requestedTtl: task.ttl } : { kind: "task" };
}

const NORMAL: TaskAugmentation = /* @__PURE__ */ Object.freeze({ kind: "normal" });
