// Loads the spec's own example messages (spec-tests/fixtures/examples/<Type>/*.json).
// The compiled tests may run from another directory, so the folder is looked for next to
// this file first and then under the working directory (the repository root).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const candidates = [
  fileURLToPath(new URL("../fixtures/examples", import.meta.url)),
  resolve(process.cwd(), "spec-tests/fixtures/examples"),
];
const root = candidates.find((d) => existsSync(d)) ?? candidates[candidates.length - 1];

/** Every example of `type`, by file name; fails loudly when the folder is missing. */
export function examples(type: string): Record<string, any> {
  const dir = join(root, type);
  const out: Record<string, any> = {};
  for (const f of readdirSync(dir)) if (f.endsWith(".json")) out[f] = JSON.parse(readFileSync(join(dir, f), "utf8"));
  if (!Object.keys(out).length) throw new Error("no examples for " + type);
  return out;
}

/** The one example `file` of `type`. */
export function example(type: string, file: string): any {
  return JSON.parse(readFileSync(join(root, type, file), "utf8"));
}

/**
 * `items` behind a proxy that counts the reads of its elements: a check that searches the
 * list once per entry reads it quadratically often, one that uses a set linearly.
 */
export function counted<T>(items: T[]): { list: T[]; reads: () => number } {
  let n = 0;
  const list = new Proxy(items, {
    get(t, k, r) {
      if (typeof k === "string" && /^\d+$/.test(k)) n++;
      return Reflect.get(t, k, r);
    },
  });
  return { list, reads: () => n };
}
