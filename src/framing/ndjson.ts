/**
 * Newline-delimited JSON framing: the wire format of the stdio transport.
 *
 * Spec: `basic/transports` of 2025-11-25 ("stdio") and draft `basic/transports/stdio`:
 * "Messages are delimited by newlines, and MUST NOT contain embedded newlines"; messages
 * are UTF-8. The same framing serves any reliable byte stream (sockets, pipes).
 *
 * Theory of operation. The decoder turns chunks, as they arrive, into complete lines; it
 * knows nothing of JSON, which the codec parses next. Its state is plain data owned by
 * one stream and updated in place by {@link feedNdjson}: the unterminated line so far
 * (as text, or as bytes in a buffer that grows by doubling), and whether the rest of an
 * oversized line is being discarded. Updating in place is deliberate: rebuilding the
 * partial line on every chunk would make a long line arriving in small chunks quadratic.
 * The pending part never contains a newline, so each chunk is searched once, from where
 * it starts, and each byte is looked at a bounded number of times.
 *
 * - A line ends at LF; a CR just before it is dropped (CRLF peers), and so is a BOM
 *   at its start. Empty lines are skipped.
 * - Bytes are decoded only as whole lines (all the complete lines of a chunk in one
 *   decoder call), so a character split across chunks waits in the pending bytes and is
 *   never cut; a line that is not valid UTF-8 becomes one `invalid-utf8` event with the
 *   same two excerpts as an oversized line's (below), so that a response's id can still
 *   be read, and the stream goes on.
 * - A line longer than `maxLineBytes` (not counting its terminator) is reported once, at
 *   its newline (or at the end of the stream), as an `oversized` event with its size and
 *   its first {@link PEEK_WINDOW} and last {@link TAIL_WINDOW} characters: its bytes are
 *   dropped from the moment the limit is crossed, and decoding resumes after the newline.
 *   The two excerpts are what lets the codec still name the request the line carried or
 *   the request it answered (a response's id often comes last). Memory stays at
 *   `maxLineBytes` (+1 for a pending CR) plus the excerpts, however long the line is.
 *
 * The state is JSON-serializable except for the byte buffer (a `Uint8Array`).
 */
import { DEFAULT_LIMITS, limitOr } from "../jsonrpc/codec.js";
import { chunkBytes, decodeUtf8, PEEK_WINDOW, TAIL_WINDOW, utf8Length } from "../jsonrpc/safe-json.js";

/** What the decoder hands out, one per line. */
export type NdjsonEvent =
  /** A complete line, terminator removed: the text of one message. */
  | { kind: "line"; text: string }
  /** A line over `maxLineBytes`: its size in UTF-8 bytes (terminator excluded), its first and last characters (bytes decoded leniently). */
  | { kind: "oversized"; bytes: number; head: string; tail: string }
  /** A line whose bytes are not valid UTF-8: its first and last characters (decoded leniently), as for `oversized`. */
  | { kind: "invalid-utf8"; head: string; tail: string };

/** Options for {@link createNdjsonDecoder}. */
export interface NdjsonOptions {
  /** Longest line accepted, in UTF-8 bytes, terminator excluded. Default (also for one that is no positive integer): the codec's `maxBytes` (4 MiB). */
  maxLineBytes?: number | undefined;
}

