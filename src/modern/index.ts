/** `mcp-kernel/modern`: helpers of the 2026-07-28 era (the reducer itself is in `session`). */
export { CACHEABLE_METHODS, isModernRequest, readRequestMeta, stampResult, withRequestMeta } from "./request-meta.js";
export type { RequestMeta } from "./request-meta.js";
export { agreedFilter, notificationFor } from "./subscriptions.js";
export type { Change, SubscriptionFilter, TaskChange } from "./subscriptions.js";
