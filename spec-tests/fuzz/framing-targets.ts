/**
 * Fuzz targets for the framings: newline-delimited JSON (stdio) and Server-Sent Events.
 *
 * Spec: `basic/transports` ("stdio": messages delimited by newlines, UTF-8; "Streamable
 * HTTP": SSE), WHATWG "Interpreting an event stream".
 *
 * Invariants: chunking never changes what a stream decodes to (the same stream fed whole,
 * byte by byte or cut at random points, including inside a UTF-8 character or a CRLF,
 * gives the same events; an oversized line or event is reported once either way, an
 * oversized line with the same size and excerpts); the
 * decoders' pending memory stays within their limits; what the encoders write decodes
 * back to what was encoded.
 */
import assert from "node:assert/strict";
import { createNdjsonDecoder, encodeNdjsonLine, endNdjson, feedNdjson, type NdjsonDecoder, type NdjsonEvent } from "../../src/framing/ndjson.js";
import { createSseDecoder, encodeSseEvent, feedSse, type SseDecoder, type SseEventInit, type SseOutput } from "../../src/framing/sse.js";
import { encode } from "../../src/jsonrpc/codec.js";
import { utf8Length } from "../../src/jsonrpc/safe-json.js";
import { pick } from "../harness/random.js";
import { exampleMessages, int, randomBytes, randomString, type Rng } from "./generate.js";
import type { FuzzTarget } from "./target.js";

const utf8 = new TextEncoder();

/** Cut points in `[1, n)`, sorted, unique. */
function cuts(r: Rng, n: number): number[] {
  const set = new Set<number>();
  for (let i = int(r, 8); i > 0 && n > 1; i--) set.add(1 + int(r, n - 1));
  return [...set].sort((a, b) => a - b);
}

function pieces<T extends string | Uint8Array>(whole: T, at: number[]): T[] {
  const out: T[] = [];
  let prev = 0;
  for (const c of [...at, whole.length]) {
    out.push(whole.slice(prev, c) as T);
    prev = c;
  }
  return out;
}

// ---- ndjson ----

type NdjsonInput = { text?: string; bytes?: number[]; cuts: number[]; maxLineBytes: number };

function runNdjson(max: number, chunks: (string | Uint8Array)[]): NdjsonEvent[] {
  const d = createNdjsonDecoder({ maxLineBytes: max });
  const out: NdjsonEvent[] = [];
  for (const c of chunks) {
    out.push(...feedNdjson(d, c));
    assertNdjsonBounded(d);
  }
  out.push(...endNdjson(d));
  // An oversized line's size and excerpts are the line's own, so they too must not depend on the chunking.
  return out;
}

function assertNdjsonBounded(d: NdjsonDecoder): void {
  assert.ok(d.textBytes <= d.maxLineBytes + 1, `pending text ${d.textBytes} bytes over the line limit ${d.maxLineBytes}`);
  assert.ok(d.length <= d.maxLineBytes + 1, `pending bytes ${d.length} over the line limit ${d.maxLineBytes}`);
  assert.ok(d.buffer.length <= Math.max(256, d.maxLineBytes + 1), `buffer of ${d.buffer.length} bytes for a ${d.maxLineBytes}-byte limit`);
}

/** NDJSON: encoded messages and noise, cut anywhere, as text or bytes. */
export const ndjson: FuzzTarget<NdjsonInput> = {
  name: "ndjson",
  spec: "basic/transports stdio: newline-delimited UTF-8 messages; chunking is invisible",
  generate(r: Rng) {
    const maxLineBytes = pick(r, [8, 40, 200, 4096]);
    let text = "";
    for (let i = int(r, 6); i >= 0; i--) {
      const k = r();
      if (k < 0.5) text += encodeLine(encode(pick(r, exampleMessages()) as never));
      else if (k < 0.7) text += pick(r, ["\n", "\r\n", "\r", "\ufeff", "\ufeff{}\n", "x\r\r\n", "\n\n"]);
      // A line longer than both excerpt windows of an oversized line (1024 bytes of head, 256 of tail).
      else if (k < 0.75) text += randomString(r, 600 + int(r, 1200)) + pick(r, ["\n", "\r\n", ""]);
      else text += randomString(r, int(r, 60)) + (r() < 0.7 ? "\n" : "");
    }
    if (r() < 0.5) {
      const bytes = Array.from(utf8.encode(text));
      if (r() < 0.4) bytes.splice(int(r, bytes.length + 1), 0, ...randomBytes(r, 1 + int(r, 4)));
      return { bytes, cuts: cuts(r, bytes.length), maxLineBytes };
    }
    return { text, cuts: cuts(r, text.length), maxLineBytes };
  },
  check({ text, bytes, cuts: at, maxLineBytes }) {
    const whole: string | Uint8Array = text ?? Uint8Array.from(bytes ?? []);
    const expected = runNdjson(maxLineBytes, [whole]);
    assert.deepEqual(runNdjson(maxLineBytes, pieces(whole, at)), expected, "cutting the stream changed its lines");
    const single: (string | Uint8Array)[] = [];
    for (let i = 0; i < whole.length; i++) single.push(whole.slice(i, i + 1));
    if (whole.length < 400) assert.deepEqual(runNdjson(maxLineBytes, single), expected, "one unit at a time changed the lines");
    for (const e of expected) {
      if (e.kind === "line") {
        assert.ok(!e.text.includes("\n"), "a line holds a LF");
        // Measured as the framer documents it: a lone surrogate (no UTF-8 form) counts two bytes.
        assert.ok(utf8Length(e.text) <= maxLineBytes, "a delivered line is over the limit");
      }
    }
    if (bytes !== undefined) {
      // Text mode of the same (valid) stream agrees with byte mode.
      let decoded: string | undefined;
      try {
        decoded = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(Uint8Array.from(bytes));
      } catch {
        decoded = undefined;
      }
      if (decoded !== undefined) assert.deepEqual(runNdjson(maxLineBytes, [decoded]), expected, "text and byte mode disagree");
    }
  },
};

