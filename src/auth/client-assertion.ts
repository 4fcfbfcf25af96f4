/**
 * JWT client assertions for `private_key_jwt` client authentication (RFC 7523 §2.2 and
 * §3), the method the SEP-1046 client credentials extension
 * (`io.modelcontextprotocol/oauth-client-credentials`) RECOMMENDS.
 *
 * Theory of operation. An assertion is split where the kernel splits everything: what it
 * says is plain data, and signing it is an effect. The OAuth reducer only asks for one (its
 * `client-assertion` output names the client and the audience, the authorization server's
 * issuer); the adapter reads its clock, draws a random `jti`, builds the claims with
 * {@link clientAssertionClaims} (`iss` = `sub` = the client id, `aud`, `iat`, a short
 * `exp`) and signs them with {@link signClientAssertion}. JWS compact serialization is
 * written here (base64url of JSON, RFC 7515 §7.1) and the signature comes from WebCrypto's
 * `crypto.subtle` (Node ≥ 20, Deno, Bun, browsers, workerd): no JWT library. WebCrypto's
 * ECDSA signature is already JWS's fixed-width r‖s (RFC 7518 §3.4), so none is re-encoded.
 * The key is a `CryptoKey`, a private JWK or PKCS#8 PEM text ({@link importClientAssertionKey});
 * an error names what is wrong with the key, never its contents.
 */
import { base64url } from "../driver/request-state.js";

/** The JWS algorithms an assertion is signed with: ES256 (ECDSA P-256, the default) or RS256. */
export type ClientAssertionAlgorithm = "ES256" | "RS256";

/**
 * WebCrypto's `CryptoKey`, named through `crypto.subtle` so that declarations need no DOM
 * library (Node's types declare the global `crypto` as well).
 */
export type WebCryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** A private JSON Web Key (RFC 7517 §4, RFC 7518 §6): EC (`crv`, `x`, `y`, `d`) or RSA (`n`, `e`, `d`, and the CRT values). */
export interface PrivateJwk {
  kty?: string | undefined;
  crv?: string | undefined;
  x?: string | undefined;
  y?: string | undefined;
  n?: string | undefined;
  e?: string | undefined;
  d?: string | undefined;
  p?: string | undefined;
  q?: string | undefined;
  dp?: string | undefined;
  dq?: string | undefined;
  qi?: string | undefined;
  alg?: string | undefined;
  /** Sent as the JWS header's `kid`, for a server that holds several of the client's keys. */
  kid?: string | undefined;
  use?: string | undefined;
  key_ops?: string[] | undefined;
  ext?: boolean | undefined;
}

/** A private key to sign assertions with: a WebCrypto key, a private JWK, or PKCS#8 PEM text (`-----BEGIN PRIVATE KEY-----`). */
export type ClientAssertionKey = WebCryptoKey | PrivateJwk | string;

/** RFC 7523 §3's claims. */
export interface ClientAssertionClaims {
  /** The client id (item 1: the issuer is the client). */
  iss: string;
  /** The client id (item 2: "for client authentication, the subject MUST be the client_id"). */
  sub: string;
  /** The authorization server's issuer identifier (item 3). */
  aud: string;
  /** A unique identifier, so the server can refuse a replayed assertion (item 7). */
  jti: string;
  /** Issued at, seconds since the epoch (item 6). */
  iat: number;
  /** Expiry, seconds since the epoch (item 4). */
  exp: number;
}

/**
 * Seconds an assertion stays valid. It is signed just before the one request it goes in,
 * so a short life only bounds what a copy of it is worth (RFC 7523 §3 item 4 lets a
 * server refuse an `exp` far in the future); a minute leaves room for clock skew.
 */
export const CLIENT_ASSERTION_LIFETIME_S = 60;

/** The claims of an assertion by `clientId` for `audience`, issued at `nowMs`, identified by `jti`. */
export function clientAssertionClaims(clientId: string, audience: string, nowMs: number, jti: string): ClientAssertionClaims {
  const iat = Math.floor(nowMs / 1000);
  return { iss: clientId, sub: clientId, aud: audience, jti, iat, exp: iat + CLIENT_ASSERTION_LIFETIME_S };
}

/** WebCrypto's names for each algorithm: how a key is imported, how it signs, and what it must be. */
const ALGORITHMS = {
  ES256: { importAs: { name: "ECDSA", namedCurve: "P-256" }, signAs: { name: "ECDSA", hash: "SHA-256" }, kind: "an ECDSA P-256 key" },
  RS256: { importAs: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, signAs: { name: "RSASSA-PKCS1-v1_5" }, kind: "an RSA key with SHA-256" },
} as const;

