/**
 * Request bodies in, HTTP error responses out: the two halves of a POST that carry no
 * protocol meaning. (The bounded reader serves response bodies from a peer too: the HTTP
 * client's JSON answers, the OAuth client's metadata and token responses.)
 *
 * Spec: 2025-11-25 `basic/transports` ("Sending Messages to the Server": a server that
 * cannot accept the input MUST answer an HTTP error status, whose body MAY be a JSON-RPC
 * error response that has no id) and the same rule in draft
 * `basic/transports/streamable-http`.
 *
 * Theory of operation. {@link readBody} reads at most `maxBytes`: a `Content-Length`
 * over the bound is refused before a byte is read, and a body without one (chunked) is
 * cancelled the moment it passes the bound, so a client cannot make the server buffer
 * more than that. {@link httpError} builds the error responses; their JSON-RPC body
 * has no `id` (the transport pages' "error response that has no id", the codec's wire
 * form of an id that could not be read) unless the caller has the request's id.
 */
import { decode, DEFAULT_LIMITS, encode, invalidUtf8StandIn } from "../../jsonrpc/codec.js";
import { lineExcerpts } from "../../framing/ndjson.js";
import { rpcError } from "../../jsonrpc/errors.js";
import { decodeUtf8 } from "../../jsonrpc/safe-json.js";
import type { JsonRpcErrorResponse, RequestId } from "../../jsonrpc/types.js";

/** What {@link readBody} returns. */
export type BodyResult = { ok: true; bytes: Uint8Array } | { ok: false; status: 400 | 413; reason: string };

/**
 * The refusal a body's declared `Content-Length` earns before a byte is read (invalid, or
 * over `maxBytes`); undefined when there is none to give. Shared by every body reader.
 */
export function declaredLengthRefusal(declared: string | null, maxBytes: number): BodyResult | undefined {
  if (declared === null) return undefined;
  const n = Number(declared);
  if (!Number.isSafeInteger(n) || n < 0) return { ok: false, status: 400, reason: "invalid Content-Length" };
  return n > maxBytes ? bodyTooLarge(maxBytes) : undefined;
}

/** The refusal of a body that passed `maxBytes` while being read. */
export function bodyTooLarge(maxBytes: number): BodyResult {
  return { ok: false, status: 413, reason: `request body exceeds ${maxBytes} bytes` };
}

/** The refusal of a body whose stream failed. */
export const UNREADABLE_BODY: BodyResult = /* @__PURE__ */ Object.freeze({ ok: false, status: 400, reason: "the request body could not be read" });

/**
 * The reason a body is cancelled with when it is not, or no longer, needed. Given none, a
 * fetch implementation makes its own: undici (Node 20) builds an AbortError DOMException,
 * the largest single cost of an SSE answer on the client (about 20 µs of a round trip's
 * half a millisecond of CPU). One instance for every body: nothing reads it.
 */
const NOT_NEEDED = /* @__PURE__ */ new Error("the body is not needed");

/** Cancels a body (a stream, or its reader) that will not be read further. Never throws or rejects. */
export function letGo(body: { cancel(reason?: unknown): Promise<void> } | null | undefined): void {
  body?.cancel(NOT_NEEDED).catch(() => {});
}

/** The largest request body the HTTP handler reads by default (its `maxBodyBytes`): the codec's message limit. */
export const DEFAULT_MAX_BODY_BYTES = DEFAULT_LIMITS.maxBytes;

/**
 * The headers of a 503 the handler answers before any of the request ran (a full server,
 * one closing): RFC 9110 §15.6.4's `Retry-After`, in seconds. A client may send the
 * request again (`httpClientTransport` does, for a JSON-RPC error body).
 */
export const RETRY_SOON: Readonly<Record<string, string>> = { "Retry-After": "1" };

/**
 * What {@link readBody} needs of a signal: an `AbortSignal`, or anything that calls its one
 * `abort` listener when the read is to stop (the HTTP client's `BodyCut`, cheaper than an
 * `AbortController` per response body).
 */
export interface AbortWatch {
  addEventListener(type: "abort", listener: () => void): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/**
 * Reads a body of at most `maxBytes` bytes: a request's, or a response's (a refusal then
 * means the response was not read; the status is only the kind of failure). Never throws.
 *
 * A request's `signal` is watched while a read waits: a client that goes away then leaves
 * a body the runtime itself may never end (one an embedder's framework built from its own
 * stream, say), and the read would otherwise wait for ever. (A body that is there to read
 * is read, as when the client left before it: its request is then served and cancelled.)
 */
export async function readBody(message: { readonly headers: Headers; readonly body: ReadableStream<Uint8Array> | null; readonly signal?: AbortWatch }, maxBytes: number): Promise<BodyResult> {
  const refused = declaredLengthRefusal(message.headers.get("content-length"), maxBytes);
  if (refused !== undefined) return refused;
  const body = message.body;
  if (body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const signal = message.signal;
  let waiting = false;
  let cut = false;
  // (Cancelling ends the waiting read as "done": `cut` tells that from the body's end.)
  const gone = () => void (waiting && ((cut = true), letGo(reader)));
  signal?.addEventListener("abort", gone);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      waiting = true;
      const { done, value } = await reader.read();
      waiting = false;
      if (cut) return UNREADABLE_BODY;
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        letGo(reader);
        return bodyTooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } catch {
    return UNREADABLE_BODY;
  } finally {
    signal?.removeEventListener("abort", gone);
  }
  return { ok: true, bytes: concatBytes(chunks) };
}

/** The chunks, end to end, in one array (the one chunk itself when there is one). */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  let length = 0;
  for (const c of chunks) length += c.byteLength;
  const whole = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    whole.set(c, at);
    at += c.byteLength;
  }
  return whole;
}

