/**
 * Memory rows of the legacy session kernel (issue 4, "Benchmark"): heap per idle session,
 * per request in flight, and whether the heap stays flat over 1,000,000 requests.
 *
 * Each figure is the growth of the used heap between two fully collected points (see
 * `usedHeapAfterGc`), divided by the items built in between, with everything built kept
 * reachable until the second point. Messages cross as text, as on a pipe, so what the
 * sessions retain is exactly what they copied out of decoded messages.
 *
 * - idle session: `ops` handshaken client–server pairs, each built from its own options
 *   objects (a real process shares nothing between sessions either); bytes per session,
 *   the average of a client and a server. Limit 2 KB.
 * - request in flight: one pair, `ops` `tools/call` requests sent by the client and
 *   received by the server, none answered; bytes per request for *both* ends together
 *   (the client's outbound entry and the server's inbound one). Limit 300 B.
 * - heap over 1,000,000 round trips: a warmed-up pair with 64 requests in flight at a
 *   time, 1,000,000 round trips; bytes per round trip. A leak of even one small object per
 *   request shows as 16 B or more; the limit of 0.5 B leaves room for the engine's own
 *   bookkeeping (compiled code, inline caches) and no room for a leak. Messages cross as
 *   values here to keep the row short; the text path's decoding retains nothing itself.
 */
import { defineMemoryBench, usedHeapAfterGc } from "./harness.js";
import { encode } from "../src/jsonrpc/codec.js";
import { createSession, step } from "../src/session/session.js";
import type { SessionOptions } from "../src/session/types.js";
import { LEGACY, pair, valueRoundTrips, type Pair } from "./session.js";

const ARGS = { name: "get_weather", arguments: { location: "San Francisco, CA", units: "metric" } };

/** A handshaken pair whose options share no object with any other pair's. */
function freshPair(i: number): Pair {
  const options = (role: "client" | "server"): SessionOptions => ({
    role,
    info: { name: `bench-${role}-${i}`, version: "1.0.0" },
    capabilities: role === "server" ? { tools: {} } : {},
    versions: [...LEGACY],
  });
  const client = createSession(options("client"));
  const server = createSession(options("server"));
  let toServer: string[] = [];
  let toClient: string[] = [];
  for (const o of step(client, { type: "open", now: 0 }).outputs) if (o.type === "send") toServer.push(encode(o.message));
  while (toServer.length > 0 || toClient.length > 0) {
    const s = toServer;
    toServer = [];
    for (const t of s) for (const o of step(server, { type: "receive", now: 0, data: t }).outputs) if (o.type === "send") toClient.push(encode(o.message));
    const c = toClient;
    toClient = [];
    for (const t of c) for (const o of step(client, { type: "receive", now: 0, data: t }).outputs) if (o.type === "send") toServer.push(encode(o.message));
  }
  if (client.phase.name !== "operating" || server.phase.name !== "operating") throw new Error(`handshake failed: ${client.phase.name} / ${server.phase.name}`);
  return { client, server };
}

/** Sends `n` requests from the client, delivered to the server as text and left unanswered. */
function leaveInFlight(p: Pair, n: number): number {
  let received = 0;
  for (let i = 0; i < n; i++) {
    for (const o of step(p.client, { type: "request", now: 0, method: "tools/call", params: ARGS }).outputs) {
      if (o.type !== "send") continue;
      for (const e of step(p.server, { type: "receive", now: 0, data: encode(o.message) }).outputs) if (e.type === "request") received++;
    }
  }
  if (received !== n || p.client.outboundCount !== n || p.server.inboundCount !== n) throw new Error(`expected ${n} requests in flight, got ${received}`);
  return received;
}

/** Keeps built values reachable across the second heap reading. */
let keep: unknown;

defineMemoryBench({
  name: "memory/idle legacy session, handshaken (per session)",
  maxBytes: 2048,
  ops: 2000,
  quickOps: 500,
  measure(ops) {
    freshPair(-1);
    const pairs: Pair[] = new Array(ops);
    const before = usedHeapAfterGc();
    for (let i = 0; i < ops; i++) pairs[i] = freshPair(i);
    const after = usedHeapAfterGc();
    keep = pairs;
    return (after - before) / (2 * ops);
  },
});

defineMemoryBench({
  name: "memory/legacy request in flight, client + server entries (per request)",
  maxBytes: 300,
  // 1000 per pair (within the default limit of 1024 in flight per direction), over 20
  // pairs: 20,000 requests, so a GC's slack of some 100 KB is noise, not the signal.
  ops: 1000,
  measure(ops) {
    const pairs = Array.from({ length: 20 }, (_, i) => freshPair(i));
    leaveInFlight(freshPair(-1), 64); // warms the path up
    const before = usedHeapAfterGc();
    for (const p of pairs) leaveInFlight(p, ops);
    const after = usedHeapAfterGc();
    keep = pairs;
    return (after - before) / (ops * pairs.length);
  },
});

defineMemoryBench({
  name: "memory/legacy heap growth over a long run (1,000,000 round trips, 64 in flight; per round trip)",
  maxBytes: 0.5,
  ops: 1_000_000,
  quickOps: 200_000,
  measure(ops) {
    const p: Pair = pair(LEGACY);
    const wire: unknown[] = [];
    valueRoundTrips(p, 100_000, 64, wire);
    const before = usedHeapAfterGc();
    valueRoundTrips(p, ops, 64, wire);
    const after = usedHeapAfterGc();
    keep = [p, wire];
    return Math.max(0, after - before) / ops;
  },
});
