// Spec: 2025-11-25 basic/utilities/tasks with the client as receiver, driven from the
// server's side of the session: "Getting Tasks" (tasks/get status transitions),
// "Task Status Notification" (notifications/tasks/status), "Task Support and Handling"
// (a request type the receiver did not declare is processed normally), "Isolation"
// (a task belongs to the session that created it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { CLIENT, connect, deferred, rejection, SERVER } from "../api/setup.js";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { McpError } from "../../src/driver/endpoint.js";
import { TaskRuntime } from "../../src/api/tasks.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import type { ElicitResult } from "../../src/api/types.js";
import type { CreateMessageParams, CreateMessageResult } from "../../src/api/types.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { MetaKey } from "../../src/model/meta.js";

const LEGACY = { session: { versions: ["2025-11-25" as const] } };
const ASK = { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 } as CreateMessageParams as unknown as JsonObject;
const answer = (text: string): CreateMessageResult => ({ role: "assistant", content: { type: "text", text }, model: "m" });

async function flush(n = 30): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

test("basic/utilities/tasks Getting Tasks: tasks/get on the client's task reports working while the handler runs, then completed; tasks/result then answers at once with related-task metadata", async () => {
  const gate = deferred();
  const c = await connect(() => {}, { receiveTasks: true, handlers: { sampling: async () => (await gate.promise, answer("done")) } }, LEGACY);
  const created = await c.endpoint.request("sampling/createMessage", { ...ASK, task: { ttl: 30000 } });
  const taskId = (created.task as JsonObject).taskId as string;
  assert.equal(typeof taskId, "string");
  assert.equal((await c.endpoint.request("tasks/get", { taskId })).status, "working");
  gate.resolve();
  await flush();
  const after = await c.endpoint.request("tasks/get", { taskId });
  assert.equal(after.status, "completed", "a finished handler moves the task to completed");
  const result = await c.endpoint.request("tasks/result", { taskId });
  assert.deepEqual(result.content, { type: "text", text: "done" });
  assert.equal(((result._meta as JsonObject)[MetaKey.relatedTask] as JsonObject).taskId, taskId, "tasks/result MUST carry io.modelcontextprotocol/related-task");
});

test("basic/utilities/tasks: a handler that throws moves the client's task to failed; tasks/result answers the handler's error", async () => {
  const c = await connect(() => {}, { receiveTasks: true, handlers: { sampling: async () => { throw new Error("model offline"); } } }, LEGACY);
  const created = await c.endpoint.request("sampling/createMessage", { ...ASK, task: {} });
  const taskId = (created.task as JsonObject).taskId as string;
  await flush();
  assert.equal((await c.endpoint.request("tasks/get", { taskId })).status, "failed");
  const e = await rejection(c.endpoint.request("tasks/result", { taskId }));
  assert.equal(typeof e.code, "number", "the failure arrives as a JSON-RPC error");
});

test("basic/utilities/tasks Task Status Notification: a client receiver configured to (receivers MAY) sends notifications/tasks/status when its task becomes terminal; none by default", async () => {
  const quiet = await connect(() => {}, { receiveTasks: true, handlers: { sampling: () => answer("q") } }, LEGACY);
  await quiet.endpoint.request("sampling/createMessage", { ...ASK, task: {} });
  await flush();
  assert.equal(quiet.sent("client", "notifications/tasks/status").length, 0, "the default is no unsolicited status notifications");
  const c = await connect(() => {}, { receiveTasks: { notifications: "terminal" }, handlers: { sampling: () => answer("n") } }, LEGACY);
  const created = await c.endpoint.request("sampling/createMessage", { ...ASK, task: {} });
  const taskId = (created.task as JsonObject).taskId as string;
  await flush();
  const notes = c.sent("client", "notifications/tasks/status").filter((n) => n.params.taskId === taskId);
  assert.ok(notes.length >= 1, "a status notification for the task");
  assert.equal(notes.at(-1).params.status, "completed");
});

