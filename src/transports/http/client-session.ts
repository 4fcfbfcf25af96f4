/**
 * The 2025-era session of the HTTP client: the `MCP-Session-Id` it adopts, the new
 * session it starts after a 404, the end of an expired session's streams, and the gate
 * that holds the first requests until the standalone GET is answered. Functions of the
 * transport's {@link HttpClient} (`../http-client.ts`), which calls them.
 *
 * Spec: 2025-11-25 `basic/transports` ("Session Management" items 1-4, "Listening for
 * Messages from the Server", "Resumability and Redelivery"), the same page of 2025-06-18
 * and 2025-03-26.
 *
 * Theory of operation. The session id comes with the response that carries the
 * initialize result ({@link adoptSession}) and goes on every later request. A 404 to a
 * request that carried it means the session is gone, and the client MUST start a new
 * one: {@link renewSession} replays the kernel's `initialize` and
 * `notifications/initialized` while sends wait on the client's gate, gives the new
 * result to the `onSessionRenewed` listener and reopens the standalone GET; when that
 * fails the caller closes with a reason starting {@link SESSION_EXPIRED} ({@link
 * expired}), unless the server only could not be reached (see {@link Renewal}: the
 * renewal is put off to the next request, or the GET stream's next attempt). The old session's streams end with it ({@link endStreams}): their event ids
 * are that session's, so none is resumed under the new one, and the requests still
 * waiting on them fail at once ({@link lost}). After `notifications/initialized`,
 * {@link holdForGet} keeps the next requests until the server has answered the
 * standalone GET, {@link GET_WAIT_MS} at most.
 */
import { errorText } from "../error-text.js";
import { peekRequestId } from "../../jsonrpc/safe-json.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import type { HttpClient, StreamCtx } from "../http-client.js";
import { letGo } from "./body.js";
import { discard, parse } from "./client-body.js";
import { answer, track } from "./client-stream.js";
import { H, isVisibleAscii } from "./headers.js";

/** The start of the close reason when the server no longer knows the session (HTTP 404). */
export const SESSION_EXPIRED = "session expired";

/**
 * How long requests after the handshake wait for the server to answer the standalone GET
 * (see {@link holdForGet}) before going out anyway.
 */
export const GET_WAIT_MS = 1000;

/**
 * Session Management item 4 (2025-11-25 `basic/transports`): after a 404 for session
 * `old`, the client MUST start a new session with a new `initialize`. The one the
 * kernel sent is replayed, its answer is checked (same version), and
 * `notifications/initialized` follows. The answer is not delivered as a message (the
 * kernel's initialize was answered long ago) but to the `onSessionRenewed` listener,
 * before any request is sent again: the server may have restarted with other tools,
 * capabilities, and none of the old session's subscriptions or log level.
 * Sends wait meanwhile. Resolves to a {@link Renewal}: false when that fails for good
 * (the caller then closes), `"later"` when the server could not take it yet.
 */
export function renewSession(client: HttpClient, old: string): Promise<Renewal> {
  if (client.renewing !== undefined) return client.renewing;
  // Another request already renewed it.
  if (client.sessionId !== old) return Promise.resolve(client.sessionId !== undefined);
  const renewing = (client.renewing = reinitialize(client, old).finally(() => (client.renewing = undefined)));
  const gate = (client.gate = renewing.then(() => {
    if (client.gate === gate) client.gate = undefined;
  }));
  return renewing;
}

/**
 * How a renewal ended: renewed (true), failed for good (false: the caller closes), or not
 * now (`"later"`: the server could not be reached, or answered 5xx or 429, as a server
 * restarting or an instance draining behind a load balancer does). A renewal put off
 * keeps the old session id: the next request (or the GET stream's next attempt) meets its
 * 404 and renews then; only the request that met the 404 fails, with {@link notYet}.
 */
export type Renewal = boolean | "later";

/** The error of the request that met a 404 whose renewal was put off. */
export function notYet(client: HttpClient, sid: string): string {
  return `${SESSION_EXPIRED}: the server answered 404 for session ${sid}, and a new session could not be started yet (${client.renewFailure}): the next request tries again`;
}

/** The close reason after a 404 for session `sid`, with why no new session could be started, when one was tried. */
export function expired(client: HttpClient, sid: string): string {
  const why = client.renewFailure === undefined ? "" : `; a new session could not be started: ${client.renewFailure}`;
  return `${SESSION_EXPIRED}: the server answered 404 for session ${sid}${why}`;
}

