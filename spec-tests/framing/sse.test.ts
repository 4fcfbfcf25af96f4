// Spec: 2025-11-25 basic/transports ("Streamable HTTP": SSE streams, the priming event
// "consisting of an event ID and an empty data field", `retry` before closing,
// `Last-Event-ID`) and draft basic/transports/streamable-http (comment lines as
// keep-alives, which clients ignore), both deferring to WHATWG HTML "Server-sent
// events" — "Interpreting an event stream" — for the parsing rules checked here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { concatBytes } from "../../src/transports/http/body.js";
import {
  createSseDecoder,
  encodeSseComment,
  encodeSseEvent,
  encodeSsePrimingEvent,
  encodeSseRetry,
  feedSse,
  type SseDecoder,
  type SseOutput,
} from "../../src/framing/sse.js";

const enc = new TextEncoder();

function run(chunks: Array<string | Uint8Array>, state: SseDecoder = createSseDecoder()): SseOutput[] {
  const out: SseOutput[] = [];
  for (const c of chunks) out.push(...feedSse(state, c));
  return out;
}

const ev = (data: string, id = "", event = "message"): SseOutput => ({ type: "event", event, data, id });

// A stream touching every rule: BOM, comments, multi-line data, event types, id
// persistence, retry, unknown fields, a field without colon, mixed line endings.
const SAMPLE =
  "\uFEFF: comment line\n" +
  "data: first\n\n" +
  "event: custom\r\nid: 7\r\ndata: two\r\ndata:  lines é\r\n\r\n" +
  "retry: 1500\rdata:no space\r\r" +
  "data: 🎉 still id 7\nunknown: x\nid: bad\u0000id\n\n" +
  "id\ndata\n\n" +
  "data: discarded, never closed";

const SAMPLE_OUT: SseOutput[] = [
  ev("first"),
  ev("two\n lines é", "7", "custom"),
  { type: "retry", ms: 1500 },
  ev("no space", "7"),
  ev("🎉 still id 7", "7"),
  ev("", ""),
];

test("WHATWG interpretation of a sample stream (BOM, comments, CRLF/LF/CR, data lines, event, id, retry)", () => {
  assert.deepEqual(run([SAMPLE]), SAMPLE_OUT);
  assert.deepEqual(run([enc.encode(SAMPLE)]), SAMPLE_OUT);
});

test("chunking never changes the events: the sample split at every position, as text and as bytes", () => {
  for (let i = 0; i <= SAMPLE.length; i++) assert.deepEqual(run([SAMPLE.slice(0, i), SAMPLE.slice(i)]), SAMPLE_OUT, `text split at ${i}`);
  const bytes = enc.encode(SAMPLE);
  for (let i = 0; i <= bytes.length; i++) assert.deepEqual(run([bytes.subarray(0, i), bytes.subarray(i)]), SAMPLE_OUT, `bytes split at ${i}`);
  for (let i = 1; i < bytes.length; i += 3) {
    for (let j = i; j <= bytes.length; j += 5) {
      assert.deepEqual(run([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]), SAMPLE_OUT, `bytes split at ${i}, ${j}`);
    }
  }
  assert.deepEqual(run(Array.from(bytes, (b) => new Uint8Array([b]))), SAMPLE_OUT);
  assert.deepEqual(run(SAMPLE.split("")), SAMPLE_OUT);
});

test("WHATWG example: `data` with no colon dispatches an empty string; two of them a single LF; an unclosed event is discarded", () => {
  assert.deepEqual(run(["data\n\ndata\ndata\n\ndata:"]), [ev(""), ev("\n")]);
});

test("WHATWG example: only one space after the colon is removed; `id` with no value resets the last event id", () => {
  const stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n";
  assert.deepEqual(run([stream]), [ev("first event", "1"), ev("second event", ""), ev(" third event", "")]);
});

test("WHATWG: the last event id persists across events and over events that dispatch nothing", () => {
  const state = createSseDecoder();
  assert.deepEqual(run(["id: a\n\n"], state), []);
  assert.equal(state.lastEventId, "a");
  assert.deepEqual(run(["data: x\n\n", "event: e\ndata: y\n\n", "data: z\n\n"], state), [ev("x", "a"), ev("y", "a", "e"), ev("z", "a")]);
  // A decoder may start from a known id (a resumed stream).
  assert.deepEqual(run(["data: r\n\n"], createSseDecoder(undefined, "41")), [ev("r", "41")]);
});

