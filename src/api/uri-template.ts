/**
 * URI templates, RFC 6570 levels 1-4: expansion, and its inverse for routing URIs.
 *
 * Spec: 2025-11-25 and draft `server/resources` ("Resource Templates": "Resource templates
 * allow servers to expose parameterized resources using URI templates"); RFC 6570 §2
 * (syntax), §3 (expansion) and Appendix A (the operator table below).
 *
 * Theory of operation. A template is parsed once, when it is registered, into literals
 * and expressions (an operator and its variables, each with an optional `:n` prefix or
 * `*` explode). Anything RFC 6570 does not define is refused with the reason, operators
 * it reserves for extensions (`{=x}`, `{!x}` …) included, and a prefix of a list or map
 * value is refused when expanding (§2.4.1), as the RFC's negative test suite expects.
 *
 * Expansion is the RFC's algorithm: values are strings, lists or maps; a literal is
 * copied where the URI grammar allows its characters and percent-encoded elsewhere.
 *
 * Matching walks the parts left to right with `startsWith` / `indexOf` and a scan for
 * the characters that end an expression; no regular expression is ever built from a
 * template, so a template or URI never costs more than a linear scan per part. A literal
 * matches as written or as expansion encodes it (`café/` or `caf%C3%A9/`). The text an
 * expression may take ends at its first stop character (below, plus the leading character
 * of any expression right after it: in `{+path}{?q}` the path ends at the first `?`) or
 * at the literal after it: its first occurrence, or the URI's end when that literal ends
 * the template (the shortest run, as at level 1; `x://{+a}.json{?q}` cannot give `a` a
 * `.json`). Per operator:
 * - `{x}`: a required, non-empty value without a raw `/`, `?` or `#` (level 1 encodes
 *   them, so a raw one means another URI shape); `{x,y}` splits at `,`.
 * - `{+x}`, `{#x}`: reserved expansion keeps `/`, `?`, `#` … raw, so the value may hold
 *   them (`file:///{+path}` matches `file:///docs/a/b.md` as `docs/a/b.md`); `{+x}` is
 *   required, `{#x}` absent without its `#`.
 * - `{/x}`, `{.x}`: one path segment or label each, ending at `?` or `#` (and `/` for a
 *   label); absent without the leading `/` or `.`, or when the literal after the
 *   expression, which may start with that character (`{/ver}/{id}`), is nowhere past it.
 *   An exploded last variable (`{/path*}`, `{.ext*}`) takes all remaining segments as one
 *   string, joined by the separator, and so does the last variable of `{.x}` (a `.` is
 *   unreserved: `{.ext}` of `tar.gz`); in the other unnamed operators an explode matches
 *   as the plain variable (both join with `,`).
 * - `{;x}`, `{?x}`, `{&x}`: `name=value` pairs in any order, each name at most once; a pair
 *   of another name does not match; a variable absent from the URI is absent from the
 *   result; `x=` (or a bare `x`) is the empty string. Consecutive `{?…}{&…}` (or `{;…}{;…}`)
 *   expressions are one list of pairs, which may open with `&` (`{?a}{&b}` without `a`
 *   expands so). Pairs end at `#` (`;` pairs also at `/` and `?`).
 * Variables are taken positionally (`{x,y}` with only `y` defined expands to what matches
 * as `x`): matching inverts expansion only up to what the URI reveals. A prefix `{x:3}`
 * matches a value of at most 3 characters. Empty values match only in named pairs.
 * Templates whose URIs could not be split back into variables parse (they expand) but say
 * why in `unmatchable` (they never match), and `McpServer` refuses them at registration: a
 * variable used twice; an expression without a leading operator (`{x}`, `{+x}`) right
 * after another; one whose leading character is the separator inside the expression just
 * before it (`{/a,b}{/c}`, `{.a*}{.b}`); an explode on a named operator (`{?list*}`: its
 * names are the data) or before another variable (`{/list*,x}`).
 *
 * Every matched value is percent-decoded, a character at a time (an escape that spells no
 * UTF-8 character, and a `%` that starts no escape, are kept as written), and
 * what could step out of the place it names does not match, whatever the operator: a
 * value containing NUL, one with a `.` or `..` segment between `/` or `\` (`..`,
 * `../etc/passwd`, `..\win.ini`, `a/../b`), or an absolute path (starting with `/` or
 * `\`, or a drive like `C:\`) (`server/resources`, "Security Considerations": servers
 * MUST validate all resource URIs; the draft adds that they MUST sanitize file paths to
 * prevent directory traversal). `{+path}` and `{/path*}` are exactly where
 * `../etc/passwd` would arrive raw. Values are decoded once, as the URI encodes them: an
 * application that decodes one again (`%252e%252e` is handed over as `%2e%2e`) owns that
 * second decode and its checks. A drive-relative Windows path (`D:x`) is not refused: `a:1`
 * is an ordinary value, and only an application joining it to a Windows path can tell.
 */

