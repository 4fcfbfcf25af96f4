// Spec: 2025-11-25 basic/utilities/tasks with the client as receiver and the server as
// requestor: "Capabilities" (tasks.requests.sampling.createMessage,
// tasks.requests.elicitation.create, tasks.list, tasks.cancel on the client),
// "Creating Tasks" (CreateTaskResult at once), "Getting Task Results" (tasks/result held
// until terminal, with related-task metadata), "Task Support and Handling" (a receiver
// that did not declare the capability processes the request normally).
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, deferred, rejection } from "../api/setup.js";
import type { McpServer } from "../../src/api/server.js";
import type { CreateMessageParams, CreateMessageResult } from "../../src/api/types.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { MetaKey } from "../../src/model/meta.js";

const LEGACY = { session: { versions: ["2025-11-25" as const] } };
const ASK: CreateMessageParams = { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 };
const answer = (text: string): CreateMessageResult => ({ role: "assistant", content: { type: "text", text }, model: "m" });

async function flush(n = 30): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

/** A server whose `ask` tool samples the client as a task and returns the model's text. */
function asker(s: McpServer, seen: JsonObject[] = []): void {
  s.tool("ask", {}, async (_args, ctx) => {
    const r = (await ctx.requestAsTask("sampling/createMessage", ASK as unknown as JsonObject, { ttl: 60000 })) as JsonObject;
    seen.push(r);
    return { content: [{ type: "text", text: String((r.content as JsonObject).text) }] };
  });
}

test("basic/utilities/tasks Capabilities: a task-receiving client declares tasks.requests for the handlers it has, plus tasks.list and tasks.cancel", async () => {
  const c = await connect(() => {}, { receiveTasks: true, handlers: { sampling: () => answer("x") } }, LEGACY);
  assert.deepEqual(c.client.capabilities.tasks, { list: {}, cancel: {}, requests: { sampling: { createMessage: {} } } });
  const plain = await connect(() => {}, { handlers: { sampling: () => answer("x") } }, LEGACY);
  assert.equal(plain.client.capabilities.tasks, undefined, "no receiveTasks, no tasks capability");
});

test("basic/utilities/tasks: a task-augmented sampling/createMessage gets a CreateTaskResult at once; tasks/result waits for the handler, then answers its result with related-task metadata", async () => {
  const gate = deferred();
  const seen: JsonObject[] = [];
  const c = await connect((s) => asker(s, seen), {
    receiveTasks: true,
    handlers: {
      sampling: async () => {
        await gate.promise;
        return answer("from a task");
      },
    },
  }, LEGACY);
  const call = c.client.callTool("ask");
  await flush();
  const [created] = c.wire.filter((w) => w.from === "client" && w.message.result?.task !== undefined).map((w) => w.message.result.task);
  assert.equal(created.status, "working", "the task begins working, before the handler answered");
  assert.equal(created.ttl, 60000);
  assert.equal(c.sent("server", "tasks/result").length, 1, "the requestor waits on tasks/result");
  gate.resolve();
  const r = await call;
  assert.deepEqual(r.content, [{ type: "text", text: "from a task" }]);
  assert.equal((seen[0]._meta as JsonObject)[MetaKey.relatedTask] !== undefined, true, "tasks/result carries io.modelcontextprotocol/related-task");
  assert.equal(((seen[0]._meta as JsonObject)[MetaKey.relatedTask] as JsonObject).taskId, created.taskId);
});

test("basic/utilities/tasks Related Task Metadata: all responses related to a task MUST include related-task, so the CreateTaskResult a client answers to a task-augmented request made inside the server's task names the server's task there, and its own new task in task.taskId", async () => {
  const c = await connect((s) => {
    s.tool("job", { execution: { taskSupport: "optional" } }, async (_args, ctx) => {
      const r = (await ctx.requestAsTask("elicitation/create", { message: "ok?", requestedSchema: { type: "object", properties: {} } }, { ttl: 60000 })) as JsonObject;
      return { content: [{ type: "text", text: String(r.action) }] };
    });
  }, { ...LEGACY, receiveTasks: true, handlers: { elicitation: async () => ({ action: "accept", content: {} }) } }, LEGACY);
  const { task } = (await c.client.callToolAsTask("job")) as { task: { taskId: string } };
  const result = await c.client.getTaskResult(task.taskId);
  assert.deepEqual(result.content, [{ type: "text", text: "accept" }]);
  const ask = c.sent("server", "elicitation/create")[0];
  assert.deepEqual(((ask.params as JsonObject)._meta as JsonObject)[MetaKey.relatedTask], { taskId: task.taskId }, "the request names the server's task");
  const created = c.wire.find((w) => w.from === "client" && w.message.id === ask.id && w.message.result !== undefined)!.message.result as JsonObject;
  assert.notEqual((created.task as JsonObject).taskId, task.taskId);
  assert.deepEqual((created._meta as JsonObject)[MetaKey.relatedTask], { taskId: task.taskId }, "the response names the task its request belongs to");
});

