// Spec: 2025-11-25 basic/transports ("Streamable HTTP", client side): how the client
// copes when the network or the server misbehaves. The real handler serves each test;
// a wrapping fetch injects the failure.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Endpoint, McpError } from "../../src/driver/endpoint.js";
import { encode } from "../../src/jsonrpc/codec.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { httpClientTransport, SESSION_EXPIRED, type HttpClientTransport } from "../../src/transports/http-client.js";
import { sameOriginRedirects } from "../../src/transports/http/redirect.js";
import { deferred, makeHandler, Tools, until, URL_, wrappedTransport } from "./helpers.js";
import { ManualClock } from "../../src/driver/clock.js";
import { LongBody } from "../harness/long-body.js";
import { collectUncaught } from "../harness/uncaught.js";

function connect(t: HttpClientTransport, version = "2025-11-25", maxMessageBytes?: number) {
  const closed = deferred<string>();
  const ep = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: [version as "2025-11-25"], ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }) }, { send: (m) => t.send(encode(m)) });
  t.onMessage((x) => ep.receive(x));
  t.onClose((r) => {
    ep.closed(r);
    closed.resolve(r);
  });
  return { ep, closed: closed.promise };
}

const sse = (text: string) => new Response(text, { status: 200, headers: { "content-type": "text/event-stream" } });
/** A POST stream that ends right after its priming event: resumable, response not yet sent. */
const primedOnly = () => sse("id: 1-0\ndata:\n\n");
/** An SSE response that sends `text` and never ends (a tool still running); calls `onCancel` when the client closes it. */
function endless(text: string, onCancel: () => void): Response {
  const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode(text)), cancel: onCancel });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

test("client edges: a failed initialize POST (a thrown non-Error) fails the handshake", async () => {
  const { handler } = makeHandler();
  const t = wrappedTransport(handler, async () => {
    throw "offline";
  });
  const { ep } = connect(t);
  await assert.rejects(ep.open(), /offline/);
  t.close();
});

test("client edges: a JSON body that cannot be read, or that does not answer the request, fails the request", async () => {
  const { handler } = makeHandler();
  let mode = "broken";
  const t = wrappedTransport(handler, async (req, next, body) => {
    if (!body.includes("tools/list")) return next();
    if (mode === "broken") {
      const failing = new ReadableStream({ pull: (c) => c.error(new Error("reset")) });
      return new Response(failing, { headers: { "content-type": "application/json" } });
    }
    return new Response(JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }), { headers: { "content-type": "application/json" } });
  });
  const { ep } = connect(t);
  await ep.open();
  await assert.rejects(ep.request("tools/list"), (e: McpError) => /could not be read/.test(e.message));
  mode = "unanswered";
  await assert.rejects(ep.request("tools/list"), (e: McpError) => /did not answer/.test(e.message));
  t.close();
});

test("client edges: a JSON body past the message limit (4 MiB) fails its request with -32603 and is cancelled, not buffered; an error body past it is not read either; the connection serves on", async () => {
  const { handler } = makeHandler();
  const long = new LongBody(16 << 20);
  let mode: "endless" | "declared" | "error" | "fine" = "endless";
  const endless = () => long.stream();
  const t = wrappedTransport(handler, async (_req, next, body) => {
    if (!body.includes("tools/list") || mode === "fine") return next();
    if (mode === "declared") return new Response(endless(), { headers: { "content-type": "application/json", "content-length": String(5 << 20) } });
    return new Response(endless(), { status: mode === "error" ? 500 : 200, headers: { "content-type": "application/json" } });
  });
  const { ep } = connect(t);
  await ep.open();
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && /JSON response body exceeds 4194304 bytes/.test(e.message));
  assert.ok(long.pulled <= (4 << 20) + 4 * LongBody.CHUNK_BYTES, `read ${long.pulled} bytes`);
  assert.equal(long.cancelled, 1);
  // A declared Content-Length over the limit: refused before a byte is read.
  mode = "declared";
  long.pulled = 0;
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && /exceeds/.test(e.message));
  assert.ok(long.pulled <= 2 * LongBody.CHUNK_BYTES, `read ${long.pulled} bytes`);
  assert.equal(long.cancelled, 2);
  // An HTTP error's JSON body is read to the same bound: the request fails with the status.
  mode = "error";
  long.pulled = 0;
  await assert.rejects(ep.request("tools/list"), (e: McpError) => /HTTP 500/.test(e.message));
  assert.ok(long.pulled <= (4 << 20) + 4 * LongBody.CHUNK_BYTES, `read ${long.pulled} bytes`);
  mode = "fine";
  assert.ok(Array.isArray((await ep.request("tools/list")).tools));
  t.close();
});

test("client edges: text that is not JSON, and raw batches (2025-03-26), go out as they are", async () => {
  const { handler } = makeHandler(new Tools(), { enableJsonResponse: true });
  const errors: string[] = [];
  const t = wrappedTransport(handler, async (_req, next) => next(), { onError: (e) => errors.push(e) });
  const got: string[] = [];
  const ep = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: ["2025-03-26"] }, { send: (m) => t.send(encode(m)) });
  t.onMessage((x) => {
    got.push(x);
    ep.receive(x);
  });
  await ep.open();
  t.send("not json");
  await until(() => errors.length > 0);
  assert.match(errors[0], /HTTP 400/);
  t.send(JSON.stringify([{ jsonrpc: "2.0", id: "b1", method: "tools/list" }, { jsonrpc: "2.0", id: 99, result: {} }]));
  await until(() => got.some((x) => x.includes('"b1"')));
  assert.ok(Array.isArray(JSON.parse(got.at(-1)!)));
  t.close();
});

