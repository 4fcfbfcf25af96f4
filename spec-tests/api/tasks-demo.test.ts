// Spec: 2025-11-25 basic/utilities/tasks and SEP-2663 (tasks extension): the demo
// server's slow_compute (taskSupport "optional") runs as a real task in both eras, with
// progress while it works and its result once done; failing_job and protocol_error_job
// show the eras' different outcome classification.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer } from "../../src/demo/server.js";
import { McpClient } from "../../src/api/client.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import type { CallToolResult, CreateTaskResult } from "../../src/api/types.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";

async function demo(versions: ("2026-07-28" | "2025-11-25")[], tasks: boolean) {
  const clock = new ManualClock();
  const server = createDemoServer({ clock, server: { session: { versions: ["2026-07-28", "2025-11-25"] } } });
  const [a, b] = createMemoryPair();
  server.connect(a);
  const client = new McpClient({ name: "t", version: "1" }, { clock, tasks, session: { versions } });
  await client.connect(b);
  return { clock, server, client };
}

async function settle(clock: ManualClock, ms: number): Promise<void> {
  for (let t = 0; t <= ms; t += 500) {
    for (let i = 0; i < 50; i++) await Promise.resolve();
    clock.advance(500);
  }
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

test("demo slow_compute, 2025-11-25: a task-augmented call answers a CreateTaskResult; tasks/result gives the tool result after the work", async () => {
  const { clock, client } = await demo(["2025-11-25"], false);
  const tool = (await client.listTools()).tools.find((t) => t.name === "slow_compute");
  assert.equal(tool?.execution?.taskSupport, "optional");
  const { task } = (await client.callToolAsTask("slow_compute", { seconds: 2, label: "L" }, { ttl: 60_000 })) as CreateTaskResult;
  assert.equal(task?.status, "working");
  const result = client.getTaskResult(task!.taskId);
  await settle(clock, 2000);
  assert.deepEqual(((await result) as CallToolResult).content, [{ type: "text", text: "L: done after 2s" }]);
  assert.equal((await client.getTask(task!.taskId)).status, "completed");
});

test("demo failing_job / protocol_error_job as tasks, 2025-11-25: both end failed; tasks/result returns the isError result, or rejects with the JSON-RPC error", async () => {
  const { client } = await demo(["2025-11-25"], false);
  const f = ((await client.callToolAsTask("failing_job")) as CreateTaskResult).task!.taskId;
  assert.equal(((await client.getTaskResult(f)) as CallToolResult).isError, true);
  assert.equal((await client.getTask(f)).status, "failed");
  const p = ((await client.callToolAsTask("protocol_error_job")) as CreateTaskResult).task!.taskId;
  await assert.rejects(client.getTaskResult(p), (e: any) => e.code === -32603);
  assert.equal((await client.getTask(p)).status, "failed");
});

test("demo slow_compute, 2026-07-28 with the tasks extension: the server answers a task; polling tasks/get ends completed with the result inline", async () => {
  const { clock, client } = await demo(["2026-07-28"], true);
  const created = (await client.callToolAsTask("slow_compute", { seconds: 1 })) as JsonObject;
  assert.equal(created.resultType, "task");
  const id = client.taskIdOf(created)!;
  assert.equal((await client.getTask(id)).status, "working");
  await settle(clock, 1000);
  const done = await client.getTask(id);
  assert.equal(done.status, "completed");
  assert.deepEqual((done.result as JsonObject).content, [{ type: "text", text: "slow_compute: done after 1s" }]);
  // failed is for JSON-RPC errors only under the extension.
  const f = client.taskIdOf((await client.callToolAsTask("failing_job")) as JsonObject)!;
  for (let i = 0; i < 20; i++) await Promise.resolve();
  assert.equal((await client.getTask(f)).status, "completed");
});

test("demo slow_compute, 2026-07-28 without the extension: the plain result, never a task", async () => {
  const { clock, client } = await demo(["2026-07-28"], false);
  const call = client.callTool("slow_compute", { seconds: 1 });
  await settle(clock, 1000);
  const r = (await call) as JsonObject;
  assert.notEqual(r.resultType, "task");
  assert.deepEqual(r.content, [{ type: "text", text: "slow_compute: done after 1s" }]);
});
