/**
 * The JSON-RPC codec: text or bytes in, a classified message (or the exact error reply)
 * out; messages in, compact JSON out.
 *
 * Spec: `basic/index` ("Messages") of 2025-11-25 and the draft, on JSON-RPC 2.0. A
 * request has a string or integer id that is never `null`; a notification has no id;
 * params and results are objects; a response has exactly one of `result` and `error`;
 * an error's code is an integer. Batches (JSON arrays) exist only in `2025-03-26`.
 *
 * Theory of operation. Decoding is one `JSON.parse` between cheap guards (see
 * `safe-json.ts`): size before parsing, depth after it only when the bracket count says
 * the text could be that deep, then a flat shape check that reads each member once. The
 * decoded message is the parsed object itself, never a copy, so nothing is allocated per
 * message beyond the engine's parse and the small result record. Every failure becomes
 * a `kind: "invalid"` value whose `reply` is the error response to send back:
 *
 * - `-32700` (id `null`) when the text is not JSON or the bytes are not UTF-8;
 * - `-32600` for everything that parses but is not an acceptable message, including a
 *   message over a limit: a too-large or too-deep message may be perfectly good JSON, so
 *   "Parse error" would misdescribe it.
 *
 * Which id a reply carries. JSON-RPC asks for the request's id when it can be read. A
 * message shaped like a request (it has `method`) gets its id echoed when that id is an
 * integer or a string of at most {@link MAX_REQUEST_ID_LENGTH} characters. A message
 * shaped like a response gets `null`: its id names one of *our* requests, and an error
 * carrying it would read as the answer to the peer's own request of that id. `null` is
 * the message model's "could not be read"; the encoder writes such a reply without `id`
 * (see {@link tryEncode}), as MCP's schema has it from 2025-11-25 on.
 *
 * A message with an id but neither a method nor a result or an error (nor params) may be either: its
 * `invalid` value echoes the id and also carries it as `orAnswers`, and a session with a
 * request of its own of that id in flight takes it as a malformed answer to it (below).
 *
 * A malformed response is not a request, so a session sends it no reply (`reply` is
 * still there for an HTTP server's 400 body). Its `invalid` value carries `answers`: the
 * id of the request it claims to answer when that id is readable (else `null`), so a
 * session fails that request at once instead of at its timeout, and sends no reply that
 * a peer of the same kind would answer in turn. That holds for a response over a limit
 * too: too deep, its id is read from the parsed value; too large to parse, from a bounded
 * look at its first and last characters (SDK 1.x writes `{result, jsonrpc, id}`, id last).
 * A framer that had to drop such a line delivers {@link oversizedStandIn} of its two ends
 * instead, which is classified exactly as the whole line would be. An array holding
 * responses where batches are not allowed is refused the same way, its `answers` the list
 * of the ids its responses name; when it also holds a request, `holdsRequest` says the
 * reply goes out all the same.
 *
 * Nothing here throws to its caller; an inspecting getter that throws (a caller-built
 * value given to {@link decodeValue}) is caught and reported as `-32600`.
 */
import { ErrorCode, isRpcError, rpcError } from "./errors.js";
import type { JsonRpcErrorResponse, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResultResponse, RequestId } from "./types.js";
import { checkNesting, decodeUtf8, exceedsBytes, hasOwn, holdsNonFinite, mayExceedDepth, mayOverflow, PEEK_WINDOW, peekHead, peekLastId, TAIL_WINDOW } from "./safe-json.js";

export { hasOwn } from "./safe-json.js";

/** Size and nesting bounds applied before anything else looks at a message. */
export interface DecodeLimits {
  /** Largest message accepted, in UTF-8 bytes (strings are measured as UTF-16 length × 3 upper bound or exactly). */
  maxBytes: number;
  /** Deepest nesting of arrays and objects accepted. */
  maxDepth: number;
}

/** Defaults: 4 MiB and 64 levels. */
export const DEFAULT_LIMITS: DecodeLimits = { maxBytes: 4 * 1024 * 1024, maxDepth: 64 };

