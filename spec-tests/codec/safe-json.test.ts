// Spec: 2025-11-25 basic/transports — "JSON-RPC messages MUST be UTF-8 encoded"; the
// bounds that guard the codec (sizes in UTF-8 bytes, nesting depth, reading an id
// without parsing) measured against the platform's own encoder.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkNesting, decodeUtf8, exceedsBytes, hasOwn, isJsonShaped, jsonCopy, mayExceedDepth, mayOverflow, merged, peekRequestId, utf8Length } from "../../src/jsonrpc/safe-json.js";

const SAMPLES = ["", "a", "é", "日本語", "🎉", "a🎉b", "\u007f\u0080\u07ff\u0800\uffff", "\ud800\udc00", "x".repeat(100) + "€".repeat(50)];

test("utf8Length matches TextEncoder for well-formed strings, and adds up over any split", () => {
  const enc = new TextEncoder();
  for (const s of SAMPLES) {
    assert.equal(utf8Length(s), enc.encode(s).length, JSON.stringify(s));
    for (let i = 0; i <= s.length; i++) assert.equal(utf8Length(s.slice(0, i)) + utf8Length(s.slice(i)), utf8Length(s));
  }
});

test("exceedsBytes decides exactly at every limit around the true size", () => {
  for (const s of SAMPLES) {
    const size = utf8Length(s);
    for (let limit = Math.max(0, size - 4); limit <= size * 3 + 2; limit++) assert.equal(exceedsBytes(s, limit), size > limit, `${JSON.stringify(s)} @ ${limit}`);
  }
});

test("mayExceedDepth is a sound pre-filter: false only when the text cannot nest that deep", () => {
  assert.equal(mayExceedDepth("[[[]]", 2), false); // 5 characters cannot hold 3 levels
  assert.equal(mayExceedDepth("[[[]]]", 2), true); // 6 can
  assert.equal(mayExceedDepth("[[[ ]]]  ", 3), false);
  assert.equal(mayExceedDepth('{"a":{"b":1},"c":{"d":2}}', 2), true);
  assert.equal(mayExceedDepth('{"a":1,"b":[1,2,3],"c":"xxxxxxxx"}', 2), false);
  assert.equal(mayExceedDepth('{"a":1,"b":"xxxxxxxxxxxxxxxxxxxxxxxxxx"}', 1), false);
});

test("mayOverflow answers as the one pattern /\\d[eE]\\+?\\d{3}|\\d{210}/ does: a run of 210 digits is found wherever it starts and however long the text", () => {
  const reference = /\d[eE]\+?\d{3}|\d{210}/;
  const texts = ['{"n":1e308}', '{"n":1E+308}', '{"n":1e30}', '{"n":1e-999}', '"e308"', '{"s":"v2e100"}', "", "9".repeat(209), "9".repeat(210)];
  for (const run of [209, 210, 211, 419, 420, 421, 631])
    for (let at = 0; at <= 212; at++) texts.push("x".repeat(at) + "7".repeat(run) + "}".repeat(at % 5), "1".repeat(at) + "x" + "7".repeat(run));
  for (const t of texts) assert.equal(mayOverflow(t), reference.test(t), `${t.length} characters: ${t.slice(0, 40)}`);
});

test("checkNesting counts the outermost container as depth 1 and ignores primitives", () => {
  assert.equal(checkNesting(5, 0, 10), "ok");
  assert.equal(checkNesting([], 1, 10), "ok");
  assert.equal(checkNesting([[]], 1, 10), "too-deep");
  assert.equal(checkNesting({ a: { b: [1, "x", null] } }, 3, 10), "ok");
  assert.equal(checkNesting({ a: { b: [1, "x", {}] } }, 3, 10), "too-deep");
  assert.equal(checkNesting([{}, {}, {}], 5, 3), "too-many");
});

