/**
 * The vocabulary of the session kernel: its options, its state, what goes in and what
 * comes out.
 *
 * Theory of operation. A session is a pure state machine driven by {@link SessionInput}s.
 * Every input carries `now` (milliseconds on any monotonic clock the driver likes); the
 * kernel never reads a clock, draws a random number or touches I/O. Each step returns
 * {@link SessionOutput}s: messages to write, events for the application, and the next
 * deadline at which the driver must feed a `tick`. The state is plain JSON data, so a
 * driver can snapshot it (`JSON.stringify`), restore it elsewhere, or record a transcript
 * and replay it bit for bit.
 *
 * The state object is owned by its driver and updated in place by `step` (copying a
 * table of in-flight requests on every message would make cost grow with concurrency);
 * take a snapshot with `structuredClone` or a JSON round trip when one is needed.
 */
import type { JsonRpcErrorObject } from "../jsonrpc/errors.js";
import type { JsonObject, JsonRpcMessage, RequestId } from "../jsonrpc/types.js";
import type { TaskProgressToken } from "./task-progress.js";
import type { DeclaredMethods, Side } from "../model/methods.js";
import type { LegacyVersion, ModernVersion, ProtocolVersion } from "../model/versions.js";
import type { SubscriptionFilter } from "../modern/subscriptions.js";

/** An icon for display (schema `Icon`). */
export type Icon = {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
};

/**
 * Name, version and optional display fields of a client or server (schema
 * `Implementation`). No index signature, as the schema has none: a value typed with the
 * schema's `Implementation` is one of these.
 */
export type Implementation = {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
};

/** RFC 5424 severities, lowest first, as `logging/setLevel` and `notifications/message` use them. */
export const LOGGING_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** One logging severity. */
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

