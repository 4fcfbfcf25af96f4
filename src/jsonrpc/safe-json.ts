/**
 * Bounded JSON: the size, depth and encoding checks that run before a message is trusted.
 *
 * Spec: `basic/transports` of 2025-11-25 and the draft ("JSON-RPC messages MUST be UTF-8
 * encoded"); `basic/index` ("Messages"). None of this is MCP-specific: it is what keeps a
 * hostile peer from spending our memory or stack.
 *
 * Theory of operation. Parsing is left to the engine's `JSON.parse`, which is fast and (in
 * V8 and JavaScriptCore) iterative, so deep input cannot overflow its stack. What it does
 * not do is bound anything, so this module supplies the bounds around it, each chosen to
 * cost nothing on typical messages:
 *
 * - size: a string's UTF-16 length is a lower bound of its UTF-8 size and three times the
 *   length an upper bound, so only strings between the two need an exact count
 *   ({@link exceedsBytes});
 * - depth: nesting deeper than `maxDepth` needs more than `maxDepth` opening brackets, and
 *   counting brackets with `indexOf` is native and stops early ({@link mayExceedDepth});
 *   only a message with that many brackets pays for the exact, iterative walk of the
 *   parsed value ({@link checkNesting});
 * - encoding: bytes are decoded by a fatal UTF-8 decoder, so invalid bytes are an error
 *   rather than a silent U+FFFD ({@link decodeUtf8}).
 *
 * Hostile keys. `JSON.parse` defines every key, `__proto__` included, as an own data
 * property of a fresh object whose prototype is `Object.prototype`; nothing in a parsed
 * value can reach a prototype. The invariant other modules must keep: never copy a
 * decoded object key by key with assignment (`target[key] = value`, `Object.assign`, a
 * hand-written deep merge), because `[[Set]]` of `__proto__` replaces the target's
 * prototype. Read with {@link hasOwn}; copy with spread (`{ ...value }`, which defines
 * own properties), with {@link merged}, or into a `Map` / `Object.create(null)`.
 */

/** `Object.prototype.hasOwnProperty`, held so a hostile own `hasOwnProperty` key cannot shadow it. */
const hasOwnProperty = Object.prototype.hasOwnProperty;

/**
 * True when `key` is an own property of `obj`: the safe way to ask whether a decoded
 * object carries a field, immune to inherited and shadowing keys (`__proto__`,
 * `constructor`, `hasOwnProperty`). Never throws for an object from `JSON.parse`.
 */
export function hasOwn(obj: object, key: string): boolean {
  return hasOwnProperty.call(obj, key);
}

/**
 * `{ ...base, ...extra }`, for paths taken once a message: the same object (own
 * enumerable string keys in order, each defined, so an own `__proto__` stays data) at a
 * fraction of the cost. On Node 20's V8 a spread followed by more properties, or a
 * spread copy that is then extended, leaves the fast path: ~1 µs against ~60 ns for this
 * loop (newer engines are fast either way).
 */
export function merged(base: object | undefined, extra: object): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  if (base !== undefined) copyOwn(out, base);
  copyOwn(out, extra);
  return out;
}

function copyOwn(out: { [key: string]: unknown }, from: object): void {
  const keys = Object.keys(from);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = (from as { [key: string]: unknown })[k];
    if (k === "__proto__") Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
}

/**
 * UTF-8 size of a string. Surrogates count two bytes each, so a pair counts four (its
 * real size) and the count is additive over any split of the string, which lets a framer
 * measure a line chunk by chunk. A lone surrogate, which has no UTF-8 form, counts two.
 */
export function utf8Length(s: string): number {
  let bytes = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

/**
 * True when `s` needs more than `maxBytes` bytes in UTF-8. Decided from the length alone
 * unless the string is within a factor of three of the limit; then counted exactly, and
 * the count stops as soon as the limit is passed.
 */
export function exceedsBytes(s: string, maxBytes: number): boolean {
  const n = s.length;
  if (n > maxBytes) return true;
  if (n * 3 <= maxBytes) return false;
  let bytes = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 && (bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2) > maxBytes) return true;
  }
  return false;
}

