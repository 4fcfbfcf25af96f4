// Spec: 2025-11-25 basic/transports ("Resumability and Redelivery", "Sending Messages"
// item 6 on disconnection) and SEP-1699 (polling by server-side disconnect).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ManualClock } from "../../src/driver/clock.js";
import type { HttpHandler } from "../../src/transports/http-server.js";
import { McpClient } from "../../src/api/client.js";
import { McpError, type RequestContext } from "../../src/driver/endpoint.js";
import { call, deferred, get, makeHandler, messages, open, post, setupWith, SseReader, Tools, until, wrappedTransport } from "./helpers.js";

const V = "2025-11-25";

test("Resumability: a client that drops a POST stream mid-response resumes with GET + Last-Event-ID and gets every message exactly once", async () => {
  const { handler, tools } = makeHandler();
  const sid = await open(handler);
  const s = new SseReader(await post(handler, call(1, "wait"), sid, V));
  const priming = await s.next();
  const one = await s.message();
  assert.equal(one.msg.params.data, "one");
  // Disconnection MAY occur at any time; it SHOULD NOT be interpreted as cancellation.
  await s.cancel();
  const ctx = tools.contexts.at(-1)!;
  assert.equal(ctx.signal.aborted, false);
  tools.release();
  const r = await get(handler, sid, V, one.id);
  assert.equal(r.status, 200);
  const rest = messages(await new SseReader(r).rest());
  assert.deepEqual(
    rest.map((m) => m.params?.data ?? m.result.content[0].text),
    ["two", "waited"],
  );
  // The replay log still holds the stream: resuming from the priming event re-delivers all of it, once each.
  const all = messages(await new SseReader(await get(handler, sid, V, priming!.id)).rest());
  assert.deepEqual(
    all.map((m) => m.params?.data ?? m.id),
    ["one", "two", 1],
  );
});

test("Resumability: event ids are unique across the session's streams and the server MUST NOT replay another stream's messages", async () => {
  const { handler, tools } = makeHandler();
  const sid = await open(handler);
  const a = new SseReader(await post(handler, call(1, "wait"), sid, V));
  const b = new SseReader(await post(handler, call(2, "wait"), sid, V));
  const a1 = await a.message();
  const b1 = await b.message();
  assert.notEqual(a1.id, b1.id);
  await a.cancel();
  await b.cancel();
  tools.release();
  tools.release();
  const fromA = messages(await new SseReader(await get(handler, sid, V, a1.id)).rest());
  assert.deepEqual(fromA.map((m) => m.id ?? m.params.data), ["two", 1]);
  const fromB = messages(await new SseReader(await get(handler, sid, V, b1.id)).rest());
  assert.deepEqual(fromB.map((m) => m.id ?? m.params.data), ["two", 2]);
});

test("Resumability: a resume while the old connection is still attached replaces it (one connection per stream, no broadcast)", async () => {
  const { handler, tools } = makeHandler();
  const sid = await open(handler);
  const s = new SseReader(await post(handler, call(1, "wait"), sid, V));
  const one = await s.message();
  const resumed = new SseReader(await get(handler, sid, V, one.id));
  // The old connection ends; the new one gets what follows.
  assert.equal(await s.next(), undefined);
  tools.release();
  assert.deepEqual(messages(await resumed.rest()).map((m) => m.id ?? m.params.data), ["two", 1]);
});

test("Resumability: a Last-Event-ID that names no stream of the session, or a position beyond it, gets 400", async () => {
  const { handler } = makeHandler();
  const sid = await open(handler);
  for (const id of ["garbage", "99-1", "-1", "1-", "1-2-3", "1-x", "1234567890123456-1"]) {
    assert.equal((await get(handler, sid, V, id)).status, 400, id);
  }
  const r = new SseReader(await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, sid, V));
  const events = await r.rest();
  const [stream] = events[0].id.split("-");
  assert.equal((await get(handler, sid, V, `${stream}-99`)).status, 400);
});

