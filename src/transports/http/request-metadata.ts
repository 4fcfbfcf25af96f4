/**
 * Request metadata headers of the modern era: the JSON-RPC body fields Streamable HTTP
 * mirrors into HTTP headers, built by the client and checked by the server.
 *
 * Spec: draft `basic/transports/streamable-http` ("Request Metadata": Protocol Version
 * Header, Standard Request Headers, Custom Headers from Tool Parameters, Value Encoding,
 * Server Validation), draft `server/tools` (`x-mcp-header`), and the tasks extension
 * (SEP-2663, "Streamable HTTP: Routing Headers": `Mcp-Name` carries `params.taskId` on
 * `tasks/get`, `tasks/update`, `tasks/cancel`).
 *
 * Theory of operation. Everything here is a pure function of a parsed message, a
 * header lookup and, for `Mcp-Param-*`, the tool's `inputSchema`. The client side
 * ({@link modernRequestHeaders}) extracts and encodes; the server side
 * ({@link headerMismatch}) decodes and compares, and returns the reason for a
 * `-32020` HeaderMismatch, or null. A value that is not plain visible ASCII (or would
 * be mistaken for the sentinel) travels as `=?base64?<UTF-8 as Base64>?=`; a received
 * value with a character outside RFC 9110 field values (CR, LF, other controls,
 * non-ASCII) is a mismatch before any comparison.
 */
import { echoed } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { MetaKey } from "../../model/meta.js";
import { isFieldValueText, isHeaderName, isSafeHeaderValue } from "./headers.js";

/** Header names of the request metadata (HTTP compares names case-insensitively). */
export const MH = {
  method: "Mcp-Method",
  name: "Mcp-Name",
  paramPrefix: "Mcp-Param-",
} as const;

const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";

/** Where `Mcp-Name` comes from, per method; methods not listed send no `Mcp-Name`. */
const NAME_SOURCE: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

/** The body value `Mcp-Name` mirrors for `method`, or undefined when the method has none. */
export function nameSourceOf(method: string, params: JsonObject | undefined): { field: string; value: unknown } | undefined {
  const field = Object.hasOwn(NAME_SOURCE, method) ? NAME_SOURCE[method] : undefined;
  return field === undefined ? undefined : { field, value: params?.[field] };
}

/**
 * True when `value` goes on the wire as is (else it is Base64-encoded): visible ASCII and
 * inner spaces only. A tab is a valid field-value character, but Value Encoding (and
 * SEP-2243 step 4, "any control characters (0x00-0x1F or 0x7F)") makes the client encode
 * every control character, the tab included.
 */
function isPlainHeaderValue(value: string): boolean {
  return isSafeHeaderValue(value) && !value.includes("\t") && !(value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END));
}

/** A string as a header value, Base64-sentinel-encoded where the spec requires it. */
export function encodeHeaderValue(value: string): string {
  if (isPlainHeaderValue(value)) return value;
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return SENTINEL_START + btoa(binary) + SENTINEL_END;
}

/**
 * A received header value, decoded: the Base64 sentinel is undone (UTF-8, fatal on bad
 * bytes). Undefined when the value holds characters a field value may not (RFC 9110
 * §5.5), or a sentinel whose payload is not Base64 of UTF-8.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  if (!isFieldValueText(raw)) return undefined;
  if (!(raw.startsWith(SENTINEL_START) && raw.endsWith(SENTINEL_END) && raw.length >= SENTINEL_START.length + SENTINEL_END.length)) return raw;
  const payload = raw.slice(SENTINEL_START.length, raw.length - SENTINEL_END.length);
  // Strict RFC 4648 §4 Base64 with its padding: `atob` is forgiving (it accepts missing
  // padding and spaces), and SEP-2243's test table rejects such values.
  if (!isPaddedBase64(payload)) return undefined;
  try {
    const binary = atob(payload);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    // ignoreBOM: a leading U+FEFF is part of the value (Base64 of its UTF-8 form), and
    // dropping it would let a header "\ufefft" pass for a body's "t".
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A received header value taken as it is (no sentinel decoding), or undefined when it holds characters a field value may not. */
function plainFieldValue(raw: string): string | undefined {
  return isFieldValueText(raw) ? raw : undefined;
}