import { utf8CharLength } from "../jsonrpc/safe-json.js";

/** A variable's value for expansion: a string, a list, or a map (RFC 6570 §2.3); `undefined`, `[]` and `{}` are undefined. */
export type UriTemplateValue = string | readonly string[] | Readonly<Record<string, string>>;

/** One variable of an expression. */
export interface UriTemplateVariable {
  readonly name: string;
  /** The `:n` prefix length, if any. */
  readonly prefix?: number;
  /** The `*` explode modifier. */
  readonly explode: boolean;
}

/** One `{…}` expression: its operator (`""` for none) and variables. */
export interface UriTemplateExpression {
  readonly operator: "" | "+" | "#" | "." | "/" | ";" | "?" | "&";
  readonly variables: readonly UriTemplateVariable[];
}

/** A parsed template. */
export interface UriTemplate {
  /** The template as written. */
  readonly source: string;
  /** `[literal, expression, literal, …]`: literals (maybe empty) at even indexes, each expression's text between its braces at odd ones (`id`, `+path`, `?q,limit`). */
  readonly parts: readonly string[];
  /** The parsed expressions, `expressions[k]` being `parts[2k + 1]`. */
  readonly expressions: readonly UriTemplateExpression[];
  /** The variable names, in order of first use. */
  readonly names: readonly string[];
  /** Why `matchUriTemplate` cannot split this template's URIs back into variables (it never matches then); absent when it can. */
  readonly unmatchable?: string;
}

type Operator = UriTemplateExpression["operator"];

/**
 * RFC 6570 Appendix A, plus what matching needs: `stops` are the characters that end the
 * expression's text (ones its expansion always encodes and that delimit other URI parts).
 */
const OPS: Record<Operator, { first: string; sep: string; named: boolean; ifemp: string; reserved: boolean; stops: string }> = {
  "": { first: "", sep: ",", named: false, ifemp: "", reserved: false, stops: "/?#" },
  "+": { first: "", sep: ",", named: false, ifemp: "", reserved: true, stops: "" },
  "#": { first: "#", sep: ",", named: false, ifemp: "", reserved: true, stops: "" },
  ".": { first: ".", sep: ".", named: false, ifemp: "", reserved: false, stops: "/?#" },
  "/": { first: "/", sep: "/", named: false, ifemp: "", reserved: false, stops: "?#" },
  ";": { first: ";", sep: ";", named: true, ifemp: "", reserved: false, stops: "/?#" },
  "?": { first: "?", sep: "&", named: true, ifemp: "=", reserved: false, stops: "#" },
  "&": { first: "&", sep: "&", named: true, ifemp: "=", reserved: false, stops: "#" },
};

const UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
const RESERVED = ":/?#[]@!$&'()*+,;=";
const HEX = "0123456789ABCDEFabcdef";

/** True when a `%` at `i` starts a percent-encoded triplet. */
function isPct(s: string, i: number): boolean {
  return s[i] === "%" && i + 2 < s.length && HEX.includes(s[i + 1]) && HEX.includes(s[i + 2]);
}

