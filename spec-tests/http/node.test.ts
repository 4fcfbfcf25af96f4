// Spec: 2025-11-25 basic/transports ("Streamable HTTP"; Security Warning item 2: local
// servers SHOULD bind to 127.0.0.1). The node:http bridge over a real socket on an
// ephemeral port: streaming both ways, client aborts, and the client transport on the
// runtime's own fetch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Endpoint } from "../../src/driver/endpoint.js";
import { encode } from "../../src/jsonrpc/codec.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { connect, type Socket } from "node:net";
import { ManualClock } from "../../src/driver/clock.js";
import { serveNode, toNodeListener, WRITE_STALL_MS, type FetchHandler } from "../../src/transports/http-node.js";
import { Agent, createServer, request, type ServerResponse } from "node:http";
import { FAST_ENTRY, fastEntryOf, type HttpRequestView } from "../../src/transports/http-view.js";
import { call, deferred, initializeMessage, makeHandler, messages, open, postHeaders, SseReader, Tools, until } from "./helpers.js";
import { answerOf, modernHandler, modernHeaders, modernRequest } from "./modern-helpers.js";
import { McpServer } from "../../src/api/server.js";
import { oauthFetch } from "../../src/auth/oauth-fetch.js";
import { createHttpHandler } from "../../src/transports/http-server.js";

const V = "2025-11-25";

/** A body that sends `text` and stays open, calling `onCancel` when the bridge cancels it. */
function openStream(text: string, onCancel: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode(text)), cancel: onCancel });
}

test("node bridge: binds 127.0.0.1 by default; the client transport works over real fetch and DELETEs on close", async () => {
  const { handler } = makeHandler();
  const srv = await serveNode(handler);
  try {
    const address = srv.server.address();
    assert.equal(typeof address === "object" && address !== null ? address.address : "", "127.0.0.1");
    assert.equal(srv.url, `http://127.0.0.1:${srv.port}`);
    const t = httpClientTransport(srv.url + "/mcp", { openGetStream: false });
    const closed = deferred<string>();
    const ep = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {} }, { send: (m) => t.send(encode(m)) });
    t.onMessage((x) => ep.receive(x));
    t.onClose((r) => closed.resolve(r));
    await ep.open();
    const r = await ep.request("tools/call", { name: "echo", arguments: { text: "over the wire" } });
    assert.equal((r.content as JsonObject[])[0].text, "over the wire");
    assert.equal(handler.sessionCount, 1);
    t.close();
    await closed.promise;
  } finally {
    await srv.close();
  }
});

