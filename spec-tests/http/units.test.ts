// Spec: 2025-11-25 basic/transports ("Resumability and Redelivery": event ids identify
// the stream; "Session Management": session ids are visible ASCII; "Sending Messages":
// Accept). Unit tests of the pure helpers behind the HTTP transport.
import { test } from "node:test";
import type { ChunkRead } from "../../src/transports/http-view.js";
import assert from "node:assert/strict";
import { EventStore, formatEventId, parseEventId, type StreamLog } from "../../src/transports/http/event-log.js";
import { OVERFLOW_GRACE_MS, READ_CHUNK_BYTES, SseConnection } from "../../src/transports/http/connection.js";
import { ManualClock } from "../../src/driver/clock.js";
import { accepts, hostnameOf, isHeaderName, isJsonContentType, isLoopbackOrigin, isSafeHeaderValue, isVisibleAscii, mediaTypeOf, randomSessionId, allowPredicate } from "../../src/transports/http/headers.js";

/** The lowest sequence number a log still holds, or `lastSeq + 1` when it holds none. */
function firstSeq(log: StreamLog): number {
  return log.after(0)[0]?.seq ?? log.lastSeq + 1;
}

test("event ids encode the stream and the sequence, and read back; anything else is refused", () => {
  assert.equal(formatEventId(3, 17), "3-17");
  assert.deepEqual(parseEventId("3-17"), { stream: 3, seq: 17 });
  assert.deepEqual(parseEventId("0-0"), { stream: 0, seq: 0 });
  for (const bad of ["", "-", "3", "3-", "-17", "a-1", "1-b", "1-2-3", " 1-2", "1-2 ", "1234567890123456-1"]) assert.equal(parseEventId(bad), undefined, bad);
});

test("replay store: each stream keeps at most maxEventsPerStream, oldest evicted first; undelivered evictions are reported", () => {
  const lost: number[] = [];
  const store = new EventStore({ maxEventsPerStream: 2 }, (_log, seq) => lost.push(seq));
  const log = store.createLog(1, store.createSession("s"));
  assert.equal(firstSeq(log), 1);
  store.append(log, "a", true);
  store.append(log, "b", false);
  store.append(log, "c", false);
  assert.deepEqual(log.after(0).map((e) => e.data), ["b", "c"]);
  assert.equal(firstSeq(log), 2);
  assert.deepEqual(lost, [], "a was written before it was evicted");
  store.append(log, "d", false);
  assert.deepEqual(lost, [2]);
  assert.deepEqual(log.after(3).map((e) => e.seq), [4]);
  assert.equal(store.count, 2);
  assert.equal(store.size, 2);
});

test("replay store: the total size bound evicts the globally oldest event, across streams", () => {
  const store = new EventStore({ maxTotalSize: 10, maxSessionSize: 10 });
  const session = store.createSession("s");
  const a = store.createLog(1, session);
  const b = store.createLog(2, session);
  store.append(a, "aaaa", true);
  store.append(b, "bbbb", true);
  store.append(a, "cccc", true);
  assert.deepEqual(a.after(0).map((e) => e.data), ["cccc"]);
  assert.deepEqual(b.after(0).map((e) => e.data), ["bbbb"]);
  assert.equal(store.size, 8);
  // One event bigger than the whole store evicts everything, itself included; written, it is not lost.
  store.append(b, "x".repeat(11), true);
  assert.equal(store.count, 0);
  assert.equal(b.size, 0);
  assert.equal(firstSeq(b), b.lastSeq + 1);
  store.drop(a);
  assert.equal(store.size, 0);
});