/** RFC 6570 `varname`: `varchar *( ["."] varchar )`, a varchar being ALPHA, DIGIT, `_` or a pct-triplet. */
function isVarName(name: string): boolean {
  let dot = true; // no "." first, none doubled
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === ".") {
      if (dot) return false;
      dot = true;
      continue;
    }
    if (isPct(name, i)) i += 2;
    else if (c === "-" || c === "~" || !UNRESERVED.includes(c)) return false;
    dot = false;
  }
  return !dot;
}

/**
 * Percent-encodes `s` as UTF-8, keeping unreserved characters, and with `reserved` also
 * reserved ones and existing pct-triplets (RFC 6570 §3.2.1 "allow U" / "allow U+R").
 */
function encode(s: string, reserved: boolean): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (UNRESERVED.includes(c) || (reserved && (RESERVED.includes(c) || isPct(s, i)))) {
      out += c;
      continue;
    }
    const cp = s.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (cp < 0x80) out += "%" + (cp < 0x10 ? "0" : "") + cp.toString(16).toUpperCase();
    else {
      try {
        out += encodeURIComponent(String.fromCodePoint(cp));
      } catch {
        out += "%EF%BF%BD"; // a lone surrogate: U+FFFD, as TextEncoder would write it
      }
    }
  }
  return out;
}

/** A literal as expansion writes it (§3.1): URI characters and pct-triplets copied, others encoded. */
function encodeLiteral(s: string): string {
  return encode(s, true);
}

/** The first `n` code points of `s` (§2.4.1 counts characters, not UTF-16 units). */
function prefixOf(s: string, n: number): string {
  let i = 0;
  for (let k = 0; k < n && i < s.length; k++) i += s.codePointAt(i)! > 0xffff ? 2 : 1;
  return s.slice(0, i);
}

/** Parses one expression's text (between the braces), or says why it is none. */
function parseExpression(text: string): UriTemplateExpression | string {
  if (text.length === 0) return "empty expression";
  let operator: Operator = "";
  let body = text;
  if ("+#./;?&".includes(text[0])) {
    operator = text[0] as Operator;
    body = text.slice(1);
  } else if ("=,!@|".includes(text[0])) return `operator "${text[0]}" is reserved for extensions`;
  const variables: UriTemplateVariable[] = [];
  for (const spec of body.split(",")) {
    let name = spec;
    let variable: UriTemplateVariable;
    if (spec.endsWith("*")) {
      name = spec.slice(0, -1);
      if (name.includes(":")) return `"${spec}": a prefix and an explode together`;
      variable = { name, explode: true };
    } else {
      const colon = spec.indexOf(":");
      if (colon >= 0) {
        name = spec.slice(0, colon);
        const digits = spec.slice(colon + 1);
        // max-length = %x31-39 0*3DIGIT: 1 to 9999, no leading zero.
        if (!/^[1-9][0-9]{0,3}$/.test(digits)) return `invalid prefix ":${digits}"`;
        variable = { name, prefix: Number(digits), explode: false };
      } else variable = { name, explode: false };
    }
    if (!isVarName(name)) return `invalid variable name "${name}"`;
    variables.push(variable);
  }
  return { operator, variables };
}

/**
 * Parses an RFC 6570 template. Returns the reason as a string when it is not one (an
 * unbalanced brace, an empty or invalid expression, a reserved operator, a bad modifier).
 * Literals are taken as written; expansion encodes what the URI grammar does not allow.
 */
