// Spec: client/elicitation (2025-11-25 and draft). "Response Actions": for form mode "the
// `content` field contains the submitted data matching the requested schema"; "Form Mode
// Security": "Clients SHOULD validate all responses against the provided schema" and
// "Servers SHOULD validate received data matches the requested schema". Defaults: "All
// primitive types support optional default values ... Clients that support defaults SHOULD
// pre-populate form fields with these values."
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyElicitationDefaults, elicitationFormats, validateElicitationContent } from "../../src/schema/elicitation.js";
import { counted, example } from "./examples.js";
import { MAX_ISSUES } from "../../src/schema/validate.js";

const one = (ps: unknown, required = false) => ({ type: "object", properties: { f: ps }, ...(required ? { required: ["f"] } : {}) });
/** The issue paths for content `{ f: value }` against the one-property schema `ps`. */
const at = (ps: unknown, value: unknown) => (validateElicitationContent(one(ps), { f: value }) ?? []).map((i) => i.path);

test("elicitation: the ElicitResult examples conform to the ElicitRequestFormParams examples they answer", () => {
  const single = example("ElicitRequestFormParams", "elicit-single-field.json").requestedSchema;
  const multiple = example("ElicitRequestFormParams", "elicit-multiple-fields.json").requestedSchema;
  assert.equal(validateElicitationContent(single, example("ElicitResult", "input-single-field.json").content), null);
  assert.equal(validateElicitationContent(multiple, example("ElicitResult", "input-multiple-fields.json").content), null);
  // And the other way round they do not: the single-field answer lacks the required email.
  assert.deepEqual(validateElicitationContent(multiple, example("ElicitResult", "input-single-field.json").content), [{ path: "/email", reason: "is required" }]);
});

// The two worked examples on both pages ("Simple Text Request", "Structured Data Request").
test("elicitation: the page examples' results conform; a wrong answer to them does not", () => {
  const simple = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
  assert.equal(validateElicitationContent(simple, { name: "octocat" }), null);
  const structured = {
    type: "object",
    properties: {
      name: { type: "string", description: "Your full name" },
      email: { type: "string", format: "email", description: "Your email address" },
      age: { type: "number", minimum: 18, description: "Your age" },
    },
    required: ["name", "email"],
  };
  assert.equal(validateElicitationContent(structured, { name: "Monalisa Octocat", email: "octocat@github.com", age: 30 }), null);
  assert.equal(validateElicitationContent(structured, { name: "Monalisa Octocat", email: "octocat@github.com" }), null);
  assert.deepEqual(validateElicitationContent(structured, { name: 7, email: "octocat", age: 17 }), [
    { path: "/name", reason: "must be a string" },
    { path: "/email", reason: "must be a valid email" },
    { path: "/age", reason: "must be >= 18" },
  ]);
});

test("elicitation: content is an object holding only the schema's properties, every required one present", () => {
  const s = one({ type: "string" }, true);
  assert.deepEqual(validateElicitationContent(s, "x"), [{ path: "", reason: "content must be an object" }]);
  assert.deepEqual(validateElicitationContent(s, ["x"]), [{ path: "", reason: "content must be an object" }]);
  assert.deepEqual(validateElicitationContent(s, {}), [{ path: "/f", reason: "is required" }]);
  assert.deepEqual(validateElicitationContent(s, { f: "a", extra: 1, "a/b": 2 }), [
    { path: "/extra", reason: "is not a property of the requested schema" },
    { path: "/a~1b", reason: "is not a property of the requested schema" },
  ]);
});

test("elicitation: a malformed schema yields an issue, never an exception", () => {
  for (const s of [null, 5, {}, { properties: [] }]) {
    assert.deepEqual(validateElicitationContent(s, {}), [{ path: "", reason: "requestedSchema is not a restricted elicitation schema" }]);
  }
  assert.deepEqual(validateElicitationContent({ properties: { f: 5 } }, { f: 1 }), [{ path: "/f", reason: "has no valid schema" }]);
  assert.deepEqual(validateElicitationContent({ properties: { f: { type: "object" } } }, { f: {} }), [{ path: "/f", reason: "has no valid schema" }]);
  // Malformed choice lists (which checkRequestedSchema refuses) check type only, and do not throw.
  assert.equal(validateElicitationContent({ properties: { f: { type: "string", oneOf: 5 } } }, { f: "x" }), null);
  assert.deepEqual(validateElicitationContent({ properties: { f: { type: "array", items: 5 } } }, { f: ["x", 1] }), [{ path: "/f/1", reason: "must be a string" }]);
});

