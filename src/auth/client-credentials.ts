/**
 * The client credentials grant of the SEP-1046 extension
 * `io.modelcontextprotocol/oauth-client-credentials` (ext-auth
 * `specification/draft/oauth-client-credentials`; OAuth 2.1 §4.2, RFC 6749 §4.4): a client
 * acting on its own behalf, with no user and no browser, gets its token from the token
 * endpoint with credentials registered out of band.
 *
 * Theory of operation. Discovery is the authorization code flow's: Protected Resource
 * Metadata, then Authorization Server Metadata (client-flow.ts runs both, and binds the
 * credentials to their issuer as it does pre-registered ones). Then, instead of
 * registration, a redirect and a code exchange, one token request: `grant_type=
 * client_credentials` with the scope the Scope Selection Strategy picks and `resource`
 * (RFC 8707), authenticated by the client. The extension's methods are a JWT assertion
 * (`private_key_jwt`, RFC 7523 §2.2, RECOMMENDED) and a secret (`client_secret_basic`,
 * RFC 6749 §2.3.1's default, or `client_secret_post`). This module holds the pure
 * decisions: whether a configuration can work at all ({@link clientCredentialsConfigProblem})
 * and what an authorization server's metadata lets the client do
 * ({@link clientCredentialsMethod}), refused in the metadata's own terms when the grant,
 * the method or the signing algorithm is not advertised. The signing itself is the
 * adapter's (client-assertion.ts). There is no refresh (RFC 6749 §4.4.3: a refresh token
 * SHOULD NOT be included): a 401, an expired token or an `insufficient_scope` 403 runs
 * the grant again, which needs nothing the client does not already hold.
 */
import type { ClientAssertionAlgorithm } from "./client-assertion.js";
import { metadataList, type AuthorizationServerMetadata } from "./metadata.js";

/** How a client credentials client authenticates at the token endpoint. */
export type ClientCredentialsAuthMethod = "client_secret_basic" | "client_secret_post" | "private_key_jwt";

/** The pre-registered credentials of a client acting on its own behalf (the reducer's half: no private key, which stays with the adapter). */
export interface ClientCredentialsConfig {
  /** The `client_id` the authorization server registered. */
  clientId: string;
  /** For `client_secret_basic` / `client_secret_post`. Without one the client authenticates with `private_key_jwt`. */
  clientSecret?: string | undefined;
  /**
   * Default: with a secret, `client_secret_basic` (RFC 6749 §2.3.1: servers MUST support
   * it), or `client_secret_post` when the server lists only that; without a secret,
   * `private_key_jwt`.
   */
  authMethod?: ClientCredentialsAuthMethod | undefined;
  /** The JWS algorithm of the client assertion (default ES256). */
  signingAlgorithm?: ClientAssertionAlgorithm | undefined;
  /**
   * The issuer the credentials belong to. Without it they are bound to the first
   * authorization server they are used with and never sent to another
   * (client-registration, Authorization Server Binding), as pre-registered ones are.
   */
  issuer?: string | undefined;
}

/** What the token request needs beyond the credentials: the method, and for a JWT its algorithm. */
export type ClientCredentialsPlan = { authMethod: ClientCredentialsAuthMethod; alg: ClientAssertionAlgorithm } | { problem: string };

const METHODS: readonly string[] = ["client_secret_basic", "client_secret_post", "private_key_jwt"];
const ALGORITHMS: readonly string[] = ["ES256", "RS256"];

/** Why `config` can never get a token, if it cannot (a configuration error to surface before any request). */
export function clientCredentialsConfigProblem(config: ClientCredentialsConfig): string | undefined {
  if (typeof config.clientId !== "string" || config.clientId === "") return "clientCredentials.clientId is missing (the client credentials grant needs a pre-registered client)";
  if (config.authMethod !== undefined && !METHODS.includes(config.authMethod)) return `clientCredentials.authMethod ${JSON.stringify(config.authMethod)} is none of ${METHODS.join(", ")}`;
  if (config.signingAlgorithm !== undefined && !ALGORITHMS.includes(config.signingAlgorithm)) return `clientCredentials.signingAlgorithm ${JSON.stringify(config.signingAlgorithm)} is none of ${ALGORITHMS.join(", ")}`;
  // RFC 6749 §4.4: "The client credentials grant type MUST only be used by confidential clients."
  if (config.authMethod !== undefined && config.authMethod !== "private_key_jwt" && config.clientSecret === undefined) return `clientCredentials.authMethod ${config.authMethod} needs a clientSecret`;
  return undefined;
}

/** `a, b` of a metadata list, or "absent". */
const listed = (values: readonly string[] | undefined): string => (values === undefined ? "absent" : values.length ? values.join(", ") : "empty");

/**
 * The method and algorithm to authenticate with at `meta`'s token endpoint, or why the
 * server cannot be used. A list the metadata leaves out is not held against the client:
 * RFC 8414's defaults predate this grant, and many servers that support it do not say so;
 * the token endpoint's own refusal (`unsupported_grant_type`, `invalid_client`) then tells.
 * A list that is there and lacks what the client needs fails the flow before any secret or
 * assertion is sent.
 */
export function clientCredentialsMethod(config: ClientCredentialsConfig, meta: AuthorizationServerMetadata): ClientCredentialsPlan {
  const issuer = meta.issuer;
  const grants = metadataList(meta.grant_types_supported);
  if (grants !== undefined && !grants.includes("client_credentials")) {
    return { problem: `the authorization server ${issuer} does not support the client_credentials grant (grant_types_supported: ${listed(grants)})` };
  }
  const methods = metadataList(meta.token_endpoint_auth_methods_supported);
  const supports = (m: string) => methods === undefined || methods.includes(m);
  let authMethod = config.authMethod;
  if (authMethod === undefined && config.clientSecret === undefined) authMethod = "private_key_jwt";
  // RFC 6749 §2.3.1: servers MUST support HTTP Basic for clients with a password; post when only it is listed.
  if (authMethod === undefined) authMethod = supports("client_secret_basic") || !supports("client_secret_post") ? "client_secret_basic" : "client_secret_post";
  if (!supports(authMethod)) {
    return { problem: `the authorization server ${issuer} does not support the ${authMethod} client authentication method (token_endpoint_auth_methods_supported: ${listed(methods)})` };
  }
  const alg = config.signingAlgorithm ?? "ES256";
  const algs = metadataList(meta.token_endpoint_auth_signing_alg_values_supported);
  if (authMethod === "private_key_jwt" && algs !== undefined && !algs.includes(alg)) {
    return { problem: `the authorization server ${issuer} does not accept ${alg} client assertions (token_endpoint_auth_signing_alg_values_supported: ${listed(algs)})` };
  }
  return { authMethod, alg };
}