/** What a session is configured with; all fields are plain data and part of the state. */
export interface SessionOptions {
  /** Which side this kernel plays. */
  role: Side;
  /** `clientInfo` or `serverInfo`. */
  info: Implementation;
  /** The capabilities this side declares. */
  capabilities: JsonObject;
  /** Server only: the `instructions` of the initialize result. */
  instructions?: string | undefined;
  /** Versions this side speaks, in preference order (default: every legacy version). */
  versions?: ProtocolVersion[] | undefined;
  /** Default timeout of an outgoing request in ms (default 60 000; 0 disables). Not for `subscriptions/listen`, which is meant to stay open, nor `tasks/result`, which blocks until the task is terminal. */
  requestTimeoutMs?: number | undefined;
  /**
   * Client: how long the `server/discover` probe, with its `-32022` retries, waits for an
   * answer before falling back to `initialize` (default 10 000; never longer than a
   * positive `requestTimeoutMs`; 0: only `requestTimeoutMs`). A
   * legacy server may never answer it (draft `basic/transports/stdio`, Backward Compatibility).
   */
  discoverTimeoutMs?: number | undefined;
  /** Upper bound on a request's lifetime even when progress keeps resetting its timeout (default 600 000; 0 disables; a `subscriptions/listen` or `tasks/result` has it only with its own positive `timeoutMs`). */
  maxRequestTimeoutMs?: number | undefined;
  /** Whether progress for an outgoing request resets its timeout (default true). */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Send a keep-alive `ping` this often once operating, in ms (default 0: off). */
  keepAliveMs?: number | undefined;
  /**
   * Keep-alive pings that may go unanswered in a row, each given `keepAliveMs`, before the
   * connection is treated as failed and closed, naming why (basic/utilities/ping, "Timeouts
   * SHOULD be treated as connection failures"; 0: never, each is only a `stale` output).
   * Default 1 for a client, whose ping always has a way to the server (stdin, a POST), and
   * 0 for a server, whose ping may have none: a 2025-era HTTP client need not open the GET
   * stream a server's ping travels on, and closing its session for that would be wrong.
   */
  keepAliveMaxMissed?: number | undefined;
  /** Outgoing progress for one request is sent at most this often; faster updates are coalesced (default 0: off). */
  progressIntervalMs?: number | undefined;
  /** Most requests from the peer handled at once (default 1024). */
  maxInboundRequests?: number | undefined;
  /** Most requests to the peer awaiting a response at once (default 1024). */
  maxOutboundRequests?: number | undefined;
  /** Largest message accepted, in bytes (default 4 MiB). */
  maxMessageBytes?: number | undefined;
  /** Deepest JSON nesting accepted (default 64). */
  maxDepth?: number | undefined;
  /** Validate what the application sends before it goes on the wire (default true). */
  validateOutgoing?: boolean | undefined;
  /** Modern era: `ttlMs` put on cacheable results that carry none (default 0: immediately stale). */
  cacheTtlMs?: number | undefined;
  /** Modern era: `cacheScope` put on cacheable results that carry none (default "private", the safe choice). */
  cacheScope?: "public" | "private" | undefined;
  /** Most `subscriptions/listen` streams open at once (default 64). */
  maxSubscriptions?: number | undefined;
  /**
   * Client: the server's era when already known (cached from an earlier run): `legacy` skips
   * the probe, until the server refutes it with a modern error to `initialize` (then it probes).
   */
  era?: "legacy" | "modern" | undefined;
  /** Client: most `input_required` rounds for one request before it fails (default 8). */
  maxInputRounds?: number | undefined;
  /**
   * Most `notifications/progress` delivered per request (or task token) per second; the
   * rest of that second's are dropped with a `progress-rate-limited` diagnostic, so a
   * flooding peer cannot flood the application (default 100; 0: no limit).
   */
  maxProgressPerSecond?: number | undefined;
  /**
   * Most `notifications/message` per second for the whole session, in each direction (the
   * `now` of the inputs is the clock). A server sends at most this many log messages (legacy
   * and modern alike: the modern requests a session serves share its budget; over Streamable
   * HTTP each modern request has a session, and so a budget, of its own);
   * a client delivers at most this many to the application. The rest of that second's are
   * dropped, and once the second is over one `log-rate-limited` diagnostic says how many
   * (server/utilities/logging: servers SHOULD rate limit log messages; under Security,
   * implementations SHOULD rate limit messages) (default 100; 0: no limit).
   */
  maxLogMessagesPerSecond?: number | undefined;
  /**
   * Server: most `completion/complete` requests taken per second; the rest of that second's
   * are refused with `-32600` and a `limit-reached` diagnostic (server/utilities/completion,
   * Security: implementations MUST rate limit; see `completion-rate.ts`) (default 30; 0: no limit).
   */
  maxCompletionsPerSecond?: number | undefined;
  /**
   * Methods an extension of the application's adds (draft `basic/versioning`, "Extension
   * Negotiation"), by name: `{ "com.example/search": { kind: "request", from: "client" } }`,
   * with `extension: "com.example/search"` to send it only to a peer that declared that
   * extension (and take it only when this side did). The session sends and accepts them
   * like the protocol's own, in the phases those are allowed in, holding them to JSON-RPC's
   * shape only (params and result objects); an undeclared method is still refused
   * (`-32601`). A name of the protocol's, one that begins with `rpc.`, or one that is not
   * visible ASCII cannot be declared (such an entry is left out).
   */
  extensionMethods?: DeclaredMethods | undefined;
}

/**
 * Options with every default filled in: what the state actually holds. (Not `Required<…>`:
 * for a consumer compiled with `exactOptionalPropertyTypes` it keeps the options' `| undefined`.)
 */
export type ResolvedOptions = { [K in keyof Omit<SessionOptions, "instructions" | "era" | "extensionMethods">]-?: Exclude<SessionOptions[K], undefined> } & { instructions?: string; era?: "legacy" | "modern"; extensionMethods?: DeclaredMethods };

/** What the peer told us about itself during initialization. */
export interface PeerInfo {
  info: Implementation;
  capabilities: JsonObject;
  instructions?: string;
}

/**
 * The lifecycle phase (spec: 2025-11-25 `basic/lifecycle`). Each phase holds only what is
 * valid in it: there is no negotiated version before the handshake, no peer before the
 * peer has spoken.
 */
