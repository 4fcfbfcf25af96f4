/**
 * The stream channel (src/transports/channel.ts) against a scripted sink: framing,
 * answers to undeliverable lines, backpressure, and the Transport contract
 * (src/api/transport.ts). Spec: `basic/transports` of 2025-11-25, "stdio".
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { attach } from "../../src/api/connection.js";
import { ManualClock } from "../../src/driver/clock.js";
import { Endpoint, McpError } from "../../src/driver/endpoint.js";
import { decode, encode, invalidUtf8StandIn } from "../../src/jsonrpc/codec.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import {
  HARD_QUEUE_FACTOR,
  LOCAL_CLOSE_REASON,
  StreamChannel,
  type ChannelOptions,
  type FramingFault,
  type Sink,
} from "../../src/transports/channel.js";
import { LiveTimersClock } from "../harness/live-timers.js";

/** A sink that records writes and reports full while `full` is set; the test releases a drain by hand. */
class ScriptedSink implements Sink {
  writes: string[] = [];
  full = false;
  ended = 0;
  drain: (() => void) | undefined;
  write(chunk: string): boolean {
    this.writes.push(chunk);
    return !this.full;
  }
  waitDrain(fn: () => void): void {
    assert.equal(this.drain, undefined, "one drain wait at a time");
    this.drain = fn;
  }
  end(): void {
    this.ended++;
  }
  release(stillFull = false): void {
    const fn = this.drain!;
    this.drain = undefined;
    this.full = stillFull;
    fn();
  }
}

function channel(options: ChannelOptions = {}) {
  const sink = new ScriptedSink();
  const teardowns: string[] = [];
  const ch = new StreamChannel(sink, options, (r) => teardowns.push(r));
  const got: string[] = [];
  const closes: string[] = [];
  return { sink, ch, got, closes, teardowns, listen: () => (ch.onMessage((t) => got.push(t)), ch.onClose((r) => closes.push(r))) };
}

const utf8 = new TextEncoder();

// transports (stdio): "Messages are delimited by newlines".
test("stdio framing: each sent message is one line", () => {
  const { ch, sink } = channel();
  ch.send('{"jsonrpc":"2.0","method":"a"}');
  ch.send('{"jsonrpc":"2.0","method":"b"}');
  assert.deepEqual(sink.writes, ['{"jsonrpc":"2.0","method":"a"}\n', '{"jsonrpc":"2.0","method":"b"}\n']);
});

// transports (stdio): messages "MUST NOT contain embedded newlines"; a raw break in JSON text is whitespace, so it becomes a space.
test("stdio framing: a message with raw line breaks (pretty-printed JSON) is sent as one line meaning the same", () => {
  const { ch, sink } = channel();
  const pretty = JSON.stringify({ jsonrpc: "2.0", method: "x", params: { s: "a\nb" } }, null, 2).replace(/\n/g, "\r\n");
  ch.send(pretty);
  assert.equal(sink.writes.length, 1);
  const line = sink.writes[0];
  assert.equal(line.indexOf("\n"), line.length - 1);
  assert.equal(line.indexOf("\r"), -1);
  assert.deepEqual(JSON.parse(line), JSON.parse(pretty));
});

test("stdio framing: chunks split anywhere, several lines per chunk, CRLF, text or bytes", () => {
  const { ch, got, listen } = channel();
  listen();
  ch.push('{"jsonrpc":"2.0",');
  ch.push(utf8.encode('"method":"a"}\r\n{"jsonrpc":"2.0","method":"b"}\n{"jsonrpc"'));
  ch.push(':"2.0","method":"c"}\n');
  assert.deepEqual(got, ['{"jsonrpc":"2.0","method":"a"}', '{"jsonrpc":"2.0","method":"b"}', '{"jsonrpc":"2.0","method":"c"}']);
});

