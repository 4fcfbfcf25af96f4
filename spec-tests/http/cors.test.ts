// CORS on the Streamable HTTP endpoint (src/transports/http/cors.ts). The spec has no CORS
// section; what is traced here is 2025-11-25 basic/transports "Security Warning" (servers
// MUST validate the Origin header: CORS follows that check and never widens it) and
// "Session Management" (the client MUST send back the MCP-Session-Id it was given, which
// a cross-origin page can only read when the server exposes it), for both eras.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveNode } from "../../src/transports/http-node.js";
import { ACCEPT_BOTH, get, initializeMessage, makeHandler, post, Tools, URL_ } from "./helpers.js";
import { modernHandler, modernRequest, postModern } from "./modern-helpers.js";
import type { HttpHandler } from "../../src/transports/http-server.js";

const PAGE = "http://localhost:5173";

function preflight(handler: HttpHandler, origin: string | null, requestHeaders = "content-type, mcp-protocol-version, mcp-session-id", method = "POST"): Promise<Response> {
  const headers: Record<string, string> = { "access-control-request-method": method, "access-control-request-headers": requestHeaders };
  if (origin !== null) headers.origin = origin;
  return handler(new Request(URL_, { method: "OPTIONS", headers }));
}

test("transports/Security Warning + CORS: an allowed origin's preflight gets 204 echoing that origin (never *), the MCP methods and the headers it asked for", async () => {
  const { handler } = makeHandler();
  const r = await preflight(handler, PAGE, "Content-Type, MCP-Protocol-Version, Mcp-Session-Id, Mcp-Param-Region, Last-Event-ID, bad header, (x)");
  assert.equal(r.status, 204);
  assert.equal(r.headers.get("access-control-allow-origin"), PAGE);
  assert.equal(r.headers.get("access-control-allow-methods"), "GET, POST, DELETE");
  // Names are echoed (Mcp-Param-* depend on the tool); what is not a header name is dropped.
  assert.equal(r.headers.get("access-control-allow-headers"), "Content-Type, MCP-Protocol-Version, Mcp-Session-Id, Mcp-Param-Region, Last-Event-ID");
  assert.equal(r.headers.get("vary"), "Origin");
  assert.equal(r.headers.get("access-control-allow-credentials"), null);
  assert.equal(handler.sessionCount, 0, "a preflight opens no session");
  // A modern-only server offers POST alone.
  const modernOnly = makeHandler(new Tools(), { legacy: false }).handler;
  assert.equal((await preflight(modernOnly, PAGE)).headers.get("access-control-allow-methods"), "POST");
});

test("transports/Security Warning: an origin outside allowedOrigins gets 403 for its preflight too, with no CORS headers; OPTIONS without Origin stays 405", async () => {
  const { handler } = makeHandler(new Tools(), { allowedOrigins: ["https://app.example"] });
  for (const origin of ["https://evil.example", PAGE, "null"]) {
    const r = await preflight(handler, origin);
    assert.equal(r.status, 403, origin);
    assert.equal(r.headers.get("access-control-allow-origin"), null, origin);
    await r.body?.cancel();
  }
  assert.equal((await preflight(handler, "https://app.example")).status, 204);
  const bare = await preflight(handler, null);
  assert.equal(bare.status, 405);
  assert.equal(bare.headers.get("access-control-allow-origin"), null);
});

test("transports/Session Management (legacy, cross-origin): initialize, the SSE GET and errors carry the origin, and MCP-Session-Id is exposed; a request without Origin gets no CORS headers", async () => {
  const { handler } = makeHandler();
  const init = await post(handler, initializeMessage(), undefined, undefined, { origin: PAGE });
  assert.equal(init.status, 200);
  assert.equal(init.headers.get("access-control-allow-origin"), PAGE);
  const exposed = init.headers.get("access-control-expose-headers")!.split(",").map((s) => s.trim());
  assert.deepEqual(exposed.sort(), ["mcp-protocol-version", "mcp-session-id", "www-authenticate"]);
  const sid = init.headers.get("mcp-session-id")!;
  await init.text();
  const stream = await get(handler, sid, "2025-11-25", undefined, { origin: PAGE });
  assert.equal(stream.status, 200);
  assert.equal(stream.headers.get("access-control-allow-origin"), PAGE);
  await stream.body?.cancel();
  // An error is readable too, so the page sees why (here: no session header).
  const err = await post(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, undefined, "2025-11-25", { origin: PAGE });
  assert.equal(err.status, 400);
  assert.equal(err.headers.get("access-control-allow-origin"), PAGE);
  await err.text();
  const plain = await post(handler, initializeMessage());
  assert.equal(plain.headers.get("access-control-allow-origin"), null);
  await plain.text();
});

test("draft streamable-http (cross-origin): a modern request's response carries the origin; cors: false answers no CORS at all", async () => {
  const { handler } = modernHandler();
  const r = await postModern(handler, modernRequest(1, "tools/list"), { origin: PAGE });
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("access-control-allow-origin"), PAGE);
  await r.text();
  const off = makeHandler(new Tools(), { cors: false }).handler;
  assert.equal((await preflight(off, PAGE)).status, 405);
  const init = await post(off, initializeMessage(), undefined, undefined, { origin: PAGE });
  assert.equal(init.status, 200, "the Origin check still admits it");
  assert.equal(init.headers.get("access-control-allow-origin"), null);
  await init.text();
});

test("CORS through the node:http bridge: the preflight and an SSE stream (the bridge's own reply path) carry the same headers", async () => {
  const { handler } = makeHandler();
  const srv = await serveNode(handler);
  try {
    const pre = await fetch(`${srv.url}/mcp`, { method: "OPTIONS", headers: { origin: PAGE, "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get("access-control-allow-origin"), PAGE);
    assert.equal(pre.headers.get("access-control-allow-headers"), "content-type");
    const init = await fetch(`${srv.url}/mcp`, { method: "POST", headers: { origin: PAGE, accept: ACCEPT_BOTH, "content-type": "application/json" }, body: JSON.stringify(initializeMessage()) });
    assert.equal(init.status, 200);
    assert.equal(init.headers.get("access-control-allow-origin"), PAGE);
    assert.match(init.headers.get("access-control-expose-headers")!, /mcp-session-id/);
    await init.text();
    const sid = init.headers.get("mcp-session-id")!;
    const stream = await fetch(`${srv.url}/mcp`, { headers: { origin: PAGE, accept: "text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" } });
    assert.equal(stream.headers.get("content-type"), "text/event-stream");
    assert.equal(stream.headers.get("access-control-allow-origin"), PAGE);
    await stream.body?.cancel();
  } finally {
    handler.close();
    await srv.close();
  }
});
