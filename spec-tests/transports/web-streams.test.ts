/**
 * The Web Streams transport (src/transports/web-streams.ts): serialized, bounded writes,
 * both framings, encodings, and closes from either side or from a failing stream.
 * Spec: `basic/transports` of 2025-11-25 ("Custom Transports": the message format and
 * lifecycle are preserved) and draft `basic/transports/stdio` (custom transports over
 * byte streams "SHOULD reuse this framing").
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { ManualClock } from "../../src/driver/clock.js";
import type { Transport } from "../../src/api/transport.js";
import { INPUT_ENDED_REASON, LOCAL_CLOSE_REASON, type StreamChannel } from "../../src/transports/channel.js";
import { forwardText, webStreamsTransport } from "../../src/transports/web-streams.js";
import { errorText } from "../../src/transports/error-text.js";
import { CLIENT_NONE, SERVER_NONE, WEB_STREAMS_NONE } from "../harness/undefined-options.js";
import { collectUncaught } from "../harness/uncaught.js";

type Chunk = Uint8Array | string;

/** A writable whose writes stay pending until the test settles them, one at a time (or settle at once, with `auto`). */
function gatedWritable(highWaterMark = 1, auto = false) {
  const chunks: Chunk[] = [];
  const pending: { resolve(): void; reject(e: Error): void }[] = [];
  let arrived: (() => void) | undefined;
  const writable = new WritableStream<Chunk>(
    {
      write(chunk) {
        chunks.push(chunk);
        arrived?.();
        if (auto) return;
        return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
      },
    },
    new CountQueuingStrategy({ highWaterMark }),
  );
  return {
    writable,
    chunks,
    /** Resolves once `n` chunks have reached the underlying sink. */
    async reached(n: number) {
      while (chunks.length < n) await new Promise<void>((r) => (arrived = r));
    },
    settle(error?: Error) {
      const p = pending.shift()!;
      if (error) p.reject(error);
      else p.resolve();
    },
  };
}

function collect(t: Transport) {
  const got: string[] = [];
  let resolveClosed!: (r: string) => void;
  const closed = new Promise<string>((r) => (resolveClosed = r));
  t.onMessage((m) => got.push(m));
  t.onClose(resolveClosed);
  return { got, closed };
}

const text = (chunks: Chunk[]) => chunks.map((c) => (typeof c === "string" ? c : new TextDecoder().decode(c)));

test("writes are serialized: one write in flight, the rest queued and joined, in order", async () => {
  const w = gatedWritable();
  const t = webStreamsTransport(new ReadableStream<Chunk>(), w.writable);
  for (let i = 1; i <= 4; i++) t.send(`{"n":${i}}`);
  await w.reached(1);
  assert.deepEqual(text(w.chunks), ['{"n":1}\n'], "one write in flight");
  w.settle();
  await w.reached(2);
  // The writer had no room (high-water mark 1) until the first write settled; the other three waited and went out together.
  assert.deepEqual(text(w.chunks), ['{"n":1}\n', '{"n":2}\n{"n":3}\n{"n":4}\n']);
  w.settle();
  assert.ok(w.chunks.every((c) => c instanceof Uint8Array), "ndjson writes bytes by default");
  t.close();
});

test("writes are bounded: a peer that never drains closes the transport after maxStallMs with a clear reason", async () => {
  const w = gatedWritable();
  const clock = new ManualClock();
  const t = webStreamsTransport(new ReadableStream<Chunk>(), w.writable, { maxQueuedChars: 100, maxStallMs: 5_000, clock });
  const { closed } = collect(t);
  t.send("x".repeat(60));
  t.send("y".repeat(60));
  await w.reached(1);
  t.send("z".repeat(60));
  clock.advance(5_000);
  assert.match(await closed, /the output did not drain for 5000 ms with 122 characters waiting \(over maxQueuedChars 100\): the peer is not reading/);
});

