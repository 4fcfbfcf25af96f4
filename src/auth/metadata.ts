/**
 * Discovery documents of draft `basic/authorization/authorization-server-discovery`:
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) and Authorization Server Metadata
 * (RFC 8414 / OpenID Connect Discovery 1.0). Pure: URL construction and validation only.
 */

/** RFC 9728 §2, the fields MCP uses. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
  bearer_methods_supported?: string[];
  resource_name?: string;
  [field: string]: unknown;
}

/** RFC 8414 §2, the fields MCP uses. */
export interface AuthorizationServerMetadata {
  issuer: string;
  /** REQUIRED for the authorization code grant (RFC 8414 §2); a server with only the client credentials grant may leave it out. */
  authorization_endpoint?: string;
  token_endpoint: string;
  registration_endpoint?: string;
  scopes_supported?: string[];
  response_types_supported?: string[];
  grant_types_supported?: string[];
  code_challenge_methods_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  /** The JWS algorithms the server accepts for `private_key_jwt` client assertions. */
  token_endpoint_auth_signing_alg_values_supported?: string[];
  client_id_metadata_document_supported?: boolean;
  authorization_response_iss_parameter_supported?: boolean;
  [field: string]: unknown;
}

/** The path prefix of Protected Resource Metadata (RFC 9728 §3): the resource's own path is appended to it. */
export const PROTECTED_RESOURCE_WELL_KNOWN = "/.well-known/oauth-protected-resource";

/**
 * `https://h/a/b/` → `/a/b`; the root → "". A loop, not `/\/+$/`: the paths come from peers
 * (a metadata document's `resource`, its `authorization_servers`), and that pattern, tried
 * at every slash of a long run that does not end the path, takes quadratic time (minutes
 * for the 1 MiB a metadata document may hold).
 */
function trimmedPath(url: URL): string {
  const path = url.pathname;
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
  return path.slice(0, end);
}

/**
 * The canonical URI of an MCP server (draft authorization, "Canonical Server URI"):
 * lower-case scheme and host (URL does that), no fragment, no trailing slash unless the
 * path is only "/", and no query unless `keepQuery` (RFC 8707 §2: a resource SHOULD NOT
 * have one, but may need one to name it; a server's metadata may say so).
 */
export function canonicalResourceUri(serverUrl: string | URL, keepQuery = false): string {
  const url = new URL(String(serverUrl));
  return `${url.protocol}//${url.host}${trimmedPath(url)}${keepQuery ? url.search : ""}`;
}

/**
 * Where a client looks for the Protected Resource Metadata of `serverUrl`, in the order
 * the page gives: path-inserted well-known URI, then the root (the root alone when the
 * endpoint is at the root). RFC 9728 §3.1 inserts the well-known string "between the host
 * component and the path and/or query components": the query stays.
 */
export function protectedResourceMetadataUrls(serverUrl: string | URL): string[] {
  const url = new URL(String(serverUrl));
  const root = `${url.origin}${PROTECTED_RESOURCE_WELL_KNOWN}`;
  const inserted = `${root}${trimmedPath(url)}${url.search}`;
  return inserted !== root ? [inserted, root] : [root];
}

/**
 * Where a client looks for the metadata of `issuer` (draft authorization-server-discovery,
 * "Authorization Server Metadata Discovery"): with a path, OAuth path insertion, OIDC path
 * insertion, OIDC path appending; without, OAuth then OIDC.
 */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = trimmedPath(url);
  const oauth = `${url.origin}/.well-known/oauth-authorization-server`;
  const oidc = `${url.origin}/.well-known/openid-configuration`;
  return path ? [`${oauth}${path}`, `${oidc}${path}`, `${url.origin}${path}/.well-known/openid-configuration`] : [oauth, oidc];
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/**
 * An authorization server metadata list as the client reads it: a value that is no array
 * (`null`, a string, a number) counts as left out and entries that are no strings are
 * skipped. Such a document is not refused for it, and the reducer must not throw on it.
 */
export const metadataList = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined);
const parseUrl = (v: unknown): URL | undefined => {
  if (typeof v !== "string") return undefined;
  try { return new URL(v); } catch { return undefined; }
};
const isHttpUrl = (v: unknown): boolean => /^https?:$/.test(parseUrl(v)?.protocol ?? "");

