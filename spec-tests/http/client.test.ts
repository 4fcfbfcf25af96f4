// Spec: 2025-11-25 basic/transports ("Streamable HTTP", client side): headers, session
// id, protocol version header, GET stream, resumption with Last-Event-ID and retry
// (SEP-1699), 404 session expiry, DELETE on close. The client talks to the real handler
// in process: fetch is `(url, init) => handler(new Request(url, init))`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Endpoint, McpError } from "../../src/driver/endpoint.js";
import { encode } from "../../src/jsonrpc/codec.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { DELETE_WAIT_MS, GET_WAIT_MS, httpClientTransport, SESSION_EXPIRED, type HttpClientOptions, type HttpClientTransport } from "../../src/transports/http-client.js";
import type { HttpHandler } from "../../src/transports/http-server.js";
import { deferred, makeHandler, setupWith, Tools, until, URL_, wrappedTransport } from "./helpers.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { modernHandler, MV } from "./modern-helpers.js";
import { McpClient } from "../../src/api/client.js";
import { blockText } from "../harness/content.js";

type Fetch = NonNullable<HttpClientOptions["fetch"]>;

interface Seen {
  method: string;
  headers: Headers;
  body?: string;
}

/** A fetch into the handler that records each request. */
function inProcess(handler: HttpHandler, seen: Seen[] = [], wrap?: (req: Request, next: () => Promise<Response>) => Promise<Response>): Fetch {
  return async (url, init) => {
    const req = new Request(url, init);
    seen.push({ method: req.method, headers: req.headers, body: typeof init.body === "string" ? init.body : undefined });
    const next = () => handler(req);
    return wrap ? wrap(req, next) : next();
  };
}

/** A client kernel over the transport. */
function client(t: HttpClientTransport, onRequest?: (method: string, params: JsonObject | undefined) => JsonObject, onNotification?: (m: string, p: unknown) => void) {
  const closed = deferred<string>();
  const ep = new Endpoint(
    { role: "client", info: { name: "c", version: "1" }, capabilities: { sampling: {} } },
    { send: (m) => t.send(encode(m)), onRequest: onRequest && ((m, p) => onRequest(m, p)), onNotification },
  );
  t.onMessage((text, local) => ep.receive(text, local));
  t.onClose((reason) => {
    ep.closed(reason);
    closed.resolve(reason);
  });
  return { ep, closed: closed.promise };
}

/** Resolves once the handler has seen a GET (the client opened its standalone stream). */
function watchGets(handler: HttpHandler): { handler: HttpHandler; next(): Promise<void> } {
  const waiting: Array<() => void> = [];
  const h = (async (req: Request) => {
    const r = await handler(req);
    if (req.method === "GET") waiting.shift()?.();
    return r;
  }) as HttpHandler;
  return {
    handler: h,
    next: () => new Promise<void>((resolve) => waiting.push(resolve)),
  };
}

const noSleep = (delays: number[]) => async (ms: number) => {
  delays.push(ms);
};

test("client: initialize learns MCP-Session-Id and the negotiated version and sends both on later requests (Session Management item 2, Protocol Version Header)", async () => {
  const { handler } = makeHandler();
  const seen: Seen[] = [];
  const w = watchGets(handler);
  const opened = w.next();
  const t = httpClientTransport(URL_, { fetch: inProcess(w.handler, seen) });
  const { ep } = client(t);
  const { version } = await ep.open();
  assert.equal(version, "2025-11-25");
  assert.match(t.sessionId!, /^[0-9a-f]{32}$/);
  assert.equal(t.protocolVersion, "2025-11-25");
  const list = await ep.request("tools/list");
  assert.equal((list.tools as JsonObject[])[0].name, "echo");
  await opened;
  const [init, initialized, ...rest] = seen;
  // Sending Messages item 2: Accept lists both types; the body is JSON.
  assert.equal(init.headers.get("accept"), "application/json, text/event-stream");
  assert.equal(init.headers.get("content-type"), "application/json");
  assert.equal(init.headers.get("mcp-session-id"), null);
  assert.equal(init.headers.get("mcp-protocol-version"), null);
  assert.equal(initialized.headers.get("mcp-session-id"), t.sessionId);
  assert.equal(initialized.headers.get("mcp-protocol-version"), "2025-11-25");
  const getReq = rest.find((s) => s.method === "GET")!;
  assert.equal(getReq.headers.get("accept"), "text/event-stream");
  assert.equal(getReq.headers.get("mcp-session-id"), t.sessionId);
  t.close();
});

test("lifecycle (Version Negotiation: if using HTTP, the client MUST include the MCP-Protocol-Version header on all subsequent requests): after a downgrade every later request, the initialized POST, the GET stream, a request's POST and the DELETE, carries the negotiated version, not the one asked for", async () => {
  const tools = new Tools();
  const handler = createHttpHandler({ createSession: setupWith(tools, {}, { versions: ["2025-06-18"] }), sessionIdleMs: 0 });
  const seen: Seen[] = [];
  const deleted = deferred();
  const w = watchGets(handler);
  const opened = w.next();
  const t = httpClientTransport(URL_, {
    fetch: inProcess(w.handler, seen, async (req, next) => {
      const r = await next();
      if (req.method === "DELETE") deleted.resolve();
      return r;
    }),
  });
  const { ep } = client(t);
  const { version } = await ep.open();
  assert.equal(version, "2025-06-18");
  await ep.request("tools/list");
  await opened;
  t.close();
  await deleted.promise;
  const [init, ...later] = seen;
  assert.match(init.body!, /"protocolVersion":"2025-11-25"/, "the client asked for its latest");
  assert.deepEqual(new Set(later.map((s) => s.method)), new Set(["POST", "GET", "DELETE"]));
  for (const s of later) assert.equal(s.headers.get("mcp-protocol-version"), "2025-06-18", `${s.method} ${s.body ?? ""}`);
});

test("client: the GET stream carries unrelated server notifications; related server requests come on the POST stream and are answered by POST", async () => {
  const { handler, tools } = makeHandler();
  const w = watchGets(handler);
  const opened = w.next();
  const t = httpClientTransport(URL_, { fetch: inProcess(w.handler) });
  const got = deferred<string>();
  const { ep } = client(
    t,
    () => ({ role: "assistant", content: { type: "text", text: "from client" }, model: "m" }),
    (m) => got.resolve(m),
  );
  await ep.open();
  await opened;
  tools.endpoints[0].notify("notifications/tools/list_changed");
  assert.equal(await got.promise, "notifications/tools/list_changed");
  const r = await ep.request("tools/call", { name: "sample", arguments: {} });
  assert.equal((r.content as JsonObject[])[0].text, "from client");
  t.close();
});

