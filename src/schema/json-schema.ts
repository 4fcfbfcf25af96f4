/**
 * JSON Schema for tool arguments: a pluggable hook and a compact built-in interpreter.
 *
 * Spec: draft `basic/index` — "JSON Schema Usage" (and `server/tools`: `inputSchema` /
 * `outputSchema` are JSON Schema objects).
 *
 * Theory of operation. Validation has two phases. `compile` walks the schema once: it
 * checks the dialect, checks that the keywords the interpreter relies on have values of the
 * right shape ("Schemas MUST be valid according to their declared or default dialect"),
 * compiles `pattern`s, resolves every `$ref` to a node, and copies what it keeps into
 * nodes of one class with every keyword slot present, so the interpreter's reads stay
 * monomorphic. Keyed tables (`properties`, `$defs`) are `Map`s, so any key,
 * `__proto__` and `constructor` included, is looked up without reaching
 * Object.prototype; instance data, which keeps its prototype, is only read through own
 * keys. Unknown keywords are dropped, which is the 2020-12 rule that they are ignored.
 *
 * `validate` then interprets the node graph. It runs a fast pass that stops at the first
 * failure, builds no paths and allocates nothing but the key list of each object it walks;
 * only when that fails does it run again to collect every
 * issue with a JSON pointer into the instance. Resource use is bounded as the spec
 * advises for composition keywords: schema depth and subschema count at compile time, a
 * step budget and a recursion depth per validation, so a `$ref` cycle that never
 * consumes the instance ends with "validation budget exceeded" instead of hanging or
 * overflowing the stack.
 *
 * Dialects: 2020-12 (the default when `$schema` is absent), and leniently 2019-09 and
 * draft-07, read with 2020-12 semantics except that an array-valued `items` means
 * `prefixItems` and `additionalItems` then applies to the rest. Any other `$schema` is a
 * compile error "unsupported dialect". Only fragment references (`#`, `#/$defs/x`, any
 * JSON pointer into the same document, percent- and ~0/~1-unescaped) are resolved; every
 * other `$ref` is a compile error "network $ref not dereferenced", so nothing is fetched.
 * `$dynamicRef`/`$recursiveRef` are refused rather than silently ignored.
 *
 * `pattern` and `patternProperties` are compiled with `new RegExp(source, "u")`. That is
 * only acceptable because the schemas given to this validator are the application's own
 * (a server compiles its own tool schemas); never compile a schema received from a peer
 * with patterns you do not trust. `format` is an annotation unless `formats` supplies
 * assertion functions.
 */
import type { Issue } from "./validate.js";
import { T_ARRAY, T_BOOLEAN, T_FRACTION, T_INTEGER, T_NULL, T_OBJECT, T_STRING, typeBit } from "./json-type.js";

/**
 * A JSON Schema engine the kernel can use to validate tool arguments and results.
 * `compile` never throws: a schema it cannot use comes back as `{ ok: false, issues }`
 * with pointers into the schema; `validate` returns `null` for a valid value, else issues
 * with RFC 6901 pointers into the value.
 *
 * The kernel ships {@link builtinJsonSchema}; bring your own by implementing this, e.g.
 * with Ajv (`Ajv2020`, `strict: false`, `loadSchema` left unset so nothing is fetched):
 * ```ts
 * const viaAjv: JsonSchemaValidator = { compile(schema) {
 *   try { const f = new Ajv2020({ strict: false }).compile(schema as object);
 *     return { ok: true, validate: (v) => f(v) ? null : f.errors!.map((e) => ({ path: e.instancePath, reason: e.message ?? e.keyword })) };
 *   } catch (e) { return { ok: false, issues: [{ path: "", reason: String(e) }] }; }
 * } };
 * ```
 */
export interface JsonSchemaValidator {
  compile(schema: unknown): { ok: true; validate: (value: unknown) => Issue[] | null } | { ok: false; issues: Issue[] };
}

/** Limits and format assertions for {@link createJsonSchemaValidator}. */
export interface JsonSchemaOptions {
  /** Deepest nesting of subschemas in one schema (default 64). */
  maxDepth?: number;
  /** Most subschemas one schema may hold (default 10,000). */
  maxSubschemas?: number;
  /** Most interpreter steps one validation may take (default 100,000). */
  maxSteps?: number;
  /** `format` name → assertion; formats not listed stay annotations (default: none). */
  formats?: Readonly<Record<string, (value: string) => boolean>>;
}

