// Spec: draft basic/transports/streamable-http on the client ("Request Metadata": the
// MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* headers; "Cancellation":
// closing the stream, no notifications/cancelled; "Backward Compatibility": a modern
// request first, fallback on a 4xx without a modern error) and basic/versioning (era
// detection), with McpClient over httpClientTransport against our handler in process.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpError } from "../../src/driver/endpoint.js";
import { createHttpHandler, type HttpHandler } from "../../src/transports/http-server.js";
import { httpClientTransport, META_VERSION } from "../../src/transports/http-client.js";
import { MetaKey } from "../../src/model/meta.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { Tools, until, URL_ } from "./helpers.js";
import { ManualClock } from "../../src/driver/clock.js";
import { legacyHandler, modernHandler, MV } from "./modern-helpers.js";
import { blockText } from "../harness/content.js";

interface Seen {
  headers: Headers;
  body: any;
}

function recording(handler: HttpHandler, seen: Seen[]): (url: string, init: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const req = new Request(url, init);
    if (req.method === "POST") seen.push({ headers: req.headers, body: JSON.parse(init.body as string) });
    return handler(req);
  };
}

const info = { name: "modern-client", version: "1.0.0" };

test("streamable-http (draft) Request Metadata: a 2026-07-28 client sends MCP-Protocol-Version, Mcp-Method and Mcp-Name on every request, and no session id", async () => {
  const { handler } = modernHandler();
  const seen: Seen[] = [];
  const t = httpClientTransport(URL_, { fetch: recording(handler, seen) });
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(t);
  assert.equal(client.protocolVersion, MV);
  const r = await client.callTool("echo", { text: "hello" });
  assert.deepEqual(r.content, [{ type: "text", text: "hello" }]);
  assert.deepEqual(seen.map((s) => s.body.method), ["server/discover", "tools/call"]);
  for (const s of seen) {
    assert.equal(s.headers.get("mcp-protocol-version"), MV);
    assert.equal(s.headers.get("mcp-method"), s.body.method);
    assert.equal(s.headers.get("mcp-session-id"), null);
  }
  assert.equal(seen[0].headers.get("mcp-name"), null, "server/discover has no Mcp-Name");
  assert.equal(seen[1].headers.get("mcp-name"), "echo");
  assert.equal(t.sessionId, undefined);
  assert.equal(t.protocolVersion, MV);
  assert.equal(META_VERSION, JSON.stringify(MetaKey.protocolVersion), "the literal that marks a modern message");
  client.close();
});

test("basic/versioning + streamable-http Backward Compatibility: a dual-era client stays modern with a dual-era server and falls back to initialize with a legacy-only one", async () => {
  const dual = new McpClient(info, { session: { versions: [MV, "2025-11-25"] } });
  await dual.connect(httpClientTransport(URL_, { fetch: recording(modernHandler().handler, []) }));
  assert.equal(dual.protocolVersion, MV);
  dual.close();
  const seen: Seen[] = [];
  const fallback = new McpClient(info, { session: { versions: [MV, "2025-11-25"] } });
  const t = httpClientTransport(URL_, { fetch: recording(legacyHandler(), seen), openGetStream: false });
  await fallback.connect(t);
  assert.equal(fallback.protocolVersion, "2025-11-25");
  assert.deepEqual(seen.slice(0, 2).map((s) => s.body.method), ["server/discover", "initialize"]);
  assert.equal(seen[1].headers.get("mcp-protocol-version"), null, "the fallback initialize carries no modern header");
  assert.ok(t.sessionId !== undefined);
  const r = await fallback.callTool("echo", { text: "legacy" });
  assert.deepEqual(r.content, [{ type: "text", text: "legacy" }]);
  fallback.close();
});

test("streamable-http (draft) Cancellation: cancelling a modern request closes its stream; no notifications/cancelled is POSTed; the server's handler is aborted", async () => {
  const tools = new Tools();
  const { handler } = modernHandler(tools);
  const seen: Seen[] = [];
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch: recording(handler, seen) }));
  const ac = new AbortController();
  const call = client.callTool("wait", {}, { signal: ac.signal });
  await tools.waiting();
  const ctx = tools.contexts.at(-1)!;
  ac.abort("user cancelled");
  await assert.rejects(call, (e: unknown) => e instanceof McpError);
  assert.equal(ctx.signal.aborted, true);
  assert.ok(!seen.some((s) => s.body.method === "notifications/cancelled"));
  tools.release();
  const r = await client.callTool("echo", { text: "after" });
  assert.deepEqual(r.content, [{ type: "text", text: "after" }]);
  client.close();
});

