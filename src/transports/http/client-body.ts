/**
 * Small readers of the server's responses for the HTTP client, apart from the streams it
 * follows: the message of an error body, the bound of one SSE event, and the verdicts on
 * what cannot be used (a body that is not UTF-8, a fetch wrapper's refusal). Pure
 * functions of a `Response`, a string or an error: nothing here knows the transport.
 *
 * Spec: 2025-11-25 `basic/transports` (a POST is answered by one JSON object or an SSE
 * stream; "JSON-RPC messages MUST be UTF-8 encoded"), the same rules in draft
 * `basic/transports/streamable-http`.
 *
 * Theory of operation. Every read stops at the client's `maxMessageBytes` (`readBodyText`
 * of `./body.ts` for a JSON body, through the client's {@link BodyReader}, which its close
 * cuts short; {@link sseLimits} for an event), and a body that is not
 * read is released ({@link discard}), so a server can neither make the client buffer
 * past its limit nor keep a connection the client will not read.
 */
import { malformedResponseMessage } from "../../jsonrpc/codec.js";
import { MODERN_ERROR_CODES } from "../../model/error-codes.js";
import { letGo } from "./body.js";

/** Reads a response body as text to the message limit (the client's, cut short by its close: `HttpClient.readText`). */
export type BodyReader = (res: Response) => Promise<{ ok: true; text: string } | { ok: false }>;

/** `text` parsed as JSON, or undefined when it is not JSON. */
export function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Releases a response body we will not read. */
export function discard(res: Response): void {
  letGo(res.body);
}

/** An error a fetch wrapper marks as final (`retryable: false`): the connection is fine, the request cannot be sent as it is. */
export function isRefusal(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { retryable?: unknown }).retryable === false;
}

/**
 * Why a response body (`what`) whose bytes are not UTF-8 fails what it answers: "JSON-RPC
 * messages MUST be UTF-8 encoded" (2025-11-25 `basic/transports`), so no code or id in it
 * can be trusted.
 */
export function notUtf8(what: string): string {
  return malformedResponseMessage(`${what} is not valid UTF-8`);
}

/** An SSE event may hold a message of `maxBytes` and its field names. */
export function sseLimits(maxBytes: number): { maxEventSize: number } {
  return { maxEventSize: maxBytes + 1024 };
}

/**
 * Whether `res` (a 400, 404 or 405) carries a recognized modern JSON-RPC error ({@link MODERN_ERROR_CODES}):
 * the answer of a server of the 2026 era (draft `basic/versioning`, Backward Compatibility).
 * A copy of the body is read (by `read`), so `res` can still be answered with.
 */
export async function isModernRefusal(res: Response, read: BodyReader): Promise<boolean> {
  const text = await read(res.clone());
  const reply = text.ok ? (parse(text.text) as { error?: { code?: unknown } } | null | undefined) : undefined;
  return typeof reply?.error?.code === "number" && MODERN_ERROR_CODES.includes(reply.error.code);
}

/** The `error.message` of a response whose body is a JSON-RPC error (read by `read`). */
export async function errorMessageOf(res: Response, read: BodyReader): Promise<string | undefined> {
  const text = await read(res);
  const reply = text.ok ? (parse(text.text) as { error?: { message?: unknown } } | null | undefined) : undefined;
  return typeof reply?.error?.message === "string" ? reply.error.message : undefined;
}
