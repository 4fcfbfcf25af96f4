/**
 * Fuzz targets for the modern era (2026-07-28) over Streamable HTTP, both sides.
 *
 * Spec: draft `basic/transports/streamable-http` ("Request Metadata", "Server
 * Validation": `Mcp-Method` / `Mcp-Name` / `Mcp-Param-*` / `MCP-Protocol-Version` against
 * the body, -32020 with HTTP 400), draft `basic/index` (request `_meta`: -32602, -32022),
 * and 2025-11-25 `basic/transports` (SSE on the client: events, ids, `retry`).
 *
 * `modern-http`: one modern request with mutated headers and `_meta` to a dual-era
 * handler. Invariants: a status the transport defines, a JSON-RPC body (an error on 4xx),
 * every SSE event a JSON-RPC message, and the endpoint still serves a clean request.
 *
 * `sse-client`: the HTTP client reads a garbled SSE response (broken fields, BOM, invalid
 * UTF-8, CR/LF mixes, huge lines, truncation, random chunking) for one request. Invariants:
 * no throw escapes, the request settles (answer or error) without hanging, and the next
 * request on the same client is answered.
 */
import assert from "node:assert/strict";
import { Endpoint } from "../../src/driver/endpoint.js";
import { encode } from "../../src/jsonrpc/codec.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import type { HttpHandler } from "../../src/transports/http-server.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { concatBytes } from "../../src/transports/http/body.js";
import { pick } from "../harness/random.js";
import { makeHandler, URL_ } from "../http/helpers.js";
import { modernHandler, modernHeaders, modernRequest, MV } from "../http/modern-helpers.js";
import { int, randomJson, randomString, type Rng } from "./generate.js";
import { checkBody, STATUSES } from "./http-target.js";
import type { FuzzTarget } from "./target.js";

type ModernInput = { message: JsonObject; headers: Record<string, string | null> };

const METHODS = ["tools/call", "tools/list", "server/discover", "resources/read", "prompts/get", "subscriptions/listen", "tasks/get", "ping", "completion/complete", "nope/none"];
// Not "wait": that test tool blocks on a gate nobody opens here.
const NAMES = ["echo", "burst", "sample", "needs-sampling", "", "Hello, 世界", "a\nb", "x".repeat(300), "file:///a", "t1"];
const HEADER_VALUES = [MV, "2025-11-25", "2099-01-01", "", "tools/call", "Tools/Call", "echo", "=?base64?aGk=?=", "=?base64?/w==?=", "=?base64?", "e\x01cho", "é", " echo ", "42"];
const META_MUTATIONS = ["drop-version", "version-number", "unsupported", "caps-array", "caps-drop", "log-bad", "meta-string", "meta-null", "extra"];

function mutateMeta(r: Rng, meta: JsonObject): unknown {
  const m = { ...meta };
  switch (pick(r, META_MUTATIONS)) {
    case "drop-version":
      delete m["io.modelcontextprotocol/protocolVersion"];
      return m;
    case "version-number":
      m["io.modelcontextprotocol/protocolVersion"] = 20260728;
      return m;
    case "unsupported":
      m["io.modelcontextprotocol/protocolVersion"] = "2099-01-01";
      return m;
    case "caps-array":
      m["io.modelcontextprotocol/clientCapabilities"] = [];
      return m;
    case "caps-drop":
      delete m["io.modelcontextprotocol/clientCapabilities"];
      return m;
    case "log-bad":
      m["io.modelcontextprotocol/logLevel"] = pick(r, ["loud", 3, null, "debug"]);
      return m;
    case "meta-string":
      return "meta";
    case "meta-null":
      return null;
    default:
      m[randomString(r, 6)] = randomJson(r, 2);
      return m;
  }
}

/** The modern request seam of a dual-era handler, fed one mutated request. */
export const modernHttp: FuzzTarget<ModernInput> = {
  name: "modern-http",
  spec: "draft basic/transports/streamable-http Server Validation + basic/index request _meta: defined status, JSON-RPC body, the endpoint serves on",
  generate(r: Rng) {
    const method = pick(r, METHODS);
    const params: JsonObject = {};
    if (r() < 0.8) params.name = pick(r, NAMES);
    if (method === "resources/read" || r() < 0.1) params.uri = pick(r, NAMES);
    if (method === "subscriptions/listen") params.notifications = r() < 0.5 ? { toolsListChanged: true, taskIds: ["t1"] } : (randomJson(r, 2) as JsonObject);
    if (method === "tasks/get") params.taskId = pick(r, NAMES);
    if (r() < 0.3) params.arguments = randomJson(r, 3) as JsonObject;
    const meta = r() < 0.5 ? { "io.modelcontextprotocol/logLevel": "info" } : {};
    const message = modernRequest(r() < 0.8 ? int(r, 1000) : pick(r, ["a", "", "x".repeat(64)]), method, params, meta);
    if (r() < 0.6) (message.params as JsonObject)._meta = mutateMeta(r, (message.params as JsonObject)._meta as JsonObject) as JsonObject;
    const headers: Record<string, string | null> = {};
    for (let i = int(r, 4); i > 0; i--) {
      const name = pick(r, ["mcp-protocol-version", "mcp-method", "mcp-name", "mcp-param-region", "mcp-param-" + randomString(r, 4).replace(/[^a-z]/g, "q"), "accept", "content-type"]);
      headers[name] = r() < 0.2 ? null : pick(r, HEADER_VALUES);
    }
    return { message, headers };
  },
  async check({ message, headers }) {
    const { handler } = modernHandler();
    const h = new Headers();
    for (const [k, v] of Object.entries(modernHeaders(message, headers))) {
      try {
        h.set(k, v);
      } catch {
        // A value Headers itself refuses never reaches a server.
      }
    }
    const res = await handler(new Request(URL_, { method: "POST", headers: h, body: JSON.stringify(message) }));
    const where = `${JSON.stringify(headers)} ${JSON.stringify(message).slice(0, 300)}`;
    assert.ok(STATUSES.has(res.status), `${where}: status ${res.status}`);
    await checkBody(res, where);
    const clean = modernRequest("after", "tools/call", { name: "echo", arguments: { text: "ok" } });
    const after = await handler(new Request(URL_, { method: "POST", headers: modernHeaders(clean), body: JSON.stringify(clean) }));
    assert.equal(after.status, 200, `${where}: the endpoint stopped serving (${after.status})`);
    await checkBody(after, "clean request afterwards");
  },
};

