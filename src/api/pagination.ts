/**
 * Pagination: opaque, stable cursors over a registry kept in registration order.
 *
 * Spec: 2025-11-25 `server/utilities/pagination`. "Page size is determined by the
 * server"; servers SHOULD "provide stable cursors" and "handle invalid cursors
 * gracefully"; "Invalid cursors SHOULD result in an error with code -32602"; clients
 * MUST treat cursors as opaque.
 *
 * Theory of operation. Every registered item gets a sequence number from a counter that
 * only grows, and the registry is a `Map`, which iterates in insertion order, so items are
 * always listed by ascending sequence number. A cursor names the sequence number to
 * resume from, not a position: removing an item already listed, or adding one, never
 * makes a later page skip or repeat an item that was there all along. The cursor also
 * names the list it belongs to, so a `tools/list` cursor is refused by `prompts/list`.
 * It is base64 text, opaque to clients, and decoding it is a strict parse: anything but
 * a cursor this module produced is invalid.
 */
import { ErrorCode } from "../jsonrpc/errors.js";
import { McpError } from "../driver/endpoint.js";

/** Something listed: its sequence number in the registry. */
export interface Sequenced {
  readonly seq: number;
}

/** A cursor for `list` resuming at sequence number `seq`. */
export function encodeCursor(list: string, seq: number): string {
  return btoa(`${list}:${seq}`);
}

/** The sequence number a cursor resumes at, or -1 when it is not a cursor of `list`. */
export function decodeCursor(list: string, cursor: string): number {
  let text: string;
  try {
    text = atob(cursor);
  } catch {
    return -1;
  }
  if (text.length <= list.length + 1 || !text.startsWith(list) || text.charCodeAt(list.length) !== 0x3a) return -1;
  let n = 0;
  for (let i = list.length + 1; i < text.length; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
    if (n > Number.MAX_SAFE_INTEGER) return -1;
  }
  // Only the exact text this module produces: no leading zeros, no alternative base64
  // spellings (padding bits, missing "="), so a cursor has one form.
  return encodeCursor(list, n) === cursor ? n : -1;
}

/**
 * One page of `items` (in ascending `seq` order) starting at `cursor`, at most `pageSize`
 * long (0: unlimited), mapped by `describe`. Throws an {@link McpError} -32602 for an
 * invalid cursor; the request handler turns that into the error response.
 */
export function page<T extends Sequenced, D>(list: string, items: Iterable<T>, cursor: unknown, pageSize: number, describe: (item: T) => D): { items: D[]; nextCursor?: string } {
  let from = 0;
  if (cursor !== undefined) {
    from = typeof cursor === "string" ? decodeCursor(list, cursor) : -1;
    if (from < 0) throw new McpError({ code: ErrorCode.InvalidParams, message: "Invalid cursor", data: { cursor } });
  }
  const out: D[] = [];
  for (const item of items) {
    if (item.seq < from) continue;
    if (pageSize > 0 && out.length === pageSize) return { items: out, nextCursor: encodeCursor(list, item.seq) };
    out.push(describe(item));
  }
  return { items: out };
}
