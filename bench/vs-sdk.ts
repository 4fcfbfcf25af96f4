/**
 * In-process comparison rows against the official SDKs: in-memory `tools/call` round trips
 * (sequential and 64 in flight, legacy and modern era), the codec against raw JSON and the
 * SDKs' own message parsing, heap per idle session and per in-flight request, and how
 * latency and heap grow from 1 to 10,000 concurrent requests.
 *
 * How each side is wired (bench/peers/): ours is McpServer + McpClient over
 * `createMemoryPair({ values: true })`, which hands the message *object* to the peer (no
 * serialization; the receiving kernel still checks its nesting, shape and schema), as the
 * SDKs' `InMemoryTransport.createLinkedPair()` does: those are the like-for-like rows the
 * targets apply to. The `ours (text)` rows move JSON text instead (every message encoded
 * and decoded, as on a pipe), to show what the JSON costs. SDK 2.x serves the modern era
 * in memory through `serveStdio(factory, { transport })`; 1.x has only the legacy era.
 *
 * Nothing runs at import: {@link inProcessRows} builds the rows (compare.ts calls it).
 */
import type { Row, TimedRow, StaticRow } from "./async-harness.js";
import { collect } from "./async-harness.js";
import { median } from "./harness.js";
import { ourMemoryPeer } from "./peers/ours.js";
import { sdk1MemoryPeer } from "./peers/sdk1.js";
import { sdk2MemoryPeer } from "./peers/sdk2.js";
import { arrivals, ARGS, Gate, RESULT, TOOL, type Era, type Peer } from "./peers/workload.js";
import { decode, encode } from "../src/jsonrpc/codec.js";
import { methodSpec } from "../src/model/methods.js";
import { JSONRPCMessageSchema, CallToolRequestSchema, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { deserializeMessage, serializeMessage, specTypeSchemas } from "@modelcontextprotocol/server";

/** The implementations compared, and how to get an in-memory peer of each in an era. */
export type Impl = "ours" | "sdk1" | "sdk2";
export const LABEL: Record<Impl, string> = { ours: "ours", sdk1: "sdk 1.32.2", sdk2: "sdk 2.4.0" };

/** An in-memory peer of `impl` in `era`, or undefined when `impl` has no such era (SDK 1.x modern). */
export function memoryPeer(impl: Impl, era: Era, gate?: Gate): Promise<Peer> | undefined {
  if (impl === "ours") return ourMemoryPeer(era, gate);
  if (impl === "sdk2") return sdk2MemoryPeer(era, gate);
  return era === "legacy" ? sdk1MemoryPeer(gate) : undefined;
}

function impls(era: Era): Impl[] {
  return era === "legacy" ? ["ours", "sdk1", "sdk2"] : ["ours", "sdk2"];
}

/** `k` concurrent calls; resolves with k. */
async function burst(peer: Peer, k: number): Promise<number> {
  if (k === 1) {
    await peer.call();
    return 1;
  }
  const calls: Promise<unknown>[] = new Array(k);
  for (let i = 0; i < k; i++) calls[i] = peer.call();
  await Promise.all(calls);
  return k;
}

/** Rows: tools/call round trips in memory. SDK rows are divided by ours: the ratio is how many times slower. */
function roundTripRows(): TimedRow<Peer>[] {
  const rows: TimedRow<Peer>[] = [];
  for (const era of ["legacy", "modern"] as const) {
    for (const k of [1, 64]) {
      const group = `memory ${era} ${k === 1 ? "seq" : `${k} in flight`}`;
      const base = `${group}: ours`;
      for (const impl of impls(era)) {
        rows.push({
          name: `${group}: ${LABEL[impl]}`,
          ...(impl === "ours" ? {} : { baseline: base, target: impl === "sdk2" ? { min: 10 } : undefined }),
          setup: () => memoryPeer(impl, era)!,
          run: (peer) => burst(peer, k),
          teardown: (peer) => peer.close(),
        });
      }
      rows.push({
        name: `${group}: ours (text)`,
        baseline: base,
        note: "the same pair moving JSON text, each message encoded and decoded; its ratio is its cost over the object-passing row",
        setup: () => ourMemoryPeer(era, undefined, true),
        run: (peer) => burst(peer, k),
        teardown: (peer) => peer.close(),
      });
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------
// Codec: the two messages of a round trip (the tools/call request and its result), through
// each implementation's receive path: ours decode + validate params / result + encode;
// SDK 1.x JSONRPCMessageSchema.parse + CallToolRequestSchema / CallToolResultSchema (zod)
// + JSON.stringify; SDK 2.x deserializeMessage + specTypeSchemas validation +
// serializeMessage. The floor: JSON.parse + JSON.stringify of the same text.

const REQUEST = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: TOOL, arguments: ARGS } });
const RESPONSE = JSON.stringify({ jsonrpc: "2.0", id: 7, result: RESULT });
const CODEC_VERSION = "2025-11-25";
/** Messages per sample: enough that the hrtime call is noise. */
const CODEC_BATCH = 2000;

function codecRow(name: string, baseline: string | undefined, target: number | undefined, once: () => number): TimedRow<void> {
  return {
    name,
    ...(baseline === undefined ? {} : { baseline, target: target === undefined ? undefined : { max: target } }),
    run: async () => {
      let bytes = 0;
      for (let i = 0; i < CODEC_BATCH; i += 2) bytes += once();
      if (bytes <= 0) throw new Error("nothing encoded");
      return CODEC_BATCH;
    },
  };
}

function codecRows(): TimedRow<void>[] {
  const floor = "codec round-trip messages: floor raw JSON.parse+stringify";
  const spec = methodSpec(CODEC_VERSION, "tools/call");
  if (spec === undefined || spec.validateResult === null) throw new Error("tools/call is not a method of 2025-11-25");
  const validateResult = spec.validateResult;
  return [
    codecRow(floor, undefined, undefined, () => JSON.stringify(JSON.parse(REQUEST)).length + JSON.stringify(JSON.parse(RESPONSE)).length),
    codecRow("codec round-trip messages: ours", floor, 1.5, () => {
      const q = decode(REQUEST);
      const r = decode(RESPONSE);
      if (q.kind !== "request" || r.kind !== "result") throw new Error("decode failed");
      if (spec.validateParams(q.message.params) !== null || validateResult(r.message.result) !== null) throw new Error("invalid");
      return encode(q.message).length + encode(r.message).length;
    }),
    codecRow(`codec round-trip messages: ${LABEL.sdk1}`, floor, undefined, () => {
      const q = JSONRPCMessageSchema.parse(JSON.parse(REQUEST));
      const r = JSONRPCMessageSchema.parse(JSON.parse(RESPONSE)) as { result: unknown };
      CallToolRequestSchema.parse(q);
      CallToolResultSchema.parse(r.result);
      return JSON.stringify(q).length + JSON.stringify(r).length;
    }),
    codecRow(`codec round-trip messages: ${LABEL.sdk2}`, floor, undefined, () => {
      const q = deserializeMessage(REQUEST);
      const r = deserializeMessage(RESPONSE) as { result: unknown };
      const a = specTypeSchemas.CallToolRequest["~standard"].validate(q) as { issues?: unknown };
      const b = specTypeSchemas.CallToolResult["~standard"].validate(r.result) as { issues?: unknown };
      if (a.issues !== undefined || b.issues !== undefined) throw new Error("invalid");
      return serializeMessage(q).length + serializeMessage(r as never).length;
    }),
  ];
}

// ---------------------------------------------------------------------------------------
// Memory: retained heap per idle session and per in-flight request.

/** Sizes of the memory rows (the smoke test shrinks them). */
export interface MemorySizes {
  sessions: number;
  inFlight: number;
  /** Concurrency levels of the growth rows. */
  levels: number[];
  /** Ops timed per growth level (at least 5 bursts of the level's size). */
  growthOps: number;
}
export const FULL_SIZES: MemorySizes = { sessions: 200, inFlight: 1000, levels: [1, 10, 100, 1000, 10_000], growthOps: 3000 };
export const SMOKE_SIZES: MemorySizes = { sessions: 3, inFlight: 5, levels: [1, 4], growthOps: 2 };

function heapUsed(): number {
  collect();
  return process.memoryUsage().heapUsed;
}

/** Heap retained by `n` connected, idle client+server pairs ÷ n. */
async function perIdleSession(impl: Impl, era: Era, n: number): Promise<number> {
  const peers: Peer[] = [];
  // One first, so code and shared tables are loaded before the measurement starts.
  const first = await memoryPeer(impl, era)!;
  const before = heapUsed();
  for (let i = 0; i < n; i++) peers.push(await memoryPeer(impl, era)!);
  const after = heapUsed();
  for (const p of [first, ...peers]) await p.close();
  return Math.max(0, after - before) / n;
}

/** Heap retained while `n` requests are in flight (parked in the server's handler) ÷ n. */
async function perInFlight(peer: Peer, gate: Gate, n: number): Promise<number> {
  const before = heapUsed();
  const start = gate.arrived;
  const calls: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) calls.push(peer.hold());
  await arrivals(gate, start + n);
  const after = heapUsed();
  gate.release();
  await Promise.all(calls);
  return Math.max(0, after - before) / n;
}