/**
 * The refusal of a body that is not UTF-8, by {@link readBodyText}: a replacement
 * character in its place would still parse as JSON (inside a string), and JSON exchanged
 * between systems, MCP's messages with it, MUST be UTF-8 (RFC 8259 section 8.1, 2025-11-25
 * `basic/transports`).
 */
export const NOT_UTF8_BODY: Extract<BodyResult, { ok: false }> = /* @__PURE__ */ Object.freeze({ ok: false, status: 400, reason: "the body is not valid UTF-8" });

/**
 * {@link readBody}, the body cancelled when it is refused (one refused by its declared
 * length was never read: the connection is let go rather than left holding it).
 */
export async function readBodyOrCancel(message: Parameters<typeof readBody>[0], maxBytes: number): Promise<BodyResult> {
  const read = await readBody(message, maxBytes);
  if (!read.ok) letGo(message.body);
  return read;
}

/** {@link readBodyOrCancel} as text, strictly UTF-8 (else {@link NOT_UTF8_BODY}). */
export async function readBodyText(message: Parameters<typeof readBody>[0], maxBytes: number): Promise<{ ok: true; text: string } | Extract<BodyResult, { ok: false }>> {
  const read = await readBodyOrCancel(message, maxBytes);
  if (!read.ok) return read;
  const text = decodeUtf8(read.bytes);
  return text === undefined ? NOT_UTF8_BODY : { ok: true, text };
}

/** Reason phrases of the statuses this transport answers with. */
const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
};

/**
 * An HTTP error with a JSON-RPC error body. `headers` are added as given (the caller
 * passes only constant or validated values).
 */
export function httpError(status: number, code: number, message: string, options: { id?: RequestId | null; data?: unknown; headers?: Record<string, string> } = {}): Response {
  const reply: JsonRpcErrorResponse = { jsonrpc: "2.0", id: options.id ?? null, error: rpcError(code, `${STATUS_TEXT[status] ?? "Error"}: ${message}`, options.data) };
  const response = jsonResponse(status, encode(reply), options.headers);
  REFUSALS.set(response, reply.error.message);
  return response;
}

/** The error message of each answer {@link httpError} made (its body is a stream, read by the client only). */
const REFUSALS = /* @__PURE__ */ new WeakMap<object, string>();

/** The error message an error answer carries, where it can be told without reading a stream: one {@link httpError} made, or a JSON text. */
export function refusalReason(answer: { readonly body: unknown }): string | undefined {
  const made = REFUSALS.get(answer);
  if (made !== undefined || typeof answer.body !== "string") return made;
  try {
    const message = JSON.parse(answer.body)?.error?.message;
    return typeof message === "string" ? message : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The answer to a body over a session's message limits (`maxMessageBytes`, `maxDepth`),
 * for a body the handler decoded before the session's setup existed (a modern request, a
 * legacy `initialize`): HTTP 400 with the codec's own reply (`-32600` naming the limit,
 * the request's id echoed where it can be read), exactly what the handler answers a legacy
 * session's body over those limits, and what the kernel answers on every other transport
 * (README Limits). Undefined within them. Only a body past `maxMessageBytes`, or a
 * session deeper-limited than that first decode (the codec's default depth), is decoded again.
 */
export function overSessionLimits(bytes: Uint8Array, limits: { maxMessageBytes?: number; maxDepth?: number }): Response | undefined {
  const maxBytes = limits.maxMessageBytes ?? DEFAULT_LIMITS.maxBytes;
  const maxDepth = limits.maxDepth ?? DEFAULT_LIMITS.maxDepth;
  if (bytes.byteLength <= maxBytes && maxDepth >= DEFAULT_LIMITS.maxDepth) return undefined;
  const d = decode(bytes, { maxBytes, maxDepth });
  return d.kind === "invalid" ? jsonResponse(400, encode(d.reply)) : undefined;
}

/** A JSON response with the given text and status. */
export function jsonResponse(status: number, text: string, headers?: Record<string, string>): Response {
  const h = new Headers(headers);
  h.set("Content-Type", "application/json");
  return new Response(text, { status, headers: h });
}

/**
 * A body the handler refused, as the kernel is to read it so the requests its malformed
 * responses name fail now: its text, or, when it is not UTF-8, the stdio channel's
 * stand-in for such a line, which names what it answers.
 */
export function refusedBodyText(bytes: Uint8Array): string {
  const text = decodeUtf8(bytes);
  if (text !== undefined) return text;
  const { head, tail } = lineExcerpts(bytes);
  return invalidUtf8StandIn(head, tail);
}
