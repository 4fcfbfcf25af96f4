/**
 * Which error codes a server may answer a request with, by era and by what the client
 * declared: the application's error is checked as it leaves, and one the spec forbids
 * becomes the code the spec names instead.
 *
 * Spec:
 * - 2025-11-25 `client/elicitation` ("URL Elicitation Required Error"): `-32042` is new
 *   in 2025-11-25, with URL mode. "Any elicitations returned in the error MUST be URL
 *   mode elicitations and have an `elicitationId` property", and "Servers MUST NOT send
 *   elicitation requests with modes that are not supported by the client": a session
 *   whose client did not declare `elicitation.url` cannot be sent one, in an error or not.
 * - draft `basic/index` ("Error Codes"): implementations of 2026-07-28 "MUST NOT emit"
 *   `-32002` (resource not found, "replaced by `-32602`") or `-32042`, nor any code of
 *   `-32020` to `-32099` the specification does not define (it defines `-32020`,
 *   `-32021`, `-32022`).
 *
 * - draft schema `MissingRequiredClientCapabilityError` and `UnsupportedProtocolVersionError`:
 *   a `-32021` or `-32022` carries `data` of a given shape (the missing capabilities; the
 *   version requested and those supported); one an application throws without it does not go out.
 *
 * A refused code becomes `-32603` (the server failed to produce an answer it may send),
 * its message saying which code was refused and why, except `-32002` in the modern era,
 * whose meaning survives as `-32602`.
 */
import { isObject } from "../jsonrpc/codec.js";
import { ErrorCode, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import { hasCapability } from "./methods.js";
import { isModernVersion, type ProtocolVersion } from "./versions.js";
import { issuesText } from "../schema/json-type.js";
import { validatorFor } from "../schema/validate.js";

/**
 * The codes of the range the draft reserves for the specification that it defines. Only a
 * modern server sends them, so they also identify one (draft `basic/versioning`, Backward
 * Compatibility).
 */
export const MODERN_ERROR_CODES: readonly number[] = [ErrorCode.HeaderMismatch, ErrorCode.MissingRequiredClientCapability, ErrorCode.UnsupportedProtocolVersion];

/**
 * The error to send for the application's `error` to a request read under `version`,
 * from a client that declared `clientCapabilities`: `error` itself when the spec allows it.
 */
export function answerableError(error: JsonRpcErrorObject, version: string | undefined, clientCapabilities: unknown): JsonRpcErrorObject {
  const code = error.code;
  // Every code outside -32099..-32002 is allowed in both eras (the common case: one comparison).
  if (code > ErrorCode.ResourceNotFound || code < -32099) return error;
  if (isModernVersion(version)) {
    if (code === ErrorCode.ResourceNotFound) return { ...error, code: ErrorCode.InvalidParams };
    if (code === ErrorCode.UrlElicitationRequired) return refused(error, "2026-07-28 has no such code (ask with input_required instead)");
    if (code <= ErrorCode.HeaderMismatch && !MODERN_ERROR_CODES.includes(code)) return refused(error, "the code is reserved for the MCP specification, which does not define it");
    const why = modernErrorDataProblem(code, error.data);
    return why === null ? error : refused(error, why);
  }
  if (code !== ErrorCode.UrlElicitationRequired) return error;
  const why = urlElicitationProblem(error.data, version, clientCapabilities);
  return why === null ? error : refused(error, why);
}

/** Why a `-32042` may not go to this client, or null when it may. */
function urlElicitationProblem(data: unknown, version: string | undefined, clientCapabilities: unknown): string | null {
  if (version === undefined || version < "2025-11-25") return `protocol version ${version ?? "(none)"} has no URL elicitation (2025-11-25 introduced it)`;
  if (!hasCapability(clientCapabilities, "elicitation.url")) return "the client did not declare elicitation.url";
  const list = typeof data === "object" && data !== null ? (data as { elicitations?: unknown }).elicitations : undefined;
  // "MUST include a list of elicitations that are required": an empty one names none to complete.
  if (!Array.isArray(list) || list.length === 0) return "its data has no elicitations list, or an empty one";
  for (const e of list) {
    const el = typeof e === "object" && e !== null ? (e as Record<string, unknown>) : {};
    if (el.mode !== "url") return "every elicitation in it must be URL mode";
    if (typeof el.elicitationId !== "string" || typeof el.url !== "string" || typeof el.message !== "string") return "a URL elicitation needs string elicitationId, url and message";
    // The rest of ElicitRequestURLParams (`url` a URI, `_meta` and `task` objects): the error's schema holds each item to it.
    const issues = validatorFor(version as ProtocolVersion, "ElicitRequestParams")?.(el);
    if (issues) return `a URL elicitation in it fails the schema: ${issuesText(issues)}`;
  }
  return null;
}

/**
 * Why the `data` of a `-32021` or `-32022` does not have the shape the draft schema gives
 * it (`MissingRequiredClientCapabilityError`: `requiredCapabilities`, a ClientCapabilities
 * object, whose every member the schema defines is an object; `UnsupportedProtocolVersionError`:
 * `requested`, a string, and `supported`, strings), or null when it does. A client reads
 * the code to learn what to declare or which version to retry with: without the data it
 * cannot.
 */
function modernErrorDataProblem(code: number, data: unknown): string | null {
  const d = isObject(data) ? data : undefined;
  if (code === ErrorCode.MissingRequiredClientCapability) {
    const caps = d?.requiredCapabilities;
    if (!isObject(caps) || !Object.values(caps).every(isObject)) return "its data must name the missing capabilities as { requiredCapabilities: { <capability>: {...} } }";
  } else if (code === ErrorCode.UnsupportedProtocolVersion) {
    const supported = d?.supported;
    if (typeof d?.requested !== "string" || !Array.isArray(supported) || !supported.every((v) => typeof v === "string")) return "its data must be { requested: <version>, supported: [<versions>] }";
  }
  return null;
}

function refused(error: JsonRpcErrorObject, why: string): JsonRpcErrorObject {
  return { code: ErrorCode.InternalError, message: `${error.message} (error code ${error.code} not sent: ${why})` };
}
