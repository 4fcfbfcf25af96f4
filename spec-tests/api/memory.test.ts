// Spec: 2025-11-25 basic/transports: a transport carries JSON-RPC messages as text, in
// order; either side may close it. The in-memory pair keeps that contract in-process.
import { test } from "node:test";
import { execFileSync } from "node:child_process";
import assert from "node:assert/strict";
import { connectMemory, createMemoryPair } from "../../src/transports/memory.js";
import { McpClient, McpServer } from "../../src/api/index.js";
import { ManualClock } from "../../src/driver/clock.js";
import { McpError } from "../../src/driver/endpoint.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { blockText } from "../harness/content.js";

const tick = () => new Promise<void>((r) => queueMicrotask(r));

test("memory pair: delivery is asynchronous and FIFO", async () => {
  const [a, b] = createMemoryPair();
  const got: string[] = [];
  b.onMessage((t) => got.push(t));
  a.send("1");
  a.send("2");
  assert.deepEqual(got, [], "nothing is delivered inside send");
  await tick();
  a.send("3");
  await tick();
  await tick();
  assert.deepEqual(got, ["1", "2", "3"]);
});

test("memory pair: messages sent before the receiver registers wait for it, in order", async () => {
  const [a, b] = createMemoryPair();
  a.send("early-1");
  a.send("early-2");
  await tick();
  const got: string[] = [];
  b.onMessage((t) => got.push(t));
  await tick();
  assert.deepEqual(got, ["early-1", "early-2"]);
});

// The inbox keeps its storage between drains (slots overwritten, not cut off): what was
// delivered must never come again, whatever the drain before it held.
test("memory pair: each message arrives once, in order, across drains of every size and messages sent to an end while it delivers", async () => {
  const [a, b] = createMemoryPair();
  const got: string[] = [];
  b.onMessage((t) => {
    got.push(t);
    // Sent to b while b is delivering: it joins the drain under way, after what was queued.
    if (t === "echo") a.send("echoed");
  });
  const sent: string[] = [];
  const send = (t: string) => {
    sent.push(t);
    a.send(t);
  };
  for (const burst of [3, 2000, 1, 5, 1500, 2]) {
    for (let i = 0; i < burst; i++) send(`${burst}-${i}`);
    send("echo");
    sent.push("echoed");
    await tick();
    assert.deepEqual(got, sent, `after a burst of ${burst}`);
  }
});

test("memory pair: closing fires the local onClose at once; the peer closes after what was sent before", async () => {
  const log: string[] = [];
  const [a, b] = createMemoryPair({ onSend: (from, t) => log.push(`sent ${from}:${t}`) });
  a.onClose((r) => log.push(`a closed: ${r}`));
  b.onClose((r) => log.push(`b closed: ${r}`));
  b.onMessage((t) => log.push(`b got ${t}`));
  a.send("last words");
  a.close();
  assert.equal(a.closed, true);
  assert.equal(b.closed, false);
  a.close(); // idempotent
  a.send("after close"); // a no-op
  await tick();
  assert.deepEqual(log, ["sent 0:last words", "a closed: closed", "b got last words", "b closed: peer closed"]);
  assert.equal(b.closed, true);
  b.send("to a closed peer");
  await tick();
  assert.equal(log.length, 4);
});

// transport contract (src/api/transport.ts): onClose "is called exactly once ... whether the close came from this side or the peer".
test("memory pair: a close listener registered after the end closed is called at once, once, with the reason (either side's close)", async () => {
  const [a, b] = createMemoryPair();
  a.close();
  await tick();
  const log: string[] = [];
  a.onClose((r) => log.push(`a: ${r}`));
  b.onClose((r) => log.push(`b: ${r}`));
  assert.deepEqual(log, ["a: closed", "b: peer closed"]);
  a.close();
  b.close();
  assert.equal(log.length, 2);
});

