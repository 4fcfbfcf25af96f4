// The driver: the session reducer run with a clock, promises and handlers
// (2025-11-25 basic/lifecycle timeouts, basic/utilities/cancellation and progress, end to end).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Endpoint, McpError, toRpcError } from "../../src/driver/endpoint.js";
import { ManualClock, systemClock, wallClock } from "../../src/driver/clock.js";
import { encode } from "../../src/jsonrpc/codec.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { EndpointHooks } from "../../src/driver/endpoint.js";
import type { SessionOptions, SessionOutput } from "../../src/session/types.js";
import { createSession, step } from "../../src/session/session.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import vm from "node:vm";
import { attach } from "../../src/api/connection.js";
import { createMemoryPair } from "../../src/transports/memory.js";

const flush = () => new Promise<void>((r) => setImmediate(r));

function connect(clientOpts: Partial<SessionOptions>, serverOpts: Partial<SessionOptions>, serverHooks: Partial<EndpointHooks>, clock = new ManualClock(), clientHooks: Partial<EndpointHooks> = {}) {
  let client!: Endpoint;
  const server = new Endpoint({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {}, logging: {} }, ...serverOpts }, { send: (m) => queueMicrotask(() => client.receive(encode(m))), ...serverHooks }, clock);
  client = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: { sampling: {} }, ...clientOpts }, { send: (m) => queueMicrotask(() => server.receive(encode(m))), ...clientHooks }, clock);
  return { client, server, clock };
}

test("endpoint: handshake, request and response through promises", async () => {
  const { client } = connect({}, {}, { onRequest: (method, params) => ({ content: [{ type: "text", text: `${method}:${(params as any).name}` }] }) });
  const ready = await client.open();
  assert.equal(ready.version, "2025-11-25");
  const result = await client.request("tools/call", { name: "echo" });
  assert.deepEqual(result.content, [{ type: "text", text: "tools/call:echo" }]);
});

test("endpoint: a handler's McpError keeps its code; any other throw is -32603; async handlers work", async () => {
  let n = 0;
  const { client } = connect({}, {}, {
    onRequest: async () => {
      n++;
      if (n === 1) throw new McpError({ code: ErrorCode.InvalidParams, message: "bad", data: { x: 1 } });
      if (n === 2) throw new Error("boom");
      return { content: [] };
    },
  });
  await client.open();
  await assert.rejects(client.request("tools/call", { name: "a" }), (e: McpError) => e.code === ErrorCode.InvalidParams && (e.data as any).x === 1);
  await assert.rejects(client.request("tools/call", { name: "a" }), (e: McpError) => e.code === ErrorCode.InternalError && e.message === "boom");
  assert.deepEqual(await client.request("tools/call", { name: "a" }), { content: [] });
  assert.deepEqual(toRpcError("plain"), { code: ErrorCode.InternalError, message: "plain" });
});

/** Opens `client`, starts a tools/call, aborts it with reason "user", and waits until the cancellation has reached the server. */
async function cancelSlowCall(client: Endpoint): Promise<AbortController> {
  await client.open();
  const ac = new AbortController();
  const pending = client.request("tools/call", { name: "slow" }, { signal: ac.signal });
  await flush();
  ac.abort("user");
  await assert.rejects(pending, (e: McpError) => e.code === ErrorCode.RequestCancelled);
  await flush();
  return ac;
}

test("endpoint (basic/utilities/cancellation): a request whose signal aborted before it was sent rejects -32800 with the caller's reason, as one aborted after sending does, and nothing goes out", async () => {
  const { client } = connect({}, {}, { onRequest: () => ({ content: [] }) });
  await client.open();
  const ac = new AbortController();
  ac.abort("user gave up early");
  const nextId = client.state.nextId;
  await assert.rejects(client.request("tools/call", { name: "a" }, { signal: ac.signal }), (e: McpError) => e.code === ErrorCode.RequestCancelled && e.message === "user gave up early");
  assert.equal(client.state.nextId, nextId, "no request was made");
});

test("endpoint: aborting a request sends notifications/cancelled and the handler's signal fires", async () => {
  let aborted = false;
  const { client } = connect({}, {}, {
    onRequest: (_m, _p, ctx) =>
      new Promise((_resolve) => {
        ctx.signal.addEventListener("abort", () => (aborted = true));
      }),
  });
  const ac = await cancelSlowCall(client);
  assert.equal(aborted, true);
  await assert.rejects(client.request("ping", undefined, { signal: ac.signal }), McpError);
});

test("basic/utilities/cancellation: a handler that first reads ctx.signal after the cancellation arrived sees it aborted, with the reason (the signal is made on demand)", async () => {
  let ctxOf: { signal: AbortSignal } | undefined;
  const { client } = connect({}, {}, {
    onRequest: (_m, _p, ctx) =>
      new Promise(() => {
        ctxOf = ctx;
      }),
  });
  await cancelSlowCall(client);
  assert.equal(ctxOf!.signal.aborted, true);
  assert.equal(ctxOf!.signal.reason, "user");
});

test("endpoint: progress reaches onProgress; a timer fires the timeout on the manual clock", async () => {
  const clock = new ManualClock();
  const { client } = connect({ requestTimeoutMs: 1000 }, {}, {
    onRequest: (_m, _p, ctx) => {
      ctx.progress(1, 2, "half");
      return new Promise(() => {});
    },
  }, clock);
  await client.open();
  const seen: unknown[] = [];
  const pending = client.request("tools/call", { name: "x" }, { onProgress: (p) => seen.push(p) });
  await flush();
  assert.deepEqual(seen, [{ progress: 1, total: 2, message: "half" }]);
  clock.advance(999);
  await flush();
  clock.advance(1);
  await assert.rejects(pending, (e: McpError) => e.code === ErrorCode.RequestTimeout);
});

test("endpoint: ctx.request, ctx.notify and ctx.log act for the request; notifications reach onNotification", async () => {
  const notes: string[] = [];
  const { client } = connect(
    {},
    {},
    {
      onRequest: async (_m, _p, ctx) => {
        ctx.log("info", "working");
        const sample = await ctx.request("sampling/createMessage", { messages: [], maxTokens: 1 });
        return { content: [{ type: "text", text: String(sample.model) }] };
      },
    },
    new ManualClock(),
    {
      onRequest: () => ({ role: "assistant", content: { type: "text", text: "x" }, model: "m-1" }),
      onNotification: (method) => notes.push(method),
    },
  );
  await client.open();
  const result = await client.request("tools/call", { name: "x" });
  assert.deepEqual(result.content, [{ type: "text", text: "m-1" }]);
  assert.deepEqual(notes, ["notifications/message"]);
});

