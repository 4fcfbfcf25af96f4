// Spec: draft basic/transports/streamable-http on the server as the README wires it
// (McpServer.httpSession() behind createHttpHandler): "Server Behavior for Custom Headers"
// (Mcp-Param-* checked against the registry's x-mcp-header declarations), "Server
// Validation" and "Case Sensitivity" (only Mcp-Name and Mcp-Param-* permit the Base64
// sentinel), "Protocol Version Header" (an unimplemented version MUST get 400 with
// UnsupportedProtocolVersionError) and basic/versioning's compatibility matrix (legacy
// client × modern server); draft basic/patterns/subscriptions, Graceful Closure (a server
// that tears a listen stream down answers it, then ends the stream); "Receiving Messages"
// (notifications a handler sends before a synchronous answer precede it on a stream);
// draft basic/patterns/mrtr, Error Handling (answers held to the method each key asked).
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { ProtocolVersion } from "../../src/model/versions.js";
import { createHttpHandler, type HttpHandlerOptions } from "../../src/transports/http-server.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { ManualClock } from "../../src/driver/clock.js";
import { MemoryTaskStore } from "../../src/api/tasks-store.js";
import type { TaskRecord } from "../../src/tasks/types.js";
import { initializeMessage, post, SseReader, URL_ } from "./helpers.js";
import { answerOf, bodyOf, modernHandler, modernRequest, MV, postModern } from "./modern-helpers.js";

/** An McpServer with a tool whose `region` is mirrored as Mcp-Param-Region, served as the README shows. */
function regionServer(versions: ProtocolVersion[] = [MV, "2025-11-25"], options: Partial<HttpHandlerOptions> = {}) {
  const server = new McpServer({ name: "region", version: "1" }, { session: { versions } });
  const ran: unknown[] = [];
  const unregister = server.tool("where", { inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } } }, (args) => {
    ran.push(args);
    return { content: [{ type: "text", text: "ok" }] };
  });
  const handler = createHttpHandler({ path: "/mcp", sessionIdleMs: 0, createSession: server.httpSession(), ...options });
  return { server, handler, ran, unregister };
}

const where = (id: number, args: Record<string, unknown>) => modernRequest(id, "tools/call", { name: "where", arguments: args });

test("streamable-http (draft) Server Behavior for Custom Headers: with McpServer.httpSession() alone, a missing or mismatched Mcp-Param-* MUST be rejected with 400 -32020 (the tool does not run)", async () => {
  const { handler, ran } = regionServer();
  // "Client omits header but value is in body: Server MUST reject the request".
  const omitted = await postModern(handler, where(1, { region: "us" }));
  assert.equal(omitted.status, 400);
  const b = await bodyOf(omitted);
  assert.equal(b.error.code, ErrorCode.HeaderMismatch);
  assert.equal(b.id, 1);
  assert.match(b.error.message, /Mcp-Param-Region/);
  // "validate that encoded header values ... match the corresponding values in the request body".
  const mismatched = await postModern(handler, where(2, { region: "us" }), { "mcp-param-region": "eu" });
  assert.equal(mismatched.status, 400);
  assert.equal((await bodyOf(mismatched)).error.code, ErrorCode.HeaderMismatch);
  assert.equal(ran.length, 0);
  const ok = await postModern(handler, where(3, { region: "us" }), { "mcp-param-region": "us" });
  assert.equal(ok.status, 200);
  assert.equal((await answerOf(ok)).result.content[0].text, "ok");
  assert.deepEqual(ran, [{ region: "us" }]);
});

test("streamable-http (draft) Server Behavior for Custom Headers: the declarations are the registry's at the time of the call, and survive a createSession that wraps the setup", async () => {
  const { server, ran, unregister } = regionServer();
  const handler = createHttpHandler({
    sessionIdleMs: 0,
    createSession: (ctx) => {
      const setup = server.httpSession()(ctx);
      return { ...setup, onClose: (reason) => setup.onClose?.(reason) };
    },
  });
  assert.equal((await postModern(handler, where(1, { region: "us" }))).status, 400, "wrapped setup: still checked");
  // Unregistered: no x-mcp-header is declared any more, so no Mcp-Param-* is recognized (the call fails as an unknown tool).
  server.tool("other", {}, () => ({ content: [] }));
  unregister();
  const gone = await postModern(handler, where(2, { region: "us" }), { "mcp-param-region": "eu" });
  assert.equal(gone.status, 200);
  assert.equal((await answerOf(gone)).error.code, ErrorCode.InvalidParams);
  // Registered again under the same name with another header: that one is now required.
  server.tool("where", { inputSchema: { type: "object", properties: { zone: { type: "string", "x-mcp-header": "Zone" } } } }, () => ({ content: [] }));
  const r = await postModern(handler, where(3, { zone: "z1" }));
  assert.equal(r.status, 400);
  assert.match((await bodyOf(r)).error.message, /Mcp-Param-Zone/);
  assert.equal((await postModern(handler, where(4, { zone: "z1" }), { "mcp-param-zone": "z1" })).status, 200);
  assert.equal(ran.length, 0);
});

