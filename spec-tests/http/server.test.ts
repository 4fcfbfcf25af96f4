// Spec: 2025-11-25 basic/transports ("Streamable HTTP"): status codes, session lifecycle,
// content negotiation, security checks. The handler is called directly with `new Request`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createHttpHandler, SESSION_ID_FIELD } from "../../src/transports/http-server.js";
import { H } from "../../src/transports/http/headers.js";
import { McpServer } from "../../src/api/server.js";
import { call, get, initializeMessage, makeHandler, messages, nested, open, post, postHeaders, SseReader, setupWith, Tools, URL_ } from "./helpers.js";
import { bodyOf, modernHandler, modernRequest, MV, postModern } from "./modern-helpers.js";

const V = "2025-11-25";

test("transports/Session Management: initialize returns MCP-Session-Id, visible ASCII (0x21-0x7E), 128 random bits by default", async () => {
  const { handler } = makeHandler();
  const r = await post(handler, initializeMessage());
  assert.equal(r.status, 200);
  const sid = r.headers.get("mcp-session-id")!;
  assert.match(sid, /^[0-9a-f]{32}$/);
  assert.equal(SESSION_ID_FIELD, H.sessionId.toLowerCase(), "the literal the server writes the header with");
  const body = await r.json();
  assert.equal(body.id, 0);
  assert.equal(body.result.protocolVersion, V);
  assert.equal(handler.sessionCount, 1);
  const other = await post(handler, initializeMessage());
  assert.notEqual(other.headers.get("mcp-session-id"), sid);
});

test("transports/Sending Messages (a server that cannot accept the input MUST answer an HTTP error status): a POST whose client goes away while its body stalls is answered 400 at the abort, its body cancelled, not left pending for ever (a body stream the runtime does not end itself, as an embedder's framework may build); the handler serves on", async () => {
  const { handler } = makeHandler();
  const ac = new AbortController();
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => c.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0",')),
    pull: () => new Promise<void>(() => {}),
    cancel: () => void (cancelled = true),
  });
  const answered = handler(new Request(URL_, { method: "POST", headers: postHeaders(), body, signal: ac.signal, duplex: "half" } as RequestInit));
  await new Promise((resolve) => setImmediate(resolve));
  ac.abort();
  const r = await answered;
  assert.equal(r.status, 400);
  assert.deepEqual((await r.json()).error, { code: ErrorCode.ParseError, message: "Bad Request: the request body could not be read" });
  assert.equal(cancelled, true, "the stalled body is let go");
  // A body there to read is read though its client already left (its request is then served and cancelled).
  const left = new AbortController();
  left.abort();
  const served = await handler(new Request(URL_, { method: "POST", headers: postHeaders(), body: JSON.stringify(initializeMessage()), signal: left.signal }));
  assert.equal(served.status, 200);
  assert.equal(handler.sessionCount, 1);
});

test("createHttpHandler onDiagnostic (nothing refused unseen): every answer the handler refuses a request with reaches the embedder as an http-refused diagnostic naming the status, the method, the path and the reason: a forbidden Origin or Host (DNS rebinding), an Accept it cannot serve, an unknown session, a full server, a modern request's error; served requests report nothing", async () => {
  const seen: any[] = [];
  const { handler } = makeHandler(undefined, { maxSessions: 1, onDiagnostic: (d) => seen.push(d) });
  const sid = (await post(handler, initializeMessage())).headers.get("mcp-session-id")!;
  assert.equal(seen.length, 0, "an initialize served: nothing to report");
  const answers = [
    await post(handler, initializeMessage(), undefined, undefined, { origin: "https://evil.example" }),
    await handler(new Request("http://evil.example/mcp", { method: "POST", headers: postHeaders(), body: JSON.stringify(initializeMessage()) })),
    await post(handler, initializeMessage(), undefined, undefined, { accept: "text/html" }),
    await post(handler, { jsonrpc: "2.0", id: 2, method: "ping" }, "no-such-session", V),
    await post(handler, initializeMessage()),
  ];
  assert.deepEqual(answers.map((r) => r.status), [403, 403, 406, 404, 503]);
  assert.deepEqual(seen.map((d) => [d.code, d.detail.status, d.detail.method, d.detail.path]), answers.map((r) => ["http-refused", r.status, "POST", "/mcp"]));
  for (const [i, r] of answers.entries()) assert.equal(seen[i].detail.reason, (await r.json()).error.message);
  assert.equal(seen[3].detail.requestedSessionId, "no-such-session");
  assert.equal(seen[3].sessionId, undefined, "named by the request, unchecked: not the diagnostic's session");
  assert.match(seen[4].detail.reason, /maxSessions/);
  await post(handler, { jsonrpc: "2.0", method: "notifications/initialized" }, sid, V);
  assert.equal(seen.length, 5, "a notification served: nothing");
  // A modern request's JSON-RPC error with an HTTP status (a reply of the core, read from its text).
  const { handler: modern } = modernHandler(new Tools(), { onDiagnostic: (d) => seen.push(d) });
  const bad = await postModern(modern, modernRequest(3, "tools/call", { name: "echo", arguments: { text: "x" } }), { "mcp-name": "other" });
  assert.equal(bad.status, 400);
  assert.equal(seen.at(-1)!.detail.reason, (await bad.json()).error.message);
});

test("transports/Sending Messages item 4: a notification the server accepts MUST get 202 Accepted with no body", async () => {
  const { handler } = makeHandler();
  const r = await post(handler, initializeMessage());
  const sid = r.headers.get("mcp-session-id")!;
  const n = await post(handler, { jsonrpc: "2.0", method: "notifications/initialized" }, sid, V);
  assert.equal(n.status, 202);
  assert.equal(await n.text(), "");
});

test("transports/Sending Messages item 6: a request gets an SSE stream: priming event (id, empty data) with retry, then the response, then the stream ends", async () => {
  const { handler } = makeHandler(new Tools(), { retryMs: 250 });
  const sid = await open(handler);
  const r = await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, sid, V);
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("content-type"), "text/event-stream");
  assert.equal(r.headers.get("x-accel-buffering"), "no");
  const s = new SseReader(r);
  const priming = await s.next();
  assert.equal(priming!.data, "");
  assert.notEqual(priming!.id, "");
  assert.deepEqual(s.retries, [250]);
  const { msg, id } = await s.message();
  assert.equal(msg.id, 1);
  assert.equal(msg.result.tools[0].name, "echo");
  assert.notEqual(id, priming!.id);
  // After the JSON-RPC response has been sent, the server SHOULD terminate the SSE stream.
  assert.equal(await s.next(), undefined);
});