// StringSchema: type "string", minLength/maxLength. JSON Schema counts characters as code
// points, so an astral emoji is one character though it is two UTF-16 units.
test("elicitation: string answers — type, and lengths counted in code points", () => {
  assert.deepEqual(at({ type: "string" }, 1), ["/f"]);
  assert.deepEqual(at({ type: "string", minLength: 3 }, "ab"), ["/f"]);
  assert.deepEqual(at({ type: "string", minLength: 3 }, "abc"), []);
  assert.deepEqual(at({ type: "string", maxLength: 2 }, "abc"), ["/f"]);
  assert.deepEqual(at({ type: "string", maxLength: 2 }, "😀😀"), []);
  assert.deepEqual(at({ type: "string", minLength: 3 }, "😀😀"), ["/f"]);
  // pattern is an annotation here: a peer's regular expression is never compiled.
  assert.deepEqual(at({ type: "string", pattern: "^[A-Za-z]+$" }, "123"), []);
});

// "Supported formats: email, uri, date, date-time" — each checked by a fixed scanner.
const FORMAT_CASES: Record<string, [valid: string[], invalid: string[]]> = {
  email: [
    ["user@example.com", "octocat@github.com", "a.b+tag@sub.example-domain.org", "x@localhost", "o'neil@e.io"],
    ["", "user", "@example.com", "user@", "a..b@example.com", ".a@example.com", "a.@example.com", "a@b..com", "a@-b.com", "a@b-.com", "a@b.com.", "a b@c.com", "a@b_c.com", "ü@example.com", "a@" + "x".repeat(64) + ".com", "x".repeat(65) + "@example.com"],
  ],
  uri: [
    ["https://example.com/a?b=c#d", "mailto:user@example.com", "urn:isbn:0451450523", "file:///tmp/x", "http://[::1]:80/", "a+b-c.d:x%20y"],
    ["", "example.com", "/relative/path", "1http://x", "ht tp://x", "http://x y", "http://x/%zz", "http://x/%2", "http://x#a#b", "http://x/<>", "http://ü.com", ":nothing"],
  ],
  date: [
    ["2024-02-29", "2000-02-29", "2023-12-31", "1999-01-01", "2023-04-30"],
    ["2023-02-29", "1900-02-29", "2023-04-31", "2023-13-01", "2023-00-10", "2023-01-00", "2023-1-01", "20230101", "2023-01-01T00:00:00Z", "２０２３-01-01", "abcd-ef-gh"],
  ],
  "date-time": [
    ["2023-01-01T00:00:00Z", "2023-01-01t12:30:45.123z", "2023-06-30T23:59:59+02:00", "1998-12-31T23:59:60Z", "1998-12-31T15:59:60.5-08:00", "2023-01-01T00:00:00.000001-00:00"],
    ["2023-01-01", "2023-01-01 00:00:00Z", "2023-01-01T24:00:00Z", "2023-01-01T00:60:00Z", "2023-01-01T00:00:61Z", "2023-01-01T12:00:60Z", "2023-01-01T00:00:00", "2023-01-01T00:00:00.Z", "2023-01-01T00:00:00+2:00", "2023-01-01T00:00:00+24:00", "2023-01-01T00:00:00+02:60", "2023-01-01T00:00:00Zjunk", "2023-02-30T00:00:00Z", "2023-01-01T00:00:00+02:00x"],
  ],
};

for (const [format, [valid, invalid]] of Object.entries(FORMAT_CASES)) {
  test(`elicitation: format "${format}" accepts well-formed and rejects malformed answers`, () => {
    for (const s of valid) assert.equal(elicitationFormats[format as "email"](s), true, JSON.stringify(s));
    for (const s of invalid) assert.equal(elicitationFormats[format as "email"](s), false, JSON.stringify(s));
    assert.deepEqual(at({ type: "string", format }, valid[0]), []);
    assert.deepEqual(validateElicitationContent(one({ type: "string", format }), { f: invalid[0] }), [{ path: "/f", reason: "must be a valid " + format }]);
  });
}

