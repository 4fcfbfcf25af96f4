/**
 * Fuzz target for the Streamable HTTP handler: random methods, headers and bodies
 * against a live session.
 *
 * Spec: 2025-11-25 `basic/transports` ("Streamable HTTP": 400/404/405/406/415 and the
 * JSON-RPC error body, SSE responses), draft `basic/transports/streamable-http`.
 *
 * Invariants: the handler never rejects; every status is one the transport defines (a
 * 5xx would mean an application fault, and this application never faults); a JSON body
 * is a JSON-RPC message (an error response on 4xx); every SSE event that arrives is a
 * JSON-RPC message or a priming event; and the session survives: a `ping` afterwards is
 * answered unless the fuzzed request legitimately ended the session (DELETE).
 */
import assert from "node:assert/strict";
import { decode } from "../../src/jsonrpc/codec.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createSseDecoder, feedSse } from "../../src/framing/sse.js";
import { createHttpHandler, type HttpHandler } from "../../src/transports/http-server.js";
import { pick } from "../harness/random.js";
import { int, messageText, randomString, type Rng } from "./generate.js";
import type { FuzzTarget } from "./target.js";

const URL_ = "http://127.0.0.1/mcp";
export const STATUSES = new Set([200, 202, 204, 400, 403, 404, 405, 406, 409, 413, 415, 503]);
const HEADER_NAMES = ["accept", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id", "origin", "host", "content-length", "mcp-method", "mcp-name", "x-other"];
const HEADER_VALUES = ["application/json, text/event-stream", "application/json", "text/event-stream", "*/*", "", "2025-11-25", "2025-03-26", "2026-07-28", "1999-01-01", "http://evil.example", "http://localhost:3000", "0", "-1", "99999999999", "stream-0/1", "x/9007199254740993", "tools/call", "ping"];

type HttpInput = { method: string; headers: [string, string][]; body?: string; withSession: boolean };

function setup(): HttpHandler {
  return createHttpHandler({
    clock: new ManualClock(),
    maxBodyBytes: 4096,
    createSession: () => ({
      options: { role: "server", info: { name: "fuzz", version: "1" }, capabilities: { tools: {}, logging: {} }, versions: ["2025-11-25", "2025-03-26"] },
      onRequest: (method) => {
        if (method === "tools/list") return { tools: [] };
        if (method === "tools/call") return { content: [] };
        throw new Error("no such method");
      },
    }),
  });
}

async function post(h: HttpHandler, body: unknown, session?: string): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2025-11-25" };
  if (session !== undefined) headers["mcp-session-id"] = session;
  return h(new Request(URL_, { method: "POST", headers, body: JSON.stringify(body) }));
}

/** Reads an SSE or JSON body and checks every message in it; gives up on a stream that stays open after a few event-loop turns. */
export async function checkBody(res: Response, where: string): Promise<void> {
  const type = res.headers.get("content-type") ?? "";
  if (res.body === null) return;
  if (type.startsWith("application/json")) {
    const text = await res.text();
    const d = decode(text, { allowBatch: true });
    assert.notEqual(d.kind, "invalid", `${where}: JSON body is not JSON-RPC: ${text}`);
    // A 2025-03-26 batch with no valid request is refused whole: its body the array of its members' errors.
    const errors = d.kind === "error" || (d.kind === "batch" && d.items.length > 0 && d.items.every((i) => i.kind === "error"));
    if (res.status >= 400) assert.ok(errors, `${where}: a ${res.status} without a JSON-RPC error`);
    return;
  }
  if (!type.startsWith("text/event-stream")) {
    assert.ok(res.status === 202 || res.status === 204 || (await res.text()) === "", `${where}: unexpected ${type} body`);
    return;
  }
  const reader = res.body.getReader();
  const sse = createSseDecoder();
  for (;;) {
    let turns = 0;
    const idle = new Promise<"idle">((resolve) => {
      const spin = (): void => void (++turns > 20 ? resolve("idle") : setImmediate(spin));
      spin();
    });
    const next = await Promise.race([reader.read(), idle]);
    if (next === "idle") {
      await reader.cancel();
      return;
    }
    if (next.done) return;
    for (const e of feedSse(sse, next.value)) {
      if (e.type !== "event" || e.data === "") continue;
      assert.notEqual(decode(e.data).kind, "invalid", `${where}: SSE event is not JSON-RPC: ${e.data}`);
    }
  }
}

/** The HTTP handler with a live session, fed one random request. */
export const http: FuzzTarget<HttpInput> = {
  name: "http",
  spec: "basic/transports Streamable HTTP: every request gets a defined status and a JSON-RPC body; the session survives",
  generate(r: Rng) {
    const headers: [string, string][] = [];
    if (r() < 0.8) headers.push(["accept", r() < 0.8 ? "application/json, text/event-stream" : pick(r, HEADER_VALUES)]);
    if (r() < 0.8) headers.push(["content-type", r() < 0.8 ? "application/json" : pick(r, HEADER_VALUES)]);
    if (r() < 0.7) headers.push(["mcp-protocol-version", r() < 0.7 ? "2025-11-25" : pick(r, HEADER_VALUES)]);
    for (let i = int(r, 3); i > 0; i--) headers.push([pick(r, HEADER_NAMES), r() < 0.8 ? pick(r, HEADER_VALUES) : randomString(r, 8).replace(/[^\x20-\x7e]/g, "")]);
    const method = r() < 0.75 ? "POST" : pick(r, ["GET", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"]);
    const input: HttpInput = { method, headers, withSession: r() < 0.85 };
    if (method !== "GET" && method !== "HEAD" && r() < 0.95) input.body = r() < 0.1 ? "x".repeat(5000) : messageText(r);
    return input;
  },
  async check({ method, headers, body, withSession }) {
    const h = setup();
    try {
      const init = await post(h, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
      const sid = init.headers.get("mcp-session-id")!;
      await init.body?.cancel();
      (await post(h, { jsonrpc: "2.0", method: "notifications/initialized" }, sid)).body?.cancel();
      const hs = new Headers();
      for (const [k, v] of headers) {
        try {
          hs.set(k, v);
        } catch {
          // A value Headers itself refuses never reaches a server.
        }
      }
      if (withSession && !hs.has("mcp-session-id")) hs.set("mcp-session-id", sid);
      const res = await h(new Request(URL_, { method, headers: hs, body }));
      const where = `${method} ${JSON.stringify(headers)} ${JSON.stringify(body)?.slice(0, 200)}`;
      assert.ok(STATUSES.has(res.status), `${where}: status ${res.status}`);
      await checkBody(res, where);
      if (h.session(sid) !== undefined) {
        const ping = await post(h, { jsonrpc: "2.0", id: "after", method: "ping" }, sid);
        assert.equal(ping.status, 200, `${where}: the session did not survive (ping got ${ping.status})`);
        await checkBody(ping, "ping afterwards");
      } else {
        assert.equal(method, "DELETE", `${where}: the session was lost`);
      }
    } finally {
      h.close();
    }
  },
};
