/**
 * How McpServer decides, per request, whether a tool call runs as a task, and what it
 * declares for tasks.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` ("Capabilities", "Tool-Level Negotiation",
 * "Protocol Errors"); SEP-2663 ("Capability Negotiation", "Backward Compatibility").
 *
 * Theory of operation. The era of the request decides the rules, never the tool:
 *
 * - 2025-11-25 (a legacy session): the requestor asks with `params.task`; the receiver
 *   follows its declared `tasks.requests.tools.call` and the tool's
 *   `execution.taskSupport` (`checkTaskAugmentation` of `tasks/capabilities.ts`): a
 *   `forbidden` tool asked for a task, or a `required` one called plainly, is `-32601`.
 * - 2026-07-28 with the extension: the server decides. A tool that supports tasks runs
 *   as one whenever the client declared `io.modelcontextprotocol/tasks` on this very
 *   request; `params.task` is ignored. A `required` tool called by a client that did not
 *   declare it is `-32021` naming the extension; an `optional` one runs normally.
 *
 * Tasks of a legacy session belong to that session; modern requests are sessionless, so
 * their tasks belong to no session (and the unguessable id protects them, which is why
 * the extension has no `tasks/list`).
 */
import type { JsonRpcErrorObject } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { MetaKey, TASKS_EXTENSION } from "../model/meta.js";
import { hasCapability } from "../model/methods.js";
import { isModernVersion } from "../model/versions.js";
import { checkTaskAugmentation, type ToolTaskSupport } from "../tasks/capabilities.js";
import { declaresTasksExtension, gateExtensionRequest } from "../tasks/modern.js";
import type { TaskEra } from "../tasks/status.js";
import type { TaskOwner } from "../tasks/types.js";
import { progressTokenOf } from "../session/progress.js";

/** What a server that runs tools as tasks declares: the 2025-11-25 capability and the extension. */
export function taskCapabilities(): JsonObject {
  return {
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    extensions: { [TASKS_EXTENSION]: {} },
  };
}

/**
 * True when `declared` (a server's own capabilities) offer tasks to a request read under
 * `version`: the 2025-11-25 `tasks` capability, or the extension in the modern era.
 */
export function declaresTaskSupport(declared: JsonObject, version: string | undefined): boolean {
  return isModernVersion(version) ? declaresTasksExtension(declared) : hasCapability(declared, "tasks");
}

/** How to serve one `tools/call`. */
export type ToolTaskDecision = { kind: "task"; era: TaskEra; ttl?: number; progressToken?: string | number } | { kind: "normal" } | { kind: "error"; error: JsonRpcErrorObject };

/** The client capabilities a modern request declares in its `_meta`. */
export function requestCapabilities(params: JsonObject | undefined): unknown {
  const meta = params?._meta;
  return typeof meta === "object" && meta !== null ? (meta as JsonObject)[MetaKey.clientCapabilities] : undefined;
}

/**
 * Decides how `tools/call` with `params` to a tool with `support` is served, given the
 * server's capabilities and the version the request is served under
 * (`RequestContext.protocolVersion`: a modern request's own, a legacy one's negotiated).
 * The session decides a request's era once; the API layer reads it from that version
 * rather than from `_meta` again, so the two cannot disagree.
 */
export function toolTaskDecision(params: JsonObject, support: ToolTaskSupport, serverCapabilities: JsonObject, version: string | undefined): ToolTaskDecision {
  if (isModernVersion(version)) {
    if (support === "forbidden") return NORMAL;
    if (declaresTasksExtension(requestCapabilities(params))) return { kind: "task", era: "extension" };
    if (support === "required") return { kind: "error", error: gateMissing() };
    return NORMAL;
  }
  const check = checkTaskAugmentation({ method: "tools/call", params, capabilities: serverCapabilities, taskSupport: support, version });
  if (check.kind !== "task") return check;
  const d: ToolTaskDecision = { kind: "task", era: "legacy" };
  if (check.requestedTtl !== undefined) d.ttl = check.requestedTtl;
  const token = progressTokenOf(params);
  if (token !== undefined) d.progressToken = token;
  return d;
}

function gateMissing(): JsonRpcErrorObject {
  // The -32021 of gateExtensionRequest, for a tool call rather than a tasks/* request.
  return gateExtensionRequest("tasks/get", undefined)!;
}

/** Who owns the tasks a request creates or reads: the legacy session, or, for a modern request, no session. */
export function taskOwnerOf(version: string | undefined, session: TaskOwner): TaskOwner {
  if (!isModernVersion(version)) return session;
  return session.principal === undefined ? {} : { principal: session.principal };
}

/** The `-32021` (or `-32601`) a modern `tasks/*` request gets when the client lacks the extension; null when it may proceed. */
export function taskRequestGate(method: string, params: JsonObject | undefined, version: string | undefined): JsonRpcErrorObject | null {
  if (!isModernVersion(version)) return null;
  return gateExtensionRequest(method, requestCapabilities(params));
}

/** The era a `tasks/*` request is read in. */
export function taskEraOfRequest(version: string | undefined): TaskEra {
  return isModernVersion(version) ? "extension" : "legacy";
}

/** Params without the 2025-11-25 `task` field: the work runs as the plain request would. */
export function withoutTaskField(params: JsonObject): JsonObject {
  if (!Object.hasOwn(params, "task")) return params;
  const { task: _, ...rest } = params;
  return rest;
}

const NORMAL: ToolTaskDecision = /* @__PURE__ */ Object.freeze({ kind: "normal" });

/**
 * The owner of a session's tasks when none was given: a random session key, drawn on
 * first read. A session that never makes a task never touches the random source (on
 * Node its first use loads WebCrypto, ~15 ms of a server's cold start). A class, not a
 * literal with a getter (which the runtime builds with a closure): one is made for every
 * modern HTTP request.
 */
class LazySessionOwner implements TaskOwner {
  #key: string | undefined;
  declare principal?: string;

  get session(): string {
    return (this.#key ??= randomSessionKey());
  }
}

export function sessionOwner(): TaskOwner {
  return new LazySessionOwner();
}

/**
 * The owner of a stateless HTTP handler's POST: no session, so its tasks are found by later
 * POSTs as the anonymous owner's (or the principal's, once set), and a requestor key of its
 * own, drawn only if read, keys what it waits on ({@link TaskOwner.requestor}).
 */
class StatelessOwner implements TaskOwner {
  #key: string | undefined;
  declare principal?: string;

  get requestor(): string {
    return (this.#key ??= randomKey("requestor-"));
  }
}

export function statelessOwner(): TaskOwner {
  return new StatelessOwner();
}

/** A random session key for a handler that was given no owner: tasks stay with the session that made them. */
export function randomSessionKey(): string {
  return randomKey("session-");
}

/** `prefix` and 96 random bits, as hex. */
function randomKey(prefix: string): string {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  let s = prefix;
  for (const x of b) s += (x < 16 ? "0" : "") + x.toString(16);
  return s;
}
