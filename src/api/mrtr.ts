/**
 * Multi round-trip requests in the product API: one handler, both eras.
 *
 * Spec: draft `basic/patterns/mrtr` (InputRequiredResult, Server Requirements, Error
 * Handling, Security Considerations), SEP-2322 "Backward Compatibility", draft
 * `basic/versioning` (a dual-era server serves both eras).
 *
 * Theory of operation. A `tools/call`, `prompts/get` or `resources/read` handler may
 * answer {@link inputRequired}: it needs elicitation, sampling or roots first, and hands
 * back an opaque `requestState` to resume from. It then runs again with
 * `ctx.inputResponses` and `ctx.requestState`. What happens between the two runs depends
 * on the era of the request, and the handler never knows which:
 *
 * - Modern request (`_meta` names a protocol version): the answer goes to the client,
 *   which gathers the input and retries under a new id. The state passes through an
 *   untrusted client, so it leaves sealed and comes back verified: the handler's state is
 *   wrapped in an envelope naming the method, its target (tool or prompt name, resource
 *   URI), a digest of the request's params (the tool's arguments, say: draft mrtr, state
 *   SHOULD identify "the method name and a digest of its salient parameters", so state a
 *   user approved for one call is not accepted on a call with other arguments) and an
 *   expiry, and signed by the injected {@link RequestStateCodec}
 *   (`driver/request-state.ts` by default). A retry whose state fails verification, was
 *   issued for another request or has expired is refused with `-32602` before any
 *   handler runs; the session and every other request carry on.
 * - Legacy session (2025-11-25 and older, no MRTR on the wire): this module is the client.
 *   Each input request becomes a real server-to-client request on behalf of the call
 *   (only when the handshake declared the capability it needs, else `-32021` with the
 *   missing capabilities, the same answer a modern client gets), the answers become
 *   `inputResponses`, and the handler runs again with them and its state, unsealed
 *   because it never left the process, up to a bound of rounds. The original call is
 *   answered with the handler's complete result. A failed input request is left out, as
 *   a modern client may leave it out (the handler re-asks if it must); a round in which
 *   every input request failed ends the call with that error at once, since the handler
 *   would run on the same inputs again and ask the same (a client that declared
 *   elicitation in a version without it, a user who cannot answer). The requests go
 *   out with the call's signal, so cancelling the call cancels them; progress is the
 *   call's own and keeps flowing across rounds.
 *
 * Verification is async (WebCrypto), so it lives here and not in the pure kernel, which
 * still checks the rules of every modern `input_required` answer (`modern/server.ts`).
 */
import { systemClock, type Clock } from "../driver/clock.js";
import { McpError, type RequestContext } from "../driver/endpoint.js";
import { isThenable } from "../driver/listener.js";
import type { RequestStateCodec } from "../driver/request-state.js";
import { ErrorCode, thrownMessage } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { isModernVersion } from "../model/versions.js";
import { inputRequiredProblem } from "../modern/server.js";
import { canonicalJson } from "../session/transcript.js";
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, ListRootsResult, Meta } from "./types.js";

/** One request a handler needs the client to answer first (draft schema `InputRequest`). */
export type InputRequest =
  | { method: "elicitation/create"; params: ElicitParams }
  | { method: "sampling/createMessage"; params: CreateMessageParams }
  | { method: "roots/list"; params?: { _meta?: Meta } };

/** Input requests by server-assigned key, unique within the request (schema `InputRequests`). */
export type InputRequests = Record<string, InputRequest>;

/** One answer of the client to an {@link InputRequest} (schema `InputResponse`). */
export type InputResponse = CreateMessageResult | ListRootsResult | ElicitResult;

/**
 * The client's results by the keys of the {@link InputRequests} (schema `InputResponses`).
 * On receipt each is checked against the `InputResponse` union; the answers to
 * `ctx.elicit` / `ctx.sample` / `ctx.listRoots` also against the result schema of the
 * method asked (its state records it: `context.ts`). A handler that built its own
 * `input_required` narrows by what its key asked for, and checks what it reads:
 * `ctx.inputResponses?.user as ElicitResult | undefined`.
 */