test("client: a POST stream cut before its response is resumed by GET with Last-Event-ID after the server's retry, and the response arrives once", async () => {
  const { handler, tools } = makeHandler(new Tools(), { retryMs: 321 });
  const seen: Seen[] = [];
  let cut = false;
  const delays: number[] = [];
  const t = httpClientTransport(URL_, {
    openGetStream: false,
    sleep: noSleep(delays),
    fetch: inProcess(handler, seen, async (req, next) => {
      const isCall = req.method === "POST" && seen.at(-1)!.body?.includes('"wait"');
      const res = await next();
      if (!isCall || cut) return res;
      cut = true;
      // The network drops the connection right after the first message event (whatever
      // else the server had written by then, in the same chunk or not).
      const reader = res.body!.getReader();
      let buffered = "";
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          const { done, value } = await reader.read();
          if (done) return c.close();
          const from = buffered.length;
          buffered += new TextDecoder().decode(value);
          const one = buffered.indexOf('"one"');
          if (one < 0) return c.enqueue(value);
          c.enqueue(new TextEncoder().encode(buffered.slice(from, buffered.indexOf("\n\n", one) + 2)));
          await reader.cancel();
          c.error(new Error("network down"));
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    }),
  });
  const logs: unknown[] = [];
  const { ep } = client(t, undefined, (_m, p) => logs.push((p as JsonObject).data));
  await ep.open();
  const result = ep.request("tools/call", { name: "wait", arguments: {} });
  // Resolve the gate once the tool runs.
  await tools.waiting();
  tools.release();
  const r = await result;
  assert.equal((r.content as JsonObject[])[0].text, "waited");
  assert.deepEqual(logs, ["one", "two"]);
  // Spec: the client MUST respect the retry field.
  assert.deepEqual(delays, [321]);
  const resume = seen.find((s) => s.method === "GET")!;
  assert.ok(resume.headers.get("last-event-id"));
  t.close();
});

test("2025-11-25 basic/transports Session Management item 2 (clients MUST include the MCP-Session-Id on all subsequent requests) and Protocol Version Header (the client MUST include MCP-Protocol-Version on all subsequent requests): after initialize, every POST (notification, request, response to the server), the standalone GET, the resumption GET with Last-Event-ID and the closing DELETE carry both", { timeout: 10_000 }, async () => {
  const { handler, tools } = makeHandler();
  const seen: Seen[] = [];
  const deleted = deferred();
  const w = watchGets(handler);
  const opened = w.next();
  const t = httpClientTransport(URL_, {
    sleep: noSleep([]),
    fetch: inProcess(w.handler, seen, async (req, next) => {
      const r = await next();
      if (req.method === "DELETE") deleted.resolve();
      return r;
    }),
  });
  const { ep } = client(t, () => ({ role: "assistant", content: { type: "text", text: "from client" }, model: "m" }));
  await ep.open();
  await opened;
  // A response POST (the client's answer to the server's sampling request).
  const sampled = await ep.request("tools/call", { name: "sample", arguments: {} });
  assert.equal((sampled.content as JsonObject[])[0].text, "from client");
  // A resumption: the server closes the call's connection (SEP-1699) while the tool waits.
  const result = ep.request("tools/call", { name: "wait", arguments: {} });
  await tools.waiting();
  await until(() => handler.closeConnections() >= 2);
  await until(() => seen.some((s) => s.method === "GET" && s.headers.get("last-event-id") !== null));
  tools.release();
  assert.equal(((await result).content as JsonObject[])[0].text, "waited");
  t.close();
  await deleted.promise;
  const after = seen.slice(1);
  const kinds = new Set(after.map((s) => (s.method === "POST" ? `POST ${"method" in JSON.parse(s.body!) ? "message" : "response"}` : s.headers.get("last-event-id") !== null ? "GET resume" : s.method)));
  assert.deepEqual([...kinds].sort(), ["DELETE", "GET", "GET resume", "POST message", "POST response"]);
  for (const s of after) {
    assert.equal(s.headers.get("mcp-session-id"), t.sessionId, `${s.method} ${s.body ?? ""}`);
    assert.equal(s.headers.get("mcp-protocol-version"), "2025-11-25", `${s.method} ${s.body ?? ""}`);
  }
});

test("client: reconnects back off (factor, cap) and give up after maxRetries, answering the request with -32000", async () => {
  const { handler, tools } = makeHandler();
  const delays: number[] = [];
  const errors: string[] = [];
  const t = httpClientTransport(URL_, {
    openGetStream: false,
    sleep: noSleep(delays),
    reconnect: { initialDelayMs: 100, factor: 2, maxDelayMs: 300, maxRetries: 4 },
    onError: (e) => errors.push(e),
    fetch: inProcess(handler, [], async (req, next) => {
      if (req.method === "GET") throw new Error("offline");
      const res = await next();
      if (!(res.headers.get("content-type") ?? "").includes("event-stream")) return res;
      // Strip the retry field so the backoff applies, and end the stream after the priming event.
      const text = await new Response(res.body).text().catch(() => "");
      void text;
      return new Response("id: 1-0\ndata:\n\n", { status: 200, headers: { "content-type": "text/event-stream" } });
    }),
  });
  const { ep } = client(t);
  await ep.open();
  const p = ep.request("tools/list");
  await assert.rejects(p, (e: McpError) => e.code === ErrorCode.ConnectionClosed && /gave up/.test(e.message));
  assert.deepEqual(delays, [100, 200, 300, 300]);
  void tools;
  t.close();
});

test("client: a stream that ends before the response with no event id cannot be resumed: the request fails at once", async () => {
  const { handler } = makeHandler();
  const t = httpClientTransport(URL_, {
    openGetStream: false,
    fetch: inProcess(handler, [], async (req, next) => {
      const res = await next();
      if (!(res.headers.get("content-type") ?? "").includes("event-stream")) return res;
      await res.body!.cancel();
      return new Response(": nothing\n\n", { status: 200, headers: { "content-type": "text/event-stream" } });
    }),
  });
  const { ep } = client(t);
  await ep.open();
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.ConnectionClosed && /no event id/.test(e.message));
  t.close();
});

