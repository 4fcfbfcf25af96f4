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
 *   only a message with that many brackets pays for the exact, stack-bounded walk of the
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
export function merged(base: object | undefined, extra?: object): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  if (base !== undefined) copyOwn(out, base);
  if (extra !== undefined) copyOwn(out, extra);
  return out;
}

function copyOwn(out: { [key: string]: unknown }, from: object): void {
  // for-in, not Object.keys: the same keys in the same order without a fresh array of them
  // per copy (a modern round trip made six), once inherited keys are skipped.
  for (const k in from) {
    if (!hasOwnProperty.call(from, k)) continue;
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

/**
 * Whether `text` may hold a JSON number past the double range (about 1.8e308, which
 * `JSON.parse` reads as ±Infinity). A number of k integer digits and exponent x is about
 * 10^(k-1+x): past the range only with an exponent of three digits or more after a digit,
 * or, with two at most, 210 integer digits or more in a row (JSON has no leading zeros). A
 * string that looks so (`"v2e100"`) costs a walk of the value, never a refusal.
 */
export function mayOverflow(text: string): boolean {
  return LONG_EXPONENT.test(text) || mayHoldDigitRun(text);
}

/**
 * The two shapes are looked for apart: as one alternation (`/\d[eE]\+?\d{3}|\d{210}/`) the
 * engine tried both at every character, about 2,000 instructions on a 150-character
 * `tools/call` (a fifth of its `JSON.parse`) against 600 for the exponent's alone, and
 * `\d{210}` alone costs as much again on a message of 300 characters.
 */
const LONG_EXPONENT = /\d[eE]\+?\d{3}/;
const DIGIT_RUN = 210;
const LONG_DIGIT_RUN = /\d{210}/;

/**
 * Whether `text` holds {@link DIGIT_RUN} digits in a row. Any run that long covers one
 * position of every residue modulo its length, so it covers one of the positions
 * `DIGIT_RUN - 1`, `2 * DIGIT_RUN - 1`, …: where none of those is a digit (almost always),
 * there is no run, found in `length / 210` reads; otherwise the text is searched.
 */
function mayHoldDigitRun(text: string): boolean {
  for (let i = DIGIT_RUN - 1; i < text.length; i += DIGIT_RUN) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) return LONG_DIGIT_RUN.test(text);
  }
  return false;
}

/**
 * Whether a value holds a number that is not finite (±Infinity, NaN) anywhere (see
 * {@link mayOverflow}). An explicit stack, as any depth a caller allows may come; at most
 * `maxNodes` containers are walked, past which the value counts as holding one (a
 * caller-built value whose getter answers a cycle the second time it is read must not
 * walk for ever).
 */
export function holdsNonFinite(value: unknown, maxNodes = Infinity): boolean {
  const stack: unknown[] = [value];
  let visited = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return true;
    } else if (typeof v === "object" && v !== null) {
      if (++visited > maxNodes) return true;
      for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push(child);
    }
  }
  return false;
}

/** Result of {@link checkNesting}: `non-finite` is within the bounds, holding a number that is not finite (JSON has none). */
export type NestingCheck = "ok" | "too-deep" | "too-many" | "non-finite";

/**
 * Walks a parsed value and reports whether some array or object sits deeper than `maxDepth` (the outermost
 * container is depth 1) or whether more than `maxNodes` containers were visited. The node
 * budget only matters for a caller-built value: a parsed one of `n` bytes holds at most
 * `n / 2` containers, while a built one may share children (a DAG whose walk is
 * exponential) or be cyclic (which the depth bound cuts short). The walk recurses at most
 * {@link RECURSIVE_WALK_DEPTH} frames; a larger `maxDepth` takes an explicit stack, so no
 * bound a caller sets can overflow ours. Reading a property may run a getter; the caller
 * catches what it throws. On the way it notes a number that is not finite (±Infinity, NaN:
 * a framework's `JSON.parse` of `1e999`), which has no JSON form: reported only once the
 * bounds are known to hold, so it never hides a message too deep.
 */
export function checkNesting(root: unknown, maxDepth: number, maxNodes: number): NestingCheck {
  if (typeof root !== "object" || root === null) return typeof root === "number" && root - root !== 0 ? "non-finite" : "ok";
  if (maxDepth < 1) return "too-deep";
  // The flag is this walk's: a getter that decodes another value meanwhile gets its own,
  // and what this walk saw before it is put back after it.
  const outer = sawNonFinite;
  sawNonFinite = false;
  try {
    return nesting(root, maxDepth, maxNodes);
  } finally {
    sawNonFinite = outer;
  }
}

