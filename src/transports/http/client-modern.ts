/**
 * The modern (2026-07-28) path of the HTTP client: one POST per request, with the
 * request metadata headers and no session, re-issued under a new id when its stream
 * breaks. Functions of the transport's {@link HttpClient} (`../http-client.ts`), which
 * calls them, and the pure helpers they need.
 *
 * Spec: draft `basic/transports/streamable-http` ("Request Metadata", "Custom Headers
 * from Tool Parameters", Cancellation), `basic/patterns` (a lost stream's request is
 * re-issued), `basic/patterns/subscriptions`, `basic/index` (request ids).
 *
 * Theory of operation. A message whose `_meta` names its protocol version is modern: it
 * goes without session id, with the request metadata headers built from its body
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and
 * `Mcp-Param-*` for the `x-mcp-header` arguments the last modern `tools/list` declared;
 * a tool with invalid declarations is removed from that result). Each modern request has
 * its own fetch: the kernel's `notifications/cancelled` for it is not POSTed but aborts
 * that fetch, closing its stream, which is the cancellation on HTTP. A modern stream
 * that breaks before its response (a network error, or the stream ending without it)
 * cannot be resumed: the draft has no `Last-Event-ID` ("Resumable SSE streams via
 * Last-Event-ID are not supported"), and its stream state is "scoped to the request: if
 * the underlying channel is lost, the client re-issues the request" (`basic/patterns`).
 * The transport re-issues it, after the backoff, under a new id of its own (`basic/index`:
 * an id MUST NOT match any other request the sender issued; the kernel's ids are numbers,
 * these are strings), at most `maxReissues` times, and maps the answer back to the
 * kernel's id, so the caller sees one result. A `tools/call` is re-issued only for a tool
 * the last modern `tools/list` pages annotated `readOnlyHint` or `idempotentHint`: the
 * server takes the broken stream for a cancellation (`streamable-http`, Cancellation) but
 * may have run the tool already (created a task even) with only the answer lost, and
 * running any other tool twice may repeat its effect; such a call gets the -32000 error.
 * A progress notification of the new attempt that does not go past what was already
 * delivered is dropped (progress MUST increase, so it can only be a repeat). Other
 * notifications cannot be told apart from new ones and are delivered.
 * A request the server refuses with 503 and a JSON-RPC error body (closing, or full) is
 * sent again as it is, after the backoff, within the same `maxReissues`: none of it ran.
 * `subscriptions/listen` is not re-issued: its subscription id is its request
 * id and what changed while it was down is lost, so its owner gets the -32000 error and
 * re-subscribes (`basic/patterns/subscriptions`: a drop "MAY" trigger a reconnect).
 * Era detection is the kernel's: its `server/discover` probe is a modern
 * request, and a 4xx whose body is not a modern JSON-RPC error reaches it with another
 * code (an id-less JSON-RPC error body keeps its own, any other body is -32603), so it
 * falls back to `initialize`.
 */
import { errorText } from "../error-text.js";
import { DEFAULT_LIMITS, malformedResponseAnswer } from "../../jsonrpc/codec.js";
import { ErrorCode } from "../../jsonrpc/errors.js";
import { checkNesting } from "../../jsonrpc/safe-json.js";
import type { JsonObject, RequestId } from "../../jsonrpc/types.js";
import { MetaKey } from "../../model/meta.js";
import type { HttpClient, ModernCtx, StreamCtx } from "../http-client.js";
import { discard, isRefusal, parse } from "./client-body.js";
import { answer, bodiless, delay, LISTEN, track } from "./client-stream.js";
import { H, JSON_TYPE, mediaTypeOf } from "./headers.js";
import { modernRequestHeaders, paramHeadersOf, unmirrorable } from "./request-metadata.js";

/**
 * `MetaKey.protocolVersion` quoted, whose presence marks a modern message. Spelled out: a
 * top-level property read is a statement a bundler keeps, in every consumer's bundle.
 * Exported for the test that ties it to `MetaKey.protocolVersion`.
 * @internal
 */