// basic/lifecycle "Shutdown": a closed transport ends the connection; the client must not wait for the initialize timeout.
for (const values of [false, true]) {
  test(`memory pair${values ? " (values)" : ""}: connecting to an end closed before connect: the client rejects at once with -32000, the server keeps no connection`, async () => {
    const clock = new ManualClock(); // never advanced: a connect that waited for its timeout would never settle
    const [s, c] = createMemoryPair({ values });
    c.close();
    s.close();
    const client = new McpClient({ name: "c", version: "1" }, { clock });
    await assert.rejects(client.connect(c), { code: -32000 });
    const server = new McpServer({ name: "s", version: "1" }, { clock });
    server.connect(s);
    assert.equal(server.connectionCount, 0);
  });
}

test("memory pair: a receiver that closes its end stops delivery of the rest", async () => {
  const [a, b] = createMemoryPair();
  const got: string[] = [];
  b.onMessage((t) => {
    got.push(t);
    b.close();
  });
  a.send("1");
  a.send("2");
  await tick();
  assert.deepEqual(got, ["1"]);
});

test("connectMemory: a server and a client in one call", async () => {
  const clock = new ManualClock();
  const server = new McpServer({ name: "s", version: "1" }, { clock });
  server.tool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, (args) => ({ content: [{ type: "text", text: String(args.text) }] }));
  const client = new McpClient({ name: "c", version: "1" }, { clock });
  const wire: string[] = [];
  const { server: endpoint, client: ready } = connectMemory((t) => server.connect(t), (t) => client.connect(t), { onSend: (_from, text) => wire.push(text) });
  await ready;
  assert.equal(typeof endpoint.request, "function");
  assert.deepEqual(await client.callTool("echo", { text: "hi" }), { content: [{ type: "text", text: "hi" }] });
  // What crosses the pair is the codec's text: compact JSON, one message per send.
  for (const text of wire) {
    assert.doesNotMatch(text, /\n/);
    assert.equal(JSON.parse(text).jsonrpc, "2.0");
  }
});

// values: true — the pair hands message objects over (as the official SDKs' in-memory
// transport does); the receiving kernel must still check them as it checks parsed text
// (basic/index: a request id "MUST be a string or integer"; an invalid message gets the
// JSON-RPC -32600 error).

test("memory pair (values): objects cross as themselves, in order with text; the observer sees their text", async () => {
  const sent: string[] = [];
  const [a, b] = createMemoryPair({ values: true, onSend: (_from, text) => sent.push(text) });
  const got: unknown[] = [];
  b.onMessage((t) => got.push(`text ${t}`));
  b.onValue?.((v) => got.push(v));
  const message = { jsonrpc: "2.0" as const, method: "notifications/initialized" };
  a.send("first");
  a.sendValue!(message);
  a.send("last");
  await tick();
  assert.deepEqual(got, ["text first", message, "text last"]);
  assert.equal(got[1], message, "the very object, not a copy");
  assert.deepEqual(sent, ["first", JSON.stringify(message), "last"]);
});

test("memory pair (values): a receiver without onValue gets an object as its encoded text", async () => {
  const [a, b] = createMemoryPair({ values: true });
  const got: string[] = [];
  b.onMessage((t) => got.push(t));
  a.sendValue!({ jsonrpc: "2.0", id: 1, result: {} });
  await tick();
  assert.deepEqual(got, ['{"jsonrpc":"2.0","id":1,"result":{}}']);
  assert.equal(createMemoryPair()[0].sendValue, undefined, "text pairs have no sendValue: attach encodes");
});

