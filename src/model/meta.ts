/**
 * Reserved `_meta` key names, as named constants.
 *
 * Spec: draft `basic/index` ("General fields", `_meta`: "Certain key names are reserved
 * by MCP for protocol-level metadata"; the table of reserved keys and "Per-request
 * protocol fields"), `basic/patterns/subscriptions` (`subscriptionId`), and for the legacy
 * era 2025-11-25 `basic/utilities/tasks` (`related-task`, `model-immediate-response`).
 *
 * Every `_meta` key the kernel reads or writes is spelled here once, so a typo is a
 * compile error rather than a silently ignored field.
 */

/** `_meta` keys reserved by the specification. */
export const MetaKey = {
  /** Opts a request into progress notifications (every version). */
  progressToken: "progressToken",
  /** 2026-07-28: the protocol version of a request (required on every request). */
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  /** 2026-07-28: client name and version, sent on every request. */
  clientInfo: "io.modelcontextprotocol/clientInfo",
  /** 2026-07-28: the client capabilities relevant to a request (required on every request). */
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  /** 2026-07-28: minimum log level the server should emit for this request. */
  logLevel: "io.modelcontextprotocol/logLevel",
  /** 2026-07-28: the `subscriptions/listen` request id a notification belongs to. */
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
  /** 2026-07-28: server name and version, optionally sent on results. */
  serverInfo: "io.modelcontextprotocol/serverInfo",
  /** 2025-11-25: `{ taskId }` of the task a request, notification or response belongs to. */
  relatedTask: "io.modelcontextprotocol/related-task",
  /** 2025-11-25: text a host may hand the model while a task-augmented `tools/call` runs. */
  modelImmediateResponse: "io.modelcontextprotocol/model-immediate-response",
  /** W3C Trace Context `traceparent` (OpenTelemetry propagation, 2026-07-28). */
  traceparent: "traceparent",
  /** W3C Trace Context `tracestate`. */
  tracestate: "tracestate",
  /** W3C Baggage. */
  baggage: "baggage",
} as const;

/** One reserved `_meta` key. */
export type MetaKeyName = (typeof MetaKey)[keyof typeof MetaKey];

/**
 * The identifier of the tasks extension (`docs/extensions/tasks/overview`), declared under
 * `extensions` in client and server capabilities of 2026-07-28.
 */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/**
 * A `_meta` key with a prefix (draft `basic/index`, `_meta`, Key name format): dot-separated
 * labels, each beginning with a letter and ending with a letter or digit (hyphens between),
 * then `/`, then a name that is empty or begins and ends with an alphanumeric (`-`, `_`, `.`
 * between). Extension identifiers MUST be such keys (draft `basic/versioning`, Extension
 * Negotiation: "with a mandatory prefix").
 */
const PREFIXED_META_KEY = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\/(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;

/** Whether `id` is a valid extension identifier: a `_meta` key name with a prefix (`com.example/search`). */
export function isExtensionId(id: string): boolean {
  return PREFIXED_META_KEY.test(id);
}