test("Listening: a GET stream that broke is resumed with Last-Event-ID; a fresh GET takes over what was never delivered", async () => {
  const { handler, tools } = makeHandler();
  const sid = await open(handler);
  const ep = tools.endpoints[0];
  const g = new SseReader(await get(handler, sid, V));
  ep.notify("notifications/tools/list_changed");
  const first = await g.message();
  await g.cancel();
  ep.notify("notifications/tools/list_changed", { n: 2 });
  const resumed = new SseReader(await get(handler, sid, V, first.id));
  const again = await resumed.message();
  assert.deepEqual(again.msg.params, { n: 2 });
  await resumed.cancel();
  // Queued while disconnected, then a plain GET (no Last-Event-ID): a new stream carries it.
  ep.notify("notifications/tools/list_changed", { n: 3 });
  const fresh = new SseReader(await get(handler, sid, V));
  const primed = await fresh.next();
  assert.equal(primed!.data, "");
  assert.notEqual(primed!.id.split("-")[0], first.id.split("-")[0]);
  assert.deepEqual((await fresh.message()).msg.params, { n: 3 });
  await fresh.cancel();
});

test("SEP-1699: the server MAY close the connection after the priming event (pollingCloseAfterMs), sending retry first; the client polls with Last-Event-ID", async () => {
  const clock = new ManualClock();
  const { handler, tools } = makeHandler(new Tools(), { clock, pollingCloseAfterMs: 100, retryMs: 2000 });
  const sid = await open(handler);
  const s = new SseReader(await post(handler, call(1, "wait"), sid, V));
  const priming = await s.next();
  assert.equal(priming!.data, "");
  await s.message();
  clock.advance(100);
  assert.equal(await s.next(), undefined, "the connection closed without the response");
  assert.deepEqual(s.retries, [2000, 2000], "retry in the priming event and again before closing");
  const poll = new SseReader(await get(handler, sid, V, priming!.id));
  assert.equal((await poll.message()).msg.params.data, "one", "the missed event is replayed");
  clock.advance(100);
  assert.equal(await poll.next(), undefined);
  // A connection the client already left is not closed again when its timer fires.
  const left = new SseReader(await get(handler, sid, V, priming!.id));
  await left.cancel();
  clock.advance(100);
  tools.release();
  const last = new SseReader(await get(handler, sid, V, priming!.id));
  assert.deepEqual(messages(await last.rest()).map((m) => m.id ?? m.params.data), ["one", "two", 1]);
});

test("SEP-1699 (the server SHOULD immediately send an event ID and an empty data field to prime the client to reconnect; event ids MUST be unique across the session): a resumption that replays nothing still opens with a priming event, at a fresh id; a client that keeps only the ids of its current connection polls on with it, and gets what came after, once", async () => {
  const clock = new ManualClock();
  const { handler, tools } = makeHandler(new Tools(), { clock, pollingCloseAfterMs: 100, retryMs: 500 });
  const sid = await open(handler);
  const ep = tools.endpoints[0];
  const g = new SseReader(await get(handler, sid, V));
  ep.notify("notifications/tools/list_changed", { n: 1 });
  let last = (await g.message()).id;
  const seen = new Set([last]);
  clock.advance(100);
  assert.equal(await g.next(), undefined, "polling close");
  // Two idle polls, each resumed from the id its predecessor primed.
  for (let i = 0; i < 2; i++) {
    const poll = new SseReader(await get(handler, sid, V, last));
    clock.advance(100);
    // Nothing to replay: a priming event, then the polling close.
    const events = await poll.rest();
    assert.equal(events.length, 1, `poll ${i}: one event`);
    assert.equal(events[0].data, "", `poll ${i}: a priming event`);
    assert.ok(!seen.has(events[0].id), `poll ${i}: its id ${events[0].id} names no earlier event`);
    assert.deepEqual(poll.retries, [500, 500]);
    last = events[0].id;
    seen.add(last);
  }
  ep.notify("notifications/tools/list_changed", { n: 2 });
  const resumed = new SseReader(await get(handler, sid, V, last));
  clock.advance(100);
  const events = await resumed.rest();
  assert.deepEqual(messages(events).map((m) => m.params), [{ n: 2 }], "what came after the primed position, once, and nothing before it");
  assert.ok(events.every((e) => !seen.has(e.id)), "no id repeats one sent before");
});

