// Spec: draft basic/transports/streamable-http (servers are encouraged to emit an SSE comment
// line as a keep-alive during quiet periods, "in particular the subscriptions/listen response
// stream"); 2025-11-25 basic/transports (Resumability: a connection that breaks leaves its
// stream resumable) and SEP-1699 (polling closes). Peers that stop reading, vanish, or hold
// requests open: every connection, queue and timer they leave behind is reclaimed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import { ManualClock } from "../../src/driver/clock.js";
import { OVERFLOW_GRACE_MS } from "../../src/transports/http/connection.js";
import { serveNode } from "../../src/transports/http-node.js";
import { call, get, initializeMessage, makeHandler, messages, open, post, postHeaders, setupWith, SseReader, Tools, until } from "./helpers.js";
import { modernHandler, modernRequest, MV, postModern } from "./modern-helpers.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { LiveTimersClock } from "../harness/live-timers.js";

const V = "2025-11-25";
const KEEP_ALIVE = ": keepalive\n";

/** A body read as it comes, as text; `take` returns what arrived since the last call. */
class Raw {
  private text = "";
  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {
    void this.pump();
  }
  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for (let r = await this.reader.read(); !r.done; r = await this.reader.read()) this.text += decoder.decode(r.value);
    } catch {
      // Cancelled by the test.
    }
  }
  /** What arrived (a chunk already queued is read within a turn). */
  async take(): Promise<string> {
    await new Promise(setImmediate);
    const t = this.text;
    this.text = "";
    return t;
  }
  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}

const raw = (r: Response): Raw => new Raw(r.body!.getReader());

test("streamable-http (draft) keep-alive: a legacy GET stream that wrote nothing for sseKeepAliveMs gets an SSE comment line, counted from its last write", async () => {
  const clock = new ManualClock();
  const { handler, tools } = makeHandler(new Tools(), { clock, sseKeepAliveMs: 1000 });
  const sid = await open(handler);
  const reader = raw(await get(handler, sid, V));
  assert.match(await reader.take(), /^id: \d+-0\n/, "the priming event");
  clock.advance(999);
  assert.equal(await reader.take(), "", "not before the interval");
  clock.advance(1);
  assert.equal(await reader.take(), KEEP_ALIVE);
  clock.advance(500);
  tools.endpoints[0].feed({ type: "changed", now: 0, what: "tools" });
  clock.advance(999);
  assert.match(await reader.take(), /^id: .*\ndata: .*list_changed.*\n\n$/, "a message, then no comment until the stream is quiet for the interval");
  clock.advance(1);
  assert.equal(await reader.take(), KEEP_ALIVE);
  await reader.cancel();
});

test("streamable-http (draft) keep-alive: by default every 8 s, under Bun.serve's default idleTimeout of 10 s (which otherwise cuts a quiet stream)", async () => {
  const clock = new ManualClock();
  const { handler } = makeHandler(new Tools(), { clock });
  const sid = await open(handler);
  const reader = raw(await get(handler, sid, V));
  await reader.take();
  clock.advance(7_999);
  assert.equal(await reader.take(), "");
  clock.advance(1);
  assert.equal(await reader.take(), KEEP_ALIVE);
  await reader.cancel();
});

test("streamable-http (draft) keep-alive: POST streams, modern tool streams and subscriptions/listen get it too; the client reads through it; 0 disables it", async () => {
  const clock = new ManualClock();
  const tools = new Tools();
  const { handler } = modernHandler(tools, { clock, sseKeepAliveMs: 1000, modernStreamAfterMs: 500 });
  const sid = await open(handler);
  const legacy = new SseReader(await post(handler, call(1, "wait"), sid, V));
  assert.equal((await legacy.message()).msg.params.data, "one");
  const listen = raw(await postModern(handler, modernRequest("L", "subscriptions/listen", { notifications: { toolsListChanged: true } })));
  await listen.take();
  const modern = postModern(handler, modernRequest(2, "tools/call", { name: "wait" }));
  await until(() => tools.gates.length === 2);
  clock.advance(500);
  const modernReader = raw(await modern);
  clock.advance(1000);
  assert.equal(await listen.take(), KEEP_ALIVE, "subscriptions/listen");
  assert.equal(await modernReader.take(), KEEP_ALIVE, "a modern tools/call stream");
  await listen.cancel();
  await modernReader.cancel();
  // The legacy client's decoder skips the comment: the next thing it sees is a message.
  tools.release();
  assert.deepEqual([(await legacy.message()).msg.params.data, (await legacy.message()).msg.id], ["two", 1]);

  const off = makeHandler(new Tools(), { clock, sseKeepAliveMs: 0 }).handler;
  const reader = raw(await get(off, await open(off), V));
  await reader.take();
  clock.advance(60_000);
  assert.equal(await reader.take(), "", "sseKeepAliveMs: 0");
  await reader.cancel();
});

