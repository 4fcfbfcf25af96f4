/**
 * The OAuth part of the `demo-client` verb: for the conformance suite's `auth/*`
 * scenarios, a fetch that authorizes through {@link oauthFetch} with no user in the loop
 * (the suite's authorization server approves at once and redirects back).
 */
import { followAuthorizationRedirect, oauthFetch, type OAuthFetch } from "../auth/oauth-fetch.js";

/** The Client ID Metadata Document URL the suite recognises for `auth/basic-cimd`. */
export const CONFORMANCE_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * An OAuth-aware fetch for `serverUrl` when `scenario` is an authorization scenario,
 * else undefined. `context` is the suite's `MCP_CONFORMANCE_CONTEXT` (pre-registered
 * credentials arrive there); `protocolVersion` its `MCP_CONFORMANCE_PROTOCOL_VERSION` (the
 * 2025-03-26 scenarios need that revision's discovery fallbacks).
 */
export function conformanceAuthFetch(serverUrl: string, scenario: string | undefined, context: string | undefined, protocolVersion?: string): OAuthFetch | undefined {
  if (!scenario?.startsWith("auth/")) return undefined;
  let ctx: Record<string, unknown> = {};
  try {
    ctx = context ? (JSON.parse(context) as Record<string, unknown>) : {};
  } catch {
    ctx = {};
  }
  const clientId = typeof ctx.client_id === "string" ? ctx.client_id : undefined;
  const clientSecret = typeof ctx.client_secret === "string" ? ctx.client_secret : undefined;
  return oauthFetch({
    serverUrl,
    redirectUri: "http://localhost:3000/callback",
    clientName: "mcp-kernel demo-client",
    clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
    ...(protocolVersion ? { protocolVersion } : {}),
    ...(clientId ? { preRegistered: { clientId, ...(clientSecret ? { clientSecret } : {}) } } : {}),
    openAuthorization: followAuthorizationRedirect(),
  });
}
