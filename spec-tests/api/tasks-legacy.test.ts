// Spec: 2025-11-25 basic/utilities/tasks ("Capabilities", "Tool-Level Negotiation",
// "Creating Tasks", "Getting Tasks", "Retrieving Task Results", "Listing Tasks",
// "Cancelling Tasks", "Task Notifications", "TTL and Resource Management",
// "Task Isolation and Access Control", "Protocol Errors", "Input Required Status").
// McpServer tools run as tasks for an McpClient, over the memory pair on a ManualClock.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, deferred, rawClient, rejection, SERVER } from "./setup.js";
import { ManualClock } from "../../src/driver/clock.js";
import { McpServer } from "../../src/api/server.js";
import { inputRequired } from "../../src/api/mrtr.js";
import { ProtocolError } from "../../src/api/server/errors.js";
import type { ServerContext } from "../../src/api/context.js";
import type { CallToolResult, CreateTaskResult, ElicitResult } from "../../src/api/types.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";

const LEGACY = { session: { versions: ["2025-11-25" as const] } };
const RELATED = "io.modelcontextprotocol/related-task";

const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });

/** A server with a task tool whose completion the test controls, plus a forbidden and a required one. */
function jobs(s: McpServer, gate: { promise: Promise<void> }, seen: ServerContext[] = []): void {
  s.tool("job", { execution: { taskSupport: "optional" } }, async (args, ctx) => {
    seen.push(ctx);
    await gate.promise;
    return text(`job ${String(args.n ?? "")} done`);
  });
  s.tool("plain", {}, () => text("plain"));
  s.tool("must", { execution: { taskSupport: "required" } }, () => text("must"));
}