/** Decoder state: plain data, owned by one stream, updated in place by {@link feedNdjson}. */
export interface NdjsonDecoder {
  /** Longest line accepted, in UTF-8 bytes. */
  readonly maxLineBytes: number;
  /** The unterminated line so far, when the stream delivers text. Never holds a LF. */
  text: string;
  /** UTF-8 size of {@link NdjsonDecoder.text}. */
  textBytes: number;
  /** The unterminated line so far, when the stream delivers bytes: `buffer[0 .. length)`. Never holds a LF. */
  buffer: Uint8Array;
  /** Bytes used in {@link NdjsonDecoder.buffer}. */
  length: number;
  /** True while the rest of an oversized line is dropped, up to its newline. */
  discarding: boolean;
  /** While discarding: the line's size so far, in UTF-8 bytes (a CR at its end included). */
  overBytes: number;
  /** While discarding: the line's start, as its chunks came (text: its first characters; bytes: its first {@link PEEK_WINDOW} + 3 bytes). */
  overHead: string | Uint8Array;
  /** While discarding: the line's end so far, as its chunks came (text: its last characters; bytes: its last {@link TAIL_WINDOW} bytes). */
  overTail: string | Uint8Array;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = 0xfeff;
/** A buffer grown past this is released once its line is delivered, so one huge line does not pin memory. */
const KEEP_BUFFER = 64 * 1024;
/** Complete lines of a byte chunk up to this size are decoded in one call. */
const BULK_DECODE = 1024 * 1024;
const EMPTY = new Uint8Array(0);
const utf8Encoder = /* @__PURE__ */ new TextEncoder();

/** A fresh decoder for one stream. */
export function createNdjsonDecoder(options?: NdjsonOptions): NdjsonDecoder {
  let max: unknown;
  try {
    max = options?.maxLineBytes;
  } catch {
    // Options whose getter (or Proxy trap) throws: the default, as for a malformed limit.
  }
  return {
    maxLineBytes: limitOr(max, DEFAULT_LIMITS.maxBytes),
    text: "",
    textBytes: 0,
    buffer: EMPTY,
    length: 0,
    discarding: false,
    overBytes: 0,
    overHead: "",
    overTail: EMPTY,
  };
}

/**
 * Feeds one chunk (text or UTF-8 bytes) and returns the lines it completes, in order.
 * Updates `state` in place. Never throws. A stream should stick to one chunk type; a
 * mix works (the pending part is converted) but costs a copy. An `ArrayBuffer` or another
 * view is read as its bytes (it threw, and a `Uint16Array` was read element by element); a
 * chunk that is neither text nor bytes is an `invalid-utf8` event with no excerpts, as the
 * stream transports answer one, and the line being read goes on. So is any chunk fed to a
 * state that is no decoder {@link createNdjsonDecoder} made, or a frozen one: it cannot be
 * read into lines.
 */
export function feedNdjson(state: NdjsonDecoder, chunk: string | Uint8Array | ArrayBuffer | ArrayBufferView): NdjsonEvent[] {
  if (!isDecoder(state)) return [{ kind: "invalid-utf8", head: "", tail: "" }];
  const out: NdjsonEvent[] = [];
  if (typeof chunk === "string") {
    if (state.length > 0) feedBytes(state, utf8Encoder.encode(chunk), out);
    else feedText(state, chunk, out);
  } else {
    const bytes = chunkBytes(chunk);
    if (bytes === undefined) return [{ kind: "invalid-utf8", head: "", tail: "" }];
    if (state.text !== "") {
      const pending = utf8Encoder.encode(state.text);
      appendBytes(state, pending, 0, pending.length);
      state.text = "";
      state.textBytes = 0;
    }
    feedBytes(state, bytes, out);
  }
  return out;
}

/**
 * Ends the stream: a last line without a newline is still delivered (a peer that exits
 * right after writing may omit it). The state is reset and can be reused. A state that is
 * no decoder (or a frozen one) holds nothing that can be read: no events.
 */
export function endNdjson(state: NdjsonDecoder): NdjsonEvent[] {
  if (!isDecoder(state)) return [];
  const out: NdjsonEvent[] = [];
  if (state.discarding) endDiscard(state, out);
  else if (state.text !== "") emitText(state, state.text, state.textBytes, out);
  else if (state.length > 0) emitBytes(state, state.buffer, 0, state.length, out);
  state.text = "";
  state.textBytes = 0;
  state.length = 0;
  return out;
}

/** What {@link encodeNdjsonLine} returns. */
export type NdjsonEncoded = { ok: true; line: string } | { ok: false; reason: string };

/**
 * Frames one message's text as a line: the text plus `"\n"`. Text with a raw LF or CR
 * cannot be one line (the codec's `encode` never produces any) and is refused as a value,
 * as is anything that is not text.
 */
export function encodeNdjsonLine(text: string): NdjsonEncoded {
  if (typeof text !== "string") return { ok: false, reason: "message text is not a string" };
  if (text.indexOf("\n") !== -1 || text.indexOf("\r") !== -1) return { ok: false, reason: "message text contains a raw line break" };
  return { ok: true, line: text + "\n" };
}

/**
 * Whether `state` is a decoder the feed can update in place: one {@link createNdjsonDecoder}
 * made (or a copy), not frozen. The kernel never throws across its boundary (README), and a
 * plain JavaScript caller may pass anything; checked per chunk, so only the fields' types,
 * which costs a few property reads. A getter (or Proxy trap) that throws makes it none.
 */
function isDecoder(state: NdjsonDecoder): boolean {
  if (typeof state !== "object" || state === null) return false;
  try {
    return (
      Object.isExtensible(state) &&
      typeof state.text === "string" &&
      typeof state.textBytes === "number" &&
      state.buffer instanceof Uint8Array &&
      typeof state.length === "number" &&
      typeof state.maxLineBytes === "number" &&
      typeof state.discarding === "boolean" &&
      typeof state.overBytes === "number" &&
      (typeof state.overHead === "string" || state.overHead instanceof Uint8Array) &&
      (typeof state.overTail === "string" || state.overTail instanceof Uint8Array)
    );
  } catch {
    return false;
  }
}

function feedText(state: NdjsonDecoder, chunk: string, out: NdjsonEvent[]): void {
  const max = state.maxLineBytes;
  let start = 0;
  let lf = chunk.indexOf("\n");
  if (state.discarding) {
    const upTo = lf === -1 ? chunk.length : lf;
    state.overBytes += utf8Length(upTo === chunk.length ? chunk : chunk.slice(0, upTo));
    state.overHead = growHead(state.overHead, chunk.slice(0, Math.min(upTo, HEAD_CHARS + 1)));
    state.overTail = lastChars((typeof state.overTail === "string" ? state.overTail : lenientUtf8.decode(state.overTail)) + chunk.slice(Math.max(0, upTo - TAIL_CHARS), upTo));
    if (lf === -1) return;
    endDiscard(state, out);
    start = lf + 1;
    lf = chunk.indexOf("\n", start);
  }
  while (lf !== -1) {
    const piece = chunk.slice(start, lf);
    const pendingBytes = state.textBytes;
    const line = pendingBytes === 0 ? piece : state.text + piece;
    state.text = "";
    state.textBytes = 0;
    // The UTF-16 length bounds the UTF-8 size from below and a third of it from above, so
    // the exact count runs only for lines near the limit; otherwise `bytes` is a bound
    // that decides the comparison just as well.
    const low = pendingBytes + piece.length;
    const bytes = low + 2 * piece.length <= max || low > max + 1 ? low : pendingBytes + utf8Length(piece);
    emitText(state, line, bytes, out);
    start = lf + 1;
    lf = chunk.indexOf("\n", start);
  }
  if (start < chunk.length) {
    const rest = start === 0 ? chunk : chunk.slice(start);
    const low = state.textBytes + rest.length;
    const bytes = low > max + 1 ? low : state.textBytes + utf8Length(rest);
    // A CR at the end may be the first half of a CRLF, so it does not count (yet).
    const content = rest.charCodeAt(rest.length - 1) === CR ? bytes - 1 : bytes;
    if (content > max) {
      const pending = state.text;
      const tail = lastChars(rest.length >= TAIL_CHARS ? rest : pending.slice(-TAIL_CHARS) + rest);
      // The size the event reports is exact, not the bound that decided the comparison.
      startDiscard(state, growHead(pending.length > HEAD_CHARS ? pending.slice(0, HEAD_CHARS + 1) : pending, rest), tail, state.textBytes + utf8Length(rest));
      state.text = "";
      state.textBytes = 0;
    } else {
      state.text += rest;
      state.textBytes = bytes;
    }
  }
}

/** Delivers one text line of `bytes` UTF-8 bytes (CR included, if any): skipped when empty, reported when too long. */
function emitText(state: NdjsonDecoder, line: string, bytes: number, out: NdjsonEvent[]): void {
  if (line.charCodeAt(line.length - 1) === CR) {
    line = line.slice(0, -1);
    bytes--;
  }
  // The size an oversized event reports is exact (BOM included, as on the byte path), not the bound that decided the comparison.
  if (bytes > state.maxLineBytes) return void out.push({ kind: "oversized", bytes: utf8Length(line), head: headText(line), tail: tailText(lastChars(line)) });
  // A leading BOM is dropped, as the UTF-8 decoder does for byte lines.
  if (line.charCodeAt(0) === BOM) line = line.slice(1);
  if (line !== "") out.push({ kind: "line", text: line });
}

function feedBytes(state: NdjsonDecoder, chunk: Uint8Array, out: NdjsonEvent[]): void {
  const max = state.maxLineBytes;
  const n = chunk.length;
  // Nothing to read. A view whose buffer was transferred away (detached) has length 0 and its indexOf throws.
  if (n === 0) return;
  let start = 0;
  let lf = chunk.indexOf(LF);
  if (state.discarding) {
    const upTo = lf === -1 ? n : lf;
    state.overBytes += upTo;
    state.overHead = growHead(state.overHead, chunk.subarray(0, upTo));
    state.overTail = lastBytes(typeof state.overTail === "string" ? utf8Encoder.encode(state.overTail) : state.overTail, chunk.subarray(Math.max(0, upTo - TAIL_BYTES), upTo));
    if (lf === -1) return;
    endDiscard(state, out);
    start = lf + 1;
    lf = chunk.indexOf(LF, start);
  }
  if (lf !== -1 && state.length > 0) {
    // The pending line ends here.
    if (state.length + (lf - start) > max + 1) {
      // Pending bytes never pass the limit + 1, so this line has bytes in this chunk: lf > start.
      const end = chunk[lf - 1] === CR ? lf - 1 : lf;
      out.push({ kind: "oversized", bytes: state.length + (end - start), head: headText(growHead(state.buffer.subarray(0, Math.min(state.length, HEAD_BYTES)), chunk.subarray(start, end))), tail: tailText(lastBytes(state.buffer.subarray(0, state.length), chunk.subarray(start, end))) });
    } else {
      appendBytes(state, chunk, start, lf);
      emitBytes(state, state.buffer, 0, state.length, out);
      if (state.buffer.length > KEEP_BUFFER) state.buffer = EMPTY;
    }
    state.length = 0;
    start = lf + 1;
  }
  // A chunk that ends a line (a peer writing whole lines, the usual case) needs no search
  // for its last newline, nor a view of its lines: each is a call into the runtime that
  // costs more than the short line's decoding (a Node Buffer's subarray builds a Buffer).
  const last = lf === -1 ? -1 : chunk[n - 1] === LF ? n - 1 : chunk.lastIndexOf(LF);
  if (last >= start) {
    // The complete lines inside the chunk: one decoder call for all of them is much
    // cheaper than one per line; a range with invalid UTF-8 (or one so large that
    // decoding it whole would be wasteful if it is oversized) goes line by line.
    const text = last - start < BULK_DECODE ? decodeUtf8(start === 0 && last === n - 1 ? chunk : chunk.subarray(start, last + 1)) : undefined;
    // The decoder drops a BOM opening the range and feedText drops one opening each line:
    // give the first back, so a line loses exactly one BOM however the stream was cut.
    if (text !== undefined) feedText(state, chunk[start] === 0xef && chunk[start + 1] === 0xbb && chunk[start + 2] === 0xbf ? "\ufeff" + text : text, out);
    else {
      for (lf = chunk.indexOf(LF, start); lf !== -1 && lf <= last; lf = chunk.indexOf(LF, start)) {
        emitBytes(state, chunk, start, lf, out);
        start = lf + 1;
      }
    }
    start = last + 1;
  }
  if (start < n) {
    // A CR at the end may be the first half of a CRLF, so it does not count (yet).
    const content = state.length + (n - start) - (chunk[n - 1] === CR ? 1 : 0);
    if (content > max) {
      startDiscard(state, growHead(state.buffer.slice(0, Math.min(state.length, HEAD_BYTES)), chunk.subarray(start, n)), lastBytes(state.buffer.subarray(0, state.length), chunk.subarray(start, n)), state.length + (n - start));
      state.length = 0;
    } else appendBytes(state, chunk, start, n);
  }
}

/** Delivers the line `bytes[start .. end)` (CR included, if any): skipped when empty, reported when too long or not UTF-8. */
function emitBytes(state: NdjsonDecoder, bytes: Uint8Array, start: number, end: number, out: NdjsonEvent[]): void {
  if (end > start && bytes[end - 1] === CR) end--;
  if (end - start > state.maxLineBytes) return void out.push({ kind: "oversized", bytes: end - start, ...lineExcerpts(bytes.subarray(start, end)) });
  if (end === start) return;
  const text = decodeUtf8(bytes.subarray(start, end));
  // A line that was only a BOM is empty once decoded: skipped, as in text mode.
  if (text === "") return;
  out.push(text === undefined ? { kind: "invalid-utf8", ...lineExcerpts(bytes.subarray(start, end)) } : { kind: "line", text });
}

/** The two excerpts of a whole line (or message) held as bytes: its first and last characters, decoded leniently. */
export function lineExcerpts(line: Uint8Array): { head: string; tail: string } {
  return { head: headText(line.subarray(0, HEAD_BYTES)), tail: tailText(line.subarray(Math.max(0, line.length - TAIL_WINDOW))) };
}

/** Copies `src[start .. end)` onto the end of the pending bytes, growing the buffer by doubling. */
function appendBytes(state: NdjsonDecoder, src: Uint8Array, start: number, end: number): void {
  const need = state.length + (end - start);
  if (need > state.buffer.length) {
    // Doubling keeps appends amortised O(1); the cap keeps the buffer within the line limit.
    const grown = new Uint8Array(Math.max(need, Math.min(state.maxLineBytes + 1, Math.max(state.buffer.length * 2, 256))));
    grown.set(state.buffer.subarray(0, state.length));
    state.buffer = grown;
  }
  state.buffer.set(src.subarray(start, end), state.length);
  state.length = need;
}

/**
 * Lenient UTF-8 (U+FFFD for what is not), BOMs kept: only for the excerpts of a dropped
 * line, which may be cut mid-character. The excerpts are defined on the line's UTF-8
 * bytes (its first {@link PEEK_WINDOW} and last {@link TAIL_WINDOW}), so they come out the
 * same whether the line arrived as text or bytes, whole or in pieces.
 */
const lenientUtf8 = /* @__PURE__ */ new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Characters kept of a text line's ends: one more than the bytes wanted (each character is
 * at least one byte, so the wanted bytes come from the last ones) and one for a surrogate
 * pair cut by the slice, whose lone half then falls outside the wanted bytes.
 */