test("client edges (2025-03-26 batches): an error status whose body answers some requests of a batch delivers it and fails the batch's other requests at once (-32603), not at their timeout; an array of errors is delivered as it is", async () => {
  const { handler } = makeHandler(new Tools());
  // A server that refuses the whole batch naming one member (as SDK 1.32.2 does).
  const t = wrappedTransport(handler, async (_req, next, body) => {
    if (!body.includes('"b1"')) return next();
    return new Response(JSON.stringify({ jsonrpc: "2.0", id: "b2", error: { code: ErrorCode.InvalidRequest, message: "Invalid Request: params must be an object" } }), { status: 400, headers: { "content-type": "application/json" } });
  });
  const got: any[] = [];
  const ep = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: ["2025-03-26"] }, { send: (m) => t.send(encode(m)) });
  t.onMessage((x) => {
    got.push(JSON.parse(x));
    ep.receive(x);
  });
  await ep.open();
  t.send(JSON.stringify([{ jsonrpc: "2.0", id: "b1", method: "tools/list" }, { jsonrpc: "2.0", id: "b2", method: "tools/list", params: [] }]));
  await until(() => got.some((m) => m.id === "b2"));
  assert.deepEqual(got.find((m) => m.id === "b2").error.code, ErrorCode.InvalidRequest);
  const b1 = got.find((m) => m.id === "b1");
  assert.ok(b1 !== undefined, "b1 failed with b2's answer, not left to its timeout");
  assert.equal(b1.error.code, ErrorCode.InternalError);
  assert.match(b1.error.message, /^HTTP 400: /);
  // Our server answers a batch with no valid request 400 with its members' errors, an array: each gets its own.
  t.send(JSON.stringify([{ jsonrpc: "2.0", id: "b3", method: "tools/list", params: [] }, { jsonrpc: "2.0", id: "b4", method: 4 }]));
  const answered = () => got.flat().filter((m) => m.id === "b3" || m.id === "b4");
  await until(() => answered().length === 2);
  assert.deepEqual(answered().map((m: any) => [m.id, m.error.code]), [["b3", ErrorCode.InvalidRequest], ["b4", ErrorCode.InvalidRequest]]);
  t.close();
});

test("client edges (2025-03-26 transports: the SSE stream's responses \"MAY be batched\"): an initialize answered in a batched event ([InitializeResult]) connects a client that asked for 2025-03-26", async () => {
  const { handler } = makeHandler(new Tools());
  const t = wrappedTransport(handler, async (_req, next, body) => {
    const r = await next();
    if (!body.includes('"initialize"')) return r;
    const headers = { "content-type": "text/event-stream", "mcp-session-id": r.headers.get("mcp-session-id")! };
    return new Response(`id: 1\ndata: [${await r.text()}]\n\n`, { status: 200, headers });
  });
  const { ep } = connect(t, "2025-03-26");
  await ep.open();
  assert.equal(ep.state.phase.name, "operating");
  assert.ok(Array.isArray((await ep.request("tools/list")).tools));
  t.close();
});

test("client edges: a server that sends no session id, or one that is not visible ASCII, is not sent one back", async () => {
  const { handler } = makeHandler();
  const errors: string[] = [];
  let mangle = true;
  const t = wrappedTransport(
    handler,
    async (_req, next, body) => {
      const r = await next();
      if (!body.includes('"initialize"')) return r;
      const h = new Headers(r.headers);
      if (mangle) h.set("mcp-session-id", "bad id");
      else h.delete("mcp-session-id");
      return new Response(r.body, { status: r.status, headers: h });
    },
    { onError: (e) => errors.push(e) },
  );
  const { ep, closed } = connect(t);
  await ep.open();
  assert.equal(t.sessionId, undefined);
  assert.deepEqual(errors, ["ignored an MCP-Session-Id that is not visible ASCII"]);
  t.close();
  await closed;
  mangle = false;
  const t2 = wrappedTransport(handler, async (_req, next, body) => {
    const r = await next();
    if (!body.includes('"initialize"')) return r;
    const h = new Headers(r.headers);
    h.delete("mcp-session-id");
    return new Response(r.body, { status: r.status, headers: h });
  });
  const c2 = connect(t2);
  await c2.ep.open();
  assert.equal(t2.sessionId, undefined);
  t2.close();
});

test("client edges (2025-11-25 basic/transports, Session Management: the client MUST include the session id on all subsequent requests): a server that refuses notifications/initialized with 400 after an initialize answer without a readable MCP-Session-Id (a cross-origin server that does not expose it) closes the transport with a reason naming Access-Control-Expose-Headers; a server without sessions serves on", async () => {
  const { handler } = makeHandler();
  // What fetch gives for a cross-origin server that does not expose the header.
  const hide = async (next: () => Promise<Response>, body: string) => {
    const r = await next();
    const h = new Headers(r.headers);
    if (body.includes('"initialize"')) h.delete("mcp-session-id");
    return Object.defineProperty(new Response(r.body, { status: r.status, headers: h }), "type", { value: "cors" });
  };
  const t = wrappedTransport(handler, (_req, next, body) => hide(next, body));
  const { ep, closed } = connect(t);
  await ep.open();
  const reason = await closed;
  assert.match(reason, /HTTP 400/);
  assert.match(reason, /cross-origin/);
  assert.match(reason, /Access-Control-Expose-Headers: MCP-Session-Id/);
  assert.match(reason, /header is required/, "the 400's own message");
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.ConnectionClosed);
  // Same origin, fetch hides no header: a server without sessions refusing the notification
  // for its own reasons is reported as any 400 is, and the session serves on.
  const errors: string[] = [];
  const refusing = wrappedTransport(
    handler,
    async (_req, next, body) => {
      if (body.includes('"notifications/initialized"')) return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "no notifications here" } }, { status: 400 });
      if (body.includes('"tools/list"')) return Response.json({ jsonrpc: "2.0", id: JSON.parse(body).id, result: { tools: [] } });
      const r = await next();
      const h = new Headers(r.headers);
      h.delete("mcp-session-id");
      return new Response(r.body, { status: r.status, headers: h });
    },
    { onError: (e) => errors.push(e) },
  );
  const same = connect(refusing);
  await same.ep.open();
  assert.deepEqual(await same.ep.request("tools/list"), { tools: [] });
  assert.ok(errors.some((e) => /HTTP 400: no notifications here/.test(e)), errors.join());
  refusing.close();
  // A server without sessions: no MCP-Session-Id, and the notification accepted.
  const sessionless = wrappedTransport(handler, async (_req, next, body) => {
    if (body.includes('"notifications/initialized"')) return new Response(null, { status: 202 });
    if (body.includes('"tools/list"')) return Response.json({ jsonrpc: "2.0", id: JSON.parse(body).id, result: { tools: [] } });
    return hide(next, body);
  });
  const c = connect(sessionless);
  await c.ep.open();
  assert.deepEqual(await c.ep.request("tools/list"), { tools: [] });
  sessionless.close();
});