async function flush(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

test("tasks: a task's createdAt and lastUpdatedAt come from McpServerOptions.wallClock when one is given (a recorded process's readings, replayed)", async () => {
  const gate = deferred();
  const c = await connect((s) => jobs(s, gate), LEGACY, { ...LEGACY, wallClock: () => Date.UTC(2030, 0, 1) });
  const { task } = (await c.client.callToolAsTask("job")) as CreateTaskResult;
  assert.equal(task!.createdAt, "2030-01-01T00:00:00.000Z");
  assert.equal(task!.lastUpdatedAt, "2030-01-01T00:00:00.000Z");
  gate.resolve();
});

test("tasks: a server with a task-capable tool MUST declare tasks.requests.tools.call (and tasks.list, tasks.cancel)", async () => {
  const gate = deferred();
  const c = await connect((s) => jobs(s, gate), LEGACY, LEGACY);
  const caps = c.client.serverCapabilities as any;
  assert.deepEqual(caps.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  const only = await connect((s) => s.tool("plain", {}, () => text("plain")), LEGACY, LEGACY);
  assert.equal((only.client.serverCapabilities as any).tasks, undefined, "no task tool, no tasks capability");
});

test("tasks: a task-augmented tools/call MUST be answered with a CreateTaskResult in working status, then tasks/get, tasks/result carry the outcome", async () => {
  const gate = deferred();
  const c = await connect((s) => jobs(s, gate), LEGACY, LEGACY);
  const created = (await c.client.callToolAsTask("job", { n: 1 }, { ttl: 60_000 })) as CreateTaskResult;
  const task = created.task!;
  assert.equal(task.status, "working", "Tasks MUST begin in the working status");
  assert.equal(task.ttl, 60_000, "the actual ttl is reported");
  assert.equal(typeof task.taskId, "string");
  assert.ok(task.taskId.length >= 32, "an unguessable id");
  const got = await c.client.getTask(task.taskId);
  assert.equal(got.status, "working");
  const result = c.client.getTaskResult(task.taskId);
  let done = false;
  void result.then(() => (done = true));
  await flush();
  assert.equal(done, false, "tasks/result MUST block until the task is terminal");
  gate.resolve();
  const r = (await result) as JsonObject;
  assert.deepEqual(r.content, [{ type: "text", text: "job 1 done" }]);
  assert.deepEqual((r._meta as JsonObject)[RELATED], { taskId: task.taskId }, "tasks/result MUST carry related-task _meta");
  assert.equal((await c.client.getTask(task.taskId)).status, "completed");
});

test("tasks: forbidden taskSupport asked for a task, and required taskSupport called plainly, are -32601", async () => {
  const gate = deferred();
  const c = await connect((s) => jobs(s, gate), LEGACY, LEGACY);
  assert.equal((await rejection(c.client.callToolAsTask("plain"))).code, -32601);
  assert.equal((await rejection(c.client.callTool("must"))).code, -32601);
  const ok = (await c.client.callToolAsTask("must")) as CreateTaskResult;
  assert.equal(ok.task?.status, "working");
  // Without `task`, an optional tool runs normally.
  gate.resolve();
  assert.deepEqual((await c.client.callTool("job", { n: 2 })).content, [{ type: "text", text: "job 2 done" }]);
});

test("tasks: a receiver that did not declare tasks MUST process a task-augmented request normally", async () => {
  const c = await connect((s) => s.tool("plain", {}, () => text("plain")), LEGACY, LEGACY);
  const r = (await c.client.request("tools/call", { name: "plain", task: { ttl: 5 } })) as CallToolResult;
  assert.deepEqual(r.content, [{ type: "text", text: "plain" }]);
});

test("tasks: unknown task ids are -32602 for tasks/get, tasks/result and tasks/cancel", async () => {
  const gate = deferred();
  const c = await connect((s) => jobs(s, gate), LEGACY, LEGACY);
  for (const p of [c.client.getTask("nope"), c.client.getTaskResult("nope"), c.client.cancelTask("nope")]) assert.equal((await rejection(p)).code, -32602);
});

test("tasks: tasks/cancel MUST move the task to cancelled before answering; cancelling a terminal task is -32602; the work's signal aborts", async () => {
  const gate = deferred();
  const seen: ServerContext[] = [];
  const c = await connect((s) => jobs(s, gate, seen), LEGACY, LEGACY);
  const { task } = (await c.client.callToolAsTask("job")) as CreateTaskResult;
  await flush();
  const cancelled = (await c.client.cancelTask(task!.taskId)) as JsonObject;
  assert.equal(cancelled.status, "cancelled");
  assert.equal(seen[0].signal.aborted, true, "the work is told to stop");
  assert.equal((await rejection(c.client.cancelTask(task!.taskId))).code, -32602);
  gate.resolve();
  await flush();
  assert.equal((await c.client.getTask(task!.taskId)).status, "cancelled", "a cancelled task MUST remain cancelled");
});

test("cancellation: aborting a task-augmented call before its CreateTaskResult rejects at once, sends no notifications/cancelled (tasks/cancel MUST be used), and the task it created is cancelled with tasks/cancel", async () => {
  const gate = deferred();
  const seen: ServerContext[] = [];
  const c = await connect((s) => jobs(s, gate, seen), LEGACY, LEGACY);
  const abort = new AbortController();
  const call = c.client.callToolAsTask("job", {}, {}, { signal: abort.signal });
  abort.abort("user");
  assert.equal((await rejection(call)).code, -32800);
  await flush(100);
  assert.deepEqual(c.sent("client", "notifications/cancelled"), []);
  const taskId = (c.wire.find((w) => w.from === "server" && w.message.result?.task)!.message.result.task as JsonObject).taskId;
  assert.deepEqual(c.sent("client", "tasks/cancel").map((m) => m.params), [{ taskId }]);
  assert.equal(seen[0].signal.aborted, true, "the work is told to stop");
  assert.equal((await c.client.getTask(taskId as string)).status, "cancelled");
  gate.resolve();
});

// What a client keeps to check a task's result (the method that created it, its tool's output
// check) goes once the task is seen to end without one; it was held until ten thousand later
// tasks pushed it out (found by review: a client cancelling tasks all day kept one per task).
test("tasks Cancelling Tasks + TTL and Resource Management: a task the client saw cancelled (tasks/cancel answers the cancelled task) or gone (tasks/result or tasks/get answered -32602 after its TTL) leaves nothing the client kept to check its result", async () => {
  const c = await connect((s) => s.tool("slow", { execution: { taskSupport: "optional" }, outputSchema: { type: "object" } }, () => new Promise<CallToolResult>(() => {})), LEGACY, LEGACY);
  await c.client.listTools();
  const client = c.client as any;
  const kept = (): number[] => [client.tasks.taskMethods.size, client.outputs.tasks.size];
  for (let i = 0; i < 3; i++) {
    const { task } = (await c.client.callToolAsTask("slow")) as CreateTaskResult;
    assert.deepEqual(kept(), [1, 1], "remembered until its result comes");
    assert.equal(((await c.client.cancelTask(task!.taskId)) as JsonObject).status, "cancelled");
    assert.deepEqual(kept(), [0, 0], "cancelled: no result will come");
  }
  const { task } = (await c.client.callToolAsTask("slow", {}, { ttl: 1000 })) as CreateTaskResult;
  c.clock.advance(1000);
  assert.equal((await rejection(c.client.getTaskResult(task!.taskId))).code, -32602);
  assert.deepEqual(kept(), [0, 0], "gone: no result will come");
  // Seen gone through tasks/get (-32602 Task not found) just as well.
  const { task: later } = (await c.client.callToolAsTask("slow", {}, { ttl: 1000 })) as CreateTaskResult;
  assert.deepEqual(kept(), [1, 1]);
  c.clock.advance(1000);
  assert.equal((await rejection(c.client.getTask(later!.taskId))).code, -32602);
  assert.deepEqual(kept(), [0, 0], "gone, as tasks/get said");
});

test("tasks: tasks/list MUST paginate with nextCursor; an invalid cursor is -32602", async () => {
  const gate = deferred();
  const c = await connect((s) => jobs(s, gate), LEGACY, { ...LEGACY, tasks: { pageSize: 2 } });
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push(((await c.client.callToolAsTask("job")) as CreateTaskResult).task!.taskId);
  const listed: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await c.client.listTasks(cursor);
    listed.push(...page.tasks.map((t) => t.taskId));
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  assert.deepEqual(listed, ids);
  assert.equal(pages, 3);
  assert.equal((await rejection(c.client.listTasks("bogus"))).code, -32602);
});

test("tasks: isolation: another session can neither get, list, read nor cancel a task", async () => {
  const gate = deferred();
  const server = new McpServer({ name: "s", version: "1" }, LEGACY);
  jobs(server, gate);
  const a = await connect(server, LEGACY);
  const b = await connect(server, LEGACY);
  const { task } = (await a.client.callToolAsTask("job")) as CreateTaskResult;
  for (const p of [b.client.getTask(task!.taskId), b.client.getTaskResult(task!.taskId), b.client.cancelTask(task!.taskId)]) assert.equal((await rejection(p)).code, -32602);
  assert.deepEqual((await b.client.listTasks()).tasks, []);
  assert.equal((await a.client.listTasks()).tasks.length, 1);
});

test("tasks: after the TTL the task is gone: lookups fail with -32602, and the table does not grow", async () => {
  const gate = deferred();
  const c = await connect((s) => jobs(s, gate), LEGACY, LEGACY);
  const { task } = (await c.client.callToolAsTask("job", {}, { ttl: 1000 })) as CreateTaskResult;
  c.clock.advance(999);
  assert.equal((await c.client.getTask(task!.taskId)).status, "working", "still there 1 ms before its deadline");
  c.clock.advance(1);
  assert.equal(c.server.tasks.size, 0, "deleted at the deadline exactly");
  assert.equal((await rejection(c.client.getTask(task!.taskId))).code, -32602);
});

test("tasks: a tool that fails (isError) makes the task failed; tasks/result still returns the tool result", async () => {
  const c = await connect((s) => s.tool("bad", { execution: { taskSupport: "optional" } }, () => ({ ...text("broken"), isError: true })), LEGACY, LEGACY);
  const { task } = (await c.client.callToolAsTask("bad")) as CreateTaskResult;
  const r = (await c.client.getTaskResult(task!.taskId)) as CallToolResult;
  assert.equal(r.isError, true);
  const failed = await c.client.getTask(task!.taskId);
  assert.equal(failed.status, "failed");
  assert.equal(failed.statusMessage, "Tool execution failed: broken", "the tasks/get response SHOULD include a statusMessage with diagnostic information about the failure");
});

test("tasks: input_required: a task handler's input requests go out on the tasks/result stream with related-task, and it resumes with the answers", async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };
  const asked: JsonObject[] = [];
  const c = await connect(
    (s) =>
      s.tool("ask", { execution: { taskSupport: "optional" } }, (_a, ctx) => {
        const answer = ctx.inputResponses?.user as ElicitResult | undefined;
        if (answer === undefined) return inputRequired({ user: { method: "elicitation/create", params: form } }, "st");
        return text(`hi ${String(answer.content?.name)} (${ctx.requestState})`);
      }),
    { ...LEGACY, handlers: { elicitation: (p) => (asked.push(p as JsonObject), { action: "accept", content: { name: "ada" } }) } },
    LEGACY,
  );
  const { task } = (await c.client.callToolAsTask("ask")) as CreateTaskResult;
  await flush();
  assert.equal((await c.client.getTask(task!.taskId)).status, "input_required");
  const r = (await c.client.getTaskResult(task!.taskId)) as CallToolResult;
  assert.deepEqual(r.content, [{ type: "text", text: "hi ada (st)" }]);
  assert.deepEqual((asked[0]._meta as JsonObject)[RELATED], { taskId: task!.taskId });
});

