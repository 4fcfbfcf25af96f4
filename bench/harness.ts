/**
 * A small benchmark harness: rows registered with {@link defineBench}, measured by
 * {@link runBenches}, compared against a baseline row measured in the same run.
 *
 * Theory of operation. A row is a function `run(n)` doing `n` operations. The harness
 * warms it up, then calibrates a *sample* size (how many ops take about `sampleMs`),
 * and times `samples` samples of that size with `process.hrtime.bigint()`. That is one
 * *repeat*. Repeats of all rows are interleaved (row A, row B, row A, row B…), so a
 * slow phase of the machine hits a row and its baseline alike; the quoted figures are
 * the medians over repeats, and `spread` (fastest repeat / slowest) says how far to
 * trust them. Before each repeat the heap is collected if `gc` is exposed (run.ts
 * re-spawns itself with `--expose-gc`), and then one untimed sample measures how much
 * the used heap grows per op: with a fresh young generation no collection runs during
 * one short sample, so the growth is what the op allocates.
 *
 * `ratio` is this row's time per op divided by its baseline's, so 1.20 means 20% slower
 * than the floor; a row with a `target` passes when `ratio <= target`, one with a
 * `minOpsPerSec` when its median ops/s reaches it (an absolute figure, so it only holds
 * on the machine it was set for; the ratio is the portable reading).
 *
 * Memory rows ({@link defineMemoryBench}) are not timed: each repeat calls `measure`,
 * which builds what it measures between forced collections and reports the retained heap
 * per item; the median over repeats is quoted and compared with `maxBytes`. `measure` may
 * be async (rows that drive McpServer and McpClient over a memory pair).
 *
 * A row whose op is indivisible (a burst of `unit` concurrent round trips) gets batches
 * that are multiples of `unit`; a row whose batch takes longer than `sampleMs` is sampled
 * fewer times, so one repeat costs about `samples × sampleMs` whatever the row (never
 * fewer than `minSamples`). Rows that declare `messagesPerOp` / `bytesPerOp` also report
 * the cost per message (µs) and per byte (ns). Sweep rows ({@link defineSweep}) measure
 * nothing themselves: they read one of those figures off their points and pass when the
 * largest is at most `maxRatio` times the smallest (a flat curve).
 */

/** One benchmark row. `S` is whatever `setup` builds (inputs, untimed). */
export interface BenchDef<S = unknown> {
  /** Unique row name, e.g. `codec/decode+validate+encode`. */
  name: string;
  /** Name of the row this one is compared to (measured in the same run). */
  baseline?: string;
  /** Highest acceptable `ratio` (time per op / baseline's); needs `baseline`. */
  target?: number;
  /** Lowest acceptable median ops/s, when the requirement is an absolute rate. */
  minOpsPerSec?: number;
  /** Builds the inputs; may throw to report the row as broken (e.g. invalid fixtures). */
  setup?: () => S;
  /** Performs `n` operations; the return value is kept so the work cannot be optimized away. */
  run: (n: number, state: S) => unknown;
  /** Ops that only run together (a burst of this many concurrent requests): `n` is always a multiple of it. Default 1. */
  unit?: number;
  /** Messages one op puts on the wire (a round trip: 2): the result then has `perMessageUs`. */
  messagesPerOp?: number;
  /** Bytes one op moves, from the setup state: the result then has `perByteNs`. */
  bytesPerOp?: (state: S) => number;
}

/**
 * A sweep row: one figure read off each of its points (timed rows of the same run) must
 * stay flat, the largest at most `maxRatio` × the smallest.
 */
export interface SweepDef {
  /** Unique row name, e.g. `growth/in-flight sweep`. */
  name: string;
  /** The rows of the sweep, smallest first. */
  points: readonly string[];
  /** The figure that must stay flat (`ratio`: each point's time ÷ its own baseline's, which takes out what the baselines themselves grow by). */
  metric: "perMessageUs" | "perByteNs" | "ratio";
  /** Highest acceptable largest ÷ smallest. */
  maxRatio: number;
}

/**
 * One memory row: `measure` builds `ops` items (sessions, requests in flight, round
 * trips...) and returns the growth of the used heap per item, measured after forced
 * collections (see {@link usedHeapAfterGc}). Needs `--expose-gc`; without it the row is
 * reported as an error rather than as a misleading number.
 */
export interface MemoryBenchDef {
  /** Unique row name, e.g. `memory/idle session`. */
  name: string;
  /** Highest acceptable heap bytes per item. */
  maxBytes: number;
  /** Items per repeat in a full run, and in `--quick` mode. */
  ops: number;
  quickOps?: number;
  /** Builds `ops` items and returns retained heap bytes per item; may throw (or reject) to report the row as broken. */
  measure: (ops: number) => number | Promise<number>;
}