test("basic/utilities/tasks Task Support and Handling: a client that did not declare tasks.requests.elicitation.create MUST process a task-augmented elicitation/create normally, ignoring the task metadata", async () => {
  const schema = { type: "object", properties: {} };
  const seen: JsonObject[] = [];
  const plain = await connect(() => {}, { handlers: { elicitation: (p) => (seen.push(p as unknown as JsonObject), { action: "decline" }) } }, LEGACY);
  assert.equal(plain.client.capabilities.tasks, undefined);
  const r = await plain.endpoint.request("elicitation/create", { message: "?", requestedSchema: schema, task: {} });
  assert.equal(r.task, undefined, "no CreateTaskResult from a client that did not declare it");
  assert.equal(r.action, "decline", "the handler's own result");
  assert.equal(seen[0].task, undefined, "the handler sees the request without the task metadata");
  // Control: the same request to a client that declared it becomes a task.
  const d = await connect(() => {}, { receiveTasks: true, handlers: { elicitation: () => ({ action: "decline" }) } }, LEGACY);
  assert.deepEqual((d.client.capabilities.tasks as JsonObject).requests, { elicitation: { create: {} } });
  const asTask = await d.endpoint.request("elicitation/create", { message: "?", requestedSchema: schema, task: {} });
  assert.equal(typeof (asTask.task as JsonObject).taskId, "string");
});

test("basic/utilities/tasks Isolation: a task created in one client session cannot be read, listed or cancelled from another session", async () => {
  const gate = deferred();
  const handlers = { sampling: async () => (await gate.promise, answer("x")) };
  const a = await connect(() => {}, { receiveTasks: true, handlers }, LEGACY);
  const b = await connect(() => {}, { receiveTasks: true, handlers }, LEGACY);
  const created = await a.endpoint.request("sampling/createMessage", { ...ASK, task: {} });
  const taskId = (created.task as JsonObject).taskId as string;
  assert.equal(((await a.endpoint.request("tasks/list", {})).tasks as JsonObject[]).length, 1);
  assert.deepEqual((await b.endpoint.request("tasks/list", {})).tasks as JsonObject[], [], "the other session lists none");
  const got = await rejection(b.endpoint.request("tasks/get", { taskId }));
  assert.equal(got.code, -32602, "an unknown task id is Invalid params");
  await rejection(b.endpoint.request("tasks/cancel", { taskId }));
  assert.equal((await a.endpoint.request("tasks/get", { taskId })).status, "working", "the owner's task is untouched");
  gate.resolve();
});

test("basic/utilities/tasks Progress: the progress token of a task-augmented sampling request stays valid after the CreateTaskResult until the client's task is terminal, and no progress after it", async () => {
  const gate = deferred();
  let report: ((n: number) => void) | undefined;
  const c = await connect(() => {}, {
    receiveTasks: true,
    handlers: {
      sampling: async (_p, ctx) => {
        report = (n) => ctx.progress(n);
        await gate.promise;
        return answer("p");
      },
    },
  }, LEGACY);
  const created = await c.endpoint.request("sampling/createMessage", { ...ASK, _meta: { progressToken: "tok" }, task: {} });
  const taskId = (created.task as JsonObject).taskId as string;
  await flush();
  report!(1);
  await flush();
  const progress = (): any[] => c.sent("client", "notifications/progress").filter((n) => n.params.progressToken === "tok");
  assert.deepEqual(progress().map((n) => n.params.progress), [1], "progress after the CreateTaskResult, under the request's token");
  gate.resolve();
  await flush();
  assert.equal((await c.endpoint.request("tasks/get", { taskId })).status, "completed");
  report!(2);
  await flush();
  assert.deepEqual(progress().map((n) => n.params.progress), [1], "no progress once the task is terminal");
});

test("basic/utilities/tasks Cancelling Tasks: when the tool call that awaits ctx.requestAsTask is cancelled, the server sends tasks/cancel for the client's task, which ends cancelled", async () => {
  const gate = deferred();
  let taskId = "";
  const c = await connect((s) => {
    s.tool("ask", {}, async (_a, ctx) => {
      await ctx.requestAsTask("elicitation/create", { message: "?", requestedSchema: { type: "object", properties: {} } });
      return { content: [] };
    });
  }, { receiveTasks: true, handlers: { elicitation: async () => (await gate.promise, { action: "decline" as const }) } }, LEGACY);
  const abort = new AbortController();
  const call = c.client.callTool("ask", {}, { signal: abort.signal });
  call.catch(() => {});
  await flush();
  const created = c.wire.find((w) => w.from === "client" && w.message.result?.task !== undefined);
  taskId = created!.message.result.task.taskId;
  assert.equal(c.sent("server", "tasks/cancel").length, 0, "no cancel before the abort");
  abort.abort();
  await rejection(call);
  await flush();
  assert.deepEqual(c.sent("server", "tasks/cancel").map((m) => m.params.taskId), [taskId], "tasks/cancel names the client's task");
  assert.equal((await c.endpoint.request("tasks/get", { taskId })).status, "cancelled");
  gate.resolve();
  await flush();
  assert.equal((await c.endpoint.request("tasks/get", { taskId })).status, "cancelled", "terminal states are final: a late handler result does not revive it");
});

