/**
 * Seeded input generators for the fuzz targets: random JSON, random bytes, and
 * mutations of the spec's own example messages (spec-tests/fixtures/examples).
 *
 * Theory of operation. Every generator takes the PRNG of `harness/random.ts`, so a
 * (target, seed) pair names one input forever, and returns plain JSON: bytes are number
 * arrays, so a failing input can be written to the corpus as it is and replayed without
 * the generator that made it. Mutations are the classic ones of grammar-unaware fuzzers
 * (flip, cut, splice, duplicate) plus a few aimed at JSON-RPC: hostile keys, ids of every
 * wrong type, a member swapped for random JSON.
 */
import { examples } from "../schema/repo.js";
import { pick } from "../harness/random.js";

/** A PRNG as `harness/random.ts` makes it. */
export type Rng = () => number;

/** An integer in `[0, n)`. */
export function int(r: Rng, n: number): number {
  return Math.floor(r() * n);
}

const HOSTILE_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "_meta", "id", "method", "jsonrpc"];
const STRINGS = ["", "x", "2.0", "2025-11-25", "2026-07-28", "tools/call", "initialize", "\u0000", "\n", "\r\n", "\u2028", "\ud800", "\ufeff", "é", "😀", "a".repeat(300), "-32600", "data: x", "id: 1", "\"", "\\"];
const NUMBERS = [0, 1, -1, 1.5, -0, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e308, -32700, -32600, -32601, -32602, -32603, -32042];

/** Random JSON: every type, hostile keys, awkward strings and numbers, nesting up to `depth`. */
export function randomJson(r: Rng, depth = 4): unknown {
  const k = r();
  if (depth <= 0 || k < 0.35) {
    const s = r();
    if (s < 0.15) return null;
    if (s < 0.3) return r() < 0.5;
    if (s < 0.6) return r() < 0.5 ? pick(r, NUMBERS) : int(r, 100);
    return r() < 0.6 ? pick(r, STRINGS) : randomString(r, int(r, 12));
  }
  if (k < 0.6) {
    const n = int(r, 4);
    const a: unknown[] = [];
    for (let i = 0; i < n; i++) a.push(randomJson(r, depth - 1));
    return a;
  }
  const o: Record<string, unknown> = {};
  const n = int(r, 5);
  for (let i = 0; i < n; i++) {
    const key = r() < 0.3 ? pick(r, HOSTILE_KEYS) : randomString(r, 1 + int(r, 6));
    // defineProperty, so a `__proto__` key is an own data member, as JSON.parse makes it.
    Object.defineProperty(o, key, { value: randomJson(r, depth - 1), enumerable: true, writable: true, configurable: true });
  }
  return o;
}

/** A random string of `n` code units, mostly ASCII, some control, non-BMP and lone surrogates. */
export function randomString(r: Rng, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) {
    const k = r();
    if (k < 0.75) s += String.fromCharCode(0x20 + int(r, 95));
    else if (k < 0.85) s += String.fromCharCode(int(r, 0x20));
    else if (k < 0.95) s += String.fromCharCode(0xa0 + int(r, 0x2000));
    else s += pick(r, ["\ud83d\ude00", "\ud800", "\udfff", "\ufeff"]);
  }
  return s;
}

/** `n` random bytes, biased towards the bytes framing and UTF-8 care about. */
export function randomBytes(r: Rng, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const k = r();
    out.push(k < 0.1 ? pick(r, [0x0a, 0x0d, 0x3a, 0x7b, 0x7d, 0x22]) : k < 0.2 ? 0x80 + int(r, 0x80) : k < 0.25 ? pick(r, [0xef, 0xbb, 0xbf, 0xc0, 0xf0, 0xff]) : int(r, 256));
  }
  return out;
}

let exampleCache: unknown[] | undefined;

/** The spec's example JSON-RPC messages (the fixtures that have a `jsonrpc` member). */
export function exampleMessages(): unknown[] {
  exampleCache ??= examples()
    .map((e) => e.value)
    .filter((v) => typeof v === "object" && v !== null && (v as { jsonrpc?: unknown }).jsonrpc === "2.0");
  return exampleCache;
}

let valueCache: { type: string; value: unknown }[] | undefined;

/** Every example value (messages, params, results, content blocks), for the validators. */
export function exampleValues(): { type: string; value: unknown }[] {
  valueCache ??= examples().map((e) => ({ type: e.type, value: e.value }));
  return valueCache;
}

/** A structural mutation of a JSON value: a node replaced, removed, retyped or given a hostile sibling. Returns a new value. */
export function mutateValue(r: Rng, value: unknown): unknown {
  const copy = structuredCloneJson(value);
  const rounds = 1 + int(r, 3);
  let root = copy;
  for (let i = 0; i < rounds; i++) root = mutateOnce(r, root);
  return root;
}

function mutateOnce(r: Rng, root: unknown): unknown {
  const nodes: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach((c, i) => (nodes.push({ parent: v, key: i }), walk(c)));
    else if (typeof v === "object" && v !== null) for (const k of Object.keys(v)) nodes.push({ parent: v as Record<string, unknown>, key: k }), walk((v as Record<string, unknown>)[k]);
  };
  walk(root);
  if (nodes.length === 0 || r() < 0.05) return randomJson(r, 3);
  const { parent, key } = pick(r, nodes);
  const k = r();
  const set = (v: unknown) => Object.defineProperty(parent, key, { value: v, enumerable: true, writable: true, configurable: true });
  if (k < 0.35) set(randomJson(r, 2));
  else if (k < 0.5) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else if (k < 0.65) set(pick(r, [null, true, 0, -1, 1.5, "", "1", [], {}, 2 ** 53 + 2]));
  else if (k < 0.8 && !Array.isArray(parent)) Object.defineProperty(parent, pick(r, HOSTILE_KEYS), { value: randomJson(r, 2), enumerable: true, writable: true, configurable: true });
  else set(structuredCloneJson(pick(r, nodes).parent));
  return root;
}

/** A textual mutation: flip, cut, splice a token, duplicate a span, or truncate. */
export function mutateText(r: Rng, text: string): string {
  if (text.length === 0) return randomString(r, 4);
  const at = int(r, text.length);
  const k = r();
  if (k < 0.2) return text.slice(0, at) + String.fromCharCode(int(r, 128)) + text.slice(at + 1);
  if (k < 0.35) return text.slice(0, at) + text.slice(at + 1 + int(r, 8));
  if (k < 0.55) return text.slice(0, at) + pick(r, ["{", "}", "[", "]", ",", ":", '"', "\\", "\n", "\r", "null", "1e999", "-0", '"__proto__":', "\ud800", "\u0000"]) + text.slice(at);
  if (k < 0.7) {
    const end = Math.min(text.length, at + 1 + int(r, 40));
    return text.slice(0, end) + text.slice(at, end) + text.slice(end);
  }
  if (k < 0.85) return text.slice(0, at);
  return text.slice(at) + text.slice(0, at);
}

/** A JSON value copied through JSON (drops nothing the generators make; keeps `__proto__` as data). */
export function structuredCloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** A message-like text: an example, mutated structurally or textually, or random JSON or noise. */
export function messageText(r: Rng): string {
  const k = r();
  const ex = exampleMessages();
  if (k < 0.15) return JSON.stringify(pick(r, ex));
  if (k < 0.5) return JSON.stringify(mutateValue(r, pick(r, ex)));
  if (k < 0.75) return mutateText(r, JSON.stringify(pick(r, ex)));
  if (k < 0.9) return JSON.stringify(randomJson(r, 5)) ?? "null";
  return randomString(r, int(r, 40));
}
