// Faults on a modern (2026-07-28) Streamable HTTP request whose response stream breaks
// before its final response. Spec: draft basic/transports/streamable-http ("Resumable
// SSE streams via Last-Event-ID are not supported"; "Cancellation": closing the stream
// cancels the request), draft basic/patterns ("Stream state is scoped to the request: if
// the underlying channel is lost, the client re-issues the request"), draft basic/index
// (a request id "MUST NOT match the ID of any other request the sender has issued"),
// draft basic/patterns/progress (progress "MUST increase with each notification"), draft
// basic/patterns/subscriptions (a dropped listen stream "MAY" trigger a reconnect: the
// owner of the subscription decides). The server is the real fetch-style handler; the
// injected fetch cuts its response body mid-stream; backoff waits are injected.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { McpError } from "../../src/driver/endpoint.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import type { Transport } from "../../src/api/transport.js";
import { createHttpHandler, type HttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport, REISSUE_ID_PREFIX, type HttpClientOptions } from "../../src/transports/http-client.js";
import { MAX_LEARNED_TOOLS, screenTools } from "../../src/transports/http/client-modern.js";
import { deferred, Tools, URL_ } from "../http/helpers.js";
import { modernRequest, MV } from "../http/modern-helpers.js";

const info = { name: "reissue-client", version: "1.0.0" };

/**
 * `res` with its body cut: the chunks up to and including the one where `marker` has
 * been seen are passed on, then the stream errors like a dropped connection, and the
 * server's side of the body is cancelled (as a real disconnect would).
 */
function cutAfter(res: Response, marker: string): Response {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  let cut = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      // Erroring right after an enqueue would discard the queued chunk: cut on the next read.
      if (cut) {
        void reader.cancel("connection lost").catch(() => {});
        return c.error(new TypeError("network connection lost"));
      }
      const { done, value } = await reader.read();
      if (done) return c.close();
      c.enqueue(value);
      seen += decoder.decode(value, { stream: true });
      if (seen.includes(marker)) cut = true;
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: res.status, headers: res.headers });
}

interface Post {
  body: any;
  headers: Headers;
}

/** A fetch over `handler` recording POSTs; `shape(post, n, res)` may replace the n-th (0-based) answer to a `method` POST. */
function faultyFetch(handler: HttpHandler, method: string, shape: (res: Response, n: number) => Response | Promise<Response>, posts: Post[], onPost?: (n: number) => void) {
  let n = 0;
  return async (url: string, init: RequestInit): Promise<Response> => {
    const req = new Request(url, init);
    if (req.method !== "POST") return handler(req);
    const body = JSON.parse(init.body as string);
    posts.push({ body, headers: req.headers });
    if (body.method !== method) return handler(req);
    const k = n++;
    onPost?.(k);
    return shape(await handler(req), k);
  };
}

/** Records what the transport hands the kernel, on the way through. */
function tap(t: Transport, seen: any[]): Transport {
  return {
    send: (text) => t.send(text),
    onMessage: (fn) => t.onMessage((text) => (seen.push(JSON.parse(text)), fn(text))),
    onClose: (fn) => t.onClose(fn),
    close: () => t.close(),
  };
}

/** An injected backoff that waits for nothing and records the delays asked for. */
function recordingSleep(delays: number[]): HttpClientOptions["sleep"] {
  return async (ms) => void delays.push(ms);
}

/**
 * A dual-era handler whose `count` tool reports progress 1, waits for the test, reports 2
 * and answers. `tools/list` shows it with `annotations` (default: idempotent, so a
 * client that listed it may re-issue it) or, when null, does not show it.
 */
function progressHandler(gates: Tools, annotations: JsonObject | null = { idempotentHint: true }): HttpHandler {
  return createHttpHandler({
    sessionIdleMs: 0,
    createSession: () => ({
      options: { role: "server", info: { name: "progress", version: "1" }, versions: [MV], capabilities: { tools: {} } },
      onRequest: async (method: string, _params: JsonObject | undefined, ctx) => {
        if (method === "tools/list") return { tools: annotations === null ? [] : [{ name: "count", inputSchema: { type: "object" }, annotations }] };
        if (method !== "tools/call") throw new Error("unexpected " + method);
        ctx.progress(1, 2);
        await gates.gate().promise;
        ctx.progress(2, 2);
        return { content: [{ type: "text", text: "counted" }] };
      },
    }),
  });
}