test("WHATWG (dispatch sets the last event ID string; an event cut before its blank line is not dispatched) and 2025-11-25 basic/transports, Resumability (Last-Event-ID names the last event received): dispatchedId moves only at a blank line, so a stream cut after an id line resumes from the last complete event", () => {
  const state = createSseDecoder(undefined, "0");
  assert.deepEqual(run(["id: 1\ndata:\n\n"], state), [ev("", "1")]);
  assert.equal(state.dispatchedId, "1");
  // The next event is cut after its id line, then mid-data, then before its blank line.
  for (const piece of ["id: 2\n", "data: {\"id\"", ":1}\n"]) {
    assert.deepEqual(run([piece], state), []);
    assert.equal(state.lastEventId, "2", "the buffer holds the id as soon as its line ends");
    assert.equal(state.dispatchedId, "1", `not received yet after ${JSON.stringify(piece)}`);
  }
  assert.deepEqual(run(["\n"], state), [ev('{"id":1}', "2")]);
  assert.equal(state.dispatchedId, "2");
  // An event with an id and no data dispatches nothing, yet its blank line sets the string (WHATWG dispatch step 1).
  run(["id: 3\n\n"], state);
  assert.equal(state.dispatchedId, "3");
});

test("WHATWG: an id containing NUL is ignored; the event type resets after each dispatch", () => {
  assert.deepEqual(run(["id: 1\ndata: a\n\nid: 2\u0000\nevent: t\ndata: b\n\ndata: c\n\n"]), [ev("a", "1"), ev("b", "1", "t"), ev("c", "1")]);
});

test("WHATWG: retry accepts ASCII digits only; anything else is ignored", () => {
  const out = run(["retry: 0\nretry: 3000\nretry: 12a\nretry:\nretry:  5\nretry: -1\nretry: 1.5\nretry\n\n"]);
  assert.deepEqual(out, [{ type: "retry", ms: 0 }, { type: "retry", ms: 3000 }]);
});

test("WHATWG: only one BOM, at the very start, is dropped; a later one is part of the line", () => {
  assert.deepEqual(run(["\uFEFFdata: a\n\n\uFEFFdata: b\n\n"]), [ev("a")]);
  assert.deepEqual(run([new Uint8Array([0xef]), new Uint8Array([0xbb, 0xbf]), enc.encode("data: a\n\n")]), [ev("a")]);
  assert.deepEqual(run(["", "\uFEFFdata: a\n\n"]), [ev("a")]);
});

test("WHATWG: CR-only line endings, and a CR ending one chunk with its LF opening the next", () => {
  assert.deepEqual(run(["data: a\rdata: b\r\rdata: c\r\r"]), [ev("a\nb"), ev("c")]);
  assert.deepEqual(run(["data: a\r", "\ndata: b\r", "\n\r", "\n"]), [ev("a\nb")]);
  assert.deepEqual(run(["data: a\r", "", "\n\r\n"]), [ev("a")]);
});

/** An event whose data held bytes that are not UTF-8. */
const notUtf8 = (data: string, id = ""): SseOutput => ({ type: "event", event: "message", data, id, invalidUtf8: true });

test("WHATWG: bytes are UTF-8 decoded with replacement, never a failure (the event says its data was not UTF-8)", () => {
  assert.deepEqual(run([new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0x0a, 0x0a])]), [notUtf8("\ufffd")]);
  // A lead byte followed by a non-continuation in the next chunk.
  assert.deepEqual(run([enc.encode("data:"), new Uint8Array([0xe6]), enc.encode("x\n\n")]), [notUtf8("\ufffdx")]);
  // A byte that can never start a character, at the end of a chunk, is not held back.
  assert.deepEqual(run([enc.encode("data:a"), new Uint8Array([0xf8]), enc.encode("\n\n")]), [notUtf8("a\ufffd")]);
  // A character cut across three chunks.
  const star = enc.encode("🎉");
  assert.deepEqual(run([enc.encode("data:"), star.subarray(0, 1), star.subarray(1, 2), star.subarray(2), enc.encode("\n\n")]), [ev("🎉")]);
});

