/**
 * The legacy (2025-era) sessions of the Streamable HTTP handler: the table of live
 * {@link HttpSession}s, how an `initialize` POST makes one (on a stateless handler: how
 * any POST makes its own, `http/stateless.ts`), how a later request finds its own, and
 * idle expiry.
 *
 * Spec: 2025-11-25 `basic/transports` ("Session Management", "Protocol Version Header"),
 * the same page of 2025-06-18 and 2025-03-26; 2025-11-25 `basic/security_best_practices`
 * ("Session Hijacking": a session is bound to the principal of its `initialize`).
 *
 * Theory of operation. {@link createSessionTable} is built once per handler and closes
 * over its options, clock and the shared {@link EventStore} (the replay log's bounds).
 * `newSession` builds a session and its kernel for an `initialize` (refusing past
 * `maxSessions`, an unusable generated id, or a body over the session's own limits) but
 * does not enter it in the table: `admit`, called once the kernel has answered
 * `initialize`, keeps it only if the kernel accepted it and returns the `MCP-Session-Id`
 * header that announces it (none for a stateless POST's, which is keyed by a number of the
 * table's own). `maxSessions` counts the HTTP+SSE transport's sessions too (`others`), and
 * an id names one session of either kind. `sessionOf` finds the session a request names (400 without
 * the header; 404 when unknown, ended, or bound to another principal, alike; 400 for a
 * protocol version header that is not the session's) and counts the request as activity.
 * A session idle for `sessionIdleMs` with no open connection (an SSE stream, or a POST
 * whose client awaits its JSON answer) is terminated; its timer is
 * re-armed lazily, once per expiry, not per request. A terminated session leaves the
 * table and its `onClose` runs (`configFor`'s `onTerminate`).
 */
import { Endpoint } from "../../driver/endpoint.js";
import type { Clock } from "../../driver/clock.js";
import { DEFAULT_LIMITS } from "../../jsonrpc/codec.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { ErrorCode } from "../../jsonrpc/errors.js";
import { isLegacyVersion } from "../../model/versions.js";
import { negotiatedVersion } from "../../session/session.js";
import type { HttpHandlerOptions, HttpSessionContext, HttpSessionSetup } from "../http-server.js";
import type { SessionOptions } from "../../session/types.js";
import type { HttpRequestView } from "../http-view.js";
import { httpError, overSessionLimits, RETRY_SOON } from "./body.js";
import { EventStore } from "./event-log.js";
import { H, isVisibleAscii, randomSessionId } from "./headers.js";
import { HttpSession, type SessionConfig } from "./server-session.js";
import { errorText } from "../error-text.js";

/**
 * `MCP-Session-Id` (`H.sessionId`) as a reply header field: lower case, as `Headers` writes
 * names. Exported for the test that ties it to `H.sessionId`.
 * @internal
 */
export const SESSION_ID_FIELD = "mcp-session-id";

/** The sessions of another table (the HTTP+SSE transport's), as far as this one needs them. */
export interface ReadonlySessionIds {
  readonly size: number;
  has(id: string): boolean;
}

/** What the table takes from the handler: its options, and the values it resolved from them that it shares. */
export interface SessionTableConfig {
  readonly options: HttpHandlerOptions;
  readonly clock: Clock;
  readonly retryMs: number;
  readonly maxQueuedBytes: number;
  readonly sseKeepAliveMs: number;
  /** The handler's diagnostics. */
  diagnose(code: string, message: string, sessionId?: string, detail?: unknown): void;
  /** A request was answered or cancelled, or a session ended with its requests. */
  settled(): void;
  /** Sessions held elsewhere (the HTTP+SSE transport's): `maxSessions` counts them too, and an id names one session of either kind. */
  others?: ReadonlySessionIds | undefined;
}

