/**
 * The OAuth 2.1 client of draft `basic/authorization`, as a pure reducer.
 *
 * `stepOAuth(state, input) -> { state, outputs }`: HTTP requests to make and the browser
 * redirect to open are outputs; HTTP responses and the redirect callback are inputs.
 * Randomness (PKCE verifier, `state`) and the S256 digest come in with the `authorize`
 * input, time with every input, so the flow replays exactly. The order of the flow is the
 * page's: Protected Resource Metadata (from `WWW-Authenticate`, then the well-known URIs),
 * Authorization Server Metadata (RFC 8414, then OpenID Connect), registration
 * (pre-registered, then Client ID Metadata Document, then Dynamic Client Registration),
 * PKCE S256 with the resource indicator (RFC 8707), `iss` validation of the response
 * (RFC 9207), the token request, and refresh. Authorization server endpoints must be https
 * and redirect URIs https or loopback (security-considerations, "Communication Security");
 * without Protected Resource Metadata the flow refuses unless it is for a 2025-03-26 server.
 *
 * A client acting on its own behalf is configured with `clientCredentials` instead (the
 * SEP-1046 extension `io.modelcontextprotocol/oauth-client-credentials`,
 * client-credentials.ts): the same discovery, then one token request with
 * `grant_type=client_credentials`, no registration, redirect or refresh. For
 * `private_key_jwt` the flow asks for a signed client assertion (a `client-assertion`
 * output, answered by a `client-assertion` input), since signing is an effect.
 *
 * Secrets live in state (it is the client's credential store) but never in a `failed` or
 * `diagnostic` output, so logging outputs cannot leak them.
 */
import {
  authorizationServerMetadataProblem,
  authorizationServerMetadataUrls,
  canonicalResourceUri,
  isClientIdMetadataUrl,
  isHttpsOrLoopback,
  isLoopbackUrl,
  metadataList,
  protectedResourceMetadataProblem,
  protectedResourceMetadataUrls,
  resourceMatchesServer,
  type AuthorizationServerMetadata,
  type ProtectedResourceMetadata,
} from "./metadata.js";
import { thrownMessage } from "../jsonrpc/errors.js";
import { bearerChallenge, isB64Token } from "./www-authenticate.js";
import { tokenRequest, type ClientAuthMethod, type TokenEndpointAuthMethod } from "./token-request.js";
import { clientCredentialsConfigProblem, clientCredentialsMethod, type ClientCredentialsConfig } from "./client-credentials.js";
import type { ClientAssertionAlgorithm } from "./client-assertion.js";

export type { ClientAuthMethod, TokenEndpointAuthMethod } from "./token-request.js";

/** What both grants are configured with. */
interface OAuthConfigCommon {
  /** The MCP endpoint. */
  serverUrl: string;
  /** Step-up attempts for one operation before giving up (default 2). */
  maxStepUps?: number | undefined;
  /**
   * The MCP server's protocol version, when the application knows it. Only "2025-03-26"
   * changes the flow: that revision's fallbacks apply (no Protected Resource Metadata: the
   * server's origin is the authorization server; no metadata there either (404): the default
   * `/authorize`, `/token`, `/register`). Later revisions require PRM and advertised PKCE,
   * so otherwise the flow refuses to proceed without them.
   */
  protocolVersion?: string | undefined;
}

/** A client acting for a user: the authorization code grant with PKCE, through a browser. */
export interface OAuthAuthorizationCodeConfig extends OAuthConfigCommon {
  /** Where the authorization server sends the browser back: https, or http on a loopback host. */
  redirectUri: string;
  /** Shown on consent screens; sent in registration. */
  clientName: string;
  /** A Client ID Metadata Document URL (https, with a path) used as `client_id`. */
  clientMetadataUrl?: string | undefined;
  /**
   * Pre-registered credentials and the issuer that issued them. Without `issuer` they are
   * bound to the first authorization server they are used with (recorded in `credentials`,
   * without the secret) and never sent to another.
   */
  preRegistered?: { clientId: string; clientSecret?: string | undefined; issuer?: string | undefined; authMethod?: ClientAuthMethod | undefined } | undefined;
  /** `native` for loopback redirect URIs unless set (client-registration, application_type). */
  applicationType?: "native" | "web" | undefined;
  /** Set only in a {@link OAuthClientCredentialsConfig}. */
  clientCredentials?: undefined;
}

/**
 * A client acting on its own behalf (SEP-1046 `io.modelcontextprotocol/oauth-client-credentials`):
 * the client credentials grant, with no user, browser or redirect URI.
 */
export interface OAuthClientCredentialsConfig extends OAuthConfigCommon {
  /** The pre-registered client and how it authenticates. */
  clientCredentials: ClientCredentialsConfig;
  /** The authorization code grant's settings have no place here. */
  redirectUri?: undefined;
  clientName?: undefined;
  clientMetadataUrl?: undefined;
  preRegistered?: undefined;
  applicationType?: undefined;
}

/** How the client identifies itself: for a user ({@link OAuthAuthorizationCodeConfig}) or as itself ({@link OAuthClientCredentialsConfig}). */
export type OAuthAnyClientConfig = OAuthAuthorizationCodeConfig | OAuthClientCredentialsConfig;

/** The authorization code grant's configuration (a client acting for a user), the one this type named before client credentials. */
export type OAuthClientConfig = OAuthAuthorizationCodeConfig;

/** Client credentials, keyed by the issuer that issued them (Authorization Server Binding). */
export interface OAuthCredentials {
  clientId: string;
  clientSecret?: string;
  authMethod: TokenEndpointAuthMethod;
  /** How they were obtained (client credentials count as pre-registered); pre-registered ones are never re-registered silently. */
  via: "pre-registered" | "metadata-document" | "dynamic";
}

/** The tokens of one authorization server. */
export interface OAuthTokens {
  accessToken: string;
  tokenType: string;
  refreshToken?: string;
  /** Milliseconds since the epoch, from `expires_in` and the input's `now`. */
  expiresAt?: number;
  scope?: string;
  issuer: string;
  /** The resource they were issued for (RFC 8707): saved tokens loaded for another server are not used. */
  resource?: string;
}

