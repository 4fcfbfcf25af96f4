/**
 * The effect adapter of the OAuth client: runs {@link stepOAuth} with `fetch`, WebCrypto
 * and a clock, and wraps a `fetch` so that every request to the MCP server carries the
 * access token, a 401 starts (or refreshes) authorization, and a 403 `insufficient_scope`
 * steps up, each followed by one retry of the original request (at most `maxStepUps` step-ups
 * per request). A DELETE (a session's end) is sent as it is, with the token held. Pass the
 * result as the `fetch` option of `httpClientTransport`.
 *
 * With `clientCredentials` (SEP-1046, a client acting on its own behalf) no browser is
 * opened: the flow gets its token with the client's own credentials, and this adapter
 * signs the RFC 7523 client assertion the flow asks for, with the private key it keeps out
 * of the flow's state (client-assertion.ts). An expired token is replaced before it is sent.
 */
import {
  createOAuthState,
  operationSucceeded,
  stepOAuth,
  type OAuthAuthorizationCodeConfig,
  type OAuthAnyClientConfig,
  type OAuthClientCredentialsConfig,
  type OAuthCredentials,
  type OAuthInput,
  type OAuthOutput,
  type OAuthState,
  type OAuthTokens,
} from "./client-flow.js";
import { clientAssertionClaims, importClientAssertionKey, signClientAssertion, type ClientAssertionKey, type ClientAssertionSigner } from "./client-assertion.js";
import type { ClientCredentialsConfig } from "./client-credentials.js";
import { isHttpsOrLoopback, type AuthorizationServerMetadata } from "./metadata.js";
import { bearerChallenge } from "./www-authenticate.js";
import { base64url } from "../driver/request-state.js";
import { report, type Callback } from "../driver/listener.js";
import { letGo, NOT_UTF8_BODY, readBodyOrCancel } from "../transports/http/body.js";
import { decodeUtf8, jsonCopy } from "../jsonrpc/safe-json.js";
import { errorText } from "../transports/error-text.js";

/** Replacement decoding, for a body that is not UTF-8 (only its ASCII error code is read: client-flow.ts). */
const lenient = /* @__PURE__ */ new TextDecoder();

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * The largest response body the flow reads (metadata documents, registration and token
 * responses are a few KiB); a bigger one fails the flow instead of being buffered.
 */
const MAX_OAUTH_RESPONSE_BYTES = 1024 * 1024;

/** The kind of flow that gets a token in place of a missing, expired or refused one (a step-up's kind names its scopes). */
const TOKEN = "token";

/** How the token a call sends was obtained within that call. */
type Fresh = "no" | "refreshed" | "authorized";

/** Raised when authorization cannot complete; `message` never contains a secret. */
export class OAuthError extends Error {
  override name = "OAuthError";
  /** Final for the request it refused: a transport fails that request instead of retrying it as after a network failure. */
  readonly retryable = false;
}

/** What an application persists between runs (keep it as secret as the tokens are). */
export interface OAuthSaved {
  credentials?: Record<string, OAuthCredentials>;
  tokens?: OAuthTokens;
  /** The tokens' authorization server's metadata: a token that expired by the next run is refreshed there, with no new authorization. */
  serverMetadata?: AuthorizationServerMetadata;
}

