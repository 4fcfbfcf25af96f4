// handler.close({ drainMs }): a graceful close of the Streamable HTTP handler. Neither spec
// page defines a server's shutdown; what is traced here is what the pages require of the
// requests a drain lets finish and of those it refuses: 2025-11-25 basic/transports,
// Sending Messages item 6 (a request's stream SHOULD eventually include its response: the
// tool's own, not an error, when it finishes within the drain) and Session Management item
// 3 (an ended session's id MUST get 404); draft basic/patterns/subscriptions, Graceful
// Closure (a listen the server ends gets its completion result first). README: Deploying.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ManualClock } from "../../src/driver/clock.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { McpServer } from "../../src/api/server.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { McpClient } from "../../src/api/client.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { call, deferred, get, initializeMessage, makeHandler, messages, open, post, setupWith, SseReader, Tools, until } from "./helpers.js";
import { rejection } from "../api/setup.js";
import { answerOf, modernHandler, modernRequest, postModern } from "./modern-helpers.js";

const V = "2025-11-25";

/** Whether `p` has settled, checked without waiting for it. */
function settledFlag(p: Promise<unknown>): () => boolean {
  let done = false;
  void p.then(() => (done = true));
  return () => done;
}

/** Lets `turns` turns of the event loop pass (what is due would have happened by then). */
async function idle(turns: number): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}

/** A handler on a manual clock, with a legacy session whose request 1 (`wait`) is running: it has logged "one" and waits on its gate. */
async function waitingSession(make: typeof makeHandler) {
  const clock = new ManualClock();
  const { handler, tools } = make(new Tools(), { clock });
  const sid = await open(handler, V);
  const running = new SseReader(await post(handler, call(1, "wait"), sid, V));
  await tools.waiting();
  assert.equal((await running.message()).msg.params.data, "one");
  return { clock, handler, tools, sid, running };
}

/** A legacy session whose request 1 (`wait`) is running while its client is between SEP-1699 polls: its POST stream was closed after "one", whose id (`last`) the client holds. */
async function polledSession() {
  const clock = new ManualClock();
  const { handler, tools } = makeHandler(new Tools(), { clock, pollingCloseAfterMs: 5_000 });
  const sid = await open(handler, V);
  const running = new SseReader(await post(handler, call(1, "wait"), sid, V));
  await tools.waiting();
  const last = (await running.message()).id;
  clock.advance(5_000);
  assert.equal(await running.next(), undefined, "the polling close");
  return { clock, handler, tools, sid, last };
}

/** The messages of a resumption from `last`: the rest of request 1's stream. */
async function resumed(handler: ReturnType<typeof makeHandler>["handler"], sid: string, last: string): Promise<unknown[]> {
  const r = await get(handler, sid, V, last);
  assert.equal(r.status, 200, "the session is still there to resume");
  return messages(await new SseReader(r).rest()).map((m) => m.id ?? m.params.data);
}

async function refusedAsClosing(r: Response, id: unknown): Promise<void> {
  assert.equal(r.status, 503);
  // RFC 9110 §15.6.4: a 503 may say when to try again; the connection closes, so a pooled
  // client's next attempt opens another (behind a load balancer, to another instance).
  assert.equal(r.headers.get("retry-after"), "1");
  assert.equal(r.headers.get("connection"), "close");
  const body = await r.json();
  assert.equal(body.error.code, ErrorCode.InvalidRequest);
  assert.equal(body.id ?? null, id);
}

test("handler.close({ drainMs }) (README Deploying; basic/transports Sending Messages item 6): a request in flight finishes with its own answer on its POST stream, not -32000; meanwhile an initialize, a modern request and a new request on the live session get 503, a notification is taken (202); then the handler closes, and the session's id gets 404 (Session Management item 3)", async () => {
  const { clock, handler, tools, sid, running } = await waitingSession(modernHandler);

  const closing = handler.close({ drainMs: 10_000 });
  const closed = settledFlag(closing);
  await refusedAsClosing(await post(handler, initializeMessage(V, 7)), null);
  await refusedAsClosing(await postModern(handler, modernRequest(8, "tools/list")), null);
  await refusedAsClosing(await post(handler, call(2, "echo", { text: "late" }), sid, V), 2);
  assert.equal((await post(handler, { jsonrpc: "2.0", method: "notifications/roots/list_changed" }, sid, V)).status, 202);
  await idle(20);
  assert.equal(closed(), false, "the drain waits for the request in flight");
  assert.equal(handler.sessionCount, 1);

  tools.release();
  assert.equal((await running.message()).msg.params.data, "two");
  assert.deepEqual((await running.message()).msg, { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "waited" }] } });
  await until(closed, 50);
  assert.equal(handler.sessionCount, 0);
  // The session ended as its last request was answered, which ended the drain.
  assert.deepEqual(tools.closed, ["server closing"]);
  assert.equal(clock.pendingTimers, 0, "the drain's deadline is cancelled");
  assert.equal((await post(handler, call(3, "echo"), sid, V)).status, 404);
});

