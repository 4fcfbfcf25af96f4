// Spec: 2025-11-25 basic/transports ("Backwards Compatibility", client side): after a 400,
// 404 or 405 to its initialize POST, the client GETs the server URL, expects an SSE stream
// whose first event is `endpoint`, and then uses the deprecated HTTP+SSE transport of
// 2024-11-05 (basic/transports, "HTTP with SSE") for all that follows. The old server is a
// fetch function written here, and, as a real peer, the official SDK 1.x's
// SSEServerTransport on node:http.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server as Sdk1Server } from "@modelcontextprotocol/sdk/server/index.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpClient } from "../../src/api/client.js";
import { ENDPOINT_WAIT_MS, httpClientTransport, MAX_BODILESS_POSTS, POST_WAIT_MS, type HttpClientOptions } from "../../src/transports/http-client.js";
import { ManualClock } from "../../src/driver/clock.js";
import type { McpError } from "../../src/driver/endpoint.js";
import { attach } from "../../src/api/connection.js";
import { blockText } from "../harness/content.js";
import { until } from "./helpers.js";
import { collectUncaught } from "../harness/uncaught.js";

const SSE_URL = "http://127.0.0.1:8080/sse";
const INFO = { name: "c", version: "1" };

interface Seen {
  method: string;
  url: string;
  headers: Headers;
}

interface OldServerOptions {
  /** The answer to a POST on the SSE URL (a Streamable HTTP initialize). Default 404. */
  postStatus?: number;
  /** The `endpoint` event's data. Default `/messages?sessionId=1`. */
  endpoint?: string;
  /** Replaces the GET's answer. */
  get?: () => Response;
}

/**
 * A 2024-11-05 HTTP+SSE server as a fetch function: GET /sse opens the stream with its
 * `endpoint` event, each POST to the endpoint is answered 202 and its response written to
 * the stream as a `message` event. It negotiates 2024-11-05 and has one tool, `echo`.
 */
function oldServer(options: OldServerOptions = {}) {
  const seen: Seen[] = [];
  let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  const state = { aborted: false, cancelled: false };
  const write = (event: string, data: string) => stream!.enqueue(new TextEncoder().encode(`event: ${event}\ndata: ${data}\n\n`));
  const answer = (m: { id?: number; method: string; params?: { name?: string; arguments?: { text?: string } } }): unknown => {
    if (m.method === "initialize") return { protocolVersion: "2024-11-05", capabilities: { tools: {} }, serverInfo: { name: "old", version: "0.1" } };
    if (m.method === "tools/list") return { tools: [{ name: "echo", inputSchema: { type: "object" } }] };
    if (m.method === "tools/call") return { content: [{ type: "text", text: `echo: ${m.params?.arguments?.text}` }] };
    return {};
  };
  const fetch: NonNullable<HttpClientOptions["fetch"]> = async (url, init) => {
    const method = init.method ?? "GET";
    seen.push({ method, url, headers: new Headers(init.headers) });
    if (url === SSE_URL && method === "POST") return new Response("Cannot POST /sse", { status: options.postStatus ?? 404 });
    if (url === SSE_URL && method === "GET") {
      if (options.get !== undefined) return options.get();
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          stream = c;
        },
        cancel() {
          state.cancelled = true;
        },
      });
      // As fetch does: an abort errors the body being read.
      init.signal?.addEventListener("abort", () => {
        state.aborted = true;
        stream!.error(new DOMException("aborted", "AbortError"));
      });
      write("endpoint", options.endpoint ?? "/messages?sessionId=1");
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    if (url === "http://127.0.0.1:8080/messages?sessionId=1" && method === "POST") {
      const m = JSON.parse(String(init.body));
      if (m.id !== undefined && m.method !== undefined) write("message", JSON.stringify({ jsonrpc: "2.0", id: m.id, result: answer(m) }));
      return new Response("Accepted", { status: 202 });
    }
    return new Response("not found", { status: 404 });
  };
  return { fetch, seen, state, end: () => stream!.close(), write };
}

