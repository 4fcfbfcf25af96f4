// Spec: draft basic/index, "JSON Schema Usage": "Clients and servers MUST support JSON Schema
// 2020-12 for schemas without an explicit `$schema` field"; "MUST handle unsupported dialects
// gracefully by returning an appropriate error"; "Implementations MUST NOT automatically
// dereference `$ref` values that resolve to a network URI"; "Schemas that fail to validate due
// to an unresolved external `$ref` SHOULD be rejected rather than silently treated as
// permissive"; composition keywords: implementations "SHOULD apply reasonable bounds, such as a
// maximum schema depth, a cap on the total number of subschemas, or a per-validation time budget".
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Issue } from "../../src/schema/validate.js";
import { builtinJsonSchema, createJsonSchemaValidator, isSupportedDialect, peerJsonSchema, type JsonSchemaValidator } from "../../src/schema/json-schema.js";
import { MAX_ISSUES } from "../../src/schema/validate.js";
import { elicitationFormats } from "../../src/schema/elicitation.js";

function compile(schema: unknown, engine: JsonSchemaValidator = builtinJsonSchema) {
  const c = engine.compile(schema);
  if (!c.ok) assert.fail("schema did not compile: " + JSON.stringify(c.issues));
  return c.validate;
}
function compileError(schema: unknown, engine: JsonSchemaValidator = builtinJsonSchema): Issue[] {
  const c = engine.compile(schema);
  assert.equal(c.ok, false, "schema compiled: " + JSON.stringify(schema));
  return (c as { issues: Issue[] }).issues;
}

// [keyword, schema, valid instances, invalid instances as [instance, pointer of the issue]]
type Row = [string, unknown, unknown[], [unknown, string][]];
const TABLE: Row[] = [
  ["type string", { type: "string" }, ["", "x"], [[1, ""], [null, ""]]],
  ["type number", { type: "number" }, [0, 1.5, -3], [["1", ""], [NaN, ""], [Infinity, ""]]],
  ["type integer", { type: "integer" }, [0, 2, 1.0, -7], [[1.5, ""], ["1", ""]]],
  ["type boolean", { type: "boolean" }, [true, false], [[0, ""]]],
  ["type null", { type: "null" }, [null], [[0, ""], [undefined, ""]]],
  ["type object", { type: "object" }, [{}, { a: 1 }], [[[], ""], [null, ""]]],
  ["type array", { type: "array" }, [[], [1]], [[{}, ""]]],
  ["type list", { type: ["string", "null"] }, ["a", null], [[1, ""]]],
  ["properties", { properties: { a: { type: "string" }, "x/y": { type: "number" } } }, [{}, { a: "s" }, { b: 1 }, 5], [[{ a: 1 }, "/a"], [{ "x/y": "n" }, "/x~1y"]]],
  ["required", { required: ["a", "b~c"] }, [{ a: 1, "b~c": 2 }, "not an object"], [[{ a: 1 }, "/b~0c"]]],
  ["additionalProperties false", { properties: { a: {} }, additionalProperties: false }, [{ a: 1 }, {}], [[{ a: 1, b: 2 }, "/b"]]],
  ["additionalProperties schema", { properties: { a: {} }, additionalProperties: { type: "number" } }, [{ a: "s", b: 2 }], [[{ b: "x" }, "/b"]]],
  ["patternProperties", { patternProperties: { "^x-": { type: "string" } }, additionalProperties: false }, [{ "x-a": "s" }], [[{ "x-a": 1 }, "/x-a"], [{ y: 1 }, "/y"]]],
  ["items", { items: { type: "number" } }, [[], [1, 2], "not an array"], [[[1, "2"], "/1"]]],
  ["prefixItems", { prefixItems: [{ type: "string" }, { type: "number" }] }, [["a", 1], ["a"], ["a", 1, null]], [[[1, 1], "/0"], [["a", "b"], "/1"]]],
  ["prefixItems + items", { prefixItems: [{ type: "string" }], items: false }, [["a"], []], [[["a", 1], "/1"]]],
  ["enum", { enum: ["a", 1, null, [1], { k: "v" }] }, ["a", 1, null, [1], { k: "v" }], [["b", ""], [[1, 2], ""], [{ k: "w" }, ""], [{}, ""]]],
  ["const scalar", { const: 3 }, [3, 3.0], [[4, ""], ["3", ""]]],
  ["const deep", { const: { a: [1, { b: null }] } }, [{ a: [1, { b: null }] }], [[{ a: [1, { b: 0 }] }, ""], [{ a: [1, { b: null }], c: 1 }, ""], [[1], ""]]],
  ["const array vs object", { const: [] }, [[]], [[{}, ""]]],
  ["minimum", { minimum: 2 }, [2, 3, "x", null, true], [[1.9, ""]]],
  ["maximum", { maximum: 2 }, [2, -1], [[2.1, ""]]],
  ["exclusiveMinimum", { exclusiveMinimum: 2 }, [2.1], [[2, ""]]],
  ["exclusiveMaximum", { exclusiveMaximum: 2 }, [1.9], [[2, ""]]],
  ["multipleOf", { multipleOf: 0.1 }, [0.3, 1, 0, -0.7], [[0.35, ""]]],
  ["multipleOf integer", { multipleOf: 3 }, [9, -3], [[10, ""]]],
  ["minLength (code points)", { minLength: 2 }, ["ab", "😀😀", 5], [["😀", ""], ["a", ""]]],
  ["maxLength (code points)", { maxLength: 2 }, ["😀😀", ""], [["abc", ""], ["😀😀😀", ""]]],
  ["pattern", { pattern: "^\\p{L}+$" }, ["héllo", 5], [["a1", ""]]],
  ["minItems", { minItems: 1 }, [[1], {}], [[[], ""]]],
  ["maxItems", { maxItems: 1 }, [[1]], [[[1, 2], ""]]],
  ["uniqueItems", { uniqueItems: true }, [[1, "1", true], [{ a: 1 }, { a: 2 }], [[1], [1, 2]]], [[[1, 2, 1], "/2"], [[{ a: [1] }, { a: [1] }], "/1"]]],
  ["uniqueItems false", { uniqueItems: false }, [[1, 1]], []],
  ["minProperties", { minProperties: 1 }, [{ a: 1 }, []], [[{}, ""]]],
  ["maxProperties", { maxProperties: 1 }, [{ a: 1 }], [[{ a: 1, b: 2 }, ""]]],
  ["allOf", { allOf: [{ type: "number" }, { minimum: 2 }] }, [2], [[1, ""], ["a", ""]]],
  ["anyOf", { anyOf: [{ type: "string" }, { minimum: 2 }] }, ["a", 3], [[1, ""]]],
  ["oneOf", { oneOf: [{ type: "number" }, { minimum: 2 }] }, [1, "a"], [[3, ""]]],
  ["oneOf none", { oneOf: [{ type: "number" }, { type: "string" }] }, [1], [[null, ""]]],
  ["not", { not: { type: "string" } }, [1, null], [["a", ""]]],
  ["if/then/else", { if: { type: "number" }, then: { minimum: 0 }, else: { type: "string" } }, [1, "a"], [[-1, ""], [null, ""]]],
  ["if/then only", { if: { minimum: 10 }, then: { multipleOf: 5 } }, [15, 3, "x"], [[12, ""]]],
  ["boolean schema true", true, [1, "a", null, {}], []],
  ["boolean schema false", false, [], [[1, ""], [null, ""]]],
  ["empty schema", {}, [1, "a", null, {}, []], []],
  ["multipleOf overflowing quotient", { multipleOf: 0.123456789 }, [0.246913578], [[1e308, ""]]],
  ["contains", { contains: { type: "number" } }, [[1], ["a", 2], {}], [[[], ""], [["a"], ""]]],
  ["minContains", { contains: { const: 1 }, minContains: 2 }, [[1, 1], [1, 2, 1]], [[[1, 2], ""]]],
  ["minContains 0", { contains: { const: 1 }, minContains: 0 }, [[], [2]], []],
  ["maxContains", { contains: { const: 1 }, maxContains: 1 }, [[1, 2]], [[[1, 1], ""], [[2], ""]]],
  ["min/maxContains without contains", { minContains: 2, maxContains: 0 }, [[], [1]], []],
  ["propertyNames", { propertyNames: { maxLength: 2 } }, [{ ab: 1 }, {}, "abc"], [[{ abc: 1 }, "/abc"]]],
  ["dependentRequired", { dependentRequired: { card: ["address"] } }, [{}, { address: 1 }, { card: 1, address: 2 }], [[{ card: 1 }, "/address"]]],
  ["dependentSchemas", { dependentSchemas: { card: { required: ["address"] } } }, [{}, { card: 1, address: 2 }], [[{ card: 1 }, "/address"]]],
  ["unevaluatedProperties", { properties: { a: {} }, unevaluatedProperties: false }, [{ a: 1 }, {}], [[{ a: 1, z: 1 }, "/z"]]],
  ["unevaluatedProperties schema", { patternProperties: { "^x": {} }, unevaluatedProperties: { type: "number" } }, [{ xa: "s", b: 1 }], [[{ b: "s" }, "/b"]]],
  ["unevaluatedItems", { prefixItems: [{}], unevaluatedItems: false }, [[1], []], [[[1, 2], "/1"]]],
  ["unevaluatedItems after contains", { contains: { type: "string" }, unevaluatedItems: { type: "number" } }, [["a", 1, "b"]], [[["a", null], "/1"]]],
  ["format is an annotation", { format: "email" }, ["not an email"], []],
  ["unknown keywords are ignored", { frobnicate: { type: "string" }, "x-vendor": 1, $comment: "c", title: "t" }, [1], []],
];