test("basic/utilities/tasks Associating Task-Related Messages (for tasks/get, tasks/result, tasks/cancel, requestors SHOULD NOT include related-task; the taskId parameter names the task): a server task waiting on the client's task sends tasks/result and tasks/get without the server task's related-task, while the sampling request it depends on carries it", async () => {
  const gate = deferred();
  const c = await connect((s) => {
    s.tool("job", { execution: { taskSupport: "optional" } }, async (_args, ctx) => {
      const created = await ctx.request("sampling/createMessage", { ...(ASK as unknown as JsonObject), task: {} });
      const inner = (created.task as JsonObject).taskId as string;
      await ctx.request("tasks/get", { taskId: inner });
      gate.resolve();
      const r = await ctx.request("tasks/result", { taskId: inner });
      return { content: [{ type: "text", text: String((r.content as JsonObject).text) }] };
    });
  }, { ...LEGACY, receiveTasks: true, handlers: { sampling: async () => (await gate.promise, answer("done")) } }, LEGACY);
  const { task } = (await c.client.callToolAsTask("job")) as { task: { taskId: string } };
  const result = await c.client.getTaskResult(task.taskId);
  assert.deepEqual(result.content, [{ type: "text", text: "done" }]);
  const ask = c.sent("server", "sampling/createMessage")[0];
  assert.deepEqual(ask.params._meta[MetaKey.relatedTask], { taskId: task.taskId }, "the request the server's task depends on names that task");
  const polls = [...c.sent("server", "tasks/get"), ...c.sent("server", "tasks/result")];
  assert.equal(polls.length, 2);
  for (const m of polls) {
    assert.notEqual(m.params.taskId, task.taskId, "they name the client's task");
    assert.equal(m.params._meta?.[MetaKey.relatedTask], undefined, `${m.method} carries no related-task naming another task than its taskId`);
  }
});

test("basic/utilities/tasks: the server can tasks/get, tasks/list and tasks/cancel the client's task; a cancelled task stays cancelled", async () => {
  const gate = deferred();
  let taskId = "";
  const c = await connect((s) => {
    s.tool("start", {}, async (_a, ctx) => {
      const created = await ctx.request("sampling/createMessage", { ...(ASK as unknown as JsonObject), task: {} });
      taskId = (created.task as JsonObject).taskId as string;
      const got = await ctx.request("tasks/get", { taskId });
      const listed = await ctx.request("tasks/list", {});
      const cancelled = await ctx.request("tasks/cancel", { taskId });
      const after = await ctx.request("tasks/get", { taskId });
      return { content: [{ type: "text", text: [got.status, (listed.tasks as JsonObject[]).length, cancelled.status, after.status].join(",") }] };
    });
  }, { receiveTasks: true, handlers: { sampling: async () => (await gate.promise, answer("late")) } }, LEGACY);
  const r = await c.client.callTool("start");
  assert.deepEqual(r.content, [{ type: "text", text: "working,1,cancelled,cancelled" }]);
  gate.resolve();
  await flush();
  const e = await rejection(c.endpoint.request("tasks/get", { taskId: "nope" }));
  assert.ok(e.code !== undefined);
});

test("basic/utilities/tasks Task Support and Handling: a client that did not declare task support processes a task-augmented request normally (its plain result), and requestAsTask falls back to the plain request", async () => {
  const seen: JsonObject[] = [];
  const c = await connect((s) => asker(s, seen), { handlers: { sampling: () => answer("plain") } }, LEGACY);
  const r = await c.client.callTool("ask");
  assert.deepEqual(r.content, [{ type: "text", text: "plain" }]);
  assert.equal(c.sent("server", "tasks/result").length, 0);
  const sampling = c.sent("server", "sampling/createMessage")[0];
  assert.equal(sampling.params.task, undefined, "no task field to a client that cannot take it");
  const d = await connect((s) => {
    s.tool("raw", {}, async (_a, ctx) => {
      const res = await ctx.request("sampling/createMessage", { ...(ASK as unknown as JsonObject), task: {} });
      return { content: [{ type: "text", text: res.task === undefined ? "normal" : "task" }] };
    });
  }, { handlers: { sampling: () => answer("n") } }, LEGACY);
  assert.deepEqual((await d.client.callTool("raw")).content, [{ type: "text", text: "normal" }]);
});