/** The requests a server saw, as `METHOD url`. */
const lines = (seen: Seen[]) => seen.map((s) => `${s.method} ${s.url}`);

for (const status of [400, 404, 405]) {
  test(`basic/transports Backwards Compatibility: an initialize POST refused with ${status} is followed by a GET whose endpoint event carries the session over HTTP+SSE (2024-11-05)`, async () => {
    const server = oldServer({ postStatus: status });
    const client = new McpClient(INFO);
    const transport = httpClientTransport(SSE_URL, { fetch: server.fetch, headers: { authorization: "Bearer t" } });
    await client.connect(transport);
    assert.equal(client.protocolVersion, "2024-11-05");
    // The transport learns the negotiated version from the answer that came over HTTP+SSE.
    assert.equal(transport.protocolVersion, "2024-11-05");
    const result = await client.callTool("echo", { text: "hi" });
    assert.equal(blockText(result.content[0]), "echo: hi");
    assert.deepEqual(lines(server.seen), [
      `POST ${SSE_URL}`,
      `GET ${SSE_URL}`,
      "POST http://127.0.0.1:8080/messages?sessionId=1", // initialize, again
      "POST http://127.0.0.1:8080/messages?sessionId=1", // notifications/initialized
      "POST http://127.0.0.1:8080/messages?sessionId=1", // tools/call
    ]);
    // The caller's headers go on every request of the old transport too; the GET asks for an event stream.
    for (const s of server.seen) assert.equal(s.headers.get("authorization"), "Bearer t");
    assert.equal(server.seen[1]!.headers.get("accept"), "text/event-stream");
    assert.equal(server.seen[2]!.headers.get("content-type"), "application/json");
    client.close();
    // close() aborts the GET.
    assert.equal(server.state.aborted, true);
  });
}

for (const [what, fetchOf] of [
  ["a 500", (server: ReturnType<typeof oldServer>) => server.fetch],
  [
    "a network error",
    (server: ReturnType<typeof oldServer>): NonNullable<HttpClientOptions["fetch"]> =>
      async (url, init) => {
        server.seen.push({ method: init.method ?? "GET", url, headers: new Headers(init.headers) });
        throw new TypeError("fetch failed");
      },
  ],
] as const) {
  test(`basic/transports Backwards Compatibility: only 400, 404 and 405 lead to the GET; ${what} to the initialize POST fails it without one`, async () => {
    const server = oldServer({ postStatus: 500 });
    const client = new McpClient(INFO);
    await assert.rejects(client.connect(httpClientTransport(SSE_URL, { fetch: fetchOf(server) })));
    assert.deepEqual(lines(server.seen), [`POST ${SSE_URL}`]);
  });
}

test("basic/transports Backwards Compatibility (README: close() aborts every fetch): closed while the initialize's 404 JSON body is being read, the transport makes no GET afterwards (before, it opened the old transport's stream, which nothing then closed), and the body is cancelled", { timeout: 10_000 }, async () => {
  for (const trickle of [false, true]) {
    const server = oldServer();
    let cancelled = false;
    const reading = { resolve: () => {} };
    const read = new Promise<void>((r) => (reading.resolve = r));
    let rest!: ReadableStreamDefaultController<Uint8Array>;
    const fetch: NonNullable<HttpClientOptions["fetch"]> = async (url, init) => {
      if (url !== SSE_URL || init.method !== "POST") return server.fetch(url, init);
      server.seen.push({ method: "POST", url, headers: new Headers(init.headers) });
      // A Streamable HTTP server's JSON refusal, sent slowly: its end comes (or not) after close().
      const body = new ReadableStream<Uint8Array>({
        start: (c) => {
          rest = c;
          c.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","id":null,'));
        },
        pull: () => reading.resolve(),
        cancel: () => void (cancelled = true),
      });
      return new Response(body, { status: 404, headers: { "content-type": "application/json" } });
    };
    const transport = httpClientTransport(SSE_URL, { fetch });
    const client = new McpClient(INFO);
    const connecting = client.connect(transport).then(
      () => "connected",
      () => "failed",
    );
    await read;
    client.close();
    if (!trickle && !cancelled) {
      rest.enqueue(new TextEncoder().encode('"error":{"code":-32600,"message":"Not Found: no such session"}}'));
      rest.close();
    }
    assert.equal(await connecting, "failed");
    await until(() => cancelled, 50).catch(() => {});
    assert.deepEqual(lines(server.seen), [`POST ${SSE_URL}`], "no GET after close()");
    assert.equal(cancelled, true, "the body is cancelled");
  }
});

