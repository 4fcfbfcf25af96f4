// Smoke test of `npm run bench:compare` (bench/compare.ts): every comparison row against
// the official SDKs runs once with a sample or two, and its result has the fields the
// results file promises, with sane values. No timing assertions: how fast anything is
// is the bench's business, never a test's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SMOKE_MODE, compareRows, runCompare, selectRows } from "../../bench/compare.js";
import { formatCompareTable, type CompareResult } from "../../bench/async-harness.js";

const FIELDS = ["name", "ops", "opsPerSec", "p50us", "p99us", "heapBytes", "baseline", "ratio"] as const;

let results: CompareResult[] | undefined;
async function smoke(): Promise<CompareResult[]> {
  results ??= await runCompare(SMOKE_MODE);
  return results;
}

test("bench/compare: row names are unique and every baseline names a row of the run", () => {
  const rows = compareRows(SMOKE_MODE);
  const names = new Set(rows.map((r) => r.name));
  assert.equal(names.size, rows.length, "duplicate row names");
  for (const r of rows) if (r.baseline !== undefined) assert.ok(names.has(r.baseline), `${r.name}: baseline ${r.baseline} is not a row`);
  for (const group of ["memory legacy", "codec", "memory/idle session", "memory/in-flight request", "growth", "stdio", "http", "cold start", "footprint"]) {
    for (const impl of ["ours", "sdk 1.32.2", "sdk 2.4.0"]) {
      assert.ok(rows.some((r) => r.name.startsWith(group) && r.name.endsWith(impl)), `no ${group} row for ${impl}`);
    }
  }
});

test("bench/compare: --filter keeps the matching rows and the baselines they are divided by", () => {
  const rows = compareRows(SMOKE_MODE);
  const picked = selectRows(rows, ["stdio legacy seq: sdk 2.4.0"]).map((r) => r.name);
  // sdk 2 is divided by ours, which is divided by the floor.
  assert.deepEqual(picked, ["stdio legacy seq: floor raw ndjson echo", "stdio legacy seq: ours", "stdio legacy seq: sdk 2.4.0"]);
});

test("bench/compare: every row runs and reports name, ops, opsPerSec, p50us, p99us, heapBytes, baseline, ratio", { timeout: 240_000 }, async () => {
  const out = await smoke();
  assert.equal(out.length, compareRows(SMOKE_MODE).length);
  const byName = new Map(out.map((r) => [r.name, r]));
  for (const r of out) {
    assert.equal(r.error, undefined, `${r.name}: ${r.error}`);
    for (const f of FIELDS) assert.ok(f in r, `${r.name}: no ${f}`);
    for (const f of ["ops", "opsPerSec", "p50us", "p99us", "heapBytes"] as const) {
      assert.ok(Number.isFinite(r[f]) && r[f] >= 0, `${r.name}: ${f} = ${r[f]}`);
    }
    assert.ok(r.p50us <= r.p99us, `${r.name}: p50 ${r.p50us} > p99 ${r.p99us}`);
    // A baseline that measured 0 leaves no ratio and no verdict, with a note saying so: a heap
    // reading at smoke sizes, or cold start above the floor when one spawn of ours beat the floor's.
    const zeroBase = r.ratio === null && (r.note ?? "").includes("measured 0");
    if (r.baseline === null) assert.equal(r.ratio, null, `${r.name}: a ratio without a baseline`);
    else {
      assert.ok(byName.has(r.baseline), `${r.name}: baseline ${r.baseline} missing from the results`);
      if (r.metric === "heap") {
        // At smoke sizes either heap reading can be 0 (GC slack is the whole signal): a 0 row a
        // ratio of 0. Only the full bench's sizes are figures.
        assert.ok(zeroBase || (r.ratio !== null && Number.isFinite(r.ratio) && r.ratio >= 0), `${r.name}: ratio ${r.ratio}`);
      } else assert.ok(zeroBase || (r.ratio !== null && Number.isFinite(r.ratio) && r.ratio > 0), `${r.name}: ratio ${r.ratio}`);
    }
    if (r.target !== null) assert.ok(typeof r.pass === "boolean" || (zeroBase && r.pass === null), `${r.name}: a target without a verdict`);
    if (r.metric === "time") {
      // What ours adds above node's start-up may measure 0 (at or below the floor), never less.
      const atFloor = r.name === "cold start above the floor: ours" && r.p50us === 0;
      assert.ok(r.ops > 0 && (atFloor || (r.opsPerSec > 0 && r.p50us > 0)), `${r.name}: nothing timed`);
    } else if (r.metric === "heap") {
      assert.ok(r.ops > 0, `${r.name}: no sessions or requests measured`);
    } else {
      // Footprint: a real bundle, and compression that shrinks it.
      assert.ok(r.minBytes !== undefined && r.gzipBytes !== undefined && r.brotliBytes !== undefined, `${r.name}: sizes missing`);
      assert.ok(r.minBytes > 1000 && r.gzipBytes > 0 && r.gzipBytes < r.minBytes && r.brotliBytes < r.minBytes, `${r.name}: sizes ${r.minBytes}/${r.gzipBytes}/${r.brotliBytes}`);
    }
  }
});

test("bench/compare: the table prints every row", { timeout: 240_000 }, async () => {
  const out = await smoke();
  const table = formatCompareTable(out);
  for (const r of out) assert.ok(table.includes(r.name), `${r.name} not in the table`);
  assert.ok(!table.includes("ERROR"), table);
});