export function parseUriTemplate(source: string): UriTemplate | string {
  const parts: string[] = [];
  const expressions: UriTemplateExpression[] = [];
  let literal = "";
  for (let i = 0; i < source.length; ) {
    const ch = source[i];
    if (ch === "}") return `unbalanced "}" at ${i}`;
    if (ch !== "{") {
      literal += ch;
      i++;
      continue;
    }
    const end = source.indexOf("}", i + 1);
    if (end < 0) return `unclosed "{" at ${i}`;
    const text = source.slice(i + 1, end);
    if (text.includes("{")) return `unclosed "{" at ${i}`;
    const e = parseExpression(text);
    if (typeof e === "string") return `${e} (at ${i}: "{${text}}")`;
    parts.push(literal, text);
    expressions.push(e);
    literal = "";
    i = end + 1;
  }
  parts.push(literal);
  const names: string[] = [];
  let unmatchable: string | undefined;
  for (let k = 0; k < expressions.length; k++) {
    const e = expressions[k];
    for (let v = 0; v < e.variables.length; v++) {
      const { name, explode } = e.variables[v];
      if (names.includes(name)) unmatchable ??= `variable "${name}" appears twice`;
      else names.push(name);
      if (explode && OPS[e.operator].named) unmatchable ??= `{${parts[2 * k + 1]}}: an exploded named variable's names are its data`;
      if (explode && v < e.variables.length - 1) unmatchable ??= `{${parts[2 * k + 1]}}: an exploded variable must come last`;
    }
    if (k > 0 && parts[2 * k] === "") unmatchable ??= adjacency(expressions[k - 1], e, `{${parts[2 * k - 1]}}`, `{${parts[2 * k + 1]}}`);
  }
  const t: { -readonly [K in keyof UriTemplate]: UriTemplate[K] } = { source, parts, expressions, names };
  if (unmatchable !== undefined) t.unmatchable = unmatchable;
  return t;
}

/** Why two adjacent expressions' boundary is invisible in a URI, or undefined when it is not. */
function adjacency(a: UriTemplateExpression, b: UriTemplateExpression, at: string, bt: string): string | undefined {
  const first = OPS[b.operator].first;
  if (first === "") return `${at} and ${bt} are adjacent; their boundary is ambiguous`;
  if (mergesInto(a.operator, b.operator)) return undefined;
  const several = a.variables.length > 1 || a.variables[a.variables.length - 1].explode;
  if (several && OPS[a.operator].sep === first) return `${at} and ${bt} are adjacent and "${first}" separates both; their boundary is ambiguous`;
  return undefined;
}

/** Consecutive named expressions with one separator (`{?a}{&b}`, `{;a}{;b}`) match as one list of pairs. */
function mergesInto(a: Operator, b: Operator): boolean {
  return (b === "&" && (a === "?" || a === "&")) || (b === ";" && a === ";");
}

// --- expansion ----------------------------------------------------------------------------

function defined(v: UriTemplateValue | undefined | null): v is UriTemplateValue {
  if (v === undefined || v === null) return false;
  if (typeof v === "string") return true;
  return Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0;
}

/** RFC 6570 Appendix A: one expression's expansion. Throws on a prefix of a list or map (§2.4.1). */
function expandExpression(e: UriTemplateExpression, vars: Readonly<Record<string, UriTemplateValue | undefined>>): string {
  const op = OPS[e.operator];
  let out = "";
  let first = true;
  for (const { name, prefix, explode } of e.variables) {
    const value = Object.hasOwn(vars, name) ? vars[name] : undefined;
    if (!defined(value)) continue;
    out += first ? op.first : op.sep;
    first = false;
    if (typeof value === "string") {
      if (op.named) out += name + (value === "" ? op.ifemp : "=");
      out += encode(prefix === undefined ? value : prefixOf(value, prefix), op.reserved);
      continue;
    }
    if (prefix !== undefined) throw new TypeError(`URI template: the prefix modifier of "${name}" does not apply to a list or map`);
    const pairs: [string | undefined, string][] = Array.isArray(value) ? value.map((item: string) => [undefined, item]) : Object.entries(value);
    if (!explode) {
      if (op.named) out += name + "=";
      out += pairs.map(([k, v]) => (k === undefined ? "" : encode(k, op.reserved) + ",") + encode(v, op.reserved)).join(",");
      continue;
    }
    // Exploded: each item its own element, a map's entries as key=value, named ones as name=item.
    out += pairs
      .map(([k, v]) => {
        if (k === undefined && !op.named) return encode(v, op.reserved);
        const key = k === undefined ? name : encode(k, op.reserved);
        return key + (v === "" && op.named ? op.ifemp : "=" + encode(v, op.reserved));
      })
      .join(op.sep);
  }
  return out;
}