test("basic/utilities/cancellation (for task-augmented requests, the tasks/cancel request MUST be used): a tool that answers while its ctx.requestAsTask still waits (it raced the question against its own timeout) has the server send tasks/cancel for the client's task, which ends cancelled, its handler aborted", { timeout: 5000 }, async () => {
  let elicitSignal: AbortSignal | undefined;
  let asked: Promise<unknown> | undefined;
  const c = await connect((s) => {
    s.tool("race", {}, async (_a, ctx) => {
      asked = ctx.requestAsTask("elicitation/create", { message: "?", requestedSchema: { type: "object", properties: {} } }).catch((e: unknown) => e);
      // The fallback wins once the client's task exists (its CreateTaskResult came).
      while (!c.wire.some((w) => w.from === "client" && w.message.result?.task !== undefined)) await Promise.resolve();
      return { content: [{ type: "text" as const, text: "default" }] };
    });
  }, { receiveTasks: true, handlers: { elicitation: (_p, ctx) => ((elicitSignal = ctx.signal), new Promise<ElicitResult>(() => {})) } }, LEGACY);
  const result = await c.client.callTool("race", {});
  assert.deepEqual(result.content, [{ type: "text", text: "default" }]);
  await flush(60);
  const taskId = c.wire.find((w) => w.from === "client" && w.message.result?.task !== undefined)!.message.result.task.taskId;
  assert.deepEqual(c.sent("server", "tasks/cancel").map((m) => m.params.taskId), [taskId], "tasks/cancel names the client's task");
  assert.equal((await c.endpoint.request("tasks/get", { taskId })).status, "cancelled");
  assert.equal(elicitSignal?.aborted, true, "the client's handler is aborted");
  assert.equal((await asked as McpError).code, -32800);
});

test("basic/utilities/cancellation (for task-augmented requests, the tasks/cancel request MUST be used): ctx.requestAsTask cancels the client's task when the tool call is cancelled in the same read as the CreateTaskResult, and when its timeoutMs expires on the tasks/result wait", async () => {
  const FORM = { message: "?", requestedSchema: { type: "object", properties: {} } };
  for (const how of ["cancelled with the CreateTaskResult", "timeoutMs"] as const) {
    const clock = new ManualClock();
    const server = new McpServer(SERVER, { clock });
    let thrown: number | undefined;
    server.tool("ask", {}, async (_a, ctx) => {
      await ctx.requestAsTask("elicitation/create", FORM, how === "timeoutMs" ? { timeoutMs: 1000 } : {}).catch((e) => (thrown = e.code));
      return { content: [] };
    });
    const caller = new AbortController();
    const sent: any[] = [];
    let taskId: string | undefined;
    const [a, b] = createMemoryPair({ onSend: (from, t) => {
      const m = JSON.parse(t);
      if (from === 0) sent.push(m);
      // The tool call is cancelled in the delivery that brings the server the client's CreateTaskResult.
      if (from === 1 && m.result?.task !== undefined) {
        taskId = m.result.task.taskId;
        if (how !== "timeoutMs") queueMicrotask(() => caller.abort("user"));
      }
    } });
    server.connect(a);
    let elicitSignal: AbortSignal | undefined;
    // The user never answers.
    const client = new McpClient(CLIENT, { clock, ...LEGACY, receiveTasks: { clock }, handlers: { elicitation: (_p, ctx) => ((elicitSignal = ctx.signal), new Promise<ElicitResult>(() => {})) } });
    await client.connect(b);
    const call = client.callTool("ask", {}, { signal: caller.signal, timeoutMs: 0 });
    call.catch(() => {});
    await flush(60);
    if (how === "timeoutMs") {
      clock.advance(1000);
      await flush(60);
      assert.equal(thrown, -32001, "the wait timed out");
    } else assert.equal(thrown, -32800);
    assert.deepEqual(sent.filter((m) => m.method === "tasks/cancel").map((m) => m.params.taskId), [taskId], `${how}: tasks/cancel for the client's task`);
    assert.equal(elicitSignal?.aborted, true, `${how}: the client's task stops`);
    client.close();
  }
});

