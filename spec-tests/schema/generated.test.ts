// The committed src/schema/generated/ must be exactly what scripts/gen-validators.mjs
// writes from the vendored schemas, so the validators cannot drift from schema.json.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "./repo.js";

test("src/schema/generated is up to date with scripts/gen-validators.mjs (byte for byte)", () => {
  const out = mkdtempSync(join(tmpdir(), "mcp-gen-"));
  try {
    execFileSync(process.execPath, [join(REPO, "scripts/gen-validators.mjs"), "--out", out], { stdio: "pipe" });
    const committed = join(REPO, "src/schema/generated");
    const fresh = readdirSync(out).sort();
    assert.deepEqual(readdirSync(committed).sort(), fresh, "same files");
    for (const file of fresh) {
      const same = readFileSync(join(out, file)).equals(readFileSync(join(committed, file)));
      assert.ok(same, `${file} differs: run \`node scripts/gen-validators.mjs\``);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
