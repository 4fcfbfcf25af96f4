// CONTRACT STUB — to be implemented by the codec helper. Signatures are fixed.
import type { JsonRpcErrorResponse, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResultResponse } from "./types.js";

/** Size and nesting bounds applied before anything else looks at a message. */
export interface DecodeLimits {
  /** Largest message accepted, in UTF-8 bytes (strings are measured as UTF-16 length × 3 upper bound or exactly). */
  maxBytes: number;
  /** Deepest nesting of arrays and objects accepted. */
  maxDepth: number;
}

/** Defaults: 4 MiB and 64 levels. */
export const DEFAULT_LIMITS: DecodeLimits = { maxBytes: 4 * 1024 * 1024, maxDepth: 64 };

/** Options for {@link decode}. */
export interface DecodeOptions extends Partial<DecodeLimits> {
  /** Accept a JSON array as a batch (only `2025-03-26`). Default false: an array is `-32600`. */
  allowBatch?: boolean;
}

/** What one message decodes to. `invalid` carries the exact error response to send back. */
export type Decoded =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "result"; message: JsonRpcResultResponse }
  | { kind: "error"; message: JsonRpcErrorResponse }
  | { kind: "batch"; items: Decoded[] }
  | { kind: "invalid"; reply: JsonRpcErrorResponse; reason: string };

/** Decodes text or UTF-8 bytes. Never throws. */
export function decode(input: string | Uint8Array, options?: DecodeOptions): Decoded {
  throw new Error("stub");
}

/** Classifies an already-parsed JSON value (e.g. an HTTP body). Never throws. */
export function decodeValue(value: unknown, options?: DecodeOptions): Decoded {
  throw new Error("stub");
}

/** Encodes one message (or a batch) as compact JSON with no raw newline. Never throws on kernel-built messages. */
export function encode(message: JsonRpcMessage | JsonRpcMessage[]): string {
  throw new Error("stub");
}
