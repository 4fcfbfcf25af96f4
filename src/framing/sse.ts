/**
 * Server-Sent Events framing: how Streamable HTTP carries messages on a response stream.
 *
 * Spec: `basic/transports` of 2025-11-25 ("Streamable HTTP": the priming event with an
 * id and empty data, `retry` before closing, resumption by `Last-Event-ID`) and draft
 * `basic/transports/streamable-http` (comments as keep-alives; no resumption), both
 * deferring to the WHATWG HTML "Server-sent events" section for the stream format, whose
 * parsing rules ("Interpreting an event stream") this decoder follows.
 *
 * Theory of operation. The encoder writes one event as `field: value` lines and a blank
 * line, splitting multi-line data into several `data:` lines and refusing, as a value,
 * an `id` or `event` that would break out of its line.
 *
 * The decoder is a state machine over plain data, updated in place by {@link feedSse}
 * (rebuilding the pending line per chunk would make long lines quadratic). Bytes are
 * decoded as UTF-8 with replacement, as WHATWG requires; the up to three bytes of a
 * character split across chunks wait in `carry`, an array of numbers, so the state stays
 * plain data (a JSON round trip of it decodes the rest of the stream alike) rather than a
 * streaming decoder object. MCP asks more of its messages than WHATWG of its events
 * ("JSON-RPC messages MUST be UTF-8 encoded", 2025-11-25 `basic/transports`), and data
 * in which a replacement character stands for bad bytes still parses as JSON: so an
 * event whose data lines held bytes that are not UTF-8 is dispatched with `invalidUtf8`,
 * for its reader to refuse (the HTTP client fails the request it answers, as the stdio
 * channel does). Finding them costs nothing on a valid chunk: it is decoded strictly, and
 * only a chunk that fails is decoded again line by line (CR and LF are single bytes that
 * no UTF-8 sequence contains), marking the lines that held bad bytes. One BOM at the very
 * start is dropped. Lines end at CRLF, LF or CR; a CR that ends a chunk sets `pendingCR`
 * so that an LF opening the next chunk is not taken for a second, blank line. Per line:
 *
 * - blank: dispatch. An event is emitted only if at least one `data` line arrived (a
 *   `data:` line with an empty value counts, so the priming event is emitted with data
 *   `""`; consumers skip it). Data and event type reset; the last event id persists;
 * - `:` first: a comment, ignored;
 * - otherwise `field:value` (one space after the colon dropped; no colon means an empty
 *   value): `data` appends a line, `event` sets the type (default `message`), `id` sets
 *   the last event id buffer unless the value holds NUL (it becomes `dispatchedId`, the
 *   id to resume from, only at the blank line), `retry` (ASCII digits only) is emitted
 *   at once; other fields are ignored.
 *
 * Bounded: when the data of one event plus its pending raw line passes `maxEventSize`, the
 * event's data is dropped as it arrives and the event is not dispatched: at the blank line
 * that ends it, one `error` output takes its place, with the first {@link PEEK_WINDOW}
 * characters of its data and the last {@link TAIL_WINDOW} (however the stream was cut),
 * so a client can still tell which request a dropped response
 * answered (its id may come last). The next blank line starts afresh. End of stream needs
 * no call: an event not closed by a blank line is discarded, as WHATWG says.
 */
import { DEFAULT_LIMITS, limitOr } from "../jsonrpc/codec.js";
import { chunkBytes, PEEK_WINDOW, TAIL_WINDOW, utf8CharLength } from "../jsonrpc/safe-json.js";

/** What {@link feedSse} hands out. */
export type SseOutput =
  /**
   * A dispatched event; `id` is the last event id (persisting across events), `""` when
   * none was ever set. `invalidUtf8`: some of its data lines held bytes that are not UTF-8
   * (replaced by U+FFFD in `data`, as WHATWG decodes them).
   */
  | { type: "event"; event: string; data: string; id: string; invalidUtf8?: true }
  /** A valid `retry` field: the reconnection delay, in milliseconds. */
  | { type: "retry"; ms: number }
  /**
   * An event over `maxEventSize`, reported when it ends; it was dropped. `size` is its size,
   * in UTF-16 code units, when the limit was crossed; `head` and `tail` are the first and
   * last characters of its data (see the module comment).
   */
  | { type: "error"; reason: string; size: number; head: string; tail: string };