const TAIL_CHARS = TAIL_WINDOW + 3; // and one for the CR of a CRLF, dropped at the end
const HEAD_CHARS = PEEK_WINDOW + 2;

/** The last {@link TAIL_CHARS} characters of `text`. */
function lastChars(text: string): string {
  return text.length > TAIL_CHARS ? text.slice(-TAIL_CHARS) : text;
}

/** Bytes kept of a byte line's end: the tail excerpt's, and one for the CR of a CRLF, dropped at the end. */
const TAIL_BYTES = TAIL_WINDOW + 1;

/** The last {@link TAIL_BYTES} bytes of `a` then `b` (a new array: only for the excerpts of a dropped line). */
function lastBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (b.length >= TAIL_BYTES) return b.slice(b.length - TAIL_BYTES);
  const keep = Math.min(a.length, TAIL_BYTES - b.length);
  const joined = new Uint8Array(keep + b.length);
  joined.set(a.subarray(a.length - keep));
  joined.set(b, keep);
  return joined;
}

/** A dropped line's tail excerpt: the last {@link TAIL_WINDOW} bytes of what was kept of its end. */
function tailText(end: string | Uint8Array): string {
  const bytes = typeof end === "string" ? utf8Encoder.encode(end) : end;
  return lenientUtf8.decode(bytes.subarray(Math.max(0, bytes.length - TAIL_WINDOW)));
}

