/**
 * The resource-server side of draft `basic/authorization`: a wrapper around any
 * fetch-style MCP handler that serves Protected Resource Metadata (RFC 9728), answers
 * requests without a valid token with 401 and a `WWW-Authenticate` challenge, answers a
 * token lacking a scope with 403 `insufficient_scope` (step-up), and enforces that the
 * token was issued for this resource (RFC 8707 audience binding).
 *
 * Token validity is the application's call (a JWT check, introspection, a lookup): the
 * wrapper enforces what the spec requires on top of it. Tokens never reach a log: the
 * diagnostics this module emits name the failure, never the credential.
 */
import { canonicalResourceUri, PROTECTED_RESOURCE_WELL_KNOWN, type ProtectedResourceMetadata } from "./metadata.js";
import { formatBearerChallenge } from "./www-authenticate.js";
import { corsHeaders, isPreflight, PREFLIGHT } from "../transports/http/cors.js";
import { type BodyResult, DEFAULT_MAX_BODY_BYTES, httpError, letGo, NOT_UTF8_BODY, readBodyText } from "../transports/http/body.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import { doorCheckOf } from "../transports/http-view.js";
import { rememberAuthInfo, type VerifiedToken } from "./auth-info.js";

export { authInfo, type AuthInfo, type VerifiedToken } from "./auth-info.js";
import { knownNames, refuseMisreadNumbers, refuseMisspelledOptions } from "../api/option-names.js";


/** The options of {@link protectedResource}: who this resource is, who issues its tokens, and how to check one. */
export interface ProtectedResourceOptions {
  /** The MCP endpoint's public URL; its canonical form is the resource identifier. */
  resource: string;
  /** Issuer URLs of the authorization servers that issue tokens for this resource. */
  authorizationServers: string[];
  /** Scopes a client needs for basic use; advertised in metadata and the 401 challenge. */
  scopesSupported?: string[] | undefined;
  /** Decides whether a token is valid; undefined (or a rejection) means it is not. */
  verifyToken: (token: string) => Promise<VerifiedToken | undefined>;
  /**
   * The scopes a request needs, given its parsed JSON-RPC body (`undefined` when it is no
   * JSON). A 2025-03-26 batch (which a client may ask for at `initialize`) is asked about
   * member by member, and needs every scope any member needs: a check of `body.params`
   * holds for batches too. Default: `scopesSupported`.
   */
  requiredScopes?: ((body: unknown, request: Request) => string[] | Promise<string[]>) | undefined;
  /**
   * Whether the granted scopes satisfy a required one. Default: exact match, or a granted
   * scope that is a `:`-separated prefix of the required one (`files` covers
   * `files:read`), because servers MUST account for scope hierarchies.
   */
  scopeSatisfies?: ((granted: readonly string[], required: string) => boolean) | undefined;
  /**
   * Largest POST body read for {@link ProtectedResourceOptions.requiredScopes}, in bytes:
   * a larger one is answered 413 unread (as the MCP handler would). Default 4 MiB, the
   * handler's default `maxBodyBytes`; give the handler's value if it has another.
   */
  maxBodyBytes?: number | undefined;
  /** Extra fields of the metadata document (`resource_name`, `resource_documentation`...). */
  metadata?: Record<string, unknown> | undefined;
  /** The clock for `expiresAt` (ms since the epoch). Default `Date.now`. */
  now?: (() => number) | undefined;
  /** Told about each rejection, without the token. */
  onDiagnostic?: ((d: { status: number; error: string; description: string }) => void) | undefined;
}

/** Default scope hierarchy: `a` covers `a:b` and `a:b:c`. */
export function hierarchicalScopeSatisfies(granted: readonly string[], required: string): boolean {
  return granted.some((g) => g === required || required.startsWith(`${g}:`));
}

/**
 * Wraps `handler` so that it only sees requests carrying a valid token for this resource.
 * The metadata document is served (GET, unauthenticated, CORS-readable) at both
 * well-known locations a client may probe.
 */