/** Options for {@link createSseDecoder}. */
export interface SseOptions {
  /**
   * Largest event, measured as its data so far plus the raw line being read (field name
   * included), in UTF-16 code units (string length), which bounds the decoder's memory.
   * Default (also for one that is no positive integer): the codec's `maxBytes` plus 1 KiB,
   * room for any message the codec accepts.
   */
  maxEventSize?: number | undefined;
}

/** Decoder state: plain data, owned by one stream, updated in place by {@link feedSse}. */
export interface SseDecoder {
  /** Largest event accepted, in UTF-16 code units. */
  readonly maxEventSize: number;
  /** False until the first character arrives, which is dropped if it is a BOM. */
  started: boolean;
  /** The bytes (at most three) of a UTF-8 character cut by the end of the last byte chunk: numbers, not a `Uint8Array`, so they survive a JSON round trip. */
  carry: number[];
  /** The last chunk ended in CR: an LF opening the next chunk belongs to that line break. */
  pendingCR: boolean;
  /** The unterminated line so far. Holds no CR or LF. */
  line: string;
  /** The pending line passed the limit; its text is dropped until it ends. */
  lineDropped: boolean;
  /** Data lines of the current event, joined with LF. */
  data: string;
  /** How many data lines the current event has had (0: nothing to dispatch). */
  dataLines: number;
  /** The current event's `event` field; `""` means `message`. */
  eventType: string;
  /** The last event id buffer: persists across events until an `id` field changes it. Set by an `id` line, before its event is complete. */
  lastEventId: string;
  /**
   * WHATWG's "last event ID string": the buffer as of the last blank line (dispatch). Send
   * this as `Last-Event-ID` on reconnection: an event cut before its blank line was not
   * received, so its id, already in the buffer, must not name it.
   */
  dispatchedId: string;
  /** The current event passed the limit: its data is dropped and it is not dispatched. */
  dropping: boolean;
  /** While dropping: the event's size when the limit was crossed, and the first and last characters of its data. */
  dropSize: number;
  dropHead: string;
  dropTail: string;
  /** The dropped pending line is a `data` line: the rest of it still goes to {@link SseDecoder.dropTail}. */
  dropLineIsData: boolean;
  /** The pending line so far held bytes that are not UTF-8. */
  lineInvalid: boolean;
  /** A data line of the current event held bytes that are not UTF-8: it is dispatched with `invalidUtf8`. */
  dataInvalid: boolean;
}

/** Replacement decoding, as WHATWG requires; BOM kept, so only the stream's first one is dropped (by hand). */
const utf8 = /* @__PURE__ */ new TextDecoder("utf-8", { ignoreBOM: true });
/** The same, throwing on bytes that are not UTF-8: how a chunk that holds some is told. */
const strictUtf8 = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
/**
 * The text ranges (`[start, end)` pairs of offsets into the text of the chunk being fed)
 * of the lines that held bytes that are not UTF-8, in order: the first `invalidCount`
 * entries. Filled by {@link decodeChunk}, read by {@link feedText}, let go after each
 * chunk; null for a chunk that held none, almost always. A typed array, grown by
 * doubling: a plain array grown one push at a time cost over 100 ns a push once it held
 * tens of thousands (a chunk of short invalid lines), and this one a few.
 */
let invalidRanges: Int32Array | null = null;
let invalidCount = 0;
/**
 * Where {@link touchesInvalid} resumes in {@link invalidRanges}: the lines of a chunk are
 * asked about in order, so a range that ends before one line cannot touch a later one.
 * Without it, a body of many short invalid lines cost lines × invalid lines per chunk.
 */
let invalidFrom = 0;

/** Records that `text[from .. to)` of the chunk being fed held bytes that are not UTF-8. */
function markInvalid(from: number, to: number): void {
  if (invalidRanges === null) invalidRanges = new Int32Array(64);
  else if (invalidCount === invalidRanges.length) {
    const grown = new Int32Array(invalidRanges.length * 2);
    grown.set(invalidRanges);
    invalidRanges = grown;
  }
  invalidRanges[invalidCount++] = from;
  invalidRanges[invalidCount++] = to;
}
const DIGITS = /^[0-9]+$/;

/**
 * A fresh decoder for one stream; `lastEventId` can seed it (e.g. when resuming). One that
 * is no string is none (`""`): the state stays plain data.
 */