test("streamable-http (draft) + basic/patterns: a modern response stream cut before its response is re-issued under a NEW id; the call completes once", async () => {
  const tools = new Tools();
  const posts: Post[] = [];
  const secondPost = deferred();
  const fetch = faultyFetch(progressHandler(tools), "tools/call", (res, n) => (n === 0 ? cutAfter(res, "notifications/progress") : res), posts, (n) => n === 1 && secondPost.resolve());
  const delays: number[] = [];
  const errors: string[] = [];
  const seen: any[] = [];
  const t = httpClientTransport(URL_, { fetch, sleep: recordingSleep(delays), onError: (m) => errors.push(m), reconnect: { initialDelayMs: 7 } });
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(tap(t, seen));
  // The client learns that count is idempotent: only such a call is re-issued.
  await client.listTools();

  const call = client.callTool("count", {}, { onProgress: () => {} });
  await secondPost.promise;
  // The first attempt's gate (its request was cancelled by the cut), then the re-issue's.
  tools.release();
  await tools.waiting();
  tools.release();
  const result = await call;
  assert.deepEqual(result.content, [{ type: "text", text: "counted" }]);

  const calls = posts.filter((p) => p.body.method === "tools/call");
  assert.equal(calls.length, 2, "one re-issue");
  const [first, second] = calls.map((p) => p.body);
  assert.equal(typeof first.id, "number", "the kernel's id");
  assert.notEqual(second.id, first.id, "the re-issue MUST NOT reuse the id");
  assert.ok(String(second.id).startsWith(REISSUE_ID_PREFIX));
  assert.deepEqual({ ...second, id: first.id }, first, "the same request otherwise");
  assert.equal(calls[1].headers.get("mcp-method"), "tools/call");
  assert.equal(calls[1].headers.get("mcp-name"), "count");
  assert.equal(calls[1].headers.get("last-event-id"), null, "modern streams are not resumed");
  assert.deepEqual(delays, [7], "one backoff wait, on the injected sleep");
  assert.ok(errors.some((e) => e.startsWith("re-issuing tools/call")), errors.join("\n"));

  const responses = seen.filter((m) => !("method" in m));
  assert.deepEqual(
    responses.filter((m) => m.id === first.id).map((m) => "result" in m),
    [true],
    "exactly one response for the kernel's id, and it is the result",
  );
  assert.ok(!seen.some((m) => m.id === second.id), "the re-issue's id never reaches the kernel");
  client.close();
});

test("basic/patterns/progress + streamable-http (draft): progress the lost attempt delivered is not delivered again by the re-issue; new progress is", async () => {
  const gates = new Tools();
  const posts: Post[] = [];
  const secondPost = deferred();
  const fetch = faultyFetch(progressHandler(gates), "tools/call", (res, n) => (n === 0 ? cutAfter(res, "notifications/progress") : res), posts, (n) => n === 1 && secondPost.resolve());
  const client = new McpClient(info, { session: { versions: [MV] } });
  const seen: any[] = [];
  await client.connect(tap(httpClientTransport(URL_, { fetch, sleep: recordingSleep([]) }), seen));
  await client.listTools();
  const progress: number[] = [];
  const call = client.callTool("count", {}, { onProgress: (p) => progress.push(p.progress) });
  await secondPost.promise;
  gates.release();
  await gates.waiting();
  gates.release();
  const result = await call;
  assert.deepEqual(result.content, [{ type: "text", text: "counted" }]);
  assert.equal(posts.filter((p) => p.body.method === "tools/call").length, 2);
  const delivered = seen.filter((m) => m.method === "notifications/progress").map((m) => m.params.progress);
  assert.deepEqual(delivered, [1, 2], "the transport hands over progress 1 once (from the lost attempt), then 2 from the re-issue");
  assert.deepEqual(progress, [1, 2]);
  client.close();
});