/** An HTTP request the adapter makes; the answer comes back as a `response` input. */
export interface OAuthHttpRequest {
  requestId: number;
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/** What the application feeds the flow ({@link stepOAuth}): a start, an HTTP answer or failure, the redirect back, a refresh. Each carries `now` (ms since the epoch). */
export type OAuthInput =
  /**
   * Start (or restart after a 401/403) the flow. `challenge` is the `WWW-Authenticate`
   * value. `pkce` and `state` are the authorization code grant's randomness (without them
   * that flow fails); the client credentials grant takes none.
   */
  | { type: "authorize"; now: number; challenge?: string | null; pkce?: { verifier: string; challenge: string } | undefined; state?: string | undefined }
  /**
   * `unreadable` says why the body could not be read as text (`body` is then what replacement
   * decoding made of it, or ""): the flow goes on by the status as for a body that holds no
   * JSON, except that a refusal's `error` code is still read (RFC 6749 §5.2 keeps it ASCII,
   * which bad bytes elsewhere cannot touch: an `invalid_client` still drops stale
   * credentials), and a failure it leads to quotes why.
   */
  | { type: "response"; now: number; requestId: number; status: number; body: string; unreadable?: string }
  | { type: "network-error"; now: number; requestId: number; message: string }
  /** The query parameters of the redirect back to `redirectUri`. */
  | { type: "callback"; now: number; params: Record<string, string> }
  /** Use the refresh token; answered by `authorized`, or `failed`: with `reauthorize: true` when it was refused (none held, a 4xx answer), not after a network error, a 5xx or a 429. */
  | { type: "refresh"; now: number }
  /** The answer to a `client-assertion` output: the signed JWT, or why it could not be signed (no key material in it). */
  | { type: "client-assertion"; now: number; assertion: string }
  | { type: "client-assertion"; now: number; error: string };

/** What the flow asks the application to do, or tells it. */
export type OAuthOutput =
  /** Make this HTTP request and feed back its `response` (or `network-error`) with the same `requestId`. */
  | { type: "http"; request: OAuthHttpRequest }
  /** Send the user to `url` (the authorization endpoint); feed back the redirect's query as `callback`. */
  | { type: "redirect"; url: string }
  /**
   * Sign an RFC 7523 client assertion (client-assertion.ts: `iss` = `sub` = `clientId`,
   * `aud` = `audience`, the authorization server's issuer; `iat`, `exp` and a random `jti`
   * from the signer's clock and randomness) with `alg`; feed it back as `client-assertion`.
   */
  | { type: "client-assertion"; clientId: string; audience: string; alg: ClientAssertionAlgorithm }
  /** The flow is done: send `tokens.access_token` as the bearer token. */
  | { type: "authorized"; tokens: OAuthTokens }
  /** The flow stopped; `reauthorize` says a new `authorize` may succeed (e.g. a refresh token was refused). `reason` holds no secret. */
  | { type: "failed"; reason: string; reauthorize?: boolean }
  /** Something worth logging that changes nothing (e.g. a discovery URL that did not answer). */
  | { type: "diagnostic"; message: string };

type Phase = "idle" | "resource-metadata" | "server-metadata" | "registering" | "authorizing" | "signing" | "exchanging" | "refreshing" | "authorized" | "failed";

/** The flow's whole state: plain JSON, so it can be saved and restored (it holds credentials and tokens: keep it as secret as they are). */
export interface OAuthState {
  /** The client configuration the flow was created with. */
  config: OAuthAnyClientConfig;
  /** Where the flow is: discovery, registration, authorization, signing a client assertion, token exchange or refresh, or done. */
  phase: Phase;
  /** The `requestId` the next `http` output gets. */
  nextRequestId: number;
  /** The request the flow waits on. */
  waitingOn?: number;
  /** Discovery URLs still to try in this phase. */
  candidates: string[];
  /** Scopes from the current challenge (authoritative for the operation). */
  challengeScopes?: string[];
  /** Every scope asked for so far: step-up requests the union (draft Step-Up). */
  requestedScopes: string[];
  /**
   * Step-ups without an operation succeeding, by the scope set the challenge asked for
   * (its scopes, sorted, space-separated): draft "Step-Up Authorization Flow" asks to
   * "track scope upgrade attempts to avoid repeated failures for the same resource and
   * operation combination", so one operation that can never get its scope does not use
   * up the budget of another.
   */
  stepUps: Record<string, number>;
  resourceMetadata?: ProtectedResourceMetadata;
  /** The `resource` parameter sent in authorization and token requests. */
  resource: string;
  issuer?: string;
  serverMetadata?: AuthorizationServerMetadata;
  /** True when the server has no PRM and the flow is for 2025-03-26: that revision's rules (server origin as issuer). */
  legacyDiscovery: boolean;
  credentials: Record<string, OAuthCredentials>;
  /** The per-request record of draft "Authorization Response Validation". */
  pending?: { verifier: string; challenge: string; state: string; issuer: string; scope?: string; issSupported: boolean };
  /** The client credentials token request in progress: the scope it asks for (RFC 6749 §5.1: an answer without `scope` grants that). */
  clientCredentialsRequest?: { scope?: string };
  tokens?: OAuthTokens;
}

/** What one step of the flow returns: the (same, updated) state and what to do. */
export interface OAuthStep {
  state: OAuthState;
  outputs: OAuthOutput[];
}

/** A fresh flow for `config`. Credentials from an earlier run may be passed in. */
export function createOAuthState(config: OAuthAnyClientConfig, saved?: { credentials?: Record<string, OAuthCredentials>; tokens?: OAuthTokens; serverMetadata?: AuthorizationServerMetadata }): OAuthState {
  // What was saved is read, not trusted: a file edited, corrupted or saved for another
  // server. Tokens that could not go in a header, or were issued for another resource
  // (draft Token Handling: MUST NOT send tokens other than ones issued for this server),
  // and credentials of the wrong shape are left out: the flow then authorizes afresh.
  // Copies (flat records of strings and numbers), so that the application editing its saved
  // object afterwards does not change the flow's state.
  const usable = usableTokens(saved?.tokens, config.serverUrl);
  const tokens = usable && { ...usable };
  const credentials: Record<string, OAuthCredentials> = {};
  for (const [issuer, c] of Object.entries(saved?.credentials ?? {})) if (isCredentials(c)) credentials[issuer] = { ...c };
  const state: OAuthState = {
    config,
    phase: tokens ? "authorized" : "idle",
    nextRequestId: 1,
    candidates: [],
    // The saved grant's scopes count as asked for: a step-up in this run asks for them too
    // (draft Step-Up: the union "ensures previously granted permissions are preserved").
    requestedScopes: splitScopes(tokens?.scope),
    stepUps: {},
    // A refresh names the resource the grant named (a PRM resource may be a prefix of the server's URL).
    resource: tokens?.resource ?? canonicalResourceUri(config.serverUrl),
    legacyDiscovery: false,
    credentials,
    ...(tokens ? { tokens } : {}),
  };
  // The tokens' issuer's metadata, checked as when it was fetched, and never that of a
  // server pre-registered credentials do not belong to: what a refresh needs.
  const meta = saved?.serverMetadata;
  if (tokens === undefined || meta === undefined || authorizationServerMetadataProblem(meta, tokens.issuer, grantOf(config)) !== undefined) return state;
  return boundElsewhere(state, meta.issuer) !== undefined ? state : { ...state, serverMetadata: meta, issuer: meta.issuer };
}

const optionalString = (v: unknown): boolean => v === undefined || typeof v === "string";

/** The grant `config` is for. */
const grantOf = (config: OAuthAnyClientConfig) => (config.clientCredentials != null ? "client_credentials" : "authorization_code");

/**
 * The authorization code configuration. Only that grant's steps (registration, the
 * redirect, the code exchange) read it, and a client credentials flow never reaches them.
 */
const codeConfig = (state: OAuthState): OAuthAuthorizationCodeConfig => state.config as OAuthAuthorizationCodeConfig;

/** The credentials registered out of band: the client credentials client's, or the authorization code client's pre-registered ones. */
const preRegisteredClient = (config: OAuthAnyClientConfig) => config.clientCredentials ?? config.preRegistered;

/** Saved tokens fit to send to `serverUrl`, or undefined. */
function usableTokens(t: OAuthTokens | undefined, serverUrl: string): OAuthTokens | undefined {
  if (typeof t !== "object" || t === null) return undefined;
  if (typeof t.accessToken !== "string" || !isB64Token(t.accessToken) || typeof t.issuer !== "string") return undefined;
  if (!optionalString(t.refreshToken) || !optionalString(t.scope) || !(t.expiresAt === undefined || Number.isFinite(t.expiresAt))) return undefined;
  // Saved before tokens named their resource: which server they were for is unknown.
  if (typeof t.resource !== "string" || !resourceMatchesServer(t.resource, serverUrl)) return undefined;
  // Never sent over plain http off loopback (Communication Security, see configProblem).
  if (!isHttpsOrLoopback(serverUrl)) return undefined;
  return t;
}

function isCredentials(c: unknown): c is OAuthCredentials {
  if (typeof c !== "object" || c === null) return false;
  const { clientId, clientSecret, authMethod, via } = c as Record<string, unknown>;
  return typeof clientId === "string" && clientId !== "" && optionalString(clientSecret) &&
    // private_key_jwt only as the binding record of client credentials: the key is never saved.
    (authMethod === "none" || authMethod === "client_secret_basic" || authMethod === "client_secret_post" || (authMethod === "private_key_jwt" && via === "pre-registered")) &&
    (via === "pre-registered" || via === "metadata-document" || via === "dynamic");
}

/** Marks that an operation succeeded with the current token: resets the step-up budgets. */
export function operationSucceeded(state: OAuthState): OAuthState {
  for (const _ in state.stepUps) return { ...state, stepUps: {} };
  return state;
}

const splitScopes = (s: string | undefined): string[] => (s ? s.split(" ").filter(Boolean) : []);
const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];