test("bounded replay log: a position reserved for a priming event is no evicted event: resuming from before it reports no gap", async () => {
  const clock = new ManualClock();
  const seen: string[] = [];
  const { handler, tools } = makeHandler(new Tools(), { clock, pollingCloseAfterMs: 100, eventStore: { maxEventsPerStream: 1 }, onDiagnostic: (d) => seen.push(d.code) });
  const sid = await open(handler);
  const ep = tools.endpoints[0];
  const g = new SseReader(await get(handler, sid, V));
  ep.notify("notifications/tools/list_changed", { n: 1 });
  const first = (await g.message()).id;
  clock.advance(100);
  await g.rest();
  // An idle poll from it: primed at a reserved position, then closed.
  const poll = new SseReader(await get(handler, sid, V, first));
  clock.advance(100);
  assert.equal((await poll.rest()).length, 1);
  // The next message evicts the first (one event per stream); the client resumes from the first.
  ep.notify("notifications/tools/list_changed", { n: 2 });
  const resumed = new SseReader(await get(handler, sid, V, first));
  clock.advance(100);
  assert.deepEqual(messages(await resumed.rest()).map((m) => m.params), [{ n: 2 }]);
  assert.deepEqual(seen, [], "nothing after the first was evicted");
});

test("SEP-1699: closeConnections() closes live connections without ending their streams", async () => {
  const { handler, tools } = makeHandler();
  const sid = await open(handler);
  const s = new SseReader(await post(handler, call(1, "wait"), sid, V));
  const one = await s.message();
  const g = new SseReader(await get(handler, sid, V));
  await g.next();
  assert.equal(handler.closeConnections(sid), 2);
  assert.equal(await s.next(), undefined);
  assert.equal(await g.next(), undefined);
  assert.equal(handler.closeConnections(), 0);
  assert.equal(handler.closeConnections("unknown"), 0);
  tools.release();
  assert.deepEqual(messages(await new SseReader(await get(handler, sid, V, one.id)).rest()).map((m) => m.id ?? m.params.data), ["two", 1]);
});

test("SEP-1699 is 2025-11-25's: before it, closeConnections() leaves a session's POST streams open (one closed before its first event has no id to resume from, and those versions' servers SHOULD NOT close it before the response); its GET stream still closes", async () => {
  for (const version of ["2025-06-18", "2025-03-26"]) {
    const { handler, tools } = makeHandler();
    const sid = await open(handler, version);
    const s = new SseReader(await post(handler, call(1, "wait"), sid, version));
    await tools.waiting();
    const g = new SseReader(await get(handler, sid, version));
    assert.equal(handler.closeConnections(sid), 1, `${version}: only the GET stream`);
    assert.equal(await g.next(), undefined);
    tools.release();
    assert.deepEqual(messages(await s.rest()).map((m) => m.id ?? m.params.data), ["one", "two", 1], `${version}: the POST stream carries its response`);
  }
});

test("bounded replay log: the per-stream limit drops the oldest undelivered messages with a diagnostic", async () => {
  const seen: string[] = [];
  const { handler, tools } = makeHandler(new Tools(), { eventStore: { maxEventsPerStream: 2 }, onDiagnostic: (d) => seen.push(d.code) });
  const sid = await open(handler);
  const ep = tools.endpoints[0];
  for (let n = 1; n <= 4; n++) ep.notify("notifications/tools/list_changed", { n });
  assert.deepEqual(seen, ["message-lost", "message-lost"]);
  const g = new SseReader(await get(handler, sid, V));
  await g.next();
  assert.deepEqual((await g.message()).msg.params, { n: 3 });
  assert.deepEqual((await g.message()).msg.params, { n: 4 });
  await g.cancel();
});

test("bounded replay log: a resume past evicted events replays what is left and reports the gap", async () => {
  const seen: string[] = [];
  const { handler, tools } = makeHandler(new Tools(), { eventStore: { maxEventsPerStream: 1 }, onDiagnostic: (d) => seen.push(d.code) });
  const sid = await open(handler);
  const s = new SseReader(await post(handler, call(1, "wait"), sid, V));
  const priming = await s.next();
  await s.message();
  tools.release();
  await s.rest();
  const r = messages(await new SseReader(await get(handler, sid, V, priming!.id)).rest());
  assert.deepEqual(r.map((m) => m.id), [1]);
  assert.deepEqual(seen, ["replay-gap"]);
});

test("bounded replay log: finished streams beyond maxRetainedStreams are forgotten (their ids then get 400)", async () => {
  const { handler } = makeHandler(new Tools(), { eventStore: { maxRetainedStreams: 1 } });
  const sid = await open(handler);
  const ids: string[] = [];
  for (let i = 1; i <= 2; i++) {
    const events = await new SseReader(await post(handler, { jsonrpc: "2.0", id: i, method: "tools/list" }, sid, V)).rest();
    ids.push(events[0].id);
  }
  assert.equal((await get(handler, sid, V, ids[0])).status, 400);
  const kept = await get(handler, sid, V, ids[1]);
  assert.equal(kept.status, 200);
  assert.deepEqual(messages(await new SseReader(kept).rest()).map((m) => m.id), [2]);
});