export type Phase =
  | { name: "new" }
  /**
   * Client: `initialize` is out. `cached`: sent without a probe on the `era: "legacy"`
   * option of a client that also speaks a modern version, so a recognized modern refusal
   * re-probes (handshake.ts).
   */
  | { name: "initializing"; requestKey: string; cached?: true }
  /** Client, modern or dual-era: the `server/discover` probe is out (draft `basic/versioning`). */
  /** `retries`: re-sent probes after -32022 so far (absent in states saved before it existed: 0). */
  | { name: "probing"; requestKey: string; version: ModernVersion; retries?: number }
  /** Client: talking to a modern server; every request carries its own `_meta`. */
  | { name: "modern"; version: ModernVersion; peer: PeerInfo }
  | { name: "awaiting-initialized"; version: LegacyVersion; peer: PeerInfo }
  | { name: "operating"; version: LegacyVersion; peer: PeerInfo }
  | { name: "closed"; reason: string; version?: ProtocolVersion; peer?: PeerInfo };

/** A request this side sent and is waiting on. */
export interface OutboundRequest {
  id: RequestId;
  method: string;
  /**
   * Kernel-internal requests (initialize, keep-alive ping) never surface as app events.
   * `abandoned-task`: a task-augmented request the application cancelled or timed out,
   * awaited only to cancel its task; `task-cancel`: the `tasks/cancel` sent for that task.
   */
  internal?: "initialize" | "keepalive" | "discover" | "abandoned-task" | "task-cancel";
  /** MRTR retry: the id of the application's original request, which every event names. */
  origin?: RequestId;
  /** The peer's request this one was sent for (`related`): its cancellation is sent for that request too. */
  related?: RequestId;
  /** Modern client: the application's params, kept for an MRTR retry. */
  params?: JsonObject;
  /** Modern client: which `input_required` round this attempt is (0 for the first). */
  round?: number;
  /** Modern client: the `logLevel` the application asked for, kept for an MRTR retry. */
  logLevel?: LoggingLevel;
  progressToken?: string | number;
  /** Highest progress seen; progress must increase. */
  progress?: number;
  /**
   * MRTR retry: the highest progress the application was handed for the call in earlier
   * rounds. Each round is a new request with a new token, whose progress starts over on
   * the wire; the call's own must still increase (progress.mdx), so this attempt's is
   * handed on only past it.
   */
  shownProgress?: number;
  /** Inbound progress rate: [start of the current one-second window, notifications in it]. */
  progressWindow?: [number, number];
  /** When it times out (ms), or null for never. */
  deadline: number | null;
  /** Hard cap that progress cannot push `deadline` past, or null. */
  hardDeadline: number | null;
  timeoutMs: number;
  /** 2025-11-25 task-augmented (`params.task`): cancelled with `tasks/cancel`, not `notifications/cancelled`. */
  task?: boolean;
  /**
   * Modern client, a `subscriptions/listen`: the filter asked for, narrowed to what the
   * server acknowledged once it has (receive.ts admits only what it covers).
   */
  listen?: { filter: SubscriptionFilter; acknowledged?: true };
  /** A `tasks/result` request's task: any answer to it, an error too, ends that task's progress token (task-progress.ts). */
  resultOf?: string;
}

/** A request the peer sent that the application is handling. */
export interface InboundRequest {
  id: RequestId;
  method: string;
  /** Modern era: what the request declared about itself (it is all the server may rely on). */
  modern?: { version: ModernVersion; capabilities: JsonObject; logLevel?: LoggingLevel };
  /** Modern client: an input request of an `input_required` result, answered locally, never on the wire. */
  mrtr?: { origin: string; key: string };
  /** A `subscriptions/listen` stream: the filter the server agreed to. */
  subscription?: SubscriptionFilter;
  progressToken?: string | number;
  /** Last progress value sent for it. */
  progress?: number;
  /** When the last progress notification went out. */
  progressSentAt?: number;
  /** Coalesced progress waiting for its slot. */
  pendingProgress?: { progress: number; total?: number; message?: string; at: number };
  /** 2025-11-25 task-augmented (`params.task`) under this side's declared `tasks.requests`: a `notifications/cancelled` for it is ignored (it MUST be `tasks/cancel`). */
  task?: boolean;
}

