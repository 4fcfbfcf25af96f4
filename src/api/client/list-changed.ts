/**
 * `listChanged`: the client option of the official SDKs (1.x and 2.x, same shape) that
 * keeps an application's copy of the server's tools, prompts or resources current. For
 * each list named, and only when the server declared `listChanged` for it, the client
 * listens from `connect()` on; each change is answered, after `debounceMs` of quiet, by
 * walking the list again (`autoRefresh`, the default) and handing `onChanged` every item,
 * or by `onChanged(null, null)` for the application to list itself.
 *
 * Spec: 2025-11-25 `server/tools`, `server/prompts`, `server/resources` (a server that
 * declared `listChanged` SHOULD send the list_changed notification when its list changes)
 * and draft `basic/patterns/subscriptions` (in 2026-07-28 the same notifications come on a
 * `subscriptions/listen` stream the client opens with the lists in its filter). Both come
 * through `McpClient.listen`, so one path serves either era.
 *
 * Theory of operation. One listen for every list watched, made again when it ends while
 * the connection is up; then, and after a new HTTP session (2025 era), each list is walked
 * again. Per list: a debounce timer on
 * the client's clock (what a test injects) and a generation count; a refresh delivers its
 * items only if no newer change came while it walked the pages, so `onChanged` never hands
 * back a list older than one it already gave. A failed walk is `onChanged(error, null)`.
 */
import type { Clock } from "../../driver/clock.js";
import type { Callback } from "../../driver/listener.js";
import { refusedByPeer } from "../../driver/endpoint.js";
import { hasCapability } from "../../model/methods.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import type { SubscriptionFilter } from "../../modern/subscriptions.js";
import { isObject } from "../connection.js";
import { knownNames, refuseMisspelledOptions } from "../option-names.js";
import type { Prompt, Resource, Tool } from "../types.js";
import type { Subscription, SubscriptionListener } from "./subscriptions.js";

/** How one list is watched. */
export interface ListChangedOptions<T> {
  /**
   * Called after each change: with every item of the list as listed again (`autoRefresh`),
   * with `null` items when `autoRefresh` is false, or with the error that listing met.
   */
  onChanged: Callback<(error: Error | null, items: T[] | null) => void>;
  /** List again on each change and hand `onChanged` the items (default true). */
  autoRefresh?: boolean | undefined;
  /** Quiet time after a change before `onChanged` runs, so a burst of changes is one call (ms, default 300; 0: at once). */
  debounceMs?: number | undefined;
}

/** The lists a client keeps current (the SDKs' `listChanged` client option). */
export interface ListChangedHandlers {
  tools?: ListChangedOptions<Tool> | undefined;
  prompts?: ListChangedOptions<Prompt> | undefined;
  resources?: ListChangedOptions<Resource> | undefined;
}

type Kind = keyof ListChangedHandlers;

/** Per list: the filter member that asks for its changes, and the notification that tells one. */
const LISTS: Record<Kind, { filter: "toolsListChanged" | "promptsListChanged" | "resourcesListChanged"; method: string }> = {
  tools: { filter: "toolsListChanged", method: "notifications/tools/list_changed" },
  prompts: { filter: "promptsListChanged", method: "notifications/prompts/list_changed" },
  resources: { filter: "resourcesListChanged", method: "notifications/resources/list_changed" },
};

const KINDS = /* @__PURE__ */ knownNames<ListChangedHandlers>()(["tools", "prompts", "resources"]) as readonly Kind[];
const WATCH_OPTION_NAMES = /* @__PURE__ */ knownNames<ListChangedOptions<unknown>>()(["onChanged", "autoRefresh", "debounceMs"]);

const DEFAULT_DEBOUNCE_MS = 300;

/** Least time between two listens of one watch: a server that ends each listen at once is not asked again and again. */
const MIN_RELISTEN_MS = 1000;

/** Longest wait before listening again after listens that failed in a row (each waits twice the last, from {@link MIN_RELISTEN_MS}). */
const MAX_RELISTEN_MS = 60_000;

/** Refuses a `listChanged` option that would watch nothing it meant to: a misspelled list or field, an `onChanged` that is no function, a bad `debounceMs`. */
export function checkListChanged(handlers: ListChangedHandlers | undefined): void {
  if (handlers === undefined) return;
  if (!isObject(handlers)) throw new TypeError("McpClient options: listChanged must be an object: { tools, prompts, resources }");
  refuseMisspelledOptions("McpClient options.listChanged", handlers, KINDS);
  for (const kind of KINDS) {
    const o = handlers[kind];
    if (o === undefined) continue;
    const where = `McpClient options.listChanged.${kind}`;
    if (!isObject(o)) throw new TypeError(`${where} must be an object: { onChanged, autoRefresh, debounceMs }`);
    refuseMisspelledOptions(where, o, WATCH_OPTION_NAMES);
    if (typeof o.onChanged !== "function") throw new TypeError(`${where}.onChanged must be a function`);
    if (o.autoRefresh !== undefined && typeof o.autoRefresh !== "boolean") throw new TypeError(`${where}.autoRefresh must be a boolean`);
    if (o.debounceMs !== undefined && !(typeof o.debounceMs === "number" && o.debounceMs >= 0 && Number.isFinite(o.debounceMs))) throw new TypeError(`${where}.debounceMs must be a finite number of milliseconds, 0 or more`);
  }
}

