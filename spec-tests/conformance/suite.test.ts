// The official conformance suite (@modelcontextprotocol/conformance), run as part of
// `npm test`: server scenarios of 2025-11-25 and 2026-07-28 (tasks extension included)
// against the demo server, client scenarios (authorization included) against the
// demo-client. scripts/conformance.mjs fails on any failure not listed, with its reason,
// in conformance/expected-failures.json, and on a listed failure that now passes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

test("conformance: every server and client scenario passes or is an expected failure with a reason", { timeout: 300_000 }, async () => {
  const child = spawn(process.execPath, ["scripts/conformance.mjs"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const summary = /^conformance: (\d+) passed, (\d+) failed$/m.exec(out);
  assert.ok(summary, `no summary line:\n${out.slice(-3000)}`);
  assert.ok(Number(summary[1]) >= 100, `only ${summary[1]} scenario runs passed`);
  assert.equal(code, 0, out.split("\n").filter((l) => /^(FAIL|XPASS)/.test(l)).join("\n") || out.slice(-3000));
});