test("basic/transports (JSON-RPC messages MUST be UTF-8 encoded): only the event whose data held bytes that are not UTF-8 is marked invalidUtf8, however the stream is cut; a U+FFFD sent as UTF-8, and bad bytes in a comment or another field, mark nothing", () => {
  const bytes = (...parts: Array<string | number[]>) => concatBytes(parts.map((p) => (typeof p === "string" ? enc.encode(p) : Uint8Array.from(p))));
  // An overlong "/" (C0 AF) inside a JSON string, between two good events; "é" cut anywhere too.
  const stream = bytes("id: 1\ndata: {\"a\":\"é\"}\n\nid: 2\ndata: {\"b\":\"x", [0xc0, 0xaf], "y\"}\ndata: more\n\n: ", [0xff], "\nevent", [0xff], ": z\nid: 3\ndata: \ufffd ok\n\n");
  const expected = [ev('{"a":"é"}', "1"), notUtf8('{"b":"x\ufffd\ufffdy"}\nmore', "2"), ev("\ufffd ok", "3")];
  assert.deepEqual(run([stream]), expected);
  for (let cut = 0; cut <= stream.length; cut++) {
    assert.deepEqual(run([stream.subarray(0, cut), stream.subarray(cut)]), expected, `cut at ${cut}`);
  }
  const single: Uint8Array[] = [];
  for (let i = 0; i < stream.length; i++) single.push(stream.subarray(i, i + 1));
  assert.deepEqual(run(single), expected, "one byte at a time");
});

test("basic/transports (MUST be UTF-8): each line of a chunk that holds bad bytes is judged as a strict UTF-8 decoder judges it (overlong forms, surrogates, past U+10FFFF, cut sequences), with LF, CR and CRLF endings, many lines in one chunk", () => {
  const strict = new TextDecoder("utf-8", { fatal: true });
  const isUtf8 = (b: Uint8Array) => {
    try {
      strict.decode(b);
      return true;
    } catch {
      return false;
    }
  };
  const vectors: number[][] = [
    [0x61], [0xc3, 0xa9], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x8e, 0x89], [0xef, 0xbf, 0xbd], [0xf4, 0x8f, 0xbf, 0xbf],
    [0xc0, 0xaf], [0xc1, 0xbf], [0xe0, 0x80, 0xaf], [0xe0, 0x9f, 0xbf], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf0, 0x8f, 0xbf, 0xbf],
    [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xff], [0x80], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x8e], [0xc3, 0x41], [0xe2, 0x41, 0x82],
  ];
  // A seeded generator adds random short lines of high bytes.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < 300; i++) vectors.push(Array.from({ length: 1 + (next() % 5) }, () => 0x80 + (next() % 128)));
  const endings = [[0x0a], [0x0d], [0x0d, 0x0a]];
  const parts: number[] = [];
  const expected: SseOutput[] = [];
  vectors.forEach((v, i) => {
    const line = Uint8Array.from(v);
    parts.push(...enc.encode("data: "), ...v, ...endings[i % 3], ...endings[(i + 1) % 3]);
    const data = new TextDecoder().decode(line);
    expected.push(isUtf8(line) ? ev(data) : notUtf8(data));
  });
  // One chunk with one bad line at least, so the chunk is decoded line by line as a whole.
  assert.deepEqual(run([Uint8Array.from(parts)]), expected);
});

test("the decoder state is plain data: a JSON round trip between any two chunks, a character cut across them included, decodes alike", () => {
  const bytes = enc.encode("data: é🎉\n\nid: 7\ndata: x\n\n");
  const whole = feedSse(createSseDecoder(), bytes);
  for (let cut = 0; cut <= bytes.length; cut++) {
    const d = createSseDecoder();
    const first = feedSse(d, bytes.subarray(0, cut));
    const restored = JSON.parse(JSON.stringify(d)) as SseDecoder;
    assert.deepEqual(restored, d, `cut at ${cut}: the snapshot equals the state`);
    assert.deepEqual([...first, ...feedSse(restored, bytes.subarray(cut))], whole, `cut at ${cut}`);
  }
});