/**
 * A size limit given to a pure codec: a positive safe integer, else `fallback`. The codecs
 * never throw, and a `NaN` compared as "never over" would switch the bound off (memory
 * unbounded), a negative one refuse every line; the transports refuse such options outright.
 */
export function limitOr(value: unknown, fallback: number): number {
  return Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : fallback;
}

/**
 * Longest string request id accepted, in characters. JSON-RPC sets no bound, but a request's
 * id is kept for as long as the request is (a 2025-11-25 task keeps its creating request's id
 * for its whole TTL), so without one a peer could park up to `maxBytes` in every entry of
 * every table keyed by ids. Real ids are counters or UUIDs; a longer one is `-32600` with id
 * `null`, since echoing it would hand the same bytes back.
 */
export const MAX_REQUEST_ID_LENGTH = 1024;

/** The limits, each optional (its default when left out or `undefined`). */
type OptionalLimits = { [K in keyof DecodeLimits]?: DecodeLimits[K] | undefined };

/** Options for {@link decode}. */
export interface DecodeOptions extends OptionalLimits {
  /** Accept a JSON array as a batch (only `2025-03-26`). Default false: an array is `-32600`. */
  allowBatch?: boolean | undefined;
}

/** What one message decodes to. `invalid` carries the exact error response to send back. */
export type Decoded =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "result"; message: JsonRpcResultResponse }
  | { kind: "error"; message: JsonRpcErrorResponse }
  | { kind: "batch"; items: Decoded[] }
  | { kind: "invalid"; reply: JsonRpcErrorResponse; reason: string; answers?: RequestId | null | RequestId[]; holdsRequest?: true; orAnswers?: RequestId };

/** A message as `JSON.parse` hands it over: members still unchecked. */
type Unchecked = { [key: string]: unknown };

/**
 * Decodes text or UTF-8 bytes. Never throws.
 *
 * The message objects returned are the parsed ones (own data properties only, prototype
 * `Object.prototype`; see `safe-json.ts` for the rule on copying them). An error response
 * that omits `id` (allowed from 2025-11-25) is returned with `id: null`, so its type holds.
 */
export function decode(input: string | Uint8Array, options?: DecodeOptions): Decoded {
  const { maxBytes, maxDepth, allowBatch } = readOptions(options);
  let text: string;
  if (typeof input === "string") {
    if (exceedsBytes(input, maxBytes)) return standInOver(input) ?? tooLarge(input, maxBytes);
    // A leading byte order mark is ignored, as the UTF-8 decoder drops it from bytes (RFC
    // 8259 §8.1: parsers MAY ignore it): a line or event that kept one is read the same.
    text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  } else {
    if (!ArrayBuffer.isView(input)) return invalid(ErrorCode.InvalidRequest, null, "input is neither text nor bytes");
    // Any byte view (a Uint8Array from another realm, a DataView) is read as its bytes.
    const bytes = input instanceof Uint8Array ? input : new Uint8Array((input as ArrayBufferView).buffer, (input as ArrayBufferView).byteOffset, (input as ArrayBufferView).byteLength);
    if (bytes.byteLength > maxBytes) return tooLarge(bytes, maxBytes);
    const decoded = decodeUtf8(bytes);
    if (decoded === undefined) return decodeInvalidUtf8(bytes, bytes.subarray(Math.max(0, bytes.length - TAIL_WINDOW)));
    text = decoded;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return invalid(ErrorCode.ParseError, null, "message is not valid JSON");
  }
  try {
    // A parsed value of n bytes holds at most n / 2 containers, so the node budget
    // cannot trip here; only the depth bound can. A batch's members are held to it each.
    const nesting = mayExceedDepth(text, maxDepth) ? checkNesting(value, batchDepth(value, allowBatch, maxDepth), text.length) : "ok";
    if (nesting === "too-deep" || nesting === "too-many") return deepBatch(value, allowBatch, maxDepth, text.length, mayOverflow(text)) ?? refusedWhole(value, `message exceeds maxDepth (${maxDepth})`);
    // A number past the double range parses as ±Infinity, which has no JSON form: sent on,
    // or echoed, it would become null. The message holding one is refused whole, as one too
    // deep is; in a batch, that member alone (the others still run, JSON-RPC 2.0 §6).
    return classify(value, allowBatch, mayOverflow(text));
  } catch {
    return uninspectable();
  }
}

