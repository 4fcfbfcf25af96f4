/**
 * Token endpoint requests (OAuth 2.1 §3.2 / §4.1.3 / §4.2 / §4.3) with the client
 * authentication methods MCP clients use: `none` (public client, `client_id` in the body),
 * `client_secret_basic` (RFC 6749 §2.3.1: form-urlencoded id and secret in HTTP Basic),
 * `client_secret_post` (both in the body) and `private_key_jwt` (RFC 7523 §2.2: a signed
 * JWT in `client_assertion`; the SEP-1046 client credentials extension leaves `client_id`
 * out, the assertion's `sub` names the client).
 */

/** The methods of the authorization code grant's clients: public, or with a secret. */
export type ClientAuthMethod = "none" | "client_secret_basic" | "client_secret_post";

/** Every method a token request can authenticate with; `private_key_jwt` is the client credentials grant's (SEP-1046). */
export type TokenEndpointAuthMethod = ClientAuthMethod | "private_key_jwt";

/** RFC 7523 §2.2: the `client_assertion_type` of a JWT client assertion. */
export const JWT_BEARER_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/** `application/x-www-form-urlencoded` of `fields`, in their order. */
export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** RFC 6749 Appendix B: each half is form-urlencoded before base64. */
const basicCredentials = (id: string, secret: string): string => {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");
  const bytes = new TextEncoder().encode(`${enc(id)}:${enc(secret)}`);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
};

/** The request description for a token endpoint call. `clientAssertion` is the signed JWT `private_key_jwt` sends. */
export function tokenRequest(
  url: string,
  fields: Record<string, string>,
  creds: { clientId: string; clientSecret?: string | undefined; authMethod: TokenEndpointAuthMethod; clientAssertion?: string | undefined },
): { url: string; method: "POST"; headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  const body: Record<string, string> = { ...fields };
  if (creds.authMethod === "client_secret_basic" && creds.clientSecret !== undefined) {
    headers.authorization = basicCredentials(creds.clientId, creds.clientSecret);
  } else if (creds.authMethod === "private_key_jwt" && creds.clientAssertion !== undefined) {
    body.client_assertion_type = JWT_BEARER_ASSERTION_TYPE;
    body.client_assertion = creds.clientAssertion;
  } else {
    body.client_id = creds.clientId;
    if (creds.authMethod === "client_secret_post" && creds.clientSecret !== undefined) body.client_secret = creds.clientSecret;
  }
  return { url, method: "POST", headers, body: form(body) };
}