/** The reducer. Never throws: an input that does not fit the phase is a diagnostic. */
export function stepOAuth(state: OAuthState, input: OAuthInput): OAuthStep {
  try {
    return stepInput(state, input);
  } catch (e) {
    // A bug, not a protocol event: the state is left as it was (steps return new states) and the failure is visible.
    return { state, outputs: [{ type: "diagnostic", message: `internal error: ${thrownMessage(e)}` }] };
  }
}

function stepInput(state: OAuthState, input: OAuthInput): OAuthStep {
  // Not an input (null, a string): reading its type threw. An unknown type returned undefined, no step at all.
  if (typeof input !== "object" || input === null) return { state, outputs: [{ type: "diagnostic", message: "an input must be an object; ignored" }] };
  switch (input.type) {
    case "authorize":
      return begin(state, input);
    case "refresh":
      return refresh(state);
    case "callback":
      return callback(state, input.params);
    case "client-assertion":
      return clientAssertion(state, input);
    case "response":
    case "network-error":
      if (input.requestId !== state.waitingOn) return { state, outputs: [{ type: "diagnostic", message: `response to request ${input.requestId} that the flow is not waiting on` }] };
      // The message as text: an adapter handing on what fetch threw (an Error, a DOMException, anything) means its text.
      return input.type === "network-error" ? failed(state, `network error: ${thrownMessage(input.message)}`) : answered(state, input);
  }
  return { state, outputs: [{ type: "diagnostic", message: `input of unknown type ${JSON.stringify(String((input as { type?: unknown }).type))} ignored` }] };
}

/** `state` without `keys`: absent, not `undefined`, so the state stays exact JSON. */
function omit(state: OAuthState, ...keys: (keyof OAuthState)[]): OAuthState {
  const copy = { ...state };
  for (const k of keys) delete copy[k];
  return copy;
}

function failed(state: OAuthState, reason: string, reauthorize?: boolean): OAuthStep {
  return { state: { ...omit(state, "pending", "clientCredentialsRequest", "waitingOn"), phase: "failed" }, outputs: [{ type: "failed", reason: withoutSecrets(state, reason), ...(reauthorize ? { reauthorize } : {}) }] };
}