function memoryRows(sizes: MemorySizes): StaticRow[] {
  const rows: StaticRow[] = [];
  for (const era of ["legacy", "modern"] as const) {
    const idle = `memory/idle session ${era}`;
    const held = `memory/in-flight request ${era}`;
    for (const impl of impls(era)) {
      const against = impl === "ours" ? {} : { baseline: `${idle}: ours` };
      rows.push({ name: `${idle}: ${LABEL[impl]}`, metric: "heap", ...against, measure: async () => {
        const bytes = await perIdleSession(impl, era, sizes.sessions);
        return { cost: bytes, heapBytes: bytes, ops: sizes.sessions };
      } });
      rows.push({ name: `${held}: ${LABEL[impl]}`, metric: "heap", ...(impl === "ours" ? {} : { baseline: `${held}: ours` }), measure: async () => {
        const gate = new Gate();
        const peer = await memoryPeer(impl, era, gate)!;
        await perInFlight(peer, gate, 1); // warm: first hold loads the path
        const bytes = await perInFlight(peer, gate, sizes.inFlight);
        await peer.close();
        return { cost: bytes, heapBytes: bytes, ops: sizes.inFlight };
      } });
    }
  }
  return rows;
}

/**
 * Growth: at each concurrency level, per-op latency of bursts of that many calls (p50/p99
 * over bursts) and the heap each in-flight request retains at that level. The ratio divides
 * each level by the same implementation at concurrency 1: a flat curve stays near 1.
 */