export function createSseDecoder(options?: SseOptions, lastEventId = ""): SseDecoder {
  let max: unknown;
  try {
    max = options?.maxEventSize;
  } catch {
    // Options whose getter (or Proxy trap) throws: the default, as for a malformed limit.
  }
  if (typeof lastEventId !== "string") lastEventId = "";
  return {
    maxEventSize: limitOr(max, DEFAULT_LIMITS.maxBytes + 1024),
    started: false,
    carry: [],
    pendingCR: false,
    line: "",
    lineDropped: false,
    data: "",
    dataLines: 0,
    eventType: "",
    lastEventId,
    dispatchedId: lastEventId,
    dropping: false,
    dropSize: 0,
    dropHead: "",
    dropTail: "",
    dropLineIsData: false,
    lineInvalid: false,
    dataInvalid: false,
  };
}

/**
 * Feeds one chunk (text or UTF-8 bytes) and returns what it completes, in order. Updates
 * `state` in place. Never throws. An `ArrayBuffer` or another view is read as its bytes (an
 * `ArrayBuffer` was dropped without a trace, its events lost); a chunk that is neither text
 * nor bytes holds nothing to read. A state that is no decoder {@link createSseDecoder} made,
 * or a frozen one, cannot read the chunk: one `error` output (size 0, no excerpts) says so.
 */
export function feedSse(state: SseDecoder, chunk: string | Uint8Array | ArrayBuffer | ArrayBufferView): SseOutput[] {
  if (!isDecoder(state)) return [{ type: "error", reason: "the state is not an SSE decoder (one createSseDecoder made, not frozen)", size: 0, head: "", tail: "" }];
  const out: SseOutput[] = [];
  const bytes = typeof chunk === "string" ? undefined : chunkBytes(chunk);
  if (typeof chunk !== "string" && bytes === undefined) return out;
  invalidCount = 0;
  invalidFrom = 0;
  feedText(state, bytes === undefined ? (chunk as string) : decodeChunk(state, bytes), out);
  invalidRanges = null;
  return out;
}

/**
 * Whether `state` is a decoder the feed can update in place: one {@link createSseDecoder}
 * made (or a JSON copy of one), not frozen. The kernel never throws across its boundary
 * (README), and a plain JavaScript caller may pass anything; checked per chunk, so only the
 * fields' types, a few property reads. A getter (or Proxy trap) that throws makes it none.
 */
function isDecoder(s: SseDecoder): boolean {
  if (typeof s !== "object" || s === null) return false;
  try {
    return (
      Object.isExtensible(s) &&
      typeof s.maxEventSize === "number" &&
      typeof s.started === "boolean" &&
      Array.isArray(s.carry) &&
      typeof s.pendingCR === "boolean" &&
      typeof s.line === "string" &&
      typeof s.lineDropped === "boolean" &&
      typeof s.data === "string" &&
      typeof s.dataLines === "number" &&
      typeof s.eventType === "string" &&
      typeof s.lastEventId === "string" &&
      typeof s.dispatchedId === "string" &&
      typeof s.dropping === "boolean" &&
      typeof s.dropSize === "number" &&
      typeof s.dropHead === "string" &&
      typeof s.dropTail === "string" &&
      typeof s.dropLineIsData === "boolean" &&
      typeof s.lineInvalid === "boolean" &&
      typeof s.dataInvalid === "boolean"
    );
  } catch {
    return false;
  }
}

/** Decodes a byte chunk, holding back a character cut at its end and completing one cut at its start. */
function decodeChunk(state: SseDecoder, chunk: Uint8Array): string {
  let start = 0;
  let head = "";
  const carry = state.carry;
  if (carry.length > 0) {
    const need = sequenceLength(carry[0]) - carry.length;
    while (start < need && start < chunk.length && (chunk[start] & 0xc0) === 0x80) start++;
    if (start < need && start === chunk.length) {
      state.carry = carry.concat(Array.from(chunk));
      return "";
    }
    head = decodeMarking(Uint8Array.from(carry.concat(Array.from(chunk.subarray(0, start)))), 0);
    state.carry = [];
  }
  const end = completeEnd(chunk, start);
  if (end < chunk.length) state.carry = Array.from(chunk.subarray(end));
  return end > start ? head + decodeMarking(chunk.subarray(start, end), head.length) : head;
}

/**
 * `bytes` decoded with replacement; when some are not UTF-8, the ranges of the lines that
 * held them go to {@link invalidRanges} (offsets from `at`, where this text starts in the
 * chunk's). The whole chunk is decoded once: line by line, the text is the same as in one
 * piece, since a malformed sequence is cut short by a CR or LF byte, which decodes as
 * itself. So the k-th line terminator of the bytes is the k-th of the text, and one pass
 * over each finds the lines to mark. (Decoding each line strictly and catching the throw
 * cost microseconds per line: a body of short invalid lines made that the bulk of the work.)
 */