/**
 * `text` with every secret the flow holds blotted out: a failure quotes what an
 * authorization server answered (its `error`, its description), and a server could echo
 * a secret sent to it there (a client secret, the refresh token of a refresh, the code
 * verifier of an exchange), which would then reach the application's logs.
 */
function withoutSecrets(state: OAuthState, text: string): string {
  const secrets: [unknown, string][] = [
    ...[state.config.clientCredentials?.clientSecret, state.config.preRegistered?.clientSecret, ...Object.values(state.credentials).map((c) => c.clientSecret)].map((s): [unknown, string] => [s, "[client secret]"]),
    [state.tokens?.refreshToken, "[refresh token]"],
    [state.pending?.verifier, "[code verifier]"],
  ];
  for (const [secret, name] of secrets) if (typeof secret === "string" && secret.length > 0) text = text.split(secret).join(name);
  return text;
}

function request(state: OAuthState, phase: Phase, req: Omit<OAuthHttpRequest, "requestId">, extra: Partial<OAuthState> = {}): OAuthStep {
  const requestId = state.nextRequestId;
  return {
    state: { ...state, ...extra, phase, nextRequestId: requestId + 1, waitingOn: requestId },
    outputs: [{ type: "http", request: { requestId, ...req } }],
  };
}

const getJson = (url: string) => ({ url, method: "GET" as const, headers: { accept: "application/json" } });

/** Why `config` cannot be used for an authorization, if it cannot. */
function configProblem(config: OAuthAnyClientConfig): string | undefined {
  // Step-Up "retry limits": NaN (a `Number()` of a missing setting) compares false with every
  // count, so no step-up would ever be the last: consent screens without end.
  const max = config.maxStepUps;
  if (max !== undefined && !(Number.isInteger(max) && max >= 0)) return `maxStepUps ${String(max)} is not a whole number >= 0`;
  // security-considerations, Communication Security: implementations MUST follow OAuth 2.1
  // §1.5, which requires TLS for tokens in header fields (RFC 6750 §5.3: clients MUST always
  // use TLS with bearer tokens). A token obtained for a plain-http server off loopback would
  // cross the network in clear text on every request, so none is obtained for it.
  if (!isHttpsOrLoopback(config.serverUrl)) return `the MCP server ${originOf(config.serverUrl)} is not served over https: a bearer token sent to it would travel in clear text (OAuth 2.1 §1.5); refusing to authorize (http is allowed on a loopback host)`;
  if (config.clientCredentials != null) return clientCredentialsConfigProblem(config.clientCredentials);
  // draft security-considerations, Communication Security.
  if (!isHttpsOrLoopback(config.redirectUri)) return `the redirect URI ${config.redirectUri} is neither https nor on a loopback host (redirect URIs MUST be localhost or use HTTPS)`;
  // client-registration, Client ID Metadata Documents. A bad URL is a configuration error to
  // surface at once, not a reason to fall back to registration silently.
  const cimd = config.clientMetadataUrl;
  if (cimd !== undefined && !isClientIdMetadataUrl(cimd)) {
    return `the client metadata URL ${cimd} is not an https URL with a path (the client_id URL MUST use the "https" scheme and contain a path component)`;
  }
  return undefined;
}

/** `url`'s origin, or `url` itself when it is no URL (a message never throws). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return String(url);
  }
}

function begin(state: OAuthState, input: Extract<OAuthInput, { type: "authorize" }>): OAuthStep {
  const problem = configProblem(state.config);
  if (problem) return failed(state, problem);
  const challenge = bearerChallenge(input.challenge);
  const challengeScopes = challenge?.params.scope !== undefined ? splitScopes(challenge.params.scope) : undefined;
  const stepUp = challenge?.params.error === "insufficient_scope";
  let stepUps = state.stepUps;
  if (stepUp) {
    const operation = [...(challengeScopes ?? [])].sort().join(" ");
    // An own count only: a scope set named like a member of Object.prototype ("constructor")
    // read the inherited function, made the count a string and so never reached the limit.
    const attempts = (Object.hasOwn(stepUps, operation) ? stepUps[operation] : 0) + 1;
    stepUps = { ...stepUps, [operation]: attempts };
    if (attempts > (state.config.maxStepUps ?? 2)) return failed({ ...state, stepUps }, `the server still answers insufficient_scope after ${attempts - 1} step-up attempts`);
  }
  // The challenge's resource_metadata first; should it not answer, the well-known URIs in
  // their order (authorization-server-discovery) before giving up.
  const hinted = challenge?.params.resource_metadata;
  const wellKnown = protectedResourceMetadataUrls(state.config.serverUrl);
  const candidates = hinted && isHttpUrl(hinted) ? [hinted, ...wellKnown.filter((u) => u !== hinted)] : wellKnown;
  const next: Partial<OAuthState> = { candidates: candidates.slice(1), stepUps, legacyDiscovery: false, ...(challengeScopes ? { challengeScopes } : {}) };
  if (grantOf(state.config) === "authorization_code") {
    if (!input.pkce || input.state === undefined) return failed(state, "the authorize input carries no PKCE pair and state (the authorization code grant needs them)");
    next.pending = { verifier: input.pkce.verifier, challenge: input.pkce.challenge, state: input.state, issuer: "", issSupported: false };
  }
  return request(omit(state, "challengeScopes", "pending", "clientCredentialsRequest"), "resource-metadata", getJson(candidates[0]), next);
}

function isHttpUrl(v: string): boolean {
  try {
    return /^https?:$/.test(new URL(v).protocol);
  } catch {
    return false;
  }
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function answered(state: OAuthState, input: Extract<OAuthInput, { type: "response" }>): OAuthStep {
  const { status, unreadable } = input;
  const ok = status >= 200 && status < 300;
  const doc = unreadable === undefined ? parseJson(input.body) : ok ? undefined : errorCodeOf(parseJson(input.body));
  switch (state.phase) {
    case "resource-metadata":
      return resourceMetadataAnswer(state, ok ? doc : undefined, status, ok ? unreadable : undefined);
    case "server-metadata":
      return serverMetadataAnswer(state, ok ? doc : undefined, status, ok ? unreadable : undefined);
    case "registering":
      return registrationAnswer(state, status, doc, unreadable);
    case "exchanging":
    case "refreshing":
      return tokenAnswer(state, status, doc, input.now, unreadable);
    default:
      return { state, outputs: [{ type: "diagnostic", message: `unexpected HTTP response in phase ${state.phase}` }] };
  }
}

/** RFC 6749 §5.2's characters of an `error` code. */
const ERROR_CODE = /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/;