test("transports/Sending Messages item 2: a POST whose Accept lacks application/json or text/event-stream gets 406", async () => {
  const { handler } = makeHandler();
  for (const accept of ["application/json", "text/event-stream", "text/html", "application/json, text/event-stream;q=0"]) {
    const r = await handler(new Request(URL_, { method: "POST", headers: { accept, "content-type": "application/json" }, body: JSON.stringify(initializeMessage()) }));
    assert.equal(r.status, 406, accept);
    assert.equal((await r.json()).error.code, ErrorCode.InvalidRequest);
  }
  const none = await handler(new Request(URL_, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
  assert.equal(none.status, 406);
  // Wildcards accept both (RFC 9110 §12.5.1).
  const wild = await handler(new Request(URL_, { method: "POST", headers: { accept: "*/*", "content-type": "application/json; charset=utf-8" }, body: JSON.stringify(initializeMessage()) }));
  assert.equal(wild.status, 200);
  const sub = await handler(new Request(URL_, { method: "POST", headers: { accept: "application/*, text/*;q=0.5", "content-type": "application/json" }, body: JSON.stringify(initializeMessage()) }));
  assert.equal(sub.status, 200);
  // The handler keeps the last Accept's verdict (clients repeat theirs): a different one is judged afresh.
  const again = await handler(new Request(URL_, { method: "POST", headers: { accept: "application/json", "content-type": "application/json" }, body: JSON.stringify(initializeMessage()) }));
  assert.equal(again.status, 406);
});

test("transports/Sending Messages: a body that is not application/json gets 415", async () => {
  const { handler } = makeHandler();
  const r = await handler(new Request(URL_, { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "text/plain" }, body: "{}" }));
  assert.equal(r.status, 415);
  const none = await handler(new Request(URL_, { method: "POST", headers: { accept: "application/json, text/event-stream" }, body: new Uint8Array([123, 125]) }));
  assert.equal(none.status, 415);
});

test("transports/Sending Messages item 4: input the server cannot accept MUST get an HTTP error: 400 with -32700 for bad JSON, -32600 for a bad message", async () => {
  const { handler } = makeHandler();
  const bad = await post(handler, "{not json");
  assert.equal(bad.status, 400);
  const b = await bad.json();
  assert.equal(b.error.code, ErrorCode.ParseError);
  assert.equal("id" in b, false, "no id: an error response whose id could not be read has none (2025-11-25 schema: id?: RequestId; transports: an error response that has no id)");
  const invalid = await post(handler, { jsonrpc: "1.0", id: 3, method: "initialize" });
  assert.equal(invalid.status, 400);
  const i = await invalid.json();
  assert.equal(i.error.code, ErrorCode.InvalidRequest);
  assert.equal(i.id, 3);
  const utf8 = await handler(new Request(URL_, { method: "POST", headers: postHeaders(), body: new Uint8Array([0xff, 0xfe]) }));
  assert.equal(utf8.status, 400);
  assert.equal((await utf8.json()).error.code, ErrorCode.ParseError);
});

test("transports/Session Management item 2: servers that require a session id SHOULD answer requests without one (other than initialize) with 400", async () => {
  const { handler } = makeHandler();
  await open(handler);
  const r = await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" });
  assert.equal(r.status, 400);
  // basic/index: an error response carries the id of the request it answers, when it can be read.
  assert.equal(((await r.json()) as { id: unknown }).id, 1);
  const n = await post(handler, { jsonrpc: "2.0", method: "notifications/initialized" });
  assert.equal(n.status, 400);
  const g = await handler(new Request(URL_, { headers: { accept: "text/event-stream" } }));
  assert.equal(g.status, 400);
  const d = await handler(new Request(URL_, { method: "DELETE" }));
  assert.equal(d.status, 400);
});

test("transports/Session Management item 3: after the session is terminated the server MUST answer its id with 404; DELETE terminates it", async () => {
  const { handler, tools } = makeHandler();
  const sid = await open(handler);
  assert.equal((await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, "no-such-session", V)).status, 404);
  // The server MAY terminate the SSE stream if the session expires: the open GET stream ends.
  const g = new SseReader(await get(handler, sid, V));
  await g.next();
  const del = await handler(new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": sid, "mcp-protocol-version": V } }));
  assert.equal(del.status, 204);
  assert.equal(await g.next(), undefined);
  assert.equal(handler.sessionCount, 0);
  assert.deepEqual(tools.closed, ["session terminated by the client (HTTP DELETE)"]);
  assert.equal((await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, sid, V)).status, 404);
  assert.equal((await get(handler, sid, V)).status, 404);
  const again = await handler(new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": sid, "mcp-protocol-version": V } }));
  assert.equal(again.status, 404);
});

test("transports/Session Management item 3 + README Driver (a hook's error goes to onError when the transport closed): a session's onEvent that throws on the cancellation of its running request does not cut its termination short: the DELETE is answered 204, the GET stream ends, onClose runs and the session is gone; the DELETE got a 500 and the stream stayed open for good", { timeout: 10_000 }, async () => {
  const tools = new Tools();
  const errors: string[] = [];
  const onEvent = (e: { type: string }) => {
    if (e.type === "cancelled") throw new Error("onEvent bug");
  };
  const handler = createHttpHandler({ createSession: setupWith(tools, { onEvent, onError: (e) => void errors.push((e as Error).message) }), sessionIdleMs: 0 });
  const sid = await open(handler);
  const g = new SseReader(await get(handler, sid, V));
  await g.next();
  const running = post(handler, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "wait" } }, sid, V);
  await tools.waiting();
  const del = await handler(new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": sid, "mcp-protocol-version": V } }));
  assert.equal(del.status, 204);
  assert.equal(await g.next(), undefined, "the GET stream ended");
  assert.deepEqual(tools.closed, ["session terminated by the client (HTTP DELETE)"]);
  assert.equal(handler.sessionCount, 0);
  assert.deepEqual(errors, ["onEvent bug"]);
  assert.equal((await running).status, 200, "the running request's POST was answered");
});

test("transports/Session Management item 3: the server MAY terminate a session at any time (terminate(), close()): then 404", async () => {
  const { handler } = makeHandler();
  const a = await open(handler);
  const b = await open(handler);
  assert.equal(handler.terminate(a), true);
  assert.equal(handler.terminate(a), false);
  assert.equal((await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, a, V)).status, 404);
  assert.ok(handler.session(b));
  handler.close();
  assert.equal(handler.session(b), undefined);
  assert.equal((await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, b, V)).status, 404);
});

test("handler.close(): the handler takes no new work: an initialize (one whose body was still arriving at close() too), a modern request and a GET without a session get 503 with a JSON-RPC error body; an ended session's id still gets the 404 Session Management item 3 requires", async () => {
  const { handler } = modernHandler();
  const sid = await open(handler);
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
  const late = handler(new Request(URL_, { method: "POST", headers: postHeaders(), body, duplex: "half" } as RequestInit));
  handler.close();
  feed.enqueue(new TextEncoder().encode(JSON.stringify(initializeMessage())));
  feed.close();
  const answers = [await late, await post(handler, initializeMessage()), await postModern(handler, modernRequest(1, "tools/list")), await handler(new Request(URL_, { headers: { accept: "text/event-stream" } }))];
  for (const r of answers) {
    assert.equal(r.status, 503);
    const reply = await r.json();
    assert.equal(reply.jsonrpc, "2.0");
    assert.equal(reply.error.code, ErrorCode.InvalidRequest);
    assert.match(reply.error.message, /closed/);
  }
  assert.equal(handler.sessionCount, 0);
  assert.equal((await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, sid, V)).status, 404);
  assert.equal((await get(handler, sid, V)).status, 404);
});

test("transports/Protocol Version Header: an invalid or unsupported MCP-Protocol-Version MUST get 400", async () => {
  const { handler } = makeHandler();
  const sid = await open(handler);
  for (const v of ["garbage", "2025-06-18", "2024-01-01"]) {
    const r = await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, sid, v);
    assert.equal(r.status, 400, v);
  }
  assert.equal((await get(handler, sid, "nope")).status, 400);
  const ok = await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, sid, ` ${V} `);
  assert.equal(ok.status, 200);
  await ok.text();
});

test("transports/Protocol Version Header (an invalid or unsupported MCP-Protocol-Version MUST get 400), every method: a notification or response POST and a DELETE naming another version get 400 and leave the session as it was (the DELETE ends nothing); Session Management item 2: a GET or DELETE without MCP-Session-Id gets 400", async () => {
  const { handler, tools } = makeHandler();
  const sid = await open(handler);
  for (const v of ["garbage", "2025-06-18"]) {
    for (const message of [{ jsonrpc: "2.0", method: "notifications/roots/list_changed" }, { jsonrpc: "2.0", id: 7, result: {} }]) {
      const r = await post(handler, message, sid, v);
      assert.equal(r.status, 400, `${v} ${JSON.stringify(message)}`);
      await r.text();
    }
    const d = await handler(new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": sid, "mcp-protocol-version": v } }));
    assert.equal(d.status, 400, `DELETE ${v}`);
    await d.text();
  }
  assert.equal(handler.sessionCount, 1, "no refused DELETE ended the session");
  assert.deepEqual(tools.closed, []);
  const g = await handler(new Request(URL_, { method: "GET", headers: { accept: "text/event-stream", "mcp-protocol-version": V } }));
  assert.equal(g.status, 400);
  await g.text();
  const d = await handler(new Request(URL_, { method: "DELETE", headers: { "mcp-protocol-version": V } }));
  assert.equal(d.status, 400);
  await d.text();
  const ok = await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, sid, V);
  assert.equal(ok.status, 200);
  await ok.text();
});

