// Spec: RFC 6570 (URI Template) levels 1-4, through the official test suite
// (github.com/uri-templates/uritemplate-test, vendored in spec-tests/fixtures/uritemplate-test):
// every expansion case must give its result (or one of the listed ones), every negative case
// must be refused, when parsed or when expanded.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expandUriTemplate, parseUriTemplate, type UriTemplateValue } from "../../src/api/uri-template.js";

/** The vendored suite, found from the working directory or above the compiled test, wherever the build went. */
function suiteDir(): string {
  for (let dir = fileURLToPath(new URL(".", import.meta.url)); ; dir = dirname(dir)) {
    for (const base of [process.cwd(), dir]) {
      const candidate = join(base, "spec-tests/fixtures/uritemplate-test/");
      if (existsSync(candidate)) return candidate;
    }
    if (dirname(dir) === dir) throw new Error("spec-tests/fixtures/uritemplate-test not found");
  }
}

interface Group {
  level?: number;
  variables: Record<string, unknown>;
  testcases: [string, string | string[] | false][];
}

function load(file: string): Record<string, Group> {
  return JSON.parse(readFileSync(join(suiteDir(), file), "utf8"));
}

/**
 * The suite's values as the expansion API takes them. Its JSON numbers (`"number": 6`,
 * `"lat": -122.427`) become their decimal strings: RFC 6570 §2.3 values are strings,
 * lists or maps, and the API keeps to those types.
 */
function values(variables: Record<string, unknown>): Record<string, UriTemplateValue | undefined> {
  const out: Record<string, UriTemplateValue | undefined> = {};
  for (const [k, v] of Object.entries(variables)) out[k] = typeof v === "number" ? String(v) : (v as UriTemplateValue | undefined);
  return out;
}

/** Expands a case, or returns the refusal (a parse reason or an expansion TypeError) as `false`. */
function expand(template: string, vars: Record<string, UriTemplateValue | undefined>): string | false {
  const t = parseUriTemplate(template);
  if (typeof t === "string") return false;
  try {
    return expandUriTemplate(t, vars);
  } catch (e) {
    assert.ok(e instanceof TypeError, `${template}: ${e}`);
    return false;
  }
}

/** No case is skipped: every one of the suite's decisions is the RFC's, and this module follows it. */
const SKIP = new Set<string>();

function run(file: string): { passed: number; skipped: number } {
  let passed = 0;
  let skipped = 0;
  for (const [group, { variables, testcases }] of Object.entries(load(file))) {
    const vars = values(variables);
    for (const [template, expected] of testcases) {
      if (SKIP.has(template)) {
        skipped++;
        continue;
      }
      const got = expand(template, vars);
      const label = `${file} / ${group}: ${template}`;
      if (expected === false) assert.equal(got, false, `${label} must be refused, expanded to ${JSON.stringify(got)}`);
      else if (Array.isArray(expected)) assert.ok(got !== false && expected.includes(got), `${label}: ${JSON.stringify(got)} is none of ${JSON.stringify(expected)}`);
      else assert.equal(got, expected, label);
      passed++;
    }
  }
  return { passed, skipped };
}

test("RFC 6570 §1.2 (uritemplate-test spec-examples.json): every level 1-4 example expands as the RFC shows", () => {
  const { passed, skipped } = run("spec-examples.json");
  assert.equal(skipped, 0);
  assert.equal(passed, 64);
});

test("RFC 6570 (uritemplate-test extended-tests.json): multibyte prefixes, pct-encoded names, explode combinations, literal encoding", () => {
  const { passed, skipped } = run("extended-tests.json");
  assert.equal(skipped, 0);
  assert.equal(passed, 53);
});

test("RFC 6570 §2 (uritemplate-test negative-tests.json): every invalid template is refused, at parse time or when expanded", () => {
  const { passed, skipped } = run("negative-tests.json");
  assert.equal(skipped, 0);
  assert.equal(passed, 36);
});