/** An http(s) URL on a loopback host: `localhost`, 127.0.0.0/8 or `[::1]` (URL has normalised the address). */
export function isLoopbackUrl(value: unknown): boolean {
  const url = parseUrl(value);
  if (!url || !/^https?:$/.test(url.protocol)) return false;
  return url.hostname === "localhost" || url.hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

/**
 * draft security-considerations, "Communication Security": authorization server endpoints
 * MUST be served over HTTPS and redirect URIs MUST be `localhost` or HTTPS. http is let
 * through on a loopback host only, where nothing crosses a network (local development).
 */
export function isHttpsOrLoopback(value: unknown): boolean {
  return parseUrl(value)?.protocol === "https:" || isLoopbackUrl(value);
}

/**
 * client-registration, Client ID Metadata Documents: the `client_id` URL MUST use the
 * "https" scheme and contain a path component, "following RFC requirements": the Client
 * ID Metadata Document draft (§3) also forbids a fragment, a username or password, and
 * `.` / `..` path segments (the URL must be the document's exact, canonical name).
 */
export function isClientIdMetadataUrl(value: unknown): boolean {
  const url = parseUrl(value);
  if (url?.protocol !== "https:" || url.pathname === "/" || url.username !== "" || url.password !== "") return false;
  // The text must already be the URL's canonical form: parsing would have resolved dot
  // segments (written with `/`, `\\` or `%2e`) away and dropped tabs, so any of those, or an
  // empty fragment, makes the two differ.
  const raw = value as string;
  return !raw.includes("#") && url.href === raw;
}

/** Validates a Protected Resource Metadata document; returns why it is unusable, if it is. */
export function protectedResourceMetadataProblem(doc: unknown): string | undefined {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return "not a JSON object";
  const d = doc as Record<string, unknown>;
  if (!isHttpUrl(d.resource)) return "resource is missing or not an http(s) URL";
  // draft authorization-server-discovery: the document MUST list at least one server.
  if (!isStringArray(d.authorization_servers) || d.authorization_servers.length === 0) return "authorization_servers is missing or empty";
  if (!d.authorization_servers.every(isHttpsOrLoopback)) return "authorization_servers holds a value that is not an https URL (authorization servers MUST be served over HTTPS)";
  if (d.scopes_supported !== undefined && !isStringArray(d.scopes_supported)) return "scopes_supported is not an array of strings";
  return undefined;
}

/**
 * True when the metadata's `resource` names the server the client is talking to: the same
 * origin, and a path equal to or a parent of the server's (RFC 9728 §3.3 with the
 * draft's "most specific URI" guidance). A `resource` with a query names that query's
 * resource only: the server's query must be the same.
 */
export function resourceMatchesServer(resource: string, serverUrl: string | URL): boolean {
  let r: URL;
  try { r = new URL(resource); } catch { return false; }
  const s = new URL(String(serverUrl));
  if (r.origin !== s.origin || (r.search !== "" && r.search !== s.search)) return false;
  const rp = trimmedPath(r);
  const sp = trimmedPath(s);
  return rp === "" || sp === rp || sp.startsWith(`${rp}/`);
}

/**
 * Validates Authorization Server Metadata fetched for `issuer`. The `issuer` in the
 * document MUST be identical (simple string comparison) to the one used to build the
 * well-known URL (RFC 8414 §3.3), else the metadata MUST NOT be used. `grant` is the one
 * the client means to use: the client credentials grant needs no authorization endpoint.
 */
export function authorizationServerMetadataProblem(doc: unknown, issuer: string, grant: "authorization_code" | "client_credentials" = "authorization_code"): string | undefined {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return "not a JSON object";
  const d = doc as Record<string, unknown>;
  if (d.issuer !== issuer) return `issuer ${JSON.stringify(d.issuer)} is not the expected ${JSON.stringify(issuer)}`;
  // Communication Security: every endpoint the client sends a code, verifier or secret to MUST be HTTPS.
  const needsAuthorizationEndpoint = grant === "authorization_code" || d.authorization_endpoint !== undefined;
  if (needsAuthorizationEndpoint && !isHttpsOrLoopback(d.authorization_endpoint)) return "authorization_endpoint is missing or not an https URL";
  if (!isHttpsOrLoopback(d.token_endpoint)) return "token_endpoint is missing or not an https URL";
  if (d.registration_endpoint !== undefined && !isHttpsOrLoopback(d.registration_endpoint)) return "registration_endpoint is not an https URL";
  return undefined;
}