/** One `input_required` round a modern client is gathering answers for (draft `basic/patterns/mrtr`). */
export interface MrtrRound {
  origin: RequestId;
  method: string;
  params?: JsonObject;
  timeoutMs: number;
  /**
   * The call's deadline, carried over from the attempt that got `input_required` and on to
   * the retry: the call's timeout runs while the application gathers the inputs (mrtr.ts
   * `receiveInputRequired` says why). Null for never (also when absent, in a state saved
   * before it existed: read with `?? null`).
   */
  deadline: number | null;
  /** The call's `maxRequestTimeoutMs` cap, fixed when the application sent it, or null. */
  hardDeadline: number | null;
  progress: boolean;
  /** The highest progress the application was handed for the call so far (see {@link OutboundRequest.shownProgress}). */
  shownProgress?: number;
  round: number;
  logLevel?: LoggingLevel;
  requestState?: string;
  /** The input keys in the order the server asked for them: the order of `inputResponses` on the retry. */
  keys: string[];
  /** Input keys not answered yet. */
  waiting: string[];
  responses: JsonObject;
}

/**
 * One direction's `notifications/message` budget: the one-second window that began with
 * the first message after the previous window ended.
 */
export interface LogWindow {
  /** When the window began (the `now` of its first message). */
  start: number;
  /** Messages sent (or delivered) in it. */
  count: number;
  /** Messages dropped in it past `maxLogMessagesPerSecond`, reported once the window ends. */
  dropped: number;
}

/** The whole state of one session. Plain JSON. */
export interface SessionState {
  options: ResolvedOptions;
  phase: Phase;
  /** Next outgoing request id (a counter: deterministic, never reused in a session). */
  nextId: number;
  /** Requests we sent, by {@link idKey}. */
  outbound: Record<string, OutboundRequest>;
  outboundCount: number;
  /**
   * How many of {@link SessionState.outbound} are `abandoned-task`: not counted against
   * `maxOutboundRequests`, and bounded by it on their own (absent in states saved before it existed: 0).
   */
  abandonedCount?: number;
  /** Requests we received and have not answered, by {@link idKey}. */
  inbound: Record<string, InboundRequest>;
  inboundCount: number;
  /** Progress token key → outbound request key. */
  progressTokens: Record<string, string>;
  /** Requestor: progress tokens of 2025-11-25 tasks, alive after their request was answered (`task-progress.ts`). */
  taskProgress: Record<string, TaskProgressToken>;
  /**
   * The keys of {@link SessionState.taskProgress}, oldest first (in the order their tasks were
   * created): an object lists integer-like keys, as our request ids are, in numeric order,
   * not in the order they were added (absent in states saved before it existed: the table's key order).
   */
  taskProgressOrder?: string[];
  /** Server: the minimum level the client asked for, or null to send every level. */
  logLevel: LoggingLevel | null;
  /**
   * The `maxLogMessagesPerSecond` windows: `outgoing` (a server's log messages) and
   * `incoming` (a client's, delivered to the application). A direction without one has no
   * message in the last second (absent in states saved before it existed).
   */
  logWindows?: { outgoing?: LogWindow; incoming?: LogWindow };
  /** Server: the `maxCompletionsPerSecond` window (absent before the first completion request, and in states saved before it existed). */
  completionWindow?: { start: number; count: number };
  /** Client: URL elicitations announced to us and not yet completed (id → true). */
  urlElicitations: Record<string, true>;
  /**
   * The ids of {@link SessionState.urlElicitations}, oldest first: the peer picks them, and an
   * object lists integer-like keys ("7") first, so its key order is not the age order
   * (absent in states saved before it existed: the table's key order).
   */
  urlElicitationOrder?: string[];
  /** Keep-alive: when the next ping is due, and how many in a row went unanswered. */
  keepAlive: { dueAt: number | null; missed: number };
  /** Earliest time at which something may be due; a tick before it does nothing. */
  wakeAt: number | null;
  /** Open `subscriptions/listen` streams: inbound request key → true (the filter is on the request). */
  subscriptions: Record<string, true>;
  subscriptionCount: number;
  /** Modern client: original requests waiting for the application's answers to input requests, by origin key. */
  mrtr: Record<string, MrtrRound>;
  /** Legacy: URIs the client subscribed to with `resources/subscribe`. */
  resourceSubscriptions: Record<string, true>;
  /**
   * Server: what the application declared (the `declare` input) after a legacy handshake
   * fixed `options.capabilities` for its session; `server/discover` and the modern requests
   * on the same connection see these (absent: `options.capabilities`). See `modernCapabilities`.
   */
  declaredNow?: JsonObject;
}

