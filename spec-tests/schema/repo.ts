// Test helpers: find the source checkout (tests run from a build directory) and read the
// vendored schemas and the spec's example messages straight from it, so expectations come
// from the schema text and not from the generated tables under test.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout holding scripts/gen-validators.mjs: the working directory or an ancestor of this file. */
export const REPO: string = (() => {
  const starts = [process.cwd(), dirname(fileURLToPath(import.meta.url))];
  for (const start of starts) {
    for (let dir = start; ; dir = dirname(dir)) {
      if (existsSync(join(dir, "scripts/gen-validators.mjs")) && existsSync(join(dir, "src/schema/generated"))) return dir;
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error("source checkout not found (run from the repository root)");
})();

/** A JSON Schema node, loosely typed. */
export type Schema = { [key: string]: any };

/** The definitions of one vendored schema version. */
export function definitions(version: string): Record<string, Schema> {
  const schema = JSON.parse(readFileSync(join(REPO, "scripts/spec/schema", version, "schema.json"), "utf8"));
  return schema.$defs ?? schema.definitions;
}

/** One example message: its type (directory name), file name and parsed value. */
export interface Example {
  type: string;
  file: string;
  value: unknown;
}

/** Every spec-tests/fixtures/examples/<Type>/*.json. */
export function examples(): Example[] {
  const root = join(REPO, "spec-tests/fixtures/examples");
  const out: Example[] = [];
  for (const type of readdirSync(root).sort()) {
    if (type === "LICENSE") continue;
    for (const file of readdirSync(join(root, type)).sort()) {
      if (file.endsWith(".json")) out.push({ type, file, value: JSON.parse(readFileSync(join(root, type, file), "utf8")) });
    }
  }
  return out;
}

/** Follows `$ref`s to `#/$defs/X` or `#/definitions/X`. */
export function deref(defs: Record<string, Schema>, s: Schema): Schema {
  while (s && typeof s.$ref === "string") s = defs[s.$ref.split("/").pop()!];
  return s;
}