function growthRows(sizes: MemorySizes): StaticRow[] {
  const rows: StaticRow[] = [];
  const era: Era = "legacy";
  for (const impl of impls(era)) {
    for (const level of sizes.levels) {
      const base = `growth ${era} ×${sizes.levels[0]}: ${LABEL[impl]}`;
      rows.push({
        name: `growth ${era} ×${level}: ${LABEL[impl]}`,
        metric: "time",
        // Ours must stay flat: per-op cost at any level at most 3× its cost at concurrency 1 (O(1) per message).
        ...(level === sizes.levels[0] ? {} : { baseline: base, ...(impl === "ours" ? { target: { max: 3 } } : {}) }),
        measure: async () => {
          const gate = new Gate();
          const peer = await memoryPeer(impl, era, gate)!;
          try {
            const bursts = Math.max(5, Math.ceil(sizes.growthOps / level));
            for (let i = 0; i < Math.min(bursts, 3 + Math.ceil(200 / level)); i++) await burst(peer, level); // warm-up
            const perOp: number[] = [];
            let ns = 0;
            for (let i = 0; i < bursts; i++) {
              const t0 = process.hrtime.bigint();
              await burst(peer, level);
              const t = Number(process.hrtime.bigint() - t0);
              ns += t;
              perOp.push(t / level / 1e3);
            }
            perOp.sort((a, b) => a - b);
            const p = (q: number) => perOp[Math.min(perOp.length - 1, Math.ceil(q * perOp.length) - 1)];
            // Retained heap per in-flight request at this level; a median of 5 at small levels, where one GC's slack is the size of the signal.
            const heaps: number[] = [];
            for (let i = 0; i < (level < 100 ? 5 : 1); i++) heaps.push(await perInFlight(peer, gate, level));
            const heap = median(heaps);
            const ops = bursts * level;
            return { cost: ns / ops / 1e3, opsPerSec: ops / (ns / 1e9), p50us: p(0.5), p99us: p(0.99), heapBytes: heap, ops };
          } finally {
            await peer.close();
          }
        },
      });
    }
  }
  return rows;
}

/** Every in-process comparison row. */
export function inProcessRows(sizes: MemorySizes = FULL_SIZES): Row[] {
  return [...roundTripRows(), ...codecRows(), ...memoryRows(sizes), ...growthRows(sizes)];
}