/**
 * The codec's options as it uses them, never thrown out of {@link decode}: a limit that is no
 * non-negative safe integer (nor `Infinity`) is its default (a `NaN` or `"10"` compared as "never over"
 * switched the bound off: a message of any size or depth was accepted), and options whose
 * getter (or Proxy trap) throws are all defaults rather than a TypeError.
 */
function readOptions(options: DecodeOptions | undefined): { maxBytes: number; maxDepth: number; allowBatch: boolean } {
  try {
    return { maxBytes: boundOr(options?.maxBytes, DEFAULT_LIMITS.maxBytes), maxDepth: boundOr(options?.maxDepth, DEFAULT_LIMITS.maxDepth), allowBatch: options?.allowBatch === true };
  } catch {
    return { maxBytes: DEFAULT_LIMITS.maxBytes, maxDepth: DEFAULT_LIMITS.maxDepth, allowBatch: false };
  }
}

/**
 * A bound given to decode: a non-negative safe integer (0 refuses every message) or
 * `Infinity` (no bound: the HTTP handler's `maxBodyBytes: Infinity` reaches here for a body
 * without a session), else `fallback`.
 */
function boundOr(value: unknown, fallback: number): number {
  return value === Infinity || (Number.isSafeInteger(value) && (value as number) >= 0) ? (value as number) : fallback;
}

/**
 * Classifies an already-parsed JSON value (e.g. an HTTP body a framework parsed). Never
 * throws. `maxDepth` applies as in {@link decode}; `maxBytes` cannot be measured on a
 * value, so it bounds the number of arrays and objects walked instead (`maxBytes / 2`,
 * the most a message of that size can hold), which also stops a value that shares
 * children or is cyclic.
 */
export function decodeValue(value: unknown, options?: DecodeOptions): Decoded {
  const { maxBytes, maxDepth, allowBatch } = readOptions(options);
  try {
    const nesting = checkNesting(value, batchDepth(value, allowBatch, maxDepth), Math.ceil(maxBytes / 2));
    if (nesting === "too-deep") return deepBatch(value, allowBatch, maxDepth, Math.ceil(maxBytes / 2), true) ?? refusedWhole(value, `message exceeds maxDepth (${maxDepth})`);
    if (nesting === "too-many") return invalid(ErrorCode.InvalidRequest, null, `message exceeds maxBytes (${maxBytes}): too many nested values`);
    // A number with no JSON form (a framework's parse of 1e999; a batch member re-parsed from a
    // body) is refused as `decode` refuses it: the message, or in a batch its member alone.
    return classify(value, allowBatch, nesting === "non-finite", Math.ceil(maxBytes / 2));
  } catch {
    return uninspectable();
  }
}

/**
 * Top level: a message, or (when allowed) a non-empty batch of them. `mayOverflow`: the
 * value may hold a number with no JSON form (see `decode`), looked for in at most
 * `maxNodes` containers (a caller-built value is walked a second time here).
 */
function classify(value: unknown, allowBatch: boolean, mayOverflow = false, maxNodes = Infinity): Decoded {
  if (!Array.isArray(value)) return classifyOne(value, mayOverflow, maxNodes);
  if (!allowBatch) return refusedBatch(value, "batches are not supported by this protocol version");
  if (value.length === 0) return invalid(ErrorCode.InvalidRequest, null, "a batch must not be empty");
  if (value.length > MAX_BATCH_MESSAGES) return refusedBatch(value, BATCH_TOO_LONG);
  const items: Decoded[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) items[i] = classifyOne(value[i], mayOverflow, maxNodes);
  return { kind: "batch", items };
}

