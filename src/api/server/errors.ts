/**
 * The errors of McpServer: the protocol errors its handlers answer with, the failures a
 * handler's own request to the client turns into, and the registration mistakes it refuses.
 *
 * Spec: 2025-11-25 `basic` (JSON-RPC error codes), `server/tools`, `server/prompts` and
 * `server/utilities/completion` ("Error Handling").
 *
 * Theory of operation. A protocol error (an unknown tool or prompt, a missing required
 * argument) is an {@link McpError} the handler throws and the driver answers with:
 * {@link invalidParams} makes the `-32602` ones. A tool answers with a protocol error
 * only by throwing a {@link ProtocolError} (`server/tools.ts` turns anything else into an
 * `isError` result). A prompt, resource or completion handler whose own request to the
 * client fails answers `-32603` naming that request ({@link ownFailures}), not with the
 * inner error's code, which would describe the outer request. A registration argument
 * JavaScript does not check is refused at once ({@link refuseMisuse}), as a `TypeError`:
 * a programming error, not a protocol event.
 */
import { McpError } from "../../driver/endpoint.js";
import { isThenable } from "../../driver/listener.js";
import { ErrorCode } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { isObject } from "../connection.js";
import { innerRequestOf } from "../context.js";
import { refuseMisspelledOptions, shownValue } from "../option-names.js";

/**
 * Thrown by a tool to answer `tools/call` with this JSON-RPC error rather than an
 * `isError` result (every other error a tool throws becomes such a result). Built from the
 * error object, or from its parts: `new ProtocolError(code, message, data)`, as the
 * official SDKs spell it.
 */
export class ProtocolError extends McpError {
  constructor(error: { code: number; message: string; data?: unknown });
  constructor(code: number, message: string, data?: unknown);
  constructor(error: { code: number; message: string; data?: unknown } | number, message?: string, data?: unknown) {
    super(typeof error !== "number" ? error : data === undefined ? { code: error, message: message ?? "" } : { code: error, message: message ?? "", data });
    this.name = "ProtocolError";
  }
}

/**
 * A prompt, resource or completion handler's answer, with the failure of a request it made
 * to the client (`ctx.elicit` without the client's `elicitation`, a client's error answer)
 * as this request's `-32603`, naming it (see `innerRequestOf`); other errors as they are.
 * Such a failure only comes asynchronously: a synchronous answer is passed through.
 */
export function ownFailures(method: string, answer: JsonObject | Promise<JsonObject>): JsonObject | Promise<JsonObject> {
  if (!isThenable(answer)) return answer;
  return Promise.resolve(answer).catch((e: unknown) => {
    const inner = innerRequestOf(e);
    if (inner === undefined || !(e instanceof McpError)) throw e;
    throw new McpError({ code: ErrorCode.InternalError, message: `${method} failed: its ${inner} request to the client failed: ${e.message}`, data: { request: inner, code: e.code } });
  });
}

/**
 * Registration arguments JavaScript does not check: a config that is not an object, a
 * handler that is not a function (`tool("t", fn)` skipped the config). Refused at once,
 * naming them, rather than failing at the first call with an engine message.
 */
export function refuseMisuse(what: string, config: unknown, fn: unknown, role: string, known: readonly string[]): void {
  if (!isObject(config)) throw new TypeError(`${what}: the second argument must be its config object (got ${typeof config === "function" ? "a function: the config comes before the " + role : shownValue(config)})`);
  // A misspelled field is dropped from the definition: `inputSchma` left the tool with no input schema.
  refuseMisspelledOptions(`${what} config`, config, known);
  if (typeof fn !== "function") throw new TypeError(`${what}: the ${role} must be a function (got ${typeof fn})`);
}

/** A `-32602` (Invalid params) protocol error, its `data` naming what is wrong. */
export function invalidParams(message: string, data: unknown): McpError {
  return new McpError({ code: ErrorCode.InvalidParams, message, data });
}