/** Of an error document read from a body that is not UTF-8, its `error` code alone, when it is one (else undefined). */
function errorCodeOf(doc: unknown): { error: string } | undefined {
  const error = typeof doc === "object" && doc !== null ? (doc as { error?: unknown }).error : undefined;
  return typeof error === "string" && ERROR_CODE.test(error) ? { error } : undefined;
}

/** A response's status as a failure quotes it, with why its body could not be read when that is why there is no document. */
function quoted(status: number, unreadable: string | undefined): string {
  return unreadable === undefined ? `${status}` : `${status}, ${unreadable}`;
}

function resourceMetadataAnswer(state: OAuthState, doc: unknown, status: number, unreadable: string | undefined): OAuthStep {
  if (doc === undefined) {
    if (state.candidates.length) return request(state, "resource-metadata", getJson(state.candidates[0]), { candidates: state.candidates.slice(1) });
    // draft index: "MCP clients MUST use OAuth 2.0 Protected Resource Metadata for
    // authorization server discovery". Only a 2025-03-26 server may lack it: its origin is
    // the authorization server (2025-03-26 authorization, "Server Metadata Discovery").
    if (state.config.protocolVersion !== "2025-03-26") {
      return failed(state, `no protected resource metadata for ${state.config.serverUrl} (last status ${quoted(status, unreadable)}); refusing to guess the authorization server (set protocolVersion "2025-03-26" for a server of that revision)`);
    }
    const origin = new URL(state.config.serverUrl).origin;
    return discoverServer({ ...omit(state, "resourceMetadata"), legacyDiscovery: true }, origin, [`${origin}/.well-known/oauth-authorization-server`], `no protected resource metadata (last status ${quoted(status, unreadable)}); using the 2025-03-26 rules`);
  }
  const problem = protectedResourceMetadataProblem(doc);
  if (problem) return failed(state, `protected resource metadata is unusable: ${problem}`);
  const prm = doc as ProtectedResourceMetadata;
  // RFC 9728 §3.3: metadata for another resource MUST NOT be used.
  if (!resourceMatchesServer(prm.resource, state.config.serverUrl)) {
    return failed(state, `protected resource metadata names the resource ${prm.resource}, not ${canonicalResourceUri(state.config.serverUrl)}`);
  }
  const issuer = chooseAuthorizationServer(state, prm.authorization_servers);
  // The resource the server's metadata names, its query included (RFC 9728 §3.3: the
  // identifier the well-known URI was built from).
  const resource = canonicalResourceUri(prm.resource, true);
  const moved = state.issuer !== undefined && state.issuer !== issuer;
  return discoverServer({ ...state, resourceMetadata: prm, resource }, issuer, authorizationServerMetadataUrls(issuer), moved ? `authorization server changed from ${state.issuer} to ${issuer}` : undefined);
}

/**
 * authorization-server-discovery: with several servers listed, "the responsibility for
 * selecting which authorization server to use lies with the MCP client". The one the
 * pre-registered client belongs to (client-registration priority 1), else the one that
 * issued the tokens held (a step-up keeps the scopes granted there: asking another server
 * for them would grant nothing preserved), else, with no pre-registered client, one whose
 * credentials were saved (no second registration), else the first. A pre-registered client
 * not yet bound goes to the first: saved dynamic credentials do not outrank it.
 */
function chooseAuthorizationServer(state: OAuthState, listed: string[]): string {
  const bound = preRegisteredIssuer(state);
  if (bound !== undefined && listed.includes(bound)) return bound;
  const granted = state.tokens?.issuer;
  if (granted !== undefined && listed.includes(granted)) return granted;
  if (preRegisteredClient(state.config) !== undefined) return listed[0];
  // A pre-registered entry is only a binding record (no secret), not credentials to reuse.
  return listed.find((issuer) => state.credentials[issuer] !== undefined && state.credentials[issuer].via !== "pre-registered") ?? listed[0];
}

/** The issuer pre-registered credentials belong to: the configured one, else the one they were first used with. */
function preRegisteredIssuer(state: OAuthState): string | undefined {
  const pre = preRegisteredClient(state.config);
  if (!pre) return undefined;
  if (pre.issuer !== undefined) return pre.issuer;
  for (const [issuer, c] of Object.entries(state.credentials)) if (c.via === "pre-registered" && c.clientId === pre.clientId) return issuer;
  return undefined;
}

/**
 * client-registration, Authorization Server Binding: the issuer pre-registered credentials
 * belong to when it is not `issuer` (they must never go there), else undefined.
 */
function boundElsewhere(state: OAuthState, issuer: string): string | undefined {
  const bound = preRegisteredIssuer(state);
  return bound !== undefined && bound !== issuer ? bound : undefined;
}

function discoverServer(state: OAuthState, issuer: string, urls: string[], note: string | undefined): OAuthStep {
  // Communication Security: all authorization server endpoints MUST be served over HTTPS
  // (the 2025-03-26 fallback's issuer, the server origin, included).
  if (!isHttpsOrLoopback(issuer)) return failed(state, `the authorization server ${issuer} is not served over https; refusing to use it`);
  // Pre-registered credentials for another server are an error to surface, never something to try.
  const bound = boundElsewhere(state, issuer);
  if (bound !== undefined) return failed(state, `the server now uses the authorization server ${issuer}, but the pre-registered client belongs to ${bound}`);
  // Tokens belong to the server that issued them (Token Handling; client-registration,
  // Authorization Server Binding): another server's, from an earlier run or from before the
  // server moved, are neither refreshed at this one nor sent on.
  if (state.tokens !== undefined && state.tokens.issuer !== issuer) state = omit(state, "tokens");
  const step = request(state, "server-metadata", serverMetadataGet(state, urls[0]), { issuer, candidates: urls.slice(1) });
  if (note) step.outputs.unshift({ type: "diagnostic", message: note });
  return step;
}

