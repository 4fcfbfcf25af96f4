/**
 * An async benchmark harness, for rows whose operation awaits: round trips through a
 * transport, a spawned process, a socket. (bench/harness.ts times synchronous loops; this
 * one times promises.)
 *
 * Theory of operation. A timed row's `run(state)` performs one *sample* — one round trip,
 * or a burst of k concurrent ones — and resolves with how many ops it did. The harness
 * measures the rows group by group, a row with the rows it is compared with
 * ({@link comparedGroups}): it sets the group up and warms each row (below), then
 * measures `repeats` repeats, rows interleaved (A, B, C, A, B, C…) so a slow phase of
 * this shared machine hits a row and its baseline alike, then tears the group down. One
 * repeat of a row: samples until `budgetMs` is spent or `maxSamples` are taken. Each
 * sample is timed alone with `hrtime`, so p50/p99 are over per-op times of single samples
 * (per-op = sample time ÷ ops in it). After the last repeat, each row gets one heap probe
 * per repeat: right after a forced GC (`--expose-gc`; compare.ts re-spawns itself with
 * it), used-heap growth over a few untimed samples ÷ their ops ≈ what one op allocates (a
 * minor GC inside the probe makes it an underestimate, never an overestimate). The probes
 * stay out of the timed repeats because a forced full GC throws away optimized code whose
 * embedded maps had no live object at that moment (V8's "weak objects" deopts: 124 of them
 * in one stdio run), so the samples after it timed re-optimization, not the steady state:
 * measured with a probe before each repeat, our stdio modern row read 1.55–1.94× its
 * floor; without, 1.26–1.44× (same machine, same hour). Figures quoted are medians over
 * repeats; `spread` is the fastest repeat's ops/s ÷ the slowest's.
 *
 * Warm-up is counted in ops, not only in time: V8 tiers a function up after enough calls,
 * so a fixed time warms a slow implementation less than a fast one, and a spawned peer's
 * code (client and server, each JIT-compiling on this 2-core machine) takes thousands of
 * round trips to reach steady state. Measured here: our stdio round trip ran ~3× slower
 * over its first 3,000 calls than afterwards, the SDKs' and the floors' ~1.5×. So a row
 * warms for at least `warmupMs` *and* `warmupOps` ops, whichever comes later, bounded
 * by `maxWarmupMs`; every row, ours, the SDKs' and the floors', gets the same rule, and
 * the results say how many ops each warmed for.
 *
 * A static row measures one thing once (a bundle size, the heap of N idle sessions) and
 * returns it as its `cost`. Either way `ratio` is this row's cost ÷ its baseline's, both
 * measured in this run: time per op for timed rows, the row's `metric` for static ones.
 */
import { median, percentile } from "./harness.js";

/** Bounds on `ratio`: `max` for "at most", `min` for "at least". */
export interface Target {
  max?: number;
  min?: number;
}

/** A row timed by samples. `S` is what `setup` builds (untimed). */
export interface TimedRow<S = any> {
  name: string;
  /** The row this one is divided by (measured in the same run). */
  baseline?: string;
  target?: Target;
  /** One line of context printed under the table (e.g. what is not like for like). */
  note?: string;
  setup?: () => S | Promise<S>;
  /** One sample: some ops; resolves with how many. */
  run: (state: S) => Promise<number>;
  teardown?: (state: S) => unknown;
}

/** What a static row measured. `cost` is what `ratio` compares. */
export interface Measured {
  cost: number;
  heapBytes?: number;
  opsPerSec?: number;
  p50us?: number;
  p99us?: number;
  ops?: number;
  minBytes?: number;
  gzipBytes?: number;
  brotliBytes?: number;
  /** Installed footprint: package directories under node_modules, and their bytes. */
  packages?: number;
  installedBytes?: number;
  /** An absolute bound on `cost` (e.g. a bundle budget), checked besides `target`. */
  limit?: number;
  /** What `limit` counts, as printed (default `B`). */
  limitUnit?: string;
}

