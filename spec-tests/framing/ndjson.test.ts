// Spec: 2025-11-25 basic/transports ("stdio") and draft basic/transports/stdio —
// "Messages are delimited by newlines, and MUST NOT contain embedded newlines";
// "JSON-RPC messages MUST be UTF-8 encoded". The framer cuts a byte or text stream into
// lines, whatever the chunking, and survives a bad or oversized line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createNdjsonDecoder, encodeNdjsonLine, endNdjson, feedNdjson, type NdjsonDecoder, type NdjsonEvent } from "../../src/framing/ndjson.js";
import { decode, encode } from "../../src/jsonrpc/codec.js";

const enc = new TextEncoder();

/** Feeds every chunk, then ends the stream; returns all events. */
function run(chunks: Array<string | Uint8Array>, state: NdjsonDecoder = createNdjsonDecoder()): NdjsonEvent[] {
  const out: NdjsonEvent[] = [];
  for (const c of chunks) out.push(...feedNdjson(state, c));
  out.push(...endNdjson(state));
  return out;
}

const lines = (...texts: string[]): NdjsonEvent[] => texts.map((text) => ({ kind: "line", text }));

/** The event for an ASCII line over the limit, short enough that both excerpts are the whole line. */
const big = (text: string): NdjsonEvent => ({ kind: "oversized", bytes: text.length, head: text, tail: text });

const SAMPLE = '{"jsonrpc":"2.0","id":1,"method":"a"}\n{"jsonrpc":"2.0","method":"é日🎉"}\r\n\n\r\n{"x":"y\rz"}\n';
const SAMPLE_LINES = lines('{"jsonrpc":"2.0","id":1,"method":"a"}', '{"jsonrpc":"2.0","method":"é日🎉"}', '{"x":"y\rz"}');

test("stdio — one message per line: several messages in one chunk, CRLF stripped, empty lines skipped, an inner CR kept", () => {
  assert.deepEqual(run([SAMPLE]), SAMPLE_LINES);
  assert.deepEqual(run([enc.encode(SAMPLE)]), SAMPLE_LINES);
});

test("chunking never changes the lines: the sample split at every position, as text and as bytes", () => {
  const bytes = enc.encode(SAMPLE);
  for (let i = 0; i <= bytes.length; i++) {
    assert.deepEqual(run([bytes.subarray(0, i), bytes.subarray(i)]), SAMPLE_LINES, `bytes split at ${i}`);
  }
  for (let i = 0; i <= SAMPLE.length; i++) {
    assert.deepEqual(run([SAMPLE.slice(0, i), SAMPLE.slice(i)]), SAMPLE_LINES, `text split at ${i}`);
  }
  // One byte (one UTF-16 unit) at a time: every multi-byte character arrives in pieces.
  assert.deepEqual(run(Array.from(bytes, (b) => new Uint8Array([b]))), SAMPLE_LINES);
  assert.deepEqual(run(SAMPLE.split("")), SAMPLE_LINES);
});

test("a chunk that ends a line and starts the next; a line completed over three chunks", () => {
  const state = createNdjsonDecoder();
  assert.deepEqual(feedNdjson(state, '{"a":'), []);
  assert.deepEqual(feedNdjson(state, "1}\n{"), lines('{"a":1}'));
  assert.deepEqual(feedNdjson(state, '"b"'), []);
  assert.deepEqual(feedNdjson(state, ":2}\r"), []);
  assert.deepEqual(feedNdjson(state, "\n"), lines('{"b":2}'));
  assert.deepEqual(endNdjson(state), []);
});

test("end of stream: a last line without its newline is still delivered, and the state is reusable", () => {
  const state = createNdjsonDecoder();
  assert.deepEqual(run(['{"a":1}\n{"b":2}'], state), lines('{"a":1}', '{"b":2}'));
  assert.deepEqual(run([enc.encode('{"c":3}\r')], state), lines('{"c":3}'));
  assert.deepEqual(run([], state), []);
});

