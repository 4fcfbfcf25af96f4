// Spec: `schema.json` of each version (draft `basic/index`, "Schema"). The generated table
// is split (scripts/gen-validators.mjs): validate.ts's own lookups hold the types the
// method tables validate, and the schema entry point (types.ts) holds every type. The
// split may only move bytes: both parts must check every type exactly as schema.json says.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as kernel from "../../src/schema/validate.js";
import * as full from "../../src/schema/index.js";
import { INPUT_REQUESTS, METHODS } from "../../src/model/methods.js";
import { PROTOCOL_VERSIONS, SCHEMA_VERSIONS } from "../../src/model/versions.js";
import { definitions } from "./repo.js";

test("the kernel's lookups know every params and result type of every method, and nothing schema.json lacks", () => {
  for (const version of SCHEMA_VERSIONS) {
    const known = new Set(kernel.typeNames(version));
    const specs = [...Object.values(METHODS[version]), ...(version === "2026-07-28" ? Object.values(INPUT_REQUESTS) : [])];
    for (const spec of specs) {
      // The tasks extension's methods are hand-written, with no schema type behind "Result".
      for (const type of [spec.paramsType, spec.resultType]) if (type !== null && full.validatorFor(version, type) !== undefined) assert.ok(known.has(type), `${version} ${spec.method}: ${type}`);
    }
    for (const type of ["CreateTaskResult", "Implementation", "InputRequiredResult", "Result"]) {
      if (full.validatorFor(version, type) !== undefined) assert.ok(known.has(type), `${version} ${type}`);
    }
  }
  for (const version of SCHEMA_VERSIONS) {
    const defined = new Set(Object.keys(definitions(version)));
    for (const type of kernel.typeNames(version)) assert.ok(defined.has(type), `${version} ${type}`);
  }
});

test("a type the kernel knows has the same validator in both tables; the rest only in the full one", () => {
  for (const version of PROTOCOL_VERSIONS) {
    const known = new Set(kernel.typeNames(version));
    assert.ok(known.size > 0 && known.size < full.typeNames(version).length, version);
    for (const type of full.typeNames(version)) {
      if (known.has(type)) assert.equal(kernel.validatorFor(version, type), full.validatorFor(version, type), `${version} ${type}`);
      else assert.equal(kernel.validatorFor(version, type), undefined, `${version} ${type}`);
    }
  }
  // The message envelopes and unions live in the full table only.
  assert.equal(kernel.validate("2025-11-25", "JSONRPCRequest", {}).ok, false);
  assert.deepEqual(full.validate("2025-11-25", "JSONRPCRequest", { jsonrpc: "2.0", id: 1, method: "ping" }), { ok: true, value: { jsonrpc: "2.0", id: 1, method: "ping" } });
  assert.deepEqual(full.validate("2025-11-25", "ClientRequest", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5 } }), {
    ok: false,
    issues: [{ path: "/params/name", reason: "expected string" }],
  });
});

test("a node number past the kernel's table, asked for before the full table is loaded, fails that one call only: the full table's types check as ever once it is loaded (its line offsets were fixed as an empty table's)", async () => {
  const { execFileSync } = await import("node:child_process");
  const base = new URL("../../src/schema/", import.meta.url).href;
  const source = `const k = await import(${JSON.stringify(base + "validate.js")});
const { NODES } = await import(${JSON.stringify(base + "generated/nodes.js")});
let early;
try { k.nodeValidator(NODES.split("\\n").length + 1)({}); early = "no throw"; } catch (e) { early = e.constructor.name; }
const full = await import(${JSON.stringify(base + "index.js")});
console.log(JSON.stringify({ early, later: full.validate("2025-11-25", "JSONRPCRequest", { jsonrpc: "2.0", id: 1, method: "ping" }).ok }));`;
  const r = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", source], { encoding: "utf8" })) as { early: string; later: boolean };
  assert.deepEqual(r, { early: "SyntaxError", later: true });
});
