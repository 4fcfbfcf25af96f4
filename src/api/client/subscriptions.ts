/**
 * `McpClient.listen`: one way to hear about changes, whichever era the session speaks.
 *
 * Spec, modern: draft `basic/patterns/subscriptions`. A `subscriptions/listen` request
 * stays open; its acknowledgment comes first and lists the subset the server agreed to
 * honour; every notification on it carries the listen's JSON-RPC id in `_meta`
 * (`io.modelcontextprotocol/subscriptionId`), which on stdio clients MUST use to tell
 * subscriptions apart; the client ends it by cancelling the request; the server ends it
 * gracefully with a result, and a transport that closes without one is an unexpected end.
 *
 * Spec, legacy: 2025-11-25 `server/tools`, `server/prompts`, `server/resources`. A
 * server that declared `listChanged` sends list_changed notifications unasked; one that
 * declared `resources.subscribe` sends `notifications/resources/updated` for each URI a
 * `resources/subscribe` named, until `resources/unsubscribe`. The acknowledged filter is
 * what those capabilities offer. A URI two subscriptions share is subscribed once and
 * unsubscribed when the last lets go; after a new HTTP session (404) the URIs are
 * subscribed again, as its server knows nothing of the old session's.
 */
import type { JsonObject, JsonValue, RequestId } from "../../jsonrpc/types.js";
import { McpError, refusedByPeer } from "../../driver/endpoint.js";
import { ErrorCode, thrownMessage } from "../../jsonrpc/errors.js";
import { MetaKey } from "../../model/meta.js";
import { agreedFilter, filterCovers, filterOf, LIST_CHANGED, type SubscriptionFilter } from "../../modern/subscriptions.js";
import type { CallOptions } from "./options.js";
import type { Clock } from "../../driver/clock.js";

/** A subscription {@link McpClient.listen} opened. */
export interface Subscription {
  /** What the server agreed to send: the acknowledgment's filter (legacy: what its capabilities offer). */
  readonly acknowledged: SubscriptionFilter;
  /**
   * Settles once the subscription is over (never rejects): `graceful` when the server ended
   * it with its completion result; otherwise `reason` says what ended it (`close()`, the
   * caller's signal, the connection).
   */
  readonly ended: Promise<SubscriptionEnd>;
  /** Ends the subscription (modern: the listen request is cancelled; legacy: the URIs no other subscription holds are unsubscribed). */
  close(): void;
}

/** How a subscription ended. */
export interface SubscriptionEnd {
  graceful: boolean;
  reason: string;
}

/** Hears each notification of one subscription (the acknowledgment is not one of them). */
export type SubscriptionListener = (method: string, params: JsonObject | undefined) => void;

/** What the subscriptions take from their client. */
export interface SubscriptionHost {
  /** Whether the session speaks a modern version. */
  modern(): boolean;
  /** The server's capabilities. */
  serverCapabilities(): JsonObject | undefined;
  /** Sends a request; `onId` hears the JSON-RPC id it goes out with. */
  request(method: string, params: JsonObject | undefined, options: CallOptions | undefined, onId?: (id: RequestId) => void): Promise<JsonObject>;
  onNotification(method: string, fn: (params: JsonObject | undefined) => void): () => void;
  onClose(fn: (reason: string) => void): () => void;
  onSessionRenewed(fn: () => void): () => void;
  /** Where a listener's throw goes. */
  report(fn: () => void): void;
  /** The client's clock, and how long a listen may wait for its acknowledgment (the session's `requestTimeoutMs`; 0: no bound). */
  clock(): Clock;
  ackTimeoutMs(): number;
}

const UPDATED = "notifications/resources/updated";

/** The subscriptions of one client. */
export class ClientSubscriptions {
  /** Open modern subscriptions, by the JSON-RPC id of their listen (as `_meta` carries it). */
  private readonly modern = new Map<string | number, ModernSubscription>();
  /** Legacy: each URI some subscription holds. */
  private readonly uris = new Map<string, HeldUri>();
  /** Legacy: each URI whose last holder let go, until its `resources/unsubscribe` is answered (see {@link ClientSubscriptions.release}). */
  private readonly unsubscribing = new Map<string, Promise<void>>();
  private renewHook: (() => void) | undefined;

