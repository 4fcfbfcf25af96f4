/**
 * The fuzz corpus: every input that ever failed, one JSON file each, under
 * `spec-tests/fuzz/corpus/` (`{ target, seed, iteration, input, note? }`). `fuzz.test.ts`
 * replays all of them on every `npm test`; `scripts/fuzz.mjs` adds to it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../schema/repo.js";

/** Where the corpus lives in the source checkout. */
export const CORPUS_DIR = join(REPO, "spec-tests/fuzz/corpus");

/** One stored input. */
export interface CorpusEntry {
  file: string;
  target: string;
  input: unknown;
  note?: string;
}

/** Every corpus file, sorted by name. */
export function corpus(): CorpusEntry[] {
  if (!existsSync(CORPUS_DIR)) return [];
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => {
      const entry = JSON.parse(readFileSync(join(CORPUS_DIR, file), "utf8"));
      return { file, target: entry.target, input: entry.input, note: entry.note };
    });
}