/** 2025-03-26 Server Metadata Discovery: clients SHOULD send MCP-Protocol-Version, so the server can answer for its revision. */
function serverMetadataGet(state: OAuthState, url: string): Omit<OAuthHttpRequest, "requestId"> {
  const req = getJson(url);
  return state.legacyDiscovery ? { ...req, headers: { ...req.headers, "mcp-protocol-version": "2025-03-26" } } : req;
}

function serverMetadataAnswer(state: OAuthState, doc: unknown, status: number, unreadable: string | undefined): OAuthStep {
  const issuer = state.issuer as string;
  const problem = doc !== undefined ? authorizationServerMetadataProblem(doc, issuer, grantOf(state.config)) : status === 404 ? "not found" : status >= 200 && status < 300 ? (unreadable ?? "not JSON") : `HTTP ${status}`;
  if (problem) {
    const notes: OAuthOutput[] = doc === undefined ? [] : [{ type: "diagnostic", message: `authorization server metadata rejected: ${problem}` }];
    if (state.candidates.length) {
      const step = request(state, "server-metadata", serverMetadataGet(state, state.candidates[0]), { candidates: state.candidates.slice(1) });
      step.outputs.unshift(...notes);
      return step;
    }
    // 2025-03-26 "Fallbacks for Servers without Metadata Discovery" are for servers that do
    // not implement the metadata (its flow: 404, use the defaults). A document that fails
    // validation, or an error status, is a server that has metadata: invented endpoints
    // would send the code and credentials where that server never said.
    if (!state.legacyDiscovery || status !== 404) return failed(state, `no usable authorization server metadata for ${issuer} (${problem})`);
    // No metadata to consult for PKCE support here (unlike a document without
    // code_challenge_methods_supported, refused below): PKCE is mandatory in 2025-03-26, so S256 is assumed.
    return withServer(state, {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      code_challenge_methods_supported: ["S256"],
    });
  }
  const meta = doc as AuthorizationServerMetadata;
  // 2025-11-25 security-considerations: without advertised S256 support the client MUST refuse
  // (to use the authorization code grant: the client credentials grant has no code to protect).
  const s256 = metadataList(meta.code_challenge_methods_supported)?.includes("S256") === true;
  if (grantOf(state.config) === "authorization_code" && !s256) {
    return failed(state, "the authorization server does not advertise PKCE S256 (code_challenge_methods_supported); refusing to proceed");
  }
  return withServer(state, meta);
}

/** Picks the first method the server supports, preferring what needs no secret. */
function chooseAuthMethod(meta: AuthorizationServerMetadata, hasSecret: boolean): ClientAuthMethod {
  // RFC 8414 §2: absent means client_secret_basic.
  const supported = metadataList(meta.token_endpoint_auth_methods_supported) ?? ["client_secret_basic"];
  const order: ClientAuthMethod[] = hasSecret ? ["client_secret_basic", "client_secret_post", "none"] : ["none", "client_secret_basic", "client_secret_post"];
  return order.find((m) => supported.includes(m)) ?? (hasSecret ? "client_secret_basic" : "none");
}

function preRegisteredCredentials(pre: NonNullable<OAuthAnyClientConfig["preRegistered"]>, meta: AuthorizationServerMetadata): OAuthCredentials {
  const hasSecret = pre.clientSecret !== undefined;
  return { clientId: pre.clientId, ...(hasSecret ? { clientSecret: pre.clientSecret } : {}), authMethod: pre.authMethod ?? chooseAuthMethod(meta, hasSecret), via: "pre-registered" };
}

function withServer(state: OAuthState, meta: AuthorizationServerMetadata): OAuthStep {
  const issuer = meta.issuer;
  const next: OAuthState = { ...state, serverMetadata: meta };
  if (state.config.clientCredentials != null) return requestClientCredentials(next, state.config.clientCredentials, meta);
  const config = codeConfig(state);
  const pre = config.preRegistered;
  // client-registration priority: pre-registered, then CIMD, then DCR.
  if (pre) {
    return startAuthorization(next, preRegisteredCredentials(pre, meta));
  }
  const saved = state.credentials[issuer];
  // A pre-registered entry is only the binding record (no secret): not credentials to use.
  // Nor is a Client ID Metadata Document's: its client_id is the configured URL, portable
  // across servers (client-registration), and a saved one may be a URL the application has
  // since moved or dropped, which would otherwise be sent for good.
  if (saved && saved.via === "dynamic") return startAuthorization(next, saved);
  if (meta.client_id_metadata_document_supported === true && config.clientMetadataUrl) {
    return startAuthorization(next, { clientId: config.clientMetadataUrl, authMethod: "none", via: "metadata-document" });
  }
  if (!meta.registration_endpoint) {
    return failed(next, `the authorization server ${issuer} supports neither Client ID Metadata Documents nor Dynamic Client Registration, and no pre-registered client is configured`);
  }
  const authMethod = chooseAuthMethod(meta, false);
  const grants = metadataList(meta.grant_types_supported);
  const wantsRefresh = grants === undefined || grants.includes("refresh_token");
  const registration = {
    client_name: config.clientName,
    redirect_uris: [config.redirectUri],
    grant_types: wantsRefresh ? ["authorization_code", "refresh_token"] : ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: authMethod,
    // client-registration: MUST specify application_type; native for loopback redirects.
    application_type: config.applicationType ?? (isLoopbackUrl(config.redirectUri) ? "native" : "web"),
    ...(scopesFor(next).length ? { scope: scopesFor(next).join(" ") } : {}),
  };
  return request(next, "registering", {
    url: meta.registration_endpoint,
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(registration),
  });
}

