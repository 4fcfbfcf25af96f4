// Spec: 2025-11-25 basic/utilities/tasks ("Capabilities": a receiver that supports
// task-augmented tools/call MUST declare tasks.requests.tools.call; "Tool-Level
// Negotiation"). McpServerCore and McpClientCore are McpServer and McpClient with the task
// runtime left out: no runtime, no task capability and no task tools; a runtime given,
// the same task behaviour as the full classes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, McpServerCore } from "../../src/api/server.js";
import { McpClient, McpClientCore } from "../../src/api/client.js";
import { TaskRuntime } from "../../src/api/tasks.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import type { CreateTaskResult } from "../../src/api/types.js";

const LEGACY = { versions: ["2025-11-25" as const] };
const ok = { content: [{ type: "text" as const, text: "done" }] };

async function pair(server: McpServerCore, client: McpClientCore): Promise<void> {
  const [s, c] = createMemoryPair();
  server.connect(s);
  await client.connect(c);
}

test("McpServerCore without a runtime: plain tools work, a task tool cannot be registered, no tasks capability, tasks/* is -32601", async () => {
  const clock = new ManualClock();
  const server = new McpServerCore({ name: "core", version: "1" }, { clock, session: LEGACY });
  server.tool("plain", {}, () => ok);
  assert.throws(() => server.tool("job", { execution: { taskSupport: "optional" } }, () => ok), /taskSupport/);
  assert.equal(server.tasks, undefined);
  const client = new McpClient({ name: "c", version: "1" }, { clock, session: LEGACY });
  await pair(server, client);
  assert.equal((client.serverCapabilities as { tasks?: unknown }).tasks, undefined, "no task support declared");
  assert.deepEqual(await client.callTool("plain"), ok);
  // A task asked of a server that declared no task support: processed normally ("MUST process ... normally").
  assert.deepEqual(await client.callToolAsTask("plain"), ok);
  await assert.rejects(client.listTasks(), (e: { code?: number }) => e.code === -32601);
});

test("McpServerCore with a runtime given serves task tools exactly as McpServer does", async () => {
  const clock = new ManualClock();
  const answers: unknown[] = [];
  for (const make of [
    () => new McpServerCore({ name: "core", version: "1" }, { clock, session: LEGACY, tasks: new TaskRuntime({ clock }) }),
    () => new McpServer({ name: "full", version: "1" }, { clock, session: LEGACY }),
  ]) {
    const server = make();
    server.tool("job", { execution: { taskSupport: "optional" } }, () => ok);
    const client = new McpClient({ name: "c", version: "1" }, { clock, session: LEGACY });
    await pair(server, client);
    assert.deepEqual((client.serverCapabilities as { tasks?: unknown }).tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const created = (await client.callToolAsTask("job")) as CreateTaskResult;
    assert.equal(created.task?.status, "working");
    answers.push((await client.getTaskResult(created.task!.taskId)).content);
  }
  assert.deepEqual(answers, [ok.content, ok.content]);
});

test("McpClientCore declares task receipt only with a runtime given; McpClient builds one from receiveTasks: true", () => {
  const sampling = { sampling: () => ({ role: "assistant" as const, content: { type: "text" as const, text: "x" }, model: "m" }) };
  const bare = new McpClientCore({ name: "c", version: "1" }, { handlers: sampling });
  assert.equal(bare.capabilities.tasks, undefined);
  const given = new McpClientCore({ name: "c", version: "1" }, { handlers: sampling, receiveTasks: new TaskRuntime() });
  const full = new McpClient({ name: "c", version: "1" }, { handlers: sampling, receiveTasks: true });
  assert.deepEqual(given.capabilities.tasks, { list: {}, cancel: {}, requests: { sampling: { createMessage: {} } } });
  assert.deepEqual(full.capabilities.tasks, given.capabilities.tasks);
});