test("replay store: the global eviction skips events a per-stream eviction already removed", () => {
  const store = new EventStore({ maxEventsPerStream: 1, maxTotalSize: 7, maxSessionSize: 7 });
  const session = store.createSession("s");
  const a = store.createLog(1, session);
  const b = store.createLog(2, session);
  store.append(a, "aaaa", true);
  store.append(a, "bbbb", true); // per stream: "aaaa" goes
  store.append(b, "cccc", true); // in total: the oldest live one, "bbbb", goes
  assert.deepEqual(a.after(0).map((e) => e.data), []);
  assert.deepEqual(b.after(0).map((e) => e.data), ["cccc"]);
  assert.equal(store.size, 4);
  assert.equal(store.count, 1);
});

test("replay store: a session past its share (default half the store) evicts its own events, history first, never another session's; removed events release their text at once", () => {
  const lost: string[] = [];
  const store = new EventStore({ maxTotalSize: 20 }, (log, seq) => lost.push(`${log.session.sessionId}:${seq}`));
  assert.equal(store.maxSessionSize, 10);
  const victim = store.createLog(1, store.createSession("victim"));
  const noisy = store.createSession("noisy");
  const a = store.createLog(1, noisy);
  const b = store.createLog(2, noisy);
  store.append(victim, "vvvv", false);
  store.append(a, "aaaa", true);
  const [old] = a.after(0);
  store.append(b, "bbbb", false);
  store.append(a, "cccc", true); // noisy holds 12 > 10: its own oldest, "aaaa", goes
  assert.equal(old.log, null);
  assert.equal(old.data, "", "a removed event keeps no text");
  assert.equal(noisy.size, 8);
  store.append(b, "dddd", false); // written "cccc" goes before the older undelivered "bbbb"
  assert.deepEqual(a.after(0), []);
  assert.deepEqual(lost, []);
  store.append(b, "ffff", false); // no history left: the oldest undelivered, "bbbb" (of another stream of the same session), goes: lost
  assert.deepEqual(lost, ["noisy:1"]);
  assert.deepEqual(b.after(0).map((e) => e.data), ["dddd", "ffff"]);
  for (let i = 0; i < 100; i++) store.append(a, "eeeeeeeeee", true);
  assert.deepEqual(victim.after(0).map((e) => e.data), ["vvvv"], "the other session's undelivered event stays");
  assert.deepEqual(b.after(0).map((e) => e.data), ["dddd", "ffff"], "written events make way for the session's undelivered ones");
  assert.deepEqual(lost, ["noisy:1"]);
  assert.ok(noisy.size <= 10 && store.size <= 20);
  assert.equal(store.size, victim.session.size + noisy.size);
  store.drop(a);
  store.drop(b);
  assert.equal(noisy.size, 0);
  assert.equal(store.size, 4);
});

test("replay store: past the shared bound, written history goes first, across sessions: sessions each within their share cannot push out a small session's undelivered message while history is left", () => {
  const lost: string[] = [];
  const store = new EventStore({ maxTotalSize: 40 }, (log, seq) => lost.push(`${log.session.sessionId}:${seq}`));
  const victim = store.createLog(1, store.createSession("victim"));
  store.append(victim, "vv", false);
  const others = ["a", "b", "c"].map((id) => store.createLog(1, store.createSession(id)));
  for (let i = 0; i < 10; i++) for (const log of others) store.append(log, "x".repeat(10), true);
  assert.deepEqual(victim.after(0).map((e) => e.data), ["vv"], "the oldest event, but undelivered: it stays");
  assert.deepEqual(lost, []);
  assert.ok(store.size <= 40);
  // Sessions that never read their messages leave no history: then undelivered messages go,
  // the oldest of the session holding the most, not the small session's older one.
  for (let i = 0; i < 2; i++) for (const log of others) store.append(log, "z".repeat(10), false);
  assert.deepEqual(lost.slice(0, 2), ["a:11", "b:11"]);
  assert.deepEqual(victim.after(0).map((e) => e.data), ["vv"]);
  assert.ok(store.size <= 40);
});