/**
 * False when `text` cannot nest deeper than `maxDepth`: it holds at most `maxDepth`
 * opening brackets (brackets inside strings only make the count larger, so the answer
 * errs on the safe side). Native `indexOf` jumps, at most `maxDepth + 1` of them per
 * bracket kind.
 */
export function mayExceedDepth(text: string, maxDepth: number): boolean {
  if (text.length <= 2 * maxDepth + 1) return false;
  let count = 0;
  let i = text.indexOf("{");
  while (i !== -1) {
    if (++count > maxDepth) return true;
    i = text.indexOf("{", i + 1);
  }
  i = text.indexOf("[");
  while (i !== -1) {
    if (++count > maxDepth) return true;
    i = text.indexOf("[", i + 1);
  }
  return false;
}

/** Result of {@link checkNesting}. */
export type NestingCheck = "ok" | "too-deep" | "too-many";

/**
 * Walks a parsed value with an explicit stack (no recursion, so no stack to overflow) and
 * reports whether some array or object sits deeper than `maxDepth` (the outermost
 * container is depth 1) or whether more than `maxNodes` containers were visited. The node
 * budget only matters for a caller-built value: a parsed one of `n` bytes holds at most
 * `n / 2` containers, while a built one may share children (a DAG whose walk is
 * exponential) or be cyclic (which the depth bound cuts short). Reading a property may
 * run a getter; the caller catches what it throws.
 */
export function checkNesting(root: unknown, maxDepth: number, maxNodes: number): NestingCheck {
  if (typeof root !== "object" || root === null) return "ok";
  if (maxDepth < 1) return "too-deep";
  const values: object[] = [root];
  const depths: number[] = [1];
  let visited = 0;
  while (values.length > 0) {
    const value = values.pop() as object;
    const depth = (depths.pop() as number) + 1;
    if (++visited > maxNodes) return "too-many";
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const child: unknown = value[i];
        if (typeof child === "object" && child !== null) {
          if (depth > maxDepth) return "too-deep";
          values.push(child);
          depths.push(depth);
        }
      }
    } else {
      const record = value as Record<string, unknown>;
      for (const key in record) {
        const child = record[key];
        if (typeof child === "object" && child !== null) {
          if (depth > maxDepth) return "too-deep";
          values.push(child);
          depths.push(depth);
        }
      }
    }
  }
  return "ok";
}

/**
 * True when `value` is already what `JSON.parse(JSON.stringify(value))` would give back:
 * `null`, booleans, strings, finite numbers (not `-0`), arrays and plain objects
 * (prototype `Object.prototype` or `null`) holding only such values, at most `maxDepth`
 * deep and `maxNodes` containers in all. Such a value can cross to an in-process peer
 * as it is: the peer sees exactly what it would have parsed from the text. Anything
 * else (`undefined`, a BigInt, a function, a `Date` or other class instance, a cycle,
 * which the depth bound cuts short) must go through the encoder, which gives it its JSON
 * form or reports that it has none. Never throws for a value without getters (a getter
 * that throws is the caller's to catch).
 */
export function isJsonShaped(value: unknown, maxDepth: number, maxNodes: number): boolean {
  return isJsonLeaf(value) || (typeof value === "object" && shapedWalk(value as object, maxDepth, maxNodes) >= 0);
}

/**
 * {@link isJsonShaped} of a container: the node budget left after it, or -1. Recursive,
 * but never deeper than `depthLeft` (the caller's `maxDepth`, tens of frames), which is
 * what makes a cycle end.
 */