// NumberSchema: type "number" | "integer", minimum, maximum.
test("elicitation: number answers — type, integer-ness, and inclusive bounds", () => {
  assert.deepEqual(at({ type: "number" }, "5"), ["/f"]);
  assert.deepEqual(at({ type: "number" }, NaN), ["/f"]);
  assert.deepEqual(at({ type: "number" }, Infinity), ["/f"]);
  assert.deepEqual(at({ type: "number" }, 1.5), []);
  assert.deepEqual(at({ type: "integer" }, 1.5), ["/f"]);
  assert.deepEqual(at({ type: "integer" }, 2), []);
  assert.deepEqual(at({ type: "number", minimum: 0, maximum: 100 }, 0), []);
  assert.deepEqual(at({ type: "number", minimum: 0, maximum: 100 }, 100), []);
  assert.deepEqual(validateElicitationContent(one({ type: "number", minimum: 0, maximum: 100 }), { f: 101 }), [{ path: "/f", reason: "must be <= 100" }]);
  assert.deepEqual(validateElicitationContent(one({ type: "number", minimum: 0, maximum: 100 }), { f: -1 }), [{ path: "/f", reason: "must be >= 0" }]);
});

test("elicitation: boolean answers must be booleans", () => {
  assert.deepEqual(at({ type: "boolean" }, false), []);
  assert.deepEqual(at({ type: "boolean" }, "false"), ["/f"]);
  assert.deepEqual(at({ type: "boolean" }, 0), ["/f"]);
});

// Single-select enums: the answer is one of `enum`, or one of the `oneOf` consts (not a title).
test("elicitation: single-select answers are members — enum, titled oneOf consts, legacy enum (not enumNames)", () => {
  const colors = example("UntitledSingleSelectEnumSchema", "color-select-schema.json");
  assert.deepEqual(at(colors, "Red"), []);
  assert.deepEqual(at(colors, "red"), ["/f"]);
  assert.deepEqual(at(colors, ["Red"]), ["/f"]);
  const titled = example("TitledSingleSelectEnumSchema", "titled-color-select-schema.json");
  assert.deepEqual(at(titled, "#00FF00"), []);
  assert.deepEqual(at(titled, "Green"), ["/f"]);
  const legacy = { type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"] };
  assert.deepEqual(at(legacy, "r"), []);
  assert.deepEqual(at(legacy, "Red"), ["/f"]);
});

// Multi-select enums: type "array", items enum / anyOf consts, minItems, maxItems.
test("elicitation: multi-select answers — an array of member strings within minItems..maxItems", () => {
  const multi = example("UntitledMultiSelectEnumSchema", "color-multi-select-schema.json");
  assert.deepEqual(at(multi, ["Red", "Blue"]), []);
  assert.deepEqual(at(multi, "Red"), ["/f"]);
  assert.deepEqual(at(multi, []), ["/f"]);
  assert.deepEqual(at(multi, ["Red", "Green", "Blue"]), ["/f"]);
  assert.deepEqual(at(multi, [1, "Purple"]), ["/f/0", "/f/1"]);
  const titled = example("TitledMultiSelectEnumSchema", "titled-color-multi-select-schema.json");
  assert.deepEqual(at(titled, ["#FF0000"]), []);
  assert.deepEqual(at(titled, ["Red"]), ["/f/0"]);
  assert.deepEqual(at({ ...multi, uniqueItems: true }, ["Red", "Red"]), ["/f/1"]);
  assert.deepEqual(at(multi, ["Red", "Red"]), []);
});

// The server checks a client's content: its selections are read a bounded number of times
// each (no search per selection), and at most MAX_ISSUES issues are listed.
test("elicitation: multi-select answers are checked in one pass, and at most MAX_ISSUES issues are listed", () => {
  const options = Array.from({ length: 500 }, (_, i) => "o" + i);
  const ps = { type: "array", uniqueItems: true, items: { type: "string", enum: options } };
  const { list, reads } = counted(options.slice());
  assert.equal(validateElicitationContent(one(ps), { f: list }), null);
  assert.ok(reads() <= 2 * options.length, String(reads()));
  const issues = validateElicitationContent(one(ps), { f: Array(500).fill("o1") })!;
  assert.equal(issues.length, MAX_ISSUES + 1);
  assert.deepEqual(issues[0], { path: "/f/1", reason: "must not repeat a selection" });
  assert.deepEqual(issues[MAX_ISSUES], { path: "", reason: "more issues not listed" });
  // Defaults read `required` once, not once per property.
  const names = Array.from({ length: 500 }, (_, i) => "p" + i);
  const req = counted(names.slice());
  applyElicitationDefaults({ type: "object", properties: Object.fromEntries(names.map((n) => [n, { type: "string", default: "d" }])), required: req.list }, {});
  assert.ok(req.reads() <= 2 * names.length, String(req.reads()));
});

test("elicitation: content keys such as __proto__ and constructor are plain data", () => {
  const s = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}');
  assert.equal(validateElicitationContent(s, JSON.parse('{"__proto__":"x"}')), null);
  assert.deepEqual(validateElicitationContent(s, JSON.parse('{"__proto__":5}')), [{ path: "/__proto__", reason: "must be a string" }]);
  assert.deepEqual(validateElicitationContent(s, {}), [{ path: "/__proto__", reason: "is required" }]);
  // A name inherited from Object.prototype is not a schema property.
  const empty = { type: "object", properties: {}, required: ["constructor"] };
  assert.deepEqual(validateElicitationContent(empty, { constructor: "x", toString: "y" }), [
    { path: "/constructor", reason: "is not a property of the requested schema" },
    { path: "/toString", reason: "is not a property of the requested schema" },
  ]);
  assert.deepEqual(validateElicitationContent(empty, {}), [{ path: "/constructor", reason: "is required" }]);
});