test("transports/Protocol Version Header: without the header a session is served at its negotiated version (the server assumes 2025-03-26 only with 'no other way to identify the version'); strict mode assumes 2025-03-26", async () => {
  const { handler } = makeHandler();
  const current = await open(handler, V);
  const r = await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, current);
  assert.equal(r.status, 200);
  assert.equal(messages(await new SseReader(r).rest())[0].id, 1);
  const old = await open(handler, "2025-03-26");
  const o = await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, old);
  assert.equal(o.status, 200);
  await o.text();
  // Strict: 2025-03-26 is assumed, which a 2025-11-25 session does not speak.
  const strict = makeHandler(new Tools(), { strictProtocolVersionHeader: true }).handler;
  const s = await open(strict, V);
  const refused = await post(strict, { jsonrpc: "2.0", id: 1, method: "tools/list" }, s);
  assert.equal(refused.status, 400);
  assert.match(((await refused.json()) as { error: { message: string } }).error.message, /MCP-Protocol-Version header is required/);
  const s2 = await open(strict, "2025-03-26");
  const served = await post(strict, { jsonrpc: "2.0", id: 1, method: "tools/list" }, s2);
  assert.equal(served.status, 200);
  await served.text();
});

test("transports/Listening item 3: GET returns text/event-stream (priming first), or 405: a second GET gets a stream of its own (Multiple Connections: the client MAY remain connected to several)", async () => {
  const { handler } = makeHandler();
  const sid = await open(handler);
  const g = await get(handler, sid, V);
  assert.equal(g.status, 200);
  assert.equal(g.headers.get("content-type"), "text/event-stream");
  const s = new SseReader(g);
  assert.equal((await s.next())!.data, "");
  const second = await get(handler, sid, V);
  assert.equal(second.status, 200);
  const s2 = new SseReader(second);
  const priming = await s2.next();
  assert.equal(priming!.data, "");
  assert.notEqual(priming!.id.split("-")[0], "", "a stream of its own, resumable by its event ids");
  // Listening item 2: the GET MUST list text/event-stream in Accept.
  const noAccept = await handler(new Request(URL_, { headers: { accept: "application/json", "mcp-session-id": sid, "mcp-protocol-version": V } }));
  assert.equal(noAccept.status, 406);
  await s.cancel();
  await s2.cancel();
});

test("transports/Multiple Connections: with several GET streams each message goes on one only (MUST NOT broadcast): the one connected last, then the one before when it goes away; at most 8 stay connected, resumptions included", async () => {
  const { handler, tools } = makeHandler();
  const sid = await open(handler);
  const ep = tools.endpoints[0];
  const first = new SseReader(await get(handler, sid, V));
  const firstPriming = (await first.next())!;
  const second = new SseReader(await get(handler, sid, V));
  await second.next();
  ep.notify("notifications/tools/list_changed");
  assert.equal((await second.message()).msg.method, "notifications/tools/list_changed");
  await second.cancel();
  ep.notify("notifications/tools/list_changed");
  const { msg, id } = await first.message();
  assert.equal(msg.method, "notifications/tools/list_changed", "the earlier stream, and only after the later one went away");
  assert.equal(id.split("-")[0], firstPriming.id.split("-")[0]);
  // Seven more GETs: eight connected in all; the ninth closes the oldest (server-side, with retry).
  const more: SseReader[] = [];
  for (let i = 0; i < 8; i++) {
    const r = new SseReader(await get(handler, sid, V));
    await r.next();
    more.push(r);
  }
  assert.equal(await first.next(), undefined, "the oldest connection was closed");
  assert.equal(first.retries.length > 0, true, "closed with a retry, as a polling close");
  // Still resumable: its Last-Event-ID reattaches it, and it is the one connected last now.
  const resumed = await handler(new Request(URL_, { headers: { accept: "text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": V, "last-event-id": id } }));
  assert.equal(resumed.status, 200);
  const again = new SseReader(resumed);
  // A resumption counts toward the eight too: the one connected longest ago is closed now.
  assert.equal(await more[0].next(), undefined, "the limit holds for resumptions");
  ep.notify("notifications/tools/list_changed");
  const last = await again.message();
  assert.equal(last.msg.method, "notifications/tools/list_changed");
  assert.equal(last.id.split("-")[0], firstPriming.id.split("-")[0]);
  for (const r of [...more, again]) await r.cancel();
});

test("transports/Multiple Connections: messages that reached no connection move to the next GET's stream, once", async () => {
  const { handler, tools } = makeHandler();
  const sid = await open(handler);
  const ep = tools.endpoints[0];
  const first = new SseReader(await get(handler, sid, V));
  await first.next();
  await first.cancel();
  ep.notify("notifications/tools/list_changed");
  const next = new SseReader(await get(handler, sid, V));
  assert.equal((await next.message()).msg.method, "notifications/tools/list_changed");
  ep.notify("notifications/tools/list_changed");
  assert.equal((await next.message()).msg.method, "notifications/tools/list_changed");
  await next.cancel();
});

test("transports/Multiple Connections + Resumability: messages that waited while no GET stream was connected reach the next GET in the order sent, each once, none reported lost, even with a session share that holds them only once", async () => {
  for (const eventStore of [undefined, { maxSessionSize: 250 }]) {
    const tools = new Tools();
    const lost: unknown[] = [];
    const { handler } = makeHandler(tools, { eventStore, onDiagnostic: (d) => void (d.code === "message-lost" && lost.push(d)) });
    const sid = await open(handler);
    const ep = tools.endpoints[0];
    await get(handler, sid, V); // stream 1
    await get(handler, sid, V); // stream 2
    await get(handler, sid, V, "1-0"); // stream 1 again: the one connected last
    handler.closeConnections(sid);
    for (const data of ["m1", "m2"]) ep.notify("notifications/message", { level: "info", data });
    const next = new SseReader(await get(handler, sid, V));
    assert.deepEqual([(await next.message()).msg.params.data, (await next.message()).msg.params.data], ["m1", "m2"], JSON.stringify(eventStore));
    assert.deepEqual(lost, [], JSON.stringify(eventStore));
    handler.close();
  }
});

test("transports/Listening item 4 and Multiple Connections: unrelated server messages go on the GET stream, once; queued ones arrive when it opens", async () => {
  const { handler, tools } = makeHandler();
  const sid = await open(handler);
  const ep = tools.endpoints[0];
  ep.notify("notifications/tools/list_changed");
  const g = new SseReader(await get(handler, sid, V));
  assert.equal((await g.message()).msg.method, "notifications/tools/list_changed");
  ep.notify("notifications/tools/list_changed");
  assert.equal((await g.message()).msg.method, "notifications/tools/list_changed");
  // A POST stream open at the same time does not get a copy.
  const r = new SseReader(await post(handler, { jsonrpc: "2.0", id: 9, method: "tools/list" }, sid, V));
  assert.deepEqual(messages(await r.rest()).map((m) => m.id), [9]);
  await g.cancel();
});

/** A session whose `sample` tool (request 5) has asked the client to sample, on the tool's POST stream. */
async function askedToSample(options?: Parameters<typeof makeHandler>[1]) {
  const { handler } = makeHandler(undefined, options);
  const sid = await open(handler);
  const s = new SseReader(await post(handler, call(5, "sample"), sid, V));
  const { msg: req } = await s.message();
  assert.equal(req.method, "sampling/createMessage");
  return { handler, sid, s, req };
}

test("transports/Sending Messages item 6: related requests and notifications go on the POST's stream before its response; the client's response POST gets 202", async () => {
  const { handler, sid, s, req } = await askedToSample();
  const answer = await post(handler, { jsonrpc: "2.0", id: req.id, result: { role: "assistant", content: { type: "text", text: "sampled" }, model: "m" } }, sid, V);
  assert.equal(answer.status, 202);
  const { msg } = await s.message();
  assert.equal(msg.id, 5);
  assert.equal(msg.result.content[0].text, "sampled");
  assert.equal(await s.next(), undefined);
});

