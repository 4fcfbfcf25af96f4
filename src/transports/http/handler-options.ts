/**
 * The checks `createHttpHandler` runs on its options before it builds anything: each
 * option it would misread rather than refuse is a `TypeError` or `RangeError` naming it.
 *
 * Spec: none of its own; the options configure the Streamable HTTP transport of
 * 2025-11-25 `basic/transports` and of the draft's `basic/transports/streamable-http`.
 *
 * Theory of operation. A misspelled option name, a missing `createSession`, a number given
 * as text or negative, or an allow-list that is neither a list nor a predicate would not
 * fail: the handler would run with a default, or answer every request with an error
 * status, far from the mistake. {@link refuseMisreadOptions} refuses them at once, in that
 * order; {@link OPTION_NAMES} is checked against {@link HttpHandlerOptions} at compile
 * time, so a new option cannot be left out of the misspelling check. The defaults
 * themselves are applied where each option is used (`http-server.ts`,
 * `http/session-table.ts`).
 */
import { knownNames, refuseMisreadNumbers, refuseMisspelledOptions } from "../../api/option-names.js";
import type { HttpHandlerOptions } from "../http-server.js";

/** The handler's numeric options: each a number >= 0 (Infinity included: no bound). */
const NUMERIC_OPTIONS = ["maxSessions", "retryMs", "pollingCloseAfterMs", "sessionIdleMs", "maxBodyBytes", "maxQueuedBytes", "sseKeepAliveMs", "maxModernRequests", "maxListenStreams", "modernStreamAfterMs"] as const;

const OPTION_NAMES = /* @__PURE__ */ knownNames<HttpHandlerOptions>()([
  "createSession",
  "path",
  "allowedOrigins",
  "cors",
  "allowedHosts",
  "enableJsonResponse",
  "legacy",
  "stateless",
  "httpSse",
  "sessionIdGenerator",
  "maxSessions",
  "eventStore",
  "retryMs",
  "pollingCloseAfterMs",
  "sessionIdleMs",
  "maxBodyBytes",
  "maxQueuedBytes",
  "sseKeepAliveMs",
  "maxModernRequests",
  "maxListenStreams",
  "modernStreamAfterMs",
  "strictProtocolVersionHeader",
  "clock",
  "onDiagnostic",
  "toolInputSchema",
  "modern",
]);

const EVENT_STORE_NAMES = /* @__PURE__ */ knownNames<NonNullable<HttpHandlerOptions["eventStore"]>>()(["maxEventsPerStream", "maxTotalSize", "maxSessionSize", "maxRetainedStreams"]);

/**
 * Options the handler would misread rather than refuse, named: a misspelled name, no `createSession` (every
 * request a bare 500), a number given as text or negative (`maxSessions: -1` made every
 * `initialize` 503, `maxBodyBytes: "big"` every request 413), an allow-list that is neither
 * a list nor a predicate.
 */
export function refuseMisreadOptions(options: HttpHandlerOptions): void {
  if (typeof options !== "object" || options === null) throw new TypeError("createHttpHandler takes an options object: createHttpHandler({ createSession: server.httpSession() })");
  refuseMisspelledOptions("createHttpHandler", options, OPTION_NAMES);
  if (typeof options.eventStore === "object" && options.eventStore !== null) {
    refuseMisspelledOptions("createHttpHandler eventStore", options.eventStore, EVENT_STORE_NAMES);
    // The official SDKs' event store is an object of methods (storeEvent, replayEventsAfter):
    // here it would be read as no limits at all, the store it names never used.
    const store = options.eventStore as Record<string, unknown>;
    // Its methods may be a class's, on the prototype, which Object.keys does not list.
    const methods = [...new Set([...Object.keys(store), "storeEvent", "replayEventsAfter", "getStreamIdForEventId"])].filter((k) => typeof store[k] === "function");
    if (methods.length > 0) throw new TypeError(`createHttpHandler: eventStore takes the replay log's limits (${EVENT_STORE_NAMES.join(", ")}), not a store of your own (it has ${methods.join(", ")}): the log is kept in this process`);
  }
  // Stateless is how 2025-era clients are served; a modern-only handler serves none.
  if (options.stateless === true && options.legacy === false) throw new TypeError("createHttpHandler: stateless serves 2025-era clients without sessions, and legacy: false serves no 2025-era client: give one or the other");
  refuseMisreadHttpSse(options);
  if (typeof options.createSession !== "function") throw new TypeError("createHttpHandler: createSession must be a function (server.httpSession() makes one)");
  const o = options as unknown as Record<string, unknown>;
  refuseMisreadNumbers("createHttpHandler", options, NUMERIC_OPTIONS);
  for (const key of ["allowedOrigins", "allowedHosts"] as const) {
    const v = o[key];
    if (v !== undefined && !Array.isArray(v) && typeof v !== "function" && !(key === "allowedHosts" && v === false)) {
      throw new TypeError(`createHttpHandler: ${key} must be a list of strings or a predicate${key === "allowedHosts" ? " (or false)" : ""} (got ${JSON.stringify(v)})`);
    }
  }
}

const HTTP_SSE_NAMES = /* @__PURE__ */ knownNames<NonNullable<HttpHandlerOptions["httpSse"]>>()(["path", "messagesPath"]);

/**
 * `httpSse` (the deprecated HTTP+SSE transport beside the MCP endpoint): two distinct
 * paths, neither the MCP endpoint's, on a handler that has sessions for the old clients.
 */
function refuseMisreadHttpSse(options: HttpHandlerOptions): void {
  const o = options.httpSse as unknown;
  if (o === undefined) return;
  if (typeof o !== "object" || o === null) throw new TypeError('createHttpHandler: httpSse must be { path, messagesPath } (e.g. { path: "/sse", messagesPath: "/messages" })');
  refuseMisspelledOptions("createHttpHandler httpSse", o, HTTP_SSE_NAMES);
  const { path, messagesPath } = o as Record<string, unknown>;
  for (const [key, value] of [["path", path], ["messagesPath", messagesPath]] as const) {
    // As a request's URL would name it (percent-encoded, dot segments resolved), or it never matches one.
    if (typeof value !== "string" || !value.startsWith("/") || new URL(value, "http://h").pathname !== value) {
      throw new TypeError(`createHttpHandler: httpSse.${key} must be a path beginning with "/", as a URL spells it (percent-encoded, no dot segments, query or fragment; got ${JSON.stringify(value)})`);
    }
  }
  if (path === messagesPath || path === options.path || messagesPath === options.path) throw new TypeError("createHttpHandler: httpSse.path, httpSse.messagesPath and path must be three different paths");
  // The old transport's sessions live in this handler: its POSTs must reach the instance that holds the stream.
  if (options.stateless === true || options.legacy === false) throw new TypeError("createHttpHandler: httpSse serves 2024-11-05 clients in sessions; it cannot be combined with stateless or legacy: false");
}