test("bounded: an event over maxEventSize is reported once and skipped; the next event is delivered", () => {
  const state = createSseDecoder({ maxEventSize: 100 });
  const out: SseOutput[] = [];
  out.push(...feedSse(state, "id: 1\ndata: " + "a".repeat(60) + "\n"));
  out.push(...feedSse(state, "data: " + "b".repeat(60) + "\n"));
  out.push(...feedSse(state, "data: more\nid: 2\n\ndata: ok\n\n"));
  assert.deepEqual(out.map((o) => o.type), ["error", "event"]);
  const error = out[0];
  assert.ok(error.type === "error" && error.size > 100 && error.reason.includes("maxEventSize"));
  // Reported at the event's end with both ends of its data (every data line, joined by LF, as the event would have had).
  const data = "a".repeat(60) + "\n" + "b".repeat(60) + "\nmore";
  assert.equal(error.head, data);
  assert.equal(error.tail, data);
  assert.deepEqual(out[1], ev("ok", "2"));
});

test("bounded: a dropped event's excerpts are the first 1024 and last 256 characters of its data, whatever the chunking", () => {
  const data = "<" + "m".repeat(5000) + ">";
  const text = `data: ${data}\n\n`;
  const whole = feedSse(createSseDecoder({ maxEventSize: 2000 }), text);
  assert.deepEqual(whole.map((o) => o.type === "error" && [o.head, o.tail]), [[data.slice(0, 1024), data.slice(-256)]]);
  const state = createSseDecoder({ maxEventSize: 2000 });
  const cut: SseOutput[] = [];
  for (let i = 0; i < text.length; i += 13) cut.push(...feedSse(state, text.slice(i, i + 13)));
  assert.deepEqual(cut.map((o) => o.type === "error" && [o.head, o.tail]), [[data.slice(0, 1024), data.slice(-256)]]);
});

test("bounded: one endless line in small chunks keeps memory within the limit and is reported once", () => {
  const state = createSseDecoder({ maxEventSize: 1000 });
  const out: SseOutput[] = [];
  out.push(...feedSse(state, "data: "));
  let peak = 0;
  for (let i = 0; i < 1000; i++) {
    out.push(...feedSse(state, "x".repeat(1000)));
    peak = Math.max(peak, state.line.length + state.data.length);
  }
  out.push(...feedSse(state, "\nid: 5\n\ndata: after\n\n"));
  assert.deepEqual(out.map((o) => o.type), ["error", "event"]);
  assert.deepEqual(out[1], ev("after", "5"));
  assert.ok(peak <= 1000, `peak ${peak}`);
});

test("bounded: the limit counts the data so far plus the raw line being read, one chunk or many", () => {
  const limit = () => createSseDecoder({ maxEventSize: 12 });
  assert.deepEqual(run(["data: " + "z".repeat(7) + "\n\ndata: ok\n\n"], limit()).map((o) => o.type), ["error", "event"]);
  // 5 of data, then a 7-character line: exactly 12.
  assert.deepEqual(run(["data: 12345\ndata: 1\n\n"], limit()), [ev("12345\n1")]);
  assert.deepEqual(run(["data: 12345\n", "data:", " 1", "\n\n"], limit()), [ev("12345\n1")]);
  assert.deepEqual(run(["data: 12345\ndata: 123\n\n"], limit()).map((o) => o.type), ["error"]);
  assert.deepEqual(run(["data: 12345\n", "data: 1", "23", "\n\n"], limit()).map((o) => o.type), ["error"]);
  // A long comment or id line counts too (it is memory all the same).
  assert.deepEqual(run([": " + "c".repeat(20) + "\ndata: x\n\n"], limit()).map((o) => o.type), ["error"]);
});

// --- encoder ------------------------------------------------------------------------

test("encodeSseEvent: fields, then one data line per line of data, then a blank line", () => {
  assert.deepEqual(encodeSseEvent({ data: '{"a":1}' }), { ok: true, text: 'data: {"a":1}\n\n' });
  assert.deepEqual(encodeSseEvent({ data: "x", event: "message", id: "s1-7", retry: 2000 }), { ok: true, text: "event: message\nid: s1-7\nretry: 2000\ndata: x\n\n" });
  assert.deepEqual(encodeSseEvent({ data: "a\nb\r\nc\rd" }), { ok: true, text: "data: a\ndata: b\ndata: c\ndata: d\n\n" });
  assert.deepEqual(encodeSseEvent({ data: "" }), { ok: true, text: "data:\n\n" });
});

