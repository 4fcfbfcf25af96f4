/**
 * Subscriptions: `subscriptions/listen` streams (modern) and `resources/subscribe`
 * (legacy), fed by one source of change events.
 *
 * Spec: draft `basic/patterns/subscriptions`. The server MUST NOT send notification types
 * the client did not request; the acknowledgment, carrying the subscription id (the
 * JSON-RPC id of the listen request) in `_meta["io.modelcontextprotocol/subscriptionId"]`,
 * is the first message of a subscription and lists the subset the server agreed to honour
 * (unsupported types omitted); every later notification carries the same id. A
 * subscription ends by `notifications/cancelled` (stdio), by the stream closing (HTTP), or
 * by the server's graceful completion result. Legacy: 2025-11-25 `server/resources`
 * (`resources/subscribe`, `notifications/resources/updated`, list_changed notifications).
 *
 * The application reports what changed with one `changed` input; this module decides,
 * per subscriber and per era, who hears about it.
 */
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import { MetaKey } from "../model/meta.js";
import { hasCapability } from "../model/methods.js";

/** What a subscriber asked for (schema `SubscriptionFilter`). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** A change the application reports. */
export type Change = { what: "tools" | "prompts" | "resources" } | { what: "resource"; uri: string };

/** The part of `requested` this server honours, given its own capabilities. */
export function agreedFilter(requested: SubscriptionFilter, capabilities: JsonObject, maxUris: number): SubscriptionFilter {
  const agreed: SubscriptionFilter = {};
  if (requested.toolsListChanged === true && hasCapability(capabilities, "tools.listChanged")) agreed.toolsListChanged = true;
  if (requested.promptsListChanged === true && hasCapability(capabilities, "prompts.listChanged")) agreed.promptsListChanged = true;
  if (requested.resourcesListChanged === true && hasCapability(capabilities, "resources.listChanged")) agreed.resourcesListChanged = true;
  if (Array.isArray(requested.resourceSubscriptions) && hasCapability(capabilities, "resources.subscribe")) {
    agreed.resourceSubscriptions = [...new Set(requested.resourceSubscriptions.filter((u) => typeof u === "string"))].slice(0, maxUris);
  }
  return agreed;
}

/** The notification a change becomes, or null when `filter` did not ask for it. */
export function notificationFor(change: Change, filter: SubscriptionFilter): { method: string; params?: JsonObject } | null {
  switch (change.what) {
    case "tools":
      return filter.toolsListChanged ? { method: "notifications/tools/list_changed" } : null;
    case "prompts":
      return filter.promptsListChanged ? { method: "notifications/prompts/list_changed" } : null;
    case "resources":
      return filter.resourcesListChanged ? { method: "notifications/resources/list_changed" } : null;
    case "resource":
      return filter.resourceSubscriptions?.includes(change.uri) ? { method: "notifications/resources/updated", params: { uri: change.uri } } : null;
  }
}

/** Params tagged with the subscription id, as every message on a subscription must be. */
export function tagged(params: JsonObject | undefined, subscriptionId: RequestId): JsonObject {
  return { ...params, _meta: { ...((params?._meta as JsonObject | undefined) ?? {}), [MetaKey.subscriptionId]: subscriptionId } };
}

/** The legacy session's view: list_changed for each declared listChanged, updated for subscribed URIs. */
export function legacyFilter(capabilities: JsonObject, subscribedUris: Record<string, true>): SubscriptionFilter {
  return {
    toolsListChanged: hasCapability(capabilities, "tools.listChanged"),
    promptsListChanged: hasCapability(capabilities, "prompts.listChanged"),
    resourcesListChanged: hasCapability(capabilities, "resources.listChanged"),
    resourceSubscriptions: Object.keys(subscribedUris),
  };
}