test("streamable-http (draft) Server Validation / Case Sensitivity: Mcp-Method does not permit the Base64 sentinel (only Mcp-Name and Mcp-Param-* do): an encoded method is a mismatch, 400 -32020", async () => {
  const { handler } = modernHandler();
  const msg = modernRequest(1, "tools/list");
  const encoded = "=?base64?" + Buffer.from("tools/list").toString("base64") + "?=";
  const r = await postModern(handler, msg, { "mcp-method": encoded });
  assert.equal(r.status, 400);
  const b = await bodyOf(r);
  assert.equal(b.error.code, ErrorCode.HeaderMismatch);
  assert.match(b.error.message, /Mcp-Method/);
  // Values are case-sensitive.
  assert.equal((await postModern(handler, msg, { "mcp-method": "Tools/List" })).status, 400);
  assert.equal((await postModern(handler, msg)).status, 200);
});

test("streamable-http (draft) Protocol Version Header + basic/versioning matrix (legacy client × modern server): a modern-only server answers initialize with 400 and UnsupportedProtocolVersionError naming its versions, and keeps no session", async () => {
  for (const legacy of [undefined, false]) {
    const { handler } = regionServer([MV], legacy === undefined ? {} : { legacy });
    for (const header of ["2025-11-25", undefined]) {
      const r = await handler(
        new Request(URL_, {
          method: "POST",
          headers: { accept: "application/json, text/event-stream", "content-type": "application/json", ...(header === undefined ? {} : { "mcp-protocol-version": header }) },
          body: JSON.stringify(initializeMessage("2025-11-25", 7)),
        }),
      );
      const what = `legacy ${legacy}, header ${header}`;
      assert.equal(r.status, 400, what);
      assert.equal(r.headers.get("mcp-session-id"), null, what);
      const b = await bodyOf(r);
      assert.equal(b.id, 7);
      assert.equal(b.error.code, ErrorCode.UnsupportedProtocolVersion, what);
      assert.deepEqual(b.error.data.supported, [MV], what);
    }
    assert.equal(handler.sessionCount, 0);
  }
  // A dual-era server still answers it (200, a session).
  const { handler: dual } = regionServer();
  const ok = await post(dual, initializeMessage());
  assert.equal(ok.status, 200);
  assert.ok(ok.headers.get("mcp-session-id"));
});

test("streamable-http (draft) Protocol Version Header: a server without pre-2025-06-18 clients (legacy: false) MUST reject a request without MCP-Protocol-Version per Server Validation (400 -32020); a legacy version header gets 400 -32022; Mcp-Session-Id is ignored", async () => {
  const { handler } = regionServer([MV], { legacy: false });
  const list = { jsonrpc: "2.0", id: 5, method: "tools/list" };
  for (const sid of [undefined, "abc"]) {
    const bare = await post(handler, list, sid);
    assert.equal(bare.status, 400);
    const b = await bodyOf(bare);
    assert.equal(b.error.code, ErrorCode.HeaderMismatch, `session id ${sid}`);
    assert.equal(b.id, 5);
    assert.match(b.error.message, /MCP-Protocol-Version header is required/);
  }
  const old = await post(handler, list, undefined, "2025-11-25");
  assert.equal(old.status, 400);
  const o = await bodyOf(old);
  assert.equal(o.error.code, ErrorCode.UnsupportedProtocolVersion);
  assert.deepEqual(o.error.data, { supported: [MV], requested: "2025-11-25" });
  // A dual-era handler keeps the 2025-era session rule for the same request.
  const { handler: dual } = regionServer();
  const d = await post(dual, list);
  assert.equal(d.status, 400);
  assert.equal((await bodyOf(d)).error.code, ErrorCode.InvalidRequest);
});