/** One message (alone, or a batch's member): refused whole when it holds a number with no JSON form. */
function classifyOne(value: unknown, mayOverflow: boolean, maxNodes: number): Decoded {
  return mayOverflow && holdsNonFinite(value, maxNodes) ? refusedWhole(value, OVERFLOW) : classifyMessage(value);
}

const OVERFLOW = "message holds a number beyond the range of a double (about 1.8e308)";

/**
 * The depth bound of a whole value: a batch's array is one level more, so that each member
 * may be as deep as a message sent alone (each member is handled as if it came alone).
 */
function batchDepth(value: unknown, allowBatch: boolean, maxDepth: number): number {
  return allowBatch && Array.isArray(value) ? maxDepth + 1 : maxDepth;
}

/**
 * A batch some member of which is too deep: that member alone is refused (a request's id
 * echoed, a response malformed naming its request), the others still run (JSON-RPC 2.0
 * §6), as for a member holding a number out of range. Each member is walked again with the
 * bounds of a message (`maxNodes` containers at most). Undefined when `value` is no batch
 * (or a member is past the node budget): the caller refuses it whole.
 */
function deepBatch(value: unknown, allowBatch: boolean, maxDepth: number, maxNodes: number, mayOverflow: boolean): Decoded | undefined {
  if (!allowBatch || !Array.isArray(value) || value.length === 0) return undefined;
  if (value.length > MAX_BATCH_MESSAGES) return refusedBatch(value, BATCH_TOO_LONG);
  const items: Decoded[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const nesting = checkNesting(value[i], maxDepth, maxNodes);
    // A caller-built member too large to walk: the batch is refused whole, as before.
    if (nesting === "too-many") return undefined;
    if (nesting === "too-deep") items[i] = refusedWhole(value[i], `message exceeds maxDepth (${maxDepth})`);
    else items[i] = classifyOne(value[i], mayOverflow, maxNodes);
  }
  return { kind: "batch", items };
}

/**
 * Most messages a `2025-03-26` batch may hold. JSON-RPC sets no bound, but every member is
 * answered on its own: within `maxBytes`, a batch of a million `{}` drew a million error
 * replies (about 95 MB, thirty times its size, and a gigabyte of memory to make them).
 * Real batches hold a handful; a longer one is refused whole, as an array where batches
 * are not allowed is.
 */
export const MAX_BATCH_MESSAGES = 1024;

const BATCH_TOO_LONG = `a batch of more than ${MAX_BATCH_MESSAGES} messages is not accepted`;

/**
 * An array refused whole: where batches are not allowed (every version but `2025-03-26`),
 * or longer than {@link MAX_BATCH_MESSAGES}. Its `answers`
 * lists the ids its responses name, so that a session fails those requests at once (as a
 * malformed response's) instead of at their timeout. One of responses only gets no reply,
 * as a response never does; one that also holds a request is marked `holdsRequest`, so
 * the `-32600` reply (id `null`) goes out all the same and the peer's request learns it
 * was refused.
 */
function refusedBatch(items: unknown[], reason: string): Decoded {
  const d = invalid(ErrorCode.InvalidRequest, null, reason) as Extract<Decoded, { kind: "invalid" }>;
  let answers: RequestId[] | undefined;
  for (const m of items) {
    if (!isObject(m)) continue;
    if (m.method !== undefined) {
      if (m.id !== undefined) d.holdsRequest = true;
      continue;
    }
    if (m.result === undefined && m.error === undefined) continue;
    answers ??= [];
    if (isRequestId(m.id)) answers.push(m.id);
  }
  if (answers !== undefined) d.answers = answers;
  return d;
}