// README "Limits": a limit gives a clear answer "while the connection serves on". The
// audit's case scaled down a thousandfold: six concurrent calls whose arguments, then
// whose answers, together pass maxQueuedChars in one burst, to a peer that reads.
test("writes are bounded by time, not by one burst: six concurrent calls with 3.5 Ki arguments, and six 3.5 Ki answers, over a 16 Ki maxQueuedChars, all arrive and the connection serves on", async () => {
  const up = new TransformStream<Chunk, Chunk>();
  const down = new TransformStream<Chunk, Chunk>();
  // A clock that never moves: only the burst, never a stall, could close the connection.
  const options = { maxQueuedChars: 16 * 1024, clock: new ManualClock() };
  const server = new McpServer({ name: "s", version: "1" }, { clock: new ManualClock() });
  server.tool("len", { inputSchema: { type: "object" } }, (a) => ({ content: [{ type: "text", text: String((a.s as string).length) }] }));
  server.tool("big", { inputSchema: { type: "object" } }, (a) => ({ content: [{ type: "text", text: "x".repeat(a.n as number) }] }));
  server.connect(webStreamsTransport(up.readable, down.writable, options));
  const client = new McpClient({ name: "c", version: "1" }, { clock: new ManualClock() });
  const transport = webStreamsTransport(down.readable, up.writable, options);
  await client.connect(transport);
  const size = 3.5 * 1024;
  const lengths = await Promise.all("abcdef".split("").map((ch) => client.callTool("len", { s: ch.repeat(size) })));
  assert.deepEqual(lengths.map((r) => (r.content[0] as { text: string }).text), Array(6).fill(String(size)));
  const answers = await Promise.all(Array.from({ length: 6 }, () => client.callTool("big", { n: size })));
  assert.ok(answers.every((r) => (r.content[0] as { text: string }).text.length === size));
  assert.equal((transport as StreamChannel).closed, false);
  await client.close();
});

// README "Options checked where they are given": an option given as undefined is read as
// one left out. The adapter's default of `batchWrites` (on) was spread under the options,
// and an undefined one turned it off.
test('README "Options checked where they are given" (an option given as undefined is read as left out): webStreamsTransport with every option undefined carries a round trip as ndjson bytes, and joins a burst sent in one turn into one write as by default', async () => {
  const w = gatedWritable(16, true);
  const t = webStreamsTransport(new ReadableStream<Chunk>(), w.writable, WEB_STREAMS_NONE);
  t.send('{"n":1}');
  t.send('{"n":2}');
  t.send('{"n":3}');
  await new Promise<void>((r) => setImmediate(r));
  await w.reached(2);
  assert.deepEqual(text(w.chunks), ['{"n":1}\n', '{"n":2}\n{"n":3}\n'], "the first line at once, the rest of the turn's in one write");
  assert.ok(w.chunks.every((c) => c instanceof Uint8Array), "ndjson bytes");
  t.close();

  const up = new TransformStream<Chunk, Chunk>();
  const down = new TransformStream<Chunk, Chunk>();
  const server = new McpServer({ name: "s", version: "1" }, SERVER_NONE);
  server.tool("echo", {}, (a) => ({ content: [{ type: "text", text: JSON.stringify(a) }] }));
  server.connect(webStreamsTransport(up.readable, down.writable, WEB_STREAMS_NONE));
  const client = new McpClient({ name: "c", version: "1" }, CLIENT_NONE);
  await client.connect(webStreamsTransport(down.readable, up.writable, WEB_STREAMS_NONE));
  assert.deepEqual((await client.callTool("echo", { x: 1 })).content, [{ type: "text", text: '{"x":1}' }]);
  await client.close();
});

test("a writable with highWaterMark 0 (never 'ready', yet its sink takes every write) gets every message: the next write follows the last one's completion", async () => {
  const w = gatedWritable(0, true);
  const t = webStreamsTransport(new ReadableStream<Chunk>(), w.writable, { batchWrites: false });
  t.send('{"n":1}');
  t.send('{"n":2}');
  await w.reached(2);
  t.send('{"n":3}');
  await w.reached(3);
  assert.deepEqual(text(w.chunks), ['{"n":1}\n', '{"n":2}\n', '{"n":3}\n']);
  t.close();
});