/** The live sessions of one handler, and what the handler does with them. */
export interface SessionTable {
  /** Live sessions, by id. */
  readonly sessions: Map<string, HttpSession>;
  /** Builds the session an `initialize` asks for (`stateless`: one POST's, see `http/stateless.ts`), or the refusal. */
  newSession(req: HttpRequestView, body: Uint8Array, stateless?: boolean): { session: HttpSession; setup: HttpSessionSetup } | Response;
  /** Enters the session in the table if its kernel accepted `initialize`; the headers that announce it (none for a stateless one). */
  admit(session: HttpSession, setup: HttpSessionSetup): Record<string, string> | undefined;
  /** The session a request names, or the refusal. */
  sessionOf(req: HttpRequestView): HttpSession | Response;
  /** An id for a new session of either kind (`generate`d), or the refusal: past `maxSessions`, counting both, or an unusable id. */
  freshId(generated?: () => string): string | Response;
}

/** The session table of one handler. See the module comment. */
export function createSessionTable(cfg: SessionTableConfig): SessionTable {
  const { options, clock, retryMs, maxQueuedBytes, sseKeepAliveMs, diagnose, settled } = cfg;
  const maxSessions = options.maxSessions ?? 1000;
  const idleMs = options.sessionIdleMs ?? 30 * 60 * 1000;
  const strictVersion = options.strictProtocolVersionHeader === true;
  const generate = options.sessionIdGenerator ?? randomSessionId;
  const sessions = new Map<string, HttpSession>();
  /** Numbers the table keys of stateless sessions, which no client ever names. */
  let statelessCount = 0;
  const store = new EventStore(options.eventStore, (log, seq, dropped) =>
    diagnose("message-lost", dropped ? "a message was dropped with its stream (its session ended, or it was past maxRetainedStreams) before any connection carried it" : "a message was evicted from the replay log before any connection carried it", log.session.sessionId, { stream: log.stream, seq }),
  );

  function configFor(sessionId: string, setup: HttpSessionSetup, stateless: boolean): SessionConfig {
    return {
      stateless,
      store,
      clock,
      retryMs,
      pollingCloseAfterMs: options.pollingCloseAfterMs ?? 0,
      maxQueuedBytes,
      sseKeepAliveMs,
      maxRetainedStreams: Math.max(1, options.eventStore?.maxRetainedStreams ?? 64),
      diagnose: (code, message, detail) => diagnose(code, message, stateless ? undefined : sessionId, detail),
      onTerminate: (session, reason) => {
        if (sessions.get(session.id) === session) sessions.delete(session.id);
        if (session.idleTimer !== undefined) clock.cancel(session.idleTimer);
        session.idleTimer = undefined;
        // Reported, not thrown into whatever ended the session (a timer, a socket's close event).
        try {
          setup.onClose?.(reason);
        } catch (e) {
          diagnose("handler-error", `onClose threw: ${errorText(e)}`, stateless ? undefined : sessionId);
        }
        settled();
      },
      settled,
    };
  }

  /**
   * A session for an `initialize` POST (`body`, read to `maxBodyBytes`); not in the table
   * until the kernel accepts it. A stateless one is keyed by a number of the table's own
   * (no client names it) and its factory is told no session id, as for a modern request.
   */
  function newSession(req: HttpRequestView, body: Uint8Array, stateless = false): { session: HttpSession; setup: HttpSessionSetup } | Response {
    const id = freshId(stateless ? () => `stateless-${++statelessCount}` : generate, stateless ? "requests in progress" : "sessions");
    if (id instanceof Response) return id;
    const setup = options.createSession(contextOf(req, stateless ? "" : id, "legacy"));
    // The kernel is handed the decoded value and cannot measure it: the session's limits are
    // known only now, and are applied before there is a session to undo (as `serveModern` does).
    const refused = overSessionLimits(body, setup.options);
    if (refused !== undefined) {
      // The factory has run: the application hears that its session ends before it opened.
      const { maxMessageBytes = DEFAULT_LIMITS.maxBytes, maxDepth = DEFAULT_LIMITS.maxDepth } = setup.options;
      setup.onClose?.(`initialize exceeds the session's maxMessageBytes (${maxMessageBytes}) or maxDepth (${maxDepth}): the session was not opened`);
      return refused;
    }
    const session = new HttpSession(id, configFor(id, setup, stateless));
    const principal = principalOf(setup, req);
    if (typeof principal === "string") session.owner = { principal, of: setup.principalOf! };
    session.endpoint = new Endpoint(
      stateless ? statelessOptions(setup.options, typeof principal === "string") : setup.options,
      {
        send: (message, related) => session.route(message, related),
        onRequest: setup.onRequest,
        onNotification: setup.onNotification,
        onEvent: (e) => {
          if (e.type === "cancelled") session.cancelled(e.id);
          setup.onEvent?.(e);
        },
        onError: setup.onError,
        record: setup.record,
        onClose: (reason) => session.terminate(reason),
      },
      clock,
    );
    return { session, setup };
  }

  function freshId(generated: () => string = generate, what = "sessions"): string | Response {
    if (sessions.size + (cfg.others?.size ?? 0) >= maxSessions) return httpError(503, ErrorCode.InvalidRequest, `too many ${what} (maxSessions ${maxSessions})`, { headers: RETRY_SOON });
    const id = generated();
    if (typeof id !== "string" || !isVisibleAscii(id) || sessions.has(id) || cfg.others?.has(id) === true) {
      return httpError(500, ErrorCode.InternalError, "the session id generator produced an unusable id");
    }
    return id;
  }

  /** After `initialize` was fed: keep the session if the kernel accepted it; the headers that announce it. */
  function admit(session: HttpSession, setup: HttpSessionSetup): Record<string, string> | undefined {
    if (negotiatedVersion(session.endpoint.state) === undefined) {
      // The kernel refused initialize (its error is the body): there is no session.
      session.terminate("initialize failed");
      return undefined;
    }
    sessions.set(session.id, session);
    const stateless = session.stateless;
    // A stateless session ends with its POST's answer; the idle timer reclaims one whose
    // client left while it ran on (nothing can resume it, and no cancellation can reach it).
    touch(session);
    try {
      setup.onOpen?.(session.endpoint, stateless ? "" : session.id);
    } catch (e) {
      // The client gets a 500, never this session's id: the session goes now, not at its idle timeout.
      session.terminate("onOpen failed: the session was not opened");
      throw e;
    }
    return stateless ? {} : { [SESSION_ID_FIELD]: session.id };
  }

  function touch(session: HttpSession): void {
    session.lastActivity = clock.now();
    if (idleMs > 0 && session.idleTimer === undefined) arm(session, session.lastActivity + idleMs);
  }

  function arm(session: HttpSession, at: number): void {
    session.idleTimer = clock.schedule(at, () => {
      session.idleTimer = undefined;
      const now = clock.now();
      const due = session.lastActivity + idleMs;
      // An open connection (an SSE stream, or a POST awaiting its JSON answer) is a client that is still there.
      if (session.liveConnections > 0) arm(session, now + idleMs);
      else if (now < due) arm(session, due);
      else session.terminate(`session idle timeout (no request or open stream for sessionIdleMs ${idleMs} ms)`);
    });
  }

  /**
   * The session a request names: 400 without the header, 404 when unknown, ended, or bound
   * to another principal (the same answer, so another user's session cannot be told from
   * a missing one), 400 for a bad protocol version.
   */
  function sessionOf(req: HttpRequestView): HttpSession | Response {
    const sid = req.header(H.sessionId);
    if (sid === null) return httpError(400, ErrorCode.InvalidRequest, `the ${H.sessionId} header is required`);
    const session = sessions.get(sid);
    const owner = session?.owner;
    if (session === undefined || (owner !== undefined && owner.of(req.headRequest()) !== owner.principal)) return httpError(404, ErrorCode.InvalidRequest, "session not found");
    const bad = versionError(session, req.header(H.protocolVersion));
    if (bad !== undefined) return bad;
    touch(session);
    return session;
  }

  function versionError(session: HttpSession, header: string | null): Response | undefined {
    const negotiated = negotiatedVersion(session.endpoint.state);
    if (header === null) {
      // Versions before 2025-06-18 had no header; for the others the spec's 2025-03-26 default does not fit.
      if (!strictVersion || negotiated === "2025-03-26" || negotiated === "2024-11-05") return undefined;
      return httpError(400, ErrorCode.InvalidRequest, `the ${H.protocolVersion} header is required (this session speaks ${negotiated})`);
    }
    const claimed = header.trim();
    if (isLegacyVersion(claimed) && claimed === negotiated) return undefined;
    return httpError(400, ErrorCode.InvalidRequest, `unsupported ${H.protocolVersion}; this session speaks ${negotiated}`, { data: { supported: [negotiated] } });
  }

  return { sessions, newSession, admit, sessionOf, freshId: (generated) => freshId(generated) };
}

