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
import { builtinJsonSchema, createJsonSchemaValidator, isSupportedDialect, type JsonSchemaValidator } from "../../src/schema/json-schema.js";
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
test("json schema: a non-local $ref is refused at compile time and never fetched", () => {
  for (const ref of ["https://example.com/schema.json", "http://127.0.0.1/s#/x", "other.json#/$defs/x", "//host/s", "urn:x:y", ""]) {
    assert.deepEqual(compileError({ properties: { a: { $ref: ref } } }), [{ path: "/properties/a/$ref", reason: "network $ref not dereferenced" }], ref);
  }
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
  // Many distinct primitives take the fast path and do not burn the budget.
  assert.equal(compile({ uniqueItems: true })(Array.from({ length: 50_000 }, (_, i) => i)), null);
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