export type InputResponses = Record<string, InputResponse>;

/** A handler's "not yet": what it needs, and the state to resume from (schema `InputRequiredResult`). */
export interface InputRequiredResult {
  resultType: "input_required";
  inputRequests?: InputRequests;
  /** Opaque to the client; sealed before it leaves and verified when it returns. */
  requestState?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

/** What a handler is given on a retry: the answers of the last round and its own state. */
export interface InputRetry {
  inputResponses?: InputResponses;
  requestState?: string;
}

/** An `input_required` answer. Give at least one of the two (the spec's MUST). */
export function inputRequired(inputRequests?: InputRequests, requestState?: string): InputRequiredResult {
  const result: InputRequiredResult = { resultType: "input_required" };
  if (inputRequests !== undefined) result.inputRequests = inputRequests;
  if (requestState !== undefined) result.requestState = requestState;
  return result;
}

/** Whether a handler's answer is `input_required`. */
export function isInputRequired(result: unknown): result is InputRequiredResult {
  return result !== null && typeof result === "object" && (result as JsonObject).resultType === "input_required";
}

/** The retry fields of request params, for the handler's context (undefined on a first attempt). */
export function inputRetryOf(params: JsonObject): InputRetry | undefined {
  const responses = params.inputResponses;
  const state = params.requestState;
  if (responses === undefined && state === undefined) return undefined;
  const retry: InputRetry = {};
  if (responses !== null && typeof responses === "object" && !Array.isArray(responses)) retry.inputResponses = responses as InputResponses;
  if (typeof state === "string") retry.requestState = state;
  return retry;
}

/** Runs the handler with the params it is given; a synchronous handler may answer synchronously. */
type Invoke = (params: JsonObject) => JsonObject | Promise<JsonObject>;

/** `next(value)` now for a value, after it for a promise: a synchronous answer stays synchronous. */
function after(value: JsonObject | Promise<JsonObject>, next: (result: JsonObject) => JsonObject | Promise<JsonObject>): JsonObject | Promise<JsonObject> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value);
}

/** Settings of an {@link InputRequiredBridge}. */
export interface InputBridgeOptions {
  /** Seals outgoing and verifies incoming `requestState`. */
  codec: RequestStateCodec;
  /** How long issued state stays valid, in ms; 0 for no expiry. */
  ttlMs: number;
  /** Wall-clock milliseconds, comparable across the instances that share a secret. */
  now(): number;
  /** Most rounds a legacy session's call runs before it fails. */
  maxRounds: number;
}

/** Default lifetime of issued `requestState`: long enough for a person to fill a form. */
export const DEFAULT_REQUEST_STATE_TTL_MS = 10 * 60_000;

/** Default bound of input rounds for one call in a legacy session (the client kernel's default too). */
export const DEFAULT_MAX_INPUT_ROUNDS = 8;

/** Why a returned `requestState` was refused (the `reason` in the `-32602` error's data). */
export type RequestStateRejection = "integrity" | "mismatch" | "expired" | "principal";

const REJECTION_MESSAGES: Record<RequestStateRejection, string> = {
  integrity: "Invalid params: requestState failed its integrity check",
  mismatch: "Invalid params: requestState was issued for a different request",
  expired: "Invalid params: requestState has expired",
  principal: "Invalid params: requestState was issued to a different principal",
};

/**
 * The envelope's version tag: a future layout gets a new one, and old tokens stop verifying.
 * 2 added the params digest; a version-1 token (bound to no arguments) is refused.
 */
const ENVELOPE_V2 = 2;

