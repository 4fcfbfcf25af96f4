/**
 * Elicitation forms: the restricted `requestedSchema`, and the content that answers it.
 *
 * Spec: `client/elicitation` ("Requested Schema"), 2025-11-25 and draft; the definitions
 * are `ElicitRequestFormParams.requestedSchema` and `PrimitiveSchemaDefinition` (String,
 * Number, Boolean and the Enum schemas) in the 2025-11-25 and 2026-07-28 `schema.ts`.
 *
 * Theory of operation. A form-mode `elicitation/create` carries a schema that is a flat
 * object whose properties are primitive schemas only, "to simplify client user
 * experience". {@link checkRequestedSchema} decides whether a schema stays inside that
 * subset: the server runs it before sending, the client on receipt ({@link elicitParamsIssues}). Each property is
 * classified by `type` (and `enum` / `oneOf` / `items`) into one of the schema kinds,
 * and only that kind's keywords may appear. "Advanced JSON Schema features are
 * intentionally not supported", so any other JSON Schema assertion or applicator keyword
 * (`allOf`, `$ref`, `exclusiveMinimum`, nested `properties`, ...) is an issue; keywords
 * that are not JSON Schema assertions (`title`, `description`, `enumNames`, vendor keys)
 * are annotations and pass. A `default` must itself satisfy its property.
 *
 * {@link validateElicitationContent} checks the `content` of an accepted `ElicitResult`
 * against such a schema ("Clients SHOULD validate all responses against the provided
 * schema"; "Servers SHOULD validate received data matches the requested schema"): the
 * client before it sends its handler's answer, the server on receipt
 * ({@link elicitResultIssues}). The
 * four string formats are checked by small hand-written scanners, never by a regular
 * expression, and `pattern` (which the 2025-11-25 page shows in an example but neither
 * schema defines) is accepted as an annotation and not enforced, because the schema
 * comes from the peer and compiling a peer's regular expression invites ReDoS.
 * {@link applyElicitationDefaults} fills defaults for absent optional fields ("All
 * primitive types support optional default values").
 *
 * Issue paths are RFC 6901 pointers: into the schema for `checkRequestedSchema`, into the
 * content otherwise. Every lookup by a peer-chosen name goes through own-property checks,
 * so names such as `__proto__` and `constructor` are plain data. The checks take time
 * linear in what the peer sent (sets, not list searches) and list at most `MAX_ISSUES`
 * issues, then one saying that more were not listed.
 */
import type { Issue } from "./validate.js";
import { isSupportedDialect } from "./json-schema.js";
import { MAX_ISSUES, moreIssues } from "./json-type.js";

type Obj = Record<string, unknown>;

/** The string formats a StringSchema may name, each with its hand-written check. */
export const elicitationFormats: Readonly<Record<"email" | "uri" | "date" | "date-time", (value: string) => boolean>> = {
  email: isEmail,
  uri: isUri,
  date: (s) => s.length === 10 && isDateAt(s, 0),
  "date-time": isDateTime,
};

// Every JSON Schema 2020-12 (and draft-07) keyword that asserts or applies subschemas.
// A restricted schema may use only the few its kind allows; the rest are annotations.
const ASSERTIONS = new Set(
  ("type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern " +
    "maxItems minItems uniqueItems maxContains minContains maxProperties minProperties required dependentRequired " +
    "allOf anyOf oneOf not if then else dependentSchemas prefixItems items additionalItems contains properties " +
    "patternProperties additionalProperties propertyNames unevaluatedItems unevaluatedProperties dependencies " +
    "$ref $dynamicRef $recursiveRef $defs definitions format contentSchema").split(" "),
);

/** The kinds of PrimitiveSchemaDefinition, by what distinguishes them on the wire. */
type Kind = "string" | "number" | "boolean" | "enum" | "titled" | "multi" | "titledMulti";

