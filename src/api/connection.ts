/**
 * Binding an {@link Endpoint} to a {@link Transport}: the few lines both the server and
 * the client API need.
 *
 * Spec: 2025-11-25 `basic/transports` (messages are UTF-8 JSON-RPC text) and
 * `basic/lifecycle` ("Shutdown": either side ends the connection by closing the
 * transport).
 *
 * Theory of operation. Outgoing messages are encoded (compact JSON, never a raw newline)
 * and the text goes to `transport.send`; a message with no JSON form goes back to the
 * kernel as `unsendable`, which answers it (a request of ours fails at once with
 * `-32603`, a result becomes a `-32603` answer to the same request). Incoming text goes
 * to `endpoint.receive`, which decodes it. A transport that carries objects (an
 * in-process pair with `values: true`) gets the message objects themselves when they are
 * already JSON-shaped (what the peer would have parsed from their text), and the
 * receiver's `decodeValue` checks them; any other message takes the text path, so the
 * peer sees exactly what a pipe would have carried. When the transport closes the endpoint is told,
 * which fails what is pending and aborts what is being handled; when the kernel decides
 * the connection is over (a fatal protocol error) the transport is closed. Both paths are
 * idempotent, so either may come first.
 */
import { Endpoint, type EndpointHooks } from "../driver/endpoint.js";
import type { Clock } from "../driver/clock.js";
import type { Callback } from "../driver/listener.js";
import { DEFAULT_LIMITS, tryEncode } from "../jsonrpc/codec.js";
import { isJsonShaped } from "../jsonrpc/safe-json.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { isProtocolVersion, PROTOCOL_VERSIONS } from "../model/versions.js";
import { declaredMethodsProblem } from "../model/methods.js";
import { isExtensionId } from "../model/meta.js";
import type { SessionOptions } from "../session/types.js";
import type { Transport } from "./transport.js";
import { knownNames, refuseMisspelledOptions, shownValue } from "./option-names.js";

/** Hooks of {@link attach}: the endpoint's, minus `send` and `sendBatch` (the transport is the sink), plus the transport's close. */
export interface AttachHooks extends Omit<EndpointHooks, "send" | "sendBatch"> {
  /** The transport closed (after the endpoint has been told). */
  onTransportClose?: Callback<(reason: string) => void> | undefined;
  /**
   * The endpoint exists; called before the transport delivers anything (a stream transport
   * hands over what it buffered, and its close, as soon as it is listened to), so the
   * other hooks can name the endpoint from their first call.
   */
  onEndpoint?: Callback<(endpoint: Endpoint) => void> | undefined;
}

/** A message object with more arrays and objects than this crosses a values transport as text (walking it would cost what encoding does). */
const MAX_SHAPED_NODES = 10_000;

/**
 * The transports an endpoint is attached to, until they close. A transport has one
 * receiver and one close listener: a second endpoint would take them over, and the
 * first one's requests would wait for answers that go to the second.
 */
const attached = new WeakSet<Transport>();

/**
 * Creates an endpoint that writes to `transport` and is fed by it. Throws a `TypeError`
 * for a transport another endpoint is attached to and that has not closed (a closed one
 * is taken: its close reaches the new endpoint at once, which then fails to open).
 */
