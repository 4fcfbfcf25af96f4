// McpClient's `listChanged` option (the official SDKs' client option of that name and shape):
// a list the server declared `listChanged` for is kept current in either era. Spec:
// 2025-11-25 server/tools, server/prompts, server/resources (servers that declared
// listChanged SHOULD send notifications/<list>/list_changed when the list changes) and
// draft basic/patterns/subscriptions (in 2026-07-28 they come on a subscriptions/listen
// stream, the client's filter naming the lists). On the manual clock of setup.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "../../src/api/server.js";
import type { Tool } from "../../src/api/types.js";
import { McpClient } from "../../src/api/client.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { CLIENT, SERVER, connect, rejection } from "./setup.js";

const MODERN = { session: { versions: ["2026-07-28" as const] } };
const LEGACY = { session: { versions: ["2025-11-25" as const] } };
const ok = { content: [{ type: "text" as const, text: "ok" }] };

/** Lets the in-memory pair deliver what is in flight. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

/** What onChanged heard: the tool names, `null` for no items, or the error's message. */
function heard() {
  const calls: (string[] | null | string)[] = [];
  return { calls, onChanged: (error: Error | null, items: Tool[] | null) => void calls.push(error !== null ? `error: ${error.message}` : items === null ? null : items.map((t) => t.name)) };
}

for (const [era, options] of [["2025-11-25", LEGACY], ["2026-07-28", MODERN]] as const) {
  test(`listChanged (${era}; server/tools: list_changed when the list changes; draft subscriptions): a burst of changes within debounceMs is one onChanged with every tool as listed again, on the client's clock; a later change another`, async () => {
    const tools = heard();
    const c = await connect((s: McpServer) => void s.tool("a", {}, () => ok), { ...options, listChanged: { tools: { onChanged: tools.onChanged, debounceMs: 100 } } }, options);
    if (era === "2026-07-28") assert.equal(c.sent("client", "subscriptions/listen").length, 1, "connect() opened one listen for the watched lists");
    c.server.tool("b", {}, () => ok);
    c.server.tool("c", {}, () => ok);
    await settle();
    assert.deepEqual(tools.calls, [], "quiet for debounceMs first");
    c.clock.advance(99);
    await settle();
    assert.deepEqual(tools.calls, []);
    c.clock.advance(1);
    await settle();
    assert.deepEqual(tools.calls, [["a", "b", "c"]]);
    assert.equal(c.sent("client", "tools/list").length, 1, "one walk of the list for the burst");
    c.server.tool("d", {}, () => ok);
    await settle();
    c.clock.advance(100);
    await settle();
    assert.deepEqual(tools.calls, [["a", "b", "c"], ["a", "b", "c", "d"]]);
    c.client.close();
  });
}

test("listChanged: autoRefresh false hands onChanged null items and lists nothing; debounceMs 0 calls it at each change; a list the server did not declare listChanged for is not watched (no listen in 2026-07-28)", async () => {
  const tools = heard();
  const c = await connect((s: McpServer) => void s.tool("a", {}, () => ok), { ...LEGACY, listChanged: { tools: { onChanged: tools.onChanged, autoRefresh: false, debounceMs: 0 } } }, LEGACY);
  c.server.tool("b", {}, () => ok);
  await settle();
  c.server.tool("c", {}, () => ok);
  await settle();
  assert.deepEqual(tools.calls, [null, null]);
  assert.equal(c.sent("client", "tools/list").length, 0);
  c.client.close();

  // The server serves no prompts: it declares no prompts.listChanged, and nothing is opened.
  const prompts = heard();
  const m = await connect((s: McpServer) => void s.tool("a", {}, () => ok), { ...MODERN, listChanged: { prompts: { onChanged: prompts.onChanged as never } } }, MODERN);
  assert.equal(m.sent("client", "subscriptions/listen").length, 0);
  m.client.close();
});

test("listChanged: a change that comes while the list is being walked wins: onChanged never hands back a list older than one it already gave", async () => {
  const tools = heard();
  let pages = 0;
  const c = await connect((s: McpServer) => void s.tool("a", {}, () => ok), { ...LEGACY, listChanged: { tools: { onChanged: tools.onChanged, debounceMs: 0 } } }, {
    ...LEGACY,
    // Each tools/list is held until the test lets it go, to change the list meanwhile.
    intercept: async (method, _params, _ctx, next) => {
      if (method === "tools/list") {
        pages++;
        await gate;
      }
      return next();
    },
  });
  let release!: () => void;
  let gate = new Promise<void>((r) => (release = r));
  c.server.tool("b", {}, () => ok); // the walk for this change is held
  await settle();
  assert.equal(pages, 1);
  const first = release;
  gate = new Promise<void>((r) => (release = r));
  c.server.tool("c", {}, () => ok); // a newer change, and its own walk
  await settle();
  first();
  await settle();
  assert.deepEqual(tools.calls, [], "the older walk's list is not handed back");
  release();
  await settle();
  assert.deepEqual(tools.calls, [["a", "b", "c"]]);
  c.client.close();
});