function decodeMarking(bytes: Uint8Array, at: number): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    // Not UTF-8: the lines that are not are found below.
  }
  const text = utf8.decode(bytes);
  let from = 0;
  let textFrom = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a && bytes[i] !== 0x0d) continue;
    let textEnd = textFrom;
    if (i < bytes.length) while (textEnd < text.length && text.charCodeAt(textEnd) !== 0x0a && text.charCodeAt(textEnd) !== 0x0d) textEnd++;
    else textEnd = text.length;
    if (!isUtf8(bytes, from, i)) markInvalid(at + textFrom, at + textEnd);
    from = i + 1;
    textFrom = textEnd + 1;
  }
  return text;
}

/** Whether `b[from .. to)` is UTF-8. */
function isUtf8(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; ) {
    const n = utf8CharLength(b, i, to);
    if (n === 0) return false;
    i += n;
  }
  return true;
}

/**
 * Whether `text[from .. to)` of the chunk being fed touches a line that held bytes that are
 * not UTF-8. Asked with `from` never decreasing within a chunk (see {@link invalidFrom}).
 */
function touchesInvalid(from: number, to: number): boolean {
  const ranges = invalidRanges!;
  while (invalidFrom < invalidCount && ranges[invalidFrom + 1] <= from) invalidFrom += 2;
  return invalidFrom < invalidCount && ranges[invalidFrom] < to;
}

/** Bytes a UTF-8 sequence starting with `lead` has (1 for anything that is not a multi-byte lead). */
function sequenceLength(lead: number): number {
  return lead >= 0xf0 && lead <= 0xf7 ? 4 : lead >= 0xe0 ? (lead <= 0xef ? 3 : 1) : lead >= 0xc0 ? 2 : 1;
}

/** Where the last complete character of `bytes[start ..]` ends: before a trailing, unfinished multi-byte sequence. */
function completeEnd(bytes: Uint8Array, start: number): number {
  const n = bytes.length;
  for (let i = n - 1; i >= start && i >= n - 4; i--) {
    const b = bytes[i];
    if ((b & 0xc0) !== 0x80) return sequenceLength(b) > n - i ? i : n;
  }
  return n;
}

/** Splits decoded text into lines (CRLF, LF, CR), searching each terminator kind once per pass. */
function feedText(state: SseDecoder, text: string, out: SseOutput[]): void {
  const n = text.length;
  if (n === 0) return;
  let pos = 0;
  if (!state.started) {
    state.started = true;
    if (text.charCodeAt(0) === 0xfeff) pos = 1;
  }
  if (state.pendingCR) {
    state.pendingCR = false;
    if (text.charCodeAt(pos) === 0x0a) pos++;
  }
  let lf = text.indexOf("\n", pos);
  let cr = text.indexOf("\r", pos);
  while (lf !== -1 || cr !== -1) {
    const end = lf === -1 ? cr : cr === -1 ? lf : lf < cr ? lf : cr;
    if (state.lineDropped) keepTail(state, text, pos, end);
    else if (!grow(state, text, pos, end)) {
      const piece = text.slice(pos, end);
      const line = state.line === "" ? piece : state.line + piece;
      state.line = "";
      processLine(state, line, out, state.lineInvalid || (invalidCount > 0 && touchesInvalid(pos, end)));
    }
    // The line has ended, dropped or not: the next one starts clean.
    state.line = "";
    state.lineDropped = false;
    state.lineInvalid = false;
    pos = end + 1;
    if (end === cr) {
      if (pos === n) state.pendingCR = true;
      else if (text.charCodeAt(pos) === 0x0a) pos++;
    }
    if (lf !== -1 && lf < pos) lf = text.indexOf("\n", pos);
    if (cr !== -1 && cr < pos) cr = text.indexOf("\r", pos);
  }
  if (pos >= n) return;
  if (state.lineDropped) keepTail(state, text, pos, n);
  else if (!grow(state, text, pos, n)) {
    state.line += pos === 0 ? text : text.slice(pos);
    if (invalidCount > 0 && touchesInvalid(pos, n)) state.lineInvalid = true;
  }
}

