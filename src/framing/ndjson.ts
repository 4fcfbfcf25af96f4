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
 *   never cut; a line that is not valid UTF-8 becomes one `invalid-utf8` event and the
 *   stream goes on.
 * - A line longer than `maxLineBytes` (not counting its terminator) is reported once, as
 *   soon as the limit is crossed, as an `oversized` event; its bytes are dropped up to
 *   the next newline, where decoding resumes. Memory stays at `maxLineBytes` (+1 for a
 *   pending CR) however long the line is.
 *
 * The state is JSON-serializable except for the byte buffer (a `Uint8Array`).
 */
import { DEFAULT_LIMITS } from "../jsonrpc/codec.js";
import { decodeUtf8, utf8Length } from "../jsonrpc/safe-json.js";

/** What the decoder hands out, one per line. */
export type NdjsonEvent =
  /** A complete line, terminator removed: the text of one message. */
  | { kind: "line"; text: string }
  /** A line over `maxLineBytes`; `bytes` is how many had arrived when the limit was crossed (a lower bound of its size). */
  | { kind: "oversized"; bytes: number }
  /** A line whose bytes are not valid UTF-8. */
  | { kind: "invalid-utf8" };

/** Options for {@link createNdjsonDecoder}. */
export interface NdjsonOptions {
  /** Longest line accepted, in UTF-8 bytes, terminator excluded. Default: the codec's `maxBytes` (4 MiB). */
  maxLineBytes?: number;
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
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = 0xfeff;
/** A buffer grown past this is released once its line is delivered, so one huge line does not pin memory. */
const KEEP_BUFFER = 64 * 1024;
/** Complete lines of a byte chunk up to this size are decoded in one call. */
const BULK_DECODE = 1024 * 1024;
const EMPTY = new Uint8Array(0);
const utf8Encoder = new TextEncoder();

/** A fresh decoder for one stream. */
export function createNdjsonDecoder(options?: NdjsonOptions): NdjsonDecoder {
  return {
    maxLineBytes: options?.maxLineBytes ?? DEFAULT_LIMITS.maxBytes,
    text: "",
    textBytes: 0,
    buffer: EMPTY,
    length: 0,
    discarding: false,
  };
}

/**
 * Feeds one chunk (text or UTF-8 bytes) and returns the lines it completes, in order.
 * Updates `state` in place. Never throws. A stream should stick to one chunk type; a
 * mix works (the pending part is converted) but costs a copy.
 */
export function feedNdjson(state: NdjsonDecoder, chunk: string | Uint8Array): NdjsonEvent[] {
  const out: NdjsonEvent[] = [];
  if (typeof chunk === "string") {
    if (state.length > 0) feedBytes(state, utf8Encoder.encode(chunk), out);
    else feedText(state, chunk, out);
  } else {
    if (state.text !== "") {
      const pending = utf8Encoder.encode(state.text);
      appendBytes(state, pending, 0, pending.length);
      state.text = "";
      state.textBytes = 0;
    }
    feedBytes(state, chunk, out);
  }
  return out;
}

/**
 * Ends the stream: a last line without a newline is still delivered (a peer that exits
 * right after writing may omit it). The state is reset and can be reused.
 */
export function endNdjson(state: NdjsonDecoder): NdjsonEvent[] {
  const out: NdjsonEvent[] = [];
  if (!state.discarding) {
    if (state.text !== "") emitText(state, state.text, state.textBytes, out);
    else if (state.length > 0) emitBytes(state, state.buffer, 0, state.length, out);
  }
  state.text = "";
  state.textBytes = 0;
  state.length = 0;
  state.discarding = false;
  return out;
}

/** What {@link encodeNdjsonLine} returns. */
export type NdjsonEncoded = { ok: true; line: string } | { ok: false; reason: string };

/**
 * Frames one message's text as a line: the text plus `"\n"`. Text with a raw LF or CR
 * cannot be one line (the codec's `encode` never produces any) and is refused as a value.
 */
export function encodeNdjsonLine(text: string): NdjsonEncoded {
  if (text.indexOf("\n") !== -1 || text.indexOf("\r") !== -1) return { ok: false, reason: "message text contains a raw line break" };
  return { ok: true, line: text + "\n" };
}

function feedText(state: NdjsonDecoder, chunk: string, out: NdjsonEvent[]): void {
  const max = state.maxLineBytes;
  let start = 0;
  let lf = chunk.indexOf("\n");
  if (state.discarding) {
    if (lf === -1) return;
    state.discarding = false;
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
      out.push({ kind: "oversized", bytes: content });
      state.text = "";
      state.textBytes = 0;
      state.discarding = true;
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
  // A leading BOM is dropped, as the UTF-8 decoder does for byte lines.
  if (line.charCodeAt(0) === BOM) line = line.slice(1);
  if (bytes > state.maxLineBytes) out.push({ kind: "oversized", bytes });
  else if (line !== "") out.push({ kind: "line", text: line });
}

function feedBytes(state: NdjsonDecoder, chunk: Uint8Array, out: NdjsonEvent[]): void {
  const max = state.maxLineBytes;
  const n = chunk.length;
  let start = 0;
  let lf = chunk.indexOf(LF);
  if (state.discarding) {
    if (lf === -1) return;
    state.discarding = false;
    start = lf + 1;
    lf = chunk.indexOf(LF, start);
  }
  if (lf !== -1 && state.length > 0) {
    // The pending line ends here.
    if (state.length + (lf - start) > max + 1) {
      // Pending bytes never pass the limit + 1, so this line has bytes in this chunk: lf > start.
      out.push({ kind: "oversized", bytes: state.length + (lf - start) - (chunk[lf - 1] === CR ? 1 : 0) });
    } else {
      appendBytes(state, chunk, start, lf);
      emitBytes(state, state.buffer, 0, state.length, out);
      if (state.buffer.length > KEEP_BUFFER) state.buffer = EMPTY;
    }
    state.length = 0;
    start = lf + 1;
  }
  const last = lf === -1 ? -1 : chunk.lastIndexOf(LF);
  if (last >= start) {
    // The complete lines inside the chunk: one decoder call for all of them is much
    // cheaper than one per line; a range with invalid UTF-8 (or one so large that
    // decoding it whole would be wasteful if it is oversized) goes line by line.
    const text = last - start < BULK_DECODE ? decodeUtf8(chunk.subarray(start, last + 1)) : undefined;
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
      out.push({ kind: "oversized", bytes: content });
      state.length = 0;
      state.discarding = true;
    } else appendBytes(state, chunk, start, n);
  }
}

/** Delivers the line `bytes[start .. end)` (CR included, if any): skipped when empty, reported when too long or not UTF-8. */
function emitBytes(state: NdjsonDecoder, bytes: Uint8Array, start: number, end: number, out: NdjsonEvent[]): void {
  if (end > start && bytes[end - 1] === CR) end--;
  if (end - start > state.maxLineBytes) {
    out.push({ kind: "oversized", bytes: end - start });
    return;
  }
  if (end === start) return;
  const text = decodeUtf8(bytes.subarray(start, end));
  // A line that was only a BOM is empty once decoded: skipped, as in text mode.
  if (text === "") return;
  out.push(text === undefined ? { kind: "invalid-utf8" } : { kind: "line", text });
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
