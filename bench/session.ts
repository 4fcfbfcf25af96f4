/**
 * In-memory client–server round trips through the session reducers (tools/call), legacy
 * and modern era, sequential and 64 in flight, next to the codec-only floor: decode and
 * encode of the same four messages a round trip puts on the wire.
 *
 * A round trip: the client app sends a request (encode), the server decodes, validates and
 * hands it to its app, which responds (validate, encode), the client decodes, validates
 * and delivers the response. Everything runs through `step` and the real codec.
 */
import { defineBench } from "./harness.js";
import { decode, encode } from "../src/jsonrpc/codec.js";
import { createSession, step } from "../src/session/session.js";
import type { SessionOptions, SessionOutput, SessionState } from "../src/session/types.js";
import type { ProtocolVersion } from "../src/model/versions.js";

const RESULT = { content: [{ type: "text", text: "The weather in San Francisco is 18°C and sunny." }] };
const ARGS = { name: "get_weather", arguments: { location: "San Francisco, CA", units: "metric" } };

interface Pair {
  client: SessionState;
  server: SessionState;
}

function pair(versions: ProtocolVersion[]): Pair {
  const base = { info: { name: "bench", version: "1" }, versions } as const;
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

/** `inFlight` requests out, then all answered; returns responses delivered. */
function roundTrips(p: Pair, n: number, inFlight: number): number {
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

const LEGACY: ProtocolVersion[] = ["2025-11-25"];
const MODERN: ProtocolVersion[] = ["2026-07-28"];

defineBench({ name: "session/floor: codec only, legacy messages", setup: () => floorSetup(LEGACY), run: floor });
defineBench({ name: "session/floor: codec only, modern messages", setup: () => floorSetup(MODERN), run: floor });
defineBench({ name: "session/legacy tools/call round trip, sequential", baseline: "session/floor: codec only, legacy messages", setup: () => pair(LEGACY), run: (n, p) => roundTrips(p, n, 1) });
defineBench({ name: "session/legacy tools/call round trip, 64 in flight", baseline: "session/floor: codec only, legacy messages", setup: () => pair(LEGACY), run: (n, p) => roundTrips(p, n, 64) });
defineBench({ name: "session/modern tools/call round trip, sequential", baseline: "session/floor: codec only, modern messages", setup: () => pair(MODERN), run: (n, p) => roundTrips(p, n, 1) });
defineBench({ name: "session/modern tools/call round trip, 64 in flight", baseline: "session/floor: codec only, modern messages", setup: () => pair(MODERN), run: (n, p) => roundTrips(p, n, 64) });