/** One message: reads each member once, checks the shape, returns the parsed object itself. */
function classifyMessage(value: unknown): Decoded {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return invalid(ErrorCode.InvalidRequest, null, "a message must be a JSON object");
  }
  const m = value as Unchecked;
  const id = m.id;
  const method = m.method;
  const result = m.result;
  const error = m.error;
  if (method !== undefined) {
    const replyId = echoableId(id);
    if (m.jsonrpc !== "2.0") return invalid(ErrorCode.InvalidRequest, replyId, 'jsonrpc must be "2.0"');
    if (typeof method !== "string") return invalid(ErrorCode.InvalidRequest, replyId, "method must be a string");
    const params = m.params;
    if (params !== undefined && !isObject(params)) return invalid(ErrorCode.InvalidRequest, replyId, "params must be an object");
    if (result !== undefined || error !== undefined) {
      return invalid(ErrorCode.InvalidRequest, replyId, "a message must not be both a request and a response");
    }
    if (id === undefined) return { kind: "notification", message: m as unknown as JsonRpcNotification };
    if (id === null) return invalid(ErrorCode.InvalidRequest, null, "a request id must not be null");
    if (typeof id === "number" && Number.isInteger(id) && replyId === null) return invalid(ErrorCode.InvalidRequest, null, "a request id beyond ±(2^53 − 1) cannot be echoed exactly; use a smaller integer or a string");
    if (typeof id === "string" && replyId === null) return invalid(ErrorCode.InvalidRequest, null, `a request id longer than ${MAX_REQUEST_ID_LENGTH} characters is not accepted; use a shorter one`);
    if (replyId === null) return invalid(ErrorCode.InvalidRequest, null, "a request id must be a string or an integer");
    return { kind: "request", message: m as unknown as JsonRpcRequest };
  }
  if (result === undefined && error === undefined) {
    if (id === null && (hasOwn(m, OVERSIZED_MEMBER) || hasOwn(m, INVALID_UTF8_MEMBER))) return standInOf(m) ?? invalid(ErrorCode.InvalidRequest, null, "a message needs a method, a result or an error");
    // Neither shape: a request that lost its method, whose id is echoed, or an answer that
    // lost its result (an encoder drops `result: undefined`), which `orAnswers` names: a
    // session whose own request has that id takes it as that malformed answer instead. One
    // with `params`, which only a request carries, is a request's.
    const d = invalid(ErrorCode.InvalidRequest, echoableId(id), m.jsonrpc !== "2.0" ? 'jsonrpc must be "2.0"' : "a message needs a method, a result or an error") as Extract<Decoded, { kind: "invalid" }>;
    if (isRequestId(id) && !hasOwn(m, "params")) d.orAnswers = id;
    return d;
  }
  // Shaped like a response: replies carry id null (see the theory of operation).
  const answers = isRequestId(id) ? id : null;
  if (m.jsonrpc !== "2.0") return malformedResponse(answers, 'jsonrpc must be "2.0"');
  if (result !== undefined) {
    if (error !== undefined) return malformedResponse(answers, "a response must not have both result and error");
    if (answers === null) return malformedResponse(null, "a result response needs a string or integer id");
    if (!isObject(result)) return malformedResponse(answers, "result must be an object");
    return { kind: "result", message: m as unknown as JsonRpcResultResponse };
  }
  if (!isRpcError(error)) {
    return malformedResponse(answers, "error must be an object with an integer code and a string message");
  }
  if (id === undefined) {
    // The other members stay, as they do beside an id (a spread copies a "__proto__" member
    // as the member it is): the message reads the same whether or not `id: null` was written.
    return { kind: "error", message: { ...m, id: null } as unknown as JsonRpcErrorResponse };
  }
  if (id !== null && answers === null) {
    return malformedResponse(null, "an error response id must be a string, an integer or null");
  }
  return { kind: "error", message: m as unknown as JsonRpcErrorResponse };
}

/**
 * A JSON-RPC id MCP accepts: a string or an integer (never `null`, a fraction or a
 * boolean). Past 2^53 a JSON number no longer names one integer (9007199254740993 parses
 * as ...992), and echoing it would answer a different id, so only safe integers count.
 */
function isRequestId(id: unknown): id is RequestId {
  return typeof id === "string" || Number.isSafeInteger(id);
}