test("basic/index over Streamable HTTP: a response has exactly one of result (an object) and error — a malformed answer to a server-to-client request gets 400 and fails that request at once", async () => {
  const { handler, sid, s, req } = await askedToSample();
  const answer = await post(handler, { jsonrpc: "2.0", id: req.id, result: 5 }, sid, V);
  assert.equal(answer.status, 400);
  assert.equal((await answer.json()).error.code, ErrorCode.InvalidRequest);
  // The tool's sampling call failed now (not at the 60 s timeout), so the tool's answer closes the stream.
  const { msg } = await s.message();
  assert.equal(msg.id, 5);
  assert.match(JSON.stringify(msg), /malformed response from the peer: result must be an object/);
  assert.equal(await s.next(), undefined);
});

test("basic/transports (JSON-RPC messages MUST be UTF-8 encoded) over Streamable HTTP: an answer to a server-to-client request whose bytes are not UTF-8 gets 400 and fails that request at once, as a stdio line does", async () => {
  const { handler, sid, s, req } = await askedToSample();
  const enc = new TextEncoder();
  const bytes = new Uint8Array([...enc.encode(`{"jsonrpc":"2.0","id":${JSON.stringify(req.id)},"result":{"role":"assistant","content":{"type":"text","text":"`), 0xff, ...enc.encode('"},"model":"m"}}')]);
  const answer = await handler(new Request(URL_, { method: "POST", headers: postHeaders(sid, V), body: bytes }));
  assert.equal(answer.status, 400);
  assert.equal((await answer.json()).error.code, ErrorCode.ParseError);
  // The tool's sampling call failed now (not at the 60 s timeout), so the tool's answer closes the stream.
  const { msg } = await s.message();
  assert.equal(msg.id, 5);
  assert.match(JSON.stringify(msg), /malformed response from the peer: message is not valid UTF-8/);
  assert.equal(await s.next(), undefined);
});

test("basic/index over Streamable HTTP (no batches after 2025-03-26): an array holding a request and an answer to a server-to-client request gets 400 with the -32600 reply (no id), and that request fails at once", async () => {
  const diagnostics: string[] = [];
  const { handler, sid, s, req } = await askedToSample({ onDiagnostic: (d) => diagnostics.push(d.code) });
  const answer = await post(handler, [{ jsonrpc: "2.0", id: req.id, result: { role: "assistant", content: { type: "text", text: "x" }, model: "m" } }, { jsonrpc: "2.0", id: 8, method: "ping" }], sid, V);
  assert.equal(answer.status, 400);
  const body = await answer.json();
  assert.equal("id" in body, false, "no id: an error response whose id could not be read has none (2025-11-25 schema: id?: RequestId; transports: an error response that has no id)");
  assert.equal(body.error.code, ErrorCode.InvalidRequest);
  // The tool's sampling call failed now (not at the 60 s timeout), so the tool's answer closes the stream.
  const { msg } = await s.message();
  assert.equal(msg.id, 5);
  assert.match(JSON.stringify(msg), /malformed response from the peer: batches are not supported/);
  assert.equal(await s.next(), undefined);
  assert.ok(!diagnostics.includes("response-unrouted"), "the kernel's copy of the 400's reply is not routed again");
});

test("basic/index over Streamable HTTP (Result responses MUST include a result field): a POST of only jsonrpc and the id of a server-to-client request in flight (an answer that lost its result) gets 400 and fails that request at once, not at its timeout (found by review)", { timeout: 10_000 }, async () => {
  const diagnostics: string[] = [];
  const { handler, sid, s, req } = await askedToSample({ onDiagnostic: (d) => diagnostics.push(d.code) });
  const answer = await post(handler, { jsonrpc: "2.0", id: req.id }, sid, V);
  assert.equal(answer.status, 400);
  assert.equal((await answer.json()).error.code, ErrorCode.InvalidRequest);
  const { msg } = await s.message();
  assert.equal(msg.id, 5);
  assert.match(JSON.stringify(msg), /malformed response from the peer: a message needs a method, a result or an error/);
  assert.equal(await s.next(), undefined);
  assert.ok(!diagnostics.includes("response-unrouted"), "the kernel's copy of the 400's reply is not routed again");
});

test("basic/index over Streamable HTTP: a POST of only jsonrpc and an id no server-to-client request has, but a request of the client's open on another POST has, gets its 400 and nothing else: that request's stream is not answered with the -32600 (found by review)", { timeout: 10_000 }, async () => {
  const diagnostics: string[] = [];
  const { handler, sid, s, req } = await askedToSample({ onDiagnostic: (d) => diagnostics.push(d.code) });
  assert.notEqual(req.id, 5, "the server's request has another id than the client's tools/call");
  const answer = await post(handler, { jsonrpc: "2.0", id: 5 }, sid, V);
  assert.equal(answer.status, 400);
  assert.deepEqual(await answer.json(), { jsonrpc: "2.0", id: 5, error: { code: ErrorCode.InvalidRequest, message: "Invalid Request: a message needs a method, a result or an error" } });
  // The tool still waits on its sampling request: answered, it answers the call, and that is the stream's only response.
  assert.equal((await post(handler, { jsonrpc: "2.0", id: req.id, result: { role: "assistant", content: { type: "text", text: "sampled" }, model: "m" } }, sid, V)).status, 202);
  const { msg } = await s.message();
  assert.equal(msg.id, 5);
  assert.equal(msg.result.content[0].text, "sampled");
  assert.equal(await s.next(), undefined);
  assert.ok(!diagnostics.includes("response-unrouted"), "the kernel's copy of the 400's reply is not routed again");
});

test("2025-03-26 transports and basic/index (Result responses MUST include a result field): a batch member of only jsonrpc and the id of a server-to-client request in flight (an answer that lost its result) fails that request at once and gets no -32600 of that id in the batch's answer, as on stdio (found by review)", { timeout: 10_000 }, async () => {
  const V3 = "2025-03-26";
  const { handler, tools } = makeHandler();
  const sid = await open(handler, V3);
  const c = new SseReader(await post(handler, call(3, "sample"), sid, V3));
  const qc = (await c.message()).msg;
  const mixed = await post(handler, [{ jsonrpc: "2.0", id: 4, method: "ping" }, { jsonrpc: "2.0", id: qc.id }], sid, V3);
  assert.equal(mixed.status, 200);
  assert.deepEqual(messages(await new SseReader(mixed).rest()), [{ jsonrpc: "2.0", id: 4, result: {} }]);
  assert.match(JSON.stringify((await c.message()).msg), /malformed response from the peer: a message needs a method, a result or an error/);
  assert.equal(await c.next(), undefined);
  // With an id no request of ours has, the member is a request that lost its method: its -32600 echoes the id.
  const other = await post(handler, [{ jsonrpc: "2.0", id: 6, method: "ping" }, { jsonrpc: "2.0", id: 77 }], sid, V3);
  assert.deepEqual(messages(await new SseReader(other).rest()).map((m: any) => [m.id, m.error?.code]), [[77, ErrorCode.InvalidRequest], [6, undefined]]);
  assert.ok(!tools.diagnostics.includes("response-unrouted"));
});