test("basic/utilities/tasks Capabilities (requestor side): in a session negotiated before 2025-11-25 requestAsTask sends the plain request, though the client declared tasks.requests (that version has no tasks)", async () => {
  for (const v of ["2025-06-18", "2025-03-26"] as const) {
    const seen: JsonObject[] = [];
    const c = await connect((s) => asker(s, seen), { receiveTasks: true, handlers: { sampling: () => answer("plain") }, session: { versions: ["2025-11-25", v] } }, { session: { versions: [v] } });
    assert.equal(c.client.protocolVersion, v);
    assert.ok(c.client.capabilities.tasks !== undefined, "declared at the handshake, before the version was known");
    assert.deepEqual((await c.client.callTool("ask")).content, [{ type: "text", text: "plain" }], v);
    assert.equal(c.sent("server", "sampling/createMessage")[0].params.task, undefined, v);
    assert.equal(c.sent("server", "tasks/result").length, 0, v);
  }
});

test("basic/utilities/tasks Capabilities: in a 2025-06-18 session (no tasks) a task-receiving client answers a task-augmented request normally, ignoring the task field", async () => {
  let answered: JsonObject | undefined;
  const c = await connect(
    (s) =>
      s.tool("start", {}, async (_a, ctx) => {
        answered = await ctx.request("sampling/createMessage", { ...(ASK as unknown as JsonObject), task: { ttl: 1000 } });
        return { content: [] };
      }),
    { receiveTasks: true, handlers: { sampling: () => answer("plain") }, session: { versions: ["2025-06-18"] } },
    { session: { versions: ["2025-11-25", "2025-06-18"] } },
  );
  assert.equal(c.client.protocolVersion, "2025-06-18");
  await c.client.callTool("start");
  assert.deepEqual(answered, answer("plain"));
});

test("basic/utilities/tasks Retrieving Task Results: ctx.sample given params with task (typed there, CreateMessageParams.task) resolves with the completion, the task's result from tasks/result, not with the CreateTaskResult the task-receiving client answers at once; its ttl is asked for", { timeout: 10_000 }, async () => {
  const seen: JsonObject[] = [];
  const c = await connect((s) => s.tool("ask", {}, async (_args, ctx) => {
    const r = await ctx.sample({ ...ASK, task: { ttl: 60000 } });
    seen.push(r as unknown as JsonObject);
    return { content: [{ type: "text", text: JSON.stringify(r.content) }] };
  }), { receiveTasks: true, handlers: { sampling: () => answer("from a task") } }, LEGACY);
  const r = await c.client.callTool("ask");
  assert.deepEqual(r.content, [{ type: "text", text: JSON.stringify({ type: "text", text: "from a task" }) }]);
  assert.equal(seen[0].model, "m");
  assert.equal(c.sent("server", "sampling/createMessage")[0].params.task.ttl, 60000);
  assert.equal(c.sent("server", "tasks/result").length, 1, "the task's result was waited for");
});

test("basic/utilities/tasks Retrieving Task Results: ctx.elicit given params with task (ElicitRequestParams is task-augmentable) resolves with the client's answer from tasks/result, not with the CreateTaskResult the task-receiving client answers at once", { timeout: 10_000 }, async () => {
  const seen: JsonObject[] = [];
  const form = { message: "name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };
  const c = await connect((s) => s.tool("ask", {}, async (_args, ctx) => {
    const r = await ctx.elicit({ ...form, task: { ttl: 60000 } });
    seen.push(r as unknown as JsonObject);
    return { content: [{ type: "text", text: String(r.content?.name) }] };
  }), { receiveTasks: true, handlers: { elicitation: () => ({ action: "accept", content: { name: "ada" } }) } }, LEGACY);
  const r = await c.client.callTool("ask");
  assert.deepEqual(r.content, [{ type: "text", text: "ada" }]);
  assert.equal(seen[0].action, "accept");
  assert.equal(c.sent("server", "elicitation/create")[0].params.task.ttl, 60000);
  assert.equal(c.sent("server", "tasks/result").length, 1, "the task's result was waited for");
});