test("basic/transports Backwards Compatibility: with sseFallback false, a 404 to the initialize POST fails it without a GET", async () => {
  const server = oldServer();
  const client = new McpClient(INFO);
  await assert.rejects(client.connect(httpClientTransport(SSE_URL, { fetch: server.fetch, sseFallback: false })), /HTTP 404/);
  assert.deepEqual(lines(server.seen), [`POST ${SSE_URL}`]);
});

test("basic/transports Backwards Compatibility: an endpoint event on another origin is refused, and no message goes there", async () => {
  const server = oldServer({ endpoint: "https://elsewhere.example/messages" });
  const client = new McpClient(INFO);
  await assert.rejects(
    client.connect(httpClientTransport(SSE_URL, { fetch: server.fetch, headers: { authorization: "Bearer t" } })),
    /the initialize POST got HTTP 404 \(Streamable HTTP\), and the endpoint event names "https:\/\/elsewhere\.example\/messages", on another origin than the SSE stream's http:\/\/127\.0\.0\.1:8080: refused/,
  );
  assert.deepEqual(lines(server.seen), [`POST ${SSE_URL}`, `GET ${SSE_URL}`]);
  // The stream it named the endpoint on is let go.
  assert.equal(server.state.aborted, true);
});

for (const [what, get, gave] of [
  ["a 405", () => new Response(null, { status: 405 }), "the GET got HTTP 405"],
  ["a JSON body", () => Response.json({}), 'the GET got HTTP 200 with Content-Type "application/json", not an event stream'],
  ["a stream whose first event is a message", () => new Response('event: message\ndata: {"jsonrpc":"2.0","method":"x"}\n\n', { headers: { "content-type": "text/event-stream" } }), 'the GET\'s first event was "message", not "endpoint"'],
  ["a stream that ends empty", () => new Response(": hello\n\n", { headers: { "content-type": "text/event-stream" } }), "the GET's event stream ended before an endpoint event"],
] as const) {
  test(`basic/transports Backwards Compatibility: a GET that answers ${what}, not an endpoint event first, fails the initialize naming both attempts`, async () => {
    const server = oldServer({ get });
    const client = new McpClient(INFO);
    const e = await client.connect(httpClientTransport(SSE_URL, { fetch: server.fetch })).then(
      () => assert.fail("connected"),
      (e: Error) => e,
    );
    assert.ok(e.message.includes(`the initialize POST got HTTP 404 (Streamable HTTP), and ${gave} (the deprecated HTTP+SSE transport)`), e.message);
  });
}

