/**
 * Validators for every type of every MCP schema version.
 *
 * Spec: `schema.json` of 2025-03-26, 2025-06-18, 2025-11-25 and 2026-07-28 (2024-11-05 is
 * checked with 2025-03-26's, see `schemaVersionOf`). Draft `basic/index` ("Schema"):
 * schema.ts "is the source of truth for all protocol messages and structures"; the JSON
 * Schema "is automatically generated from the TypeScript source of truth". The two places
 * where the generated JSON Schema is narrower than schema.ts are widened by the generator
 * (its ERRATA), everything else is checked as schema.json states it.
 *
 * Theory of operation. `scripts/gen-validators.mjs` compiles the four JSON Schemas into
 * one table of small array-encoded nodes (identical definitions of different versions
 * share nodes; one JSON line each, parsed when first needed: lines.ts), and this module
 * interprets it. The table comes in two parts: the nodes
 * the method tables validate (params and results, `generated/nodes.ts`), which this
 * module's own lookups use, and the rest (`generated/full.ts`), which types.ts appends
 * for the schema entry point, so the kernel alone does not carry the message envelopes
 * and unions. Each node is decoded into a `Node` object of one shape, so the
 * interpreter's reads stay monomorphic, when a value first reaches it: checking an
 * initialize result decodes the capabilities it holds, not the ones it could. `check(node, x)`
 * returns `null` when `x` is valid and otherwise a fresh array of issues whose paths are
 * relative to `x`; each object or array level prefixes its key on the way out, so a
 * JSON pointer is only ever built for a failure and the success path allocates nothing.
 *
 * Unions (`anyOf`) are dispatched without trial and error where the schema allows it:
 * by JSON type, then by a property every object alternative pins to distinct constants
 * (`type`, `method`, `mode`), so a bad content block is reported inside the one
 * alternative it claims to be. Only unions that cannot be told apart are tried in turn,
 * in a quiet mode (a module-level counter) in which failures return a shared sentinel
 * instead of allocating; if all fail, the closest alternatives are re-run to explain why.
 *
 * Semantics kept from JSON Schema: objects are open (MCP is forward compatible; no MCP
 * schema says `additionalProperties: false`), absent keys are only issues when
 * required, and keys are read as own properties only, so `__proto__` or `constructor`
 * in data is just data, and a polluted Object.prototype supplies no member. Bounds: at most {@link MAX_ISSUES} issues per
 * call, and values nested deeper than {@link MAX_DEPTH} containers (including cycles,
 * which a parsed JSON value cannot have but a value built in code can) end with an
 * issue instead of a stack overflow. A validator never throws.
 */
import type { ProtocolVersion, SchemaVersion } from "../model/versions.js";
import { schemaVersionOf } from "../model/versions.js";
import { NODES, TYPE_NAMES } from "./generated/nodes.js";
import { lineAt, lineStarts } from "./lines.js";
import { MAX_ISSUES, T_ARRAY, T_BOOLEAN, T_FRACTION, T_INTEGER, T_NULL, T_OBJECT, T_STRING, typeBit } from "./json-type.js";
import { TYPES as TYPES_2025_03_26 } from "./generated/2025-03-26.js";
import { TYPES as TYPES_2025_06_18 } from "./generated/2025-06-18.js";
import { TYPES as TYPES_2025_11_25 } from "./generated/2025-11-25.js";
import { TYPES as TYPES_2026_07_28 } from "./generated/2026-07-28.js";

/** One validation failure: where (RFC 6901 JSON pointer, "" for the root) and why. */
export interface Issue {
  path: string;
  reason: string;
}

/** A compiled validator: `null` when valid, else the issues found (at least one). */
export type Validator = (value: unknown) => Issue[] | null;

/** The typed value, or the issues. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** Most issues one validation reports; the rest are dropped. */
export { MAX_ISSUES };

/** Deepest nesting of objects and arrays a validator descends into. */
export const MAX_DEPTH = 256;

