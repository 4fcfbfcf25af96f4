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
 *
 * A list may end with items its entries generate when asked (the resources a resource
 * template's `list` callback names, after the registered resources): their cursors name
 * the entry's sequence number and a position in what it generated
 * ({@link pageThenListed}).
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

/** One page of a list. */
export interface Page<D> {
  items: D[];
  nextCursor?: string;
}

/**
 * One page of `items` (in ascending `seq` order) starting at `cursor`, at most `pageSize`
 * long (0: unlimited), mapped by `describe`. Throws an {@link McpError} -32602 for an
 * invalid cursor; the request handler turns that into the error response.
 */
export function page<T extends Sequenced, D>(list: string, items: Iterable<T>, cursor: unknown, pageSize: number, describe: (item: T) => D): Page<D> {
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

/**
 * A cursor for `list` resuming at item `index` of what the registry entry with sequence
 * number `seq` lists (items an entry generates when asked, not registered ones).
 */
export function encodeListedCursor(list: string, seq: number, index: number): string {
  return encodeCursor(`${list}/${seq}`, index);
}

/** The `[seq, index]` a cursor of {@link encodeListedCursor} resumes at, or null when it is not one of `list`. */
export function decodeListedCursor(list: string, cursor: unknown): [number, number] | null {
  if (typeof cursor !== "string") return null;
  let text: string;
  try {
    text = atob(cursor);
  } catch {
    return null;
  }
  if (!text.startsWith(list) || text.charCodeAt(list.length) !== 0x2f) return null;
  const colon = text.indexOf(":", list.length + 1);
  const digits = text.slice(list.length + 1, colon);
  if (colon < 0 || !/^\d{1,16}$/.test(digits)) return null;
  const seq = Number(digits);
  // decodeCursor re-encodes: a leading zero in `seq` makes a different text, so is refused too.
  const index = decodeCursor(`${list}/${seq}`, cursor);
  return index < 0 ? null : [seq, index];
}

/**
 * One page of `items` (registered, in ascending `seq` order, mapped by `describe`)
 * followed by the items each of `sources` generates (`expand`: undefined for a source
 * that generates none), in ascending `seq` order of the sources, each mapped by `check`
 * (which may throw). `sources` undefined: none generates any (the page is then `page`'s).
 *
 * The registered items come first, paged by {@link page}'s cursors; a generated item's
 * cursor names its source's sequence number and its position in what the source
 * generated, so a source added or removed elsewhere never makes a page skip or repeat
 * another source's items; within one source the positions are as stable as the order it
 * generates them in. A source is asked only when the page reaches it, and when the page
 * is full with items still to list (to know whether any follow, so a `nextCursor` always
 * leads to more).
 */
export function pageThenListed<T extends Sequenced, S extends Sequenced, D>(
  list: string,
  items: Iterable<T>,
  describe: (item: T) => D,
  sources: Iterable<S> | undefined,
  expand: (source: S) => readonly unknown[] | PromiseLike<readonly unknown[]> | undefined,
  check: (source: S, value: unknown) => D,
  cursor: unknown,
  pageSize: number,
): Page<D> | Promise<Page<D>> {
  const at = decodeListedCursor(list, cursor);
  if (at === null) {
    const first = page(list, items, cursor, pageSize, describe);
    if (first.nextCursor !== undefined || sources === undefined) return first;
    return listed(list, first.items, sources, expand, check, 0, 0, pageSize);
  }
  return listed(list, [], sources ?? [], expand, check, at[0], at[1], pageSize);
}

async function listed<S extends Sequenced, D>(
  list: string,
  out: D[],
  sources: Iterable<S>,
  expand: (source: S) => readonly unknown[] | PromiseLike<readonly unknown[]> | undefined,
  check: (source: S, value: unknown) => D,
  fromSeq: number,
  fromIndex: number,
  pageSize: number,
): Promise<Page<D>> {
  for (const source of sources) {
    if (source.seq < fromSeq) continue;
    const got = expand(source);
    if (got === undefined) continue;
    const values = await got;
    for (let i = source.seq === fromSeq ? fromIndex : 0; i < values.length; i++) {
      if (pageSize > 0 && out.length === pageSize) return { items: out, nextCursor: encodeListedCursor(list, source.seq, i) };
      out.push(check(source, values[i]));
    }
  }
  return { items: out };
}