function shapedWalk(node: object, depthLeft: number, budget: number): number {
  if (depthLeft < 1 || budget < 1) return -1;
  budget--;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const v: unknown = node[i];
      if (isJsonLeaf(v)) continue;
      if (typeof v !== "object" || (budget = shapedWalk(v as object, depthLeft - 1, budget)) < 0) return -1;
    }
    return budget;
  }
  const proto: unknown = Object.getPrototypeOf(node);
  if (proto !== Object.prototype && proto !== null) return -1;
  for (const key in node) {
    const v: unknown = (node as { [key: string]: unknown })[key];
    if (isJsonLeaf(v)) continue;
    if (typeof v !== "object" || (budget = shapedWalk(v as object, depthLeft - 1, budget)) < 0) return -1;
  }
  return budget;
}

/** A JSON scalar that survives a text round trip unchanged. */
function isJsonLeaf(v: unknown): boolean {
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(v) && !Object.is(v, -0);
    case "object":
      return v === null;
    default:
      return false;
  }
}

/** Rejects invalid UTF-8; keeps a leading BOM stripped, as the Encoding standard's default does. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
/** Replaces invalid UTF-8 with U+FFFD: only for peeking at a prefix that may end mid-character. */
const lenientUtf8 = new TextDecoder("utf-8");

/** Decodes UTF-8 bytes, or returns `undefined` when they are not valid UTF-8. Never throws. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** How much of an unparsed message {@link peekRequestId} looks at. */
export const PEEK_WINDOW = 1024;

/**
 * Reads a request's id from the first {@link PEEK_WINDOW} characters of a message too
 * large to parse, so the error reply can still name it. Returns the id only when, within
 * the window, the top-level object shows a valid `id` (string or integer) and a `method`
 * and no `result` or `error` (a response's id names one of *our* requests, so echoing it
 * would answer the wrong thing). Anything else, a syntax error included, gives `null`.
 */
export function peekRequestId(input: string | Uint8Array): string | number | null {
  const text = typeof input === "string" ? input : lenientUtf8.decode(input.subarray(0, PEEK_WINDOW));
  const end = Math.min(text.length, PEEK_WINDOW);
  let i = skipSpace(text, 0, end);
  if (text.charCodeAt(i) !== 0x7b /* { */) return null;
  let id: string | number | null = null;
  let method = false;
  for (i = skipSpace(text, i + 1, end); i < end; i = skipSpace(text, i + 1, end)) {
    if (text.charCodeAt(i) !== 0x22 /* " */) return null;
    const keyEnd = skipString(text, i, end);
    if (keyEnd < 0) return null;
    const key = text.slice(i, keyEnd);
    i = skipSpace(text, keyEnd, end);
    if (text.charCodeAt(i) !== 0x3a /* : */) return null;
    const valueStart = skipSpace(text, i + 1, end);
    const valueEnd = skipValue(text, valueStart, end);
    if (valueEnd < 0) return null;
    if (key === '"id"') {
      id = parseId(text.slice(valueStart, valueEnd));
      if (id === null) return null;
    } else if (key === '"method"') method = true;
    else if (key === '"result"' || key === '"error"') return null;
    if (id !== null && method) return id;
    i = skipSpace(text, valueEnd, end);
    if (text.charCodeAt(i) !== 0x2c /* , */) return null;
  }
  return null;
}

/** Parses a JSON literal as a request id, or `null` when it is not a string or integer. */
function parseId(literal: string): string | number | null {
  try {
    const v: unknown = JSON.parse(literal);
    return typeof v === "string" || (typeof v === "number" && Number.isInteger(v)) ? v : null;
  } catch {
    return null;
  }
}

/** Index of the first non-whitespace character at or after `i` (at most `end`). */
function skipSpace(text: string, i: number, end: number): number {
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** Index just past the string literal opening at `i`, or -1 when it does not close before `end`. */
function skipString(text: string, i: number, end: number): number {
  for (i++; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i + 1;
  }
  return -1;
}

/** Index just past the JSON value starting at `i`, or -1 when it does not end before `end`. */
function skipValue(text: string, i: number, end: number): number {
  let depth = 0;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = skipString(text, i, end) - 1;
      if (i < 0) return -1;
      if (depth === 0) return i + 1;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (c === 0x2c || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) return i;
  }
  return -1;
}
