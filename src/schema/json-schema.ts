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
 * only when that fails does it run again to collect the
 * issues with a JSON pointer into the instance, at most {@link MAX_ISSUES} of them and one
 * more saying that the rest were not listed. Resource use is bounded as the spec
 * advises for composition keywords: schema depth and subschema count at compile time, a
 * step budget and a recursion depth per validation, so a `$ref` cycle that never
 * consumes the instance ends with "validation budget exceeded" instead of hanging or
 * overflowing the stack. A step is a node visited or a unit of the work a keyword does
 * on the instance: a key or an item walked or compared, a name of `required` or
 * `dependentRequired` looked up, a pattern test, or a block of 64 characters
 * counted or compared. So the whole validation, whatever the schema and the instance,
 * costs a bounded amount of work, not a step per node times the instance's size.
 *
 * Dialects: 2020-12 (the default when `$schema` is absent), and leniently 2019-09 and
 * draft-07, read with 2020-12 semantics except that an array-valued `items` means
 * `prefixItems` and `additionalItems` then applies to the rest, `dependencies` is
 * `dependentRequired`/`dependentSchemas`, an `$id` with a fragment names an anchor, and
 * (draft-07 only) a schema with `$ref` is only that reference. Any
 * other `$schema` is a compile error "unsupported dialect".
 *
 * References. `$ref` is resolved as a URI against the base its schema is in (RFC 3986):
 * the root's `$id` or, without one, a private base; every embedded `$id` starts a new
 * resource, `$anchor` (and `$dynamicAnchor`, which `$ref` may also name) names a schema
 * within its resource, and a fragment that starts with `/` is a JSON pointer into the
 * resource (percent- and ~0/~1-unescaped). A reference to any URI that is not a resource of
 * this document is a compile error "network $ref not dereferenced": nothing is ever
 * fetched, and the caller does not get a permissive schema ("Schemas that fail to validate
 * due to an unresolved external `$ref` SHOULD be rejected"). `$dynamicRef`/`$recursiveRef`
 * are refused rather than silently ignored.
 *
 * Annotations. `unevaluatedProperties`/`unevaluatedItems` apply to what no adjacent keyword
 * evaluated: the interpreter asks {@link ev} which keys or indices `properties`,
 * `patternProperties`, `additionalProperties`, `prefixItems`, `items`, `contains` (and
 * nested `unevaluated*`) of the node and of its in-place subschemas (`allOf`, `$ref`,
 * `dependentSchemas`, and the `anyOf`/`oneOf`/`if`/`then`/`else` branches the instance
 * passes) evaluated. Annotation-only keywords (`title`, `default`, `content*`, ...) and
 * unknown ones are dropped, which is the 2020-12 rule that they are ignored.
 *
 * Patterns. `pattern` and `patternProperties` are compiled with `new RegExp(source, "u")`;
 * JavaScript's engine backtracks and has no timeout. A schema of the application's own
 * (a server compiling its tool schemas) is trusted. A schema from the peer (a client
 * checking a server's `outputSchema`: {@link peerJsonSchema}, option `untrusted`) may aim a
 * pattern at the validator, so there a pattern whose backtracking can grow exponentially
 * (a backreference, or a repeated group that holds a quantifier or an alternation:
 * `^(a+)+$`) is not asserted in `pattern` (see `re`) and is a compile error "unsafe
 * pattern" in `patternProperties`, and every test of a remaining one is
 * charged its worst case (polynomial: string length to the power of its unbounded
 * quantifiers) against the step budget. `format` is an annotation unless `formats` supplies
 * assertion functions (which are application code, a `regex` format included).
 */
import type { Issue } from "./validate.js";
import { MAX_ISSUES, moreIssues, T_ARRAY, T_BOOLEAN, T_FRACTION, T_INTEGER, T_NULL, T_OBJECT, T_STRING, typeBit } from "./json-type.js";
// Where every module that formats issues has long found them.
export { capIssues, issuesText } from "./json-type.js";

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
  maxDepth?: number | undefined;
  /** Most subschemas one schema may hold (default 10,000). */
  maxSubschemas?: number | undefined;
  /**
   * Most interpreter steps one validation may take (default 100,000): a step per subschema
   * visited and per key, item, `required` name or 64 characters a keyword scans.
   */
  maxSteps?: number | undefined;
  /** `format` name → assertion; formats not listed stay annotations (default: none). */
  formats?: Readonly<Record<string, (value: string) => boolean>> | undefined;
  /**
   * The schemas come from the peer (default false): refuse patterns that can backtrack
   * exponentially and charge each pattern test its worst-case cost (see the module comment).
   */
  untrusted?: boolean | undefined;
}

/** Deepest recursion of one validation; a fixed guard for the stack, not a policy knob. */
const MAX_RECURSION = 1000;

/** Regular-expression backtracking steps charged as one interpreter step (a peer pattern's test). */
const RE_STEP = 1000;

/** Characters counted or compared as one interpreter step, as a power of two: 64. */
const BLOCK = 6;

/** The base URI of a root schema without `$id`: private, so no real URI resolves into it by accident. */
const ROOT = "mcp-kernel:/";

// Each understood keyword as "<kind><slot><name>". The kind says what the value must be
// and how it is kept: n/g/y/o a bound on a number, a string's code points, an array's
// length or an object's key count, whose slot is the comparison that fails it (0 <, 1 >,
// 2 <=, 3 >=, 4 not a multiple); B, S, C kept as given (uniqueItems is read as a truth
// value, format only as a key); R string array, T type, E array, s schema, a non-empty
// schema array, m schema map, i items (a schema, or a schema array meaning prefixItems),
// r $ref, p pattern, q patternProperties, x refused, k a count (minContains, maxContains),
// Q dependentRequired, G draft-07 dependencies, # a URI or a name ($id, $anchor).
// Otherwise the slot is the one-letter field of Schema that keeps the value; the short
// names save bytes.
// Built by a pure call so that a bundle importing only isSupportedDialect drops it.
const KW: Record<string, string> = /* @__PURE__ */ (() => {
  const kw: Record<string, string> = Object.create(null);
  for (const e of (
    "n0minimum n1maximum n2exclusiveMinimum n3exclusiveMaximum n4multipleOf g0minLength g1maxLength y0minItems y1maxItems " +
    "o0minProperties o1maxProperties BuuniqueItems Sfformat Rrrequired Tttype Eeenum Ccconst saadditionalProperties " +
    "szadditionalItems snnot sIif sTthen sEelse aAallOf aYanyOf aOoneOf axprefixItems mpproperties md$defs mddefinitions " +
    "iiitems rR$ref pPpattern qqpatternProperties x-$dynamicRef x-$recursiveRef sCcontains khminContains kjmaxContains " +
    "sNpropertyNames sUunevaluatedProperties sWunevaluatedItems mDdependentSchemas QQdependentRequired G-dependencies " +
    "#-$id #-$anchor #-$dynamicAnchor"
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

/**
 * A compiled pattern and the shape of its worst case (see {@link shape}): its unbounded
 * quantifiers, the product of its other choices (0: trusted, never charged), and whether
 * it is anchored at the start (1) or tried at every position (0).
 */
type Pat = [re: RegExp, degree: number, choices: number, anchored: number];

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
  P: Pat | null = null;
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
  q: [Pat, Node][] | null = null;
  a: Node | null = null;
  A: Node[] | null = null;
  Y: Node[] | null = null;
  O: Node[] | null = null;
  n: Node | null = null;
  I: Node | null = null;
  T: Node | null = null;
  E: Node | null = null;
  C: Node | null = null;
  /** minContains, maxContains. */
  h = 1;
  j = Infinity;
  N: Node | null = null;
  U: Node | null = null;
  W: Node | null = null;
  D: Map<string, Node> | null = null;
  Q: Map<string, string[]> | null = null;
  /** Whether any of the slots {@link more} reads is set. */
  g = false;
}


/** The type bits each name in TYPES accepts: "number" takes integers too. */
const TYPE_BITS = [T_STRING, T_FRACTION | T_INTEGER, T_INTEGER, T_BOOLEAN, T_OBJECT, T_ARRAY, T_NULL];

const isObj = (x: unknown): x is Record<string, any> => typeof x === "object" && x !== null && !Array.isArray(x);
const isStr = (x: unknown): x is string => typeof x === "string";
const isPrim = (x: unknown) => x === null || typeof x !== "object";
const isType = (t: unknown) => TYPES.includes(t as string);
const isStrs = (x: unknown): x is string[] => Array.isArray(x) && x.every(isStr);
const esc = (k: string | number) => String(k).replace(/~/g, "~0").replace(/\//g, "~1");
const fail = (path: string, reason: string): never => {
  throw { path, reason };
};

// Compile state: compile is synchronous and calls no user code, so one set suffices.
let memo: Map<object, Schema> | undefined;
/** `$ref`s to resolve once the walk is done: [node, absolute URI, schema path]. */
let pending: [Record<string, any>, string, string][];
/** Absolute URI of each resource (`$id`) and anchor → [its schema, its base URI]. */
let ids: Map<string, [Record<string, any>, string]>;
let peer: boolean;
let draft7: boolean;
let count: number;
let limitDepth: number;
let limitCount: number;

/** `ref` resolved against base URI `b` (RFC 3986); a URI that cannot be parsed is a compile error at `p`. */
function uri(ref: string, b: string, p: string): string {
  try {
    return new URL(ref, b).href;
  } catch {
    return fail(p, "invalid URI");
  }
}

/** Compiles schema `s` at schema path `p`, depth `d`, inside a resource whose base URI is `pb`. */
function node(s: unknown, p: string, d: number, pb: string): Node {
  if (typeof s === "boolean") return s;
  if (!isObj(s)) return fail(p, "invalid schema");
  const known = memo!.get(s);
  if (known) return known;
  if (d > limitDepth || ++count > limitCount) fail(p, "schema too large");
  const schema = new Schema();
  memo!.set(s, schema);
  // `$id` first: it sets the base that this schema's `$ref`s and anchors resolve against.
  let b = pb;
  // draft-07: "All other properties in a "$ref" object MUST be ignored."
  const refOnly = draft7 && Object.hasOwn(s, "$ref");
  if (!refOnly && Object.hasOwn(s, "$id") && isStr(s.$id)) {
    const u = uri(s.$id, pb, p + "/$id");
    const h = u.indexOf("#");
    // A fragment-only `$id` ("#x", draft-07) names an anchor without starting a resource.
    if (s.$id[0] !== "#") ids.set((b = h < 0 ? u : u.slice(0, h)), [s, b]);
    if (h >= 0 && h < u.length - 1) ids.set(b + u.slice(h), [s, b]);
  }
  // Slots are written by the names KW gives them, all declared on Schema.
  const n = schema as unknown as Record<string, any>;
  let tuple = false;
  for (const k of Object.keys(s)) {
    if (!KW[k]) continue; // unknown keyword: ignored, as 2020-12 says
    const [c, o] = KW[k];
    if (refOnly && k !== "$ref" && o !== "d") continue; // definitions still hold the targets of references
    const bound = "ngyo".includes(c);
    const v: any = s[k];
    const q = p + "/" + esc(k);
    const sub = (x: unknown, j: string | number) => node(x, q + "/" + esc(j), d + 1, b);
    if (
      c === "x" ||
      !(bound ? typeof v === "number" && isFinite(v) && (o !== "4" || v > 0)
        : c === "r" || c === "p" || c === "#" ? isStr(v)
        : c === "R" ? isStrs(v)
        : c === "T" ? (Array.isArray(v) && v.length ? v : [v]).every(isType)
        : c === "E" ? Array.isArray(v)
        : c === "a" ? Array.isArray(v) && v.length > 0
        : c === "m" || c === "q" || c === "G" ? isObj(v)
        : c === "Q" ? isObj(v) && Object.values(v).every(isStrs)
        : c === "k" ? Number.isInteger(v) && v >= 0
        : true)
    )
      fail(q, (c === "x" ? "unsupported " : "invalid ") + k);
    if (bound) (n.l ||= []).push([c, +o, v, k]);
    else if (c === "T") {
      n.t = Array.isArray(v) ? v : [v];
      n.m = 0;
      for (const name of n.t) n.m |= TYPE_BITS[TYPES.indexOf(name)];
    }
    else if (c === "s" || (c === "i" && !Array.isArray(v))) n[o] = node(v, q, d + 1, b);
    else if (c === "a" || c === "i") n[c === "i" ? ((tuple = true), "x") : o] = v.map(sub);
    else if (c === "m") {
      const m: Map<string, Node> = (n[o] ||= new Map());
      for (const j of Object.keys(v)) m.set(j, sub(v[j], j));
    } else if (c === "q") n[o] = Object.keys(v).map((j) => [re(j, q, false), sub(v[j], j)]);
    else if (c === "p") n[o] = re(v, q, true);
    else if (c === "r") pending.push([n, uri(v, b, q), q]);
    else if (c === "#") {
      if (k !== "$id") ids.set(b + "#" + v, [s, b]);
    } else if (c === "Q" || c === "G") {
      // draft-07 `dependencies`: a string array is dependentRequired, else a dependentSchema.
      for (const j of Object.keys(v))
        if (c === "Q" || isStrs(v[j])) (n.Q ||= new Map()).set(j, v[j]);
        else (n.D ||= new Map()).set(j, sub(v[j], j));
    } else n[o] = v;
  }
  // Draft-07/2019-09 tuple form: `items: [...]` became prefixItems; the rest is additionalItems.
  if (tuple) n.i = n.z;
  if (schema.p !== null || schema.r !== null) keyTable(schema);
  schema.g = schema.C !== null || schema.N !== null || schema.Q !== null || schema.D !== null || schema.U !== null || schema.W !== null;
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

/**
 * Compiles pattern `src` (at schema pointer `p`). A peer's pattern that could backtrack
 * exponentially is refused where it selects keys (`patternProperties`: without it the
 * schema would mean something else), and not asserted where it only constrains a string
 * (`pattern`, `assertOnly`): the peer that wrote the schema also writes the value, so an
 * unchecked pattern gives it nothing it could not have by leaving the pattern out, while
 * refusing it would reject every result of a tool whose schema has a common, safe-in-
 * practice pattern the shape check cannot tell from `^(a+)+$` (`^[a-z]+(\.[a-z]+)*$`).
 */
function re(src: string, p: string, assertOnly: boolean): Pat {
  let r: RegExp;
  try {
    r = new RegExp(src, "u");
  } catch {
    return fail(p, "invalid pattern");
  }
  if (!peer) return [r, 0, 0, 0];
  const sh = shape(src);
  if (sh) return [r, ...sh];
  return assertOnly ? UNASSERTED : fail(p, "unsafe pattern");
}

/** A pattern that is not asserted: matches every string, never charged. */
const UNASSERTED: Pat = [/(?:)/u, 0, 0, 0];

/**
 * The worst-case shape of a valid `u`-mode pattern's backtracking, or null when it can grow
 * exponentially with the string: a backreference, or a group repeated more than once that
 * holds a quantifier or an alternation (star height above 1, the ReDoS classic `(a+)+`).
 * Otherwise: [how many unbounded quantifiers (each can take any share of the string, so
 * the cost is polynomial in its length with that degree), the product of the choices of
 * the bounded quantifiers and alternations, 1 if anchored at the start]. A small reader,
 * not a parser: it only needs to know atoms, groups, classes, escapes and quantifiers.
 */
function shape(src: string): [number, number, number] | null {
  let k = 0;
  let c = 1;
  // Per open group: [holds a quantifier or `|`, its branch count]; `last` is the group that just closed.
  const open: [boolean, number][] = [];
  let g: [boolean, number] = [false, 1];
  let last: [boolean, number] | null = null;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    let closed: [boolean, number] | null = null;
    if (ch === "\\") {
      const e = src[++i];
      if (/[1-9k]/.test(e)) return null;
      if ("pPu".includes(e) && src[i + 1] === "{") i = src.indexOf("}", i);
    } else if (ch === "[") {
      for (i++; src[i] !== "]"; i++) if (src[i] === "\\") i++;
    } else if (ch === "(") {
      // Skip the group's kind, so its `?` is not read as a quantifier: (?: (?= (?! (?<= (?<! (?<name>
      if (src[i + 1] === "?") {
        i += 2;
        if (src[i] === "<") i = "=!".includes(src[i + 1]) ? i + 1 : src.indexOf(">", i);
      }
      open.push(g);
      g = [false, 1];
    } else if (ch === ")") {
      c *= g[1];
      closed = g;
      g = open.pop()!;
      g[0] ||= closed[0];
    } else if (ch === "|") {
      g[0] = true;
      g[1]++;
    } else if ("*+?{".includes(ch)) {
      let lo = +(ch === "+");
      let hi = ch === "?" ? 1 : Infinity;
      if (ch === "{") {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i))!;
        lo = +m[1];
        hi = m[2] === undefined ? lo : m[3] ? +m[3] : Infinity;
        i += m[0].length - 1;
      }
      if (src[i + 1] === "?") i++; // lazy: the same choices in another order
      if (hi > 1 && last?.[0]) return null;
      if (hi === Infinity) k++;
      else c *= hi - lo + 1;
      g[0] ||= hi > lo; // an exact count ({3}) leaves no choice
    }
    last = closed;
  }
  return [k, c * g[1], +(src[0] === "^" && g[1] === 1)];
}

/** Resolves an absolute `$ref` URI to a resource or anchor of this document, then compiles it. */
function resolve(ref: string, p: string): Node {
  const h = ref.indexOf("#");
  const base = h < 0 ? ref : ref.slice(0, h);
  let f = "!";
  try {
    f = decodeURIComponent(h < 0 ? "" : ref.slice(h + 1));
  } catch {}
  const anchor = f !== "" && f[0] !== "/";
  const at = ids.get(anchor ? base + "#" + f : base);
  if (at === undefined) fail(p, ids.has(base) ? "unresolved $ref" : "network $ref not dereferenced");
  // A JSON pointer from the resource; an embedded `$id` on the way changes the base.
  let [t, b] = at!;
  let pb = b;
  if (!anchor)
    for (const seg of f.split("/").slice(1)) {
      const k = seg.replace(/~1/g, "/").replace(/~0/g, "~");
      if (isPrim(t) || !Object.hasOwn(t, k)) fail(p, "unresolved $ref");
      t = t[k];
      pb = b;
      if (isObj(t) && isStr(t.$id) && t.$id[0] !== "#") b = uri(t.$id, b, p);
    }
  return node(t, f, 0, pb);
}

// Validation state: validate is synchronous; a re-entrant call (from a format function)
// saves and restores it.
let steps: number;
/**
 * The validation is over: the budget is spent, or (collecting) the issue list is full, in
 * which case `maxSteps` is set to -1 so that every further step fails at once.
 */
let over: boolean;
let maxSteps: number;
let formats: JsonSchemaOptions["formats"];

const MS = "must satisfy ";

/** Charges `k` steps of work on the instance; true when that spends the budget. */
function cost(k: number): boolean {
  return (steps += k) > maxSteps && (over = true);
}

/**
 * Records an issue when collecting; returns true when the caller should stop: fast mode,
 * or the validation is over. An issue found once it is over is not recorded (a subschema
 * cut short by the budget may seem to fail), and one past MAX_ISSUES ends it.
 */
function bad(out: Issue[] | null, path: string, reason: string): boolean {
  if (out === null || over) return true;
  if (out.length < MAX_ISSUES) {
    out.push({ path, reason });
    return false;
  }
  maxSteps = -1;
  return (over = true);
}

/** JSON equality: own keys only; an array never equals an object. */
function eq(a: any, b: any, d: number): boolean {
  // Strings of the same length are compared character by character.
  if (typeof a === "string") return !cost(typeof b === "string" && a.length === b.length ? 1 + (a.length >> BLOCK) : 1) && a === b;
  if (a === b) return true;
  if (++steps > maxSteps || d > MAX_RECURSION) return !(over = true);
  if (isPrim(a) || isPrim(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  if (cost(ka.length + kb.length) || ka.length !== kb.length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !eq(a[k], b[k], d + 1)) return false;
  return true;
}

/**
 * Tests string `s` against pattern `t`. A peer's pattern is first charged its worst case:
 * (positions tried) × (length + 1)^degree × choices backtracking steps, RE_STEP to a step
 * of the budget, so a string too long for the pattern's shape ends the validation with
 * "validation budget exceeded" instead of blocking the thread. A trusted one is charged
 * a step and the string's length, the least any test costs.
 */
function rx(t: Pat, s: string): boolean {
  const n = s.length + 1;
  return !cost(t[2] ? Math.ceil(((t[3] ? 1 : n) * n ** t[1] * t[2]) / RE_STEP) : 1 + (s.length >> BLOCK)) && t[0].test(s);
}

/** How many schemas of `ss` accept `x` (fast mode), counting no further than `most`. */
function matches(ss: Node[], x: unknown, d: number, most: number): number {
  let m = 0;
  for (const s of ss) if (v(s, x, null, "", d) && ++m === most) break;
  return m;
}

/**
 * Validates `x` against node `n`. Fast mode (`out` null): returns at the first failure
 * and builds no path. Collecting mode: records every issue in `out` and goes on until the
 * validation is over; the result is whether `out` stayed as it was. `stop(out)` after a
 * failed subschema: whether to return at once.
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
  if (n.R !== null && !v(n.R, x, out, p, d1) && stop(out)) return false;
  if (n.t !== null && !(n.m & bits) && bad(out, p, MS + "type " + n.t)) return false;
  if (n.c !== NONE && !eq(x, n.c, d) && bad(out, p, MS + "const")) return false;
  if ((m = n.e) !== null) {
    for (i = 0; i < m.length && !eq(x, m[i], d); i++);
    if (i === m.length && bad(out, p, MS + "enum")) return false;
  }
  if (n.l !== null && bound(n.l, x, bits, out, p)) return false;
  if (bits === T_STRING && ((n.P !== null && !rx(n.P, x) && bad(out, p, MS + "pattern")) || (formats && n.f && Object.hasOwn(formats, n.f as string) && !formats[n.f as string](x) && bad(out, p, MS + "format " + n.f)))) return false;
  if (bits === T_ARRAY) {
    // A step per item for the pass over primitives; each pairwise comparison is charged by eq.
    if (n.u && (cost(x.length) || !(x.every(isPrim) && new Set(x).size === x.length))) {
      for (i = 1; i < x.length && !over; i++)
        for (t = 0; t < i && !over; t++)
          if (eq(x[i], x[t], d)) {
            if (bad(out, p + "/" + i, MS + "uniqueItems")) return false;
            break;
          }
      if (over) return false;
    }
    const xs = n.x, it = n.i;
    if (xs !== null || it !== null) {
      // Only the items a schema applies to: `prefixItems` alone leaves the rest unvisited.
      const end = it !== null ? x.length : Math.min(x.length, xs!.length);
      for (i = 0; i < end; i++) if (!v(xs !== null && i < xs.length ? xs[i] : it!, x[i], out, out ? p + "/" + i : p, d1) && stop(out)) return false;
    }
  }
  if (bits === T_OBJECT) {
    const kt = n.k, pp = n.q, ap = n.a;
    const each = n.p !== null || pp !== null || ap !== null;
    // When the keys are walked anyway, fast mode counts the required ones it meets instead
    // of probing for each, and probes only if some are missing (the answer is the same).
    if (n.r !== null && (out || !each)) {
      if (cost(n.r.length)) return false;
      for (const k of n.r) if (!Object.hasOwn(x, k) && bad(out, p + "/" + esc(k), "is required")) return false;
    }
    if (each) {
      let hits = 0;
      const keys = Object.keys(x);
      if (cost(keys.length)) return false;
      for (const k of keys) {
        const q = out ? p + "/" + esc(k) : p;
        const e = kt !== null ? kt.get(k) : undefined;
        let s: Node | null = null;
        if (e !== undefined) {
          if (e.r) hits++;
          s = e.s;
        }
        m = s !== null;
        if (m && !v(s!, x[k], out, q, d1) && stop(out)) return false;
        if (pp !== null)
          for (const [r, s] of pp) {
            if (rx(r, k)) {
              m = true;
              if (!v(s, x[k], out, q, d1) && stop(out)) return false;
            } else if (over) return false;
          }
        if (!m && ap !== null && !v(ap, x[k], out, q, d1) && stop(out)) return false;
      }
      if (!out && hits < n.rn) {
        if (cost(n.r!.length)) return false;
        for (const k of n.r!) if (!Object.hasOwn(x, k)) return false;
      }
    }
  }
  if (n.A !== null) for (const s of n.A) if (!v(s, x, out, p, d1) && stop(out)) return false;
  if (n.Y !== null && !matches(n.Y, x, d1, 1) && bad(out, p, MS + "anyOf")) return false;
  if (n.O !== null && matches(n.O, x, d1, 2) !== 1 && bad(out, p, MS + "oneOf")) return false;
  if (n.n !== null && v(n.n, x, null, p, d1) && bad(out, p, MS + "not")) return false;
  if (n.I !== null && (t = v(n.I, x, null, p, d1) ? n.T : n.E) !== null && !v(t, x, out, p, d1) && stop(out)) return false;
  if (n.g && more(n, x, bits, out, p, d1)) return false;
  return out ? out.length === st : true;
}

/** After a failed subschema: whether to stop (fast mode, or the validation is over). */
function stop(out: Issue[] | null): boolean {
  return out === null || over;
}

/**
 * The keywords that schemas seldom use, kept out of {@link v} so that its common path
 * stays short: `contains`, `propertyNames`, `dependentRequired`, `dependentSchemas`, and
 * last, as they depend on what all the others evaluated, `unevaluated*`. True when the
 * caller should stop (fast mode and a keyword fails, or the validation is over).
 */
function more(n: Schema, x: any, bits: number, out: Issue[] | null, p: string, d1: number): boolean {
  let t = 0;
  if (bits === T_ARRAY && n.C !== null) {
    for (const y of x) if (v(n.C, y, null, p, d1)) t++;
    if ((t < n.h || t > n.j) && bad(out, p, MS + "contains")) return true;
  }
  if (bits === T_OBJECT) {
    if (n.N !== null) for (const k of Object.keys(x)) if (!v(n.N, k, null, p, d1) && bad(out, p + "/" + esc(k), MS + "propertyNames")) return true;
    if (n.Q !== null) {
      if (cost(n.Q.size)) return true;
      for (const [k, r] of n.Q)
        if (Object.hasOwn(x, k)) {
          if (cost(r.length)) return true;
          for (const j of r) if (!Object.hasOwn(x, j) && bad(out, p + "/" + esc(j), "is required")) return true;
        }
    }
    if (n.D !== null) {
      if (cost(n.D.size)) return true;
      for (const [k, s] of n.D) if (Object.hasOwn(x, k) && !v(s, x, out, p, d1) && stop(out)) return true;
    }
  }
  const un = bits === T_OBJECT ? n.U : bits === T_ARRAY ? n.W : null;
  if (un !== null) {
    const seen = new Set<unknown>();
    const keys: (string | number)[] = bits === T_OBJECT ? Object.keys(x) : [...x.keys()];
    if (cost(keys.length)) return true;
    if (!ev(n, x, bits, d1, seen, true))
      for (const k of keys) if (!seen.has(k) && !v(un, x[k], out, out ? p + "/" + esc(k) : p, d1) && stop(out)) return true;
  }
  return false;
}

/**
 * Adds to `seen` the keys (object `x`) or indices (array `x`) that node `n` and its
 * in-place subschemas evaluate, their annotations in 2020-12's terms; true when that is
 * all of them. Subschemas that must all pass (`allOf`, `$ref`, `dependentSchemas`) are not
 * re-validated (if one fails, so does `n`); a branch is counted only if `x` passes it.
 * `self`: `n` is the node whose `unevaluated*` asks, which is not counted.
 */
function ev(n: Node, x: any, bits: number, d: number, seen: Set<unknown>, self: boolean): boolean {
  if (typeof n === "boolean") return false;
  if (++steps > maxSteps || d > MAX_RECURSION) return (over = true);
  const d1 = d + 1;
  const sub = (s: Node | null) => s !== null && ev(s, x, bits, d1, seen, false);
  const pass = (s: Node) => v(s, x, null, "", d1) && sub(s);
  if (bits === T_OBJECT) {
    if (n.a !== null || (!self && n.U !== null)) return true;
    const keys = Object.keys(x);
    if (cost(keys.length + (n.D?.size ?? 0))) return true;
    for (const k of keys) {
      if (n.p?.has(k) || n.q?.some(([r]) => rx(r, k))) seen.add(k);
      else if (over) return true;
    }
    if (n.D !== null) for (const [k, s] of n.D) if (Object.hasOwn(x, k) && sub(s)) return true;
  } else {
    if (n.i !== null || (!self && n.W !== null)) return true;
    if (cost(x.length)) return true;
    for (let i = 0; i < x.length; i++) if ((n.x !== null && i < n.x.length) || (n.C !== null && v(n.C, x[i], null, "", d1))) seen.add(i);
  }
  if (sub(n.R) || n.A?.some(sub) || n.Y?.some(pass) || n.O?.some(pass)) return true;
  if (n.I === null) return false;
  return pass(n.I) || sub(v(n.I, x, null, "", d1) ? n.T : n.E);
}

/**
 * The bound keywords `l` of a node against `x` (of JSON type `bits`): true when the
 * caller should stop (fast mode and a bound fails, or the validation is over).
 */
function bound(l: Bound[], x: any, bits: number, out: Issue[] | null, p: string): boolean {
  // Numeric bounds apply to every number, NaN and the infinities included (typeBit gives those no type).
  const kind = typeof x === "number" ? "n" : bits === T_STRING ? "g" : bits === T_ARRAY ? "y" : bits === T_OBJECT ? "o" : "";
  let m = kind === "n" ? x : kind === "y" ? x.length : kind === "o" ? Object.keys(x).length : 0;
  if (kind === "o" && cost(m)) return true;
  let counted = false;
  for (const [k, op, c, name] of l) {
    if (k !== kind) continue;
    // Code points, not UTF-16 units; counted once, and only for a string bound.
    if (kind === "g" && !counted) {
      if (cost(x.length >> BLOCK)) return true;
      counted = true;
      for (const _ of x) m++;
    }
    if ((op < 1 ? m < c : op < 2 ? m > c : op < 3 ? m <= c : op < 4 ? m >= c : !multipleOf(m, c)) && bad(out, p, MS + name + " " + c)) return true;
  }
  return false;
}

/**
 * Whether `x` is a multiple of `c` (> 0): 2020-12 validation §6.2.1, "division by the
 * value results in an integer". `%` on doubles is exact: a zero remainder is a multiple,
 * and for a `c` that is a safe integer or of few binary digits (0.5, 2^60: {@link fewBits})
 * a non-zero one is not (500000000000000.25 of 0.5). A decimal fraction such as
 * 0.1, or an integer past 2^53 such as 1e300, is no exact double (0.3 / 0.1 =
 * 2.9999999999999996; 9e300 % 1e300 is not 0), so its quotient may miss the
 * integer by the rounding of the two numbers and of the division, a few units in its
 * last place: the tolerance is relative to the quotient. An absolute one (1e-9) let every
 * |x| <= 1e-9 * c pass (1 against multipleOf 1e9). A quotient that overflows (1e308 /
 * 0.123) or a non-finite `x` is no multiple.
 */
function multipleOf(x: number, c: number): boolean {
  if (x % c === 0) return true;
  if (Number.isSafeInteger(c) || fewBits(c)) return false;
  const q = x / c;
  return Math.abs(q - Math.round(q)) <= 4 * Number.EPSILON * Math.abs(q);
}

/** Whether the double `c` (> 0) has at most 31 significant bits (0.5, 3 * 2^60): then it is what its decimal says, and `%` by it is the verdict. */
function fewBits(c: number): boolean {
  // 2^-1074 at least: below it the power is 0 (a subnormal `c` is a whole number of 2^-1074 units, exact).
  return Number.isSafeInteger(c / 2 ** Math.max(Math.floor(Math.log2(c)) - 30, -1074));
}

/**
 * The options as given, or none (all defaults) when they are no object or a getter (or
 * Proxy trap) of theirs throws: the kernel never throws across its boundary (README).
 */
function readableOptions(options: unknown): JsonSchemaOptions {
  if (typeof options !== "object" || options === null) return {};
  try {
    const { maxDepth, maxSubschemas, maxSteps, formats, untrusted } = options as JsonSchemaOptions;
    return { maxDepth, maxSubschemas, maxSteps, formats, untrusted };
  } catch {
    return {};
  }
}

/**
 * A built-in validator with its own limits and format assertions. See the module comment
 * for the vocabulary, the dialects (2020-12; leniently 2019-09 and draft-07) and the
 * bounds. Give it `untrusted: true` for schemas from the peer, whose patterns are then
 * checked and charged (see "Patterns" in the module comment).
 */
export function createJsonSchemaValidator(options: JsonSchemaOptions = {}): JsonSchemaValidator {
  const { maxDepth = 64, maxSubschemas = 10_000, maxSteps: budget = 100_000, formats: fm, untrusted = false } = readableOptions(options);
  return {
    compile(schema) {
      memo = new Map();
      pending = [];
      ids = new Map([[ROOT, [schema as Record<string, any>, ROOT]]]);
      peer = untrusted;
      count = 0;
      limitDepth = maxDepth;
      limitCount = maxSubschemas;
      try {
        if (isObj(schema) && Object.hasOwn(schema, "$schema") && !isSupportedDialect(schema.$schema)) fail("/$schema", "unsupported dialect");
        draft7 = isObj(schema) && isStr(schema.$schema) && schema.$schema.includes("draft-07");
        const root = node(schema, "", 0, ROOT);
        for (let i = 0; i < pending.length; i++) pending[i][0].R = resolve(pending[i][1], pending[i][2]);
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
              if (v(root, value, null, "", 0) && !over) return null;
              if (over) return [{ path: "", reason: "validation budget exceeded" }];
              // Invalid: again, collecting. Issues found before it is over are real ones.
              steps = 0;
              const out: Issue[] = [];
              v(root, value, out, "", 0);
              if (over) out.push(maxSteps < 0 ? moreIssues() : { path: "", reason: "validation budget exceeded" });
              return out;
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
        // Keep no reference to the schema given (the compiled nodes hold what they need).
        memo = undefined;
        ids.clear();
      }
    },
  };
}

/** The built-in validator with the default limits and `format` as annotation only, for the application's own schemas. */
export const builtinJsonSchema: JsonSchemaValidator = /* @__PURE__ */ createJsonSchemaValidator();

/** The built-in validator for schemas from the peer (`untrusted`: see the module comment); McpClient's default. */
export const peerJsonSchema: JsonSchemaValidator = /* @__PURE__ */ createJsonSchemaValidator({ untrusted: true });