test("listChanged: a walk that fails is onChanged(error, null); what onChanged throws goes to onError; nothing is handed back once the client closed", async () => {
  const tools = heard();
  const errors: unknown[] = [];
  let fail = true;
  const c = await connect(
    (s: McpServer) => void s.tool("a", {}, () => ok),
    {
      ...LEGACY,
      onError: (e) => void errors.push(e),
      listChanged: {
        tools: {
          debounceMs: 0,
          onChanged: (error, items) => {
            tools.onChanged(error, items);
            if (items !== null) throw new Error("the application's bug");
          },
        },
      },
    },
    { ...LEGACY, intercept: (method, _params, _ctx, next) => (method === "tools/list" && fail ? Promise.reject(new Error("list unavailable")) : next()) },
  );
  c.server.tool("b", {}, () => ok);
  await settle();
  assert.equal(tools.calls.length, 1);
  assert.match(String(tools.calls[0]), /^error: .*list unavailable/);
  fail = false;
  c.server.tool("c", {}, () => ok);
  await settle();
  assert.deepEqual(tools.calls.slice(1), [["a", "b", "c"]]);
  assert.deepEqual(errors.map((e) => (e as Error).message), ["the application's bug"]);
  // A change heard just before the close: its debounced walk never reports.
  const late = heard();
  const d = await connect((s: McpServer) => void s.tool("a", {}, () => ok), { ...LEGACY, listChanged: { tools: { onChanged: late.onChanged, debounceMs: 50 } } }, LEGACY);
  d.server.tool("b", {}, () => ok);
  await settle();
  d.client.close();
  d.clock.advance(50);
  await settle();
  assert.deepEqual(late.calls, []);
  c.client.close();
});

test("listChanged (draft subscriptions: a server ends a listen gracefully, a draining instance say, and the client listens again): the watch listens again, no sooner than a second after its last listen, and lists again, as changes may have been missed; a change after it is heard", async () => {
  const tools = heard();
  const c = await connect((s: McpServer) => void s.tool("a", {}, () => ok), { ...MODERN, listChanged: { tools: { onChanged: tools.onChanged, debounceMs: 0 } } }, MODERN);
  const first = c.sent("client", "subscriptions/listen")[0];
  c.endpoint.feed({ type: "end-subscription", now: c.clock.now(), id: first.id });
  await settle();
  c.server.tool("b", {}, () => ok); // while no listen is open
  await settle();
  assert.equal(c.sent("client", "subscriptions/listen").length, 1, "not at once");
  c.clock.advance(1000);
  await settle();
  assert.equal(c.sent("client", "subscriptions/listen").length, 2, "listened again");
  assert.deepEqual(tools.calls, [["a", "b"]], "and listed again: the change made meanwhile is not lost");
  c.server.tool("c", {}, () => ok);
  await settle();
  assert.deepEqual(tools.calls, [["a", "b"], ["a", "b", "c"]]);
  c.client.close();
  c.clock.advance(5000);
  await settle();
  assert.equal(c.sent("client", "subscriptions/listen").length, 2, "a closed client never listens again");

  // A change heard, then the listen ended by the server, then the client closed before the
  // debounce ran out: nothing is handed back (found by review: onChanged got the walk's error).
  const late = heard();
  const d = await connect((s: McpServer) => void s.tool("a", {}, () => ok), { ...MODERN, listChanged: { tools: { onChanged: late.onChanged, debounceMs: 300 } } }, MODERN);
  d.server.tool("b", {}, () => ok);
  await settle();
  d.endpoint.feed({ type: "end-subscription", now: d.clock.now(), id: d.sent("client", "subscriptions/listen")[0].id });
  await settle();
  d.clock.advance(100);
  d.client.close();
  d.clock.advance(2000);
  await settle();
  assert.deepEqual(late.calls, []);
  assert.equal(d.sent("client", "tools/list").length, 0);
});

