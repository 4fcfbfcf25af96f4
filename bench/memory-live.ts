/**
 * Memory rows for long-lived state through the public API (issue 10, "Memory"): heap per
 * live task and per open subscription with {@link McpServer} and {@link McpClient}
 * connected over `createMemoryPair` (messages cross as text), next to memory.ts's idle
 * session and in-flight rows and memory-tasks.ts's kernel-level figures.
 *
 * Each figure is the used-heap growth between two fully collected points (see
 * `usedHeapAfterGc`), divided by the items opened in between, everything kept alive, the
 * whole process counted: both ends, the task runtime, its store, timers, promises.
 *
 * - live task: a legacy (2025-11-25) server with the task runtime and one tool declared
 *   `execution.taskSupport: "optional"` whose handler waits on a gate; the client calls it
 *   as a task `ops` times (100 at a time) and every task stays `working`, its handler
 *   parked. Bytes per task: the table record, the store's copy, the run (abort controller,
 *   params, a request context of nine closures) and the parked handler's async frames.
 *   Limit 8 KB: a regression guard about 1.3× the first measurement (≈ 6 KB), not a
 *   target of the issue's; the kernel's own record is memory-tasks.ts's ≈ 0.6 KB.
 * - open subscription: a modern (2026-07-28) pair; the client opens `ops` concurrent
 *   `subscriptions/listen` requests (`toolsListChanged`), each acknowledged and held open.
 *   Bytes per subscription, client and server together (the client's pending request with
 *   its abort signal, the server's open stream). Limit 3 KB, likewise a guard (≈ 2.1 KB
 *   measured; the server session's own entry is memory-tasks.ts's ≈ 0.3 KB).
 *
 * Both ends allow more requests, tasks and subscriptions than the defaults (1024 in
 * flight, 100 tasks per requestor, 64 subscriptions), so `ops` of each fit in one session.
 */
import { McpClient } from "../src/api/client.js";
import { McpServer } from "../src/api/server.js";
import { createMemoryPair } from "../src/transports/memory.js";
import { defineMemoryBench, usedHeapAfterGc } from "./harness.js";

const INFO = { name: "bench", version: "1.0.0" };

/** Keeps built values reachable across the second heap reading. */
let keep: unknown;

/** Lets queued promise jobs and immediate callbacks run until `done()` holds (bounded). */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise<void>((resolve) => setImmediate(resolve));
  if (!done()) throw new Error(`timed out waiting for ${what}`);
}

/** A legacy server with the task runtime and a parked task tool, and a client connected in memory. */
async function taskPair(capacity: number) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let started = 0;
  const server = new McpServer(INFO, {
    session: { versions: ["2025-11-25"], maxInboundRequests: capacity },
    tasks: { maxTasks: capacity, maxTasksPerOwner: capacity },
  });
  server.tool("park", { description: "Works until the bench releases it", execution: { taskSupport: "optional" } }, async () => {
    started++;
    await gate;
    return { content: [{ type: "text", text: "done" }] };
  });
  const [s, c] = createMemoryPair();
  server.connect(s);
  const client = new McpClient(INFO, { session: { versions: ["2025-11-25"], maxOutboundRequests: capacity } });
  await client.connect(c);
  return {
    client,
    started: () => started,
    close() {
      release();
      client.close();
      server.close();
    },
  };
}

/**
 * Heap each of `ops` more items retains: `open(n)` adds n items to `pair` (50 first, to
 * warm the path up), between two readings after a full collection, `pair` kept alive.
 */
async function heapPerItem(pair: unknown, ops: number, open: (n: number) => Promise<void>): Promise<number> {
  await open(50);
  const before = usedHeapAfterGc();
  await open(ops);
  const after = usedHeapAfterGc();
  keep = pair;
  return (after - before) / ops;
}

/** Creates `n` tasks, 100 calls at a time, and waits until every handler is parked. */
async function createTasks(p: Awaited<ReturnType<typeof taskPair>>, n: number): Promise<void> {
  const target = p.started() + n;
  for (let done = 0; done < n; done += 100) {
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < Math.min(100, n - done); i++) calls.push(p.client.callToolAsTask("park", {}, { ttl: 3_600_000 }));
    for (const r of await Promise.all(calls)) if (p.client.taskIdOf(r as never) === undefined) throw new Error(`not a CreateTaskResult: ${JSON.stringify(r)}`);
  }
  await until(() => p.started() >= target, `${n} parked task handlers`);
}

defineMemoryBench({
  name: "memory/live task, McpServer task tool over a memory pair, legacy (per task)",
  // About 4.4 KB measured; 5.5 KB while the creating request's answered context kept its
  // AbortController and listeners alive with the task (endpoint.ts Served.answered).
  maxBytes: 5120,
  ops: 3000,
  quickOps: 1000,
  async measure(ops) {
    const p = await taskPair(ops + 200);
    try {
      return await heapPerItem(p, ops, (n) => createTasks(p, n));
    } finally {
      p.close();
    }
  },
});

/** A modern pair that allows `capacity` open subscriptions. */
async function listenPair(capacity: number) {
  const server = new McpServer(INFO, { session: { versions: ["2026-07-28"], maxInboundRequests: capacity, maxSubscriptions: capacity }, capabilities: { tools: { listChanged: true } } });
  server.tool("noop", { description: "Never called" }, () => ({ content: [] }));
  const [s, c] = createMemoryPair();
  server.connect(s);
  const client = new McpClient(INFO, { session: { versions: ["2026-07-28"], maxOutboundRequests: capacity } });
  await client.connect(c);
  let acknowledged = 0;
  client.onNotification("notifications/subscriptions/acknowledged", () => void acknowledged++);
  const controllers: AbortController[] = [];
  const streams: Promise<unknown>[] = [];
  return {
    acknowledged: () => acknowledged,
    /** Opens `n` listen requests at once and waits for their acknowledgments. */
    async listen(n: number): Promise<void> {
      const target = acknowledged + n;
      for (let i = 0; i < n; i++) {
        const controller = new AbortController();
        controllers.push(controller);
        // Cancelled at close: the rejection is the expected end of the stream.
        streams.push(client.request("subscriptions/listen", { notifications: { toolsListChanged: true } }, { signal: controller.signal }).catch(() => undefined));
      }
      await until(() => acknowledged >= target, `${n} acknowledgments`);
    },
    async close(): Promise<void> {
      for (const c of controllers) c.abort();
      await Promise.all(streams);
      client.close();
      server.close();
    },
  };
}

defineMemoryBench({
  name: "memory/open subscriptions/listen, McpServer + McpClient over a memory pair, modern (per subscription)",
  maxBytes: 3072,
  ops: 3000,
  quickOps: 1000,
  async measure(ops) {
    const p = await listenPair(ops + 200);
    try {
      return await heapPerItem(p, ops, (n) => p.listen(n));
    } finally {
      await p.close();
    }
  },
});