export function protectedResource(
  handler: (request: Request) => Promise<Response>,
  options: ProtectedResourceOptions,
): (request: Request) => Promise<Response> {
  refuseMisreadOptions(handler, options);
  // The query stays: RFC 8707 §2 allows one that scopes requests to an application (a
  // tenant), and the resource a client reads from the metadata and asks a token for has it.
  const resource = canonicalResourceUri(options.resource, true);
  const resourceUrl = new URL(resource);
  const metadataPaths = new Set([`${PROTECTED_RESOURCE_WELL_KNOWN}${resourceUrl.pathname === "/" ? "" : resourceUrl.pathname}`, PROTECTED_RESOURCE_WELL_KNOWN]);
  // RFC 9728 §3.1: the well-known string goes between the host and the path and query.
  const metadataUrl = `${resourceUrl.origin}${PROTECTED_RESOURCE_WELL_KNOWN}${resourceUrl.pathname === "/" ? "" : resourceUrl.pathname}${resourceUrl.search}`;
  const document: ProtectedResourceMetadata = {
    ...options.metadata,
    resource,
    authorization_servers: [...options.authorizationServers],
    ...(options.scopesSupported ? { scopes_supported: [...options.scopesSupported] } : {}),
    bearer_methods_supported: ["header"],
  };
  const documentText = JSON.stringify(document);
  const satisfies = options.scopeSatisfies ?? hierarchicalScopeSatisfies;
  const now = options.now ?? Date.now;
  const scopeParam = (scopes: readonly string[] | undefined) => (scopes && scopes.length ? scopes.join(" ") : undefined);

  // A cross-origin page must be able to read the challenge to start the flow: the 401 / 403
  // carries CORS for the request's origin (it tells no more than the public metadata does).
  const reject = (origin: string | null, status: 400 | 401 | 403, error: string | undefined, description: string, scopes?: readonly string[]): Response => {
    options.onDiagnostic?.({ status, error: error ?? "missing_token", description });
    const challenge = formatBearerChallenge({
      ...(error ? { error, error_description: description } : {}),
      scope: scopeParam(scopes),
      resource_metadata: metadataUrl,
    });
    const body = error ? JSON.stringify({ error, error_description: description }) : undefined;
    return new Response(body ?? null, {
      status,
      headers: { "www-authenticate": challenge, ...(body ? { "content-type": "application/json" } : {}), ...(origin !== null ? corsHeaders(origin) : {}) },
    });
  };

  const atDoor = doorCheckOf(handler);
  return async (request) => {
    const url = new URL(request.url);
    if (metadataPaths.has(url.pathname)) {
      if (request.method === "OPTIONS") {
        // A browser client may send headers of its own (MCP-Protocol-Version) on discovery:
        // the document is public, so whatever a preflight asks for is allowed.
        const asked = request.headers.get(PREFLIGHT.headers);
        return new Response(null, { status: 204, headers: asked === null ? METADATA_CORS : { ...METADATA_CORS, "access-control-allow-headers": asked } });
      }
      if (request.method !== "GET" && request.method !== "HEAD") return new Response(null, { status: 405, headers: { allow: "GET, HEAD, OPTIONS" } });
      return new Response(request.method === "HEAD" ? null : documentText, { status: 200, headers: { "content-type": "application/json", ...METADATA_CORS } });
    }
    // A Host or Origin the handler refuses gets its 403 (2025-11-25 basic/transports,
    // Security Warning: an invalid Origin MUST get 403), not a 401 challenge that would
    // echo that origin in CORS headers: the handler answers it, without reading the body.
    if (atDoor?.(request) === true) return handler(request);
    const origin = request.headers.get("origin");
    // A CORS preflight never carries credentials (Fetch standard): the inner handler answers
    // it, with its own Origin policy, and the request that follows is checked here as usual.
    if (origin !== null && isPreflight(request.method, request.headers.get(PREFLIGHT.method))) return handler(request);
    // OAuth 2.1 §5.1: tokens MUST NOT travel in the query string; refuse rather than accept one.
    if (url.searchParams.has("access_token")) return reject(origin, 400, "invalid_request", "access tokens are not accepted in the query string");
    const header = request.headers.get("authorization") ?? "";
    // RFC 6750 §3.1: no credentials, or another scheme (an unsupported method), get a
    // challenge without an error code; a malformed Bearer header is invalid_request, 400.
    if (!/^bearer(?: |$)/i.test(header)) return reject(origin, 401, undefined, header ? "the Authorization header is not a Bearer token" : "no access token", options.scopesSupported);
    const match = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match) return reject(origin, 400, "invalid_request", "the Authorization header is a malformed Bearer token");
    let verified: VerifiedToken | undefined;
    try {
      verified = await options.verifyToken(match[1]);
    } catch {
      verified = undefined;
    }
    // A verifier's answer of the wrong shape (no scopes list, no audience) verifies nothing either.
    if (!isVerifiedToken(verified)) return reject(origin, 401, "invalid_token", "the access token is invalid", options.scopesSupported);
    const at = now();
    if (verified.expiresAt !== undefined && expiryMs(verified.expiresAt, at) <= at) return reject(origin, 401, "invalid_token", "the access token has expired", options.scopesSupported);
    // RFC 8707 §2 / draft "Token Handling": the token MUST have been issued for this server.
    const audiences = Array.isArray(verified.audience) ? verified.audience : [verified.audience];
    if (!audiences.some((aud) => namesResource(aud, resource))) return reject(origin, 401, "invalid_token", "the access token was not issued for this resource", options.scopesSupported);
    if (verified.issuer !== undefined && !options.authorizationServers.includes(verified.issuer)) {
      return reject(origin, 401, "invalid_token", "the access token comes from an authorization server this resource does not trust", options.scopesSupported);
    }
    const required = await requiredScopesOf(request, options);
    if (required instanceof BodyRefused) {
      // The handler's own answer to such a body (413, or 400 for one cut off).
      const { status, reason } = required.read;
      return httpError(status, status === 413 ? ErrorCode.InvalidRequest : ErrorCode.ParseError, reason, origin !== null ? { headers: corsHeaders(origin) } : {});
    }
    const missing = required.filter((s) => !satisfies(verified.scopes, s));
    // draft "Runtime Insufficient Scope Errors": every scope the operation needs, in one challenge.
    if (missing.length) return reject(origin, 403, "insufficient_scope", `this operation needs the scope ${missing.join(" ")}`, required);
    rememberAuthInfo(request, { token: verified, scopes: verified.scopes });
    return handler(request);
  };
}