/** Runs the MRTR-capable methods for both eras (see the module comment). */
export class InputRequiredBridge {
  /** The verification of the latest retry (see {@link InputRequiredBridge.serveVerified}). */
  private verifying: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: InputBridgeOptions) {
    if (!(options.ttlMs >= 0) || !Number.isFinite(options.ttlMs)) throw new RangeError("requestStateTtlMs must be a finite number >= 0");
    if (!Number.isInteger(options.maxRounds) || options.maxRounds < 1) throw new RangeError("maxInputRounds must be a positive integer");
  }

  /**
   * Serves one request of `method` through `invoke`, which runs the handler with the
   * params it is given (retry fields included) and returns its answer.
   */
  serve(method: string, params: JsonObject, rc: RequestContext, invoke: Invoke, principal?: string): JsonObject | Promise<JsonObject> {
    // A synchronous answer that is no input_required (the usual one) is returned as it is,
    // before any continuation is made: two closures a call otherwise.
    if (isModernVersion(rc.protocolVersion)) {
      if (params.requestState !== undefined) return this.serveVerified(method, params, rc, invoke, principal);
      const value = invoke(params);
      if (!isThenable(value) && !isInputRequired(value)) return value;
      return after(value, (result) => (isInputRequired(result) ? this.seal(method, params, result, principal) : result));
    }
    // Legacy: the retry fields are not part of the era; only this bridge supplies them.
    const first = withoutRetry(params);
    const value = invoke(first);
    if (!isThenable(value) && !isInputRequired(value)) return value;
    return after(value, (result) => (isInputRequired(result) ? this.bridge(method, first, result, rc, invoke) : result));
  }

  /**
   * `params` as a request that continues as a task instead of through
   * {@link InputRequiredBridge.serve} may use them: a modern retry's `requestState` verified
   * and opened (rejects with the `-32602` of a tampered, mismatched or expired state), a
   * legacy request's retry fields dropped, as `serve` drops them (only the bridge supplies
   * them there). Either way the handler never reads a client's raw state as its own.
   */
  async opened(method: string, params: JsonObject, rc: RequestContext, principal?: string): Promise<JsonObject> {
    if (!isModernVersion(rc.protocolVersion)) return withoutRetry(params);
    if (params.requestState === undefined) return params;
    return { ...params, requestState: await this.open(method, params, rc, principal) };
  }

  private async serveVerified(method: string, params: JsonObject, rc: RequestContext, invoke: Invoke, principal: string | undefined): Promise<JsonObject> {
    // The expiry check reads the clock as the retry arrives, and the retries are verified in
    // turn, so their handlers start in the order they came: WebCrypto finishes in no set
    // order, and a recording's clock readings and random draws (replay hands them back in
    // order) must not depend on it. A new state's expiry is read when it is issued (`seal`).
    const now = this.options.now();
    const opened = this.verifying.then(() => this.open(method, params, rc, principal, now));
    this.verifying = opened.catch(() => undefined);
    const state = await opened;
    // Cancelled while its state was being checked: the handler never starts (basic/utilities/
    // cancellation: the receiver SHOULD stop processing), so a tool's effects do not happen
    // for a call its client gave up on.
    if (rc.signal.aborted) throw new McpError({ code: ErrorCode.RequestCancelled, message: "the request was cancelled while its requestState was being checked" });
    const result = await invoke({ ...params, requestState: state });
    return this.seal(method, params, result, principal);
  }

  /**
   * The handler's state inside a signed envelope bound to this request, an expiry and the
   * authenticated principal when there is one (draft mrtr: servers SHOULD include "the
   * authenticated principal, rejecting state presented by a different principal").
   */
  private async seal(method: string, params: JsonObject, result: JsonObject, principal: string | undefined): Promise<JsonObject> {
    if (!isInputRequired(result) || typeof result.requestState !== "string") return result;
    const { ttlMs } = this.options;
    // Before the first await (see serveVerified): the clock is read in the order the handlers answer.
    const expiresAt = ttlMs > 0 ? this.options.now() + ttlMs : 0;
    const fields = [ENVELOPE_V2, method, targetOf(method, params), await paramsDigest(this.options.codec, params), expiresAt, result.requestState];
    // Appended only when bound: state issued without a principal keeps the six-field layout.
    if (principal !== undefined) fields.push(principal);
    return { ...result, requestState: await this.options.codec.sign(JSON.stringify(fields)) };
  }

  /**
   * The handler's state from a returned token, or the `-32602` that refuses it; a refusal is
   * also a `request-state-refused` diagnostic for the server's operator, who alone can tell
   * a tampering client from instances without a shared secret (`integrity`) or clocks apart
   * (`expired`).
   */
  private async open(method: string, params: JsonObject, rc: RequestContext, principal: string | undefined, now = this.options.now()): Promise<string> {
    // `now` is read before the first await (see serveVerified).
    const token = params.requestState;
    let envelope: string | undefined;
    try {
      envelope = typeof token === "string" ? await this.options.codec.verify(token) : undefined;
    } catch {
      envelope = undefined; // a verifier that throws has not verified anything
    }
    const fields = envelope === undefined ? undefined : parseEnvelope(envelope);
    const refused = (reason: RequestStateRejection): McpError => {
      rc.diagnose?.("request-state-refused", `${method}: ${REJECTION_MESSAGES[reason]}`, { method, reason });
      return rejection(reason);
    };
    if (fields === undefined) throw refused("integrity");
    if (fields.method !== method || fields.target !== targetOf(method, params) || fields.params !== (await paramsDigest(this.options.codec, params))) throw refused("mismatch");
    if (fields.expiresAt !== 0 && now > fields.expiresAt) throw refused("expired");
    if (fields.principal !== principal) throw refused("principal");
    return fields.state;
  }

  /** Legacy session: answers the handler's input requests with real requests until it completes. */
  private async bridge(method: string, first: JsonObject, answer: JsonObject, rc: RequestContext, invoke: Invoke): Promise<JsonObject> {
    let result = answer;
    let lastFailure: string | undefined;
    for (let round = 1; isInputRequired(result); round++) {
      if (round > this.options.maxRounds) {
        const why = lastFailure === undefined ? "" : ` (last input request failure: ${lastFailure})`;
        throw new McpError({ code: ErrorCode.InternalError, message: `${method} still needed input after ${this.options.maxRounds} rounds${why}` });
      }
      const problem = inputRequiredProblem(true, method, result, rc.peer?.capabilities);
      if (problem !== null) throw new McpError(problem);
      const gathered = await gather(result.inputRequests ?? {}, rc);
      lastFailure = gathered.failure ?? lastFailure;
      // Nothing gathered: the handler would run on exactly what it ran on and ask again, round after round.
      if (gathered.failed !== undefined && Object.keys(gathered.responses).length === 0) throw inputFailure(method, gathered.failed, gathered.failure);
      const retry: JsonObject = { ...first, inputResponses: gathered.responses };
      if (typeof result.requestState === "string") retry.requestState = result.requestState;
      result = await invoke(retry);
    }
    // 2025-11-25 results have no resultType; a complete one is the plain result.
    if (result.resultType === "complete") {
      const { resultType: _, ...plain } = result;
      return plain;
    }
    return result;
  }
}

