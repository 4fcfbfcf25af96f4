// Spec: client/elicitation (2025-11-25 and draft), "Requested Schema": "form mode elicitation
// schemas are limited to flat objects with primitive properties only"; the definitions are
// ElicitRequestFormParams.requestedSchema and PrimitiveSchemaDefinition in schema.ts
// (2025-11-25, 2026-07-28). Also draft basic/index "JSON Schema Usage" for `$schema`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkRequestedSchema } from "../../src/schema/elicitation.js";
import { MAX_ISSUES } from "../../src/schema/validate.js";
import { counted, example, examples } from "./examples.js";

const wrap = (ps: unknown, name = "field") => ({ type: "object", properties: { [name]: ps } });

/** The issue paths of `schema`, sorted; [] when it is a valid restricted schema. */
const paths = (schema: unknown) => (checkRequestedSchema(schema) ?? []).map((i) => i.path).sort();

// client/elicitation "Requested Schema": the server "define[s] the structure of the expected
// response using a restricted subset of JSON Schema" — every official example is inside it.
test("elicitation: every ElicitRequestFormParams / ElicitRequest example's requestedSchema is accepted", () => {
  for (const [file, params] of Object.entries(examples("ElicitRequestFormParams"))) {
    assert.equal(checkRequestedSchema(params.requestedSchema), null, file);
  }
  for (const [file, req] of Object.entries(examples("ElicitRequest"))) {
    assert.equal(checkRequestedSchema(req.params.requestedSchema), null, file);
  }
});

// client/elicitation: "The schema is restricted to these primitive types": String, Number,
// Boolean and Enum schemas; each official PrimitiveSchemaDefinition example is a valid property.
test("elicitation: every primitive schema example (String, Number, Boolean, the four Enum kinds) is a valid property", () => {
  for (const type of [
    "StringSchema",
    "NumberSchema",
    "BooleanSchema",
    "UntitledSingleSelectEnumSchema",
    "TitledSingleSelectEnumSchema",
    "UntitledMultiSelectEnumSchema",
    "TitledMultiSelectEnumSchema",
  ]) {
    for (const [file, ps] of Object.entries(examples(type))) assert.equal(checkRequestedSchema(wrap(ps)), null, type + "/" + file);
  }
});

// The examples printed on the two elicitation pages themselves, including the 2025-11-25
// page's string schema with "pattern" and the number schema's "integer" alternative.
test("elicitation: the schema examples printed on the 2025-11-25 and draft pages are accepted", () => {
  const pageExamples = [
    { type: "string", title: "Display Name", description: "Description text", minLength: 3, maxLength: 50, pattern: "^[A-Za-z]+$", format: "email", default: "user@example.com" },
    { type: "string", title: "Display Name", description: "Description text", minLength: 3, maxLength: 50, format: "email", default: "user@example.com" },
    { type: "number", title: "Display Name", description: "Description text", minimum: 0, maximum: 100, default: 50 },
    { type: "integer", title: "Display Name", description: "Description text", minimum: 0, maximum: 100, default: 50 },
    { type: "boolean", title: "Display Name", description: "Description text", default: false },
    { type: "string", title: "Color Selection", description: "Choose your favorite color", enum: ["Red", "Green", "Blue"], default: "Red" },
    {
      type: "string",
      title: "Color Selection",
      description: "Choose your favorite color",
      oneOf: [
        { const: "#FF0000", title: "Red" },
        { const: "#00FF00", title: "Green" },
        { const: "#0000FF", title: "Blue" },
      ],
      default: "#FF0000",
    },
    { type: "array", title: "Color Selection", description: "Choose your favorite colors", minItems: 1, maxItems: 2, items: { type: "string", enum: ["Red", "Green", "Blue"] }, default: ["Red", "Green"] },
    {
      type: "array",
      title: "Color Selection",
      description: "Choose your favorite colors",
      minItems: 1,
      maxItems: 2,
      items: {
        anyOf: [
          { const: "#FF0000", title: "Red" },
          { const: "#00FF00", title: "Green" },
          { const: "#0000FF", title: "Blue" },
        ],
      },
      default: ["#FF0000", "#00FF00"],
    },
  ];
  for (const ps of pageExamples) assert.equal(checkRequestedSchema(wrap(ps)), null, JSON.stringify(ps));
  // "Example: Structured Data Request", identical on both pages.
  const structured = {
    type: "object",
    properties: {
      name: { type: "string", description: "Your full name" },
      email: { type: "string", format: "email", description: "Your email address" },
      age: { type: "number", minimum: 18, description: "Your age" },
    },
    required: ["name", "email"],
  };
  assert.equal(checkRequestedSchema(structured), null);
});