test("streamable-http (draft): re-issues are bounded (maxReissues) with growing backoff; then the caller gets one -32000 error", async () => {
  const tools = new Tools();
  const posts: Post[] = [];
  // Every attempt is cut after its first progress notification.
  const fetch = faultyFetch(progressHandler(tools), "tools/call", (res) => cutAfter(res, "notifications/progress"), posts);
  const delays: number[] = [];
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch, sleep: recordingSleep(delays), reconnect: { initialDelayMs: 10, factor: 2, maxReissues: 3 } }));
  await client.listTools();
  const err = await client.callTool("count", {}, { onProgress: () => {} }).then(
    () => assert.fail("the call cannot succeed"),
    (e: unknown) => e,
  );
  assert.ok(err instanceof McpError);
  assert.equal(err.code, ErrorCode.ConnectionClosed);
  assert.match(err.message, /response stream ended before the response/);
  const ids = posts.filter((p) => p.body.method === "tools/call").map((p) => p.body.id);
  assert.equal(ids.length, 4, "the request, then 3 re-issues");
  assert.equal(new Set(ids).size, 4, "every attempt under its own id");
  assert.deepEqual(delays, [10, 20, 40]);
  for (let i = 0; i < 4; i++) tools.release();
  client.close();
});

test("streamable-http (draft): a network error before any response is re-issued too; maxReissues 0 turns re-issuing off", async () => {
  for (const maxReissues of [1, 0]) {
    const bodies: any[] = [];
    const seen: string[] = [];
    let n = 0;
    const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
      const body = JSON.parse(init.body as string);
      bodies.push(body);
      if (n++ === 0) throw new TypeError("fetch failed: ECONNRESET");
      return new Response(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { resultType: "complete" } }), { headers: { "content-type": "application/json" } });
    };
    const t = httpClientTransport(URL_, { fetch, sleep: recordingSleep([]), reconnect: { maxReissues } });
    const done = deferred();
    t.onMessage((text) => (seen.push(text), done.resolve()));
    t.send(JSON.stringify(modernRequest(5, "tools/list")));
    await done.promise;
    const reply = JSON.parse(seen[0]);
    assert.equal(reply.id, 5, "answered under the kernel's id");
    if (maxReissues === 1) {
      assert.deepEqual(bodies.map((b) => typeof b.id), ["number", "string"]);
      assert.deepEqual(reply.result, { resultType: "complete" });
    } else {
      assert.equal(bodies.length, 1);
      assert.equal(reply.error.code, ErrorCode.ConnectionClosed);
      assert.match(reply.error.message, /ECONNRESET/);
    }
    assert.equal(seen.length, 1, "exactly one answer");
    t.close();
  }
});

test("streamable-http (draft) + basic/patterns: a re-issued request's answer goes back under the kernel's id even when its content is the text \"notifications/progress\" (a result is not a progress notification)", async () => {
  const bodies: any[] = [];
  const seen: any[] = [];
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const body = JSON.parse(init.body as string);
    bodies.push(body);
    // The first attempt's stream breaks before its response; the re-issue is answered.
    if (bodies.length === 1) return new Response(": working\n\n", { headers: { "content-type": "text/event-stream" } });
    const result = { resultType: "complete", contents: [{ uri: "file:///x", text: "notifications/progress" }] };
    return new Response(JSON.stringify({ jsonrpc: "2.0", id: body.id, result }), { headers: { "content-type": "application/json" } });
  };
  const t = httpClientTransport(URL_, { fetch, sleep: recordingSleep([]) });
  const done = deferred();
  t.onMessage((text) => (seen.push(JSON.parse(text)), done.resolve()));
  t.send(JSON.stringify(modernRequest(7, "resources/read", { uri: "file:///x" })));
  await done.promise;
  assert.deepEqual(
    bodies.map((b) => typeof b.id),
    ["number", "string"],
    "re-issued under a new id",
  );
  assert.equal(seen.length, 1, "exactly one answer");
  assert.equal(seen[0].id, 7, "under the kernel's id, not the re-issue's");
  assert.equal(seen[0].result.contents[0].text, "notifications/progress");
  t.close();
});