/** The call's error when none of a round's input requests could be answered: the request's own code where it has one. Shared with 2025-11-25 tasks (`api/tasks.ts`). */
export function inputFailure(method: string, error: unknown, failure: string | undefined): McpError {
  const code = error instanceof McpError ? error.code : ErrorCode.InternalError;
  return new McpError({ code, message: `${method} could not get the input it needs (${failure ?? "no answer"})` });
}

/** What {@link gather} brings back: the answers, and the last failure when an input request failed. */
export interface Gathered {
  responses: InputResponses;
  /** The last failure, as `method: message`. */
  failure?: string;
  /** What the last failed request rejected with. */
  failed?: unknown;
}

/**
 * Sends every input request to the client at once, on behalf of the call (`rc`), under
 * `signal` (default the call's); failed ones are left out (the last failure is reported).
 * Rejects (`-32800`) when `signal` aborts meanwhile. Shared with 2025-11-25 tasks, whose
 * input goes out on the requestor's `tasks/result` stream and stops with the task too.
 */
export async function gather(inputs: InputRequests, rc: RequestContext, signal = rc.signal): Promise<Gathered> {
  const keys = Object.keys(inputs);
  const settled = await Promise.allSettled(keys.map((key) => rc.request(inputs[key].method, inputs[key].params as JsonObject | undefined, { signal })));
  // Cancelled (or the connection closed): the call is over, the handler does not run again.
  if (signal.aborted) throw new McpError({ code: ErrorCode.RequestCancelled, message: "the request was cancelled while waiting for input" });
  const responses: InputResponses = {};
  let failure: string | undefined;
  let failed: unknown;
  settled.forEach((s, i) => {
    if (s.status === "fulfilled") Object.defineProperty(responses, keys[i], { value: s.value, enumerable: true, writable: true, configurable: true });
    else {
      failed = s.reason;
      failure = `${inputs[keys[i]].method}: ${thrownMessage(s.reason)}`;
    }
  });
  return failure === undefined ? { responses } : { responses, failure, failed };
}

