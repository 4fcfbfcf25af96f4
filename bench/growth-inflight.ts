/**
 * Growth with concurrency (issue 10, "Growth"): cost per message as the requests in flight
 * go 1 → 10 → 100 → 1,000 → 10,000, on an in-memory pair of session reducers (legacy
 * 2025-11-25 `tools/call`, messages carried as JSON text, as in session.ts).
 *
 * One op of the row at level k is a burst: k requests sent, all received and answered by
 * the server, all k responses delivered to the client, so k requests really are in flight
 * at once (the harness keeps batches a multiple of k). The per-message cost is the time per
 * round trip ÷ 2 (request and response); per byte, ÷ the bytes of the two messages. Both
 * sessions allow 16,384 requests in flight (the default is 1024 per direction).
 *
 * Flatness criterion (the sweep row): the largest per-message cost over the five levels is
 * at most 3× the smallest. A per-request cost growing with the number of requests (a scan
 * of the pending table, an array copied per message) shows as 10× per decade and fails at
 * once; 3× leaves room for the cache misses of a 10,000-entry table on a shared machine.
 */
import { defineBench, defineSweep } from "./harness.js";
import { encode } from "../src/jsonrpc/codec.js";
import { step } from "../src/session/session.js";
import { ARGS, LEGACY, RESULT, pair, roundTrips, type Pair } from "./session.js";

/** The concurrency levels of the sweep. */
export const IN_FLIGHT_LEVELS: readonly number[] = [1, 10, 100, 1000, 10_000];
const LIMITS = { maxInboundRequests: 16_384, maxOutboundRequests: 16_384 };

/** Row name at level `k`. */
export function inFlightRow(k: number): string {
  return `growth/in-flight ×${k.toLocaleString("en-US")}: legacy tools/call round trip`;
}

interface State {
  pair: Pair;
  /** Bytes of one request and its response, as text. */
  bytes: number;
}

/** Bytes of one round trip's two messages, sent through a pair of its own. */
function roundTripBytes(): number {
  const p = pair(LEGACY);
  let bytes = 0;
  for (const o of step(p.client, { type: "request", now: 0, method: "tools/call", params: ARGS }).outputs) {
    if (o.type !== "send") continue;
    const text = encode(o.message);
    bytes += text.length;
    for (const r of step(p.server, { type: "receive", now: 0, data: text }).outputs) {
      if (r.type !== "request") continue;
      for (const s of step(p.server, { type: "respond", now: 0, id: r.id, result: RESULT }).outputs) if (s.type === "send") bytes += encode(s.message).length;
    }
  }
  return bytes;
}

for (const k of IN_FLIGHT_LEVELS) {
  defineBench<State>({
    name: inFlightRow(k),
    unit: k,
    messagesPerOp: 2,
    bytesPerOp: (s) => s.bytes,
    setup: () => ({ pair: pair(LEGACY, LIMITS), bytes: roundTripBytes() }),
    run: (n, s) => roundTrips(s.pair, n, k),
  });
}

defineSweep({ name: "growth/in-flight sweep 1 → 10,000: per-message cost flat", points: IN_FLIGHT_LEVELS.map(inFlightRow), metric: "perMessageUs", maxRatio: 3 });