for (const [what, endpoint, refusal] of [
  ["credentials of the server's choosing", "http://user:pw@127.0.0.1:8080/messages", /the endpoint event names a URI with credentials: refused/],
  ["nothing (the stream's own URL)", "", /the endpoint event's data "" is not a URI/],
  ["a megabyte-long URL on another origin", "https://elsewhere.example/" + "x".repeat(1_000_000), /the endpoint event names "https:\/\/elsewhere\.example\/x+… \(\d+ more characters\)/],
] as const) {
  test(`basic/transports Backwards Compatibility: an endpoint event naming ${what} is refused, and the error stays small`, async () => {
    const server = oldServer({ endpoint });
    const e = await new McpClient(INFO).connect(httpClientTransport(SSE_URL, { fetch: server.fetch })).then(
      () => assert.fail("connected"),
      (e: Error) => e,
    );
    assert.match(e.message, refusal);
    assert.ok(e.message.length < 2_000, `${e.message.length} characters`);
    assert.deepEqual(lines(server.seen), [`POST ${SSE_URL}`, `GET ${SSE_URL}`]);
  });
}

test("basic/transports Backwards Compatibility, 2024-11-05 HTTP with SSE: readIdleMs bounds the fallback's stream too: one that brings nothing for that long is taken for a broken connection and closes the transport (the timeout turns a wait on a stream nobody bounds into a failure)", { timeout: 10_000 }, async () => {
  const server = oldServer();
  const sleeps: (() => void)[] = [];
  const sleep = (_ms: number, signal: AbortSignal) => new Promise<void>((resolve) => (signal.aborted ? undefined : sleeps.push(resolve)));
  const client = new McpClient(INFO);
  await client.connect(httpClientTransport(SSE_URL, { fetch: server.fetch, readIdleMs: 50, sleep }));
  let reason: string | undefined;
  client.onClose((r) => (reason = r));
  // Every read is bounded: firing the pending waits is the silence running out.
  await until(() => sleeps.length > 0);
  for (const wake of sleeps.splice(0)) wake();
  await until(() => reason !== undefined);
  assert.match(reason!, /HTTP\+SSE stream/);
});

test("basic/transports Backwards Compatibility, 2024-11-05 HTTP with SSE: the server ending the SSE stream closes the transport, with that reason", async () => {
  const server = oldServer();
  const client = new McpClient(INFO);
  await client.connect(httpClientTransport(SSE_URL, { fetch: server.fetch }));
  let reason: string | undefined;
  client.onClose((r) => (reason = r));
  server.end();
  await until(() => reason !== undefined);
  assert.match(reason!, /the server ended the HTTP\+SSE stream/);
  await assert.rejects(client.callTool("echo", { text: "late" }));
  assert.equal(lines(server.seen).length, 4, "nothing is POSTed once the stream ended");
});

// README Driver: an endpoint rethrows a hook's error from receive() once its step is done;
// the transport contract (src/api/transport.ts) has a throwing receiver cost it nothing.
test("basic/transports Backwards Compatibility, 2024-11-05 HTTP with SSE: an endpoint hook that throws on a message of the stream costs the connection nothing: the next message is delivered, requests are still answered, and the error is rethrown on a fresh microtask (it read as a failed stream and closed the transport)", { timeout: 10_000 }, async () => {
  const server = oldServer();
  const t = httpClientTransport(SSE_URL, { fetch: server.fetch });
  // The kernel drops a notification of no known method with a diagnostic event, which the hook sees.
  const heard: string[] = [];
  const ep = attach(t, { role: "client", info: INFO, capabilities: {} }, {
    onEvent: (o) => {
      if (o.type !== "diagnostic" || o.code !== "unknown-notification") return;
      heard.push(o.message);
      if (heard.length === 1) throw new Error("app bug");
    },
  });
  let closedWith: string | undefined;
  t.onClose((r) => (closedWith = r));
  const { thrown, restore } = collectUncaught();
  try {
    await ep.open();
    server.write("message", JSON.stringify({ jsonrpc: "2.0", method: "x/first" }));
    await until(() => thrown.length > 0 || closedWith !== undefined, 1000);
    server.write("message", JSON.stringify({ jsonrpc: "2.0", method: "x/second" }));
    await until(() => heard.length === 2 || closedWith !== undefined, 1000);
    assert.equal(closedWith, undefined, "the transport stays open");
    assert.deepEqual(heard.map((m) => /x\/\w+/.exec(m)?.[0]), ["x/first", "x/second"]);
    assert.deepEqual(thrown.map((e) => (e as Error).message), ["app bug"], "rethrown once, not swallowed");
    const result = await ep.request("tools/call", { name: "echo", arguments: { text: "on" } });
    assert.equal(blockText((result as { content: unknown[] }).content[0] as never), "echo: on");
  } finally {
    t.close();
    restore();
  }
});

// README Limits, "JSON response body and SSE event (HTTP client)": maxMessageBytes bounds a
// message in UTF-8 bytes on the old transport's stream too (its decoder counts characters).
test("basic/transports Backwards Compatibility, 2024-11-05 HTTP with SSE (README Limits, SSE event): an answer event over maxMessageBytes in UTF-8 bytes but not in characters fails its request at once with -32603 naming the limit; the next request is answered", { timeout: 10_000 }, async () => {
  const server = oldServer();
  // The ping is answered on the stream with 400 "€": 1200 bytes in 400 characters.
  const fetch: NonNullable<HttpClientOptions["fetch"]> = async (url, init) => {
    const m = init.method === "POST" && url !== SSE_URL ? JSON.parse(String(init.body)) : undefined;
    if (m?.method !== "ping") return server.fetch(url, init);
    server.write("message", JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { pad: "€".repeat(400) } }));
    return new Response("Accepted", { status: 202 });
  };
  const t = httpClientTransport(SSE_URL, { fetch, maxMessageBytes: 1000 });
  const ep = attach(t, { role: "client", info: INFO, capabilities: {} }, {});
  try {
    await ep.open();
    const call = ep.request("ping");
    await assert.rejects(call, (e: McpError) => e.code === -32603 && e.message === "malformed response from the peer: message exceeds maxBytes (1000)");
    const result = await ep.request("tools/call", { name: "echo", arguments: { text: "on" } });
    assert.equal(blockText((result as { content: unknown[] }).content[0] as never), "echo: on");
  } finally {
    t.close();
  }
});