function encodeLine(text: string): string {
  const framed = encodeNdjsonLine(text);
  assert.ok(framed.ok, "the codec's output could not be framed");
  return framed.line;
}

// ---- SSE ----

type SseInput = { events?: SseEventInit[]; noise?: number[]; cuts: number[]; maxEventSize?: number };

function runSse(chunks: Uint8Array[], maxEventSize: number | undefined): SseOutput[] {
  const d = createSseDecoder(maxEventSize === undefined ? undefined : { maxEventSize });
  const out: SseOutput[] = [];
  for (const c of chunks) {
    out.push(...feedSse(d, c));
    assertSseBounded(d);
  }
  return out.map((o) => (o.type === "error" ? { ...o, size: 0 } : o));
}

function assertSseBounded(d: SseDecoder): void {
  assert.ok(d.data.length + d.line.length <= d.maxEventSize, `pending event ${d.data.length + d.line.length} over ${d.maxEventSize}`);
  assert.ok(d.carry.length <= 3, "more than one cut character carried");
}

/** SSE: encoded events (data with every kind of line break) or noise, cut at any byte. */
export const sse: FuzzTarget<SseInput> = {
  name: "sse",
  spec: "basic/transports Streamable HTTP + WHATWG event streams: what is encoded decodes back, however cut",
  generate(r: Rng) {
    if (r() < 0.35) {
      const noise = randomBytes(r, int(r, 120));
      return { noise, cuts: cuts(r, noise.length), maxEventSize: r() < 0.5 ? 8 + int(r, 40) : undefined };
    }
    if (r() < 0.15) {
      // Real messages, some over a small limit: a dropped event's excerpts must not depend on the cutting either.
      let text = "";
      for (let i = int(r, 4); i >= 0; i--) {
        const data = encode(pick(r, exampleMessages()) as never) + (r() < 0.3 ? "\n" + randomString(r, 1100) : "");
        const enc = encodeSseEvent({ data, ...(r() < 0.5 ? { id: String(i) } : {}) });
        if (enc.ok) text += enc.text;
      }
      const noise = Array.from(utf8.encode(text));
      return { noise, cuts: cuts(r, noise.length), maxEventSize: 40 + int(r, 400) };
    }
    const events: SseEventInit[] = [];
    for (let i = int(r, 5); i >= 0; i--) {
      const e: SseEventInit = { data: r() < 0.5 ? encode(pick(r, exampleMessages()) as never) : randomString(r, int(r, 30)) + pick(r, ["", "\n", "\r\n", "\r", "\n\nx"]) };
      if (r() < 0.3) e.event = pick(r, ["message", "", "x", "a b"]);
      if (r() < 0.5) e.id = pick(r, ["", "1", "s-2", "é", String(int(r, 1000))]);
      if (r() < 0.1) e.retry = int(r, 5000);
      events.push(e);
    }
    const total = events.reduce((n, e) => n + utf8.encode(encodeSseEvent(e).ok ? (encodeSseEvent(e) as { text: string }).text : "").length, 0);
    return { events, cuts: cuts(r, total) };
  },
  check({ events, noise, cuts: at, maxEventSize }) {
    if (noise !== undefined) {
      const whole = Uint8Array.from(noise);
      const expected = runSse([whole], maxEventSize);
      assert.deepEqual(runSse(pieces(whole, at), maxEventSize), expected, "cutting the stream changed its events");
      const single: Uint8Array[] = [];
      for (let i = 0; i < whole.length; i++) single.push(whole.subarray(i, i + 1));
      assert.deepEqual(runSse(single, maxEventSize), expected, "one byte at a time changed the events");
      return;
    }
    let text = "";
    const expected: SseOutput[] = [];
    let lastId = "";
    for (const e of events ?? []) {
      const enc = encodeSseEvent(e);
      assert.ok(enc.ok, `a well-formed event was refused: ${JSON.stringify(e)}`);
      text += enc.text;
      if (e.id !== undefined) lastId = e.id;
      if (e.retry !== undefined) expected.push({ type: "retry", ms: e.retry });
      // Lone surrogates cross UTF-8 as U+FFFD; CRLF and CR come back as LF.
      const data = new TextDecoder("utf-8", { ignoreBOM: true }).decode(utf8.encode(e.data)).replace(/\r\n|\r/g, "\n");
      expected.push({ type: "event", event: e.event === undefined || e.event === "" ? "message" : e.event, data, id: lastId });
    }
    const whole = utf8.encode(text);
    assert.deepEqual(runSse(pieces(whole, at), undefined), expected, "encoded events did not decode back");
  },
};