/** The rest of a dropped data line is still the event's data: it completes the head excerpt, and its last characters are the tail. */
function keepTail(state: SseDecoder, text: string, from: number, to: number): void {
  if (!state.dropLineIsData || to <= from) return;
  if (state.dropHead.length < PEEK_WINDOW) state.dropHead += text.slice(from, Math.min(to, from + PEEK_WINDOW - state.dropHead.length));
  state.dropTail = lastChars(state.dropTail + text.slice(Math.max(from, to - TAIL_WINDOW), to));
}

/** More of a dropped event's data (`piece`, in order): the head excerpt takes it until full, so the head does not depend on where the chunks were cut. */
function growHead(state: SseDecoder, piece: string): void {
  if (state.dropHead.length < PEEK_WINDOW) state.dropHead += piece.slice(0, PEEK_WINDOW - state.dropHead.length);
}

function lastChars(text: string): string {
  return text.length > TAIL_WINDOW ? text.slice(-TAIL_WINDOW) : text;
}

/** The value of a raw `data` line, or undefined for another line. */
function dataValue(line: string): string | undefined {
  if (!line.startsWith("data")) return undefined;
  if (line.length === 4) return "";
  if (line.charCodeAt(4) !== 0x3a /* : */) return undefined;
  return line.charCodeAt(5) === 0x20 ? line.slice(6) : line.slice(5);
}

/**
 * Checks that the pending line may grow by `text[from .. to)`; if not, the event is over
 * the limit and the line is dropped (its start kept for the excerpts). Returns true when
 * the line was dropped.
 */
function grow(state: SseDecoder, text: string, from: number, to: number): boolean {
  const size = state.data.length + state.line.length + (to - from);
  if (size <= state.maxEventSize) return false;
  const raw = state.line + text.slice(from, Math.min(to, from + PEEK_WINDOW + 8));
  const value = dataValue(raw);
  state.dropLineIsData = value !== undefined;
  if (!state.dropping) {
    // The event's data so far, then this line's: what the head excerpt is taken from.
    const start = value === undefined ? state.data : state.dataLines > 0 ? state.data + "\n" + value : value;
    state.dropSize = size;
    state.dropHead = start.slice(0, PEEK_WINDOW);
    state.dropTail = lastChars(start);
  } else if (value !== undefined) {
    growHead(state, "\n" + value);
    state.dropTail = lastChars(state.dropTail + "\n" + value);
  }
  state.dropping = true;
  state.data = "";
  state.dataLines = 0;
  state.line = "";
  state.lineDropped = true;
  // The line's own end (past what was kept above) is its data's end: kept as the tail.
  if (state.dropLineIsData && to - from > PEEK_WINDOW + 8) state.dropTail = lastChars(text.slice(Math.max(from, to - TAIL_WINDOW), to));
  return true;
}

/** One complete line, per WHATWG "Interpreting an event stream"; `invalid`: it held bytes that are not UTF-8. */
function processLine(state: SseDecoder, line: string, out: SseOutput[], invalid: boolean): void {
  if (line === "") {
    state.dispatchedId = state.lastEventId;
    if (state.dropping) out.push({ type: "error", reason: `event exceeds maxEventSize (${state.maxEventSize})`, size: state.dropSize, head: state.dropHead, tail: state.dropTail });
    else if (state.dataLines > 0) {
      const event = state.eventType === "" ? "message" : state.eventType;
      out.push(state.dataInvalid ? { type: "event", event, data: state.data, id: state.lastEventId, invalidUtf8: true } : { type: "event", event, data: state.data, id: state.lastEventId });
    }
    state.data = "";
    state.dataLines = 0;
    state.eventType = "";
    state.dropping = false;
    state.dataInvalid = false;
    return;
  }
  const colon = line.indexOf(":");
  if (colon === 0) return;
  let field = line;
  let value = "";
  if (colon > 0) {
    field = line.slice(0, colon);
    value = line.charCodeAt(colon + 1) === 0x20 ? line.slice(colon + 2) : line.slice(colon + 1);
  }
  switch (field) {
    case "data":
      // No size check needed: the whole line (longer than LF + value) already passed `grow`.
      if (state.dropping) {
        growHead(state, "\n" + value);
        state.dropTail = lastChars(state.dropTail + "\n" + value);
        return;
      }
      state.data = state.dataLines === 0 ? value : state.data + "\n" + value;
      state.dataLines++;
      if (invalid) state.dataInvalid = true;
      return;
    case "event":
      state.eventType = value;
      return;
    case "id":
      if (value.indexOf("\0") === -1) state.lastEventId = value;
      return;
    case "retry":
      if (DIGITS.test(value)) out.push({ type: "retry", ms: Number(value) });
      return;
  }
}