test("node bridge: SSE events stream as they are sent (the first arrives while the tool still waits); a client abort leaves the response resumable", async () => {
  const { handler, tools } = makeHandler();
  const srv = await serveNode(handler);
  const url = srv.url + "/mcp";
  try {
    const init = await fetch(url, { method: "POST", headers: postHeaders(), body: JSON.stringify(initializeMessage()) });
    const sid = init.headers.get("mcp-session-id")!;
    await init.text();
    await (await fetch(url, { method: "POST", headers: postHeaders(sid, V), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
    const abort = new AbortController();
    const res = await fetch(url, { method: "POST", headers: postHeaders(sid, V), body: JSON.stringify(call(1, "wait")), signal: abort.signal });
    const s = new SseReader(res);
    const one = await s.message();
    assert.equal(one.msg.params.data, "one");
    abort.abort();
    tools.release();
    const resumed = await fetch(url, { headers: { accept: "text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": V, "last-event-id": one.id } });
    assert.deepEqual(messages(await new SseReader(resumed).rest()).map((m) => m.id ?? m.params.data), ["two", 1]);
  } finally {
    await srv.close();
  }
});

test("node bridge: a client abort reaches the Request's signal and cancels the Response body", async () => {
  const aborted = deferred();
  const cancelled = deferred();
  const srv = await serveNode(async (req) => {
    req.signal.addEventListener("abort", () => aborted.resolve());
    const body = openStream("first", () => cancelled.resolve());
    return new Response(body, { headers: { "content-type": "text/plain" } });
  });
  try {
    const abort = new AbortController();
    const res = await fetch(srv.url, { signal: abort.signal });
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    assert.equal(new TextDecoder().decode(value), "first");
    abort.abort();
    await aborted.promise;
    await cancelled.promise;
  } finally {
    await srv.close();
  }
});

test("node bridge: request bodies stream in (bounded by the handler: 413), headers pass through, handler failures are 500", async () => {
  const { handler } = makeHandler(undefined, { maxBodyBytes: 1000 });
  const srv = await serveNode(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/count") {
      const n = (await req.arrayBuffer()).byteLength;
      const h = new Headers({ "x-count": String(n) });
      h.append("set-cookie", "a=1");
      h.append("set-cookie", "b=2");
      return new Response(null, { status: 204, headers: h });
    }
    if (path === "/throw") throw new Error("boom");
    return handler(req);
  });
  try {
    const chunks = (n: number) =>
      new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < n; i++) c.enqueue(new Uint8Array(100));
          c.close();
        },
      });
    const counted = await fetch(srv.url + "/count", { method: "POST", body: chunks(30), duplex: "half" } as RequestInit);
    assert.equal(counted.headers.get("x-count"), "3000");
    assert.deepEqual(counted.headers.getSetCookie(), ["a=1", "b=2"]);
    const big = await fetch(srv.url + "/mcp", { method: "POST", headers: postHeaders(), body: chunks(30), duplex: "half" } as RequestInit);
    assert.equal(big.status, 413);
    await big.text();
    const failed = await fetch(srv.url + "/throw");
    assert.equal(failed.status, 500);
    // A JSON-RPC error, as every refusal of the handler's is: a client reads it as the request's failure.
    assert.equal(failed.headers.get("content-type"), "application/json");
    assert.deepEqual((await failed.json()).error, { code: -32603, message: "Internal Server Error: the handler failed" });
  } finally {
    await srv.close();
  }
});

test("node bridge (handler failures are 500): a handler that answers no usable Response (undefined from a router's unmatched route, a Response whose body was already read or is locked) gets its client a 500, not an unhandled rejection that ends the process and a client left waiting", { timeout: 10_000 }, async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  process.on("unhandledRejection", onUnhandled);
  const srv = await serveNode(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/read") {
      const used = new Response("abc", { headers: { "content-type": "text/plain" } });
      await used.text();
      return used;
    }
    if (path === "/locked") {
      const locked = new Response("{}", { headers: { "content-type": "application/json" } });
      locked.body!.getReader();
      return locked;
    }
    return undefined as never;
  });
  try {
    for (const path of ["/unmatched", "/read", "/locked"]) {
      const res = await fetch(srv.url + path);
      assert.equal(res.status, 500, path);
      assert.equal((await res.json()).error.code, -32603, path);
    }
    assert.deepEqual(unhandled, []);
  } finally {
    process.off("unhandledRejection", onUnhandled);
    await srv.close();
  }
});

