/**
 * What a fuzz target is, and how one is run over seeds or replayed from the corpus.
 *
 * A target is a generator and a checker. `generate(rng)` makes one input as plain JSON
 * (so it can be stored); `check(input)` feeds it to the code under test and throws (an
 * assertion) when an invariant breaks. A failure is reported with the input itself, which
 * `scripts/fuzz.mjs` writes to `spec-tests/fuzz/corpus/`, and `npm test` replays every
 * corpus file from then on.
 */
import { rng } from "../harness/random.js";

/** One fuzz target. `I` is plain JSON. */
export interface FuzzTarget<I = unknown> {
  /** Stable name: corpus files are filed under it. */
  name: string;
  /** Which spec page / rule the invariants come from, for the test title. */
  spec: string;
  generate(r: () => number): I;
  check(input: I): void | Promise<void>;
}

/** A failing input, as the corpus stores it. */
export interface FuzzFailure {
  target: string;
  seed: number;
  iteration: number;
  input: unknown;
  error: string;
}

/**
 * Runs `iterations` inputs of one target from one seed. Returns the first failure, or
 * null. Each input is checked from a JSON copy of itself, exactly as a replay would see
 * it, so a stored failure reproduces.
 */
export async function runTarget(target: FuzzTarget, seed: number, iterations: number): Promise<FuzzFailure | null> {
  const r = rng(seed);
  for (let i = 0; i < iterations; i++) {
    const input = JSON.parse(JSON.stringify(target.generate(r) ?? null));
    try {
      await target.check(input);
    } catch (e) {
      return { target: target.name, seed, iteration: i, input, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
  }
  return null;
}