/** Bytes kept of a byte line's start: the head excerpt's, and room for a BOM. */
const HEAD_BYTES = PEEK_WINDOW + 3;

/**
 * A line's start kept so far, grown by the next piece of it until it holds what the head
 * excerpt needs ({@link HEAD_CHARS} + 1 characters of text, {@link HEAD_BYTES} bytes).
 * Text meeting bytes becomes bytes. A new array when it grows (excerpts only).
 */
function growHead(head: string | Uint8Array, piece: string | Uint8Array): string | Uint8Array {
  if (typeof head === "string") {
    if (typeof piece === "string") return head.length > HEAD_CHARS ? head : head + piece.slice(0, HEAD_CHARS + 1 - head.length);
    head = utf8Encoder.encode(head);
  }
  if (head.length >= HEAD_BYTES) return head;
  const more = typeof piece === "string" ? utf8Encoder.encode(piece.slice(0, HEAD_BYTES)) : piece;
  const joined = new Uint8Array(Math.min(HEAD_BYTES, head.length + more.length));
  joined.set(head.subarray(0, joined.length));
  joined.set(more.subarray(0, joined.length - Math.min(head.length, joined.length)), Math.min(head.length, joined.length));
  return joined;
}

/** The head excerpt of what was kept of a line's start: a BOM dropped, then its first {@link PEEK_WINDOW} UTF-8 bytes. */
function headText(start: string | Uint8Array): string {
  if (typeof start === "string") start = utf8Encoder.encode(withoutBom(start.slice(0, HEAD_CHARS + 1)).slice(0, HEAD_CHARS));
  else if (start[0] === 0xef && start[1] === 0xbb && start[2] === 0xbf) start = start.subarray(3);
  return lenientUtf8.decode(start.subarray(0, PEEK_WINDOW));
}