test("every timer of a connection ends with it: polling closes and keep-alives of a session that was DELETEd, or whose client went away, are cancelled", async () => {
  const clock = new LiveTimersClock();
  const { handler } = makeHandler(new Tools(), { clock, pollingCloseAfterMs: 60_000, sseKeepAliveMs: 0 });
  const sid = await open(handler);
  const gone = await get(handler, sid, V);
  const stays = await get(handler, sid, V);
  assert.equal(clock.live.size, 2, "one polling close per connection");
  await gone.body!.cancel();
  assert.equal(clock.live.size, 1, "the client went away: its polling close is cancelled");
  const del = await handler(new Request("http://127.0.0.1/mcp", { method: "DELETE", headers: { "mcp-session-id": sid, "mcp-protocol-version": V } }));
  assert.equal(del.status, 204);
  assert.equal(clock.live.size, 0, "terminated: nothing left scheduled");
  await stays.body!.cancel();

  const withKeepAlive = makeHandler(new Tools(), { clock, pollingCloseAfterMs: 60_000, sseKeepAliveMs: 1000 }).handler;
  const sid2 = await open(withKeepAlive);
  await get(withKeepAlive, sid2, V);
  assert.equal(clock.live.size, 2);
  withKeepAlive.terminate(sid2);
  assert.equal(clock.live.size, 0);
});

test("a slow reader that takes nothing of its queue: past maxQueuedBytes it has OVERFLOW_GRACE_MS to take what was queued, then the body errors and the queue is dropped (the stream stays resumable)", async () => {
  const clock = new ManualClock();
  const { handler, tools } = makeHandler(new Tools(), { clock, maxQueuedBytes: 300, sseKeepAliveMs: 0 });
  const sid = await open(handler);
  const reader = (await get(handler, sid, V)).body!.getReader();
  const priming = /^id: (\S+)/.exec(new TextDecoder().decode((await reader.read()).value))![1];
  for (let i = 0; i < 10; i++) tools.endpoints[0].feed({ type: "changed", now: 0, what: "tools" });
  clock.advance(OVERFLOW_GRACE_MS);
  await assert.rejects(reader.read(), /maxQueuedBytes/);
  const resumed = new SseReader(await get(handler, sid, V, priming));
  const first = await resumed.message();
  assert.equal(first.msg.method, "notifications/tools/list_changed", "replayed from the log");
  await resumed.cancel();
  // Within the grace, the reader gets all that was queued, then the end of the stream.
  const late = (await get(handler, sid, V)).body!.getReader();
  // (The first read may already carry events: what the forgotten stream never delivered moves to this one.)
  let text = new TextDecoder().decode((await late.read()).value);
  for (let i = 0; i < 10; i++) tools.endpoints[0].feed({ type: "changed", now: 0, what: "tools" });
  clock.advance(OVERFLOW_GRACE_MS - 1);
  for (let r = await late.read(); !r.done; r = await late.read()) text += new TextDecoder().decode(r.value);
  assert.equal(text.split("list_changed").length - 1, 4, "the events queued up to the overflow (about 80 bytes each past 300)");
  clock.advance(1);
});