test("client: Session Management item 4: a 404 for a known session starts a new session (the same initialize, then initialized) and sends the request again", async () => {
  const { handler } = makeHandler();
  const seen: Seen[] = [];
  const t = httpClientTransport(URL_, { fetch: inProcess(handler, seen), openGetStream: false });
  const { ep } = client(t);
  await ep.open();
  const first = t.sessionId!;
  handler.terminate(first);
  const r = await ep.request("tools/list");
  assert.deepEqual((r.tools as JsonObject[]).map((x) => x.name), ["echo"]);
  assert.ok(t.sessionId !== undefined && t.sessionId !== first);
  const methods = seen.filter((s) => s.method === "POST").map((s) => JSON.parse(s.body!).method);
  assert.deepEqual(methods, ["initialize", "notifications/initialized", "tools/list", "initialize", "notifications/initialized", "tools/list"]);
  const reinit = seen.filter((s) => s.body?.includes('"initialize"'))[1];
  assert.equal(reinit.headers.get("mcp-session-id"), null, "the new initialize goes without a session id");
  assert.equal(handler.sessionCount, 1);
  t.close();
});

test("client: Session Management item 4: when the new initialize is refused too (a 4xx: not a server that is only unreachable for now, whose renewal is put off), the transport closes with a 'session expired' reason", async () => {
  const { handler } = makeHandler();
  let refuse = false;
  const t = httpClientTransport(URL_, { fetch: inProcess(handler, [], (req, next) => (refuse && !req.headers.has("mcp-session-id") ? Promise.resolve(new Response(null, { status: 400 })) : next())), openGetStream: false });
  const { ep, closed } = client(t);
  await ep.open();
  handler.terminate(t.sessionId!);
  refuse = true;
  const p = ep.request("tools/list");
  const reason = await closed;
  assert.ok(reason.startsWith(SESSION_EXPIRED), reason);
  await assert.rejects(p, (e: McpError) => e.code === ErrorCode.ConnectionClosed);
  // Sends after close are no-ops.
  t.send("{}");
});

/** A sleep the test releases: each call waits until `release()` (or the transport closes). */
function heldSleep() {
  const waiting: Array<() => void> = [];
  return {
    calls: () => waiting.length,
    sleep: (_ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        signal.addEventListener("abort", () => resolve(), { once: true });
      }),
    release: () => waiting.forEach((r) => r()),
  };
}

const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

test("client: after a renewal (Session Management item 4) the old session's GET stream is not resumed under the new one (Resumability: event ids are per stream, a server MUST NOT replay another stream's messages): one GET stream per live session, each notification heard once", async () => {
  const { handler, tools } = makeHandler();
  const seen: Seen[] = [];
  const w = watchGets(handler);
  const held = heldSleep();
  let opened = w.next();
  const t = httpClientTransport(URL_, { fetch: inProcess(w.handler, seen), sleep: held.sleep });
  let heard = 0;
  const { ep } = client(t, undefined, () => heard++);
  await ep.open();
  await opened;
  const first = t.sessionId!;
  tools.endpoints[0].notify("notifications/tools/list_changed");
  await until(() => heard === 1);
  // The server ends the session (and its GET stream): the client waits to resume it...
  handler.terminate(first);
  await until(() => held.calls() === 1);
  // ...while a request meets the 404 and renews the session, which opens its own GET stream.
  opened = w.next();
  await ep.request("tools/list");
  await opened;
  held.release();
  await turns();
  const gets = seen.filter((s) => s.method === "GET").map((s) => [s.headers.get("mcp-session-id") === first ? "old" : "new", s.headers.get("last-event-id")]);
  assert.deepEqual(gets, [["old", null], ["new", null]], "no GET of the old stream under the new session");
  tools.endpoints[1].notify("notifications/tools/list_changed");
  await until(() => heard === 2);
  await turns();
  assert.equal(heard, 2);
  t.close();
});

test("client: a renewal cancels the old session's GET stream when the server left it open, so only the new session's stream is read", async () => {
  const { handler } = makeHandler();
  let cancelled = false;
  let gets = 0;
  const t = wrappedTransport(
    handler,
    async (req, next) => {
      if (req.method !== "GET" || gets++ > 0) return next();
      // A connection that outlives its session (a proxy that holds it, say).
      (await next()).body?.cancel();
      const body = new ReadableStream<Uint8Array>({
        start: (c) => c.enqueue(new TextEncoder().encode("id: 1-0\ndata:\n\n")),
        cancel: () => void (cancelled = true),
      });
      return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
    },
    { openGetStream: true },
  );
  const { ep } = client(t);
  await ep.open();
  await until(() => gets === 1);
  handler.terminate(t.sessionId!);
  await ep.request("tools/list");
  await until(() => gets === 2);
  await turns();
  assert.ok(cancelled, "the old session's GET stream was closed");
  assert.equal(gets, 2);
  t.close();
});

test("client: a request whose POST stream belongs to a session that is renewed fails at once with the session-expired error (its stream is not resumed under the new session, where its event id names another stream)", async () => {
  const { handler, tools } = makeHandler();
  const seen: Seen[] = [];
  const held = heldSleep();
  // A server that ends a session's streams without answering what they carried (ours
  // answers each request with an error first: the stream carries that event no further).
  const unanswered = async (req: Request, next: () => Promise<Response>): Promise<Response> => {
    const res = await next();
    if (res.headers.get("content-type") !== "text/event-stream" || res.body === null) return res;
    const events = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(
      new TransformStream<string, string>({ transform: (text, c) => c.enqueue(text.split("\n\n").filter((e) => !e.includes("session terminated")).join("\n\n")) }),
    );
    return new Response(events.pipeThrough(new TextEncoderStream()), { status: res.status, headers: res.headers });
  };
  const t = httpClientTransport(URL_, { fetch: inProcess(handler, seen, unanswered), sleep: held.sleep, openGetStream: false });
  const { ep } = client(t);
  await ep.open();
  const first = t.sessionId!;
  const waiting = ep.request("tools/call", { name: "wait", arguments: {} }).then(
    () => "answered",
    (e: McpError) => e,
  );
  await tools.waiting();
  // The session ends with the request's stream: the client waits to resume it...
  handler.terminate(first);
  await until(() => held.calls() === 1, 1000);
  // ...and another request renews the session meanwhile.
  await ep.request("tools/list");
  const outcome = await Promise.race([waiting, turns().then(() => "still waiting")]);
  assert.ok(outcome instanceof McpError, String(outcome));
  assert.equal(outcome.code, ErrorCode.ConnectionClosed);
  assert.ok(outcome.message.includes(`${SESSION_EXPIRED}: the request was lost with session ${first}`), outcome.message);
  held.release();
  await turns();
  assert.deepEqual(seen.filter((s) => s.method === "GET"), [], "the old stream is not resumed");
  t.close();
});

