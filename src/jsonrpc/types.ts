/**
 * JSON-RPC 2.0 message shapes, as MCP restricts them.
 *
 * Spec: `basic/index` ("Messages") of 2025-11-25 and the draft. Requests carry a string
 * or integer id that is never `null`; params, when present, are an object; a response
 * has exactly one of `result` and `error`. The same types go in and out: what one side
 * encodes is exactly what the other side decodes.
 */
import type { JsonRpcErrorObject } from "./errors.js";

/** A request id: a string or an integer (never `null`, never a fraction). */
export type RequestId = string | number;

/** Any JSON object, as the params of a request or the result of a response. */
export type JsonObject = { [key: string]: unknown };

/**
 * Params as an application hands them to a method that sends them (`request`, `notify`):
 * any object. The schema's `schema.ts` types every params object with an interface, which
 * has no index signature and so is no {@link JsonObject} to TypeScript: a value typed
 * `CallToolRequestParams` or `ProgressNotificationParams` must go as it is. The kernel
 * holds the params to the method's schema before they leave, and refuses what is no JSON
 * object ("params must be an object").
 */
export type OutgoingParams = object;

/** Any JSON value (schema `JSONValue`, 2026-07-28). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A request: expects exactly one response with the same id. */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: JsonObject;
}

/** A notification: no id, no response. */
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: JsonObject;
}

/** A successful response. */
export interface JsonRpcResultResponse {
  jsonrpc: "2.0";
  id: RequestId;
  result: JsonObject;
}

/** An error response; `id` is `null` only when the request's id could not be read. */
export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

/** Any single JSON-RPC message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResultResponse | JsonRpcErrorResponse;

/** A response of either kind. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
