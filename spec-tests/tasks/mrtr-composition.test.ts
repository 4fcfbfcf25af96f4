// docs/extensions/tasks/overview.mdx and seps/2663-tasks-extension.md, composition with
// multi round-trip requests: a server MAY answer a first round synchronously with
// `input_required` and only create the task on the retry that carries the answers.
// McpServer exposes that as the tool option `inputBeforeTask`; other task-capable tools
// keep becoming a task from the first round.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "../../src/api/server.js";
import { McpClient } from "../../src/api/client.js";
import { inputRequired } from "../../src/api/mrtr.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { ManualClock } from "../../src/driver/clock.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";

const flush = () => new Promise((r) => setImmediate(r));

async function pair() {
  const clock = new ManualClock();
  const server = new McpServer({ name: "compose", version: "1" }, { clock, session: { versions: ["2026-07-28"] }, tasks: {} });
  let calls = 0;
  for (const [name, inputBeforeTask] of [["gather_first", true], ["task_first", false]] as const) {
    server.tool(name, { execution: { taskSupport: "required" }, inputBeforeTask }, (_args, ctx) => {
      calls++;
      const answer = ctx.inputResponses?.name as { content?: { name?: string } } | undefined;
      if (answer === undefined) return inputRequired({ name: { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } } });
      return { content: [{ type: "text", text: `Hi ${answer.content?.name}` }] };
    });
  }
  const wire: JsonObject[] = [];
  const [s, c] = createMemoryPair({ onSend: (i, text) => { if (i === 0) wire.push(JSON.parse(text)); } });
  server.connect(s);
  const client = new McpClient({ name: "t", version: "1" }, { clock, tasks: true, session: { versions: ["2026-07-28"] }, handlers: { elicitation: () => ({ action: "accept", content: { name: "Ada" } }) } });
  await client.connect(c);
  const resultTypes = () => wire.filter((m) => (m.result as JsonObject | undefined)?.resultType !== undefined).map((m) => (m.result as JsonObject).resultType);
  return { server, client, resultTypes, calls: () => calls };
}

test("tasks/overview (composition with MRTR): an inputBeforeTask tool answers round 1 synchronously with input_required, and the retry with the answers becomes the task", async () => {
  const { client, resultTypes } = await pair();
  const created = (await client.callToolAsTask("gather_first")) as JsonObject;
  assert.deepEqual(resultTypes().slice(-2), ["input_required", "task"]);
  assert.equal(created.resultType, "task");
  const id = client.taskIdOf(created)!;
  await flush();
  const done = (await client.getTask(id)) as JsonObject;
  assert.equal(done.status, "completed");
  assert.equal(((done.result as JsonObject).content as { text: string }[])[0].text, "Hi Ada");
});

test("tasks/overview: a task-capable tool without inputBeforeTask still becomes a task in round 1 (its input_required is the task's)", async () => {
  const { client, resultTypes } = await pair();
  const created = (await client.callToolAsTask("task_first")) as JsonObject;
  assert.deepEqual(resultTypes().slice(-1), ["task"]);
  assert.ok(!resultTypes().includes("input_required"), "no synchronous input round");
  const id = client.taskIdOf(created)!;
  await flush();
  const task = (await client.getTask(id)) as JsonObject;
  assert.equal(task.status, "input_required");
});

test("tasks/overview + basic/patterns/mrtr (if the InputRequiredResult does not contain a requestState, the client MUST NOT include one in the retry): a task whose handler's later input_required carries no state is run again without the state its creating MRTR retry carried", async () => {
  const clock = new ManualClock();
  const server = new McpServer({ name: "compose", version: "1" }, { clock, session: { versions: ["2026-07-28"] }, tasks: {} });
  const states: (string | undefined)[] = [];
  const form = (message: string) => ({ method: "elicitation/create" as const, params: { message, requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } } });
  server.tool("steps", { execution: { taskSupport: "required" }, inputBeforeTask: true }, (_args, ctx) => {
    states.push(ctx.requestState);
    if (ctx.inputResponses === undefined) return inputRequired({ a: form("A?") }, "first");
    if (ctx.requestState === "first") return inputRequired({ b: form("B?") });
    return { content: [{ type: "text", text: `state ${String(ctx.requestState)}` }] };
  });
  const [s, c] = createMemoryPair();
  server.connect(s);
  const client = new McpClient({ name: "t", version: "1" }, { clock, tasks: true, session: { versions: ["2026-07-28"] }, handlers: { elicitation: () => ({ action: "accept", content: { name: "Ada" } }) } });
  await client.connect(c);
  const id = client.taskIdOf((await client.callToolAsTask("steps")) as JsonObject)!;
  const done = await client.waitForTask(id, { timeoutMs: 10_000 });
  assert.deepEqual(states, [undefined, "first", undefined]);
  assert.deepEqual(done.content, [{ type: "text", text: "state undefined" }]);
});
