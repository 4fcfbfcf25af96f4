/** `mcp-kernel/driver`: runs a session with a clock, promises and handlers. */
export { Endpoint, McpError, toRpcError } from "./endpoint.js";
export type { EndpointHooks, RequestContext, RequestHandler, RequestOptions, RequestPeer } from "./endpoint.js";
export { ManualClock, systemClock, wallClock } from "./clock.js";
export type { Clock } from "./clock.js";
export { hmacRequestState, MIN_SECRET_BYTES } from "./request-state.js";
export type { HmacRequestStateOptions, RequestStateCodec, RequestStateSecret } from "./request-state.js";