/**
 * The kernel options of a stateless handler's session: its capabilities without what
 * needs a session to deliver (2025-11-25 `server/*`: `listChanged` and
 * `resources.subscribe` promise notifications, which would travel on a GET stream this
 * server has none of) and, for a request with no principal (`identified` false), without
 * `tasks.list` (`basic/utilities/tasks`, Security: "receivers that cannot identify
 * requestors SHOULD NOT declare the `tasks.list` capability"); no keep-alive pings (no
 * stream of the session's carries them, and no answer could come back).
 */
function statelessOptions(options: SessionOptions, identified: boolean): SessionOptions {
  const caps = { ...options.capabilities } as Record<string, unknown>;
  for (const key of ["tools", "resources", "prompts"]) {
    const c = caps[key];
    if (c === null || typeof c !== "object") continue;
    const { listChanged: _l, subscribe: _s, ...rest } = c as Record<string, unknown>;
    caps[key] = rest;
  }
  const tasks = caps.tasks;
  if (!identified && tasks !== null && typeof tasks === "object") {
    const { list: _list, ...rest } = tasks as Record<string, unknown>;
    caps.tasks = rest;
  }
  return { ...options, capabilities: caps as JsonObject, keepAliveMs: 0 };
}

/**
 * Who the request opening a session speaks for (`setup.principalOf`); one that throws, or
 * names no string (nor undefined), closes the session the factory made, then is rethrown.
 */