/** What watching takes from its client. */
export interface ListWatchHost {
  serverCapabilities(): JsonObject | undefined;
  listen(filter: SubscriptionFilter, fn: SubscriptionListener): Promise<Subscription>;
  /** Every item of a list, page after page. */
  iterate(kind: Kind): AsyncIterable<unknown>;
  clock(): Clock;
  /** Whether the connection is still up (a listen that ended without it is not made again). */
  connected(): boolean;
  /** Hears the connection close (the watch's timers are cancelled). */
  onClose(fn: () => void): void;
  /** Hears a new HTTP session start (2025 era; each list is walked again). */
  onSessionRenewed(fn: () => void): void;
  /** Where a failed listen again goes: the client's `onError`. */
  report(error: unknown): void;
  /** Calls the application's `onChanged`; what it throws goes to the client's `onError`. */
  call(fn: (error: Error | null, items: unknown[] | null) => void, error: Error | null, items: unknown[] | null): void;
}

/** Per list being watched. */
interface Watched {
  options: ListChangedOptions<unknown>;
  timer: unknown;
  /** Changes heard so far: a refresh whose count is no longer current hands nothing back. */
  generation: number;
}

/**
 * Starts watching the lists `handlers` names that the server declared `listChanged` for.
 * Resolves once the listen is acknowledged (a change from then on is heard), with nothing
 * when there is nothing to watch; rejects when the listen is refused.
 */
export async function watchLists(host: ListWatchHost, handlers: ListChangedHandlers): Promise<void> {
  const watched = new Map<Kind, Watched>();
  const filter: SubscriptionFilter = {};
  for (const kind of KINDS) {
    const options = handlers[kind];
    if (options === undefined || !hasCapability(host.serverCapabilities(), `${kind}.listChanged`)) continue;
    watched.set(kind, { options, timer: undefined, generation: 0 });
    filter[LISTS[kind].filter] = true;
  }
  if (watched.size === 0) return;
  const clock = host.clock();

  const refresh = async (w: Watched, kind: Kind): Promise<void> => {
    const onChanged = w.options.onChanged;
    // Nothing is handed back once the connection closed (a debounce may outlive it).
    if (!host.connected()) return;
    if (w.options.autoRefresh === false) return host.call(onChanged, null, null);
    const generation = w.generation;
    const items: unknown[] = [];
    let error: Error | null = null;
    try {
      for await (const item of host.iterate(kind)) items.push(item);
    } catch (e) {
      error = e instanceof Error ? e : new Error(String(e));
    }
    // A change came while this walk ran: its own refresh will hand back the newer list.
    if (generation === w.generation && host.connected()) host.call(onChanged, error, error === null ? items : null);
  };

  const changed = (kind: Kind, w: Watched): void => {
    // After the close no timer is armed (a listen acknowledged in the turn of the close).
    if (!host.connected()) return;
    w.generation++;
    const wait = w.options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    if (wait === 0) return void refresh(w, kind);
    if (w.timer !== undefined) clock.cancel(w.timer);
    w.timer = clock.schedule(clock.now() + wait, () => {
      w.timer = undefined;
      void refresh(w, kind);
    });
  };

  const heard = (method: string): void => {
    for (const [kind, w] of watched) if (LISTS[kind].method === method) changed(kind, w);
  };
  /** Each list the server (a renewed session's may be another) still declares is walked again. */
  const all = (): void => {
    for (const [kind, w] of watched) if (hasCapability(host.serverCapabilities(), kind)) changed(kind, w);
  };
  let listenedAt = 0;
  let relisten: unknown;
  /** Listens in a row that got no answer from the server (see again). */
  let failures = 0;
  // The connection closed: no change is coming, and no timer outlives it.
  host.onClose(() => {
    for (const w of watched.values()) if (w.timer !== undefined) clock.cancel(w.timer);
    if (relisten !== undefined) clock.cancel(relisten);
  });
  // 2025 era: a new HTTP session (404) may be another server, whose lists are not the old
  // ones, and it sends no list_changed for what it had from the start: each list is walked again.
  host.onSessionRenewed(all);
  /** Listens; when the listen ends with the connection still up, listens again (see {@link MIN_RELISTEN_MS}). */
  const listen = async (): Promise<void> => {
    listenedAt = clock.now();
    const subscription = await host.listen(filter, heard);
    failures = 0;
    // The server ended the listen (a draining instance's completion result; draft
    // subscriptions: listen again, and the new stream lands on a live instance), or its
    // stream broke: listen again, and list again, as changes may have come meanwhile
    // (another instance may serve another list).
    void subscription.ended.then(again);
  };
  /**
   * Listens again when the connection is still up. A listen refused now goes to onError.
   * One that got no answer (a 2026-07-28 HTTP connection outlives a server down for a
   * while: the POST failed, its stream broke, the acknowledgment timed out) is tried again,
   * each time twice as late up to {@link MAX_RELISTEN_MS}: the watch must not end for good
   * on one failure while the connection stands, nor ask a server that is down again and again.
   */
  const again = (): void => {
    if (!host.connected()) return;
    const wait = Math.min(MIN_RELISTEN_MS * 2 ** failures, MAX_RELISTEN_MS);
    relisten = clock.schedule(Math.max(clock.now(), listenedAt + wait), () => {
      relisten = undefined;
      if (!host.connected()) return;
      listen().then(all, failed);
    });
  };
  /** A listen that got no answer, the connection still up, is tried again (see again). */
  const retryUnanswered = (e: unknown): void => {
    if (!host.connected() || refusedByPeer(e)) return;
    failures++;
    again();
  };
  const failed = (e: unknown): void => {
    // One the client's own close() cut short is no failure to report.
    if (!host.connected()) return;
    host.report(e);
    retryUnanswered(e);
  };
  try {
    await listen();
  } catch (e) {
    // connect()'s own listen: its failure is reported by the caller.
    retryUnanswered(e);
    throw e;
  }
}