test("basic/transports — UTF-8: a line of invalid bytes is reported once and the stream goes on", () => {
  const bad = new Uint8Array([0x7b, 0xff, 0x7d, 0x0a]);
  const out = run([enc.encode('{"a":1}\n'), bad, enc.encode('{"b":2}\n')]);
  assert.deepEqual(out, [...lines('{"a":1}'), { kind: "invalid-utf8", head: "{\uFFFD}", tail: "{\uFFFD}" }, ...lines('{"b":2}')]);
  // A truncated character at the very end of the stream is invalid too.
  assert.deepEqual(run([new Uint8Array([0x22, 0xe6, 0x97])]), [{ kind: "invalid-utf8", head: '"\uFFFD', tail: '"\uFFFD' }]);
  // The excerpts, as for an oversized line, keep what names a response's request: its id, often last.
  const response = [...enc.encode('{"jsonrpc":"2.0","result":{"text":"'), 0xc3, 0x28, ...enc.encode('"},"id":7}\n')];
  const [event] = run([new Uint8Array(response)]);
  assert.ok(event.kind === "invalid-utf8" && event.tail.endsWith('"id":7}') && event.head.startsWith('{"jsonrpc":"2.0","result"'));
});

test("a leading BOM on a line is dropped, in text as in bytes", () => {
  assert.deepEqual(run(["\uFEFF{}\n"]), lines("{}"));
  assert.deepEqual(run([enc.encode("\uFEFF{}\n")]), lines("{}"));
  assert.deepEqual(run(["\uFEFF\n"]), []);
});

test("an oversized line's head excerpt drops a leading BOM (EF BB BF) and nothing else: a line whose third byte is BF, or that opens with EF BB alone, keeps its first bytes", () => {
  for (const start of ["{¿", "\uFEFF{¿", "ﻛ"]) {
    const line = start + "x".repeat(200);
    const bytes = enc.encode(line + "\n");
    // Whole, and cut so that the line's start waits in the decoder's buffer, or overflows it, before its end comes.
    for (const cuts of [[], [5], [5, 12], [12]]) {
      const pieces = [0, ...cuts].map((at, i, all) => bytes.subarray(at, all[i + 1] ?? bytes.length));
      const [event] = run(pieces, createNdjsonDecoder({ maxLineBytes: 10 }));
      assert.ok(event.kind === "oversized", start);
      assert.equal((event as { head: string }).head, line.replace(/^\uFEFF/, ""), `${JSON.stringify(start)} cut at ${cuts}`);
    }
  }
});