test("tasks: input_required: a task-augmented call's own requestState / inputResponses (MRTR fields, no part of 2025-11-25) never reach the handler as its state, as a plain legacy call's do not: only the answers the task gathered do", async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };
  const seen: unknown[] = [];
  const c = await connect(
    (s) =>
      s.tool("ask", { execution: { taskSupport: "optional" } }, (_a, ctx) => {
        seen.push([ctx.requestState, ctx.inputResponses]);
        const answer = ctx.inputResponses?.user as ElicitResult | undefined;
        if (answer === undefined) return inputRequired({ user: { method: "elicitation/create", params: form } }, "st");
        return text(`hi ${String(answer.content?.name)} (${ctx.requestState})`);
      }),
    { ...LEGACY, handlers: { elicitation: () => ({ action: "accept", content: { name: "ada" } }) } },
    LEGACY,
  );
  const created = (await c.client.request("tools/call", { name: "ask", arguments: {}, task: {}, requestState: "forged", inputResponses: { user: { action: "accept", content: { name: "mallory" } } } })) as CreateTaskResult;
  const r = (await c.client.getTaskResult(created.task!.taskId)) as CallToolResult;
  assert.deepEqual(r.content, [{ type: "text", text: "hi ada (st)" }]);
  assert.deepEqual(seen[0], [undefined, undefined], "the first run has no retry fields");
});

test("tasks: status notifications (notifications/tasks/status) when enabled", async () => {
  const gate = deferred();
  const c = await connect((s) => jobs(s, gate), LEGACY, { ...LEGACY, tasks: { notifications: "all" } });
  const seen: JsonObject[] = [];
  c.client.onNotification("notifications/tasks/status", (p) => seen.push(p!));
  const { task } = (await c.client.callToolAsTask("job")) as CreateTaskResult;
  gate.resolve();
  await c.client.getTaskResult(task!.taskId);
  await flush();
  assert.ok(seen.some((p) => p.taskId === task!.taskId && p.status === "completed"));
});

test("tasks Related Task Metadata: a task handler that asks the client directly (ctx.elicit) shows input_required meanwhile; the request carries related-task, and so MUST the client's response", async () => {
  const answer = deferred<ElicitResult>();
  const asked: JsonObject[] = [];
  const c = await connect(
    (s) =>
      s.tool("direct", { execution: { taskSupport: "optional" } }, async (_a, ctx) => {
        const r = await ctx.elicit({ message: "ok?", requestedSchema: { type: "object", properties: {} } });
        return text(r.action);
      }),
    { ...LEGACY, handlers: { elicitation: (p) => (asked.push(p as JsonObject), answer.promise) } },
    LEGACY,
  );
  const { task } = (await c.client.callToolAsTask("direct")) as CreateTaskResult;
  await flush(40);
  assert.equal((await c.client.getTask(task!.taskId)).status, "input_required");
  assert.deepEqual((asked[0]._meta as JsonObject)[RELATED], { taskId: task!.taskId });
  answer.resolve({ action: "accept", content: {} });
  assert.deepEqual(((await c.client.getTaskResult(task!.taskId)) as CallToolResult).content, [{ type: "text", text: "accept" }]);
  const [request] = c.sent("server", "elicitation/create");
  const response = c.wire.find((w) => w.from === "client" && w.message.id === request.id && w.message.result !== undefined)!.message;
  assert.deepEqual(response.result._meta[RELATED], { taskId: task!.taskId }, "an elicitation a task depends on MUST share its related task ID");
  assert.equal(response.result.action, "accept");
});