const OPTION_NAMES = /* @__PURE__ */ knownNames<ProtectedResourceOptions>()([
  "resource",
  "authorizationServers",
  "scopesSupported",
  "verifyToken",
  "requiredScopes",
  "scopeSatisfies",
  "maxBodyBytes",
  "metadata",
  "now",
  "onDiagnostic",
]);

/**
 * Options the wrapper would misread rather than refuse, named: a misspelled `requiredScope`
 * left every operation needing only `scopesSupported` (per-tool scopes never enforced), a
 * `requiredScopes` list (the official SDK's shape) failed every request, and
 * `maxBodyBytes: "1mb"` compared as no bound at all.
 */
function refuseMisreadOptions(handler: unknown, options: ProtectedResourceOptions): void {
  if (typeof handler !== "function") throw new TypeError("protectedResource takes the fetch-style handler to protect first, then its options");
  if (typeof options !== "object" || options === null) throw new TypeError("protectedResource takes an options object: { resource, authorizationServers, verifyToken }");
  refuseMisspelledOptions("protectedResource", options, OPTION_NAMES);
  if (typeof options.verifyToken !== "function") throw new TypeError("protectedResource: verifyToken must be a function (token) => VerifiedToken | undefined");
  // The official SDK's `requiredScopes` is a list: one ported as is failed every request
  // with "options.requiredScopes is not a function", thrown from the handler.
  if (options.requiredScopes !== undefined && typeof options.requiredScopes !== "function") {
    throw new TypeError("protectedResource: requiredScopes must be a function (body, request) => string[]; scopes every request needs go in scopesSupported");
  }
  refuseMisreadNumbers("protectedResource", options, ["maxBodyBytes"]);
  // authorization-server-discovery: the metadata document MUST list at least one
  // authorization server. A single string (not a list) was spread into its characters in
  // the document, and its `includes` made a token's issuer pass when it was any substring
  // of the URL ("auth" was trusted as "https://auth.example.com").
  if (!isStrings(options.authorizationServers) || options.authorizationServers.length === 0) {
    throw new TypeError("protectedResource: authorizationServers must be a non-empty list of issuer URLs (the metadata document MUST name at least one authorization server)");
  }
  // A string here became one scope per character in the metadata, and failed every request.
  if (options.scopesSupported !== undefined && !isStrings(options.scopesSupported)) throw new TypeError("protectedResource: scopesSupported must be a list of scopes");
}