test("messages framing writes strings, one message per chunk; encoding can be overridden", async () => {
  const w = gatedWritable(16, true);
  const t = webStreamsTransport(new ReadableStream<Chunk>(), w.writable, { framing: "messages" });
  t.send('{"a":1}');
  t.send('{"b":2}');
  await w.reached(2);
  assert.deepEqual(w.chunks, ['{"a":1}', '{"b":2}']);
  const w2 = gatedWritable(16, true);
  const t2 = webStreamsTransport(new ReadableStream<Chunk>(), w2.writable, { encoding: "text" });
  t2.send("{}");
  await w2.reached(1);
  assert.deepEqual(w2.chunks, ["{}\n"]);
  t.close();
  t2.close();
});

test("the peer ending its stream closes this side; a last line without newline is delivered first", async () => {
  const readable = new ReadableStream<Chunk>({
    start(c) {
      c.enqueue('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc"');
      c.enqueue(new TextEncoder().encode(':"2.0","method":"b"}'));
      c.close();
    },
  });
  const t = webStreamsTransport(readable, new WritableStream<Chunk>());
  const { got, closed } = collect(t);
  assert.equal(await closed, INPUT_ENDED_REASON);
  assert.deepEqual(got, ['{"jsonrpc":"2.0","method":"a"}', '{"jsonrpc":"2.0","method":"b"}']);
});

// transport contract (src/api/transport.ts): onClose is called "whether the close came from this side or the peer", so also for a close before connect.
test("McpServer.connect on a transport whose peer hung up before the call returns the endpoint closed, keeping no connection", async () => {
  const readable = new ReadableStream<Chunk>({ start: (c) => c.close() });
  const t = webStreamsTransport(readable, new WritableStream<Chunk>()) as StreamChannel;
  for (let turn = 0; turn < 10 && !t.closed; turn++) await new Promise((r) => setImmediate(r));
  assert.equal(t.closed, true, "the transport saw the end of input before connect");
  const server = new McpServer({ name: "s", version: "1" }, { clock: new ManualClock() });
  const endpoint = server.connect(t);
  assert.equal(server.connectionCount, 0);
  await assert.rejects(endpoint.request("ping"), { code: -32000 });
});

test("McpServer.connect on a transport holding the client's first messages serves them, notifications included, during the call (listeners get the endpoint as peer)", async () => {
  const lines = [
    { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { roots: { listChanged: true } }, clientInfo: { name: "c", version: "1" } } },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
  ];
  const readable = new ReadableStream<Chunk>({ start: (c) => c.enqueue(lines.map((l) => JSON.stringify(l) + "\n").join("")) });
  const w = gatedWritable(16, true);
  const t = webStreamsTransport(readable, w.writable) as StreamChannel;
  // Read into the channel's inbox before anyone listens.
  for (let turn = 0; turn < 3; turn++) await new Promise((r) => setImmediate(r));
  const server = new McpServer({ name: "s", version: "1" }, { clock: new ManualClock() });
  const seen: unknown[] = [];
  server.onNotification("notifications/roots/list_changed", (_params, peer) => seen.push(peer));
  const endpoint = server.connect(t);
  assert.deepEqual(seen, [endpoint], "delivered during the call, with the endpoint as peer");
  assert.equal(server.connectionCount, 1);
  await w.reached(1);
  assert.match(text(w.chunks)[0], /"id":1,"result":\{"protocolVersion":"2025-11-25"/);
  assert.deepEqual(await Promise.race([endpoint.request("ping").then(() => "answered", () => "failed"), "pending"]), "pending", "the connection is open");
  t.close();
});

test("a failing readable closes the transport, naming the failure", async () => {
  const readable = new ReadableStream<Chunk>({
    pull(c) {
      c.error(new Error("socket reset"));
    },
  });
  const { closed } = collect(webStreamsTransport(readable, new WritableStream<Chunk>()));
  assert.equal(await closed, "read failed: socket reset");
});

