/**
 * Multi round-trip requests, client side: the input rounds of a modern call.
 *
 * Spec: draft `basic/patterns/mrtr` (InputRequiredResult, Client Requirements, Error
 * Handling); SEP-2663 for an input request treated as the standalone request it stands for.
 *
 * Theory of operation. A modern server that needs input first answers a request with
 * `resultType: "input_required"`. The client checks that answer (a method that may ask,
 * a valid result, something to act on, only capabilities this client declared, at most
 * `maxInputRounds`) and opens a round in `state.mrtr`, keyed by the original request's id.
 * Each input request goes to the application as a `request` output, answered through
 * `respond` (receive.ts) and never put on the wire. When all are answered the original
 * request is retried under a new id (`sendRequest`, send.ts) with `inputResponses` and the
 * server's `requestState`. An input the application could not provide fails the call; a
 * cancel, a close or the call's deadline drops the round and cancels the input requests
 * still open. Events keep naming the original id, and the call's timeout spans every round
 * (see receiveInputRequired).
 */
import { jsonCopy } from "../jsonrpc/safe-json.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { inputAnswerIssues, methodSpec } from "../model/methods.js";
import { invalidResultError } from "../model/schema-errors.js";
import { inputRequiredProblem } from "../modern/server.js";
import { versionOf } from "./phase.js";
import { addInbound, removeInbound } from "./requests.js";
import { copyOf, MAX_KEPT_ID_LENGTH, tooLong } from "./retained.js";
import { sendRequest } from "./send.js";
import { timeoutMessage, wakeNoLaterThan } from "./timeouts.js";
import { idKey, type MrtrRound, type OutboundRequest, type SessionOutput, type SessionState } from "./types.js";

/**
 * An `input_required` answer: each input request goes to the application as a `request`
 * event (ids `mrtr:<origin>:<round>:<key>`, answered locally, never on the wire); when all
 * are answered the original request is retried under a new id with `inputResponses` and
 * the exact `requestState` (none if none was given). Events keep naming the original id.
 *
 * The call's timeout covers every round, the time the application takes to answer
 * included: the round keeps the deadline of the attempt it ends and the retry inherits it.
 * This is the legacy era's wait: there a server asks (`elicitation/create`) while its
 * `tools/call` is in flight, and the call's timeout keeps running while the user answers;
 * only the server's progress resets it, never past `maxRequestTimeoutMs` (2025-11-25
 * `basic/lifecycle`, Timeouts). A modern server sends no progress while the round is with
 * the client (no request of it is in flight), so none resets it here either; progress on
 * an attempt does, as on any request. Starting afresh each round would let a server (or an
 * unanswered input) keep a call waiting without any bound the caller set.
 */
