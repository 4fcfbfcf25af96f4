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
 * one table of small array-encoded nodes (`generated/nodes.ts`; identical definitions
 * of different versions share nodes), and this module interprets it. `check(node, x)`
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
export const MAX_ISSUES = 16;

/** Deepest nesting of objects and arrays a validator descends into. */
export const MAX_DEPTH = 256;

// Node kinds and JSON type bits, as written by scripts/gen-validators.mjs.
const ANY = 0, TYPE = 1, NUM = 2, FMT = 3, CONST = 4, ENUM = 5, OBJ = 6, ARR = 7, UNION = 8, ALL = 9;
const T_STRING = 1, T_FRACTION = 2, T_INTEGER = 4, T_BOOLEAN = 8, T_NULL = 16, T_OBJECT = 32, T_ARRAY = 64;
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

/** The JSON type bit of `x` (0 for what JSON cannot hold: NaN, undefined, functions...). */
function typeBit(x: unknown): number {
  switch (typeof x) {
    case "string":
      return T_STRING;
    case "number":
      return Number.isInteger(x) ? T_INTEGER : Number.isFinite(x) ? T_FRACTION : 0;
    case "boolean":
      return T_BOOLEAN;
    case "object":
      return x === null ? T_NULL : Array.isArray(x) ? T_ARRAY : T_OBJECT;
    default:
      return 0;
  }
}

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
const E_TYPE = 0, E_MIN = 1, E_MAX = 2, E_BYTE = 3, E_URI = 4, E_CONST = 5, E_ENUM = 6, E_DEPTH = 7, E_ITEMS = 8, E_MISSING = 9;

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
    default:
      return `missing required property ${JSON.stringify(arg)}`;
  }
}