test("endpoint: no handler means method-not-found; a fatal close rejects open and calls onClose; closed() fails what is pending", async () => {
  const { client } = connect({}, {}, {});
  await client.open();
  await assert.rejects(client.request("tools/list"), (e: McpError) => e.code === ErrorCode.MethodNotFound);
  let closedWith = "";
  const bad = connect({ versions: ["2025-11-25"] }, { versions: ["2025-06-18"] }, {}, new ManualClock(), { onClose: (r) => (closedWith = r) });
  await assert.rejects(bad.client.open(), McpError);
  assert.match(closedWith, /2025-06-18/);
  const hang = connect({}, {}, { onRequest: () => new Promise(() => {}) });
  await hang.client.open();
  const p = hang.client.request("tools/list");
  await flush();
  hang.client.closed("bye");
  await assert.rejects(p, (e: McpError) => e.code === ErrorCode.ConnectionClosed);
});

test("endpoint: restores from a JSON snapshot of its state and continues", async () => {
  const { client, server } = connect({}, {}, { onRequest: () => ({ tools: [] }) });
  await client.open();
  const snapshot = JSON.parse(JSON.stringify(server.state));
  const restored = new Endpoint(snapshot, { send: () => {} });
  assert.equal(restored.state.phase.name, "operating");
});

test("clock: ManualClock.advance(Infinity) is refused as NaN and a negative step are; it fired a recurring timer (an endpoint's keep-alive) for ever, and left a clock whose readings the kernel refuses as no time (found by review)", { timeout: 10_000 }, () => {
  const clock = new ManualClock();
  let fired = 0;
  const every = (): void => {
    // A bound on the test itself: without the check, advance never returns.
    if (++fired > 1000) throw new Error("advance(Infinity) fired a recurring timer without end");
    clock.schedule(clock.now() + 1000, every);
  };
  clock.schedule(1000, every);
  assert.throws(() => clock.advance(Infinity), RangeError);
  assert.equal(fired, 0);
  assert.equal(clock.now(), 0);
  clock.advance(2000);
  assert.equal(fired, 2);
});

test("clock: a ManualClock never goes back: a timer's callback that advances it further leaves it there when the outer advance ends; it was set back to the outer advance's end (found by review)", () => {
  const clock = new ManualClock();
  const seen: number[] = [];
  clock.schedule(100, () => clock.advance(5000));
  clock.schedule(3000, () => seen.push(clock.now()));
  clock.advance(1000);
  assert.equal(clock.now(), 5100);
  assert.deepEqual(seen, [3000]);
});

test("endpoint (README: a snapshot passed to a new Endpoint continues): the restored endpoint arms its timer at once, so its keep-alive ping (basic/utilities/ping) and request timeouts fire with nothing fed; it waited for the next input (found by review)", () => {
  const clock = new ManualClock();
  const state = createSession({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, keepAliveMs: 1000, requestTimeoutMs: 500 });
  step(state, { type: "open", now: 0 });
  step(state, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } }) });
  step(state, { type: "request", now: 0, method: "tools/list" });
  const sent: any[] = [];
  const events: string[] = [];
  new Endpoint(JSON.parse(JSON.stringify(state)), { send: (m) => sent.push(m), onEvent: (e) => events.push(e.type) }, clock);
  assert.equal(clock.pendingTimers, 1);
  clock.advance(500);
  assert.deepEqual(sent.map((m) => m.method), ["notifications/cancelled"], "the request timed out and was cancelled");
  assert.ok(events.includes("error"));
  clock.advance(500);
  assert.deepEqual(sent.map((m) => m.method), ["notifications/cancelled", "ping"]);
});

test("clock: the system clock schedules and cancels; the manual clock fires timers in order", async () => {
  const fired: number[] = [];
  const clock = new ManualClock();
  clock.schedule(20, () => fired.push(20));
  const h = clock.schedule(10, () => fired.push(10));
  clock.schedule(5, () => fired.push(5));
  assert.equal(clock.pendingTimers, 3);
  clock.cancel(h);
  assert.equal(clock.pendingTimers, 2);
  clock.advance(30);
  assert.deepEqual(fired, [5, 20]);
  assert.equal(clock.pendingTimers, 0, "fired timers are not pending");
  assert.equal(clock.now(), 30);
  // A manual clock may start anywhere (an epoch time, where it is a wall clock too: task times).
  const epoch = new ManualClock(Date.UTC(2030, 0, 1));
  epoch.schedule(Date.UTC(2030, 0, 1) + 5, () => fired.push(2030));
  epoch.advance(5);
  assert.equal(epoch.now(), Date.UTC(2030, 0, 1) + 5);
  assert.deepEqual(fired, [5, 20, 2030]);
  // Only forward: NaN would leave it at NaN for good (no timer fires again), a negative step go back.
  for (const ms of [-500, NaN]) assert.throws(() => epoch.advance(ms), RangeError);
  assert.equal(epoch.now(), Date.UTC(2030, 0, 1) + 5);
  // The system clock's timers are unref'd (they must not keep a process alive), so hold the loop open meanwhile.
  const keepAlive = setTimeout(() => {}, 60_000);
  await new Promise<void>((resolve) => systemClock.schedule(systemClock.now(), () => (clearTimeout(keepAlive), resolve())));
  systemClock.cancel(systemClock.schedule(systemClock.now() + 10_000, () => assert.fail("cancelled timer fired")));
});