test("basic/versioning + streamable-http (draft) Backward Compatibility: with legacy: false every initialize gets 400 -32022 naming the versions and opens no session, and server/discover names only the modern versions, even when the sessions' versions still list 2025-11-25 (the handler would refuse every request in it)", async () => {
  // Draft basic/versioning: a server SHOULD name its supported versions in an error to
  // initialize; draft schema UnsupportedProtocolVersionError: "For HTTP, the response status code MUST be 400".
  const refusals: unknown[] = [];
  for (const versions of [[MV], [MV, "2025-11-25"]] as ProtocolVersion[][]) {
    const { server, handler } = regionServer(versions, { legacy: false });
    const r = await post(handler, initializeMessage("2025-11-25", 7));
    assert.equal(r.status, 400, `versions ${versions}`);
    assert.equal(r.headers.get("mcp-session-id"), null, "no session");
    const b = await bodyOf(r);
    assert.equal(b.id, 7);
    assert.equal(b.error.code, ErrorCode.UnsupportedProtocolVersion);
    assert.deepEqual(b.error.data, { supported: [MV], requested: "2025-11-25" });
    assert.equal(server.connectionCount, 0, "nothing attached to the server");
    refusals.push(b);
    // The modern era is served as ever.
    const modern = await postModern(handler, modernRequest(8, "tools/list"));
    assert.equal(modern.status, 200);
    assert.equal((await answerOf(modern)).result.tools[0].name, "where");
    // And server/discover names only what this endpoint serves (the sessions' versions may list more).
    const discovered = await postModern(handler, modernRequest(9, "server/discover"));
    assert.deepEqual((await answerOf(discovered)).result.supportedVersions, [MV], `versions ${versions}`);
  }
  assert.deepEqual(refusals[1], refusals[0], "the same refusal whatever the sessions' versions");
});