test("node bridge (handler failures are 500): a streamed response with a header node:http refuses (a control character such as \\x01, which Headers lets through) gets its client a 500 with a JSON-RPC error and its own reason phrase (not 500 OK), its body cancelled; not an exception thrown from a tick that ends the process; the keep-alive connection serves on", { timeout: 10_000 }, async () => {
  const uncaught: unknown[] = [];
  const onUncaught = (e: unknown) => uncaught.push(e);
  // node:test fails the test on an uncaught exception anyway; recorded to say which.
  process.prependListener("uncaughtException", onUncaught);
  const cancelled = deferred();
  const srv = await serveNode((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/ok") return new Response("fine", { headers: { "content-type": "text/plain" } });
    // A JSON body is written in one write, whose refused head was always a 500 (once said "500 OK").
    if (path === "/json") return new Response("{}", { headers: { "content-type": "application/json", "x-note": "a\x01b" } });
    const body = openStream("data: x\n\n", () => cancelled.resolve());
    return new Response(body, { headers: { "content-type": "text/event-stream", "x-note": "a\x01b" } });
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string) =>
    new Promise<{ status: number; reason: string; body: string; reused: boolean }>((resolve, reject) => {
      const r = request(srv.url + path, { agent }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, reason: res.statusMessage!, body, reused: r.reusedSocket }));
      });
      r.on("error", reject);
      // Unanswered (the head thrown away with the exception), the test fails instead of waiting.
      r.setTimeout(5_000, () => r.destroy(new Error("no answer")));
      r.end();
    });
  try {
    const bad = await get("/bad");
    assert.equal(bad.status, 500);
    assert.equal(bad.reason, "Internal Server Error");
    assert.equal(JSON.parse(bad.body).error.code, -32603);
    await cancelled.promise;
    const json = await get("/json");
    assert.deepEqual([json.status, json.reason, json.reused], [500, "Internal Server Error", true]);
    const ok = await get("/ok");
    assert.deepEqual([ok.status, ok.body, ok.reused], [200, "fine", true]);
    assert.deepEqual(uncaught, []);
  } finally {
    process.off("uncaughtException", onUncaught);
    agent.destroy();
    await srv.close();
  }
});

test("node bridge (RFC 9110 §9.3.2: the answer to a HEAD is the head a GET would get, without content): a fetch-style handler that answers a HEAD with a stream that never ends (an SSE endpoint that treats HEAD as GET) gets its head to the client at once and its stream cancelled; the keep-alive connection serves the next request", { timeout: 10_000 }, async () => {
  const cancelled = deferred();
  const srv = await serveNode((req) => {
    if (new URL(req.url).pathname === "/plain") return new Response("fine", { headers: { "content-type": "text/plain" } });
    const body = openStream(": open\n\n", () => cancelled.resolve());
    return new Response(body, { headers: { "content-type": "text/event-stream", "x-stream": "yes" } });
  });
  // One connection: what came back on it so far, and a wait for more.
  const sock = connect(srv.port, "127.0.0.1");
  let received = "";
  let more: (() => void) | undefined;
  sock.setEncoding("utf8");
  sock.on("data", (c: string) => {
    received += c;
    more?.();
  });
  const receivedAll = (done: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      // Never there (a head held back until the stream ends), the test fails instead of waiting.
      const failsafe = setTimeout(() => reject(new Error("no answer: " + JSON.stringify(received))), 5_000);
      more = () => {
        if (!done()) return;
        clearTimeout(failsafe);
        more = undefined;
        resolve();
      };
      more();
    });
  try {
    sock.write("HEAD /sse HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await receivedAll(() => received.includes("\r\n\r\n"));
    assert.match(received, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(received, /\r\ncontent-type: text\/event-stream\r\n/);
    assert.match(received, /\r\nx-stream: yes\r\n/);
    assert.match(received, /\r\n\r\n$/, "no content");
    await cancelled.promise;
    received = "";
    sock.write("GET /plain HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await receivedAll(() => received.endsWith("\r\n\r\nfine"));
    assert.match(received, /^HTTP\/1\.1 200 OK\r\n/);
  } finally {
    sock.destroy();
    await srv.close();
  }
});

test("node bridge: a request body the handler refuses unread (415, or a 401 from a wrapper in front of it) is discarded as node:http discards it, so the keep-alive connection serves the next request; the general path too, not only the fast entry", { timeout: 10_000 }, async () => {
  const { handler } = makeHandler();
  for (const listener of [handler, (req: Request) => handler(req)]) {
    const srv = await serveNode(listener);
    // One connection, kept alive: the second request can only be read once the first body is.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (body: string, contentType: string) =>
      new Promise<number>((resolve, reject) => {
        const r = request(srv.url + "/mcp", { method: "POST", agent, headers: { "content-type": contentType, accept: "application/json, text/event-stream" } }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode!));
        });
        r.on("error", reject);
        r.end(body);
      });
    try {
      assert.equal(await post("x".repeat(1 << 20), "text/plain"), 415);
      assert.equal(await post(JSON.stringify(initializeMessage()), "application/json"), 200);
    } finally {
      agent.destroy();
      await srv.close();
    }
  }
});