test("endpoint (README Driver: a snapshot restored in another process): on wallClock its deadlines keep their meaning; a request's timeout set a minute ago in another process fires at once when restored, where systemClock (counting from this process's start) would put it decades away", { timeout: 10_000 }, async () => {
  assert.ok(Math.abs(wallClock.now() - Date.now()) < 1000, "wallClock reads Date.now's scale");
  // The first process: its wall clock read a minute ago; a request with a 1 s timeout is in flight.
  const then = new ManualClock(Date.now() - 60_000);
  const sent: any[] = [];
  const first = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {} }, { send: (m) => void sent.push(m) }, then);
  const opening = first.open();
  first.receive(JSON.stringify({ jsonrpc: "2.0", id: sent[0].id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } }));
  await opening;
  void first.request("tools/call", { name: "slow" }, { timeoutMs: 1000 }).catch(() => {});
  const snapshot = JSON.parse(JSON.stringify(first.state));
  // The second process restores it on the wall clock: the deadline is past, so the request times out now.
  // (Nothing awaits the restored request, so its timer does not hold the process: this does, until it fires.)
  const keepAlive = setTimeout(() => {}, 60_000);
  const timedOut = new Promise<SessionOutput>((resolve) => {
    const second = new Endpoint(snapshot, { send: () => {}, onEvent: (e) => void (e.type === "error" && resolve(e)) }, wallClock);
    void second;
  });
  const e = (await timedOut.finally(() => clearTimeout(keepAlive))) as Extract<SessionOutput, { type: "error" }>;
  assert.equal(e.error.code, ErrorCode.RequestTimeout);
  assert.equal(e.method, "tools/call");
});

test("endpoint: a transport closing during the handshake rejects open()", async () => {
  const client = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {} }, { send: () => {} }, new ManualClock());
  const opening = client.open();
  client.closed("server died");
  await assert.rejects(opening, (e: McpError) => e.code === ErrorCode.ConnectionClosed && e.message === "server died");
});

test("endpoint: while a caller awaits a request its timeout timer holds the clock; an idle endpoint's timers do not", async () => {
  // basic/lifecycle "Timeouts": the sender SHOULD issue a cancellation and stop waiting when the
  // timeout elapses, which it can only do if the process is still alive when it does.
  const holds: boolean[] = [];
  class RecordingClock extends ManualClock {
    override schedule(at: number, fn: () => void, hold?: boolean): unknown {
      holds.push(hold === true);
      return super.schedule(at, fn);
    }
  }
  const clock = new RecordingClock();
  const { client } = connect({ requestTimeoutMs: 100, keepAliveMs: 1000 }, {}, { onRequest: () => new Promise(() => {}) }, clock);
  await client.open();
  await flush();
  assert.equal(holds.at(-1), false, "the idle keep-alive timer does not hold");
  holds.length = 0;
  const pending = client.request("tools/call", { name: "never" });
  await flush();
  assert.deepEqual(holds, [true]);
  clock.advance(100);
  await assert.rejects(pending, (e: McpError) => e.code === ErrorCode.RequestTimeout);
  await flush();
  assert.equal(holds.at(-1), false, "once nothing is awaited, the keep-alive timer is re-armed without the hold");
});

test("endpoint: in a real process, a request to a peer that never answers ends in its timeout, not in the process exiting with the promise unsettled", async () => {
  const { execFile } = await import("node:child_process");
  const url = (p: string) => JSON.stringify(new URL(p, import.meta.url).href);
  // Nothing but the endpoint's own timer is left on the event loop once the call is sent.
  const script = `
    const { Endpoint } = await import(${url("../../src/driver/endpoint.js")});
    const { encode } = await import(${url("../../src/jsonrpc/codec.js")});
    let client;
    const server = new Endpoint({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} } },
      { send: (m) => queueMicrotask(() => client.receive(encode(m))), onRequest: () => new Promise(() => {}) });
    client = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {} },
      { send: (m) => queueMicrotask(() => server.receive(encode(m))) });
    await client.open();
    try { await client.request("tools/call", { name: "never" }, { timeoutMs: 30 }); }
    catch (e) { console.log("rejected " + e.code); }`;
  const out = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = execFile(process.execPath, ["--input-type=module", "-e", script], (err, stdout) => resolve({ code: err ? (err as { code?: number }).code ?? 1 : 0, stdout }));
    child.stdin?.end();
  });
  assert.deepEqual(out, { code: 0, stdout: `rejected ${ErrorCode.RequestTimeout}\n` });
});

test("clock: a wait past setTimeout's range (2^31 - 1 ms) does not fire at once, as a runtime's overflowed timer would (a peer's huge retry or pollIntervalMs stays a wait, not a tight loop)", async () => {
  let fired = false;
  const handle = systemClock.schedule(systemClock.now() + 3_000_000_000, () => (fired = true), true);
  // An overflowed timer fires after 1 ms, before this one.
  await new Promise<void>((resolve) => setTimeout(resolve, 5));
  assert.equal(fired, false);
  systemClock.cancel(handle);
});

/** A manual clock that counts what the endpoint asks of it, and can change a timer's hold in place (as the system clock can). */
class CountingClock extends ManualClock {
  scheduled = 0;
  cancelled = 0;
  readonly holding = new Map<unknown, boolean>();
  override schedule(at: number, fn: () => void, hold?: boolean): unknown {
    this.scheduled++;
    const handle = super.schedule(at, fn);
    this.holding.set(handle, hold === true);
    return handle;
  }
  override cancel(handle: unknown): void {
    this.cancelled++;
    this.holding.delete(handle);
    super.cancel(handle);
  }
  rehold(handle: unknown, hold: boolean): boolean {
    this.holding.set(handle, hold);
    return true;
  }
}

test("endpoint: a sequential caller's requests share one timer (each deadline is later than the armed one), and each timeout still fires at its own deadline", async () => {
  // basic/lifecycle "Timeouts": the sender SHOULD issue a cancellation when a request's timeout elapses.
  const clock = new CountingClock();
  let answer = true;
  const { client } = connect({ requestTimeoutMs: 1000 }, {}, { onRequest: () => (answer ? { content: [] } : new Promise(() => {})) }, clock);
  await client.open();
  const before = { scheduled: clock.scheduled, cancelled: clock.cancelled };
  for (let i = 0; i < 50; i++) await client.request("tools/call", { name: "quick" });
  assert.ok(clock.scheduled - before.scheduled <= 1, `${clock.scheduled - before.scheduled} timers started for 50 sequential requests`);
  assert.equal(clock.cancelled, before.cancelled, "none cancelled");
  assert.deepEqual([...clock.holding.values()], [false], "with nothing awaited, the kept timer no longer holds the process");
  // The kept timer is due at the first request's deadline (1000): a later request's timeout is still its own.
  clock.advance(500);
  answer = false;
  let settled = false;
  const pending = client.request("tools/call", { name: "never" }).finally(() => (settled = true));
  await flush();
  assert.deepEqual([...clock.holding.values()], [true], "while a caller awaits, the timer holds the process");
  clock.advance(500); // t = 1000: the kept timer fires early, finds nothing due, arms for 1500
  await flush();
  assert.equal(settled, false, "not timed out before its own deadline");
  clock.advance(500);
  await assert.rejects(pending, (e: McpError) => e.code === ErrorCode.RequestTimeout);
});