  constructor(private readonly host: SubscriptionHost) {}

  /** See {@link McpClient.listen}. */
  open(filter: SubscriptionFilter, fn: SubscriptionListener, options?: CallOptions): Promise<Subscription> {
    if (options?.signal?.aborted) return Promise.reject(new McpError({ code: ErrorCode.RequestCancelled, message: "aborted before the subscription was opened" }));
    return this.host.modern() ? this.openModern(filter, fn, options) : this.openLegacy(filter, fn, options);
  }

  /** A notification from the server: one that names an open subscription goes to it (the acknowledgment opens it). */
  deliver(method: string, params: JsonObject | undefined): void {
    const id = (params?._meta as JsonObject | undefined)?.[MetaKey.subscriptionId];
    if (typeof id !== "string" && typeof id !== "number") return;
    this.modern.get(id)?.heard(method, params);
  }

  private openModern(filter: SubscriptionFilter, fn: SubscriptionListener, options: CallOptions | undefined): Promise<Subscription> {
    const abort = new AbortController();
    let id: RequestId | undefined;
    // A field given as undefined is one not given (the wire has no undefined).
    const notifications: JsonObject = {};
    for (const [key, value] of Object.entries(filter)) if (value !== undefined) notifications[key] = value as JsonValue;
    const sub = new ModernSubscription(fn, abort, this.host, filterOf(notifications));
    const listen = this.host.request("subscriptions/listen", { notifications }, { timeoutMs: options?.timeoutMs, signal: abort.signal }, (sent) => {
      id = sent;
      this.modern.set(sent, sub);
    });
    sub.follow(listen, options?.signal, this.host.ackTimeoutMs(), () => {
      if (id !== undefined && this.modern.get(id) === sub) this.modern.delete(id);
    });
    return sub.opened;
  }

  private async openLegacy(filter: SubscriptionFilter, fn: SubscriptionListener, options: CallOptions | undefined): Promise<Subscription> {
    const host = this.host;
    const requested = filter.resourceSubscriptions ?? [];
    const agreed = agreedFilter(filter, host.serverCapabilities() ?? {}, requested.length);
    delete agreed.taskIds;
    const uris = agreed.resourceSubscriptions ?? [];
    const held: Array<[string, HeldUri]> = [];
    let settle!: (end: SubscriptionEnd) => void;
    const ended = new Promise<SubscriptionEnd>((r) => (settle = r));
    const stops: Array<() => void> = [];
    let over: string | undefined;
    const end = (reason: string): void => {
      if (over !== undefined) return;
      over = reason;
      for (const stop of stops) stop();
      for (const [uri, entry] of held) {
        entry.ends.delete(end);
        this.release(uri, entry);
      }
      settle({ graceful: false, reason });
    };
    // Before the first await: the connection may close, or the caller abort, while the URIs are subscribed.
    stops.push(host.onClose((reason) => end(`connection closed: ${reason}`)));
    const signal = options?.signal;
    if (signal !== undefined) {
      const onAbort = (): void => end("aborted by the caller's signal");
      signal.addEventListener("abort", onAbort, { once: true });
      stops.push(() => signal.removeEventListener("abort", onAbort));
    }
    // Not the caller's signal: a subscribe another subscription may share is not this one's to cancel (its abort ends this subscription alone).
    const bounds = { timeoutMs: options?.timeoutMs };
    const refused = new Set<string>();
    try {
      for (const uri of uris) {
        if (over !== undefined) break;
        const entry = this.hold(uri, bounds);
        held.push([uri, entry]);
        entry.ends.add(end);
        try {
          await entry.subscribed;
        } catch (e) {
          // The server's own refusal of one URI (an error it answered) leaves that URI out of
          // what is acknowledged, as a modern server leaves out what it will not honour; the
          // rest stands. Anything else (the connection, a timeout) fails the listen.
          if (!refusedByPeer(e)) throw e;
          held.pop();
          entry.ends.delete(end);
          this.release(uri, entry);
          refused.add(uri);
        }
      }
    } catch (e) {
      end(`resources/subscribe failed: ${thrownMessage(e)}`);
      throw e;
    }
    if (over !== undefined) throw new McpError({ code: signal?.aborted ? ErrorCode.RequestCancelled : ErrorCode.ConnectionClosed, message: over });
    if (refused.size > 0) agreed.resourceSubscriptions = uris.filter((uri) => !refused.has(uri));
    // An update's URI may be a sub-resource of a subscribed one (filterCovers).
    const pass = (method: string) => (params: JsonObject | undefined) => filterCovers(agreed, method, params) && host.report(() => fn(method, params));
    for (const [key, method] of LIST_CHANGED) if (agreed[key] === true) stops.push(host.onNotification(method, pass(method)));
    if ((agreed.resourceSubscriptions ?? []).length > 0) stops.push(host.onNotification(UPDATED, pass(UPDATED)));
    return { acknowledged: agreed, ended, close: () => end("closed by the client") };
  }