// Node kinds, as written by scripts/gen-validators.mjs (the JSON type bits are json-type.ts's).
const ANY = 0, TYPE = 1, NUM = 2, FMT = 3, CONST = 4, ENUM = 5, OBJ = 6, ARR = 7, UNION = 8, ALL = 9;
/** Not decoded yet (`Node.src` holds the generated node): decoded by the first check that reaches it. */
const PENDING = -1;
const AP_OPEN = -1;
const FMT_BYTE = 1;

// `byte`: standard or URL-safe base64 alphabet with optional padding. Length is not
// checked: some peers strip padding, and rejecting valid data is worse than a typo.
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
// `uri`: an absolute URI starts with a scheme (RFC 3986 section 3.1); nothing else is checked.
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Returned in quiet mode instead of allocating; never escapes this module. */
const FAIL: Issue[] = [];
/** > 0 while trying union alternatives: failures are only counted, not described. */
let quiet = 0;
/** Containers entered so far on the current path. */
let depth = 0;
/** > 0 while an object is checked member by member after its fast pass failed (see {@link checkObject}): no fast passes below it. */
let exact = 0;


/** "string or integer" for a type mask. */
function typeNamesOf(mask: number): string {
  const out: string[] = [];
  if (mask & T_STRING) out.push("string");
  if ((mask & (T_FRACTION | T_INTEGER)) === (T_FRACTION | T_INTEGER)) out.push("number");
  else if (mask & T_INTEGER) out.push("integer");
  if (mask & T_BOOLEAN) out.push("boolean");
  if (mask & T_NULL) out.push("null");
  if (mask & T_OBJECT) out.push("object");
  if (mask & T_ARRAY) out.push("array");
  return out.join(" or ");
}

// Failure kinds. The reason text is built only when someone will read it, so a union
// trying alternatives quietly pays nothing for the ones that fail.
const E_TYPE = 0, E_MIN = 1, E_MAX = 2, E_BYTE = 3, E_URI = 4, E_CONST = 5, E_ENUM = 6, E_DEPTH = 7, E_ITEMS = 8, E_MISSING = 9, E_JSON = 10;

/** A failure at the current value: the quiet sentinel, or a fresh one-issue list. */
function fail(kind: number, arg?: unknown): Issue[] {
  return quiet ? FAIL : [{ path: "", reason: reasonOf(kind, arg) }];
}