test("bounded replay log (README Limits: a response waiting for its client to resume is not pushed out while history is left; Resumability and Redelivery): past maxRetainedStreams, a finished stream already delivered is forgotten before a long call's answer that waits for its polling client", async () => {
  const clock = new ManualClock();
  const { handler, tools } = makeHandler(new Tools(), { clock, pollingCloseAfterMs: 5000, eventStore: { maxRetainedStreams: 2 } });
  const sid = await open(handler);
  const long = new SseReader(await post(handler, call(1, "wait"), sid, V));
  await long.next();
  const one = await long.message();
  // SEP-1699 polling close: the client waits its retry, holding the id of "one".
  clock.advance(5000);
  assert.equal(await long.next(), undefined);
  const quick: string[] = [];
  for (let i = 2; i <= 3; i++) quick.push((await new SseReader(await post(handler, call(i, "echo", { text: "x" }), sid, V)).rest())[0].id);
  // The long call answers while its client is away: three finished streams, two kept.
  tools.release();
  await new Promise((r) => setImmediate(r));
  const r = await get(handler, sid, V, one.id);
  assert.equal(r.status, 200, "the undelivered answer is kept");
  assert.deepEqual(messages(await new SseReader(r).rest()).map((m) => m.id ?? m.params.data), ["two", 1]);
  // The oldest delivered stream went in its place.
  assert.equal((await get(handler, sid, V, quick[0])).status, 400);
  const kept = await get(handler, sid, V, quick[1]);
  assert.equal(kept.status, 200);
  await kept.text();
});

test("bounded replay log: past maxRetainedStreams with every finished stream undelivered, the oldest goes (a message-lost diagnostic)", async () => {
  const seen: string[] = [];
  const { handler, tools } = makeHandler(new Tools(), { eventStore: { maxRetainedStreams: 1 }, onDiagnostic: (d) => seen.push(d.code) });
  const sid = await open(handler);
  const ids: string[] = [];
  for (let i = 1; i <= 2; i++) {
    const s = new SseReader(await post(handler, call(i, "wait"), sid, V));
    ids.push((await s.message()).id);
    await s.cancel();
  }
  tools.release();
  tools.release();
  await new Promise((r) => setImmediate(r));
  assert.ok(seen.includes("message-lost"));
  assert.equal((await get(handler, sid, V, ids[0])).status, 400);
  const kept = await get(handler, sid, V, ids[1]);
  assert.deepEqual(messages(await new SseReader(kept).rest()).map((m) => m.id ?? m.params.data), ["two", 2]);
});

test("a slow reader: a connection past maxQueuedBytes is closed (the reader still gets what was queued) and the stream resumes; every message arrives once, in order", async () => {
  const { handler } = makeHandler(new Tools(), { maxQueuedBytes: 300 });
  const sid = await open(handler);
  let r = await post(handler, call(1, "burst", { count: 10 }), sid, V);
  const got: any[] = [];
  let connections = 0;
  for (;;) {
    connections++;
    const events = await new SseReader(r).rest();
    got.push(...messages(events));
    if (got.at(-1)?.id === 1) break;
    r = await get(handler, sid, V, events.at(-1)!.id);
  }
  assert.ok(connections > 2, `the queue bound cut the stream (${connections} connections)`);
  assert.deepEqual(
    got.map((m) => m.params?.data ?? m.id),
    [...Array.from({ length: 10 }, (_, i) => "line " + (i + 1)), 1],
  );
});

