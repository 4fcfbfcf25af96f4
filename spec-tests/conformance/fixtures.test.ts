// The demo server's fixtures for the conformance suite's 2026-07-28 scenarios
// (src/demo/draft-fixtures.ts, src/demo/task-fixtures.ts), in process on virtual time:
// one handler per fixture serves both eras.
// Spec: draft basic/patterns/mrtr (InputRequiredResult, requestState), draft basic/index
// (-32021 for an undeclared client capability), draft server/utilities/logging, SEP-2663
// (input_required tasks answered through tasks/update), draft streamable-http
// (x-mcp-header).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer } from "../../src/demo/server.js";
import { declaredCapabilities } from "../../src/demo/draft-fixtures.js";
import { McpClient, type McpClientOptions } from "../../src/api/client.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { ManualClock } from "../../src/driver/clock.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";

type Era = "2026-07-28" | "2025-11-25";

const answering: McpClientOptions["handlers"] = {
  elicitation: (p) => {
    const props = Object.keys(((p as JsonObject).requestedSchema as { properties: object }).properties);
    const content: Record<string, unknown> = {};
    for (const k of props) content[k] = k === "ok" || k === "confirm" ? true : `v-${k}`;
    return { action: "accept", content } as never;
  },
  sampling: () => ({ role: "assistant", content: { type: "text", text: "Paris" }, model: "m", stopReason: "endTurn" }),
  roots: () => [{ uri: "file:///a", name: "a" }, { uri: "file:///b", name: "b" }],
};

async function pair(era: Era, options: { handlers?: McpClientOptions["handlers"]; tasks?: boolean } = {}) {
  const clock = new ManualClock();
  const server = createDemoServer({ clock, delay: async () => {}, server: { session: { versions: ["2026-07-28", "2025-11-25"] } } });
  const wire: { from: "server" | "client"; message: any }[] = [];
  const [s, c] = createMemoryPair({ onSend: (i, text) => wire.push({ from: i === 0 ? "server" : "client", message: JSON.parse(text) }) });
  server.connect(s);
  const client = new McpClient({ name: "fixtures-test", version: "1" }, { clock, handlers: options.handlers ?? answering, tasks: options.tasks ?? false, session: { versions: [era] } });
  await client.connect(c);
  return { client, server, clock, wire };
}

const textOf = (r: JsonObject) => (r.content as { text: string }[])[0].text;

for (const era of ["2026-07-28", "2025-11-25"] as const) {
  test(`mrtr fixtures, ${era}: each test_input_required_result_* tool completes with what the client answered`, async () => {
    const { client } = await pair(era);
    assert.equal(textOf(await client.callTool("test_input_required_result_elicitation")), "Hello, v-name!");
    assert.equal(textOf(await client.callTool("test_input_required_result_sampling")), "Sampling result: Paris");
    assert.equal(textOf(await client.callTool("test_input_required_result_list_roots")), "Found 2 root(s)");
    assert.match(textOf(await client.callTool("test_input_required_result_request_state")), /^state-ok: confirmed=true$/);
    assert.equal(textOf(await client.callTool("test_input_required_result_multiple_inputs")), "Name: v-name; Greeting: Paris; Roots: 2");
    assert.equal(textOf(await client.callTool("test_input_required_result_multi_round")), "Multi-round complete for v-name who likes v-color");
    assert.equal(textOf(await client.callTool("test_input_required_result_tampered_state")), "integrity-ok: state verified");
    assert.equal(textOf(await client.callTool("test_input_required_result_capabilities")), "capabilities-ok: received elicit_input,sample_input");
    const prompt = await client.getPrompt("test_input_required_result_prompt");
    assert.deepEqual(prompt.messages[0].content, { type: "text", text: "Prompt with context: v-context" });
  });

  test(`test_missing_capability, ${era}: -32021 naming sampling without it, "Success" with it`, async () => {
    const without = await pair(era, { handlers: {} });
    await assert.rejects(without.client.callTool("test_missing_capability"), (e: any) => e.code === -32021 && typeof e.data.requiredCapabilities.sampling === "object");
    // Asked of a client without the capabilities, the capability-driven fixture asks for nothing.
    assert.equal(textOf(await without.client.callTool("test_input_required_result_capabilities")), "No supported capabilities declared");
    const withIt = await pair(era);
    assert.equal(textOf(await withIt.client.callTool("test_missing_capability")), "Success");
  });
}

test("stateless fixtures: test_streaming_elicitation completes with progress; test_logging_tool logs only when asked", async () => {
  const { client } = await pair("2026-07-28");
  const progress: number[] = [];
  assert.equal(textOf(await client.callTool("test_streaming_elicitation", {}, { onProgress: (p) => progress.push(p.progress) })), "Streaming complete");
  assert.deepEqual(progress, [50]);
  const logs: unknown[] = [];
  client.onNotification("notifications/message", (p) => logs.push(p));
  assert.equal(textOf(await client.callTool("test_logging_tool")), "Logging evaluated");
  for (let i = 0; i < 10; i++) await Promise.resolve();
  assert.deepEqual(logs, []);
});