/** Deepest recursion of one validation; a fixed guard for the stack, not a policy knob. */
const MAX_RECURSION = 1000;

// Each understood keyword as "<kind><slot><name>". The kind says what the value must be
// and how it is kept: n/g/y/o a bound on a number, a string's code points, an array's
// length or an object's key count, whose slot is the comparison that fails it (0 <, 1 >,
// 2 <=, 3 >=, 4 not a multiple); B, S, C kept as given (uniqueItems is read as a truth
// value, format only as a key); R string array, T type, E array, s schema, a non-empty
// schema array, m schema map, i items (a schema, or a schema array meaning prefixItems),
// r $ref, p pattern, q patternProperties, x refused.
// Otherwise the slot is the one-letter field of Schema that keeps the value; the short
// names save bytes.
// Built by a pure call so that a bundle importing only isSupportedDialect drops it.
const KW: Record<string, string> = /* @__PURE__ */ (() => {
  const kw: Record<string, string> = Object.create(null);
  for (const e of (
    "n0minimum n1maximum n2exclusiveMinimum n3exclusiveMaximum n4multipleOf g0minLength g1maxLength y0minItems y1maxItems " +
    "o0minProperties o1maxProperties BuuniqueItems Sfformat Rrrequired Tttype Eeenum Ccconst saadditionalProperties " +
    "szadditionalItems snnot sIif sTthen sEelse aAallOf aYanyOf aOoneOf axprefixItems mpproperties md$defs mddefinitions " +
    "iiitems rR$ref pPpattern qqpatternProperties x-$dynamicRef x-$recursiveRef"
  ).split(" ")) {
    kw[e.slice(2)] = e;
  }
  return kw;
})();

const TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];

/** Whether `uri` names a dialect the built-in validator accepts (2020-12, 2019-09, draft-07). */
export function isSupportedDialect(uri: unknown): boolean {
  // A fixed literal, never built from input; http or https, with or without the empty fragment.
  return isStr(uri) && /^https?:\/\/json-schema\.org\/(draft\/2020-12|draft\/2019-09|draft-07)\/schema#?$/.test(uri);
}

/** A compiled subschema: a boolean schema, or a {@link Schema}. */
type Node = boolean | Schema;

/** A bound keyword: [instance kind, comparison, limit, keyword name] (see KW). */
type Bound = [kind: string, op: number, limit: number, name: string];

/** Marks an absent `const` (any JSON value, `null` included, may be a const). */
const NONE: unknown = Symbol();

/** A key of an object schema: its `properties` schema (null: none), and whether `required` names it. */
class Prop {
  s: Node | null = null;
  r = false;
}

/**
 * A compiled schema object. Every keyword slot exists from the start (null, or NONE for
 * `const`, when absent), so every node has one hidden class and the interpreter's reads
 * stay monomorphic; slot names are KW's. Maps from keys are `Map`s, so a key such as
 * `__proto__` or `constructor` is only ever data.
 */
class Schema {
  R: Node | null = null;
  t: string[] | null = null;
  /** `t` as a mask of JSON type bits (see `typeBit`). */
  m = 0;
  c: unknown = NONE;
  e: unknown[] | null = null;
  l: Bound[] | null = null;
  P: RegExp | null = null;
  f: unknown = null;
  u: unknown = null;
  x: Node[] | null = null;
  i: Node | null = null;
  z: Node | null = null;
  r: string[] | null = null;
  p: Map<string, Node> | null = null;
  /** `p` and `r` joined: each key's property schema and whether it is required (null: neither). */
  k: Map<string, Prop> | null = null;
  /** How many distinct keys `r` requires. */
  rn = 0;
  d: Map<string, Node> | null = null;
  q: [RegExp, Node][] | null = null;
  a: Node | null = null;
  A: Node[] | null = null;
  Y: Node[] | null = null;
  O: Node[] | null = null;
  n: Node | null = null;
  I: Node | null = null;
  T: Node | null = null;
  E: Node | null = null;
}


/** The type bits each name in TYPES accepts: "number" takes integers too. */
const TYPE_BITS = [T_STRING, T_FRACTION | T_INTEGER, T_INTEGER, T_BOOLEAN, T_OBJECT, T_ARRAY, T_NULL];

