// Hostile input to the validators and method tables: prototype keys as data, values
// deeper than any JSON the codec lets through, cycles, and objects that throw. The kernel
// never throws across its boundary (STYLE.md); a bad value is an issue, not a crash.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_DEPTH, validate, validatorFor } from "../../src/schema/index.js";
import { hasCapability, methodSpec } from "../../src/model/methods.js";

const caps = validatorFor("2026-07-28", "ClientCapabilities")!;
const text = validatorFor("2026-07-28", "TextContent")!;
const block = validatorFor("2026-07-28", "ContentBlock")!;

test("__proto__ and constructor keys in data are plain data: no crash, no pollution", () => {
  const parsed = JSON.parse('{"experimental":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}');
  assert.equal(caps(parsed), null);
  const bad = JSON.parse('{"experimental":{"__proto__":5}}');
  assert.deepEqual(caps(bad), [{ path: "/experimental/__proto__", reason: "expected object" }]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted"), false);
  // A data key that shadows Object.prototype methods the validator might otherwise call.
  assert.equal(text({ type: "text", text: "x", hasOwnProperty: 1, toString: 2, valueOf: 3 }), null);
});

test("required members must be own properties: a prototype does not supply them", () => {
  const inherited = Object.create({ text: "from the prototype" });
  inherited.type = "text";
  assert.deepEqual(text(inherited), [{ path: "", reason: 'missing required property "text"' }]);
  // Schema keys that name Object.prototype members are not found on the prototype either.
  assert.notEqual(validatorFor("2026-07-28", "Tool")!(Object.create({ name: "n", inputSchema: { type: "object" } })), null);
});

test("maps (additionalProperties schemas) check own keys only: inherited enumerable keys are ignored", () => {
  const experimental = Object.create({ inherited: "not an object" });
  experimental.own = {};
  assert.equal(caps({ experimental }), null);
  experimental.bad = 1;
  assert.deepEqual(caps({ experimental }), [{ path: "/experimental/bad", reason: "expected object" }]);
});

test("discriminator values named like prototype members are just unknown values", () => {
  for (const type of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
    const r = block({ type });
    assert.equal(r?.[0]?.path, "/type", type);
  }
  assert.equal(methodSpec("2026-07-28", "__proto__"), undefined);
  assert.equal(methodSpec("2026-07-28", "constructor"), undefined);
  assert.equal(methodSpec("2026-07-28", "toString"), undefined);
  assert.equal(hasCapability({}, "constructor"), false);
  assert.equal(hasCapability({}, "__proto__"), false);
  assert.equal(hasCapability({}, "toString.name"), false);
  assert.equal(hasCapability(JSON.parse('{"__proto__":{"x":{}}}'), "__proto__.x"), true, "an own __proto__ key is data");
  assert.equal(validatorFor("2026-07-28", "constructor"), undefined);
  assert.equal(validatorFor("2026-07-28", "hasOwnProperty"), undefined);
  assert.equal(validatorFor("__proto__" as never, "TextContent"), undefined);
});

/** `{x: {x: ... }}` `levels` deep, built without recursion. */
function deepObject(levels: number): unknown {
  let v: unknown = {};
  for (let i = 0; i < levels; i++) v = { x: v };
  return v;
}

function deepArray(levels: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

test(`values nested deeper than ${MAX_DEPTH} levels get an issue, not a stack overflow`, () => {
  for (const deep of [deepObject(100_000), deepArray(100_000)]) {
    const r = caps({ experimental: { x: { deep } } });
    assert.ok(r !== null && r.length === 1, JSON.stringify(r?.slice(0, 2)));
    assert.match(r[0].reason, /nested deeper than 256 levels/);
    assert.ok(r[0].path.startsWith("/experimental/x/deep/"), r[0].path.slice(0, 40));
  }
  // Nesting within the bound is fine (the codec already stops at 64).
  assert.equal(caps({ experimental: { x: { deep: deepObject(200) } } }), null);
});

test("cyclic values end with an issue", () => {
  const a: Record<string, unknown> = {};
  a.self = a;
  const list: unknown[] = [];
  list.push(list);
  for (const cyc of [a, list]) {
    const r = caps({ experimental: { x: { cyc } } });
    assert.match(r?.[0]?.reason ?? "", /nested deeper/);
  }
});

test("a value that throws when read is an issue, and the validator stays usable", () => {
  const trap = new Proxy(
    {},
    {
      getOwnPropertyDescriptor() {
        throw new Error("boom");
      },
      ownKeys() {
        throw new Error("boom");
      },
      get() {
        throw new Error("boom");
      },
    },
  );
  assert.deepEqual(text(trap), [{ path: "", reason: "value could not be read" }]);
  assert.deepEqual(validate("2026-07-28", "ClientCapabilities", { experimental: trap }), { ok: false, issues: [{ path: "", reason: "value could not be read" }] });
  // The depth and quiet counters were restored: the next validations behave normally.
  assert.equal(text({ type: "text", text: "ok" }), null);
  assert.deepEqual(block({ type: "image" })?.map((i) => i.reason).sort(), ['missing required property "data"', 'missing required property "mimeType"']);
});

test("a throwing value inside a union tried quietly does not leave the validator in quiet mode", () => {
  const resource = validatorFor("2026-07-28", "EmbeddedResource")!;
  const trap = new Proxy({}, { getOwnPropertyDescriptor() { throw new Error("boom"); } });
  assert.deepEqual(resource({ type: "resource", resource: trap }), [{ path: "", reason: "value could not be read" }]);
  const r = resource({ type: "resource", resource: { uri: 5 } });
  assert.ok(r !== null && r.length > 0 && r.every((i) => i.reason !== ""), "issues are described again");
});