// 2020-12 vocabulary, one row per keyword: each valid instance passes, each invalid one fails
// with exactly one issue at the expected instance pointer.
for (const [name, schema, valid, invalid] of TABLE) {
  test(`json schema 2020-12: ${name}`, () => {
    const validate = compile(schema);
    for (const x of valid) assert.equal(validate(x), null, "valid: " + JSON.stringify(x));
    for (const [x, path] of invalid) {
      const issues = validate(x);
      assert.ok(issues, "invalid: " + JSON.stringify(x));
      assert.deepEqual(issues.map((i) => i.path), [path], JSON.stringify(x) + " → " + JSON.stringify(issues));
    }
  });
}

test("json schema 2020-12 validation §6.2.1 multipleOf (valid only if division by it results in an integer): a value far smaller than multipleOf is no multiple of it (1 of 1e9, 7 of an integer 1e10, 1e-10 of 3, 1e-17 of 0.1), whichever engine; decimal fractions that are multiples stay valid though their binary quotients miss the integer (0.3 and 0.1 + 0.2 of 0.1, 19.99 and 12345678.91 of 0.01, 0.0075 of 0.0001), and a large quotient's half is still told apart (12345678.905 of 0.01)", () => {
  const cases: [multipleOf: number, valid: number[], invalid: number[], type?: string][] = [
    [1e9, [0, 2e9, -1e9], [1, 2, 999_999_999]],
    [1e10, [3e10], [7, 1], "integer"],
    [3, [0, 9, -3], [1e-10, 3.0000001]],
    [0.1, [0.3, 0.1 + 0.2, -0.7, 1], [1e-17, 0.35]],
    [0.01, [19.99, 12345678.91], [12345678.905, 0.001]],
    [0.0001, [0.0075], [0.00751]],
    // A divisor of few binary digits divides exactly: a large quotient's half is no multiple (found by review: the relative tolerance took it).
    [0.5, [1e15, 2 ** 50 + 0.5], [500000000000000.25, 2 ** 50 + 0.25]],
    // An integer past 2^53 is no exact double, as 0.1 is not: decimal multiples of 1e300 are multiples (found by review), half of it is not.
    [1e300, [3e300, 7e300, 9e300, 1.1e301], [1.5e300, 2.5e300]],
    // A power of two past 2^53 is exact: one unit over a multiple is none (found by review).
    [2 ** 60, [3 * 2 ** 60], [3 * 2 ** 60 + 1024]],
    // A subnormal divisor is a whole number of 2^-1074 units, exact too (found by review: 2^(e-30) underflowed to 0).
    [1.5e-323, [3 * 1.5e-323], [(3 * 2 ** 51 + 1) * 2 ** -1074]],
  ];
  for (const engine of [builtinJsonSchema, peerJsonSchema]) {
    for (const [m, valid, invalid, type] of cases) {
      const validate = compile(type === undefined ? { multipleOf: m } : { type, multipleOf: m }, engine);
      for (const x of valid) assert.equal(validate(x), null, `${x} is a multiple of ${m}`);
      for (const x of invalid) assert.deepEqual(validate(x)?.map((i) => i.reason), [`must satisfy multipleOf ${m}`], `${x} is no multiple of ${m}`);
    }
  }
});