test("client edges: resuming a POST stream: 404 renews the session (the request is lost with the old one), 405 and 400 fail the request", async () => {
  for (const [status, check] of [
    [404, (reason: string) => reason.startsWith(SESSION_EXPIRED)],
    [405, (reason: string) => /refused to resume/.test(reason)],
    [400, (reason: string) => /cannot resume/.test(reason)],
  ] as const) {
    const { handler } = makeHandler();
    const t = wrappedTransport(handler, async (req, next, body) => {
      if (req.method === "GET") return new Response(null, { status });
      if (body.includes("tools/list")) {
        (await next()).body?.cancel();
        return primedOnly();
      }
      return next();
    });
    const { ep, closed } = connect(t);
    await ep.open();
    const err = await ep.request("tools/list").then(
      () => undefined,
      (e: McpError) => e,
    );
    assert.ok(err instanceof McpError);
    assert.equal(err.code, ErrorCode.ConnectionClosed);
    assert.ok(check(status === 404 ? err.message.replace(/^connection closed: /, "") : err.message), err.message);
    void closed;
    t.close();
  }
});

test("client edges: closing while waiting to reconnect, or while the reconnect is in flight, stops quietly", async () => {
  for (const when of ["sleep", "fetch"] as const) {
    const { handler } = makeHandler();
    let t!: HttpClientTransport;
    const stopped = deferred();
    t = wrappedTransport(
      handler,
      async (req, next, body) => {
        if (req.method === "GET") {
          t.close();
          stopped.resolve();
          return new Response("", { status: 200, headers: { "content-type": "text/event-stream" } });
        }
        if (body.includes("tools/list")) {
          (await next()).body?.cancel();
          return primedOnly();
        }
        return next();
      },
      {
        sleep: async () => {
          if (when === "sleep") {
            t.close();
            stopped.resolve();
          }
        },
      },
    );
    const { ep } = connect(t);
    await ep.open();
    const p = ep.request("tools/list").catch((e: McpError) => e);
    await stopped.promise;
    assert.ok((await p) instanceof McpError);
  }
});

test("client edges (2025-11-25 basic/transports, Session Management item 5: the client ends the session; README: close() aborts every fetch): a JSON body still arriving (a 200 answer, or an error status's) is cancelled by close(), not read on until the server ends it", { timeout: 10_000 }, async () => {
  for (const status of [200, 500]) {
    const { handler } = makeHandler();
    let cancelled = 0;
    const arriving = deferred();
    const t = wrappedTransport(handler, async (_req, next, body) => {
      if (!body.includes('"tools/list"')) return next();
      // The headers and a first chunk come; the rest never does (a stalled server or proxy).
      // A pull is the client asking for more, once it has read the first chunk.
      const trickle = new ReadableStream<Uint8Array>({
        start: (c) => c.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","id":')),
        pull: () => {
          arriving.resolve();
          return new Promise<void>(() => {});
        },
        cancel: () => void cancelled++,
      });
      return new Response(trickle, { status, headers: { "content-type": "application/json" } });
    });
    const { ep, closed } = connect(t);
    await ep.open();
    const p = ep.request("tools/list").catch((e: McpError) => e);
    await arriving.promise;
    t.close();
    await closed;
    assert.equal(((await p) as McpError).code, ErrorCode.ConnectionClosed);
    await until(() => cancelled > 0, 50).catch(() => {});
    assert.equal(cancelled, 1, `HTTP ${status}: the body is cancelled on close`);
  }
});

test("client edges: a POST in flight when the transport closes is not answered by the transport", async () => {
  const { handler } = makeHandler();
  let t!: HttpClientTransport;
  const inFlight = deferred();
  t = httpClientTransport(URL_, {
    openGetStream: false,
    fetch: (url, init) =>
      new Promise((resolve, reject) => {
        const req = new Request(url, init);
        if (String(init.body).includes("tools/list")) {
          init.signal!.addEventListener("abort", () => reject(new Error("aborted")));
          inFlight.resolve();
          return;
        }
        handler(req).then(resolve, reject);
      }),
  });
  const got: string[] = [];
  const { ep } = connect(t);
  t.onMessage((x) => {
    got.push(x);
    ep.receive(x);
  });
  await ep.open();
  const p = ep.request("tools/list").catch((e: McpError) => e);
  await inFlight.promise;
  t.close();
  assert.ok((await p) instanceof McpError);
  assert.ok(!got.some((x) => x.includes("connection closed:")), "no synthesized answer after close");
});

test("client edges: the GET stream: a network failure or a refusal is reported; it gives up after maxRetries; 409 ends it quietly", async () => {
  for (const mode of ["throw", "500", "retries", "409"] as const) {
    const { handler } = makeHandler();
    const errors: string[] = [];
    let gets = 0;
    const done = deferred();
    const t = wrappedTransport(
      handler,
      async (req, next) => {
        if (req.method !== "GET") return next();
        gets++;
        if (mode === "throw") throw new Error("no route");
        if (mode === "500") return new Response(null, { status: 500 });
        if (mode === "409") return gets === 1 ? sse("id: 5-0\ndata:\n\n") : new Response(null, { status: 409 });
        if (gets === 1) return sse("id: 5-0\ndata:\n\n");
        throw new Error("down");
      },
      {
        openGetStream: true,
        reconnect: { maxRetries: 2 },
        onError: (e) => {
          errors.push(e);
          done.resolve();
        },
      },
    );
    const { ep } = connect(t);
    await ep.open();
    await done.promise;
    if (mode === "throw") assert.match(errors[0], /GET stream failed: no route/);
    if (mode === "500") assert.match(errors[0], /GET stream refused: HTTP 500/);
    if (mode === "retries") assert.match(errors[0], /gave up on the GET stream after 2 attempts/);
    if (mode === "409") assert.match(errors[0], /refused to reopen the GET stream \(HTTP 409\)/);
    t.close();
  }
});