// README Driver: an endpoint rethrows a hook's error from receive() once its step is done;
// the transport contract (src/api/transport.ts) has a throwing receiver cost it nothing.
test("a receiver that throws (an Endpoint rethrowing its hook's error from receive) costs the transport nothing: the rest of the chunk and later chunks are delivered, the transport stays open, and the error is rethrown on a fresh microtask (it read as a failed read: the rest of the chunk was lost and the transport closed)", { timeout: 10_000 }, async () => {
  let feed!: ReadableStreamDefaultController<Chunk>;
  const readable = new ReadableStream<Chunk>({ start: (c) => void (feed = c) });
  const t = webStreamsTransport(readable, new WritableStream<Chunk>()) as StreamChannel;
  const got: string[] = [];
  t.onMessage((m) => {
    got.push(m);
    if (got.length === 1) throw new Error("hook failed");
  });
  let closedWith: string | undefined;
  t.onClose((r) => (closedWith = r));
  const { thrown, restore } = collectUncaught();
  try {
    feed.enqueue('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","method":"b"}\n');
    while (got.length < 2 && closedWith === undefined) await new Promise((r) => setImmediate(r));
    feed.enqueue('{"jsonrpc":"2.0","method":"c"}\n');
    while (got.length < 3 && closedWith === undefined) await new Promise((r) => setImmediate(r));
  } finally {
    restore();
  }
  assert.equal(closedWith, undefined, "the transport stays open");
  assert.deepEqual(got, ['{"jsonrpc":"2.0","method":"a"}', '{"jsonrpc":"2.0","method":"b"}', '{"jsonrpc":"2.0","method":"c"}']);
  assert.deepEqual(thrown.map((e) => (e as Error).message), ["hook failed"], "rethrown once, not swallowed");
  t.close();
});

test("a failing writable closes the transport, naming the failure", async () => {
  const w = gatedWritable();
  const t = webStreamsTransport(new ReadableStream<Chunk>(), w.writable);
  const { closed } = collect(t);
  t.send("{}");
  await w.reached(1);
  w.settle(new Error("broken pipe"));
  assert.equal(await closed, "write failed: broken pipe");
  t.send("{}"); // a no-op now
});

test("a writable that errors while the transport waits for room (no write in flight) closes the transport, naming the failure", async () => {
  let controller!: WritableStreamDefaultController;
  let release: (() => void) | undefined;
  // highWaterMark 1 and a write that hangs: the second message finds the writer full and waits on writer.ready.
  const writable = new WritableStream<Chunk>({ start: (c) => void (controller = c), write: () => new Promise<void>((r) => (release = r)) }, { highWaterMark: 1 });
  const t = webStreamsTransport(new ReadableStream<Chunk>(), writable, { framing: "messages" });
  const { closed } = collect(t);
  t.send("{}");
  t.send("{}");
  while (release === undefined) await new Promise((r) => setImmediate(r));
  // The write in flight completes; then the peer goes away while the channel still waits.
  release();
  await new Promise((r) => setImmediate(r));
  controller.error(new Error("peer went away"));
  assert.equal(await closed, "write failed: peer went away");
});

test("a writable that fails with nothing being written closes the transport at once: a request in flight fails then, not at its timeout", async () => {
  let controller!: WritableStreamDefaultController;
  const writable = new WritableStream<Chunk>({ start: (c) => void (controller = c) });
  const fromServer = new TransformStream<Chunk, Chunk>();
  const client = new McpClient({ name: "c", version: "1" }, { session: { versions: ["2025-11-25"], requestTimeoutMs: 600_000 } });
  const t = webStreamsTransport(fromServer.readable, writable);
  const connecting = client.connect(t);
  // The initialize request was written; the socket behind the writable dies while the client waits.
  await new Promise((r) => setImmediate(r));
  controller.error(new Error("socket closed"));
  let outcome: unknown = "still pending";
  connecting.then(() => (outcome = "connected"), (e: Error) => (outcome = e.message));
  for (let turn = 0; turn < 50 && outcome === "still pending"; turn++) await new Promise((r) => setImmediate(r));
  assert.match(String(outcome), /write failed: socket closed/);
  await unlockedSoon(fromServer.readable, writable);
});

