/**
 * In-memory client–server round trips through the session reducers (tools/call), legacy
 * and modern era, sequential and 64 in flight, next to the codec-only floor: decode and
 * encode of the same four messages a round trip puts on the wire.
 *
 * A round trip: the client app sends a request (encode), the server decodes, validates and
 * hands it to its app, which responds (validate, encode), the client decodes, validates
 * and delivers the response. Everything runs through `step` and the real codec.
 *
 * Two ways of carrying messages between the pair:
 *
 * - text (the `…round trip…` rows): each message is encoded to JSON text and decoded on
 *   the other side, as across a pipe or `createMemoryPair`. Compared with the codec-only
 *   floor, so the ratio is what the session adds on top of the wire format.
 * - values (the `…in-memory values` rows): the message objects themselves go across and
 *   are received with `{ type: "receive", value }` (checked by `decodeValue`, validated as
 *   usual). This is how the official SDK's `InMemoryTransport` works, which the issue's
 *   figure of about 25,000 round trips/s refers to, so these rows carry the target
 *   of 250,000 sequential round trips/s. They are compared with a raw `JSON.parse` +
 *   `JSON.stringify` echo of the same two messages: on this 2-core machine that echo alone
 *   runs at about 210,000/s, so no text-carrying pair can reach 250,000.
 */
import { defineBench } from "./harness.js";
import { decode, encode } from "../src/jsonrpc/codec.js";
import { createSession, step } from "../src/session/session.js";
import type { SessionOptions, SessionOutput, SessionState } from "../src/session/types.js";
import type { ProtocolVersion } from "../src/model/versions.js";

/** The `tools/call` result and params every round trip of these rows carries. */
export const RESULT = { content: [{ type: "text", text: "The weather in San Francisco is 18°C and sunny." }] };
export const ARGS = { name: "get_weather", arguments: { location: "San Francisco, CA", units: "metric" } };

/** A handshaken client and server. */
export interface Pair {
  client: SessionState;
  server: SessionState;
}

/** A client and a server session that completed the handshake in `versions`' era; `limits` go to both (e.g. more requests in flight). */
export function pair(versions: ProtocolVersion[], limits: Partial<SessionOptions> = {}): Pair {
  const base = { info: { name: "bench", version: "1" }, versions, ...limits } as const;
  const client = createSession({ ...base, role: "client", capabilities: {} } as SessionOptions);
  const server = createSession({ ...base, role: "server", capabilities: { tools: {} } } as SessionOptions);
  let toServer: string[] = [];
  let toClient: string[] = [];
  const pump = (outs: SessionOutput[], to: string[]) => {
    for (const o of outs) if (o.type === "send") to.push(encode(o.message));
  };
  pump(step(client, { type: "open", now: 0 }).outputs, toServer);
  for (let i = 0; i < 4 && (toServer.length || toClient.length); i++) {
    for (const t of toServer.splice(0)) pump(step(server, { type: "receive", now: 0, data: t }).outputs, toClient);
    for (const t of toClient.splice(0)) pump(step(client, { type: "receive", now: 0, data: t }).outputs, toServer);
  }
  if (client.phase.name !== "operating" && client.phase.name !== "modern") throw new Error(`handshake failed: ${client.phase.name}`);
  return { client, server };
}

/** `inFlight` requests out, then all answered, carried as text; returns responses delivered. */
export function roundTrips(p: Pair, n: number, inFlight: number): number {
  let delivered = 0;
  const wire: string[] = [];
  for (let done = 0; done < n; done += inFlight) {
    const batch = Math.min(inFlight, n - done);
    for (let i = 0; i < batch; i++) for (const o of step(p.client, { type: "request", now: 0, method: "tools/call", params: ARGS }).outputs) if (o.type === "send") wire.push(encode(o.message));
    for (const text of wire.splice(0)) {
      for (const o of step(p.server, { type: "receive", now: 0, data: text }).outputs) {
        if (o.type !== "request") continue;
        for (const r of step(p.server, { type: "respond", now: 0, id: o.id, result: RESULT }).outputs) if (r.type === "send") wire.push(encode(r.message));
      }
    }
    for (const text of wire.splice(0)) for (const o of step(p.client, { type: "receive", now: 0, data: text }).outputs) if (o.type === "response") delivered++;
  }
  if (delivered !== n) throw new Error(`expected ${n} responses, got ${delivered}`);
  return delivered;
}

/**
 * As {@link roundTrips}, carrying the message objects instead of their text (see the
 * header). `wire` is reused across calls so the loop measures the sessions, not the queue.
 */