test("draft basic/patterns/mrtr with basic/patterns/cancellation (Timeouts): a modern call's timeout runs while the client's handler answers an input request; when it fires, or the caller aborts, the call settles and the handler's signal aborts (RequestContext.signal: aborted when the request is cancelled)", async () => {
  const modern = { versions: ["2026-07-28"] as SessionOptions["versions"] };
  const signals: AbortSignal[] = [];
  const { client, clock } = connect(
    { ...modern, capabilities: { roots: {} } },
    modern,
    { onRequest: () => ({ resultType: "input_required", inputRequests: { r: { method: "roots/list" } } }) },
    new ManualClock(),
    { onRequest: (_m, _p, ctx) => new Promise(() => void signals.push(ctx.signal)) },
  );
  await client.open();
  const handling = (client as unknown as { handling: Map<string, unknown> }).handling;
  const timed = client.request("tools/call", { name: "ask" }, { timeoutMs: 200 });
  await flush();
  assert.equal(signals.length, 1, "the handler is asking");
  clock.advance(200);
  await assert.rejects(timed, (e: McpError) => e.code === ErrorCode.RequestTimeout);
  assert.equal(signals[0].aborted, true);
  const ac = new AbortController();
  const aborted = client.request("tools/call", { name: "ask" }, { signal: ac.signal });
  await flush();
  ac.abort("user gave up");
  await assert.rejects(aborted, (e: McpError) => e.code === ErrorCode.RequestCancelled);
  assert.equal(signals[1].aborted, true);
  const closing = client.request("tools/call", { name: "ask" });
  await flush();
  client.closed("bye");
  await assert.rejects(closing, (e: McpError) => e.code === ErrorCode.ConnectionClosed);
  assert.equal(signals[2].aborted, true);
  assert.equal(handling.size, 0, "the driver holds no handler of a dropped round");
});

test("basic/utilities/tasks: a task's onProgress kept past its request's answer is let go when the transport closes (no progress can come any more)", async () => {
  const TASKS = { tools: {}, tasks: { requests: { tools: { call: {} } } } };
  const task = { task: { taskId: "t1", status: "working", createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:30:00Z", ttl: 60000 } };
  const { client } = connect({}, { capabilities: TASKS }, { onRequest: () => task });
  await client.open();
  await client.request("tools/call", { name: "job", task: {} }, { onProgress: () => {} });
  const kept = (client as unknown as { taskProgress: Map<string, unknown> }).taskProgress;
  assert.equal(kept.size, 1, "kept while the task may report progress");
  client.closed("bye");
  assert.equal(kept.size, 0);
});

// basic/index (Requests): the id is a string or an integer, and JSON-RPC tells `1` and `"1"`
// apart. basic/utilities/cancellation: a cancellation names one request; the receiver
// SHOULD NOT respond to it, and the other goes on.
test("endpoint: requests 1 and \"1\" in flight at once are two requests: cancelling 1 aborts only its handler, and only \"1\" is answered", async () => {
  const sent: { id?: unknown; result?: unknown; error?: unknown }[] = [];
  const held: { id: unknown; signal: AbortSignal; answer(): void }[] = [];
  const server = new Endpoint({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} } }, {
    send: (m) => sent.push(m as never),
    onRequest: (_method, _params, ctx) => new Promise((resolve) => held.push({ id: ctx.id, signal: ctx.signal, answer: () => resolve({ content: [] }) })),
  }, new ManualClock());
  server.receive({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
  server.receive({ jsonrpc: "2.0", method: "notifications/initialized" });
  server.receive({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t" } });
  server.receive({ jsonrpc: "2.0", id: "1", method: "tools/call", params: { name: "t" } });
  assert.deepEqual(held.map((h) => h.id), [1, "1"]);
  server.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "user" } });
  assert.deepEqual(held.map((h) => h.signal.aborted), [true, false]);
  for (const h of held) h.answer();
  await flush();
  assert.deepEqual(sent.filter((m) => m.id !== 0).map((m) => [m.id, m.result]), [["1", { content: [] }]]);
});

// The driver's in-flight table is renewed now and then (see driver/churn-map.ts): a request
// that stays in flight across renewals (a subscription, a long tool call) must still be
// found when its answer or cancellation comes.
test("endpoint: ChurnMap keeps what is in flight across its renewals, in insertion order; 1 and \"1\" are two keys", async () => {
  const { ChurnMap } = await import("../../src/driver/churn-map.js");
  const table = new ChurnMap<number | string, string>();
  table.set(1, "number one");
  table.set("1", "string one");
  for (let id = 2; id < 10_000; id++) {
    table.set(id, `call ${id}`);
    if (id % 7 !== 0) table.delete(id);
  }
  assert.equal(table.get(1), "number one");
  assert.equal(table.get("1"), "string one");
  assert.equal(table.get(9_996), "call 9996");
  assert.equal(table.get(9_997), undefined);
  assert.equal(table.size, 2 + Math.floor(9_999 / 7));
  assert.deepEqual([...table.values()].slice(0, 4), ["number one", "string one", "call 7", "call 14"]);
  table.delete("1");
  assert.equal(table.get(1), "number one");
  assert.deepEqual([...table.entries()][0], [1, "number one"]);
});

// The map keeps a private entry so that emptying it costs no rehash (see driver/churn-map.ts):
// no caller may see it, in its size or its iterations, emptied or cleared.
test("endpoint: ChurnMap emptied or cleared is empty to its callers", async () => {
  const { ChurnMap } = await import("../../src/driver/churn-map.js");
  const table = new ChurnMap<number, string>();
  assert.equal(table.size, 0);
  assert.deepEqual([...table.values()], []);
  for (let id = 0; id < 3_000; id++) {
    table.set(id, `call ${id}`);
    assert.equal(table.size, 1);
    table.delete(id);
  }
  assert.equal(table.size, 0);
  assert.deepEqual([...table.entries()], []);
  table.set(1, "one");
  table.set(2, "two");
  assert.deepEqual([...table.entries()], [[1, "one"], [2, "two"]]);
  table.clear();
  assert.equal(table.size, 0);
  assert.equal(table.get(1), undefined);
  assert.deepEqual([...table.values()], []);
  table.set(3, "three");
  assert.deepEqual([...table.values()], ["three"]);
});

test("endpoint: an onProgress that throws does not escape receive() (the rest of the chunk, the response, is still delivered) and goes to hooks.onError", async () => {
  const errors: unknown[] = [];
  const sent: string[] = [];
  const client = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {} }, { send: (m) => void sent.push(encode(m)), onError: (e: unknown) => void errors.push(e) } as EndpointHooks, new ManualClock());
  const ready = client.open();
  const init = JSON.parse(sent[0]);
  client.receive(JSON.stringify({ jsonrpc: "2.0", id: init.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } }));
  await ready;
  const call = client.request("tools/call", { name: "t" }, { onProgress: () => { throw new Error("listener bug"); } });
  const req = JSON.parse(sent.at(-1)!);
  const token = req.params._meta.progressToken;
  // What one stdio chunk would hold: the progress, then the response.
  assert.doesNotThrow(() => client.receive(JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1 } })));
  client.receive(JSON.stringify({ jsonrpc: "2.0", id: req.id, result: { content: [] } }));
  assert.deepEqual(await call, { content: [] });
  assert.equal(errors.length, 1);
  assert.equal((errors[0] as Error).message, "listener bug");
});

