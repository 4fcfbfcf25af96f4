/**
 * The errors for a message the schema refuses: `-32602` for a request's params, `-32603`
 * for the result a handler produced.
 *
 * Spec: `basic/index` (2025-11-25 and draft) error codes: `-32602` Invalid params,
 * `-32603` Internal error. Each says what is wrong in its message as well as in
 * `data.issues`, so that a log line read at either end names the method and the field.
 */
import { ErrorCode, rpcError, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import { issuesText } from "../schema/json-type.js";
import type { Issue } from "../schema/validate.js";

/**
 * The `-32603` for a request whose handler answered what the method's result schema
 * refuses: what is wrong goes in the message and in `data.issues` (as `-32602` carries a
 * request's), so whoever reads the error, at either end, sees what the handler must fix
 * (a tool that returned `{}`: `/: missing required property "content"`). The peer learns nothing the result
 * would not have told it.
 */
export function invalidResultError(method: string, issues: Issue[]): JsonRpcErrorObject {
  return rpcError(ErrorCode.InternalError, `the handler produced an invalid ${method} result: ${issuesText(issues)}`, { issues });
}

/**
 * The `-32602` for params the method's schema refuses: the method and what is wrong in the
 * message, the issues in `data`.
 */
export function invalidParamsError(method: string, issues: Issue[]): JsonRpcErrorObject {
  return rpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${issuesText(issues)}`, { issues });
}
