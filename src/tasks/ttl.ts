/**
 * Task lifetime: the TTL a receiver grants, when a task expires, and the queue of
 * expiry deadlines.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` ("TTL and Resource Management", "Resource
 * Management"); the extension's `ttlMs` (SEP-2663, "Tasks", "Task Polling"). A requestor
 * MAY ask for a `ttl` (ms from creation); receivers MAY override it and SHOULD enforce a
 * maximum; the actual value, or `null` for unlimited, is reported in every task; after it
 * has elapsed the receiver MAY delete the task and its results, whatever the status.
 *
 * Theory of operation. A task with TTL `t` created at `c` expires at `c + t` exactly: at
 * `now >= c + t` it is gone, at `c + t - 1` it is still there. Deadlines live in a binary
 * min-heap of `[deadline, seq, taskId]` triples, plain JSON like the rest of the state.
 * An entry goes stale when its task's deadline changes (the extension lets `ttlMs`
 * change); stale entries are skipped when they surface and the heap is rebuilt when they
 * outnumber live tasks, so the heap stays proportional to the live table.
 */

/** One heap entry: when, which creation (`seq` tells a reused id apart), which task. */
export type DeadlineEntry = [deadline: number, seq: number, taskId: string];

/** How a receiver grants TTLs. */
export interface TtlPolicy {
  /** TTL when the request asks for none; `null` for unlimited (still capped by `maxTtlMs`). */
  defaultTtlMs: number | null;
  /** Upper bound on any granted TTL; `null` for no bound. */
  maxTtlMs: number | null;
}

/** The latest time a task may expire: the end of Date's range (ms since the epoch), past which no ISO 8601 time exists. */
export const MAX_EXPIRY = 8.64e15;

/**
 * The TTL to grant for a request that asked for `requested` ms (anything but a finite
 * non-negative number counts as not asking): the request or the default, capped at the
 * maximum. `null` means unlimited, which only happens when neither default nor maximum
 * bounds it. A task created at `now` is also made to expire by {@link MAX_EXPIRY}: without
 * a maximum a requestor's `1e20` (no safe integer) or `9e15` (an expiry past Date's range)
 * would be granted, and the record holding it could never be restored from a snapshot or
 * a store.
 */
export function grantTtl(requested: unknown, policy: TtlPolicy, now = 0): number | null {
  let ttl: number | null =
    typeof requested === "number" && Number.isFinite(requested) && requested >= 0 ? Math.floor(requested) : policy.defaultTtlMs;
  if (policy.maxTtlMs !== null && (ttl === null || ttl > policy.maxTtlMs)) ttl = policy.maxTtlMs;
  return fitTtl(ttl, now);
}

/** `ttl`, lowered so that a task created at `createdAt` expires by {@link MAX_EXPIRY} (see {@link grantTtl}). */
export function fitTtl(ttl: number | null, createdAt: number): number | null {
  if (ttl === null) return null;
  const room = Math.max(0, Math.floor(MAX_EXPIRY - createdAt));
  return ttl > room ? room : ttl;
}

/** When a task created at `createdAt` with `ttl` expires, or `null` when never. */
export function expiryOf(createdAt: number, ttl: number | null): number | null {
  return ttl === null ? null : createdAt + ttl;
}

/** True when a task expiring at `expiresAt` is expired at `now` (the deadline itself counts). */
export function isExpired(expiresAt: number | null, now: number): boolean {
  return expiresAt !== null && now >= expiresAt;
}

function less(a: DeadlineEntry, b: DeadlineEntry): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

/** Adds an entry to the heap. */
export function heapPush(heap: DeadlineEntry[], entry: DeadlineEntry): void {
  let i = heap.length;
  heap.push(entry);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!less(heap[i], heap[parent])) break;
    const t = heap[i];
    heap[i] = heap[parent];
    heap[parent] = t;
    i = parent;
  }
}

/** Removes and returns the earliest entry (the heap must not be empty). */
export function heapPop(heap: DeadlineEntry[]): DeadlineEntry {
  const top = heap[0];
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    siftDown(heap, 0);
  }
  return top;
}

function siftDown(heap: DeadlineEntry[], i: number): void {
  const n = heap.length;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < n && less(heap[l], heap[m])) m = l;
    if (r < n && less(heap[r], heap[m])) m = r;
    if (m === i) return;
    const t = heap[i];
    heap[i] = heap[m];
    heap[m] = t;
    i = m;
  }
}

/** Keeps the entries `live` accepts and restores the heap order, in place. */
export function heapRebuild(heap: DeadlineEntry[], live: (e: DeadlineEntry) => boolean): void {
  let w = 0;
  for (let r = 0; r < heap.length; r++) if (live(heap[r])) heap[w++] = heap[r];
  heap.length = w;
  for (let i = (w >> 1) - 1; i >= 0; i--) siftDown(heap, i);
}