/** What a state is bound to besides its method: the tool or prompt name, or the resource URI. */
function targetOf(method: string, params: JsonObject): string {
  const target = method === "resources/read" ? params.uri : params.name;
  return typeof target === "string" ? target : "";
}

/**
 * What a state is bound to of the request's params: all of them but the retry fields and
 * `_meta` (which carries the per-request protocol fields), as canonical JSON (sorted keys,
 * so a client that orders them differently on the retry still matches), through the
 * codec's `digest` (SHA-256 for the default codec) so the token stays small whatever the
 * arguments; a codec without one binds the canonical text itself.
 */
async function paramsDigest(codec: RequestStateCodec, params: JsonObject): Promise<string> {
  const { inputResponses: _r, requestState: _s, _meta: _m, ...salient } = params;
  const text = canonicalJson(salient);
  return codec.digest === undefined ? text : codec.digest(text);
}

function parseEnvelope(text: string): { method: string; target: string; params: string; expiresAt: number; state: string; principal?: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || (value.length !== 6 && value.length !== 7) || value[0] !== ENVELOPE_V2) return undefined;
  const [, method, target, params, expiresAt, state, principal] = value as unknown[];
  if (typeof method !== "string" || typeof target !== "string" || typeof params !== "string" || typeof expiresAt !== "number" || typeof state !== "string") return undefined;
  if (value.length === 7 && typeof principal !== "string") return undefined;
  const fields = { method, target, params, expiresAt, state };
  return principal === undefined ? fields : { ...fields, principal: principal as string };
}

function rejection(reason: RequestStateRejection): McpError {
  return new McpError({ code: ErrorCode.InvalidParams, message: REJECTION_MESSAGES[reason], data: { field: "requestState", reason } });
}

/** `params` without the MRTR retry fields (`inputResponses`, `requestState`). Shared with tasks (`api/tasks.ts`), whose later rounds carry their own. */
export function withoutRetry(params: JsonObject): JsonObject {
  if (!Object.hasOwn(params, "inputResponses") && !Object.hasOwn(params, "requestState")) return params;
  const { inputResponses: _r, requestState: _s, ...rest } = params;
  return rest;
}

/**
 * The wall clock of an McpServer and its task runtime: `wallClock` when given (a recorded
 * process's readings, replayed), else `Date.now()`, or the injected clock when one is given
 * (tests). The system clock counts from this process's start (monotonic), so an expiry it
 * stamped would mean nothing to another instance sharing the secret: given explicitly, it
 * is replaced by `Date.now()` too.
 */
export function wallClockOf(clock: Clock | undefined, wallClock?: () => number): () => number {
  if (wallClock !== undefined) return wallClock;
  return clock === undefined || clock === systemClock ? Date.now : () => clock.now();
}