test("client edges: an SSE event over the size limit is dropped and reported", async () => {
  const { handler } = makeHandler();
  const errors: string[] = [];
  const t = wrappedTransport(
    handler,
    async (req, next, body) => {
      if (!body.includes("tools/list")) return next();
      const r = await next();
      const text = await r.text();
      // An oversized event, then text that looks like a response but is not JSON (the kernel answers it), then the real stream.
      return sse(`id: 9-1\ndata: ${"x".repeat(4 * 1024 * 1024 + 2048)}\n\nid: 9-2\ndata: {"result": oops\n\n` + text);
    },
    { onError: (e) => errors.push(e) },
  );
  const { ep } = connect(t);
  await ep.open();
  const r = await ep.request("tools/list");
  assert.ok(Array.isArray(r.tools));
  assert.equal(errors.length, 1);
  assert.match(errors[0], /dropped an SSE event/);
  t.close();
});

test("client edges (README Driver: an error an application callback throws is rethrown on a fresh microtask and costs the connection nothing): a transport onError that throws on a dropped SSE event's report does not break the POST stream: the request is still answered (the throw read as a broken stream, which could not be resumed, and the request failed)", { timeout: 10_000 }, async () => {
  const { handler } = makeHandler();
  const t = wrappedTransport(
    handler,
    async (req, next, body) => {
      if (!body.includes("tools/list")) return next();
      const text = await (await next()).text();
      return sse(`id: 9-1\ndata: ${"x".repeat(4 * 1024 * 1024 + 2048)}\n\n` + text);
    },
    {
      onError: (e) => {
        if (/dropped an SSE event/.test(e)) throw new Error("logger broke");
      },
    },
  );
  const { thrown, restore } = collectUncaught();
  try {
    const { ep } = connect(t);
    await ep.open();
    const r = await ep.request("tools/list");
    assert.ok(Array.isArray(r.tools));
    await until(() => thrown.length > 0, 100);
  } finally {
    t.close();
    restore();
  }
  assert.deepEqual(thrown.map((e) => (e as Error).message), ["logger broke"], "rethrown once, not swallowed");
});

test("client edges: without an injected sleep, reconnects wait on a real timer (the server's retry of 0 ms here)", async () => {
  const { handler, tools } = makeHandler(new Tools(), { retryMs: 0 });
  let cut = false;
  const t = httpClientTransport(URL_, {
    openGetStream: false,
    fetch: async (url, init) => {
      const req = new Request(url, init);
      const r = await handler(req);
      if (cut || !String(init.body).includes('"wait"')) return r;
      cut = true;
      // Keep the priming event (id and retry: 0), then drop the connection.
      const reader = r.body!.getReader();
      const first = await reader.read();
      await reader.cancel();
      return sse(new TextDecoder().decode(first.value));
    },
  });
  const { ep } = connect(t);
  await ep.open();
  const p = ep.request("tools/call", { name: "wait", arguments: {} });
  await tools.waiting();
  tools.release();
  const r = await p;
  assert.equal((r.content as { text: string }[])[0].text, "waited");
  t.close();
});

test("client edges: maxMessageBytes sets the client's bound on what it reads, as the session's does on what it takes (a 5 MiB JSON answer: refused at the default 4 MiB, delivered at 8 MiB)", async () => {
  const { handler } = makeHandler();
  const big = "x".repeat(5 << 20);
  for (const limit of [undefined, 8 << 20]) {
    const t = wrappedTransport(
      handler,
      async (_req, next, body) => {
        if (!body.includes("tools/list")) return next();
        return Response.json({ jsonrpc: "2.0", id: JSON.parse(body).id, result: { tools: [{ name: "big", description: big, inputSchema: { type: "object" } }] } });
      },
      limit === undefined ? {} : { maxMessageBytes: limit },
    );
    const { ep } = connect(t, "2025-11-25", 8 << 20);
    await ep.open();
    if (limit === undefined) await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && /exceeds 4194304 bytes/.test(e.message));
    else assert.equal(((await ep.request("tools/list")) as { tools: { description: string }[] }).tools[0].description.length, 5 << 20);
    t.close();
  }
});

test("client edges (2025-11-25 basic/transports, cancellation): a request the client cancelled is no longer resumed: its POST stream gets no more Last-Event-ID GETs", async () => {
  const { handler } = makeHandler();
  let resumes = 0;
  let cancelledPosted = false;
  const sleeps: Array<() => void> = [];
  const t = wrappedTransport(
    handler,
    async (req, next, body) => {
      if (req.method === "GET" && req.headers.has("last-event-id")) return resumes++, primedOnly();
      if (body.includes('"tools/call"')) return primedOnly();
      if (body.includes('"notifications/cancelled"')) cancelledPosted = true;
      return next();
    },
    { sleep: () => new Promise<void>((resolve) => sleeps.push(resolve)) },
  );
  const { ep } = connect(t);
  await ep.open();
  const ac = new AbortController();
  const call = ep.request("tools/call", { name: "echo", arguments: {} }, { signal: ac.signal });
  await until(() => sleeps.length > 0);
  ac.abort("user");
  await assert.rejects(call, (e: McpError) => e.code === ErrorCode.RequestCancelled);
  await until(() => cancelledPosted);
  sleeps.shift()!();
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  assert.equal(resumes, 0);
  assert.equal(sleeps.length, 0, "no further reconnection wait");
  t.close();
});

