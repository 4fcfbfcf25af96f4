// Spec: draft basic/index, "Composition-Keyword Resource Use": implementations "SHOULD apply
// reasonable bounds, such as a maximum schema depth, a cap on the total number of subschemas,
// or a per-validation time budget, to prevent a malicious schema from acting as a
// Denial-of-Service vector against the validator". A client validates structuredContent
// against the server's outputSchema (server/tools: "Clients SHOULD validate structured
// results against this schema"), so a server chooses the patterns the client runs; with
// JavaScript's backtracking engine and no regex timeout, `^(a+)+$` against 28 characters
// blocks the thread for seconds. The peer validator does not run such patterns (it refuses
// them where they select keys, patternProperties, and leaves them unasserted where they only
// constrain a string: the peer could as well have left them out) and charges every other
// pattern test its worst-case cost against the step budget. No
// wall clock is read: the bound is on counted steps, so these tests are deterministic.
import { test } from "node:test";
import assert from "node:assert/strict";
import { builtinJsonSchema, createJsonSchemaValidator, peerJsonSchema } from "../../src/schema/json-schema.js";

const reason = (schema: unknown) => {
  const c = peerJsonSchema.compile(schema);
  return c.ok ? "ok" : c.issues.map((i) => `${i.path}: ${i.reason}`).join();
};

test("json schema (peer): patterns that backtrack exponentially are never run: refused where they select keys, unasserted where they constrain a string; the application's own schemas are unaffected", () => {
  const unsafe = ["^(a+)+$", "(a*)*b", "(a|aa)+", "(?:x|y)*z", "(\\w+\\s?)*$", "((ab)*c)+", "(a?)+", "(?<n>a+){2,}", "(a)\\1", "(?<n>a)\\k<n>", "^[a-z]+(\\.[a-z]+)*$"];
  const attack = "a".repeat(40) + "!"; // seconds to hours of backtracking for the first ones, were they run
  for (const p of unsafe) {
    assert.equal(reason({ patternProperties: { [p]: {} } }), "/patternProperties: unsafe pattern", p);
    const string = peerJsonSchema.compile({ type: "string", pattern: p, maxLength: 64 });
    assert.ok(string.ok, p);
    assert.equal(string.validate(attack), null, `${p}: not asserted`);
    assert.deepEqual(string.validate("a".repeat(65)), [{ path: "", reason: "must satisfy maxLength 64" }], `${p}: the rest of the schema still holds`);
    const names = peerJsonSchema.compile({ propertyNames: { pattern: p } });
    assert.ok(names.ok && names.validate({ [attack]: 1 }) === null, p);
    // A schema of the application's own is trusted as written (a server's inputSchema).
    assert.equal(builtinJsonSchema.compile({ pattern: p }).ok, true, p);
  }
  // What looks like a quantifier or a group inside a class, an escape or a group's kind is not one.
  const safe = ["^\\p{L}+$", "[(]+x", "[\\]+*]+", "^(?:https?|ftp)://\\S+$", "(?=a+)b", "(?<!a)b+", "(?<name>ab)+", "(ab)+", "((a))+", "(a{2}){3}", "(?:a+)?", "\\u{1F600}{2}", "^\\d{3}-\\d{4}$", "a{2,}?", "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$"];
  for (const p of safe) assert.equal(reason({ pattern: p }), "ok", p);
  assert.equal(reason({ pattern: "(" }), "/pattern: invalid pattern");
});

test("json schema (peer): a pattern test is charged its worst case, so a long string against a polynomial pattern exhausts the budget instead of the thread", () => {
  // "a*a*a*$" is tried at every position with three unbounded quantifiers: about n^4 steps.
  const poly = peerJsonSchema.compile({ type: "string", pattern: "a*a*a*$" });
  assert.ok(poly.ok);
  assert.equal(poly.validate("a".repeat(40) + "!"), null);
  assert.deepEqual(poly.validate("a".repeat(1000) + "!"), [{ path: "", reason: "validation budget exceeded" }]);
  // Many strings share one budget.
  const many = peerJsonSchema.compile({ items: { pattern: "a*a*a*$" } });
  assert.ok(many.ok);
  assert.equal(many.validate(["a".repeat(40)]), null);
  assert.deepEqual(many.validate(Array.from({ length: 100 }, () => "a".repeat(40))), [{ path: "", reason: "validation budget exceeded" }]);
  // patternProperties tests keys the same way.
  const keys = peerJsonSchema.compile({ patternProperties: { "a*a*a*$": { type: "number" } } });
  assert.ok(keys.ok);
  assert.deepEqual(keys.validate({ ["a".repeat(1000)]: 1 }), [{ path: "", reason: "validation budget exceeded" }]);
  // Everyday patterns stay usable at everyday lengths: anchored, few quantifiers.
  const email = peerJsonSchema.compile({ pattern: "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$" });
  assert.ok(email.ok);
  assert.equal(email.validate("someone." + "x".repeat(200) + "@example.com"), null);
  const base64 = peerJsonSchema.compile({ pattern: "^[A-Za-z0-9+/]*={0,2}$" });
  assert.ok(base64.ok);
  assert.equal(base64.validate("QUJD".repeat(250_000)), null, "a megabyte against an anchored pattern with one quantifier");
  // The charge follows maxSteps, and a trusted validator is never charged.
  const tight = createJsonSchemaValidator({ untrusted: true, maxSteps: 10 }).compile({ pattern: "a*" });
  assert.ok(tight.ok);
  assert.deepEqual(tight.validate("a".repeat(200)), [{ path: "", reason: "validation budget exceeded" }]);
  const trusted = createJsonSchemaValidator({ maxSteps: 10 }).compile({ pattern: "a*" });
  assert.ok(trusted.ok);
  assert.equal(trusted.validate("a".repeat(200)), null);
});
