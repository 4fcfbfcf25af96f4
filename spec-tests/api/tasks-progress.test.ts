// Spec: 2025-11-25 basic/utilities/tasks "Task-Augmented Requests" / progress: "The
// progressToken provided in the initial request remains valid throughout the task
// lifetime", and no progress for it once the task is terminal.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, deferred } from "./setup.js";

async function flush(n = 30): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

test("basic/utilities/tasks: progress for the task's token still reaches the requestor after CreateTaskResult, until the task is terminal; none after", async () => {
  const gate = deferred();
  const seen: number[] = [];
  let late: (() => void) | undefined;
  const c = await connect(
    (s) =>
      s.tool("job", { execution: { taskSupport: "optional" } }, async (_args, ctx) => {
        ctx.progress(1, 3);
        await gate.promise;
        ctx.progress(2, 3);
        late = () => ctx.progress(3, 3);
        return { content: [{ type: "text", text: "done" }] };
      }),
    { tasks: true },
    { session: { versions: ["2025-11-25"] }, tasks: {} },
  );
  const created = await c.client.callToolAsTask("job", {}, {}, { onProgress: (p) => seen.push(p.progress) });
  const id = c.client.taskIdOf(created)!;
  assert.ok(id !== undefined, "a CreateTaskResult");
  gate.resolve();
  await flush();
  assert.deepEqual((await c.client.waitForTask(id)).content, [{ type: "text", text: "done" }]);
  late!();
  await flush();
  const tokens = c.sent("server", "notifications/progress").map((m) => m.params.progress);
  assert.deepEqual(tokens, [1, 2], "progress while the task works; none after it completed");
  assert.deepEqual(seen, [1, 2], "the requestor's onProgress hears the task's progress after CreateTaskResult");
});

test("basic/utilities/tasks Associating Task-Related Messages: all notifications related to a task MUST include io.modelcontextprotocol/related-task: the log messages and progress its handler sends", async () => {
  const gate = deferred();
  const c = await connect(
    (s) =>
      s.tool("job", { execution: { taskSupport: "optional" } }, async (_args, ctx) => {
        await gate.promise;
        ctx.progress(1, 2);
        ctx.log("info", "halfway");
        return { content: [{ type: "text", text: "done" }] };
      }),
    { tasks: true },
    { session: { versions: ["2025-11-25"] }, tasks: {}, capabilities: { logging: {} } },
  );
  await c.client.setLoggingLevel("debug");
  const id = c.client.taskIdOf(await c.client.callToolAsTask("job", {}, {}, { onProgress: () => {} }))!;
  gate.resolve();
  await c.client.waitForTask(id);
  await flush();
  const sent = [...c.sent("server", "notifications/progress"), ...c.sent("server", "notifications/message")];
  assert.equal(sent.length, 2);
  for (const m of sent) assert.deepEqual(m.params._meta?.["io.modelcontextprotocol/related-task"], { taskId: id }, m.method);
});
