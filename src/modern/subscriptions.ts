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
 * The tasks extension (SEP-2663 "Task Status Notifications") adds `taskIds` to the
 * filter: the listener hears `notifications/tasks`, the full task as `tasks/get` would
 * show it, for each task it named. The server agrees to it only when it runs the
 * extension, and a client that asks without declaring the extension gets `-32021`.
 *
 * The application reports what changed with one `changed` input; this module decides,
 * per subscriber and per era, who hears about it.
 */
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import { merged } from "../jsonrpc/safe-json.js";
import { MetaKey, TASKS_EXTENSION } from "../model/meta.js";
import { hasCapability } from "../model/methods.js";

/** What a subscriber asked for (schema `SubscriptionFilter`). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean | undefined;
  promptsListChanged?: boolean | undefined;
  resourcesListChanged?: boolean | undefined;
  resourceSubscriptions?: string[] | undefined;
  /** Tasks extension: the tasks whose status the subscriber wants pushed. */
  taskIds?: string[] | undefined;
}

/** A change the application reports. */
export type Change = { what: "tools" | "prompts" | "resources" } | { what: "resource"; uri: string } | TaskChange;

/** A task of the extension changed status: `task` is its detailed view (the `notifications/tasks` params). */
export interface TaskChange {
  what: "task";
  taskId: string;
  task: JsonObject;
}

/** The part of `requested` this server honours, given its own capabilities. */
export function agreedFilter(requested: SubscriptionFilter, capabilities: JsonObject, maxUris: number): SubscriptionFilter {
  const agreed: SubscriptionFilter = {};
  if (requested.toolsListChanged === true && hasCapability(capabilities, "tools.listChanged")) agreed.toolsListChanged = true;
  if (requested.promptsListChanged === true && hasCapability(capabilities, "prompts.listChanged")) agreed.promptsListChanged = true;
  if (requested.resourcesListChanged === true && hasCapability(capabilities, "resources.listChanged")) agreed.resourcesListChanged = true;
  if (Array.isArray(requested.resourceSubscriptions) && hasCapability(capabilities, "resources.subscribe")) {
    agreed.resourceSubscriptions = distinctStrings(requested.resourceSubscriptions, maxUris);
  }
  if (Array.isArray(requested.taskIds) && hasCapability(capabilities, "extensions." + TASKS_EXTENSION)) agreed.taskIds = distinctStrings(requested.taskIds, maxUris);
  return agreed;
}

function distinctStrings(values: unknown[], max: number): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === "string"))].slice(0, max);
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
      // The updated uri "might be a sub-resource of the one that the client actually
      // subscribed to" (ResourceUpdatedNotification): a subscriber of `file:///notes` hears
      // of `file:///notes/a.md`, by the rule the client reads it with (coversUri).
      return subscribedTo(filter, change.uri) ? { method: "notifications/resources/updated", params: { uri: change.uri } } : null;
    case "task":
      return filter.taskIds?.includes(change.taskId) ? { method: "notifications/tasks", params: change.task } : null;
  }
}

/** The list_changed notification each filter flag asks for. */
export const LIST_CHANGED: ReadonlyArray<readonly ["toolsListChanged" | "promptsListChanged" | "resourcesListChanged", string]> = [
  ["toolsListChanged", "notifications/tools/list_changed"],
  ["promptsListChanged", "notifications/prompts/list_changed"],
  ["resourcesListChanged", "notifications/resources/list_changed"],
];

/**
 * Client: whether a notification the server tagged with one of our listens is one its
 * acknowledged `filter` covers, or null for a method no filter names (it is judged as an
 * untagged one is). The server "MUST NOT send notification types the client has not
 * explicitly requested" (draft basic/patterns/subscriptions). An update may name a
 * sub-resource of a subscribed URI (`ResourceUpdatedNotificationParams`).
 */
export function filterCovers(filter: SubscriptionFilter, method: string, params: JsonObject | undefined): boolean | null {
  if (method === "notifications/resources/updated") {
    return typeof params?.uri === "string" && subscribedTo(filter, params.uri);
  }
  if (method === "notifications/tasks") return typeof params?.taskId === "string" && (filter.taskIds?.includes(params.taskId) ?? false);
  const flag = LIST_CHANGED.find(([, m]) => m === method)?.[0];
  return flag === undefined ? null : filter[flag] === true;
}

/** Whether `filter` subscribes to `uri` or to a URI it is a sub-resource of ({@link coversUri}). */
function subscribedTo(filter: SubscriptionFilter, uri: string): boolean {
  return filter.resourceSubscriptions?.some((watched) => coversUri(watched, uri)) ?? false;
}

/**
 * Whether an update for `uri` is one for a subscription to `watched`: that URI, or a
 * sub-resource of it, a URI that continues it past a delimiter: `file:///project` covers
 * `file:///project/src/a.ts`, `file:///project?rev=2` and `file:///project#x`, never
 * `file:///projects`; a watched URI ending in `/` covers whatever follows it.
 */
export function coversUri(watched: string, uri: string): boolean {
  if (uri === watched) return true;
  return uri.length > watched.length && uri.startsWith(watched) && (watched.endsWith("/") || "/?#".includes(uri[watched.length]));
}

/**
 * The filter `notifications` names, as plain data (a listen's, kept while it is open); with
 * `within`, only what `within` holds too: the acknowledgment of a listen narrows what it
 * asked for, and a server agreeing to more than that widens nothing.
 */
export function filterOf(notifications: unknown, within?: SubscriptionFilter): SubscriptionFilter {
  const named = (typeof notifications === "object" && notifications !== null ? notifications : {}) as Record<string, unknown>;
  const filter: SubscriptionFilter = {};
  for (const [flag] of LIST_CHANGED) if (named[flag] === true && (within === undefined || within[flag] === true)) filter[flag] = true;
  for (const list of ["resourceSubscriptions", "taskIds"] as const) {
    const values = named[list];
    // A list the request did not name is not acknowledged, not even as an empty one.
    if (!Array.isArray(values) || (within !== undefined && within[list] === undefined)) continue;
    const allowed = within === undefined ? undefined : new Set(within[list]);
    filter[list] = values.filter((v): v is string => typeof v === "string" && (allowed === undefined || allowed.has(v)));
  }
  return filter;
}

/** Params tagged with the subscription id, as every message on a subscription must be. */
export function tagged(params: JsonObject | undefined, subscriptionId: RequestId): JsonObject {
  return merged(params, { _meta: merged(params?._meta as JsonObject | undefined, { [MetaKey.subscriptionId]: subscriptionId }) }) as JsonObject;
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