for (const mode of ["text", "bytes"] as const) {
  const chunk = (s: string): string | Uint8Array => (mode === "text" ? s : enc.encode(s));

  test(`maxLineBytes (${mode}): a line at the limit passes (a CR on top of it too); one byte more is oversized`, () => {
    const max = 20;
    const at = "x".repeat(max);
    const over = "x".repeat(max + 1);
    const opts = { maxLineBytes: max };
    assert.deepEqual(run([chunk(at + "\n")], createNdjsonDecoder(opts)), lines(at));
    assert.deepEqual(run([chunk(at + "\r\n")], createNdjsonDecoder(opts)), lines(at));
    assert.deepEqual(run([chunk(at.slice(0, 5)), chunk(at.slice(5) + "\r"), chunk("\n")], createNdjsonDecoder(opts)), lines(at));
    assert.deepEqual(run([chunk(over + "\n")], createNdjsonDecoder(opts)), [big(over)]);
    assert.deepEqual(run([chunk(over.slice(0, 10)), chunk(over.slice(10) + "\n")], createNdjsonDecoder(opts)), [big(over)]);
    assert.deepEqual(run([chunk(over.slice(0, 10)), chunk(over.slice(10))], createNdjsonDecoder(opts)), [big(over)]);
    assert.deepEqual(run([chunk(over + "\r")], createNdjsonDecoder(opts)), [big(over)]);
    // Pending bytes plus the rest of the line pass the limit only when the newline comes.
    const far = "x".repeat(max + 5);
    assert.deepEqual(run([chunk(far.slice(0, 10)), chunk(far.slice(10) + "\r\n")], createNdjsonDecoder(opts)), [big(far)]);
    assert.deepEqual(run([chunk(far.slice(0, 10)), chunk(far.slice(10) + "\n")], createNdjsonDecoder(opts)), [big(far)]);
    assert.deepEqual(run([chunk(far.slice(0, 10)), chunk(far.slice(10) + "\r"), chunk("\n")], createNdjsonDecoder(opts)), [big(far)]);
    // Measured in UTF-8 bytes: 10 × "é" is 20 bytes, 7 × "日" is 21.
    assert.deepEqual(run([chunk("é".repeat(10) + "\n")], createNdjsonDecoder(opts)), lines("é".repeat(10)));
    assert.equal(run([chunk("日".repeat(7) + "\n")], createNdjsonDecoder(opts))[0].kind, "oversized");
    assert.equal(run([chunk("日".repeat(3)), chunk("日".repeat(4) + "\n")], createNdjsonDecoder(opts))[0].kind, "oversized");
  });

  test(`maxLineBytes (${mode}): an oversized line is reported once, dropped up to its newline, and the next line decodes`, () => {
    const max = 1000;
    const state = createNdjsonDecoder({ maxLineBytes: max });
    const out: NdjsonEvent[] = [];
    out.push(...feedNdjson(state, chunk('{"a":1}\n{"big":"')));
    let peak = 0;
    for (let i = 0; i < 1000; i++) {
      out.push(...feedNdjson(state, chunk("y".repeat(1000))));
      peak = Math.max(peak, state.buffer.length, state.text.length);
    }
    out.push(...feedNdjson(state, chunk('"}\r\n{"b":2}\n')));
    out.push(...endNdjson(state));
    assert.deepEqual(out.map((e) => e.kind), ["line", "oversized", "line"]);
    assert.deepEqual(out[2], { kind: "line", text: '{"b":2}' });
    const oversized = out[1];
    assert.ok(oversized.kind === "oversized" && oversized.bytes > max);
    // Memory stayed within the limit while a 1 MB line went by.
    assert.ok(peak <= max + 1, `peak ${peak}`);
  });

  test(`maxLineBytes (${mode}): an oversized line inside one chunk, between good ones`, () => {
    const out = run([chunk(`{"a":1}\n${"z".repeat(50)}\n{"b":2}\n`)], createNdjsonDecoder({ maxLineBytes: 10 }));
    assert.deepEqual(out, [...lines('{"a":1}'), big("z".repeat(50)), ...lines('{"b":2}')]);
  });

  test(`maxLineBytes (${mode}): a stream that ends while an oversized line is dropped reports it once, at the end, whole`, () => {
    assert.deepEqual(run([chunk("q".repeat(30)), chunk("q")], createNdjsonDecoder({ maxLineBytes: 10 })), [big("q".repeat(31))]);
  });

  test(`maxLineBytes (${mode}): an oversized line is reported at its newline with its exact size, its first 1024 and last 256 bytes, however it was cut`, () => {
    // A response whose id comes last (SDK 1.x writes {result, jsonrpc, id}): the tail is what names the request.
    const line = `\uFEFF{"result":{"text":"${"é".repeat(3000)}日"},"jsonrpc":"2.0","id":"x-7"}`;
    const whole = run([chunk(line + "\r\n")], createNdjsonDecoder({ maxLineBytes: 100 }));
    const bytes = enc.encode(line.slice(1));
    assert.deepEqual(whole, [{ kind: "oversized", bytes: bytes.length + 3, head: new TextDecoder().decode(bytes.subarray(0, 1024)), tail: new TextDecoder().decode(bytes.subarray(bytes.length - 256)) }]);
    assert.match((whole[0] as { tail: string }).tail, /"jsonrpc":"2.0","id":"x-7"}$/);
    for (const size of [1, 7, 99, 1000]) {
      const pieces: (string | Uint8Array)[] = [];
      const full = mode === "text" ? line + "\r\n" : enc.encode(line + "\r\n");
      for (let i = 0; i < full.length; i += size) pieces.push(full.slice(i, i + size));
      assert.deepEqual(run(pieces, createNdjsonDecoder({ maxLineBytes: 100 })), whole, `pieces of ${size}`);
    }
  });
}