test("replay store: a busy session's newest undelivered answer is not evicted for older written history, its own or any other session's", () => {
  const lost: string[] = [];
  const store = new EventStore({ maxTotalSize: 30, maxSessionSize: 20 }, (log, seq) => lost.push(`${log.session.sessionId}:${seq}`));
  const quiet = store.createLog(1, store.createSession("quiet"));
  const busy = store.createSession("busy");
  const post = store.createLog(1, busy);
  const get = store.createLog(2, busy);
  store.append(quiet, "q".repeat(10), true);
  store.append(get, "g".repeat(10), true);
  store.append(post, "a".repeat(10), false); // the store is full
  store.append(post, "b".repeat(10), false); // busy is past its share: its own history goes
  assert.deepEqual(get.after(0), []);
  assert.deepEqual(post.after(0).map((e) => e.data[0]), ["a", "b"]);
  store.append(get, "n".repeat(5), false); // past its share again with no history: its oldest undelivered goes
  assert.deepEqual(lost, ["busy:1"]);
  store.append(quiet, "r".repeat(10), true); // quiet's own written events make way, then the store's oldest history
  assert.deepEqual(quiet.after(0).map((e) => e.data[0]), ["r"]);
  assert.deepEqual(post.after(0).map((e) => e.data[0]), ["b"]);
  assert.deepEqual(get.after(0).map((e) => e.data[0]), ["n"]);
  assert.deepEqual(lost, ["busy:1"]);
});

test("replay store: under a long random mix of sessions, streams, writes and drops, every bound holds after every step, an undelivered message is lost only when its session holds no history, and the queues stay compact", () => {
  let seed = 12345;
  let lost = 0;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  const sessions = ["s0", "s1", "s2", "s3"];
  const logs: StreamLog[] = [];
  let dropping = false;
  const store = new EventStore({ maxTotalSize: 200, maxSessionSize: 80 }, (log) => {
    if (dropping) return; // a stream forgotten, not an eviction
    lost++;
    const held = logs.filter((l) => l.session === log.session).flatMap((l) => l.after(0).filter((e) => e.seq <= l.written));
    assert.deepEqual(held, [], "no history left in the session of a lost message");
  });
  const shares = sessions.map((id) => store.createSession(id));
  for (const session of shares) for (let no = 1; no <= 2; no++) logs.push(store.createLog(no, session));
  for (let step = 0; step < 50_000; step++) {
    const log = logs[rand(logs.length)];
    const op = rand(20);
    if (op < 14) store.append(log, "x".repeat(1 + rand(30)), op < 6);
    else if (op < 18) store.markWritten(log, log.written + rand(3));
    else if (op < 19) store.reserve(log);
    else {
      dropping = true;
      store.drop(log);
      dropping = false;
      logs[logs.indexOf(log)] = store.createLog(log.stream + 2, log.session);
    }
    assert.ok(store.size <= 200, `step ${step}: ${store.size} in the store`);
    for (const session of shares) assert.ok(session.size <= 80);
    assert.equal(store.size, shares.reduce((n, s) => n + s.size, 0));
    assert.equal(store.count, logs.reduce((n, l) => n + l.size, 0));
  }
  assert.ok(lost > 0, "undelivered messages were evicted too");
  // Tombstones are compacted away: the queues hold a bounded multiple of the live events.
  const queues = store as unknown as Record<"history" | "undelivered", { items: unknown[] }>;
  assert.ok(queues.history.items.length + queues.undelivered.items.length <= 4 * store.count + 4096);
});

test("SSE connection: the server closing first means a later cancel by the reader is not reported; a write after close is refused", async () => {
  let cancels = 0;
  const conn = new SseConnection(() => cancels++, { clock: new ManualClock(), maxQueuedBytes: 1000, sseKeepAliveMs: 0 });
  assert.equal(conn.write("data: x\n\n"), true);
  conn.close();
  conn.close();
  assert.equal(conn.write("data: y\n\n"), false);
  await conn.body.getReader().cancel();
  assert.equal(cancels, 0);
  const live = new SseConnection(() => cancels++, { clock: new ManualClock(), maxQueuedBytes: 1000, sseKeepAliveMs: 0 });
  await live.body.cancel();
  assert.equal(cancels, 1);
});

