/**
 * Cold-start rows: from spawning `node` on a server to its answer to the first
 * `initialize` on stdio (issue 10), for each implementation's server bundle (built by
 * footprint.ts, one file each, so module loading is compared like for like), above the
 * floor: the same for a bare JSON-lines echo (node's own start-up plus one line).
 *
 * Each row spawns its server `runs` times, one at a time and interleaved with the other
 * rows' spawns, and quotes the median (p50) and the slowest run (p99 with so few runs). Target: ours at most half the SDKs' time, i.e.
 * the SDK rows' ratio (their time ÷ ours) at least 2.
 *
 * Node's own start-up (the floor) is most of every row, more than half the SDKs' time on
 * its own, so the absolute ratio cannot reach 2 for any implementation. The "above the
 * floor" rows divide what each implementation adds to it: its module loading and setup
 * until the answer (the same spawns, not new ones).
 */
import { spawn } from "node:child_process";
import type { Row } from "./async-harness.js";
import { median } from "./harness.js";
import { bundle } from "./footprint.js";
import type { Impl } from "./vs-sdk.js";
import { LABEL } from "./vs-sdk.js";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "cold-start", version: "1.0.0" } },
});

/** Spawns `node file`, sends `initialize`, resolves with the µs until the answer's line. */
export function timeToFirstAnswer(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [file], { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      const nl = out.indexOf("\n");
      if (nl < 0) return;
      const us = (performance.now() - t0) * 1e3;
      const answer = JSON.parse(out.slice(0, nl)) as { id?: unknown; result?: unknown };
      child.stdin.end();
      child.once("exit", () => (answer.id === 0 && answer.result !== undefined ? resolve(us) : reject(new Error(`unexpected first line ${out.slice(0, nl)}`))));
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (out.indexOf("\n") < 0) reject(new Error(`${file} exited with ${code} before answering`));
    });
    child.stdin.write(INITIALIZE + "\n");
  });
}

/** The bundles the cold-start rows spawn, the floor's first: each entry (bench/peers/<entry>.ts) and whose server it is. */
const BUNDLES: readonly (readonly [entry: string, impl: Impl | null])[] = [
  ["echo-stdio", null],
  ["ours-stdio", "ours"],
  ["sdk1-stdio", "sdk1"],
  ["sdk2-stdio", "sdk2"],
];

/** Spawn times of every entry, measured once per process (the "above the floor" rows reuse them). */
let spawnTimes: Promise<Map<string, number[]>> | undefined;

/**
 * `runs` spawns of each entry, interleaved (floor, ours, SDK 1, SDK 2, floor, …): a slow
 * phase of this shared machine then lands on every row alike instead of on one row's runs.
 */
function timesOf(entry: string, runs: number): Promise<number[]> {
  spawnTimes ??= (async () => {
    const files: string[] = [];
    for (const [e] of BUNDLES) {
      const { file } = await bundle(e);
      await timeToFirstAnswer(file); // warm the OS file cache
      files.push(file);
    }
    const times = new Map<string, number[]>(BUNDLES.map(([e]) => [e, []]));
    for (let i = 0; i < runs; i++) for (let k = 0; k < BUNDLES.length; k++) times.get(BUNDLES[k][0])!.push(await timeToFirstAnswer(files[k]));
    return times;
  })();
  return spawnTimes.then((t) => t.get(entry)!);
}

/** Cold-start rows; `runs` spawns per row. */
export function coldStartRows(runs: number): Row[] {
  const floor = "cold start stdio initialize: floor node + ndjson echo";
  const ours = "cold start stdio initialize: ours";
  const rows: Row[] = [];
  for (const [entry, impl] of BUNDLES) {
    rows.push({
      name: impl === null ? floor : `cold start stdio initialize: ${LABEL[impl]}`,
      metric: "time",
      ...(impl === null ? {} : impl === "ours" ? { baseline: floor } : { baseline: ours, target: { min: 2 } }),
      measure: async () => {
        const times = await timesOf(entry, runs);
        const p50 = median(times);
        return { cost: p50, p50us: p50, p99us: Math.max(...times), ops: runs, opsPerSec: 1e6 / p50 };
      },
    });
  }
  const above = "cold start above the floor: ours";
  for (const [entry, impl] of BUNDLES) {
    if (impl === null) continue;
    rows.push({
      name: `cold start above the floor: ${LABEL[impl]}`,
      metric: "time",
      ...(impl === "ours" ? { note: "what each implementation adds to node's own start-up (its p50 minus the floor's p50, same spawns): module loading and setup until the answer" } : { baseline: above, target: { min: 2 } }),
      measure: async () => {
        const floorP50 = median(await timesOf("echo-stdio", runs));
        const times = await timesOf(entry, runs);
        // A floor slower than the row (noise; a smoke run has one spawn each) leaves nothing
        // to divide by: 0, and the rows that divide by ours get no ratio and no verdict
        // (a 1 µs floor once made them read 112,841×).
        const added = Math.max(0, median(times) - floorP50);
        return { cost: added, p50us: added, p99us: Math.max(added, Math.max(...times) - floorP50), ops: runs, opsPerSec: added > 0 ? 1e6 / added : 0 };
      },
    });
  }
  return rows;
}