test("node bridge (README Deploying: `await handler.close({ drainMs })`, then `await node.close()`, as `mcp-kernel serve` stops): what the drain answered reaches its client over the socket, not a connection cut before it is written: the modern request in flight its own JSON answer, an open subscriptions/listen its completion result (draft basic/patterns/subscriptions, Graceful Closure); a stream nobody ended is still cut, and close() resolves", { timeout: 10_000 }, async () => {
  const server = new McpServer({ name: "drain", version: "1" }, { session: { versions: ["2026-07-28", V] } });
  const started = deferred();
  const gate = deferred();
  server.tool("slow", {}, async () => {
    started.resolve();
    await gate.promise;
    return { content: [{ type: "text", text: "slow done" }] };
  });
  const handler = createHttpHandler({ createSession: server.httpSession() });
  const srv = await serveNode(handler);
  const post = (msg: JsonObject) => fetch(srv.url + "/mcp", { method: "POST", headers: modernHeaders(msg), body: JSON.stringify(msg) });
  const listen = new SseReader(await post(modernRequest("L", "subscriptions/listen", { notifications: { toolsListChanged: true } })));
  assert.equal((await listen.message()).msg.method, "notifications/subscriptions/acknowledged");
  const slow = post(modernRequest(1, "tools/call", { name: "slow" }));
  await started.promise;
  const stopped = handler.close({ drainMs: 60_000 }).then(() => srv.close());
  gate.resolve();
  const answer = await slow.then(answerOf, (e: Error) => ({ cut: e.message }));
  assert.equal(answer.result?.content[0].text, "slow done", JSON.stringify(answer));
  const done = await listen.message().then((m) => m.msg, (e: Error) => ({ cut: e.message }));
  assert.equal(done.id, "L", JSON.stringify(done));
  assert.equal(done.result?.resultType, "complete");
  await stopped;

  // A stream the handler never ends (no handler.close() in front) is cut, and close() does not wait for it.
  const endless = await serveNode(() => new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(": open\n\n")) }), { headers: { "content-type": "text/event-stream" } }));
  const reader = (await fetch(endless.url)).body!.getReader();
  await reader.read();
  await endless.close();
  await assert.rejects(reader.read());
});

test("node bridge: listen errors reject; an IPv6 host is bracketed in the URL", async () => {
  const a = await serveNode(async () => new Response("ok"));
  try {
    await assert.rejects(serveNode(async () => new Response("ok"), { port: a.port }));
  } finally {
    await a.close();
  }
  let v6;
  try {
    v6 = await serveNode(async () => new Response("six"), { host: "::1" });
  } catch {
    return; // no IPv6 loopback on this machine
  }
  try {
    assert.equal(v6.url, `http://[::1]:${v6.port}`);
    assert.equal(await (await fetch(v6.url)).text(), "six");
  } finally {
    await v6.close();
  }
});

test("node bridge: large bodies wait for drain (backpressure); a body that fails mid-way ends the response; an unparsable request URL gets 400", async () => {
  const MiB = 1024 * 1024;
  const srv = await serveNode(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/big") {
      let n = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (n++ === 8) return c.close();
          c.enqueue(new Uint8Array(MiB));
        },
      });
      return new Response(body);
    }
    let sent = false;
    const failing = new ReadableStream<Uint8Array>({
      pull(c) {
        if (!sent) {
          sent = true;
          return c.enqueue(new TextEncoder().encode("partial"));
        }
        c.error(new Error("source failed"));
      },
    });
    return new Response(failing);
  });
  try {
    const big = await fetch(srv.url + "/big");
    assert.equal((await big.arrayBuffer()).byteLength, 8 * MiB);
    const broken = await fetch(srv.url + "/fail");
    await assert.rejects(broken.text());
    // A Host the URL parser refuses: the bridge answers 400 itself.
    const reply = await new Promise<string>((resolve, reject) => {
      const sock = connect(srv.port, "127.0.0.1", () => sock.write("GET / HTTP/1.1\r\nHost: [bad\r\nConnection: close\r\n\r\n"));
      let text = "";
      sock.on("data", (d) => (text += d.toString()));
      sock.on("end", () => resolve(text));
      sock.on("error", reject);
    });
    assert.match(reply, /^HTTP\/1\.1 400/);
    assert.match(reply, /"code":-32600,"message":"Bad Request: /);
  } finally {
    await srv.close();
  }
});