/** Base64 alphabet only, length a multiple of 4, `=` only as the last one or two characters. */
function isPaddedBase64(s: string): boolean {
  if (s.length % 4 !== 0) return false;
  const pad = s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0;
  for (let i = 0; i < s.length - pad; i++) {
    const c = s.charCodeAt(i);
    const ok = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f;
    if (!ok) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------
// x-mcp-header

/** One `x-mcp-header` declaration: the header's name part and the `properties` path to its value. */
export interface ParamHeader {
  name: string;
  path: string[];
}

/**
 * Keywords whose value is a subschema or an array of them, and keywords whose value maps
 * names to subschemas: an annotation under any of them is not statically reachable (spec:
 * Schema Extension, "An `x-mcp-header` annotation anywhere else makes the annotation, and
 * thus the tool definition, invalid"). A `$ref` target is reached through `$defs` or
 * `definitions`, so it is one of these too. Data keywords (`const`, `default`, `enum`,
 * `examples`) hold instances, not schemas: a key named `x-mcp-header` there is data.
 */
const SUBSCHEMA_KEYS = ["items", "prefixItems", "additionalItems", "additionalProperties", "oneOf", "anyOf", "allOf", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contentSchema"];
const SCHEMA_MAP_KEYS = ["$defs", "definitions", "patternProperties", "dependentSchemas", "dependencies"];

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The `x-mcp-header` declarations of a tool's `inputSchema`, or the reason the tool
 * definition is invalid (a client MUST then exclude the tool from `tools/list`): an
 * empty or non-token name, a duplicate (case-insensitively), a type other than string,
 * integer or boolean, or an annotation not reachable through `properties` alone.
 */
export function paramHeadersOf(inputSchema: unknown): { ok: true; headers: ParamHeader[] } | { ok: false; reason: string } {
  const headers: ParamHeader[] = [];
  const seen = new Set<string>();
  let problem: string | undefined;
  const visit = (schema: unknown, path: string[], reachable: boolean): void => {
    if (problem !== undefined || schema === null || typeof schema !== "object") return;
    if (Array.isArray(schema)) {
      for (const s of schema) visit(s, path, false);
      return;
    }
    const s = schema as JsonObject;
    if (Object.hasOwn(s, "x-mcp-header")) {
      const name = s["x-mcp-header"];
      const where = path.length === 0 ? "the schema root" : path.join(".");
      if (!reachable || path.length === 0) problem = `${where}: x-mcp-header is only allowed on properties reachable through "properties" keys`;
      else if (typeof name !== "string" || !isHeaderName(name)) problem = `${where}: x-mcp-header must be a non-empty HTTP token`;
      else if (s.type !== "string" && s.type !== "integer" && s.type !== "boolean") problem = `${where}: x-mcp-header needs type string, integer or boolean`;
      else if (seen.has(name.toLowerCase())) problem = `x-mcp-header ${JSON.stringify(name)} is declared twice`;
      else {
        seen.add(name.toLowerCase());
        headers.push({ name, path });
      }
    }
    const props = s.properties;
    if (props !== null && typeof props === "object" && !Array.isArray(props)) {
      for (const key of Object.keys(props)) visit((props as JsonObject)[key], [...path, key], reachable);
    }
    for (const key of SUBSCHEMA_KEYS) if (Object.hasOwn(s, key)) visit(s[key], path, false);
    for (const key of SCHEMA_MAP_KEYS) {
      const map = Object.hasOwn(s, key) ? s[key] : undefined;
      if (map !== null && typeof map === "object" && !Array.isArray(map)) for (const name of Object.keys(map)) visit((map as JsonObject)[name], path, false);
    }
  };
  visit(inputSchema, [], true);
  return problem === undefined ? { ok: true, headers } : { ok: false, reason: problem };
}

/** The argument value at `path`, or undefined when absent (or null: the header is omitted). */
function valueAt(args: unknown, path: string[]): unknown {
  let v: unknown = args;
  for (const key of path) {
    if (v === null || typeof v !== "object" || Array.isArray(v) || !Object.hasOwn(v, key)) return undefined;
    v = (v as JsonObject)[key];
  }
  return v === null ? undefined : v;
}

/**
 * A string with a lone surrogate: it has no UTF-8 form, so no header value can carry it
 * (Value Encoding: Base64 of "the UTF-8 representation"; `TextEncoder` would write U+FFFD,
 * which the server then finds different from the body's value).
 */
const LONE_SURROGATE = /\p{Cs}/u;

/** A primitive argument as header text (spec: Type conversion), or undefined when it cannot be one. */
function paramText(value: unknown): string | undefined {
  if (typeof value === "string") return LONE_SURROGATE.test(value) ? undefined : value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isInteger(value) && Math.abs(value) <= MAX_SAFE) return String(value);
  return undefined;
}

// ---------------------------------------------------------------------------------------
// Client

/**
 * The request metadata headers of one modern request: `MCP-Protocol-Version` from
 * `_meta`, `Mcp-Method`, `Mcp-Name` where the method has one, and `Mcp-Param-*` for the
 * tool's `x-mcp-header` declarations whose argument is present.
 */
export function modernRequestHeaders(message: { method: string; params?: JsonObject }, paramHeaders: readonly ParamHeader[] | undefined): Record<string, string> {
  const h: Record<string, string> = {};
  const version = (message.params?._meta as JsonObject | undefined)?.[MetaKey.protocolVersion];
  if (typeof version === "string" && isSafeHeaderValue(version)) h["MCP-Protocol-Version"] = version;
  h[MH.method] = encodeHeaderValue(message.method);
  const source = nameSourceOf(message.method, message.params);
  if (source !== undefined && typeof source.value === "string") h[MH.name] = encodeHeaderValue(source.value);
  if (paramHeaders !== undefined && message.method === "tools/call") {
    const args = message.params?.arguments;
    for (const p of paramHeaders) {
      const text = paramText(valueAt(args, p.path));
      if (text !== undefined) h[MH.paramPrefix + p.name] = encodeHeaderValue(text);
    }
  }
  return h;
}

/**
 * Why a modern request cannot carry its headers, or null: its `Mcp-Name` value, or an
 * argument a tool's `x-mcp-header` annotates, has no header text (a string with a lone
 * surrogate; for an argument also an integer beyond the safe range ±(2^53−1), which
 * Schema Extension forbids, a fraction, an object or an array). Leaving the header out,
 * or sending another value, while the body keeps this one is what Server Behavior for
 * Custom Headers calls a non-conforming client (the server MUST reject it), so such a
 * request is refused before it is sent.
 */
export function unmirrorable(message: { method: string; params?: JsonObject }, paramHeaders: readonly ParamHeader[] | undefined): string | null {
  const name = nameSourceOf(message.method, message.params);
  if (typeof name?.value === "string" && LONE_SURROGATE.test(name.value)) {
    return `params.${name.field} cannot be mirrored into ${MH.name}: it holds a lone surrogate, which has no UTF-8 form`;
  }
  if (paramHeaders === undefined || message.method !== "tools/call") return null;
  const args = message.params?.arguments;
  for (const p of paramHeaders) {
    const value = valueAt(args, p.path);
    if (value !== undefined && paramText(value) === undefined) {
      return `argument ${p.path.join(".")} cannot be mirrored into ${MH.paramPrefix}${p.name}: it must be a string (without lone surrogates), a boolean or an integer within ±(2^53−1)`;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// Server

/** A header lookup (e.g. `Headers.prototype.get`, bound). */
export type HeaderLookup = (name: string) => string | null;

/**
 * Server Validation: why the headers of a modern request do not match its body, or null
 * when they do. `version` is the body's `_meta` protocol version; `paramHeaders` the
 * called tool's declarations (undefined: the tool is unknown here, so no `Mcp-Param-*`
 * header is recognized).
 */
export function headerMismatch(get: HeaderLookup, message: { method: string; params?: JsonObject }, version: unknown, paramHeaders: readonly ParamHeader[] | undefined): string | null {
  const pv = get("MCP-Protocol-Version");
  if (pv === null) return "the MCP-Protocol-Version header is required";
  if (pv.trim() !== version) return `MCP-Protocol-Version header value ${shown(pv)} does not match body value ${shown(version)}`;
  // Only Mcp-Name and Mcp-Param-* "permit the Base64 sentinel encoding" (Server
  // Validation); values are case-sensitive, so Mcp-Method is compared as sent.
  const bad = compare(get, MH.method, message.method, plainFieldValue);
  if (bad !== null) return bad;
  const source = nameSourceOf(message.method, message.params);
  if (source !== undefined) {
    const e = compare(get, MH.name, source.value);
    if (e !== null) return e;
  }
  if (paramHeaders === undefined || message.method !== "tools/call") return null;
  const args = message.params?.arguments;
  for (const p of paramHeaders) {
    const header = MH.paramPrefix + p.name;
    const value = valueAt(args, p.path);
    if (value === undefined) {
      if (get(header) !== null) return `${header} header is present but the body has no value at ${p.path.join(".")}`;
      continue;
    }
    const e = compare(get, header, value);
    if (e !== null) return e;
  }
  return null;
}

/** A header or body value as a mismatch message quotes it: JSON, a string cut to what {@link echoed} keeps. */
function shown(value: unknown): string {
  return JSON.stringify(typeof value === "string" ? echoed(value) : value);
}

/** A decimal number: optional minus, digits, optional fraction. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Compares one header with its body value: present, valid characters, equal after `decode` (integers numerically). */
function compare(get: HeaderLookup, header: string, body: unknown, decode: (raw: string) => string | undefined = decodeHeaderValue): string | null {
  const raw = get(header);
  if (raw === null) return `the ${header} header is required`;
  const value = decode(raw);
  if (value === undefined) return `the ${header} header contains invalid characters`;
  if (typeof body === "number") {
    // Server Validation note: integers compare numerically (42.0 and 42 are equal), but only
    // in decimal notation, what a client sends ("Convert to decimal string representation"):
    // `Number` would also take 0x10, 1.6e1 or +16, which a proxy routing on the header
    // reads differently from the body the server runs with. Schema Extension keeps integers
    // within ±(2^53−1): past it distinct decimals are one number (2^53 + 1 reads as 2^53).
    if (Math.abs(body) <= MAX_SAFE && DECIMAL.test(value) && Number(value) === body) return null;
  } else if (value === paramText(body)) return null;
  return `${header} header value ${shown(raw)} does not match body value ${shown(body)}`;
}