test("2025-03-26 transports (a POST body MAY be \"an array of one or more responses\") and basic/index: a malformed response in a batch fails the request it names at once, the valid ones are delivered; the POST gets 400 with the malformed members' errors, or is answered as usual when the batch holds a valid request", async () => {
  const V3 = "2025-03-26";
  const { handler, tools } = makeHandler();
  const sid = await open(handler, V3);
  const sampled = (id: unknown) => ({ jsonrpc: "2.0", id, result: { role: "assistant", content: { type: "text", text: "sampled" }, model: "m" } });
  const a = new SseReader(await post(handler, call(1, "sample"), sid, V3));
  const b = new SseReader(await post(handler, call(2, "sample"), sid, V3));
  const qa = (await a.message()).msg;
  const qb = (await b.message()).msg;
  const answers = await post(handler, [sampled(qa.id), { jsonrpc: "2.0", id: qb.id, result: { role: "assistant" }, error: { code: 1, message: "x" } }], sid, V3);
  assert.equal(answers.status, 400);
  const body = await answers.json();
  assert.ok(Array.isArray(body), "a batch's refusal is an array of its malformed members' errors");
  assert.deepEqual(body.map((e: any) => [e.id, e.error.code]), [[undefined, ErrorCode.InvalidRequest]]);
  // Both tools answer now, not at the 60 s timeout: one with the valid answer, one failed as malformed.
  assert.equal((await a.message()).msg.result.content[0].text, "sampled");
  assert.match(JSON.stringify((await b.message()).msg), /malformed response from the peer: a response must not have both result and error/);
  assert.equal(await a.next(), undefined);
  assert.equal(await b.next(), undefined);
  // With a valid request beside it, the POST is answered as usual (the request's response), and the
  // malformed response still fails its request at once, with no reply of its own (as on stdio).
  const c = new SseReader(await post(handler, call(3, "sample"), sid, V3));
  const qc = (await c.message()).msg;
  const mixed = await post(handler, [{ jsonrpc: "2.0", id: 4, method: "ping" }, { jsonrpc: "2.0", id: qc.id, result: 5 }], sid, V3);
  assert.equal(mixed.status, 200);
  assert.deepEqual(messages(await new SseReader(mixed).rest()), [{ jsonrpc: "2.0", id: 4, result: {} }]);
  assert.match(JSON.stringify((await c.message()).msg), /malformed response from the peer: result must be an object/);
  assert.ok(!tools.diagnostics.includes("response-unrouted"));
});

test("basic/index Responses over Streamable HTTP: a server-to-client request with no JSON form fails in the handler at once (-32603), nothing reaches the stream but the tool's answer", async () => {
  const { handler } = makeHandler();
  const sid = await open(handler);
  const s = new SseReader(await post(handler, call(6, "sample-unencodable"), sid, V));
  const { msg } = await s.message();
  assert.equal(msg.id, 6, "the first message is the tool's response: no broken request went out");
  assert.match(msg.result.content[0].text, /^-32603 Internal error: the sampling\/createMessage request was not sent: message could not be encoded/);
  assert.equal(await s.next(), undefined);
});

test("basic/cancellation over Streamable HTTP: a cancelled request's stream ends without a response", async () => {
  const { handler, tools } = makeHandler();
  const sid = await open(handler);
  const s = new SseReader(await post(handler, call(7, "wait"), sid, V));
  assert.equal((await s.message()).msg.params.data, "one");
  const c = await post(handler, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "user" } }, sid, V);
  assert.equal(c.status, 202);
  assert.equal(await s.next(), undefined);
  assert.equal(tools.contexts.at(-1)!.signal.aborted, true);
});

test("transports: methods other than GET, POST and DELETE get 405 with Allow", async () => {
  const { handler } = makeHandler();
  const r = await handler(new Request(URL_, { method: "PUT", body: "{}" }));
  assert.equal(r.status, 405);
  assert.equal(r.headers.get("allow"), "GET, POST, DELETE");
});

test("transports/Security Warning: an Origin that is present and invalid MUST get 403; loopback origins and no Origin are allowed", async () => {
  const { handler } = makeHandler();
  for (const origin of ["https://evil.example", "null", "http://localhost.evil.example", "ftp://localhost"]) {
    const r = await post(handler, initializeMessage(), undefined, undefined, { origin });
    assert.equal(r.status, 403, origin);
    assert.equal("id" in (await r.json()), false, "an error body that has no id");
  }
  for (const origin of ["http://localhost:3000", "https://127.0.0.1", "http://[::1]:8080"]) {
    const r = await post(handler, initializeMessage(), undefined, undefined, { origin });
    assert.equal(r.status, 200, origin);
    await r.text();
  }
  const custom = makeHandler(new Tools(), { allowedOrigins: ["https://app.example"] }).handler;
  assert.equal((await post(custom, initializeMessage(), undefined, undefined, { origin: "https://APP.example" })).status, 200);
  assert.equal((await post(custom, initializeMessage(), undefined, undefined, { origin: "http://localhost" })).status, 403);
  const fn = makeHandler(new Tools(), { allowedOrigins: (o) => o.endsWith(".trusted") }).handler;
  assert.equal((await post(fn, initializeMessage(), undefined, undefined, { origin: "https://a.trusted" })).status, 200);
});

test("transports/Security Warning (DNS rebinding): a Host outside the allowed hosts gets 403; loopback hosts pass; the check can be delegated", async () => {
  const { handler } = makeHandler();
  const rebind = await handler(new Request("http://evil.example/mcp", { method: "POST", headers: postHeaders(), body: JSON.stringify(initializeMessage()) }));
  assert.equal(rebind.status, 403);
  for (const host of ["localhost:8080", "127.0.0.1", "[::1]:3000", "LOCALHOST"]) {
    const r = await handler(new Request(URL_, { method: "POST", headers: postHeaders(undefined, undefined, { host }), body: JSON.stringify(initializeMessage()) }));
    assert.equal(r.status, 200, host);
    await r.text();
  }
  for (const host of ["evil.example", "127.0.0.1:99999x", "a@localhost", "[::1", "", "[::1]x", "localhost:1234567"]) {
    const r = await handler(new Request(URL_, { method: "POST", headers: postHeaders(undefined, undefined, { host }), body: "{}" }));
    assert.equal(r.status, 403, JSON.stringify(host));
  }
  const open_ = makeHandler(new Tools(), { allowedHosts: false }).handler;
  const r = await open_(new Request("http://mcp.example.com/mcp", { method: "POST", headers: postHeaders(), body: JSON.stringify(initializeMessage()) }));
  assert.equal(r.status, 200);
  const listed = makeHandler(new Tools(), { allowedHosts: ["mcp.example.com"] }).handler;
  assert.equal((await listed(new Request("http://mcp.example.com:8443/mcp", { method: "POST", headers: postHeaders(), body: JSON.stringify(initializeMessage()) }))).status, 200);
});

test("transports: the endpoint path option serves one path only", async () => {
  const { handler } = makeHandler(new Tools(), { path: "/mcp" });
  assert.equal((await handler(new Request("http://127.0.0.1/other", { method: "POST", headers: postHeaders(), body: "{}" }))).status, 404);
  assert.equal((await post(handler, initializeMessage())).status, 200);
});

test("bounded bodies: a body over maxBodyBytes gets 413, by Content-Length or while streaming", async () => {
  const { handler } = makeHandler(new Tools(), { maxBodyBytes: 64 });
  const big = JSON.stringify({ ...initializeMessage(), pad: "x".repeat(100) });
  const r = await post(handler, big);
  assert.equal(r.status, 413);
  const chunked = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode("x".repeat(20)));
      c.close();
    },
  });
  const s = await handler(new Request(URL_, { method: "POST", headers: postHeaders(), body: chunked, duplex: "half" } as RequestInit));
  assert.equal(s.status, 413);
  const lying = await handler(new Request(URL_, { method: "POST", headers: postHeaders(undefined, undefined, { "content-length": "abc" }), body: "{}" }));
  assert.equal(lying.status, 400);
  // A body in several chunks, within the bound, is joined and served.
  const roomy = makeHandler(new Tools(), { maxBodyBytes: 4096 }).handler;
  const text = JSON.stringify(initializeMessage());
  const parts = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < text.length; i += 10) c.enqueue(new TextEncoder().encode(text.slice(i, i + 10)));
      c.close();
    },
  });
  const joined = await roomy(new Request(URL_, { method: "POST", headers: postHeaders(), body: parts, duplex: "half" } as RequestInit));
  assert.equal(joined.status, 200);
  assert.equal((await joined.json()).result.protocolVersion, V);
  const broken = new ReadableStream<Uint8Array>({
    pull(c) {
      c.error(new Error("boom"));
    },
  });
  const b = await handler(new Request(URL_, { method: "POST", headers: postHeaders(), body: broken, duplex: "half" } as RequestInit));
  assert.equal(b.status, 400);
});