test("endpoint (listener.ts: a hook's error never aborts the caller's loop; basic/utilities/ping: a missed ping is a connection failure): an onNotification that throws in a batch leaves receive() once the answer after it is delivered; an onEvent that throws on the stale event of a tick goes to hooks.onError, and the close after it still happens — the request fails, onClose runs; the rest of the tick was left undone, the kernel closed, the transport open and the request pending for good (found by review)", { timeout: 10_000 }, async () => {
  const clock = new ManualClock();
  const errors: string[] = [];
  const closes: string[] = [];
  const sent: any[] = [];
  const client = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, keepAliveMs: 1000, requestTimeoutMs: 0 }, {
    send: (m) => void sent.push(m),
    onEvent: (e) => {
      if (e.type === "stale") throw new Error("listener bug");
    },
    onNotification: () => {
      throw new Error("notification listener bug");
    },
    onError: (e) => void errors.push((e as Error).message),
    onClose: (r) => void closes.push(r),
  }, clock);
  const ready = client.open();
  client.receive(JSON.stringify({ jsonrpc: "2.0", id: sent[0].id, result: { protocolVersion: "2025-03-26", capabilities: { tools: {}, logging: {} }, serverInfo: { name: "s", version: "1" } } }));
  await ready;
  const call = client.request("tools/call", { name: "t" });
  const req = sent.at(-1);
  // A 2025-03-26 batch: a notification whose listener throws, then another request's answer.
  const list = client.request("tools/list");
  const listReq = sent.at(-1);
  const batch = [{ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }, { jsonrpc: "2.0", id: listReq.id, result: { tools: [] } }];
  assert.throws(() => client.receive(JSON.stringify(batch)), /notification listener bug/);
  assert.deepEqual(await list, { tools: [] });
  assert.doesNotThrow(() => clock.advance(2000));
  await assert.rejects(call, (e: McpError) => e.code === ErrorCode.ConnectionClosed);
  assert.equal(req.method, "tools/call");
  assert.equal(closes.length, 1);
  assert.deepEqual(errors, ["listener bug"]);
});

test("endpoint (README Driver: a hook that throws does not cut what arrived short; basic/index: every request gets its response): an onEvent that throws on the diagnostic of a handler's answer neither leaves the rest of a 2025-03-26 batch unserved (a synchronous handler answers inside the step that served it) nor becomes an unhandled rejection (an async handler's answer has no caller: onError)", { timeout: 10_000 }, async () => {
  const initialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "c", version: "1" } } };
  const server = (onRequest: EndpointHooks["onRequest"], errors: string[], sent: any[]) => {
    const ep = new Endpoint({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} } }, {
      send: (m) => void sent.push(m),
      onRequest,
      // An invalid result is answered -32603 with an invalid-result diagnostic, whose listener fails.
      onEvent: (e) => {
        if (e.type === "diagnostic" && e.code === "invalid-result") throw new Error("onEvent bug");
      },
      onError: (e) => void errors.push((e as Error).message),
    }, new ManualClock());
    ep.receive(JSON.stringify(initialize));
    ep.receive(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    sent.length = 0;
    return ep;
  };
  const errors: string[] = [];
  const sent: any[] = [];
  const sync = server((_m, params) => (params!.name === "bad" ? { content: "not an array" } : { content: [] }), errors, sent);
  const batch = [{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "bad" } }, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "good" } }];
  assert.throws(() => sync.receive(JSON.stringify(batch)), /onEvent bug/, "the caller that fed the step still learns of it");
  const answered = sent.flatMap((m) => (Array.isArray(m) ? m : [m])).map((m) => m.id);
  assert.deepEqual(answered.sort(), [1, 2], "the request after the failing one is served and answered");
  assert.deepEqual(Object.keys(sync.state.inbound), []);
  assert.deepEqual(errors, []);

  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => void unhandled.push(e);
  process.on("unhandledRejection", onUnhandled);
  try {
    const asyncErrors: string[] = [];
    const asyncSent: any[] = [];
    const later = server(async () => ({ content: "not an array" }), asyncErrors, asyncSent);
    later.receive(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } }));
    await flush();
    await flush();
    assert.deepEqual(asyncSent.map((m) => m.error?.code), [ErrorCode.InternalError]);
    assert.deepEqual(asyncErrors, ["onEvent bug"]);
    assert.deepEqual(unhandled, []);
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
});