/** {@link checkNesting} of a container, recording what it sees in {@link sawNonFinite}. */
function nesting(root: object, maxDepth: number, maxNodes: number): NestingCheck {
  if (maxDepth <= RECURSIVE_WALK_DEPTH) {
    const left = nestingWalk(root, maxDepth, maxNodes);
    return left >= 0 ? (sawNonFinite ? "non-finite" : "ok") : left === TOO_DEEP ? "too-deep" : "too-many";
  }
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
        } else if (typeof child === "number" && child - child !== 0) sawNonFinite = true;
      }
    } else {
      const record = value as Record<string, unknown>;
      for (const key in record) {
        const child = record[key];
        if (typeof child === "object" && child !== null) {
          if (depth > maxDepth) return "too-deep";
          values.push(child);
          depths.push(depth);
        } else if (typeof child === "number" && child - child !== 0) sawNonFinite = true;
      }
    }
  }
  return sawNonFinite ? "non-finite" : "ok";
}

/** Set by a {@link checkNesting} walk that met a number that is not finite (`x - x` is NaN only for ±Infinity and NaN). */
let sawNonFinite = false;

/**
 * Up to this `maxDepth` (the default is 64) {@link checkNesting} walks by recursion, which
 * allocates nothing; its explicit stacks cost ~900 B per message crossing an in-memory pair
 * (a sixth of what a round trip allocates). The bound keeps the recursion far from the
 * engine's stack limit whatever the value.
 */
const RECURSIVE_WALK_DEPTH = 256;
const TOO_DEEP = -1;
const TOO_MANY = -2;

/** {@link checkNesting} of a container by recursion: the node budget left after it, or {@link TOO_DEEP} / {@link TOO_MANY}. */
function nestingWalk(node: object, depthLeft: number, budget: number): number {
  if (budget < 1) return TOO_MANY;
  budget--;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i];
      if (typeof child !== "object" || child === null) {
        if (typeof child === "number" && child - child !== 0) sawNonFinite = true;
        continue;
      }
      if (depthLeft <= 1) return TOO_DEEP;
      if ((budget = nestingWalk(child, depthLeft - 1, budget)) < 0) return budget;
    }
    return budget;
  }
  for (const key in node) {
    const child: unknown = (node as { [key: string]: unknown })[key];
    if (typeof child !== "object" || child === null) {
      if (typeof child === "number" && child - child !== 0) sawNonFinite = true;
      continue;
    }
    if (depthLeft <= 1) return TOO_DEEP;
    if ((budget = nestingWalk(child, depthLeft - 1, budget)) < 0) return budget;
  }
  return budget;
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
  if (isJsonLeaf(value)) return true;
  try {
    return typeof value === "object" && shapedWalk(value as object, maxDepth, maxNodes) >= 0;
  } catch {
    // A getter that throws (or a proxy trap): not plain data, so the caller takes the encoder's path, which reports it.
    return false;
  }
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

/**
 * A deep copy of `value` as plain JSON data sharing no object with it, or `undefined` when
 * it has no JSON form (a BigInt, a function, a cycle, a `toJSON` that throws). What the
 * session keeps of an application's input or of a received message goes through this, so
 * that the application editing its object later, or one an output handed it, cannot change
 * the state between steps (README: the state changes only through `step`). Plain data (what
 * {@link isJsonShaped} accepts, up to {@link COPY_DEPTH} deep, and object members that are
 * `undefined`, left out) is copied member by member;
 * anything else as its JSON text would give it back (an `undefined` member dropped, a `Date`
 * as its string), which is what the wire carries of it.
 */
