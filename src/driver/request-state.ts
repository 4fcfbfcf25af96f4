/**
 * Integrity protection for MRTR `requestState`: HMAC-SHA256 over WebCrypto.
 *
 * Spec: draft `basic/patterns/mrtr`, Server Requirements: servers MUST treat a
 * `requestState` they get back as attacker-controlled input, MUST protect its integrity
 * (e.g. HMAC or AEAD) when it influences anything that matters, and MUST reject state
 * that fails verification.
 *
 * Theory of operation. The kernel is pure and never makes keys or touches crypto, so the
 * protection is a pair of injected functions, {@link RequestStateCodec}: `sign` turns
 * the handler's opaque state into the token that goes on the wire, `verify` turns a
 * token back into the state, or `undefined` when the token is not one this server made.
 * This module supplies the default: a token is `base64url(state) "." base64url(mac)`,
 * the MAC taken over a fixed label and the state, so a key shared with some other use
 * cannot mint tokens here. The key is random per instance unless a secret is given; give
 * the same secret to every instance behind a load balancer so any of them can verify the
 * state another issued (the point of MRTR). Several secrets rotate keys: the first signs,
 * any verifies. Only `globalThis.crypto` is used, so it runs unchanged on Node (20+),
 * Deno, Bun and browsers. `verify` never throws: a malformed token is just not valid.
 */

/** Signs and verifies MRTR `requestState` (either may be async: WebCrypto is). */
export interface RequestStateCodec {
  /** The token to send in place of `state`. */
  sign(state: string): Promise<string> | string;
  /** The state `token` was made from, or `undefined` when it fails verification. */
  verify(token: string): Promise<string | undefined> | string | undefined;
  /**
   * A collision-resistant digest of `text` (the request's params a state is bound to), short
   * whatever the text's length. Optional: without it the text itself is bound, exact but as
   * large as the params.
   */
  digest?(text: string): Promise<string> | string;
}

/** A key: raw bytes, or a string taken as its UTF-8 bytes. */
export type RequestStateSecret = string | Uint8Array;

/** Options of {@link hmacRequestState}. */
export interface HmacRequestStateOptions {
  /**
   * The key (at least 32 bytes), or several: the first signs, every one verifies (key
   * rotation). Default (the key left out): 32 random bytes, so only this instance can
   * verify its tokens. Present but `undefined` (an unset environment variable) throws.
   */
  secret?: RequestStateSecret | readonly RequestStateSecret[];
}

/** Fewest key bytes accepted: HMAC-SHA256's full strength. */
export const MIN_SECRET_BYTES = 32;

/** Domain separation: what is MACed is this label, then the state. */
const LABEL = "io.modelcontextprotocol/requestState.v1\n";

const encoder = /* @__PURE__ */ new TextEncoder();
const strictDecoder = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true });

/** HMAC keys of `secrets` (default: one fresh random key); rejects without WebCrypto. */
async function importKeys(secrets: Uint8Array[] | undefined): Promise<CryptoKey[]> {
  const crypto = globalThis.crypto;
  if (crypto?.subtle === undefined) throw new TypeError("hmacRequestState needs WebCrypto (globalThis.crypto.subtle)");
  const raws = secrets ?? [crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES))];
  return Promise.all(raws.map((raw) => crypto.subtle.importKey("raw", raw as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"])));
}

/** The default codec: HMAC-SHA256 with the given secret(s) or a fresh random key. */
export function hmacRequestState(options: HmacRequestStateOptions = {}): RequestStateCodec {
  // A secret passed bare, or under another name, would quietly give each instance a random
  // key: the very mismatch the option exists to prevent.
  if (typeof options !== "object" || options === null) throw new TypeError("hmacRequestState takes { secret }: hmacRequestState({ secret: process.env.MCP_STATE_SECRET })");
  for (const key of Object.keys(options)) if (key !== "secret") throw new TypeError(`hmacRequestState: unknown option ${JSON.stringify(key)} (the option is secret)`);
  const given = options.secret;
  // `{ secret: process.env.X }` with X unset would quietly fall back to a random key, and
  // instances behind one load balancer (or a Worker's isolates) would refuse each
  // other's state: a key named but undefined is a configuration error.
  if (given === undefined && Object.hasOwn(options, "secret")) {
    throw new TypeError("hmacRequestState: secret is undefined (an unset environment variable?); omit the key for a random key per instance");
  }
  const secrets = given === undefined ? undefined : (Array.isArray(given) ? given : [given]).map(secretBytes);
  if (secrets?.length === 0) throw new RangeError("hmacRequestState needs at least one secret");
  // WebCrypto is reached, the random key drawn and the keys imported on first use, never
  // at construction: on Node, the first read of `globalThis.crypto` loads the WebCrypto
  // module, ~15 ms of a server's cold start that a server never signing state need not pay.
  let keys: Promise<CryptoKey[]> | undefined;
  const keyList = (): Promise<CryptoKey[]> => (keys ??= importKeys(secrets));
  return {
    async sign(state: string): Promise<string> {
      const [key] = await keyList();
      const mac = await crypto.subtle.sign("HMAC", key, macInput(state));
      return `${base64url(encoder.encode(state))}.${base64url(new Uint8Array(mac))}`;
    },
    async verify(token: string): Promise<string | undefined> {
      if (typeof token !== "string") return undefined;
      const dot = token.indexOf(".");
      if (dot < 0 || token.indexOf(".", dot + 1) >= 0) return undefined;
      const body = fromBase64url(token.slice(0, dot));
      const mac = fromBase64url(token.slice(dot + 1));
      if (body === undefined || mac === undefined || mac.length !== 32) return undefined;
      let state: string;
      try {
        state = strictDecoder.decode(body);
      } catch {
        return undefined;
      }
      const data = macInput(state);
      for (const key of await keyList()) {
        // subtle.verify compares in constant time.
        if (await crypto.subtle.verify("HMAC", key, mac as Uint8Array<ArrayBuffer>, data)) return state;
      }
      return undefined;
    },
    async digest(text: string): Promise<string> {
      return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text))));
    },
  };
}

function secretBytes(secret: RequestStateSecret): Uint8Array {
  if (typeof secret !== "string" && !(secret instanceof Uint8Array)) throw new TypeError("a requestState secret is a string or a Uint8Array");
  // A copy: the key is imported on first use, and an application that wipes (or reuses) its
  // buffer once the codec is configured would otherwise leave it signing with zeros, a key
  // any client could forge state with. (`new Uint8Array` copies; a Buffer's `slice` would not.)
  const bytes = typeof secret === "string" ? encoder.encode(secret) : new Uint8Array(secret);
  if (bytes.length < MIN_SECRET_BYTES) throw new RangeError(`a requestState secret needs at least ${MIN_SECRET_BYTES} bytes`);
  return bytes;
}

function macInput(state: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(LABEL + state);
}

/** RFC 4648 §5 base64url, no padding. */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of unpadded base64url text, or undefined when it is not exactly that (canonical form only). */
function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  // Cannot throw: the alphabet and the length were checked above.
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  // Reject non-canonical spellings (stray low bits in the last character): one token, one meaning.
  if (base64url(bytes) !== text) return undefined;
  return bytes;
}