test("basic/index (ids are unique among requests not yet answered) + progress: once a request is answered, a handler that kept its context speaks for no request, since the peer may reuse the id: no progress, and logs, notifications and requests go out unrelated", async () => {
  const sent: { message: any; related: unknown }[] = [];
  let kept: any;
  let slow: any;
  const server = new Endpoint({ role: "server", info: { name: "s", version: "1" }, capabilities: { tools: { listChanged: true }, logging: {} } }, {
    send: (message, related) => void sent.push({ message, related }),
    onRequest: (_method, params, ctx) => {
      if ((params as any).name === "quick") {
        kept = ctx;
        return { content: [] };
      }
      slow = ctx;
      return new Promise(() => {});
    },
  }, new ManualClock());
  server.receive(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }));
  server.receive(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  server.receive(JSON.stringify({ jsonrpc: "2.0", method: "logging/setLevel", id: 2, params: { level: "debug" } }));
  server.receive(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "quick", _meta: { progressToken: "quick-token" } } }));
  await flush();
  assert.ok(sent.some((s) => s.message.id === 7 && s.message.result !== undefined), "7 answered");
  // The client has its response, so it may send id 7 again, with its own token.
  server.receive(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow", _meta: { progressToken: "slow-token" } } }));
  await flush();
  const from = sent.length;
  kept.progress(50, 100, "late");
  kept.log("info", "late log");
  kept.notify("notifications/tools/list_changed");
  void kept.request("ping").catch(() => {});
  const late = sent.slice(from);
  assert.equal(late.filter((s) => s.message.method === "notifications/progress").length, 0, "no progress under the new request's token");
  assert.deepEqual(late.map((s) => [s.message.method, s.related]), [["notifications/message", undefined], ["notifications/tools/list_changed", undefined], ["ping", undefined]]);
  // The new request's own context still speaks for it.
  slow.progress(1);
  assert.deepEqual(sent.at(-1), { message: { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "slow-token", progress: 1 } }, related: 7 });
});

test("endpoint: open() a second time, or after the handshake, rejects at once (the kernel ignores it, so its promise would never settle)", async () => {
  const { client } = connect({}, {}, { onRequest: () => ({ content: [] }) });
  const first = client.open();
  await assert.rejects(client.open(), (e: McpError) => e.code === ErrorCode.InvalidRequest && /already opened/.test(e.message));
  await first;
  await assert.rejects(client.open(), /already opened/);
});

test("endpoint: open() on a server endpoint rejects at once (the kernel ignores an open given to a server, so its promise would never settle), and the server still serves its client", { timeout: 10_000 }, async () => {
  const { client, server } = connect({}, {}, { onRequest: () => ({ content: [] }) });
  await assert.rejects(server.open(), (e: McpError) => e.code === ErrorCode.InvalidRequest && /client's handshake/.test(e.message));
  await client.open();
  assert.deepEqual(await client.request("tools/call", { name: "t" }), { content: [] });
});

test("endpoint: whatever a handler throws is answered -32603 with a readable message: an object's string message, and a value with no string form (Object.create(null)) described rather than making the catch handler throw", async () => {
  assert.deepEqual(toRpcError({ message: "plain object" }), { code: ErrorCode.InternalError, message: "plain object" });
  assert.deepEqual(toRpcError(Object.create(null)), { code: ErrorCode.InternalError, message: "a thrown value that could not be read" });
  let n = 0;
  const { client } = connect({}, {}, {
    onRequest: async () => {
      throw n++ === 0 ? Object.create(null) : { message: "db down" };
    },
  });
  await client.open();
  await assert.rejects(client.request("tools/call", { name: "a" }), (e: McpError) => e.code === ErrorCode.InternalError && e.message === "a thrown value that could not be read");
  await assert.rejects(client.request("tools/call", { name: "a" }), (e: McpError) => e.message === "db down");
});

test("basic/index (a response carries the request's result): a handler (a server's fallback or intercept) answering with a promise of another realm (node:vm) or a library's thenable is answered with its value, and its rejection with the error; both went out at once as the result {} (found by review)", { timeout: 10_000 }, async () => {
  const foreign = vm.runInNewContext("(v) => Promise.resolve(v)") as (v: unknown) => Promise<JsonObject>;
  assert.equal(foreign({}) instanceof Promise, false, "another realm's promise is no Promise here");
  const answers: (() => unknown)[] = [
    () => foreign({ content: [{ type: "text", text: "vm" }] }),
    () => ({ then: (resolve: (v: unknown) => void) => setImmediate(() => resolve({ content: [{ type: "text", text: "thenable" }] })) }),
    () => ({ then: (_: unknown, reject: (e: unknown) => void) => reject(new McpError({ code: ErrorCode.InvalidParams, message: "refused later" })) }),
  ];
  let n = 0;
  const { client } = connect({}, {}, { onRequest: () => answers[n++]() as JsonObject });
  await client.open();
  assert.deepEqual(await client.request("tools/call", { name: "a" }), { content: [{ type: "text", text: "vm" }] });
  assert.deepEqual(await client.request("tools/call", { name: "a" }), { content: [{ type: "text", text: "thenable" }] });
  await assert.rejects(client.request("tools/call", { name: "a" }), (e: McpError) => e.code === ErrorCode.InvalidParams && e.message === "refused later");
});

test("endpoint: an onError that itself throws, and an async onProgress that rejects, still never escape receive() nor go unhandled", async () => {
  const reported: unknown[] = [];
  const sent: string[] = [];
  const make = (onError: (e: unknown) => void) => new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {} }, { send: (m) => void sent.push(encode(m)), onError } as EndpointHooks, new ManualClock());
  const drive = async (client: Endpoint, onProgress: () => unknown) => {
    sent.length = 0;
    const ready = client.open();
    client.receive(JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(sent[0]).id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } }));
    await ready;
    const call = client.request("tools/call", { name: "t" }, { onProgress: onProgress as never });
    const req = JSON.parse(sent.at(-1)!);
    assert.doesNotThrow(() => client.receive(JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: req.params._meta.progressToken, progress: 1 } })));
    client.receive(JSON.stringify({ jsonrpc: "2.0", id: req.id, result: { content: [] } }));
    assert.deepEqual(await call, { content: [] });
  };
  // onError throws: rethrown on a fresh microtask (an uncaught error), which this test runs itself.
  const rethrown: unknown[] = [];
  const queue = globalThis.queueMicrotask;
  globalThis.queueMicrotask = (fn) => {
    try {
      fn();
    } catch (e) {
      rethrown.push(e);
    }
  };
  try {
    await drive(make(() => { throw new Error("onError bug"); }), () => { throw new Error("listener bug"); });
  } finally {
    globalThis.queueMicrotask = queue;
  }
  assert.deepEqual(rethrown.map((e) => (e as Error).message), ["onError bug"]);
  // An async listener's rejection reaches onError.
  await drive(make((e) => reported.push(e)), async () => { throw new Error("async listener bug"); });
  await flush();
  assert.deepEqual(reported.map((e) => (e as Error).message), ["async listener bug"]);
});

