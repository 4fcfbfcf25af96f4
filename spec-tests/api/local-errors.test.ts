// Spec: draft basic/index, "Error Codes": errors that are purely local to an implementation
// (a request timeout raised inside an SDK, say) have no codes of their own, and
// "Implementations surfacing local errors in JSON-RPC-shaped structures should ensure they
// cannot be mistaken for errors received from the peer". A failed request's McpError says
// which it is (`fromPeer`), on every path: the session reducer, the endpoint, the HTTP
// client's own answers for requests it could not carry, and the modern probe.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, rejection, CLIENT } from "./setup.js";
import { Pair, sendsOf } from "../harness/pair.js";
import { McpClient } from "../../src/api/client.js";
import { McpError } from "../../src/driver/endpoint.js";
import { echoed, ECHO_LIMIT, ErrorCode } from "../../src/jsonrpc/errors.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import type { SessionOutput } from "../../src/session/types.js";
import { URL_ } from "../http/helpers.js";
import { legacyHandler, MV } from "../http/modern-helpers.js";

const errorsOf = (outputs: SessionOutput[]) => outputs.filter((o): o is Extract<SessionOutput, { type: "error" }> => o.type === "error");

test("draft basic/index (local errors): the session reducer marks the peer's error response fromPeer, and the errors it makes itself (timeout, malformed answer, a transport's stand-in) not", () => {
  const p = new Pair({}, { capabilities: { tools: {} } });
  p.handshake();
  p.handlers.server = () => {};
  const peer = p.request("client", "tools/list");
  p.run();
  // The peer's own error, even one whose text reads like a local failure.
  const [answered] = errorsOf(p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: peer, error: { code: -32000, message: "connection closed: upstream" } })));
  assert.deepEqual(answered, { type: "error", id: peer, method: "tools/list", error: { code: -32000, message: "connection closed: upstream" }, fromPeer: true });

  const malformed = p.request("client", "tools/list");
  p.run();
  const [bad] = errorsOf(p.inject("client", JSON.stringify({ jsonrpc: "2.0", id: malformed, result: {}, error: { code: 1, message: "both" } })));
  assert.equal(bad.error.code, ErrorCode.InternalError);
  assert.equal(bad.fromPeer, undefined);

  const carried = p.request("client", "tools/list");
  p.run();
  const [local] = errorsOf(p.feed("client", { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: carried, error: { code: -32000, message: "connection closed: POST failed" } }), local: true }));
  assert.deepEqual(local, { type: "error", id: carried, method: "tools/list", error: { code: -32000, message: "connection closed: POST failed" } });

  p.request("client", "tools/list", undefined, { timeoutMs: 10 });
  p.run();
  const before = p.of("client", "error").length;
  p.advance(10);
  const timedOut = p.of("client", "error").slice(before);
  assert.deepEqual(timedOut.map((e) => [e.error.code, e.fromPeer]), [[ErrorCode.RequestTimeout, undefined]]);
});

test("draft basic/index (local errors): McpError.fromPeer is true for the error a server's handler threw and false for the client's timeout and for a closed connection", async () => {
  const { client, clock } = await connect((s) => {
    s.prompt("refuse", {}, () => {
      throw new McpError({ code: -32050, message: "quota exhausted" });
    });
    s.tool("hang", {}, () => new Promise(() => {}));
  });
  const refused = await rejection(client.getPrompt("refuse"));
  assert.deepEqual([refused.code, refused.message, refused.fromPeer], [-32050, "quota exhausted", true]);

  const late = client.callTool("hang", {}, { timeoutMs: 50 });
  clock.advance(50);
  const timedOut = await rejection(late);
  assert.equal(timedOut.code, ErrorCode.RequestTimeout);
  assert.equal(timedOut.fromPeer, false);

  const cut = client.callTool("hang", {});
  await Promise.resolve();
  client.close();
  const closed = await rejection(cut);
  assert.equal(closed.code, ErrorCode.ConnectionClosed);
  assert.equal(closed.fromPeer, false);
  // An error the application makes itself is its own.
  assert.equal(new McpError({ code: 1, message: "mine" }).fromPeer, false);
});

test("draft basic/index (local errors) over Streamable HTTP: the client's own answer for a POST that failed is local; the server's error, with or without the request's id, is the peer's", async () => {
  const handler = legacyHandler();
  let mode: "pass" | "network" | "500" | "413" = "pass";
  const t = httpClientTransport(URL_, {
    sleep: async () => {},
    fetch: async (url, init) => {
      const body = JSON.parse(String(init?.body)) as { method?: string };
      if (body.method === "tools/call" && mode === "network") throw new TypeError("fetch failed");
      if (body.method === "tools/call" && mode === "500") return new Response("oops", { status: 500 });
      if (body.method === "tools/call" && mode === "413") {
        return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: ErrorCode.InvalidRequest, message: "body too large" } }), { status: 413, headers: { "content-type": "application/json" } });
      }
      return handler(new Request(url, init));
    },
  });
  const client = new McpClient(CLIENT);
  await client.connect(t);
  const outcome = async () => {
    const e = await rejection(client.callTool("missing", {}));
    return [e.code, e.message, e.fromPeer];
  };
  // The server's own -32603 (its handler threw) and this side's (a 500 without a JSON-RPC body) differ only in fromPeer and the text.
  assert.deepEqual(await outcome(), [ErrorCode.InternalError, "no such tool", true]);
  mode = "413";
  assert.deepEqual(await outcome(), [ErrorCode.InvalidRequest, "HTTP 413: body too large", true]);
  mode = "500";
  assert.deepEqual(await outcome(), [ErrorCode.InternalError, "HTTP 500", false]);
  mode = "network";
  assert.deepEqual(await outcome(), [ErrorCode.ConnectionClosed, "connection closed: POST failed: fetch failed", false]);
  client.close();
});