test("subscriptions (draft) Graceful Closure: closing the handler answers each open subscriptions/listen with its completion result (tagged with the subscription id), then ends the stream; nothing stays attached, and the closed handler takes no new work (503)", async () => {
  const { server, handler } = regionServer();
  const listen = async (id: string) => {
    const reader = new SseReader(await postModern(handler, modernRequest(id, "subscriptions/listen", { notifications: { toolsListChanged: true } })));
    assert.equal((await reader.message()).msg.method, "notifications/subscriptions/acknowledged");
    return reader;
  };
  const a = await listen("A");
  const b = await listen("B");
  // A stream the client already closed is not touched.
  const c = await listen("C");
  await c.cancel();
  assert.equal(server.connectionCount, 2);
  handler.close();
  for (const [id, reader] of [["A", a], ["B", b]] as const) {
    const end = (await reader.message()).msg;
    // Draft basic/index: servers SHOULD put serverInfo in every result's _meta, this one's too.
    assert.deepEqual(end, { jsonrpc: "2.0", id, result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": id, "io.modelcontextprotocol/serverInfo": { name: "region", version: "1" } } } });
    assert.equal(await reader.next(), undefined, "the stream ends after the result");
  }
  assert.equal(server.connectionCount, 0, "the listen endpoints are detached");
  handler.close();
  const r = await postModern(handler, modernRequest(9, "tools/list"));
  assert.equal(r.status, 503);
  assert.equal(server.connectionCount, 0);
});

test("streamable-http (draft) Receiving Messages: the server MAY send notifications/progress and notifications/message before the final response: a tool that logs and reports progress, then answers without awaiting, gets them to McpClient ahead of its result, on an SSE stream; with enableJsonResponse they are dropped (a JSON body holds one message)", async () => {
  for (const enableJsonResponse of [false, true]) {
    const server = new McpServer({ name: "sync", version: "1" }, { session: { versions: [MV, "2025-11-25"] } });
    server.tool("sync_notes", {}, (_args, ctx) => {
      ctx.log("warning", "sync log");
      ctx.progress(1, 2, "half");
      ctx.progress(2, 2, "all");
      return { content: [{ type: "text", text: "ok" }] };
    });
    const handler = createHttpHandler({ path: "/mcp", sessionIdleMs: 0, createSession: server.httpSession(), enableJsonResponse });
    const types: (string | null)[] = [];
    const client = new McpClient({ name: "c", version: "1" }, { session: { versions: [MV] } });
    await client.connect(httpClientTransport("http://localhost/mcp", { fetch: async (url, init) => {
      const r = await handler(new Request(url, init));
      types.push(r.headers.get("content-type"));
      return r;
    } }));
    const logs: unknown[] = [];
    client.onNotification("notifications/message", (p) => void logs.push(p?.data));
    const progress: unknown[] = [];
    const r = await client.request("tools/call", { name: "sync_notes", _meta: { "io.modelcontextprotocol/logLevel": "debug" } }, { onProgress: (p) => void progress.push(p.message) });
    assert.deepEqual((r as { content: unknown }).content, [{ type: "text", text: "ok" }]);
    const label = `enableJsonResponse: ${enableJsonResponse}`;
    if (enableJsonResponse) {
      assert.deepEqual([logs, progress], [[], []], label);
      assert.equal(types.at(-1), "application/json", label);
    } else {
      assert.deepEqual([logs, progress], [["sync log"], ["half", "all"]], label);
      assert.equal(types.at(-1), "text/event-stream", label);
    }
    client.close();
  }
});

test("streamable-http (draft) Cancellation (the server MUST treat a client disconnect as cancellation) + tasks extension: a client that leaves while the server stores the task its tools/call became never learns the task's id, so the task is cancelled and forgotten: its work never runs, nothing stays stored", async () => {
  // The task's record is written slowly: the client leaves while the first put is pending.
  const memory = new MemoryTaskStore();
  let release!: () => void;
  const stored = new Promise<void>((r) => (release = r));
  let puts = 0;
  const store = {
    get: (o: string, id: string) => memory.get(o, id),
    put: async (o: string, r: TaskRecord) => {
      if (puts++ === 0) await stored;
      memory.put(o, r);
    },
    delete: (o: string, id: string) => memory.delete(o, id),
    list: (o: string) => memory.list(o),
  };
  const server = new McpServer({ name: "s", version: "1" }, { session: { versions: [MV] }, tasks: { store, clock: new ManualClock() } });
  let ran = 0;
  server.tool("job", { execution: { taskSupport: "optional" } }, () => (ran++, { content: [] }));
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
  const left = new AbortController();
  const msg = modernRequest(1, "tools/call", { name: "job" }, { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } });
  void postModern(handler, msg, {}, left.signal).catch(() => {});
  for (let i = 0; i < 20 && puts === 0; i++) await new Promise((r) => setImmediate(r));
  assert.equal(puts, 1, "the task is being stored");
  assert.equal(server.tasks!.size, 1);
  left.abort();
  release();
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  assert.equal(ran, 0, "its work never ran");
  assert.equal(server.tasks!.size, 0, "no task left running until its TTL");
  assert.deepEqual(memory.records(), [], "nothing left in the store");
});

test("mrtr (draft) Error Handling (servers SHOULD validate that the client's InputResponses can be correctly parsed; a protocol error gets a JSON-RPC error): each answer is held to the result schema of the method its key asked, so an ElicitResult answering ctx.sample() or ctx.listRoots(), or a sampling result answering ctx.elicit(), is -32602 naming the key, and the handler does not run on it", async () => {
  const server = new McpServer({ name: "s", version: "1" }, { clock: new ManualClock(), session: { versions: [MV] } });
  const got: unknown[] = [];
  server.tool("samp", { inputSchema: { type: "object" } }, async (_a, ctx) => {
    got.push(await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 }));
    return { content: [{ type: "text", text: "sampled" }] };
  });
  server.tool("roots", { inputSchema: { type: "object" } }, async (_a, ctx) => {
    got.push(await ctx.listRoots());
    return { content: [{ type: "text", text: "rooted" }] };
  });
  server.prompt("ask", {}, async (_a, ctx) => {
    got.push(await ctx.elicit({ mode: "form", message: "v?", requestedSchema: { type: "object", properties: {} } }));
    return { messages: [] };
  });
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: server.httpSession() });
  const meta = { "io.modelcontextprotocol/clientCapabilities": { sampling: {}, roots: {}, elicitation: { form: {} } } };
  const elicitResult = { action: "decline" };
  const samplingResult = { role: "assistant", content: { type: "text", text: "model" }, model: "m" };
  const cases: Array<[string, Record<string, unknown>, unknown, unknown]> = [
    ["tools/call", { name: "samp", arguments: {} }, elicitResult, samplingResult],
    ["tools/call", { name: "roots", arguments: {} }, elicitResult, { roots: [{ uri: "file:///r" }] }],
    ["prompts/get", { name: "ask" }, samplingResult, elicitResult],
  ];
  let id = 0;
  for (const [method, params, wrong, right] of cases) {
    const first = await answerOf(await postModern(handler, modernRequest(++id, method, params, meta)));
    assert.equal(first.result.resultType, "input_required");
    const asked = Object.keys(first.result.inputRequests);
    assert.deepEqual(asked, ["ask-0"]);
    const retry = (answer: unknown) => modernRequest(++id, method, { ...params, requestState: first.result.requestState, inputResponses: { "ask-0": answer } }, meta);
    const before = got.length;
    const bad = await answerOf(await postModern(handler, retry(wrong)));
    assert.equal(bad.error?.code, ErrorCode.InvalidParams, `${method} ${JSON.stringify(params)}: ${JSON.stringify(bad)}`);
    assert.match(bad.error.message, /\/inputResponses\/ask-0/);
    assert.equal(got.length, before, "the ask never resolved with the wrong result");
    // The same state with a valid result of the method asked completes.
    const good = await answerOf(await postModern(handler, retry(right)));
    assert.equal(good.error, undefined, JSON.stringify(good));
    assert.equal(good.result.resultType, "complete");
    assert.deepEqual(got.at(-1), right);
  }
  await handler.close();
});