test("tasks: the application's side: setStatus refuses illegal transitions, settle refuses a terminal task, restore refuses a malformed snapshot", async () => {
  const gate = deferred();
  const c = await connect((s) => jobs(s, gate), LEGACY, LEGACY);
  const { task } = (await c.client.callToolAsTask("job")) as CreateTaskResult;
  const id = task!.taskId;
  assert.equal(c.server.tasks.setStatus(id, "working", "halfway"), true);
  assert.equal((await c.client.getTask(id)).statusMessage, "halfway");
  assert.equal(c.server.tasks.settle(id, { error: { code: -32603, message: "boom" } }), true);
  assert.equal(c.server.tasks.get(id)?.status, "failed");
  assert.equal(c.server.tasks.setStatus(id, "working"), false, "a terminal task MUST NOT transition");
  assert.equal(c.server.tasks.settle(id, { result: text("late") }), false);
  assert.equal(c.server.tasks.settle("unknown", { result: text("x") }), false);
  await assert.rejects(c.client.getTaskResult(id), (e: any) => e.code === -32603 && e.message === "boom");
  assert.throws(() => new McpServer({ name: "s", version: "1" }, { tasks: { restore: "{not json" } }), TypeError);
});

test("tasks (basic/utilities/tasks, Task Cancellation: \"the receiver SHOULD attempt to stop\" a cancelled task's work): the application ending a running task itself (setStatus cancelled, settle) stops its work as a requestor's cancel does", async () => {
  const gate = deferred();
  const seen: ServerContext[] = [];
  const c = await connect((s) => jobs(s, gate, seen), LEGACY, LEGACY);
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) ids.push(((await c.client.callToolAsTask("job")) as CreateTaskResult).task!.taskId);
  await flush(40);
  assert.equal(seen.length, 2);
  assert.deepEqual(ids.map((id) => c.server.tasks.isRunning(id)), [true, true]);
  assert.equal(c.server.tasks.setStatus(ids[0], "cancelled", "stopped by the operator"), true);
  assert.equal(c.server.tasks.settle(ids[1], { result: text("taken over") }), true);
  assert.deepEqual(seen.map((ctx) => ctx.signal.aborted), [true, true], "each run's work is told to stop");
  assert.deepEqual(ids.map((id) => c.server.tasks.isRunning(id)), [false, false]);
  gate.resolve();
  await flush(40);
  assert.deepEqual(ids.map((id) => c.server.tasks.get(id)?.status), ["cancelled", "completed"]);
  assert.deepEqual(((await c.client.getTaskResult(ids[1])) as CallToolResult).content, [{ type: "text", text: "taken over" }], "the work's late answer changes nothing");
});

test("tasks Capabilities: a session of 2025-06-18 has no tasks, so a task field is ignored (receivers without the capability MUST process the request normally); a required-task tool runs normally too", async () => {
  const gate = deferred();
  gate.resolve();
  const c = await connect((s) => jobs(s, gate), { session: { versions: ["2025-06-18" as const] } }, { session: { versions: ["2025-11-25", "2025-06-18"] } });
  assert.equal(c.client.protocolVersion, "2025-06-18");
  assert.deepEqual(await c.client.request("tools/call", { name: "job", arguments: { n: 2 }, task: { ttl: 1000 } }), text("job 2 done"));
  assert.deepEqual(await c.client.callTool("must"), text("must"));
});

test("tasks Capabilities (requestor side): in a session negotiated before 2025-11-25 callToolAsTask sends no task field (that version has no tasks) and resolves with the plain result", async () => {
  for (const v of ["2025-06-18", "2025-03-26", "2024-11-05"] as const) {
    const gate = deferred();
    gate.resolve();
    const c = await connect((s) => jobs(s, gate), { session: { versions: ["2025-11-25", v] } }, { session: { versions: [v] } });
    assert.equal(c.client.protocolVersion, v);
    assert.deepEqual(await c.client.callToolAsTask("job", { n: 3 }, { ttl: 1000 }), text("job 3 done"), v);
    assert.deepEqual(c.sent("client", "tools/call")[0].params, { name: "job", arguments: { n: 3 } }, v);
  }
});

test("tasks Tool-Level Negotiation item 1: a 2025-11-25 server without tasks.requests.tools.call gets no task augmentation from callToolAsTask (clients MUST NOT attempt it); the call goes out plain", async () => {
  const c = await connect((s) => s.tool("plain", {}, () => text("plain")), LEGACY, LEGACY);
  assert.equal(c.client.protocolVersion, "2025-11-25");
  assert.equal((c.client.serverCapabilities?.tasks as JsonObject | undefined)?.requests, undefined);
  assert.deepEqual(await c.client.callToolAsTask("plain", undefined, { ttl: 1000 }), text("plain"));
  assert.deepEqual(c.sent("client", "tools/call")[0].params, { name: "plain" });
});