test("listChanged (draft subscriptions): a close while a change is debounced and a listen again is pending leaves no timer behind and reports nothing to onError (found by review: both timers outlived the close, and the cut-short listen went to onError)", async () => {
  const tools = heard();
  const errors: unknown[] = [];
  const c = await connect((s: McpServer) => void s.tool("a", {}, () => ok), { ...MODERN, onError: (e) => void errors.push(e), listChanged: { tools: { onChanged: tools.onChanged, debounceMs: 300 } } }, MODERN);
  c.server.tool("b", {}, () => ok);
  await settle();
  c.endpoint.feed({ type: "end-subscription", now: c.clock.now(), id: c.sent("client", "subscriptions/listen")[0].id });
  await settle();
  c.client.close();
  await settle();
  assert.equal(c.clock.pendingTimers, 0);
  c.clock.advance(5000);
  await settle();
  assert.deepEqual([tools.calls, errors], [[], []]);

  // A listen again that the client's own close() cuts short is no failure either.
  const d = await connect((s: McpServer) => void s.tool("a", {}, () => ok), { ...MODERN, onError: (e) => void errors.push(e), listChanged: { tools: { onChanged: tools.onChanged } } }, MODERN);
  d.endpoint.feed({ type: "end-subscription", now: d.clock.now(), id: d.sent("client", "subscriptions/listen")[0].id });
  await settle();
  // The listen again goes out at 1 s; the client closes before its acknowledgment comes.
  d.clock.advance(1000);
  d.client.close();
  await settle();
  assert.deepEqual(errors, []);

  // A close in the very turn the listen again is acknowledged (a listener of the
  // acknowledgment closes): no debounce is armed after it (found by review).
  const e = await connect((s: McpServer) => void s.tool("a", {}, () => ok), { ...MODERN, listChanged: { tools: { onChanged: tools.onChanged, debounceMs: 300 } } }, MODERN);
  e.endpoint.feed({ type: "end-subscription", now: e.clock.now(), id: e.sent("client", "subscriptions/listen")[0].id });
  await settle();
  e.client.onNotification("notifications/subscriptions/acknowledged", () => e.client.close());
  e.clock.advance(1000);
  await settle();
  assert.equal(e.sent("client", "subscriptions/listen").length, 2);
  assert.equal(e.clock.pendingTimers, 0);
});

test("listChanged (lifecycle: connect rejects when the transport closes first; draft subscriptions): a close while connect()'s listen awaits its acknowledgment (the client's close(), the server gone) rejects connect with -32000 and reports nothing to onError (found by review: connect resolved on a closed connection, and the cut-short listen went to onError, without one an uncaught exception)", { timeout: 10_000 }, async () => {
  for (const who of ["client", "server"] as const) {
    const clock = new ManualClock();
    const server = new McpServer(SERVER, { clock, ...MODERN });
    server.tool("a", {}, () => ok);
    let client!: McpClient;
    // Closed as soon as the listen goes out, before the server can acknowledge it.
    const [s, t] = createMemoryPair({ onSend: (from, text) => void (from === 1 && text.includes('"subscriptions/listen"') && queueMicrotask(() => (who === "client" ? client.close() : s.close()))) });
    server.connect(s);
    const errors: unknown[] = [];
    client = new McpClient(CLIENT, { clock, ...MODERN, onError: (e) => void errors.push(e), listChanged: { tools: { onChanged: () => {} } } });
    const e = await rejection(client.connect(t));
    await settle();
    assert.equal(e.code, -32000, who);
    assert.deepEqual(errors, [], who);
  }
});

test("listChanged over Streamable HTTP, 2025-11-25 (Session Management item 4: after a 404 the client starts a new session, on a server that may have other lists and sends no list_changed for what it had from the start): each watched list is walked again", async () => {
  const { McpServer: Server } = await import("../../src/api/server.js");
  const { createHttpHandler } = await import("../../src/transports/http-server.js");
  const { httpClientTransport } = await import("../../src/transports/http-client.js");
  const generation = (tools: string[]) => {
    const server = new Server({ name: "s", version: "1" });
    for (const t of tools) server.tool(t, {}, () => ok);
    return { server, handler: createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() }) };
  };
  const one = generation(["a"]);
  const two = generation(["a", "z"]);
  let live = one;
  const tools = heard();
  const client = new McpClient(CLIENT, { listChanged: { tools: { onChanged: tools.onChanged, debounceMs: 0 } } });
  await client.connect(httpClientTransport("http://127.0.0.1/mcp", { openGetStream: false, fetch: async (url, init) => live.handler(new Request(url, init)) }));
  live = two;
  one.handler.close();
  await client.ping(); // meets 404: a new session, on the new server
  for (let i = 0; i < 50 && tools.calls.length === 0; i++) await settle();
  assert.deepEqual(tools.calls, [["a", "z"]]);
  client.close();
  two.handler.close();

  // A new server that serves no tools: nothing to walk, no error handed to onChanged (found by review).
  const three = generation(["b"]);
  const four = { server: new Server({ name: "s", version: "1" }), handler: undefined as unknown as ReturnType<typeof createHttpHandler> };
  four.server.prompt("p", {}, () => ({ messages: [] }));
  four.handler = createHttpHandler({ sessionIdleMs: 0, createSession: four.server.httpSession() });
  let now: { handler: (r: Request) => Promise<Response> } = three;
  const noTools = heard();
  const other = new McpClient(CLIENT, { listChanged: { tools: { onChanged: noTools.onChanged, debounceMs: 0 } } });
  await other.connect(httpClientTransport("http://127.0.0.1/mcp", { openGetStream: false, fetch: async (url, init) => now.handler(new Request(url, init)) }));
  now = four;
  three.handler.close();
  await other.ping();
  for (let i = 0; i < 10; i++) await settle();
  assert.deepEqual(noTools.calls, []);
  other.close();
  four.handler.close();
});

