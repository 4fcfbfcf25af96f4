/**
 * The JSON-RPC layer, as the `mcp-kernel/codec` entry point.
 *
 * Spec: `basic/index` ("Messages"). Message shapes, error codes and the codec that turns
 * text into classified messages and back. Nothing here knows MCP methods; that is the
 * model layer's job.
 */
export * from "./types.js";
export * from "./errors.js";
export * from "./codec.js";