// The assertion keywords each kind may carry.
const ALLOWED: Record<Kind | "root", string[]> = {
  root: ["type", "properties", "required", "additionalProperties"],
  string: ["type", "minLength", "maxLength", "format", "pattern"],
  number: ["type", "minimum", "maximum"],
  boolean: ["type"],
  enum: ["type", "enum"],
  titled: ["type", "oneOf"],
  multi: ["type", "items", "minItems", "maxItems", "uniqueItems"],
  titledMulti: ["type", "items", "minItems", "maxItems", "uniqueItems"],
};

const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);
const own = (o: Obj, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);
const esc = (k: string) => k.replace(/~/g, "~0").replace(/\//g, "~1");
const isCount = (x: unknown) => Number.isInteger(x) && (x as number) >= 0;
const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === "string");

/** Adds an issue to `out` unless it is full: MAX_ISSUES, and then one saying that more were not listed. */
function issue(out: Issue[], path: string, reason: string): void {
  if (out.length < MAX_ISSUES) out.push({ path, reason });
  else if (out.length === MAX_ISSUES) out.push(moreIssues());
}

/** The kind of a property schema, or undefined when it is none of them. */
function kindOf(ps: Obj): Kind | undefined {
  const t = own(ps, "type");
  if (t === "string") return Object.hasOwn(ps, "oneOf") ? "titled" : Object.hasOwn(ps, "enum") ? "enum" : "string";
  if (t === "number" || t === "integer") return "number";
  if (t === "boolean") return "boolean";
  if (t === "array") {
    const items = own(ps, "items");
    return isObj(items) && Object.hasOwn(items, "anyOf") ? "titledMulti" : "multi";
  }
  return undefined;
}

/**
 * Issues of a `requestedSchema` outside the restricted elicitation subset (`null` when it
 * is inside): type "object", a `properties` map of primitive schemas with no nesting, a
 * `required` array naming existing properties, an optional supported `$schema`, and
 * optionally `additionalProperties: false`. Paths point into the schema.
 */
export function checkRequestedSchema(schema: unknown): Issue[] | null {
  return readable(() => checkSchema(schema));
}

/**
 * `check()`, or the one issue the generated validators give a value whose getter (or Proxy
 * trap) throws (validate.ts): these checks run on what an application or a peer built, and
 * the kernel never throws across its boundary (README).
 */
function readable(check: () => Issue[] | null): Issue[] | null {
  try {
    return check();
  } catch {
    return [{ path: "", reason: "value could not be read" }];
  }
}

function checkSchema(schema: unknown): Issue[] | null {
  if (!isObj(schema)) return [{ path: "", reason: "requestedSchema must be an object" }];
  const out: Issue[] = [];
  const add = (path: string, reason: string) => issue(out, path, reason);
  unsupported(schema, "root", "", out);
  if (own(schema, "type") !== "object") add("/type", 'must be "object"');
  if (Object.hasOwn(schema, "$schema") && !isSupportedDialect(schema.$schema)) add("/$schema", "unsupported dialect");
  if (Object.hasOwn(schema, "additionalProperties") && schema.additionalProperties !== false) {
    add("/additionalProperties", "only false is supported");
  }
  const props = own(schema, "properties");
  if (!isObj(props)) add("/properties", "must be an object of primitive schemas");
  else for (const name of Object.keys(props)) checkProperty(props[name], "/properties/" + esc(name), out);
  if (Object.hasOwn(schema, "required")) {
    const req = schema.required;
    if (!Array.isArray(req)) add("/required", "must be an array of property names");
    else {
      // A set, not indexOf: a peer's list of any length is checked in linear time.
      const seen = new Set<string>();
      req.forEach((name, i) => {
        if (typeof name !== "string") add("/required/" + i, "must be a string");
        else if (!isObj(props) || !Object.hasOwn(props, name)) add("/required/" + i, "names no property");
        else if (seen.has(name)) add("/required/" + i, "duplicates a name");
        else seen.add(name);
      });
    }
  }
  return out.length ? out : null;
}

/** Flags the assertion keywords of `s` that its kind does not allow. */
function unsupported(s: Obj, kind: Kind | "root" | "items" | "option", at: string, out: Issue[]): void {
  const allowed = kind === "items" ? ["type", "enum", "anyOf"] : kind === "option" ? ["const"] : ALLOWED[kind];
  for (const k of Object.keys(s)) {
    if (ASSERTIONS.has(k) && !allowed.includes(k)) issue(out, at + "/" + esc(k), "not supported in a restricted elicitation schema");
  }
}