test("a stream may switch between text and byte chunks mid-line", () => {
  assert.deepEqual(run(['{"a":', enc.encode('"é"'), "}\n"]), lines('{"a":"é"}'));
  assert.deepEqual(run([enc.encode('{"a":'), '"é"}', enc.encode("\n")]), lines('{"a":"é"}'));
  assert.deepEqual(run(['{"a":"\ud83c', enc.encode("x\n")]), lines('{"a":"\ufffdx'));
});

test("a chunk holding more than a megabyte of complete lines gives the same lines", () => {
  const line = '{"p":"' + "m".repeat(500) + '"}';
  const many = Array.from({ length: 2500 }, () => line);
  const bytes = enc.encode(many.join("\n") + "\n" + "o".repeat(3000) + "\n");
  assert.ok(bytes.length > 1024 * 1024);
  const out = run([bytes], createNdjsonDecoder({ maxLineBytes: 2000 }));
  assert.deepEqual(out, [...lines(...many), { kind: "oversized", bytes: 3000, head: "o".repeat(1024), tail: "o".repeat(256) }]);
});

test("a long line in many small chunks grows the buffer and delivers the whole line", () => {
  const text = '{"p":"' + "w".repeat(100000) + '"}';
  const bytes = enc.encode(text + "\n");
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
  assert.deepEqual(run(chunks), lines(text));
});

test("stdio — MUST NOT contain embedded newlines: the encoder frames one line and refuses a raw line break", () => {
  assert.deepEqual(encodeNdjsonLine('{"a":1}'), { ok: true, line: '{"a":1}\n' });
  assert.equal(encodeNdjsonLine('{"a":\n1}').ok, false);
  assert.equal(encodeNdjsonLine('{"a":\r1}').ok, false);
});

test("framing and codec together: encoded messages framed, chunked and decoded come back equal", () => {
  const messages = [
    { jsonrpc: "2.0" as const, id: 1, method: "tools/call", params: { name: "t", arguments: { s: "multi\nline" } } },
    { jsonrpc: "2.0" as const, method: "notifications/progress", params: { progressToken: 1, progress: 2 } },
    { jsonrpc: "2.0" as const, id: 1, result: { content: [{ type: "text", text: "ok 🎉" }] } },
  ];
  let wire = "";
  for (const m of messages) {
    const framed = encodeNdjsonLine(encode(m));
    assert.ok(framed.ok);
    wire += framed.line;
  }
  const bytes = enc.encode(wire);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 5) chunks.push(bytes.subarray(i, i + 5));
  const out = run(chunks);
  assert.deepEqual(
    out.map((e) => {
      assert.ok(e.kind === "line");
      const d = decode(e.text);
      assert.ok(d.kind !== "invalid" && d.kind !== "batch");
      return d.message;
    }),
    messages,
  );
});