test("basic/utilities/tasks Cancelling Tasks (a task in a terminal status is not to be cancelled: receivers MUST reject it, -32602) + draft schema.ts MCP error codes (-32000 to -32019 are implementation-defined: \"receivers must not assign cross-implementation semantics to them\"): a client task that failed with its own -32001 (another SDK's timeout code) is its error, not this wait's timeout; ctx.requestAsTask rejects with it and sends no tasks/cancel", async () => {
  const clock = new ManualClock();
  const server = new McpServer(SERVER, { clock });
  let thrown: McpError | undefined;
  server.tool("ask", {}, async (_a, ctx) => {
    await ctx.requestAsTask("sampling/createMessage", ASK).catch((e) => (thrown = e));
    return { content: [] };
  });
  const sent: JsonObject[] = [];
  const [a, b] = createMemoryPair({ onSend: (from, t) => void (from === 0 && sent.push(JSON.parse(t))) });
  server.connect(a);
  const client = new McpClient(CLIENT, { clock, ...LEGACY, receiveTasks: { clock }, handlers: { sampling: () => Promise.reject(new McpError({ code: -32001, message: "upstream model timed out" })) } });
  await client.connect(b);
  await client.callTool("ask", {});
  await flush(60);
  assert.equal(thrown?.code, -32001);
  assert.equal(thrown?.fromPeer, true, "the client's answer to tasks/result");
  assert.deepEqual(sent.filter((m) => typeof m.method === "string").map((m) => m.method), ["sampling/createMessage", "tasks/result"], "no tasks/cancel for a task that already failed");
  client.close();
});

test("basic/utilities/tasks Isolation (a task belongs to the session that created it): one TaskRuntime given to two clients as receiveTasks serves both; one client closing leaves the other's task running, while a client's own runtime (receiveTasks: true) stops with it", async () => {
  const runtime = new TaskRuntime();
  const gate = deferred();
  const signals: AbortSignal[] = [];
  const options = { ...LEGACY, receiveTasks: runtime, handlers: { sampling: async (_p: unknown, ctx: { signal: AbortSignal }) => (signals.push(ctx.signal), await gate.promise, answer("done")) } };
  const [a, b] = [await connect(() => {}, options, LEGACY), await connect(() => {}, options, LEGACY)];
  const taskOf = async (c: typeof a) => ((await c.endpoint.request("sampling/createMessage", { ...ASK, task: {} })).task as JsonObject).taskId as string;
  await taskOf(a);
  const taskB = await taskOf(b);
  await flush();
  assert.equal(signals.length, 2);
  a.client.close();
  await flush();
  assert.deepEqual(signals.map((s) => s.aborted), [false, false], "the shared runtime is not closed with one of its clients");
  gate.resolve();
  await flush();
  assert.equal((await b.endpoint.request("tasks/get", { taskId: taskB })).status, "completed");
  // Control: a runtime the client made for itself stops with it.
  const own: AbortSignal[] = [];
  const c = await connect(() => {}, { ...LEGACY, receiveTasks: true, handlers: { sampling: (_p, ctx) => (own.push(ctx.signal), new Promise<CreateMessageResult>(() => {})) } }, LEGACY);
  await taskOf(c);
  await flush();
  c.client.close();
  await flush();
  assert.deepEqual(own.map((s) => s.aborted), [true]);
  b.client.close();
});

test("basic/utilities/cancellation (for task-augmented requests, the tasks/cancel request MUST be used): a tool call cancelled while ctx.sample with a task waits on tasks/result, the tool having given a signal of its own that never aborts, still cancels the client's task", { timeout: 10_000 }, async () => {
  let thrown: number | undefined;
  let sampleSignal: AbortSignal | undefined;
  const own = new AbortController();
  const c = await connect((s) => {
    s.tool("ask", {}, async (_a, ctx) => {
      await ctx.sample({ ...(ASK as unknown as CreateMessageParams), task: { ttl: 600_000 } }, { signal: own.signal }).catch((e) => (thrown = e.code));
      return { content: [] };
    });
  }, { receiveTasks: true, handlers: { sampling: (_p, ctx) => ((sampleSignal = ctx.signal), new Promise<CreateMessageResult>(() => {})) } }, LEGACY);
  const abort = new AbortController();
  const call = c.client.callTool("ask", {}, { signal: abort.signal });
  call.catch(() => {});
  await flush(60);
  assert.equal(c.sent("server", "tasks/result").length, 1, "the server waits on the client's task");
  const taskId = c.wire.find((w) => w.from === "client" && w.message.result?.task !== undefined)!.message.result.task.taskId;
  abort.abort("user");
  await rejection(call);
  await flush(60);
  assert.equal(thrown, -32800, "the wait was given up with the call");
  assert.equal(own.signal.aborted, false);
  assert.deepEqual(c.sent("server", "tasks/cancel").map((m) => m.params.taskId), [taskId], "tasks/cancel names the client's task");
  assert.equal(sampleSignal?.aborted, true, "the client's task stops");
  c.client.close();
});
