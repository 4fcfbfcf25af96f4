/**
 * Growth with message size (issue 10, "Growth"), 100 B, 1 KB, 10 KB, 100 KB and 1 MB:
 *
 * - codec: decode + validate + encode of one 2026-07-28 `tools/call` request line of that
 *   size, against `JSON.parse` + `JSON.stringify` of the same text (ratio ≤ 3× at each size);
 * - round trip: an in-memory `tools/call` through a legacy (2025-11-25) pair of session
 *   reducers, carried as text, whose request line is that size and whose result echoes the
 *   argument back (so both messages are about that size); its floor is the platform's
 *   JSON doing the same work without the kernel: the request stringified and parsed, the
 *   echo stringified and parsed (ratio ≤ 3× at each size, as the codec).
 *
 * Every row reports µs per message and ns per byte (the bytes of the messages it moves).
 * Flatness criterion (one sweep row each): per-byte cost from 10 KB to 1 MB stays within
 * 3× (largest ÷ smallest), i.e. cost is O(n) in bytes; below 10 KB the per-message
 * overhead dominates and per-byte cost falls with size by design, so those points are
 * reported but not judged. The platform's own JSON is not flat from 10 KB to 1 MB on every
 * machine (a megabyte string is allocated apart from the young generation and costs more
 * per byte to make and collect), so a third sweep judges each round trip's ratio to its
 * JSON floor: what the kernel adds must grow no faster than the bytes.
 */
import { decode, encode, methodSpec } from "../src/index.js";
import type { JsonObject } from "../src/jsonrpc/types.js";
import { step } from "../src/session/session.js";
import { defineBench, defineSweep } from "./harness.js";
import { LEGACY, pair, type Pair } from "./session.js";

const SIZES: readonly [string, number][] = [["100 B", 100], ["1 KB", 1024], ["10 KB", 10 * 1024], ["100 KB", 100 * 1024], ["1 MB", 1024 * 1024]];
const VERSION = "2026-07-28" as const;

/** A tools/call request line of about `size` bytes (deterministic filler). */
function line(size: number): string {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": VERSION,
    "io.modelcontextprotocol/clientInfo": { name: "BenchClient", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const message = (text: string) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta, name: "echo", arguments: { text } } });
  return message(filler(size - message("").length));
}

/** `n` deterministic ASCII bytes (no escapes, so text length is byte length). */
function filler(n: number): string {
  return "abcdefghij".repeat(Math.ceil(Math.max(0, n) / 10)).slice(0, Math.max(0, n));
}

/** Row names of the codec and round-trip rows at a size label. */
export const sizeRow = (label: string) => `growth/size ${label}: decode+validate+encode`;
export const sizeRoundTripRow = (label: string) => `growth/size ${label}: in-memory tools/call round trip (echo)`;
const roundTripFloorRow = (label: string) => `growth/size ${label}: floor JSON round trip (request and echo, stringify+parse)`;

interface Echo {
  pair: Pair;
  params: JsonObject;
  /** Bytes of the request and the response, as text. */
  bytes: number;
}

/** A legacy pair and `tools/call` params whose request line is about `size` bytes. */
function echoSetup(size: number): Echo {
  const p = pair(LEGACY);
  const shell = (text: string) => ({ name: "echo", arguments: { text } });
  const probe = pair(LEGACY);
  let overhead = 0;
  for (const o of step(probe.client, { type: "request", now: 0, method: "tools/call", params: shell("") }).outputs) if (o.type === "send") overhead = encode(o.message).length;
  const params = shell(filler(size - overhead));
  const bytes = echoRoundTrips(probe, 1, params);
  return { pair: p, params, bytes };
}

/** `n` echo round trips; returns the bytes of the messages moved. */
function echoRoundTrips(p: Pair, n: number, params: JsonObject): number {
  let bytes = 0;
  let delivered = 0;
  for (let i = 0; i < n; i++) {
    for (const o of step(p.client, { type: "request", now: 0, method: "tools/call", params }).outputs) {
      if (o.type !== "send") continue;
      const request = encode(o.message);
      bytes += request.length;
      for (const r of step(p.server, { type: "receive", now: 0, data: request }).outputs) {
        if (r.type !== "request") continue;
        const text = (r.params?.arguments as { text: string }).text;
        for (const s of step(p.server, { type: "respond", now: 0, id: r.id, result: { content: [{ type: "text", text }] } }).outputs) {
          if (s.type !== "send") continue;
          const response = encode(s.message);
          bytes += response.length;
          for (const c of step(p.client, { type: "receive", now: 0, data: response }).outputs) if (c.type === "response") delivered++;
        }
      }
    }
  }
  if (delivered !== n) throw new Error(`expected ${n} responses, got ${delivered}`);
  return bytes;
}

/** The JSON work of `n` echo round trips, without the kernel: the request and the echoed result, each stringified and parsed. */
function jsonRoundTrips(n: number, params: JsonObject): number {
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const request = JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params });
    const text = (JSON.parse(request) as { params: { arguments: { text: string } } }).params.arguments.text;
    const response = JSON.stringify({ jsonrpc: "2.0", id: i, result: { content: [{ type: "text", text }] } });
    bytes += request.length + response.length + (JSON.parse(response) as { id: number }).id * 0;
  }
  return bytes;
}

for (const [label, size] of SIZES) {
  const floor = `growth/size ${label}: floor JSON.parse+stringify`;
  defineBench({
    name: floor,
    messagesPerOp: 1,
    bytesPerOp: (text) => text.length,
    setup: () => line(size),
    run(n, text) {
      let bytes = 0;
      for (let i = 0; i < n; i++) bytes += JSON.stringify(JSON.parse(text)).length;
      return bytes;
    },
  });
  defineBench({
    name: sizeRow(label),
    baseline: floor,
    target: 3,
    messagesPerOp: 1,
    bytesPerOp: (text) => text.length,
    setup: () => line(size),
    run(n, text) {
      const spec = methodSpec(VERSION, "tools/call")!;
      let bytes = 0;
      for (let i = 0; i < n; i++) {
        const d = decode(text);
        if (d.kind !== "request" || spec.validateParams(d.message.params) !== null) throw new Error("invalid request");
        bytes += encode(d.message).length;
      }
      return bytes;
    },
  });
  defineBench<Echo>({
    name: roundTripFloorRow(label),
    messagesPerOp: 2,
    bytesPerOp: (e) => e.bytes,
    setup: () => echoSetup(size),
    run: (n, e) => jsonRoundTrips(n, e.params),
  });
  defineBench<Echo>({
    name: sizeRoundTripRow(label),
    baseline: roundTripFloorRow(label),
    target: 3,
    messagesPerOp: 2,
    bytesPerOp: (e) => e.bytes,
    setup: () => echoSetup(size),
    run: (n, e) => echoRoundTrips(e.pair, n, e.params),
  });
}

/** The sizes the sweep rows judge (per-byte cost must stay flat from here up). */
const JUDGED = SIZES.filter(([, size]) => size >= 10 * 1024).map(([label]) => label);
defineSweep({ name: "growth/size sweep 10 KB → 1 MB, codec: per-byte cost flat", points: JUDGED.map(sizeRow), metric: "perByteNs", maxRatio: 3 });
defineSweep({ name: "growth/size sweep 10 KB → 1 MB, round trip: per-byte cost flat", points: JUDGED.map(sizeRoundTripRow), metric: "perByteNs", maxRatio: 3 });
defineSweep({ name: "growth/size sweep 10 KB → 1 MB, round trip ÷ its JSON floor: flat", points: JUDGED.map(sizeRoundTripRow), metric: "ratio", maxRatio: 3 });
