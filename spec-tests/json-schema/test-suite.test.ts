// The official JSON Schema Test Suite (json-schema-org/JSON-Schema-Test-Suite, commit
// 44401e0c, vendored unmodified under spec-tests/fixtures/json-schema-test-suite/) against the
// built-in validator: every case of the required draft2020-12 and draft7 files. Spec: draft
// basic/index, "JSON Schema Usage": "Clients and servers MUST support JSON Schema 2020-12 for
// schemas without an explicit `$schema` field"; "Implementations MUST NOT automatically
// dereference `$ref` values that resolve to a network URI".
//
// Each case's schema is compiled once per engine (builtinJsonSchema, and peerJsonSchema, whose
// patterns are shape-checked and charged) and each of its tests must get the suite's verdict;
// an invalid verdict must come with at least one issue. A case on SKIP must instead be refused
// at compile time with the issue its reason names (the refusals documented in the header
// comment of src/schema/json-schema.ts); a skipped case that compiles, or a case that is
// neither passing nor on SKIP, fails its file's test. Files whose every case is refused are
// not vendored (see the fixtures' README.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { builtinJsonSchema, peerJsonSchema, type JsonSchemaValidator } from "../../src/schema/json-schema.js";
import { REPO } from "../schema/repo.js";

const SUITE = join(REPO, "spec-tests/fixtures/json-schema-test-suite/tests");

const ENGINES: [string, JsonSchemaValidator][] = [
  ["builtin", builtinJsonSchema],
  ["peer", peerJsonSchema],
];

/**
 * The dialect each directory's schemas are read in. The draft7 files carry no `$schema`
 * (the suite's directory names the draft) and ours defaults to 2020-12, so the runner states
 * it on the root schema of each case; the draft2020-12 files state their own or mean the default.
 */
const DIALECT: Record<string, string | undefined> = {
  "draft2020-12": undefined,
  draft7: "http://json-schema.org/draft-07/schema#",
};

/** A documented refusal: the compile issue it gives, and where json-schema.ts documents it. */
interface Refusal {
  issue: string;
  why: string;
}
const NETWORK: Refusal = {
  issue: "network $ref not dereferenced",
  why: 'json-schema.ts "References": a $ref to a URI that is not a resource of this document is a compile error; nothing is fetched (the suite\'s remotes/ included)',
};
const DYNAMIC: Refusal = {
  issue: "unsupported $dynamicRef",
  why: 'json-schema.ts "References": $dynamicRef/$recursiveRef are refused rather than silently ignored',
};

/** [file under tests/, case description, refusal]. */
const SKIP: [file: string, description: string, refusal: Refusal][] = [
  ["draft2020-12/dynamicRef.json", "A $dynamicRef to a $dynamicAnchor in the same schema resource behaves like a normal $ref to an $anchor", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "A $dynamicRef to an $anchor in the same schema resource behaves like a normal $ref to an $anchor", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "A $dynamicRef resolves to the first $dynamicAnchor still in scope that is encountered when the schema is evaluated", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "A $dynamicRef without anchor in fragment behaves identical to $ref", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "A $dynamicRef with intermediate scopes that don't include a matching $dynamicAnchor does not affect dynamic scope resolution", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "An $anchor with the same name as a $dynamicAnchor is not used for dynamic scope resolution", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "A $dynamicRef without a matching $dynamicAnchor in the same schema resource behaves like a normal $ref to $anchor", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "A $dynamicRef with a non-matching $dynamicAnchor in the same schema resource behaves like a normal $ref to $anchor", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "A $dynamicRef that initially resolves to a schema with a matching $dynamicAnchor resolves to the first $dynamicAnchor in the dynamic scope", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "A $dynamicRef that initially resolves to a schema without a matching $dynamicAnchor behaves like a normal $ref to $anchor", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "multiple dynamic paths to the $dynamicRef keyword", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "after leaving a dynamic scope, it is not used by a $dynamicRef", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "strict-tree schema, guards against misspelled properties", NETWORK],
  ["draft2020-12/dynamicRef.json", "tests for implementation dynamic anchor and reference link", NETWORK],
  ["draft2020-12/dynamicRef.json", "$ref and $dynamicAnchor are independent of order - $defs first", NETWORK],
  ["draft2020-12/dynamicRef.json", "$ref and $dynamicAnchor are independent of order - $ref first", NETWORK],
  ["draft2020-12/dynamicRef.json", "$ref to $dynamicRef finds detached $dynamicAnchor", NETWORK],
  ["draft2020-12/dynamicRef.json", "$dynamicRef points to a boolean schema", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "$dynamicRef skips over intermediate resources - direct reference", DYNAMIC],
  ["draft2020-12/dynamicRef.json", "$dynamicRef avoids the root of each schema, but scopes are still registered", DYNAMIC],
  ["draft2020-12/ref.json", "remote ref, containing refs itself", NETWORK],
  ["draft2020-12/unevaluatedItems.json", "unevaluatedItems with $dynamicRef", DYNAMIC],
  ["draft2020-12/unevaluatedProperties.json", "unevaluatedProperties with $dynamicRef", DYNAMIC],
  ["draft7/ref.json", "remote ref, containing refs itself", NETWORK],
];