  /**
   * One more subscription holds `uri`, counted at once: the first sends `resources/subscribe`,
   * and the others wait on the same answer, so an unsubscribe can never overtake a
   * subscription still being made. A failed subscribe is forgotten (the next holder tries anew).
   * A URI whose last holder just let go may still have its `resources/unsubscribe` to send or
   * answer: the new subscribe waits for it, or the server would see subscribe, then
   * unsubscribe, and stay unsubscribed while this subscription is acknowledged with the URI.
   */
  private hold(uri: string, options: CallOptions): HeldUri {
    let entry = this.uris.get(uri);
    if (entry === undefined) {
      const pending = this.unsubscribing.get(uri);
      const subscribe = (): Promise<void> => this.host.request("resources/subscribe", { uri }, options).then(() => undefined);
      const made: HeldUri = { holders: 0, subscribed: pending === undefined ? subscribe() : pending.then(subscribe), ends: new Set() };
      made.subscribed.catch((e: unknown) => {
        if (this.uris.get(uri) !== made) return;
        this.uris.delete(uri);
        if (!refusedByPeer(e)) this.unsubscribe(uri, Promise.resolve());
      });
      this.uris.set(uri, (entry = made));
    }
    entry.holders++;
    // The server of a new HTTP session knows none of the old one's subscriptions. One it
    // will not take again ends the subscriptions holding it, which can listen anew: silence
    // would look like a resource that never changes.
    this.renewHook ??= this.host.onSessionRenewed(() => {
      for (const [held, entry] of this.uris) {
        this.host.request("resources/subscribe", { uri: held }, undefined).catch((e: unknown) => {
          for (const end of [...entry.ends]) end(`resources/subscribe ${held} failed in the new session: ${thrownMessage(e)}`);
        });
      }
    });
    return entry;
  }

  /**
   * A subscription lets go of `uri`: the last unsubscribes it, once its subscribe is settled.
   */
  private release(uri: string, entry: HeldUri): void {
    if (--entry.holders > 0 || this.uris.get(uri) !== entry) return;
    this.uris.delete(uri);
    this.unsubscribe(uri, entry.subscribed);
  }

  /**
   * Sends `resources/unsubscribe` for `uri` once its `subscribe` settles, unless the server
   * refused that subscribe (it holds nothing then). A subscribe that failed here, timed out
   * or cancelled, may have been taken all the same (2025-11-25 `basic/utilities/cancellation`:
   * a request may be processed before its cancellation arrives): left alone, the server would
   * send updates for the URI, and hold it, until the session ends. A failure of the
   * unsubscribe is of no consequence to anyone. Until it is answered the URI is
   * `unsubscribing`, which a new holder's subscribe waits for (see `hold`).
   */
  private unsubscribe(uri: string, subscribed: Promise<void>): void {
    const send = (): Promise<unknown> => this.host.request("resources/unsubscribe", { uri }, undefined);
    const gone: Promise<void> = subscribed
      .then(send, (e: unknown) => (refusedByPeer(e) ? undefined : send()))
      .then(() => undefined, () => undefined)
      .finally(() => this.unsubscribing.get(uri) === gone && this.unsubscribing.delete(uri));
    this.unsubscribing.set(uri, gone);
  }
}