/** The id a reply to a request-shaped message names: its own when readable and within {@link MAX_REQUEST_ID_LENGTH}, else `null`. */
function echoableId(id: unknown): RequestId | null {
  return isRequestId(id) && !(typeof id === "string" && id.length > MAX_REQUEST_ID_LENGTH) ? id : null;
}

/** A JSON object: not `null`, not an array. */
export function isObject(v: unknown): v is Unchecked {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Builds an `invalid` result; the peer sees "Parse error: …" or "Invalid Request: …" with our fixed reason, never its input. */
function invalid(code: number, id: RequestId | null, reason: string): Decoded {
  const title = code === ErrorCode.ParseError ? "Parse error" : "Invalid Request";
  return { kind: "invalid", reply: { jsonrpc: "2.0", id, error: rpcError(code, `${title}: ${reason}`) }, reason };
}

/** A message shaped like a response that is not a valid one; `answers` names the request it claims to answer. */
function malformedResponse(answers: RequestId | null, reason: string, code: number = ErrorCode.InvalidRequest): Decoded {
  const d = invalid(code, null, reason) as Extract<Decoded, { kind: "invalid" }>;
  d.answers = answers;
  return d;
}

/**
 * The error a malformed response stands for: what the request `id` it answers fails with,
 * in place of the answer that could not be read (`reason` is the `invalid` value's).
 */
export function malformedResponseAnswer(id: RequestId, reason: string): JsonRpcErrorResponse {
  return { jsonrpc: "2.0", id, error: rpcError(ErrorCode.InternalError, malformedResponseMessage(reason)) };
}

/** The message a request fails with when the answer to it could not be read (`reason` says why); `-32603` is its code. */
export function malformedResponseMessage(reason: string): string {
  return `malformed response from the peer: ${reason}`;
}

/** Over `maxBytes`: not parsed at all; what it is comes from a bounded peek at its start and end. */
function tooLarge(input: string | Uint8Array, maxBytes: number): Decoded {
  const tail = typeof input === "string" ? input.slice(-TAIL_WINDOW) : input.subarray(Math.max(0, input.length - TAIL_WINDOW));
  return decodeOversized(input, tail, maxBytes);
}

/**
 * A message over `limit` from its first and last characters: a request gets `-32600`
 * with its id when the start shows a `method` and either end shows its `id`; a response
 * is malformed, answering the request whose id either end shows (so that request fails at
 * once, instead of waiting for its timeout); anything else is `-32600` with id `null`.
 */
export function decodeOversized(head: string | Uint8Array, tail: string | Uint8Array, limit: number): Decoded {
  const reason = `message exceeds maxBytes (${limit})`;
  const seen = peekHead(head);
  if (seen.response) return malformedResponse(seen.id ?? peekLastId(tail), reason);
  return invalid(ErrorCode.InvalidRequest, seen.method ? (seen.id ?? peekLastId(tail)) : null, reason);
}

/**
 * A message whose bytes are not UTF-8 (basic/transports: messages MUST be UTF-8), from its
 * first and last characters: `-32700` with id `null`, as text that cannot be parsed gets;
 * but a response is malformed, answering the request whose id either end shows, which then
 * fails at once rather than at its timeout (the bad bytes are most often inside a string).
 * The twin of {@link decodeOversized}, for a transport that classifies such a message itself.
 */
export function decodeInvalidUtf8(head: string | Uint8Array, tail: string | Uint8Array): Decoded {
  const reason = "message is not valid UTF-8";
  const seen = peekHead(head);
  if (seen.response) return malformedResponse(seen.id ?? peekLastId(tail), reason, ErrorCode.ParseError);
  return invalid(ErrorCode.ParseError, null, reason);
}

/**
 * The member naming a line a framer could not keep (see {@link oversizedStandIn}). Only
 * {@link oversizedStandIn} writes it; a peer sending it gains nothing it could not get
 * with a real oversized message.
 */
const OVERSIZED_MEMBER = "mcp-kernel/oversized";

/**
 * What a framer delivers in place of a line over its limit that it dropped (stdio keeps
 * only the line's first {@link PEEK_WINDOW} and last {@link TAIL_WINDOW} characters):
 * a small JSON text that this codec classifies exactly as it would the whole line, by
 * the same peek at both ends: `-32600` naming the request's id where it shows, a
 * malformed response answering the request it names, else `-32600` with id `null`.
 */
export function oversizedStandIn(head: string, tail: string, limit: number): string {
  return JSON.stringify({ jsonrpc: "2.0", id: null, [OVERSIZED_MEMBER]: { limit, head: head.slice(0, PEEK_WINDOW), tail: tail.slice(-TAIL_WINDOW) } });
}

/** The member naming a line a framer could not decode as UTF-8 (see {@link invalidUtf8StandIn}). */
const INVALID_UTF8_MEMBER = "mcp-kernel/invalid-utf8";

/**
 * What a framer delivers in place of a line (or message) whose bytes are not UTF-8: its
 * first {@link PEEK_WINDOW} and last {@link TAIL_WINDOW} characters, decoded leniently, in
 * a small JSON text that this codec classifies as it would the bytes themselves:
 * `-32700`, or a malformed response answering the request it names.
 */
export function invalidUtf8StandIn(head: string, tail: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id: null, [INVALID_UTF8_MEMBER]: { head: head.slice(0, PEEK_WINDOW), tail: tail.slice(-TAIL_WINDOW) } });
}