test("handler.close({ drainMs }) with enableJsonResponse: the request in flight gets its own JSON answer", async () => {
  const { handler, tools } = makeHandler(new Tools(), { enableJsonResponse: true });
  const sid = await open(handler, V);
  const pending = post(handler, call(1, "wait"), sid, V);
  await tools.waiting();
  const closed = settledFlag(handler.close({ drainMs: 10_000 }));
  tools.release();
  const r = await pending;
  assert.equal(r.status, 200);
  assert.deepEqual(await r.json(), { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "waited" }] } });
  await until(closed, 50);
  assert.equal(handler.sessionCount, 0);
});

test("handler.close({ drainMs }): past drainMs the handler closes as close() does, the request still running answered -32000 on its stream (Sending Messages item 6)", async () => {
  const { clock, handler, running } = await waitingSession(makeHandler);
  const closed = settledFlag(handler.close({ drainMs: 5_000 }));
  clock.advance(4_999);
  await idle(10);
  assert.equal(closed(), false);
  clock.advance(1);
  const end = (await running.message()).msg;
  assert.equal(end.id, 1);
  assert.equal(end.error.code, ErrorCode.ConnectionClosed);
  assert.match(end.error.message, /session terminated: server closed/);
  await until(closed, 50);
  assert.equal(handler.sessionCount, 0);
});

test("handler.close({ drainMs }): what a running request needs still comes in: the client's answer to the server's sampling request (202) lets the tool finish; a cancellation ends the drain's wait too", async () => {
  const { handler } = makeHandler();
  const sid = await open(handler, V);
  const sampling = new SseReader(await post(handler, call(1, "sample"), sid, V));
  const asked = (await sampling.message()).msg;
  assert.equal(asked.method, "sampling/createMessage");
  const cancelled = new SseReader(await post(handler, call(2, "wait"), sid, V));
  await cancelled.message();
  const closed = settledFlag(handler.close({ drainMs: Infinity }));
  const answer = { jsonrpc: "2.0", id: asked.id, result: { role: "assistant", content: { type: "text", text: "sampled" }, model: "m" } };
  assert.equal((await post(handler, answer, sid, V)).status, 202);
  assert.deepEqual((await sampling.message()).msg, { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "sampled" }] } });
  await idle(10);
  assert.equal(closed(), false, "request 2 still runs");
  assert.equal((await post(handler, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } }, sid, V)).status, 202);
  await until(closed, 50);
  assert.equal(handler.sessionCount, 0);
});

test("handler.close({ drainMs }) (modern era; subscriptions Graceful Closure): an open subscriptions/listen gets its completion result at once and does not hold the drain; a modern request in flight answers with its own result; a later close() ends the drain at once", async () => {
  const server = new McpServer({ name: "drain", version: "1" }, { session: { versions: ["2026-07-28", V] } });
  const gates = [deferred(), deferred()];
  let started = 0;
  server.tool("slow", {}, async () => {
    await gates[started++].promise;
    return { content: [{ type: "text", text: "slow done" }] };
  });
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession(), modernStreamAfterMs: 60_000, clock: new ManualClock() });
  const listen = new SseReader(await postModern(handler, modernRequest("L", "subscriptions/listen", { notifications: { toolsListChanged: true } })));
  assert.equal((await listen.message()).msg.method, "notifications/subscriptions/acknowledged");
  const slow = postModern(handler, modernRequest(1, "tools/call", { name: "slow" }));
  await until(() => started === 1, 50);

  const closing = handler.close({ drainMs: 60_000 });
  const closed = settledFlag(closing);
  assert.equal((await listen.message()).msg.result.resultType, "complete");
  assert.equal(await listen.next(), undefined, "the listen stream ends");
  gates[0].resolve();
  assert.equal((await answerOf(await slow)).result.content[0].text, "slow done");
  await until(closed, 50);

  // A second handler: close() without drainMs during a drain ends it now.
  const h2 = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession(), modernStreamAfterMs: 60_000, clock: new ManualClock() });
  const slow2 = postModern(h2, modernRequest(2, "tools/call", { name: "slow" }));
  await until(() => started === 2, 50);
  const drained = settledFlag(h2.close({ drainMs: 60_000 }));
  await h2.close();
  assert.equal(drained(), true);
  const cut = await answerOf(await slow2);
  assert.equal(cut.error.code, ErrorCode.InternalError);
  assert.match(cut.error.message, /request terminated: server closed/);
  gates[1].resolve();
});