export function receiveInputRequired(state: SessionState, req: OutboundRequest, result: JsonObject, now: number, out: SessionOutput[]): void {
  const origin = req.origin ?? req.id;
  const version = versionOf(state);
  const spec = methodSpec(version, req.method);
  const invalid = (message: string, data?: unknown): void => {
    out.push({ type: "error", id: origin, method: req.method, error: data === undefined ? { code: ErrorCode.InternalError, message } : { code: ErrorCode.InternalError, message, data } });
  };
  if (!spec?.inputRequired) return invalid(`the server answered ${req.method} with input_required, which it MUST NOT`);
  const issues = spec.validateResult!(result);
  if (issues) return invalid("invalid input_required result from the peer", { issues });
  // draft basic/patterns/mrtr: servers MUST include at least one; a retry of the same request would only get the same answer.
  if (result.inputRequests === undefined && typeof result.requestState !== "string") return invalid("an input_required result from the peer with neither inputRequests nor requestState, which it MUST include");
  // Servers MUST NOT ask for input this client did not declare (draft mrtr), and each entry
  // is treated as the standalone request would be (SEP-2663), which gets -32602 (2025-11-25
  // client/elicitation): the call fails and no handler runs for it. The same check finds an
  // input request whose params break a rule the schema's types cannot express (client/sampling:
  // a user message with tool results "MUST contain ONLY tool results"): that is an invalid
  // request, not an undeclared capability, and is reported as one.
  const problem = inputRequiredProblem(true, req.method, result, state.options.capabilities);
  if (problem?.code === ErrorCode.MissingRequiredClientCapability) return invalid(`an input_required result from the peer asking for client capabilities this client did not declare, which it MUST NOT`, problem.data);
  if (problem) return invalid(`invalid input_required result from the peer: ${problem.message}`);
  const round = (req.round ?? 0) + 1;
  if (round > state.options.maxInputRounds) return invalid(`gave up after ${state.options.maxInputRounds} input_required rounds`);
  const inputs = (result.inputRequests ?? {}) as Record<string, { method: string; params?: JsonObject }>;
  const keys = Object.keys(inputs);
  // The keys are kept until the application answers (retained.ts): a longer one is no real key.
  if (keys.some((key) => tooLong(key, MAX_KEPT_ID_LENGTH))) return invalid(`an input_required result from the peer with an inputRequests key longer than ${MAX_KEPT_ID_LENGTH} characters`);
  // Each input request is a request in progress for the application (an inbound entry), as a
  // standalone one is, so maxInboundRequests bounds them too: one 4 MiB answer asked 100 000
  // at once, past the bound, and answering them took minutes (each answer scans `waiting`).
  // All are needed for the retry (the client MUST construct them), so the call fails.
  const room = state.options.maxInboundRequests - state.inboundCount;
  if (keys.length > room) return invalid(`an input_required result from the peer with ${keys.length} input requests, more than this client takes in progress (maxInboundRequests ${state.options.maxInboundRequests}, ${state.inboundCount} in progress)`);
  const originKey = idKey(origin);
  const entry: MrtrRound = { origin, method: req.method, timeoutMs: req.timeoutMs, deadline: req.deadline, hardDeadline: req.hardDeadline, progress: req.progressToken !== undefined, round, keys, waiting: [...keys], responses: {} };
  if (req.params !== undefined) entry.params = req.params;
  const shown = highest(req.shownProgress, req.progress);
  if (shown !== undefined) entry.shownProgress = shown;
  if (req.logLevel !== undefined) entry.logLevel = req.logLevel;
  if (typeof result.requestState === "string") entry.requestState = result.requestState;
  state.mrtr[originKey] = entry;
  wakeNoLaterThan(state, entry.deadline);
  for (const key of entry.waiting) {
    const id = inputRequestId(originKey, round, key);
    addInbound(state, { id, method: inputs[key].method, mrtr: { origin: originKey, key } });
    out.push({ type: "request", id, method: inputs[key].method, params: inputs[key].params });
  }
  if (entry.waiting.length === 0) retryInput(state, originKey, now, out);
}

/**
 * The application answered one input request; once all are in, the original request is
 * retried with them. An answer that is no valid result of its method (with
 * `validateOutgoing`) is not sent: the call fails with the `-32603` a legacy handler's invalid
 * result is answered with (receive.ts `respond`), as `inputResponses` carry no error to
 * give the server instead.
 */
export function answerInput(state: SessionState, ref: { origin: string; key: string }, method: string, result: JsonObject, now: number, out: SessionOutput[]): void {
  const entry = Object.hasOwn(state.mrtr, ref.origin) ? state.mrtr[ref.origin] : undefined;
  if (entry === undefined) return;
  const issues = state.options.validateOutgoing ? inputAnswerIssues(method, result) : null;
  if (issues) {
    out.push({ type: "diagnostic", code: "invalid-result", message: `the application's ${method} answer does not match the schema; not sent, the call fails with -32603`, detail: { id: entry.origin, issues } });
    return failInput(state, ref, method, invalidResultError(method, issues), out);
  }
  // A copy: the answer may wait in the state for the round's other answers.
  const kept = jsonCopy(result);
  if (kept === undefined) return failInput(state, ref, method, { code: ErrorCode.InternalError, message: "the result has no JSON form" }, out);
  Object.defineProperty(entry.responses, ref.key, { value: kept, enumerable: true, writable: true, configurable: true });
  entry.waiting = entry.waiting.filter((k) => k !== ref.key);
  if (entry.waiting.length === 0) retryInput(state, ref.origin, now, out);
}