/** What a driver feeds into {@link step}. Every input carries `now`. */
export type SessionInput =
  /** Client: start the handshake (send `initialize`). */
  | { type: "open"; now: number }
  /**
   * A message arrived: raw text in `data`, or an already-parsed JSON value in `value`.
   * `local`: this side's transport wrote it, not the peer (an error response for a request
   * it could not carry: a POST that failed), so an error in it is reported as local.
   */
  | { type: "receive"; now: number; data?: string | undefined; value?: unknown; local?: boolean | undefined }
  /** The application sends a request. */
  | { type: "request"; now: number; method: string; params?: JsonObject | undefined; timeoutMs?: number | undefined; progress?: boolean | undefined; related?: RequestId | undefined; logLevel?: LoggingLevel | undefined }
  /** The application sends a notification. */
  | { type: "notify"; now: number; method: string; params?: JsonObject | undefined; related?: RequestId | undefined }
  /** The application answers a request it was handed. */
  | { type: "respond"; now: number; id: RequestId; result?: JsonObject | undefined; error?: JsonRpcErrorObject | undefined }
  /** The application cancels a request it sent. */
  | { type: "cancel"; now: number; id: RequestId; reason?: string | undefined }
  /** The application reports progress on a request it is handling. */
  | { type: "progress"; now: number; id: RequestId; progress: number; total?: number | undefined; message?: string | undefined }
  /** Server application: emit a log message (filtered by the client's level). */
  | { type: "log"; now: number; level: LoggingLevel; logger?: string | undefined; data: unknown; related?: RequestId | undefined; meta?: JsonObject | undefined }
  /** Server application: something changed; subscribers of either era that asked are told. */
  | { type: "changed"; now: number; what: "tools" | "prompts" | "resources" }
  | { type: "changed"; now: number; what: "resource"; uri: string }
  /** Receiver: progress under a task's token after its request was answered (the task runtime vouches the task is live). */
  | { type: "task-progress"; now: number; token: string | number; progress: number; total?: number | undefined; message?: string | undefined; meta?: JsonObject | undefined }
  /** Tasks extension: a task changed status; listeners that named it get `notifications/tasks` with `task`. */
  | { type: "changed"; now: number; what: "task"; taskId: string; task: JsonObject }
  /**
   * The application's capabilities from now on (a server that registered its first prompt,
   * say): what `server/discover` answers and modern requests are checked against, and what a
   * handshake still to come declares. A legacy session keeps what its handshake declared
   * (a client's refuses them with a `declare-refused` diagnostic; a server's serves its
   * modern requests on the same connection with them, `declaredNow`).
   */
  | { type: "declare"; now: number; capabilities: JsonObject }
  /**
   * Client: the transport started a new session with the server (Streamable HTTP, after a
   * 404: 2025-11-25 `basic/transports`, Session Management) and this is the server's new
   * `InitializeResult`. The session goes on (same version) with what the server declares now.
   */
  | { type: "renewed"; now: number; result: JsonObject }
  /** Server application: end a `subscriptions/listen` stream gracefully (its completion result is sent). */
  | { type: "end-subscription"; now: number; id: RequestId }
  /** Server application, about to close the connection: end every open `subscriptions/listen` stream gracefully first. */
  | { type: "end-subscriptions"; now: number }
  /** Time has passed; due timers fire. */
  | { type: "tick"; now: number }
  /** The driver could not put a message the kernel gave it on the wire (it has no JSON form): `reason` says why. */
  | { type: "unsendable"; now: number; message: JsonRpcMessage; reason: string }
  /** The transport closed. */
  | { type: "closed"; now: number; reason?: string | undefined };

/** A protocol problem worth telling the application about, that needs no action. */
export interface Diagnostic {
  type: "diagnostic";
  /** Stable machine-readable tag, e.g. `unknown-response-id`. */
  code: string;
  message: string;
  detail?: unknown;
}