test("memory pair (values): text reaching an end with only onValue registered waits for onMessage, in order, without spinning on microtasks (it rescheduled its delivery forever and froze the process)", async () => {
  const [a, b] = createMemoryPair({ values: true });
  const got: unknown[] = [];
  b.onValue?.((v) => got.push(v));
  // Count the pair's drains; past a bound, stop forwarding them so a spin ends the test instead of freezing it.
  // A drain is queued as a settled promise's reaction (an explicit `then`; `await` takes no
  // `then` from the prototype) or, as it once was, with queueMicrotask: either is counted.
  const real = globalThis.queueMicrotask;
  const realThen = Promise.prototype.then;
  let scheduled = 0;
  globalThis.queueMicrotask = (fn) => {
    if (++scheduled <= 50) real(fn);
  };
  Promise.prototype.then = function (this: Promise<unknown>, ...handlers: unknown[]) {
    return ++scheduled <= 50 ? realThen.apply(this, handlers as never) : realThen.call(this);
  } as typeof realThen;
  try {
    a.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    a.sendValue!({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
    for (let i = 0; i < 60; i++) await new Promise<void>((r) => real(r));
  } finally {
    globalThis.queueMicrotask = real;
    Promise.prototype.then = realThen;
  }
  assert.ok(scheduled <= 2, `the end rescheduled its delivery ${scheduled} times with nothing it could deliver`);
  assert.equal(got.length, 0, "the object behind the text waits too: order is kept");
  b.onMessage((t) => got.push(`text ${t}`));
  await tick();
  assert.deepEqual(got, ['text {"jsonrpc":"2.0","method":"notifications/initialized"}', { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }]);
});

test("memory pair (values): McpServer and McpClient talk in objects, and malformed objects get the text path's errors", async () => {
  const clock = new ManualClock();
  const server = new McpServer({ name: "s", version: "1" }, { clock });
  server.tool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, (args) => ({ content: [{ type: "text", text: String(args.text) }] }));
  const client = new McpClient({ name: "c", version: "1" }, { clock });
  const { client: ready } = connectMemory((t) => server.connect(t), (t) => client.connect(t), { values: true });
  await ready;
  assert.deepEqual(await client.callTool("echo", { text: "hi" }), { content: [{ type: "text", text: "hi" }] });
  // tools.mdx (2025-11-25): invalid arguments are a tool execution error, isError true.
  assert.equal((await client.callTool("echo", { text: 7 as unknown as string })).isError, true);

  // A raw end speaking objects to the server: the kernel's decodeValue and schema checks answer.
  const [s, raw] = createMemoryPair({ values: true });
  server.connect(s);
  const replies: any[] = [];
  raw.onValue!((v) => replies.push(v));
  raw.sendValue!({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
  raw.sendValue!({ jsonrpc: "1.0", id: 2, method: "ping" } as never);
  raw.sendValue!({ jsonrpc: "2.0", id: 2.5, method: "ping" } as never);
  const cyclic: any = { jsonrpc: "2.0", id: 3, method: "ping", params: {} };
  cyclic.params.self = cyclic.params;
  raw.sendValue!(cyclic);
  await tick();
  await tick();
  assert.equal(replies[0].id, 1);
  assert.equal(replies[0].result.protocolVersion, "2025-11-25");
  assert.deepEqual(replies.slice(1).map((r) => [r.id, r.error?.code]), [[2, -32600], [null, -32600], [3, -32600]]);
});

// Values with no JSON form, in either mode: the pair must behave as a pipe would. Spec:
// 2025-11-25 basic/index "Responses" (a response MUST be sent for every request: a result
// that cannot be encoded is answered -32603) and basic/transports (messages are JSON
// text: what crosses is what JSON can carry, a Date as its string).
for (const values of [false, true]) {
  const mode = values ? "values" : "text";

  test(`memory pair (${mode}): a tool result with no JSON form is answered -32603 at once; a Date crosses as its string; the connection goes on`, async () => {
    const clock = new ManualClock(); // never advanced: an answer that waited for a timeout would never come
    const server = new McpServer({ name: "s", version: "1" }, { clock });
    const cyclic: any = { type: "text", text: "loop" };
    cyclic.self = cyclic;
    server.tool("bigint", {}, () => ({ content: [{ type: "text", text: "n" }], structuredContent: { n: 1n as never } }));
    server.tool("cycle", {}, () => ({ content: [cyclic] }));
    server.tool("date", {}, () => ({ content: [{ type: "text", text: "d" }], structuredContent: { at: new Date(0) as never } }));
    const client = new McpClient({ name: "c", version: "1" }, { clock });
    const { client: ready } = connectMemory((t) => server.connect(t), (t) => client.connect(t), { values });
    await ready;
    for (const name of ["bigint", "cycle"]) {
      await assert.rejects(client.callTool(name, {}), (e: any) => e.code === -32603 && /could not be encoded/.test(e.message), name);
    }
    const dated = await client.callTool("date", {});
    assert.deepEqual(dated.structuredContent, { at: "1970-01-01T00:00:00.000Z" }, "as JSON.stringify gives it, not a Date");
    client.close();
  });

  test(`memory pair (${mode}): a request whose arguments have no JSON form fails at once with -32603, and never reaches the server`, async () => {
    const clock = new ManualClock();
    const server = new McpServer({ name: "s", version: "1" }, { clock });
    let calls = 0;
    server.tool("echo", {}, () => (calls++, { content: [{ type: "text", text: "ok" }] }));
    const client = new McpClient({ name: "c", version: "1" }, { clock });
    const { client: ready } = connectMemory((t) => server.connect(t), (t) => client.connect(t), { values });
    await ready;
    await assert.rejects(client.callTool("echo", { n: 1n as never }), (e: any) => e.code === -32603 && /tools\/call request was not sent/.test(e.message));
    assert.equal(calls, 0);
    assert.equal(blockText((await client.callTool("echo", {})).content[0]), "ok", "the connection goes on");
    assert.equal(calls, 1);
    client.close();
  });
}

test("memory pair (values): a message whose data has a throwing getter gets the text path's answer (-32603 at once, nothing uncaught) and the pair serves on", async () => {
  for (const values of [true, false]) {
    const server = new McpServer({ name: "s", version: "1" });
    let runs = 0;
    server.tool("bad", {}, () => (runs++, { content: [], structuredContent: { get g(): never { throw new Error("getter"); } } }));
    server.tool("ok", {}, () => ({ content: [{ type: "text", text: "fine" }] }));
    const client = new McpClient({ name: "c", version: "1" });
    const { client: ready } = connectMemory((t) => server.connect(t), (t) => client.connect(t), { values });
    await ready;
    // Client side: arguments with a throwing getter are refused before sending.
    await assert.rejects(client.callTool("ok", { get x(): never { throw new Error("arg getter"); } }), (e: { code?: number }) => e.code === -32603);
    // Server side: the result cannot be sent; the caller gets -32603 now, the handler ran once.
    await assert.rejects(client.callTool("bad"), (e: { code?: number; message?: string }) => e.code === -32603 && /could not be encoded/.test(e.message ?? ""));
    assert.equal(runs, 1, `values ${values}`);
    assert.equal(blockText((await client.callTool("ok")).content[0]), "fine");
    client.close();
  }
});

test("memory pair: a receiver that throws gets each message once, and the rest still arrive (the throw is the receiver's own, uncaught: run in a child process)", () => {
  const memory = new URL("../../src/transports/memory.js", import.meta.url).href;
  const script = `
    const { createMemoryPair } = await import(${JSON.stringify(memory)});
    const [a, b] = createMemoryPair();
    const got = [];
    let thrown = 0;
    process.on("uncaughtException", () => thrown++);
    b.onMessage((t) => { got.push(t); if (t === "boom") throw new Error("receiver bug"); });
    a.send("one"); a.send("boom"); a.send("three");
    setTimeout(() => console.log(JSON.stringify({ got, thrown })), 20);`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  assert.deepEqual(JSON.parse(out), { got: ["one", "boom", "three"], thrown: 1 });
});

test("memory pair: an onSend observer that throws loses no message, in either mode, and send() does not throw (the Transport contract); the error is rethrown on a fresh microtask, not swallowed", async () => {
  for (const values of [false, true]) {
    const errors: unknown[] = [];
    const prior = process.listeners("uncaughtException");
    process.removeAllListeners("uncaughtException");
    process.on("uncaughtException", (e) => void errors.push(e));
    try {
      const [s, c] = createMemoryPair({
        values,
        onSend: (_from, text) => {
          if (text.includes('"tools/call"') || text.includes('"text":"ok"')) throw new Error("tracer broke");
        },
      });
      const server = new McpServer({ name: "s", version: "1" });
      server.tool("t", {}, () => ({ content: [{ type: "text", text: "ok" }] }));
      server.connect(s);
      const client = new McpClient({ name: "c", version: "1" }, { clock: new ManualClock() });
      await client.connect(c);
      // The call below, both ways: the request and its answer each meet the broken observer.
      const result = await client.callTool("t", {});
      assert.deepEqual(result.content, [{ type: "text", text: "ok" }], `values: ${values}`);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(errors.map((e) => (e as Error).message), ["tracer broke", "tracer broke"]);
      client.close();
    } finally {
      process.removeAllListeners("uncaughtException");
      for (const l of prior) process.on("uncaughtException", l);
    }
  }
});

// basic/transports: a transport carries one connection. A closed transport given to a new
// client makes connect fail at once with why it closed (not at the 60 s initialize timeout).
test("memory pair: connect over an end that already closed rejects at once with its close reason; the end's new close listener is told", async () => {
  const [s, c] = createMemoryPair();
  new McpServer({ name: "s", version: "1" }).connect(s);
  const first = new McpClient({ name: "c", version: "1" }, { clock: new ManualClock() });
  await first.connect(c);
  first.close();
  const second = new McpClient({ name: "c2", version: "1" }, { clock: new ManualClock() });
  const closes: string[] = [];
  second.onClose((r) => closes.push(r));
  // The manual clock never advances: only an immediate rejection settles this.
  await assert.rejects(second.connect(c), (e: McpError) => e.code === ErrorCode.ConnectionClosed && e.message === "closed");
  assert.deepEqual(closes, ["closed"]);
});

test("client: a transport another client is connected over is refused (TypeError), and the first client keeps its connection", async () => {
  const [s, c] = createMemoryPair();
  const server = new McpServer({ name: "s", version: "1" });
  server.tool("t", {}, () => ({ content: [] }));
  server.connect(s);
  const first = new McpClient({ name: "c", version: "1" }, { clock: new ManualClock() });
  await first.connect(c);
  const second = new McpClient({ name: "c2", version: "1" }, { clock: new ManualClock() });
  await assert.rejects(second.connect(c), (e: Error) => e instanceof TypeError && /already carries a connection/.test(e.message));
  assert.deepEqual((await first.listTools()).tools.map((t) => t.name), ["t"]);
  // The refused client holds nothing of the transport: closing it leaves the first one's open.
  second.close();
  assert.deepEqual((await first.callTool("t")).content, []);
  // Refused on the server's side too.
  assert.throws(() => server.connect(s), TypeError);
  first.close();
});

test("client: connect after the client closed says it is closed and to create a new McpClient", async () => {
  const { client, server } = await (async () => {
    const [s, c] = createMemoryPair();
    const server = new McpServer({ name: "s", version: "1" });
    server.connect(s);
    const client = new McpClient({ name: "c", version: "1" }, { clock: new ManualClock() });
    await client.connect(c);
    return { client, server };
  })();
  client.close();
  const [s2, c2] = createMemoryPair();
  server.connect(s2);
  await assert.rejects(client.connect(c2), (e: McpError) => e.code === ErrorCode.InvalidRequest && /this client is closed.*create a new McpClient/.test(e.message));
  // A client closed before it ever connected says the same.
  const unused = new McpClient({ name: "c", version: "1" });
  unused.close();
  await assert.rejects(unused.connect(c2), /this client is closed/);
});