function checkProperty(ps: unknown, at: string, out: Issue[]): void {
  const before = out.length;
  const add = (k: string, reason: string) => issue(out, at + k, reason);
  if (!isObj(ps)) return void add("", "must be a primitive schema object");
  const kind = kindOf(ps);
  if (!kind) {
    const t = own(ps, "type");
    return void add("/type", t === "object" ? "nested objects are not allowed" : 'must be "string", "number", "integer", "boolean" or "array"');
  }
  unsupported(ps, kind, at, out);
  for (const k of ["title", "description"]) if (Object.hasOwn(ps, k) && typeof ps[k] !== "string") add("/" + k, "must be a string");
  for (const k of ["minLength", "maxLength", "minItems", "maxItems"]) if (Object.hasOwn(ps, k) && !isCount(ps[k])) add("/" + k, "must be a non-negative integer");
  for (const k of ["minimum", "maximum"]) if (Object.hasOwn(ps, k) && !Number.isFinite(ps[k])) add("/" + k, "must be a number");
  if (Object.hasOwn(ps, "format") && !Object.hasOwn(elicitationFormats, ps.format as string)) add("/format", 'must be "email", "uri", "date" or "date-time"');
  if (Object.hasOwn(ps, "pattern") && typeof ps.pattern !== "string") add("/pattern", "must be a string");
  if (Object.hasOwn(ps, "uniqueItems") && typeof ps.uniqueItems !== "boolean") add("/uniqueItems", "must be a boolean");
  if (kind === "enum") {
    if (!isStrings(ps.enum)) add("/enum", "must be an array of strings");
    else if (Object.hasOwn(ps, "enumNames") && !(isStrings(ps.enumNames) && ps.enumNames.length === ps.enum.length)) {
      add("/enumNames", "must be one string per enum value");
    }
  }
  if (kind === "titled") checkOptions(ps.oneOf, at + "/oneOf", out);
  if (kind === "multi" || kind === "titledMulti") {
    const items = own(ps, "items");
    if (!isObj(items)) add("/items", "must be an enum schema");
    else {
      unsupported(items, "items", at + "/items", out);
      if (kind === "titledMulti") {
        if (Object.hasOwn(items, "type") && items.type !== "string") add("/items/type", 'must be "string"');
        checkOptions(items.anyOf, at + "/items/anyOf", out);
      } else {
        if (items.type !== "string") add("/items/type", 'must be "string"');
        if (!isStrings(own(items, "enum"))) add("/items/enum", "must be an array of strings");
      }
    }
  }
  // A default pre-populates the form, so it must be a value the form would accept.
  if (Object.hasOwn(ps, "default") && out.length === before) checkValue(ps, ps.default, at + "/default", out);
}

/** Titled options: `[{ const, title }]`, each const a string. */
function checkOptions(list: unknown, at: string, out: Issue[]): void {
  if (!Array.isArray(list)) return issue(out, at, "must be an array of { const, title }");
  list.forEach((o, i) => {
    const p = at + "/" + i;
    if (!isObj(o)) return issue(out, p, "must be an object { const, title }");
    unsupported(o, "option", p, out);
    if (typeof own(o, "const") !== "string") issue(out, p + "/const", "must be a string");
    if (typeof own(o, "title") !== "string") issue(out, p + "/title", "must be a string");
  });
}

