/**
 * Options objects whose every field is given, as `undefined`: what a caller that forwards
 * settings it may not have passes (`{ timeoutMs: opts.timeout }`). The README says an
 * option given as `undefined` is read as one left out; each object here is typed so that
 * an option added to its interface is a compile error until it is listed.
 */
import type { McpClientOptions } from "../../src/api/client.js";
import type { McpServerOptions } from "../../src/api/server.js";
import type { TaskRuntimeOptions } from "../../src/api/tasks.js";
import type { SessionOptions } from "../../src/session/types.js";
import type { SpawnOptions } from "../../src/transports/child.js";
import type { HttpClientOptions, ReconnectOptions } from "../../src/transports/http-client.js";
import type { ServeNodeOptions } from "../../src/transports/http-node.js";
import type { HttpHandlerOptions } from "../../src/transports/http-server.js";
import type { WebStreamsOptions } from "../../src/transports/web-streams.js";

/** Every field of `T`, each `undefined`. */
export type AllUndefined<T> = { [K in keyof Required<T>]: undefined };

export const SESSION_NONE: AllUndefined<Omit<SessionOptions, "role" | "info" | "capabilities" | "instructions">> = {
  versions: undefined,
  extensionMethods: undefined,
  requestTimeoutMs: undefined,
  discoverTimeoutMs: undefined,
  maxRequestTimeoutMs: undefined,
  resetTimeoutOnProgress: undefined,
  keepAliveMs: undefined,
  keepAliveMaxMissed: undefined,
  progressIntervalMs: undefined,
  maxInboundRequests: undefined,
  maxOutboundRequests: undefined,
  maxMessageBytes: undefined,
  maxDepth: undefined,
  validateOutgoing: undefined,
  cacheTtlMs: undefined,
  cacheScope: undefined,
  maxSubscriptions: undefined,
  era: undefined,
  maxInputRounds: undefined,
  maxProgressPerSecond: undefined,
  maxCompletionsPerSecond: undefined,
  maxLogMessagesPerSecond: undefined,
};

export const TASKS_NONE: AllUndefined<TaskRuntimeOptions> = {
  era: undefined,
  defaultTtlMs: undefined,
  maxTtlMs: undefined,
  pollIntervalMs: undefined,
  maxTasks: undefined,
  maxTasksPerOwner: undefined,
  pageSize: undefined,
  notifications: undefined,
  cooperativeCancel: undefined,
  resumeWhenAnswered: undefined,
  clock: undefined,
  wallClock: undefined,
  store: undefined,
  generateTaskId: undefined,
  restore: undefined,
  onError: undefined,
};

export const SERVER_NONE: AllUndefined<McpServerOptions> = {
  pageSize: undefined,
  jsonSchema: undefined,
  elicitationForms: undefined,
  listChanged: undefined,
  subscribe: undefined,
  logging: undefined,
  capabilities: undefined,
  fallback: undefined,
  intercept: undefined,
  session: undefined,
  clock: undefined,
  onError: undefined,
  onEvent: undefined,
  record: undefined,
  requestState: undefined,
  requestStateTtlMs: undefined,
  wallClock: undefined,
  maxInputRounds: undefined,
  tasks: undefined,
};

export const CLIENT_NONE: AllUndefined<McpClientOptions> = {
  capabilities: undefined,
  handlers: undefined,
  fallback: undefined,
  session: undefined,
  clock: undefined,
  onError: undefined,
  onEvent: undefined,
  record: undefined,
  tasks: undefined,
  receiveTasks: undefined,
  jsonSchema: undefined,
  elicitationForms: undefined,
  listChanged: undefined,
};

export const HANDLER_NONE: AllUndefined<Omit<HttpHandlerOptions, "createSession">> = {
  path: undefined,
  allowedOrigins: undefined,
  cors: undefined,
  allowedHosts: undefined,
  enableJsonResponse: undefined,
  legacy: undefined,
  stateless: undefined,
  httpSse: undefined,
  sessionIdGenerator: undefined,
  maxSessions: undefined,
  eventStore: undefined,
  retryMs: undefined,
  pollingCloseAfterMs: undefined,
  sessionIdleMs: undefined,
  maxBodyBytes: undefined,
  maxQueuedBytes: undefined,
  sseKeepAliveMs: undefined,
  maxModernRequests: undefined,
  maxListenStreams: undefined,
  modernStreamAfterMs: undefined,
  strictProtocolVersionHeader: undefined,
  clock: undefined,
  onDiagnostic: undefined,
  toolInputSchema: undefined,
  modern: undefined,
};

export const EVENT_STORE_NONE: AllUndefined<NonNullable<HttpHandlerOptions["eventStore"]>> = {
  maxEventsPerStream: undefined,
  maxTotalSize: undefined,
  maxSessionSize: undefined,
  maxRetainedStreams: undefined,
};

export const HTTP_CLIENT_NONE: AllUndefined<HttpClientOptions> = {
  fetch: undefined,
  headers: undefined,
  maxMessageBytes: undefined,
  reconnect: undefined,
  sleep: undefined,
  openGetStream: undefined,
  sseFallback: undefined,
  readIdleMs: undefined,
  onError: undefined,
  requestHeaders: undefined,
};

export const RECONNECT_NONE: AllUndefined<ReconnectOptions> = {
  initialDelayMs: undefined,
  maxDelayMs: undefined,
  factor: undefined,
  maxRetries: undefined,
  maxReissues: undefined,
};

export const SERVE_NODE_NONE: AllUndefined<ServeNodeOptions> = { clock: undefined, port: undefined, host: undefined };

/** The options every stream transport shares (`framing` aside: the stdio ones fix it). */
const STREAM_NONE = {
  maxLineBytes: undefined,
  maxQueuedChars: undefined,
  maxStallMs: undefined,
  clock: undefined,
  onFault: undefined,
  batchWrites: undefined,
};

export const WEB_STREAMS_NONE: AllUndefined<WebStreamsOptions> = { ...STREAM_NONE, framing: undefined, encoding: undefined };

export const SPAWN_NONE: AllUndefined<SpawnOptions> = {
  ...STREAM_NONE,
  env: undefined,
  cwd: undefined,
  stderr: undefined,
  shutdownTimeoutMs: undefined,
  killTimeoutMs: undefined,
  exitGraceMs: undefined,
};