/** The effects and stores of {@link oauthFetch}, whichever the grant. */
interface OAuthFetchEffects {
  /** The fetch underneath. Default `globalThis.fetch`. */
  fetch?: Fetch | undefined;
  /** Credentials and tokens from an earlier run. */
  saved?: OAuthSaved | undefined;
  /**
   * Called whenever credentials or tokens change, with a copy (editing it changes nothing the
   * flow holds). One that throws or rejects fails nothing:
   * the tokens are held in memory and the request goes on with them; its error goes to `onError`.
   */
  save?: ((saved: OAuthSaved) => void | Promise<void>) | undefined;
  /** Gets the error of a `save` that threw or rejected; without it, that error is rethrown on a fresh microtask (never swallowed), as the hooks' errors are. */
  onError?: Callback<(error: unknown) => void> | undefined;
  /** Milliseconds since the epoch. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** {@link oauthFetch} for a client acting for a user: the authorization code grant. */
export interface OAuthFetchAuthorizationCodeOptions extends OAuthAuthorizationCodeConfig, OAuthFetchEffects {
  /**
   * Shows `url` to the user (opens a browser) and resolves with the URL the authorization
   * server redirected back to, its path and query (a Node request's `req.url`), or its query string.
   */
  openAuthorization: (url: string) => Promise<string | URL | URLSearchParams>;
}

/** The client credentials of {@link oauthFetch}: the flow's, and the private key that signs its assertions. */
export interface ClientCredentialsOptions extends ClientCredentialsConfig {
  /**
   * For `private_key_jwt` (used when there is no `clientSecret`): a `CryptoKey`, a private
   * JWK or PKCS#8 PEM text, of `signingAlgorithm` (ES256: P-256; RS256: RSA). Kept by the
   * adapter, never put in the flow's state.
   */
  privateKey?: ClientAssertionKey | undefined;
}

/** {@link oauthFetch} for a client acting on its own behalf: the client credentials grant (SEP-1046), no browser. */
export interface OAuthFetchClientCredentialsOptions extends OAuthClientCredentialsConfig, OAuthFetchEffects {
  clientCredentials: ClientCredentialsOptions;
  /** No user to send anywhere. */
  openAuthorization?: undefined;
}

/** The options of {@link oauthFetch}: the client configuration, for either grant, and the effects the flow needs. */
export type OAuthFetchAnyOptions = OAuthFetchAuthorizationCodeOptions | OAuthFetchClientCredentialsOptions;

/** {@link oauthFetch}'s options for the authorization code grant, the ones this type named before client credentials. */
export type OAuthFetchOptions = OAuthFetchAuthorizationCodeOptions;

/** A `fetch` that sends the bearer token; a 401 refreshes or authorizes and a 403 `insufficient_scope` steps up, each followed by a retry (see the module doc). */
export interface OAuthFetch {
  (input: string, init?: RequestInit): Promise<Response>;
  /** The flow's current state (plain JSON: credentials and tokens included). */
  readonly state: OAuthState;
}

/** A PKCE verifier of 256 random bits and its S256 challenge (RFC 7636 §4.1-4.2). */
export async function createPkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

function callbackParams(answer: string | URL | URLSearchParams): Record<string, string> {
  let params: URLSearchParams;
  if (answer instanceof URLSearchParams) params = answer;
  else if (answer instanceof URL) params = answer.searchParams;
  else if (/^[a-z][a-z0-9+.-]*:/i.test(answer)) params = new URL(answer).searchParams;
  // A path and query (`/callback?code=…&state=…`, what a Node server's `req.url` holds) is
  // no query string: read as one, `code` came out named `/callback?code`.
  else if (answer.startsWith("/")) params = new URL(answer, "http://localhost").searchParams;
  else params = new URLSearchParams(answer.replace(/^\?/, ""));
  return Object.fromEntries(params);
}

/**
 * For clients with no user to ask (tests, the conformance suite, machine flows against
 * an authorization server that approves without interaction): requests the authorization
 * URL without following redirects and returns the redirect's `Location`.
 */
export function followAuthorizationRedirect(fetchImpl: Fetch = (i, init) => globalThis.fetch(i, init)): (url: string) => Promise<string> {
  return async (url) => {
    const res = await fetchImpl(url, { redirect: "manual" });
    letGo(res.body);
    const location = res.headers.get("location");
    if (!location) throw new OAuthError(`the authorization endpoint answered ${res.status} without a redirect`);
    return location;
  };
}

/**
 * Why the flow does not use the response to its request (`post`: a token or registration
 * request), when it came by a redirect or is one; undefined when it can be used.
 *
 * A POST goes with `redirect: "manual"`: on a 307/308 fetch would re-send its body (a code
 * and its PKCE verifier, a refresh token, a `client_secret_post` secret) to wherever the
 * `Location` points, another origin or plain http (only the `Authorization` header is left
 * behind across origins), so its 3xx (in a browser, an opaque redirect) fails the flow.
 *
 * A metadata GET carries nothing secret and follows redirects as fetch does (a server may
 * move its documents). Its document is checked against the issuer or resource it was asked
 * for, but that only tells one server's document from another's: one that came over plain
 * http could have been written by anyone on the path, endpoints included. So an https request
 * that ended at an http URL off loopback is refused (security-considerations, Communication
 * Security: authorization server endpoints MUST be served over HTTPS).
 */
function redirectRefusal(url: string, post: boolean, res: Response): string | undefined {
  if (post && (res.type === "opaqueredirect" || (res.status >= 300 && res.status < 400))) {
    return `${url} answered with a redirect (HTTP ${res.status}); a token or registration request is not re-sent elsewhere`;
  }
  if (!post && res.redirected && isHttpsOrLoopback(url) && !isHttpsOrLoopback(res.url)) return `${url} redirected to ${res.url}, which is not https; its document was not used`;
  return undefined;
}

/**
 * The flow's configuration: the options without the effects and stores (functions, and the
 * saved tokens of an earlier run, which the state holds already when they are usable) and
 * without the private key, which stays with the adapter (the state is saved and inspected;
 * the key never is). The state stays plain JSON: a copy by `structuredClone` or a JSON round
 * trip is the state itself.
 */
function flowConfig(options: OAuthFetchAnyOptions): OAuthAnyClientConfig {
  const { fetch: _fetch, saved: _saved, save: _save, onError: _onError, now: _now, openAuthorization: _open, ...config } = options;
  if (config.clientCredentials == null) return config;
  const { privateKey: _key, ...clientCredentials } = config.clientCredentials;
  return { ...config, clientCredentials };
}

/** Builds an OAuth-aware `fetch` for one MCP server. */
export function oauthFetch(options: OAuthFetchAnyOptions): OAuthFetch {
  const base: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = options.now ?? Date.now;
  const serverOrigin = new URL(options.serverUrl).origin;
  let state = createOAuthState(flowConfig(options), options.saved);
  let running: Promise<void> | undefined;
  /** Flows started so far: each flow's number, for telling which calls it overlapped. */
  let flows = 0;
  /** The last flow, if it failed: its number, what it was for, and why (cleared by one that succeeds). */
  let failure: { flow: number; kind: string; error: unknown } | undefined;
  /**
   * The access token the last flow obtained, how, and that flow's number: a call that sends
   * a token another call's flow obtained while it was under way knows how fresh it is.
   */
  let obtained: { token: string; how: Exclude<Fresh, "no">; flow: number } | undefined;
  const got = (how: Exclude<Fresh, "no">) => {
    if (state.tokens !== undefined) obtained = { token: state.tokens.accessToken, how, flow: flows };
  };
  /** The imported private key, once asked for (an import that failed fails each assertion the same way). */
  let signer: Promise<ClientAssertionSigner> | undefined;

  /** Answers a `client-assertion` output: RFC 7523 claims from this clock and a random `jti`, signed. Never rejects: a failure is the input's `error`. */
  const signAssertion = async (ask: Extract<OAuthOutput, { type: "client-assertion" }>): Promise<OAuthInput> => {
    try {
      const key = options.clientCredentials?.privateKey;
      if (key === undefined) throw new Error("private_key_jwt needs clientCredentials.privateKey (or give a clientSecret)");
      signer ??= importClientAssertionKey(key, ask.alg);
      const claims = clientAssertionClaims(ask.clientId, ask.audience, now(), base64url(crypto.getRandomValues(new Uint8Array(16))));
      return { type: "client-assertion", now: now(), assertion: await signClientAssertion(await signer, ask.alg, claims) };
    } catch (e) {
      return { type: "client-assertion", now: now(), error: errorText(e) };
    }
  };

  const persist = async () => {
    const meta = state.tokens !== undefined && state.serverMetadata?.issuer === state.tokens.issuer ? { serverMetadata: state.serverMetadata } : {};
    // The tokens are in the flow's state already: a save that failed loses them for the next
    // run only, so the request goes on with them instead of failing as a network error would.
    try {
      // A copy: a save that edits what it is handed (keeping the refresh token, not the
      // short-lived access token) must not change the tokens the flow goes on sending.
      await options.save?.(jsonCopy({ credentials: state.credentials, ...(state.tokens ? { tokens: state.tokens } : {}), ...meta })!);
    } catch (e) {
      report(e, options.onError);
    }
  };

  /** Feeds one input and carries out its outputs until the flow settles. */
  const drive = async (first: OAuthInput): Promise<void> => {
    const queue: OAuthInput[] = [first];
    while (queue.length) {
      const step = stepOAuth(state, queue.shift() as OAuthInput);
      state = step.state;
      for (const out of step.outputs) {
        if (out.type === "http") {
          const { requestId, url, method, headers, body } = out.request;
          try {
            const post = method === "POST";
            const res = await base(url, { method, headers, ...(body !== undefined ? { body } : {}), ...(post ? { redirect: "manual" as const } : {}) });
            const refused = redirectRefusal(url, post, res);
            if (refused !== undefined) {
              letGo(res.body);
              queue.push({ type: "network-error", now: now(), requestId, message: refused });
              continue;
            }
            // Metadata and token responses come from servers that may be hostile: read to a bound.
            const read = await readBodyOrCancel(res, MAX_OAUTH_RESPONSE_BYTES);
            const text = read.ok ? decodeUtf8(read.bytes) : undefined;
            if (text !== undefined) queue.push({ type: "response", now: now(), requestId, status: res.status, body: text });
            // Not UTF-8, the server did answer: its status still counts (a 404 page in Latin-1 is
            // still a 404), and the body goes along decoded with replacement, for the flow to read
            // no more than an error code from it (see `unreadable`).
            else if (read.ok) queue.push({ type: "response", now: now(), requestId, status: res.status, body: lenient.decode(read.bytes), unreadable: NOT_UTF8_BODY.reason });
            else {
              const why = read.status === 413 ? `the response body exceeds ${MAX_OAUTH_RESPONSE_BYTES} bytes` : "the response body could not be read";
              queue.push({ type: "network-error", now: now(), requestId, message: why });
            }
          } catch (e) {
            queue.push({ type: "network-error", now: now(), requestId, message: errorText(e) });
          }
        } else if (out.type === "client-assertion") {
          queue.push(await signAssertion(out));
        } else if (out.type === "redirect") {
          if (options.openAuthorization === undefined) throw new OAuthError("the flow asks to open the authorization URL, and no openAuthorization is configured");
          // A user who closed the window (openAuthorization rejected) is a refused authorization,
          // not a network failure: as an OAuthError the transport fails the request instead of
          // re-sending it, which would open the browser again for each re-issue.
          let params: Record<string, string>;
          try {
            params = callbackParams(await options.openAuthorization(out.url));
          } catch (e) {
            throw new OAuthError(`the authorization was not completed: ${errorText(e)}`);
          }
          queue.push({ type: "callback", now: now(), params });
        } else if (out.type === "authorized") {
          await persist();
        } else if (out.type === "failed") {
          throw Object.assign(new OAuthError(out.reason), { reauthorize: out.reauthorize === true });
        }
      }
    }
  };

  /**
   * One flow at a time. A call that waited asks `needed` again once its turn comes: the
   * flow before it may already have done its work, and concurrent 401s then share that one
   * authorization (one consent screen, one token request) instead of each running its own.
   * They share its failure too: a call still in need after a flow of the same `kind` that
   * failed while the call was under way (from flow number `since` on) fails with it, rather
   * than running the same flow again (ten calls against a failing authorization server make
   * one token request, not ten; a refused consent is asked once). Says whether `work` ran.
   */
  const exclusive = async (since: number, kind: string, needed: () => boolean, work: () => Promise<void>): Promise<boolean> => {
    while (running) await running.catch(() => {});
    if (!needed()) return false;
    if (failure !== undefined && failure.flow >= since && failure.kind === kind) throw failure.error;
    const flow = ++flows;
    running = work();
    try {
      await running;
      failure = undefined;
    } catch (error) {
      failure = { flow, kind, error };
      throw error;
    } finally {
      running = undefined;
    }
    return true;
  };

  /** A fresh authorization: new PKCE pair and `state` (the randomness the reducer is given); the client credentials grant needs neither. */
  const runAuthorization = async (challenge: string | null) => {
    await drive(
      options.clientCredentials != null
        ? { type: "authorize", now: now(), challenge }
        : { type: "authorize", now: now(), challenge, pkce: await createPkce(), state: base64url(crypto.getRandomValues(new Uint8Array(16))) },
    );
    got("authorized");
  };

  /** The access token now held differs from `sent`: another call's flow replaced it. */
  const replaced = (sent: string | undefined) => state.tokens?.accessToken !== sent;

  /** Refreshes, or authorizes anew when the refresh is refused, unless `sent` was replaced meanwhile; says which it did. */
  const refreshOrAuthorize = async (since: number, challenge: string | null, sent: string | undefined): Promise<Fresh> => {
    let how: Fresh = "refreshed";
    const ran = await exclusive(since, TOKEN, () => !replaced(sent), async () => {
      try {
        await drive({ type: "refresh", now: now() });
        got("refreshed");
        return;
      } catch (e) {
        if (!(e instanceof OAuthError) || !(e as OAuthError & { reauthorize?: boolean }).reauthorize) throw e;
      }
      how = "authorized";
      await runAuthorization(challenge);
    });
    return ran ? how : "no";
  };

  /** Sends with the current token; returns the response and the access token it carried. */
  const send = async (input: string, init: RequestInit | undefined): Promise<{ res: Response; sent: string | undefined }> => {
    init?.signal?.throwIfAborted(); // a call given up while a flow ran is not sent after it
    const headers = new Headers(init?.headers);
    // Tokens go to the MCP server only, never to any other origin.
    const sent = state.tokens && new URL(input).origin === serverOrigin ? state.tokens.accessToken : undefined;
    if (sent !== undefined) headers.set("authorization", `Bearer ${sent}`);
    return { res: await base(input, { ...init, headers }), sent };
  };

  // draft Step-Up Authorization Flow: "Retry the original request with the new authorization
  // no more than a few times"; the reducer's budget is per scope set, so a server asking for
  // another scope each time needs this bound on the retries of one call.
  const maxStepUps = options.maxStepUps ?? 2;

  const call = async (input: string, init?: RequestInit): Promise<Response> => {
    // A DELETE ends a session (the transport's on close, or after a failed renewal): a
    // courtesy (SHOULD). It goes with the token held, and a 401 or 403 ends it: never a
    // refresh or an authorization, which could put a login window before a user whose
    // application is closing.
    if (init?.method?.toUpperCase() === "DELETE") return (await send(input, init)).res;
    // The first flow this call overlaps: the one running now, else the next to start.
    const since = running ? flows : flows + 1;
    if (running) await running.catch(() => {});
    // How this call obtained the token it sends. A 401 to a refreshed token does not end
    // the call: the server may have moved to another authorization server while the old one
    // still refreshes, and only discovery finds that out (draft Token Handling: tokens of
    // another authorization server MUST NOT be sent). A 401 to a token from a full
    // authorization is given back: a fresh token refused at once will be refused again.
    let fresh: Fresh = "no";
    const expired = state.tokens?.expiresAt !== undefined && state.tokens.expiresAt <= now() ? state.tokens : undefined;
    if (expired?.refreshToken) {
      fresh = await refreshOrAuthorize(since, null, expired.accessToken).catch((): Fresh => "no");
    } else if (expired && options.clientCredentials != null) {
      // Client credentials: a new token costs one token request and no user, so the expired
      // one is not sent to be refused first. A failure here fails the call, as after a 401.
      if (await exclusive(since, TOKEN, () => !replaced(expired.accessToken), () => runAuthorization(null))) fresh = "authorized";
    }
    let stepUps = 0;
    for (;;) {
      const { res, sent } = await send(input, init);
      if (res.status !== 401 && res.status !== 403) {
        if (res.ok) state = operationSucceeded(state);
        return res;
      }
      const header = res.headers.get("www-authenticate");
      const challenge = bearerChallenge(header);
      if (res.status === 403 && challenge?.params.error !== "insufficient_scope") return res;
      // A token another call's flow obtained while this call was under way is as fresh for
      // this call as for that one: a 401 to it starts no refresh or authorization of its own
      // (ten calls to a server refusing every token opened ten consent screens, not one).
      if (sent !== undefined && obtained?.token === sent && obtained.flow >= since && (fresh === "no" || obtained.how === "authorized")) fresh = obtained.how;
      if (res.status === 401 && fresh === "authorized") return res;
      letGo(res.body);
      if (res.status === 403) {
        if (++stepUps > maxStepUps) throw new OAuthError(`the server still answers insufficient_scope after ${maxStepUps} step-up attempts (the limit for one request)`);
        // Skipped when another call's step-up meanwhile got a token granting every scope asked
        // for; that retry still counts, so every path through this loop is bounded.
        const wanted = challenge?.params.scope?.split(" ").filter(Boolean) ?? [];
        const covered = () => replaced(sent) && wanted.every((s) => state.tokens?.scope?.split(" ").includes(s));
        await exclusive(since, `step-up ${[...wanted].sort().join(" ")}`, () => !covered(), () => runAuthorization(header)); // a step-up past the reducer's limit rejects here
      } else if (fresh === "no" && state.tokens?.refreshToken) fresh = await refreshOrAuthorize(since, header, sent);
      else if (await exclusive(since, TOKEN, () => !replaced(sent), () => runAuthorization(header))) fresh = "authorized";
    }
  };
  // As fetch does, a call whose signal aborts rejects at once with its reason, also while it
  // waits for a flow (the user at the consent screen, a token request); the flow goes on for
  // the calls sharing it, and `send` does not send this one after it.
  const wrapped = (input: string, init?: RequestInit): Promise<Response> => {
    const signal = init?.signal;
    if (signal == null) return call(input, init);
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const abort = () => reject(signal.reason);
      signal.addEventListener("abort", abort, { once: true });
      call(input, init).then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
    });
  };
  return Object.defineProperty(wrapped, "state", { get: () => state }) as OAuthFetch;
}
