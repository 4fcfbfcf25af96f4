// Fuzzing on a fixed seed set, and the corpus of every input that ever failed.
// Spec: basic/index (every message a valid JSON-RPC message, every request answered),
// basic/transports (stdio and Streamable HTTP framing), STYLE.md (no throw escapes the
// kernel, state stays plain JSON). Long runs: `npm run fuzz -- --iterations N --seed S`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TARGETS, runTarget } from "./targets.js";
import { corpus } from "./corpus.js";

/** Inputs per target per seed in `npm test`: seconds in all, enough to hit every branch family. */
const BUDGET: Record<string, number> = { "codec-text": 1500, "codec-bytes": 1500, validators: 1000, ndjson: 400, sse: 500, session: 120, "session-tasks": 80, http: 60, "stateless-http": 60, "modern-http": 80, "mrtr-server": 40, "sse-client": 40, interleave: 17 };
const SEEDS = [1, 2, 3];

for (const target of TARGETS) {
  test(`fuzz ${target.name} (${target.spec}): seeds ${SEEDS.join(",")} hold every invariant`, async () => {
    for (const seed of SEEDS) {
      const failure = await runTarget(target, seed, BUDGET[target.name] ?? 100);
      assert.equal(failure, null, failure === null ? "" : `seed ${seed} iteration ${failure.iteration}: ${failure.error}\ninput: ${JSON.stringify(failure.input).slice(0, 2000)}`);
    }
  });
}

test("fuzz corpus: every stored input (past failures and hand-picked edge cases) still holds its target's invariants", async () => {
  const entries = corpus();
  assert.ok(entries.length > 0, "the corpus is empty");
  for (const entry of entries) {
    const target = TARGETS.find((t) => t.name === entry.target);
    assert.ok(target !== undefined, `${entry.file}: no target named ${entry.target}`);
    await assert.doesNotReject(async () => target.check(entry.input as never), `${entry.file} (${entry.note ?? "no note"})`);
  }
});

test("fuzz harness: a target whose invariant breaks is caught, with the input that broke it", async () => {
  const broken = { name: "broken", spec: "", generate: (r: () => number) => ({ n: Math.floor(r() * 10) }), check: (i: { n: number }) => assert.notEqual(i.n, 3) };
  const failure = await runTarget(broken, 1, 200);
  assert.ok(failure !== null);
  assert.deepEqual(failure.input, { n: 3 });
});