test("json schema: issues are collected across the instance with JSON pointer paths", () => {
  const validate = compile({
    type: "object",
    properties: { user: { type: "object", properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string", maxLength: 3 } } }, required: ["id"] } },
  });
  const issues = validate({ user: { name: 5, tags: ["ok", "toolong", 7] } });
  assert.deepEqual(issues, [
    { path: "/user/id", reason: "is required" },
    { path: "/user/name", reason: "must satisfy type string" },
    { path: "/user/tags/1", reason: "must satisfy maxLength 3" },
    { path: "/user/tags/2", reason: "must satisfy type string" },
  ]);
  assert.equal(validate({ user: { id: 1, name: "n", tags: ["a"] } }), null);
});

// A typical MCP tool inputSchema (server/tools) validates arguments as expected.
test("json schema: a tool inputSchema with $defs and $ref validates tool arguments", () => {
  const validate = compile({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: { unit: { enum: ["celsius", "fahrenheit"] } },
    properties: { location: { type: "string", minLength: 1 }, unit: { $ref: "#/$defs/unit" } },
    required: ["location"],
    additionalProperties: false,
  });
  assert.equal(validate({ location: "New York", unit: "celsius" }), null);
  assert.deepEqual(validate({ location: "", unit: "kelvin" })?.map((i) => i.path), ["/location", "/unit"]);
});

// basic/index "$ref Resolution": local references resolve inside the same document.
test("json schema: local $ref — #, #/$defs/x, #/definitions/x, any JSON pointer, ~0/~1 and %-escapes", () => {
  const tree = compile({ type: "object", properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#" } } }, required: ["value"] });
  assert.equal(tree({ value: 1, children: [{ value: 2, children: [{ value: 3 }] }] }), null);
  assert.deepEqual(tree({ value: 1, children: [{ value: 2, children: [{}] }] }), [{ path: "/children/0/children/0/value", reason: "is required" }]);
  assert.equal(compile({ $ref: "#/definitions/n", definitions: { n: { type: "number" } } })("x")?.length, 1);
  assert.equal(compile({ $ref: "#/properties/a", properties: { a: { type: "string" } } })(1)?.length, 1);
  assert.equal(compile({ $ref: "#/$defs/a~1b~0c", $defs: { "a/b~c": { type: "string" } } })(1)?.length, 1);
  assert.equal(compile({ $ref: "#/$defs/a%20b", $defs: { "a b": { type: "string" } } })(1)?.length, 1);
  assert.equal(compile({ $ref: "#/allOf/0", allOf: [{ type: "string" }] })(1)?.length, 2);
  // A pointer into an unknown keyword still names a schema of this document.
  assert.equal(compile({ $ref: "#/components/x", components: { x: { type: "string" } } })(1)?.length, 1);
  // $ref beside other keywords: both apply (2020-12).
  const both = compile({ $defs: { s: { type: "string" } }, $ref: "#/$defs/s", maxLength: 1 });
  assert.equal(both("a"), null);
  assert.deepEqual(both("ab")?.map((i) => i.reason), ["must satisfy maxLength 1"]);
  // A reference to a boolean schema.
  assert.equal(compile({ properties: { a: { $ref: "#/$defs/no" } }, $defs: { no: false } })({ a: 1 })?.[0].path, "/a");
});

// "MUST validate schemas according to their declared or default dialect": in 2020-12 a $ref
// is a URI reference resolved against the base URI of its schema resource ($id), so a local
// reference may be written absolute, and $anchor names a subschema (Core §8.2, §8.2.2).
test("json schema: $ref by absolute $id URI, embedded $id resources, $anchor and $dynamicAnchor resolve in the document", () => {
  // The audit's case: the root's $id in the reference, so {a: 5} must fail.
  const byId = compile({ $id: "https://x/s", type: "object", properties: { a: { $ref: "https://x/s#/$defs/q" } }, $defs: { q: { type: "string" } } });
  assert.equal(byId({ a: "s" }), null);
  assert.deepEqual(byId({ a: 5 }), [{ path: "/a", reason: "must satisfy type string" }]);
  const self = compile({ $id: "https://x/s", type: "object", properties: { n: { $ref: "s" } } });
  assert.equal(self({ n: { n: {} } }), null);
  assert.deepEqual(self({ n: { n: 1 } })?.map((i) => i.path), ["/n/n"], "a relative reference to the resource itself");
  // An embedded resource: its own relative references resolve against its $id.
  const embedded = compile({
    $id: "https://x/root.json",
    properties: { a: { $ref: "item.json" }, b: { $ref: "https://x/item.json#/$defs/n" } },
    $defs: { item: { $id: "item.json", type: "object", properties: { n: { $ref: "#/$defs/n" } }, $defs: { n: { type: "number" } } } },
  });
  assert.equal(embedded({ a: { n: 1 }, b: 2 }), null);
  assert.deepEqual(embedded({ a: { n: "x" }, b: "y" })?.map((i) => i.path), ["/a/n", "/b"]);
  // $anchor in the root and in an embedded resource; $dynamicAnchor is a plain anchor to $ref.
  const anchors = compile({
    $id: "https://x/a",
    properties: { s: { $ref: "#str" }, n: { $ref: "https://x/b#num" }, d: { $ref: "#dyn" } },
    $defs: { s: { $anchor: "str", type: "string" }, b: { $id: "b", $defs: { n: { $anchor: "num", type: "number" } } }, d: { $dynamicAnchor: "dyn", type: "boolean" } },
  });
  assert.equal(anchors({ s: "a", n: 1, d: true }), null);
  assert.deepEqual(anchors({ s: 1, n: "a", d: 0 })?.map((i) => i.path), ["/s", "/n", "/d"]);
  // Without a root $id, anchors and relative $ids work against a private base.
  assert.equal(compile({ $ref: "#x", $defs: { x: { $anchor: "x", type: "string" } } })(1)?.length, 1);
  assert.equal(compile({ $ref: "t.json", $defs: { t: { $id: "t.json", type: "string" } } })(1)?.length, 1);
  // draft-07 names an anchor with a fragment-only $id.
  assert.equal(compile({ $schema: "http://json-schema.org/draft-07/schema#", $ref: "#s", definitions: { s: { $id: "#s", type: "string" } } })(1)?.length, 1);
  // An anchor named in another resource is not this one's; an unknown anchor is unresolved.
  assert.deepEqual(compileError({ $id: "https://x/a", $ref: "#num", $defs: { b: { $id: "b", $anchor: "num" } } }), [{ path: "/$ref", reason: "unresolved $ref" }]);
  assert.deepEqual(compileError({ $id: 5 }), [{ path: "/$id", reason: "invalid $id" }]);
  assert.deepEqual(compileError({ $anchor: [] }), [{ path: "/$anchor", reason: "invalid $anchor" }]);
  // The empty reference is the current document (RFC 3986 §4.4).
  assert.deepEqual(compile({ properties: { a: { $ref: "" } }, type: "object" })({ a: 1 }), [{ path: "/a", reason: "must satisfy type object" }]);
});

// draft-07 (Validation §8.3): "All other properties in a "$ref" object MUST be ignored."
test("json schema: draft-07 ignores the keywords beside $ref, 2020-12 applies them", () => {
  const schema = { $defs: { a: { type: "array" } }, $ref: "#/$defs/a", maxItems: 1 };
  assert.equal(compile({ $schema: "http://json-schema.org/draft-07/schema#", ...schema })([1, 2]), null);
  assert.equal(compile(schema)([1, 2])?.length, 1);
});

// 2020-12 Core §11 (unevaluatedItems, unevaluatedProperties): they apply to what the adjacent
// keywords and the in-place subschemas that passed did not evaluate.
test("json schema: unevaluatedProperties sees properties evaluated through allOf, anyOf, oneOf, if/then/else, $ref and dependentSchemas", () => {
  const closed = (extra: object) => compile({ type: "object", properties: { a: {} }, ...extra, unevaluatedProperties: false });
  const cases: [object, object[], [object, string[]][]][] = [
    [{ allOf: [{ properties: { b: {} } }] }, [{ a: 1, b: 1 }], [[{ b: 1, c: 1 }, ["/c"]]]],
    [{ anyOf: [{ properties: { b: { type: "string" } } }, { properties: { c: {} } }] }, [{ b: "s", c: 1 }], [[{ b: 1, c: 1 }, ["/b"]]]],
    [{ oneOf: [{ properties: { b: {} }, required: ["b"] }, { properties: { c: {} }, required: ["c"] }] }, [{ b: 1 }, { c: 1 }], [[{ b: 1, c: 1 }, [""]], [{ b: 1, d: 1 }, ["/d"]]]],
    [{ if: { properties: { k: { const: 1 } }, required: ["k"] }, then: { properties: { t: {} } }, else: { properties: { e: {} } } }, [{ k: 1, t: 1 }], [[{ k: 1, e: 1 }, ["/e"]], [{ k: 2, t: 1 }, ["/k", "/t"]], [{ k: 2, e: 1 }, ["/k"]]]],
    [{ $defs: { b: { properties: { b: {} } } }, $ref: "#/$defs/b" }, [{ b: 1 }], [[{ c: 1 }, ["/c"]]]],
    [{ dependentSchemas: { a: { properties: { b: {} } } } }, [{ a: 1, b: 1 }], [[{ b: 1 }, ["/b"]]]],
    [{ patternProperties: { "^x-": {} } }, [{ "x-y": 1 }], [[{ y: 1 }, ["/y"]]]],
    [{ additionalProperties: { type: "number" } }, [{ z: 1 }], [[{ z: "s" }, ["/z"]]]],
    // A nested unevaluatedProperties evaluates everything of the subschema that passed...
    [{ allOf: [{ unevaluatedProperties: true }] }, [{ z: 1 }], []],
    // ...but not: it evaluates nothing; nor does a branch that fails.
    [{ not: { not: { properties: { b: {} } } } }, [{ a: 1 }], [[{ b: 1 }, ["/b"]]]],
  ];
  for (const [extra, valid, invalid] of cases) {
    const validate = closed(extra);
    for (const x of valid) assert.equal(validate(x), null, JSON.stringify([extra, x]));
    for (const [x, paths] of invalid) assert.deepEqual(validate(x)?.map((i) => i.path), paths, JSON.stringify([extra, x]));
  }
  // Properties of a nested object are that object's: they do not count for the outer one.
  const nested = compile({ properties: { o: { properties: { a: {} } } }, unevaluatedProperties: false });
  assert.deepEqual(nested({ o: { a: 1 }, a: 1 })?.map((i) => i.path), ["/a"]);
  // Recursive schemas: each level closes its own object.
  const tree = compile({ $defs: { t: { properties: { kids: { items: { $ref: "#/$defs/t" } } }, unevaluatedProperties: false } }, $ref: "#/$defs/t" });
  assert.equal(tree({ kids: [{ kids: [] }] }), null);
  assert.deepEqual(tree({ kids: [{ kids: [], x: 1 }] })?.map((i) => i.path), ["/kids/0/x"]);
});

test("json schema: unevaluatedItems sees items evaluated by prefixItems, items, contains and in-place subschemas", () => {
  const cases: [object, unknown[][], [unknown[], string[]][]][] = [
    [{ prefixItems: [{}], allOf: [{ prefixItems: [{}, {}] }] }, [[1, 2]], [[[1, 2, 3], ["/2"]]]],
    [{ allOf: [{ items: { type: "number" } }] }, [[1, 2, 3]], []],
    [{ anyOf: [{ prefixItems: [{ const: 1 }, {}] }, { prefixItems: [{}] }] }, [[1, 2], [2]], [[[2, 3], ["/1"]]]],
    [{ if: { prefixItems: [{ const: 1 }] }, then: { prefixItems: [{}, {}] }, else: { prefixItems: [{}] } }, [[1, 2], [2]], [[[1, 2, 3], ["/2"]], [[2, 3], ["/1"]]]],
    [{ if: { prefixItems: [{ const: 1 }] } }, [[1], []], [[[2], ["/0"]]]],
    [{ contains: { type: "string" } }, [["a", "b"]], [[["a", 1, "b", 2], ["/1", "/3"]]]],
    [{ $defs: { p: { prefixItems: [{}] } }, $ref: "#/$defs/p" }, [[1]], [[[1, 2], ["/1"]]]],
  ];
  for (const [extra, valid, invalid] of cases) {
    const validate = compile({ ...extra, unevaluatedItems: false });
    for (const x of valid) assert.equal(validate(x), null, JSON.stringify([extra, x]));
    for (const [x, paths] of invalid) assert.deepEqual(validate(x)?.map((i) => i.path), paths, JSON.stringify([extra, x]));
  }
  // draft-07's additionalItems (after an items array) evaluates the rest too.
  assert.equal(compile({ items: [{}], additionalItems: { type: "number" }, unevaluatedItems: false })([1, 2]), null);
});

// The annotation pass runs inside the step budget as well.
test("json schema: budget — unevaluatedProperties over a $ref cycle ends with 'validation budget exceeded'", () => {
  assert.deepEqual(compile({ $defs: { a: { anyOf: [{ $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a", unevaluatedProperties: false })({ x: 1 }), [{ path: "", reason: "validation budget exceeded" }]);
});

test("json schema: dependencies (draft-07) is dependentRequired for arrays and dependentSchemas for schemas", () => {
  const validate = compile({ $schema: "http://json-schema.org/draft-07/schema#", dependencies: { a: ["b"], c: { required: ["d"] } } });
  assert.equal(validate({ a: 1, b: 1, c: 1, d: 1 }), null);
  assert.deepEqual(validate({ a: 1, c: 1 })?.map((i) => i.path), ["/b", "/d"]);
  assert.equal(compileError({ dependentRequired: { a: [1] } })[0].path, "/dependentRequired");
  assert.equal(compileError({ dependencies: { a: 5 } })[0].path, "/dependencies/a");
  assert.equal(compileError({ minContains: -1 })[0].path, "/minContains");
  assert.equal(compileError({ maxContains: 1.5 })[0].path, "/maxContains");
});

// "Schemas that fail to validate due to an unresolved external $ref SHOULD be rejected".
test("json schema: an unresolved local $ref is a compile error, not a permissive schema", () => {
  assert.deepEqual(compileError({ $ref: "#/$defs/missing" }), [{ path: "/$ref", reason: "unresolved $ref" }]);
  assert.deepEqual(compileError({ properties: { a: { $ref: "#anchor" } } }), [{ path: "/properties/a/$ref", reason: "unresolved $ref" }]);
  assert.deepEqual(compileError({ $ref: "#/%E0%A4%A" }), [{ path: "/$ref", reason: "unresolved $ref" }]);
  assert.deepEqual(compileError({ $ref: "#/type", type: "string" }), [{ path: "/type", reason: "invalid schema" }]);
  assert.deepEqual(compileError({ $ref: "#/$defs/constructor", $defs: {} }), [{ path: "/$ref", reason: "unresolved $ref" }]);
  assert.deepEqual(compileError({ $ref: 5 }), [{ path: "/$ref", reason: "invalid $ref" }]);
});

// "Implementations MUST NOT automatically dereference $ref values that resolve to a network URI."
// "Schemas that fail to validate due to an unresolved external $ref SHOULD be rejected rather
// than silently treated as permissive."
test("json schema: a non-local $ref is refused at compile time and never fetched", () => {
  for (const ref of ["https://example.com/schema.json", "http://127.0.0.1/s#/x", "other.json#/$defs/x", "//host/s", "urn:x:y", "https://x/t#/$defs/q"]) {
    assert.deepEqual(compileError({ properties: { a: { $ref: ref } } }), [{ path: "/properties/a/$ref", reason: "network $ref not dereferenced" }], ref);
    // Also when the document has an $id of its own, elsewhere.
    assert.deepEqual(compileError({ $id: "https://x/s", properties: { a: { $ref: ref } } })[0].reason, "network $ref not dereferenced", ref);
  }
  // The example of the audit (basic/index "$ref Resolution"): refused, not permissive.
  assert.deepEqual(compileError({ type: "object", properties: { a: { $ref: "https://example.com/schemas/n.json" } }, required: ["a"] }), [{ path: "/properties/a/$ref", reason: "network $ref not dereferenced" }]);
  assert.deepEqual(compileError({ $ref: "http://[" }), [{ path: "/$ref", reason: "invalid URI" }]);
  assert.deepEqual(compileError({ $dynamicRef: "#meta" }), [{ path: "/$dynamicRef", reason: "unsupported $dynamicRef" }]);
  assert.deepEqual(compileError({ $recursiveRef: "#" }), [{ path: "/$recursiveRef", reason: "unsupported $recursiveRef" }]);
});

// "Default dialect: ... 2020-12"; "Supported dialects: Implementations MUST support at least
// 2020-12"; unsupported dialects handled "by returning an appropriate error".
test("json schema: dialects — absent or 2020-12, also 2019-09 and draft-07; any other is 'unsupported dialect'", () => {
  for (const d of ["https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema#", "https://json-schema.org/draft/2019-09/schema", "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft-07/schema"]) {
    assert.equal(isSupportedDialect(d), true, d);
    assert.equal(compile({ $schema: d, type: "string" })("a"), null, d);
  }
  for (const d of ["http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-06/schema#", "https://example.com/my-dialect", "", 7]) {
    assert.equal(isSupportedDialect(d), false, String(d));
    assert.deepEqual(compileError({ $schema: d }), [{ path: "/$schema", reason: "unsupported dialect" }], String(d));
  }
  // The example from basic/index "Explicit dialect (draft-07)".
  const draft07 = compile({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { name: { type: "string" }, age: { type: "integer", minimum: 0 } }, required: ["name"] });
  assert.equal(draft07({ name: "a", age: 3 }), null);
  assert.deepEqual(draft07({ age: -1 })?.map((i) => i.path), ["/name", "/age"]);
});

// draft-07 tuple form: an array-valued `items` is prefixItems, `additionalItems` the rest.
test("json schema: draft-07 items array means prefixItems, additionalItems applies to the rest", () => {
  const validate = compile({ $schema: "http://json-schema.org/draft-07/schema#", items: [{ type: "string" }], additionalItems: { type: "number" } });
  assert.equal(validate(["a", 1, 2]), null);
  assert.deepEqual(validate([1, "b"])?.map((i) => i.path), ["/0", "/1"]);
  const open = compile({ items: [{ type: "string" }] });
  assert.equal(open(["a", {}]), null);
  // In 2020-12, additionalItems without an items array does nothing.
  assert.equal(compile({ additionalItems: false })([1]), null);
});

// "Schemas MUST be valid according to their declared or default dialect."
test("json schema: malformed keyword values are compile errors with a pointer into the schema", () => {
  const cases: [unknown, string][] = [
    [{ type: "strin" }, "/type"],
    [{ type: [] }, "/type"],
    [{ type: ["string", 5] }, "/type"],
    [{ minimum: "5" }, "/minimum"],
    [{ maxLength: Infinity }, "/maxLength"],
    [{ multipleOf: 0 }, "/multipleOf"],
    [{ multipleOf: -2 }, "/multipleOf"],
    [{ required: "a" }, "/required"],
    [{ required: [1] }, "/required"],
    [{ enum: "a" }, "/enum"],
    [{ allOf: [] }, "/allOf"],
    [{ anyOf: {} }, "/anyOf"],
    [{ properties: [] }, "/properties"],
    [{ patternProperties: 1 }, "/patternProperties"],
    [{ properties: { a: 5 } }, "/properties/a"],
    [{ items: [1] }, "/items/0"],
    [{ not: null }, "/not"],
    [{ $defs: { x: { type: 1 } } }, "/$defs/x/type"],
    [{ pattern: "(" }, "/pattern"],
    [{ pattern: 5 }, "/pattern"],
    [{ patternProperties: { "[": {} } }, "/patternProperties"],
    [5, ""],
    [null, ""],
    [[], ""],
  ];
  for (const [schema, path] of cases) assert.equal(compileError(schema)[0].path, path, JSON.stringify(schema));
  assert.deepEqual(compileError({ pattern: "(" }), [{ path: "/pattern", reason: "invalid pattern" }]);
});

// "SHOULD apply reasonable bounds, such as a maximum schema depth, a cap on the total number of subschemas".
test("json schema: bounds — maximum schema depth and subschema count are compile errors", () => {
  let deep: unknown = { type: "string" };
  for (let i = 0; i < 70; i++) deep = { items: deep };
  assert.deepEqual(compileError(deep)[0].reason, "schema too large");
  let ok: unknown = { type: "string" };
  for (let i = 0; i < 60; i++) ok = { items: ok };
  assert.equal(builtinJsonSchema.compile(ok).ok, true);
  const wide = { properties: Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => ["p" + i, {}])) };
  assert.deepEqual(compileError(wide)[0].reason, "schema too large");
  const small = createJsonSchemaValidator({ maxSubschemas: 3, maxDepth: 1 });
  assert.equal(small.compile({ properties: { a: {}, b: {} } }).ok, true);
  assert.equal(compileError({ properties: { a: {}, b: {}, c: {} } }, small)[0].reason, "schema too large");
  assert.equal(compileError({ items: { items: {} } }, small)[0].path, "/items/items");
});

// "...or a per-validation time budget, to prevent a malicious schema from acting as a
// Denial-of-Service vector": a $ref cycle that never consumes the instance must terminate.
test("json schema: budget — a self-referential $ref ends with 'validation budget exceeded', no stack overflow", () => {
  for (const schema of [{ $ref: "#" }, { $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" }, { anyOf: [{ $ref: "#" }] }, { not: { $ref: "#" } }]) {
    const validate = compile(schema);
    assert.deepEqual(validate(1), [{ path: "", reason: "validation budget exceeded" }], JSON.stringify(schema));
    assert.deepEqual(validate({}), [{ path: "", reason: "validation budget exceeded" }]);
  }
});

test("json schema: budget — exponential fan-out through $ref exhausts the step budget", () => {
  // Each level holds ten references to the next: 10^6 evaluations for one number.
  const $defs: Record<string, unknown> = { l6: { type: "number" } };
  for (let i = 5; i >= 0; i--) $defs["l" + i] = { allOf: Array.from({ length: 10 }, () => ({ $ref: "#/$defs/l" + (i + 1) })) };
  const validate = compile({ $defs, $ref: "#/$defs/l0" });
  assert.deepEqual(validate(1), [{ path: "", reason: "validation budget exceeded" }]);
  // The same shape two levels deep is within budget.
  const fine = compile({ $defs: { a: { allOf: [{ $ref: "#/$defs/b" }, { $ref: "#/$defs/b" }] }, b: { type: "number" } }, $ref: "#/$defs/a" });
  assert.equal(fine(1), null);
  assert.equal(fine("x")?.length, 2);
  // A small budget is honoured exactly: 3 steps suffice for { items } over two items, 2 do not.
  assert.equal(compile({ items: {} }, createJsonSchemaValidator({ maxSteps: 3 }))([1, 2]), null);
  assert.deepEqual(compile({ items: {} }, createJsonSchemaValidator({ maxSteps: 2 }))([1, 2]), [{ path: "", reason: "validation budget exceeded" }]);
});

test("json schema: budget — deep instances and pairwise uniqueItems are bounded too", () => {
  let nested: unknown = 0;
  let twin: unknown = 0;
  for (let i = 0; i < 5000; i++) (nested = [nested]), (twin = [twin]);
  assert.deepEqual(compile({ $defs: { t: { items: { $ref: "#/$defs/t" } } }, $ref: "#/$defs/t" })(nested), [{ path: "", reason: "validation budget exceeded" }]);
  assert.deepEqual(compile({ uniqueItems: true })([nested, twin]), [{ path: "", reason: "validation budget exceeded" }]);
  assert.deepEqual(compile({ const: nested })(nested), null);
  // Many distinct primitives take the fast path: a step each, no pairwise comparisons.
  assert.equal(compile({ uniqueItems: true })(Array.from({ length: 50_000 }, (_, i) => i)), null);
});

// The budget bounds the work, not only the nodes visited: a keyword that scans the instance
// (counts its characters or keys, looks up names, compares items) is charged for what it
// scans. Otherwise one node visit costs the instance's size, and a peer's outputSchema that
// repeats the keyword (300 × uniqueItems over 200,000 items) blocks the thread for seconds.
test("json schema: budget — a step per key, item, required name and 64 characters a keyword scans", () => {
  /** The fewest steps that validate `value` against `schema`. */
  const steps = (schema: unknown, value: unknown) => {
    for (let n = 1; n <= 100; n++) if (compile(schema, createJsonSchemaValidator({ maxSteps: n }))(value) === null) return n;
    return Infinity;
  };
  const long = "x".repeat(128);
  assert.equal(steps({}, 1), 1);
  assert.equal(steps({ minLength: 1 }, long), 1 + 2);
  assert.equal(steps({ maxProperties: 5 }, { a: 1, b: 2, c: 3 }), 1 + 3);
  assert.equal(steps({ required: ["a", "b", "c"] }, { a: 1, b: 2, c: 3 }), 1 + 3);
  assert.equal(steps({ properties: { a: {} } }, { a: 1, b: 2, c: 3 }), 1 + 3 + 1);
  assert.equal(steps({ uniqueItems: true }, [1, 2, 3]), 1 + 3);
  assert.equal(steps({ dependentRequired: { a: ["b", "c"] } }, { a: 1, b: 2, c: 3 }), 1 + 1 + 2);
  assert.equal(steps({ const: long }, "x".repeat(128)), 1 + 1 + 2);
  assert.equal(steps({ enum: [1, 2, long] }, long), 1 + 1 + 1 + 3);
  assert.equal(steps({ pattern: "^x" }, long), 1 + 1 + 2);
  // prefixItems alone leaves the other items unvisited, and unpaid.
  assert.equal(steps({ prefixItems: [{}] }, Array.from({ length: 1000 }, (_, i) => i)), 2);
});

test("json schema: budget — a keyword repeated over a large instance exhausts the budget (peer outputSchema)", () => {
  const budget = [{ path: "", reason: "validation budget exceeded" }];
  const many = (s: unknown) => ({ allOf: Array.from({ length: 50 }, () => s) });
  const items = Array.from({ length: 10_000 }, (_, i) => i);
  assert.deepEqual(compile(many({ uniqueItems: true }), peerJsonSchema)(items), budget);
  assert.deepEqual(compile(many({ minLength: 1 }), peerJsonSchema)("x".repeat(200_000)), budget);
  assert.deepEqual(compile(many({ minProperties: 1 }), peerJsonSchema)(Object.fromEntries(items.map((i) => ["k" + i, i]))), budget);
  // Equal strings, not the same one: compared character by character.
  assert.deepEqual(compile(many({ const: "x".repeat(200_000) }), peerJsonSchema)("x".repeat(199_999) + "x"), budget);
  const names = items.map((i) => "k" + i);
  assert.deepEqual(compile({ $defs: { d: { dependentRequired: { k0: names } } }, ...many({ $ref: "#/$defs/d" }) }, peerJsonSchema)(Object.fromEntries(names.map((k) => [k, 1]))), budget);
  // Once is within budget.
  assert.equal(compile({ uniqueItems: true }, peerJsonSchema)(items), null);
});

// A failed validation lists a bounded number of issues, whatever the schema and the value:
// without a cap a 169 KB schema (20,000 required names) and a 301-byte value made 2,000,000.
test("json schema: issues — at most MAX_ISSUES, then one saying that more were not listed", () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => "r" + i);
  const issues = compile({ type: "array", items: { required: names(20_000) } }, peerJsonSchema)(Array.from({ length: 100 }, () => ({})))!;
  assert.equal(issues.length, MAX_ISSUES + 1);
  assert.deepEqual(issues[0], { path: "/0/r0", reason: "is required" });
  assert.deepEqual(issues[MAX_ISSUES - 1], { path: "/0/r" + (MAX_ISSUES - 1), reason: "is required" });
  assert.deepEqual(issues[MAX_ISSUES], { path: "", reason: "more issues not listed" });
  // Exactly MAX_ISSUES issues are all listed, with no note.
  const exact = compile({ required: names(MAX_ISSUES) })({})!;
  assert.equal(exact.length, MAX_ISSUES);
  assert.ok(exact.every((i) => i.reason === "is required"));
  // The collecting pass may spend the budget where the first pass stopped early: the issues
  // it found stay, and the last says why the list ends there.
  assert.deepEqual(compile({ $defs: { loop: { $ref: "#/$defs/loop" } }, prefixItems: [{ type: "string" }], items: { $ref: "#/$defs/loop" } })([1, 2]), [
    { path: "/0", reason: "must satisfy type string" },
    { path: "", reason: "validation budget exceeded" },
  ]);
});

// Keys like __proto__ and constructor must be treated as plain data, in schemas and instances.
test("json schema: prototype keys — properties, required, $defs and instances named __proto__/constructor are data", () => {
  const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"number"}},"required":["__proto__"],"additionalProperties":false}');
  const validate = compile(schema);
  assert.equal(validate(JSON.parse('{"__proto__":"s","constructor":1}')), null);
  assert.deepEqual(validate(JSON.parse('{"__proto__":5,"constructor":"x"}'))?.map((i) => i.path), ["/__proto__", "/constructor"]);
  assert.deepEqual(validate({}), [{ path: "/__proto__", reason: "is required" }]);
  // Names a plain object inherits are not properties of a schema that does not list them.
  const plain = compile({ properties: { a: {} }, additionalProperties: false, required: ["toString"] });
  assert.deepEqual(plain({ constructor: 1, hasOwnProperty: 2, toString: 3 })?.map((i) => i.path), ["/constructor", "/hasOwnProperty", "/toString"]);
  assert.deepEqual(plain({}), [{ path: "/toString", reason: "is required" }]);
  // properties: {} does not make "constructor" a known property with Object as its schema.
  assert.equal(compile({ properties: {}, additionalProperties: { type: "number" } })({ constructor: 1 }), null);
  // A $ref may name a $defs entry called __proto__.
  const proto = compile(JSON.parse('{"$defs":{"__proto__":{"type":"string"}},"$ref":"#/$defs/__proto__"}'));
  assert.equal(proto("a"), null);
  assert.equal(proto(1)?.length, 1);
  // enum/const compare own keys only.
  assert.deepEqual(compile({ const: {} })(JSON.parse('{"__proto__":1}'))?.length, 1);
  assert.equal(compile(JSON.parse('{"const":{"__proto__":1}}'))(JSON.parse('{"__proto__":1}')), null);
  assert.equal(({} as any).type, undefined);
});

test("json schema: format assertions are opt-in and can reuse the elicitation format checks", () => {
  const asserting = createJsonSchemaValidator({ formats: elicitationFormats });
  const validate = compile({ type: "object", properties: { when: { format: "date-time" }, who: { format: "email" }, other: { format: "ipv4" } } }, asserting);
  assert.equal(validate({ when: "2024-01-01T00:00:00Z", who: "a@b.co", other: "nope" }), null);
  assert.deepEqual(validate({ when: "yesterday", who: "nobody", other: 1 }), [
    { path: "/when", reason: "must satisfy format date-time" },
    { path: "/who", reason: "must satisfy format email" },
  ]);
  // A format function may itself validate (re-entrantly) without disturbing the outer run.
  const inner = compile({ type: "string", minLength: 1 });
  const nesting = createJsonSchemaValidator({ formats: { nonEmpty: (s) => inner(s) === null }, maxSteps: 5 });
  const outer = compile({ items: { format: "nonEmpty" } }, nesting);
  assert.equal(outer(["a", "b", "c"]), null);
  assert.deepEqual(outer(["a", ""]), [{ path: "/1", reason: "must satisfy format nonEmpty" }]);
  assert.deepEqual(outer(["a", "b", "c", "d", "e"]), [{ path: "", reason: "validation budget exceeded" }]);
  // A format named after an Object.prototype member is not an assertion.
  assert.equal(compile({ format: "constructor" }, asserting)("x"), null);
});

// The hook: anything implementing JsonSchemaValidator can stand in for the built-in one.
test("json schema: JsonSchemaValidator is pluggable — a custom engine is used through the same interface", () => {
  const calls: unknown[] = [];
  const custom: JsonSchemaValidator = {
    compile(schema) {
      calls.push(schema);
      if (schema === "bad") return { ok: false, issues: [{ path: "", reason: "custom refusal" }] };
      return { ok: true, validate: (v) => (v === 42 ? null : [{ path: "", reason: "not the answer" }]) };
    },
  };
  const use = (engine: JsonSchemaValidator, schema: unknown, value: unknown) => {
    const c = engine.compile(schema);
    return c.ok ? c.validate(value) : c.issues;
  };
  assert.equal(use(custom, {}, 42), null);
  assert.deepEqual(use(custom, {}, 41), [{ path: "", reason: "not the answer" }]);
  assert.deepEqual(use(custom, "bad", 42), [{ path: "", reason: "custom refusal" }]);
  assert.equal(calls.length, 3);
  assert.equal(use(builtinJsonSchema, { const: 42 }, 42), null);
});

test("json schema: a compiled validator is reusable and validators do not share state", () => {
  const a = compile({ type: "string" });
  const b = compile({ $ref: "#" }, createJsonSchemaValidator({ maxSteps: 50 }));
  assert.deepEqual(b(1), [{ path: "", reason: "validation budget exceeded" }]);
  for (let i = 0; i < 3; i++) assert.equal(a("x"), null);
  assert.equal(a(1)?.length, 1);
  // Compiling never throws, even on a throwing getter.
  const hostile = Object.defineProperty({}, "type", { enumerable: true, get: () => { throw new Error("boom"); } });
  assert.deepEqual(builtinJsonSchema.compile(hostile), { ok: false, issues: [{ path: "", reason: "invalid schema" }] });
});