test("checkNesting answers the same by recursion (maxDepth up to 256) and by its explicit stack (deeper bounds)", () => {
  const nested = (depth: number): unknown => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [0, v] : { k: v, s: "x" };
    return v;
  };
  for (const [depth, bound] of [[200, 200], [256, 256], [300, 300], [1000, 1000]]) {
    assert.equal(checkNesting(nested(depth), bound, 1e6), "ok", `${depth} deep, bound ${bound}`);
    assert.equal(checkNesting(nested(depth + 1), bound, 1e6), "too-deep", `${depth + 1} deep, bound ${bound}`);
    assert.equal(checkNesting(nested(depth), bound, depth - 1), "too-many", `${depth} containers, budget ${depth - 1}`);
  }
  // A shared child is counted each time it is reached (a DAG's walk grows exponentially), and a cycle ends at the depth bound.
  let dag: unknown = {};
  for (let i = 0; i < 30; i++) dag = [dag, dag];
  for (const bound of [64, 1000]) assert.equal(checkNesting(dag, bound, 10_000), "too-many", `DAG, bound ${bound}`);
  const cycle: { self?: unknown } = {};
  cycle.self = cycle;
  for (const bound of [64, 1000]) assert.equal(checkNesting(cycle, bound, 1e9), "too-deep", `cycle, bound ${bound}`);
});

test("decodeUtf8 returns undefined for invalid UTF-8 and drops a leading BOM", () => {
  assert.equal(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])), "a");
  assert.equal(decodeUtf8(new Uint8Array([0x61, 0xff])), undefined);
});

test("peekRequestId reads a request id from a prefix, from text or bytes", () => {
  assert.equal(peekRequestId('{"jsonrpc":"2.0","id":"a\\u0062","method":"m"'), "ab");
  assert.equal(peekRequestId(new TextEncoder().encode('{"method":"m","id":12,')), 12);
  assert.equal(peekRequestId('{"id":12}'), null);
  assert.equal(peekRequestId("[]"), null);
  assert.equal(peekRequestId(""), null);
  assert.equal(peekRequestId('{"id":"unterminated'), null);
  assert.equal(peekRequestId('{"a":{"b":[{"c":"]"}]},"id":1,"method":"m"}'), 1);
  assert.equal(peekRequestId('{"id":01,"method":"m"}'), null); // not a JSON number
  assert.equal(peekRequestId('{"id":tru,"method":"m"}'), null);
  assert.equal(peekRequestId('{"error":{},"id":1,"method":"m"}'), null);
  assert.equal(peekRequestId('{"result":{},"id":1,"method":"m"}'), null);
  assert.equal(peekRequestId('{"' + "k".repeat(2000) + '":1}'), null);
  // The window ends between members: nothing more can be learnt.
  assert.equal(peekRequestId('{"id":1,' + " ".repeat(2000) + '"method":"m"}'), null);
});

test("hasOwn sees own keys only, whatever the object calls its own", () => {
  const parsed = JSON.parse('{"__proto__":1,"hasOwnProperty":2}') as object;
  assert.equal(hasOwn(parsed, "__proto__"), true);
  assert.equal(hasOwn(parsed, "hasOwnProperty"), true);
  assert.equal(hasOwn(parsed, "toString"), false);
  assert.equal(hasOwn({}, "constructor"), false);
});

test("merged is the spread { ...base, ...extra }: own keys in order, later wins, a decoded __proto__ stays data", () => {
  const base = JSON.parse('{"a":1,"__proto__":{"polluted":true},"b":2}') as object;
  const out = merged(base, { b: 3, c: 4 });
  assert.deepEqual(Object.keys(out), Object.keys({ ...base, ...{ b: 3, c: 4 } }));
  assert.deepEqual(Object.keys(out), ["a", "__proto__", "b", "c"]);
  assert.equal(out.b, 3);
  assert.equal(Object.getPrototypeOf(out), Object.prototype, "the copy's prototype is not replaced");
  assert.equal((out as { polluted?: unknown }).polluted, undefined);
  assert.deepEqual(Object.getOwnPropertyDescriptor(out, "__proto__")?.value, { polluted: true });
  // Inherited keys are not copied, and the inputs are left alone.
  const proto = { inherited: 1 };
  const child = Object.assign(Object.create(proto) as object, { own: 2 });
  assert.deepEqual(merged(child, {}), { own: 2 });
  assert.deepEqual(merged(undefined, { x: 1 }), { x: 1 });
  assert.deepEqual(Object.keys(base), ["a", "__proto__", "b"]);
});