/** A row measured once. */
export interface StaticRow {
  name: string;
  baseline?: string;
  target?: Target;
  note?: string;
  /** What `cost` is: `time` (µs), `heap` (bytes), `gzip` (bytes), `installed` (bytes on disk, or a package count). */
  metric: "time" | "heap" | "gzip" | "installed";
  measure: () => Promise<Measured>;
}

export type Row = TimedRow | StaticRow;

/** One row of results, as printed and as written to `bench/results-compare.json`. */
export interface CompareResult {
  name: string;
  /** Ops timed (all repeats). */
  ops: number;
  /** Timed rows: ops done warming up, before the first timed sample. */
  warmupOps?: number;
  opsPerSec: number;
  p50us: number;
  p99us: number;
  /** Timed rows: heap growth per op. Memory rows: retained bytes per session / request. */
  heapBytes: number;
  baseline: string | null;
  /** This row's cost ÷ the baseline's (see `metric`); null without a baseline. */
  ratio: number | null;
  metric: "time" | "heap" | "gzip" | "installed";
  /** The target as text (`≤ 1.25`, `≥ 10`, `≤ 15360 B`), or null. */
  target: string | null;
  pass: boolean | null;
  spread: number;
  repeats: number;
  minBytes?: number;
  gzipBytes?: number;
  brotliBytes?: number;
  packages?: number;
  installedBytes?: number;
  note?: string;
  error?: string;
}

/** Knobs for {@link runRows}. */
export interface AsyncOptions {
  repeats: number;
  /** Least warm-up per row, in time… */
  warmupMs: number;
  /** …and in ops: warm-up lasts until both are reached… */
  warmupOps: number;
  /** …or until this much time has passed, whichever comes first. */
  maxWarmupMs: number;
  /** Time spent sampling one row in one repeat. */
  budgetMs: number;
  /** Most samples per row per repeat (tiny in smoke tests). */
  maxSamples: number;
  /** Fewest samples per row per repeat, even past the budget. */
  minSamples: number;
}

/** `npm run bench:compare`: 3 repeats of ≈250 ms per row. */
export const FULL_ASYNC: AsyncOptions = { repeats: 3, warmupMs: 150, warmupOps: 10_000, maxWarmupMs: 3_000, budgetMs: 250, maxSamples: 100_000, minSamples: 5 };
/** `--quick`: a smoke check of the figures, not steady state. */
export const QUICK_ASYNC: AsyncOptions = { repeats: 2, warmupMs: 40, warmupOps: 1_000, maxWarmupMs: 300, budgetMs: 60, maxSamples: 100_000, minSamples: 3 };
/** The smoke test: a couple of samples per row, no warm-up worth the name. */
export const SMOKE_ASYNC: AsyncOptions = { repeats: 1, warmupMs: 0, warmupOps: 0, maxWarmupMs: 0, budgetMs: 0, maxSamples: 2, minSamples: 1 };

/** A spread above this is flagged as noisy. */
export const NOISY = 1.3;

/** `--expose-gc`'s `gc`, read at each call (a test stands in its own). */
const gc = (): (() => void) | undefined => (globalThis as { gc?: () => void }).gc;

/** Collects garbage (twice: weak references and finalizers settle) when exposed; no-op otherwise. */
export function collect(): void {
  gc()?.();
  gc()?.();
}

/** Whether `--expose-gc` is on (heap figures are meaningless without it). */
export const gcExposed = gc() !== undefined;

function isTimed(row: Row): row is TimedRow {
  return "run" in row;
}