/** What {@link step} asks its driver to do or tells the application. */
export type SessionOutput =
  /** Write this message to the peer. */
  /**
   * Write this message to the peer. `related` names the peer's request this message
   * belongs to (progress for it, a request or log issued while handling it), so a
   * transport with one stream per request (Streamable HTTP) can route it there.
   */
  | { type: "send"; message: JsonRpcMessage; related?: RequestId }
  /** The handshake finished: the negotiated version and what the peer declared. */
  | { type: "initialized"; version: ProtocolVersion; peer: PeerInfo }
  /** Client: the transport renewed the session (see the `renewed` input); the server as it declares itself now. */
  | { type: "renewed"; peer: PeerInfo }
  /** Client, 2026-07-28: a `server/discover` the application sent was answered; the server as it declares itself now (requests are checked against it from now on). */
  | { type: "rediscovered"; peer: PeerInfo }
  /** The peer sent a request for the application to answer with a `respond` input. */
  | { type: "request"; id: RequestId; method: string; params: JsonObject | undefined }
  /** The peer sent a notification. */
  | { type: "notification"; method: string; params: JsonObject | undefined }
  /** The answer to a request the application sent. */
  | { type: "response"; id: RequestId; method: string; result: JsonObject }
  /**
   * A request the application sent failed: peer error, timeout, cancellation, closure, refusal.
   * `fromPeer` is set when the peer sent `error` in its response; every other error is this
   * side's own (draft `basic/index`: local errors must not be mistaken for the peer's).
   */
  | { type: "error"; id: RequestId; method: string; error: JsonRpcErrorObject; fromPeer?: true }
  /** Progress on a request the application sent. */
  | { type: "progress"; id: RequestId; progress: number; total?: number; message?: string }
  /** Requestor: request `id` was answered with a task; its `progress` events go on until `progress-ended`. */
  | { type: "progress-kept"; id: RequestId }
  /** Requestor: the task of request `id` ended (or its token was evicted): no more `progress` for it. */
  | { type: "progress-ended"; id: RequestId }
  /**
   * A 2025-03-26 JSON-RPC batch was read. The responses this step sends after this output,
   * and those to the requests it hands the application, answer it: JSON-RPC 2.0 §6 has them
   * go back as one array once every request is processed (none for notifications, nothing
   * at all when no response is due). A driver writing whole messages (stdio) gathers them
   * so; one that routes each response (Streamable HTTP) may ignore it.
   */
  | { type: "batch" }
  /** The peer cancelled (or the connection lost) a request the application is handling: stop work, do not answer. */
  | { type: "cancelled"; id: RequestId; reason?: string }
  /** Keep-alive pings went unanswered. */
  | { type: "stale"; missed: number }
  | Diagnostic
  /** Close the transport; the session is over. */
  | { type: "close"; reason: string };

/** The result of one step. */
export interface StepResult {
  state: SessionState;
  outputs: SessionOutput[];
}

/**
 * Key of a request id in the state's tables. `1` and `"1"` are different ids in
 * JSON-RPC, so the key keeps the type: an integer id that is an array index is its own
 * decimal text (`"1"`), any other number is `"n…"`, a string is `"s…"`.
 *
 * Why array-index keys: V8 stores them as elements, while every fresh `"n1"`-style key
 * must first be interned in the engine's string table, which grows with each new id until
 * a full GC. With ids from a counter, that interning was the costliest step of a round
 * trip (about 0.8 µs per add and delete, against 0.3 µs). Integer keys enumerate in
 * ascending order before string keys; our own ids count up, so for them that is the
 * insertion order.
 */
export function idKey(id: RequestId): string {
  if (typeof id !== "number") return "s" + id;
  return Number.isInteger(id) && id >= 0 && id <= 4294967294 ? String(id) : "n" + id;
}

/**
 * {@link idKey} as a property key of the state's tables, for reading and writing them only
 * (never to store or compare: a key kept in the state, or met in a `for…in`, is a string).
 * An integer id that is an array index is the number itself, the same property as its
 * decimal text: a string key is made by `String` and then turned back into an index by the
 * engine at each access (a string-table probe in C++), half a dozen times a round trip.
 */
export function tableKey(id: RequestId): string | number {
  return typeof id === "number" && Number.isInteger(id) && id >= 0 && id <= 4294967294 ? id : idKey(id);
}

/**
 * A value a request table can be asked about (see {@link idKey}): a request id is a string or
 * a finite number (an unknown one is just not found); a symbol, or an object with no string
 * form, made the lookup throw, and a NaN or an infinity (no JSON has one) went out in outputs.
 */
export function isIdLike(id: unknown): id is RequestId {
  return typeof id === "string" || Number.isFinite(id);
}