/**
 * What the vendored files hold at 44401e0c, per draft: files, tests (instances) that must pass
 * per engine, and cases (schemas) skipped. Pinned so that a file or case that silently stops
 * being run (a lost fixture, a broken reader) fails here; update with the fixtures.
 */
const EXPECTED: Record<string, { files: number; passed: number; skipped: number }> = {
  "draft2020-12": { files: 43, passed: 1213, skipped: 23 },
  draft7: { files: 35, passed: 900, skipped: 1 },
};

interface Case {
  description: string;
  schema: unknown;
  tests: { description: string; data: unknown; valid: boolean }[];
}

const tally: Record<string, { files: number; passed: Record<string, number>; skipped: number }> = {};
/** Every file read, as `<draft>/<file>`. */
const ran = new Set<string>();

for (const draft of Object.keys(DIALECT)) {
  const files = readdirSync(join(SUITE, draft)).filter((f) => f.endsWith(".json")).sort();
  const t = (tally[draft] = { files: files.length, passed: {} as Record<string, number>, skipped: 0 });
  for (const file of files) {
    const name = `${draft}/${file}`;
    test(`JSON Schema Test Suite ${name}`, () => {
      const cases: Case[] = JSON.parse(readFileSync(join(SUITE, draft, file), "utf8"));
      ran.add(name);
      const skips = SKIP.filter((s) => s[0] === name);
      const failures: string[] = [];
      for (const c of cases) {
        const skip = skips.find((s) => s[1] === c.description);
        const dialect = DIALECT[draft];
        const schema = dialect !== undefined && typeof c.schema === "object" && c.schema !== null && !("$schema" in c.schema) ? { $schema: dialect, ...c.schema } : c.schema;
        for (const [engineName, engine] of ENGINES) {
          const at = `${engineName}: ${c.description}`;
          const compiled = engine.compile(schema);
          if (skip !== undefined) {
            const issues = compiled.ok ? [] : compiled.issues;
            if (!issues.some((i) => i.reason === skip[2].issue))
              failures.push(`${at}: on the skip list (${skip[2].issue}) but ${compiled.ok ? "compiles: take it off the list" : "refused otherwise: " + JSON.stringify(issues)}`);
            continue;
          }
          if (!compiled.ok) {
            failures.push(`${at}: does not compile: ${JSON.stringify(compiled.issues)}`);
            continue;
          }
          for (const x of c.tests) {
            const issues = compiled.validate(x.data);
            if ((issues === null) !== x.valid) failures.push(`${at} / ${x.description}: expected ${x.valid ? "valid" : "invalid"}, got ${issues === null ? "valid" : JSON.stringify(issues)}`);
            else if (issues !== null && issues.length === 0) failures.push(`${at} / ${x.description}: invalid with no issue`);
            else t.passed[engineName] = (t.passed[engineName] ?? 0) + 1;
          }
        }
        if (skip !== undefined) t.skipped++;
      }
      const described = new Set(cases.map((c) => c.description));
      for (const s of skips) if (!described.has(s[1])) failures.push(`skip list names no case of this file: ${s[1]}`);
      assert.deepEqual(failures, []);
    });
  }
}

test("JSON Schema Test Suite: every file and case was run (counts at 44401e0c)", () => {
  for (const s of SKIP) assert.ok(ran.has(s[0]), `skip list names a file that is not vendored: ${s[0]}`);
  for (const [draft, e] of Object.entries(EXPECTED)) {
    const t = tally[draft];
    assert.equal(t.files, e.files, `${draft} files`);
    assert.equal(t.skipped, e.skipped, `${draft} skipped cases`);
    for (const [engine] of ENGINES) assert.equal(t.passed[engine], e.passed, `${draft} passed tests (${engine})`);
  }
});