test("the peer cancelling the other end of our writable (a pipe's reader going away) closes this side, naming the failure", async () => {
  const down = new TransformStream<Chunk, Chunk>();
  const up = new TransformStream<Chunk, Chunk>();
  const t = webStreamsTransport(down.readable, up.writable);
  const { closed } = collect(t);
  await up.readable.cancel(new Error("peer gone"));
  assert.equal(await closed, "write failed: peer gone");
});

// A peer's transport closing cancels its reader without a reason (the user's stream: a
// reason would reach its source), so our next write rejects with `undefined`.
test("the other end cancelled without a reason (a peer transport that closed) closes this side saying so, not \"undefined\"", async () => {
  const down = new TransformStream<Chunk, Chunk>();
  const up = new TransformStream<Chunk, Chunk>();
  const t = webStreamsTransport(down.readable, up.writable);
  const { closed } = collect(t);
  await up.readable.cancel();
  t.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  assert.equal(await closed, "write failed: the stream was closed by its other end");
});

test("the other end aborted without a reason (a peer's writable.abort() across a TransformStream) closes this side saying so, not \"read failed: undefined\"", { timeout: 10_000 }, async () => {
  const down = new TransformStream<Chunk, Chunk>();
  const { closed } = collect(webStreamsTransport(down.readable, new WritableStream<Chunk>()));
  await down.writable.abort();
  assert.equal(await closed, "read failed: the stream was aborted by its other end");
});

test("once closed, from either side, both streams are unlocked again for the caller's own clean-up", async () => {
  const down = new TransformStream<Chunk, Chunk>();
  const up = new TransformStream<Chunk, Chunk>();
  const t = webStreamsTransport(down.readable, up.writable);
  assert.equal(down.readable.locked && up.writable.locked, true, "locked while open");
  const { closed } = collect(t);
  t.close();
  await closed;
  await unlockedSoon(down.readable, up.writable);
  await up.writable.abort(); // would throw while locked
  const down2 = new TransformStream<Chunk, Chunk>();
  const up2 = new TransformStream<Chunk, Chunk>();
  const peerEnded = collect(webStreamsTransport(down2.readable, up2.writable));
  await down2.writable.close();
  assert.equal(await peerEnded.closed, INPUT_ENDED_REASON);
  await unlockedSoon(down2.readable, up2.writable);
  // A peer that stopped reading: the close can never settle, and the caller must still be able to abort.
  const stuck = gatedWritable();
  const readable3 = new ReadableStream<Chunk>();
  const t3 = webStreamsTransport(readable3, stuck.writable);
  const closed3 = collect(t3).closed;
  t3.send("{}");
  await stuck.reached(1);
  t3.close();
  await closed3;
  await unlockedSoon(readable3, stuck.writable);
  const aborted = stuck.writable.abort(new Error("the caller's clean-up")); // rejects while locked
  stuck.settle(); // the write in flight ends; the abort then completes
  await aborted;
});

test("a transport that cannot be made (a writable already locked, an option it would misread) throws and leaves both streams unlocked, as a closed one does", () => {
  const readable = new ReadableStream<Chunk>();
  const writable = new WritableStream<Chunk>();
  assert.throws(() => webStreamsTransport(readable, writable, { maxStallMs: "5" as unknown as number }), RangeError);
  assert.deepEqual({ readable: readable.locked, writable: writable.locked }, { readable: false, writable: false });
  const lockedWritable = new WritableStream<Chunk>();
  const theirs = lockedWritable.getWriter();
  assert.throws(() => webStreamsTransport(readable, lockedWritable), TypeError);
  assert.equal(readable.locked, false, "the readable can still be read or cancelled by the caller");
  theirs.releaseLock();
  const t = webStreamsTransport(readable, lockedWritable);
  t.close();
});