test("SSE connection, read a chunk at a time: a waiting read takes the next write; a read takes what is queued as one chunk; after close the reader gets what was queued, then the end; a cancel drops the queue and is reported once; one read at a time", async () => {
  const text = (r: ChunkRead) => (r.done ? "END" : new TextDecoder().decode(r.value));
  let cancels = 0;
  const conn = new SseConnection(() => cancels++, { clock: new ManualClock(), maxQueuedBytes: 1000, sseKeepAliveMs: 0 });
  const waiting = conn.read();
  await assert.rejects(conn.read(), /one read at a time/);
  conn.write("data: a\n\n");
  assert.equal(text(await waiting), "data: a\n\n");
  conn.write("data: b\n\n");
  conn.write("data: c\n\n");
  conn.close();
  assert.deepEqual([text(await conn.read()), text(await conn.read())], ["data: b\n\ndata: c\n\n", "END"]);
  const live = new SseConnection(() => cancels++, { clock: new ManualClock(), maxQueuedBytes: 1000, sseKeepAliveMs: 0 });
  live.write("data: queued\n\n");
  const pending = new SseConnection(() => cancels++, { clock: new ManualClock(), maxQueuedBytes: 1000, sseKeepAliveMs: 0 });
  const stillWaiting = pending.read();
  live.cancel();
  live.cancel();
  pending.cancel();
  assert.equal(text(await live.read()), "END", "what was queued is dropped");
  assert.equal(text(await stillWaiting), "END", "a waiting read ends");
  assert.equal(live.write("data: late\n\n"), false);
  assert.equal(cancels, 2);
});

test("SSE connection: what a body holds when it ends (past maxQueuedBytes, or closed by the server behind a reader that has been reading) has OVERFLOW_GRACE_MS to be read; then the body fails (reads reject, onFail runs, the web stream errors). A body read to its end, or cancelled, cancels that timer; one closed before its first read arms none", async () => {
  const clock = new ManualClock();
  const config = { clock, maxQueuedBytes: 20, sseKeepAliveMs: 0 };
  let cancels = 0;
  const slow = new SseConnection(() => cancels++, config);
  let failed = 0;
  slow.onFail(() => failed++);
  slow.write("data: 0123456789\n\n");
  slow.write("data: 0123456789\n\n");
  assert.equal(slow.write("data: z\n\n"), false, "closed by the overflow: a write is refused");
  assert.equal(cancels, 1, "reported as a reader gone");
  clock.advance(OVERFLOW_GRACE_MS);
  assert.equal(failed, 1);
  await assert.rejects(slow.read(), /fell more than maxQueuedBytes behind/);
  const web = new SseConnection(() => {}, config);
  const reader = web.body.getReader();
  web.write("data: 0123456789\n\n");
  web.write("data: 0123456789\n\n");
  clock.advance(OVERFLOW_GRACE_MS);
  await assert.rejects(reader.read(), /fell more than maxQueuedBytes behind/);
  // A reader that read, then stopped (a paused socket), while the server wrote and closed the stream.
  const paused = new SseConnection(() => cancels++, { ...config, maxQueuedBytes: 1000 });
  let pausedFailed = 0;
  paused.onFail(() => pausedFailed++);
  paused.write("data: first\n\n");
  await paused.read();
  paused.write("data: never read\n\n");
  paused.close();
  clock.advance(OVERFLOW_GRACE_MS);
  assert.equal(pausedFailed, 1);
  await assert.rejects(paused.read(), /did not take the rest of a stream the server ended/);
  // Read to its end, or cancelled, within the grace: nothing fails, no timer is left behind.
  for (const end of ["read", "cancel"] as const) {
    const conn = new SseConnection(() => {}, config);
    let connFailed = 0;
    conn.onFail(() => connFailed++);
    conn.write("data: 0123456789\n\n");
    conn.write("data: 0123456789\n\n");
    if (end === "read") while (!(await conn.read()).done);
    else conn.cancel();
    assert.equal(clock.fireEarliest(), false, `${end}: the grace timer was cancelled`);
    assert.equal(connFailed, 0);
  }
  // An answer complete at once: closed before the first read, which takes it whole; no timer.
  const atOnce = new SseConnection(() => {}, { ...config, maxQueuedBytes: 1000 });
  atOnce.write("id: 1-0\ndata:\n\n");
  atOnce.write("data: answer\n\n");
  atOnce.close();
  assert.equal(clock.fireEarliest(), false, "no grace timer for a body not yet read");
  assert.equal(new TextDecoder().decode((await atOnce.read()).value), "id: 1-0\ndata:\n\ndata: answer\n\n");
});