test("client: close() sends DELETE with the session id (Session Management item 5) and reports the close once", async () => {
  const { handler } = makeHandler();
  const seen: Seen[] = [];
  const deleted = deferred();
  const t = httpClientTransport(URL_, {
    fetch: inProcess(handler, seen, async (req, next) => {
      const r = await next();
      if (req.method === "DELETE") deleted.resolve();
      return r;
    }),
  });
  const { ep, closed } = client(t);
  await ep.open();
  assert.equal(handler.sessionCount, 1);
  t.close();
  t.close();
  assert.equal(await closed, "transport closed");
  await deleted.promise;
  assert.equal(handler.sessionCount, 0);
  assert.equal(seen.at(-1)!.headers.get("mcp-session-id") !== null, true);
  const late: string[] = [];
  t.onClose((r) => late.push(r));
  assert.deepEqual(late, ["transport closed"]);
});

test("client: close() never throws, even when a custom fetch throws synchronously for the session DELETE (the DELETE is a courtesy: clients SHOULD send it)", async () => {
  const { handler } = makeHandler();
  const through = inProcess(handler, []);
  let deletes = 0;
  const t = httpClientTransport(URL_, {
    fetch: (input, init) => {
      if (init.method === "DELETE") {
        deletes++;
        throw new Error("sync boom");
      }
      return through(input, init);
    },
  });
  const { ep, closed } = client(t);
  await ep.open();
  assert.doesNotThrow(() => t.close());
  assert.equal(await closed, "transport closed");
  assert.equal(deletes, 1);
});

test("client: Session Management item 5 (clients SHOULD DELETE the session): a server that takes the DELETE and never answers it does not hold the connection (and a Node process) after close(): the DELETE is aborted after DELETE_WAIT_MS on the client's sleep; one answered in time is not (found by review: it waited for undici's five-minute headers timeout)", { timeout: 10_000 }, async () => {
  const { handler } = makeHandler();
  const through = inProcess(handler, []);
  for (const answered of [false, true]) {
    const signals: AbortSignal[] = [];
    const waits: { ms: number; signal: AbortSignal; fire(): void }[] = [];
    const hold = deferred<Response>();
    const t = httpClientTransport(URL_, {
      openGetStream: false,
      sleep: (ms, signal) => new Promise<void>((fire) => waits.push({ ms, signal, fire })),
      fetch: (input, init) => {
        if (init.method !== "DELETE") return through(input, init);
        signals.push(init.signal!);
        return hold.promise;
      },
    });
    const { ep, closed } = client(t);
    await ep.open();
    t.close();
    assert.equal(await closed, "transport closed");
    assert.equal(signals.length, 1);
    const wait = waits.find((w) => w.ms === DELETE_WAIT_MS);
    assert.ok(wait !== undefined, "the DELETE is bounded");
    if (answered) {
      hold.resolve(new Response(null, { status: 200 }));
      await until(() => wait.signal.aborted);
      wait.fire();
      await turns();
      assert.equal(signals[0]!.aborted, false, "a DELETE answered in time is not aborted");
      continue;
    }
    assert.equal(signals[0]!.aborted, false);
    wait.fire();
    await until(() => signals[0]!.aborted);
  }
});

test("client: Listening item 3: a server that answers GET with 405 offers no stream, which the client tolerates", async () => {
  const { handler } = makeHandler();
  const errors: string[] = [];
  const got = deferred();
  const t = httpClientTransport(URL_, {
    onError: (e) => errors.push(e),
    fetch: inProcess(handler, [], async (req, next) => {
      if (req.method === "GET") {
        got.resolve();
        return new Response(null, { status: 405 });
      }
      return next();
    }),
  });
  const { ep } = client(t);
  await ep.open();
  await got.promise;
  assert.equal(((await ep.request("tools/list")).tools as unknown[]).length, 1);
  assert.deepEqual(errors, []);
  t.close();
});

test("client: an HTTP error whose body is a JSON-RPC error for the request is delivered, one without its id keeps its code (a server's -32000 too, without 'connection closed'); other bad answers fail that request alone with -32603 (the session serves on); a network failure is -32000", async () => {
  const { handler } = makeHandler();
  let mode: "rpc" | "bare" | "server-32000" | "not-rpc" | "throw" | "text" | "odd" = "rpc";
  const t = httpClientTransport(URL_, {
    openGetStream: false,
    fetch: inProcess(handler, [], async (req, next) => {
      const body = await req.clone().text();
      if (!body.includes("tools/list")) return next();
      const id = JSON.parse(body).id;
      if (mode === "rpc") return new Response(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32602, message: "bad" } }), { status: 400, headers: { "content-type": "application/json" } });
      if (mode === "bare") return new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "nope" } }), { status: 403, headers: { "content-type": "application/json" } });
      if (mode === "server-32000") return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: no" } }), { status: 400, headers: { "content-type": "application/json" } });
      // A framework's error object, not JSON-RPC (no "jsonrpc": "2.0"): its code is not a JSON-RPC code.
      if (mode === "not-rpc") return new Response(JSON.stringify({ error: { code: 500, message: "boom" } }), { status: 500, headers: { "content-type": "application/json" } });
      if (mode === "text") return new Response("oops", { status: 500, headers: { "content-type": "text/plain" } });
      if (mode === "odd") return new Response("<html>", { status: 200, headers: { "content-type": "text/html" } });
      throw new Error("ECONNREFUSED");
    }),
  });
  const { ep } = client(t);
  await ep.open();
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === -32602);
  mode = "bare";
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InvalidRequest && e.message === "HTTP 403: nope");
  mode = "server-32000";
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.ConnectionClosed && e.message === "HTTP 400: Bad Request: no");
  mode = "not-rpc";
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && e.message === "HTTP 500: boom");
  mode = "text";
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && /^HTTP 500/.test(e.message));
  mode = "odd";
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && /^unexpected response Content-Type/.test(e.message));
  mode = "throw";
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.ConnectionClosed && /ECONNREFUSED/.test(e.message));
  t.close();
});

test("basic/transports (Sending Messages: an error status's body MAY be a JSON-RPC error response without id; README Limits, maxBodyBytes: 413 with a JSON-RPC error body): a request over the server's body limit fails with that body's -32600, as an oversized request does over memory and stdio, in both eras; the other requests and the session go on", async () => {
  for (const era of ["2025-11-25", MV] as const) {
    const { handler } = era === MV ? modernHandler(new Tools(), { maxBodyBytes: 1000 }) : makeHandler(new Tools(), { maxBodyBytes: 1000 });
    const t = wrappedTransport(handler, (_req, next) => next());
    const c = new McpClient({ name: "c", version: "1" }, { session: { versions: [era] } });
    await c.connect(t);
    const [big, small] = await Promise.allSettled([c.callTool("echo", { text: "y".repeat(5000) }), c.callTool("echo", { text: "ok" })]);
    assert.equal(big.status, "rejected", era);
    const e = (big as PromiseRejectedResult).reason as McpError;
    assert.equal(e.code, ErrorCode.InvalidRequest, era);
    assert.equal(e.message, "HTTP 413: Content Too Large: request body exceeds 1000 bytes", era);
    assert.equal(small.status === "fulfilled" && blockText(small.value.content[0]), "ok", era);
    assert.equal(blockText((await c.callTool("echo", { text: "after" })).content[0]), "after", era);
    c.close();
  }
});