test("streamable-http (draft) Cancellation: a request whose fetch signal carried an earlier, finished request (controllers are reused) is still cancelled alone; a cancelled request's signal is never reused", async () => {
  const tools = new Tools();
  const { handler } = modernHandler(tools);
  const signals: (AbortSignal | null | undefined)[] = [];
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch: (url, init) => (signals.push(init.signal), handler(new Request(url, init))) }));
  await client.callTool("echo", { text: "first" });
  const ac = new AbortController();
  const call = client.callTool("wait", {}, { signal: ac.signal });
  await tools.waiting();
  const used = signals.at(-1)!;
  assert.equal(used, signals.at(-2), "the finished request's signal carries the next one");
  ac.abort("user cancelled");
  await assert.rejects(call, (e: unknown) => e instanceof McpError);
  assert.equal(tools.contexts.at(-1)!.signal.aborted, true, "the server heard the cancellation");
  tools.release();
  const r = await client.callTool("echo", { text: "after" });
  assert.deepEqual(r.content, [{ type: "text", text: "after" }]);
  assert.notEqual(signals.at(-1), used, "an aborted signal is not reused");
  assert.equal(signals.at(-1)!.aborted, false);
  client.close();
});

/** A server whose tools declare x-mcp-header parameters (one tool's declaration is invalid). */
function paramServer(
  calls: JsonObject[],
  tools: Record<string, JsonObject> = {
    query: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" }, limit: { type: "integer", "x-mcp-header": "Limit" }, q: { type: "string" } } },
    broken: { type: "object", properties: { list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } } },
  },
): HttpHandler {
  return createHttpHandler({
    sessionIdleMs: 0,
    toolInputSchema: (name) => tools[name]?.valueOf(),
    createSession: () => ({
      options: { role: "server", info: { name: "p", version: "1" }, capabilities: { tools: {} }, versions: [MV] },
      onRequest: async (method, params) => {
        if (method === "tools/list") return { tools: Object.keys(tools).map((name) => ({ name, inputSchema: tools[name] })) };
        calls.push(params!);
        return { content: [{ type: "text", text: "ok" }] };
      },
    }),
  });
}

test("streamable-http (draft) Custom Headers from Tool Parameters: the client mirrors x-mcp-header arguments as Mcp-Param-* (Base64 where unsafe), excludes an invalid tool; the server validates them", async () => {
  const calls: JsonObject[] = [];
  const handler = paramServer(calls);
  const seen: Seen[] = [];
  const errors: string[] = [];
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch: recording(handler, seen), onError: (e) => errors.push(e) }));
  const listed = await client.listTools();
  assert.deepEqual(listed.tools.map((t) => t.name), ["query"], "the tool with an invalid x-mcp-header is excluded");
  assert.ok(errors.some((e) => e.includes("broken")));
  await client.callTool("query", { region: "Zürich", limit: 42, q: "x" });
  const h = seen.at(-1)!.headers;
  assert.equal(h.get("mcp-param-region"), "=?base64?" + Buffer.from("Zürich").toString("base64") + "?=");
  assert.equal(h.get("mcp-param-limit"), "42");
  await client.callTool("query", { q: "no region" });
  assert.equal(seen.at(-1)!.headers.get("mcp-param-region"), null, "an absent argument sends no header");
  assert.equal(calls.length, 2);
  client.close();
});