// schema.ts LegacyTitledEnumSchema: "(Legacy) Display names for enum values" — still accepted.
test("elicitation: the legacy enumNames form (LegacyTitledEnumSchema) is accepted, one name per value", () => {
  assert.equal(checkRequestedSchema(wrap({ type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"], default: "r" })), null);
  assert.deepEqual(paths(wrap({ type: "string", enum: ["r", "g"], enumNames: ["Red"] })), ["/properties/field/enumNames"]);
});

// draft basic/index "Schema Dialect": "Schemas MAY include a `$schema` field"; requestedSchema
// carries an optional `$schema`. Unsupported dialects MUST be handled "by returning an
// appropriate error indicating the dialect is not supported".
test("elicitation: $schema 2020-12 or draft-07 is accepted; an unsupported dialect is an issue at /$schema", () => {
  assert.equal(checkRequestedSchema({ $schema: "https://json-schema.org/draft/2020-12/schema", ...wrap({ type: "string" }) }), null);
  assert.equal(checkRequestedSchema({ $schema: "http://json-schema.org/draft-07/schema#", ...wrap({ type: "string" }) }), null);
  const issues = checkRequestedSchema({ $schema: "http://json-schema.org/draft-04/schema#", ...wrap({ type: "string" }) });
  assert.deepEqual(issues, [{ path: "/$schema", reason: "unsupported dialect" }]);
});

test("elicitation: annotations (title, description, vendor keys) and additionalProperties:false pass", () => {
  const s = { type: "object", title: "Contact", description: "d", "x-order": ["a"], additionalProperties: false, properties: { a: { type: "string", "x-widget": "textarea", examples: ["hi"] } } };
  assert.equal(checkRequestedSchema(s), null);
});

// client/elicitation: "limited to flat objects"; schema.ts: type: "object", properties, required?: string[].
test('elicitation: the root must be an object schema with type "object" and a properties map', () => {
  assert.deepEqual(checkRequestedSchema(null), [{ path: "", reason: "requestedSchema must be an object" }]);
  assert.deepEqual(checkRequestedSchema([]), [{ path: "", reason: "requestedSchema must be an object" }]);
  assert.deepEqual(paths({ properties: {} }), ["/type"]);
  assert.deepEqual(paths({ type: "array", properties: {} }), ["/type"]);
  assert.deepEqual(paths({ type: "object" }), ["/properties"]);
  assert.deepEqual(paths({ type: "object", properties: [] }), ["/properties"]);
  assert.deepEqual(paths({ type: "object", properties: {}, additionalProperties: true }), ["/additionalProperties"]);
  assert.deepEqual(paths({ type: "object", properties: {}, additionalProperties: { type: "string" } }), ["/additionalProperties"]);
});

// client/elicitation: "complex nested structures, arrays of objects (beyond enums), and other
// advanced JSON Schema features are intentionally not supported".
test("elicitation: nesting is refused — an object property, an array of objects, a non-enum array", () => {
  assert.deepEqual(paths(wrap({ type: "object", properties: { street: { type: "string" } } }, "address")), ["/properties/address/type"]);
  assert.deepEqual(paths(wrap({ type: "array", items: { type: "object" } }, "tags")), ["/properties/tags/items/enum", "/properties/tags/items/type"]);
  assert.deepEqual(paths(wrap({ type: "array", items: { type: "string" } }, "tags")), ["/properties/tags/items/enum"]);
  assert.deepEqual(paths(wrap({ type: "array" }, "tags")), ["/properties/tags/items"]);
  assert.deepEqual(paths(wrap({ type: ["string", "null"] })), ["/properties/field/type"]);
  assert.deepEqual(paths(wrap({ title: "no type" })), ["/properties/field/type"]);
  assert.deepEqual(paths(wrap("string")), ["/properties/field"]);
  const nested = checkRequestedSchema(wrap({ type: "object" }, "a/b~c"));
  assert.deepEqual(nested, [{ path: "/properties/a~1b~0c/type", reason: "nested objects are not allowed" }]);
});

test("elicitation: advanced keywords are refused where they appear — $ref, $defs, allOf, exclusiveMinimum, const, patternProperties", () => {
  assert.deepEqual(paths({ ...wrap({ type: "string" }), $defs: { x: { type: "string" } } }), ["/$defs"]);
  assert.deepEqual(paths({ ...wrap({ type: "string" }), allOf: [{}] }), ["/allOf"]);
  assert.deepEqual(paths({ ...wrap({ type: "string" }), patternProperties: {} }), ["/patternProperties"]);
  assert.deepEqual(paths(wrap({ $ref: "#/$defs/x", type: "string" })), ["/properties/field/$ref"]);
  assert.deepEqual(paths(wrap({ type: "number", exclusiveMinimum: 0 })), ["/properties/field/exclusiveMinimum"]);
  assert.deepEqual(paths(wrap({ type: "number", multipleOf: 2 })), ["/properties/field/multipleOf"]);
  assert.deepEqual(paths(wrap({ type: "string", const: "x" })), ["/properties/field/const"]);
  assert.deepEqual(paths(wrap({ type: "string", minimum: 1 })), ["/properties/field/minimum"]);
  assert.deepEqual(paths(wrap({ type: "boolean", enum: [true] })), ["/properties/field/enum"]);
  assert.deepEqual(paths(wrap({ type: "string", enum: ["a"], format: "email" })), ["/properties/field/format"]);
  assert.deepEqual(paths(wrap({ type: "string", enum: ["a"], oneOf: [{ const: "a", title: "A" }] })), ["/properties/field/enum"]);
  assert.deepEqual(paths(wrap({ type: "array", items: { type: "string", enum: ["a"], minLength: 1 } })), ["/properties/field/items/minLength"]);
  assert.deepEqual(paths(wrap({ type: "string", oneOf: [{ const: "a", title: "A", pattern: "a" }] })), ["/properties/field/oneOf/0/pattern"]);
});

// StringSchema: minLength/maxLength numbers (integers in schema.json); format one of
// "email" | "uri" | "date" | "date-time" ("Supported formats: email, uri, date, date-time").
test("elicitation: string keywords are well-formed — lengths are non-negative integers, format is one of the four", () => {
  assert.deepEqual(paths(wrap({ type: "string", minLength: -1 })), ["/properties/field/minLength"]);
  assert.deepEqual(paths(wrap({ type: "string", maxLength: 1.5 })), ["/properties/field/maxLength"]);
  assert.deepEqual(paths(wrap({ type: "string", format: "phone" })), ["/properties/field/format"]);
  assert.deepEqual(paths(wrap({ type: "string", format: "constructor" })), ["/properties/field/format"]);
  assert.deepEqual(paths(wrap({ type: "string", pattern: 5 })), ["/properties/field/pattern"]);
  assert.deepEqual(paths(wrap({ type: "string", title: 5, description: {} })), ["/properties/field/description", "/properties/field/title"]);
  for (const f of ["email", "uri", "date", "date-time"]) assert.equal(checkRequestedSchema(wrap({ type: "string", format: f })), null, f);
});

// NumberSchema: type "number" | "integer", minimum/maximum numbers.
test("elicitation: number bounds must be numbers; multi-select item counts non-negative integers", () => {
  assert.deepEqual(paths(wrap({ type: "number", minimum: "0", maximum: Infinity })), ["/properties/field/maximum", "/properties/field/minimum"]);
  assert.deepEqual(paths(wrap({ type: "array", items: { type: "string", enum: ["a"] }, minItems: -1, maxItems: "2" })), ["/properties/field/maxItems", "/properties/field/minItems"]);
  assert.deepEqual(paths(wrap({ type: "array", items: { type: "string", enum: ["a"] }, uniqueItems: "yes" })), ["/properties/field/uniqueItems"]);
});

// Untitled/Titled enum schemas: enum: string[]; oneOf / items.anyOf: Array<{ const: string; title: string }>.
test("elicitation: enum choices are strings, titled options are { const: string, title: string }", () => {
  assert.deepEqual(paths(wrap({ type: "string", enum: ["a", 1] })), ["/properties/field/enum"]);
  assert.deepEqual(paths(wrap({ type: "string", oneOf: [{ const: "a", title: "A" }, { const: "b" }] })), ["/properties/field/oneOf/1/title"]);
  assert.deepEqual(paths(wrap({ type: "string", oneOf: [{ const: 1, title: "A" }, "b"] })), ["/properties/field/oneOf/0/const", "/properties/field/oneOf/1"]);
  assert.deepEqual(paths(wrap({ type: "string", oneOf: {} })), ["/properties/field/oneOf"]);
  assert.deepEqual(paths(wrap({ type: "array", items: { anyOf: [{ const: "a" }] } })), ["/properties/field/items/anyOf/0/title"]);
  assert.deepEqual(paths(wrap({ type: "array", items: { type: "number", anyOf: [{ const: "a", title: "A" }] } })), ["/properties/field/items/type"]);
  assert.deepEqual(paths(wrap({ type: "array", items: { type: "string", enum: "abc" } })), ["/properties/field/items/enum"]);
});

// schema.ts: required?: string[] — names of the properties that must be answered.
test("elicitation: required is an array of distinct names of existing properties", () => {
  assert.deepEqual(paths({ ...wrap({ type: "string" }, "a"), required: ["a", "b"] }), ["/required/1"]);
  assert.deepEqual(paths({ ...wrap({ type: "string" }, "a"), required: "a" }), ["/required"]);
  assert.deepEqual(paths({ ...wrap({ type: "string" }, "a"), required: ["a", 3, "a"] }), ["/required/1", "/required/2"]);
  assert.deepEqual(paths({ type: "object", properties: 1, required: ["a"] }), ["/properties", "/required/0"]);
  // "constructor" is inherited by every plain object; it must not count as a defined property.
  assert.deepEqual(paths({ ...wrap({ type: "string" }, "a"), required: ["constructor", "toString", "__proto__"] }), ["/required/0", "/required/1", "/required/2"]);
});

// client/elicitation: "All primitive types support optional default values to provide sensible
// starting points" — a default pre-populates the form, so it must be an acceptable answer.
// McpClient checks every elicitation/create a server sends: a check that searched `required`
// once per entry took 5.8 s for 115,000 names. Each name is read a bounded number of times.
test("elicitation: required is checked in one pass over the names, and at most MAX_ISSUES issues are listed", () => {
  const names = Array.from({ length: 500 }, (_, i) => "p" + i);
  const { list, reads } = counted(names);
  assert.equal(checkRequestedSchema({ type: "object", properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])), required: list }), null);
  assert.ok(reads() <= 2 * names.length, String(reads()));
  // 500 duplicates: MAX_ISSUES of them, then one saying more were not listed.
  const dup = checkRequestedSchema({ type: "object", properties: { a: { type: "string" } }, required: Array(501).fill("a") })!;
  assert.equal(dup.length, MAX_ISSUES + 1);
  assert.deepEqual(dup[0], { path: "/required/1", reason: "duplicates a name" });
  assert.deepEqual(dup[MAX_ISSUES], { path: "", reason: "more issues not listed" });
  // So for properties that are no primitive schemas.
  assert.equal(checkRequestedSchema({ type: "object", properties: Object.fromEntries(names.map((n) => [n, { type: "object" }])) })!.length, MAX_ISSUES + 1);
});

test("elicitation: a default must satisfy its own property schema", () => {
  assert.deepEqual(paths(wrap({ type: "string", default: 5 })), ["/properties/field/default"]);
  assert.deepEqual(paths(wrap({ type: "string", format: "email", default: "nope" })), ["/properties/field/default"]);
  assert.deepEqual(paths(wrap({ type: "integer", minimum: 0, default: 1.5 })), ["/properties/field/default"]);
  assert.deepEqual(paths(wrap({ type: "boolean", default: "false" })), ["/properties/field/default"]);
  assert.deepEqual(paths(wrap({ type: "string", enum: ["Red"], default: "Blue" })), ["/properties/field/default"]);
  assert.deepEqual(paths(wrap({ type: "array", maxItems: 1, items: { type: "string", enum: ["a", "b"] }, default: ["a", "b"] })), ["/properties/field/default"]);
  assert.deepEqual(paths(wrap({ type: "array", items: { anyOf: [{ const: "a", title: "A" }] }, default: ["b"] })), ["/properties/field/default/0"]);
});

test("elicitation: property names such as __proto__ and constructor are plain data", () => {
  const s = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"boolean","default":true}},"required":["__proto__","constructor"]}');
  assert.equal(checkRequestedSchema(s), null);
  const bad = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"object"}}}');
  assert.deepEqual(paths(bad), ["/properties/__proto__/type"]);
  // The example file itself stays a valid single property under a hostile name.
  assert.equal(checkRequestedSchema(wrap(example("StringSchema", "email-input-schema.json"), "constructor")), null);
});