export function jsonCopy<T>(value: T): T | undefined {
  try {
    const copy = copyShaped(value, COPY_DEPTH);
    if (copy !== NOT_SHAPED) return copy as T;
  } catch {
    // A getter that throws: the JSON path below reports it.
  }
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

/** How deep {@link jsonCopy} copies directly; deeper (or cyclic) values take the JSON path. */
const COPY_DEPTH = 64;

/** {@link copyShaped}'s answer for a value that is not plain JSON data. */
const NOT_SHAPED: unique symbol = Symbol("not plain JSON data");

function copyShaped(v: unknown, depthLeft: number): unknown {
  if (isJsonLeaf(v)) return v;
  if (typeof v !== "object" || depthLeft < 1) return NOT_SHAPED;
  if (Array.isArray(v)) {
    const copy: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) if ((copy[i] = copyShaped(v[i], depthLeft - 1)) === NOT_SHAPED) return NOT_SHAPED;
    return copy;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return NOT_SHAPED;
  const copy: { [key: string]: unknown } = {};
  for (const key in v) {
    const value = (v as { [key: string]: unknown })[key];
    // Left out, as JSON text leaves it out: arguments built as `{ opt: maybe }` are common,
    // and the JSON round trip they would otherwise take costs several times the copy.
    if (value === undefined) continue;
    const member = copyShaped(value, depthLeft - 1);
    if (member === NOT_SHAPED) return NOT_SHAPED;
    // Defined, not assigned: an own `__proto__` key stays data (see the header).
    if (key === "__proto__") Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true });
    else copy[key] = member;
  }
  return copy;
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
const strictUtf8 = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true });
/** Replaces invalid UTF-8 with U+FFFD: only for peeking at a prefix that may end mid-character. */
const lenientUtf8 = /* @__PURE__ */ new TextDecoder("utf-8");

/** Decodes UTF-8 bytes, or returns `undefined` when they are not valid UTF-8. Never throws. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The bytes a chunk of a stream holds, as a `Uint8Array`: an `ArrayBuffer` (what a WebSocket
 * with `binaryType = "arraybuffer"` delivers) or any view of one (a `DataView`, a
 * `Uint16Array`) is read as its bytes, not as elements; undefined for text and anything
 * else. The framing decoders and the stream channel read a chunk through it.
 */
export function chunkBytes(chunk: unknown): Uint8Array | undefined {
  // A view is asked first: `instanceof` on a Proxy runs its getPrototypeOf trap, which may throw; on a real view it cannot.
  if (ArrayBuffer.isView(chunk)) return chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (typeof chunk !== "object" || chunk === null) return undefined;
  try {
    if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  } catch {
    // A Proxy whose getPrototypeOf trap throws (a real view never gets here): no bytes, rather than a throw out of the feed.
  }
  return undefined;
}

/**
 * The length of the UTF-8 character starting at `b[i]` (1 to 4 bytes, all before `end`), or
 * 0 when the bytes there spell none (RFC 3629: no overlong forms, surrogates, or code
 * points past U+10FFFF; the second byte's range is narrower after E0, ED, F0 and F4).
 */
export function utf8CharLength(b: Uint8Array, i: number, end: number): number {
  const lead = b[i];
  if (lead < 0x80) return 1;
  const more = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
  if (more === 0 || i + more >= end) return 0;
  const second = b[i + 1];
  if (second < (lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80) || second > (lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf)) return 0;
  for (let k = 2; k <= more; k++) if ((b[i + k] & 0xc0) !== 0x80) return 0;
  return more + 1;
}

/** How much of the start of an unparsed message {@link peekHead} looks at. */
export const PEEK_WINDOW = 1024;

/** How much of the end of an unparsed message {@link peekLastId} looks at. */
export const TAIL_WINDOW = 256;

/** What the start of a message too large to parse shows of its top-level object. */
export interface PeekedHead {
  /** A valid `id` (string or integer) seen before the scan stopped, else null. */
  id: string | number | null;
  /** A `method` member was seen: shaped like a request. */
  method: boolean;
  /** A `result` or `error` member was seen: shaped like a response. */
  response: boolean;
}

/**
 * Scans the top-level members in the first {@link PEEK_WINDOW} characters of a message
 * too large to parse. Stops at the first `result` or `error` (a response), once both an
 * `id` and a `method` were seen (a request), at the end of the window, or at anything
 * that is not a well-formed member; what was seen until then is the answer.
 */