// isJsonShaped: whether a value may cross an in-process transport as an object, i.e. is
// exactly what the peer would parse from its JSON text (basic/transports: messages are
// JSON text; anything else must take the encoder's path).
test("isJsonShaped: true exactly when JSON.parse(JSON.stringify(v)) gives v back", () => {
  const shaped: unknown[] = [null, true, "s", 0, 1.5, -2, [], {}, { a: [1, { b: "c" }], d: null }, Object.assign(Object.create(null), { x: 1 }), ["\ud800"]];
  for (const v of shaped) {
    assert.equal(isJsonShaped(v, 64, 1000), true, JSON.stringify(v));
    // (A null-prototype object parses back with Object.prototype: the same JSON value.)
    if (typeof v !== "object" || v === null || Object.getPrototypeOf(v) !== null) assert.deepEqual(JSON.parse(JSON.stringify(v)), v);
  }
  // An undefined member is left out by the direct copy, as JSON text leaves it out: such
  // arguments (`{ opt: maybe }`) are common, and the text round trip costs several times more.
  const stringify = JSON.stringify;
  let texts = 0;
  JSON.stringify = ((...args: Parameters<typeof stringify>) => (texts++, stringify(...args))) as typeof stringify;
  try {
    assert.deepEqual(jsonCopy({ a: undefined, b: { c: undefined, d: [1] } }), { b: { d: [1] } });
  } finally {
    JSON.stringify = stringify;
  }
  assert.equal(texts, 0, "copied directly, not through JSON text");
  const cyclic: any = { a: {} };
  cyclic.a.self = cyclic;
  const notShaped: unknown[] = [undefined, 1n, -0, NaN, Infinity, () => 1, Symbol("s"), new Date(0), new Map(), { a: undefined }, [1, undefined], { n: 1n }, [new Date(0)], { toJSON: () => 1 }, cyclic];
  for (const v of notShaped) assert.equal(isJsonShaped(v, 64, 1000), false, String(typeof v === "object" ? Object.prototype.toString.call(v) : typeof v));
});

test("isJsonShaped: bounded by depth and by the number of containers, without recursion", () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(isJsonShaped(deep, 64, 1e9), false, "deeper than maxDepth");
  assert.equal(isJsonShaped([[[1]]], 3, 10), true, "exactly maxDepth");
  assert.equal(isJsonShaped([[[1]]], 2, 10), false);
  const wide = Array.from({ length: 20 }, () => ({}));
  assert.equal(isJsonShaped(wide, 64, 21), true, "21 containers");
  assert.equal(isJsonShaped(wide, 64, 20), false, "over maxNodes");
});

test("jsonCopy: what JSON.parse(JSON.stringify(v)) gives, sharing no object with v, or undefined when v has no JSON form", () => {
  const inner = { b: [1, { c: "d" }] };
  const value = { a: inner, e: null, f: [inner] };
  const copy = jsonCopy(value)!;
  assert.deepEqual(copy, value);
  assert.notEqual(copy.a, inner);
  assert.notEqual(copy.a.b, inner.b);
  assert.notEqual(copy.f[0], inner);
  const hostile = JSON.parse('{"__proto__":{"polluted":1},"x":1}') as object;
  const safe = jsonCopy(hostile)!;
  assert.ok(hasOwn(safe, "__proto__"), "an own __proto__ key stays data");
  assert.equal(Object.getPrototypeOf(safe), Object.prototype);
  // Not plain data: as its JSON text gives it back.
  for (const v of [{ a: undefined, b: 1 }, [1, undefined], -0, { d: new Date(0) }, { t: { toJSON: () => "j" } }, Object.assign(Object.create(null), { x: 1 })]) {
    assert.deepEqual(jsonCopy(v), JSON.parse(JSON.stringify(v)), String(JSON.stringify(v)));
  }
  const cyclic: any = { a: {} };
  cyclic.a.self = cyclic;
  const throwing = Object.defineProperty({}, "x", { enumerable: true, get: () => { throw new Error("no"); } });
  for (const v of [undefined, 1n, { n: 1n }, () => 1, cyclic, throwing]) assert.equal(jsonCopy(v), undefined);
  let deep: unknown = 1;
  for (let i = 0; i < 1000; i++) deep = [deep];
  assert.deepEqual(jsonCopy(deep), deep, "deeper than the direct copy goes: through JSON");
});