test("streamable-http (draft) Custom Headers from Tool Parameters: headers come from the most recent inputSchema: a tool a later tools/list excludes (its x-mcp-header now invalid) is not called with the headers the earlier list taught", async () => {
  const calls: JsonObject[] = [];
  const tools: Record<string, JsonObject> = { query: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" }, q: { type: "string" } } } };
  const seen: Seen[] = [];
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch: recording(paramServer(calls, tools), seen), onError: () => {} }));
  await client.listTools();
  await client.callTool("query", { region: "eu", q: "x" });
  assert.equal(seen.at(-1)!.headers.get("mcp-param-region"), "eu");
  // The server now declares the header on an array's items: invalid, so the client excludes the tool.
  tools.query = { type: "object", properties: { region: { type: "array", items: { type: "string", "x-mcp-header": "Region" } }, q: { type: "string" } } };
  const listed = await client.listTools();
  assert.deepEqual(listed.tools, []);
  // Called anyway (the application's mistake): sent without the header the server no longer declares.
  await client.callTool("query", { region: "eu", q: "x" }).catch(() => {});
  assert.equal(seen.at(-1)!.body.method, "tools/call");
  assert.equal(seen.at(-1)!.headers.get("mcp-param-region"), null);
  client.close();
});

test("streamable-http (draft) Server Behavior for Custom Headers: a missing, mismatched, unexpected or invalid Mcp-Param-* → 400 -32020; integers compare numerically, in decimal only, within the safe range", async () => {
  const calls: JsonObject[] = [];
  const handler = paramServer(calls);
  const body = (args: JsonObject) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "query", arguments: args, _meta: { "io.modelcontextprotocol/protocolVersion": MV, "io.modelcontextprotocol/clientCapabilities": {} } } });
  const send = (args: JsonObject, extra: Record<string, string>) =>
    handler(new Request(URL_, { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": MV, "mcp-method": "tools/call", "mcp-name": "query", ...extra }, body: JSON.stringify(body(args)) }));
  const cases: Array<[JsonObject, Record<string, string>]> = [
    [{ region: "eu" }, {}],
    [{ region: "eu" }, { "mcp-param-region": "us" }],
    [{}, { "mcp-param-region": "eu" }],
    [{ region: "eu" }, { "mcp-param-region": "e\x01u" }],
    [{ limit: 42 }, { "mcp-param-limit": "forty-two" }],
    // "integer: Convert to decimal string representation": other notations that Number() reads as 42 are a mismatch.
    ...["0x2a", "0b101010", "0o52", "+42", "4.2e1", "42.", ".42e2"].map((v): [JsonObject, Record<string, string>] => [{ limit: 42 }, { "mcp-param-limit": v }]),
    // Schema Extension: "Integer values MUST be within the safe range" (±(2^53−1)); past it,
    // distinct decimals read as one number (2^53 + 1 as 2^53), so no comparison can hold.
    ...["9007199254740992", "9007199254740993"].map((v): [JsonObject, Record<string, string>] => [{ limit: 2 ** 53 }, { "mcp-param-limit": v }]),
  ];
  for (const [args, extra] of cases) {
    const r = await send(args, extra);
    assert.equal(r.status, 400, JSON.stringify([args, extra]));
    assert.equal((await r.json()).error.code, -32020);
  }
  assert.equal(calls.length, 0);
  const ok = await send({ limit: 42, region: "eu" }, { "mcp-param-limit": "42.0", "mcp-param-region": "eu" });
  assert.equal(ok.status, 200);
  await ok.text();
  assert.equal(calls.length, 1, "the endpoint serves on after every rejection");
});

test("streamable-http (draft) Client Behavior: after a -32020 HeaderMismatch to a tools/call made before any tools/list, the client calls tools/list, then retries once with the Mcp-Param-* headers", async () => {
  const calls: JsonObject[] = [];
  const seen: Seen[] = [];
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch: recording(paramServer(calls), seen) }));
  const r = await client.callTool("query", { region: "eu", q: "x" });
  assert.deepEqual(r.content, [{ type: "text", text: "ok" }]);
  assert.deepEqual(seen.map((s) => s.body.method), ["server/discover", "tools/call", "tools/list", "tools/call"]);
  assert.equal(seen[1].headers.get("mcp-param-region"), null, "the first attempt knew no x-mcp-header");
  assert.equal(seen[3].headers.get("mcp-param-region"), "eu", "the retry mirrors the argument the list declared");
  assert.equal(calls.length, 1);
  client.close();
});