interface Live {
  row: TimedRow;
  state: unknown;
  ops: number;
  warmupOps: number;
  opsPerSec: number[];
  p50: number[];
  p99: number[];
  heap: number[];
  error?: string;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

async function sample(live: Pick<Live, "row" | "state">): Promise<{ ns: number; ops: number }> {
  const t0 = process.hrtime.bigint();
  const ops = await live.row.run(live.state);
  const ns = Number(process.hrtime.bigint() - t0);
  if (!(ops > 0)) throw new Error(`run() did ${ops} ops`);
  return { ns, ops };
}

/** Warms a row (see the header): at least `warmupMs` and `warmupOps`, at most `maxWarmupMs`; at least one sample. Resolves with the ops done. */
export async function warm(live: Pick<Live, "row" | "state">, opts: Pick<AsyncOptions, "warmupMs" | "warmupOps" | "maxWarmupMs">): Promise<number> {
  const start = performance.now();
  let ops = 0;
  for (;;) {
    ops += (await sample(live)).ops;
    const spent = performance.now() - start;
    if (spent >= opts.maxWarmupMs || (spent >= opts.warmupMs && ops >= opts.warmupOps)) return ops;
  }
}

/** Heap probe: a few untimed samples right after a full collection. */
async function probeHeap(live: Live): Promise<void> {
  collect();
  const before = process.memoryUsage().heapUsed;
  let probed = 0;
  for (let i = 0; i < 8 && probed < 64; i++) probed += (await sample(live)).ops;
  live.heap.push(Math.max(0, process.memoryUsage().heapUsed - before) / probed);
}

async function repeat(live: Live, opts: AsyncOptions): Promise<void> {
  const perOpUs: number[] = [];
  let totalNs = 0;
  let totalOps = 0;
  const budgetNs = opts.budgetMs * 1e6;
  while (perOpUs.length < opts.maxSamples && (totalNs < budgetNs || perOpUs.length < opts.minSamples)) {
    const { ns, ops } = await sample(live);
    perOpUs.push(ns / ops / 1e3);
    totalNs += ns;
    totalOps += ops;
  }
  live.ops += totalOps;
  live.opsPerSec.push(totalOps / (totalNs / 1e9));
  live.p50.push(percentile(perOpUs, 50));
  live.p99.push(percentile(perOpUs, 99));
}

function targetText(t: Target | undefined, limit: number | undefined, unit = "B"): string | null {
  const parts: string[] = [];
  if (t?.max !== undefined) parts.push(`≤ ${t.max}`);
  if (t?.min !== undefined) parts.push(`≥ ${t.min}`);
  if (limit !== undefined) parts.push(`≤ ${limit} ${unit}`);
  return parts.length === 0 ? null : parts.join(", ");
}

function verdict(ratio: number | null, t: Target | undefined, cost: number, limit: number | undefined): boolean | null {
  if (t === undefined && limit === undefined) return null;
  let ok = true;
  if (t?.max !== undefined || t?.min !== undefined) {
    if (ratio === null) return false;
    if (t.max !== undefined && ratio > t.max) ok = false;
    if (t.min !== undefined && ratio < t.min) ok = false;
  }
  if (limit !== undefined && cost > limit) ok = false;
  return ok;
}

/**
 * The timed rows split into the groups that are compared with each other: a row, its
 * baseline, that one's baseline, and every row dividing by any of them. Each group is
 * set up, measured and torn down on its own, so a row shares the process only with the
 * rows its ratio involves: another group's peers (spawned servers, in-process HTTP
 * servers and their clients, thousands of held calls) and their garbage cannot land in
 * its samples. Groups keep the order of their first row; rows keep theirs within a group.
 */
export function comparedGroups(rows: readonly TimedRow[]): TimedRow[][] {
  const root = new Map<string, string>(rows.map((r) => [r.name, r.name]));
  const find = (n: string): string => {
    let r = n;
    while (root.get(r) !== r) r = root.get(r)!;
    root.set(n, r);
    return r;
  };
  for (const r of rows) if (r.baseline !== undefined && root.has(r.baseline)) root.set(find(r.name), find(r.baseline));
  const groups = new Map<string, TimedRow[]>();
  for (const r of rows) {
    const key = find(r.name);
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [r]);
    else g.push(r);
  }
  return [...groups.values()];
}