/** A line's text without the BOM that may open it, as for delivered lines. */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === BOM ? text.slice(1) : text;
}

/** The line over the limit is dropped from here to its newline; what is kept of it is its size and two excerpts. */
function startDiscard(state: NdjsonDecoder, head: string | Uint8Array, tail: string | Uint8Array, bytes: number): void {
  state.discarding = true;
  state.overBytes = bytes;
  state.overHead = head;
  state.overTail = tail;
}

/** The dropped line ended (its newline, or the end of the stream): reported once; a CR just before its end is its terminator's. */
function endDiscard(state: NdjsonDecoder, out: NdjsonEvent[]): void {
  let end = state.overTail;
  let start = state.overHead;
  let bytes = state.overBytes;
  if (typeof end === "string" ? end.charCodeAt(end.length - 1) === CR : end[end.length - 1] === CR) {
    end = end.slice(0, -1);
    // A line shorter than what the head keeps holds that CR in its start too.
    if ((typeof start === "string" ? utf8Length(start) : start.length) >= bytes) start = start.slice(0, -1);
    bytes--;
  }
  out.push({ kind: "oversized", bytes, head: headText(start), tail: tailText(end) });
  state.discarding = false;
  state.overBytes = 0;
  state.overHead = "";
  state.overTail = EMPTY;
}