/** One event to encode. */
export interface SseEventInit {
  /** The payload; each of its lines becomes a `data:` line. */
  data: string;
  /** The event type; omitted means `message`. */
  event?: string | undefined;
  /** The event id the client echoes as `Last-Event-ID`. */
  id?: string | undefined;
  /** Reconnection delay for the client, in milliseconds (a non-negative integer). */
  retry?: number | undefined;
}

/** What the event encoders return: the text to write, or why the event cannot be written. */
export type SseEncoded = { ok: true; text: string } | { ok: false; reason: string };

const LINE_BREAKS = /\r\n|\r|\n/;

/**
 * Encodes one event: `event`, `id`, `retry` lines when given, then the data, one `data:`
 * line per line of it (CRLF, LF and CR all split, as the decoder will), then a blank
 * line. An `event` or `id` with a line break, an `id` with NUL (which a client would
 * ignore) or a `retry` that is not a non-negative integer is refused as a value, and so is
 * an event whose `data`, `event` or `id` is no string, or whose fields cannot be read.
 */
export function encodeSseEvent(init: SseEventInit): SseEncoded {
  if (typeof init !== "object" || init === null) return { ok: false, reason: "the event is not an object" };
  let data: unknown, event: unknown, id: unknown, retry: unknown;
  try {
    ({ data, event, id, retry } = init);
  } catch {
    // A getter (or Proxy trap) that throws: refused as a value (the kernel never throws across its boundary).
    return { ok: false, reason: "the event's fields could not be read" };
  }
  if (typeof data !== "string") return { ok: false, reason: "event data is not a string" };
  let head = "";
  if (event !== undefined) {
    if (typeof event !== "string") return { ok: false, reason: "event type is not a string" };
    if (hasLineBreak(event)) return { ok: false, reason: "event type contains a line break" };
    head += "event: " + event + "\n";
  }
  if (id !== undefined) {
    if (typeof id !== "string") return { ok: false, reason: "event id is not a string" };
    if (hasLineBreak(id)) return { ok: false, reason: "event id contains a line break" };
    if (id.indexOf("\0") !== -1) return { ok: false, reason: "event id contains NUL" };
    head += "id: " + id + "\n";
  }
  if (retry !== undefined) {
    if (!Number.isSafeInteger(retry) || (retry as number) < 0) return { ok: false, reason: "retry must be a non-negative integer" };
    head += "retry: " + retry + "\n";
  }
  if (!hasLineBreak(data)) return { ok: true, text: head + (data === "" ? "data:\n\n" : "data: " + data + "\n\n") };
  return { ok: true, text: head + "data: " + data.split(LINE_BREAKS).join("\ndata: ") + "\n\n" };
}

/**
 * The priming event 2025-11-25 asks a server to send first on a resumable stream: an
 * event id and an empty `data` field, so that the client can reconnect with that id as
 * `Last-Event-ID` before any message has arrived. `retry` may ride along.
 */
export function encodeSsePrimingEvent(id: string, retry?: number): SseEncoded {
  // Without an id it would be no priming event (an empty message), so one that is no string is refused.
  if (typeof id !== "string") return { ok: false, reason: "event id is not a string" };
  return encodeSseEvent(retry === undefined ? { id, data: "" } : { id, retry, data: "" });
}

/**
 * A bare `retry` field and blank line: what a server sends before closing a connection
 * it expects the client to reopen. Nothing is dispatched; the client only updates its delay.
 */
export function encodeSseRetry(ms: number): SseEncoded {
  if (!Number.isSafeInteger(ms) || ms < 0) return { ok: false, reason: "retry must be a non-negative integer" };
  return { ok: true, text: "retry: " + ms + "\n\n" };
}

/**
 * A comment (`: text`), which clients ignore: a keep-alive for idle streams. Each line of
 * `text` becomes its own comment line, so no line break can smuggle in a field. Anything
 * that is no string is the default (a comment's text means nothing to the client).
 */
export function encodeSseComment(text = "keepalive"): string {
  if (typeof text !== "string") text = "keepalive";
  return hasLineBreak(text) ? ": " + text.split(LINE_BREAKS).join("\n: ") + "\n" : ": " + text + "\n";
}

function hasLineBreak(s: string): boolean {
  return s.indexOf("\n") !== -1 || s.indexOf("\r") !== -1;
}
