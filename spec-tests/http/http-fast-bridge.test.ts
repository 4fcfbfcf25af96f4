// Spec: 2025-11-25 basic/transports ("Streamable HTTP": Sending Messages items 2-6,
// Session Management, Protocol Version Header, Security Warning) and draft
// basic/transports/streamable-http (Request Metadata, Cancellation, Backward
// Compatibility). The node:http bridge serves a handler made by createHttpHandler through
// its fast entry (no `Request` per request, replies written as they are); every MUST the
// handler's own tests check through `Request`/`Response` must hold byte for byte on that
// path too. Each exchange here goes over a raw socket to two servers with the same options,
// one through the fast entry and one through the public `(Request) => Promise<Response>`
// contract, and the two answers must be identical (the Date header aside).
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import { serveNode, type NodeServer } from "../../src/transports/http-node.js";
import { createHttpHandler, type HttpHandler, type HttpSessionContext } from "../../src/transports/http-server.js";
import { deferred, initializeMessage, setupWith, Tools } from "./helpers.js";
import { modernHandler, modernRequest, MV } from "./modern-helpers.js";

const V = "2025-11-25";

/** One HTTP/1.1 exchange on its own connection: the raw answer, without its Date header. */
function exchange(port: number, head: string, body = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, "127.0.0.1", () => sock.end(head + "\r\n" + body));
    let text = "";
    sock.setEncoding("latin1");
    sock.on("data", (d: string) => (text += d));
    sock.on("end", () => resolve(text.replace(/^Date: .*\r\n/im, "")));
    sock.on("error", reject);
  });
}

/** Request head lines (Connection: close, so the answer ends with the connection). */
function head(method: string, path: string, headers: string[], body?: string): string {
  const lines = [`${method} ${path} HTTP/1.1`, ...headers, "Connection: close"];
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return lines.join("\r\n") + "\r\n";
}

/** Two servers with the same options: the handler as the bridge finds it (fast entry), and behind a plain function (public entry). */
async function pair(options: { enableJsonResponse?: boolean } = {}): Promise<{ fast: NodeServer; plain: NodeServer; tools: Tools[]; close(): Promise<void> }> {
  const make = (): { handler: HttpHandler; tools: Tools } => {
    let n = 0;
    const tools = new Tools();
    const { handler } = modernHandler(tools, {
      path: "/mcp",
      maxBodyBytes: 1000,
      enableJsonResponse: options.enableJsonResponse,
      sessionIdGenerator: () => `sid-${++n}`,
    });
    return { handler, tools };
  };
  const a = make();
  const b = make();
  const fast = await serveNode(a.handler);
  const plain = await serveNode((req) => b.handler(req));
  return { fast, plain, tools: [a.tools, b.tools], close: async () => void (await fast.close(), await plain.close()) };
}

const base = (port: number): string[] => [`Host: 127.0.0.1:${port}`];
const postHeaders = ["Accept: application/json, text/event-stream", "Content-Type: application/json"];