/**
 * RFC 6570 expansion of `template` with `vars` (a missing name, `[]` or `{}` is
 * undefined and expands to nothing). Throws a TypeError for a prefix of a list or map.
 */
export function expandUriTemplate(template: UriTemplate, vars: Readonly<Record<string, UriTemplateValue | undefined>>): string {
  const { parts, expressions } = template;
  let out = encodeLiteral(parts[0]);
  for (let k = 0; k < expressions.length; k++) out += expandExpression(expressions[k], vars) + encodeLiteral(parts[2 * k + 2]);
  return out;
}

// --- matching -------------------------------------------------------------------------------

/** A Windows drive path's start (`C:\`, `c:/`, or the drive alone): not any `x:1`, which a value may well be. */
const DRIVE = /^[A-Za-z]:([/\\]|$)/;

/** True when a decoded value has no NUL, no `.` / `..` segment, and is not absolute (see the module comment). */
function safeValue(value: string): boolean {
  if (value.includes("\0")) return false;
  // An absolute path (`/etc/passwd`, `\\host\share`, `C:\…`) leaves any directory it is joined to.
  if (value.startsWith("/") || value.startsWith("\\") || DRIVE.test(value)) return false;
  for (const segment of value.split(/[/\\]/)) {
    if (segment === "." || segment === "..") return false;
  }
  return true;
}

/**
 * Percent-decodes `value` a character at a time: escapes that spell a UTF-8 character
 * become it; one that does not (`%FF`, a cut `%E2%82`) stays as written, as does a `%`
 * that starts no escape. Not all or nothing: one bad escape beside `%2e%2e` would leave
 * them undecoded, for the traversal check to miss and the application to decode later.
 */