function registrationAnswer(state: OAuthState, status: number, doc: unknown, unreadable: string | undefined): OAuthStep {
  const d = (typeof doc === "object" && doc !== null ? doc : {}) as Record<string, unknown>;
  if (status < 200 || status >= 300 || typeof d.client_id !== "string") {
    const why = typeof d.error === "string" ? `${d.error}${typeof d.error_description === "string" ? `: ${d.error_description}` : ""}` : `HTTP ${quoted(status, unreadable)}`;
    return failed(state, `dynamic client registration was refused (${why})`);
  }
  const secret = typeof d.client_secret === "string" ? d.client_secret : undefined;
  const declared = d.token_endpoint_auth_method;
  const authMethod: ClientAuthMethod =
    declared === "none" || declared === "client_secret_basic" || declared === "client_secret_post" ? declared : chooseAuthMethod(state.serverMetadata as AuthorizationServerMetadata, secret !== undefined);
  const creds: OAuthCredentials = { clientId: d.client_id, ...(secret !== undefined ? { clientSecret: secret } : {}), authMethod, via: "dynamic" };
  return startAuthorization({ ...state, credentials: { ...state.credentials, [state.serverMetadata!.issuer]: creds } }, creds);
}

/**
 * The scope set of draft "Scope Selection Strategy" and "Step-Up Authorization Flow": the
 * challenge's scopes (else the resource's `scopes_supported`), with every scope asked for
 * before ("When re-authorizing, clients SHOULD include these scopes alongside any
 * previously granted scopes": after a 401 as after a 403, a re-authorization keeps them).
 */
function scopesFor(state: OAuthState): string[] {
  const base = state.challengeScopes ?? state.resourceMetadata?.scopes_supported ?? [];
  let scopes = union(state.requestedScopes, base);
  // Refresh tokens: MAY add offline_access when the authorization server lists it (not for
  // the client credentials grant, which has no refresh token to ask for).
  if (scopes.length && grantOf(state.config) === "authorization_code" && metadataList(state.serverMetadata?.scopes_supported)?.includes("offline_access") && !scopes.includes("offline_access")) scopes.push("offline_access");
  return scopes;
}

function startAuthorization(state: OAuthState, creds: OAuthCredentials): OAuthStep {
  const meta = state.serverMetadata as AuthorizationServerMetadata;
  const pending = state.pending;
  if (!pending) return failed(state, "no authorization in progress");
  const scopes = scopesFor(state);
  const scope = scopes.length ? scopes.join(" ") : undefined;
  // Validated for the authorization code grant (authorizationServerMetadataProblem).
  const url = new URL(meta.authorization_endpoint as string);
  const q = url.searchParams;
  q.set("response_type", "code");
  q.set("client_id", creds.clientId);
  q.set("redirect_uri", codeConfig(state).redirectUri);
  q.set("code_challenge", pending.challenge);
  q.set("code_challenge_method", "S256");
  q.set("state", pending.state);
  // RFC 8707: the resource parameter MUST be sent, whether or not the server supports it.
  q.set("resource", state.resource);
  if (scope) q.set("scope", scope);
  // Pre-registered credentials are recorded without their secret (it stays in the config):
  // the entry binds them to this issuer, so they are never sent to another.
  const record = creds.via === "pre-registered" ? { clientId: creds.clientId, authMethod: creds.authMethod, via: creds.via } : creds;
  const credentials = { ...state.credentials, [meta.issuer]: record };
  return {
    state: {
      ...omit(state, "waitingOn"),
      phase: "authorizing",
      credentials,
      requestedScopes: union(state.requestedScopes, scopes),
      // Record the issuer with the verifier before redirecting (Authorization Response Validation).
      pending: { ...pending, issuer: meta.issuer, issSupported: meta.authorization_response_iss_parameter_supported === true, ...(scope ? { scope } : {}) },
    },
    outputs: [{ type: "redirect", url: url.toString() }],
  };
}

/**
 * SEP-1046 client credentials flow: the token request in place of registration and a
 * redirect, once the server's metadata allows it. The credentials are recorded against
 * the issuer without their secret, as pre-registered ones are (Authorization Server
 * Binding). A JWT assertion is asked for first; a secret goes straight in.
 */
function requestClientCredentials(state: OAuthState, cc: ClientCredentialsConfig, meta: AuthorizationServerMetadata): OAuthStep {
  const plan = clientCredentialsMethod(cc, meta);
  if ("problem" in plan) return failed(state, plan.problem);
  const scopes = scopesFor(state);
  const next: OAuthState = {
    ...omit(state, "waitingOn"),
    credentials: { ...state.credentials, [meta.issuer]: { clientId: cc.clientId, authMethod: plan.authMethod, via: "pre-registered" } },
    requestedScopes: union(state.requestedScopes, scopes),
    clientCredentialsRequest: scopes.length ? { scope: scopes.join(" ") } : {},
  };
  if (plan.authMethod === "private_key_jwt") {
    // RFC 7523 §3: the audience identifies the authorization server: its issuer identifier.
    return { state: { ...next, phase: "signing" }, outputs: [{ type: "client-assertion", clientId: cc.clientId, audience: meta.issuer, alg: plan.alg }] };
  }
  return clientCredentialsToken(next, { clientId: cc.clientId, clientSecret: cc.clientSecret, authMethod: plan.authMethod });
}

/** The `grant_type=client_credentials` request (OAuth 2.1 §4.2.1) with `resource` (RFC 8707) and the chosen scope. */
function clientCredentialsToken(state: OAuthState, creds: Parameters<typeof tokenRequest>[2]): OAuthStep {
  const meta = state.serverMetadata as AuthorizationServerMetadata;
  const scope = state.clientCredentialsRequest?.scope;
  const fields = { grant_type: "client_credentials", resource: state.resource, ...(scope !== undefined ? { scope } : {}) };
  return request(state, "exchanging", tokenRequest(meta.token_endpoint, fields, creds));
}

/** The signed assertion a `client-assertion` output asked for: the token request goes out with it. */
function clientAssertion(state: OAuthState, input: Extract<OAuthInput, { type: "client-assertion" }>): OAuthStep {
  const cc = state.config.clientCredentials;
  if (state.phase !== "signing" || cc === undefined) return { state, outputs: [{ type: "diagnostic", message: "a client assertion the flow did not ask for" }] };
  if ("error" in input) return failed(state, `the client assertion could not be signed: ${input.error}`);
  return clientCredentialsToken(state, { clientId: cc.clientId, authMethod: "private_key_jwt", clientAssertion: input.assertion });
}