test("bounded bodies (README Limits: maxBodyBytes is a number >= 0, Infinity included: no bound): with maxBodyBytes Infinity a body without a session (a 2026-07-28 request) is held only to the session's maxMessageBytes, not to the codec's default 4 MiB", async () => {
  const base = setupWith(new Tools(), {}, { maxMessageBytes: 16 * 1024 * 1024 });
  const handler = createHttpHandler({ createSession: () => { const s = base(); return { ...s, options: { ...s.options, versions: [MV, V] } }; }, sessionIdleMs: 0, maxBodyBytes: Infinity });
  const text = "x".repeat(5 * 1024 * 1024);
  const r = await postModern(handler, modernRequest(1, "tools/call", { name: "echo", arguments: { text } }));
  assert.equal(r.status, 200);
  const body = await bodyOf(r);
  assert.equal(body.result?.content?.[0]?.text, text, JSON.stringify(body).slice(0, 200));
});

test("enableJsonResponse: a request gets one application/json body; related messages fall back to the GET stream", async () => {
  const { handler, tools } = makeHandler(new Tools(), { enableJsonResponse: true });
  const sid = await open(handler);
  const g = new SseReader(await get(handler, sid, V));
  const pending = post(handler, call(3, "wait"), sid, V);
  // The handler's first log line went to the GET stream.
  assert.equal((await g.message()).msg.params.data, "one");
  tools.release();
  const r = await pending;
  assert.equal(r.headers.get("content-type"), "application/json");
  const body = await r.json();
  assert.equal(body.id, 3);
  assert.equal(body.result.content[0].text, "waited");
  assert.equal((await g.message()).msg.params.data, "two");
  await g.cancel();
});

test("enableJsonResponse (Sending Messages item 5: a POST of requests MUST get text/event-stream or application/json): a cancelled request gets an empty event stream, not 202; a request cut off by session end gets 404", async () => {
  const { handler } = makeHandler(new Tools(), { enableJsonResponse: true });
  const sid = await open(handler);
  const cancelled = post(handler, call(1, "wait"), sid, V);
  const c = await post(handler, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, sid, V);
  assert.equal(c.status, 202, "the notification itself is accepted");
  const r = await cancelled;
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("content-type"), "text/event-stream");
  assert.equal(await r.text(), "");
  const cut = post(handler, call(2, "wait"), sid, V);
  handler.terminate(sid);
  assert.equal((await cut).status, 404);
});

test("transports (2025-03-26): batches are accepted on 2025-03-26 sessions only; every response comes back on the one stream", async () => {
  const { handler } = makeHandler();
  const sid = await open(handler, "2025-03-26");
  const batch = [{ jsonrpc: "2.0", id: 1, method: "tools/list" }, call(2, "echo", { text: "hi" }), { jsonrpc: "2.0", method: "notifications/roots/list_changed" }];
  const r = await post(handler, batch, sid, "2025-03-26");
  assert.equal(r.status, 200);
  const got = messages(await new SseReader(r).rest());
  assert.deepEqual(got.map((m) => m.id).sort(), [1, 2]);
  // Notifications only: 202.
  const n = await post(handler, [{ jsonrpc: "2.0", method: "notifications/roots/list_changed" }], sid, "2025-03-26");
  assert.equal(n.status, 202);
  // An invalid member gets its own error and the valid ones still run (JSON-RPC 2.0 §6, which the
  // 2025-03-26 schema's JSONRPCBatchRequest links): see the test of invalid batch members below.
  const bad = await post(handler, [{ jsonrpc: "2.0", id: 1, method: "tools/list" }, { nope: true }], sid, "2025-03-26");
  assert.equal(bad.status, 200);
  assert.deepEqual(messages(await new SseReader(bad).rest()).map((m) => [m.id, m.error?.code ?? "result"]), [[undefined, ErrorCode.InvalidRequest], [1, "result"]]);
  // 2025-06-18 removed batches.
  const later = await open(handler, V);
  const refused = await post(handler, batch, later, V);
  assert.equal(refused.status, 400);
  assert.equal((await refused.json()).error.code, ErrorCode.InvalidRequest);
  // JSON mode answers a batch with an array.
  const json = makeHandler(new Tools(), { enableJsonResponse: true }).handler;
  const js = await open(json, "2025-03-26");
  const jr = await post(json, batch.slice(0, 2), js, "2025-03-26");
  const arr = await jr.json();
  assert.ok(Array.isArray(arr));
  assert.equal(arr.length, 2);
});

test("2025-03-26 batches over Streamable HTTP (JSON-RPC 2.0 §6, linked by the 2025-03-26 schema's JSONRPCBatchRequest: an invalid member gets its own error, the valid members are still processed): the POST's answer holds both, as the kernel answers the batch on stdio (SSE and JSON)", async () => {
  const V3 = "2025-03-26";
  for (const enableJsonResponse of [false, true]) {
    const { handler, tools } = makeHandler(new Tools(), { enableJsonResponse });
    const sid = await open(handler, V3);
    const batch = [call(1, "echo", { text: "hi" }), { jsonrpc: "2.0", id: 2, method: "ping", params: [] }, { jsonrpc: "2.0", method: "notifications/roots/list_changed", params: 3 }, { jsonrpc: "2.0", method: "notifications/roots/list_changed" }];
    const r = await post(handler, batch, sid, V3);
    assert.equal(r.status, 200, `json=${enableJsonResponse}`);
    const got = enableJsonResponse ? await r.json() : messages(await new SseReader(r).rest());
    // The invalid request's error names its id; the invalid notification's has none, as on stdio.
    assert.deepEqual(got, [
      { jsonrpc: "2.0", id: 2, error: { code: ErrorCode.InvalidRequest, message: "Invalid Request: params must be an object" } },
      { jsonrpc: "2.0", error: { code: ErrorCode.InvalidRequest, message: "Invalid Request: params must be an object" } },
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hi" }] } },
    ]);
    // No valid request: nothing can carry the errors but a 400 (as for a lone invalid message), its
    // body their array; the valid members still run (here a cancellation, which ends the wait's stream).
    const waiting = post(handler, call(7, "wait"), sid, V3);
    await tools.waiting();
    const none = await post(handler, [{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } }, 3, { jsonrpc: "2.0", id: 8, method: 9 }], sid, V3);
    assert.equal(none.status, 400);
    assert.deepEqual((await none.json()).map((e: any) => [e.id, e.error.code]), [[undefined, ErrorCode.InvalidRequest], [8, ErrorCode.InvalidRequest]]);
    assert.equal(tools.contexts.at(-1)!.signal.aborted, true);
    assert.doesNotMatch(await (await waiting).text(), /"id":7/, "the cancelled request's answer ends without a response");
    assert.ok(!tools.diagnostics.includes("response-unrouted"));
    handler.close();
  }
});

test("2025-03-26 basic/index: implementations MUST support receiving JSON-RPC batches — a POST of [notifications/initialized, ping] initializes the session, then answers the ping (SSE and JSON)", async () => {
  for (const enableJsonResponse of [false, true]) {
    const tools = new Tools();
    const { handler } = makeHandler(tools, { enableJsonResponse });
    const r = await post(handler, initializeMessage("2025-03-26"));
    const sid = r.headers.get("mcp-session-id")!;
    await r.text();
    assert.equal(tools.endpoints[0].state.phase.name, "awaiting-initialized");
    const b = await post(handler, [{ jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: 1, method: "ping" }], sid, "2025-03-26");
    assert.equal(b.status, 200, `json=${enableJsonResponse}`);
    const got = enableJsonResponse ? await b.json() : messages(await new SseReader(b).rest());
    assert.deepEqual(got, [{ jsonrpc: "2.0", id: 1, result: {} }]);
    assert.equal(tools.endpoints[0].state.phase.name, "operating");
    assert.ok(!tools.diagnostics.includes("unexpected-initialized"));
  }
});

