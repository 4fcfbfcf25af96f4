// Every module of src/ loads on its own, with no side effect that throws (the kernel is
// sans-I/O: importing it does nothing). This also makes type-only modules (their compiled
// form is an empty `export {}`) count as loaded for the coverage report rather than as
// uncovered lines; their code, if any, is still counted function by function.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const compiledSrc = fileURLToPath(new URL("../../src/", import.meta.url));

/** Compiled modules whose source still exists (a stale .js left by a deleted .ts is skipped). */
function modules(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...modules(path));
    else if (name.endsWith(".js") && existsSync(`${path}.map`)) {
      const map = JSON.parse(readFileSync(`${path}.map`, "utf8")) as { sources: string[]; sourceRoot?: string };
      const source = resolve(dirname(path), map.sourceRoot ?? "", map.sources[0]);
      if (existsSync(source)) found.push(path);
    }
  }
  return found;
}

test("every module under src/ imports cleanly on its own (the executable shim src/cli/bin.ts excepted)", async () => {
  const all = modules(compiledSrc).filter((p) => relative(compiledSrc, p) !== join("cli", "bin.js"));
  assert.ok(all.length > 10, `found ${all.length} modules under ${compiledSrc}`);
  for (const path of all) {
    await assert.doesNotReject(import(pathToFileURL(path).href), relative(compiledSrc, path));
  }
});