export const META_VERSION = '"io.modelcontextprotocol/protocolVersion"';

/** The start of the ids re-issued modern requests carry: strings, never equal to the kernel's numeric ids. */
export const REISSUE_ID_PREFIX = "mcp-kernel-reissue-";

/** A modern request or notification, as far as its headers need it. */
export interface ModernMessage {
  id?: RequestId;
  method: string;
  params?: JsonObject;
  version: string;
}

/** The message in `text` when it is a single request or notification carrying `_meta` protocolVersion. */
export function modernMessage(text: string): ModernMessage | undefined {
  const m = parse(text) as { id?: unknown; method?: unknown; params?: { _meta?: Record<string, unknown> } } | undefined;
  if (m === null || typeof m !== "object" || Array.isArray(m) || typeof m.method !== "string") return undefined;
  const version = m.params?._meta?.[MetaKey.protocolVersion];
  if (typeof version !== "string") return undefined;
  const out: ModernMessage = { method: m.method, params: m.params as JsonObject, version };
  if (typeof m.id === "string" || typeof m.id === "number") out.id = m.id;
  return out;
}

/**
 * A modern request or notification: no session, its own headers (draft
 * `streamable-http`, "Request Metadata"), and its own fetch, aborted to cancel it.
 */
export async function postModern(client: HttpClient, text: string, message: ModernMessage, ctx: StreamCtx): Promise<void> {
  const modern: ModernCtx = (ctx.modern = { version: message.version, method: message.method, abort: client.controllers.take(), cancelled: false, id: message.id });
  await sendModern(client, text, message, ctx, modern);
  // Over: its fetch and body are done with (an SSE stream read to its end or let go).
  client.controllers.release(modern);
}

async function sendModern(client: HttpClient, text: string, message: ModernMessage, ctx: StreamCtx, modern: ModernCtx): Promise<void> {
  if (message.id !== undefined) {
    track(ctx, message.id);
    // post() removes it when this request is done.
    client.inflight.set(JSON.stringify(message.id), ctx);
  }
  const tool = message.method === "tools/call" && typeof message.params?.name === "string" ? message.params.name : undefined;
  const declared = tool === undefined ? undefined : client.paramHeaders.get(tool);
  const refused = unmirrorable(message, declared);
  if (refused !== null) return client.failed(ctx, refused, ErrorCode.InvalidParams);
  const headers = client.headersFor(text, true, modernRequestHeaders(message, declared));
  let body = text;
  for (let attempt = 0; ; attempt++) {
    const broke = await attemptModern(client, ctx, headers, body, message.id !== undefined && attempt < client.maxReissues);
    if (broke === undefined || client.closed || modern.cancelled) return;
    if (broke === UNSERVED) {
      // Nothing of it ran: any request may go again, as it is (the server never took its id).
      client.report(`sending ${message.method} ${JSON.stringify(message.id)} again: the server answered 503`);
      await client.sleep(delay(client, ctx, attempt), modern.abort.signal);
      if (client.closed || modern.cancelled) return;
      continue;
    }
    if (message.id === undefined || message.method === LISTEN || attempt >= client.maxReissues) return client.failed(ctx, broke);
    // The lost attempt may have run (created a task even): only a call the tool's hints say is safe to repeat runs again.
    if (message.method === "tools/call" && !(tool !== undefined && client.repeatable.has(tool))) return client.failed(ctx, broke);
    client.report(`re-issuing ${message.method} ${JSON.stringify(message.id)} under a new id: ${broke}`);
    // What is left of the broken attempt is closed, which the server takes as its cancellation.
    modern.abort.abort("re-issued");
    modern.abort = new AbortController();
    // Cancelling the request or closing the transport aborts this controller, ending the wait.
    await client.sleep(delay(client, ctx, attempt), modern.abort.signal);
    if (client.closed || modern.cancelled) return;
    modern.wireId = `${REISSUE_ID_PREFIX}${++client.reissues}`;
    body = withId(text, modern.wireId);
  }
}