/** `text` as bytes with its "è" written in Latin-1 (the byte E8, not UTF-8). */
function latin1E(text: string): Uint8Array<ArrayBuffer> {
  const [pre, post] = text.split("\u00e8");
  assert.ok(post !== undefined, "the text has an è");
  const enc = new TextEncoder();
  return Uint8Array.from([...enc.encode(pre), 0xe8, ...enc.encode(post)]);
}

test("basic/transports (JSON-RPC messages MUST be UTF-8 encoded): an error status whose JSON-RPC error body is not UTF-8 fails the POST's requests with -32603 saying so (no code or id in it can be trusted), not with the bare status; in both eras, and the session goes on", async () => {
  for (const era of ["2025-11-25", MV] as const) {
    const { handler } = era === MV ? modernHandler() : makeHandler();
    const t = wrappedTransport(handler, async (_req, next, body) => {
      if (!body.includes('"tools/list"')) return next();
      const id = (JSON.parse(body) as { id: number }).id;
      const error = JSON.stringify({ jsonrpc: "2.0", id, error: { code: ErrorCode.InvalidParams, message: "param\u00e8tre invalide" } });
      return new Response(latin1E(error), { status: 400, headers: { "content-type": "application/json" } });
    });
    const c = new McpClient({ name: "c", version: "1" }, { session: { versions: [era] } });
    await c.connect(t);
    await assert.rejects(c.listTools(), (e: McpError) => e.code === ErrorCode.InternalError && e.message === "HTTP 400: malformed response from the peer: the error body is not valid UTF-8", era);
    assert.equal(blockText((await c.callTool("echo", { text: "after" })).content[0]), "after", era);
    c.close();
  }
});

test("client: JSON responses (enableJsonResponse) are handed over as they are", async () => {
  const { handler } = makeHandler(new Tools(), { enableJsonResponse: true });
  const t = httpClientTransport(URL_, { fetch: inProcess(handler), openGetStream: false });
  const { ep } = client(t);
  await ep.open();
  const r = await ep.request("tools/call", { name: "echo", arguments: { text: "json" } });
  assert.equal((r.content as JsonObject[])[0].text, "json");
  t.close();
});