/** Runs one step of a row, unless the row already failed; a throw becomes the row's error. */
async function guarded(live: Live, step: () => Promise<void>): Promise<void> {
  if (live.error !== undefined) return;
  try {
    await step();
  } catch (e) {
    live.error = describe(e);
  }
}

/** One group: every row set up and warmed, then `repeats` repeats with the rows interleaved, then torn down. */
async function measureGroup(lives: Live[], opts: AsyncOptions, progress?: (line: string) => void): Promise<void> {
  for (const live of lives) {
    try {
      progress?.(`setup ${live.row.name}`);
      live.state = await live.row.setup?.();
      live.warmupOps = await warm(live, opts);
    } catch (e) {
      live.error = describe(e);
    }
  }
  for (let r = 0; r < opts.repeats; r++) {
    progress?.(`repeat ${r + 1}/${opts.repeats}`);
    for (const live of lives) await guarded(live, () => repeat(live, opts));
  }
  // The heap probes come after every timed repeat, never between them (see the header).
  for (let r = 0; r < opts.repeats; r++) for (const live of lives) await guarded(live, () => probeHeap(live));
  for (const live of lives) {
    try {
      await live.row.teardown?.(live.state);
    } catch (e) {
      live.error ??= `teardown: ${describe(e)}`;
    }
  }
}

/**
 * Measures `rows`: timed rows group by group ({@link comparedGroups}), each set up, warmed
 * and sampled with repeats interleaved, then torn down; then static rows one by one (after the teardown, so a memory row does not
 * see the timed rows' peers). Returns one result per row, in the order given. A row that
 * throws is reported with `error`; the others still run.
 */
export async function runRows(rows: readonly Row[], opts: AsyncOptions, progress?: (line: string) => void): Promise<CompareResult[]> {
  const lives: Live[] = [];
  for (const group of comparedGroups(rows.filter(isTimed))) {
    const members = group.map((row): Live => ({ row, state: undefined, ops: 0, warmupOps: 0, opsPerSec: [], p50: [], p99: [], heap: [] }));
    lives.push(...members);
    await measureGroup(members, opts, progress);
  }

  const costs = new Map<string, number>();
  const out = new Map<string, CompareResult>();
  for (const live of lives) {
    const measured = live.error === undefined && live.opsPerSec.length > 0;
    const opsPerSec = measured ? median(live.opsPerSec) : 0;
    if (measured) costs.set(live.row.name, 1e6 / opsPerSec);
    out.set(live.row.name, {
      name: live.row.name,
      ops: live.ops,
      warmupOps: live.warmupOps,
      opsPerSec,
      p50us: measured ? median(live.p50) : 0,
      p99us: measured ? median(live.p99) : 0,
      heapBytes: measured ? median(live.heap) : 0,
      baseline: live.row.baseline ?? null,
      ratio: null,
      metric: "time",
      target: targetText(live.row.target, undefined),
      pass: null,
      spread: measured ? Math.max(...live.opsPerSec) / Math.min(...live.opsPerSec) : 0,
      repeats: live.opsPerSec.length,
      ...(live.row.note !== undefined ? { note: live.row.note } : {}),
      ...(live.error !== undefined ? { error: live.error } : {}),
    });
  }
  const limits = new Map<string, number>();
  for (const row of rows) {
    if (isTimed(row)) continue;
    progress?.(`measure ${row.name}`);
    let m: Measured | undefined;
    let error: string | undefined;
    try {
      m = await row.measure();
      costs.set(row.name, m.cost);
      if (m.limit !== undefined) limits.set(row.name, m.limit);
    } catch (e) {
      error = describe(e);
    }
    const result: CompareResult = {
      name: row.name,
      ops: m?.ops ?? 0,
      opsPerSec: m?.opsPerSec ?? 0,
      p50us: m?.p50us ?? 0,
      p99us: m?.p99us ?? 0,
      heapBytes: m?.heapBytes ?? 0,
      baseline: row.baseline ?? null,
      ratio: null,
      metric: row.metric,
      target: targetText(row.target, m?.limit, m?.limitUnit),
      pass: null,
      spread: 1,
      repeats: m === undefined ? 0 : 1,
    };
    if (m?.minBytes !== undefined) Object.assign(result, { minBytes: m.minBytes, gzipBytes: m.gzipBytes, brotliBytes: m.brotliBytes });
    if (m?.packages !== undefined) Object.assign(result, { packages: m.packages, installedBytes: m.installedBytes });
    if (row.note !== undefined) result.note = row.note;
    if (error !== undefined) result.error = error;
    out.set(row.name, result);
  }

  return rows.map((row) => {
    const result = out.get(row.name)!;
    const cost = costs.get(row.name);
    const base = row.baseline === undefined ? undefined : costs.get(row.baseline);
    if (cost !== undefined && base !== undefined && base > 0) result.ratio = cost / base;
    // A heap baseline can read 0 at tiny sizes (GC slack is the whole signal): no ratio, but no failure.
    else if (base === 0) result.note = `${result.note ? `${result.note}; ` : ""}baseline ${row.baseline} measured 0: no ratio`;
    else if (row.baseline !== undefined && result.error === undefined) result.error = `baseline ${row.baseline} was not measured`;
    if (result.error !== undefined) {
      if (result.target !== null) result.pass = false;
    } else if (base === 0 && limits.get(row.name) === undefined) {
      // Nothing to divide by is no verdict either way (see the note), not a failure.
      result.pass = null;
    } else result.pass = verdict(result.ratio, row.target, cost ?? Infinity, limits.get(row.name));
    return result;
  });
}