test("encodeSseEvent refuses, as a value, an id or event type that would break its line, a NUL id, a bad retry", () => {
  const bad = [
    { data: "x", id: "a\nb" },
    { data: "x", id: "a\rb" },
    { data: "x", id: "a\u0000b" },
    { data: "x", event: "e\n" },
    { data: "x", event: "\re" },
    { data: "x", retry: -1 },
    { data: "x", retry: 1.5 },
    { data: "x", retry: Number.NaN },
  ];
  for (const init of bad) {
    const r = encodeSseEvent(init);
    assert.equal(r.ok, false, JSON.stringify(init));
    assert.ok(!r.ok && r.reason.length > 0);
  }
});

test("2025-11-25 transports — the priming event: an event id and an empty data field; the client learns the id", () => {
  const primed = encodeSsePrimingEvent("stream-1:0");
  assert.deepEqual(primed, { ok: true, text: "id: stream-1:0\ndata:\n\n" });
  assert.deepEqual(encodeSsePrimingEvent("p", 500), { ok: true, text: "id: p\nretry: 500\ndata:\n\n" });
  assert.equal(encodeSsePrimingEvent("bad\nid").ok, false);
  assert.ok(primed.ok);
  const state = createSseDecoder();
  // WHATWG dispatches an event whose data is "" (an empty data line counts); a consumer skips it.
  assert.deepEqual(run([primed.text], state), [ev("", "stream-1:0")]);
  assert.equal(state.lastEventId, "stream-1:0");
});

test("2025-11-25 transports — a retry field before closing: encoded bare, decoded as a retry output only", () => {
  const r = encodeSseRetry(3000);
  assert.deepEqual(r, { ok: true, text: "retry: 3000\n\n" });
  assert.ok(r.ok);
  assert.deepEqual(run([r.text]), [{ type: "retry", ms: 3000 }]);
  assert.equal(encodeSseRetry(-5).ok, false);
  assert.equal(encodeSseRetry(0.5).ok, false);
});

test("draft streamable-http — comment lines as keep-alives are ignored by the decoder, and cannot smuggle fields", () => {
  assert.equal(encodeSseComment(), ": keepalive\n");
  assert.equal(encodeSseComment("a\ndata: injected\rmore"), ": a\n: data: injected\n: more\n");
  assert.deepEqual(run([encodeSseComment(), encodeSseComment("x\ndata: injected"), "\n"]), []);
});

test("encoder and decoder agree: events encoded back to back, split anywhere, decode to what was sent", () => {
  const sent = [
    { event: "message", id: "1", data: '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}' },
    { event: "message", id: "2", data: "multi\nline\n\nwith blank" },
    { event: "custom", id: "3", data: " leading space é🎉" },
  ];
  let wire = encodeSseComment();
  for (const e of sent) {
    const r = encodeSseEvent(e);
    assert.ok(r.ok);
    wire += r.text;
  }
  const expected = sent.map((e) => ev(e.data, e.id, e.event));
  const bytes = enc.encode(wire);
  for (let i = 0; i <= bytes.length; i += 3) assert.deepEqual(run([bytes.subarray(0, i), bytes.subarray(i)]), expected);
});

test("feedSse never throws (its contract) and loses nothing: an ArrayBuffer or a DataView is read as its bytes (an ArrayBuffer was dropped, its events lost without a trace); a chunk that is neither text nor bytes holds nothing to read", () => {
  const bytes = enc.encode('data: {"x":1}\n\n');
  for (const chunk of [bytes.buffer.slice(0), new DataView(bytes.buffer.slice(0))]) {
    assert.deepEqual(feedSse(createSseDecoder(), chunk as never), [{ type: "event", event: "message", data: '{"x":1}', id: "" }], chunk.constructor.name);
  }
  const state = createSseDecoder();
  assert.deepEqual(feedSse(state, "data: a"), []);
  for (const junk of [undefined, null, 5, {}, [1, 2]]) assert.deepEqual(feedSse(state, junk as never), []);
  assert.deepEqual(feedSse(state, "\n\n"), [{ type: "event", event: "message", data: "a", id: "" }]);
});

test("createSseDecoder keeps its bound: a maxEventSize that is no positive integer (NaN switched the bound off) is the default, 4 MiB plus 1 KiB", () => {
  for (const maxEventSize of [NaN, -1, 0, Infinity]) assert.equal(createSseDecoder({ maxEventSize }).maxEventSize, 4 * 1024 * 1024 + 1024, String(maxEventSize));
  assert.equal(createSseDecoder({ maxEventSize: 100 }).maxEventSize, 100);
});