/** One row of results, as printed and as written to `bench/results.json`. */
export interface BenchResult {
  name: string;
  /** `time` for timed rows, `memory` for {@link defineMemoryBench} rows, `sweep` for {@link defineSweep} rows (no timing fields for the last two: they are 0). */
  kind: "time" | "memory" | "sweep";
  /** Operations timed in each repeat. */
  ops: number;
  /** Median over repeats of operations per second. */
  opsPerSec: number;
  /** Median over repeats of the per-op time at the 50th / 99th percentile of samples, in µs. */
  p50us: number;
  p99us: number;
  /** Median over repeats of used-heap growth per op, in bytes: ≈ allocation per op for timed rows, retained bytes per item for memory rows. */
  heapBytes: number;
  /** The row compared to, or null. */
  baseline: string | null;
  /** Time per op / baseline's time per op (medians); for a sweep row, its points' largest figure ÷ smallest; null without a baseline. */
  ratio: number | null;
  /** Declared target: highest `ratio` for timed rows, highest `heapBytes` for memory rows, highest largest ÷ smallest for sweep rows; or null. */
  target: number | null;
  /** Declared lowest ops/s, or null. */
  minOpsPerSec: number | null;
  /** Every declared target met, or null without any. */
  pass: boolean | null;
  /** Fastest repeat's ops/s / slowest repeat's. */
  spread: number;
  /** Repeats measured. */
  repeats: number;
  /** Time rows declaring `messagesPerOp`: µs per message (median time per op ÷ messages per op). */
  perMessageUs?: number;
  /** Time rows declaring `bytesPerOp`: ns per byte moved. */
  perByteNs?: number;
  /** Set when the row could not be measured (setup or run threw). */
  error?: string;
}

/** Knobs for {@link runBenches}. */
export interface BenchOptions {
  /** Repeats per row (median quoted). */
  repeats: number;
  /** Timed samples per repeat. */
  samples: number;
  /** Aim for one sample to take this long. */
  sampleMs: number;
  /** Warm-up time per row before calibration. */
  warmupMs: number;
  /** Memory rows use their `quickOps`. */
  quick: boolean;
  /** Fewest timed samples per repeat of a row whose batch outlasts `sampleMs` (default 5). */
  minSamples?: number;
}

/** Full run: 5 repeats of 200 samples of ≈1 ms. */
export const FULL: BenchOptions = { repeats: 5, samples: 200, sampleMs: 1, warmupMs: 200, quick: false };

/** `--quick`: 3 repeats of 100 samples of ≈0.5 ms. */
export const QUICK: BenchOptions = { repeats: 3, samples: 100, sampleMs: 0.5, warmupMs: 50, quick: true, minSamples: 3 };

/** A spread above this is flagged as noisy. */
export const NOISY_SPREAD = 1.3;

const registry: BenchDef<any>[] = [];

/** Registers a row (call at a bench file's top level); returns it for convenience. */
export function defineBench<S>(def: BenchDef<S>): BenchDef<S> {
  if (registry.some((r) => r.name === def.name)) throw new Error(`bench row ${def.name} defined twice`);
  registry.push(def);
  return def;
}

/** Every row registered so far, in definition order. */
export function registeredBenches(): readonly BenchDef<any>[] {
  return registry;
}

const memoryRegistry: MemoryBenchDef[] = [];

/** Registers a memory row (call at a bench file's top level); returns it for convenience. */
export function defineMemoryBench(def: MemoryBenchDef): MemoryBenchDef {
  if (registry.some((r) => r.name === def.name) || memoryRegistry.some((r) => r.name === def.name)) throw new Error(`bench row ${def.name} defined twice`);
  memoryRegistry.push(def);
  return def;
}

/** Every memory row registered so far, in definition order. */
export function registeredMemoryBenches(): readonly MemoryBenchDef[] {
  return memoryRegistry;
}

const sweepRegistry: SweepDef[] = [];

/** Registers a sweep row (call at a bench file's top level, after its points); returns it. */
export function defineSweep(def: SweepDef): SweepDef {
  if (registry.some((r) => r.name === def.name) || memoryRegistry.some((r) => r.name === def.name) || sweepRegistry.some((r) => r.name === def.name)) throw new Error(`bench row ${def.name} defined twice`);
  sweepRegistry.push(def);
  return def;
}

/** Every sweep row registered so far, in definition order. */
export function registeredSweeps(): readonly SweepDef[] {
  return sweepRegistry;
}