/**
 * The most characters a stand-in text has: its excerpts, each UTF-16 unit escaped to at
 * most six characters, and the members around them. As many UTF-8 bytes at most too.
 */
const MAX_STAND_IN_CHARS = 6 * (PEEK_WINDOW + TAIL_WINDOW) + 128;

/**
 * The classification of a stand-in over the receiver's `maxBytes`. A stand-in is as large
 * as its excerpts (up to about 8 KB), however small the line it replaces was over its
 * framer's limit; a session with a `maxMessageBytes` below that would otherwise refuse it
 * as too large, reading no id from its start, and the request whose answer was dropped
 * would wait for its timeout. Only a text that is exactly a stand-in is let through (by
 * the prefix its writer gives it, then its shape): anything else over the limit is still
 * refused unparsed.
 */
function standInOver(text: string): Decoded | undefined {
  if (text.length > MAX_STAND_IN_CHARS || !(text.startsWith(OVERSIZED_PREFIX) || text.startsWith(INVALID_UTF8_PREFIX))) return undefined;
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(m) || m.method !== undefined || m.result !== undefined || m.error !== undefined) return undefined;
  return standInOf(m);
}

/** How the stand-in texts start (`JSON.stringify` keeps the members' order; the member names need no escaping). */
const OVERSIZED_PREFIX = '{"jsonrpc":"2.0","id":null,"' + OVERSIZED_MEMBER + '":';
const INVALID_UTF8_PREFIX = '{"jsonrpc":"2.0","id":null,"' + INVALID_UTF8_MEMBER + '":';

/** The classification of an {@link oversizedStandIn} or {@link invalidUtf8StandIn} text, or undefined when `m` is neither. */
function standInOf(m: Unchecked): Decoded | undefined {
  const utf8 = hasOwn(m, INVALID_UTF8_MEMBER);
  const o = m[utf8 ? INVALID_UTF8_MEMBER : OVERSIZED_MEMBER] as { limit?: unknown; head?: unknown; tail?: unknown } | undefined;
  if (typeof o !== "object" || o === null || typeof o.head !== "string" || typeof o.tail !== "string") return undefined;
  if (utf8) return decodeInvalidUtf8(o.head, o.tail);
  return typeof o.limit === "number" ? decodeOversized(o.head, o.tail, o.limit) : undefined;
}

/**
 * A message refused whole, though it parsed (too deep; a number out of range): as it
 * parsed, a request's id, or the id a response answers, can be read from the value. A
 * response is malformed, answering the request it names, which then fails at once;
 * anything else is `-32600`, with the id of a request.
 */