test("streamable-http (draft) Client Behavior: the retry after -32020 sends the arguments the call first sent, even when the application edited its arguments object since", async () => {
  const calls: JsonObject[] = [];
  const seen: Seen[] = [];
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch: recording(paramServer(calls), seen) }));
  const args: JsonObject = { region: "eu", q: "x" };
  const call = client.callTool("query", args);
  // The application reuses its object while the call is in flight.
  args.region = "us";
  args.q = "edited";
  await call;
  assert.deepEqual(seen.map((s) => s.body.method), ["server/discover", "tools/call", "tools/list", "tools/call"]);
  assert.deepEqual(seen[3].body.params.arguments, { region: "eu", q: "x" }, "the retry carries what was first sent");
  assert.equal(seen[3].headers.get("mcp-param-region"), "eu");
  assert.deepEqual(calls[0].arguments, { region: "eu", q: "x" });
  client.close();
});

test("streamable-http (draft) Client Behavior: the re-list and retry after -32020 happen once: a second HeaderMismatch rejects the call, with no loop", async () => {
  const seen: Seen[] = [];
  // The server checks a header its tools/list never declares: the client cannot learn it.
  const handler = createHttpHandler({
    sessionIdleMs: 0,
    toolInputSchema: () => ({ type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } }),
    createSession: () => ({
      options: { role: "server", info: { name: "p", version: "1" }, capabilities: { tools: {} }, versions: [MV] },
      onRequest: async (method) => (method === "tools/list" ? { tools: [{ name: "query", inputSchema: { type: "object" } }] } : { content: [] }),
    }),
  });
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch: recording(handler, seen) }));
  const e = await client.callTool("query", { region: "eu" }).then(
    () => assert.fail("expected -32020"),
    (err: unknown) => err,
  );
  assert.ok(e instanceof McpError && e.code === -32020);
  assert.deepEqual(seen.map((s) => s.body.method), ["server/discover", "tools/call", "tools/list", "tools/call"]);
  client.close();
});

test("streamable-http (draft) Client Behavior: the re-list and retry after -32020 run within what is left of the call's timeout, not a fresh one (2025-11-25 basic/lifecycle Timeouts: the caller's bound holds for the whole call)", async () => {
  const clock = new ManualClock();
  const seen: Seen[] = [];
  const handler = paramServer([]);
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const body = JSON.parse(init.body as string);
    const attempts = seen.filter((s) => s.body.method === "tools/call").length;
    if (body.method === "tools/call" && attempts === 1) {
      // The retry: the server holds it, until the client gives up on it.
      seen.push({ headers: new Headers(init.headers), body });
      return new Promise<Response>((_, reject) => init.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
    }
    const answer = recording(handler, seen)(url, init);
    if (body.method === "tools/call") clock.advance(400); // the first attempt took 400 ms to come back -32020
    return answer;
  };
  const client = new McpClient(info, { session: { versions: [MV] }, clock });
  await client.connect(httpClientTransport(URL_, { fetch }));
  let outcome: unknown;
  client.callTool("query", { region: "eu" }, { timeoutMs: 600 }).then(
    () => (outcome = "resolved"),
    (e: unknown) => (outcome = e),
  );
  await until(() => seen.filter((s) => s.body.method === "tools/call").length === 2);
  assert.deepEqual(seen.map((s) => s.body.method), ["server/discover", "tools/call", "tools/list", "tools/call"]);
  clock.advance(199);
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  assert.equal(outcome, undefined, "199 ms of the 200 left: still waiting");
  clock.advance(1);
  await until(() => outcome !== undefined, 50);
  const failed = outcome as unknown;
  assert.ok(failed instanceof McpError && failed.code === -32001, String(failed));
  client.close();
});

test("streamable-http (draft) Client Behavior: a re-list after -32020 that outlasts what is left of the call's timeout fails the call with its timeout (-32001), not the -32020 it met first", async () => {
  const clock = new ManualClock();
  const seen: Seen[] = [];
  const handler = paramServer([]);
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const method = JSON.parse(init.body as string).method;
    const answer = recording(handler, seen)(url, init);
    if (method === "tools/call") clock.advance(400); // the -32020 took 400 of the call's 600 ms
    if (method === "tools/list") clock.advance(250); // and the list takes longer than the 200 left
    return answer;
  };
  const client = new McpClient(info, { session: { versions: [MV] }, clock });
  await client.connect(httpClientTransport(URL_, { fetch }));
  const failed = await client.callTool("query", { region: "eu" }, { timeoutMs: 600 }).then(
    () => assert.fail("expected a timeout"),
    (e: unknown) => e,
  );
  assert.ok(failed instanceof McpError && failed.code === -32001, String(failed));
  assert.deepEqual(seen.map((s) => s.body.method), ["server/discover", "tools/call", "tools/list"], "no retry once the time is gone");
  client.close();
});