test("http fast entry: every POST/GET/DELETE rule answers byte for byte as through Request and Response (406, 415, 400, 404, 405, 403, 413, 202, SSE, JSON, modern)", async () => {
  const { fast, plain, close } = await pair();
  try {
    const init = JSON.stringify(initializeMessage(V));
    const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
    const echo = (id: number, text: string): string => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text } } });
    const session = ["MCP-Session-Id: sid-1", `MCP-Protocol-Version: ${V}`];
    const modern = modernRequest(7, "tools/call", { name: "echo", arguments: { text: "modern" } });
    const modernText = JSON.stringify(modern);
    const modernHeaders = [...postHeaders, `MCP-Protocol-Version: ${MV}`, "Mcp-Method: tools/call", "Mcp-Name: echo"];
    // [method, path, header lines, body]; the Host line is added per server.
    const cases: Array<[string, string, string[], string | undefined, number]> = [
      ["POST", "/mcp", postHeaders, init, 200],
      ["POST", "/mcp", [...postHeaders, ...session], initialized, 202],
      ["POST", "/mcp", [...postHeaders, ...session], echo(1, "sse"), 200],
      // Sending Messages item 2: Accept lists both (repeated fields are joined, as Headers joins them).
      ["POST", "/mcp", ["Accept: application/json", "Accept: text/event-stream", "Content-Type: application/json", ...session], echo(2, "joined"), 200],
      ["POST", "/mcp", ["Accept: application/json", "Content-Type: application/json", ...session], echo(3, "x"), 406],
      ["POST", "/mcp", ["Accept: application/json, text/event-stream", "Content-Type: text/plain", ...session], echo(4, "x"), 415],
      ["POST", "/mcp", [...postHeaders, "Content-Type: application/json", ...session], echo(5, "x"), 415],
      ["POST", "/mcp", postHeaders, echo(6, "x"), 400],
      ["POST", "/mcp", [...postHeaders, "MCP-Session-Id: nope", `MCP-Protocol-Version: ${V}`], echo(7, "x"), 404],
      ["POST", "/mcp", [...postHeaders, "MCP-Session-Id: sid-1", "MCP-Protocol-Version: 1999-01-01"], echo(8, "x"), 400],
      ["POST", "/mcp", [...postHeaders, ...session], "{not json", 400],
      ["POST", "/mcp", [...postHeaders, ...session], JSON.stringify({ pad: "x".repeat(2000) }), 413],
      ["POST", "/mcp", [...postHeaders, ...session, "Origin: http://evil.example"], echo(9, "x"), 403],
      ["POST", "/nope", [...postHeaders, ...session], echo(10, "x"), 404],
      ["PUT", "/mcp", [...postHeaders, ...session], echo(11, "x"), 405],
      ["TRACE", "/mcp", [], undefined, 501],
      ["GET", "/mcp", ["Accept: application/json", ...session], undefined, 406],
      ["GET", "/mcp", ["Accept: text/event-stream", ...session, "Last-Event-ID: 99-1"], undefined, 400],
      ["POST", "/mcp", modernHeaders, modernText, 200],
      ["POST", "/mcp", [...postHeaders, `MCP-Protocol-Version: ${MV}`, "Mcp-Method: tools/call", "Mcp-Name: other"], modernText, 400],
      ["GET", "/mcp", ["Accept: text/event-stream", `MCP-Protocol-Version: ${MV}`], undefined, 405],
      ["DELETE", "/mcp", session, undefined, 204],
      ["DELETE", "/mcp", session, undefined, 404],
    ];
    for (const [method, path, headers, body, status] of cases) {
      const a = await exchange(fast.port, head(method, path, [...base(fast.port), ...headers], body), body);
      const b = await exchange(plain.port, head(method, path, [...base(plain.port), ...headers], body), body);
      assert.equal(a.replace(String(fast.port), "PORT"), b.replace(String(plain.port), "PORT"), `${method} ${path} ${headers.join(" | ")}`);
      assert.match(a, new RegExp(`^HTTP/1\\.1 ${status} `), `${method} ${path}: status`);
    }
    // Security: the Host check (DNS rebinding, 403), a Host with credentials and one the URL parser refuses (400).
    for (const host of ["evil.example", "u:p@127.0.0.1", "[bad"]) {
      const lines = [`Host: ${host}`, ...postHeaders];
      const body = echo(12, "x");
      assert.equal(await exchange(fast.port, head("POST", "/mcp", lines, body), body), await exchange(plain.port, head("POST", "/mcp", lines, body), body), host);
    }
  } finally {
    await close();
  }
});

test("node bridge (RFC 9112 §3.2: a Host that is no authority is a 400; §3.2.2: an absolute-form target's authority stands for Host; RFC 9110 §4.2.4: credentials in the URL are an error): the request target is read as HTTP defines it, and what the bridge refuses itself gets a JSON-RPC error body, through both paths alike", async () => {
  const { fast, plain, close } = await pair();
  try {
    const body = JSON.stringify(initializeMessage(V));
    const both = async (method: string, target: string, lines: string[], withBody = true): Promise<string> => {
      const a = await exchange(fast.port, head(method, target, [...lines, ...postHeaders], withBody ? body : undefined), withBody ? body : "");
      const b = await exchange(plain.port, head(method, target, [...lines, ...postHeaders], withBody ? body : undefined), withBody ? body : "");
      assert.equal(a.replace(String(fast.port), "PORT"), b.replace(String(plain.port), "PORT"), `${method} ${target} ${lines.join(" | ")}`);
      return a;
    };
    const refusal = (reply: string, status: number, message: RegExp) => {
      assert.match(reply, new RegExp(`^HTTP/1\\.1 ${status} `));
      assert.match(reply, /\r\ncontent-type: application\/json\r\n/i);
      const error = JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4)).error;
      assert.match(error.message, message);
    };
    for (const host of ["", "localhost:99999999", "127.0.0.1/x", "u@127.0.0.1", "u:p@127.0.0.1", "[bad"]) {
      refusal(await both("POST", "/mcp", [`Host: ${host}`]), 400, /^Bad Request: (the Host header|the request (target|URL))/);
    }
    refusal(await both("TRACE", "/mcp", [`Host: 127.0.0.1:${fast.port}`], false), 501, /^Not Implemented: the method has no Fetch API request/);
    // §3.2.4: `OPTIONS *` is a valid target (the path `/*` here: not this endpoint's), not an unreadable one.
    refusal(await both("OPTIONS", "*", [`Host: 127.0.0.1:${fast.port}`], false), 404, /Not Found/);
    // `//evil.example/mcp` is a path on this host (not found here), not a request for another host's /mcp.
    refusal(await both("POST", "//evil.example/mcp", [`Host: 127.0.0.1:${fast.port}`]), 404, /Not Found/);
    // Absolute form: the target's authority is the one the DNS-rebinding check sees, whatever Host says.
    refusal(await both("POST", "http://evil.example/mcp", [`Host: 127.0.0.1:${fast.port}`]), 403, /Host not allowed/);
    const a = await exchange(fast.port, head("POST", `http://127.0.0.1:${fast.port}/mcp`, ["Host: evil.example", ...postHeaders], body), body);
    assert.match(a, /^HTTP\/1\.1 200 /);
  } finally {
    await close();
  }
});