test("feedNdjson never throws (its contract): a chunk whose buffer was transferred away (detached, length 0) is nothing to read, and the pending line goes on; its indexOf threw", () => {
  const detached = (): Uint8Array => {
    const buffer = new ArrayBuffer(4);
    const view = new Uint8Array(buffer);
    structuredClone(buffer, { transfer: [buffer] });
    return view;
  };
  const d = createNdjsonDecoder();
  assert.deepEqual(feedNdjson(d, detached()), []);
  feedNdjson(d, new TextEncoder().encode('{"a"'));
  assert.deepEqual(feedNdjson(d, detached()), []);
  assert.deepEqual(feedNdjson(d, new TextEncoder().encode(":1}\n")), [{ kind: "line", text: '{"a":1}' }]);
});

test("feedNdjson never throws (its contract) + README \"The kernel API\" (text or bytes): an ArrayBuffer (a WebSocket's binaryType \"arraybuffer\") or another view is read as its bytes, where it threw or a Uint16Array was read element by element; a chunk that is neither is an invalid-utf8 event, and the line being read goes on", () => {
  const bytes = enc.encode('{"a":1}\n{"b":2}\n');
  const copy = () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  for (const chunk of [copy(), new DataView(copy()), new Uint16Array(copy()), new Uint8Array(copy(), 4)]) {
    const expected = chunk instanceof Uint8Array ? lines(":1}", '{"b":2}') : lines('{"a":1}', '{"b":2}');
    assert.deepEqual(run([chunk as Uint8Array]), expected, chunk.constructor.name);
  }
  const state = createNdjsonDecoder();
  assert.deepEqual(feedNdjson(state, '{"a":'), []);
  for (const junk of [undefined, null, 5, {}, [1, 2]]) assert.deepEqual(feedNdjson(state, junk as never), [{ kind: "invalid-utf8", head: "", tail: "" }]);
  assert.deepEqual(feedNdjson(state, "1}\n"), lines('{"a":1}'));
});

test("createNdjsonDecoder never throws and keeps its bound: a maxLineBytes that is no positive integer (NaN, which compared as never over switched the bound off; -1, which refused every line) is the default 4 MiB", () => {
  for (const maxLineBytes of [NaN, -1, 0, 1.5, Infinity]) {
    const d = createNdjsonDecoder({ maxLineBytes });
    assert.equal(d.maxLineBytes, 4 * 1024 * 1024, String(maxLineBytes));
    assert.deepEqual(feedNdjson(d, enc.encode('{"a":1}\n')), lines('{"a":1}'), String(maxLineBytes));
  }
  assert.equal(createNdjsonDecoder({ maxLineBytes: 10 }).maxLineBytes, 10);
});

test("README \"The kernel API\": the package root exports the framing codecs, so an adapter of the application's own frames stdio (NDJSON) and reads SSE with the transports' own codecs", async () => {
  // Read by name at run time: before these names were exported, a build of the root lacked them.
  const root = (await import("../../src/index.js")) as unknown as Record<string, unknown>;
  for (const name of ["createNdjsonDecoder", "feedNdjson", "endNdjson", "encodeNdjsonLine", "createSseDecoder", "feedSse", "encodeSseEvent", "encodeSsePrimingEvent", "encodeSseRetry", "encodeSseComment"]) {
    assert.equal(typeof root[name], "function", `mcp-kernel exports ${name}`);
  }
  const r = root as unknown as typeof import("../../src/index.js");
  const line = r.encodeNdjsonLine(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
  assert.ok(line.ok);
  const d = r.createNdjsonDecoder({ maxLineBytes: undefined });
  assert.deepEqual([...r.feedNdjson(d, line.line.slice(0, 5)), ...r.feedNdjson(d, enc.encode(line.line.slice(5)))], [{ kind: "line", text: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }]);
  const event = r.encodeSseEvent({ id: "1", data: '{"jsonrpc":"2.0","id":1,"result":{}}', event: undefined, retry: undefined });
  assert.ok(event.ok);
  assert.deepEqual(r.feedSse(r.createSseDecoder({ maxEventSize: undefined }), event.text), [{ type: "event", event: "message", data: '{"jsonrpc":"2.0","id":1,"result":{}}', id: "1" }]);
});