test("a chunk that is neither text nor bytes (an object a peer enqueued, a WebSocket's Blob) is one undecodable fault, reported with its type and what to do, and the stream serves on; other byte views are read as bytes", () => {
  const faults: FramingFault[] = [];
  const { ch, got, closes, listen } = channel({ onFault: (f) => faults.push(f) });
  listen();
  ch.push({ not: "bytes" } as unknown as string);
  ch.push(42 as unknown as string);
  ch.push(new Blob(['{"jsonrpc":"2.0","id":1,"method":"ping"}\n']) as unknown as Uint8Array);
  ch.push(utf8.encode('{"jsonrpc":"2.0","method":"a"}\n').buffer as unknown as Uint8Array);
  ch.push(new DataView(utf8.encode('{"jsonrpc":"2.0","method":"b"}\n').buffer) as unknown as Uint8Array);
  const standIn = invalidUtf8StandIn("", "");
  assert.deepEqual(got, [standIn, standIn, standIn, '{"jsonrpc":"2.0","method":"a"}', '{"jsonrpc":"2.0","method":"b"}']);
  assert.deepEqual(faults, [
    { kind: "unsupported-chunk", type: "Object", message: "unsupported chunk type Object" },
    { kind: "unsupported-chunk", type: "Number", message: "unsupported chunk type Number" },
    { kind: "unsupported-chunk", type: "Blob", message: "unsupported chunk type Blob; set binaryType = 'arraybuffer'" },
  ]);
  assert.deepEqual(closes, []);
});

test("endInput delivers a last line that has no newline; later input is ignored once closed", () => {
  const { ch, got, listen } = channel();
  listen();
  ch.push('{"jsonrpc":"2.0","method":"last"}');
  assert.deepEqual(got, []);
  ch.endInput();
  assert.deepEqual(got, ['{"jsonrpc":"2.0","method":"last"}']);
  ch.closeWith("done");
  ch.push('{"jsonrpc":"2.0","method":"late"}\n');
  ch.endInput();
  assert.equal(got.length, 1);
});

// JSON-RPC 2.0 via basic/index: a message that is not valid JSON is answered -32700 with id null.
test("a line that is not UTF-8 is delivered as a stand-in the codec answers -32700 with id null; a response's stand-in fails the request it names at once (basic/transports: messages MUST be UTF-8)", () => {
  const faults: FramingFault[] = [];
  const { ch, got, listen } = channel({ onFault: (f) => faults.push(f) });
  listen();
  ch.push(new Uint8Array([0x7b, 0xc3, 0x28, 0x7d, 0x0a]));
  ch.push('{"jsonrpc":"2.0","method":"next"}\n');
  assert.deepEqual(got, [invalidUtf8StandIn("{\uFFFD(}", "{\uFFFD(}"), '{"jsonrpc":"2.0","method":"next"}']);
  assert.deepEqual(faults, [{ kind: "invalid-utf8" }]);
  const d = decode(got[0]);
  assert.deepEqual(d.kind === "invalid" && { id: d.reply.id, code: d.reply.error.code, answers: d.answers }, { id: null, code: ErrorCode.ParseError, answers: undefined });
  // A response with a bad byte inside a string: its id shows at the end, so the request it answers fails now.
  ch.push(new Uint8Array([...utf8.encode('{"jsonrpc":"2.0","result":{"t":"'), 0xc3, 0x28, ...utf8.encode('"},"id":"r1"}\n')]));
  const r = decode(got[2]);
  assert.deepEqual(r.kind === "invalid" && { answers: r.answers, reason: r.reason }, { answers: "r1", reason: "message is not valid UTF-8" });
  // The codec reads bytes the same way (an HTTP body, a message-framed chunk).
  const bytes = decode(new Uint8Array([...utf8.encode('{"jsonrpc":"2.0","id":5,"result":{"t":"'), 0xff, ...utf8.encode('"}}')]));
  assert.equal(bytes.kind === "invalid" && bytes.answers, 5);
});

test("an onFault hook that throws costs the stream nothing: the rest of the chunk is delivered, and the error is rethrown on a fresh microtask, not swallowed", async () => {
  const { ch, got, closes, listen } = channel({
    onFault: () => {
      throw new Error("logger broke");
    },
  });
  listen();
  let caught!: (e: unknown) => void;
  const thrown = new Promise((r) => (caught = r));
  const prior = process.listeners("uncaughtException");
  process.removeAllListeners("uncaughtException");
  process.once("uncaughtException", caught);
  try {
    ch.push(new Uint8Array([0xff, 0x0a, ...utf8.encode('{"jsonrpc":"2.0","method":"next"}\n')]));
    assert.deepEqual(got, [invalidUtf8StandIn("\uFFFD", "\uFFFD"), '{"jsonrpc":"2.0","method":"next"}']);
    assert.equal(((await thrown) as Error).message, "logger broke");
  } finally {
    for (const l of prior) process.on("uncaughtException", l);
  }
  assert.deepEqual(closes, []);
});