test("client: a POST answered with one JSON body lends its fetch signal to the next POST; one cancelled while it waits for its headers is aborted and never lent (2025-11-25 basic/transports)", async () => {
  const { handler } = makeHandler(new Tools(), { enableJsonResponse: true });
  const signals: (AbortSignal | null | undefined)[] = [];
  let hang = false;
  const t = httpClientTransport(URL_, {
    openGetStream: false,
    fetch: (url, init) => {
      if (init.method === "POST") signals.push(init.signal);
      // A POST the server never answers: only its signal ends the wait.
      if (hang) return new Promise<Response>((_, reject) => init.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
      return handler(new Request(url, init));
    },
  });
  const { ep } = client(t);
  await ep.open();
  await ep.request("tools/call", { name: "echo", arguments: { text: "one" } });
  await ep.request("tools/call", { name: "echo", arguments: { text: "two" } });
  assert.equal(signals.at(-1), signals.at(-2), "the second call's fetch carries the first one's signal");
  hang = true;
  const ac = new AbortController();
  const lost = ep.request("tools/call", { name: "echo", arguments: { text: "three" } }, { signal: ac.signal });
  await until(() => signals.length === 5);
  const waiting = signals.at(-1)!;
  ac.abort("cancelled");
  await assert.rejects(lost);
  await until(() => waiting.aborted);
  hang = false;
  await ep.request("tools/call", { name: "echo", arguments: { text: "four" } });
  assert.notEqual(signals.at(-1), waiting, "an aborted signal is not lent again");
  assert.equal(signals.at(-1)!.aborted, false);
  t.close();
});

test("client: the GET stream is reopened after a server-side close; an unresumable Last-Event-ID (400) falls back to a fresh GET", async () => {
  const { handler, tools } = makeHandler();
  const delays: number[] = [];
  const gets: (string | null)[] = [];
  const first = deferred();
  const third = deferred();
  const t = httpClientTransport(URL_, {
    sleep: noSleep(delays),
    fetch: inProcess(handler, [], async (req, next) => {
      if (req.method !== "GET") return next();
      gets.push(req.headers.get("last-event-id"));
      if (gets.length === 2) return new Response(null, { status: 400 });
      const r = await next();
      if (gets.length === 1) first.resolve();
      if (gets.length === 3) third.resolve();
      return r;
    }),
  });
  const got = deferred<string>();
  const { ep } = client(t, undefined, (m) => got.resolve(m));
  await ep.open();
  await first.promise;
  // The server closes the GET connection (polling); the client comes back.
  assert.equal(handler.closeConnections(), 1);
  await third.promise;
  assert.equal(gets[0], null);
  assert.ok(gets[1] !== null, "the first reconnect resumes");
  assert.equal(gets[2], null, "after 400 a fresh GET");
  tools.endpoints[0].notify("notifications/tools/list_changed");
  assert.equal(await got.promise, "notifications/tools/list_changed");
  t.close();
});

test("client: the modern-era per-request header seam adds headers; unsafe ones are dropped; bad static headers throw at once", async () => {
  const { handler } = makeHandler();
  const seen: Seen[] = [];
  const errors: string[] = [];
  const t = httpClientTransport(URL_, {
    headers: { authorization: "Bearer x" },
    openGetStream: false,
    onError: (e) => errors.push(e),
    requestHeaders: (text) => (text.includes("tools/list") ? { "Mcp-Method": "tools/list", "X-Bad": "a\r\nb", "bad name": "v" } : undefined),
    fetch: inProcess(handler, seen),
  });
  const { ep } = client(t);
  await ep.open();
  await ep.request("tools/list");
  const last = seen.find((s) => s.body?.includes("tools/list"))!;
  assert.equal(last.headers.get("mcp-method"), "tools/list");
  assert.equal(last.headers.get("authorization"), "Bearer x");
  assert.equal(last.headers.get("x-bad"), null);
  assert.equal(errors.length, 2);
  t.close();
  assert.throws(() => httpClientTransport(URL_, { headers: { "x-evil": "a\nb" } }), TypeError);
  assert.throws(() => httpClientTransport(URL_, { headers: { "bad name": "v" } }), TypeError);
});

test("client (draft streamable-http Case Sensitivity: header names MUST be compared case-insensitively): a caller's header in another letter case replaces the one of that name instead of going beside it; the transport's own win over headers, requestHeaders over both", async () => {
  const { handler } = makeHandler();
  const seen: Seen[] = [];
  const raw: Record<string, string>[] = [];
  const fetch = inProcess(handler, seen);
  const t = httpClientTransport(URL_, {
    // A Headers yields lower-case names; the transport writes Content-Type and Accept as the spec does.
    headers: new Headers({ "Content-Type": "application/json", Accept: "text/html", Authorization: "Bearer OLD", "X-Trace": "t" }),
    openGetStream: false,
    requestHeaders: (text) => (text.includes("tools/list") ? { AUTHORIZATION: "Bearer NEW", "mcp-protocol-version": "2025-11-25" } : undefined),
    fetch: (url, init) => (raw.push(init.headers as Record<string, string>), fetch(url, init)),
  });
  const { ep } = client(t);
  // The kernel's handler refuses a POST whose Content-Type is "application/json, application/json" with 415.
  await ep.open();
  await ep.request("tools/list");
  const init = seen.find((s) => s.body?.includes('"initialize"'))!;
  assert.equal(init.headers.get("content-type"), "application/json");
  assert.equal(init.headers.get("accept"), "application/json, text/event-stream");
  assert.equal(init.headers.get("authorization"), "Bearer OLD");
  assert.equal(init.headers.get("x-trace"), "t");
  const list = seen.find((s) => s.body?.includes("tools/list"))!;
  assert.equal(list.headers.get("authorization"), "Bearer NEW");
  assert.equal(list.headers.get("mcp-protocol-version"), "2025-11-25");
  assert.equal(list.headers.get("mcp-session-id"), t.sessionId);
  // No request holds two spellings of one name.
  for (const h of raw) {
    const names = Object.keys(h).map((k) => k.toLowerCase());
    assert.equal(new Set(names).size, names.length, Object.keys(h).join(", "));
  }
  t.close();

  // A custom fetch sees the transport's headers by their usual names, and the caller's as
  // given: one that spreads them and sets Authorization replaces the caller's (found by
  // review: a record keyed by lower-case names sent "Bearer STALE, Bearer FRESH").
  const wrapped: Seen[] = [];
  const inner = inProcess(makeHandler().handler, wrapped);
  const sessionIds: (string | undefined)[] = [];
  const u = httpClientTransport(URL_, {
    headers: { Authorization: "Bearer STALE" },
    openGetStream: false,
    fetch: (url, init) => {
      const given = init.headers as Record<string, string>;
      sessionIds.push(given["MCP-Session-Id"]);
      return inner(url, { ...init, headers: { ...given, Authorization: "Bearer FRESH" } });
    },
  });
  await client(u).ep.open();
  for (const s of wrapped) assert.equal(s.headers.get("authorization"), "Bearer FRESH");
  assert.equal(sessionIds.at(-1), u.sessionId, "the session id under its usual name");
  u.close();
});

test("client: messages that arrive before a receiver is registered are buffered", async () => {
  const { handler } = makeHandler();
  const t = httpClientTransport(URL_, { fetch: inProcess(handler), openGetStream: false });
  const done = deferred();
  t.send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } }));
  // protocolVersion is learned in the same step that buffers the message.
  await until(() => t.protocolVersion !== undefined);
  t.onMessage((text) => {
    assert.equal(JSON.parse(text).result.protocolVersion, "2025-06-18");
    done.resolve();
  });
  await done.promise;
  assert.equal(t.protocolVersion, "2025-06-18");
  t.close();
});

test("client: requests after the handshake wait until the server has answered the standalone GET, so none races it (a server may route a response to a GET stream it sees open)", async () => {
  const { handler } = makeHandler();
  const seen: Seen[] = [];
  const getHeld = deferred<void>();
  let gets = 0;
  const t = httpClientTransport(URL_, {
    fetch: inProcess(handler, seen, async (req, next) => {
      if (req.method !== "GET") return next();
      gets++;
      await getHeld.promise;
      return next();
    }),
    sleep: () => new Promise(() => {}), // the bound never runs out here
  });
  const { ep } = client(t);
  await ep.open();
  const listed = ep.request("tools/list");
  await until(() => gets === 1);
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
  assert.deepEqual(seen.map((s) => s.method), ["POST", "POST", "GET"], "initialize, initialized, then the GET; tools/list waits");
  getHeld.resolve();
  assert.equal(((await listed).tools as JsonObject[])[0].name, "echo");
  assert.deepEqual(seen.map((s) => s.method), ["POST", "POST", "GET", "POST"]);
  t.close();
});

test("client: a GET the server does not answer holds requests only for the bound (GET_WAIT_MS), then they go out", async () => {
  const { handler } = makeHandler();
  const waits: number[] = [];
  const t = httpClientTransport(URL_, {
    fetch: inProcess(handler, [], async (req, next) => (req.method === "GET" ? new Promise<Response>(() => {}) : next())),
    sleep: noSleep(waits),
  });
  const { ep } = client(t);
  await ep.open();
  assert.equal(((await ep.request("tools/list")).tools as JsonObject[])[0].name, "echo");
  assert.deepEqual(waits, [GET_WAIT_MS]);
  t.close();
});

/**
 * A client transport over `handler` whose session, once `renew()` ends it, is renewed
 * with the server's answer to the new initialize replaced by `rewrite` of it; with
 * `hold`, that answer waits for it (after telling `arrived`).
 */
function renewalRewritten(handler: HttpHandler, seen: Seen[], rewrite: (r: Response, body: string) => Response, hold?: { arrived(): void; until: Promise<void> }, get?: (req: Request) => Response | undefined) {
  let renewing = false;
  const t = httpClientTransport(URL_, {
    sleep: async () => {},
    fetch: inProcess(handler, seen, async (req, next) => {
      // A GET the test answers itself (the resumption of the renewal's stream).
      const answered = req.method === "GET" ? get?.(req) : undefined;
      if (answered !== undefined) return answered;
      const isInit = renewing && req.method === "POST" && seen.at(-1)!.body!.includes('"initialize"');
      const r = await next();
      if (!isInit) return r;
      hold?.arrived();
      await hold?.until;
      return rewrite(r, await r.text());
    }),
    openGetStream: false,
  });
  const renew = () => {
    handler.terminate(t.sessionId!);
    renewing = true;
  };
  return { t, renew };
}

