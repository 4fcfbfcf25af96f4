/**
 * Bounds on the peer's strings the kernel keeps after the message that carried them.
 *
 * The kernel's tables are capped by entry count (requests in flight, subscriptions, URL
 * elicitations, task progress tokens), but an entry's key may be any string the peer
 * chose, up to `maxMessageBytes` (4 MiB) each: 1024 legacy subscriptions of 4 MiB URIs
 * would hold 4 GiB for one session. So each kept string has a length bound too. The spec
 * sets none; these are far above any real identifier or URI.
 *
 * - Request ids: the codec (`MAX_REQUEST_ID_LENGTH`, `-32600` with id `null`).
 * - Identifiers kept beyond their request, held to the same bound: a request's
 *   `_meta.progressToken` (a 2025-11-25 task keeps it for its TTL), a URL-mode
 *   `elicitation/create`'s `elicitationId` (kept until its completion notification), the
 *   `taskIds` of a `subscriptions/listen` filter (kept while the stream is open).
 * - URIs: `resources/subscribe`'s `uri` and a listen filter's `resourceSubscriptions`
 *   ({@link MAX_URI_LENGTH}).
 * - The keys of a modern `input_required` result's `inputRequests` (kept until the
 *   application answers): a longer one fails the call with `-32603` (mrtr.ts).
 * - Whole values: a peer's capabilities and info, kept for its session (`initialize`) or
 *   for the whole of a modern request (its `clientCapabilities`): at most
 *   {@link MAX_KEPT_PEER_CHARS} (1024 modern requests in flight with 4 MiB of capabilities
 *   each held 4 GiB for one stdio connection).
 *
 * A request carrying a longer one is `-32602`, with an issue like a schema failure's, before
 * the application sees it. What a peer hands back in a response cannot be refused: an
 * over-long elicitation id of a `-32042` error or task id of a `CreateTaskResult` is just
 * not remembered (a `too-long-to-keep` diagnostic), the response itself still delivered.
 *
 * Not kept, so not bounded here: cursors (decoded per request), the ids named by
 * `tasks/*` and `notifications/*` (looked up, never stored).
 *
 * What the kernel keeps of an object is a copy ({@link copyOf}, `jsonCopy`), and what it
 * hands out of its own state is a copy too, so that the state and the application share no
 * object (README: the state changes only through `step`): a modern request's params kept
 * for its MRTR retry, input answers waiting for the round's others, the peer's info and
 * capabilities, a modern request's client capabilities, options and declared capabilities.
 * Not copied per message, for the hot path's sake: the session's own info and capabilities
 * that every modern request's `_meta` and every modern result's `serverInfo` carry.
 */
import { MAX_REQUEST_ID_LENGTH } from "../jsonrpc/codec.js";
import { jsonCopy } from "../jsonrpc/safe-json.js";
import type { JsonObject } from "../jsonrpc/types.js";
import type { Issue } from "../schema/validate.js";
import type { SessionOutput } from "./types.js";

/** Longest progress token, elicitation id or task id kept: as long as a request id may be. */
export const MAX_KEPT_ID_LENGTH = MAX_REQUEST_ID_LENGTH;

/** Longest URI kept for a subscription, in characters (browsers and servers commonly stop near 8 KiB too). */
export const MAX_URI_LENGTH = 8192;

/**
 * Most characters a peer's kept capabilities, or its info, may hold: strings and member
 * names by their length, any other value as one, and one more for each member and array
 * element. Real ones hold a few hundred.
 */
export const MAX_KEPT_PEER_CHARS = 64 * 1024;

/** The issue of a peer's capabilities or info (at `path`) larger than {@link MAX_KEPT_PEER_CHARS}, or null. */
export function oversizedPeerIssues(value: unknown, path: string): Issue[] | null {
  return charsLeft(value, MAX_KEPT_PEER_CHARS, 0) < 0 ? [{ path, reason: `holds more than ${MAX_KEPT_PEER_CHARS} characters, more than this receiver keeps` }] : null;
}

/** `budget` less what `v` holds, negative once spent (the walk stops there); deeper than 64 levels counts as spent. */
function charsLeft(v: unknown, budget: number, depth: number): number {
  if (typeof v === "string") return budget - v.length;
  if (typeof v !== "object" || v === null) return budget - 1;
  if (depth >= 64) return -1;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length && budget >= 0; i++) budget = charsLeft(v[i], budget - 1, depth + 1);
    return budget;
  }
  for (const k in v) {
    budget = charsLeft((v as Record<string, unknown>)[k], budget - k.length - 1, depth + 1);
    if (budget < 0) break;
  }
  return budget;
}

/** Whether `s` is a string longer than `max` characters. */
export function tooLong(s: unknown, max: number): boolean {
  return typeof s === "string" && s.length > max;
}

/**
 * The issue of a request (params already schema-valid) that carries a string the kernel
 * would keep beyond its bound, or null. Only the first is named: a reply listing every
 * one would hand most of the request back.
 */
export function retainedStringIssues(method: string, params: JsonObject | undefined): Issue[] | null {
  const meta = params?._meta;
  const token = typeof meta === "object" && meta !== null ? (meta as JsonObject).progressToken : undefined;
  const filter = method === "subscriptions/listen" ? (params?.notifications as { resourceSubscriptions?: unknown; taskIds?: unknown } | undefined) : undefined;
  return (
    longString(token, "/_meta/progressToken", MAX_KEPT_ID_LENGTH) ??
    (method === "resources/subscribe" ? longString(params?.uri, "/uri", MAX_URI_LENGTH) : null) ??
    (method === "elicitation/create" && params?.mode === "url" ? longString(params.elicitationId, "/elicitationId", MAX_KEPT_ID_LENGTH) : null) ??
    longStringIn(filter?.resourceSubscriptions, "/notifications/resourceSubscriptions", MAX_URI_LENGTH) ??
    longStringIn(filter?.taskIds, "/notifications/taskIds", MAX_KEPT_ID_LENGTH)
  );
}

/** The issue of `value` at `path` when it is a string longer than `max`, or null. */
function longString(value: unknown, path: string, max: number): Issue[] | null {
  return tooLong(value, max) ? [{ path, reason: `longer than ${max} characters, more than this receiver keeps` }] : null;
}

/** The issue of the first string of `list` longer than `max`, or null. */
function longStringIn(list: unknown, path: string, max: number): Issue[] | null {
  const i = Array.isArray(list) ? list.findIndex((v) => tooLong(v, max)) : -1;
  return i < 0 ? null : longString((list as unknown[])[i], `${path}/${i}`, max);
}

/** The diagnostic for a peer's string in a response that is not remembered because of its length. */
export function notKept(out: SessionOutput[], what: string, max: number, length: number): void {
  out.push({ type: "diagnostic", code: "too-long-to-keep", message: `${what} longer than ${max} characters is not remembered`, detail: { length } });
}

/**
 * A copy of data the session keeps or hands out of its own state. Data with no JSON form
 * (only options can hold it: inputs and messages carrying it are refused) is kept as given;
 * no message can carry it anyway.
 */
export function copyOf<T>(value: T): T {
  return jsonCopy(value) ?? value;
}