// The codec answers a message over a size limit -32600 ("Invalid Request"); the framer dropped the line but kept its ends.
test("a line over maxLineBytes is delivered as a stand-in the codec classifies as the whole line: -32600 (id null when neither end names one), and the stream goes on", () => {
  const faults: FramingFault[] = [];
  const { ch, got, listen } = channel({ maxLineBytes: 64, onFault: (f) => faults.push(f) });
  listen();
  ch.push("x".repeat(50));
  ch.push("y".repeat(50));
  ch.push('z\n{"jsonrpc":"2.0","method":"ok"}\n');
  assert.equal(got.length, 2);
  assert.equal(got[1], '{"jsonrpc":"2.0","method":"ok"}');
  // The fault reports the size only: the excerpts are the peer's data.
  assert.deepEqual(faults, [{ kind: "oversized", bytes: 101 }]);
  const d = decode(got[0]);
  assert.equal(d.kind, "invalid");
  assert.deepEqual(d.kind === "invalid" && { id: d.reply.id, code: d.reply.error.code, answers: d.answers }, { id: null, code: ErrorCode.InvalidRequest, answers: undefined });
});

test("basic/index Responses: an oversized response line, id last as SDK 1.x writes it, is delivered as a stand-in naming the request it answers", () => {
  const { ch, got, listen } = channel({ maxLineBytes: 64 });
  listen();
  ch.push(`{"result":{"content":[{"type":"text","text":"${"r".repeat(500)}"}]},`);
  ch.push('"jsonrpc":"2.0","id":41}\r\n');
  assert.equal(got.length, 1);
  const d = decode(got[0]);
  assert.ok(d.kind === "invalid");
  assert.equal(d.answers, 41);
  assert.equal(d.reply.id, null);
  assert.match(d.reason, /exceeds maxBytes \(64\)/);
});

test("messages framing: each chunk is one message; bytes are decoded, invalid UTF-8 becomes its stand-in", () => {
  const { ch, got, sink, listen } = channel({ framing: "messages" });
  listen();
  ch.push('{"a":"line\nbreak is fine here"}');
  ch.push(utf8.encode('{"b":1}'));
  ch.push(new Uint8Array([0xff]));
  ch.endInput(); // nothing pending in this framing
  assert.deepEqual(got, ['{"a":"line\nbreak is fine here"}', '{"b":1}', invalidUtf8StandIn("\uFFFD", "\uFFFD")]);
  ch.send('{"c":2}');
  assert.deepEqual(sink.writes, ['{"c":2}']);
});

// Transport contract: messages that arrive before a receiver is registered are buffered, in order.
test("messages that arrive before onMessage wait for it; a later onMessage replaces the receiver", () => {
  const { ch } = channel();
  ch.push('{"n":1}\n{"n":2}\n');
  const first: string[] = [];
  ch.onMessage((t) => first.push(t));
  assert.deepEqual(first, ['{"n":1}', '{"n":2}']);
  const second: string[] = [];
  ch.onMessage((t) => second.push(t));
  ch.push('{"n":3}\n');
  assert.deepEqual([first.length, second], [2, ['{"n":3}']]);
});

test("a receiver that closes the channel stops the delivery of the rest of the chunk", () => {
  const { ch } = channel();
  const got: string[] = [];
  ch.onMessage((t) => {
    got.push(t);
    ch.close();
  });
  ch.push('{"n":1}\n{"n":2}\n');
  assert.deepEqual(got, ['{"n":1}']);
});

// Transport contract: onClose is called exactly once, whichever side closed; close is idempotent; send after close is a no-op.
test("onClose fires once with the first reason; close is idempotent; send after close does nothing", () => {
  const { ch, sink, closes, teardowns, listen } = channel();
  listen();
  assert.equal(ch.closed, false);
  ch.close();
  ch.close();
  ch.closeWith("peer went away");
  ch.send('{"late":true}');
  assert.equal(ch.closed, true);
  assert.deepEqual(closes, [LOCAL_CLOSE_REASON]);
  assert.deepEqual(teardowns, [LOCAL_CLOSE_REASON]);
  assert.deepEqual([sink.writes, sink.ended], [[], 1]);
});