test("streamable-http (draft) Client Behavior + draft schema.ts MCP error codes (-32000 to -32019 are implementation-defined: receivers must not assign cross-implementation semantics to them): a re-list after -32020 that the server answers with its own -32001 leaves the call failing with the -32020, not with that error read as the call's timeout", async () => {
  const seen: Seen[] = [];
  const handler = paramServer([]);
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const body = JSON.parse(init.body as string);
    if (body.method === "tools/list") return new Response(JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32001, message: "backend busy" } }), { status: 200, headers: { "content-type": "application/json" } });
    return recording(handler, seen)(url, init);
  };
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch }));
  const failed = await client.callTool("query", { region: "eu" }).then(
    () => assert.fail("expected -32020"),
    (e: unknown) => e,
  );
  assert.ok(failed instanceof McpError && failed.code === -32020, String(failed));
  assert.deepEqual(seen.map((s) => s.body.method), ["server/discover", "tools/call"], "no retry without a list");
  client.close();
});

test("streamable-http (draft) Client Behavior: the tools/list after -32020 walks at most 100 pages (a server handing out fresh cursors for ever cannot hold the call), then the call is retried once", async () => {
  const seen: Seen[] = [];
  let lists = 0;
  // The list never declares the header the server checks, and ends only after 150 pages.
  const handler = createHttpHandler({
    sessionIdleMs: 0,
    toolInputSchema: () => ({ type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } }),
    createSession: () => ({
      options: { role: "server", info: { name: "p", version: "1" }, capabilities: { tools: {} }, versions: [MV] },
      onRequest: async (method) => {
        if (method !== "tools/list") return { content: [] };
        lists++;
        return lists < 150 ? { tools: [{ name: "other", inputSchema: { type: "object" } }], nextCursor: `c${lists}` } : { tools: [] };
      },
    }),
  });
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch: recording(handler, seen) }));
  await assert.rejects(client.callTool("query", { region: "eu" }), (e: unknown) => e instanceof McpError && e.code === -32020);
  assert.equal(lists, 100);
  assert.deepEqual(seen.map((s) => s.body.method).filter((m) => m !== "tools/list"), ["server/discover", "tools/call", "tools/call"]);
  client.close();
});

test("streamable-http (draft) Value Encoding: an argument with an inner tab (a control character) is sent Base64-encoded; the server decodes it, and also accepts a plain tab (a valid RFC 9110 field-value character) from a client that did not encode it", async () => {
  const calls: JsonObject[] = [];
  const handler = paramServer(calls);
  const seen: Seen[] = [];
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch: recording(handler, seen) }));
  await client.listTools();
  await client.callTool("query", { region: "tab\tinside" });
  assert.equal(seen.at(-1)!.headers.get("mcp-param-region"), "=?base64?dGFiCWluc2lkZQ==?=");
  assert.equal(calls.length, 1);
  client.close();
  const raw = await handler(
    new Request(URL_, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": MV, "mcp-method": "tools/call", "mcp-name": "query", "mcp-param-region": "tab\tinside" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "query", arguments: { region: "tab\tinside" }, _meta: { "io.modelcontextprotocol/protocolVersion": MV, "io.modelcontextprotocol/clientCapabilities": {} } } }),
    }),
  );
  assert.equal(raw.status, 200);
  await raw.text();
  assert.equal(calls.length, 2);
});

test("streamable-http (draft) Schema Extension: an x-mcp-header integer argument outside ±(2^53−1) cannot be mirrored; the call is refused with -32602 before any POST, not sent without its header (a non-conforming client)", async () => {
  const calls: JsonObject[] = [];
  const seen: Seen[] = [];
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch: recording(paramServer(calls), seen) }));
  await client.listTools();
  const posts = seen.length;
  const e = await client.callTool("query", { limit: 2 ** 60 }).then(
    () => assert.fail("expected -32602"),
    (err: unknown) => err,
  );
  assert.ok(e instanceof McpError && e.code === -32602 && /Mcp-Param-Limit/.test(e.message), String(e));
  assert.equal(seen.length, posts, "nothing was POSTed");
  // The transport serves on.
  await client.callTool("query", { limit: 2 ** 53 - 1 });
  assert.equal(seen.at(-1)!.headers.get("mcp-param-limit"), String(2 ** 53 - 1));
  assert.equal(calls.length, 1);
  client.close();
});