test("endpoint (README: the state shares no object with the application): a handler editing ctx.peer (McpServer's ctx.client) edits a copy; it edited the session's record of the client's handshake, so a later request's sampling/createMessage was refused as undeclared and a snapshot held the edit", async () => {
  const sampling = { model: "m", role: "assistant", content: { type: "text", text: "hi" } };
  let n = 0;
  const { client, server } = connect({}, {}, {
    onRequest: async (_method, _params, ctx) => {
      if (++n === 1) {
        delete (ctx.peer!.capabilities as Record<string, unknown>).sampling;
        return { content: [] };
      }
      return { content: [{ type: "text", text: JSON.stringify(await ctx.request("sampling/createMessage", { messages: [], maxTokens: 1 })) }] };
    },
  }, new ManualClock(), { onRequest: () => sampling });
  await client.open();
  await client.request("tools/call", { name: "edit" });
  const snapshot = JSON.parse(JSON.stringify(server.state));
  assert.deepEqual(snapshot.phase.peer.capabilities, { sampling: {} });
  const result = await client.request("tools/call", { name: "sample" });
  assert.deepEqual(JSON.parse((result.content as { text: string }[])[0].text), sampling);
});

test("endpoint (2025-11-25 basic/lifecycle, Timeouts: the sender SHOULD issue a cancellation and stop waiting; README Driver: a hook that throws does not cut the step short): a send hook that throws on the timeout's or the abort's notifications/cancelled still settles the request (-32001, -32800) and the error goes to onError; the error after the cancellation was never handled, so the request never settled, and the abort listener's throw was an uncaught exception (found by review)", { timeout: 10_000 }, async () => {
  const clock = new ManualClock();
  const errors: string[] = [];
  let broken = false;
  const { client } = connect({ requestTimeoutMs: 1000 }, {}, { onRequest: () => new Promise(() => {}) }, clock, { onError: (e) => void errors.push((e as Error).message) });
  const send = (client as any).hooks.send;
  (client as any).hooks.send = (m: any, related: any) => {
    if (broken && m.method === "notifications/cancelled") throw new Error("transport gone");
    send(m, related);
  };
  await client.open();
  broken = true;
  const timedOut = client.request("tools/call", { name: "slow" });
  await flush();
  assert.doesNotThrow(() => clock.advance(1000));
  await assert.rejects(timedOut, (e: McpError) => e.code === ErrorCode.RequestTimeout);
  const ac = new AbortController();
  const aborted = client.request("tools/call", { name: "slow" }, { signal: ac.signal });
  await flush();
  assert.doesNotThrow(() => ac.abort("user"));
  await assert.rejects(aborted, (e: McpError) => e.code === ErrorCode.RequestCancelled);
  assert.deepEqual(errors, ["transport gone", "transport gone"]);
  assert.deepEqual(client.state.outbound, {});
});

test("endpoint (basic/index: a request is answered or fails; README Driver): a request whose send hook throws fails at once with -32603 naming the failure and leaves the kernel's table, as one that could not be encoded does; it was rejected with the bare error while the kernel kept it in flight (a slot of maxOutboundRequests, and at its timeout a notifications/cancelled for a request never sent), and open() left the handshake waiting for its timeout (found by review)", { timeout: 10_000 }, async () => {
  const clock = new ManualClock();
  let broken = false;
  const log: any[] = [];
  const { client } = connect({ requestTimeoutMs: 1000 }, {}, { onRequest: () => new Promise(() => {}) }, clock);
  const send = (client as any).hooks.send;
  (client as any).hooks.send = (m: any, related: any) => {
    if (broken) throw new Error("pipe broken");
    log.push(m);
    send(m, related);
  };
  await client.open();
  broken = true;
  await assert.rejects(client.request("tools/call", { name: "x" }), (e: McpError) => e.code === ErrorCode.InternalError && /tools\/call request was not sent: send threw: pipe broken/.test(e.message) && !e.fromPeer);
  assert.deepEqual(client.state.outbound, {});
  broken = false;
  clock.advance(1000);
  await flush();
  assert.equal(log.filter((m) => m.method === "notifications/cancelled").length, 0, "no cancellation for a request that never went out");

  // The handshake: open() fails at once, the session closed; it waited for initialize's timeout.
  const closes: string[] = [];
  const lone = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {} }, { send: () => { throw new Error("no pipe"); }, onClose: (r) => void closes.push(r), onError: () => {} }, clock);
  await assert.rejects(lone.open(), (e: McpError) => e.code === ErrorCode.ConnectionClosed && /send threw: no pipe/.test(e.message));
  assert.equal(lone.state.phase.name, "closed");
  assert.equal(closes.length, 1);
});

test("attach (2025-11-25 basic/lifecycle, Shutdown: the connection ends by closing the transport; README Driver: a hook that throws does not cut that short): when the kernel ends the connection (initialize timed out), an onClose hook that throws still has the transport closed (its error to onError); the transport stayed open under a closed kernel (found by review)", { timeout: 10_000 }, async () => {
  const clock = new ManualClock();
  const [near, far] = createMemoryPair();
  const peerSaw: string[] = [];
  far.onMessage(() => {}); // a server that never answers
  far.onClose((r) => void peerSaw.push(r));
  const errors: string[] = [];
  const transportClosed: string[] = [];
  const client = attach(near, { role: "client", info: { name: "c", version: "1" }, capabilities: {}, requestTimeoutMs: 1000 }, {
    onClose: () => {
      throw new Error("onClose bug");
    },
    onError: (e) => void errors.push((e as Error).message),
    onTransportClose: (r) => void transportClosed.push(r),
  }, clock);
  const ready = client.open();
  clock.advance(1000);
  await assert.rejects(ready, (e: McpError) => e.code === ErrorCode.ConnectionClosed);
  await flush();
  assert.deepEqual(errors, ["onClose bug"]);
  assert.equal(transportClosed.length, 1, "the transport was closed");
  assert.equal(peerSaw.length, 1, "the peer saw the close");
});

