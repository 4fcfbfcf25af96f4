/**
 * CORS for the MCP endpoint: what a browser needs before it lets a page on another origin
 * talk to the server (Fetch standard, "CORS protocol").
 *
 * The spec has no CORS section, but every MCP request a browser sends is one that needs a
 * preflight (`Content-Type: application/json`, `MCP-Protocol-Version`, `Mcp-Method`, ...)
 * and a session-based client must read `MCP-Session-Id` off the `initialize` response,
 * which a cross-origin page can only do when the server exposes it. Without this a page on
 * `http://localhost:5173` (a dev server, the MCP Inspector) cannot reach a server on
 * `http://localhost:3000` at all, though its origin passes the Origin check.
 *
 * Theory of operation. CORS here follows the Origin check and never widens it: only an
 * origin the handler already accepts (`allowedOrigins`) is echoed, never `*`, with
 * `Vary: Origin` so a cache keeps answers per origin. A disallowed origin keeps its 403 and
 * gets no CORS headers. Credentials (cookies) are not allowed: MCP authorizes with a bearer
 * token in `Authorization`, which a page sends without credentials mode. Everything here is
 * a pure function of header text.
 */

/** The CORS request headers a preflight carries. */
export const PREFLIGHT = {
  method: "access-control-request-method",
  headers: "access-control-request-headers",
} as const;

/** Response headers a cross-origin client must read: the session id, the version, an auth challenge. */
const EXPOSED = "mcp-session-id, mcp-protocol-version, www-authenticate";

/** How long a browser may cache a preflight answer, in seconds. */
const MAX_AGE = "600";

/** A header name (RFC 9110 `token`). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** True for a CORS preflight: `OPTIONS` naming the method it asks about (the `Origin` is checked by the caller). */
export function isPreflight(method: string, requestMethod: string | null): boolean {
  return method === "OPTIONS" && requestMethod !== null;
}

/** The headers every answer to an allowed cross-origin request carries. */
export function corsHeaders(origin: string): Record<string, string> {
  return { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED, vary: "Origin" };
}

/**
 * The headers of the 204 that answers an allowed preflight. The request headers the page
 * asked for are allowed back by name (the `Mcp-Param-*` names depend on the tool, so there
 * is no fixed list); a name that is not an HTTP token is left out, so no request text
 * reaches a response header unchecked.
 */
export function preflightHeaders(origin: string, methods: string, requested: string | null): Record<string, string> {
  const out: Record<string, string> = { ...corsHeaders(origin), "access-control-allow-methods": methods, "access-control-max-age": MAX_AGE };
  const names = (requested ?? "")
    .split(",")
    .map((n) => n.trim())
    .filter((n) => TOKEN.test(n));
  if (names.length > 0) out["access-control-allow-headers"] = names.join(", ");
  return out;
}