test("SSE connection: its web stream reads at most READ_CHUNK_BYTES at a time (a runtime keeps whatever chunk it is given, Deno for as long as its client leaves it unread), so a burst past maxQueuedBytes, or one large event written to a waiting read, still has the grace timer watching what the reader has not taken; a reader that reads on gets every byte, in order", async () => {
  const clock = new ManualClock();
  for (const shape of ["burst", "large event to a waiting read"] as const) {
    const conn = new SseConnection(() => {}, { clock, maxQueuedBytes: 100_000, sseKeepAliveMs: 0 });
    let failed = 0;
    conn.onFail(() => failed++);
    const reader = conn.body.getReader();
    const waiting = shape === "burst" ? undefined : reader.read();
    if (shape === "burst") for (let i = 0; i < 4; i++) conn.write(`data: ${String(i).repeat(40_000)}\n\n`);
    else conn.write(`data: ${"x".repeat(160_000)}\n\n`);
    const first = await (waiting ?? reader.read());
    assert.ok(!first.done && first.value.byteLength <= READ_CHUNK_BYTES, `${shape}: not the whole 160 KB`);
    clock.advance(OVERFLOW_GRACE_MS);
    assert.equal(failed, 1, `${shape}: the rest was left unread, so the body fails`);
    await assert.rejects(reader.read(), /fell more than maxQueuedBytes behind/);
  }
  // A reader that keeps reading: small events joined, a large one split, nothing lost.
  const steady = new SseConnection(() => {}, { clock, maxQueuedBytes: 1_000_000, sseKeepAliveMs: 0 });
  const sent = ["data: a\n\n", "data: b\n\n", `data: ${"x".repeat(200_000)}\n\n`, "data: c\n\n"];
  for (const e of sent) steady.write(e);
  steady.close();
  const reader = steady.body.getReader();
  const sizes: number[] = [];
  let got = "";
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    sizes.push(r.value.byteLength);
    got += new TextDecoder().decode(r.value);
  }
  assert.equal(got, sent.join(""));
  assert.ok(sizes.every((n) => n <= READ_CHUNK_BYTES), JSON.stringify(sizes));
  assert.equal(sizes[0], 18, "the two small events in one chunk");
  assert.equal(clock.fireEarliest(), false, "read to its end: no grace timer left");
  // The node:http bridge reads the connection itself, all that is queued at once (it watches a stalled socket itself).
  const whole = new SseConnection(() => {}, { clock, maxQueuedBytes: 1_000_000, sseKeepAliveMs: 0 });
  for (const e of sent) whole.write(e);
  assert.equal((await whole.read()).value?.byteLength, sent.join("").length);
});