/** The response `r` (its headers, the session id among them) with an SSE `body` of the test's instead. */
function asSse(r: Response, body: BodyInit): Response {
  const headers = new Headers(r.headers);
  headers.set("content-type", "text/event-stream");
  return new Response(body, { headers });
}

/** {@link renewalRewritten} into a server that answers another version (2025-06-18) than the one the kernel negotiated. */
function renewalToAnotherVersion(handler: HttpHandler, seen: Seen[], hold?: { arrived(): void; until: Promise<void> }) {
  return renewalRewritten(handler, seen, (r, body) => new Response(body.replace('"protocolVersion":"2025-11-25"', '"protocolVersion":"2025-06-18"'), { status: r.status, headers: r.headers }), hold);
}

test("client: Session Management item 4 (basic/lifecycle: the server may log or ping before the initialize result; SEP-1699: it may close a stream after its priming event): a renewal reads the new initialize's answer as the first connect does, a notification before the result delivered, a stream closed after its priming event resumed with Last-Event-ID", async () => {
  const log = JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "starting up" } });
  for (const mode of ["log first", "polling close"] as const) {
    const { handler } = makeHandler();
    const seen: Seen[] = [];
    let renewing = false;
    let result = "";
    const t = httpClientTransport(URL_, {
      openGetStream: false,
      sleep: async () => {},
      fetch: inProcess(handler, seen, async (req, next) => {
        const stream = (text: string, headers = new Headers()) => (headers.set("content-type", "text/event-stream"), new Response(text, { headers }));
        // The resumption of the renewal's initialize stream: the result, after the priming event.
        if (req.method === "GET" && req.headers.get("last-event-id") === "r-0") return stream(`id: r-1\ndata: ${result}\n\n`);
        const isInit = renewing && req.method === "POST" && seen.at(-1)!.body!.includes('"initialize"');
        const r = await next();
        if (!isInit) return r;
        result = await r.text();
        return stream(mode === "log first" ? `data: ${log}\n\ndata: ${result}\n\n` : "id: r-0\nretry: 0\ndata:\n\n", new Headers(r.headers));
      }),
    });
    const notes: string[] = [];
    const { ep } = client(t, undefined, (m) => notes.push(m));
    let renewed = 0;
    t.onSessionRenewed!(() => renewed++);
    await ep.open();
    const old = t.sessionId!;
    handler.terminate(old);
    renewing = true;
    const list = await ep.request("tools/list");
    assert.ok(Array.isArray(list.tools), mode);
    assert.notEqual(t.sessionId, old, mode);
    assert.equal(renewed, 1, mode);
    if (mode === "log first") assert.deepEqual(notes, ["notifications/message"], "the notification reaches the kernel; the result does not");
    else assert.equal(seen.filter((s) => s.method === "GET" && s.headers.get("last-event-id") === "r-0").length, 1);
    t.close();
  }
});

test("client: Session Management item 4 (a client MUST start a new session, or fail): a renewal whose initialize stream closed after its priming event, and whose resumption meets 404 (the new session gone too), fails and closes the client; it waited on itself for good, every later send held (found by review)", { timeout: 10_000 }, async () => {
  const { handler } = makeHandler();
  const seen: Seen[] = [];
  const resumed = (req: Request) => (req.headers.get("last-event-id") === "r-0" ? new Response(null, { status: 404 }) : undefined);
  const { t, renew } = renewalRewritten(handler, seen, (r) => asSse(r, "id: r-0\nretry: 0\ndata:\n\n"), undefined, resumed);
  const { ep, closed } = client(t);
  await ep.open();
  renew();
  const p = ep.request("tools/list");
  assert.match(await closed, /^session expired: .*a new session could not be started: initialize was not answered with a result/);
  await assert.rejects(p, (e: McpError) => e.code === ErrorCode.ConnectionClosed);
});

test("client: Session Management item 5 (clients SHOULD DELETE a session they no longer need, once): close() while a renewal reads its initialize stream DELETEs the new session once; the renewal, left with no answer, sent a second DELETE after the close (found by review)", { timeout: 10_000 }, async () => {
  const { handler } = makeHandler();
  const seen: Seen[] = [];
  // The priming event, and the stream held open: the renewal is still reading it at close().
  const held = () => new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode("id: r-0\ndata:\n\n")) });
  const { t, renew } = renewalRewritten(handler, seen, (r) => asSse(r, held()));
  const { ep } = client(t);
  await ep.open();
  renew();
  void ep.request("tools/list").catch(() => {});
  await until(() => seen.filter((s) => s.body?.includes('"initialize"')).length === 2);
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
  t.close();
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  const deletes = seen.filter((s) => s.method === "DELETE");
  assert.equal(deletes.length, 1, deletes.map((d) => d.headers.get("mcp-session-id")).join(", "));
});

test("client: Session Management items 4 and 5: a renewal the client cannot use (the new initialize answers another version) DELETEs the session it opened before closing", async () => {
  const { handler } = makeHandler();
  const seen: Seen[] = [];
  const { t, renew } = renewalToAnotherVersion(handler, seen);
  const { ep, closed } = client(t);
  await ep.open();
  renew();
  const p = ep.request("tools/list");
  assert.ok((await closed).startsWith(SESSION_EXPIRED));
  await assert.rejects(p, (e: McpError) => e.code === ErrorCode.ConnectionClosed);
  for (let i = 0; i < 20 && handler.sessionCount > 0; i++) await new Promise((r) => setImmediate(r));
  assert.equal(seen.filter((s) => s.method === "DELETE").length, 1);
  const renewed = seen.filter((s) => s.body?.includes('"initialize"')).length;
  assert.equal(renewed, 2, "the renewal was attempted");
  assert.equal(handler.sessionCount, 0, "the session the renewal opened was ended");
});