/**
 * The used heap after collecting until it stops shrinking (one `gc()` can leave garbage
 * that only a second pass frees: weak references, finalized code). Throws without `gc`.
 */
export function usedHeapAfterGc(): number {
  if (gc === undefined) throw new Error("memory rows need node --expose-gc (npm run bench re-spawns with it)");
  let used = Infinity;
  for (let i = 0; i < 5; i++) {
    gc();
    const now = process.memoryUsage().heapUsed;
    if (now >= used) return now;
    used = now;
  }
  return used;
}

/** Keeps results reachable so the optimizer cannot drop the work. */
export let sink: unknown;

const gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc;

function now(): bigint {
  return process.hrtime.bigint();
}

/** Median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The `p`-th percentile (0..100) of a non-empty list, nearest-rank. */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length)));
  return s[rank - 1];
}

interface Live {
  def: BenchDef<any>;
  state: unknown;
  batch: number;
  opsPerSec: number[];
  p50: number[];
  p99: number[];
  heap: number[];
  /** Estimated ns of one batch, from calibration. */
  batchNs: number;
  /** Timed samples per repeat (see {@link samplesOf}). */
  samples: number;
  error?: string;
}

/** Runs `n` ops and returns the elapsed nanoseconds. */
function timed(live: Live, n: number): number {
  const t0 = now();
  sink = live.def.run(n, live.state);
  return Number(now() - t0);
}

/** Warms up, then picks the ops per sample (a multiple of the row's `unit`) so that one sample takes about `sampleMs`. */
function calibrate(live: Live, opts: BenchOptions): void {
  const warmupNs = opts.warmupMs * 1e6;
  const unit = live.def.unit ?? 1;
  let n = unit;
  let spent = 0;
  // Doubling until a batch is long enough to time, and the warm-up budget is spent.
  for (;;) {
    const ns = timed(live, n);
    spent += ns;
    if (ns >= opts.sampleMs * 1e6 || spent >= warmupNs) {
      const perOp = Math.max(ns / n, 1);
      live.batch = unit * Math.max(1, Math.round((opts.sampleMs * 1e6) / perOp / unit));
      live.batchNs = perOp * live.batch;
      if (spent >= warmupNs) return;
    }
    if (ns < opts.sampleMs * 1e6) n *= 2;
  }
}

/** Samples per repeat: `opts.samples`, fewer when one batch outlasts `sampleMs` (so a repeat costs about the same for every row). */
function samplesOf(live: Live, opts: BenchOptions): number {
  const budgetNs = opts.samples * opts.sampleMs * 1e6;
  const fit = Math.floor(budgetNs / Math.max(live.batchNs, 1));
  return Math.min(opts.samples, Math.max(opts.minSamples ?? 5, fit));
}