test("an onClose registered after the close is called at once; one that replaces it is told too (a second connection given a closed channel fails at once), none twice", () => {
  const { ch } = channel();
  ch.closeWith("gone");
  const closes: string[] = [];
  const first = (r: string) => closes.push(r);
  ch.onClose(first);
  ch.onClose((r) => closes.push("again " + r));
  ch.closeWith("later");
  assert.deepEqual(closes, ["gone", "again gone"]);
});

test("an endpoint attached to a channel that already closed fails to open at once with the close reason", async () => {
  const { ch } = channel();
  ch.onClose(() => {});
  ch.closeWith("the child exited");
  // A manual clock never fires the initialize timeout: only an immediate rejection settles this.
  const ep = attach(ch, { role: "client", info: { name: "c", version: "1" }, capabilities: {} }, {}, new ManualClock());
  await assert.rejects(ep.open(), (e: McpError) => e.code === ErrorCode.ConnectionClosed && e.message === "the child exited");
});

test("backpressure: once the sink is full, messages queue and go out as one write on drain", () => {
  const { ch, sink } = channel();
  sink.full = true;
  ch.send('{"n":1}');
  assert.ok(sink.drain, "waits for a drain");
  ch.send('{"n":2}');
  ch.send('{"n":3}');
  assert.equal(sink.writes.length, 1);
  sink.release(true); // the joined write fills the sink again
  assert.deepEqual(sink.writes, ['{"n":1}\n', '{"n":2}\n{"n":3}\n']);
  assert.ok(sink.drain, "waits again");
  ch.send('{"n":4}');
  sink.release();
  assert.deepEqual(sink.writes.slice(2), ['{"n":4}\n']);
  ch.send('{"n":5}');
  assert.deepEqual(sink.writes.slice(3), ['{"n":5}\n'], "written straight through again");
});

test("backpressure, messages framing: queued messages stay separate chunks", () => {
  const { ch, sink } = channel({ framing: "messages" });
  sink.full = true;
  ch.send("m1");
  ch.send("m2");
  ch.send("m3");
  sink.full = false;
  sink.write = function (chunk: string) {
    this.writes.push(chunk);
    return chunk !== "m2"; // full again after m2
  };
  const fn = sink.drain!;
  sink.drain = undefined;
  fn();
  assert.deepEqual(sink.writes, ["m1", "m2"]);
  sink.release();
  assert.deepEqual(sink.writes, ["m1", "m2", "m3"]);
  assert.equal(sink.drain, undefined);
});

test("backpressure, messages framing (README Limits: every buffer is bounded): a peer that reads on but never catches up (each drain takes as many messages as were sent meanwhile, so the backlog never empties) does not make the channel keep the messages it already wrote: what it holds stays about what is waiting", () => {
  const { ch, sink } = channel({ framing: "messages" });
  let room = 0;
  sink.write = function (chunk: string) {
    this.writes.push(chunk);
    return --room >= 0;
  };
  const message = "x".repeat(100);
  for (let i = 0; i < 100; i++) ch.send(message);
  for (let round = 0; round < 2000; round++) {
    for (let i = 0; i < 3; i++) ch.send(message);
    room = 2;
    const fn = sink.drain!;
    sink.drain = undefined;
    fn();
  }
  sink.writes.length = 0;
  assert.equal(ch.closed, false);
  const held = (ch as unknown as { queue: string[] }).queue.length;
  const waiting = (ch as unknown as { queuedChars: number }).queuedChars / message.length;
  assert.ok(waiting > 0, "a backlog is left");
  assert.ok(held <= 2 * waiting + 130, `holds ${held} messages for ${waiting} waiting`);
});

test("a drain that comes after the close writes nothing more", () => {
  const { ch, sink } = channel();
  sink.full = true;
  ch.send('{"n":1}');
  ch.send('{"n":2}');
  ch.closeWith("gone");
  const count = sink.writes.length;
  sink.release();
  assert.equal(sink.writes.length, count);
});

test("close still hands queued output to the sink (joined lines, or separate messages), then ends it", () => {
  for (const framing of ["ndjson", "messages"] as const) {
    const { ch, sink } = channel({ framing });
    sink.full = true;
    ch.send("a");
    ch.send("b");
    ch.send("c");
    ch.close();
    assert.deepEqual(sink.writes, framing === "ndjson" ? ["a\n", "b\nc\n"] : ["a", "b", "c"]);
    assert.equal(sink.ended, 1);
  }
});