/** What {@link attemptModern} resolves to for a 503 it may send again. */
const UNSERVED = Symbol("unserved");

/**
 * One POST of a modern message. Resolves to why the request's response was lost to a
 * broken connection (the caller may re-issue it), to {@link UNSERVED} for a server's 503
 * with a JSON body when `mayRetry` (RFC 9110 §15.6.4: the server is unable to handle the
 * request now; its own refusal says none of it ran, and behind a load balancer another
 * instance may take it), or undefined when it was answered (or answered here with an
 * error, or cancelled).
 */
async function attemptModern(client: HttpClient, ctx: StreamCtx, headers: Record<string, string>, body: string, mayRetry: boolean): Promise<string | typeof UNSERVED | void> {
  const modern = ctx.modern!;
  let res: Response;
  try {
    res = await client.fetch(client.url, { method: "POST", headers, body, signal: modern.abort.signal });
  } catch (e) {
    if (ctx.pending.size > 0 && !isRefusal(e)) return `POST failed: ${errorText(e)}`;
    return void client.fetchFailed(ctx, e);
  }
  if (client.closed || modern.cancelled) return void discard(res);
  // The era probe reads nothing and changes nothing, so any 5xx (a gateway's 502, say) is
  // worth asking again: taken for the answer, it would make the server a legacy one for the
  // client's lifetime (draft versioning: a legacy server answers 4xx).
  if (res.status >= 500 && mayRetry && modern.method === "server/discover") return (discard(res), UNSERVED);
  if (res.status === 503 && mayRetry) {
    // An MCP server's own refusal is a JSON-RPC error: none of the request ran. A proxy's
    // 503 (text) may come after its upstream took the request: a lost answer, re-issued
    // only where a broken stream's would be.
    const own = mediaTypeOf(res.headers.get(H.contentType)) === JSON_TYPE;
    discard(res);
    return own ? UNSERVED : "the server answered HTTP 503";
  }
  if (res.status === 202 || res.status === 204) {
    discard(res);
    return bodiless(client, ctx, res.status);
  }
  return answer(client, ctx, res);
}

/**
 * `x-mcp-header` (draft `streamable-http`, "Custom Headers from Tool Parameters"): a
 * modern `tools/list` result teaches the client which arguments of each tool it mirrors
 * into `Mcp-Param-*` headers, and a tool whose declarations break the rules MUST be
 * excluded from the result (with a warning through `onError`).
 */
export function screenTools(client: HttpClient, text: string): string {
  const m = parse(text) as { result?: { tools?: unknown } } | undefined;
  const tools = m?.result?.tools;
  if (!Array.isArray(tools)) return text;
  // A result deeper than the codec's depth is the kernel's to refuse (-32603, malformed
  // response): scanned here, a server's schema nested thousands deep overflowed the stack,
  // which read as a broken stream and had the request re-issued. (As for a request body
  // without a session, the codec's 64 bounds this, even where a session allows more.)
  if (checkNesting(m, DEFAULT_LIMITS.maxDepth, Infinity) !== "ok") return text;
  const kept: unknown[] = [];
  for (const t of tools) {
    const name = (t as { name?: unknown } | null)?.name;
    const scan = paramHeadersOf((t as { inputSchema?: unknown } | null)?.inputSchema);
    if (!scan.ok) {
      client.report(`excluded tool ${JSON.stringify(name)} from tools/list: invalid x-mcp-header (${scan.reason})`);
      // What an earlier list taught of it is stale: headers come from the latest inputSchema.
      if (typeof name === "string") {
        client.paramHeaders.delete(name);
        client.repeatable.delete(name);
      }
      continue;
    }
    if (typeof name === "string") {
      // Bounded, as the client's own per-tool table is: a server listing ever new names
      // (generated tools) makes the names learned longest ago forgotten (their calls are
      // then not re-issued, and a -32020 teaches their headers again), not an ever larger table.
      if (scan.headers.length > 0) learn(client.paramHeaders, name, () => client.paramHeaders.set(name, scan.headers));
      else client.paramHeaders.delete(name);
      const hints = (t as { annotations?: { readOnlyHint?: unknown; idempotentHint?: unknown } }).annotations;
      if (hints?.readOnlyHint === true || hints?.idempotentHint === true) learn(client.repeatable, name, () => client.repeatable.add(name));
      else client.repeatable.delete(name);
    }
    kept.push(t);
  }
  if (kept.length === tools.length) return text;
  m!.result!.tools = kept;
  return JSON.stringify(m);
}

