/**
 * The OAuth part of the `demo-client` verb: for the conformance suite's `auth/*`
 * scenarios, a fetch that authorizes through {@link oauthFetch} with no user in the loop
 * (the suite's authorization server approves at once and redirects back). Its
 * `auth/client-credentials-*` scenarios (the SEP-1046 extension) get a client acting on
 * its own behalf, with the credentials the suite hands over: a secret, or a private key.
 */
import { followAuthorizationRedirect, oauthFetch, type OAuthFetch } from "../auth/oauth-fetch.js";

/** The Client ID Metadata Document URL the suite recognises for `auth/basic-cimd`. */
export const CONFORMANCE_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/** The suite's client credentials scenarios (`io.modelcontextprotocol/oauth-client-credentials`). */
const CLIENT_CREDENTIALS_SCENARIO = /^auth\/client-credentials-/;

/**
 * An OAuth-aware fetch for `serverUrl` when `scenario` is an authorization scenario,
 * else undefined. `context` is the suite's `MCP_CONFORMANCE_CONTEXT` (pre-registered
 * credentials arrive there: `client_id`, `client_secret`, and for `private_key_jwt`
 * `private_key_pem` with `signing_algorithm`); `protocolVersion` its
 * `MCP_CONFORMANCE_PROTOCOL_VERSION` (the 2025-03-26 scenarios need that revision's
 * discovery fallbacks).
 */
export function conformanceAuthFetch(serverUrl: string, scenario: string | undefined, context: string | undefined, protocolVersion?: string): OAuthFetch | undefined {
  if (!scenario?.startsWith("auth/")) return undefined;
  let ctx: Record<string, unknown> = {};
  try {
    ctx = context ? (JSON.parse(context) as Record<string, unknown>) : {};
  } catch {
    ctx = {};
  }
  const text = (key: string) => (typeof ctx[key] === "string" ? (ctx[key] as string) : undefined);
  const clientId = text("client_id");
  const clientSecret = text("client_secret");
  const version = protocolVersion ? { protocolVersion } : {};
  if (CLIENT_CREDENTIALS_SCENARIO.test(scenario) || text("private_key_pem") !== undefined) {
    const privateKey = text("private_key_pem");
    const alg = text("signing_algorithm");
    return oauthFetch({
      serverUrl,
      ...version,
      clientCredentials: {
        clientId: clientId ?? "",
        ...(clientSecret !== undefined ? { clientSecret } : {}),
        ...(privateKey !== undefined ? { privateKey } : {}),
        ...(alg === "ES256" || alg === "RS256" ? { signingAlgorithm: alg } : {}),
      },
    });
  }
  return oauthFetch({
    serverUrl,
    redirectUri: "http://localhost:3000/callback",
    clientName: "mcp-kernel demo-client",
    clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
    ...version,
    ...(clientId ? { preRegistered: { clientId, ...(clientSecret ? { clientSecret } : {}) } } : {}),
    openAuthorization: followAuthorizationRedirect(),
  });
}