test("SEP-1699 is 2025-11-25 (changelog item 6): sessions at 2025-06-18 and 2025-03-26 get no priming event (no empty data event, no retry) on POST or GET streams, and no polling close before the response; event ids stay", async () => {
  for (const version of ["2025-06-18", "2025-03-26"]) {
    const clock = new ManualClock();
    const { handler, tools } = makeHandler(new Tools(), { clock, pollingCloseAfterMs: 100, retryMs: 2000 });
    const sid = await open(handler, version);
    const s = new SseReader(await post(handler, call(1, "wait"), sid, version));
    const first = await s.next();
    assert.equal(JSON.parse(first!.data).params.data, "one", `${version}: the first event is a message`);
    assert.match(first!.id, /^\d+-\d+$/, "event ids stay, for resumption");
    // "The server SHOULD NOT close the SSE stream before sending the JSON-RPC response" (2025-06-18).
    clock.advance(1000);
    tools.release();
    assert.deepEqual(messages(await s.rest()).map((m) => m.id ?? m.params.data), ["two", 1], `${version}: the stream carries the response, then ends`);
    assert.deepEqual(s.retries, [], `${version}: no retry field`);
    // The GET stream: its first event is the first message.
    const g = new SseReader(await get(handler, sid, version));
    tools.endpoints[0].feed({ type: "changed", now: 0, what: "tools" });
    const e = await g.next();
    assert.equal(JSON.parse(e!.data).method, "notifications/tools/list_changed", version);
    clock.advance(1000);
    tools.endpoints[0].feed({ type: "changed", now: 0, what: "tools" });
    assert.equal(JSON.parse((await g.next())!.data).method, "notifications/tools/list_changed", `${version}: the GET stream is not closed for polling`);
    assert.deepEqual(g.retries, []);
    // Resuming replays without a retry field either.
    const resumed = new SseReader(await get(handler, sid, version, first!.id));
    assert.deepEqual(messages(await resumed.rest()).map((m) => m.id ?? m.params.data), ["two", 1]);
    assert.deepEqual(resumed.retries, []);
    await g.cancel();
  }
});

/**
 * A `wait` call of `sessionId` whose SSE connection the server closes (SEP-1699 polling)
 * before the tool answers: the answer lands in the replay log, unwritten (every microtask
 * runs before the next turn). Returns the priming event, to resume from.
 */
async function answerUnwritten(handler: HttpHandler, tools: Tools, sessionId: string) {
  const s = new SseReader(await post(handler, call(1, "wait"), sessionId, V));
  const priming = await s.next();
  await tools.waiting();
  assert.equal(handler.closeConnections(sessionId), 1);
  await s.rest();
  tools.release();
  await new Promise((r) => setImmediate(r));
  return priming;
}

test("bounded replay log, per session (Resumability and Redelivery: the server replays the messages missed on that stream): another session's traffic cannot evict a response waiting for its client's reconnection; each session evicts its own oldest first", async () => {
  const diagnostics: { code: string; sessionId?: string }[] = [];
  const { handler, tools } = makeHandler(new Tools(), { eventStore: { maxTotalSize: 64 * 1024 }, onDiagnostic: (d) => diagnostics.push({ code: d.code, sessionId: d.sessionId }) });
  const victim = await open(handler);
  const attacker = await open(handler);
  const priming = await answerUnwritten(handler, tools, victim);
  // The other session: answers of 20 000 characters each, past the whole store in total.
  for (let i = 0; i < 5; i++) await new SseReader(await post(handler, call(10 + i, "echo", { text: "x".repeat(20_000) }), attacker, V)).rest();
  const resumed = messages(await new SseReader(await get(handler, victim, V, priming!.id)).rest());
  assert.deepEqual(resumed.map((m) => m.params?.data ?? m.result?.content[0].text), ["one", "two", "waited"]);
  assert.deepEqual(diagnostics.filter((d) => d.code === "message-lost"), []);
  // A session past its own share (half the store) loses its own oldest undelivered messages, reported with its id.
  const ep = tools.endpoints[0];
  for (let n = 0; n < 5; n++) ep.notify("notifications/message", { level: "info", data: "y".repeat(10_000) });
  assert.ok(diagnostics.some((d) => d.code === "message-lost"));
  assert.deepEqual([...new Set(diagnostics.filter((d) => d.code === "message-lost").map((d) => d.sessionId))], [victim]);
});

test("bounded replay log, shared (Resumability and Redelivery: the server replays the messages missed on that stream): several sessions, each within its share, that together fill the store push out each other's delivered history, not another session's undelivered response", async () => {
  const diagnostics: { code: string; sessionId?: string }[] = [];
  const { handler, tools } = makeHandler(new Tools(), { eventStore: { maxTotalSize: 64 * 1024 }, onDiagnostic: (d) => diagnostics.push({ code: d.code, sessionId: d.sessionId }) });
  const victim = await open(handler);
  const others = [await open(handler), await open(handler), await open(handler), await open(handler)];
  const priming = await answerUnwritten(handler, tools, victim);
  // Four sessions read answers of 20 000 characters: each holds at most one (its share is half the store), 80 000 in all.
  for (let i = 0; i < 2; i++) for (const sid of others) await new SseReader(await post(handler, call(10 + i, "echo", { text: "x".repeat(20_000) }), sid, V)).rest();
  const resumed = messages(await new SseReader(await get(handler, victim, V, priming!.id)).rest());
  assert.equal(resumed.at(-1)?.result?.content[0].text, "waited", "the victim's undelivered answer is still replayed");
  assert.deepEqual(diagnostics.filter((d) => d.code === "message-lost"), []);
});