function decode(value: string): string {
  if (!value.includes("%")) return value;
  // Into UTF-16 code units, never longer than the value: a string grown a character at a time
  // took seconds of garbage collection for a value of megabytes (a request may carry 4 MiB).
  const out = new Uint16Array(value.length);
  const bytes = new Uint8Array(Math.floor(value.length / 3)); // a run of escapes' bytes, reused
  let o = 0;
  for (let i = 0; i < value.length; ) {
    if (!isPct(value, i)) {
      out[o++] = value.charCodeAt(i++);
      continue;
    }
    let end = i;
    while (isPct(value, end)) end += 3;
    const count = (end - i) / 3;
    for (let k = 0; k < count; k++) bytes[k] = (hexValue(value.charCodeAt(i + 3 * k + 1)) << 4) | hexValue(value.charCodeAt(i + 3 * k + 2));
    for (let k = 0; k < count; ) {
      const n = utf8CharLength(bytes, k, count);
      if (n === 0) {
        for (let m = i + 3 * k; m < i + 3 * k + 3; m++) out[o++] = value.charCodeAt(m);
        k++;
        continue;
      }
      const cp = codePointOf(bytes, k, n);
      if (cp > 0xffff) {
        out[o++] = 0xd800 + ((cp - 0x10000) >> 10);
        out[o++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      } else out[o++] = cp;
      k += n;
    }
    i = end;
  }
  return stringOf(out, o);
}

/** The value of a hex digit's character code (checked by isPct). */
function hexValue(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57;
}

/** The string of `units[0, length)`, made a chunk at a time (all at once could overflow the stack; a spread iterates slowly). */
function stringOf(units: Uint16Array, length: number): string {
  let out = "";
  for (let i = 0; i < length; i += 8192) out += String.fromCharCode.apply(null, units.subarray(i, Math.min(i + 8192, length)) as unknown as number[]);
  return out;
}

/** The code point of the `n`-byte UTF-8 character at `b[k]` (checked by utf8CharLength). */
function codePointOf(b: Uint8Array, k: number, n: number): number {
  if (n === 1) return b[k];
  let cp = b[k] & (0xff >> (n + 1));
  for (let m = 1; m < n; m++) cp = (cp << 6) | (b[k + m] & 0x3f);
  return cp;
}

/**
 * `uri` with its escapes' hex digits in upper case (RFC 3986 §2.1: they are
 * case-insensitive), so that a literal matches whichever case either side wrote; the
 * length is kept, so offsets found in it hold in the URI as written.
 */
function upperEscapes(uri: string): string {
  // Most URIs have no escape to change, which a native scan tells; the others are rewritten as
  // UTF-16 code units (as decode does), not grown a character at a time.
  if (!LOWER_ESCAPE.test(uri)) return uri;
  const out = new Uint16Array(uri.length);
  for (let i = 0; i < uri.length; i++) out[i] = uri.charCodeAt(i);
  for (let i = 0; i < uri.length; i++) {
    if (!isPct(uri, i)) continue;
    // A hex digit at or past `a` is a lower-case one.
    if (out[i + 1] >= 0x61) out[i + 1] -= 0x20;
    if (out[i + 2] >= 0x61) out[i + 2] -= 0x20;
    i += 2;
  }
  return stringOf(out, uri.length);
}

/** A pct-triplet with a lower-case hex digit. */
const LOWER_ESCAPE = /%(?:[a-f][0-9A-Fa-f]|[0-9A-F][a-f])/;

/** A literal's two forms a URI may show, as written and as expansion encodes it, escapes in upper case as the URI's are (see {@link upperEscapes}). */
type LiteralForms = readonly [plain: string, encoded: string];

function formsOf(literal: string): LiteralForms {
  return [upperEscapes(literal), upperEscapes(encodeLiteral(literal))];
}

/** The length of the literal of `forms` at `pos` in `uri`, as written or as expansion encodes it; -1 when neither is there. */
function literalAt(uri: string, pos: number, [plain, encoded]: LiteralForms): number {
  if (uri.startsWith(plain, pos)) return plain.length;
  return encoded !== plain && uri.startsWith(encoded, pos) ? encoded.length : -1;
}

/** Where the literal of `forms` first occurs in `uri` at or after `from`, as written or encoded; -1 when nowhere. */
function literalIndex(uri: string, [plain, encoded]: LiteralForms, from: number): number {
  const at = uri.indexOf(plain, from);
  if (encoded === plain) return at;
  const other = uri.indexOf(encoded, from);
  return at < 0 ? other : other < 0 ? at : Math.min(at, other);
}

/** Decodes and checks one matched value; undefined when it may not be handed to a reader. */
function accept(raw: string, v: UriTemplateVariable): string | undefined {
  const value = decode(raw);
  if (!safeValue(value)) return undefined;
  if (v.prefix !== undefined && prefixOf(value, v.prefix).length !== value.length) return undefined;
  return value;
}

/** Assigns the pieces of an unnamed expression's text to its variables, in order. */
function matchUnnamed(e: UriTemplateExpression, text: string, out: Record<string, string>): boolean {
  const op = OPS[e.operator];
  const pieces = text.split(op.sep);
  const vars = e.variables;
  const last = vars[vars.length - 1];
  if (pieces.length > vars.length) {
    // More pieces than variables: the rest is the last variable's when it is exploded, or when
    // the separator is "," (a raw comma in `{x}` or `{+x}` was always part of its value) or "."
    // (unreserved, so expansion leaves it raw: `{.ext}` of `tar.gz`).
    if (!last.explode && op.sep !== "," && op.sep !== ".") return false;
    pieces.push(pieces.splice(vars.length - 1).join(op.sep));
  }
  for (let i = 0; i < pieces.length; i++) {
    if (pieces[i] === "") return false;
    const value = accept(pieces[i], vars[i]);
    if (value === undefined) return false;
    out[vars[i].name] = value;
  }
  return true;
}

/** Assigns `name=value` pairs (any order, each name once) to the variables of a group of named expressions. */
function matchNamed(group: readonly UriTemplateExpression[], text: string, out: Record<string, string>): boolean {
  for (const pair of text.split(OPS[group[0].operator].sep)) {
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq);
    let v: UriTemplateVariable | undefined;
    for (const e of group) v ??= e.variables.find((x) => x.name === name);
    if (v === undefined || Object.hasOwn(out, name)) return false;
    const value = accept(eq < 0 ? "" : pair.slice(eq + 1), v);
    if (value === undefined) return false;
    out[name] = value;
  }
  return true;
}