test("handler.close({ drainMs }): nothing in flight closes at once; a drainMs that is not a number >= 0 throws a RangeError and leaves the handler serving", async () => {
  const { handler } = makeHandler();
  for (const drainMs of [-1, Number.NaN, "10" as never]) assert.throws(() => handler.close({ drainMs }), RangeError);
  assert.throws(() => handler.close(5_000 as never), TypeError, "close(5000) is not close({ drainMs: 5000 })");
  const sid = await open(handler, V);
  await handler.close({ drainMs: 60_000 });
  assert.equal(handler.sessionCount, 0);
  assert.equal((await post(handler, call(1, "echo"), sid, V)).status, 404);
});

test("scale-out (README Deploying, behind a load balancer): a modern request a draining instance answers 503 is sent again, after the backoff, and another instance serves it; nothing ran twice (RFC 9110 §15.6.4: none of a 503's request ran), a tool without idempotentHint too; a dual-era client whose era probe meets the draining instance stays modern", async () => {
  const runs: string[] = [];
  const instance = (name: string) => {
    const server = new McpServer({ name, version: "1" }, { session: { versions: ["2026-07-28", V] } });
    server.tool("pay", {}, () => (runs.push(name), { content: [{ type: "text", text: `paid on ${name}` }] }));
    return createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
  };
  const a = instance("a");
  const b = instance("b");
  await a.close({ drainMs: Infinity }); // nothing in flight: closed at once, refusing with 503
  let turn = 0;
  const answered: number[] = [];
  const roundRobin = async (url: string | URL | Request, init?: RequestInit) => {
    const r = await [a, b][turn++ % 2](new Request(url, init));
    answered.push(r.status);
    return r;
  };
  const client = new McpClient({ name: "c", version: "1" }, { session: { versions: ["2026-07-28", V] } });
  await client.connect(httpClientTransport("http://127.0.0.1/mcp", { fetch: roundRobin, sleep: async () => {} }));
  assert.equal(client.protocolVersion, "2026-07-28", "the probe's 503 did not make it a legacy server");
  turn = 0; // the next request meets the draining instance first
  const r = await client.callTool("pay");
  assert.deepEqual(r.content, [{ type: "text", text: "paid on b" }]);
  assert.deepEqual(runs, ["b"]);
  assert.deepEqual(answered.slice(-2), [503, 200]);
  client.close();
});

test("handler.close({ drainMs }): a legacy session with no request running ends at once (its next request gets 404, Session Management item 3, so its client starts a new session elsewhere), while a busy one lives until its request is answered", async () => {
  const { handler, tools, sid: busy, running } = await waitingSession(makeHandler);
  const idle = await open(handler, V);
  const closed = settledFlag(handler.close({ drainMs: 60_000 }));
  assert.equal((await post(handler, call(5, "echo"), idle, V)).status, 404, "the idle session ended at drain start");
  await refusedAsClosing(await post(handler, call(6, "echo"), busy, V), 6);
  assert.equal(handler.sessionCount, 1);
  tools.release();
  assert.equal((await running.message()).msg.params.data, "two");
  assert.equal((await running.message()).msg.result.content[0].text, "waited");
  await until(closed, 50);
  assert.deepEqual(tools.closed, ["server closing", "server closing"]);
});

test("handler.close({ drainMs }) (README Deploying: the requests in flight run on, GET streams and their resumption still come in; Resumability and Redelivery): an answer that lands during the drain while its client is between SEP-1699 polls is kept for its Last-Event-ID resumption; then the session ends and the drain resolves", async () => {
  const { clock, handler, tools, sid, last } = await polledSession();
  const closed = settledFlag(handler.close({ drainMs: 60_000 }));
  tools.release();
  await idle(20);
  assert.equal(closed(), false, "the answer waits for its client");
  assert.equal(handler.sessionCount, 1);
  assert.deepEqual(await resumed(handler, sid, last), ["two", 1]);
  await until(closed, 50);
  assert.equal(handler.sessionCount, 0);
  assert.deepEqual(tools.closed, ["server closing"]);
  assert.equal(clock.pendingTimers, 0, "the drain's deadline is cancelled");
});