function currentCredentials(state: OAuthState): OAuthCredentials | undefined {
  const pre = state.config.preRegistered;
  const meta = state.serverMetadata;
  if (!meta) return undefined;
  if (pre) return preRegisteredCredentials(pre, meta);
  return state.credentials[meta.issuer];
}

function callback(state: OAuthState, params: Record<string, string>): OAuthStep {
  const pending = state.pending;
  if (state.phase !== "authorizing" || !pending) return { state, outputs: [{ type: "diagnostic", message: "authorization callback with no authorization in progress" }] };
  if (params.state !== pending.state) return failed(state, "the authorization response's state does not match the request");
  // RFC 9207 §2.4 with the draft's table: simple string comparison, no normalisation.
  const iss = params.iss;
  if (iss !== undefined && iss !== pending.issuer) return failed(state, "the authorization response comes from another issuer (iss mismatch); its contents were not used");
  if (iss === undefined && pending.issSupported) return failed(state, "the authorization server advertises iss but its response has none; rejected");
  if (params.error !== undefined) return failed(state, `authorization was refused: ${params.error}${params.error_description ? ` (${params.error_description})` : ""}`);
  if (!params.code) return failed(state, "the authorization response carries no code");
  const creds = currentCredentials(state);
  if (!creds) return failed(state, "no client credentials for the authorization server");
  const meta = state.serverMetadata as AuthorizationServerMetadata;
  const fields = { grant_type: "authorization_code", code: params.code, redirect_uri: codeConfig(state).redirectUri, code_verifier: pending.verifier, resource: state.resource };
  return request(state, "exchanging", tokenRequest(meta.token_endpoint, fields, creds));
}

function refresh(state: OAuthState): OAuthStep {
  const creds = currentCredentials(state);
  if (!state.tokens?.refreshToken || !creds || !state.serverMetadata) return failed(state, "no refresh token", true);
  if (state.tokens.issuer !== state.serverMetadata.issuer) return failed(omit(state, "tokens"), `the tokens were issued by ${state.tokens.issuer}, not ${state.serverMetadata.issuer}`, true);
  const bound = boundElsewhere(state, state.serverMetadata.issuer);
  if (bound !== undefined) return failed(state, `the pre-registered client belongs to ${bound}, not ${state.serverMetadata.issuer}`, true);
  const fields = { grant_type: "refresh_token", refresh_token: state.tokens.refreshToken, resource: state.resource, ...(state.tokens.scope ? { scope: state.tokens.scope } : {}) };
  return request(state, "refreshing", tokenRequest(state.serverMetadata.token_endpoint, fields, creds));
}

function tokenAnswer(state: OAuthState, status: number, doc: unknown, now: number, unreadable: string | undefined): OAuthStep {
  const d = (typeof doc === "object" && doc !== null ? doc : {}) as Record<string, unknown>;
  const refreshing = state.phase === "refreshing";
  const cc = state.clientCredentialsRequest;
  if (status < 200 || status >= 300 || typeof d.access_token !== "string") {
    const why = typeof d.error === "string" ? d.error : `HTTP ${quoted(status, unreadable)}`;
    // The client's own credentials, refused: theirs to fix, so say which (never their value).
    if (cc) return failed(state, `the client_credentials token request was refused (${why}${d.error === "invalid_client" ? ": the authorization server did not accept the client id and its secret or key" : ""})`);
    // RFC 6749 §5.2 invalid_client: registered credentials the server no longer knows
    // (expired, revoked) are forgotten, so the next attempt registers afresh instead of
    // failing the same way for good; pre-registered ones are the user's to fix.
    const issuer = state.serverMetadata?.issuer;
    if (d.error === "invalid_client" && issuer !== undefined && state.credentials[issuer]?.via === "dynamic") {
      const { [issuer]: _stale, ...credentials } = state.credentials;
      state = { ...state, credentials };
    }
    // A refused refresh (RFC 6749 §5.2: a 4xx, invalid_grant above all) needs a new
    // authorization. A server that failed or is overloaded (5xx, 429) refused nothing: the
    // refresh token may still be good, and a new authorization would put a consent screen
    // before the user for an outage (as a network error does not).
    return failed(state, `the token request was refused (${why})`, refreshing && status < 500 && status !== 429);
  }
  if (typeof d.token_type === "string" && d.token_type.toLowerCase() !== "bearer") return failed(state, `unsupported token type ${d.token_type}`);
  // RFC 6750 §2.1: a Bearer credential is a b64token. Another (empty, CR LF, a space) could
  // not go in a header: stored, it would fail every request after it, saved state included.
  if (!isB64Token(d.access_token)) return failed(state, "the access token cannot be sent as a Bearer credential (RFC 6750 §2.1 b64token)", refreshing);
  // A lifetime that is not a finite number of seconds ≥ 0 is no lifetime (Infinity would save as null).
  const expiresAt = typeof d.expires_in === "number" && d.expires_in >= 0 ? now + d.expires_in * 1000 : NaN;
  const requested = refreshing ? state.tokens?.scope : (cc ?? state.pending)?.scope;
  // RFC 6749 §4.4.3: a client credentials answer SHOULD NOT carry a refresh token, and none
  // is kept: running the grant again needs nothing the client does not hold.
  const refreshToken = cc ? undefined : typeof d.refresh_token === "string" ? d.refresh_token : refreshing ? state.tokens?.refreshToken : undefined;
  const tokens: OAuthTokens = {
    accessToken: d.access_token,
    tokenType: "Bearer",
    issuer: state.serverMetadata!.issuer,
    resource: state.resource,
    ...(refreshToken !== undefined ? { refreshToken } : {}),
    ...(Number.isFinite(expiresAt) ? { expiresAt } : {}),
    // RFC 6749 §5.1: an omitted scope is the one requested: a refresh asks for the current tokens' scope.
    ...(typeof d.scope === "string" ? { scope: d.scope } : requested ? { scope: requested } : {}),
  };
  // The output's tokens are a copy (all strings and numbers): an application editing what it
  // was handed (dropping the access token before it stores them) must not change the flow's.
  return { state: { ...omit(state, "pending", "clientCredentialsRequest", "waitingOn"), phase: "authorized", tokens }, outputs: [{ type: "authorized", tokens: { ...tokens } }] };
}