test("client edges (2025-11-25 basic/utilities/cancellation: the sender SHOULD ignore a response that arrives afterward): a cancelled or timed-out request's POST stream is closed, its JSON body (a 200's or an error status's) still arriving cancelled, or its POST aborted while it waits for headers, before notifications/cancelled is POSTed (a browser's few connections per host are not held; found by review: a JSON body was read on until the server ended it or the transport closed); the notification is still sent and the stream not resumed", async () => {
  const { handler } = makeHandler();
  for (const how of ["signal", "timeout"] as const) {
    for (const stage of ["reading", "headers", "json", "error json"] as const) {
      const order: string[] = [];
      let gets = 0;
      const t = wrappedTransport(handler, async (req, next, body) => {
        if (req.method === "GET") return gets++, next();
        if (body.includes('"notifications/cancelled"')) order.push("cancel posted");
        if (!body.includes('"tools/call"')) return next();
        // A tool that runs on: its stream is primed and silent, or its headers have not come.
        if (stage === "reading") return endless("id: 1-0\ndata:\n\n", () => order.push("stream closed"));
        if (stage === "json" || stage === "error json") {
          const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode("{")), cancel: () => void order.push("body cancelled") });
          return new Response(body, { status: stage === "json" ? 200 : 500, headers: { "content-type": "application/json" } });
        }
        return new Promise<Response>((_, reject) => req.signal.addEventListener("abort", () => (order.push("POST aborted"), reject(req.signal.reason))));
      });
      const clock = new ManualClock();
      const ep = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: ["2025-11-25"] }, { send: (m) => t.send(encode(m)) }, clock);
      t.onMessage((x) => ep.receive(x));
      await ep.open();
      const ac = new AbortController();
      const call = ep.request("tools/call", { name: "echo", arguments: {} }, how === "signal" ? { signal: ac.signal } : { timeoutMs: 1000 });
      // Wait until the POST is out (and, for a stream, its priming event read).
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      if (how === "signal") ac.abort("user");
      else clock.advance(1000);
      await assert.rejects(call, (e: McpError) => e.code === (how === "signal" ? ErrorCode.RequestCancelled : ErrorCode.RequestTimeout));
      await until(() => order.includes("cancel posted"));
      assert.deepEqual(order, [stage === "reading" ? "stream closed" : stage === "headers" ? "POST aborted" : "body cancelled", "cancel posted"], `${how}, ${stage}`);
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      assert.equal(gets, 0, "not resumed");
      t.close();
    }
  }
});

test("client edges (2025-11-25 basic/transports, Sending Messages item 4: a notification is answered 202; Listening for Messages): a server that answers notifications/initialized with an SSE stream it keeps open does not hold back the standalone GET, nor the session's first request waiting on it (found by review: the GET waited for that stream to end, the request for GET_WAIT_MS)", { timeout: 10_000 }, async () => {
  const { handler } = makeHandler();
  let gets = 0;
  let open = true;
  const t = wrappedTransport(
    handler,
    async (req, next, body) => {
      if (req.method === "GET") gets++;
      if (body.includes('"notifications/initialized"')) {
        await next();
        return endless(": open\n\n", () => (open = false));
      }
      return next();
    },
    // GET_WAIT_MS never passes: only the GET's answer lets the first request go.
    { openGetStream: true, sleep: (_ms, signal) => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve())) },
  );
  const { ep } = connect(t);
  await ep.open();
  await until(() => gets === 1, 200);
  assert.deepEqual(await ep.request("tools/list"), { tools: [{ name: "echo", inputSchema: { type: "object" } }] });
  assert.equal(open, false, "the notification's stream is let go (see the next test)");
  t.close();
});

test("client edges (2025-11-25 basic/transports, Sending Messages item 4: for a POST of a JSON-RPC response or notification the server MUST return 202 Accepted with no body): a server that answers such a POST with an SSE stream it keeps open does not keep the connection until close(): nothing on it is the client's to wait for, and the body is let go at once (found by review: each notification or response held a connection until close())", { timeout: 10_000 }, async () => {
  const { handler } = makeHandler();
  const cancelled: string[] = [];
  const t = wrappedTransport(handler, async (_req, next, body) => {
    const m = JSON.parse(body) as { id?: unknown; method?: string };
    // A notification, or a response (no method): the server processes it, then holds a stream open.
    if (m.method?.startsWith("notifications/") === true || m.method === undefined) {
      await next();
      return endless(": open\n\n", () => cancelled.push(m.method ?? "response"));
    }
    return next();
  });
  const { ep } = connect(t);
  await ep.open();
  t.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }));
  t.send(JSON.stringify({ jsonrpc: "2.0", id: "s1", result: {} }));
  await until(() => cancelled.length === 3, 200);
  assert.deepEqual(cancelled.sort(), ["notifications/initialized", "notifications/roots/list_changed", "response"]);
  // The session serves on.
  assert.deepEqual(await ep.request("tools/list"), { tools: [{ name: "echo", inputSchema: { type: "object" } }] });
  t.close();
});

test("client edges (basic/utilities/cancellation, related requests): a POST stream the server asked the client something on stays open after the call is cancelled (the server cancels its request there), however the request is written: id after 1.5 KB of params, as SDK 1.x writes it, or in a batch", async () => {
  const { handler } = makeHandler();
  const params = { message: "x".repeat(1500), requestedSchema: { type: "object", properties: {} } };
  const forms = {
    "id last": JSON.stringify({ method: "elicitation/create", params, jsonrpc: "2.0", id: "s1" }),
    batch: JSON.stringify([{ jsonrpc: "2.0", id: "s1", method: "elicitation/create", params }]),
  };
  for (const [form, request] of Object.entries(forms)) {
    const order: string[] = [];
    const t = wrappedTransport(handler, async (_req, next, body) => {
      if (body.includes('"notifications/cancelled"')) order.push("cancel posted");
      if (!body.includes('"tools/call"')) return next();
      return endless(`id: 1-0\ndata:\n\nid: 1-1\ndata: ${request}\n\n`, () => order.push("stream closed"));
    });
    const ep = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: ["2025-11-25"] }, { send: (m) => t.send(encode(m)) });
    t.onMessage((x) => ep.receive(x));
    await ep.open();
    const ac = new AbortController();
    const call = ep.request("tools/call", { name: "echo", arguments: {} }, { signal: ac.signal });
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    ac.abort("user");
    await assert.rejects(call);
    await until(() => order.includes("cancel posted"));
    assert.deepEqual(order, ["cancel posted"], `${form}: the stream is kept for the server's cancellation`);
    t.close();
  }
});

