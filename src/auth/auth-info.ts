/**
 * What `protectedResource` learned of a request's token, kept beside the request for
 * the handler behind it. A module of its own: `McpServer.httpSession()` reads the subject
 * (the default principal) without taking in the wrapper.
 */

/** What the application's verifier says about a token. */
export interface VerifiedToken {
  /** The scopes granted to the token. */
  scopes: string[];
  /**
   * The resources the token was issued for (`aud` of a JWT, `aud`/`resource` of an
   * introspection answer). The wrapper rejects a token not issued for this server.
   */
  audience: string | string[];
  /**
   * Expiry, in milliseconds since the epoch; checked against the injected clock. Against a
   * clock that reads a date after 1973, a value below 10^11 (before 1973 in milliseconds)
   * that, read as seconds, falls before ten years from now is read as seconds, as a JWT's
   * `exp` and the official SDKs' verifiers give it (taken as milliseconds, every such token
   * had expired); any other stays milliseconds, so garbage still fails closed.
   */
  expiresAt?: number;
  /** Who the token speaks for; handed to the inner handler through {@link authInfo}. */
  subject?: string;
  /** The issuer of the token, checked against `authorizationServers` when present. */
  issuer?: string;
  /** Anything else the application wants the handler to see. */
  extra?: Record<string, unknown>;
}

/** The principal of a request that passed the checks, for the inner handler. */
export interface AuthInfo {
  token: VerifiedToken;
  /** The request's scopes as granted. */
  scopes: string[];
}

const authInfos = /* @__PURE__ */ new WeakMap<Request, AuthInfo>();
/** Whether any request came through `protectedResource` in this process (see {@link subjectOf}). */
let anyVerified = false;

/** Records what `protectedResource` verified of `request`. */
export function rememberAuthInfo(request: Request, info: AuthInfo): void {
  anyVerified = true;
  authInfos.set(request, info);
}

/** The verified principal of `request`, when it came through `protectedResource`. */
export function authInfo(request: Request | undefined): AuthInfo | undefined {
  return request === undefined ? undefined : authInfos.get(request);
}

/**
 * The token's subject, the principal `McpServer.httpSession()` binds sessions, tasks and
 * `requestState` to unless told otherwise; undefined at once in a process where no request
 * was verified, so that a server without `protectedResource` never has the HTTP handler's
 * fast path build a `Request` only to find no token on it.
 */
export function subjectOf(request: () => Request): string | undefined {
  return anyVerified ? authInfo(request())?.token.subject : undefined;
}