test("basic/patterns/subscriptions: a broken subscriptions/listen stream is not re-issued by the transport; its owner gets -32000 and decides", async () => {
  const bodies: any[] = [];
  const seen: any[] = [];
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    bodies.push(JSON.parse(init.body as string));
    const ack = `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { _meta: { "io.modelcontextprotocol/subscriptionId": 9 } } })}\n\n`;
    const res = new Response(new TextEncoder().encode(ack), { headers: { "content-type": "text/event-stream" } });
    return cutAfter(res, "acknowledged");
  };
  const t = httpClientTransport(URL_, { fetch, sleep: recordingSleep([]) });
  const done = deferred();
  t.onMessage((text) => {
    const m = JSON.parse(text);
    seen.push(m);
    if ("id" in m) done.resolve();
  });
  t.send(JSON.stringify(modernRequest(9, "subscriptions/listen", { notifications: { toolsListChanged: true } })));
  await done.promise;
  assert.equal(bodies.length, 1, "no re-issue");
  assert.deepEqual(
    seen.map((m) => m.method ?? m.error?.code),
    ["notifications/subscriptions/acknowledged", ErrorCode.ConnectionClosed],
  );
  assert.equal(seen[1].id, 9);
  t.close();
});

test("streamable-http (draft) Cancellation: a request cancelled while its re-issue waits for the backoff is not re-issued and gets no answer", async () => {
  const tools = new Tools();
  const posts: Post[] = [];
  const waiting = deferred();
  const fetch = faultyFetch(progressHandler(tools), "tools/call", (res) => cutAfter(res, "notifications/progress"), posts);
  const seen: any[] = [];
  const t = httpClientTransport(URL_, {
    fetch,
    // The backoff waits until it is aborted, as a real timer would be by the cancellation.
    sleep: (_ms, signal) => new Promise<void>((resolve) => (waiting.resolve(), signal.addEventListener("abort", () => resolve(), { once: true }))),
  });
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(tap(t, seen));
  await client.listTools();
  const ac = new AbortController();
  const call = client.callTool("count", {}, { signal: ac.signal, onProgress: () => {} });
  await waiting.promise;
  ac.abort();
  await assert.rejects(call);
  tools.release();
  assert.equal(posts.filter((p) => p.body.method === "tools/call").length, 1, "no re-issue after the cancellation");
  assert.equal(posts.filter((p) => p.body.method === "notifications/cancelled").length, 0);
  assert.ok(!seen.some((m) => !("method" in m) && m.id === posts.find((p) => p.body.method === "tools/call")!.body.id), "no answer for the cancelled request");
  client.close();
});

