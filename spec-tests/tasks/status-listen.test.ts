// Spec: SEP-2663 "Task Status Notifications" (the io.modelcontextprotocol/tasks extension
// of 2026-07-28) over draft basic/patterns/subscriptions and basic/transports/streamable-http:
// a client listens for `notifications/tasks` by naming task ids in `subscriptions/listen`;
// the acknowledgment lists the ids the server agreed to; each notification is the full task
// as `tasks/get` shows it, tagged with the subscription id; asking without declaring the
// extension MUST be -32021; another principal's listener hears nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "../../src/api/server.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createHttpHandler, type HttpHandler } from "../../src/transports/http-server.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { TASKS_EXTENSION } from "../../src/model/meta.js";
import { deferred, SseReader } from "../http/helpers.js";
import { answerOf, bodyOf, modernRequest, postModern } from "../http/modern-helpers.js";

const EXT_META = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } } };

function serve(principalOf?: (r: Request) => string | undefined): { handler: HttpHandler; finish(): void } {
  const gate = deferred();
  const server = new McpServer({ name: "listen-tasks", version: "1.0.0" }, { clock: new ManualClock(), session: { versions: ["2026-07-28", "2025-11-25"] }, tasks: {} });
  server.tool("job", { execution: { taskSupport: "optional" } }, async () => {
    await gate.promise;
    return { content: [{ type: "text", text: "done" }] };
  });
  const handler = createHttpHandler({ createSession: server.httpSession({ principalOf }) });
  return { handler, finish: () => gate.resolve() };
}

/** Null when nothing is queued on `reader` (every push of a change is written before the change returns). */
async function queued(reader: SseReader): Promise<unknown> {
  const next = reader.message().then((e) => e.msg, () => null);
  return Promise.race([next, new Promise((r) => setImmediate(() => r(null)))]);
}

async function createTask(handler: HttpHandler, headers: Record<string, string> = {}): Promise<string> {
  const created = await answerOf(await postModern(handler, modernRequest(1, "tools/call", { name: "job", arguments: {} }, EXT_META), headers));
  assert.equal(created.result.resultType, "task");
  return created.result.taskId;
}

async function listen(handler: HttpHandler, id: string, taskIds: string[], headers: Record<string, string> = {}): Promise<SseReader> {
  const r = await postModern(handler, modernRequest(id, "subscriptions/listen", { notifications: { taskIds } }, EXT_META), headers);
  assert.equal(r.headers.get("content-type"), "text/event-stream");
  return new SseReader(r);
}

test("SEP-2663 Task Status Notifications: a listener naming a task gets the acknowledgment with the agreed taskIds, then notifications/tasks with the full task, tagged with its subscription id", async () => {
  const { handler, finish } = serve();
  const taskId = await createTask(handler);
  const reader = await listen(handler, "L", [taskId, taskId, 7 as never]);
  const ack = await reader.message();
  assert.equal(ack.msg.method, "notifications/subscriptions/acknowledged");
  assert.deepEqual(ack.msg.params.notifications, { taskIds: [taskId] }, "distinct string ids only");
  finish();
  const n = await reader.message();
  assert.equal(n.msg.method, "notifications/tasks");
  assert.equal(n.msg.params.taskId, taskId);
  assert.equal(n.msg.params.status, "completed");
  assert.deepEqual(n.msg.params.result.content, [{ type: "text", text: "done" }], "identical to what tasks/get would return: the result inline");
  assert.equal(n.msg.params._meta["io.modelcontextprotocol/subscriptionId"], "L");
  const polled = await answerOf(await postModern(handler, modernRequest(2, "tasks/get", { taskId }, EXT_META), { "mcp-name": taskId }));
  for (const k of ["taskId", "status", "createdAt", "lastUpdatedAt", "ttlMs"]) assert.deepEqual(n.msg.params[k], polled.result[k], k);
  await reader.cancel();
});

test("SEP-2663 Task Status Notifications: a listener that did not name the task hears nothing about it", async () => {
  const { handler, finish } = serve();
  const taskId = await createTask(handler);
  const other = await listen(handler, "O", ["some-other-task"]);
  await other.message();
  const named = await listen(handler, "N", [taskId]);
  await named.message();
  finish();
  assert.equal((await named.message()).msg.params.taskId, taskId);
  assert.equal(await queued(other), null, "no push for a task the listener did not name");
  await other.cancel();
  await named.cancel();
});

test("SEP-2663: a client requesting task status notifications without declaring the extension MUST get -32021 naming it", async () => {
  const { handler } = serve();
  const r = await postModern(handler, modernRequest("X", "subscriptions/listen", { notifications: { taskIds: ["t"] } }));
  assert.equal(r.status, 400);
  const b = await bodyOf(r);
  assert.equal(b.error.code, ErrorCode.MissingRequiredClientCapability);
  assert.deepEqual(b.error.data.requiredCapabilities, { extensions: { [TASKS_EXTENSION]: {} } });
});

test("SEP-2663 / tasks isolation: a listener authenticated as another principal never hears of a task it does not own", async () => {
  const { handler, finish } = serve((r) => r.headers.get("x-user") ?? undefined);
  const taskId = await createTask(handler, { "x-user": "alice" });
  const mallory = await listen(handler, "M", [taskId], { "x-user": "mallory" });
  await mallory.message();
  const alice = await listen(handler, "A", [taskId], { "x-user": "alice" });
  await alice.message();
  finish();
  assert.equal((await alice.message()).msg.params.status, "completed");
  assert.equal(await queued(mallory), null, "nothing for a listener of another principal");
  await alice.cancel();
  await mallory.cancel();
});