test("draft basic/versioning (a modern-only client): the server/discover probe failing on this side reads as a server not reached; the server's own -32000, worded as a local failure, reads as an answer (not modern)", async () => {
  for (const [fails, expected] of [
    [true, /^the server could not be reached \(server\/discover: -32000 connection closed: POST failed/],
    [false, /^the server is not a modern server this client can talk to \(server\/discover: -32000 connection closed: POST failed/],
  ] as const) {
    const t = httpClientTransport(URL_, {
      sleep: async () => {},
      fetch: async (_url, init) => {
        if (fails) throw new TypeError("POST failed");
        const { id } = JSON.parse(String(init?.body)) as { id: unknown };
        return new Response(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32000, message: "connection closed: POST failed upstream" } }), { status: 200, headers: { "content-type": "application/json" } });
      },
    });
    const client = new McpClient(CLIENT, { session: { versions: [MV] } });
    const e = await rejection(client.connect(t));
    assert.match(e.message, expected, String(fails));
    client.close();
  }
});

test("basic/index (an error answers its requester): the peer's text an error message repeats (a tool or method name) is cut at ECHO_LIMIT characters, never inside a surrogate pair, so a long name's error stays within the requester's own size limit; data keeps the whole name", async () => {
  assert.equal(echoed("x".repeat(ECHO_LIMIT)), "x".repeat(ECHO_LIMIT));
  assert.equal(echoed("x".repeat(ECHO_LIMIT + 5)), `${"x".repeat(ECHO_LIMIT)}… (5 more characters)`);
  const pair = "x".repeat(ECHO_LIMIT - 1) + "\u{1F600}";
  assert.equal(echoed(pair), `${"x".repeat(ECHO_LIMIT - 1)}… (2 more characters)`);

  const { client } = await connect((s) => s.tool("t", {}, () => ({ content: [] })));
  const name = "n".repeat(100_000);
  const unknown = await rejection(client.callTool(name, {}));
  assert.equal(unknown.code, ErrorCode.InvalidParams);
  assert.equal(unknown.message, `Unknown tool: ${echoed(name)}`);
  assert.equal(unknown.data.name, name);
  // The session's own -32601, to a peer that sent an unknown method.
  const p = new Pair();
  p.handshake();
  const [reply] = sendsOf(p.inject("server", JSON.stringify({ jsonrpc: "2.0", id: 9, method: `x/${name}` })));
  assert.equal(reply.error.code, ErrorCode.MethodNotFound);
  assert.equal(reply.error.message, `Method not found: ${echoed(`x/${name}`)}`);
});

test("basic/utilities/ping (\"Timeouts SHOULD be treated as connection failures\") with local errors: a keep-alive ping this side's transport could not carry (-32000: the server unreachable) counts as missed, so keepAliveMaxMissed closes the connection; an error the peer sent for it, or another local one (an HTTP error status), shows something answered", () => {
  const p = new Pair({ keepAliveMs: 100, keepAliveMaxMissed: 2 });
  p.handshake();
  const ping = (at: number) => {
    p.now = at;
    const [sent] = sendsOf(p.feed("client", { type: "tick", now: at }));
    assert.equal(sent?.method, "ping", `a ping at ${at}`);
    return sent.id as number;
  };
  const answer = (id: number, local: boolean, code = -32000) =>
    p.feed("client", { type: "receive", now: p.now, data: JSON.stringify({ jsonrpc: "2.0", id, error: { code, message: "connection closed: POST failed" } }), local });
  // The peer's own error: alive, nothing counted.
  assert.deepEqual(answer(ping(100), false), []);
  assert.deepEqual(answer(ping(200), true), [{ type: "stale", missed: 1 }]);
  // A local -32603 (an HTTP error status without a JSON-RPC body: something answered) is no missed ping; the count starts again.
  assert.deepEqual(answer(ping(300), true, -32603), []);
  const first = answer(ping(400), true);
  assert.deepEqual(first, [{ type: "stale", missed: 1 }]);
  const second = answer(ping(500), true);
  assert.deepEqual(second.map((o) => o.type), ["stale", "close"]);
  assert.match((second[1] as { reason: string }).reason, /answered no keep-alive ping, 2 in a row \(one every 100 ms\)/);
});