test("streamable-http (draft) Sending Messages: The client MUST NOT send JSON-RPC responses: a request a server puts on a tools/call stream is dropped, never POSTed back", async () => {
  const posted: any[] = [];
  const meta = { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } };
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    if (init.method !== "POST") return new Response(null, { status: 405 });
    const m = JSON.parse(init.body as string);
    posted.push(m);
    if (m.method === "server/discover") return Response.json({ jsonrpc: "2.0", id: m.id, result: { resultType: "complete", supportedVersions: [MV], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "private", _meta: meta } });
    if (m.method === "tools/call") {
      const events = [{ jsonrpc: "2.0", id: 500, method: "ping" }, { jsonrpc: "2.0", id: m.id, result: { resultType: "complete", content: [] } }];
      return new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });
    }
    return new Response(null, { status: 202 });
  };
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch }));
  await client.callTool("t", {});
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  assert.deepEqual(posted.map((m) => m.method), ["server/discover", "tools/call"]);
  client.close();
});

test("draft basic/versioning: a -32000 the server itself answers server/discover with is the server's answer (it is not modern), not a server that could not be reached", async () => {
  const t = httpClientTransport(URL_, {
    sleep: async () => {},
    fetch: async (_url, init) => {
      const { id } = JSON.parse(String(init?.body)) as { id: unknown };
      return new Response(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32000, message: "Bad Request: No valid session ID provided" } }), { status: 200, headers: { "content-type": "application/json" } });
    },
  });
  const client = new McpClient(info, { session: { versions: [MV] } });
  await assert.rejects(client.connect(t), (e: Error) => {
    assert.match(e.message, /^the server is not a modern server this client can talk to \(server\/discover: -32000 Bad Request/);
    return true;
  });
  client.close();
});

test("draft basic/versioning (a modern-only client cannot fall back): when server/discover cannot reach the server (a refused CORS preflight, a network failure), connect fails saying the server could not be reached, with that failure's reason and its cause (undici's ECONNREFUSED), not 'not a modern server'", async () => {
  let posts = 0;
  const t = httpClientTransport(URL_, {
    sleep: async () => {},
    fetch: async () => {
      posts++;
      // What undici throws: the reason is only in the cause.
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }) });
    },
  });
  const client = new McpClient(info, { session: { versions: [MV] } });
  await assert.rejects(client.connect(t), (e: Error) => {
    assert.equal(e.message, "the server could not be reached (server/discover: -32000 connection closed: POST failed: fetch failed (connect ECONNREFUSED 127.0.0.1:9))");
    return true;
  });
  assert.equal(posts, 3, "the probe and its two re-issues");
  client.close();
  // An AggregateError cause (every address refused) has no message, only its code.
  const aggregate = httpClientTransport(URL_, {
    sleep: async () => {},
    fetch: async () => {
      throw new TypeError("fetch failed", { cause: Object.assign(new AggregateError([], ""), { code: "ECONNREFUSED" }) });
    },
  });
  const other = new McpClient(info, { session: { versions: [MV] } });
  await assert.rejects(other.connect(aggregate), /POST failed: fetch failed \(ECONNREFUSED\)\)$/);
  other.close();
});

test("streamable-http (draft) Value Encoding: a call whose Mcp-Name would hold a lone surrogate (no UTF-8 form) is refused with -32602 before any POST, a local error; before, it went out with U+FFFD in the header, the server answered -32020, and the client listed tools and retried", async () => {
  const { handler } = modernHandler();
  const seen: Seen[] = [];
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch: recording(handler, seen) }));
  const before = seen.length;
  for (const call of [() => client.callTool("t\ud800", {}), () => client.readResource("file:///c\udfff")]) {
    await assert.rejects(call(), (e: McpError) => e.code === -32602 && /cannot be mirrored into Mcp-Name: it holds a lone surrogate/.test(e.message) && !e.fromPeer);
  }
  assert.equal(seen.length, before, "nothing sent");
  assert.equal(blockText((await client.callTool("echo", { text: "after" })).content[0]), "after");
  client.close();
});

