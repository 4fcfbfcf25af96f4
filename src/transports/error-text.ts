import { thrownMessage } from "../jsonrpc/errors.js";

/**
 * The text of a thrown value, for close reasons and request failures: an `Error`'s message,
 * with its cause when the message alone says nothing. undici's `fetch failed` says why only
 * in its cause (`ECONNREFUSED`, a DNS or TLS failure); an `AggregateError` cause (every
 * address refused) has an empty message and its code alone. Never throws, whatever the
 * cause holds.
 */
export function errorText(e: unknown): string {
  try {
    if (!(e instanceof Error)) return thrownMessage(e);
    const cause = (e as { cause?: unknown }).cause;
    if (!(cause instanceof Error)) return String(e.message);
    const message = typeof cause.message === "string" ? cause.message : "";
    const code = (cause as { code?: unknown }).code;
    const why = [typeof code === "string" && !message.includes(code) ? code : "", message].filter((p) => p !== "").join(": ");
    return why === "" ? String(e.message) : `${e.message} (${why})`;
  } catch {
    // A getter that throws, a value with no string form: what was thrown cannot be read.
    return "an error that could not be read";
  }
}
