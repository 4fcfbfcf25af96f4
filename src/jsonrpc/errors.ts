/**
 * JSON-RPC and MCP error codes, as named constants.
 *
 * Spec: `schema.ts` of each version (`PARSE_ERROR` … `INTERNAL_ERROR`, and the MCP codes
 * in the -32000 to -32099 range reserved for implementation-defined server errors).
 * Every code the kernel sends or recognizes is here; nowhere else in the source is an
 * error code written as a bare number.
 */

/** Error codes the kernel uses, by name. */
export const ErrorCode = {
  /** Invalid JSON was received. */
  ParseError: -32700,
  /** The JSON sent is not a valid request object. */
  InvalidRequest: -32600,
  /** The method does not exist or is not available (also: capability not declared). */
  MethodNotFound: -32601,
  /** Invalid method parameters; from 2026-07-28 also "resource not found". */
  InvalidParams: -32602,
  /** Internal error. */
  InternalError: -32603,
  /** 2025-11-25 and earlier: resource not found. */
  ResourceNotFound: -32002,
  /** 2026-07-28: an HTTP header disagrees with the body it describes. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability the request did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the requested protocol version is not supported by the server. */
  UnsupportedProtocolVersion: -32022,
  /** 2025-11-25 only: the server needs the user to complete a URL elicitation first. */
  UrlElicitationRequired: -32042,
  /** Kernel-local: a request timed out (never sent on the wire; delivered to the app). */
  RequestTimeout: -32001,
  /**
   * The connection closed before the response arrived (kernel-local); on the wire only as
   * a 2025-era server's answer to a request its ended session leaves (JSON-RPC's
   * server-error range, which draft basic/index keeps for legacy use).
   */
  ConnectionClosed: -32000,
  /** Kernel-local: the application cancelled its own request (the code LSP uses; never sent on the wire). */
  RequestCancelled: -32800,
} as const;

/** One of the named error codes. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The `error` member of a JSON-RPC error response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** True for a JSON-RPC error object: an object (not an array) with an integer code and a string message. */
export function isRpcError(v: unknown): v is JsonRpcErrorObject {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const e = v as { code?: unknown; message?: unknown };
  return Number.isInteger(e.code) && typeof e.message === "string";
}

/**
 * An application's error without an integer code and a string message, which no JSON-RPC
 * error response may carry: the `-32603` it is answered with instead (a plain request's
 * answer, or a task's failure), and the diagnostic naming why.
 */
export const MALFORMED_ERROR_ANSWER = "the handler failed with a malformed error";
export const MALFORMED_ERROR_DIAGNOSTIC = "the application's error needs an integer code and a string message";

/**
 * The message of a thrown value: an `Error`'s, or any object's string `message` (a plain
 * `{ message }` thrown is not "[object Object]"), else its string form. Never throws: a
 * value with no string form (`Object.create(null)`, a throwing `toString`) is described
 * instead, so a catch handler that reports it cannot itself throw.
 */
export function thrownMessage(e: unknown): string {
  try {
    const message = typeof e === "object" && e !== null ? (e as { message?: unknown }).message : undefined;
    return typeof message === "string" ? message : String(e);
  } catch {
    return "a thrown value that could not be read";
  }
}

/** How much of a peer's text an error message repeats (see {@link echoed}). */
export const ECHO_LIMIT = 200;

/**
 * The peer's `text` (a method or tool name, a header value) as an error message repeats
 * it: at most {@link ECHO_LIMIT} characters (UTF-16 code units), then how many more there were. The message
 * answers the peer that sent it, whose own size limit a repeated multi-megabyte name would
 * break (the client then sees "malformed response", not the error); whole values that
 * matter go in `data`. A surrogate pair is never cut in two.
 */
export function echoed(text: string): string {
  if (text.length <= ECHO_LIMIT) return text;
  const cut = isHighSurrogate(text.charCodeAt(ECHO_LIMIT - 1)) ? ECHO_LIMIT - 1 : ECHO_LIMIT;
  return `${text.slice(0, cut)}… (${text.length - cut} more characters)`;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** Builds an error object; `data` is omitted when undefined so encoding stays stable. */
export function rpcError(code: number, message: string, data?: unknown): JsonRpcErrorObject {
  return data === undefined ? { code, message } : { code, message, data };
}