test("http fast entry: a chunked body past maxBodyBytes gets 413 once the bound is passed, and the same connection then serves the next request", async () => {
  const { fast, close } = await pair();
  try {
    const answers = await new Promise<string>((resolve, reject) => {
      const sock = connect(fast.port, "127.0.0.1", () => {
        const chunk = "x".repeat(600);
        const chunked = `${(600).toString(16)}\r\n${chunk}\r\n`.repeat(3) + "0\r\n\r\n";
        sock.write(head("POST", "/mcp", [...base(fast.port), ...postHeaders, "Transfer-Encoding: chunked"]).replace("Connection: close\r\n", "") + "\r\n" + chunked);
        const init = JSON.stringify(initializeMessage(V));
        sock.end(head("POST", "/mcp", [...base(fast.port), ...postHeaders], init) + "\r\n" + init);
      });
      let text = "";
      sock.setEncoding("latin1");
      sock.on("data", (d: string) => (text += d));
      sock.on("end", () => resolve(text));
      sock.on("error", reject);
    });
    const statuses = [...answers.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
    assert.deepEqual(statuses, ["413", "200"]);
  } finally {
    await close();
  }
});

test("http fast entry (draft Cancellation): aborting a modern request's HTTP request aborts the handler's signal through the bridge, and the server serves on", async () => {
  const { fast, tools, close } = await pair({ enableJsonResponse: true });
  try {
    const msg = modernRequest(1, "tools/call", { name: "wait" });
    const headers = { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": MV, "mcp-method": "tools/call", "mcp-name": "wait" };
    const ac = new AbortController();
    const pending = fetch(fast.url + "/mcp", { method: "POST", headers, body: JSON.stringify(msg), signal: ac.signal }).catch(() => undefined);
    await tools[0].waiting();
    const ctx = tools[0].contexts.at(-1)!;
    assert.equal(ctx.signal.aborted, false);
    const aborted = deferred();
    ctx.signal.addEventListener("abort", () => aborted.resolve());
    ac.abort();
    await pending;
    await aborted.promise;
    tools[0].release();
    const ok = modernRequest(2, "tools/call", { name: "echo", arguments: { text: "ok" } });
    const r = await fetch(fast.url + "/mcp", { method: "POST", headers: { ...headers, "mcp-name": "echo" }, body: JSON.stringify(ok) });
    assert.equal(((await r.json()) as { result: { content: { text: string }[] } }).result.content[0].text, "ok");
  } finally {
    await close();
  }
});

test("http fast entry: the session factory's context still carries the request as a real Request (its headers, URL and method), in both eras", async () => {
  const seen: Array<{ era: string; auth: string | null; url: string; method: string; isRequest: boolean }> = [];
  const base = setupWith(new Tools());
  const reading = createHttpHandler({
    path: "/mcp",
    sessionIdleMs: 0,
    createSession: (ctx: HttpSessionContext) => {
      seen.push({ era: ctx.era, auth: ctx.request.headers.get("authorization"), url: new URL(ctx.request.url).pathname, method: ctx.request.method, isRequest: ctx.request instanceof Request });
      const s = base();
      return { ...s, options: { ...s.options, versions: [MV, V] } };
    },
  });
  const srv = await serveNode(reading);
  try {
    const h = { accept: "application/json, text/event-stream", "content-type": "application/json", authorization: "Bearer t" };
    const legacy = await fetch(srv.url + "/mcp", { method: "POST", headers: h, body: JSON.stringify(initializeMessage(V)) });
    assert.equal(legacy.status, 200);
    await legacy.text();
    const msg = modernRequest(1, "tools/call", { name: "echo", arguments: { text: "x" } });
    const modern = await fetch(srv.url + "/mcp", { method: "POST", headers: { ...h, "mcp-protocol-version": MV, "mcp-method": "tools/call", "mcp-name": "echo" }, body: JSON.stringify(msg) });
    assert.equal(modern.status, 200);
    await modern.text();
    assert.deepEqual(seen, [
      { era: "legacy", auth: "Bearer t", url: "/mcp", method: "POST", isRequest: true },
      { era: "modern", auth: "Bearer t", url: "/mcp", method: "POST", isRequest: true },
    ]);
  } finally {
    await srv.close();
    reading.close();
  }
});

test("http fast entry (2025-11-25 security_best_practices#session-hijacking): a session bound by principalOf answers another principal 404 and its own 200, reading the principal before the body without taking the body from the bridge's reader", async () => {
  const tools = new Tools();
  const setup = setupWith(tools);
  const bound = createHttpHandler({ path: "/mcp", sessionIdleMs: 0, createSession: () => ({ ...setup(), principalOf: (req) => req.headers.get("x-user") ?? undefined }) });
  const srv = await serveNode(bound);
  try {
    const h = (user: string, sid?: string) => ({ accept: "application/json, text/event-stream", "content-type": "application/json", "x-user": user, ...(sid ? { "mcp-session-id": sid, "mcp-protocol-version": V } : {}) });
    const init = await fetch(srv.url + "/mcp", { method: "POST", headers: h("alice"), body: JSON.stringify(initializeMessage(V)) });
    const sid = init.headers.get("mcp-session-id")!;
    await init.text();
    assert.equal((await fetch(srv.url + "/mcp", { method: "POST", headers: h("alice", sid), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).status, 202);
    // A body of many chunks: the principal is read before it, and the handler still gets all of it.
    const big = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "x".repeat(300_000) } } };
    const mine = await fetch(srv.url + "/mcp", { method: "POST", headers: h("alice", sid), body: JSON.stringify(big) });
    assert.equal(mine.status, 200);
    assert.match(await mine.text(), /"result"/);
    const theirs = await fetch(srv.url + "/mcp", { method: "POST", headers: h("bob", sid), body: JSON.stringify(big) });
    assert.equal(theirs.status, 404);
    await theirs.text();
  } finally {
    await srv.close();
    bound.close();
  }
});

test("http fast entry: an SSE answer goes from the session's connection to the socket without a web stream (Node 20 makes each ReadableStream transferable, which cost more than the rest of the answer), and the same answer through the public entry is one", async () => {
  const { fast, plain, close } = await pair();
  const Original = globalThis.ReadableStream;
  let made = 0;
  globalThis.ReadableStream = class extends Original<unknown> {
    constructor(...args: ConstructorParameters<typeof ReadableStream>) {
      super(...args);
      made++;
    }
  } as typeof ReadableStream;
  try {
    const session = ["MCP-Session-Id: sid-1", `MCP-Protocol-Version: ${V}`];
    const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "sse" } } });
    const seen: number[] = [];
    for (const server of [fast, plain]) {
      const ask = (lines: string[], body: string) => exchange(server.port, head("POST", "/mcp", [...base(server.port), ...postHeaders, ...lines], body), body);
      await ask([], JSON.stringify(initializeMessage(V)));
      await ask(session, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
      made = 0;
      const answer = await ask(session, call);
      assert.match(answer, /content-type: text\/event-stream[\s\S]*data: \{"jsonrpc":"2.0","id":1,"result"/i);
      seen.push(made);
    }
    assert.equal(seen[0], 0, "the fast entry made no web stream");
    assert.ok(seen[1] >= 1, "the public entry's Response carries one");
    // A modern answer streamed after the tool's logs (no session), through the fast entry.
    const modern = JSON.stringify(modernRequest(2, "tools/call", { name: "burst", arguments: { count: 2 } }, { "io.modelcontextprotocol/logLevel": "info" }));
    const modernLines = [...postHeaders, `MCP-Protocol-Version: ${MV}`, "Mcp-Method: tools/call", "Mcp-Name: burst"];
    made = 0;
    const streamed = await exchange(fast.port, head("POST", "/mcp", [...base(fast.port), ...modernLines], modern), modern);
    assert.match(streamed, /content-type: text\/event-stream[\s\S]*"method":"notifications\/message"[\s\S]*"id":2,"result"/i);
    assert.equal(made, 0, "a modern streamed answer made no web stream either");
  } finally {
    globalThis.ReadableStream = Original;
    await close();
  }
});
