/**
 * Fuzz target for the session reducer under tasks: the `session` target's conversations
 * and invariants (session-target.ts `runConversation`), with traffic of both task dialects.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` (task-augmented requests, `CreateTaskResult`,
 * `notifications/tasks/status`, "progressToken ... remains valid throughout the task
 * lifetime", cancelled with `tasks/cancel`, never `notifications/cancelled`), SEP-2663 (the
 * `io.modelcontextprotocol/tasks` extension of 2026-07-28: `resultType: "task"`, a
 * cancelled call's task answer cancelled with `tasks/cancel`), `basic/utilities/progress`
 * (no progress after the operation completed).
 *
 * The `session` target never declares tasks, so none of this is reached there: a request is
 * never task-augmented, no answer is a `CreateTaskResult`, no token outlives its request,
 * no request is kept as `abandoned-task`. Here the setups declare tasks (or the extension)
 * on both sides, and the inputs mix the `session` target's with: task-augmented requests
 * both ways (`params.task`, with progress), task answers in both shapes (valid, odd status,
 * overlong or non-string ids), `tasks/*` requests and their answers, status notifications,
 * progress under kept tokens, the application's `task-progress`, `changed` for a task and
 * `notify`, cancels and clock jumps past the deadlines.
 */
import type { SessionInput } from "../../src/session/types.js";
import { pick } from "../harness/random.js";
import { int, mutateValue, randomJson, type Rng } from "./generate.js";
import { plausible, randomInput, runConversation } from "./session-target.js";
import type { FuzzTarget } from "./target.js";

const TASK_SETUPS = ["task-server", "task-client", "ext-client", "ext-server"];
const V = "2025-11-25";
const MV = "2026-07-28";
const SERVER_TASK_CAPS = { tools: { listChanged: true }, resources: { subscribe: true }, logging: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
const CLIENT_TASK_CAPS = { roots: {}, sampling: {}, elicitation: { form: {} }, tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } } };
const EXT = { "io.modelcontextprotocol/tasks": {} };
const META = { "io.modelcontextprotocol/protocolVersion": MV, "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: EXT }, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } };
const IDS = [0, 1, 2, 3, 4, 5, "a", "1"];
const TASK_IDS = ["t1", "t1", "t1", "t2", "t2", "", "x".repeat(300)];
const STATUSES = ["working", "input_required", "completed", "failed", "cancelled", "done", 3];
const METHODS = ["tools/call", "sampling/createMessage", "elicitation/create", "tasks/get", "tasks/result", "tasks/list", "tasks/cancel", "tasks/update", "ping", "tools/list"];
const T0 = "2025-01-01T00:00:00Z";

function task(r: Rng, modern: boolean): Record<string, unknown> {
  const t: Record<string, unknown> = { taskId: pick(r, TASK_IDS), status: pick(r, STATUSES), createdAt: T0, lastUpdatedAt: T0 };
  if (modern) t.ttlMs = pick(r, [null, 1000]);
  else t.ttl = pick(r, [null, 1000]);
  if (r() < 0.5) t[modern ? "pollIntervalMs" : "pollInterval"] = 100;
  return t;
}

function requestParams(r: Rng, method: string): Record<string, unknown> {
  const params: Record<string, unknown> =
    method === "tools/call" ? { name: "t", arguments: {} }
    : method === "sampling/createMessage" ? { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 1 }
    : method === "elicitation/create" ? { message: "m", requestedSchema: { type: "object", properties: {} } }
    : method.startsWith("tasks/") && method !== "tasks/list" ? { taskId: pick(r, TASK_IDS) }
    : {};
  if (r() < 0.6) params.task = r() < 0.8 ? { ttl: 1000 } : pick(r, [{}, { ttl: null }, { ttl: "x" }]);
  return params;
}

/** Peer traffic about tasks, both dialects. `sent` counts the application's requests so far: answers mostly name a recent one. */
function taskTraffic(r: Rng, sent: number): unknown {
  const k = r();
  const id = r() < 0.6 && sent > 0 ? Math.max(0, sent - int(r, 3)) : pick(r, IDS);
  if (k < 0.08) return { jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: V, capabilities: CLIENT_TASK_CAPS, clientInfo: { name: "c", version: "1" } } };
  if (k < 0.14) return { jsonrpc: "2.0", id, result: { protocolVersion: V, capabilities: SERVER_TASK_CAPS, serverInfo: { name: "s", version: "1" } } };
  if (k < 0.18) return { jsonrpc: "2.0", id, result: { resultType: "complete", supportedVersions: [MV], capabilities: { ...SERVER_TASK_CAPS, extensions: EXT }, serverInfo: { name: "s", version: "1" }, ttlMs: 0, cacheScope: "private" } };
  if (k < 0.22) return { jsonrpc: "2.0", method: "notifications/initialized" };
  // CreateTaskResult: 2025-11-25 nested, the extension flat.
  if (k < 0.34) return { jsonrpc: "2.0", id, result: { task: task(r, false) } };
  if (k < 0.42) return { jsonrpc: "2.0", id, result: { resultType: "task", ...task(r, true) } };
  // tasks/get, tasks/cancel answers; tasks/result answers naming the related task.
  if (k < 0.48) return { jsonrpc: "2.0", id, result: r() < 0.5 ? task(r, false) : { resultType: "complete", ...task(r, true) } };
  if (k < 0.52) return { jsonrpc: "2.0", id, result: { content: [], _meta: { "io.modelcontextprotocol/related-task": { taskId: pick(r, TASK_IDS) } } } };
  if (k < 0.58) return { jsonrpc: "2.0", method: pick(r, ["notifications/tasks/status", "notifications/tasks"]), params: task(r, r() < 0.5) };
  if (k < 0.66) return { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: pick(r, [0, 1, 2, 3, 4, "t1"]), progress: int(r, 20), total: 20 } };
  if (k < 0.8) {
    const method = pick(r, METHODS);
    const params = requestParams(r, method);
    if (r() < 0.5) params._meta = r() < 0.6 ? META : { progressToken: pick(r, [1, "p"]) };
    return { jsonrpc: "2.0", id, method, params };
  }
  if (k < 0.84) return { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } };
  if (k < 0.88) return { jsonrpc: "2.0", id, error: { code: pick(r, [-32602, -32603, -32601, -32021]), message: "x" } };
  if (k < 0.95) return mutateValue(r, { jsonrpc: "2.0", id, result: { task: task(r, false) } });
  return randomJson(r, 3);
}