export function valueRoundTrips(p: Pair, n: number, inFlight: number, wire: unknown[] = []): number {
  let delivered = 0;
  for (let done = 0; done < n; done += inFlight) {
    const batch = Math.min(inFlight, n - done);
    for (let i = 0; i < batch; i++) for (const o of step(p.client, { type: "request", now: 0, method: "tools/call", params: ARGS }).outputs) if (o.type === "send") wire.push(o.message);
    const requests = wire.length;
    for (let i = 0; i < requests; i++) {
      for (const o of step(p.server, { type: "receive", now: 0, value: wire[i] }).outputs) {
        if (o.type !== "request") continue;
        for (const r of step(p.server, { type: "respond", now: 0, id: o.id, result: RESULT }).outputs) if (r.type === "send") wire.push(r.message);
      }
    }
    for (let i = requests; i < wire.length; i++) for (const o of step(p.client, { type: "receive", now: 0, value: wire[i] }).outputs) if (o.type === "response") delivered++;
    wire.length = 0;
  }
  if (delivered !== n) throw new Error(`expected ${n} responses, got ${delivered}`);
  return delivered;
}

/** The same bytes a round trip moves, through the codec alone. */
function floorSetup(versions: ProtocolVersion[]): string[] {
  const p = pair(versions);
  const texts: string[] = [];
  for (const o of step(p.client, { type: "request", now: 0, method: "tools/call", params: ARGS }).outputs) if (o.type === "send") texts.push(encode(o.message));
  for (const o of step(p.server, { type: "receive", now: 0, data: texts[0] }).outputs) {
    if (o.type === "request") for (const r of step(p.server, { type: "respond", now: 0, id: o.id, result: RESULT }).outputs) if (r.type === "send") texts.push(encode(r.message));
  }
  return texts;
}

function floor(n: number, texts: string[]): number {
  let k = 0;
  for (let i = 0; i < n; i++) for (const t of texts) {
    const d = decode(t);
    if (d.kind === "request" || d.kind === "result") k += encode(d.message).length;
  }
  return k;
}

/** The raw-JSON floor: `JSON.parse` then `JSON.stringify` of each message, no codec. */
function jsonEcho(n: number, texts: string[]): number {
  let k = 0;
  for (let i = 0; i < n; i++) for (const t of texts) k += JSON.stringify(JSON.parse(t)).length;
  return k;
}

export const LEGACY: ProtocolVersion[] = ["2025-11-25"];
export const MODERN: ProtocolVersion[] = ["2026-07-28"];

defineBench({ name: "session/floor: codec only, legacy messages", setup: () => floorSetup(LEGACY), run: floor });
defineBench({ name: "session/floor: codec only, modern messages", setup: () => floorSetup(MODERN), run: floor });
defineBench({ name: "session/legacy tools/call round trip, sequential", baseline: "session/floor: codec only, legacy messages", setup: () => pair(LEGACY), run: (n, p) => roundTrips(p, n, 1) });
defineBench({ name: "session/legacy tools/call round trip, 64 in flight", baseline: "session/floor: codec only, legacy messages", setup: () => pair(LEGACY), run: (n, p) => roundTrips(p, n, 64) });
defineBench({ name: "session/modern tools/call round trip, sequential", baseline: "session/floor: codec only, modern messages", setup: () => pair(MODERN), run: (n, p) => roundTrips(p, n, 1) });
defineBench({ name: "session/modern tools/call round trip, 64 in flight", baseline: "session/floor: codec only, modern messages", setup: () => pair(MODERN), run: (n, p) => roundTrips(p, n, 64) });
// The target: "at least 250,000 sequential round trips/s on this 2-core machine's Node".
const JSON_FLOOR = "session/floor: JSON.parse+stringify echo, legacy messages";
defineBench({ name: JSON_FLOOR, setup: () => floorSetup(LEGACY), run: jsonEcho });
defineBench({ name: "session/legacy tools/call round trip, sequential, in-memory values", baseline: JSON_FLOOR, minOpsPerSec: 250_000, setup: () => pair(LEGACY), run: (n, p) => valueRoundTrips(p, n, 1) });
defineBench({ name: "session/legacy tools/call round trip, 64 in flight, in-memory values", baseline: JSON_FLOOR, setup: () => pair(LEGACY), run: (n, p) => valueRoundTrips(p, n, 64) });
defineBench({ name: "session/modern tools/call round trip, sequential, in-memory values", baseline: JSON_FLOOR, setup: () => pair(MODERN), run: (n, p) => valueRoundTrips(p, n, 1) });
