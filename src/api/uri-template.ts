/**
 * URI templates, RFC 6570 level 1: `{var}` simple string expansion, and its inverse.
 *
 * Spec: 2025-11-25 `server/resources` ("Resource Templates": "Resource templates allow
 * servers to expose parameterized resources using URI templates") and RFC 6570 §1.2
 * level 1 and §3.2.2 (simple string expansion).
 *
 * Theory of operation. A template is parsed once, when it is registered, into
 * alternating literal and variable parts. Matching a URI walks those parts left to
 * right with `startsWith` / `indexOf`: a literal must appear exactly; a variable takes
 * the characters up to the next occurrence of the literal that follows it (or the rest of
 * the URI when it is last). No regular expression is ever built from a template, so a
 * template or URI can never cost more than a linear scan per part.
 *
 * Level-1 expansion percent-encodes every reserved character, so an expanded value can
 * never contain the URI's structural delimiters. The match therefore refuses a value
 * that is empty or contains `/`, `?` or `#` (which could only have come from a different
 * URI shape, e.g. `a/b/data` against `{id}/data`), and percent-decodes what it accepts;
 * a value whose escapes are malformed is kept as written. A decoded value may hold `/`:
 * level 1 encodes it precisely so one variable can carry a key like `reports/2024.csv` or
 * a URL, and `expandUriTemplate`'s output must match again. What could step out of the
 * place the value names does not match: a value containing NUL, one with a `.` or `..`
 * segment between `/` or `\` (`..`, `../etc/passwd`, `..\win.ini`, `a/../b`), or an
 * absolute path (starting with `/` or `\`, or a drive like `C:\`)
 * (`server/resources`, "Security Considerations": servers MUST validate all resource
 * URIs; the draft adds that they MUST sanitize file paths to prevent directory
 * traversal). Operators of higher levels (`{+var}`, `{/var}`, `{?q}` …) and
 * explode/prefix modifiers are rejected at parse time rather than silently treated as
 * literals.
 */

/** A parsed template: literals at even indexes, variable names at odd ones. */
export interface UriTemplate {
  /** The template as written. */
  readonly source: string;
  /** `[literal, name, literal, name, …, literal]`; literals may be empty. */
  readonly parts: readonly string[];
  /** The variable names, in order. */
  readonly names: readonly string[];
}

/** Characters a variable name may contain (RFC 6570 `varchar`, without pct-encoded triplets). */
function isVarChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2e;
}

/**
 * Parses a level-1 template. Returns the reason as a string when it is not one (an
 * unbalanced brace, an operator, an empty or invalid name, two adjacent variables, whose
 * boundary no URI could reveal, or a name used twice).
 */
export function parseUriTemplate(source: string): UriTemplate | string {
  const parts: string[] = [];
  const names: string[] = [];
  let literal = "";
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (ch === "}") return `unbalanced "}" at ${i}`;
    if (ch !== "{") {
      literal += ch;
      i++;
      continue;
    }
    const end = source.indexOf("}", i + 1);
    if (end < 0) return `unclosed "{" at ${i}`;
    const name = source.slice(i + 1, end);
    if (name.length === 0) return `empty expression at ${i}`;
    for (let k = 0; k < name.length; k++) {
      if (!isVarChar(name.charCodeAt(k))) return `only level-1 {name} expressions are supported (at ${i}: "{${name}}")`;
    }
    if (names.includes(name)) return `variable "${name}" appears twice`;
    if (names.length > 0 && literal.length === 0) return `variables "${names[names.length - 1]}" and "${name}" are adjacent; their boundary is ambiguous`;
    parts.push(literal, name);
    names.push(name);
    literal = "";
    i = end + 1;
  }
  parts.push(literal);
  return { source, parts, names };
}

/** True when `value` could be the expansion of a level-1 variable. */
function plausibleValue(value: string): boolean {
  if (value.length === 0) return false;
  for (let k = 0; k < value.length; k++) {
    const c = value.charCodeAt(k);
    if (c === 0x2f || c === 0x3f || c === 0x23) return false; // "/", "?", "#"
  }
  return true;
}

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

function decode(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Matches `uri` against `template`; returns the variables (percent-decoded) or null.
 * Each variable takes the shortest run up to the next literal, which is exact for
 * templates whose literals cannot occur inside a value (the common `{id}/data` shape).
 */
export function matchUriTemplate(template: UriTemplate, uri: string): Record<string, string> | null {
  const parts = template.parts;
  if (!uri.startsWith(parts[0])) return null;
  let pos = parts[0].length;
  const vars: Record<string, string> = Object.create(null);
  for (let p = 1; p < parts.length; p += 2) {
    const next = parts[p + 1];
    let end: number;
    if (p + 2 >= parts.length) {
      // The last variable: the literal after it (possibly empty) must end the URI.
      if (!uri.endsWith(next) || uri.length - next.length < pos) return null;
      end = uri.length - next.length;
    } else {
      end = uri.indexOf(next, pos);
      if (end < 0) return null;
    }
    const value = uri.slice(pos, end);
    if (!plausibleValue(value)) return null;
    const decoded = decode(value);
    if (!safeValue(decoded)) return null;
    vars[parts[p]] = decoded;
    pos = end + next.length;
  }
  return pos === uri.length ? vars : null;
}

/** RFC 6570 simple string expansion: unreserved characters kept, everything else percent-encoded. */
export function expandUriTemplate(template: UriTemplate, vars: Readonly<Record<string, string>>): string {
  const parts = template.parts;
  let out = parts[0];
  for (let p = 1; p < parts.length; p += 2) {
    const v = Object.hasOwn(vars, parts[p]) ? vars[parts[p]] : "";
    // encodeURIComponent leaves !'()* alone; RFC 6570 level 1 encodes them.
    out += encodeURIComponent(v).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()) + parts[p + 1];
  }
  return out;
}