test("endpoint (README Driver: a hook's promise that rejects goes to onError): a diagnostic the application reports (ctx.diagnose, endpoint.report) reaches an async onEvent as the kernel's own do, and its rejection goes to onError; it was an unhandled rejection (found by review)", { timeout: 10_000 }, async () => {
  const errors: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown): void => void unhandled.push(e);
  process.on("unhandledRejection", onUnhandled);
  try {
    const { client, server } = connect({}, {}, {
      onRequest: (_m, _p, ctx) => {
        ctx.diagnose?.("app-refused", "a refused requestState");
        return { content: [] };
      },
      onEvent: async (e) => {
        if (e.type === "diagnostic" && e.code.startsWith("app-")) throw new Error(`onEvent failed on ${e.code}`);
      },
      onError: (e) => void errors.push((e as Error).message),
    });
    await client.open();
    assert.deepEqual(await client.request("tools/call", { name: "x" }), { content: [] });
    server.report("app-direct", "reported outside any step");
    await flush();
    await flush();
    assert.deepEqual(errors, ["onEvent failed on app-refused", "onEvent failed on app-direct"]);
    assert.deepEqual(unhandled, []);
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
});

/** A transport that records what the endpoint writes, fed by the test. */
function recordingTransport() {
  const lines: string[] = [];
  let receiver: ((text: string) => void) | undefined;
  const t = { send: (text: string) => void lines.push(text), onMessage: (fn: (text: string) => void) => void (receiver = fn), onClose: () => {}, close: () => {} };
  return { t, lines, feed: (value: unknown) => receiver!(typeof value === "string" ? value : JSON.stringify(value)) };
}

test("2025-03-26 basic/index (\"MUST support receiving JSON-RPC batches\") and JSON-RPC 2.0 §6 (the answer to a batch is an array of its responses, sent after all its requests are processed; none for notifications; an empty array is one -32600): over a connected transport (stdio, Web Streams, memory) a server answers a batch with one array line, not one line per response (found by review: a client that sent a batch got its answers as separate lines)", { timeout: 5000 }, async () => {
  const { t, lines, feed } = recordingTransport();
  let release!: () => void;
  const endpoint = attach(t, { role: "server", info: { name: "s", version: "1" }, capabilities: { tools: {} }, versions: ["2025-03-26", "2025-06-18"] }, {
    onRequest: (_m, params) => (params!.name === "slow" ? new Promise<JsonObject>((r) => (release = () => r({ content: [] }))) : params!.name === "big" ? { content: [], n: 10n as unknown as number } : { content: [] }),
  });
  feed({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
  assert.equal(JSON.parse(lines[0]).result.protocolVersion, "2025-03-26");
  lines.length = 0;
  // The handshake's end and a ping in one batch: the ping's answer alone, as an array.
  feed([{ jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: 1, method: "ping" }]);
  assert.deepEqual(lines.map((l) => JSON.parse(l)), [[{ jsonrpc: "2.0", id: 1, result: {} }]]);
  lines.length = 0;
  // A slow request, a fast one, an invalid member and a notification: nothing until the slow one is answered, then one array.
  feed([{ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow" } }, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "fast" } }, 5, { jsonrpc: "2.0", method: "notifications/x" }]);
  await flush();
  assert.deepEqual(lines, [], "the batch's answers wait for its last request");
  release();
  await flush();
  assert.equal(lines.length, 1);
  const answer = JSON.parse(lines[0]);
  assert.ok(Array.isArray(answer));
  assert.deepEqual(answer.map((m: any) => m.id ?? null).sort(), [2, 3, null]);
  assert.equal(answer.find((m: any) => !("id" in m)).error.code, ErrorCode.InvalidRequest);
  lines.length = 0;
  // A cancelled request gets no response: the batch goes out without it.
  feed([{ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "slow" } }, { jsonrpc: "2.0", id: 5, method: "ping" }, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 4 } }]);
  assert.deepEqual(lines.map((l) => JSON.parse(l)), [[{ jsonrpc: "2.0", id: 5, result: {} }]]);
  lines.length = 0;
  // A result with no JSON form: its -32603 stand-in in the array.
  feed([{ jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "big" } }, { jsonrpc: "2.0", id: 7, method: "ping" }]);
  const mixed = lines.map((l) => JSON.parse(l));
  assert.equal(mixed.length, 1);
  assert.deepEqual(mixed[0].map((m: any) => m.error?.code ?? "ok").sort(), [ErrorCode.InternalError, "ok"]);
  lines.length = 0;
  // Notifications alone: nothing. An empty array, or one too long: one error object, no array (JSON-RPC 2.0 §6).
  feed([{ jsonrpc: "2.0", method: "notifications/x" }]);
  assert.deepEqual(lines, []);
  feed("[]");
  const empty = JSON.parse(lines[0]);
  assert.equal(empty.error.code, ErrorCode.InvalidRequest);
  assert.equal(lines.length, 1);
  // A lone message is answered as before.
  lines.length = 0;
  feed({ jsonrpc: "2.0", id: 8, method: "ping" });
  assert.deepEqual(lines.map((l) => JSON.parse(l)), [{ jsonrpc: "2.0", id: 8, result: {} }]);
  assert.equal(endpoint.state.phase.name, "operating");
});

test("2025-03-26 basic/index: a client receiving a server's batch of requests answers it with one array (JSON-RPC 2.0 §6); a 2025-06-18 session still refuses a batch with one -32600 (batches were removed)", { timeout: 5000 }, async () => {
  for (const version of ["2025-03-26", "2025-06-18"] as const) {
    const { t, lines, feed } = recordingTransport();
    const client = attach(t, { role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: [version] }, {});
    const opened = client.open();
    const init = JSON.parse(lines[0]);
    feed({ jsonrpc: "2.0", id: init.id, result: { protocolVersion: version, capabilities: {}, serverInfo: { name: "s", version: "1" } } });
    await opened;
    lines.length = 0;
    feed([{ jsonrpc: "2.0", id: "a", method: "ping" }, { jsonrpc: "2.0", id: "b", method: "ping" }]);
    const sent = lines.map((l) => JSON.parse(l));
    if (version === "2025-03-26") assert.deepEqual(sent, [[{ jsonrpc: "2.0", id: "a", result: {} }, { jsonrpc: "2.0", id: "b", result: {} }]]);
    else {
      assert.equal(sent.length, 1);
      assert.ok(!Array.isArray(sent[0]));
      assert.equal(sent[0].error.code, ErrorCode.InvalidRequest);
    }
  }
});