/** Legacy: one URI's `resources/subscribe`, and how many subscriptions hold it. */
interface HeldUri {
  holders: number;
  subscribed: Promise<void>;
  /** How to end each subscription holding it. */
  ends: Set<(reason: string) => void>;
}

/** One open `subscriptions/listen`. */
class ModernSubscription {
  /** Resolves with the subscription at its acknowledgment, rejects if the listen fails first. */
  readonly opened: Promise<Subscription>;
  private accept!: (s: Subscription) => void;
  private refuse!: (e: unknown) => void;
  private acknowledged = false;
  private settle!: (end: SubscriptionEnd) => void;
  private readonly ended = new Promise<SubscriptionEnd>((r) => (this.settle = r));
  private closedBy: string | undefined;
  /** The error `listen()` rejects with when the acknowledgment did not come in time. */
  private timedOut: McpError | undefined;
  /** Bounds the wait for the acknowledgment (see {@link ModernSubscription.follow}). */
  private ackTimer: unknown = undefined;

  constructor(
    private readonly fn: SubscriptionListener,
    private readonly abort: AbortController,
    private readonly host: SubscriptionHost,
    /** What the listen asked for: the acknowledgment is read within it, as the kernel reads it (see `onOpenListen`). */
    private readonly requested: SubscriptionFilter,
  ) {
    this.opened = new Promise((resolve, reject) => ((this.accept = resolve), (this.refuse = reject)));
  }

  /**
   * Settles the subscription with its listen request; `forget` takes it out of the client's
   * table. A listen has no timeout once open, but its acknowledgment, the first message, is
   * awaited no longer than a request's answer (`ackMs`): a server that never sends one
   * (a connection gone half-open, say) would otherwise leave `listen()` pending for ever.
   */
  follow(listen: Promise<JsonObject>, signal: AbortSignal | undefined, ackMs: number, forget: () => void): void {
    const onAbort = (): void => this.close("aborted by the caller's signal");
    signal?.addEventListener("abort", onAbort, { once: true });
    const clock = this.host.clock();
    if (ackMs > 0) {
      this.ackTimer = clock.schedule(clock.now() + ackMs, () => {
        if (!this.acknowledged) this.close(`the server did not acknowledge the subscription within ${ackMs} ms`, ErrorCode.RequestTimeout);
      }, true);
    }
    listen.then(
      () => {
        // A graceful end (draft Graceful Closure), before an acknowledgment too: the server is shutting down.
        this.acknowledge({});
        this.settle({ graceful: true, reason: "the server ended the subscription" });
      },
      (e: unknown) => {
        if (!this.acknowledged) this.refuse(this.timedOut ?? e);
        this.settle({ graceful: false, reason: this.closedBy ?? thrownMessage(e) });
      },
    );
    void this.ended.then(() => {
      this.stopAckTimer();
      signal?.removeEventListener("abort", onAbort);
      forget();
    });
  }

  /** A notification tagged with this subscription's id. */
  heard(method: string, params: JsonObject | undefined): void {
    if (method === "notifications/subscriptions/acknowledged") {
      // What the server agreed to, within what was asked: the kernel drops whatever goes
      // beyond it, so a wider acknowledgment would promise notifications that never come.
      return this.acknowledge(filterOf(params?.notifications, this.requested));
    }
    // The server MUST NOT send one before the acknowledgment: such a one is not passed on.
    if (this.acknowledged) this.host.report(() => this.fn(method, params));
  }

  private acknowledge(agreed: SubscriptionFilter): void {
    if (this.acknowledged) return;
    this.acknowledged = true;
    this.stopAckTimer();
    this.accept({ acknowledged: agreed, ended: this.ended, close: () => this.close("closed by the client") });
  }

  private stopAckTimer(): void {
    if (this.ackTimer !== undefined) this.host.clock().cancel(this.ackTimer);
    this.ackTimer = undefined;
  }

  /** Ends the listen (cancelled at the server); `code` is the error `listen()` rejects with when it was not acknowledged yet. */
  private close(reason: string, code: number = ErrorCode.RequestCancelled): void {
    this.closedBy ??= reason;
    const e = new McpError({ code, message: reason });
    if (code !== ErrorCode.RequestCancelled) this.timedOut ??= e;
    this.abort.abort(e);
  }
}