/** What the application asks, by role: mostly what a task may wrap, then the tasks/* requests. */
const CLIENT_ASKS = ["tools/call", "tools/call", "tools/call", "tasks/get", "tasks/result", "tasks/cancel", "tasks/list", "tasks/update", "ping"];
const SERVER_ASKS = ["sampling/createMessage", "sampling/createMessage", "elicitation/create", "elicitation/create", "tasks/get", "tasks/result", "tasks/cancel", "tasks/list", "ping"];

function taskInput(r: Rng, now: number, sent: { n: number; client: boolean }): SessionInput {
  const k = r();
  if (k < 0.15) return randomInput(r, now);
  if (k < 0.55) return { type: "receive", now, data: JSON.stringify(r() < 0.85 ? taskTraffic(r, sent.n) : plausible(r)) ?? "null" };
  if (k < 0.68) {
    const method = r() < 0.9 ? pick(r, sent.client ? CLIENT_ASKS : SERVER_ASKS) : pick(r, METHODS);
    sent.n++;
    return { type: "request", now, method, params: requestParams(r, method) as never, progress: r() < 0.6, timeoutMs: pick(r, [undefined, undefined, 0, 50]) };
  }
  if (k < 0.72) return { type: "open", now };
  if (k < 0.78) return { type: "respond", now, id: pick(r, IDS), result: pick(r, [{ task: task(r, false) }, { resultType: "task", ...task(r, true) }, { content: [] }, task(r, false)]) as never };
  if (k < 0.82) return { type: "cancel", now, id: pick(r, [0, 1, 2, 3, 4, 5, 6]) };
  if (k < 0.85) return { type: "task-progress", now, token: pick(r, [1, "p", 2.5, null]) as never, progress: int(r, 10), total: 10 };
  if (k < 0.87) return { type: "changed", now, what: "task", taskId: pick(r, TASK_IDS), task: task(r, r() < 0.5) as never };
  if (k < 0.89) return { type: "notify", now, method: pick(r, ["notifications/tasks/status", "notifications/tasks", "notifications/message"]), params: task(r, r() < 0.5) as never, related: pick(r, [undefined, 1, "a"]) };
  if (k < 0.995) return { type: "tick", now };
  return { type: "closed", now };
}

/** Mostly a completed handshake first: the task paths lie past it. */
function prelude(r: Rng, setup: string): SessionInput[] {
  if (r() < 0.15) return [];
  const receive = (value: unknown): SessionInput => ({ type: "receive", now: 0, data: JSON.stringify(value) });
  switch (setup) {
    case "task-client":
      return [{ type: "open", now: 0 }, receive({ jsonrpc: "2.0", id: 0, result: { protocolVersion: V, capabilities: SERVER_TASK_CAPS, serverInfo: { name: "s", version: "1" } } })];
    case "ext-client":
      return [{ type: "open", now: 0 }, receive({ jsonrpc: "2.0", id: 0, result: { resultType: "complete", supportedVersions: [MV], capabilities: { ...SERVER_TASK_CAPS, extensions: EXT }, serverInfo: { name: "s", version: "1" }, ttlMs: 0, cacheScope: "private" } })];
    default:
      // ext-server: a 2025-11-25 session beside the modern requests, or none.
      if (setup === "ext-server" && r() < 0.5) return [];
      return [receive({ jsonrpc: "2.0", id: pick(r, IDS), method: "initialize", params: { protocolVersion: V, capabilities: CLIENT_TASK_CAPS, clientInfo: { name: "c", version: "1" } } }), receive({ jsonrpc: "2.0", method: "notifications/initialized" })];
  }
}

/** The session reducer over whole conversations, with tasks declared. */
export const sessionTasks: FuzzTarget<{ setup: string; steps: SessionInput[] }> = {
  name: "session-tasks",
  spec: "basic/utilities/tasks + SEP-2663 + progress: every request answered once, no progress after the task ended, nothing leaks, state stays JSON",
  generate(r: Rng) {
    const setup = pick(r, TASK_SETUPS);
    const steps: SessionInput[] = prelude(r, setup);
    let now = 0;
    // The application's requests are numbered from 1 (a client's initialize or probe is 0).
    const sent = { n: 0, client: setup.endsWith("client") };
    for (let i = 10 + int(r, 70); i > 0; i--) steps.push(taskInput(r, (now += int(r, 150)), sent));
    return { setup, steps };
  },
  check: runConversation,
};