/**
 * Matches `uri` against `template`; returns the variables (percent-decoded) or null. A
 * variable absent from the URI (an optional `{/x}`, `{?q}` …) is absent from the result.
 * See the module comment for how each operator matches and what is refused.
 */
export function matchUriTemplate(template: UriTemplate, written: string): Record<string, string> | null {
  return template.unmatchable === undefined ? matchPrepared(template, written, upperEscapes(written)) : null;
}

/**
 * {@link matchUriTemplate} for one URI against many templates (`resources/read` tries each in
 * turn): the URI is prepared once, not once per template (for a URI of megabytes, the work
 * of a request grew with the templates registered).
 */
export function uriMatcher(written: string): (template: UriTemplate) => Record<string, string> | null {
  let uri: string | undefined;
  return (template) => (template.unmatchable === undefined ? matchPrepared(template, written, (uri ??= upperEscapes(written))) : null);
}

/** Matches `written` (as `uri`, its escapes in upper case) against `template`, a matchable one. */
function matchPrepared(template: UriTemplate, written: string, uri: string): Record<string, string> | null {
  const { parts, expressions } = template;
  let pos = literalAt(uri, 0, formsOf(parts[0]));
  if (pos < 0) return null;
  const vars: Record<string, string> = Object.create(null);
  for (let k = 0; k < expressions.length; ) {
    // The group: expression k and the named ones that continue its list of pairs.
    let j = k + 1;
    while (j < expressions.length && parts[2 * j] === "" && mergesInto(expressions[j - 1].operator, expressions[j].operator)) j++;
    const group = expressions.slice(k, j);
    const op = OPS[group[0].operator];
    // The literal after the group, in both its forms (found once, used up to twice below).
    const next = formsOf(parts[2 * j]);
    // The leading character: none for `{x}` / `{+x}` (required), else its absence means the
    // group's variables are absent. `{?a}{&b}` may open with `&` (without `a`).
    let lead = op.first === "" ? "" : uri[pos] === op.first || (j - k > 1 && uri[pos] === OPS[group[1].operator].first) ? uri[pos] : undefined;
    // The text ends before the literal that follows (the URI's end when it ends the template) ...
    let limit = uri.length;
    if (j === expressions.length) {
      const [plain, encoded] = next;
      limit = uri.endsWith(plain) ? uri.length - plain.length : uri.endsWith(encoded) ? uri.length - encoded.length : -1;
    } else if (next[0] !== "") {
      // Searched for past the leading character, which the literal may start with too
      // (`{/ver}/{id}`); found nowhere after it, the expression is absent and the literal is here.
      limit = literalIndex(uri, next, lead === undefined ? pos : pos + lead.length);
      if (limit < 0 && lead) {
        lead = undefined;
        limit = pos;
      }
    }
    if (limit < pos) return null;
    // ... or at a stop character: its own, or one that opens an expression after it.
    let stops = op.stops;
    for (let a = j; a < expressions.length && parts[2 * a] === ""; a++) stops += OPS[expressions[a].operator].first;
    if (lead === "" || (lead !== undefined && pos < limit)) {
      let end = pos + lead.length;
      while (end < limit && !stops.includes(uri[end])) end++;
      // From the URI as written: upper-casing kept every offset, and a value keeps its own escapes.
      const text = written.slice(pos + lead.length, end);
      if (op.first === "" && text === "") return null; // `{x}`, `{+x}`: required
      if (!(op.named ? matchNamed(group, text, vars) : matchUnnamed(group[0], text, vars))) return null;
      pos = end;
    }
    const length = literalAt(uri, pos, next);
    if (length < 0) return null;
    pos += length;
    k = j;
  }
  return pos === uri.length ? vars : null;
}