/** RFC 6901: `~` is written `~0` and `/` is written `~1`. */
function escapeSegment(key: string): string {
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

/** A linked node: as in generated/nodes.ts, with every reference replaced by the node. */
type Node = readonly unknown[];

/** Checks `x` against node `n`: null when valid, else issues relative to `x`. */
function check(n: Node, x: unknown): Issue[] | null {
  switch (n[0] as number) {
    case ANY:
      return null;
    case TYPE:
      return typeBit(x) & (n[1] as number) ? null : fail(E_TYPE, n[1]);
    case NUM: {
      if (!(typeBit(x) & (n[1] as number))) return fail(E_TYPE, n[1]);
      const min = n[2] as number | null, max = n[3] as number | null;
      if (min !== null && (x as number) < min) return fail(E_MIN, min);
      return max !== null && (x as number) > max ? fail(E_MAX, max) : null;
    }
    case FMT:
      if (typeof x !== "string") return fail(E_TYPE, T_STRING);
      if (n[1] === FMT_BYTE) return BASE64.test(x) ? null : fail(E_BYTE);
      return URI_SCHEME.test(x) ? null : fail(E_URI);
    case CONST:
      return x === n[1] ? null : fail(E_CONST, n[1]);
    case ENUM:
      return (n[1] as unknown[]).includes(x) ? null : fail(E_ENUM, n[1]);
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

/** `[6, required, keys, kids, extra]`: see generated/nodes.ts. */
function checkObject(n: Node, x: unknown): Issue[] | null {
  if (typeBit(x) !== T_OBJECT) return fail(E_TYPE, T_OBJECT);
  if (depth >= MAX_DEPTH) return fail(E_DEPTH);
  const o = x as Record<string, unknown>;
  const required = n[1] as number, keys = n[2] as readonly string[], kids = n[3] as readonly Node[], extra = n[4] as Node | number;
  let acc: Issue[] | null = null;
  depth++;
  for (let j = 0; j < keys.length; j++) {
    const key = keys[j];
    // Own keys only: `in` or a plain read would find Object.prototype members.
    const present = Object.hasOwn(o, key);
    const r = present ? check(kids[j], o[key]) : j < required ? fail(E_MISSING, key) : null;
    if (r === null) continue;
    if (quiet) {
      depth--;
      return FAIL;
    }
    acc = present ? merge(acc, r, key) : concat(acc, r);
    if (acc.length >= MAX_ISSUES) break;
  }
  if (extra !== AP_OPEN) {
    for (const key in o) {
      if (!Object.hasOwn(o, key) || keys.includes(key)) continue;
      const r = check(extra as Node, o[key]);
      if (r === null) continue;
      if (quiet) {
        depth--;
        return FAIL;
      }
      acc = merge(acc, r, key);
      if (acc.length >= MAX_ISSUES) break;
    }
  }
  depth--;
  return acc;
}

/** `[7, item, maxItems]`. */
function checkArray(n: Node, x: unknown): Issue[] | null {
  if (!Array.isArray(x)) return fail(E_TYPE, T_ARRAY);
  if (depth >= MAX_DEPTH) return fail(E_DEPTH);
  const item = n[1] as Node, max = n[2] as number;
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

/** `[8, alts, types, key, values, at, absent]`. */
function checkUnion(n: Node, x: unknown): Issue[] | null {
  const alts = n[1] as readonly Node[], types = n[2] as readonly number[];
  const bit = typeBit(x);
  let first = -1, count = 0, all = 0;
  for (let j = 0; j < alts.length; j++) {
    all |= types[j];
    if (types[j] & bit) {
      if (first < 0) first = j;
      count++;
    }
  }
  if (count === 0) return fail(E_TYPE, all);
  if (count === 1) return check(alts[first], x);
  const key = n[3] as string | null;
  if (key !== null && bit === T_OBJECT) {
    const o = x as Record<string, unknown>;
    let alt: number;
    if (Object.hasOwn(o, key)) {
      const at = (n[4] as readonly unknown[]).indexOf(o[key]);
      if (at < 0) return merge(null, fail(E_ENUM, n[4]), key); // merge leaves the empty sentinel as it is
      alt = (n[5] as readonly number[])[at];
    } else {
      alt = n[6] as number;
      if (alt < 0) return fail(E_MISSING, key);
    }
    return check(alts[alt], x);
  }
  // No way to tell the alternatives apart up front: try each quietly.
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
  if (n[0] !== OBJ) return 0;
  const o = x as Record<string, unknown>;
  const required = n[1] as number, keys = n[2] as readonly string[], kids = n[3] as readonly Node[];
  let misses = 0, hits = 0;
  for (let j = 0; j < keys.length; j++) {
    if (Object.hasOwn(o, keys[j])) {
      const kind = kids[j][0] as number;
      if (kind >= TYPE && kind <= ENUM && check(kids[j], o[keys[j]]) !== null) misses++;
      else hits++;
    } else if (j < required) misses++;
  }
  return misses * 1024 - hits;
}

/** `[9, parts]`: every part must hold. */
function checkAll(n: Node, x: unknown): Issue[] | null {
  const parts = n[1] as readonly Node[];
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
  const savedQuiet = quiet, savedDepth = depth;
  quiet = 0;
  depth = 0;
  try {
    return check(node, value);
  } catch {
    return [{ path: "", reason: "value could not be read" }];
  } finally {
    quiet = savedQuiet;
    depth = savedDepth;
  }
}

/** Replaces the node indices inside `n` (and inside its inline children) by the nodes. */
function link(n: unknown[]): void {
  const resolve = (r: unknown): unknown => {
    if (typeof r === "number") return NODES[r];
    link(r as unknown[]);
    return r;
  };
  const each = (list: unknown[]) => {
    for (let j = 0; j < list.length; j++) list[j] = resolve(list[j]);
  };
  switch (n[0]) {
    case OBJ:
      each(n[3] as unknown[]);
      if (n[4] !== AP_OPEN) n[4] = resolve(n[4]);
      break;
    case ARR:
      n[1] = resolve(n[1]);
      break;
    case UNION:
    case ALL:
      each(n[1] as unknown[]);
  }
}
for (const n of NODES) link(n as unknown[]);

const TYPES: Record<SchemaVersion, readonly number[]> = {
  "2025-03-26": TYPES_2025_03_26,
  "2025-06-18": TYPES_2025_06_18,
  "2025-11-25": TYPES_2025_11_25,
  "2026-07-28": TYPES_2026_07_28,
};

/** Type name to its position in TYPE_NAMES (a Map: names come from callers). */
const NAME_INDEX = new Map<string, number>(TYPE_NAMES.map((name, i) => [name, i]));

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
    const n = NODES[node];
    v = (value: unknown) => run(n, value);
    validators[node] = v;
  }
  return v;
}

/** The type table of `version` (2024-11-05 reads 2025-03-26's), or undefined for an unknown version. */
function tableOf(version: ProtocolVersion): readonly number[] | undefined {
  return typeof version === "string" && (Object.hasOwn(TYPES, version) || version === "2024-11-05") ? TYPES[schemaVersionOf(version)] : undefined;
}

/** The node of `typeName` in `version`, or -1. */
function nodeOf(version: ProtocolVersion, typeName: string): number {
  const at = NAME_INDEX.get(typeName);
  const table = tableOf(version);
  return at === undefined || table === undefined ? -1 : table[at];
}

/** The validator of schema type `typeName` (e.g. "CallToolResult") in `version`, if it exists. */
export function validatorFor(version: ProtocolVersion, typeName: string): Validator | undefined {
  const node = nodeOf(version, typeName);
  return node < 0 ? undefined : nodeValidator(node);
}

/** Validates `value` as `typeName` of `version`; an unknown type name is an issue at "". */
export function validate<T = unknown>(version: ProtocolVersion, typeName: string, value: unknown): ValidationResult<T> {
  const node = nodeOf(version, typeName);
  if (node < 0) return { ok: false, issues: [{ path: "", reason: `unknown type ${JSON.stringify(typeName)} in schema ${String(version)}` }] };
  const issues = run(NODES[node], value);
  return issues === null ? { ok: true, value: value as T } : { ok: false, issues };
}

/** Every type name the schema of `version` defines. */
export function typeNames(version: ProtocolVersion): string[] {
  const table = tableOf(version);
  if (table === undefined) return [];
  const out: string[] = [];
  for (let i = 0; i < table.length; i++) if (table[i] >= 0) out.push(TYPE_NAMES[i]);
  return out;
}
