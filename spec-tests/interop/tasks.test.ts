// Interop: tasks (2025-11-25 basic/utilities/tasks), the one peer that has them being the
// official SDK 1.x (its experimental task store; SDK 2.x has no task runtime). Our client
// drives a task-augmented tools/call on the SDK 1.x server over stdio and Streamable
// HTTP; the SDK 1.x client sends one to our server, whose demo tools run as tasks.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client as Sdk1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Sdk1Stdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpClient } from "../../src/api/client.js";
import type { Transport } from "../../src/api/transport.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { spawnStdioServer } from "../../src/transports/stdio.js";
import { compiledFixture, fixtureCommand, rejectionCode, sourceFixture, startHttpPeer, type HttpPeer } from "./harness.js";

const SDK1_SERVER = sourceFixture("sdk1-server.mjs");
const RELATED_TASK = "io.modelcontextprotocol/related-task";
const ISO_8601 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

interface Task {
  taskId: string;
  status: string;
  ttl: number | null;
  createdAt: string;
  lastUpdatedAt: string;
}

function taskSuite(title: string, open: () => Promise<Transport>, stop?: () => Promise<void>): void {
  describe(title, () => {
    const client = new McpClient({ name: "interop-client", version: "1.0.0" });
    let task: Task;
    before(async () => {
      await client.connect(await open());
    });
    after(async () => {
      client.close();
      await stop?.();
    });

    test("basic/utilities/tasks: a receiver that accepts a task-augmented request MUST return a CreateTaskResult (string taskId, createdAt, lastUpdatedAt)", { timeout: 8_000 }, async () => {
      const caps = client.serverCapabilities as { tasks?: { requests?: { tools?: { call?: object } } } };
      assert.ok(caps.tasks?.requests?.tools?.call, "the server declares tasks.requests.tools.call");
      const tool = (await client.listTools()).tools.find((t) => t.name === "interop_task");
      assert.equal(tool?.execution?.taskSupport, "optional");
      const created = (await client.request("tools/call", { name: "interop_task", arguments: { text: "as a task" }, task: { ttl: 60_000 } })) as { task: Task };
      task = created.task;
      assert.equal(typeof task.taskId, "string");
      assert.match(task.createdAt, ISO_8601);
      assert.match(task.lastUpdatedAt, ISO_8601);
    });

    test("basic/utilities/tasks: tasks/get MUST report the status and the actual ttl; tasks/list MUST list every task tasks/get can see", { timeout: 8_000 }, async () => {
      const got = (await client.request("tasks/get", { taskId: task.taskId })) as unknown as Task;
      assert.equal(got.taskId, task.taskId);
      assert.equal(got.status, "completed");
      assert.equal(got.ttl, 60_000);
      const listed = (await client.request("tasks/list", {})) as { tasks: Task[] };
      assert.ok(listed.tasks.some((t) => t.taskId === task.taskId));
    });

    test("basic/utilities/tasks: tasks/result of a terminal task MUST return what the request would have, with related-task in _meta", { timeout: 8_000 }, async () => {
      const result = (await client.request("tasks/result", { taskId: task.taskId })) as { content: unknown[]; _meta?: JsonObject };
      assert.deepEqual(result.content, [{ type: "text", text: "task says: as a task" }]);
      assert.deepEqual(result._meta?.[RELATED_TASK], { taskId: task.taskId });
    });

    test("basic/utilities/tasks: cancelling a task already in a terminal status MUST be rejected with -32602", { timeout: 8_000 }, async () => {
      assert.equal(await rejectionCode(client.request("tasks/cancel", { taskId: task.taskId })), -32602);
    });
  });
}

taskSuite("our client → SDK 1.x server (task store), stdio, 2025-11-25", async () => {
  const { command, args } = fixtureCommand(SDK1_SERVER, "--stdio");
  return spawnStdioServer(command, args, { stderr: "inherit" });
});

let peer: HttpPeer | undefined;
taskSuite(
  "our client → SDK 1.x server (task store), Streamable HTTP, 2025-11-25",
  async () => {
    peer = await startHttpPeer(SDK1_SERVER);
    return httpClientTransport(peer.url);
  },
  async () => peer?.stop(),
);

describe("SDK 1.x client → our server, stdio, 2025-11-25: tasks", () => {
  const client = new Sdk1Client({ name: "interop-client", version: "1.0.0" });
  before(async () => {
    await client.connect(new Sdk1Stdio({ ...fixtureCommand(compiledFixture("our-server.js"), "--stdio"), stderr: "inherit" }));
  });
  after(async () => {
    await client.close();
  });

  test("basic/utilities/tasks: a task-augmented call of a tool whose taskSupport is forbidden (absent) is -32601; called plainly it runs normally", { timeout: 8_000 }, async () => {
    // The client breaks its own MUST NOT (no task augmentation of a forbidden tool) on purpose, to check the receiver's rule.
    const refused = client.request({ method: "tools/call", params: { name: "greet", arguments: { name: "task" }, task: { ttl: 60_000 } } }, CallToolResultSchema);
    assert.equal(await rejectionCode(refused), -32601);
    const r = await client.request({ method: "tools/call", params: { name: "greet", arguments: { name: "task" } } }, CallToolResultSchema);
    assert.deepEqual(r.content, [{ type: "text", text: "Hello, task!" }]);
  });

  test(
    "basic/utilities/tasks: a tool with execution.taskSupport \"optional\" runs as a task when asked (our server declaring tasks.requests.tools.call)",
    { timeout: 8_000 },
    async () => {
      const caps = client.getServerCapabilities() as { tasks?: { requests?: { tools?: { call?: object } } } };
      assert.ok(caps.tasks?.requests?.tools?.call, "tasks.requests.tools.call declared");
      const created = await client.request({ method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 0 }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
      assert.equal(typeof created.task.taskId, "string");
    },
  );
});