/**
 * A transport whose first `method` POST meets 404, and whose renewal's initialize is held
 * until `renewed()`: `sent` lists the methods POSTed, `renewing()` says the renewal's
 * initialize has arrived.
 */
function heldRenewal(method: string) {
  const { handler } = makeHandler();
  const sent: string[] = [];
  let initializes = 0;
  let renewed!: () => void;
  const held = new Promise<void>((r) => (renewed = r));
  const t = wrappedTransport(handler, async (req, next, body) => {
    if (req.method === "POST") sent.push(JSON.parse(body).method ?? "response");
    if (body.includes('"initialize"') && ++initializes === 2) await held;
    if (body.includes(`"${method}"`) && initializes === 1) return new Response(null, { status: 404 });
    return next();
  });
  return { t, sent, renewing: () => initializes === 2, renewed };
}

test("client edges (basic/utilities/cancellation: a cancellation MUST only reference requests previously issued): a request cancelled while its 404 renews the session is not POSTed again in the new session, nor its notifications/cancelled (no session knows it; found by review: the notification went to the new session)", async () => {
  const { t, sent, renewing, renewed } = heldRenewal("tools/call");
  const { ep } = connect(t);
  await ep.open();
  const ac = new AbortController();
  const call = ep.request("tools/call", { name: "echo", arguments: { text: "x" } }, { signal: ac.signal });
  await until(renewing);
  ac.abort("user");
  await assert.rejects(call);
  renewed();
  await until(() => sent.filter((m) => m === "notifications/initialized").length === 2);
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  assert.equal(sent.filter((m) => m === "tools/call").length, 1, `not sent again: ${sent.join(", ")}`);
  assert.ok(!sent.includes("notifications/cancelled"), sent.join(", "));
  t.close();
});

test("client edges (basic/utilities/cancellation: a cancellation MUST only reference requests previously issued): a request cancelled while it waits on the client's gate (a session renewal) is never POSTed, nor its notifications/cancelled", async () => {
  const { t, sent, renewing, renewed } = heldRenewal("tools/list");
  const { ep } = connect(t);
  await ep.open();
  // tools/list meets the 404: the renewal starts, and its initialize is held.
  const list = ep.request("tools/list");
  await until(renewing);
  const ac = new AbortController();
  const call = ep.request("tools/call", { name: "echo", arguments: { text: "x" } }, { signal: ac.signal });
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  ac.abort("user");
  await assert.rejects(call);
  renewed();
  await list;
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    sent.filter((m) => m === "tools/call" || m === "notifications/cancelled"),
    [],
    sent.join(", "),
  );
  t.close();
});

test("client edges (basic/utilities/cancellation: a cancellation MUST only reference requests previously issued): a session's first request cancelled while it is held for the standalone GET is never POSTed, nor its notifications/cancelled", async () => {
  const { handler } = makeHandler();
  const sent: string[] = [];
  let answerGet!: () => void;
  const getAnswered = new Promise<void>((r) => (answerGet = r));
  const t = wrappedTransport(
    handler,
    async (req, next, body) => {
      if (req.method === "POST") sent.push(JSON.parse(body).method ?? "response");
      if (req.method === "GET") {
        await getAnswered;
        return new Response(null, { status: 405 });
      }
      return next();
    },
    // The GET_WAIT_MS bound never runs out here: only the GET's answer opens the gate.
    { openGetStream: true, sleep: (_ms, signal) => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true })) },
  );
  const { ep } = connect(t);
  await ep.open();
  const ac = new AbortController();
  const call = ep.request("tools/call", { name: "echo", arguments: { text: "x" } }, { signal: ac.signal });
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  assert.equal(sent.includes("tools/call"), false, "held for the GET");
  ac.abort("user");
  await assert.rejects(call);
  answerGet();
  await ep.request("tools/list");
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    sent.filter((m) => m === "tools/call" || m === "notifications/cancelled"),
    [],
    sent.join(", "),
  );
  t.close();
});

test("client edges (2025-03-26 basic/transports: a batch's responses share its POST stream): cancelling one request of a batch leaves the stream open for the other, whose response is delivered", async () => {
  const { handler } = makeHandler();
  let closed = false;
  let resolve!: (text: string) => void;
  const rest = new Promise<string>((r) => (resolve = r));
  const t = wrappedTransport(handler, async (_req, next, body) => {
    if (!body.startsWith("[")) return next();
    const enc = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start: async (c) => {
        c.enqueue(enc.encode("id: 1-0\ndata:\n\n"));
        c.enqueue(enc.encode(await rest));
      },
      cancel: () => void (closed = true),
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  });
  const got: string[] = [];
  const { ep } = connect(t, "2025-03-26");
  t.onMessage((x) => (got.push(x), ep.receive(x)));
  await ep.open();
  t.send(JSON.stringify([{ jsonrpc: "2.0", id: "a", method: "tools/list" }, { jsonrpc: "2.0", id: "b", method: "tools/list" }]));
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  t.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "a" } }));
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  assert.equal(closed, false, "the stream still owes the response to b");
  resolve(`id: 1-1\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: "b", result: { tools: [] } })}\n\n`);
  await until(() => got.some((x) => x.includes('"id":"b"')));
  await until(() => closed);
  t.close();
});

test("client edges (2025-03-26 basic/transports, Sending Messages item 6: the SSE stream's responses MAY be batched): one event holding an array answers the request, so the stream is not resumed", async () => {
  const { handler } = makeHandler();
  const resumes: string[] = [];
  const t = wrappedTransport(handler, async (req, next, body) => {
    if (req.method === "GET") return resumes.push(req.headers.get("last-event-id") ?? ""), new Response(null, { status: 405 });
    if (!body.includes('"tools/list"')) return next();
    const batch = [{ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } }, { jsonrpc: "2.0", id: JSON.parse(body).id, result: { tools: [] } }];
    return sse(`id: e1\ndata: ${JSON.stringify(batch)}\n\n`);
  });
  const { ep } = connect(t, "2025-03-26");
  try {
    await ep.open();
    assert.deepEqual(await ep.request("tools/list"), { tools: [] });
    // The stream has ended; a request it left unanswered would be resumed within a few turns.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    assert.deepEqual(resumes, []);
  } finally {
    t.close();
  }
});