test("2025-03-26 transports (a POST holding requests MUST get text/event-stream or application/json): an application hook that throws on another member of the batch does not turn the POST into a 500 while its request runs on: the request is answered on the POST, the error is a handler-error diagnostic", { timeout: 10_000 }, async () => {
  for (const enableJsonResponse of [false, true]) {
    const tools = new Tools();
    const diagnostics: string[] = [];
    let armed = false;
    const handler = createHttpHandler({
      // The unknown notification's diagnostic reaches onEvent, which throws.
      createSession: setupWith(tools, { onEvent: (e) => { if (armed && e.type === "diagnostic") throw new Error("onEvent failed"); } }),
      sessionIdleMs: 0,
      enableJsonResponse,
      onDiagnostic: (d) => diagnostics.push(`${d.code}: ${d.message}`),
    });
    const sid = await open(handler, "2025-03-26");
    armed = true;
    const r = await post(handler, [{ jsonrpc: "2.0", method: "notifications/unknown" }, call(1, "echo", { text: "ran" })], sid, "2025-03-26");
    assert.equal(r.status, 200, `json=${enableJsonResponse}`);
    const got = enableJsonResponse ? await r.json() : messages(await new SseReader(r).rest());
    assert.deepEqual(got, [{ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "ran" }] } }]);
    assert.deepEqual(diagnostics, ["handler-error: onEvent failed"]);
  }
});

test("basic/index duplicate ids over HTTP: the kernel's duplicate-id error goes to the POST that carried the duplicate", async () => {
  const { handler, tools } = makeHandler();
  const sid = await open(handler);
  const first = new SseReader(await post(handler, call(4, "wait"), sid, V));
  await first.message();
  const dup = new SseReader(await post(handler, call(4, "echo"), sid, V));
  const { msg } = await dup.message();
  assert.equal(msg.id, 4);
  assert.equal(msg.error.code, ErrorCode.InvalidRequest);
  assert.equal(await dup.next(), undefined);
  tools.release();
  assert.equal((await first.message()).msg.params.data, "two");
  assert.equal((await first.message()).msg.result.content[0].text, "waited");
});

test("lifecycle over HTTP: an initialize the kernel refuses creates no session and sends no MCP-Session-Id", async () => {
  const { handler, tools } = makeHandler();
  const r = await post(handler, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: V } });
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("mcp-session-id"), null);
  assert.equal((await r.json()).error.code, ErrorCode.InvalidParams);
  assert.equal(handler.sessionCount, 0);
  assert.deepEqual(tools.closed, ["initialize failed"]);
  // A second initialize on a live session is the kernel's to refuse.
  const sid = await open(handler);
  const again = new SseReader(await post(handler, initializeMessage(), sid, V));
  assert.equal((await again.message()).msg.error.code, ErrorCode.InvalidRequest);
});

test("README Limits (maxMessageBytes: -32600 naming the limit, id echoed, HTTP 400 in both eras): an initialize over the session's maxMessageBytes gets the reply a session's body gets, and leaves no session behind", async () => {
  const tools = new Tools();
  const heard: string[] = [];
  const setup = setupWith(tools, { onOpen: () => heard.push("open"), onClose: (reason) => heard.push(`close: ${reason}`) }, { maxMessageBytes: 1000 });
  const handler = createHttpHandler({ maxSessions: 1, sessionIdleMs: 0, createSession: setup });
  const big = initializeMessage(V, 7);
  (big.params as { clientInfo: JsonObject }).clientInfo.padding = "p".repeat(5000);
  const r = await post(handler, big);
  assert.equal(r.status, 400);
  assert.deepEqual(await r.json(), { jsonrpc: "2.0", id: 7, error: { code: ErrorCode.InvalidRequest, message: "Invalid Request: message exceeds maxBytes (1000)" } });
  assert.equal(r.headers.get("mcp-session-id"), null);
  assert.equal(handler.sessionCount, 0);
  // The factory ran: the application hears that this session ends before it opened.
  assert.deepEqual(heard, ["close: initialize exceeds the session's maxMessageBytes (1000) or maxDepth (64): the session was not opened"]);
  // Not counted toward maxSessions (1): an initialize within the limit opens the one session.
  await open(handler);
  assert.equal(handler.sessionCount, 1);
});

test("README Limits (maxDepth: -32600 naming the limit, HTTP 400 in both eras): an initialize deeper than the session's maxDepth gets the reply a session's body gets, and opens no session", async () => {
  const handler = createHttpHandler({ sessionIdleMs: 0, createSession: setupWith(new Tools(), {}, { maxDepth: 10 }) });
  const init = initializeMessage(V, 7);
  (init.params as { clientInfo: JsonObject }).clientInfo.deep = nested(12);
  const r = await post(handler, init);
  assert.equal(r.status, 400);
  assert.deepEqual(await r.json(), { jsonrpc: "2.0", id: 7, error: { code: ErrorCode.InvalidRequest, message: "Invalid Request: message exceeds maxDepth (10)" } });
  assert.equal(r.headers.get("mcp-session-id"), null);
  assert.equal(handler.sessionCount, 0);
});

test("limits: an open session's own maxMessageBytes and maxDepth apply to its POST bodies (400 before the kernel)", async () => {
  const tools = new Tools();
  const base = setupWith(tools);
  const handler = createHttpHandler({ createSession: () => ({ ...base(), options: { ...base().options, maxDepth: 4 } }), sessionIdleMs: 0 });
  const sid = await open(handler);
  const deep = await post(handler, call(1, "echo", { a: { b: { c: {} } } }), sid, V);
  assert.equal(deep.status, 400);
  assert.equal((await deep.json()).id, 1);
});

test("sessions are bounded: maxSessions (503), an unusable generated id (500), a throwing factory (500)", async () => {
  const { handler } = makeHandler(new Tools(), { maxSessions: 1 });
  await open(handler);
  assert.equal((await post(handler, initializeMessage())).status, 503);
  const badId = makeHandler(new Tools(), { sessionIdGenerator: () => "has space" }).handler;
  assert.equal((await post(badId, initializeMessage())).status, 500);
  const seen: string[] = [];
  const throwing = createHttpHandler({
    createSession: () => {
      throw "no";
    },
    onDiagnostic: (d) => seen.push(d.code + ": " + d.message),
  });
  assert.equal((await post(throwing, initializeMessage())).status, 500);
  assert.deepEqual(seen, ["handler-error: no"]);
  const throwsError = createHttpHandler({
    createSession: () => {
      throw new Error("factory failed");
    },
    onDiagnostic: (d) => seen.push(d.message),
  });
  assert.equal((await post(throwsError, initializeMessage())).status, 500);
  assert.equal(seen.at(-1), "factory failed");
  let n = 0;
  const custom = makeHandler(new Tools(), { sessionIdGenerator: () => "sess-" + ++n }).handler;
  const r = await post(custom, initializeMessage());
  assert.equal(r.headers.get("mcp-session-id"), "sess-1");
  assert.throws(() => createHttpHandler({ createSession: setupWith(new Tools()), retryMs: -1 }), RangeError);
});

test("sessions are bounded: a principalOf that throws answers 500, opens no session, and the application hears onClose for the setup its factory made", async () => {
  const closes: string[] = [];
  const handler = createHttpHandler({
    createSession: setupWith(new Tools(), {
      principalOf: () => {
        throw new Error("no principal");
      },
      onClose: (reason: string) => void closes.push(reason),
    }),
  });
  const r = await post(handler, initializeMessage());
  assert.equal(r.status, 500);
  assert.equal(r.headers.get("mcp-session-id"), null);
  assert.equal(handler.sessionCount, 0);
  assert.deepEqual(closes, ["principalOf failed: the session was not opened"]);
});