const isObj = (x: unknown): x is Record<string, any> => typeof x === "object" && x !== null && !Array.isArray(x);
const isStr = (x: unknown): x is string => typeof x === "string";
const isPrim = (x: unknown) => x === null || typeof x !== "object";
const isType = (t: unknown) => TYPES.includes(t as string);
const esc = (k: string | number) => String(k).replace(/~/g, "~0").replace(/\//g, "~1");
const fail = (path: string, reason: string): never => {
  throw { path, reason };
};

// Compile state: compile is synchronous and calls no user code, so one set suffices.
let memo: Map<object, Schema> | undefined;
let pending: [Record<string, any>, string, string][];
let count: number;
let limitDepth: number;
let limitCount: number;

function node(s: unknown, p: string, d: number): Node {
  if (typeof s === "boolean") return s;
  if (!isObj(s)) return fail(p, "invalid schema");
  const known = memo!.get(s);
  if (known) return known;
  if (d > limitDepth || ++count > limitCount) fail(p, "schema too large");
  const schema = new Schema();
  memo!.set(s, schema);
  // Slots are written by the names KW gives them, all declared on Schema.
  const n = schema as unknown as Record<string, any>;
  let tuple = false;
  for (const k of Object.keys(s)) {
    if (!KW[k]) continue; // unknown keyword: ignored, as 2020-12 says
    const [c, o] = KW[k];
    const bound = "ngyo".includes(c);
    const v: any = s[k];
    const q = p + "/" + esc(k);
    const sub = (x: unknown, j: string | number) => node(x, q + "/" + esc(j), d + 1);
    if (
      c === "x" ||
      !(bound ? typeof v === "number" && isFinite(v) && (o !== "4" || v > 0)
        : c === "r" || c === "p" ? isStr(v)
        : c === "R" ? Array.isArray(v) && v.every(isStr)
        : c === "T" ? (Array.isArray(v) && v.length ? v : [v]).every(isType)
        : c === "E" ? Array.isArray(v)
        : c === "a" ? Array.isArray(v) && v.length > 0
        : c === "m" || c === "q" ? isObj(v)
        : true)
    )
      fail(q, (c === "x" ? "unsupported " : "invalid ") + k);
    if (bound) (n.l ||= []).push([c, +o, v, k]);
    else if (c === "T") {
      n.t = Array.isArray(v) ? v : [v];
      n.m = 0;
      for (const name of n.t) n.m |= TYPE_BITS[TYPES.indexOf(name)];
    }
    else if (c === "s" || (c === "i" && !Array.isArray(v))) n[o] = node(v, q, d + 1);
    else if (c === "a" || c === "i") n[c === "i" ? ((tuple = true), "x") : o] = v.map(sub);
    else if (c === "m") {
      const m: Map<string, Node> = (n[o] ||= new Map());
      for (const j of Object.keys(v)) m.set(j, sub(v[j], j));
    } else if (c === "q") n[o] = Object.keys(v).map((j) => [re(j, q), sub(v[j], j)]);
    else if (c === "p") n[o] = re(v, q);
    else if (c === "r") {
      if (v[0] !== "#") fail(q, "network $ref not dereferenced");
      pending.push([n, v, q]);
    } else n[o] = v;
  }
  // Draft-07/2019-09 tuple form: `items: [...]` became prefixItems; the rest is additionalItems.
  if (tuple) n.i = n.z;
  if (schema.p !== null || schema.r !== null) keyTable(schema);
  return schema;
}

/** Builds `k` and `rn` from `p` and `r`. */
function keyTable(n: Schema): void {
  const k = new Map<string, Prop>();
  const at = (key: string) => {
    let e = k.get(key);
    if (e === undefined) k.set(key, (e = new Prop()));
    return e;
  };
  if (n.p !== null) for (const [key, s] of n.p) at(key).s = s;
  if (n.r !== null)
    for (const key of n.r) {
      const e = at(key);
      if (!e.r) n.rn++;
      e.r = true;
    }
  n.k = k;
}

function re(src: string, p: string): RegExp {
  try {
    return new RegExp(src, "u");
  } catch {
    return fail(p, "invalid pattern");
  }
}

/** Resolves a fragment `$ref` as a JSON pointer into the root document, then compiles it. */
function resolve(root: unknown, ref: string, p: string): Node {
  let t: any = root;
  let f = "!";
  try {
    f = decodeURIComponent(ref.slice(1));
  } catch {}
  if (f && f[0] !== "/") fail(p, "unresolved $ref");
  for (const seg of f.split("/").slice(1)) {
    const k = seg.replace(/~1/g, "/").replace(/~0/g, "~");
    if (isPrim(t) || !Object.hasOwn(t, k)) fail(p, "unresolved $ref");
    t = t[k];
  }
  return node(t, f, 0);
}

// Validation state: validate is synchronous; a re-entrant call (from a format function)
// saves and restores it.
let steps: number;
let over: boolean;
let maxSteps: number;
let formats: JsonSchemaOptions["formats"];

const MS = "must satisfy ";

/** Records an issue when collecting; returns true when the caller should stop (fast mode). */
function bad(out: Issue[] | null, path: string, reason: string): boolean {
  if (out) out.push({ path, reason });
  return !out;
}

/** JSON equality: own keys only; an array never equals an object. */
function eq(a: any, b: any, d: number): boolean {
  if (a === b) return true;
  if (++steps > maxSteps || d > MAX_RECURSION) return !(over = true);
  if (isPrim(a) || isPrim(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !eq(a[k], b[k], d + 1)) return false;
  return true;
}

/** How many schemas of `ss` accept `x` (fast mode), counting no further than `stop`. */
function matches(ss: Node[], x: unknown, d: number, stop: number): number {
  let m = 0;
  for (const s of ss) if (v(s, x, null, "", d) && ++m === stop) break;
  return m;
}

/**
 * Validates `x` against node `n`. Fast mode (`out` null): returns at the first failure
 * and builds no path. Collecting mode: records every issue in `out` and goes on; the
 * result is whether `out` stayed as it was.
 */
function v(n: Node, x: any, out: Issue[] | null, p: string, d: number): boolean {
  if (++steps > maxSteps || d > MAX_RECURSION) return !(over = true);
  if (typeof n === "boolean") return n || (bad(out, p, "is not allowed"), false);
  const st = out ? out.length : 0;
  const d1 = d + 1;
  const bits = typeBit(x);
  let i = 0;
  let m: any;
  let t: any;
  if (n.R !== null && !v(n.R, x, out, p, d1) && !out) return false;
  if (n.t !== null && !(n.m & bits) && bad(out, p, MS + "type " + n.t)) return false;
  if (n.c !== NONE && !eq(x, n.c, d) && bad(out, p, MS + "const")) return false;
  if ((m = n.e) !== null) {
    for (i = 0; i < m.length && !eq(x, m[i], d); i++);
    if (i === m.length && bad(out, p, MS + "enum")) return false;
  }
  if (n.l !== null && bound(n.l, x, bits, out, p)) return false;
  if (bits === T_STRING && ((n.P !== null && !n.P.test(x) && bad(out, p, MS + "pattern")) || (formats && n.f && Object.hasOwn(formats, n.f as string) && !formats[n.f as string](x) && bad(out, p, MS + "format " + n.f)))) return false;
  if (bits === T_ARRAY) {
    if (n.u && !(x.every(isPrim) && new Set(x).size === x.length)) {
      for (i = 1; i < x.length; i++)
        for (t = 0; t < i; t++)
          if (eq(x[i], x[t], d)) {
            if (bad(out, p + "/" + i, MS + "uniqueItems")) return false;
            break;
          }
    }
    const xs = n.x;
    if (xs !== null || n.i !== null) {
      for (i = 0; i < x.length; i++) {
        t = xs !== null && i < xs.length ? xs[i] : n.i;
        if (t !== null && !v(t, x[i], out, out ? p + "/" + i : p, d1) && !out) return false;
      }
    }
  }
  if (bits === T_OBJECT) {
    const kt = n.k, pp = n.q, ap = n.a;
    const each = n.p !== null || pp !== null || ap !== null;
    // When the keys are walked anyway, fast mode counts the required ones it meets instead
    // of probing for each, and probes only if some are missing (the answer is the same).
    if (n.r !== null && (out || !each)) for (const k of n.r) if (!Object.hasOwn(x, k) && bad(out, p + "/" + esc(k), "is required")) return false;
    if (each) {
      let hits = 0;
      for (const k of Object.keys(x)) {
        const q = out ? p + "/" + esc(k) : p;
        const e = kt !== null ? kt.get(k) : undefined;
        let s: Node | null = null;
        if (e !== undefined) {
          if (e.r) hits++;
          s = e.s;
        }
        m = s !== null;
        if (m && !v(s!, x[k], out, q, d1) && !out) return false;
        if (pp !== null) for (const [r, s] of pp) if (r.test(k) && ((m = true), !v(s, x[k], out, q, d1)) && !out) return false;
        if (!m && ap !== null && !v(ap, x[k], out, q, d1) && !out) return false;
      }
      if (!out && hits < n.rn) for (const k of n.r!) if (!Object.hasOwn(x, k)) return false;
    }
  }
  if (n.A !== null) for (const s of n.A) if (!v(s, x, out, p, d1) && !out) return false;
  if (n.Y !== null && !matches(n.Y, x, d1, 1) && bad(out, p, MS + "anyOf")) return false;
  if (n.O !== null && matches(n.O, x, d1, 2) !== 1 && bad(out, p, MS + "oneOf")) return false;
  if (n.n !== null && v(n.n, x, null, p, d1) && bad(out, p, MS + "not")) return false;
  if (n.I !== null && (t = v(n.I, x, null, p, d1) ? n.T : n.E) !== null && !v(t, x, out, p, d1) && !out) return false;
  return out ? out.length === st : true;
}

/**
 * The bound keywords `l` of a node against `x` (of JSON type `bits`): true when the
 * caller should stop (fast mode and a bound fails).
 */
function bound(l: Bound[], x: any, bits: number, out: Issue[] | null, p: string): boolean {
  // Numeric bounds apply to every number, NaN and the infinities included (typeBit gives those no type).
  const kind = typeof x === "number" ? "n" : bits === T_STRING ? "g" : bits === T_ARRAY ? "y" : bits === T_OBJECT ? "o" : "";
  let m = kind === "n" ? x : kind === "y" ? x.length : kind === "o" ? Object.keys(x).length : 0;
  let counted = false;
  for (const [k, op, c, name] of l) {
    if (k !== kind) continue;
    // Code points, not UTF-16 units; counted once, and only for a string bound.
    if (kind === "g" && !counted) {
      counted = true;
      for (const _ of x) m++;
    }
    let t;
    // multipleOf: binary fractions (0.3 / 0.1 = 2.9999999999999996) get a small tolerance.
    if ((op < 1 ? m < c : op < 2 ? m > c : op < 3 ? m <= c : op < 4 ? m >= c : Math.abs((t = m / c) - Math.round(t)) > 1e-9) && bad(out, p, MS + name + " " + c)) return true;
  }
  return false;
}

/**
 * A built-in validator with its own limits and format assertions. See the module comment
 * for the vocabulary, the dialects (2020-12; leniently 2019-09 and draft-07) and the
 * bounds; the schemas given to it must be the application's own, since `pattern` is
 * compiled as a regular expression.
 */
export function createJsonSchemaValidator(options: JsonSchemaOptions = {}): JsonSchemaValidator {
  const { maxDepth = 64, maxSubschemas = 10_000, maxSteps: budget = 100_000, formats: fm } = options;
  return {
    compile(schema) {
      memo = new Map();
      pending = [];
      count = 0;
      limitDepth = maxDepth;
      limitCount = maxSubschemas;
      try {
        if (isObj(schema) && Object.hasOwn(schema, "$schema") && !isSupportedDialect(schema.$schema)) fail("/$schema", "unsupported dialect");
        const root = node(schema, "", 0);
        for (let i = 0; i < pending.length; i++) pending[i][0].R = resolve(schema, pending[i][1], pending[i][2]);
        return {
          ok: true,
          validate(value) {
            // A format function is user code and may itself validate: keep the caller's state.
            const savedSteps = steps, savedOver = over, savedMax = maxSteps, savedFormats = formats;
            steps = 0;
            over = false;
            maxSteps = budget;
            formats = fm;
            try {
              let out: Issue[] | null = null;
              if (!v(root, value, null, "", 0) && !over) {
                steps = 0;
                v(root, value, (out = []), "", 0);
              }
              return over ? [{ path: "", reason: "validation budget exceeded" }] : out;
            } finally {
              steps = savedSteps;
              over = savedOver;
              maxSteps = savedMax;
              formats = savedFormats;
            }
          },
        };
      } catch (e: any) {
        return { ok: false, issues: [typeof e?.path === "string" ? e : { path: "", reason: "invalid schema" }] };
      } finally {
        memo = undefined;
      }
    },
  };
}

/** The built-in validator with the default limits and `format` as annotation only. */
export const builtinJsonSchema: JsonSchemaValidator = /* @__PURE__ */ createJsonSchemaValidator();