test("client edges (draft basic/versioning, dual-era client → legacy server): after the modern probe falls back, initialize carries no MCP-Protocol-Version of the probe", async () => {
  const { handler } = makeHandler();
  const initHeaders: (string | null)[] = [];
  const t = wrappedTransport(handler, async (req, next, body) => {
    // A server whose discover answer offers only a legacy version: it falls back.
    if (body.includes('"server/discover"')) return Response.json({ jsonrpc: "2.0", id: JSON.parse(body).id, result: { supportedVersions: ["2025-11-25"], capabilities: {}, serverInfo: { name: "s", version: "1" } } });
    if (body.includes('"initialize"')) initHeaders.push(req.headers.get("mcp-protocol-version"));
    return next();
  });
  const ep = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: ["2026-07-28", "2025-11-25"] }, { send: (m) => t.send(encode(m)) });
  t.onMessage((x) => ep.receive(x));
  const ready = await ep.open();
  assert.equal(ready.version, "2025-11-25");
  assert.deepEqual(initHeaders, [null]);
  assert.equal(t.protocolVersion, "2025-11-25");
  t.close();
});

test("client edges (2025-11-25 basic/transports, Sending Messages: a request MUST get an event stream or a JSON body): a 202, an array answering one request, or a response with both result and error fail the request at once, not at its timeout", async () => {
  const { handler } = makeHandler();
  let mode = "";
  const t = wrappedTransport(handler, async (_req, next, body) => {
    if (!body.includes('"tools/list"')) return next();
    const id = JSON.parse(body).id;
    if (mode === "202") return new Response(null, { status: 202 });
    if (mode === "array") return Response.json([{ jsonrpc: "2.0", id, result: { tools: [] } }]);
    return Response.json({ jsonrpc: "2.0", id, result: { tools: [] }, error: { code: 1, message: "both" } });
  });
  const { ep } = connect(t);
  await ep.open();
  // No timeout could fire here (the endpoint's clock is the system clock, 60 s): the transport answers.
  mode = "202";
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && !/connection closed/.test(e.message) && /HTTP 202/.test(e.message));
  // basic/index (2025-06-18 on): no batches; the kernel fails the request the array's response names.
  mode = "array";
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && /malformed response from the peer: batches are not supported/.test(e.message));
  // basic/index: a response has exactly one of result and error; the kernel fails the request it names.
  mode = "both";
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && /malformed response from the peer: a response must not have both/.test(e.message));
  t.close();
});

test("client edges: basic/transports (after the response the server SHOULD end the SSE stream): a POST stream left open after its answer is let go with a reason, as is a JSON body over the limit (a fetch given none builds its own: undici an AbortError DOMException per body, the largest single cost of an SSE answer)", async () => {
  const { handler } = makeHandler();
  const reasons: unknown[] = [];
  /** `text`, on a body that stays open after it. */
  const heldOpen = (text: string, type: string) =>
    new Response(new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode(text)), cancel: (reason) => void reasons.push(reason) }), { headers: { "content-type": type } });
  const t = wrappedTransport(handler, async (_req, next, body) => {
    const res = await next();
    if (body.includes('"tools/list"')) return heldOpen(await res.text(), "text/event-stream");
    if (body.includes('"ping"')) return heldOpen(" ".repeat(2048), "application/json");
    return res;
  }, { maxMessageBytes: 1024 });
  const { ep } = connect(t);
  await ep.open();
  await ep.request("tools/list");
  await assert.rejects(ep.request("ping"), (e: McpError) => e.code === ErrorCode.InternalError && /exceeds 1024 bytes/.test(e.message));
  assert.equal(reasons.length, 2);
  for (const r of reasons) assert.ok(r instanceof Error, `cancelled with a reason: ${String(r)}`);
  t.close();
});

test("client edges, basic/index (Result responses MUST include a result field): an answer that lost its result ({jsonrpc, id} alone) on a POST's stream fails the request at once and answers the stream as any response does: a stream the server keeps open is let go, one that ends is not resumed for it (found by review)", { timeout: 10_000 }, async () => {
  const { handler } = makeHandler();
  let cancelled = 0;
  let resumed = 0;
  let mode: "open" | "ended" = "open";
  const t = wrappedTransport(handler, async (req, next, body) => {
    if (req.method === "GET" && req.headers.get("last-event-id") !== null) resumed++;
    if (!body.includes("tools/list")) return next();
    const text = `id: 1-0\ndata:\n\nid: 1-1\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(body).id })}\n\n`;
    return mode === "open" ? endless(text, () => cancelled++) : sse(text);
  });
  const { ep } = connect(t);
  await ep.open();
  const lost = (e: McpError) => e.code === ErrorCode.InternalError && /malformed response from the peer: a message needs a method, a result or an error/.test(e.message);
  await assert.rejects(ep.request("tools/list"), lost);
  await until(() => cancelled === 1, 200);
  mode = "ended";
  await assert.rejects(ep.request("tools/list"), lost);
  for (let turn = 0; turn < 50; turn++) await new Promise((r) => setImmediate(r));
  assert.equal(resumed, 0, "an answered request's stream is not resumed");
  t.close();
});

/** `res` as a browser shows it, or as a fetch that followed a redirect itself does: own values shadow the prototype's getters. */
function disguised<T extends Response>(res: T, fields: Partial<Record<"type" | "status" | "redirected" | "url", unknown>>): T {
  for (const [k, v] of Object.entries(fields)) Object.defineProperty(res, k, { value: v });
  return res;
}