export function attach(transport: Transport, options: SessionOptions, hooks: AttachHooks, clock?: Clock): Endpoint {
  if (typeof transport !== "object" || transport === null || typeof transport.send !== "function" || typeof transport.onMessage !== "function" || typeof transport.onClose !== "function") {
    throw new TypeError("connect takes a Transport (send, onMessage, onClose): stdioServerTransport(), httpClientTransport(url), createMemoryPair()…; a URL is not one");
  }
  if (attached.has(transport)) throw new TypeError("this transport already carries a connection (one transport, one client or server connection): give each connection its own transport");
  const onKernelClose = hooks.onClose;
  const sendValue = transport.sendValue?.bind(transport);
  /** While a batch's answers are encoded: where the stand-in for one with no JSON form goes (the kernel's -32603). */
  let standIns: string[] | undefined;
  const endpoint = new Endpoint(
    options,
    {
      send: (message) => {
        if (standIns !== undefined && !("method" in message)) {
          const encoded = tryEncode(message);
          if (encoded.ok) return void standIns.push(encoded.text);
        }
        if (sendValue !== undefined && isJsonShaped(message, DEFAULT_LIMITS.maxDepth, MAX_SHAPED_NODES)) return sendValue(message);
        const encoded = tryEncode(message);
        if (encoded.ok) transport.send(encoded.text);
        else endpoint.unsendable(message, encoded.reason);
      },
      // A 2025-03-26 batch is answered with one array (JSON-RPC 2.0 §6), as text on every transport.
      sendBatch: (messages) => {
        const texts: string[] = (standIns = []);
        try {
          for (const m of messages) {
            const encoded = tryEncode(m);
            if (encoded.ok) texts.push(encoded.text);
            else endpoint.unsendable(m, encoded.reason);
          }
        } finally {
          standIns = undefined;
        }
        if (texts.length > 0) transport.send("[" + texts.join(",") + "]");
      },
      onRequest: hooks.onRequest,
      onNotification: hooks.onNotification,
      onEvent: hooks.onEvent,
      onError: hooks.onError,
      record: hooks.record,
      onClose: (reason) => {
        // A hook that throws (its error goes to onError) must not leave the transport open
        // under a closed kernel: a child process never stopped, a pipe never ended.
        try {
          onKernelClose?.(reason);
        } finally {
          transport.close();
        }
      },
    },
    clock,
  );
  hooks.onEndpoint?.(endpoint);
  attached.add(transport);
  transport.onMessage((text, local) => endpoint.receive(text, local));
  transport.onValue?.((value) => endpoint.receive(value));
  transport.onSessionRenewed?.((result) => endpoint.renewed(result));
  transport.onClose((reason) => {
    attached.delete(transport);
    endpoint.closed(reason);
    hooks.onTransportClose?.(reason);
  });
  return endpoint;
}

/** Session options that are non-negative integers: counts, and `cacheTtlMs`, which the schema's `ttlMs` makes one (0 has each option's own meaning, often "off"). */
const COUNT_OPTIONS = ["keepAliveMaxMissed", "maxInboundRequests", "maxOutboundRequests", "maxMessageBytes", "maxDepth", "maxSubscriptions", "maxInputRounds", "maxProgressPerSecond", "maxLogMessagesPerSecond", "maxCompletionsPerSecond", "cacheTtlMs"] as const;
/** Session options in milliseconds: a finite number >= 0. */
const TIME_OPTIONS = ["requestTimeoutMs", "discoverTimeoutMs", "maxRequestTimeoutMs", "keepAliveMs", "progressIntervalMs"] as const;

/** The options an application may give a session (`session` of McpServer and McpClient). */
const SESSION_OPTION_NAMES = /* @__PURE__ */ knownNames<Omit<SessionOptions, "role" | "info" | "capabilities" | "instructions">>()([
  "versions",
  "requestTimeoutMs",
  "discoverTimeoutMs",
  "maxRequestTimeoutMs",
  "resetTimeoutOnProgress",
  "keepAliveMs",
  "keepAliveMaxMissed",
  "progressIntervalMs",
  "maxInboundRequests",
  "maxOutboundRequests",
  "maxMessageBytes",
  "maxDepth",
  "validateOutgoing",
  "cacheTtlMs",
  "cacheScope",
  "maxSubscriptions",
  "era",
  "maxInputRounds",
  "maxProgressPerSecond",
  "maxLogMessagesPerSecond",
  "maxCompletionsPerSecond",
  "extensionMethods",
]);