/** Waits a few turns (the close settles through promises) for both streams to be unlocked; fails if they stay locked. */
async function unlockedSoon(readable: ReadableStream<Chunk>, writable: WritableStream<Chunk>): Promise<void> {
  for (let turn = 0; turn < 50 && (readable.locked || writable.locked); turn++) await new Promise((r) => setImmediate(r));
  assert.deepEqual({ readable: readable.locked, writable: writable.locked }, { readable: false, writable: false });
}

test("closing this side closes the writable (the peer sees the end) and cancels the readable", async () => {
  let cancelled: unknown = "not cancelled";
  const readable = new ReadableStream<Chunk>({ cancel: (r) => void (cancelled = r) });
  const up = new TransformStream<Chunk, Chunk>();
  const t = webStreamsTransport(readable, up.writable);
  const peer = webStreamsTransport(up.readable, new WritableStream<Chunk>());
  const p = collect(peer);
  const { closed } = collect(t);
  t.send('{"jsonrpc":"2.0","method":"bye"}');
  t.close();
  assert.equal(await closed, LOCAL_CLOSE_REASON);
  assert.equal(await p.closed, INPUT_ENDED_REASON);
  assert.deepEqual(p.got, ['{"jsonrpc":"2.0","method":"bye"}'], "queued output was delivered before the end");
  assert.equal(cancelled, undefined);
});

test("forwardText decodes a byte stream, characters split across chunks included", async () => {
  const bytes = new TextEncoder().encode("log: é ok");
  const at = bytes.indexOf(0xc3) + 1;
  const pieces: string[] = [];
  await forwardText(
    new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.subarray(0, at));
        c.enqueue(bytes.subarray(at));
        c.enqueue(new Uint8Array([0xe2, 0x82])); // an unfinished character at the end
        c.close();
      },
    }).getReader(),
    (t) => pieces.push(t),
  );
  assert.equal(pieces.join(""), "log: é ok\uFFFD");
  const broken: string[] = [];
  await forwardText(new ReadableStream<Uint8Array>({ pull: (c) => c.error(new Error("x")) }).getReader(), (t) => broken.push(t));
  assert.deepEqual(broken, []);
});

// stdio (basic/transports): the client "MAY capture, forward, or ignore" the server's stderr.
// A callback that throws (a logger parsing a line it cannot) must not stop the reading:
// the loop ended, unseen, and the server blocked writing its next logs once the pipe was full.
test("forwardText: a callback that throws is rethrown on a fresh microtask, and the rest of the stream is still read", async () => {
  const texts: string[] = [];
  const { thrown, restore } = collectUncaught();
  try {
    await forwardText(
      new ReadableStream<Uint8Array>({
        start(c) {
          for (const t of ["one\n", "two\n", "three\n"]) c.enqueue(new TextEncoder().encode(t));
          c.close();
        },
      }).getReader(),
      (t) => {
        texts.push(t);
        if (texts.length === 1) throw new Error("logger failed");
      },
    );
    await new Promise((r) => setImmediate(r));
  } finally {
    restore();
  }
  assert.deepEqual(texts, ["one\n", "two\n", "three\n"]);
  assert.deepEqual(thrown.map((e) => (e as Error).message), ["logger failed"], "rethrown once, not swallowed");
});

test("errorText reads an Error's message or stringifies anything else; a cause tells why (undici's fetch failed), whatever it holds", () => {
  assert.equal(errorText(new Error("m")), "m");
  assert.equal(errorText(42), "42");
  assert.equal(errorText(new Error("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }) })), "fetch failed (connect ECONNREFUSED 127.0.0.1:1)");
  assert.equal(errorText(new Error("fetch failed", { cause: Object.assign(new AggregateError([], ""), { code: "ECONNREFUSED" }) })), "fetch failed (ECONNREFUSED)");
  const odd = Object.assign(new Error("x"), { code: "E1" });
  Object.defineProperty(odd, "message", { value: undefined });
  assert.equal(errorText(new Error("fetch failed", { cause: odd })), "fetch failed (E1)");
  const hostile = new Error("x");
  Object.defineProperty(hostile, "cause", { get: () => { throw new Error("cause getter"); } });
  assert.equal(errorText(hostile), "an error that could not be read");
});