/** What a response's socket still holds (the bridge's own measure of a stalled write). */
function unsent(res: ServerResponse): number {
  return ((res.socket as any)?._handle?.writeQueueSize ?? 0) + (res.socket?.writableLength ?? 0);
}

test("node bridge (README Limits: what a slow reader has not taken 30 s later is dropped): a client that keeps its socket open but stops reading no longer holds a large answer in memory for good: a whole JSON body, a fast-entry reply and a stream are each cut once no byte moved for WRITE_STALL_MS; a reader that takes some in that time keeps its connection", async () => {
  const MiB = 1024 * 1024;
  const json = "[" + '"0123456789abcdef",'.repeat(MiB) + "0]";
  const general: FetchHandler = async (req) => {
    if (new URL(req.url).pathname === "/json") return new Response(json, { headers: { "content-type": "application/json" } });
    let n = 0;
    return new Response(new ReadableStream<Uint8Array>({ pull: (c) => (n++ === 64 ? c.close() : c.enqueue(new Uint8Array(MiB))) }), { headers: { "content-type": "text/event-stream" } });
  };
  const fast: FetchHandler = Object.assign(general, { [FAST_ENTRY]: async () => ({ status: 200, headers: { "content-type": "application/json" }, body: json }) });
  for (const [handler, path] of [[general, "/json"], [general, "/stream"], [fast, "/reply"]] as const) {
    const clock = new ManualClock();
    const srv = await serveNode(handler, { clock });
    let res: ServerResponse | undefined;
    srv.server.on("request", (_req, r) => (res = r));
    const sock = connect(srv.port, "127.0.0.1", () => sock.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    sock.on("error", () => {});
    sock.pause();
    try {
      await until(() => res !== undefined && unsent(res) > 0);
      // The reader takes a little: what moved since keeps the connection one period more.
      const before = unsent(res!);
      await until(() => clock.pendingTimers > 0, 1000);
      let got = 0;
      const reading = (d: Buffer) => void ((got += d.length) > 2 * MiB && sock.pause());
      sock.on("data", reading).resume();
      await until(() => unsent(res!) < before, 10_000);
      sock.off("data", reading).pause();
      clock.advance(WRITE_STALL_MS);
      assert.equal(res!.destroyed, false, path);
      // Then it stops: once a whole period passes with nothing moving, the connection is closed.
      let periods = 0;
      for (; !res!.destroyed && periods < 100; periods++) {
        await new Promise((r) => setImmediate(r));
        clock.advance(WRITE_STALL_MS);
      }
      assert.equal(res!.destroyed, true, `${path}: cut after ${periods} periods`);
      assert.equal(clock.pendingTimers, 0, "no timer left behind");
    } finally {
      sock.destroy();
      await srv.close();
    }
  }
});

test("node bridge: a pipelined answer (written before Node gives it the socket, the one before it still holding it) is watched too: a client that stops reading is cut once no byte of it moves for WRITE_STALL_MS", async () => {
  const json = "[" + '"0123456789abcdef",'.repeat(1024 * 1024) + "0]";
  let n = 0;
  const clock = new ManualClock();
  const srv = await serveNode(async () => new Response(++n === 1 ? "{}" : json, { headers: { "content-type": "application/json" } }), { clock });
  const answers: ServerResponse[] = [];
  srv.server.on("request", (_req, r) => answers.push(r));
  const request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  const sock = connect(srv.port, "127.0.0.1", () => sock.write(request + request));
  sock.on("error", () => {});
  sock.pause();
  try {
    await until(() => answers.length === 2 && clock.pendingTimers > 0, 10_000);
    let periods = 0;
    for (; !answers[1].destroyed && periods < 100; periods++) {
      await new Promise((r) => setImmediate(r));
      clock.advance(WRITE_STALL_MS);
    }
    assert.equal(answers[1].destroyed, true, `cut after ${periods} periods`);
    assert.equal(clock.pendingTimers, 0);
  } finally {
    sock.destroy();
    await srv.close();
  }
});

test("node bridge (README Deploying: a legacy session ends sessionIdleMs after its last request once it has no open connection): the client of a JSON answer (enableJsonResponse) that goes away, by a fetch abort or a half-close, is reported, so its session idles out; one still waiting keeps it", async () => {
  for (const how of ["fetch abort", "half-close"] as const) {
    const clock = new ManualClock();
    const tools = new Tools();
    const { handler } = makeHandler(tools, { clock, enableJsonResponse: true, sessionIdleMs: 1000 });
    const srv = await serveNode(handler);
    try {
      const sid = await open(handler, V);
      const body = JSON.stringify(call(1, "wait"));
      const abort = new AbortController();
      let sock: Socket | undefined;
      if (how === "fetch abort") void fetch(srv.url, { method: "POST", headers: postHeaders(sid, V), body, signal: abort.signal }).catch(() => {});
      else {
        const head = Object.entries({ ...postHeaders(sid, V), host: "127.0.0.1", "content-length": String(Buffer.byteLength(body)) }).map(([k, v]) => `${k}: ${v}\r\n`);
        sock = connect(srv.port, "127.0.0.1", () => sock!.write(`POST /mcp HTTP/1.1\r\n${head.join("")}\r\n${body}`));
        sock.on("error", () => {});
      }
      await tools.waiting();
      clock.advance(5000);
      assert.equal(handler.sessionCount, 1, `${how}: the client still waits on its POST`);
      if (sock === undefined) abort.abort();
      else sock.end();
      // Each turn lets the socket's close in, then runs the idle check once more.
      await until(() => (clock.advance(1000), handler.sessionCount === 0), 10_000);
      assert.equal(tools.contexts.at(-1)!.signal.aborted, true, how);
      sock?.destroy();
    } finally {
      tools.release();
      await srv.close();
    }
  }
});

test("node bridge (draft streamable-http, Cancellation: the server MUST treat a client disconnect as cancellation): a modern request whose client left before it was served (while a token was verified, say) is cancelled: the handler's signal aborts and its endpoint closes, through the general path and the fast entry", async () => {
  for (const path of ["general", "fast"] as const) {
    const tools = new Tools();
    const { handler } = modernHandler(tools, { clock: new ManualClock(), enableJsonResponse: true });
    const entered = deferred();
    const verified = deferred();
    // A slow step before the MCP handler, as protectedResource's verifyToken is.
    const slow = async () => {
      entered.resolve();
      await verified.promise;
    };
    const fast = fastEntryOf(handler)!;
    // The general path: before the handler (protectedResource's place). The fast entry reads
    // the body itself (a client gone before that gets 400): the step comes after it.
    const slowBody = (view: HttpRequestView): HttpRequestView =>
      Object.assign(Object.create(view) as HttpRequestView, {
        readBody: async (max: number) => {
          const body = await view.readBody(max);
          await slow();
          return body;
        },
      });
    const served: FetchHandler =
      path === "general"
        ? async (req) => (await slow(), handler(req))
        : Object.assign(async (req: Request) => handler(req), { [FAST_ENTRY]: (view: HttpRequestView) => fast(slowBody(view)) });
    const srv = await serveNode(served);
    // The connection is cut on the server's side (a reset, say): a client whose FIN leaves the
    // socket half-open is noticed only once its unread body is read.
    const left = deferred();
    let socket: Socket | undefined;
    srv.server.on("connection", (s) => {
      socket = s;
      s.on("close", () => left.resolve());
    });
    try {
      const msg = modernRequest(1, "tools/call", { name: "wait" });
      const body = JSON.stringify(msg);
      const head = Object.entries({ ...modernHeaders(msg), host: "127.0.0.1", "content-length": String(Buffer.byteLength(body)) }).map(([k, v]) => `${k}: ${v}\r\n`);
      const sock = connect(srv.port, "127.0.0.1", () => sock.write(`POST /mcp HTTP/1.1\r\n${head.join("")}\r\n${body}`));
      sock.on("error", () => {});
      await entered.promise;
      socket!.destroy();
      await left.promise;
      verified.resolve();
      await until(() => tools.contexts.length === 1);
      for (let i = 0; i < 10 && tools.closed.length === 0; i++) await new Promise((r) => setImmediate(r));
      assert.equal(tools.contexts[0].signal.aborted, true, path);
      assert.deepEqual(tools.closed, ["the client aborted the request"], path);
    } finally {
      tools.release();
      await srv.close();
    }
  }
});

test("node bridge (2025-11-25 basic/transports, Streamable HTTP: every message a POST body): behind a middleware that read the body first (express.json() and the like), the body it left in req.body is the message, through the fast entry and the general path; one that left none gets 400 naming why, never a wait for bytes that will not come (the timeout turns that wait into a failure)", { timeout: 30_000 }, async () => {
  const { handler } = makeHandler();
  const general: FetchHandler = (req) => handler(req);
  for (const [label, inner] of [["fast entry", handler], ["general path", general]] as const) {
    const listener = toNodeListener(inner);
    let keep: "json" | "text" | "nothing" | "bigint" = "json";
    // What a body parser does: read the stream to its end, leave the parse in req.body.
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        if (keep === "json" && text !== "") (req as { body?: unknown }).body = JSON.parse(text);
        else if (keep === "text") (req as { body?: unknown }).body = text;
        // A parser that keeps big integers exact leaves what JSON cannot write.
        else if (keep === "bigint" && text !== "") (req as { body?: unknown }).body = { ...JSON.parse(text), id: 2n ** 64n };
        listener(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
    try {
      const init = await fetch(url, { method: "POST", headers: postHeaders(), body: JSON.stringify(initializeMessage(V)) });
      assert.equal(init.status, 200, label);
      assert.match(await init.text(), /"protocolVersion":"2025-11-25"/, label);
      // A DELETE, drained by the middleware too, has no body to read: it still ends its session.
      const ended = await fetch(url, { method: "DELETE", headers: postHeaders(init.headers.get("mcp-session-id")!) });
      assert.equal(ended.status, 204, `${label}: DELETE`);
      keep = "text";
      const again = await fetch(url, { method: "POST", headers: postHeaders(), body: JSON.stringify(initializeMessage(V)) });
      assert.equal(again.status, 200, `${label}: a string body`);
      await again.body?.cancel();
      keep = "nothing";
      const lost = await fetch(url, { method: "POST", headers: postHeaders(), body: JSON.stringify(initializeMessage(V)) });
      assert.equal(lost.status, 400, label);
      assert.match((await lost.json()).error.message, /already read before this handler/, label);
      keep = "bigint";
      const big = await fetch(url, { method: "POST", headers: postHeaders(), body: JSON.stringify(initializeMessage(V)) });
      assert.equal(big.status, 400, `${label}: not a crash of the process`);
      assert.match((await big.json()).error.message, /has no JSON form/, label);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
});

/** A node:http server on 127.0.0.1 and an ephemeral port (another port is another origin), with its URL. */
async function listening(listener: Parameters<typeof createServer>[1] & {}): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.keepAliveTimeout = 1;
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

test("node bridge, client transport on the runtime's fetch (2025-11-25 basic/transports, Session Management: the client MUST handle the session ID in a secure manner): a server that redirects (301, 302, 303, 307, 308) to another origin gets the request failed with -32603 naming that origin, and the other origin gets nothing: no MCP-Session-Id, none of the application's headers, no body, no DELETE (found by review: fetch followed, dropping only Authorization)", { timeout: 20_000 }, async () => {
  const seen: string[] = [];
  const other = await listening((req, res) => {
    seen.push(`${req.method} session=${req.headers["mcp-session-id"] ?? "-"} key=${req.headers["x-api-key"] ?? "-"}`);
    req.resume();
    res.writeHead(404).end();
  });
  let handler = makeHandler().handler;
  let listener = toNodeListener(handler);
  let redirect = 0;
  // The initialize and notifications/initialized POSTs reach the server; what follows is redirected.
  let initialized = false;
  const server = await listening((req, res) => {
    if (!initialized || req.headers["mcp-session-id"] === undefined) {
      initialized ||= req.method === "POST" && req.headers["mcp-session-id"] !== undefined;
      return listener(req, res);
    }
    req.resume();
    res.writeHead(redirect, { location: `${other.url}/mcp` }).end();
  });
  try {
    for (const status of [301, 302, 303, 307, 308]) {
      initialized = false;
      redirect = status;
      handler = makeHandler().handler;
      listener = toNodeListener(handler);
      const deletes: Promise<unknown>[] = [];
      const t = httpClientTransport(server.url + "/mcp", {
        openGetStream: false,
        headers: { "X-Api-Key": "secret" },
        fetch: (input, init) => {
          const p = fetch(input, init);
          if (init.method === "DELETE") deletes.push(p.catch(() => {}));
          return p;
        },
      });
      const ep = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: [V] }, { send: (m) => t.send(encode(m)) });
      t.onMessage((x) => ep.receive(x));
      t.onClose((r) => ep.closed(r));
      await ep.open();
      await assert.rejects(ep.request("tools/list"), (e: { code?: number; message?: string }) => e.code === -32603 && e.message!.includes(`to another origin, ${other.url}`), `HTTP ${status}`);
      t.close();
      await Promise.all(deletes);
      assert.equal(deletes.length, 1, `HTTP ${status}: the session's DELETE was sent`);
      assert.deepEqual(seen, [], `HTTP ${status}: the other origin got nothing`);
      await handler.close();
    }
  } finally {
    await server.close();
    await other.close();
  }
});

test("node bridge, client transport on the runtime's fetch: a redirect within the server's origin (/mcp → /mcp/, as a framework's trailing-slash rule answers) is still followed, through oauthFetch too: every request, the DELETE included, reaches the new path with its session ID and bearer token, and the session works", { timeout: 10_000 }, async () => {
  const { handler } = makeHandler();
  const listener = toNodeListener(handler);
  const seen: string[] = [];
  const deleted = deferred();
  const server = await listening((req, res) => {
    if (req.method === "DELETE" && req.url === "/mcp/") deleted.resolve();
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? "-"} ${req.headers["mcp-session-id"] === undefined ? "-" : "session"}`);
    if (req.url === "/mcp") {
      req.resume();
      return void res.writeHead(307, { location: "/mcp/" }).end();
    }
    req.url = "/mcp";
    listener(req, res);
  });
  try {
    const url = server.url + "/mcp";
    const authFetch = oauthFetch({ serverUrl: url, redirectUri: "http://127.0.0.1:1/cb", clientName: "c", openAuthorization: async () => "", saved: { tokens: { accessToken: "t0k", tokenType: "Bearer", issuer: "http://127.0.0.1:9", resource: url } } });
    const t = httpClientTransport(url, { openGetStream: false, fetch: authFetch });
    const ep = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: [V] }, { send: (m) => t.send(encode(m)) });
    t.onMessage((x) => ep.receive(x));
    t.onClose((r) => ep.closed(r));
    await ep.open();
    const listed = (await ep.request("tools/list")) as { tools: unknown[] };
    assert.ok(listed.tools.length > 0);
    t.close();
    await deleted.promise;
    assert.deepEqual(seen.filter((s) => s.startsWith("DELETE")), ["DELETE /mcp Bearer t0k session", "DELETE /mcp/ Bearer t0k session"]);
    assert.ok(seen.includes("POST /mcp/ Bearer t0k session"), seen.join("\n"));
    assert.ok(seen.every((s) => s.includes("Bearer t0k")), seen.join("\n"));
  } finally {
    await handler.close();
    await server.close();
  }
});