export function principalOf(setup: HttpSessionSetup, req: HttpRequestView): string | undefined {
  try {
    return checkedPrincipal(setup.principalOf?.(req.toRequest()));
  } catch (e) {
    // The factory has run: the application hears that its session ends before it opened.
    setup.onClose?.("principalOf failed: the session was not opened");
    throw e;
  }
}

/**
 * The factory's context; the `Request` is made only if the application reads it (and stays
 * writable to it). A class rather than a literal with `get`/`set`: such a literal is built
 * by the runtime with two closures, and one is made for every modern request.
 */
class FactoryContext implements HttpSessionContext {
  readonly #view: HttpRequestView;
  #request: Request | undefined;

  constructor(
    view: HttpRequestView,
    readonly sessionId: string,
    readonly era: "legacy" | "modern",
  ) {
    this.#view = view;
  }

  get request(): Request {
    return (this.#request ??= this.#view.toRequest());
  }

  set request(value: Request) {
    this.#request = value;
  }
}

/** The session factory's context for `req` (see {@link FactoryContext}). */
export function contextOf(req: HttpRequestView, sessionId: string, era: "legacy" | "modern"): HttpSessionContext {
  return new FactoryContext(req, sessionId, era);
}

/**
 * A `principalOf` answer: a string, or undefined for no one. Anything else (a numeric user
 * id, an object) is refused rather than leaving the session bound to nobody, which would
 * share it, its tasks and its requestState with every user.
 */
export function checkedPrincipal(principal: unknown): string | undefined {
  if (principal === undefined || typeof principal === "string") return principal;
  throw new TypeError(`principalOf must return a string or undefined, not ${principal === null ? "null" : typeof principal}`);
}