test("tasks Tool-Level Negotiation items 2.1 and 2.3: once tools/list showed a tool's taskSupport, callToolAsTask of one without it (clients MUST NOT attempt a task) goes out plain, and callTool of a required one (clients MUST invoke it as a task) is refused locally; an unlisted tool is asked as before", async () => {
  const gate = deferred();
  gate.resolve();
  const c = await connect((s) => jobs(s, gate), LEGACY, LEGACY);
  // Not listed yet: the client cannot know, so it asks, and the server answers -32601 / -32601.
  assert.equal((await rejection(c.client.callToolAsTask("plain"))).code, -32601);
  assert.equal((await rejection(c.client.callTool("must"))).code, -32601);
  assert.equal(c.sent("client", "tools/call").length, 2);
  await c.client.listTools();
  assert.deepEqual(await c.client.callToolAsTask("plain", undefined, { ttl: 1000 }), text("plain"));
  assert.deepEqual(c.sent("client", "tools/call")[2].params, { name: "plain" });
  const e = await rejection(c.client.callTool("must"));
  assert.equal(e.code, -32601);
  assert.match(e.message, /tool must requires task augmentation .*callToolAsTask/);
  assert.equal(c.sent("client", "tools/call").length, 3, "the refused call never went out");
  const { task } = (await c.client.callToolAsTask("must")) as CreateTaskResult;
  assert.deepEqual(await c.client.getTaskResult(task!.taskId), { ...text("must"), _meta: { [RELATED]: { taskId: task!.taskId } } });
  assert.ok((c.sent("client", "tools/call")[3].params as JsonObject).task !== undefined);
  assert.deepEqual(await c.client.callTool("job"), text("job  done"));
});

test("tasks Tool-Level Negotiation + server/tools List Changed Notification: a tool's listed taskSupport is forgotten when notifications/tools/list_changed arrives, so a tool re-registered without it is called again", async () => {
  let unregister = (): void => {};
  const c = await connect((s) => {
    unregister = s.tool("t", { execution: { taskSupport: "required" } }, () => text("task-only"));
  }, LEGACY, LEGACY);
  const changed = deferred();
  c.client.onNotification("notifications/tools/list_changed", () => changed.resolve());
  await c.client.listTools();
  assert.equal((await rejection(c.client.callTool("t"))).code, -32601);
  assert.equal(c.sent("client", "tools/call").length, 0, "refused locally while listed as required");
  unregister();
  c.server.tool("t", {}, () => text("plain now"));
  await changed.promise;
  assert.deepEqual(await c.client.callTool("t"), text("plain now"));
});

test("tasks Task Notifications + README Limits (every table is bounded): the session a 2025-11-25 owner's status notifications go to is forgotten when it closes, and never held for modern requests", async () => {
  const gate = deferred();
  const server = new McpServer({ name: "s", version: "1" }, { session: { versions: ["2026-07-28", "2025-11-25"] }, tasks: { notifications: "all" } });
  jobs(server, gate);
  const notifiers = (server.tasks as any).notifiers as Map<string, unknown>;
  const a = await connect(server, LEGACY);
  const b = await connect(server, LEGACY);
  await a.client.listTasks();
  const { task } = (await b.client.callToolAsTask("job")) as CreateTaskResult;
  assert.equal(notifiers.size, 2);
  a.client.close();
  await flush();
  assert.equal(notifiers.size, 1, "a closed session is not held");
  const seen: JsonObject[] = [];
  b.client.onNotification("notifications/tasks/status", (p) => seen.push(p!));
  gate.resolve();
  await b.client.getTaskResult(task!.taskId);
  await flush();
  assert.ok(seen.some((p) => p.status === "completed"), "an open session still hears");
  b.client.close();
  await flush();
  assert.equal(notifiers.size, 0);
  const m = await connect(server, { session: { versions: ["2026-07-28"] } });
  await rejection(m.client.getTask("nope"));
  assert.equal(notifiers.size, 0, "extension status goes to listen streams, not to a remembered request");
});

test("tasks Result Retrieval: tasks/result MUST return exactly what the underlying request would have: a result the plain call refuses as invalid (-32603) fails the task with that error", async () => {
  const c = await connect(
    (s) => {
      s.tool("bogus", { execution: { taskSupport: "optional" } }, () => ({ content: [{ type: "bogus" }] }) as unknown as CallToolResult);
      s.tool("empty", { execution: { taskSupport: "optional" } }, () => ({}) as CallToolResult);
    },
    LEGACY,
    LEGACY,
  );
  for (const name of ["bogus", "empty"]) {
    const plain = await rejection(c.client.callTool(name));
    assert.equal(plain.code, -32603);
    const { task } = (await c.client.callToolAsTask(name)) as CreateTaskResult;
    const failed = await rejection(c.client.getTaskResult(task!.taskId));
    assert.deepEqual([failed.code, failed.message], [plain.code, plain.message], `${name}: the same error as the plain call`);
    assert.equal((await c.client.getTask(task!.taskId)).status, "failed");
  }
});

