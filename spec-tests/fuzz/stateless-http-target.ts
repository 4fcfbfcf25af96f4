/**
 * Fuzz target for a stateless Streamable HTTP handler (`createHttpHandler({ stateless:
 * true })`): random methods, headers and bodies, with no session to name.
 *
 * Spec: 2025-11-25 `basic/transports` ("Streamable HTTP": the statuses and JSON-RPC error
 * bodies; "Session Management": a server MAY issue no session id; "Protocol Version
 * Header": 400 for an unsupported version).
 *
 * Invariants: as the stateful target's (`http-target.ts`: a defined status, JSON-RPC in
 * every body and event), no `MCP-Session-Id` ever issued, and nothing left behind: once
 * the answer is read, no per-POST session remains (`sessionCount` 0), and every session
 * the factory made was closed exactly once; a request afterwards is still served.
 */
import assert from "node:assert/strict";
import { ManualClock } from "../../src/driver/clock.js";
import { createHttpHandler, type HttpHandler } from "../../src/transports/http-server.js";
import { pick } from "../harness/random.js";
import { int } from "./generate.js";
import { checkBody, http, STATUSES } from "./http-target.js";
import type { FuzzTarget } from "./target.js";

const URL_ = "http://127.0.0.1/mcp";

type StatelessInput = ReturnType<typeof http.generate>;

/** A stateless handler, and how many sessions its factory made and saw closed. */
function setup(): { handler: HttpHandler; made: number[]; closed: number[] } {
  const made: number[] = [];
  const closed: number[] = [];
  const handler = createHttpHandler({
    stateless: true,
    clock: new ManualClock(),
    maxBodyBytes: 4096,
    createSession: () => {
      const n = made.push(made.length);
      return {
        options: { role: "server", info: { name: "fuzz", version: "1" }, capabilities: { tools: { listChanged: true }, logging: {} }, versions: ["2025-11-25", "2025-03-26"] },
        onRequest: (method) => {
          if (method === "tools/list") return { tools: [] };
          if (method === "tools/call") return { content: [] };
          throw new Error("no such method");
        },
        onClose: () => void closed.push(n),
      };
    },
  });
  return { handler, made, closed };
}

/** Versions a stateless POST may name: none (2025-03-26 assumed), each 2025-era one, and some it does not speak. */
const VERSIONS = [undefined, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2026-07-28", "1999-01-01"];

/** Ids that collide: with each other, and with the id of the handshake a stateless kernel is handed. */
const IDS: unknown[] = [1, 1, 2, "stateless-initialize", "x", 0, null];

/** One member of a well-formed body: requests the factory's handler serves or refuses, notifications, responses. */
function member(r: () => number): unknown {
  const id = pick(r, IDS);
  switch (int(r, 8)) {
    case 0:
      return { jsonrpc: "2.0", id, method: "tools/call", params: { name: "t", arguments: {} } };
    case 1:
      return { jsonrpc: "2.0", id, method: "tools/list" };
    case 2:
      return { jsonrpc: "2.0", id, method: "ping" };
    case 3:
      return { jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: pick(r, ["2025-11-25", "2025-03-26", "2099-01-01"]), capabilities: {}, clientInfo: { name: "c", version: "1" } } };
    case 4:
      return { jsonrpc: "2.0", method: pick(r, ["notifications/initialized", "notifications/cancelled", "notifications/roots/list_changed"]), params: { requestId: id } };
    case 5:
      return { jsonrpc: "2.0", id, result: {} };
    case 6:
      return { jsonrpc: "2.0", id, method: "resources/subscribe", params: { uri: "x://y" } };
    default:
      return { jsonrpc: "2.0", id, method: "logging/setLevel", params: { level: "debug" } };
  }
}

/** A POST a client could send: right headers, a version from {@link VERSIONS}, one message or a batch of well-formed members. */
function wellFormed(r: () => number): StatelessInput {
  const headers: [string, string][] = [
    ["accept", "application/json, text/event-stream"],
    ["content-type", "application/json"],
  ];
  const version = pick(r, VERSIONS);
  if (version !== undefined) headers.push(["mcp-protocol-version", version]);
  const body = r() < 0.7 ? member(r) : Array.from({ length: 1 + int(r, 4) }, () => member(r));
  return { method: "POST", headers, body: JSON.stringify(body), withSession: false };
}

/** Lets the microtasks and turns that end a session once its answer is routed run. */
const settle = () => new Promise((r) => setImmediate(r));

export const statelessHttp: FuzzTarget<StatelessInput> = {
  name: "stateless-http",
  spec: "basic/transports Streamable HTTP, no sessions: every request gets a defined status and a JSON-RPC body; nothing is left behind",
  generate: (r) => (r() < 0.5 ? wellFormed(r) : http.generate(r)),
  async check({ method, headers, body }) {
    const { handler, made, closed } = setup();
    try {
      const hs = new Headers();
      for (const [k, v] of headers) {
        try {
          hs.set(k, v);
        } catch {
          // A value Headers itself refuses never reaches a server.
        }
      }
      const res = await handler(new Request(URL_, { method, headers: hs, body }));
      const where = `${method} ${JSON.stringify(headers)} ${JSON.stringify(body)?.slice(0, 200)}`;
      assert.ok(STATUSES.has(res.status), `${where}: status ${res.status}`);
      assert.equal(res.headers.get("mcp-session-id"), null, `${where}: a session id was issued`);
      await checkBody(res, where);
      await settle();
      assert.equal(handler.sessionCount, 0, `${where}: a per-POST session was left behind`);
      assert.deepEqual([...closed].sort((a, b) => a - b), made.map((_, i) => i + 1), `${where}: every session made is closed exactly once`);
      const after = await handler(new Request(URL_, { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2025-11-25" }, body: JSON.stringify({ jsonrpc: "2.0", id: "after", method: "ping" }) }));
      assert.equal(after.status, 200, `${where}: the next request was not served (${after.status})`);
      await checkBody(after, "ping afterwards");
    } finally {
      await handler.close();
    }
  },
};