type SseInput = { era: "legacy" | "modern"; pieces: Array<string | number[]>; cuts: number[] };

const SSE_PIECES = ["data: {", "data: $RESPONSE", "data: $RESPONSE\n\n", "id: 1-0\n", "id: \u0000\n", "id: x/9007199254740993\n", "retry: 10\n", "retry: abc\n", "retry: -5\n", ": comment\n", "event: message\n", "event: other\n", "\uFEFF", "\n", "\r\n", "\r", "\n\n", "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":1}}\n\n", "data: [1,2\n\n", "data:\n\n", "field-without-colon\n", "data: " + "y".repeat(70_000) + "\n\n"];

function bytesOf(pieces: Array<string | number[]>, id: unknown): Uint8Array {
  const enc = new TextEncoder();
  return concatBytes(pieces.map((p) => (typeof p === "string" ? enc.encode(p.replace("$RESPONSE", JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [] } }))) : Uint8Array.from(p))));
}

/** Resolves "settled" or "hung": a request that nothing can advance any more has hung. */
async function settles(p: Promise<unknown>): Promise<"settled" | "hung"> {
  let done = false;
  p.then(() => (done = true), () => (done = true));
  for (let turns = 0; turns < 5000 && !done; turns++) await new Promise((r) => setImmediate(r));
  return done ? "settled" : "hung";
}

/** The HTTP client reading one garbled SSE response. */
export const sseClient: FuzzTarget<SseInput> = {
  name: "sse-client",
  spec: "basic/transports Streamable HTTP (client): garbled SSE never throws or hangs; the next request is answered",
  generate(r: Rng) {
    const pieces: Array<string | number[]> = [];
    for (let i = 1 + int(r, 8); i > 0; i--) {
      if (r() < 0.15) pieces.push(Array.from({ length: 1 + int(r, 6) }, () => pick(r, [0xff, 0xfe, 0xc3, 0x80, 0xe2, 0x00, 0x0a, 0x0d])));
      else pieces.push(pick(r, SSE_PIECES));
    }
    const cuts = Array.from({ length: int(r, 4) }, () => int(r, 200));
    return { era: r() < 0.5 ? "legacy" : "modern", pieces, cuts };
  },
  async check({ era, pieces, cuts }) {
    const handler: HttpHandler = era === "modern" ? modernHandler().handler : makeHandler().handler;
    let garbled = true;
    const t = httpClientTransport(URL_, {
      openGetStream: false,
      sleep: async () => {},
      reconnect: { maxRetries: 2 },
      onError: () => {},
      fetch: async (url, init) => {
        const req = new Request(url, init);
        const body = typeof init.body === "string" ? init.body : "";
        if (!garbled || !body.includes('"tools/list"')) return handler(req);
        garbled = false;
        const bytes = bytesOf(pieces, JSON.parse(body).id);
        const stream = new ReadableStream<Uint8Array>({
          start(c) {
            let at = 0;
            for (const cut of [...cuts].sort((a, b) => a - b)) {
              if (cut <= at || cut >= bytes.length) continue;
              c.enqueue(bytes.slice(at, cut));
              at = cut;
            }
            c.enqueue(bytes.slice(at));
            c.close();
          },
        });
        return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream" } });
      },
    });
    const ep = new Endpoint({ role: "client", info: { name: "fuzz", version: "1" }, capabilities: {}, versions: [era === "modern" ? MV : "2025-11-25"] }, { send: (m) => t.send(encode(m)) });
    t.onMessage((x) => ep.receive(x));
    t.onClose((reason) => ep.closed(reason));
    try {
      await ep.open();
      const first = ep.request("tools/list");
      first.catch(() => {});
      assert.equal(await settles(first), "settled", "the garbled request hung");
      garbled = false;
      const next = ep.request("tools/list");
      next.catch(() => {});
      assert.equal(await settles(next), "settled", "the next request hung");
      assert.ok(Array.isArray(((await next) as JsonObject).tools), "the next request was not answered");
    } finally {
      t.close();
    }
  },
};