/** Most tools whose `x-mcp-header` declarations or repeat-safety hints the transport keeps. */
export const MAX_LEARNED_TOOLS = 10_000;

/**
 * Runs `set` for `name` as the newest entry of `table`, forgetting the oldest when it is
 * full. A full table that took no new name left a removed tool's entry in for good and
 * every tool listed after it unlearned, for ever: the re-list after a -32020 could not
 * teach its headers, so the retry failed too.
 */
function learn(table: { size: number; delete(name: string): boolean; keys(): IterableIterator<string> }, name: string, set: () => void): void {
  if (!table.delete(name) && table.size >= MAX_LEARNED_TOOLS) table.delete(table.keys().next().value!);
  set();
}

/** `notifications/tools/list_changed` quoted: after it, no tool is taken as safe to run twice until a list says so again. */
export const TOOLS_CHANGED = '"notifications/tools/list_changed"';

/** `notifications/progress` quoted, to spot a progress notification without parsing. */
export const PROGRESS = '"notifications/progress"';

/** `text` (a modern request) with its id replaced by `id`. */
export function withId(text: string, id: string): string {
  const m = JSON.parse(text) as { id?: unknown };
  m.id = id;
  return JSON.stringify(m);
}

/** The `progress` of a progress notification in `text`, or undefined. */
export function progressOf(text: string): number | undefined {
  const m = parse(text) as { method?: unknown; params?: { progress?: unknown } } | undefined;
  const p = m?.method === "notifications/progress" ? m.params?.progress : undefined;
  return typeof p === "number" ? p : undefined;
}

/** Remembers the highest progress delivered for `modern`, from a progress notification in `text`. */
export function noteProgress(text: string, modern: ModernCtx): void {
  const p = progressOf(text);
  if (p !== undefined && (modern.progress === undefined || p > modern.progress)) modern.progress = p;
}

/**
 * A message on a re-issued request's stream, as the kernel must see it: the response to
 * the new id carries the kernel's id again; a progress notification not past what was
 * delivered already is a repeat of the lost attempt's, and is dropped (undefined).
 */
export function restoreReissued(text: string, modern: ModernCtx): string | undefined {
  if (text.indexOf(PROGRESS) !== -1) {
    const p = progressOf(text);
    if (p !== undefined) return modern.progress !== undefined && p <= modern.progress ? undefined : text;
    // No progress notification: a response whose content merely quotes that method name
    // (a tool's text) still needs the kernel's id back, or its request never gets it.
  }
  if (text.indexOf(modern.wireId!) === -1) return text;
  const m = parse(text) as { id?: unknown; method?: unknown } | undefined;
  if (m === undefined || m === null || typeof m !== "object" || Array.isArray(m) || "method" in m || m.id !== modern.wireId) return text;
  m.id = modern.id;
  try {
    return JSON.stringify(m);
  } catch {
    // Nested thousands deep, past what JSON.stringify can walk (and any session's maxDepth):
    // the request fails as the kernel fails one whose answer is over its depth, under the id it knows.
    return JSON.stringify(malformedResponseAnswer(modern.id!, "message is nested too deep to read"));
  }
}