test("tasks Result Retrieval: tasks/result MUST return exactly what the underlying request would have: a handler whose final result is itself a CreateTaskResult fails the task with -32603 (the method's schema admits one only as the answer to the request)", async () => {
  const handle = { task: { taskId: "other", status: "working", createdAt: "2025-01-01T00:00:00Z", lastUpdatedAt: "2025-01-01T00:00:00Z", ttl: null } };
  const c = await connect((s) => s.tool("nested", { execution: { taskSupport: "optional" } }, () => handle as unknown as CallToolResult), LEGACY, LEGACY);
  const { task } = (await c.client.callToolAsTask("nested")) as CreateTaskResult;
  const failed = await rejection(c.client.getTaskResult(task!.taskId));
  assert.equal(failed.code, -32603);
  assert.match(failed.message, /CreateTaskResult/);
  assert.equal((await c.client.getTask(task!.taskId)).status, "failed");
});

test("tasks Input Required Status + basic/patterns/mrtr: input a client did not declare (no elicitation capability) is never asked for: the task fails with the plain call's -32021", async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: {} } };
  const c = await connect((s) => s.tool("ask", { execution: { taskSupport: "optional" } }, () => inputRequired({ user: { method: "elicitation/create", params: form } })), LEGACY, LEGACY);
  const plain = await rejection(c.client.callTool("ask"));
  const { task } = (await c.client.callToolAsTask("ask")) as CreateTaskResult;
  const failed = await rejection(c.client.getTaskResult(task!.taskId));
  assert.deepEqual([failed.code, failed.message, failed.data], [-32021, plain.message, { requiredCapabilities: { elicitation: {} } }]);
  assert.equal(c.sent("server", "elicitation/create").length, 0);
});

test("tasks Cancellation + TTL (receivers SHOULD attempt to stop the task's execution): a task cancelled or expired while its input request is out on the tasks/result stream cancels that request (notifications/cancelled), so neither side keeps it until the request timeout", async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: {} } };
  for (const how of ["tasks/cancel", "ttl expiry"] as const) {
    const asked: AbortSignal[] = [];
    const c = await connect(
      (s) => s.tool("ask", { execution: { taskSupport: "optional" } }, (_a, ctx) => (ctx.inputResponses === undefined ? inputRequired({ user: { method: "elicitation/create", params: form } }) : text("hi"))),
      // The user never answers.
      { ...LEGACY, handlers: { elicitation: (_p, ctx) => (asked.push(ctx.signal), new Promise<ElicitResult>(() => {})) } },
      LEGACY,
    );
    const { task } = (await c.client.callToolAsTask("ask", {}, { ttl: 5000 })) as CreateTaskResult;
    const result = rejection(c.client.getTaskResult(task!.taskId));
    await flush(50);
    assert.equal(asked.length, 1, `${how}: the input request is out`);
    if (how === "tasks/cancel") await c.client.cancelTask(task!.taskId);
    else c.clock.advance(5000);
    await result;
    await flush(50);
    const cancelled = c.sent("server", "notifications/cancelled");
    assert.deepEqual(cancelled.map((m) => m.params.requestId), [c.sent("server", "elicitation/create")[0].id], `${how}: the elicitation is cancelled`);
    assert.equal(asked[0].aborted, true, `${how}: the client's handler is told to stop`);
    assert.equal(c.endpoint.state.outboundCount, 0, `${how}: the server no longer awaits it`);
    assert.equal(c.clock.now() < 60_000, true, `${how}: before any request timeout`);
  }
});

test("tasks Input Required Status: a failed input request is left out of the re-run handler's inputResponses, and a round in which every one failed fails the task at once with that error, as a plain call's are", async () => {
  const form = (m: string) => ({ message: m, requestedSchema: { type: "object" as const, properties: {} } });
  const given: JsonObject[] = [];
  const c = await connect(
    (s) =>
      s.tool("ask", { execution: { taskSupport: "optional" } }, (args, ctx) => {
        if (ctx.inputResponses !== undefined) return given.push(ctx.inputResponses), text("done");
        const inputs: Record<string, any> = { bad: { method: "elicitation/create", params: form("bad") } };
        if (args.both === true) inputs.good = { method: "elicitation/create", params: form("good") };
        return inputRequired(inputs);
      }),
    {
      ...LEGACY,
      handlers: {
        elicitation: (p) => {
          if ((p as JsonObject).message === "bad") throw new Error("the user closed the dialog");
          return { action: "accept", content: {} };
        },
      },
    },
    LEGACY,
  );
  const { task } = (await c.client.callToolAsTask("ask", { both: true })) as CreateTaskResult;
  assert.deepEqual(((await c.client.getTaskResult(task!.taskId)) as CallToolResult).content, text("done").content);
  // The answer as the client sent it, with the task's related-task key (Related Task Metadata).
  assert.deepEqual(given, [{ good: { action: "accept", content: {}, _meta: { [RELATED]: { taskId: task!.taskId } } } }], "the failed key is left out, not {}");
  const plain = await rejection(c.client.callTool("ask"));
  const { task: alone } = (await c.client.callToolAsTask("ask")) as CreateTaskResult;
  const failed = await rejection(c.client.getTaskResult(alone!.taskId));
  assert.deepEqual([failed.code, failed.message], [plain.code, plain.message]);
  assert.match(failed.message, /could not get the input it needs \(elicitation\/create: the user closed the dialog\)/);
  assert.equal(c.sent("server", "elicitation/create").length, 2 + 1 + 1, "asked once each, not again round after round");
});