/**
 * The application could not construct one input (its handler failed): the original request
 * fails with that error. A retry without it breaks "the client MUST construct the requested
 * inputs before retrying" (draft `basic/patterns/mrtr`), and the server would only ask
 * again, round after round, until the bound; answers still coming for the round are dropped.
 */
export function failInput(state: SessionState, ref: { origin: string; key: string }, method: string, error: { code: number; message: string; data?: unknown }, out: SessionOutput[]): void {
  const code = Number.isInteger(error.code) ? error.code : ErrorCode.InternalError;
  const message = `the ${method} input could not be provided: ${typeof error.message === "string" ? error.message : "the handler failed"}`;
  const entry = dropInputRound(state, ref.origin, message, out);
  if (entry === undefined) return;
  out.push({ type: "error", id: entry.origin, method: entry.method, error: error.data === undefined ? { code, message } : { code, message, data: error.data } });
}

function retryInput(state: SessionState, originKey: string, now: number, out: SessionOutput[]): void {
  const entry = state.mrtr[originKey];
  // The call's time ran out before the tick that would have said so: no retry to send and cancel at once.
  const deadline = entry.deadline ?? null;
  if (deadline !== null && deadline <= now) return timeOutInputRound(state, originKey, out);
  delete state.mrtr[originKey];
  // In the order asked, whichever handler answered first: the retry is the same bytes on every run.
  const inputResponses: JsonObject = {};
  for (const key of entry.keys) {
    if (Object.hasOwn(entry.responses, key)) Object.defineProperty(inputResponses, key, { value: entry.responses[key], enumerable: true, writable: true, configurable: true });
  }
  // The params stay in the state for the next round: the message gets a copy of them.
  const params: JsonObject = { ...copyOf(entry.params), inputResponses };
  if (entry.requestState !== undefined) params.requestState = entry.requestState;
  sendRequest(state, { type: "request", now, method: entry.method, params, timeoutMs: entry.timeoutMs, progress: entry.progress, logLevel: entry.logLevel }, out, { origin: entry.origin, round: entry.round, params: entry.params, deadline, hardDeadline: entry.hardDeadline ?? null, shownProgress: entry.shownProgress });
}

/** The larger of two progress values, either of which may be absent. */
function highest(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined || a >= b ? a : b;
}

/** The id of an input request the application is handed: unique per call, round and key, and never a wire id. */
function inputRequestId(originKey: string, round: number, key: string): string {
  return `mrtr:${originKey}:${round}:${key}`;
}

/**
 * Drops a round that is still gathering input (cancelled, timed out, or an input failed).
 * Each input request still unanswered is `cancelled`, so the handler asking the user learns
 * the answer is no longer wanted (its signal aborts) and the driver forgets it.
 */
export function dropInputRound(state: SessionState, originKey: string, reason: string, out: SessionOutput[]): MrtrRound | undefined {
  if (!Object.hasOwn(state.mrtr, originKey)) return undefined;
  const entry = state.mrtr[originKey];
  delete state.mrtr[originKey];
  for (const key of entry.waiting) {
    const id = inputRequestId(originKey, entry.round, key);
    if (removeInbound(state, idKey(id)) !== undefined) out.push({ type: "cancelled", id, reason });
  }
  return entry;
}

/** The call's deadline passed while its inputs were gathered: it fails with -32001, as a request timing out on the wire does. Nothing is in flight, so nothing is sent. */
export function timeOutInputRound(state: SessionState, originKey: string, out: SessionOutput[]): void {
  const entry = state.mrtr[originKey];
  const message = timeoutMessage(state, entry);
  dropInputRound(state, originKey, message, out);
  out.push({ type: "error", id: entry.origin, method: entry.method, error: { code: ErrorCode.RequestTimeout, message } });
}