/**
 * Throws for session options the kernel would misread rather than refuse (it fills in
 * defaults and never throws): a number given as a string (`keepAliveMs: "100"` pinged
 * hundreds of times a second), a negative or non-finite one (`requestTimeoutMs: -1`
 * turned timeouts off, `NaN` timed out at once), `versions` that is not a non-empty
 * list of known versions, a flag that is not a boolean, a `cacheScope` that is neither
 * scope. Checked where an application builds a server or client, naming the option.
 */
export function checkSessionOptions(session: Partial<SessionOptions> | undefined): void {
  if (session === undefined) return;
  if (!isObject(session)) throw new TypeError("session options must be an object");
  refuseMisspelledOptions("session options", session, SESSION_OPTION_NAMES);
  const s = session as Record<string, unknown>;
  for (const key of COUNT_OPTIONS) {
    const v = s[key];
    if (v !== undefined && !(Number.isSafeInteger(v) && (v as number) >= 0)) throw new RangeError(`session.${key} must be a non-negative integer (got ${shownValue(v)})`);
  }
  for (const key of TIME_OPTIONS) {
    const v = s[key];
    if (v !== undefined && !(typeof v === "number" && Number.isFinite(v) && v >= 0)) throw new RangeError(`session.${key} must be a finite number of milliseconds >= 0 (got ${shownValue(v)})`);
  }
  for (const key of ["resetTimeoutOnProgress", "validateOutgoing"] as const) {
    if (s[key] !== undefined && typeof s[key] !== "boolean") throw new TypeError(`session.${key} must be a boolean (got ${JSON.stringify(s[key])})`);
  }
  if (s.cacheScope !== undefined && s.cacheScope !== "public" && s.cacheScope !== "private") throw new TypeError('session.cacheScope must be "public" or "private"');
  const declared = s.extensionMethods === undefined ? null : declaredMethodsProblem(s.extensionMethods);
  if (declared !== null) throw new TypeError(`session.extensionMethods: ${declared}`);
  const versions = s.versions;
  if (versions !== undefined) {
    if (!Array.isArray(versions) || versions.length === 0) throw new TypeError(`session.versions must be a non-empty array of protocol versions (got ${JSON.stringify(versions)})`);
    const unknown = versions.filter((v) => !isProtocolVersion(v));
    if (unknown.length > 0) throw new RangeError(`session.versions names versions this kernel does not speak: ${unknown.map((v) => JSON.stringify(v)).join(", ")} (known: ${PROTOCOL_VERSIONS.join(", ")})`);
  }
}

/**
 * Throws for an `extensions` capability key that is no extension identifier (draft
 * `basic/versioning`: identifiers MUST follow the `_meta` key rules, with a mandatory
 * prefix): `{ search: {} }` would go out in every handshake and request as a capability
 * the schema's rules refuse, and never match a peer's `com.example/search`.
 */
export function checkExtensionIds(who: string, capabilities: unknown): void {
  const extensions = isObject(capabilities) ? capabilities.extensions : undefined;
  if (!isObject(extensions)) return;
  const bad = Object.keys(extensions).filter((id) => !isExtensionId(id));
  if (bad.length > 0) throw new TypeError(`${who}: capabilities.extensions names ${bad.map((id) => JSON.stringify(id)).join(", ")}: an extension identifier is a _meta key with a prefix, e.g. "com.example/search" (draft basic/versioning)`);
}

/** True for a plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Merges capabilities the application forces over the derived ones, key by key: two
 * objects are merged one level deep (`{ tools: {} }` + `{ tools: { listChanged: true } }`),
 * anything else replaces.
 */
export function mergeCapabilities(derived: JsonObject, extra: JsonObject | undefined): JsonObject {
  if (extra === undefined) return derived;
  for (const [k, v] of Object.entries(extra)) {
    const base = derived[k];
    derived[k] = isObject(base) && isObject(v) ? { ...base, ...v } : v;
  }
  return derived;
}