test("handler.close({ drainMs }) (README Deploying; Resumability and Redelivery): a session whose answer already waits for its polling client when the drain begins is not idle: the resumption gets the answer; one never fetched goes at drainMs", async () => {
  const a = await polledSession();
  a.tools.release();
  await idle(5);
  const closedA = settledFlag(a.handler.close({ drainMs: 60_000 }));
  await idle(20);
  assert.equal(closedA(), false);
  assert.deepEqual(await resumed(a.handler, a.sid, a.last), ["two", 1]);
  await until(closedA, 50);

  const b = await polledSession();
  b.tools.release();
  await idle(5);
  const closedB = settledFlag(b.handler.close({ drainMs: 10_000 }));
  b.clock.advance(9_999);
  await idle(20);
  assert.equal(closedB(), false);
  assert.equal(b.handler.sessionCount, 1);
  b.clock.advance(1);
  await until(closedB, 50);
  assert.equal(b.handler.sessionCount, 0);
  assert.deepEqual(b.tools.closed, ["server closed"]);
});

test("handler.close({ drainMs }): an application onClose that throws neither keeps the drain from resolving nor stops the other sessions from ending; it is a handler-error diagnostic", async () => {
  const clock = new ManualClock();
  const tools = new Tools();
  const diagnostics: string[] = [];
  let throwing = true;
  const handler = createHttpHandler({
    sessionIdleMs: 0,
    clock,
    onDiagnostic: (d) => void diagnostics.push(`${d.code} ${d.message}`),
    createSession: setupWith(tools, { onClose: (reason) => { tools.closed.push(reason); if (throwing) { throwing = false; throw new Error("onClose broke"); } } }),
  });
  const a = await open(handler, V);
  const running = new SseReader(await post(handler, call(1, "wait"), a, V));
  await tools.waiting();
  await running.message();
  await open(handler, V);
  await open(handler, V);
  const closed = settledFlag(handler.close({ drainMs: 1_000 }));
  clock.advance(1_000);
  await until(closed, 50);
  assert.equal(handler.sessionCount, 0);
  assert.equal(tools.closed.length, 3);
  assert.ok(diagnostics.some((d) => d.startsWith("handler-error") && d.endsWith("onClose broke")), diagnostics.join("; "));
  tools.release();
});

test("scale-out: a 503 that is not an MCP server's own refusal (a proxy's text, whose upstream may have run the request) is not sent again for a tool without readOnlyHint or idempotentHint; a JSON one is", async () => {
  const server = new McpServer({ name: "s", version: "1" }, { session: { versions: ["2026-07-28"] } });
  let ran = 0;
  server.tool("pay", {}, () => (ran++, { content: [{ type: "text", text: "paid" }] }));
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
  let proxy503 = 0;
  const client = new McpClient({ name: "c", version: "1" }, { session: { versions: ["2026-07-28"] } });
  await client.connect(httpClientTransport("http://127.0.0.1/mcp", {
    sleep: async () => {},
    fetch: async (url, init) => {
      const r = await handler(new Request(url, init));
      if (proxy503 > 0 && typeof init?.body === "string" && init.body.includes('"tools/call"')) {
        proxy503--;
        await r.text(); // the upstream ran it; the proxy lost the answer
        return new Response("upstream connect error or disconnect/reset before headers", { status: 503, headers: { "content-type": "text/plain" } });
      }
      return r;
    },
  }));
  proxy503 = 1;
  const e = await rejection(client.callTool("pay"));
  assert.match(e.message, /503/);
  assert.equal(ran, 1, "not run twice");
});

test("scale-out (draft versioning, Backward Compatibility: a legacy server answers the modern probe with a 4xx): a dual-era client's server/discover answered 502 by a gateway is asked again, not taken for a legacy server's answer; the client stays modern", async () => {
  const server = new McpServer({ name: "s", version: "1" }, { session: { versions: ["2026-07-28", V] } });
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
  let gateway502 = 1;
  const client = new McpClient({ name: "c", version: "1" }, { session: { versions: ["2026-07-28", V] } });
  await client.connect(httpClientTransport("http://127.0.0.1/mcp", {
    sleep: async () => {},
    fetch: async (url, init) => {
      if (gateway502 > 0 && typeof init?.body === "string" && init.body.includes('"server/discover"')) {
        gateway502--;
        return new Response("<html>Bad Gateway</html>", { status: 502, headers: { "content-type": "text/html" } });
      }
      return handler(new Request(url, init));
    },
  }));
  assert.equal(client.protocolVersion, "2026-07-28");
  client.close();
});