/** A fetch that serves `handler`, but answers the POSTs of `method` itself with `answer(id, attempt)` (JSON, or SSE events). */
function answering(method: string, answer: (id: unknown, attempt: number) => { json?: string; events?: string[] }, posts: string[]) {
  const { handler } = modernHandler();
  return async (url: string, init: RequestInit) => {
    const body = JSON.parse(init.body as string);
    posts.push(body.method);
    if (body.method !== method) return handler(new Request(url, init));
    const a = answer(body.id, posts.filter((m) => m === method).length);
    if (a.json !== undefined) return new Response(a.json, { headers: { "content-type": "application/json" } });
    return new Response(a.events!.map((e) => `event: message\ndata: ${e}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });
  };
}

test("README Limits (JSON depth: a response over a limit fails its request at once, -32603 naming it) and streamable-http (draft) Custom Headers: a tools/list whose tool schema is nested thousands deep is the kernel's to refuse, not screened for x-mcp-header first (whose recursion overflowed the stack, which read as a broken stream: the request was re-issued twice, then failed as a lost connection)", async () => {
  const deep = '{"type":"object","properties":{"a":'.repeat(5000) + "{}" + "}}".repeat(5000);
  for (const shape of ["json", "sse"] as const) {
    const posts: string[] = [];
    const text = (id: unknown) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"tools":[{"name":"x","inputSchema":${deep}}]}}`;
    const fetch = answering("tools/list", (id) => (shape === "json" ? { json: text(id) } : { events: [text(id)] }), posts);
    const client = new McpClient(info, { session: { versions: [MV] } });
    await client.connect(httpClientTransport(URL_, { fetch }));
    await assert.rejects(client.listTools(), (e: unknown) => e instanceof McpError && e.code === -32603 && /malformed response from the peer: message exceeds maxDepth \(64\)/.test(e.message), shape);
    assert.equal(posts.filter((m) => m === "tools/list").length, 1, `${shape}: not re-issued`);
    assert.deepEqual((await client.callTool("echo", { text: "after" })).content, [{ type: "text", text: "after" }]);
    client.close();
  }
});

test("basic/index (a response's id is a string or an integer): a message on a response stream whose id is nested thousands deep is the kernel's to refuse; the stream goes on, and the answer after it is delivered (it cost the stream everything after it, the call failing as a lost connection)", async () => {
  const poison = `{"jsonrpc":"2.0","id":${"[".repeat(20000) + "]".repeat(20000)},"result":{}}`;
  const posts: string[] = [];
  const fetch = answering("tools/call", (id) => ({ events: [poison, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"fine"}],"resultType":"complete"}}`] }), posts);
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch }));
  assert.deepEqual((await client.callTool("echo", {})).content, [{ type: "text", text: "fine" }]);
  client.close();
  // Alone in a JSON body, it answers nothing: the call fails saying so (-32603), not "the transport failed".
  const alone = new McpClient(info, { session: { versions: [MV] } });
  await alone.connect(httpClientTransport(URL_, { fetch: answering("tools/call", () => ({ json: poison }), []) }));
  await assert.rejects(alone.callTool("echo", {}), (e: unknown) => e instanceof McpError && e.code === -32603 && /did not answer the request/.test(e.message));
  alone.close();
});

test("basic/patterns (a lost stream's request is re-issued, its answer mapped back to the caller's id): an answer to the re-issued request nested thousands deep fails the request at once with -32603, not a stack overflow taken for another broken stream", async () => {
  const posts: string[] = [];
  const fetch = answering("tools/list", (id, attempt) => (attempt === 1 ? { events: [] } : { events: [`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"tools":[],"x":${"[".repeat(20000) + "]".repeat(20000)}}}`] }), posts);
  const client = new McpClient(info, { session: { versions: [MV] } });
  await client.connect(httpClientTransport(URL_, { fetch, sleep: async () => {} }));
  await assert.rejects(client.listTools(), (e: unknown) => e instanceof McpError && e.code === -32603 && /malformed response from the peer/.test(e.message));
  assert.equal(posts.filter((m) => m === "tools/list").length, 2, "re-issued once, then answered");
  client.close();
});