/** One repeat of one row: heap probe, then the timed samples. */
function repeat(live: Live, opts: BenchOptions): void {
  gc?.();
  const before = process.memoryUsage().heapUsed;
  sink = live.def.run(live.batch, live.state);
  const grown = process.memoryUsage().heapUsed - before;
  live.heap.push(Math.max(0, grown) / live.batch);

  const samples = samplesOf(live, opts);
  const perOpUs: number[] = new Array(samples);
  let total = 0;
  for (let i = 0; i < samples; i++) {
    const ns = timed(live, live.batch);
    total += ns;
    perOpUs[i] = ns / live.batch / 1e3;
  }
  live.samples = samples;
  live.opsPerSec.push((samples * live.batch) / (total / 1e9));
  live.p50.push(percentile(perOpUs, 50));
  live.p99.push(percentile(perOpUs, 99));
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Measures `defs` (rows and their baselines interleaved, repeat by repeat) and returns one result per row. */
export function runBenches(defs: readonly BenchDef<any>[], opts: BenchOptions, progress?: (line: string) => void): BenchResult[] {
  const lives: Live[] = defs.map((def) => ({ def, state: undefined, batch: 1, batchNs: 0, samples: opts.samples, opsPerSec: [], p50: [], p99: [], heap: [] }));
  for (const live of lives) {
    try {
      live.state = live.def.setup?.();
      calibrate(live, opts);
    } catch (e) {
      live.error = describe(e);
    }
  }
  for (let r = 0; r < opts.repeats; r++) {
    progress?.(`repeat ${r + 1}/${opts.repeats}`);
    for (const live of lives) {
      if (live.error !== undefined) continue;
      try {
        repeat(live, opts);
      } catch (e) {
        live.error = describe(e);
      }
    }
  }
  const byName = new Map(lives.map((l) => [l.def.name, l]));
  return lives.map((live): BenchResult => {
    const { def } = live;
    const measured = live.error === undefined && live.opsPerSec.length > 0;
    const opsPerSec = measured ? median(live.opsPerSec) : 0;
    const base = def.baseline === undefined ? undefined : byName.get(def.baseline);
    let ratio: number | null = null;
    if (measured && base !== undefined && base.error === undefined && base.opsPerSec.length > 0) {
      // Time per op over the baseline's time per op = baseline ops/s over ours.
      ratio = median(base.opsPerSec) / opsPerSec;
    }
    const target = def.target ?? null;
    const minOpsPerSec = def.minOpsPerSec ?? null;
    const checks: boolean[] = [];
    if (target !== null) checks.push(ratio !== null && ratio <= target);
    if (minOpsPerSec !== null) checks.push(measured && opsPerSec >= minOpsPerSec);
    const result: BenchResult = {
      name: def.name,
      kind: "time",
      ops: measured ? live.batch * live.samples : 0,
      opsPerSec,
      p50us: measured ? median(live.p50) : 0,
      p99us: measured ? median(live.p99) : 0,
      heapBytes: measured ? median(live.heap) : 0,
      baseline: def.baseline ?? null,
      ratio,
      target,
      minOpsPerSec,
      pass: checks.length === 0 ? null : checks.every(Boolean),
      spread: measured ? Math.max(...live.opsPerSec) / Math.min(...live.opsPerSec) : 0,
      repeats: live.opsPerSec.length,
    };
    if (measured && def.messagesPerOp !== undefined) result.perMessageUs = 1e6 / opsPerSec / def.messagesPerOp;
    if (measured && def.bytesPerOp !== undefined) {
      try {
        result.perByteNs = 1e9 / opsPerSec / def.bytesPerOp(live.state);
      } catch (e) {
        live.error ??= describe(e);
      }
    }
    if (live.error !== undefined) result.error = live.error;
    else if (def.baseline !== undefined && base === undefined) result.error = `baseline ${def.baseline} is not a row of this run`;
    else if (def.baseline !== undefined && ratio === null) result.error = `baseline ${def.baseline} could not be measured`;
    return result;
  });
}

/** Measures memory rows, `opts.repeats` times each (median quoted), and returns one result per row. */
export async function runMemoryBenches(defs: readonly MemoryBenchDef[], opts: BenchOptions, progress?: (line: string) => void): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const def of defs) {
    const ops = opts.quick ? (def.quickOps ?? def.ops) : def.ops;
    const samples: number[] = [];
    let error: string | undefined;
    progress?.(`memory: ${def.name}`);
    for (let r = 0; r < opts.repeats && error === undefined; r++) {
      try {
        samples.push(await def.measure(ops));
      } catch (e) {
        error = describe(e);
      }
    }
    const measured = error === undefined && samples.length > 0;
    const heapBytes = measured ? median(samples) : 0;
    const result: BenchResult = {
      name: def.name,
      kind: "memory",
      ops: measured ? ops : 0,
      opsPerSec: 0,
      p50us: 0,
      p99us: 0,
      heapBytes,
      baseline: null,
      ratio: null,
      target: def.maxBytes,
      minOpsPerSec: null,
      pass: measured && heapBytes <= def.maxBytes,
      // Largest repeat over smallest, floored at one byte so an empty row reads 1.
      spread: measured ? Math.max(1, ...samples) / Math.max(1, Math.min(...samples)) : 0,
      repeats: samples.length,
    };
    if (error !== undefined) result.error = error;
    results.push(result);
  }
  return results;
}

/** Evaluates sweep rows over the results of their points (measured in the same run). */
export function evaluateSweeps(defs: readonly SweepDef[], results: readonly BenchResult[]): BenchResult[] {
  const byName = new Map(results.map((r) => [r.name, r]));
  return defs.map((def): BenchResult => {
    const points = def.points.map((name) => byName.get(name));
    const values = points.map((p) => p?.[def.metric] ?? undefined);
    const missing = def.points.filter((_, i) => values[i] === undefined || !(values[i]! > 0) || points[i]!.error !== undefined);
    const ok = missing.length === 0 && values.length > 0;
    const ratio = ok ? Math.max(...(values as number[])) / Math.min(...(values as number[])) : null;
    const result: BenchResult = {
      name: def.name,
      kind: "sweep",
      ops: ok ? points.reduce((sum, p) => sum + p!.ops, 0) : 0,
      opsPerSec: 0,
      p50us: 0,
      p99us: 0,
      heapBytes: 0,
      baseline: null,
      ratio,
      target: def.maxRatio,
      minOpsPerSec: null,
      pass: ratio !== null && ratio <= def.maxRatio,
      // The noisiest point's spread: the sweep is no more trustworthy than that.
      spread: ok ? Math.max(...points.map((p) => p!.spread)) : 0,
      repeats: ok ? Math.min(...points.map((p) => p!.repeats)) : 0,
    };
    if (!ok) result.error = `no ${def.metric} for ${missing.join(", ")}`;
    return result;
  });
}