function refusedWhole(value: unknown, reason: string): Decoded {
  const m = value as Unchecked;
  if (m.method === undefined && (m.result !== undefined || m.error !== undefined)) return malformedResponse(isRequestId(m.id) ? m.id : null, reason);
  return invalid(ErrorCode.InvalidRequest, m.method !== undefined ? echoableId(m.id) : null, reason);
}

/** A caller-built value whose inspection threw. */
function uninspectable(): Decoded {
  return invalid(ErrorCode.InvalidRequest, null, "message could not be inspected");
}

/**
 * An error response whose request id could not be read, as it goes on the wire: without
 * `id`. The message model holds `id: null` for it (JSON-RPC 2.0's form, and what a reader
 * needs to tell it from an answer), but MCP's schema, from 2025-11-25 on, makes an error
 * response's `id` optional and a `RequestId` (string or integer) when present, and the
 * HTTP transport asks for an error body "that has no `id`"; the official SDKs' readers
 * (1.x and 2.x) refuse `"id": null`. Every version's readers here take either form.
 */
function wireForm(message: JsonRpcMessage | JsonRpcMessage[]): unknown {
  if (Array.isArray(message)) return message.some(hasNullId) ? message.map((m) => (hasNullId(m) ? withoutId(m) : m)) : message;
  return hasNullId(message) ? withoutId(message) : message;
}

/** An error response carrying `id: null`. */
function hasNullId(m: JsonRpcMessage): m is JsonRpcErrorResponse {
  return (m as { id?: unknown }).id === null && (m as { error?: unknown }).error !== undefined;
}

function withoutId(m: JsonRpcErrorResponse): object {
  const { id: _, ...rest } = m;
  return rest;
}

/** What {@link tryEncode} returns: the JSON text, or why the value has no JSON form. */
export type EncodeResult = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Encodes one message (or a batch) as compact JSON, reporting failure as a value: a
 * BigInt, a cycle, or a `toJSON` that throws or returns nothing. Use it for messages that
 * carry application values (tool results, sampling content) and answer a failure
 * yourself, e.g. with an internal error for the request.
 */
export function tryEncode(message: JsonRpcMessage | JsonRpcMessage[]): EncodeResult {
  try {
    const text: unknown = JSON.stringify(wireForm(message));
    if (typeof text === "string") return { ok: true, text };
    return { ok: false, reason: "message has no JSON form" };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? `message could not be encoded: ${e.message}` : "message could not be encoded" };
  }
}

/** The error message of the `-32603` that stands in for a response with no JSON form (here and in the session's `unsendable`). */
export const UNENCODABLE_RESPONSE = "Internal error: message could not be encoded";

/**
 * Encodes one message (or a batch) as compact JSON with no raw newline. Never throws on kernel-built messages.
 *
 * The output is `JSON.stringify` with no indentation: keys in insertion order (so a
 * message built the same way encodes the same way), every control character inside
 * strings escaped, hence never a raw line feed, as newline-delimited framing requires.
 * Should a message still have no JSON form, the text returned instead is a `-32603`
 * internal-error response (carrying the message's id when it is a response, so the
 * peer's request still gets its answer; no id otherwise): whatever goes on the wire
 * stays valid JSON-RPC. {@link tryEncode} reports the failure instead.
 */
export function encode(message: JsonRpcMessage | JsonRpcMessage[]): string {
  const encoded = tryEncode(message);
  if (encoded.ok) return encoded.text;
  let id: RequestId | null = null;
  try {
    const m = message as unknown as Unchecked;
    if (!Array.isArray(message) && m.method === undefined && isRequestId(m.id)) id = m.id;
  } catch {
    // An id behind a throwing getter: the substitute carries none.
  }
  const error = rpcError(ErrorCode.InternalError, UNENCODABLE_RESPONSE);
  return JSON.stringify(id === null ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error });
}
