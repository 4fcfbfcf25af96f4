/**
 * How a legacy (2025-era) POST is answered once its body has passed the handler's checks:
 * its messages are fed to the session's kernel, and the answer is 202, an SSE stream, or
 * one JSON body.
 *
 * Spec: 2025-11-25 `basic/transports` ("Sending Messages to the Server", items 4-6), the
 * same page of 2025-03-26 (batches, and JSON-RPC 2.0 §6 for their invalid members);
 * 2025-11-25 `basic/utilities/tasks` (`tasks/get` is a poll, answered without SSE); the
 * draft's `basic/versioning` for an `initialize` a modern-only server refuses.
 *
 * Theory of operation. An *exchange* (server-session.ts) is the POST that carried a set
 * of requests, and where their responses go. {@link exchange} opens one (a stream, or a
 * JSON exchange in JSON mode, for `initialize` and for `tasks/get`), connects it before the
 * kernel sees the body, and feeds the body; a POST of notifications and responses alone
 * gets 202. An `initialize` is fed to a session not yet in the table: once the kernel has
 * answered it, the table's `admit` (`session-table.ts`) keeps the session or not, and the
 * answer gets the `MCP-Session-Id` header or a refused `initialize`'s status.
 * {@link partlyInvalid} answers a 2025-03-26 batch with invalid members, member by member.
 * The handler's options reach these functions as an {@link ExchangeContext}.
 */
import { decodeUtf8 } from "../../jsonrpc/safe-json.js";
import { encode, type Decoded } from "../../jsonrpc/codec.js";
import { ErrorCode } from "../../jsonrpc/errors.js";
import type { RequestId } from "../../jsonrpc/types.js";
import { lostAnswer } from "../../session/receive.js";
import type { HttpSessionSetup } from "../http-server.js";
import { carrierOf, emptyReply, jsonReply, sseReply, withHeaders, type HttpReply, type HttpRequestView } from "../http-view.js";
import { httpError, jsonResponse } from "./body.js";
import type { Exchange, HttpSession, JsonExchange } from "./server-session.js";

/** What answering an exchange needs of the handler. */
export interface ExchangeContext {
  /** `enableJsonResponse`: answer requests with one JSON body instead of an SSE stream. */
  readonly jsonMode: boolean;
  /** The session table's `admit` (`session-table.ts`). */
  admit(session: HttpSession, setup: HttpSessionSetup): Record<string, string> | undefined;
  /** Reports an application hook that threw while a POST carrying requests was fed (the handler's `handler-error` diagnostic). */
  hookFailed(error: unknown): void;
}

/**
 * A 2025-03-26 batch with invalid members, answered as the kernel answers it on stdio
 * (JSON-RPC 2.0 §6, which the 2025-03-26 schema's `JSONRPCBatchRequest` links: an invalid
 * member gets an error of its own and the valid members are still processed). The valid
 * members run. An invalid request or notification gets the codec's error (its id when
 * readable, else null) beside the valid requests' responses: in the JSON array, or as an
 * event of the POST's stream. A malformed response gets no reply there and fails the
 * request of ours it names at once (as a lone one does, in the handler's `post`). Only the valid members go
 * to the kernel as the POST's body (its error with id null would answer the whole POST,
 * server-session.ts); the malformed responses go one by one through `refused`, after
 * them, as the kernel reads a batch in order. A batch without a valid request has no
 * answer to carry the errors: it gets 400, as a lone invalid message does, its body the
 * array of every invalid member's error (README, JSON-RPC codec row).
 */
export function partlyInvalid(cx: ExchangeContext, session: HttpSession, req: HttpRequestView, items: Decoded[], invalid: number[], ids: RequestId[], messages: unknown[], bytes: Uint8Array): Response | HttpReply | Promise<Response | HttpReply> {
  const bad = invalid.map((i) => items[i] as Extract<Decoded, { kind: "invalid" }>);
  // A member with an id and neither a method nor an answer, naming a request of ours in
  // flight, is that request's malformed answer, as the kernel takes it on stdio: no reply
  // (the client would read a -32600 of that id as the answer to its own request), and ours
  // fails now. Decided before the valid members are fed, as the kernel reads in order.
  const state = session.endpoint.state;
  const answers = bad.map((each) => each.answers != null || lostAnswer(state, each));
  let answer: Response | HttpReply | Promise<Response | HttpReply>;
  if (ids.length > 0) answer = exchange(cx, session, req, ids, messages, true, undefined, bad.filter((each, j) => each.answers === undefined && !answers[j]).map((each) => encode(each.reply)));
  else {
    if (messages.length > 0) session.receive(null, messages, carrierOf(req));
    answer = jsonResponse(400, encode(bad.map((each) => each.reply)));
  }
  // The decoded batch keeps no invalid member's value: the body, read once already, is parsed again for them.
  if (answers.includes(true)) {
    const members = JSON.parse(decodeUtf8(bytes)!) as unknown[];
    for (let j = 0; j < bad.length; j++) if (answers[j]) session.refused(members[invalid[j]]);
  }
  return answer;
}