function fmt(x: number, digits: number): string {
  return x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** The results as an aligned text table, with a legend. */
export function formatTable(results: readonly BenchResult[]): string {
  const timedRows = results.filter((r) => r.kind === "time");
  const memoryRows = results.filter((r) => r.kind === "memory");
  const sweepRows = results.filter((r) => r.kind === "sweep");
  let out = timedRows.length > 0 ? formatTimed(timedRows) : "";
  if (memoryRows.length > 0) out += (out === "" ? "" : "\n") + formatMemory(memoryRows);
  if (sweepRows.length > 0) out += (out === "" ? "" : "\n") + formatSweeps(sweepRows);
  for (const r of results) if (r.error !== undefined) out += `ERROR ${r.name}: ${r.error}\n`;
  if (timedRows.some((r) => r.spread > NOISY_SPREAD)) out += `! spread (fastest repeat ÷ slowest) above ${NOISY_SPREAD}: noisy, rerun before trusting the row\n`;
  return out;
}

/** Pads cells into aligned columns, the first left-aligned. */
function align(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  let out = `${line(head)}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n`;
  for (const row of rows) out += `${line(row)}\n`;
  return out;
}

function verdict(r: BenchResult): string {
  return r.pass === null ? "-" : r.pass ? "PASS" : "FAIL";
}

function formatTimed(results: readonly BenchResult[]): string {
  const head = ["row", "ops/s", "p50 µs", "p99 µs", "heap B/op", "µs/msg", "ns/B", "time/op ÷ baseline", "target", "verdict", "spread"];
  const targetOf = (r: BenchResult): string => {
    const parts: string[] = [];
    if (r.target !== null) parts.push(`≤ ${fmt(r.target, 2)}×`);
    if (r.minOpsPerSec !== null) parts.push(`≥ ${fmt(r.minOpsPerSec, 0)}/s`);
    return parts.length === 0 ? "-" : parts.join(", ");
  };
  const rows = results.map((r) => {
    if (r.error !== undefined && r.repeats === 0) return [r.name, "-", "-", "-", "-", "-", "-", "-", targetOf(r), "ERROR", "-"];
    return [
      r.name,
      fmt(r.opsPerSec, 0),
      fmt(r.p50us, 3),
      fmt(r.p99us, 3),
      fmt(r.heapBytes, 0),
      r.perMessageUs === undefined ? "-" : fmt(r.perMessageUs, 3),
      r.perByteNs === undefined ? "-" : fmt(r.perByteNs, r.perByteNs < 10 ? 3 : 1),
      r.ratio === null ? (r.baseline === null ? "(floor)" : "-") : `${fmt(r.ratio, 2)}×`,
      targetOf(r),
      verdict(r),
      `${fmt(r.spread, 2)}${r.spread > NOISY_SPREAD ? " !" : ""}`,
    ];
  });
  return align(head, rows);
}

function formatMemory(results: readonly BenchResult[]): string {
  const head = ["memory row", "items", "heap B/item", "limit B/item", "verdict"];
  const rows = results.map((r) =>
    r.error !== undefined && r.repeats === 0
      ? [r.name, "-", "-", `≤ ${fmt(r.target ?? 0, 0)}`, "ERROR"]
      : [r.name, fmt(r.ops, 0), fmt(r.heapBytes, r.heapBytes < 10 ? 3 : 0), `≤ ${fmt(r.target ?? 0, r.target !== null && r.target < 10 ? 3 : 0)}`, verdict(r)],
  );
  return align(head, rows);
}

function formatSweeps(results: readonly BenchResult[]): string {
  const head = ["sweep row", "largest ÷ smallest", "limit", "verdict", "worst spread"];
  const rows = results.map((r) =>
    r.ratio === null
      ? [r.name, "-", `≤ ${fmt(r.target ?? 0, 2)}×`, "ERROR", "-"]
      : [r.name, `${fmt(r.ratio, 2)}×`, `≤ ${fmt(r.target ?? 0, 2)}×`, verdict(r), `${fmt(r.spread, 2)}${r.spread > NOISY_SPREAD ? " !" : ""}`],
  );
  return align(head, rows);
}