async function reinitialize(client: HttpClient, old: string): Promise<Renewal> {
  const init = client.initText;
  const done = client.initializedText;
  if (init === undefined || done === undefined || client.closed) return false;
  endStreams(client, old);
  client.sessionId = undefined;
  // A session the server opened for a renewal that then failed is not needed: it is ended.
  const abandon = (why: string): false => {
    client.renewFailure = why;
    // A close() during the renewal DELETEd the session already.
    if (!client.closed) client.deleteSession();
    client.sessionId = undefined;
    return false;
  };
  // Not the server's verdict on a new session: the old one stays named, so the next request
  // meets its 404 and tries again.
  const putOff = (why: string): "later" => {
    if (client.sessionId !== undefined && !client.closed) client.deleteSession();
    client.renewFailure = why;
    client.sessionId = old;
    return "later";
  };
  const transient = (status: number): boolean => status >= 500 || status === 429;
  let result: JsonObject | undefined;
  try {
    const headers = client.headersFor(init, true);
    delete headers[H.protocolVersion];
    let res: Response;
    try {
      res = await client.request({ method: "POST", headers, body: init });
    } catch (e) {
      return putOff(`initialize: ${errorText(e)}`);
    }
    if (transient(res.status)) return (discard(res), putOff(`initialize: HTTP ${res.status}`));
    adoptSession(client, res);
    // The answer is read as the first connect's is (client-stream.ts): messages before it
    // go to the kernel (a server may log or ping during initialization: basic/lifecycle),
    // and a stream closed before it (a SEP-1699 polling close after the priming event) is
    // resumed with Last-Event-ID. Only the response is taken here ({@link StreamCtx.renewal}).
    let reply: { result?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
    let local = false;
    if (res.ok) {
      const ctx: StreamCtx = { kind: "post", pending: new Set(), ids: new Map(), lastEventId: "", retryMs: undefined, session: client.sessionId };
      const id = peekRequestId(init);
      if (id !== null) track(ctx, id);
      ctx.renewal = (text, mine) => {
        reply = parse(text) as typeof reply;
        local = mine;
      };
      await answer(client, ctx, res);
    } else discard(res);
    const r = reply?.result;
    if (typeof r !== "object" || r === null) {
      const e = reply?.error;
      // The transport's own verdict (a body not UTF-8, a stream given up) says what it is; the server's error keeps its code.
      const refused = e === undefined ? `HTTP ${res.status}` : local ? `HTTP ${res.status}: ${String(e.message)}` : `${String(e.code)} ${String(e.message)}`;
      return abandon(`initialize was not answered with a result (${refused})`);
    }
    result = r as JsonObject;
    if (result.protocolVersion !== client.protocolVersion) return abandon(`the new session's protocol version is ${JSON.stringify(result.protocolVersion)}, not this session's ${client.protocolVersion}`);
    if (client.sessionId === undefined) return abandon("the server gave the new session no MCP-Session-Id");
    let n: Response;
    try {
      n = await client.request({ method: "POST", headers: client.headersFor(done, true), body: done });
    } catch (e) {
      return putOff(`notifications/initialized: ${errorText(e)}`);
    }
    discard(n);
    if (transient(n.status)) return putOff(`notifications/initialized: HTTP ${n.status}`);
    if (!n.ok) return abandon(`notifications/initialized was refused with HTTP ${n.status}`);
  } catch (e) {
    return abandon(errorText(e));
  }
  client.renewFailure = undefined;
  if (client.getStarted) {
    client.getStarted = false;
    client.startGet();
  }
  try {
    client.renewListener?.(result);
  } catch (e) {
    client.report(`the onSessionRenewed listener failed: ${errorText(e)}`);
  }
  // The listener may have closed the transport (a kernel that cannot use the new session): nothing is sent again.
  return !client.closed;
}

/** Takes the `MCP-Session-Id` of `res`, when it has a usable one. */
export function adoptSession(client: HttpClient, res: Response): void {
  const sid = res.headers.get(H.sessionId);
  if (sid === null) return;
  if (isVisibleAscii(sid)) client.sessionId = sid;
  else client.report("ignored an MCP-Session-Id that is not visible ASCII");
}

/**
 * Session `old` is gone (a 404): its streams end with it, and none is resumed under the
 * next session. Their event ids are the old session's, and the new one numbers its
 * streams afresh: a resumption would replay another stream of the new session (2025-11-25
 * `basic/transports`, Resumability: the client resumes with the last event id it
 * received on that stream; the server MUST NOT replay messages of a different stream).
 * The old GET stream stops (the renewal opens the new session's own); the requests of a
 * POST stream were lost with the session and fail now, not at their timeout.
 */
export function endStreams(client: HttpClient, old: string): void {
  for (const ctx of client.followed) {
    if (ctx.session !== old) continue;
    letGo(ctx.reader);
    lost(client, ctx);
  }
}

/** A stream whose session ended: its unanswered requests fail with the session-expired error. */
export function lost(client: HttpClient, ctx: StreamCtx): void {
  if (ctx.kind === "post" && ctx.pending.size > 0) client.failed(ctx, `${SESSION_EXPIRED}: the request was lost with session ${ctx.session}`);
}

/**
 * Holds the requests sent after `notifications/initialized` until the server has
 * answered the standalone GET that follows it (or refused it, or {@link GET_WAIT_MS}
 * passed): otherwise the first request races the GET, and a server may put the
 * request's messages, its response even, on a GET stream it sees open only afterwards,
 * or take the late GET for a reconnection. The session's first requests wait one GET
 * round trip at most; later ones not at all.
 */
export function holdForGet(client: HttpClient): void {
  const bound = new AbortController();
  const opened = new Promise<void>((resolve) => (client.getOpened = resolve));
  const release = (): void => {
    bound.abort();
    client.getOpened = undefined;
    if (client.gate === gate) client.gate = undefined;
  };
  // An injected sleep that rejects opens the gate as well: the held sends go out.
  const gate: Promise<void> = Promise.race([opened, client.sleep(GET_WAIT_MS, bound.signal)]).then(release, release);
  client.gate = gate;
}

/**
 * Why a session cannot go on whose initialize answer carried no `MCP-Session-Id` the client
 * could read, while the server refuses the next request (400) as it lacks one: the client
 * MUST send the id on every later request (2025-11-25 `basic/transports`, Session
 * Management), so each would fail and the server's session is left behind. A server on
 * another origin that does not expose the header looks like this: fetch hides it.
 * `refusal` is the 400's own error message, if it had one.
 */
export function unreadSession(refusal: string | undefined): string {
  const said = refusal === undefined ? "" : ` ("${refusal}")`;
  return `the server answered notifications/initialized with HTTP 400${said} and its initialize answer had no MCP-Session-Id the client could read: the response was cross-origin, and a server on another origin must expose it with Access-Control-Expose-Headers: MCP-Session-Id`;
}