// Backpressure (README "Limits": a limit gives a clear answer "while the connection serves
// on"): the peer is judged not reading by time (`maxStallMs`), not by one burst, and a hard
// bound of HARD_QUEUE_FACTOR × `maxQueuedChars` keeps memory bounded meanwhile.
test("backpressure (README Limits: the connection serves on): a burst over maxQueuedChars to a sink that drains later is delivered whole, in order, and the channel stays open", () => {
  const clock = new ManualClock();
  const { ch, sink, closes, listen } = channel({ maxQueuedChars: 10, maxStallMs: 1000, clock });
  listen();
  sink.full = true;
  ch.send("first");
  for (const m of ["12345", "678901", "abcdefghij"]) ch.send(m);
  clock.advance(999);
  assert.deepEqual(closes, [], "27 characters queued for a reading peer is not a dead connection");
  sink.release();
  assert.deepEqual(sink.writes, ["first\n", "12345\n678901\nabcdefghij\n"]);
  clock.advance(10_000);
  assert.deepEqual(closes, []);
  ch.send("next");
  assert.deepEqual(sink.writes.at(-1), "next\n");
  assert.equal(ch.closed, false);
});

test("backpressure: every drain restarts the maxStallMs wait; a queue still over the bound when the sink fills again waits anew", () => {
  const clock = new ManualClock();
  const { ch, sink, closes, listen } = channel({ framing: "messages", maxQueuedChars: 10, maxStallMs: 1000, clock });
  listen();
  sink.full = true;
  for (const m of ["first", "1234567890", "abcdefghij", "ABCDEFGHIJ"]) ch.send(m);
  clock.advance(900);
  // One chunk taken, then full again: 20 characters still wait, over the bound.
  sink.release(true);
  assert.deepEqual(sink.writes, ["first", "1234567890"]);
  clock.advance(900);
  assert.deepEqual(closes, [], "the drain at 900 ms restarted the wait");
  clock.advance(100);
  assert.equal(closes.length, 1);
  assert.match(closes[0], /the output did not drain for 1000 ms with 20 characters waiting/);
});

test("backpressure: a sink that never drains closes the channel after maxStallMs, saying the peer read nothing, and drops the queue", () => {
  const clock = new ManualClock();
  const { ch, sink, closes, listen } = channel({ maxQueuedChars: 10, maxStallMs: 30_000, clock });
  listen();
  sink.full = true;
  ch.send("first");
  ch.send("12345");
  ch.send("678901");
  clock.advance(29_999);
  assert.deepEqual(closes, []);
  clock.advance(1);
  assert.equal(closes.length, 1);
  assert.match(closes[0], /the output did not drain for 30000 ms with 13 characters waiting \(over maxQueuedChars 10\): the peer is not reading/);
  assert.deepEqual(sink.writes, ["first\n"]);
  assert.equal(sink.ended, 1);
});

test("backpressure: a queue over HARD_QUEUE_FACTOR × maxQueuedChars closes the channel at once, with a reason of its own, and drops the queue", () => {
  const clock = new ManualClock();
  const { ch, sink, closes, listen } = channel({ maxQueuedChars: 10, clock });
  listen();
  sink.full = true;
  ch.send("first");
  ch.send("x".repeat(HARD_QUEUE_FACTOR * 10 - 1)); // with its newline, exactly at the bound
  assert.deepEqual(closes, []);
  ch.send("y");
  assert.equal(closes.length, 1);
  assert.match(closes[0], /outgoing queue over 40 characters \(4 × maxQueuedChars\) before the peer took any of it/);
  assert.deepEqual(sink.writes, ["first\n"]);
  assert.equal(sink.ended, 1);
});

test("backpressure: the stall timer is cancelled when the channel closes, and when a drain comes; none outlives the channel", () => {
  const clock = new LiveTimersClock();
  const { ch, sink, closes, listen } = channel({ maxQueuedChars: 10, clock });
  listen();
  sink.full = true;
  ch.send("first");
  ch.send("x".repeat(20));
  assert.equal(clock.live.size, 1, "the stall timer is armed");
  sink.release(true);
  assert.equal(clock.live.size, 0, "a drain cancels it");
  ch.send("y".repeat(20));
  assert.equal(clock.live.size, 1, "armed anew");
  ch.close();
  assert.equal(clock.live.size, 0, "close cancels it");
  assert.deepEqual(closes, [LOCAL_CLOSE_REASON]);
});