test("client: Session Management item 4 (JSON-RPC messages MUST be UTF-8 encoded): a renewal whose initialize answer is not UTF-8 (JSON body or SSE event) fails saying so, and the session it opened is DELETEd", async () => {
  for (const mode of ["json", "sse"] as const) {
    const { handler } = makeHandler();
    const seen: Seen[] = [];
    const { t, renew } = renewalRewritten(handler, seen, (r, body) => {
      const bad = latin1E(body.replace('"version":"1.0.0"', '"version":"1.0.0-\u00e8"'));
      if (mode === "json") return new Response(bad, { status: r.status, headers: r.headers });
      const headers = new Headers(r.headers);
      headers.set("content-type", "text/event-stream");
      const enc = new TextEncoder();
      return new Response(Uint8Array.from([...enc.encode("data: "), ...bad, ...enc.encode("\n\n")]), { status: r.status, headers });
    });
    const { ep, closed } = client(t);
    await ep.open();
    renew();
    const p = ep.request("tools/list");
    assert.match(await closed, /; a new session could not be started: initialize was not answered with a result \(HTTP 200: malformed response from the peer: (the JSON response body|message) is not valid UTF-8\)$/, mode);
    await assert.rejects(p, (e: McpError) => e.code === ErrorCode.ConnectionClosed);
    for (let i = 0; i < 20 && handler.sessionCount > 0; i++) await new Promise((r) => setImmediate(r));
    assert.equal(seen.filter((s) => s.method === "DELETE").length, 1, mode);
    assert.equal(handler.sessionCount, 0, `${mode}: the session the renewal opened was ended`);
  }
});

test("client: Session Management item 4: requests queued behind a renewal that fails are not POSTed once the transport closes, and the close reason says why no new session could be started", async () => {
  const { handler } = makeHandler();
  const seen: Seen[] = [];
  const initSeen = deferred<void>();
  const hold = deferred<void>();
  const { t, renew } = renewalToAnotherVersion(handler, seen, { arrived: () => initSeen.resolve(), until: hold.promise });
  const { ep, closed } = client(t);
  await ep.open();
  renew();
  const p = ep.request("tools/list");
  await initSeen.promise;
  // Sent while the renewal is under way: it waits for the new session, which never comes.
  const q = ep.request("tools/call", { name: "echo", arguments: {} });
  hold.resolve();
  const reason = await closed;
  assert.match(reason, /^session expired: .*; a new session could not be started: the new session's protocol version is "2025-06-18", not this session's 2025-11-25$/);
  await assert.rejects(p, (e: McpError) => e.code === ErrorCode.ConnectionClosed);
  await assert.rejects(q, (e: McpError) => e.code === ErrorCode.ConnectionClosed);
  await turns();
  assert.equal(seen.filter((s) => s.body?.includes('"tools/call"')).length, 0, "the queued call never reached the server");
});

test("client: Session Management item 4: a request sent while a second renewal starts (however many microtasks after the 404) waits for the new session and carries its MCP-Session-Id", async () => {
  for (let k = 0; k < 12; k++) {
    const { handler } = makeHandler();
    const seen: Seen[] = [];
    let armed = false;
    let late: Promise<unknown> | undefined;
    let ep!: Endpoint;
    const t = httpClientTransport(URL_, {
      fetch: inProcess(handler, seen, async (_req, next) => {
        const r = await next();
        if (armed && r.status === 404) {
          armed = false;
          let chain: Promise<void> = Promise.resolve();
          for (let i = 0; i < k; i++) chain = chain.then(() => {});
          void chain.then(() => (late = ep.request("tools/list")));
        }
        return r;
      }),
      openGetStream: false,
    });
    ep = client(t).ep;
    await ep.open();
    handler.terminate(t.sessionId!); // a first renewal
    await ep.request("tools/list");
    handler.terminate(t.sessionId!); // and a second, with a send racing its start
    armed = true;
    await ep.request("tools/list");
    await late;
    const lists = seen.filter((s) => s.method === "POST" && s.body?.includes('"tools/list"'));
    assert.ok(lists.every((s) => s.headers.get("mcp-session-id") !== null), `k=${k}: every tools/list carried a session id`);
    t.close();
  }
});

test("client: Session Management item 4 (a new session after a 404) with the old session's server request still unanswered: its answer, given before or after the renewal, never reaches the new session, whose own request of the same id is served and answered with its own reply (basic/index: a response answers the request of its id)", { timeout: 10_000 }, async () => {
  const { McpServer } = await import("../../src/api/server.js");
  const { ManualClock } = await import("../../src/driver/clock.js");
  const { createHttpHandler } = await import("../../src/transports/http-server.js");
  for (const answerFirst of [false, true]) {
    const clock = new ManualClock();
    const server = new McpServer({ name: "s", version: "1" }, { clock });
    server.tool("ask", {}, async (_a, ctx) => {
      const r = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "which?" } }], maxTokens: 5 });
      return { content: [{ type: "text", text: (r.content as { text: string }).text }] };
    });
    const handler = createHttpHandler({ clock, createSession: server.httpSession() });
    const seen: Seen[] = [];
    const replies: Array<{ resolve(text: string): void; signal: AbortSignal }> = [];
    const c = new McpClient({ name: "c", version: "1" }, {
      clock,
      handlers: {
        sampling: (_p, ctx) => {
          const d = deferred<string>();
          replies.push({ resolve: d.resolve, signal: ctx.signal });
          return d.promise.then((text) => ({ role: "assistant" as const, content: { type: "text" as const, text }, model: "m" }));
        },
      },
    });
    await c.connect(httpClientTransport(URL_, { fetch: inProcess(handler, seen), openGetStream: false }));
    const first = c.callTool("ask").then(() => "answered", (e: McpError) => e.code);
    await until(() => replies.length === 1, 200);
    const old = (c.connection!.state.inbound[Object.keys(c.connection!.state.inbound)[0]].id);
    handler.terminate([...new Set(seen.map((s) => s.headers.get("mcp-session-id")).filter((s) => s !== null))][0]!);
    assert.equal(await first, ErrorCode.ConnectionClosed);
    // Answered while the session is gone: the POST meets the 404 that starts the new session.
    if (answerFirst) replies[0].resolve("the old question's reply");
    const second = c.callTool("ask");
    await until(() => replies.length === 2, 200);
    assert.ok(replies[0].signal.aborted || answerFirst, "the old request's handler is told it is moot");
    // Answered after the renewal: there is no one to send it to.
    if (!answerFirst) replies[0].resolve("the old question's reply");
    await until(() => seen.some((s) => s.body?.includes("the old question's reply")) || !answerFirst, 50).catch(() => {});
    await new Promise((r) => setImmediate(r));
    replies[1].resolve("the new question's reply");
    const r = await second;
    assert.equal((r.content[0] as { text: string }).text, "the new question's reply", `answerFirst ${answerFirst}`);
    const newSession = c.connection !== undefined ? seen[seen.length - 1].headers.get("mcp-session-id") : null;
    const stale = seen.filter((s) => s.headers.get("mcp-session-id") === newSession && s.body?.includes("the old question's reply"));
    assert.deepEqual(stale.map((s) => s.body), [], `answerFirst ${answerFirst}: the old session's answer (to its request ${old}) went to the new session`);
    c.close();
    await handler.close();
  }
});