test("tasks Capabilities: a task tool registered after the handshake runs normally in that session, which declared no tasks (receivers that did not declare the capability MUST process requests normally, ignoring task metadata)", async () => {
  const server = new McpServer(SERVER, { clock: new ManualClock() });
  server.tool("plain", {}, () => text("plain"));
  const raw = rawClient(server);
  const init = await raw.initialize("2025-11-25");
  assert.equal(init.result.capabilities.tasks, undefined, "no task tool yet: no tasks declared");
  server.tool("late", { execution: { taskSupport: "optional" } }, () => text("late result"));
  server.tool("lateReq", { execution: { taskSupport: "required" } }, () => text("late required result"));
  const augmented = await raw.request(1, "tools/call", { name: "late", arguments: {}, task: {} });
  assert.deepEqual(augmented.result, text("late result"), "the task field is ignored: the plain result, not a CreateTaskResult whose tasks/result would be -32601");
  // The client MUST NOT augment without the capability, so "required" cannot be honoured: the call is served normally.
  const plainCall = await raw.request(2, "tools/call", { name: "lateReq", arguments: {} });
  assert.deepEqual(plainCall.result, text("late required result"));
  assert.equal((await raw.request(3, "tasks/list")).error.code, -32601, "the session still has no tasks");
  // A session opened now declares tasks and gets them.
  const fresh = rawClient(server);
  assert.ok((await fresh.initialize("2025-11-25")).result.capabilities.tasks);
  assert.equal(typeof (await fresh.request(1, "tools/call", { name: "late", arguments: {}, task: {} })).result.task.taskId, "string");
});

test("tasks Result Retrieval: tasks/get, tasks/result and tasks/list keep working after the last task tool is unregistered (the session declared tasks; tasks/result for a terminal task MUST return the final result)", async () => {
  const gate = deferred();
  const server = new McpServer(SERVER, { clock: new ManualClock() });
  server.tool("plain", {}, () => text("plain"));
  const unregister = server.tool("t", { execution: { taskSupport: "optional" } }, async () => {
    await gate.promise;
    return text("task result");
  });
  const raw = rawClient(server);
  await raw.initialize("2025-11-25");
  const created = await raw.request(1, "tools/call", { name: "t", arguments: {}, task: {} });
  const taskId = created.result.task.taskId;
  unregister();
  assert.equal((await raw.request(2, "tasks/get", { taskId })).result.status, "working");
  gate.resolve();
  assert.deepEqual((await raw.request(3, "tasks/result", { taskId })).result.content, text("task result").content);
  assert.deepEqual((await raw.request(4, "tasks/list")).result.tasks.map((t: JsonObject) => [t.taskId, t.status]), [[taskId, "completed"]]);
});

test("tasks Input Required Status (receivers MUST send input requests on the tasks/result stream; a cancelled request's receiver SHOULD free its resources): a tasks/result cancelled while an async intercept holds it before next() is let go, so the input it was counted as carrying goes out on the requestor's next tasks/result", async () => {
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };
  const check = deferred();
  const s = new McpServer(SERVER, {
    clock: new ManualClock(),
    ...LEGACY,
    // An async check before next(), as an intercept's documented use is.
    intercept: async (method, _params, ctx, next) => {
      if (method === "tasks/result" && ctx.id === 10) await check.promise;
      return next();
    },
  });
  s.tool("ask", { execution: { taskSupport: "optional" } }, (_a, ctx) => {
    const answer = ctx.inputResponses?.user as ElicitResult | undefined;
    if (answer === undefined) return inputRequired({ user: { method: "elicitation/create", params: form } }, "st");
    return text(`hi ${String(answer.content?.name)}`);
  });
  const c = rawClient(s);
  await c.initialize("2025-11-25", { elicitation: { form: {} } });
  const created = await c.request(1, "tools/call", { name: "ask", arguments: {}, task: {} });
  const taskId = created.result.task.taskId as string;
  await flush();
  assert.equal((await c.request(2, "tasks/get", { taskId })).result.status, "input_required");
  c.send({ jsonrpc: "2.0", id: 10, method: "tasks/result", params: { taskId } });
  await flush();
  c.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 10, reason: "gave up" } });
  await flush();
  check.resolve();
  await flush(50);
  const rec = s.tasks!.get(taskId)!;
  assert.equal(rec.waiters, undefined, "the cancelled tasks/result is no waiter");
  assert.deepEqual(rec.deliveredOn ?? {}, {}, "nothing counts as delivered on it");
  c.send({ jsonrpc: "2.0", id: 11, method: "tasks/result", params: { taskId } });
  const arrived = async (match: (m: any) => boolean): Promise<any> => {
    for (let i = 0; i < 100; i++) {
      const m = c.inbox.find(match);
      if (m !== undefined) return m;
      await new Promise<void>((r) => setImmediate(r));
    }
    return undefined;
  };
  const asked = await arrived((m) => m.method === "elicitation/create");
  assert.ok(asked !== undefined, "the input request goes out on the fresh tasks/result");
  assert.deepEqual(asked.params._meta[RELATED], { taskId });
  c.send({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "ada" }, _meta: { [RELATED]: { taskId } } } });
  const r = await arrived((m) => m.id === 11 && m.method === undefined);
  assert.deepEqual(r?.result?.content, [{ type: "text", text: "hi ada" }], "the task resumes and completes");
  assert.equal(c.inbox.some((m) => m.id === 10 && m.method === undefined), false, "the cancelled request is not answered");
});