test("SSE connection: a reader that keeps up but never catches up (its backlog stays under maxQueuedBytes yet never empties, as a web stream taking READ_CHUNK_BYTES a time behind a steady writer) does not make the connection keep what it already read: what it holds stays about the backlog, not everything the stream ever carried (README Limits: every buffer is bounded)", async () => {
  const conn = new SseConnection(() => {}, { clock: new ManualClock(), maxQueuedBytes: 8 * 1024 * 1024, sseKeepAliveMs: 0 });
  const event = `data: ${"x".repeat(1000)}\n\n`;
  for (let i = 0; i < 1000; i++) conn.write(event);
  let read = 0;
  for (let round = 0; round < 500; round++) {
    // A little more written than one read takes: the backlog grows slowly, never empties.
    for (let i = 0; i < 66; i++) conn.write(event);
    const r = await conn.read(READ_CHUNK_BYTES);
    read += r.value!.byteLength;
  }
  const held = (conn as unknown as { queue: Uint8Array[] }).queue;
  const heldBytes = held.reduce((n, c) => n + c.byteLength, 0);
  const written = (1000 + 500 * 66) * event.length;
  assert.equal(written - read > 0, true, "a backlog is left");
  assert.ok(heldBytes <= 2 * (written - read) + READ_CHUNK_BYTES, `holds ${heldBytes} bytes for a backlog of ${written - read} (${read} read)`);
});

test("SseConnection.after: a connection that has ended (closed, or past maxQueuedBytes in a replay) schedules nothing, since nothing would cancel it", () => {
  const clock = new ManualClock();
  let fired = 0;
  const conn = new SseConnection(() => {}, { clock, maxQueuedBytes: 10, sseKeepAliveMs: 0 });
  conn.write("data: more than ten bytes\n\n");
  assert.equal(conn.write("data: z\n\n"), false, "closed by the overflow: a write is refused");
  conn.after(1000, () => fired++);
  clock.advance(1000);
  assert.equal(fired, 0);
});

test("replay store: a message that goes before any connection carried it is reported as evicted, or as dropped with its stream (the diagnostic says which)", () => {
  const lost: Array<[number, boolean]> = [];
  const store = new EventStore({ maxEventsPerStream: 1 }, (_log, seq, dropped) => void lost.push([seq, dropped]));
  const log = store.createLog(1, store.createSession("a"));
  store.append(log, "first", false);
  store.append(log, "second", false);
  store.drop(log);
  assert.deepEqual(lost, [[1, false], [2, true]]);
});

test("replay store: a session that ended (its streams dropped, as the handler does when it terminates) keeps nothing in the store: after a churn of sessions, none is still held (each one that ever held text was kept for the handler's lifetime)", () => {
  const store = new EventStore({ maxTotalSize: 1000 });
  const held = () => (store as unknown as { holding: Set<unknown> }).holding.size;
  for (let i = 0; i < 500; i++) {
    const session = store.createSession("s" + i);
    const get = store.createLog(1, session);
    const post = store.createLog(2, session);
    store.append(get, "a notification", true);
    store.append(post, "an answer", i % 2 === 0);
    store.markWritten(post, post.lastSeq);
    // The POST stream ends, then the session.
    store.drop(post);
    store.drop(get);
  }
  assert.equal(store.count, 0);
  assert.equal(store.size, 0);
  assert.equal(held(), 0);
  // A session holding text is still found when the store is full of undelivered messages.
  const a = store.createLog(1, store.createSession("a"));
  const b = store.createLog(1, store.createSession("b"));
  store.append(a, "x".repeat(400), false);
  store.append(b, "y".repeat(450), false);
  assert.equal(held(), 2);
  store.append(b, "z".repeat(300), false);
  assert.deepEqual(a.after(0).map((e) => e.seq), [1]);
  assert.deepEqual(b.after(0).map((e) => e.seq), [2]);
  store.drop(a);
  assert.equal(held(), 1);
});