export function peekHead(input: string | Uint8Array): PeekedHead {
  const seen: PeekedHead = { id: null, method: false, response: false };
  const text = typeof input === "string" ? input : lenientUtf8.decode(input.subarray(0, PEEK_WINDOW));
  const end = Math.min(text.length, PEEK_WINDOW);
  let i = skipSpace(text, 0, end);
  if (text.charCodeAt(i) !== 0x7b /* { */) return seen;
  for (i = skipSpace(text, i + 1, end); i < end; i = skipSpace(text, i + 1, end)) {
    if (text.charCodeAt(i) !== 0x22 /* " */) return seen;
    const keyEnd = skipString(text, i, end);
    if (keyEnd < 0) return seen;
    const key = text.slice(i, keyEnd);
    i = skipSpace(text, keyEnd, end);
    if (text.charCodeAt(i) !== 0x3a /* : */) return seen;
    const valueStart = skipSpace(text, i + 1, end);
    if (key === '"result"' || key === '"error"') {
      seen.response = true;
      return seen;
    }
    const valueEnd = skipValue(text, valueStart, end);
    if (valueEnd < 0) return seen;
    if (key === '"id"') {
      seen.id = parseId(text.slice(valueStart, valueEnd));
      if (seen.id === null) return seen;
    } else if (key === '"method"') seen.method = true;
    if (seen.id !== null && seen.method) return seen;
    i = skipSpace(text, valueEnd, end);
    if (text.charCodeAt(i) !== 0x2c /* , */) return seen;
  }
  return seen;
}

/**
 * Reads a request's id from the start of a message too large to parse, so the error
 * reply can still name it: the id only when, within {@link PEEK_WINDOW}, the top-level
 * object shows a valid `id` and a `method` and no `result` or `error` before them (a
 * response's id names one of *our* requests, so echoing it would answer the wrong
 * thing). Anything else, a syntax error included, gives `null`.
 */
export function peekRequestId(input: string | Uint8Array): string | number | null {
  const seen = peekHead(input);
  return seen.method && !seen.response ? seen.id : null;
}

/**
 * The `id` of a message too large to parse when it is the last member of its top-level
 * object (the official TypeScript SDK 1.x writes responses as `{result, jsonrpc, id}`),
 * read from the message's last characters: `"id": <string or integer> }` at the very end,
 * after a `,` or `{`. The final `}` of a well-formed object closes the top level, so the
 * scalar just before it is a top-level member's value; quotes inside strings are escaped,
 * so `"id"` there cannot be part of a string. Anything else gives `null`.
 */
export function peekLastId(tail: string | Uint8Array): string | number | null {
  const text = typeof tail === "string" ? tail : lenientUtf8.decode(tail.subarray(Math.max(0, tail.length - TAIL_WINDOW)));
  let i = text.length - 1;
  const stop = Math.max(0, text.length - TAIL_WINDOW);
  const back = (j: number): number => {
    while (j >= stop && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x0a || text.charCodeAt(j) === 0x0d || text.charCodeAt(j) === 0x09)) j--;
    return j;
  };
  i = back(i);
  if (i < stop || text.charCodeAt(i) !== 0x7d /* } */) return null;
  const valueEnd = back(i - 1) + 1;
  let valueStart = valueEnd - 1;
  if (valueStart < stop) return null;
  if (text.charCodeAt(valueStart) === 0x22) {
    // A string: back to its opening quote, the first one not escaped by an odd run of backslashes.
    for (valueStart--; valueStart >= stop; valueStart--) {
      if (text.charCodeAt(valueStart) !== 0x22) continue;
      let slashes = 0;
      while (valueStart - 1 - slashes >= stop && text.charCodeAt(valueStart - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) break;
    }
  } else {
    while (valueStart >= stop && /[0-9-]/.test(text[valueStart])) valueStart--;
    valueStart++;
  }
  if (valueStart < stop || valueStart >= valueEnd) return null;
  const colon = back(valueStart - 1);
  if (colon < stop || text.charCodeAt(colon) !== 0x3a) return null;
  const keyEnd = back(colon - 1);
  if (keyEnd - 3 < stop || text.slice(keyEnd - 3, keyEnd + 1) !== '"id"') return null;
  const before = back(keyEnd - 4);
  if (before < stop || (text.charCodeAt(before) !== 0x2c && text.charCodeAt(before) !== 0x7b)) return null;
  return parseId(text.slice(valueStart, valueEnd));
}

/** Parses a JSON literal as a request id, or `null` when it is not a string or a safe integer (the codec's rule: past 2^53 a number names no one integer). */
function parseId(literal: string): string | number | null {
  try {
    const v: unknown = JSON.parse(literal);
    return typeof v === "string" || Number.isSafeInteger(v) ? (v as string | number) : null;
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
