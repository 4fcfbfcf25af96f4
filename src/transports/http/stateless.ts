/**
 * A 2025-era POST on a stateless handler (`createHttpHandler({ stateless: true })`): no
 * sessions, each POST served by a kernel of its own, as serverless and edge deployments
 * need (any instance may get any request, and none keeps state between them).
 *
 * Spec: 2025-11-25 `basic/transports`, "Session Management" (a server MAY assign a session
 * ID: this one never does, so clients send none) and "Protocol Version Header" (a request
 * after initialization names the negotiated version; without the header the server SHOULD
 * assume 2025-03-26; an unsupported one is 400); item 2 of "Listening for Messages from
 * the Server" (a GET may be answered 405: the handler does so, there being no session to
 * listen to). 2025-11-25 `basic/lifecycle` has the client initialize first: its
 * `initialize` is answered as any server answers it, and its later requests arrive at a
 * kernel that never saw it.
 *
 * Theory of operation. {@link serveStateless} answers a POST the handler's checks passed.
 * One holding no request (`notifications/initialized`, say) is accepted and dropped: no
 * kernel is made for it. An `initialize` gets a session like a stateful handler's, which
 * `admit` announces with no `MCP-Session-Id` and which ends once it has answered. Any
 * other request gets a session whose kernel is first handed the handshake the client made
 * earlier, elsewhere ({@link handshake}): an `initialize` at the version the request's
 * `MCP-Protocol-Version` names, with no client capabilities, and `initialized`. Then the
 * POST is fed and answered as on a stateful handler (an SSE stream, or one JSON body),
 * except that its events carry no ids (nothing can resume them), and the session ends
 * when its requests are answered (`server-session.ts`), or, its client gone, once
 * `sessionIdleMs` passes with no stream of it open, as an idle session would. The client,
 * known with no capabilities, is sent no request of the server's: a stateless server
 * could not take the answer, which would come in another POST, so one the server makes
 * (a ping) fails at once. Notifications related to a request go on its SSE stream, the
 * rest are dropped (there is no GET stream), and the capabilities that promise them are
 * not declared (`session-table.ts`, `statelessOptions`). The handler's `maxSessions`
 * bounds the POSTs in progress, and a closing handler ends them as it ends sessions.
 */
import { ErrorCode } from "../../jsonrpc/errors.js";
import { encode, type Decoded } from "../../jsonrpc/codec.js";
import type { RequestId } from "../../jsonrpc/types.js";
import { isLegacyVersion } from "../../model/versions.js";
import { negotiatedVersion } from "../../session/session.js";
import type { HttpSessionSetup } from "../http-server.js";
import type { HttpReply, HttpRequestView } from "../http-view.js";
import { httpError, jsonResponse } from "./body.js";
import { ACCEPTED, exchange, partlyInvalid, type ExchangeContext } from "./legacy-exchange.js";
import type { HttpSession } from "./server-session.js";
import { H } from "./headers.js";

/** What serving a stateless POST needs of the handler. */
export interface StatelessContext {
  readonly exchanges: ExchangeContext;
  /** The session table's `newSession` (`session-table.ts`). */
  newSession(req: HttpRequestView, body: Uint8Array, stateless: true): { session: HttpSession; setup: HttpSessionSetup } | Response;
  diagnose(code: string, message: string, sessionId?: string, detail?: unknown): void;
}

/** A POST's decoded body, as the handler sorted it. */
export interface StatelessPost {
  readonly items: Decoded[];
  /** Indices of the invalid members of a 2025-03-26 batch. */
  readonly invalid: number[];
  readonly ids: RequestId[];
  readonly messages: unknown[];
  /** The message, or the batch's valid members. */
  readonly value: unknown;
  readonly batch: boolean;
  readonly initialize: boolean;
  readonly bytes: Uint8Array;
}

/** The client's protocol version for a stateless request: its header, or 2025-03-26 without one (2025-11-25 `basic/transports`: SHOULD assume). */
export function statelessVersion(req: HttpRequestView): string {
  return req.header(H.protocolVersion)?.trim() ?? "2025-03-26";
}

/** The client named in the handshake a stateless kernel is handed: the real one introduced itself to another. */
const UNKNOWN_CLIENT = { name: "unknown (stateless HTTP request)", version: "unknown" };

/** The id of that handshake's `initialize`: answered before the POST is fed, so any id of the client's is free again. */
const HANDSHAKE_ID = "stateless-initialize";

/** Serves one 2025-era POST without a session. See the module comment. */
export function serveStateless(cx: StatelessContext, req: HttpRequestView, post: StatelessPost): Response | HttpReply | Promise<Response | HttpReply> {
  const { items, invalid, ids, bytes } = post;
  if (ids.length === 0) {
    // No kernel is made to answer it, but its version header is still checked: a version
    // this package does not speak is 400 on a notification or response as on a request
    // (2025-11-25 basic/transports, Protocol Version Header: MUST).
    const version = statelessVersion(req);
    if (!isLegacyVersion(version)) return httpError(400, ErrorCode.InvalidRequest, `unsupported ${H.protocolVersion} ${JSON.stringify(version)}`);
    if (invalid.length > 0) return jsonResponse(400, encode(invalid.map((i) => (items[i] as Extract<Decoded, { kind: "invalid" }>).reply)));
    // A response answers a request this server never sent (it sends none); a notification
    // (`initialized`, a cancellation) has no request or session here to reach.
    if (post.messages.some((m) => !("method" in (m as object)))) cx.diagnose("response-unrouted", "a response POSTed to a stateless handler was dropped (it sends no requests)");
    return ACCEPTED;
  }
  // 2025-03-26 basic/lifecycle: "The initialize request MUST NOT be part of a JSON-RPC batch".
  if (post.initialize && post.batch) return httpError(400, ErrorCode.InvalidRequest, "initialize MUST NOT be part of a JSON-RPC batch");
  const created = cx.newSession(req, bytes, true);
  if (created instanceof Response) return created;
  const { session, setup } = created;
  if (post.initialize) return exchange(cx.exchanges, session, req, ids, post.value, false, setup);
  const version = statelessVersion(req);
  const refused = handshake(session, version);
  if (refused !== undefined) return refused;
  cx.exchanges.admit(session, setup);
  if (invalid.length > 0) return partlyInvalid(cx.exchanges, session, req, items, invalid, ids, post.messages, bytes);
  return exchange(cx.exchanges, session, req, ids, post.value, post.batch, undefined);
}

/**
 * Hands the kernel of `session` the handshake its client made with some other instance:
 * `initialize` at `version`, which it must accept as it is, then `initialized`. The
 * refusal when it does not (a version the server does not speak: 400, 2025-11-25
 * `basic/transports`, "Protocol Version Header"), after which the session is ended.
 */
function handshake(session: HttpSession, version: string): Response | undefined {
  if (isLegacyVersion(version)) {
    const e = session.openJsonExchange([HANDSHAKE_ID], false, () => {});
    session.receive(e, { jsonrpc: "2.0", id: HANDSHAKE_ID, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: UNKNOWN_CLIENT } });
    if (negotiatedVersion(session.endpoint.state) === version) {
      session.receive(null, { jsonrpc: "2.0", method: "notifications/initialized" });
      return undefined;
    }
  }
  session.terminate(`unsupported ${H.protocolVersion} ${JSON.stringify(version)}`);
  return httpError(400, ErrorCode.InvalidRequest, `unsupported ${H.protocolVersion} ${JSON.stringify(version)} (initialize again to negotiate one this server speaks)`);
}