test("test_custom_headers: its x-mcp-header parameters are listed verbatim and remembered by DemoServer.inputSchemaOf", async () => {
  const { client, server } = await pair("2026-07-28");
  const tool = (await client.listTools()).tools.find((t) => t.name === "test_custom_headers")!;
  assert.equal((tool.inputSchema.properties as any).region["x-mcp-header"], "Region");
  assert.deepEqual(server.inputSchemaOf("test_custom_headers"), tool.inputSchema);
  assert.equal(server.inputSchemaOf("no_such_tool"), undefined);
  assert.equal(textOf(await client.callTool("test_custom_headers", { region: "eu", priority: 3 })), "region=eu priority=3 query=");
  // Unregistering forgets the schema; a stale unregister does not touch a newer tool of the same name.
  const drop = server.tool("tmp_tool", { inputSchema: { type: "object", properties: { a: { type: "string" } } } }, () => ({ content: [] }));
  drop();
  const again = server.tool("tmp_tool", { inputSchema: { type: "object", properties: { b: { type: "string" } } } }, () => ({ content: [] }));
  drop();
  assert.deepEqual(Object.keys((server.inputSchemaOf("tmp_tool") as any).properties), ["b"]);
  again();
  assert.equal(server.inputSchemaOf("tmp_tool"), undefined);
});

test("declaredCapabilities: a modern request's _meta declaration, else the session's, else none", () => {
  const meta = { "io.modelcontextprotocol/clientCapabilities": { sampling: {} } };
  assert.deepEqual(declaredCapabilities({ meta, client: undefined } as never), { sampling: {} });
  assert.deepEqual(declaredCapabilities({ meta: undefined, client: { capabilities: { roots: {} } } } as never), { roots: {} });
  assert.deepEqual(declaredCapabilities({ meta: { "io.modelcontextprotocol/clientCapabilities": [] }, client: undefined } as never), {});
});

/** Lets the task runtime's microtasks run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

test("confirm_delete as a task (tasks extension): input_required with one request; tasks/update resumes it to completed", async () => {
  const { client } = await pair("2026-07-28", { tasks: true });
  const created = (await client.callToolAsTask("confirm_delete", { filename: "a.txt" })) as JsonObject;
  const id = client.taskIdOf(created)!;
  await flush();
  const waiting = (await client.getTask(id)) as JsonObject;
  assert.equal(waiting.status, "input_required");
  const keys = Object.keys(waiting.inputRequests as object);
  assert.equal(keys.length, 1);
  await client.updateTask(id, { [keys[0]]: { action: "accept", content: { confirm: true } } });
  await flush();
  const done = (await client.getTask(id)) as JsonObject;
  assert.equal(done.status, "completed");
  assert.equal(textOf(done.result as JsonObject), "Deleted a.txt");
});

test("multi_input as a task: two requests pending; answering one keeps the task waiting with the other only", async () => {
  const { client } = await pair("2026-07-28", { tasks: true });
  const id = client.taskIdOf((await client.callToolAsTask("multi_input")) as JsonObject)!;
  await flush();
  const both = Object.keys(((await client.getTask(id)) as JsonObject).inputRequests as object);
  assert.equal(both.length, 2);
  await client.updateTask(id, { [both[0]]: { action: "accept", content: { name: "one", confirm: true } } });
  await flush();
  const partial = (await client.getTask(id)) as JsonObject;
  assert.equal(partial.status, "input_required");
  assert.deepEqual(Object.keys(partial.inputRequests as object), [both[1]]);
  await client.updateTask(id, { [both[1]]: { action: "accept", content: { name: "two", confirm: true } } });
  await flush();
  const done = (await client.getTask(id)) as JsonObject;
  assert.equal(done.status, "completed");
  assert.equal(textOf(done.result as JsonObject), "multi_input: first=one, second=two");
});

test("confirm_delete and test_tool_with_task called plainly: ordinary MRTR tools (a declined answer keeps the file)", async () => {
  const declining: McpClientOptions["handlers"] = { elicitation: () => ({ action: "decline" }) };
  const { client } = await pair("2026-07-28", { handlers: declining });
  assert.equal(textOf(await client.callTool("confirm_delete")), "Kept file.txt (decline)");
  // test_tool_with_task requires a task: without the extension it is -32021.
  await assert.rejects(client.callTool("test_tool_with_task"), (e: any) => e.code === -32021);
});

test("SEP-2663 composition with MRTR: test_tool_with_task answers round 1 synchronously with input_required (no task yet); the retry with the answer becomes the task, which completes with it", async () => {
  const asked: string[] = [];
  const naming: McpClientOptions["handlers"] = { elicitation: (p) => (asked.push(String(p.message)), { action: "accept", content: { name: "Alice" } }) };
  const { client, wire } = await pair("2026-07-28", { tasks: true, handlers: naming });
  const created = (await client.callToolAsTask("test_tool_with_task")) as JsonObject;
  assert.deepEqual(asked, ["What is your name?"], "the elicitation came in round 1, before any task");
  const rounds = wire.filter((w) => w.from === "server" && w.message.result !== undefined && w.message.result.resultType !== undefined).map((w) => w.message.result.resultType);
  assert.deepEqual(rounds.slice(-2), ["input_required", "task"]);
  assert.equal(created.resultType, "task");
  assert.equal(created.requestState, undefined);
  assert.equal(created.inputRequests, undefined);
  const id = client.taskIdOf(created)!;
  await flush();
  const done = (await client.getTask(id)) as JsonObject;
  assert.equal(done.status, "completed");
  assert.equal(textOf(done.result as JsonObject), "Hello from the task, Alice!");
});