/** The values a single-select or multi-select schema offers, if it is an enum. */
function choices(s: Obj): unknown[] | undefined {
  const e = own(s, "enum");
  if (Array.isArray(e)) return e;
  const opts = own(s, "oneOf") ?? own(s, "anyOf");
  return Array.isArray(opts) ? opts.map((o) => (isObj(o) ? own(o, "const") : undefined)) : undefined;
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Issues of one value against one property schema; `at` is the value's pointer. */
function checkValue(ps: Obj, value: unknown, at: string, out: Issue[]): void {
  const add = (reason: string, path = at) => issue(out, path, reason);
  const kind = kindOf(ps);
  const min = own(ps, "minimum");
  const max = own(ps, "maximum");
  const minLen = own(ps, "minLength");
  const maxLen = own(ps, "maxLength");
  if (kind === "string" || kind === "enum" || kind === "titled") {
    if (typeof value !== "string") return void add("must be a string");
    const c = choices(ps);
    if (c && !c.includes(value)) add("must be one of the offered values");
    if (typeof minLen === "number" || typeof maxLen === "number") {
      const n = codePoints(value);
      if (n < (minLen as number)) add("must be at least " + minLen + " characters");
      if (n > (maxLen as number)) add("must be at most " + maxLen + " characters");
    }
    const f = own(ps, "format");
    if (typeof f === "string" && Object.hasOwn(elicitationFormats, f) && !elicitationFormats[f as "uri"](value)) add("must be a valid " + f);
  } else if (kind === "number") {
    if (typeof value !== "number" || !Number.isFinite(value)) return void add("must be a number");
    if (ps.type === "integer" && !Number.isInteger(value)) add("must be an integer");
    if (value < (min as number)) add("must be >= " + min);
    if (value > (max as number)) add("must be <= " + max);
  } else if (kind === "boolean") {
    if (typeof value !== "boolean") add("must be a boolean");
  } else if (kind) {
    if (!Array.isArray(value)) return void add("must be an array of strings");
    const items = own(ps, "items");
    const c = isObj(items) ? choices(items) : undefined;
    // Sets, not includes/indexOf: the selections and the choices come from the peers.
    const offered = c && new Set(c);
    const seen = new Set<string>();
    value.forEach((x, i) => {
      if (typeof x !== "string") add("must be a string", at + "/" + i);
      else if (offered && !offered.has(x)) add("must be one of the offered values", at + "/" + i);
      else if (ps.uniqueItems === true && seen.has(x)) add("must not repeat a selection", at + "/" + i);
      else seen.add(x);
    });
    if (value.length < (own(ps, "minItems") as number)) add("must select at least " + ps.minItems);
    if (value.length > (own(ps, "maxItems") as number)) add("must select at most " + ps.maxItems);
  } else {
    add("has no valid schema");
  }
}

/**
 * Issues of the `content` of an accepted ElicitResult against `schema` (`null` when it
 * conforms): an object with no property the schema does not list, every `required`
 * property present, and each value of its property's type, length, format, bounds,
 * integer-ness and enum choices. `schema` should have passed
 * {@link checkRequestedSchema}; a malformed one yields issues, never an exception.
 */
export function validateElicitationContent(schema: unknown, content: unknown): Issue[] | null {
  return readable(() => checkContent(schema, content));
}

function checkContent(schema: unknown, content: unknown): Issue[] | null {
  const props = isObj(schema) ? own(schema, "properties") : undefined;
  if (!isObj(props)) return [{ path: "", reason: "requestedSchema is not a restricted elicitation schema" }];
  if (!isObj(content)) return [{ path: "", reason: "content must be an object" }];
  const out: Issue[] = [];
  for (const name of Object.keys(content)) {
    const at = "/" + esc(name);
    const ps = own(props, name);
    if (!Object.hasOwn(props, name)) issue(out, at, "is not a property of the requested schema");
    else if (!isObj(ps)) issue(out, at, "has no valid schema");
    else checkValue(ps, content[name], at, out);
  }
  const req = own(schema as Obj, "required");
  if (Array.isArray(req)) {
    for (const name of req) {
      if (typeof name === "string" && !Object.hasOwn(content, name)) issue(out, "/" + esc(name), "is required");
    }
  }
  return out.length ? out : null;
}

/** A form-mode request's `requestedSchema` (a request without `mode` is a form, as in 2025-06-18), or undefined for URL mode. */
function formSchemaOf(params: Obj): { schema: unknown } | undefined {
  const mode = own(params, "mode");
  return mode === undefined || mode === "form" ? { schema: own(params, "requestedSchema") } : undefined;
}

/**
 * Issues of the params of an `elicitation/create` (`null` when fine): a form's
 * `requestedSchema` outside the restricted subset ({@link checkRequestedSchema}). What
 * the server checks before sending and the client on receipt.
 */
export function elicitParamsIssues(params: unknown): Issue[] | null {
  return readable(() => {
    const form = isObj(params) ? formSchemaOf(params) : undefined;
    return form === undefined ? null : checkSchema(form.schema);
  });
}

/**
 * Issues of an `ElicitResult` against the request it answers (`null` when fine): in form
 * mode an accepted result's `content` (absent counts as empty) must match the requested
 * schema ({@link validateElicitationContent}); a declined or cancelled one carries none to
 * check, and URL mode has no content. What the client checks before sending its
 * handler's answer and the server on receipt.
 */
export function elicitResultIssues(params: unknown, result: unknown): Issue[] | null {
  return readable(() => {
    if (!isObj(params) || !isObj(result) || own(result, "action") !== "accept") return null;
    const form = formSchemaOf(params);
    return form === undefined ? null : checkContent(form.schema, own(result, "content") ?? {});
  });
}

/** The two checks of an elicitation form, as one value an API can be given (and a bundle that never names it leaves out). */
export interface ElicitationChecks {
  /** {@link elicitParamsIssues}. */
  params(params: unknown): Issue[] | null;
  /** {@link elicitResultIssues}. */
  result(params: unknown, result: unknown): Issue[] | null;
}

/** The built-in checks: the restricted subset and the content that answers it. */
export const elicitationChecks: ElicitationChecks = { params: elicitParamsIssues, result: elicitResultIssues };

/**
 * A copy of `content` with each absent optional property that has a `default` filled
 * in; `content` that is not an object counts as empty (e.g. a form before any input).
 * A missing required property is left missing: it is the sender's error to report, not
 * one to paper over. Inputs are not mutated, array defaults are copied, and keys are
 * defined rather than assigned, so a property named `__proto__` stays a plain key.
 * Content whose getter (or Proxy trap) throws counts as empty too, and a schema whose
 * getter throws gives no defaults (the kernel never throws across its boundary).
 */
export function applyElicitationDefaults(schema: unknown, content: unknown): Record<string, unknown> {
  let result: Record<string, unknown> = {};
  let src: Obj = {};
  try {
    if (isObj(content)) for (const k of Object.keys(content)) put(result, k, content[k]);
    src = isObj(content) ? content : {};
  } catch {
    result = {};
  }
  let defaults: [string, unknown][];
  try {
    defaults = defaultsOf(schema, src);
  } catch {
    return result;
  }
  for (const [name, value] of defaults) put(result, name, value);
  return result;
}

/** The defaults of `schema`'s optional properties that `src` lacks, by name. */
function defaultsOf(schema: unknown, src: Obj): [string, unknown][] {
  const out: [string, unknown][] = [];
  const props = isObj(schema) ? own(schema, "properties") : undefined;
  if (!isObj(props)) return out;
  const req = own(schema as Obj, "required");
  const required = new Set(Array.isArray(req) ? req : []);
  for (const name of Object.keys(props)) {
    const ps = props[name];
    if (Object.hasOwn(src, name) || !isObj(ps) || !Object.hasOwn(ps, "default")) continue;
    if (required.has(name)) continue;
    out.push([name, Array.isArray(ps.default) ? ps.default.slice() : ps.default]);
  }
  return out;
}

function put(o: Record<string, unknown>, k: string, value: unknown): void {
  Object.defineProperty(o, k, { value, writable: true, enumerable: true, configurable: true });
}

// ---- Formats: small fixed scanners, no regular expressions built from input. ----

const isDigit = (c: number) => c >= 48 && c <= 57;
const isAlpha = (c: number) => (c | 32) >= 97 && (c | 32) <= 122;
const isHex = (c: number) => isDigit(c) || ((c | 32) >= 97 && (c | 32) <= 102);

/** The `n`-digit decimal at `i`, or -1 when any of those characters is not a digit. */
function digits(s: string, i: number, n: number): number {
  let v = 0;
  for (let j = i; j < i + n; j++) {
    const c = s.charCodeAt(j);
    if (!isDigit(c)) return -1;
    v = v * 10 + c - 48;
  }
  return v;
}

/** RFC 3339 full-date at `i`: YYYY-MM-DD with a real day of that month. */
function isDateAt(s: string, i: number): boolean {
  const y = digits(s, i, 4);
  const m = digits(s, i + 5, 2);
  const d = digits(s, i + 8, 2);
  if (y < 0 || s[i + 4] !== "-" || s[i + 7] !== "-" || m < 1 || m > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (m === 2 ? (leap ? 29 : 28) : 30 + ((m + (m >> 3)) & 1));
}

/** RFC 3339 date-time: full-date "T" HH:MM:SS[.frac] ("Z" | ±HH:MM); :60 only at 23:59 UTC. */
function isDateTime(s: string): boolean {
  if (!isDateAt(s, 0) || (s[10] !== "T" && s[10] !== "t")) return false;
  const h = digits(s, 11, 2);
  const mi = digits(s, 14, 2);
  const se = digits(s, 17, 2);
  if (h < 0 || h > 23 || s[13] !== ":" || mi < 0 || mi > 59 || s[16] !== ":" || se < 0 || se > 60) return false;
  let i = 19;
  if (s[i] === ".") {
    const from = ++i;
    while (isDigit(s.charCodeAt(i))) i++;
    if (i === from) return false;
  }
  let offset = 0;
  const z = s[i];
  if (z === "Z" || z === "z") {
    if (i + 1 !== s.length) return false;
  } else if (z === "+" || z === "-") {
    const oh = digits(s, i + 1, 2);
    const om = digits(s, i + 4, 2);
    if (i + 6 !== s.length || oh < 0 || oh > 23 || s[i + 3] !== ":" || om < 0 || om > 59) return false;
    offset = (z === "+" ? 1 : -1) * (oh * 60 + om);
  } else return false;
  // A leap second exists only as 23:59:60 in UTC.
  return se < 60 || (((h * 60 + mi - offset) % 1440) + 1440) % 1440 === 1439;
}

const ATEXT = "!#$%&'*+-/=?^_`{|}~";

/**
 * RFC 5321 mailbox in its common form: a dot-atom local part (at most 64 characters),
 * "@", and a domain of dot-separated LDH labels. Quoted local parts and address literals
 * are not accepted.
 */
function isEmail(s: string): boolean {
  const at = s.lastIndexOf("@");
  if (at < 1 || at > 64 || s.length - at > 254) return false;
  let dot = true; // a dot may not start the local part
  for (let i = 0; i < at; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (dot) return false;
      dot = true;
    } else if (isAlpha(c) || isDigit(c) || ATEXT.includes(s[i])) dot = false;
    else return false;
  }
  if (dot) return false;
  let label = 0;
  for (let i = at + 1; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 46; // a final "." closes the last label
    if (c === 46) {
      if (label === 0 || label > 63 || s[i - 1] === "-") return false;
      label = 0;
    } else if (isAlpha(c) || isDigit(c) || (c === 45 && label > 0)) label++;
    else return false;
  }
  return true;
}

const URI_CHARS = "-._~:/?[]@!$&'()*+,;=";

/**
 * RFC 3986 URI (absolute, fragment allowed): a scheme of a letter then letters, digits,
 * "+", "-" or ".", then ":", then only unreserved and reserved characters or well-formed
 * percent-escapes, with at most one "#".
 */
function isUri(s: string): boolean {
  if (!isAlpha(s.charCodeAt(0))) return false;
  let i = 1;
  for (; i < s.length && s[i] !== ":"; i++) {
    const c = s.charCodeAt(i);
    if (!isAlpha(c) && !isDigit(c) && c !== 43 && c !== 45 && c !== 46) return false;
  }
  if (i === s.length) return false;
  let hash = false;
  for (i++; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 37) {
      if (!isHex(s.charCodeAt(i + 1)) || !isHex(s.charCodeAt(i + 2))) return false;
      i += 2;
    } else if (c === 35) {
      if (hash) return false;
      hash = true;
    } else if (!isAlpha(c) && !isDigit(c) && !URI_CHARS.includes(s[i])) return false;
  }
  return true;
}