// Defaults "provide sensible starting points"; an absent optional answer takes its default.
test("elicitation: applyElicitationDefaults fills absent optional fields only, without mutating its inputs", () => {
  const schema = {
    type: "object",
    properties: {
      name: { type: "string", default: "anon" },
      email: { type: "string", format: "email", default: "user@example.com" },
      age: { type: "number" },
      colors: example("UntitledMultiSelectEnumSchema", "color-multi-select-schema.json"),
      subscribe: example("BooleanSchema", "boolean-input-schema.json"),
    },
    required: ["email"],
  };
  const content = Object.freeze({ name: "Mona" });
  const frozenSchema = JSON.stringify(schema);
  const filled = applyElicitationDefaults(schema, content);
  assert.deepEqual(filled, { name: "Mona", colors: ["Red", "Green"], subscribe: false });
  assert.deepEqual(content, { name: "Mona" });
  assert.equal(JSON.stringify(schema), frozenSchema);
  // The array default is a copy: editing the answer leaves the schema alone.
  (filled.colors as string[]).push("Blue");
  assert.deepEqual(schema.properties.colors.default, ["Red", "Green"]);
  // A required field is not papered over: it stays missing and validation still says so.
  assert.deepEqual(validateElicitationContent(schema, filled), [
    { path: "/colors", reason: "must select at most 2" },
    { path: "/email", reason: "is required" },
  ]);
  // No content yet (e.g. a fresh form): every optional default.
  assert.deepEqual(applyElicitationDefaults(schema, undefined), { name: "anon", colors: ["Red", "Green"], subscribe: false });
  assert.deepEqual(applyElicitationDefaults(null, { a: 1 }), { a: 1 });
});

// The result is built with defineProperty: "__proto__" must become an own key, not a prototype.
test("elicitation: applyElicitationDefaults never writes __proto__ by assignment", () => {
  const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","default":"x"},"constructor":{"type":"string","default":"c"}}}');
  const filled = applyElicitationDefaults(schema, {});
  assert.equal(Object.getPrototypeOf(filled), Object.prototype);
  assert.equal(Object.hasOwn(filled, "__proto__"), true);
  assert.equal(JSON.stringify(filled), '{"__proto__":"x","constructor":"c"}');
  assert.equal(({} as any).polluted, undefined);
  // A hostile content key is copied as data too, and cannot pollute anything.
  const copied = applyElicitationDefaults({ type: "object", properties: {} }, JSON.parse('{"__proto__":{"polluted":true}}'));
  assert.equal(Object.getPrototypeOf(copied), Object.prototype);
  assert.equal((copied as any).polluted, undefined);
  assert.deepEqual(Object.keys(copied), ["__proto__"]);
  assert.equal(({} as any).polluted, undefined);
  assert.equal(validateElicitationContent(schema, filled), null);
});
