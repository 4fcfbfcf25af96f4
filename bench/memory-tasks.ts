/**
 * Memory rows for the state that lives longer than a request (issue 10, "Memory"): heap per
 * live task in the task table, and per open `subscriptions/listen` stream in a modern
 * server session. Measured like `memory.ts`: used-heap growth between two fully collected
 * points, divided by the items built in between, everything kept reachable.
 *
 * - live task: one table (`src/tasks/table.ts`) with `ops` 2025-11-25 tasks created by 50
 *   owners, each still `working`; bytes per task, the record, its deadline and owner
 *   bookkeeping included. Limit 1 KB.
 * - open subscription: one modern server session with `ops` listen requests received as
 *   text, each acknowledged and held open; bytes per subscription. Limit 1 KB.
 */
import { defineMemoryBench, usedHeapAfterGc } from "./harness.js";
import { createTaskTable, stepTasks } from "../src/tasks/table.js";
import { createSession, step } from "../src/session/session.js";
import type { TaskTableState } from "../src/tasks/types.js";
import type { SessionState } from "../src/session/types.js";

/** Keeps built values reachable across the second heap reading. */
let keep: unknown;

function createTasks(table: TaskTableState, from: number, n: number): void {
  for (let i = from; i < from + n; i++) {
    const { outputs } = stepTasks(table, { type: "create", now: 1_700_000_000_000 + i, id: i, owner: { session: `session-${i % 50}` }, era: "legacy", taskId: `task-${i.toString(16).padStart(32, "0")}`, method: "tools/call", ttl: 3_600_000 });
    if (outputs[0]?.type !== "reply") throw new Error(`task ${i} was not created: ${JSON.stringify(outputs[0])}`);
  }
}

defineMemoryBench({
  name: "memory/live task in the task table (per task)",
  maxBytes: 1024,
  ops: 5000,
  quickOps: 2000,
  measure(ops) {
    const table = createTaskTable({ maxTasks: ops + 100, maxTasksPerOwner: ops });
    createTasks(table, 0, 50); // warms the path up
    const before = usedHeapAfterGc();
    createTasks(table, 50, ops);
    const after = usedHeapAfterGc();
    keep = table;
    return (after - before) / ops;
  },
});

function listen(session: SessionState, from: number, n: number): void {
  for (let i = from; i < from + n; i++) {
    const request = { jsonrpc: "2.0", id: i, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } };
    const { outputs } = step(session, { type: "receive", now: 0, data: JSON.stringify(request) });
    if (!outputs.some((o) => o.type === "send" && "method" in o.message && o.message.method === "notifications/subscriptions/acknowledged")) throw new Error(`listen ${i} was not acknowledged`);
  }
}

defineMemoryBench({
  name: "memory/open subscriptions/listen stream, modern server session (per subscription)",
  maxBytes: 1024,
  ops: 5000,
  quickOps: 2000,
  measure(ops) {
    const session = createSession({ role: "server", info: { name: "bench", version: "1" }, capabilities: { tools: { listChanged: true } }, versions: ["2026-07-28"], maxSubscriptions: ops + 100, maxInboundRequests: ops + 100 });
    listen(session, -50, 50);
    const before = usedHeapAfterGc();
    listen(session, 0, ops);
    const after = usedHeapAfterGc();
    if (session.subscriptionCount !== ops + 50) throw new Error(`expected ${ops + 50} open subscriptions, got ${session.subscriptionCount}`);
    keep = session;
    return (after - before) / ops;
  },
});