test("basic/transports Backwards Compatibility, 2024-11-05 HTTP with SSE: a POST the server refuses fails its request at once", async () => {
  const server = oldServer();
  const refusing: NonNullable<HttpClientOptions["fetch"]> = async (url, init) => {
    if (String(init.body).includes('"tools/call"')) return new Response("Invalid message", { status: 400 });
    return server.fetch(url, init);
  };
  const client = new McpClient(INFO);
  await client.connect(httpClientTransport(SSE_URL, { fetch: refusing }));
  await assert.rejects(client.callTool("echo", { text: "x" }), /HTTP 400/);
  client.close();
});

/** The official SDK 1.x server on its SSEServerTransport (deprecated, as the SDK still ships it), on node:http. */
async function sdk1SseServer(): Promise<{ url: string; http: NodeServer; seen: string[] }> {
  const transports = new Map<string, SSEServerTransport>();
  const seen: string[] = [];
  const http = createServer((req, res) => {
    const url = new URL(req.url!, "http://127.0.0.1");
    seen.push(`${req.method} ${url.pathname}`);
    void (async () => {
      if (req.method === "GET" && url.pathname === "/sse") {
        const transport = new SSEServerTransport("/messages", res);
        transports.set(transport.sessionId, transport);
        const server = new Sdk1Server({ name: "sdk1-sse", version: "1.0.0" }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "echo", inputSchema: { type: "object" as const } }] }));
        server.setRequestHandler(CallToolRequestSchema, async (r) => ({ content: [{ type: "text" as const, text: `sdk1: ${String(r.params.arguments?.text)}` }] }));
        await server.connect(transport);
      } else if (req.method === "POST" && url.pathname === "/messages") {
        const transport = transports.get(url.searchParams.get("sessionId") ?? "");
        if (transport === undefined) res.writeHead(404).end();
        else await transport.handlePostMessage(req, res);
      } else res.writeHead(404).end();
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`, http, seen };
}

test("basic/transports Backwards Compatibility, against the official SDK 1.x SSEServerTransport: a McpClient given the SSE URL connects, lists and calls a tool", async () => {
  const peer = await sdk1SseServer();
  const client = new McpClient(INFO);
  try {
    await client.connect(httpClientTransport(peer.url));
    assert.equal(client.serverInfo?.name, "sdk1-sse");
    const tools = await client.listTools();
    assert.deepEqual(
      tools.tools.map((t) => t.name),
      ["echo"],
    );
    const result = await client.callTool("echo", { text: "over SSE" });
    assert.equal(blockText(result.content[0]), "sdk1: over SSE");
    assert.deepEqual(peer.seen.slice(0, 3), ["POST /sse", "GET /sse", "POST /messages"]);
  } finally {
    client.close();
    peer.http.closeAllConnections();
    await new Promise((resolve) => peer.http.close(resolve));
  }
});

test("basic/transports Backwards Compatibility: a Streamable HTTP server's own JSON-RPC refusal of the initialize (400 -32600) still answers it when the GET finds no old transport", async () => {
  const seen: string[] = [];
  const fetch: NonNullable<HttpClientOptions["fetch"]> = async (_url, init) => {
    seen.push(init.method ?? "GET");
    if (init.method === "GET") return new Response(null, { status: 405 });
    return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Bad Request: Server already initialized" } }, { status: 400 });
  };
  const errors: string[] = [];
  const client = new McpClient(INFO);
  await assert.rejects(client.connect(httpClientTransport(SSE_URL, { fetch, onError: (m) => errors.push(m) })), /Server already initialized/);
  assert.deepEqual(seen, ["POST", "GET"]);
  assert.match(errors.join("\n"), /the initialize POST got HTTP 400 \(Streamable HTTP\), and the GET got HTTP 405/);
});

for (const [code, status] of [[-32022, 400], [-32021, 400], [-32020, 400], [-32022, 404], [-32022, 405]]) {
  test(`draft basic/versioning Backward Compatibility (a recognized modern JSON-RPC error identifies a modern server; draft streamable-http: fall back on 400, 404 or 405 only when the body is not one): an initialize refused with ${status} ${code} is answered by it, with no GET for the old transport`, async () => {
    const seen: string[] = [];
    const fetch: NonNullable<HttpClientOptions["fetch"]> = async (_url, init) => {
      seen.push(init.method ?? "GET");
      if (init.method === "GET") return new Response(null, { status: 405 });
      const { id } = JSON.parse(String(init.body));
      return Response.json({ jsonrpc: "2.0", id, error: { code, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: "2025-11-25" } } }, { status });
    };
    const errors: string[] = [];
    const client = new McpClient(INFO);
    await assert.rejects(client.connect(httpClientTransport(SSE_URL, { fetch, onError: (m) => errors.push(m) })), (e: Error) => e.message.includes(`${code} Unsupported protocol version`));
    assert.deepEqual(seen, ["POST"]);
    assert.deepEqual(errors, []);
  });
}

test("basic/transports Backwards Compatibility (2024-11-05 HTTP with SSE: the server MUST send an endpoint event when the client connects): a GET whose stream stays silent is waited on for ENDPOINT_WAIT_MS on the injected sleep, then let go; the initialize POST's own JSON-RPC error answers the initialize, and onError names both attempts", async () => {
  const seen: string[] = [];
  const get = { cancelled: false };
  const fetch: NonNullable<HttpClientOptions["fetch"]> = async (_url, init) => {
    seen.push(init.method ?? "GET");
    if (init.method === "GET") {
      // The session-less GET stream of a stateless Streamable HTTP server: open, and silent.
      const body = new ReadableStream<Uint8Array>({ cancel: () => void (get.cancelled = true) });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Bad Request: Server already initialized" } }, { status: 400 });
  };
  const waits: Array<{ ms: number; fire: () => void }> = [];
  const sleep = (ms: number, signal: AbortSignal) => new Promise<void>((resolve) => (waits.push({ ms, fire: resolve }), signal.addEventListener("abort", () => resolve(), { once: true })));
  const errors: string[] = [];
  const client = new McpClient(INFO);
  let outcome: McpError | undefined;
  const connected = client.connect(httpClientTransport(SSE_URL, { fetch, sleep, onError: (m) => errors.push(m) })).then(
    () => assert.fail("connected"),
    (e: McpError) => (outcome = e),
  );
  await until(() => seen.length === 2);
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  assert.equal(outcome, undefined, "still waiting for the endpoint event");
  assert.deepEqual(
    waits.map((w) => w.ms),
    [ENDPOINT_WAIT_MS],
  );
  waits[0]!.fire();
  await connected;
  const e = outcome!;
  assert.match(e.message, /-32600 HTTP 400: Bad Request: Server already initialized/);
  assert.match(errors.join("\n"), new RegExp(`the initialize POST got HTTP 400 \\(Streamable HTTP\\), and the GET gave no endpoint event within ${ENDPOINT_WAIT_MS} ms \\(the deprecated HTTP\\+SSE transport\\)`));
  assert.equal(get.cancelled, true, "the silent stream is let go");
  assert.deepEqual(seen, ["POST", "GET"]);
});

test("basic/transports Backwards Compatibility: a GET whose stream stays silent, after an initialize POST refused without a JSON-RPC error (404), fails connect after ENDPOINT_WAIT_MS naming both attempts", async () => {
  const fetch: NonNullable<HttpClientOptions["fetch"]> = async (_url, init) =>
    init.method === "GET" ? new Response(new ReadableStream<Uint8Array>(), { headers: { "content-type": "text/event-stream" } }) : new Response("Not Found", { status: 404 });
  const waits: Array<() => void> = [];
  const sleep = (_ms: number, signal: AbortSignal) => new Promise<void>((resolve) => (waits.push(resolve), signal.addEventListener("abort", () => resolve(), { once: true })));
  const connecting = new McpClient(INFO).connect(httpClientTransport(SSE_URL, { fetch, sleep }));
  await until(() => waits.length === 1, 1000);
  waits[0]!();
  await assert.rejects(connecting, new RegExp(`the initialize POST got HTTP 404 \\(Streamable HTTP\\), and the GET gave no endpoint event within ${ENDPOINT_WAIT_MS} ms \\(the deprecated HTTP\\+SSE transport\\)`));
});

test("basic/transports Backwards Compatibility: a dual-era client (its server/discover probe refused first) falls back to initialize, then to HTTP+SSE", async () => {
  const server = oldServer();
  const client = new McpClient(INFO, { session: { versions: ["2026-07-28", "2025-11-25", "2024-11-05"] } });
  await client.connect(httpClientTransport(SSE_URL, { fetch: server.fetch }));
  assert.equal(client.protocolVersion, "2024-11-05");
  assert.equal(blockText((await client.callTool("echo", { text: "dual" })).content[0]), "echo: dual");
  client.close();
});

test("basic/transports Backwards Compatibility, 2024-11-05 HTTP with SSE (README Limits: every buffer is bounded): a server that sends pings on its stream faster than it takes their answers gets at most MAX_BODILESS_POSTS answer POSTs in flight; the stream is read on as they are answered, and every ping is answered in the end (before: one fetch per ping, all waiting at once)", { timeout: 20_000 }, async () => {
  const PINGS = 300;
  const server = oldServer();
  const held: (() => void)[] = [];
  let maxHeld = 0;
  let answered = 0;
  const fetch: NonNullable<HttpClientOptions["fetch"]> = async (url, init) => {
    if (init.method === "POST" && url.endsWith("/messages?sessionId=1") && JSON.parse(String(init.body)).method === undefined) {
      // An answer to a ping: the server takes it only when the test says so.
      return new Promise<Response>((resolve) => {
        held.push(() => {
          answered++;
          resolve(new Response("Accepted", { status: 202 }));
        });
        maxHeld = Math.max(maxHeld, held.length);
      });
    }
    return server.fetch(url, init);
  };
  const client = new McpClient(INFO);
  await client.connect(httpClientTransport(SSE_URL, { fetch }));
  try {
    for (let i = 0; i < PINGS; i++) server.write("message", JSON.stringify({ jsonrpc: "2.0", id: `p${i}`, method: "ping" }));
    await until(() => held.length >= MAX_BODILESS_POSTS, 1000);
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    assert.ok(held.length <= MAX_BODILESS_POSTS + 1, `${held.length} answer POSTs in flight`);
    await until(() => {
      for (const release of held.splice(0)) release();
      return answered === PINGS;
    }, 10_000);
  } finally {
    client.close();
  }
  assert.ok(maxHeld <= MAX_BODILESS_POSTS + 1, `at most ${maxHeld} in flight at once`);
});

test("basic/transports Backwards Compatibility, 2024-11-05 HTTP with SSE (README: close() aborts every fetch; basic/utilities/cancellation): a POST whose answer's headers never come is aborted once the request it carried is settled (answered on the stream, cancelled by its caller, timed out), and one carrying a notification after POST_WAIT_MS on the client's sleep; before, each held its connection until close()", { timeout: 10_000 }, async () => {
  const server = oldServer();
  const aborted: string[] = [];
  const posted: string[] = [];
  // Only the waits of POST_WAIT_MS are let run out, when the test says.
  const postWaits: (() => void)[] = [];
  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      signal.addEventListener("abort", () => resolve());
      if (ms === POST_WAIT_MS) postWaits.push(resolve);
    });
  const fetch: NonNullable<HttpClientOptions["fetch"]> = async (url, init) => {
    const m = init.method === "POST" && url.endsWith("/messages?sessionId=1") ? (JSON.parse(String(init.body)) as { id?: number; method?: string; params?: { arguments?: { text?: string } } }) : undefined;
    const what = m?.method === "tools/call" ? m.params?.arguments?.text : m?.method === "notifications/roots/list_changed" ? "notification" : undefined;
    if (what === undefined) return server.fetch(url, init);
    posted.push(what);
    // The server takes the message (and answers "answered" on the stream) but never answers the POST itself.
    if (what === "answered") server.write("message", JSON.stringify({ jsonrpc: "2.0", id: m!.id, result: { content: [{ type: "text", text: "done" }] } }));
    return new Promise<Response>((_, reject) => init.signal!.addEventListener("abort", () => (aborted.push(what), reject(init.signal!.reason))));
  };
  const errors: string[] = [];
  const clock = new ManualClock();
  const client = new McpClient(INFO, { clock });
  const transport = httpClientTransport(SSE_URL, { fetch, sleep, onError: (m) => errors.push(m) });
  await client.connect(transport);
  try {
    assert.equal(client.protocolVersion, "2024-11-05");
    assert.equal(blockText((await client.callTool("echo", { text: "answered" })).content[0]), "done");
    await until(() => aborted.includes("answered"), 200);

    const ac = new AbortController();
    const cancelled = client.callTool("echo", { text: "cancelled" }, { signal: ac.signal });
    await until(() => posted.includes("cancelled"), 200);
    ac.abort("user");
    await assert.rejects(cancelled);
    await until(() => aborted.includes("cancelled"), 200);

    const timedOut = client.callTool("echo", { text: "timed out" }, { timeoutMs: 1000 });
    await until(() => posted.includes("timed out"), 200);
    clock.advance(1000);
    await assert.rejects(timedOut, (e: McpError) => e.code === -32001);
    await until(() => aborted.includes("timed out"), 200);

    transport.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }));
    await until(() => posted.includes("notification"), 200);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    assert.equal(aborted.includes("notification"), false, "the notification's POST waits POST_WAIT_MS");
    for (const run of postWaits.splice(0)) run();
    await until(() => aborted.includes("notification"), 200);
    assert.deepEqual(aborted, ["answered", "cancelled", "timed out", "notification"]);
    // A settled request's POST let go is no failure: nothing is reported, nor answered again.
    assert.deepEqual(errors, [`a POST was let go: the server did not answer the POST within ${POST_WAIT_MS} ms`]);
  } finally {
    client.close();
  }
});