/** The human-readable reason of a failure kind. */
function reasonOf(kind: number, arg: unknown): string {
  switch (kind) {
    case E_TYPE:
      return `expected ${typeNamesOf(arg as number)}`;
    case E_MIN:
      return `must be >= ${arg}`;
    case E_MAX:
      return `must be <= ${arg}`;
    case E_BYTE:
      return "expected base64 data";
    case E_URI:
      return "expected a URI with a scheme";
    case E_CONST:
      return `expected ${JSON.stringify(arg)}`;
    case E_ENUM:
      return `expected one of ${(arg as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case E_DEPTH:
      return `nested deeper than ${MAX_DEPTH} levels`;
    case E_ITEMS:
      return `expected at most ${arg} items`;
    case E_JSON:
      return "expected a JSON value";
    default:
      return `missing required property ${JSON.stringify(arg)}`;
  }
}

/** A key as a JSON Pointer segment (RFC 6901: `~` is written `~0` and `/` is written `~1`). */
export function escapeSegment(key: string): string {
  return key.indexOf("~") < 0 && key.indexOf("/") < 0 ? key : key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Prefixes `segment` to the paths of `found` and appends them to `acc` (capped). */
function merge(acc: Issue[] | null, found: Issue[], segment: string): Issue[] {
  const prefix = "/" + escapeSegment(segment);
  for (let i = 0; i < found.length; i++) found[i].path = prefix + found[i].path;
  if (acc === null) return found; // a child's list: already capped
  for (let i = 0; i < found.length && acc.length < MAX_ISSUES; i++) acc.push(found[i]);
  return acc;
}

/** Appends plain issues (already relative to the current value) to `acc`, capped. */
function concat(acc: Issue[] | null, found: Issue[]): Issue[] {
  if (acc === null) return found; // a child's list: already capped
  for (let i = 0; i < found.length && acc.length < MAX_ISSUES; i++) acc.push(found[i]);
  return acc;
}

/**
 * A linked node: a generated node (see generated/nodes.ts) decoded into one shape shared
 * by every kind, every field present, and every reference replaced by the node. One
 * hidden class keeps the interpreter's field reads monomorphic; the generated arrays
 * mix element kinds and lengths, which made each read polymorphic.
 */
class Node {
  /** Kind (ANY...ALL, or PENDING until decoded). */
  k = PENDING;
  /** PENDING: the generated node to decode (null once decoded). */
  src: readonly unknown[] | null;
  /** TYPE and NUM: accepted JSON type bits; FMT: the format code. */
  bits = 0;
  /** NUM: inclusive bounds (null: unbounded). */
  min: number | null = null;
  max: number | null = null;
  /** CONST: the value. */
  value: unknown = null;
  /** ENUM: the values; UNION: the dispatch key's values. */
  values: readonly unknown[] = NO_VALUES;
  /** OBJ: how many of the first keys are required, the keys and the kid checking each. */
  required = 0;
  keys: readonly string[] = NO_KEYS;
  /** OBJ: the kid of each key; UNION: the alternatives; ALL: the parts. */
  kids: readonly Node[] = NO_NODES;
  /** OBJ: the declared keys as a set, when other keys are checked (extra) and there are keys. */
  known: ReadonlySet<string> | null = null;
  /** OBJ: the node checking undeclared keys (null: open); ARR: the item node. */
  extra: Node | null = null;
  /** ARR: maxItems (-1: unbounded). */
  maxItems = -1;
  /** UNION: JSON type bits of each alternative, and of all of them. */
  types: readonly number[] = NO_NUMBERS;
  all = 0;
  /** UNION: per JSON type (bit position), the one alternative taking it, or -1 (none or several). */
  only: readonly number[] = NO_NUMBERS;
  /** UNION: the dispatch key (null: none), the alternative of each value, the one taking objects without it. */
  key: string | null = null;
  at: readonly number[] = NO_NUMBERS;
  absent = -1;
  constructor(src: readonly unknown[]) {
    this.src = src;
  }
}
const NO_VALUES: readonly unknown[] = [], NO_KEYS: readonly string[] = [], NO_NUMBERS: readonly number[] = [], NO_NODES: readonly Node[] = [];

/** The bit position of a single JSON type bit, for `Node.only`. */
const bitIndex = (bit: number): number => 31 - Math.clz32(bit);

/** Checks `x` against node `n`: null when valid, else issues relative to `x`. */
function check(n: Node, x: unknown): Issue[] | null {
  switch (n.k) {
    case PENDING:
      return check(decode(n), x);
    case ANY:
      return null;
    case TYPE:
      return typeBit(x) & n.bits ? null : fail(E_TYPE, n.bits);
    case NUM: {
      if (!(typeBit(x) & n.bits)) return fail(E_TYPE, n.bits);
      const min = n.min, max = n.max;
      if (min !== null && (x as number) < min) return fail(E_MIN, min);
      return max !== null && (x as number) > max ? fail(E_MAX, max) : null;
    }
    case FMT:
      if (typeof x !== "string") return fail(E_TYPE, T_STRING);
      if (n.bits === FMT_BYTE) return BASE64.test(x) ? null : fail(E_BYTE);
      return URI_SCHEME.test(x) ? null : fail(E_URI);
    case CONST:
      return x === n.value ? null : fail(E_CONST, n.value);
    case ENUM:
      return n.values.includes(x) ? null : fail(E_ENUM, n.values);
    case OBJ:
      return checkObject(n, x);
    case ARR:
      return checkArray(n, x);
    case UNION:
      return checkUnion(n, x);
    default:
      return checkAll(n, x);
  }
}

/** `Object.prototype.hasOwnProperty`, held so an own `hasOwnProperty` key cannot shadow it. */
const hasOwnProperty = Object.prototype.hasOwnProperty;

/**
 * Object: a fast pass over the object's own keys ({@link objectPasses}); when it cannot say
 * the object is valid, the declared keys one by one ({@link checkObjectExactly}), which
 * describes the failure. Why two: asking `Object.hasOwn` for each declared key, then reading
 * it by a computed name, cost a builtin call and a megamorphic load per key, some two dozen
 * of each a round trip; a `for…in` over the object with `hasOwnProperty` reads its members
 * from the engine's enum cache, each compared with the declared keys (internalized strings).
 * Below an object being described, no fast passes run (`exact`), so a failing value is
 * walked at most twice, not once per level.
 */
function checkObject(n: Node, x: unknown): Issue[] | null {
  if (exact > 0 || typeBit(x) !== T_OBJECT || depth >= MAX_DEPTH) return checkObjectExactly(n, x);
  const passed = objectPasses(n, x as Record<string, unknown>);
  if (passed === PASSED) return null;
  // A member that failed fails the member-by-member check too (the same value, the same
  // node); a required key not seen may be an own key `for…in` skips (not enumerable).
  if (passed === MEMBER_FAILED && quiet) return FAIL;
  exact++;
  try {
    return checkObjectExactly(n, x);
  } finally {
    exact--;
  }
}

const PASSED = 0, MEMBER_FAILED = 1, REQUIRED_UNSEEN = 2;

/**
 * The fast pass of {@link checkObject}: every own enumerable member valid against its
 * declared node (or, undeclared, against `extra`), and every required key among them.
 * Its members are checked quietly. It differs from {@link checkObjectExactly} only for an
 * own member that is not enumerable, which JSON text leaves out: it is not checked here.
 */
function objectPasses(n: Node, o: Record<string, unknown>): number {
  const required = n.required, keys = n.keys, kids = n.kids, extra = n.extra;
  let seen = 0;
  let result = PASSED;
  depth++;
  quiet++;
  for (const key in o) {
    if (!hasOwnProperty.call(o, key)) continue;
    const value = o[key];
    let j = 0;
    while (j < keys.length && keys[j] !== key) j++;
    let r: Issue[] | null = null;
    if (j < keys.length) {
      const kid = kids[j];
      r = kid.k !== TYPE ? check(kid, value) : typeBit(value) & kid.bits ? null : FAIL;
      if (j < required) {
        seen++;
        // (See checkObjectExactly: a required member JSON has no form for.)
        if (r === null && kid.k === ANY && !hasJsonForm(value)) r = FAIL;
      }
    } else if (extra !== null) r = check(extra, value);
    if (r !== null) {
      result = MEMBER_FAILED;
      break;
    }
  }
  quiet--;
  depth--;
  return result === PASSED && seen < required ? REQUIRED_UNSEEN : result;
}

/** Object, member by member: declared keys (the first `required` of them required), then undeclared ones. */
function checkObjectExactly(n: Node, x: unknown): Issue[] | null {
  if (typeBit(x) !== T_OBJECT) return fail(E_TYPE, T_OBJECT);
  if (depth >= MAX_DEPTH) return fail(E_DEPTH);
  const o = x as Record<string, unknown>;
  const required = n.required, keys = n.keys, kids = n.kids, extra = n.extra;
  let acc: Issue[] | null = null;
  depth++;
  for (let j = 0; j < keys.length; j++) {
    const key = keys[j];
    // Own keys only: `in` or a plain read would find Object.prototype members.
    const present = Object.hasOwn(o, key);
    let r: Issue[] | null = null;
    if (present) {
      // Plain type checks, most kids, are done here rather than through a call.
      const kid = kids[j], value = o[key];
      r = kid.k !== TYPE ? check(kid, value) : typeBit(value) & kid.bits ? null : fail(E_TYPE, kid.bits);
      // What JSON has no form for (undefined, a function, a symbol) is left out of the encoded
      // object: a node taking any value (a log message's `data`) passed it, and the peer got
      // a message without a key it requires. Typed nodes refuse such values already, so only
      // an any-value node pays for the check.
      if (r === null && kid.k === ANY && j < required && !hasJsonForm(value)) r = fail(E_JSON);
    } else if (j < required) r = fail(E_MISSING, key);
    if (r === null) continue;
    if (quiet) {
      depth--;
      return FAIL;
    }
    acc = present ? merge(acc, r, key) : concat(acc, r);
    if (acc.length >= MAX_ISSUES) break;
  }
  if (extra !== null) acc = checkExtra(n.known, extra, o, acc);
  depth--;
  return acc;
}

/** False for what `JSON.stringify` leaves out of an object: undefined, a function, a symbol. */
function hasJsonForm(x: unknown): boolean {
  const t = typeof x;
  return x !== undefined && t !== "function" && t !== "symbol";
}

/** The undeclared own keys of `o` (those not in `known`) against `extra`, added to `acc`. */
function checkExtra(known: ReadonlySet<string> | null, extra: Node, o: Record<string, unknown>, acc: Issue[] | null): Issue[] | null {
  for (const key in o) {
    if (!Object.hasOwn(o, key) || (known !== null && known.has(key))) continue;
    const r = check(extra, o[key]);
    if (r === null) continue;
    if (quiet) return FAIL;
    acc = merge(acc, r, key);
    if (acc.length >= MAX_ISSUES) break;
  }
  return acc;
}

/** Array: every item against the item node, then maxItems. */
function checkArray(n: Node, x: unknown): Issue[] | null {
  if (!Array.isArray(x)) return fail(E_TYPE, T_ARRAY);
  if (depth >= MAX_DEPTH) return fail(E_DEPTH);
  const item = n.extra!, max = n.maxItems;
  let acc: Issue[] | null = null;
  depth++;
  for (let j = 0; j < x.length; j++) {
    const r = check(item, x[j]);
    if (r === null) continue;
    if (quiet) {
      depth--;
      return FAIL;
    }
    acc = merge(acc, r, String(j));
    if (acc.length >= MAX_ISSUES) break;
  }
  depth--;
  // In quiet mode acc is null here, so this returns the sentinel untouched.
  return max >= 0 && x.length > max ? concat(acc, fail(E_ITEMS, max)) : acc;
}

/** anyOf: by JSON type, then by the dispatch key, else each alternative in turn. */
function checkUnion(n: Node, x: unknown): Issue[] | null {
  const bit = typeBit(x);
  if (!(bit & n.all)) return fail(E_TYPE, n.all);
  const alts = n.kids;
  const only = n.only[bitIndex(bit)];
  if (only >= 0) return check(alts[only], x);
  const key = n.key;
  if (key !== null && bit === T_OBJECT) {
    const o = x as Record<string, unknown>;
    let alt: number;
    if (Object.hasOwn(o, key)) {
      const at = n.values.indexOf(o[key]);
      if (at < 0) return merge(null, fail(E_ENUM, n.values), key); // merge leaves the empty sentinel as it is
      alt = n.at[at];
    } else {
      alt = n.absent;
      if (alt < 0) return fail(E_MISSING, key);
    }
    return check(alts[alt], x);
  }
  // No way to tell the alternatives apart up front: try each quietly.
  const types = n.types;
  quiet++;
  let ok = false;
  for (let j = 0; j < alts.length && !ok; j++) if (types[j] & bit) ok = check(alts[j], x) === null;
  quiet--;
  if (ok) return null;
  return quiet ? FAIL : explainUnion(alts, types, bit, x);
}

/**
 * All alternatives failed: report the issues of the closest ones. Closeness is judged
 * at the top level only: fewest mismatches (missing required keys, scalar members of
 * the wrong value), then most declared keys present, so `{type: "strin", format:
 * "email"}` is explained as a string schema with a bad `type`, not as every schema.
 */
function explainUnion(alts: readonly Node[], types: readonly number[], bit: number, x: unknown): Issue[] {
  let best = Infinity;
  const scores: number[] = [];
  quiet++;
  for (let j = 0; j < alts.length; j++) {
    const s = types[j] & bit ? distance(alts[j], x) : Infinity;
    scores.push(s);
    if (s < best) best = s;
  }
  quiet--;
  let acc: Issue[] | null = null;
  for (let j = 0; j < alts.length && (acc === null || acc.length < MAX_ISSUES); j++) {
    if (scores[j] !== best) continue;
    const r = check(alts[j], x);
    if (r !== null) acc = concat(acc, r);
  }
  // The best alternatives failed quietly, so they fail here too: acc is not null.
  return acc as Issue[];
}

/** How far `x` is from node `n`, looking at its top level only (lower is closer). */
function distance(n: Node, x: unknown): number {
  if (ready(n).k !== OBJ) return 0;
  const o = x as Record<string, unknown>;
  const required = n.required, keys = n.keys, kids = n.kids;
  let misses = 0, hits = 0;
  for (let j = 0; j < keys.length; j++) {
    if (Object.hasOwn(o, keys[j])) {
      const kind = ready(kids[j]).k;
      if (kind >= TYPE && kind <= ENUM && check(kids[j], o[keys[j]]) !== null) misses++;
      else hits++;
    } else if (j < required) misses++;
  }
  return misses * 1024 - hits;
}

/** allOf: every part must hold. */
function checkAll(n: Node, x: unknown): Issue[] | null {
  const parts = n.kids;
  let acc: Issue[] | null = null;
  for (let j = 0; j < parts.length; j++) {
    const r = check(parts[j], x);
    // In quiet mode every r is the empty sentinel, and concat never writes into it.
    if (r !== null) acc = concat(acc, r);
  }
  return acc;
}

/** Runs one top-level validation: fresh counters, and nothing thrown out (a Proxy may throw). */
function run(node: Node, value: unknown): Issue[] | null {
  const savedQuiet = quiet, savedDepth = depth, savedExact = exact;
  quiet = 0;
  depth = 0;
  exact = 0;
  try {
    return check(node, value);
  } catch {
    return [{ path: "", reason: "value could not be read" }];
  } finally {
    quiet = savedQuiet;
    depth = savedDepth;
    exact = savedExact;
  }
}

/**
 * The nodes by number. Each is decoded when a value first reaches it, so a process pays
 * only for what it checks: a server that speaks one version decodes that version's nodes,
 * not the four versions', and of an object's members only those its values hold (cold
 * start). Never at load: a top-level
 * loop is a statement a bundler must keep, and with it every table, in a consumer that
 * imports only the codec from the package root.
 */
const LINKED: Node[] = [];

/** generated/full.ts's nodes, numbered on from NODES's, once src/schema/types.ts has added them. */
let EXTRA = "";
/** Where the lines of NODES and of EXTRA start, found on first use. */
let coreStarts: number[] | undefined, extraStarts: number[] | undefined;

/** Node number `i`, one object shared by every reference to it (decoded when first checked). */
function nodeAt(i: number): Node {
  return (LINKED[i] ??= new Node(generatedNode(i)));
}

/** Generated node number `i` (a line of NODES, or after them of EXTRA), parsed. */
function generatedNode(i: number): readonly unknown[] {
  const core = (coreStarts ??= lineStarts(NODES));
  const count = core.length - 1;
  if (i < count) return lineAt(NODES, core, i) as readonly unknown[];
  // (Not cached while EXTRA is empty: an early out-of-range number must not fix its offsets for good.)
  if (EXTRA === "") throw new SyntaxError(`node ${i} is not in the kernel's table, and the full table is not loaded`);
  return lineAt(EXTRA, (extraStarts ??= lineStarts(EXTRA)), i - count) as readonly unknown[];
}

/** The node a generated reference stands for: an index into NODES, or an inline node. */
function linked(r: unknown): Node {
  return typeof r === "number" ? nodeAt(r) : new Node(r as readonly unknown[]);
}

/**
 * `key` as the engine's own copy of that property name, as a key written in source is.
 * `JSON.parse` leaves a string value of more than a few characters (`structuredContent`)
 * a copy of its own, and every read of a property by such a copy misses the engine's fast
 * path: checking a CallToolResult took half as long again.
 */
function asKey(key: string): string {
  return Object.keys({ [key]: 0 })[0];
}

/** `n`, decoded if it was not yet. */
function ready(n: Node): Node {
  return n.k === PENDING ? decode(n) : n;
}

/** Fills pending `n` from its generated node (encoding: generated/nodes.ts); the nodes it refers to stay pending. */
function decode(n: Node): Node {
  const g = n.src!;
  n.src = null;
  n.k = g[0] as number;
  switch (n.k) {
    case TYPE:
    case FMT:
      n.bits = g[1] as number;
      break;
    case NUM:
      n.bits = g[1] as number;
      n.min = g[2] as number | null;
      n.max = g[3] as number | null;
      break;
    case CONST:
      n.value = g[1];
      break;
    case ENUM:
      n.values = g[1] as unknown[];
      break;
    case OBJ:
      n.required = g[1] as number;
      n.keys = (g[2] as string[]).map(asKey);
      n.kids = (g[3] as unknown[]).map(linked);
      n.extra = g[4] === AP_OPEN ? null : linked(g[4]);
      n.known = n.extra !== null && n.keys.length > 0 ? new Set(n.keys) : null;
      break;
    case ARR:
      n.extra = linked(g[1]);
      n.maxItems = g[2] as number;
      break;
    case UNION:
      decodeUnion(n, g);
      break;
    case ALL:
      n.kids = (g[1] as unknown[]).map(linked);
  }
  return n;
}

/** `[8, alts, types, key, values, at, absent]`, with the per-type dispatch precomputed. */
function decodeUnion(n: Node, g: readonly unknown[]): void {
  n.kids = (g[1] as unknown[]).map(linked);
  n.types = g[2] as number[];
  n.key = g[3] === null ? null : asKey(g[3] as string);
  n.values = g[4] as unknown[];
  n.at = g[5] as number[];
  n.absent = g[6] as number;
  const only: number[] = [];
  for (let b = 0; b < 7; b++) {
    const takers = n.types.flatMap((t, j) => (t & (1 << b) ? [j] : []));
    only.push(takers.length === 1 ? takers[0] : -1);
  }
  n.only = only;
  n.all = n.types.reduce((m, t) => m | t, 0);
}

/**
 * Adds the generated nodes numbered on from NODES's (generated/full.ts, for
 * src/schema/types.ts, once); they are decoded on first use like the rest.
 * @internal
 */
export function addNodes(extra: string): void {
  EXTRA = extra;
  extraStarts = undefined;
}

/**
 * A set of type names with, per schema version, the node of each (-1: not defined).
 * @internal
 */
export interface TypeTable {
  names: readonly string[];
  /** Name to its position in `names` (a Map: names come from callers). */
  index: ReadonlyMap<string, number>;
  types: Readonly<Record<SchemaVersion, readonly number[]>>;
}

/**
 * The {@link TypeTable} of `names`.
 * @internal
 */
export function typeTable(names: readonly string[], types: Readonly<Record<SchemaVersion, readonly number[]>>): TypeTable {
  return { names, index: new Map(names.map((name, i) => [name, i])), types };
}

/** The types the method tables (src/model/methods.ts) look up; src/schema/types.ts knows them all. */
const KERNEL: TypeTable = /* @__PURE__ */ typeTable(TYPE_NAMES, {
  "2025-03-26": TYPES_2025_03_26,
  "2025-06-18": TYPES_2025_06_18,
  "2025-11-25": TYPES_2025_11_25,
  "2026-07-28": TYPES_2026_07_28,
});

/** One validator function per node, made on first use; shared by all versions using the node. */
const validators: (Validator | undefined)[] = [];

/**
 * The validator of generated node `node`. For the method tables in `src/model/methods.ts`,
 * which also need validators of inline (unnamed) params schemas.
 * @internal
 */
export function nodeValidator(node: number): Validator {
  let v = validators[node];
  if (v === undefined) {
    // Decoded at the first check, not here: the method tables make a validator for every
    // method of a version, most of which a process never receives.
    let n: Node | undefined;
    v = (value: unknown) => run((n ??= nodeAt(node)), value);
    validators[node] = v;
  }
  return v;
}

/** The node list of `version` in `t` (2024-11-05 reads 2025-03-26's), or undefined for an unknown version. */
function versionTypes(t: TypeTable, version: ProtocolVersion): readonly number[] | undefined {
  return typeof version === "string" && (Object.hasOwn(t.types, version) || version === "2024-11-05") ? t.types[schemaVersionOf(version)] : undefined;
}

/** The node of `typeName` in `version`, or -1. */
function nodeOf(t: TypeTable, version: ProtocolVersion, typeName: string): number {
  const at = t.index.get(typeName);
  const list = versionTypes(t, version);
  return at === undefined || list === undefined ? -1 : list[at];
}

/**
 * {@link validatorFor} over table `t`.
 * @internal
 */
export function validatorIn(t: TypeTable, version: ProtocolVersion, typeName: string): Validator | undefined {
  const node = nodeOf(t, version, typeName);
  return node < 0 ? undefined : nodeValidator(node);
}

/**
 * {@link validate} over table `t`.
 * @internal
 */
export function validateIn<T>(t: TypeTable, version: ProtocolVersion, typeName: string, value: unknown): ValidationResult<T> {
  const node = nodeOf(t, version, typeName);
  if (node < 0) return { ok: false, issues: [{ path: "", reason: `unknown type ${typeof typeName === "string" ? JSON.stringify(typeName) : notString(typeName)} in schema ${typeof version === "string" ? version : notString(version)}` }] };
  const issues = run(nodeAt(node), value);
  return issues === null ? { ok: true, value: value as T } : { ok: false, issues };
}

/** A name that is no string, for a message: its type only (a BigInt, a cycle or a throwing toString cannot be written, and the kernel never throws across its boundary). */
function notString(v: unknown): string {
  return `(${v === null ? "null" : typeof v}, not a string)`;
}

/**
 * {@link typeNames} over table `t`.
 * @internal
 */
export function typeNamesIn(t: TypeTable, version: ProtocolVersion): string[] {
  const list = versionTypes(t, version);
  if (list === undefined) return [];
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) if (list[i] >= 0) out.push(t.names[i]);
  return out;
}

// The kernel's lookups. The schema entry point (index.ts) exports src/schema/types.ts's
// functions of the same names instead, which know every type.

/** The validator of schema type `typeName` (e.g. "CallToolResult") in `version`, if it is one the method tables use. */
export function validatorFor(version: ProtocolVersion, typeName: string): Validator | undefined {
  return validatorIn(KERNEL, version, typeName);
}

/** Validates `value` as `typeName` of `version` (a type the method tables use); an unknown type name is an issue at "". */
export function validate<T = unknown>(version: ProtocolVersion, typeName: string, value: unknown): ValidationResult<T> {
  return validateIn<T>(KERNEL, version, typeName, value);
}

/** The type names of `version` that the method tables use. */
export function typeNames(version: ProtocolVersion): string[] {
  return typeNamesIn(KERNEL, version);
}