function fmt(x: number, digits: number): string {
  return x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function size(r: CompareResult): string {
  if (r.packages !== undefined) return `${fmt((r.installedBytes ?? 0) / 1024, 0)} KB, ${r.packages} pkg`;
  if (r.gzipBytes === undefined) return "-";
  const kb = (b: number | undefined) => fmt((b ?? 0) / 1024, 1);
  return `${kb(r.minBytes)}/${kb(r.gzipBytes)}/${kb(r.brotliBytes)}`;
}

/** The results as an aligned table, then errors, notes and a noise warning. */
export function formatCompareTable(results: readonly CompareResult[]): string {
  const head = ["row", "ops/s", "p50 µs", "p99 µs", "heap B", "KB min/gz/br | installed", "÷ baseline", "target", "verdict", "spread"];
  const rows = results.map((r) => {
    const timed = r.opsPerSec > 0;
    return [
      r.name,
      timed ? fmt(r.opsPerSec, 0) : "-",
      r.p50us > 0 ? fmt(r.p50us, 1) : "-",
      r.p99us > 0 ? fmt(r.p99us, 1) : "-",
      r.heapBytes > 0 ? fmt(r.heapBytes, 0) : "-",
      size(r),
      r.ratio === null ? (r.baseline === null ? "(base)" : "-") : `${fmt(r.ratio, 2)}×${r.metric === "time" ? "" : ` ${r.metric}`}`,
      r.target ?? "-",
      r.error !== undefined ? "ERROR" : r.pass === null ? "-" : r.pass ? "PASS" : "FAIL",
      r.repeats > 1 ? `${fmt(r.spread, 2)}${r.spread > NOISY ? " !" : ""}` : "-",
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  let out = `${line(head)}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n`;
  for (const row of rows) out += `${line(row)}\n`;
  for (const r of results) if (r.error !== undefined) out += `ERROR ${r.name}: ${r.error}\n`;
  for (const r of results) if (r.note !== undefined) out += `note ${r.name}: ${r.note}\n`;
  if (results.some((r) => r.repeats > 1 && r.spread > NOISY)) out += `! spread (fastest repeat ÷ slowest) above ${NOISY}: noisy, rerun before trusting the row\n`;
  return out;
}