test("streamable-http (draft) Cancellation: a modern request whose stream's reader fell past maxQueuedBytes is cancelled with that reason (the handler's signal and the endpoint's close say so), not as a client that closed the stream", async () => {
  const clock = new ManualClock();
  const tools = new Tools();
  const { handler } = modernHandler(tools, { clock, maxQueuedBytes: 300, sseKeepAliveMs: 10, modernStreamAfterMs: 100 });
  const answer = postModern(handler, modernRequest(1, "tools/call", { name: "wait" }));
  await tools.waiting();
  // The handler is silent: its stream opens, and fills with keep-alive comments nobody reads.
  for (let i = 0; i < 100 && tools.closed.length === 0; i++) clock.advance(10);
  assert.deepEqual(tools.closed, ["the SSE reader fell more than maxQueuedBytes behind"]);
  assert.equal(tools.contexts[0].signal.aborted, true);
  tools.release();
  await (await answer).body?.cancel();
});

test("node bridge: a GET whose client stops reading and keeps its socket open is cut after overflow: the socket is destroyed, not left holding the queued bytes", async () => {
  const clock = new ManualClock();
  const { handler } = makeHandler(new Tools(), { clock, maxQueuedBytes: 256 * 1024, sseKeepAliveMs: 0 });
  const srv = await serveNode(handler);
  try {
    const init = await fetch(srv.url + "/mcp", { method: "POST", headers: postHeaders(), body: JSON.stringify(initializeMessage()) });
    const sid = init.headers.get("mcp-session-id")!;
    await init.text();
    // The server's end of the client's socket.
    let serverSide: import("node:net").Socket | undefined;
    srv.server.on("connection", (s) => (serverSide = s));
    const sock = connect(srv.port, "127.0.0.1");
    sock.on("error", () => {});
    await new Promise((r) => sock.once("connect", r));
    sock.write(`GET /mcp HTTP/1.1\r\nhost: 127.0.0.1:${srv.port}\r\naccept: text/event-stream\r\nmcp-session-id: ${sid}\r\nmcp-protocol-version: ${V}\r\n\r\n`);
    sock.pause();
    await until(() => serverSide !== undefined);
    const endpoint = handler.session(sid)!;
    const pad = "x".repeat(64 * 1024);
    // The socket's buffers fill, then the queue overflows; the grace passes, the socket goes.
    for (let i = 0; i < 1000 && !serverSide!.destroyed; i++) {
      endpoint.log("error", pad);
      for (let t = 0; t < 3; t++) await new Promise(setImmediate);
      clock.advance(OVERFLOW_GRACE_MS);
      for (let t = 0; t < 3; t++) await new Promise(setImmediate);
    }
    assert.equal(serverSide!.destroyed, true, "the paused client's socket was destroyed");
    sock.destroy();
  } finally {
    await srv.close();
  }
});

test("node bridge: sockets get TCP keep-alive, so a peer that vanished is found even on a quiet connection", async () => {
  const srv = await serveNode(makeHandler().handler);
  try {
    assert.equal((srv.server as unknown as { keepAlive?: boolean }).keepAlive, true);
  } finally {
    await srv.close();
  }
});

test("modern requests in progress are bounded: past maxModernRequests a request gets 503 with a JSON-RPC error body echoing its id; an ended one frees its place", async () => {
  const tools = new Tools();
  const { handler } = modernHandler(tools, { maxModernRequests: 1 });
  const first = postModern(handler, modernRequest(1, "tools/call", { name: "wait" }));
  await tools.waiting();
  const refused = await postModern(handler, modernRequest(2, "tools/call", { name: "echo", arguments: { text: "x" } }));
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get("retry-after"), "1", "RFC 9110 §15.6.4: none of it ran; try again in a second");
  const body = await refused.json();
  assert.equal(body.id, 2);
  assert.equal(body.error.message, "Service Unavailable: too many modern requests in progress (maxModernRequests 1)");
  tools.release();
  await (await first).text();
  const later = await postModern(handler, modernRequest(3, "tools/call", { name: "echo", arguments: { text: "y" } }));
  assert.equal(later.status, 200);
  assert.equal((await later.json()).result.content[0].text, "y");
});