test("streamable-http (draft) Cancellation: a broken stream is the request's cancellation, but the tool may have run with only its answer lost; schema ToolAnnotations: only a tool the client's tools/list showed with readOnlyHint or idempotentHint true is called again, any other tools/call fails with the -32000 error after one attempt", async () => {
  const cases: Array<[string, JsonObject | null, number]> = [
    ["readOnlyHint", { readOnlyHint: true }, 2],
    ["idempotentHint", { idempotentHint: true }, 2],
    ["no hints", {}, 1],
    ["destructive, not idempotent", { readOnlyHint: false, destructiveHint: true, idempotentHint: false }, 1],
    ["not listed", null, 1],
  ];
  for (const [name, annotations, attempts] of cases) {
    const tools = new Tools();
    const posts: Post[] = [];
    // Every attempt is cut after its first progress notification: the tool has started.
    const fetch = faultyFetch(progressHandler(tools, annotations), "tools/call", (res) => cutAfter(res, "notifications/progress"), posts);
    const client = new McpClient(info, { session: { versions: [MV] } });
    await client.connect(httpClientTransport(URL_, { fetch, sleep: recordingSleep([]), reconnect: { maxReissues: 1 } }));
    await client.listTools();
    const err = await client.callTool("count", {}, { onProgress: () => {} }).then(
      () => assert.fail("the call cannot succeed"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof McpError, name);
    assert.equal(err.code, ErrorCode.ConnectionClosed, name);
    assert.match(err.message, /response stream ended before the response/, name);
    assert.equal(posts.filter((p) => p.body.method === "tools/call").length, attempts, name);
    for (let i = 0; i < attempts; i++) tools.release();
    client.close();
  }
});

test("streamable-http (draft) Cancellation + draft subscriptions: after notifications/tools/list_changed the client no longer takes a tool's older readOnlyHint / idempotentHint as safe (the tool may have changed): a broken stream is not called again until a new tools/list says so", async () => {
  const server = new McpServer({ name: "s", version: "1" }, { session: { versions: [MV] } });
  const gates = new Tools();
  const run = async (_args: JsonObject, ctx: { progress(p: number, t?: number): void }) => {
    ctx.progress(1, 2);
    await gates.gate().promise;
    return { content: [{ type: "text" as const, text: "counted" }] };
  };
  const unregister = server.tool("count", { annotations: { idempotentHint: true } }, run);
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
  const posts: Post[] = [];
  const fetch = faultyFetch(handler, "tools/call", (res) => cutAfter(res, "notifications/progress"), posts);
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch, sleep: recordingSleep([]), reconnect: { maxReissues: 1 } }));
  await client.listTools();
  let changed = 0;
  const sub = await client.listen({ toolsListChanged: true }, () => changed++);
  unregister();
  server.tool("count", {}, run); // no longer marked idempotent
  for (let i = 0; i < 100 && changed === 0; i++) await new Promise((r) => setImmediate(r));
  assert.equal(changed > 0, true);
  const err = await client.callTool("count", {}, { onProgress: () => {} }).then(() => assert.fail("the call cannot succeed"), (e: unknown) => e);
  assert.equal((err as McpError).code, ErrorCode.ConnectionClosed);
  assert.equal(posts.filter((p) => p.body.method === "tools/call").length, 1, "not called again");
  gates.release();
  sub.close();
  client.close();
});

test("README Limits: what the HTTP transport learns per tool from modern tools/list pages (x-mcp-header declarations, repeat-safety hints) is bounded at MAX_LEARNED_TOOLS names; a server listing ever new names makes the names learned longest ago forgotten, so a new tool is always learned from its page (found by review: a full table took no new name, so a tool listed after it was never learned and its call failed -32020 even after the re-list and retry)", () => {
  const client = { paramHeaders: new Map(), repeatable: new Set<string>(), report: () => {} } as unknown as Parameters<typeof screenTools>[0];
  const tools = Array.from({ length: MAX_LEARNED_TOOLS + 50 }, (_, i) => ({
    name: `t${i}`,
    inputSchema: { type: "object", properties: { r: { type: "string", "x-mcp-header": "R" } } },
    annotations: { readOnlyHint: true },
  }));
  screenTools(client, JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools } }));
  const learned = client as unknown as { paramHeaders: Map<string, unknown>; repeatable: Set<string> };
  assert.equal(learned.paramHeaders.size, MAX_LEARNED_TOOLS);
  assert.equal(learned.repeatable.size, MAX_LEARNED_TOOLS);
  assert.ok(!learned.repeatable.has("t49") && learned.repeatable.has("t50") && learned.repeatable.has(`t${MAX_LEARNED_TOOLS + 49}`), "the newest names are kept");
  // The tools are removed and others listed (generated tools): each new one is learned, the table stays bounded.
  const page = (names: string[]) => JSON.stringify({ jsonrpc: "2.0", id: 2, result: { tools: names.map((name) => ({ name, inputSchema: { type: "object", properties: { r: { type: "string", "x-mcp-header": "R" } } } })) } });
  screenTools(client, page(["new"]));
  assert.deepEqual(learned.paramHeaders.get("new"), [{ name: "R", path: ["r"] }], "a tool listed once the table is full is learned");
  assert.equal(learned.paramHeaders.size, MAX_LEARNED_TOOLS);
  assert.ok(!learned.paramHeaders.has("t50"), "the oldest is forgotten");
  // Listed again, a name is the newest: the next new one forgets another.
  screenTools(client, page(["t51", "newer"]));
  assert.ok(learned.paramHeaders.has("t51") && learned.paramHeaders.has("newer") && !learned.paramHeaders.has("t52"));
});
