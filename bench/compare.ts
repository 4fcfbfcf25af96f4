/**
 * `npm run bench:compare [-- --quick] [-- --filter TEXT]... [-- --out FILE]`: every
 * comparison row against the official SDKs (vs-sdk.ts, transports.ts, footprint.ts with its install rows,
 * cold-start.ts) through the async harness; prints the table and writes
 * `bench/results-compare.json`. Re-spawns itself once with `--expose-gc` so heap figures
 * mean something. Exit status 1 when a row misses its target or cannot be measured.
 *
 * Importing this module runs nothing (bench/run.ts imports every bench/*.js): the run
 * starts only when this file is the process's entry point.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { FULL_ASYNC, QUICK_ASYNC, SMOKE_ASYNC, formatCompareTable, gcExposed, runRows, type AsyncOptions, type CompareResult, type Row } from "./async-harness.js";
import { coldStartRows } from "./cold-start.js";
import { footprintRows, installRows } from "./footprint.js";
import { transportRows } from "./transports.js";
import { FULL_SIZES, SMOKE_SIZES, inProcessRows, type MemorySizes } from "./vs-sdk.js";

/** How big a run is: harness knobs, memory-row sizes, cold-start spawns per row. */
export interface CompareMode {
  harness: AsyncOptions;
  sizes: MemorySizes;
  coldRuns: number;
  /** Run the install rows (npm pack + three `npm install`s, ≈ 15 s; the smoke test leaves them out: they need npm's cache or registry). */
  install: boolean;
}

export const FULL_MODE: CompareMode = { harness: FULL_ASYNC, sizes: FULL_SIZES, coldRuns: 9, install: true };
export const QUICK_MODE: CompareMode = { harness: QUICK_ASYNC, sizes: { ...FULL_SIZES, sessions: 50, growthOps: 1000 }, coldRuns: 3, install: true };
/** The smoke test's: every row, a sample or two each (checks the wiring, measures nothing). */
export const SMOKE_MODE: CompareMode = { harness: SMOKE_ASYNC, sizes: SMOKE_SIZES, coldRuns: 1, install: false };

/** Every comparison row, in table order. */
export function compareRows(mode: CompareMode): Row[] {
  return [...inProcessRows(mode.sizes), ...transportRows(), ...coldStartRows(mode.coldRuns), ...footprintRows(), ...(mode.install ? installRows() : [])];
}

/** Rows whose name contains one of `filters`, with the baselines they name (transitively). */
export function selectRows(rows: readonly Row[], filters: readonly string[]): Row[] {
  if (filters.length === 0) return [...rows];
  const byName = new Map(rows.map((r) => [r.name, r]));
  const wanted = new Set(rows.filter((r) => filters.some((f) => r.name.includes(f))).map((r) => r.name));
  for (const name of [...wanted]) {
    for (let b = byName.get(name)?.baseline; b !== undefined && !wanted.has(b); b = byName.get(b)?.baseline) wanted.add(b);
  }
  return rows.filter((r) => wanted.has(r.name));
}

/** Runs the selected rows; resolves with the results. */
export function runCompare(mode: CompareMode, filters: readonly string[] = [], progress?: (line: string) => void): Promise<CompareResult[]> {
  return runRows(selectRows(compareRows(mode), filters), mode.harness, progress);
}

async function main(): Promise<void> {
  if (!gcExposed && process.env.MCP_KERNEL_BENCH_CHILD === undefined) {
    const child = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
      stdio: "inherit",
      env: { ...process.env, MCP_KERNEL_BENCH_CHILD: "1" },
    });
    process.exit(child.status ?? 1);
  }
  const args = process.argv.slice(2);
  const filters: string[] = [];
  let quick = false;
  let out = resolve("bench", "results-compare.json");
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--quick") quick = true;
    else if (args[i] === "--filter" && i + 1 < args.length) filters.push(args[++i]);
    else if (args[i].startsWith("--filter=")) filters.push(args[i].slice("--filter=".length));
    else if (args[i] === "--out" && i + 1 < args.length) out = resolve(args[++i]);
    else {
      process.stderr.write("usage: npm run bench:compare -- [--quick] [--filter TEXT]... [--out FILE]\n");
      process.exit(2);
    }
  }
  const mode = quick ? QUICK_MODE : FULL_MODE;
  const t0 = performance.now();
  process.stderr.write(`compare: ${quick ? "quick, " : ""}${mode.harness.repeats} repeats, gc ${gcExposed ? "exposed" : "not exposed"}, node ${process.version}\n`);
  const leaks = countListenerWarnings();
  const results = await runCompare(mode, filters, (line) => {
    leaks.step = line;
    process.stderr.write(`  ${line}\n`);
  });
  process.stdout.write(formatCompareTable(results));
  if (leaks.count > 0) {
    process.stdout.write(`warning: ${leaks.count} MaxListenersExceededWarning, the first during "${leaks.first}": a peer piles listeners onto one EventTarget (e.g. an abort listener per request on a shared AbortSignal)\n`);
  }
  writeFileSync(out, JSON.stringify(results, null, 2) + "\n");
  process.stdout.write(`wrote ${relative(process.cwd(), out)} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  // Peers' sockets and timers (the SDKs' among them) may keep the loop alive: exit explicitly.
  process.exit(results.some((r) => r.pass === false || r.error !== undefined) ? 1 : 0);
}

/**
 * Node prints a MaxListenersExceededWarning each time a listener is added past the limit:
 * the SDK 1.x HTTP client, whose fetches share one AbortSignal, floods the output with
 * thousands during its rows. They are counted instead and summed up once under the table
 * (the step running when the first came, as a pointer); other warnings print as usual.
 */
function countListenerWarnings(): { count: number; first: string; step: string } {
  const seen = { count: 0, first: "", step: "start" };
  process.removeAllListeners("warning");
  process.on("warning", (w) => {
    if (w.name !== "MaxListenersExceededWarning") return void process.stderr.write(`${w.name}: ${w.message}\n`);
    if (seen.count++ === 0) seen.first = seen.step;
  });
  return seen;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
