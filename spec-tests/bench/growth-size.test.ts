// Smoke test of the message-size growth rows (bench/growth-size.ts): each row runs with a
// couple of tiny samples and yields a well-formed result. No timing assertions: how fast
// anything is is the bench's business, never a test's.
import { test } from "node:test";
import assert from "node:assert/strict";
import "../../bench/growth-size.js";
import { registeredBenches, runBenches, type BenchOptions } from "../../bench/harness.js";

const TINY: BenchOptions = { repeats: 1, samples: 2, sampleMs: 0.05, warmupMs: 0, quick: true };

test("bench/growth-size: every size from 100 B to 1 MB has a floor row, a decode+validate+encode row, and a round-trip row with its own JSON floor, that run", () => {
  const defs = registeredBenches().filter((d) => d.name.startsWith("growth/size "));
  assert.equal(defs.length, 20, "5 sizes × (JSON floor, codec, round trip's JSON floor, round trip)");
  const results = runBenches(defs, TINY);
  const names = new Set(results.map((r) => r.name));
  for (const r of results) {
    assert.equal(r.error, undefined, `${r.name}: ${r.error}`);
    assert.equal(r.kind, "time");
    assert.ok(r.ops > 0 && r.opsPerSec > 0 && Number.isFinite(r.opsPerSec), `${r.name}: ops`);
    assert.ok(r.p50us > 0 && r.p99us >= r.p50us, `${r.name}: percentiles`);
    if (r.baseline !== null) {
      assert.ok(names.has(r.baseline), `${r.name}: baseline ${r.baseline} is not a row`);
      assert.ok(r.ratio !== null && r.ratio > 0, `${r.name}: ratio`);
      assert.equal(typeof r.pass, "boolean");
    }
  }
});
