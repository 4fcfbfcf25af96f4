/**
 * Per-request protocol fields of the modern era.
 *
 * Spec: draft `basic/index` ("_meta", per-request protocol fields) and
 * `basic/versioning` (protocol version negotiation). Every modern request carries, in
 * `params._meta`, `io.modelcontextprotocol/protocolVersion` and
 * `io.modelcontextprotocol/clientCapabilities` (required: missing → `-32602`), and may
 * carry `clientInfo` and `logLevel` (an unknown level → `-32602`). A version the server
 * does not implement → `-32022` listing the supported versions. Nothing is remembered
 * between requests: servers MUST NOT infer capabilities from prior requests.
 */
import { ErrorCode, rpcError, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { merged } from "../jsonrpc/safe-json.js";
import { MetaKey } from "../model/meta.js";
import { isModernVersion, type ModernVersion, type ProtocolVersion } from "../model/versions.js";
import { levelRank } from "../session/logging.js";
import type { Implementation, LoggingLevel } from "../session/types.js";

/** What a modern request declares about itself. */
export interface RequestMeta {
  version: ModernVersion;
  capabilities: JsonObject;
  clientInfo?: Implementation;
  logLevel?: LoggingLevel;
}

function metaOf(params: unknown): JsonObject | undefined {
  if (params === null || typeof params !== "object") return undefined;
  const meta = (params as JsonObject)._meta;
  return meta !== null && typeof meta === "object" && !Array.isArray(meta) && Object.hasOwn(params, "_meta") ? (meta as JsonObject) : undefined;
}

/**
 * True when a request opens the modern way: it names its protocol version in `_meta`.
 * (A dual-era server picks its behaviour per request from this, `basic/versioning`.)
 */
export function isModernRequest(params: unknown): boolean {
  try {
    const meta = metaOf(params);
    return meta !== undefined && Object.hasOwn(meta, MetaKey.protocolVersion);
  } catch {
    // Params whose getter (or Proxy trap) throws name no version that can be read: not modern (the kernel never throws across its boundary).
    return false;
  }
}

/** The `-32602` message when `_meta` has no protocol version string, else null. */
function missingVersion(meta: JsonObject | undefined): string | null {
  return typeof meta?.[MetaKey.protocolVersion] === "string" ? null : `missing required _meta field ${MetaKey.protocolVersion}`;
}

/** The `-32602` message for the other per-request fields (capabilities, log level), else null. */
function invalidFields(meta: JsonObject): string | null {
  const capabilities = meta[MetaKey.clientCapabilities];
  if (capabilities === null || typeof capabilities !== "object" || Array.isArray(capabilities)) return `missing required _meta field ${MetaKey.clientCapabilities}`;
  const level = meta[MetaKey.logLevel];
  return level !== undefined && levelRank(level) < 0 ? `invalid ${MetaKey.logLevel}: ${JSON.stringify(level)}` : null;
}

/** The `-32602` for a request whose `_meta` has no protocol version string (SEP-2575: such a request is malformed). */
export function missingVersionError(params: unknown): JsonRpcErrorObject | null {
  const why = missingVersion(metaOf(params));
  return why === null ? null : rpcError(ErrorCode.InvalidParams, why);
}

/**
 * True when the request's `_meta` is malformed: a required per-request field is missing or
 * a field is invalid (the `-32602` cases of {@link readRequestMeta}). SEP-2575 ties these
 * to `400 Bad Request` on HTTP, unlike a `-32602` about the method's own params.
 */
export function isMalformedRequestMeta(params: unknown): boolean {
  const meta = metaOf(params);
  return missingVersion(meta) !== null || invalidFields(meta!) !== null;
}

/**
 * Reads and checks the per-request fields; the error is exactly the one the spec names.
 * Params whose getter (or Proxy trap) throws are `-32602` too, as a value (the kernel never
 * throws across its boundary); `supported` that is no array supports nothing.
 */
export function readRequestMeta(params: unknown, supported: readonly ProtocolVersion[]): { ok: true; meta: RequestMeta } | { ok: false; error: JsonRpcErrorObject } {
  try {
    return readMeta(params, Array.isArray(supported) ? supported : []);
  } catch {
    return { ok: false, error: rpcError(ErrorCode.InvalidParams, "the request's _meta could not be read") };
  }
}

function readMeta(params: unknown, supported: readonly ProtocolVersion[]): { ok: true; meta: RequestMeta } | { ok: false; error: JsonRpcErrorObject } {
  const meta = metaOf(params);
  const missing = missingVersion(meta);
  if (missing !== null) return { ok: false, error: rpcError(ErrorCode.InvalidParams, missing) };
  const version = meta![MetaKey.protocolVersion] as string;
  if (!isModernVersion(version) || !supported.includes(version)) {
    // A 2025-era version this server speaks is in `supported` too, but not per request: say
    // so, or the error reads as refusing a version it lists (a client retrying with the
    // "mutually supported" version would loop; draft basic/versioning).
    const message = supported.includes(version as ProtocolVersion) ? `Unsupported protocol version: ${version} is spoken after the initialize handshake, not per request` : "Unsupported protocol version";
    return { ok: false, error: rpcError(ErrorCode.UnsupportedProtocolVersion, message, { supported: [...supported], requested: version }) };
  }
  const invalid = invalidFields(meta!);
  if (invalid !== null) return { ok: false, error: rpcError(ErrorCode.InvalidParams, invalid) };
  const result: RequestMeta = { version, capabilities: meta![MetaKey.clientCapabilities] as JsonObject };
  const info = meta![MetaKey.clientInfo];
  if (info !== undefined) result.clientInfo = info as Implementation;
  const level = meta![MetaKey.logLevel];
  if (level !== undefined) result.logLevel = level as LoggingLevel;
  return { ok: true, meta: result };
}

/**
 * The client's capabilities as a modern request declares them: draft `ClientCapabilities`
 * has `roots: {}` (the era has no `notifications/roots/list_changed`), so a `listChanged`
 * a legacy declaration carries is left out.
 */
function modernCapabilities(capabilities: JsonObject): JsonObject {
  const roots = capabilities.roots;
  if (roots === null || typeof roots !== "object" || Array.isArray(roots) || !Object.hasOwn(roots, "listChanged")) return capabilities;
  const rest = merged(roots);
  delete rest.listChanged;
  return merged(capabilities, { roots: rest }) as JsonObject;
}

/** Params with the client's per-request fields added to `_meta` (the caller's object is untouched). */
export function withRequestMeta(params: JsonObject | undefined, version: ModernVersion, capabilities: JsonObject, clientInfo: Implementation | undefined, logLevel: LoggingLevel | undefined): JsonObject {
  // Copies extended in place (as merged() with the fields would, without the objects that carry them): once per request.
  const meta = merged(metaOf(params)) as JsonObject;
  meta[MetaKey.protocolVersion] = version;
  meta[MetaKey.clientCapabilities] = modernCapabilities(capabilities);
  if (clientInfo !== undefined) meta[MetaKey.clientInfo] = clientInfo;
  if (logLevel !== undefined) meta[MetaKey.logLevel] = logLevel;
  const out = merged(params) as JsonObject;
  out._meta = meta;
  return out;
}

/** Methods whose complete results MUST carry caching hints (draft `server/utilities/caching`). */
export const CACHEABLE_METHODS: readonly string[] = ["server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"];

/**
 * A cacheable complete result as a client reads it (draft `server/utilities/caching`): an
 * absent `ttlMs` is 0 ("clients SHOULD assume a default of 0"), a negative one is ignored
 * and treated as 0, and so is any other value that is not the integer the schema asks for;
 * an absent or unknown `cacheScope` is "private", the scope that shares nothing (the page
 * names no default, and SEP-2549 keeps the field required because no default is safe).
 * Hints are advice: a server that gets them wrong is still understood, and the application
 * gets the result with the hints it may rely on. Our own server stays strict
 * ({@link stampResult} and the outgoing schema check).
 */
export function readCacheHints(method: string, result: JsonObject): JsonObject {
  if (!CACHEABLE_METHODS.includes(method) || (result.resultType ?? "complete") !== "complete") return result;
  const ttl = result.ttlMs;
  const ttlOk = typeof ttl === "number" && Number.isSafeInteger(ttl) && ttl >= 0;
  const scopeOk = result.cacheScope === "public" || result.cacheScope === "private";
  if (ttlOk && scopeOk) return result;
  const fixed: JsonObject = {};
  if (!ttlOk) fixed.ttlMs = 0;
  if (!scopeOk) fixed.cacheScope = "private";
  return merged(result, fixed) as JsonObject;
}

/**
 * A modern result as it goes on the wire: `resultType` (MUST; `complete` when the handler
 * gave none), `_meta.serverInfo` (SHOULD), and caching hints on complete results of the
 * cacheable methods (MUST) when the handler gave none. An `input_required` result goes
 * without the hints a handler may have put on it: interim results "are not cacheable and
 * carry no caching hints" (draft `server/utilities/caching`), and a `public` scope on one
 * would invite a shared cache to keep it.
 */
export function stampResult(method: string, result: JsonObject, serverInfo: Implementation, cache: { ttlMs: number; scope: "public" | "private" }): JsonObject {
  const out = merged(result) as JsonObject;
  if (out.resultType === undefined) out.resultType = "complete";
  const given = out._meta !== null && typeof out._meta === "object" && !Array.isArray(out._meta) ? (out._meta as JsonObject) : undefined;
  const meta = merged(given) as JsonObject;
  if (given === undefined || !Object.hasOwn(given, MetaKey.serverInfo)) meta[MetaKey.serverInfo] = serverInfo;
  out._meta = meta;
  if (out.resultType === "input_required") {
    delete out.ttlMs;
    delete out.cacheScope;
  } else if (out.resultType === "complete" && CACHEABLE_METHODS.includes(method)) {
    if (out.ttlMs === undefined) out.ttlMs = cache.ttlMs;
    if (out.cacheScope === undefined) out.cacheScope = cache.scope;
  }
  return out;
}