/** A key ready to sign: the `CryptoKey`, and the `kid` a JWK named (sent in the header, for a server that holds several). */
export interface ClientAssertionSigner {
  key: WebCryptoKey;
  kid?: string;
}

/** Whether a `CryptoKey` can sign `alg`: private, of the algorithm (and curve or hash), allowed to sign. */
function fitsAlgorithm(key: WebCryptoKey, alg: ClientAssertionAlgorithm): boolean {
  const a = key.algorithm as { name: string; namedCurve?: string; hash?: { name: string } };
  const fits = alg === "ES256" ? a.name === "ECDSA" && a.namedCurve === "P-256" : a.name === "RSASSA-PKCS1-v1_5" && a.hash?.name === "SHA-256";
  return key.type === "private" && fits && key.usages.includes("sign");
}

/** The DER bytes of PKCS#8 PEM text. Says which PEM it got when it is another (`EC PRIVATE KEY` is SEC 1, not PKCS#8). */
function pkcs8Der(pem: string): Uint8Array<ArrayBuffer> {
  const m = /-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\s]*)-----END \1-----/.exec(pem);
  if (!m) throw new Error("the private key is not PEM text (-----BEGIN PRIVATE KEY----- … -----END PRIVATE KEY-----)");
  if (m[1] !== "PRIVATE KEY") throw new Error(`the private key is a "${m[1]}" PEM, not PKCS#8 ("PRIVATE KEY"; openssl pkcs8 -topk8 -nocrypt converts it)`);
  let binary: string;
  try {
    binary = atob(m[2].replace(/\s+/g, ""));
  } catch {
    throw new Error("the private key's PEM body is not valid base64");
  }
  const der = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) der[i] = binary.charCodeAt(i);
  return der;
}

/**
 * Turns the configured key into a signer for `alg`. Rejects, naming the problem and not
 * the key, when it is no private key of that algorithm.
 */
export async function importClientAssertionKey(key: ClientAssertionKey, alg: ClientAssertionAlgorithm): Promise<ClientAssertionSigner> {
  const { importAs, kind } = ALGORITHMS[alg];
  const refused = (why: string) => new Error(`the private key cannot sign ${alg} assertions: ${why}`);
  let imported: WebCryptoKey;
  let kid: string | undefined;
  if (typeof key === "string") {
    const der = pkcs8Der(key);
    imported = await crypto.subtle.importKey("pkcs8", der, importAs, false, ["sign"]).catch(() => {
      throw refused(`the PKCS#8 key is not ${kind}`);
    });
  } else if (!("algorithm" in key && "usages" in key)) {
    const jwk = key as PrivateJwk;
    if (typeof jwk.d !== "string") throw refused(`the JWK holds no private key (no "d")`);
    kid = typeof jwk.kid === "string" ? jwk.kid : undefined;
    // The JWK's own "alg", "use" and "key_ops" would make WebCrypto refuse with its own words; ours say which.
    if (jwk.alg !== undefined && jwk.alg !== alg) throw refused(`the JWK is for ${jwk.alg}`);
    imported = await crypto.subtle.importKey("jwk", jwk, importAs, false, ["sign"]).catch(() => {
      throw refused(`the JWK is not ${kind} allowed to sign`);
    });
  } else {
    imported = key;
  }
  if (!fitsAlgorithm(imported, alg)) throw refused(`the CryptoKey is not the private half of ${kind}, usable for signing`);
  return kid !== undefined ? { key: imported, kid } : { key: imported };
}

const encoder = /* @__PURE__ */ new TextEncoder();
const segment = (value: object): string => base64url(encoder.encode(JSON.stringify(value)));

/** The compact JWS of `claims` (RFC 7515 §7.1), header `{ alg, typ: "JWT", kid? }`, signed by `signer`. */
export async function signClientAssertion(signer: ClientAssertionSigner, alg: ClientAssertionAlgorithm, claims: ClientAssertionClaims): Promise<string> {
  const header = { alg, typ: "JWT", ...(signer.kid !== undefined ? { kid: signer.kid } : {}) };
  const input = `${segment(header)}.${segment(claims)}`;
  const signature = await crypto.subtle.sign(ALGORITHMS[alg].signAs, signer.key, encoder.encode(input));
  return `${input}.${base64url(new Uint8Array(signature))}`;
}