test("subscriptions/listen streams are bounded apart (maxListenStreams, default half of maxModernRequests): past it a listen gets 503 with a JSON-RPC error body echoing its id, while calls and server/discover still have room; a closed stream frees its place", async () => {
  // (Half of 1 is still one stream: a small server keeps its listens.)
  const tiny = modernHandler(new Tools(), { maxModernRequests: 1 }).handler;
  const only = await postModern(tiny, modernRequest(0, "subscriptions/listen", { notifications: { toolsListChanged: true } }));
  assert.equal(only.headers.get("content-type"), "text/event-stream");
  tiny.close();
  for (const options of [{ maxModernRequests: 4 }, { maxModernRequests: 10, maxListenStreams: 2 }]) {
    const tools = new Tools();
    const { handler } = modernHandler(tools, options);
    const listen = (id: number, signal?: AbortSignal) => postModern(handler, modernRequest(id, "subscriptions/listen", { notifications: { toolsListChanged: true } }), {}, signal);
    const first = new AbortController();
    const open = [await listen(1, first.signal), await listen(2)];
    for (const r of open) assert.equal(r.headers.get("content-type"), "text/event-stream");
    const refused = await listen(3);
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get("retry-after"), "1");
    const body = await refused.json();
    assert.equal(body.id, 3);
    // The message names the bound: half of maxModernRequests unless given.
    assert.match(body.error.message, /too many subscriptions\/listen streams open \(maxListenStreams 2\)$/);
    const call = await postModern(handler, modernRequest(4, "tools/call", { name: "echo", arguments: { text: "room" } }));
    assert.equal((await call.json()).result.content[0].text, "room");
    assert.equal((await postModern(handler, modernRequest(5, "server/discover"))).status, 200);
    first.abort();
    await open[0].body!.cancel().catch(() => {});
    const again = await listen(6);
    assert.equal(again.headers.get("content-type"), "text/event-stream", "the closed stream's place is free");
    handler.close();
  }
});

test("handler.close() ends every modern request in progress, not only subscriptions/listen: each is answered with -32000 (on its stream once it has one, else as its JSON body; not a 500, nor a stream that just ends), its handler is cancelled, and its stream ends (else the keep-alive would hold it for as long as the tool runs)", async () => {
  for (const streamed of [true, false]) {
    const clock = new ManualClock();
    const tools = new Tools();
    const { handler } = modernHandler(tools, { clock, modernStreamAfterMs: 500 });
    const pending = postModern(handler, modernRequest(1, "tools/call", { name: "wait" }));
    await tools.waiting();
    if (streamed) clock.advance(500);
    const answer = streamed ? await pending : undefined;
    if (answer !== undefined) assert.equal(answer.headers.get("content-type"), "text/event-stream", "committed to a stream");
    handler.close();
    const res = answer ?? (await pending);
    assert.equal(res.status, 200);
    const reply = streamed ? messages(await new SseReader(res).rest())[0] : await res.json();
    assert.equal(reply.id, 1);
    // -32603: draft basic/index, of -32000..-32019, new implementations SHOULD NOT use them.
    assert.equal(reply.error.code, ErrorCode.InternalError);
    assert.match(reply.error.message, /^request terminated: server closed/);
    assert.equal(tools.contexts[0].signal.aborted, true, "the handler is cancelled");
  }
});

test("maxModernRequests: an application hook that throws while a modern message is delivered fails that POST (500) and gives its place back", async () => {
  const tools = new Tools();
  const base = setupWith(tools);
  const handler = createHttpHandler({
    maxModernRequests: 1,
    createSession: () => {
      const s = base();
      const broke = (): never => {
        throw new Error("hook broke");
      };
      return { ...s, options: { ...s.options, versions: [MV] }, onNotification: broke, onEvent: (e) => (e.type === "diagnostic" ? broke() : s.onEvent?.(e)) };
    },
  });
  const note = (method: string, params: JsonObject = {}): JsonObject => {
    const { id: _, ...m } = modernRequest(0, method, params);
    return m;
  };
  for (const n of [note("notifications/roots/list_changed"), note("notifications/cancelled", { requestId: 99 })]) {
    assert.equal((await postModern(handler, n)).status, 500, n.method as string);
  }
  const later = await postModern(handler, modernRequest(1, "tools/call", { name: "echo", arguments: { text: "y" } }));
  assert.equal(later.status, 200, "not 503: the failed deliveries hold no place");
});