test("replay store: stays bounded and compacts under long runs", () => {
  const store = new EventStore({ maxEventsPerStream: 3, maxTotalSize: 5000 });
  const logs = [store.createLog(1, store.createSession("a")), store.createLog(2, store.createSession("b"))];
  for (let i = 0; i < 20_000; i++) store.append(logs[i % 2], "0123456789", true);
  assert.ok(store.count <= 6);
  assert.deepEqual(logs[0].after(0).length, 3);
  const big = new EventStore({ maxTotalSize: 100, maxSessionSize: 100 });
  const l = big.createLog(1, big.createSession("s"));
  for (let i = 0; i < 10_000; i++) big.append(l, "0123456789", true);
  assert.equal(big.count, 10);
  assert.equal(l.after(0)[0].seq, 9991);
  big.drop(l);
  assert.equal(big.count, 0);
});

test("Accept negotiation: exact types, wildcards, q=0 refusals, case and spacing", () => {
  assert.equal(accepts("application/json, text/event-stream", "text/event-stream"), true);
  assert.equal(accepts("Application/JSON", "application/json"), true);
  assert.equal(accepts("text/*", "text/event-stream"), true);
  assert.equal(accepts("*/*;q=0.1", "application/json"), true);
  assert.equal(accepts("application/json;q=0", "application/json"), false);
  assert.equal(accepts("application/json; charset=utf-8; q=0.000", "application/json"), false);
  assert.equal(accepts("application/json;level=1", "application/json"), true);
  assert.equal(accepts("text/html", "application/json"), false);
  assert.equal(accepts(null, "application/json"), false);
  assert.equal(accepts("", "application/json"), false);
});

test("header helpers: content types, visible ASCII session ids, safe header values and names", () => {
  assert.equal(isJsonContentType("application/json; charset=utf-8"), true);
  assert.equal(isJsonContentType("text/json"), false);
  assert.equal(isJsonContentType(null), false);
  assert.equal(mediaTypeOf(null), "");
  assert.equal(mediaTypeOf("Text/Event-Stream; charset=utf-8"), "text/event-stream");
  assert.equal(isVisibleAscii("abc~!"), true);
  assert.equal(isVisibleAscii(""), false);
  assert.equal(isVisibleAscii("a b"), false);
  assert.equal(isVisibleAscii("é"), false);
  assert.equal(isSafeHeaderValue(""), true);
  assert.equal(isSafeHeaderValue("a b\tc"), true);
  for (const bad of ["a\r\nb", "a\nb", "a\0b", " lead", "trail ", "\tx", "x\t", "é"]) assert.equal(isSafeHeaderValue(bad), false, JSON.stringify(bad));
  assert.equal(isHeaderName("Mcp-Param-Region"), true);
  for (const bad of ["", "a b", "a:b", "é"]) assert.equal(isHeaderName(bad), false, bad);
  const id = randomSessionId();
  assert.match(id, /^[0-9a-f]{32}$/);
  assert.equal(isVisibleAscii(id), true);
});

test("DNS-rebinding helpers: Host authorities and loopback origins", () => {
  assert.equal(hostnameOf("LocalHost:8080"), "localhost");
  assert.equal(hostnameOf("[::1]:1"), "[::1]");
  assert.equal(hostnameOf("[::1]"), "[::1]");
  assert.equal(hostnameOf("example.com"), "example.com");
  for (const bad of ["", ":80", "a@b", "a/b", "[::1", "[::1]80", "host:8o", "host:1234567", "h o"]) assert.equal(hostnameOf(bad), undefined, bad);
  assert.equal(isLoopbackOrigin("http://localhost:5173"), true);
  assert.equal(isLoopbackOrigin("https://[::1]"), true);
  assert.equal(isLoopbackOrigin("null"), false);
  assert.equal(isLoopbackOrigin("http://127.0.0.2"), false);
  assert.equal(isLoopbackOrigin("file://localhost"), false);
  const list = allowPredicate(["A.example"], () => false);
  assert.equal(list("a.EXAMPLE"), true);
  assert.equal(allowPredicate(undefined, () => true)("x"), true);
});