test("listChanged options are checked when the client is made: a misspelled list or field, an onChanged that is no function, a bad debounceMs, each a TypeError naming it", () => {
  const onChanged = () => {};
  assert.throws(() => new McpClient(CLIENT, { listChanged: { tool: { onChanged } } as never }), /listChanged: unknown option "tool"; did you mean "tools"\?/);
  assert.throws(() => new McpClient(CLIENT, { listChanged: { tools: { onChange: onChanged } } as never }), /listChanged\.tools: unknown option "onChange"; did you mean "onChanged"\?/);
  assert.throws(() => new McpClient(CLIENT, { listChanged: { tools: {} } as never }), /listChanged\.tools\.onChanged must be a function/);
  assert.throws(() => new McpClient(CLIENT, { listChanged: { tools: { onChanged, debounceMs: -1 } } }), /debounceMs must be a finite number/);
  assert.throws(() => new McpClient(CLIENT, { listChanged: { tools: { onChanged, autoRefresh: "yes" as never } } }), /autoRefresh must be a boolean/);
  assert.throws(() => new McpClient(CLIENT, { listChanged: [] as never }), /listChanged must be an object/);
  new McpClient(CLIENT, { listChanged: { tools: { onChanged }, prompts: undefined } });
});

test("listChanged over Streamable HTTP, 2026-07-28 (draft subscriptions: a drop MAY trigger a reconnect; the HTTP connection outlives a server down for a while): a listen again that gets no answer is tried again, each time twice as late up to a minute, until one is acknowledged; then the list is walked again and changes are heard (found by review: one failed listen again ended the watch for good)", { timeout: 10_000 }, async () => {
  const { createHttpHandler } = await import("../../src/transports/http-server.js");
  const { httpClientTransport } = await import("../../src/transports/http-client.js");
  const clock = new ManualClock();
  const server = new McpServer(SERVER, MODERN);
  server.tool("a", {}, () => ok);
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
  let down = false;
  const listens: number[] = [];
  const streams = new Set<AbortController>();
  const tools = heard();
  const errors: unknown[] = [];
  const client = new McpClient(CLIENT, { ...MODERN, clock, onError: (e) => void errors.push(e), listChanged: { tools: { onChanged: tools.onChanged, debounceMs: 0 } } });
  await client.connect(
    httpClientTransport("http://127.0.0.1/mcp", {
      openGetStream: false,
      fetch: async (url, init) => {
        const listen = String(init?.body).includes('"subscriptions/listen"');
        if (listen) listens.push(clock.now());
        if (down) throw new TypeError("fetch failed");
        // The network under the listen's stream, to break it.
        const net = new AbortController();
        init?.signal?.addEventListener("abort", () => net.abort());
        if (listen) streams.add(net);
        return handler(new Request(url, { ...init, signal: net.signal }));
      },
    }),
  );
  assert.deepEqual(listens, [0]);
  // The server goes down: the listen's stream breaks, and nothing answers for a while.
  down = true;
  for (const net of streams) net.abort("network down");
  await settle();
  for (let t = 0; t < 16_000; t += 500) {
    clock.advance(500);
    await settle();
  }
  assert.deepEqual(listens, [0, 1000, 3000, 7000, 15000], "tried again, twice as late each time");
  assert.equal(errors.length, 4, "each failure reported to onError");
  down = false;
  clock.advance(16_000); // the next try, at 31 s
  await settle();
  assert.deepEqual(listens, [0, 1000, 3000, 7000, 15000, 31000]);
  assert.deepEqual(tools.calls, [["a"]], "listed again once listening");
  server.tool("b", {}, () => ok);
  await settle();
  assert.deepEqual(tools.calls, [["a"], ["a", "b"]], "a change after it is heard");
  client.close();
  assert.equal(clock.pendingTimers, 0);
  handler.close();
});