test("tasks Input Required Status (the task moves back out of input_required once the receiver has all the input it needs): a task handler with two direct requests to the requestor in flight (two ctx.elicit at once) stays input_required until the second is answered too", async () => {
  const answers = [deferred<ElicitResult>(), deferred<ElicitResult>()];
  let asked = 0;
  const form = (message: string) => ({ message, requestedSchema: { type: "object" as const, properties: { v: { type: "string" as const } } } });
  const c = await connect(
    (s) =>
      s.tool("two", { execution: { taskSupport: "optional" } }, async (_a, ctx) => {
        const [a, b] = await Promise.all([ctx.elicit(form("first?")), ctx.elicit(form("second?"))]);
        return text(`${String(a.content?.v)} ${String(b.content?.v)}`);
      }),
    { ...LEGACY, handlers: { elicitation: () => answers[asked++].promise } },
    LEGACY,
  );
  const { task } = (await c.client.callToolAsTask("two")) as CreateTaskResult;
  await flush(40);
  assert.equal(asked, 2);
  assert.equal((await c.client.getTask(task!.taskId)).status, "input_required");
  answers[0].resolve({ action: "accept", content: { v: "A" } });
  await flush(40);
  assert.equal((await c.client.getTask(task!.taskId)).status, "input_required", "the second request still waits on the requestor");
  answers[1].resolve({ action: "accept", content: { v: "B" } });
  assert.deepEqual(((await c.client.getTaskResult(task!.taskId)) as CallToolResult).content, [{ type: "text", text: "A B" }]);
});

test("tasks (2025-11-25 Creating Tasks: task IDs MUST be unique among all tasks controlled by the receiver): a generateTaskId that repeats a live task's id fails the new request with -32603, and the task holding the id runs on and completes (it was left working, its run dropped, until its TTL)", { timeout: 10_000 }, async () => {
  const gate = deferred();
  const c = await connect((s) => jobs(s, gate), LEGACY, { ...LEGACY, tasks: { generateTaskId: () => "same-id" } });
  const { task } = (await c.client.callToolAsTask("job", { n: 1 })) as CreateTaskResult;
  const refused = await rejection(c.client.callToolAsTask("job", { n: 2 }));
  assert.equal(refused.code, -32603);
  assert.match(refused.message, /duplicate task id/);
  gate.resolve();
  const r = (await c.client.getTaskResult(task!.taskId)) as JsonObject;
  assert.deepEqual(r.content, [{ type: "text", text: "job 1 done" }]);
  assert.equal((await c.client.getTask(task!.taskId)).status, "completed");
});

// Found by review: the table takes only an error with an integer code and a string message,
// so a tool's ProtocolError with a bogus code left its task working until its TTL (an hour),
// the requestor polling it all that while; a plain call gets -32603 for the same throw.
test("tasks (Task Execution Errors; basic/index: error codes MUST be integers): a task whose tool throws an error with no integer code fails with the -32603 a plain call gets, not left working", { timeout: 10_000 }, async () => {
  const events: any[] = [];
  const c = await connect((s) => s.tool("bogus", { execution: { taskSupport: "optional" } }, async () => { throw new ProtocolError(1.5, "bogus code"); }), LEGACY, { ...LEGACY, onEvent: (e) => events.push(e) });
  const { task } = (await c.client.callToolAsTask("bogus")) as CreateTaskResult;
  await flush(50);
  const got = await c.client.getTask(task!.taskId);
  assert.equal(got.status, "failed");
  assert.equal(got.statusMessage, "the handler failed with a malformed error");
  const e = await rejection(c.client.getTaskResult(task!.taskId));
  assert.deepEqual([e.code, e.message], [-32603, "the handler failed with a malformed error"]);
  assert.ok(events.some((x) => x.type === "diagnostic" && x.code === "invalid-error" && x.detail?.taskId === task!.taskId), "the server's onEvent hears of it, as for a plain request");
});

test("tasks Cancellation (receivers SHOULD attempt to stop the task's execution) + README Cancellation (a request sent on behalf of a peer's request is cancelled when that request is): a task handler's ctx.elicit given a signal of its own is cancelled at the client when the task is cancelled; its own signal still cancels it, with its reason", { timeout: 10_000 }, async () => {
  const own: AbortController[] = [];
  const thrown: unknown[] = [];
  const signals: AbortSignal[] = [];
  const c = await connect(
    (s) =>
      s.tool("direct", { execution: { taskSupport: "optional" } }, async (_a, ctx) => {
        const mine = new AbortController();
        own.push(mine);
        await ctx.elicit({ message: "ok?", requestedSchema: { type: "object", properties: {} } }, { signal: mine.signal }).catch((e: { code?: number }) => thrown.push(e.code));
        return text("done");
      }),
    { ...LEGACY, handlers: { elicitation: (_p, ctx) => (signals.push(ctx.signal), new Promise<ElicitResult>(() => {})) } },
    LEGACY,
  );
  const { task } = (await c.client.callToolAsTask("direct")) as CreateTaskResult;
  await flush(40);
  assert.equal(signals.length, 1, "the client was asked");
  await c.client.cancelTask(task!.taskId);
  await flush(40);
  assert.deepEqual(thrown, [-32800], "the ask ended with the task");
  assert.equal(own[0].signal.aborted, false);
  assert.equal(signals[0].aborted, true, "the client's prompt was cancelled, not left open until the request's timeout");
  assert.equal(c.sent("server", "notifications/cancelled").length, 1);
  // The handler's own signal still cancels its ask, naming its reason.
  await c.client.callToolAsTask("direct");
  await flush(40);
  own[1].abort("not needed any more");
  await flush(40);
  assert.equal(signals[1].aborted, true);
  assert.equal(c.sent("server", "notifications/cancelled")[1].params.reason, "not needed any more");
});