test("bounded replay log (Resumability and Redelivery: the server replays the messages missed on that stream): an answer evicted before its client resumed is replaced by an error response (-32000) for that request, not left for the client to poll for; a later resumption from before it replays that error", async () => {
  const diagnostics: string[] = [];
  const { handler, tools } = makeHandler(new Tools(), { eventStore: { maxSessionSize: 2000 }, onDiagnostic: (d) => diagnostics.push(d.code) });
  const sid = await open(handler);
  const priming = await answerUnwritten(handler, tools, sid);
  // The same session's unrelated messages, waiting for a GET, push it past its share: its own oldest go, the answer too.
  for (let n = 0; n < 3; n++) tools.endpoints[0].notify("notifications/message", { level: "info", data: "y".repeat(900) });
  assert.ok(diagnostics.includes("message-lost"));
  const events = (await new SseReader(await get(handler, sid, V, priming!.id)).rest()).filter((e) => e.data !== "");
  assert.equal(events.length, 1);
  const reply = JSON.parse(events[0].data);
  assert.equal(reply.id, 1);
  assert.equal(reply.error.code, -32000);
  assert.match(reply.error.message, /evicted from the server's replay log/);
  assert.ok(diagnostics.includes("replay-gap"));
  // It has an id of its own: resuming from before it again replays it, once.
  const again = messages(await new SseReader(await get(handler, sid, V, priming!.id)).rest());
  assert.deepEqual(again.map((m) => [m.id, m.error?.code]), [[1, -32000]]);
});

test("bounded replay log, end to end (Resumability and Redelivery): a polling McpClient whose answer was evicted while it was away gets the error at its first resumption, not a request that polls until its timeout", { timeout: 10_000 }, async () => {
  const clock = new ManualClock();
  const { handler, tools } = makeHandler(new Tools(), { clock, pollingCloseAfterMs: 1000, eventStore: { maxSessionSize: 2000 } });
  let gets = 0;
  const away = deferred();
  let polling = false;
  const t = wrappedTransport(
    handler,
    async (req, next) => {
      if (req.method !== "GET") return next();
      // Without an answer the client would poll without end; past a few GETs it sees an outage, and gives up.
      if (++gets > 3) throw new Error("offline");
      return next();
    },
    { sleep: async () => (polling ? away.promise : undefined) },
  );
  const client = new McpClient({ name: "c", version: "1" });
  await client.connect(t);
  polling = true;
  const result = client.callTool("wait", {}, { timeoutMs: 600_000 }).then(
    () => "answered",
    (e: McpError) => e,
  );
  await tools.waiting();
  // SEP-1699: the server closes the connection; the client waits its retry.
  clock.advance(1000);
  await new Promise((r) => setImmediate(r));
  tools.release();
  await new Promise((r) => setImmediate(r));
  for (let n = 0; n < 3; n++) tools.endpoints[0].notify("notifications/message", { level: "info", data: "y".repeat(900) });
  polling = false;
  away.resolve();
  const e = await result;
  assert.ok(e instanceof McpError, String(e));
  assert.equal(e.code, -32000);
  assert.match(e.message, /evicted from the server's replay log/);
  assert.equal(gets, 1, "one resumption");
  await client.close();
});

test("bounded replay log, shared (Resumability and Redelivery: the server replays the messages missed on that stream): when the store is full of messages no client has read, the session holding the most gives up its oldest, not a small session's answer waiting for its client to resume", async () => {
  const diagnostics: { code: string; sessionId?: string }[] = [];
  const { handler, tools } = makeHandler(new Tools(), { eventStore: { maxTotalSize: 64 * 1024 }, onDiagnostic: (d) => diagnostics.push({ code: d.code, sessionId: d.sessionId }) });
  const victim = await open(handler);
  const others = [await open(handler), await open(handler), await open(handler)];
  const priming = await answerUnwritten(handler, tools, victim);
  // Three sessions that never open their GET stream: 25 000 characters each waiting on it, within each one's share, 75 000 in all.
  for (let h = 1; h <= 3; h++) for (let n = 0; n < 5; n++) tools.endpoints[h].notify("notifications/message", { level: "info", data: "y".repeat(5000) });
  const lost = diagnostics.filter((d) => d.code === "message-lost");
  assert.ok(lost.length > 0);
  assert.ok(!lost.some((d) => d.sessionId === victim), "none of the victim's messages is lost");
  const resumed = messages(await new SseReader(await get(handler, victim, V, priming!.id)).rest());
  // "one" went out before the close: history, the first to go. What was never delivered is all there.
  assert.deepEqual(resumed.map((m) => m.params?.data ?? m.result?.content[0].text), ["two", "waited"]);
});

// A request of the server's (sampling, elicitation, roots, ping) whose event no client will
// ever get: the handler waiting on it hears it at once (-32000, this side's own error, as an
// answer evicted before its client resumed is answered), not after requestTimeoutMs.
const SAMPLE = { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 };

/** The outcome of `p` once it settles: its result, or its error. */
function outcome(p: Promise<unknown>): { value: unknown; settled: boolean } {
  const o = { value: undefined as unknown, settled: false };
  p.then(
    (v) => Object.assign(o, { value: v, settled: true }),
    (e) => Object.assign(o, { value: e, settled: true }),
  );
  return o;
}

function assertUndeliverable(o: { value: unknown; settled: boolean }, why: RegExp): void {
  assert.ok(o.settled, "the request failed at once, not at its timeout");
  const e = o.value as McpError;
  assert.ok(e instanceof McpError, String(e));
  assert.equal(e.code, -32000);
  assert.equal(e.fromPeer, false);
  assert.match(e.message, /never reached the client/);
  assert.match(e.message, why);
}

test("bounded replay log (Resumability and Redelivery; client/sampling): a tool's sampling request on its POST stream, evicted before any connection carried it (the client had dropped the stream), fails in the handler at once with -32000, not after requestTimeoutMs", { timeout: 5000 }, async () => {
  const clock = new ManualClock();
  const { handler, tools } = makeHandler(new Tools(), { clock, eventStore: { maxSessionSize: 2000 } });
  const sid = await open(handler);
  const s = new SseReader(await post(handler, call(1, "wait"), sid, V));
  await s.message();
  await s.cancel();
  const ctx = tools.contexts.at(-1)!;
  const asked = outcome(ctx.request("sampling/createMessage", SAMPLE));
  // The same session's unrelated messages, waiting for a GET, push it out of its share.
  for (let n = 0; n < 3; n++) tools.endpoints[0].notify("notifications/message", { level: "info", data: "y".repeat(900) });
  await until(() => asked.settled, 20);
  assertUndeliverable(asked, /before any connection carried it/);
  tools.release();
});

test("bounded replay log (Listening for Messages from the Server; client/sampling): a server request queued for a GET stream no client opened yet, evicted from the queue, fails at once with -32000", { timeout: 5000 }, async () => {
  const seen: string[] = [];
  const { handler, tools } = makeHandler(new Tools(), { clock: new ManualClock(), eventStore: { maxEventsPerStream: 2 }, onDiagnostic: (d) => seen.push(d.code) });
  const sid = await open(handler);
  const ep = tools.endpoints[0];
  const asked = outcome(ep.request("sampling/createMessage", SAMPLE));
  const kept = outcome(ep.request("ping"));
  for (let n = 1; n <= 2; n++) ep.notify("notifications/tools/list_changed", { n });
  await until(() => asked.settled, 20);
  assert.ok(seen.includes("message-lost"));
  assertUndeliverable(asked, /before any connection carried it/);
  // The ping was evicted too; what is still queued goes out when the GET opens.
  assertUndeliverable(kept, /evicted/);
  const g = new SseReader(await get(handler, sid, V));
  await g.next();
  assert.deepEqual((await g.message()).msg.params, { n: 1 });
  await g.cancel();
});

test("bounded replay log (Resumability and Redelivery: the server replays the messages missed on that stream): a server request written to a GET connection that broke, then evicted, fails with -32000 when the client resumes from before it (it proves it never got it); one still in the log is replayed and waits for its answer", { timeout: 5000 }, async () => {
  const seen: string[] = [];
  const { handler, tools } = makeHandler(new Tools(), { clock: new ManualClock(), eventStore: { maxEventsPerStream: 2 }, onDiagnostic: (d) => seen.push(d.code) });
  const sid = await open(handler);
  const ep = tools.endpoints[0];
  const g = new SseReader(await get(handler, sid, V));
  const priming = await g.next();
  const asked = outcome(ep.request("sampling/createMessage", SAMPLE));
  // The connection broke with the request in it, unread.
  await g.cancel();
  ep.notify("notifications/tools/list_changed", { n: 1 });
  const pinged = outcome(ep.request("ping"));
  await new Promise((r) => setImmediate(r));
  assert.equal(asked.settled, false, "evicted as history: the server cannot tell yet whether the client read it");
  const r = new SseReader(await get(handler, sid, V, priming!.id));
  const replayed = [(await r.message()).msg, (await r.message()).msg];
  assert.deepEqual(replayed.map((m) => m.method), ["notifications/tools/list_changed", "ping"]);
  assert.ok(seen.includes("replay-gap"));
  await until(() => asked.settled, 20);
  assertUndeliverable(asked, /before the client resumed/);
  assert.equal(pinged.settled, false, "the replayed ping waits for its answer");
  await r.cancel();
});

test("Listening for Messages from the Server (a fresh GET takes over what was never delivered): a server request moved to the new GET stream, whose connection then broke and which the log then evicted, fails with -32000 when the client resumes that stream from before it", { timeout: 5000 }, async () => {
  const { handler, tools } = makeHandler(new Tools(), { clock: new ManualClock(), eventStore: { maxEventsPerStream: 2 } });
  const sid = await open(handler);
  const ep = tools.endpoints[0];
  const first = new SseReader(await get(handler, sid, V));
  await first.next();
  await first.cancel();
  const asked = outcome(ep.request("sampling/createMessage", SAMPLE));
  // A fresh GET: the request, never delivered, moves to its stream and is written there; that connection breaks too.
  const second = new SseReader(await get(handler, sid, V));
  const priming = await second.next();
  await second.cancel();
  for (let n = 1; n <= 2; n++) ep.notify("notifications/tools/list_changed", { n });
  const r = new SseReader(await get(handler, sid, V, priming!.id));
  assert.deepEqual([(await r.message()).msg.params, (await r.message()).msg.params], [{ n: 1 }, { n: 2 }]);
  await until(() => asked.settled, 20);
  assertUndeliverable(asked, /before the client resumed/);
  await r.cancel();
});

test("Resumability and Redelivery (before 2025-11-25 no priming event): a tool's sampling request for a POST stream whose client dropped it before any event with an id reached it (so no Last-Event-ID can resume it) fails in the handler at once with -32000; at 2025-11-25 the primed stream keeps it for a resumption", { timeout: 5000 }, async () => {
  for (const version of ["2025-06-18", "2025-03-26", "2025-11-25"]) {
    const tools = new Tools();
    const gate = deferred();
    let asked: { value: unknown; settled: boolean } | undefined;
    const { handler } = makeHandler(tools, {
      clock: new ManualClock(),
      createSession: setupWith(tools, {
        onRequest: async (_m: string, _p: unknown, ctx: RequestContext) => {
          await gate.promise;
          const sent = ctx.request("sampling/createMessage", SAMPLE);
          asked = outcome(sent);
          await sent.catch(() => undefined);
          return { content: [] };
        },
      }),
    });
    const sid = await open(handler, version);
    const s = new SseReader(await post(handler, call(1, "x"), sid, version));
    const priming = version === "2025-11-25" ? await s.next() : undefined;
    await s.cancel();
    gate.resolve();
    await until(() => asked !== undefined, 20);
    if (priming === undefined) {
      await until(() => asked!.settled, 20);
      assertUndeliverable(asked!, /nothing can resume that stream/);
      continue;
    }
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    assert.equal(asked!.settled, false, `${version}: the request waits for the client's resumption`);
    const r = new SseReader(await get(handler, sid, version, priming.id));
    const request = (await r.message()).msg;
    assert.equal(request.method, "sampling/createMessage");
    assert.equal((await post(handler, { jsonrpc: "2.0", id: request.id, result: { role: "assistant", content: { type: "text", text: "ok" }, model: "m" } }, sid, version)).status, 202);
    assert.deepEqual(messages(await r.rest()).map((m) => m.id), [1]);
    assert.equal((asked!.value as { model: string }).model, "m");
  }
});