/** Below this, an `expiresAt` may be in seconds (10^11 ms is March 1973; 10^11 s, the year 5138). */
const SECONDS_BELOW = 1e11;

/** The furthest an expiry read as seconds may lie ahead: a timestamp in ms from before 1973 would otherwise read as centuries ahead. */
const SECONDS_HORIZON_MS = 10 * 365 * 24 * 3600 * 1000;

/** A verifier's `expiresAt` in milliseconds, given the clock's reading (a test's clock near 0 takes it as given). */
function expiryMs(expiresAt: number, now: number): number {
  return expiresAt < SECONDS_BELOW && now >= SECONDS_BELOW && expiresAt * 1000 <= now + SECONDS_HORIZON_MS ? expiresAt * 1000 : expiresAt;
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/** A verifier's answer the wrapper can check: scopes a list of strings, audience a string or a list of them, subject a string if given. */
function isVerifiedToken(v: unknown): v is VerifiedToken {
  if (typeof v !== "object" || v === null) return false;
  const t = v as { scopes?: unknown; audience?: unknown; expiresAt?: unknown; subject?: unknown };
  // NaN (a `Date.parse` of garbage) would compare as never expired. A subject that is no
  // string (a numeric user id) would be no principal to `httpSession({ principalOf })`,
  // which then binds the session to nobody: any other user's token could use and end it.
  return (
    isStrings(t.scopes) &&
    (typeof t.audience === "string" || isStrings(t.audience)) &&
    (t.expiresAt === undefined || Number.isFinite(t.expiresAt)) &&
    (t.subject === undefined || typeof t.subject === "string")
  );
}

const METADATA_CORS = { "access-control-allow-origin": "*", "access-control-allow-methods": "GET, HEAD, OPTIONS" };

/**
 * Whether a token audience is this resource. Case of scheme and host, a default port and a
 * trailing slash are forgiven (the canonical form); another query is not, since it names
 * another resource (an empty one too), nor a fragment, which RFC 8707 §2 forbids in a
 * resource identifier.
 */
function namesResource(audience: string, resource: string): boolean {
  if (audience.includes("#")) return false;
  try {
    const canonical = canonicalResourceUri(audience, true);
    if (audience.includes("?") && !canonical.includes("?")) return false;
    return canonical === resource;
  } catch {
    return false;
  }
}

/** A body the wrapper could not read whole, so the request is not passed on. */
class BodyRefused {
  constructor(readonly read: Extract<BodyResult, { ok: false }>) {}
}

/**
 * Reads the body once (on a clone, so the inner handler still can) to ask for scopes, at
 * most `maxBodyBytes` of it: past that, or cut off, {@link BodyRefused}.
 */
async function requiredScopesOf(request: Request, options: ProtectedResourceOptions): Promise<string[] | BodyRefused> {
  if (!options.requiredScopes) return options.scopesSupported ?? [];
  let body: unknown;
  if (request.method === "POST") {
    const copy = request.clone();
    const read = await readBodyText(copy, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    // Too large, or cut off when the request's signal aborted mid-read: the original's
    // branch of the tee may still receive the rest, and the handler would serve it under
    // the scopes of no body (a tools/call needing `files:write` ran on a token without it).
    // A body that is not UTF-8 goes on: the handler refuses the same bytes itself (and
    // fails the session request a malformed answer names).
    if (!read.ok && read !== NOT_UTF8_BODY) {
      // Both branches of the clone's tee are cancelled (the clone's by the read), which
      // cancels the stream itself (the original's branch would otherwise keep what the clone read).
      letGo(request.body);
      return new BodyRefused(read);
    }
    try {
      body = read.ok ? JSON.parse(read.text) : undefined;
    } catch {
      body = undefined; // the MCP handler answers the parse error itself
    }
  }
  if (!Array.isArray(body) || body.length === 0) return options.requiredScopes(body, request);
  // A batch needs what each of its members needs.
  const needed = new Set<string>();
  for (const member of body) for (const scope of await options.requiredScopes(member, request)) needed.add(scope);
  return [...needed];
}