// Write batching (stdio's newline-delimited framing; `basic/transports` "stdio": messages
// are delimited by newlines, so joined lines are the same messages): fewer writes, never a
// later one.
const turnEnd = () => new Promise<void>((r) => setImmediate(r));
const microtasks = () => new Promise<void>((r) => queueMicrotask(r));

test("batching: a burst in one turn is the first line at once and the rest joined in one write when the turn ends", async () => {
  const sink = new ScriptedSink();
  const ch = new StreamChannel(sink, { batchWrites: true });
  ch.send('{"a":1}');
  ch.send('{"b":2}');
  await microtasks();
  ch.send('{"c":3}'); // later in the same turn, after a microtask: still the same batch
  assert.deepEqual(sink.writes, ['{"a":1}\n'], "nothing but the first line before the turn ends");
  await turnEnd();
  assert.deepEqual(sink.writes, ['{"a":1}\n', '{"b":2}\n{"c":3}\n']);
});

test("batching: a lone message does not hold the next one back: after its microtasks, a send writes at once", async () => {
  const sink = new ScriptedSink();
  const ch = new StreamChannel(sink, { batchWrites: true });
  ch.send('{"a":1}');
  await microtasks();
  await microtasks();
  ch.send('{"b":2}'); // a sequential caller's next message, in the same turn
  assert.deepEqual(sink.writes, ['{"a":1}\n', '{"b":2}\n'], "written without waiting for the event loop");
});

test("batching: a batch that reaches 2 KiB is written at once, and the rest still joins the turn's write", async () => {
  const sink = new ScriptedSink();
  const ch = new StreamChannel(sink, { batchWrites: true });
  const big = `"${"x".repeat(1200)}"`;
  ch.send("1");
  ch.send(big);
  ch.send(big);
  assert.equal(sink.writes.length, 2, "the first line, then the two big ones as soon as they pass 2 KiB");
  ch.send("2");
  await turnEnd();
  assert.deepEqual(sink.writes.map((w) => w.length), [2, 2 * (big.length + 1), 2]);
});

test("batching: a burst of 64 calls reaches the peer in pieces of about a dozen, so it starts on the first while the rest are encoded", async () => {
  const sink = new ScriptedSink();
  const ch = new StreamChannel(sink, { batchWrites: true });
  const call = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_weather", arguments: { location: "San Francisco, CA", units: "metric" } } });
  for (let id = 0; id < 64; id++) ch.send(call(id));
  const beforeTurnEnd = sink.writes.length;
  await turnEnd();
  assert.ok(beforeTurnEnd >= 4, `${beforeTurnEnd} writes before the turn ended: the burst waited for it`);
  assert.ok(sink.writes.length <= 8, `${sink.writes.length} writes: batching no longer saves syscalls`);
  assert.equal(sink.writes.join(""), Array.from({ length: 64 }, (_, id) => call(id) + "\n").join(""), "every line, in order");
});

test("basic/transports (messages MUST be UTF-8; README: a malformed response fails the request it names at once): a client whose peer answers a call with a line that is not UTF-8 fails that call at once with -32603, not at its timeout, and serves on", async () => {
  const sink = new ScriptedSink();
  const ch = new StreamChannel(sink, { batchWrites: false });
  const ep = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: ["2025-11-25"] }, { send: (m) => ch.send(encode(m)) });
  ch.onMessage((t) => ep.receive(t));
  const idOf = (method: string) => sink.writes.map((w) => JSON.parse(w)).find((m) => m.method === method).id;
  const line = (value: object) => utf8.encode(JSON.stringify(value) + "\n");
  const opened = ep.open();
  ch.push(line({ jsonrpc: "2.0", id: idOf("initialize"), result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } }));
  await opened;
  const call = ep.request("tools/call", { name: "t" });
  const id = idOf("tools/call");
  // The bad bytes sit inside a string; the id, last, is still readable.
  ch.push(new Uint8Array([...utf8.encode('{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"'), 0xc3, 0x28, ...utf8.encode(`"}]},"id":${id}}\n`)]));
  await assert.rejects(call, (e: McpError) => e.code === ErrorCode.InternalError && /malformed response from the peer: message is not valid UTF-8/.test(e.message));
  const next = ep.request("tools/call", { name: "t" });
  ch.push(line({ jsonrpc: "2.0", id: sink.writes.map((w) => JSON.parse(w)).filter((m) => m.method === "tools/call").at(-1).id, result: { content: [] } }));
  assert.deepEqual(await next, { content: [] });
  ep.closed();
});