test("sessions end after sessionIdleMs without requests or open connections", async () => {
  const clock = new ManualClock();
  const { handler, tools } = makeHandler(new Tools(), { clock, sessionIdleMs: 1000 });
  const sid = await open(handler);
  clock.advance(600);
  (await post(handler, { jsonrpc: "2.0", method: "notifications/roots/list_changed" }, sid, V)).body?.cancel();
  clock.advance(600);
  assert.equal(handler.sessionCount, 1, "activity at 600 ms pushed the deadline to 1600 ms");
  // An open GET stream keeps it alive.
  const g = new SseReader(await get(handler, sid, V));
  clock.advance(5000);
  assert.equal(handler.sessionCount, 1);
  await g.cancel();
  clock.advance(1000);
  assert.equal(handler.sessionCount, 0);
  assert.deepEqual(tools.closed, ["session idle timeout (no request or open stream for sessionIdleMs 1000 ms)"]);
  assert.equal((await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, sid, V)).status, 404);
  // A session DELETEd before its idle deadline disarms its timer.
  const other = await open(handler);
  await handler(new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": other, "mcp-protocol-version": V } }));
  clock.advance(5000);
  assert.deepEqual(tools.closed, ["session idle timeout (no request or open stream for sessionIdleMs 1000 ms)", "session terminated by the client (HTTP DELETE)"]);
});

test("README Deploying (a legacy session ends sessionIdleMs after its last request once it has no open connection): in JSON-response mode a client waiting on its POST is an open connection, so a tool running past sessionIdleMs gets its own answer, not -32000; a client that aborted its POST keeps the session no longer, and it expires", async () => {
  const clock = new ManualClock();
  const { handler, tools } = makeHandler(new Tools(), { clock, enableJsonResponse: true, sessionIdleMs: 1000 });
  const sid = await open(handler);
  const pending = post(handler, call(1, "wait"), sid, V);
  await tools.waiting();
  clock.advance(5000);
  assert.equal(handler.sessionCount, 1, "the client still waits on its POST");
  tools.release();
  assert.deepEqual(await (await pending).json(), { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "waited" }] } });
  clock.advance(1000);
  assert.equal(handler.sessionCount, 0, "answered, the session idles out");
  // The runtime reports a client that left (node's bridge: the socket's close; a fetch runtime: the request's signal).
  const other = await open(handler);
  const left = new AbortController();
  void handler(new Request(URL_, { method: "POST", headers: postHeaders(other, V), body: JSON.stringify(call(2, "wait")), signal: left.signal }));
  await tools.waiting();
  left.abort();
  clock.advance(1000);
  assert.equal(handler.sessionCount, 0);
  assert.equal(tools.contexts.at(-1)!.signal.aborted, true, "its tool is cancelled with the session");
  assert.deepEqual(tools.closed, ["session idle timeout (no request or open stream for sessionIdleMs 1000 ms)", "session idle timeout (no request or open stream for sessionIdleMs 1000 ms)"]);
});

test("transports/Sending Messages item 6 (the stream SHOULD include the response): what a tool writes at once, more events than the replay log keeps, reaches the POST's stream in full", async () => {
  const { handler, tools } = makeHandler(new Tools(), { eventStore: { maxEventsPerStream: 10 } });
  const sid = await open(handler);
  const got = messages(await new SseReader(await post(handler, call(3, "burst", { count: 25 }), sid, V)).rest());
  assert.equal(got.filter((m) => m.method === "notifications/message").length, 25);
  assert.equal(got.at(-1).id, 3);
  assert.deepEqual(tools.diagnostics, [], "no message-lost");
});

test("basic/index duplicate ids in one 2025-03-26 batch: the duplicate gets -32600 and the first request still gets its response on the same stream, which then ends (SSE and JSON)", async () => {
  for (const enableJsonResponse of [false, true]) {
    const { handler, tools } = makeHandler(new Tools(), { enableJsonResponse });
    const sid = await open(handler, "2025-03-26");
    const answer = post(handler, [call(6, "wait"), { jsonrpc: "2.0", id: 6, method: "tools/list" }], sid, "2025-03-26");
    await tools.waiting();
    tools.release();
    const r = await answer;
    const got = enableJsonResponse ? await r.json() : messages(await new SseReader(r).rest());
    assert.deepEqual(got.filter((m: any) => m.id === 6).map((m: any) => m.error?.code ?? m.result.content[0].text), [ErrorCode.InvalidRequest, "waited"], `json: ${enableJsonResponse}`);
  }
});

test("2025-11-25 tasks over Streamable HTTP: tasks/get is answered with one JSON body, never an SSE stream ('servers SHOULD NOT upgrade to an SSE stream in response to a tasks/get'); other requests still get their stream", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  server.tool("job", { execution: { taskSupport: "optional" } }, () => ({ content: [{ type: "text" as const, text: "done" }] }));
  const handler = createHttpHandler({ createSession: server.httpSession() });
  const sid = await open(handler);
  const created = await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "job", arguments: {}, task: {} } }, sid, V);
  assert.equal(created.headers.get("content-type"), "text/event-stream");
  const { msg } = await new SseReader(created).message();
  const taskId = msg.result.task.taskId as string;
  const polled = await post(handler, { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId } }, sid, V);
  assert.equal(polled.status, 200);
  assert.equal(polled.headers.get("content-type"), "application/json");
  const body = await polled.json();
  assert.equal(body.id, 2);
  assert.equal(body.result.taskId, taskId);
  // An unknown task is a JSON error body too.
  const unknown = await (await post(handler, { jsonrpc: "2.0", id: 3, method: "tasks/get", params: { taskId: "nope" } }, sid, V)).json();
  assert.equal(unknown.error.code, ErrorCode.InvalidParams);
  handler.close();
  server.close();
});

test("transports (Sending Messages item 6: the SSE stream SHOULD eventually include a JSON-RPC response): a session that ends while its requests run (DELETE, idle expiry, the server closing) answers each on its POST with an error, on an SSE stream and in a JSON body (200, not the 404 of an unknown session, after which a client would start a new session and run the tool again)", async () => {
  const clock = new ManualClock();
  for (const json of [false, true]) {
    // (A client waiting on its POST, SSE or JSON, keeps its session from idling: idle expiry
    // is tried on a JSON exchange whose client aborted its POST, answered all the same for
    // whatever still carries it.)
    for (const end of json ? (["DELETE", "idle", "close"] as const) : (["DELETE", "close"] as const)) {
      const { handler, tools } = makeHandler(new Tools(), { clock, enableJsonResponse: json, sessionIdleMs: end === "idle" ? 1000 : 0 });
      const sid = await open(handler);
      const left = new AbortController();
      const running = handler(new Request(URL_, { method: "POST", headers: postHeaders(sid, V), body: JSON.stringify(call(7, "wait")), signal: left.signal }));
      await tools.waiting();
      if (end === "DELETE") await handler(new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": sid, "mcp-protocol-version": V } }));
      else if (end === "idle") {
        left.abort();
        clock.advance(1000);
      } else await handler.close();
      const res = await running;
      assert.equal(res.status, 200, `${json ? "JSON" : "SSE"}, ${end}`);
      // (On the SSE stream, the tool's log comes first.)
      const answers = json ? [await res.json()] : messages(await new SseReader(res).rest()).filter((m) => !("method" in m));
      assert.equal(answers.length, 1, `${end}: one answer`);
      assert.equal(answers[0].id, 7);
      assert.equal(answers[0].error.code, ErrorCode.ConnectionClosed);
      assert.match(answers[0].error.message, /^session terminated: /);
      assert.equal(tools.closed.length, 1);
    }
  }
  // A request whose client left (its stream has no connection): nothing to tell, nothing reported lost.
  const lost: string[] = [];
  const { handler, tools } = makeHandler(new Tools(), { clock, onDiagnostic: (d) => void (d.code === "message-lost" && lost.push(d.message)) });
  const sid = await open(handler);
  const left = new SseReader(await post(handler, call(8, "wait"), sid, V));
  await tools.waiting();
  await left.cancel();
  await handler(new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": sid, "mcp-protocol-version": V } }));
  assert.deepEqual(lost, [], "the termination notice is not a lost message");
});