/**
 * Feeds a POST body and answers it: 202 when it holds no request; else an SSE stream,
 * or one JSON body in JSON mode. `initialize` is always answered with JSON: the kernel
 * answers it at once, and whether a session exists (so whether `MCP-Session-Id` is
 * sent) is known only after that answer. So is `tasks/get` (a poll, see below).
 * `errors`: the handler's own answers to invalid members of a batch, put first.
 */
export function exchange(cx: ExchangeContext, session: HttpSession, req: HttpRequestView, ids: RequestId[], value: unknown, batch: boolean, setup: HttpSessionSetup | undefined, errors: readonly string[] = []): Response | HttpReply | Promise<Response | HttpReply> {
  const carrier = carrierOf(req);
  if (ids.length === 0) {
    session.receive(null, value, carrier);
    return ACCEPTED;
  }
  // 2025-11-25 tasks: "Where possible, servers SHOULD NOT upgrade to an SSE stream in
  // response to a tasks/get request, as the client has indicated it wishes to poll": the
  // task table answers it at once, so one JSON body always serves it.
  const poll = !batch && (value as { method?: unknown }).method === "tasks/get";
  if (cx.jsonMode || setup !== undefined || poll) {
    let e!: JsonExchange;
    const answer = new Promise<Response | HttpReply>((resolve) => {
      e = session.openJsonExchange(ids, batch, (x) => resolve(jsonBody(session, x)));
    });
    for (const text of errors) session.answer(e, text);
    feed(cx, session, e, value, carrier);
    // A client waiting on its JSON answer keeps the session from idle expiry; one that went
    // away (as far as the runtime reports it) does not, so its session can be reclaimed.
    if (!e.done) req.onAbort(() => session.clientLeft(e));
    if (setup === undefined) return answer;
    const headers = cx.admit(session, setup);
    return headers === undefined ? answer.then(refusedInitialize) : answer.then((r) => withHeaders(r, headers));
  }
  const s = session.openPostStream(ids);
  // Connected before the kernel sees the body: what it answers at once is written, not
  // queued where the bounded replay log could evict it before any connection carried it.
  const conn = session.connectPost(s);
  for (const text of errors) session.answer(s, text);
  feed(cx, session, s, value, carrier);
  return sseReply(conn);
}

/**
 * Feeds a POST that carries requests to its exchange. An application hook that throws
 * meanwhile (the `onNotification` or `onEvent` of another member of a 2025-03-26 batch)
 * does not stop the step (`Endpoint.feed`): the kernel has taken the requests, which run
 * and are answered on this exchange. So the POST gets its stream or JSON answer and the
 * error is reported, not answered 500: a 500 told the client its requests failed while
 * they ran on (a tool's effects happening unseen, a retry running it twice), their answers
 * written where no one read, and that unread stream kept the session from idling out.
 */
function feed(cx: ExchangeContext, session: HttpSession, e: Exchange, value: unknown, carrier: () => Request): void {
  try {
    session.receive(e, value, carrier);
  } catch (error) {
    cx.hookFailed(error);
  }
}

/** A POST of notifications and responses alone. */
export const ACCEPTED: HttpReply = /* @__PURE__ */ emptyReply(202);

/** The body of a finished JSON exchange: one response, or the batch's responses; 202 when every request was cancelled, 404 when the session ended. */
function jsonBody(session: HttpSession, e: JsonExchange): Response | HttpReply {
  // Every request was cancelled, so none gets a response; a POST of requests still MUST be
  // answered with one of the two content types (202 is for notifications and responses):
  // an SSE stream that carries nothing.
  if (e.responses.length === 0) return session.closed ? httpError(404, ErrorCode.InvalidRequest, "session terminated") : sseReply(null);
  return jsonReply(200, e.batch ? "[" + e.responses.join(",") + "]" : e.responses[0]);
}

/**
 * The answer to an `initialize` the kernel refused. A server with no legacy version
 * refuses it with -32022 naming its versions (draft `basic/versioning`: SHOULD), and
 * "For HTTP, the response status code MUST be 400" (draft schema,
 * `UnsupportedProtocolVersionError`; `streamable-http`: a version the server does not
 * implement "MUST respond with 400 Bad Request"). Other refusals keep their status.
 */
function refusedInitialize(r: Response | HttpReply): Response | HttpReply {
  if (r instanceof Response || typeof r.body !== "string") return r;
  const code = (JSON.parse(r.body) as { error?: { code?: unknown } }).error?.code;
  return code === ErrorCode.UnsupportedProtocolVersion ? { ...r, status: 400 } : r;
}