test("client edges (2025-11-25 basic/transports, Session Management: the client MUST handle the session ID in a secure manner), in a browser, whose redirect: 'manual' hides the target (an opaque redirect): a page of another origin than the server's fails the request with -32603 and sends nothing more (the redirect may lead anywhere); a page of the server's origin sends it again with mode: 'same-origin' (the browser then follows within the origin only) and is answered; a custom fetch that followed a redirect to another origin itself has that answer refused", async () => {
  const { handler } = makeHandler();
  let page: string | undefined;
  let mode: "opaque" | "followed-away" | "plain" = "plain";
  const calls: RequestInit[] = [];
  const before = Object.getOwnPropertyDescriptor(globalThis, "location");
  Object.defineProperty(globalThis, "location", { configurable: true, get: () => (page === undefined ? undefined : { origin: page, href: page + "/app" }) });
  try {
    const t = httpClientTransport(URL_, {
      openGetStream: false,
      sleep: async () => {},
      fetch: async (url, init) => {
        const forward = () => handler(new Request(url, { ...init, redirect: "follow" }));
        if (mode === "plain" || !(typeof init.body === "string" && init.body.includes("tools/list"))) return forward();
        calls.push(init);
        if (mode === "followed-away") return disguised(await forward(), { redirected: true, url: "http://elsewhere.test/mcp" });
        // The browser: a manual redirect is opaque; followed, it lands (here) on the server.
        return init.redirect === "manual" ? disguised(new Response(null), { type: "opaqueredirect", status: 0 }) : forward();
      },
    });
    const { ep } = connect(t);
    await ep.open();
    mode = "opaque";
    page = "http://app.test";
    await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && /redirect whose target this runtime hides/.test(e.message));
    assert.deepEqual(calls.map((c) => [c.redirect, c.mode]), [["manual", undefined]], "nothing sent after the opaque redirect");
    calls.length = 0;
    page = "http://127.0.0.1";
    assert.ok(Array.isArray(((await ep.request("tools/list")) as { tools: unknown[] }).tools));
    assert.deepEqual(calls.map((c) => [c.redirect, c.mode]), [["manual", undefined], ["follow", "same-origin"]]);
    mode = "followed-away";
    page = undefined;
    await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && /redirected to another origin, http:\/\/elsewhere\.test/.test(e.message));
    mode = "plain";
    assert.ok(Array.isArray(((await ep.request("tools/list")) as { tools: unknown[] }).tools), "the connection serves on");
    t.close();
  } finally {
    if (before) Object.defineProperty(globalThis, "location", before);
    else delete (globalThis as { location?: unknown }).location;
  }
});

test("client edges (Streamable HTTP client: redirects followed within the server's origin): a relative URL outside a browser names no origin to keep to, so a custom fetch that resolves it is asked to follow no redirect (redirect: 'error')", async () => {
  const seen: (RequestRedirect | undefined)[] = [];
  const guarded = sameOriginRedirects(async (_url, init) => {
    seen.push(init.redirect);
    return new Response("{}");
  });
  await guarded("/mcp", { method: "POST", body: "{}" });
  await guarded(URL_, { method: "POST", body: "{}" });
  assert.deepEqual(seen, ["error", "manual"]);
});

test("client edges (Streamable HTTP client: redirects followed within the server's origin): an http URL's redirect to https on the same host (a server moved to TLS) is followed, and its chain stays within the https origin; to another host, or from https to http, it is not", async () => {
  const sent: string[] = [];
  const guarded = sameOriginRedirects(async (url) => {
    sent.push(url);
    const to: Record<string, string> = {
      "http://mcp.test/mcp": "https://mcp.test/mcp",
      "https://mcp.test/mcp": "/v2/mcp",
      "http://mcp.test/away": "https://elsewhere.test/mcp",
      "https://mcp.test/down": "http://mcp.test/mcp",
      "https://mcp.test/v2/back": "http://mcp.test/mcp",
    };
    return to[url] !== undefined ? new Response(null, { status: 308, headers: { location: to[url] } }) : new Response("{}");
  });
  await guarded("http://mcp.test/mcp", { method: "POST", body: "{}" });
  assert.deepEqual(sent, ["http://mcp.test/mcp", "https://mcp.test/mcp", "https://mcp.test/v2/mcp"]);
  for (const url of ["http://mcp.test/away", "https://mcp.test/down"]) {
    sent.length = 0;
    await assert.rejects(guarded(url, { method: "POST", body: "{}" }), /to another origin/);
    assert.deepEqual(sent, [url], "nothing sent past the refused redirect");
  }
});

// Found by review: the redirect guard parsed the server's URL on every request (each POST,
// GET and DELETE of the transport), where the URL is the same each time.
test("client edges (Streamable HTTP client: redirects followed within the server's origin): the guard parses the URL a transport fetches once, not per request, and again when the URL or the page a relative one is resolved against changes", async () => {
  const Parsed = globalThis.URL;
  let parsed = 0;
  const counting = class extends Parsed {
    constructor(url: string | URL, base?: string | URL) {
      super(url, base);
      parsed++;
    }
  };
  const before = Object.getOwnPropertyDescriptor(globalThis, "location");
  let page: string | undefined;
  Object.defineProperty(globalThis, "location", { configurable: true, get: () => (page === undefined ? undefined : { origin: new Parsed(page).origin, href: page }) });
  const sent: string[] = [];
  const guarded = sameOriginRedirects(async (url) => {
    sent.push(url);
    return url.endsWith("/old") ? new Response(null, { status: 307, headers: { location: "/mcp" } }) : new Response("{}");
  });
  globalThis.URL = counting;
  try {
    for (let i = 0; i < 5; i++) await guarded(URL_, { method: "POST", body: "{}" });
    assert.equal(parsed, 1, "one parse for five requests to the same URL");
    await guarded("http://127.0.0.1/sse", { method: "GET" });
    await guarded("http://127.0.0.1/old", { method: "POST", body: "{}" });
    assert.equal(parsed, 4, "another URL is parsed, and so is a redirect's Location");
    // A relative URL in a browser: resolved against the page, again when the page moves.
    page = "http://a.test/app";
    await guarded("/mcp", { method: "POST", body: "{}" });
    await guarded("/mcp", { method: "POST", body: "{}" });
    page = "http://b.test/app";
    await guarded("/mcp", { method: "POST", body: "{}" });
    assert.equal(parsed, 6);
    assert.deepEqual(sent.slice(-3), ["/mcp", "/mcp", "/mcp"]);
  } finally {
    globalThis.URL = Parsed;
    if (before) Object.defineProperty(globalThis, "location", before);
    else delete (globalThis as { location?: unknown }).location;
  }
});
